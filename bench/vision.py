"""Vision figures on rendered photos: points and whole boards read right,
occluded photos refused (also when judged as a move, before and after one),
moves identified by the photo judge (also where the light changed between
the frames), moves played one pip too far caught (never passed as legal;
with the before photo and with the photo alone), speed.

Each *board* is one random style under one camera, light and lens; it is
calibrated once from a render of the starting position (as a referee is set
up once) and read back from its calibration file (as the referee reads it),
then photographed in random positions reached by random legal play. Each
board has its own seed, so a board whose calibration fails in one version
of the code leaves the others unchanged: two versions can be compared on
the same photos. Run::

    python bench/vision.py            # 1,000 photos (about 7 minutes on this 2-core machine)
    python bench/vision.py --quick    # smoke test
    python bench/vision.py --n 2000 --seed 7
    python bench/vision.py --empty-photo   # calibrated with a photo of the empty board too
    python bench/vision.py --clicked 3     # calibrated from corners clicked by hand, 3 px off
    python bench/vision.py --n 200 --show-errors --dump /tmp/failed
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this file's own name would shadow the vision package

from engine.dice import Dice  # noqa: E402
from engine.legal import legal_plays  # noqa: E402
from engine.position import Position  # noqa: E402
from vision.calibration import Calibration, calibrate  # noqa: E402
from vision.errors import CalibrationError  # noqa: E402
from vision.geometry import Lens, homography  # noqa: E402
from vision.judge import PhotoVerdict, judge_photo  # noqa: E402
from vision.layout import Layout, layout_from_position  # noqa: E402
from vision.read import read_board  # noqa: E402
from vision.render import CameraPose, Effects, Lighting, lens_calibration, random_style, render  # noqa: E402

PHOTO_SIZE = (1280, 720)


@dataclass
class Board:
    """One board under one camera, calibrated."""

    style: object
    camera: CameraPose
    lighting: Lighting
    effects: Effects
    board_seed: int
    calibration: Calibration


def lens_for(effects: Effects) -> Lens | None:
    """The lens calibration a set-up would have measured for this camera."""
    if effects.barrel <= 0:
        return None
    matrix, coeffs = lens_calibration(PHOTO_SIZE, effects.barrel)
    return Lens(
        camera_matrix=tuple(tuple(float(v) for v in row) for row in matrix),  # type: ignore[arg-type]
        dist_coeffs=tuple(float(v) for v in coeffs),
    )


def random_game(rng: random.Random, turns: int) -> tuple[Position, str]:
    """A position reached by ``turns`` random legal plays from the start, and
    the colour on roll (light moves first)."""
    position = Position.start()
    mover = "light"
    for _ in range(turns):
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(position, dice)
        after = rng.choice(plays).after
        if sum(after.me[1:]) == 0:  # game over: keep the last position
            break
        position = after.swap()
        mover = "dark" if mover == "light" else "light"
    return position, mover


def one_pip_further(rng: random.Random, after: Position, outcomes: set[Position]) -> Position | None:
    """An illegal outcome close to a legal one: ``after`` (the mover's side
    is ``me``) with one of the mover's checkers one pip further, onto an
    empty point or its own, where no legal play leads; None when there is
    none."""
    me, them = list(after.me), after.them
    choices = [p for p in range(2, 25) if me[p] and not them[25 - (p - 1)]]
    rng.shuffle(choices)
    for point in choices:
        moved = me.copy()
        moved[point] -= 1
        moved[point - 1] += 1
        candidate = Position(tuple(moved), them)
        if candidate not in outcomes:
            return candidate
    return None


def light_layout(position: Position, mover: str) -> Layout:
    """The picture of ``position`` (``me`` on roll, playing ``mover``) on a
    board where light's home is bottom-right."""
    return layout_from_position(position if mover == "light" else position.swap(), mover="light", home="bottom-right")


def make_board(np_rng: np.random.Generator, *, empty_photo: bool = False, clicked: float = 0.0) -> Board | None:
    """A random board, calibrated from a render of the starting position
    (and, with ``empty_photo``, one of the empty board, drawn from a seed of
    its own so that the photos that follow are the same either way), from
    its corners moved ``clicked`` px (a standard deviation, each
    coordinate, drawn from a seed of its own) as a hand clicks them; and
    read back from its calibration file, as the referee reads it."""
    style = random_style(np_rng)
    camera = CameraPose.random(np_rng)
    lighting = Lighting.random(np_rng)
    effects = Effects.random(np_rng)
    board_seed = int(np_rng.integers(1 << 30))
    start = layout_from_position(Position.start())
    shot = render(
        start, rng=np_rng, style=style, camera=camera, lighting=lighting, effects=effects, board_seed=board_seed
    )
    corners = shot.corners + np.random.default_rng([board_seed, 1]).normal(0, clicked, (4, 2))
    empty = None
    if empty_photo:
        empty = render(
            Layout(top=(0,) * 12, bottom=(0,) * 12),
            rng=np.random.default_rng(board_seed),
            style=style,
            camera=camera,
            lighting=lighting,
            effects=effects,
            board_seed=board_seed,
        ).image
    try:
        try:
            calibration = calibrate(shot.image, corners, lens=lens_for(effects), empty=empty, tray=shot.tray)
        except CalibrationError as exc:
            if empty is None or exc.reason == "not_start_position":
                raise
            # a user would take the empty photo again; the bench goes on
            # without it, so that both ways read the same boards
            calibration = calibrate(shot.image, corners, lens=lens_for(effects), tray=shot.tray)
            print(f"  empty photo refused ({style.name}): {exc.reason}: {str(exc)[:160]}", file=sys.stderr)
    except CalibrationError as exc:
        print(f"  calibration failed ({style.name}): {exc.reason}: {str(exc)[:160]}", file=sys.stderr)
        return None
    # read as the referee reads it: from the file ``nardref calibrate`` wrote (its looks rounded)
    saved = Calibration.from_json(json.loads(json.dumps(calibration.to_json())))
    return Board(style, camera, lighting, effects, board_seed, saved)


def shoot(
    board: Board,
    layout: Layout,
    np_rng: np.random.Generator,
    *,
    occlusion: str = "none",
    reach: tuple[float, float] | None = None,
    gaps: float = 0.0,
    gaps_seed: int | None = None,
) -> np.ndarray:
    shot = render(
        layout,
        rng=np_rng,
        style=board.style,  # type: ignore[arg-type]
        camera=board.camera,
        lighting=board.lighting,
        effects=board.effects,
        board_seed=board.board_seed,
        occlusion=occlusion,  # type: ignore[arg-type]
        reach=reach,
        gaps=gaps,
        gaps_seed=gaps_seed,
    )
    return shot.image


def judge_shot(
    board: Board, position: Position, dice: Dice, mover: str, photo: np.ndarray, before: np.ndarray | None
) -> PhotoVerdict:
    """The photo judge's verdict on ``photo`` of ``board`` after ``mover``
    (whose home is bottom-right for light, top-right for dark) played
    ``dice`` from ``position``, with the frame ``before`` the move or none."""
    return judge_photo(
        position,
        dice,
        photo,
        calibration=board.calibration,
        mover=mover,  # type: ignore[arg-type]
        home="bottom-right" if mover == "light" else "top-right",
        before_image=before,
    )


def names(verdict: PhotoVerdict, after: Position) -> bool:
    """Whether ``verdict`` is legal and names the play that leads to ``after``."""
    return verdict.verdict == "legal" and verdict.play is not None and verdict.play.after == after


def dump(folder: Path, name: str, image: np.ndarray, board: Board, truth: Layout) -> None:
    """Write a photo, its board's calibration and its true layout, for ``nardref detect`` and study."""
    folder.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / f"{name}.png"), image)
    board.calibration.save(folder / f"{name}.board.json")
    (folder / f"{name}.truth.json").write_text(json.dumps(truth.to_dict()) + "\n")


def dump_judged(
    folder: Path,
    name: str,
    photo: tuple[np.ndarray, np.ndarray],
    board: Board,
    case: tuple[Position, Dice, str],
    shown: Position,
) -> None:
    """:func:`dump` a photo judged (``photo``: it and the frame before the move)
    with the case (the position before, the dice, the mover) and what it shows."""
    image, before = photo
    position, dice, mover = case
    dump(folder, name, image, board, light_layout(shown, mover))
    cv2.imwrite(str(folder / f"{name}.before.png"), before)
    (folder / f"{name}.case.json").write_text(
        json.dumps({"before": position.position_id(), "dice": [dice.first, dice.second], "mover": mover}) + "\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=1000, help="photos read (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the photo set")
    parser.add_argument("--per-board", type=int, default=10, help="photos per calibrated board")
    parser.add_argument("--quick", action="store_true", help="a smoke test: 40 photos")
    parser.add_argument(
        "--empty-photo",
        action="store_true",
        help="calibrate each board with a photo of it empty too (nardref calibrate --empty)",
    )
    parser.add_argument(
        "--clicked",
        type=float,
        default=0.0,
        metavar="PX",
        help="calibrate from corners this many px off, as a hand clicks them (a standard deviation, each coordinate)",
    )
    parser.add_argument("--show-errors", action="store_true", help="print every misread point and wrong verdict")
    parser.add_argument(
        "--dump",
        metavar="DIR",
        help="write the photos read wrong or refused, those judged wrong or refused with the frame before "
        "(also in changed light), the moves played one pip too far that passed as legal and the hands over the "
        "board not refused (before and after the move), to DIR, each with its calibration and true layout",
    )
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    n = 40 if args.quick else args.n

    points_right = points_total = boards_right = boards_total = confident_wrong = points_sure = points_read = 0
    bar_right = 0
    refused_clean: Counter[str] = Counter()
    trays: Counter[str] = Counter()  # the bear-off tray: counted surely or not, right or wrong
    occluded_total = occluded_refused = occluded_refused_since = 0
    judged = identified = legal_called_illegal = judge_refused = 0
    judged_b = identified_b = legal_called_illegal_b = judge_refused_b = 0
    wrong_play = unmoved_accepted = unmoved_judged = 0
    covered_judged: Counter[str] = Counter()  # verdicts on the occluded frame, judged as the referee would
    covered_after: Counter[str] = Counter()  # ... on a frame after a legal move with a hand over the board
    relit: Counter[str] = Counter()  # verdicts on a frame after a legal move in changed light
    illegal_shown = illegal_passed = illegal_caught = 0
    illegal_passed_alone = illegal_caught_alone = 0
    by_style: Counter[str] = Counter()
    wrong_by_style: Counter[str] = Counter()
    read_ms: list[float] = []
    warp_ms: list[float] = []
    calibration_failures = empty_refused = 0
    started = time.perf_counter()
    photos = boards_drawn = 0
    while photos < n:
        # each board and its photos come from their own seeds: a board whose
        # calibration fails leaves every other board as it was
        boards_drawn += 1
        np_rng = np.random.default_rng([args.seed, boards_drawn])
        rng = random.Random(args.seed * 1_000_003 + boards_drawn)
        board = make_board(np_rng, empty_photo=args.empty_photo, clicked=args.clicked)
        if board is None:
            calibration_failures += 1
            continue
        empty_refused += args.empty_photo and not board.calibration.empty_seen
        name = board.style.name  # type: ignore[attr-defined]
        for _ in range(min(args.per_board, n - photos)):
            photos += 1
            position, mover = random_game(rng, rng.randint(0, 60))
            truth = light_layout(position, mover)
            image = shoot(board, truth, np_rng)
            t0 = time.perf_counter()
            reading = read_board(image, board.calibration)
            read_ms.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            cv2.warpPerspective(image, homography(board.calibration.geometry), board.calibration.geometry.size)
            warp_ms.append((time.perf_counter() - t0) * 1000)
            boards_total += 1
            by_style[name] += 1
            if reading.refusal is not None:
                refused_clean[reading.refusal.reason] += 1
                if args.show_errors:
                    print(f"  {name} photo {photos}: refused {reading.refusal.message}")
                if args.dump:
                    dump(Path(args.dump), f"refused_{photos:05d}", image, board, truth)
                points_total += 24
                wrong_by_style[name] += 1
            else:
                seen = reading.layout()
                right = sum(a == b for a, b in zip(seen.top + seen.bottom, truth.top + truth.bottom, strict=True))
                conf = reading.confidence.ravel()
                points_sure += int((conf >= board.calibration.read.confident).sum())
                points_read += 24
                confident_wrong += sum(
                    1
                    for a, b, c in zip(seen.top + seen.bottom, truth.top + truth.bottom, conf, strict=True)
                    if a != b and c >= board.calibration.read.confident
                )
                bar_ok = (seen.bar_light, seen.bar_dark) == (truth.bar_light, truth.bar_dark)
                if reading.off is not None:
                    off = reading.off
                    for sure, seen_off, true_off in (
                        (off.light_sure, off.light, truth.off_light),
                        (off.dark_sure, off.dark, truth.off_dark),
                    ):
                        trays[("sure " if sure else "unsure ") + ("right" if seen_off == true_off else "wrong")] += 1
                        if args.show_errors and sure and seen_off != true_off:
                            print(f"  {name} photo {photos}: tray off {truth.off_light},{truth.off_dark} read {off}")
                points_right += right
                points_total += 24
                bar_right += bar_ok
                if right == 24 and bar_ok:
                    boards_right += 1
                else:
                    wrong_by_style[name] += 1
                    if args.dump:
                        dump(Path(args.dump), f"wrong_{photos:05d}", image, board, truth)
                    if args.show_errors:
                        print(
                            f"  {name} photo {photos}: truth {truth.top} {truth.bottom} "
                            f"bar {truth.bar_light},{truth.bar_dark}"
                        )
                        print(
                            f"  {' ' * len(name)}        seen  {seen.top} {seen.bottom} "
                            f"bar {seen.bar_light},{seen.bar_dark}"
                        )
                        print(f"  {' ' * len(name)}        confidence {np.round(reading.confidence, 2).tolist()}")
            # an occluded photo of the same position
            occluded_total += 1
            occlusion = rng.choice(["hand", "arm", "cup"])
            hidden = shoot(board, truth, np_rng, occlusion=occlusion)
            if read_board(hidden, board.calibration).refusal is not None:
                occluded_refused += 1
            else:
                if args.show_errors:
                    print(f"  {name} photo {photos}: a {occlusion} over the board, not refused")
                if args.dump:
                    dump(Path(args.dump), f"occluded_{photos:05d}", hidden, board, truth)
            # ... as the referee reads it: against the frame before (only what changed since can be a hand)
            if read_board(hidden, board.calibration, since=reading).refusal is not None:
                occluded_refused_since += 1
            elif args.show_errors:
                print(f"  {name} photo {photos}: a {occlusion} over the board, not refused against the frame before")
            # the photo judge: a random legal play from this position
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            plays = legal_plays(position, dice)
            if all(lp.after != position for lp in plays):
                # the player has not moved yet: the unchanged board is no legal play
                unmoved_judged += 1
                unmoved = judge_shot(board, position, dice, mover, image, None)
                unmoved_accepted += unmoved.verdict == "legal"
                # a hand over the board when the button is pressed: a refusal, never a verdict
                over = judge_shot(board, position, dice, mover, hidden, image)
                covered_judged[over.verdict] += 1
                if over.verdict != "refused":
                    if args.show_errors:
                        print(f"  {name} photo {photos}: a {occlusion} over the unmoved board judged {over.verdict}")
                    if args.dump:
                        dump_judged(
                            Path(args.dump),
                            f"covered_{photos:05d}",
                            (hidden, image),
                            board,
                            (position, dice, mover),
                            position,
                        )
            chosen = rng.choice(plays)
            after_layout = light_layout(chosen.after, mover)
            after_image = shoot(board, after_layout, np_rng)
            # the light changed between the frames (a cloud, a lamp switched
            # on): the right play or a refusal, never an illegal verdict (its
            # own seed: the photos above and below stay as they were)
            light_rng = np.random.default_rng([args.seed, boards_drawn, photos, 1])
            lit_board = replace(board, lighting=board.lighting.changed(light_rng))
            lit_image = shoot(lit_board, after_layout, light_rng)
            lit = judge_shot(board, position, dice, mover, lit_image, image)
            lit_right = names(lit, chosen.after)
            relit["wrong play" if lit.verdict == "legal" and not lit_right else lit.verdict] += 1
            if args.show_errors and not lit_right:
                why = lit.refusal.message[:160] if lit.refusal else ""
                print(f"  {name} photo {photos}: {chosen.play} in changed light judged {lit.verdict} {why}")
            if args.dump and not lit_right:
                case = (position, dice, mover)
                dump_judged(Path(args.dump), f"relit_{photos:05d}", (lit_image, image), board, case, chosen.after)
            # a hand resting over the board after the move when the button is
            # pressed: a refusal, never a verdict (its own seed: the photos
            # above and below stay as they were)
            hand_rng = np.random.default_rng([args.seed, boards_drawn, photos])
            hand = ("hand", "arm", "cup")[int(hand_rng.integers(3))]
            hand_image = shoot(board, after_layout, hand_rng, occlusion=hand)
            covered = judge_shot(board, position, dice, mover, hand_image, image)
            misnamed = covered.verdict == "legal" and not names(covered, chosen.after)
            covered_after["wrong play" if misnamed else covered.verdict] += 1
            if args.show_errors and covered.verdict != "refused":
                print(f"  {name} photo {photos}: a {hand} over the board after {chosen.play} judged {covered.verdict}")
            if args.dump and covered.verdict != "refused":
                dump_judged(
                    Path(args.dump),
                    f"hand_{photos:05d}",
                    (hand_image, image),
                    board,
                    (position, dice, mover),
                    chosen.after,
                )
            for use_before in (False, True):
                verdict = judge_shot(board, position, dice, mover, after_image, image if use_before else None)
                right_play = names(verdict, chosen.after)
                wrong_play += verdict.verdict == "legal" and not right_play
                if args.show_errors and not right_play:
                    why = (
                        verdict.refusal.message
                        if verdict.refusal
                        else "; ".join(str(c) for c in verdict.contradictions)
                    )
                    print(
                        f"  judge ({'with' if use_before else 'no'} before) {name}: played {chosen.play}, "
                        f"verdict {verdict.verdict}"
                        f" {verdict.play.play if verdict.play else ''}: {why[:200]}"
                    )
                if args.dump and use_before and not right_play:
                    dump_judged(
                        Path(args.dump),
                        f"judged_{photos:05d}",
                        (after_image, image),
                        board,
                        (position, dice, mover),
                        chosen.after,
                    )
                if use_before:
                    # the same move played one pip too far: must never pass as legal
                    wrong = one_pip_further(rng, chosen.after, {lp.after for lp in plays})
                    if wrong is not None:
                        illegal_shown += 1
                        wrong_image = shoot(board, light_layout(wrong, mover), np_rng)
                        caught = judge_shot(board, position, dice, mover, wrong_image, image)
                        illegal_passed += caught.verdict == "legal"
                        illegal_caught += caught.verdict == "illegal"
                        alone = judge_shot(board, position, dice, mover, wrong_image, None)
                        illegal_passed_alone += alone.verdict == "legal"
                        illegal_caught_alone += alone.verdict == "illegal"
                        if args.show_errors and caught.verdict == "legal":
                            print(
                                f"  judge {name}: {chosen.play} one pip too far passed as "
                                f"{caught.play.play if caught.play else ''}"
                            )
                        for passed, kind in ((caught, "passed"), (alone, "passed_alone")):
                            if args.dump and passed.verdict == "legal":
                                dump_judged(
                                    Path(args.dump),
                                    f"{kind}_{photos:05d}",
                                    (wrong_image, image),
                                    board,
                                    (position, dice, mover),
                                    wrong,
                                )
                    judged_b += 1
                    identified_b += right_play
                    legal_called_illegal_b += verdict.verdict == "illegal"
                    judge_refused_b += verdict.verdict == "refused"
                else:
                    judged += 1
                    identified += right_play
                    legal_called_illegal += verdict.verdict == "illegal"
                    judge_refused += verdict.verdict == "refused"
    elapsed = time.perf_counter() - started

    def pct(a: int, b: int) -> str:
        return f"{100 * a / max(b, 1):.2f} %"

    print(
        f"vision bench: {photos} photos, seed {args.seed}, {photos // max(args.per_board, 1)} boards, "
        f"{'calibrated with the empty board too, ' if args.empty_photo else ''}{elapsed:.0f} s"
    )
    print(f"  calibrations failed:        {calibration_failures}")
    if args.empty_photo:
        print(f"  empty-board photos refused: {empty_refused} (those boards calibrated without)")
    print(f"  points right:               {pct(points_right, points_total)}  (goal 99.5 %)")
    print(
        f"  points read surely:         {pct(points_sure, points_read)} of the photos read; "
        f"of them wrong (confidently wrong points): {confident_wrong}  (goal 0)"
    )
    print(f"  bar right:                  {pct(bar_right, boards_total - sum(refused_clean.values()))}")
    print(f"  whole boards right:         {pct(boards_right, boards_total)}  (goal 97 %)")
    print(
        f"  tray counts read surely:    {pct(trays['sure right'] + trays['sure wrong'], sum(trays.values()))} "
        f"of {sum(trays.values())} (a colour in a photo with a tray); wrong {trays['sure wrong']}  (goal 0)"
    )
    print(f"  clean photos refused:       {sum(refused_clean.values())} {dict(refused_clean)}")
    print(
        f"  occluded photos refused:    {pct(occluded_refused, occluded_total)}  (goal 100 %); "
        f"read against the frame before: {pct(occluded_refused_since, occluded_total)}"
    )
    print(
        f"  judge, photo only:          identified {pct(identified, judged)}, refused {pct(judge_refused, judged)}, "
        f"legal called illegal {legal_called_illegal}"
    )
    print(
        f"  judge, with before photo:   identified {pct(identified_b, judged_b)}, "
        f"refused {pct(judge_refused_b, judged_b)}, "
        f"legal called illegal {legal_called_illegal_b}  (goals 99.9 %, 0)"
    )
    print(
        f"  judge, a legal verdict with the wrong play: {wrong_play}; the unmoved board accepted as a play: "
        f"{unmoved_accepted} of {unmoved_judged}  (goal 0)"
    )
    print(
        f"  judge, the occluded frame against the frame before: refused "
        f"{pct(covered_judged['refused'], covered_judged.total())}, called illegal {covered_judged['illegal']}, "
        f"accepted as a play {covered_judged['legal']}  (goals 100 %, 0, 0)"
    )
    print(
        f"  judge, a hand over the board after a legal move, against the frame before: refused "
        f"{pct(covered_after['refused'], covered_after.total())}, called illegal {covered_after['illegal']}, "
        f"legal {covered_after['legal']} (the wrong play {covered_after['wrong play']})  (goals 100 %, 0, 0)"
    )
    print(
        f"  judge, the light changed between the frames: identified {pct(relit['legal'], relit.total())}, "
        f"refused {pct(relit['refused'], relit.total())}, legal called illegal {relit['illegal']}, "
        f"the wrong play {relit['wrong play']}  (goals 0, 0)"
    )
    print(
        f"  judge, a move played one pip too far (with the before photo): caught as illegal "
        f"{pct(illegal_caught, illegal_shown)}, passed as legal {illegal_passed} of {illegal_shown}  (goal 0)"
    )
    print(
        f"  judge, the same moves played one pip too far, photo only: caught as illegal "
        f"{pct(illegal_caught_alone, illegal_shown)}, passed as legal {illegal_passed_alone} of {illegal_shown}"
    )
    ms = float(np.median(read_ms))
    floor = float(np.median(warp_ms))
    print(
        f"  read_board per 1280x720 frame, one core: {ms:.1f} ms median (goal < 40 ms); "
        f"warpPerspective alone {floor:.2f} ms; ratio {ms / max(floor, 1e-9):.1f}x"
    )
    print(
        "  boards wrong by style:      "
        + ", ".join(f"{k} {wrong_by_style[k]}/{v}" for k, v in sorted(by_style.items()))
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

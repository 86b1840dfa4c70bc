"""Reading boards never calibrated: ``nardref detect --corners`` and
``nardref judge --image --corners``, as on a photo of somebody else's board.

Each photo is a new board (random style, camera, light and lens) in a
position reached by random legal play, read with its four corners alone:
the checker pitch and every look are learned from the photo itself
(:mod:`vision.uncalibrated`). Figures: points and whole boards right,
points read confidently wrong, clean photos refused, occluded photos (a
hand, an arm or a dice cup over the same position) refused, the photo
judge's verdicts on a random legal play from that position and on the
same move played one pip too far (never to pass as legal), the pitch
found against the renderer's own, the whole boards read right from
corners a few pixels off (as a hand clicks them), and the time a photo
takes. Run::

    python bench/uncalibrated.py                # 300 photos (about 4 minutes)
    python bench/uncalibrated.py --n 1000 --seed 3
    python bench/uncalibrated.py --n 60 --show-errors
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # bench/vision.py's name would shadow the vision package

from boards import vision_bench  # noqa: E402  (bench/boards.py, beside this file)

from engine.dice import Dice  # noqa: E402
from engine.legal import legal_plays  # noqa: E402
from engine.position import Position  # noqa: E402
from vision.geometry import homography  # noqa: E402
from vision.judge import PhotoVerdict, judge_photo  # noqa: E402
from vision.layout import Layout  # noqa: E402
from vision.read import ReadConfig, Reading, geometry_from_corners  # noqa: E402
from vision.render import CameraPose, Effects, Lighting, random_style, render  # noqa: E402
from vision.uncalibrated import read_with_corners  # noqa: E402

#: How far off a hand clicks a corner, px (a standard deviation in each coordinate).
CLICKED_PX = 3.0


def _pairs(reading: Reading, truth: Layout) -> list[tuple[int, int, float]]:
    """Each point's count as read, as it truly is, and how sure the reading is."""
    seen = reading.layout()
    return list(zip(seen.top + seen.bottom, truth.top + truth.bottom, reading.confidence.ravel(), strict=True))


def _whole(reading: Reading, truth: Layout) -> bool:
    """Whether ``reading`` (not refused) has every point and the bar as ``truth``."""
    seen = reading.layout()
    return (seen.top, seen.bottom, seen.bar_light, seen.bar_dark) == (
        truth.top,
        truth.bottom,
        truth.bar_light,
        truth.bar_dark,
    )


def _judge_shot(
    before: Position,
    dice: Dice,
    shown: Position,
    mover: str,
    look: dict[str, object],
    board_seed: int,
    np_rng: np.random.Generator,
) -> PhotoVerdict:
    """The photo judge's verdict, from a new photo alone (of the board
    ``look`` and ``board_seed``, read by its corners), showing ``shown``
    after ``mover`` (whose home is bottom-right for light, top-right for
    dark) played ``dice`` from ``before``."""
    photo = render(vision_bench.light_layout(shown, mover), rng=np_rng, board_seed=board_seed, **look)  # type: ignore[arg-type]
    return judge_photo(
        before,
        dice,
        photo.image,
        corners=photo.corners,
        mover=mover,  # type: ignore[arg-type]
        home="bottom-right" if mover == "light" else "top-right",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=300, help="photos read (default 300)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the photo set")
    parser.add_argument("--show-errors", action="store_true", help="print every photo read wrong and every verdict")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    confident = ReadConfig().confident
    points_right = boards_right = confident_wrong = points_sure = 0
    refused: Counter[str] = Counter()
    occluded_refused = occluded_wrong = 0
    clicked_right = clicked_refused = clicked_wrong = 0
    verdicts: Counter[str] = Counter()
    too_far: Counter[str] = Counter()  # verdicts on the move played one pip too far
    pitch_errors: list[float] = []
    read_ms: list[float] = []
    warp_ms: list[float] = []
    wrong_by_style: Counter[str] = Counter()
    by_style: Counter[str] = Counter()
    started = time.perf_counter()
    for i in range(args.n):
        np_rng = np.random.default_rng([args.seed, i])
        rng = random.Random(args.seed * 1000 + i)
        look = {
            "style": random_style(np_rng),
            "camera": CameraPose.random(np_rng),
            "lighting": Lighting.random(np_rng),
            "effects": Effects.random(np_rng),
        }
        name = look["style"].name  # type: ignore[attr-defined]
        by_style[name] += 1
        position, mover = vision_bench.random_game(rng, rng.randint(0, 60))
        truth = vision_bench.light_layout(position, mover)
        board_seed = int(np_rng.integers(1 << 30))
        shot = render(truth, rng=np_rng, board_seed=board_seed, **look)  # type: ignore[arg-type]
        t0 = time.perf_counter()
        geometry = geometry_from_corners(shot.image, shot.corners)
        reading = read_with_corners(shot.image, geometry)
        read_ms.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        cv2.warpPerspective(shot.image, homography(geometry), geometry.size)
        warp_ms.append((time.perf_counter() - t0) * 1000)
        pitch_errors.append(geometry.pitch_px / look["style"].checker_pitch(geometry.size[1]) - 1)  # type: ignore[attr-defined]
        if reading.refusal is not None:
            refused[reading.refusal.reason] += 1
            wrong_by_style[name] += 1
            if args.show_errors:
                print(f"  {name} photo {i}: refused {reading.refusal.message[:160]}")
        else:
            seen = reading.layout()
            pairs = _pairs(reading, truth)
            right = sum(a == b for a, b, _ in pairs)
            points_right += right
            confident_wrong += int(sum(a != b and c >= confident for a, b, c in pairs))
            points_sure += int(sum(c >= confident for _, _, c in pairs))
            if args.show_errors:
                for k, (a, b, c) in enumerate(pairs):
                    if a != b and c >= confident:
                        where = f"{('top', 'bottom')[k // 12]} {k % 12 + 1}"
                        print(f"  {name} photo {i}: {where} holds {b}, read {a} surely ({c:.2f})")
            whole = _whole(reading, truth)
            boards_right += whole
            if not whole:
                wrong_by_style[name] += 1
                if args.show_errors:
                    pad = " " * len(name)
                    print(
                        f"  {name} photo {i}: truth {truth.top} {truth.bottom} bar {truth.bar_light},{truth.bar_dark}"
                    )
                    print(f"  {pad}          seen  {seen.top} {seen.bottom} bar {seen.bar_light},{seen.bar_dark}")
        # the corners as a hand clicks them, a few px off (its own random stream: the rest stays as it was)
        clicked = shot.corners + np.random.default_rng([args.seed, i, 1]).normal(0, CLICKED_PX, (4, 2))
        by_hand = read_with_corners(shot.image, geometry_from_corners(shot.image, clicked))
        if by_hand.refusal is not None:
            clicked_refused += 1
        else:
            clicked_right += _whole(by_hand, truth)
            clicked_wrong += int(sum(a != b and c >= confident for a, b, c in _pairs(by_hand, truth)))
        occlusion = rng.choice(["hand", "arm", "cup"])
        hidden = render(truth, rng=np_rng, board_seed=board_seed, occlusion=occlusion, **look)  # type: ignore[arg-type]
        covered = read_with_corners(hidden.image, geometry_from_corners(hidden.image, hidden.corners))
        occluded_refused += covered.refusal is not None
        if covered.refusal is None:
            wrong = sum(a != b and c >= confident for a, b, c in _pairs(covered, truth))
            occluded_wrong += wrong
            if args.show_errors:
                print(f"  {name} photo {i}: a {occlusion} over the board, not refused, {wrong} wrong surely")
        # the photo judge: a random legal play from this position, the photo alone
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(position, dice)
        chosen = rng.choice(plays)
        verdict = _judge_shot(position, dice, chosen.after, mover, look, board_seed, np_rng)
        if verdict.verdict == "legal":
            right = verdict.play is not None and verdict.play.after == chosen.after
            verdicts["identified" if right else "wrong play"] += 1
        else:
            verdicts[verdict.verdict] += 1
        if args.show_errors and verdict.verdict != "legal":
            why = verdict.refusal.message if verdict.refusal else "; ".join(str(c) for c in verdict.contradictions)
            print(f"  judge {name} photo {i}: played {chosen.play}, {verdict.verdict}: {why[:160]}")
        # the same move played one pip too far: never passed as legal
        wrong = vision_bench.one_pip_further(rng, chosen.after, {lp.after for lp in plays})
        if wrong is not None:
            caught = _judge_shot(position, dice, wrong, mover, look, board_seed, np_rng)
            too_far[caught.verdict] += 1
            if args.show_errors and caught.verdict == "legal":
                print(
                    f"  judge {name} photo {i}: {chosen.play} one pip too far passed as "
                    f"{caught.play.play if caught.play else ''}"
                )
    elapsed = time.perf_counter() - started
    n = args.n
    read = n - sum(refused.values())

    def pct(a: float, b: float) -> str:
        return f"{100 * a / max(b, 1):.2f} %"

    errors = np.abs(np.array(pitch_errors))
    ms, floor = float(np.median(read_ms)), float(np.median(warp_ms))
    print(
        f"uncalibrated bench: {n} photos, each a new board read by its corners alone, seed {args.seed}, {elapsed:.0f} s"
    )
    print(
        f"  points right:               {pct(points_right, 24 * n)}  (goal on real photos 98 %); "
        f"of the photos read, not refused: {pct(points_right, 24 * read)}"
    )
    print(
        f"  points read surely:         {pct(points_sure, 24 * read)} of the photos read; "
        f"of them wrong (confidently wrong points): {confident_wrong}  (goal 0)"
    )
    print(f"  whole boards right:         {pct(boards_right, n)}  (goal on real photos 80 %)")
    print(f"  clean photos refused:       {sum(refused.values())} {dict(refused)}")
    print(
        f"  {f'corners clicked {CLICKED_PX:.0f} px off:':<28}whole boards right {pct(clicked_right, n)}, "
        f"refused {clicked_refused}, points confidently wrong {clicked_wrong}  (each coordinate, a standard deviation)"
    )
    print(
        f"  occluded photos refused:    {pct(occluded_refused, n)}  (goal 100 %); "
        f"of the rest, points confidently wrong: {occluded_wrong}  (goal 0)"
    )
    print(
        f"  judge, photo only:          identified {pct(verdicts['identified'], n)}, "
        f"refused {pct(verdicts['refused'], n)}, "
        f"legal called illegal {verdicts['illegal']}, the wrong play {verdicts['wrong play']}  (goals 0, 0)"
    )
    print(
        f"  judge, a move played one pip too far, photo only: refused {pct(too_far['refused'], too_far.total())}, "
        f"passed as legal {too_far['legal']} of {too_far.total()}  (goal 0)"
    )
    print(
        f"  pitch found: within 3 % of the renderer's {pct(int((errors < 0.03).sum()), n)}, "
        f"within 5 % {pct(int((errors < 0.05).sum()), n)}, median error {100 * float(np.median(errors)):.1f} %"
    )
    print(
        f"  per photo, one core: {ms:.0f} ms median (the pitch, the layout and the reading); "
        f"warpPerspective alone {floor:.2f} ms; ratio {ms / max(floor, 1e-9):.0f}x"
    )
    print(
        "  boards wrong by style:      "
        + ", ".join(f"{k} {wrong_by_style[k]}/{v}" for k, v in sorted(by_style.items()))
    )
    if read == 0:
        print("  (every photo refused)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

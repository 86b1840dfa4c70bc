"""Referee benchmark: press-to-verdict latency, idle CPU of the loop, peak memory of the demo.

    python bench/referee.py [--moves 20] [--fps 20] [--size 1280x720] [--idle-s 5] [--seed 1]

Figures (real time, the real loop with :class:`~firmware.loop.MonotonicClock`):

1. **press to verdict on the LEDs**, on the synthetic board: from the mover's
   main-button press (posted as the button callback would) to the first LED
   frame shown with the verdict, the stability window included (the board must
   hold still for the gate's ``window_s`` *after* the press, LEDs held steady
   meanwhile). Goal: under 300 ms. Printed next to the time
   of one bare ``judge_photo`` call on the same frames (the vision floor) and
   the frame interval;
2. **CPU of the idle loop with the clock running** (a player thinking over a
   move): ``time.process_time`` over ``--idle-s`` seconds of real running, as a
   share of one core; goal under 10 %. The camera's frames cost nothing to
   take here (as a Pi camera's DMA frames): the figure is the loop's own work
   (frames at ``idle_fps``, the clock, LED frames at 10 Hz, the watchdog);
3. **peak memory of ``nardref demo --headless``** (a whole 3-point match) as a
   child process (``ru_maxrss``); goal under 200 MB.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


from engine.legal import legal_plays  # noqa: E402
from firmware import referee as ref  # noqa: E402
from firmware.commands.demo import table_camera  # noqa: E402
from firmware.config import parse_config  # noqa: E402
from firmware.dice import DiceRoller  # noqa: E402
from firmware.hardware.buttons import ButtonPressed  # noqa: E402
from firmware.hardware.leds import SimulatedStrip  # noqa: E402
from firmware.led_layout import LedLayout  # noqa: E402
from firmware.loop import GateSettings, MonotonicClock, RefereeLoop  # noqa: E402
from firmware.simplayers import choose_play  # noqa: E402
from vision.capture import Frame, SyntheticSource  # noqa: E402
from vision.judge import judge_photo  # noqa: E402
from vision.layout import layout_from_position  # noqa: E402


class StillCamera:
    """The last synthetic frame over and over: a camera whose frames cost nothing to take."""

    def __init__(self, image: Any, clock: Any) -> None:
        self.image = image
        self.clock = clock
        self.index = 0

    def read(self) -> Frame:
        self.index += 1
        return Frame(self.image, self.clock(), self.index)

    def close(self) -> None:
        pass


class TimedStrip(SimulatedStrip):
    """Notes the real time and the referee's mode of every frame shown."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.loop: RefereeLoop | None = None
        self.shown_at: list[tuple[float, ref.Mode]] = []

    def show(self, frame: Any) -> None:
        super().show(frame)
        assert self.loop is not None
        self.shown_at.append((time.monotonic(), self.loop.state.mode))


def make_loop(
    size: tuple[int, int], fps: float, seed: int, journal: Path
) -> tuple[RefereeLoop, SyntheticSource, TimedStrip]:
    clock = MonotonicClock()
    config = parse_config('[match]\nlength = 0\n[clock]\npreset = "app"\n')
    layout = LedLayout.from_config(config.layout)
    source, calibration = table_camera(seed=seed, size=size, clock=clock)
    strip = TimedStrip(layout.num_pixels, layout=layout, keep=1)
    loop = RefereeLoop(
        settings=ref.RefereeSettings.from_config(config),
        layout=layout,
        journal_path=journal,
        clock=clock,
        roller=DiceRoller(rng=random.Random(seed)),
        source=source,
        calibration=calibration,
        strip=strip,
        gate=GateSettings(fps=fps),
        journal_sync=True,
    )
    strip.loop = loop
    return loop, source, strip


def show_board(source: SyntheticSource, loop: RefereeLoop) -> None:
    match = loop.state.timed.state
    assert loop.state.seating is not None
    source.show(layout_from_position(match.position_of(0), mover=loop.state.seating.colours[0], home="bottom-right"))


def latency(args: argparse.Namespace, size: tuple[int, int], journal: Path) -> None:
    loop, source, strip = make_loop(size, args.fps, args.seed, journal)
    rng = random.Random(args.seed)
    loop.run(until=lambda lp: lp.state.mode == ref.Mode.OPENING, max_s=30)
    assert loop.state.mode == ref.Mode.OPENING, loop.state.mode
    loop.post(ButtonPressed("main", 0))
    loop.run(until=lambda lp: lp.state.mode == ref.Mode.MOVING, max_s=5)
    waits: list[float] = []
    bare: list[float] = []
    verdicts: list[str] = []
    while len(waits) < args.moves:
        match = loop.state.timed.state
        mover, dice = match.turn, match.dice
        mode: ref.Mode = loop.state.mode
        assert mover is not None and dice is not None and mode == ref.Mode.MOVING, mode
        lp = choose_play(legal_plays(match.position, dice), rng)
        board = lp.after if mover == 0 else lp.after.swap()
        assert loop.state.seating is not None
        source.show(layout_from_position(board, mover=loop.state.seating.colours[0], home="bottom-right"))
        loop.run(max_s=0.3)  # the player lets go of the checker, then presses
        strip.shown_at.clear()
        pressed = time.monotonic()
        loop.post(ButtonPressed("main", mover))
        loop.run(
            until=lambda lp: (
                lp.state.mode != ref.Mode.CHECKING and any(m != ref.Mode.CHECKING for _, m in strip.shown_at[1:])
            ),
            max_s=10,
        )
        shown = next(t for t, m in strip.shown_at if m != ref.Mode.CHECKING and t > pressed)
        waits.append(shown - pressed)
        verdicts.append(loop.state.mode.value)
        frame = source.read()
        assert frame is not None and loop.calibration is not None
        check_start = time.perf_counter()
        judge_photo(
            match.position,
            dice,
            frame.image,
            calibration=loop.calibration,
            mover=loop.state.seating.colours[mover],
            home=loop.state.seating.home_of(mover),
        )
        bare.append(time.perf_counter() - check_start)
        if loop.state.timed.state.phase.value != "roll":
            break
        loop.post(ButtonPressed("main", 1 - mover))
        loop.run(until=lambda lp: lp.state.mode != ref.Mode.CUBE, max_s=5)
        if loop.state.mode != ref.Mode.MOVING:
            break
    loop.close()
    ms = [w * 1000 for w in waits]
    print(
        f"1. press -> verdict on the LEDs, {size[0]}x{size[1]} synthetic board at {args.fps:g} fps "
        f"({len(ms)} moves; the referee went on to: "
        f"{', '.join(f'{mode} x{n}' for mode, n in sorted(Counter(verdicts).items()))}):"
    )
    print(
        f"   median {statistics.median(ms):.0f} ms, worst {max(ms):.0f} ms (goal < 300 ms); "
        f"frame interval {1000 / args.fps:.0f} ms, still for {1000 * GateSettings().stability.window_s:.0f} ms; "
        f"bare judge_photo {1000 * statistics.median(bare):.0f} ms "
        f"(ratio {statistics.median(ms) / (1000 * statistics.median(bare)):.1f}x)"
    )


def idle_cpu(args: argparse.Namespace, size: tuple[int, int], journal: Path) -> None:
    loop, source, strip = make_loop(size, args.fps, args.seed, journal)
    loop.run(until=lambda lp: lp.state.mode == ref.Mode.OPENING, max_s=30)
    loop.post(ButtonPressed("main", 0))
    loop.run(until=lambda lp: lp.state.mode == ref.Mode.MOVING, max_s=5)
    frame = source.read()
    assert frame is not None
    loop.source = StillCamera(frame.image, loop.clock.now)  # type: ignore[assignment]
    assert loop.state.timed.clock.runner is not None and not loop.state.timed.clock.paused
    cpu, wall = time.process_time(), time.monotonic()
    loop.run(max_s=args.idle_s)
    cpu, wall = time.process_time() - cpu, time.monotonic() - wall
    print(
        f"2. idle loop, clock running, camera frames free (as a Pi camera's): {100 * cpu / wall:.1f} % of one core "
        f"over {wall:.1f} s (goal < 10 %; {len(strip.shown_at)} LED frames shown)"
    )
    loop.close()


def demo_memory() -> None:
    start = time.monotonic()
    subprocess.run(
        [sys.executable, "-m", "firmware.cli", "demo", "--headless"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL
    )
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(
        f"3. nardref demo --headless (3-point match): peak memory {peak_mb:.0f} MB (goal < 200 MB), "
        f"{time.monotonic() - start:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=20, help="moves timed (default 20)")
    parser.add_argument(
        "--fps", type=float, default=GateSettings().fps, help="camera frames per second (default: the config's)"
    )
    parser.add_argument("--size", default="1280x720", help="synthetic frame size WxH (default 1280x720)")
    parser.add_argument("--idle-s", type=float, default=5.0, help="seconds of idle running measured (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-demo", action="store_true", help="skip the demo memory figure")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.lower().split("x"))
    with tempfile.TemporaryDirectory() as tmp:
        latency(args, (width, height), Path(tmp) / "a.jsonl")
        idle_cpu(args, (width, height), Path(tmp) / "b.jsonl")
    if not args.skip_demo:
        demo_memory()


if __name__ == "__main__":
    main()

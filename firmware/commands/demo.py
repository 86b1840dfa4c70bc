"""``nardref demo``: a whole match between two simulated players on the synthetic board.

Everything but the players and the table is the real thing: the synthetic
camera's frames go through the stability gate and the vision reader and judge,
the referee state machine and the match engine decide, the journal records,
the LED logic draws on a simulated strip, and the buttons are the real
gpiozero panel on gpiozero's mock pins. The match includes a set-up mistake,
an illegal move the referee catches (then corrected), a hand over the board
it waits out, a camera drop-out that pauses the clock, and cube actions.

On a terminal it is drawn live (the table, the LED strip, the clocks, the
events); ``--headless`` prints the events only; ``--frames DIR`` saves, at
each event, the camera's latest frame and the LED frame as PNGs. Simulated time runs faster than
real time (``--fast``, ``--headless`` or output that is not a terminal: as
fast as the computer goes). Exit 0 when the match was played to its end.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["build", "register", "run"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "demo",
        help="watch two simulated players play a match, refereed through the real vision, engine and LED code",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--headless", action="store_true", help="print the events only (implies --fast)")
    parser.add_argument("--frames", metavar="DIR", help="save camera frames and LED frames as PNGs in DIR")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the players, dice and board (default 1)")
    parser.add_argument("--length", type=int, default=3, help="match length in points (default 3)")
    parser.add_argument("--fast", action="store_true", help="simulated time as fast as the computer goes")
    parser.add_argument(
        "--speed", type=float, default=15.0, help="simulated seconds per real second when live (default 15)"
    )
    parser.add_argument("--journal", metavar="FILE", help="keep the match journal here (default: a temporary folder)")
    parser.set_defaults(handler=run)


def build(
    *,
    seed: int,
    length: int,
    journal: Path,
    clock: Any,
    size: tuple[int, int] = (800, 500),
    on_announce: Any = None,
    script: bool = True,
    clock_preset: str = "app",
) -> tuple[Any, Any, Any]:
    """The demo's world: (loop, players, strip), nothing started yet."""
    import random

    from firmware.config import parse_config
    from firmware.dice import DiceRoller
    from firmware.hardware.buttons import ButtonPanel
    from firmware.hardware.buzzer import Buzzer
    from firmware.hardware.leds import SimulatedStrip
    from firmware.led_layout import LedLayout
    from firmware.loop import GateSettings, RefereeLoop
    from firmware.referee import RefereeSettings
    from firmware.simplayers import FlakyCamera, SimPlayers

    config = parse_config(
        f'[match]\nlength = {length}\n[clock]\npreset = "{clock_preset}"\n'
        '[buttons]\nbackend = "simulated"\nbounce_s = 0.0\n'
        '[leds]\nbackend = "simulated"\n[buzzer]\nbackend = "simulated"\n[camera]\nbackend = "synthetic"\n',
        source="<demo>",
    )
    layout = LedLayout.from_config(config.layout)
    source, calibration = table_camera(seed=seed, size=size, clock=clock)
    camera = FlakyCamera(source, clock=clock.now)
    strip = SimulatedStrip(layout.num_pixels, clock=clock.now, layout=layout, keep=1)
    loop = RefereeLoop(
        settings=RefereeSettings.from_config(config),
        layout=layout,
        journal_path=journal,
        clock=clock,
        roller=DiceRoller(rng=random.Random(seed)),
        source=camera,
        calibration=calibration,
        strip=strip,
        buzzer=Buzzer.from_config(config.buzzer),
        gate=GateSettings(fps=20.0),
        on_announce=on_announce,
        journal_sync=False,
    )
    buttons = ButtonPanel.simulated(config.buttons, post=loop.post)
    players = SimPlayers(source=source, buttons=buttons, rng=random.Random(seed + 1), camera=camera, script=script)
    players.restore(loop.state)
    loop.actors.append(players)
    return loop, players, strip


def table_camera(*, seed: int, size: tuple[int, int], clock: Any) -> tuple[Any, Any]:
    """The demo's camera: a synthetic board seen a little tilted under a gentle
    light gradient, showing the starting position (a ``SyntheticSource``),
    and its calibration from a frame of the empty board and one of the
    starting position, with the bear-off tray, as a referee is set up."""
    import numpy as np

    from engine.position import Position
    from vision.calibration import calibrate
    from vision.capture import SyntheticSource
    from vision.layout import Layout, layout_from_position
    from vision.render import CameraPose, Effects, Lighting

    source = SyntheticSource(
        rng=np.random.default_rng(seed),
        size=size,
        camera=CameraPose(rotation_deg=1.5, tilt_deg=8.0, tilt_azimuth_deg=100.0, distance=2.6, fill=0.9),
        lighting=Lighting(gradient=(0.15, 40.0)),
        effects=Effects.none(),
        clock=clock.now,
    )
    source.show(Layout(top=(0,) * 12, bottom=(0,) * 12))
    empty = source.read()
    source.show(layout_from_position(Position.start(), mover="light", home="bottom-right"))
    first = source.read()
    assert empty is not None and first is not None and source.last_corners is not None
    return source, calibrate(first.image, source.last_corners, empty=empty.image, tray=source.last_tray)


def run(args: argparse.Namespace) -> int:
    from firmware.loop import FakeClock, ScaledClock
    from firmware.simplayers import ended
    from firmware.terminal import TerminalView

    if args.length < 1:
        print(f"nardref demo: --length {args.length!r}: expected a match of 1 or more points", file=sys.stderr)
        return 2
    live = sys.stdout.isatty() and not args.headless
    fast = args.fast or not live  # nobody watches plain lines go by: as fast as the computer goes
    clock = FakeClock() if fast else ScaledClock(args.speed)
    frames_dir = Path(args.frames) if args.frames else None
    with tempfile.TemporaryDirectory(prefix="nardref-demo-") as tmp:
        journal = Path(args.journal) if args.journal else Path(tmp) / "journal.jsonl"
        view: TerminalView | None = None
        lines: list[str] = []
        loop, players, strip = build(
            seed=args.seed,
            length=args.length,
            journal=journal,
            clock=clock,
            on_announce=lambda text: view.announce(text) if view is not None else lines.append(text),
        )
        view = TerminalView(sys.stdout, strip=strip, table=lambda: (players.layout(), players.hand), live=live)
        for text in lines:
            view.announce(text)
        loop.actors.append(view)
        if frames_dir is not None:
            import cv2

            frames_dir.mkdir(parents=True, exist_ok=True)
            saved = [0]

            def save_frames(text: str) -> None:
                """At each event: the camera's latest frame and the LEDs, numbered alike."""
                view.announce(text)
                saved[0] += 1
                if loop.last_frame is not None:
                    cv2.imwrite(str(frames_dir / f"camera-{saved[0]:04d}.png"), loop.last_frame.image)
                strip.save_png(frames_dir / f"leds-{saved[0]:04d}.png")

            loop.on_announce = save_frames
        try:
            # the events are announced; log lines would repeat them (and tear the live view)
            logging.getLogger("firmware").setLevel(logging.ERROR)
            if live:
                sys.stdout.write("\x1b[?25l")
            loop.run(until=ended)
            if live:
                view.draw(loop, force=True)
        finally:
            if live:
                sys.stdout.write("\x1b[?25h")
            players.buttons.close()
            loop.close()
        match = loop.state.timed.state
        winner = match.winner
        print(
            f"match over: player {winner} wins {match.score[0]}-{match.score[1]} "
            f"({len(match.results)} game{'s' if len(match.results) != 1 else ''}, "
            f"{len(loop.verdict_latency_s)} moves judged from camera frames)"
        )
    return 0 if winner is not None else 1

"""``nardref run [--config FILE]``: referee real games on the board (what the systemd service starts).

The backends are picked once, from the config: buttons and buzzer on gpiozero
with lgpio pins (or gpiozero's mock pins when ``backend = "simulated"``), the
LED strip on NeoPixel SPI (or the simulated strip), the camera through
Picamera2, OpenCV, a folder of recorded frames or the synthetic renderer.
A live camera's exposure, white balance and focus are locked once they have
settled (``lock_exposure``), so the light of the board does not drift under
the calibration. Nothing falls back silently to a simulation: a camera or LED strip that cannot
be opened is a fault the board shows (and logs) while the referee stays up,
retrying the camera, so the service never crash-loops into a dark box.

The match resumes from the journal after a power cut or crash (the clock
included). SIGTERM (``systemctl stop``) ends it cleanly: the journal is
flushed, the LEDs go dark. Exit 0 after a clean stop, 2 for a bad config.
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

__all__ = ["open_camera", "register", "run"]

log = logging.getLogger(__name__)

#: Frames read before exposure, white balance and focus are locked (``[camera] lock_exposure``).
SETTLE_FRAMES = 15


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "run",
        help="referee games on the real board (buttons, LEDs, camera from the config)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--config", metavar="FILE", help="TOML config (default: every option at its default)")
    parser.set_defaults(handler=run)


def open_camera(config: Any, *, clock: Any) -> Any:
    """The frame source ``[camera]`` names; :class:`~vision.capture.CameraError` when it cannot be opened."""
    from vision.capture import FolderSource, OpenCVSource, Picamera2Source, SyntheticSource

    camera = config.camera
    size = (camera.width, camera.height)
    live: Picamera2Source | OpenCVSource
    if camera.backend == "picamera2":
        live = Picamera2Source(int(camera.device) if camera.device.isdigit() else 0, size=size, clock=clock)
    elif camera.backend == "opencv":
        live = OpenCVSource(int(camera.device) if camera.device.isdigit() else camera.device, size=size, clock=clock)
    if camera.backend in ("picamera2", "opencv"):
        if camera.lock_exposure:
            for _ in range(SETTLE_FRAMES):  # let auto exposure, white balance and focus settle, then hold them
                live.read()
            log.info("camera settings locked: %s", live.lock())
        return live
    if camera.backend == "folder":
        return FolderSource(camera.device, loop=True, clock=clock)
    import numpy as np

    from engine.position import Position
    from vision.layout import layout_from_position
    from vision.render import CameraPose, Effects, Lighting

    source = SyntheticSource(
        rng=np.random.default_rng(camera.seed),
        size=size,
        camera=CameraPose.overhead(),
        lighting=Lighting.even(),
        effects=Effects.none(),
        clock=clock,
    )
    source.show(layout_from_position(Position.start()))
    return source


def run(args: argparse.Namespace) -> int:
    import signal
    from pathlib import Path

    from firmware.config import ConfigError, default_config, load_config
    from firmware.dice import DiceRoller
    from firmware.hardware.buttons import ButtonError, ButtonPanel
    from firmware.hardware.buzzer import Buzzer, BuzzerError
    from firmware.hardware.leds import StripError, open_strip
    from firmware.hardware.pins import PinFactoryError, open_pin_factory
    from firmware.led_layout import LedLayout
    from firmware.loop import GateSettings, MonotonicClock, RefereeLoop
    from firmware.referee import RefereeSettings
    from firmware.sdnotify import Notifier
    from vision.calibration import Calibration
    from vision.capture import CameraError
    from vision.errors import CalibrationError

    try:
        config = load_config(args.config) if args.config else default_config()
        layout = LedLayout.from_config(config.layout)
        settings = RefereeSettings.from_config(config)
    except (ConfigError, ValueError) as exc:
        print(f"nardref run: {exc}", file=sys.stderr)
        return 2
    journal = Path(config.journal.path)
    try:
        journal.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"nardref run: journal folder {str(journal.parent)!r} cannot be made: {exc.strerror}", file=sys.stderr)
        return 2

    clock = MonotonicClock()
    strip = None
    try:
        strip = open_strip(config.leds, layout, clock=clock.now)
    except StripError as exc:
        log.error("LED strip: %s; refereeing without LEDs", exc)
    source = None
    try:
        source = open_camera(config, clock=clock.now)
    except CameraError as exc:
        log.error("camera: %s; shown as a fault, retrying", exc)
    calibration = None
    try:
        calibration = Calibration.load(config.vision.calibration)
    except CalibrationError as exc:
        log.error("%s; run nardref calibrate (shown as a fault)", exc)
    factory = None
    try:
        factory = open_pin_factory(config.buttons.backend)
    except PinFactoryError as exc:
        log.error("GPIO: %s; no buttons or buzzer", exc)
    buzzer = None
    if factory is not None or config.buzzer.backend == "simulated":
        try:
            buzzer = Buzzer.from_config(config.buzzer, pin_factory=factory if config.buzzer.backend == "gpio" else None)
        except BuzzerError as exc:
            log.error("buzzer: %s", exc)

    loop = RefereeLoop(
        settings=settings,
        layout=layout,
        journal_path=journal,
        clock=clock,
        roller=DiceRoller(),
        source=source,
        calibration=calibration,
        strip=strip,
        buzzer=buzzer,
        notifier=Notifier(),
        gate=GateSettings(fps=config.camera.fps),
        reopen_source=lambda: open_camera(config, clock=clock.now),
    )
    buttons = None
    if factory is not None:
        try:
            buttons = ButtonPanel(config.buttons, post=loop.post, pin_factory=factory)
        except ButtonError as exc:
            log.error("buttons: %s", exc)

    def on_signal(signum: int, _frame: Any) -> None:
        loop.stop(signal.Signals(signum).name)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    log.info("refereeing: %s", loop.state.mode.value)
    try:
        reason = loop.run()
    finally:
        if buttons is not None:
            buttons.close()
        loop.close()
    log.info("stopped (%s)", reason)
    return 0

"""A live terminal view of the referee: the board on the table, the LED strip, the clocks, the last events.

On a terminal it redraws in place (ANSI: cursor home, clear) at most ``fps``
times a second of real time; when the output is not a terminal it prints each
event as one plain line and nothing else.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from engine.clock import SECOND
from firmware.referee import display

if TYPE_CHECKING:
    from firmware.hardware.leds import SimulatedStrip
    from firmware.loop import RefereeLoop
    from vision.layout import Layout

__all__ = ["TerminalView", "board_text"]

_LIGHT = "\x1b[38;2;255;200;140m"
_DARK = "\x1b[38;2;90;140;255m"
_DIM = "\x1b[2m"
_RESET = "\x1b[0m"


def board_text(layout: Layout | None, *, colour: bool, hand: bool = False) -> list[str]:
    """The table as text: top row of points, the bar, the bottom row (+ light, - dark)."""
    if layout is None:
        return ["(nothing on the table yet)"]

    def cell(count: int) -> str:
        if count == 0:
            return f"{_DIM} . {_RESET}" if colour else " . "
        text = f"{'o' if count > 0 else 'x'}{abs(count):<2}"
        if not colour:
            return text
        return f"{_LIGHT if count > 0 else _DARK}{text}{_RESET}"

    def row(points: tuple[int, ...]) -> str:
        return "".join(cell(n) for n in points[:6]) + " | " + "".join(cell(n) for n in points[6:])

    bar = f"bar o{layout.bar_light} x{layout.bar_dark}   off o{layout.off_light} x{layout.off_dark}"
    bar += "   [a hand over the board]" if hand else ""
    return [" " + row(layout.top), "   " + bar, " " + row(layout.bottom)]


def _clock_text(ns: tuple[int, int]) -> str:
    delay, reserve = ns
    seconds = reserve // SECOND
    return f"{delay / SECOND:4.1f}s + {seconds // 60}:{seconds % 60:02d}"


class TerminalView:
    """Draws the demo; pass :meth:`announce` as the loop's ``on_announce`` and call :meth:`draw` from an actor."""

    def __init__(
        self,
        stream: TextIO,
        *,
        strip: SimulatedStrip,
        table: Callable[[], tuple[Layout | None, bool]],
        fps: float = 12.0,
        live: bool | None = None,
        history: int = 8,
    ) -> None:
        self.stream = stream
        self.strip = strip
        self.table = table
        self.live = stream.isatty() if live is None else live
        self._interval_s = 1.0 / fps
        self._last_s = -1e9
        self._lines: list[str] = []
        self._history = history

    def announce(self, text: str) -> None:
        if self.live:
            self._lines = (self._lines + [text])[-self._history :]
        else:
            self.stream.write(text + "\n")
            self.stream.flush()

    def act(self, loop: RefereeLoop, now_s: float) -> float | None:
        """An actor for the loop: redraw when due (real time); never asks to be woken."""
        if self.live:
            self.draw(loop)
        return None

    def draw(self, loop: RefereeLoop, *, force: bool = False) -> None:
        real = time.monotonic()
        if not force and real - self._last_s < self._interval_s:
            return
        self._last_s = real
        state = loop.state
        match = state.timed.state
        now_ns = loop.now_ns()
        layout, hand = self.table()
        shown = display(state, now_ns)
        clocks = ""
        clock = state.timed.clock
        if clock.settings.enabled:
            at_ns = max(now_ns, clock.at_ns or 0)
            clocks = "   ".join(
                f"player {p}{' *' if shown.turn == p else '  '} {_clock_text(clock.left_ns(p, at_ns))}" for p in (0, 1)
            )
        length = f" of {match.settings.length}" if match.settings.length else ""
        lines = [
            f"\x1b[1mnardref demo\x1b[0m  game {match.game}, score {match.score[0]}-{match.score[1]}{length}, "
            f"cube {match.cube}   [{state.mode.value}]",
            "camera sees (player 1 sits at the top, player 0 at the bottom; o light, x dark):",
            *board_text(layout, colour=True, hand=hand),
            "LEDs:",
            *self.strip.draw_terminal().splitlines(),
            clocks,
            "",
        ]
        room = shutil.get_terminal_size((80, 40)).lines - len(lines) - 1  # never scroll: the view redraws in place
        if room > 0:
            lines += self._lines[-room:]
        self.stream.write("\x1b[H\x1b[J" + "\n".join(lines) + "\n")
        self.stream.flush()

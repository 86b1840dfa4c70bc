"""The players' buttons through gpiozero, posting typed events to the referee's queue.

Each player has two buttons and the board has two shared ones:

- ``main`` (per player, acts on press): roll at the start of the turn, end the
  turn, take a double, accept the opponent's flagged move (X1), confirm;
- ``second`` (per player): a short press, reported on release, offers a double
  (C1) or drops (C2); **held** ``hold_s`` (3 s) it offers to resign (S3), and
  the opponent accepts with their ``main``;
- ``new_game`` (shared): acts only when **held** ``hold_s``, so a knock never
  ends a match;
- ``pause`` (shared, acts on press): pause / resume the clock.

The referee decides what a press means in its current state.

Buttons are wired from the GPIO to ground and use the internal pull-ups;
gpiozero debounces them (``bounce_s``). A button that can be held reports a
short press when it is *released* (so holding ``second`` to resign never also
offers a double) and :class:`ButtonHeld` once it has been held ``hold_s``.

Callbacks run on gpiozero's threads and do nothing but call ``post`` with a
frozen event (the referee passes its queue's ``put``); every decision happens
on the referee's loop. The pin factory is always passed in (``pin_factory=``),
never gpiozero's global; :meth:`ButtonPanel.simulated` builds the same panel on
gpiozero's ``MockFactory`` with :meth:`~ButtonPanel.press` and
:meth:`~ButtonPanel.hold` levers for the demo and tests.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from engine.errors import NardrefError

if TYPE_CHECKING:
    from firmware.config import ButtonsConfig

__all__ = [
    "HOLD_ROLES",
    "ButtonError",
    "ButtonEvent",
    "ButtonHeld",
    "ButtonPanel",
    "ButtonPressed",
    "Player",
    "Role",
]

log = logging.getLogger(__name__)

Player = Literal[0, 1]
Role = Literal["main", "second", "new_game", "pause"]
#: Roles whose hold means something; their short press is reported on release.
HOLD_ROLES: frozenset[str] = frozenset({"second", "new_game"})


@dataclass(frozen=True)
class ButtonPressed:
    """A short press. ``player`` is None for the shared buttons."""

    role: Role
    player: Player | None = None


@dataclass(frozen=True)
class ButtonHeld:
    """A button of :data:`HOLD_ROLES` held for ``hold_s`` (resign, new game)."""

    role: Role
    player: Player | None = None


ButtonEvent = ButtonPressed | ButtonHeld


class ButtonError(NardrefError, RuntimeError):
    """The buttons cannot be set up, or a lever was used on real pins."""


_Key = tuple[Role, "Player | None"]


def _keys(config: ButtonsConfig) -> dict[_Key, int]:
    return {
        ("main", 0): config.player0_main,
        ("second", 0): config.player0_second,
        ("main", 1): config.player1_main,
        ("second", 1): config.player1_second,
        ("new_game", None): config.new_game,
        ("pause", None): config.pause,
    }


class ButtonPanel:
    """All six buttons of the board; events go to ``post``.

    ``pin_factory`` is a gpiozero pin factory (``LGPIOFactory()`` on a Pi,
    ``MockFactory()`` in tests and the demo).
    """

    def __init__(self, config: ButtonsConfig, *, post: Callable[[ButtonEvent], None], pin_factory: Any) -> None:
        from gpiozero import Button
        from gpiozero.exc import GPIOZeroError

        self._post = post
        self._factory = pin_factory
        self._held: set[_Key] = set()
        self._lock = threading.Lock()
        self._buttons: dict[_Key, Any] = {}
        self.hold_s = config.hold_s
        try:
            for key, pin in _keys(config).items():
                # hold_time 0 on buttons without a hold lets gpiozero's hold thread go
                # back to sleep at once, so close() never waits for a long hold_time.
                button = Button(
                    pin,
                    pull_up=True,
                    bounce_time=config.bounce_s or None,
                    hold_time=config.hold_s if key[0] in HOLD_ROLES else 0.0,
                    pin_factory=pin_factory,
                )
                self._buttons[key] = button
                if key[0] in HOLD_ROLES:
                    button.when_released = self._callback(self._on_release, key)
                    button.when_held = self._callback(self._on_held, key)
                else:
                    button.when_pressed = self._callback(self._on_press, key)
        except (GPIOZeroError, OSError) as exc:
            self.close()
            role, player = key
            where = role if player is None else f"player {player}'s {role}"
            raise ButtonError(
                f"cannot set up {where} button on GPIO{pin}: {exc} (is the user in the 'gpio' group?)"
            ) from None
        log.info(
            "buttons ready: %s",
            ", ".join(f"{r}{'' if p is None else p}=GPIO{n}" for (r, p), n in _keys(config).items()),
        )

    @classmethod
    def simulated(cls, config: ButtonsConfig, *, post: Callable[[ButtonEvent], None]) -> ButtonPanel:
        """The same panel on gpiozero's ``MockFactory`` (no hardware needed)."""
        from gpiozero.pins.mock import MockFactory

        return cls(config, post=post, pin_factory=MockFactory())

    @staticmethod
    def _callback(handler: Callable[[_Key], None], key: _Key) -> Callable[[], None]:
        def callback() -> None:
            handler(key)

        return callback

    # The three handlers run on gpiozero's threads: they only post an event.
    def _on_press(self, key: _Key) -> None:
        self._post(ButtonPressed(*key))

    def _on_held(self, key: _Key) -> None:
        with self._lock:
            self._held.add(key)
        self._post(ButtonHeld(*key))

    def _on_release(self, key: _Key) -> None:
        with self._lock:
            was_held = key in self._held
            self._held.discard(key)
        if not was_held and key[0] != "new_game":
            self._post(ButtonPressed(*key))

    def button(self, role: Role, player: Player | None = None) -> Any:
        """The gpiozero ``Button`` of a role (``player`` None for the shared ones)."""
        try:
            return self._buttons[(role, player)]
        except KeyError:
            raise ButtonError(
                f"no button {role!r} for player {player!r}: main/second take a player 0 or 1, new_game/pause take none"
            ) from None

    def _mock_pin(self, role: Role, player: Player | None) -> Any:
        pin = self.button(role, player).pin
        if not hasattr(pin, "drive_low"):
            raise ButtonError(f"press()/hold() are levers of a simulated panel; {pin!r} is a real pin")
        return pin

    def press(self, role: Role, player: Player | None = None) -> None:
        """Lever: a short press and release on the mock pin (through gpiozero)."""
        pin = self._mock_pin(role, player)
        pin.drive_low()
        pin.drive_high()

    def hold(self, role: Role, player: Player | None = None) -> None:
        """Lever: press, hold past ``hold_s`` and release, without waiting real time.

        The held event is fired as gpiozero's hold timer would fire it.
        """
        pin = self._mock_pin(role, player)
        pin.drive_low()
        if role in HOLD_ROLES:
            self._on_held((role, player))
        pin.drive_high()

    def close(self) -> None:
        """Release every pin; safe to call twice."""
        buttons, self._buttons = self._buttons, {}
        for button in buttons.values():
            button.close()

"""The referee's configuration: one TOML file checked against one table of defaults.

:data:`OPTIONS` is the table: for every ``[section]`` and key it gives the
default, the type, the allowed choices and a line of help. :func:`load_config`
reads a TOML file (stdlib :mod:`tomllib`), rejects unknown sections and keys and
values of the wrong type with a :class:`ConfigError` that names the key *and*
the line of the file, and returns a :class:`Config` of frozen dataclasses, one
per section. Options left out of the file keep their defaults; ``nardref run``
without ``--config`` uses :func:`default_config`. :func:`default_config_text`
writes the whole table as a commented TOML file that loads back equal to the
defaults (``install.sh`` uses it for ``/etc/nardref/config.toml``).

Player 0 and player 1 name the two *seats*: player 0 sits at the bottom edge of
the rectified board picture (next to its bottom row of points), player 1 at the
top edge. Which colour each seat plays is read at the set-up check.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import NardrefError

__all__ = [
    "OPTIONS",
    "BoardConfig",
    "ButtonsConfig",
    "BuzzerConfig",
    "CameraConfig",
    "ClockConfig",
    "Config",
    "ConfigError",
    "JournalConfig",
    "LayoutConfig",
    "LedsConfig",
    "MatchConfig",
    "Option",
    "VisionConfig",
    "default_config",
    "default_config_text",
    "load_config",
    "parse_config",
]


class ConfigError(NardrefError, ValueError):
    """A config file that cannot be used; names the key (``section.key``) and line.

    ``key`` and ``line`` are also kept as attributes (``None`` when unknown) so a
    caller can point at the spot.
    """

    def __init__(self, message: str, *, key: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.key = key
        self.line = line


@dataclass(frozen=True)
class Option:
    """One row of the defaults table.

    ``kind`` is ``bool``, ``int``, ``float`` or ``str`` (an ``int`` in the file
    is accepted for a ``float`` option). ``default=None`` means "unset": the
    option is optional and its meaning is given by ``help`` (for example "from
    the clock preset").
    """

    default: bool | int | float | str | None
    kind: type
    help: str
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None


def _gpio(default: int, help: str) -> Option:
    """A BCM GPIO number on the 40-pin header."""
    return Option(default, int, help, minimum=0, maximum=27)


#: The table of every option: section -> key -> :class:`Option`.
OPTIONS: Mapping[str, Mapping[str, Option]] = {
    "board": {
        "home_side": Option(
            "auto",
            str,
            "B3: which end the home boards are at, seen from player 0; auto reads it from the starting position",
            choices=("auto", "right", "left"),
        ),
    },
    "camera": {
        "backend": Option(
            "picamera2",
            str,
            "where frames come from",
            choices=("picamera2", "opencv", "folder", "synthetic"),
        ),
        "device": Option(
            "0",
            str,
            "opencv: camera index or /dev/videoN or a video file; folder: the folder of frames; else unused",
        ),
        "width": Option(2304, int, "frame width in pixels", minimum=64),
        "height": Option(1296, int, "frame height in pixels", minimum=64),
        "fps": Option(15.0, float, "frames per second asked of the camera", minimum=0.5, maximum=120.0),
        "lock_exposure": Option(
            True, bool, "lock exposure, white balance and focus after calibration (vision-notes: steady light)"
        ),
        "seed": Option(0, int, "synthetic: seed of the simulated game", minimum=0),
    },
    "buttons": {
        "backend": Option(
            "gpio",
            str,
            "gpio: real buttons through gpiozero; simulated: the same code on gpiozero's MockFactory",
            choices=("gpio", "simulated"),
        ),
        "player0_main": _gpio(5, "GPIO of player 0's main button (roll, end turn, take, accept X1)"),
        "player0_second": _gpio(6, "GPIO of player 0's second button (double, drop; hold: resign)"),
        "player1_main": _gpio(13, "GPIO of player 1's main button"),
        "player1_second": _gpio(19, "GPIO of player 1's second button"),
        "new_game": _gpio(26, "GPIO of the shared new-game button (acts only when held)"),
        "pause": _gpio(16, "GPIO of the shared pause button"),
        "bounce_s": Option(0.03, float, "debounce time of every button", minimum=0.0, maximum=1.0),
        "hold_s": Option(3.0, float, "how long second/new-game must be held to resign/start anew", minimum=0.5),
    },
    "leds": {
        "backend": Option(
            "neopixel_spi",
            str,
            "neopixel_spi: WS2812 strip on SPI (MOSI = GPIO10); simulated: kept in memory",
            choices=("neopixel_spi", "simulated"),
        ),
        "spi_bus": Option(0, int, "SPI bus of the strip: 0 is /dev/spidev0.0 (data on GPIO10)", minimum=0, maximum=6),
        "pixel_order": Option(
            "GRB",
            str,
            "colour order of the strip's pixels (WS2812B: GRB)",
            choices=("GRB", "RGB", "BRG", "RBG", "GBR", "BGR"),
        ),
        "brightness": Option(0.5, float, "overall brightness, 0..1, before the current cap", minimum=0.0, maximum=1.0),
        "max_current_ma": Option(
            2500, int, "current budget of the strip's 5 V supply; frames are dimmed to stay under it", minimum=100
        ),
        "warn_reserve_s": Option(
            15.0, float, "a player's reserve below this shows the warning colour on the clock bar", minimum=0.0
        ),
        "blink_period_s": Option(0.6, float, "one on+off cycle of blinking LEDs", minimum=0.1, maximum=5.0),
    },
    "layout": {
        "num_pixels": Option(144, int, "number of pixels on the chain (all strips in series)", minimum=1),
        "leds_per_point": Option(3, int, "rail LEDs in front of each point", minimum=1, maximum=16),
        "bar_leds": Option(2, int, "rail LEDs in front of the bar, per rail", minimum=0, maximum=16),
        "bottom_rail_start": Option(0, int, "index of the first LED of the bottom rail (player 0's edge)", minimum=0),
        "bottom_rail_reversed": Option(False, bool, "true when the bottom rail's data runs right to left"),
        "top_rail_start": Option(38, int, "index of the first LED of the top rail (player 1's edge)", minimum=0),
        "top_rail_reversed": Option(True, bool, "true when the top rail's data runs right to left"),
        "status_start": Option(76, int, "first status LED: one per player, player 0 first", minimum=0),
        "clock_leds": Option(12, int, "LEDs in each player's clock bar (0: no clock bars)", minimum=0),
        "clock_delay_leds": Option(3, int, "of those, the LEDs that show the turn delay (T2: spent first)", minimum=0),
        "player0_clock_start": Option(
            78, int, "first LED of player 0's clock bar (the end that empties last)", minimum=0
        ),
        "player1_clock_start": Option(90, int, "first LED of player 1's clock bar", minimum=0),
        "dice_shape": Option(
            "two_3x3",
            str,
            "dice matrix of each player: two 3x3 squares in series, or one 8x8 matrix",
            choices=("two_3x3", "matrix_8x8", "none"),
        ),
        "dice_serpentine": Option(False, bool, "true when the matrix rows alternate direction (zigzag wiring)"),
        "player0_dice_start": Option(102, int, "first LED of player 0's dice matrix", minimum=0),
        "player1_dice_start": Option(120, int, "first LED of player 1's dice matrix", minimum=0),
        "cube_start": Option(138, int, "first LED of the cube indicator (from player 0's side)", minimum=0),
        "cube_leds": Option(
            6, int, "LEDs of the cube indicator: lit count = log2 of the cube value (0: none)", minimum=0, maximum=16
        ),
    },
    "buzzer": {
        "backend": Option("gpio", str, "gpio or simulated", choices=("gpio", "simulated")),
        "pin": _gpio(12, "GPIO driving the buzzer's transistor"),
        "mute": Option(False, bool, "start muted (the referee can toggle it)"),
    },
    "clock": {
        "preset": Option(
            "app",
            str,
            "T1: app = 11 s delay + 90 s reserve per game; tournament = 12 s delay + 2 min per "
            "match point for the match; off = no clock",
            choices=("app", "tournament", "off"),
        ),
        "delay_s": Option(None, float, "turn delay; unset: from the preset", minimum=0.0),
        "reserve_s": Option(None, float, "reserve; unset: from the preset", minimum=0.0),
        "flag": Option(
            None,
            str,
            "T3/S4 when a reserve runs out; unset: app = gammon, tournament = match",
            choices=("gammon", "match"),
        ),
    },
    "match": {
        "variant": Option("standard", str, "rules variant (engine.rules.find_variant name)"),
        "length": Option(7, int, "match length in points (C5); 0 = money play", minimum=0, maximum=99),
        "crawford": Option(True, bool, "C5: Crawford rule in match play"),
        "cube": Option(True, bool, "use the doubling cube"),
        "max_cube": Option(64, int, "C3: highest cube value", minimum=2, maximum=64),
        "jacoby": Option(False, bool, "S5: Jacoby rule (money play only)"),
        "beaver": Option(False, bool, "C4: beavers (money play only)"),
        "automatic_doubles": Option(False, bool, "O2: automatic doubles on opening ties (money play only)"),
    },
    "journal": {
        "path": Option("/var/lib/nardref/journal.jsonl", str, "append-only journal of the match"),
    },
    "vision": {
        "calibration": Option(
            "/var/lib/nardref/calibration.json", str, "calibration file written by nardref calibrate"
        ),
    },
}


@dataclass(frozen=True)
class BoardConfig:
    home_side: str


@dataclass(frozen=True)
class CameraConfig:
    backend: str
    device: str
    width: int
    height: int
    fps: float
    lock_exposure: bool
    seed: int


@dataclass(frozen=True)
class ButtonsConfig:
    backend: str
    player0_main: int
    player0_second: int
    player1_main: int
    player1_second: int
    new_game: int
    pause: int
    bounce_s: float
    hold_s: float


@dataclass(frozen=True)
class LedsConfig:
    backend: str
    spi_bus: int
    pixel_order: str
    brightness: float
    max_current_ma: int
    warn_reserve_s: float
    blink_period_s: float


@dataclass(frozen=True)
class LayoutConfig:
    num_pixels: int
    leds_per_point: int
    bar_leds: int
    bottom_rail_start: int
    bottom_rail_reversed: bool
    top_rail_start: int
    top_rail_reversed: bool
    status_start: int
    clock_leds: int
    clock_delay_leds: int
    player0_clock_start: int
    player1_clock_start: int
    dice_shape: str
    dice_serpentine: bool
    player0_dice_start: int
    player1_dice_start: int
    cube_start: int
    cube_leds: int


@dataclass(frozen=True)
class BuzzerConfig:
    backend: str
    pin: int
    mute: bool


@dataclass(frozen=True)
class ClockConfig:
    preset: str
    delay_s: float | None
    reserve_s: float | None
    flag: str | None

    def resolve(self, *, match_length: int) -> tuple[float, float, str] | None:
        """``(delay_s, reserve_s, flag)`` after the preset (T1), or None for no clock.

        The tournament reserve is 2 minutes per match point for the whole match
        (a money game counts as 1 point).

        >>> ClockConfig("tournament", None, None, None).resolve(match_length=7)
        (12.0, 840.0, 'match')
        """
        if self.preset == "off":
            return None
        if self.preset == "app":
            delay_s, reserve_s, flag = 11.0, 90.0, "gammon"
        else:
            delay_s, reserve_s, flag = 12.0, 120.0 * max(match_length, 1), "match"
        return (
            delay_s if self.delay_s is None else self.delay_s,
            reserve_s if self.reserve_s is None else self.reserve_s,
            flag if self.flag is None else self.flag,
        )


@dataclass(frozen=True)
class MatchConfig:
    variant: str
    length: int
    crawford: bool
    cube: bool
    max_cube: int
    jacoby: bool
    beaver: bool
    automatic_doubles: bool


@dataclass(frozen=True)
class JournalConfig:
    path: str


@dataclass(frozen=True)
class VisionConfig:
    calibration: str


@dataclass(frozen=True)
class Config:
    """The whole configuration; one frozen dataclass per ``[section]``."""

    board: BoardConfig
    camera: CameraConfig
    buttons: ButtonsConfig
    leds: LedsConfig
    layout: LayoutConfig
    buzzer: BuzzerConfig
    clock: ClockConfig
    match: MatchConfig
    journal: JournalConfig
    vision: VisionConfig


_SECTION_TYPES: Mapping[str, type] = {
    "board": BoardConfig,
    "camera": CameraConfig,
    "buttons": ButtonsConfig,
    "leds": LedsConfig,
    "layout": LayoutConfig,
    "buzzer": BuzzerConfig,
    "clock": ClockConfig,
    "match": MatchConfig,
    "journal": JournalConfig,
    "vision": VisionConfig,
}


def _line_of(text: str, section: str, key: str | None) -> int | None:
    """1-based line of ``key`` in ``[section]`` of a TOML text (of the header if
    ``key`` is None; before any header if ``section`` is ""); ``None`` when not
    found (tomllib gives no positions).

    >>> _line_of("[a]\\nx = 1\\n[b]\\n# x = 0\\n x = 2\\n", "b", "x")
    5
    """
    header = re.compile(r"^\s*\[\s*" + re.escape(section) + r"\s*\]\s*(#.*)?$")
    any_header = re.compile(r"^\s*\[")
    key_line = (
        None
        if key is None
        else re.compile(r"^\s*(" + re.escape(key) + r"|\"" + re.escape(key) + r"\"|'" + re.escape(key) + r"')\s*=")
    )
    inside = section == ""
    for number, line in enumerate(text.splitlines(), start=1):
        if header.match(line):
            if key_line is None:
                return number
            inside = True
        elif any_header.match(line):
            inside = False
        elif inside and key_line is not None and key_line.match(line):
            return number
    return None


def _where(source: str, line: int | None) -> str:
    return f"{source}, line {line}" if line is not None else source


def _check_value(name: str, value: object, option: Option) -> bool | int | float | str:
    """The value converted to the option's kind; raises ConfigError (without a line)."""
    kind = option.kind
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if (
        not isinstance(value, (bool, int, float, str))
        or not isinstance(value, kind)
        or (kind is not bool and isinstance(value, bool))
    ):
        raise ConfigError(f"option {name!r} must be {kind.__name__}, got {value!r} ({type(value).__name__})", key=name)
    if option.choices and value not in option.choices:
        raise ConfigError(f"option {name!r} must be one of {', '.join(option.choices)}; got {value!r}", key=name)
    if isinstance(value, (int, float)):
        if option.minimum is not None and value < option.minimum:
            raise ConfigError(f"option {name!r} must be at least {option.minimum:g}; got {value!r}", key=name)
        if option.maximum is not None and value > option.maximum:
            raise ConfigError(f"option {name!r} must be at most {option.maximum:g}; got {value!r}", key=name)
    return value


def _check_pins(buttons: ButtonsConfig, buzzer: BuzzerConfig) -> None:
    """Two roles on one GPIO is a wiring mistake the config can catch."""
    used: dict[int, str] = {}
    pins = [
        (f"buttons.{f.name}", getattr(buttons, f.name))
        for f in dataclasses.fields(buttons)
        if f.name.startswith(("player", "new_game", "pause"))
    ]
    if buzzer.backend == "gpio":
        pins.append(("buzzer.pin", buzzer.pin))
    for name, pin in pins:
        if pin in used:
            raise ConfigError(f"option {name!r} uses GPIO{pin}, already used by {used[pin]!r}", key=name)
        if pin in (7, 8, 9, 10, 11):
            raise ConfigError(f"option {name!r} uses GPIO{pin}, which belongs to SPI0 (the LED strip)", key=name)
        used[pin] = name


def parse_config(text: str, *, source: str = "<config>") -> Config:
    """The :class:`Config` of a TOML text; ``source`` names it in error messages.

    >>> parse_config("[match]\\nlength = 5\\n").match.length
    5
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from None
    values: dict[str, dict[str, Any]] = {}
    for section, table in data.items():
        if not isinstance(table, dict):
            line = _line_of(text, "", section)
            raise ConfigError(
                f"{_where(source, line)}: option {section!r} stands outside any [section]; "
                f"sections: {', '.join(OPTIONS)}",
                key=section,
                line=line,
            )
        if section not in OPTIONS:
            line = _line_of(text, section, None)
            raise ConfigError(
                f"{_where(source, line)}: unknown section [{section}]; known: {', '.join(OPTIONS)}",
                key=section,
                line=line,
            )
        for key, value in table.items():
            name = f"{section}.{key}"
            option = OPTIONS[section].get(key)
            line = _line_of(text, section, key)
            if option is None:
                raise ConfigError(
                    f"{_where(source, line)}: unknown option {name!r}; [{section}] knows: "
                    f"{', '.join(OPTIONS[section])}",
                    key=name,
                    line=line,
                )
            try:
                values.setdefault(section, {})[key] = _check_value(name, value, option)
            except ConfigError as exc:
                raise ConfigError(f"{_where(source, line)}: {exc}", key=name, line=line) from None
    sections: dict[str, Any] = {}
    for section, options in OPTIONS.items():
        given = values.get(section, {})
        fields = {key: given.get(key, option.default) for key, option in options.items()}
        sections[section] = _SECTION_TYPES[section](**fields)
    config = Config(**sections)
    try:
        _check_pins(config.buttons, config.buzzer)
        # Local import: led_layout builds on this module's LayoutConfig.
        from firmware.led_layout import LedLayout

        LedLayout.from_config(config.layout)
    except ConfigError as exc:
        # The key at fault may keep its default; then point at another key the message names.
        named = [exc.key or ""] + re.findall(r"'(\w+\.\w+)'", str(exc))
        key, line = exc.key, None
        for candidate in named:
            section, _, option = candidate.partition(".")
            line = _line_of(text, section, option) if option else None
            if line is not None:
                key = candidate
                break
        raise ConfigError(f"{_where(source, line)}: {exc}", key=key, line=line) from None
    return config


def load_config(path: str | Path) -> Config:
    """Read and check the TOML config file at ``path``.

    Raises :class:`ConfigError` for a missing or unreadable file, bad TOML, an
    unknown section or key, or a value of the wrong type or range; the message
    names the file, the line and the key.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(
            f"config file {str(path)!r} does not exist (nardref run without --config uses the defaults)"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"config file {str(path)!r} cannot be read: {exc}") from None
    return parse_config(text, source=str(path))


def default_config() -> Config:
    """The configuration with every option at its default."""
    return parse_config("")


def _toml_value(value: float | str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)


def default_config_text() -> str:
    """Every option at its default as a commented TOML file.

    Unset options (default ``None``) are written commented out. The text loads
    back equal to :func:`default_config`.
    """
    lines = ["# nardref configuration: every option with its default.", ""]
    for section, options in OPTIONS.items():
        lines.append(f"[{section}]")
        for key, option in options.items():
            allowed = f" ({' | '.join(option.choices)})" if option.choices else ""
            lines.append(f"# {option.help}{allowed}")
            if option.default is None:
                lines.append(f"# {key} =")
            else:
                lines.append(f"{key} = {_toml_value(option.default)}")
        lines.append("")
    return "\n".join(lines)

"""Which LED of the chain lights which thing on the board, from ``[layout]``.

All strips of the board are one WS2812 chain; :class:`LedLayout` maps each
thing the display draws to indices on that chain:

- two *rails* along the long board edges, ``leds_per_point`` LEDs in front of
  each point and ``bar_leds`` in front of the bar. The bottom rail lies along
  player 0's edge (the bottom row of the rectified board picture), the top rail
  along player 1's. Points are named in rectified-board terms, :data:`Spot`:
  ``("top", i)`` / ``("bottom", i)`` with ``i`` = 0..11 from left to right as
  the picture shows them (six points, the bar gap, six points), or ``"bar"``;
- one status LED per player;
- one clock bar per player, listed from the end that empties last;
- one dice matrix per player, given as two 3x3 grids of indices (two 3x3
  squares in series, or two 3x3 blocks inside an 8x8 matrix), row by row;
- the cube indicator, from player 0's side.

Overlapping or out-of-range indices are :class:`~firmware.config.ConfigError`
naming the ``layout.*`` key.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from firmware.config import ConfigError, LayoutConfig

__all__ = ["POINTS_PER_ROW", "DieGrid", "LedLayout", "Row", "Spot"]

Row = Literal["top", "bottom"]
#: A place on the rectified board: ``("top", 0..11)``, ``("bottom", 0..11)`` or ``"bar"``.
Spot = tuple[Row, int] | Literal["bar"]
#: Three rows of three LED indices, as the player reads a die.
DieGrid = tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]]

POINTS_PER_ROW = 12


def _rail(start: int, count: int, *, reversed_: bool) -> tuple[int, ...]:
    """The rail's LED indices in left-to-right order on the picture."""
    indices = tuple(range(start, start + count))
    return indices[::-1] if reversed_ else indices


def _matrix_index(start: int, width: int, row: int, col: int, *, serpentine: bool) -> int:
    if serpentine and row % 2 == 1:
        col = width - 1 - col
    return start + row * width + col


def _die_grids(start: int, shape: str, *, serpentine: bool) -> tuple[DieGrid, DieGrid]:
    """Two 3x3 grids of a player's dice matrix."""

    def grid(base: int, width: int, top: int, left: int) -> DieGrid:
        def row(r: int) -> tuple[int, int, int]:
            a, b, c = (_matrix_index(base, width, top + r, left + k, serpentine=serpentine) for k in range(3))
            return (a, b, c)

        return (row(0), row(1), row(2))

    if shape == "two_3x3":
        return grid(start, 3, 0, 0), grid(start + 9, 3, 0, 0)
    # matrix_8x8: two 3x3 blocks in the middle rows, at the left and right edges.
    return grid(start, 8, 2, 0), grid(start, 8, 2, 5)


@dataclass(frozen=True)
class LedLayout:
    """LED indices of every drawn thing (see the module docstring)."""

    num_pixels: int
    leds_per_point: int
    #: The whole rail, left to right: [0] bottom (player 0), [1] top (player 1).
    rails: tuple[tuple[int, ...], tuple[int, ...]]
    #: Spot -> the LEDs in front of it (``"bar"``: the bar LEDs of both rails).
    spots: Mapping[Spot, tuple[int, ...]]
    #: Status LED of player 0 and of player 1.
    status: tuple[int, int]
    #: Clock bar of each player, from the end that empties last.
    clocks: tuple[tuple[int, ...], tuple[int, ...]]
    #: How many LEDs at the far end of each clock bar show the turn delay.
    clock_delay_leds: int
    #: Each player's two die grids (empty when ``dice_shape = "none"``).
    dice: tuple[tuple[DieGrid, ...], tuple[DieGrid, ...]]
    #: Cube indicator, from player 0's side.
    cube: tuple[int, ...]

    @classmethod
    def from_config(cls, config: LayoutConfig) -> LedLayout:
        """Build and check the layout; raises ConfigError naming the ``layout.*`` key."""
        lpp = config.leds_per_point
        half = 6 * lpp
        rail_len = 2 * half + config.bar_leds
        groups: list[tuple[str, tuple[int, ...]]] = []
        bottom = _rail(config.bottom_rail_start, rail_len, reversed_=config.bottom_rail_reversed)
        top = _rail(config.top_rail_start, rail_len, reversed_=config.top_rail_reversed)
        groups += [("bottom_rail_start", bottom), ("top_rail_start", top)]
        status = (config.status_start, config.status_start + 1)
        groups.append(("status_start", status))
        if config.clock_delay_leds > config.clock_leds:
            raise ConfigError(
                f"option 'layout.clock_delay_leds' = {config.clock_delay_leds} is more than "
                f"layout.clock_leds = {config.clock_leds}",
                key="layout.clock_delay_leds",
            )
        clocks = (
            tuple(range(config.player0_clock_start, config.player0_clock_start + config.clock_leds)),
            tuple(range(config.player1_clock_start, config.player1_clock_start + config.clock_leds)),
        )
        groups += [("player0_clock_start", clocks[0]), ("player1_clock_start", clocks[1])]
        dice: tuple[tuple[DieGrid, ...], tuple[DieGrid, ...]] = ((), ())
        if config.dice_shape != "none":
            size = 18 if config.dice_shape == "two_3x3" else 64
            dice = (
                _die_grids(config.player0_dice_start, config.dice_shape, serpentine=config.dice_serpentine),
                _die_grids(config.player1_dice_start, config.dice_shape, serpentine=config.dice_serpentine),
            )
            groups.append(
                ("player0_dice_start", tuple(range(config.player0_dice_start, config.player0_dice_start + size)))
            )
            groups.append(
                ("player1_dice_start", tuple(range(config.player1_dice_start, config.player1_dice_start + size)))
            )
        cube = tuple(range(config.cube_start, config.cube_start + config.cube_leds))
        groups.append(("cube_start", cube))
        _check_groups(groups, config.num_pixels)

        spots: dict[Spot, tuple[int, ...]] = {}
        rows: tuple[tuple[Row, tuple[int, ...]], ...] = (("bottom", bottom), ("top", top))
        for row, rail in rows:
            for i in range(POINTS_PER_ROW):
                offset = i * lpp + (config.bar_leds if i >= 6 else 0)
                spots[(row, i)] = rail[offset : offset + lpp]
        spots["bar"] = bottom[half : half + config.bar_leds] + top[half : half + config.bar_leds]
        return cls(
            num_pixels=config.num_pixels,
            leds_per_point=lpp,
            rails=(bottom, top),
            spots=spots,
            status=status,
            clocks=clocks,
            clock_delay_leds=config.clock_delay_leds,
            dice=dice,
            cube=cube,
        )

    def positions(self) -> dict[int, tuple[int, int]]:
        """LED index -> (column, row) on a picture of the board, for drawing."""
        return _positions(self)

    def indices(self, spot: Spot) -> tuple[int, ...]:
        """The LEDs in front of ``spot``; ValueError naming the spot if there is none."""
        try:
            return self.spots[spot]
        except KeyError:
            raise ValueError(
                f"no LEDs for spot {spot!r}: expected ('top', 0..11), ('bottom', 0..11) or 'bar'"
            ) from None


def _check_groups(groups: Iterable[tuple[str, tuple[int, ...]]], num_pixels: int) -> None:
    owner: dict[int, str] = {}
    for key, indices in groups:
        for index in indices:
            if index >= num_pixels:
                raise ConfigError(
                    f"option 'layout.{key}' puts LED {index} past the end of the chain "
                    f"(layout.num_pixels = {num_pixels})",
                    key=f"layout.{key}",
                )
            if index in owner:
                raise ConfigError(
                    f"option 'layout.{key}' overlaps 'layout.{owner[index]}' at LED {index}",
                    key=f"layout.{key}",
                )
            owner[index] = key


def _positions(layout: LedLayout) -> dict[int, tuple[int, int]]:
    """A picture of the board: player 1's side at the top, player 0's at the bottom.

    Rows: player 1's dice, status and clock; the top rail; the cube in the
    middle; the bottom rail; player 0's dice, status and clock.
    """
    width = len(layout.rails[0])
    positions: dict[int, tuple[int, int]] = {}

    def panel(player: int, top_row: int) -> None:
        col = 0
        for grid in layout.dice[player]:
            for r, row in enumerate(grid):
                for c, index in enumerate(row):
                    positions[index] = (col + c, top_row + r)
            col += 4
        positions[layout.status[player]] = (col + 1, top_row + 1)
        clock = layout.clocks[player]
        for k, index in enumerate(clock):
            # the end that empties last sits nearest the middle of the board
            positions[index] = (width - len(clock) + k, top_row + 1) if player == 0 else (width - 1 - k, top_row + 1)

    panel(1, 0)
    for x, index in enumerate(layout.rails[1]):
        positions[index] = (x, 4)
    centre = width // 2 - len(layout.cube) // 2
    for k, index in enumerate(layout.cube):
        positions[index] = (centre + k, 6)
    for x, index in enumerate(layout.rails[0]):
        positions[index] = (x, 8)
    panel(0, 10)
    return positions

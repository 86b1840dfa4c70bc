"""Rules as data: the standard game, its options and the variants.

A :class:`Rules` value says everything the move generator and the scorer need
to know; nothing in the engine switches on module-level flags. Variants are
presets found by name with :func:`find_variant` (as python-chess's
``variant.py``)::

    >>> find_variant("nack").name
    'nackgammon'
    >>> STANDARD.opposite(6), LONG_NARDY.opposite(6)
    (19, 18)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from engine.errors import NotationError

BAR = 25
OFF = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """One rule set: a variant with its options switched on or off.

    ``start`` lists ``(point, checkers)`` for each player in their own
    numbering (B2); every other field names the rule it stands for.
    """

    name: str = "standard"
    start: tuple[tuple[int, int], ...] = ((24, 2), (13, 5), (8, 3), (6, 5))  # B4
    long_geometry: bool = False  # V3: both sides move the same way from diagonal corners
    hitting: bool = True  # M3; V3 has none: one checker already holds a point
    larger_die: bool = True  # M6 larger-die clause
    least_waste: bool = False  # E5 (seed 000)
    no_hit_and_run: bool = False  # H1 (seed 003)
    head_limit: bool = False  # V3: one checker leaves the head per turn
    no_lone_prime: bool = False  # V3: no six-point block with no opposing checker ahead
    backgammons: bool = True  # S2; the seed-000 profile scores 1 or 2 only
    cube: bool = True  # V3 plays without a cube unless players turn it on

    checkers: int = field(init=False)
    """Checkers per player (15, or 3 in Hypergammon), from ``start``."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "checkers", sum(n for _, n in self.start))

    def opposite(self, point: int) -> int:
        """The opponent's number for my ``point`` (1..24), B2: 25 - n.

        In long nardy both sides run the same way from diagonal corners, so
        the opponent's number is twelve away.
        """
        if self.long_geometry:
            return point + 12 if point <= 12 else point - 12
        return 25 - point

    def with_options(self, *, least_waste: bool | None = None, no_hit_and_run: bool | None = None) -> Rules:
        """The same variant with the options E5 and H1 set as given (None keeps them)."""
        return dataclasses.replace(
            self,
            least_waste=self.least_waste if least_waste is None else least_waste,
            no_hit_and_run=self.no_hit_and_run if no_hit_and_run is None else no_hit_and_run,
        )


STANDARD = Rules()
NACKGAMMON = Rules(name="nackgammon", start=((24, 2), (23, 2), (13, 4), (8, 3), (6, 4)))  # V1
HYPERGAMMON = Rules(name="hypergammon", start=((24, 1), (23, 1), (22, 1)))  # V2
LONG_NARDY = Rules(  # V3
    name="long-nardy",
    start=((24, 15),),
    long_geometry=True,
    hitting=False,
    head_limit=True,
    no_lone_prime=True,
    backgammons=False,
    cube=False,
)
#: The app rules of seed 000: least waste on (E5), no backgammons (S2).
APP = Rules(name="app", least_waste=True, backgammons=False)

VARIANTS: dict[str, Rules] = {r.name: r for r in (STANDARD, NACKGAMMON, HYPERGAMMON, LONG_NARDY, APP)}
ALIASES = {
    "backgammon": "standard",
    "nack": "nackgammon",
    "hyper": "hypergammon",
    "long": "long-nardy",
    "nardy": "long-nardy",
    "narde": "long-nardy",
    "long-nardi": "long-nardy",
    "000": "app",
}
OPTIONS = ("least-waste", "no-hit-and-run")


def find_variant(name: str) -> Rules:
    """The preset called ``name`` (or one of its aliases), case-insensitive."""
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = ALIASES.get(key, key)
    try:
        return VARIANTS[key]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise NotationError(f"unknown variant {name!r}: expected one of {known}") from None


def with_named_options(rules: Rules, names: list[str] | tuple[str, ...]) -> Rules:
    """``rules`` with the options named on a command line (``least-waste``, ``no-hit-and-run``)."""
    wanted = {name.strip().lower() for name in names}
    unknown = sorted(wanted - set(OPTIONS))
    if unknown:
        raise NotationError(f"unknown rule option {unknown[0]!r}: expected one of {', '.join(OPTIONS)}")
    return rules.with_options(
        least_waste=True if "least-waste" in wanted else None,
        no_hit_and_run=True if "no-hit-and-run" in wanted else None,
    )

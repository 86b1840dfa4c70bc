"""Judging a move: given the position before, the dice and the position
after, say whether the change is a legal play, which one, and if not, every
reason with its rule ID and the legal plays nearest to what was seen.

The reasons come from a search directed at what was seen: checkers are moved
one die at a time as in :mod:`engine.legal`, but a step that breaks a rule is
allowed and tagged with the rule it breaks; the explanation breaking the
fewest rules wins. Moves only bring checkers nearer home, so a branch that
has fewer checkers at or above some point than the seen position is dead:
the search stays small.

>>> from engine.dice import Dice
>>> start = Position.start()
>>> after = Position.from_id("4HPwATDgc/ABMA")
>>> judge(start, Dice(3, 1), after).reasons[0].rule
'M6'
>>> from engine.legal import legal_plays
>>> ok = judge(start, Dice(3, 1), legal_plays(start, Dice(3, 1))[0].after)
>>> ok.legal, str(ok.play)
(True, '24/23 24/21')
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice
from engine.legal import (
    LegalPlay,
    head_limit,
    legal_keys,
    lone_prime,
    outcome_key,
    position_of,
    side_key,
)
from engine.play import Move, Play
from engine.position import Position
from engine.rules import BAR, OFF, STANDARD, Rules

NEAREST = 3


@dataclass(frozen=True, slots=True)
class Reason:
    """One broken rule: its ID from rules.md and what was wrong, in words."""

    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.rule} {self.message}"


@dataclass(frozen=True, slots=True)
class Judgement:
    """The verdict on one move."""

    legal: bool
    play: Play | None = None
    reasons: tuple[Reason, ...] = ()
    nearest: tuple[LegalPlay, ...] = ()


def judge(before: Position, dice: Dice, after: Position, rules: Rules = STANDARD) -> Judgement:
    """Whether ``after`` (seen by the same mover as ``before``) follows legally with ``dice``."""
    keys = legal_keys(before, dice, rules)
    key = outcome_key(before, after, rules)
    if key in keys:
        explanation = _explain(before, dice, after, rules)
        assert explanation is not None and not explanation.broken
        return Judgement(legal=True, play=explanation.play)
    reasons = _reasons(before, dice, after, rules, keys)
    seen = full_key(after, rules)
    base = full_key(before, rules) >> _SIDE_BITS
    distance = {k: _slot_diff(_outcome_full_key(k, base), seen) for k in keys}
    closest = min(distance.values())
    near = []
    for k in sorted((k for k in keys if distance[k] == closest), key=lambda k: (k >> _SIDE_BITS, k))[:NEAREST]:
        outcome = position_of(before, k, rules)
        path = _explain(before, dice, outcome, rules)
        assert path is not None
        near.append(LegalPlay(path.play, outcome))
    return Judgement(legal=False, reasons=tuple(reasons), nearest=tuple(near))


def nearest(plays: tuple[LegalPlay, ...], seen: Position, rules: Rules = STANDARD) -> tuple[LegalPlay, ...]:
    """The legal outcomes with the fewest points differing from ``seen``."""
    if not plays:
        return ()
    target = full_key(seen, rules)
    scored = sorted(plays, key=lambda lp: _slot_diff(full_key(lp.after, rules), target))
    best = _slot_diff(full_key(scored[0].after, rules), target)
    return tuple(lp for lp in scored if _slot_diff(full_key(lp.after, rules), target) == best)[:NEAREST]


def differing_points(a: Position, b: Position, rules: Rules = STANDARD) -> int:
    """How many places differ: the 24 points as ``a``'s mover sees them, each
    side's bar and each side's off tray."""
    return _slot_diff(full_key(a, rules), full_key(b, rules))


_SIDE_BITS = 4 * 26
_SIDE_MASK = (1 << _SIDE_BITS) - 1
_NIBBLES = int("1" * 52, 16)  # the lowest bit of each of 52 four-bit slots
_POINTS = int("1" * 24 + "0", 16)  # slots 1..24 of one side


def full_key(position: Position, rules: Rules = STANDARD) -> int:
    """Both sides in four-bit slots: the mover's 26, then the opponent's 26
    renumbered to the mover's points (the opponent's bar and off keep their slots)."""
    theirs = [0] * 26
    theirs[OFF], theirs[BAR] = position.them[OFF], position.them[BAR]
    for point in range(1, 25):
        theirs[point] = position.them[rules.opposite(point)]
    return side_key(position.me) | side_key(tuple(theirs)) << _SIDE_BITS


def _outcome_full_key(key: int, their_base: int) -> int:
    """The :func:`full_key` of an outcome key: the opponent's side is as before,
    less the blots hit, which are on the bar."""
    hits = key >> _SIDE_BITS
    theirs = their_base
    point = 0
    while hits:
        if hits & 1:
            theirs += (1 << (4 * BAR)) - (1 << (4 * point))
        hits >>= 1
        point += 1
    return (key & _SIDE_MASK) | theirs << _SIDE_BITS


def _slot_diff(a: int, b: int) -> int:
    diff = a ^ b
    diff |= diff >> 1
    diff |= diff >> 2
    diff &= _NIBBLES
    mine, theirs = diff & _SIDE_MASK, diff >> _SIDE_BITS
    shared = (mine | theirs) & _POINTS
    return shared.bit_count() + (mine & ~_POINTS).bit_count() + (theirs & ~_POINTS).bit_count()


def _reasons(before: Position, dice: Dice, after: Position, rules: Rules, keys: set[int]) -> list[Reason]:
    reasons: list[Reason] = []
    for side, name in ((after.me, "the player on roll"), (after.them, "the opponent")):
        if sum(side) != rules.checkers:
            reasons.append(
                Reason(
                    "B4", f"{name} has {sum(side)} checkers on the board, bar and off; the game has {rules.checkers}"
                )
            )
    key = outcome_key(before, after, rules)
    if key is None:
        reasons.append(Reason("D1", "checkers of the side not on roll moved; only the player on roll moves"))
    if reasons or key is None:
        return reasons
    explanation = _explain(before, dice, after, rules)
    if explanation is None:
        pips = before.pips()[0] - after.pips()[0]
        return [
            Reason(
                "D1",
                f"the checkers moved do not match the dice {dice.first}-{dice.second}: "
                f"the pip count went down by {pips}",
            )
        ]
    used, broken = explanation.dice, explanation.broken
    legal_example = _explain(before, dice, position_of(before, next(iter(keys)), rules), rules)
    assert legal_example is not None
    most = len(legal_example.dice)
    reasons.extend(Reason(rule, message) for rule, message in broken)
    if used == (dice.low,) and most == 1 and not dice.is_double:
        reasons.append(Reason("M6", f"the smaller die was played where the larger ({dice.high}) was required"))
    elif len(used) < most:
        unused = most - len(used)
        reasons.append(Reason("M6", f"{unused} {'dice' if unused > 1 else 'die'} left unused that could be played"))
    elif broken:
        pass
    elif rules.no_lone_prime and lone_prime(key, before.them, rules):
        reasons.append(Reason("V3", "a block of six points with no opposing checker ahead of it"))
    elif rules.least_waste and after.me[OFF] > before.me[OFF]:
        reasons.append(Reason("E5", "another play bears off wasting fewer pips"))
    elif rules.no_hit_and_run and key >> _SIDE_BITS:
        reasons.append(Reason("H1", "a checker that hit in a home board moved on (no hit-and-run)"))
    else:
        reasons.append(Reason("M6", "the dice allow a play that uses more of them"))
    return reasons


@dataclass(frozen=True, slots=True)
class _Explanation:
    dice: tuple[int, ...]  #: the dice the path used, in order
    broken: list[tuple[str, str]]  #: (rule, message) of each rule the path breaks
    play: Play


def _explain(before: Position, dice: Dice, after: Position, rules: Rules) -> _Explanation | None:
    """The path from ``before`` to ``after`` breaking the fewest rules, or None
    if no way of moving the mover's checkers with these dice gets there."""
    target = after.me
    target_tail = _tails(target)
    hit_points = {p for p in range(1, 25) if before.them[rules.opposite(p)] == 1 and after.them[rules.opposite(p)] == 0}
    me = list(before.me)
    opp = [0] * 26
    for point in range(1, 25):
        opp[point] = before.them[rules.opposite(point)]
    block = 2 if rules.hitting else 1
    most_from_head = head_limit(before, dice, rules)
    orders = [dice.moves] if dice.is_double else [(dice.high, dice.low), (dice.low, dice.high)]
    best: list[_Explanation | None] = [None]
    hits_done: set[int] = set()
    path: list[tuple[int, int, bool, tuple[str, str] | None]] = []
    used: list[int] = []

    def consider() -> None:
        if tuple(me) != target or hits_done != hit_points:
            return
        broken = _name_breaks(path)
        if rules.no_lone_prime and lone_prime(side_key(target), before.them, rules):
            broken.append(("V3", "a block of six points with no opposing checker ahead of it"))
        old = best[0]
        if (
            old is None
            or len(broken) < len(old.broken)
            or (len(broken) == len(old.broken) and len(used) > len(old.dice))
        ):
            best[0] = _Explanation(tuple(used), broken, Play(tuple(Move(s, e, h) for s, e, h, _ in path)))

    target_pips = sum(i * n for i, n in enumerate(target))
    # Fewest broken rules with which each (board, hits, dice left) was reached.
    visited: dict[tuple[tuple[int, ...], int, tuple[int, ...], int], int] = {}

    def step(dice_left: tuple[int, ...], heads: int) -> None:
        state = (tuple(me), sum(1 << p for p in hits_done), dice_left, heads)
        breaks = sum(1 for _, _, _, b in path if b is not None)
        if visited.get(state, breaks + 1) <= breaks:
            return
        visited[state] = breaks
        consider()
        if not dice_left or sum(i * n for i, n in enumerate(me)) - target_pips > sum(dice_left):
            return
        die = dice_left[0]
        for start in range(25, 0, -1):
            if not me[start]:
                continue
            end = start - die
            broken: tuple[str, str] | None = None
            if me[BAR] and start != BAR:
                broken = ("M4", f"moved {start}/{max(end, 0) or 'off'} while a checker stays on the bar")
            if start == 24 and heads >= most_from_head:
                broken = broken or ("V3", "more checkers left the head than the rules allow")
            hit = False
            if end > 0:
                if opp[end] >= block:
                    broken = broken or ("M2", f"point {end} is blocked")
                elif opp[end] == 1:
                    hit = True
            else:
                outside = sum(me[7:26]) - (start > 6)
                if outside:
                    broken = broken or ("E1", f"bore off from {start} with {outside} checker(s) outside the home board")
                elif end < 0 and any(me[start + 1 : 7]):
                    broken = broken or ("E2", f"bore off from {start} with a {die} while a higher point is occupied")
                end = OFF
            me[start] -= 1
            me[end] += 1
            if _tails_ok(me, target_tail):
                new_hit = hit and end not in hits_done
                if new_hit:
                    hits_done.add(end)
                path.append((start, end, new_hit, broken))
                used.append(die)
                step(dice_left[1:], heads + (start == 24))
                used.pop()
                path.pop()
                if new_hit:
                    hits_done.discard(end)
            me[end] -= 1
            me[start] += 1

    for order in orders:
        step(order, 0)
    return best[0]


def _name_breaks(path: list[tuple[int, int, bool, tuple[str, str] | None]]) -> list[tuple[str, str]]:
    """The broken rules along a path; a blocked stop passed through is D3, not M2."""
    breaks: list[tuple[str, str]] = []
    for index, (_, end, _, broken) in enumerate(path):
        if broken is None:
            continue
        rule, message = broken
        if rule == "M2" and any(s == end for s, _, _, _ in path[index + 1 :]):
            rule, message = "D3", f"a checker passed through the blocked point {end}"
        if (rule, message) not in breaks:
            breaks.append((rule, message))
    return breaks


def _tails(side: tuple[int, ...]) -> list[int]:
    tails = [0] * 27
    for point in range(25, -1, -1):
        tails[point] = tails[point + 1] + side[point]
    return tails


def _tails_ok(me: list[int], target_tail: list[int]) -> bool:
    """No point has fewer of the mover's checkers at or above it than the target."""
    total = 0
    for point in range(25, 0, -1):
        total += me[point]
        if total < target_tail[point]:
            return False
    return True


def describe(judgement: Judgement) -> str:
    """The verdict in words, as the command line prints it."""
    if judgement.legal:
        return str(judgement.play) or "no legal move: the turn passes (M7)"
    lines = ["illegal:"]
    lines += [f"  {reason}" for reason in judgement.reasons]
    if judgement.nearest:
        lines.append("nearest legal plays:")
        lines += [f"  {lp.play or '(no move)'}" for lp in judgement.nearest]
    return "\n".join(lines)

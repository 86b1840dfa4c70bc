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
>>> ok = judge(start, Dice(3, 1), legal_plays(start, Dice(3, 1))[0].after)
>>> ok.legal, str(ok.play)
(True, '24/23 24/21')
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice
from engine.legal import LegalPlay, legal_plays
from engine.play import Play
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
    plays = legal_plays(before, dice, rules)
    for lp in plays:
        if lp.after == after:
            return Judgement(legal=True, play=lp.play)
    reasons = _reasons(before, dice, after, rules, plays)
    return Judgement(legal=False, reasons=tuple(reasons), nearest=nearest(plays, after, rules))


def nearest(plays: tuple[LegalPlay, ...], seen: Position, rules: Rules = STANDARD) -> tuple[LegalPlay, ...]:
    """The legal outcomes with the fewest points differing from ``seen``."""
    scored = sorted(plays, key=lambda lp: differing_points(lp.after, seen, rules))
    if not scored:
        return ()
    best = differing_points(scored[0].after, seen, rules)
    return tuple(lp for lp in scored if differing_points(lp.after, seen, rules) == best)[:NEAREST]


def differing_points(a: Position, b: Position, rules: Rules = STANDARD) -> int:
    """How many slots (points seen by ``me``, both bars, both off trays) differ."""
    count = sum(
        1 for p in range(1, 25) if a.me[p] != b.me[p] or a.them[rules.opposite(p)] != b.them[rules.opposite(p)]
    )
    for slot in (BAR, OFF):
        count += (a.me[slot] != b.me[slot]) + (a.them[slot] != b.them[slot])
    return count


def _reasons(
    before: Position, dice: Dice, after: Position, rules: Rules, plays: tuple[LegalPlay, ...]
) -> list[Reason]:
    reasons: list[Reason] = []
    for side, name in ((after.me, "the player on roll"), (after.them, "the opponent")):
        if sum(side) != rules.checkers:
            reasons.append(
                Reason("B4", f"{name} has {sum(side)} checkers on the board, bar and off; the game has {rules.checkers}")
            )
    hit_points = _opponent_hits(before, after, rules)
    if hit_points is None:
        reasons.append(Reason("D1", "checkers of the side not on roll moved; only the player on roll moves"))
    if reasons:
        return reasons
    assert hit_points is not None
    explanation = _explain(before, dice, after, rules, hit_points)
    if explanation is None:
        pips = before.pips()[0] - after.pips()[0]
        return [
            Reason(
                "D1",
                f"the checkers moved do not match the dice {dice.first}-{dice.second}: "
                f"the pip count went down by {pips}",
            )
        ]
    used, broken = explanation
    most = max(len(lp.play.moves) for lp in plays)
    for rule, message in broken:
        reasons.append(Reason(rule, message))
    if used == (dice.low,) and most == 1 and not dice.is_double:
        reasons.append(Reason("M6", f"the smaller die was played where the larger ({dice.high}) was required"))
    elif len(used) < most:
        reasons.append(
            Reason("M6", f"{most - len(used)} {'dice' if most - len(used) > 1 else 'die'} left unused that could be played")
        )
    elif rules.least_waste and not broken:
        reasons.append(Reason("E5", "another play bears off wasting fewer pips"))
    elif rules.no_hit_and_run and not broken:
        reasons.append(Reason("H1", "a checker that hit in a home board moved on (no hit-and-run)"))
    elif rules.no_lone_prime and not broken:
        reasons.append(Reason("V3", "a block of six points with no opposing checker ahead of it"))
    elif not broken:
        reasons.append(Reason("M6", "the dice allow a play that uses more of them"))
    return reasons


def _opponent_hits(before: Position, after: Position, rules: Rules) -> set[int] | None:
    """The mover's points where opposing blots went to the bar, or None if the
    opponent's checkers changed in any other way."""
    hits: set[int] = set()
    for point in range(1, 25):
        theirs = rules.opposite(point)
        was, now = before.them[theirs], after.them[theirs]
        if now == was:
            continue
        if was == 1 and now == 0 and rules.hitting:
            hits.add(point)
            continue
        return None
    if after.them[OFF] != before.them[OFF] or after.them[BAR] != before.them[BAR] + len(hits):
        return None
    return hits


def _explain(
    before: Position, dice: Dice, after: Position, rules: Rules, hit_points: set[int]
) -> tuple[tuple[int, ...], list[tuple[str, str]]] | None:
    """The fewest broken rules that lead from ``before`` to ``after``: (dice used, [(rule, message)])."""
    target = after.me
    target_tail = _tails(target)
    me = list(before.me)
    opp = [0] * 26
    for point in range(1, 25):
        opp[point] = before.them[rules.opposite(point)]
    block = 2 if rules.hitting else 1
    orders = [dice.moves] if dice.is_double else [(dice.high, dice.low), (dice.low, dice.high)]
    best: list[tuple[tuple[int, ...], list[tuple[str, str]]] | None] = [None]
    hits_done: set[int] = set()
    path: list[tuple[int, int, tuple[str, str] | None]] = []
    used: list[int] = []

    def consider() -> None:
        if tuple(me) != target or hits_done != hit_points:
            return
        broken = _name_breaks(path)
        if best[0] is None or len(broken) < len(best[0][1]) or (
            len(broken) == len(best[0][1]) and len(used) > len(best[0][0])
        ):
            best[0] = (tuple(used), broken)

    def step(dice_left: tuple[int, ...]) -> None:
        consider()
        if not dice_left:
            return
        die = dice_left[0]
        for start in range(25, 0, -1):
            if not me[start]:
                continue
            end = start - die
            broken: tuple[str, str] | None = None
            if me[BAR] and start != BAR:
                broken = ("M4", f"moved {start}/{max(end, 0) or 'off'} while a checker stays on the bar")
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
                path.append((start, end, broken))
                used.append(die)
                step(dice_left[1:])
                used.pop()
                path.pop()
                if new_hit:
                    hits_done.discard(end)
            me[end] -= 1
            me[start] += 1

    for order in orders:
        step(order)
    return best[0]


def _name_breaks(path: list[tuple[int, int, tuple[str, str] | None]]) -> list[tuple[str, str]]:
    """The broken rules along a path; a blocked stop passed through is D3, not M2."""
    breaks: list[tuple[str, str]] = []
    for index, (_, end, broken) in enumerate(path):
        if broken is None:
            continue
        rule, message = broken
        if rule == "M2" and any(s == end for s, _, _ in path[index + 1 :]):
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


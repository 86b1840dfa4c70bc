"""Legal plays: every distinct legal resulting position for a position and dice.

The search moves one checker one die at a time (D1-D3), never onto a blocked
point (M2), entering from the bar first (M4), bearing off only from home
(E1, E2). It keeps each distinct result once, then applies maximum use of
the dice (M6) exactly as GNU Backgammon does: the most dice played, and when
only one die of a non-double can be played, the larger one. Options and
variants then filter: least waste (E5), no hit-and-run (H1), long nardy's head
and six-block rules (V3).

A result is identified by an integer key: four bits per slot of the mover's
side (the counts never exceed 15) and one bit per point where a blot was hit,
so two orders of the same moves meet in one dictionary entry.

Under the plain rules (hitting, no option or variant restriction) common
shapes take exact shortcuts instead of the general search: pairs of single
moves, entering from the bar, bearing off with every checker home, and
doubles as crossings along chains of points. Each hands back to the search
where it does not apply; all agree with GNU Backgammon's generator
(``tests/engine/test_gnubg_oracle.py``).

>>> from engine.dice import Dice
>>> from engine.position import Position
>>> plays = legal_plays(Position.start(), Dice(3, 1))
>>> len(plays), "8/5 6/5" in {str(lp.play) for lp in plays}
(16, True)
>>> count_legal(Position.start(), Dice(6, 6))
11
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice
from engine.play import Move, Play
from engine.position import Position, Side
from engine.rules import BAR, OFF, STANDARD, Rules

_HIT_SHIFT = 4 * 26
_SLOT = 0xF
Step = tuple[int, int, bool, int]
"""One checker, one die: (from, to, hit, die)."""


@dataclass(frozen=True, slots=True)
class LegalPlay:
    """One legal outcome: the canonical play and the position after it, seen by the same mover."""

    play: Play
    after: Position

    def __str__(self) -> str:
        return str(self.play)


def legal_plays(position: Position, dice: Dice, rules: Rules = STANDARD) -> tuple[LegalPlay, ...]:
    """Every distinct legal outcome, in the order the search finds them.

    A roll with no legal move gives one outcome: the empty play and the
    unchanged position (M7).
    """
    found = _search(position, dice, rules)
    return tuple(LegalPlay(_play(path), apply_steps(position, path, rules)) for path in found.values())


def count_legal(position: Position, dice: Dice, rules: Rules = STANDARD) -> int:
    """How many distinct legal outcomes there are (1 for a forced pass).

    Doubles with no bear-off in reach are counted without listing the outcomes
    (see :func:`_count_double`); everything else is listed and counted.
    """
    if dice.is_double and _plain(rules):
        counted = _count_double(position, dice, rules)
        if counted is not None:
            return counted
    return len(_search(position, dice, rules, paths=False))


def legal_keys(position: Position, dice: Dice, rules: Rules = STANDARD) -> set[int]:
    """The :func:`outcome_key` of every legal outcome (for judging without
    building every position)."""
    return set(_search(position, dice, rules, paths=False))


def outcome_key(before: Position, after: Position, rules: Rules = STANDARD) -> int | None:
    """The key of ``after`` as an outcome of a play from ``before``: the mover's
    slots and the points where opposing blots were hit; None when the opponent's
    checkers changed in any other way (so no play leads there)."""
    hits = 0
    for point in range(1, 25):
        theirs = rules.opposite(point)
        was, now = before.them[theirs], after.them[theirs]
        if now != was:
            if not (was == 1 and now == 0 and rules.hitting):
                return None
            hits |= 1 << (_HIT_SHIFT + point)
    if after.them[OFF] != before.them[OFF] or after.them[BAR] != before.them[BAR] + (hits.bit_count()):
        return None
    return side_key(after.me) | hits


def position_of(before: Position, key: int, rules: Rules = STANDARD) -> Position:
    """The outcome a key stands for."""
    me = tuple((key >> (4 * i)) & _SLOT for i in range(26))
    hits = key >> _HIT_SHIFT
    if not hits:
        return Position(me, before.them)
    them = list(before.them)
    for point in range(1, 25):
        if hits >> point & 1:
            them[rules.opposite(point)] -= 1
            them[BAR] += 1
    return Position(me, tuple(them))


def apply_steps(position: Position, steps: tuple[Step, ...], rules: Rules = STANDARD) -> Position:
    """The position after moving checkers one step at a time (hits send blots to the bar)."""
    if not steps:
        return position
    me = list(position.me)
    them = list(position.them) if any(step[2] for step in steps) else None
    for start, end, hit, _ in steps:
        me[start] -= 1
        me[end] += 1
        if hit and them is not None:
            them[rules.opposite(end)] -= 1
            them[BAR] += 1
    return Position(tuple(me), position.them if them is None else tuple(them))


def _play(path: tuple[Step, ...]) -> Play:
    return Play(tuple(Move(start, end, hit) for start, end, hit, _ in path))


def side_key(side: Side) -> int:
    """The key of one side's 26 slots (no hits)."""
    key = 0
    for index, count in enumerate(side):
        key |= count << (4 * index)
    return key


def _search(position: Position, dice: Dice, rules: Rules, *, paths: bool = True) -> dict[int, tuple[Step, ...]]:
    """Keys of the legal outcomes, each with one sequence of steps reaching it
    (with ``paths=False`` the steps may be left empty where that is faster)."""
    if _plain(rules):
        if dice.is_double:
            fast = _spread_double(position, dice, rules, paths=paths)
        else:
            fast = _pair(position, dice, rules, paths=paths)
        if fast is not None:
            return fast
    return _dfs(position, dice, rules)


def _plain(rules: Rules) -> bool:
    """Rules under which the shortcuts below give exactly the search's answer."""
    return rules.hitting and not (rules.head_limit or rules.no_lone_prime or rules.no_hit_and_run or rules.least_waste)


def _opposing(position: Position, rules: Rules) -> list[int]:
    """The opponent's checkers on each of my points (index 1..24)."""
    them = position.them
    if rules.long_geometry:
        return [0, *them[13:25], *them[1:13], 0]
    return [0, *them[24:0:-1], 0]


def _pair(position: Position, dice: Dice, rules: Rules, *, paths: bool) -> dict[int, tuple[Step, ...]] | None:
    """A non-double: every checker home goes to :func:`_bear_pair`, checkers
    on the bar to :func:`_enter_pair`; otherwise, with at least two outside home.

    No bear-off is then possible (E1) and no move changes what another may do,
    so the plays are every pair of single moves by different checkers plus
    one checker taking both dice through an open stop (D3). None when some
    other case applies, or when no play uses both dice (the search decides).
    """
    me = position.me
    outside = sum(me[7:26])
    if outside == 0:
        return _bear_pair(position, dice, rules)
    if outside < 2:
        return None
    opp = _opposing(position, rules)
    high, low = dice.high, dice.low
    base = side_key(me)
    if me[BAR]:
        return _enter_pair(me, opp, high, low, base, paths=paths)
    occupied = [point for point in range(24, 0, -1) if me[point]]
    singles: list[list[tuple[int, int, int, int]]] = []
    for die in (high, low):
        moves = []
        for start in occupied:
            end = start - die
            if end < 1:
                break
            there = opp[end]
            if there < 2:
                hit = 1 << (_HIT_SHIFT + end) if there else 0
                moves.append((start, end, (1 << (4 * end)) - (1 << (4 * start)), hit))
        singles.append(moves)
    found: dict[int, tuple[Step, ...]] = {}
    if not paths:
        keys = {
            (base + d1 + d2) | h1 | h2
            for s1, _, d1, h1 in singles[0]
            for s2, _, d2, h2 in singles[1]
            if s1 != s2 or me[s1] > 1
        }
        found = dict.fromkeys(keys, ())
    for s1, e1, d1, h1 in singles[0] if paths else ():
        for s2, e2, d2, h2 in singles[1]:
            if s1 != s2 or me[s1] > 1:
                key = (base + d1 + d2) | h1 | h2
                if key not in found:
                    found[key] = ((s1, e1, bool(h1), high), (s2, e2, bool(h2) and e2 != e1, low))
    for start in range(24, high + low, -1):
        if not me[start]:
            continue
        end = start - high - low
        if opp[end] > 1:
            continue
        last = 1 << (_HIT_SHIFT + end) if opp[end] else 0
        for first, second in ((high, low), (low, high)):
            stop = start - first
            if opp[stop] > 1:
                continue
            hit_stop = 1 << (_HIT_SHIFT + stop) if opp[stop] else 0
            key = (base + (1 << (4 * end)) - (1 << (4 * start))) | hit_stop | last
            if key not in found:
                found[key] = ((start, stop, bool(hit_stop), first), (stop, end, bool(last), second))
    return found or None


def _bear_pair(position: Position, dice: Dice, rules: Rules) -> dict[int, tuple[Step, ...]] | None:
    """A non-double with every checker home: each die moves a checker inside
    or bears one off, exactly (E2) or from the highest point when the die is
    larger than it. None when no play uses both dice (the search decides)."""
    me = list(position.me)
    opp = _opposing(position, rules)
    base = side_key(position.me)
    found: dict[int, tuple[Step, ...]] = {}

    def singles(die: int) -> list[tuple[int, int, bool]]:
        moves = []
        highest = next((p for p in range(6, 0, -1) if me[p]), 0)
        for start in range(highest, 0, -1):
            if me[start]:
                end = start - die
                if end > 0:
                    if opp[end] < 2:
                        moves.append((start, end, opp[end] == 1))
                elif end == 0 or start == highest:
                    moves.append((start, OFF, False))
        return moves

    for first, second in ((dice.high, dice.low), (dice.low, dice.high)):
        for s1, e1, h1 in singles(first):
            me[s1] -= 1
            me[e1] += 1
            if h1:
                opp[e1] = 0
            for s2, e2, h2 in singles(second):
                key = base - (1 << (4 * s1)) + (1 << (4 * e1)) - (1 << (4 * s2)) + (1 << (4 * e2))
                hits = (1 << (_HIT_SHIFT + e1) if h1 else 0) | (1 << (_HIT_SHIFT + e2) if h2 else 0)
                if key | hits not in found:
                    found[key | hits] = ((s1, e1, h1, first), (s2, e2, h2, second))
            if h1:
                opp[e1] = 1
            me[e1] -= 1
            me[s1] += 1
    return found or None


def _enter_pair(
    me: Side, opp: list[int], high: int, low: int, base: int, *, paths: bool
) -> dict[int, tuple[Step, ...]] | None:
    """A non-double with checkers on the bar (M4) and no bear-off in reach.

    With two or more on the bar, each die enters one checker where it can; with
    one, it enters with one die and the other die moves any checker, the
    entered one included (M5). None when no play uses both dice.
    """
    entries = []
    for die in (high, low):
        point = BAR - die
        if opp[point] < 2:
            hit = 1 << (_HIT_SHIFT + point) if opp[point] else 0
            entries.append((die, point, (1 << (4 * point)) - (1 << (4 * BAR)), hit))
    if me[BAR] > 1:
        key = base
        for _, _, delta, hit in entries:
            key = (key + delta) | hit
        return {key: tuple((BAR, point, bool(hit), die) for die, point, _, hit in entries)}
    found: dict[int, tuple[Step, ...]] = {}
    for die, point, delta, hit in entries:
        other = low if die == high else high
        for start in range(24, other, -1):
            count = me[start] + (start == point)
            if not count:
                continue
            end = start - other
            there = opp[end]
            if there > 1:
                continue
            second_hit = 1 << (_HIT_SHIFT + end) if there else 0
            key = (base + delta + (1 << (4 * end)) - (1 << (4 * start))) | hit | second_hit
            if key not in found:
                found[key] = (
                    ((BAR, point, bool(hit), die), (start, end, bool(second_hit) and end != point, other))
                    if paths
                    else ()
                )
    return found or None


def _spread_double(position: Position, dice: Dice, rules: Rules, *, paths: bool) -> dict[int, tuple[Step, ...]] | None:
    """A double where no bear-off is possible: at least as many checkers outside
    home as dice are left once the bar checkers have entered.

    Bar checkers enter first (M4). Then every step of the die moves a checker
    from a point to the point ``die`` lower, so the points fall into chains
    ``die`` apart and a play is, on each chain, how many checkers cross each
    link. Those crossings fix the result (each stop is a landing, D3, and a
    blot is hit when a checker lands on it), and the result fixes them: each
    choice is one distinct outcome, so none is generated twice. The plays are
    the choices that play the most steps that can be played (M6).
    """
    die = dice.first
    opp = _opposing(position, rules)
    me, prefix, left, hits = _enter_double(position, die, opp)
    base = side_key(tuple(me)) | hits
    if me[BAR] or not left:
        return {base: prefix}
    if sum(me[7:25]) < left:
        return None
    chains = [_crossings(me, opp, range(top, 0, -die), die, left, paths=paths) for top in range(24, 24 - die, -1)]
    chains = [c for c in chains if len(c) > 1]
    most = min(left, sum(c[-1][0] for c in chains))
    found: dict[int, tuple[Step, ...]] = {}
    if most == 0:
        return {base: prefix}
    last = len(chains)
    # reachable[i]: the most steps the chains from i on can take together.
    reachable = [0] * (last + 1)
    for index in range(last - 1, -1, -1):
        reachable[index] = reachable[index + 1] + chains[index][-1][0]

    def combine(index: int, remaining: int, delta: int, hit_bits: int, steps: tuple[Step, ...]) -> None:
        rest = reachable[index + 1]
        for used, d, h, s in chains[index]:
            if used > remaining:
                break
            if used + rest < remaining:
                continue
            if used == remaining:
                found[(base + delta + d) | hit_bits | h] = steps + s if paths else ()
            else:
                combine(index + 1, remaining - used, delta + d, hit_bits | h, steps + s if paths else ())

    combine(0, most, 0, 0, prefix)
    return found


def _enter_double(position: Position, die: int, opp: list[int]) -> tuple[list[int], tuple[Step, ...], int, int]:
    """Bar checkers enter first (M4), as many as the entry point and the four
    dice allow: (the mover's slots after, the entries, dice left, hit bits)."""
    me = list(position.me)
    entry = BAR - die
    prefix: list[Step] = []
    left = 4
    hits = 0
    while me[BAR] and left and opp[entry] < 2:
        me[BAR] -= 1
        me[entry] += 1
        hit = opp[entry] == 1 and not hits
        if hit:
            hits = 1 << (_HIT_SHIFT + entry)
        prefix.append((BAR, entry, hit, die))
        left -= 1
    return me, tuple(prefix), left, hits


def _count_double(position: Position, dice: Dice, rules: Rules) -> int | None:
    """How many outcomes :func:`_spread_double` would list, without listing
    them: each is one choice of crossings, so count the choices (chain by
    chain, by the steps they use). None where that function does not apply."""
    die = dice.first
    opp = _opposing(position, rules)
    me, _, left, _ = _enter_double(position, die, opp)
    if me[BAR] or not left:
        return 1
    if sum(me[7:25]) < left:
        return None
    total = [1] + [0] * left  # total[u]: choices on the chains so far using u steps
    for top in range(24, 24 - die, -1):
        ways = {(0, 0): 1}  # (checkers that arrived at this point, steps used): choices
        for point in range(top, 0, -die):
            below = point - die
            if below < 1 or opp[below] > 1:
                ways = _sum_by_used(ways)
                continue
            nxt: dict[tuple[int, int], int] = {}
            for (arrived, used), n in ways.items():
                for crossing in range(min(me[point] + arrived, left - used) + 1):
                    state = (crossing, used + crossing)
                    nxt[state] = nxt.get(state, 0) + n
            ways = nxt
        chain = [0] * (left + 1)
        for (_, used), n in ways.items():
            chain[used] += n
        total = [sum(total[a] * chain[u - a] for a in range(u + 1)) for u in range(left + 1)]
    most = max(u for u in range(left + 1) if total[u])
    return total[most]


def _sum_by_used(ways: dict[tuple[int, int], int]) -> dict[tuple[int, int], int]:
    """Nothing crosses the next link: who arrived stays; keep the counts by steps used."""
    merged: dict[tuple[int, int], int] = {}
    for (_, used), n in ways.items():
        merged[(0, used)] = merged.get((0, used), 0) + n
    return merged


def _crossings(
    me: list[int], opp: list[int], points: range, die: int, left: int, *, paths: bool
) -> list[tuple[int, int, int, tuple[Step, ...]]]:
    """Every way checkers may cross the links of one chain of points (highest
    first, ``die`` apart), using at most ``left`` steps: (steps, key change,
    hit bits, the steps), fewest steps first."""
    chain = list(points)
    options: list[tuple[int, int, int, tuple[Step, ...]]] = []

    end = len(chain)

    def walk(index: int, arrived: int, used: int, delta: int, hit_bits: int, steps: tuple[Step, ...]) -> None:
        # Skip the links nothing can cross: no checker there, no step left,
        # the board's end (no bear-off here) or a blocked point (M2, D3).
        while index < end:
            point = chain[index]
            below = point - die
            if me[point] + arrived and used < left and below >= 1 and opp[below] < 2:
                break
            index += 1
            arrived = 0
        else:
            options.append((used, delta, hit_bits, steps))
            return
        link = (1 << (4 * below)) - (1 << (4 * point))
        blot = opp[below] == 1
        for crossing in range(min(me[point] + arrived, left - used) + 1):
            hit = blot and crossing > 0
            moved = ((point, below, hit, die),) + ((point, below, False, die),) * (crossing - 1) if crossing else ()
            walk(
                index + 1,
                crossing,
                used + crossing,
                delta + crossing * link,
                hit_bits | (1 << (_HIT_SHIFT + below) if hit else 0),
                steps + moved if paths else (),
            )

    walk(0, 0, 0, 0, 0, ())
    options.sort(key=lambda option: option[0])
    return options


def _dfs(position: Position, dice: Dice, rules: Rules) -> dict[int, tuple[Step, ...]]:
    """The general search: one checker, one die at a time, every rule checked."""
    me = list(position.me)
    them = position.them
    opp = _opposing(position, rules)
    block = 2 if rules.hitting else 1
    track_run = rules.no_hit_and_run
    most_from_head = head_limit(position, dice, rules)
    record_all = rules.no_lone_prime
    double = dice.is_double
    # found[depth]: key -> (path, clean); clean is False when every path reaching it hit and ran (H1).
    found: list[dict[int, tuple[tuple[Step, ...], bool]]] = [{} for _ in range(5)]
    seen: set[tuple[int, int, int, int]] = set()
    path: list[Step] = []

    def record(depth: int, key: int, clean: bool) -> None:
        bucket = found[depth]
        old = bucket.get(key)
        if old is None or (clean and not old[1]):
            bucket[key] = (tuple(path), clean)

    def step(
        dice_left: tuple[int, ...], depth: int, key: int, outside: int, ran_mask: int, heads: int, clean: bool, top: int
    ) -> None:
        die = dice_left[0]
        rest = dice_left[1:]
        moved = False
        while not me[top]:
            top -= 1
        sources = (BAR,) if me[BAR] else range(min(top, 24), 0, -1)
        for start in sources:
            if not me[start]:
                continue
            if start == 24 and heads >= most_from_head and not me[BAR]:
                continue
            end = start - die
            hit = False
            if end > 0:
                there = opp[end]
                if there >= block:
                    continue  # M2 (D3 for each stop)
                hit = there == 1
            else:
                if outside:
                    continue  # E1
                if end < 0:
                    if any(me[start + 1 : 7]):
                        continue  # E2: a higher point is occupied
                    end = OFF
            moved = True
            me[start] -= 1
            me[end] += 1
            new_key = key - (1 << (4 * start)) + (1 << (4 * end))
            new_outside = outside - (start > 6) + (end > 6)
            new_clean = clean
            new_ran = ran_mask
            if track_run:
                if ran_mask >> start & 1:
                    new_clean = False  # H1: the hitter moves on from a home-board point
                if hit and (end <= 6 or end >= 19):
                    new_ran |= 1 << end
            if hit:
                opp[end] = 0
                new_key |= 1 << (_HIT_SHIFT + end)
            path.append((start, end, hit, die))
            if record_all:
                record(depth + 1, new_key, new_clean)
            if rest:
                state = (new_key, len(rest), new_ran if track_run else 0, int(new_clean) if track_run else heads)
                if not double or state not in seen:
                    if double:
                        seen.add(state)
                    step(rest, depth + 1, new_key, new_outside, new_ran, heads + (start == 24), new_clean, top)
            elif not record_all:
                record(depth + 1, new_key, new_clean)
            path.pop()
            if hit:
                opp[end] = 1
            me[end] -= 1
            me[start] += 1
        if not moved and not record_all:
            record(depth, key, clean)

    key0 = side_key(position.me)
    outside0 = sum(me[7:26])
    if double:
        step(dice.moves, 0, key0, outside0, 0, 0, True, BAR)
    else:
        step((dice.high, dice.low), 0, key0, outside0, 0, 0, True, BAR)
        step((dice.low, dice.high), 0, key0, outside0, 0, 0, True, BAR)
    if record_all:
        found[0][key0] = ((), True)
        if rules.no_lone_prime:
            for bucket in found:
                for key in [k for k in bucket if lone_prime(k, them, rules)]:
                    del bucket[key]
    depth = max(d for d in range(5) if found[d]) if any(found) else 0
    best = found[depth]
    if not best:
        return {key0: ()}
    if depth == 1 and not double and rules.larger_die:
        larger = {k: v for k, v in best.items() if v[0][0][3] == dice.high}
        if larger:
            best = larger
    if rules.least_waste and depth == len(dice.moves):
        best = _least_waste(best)
    if track_run and any(clean for _, clean in best.values()):
        best = {k: v for k, v in best.items() if v[1]}
    return {k: v[0] for k, v in best.items()}


def _least_waste(best: dict[int, tuple[tuple[Step, ...], bool]]) -> dict[int, tuple[tuple[Step, ...], bool]]:
    """E5: keep the plays that waste the fewest pips bearing off.

    With every die used, the pips moved are fixed by the result, so the waste
    is the dice total less the pips the mover's count went down by.
    """

    def waste(key: int) -> int:
        return sum(i * ((key >> (4 * i)) & _SLOT) for i in range(26))

    # A lower remaining pip count means fewer pips wasted.
    lowest = min(waste(k) for k in best)
    return {k: v for k, v in best.items() if waste(k) == lowest}


def head_limit(position: Position, dice: Dice, rules: Rules) -> int:
    """V3: how many checkers may leave the head (the 24 point) this turn: one,
    or two on a player's first turn with 6-6, 4-4 or 3-3."""
    if not rules.head_limit:
        return rules.checkers
    first_turn = position.me[24] == rules.checkers
    return 2 if first_turn and dice.is_double and dice.first in (3, 4, 6) else 1


def lone_prime(key: int, them: Side, rules: Rules) -> bool:
    """V3: the mover's side (an outcome key) holds six points in a row with no
    opposing checker ahead of them (borne-off checkers count as ahead)."""
    run = 0
    for point in range(1, 25):
        if (key >> (4 * point)) & _SLOT:
            run += 1
        else:
            run = 0
        if run >= 6:
            lowest_theirs = min(rules.opposite(p) for p in range(point - 5, point + 1))
            ahead = them[OFF] + sum(them[1:lowest_theirs])
            if not ahead:
                return True
    return False


def find_play(
    position: Position,
    dice: Dice,
    play: Play | str,
    rules: Rules = STANDARD,
    *,
    plays: tuple[LegalPlay, ...] | None = None,
) -> LegalPlay | None:
    """The legal outcome a written play describes, or None if it describes none.

    Accepts what people and programs write: one checker taking both dice
    (``22/13``), repeats (``13/7(2)``), hits marked or not (a checker that
    stops on a blot hits it: ``18/14 14/11``), ``25``/``0`` for the bar and
    off. Where an unwritten intermediate stop could have hit, the outcome with
    the hits that were marked is chosen. ``plays`` may pass the legal plays
    when the caller has them already.

    >>> from engine.dice import Dice
    >>> str(find_play(Position.start(), Dice(6, 5), "24/13").play)
    '24/13'
    >>> find_play(Position.start(), Dice(6, 5), "24/14") is None
    True
    """
    written = Play.parse(play) if isinstance(play, str) else play
    seen = literal_after(position, written, rules)
    if seen is None:
        return None
    options = legal_plays(position, dice, rules) if plays is None else plays
    candidates = [lp for lp in options if lp.after.me == seen.me]
    for lp in candidates:
        if lp.after == seen:
            return lp
    if not candidates:
        return None
    marked = {move.end for move in written.moves if move.hit}

    def hits(lp: LegalPlay) -> set[int]:
        return {m.end for m in lp.play.moves if m.hit}

    return min(candidates, key=lambda lp: (len(hits(lp) ^ marked), len(hits(lp))))


def literal_after(position: Position, play: Play, rules: Rules = STANDARD) -> Position | None:
    """``play`` applied checker by checker as written (hitting a lone opposing
    checker where one lands), legal or not; None if a move starts where the
    mover has no checker."""
    me = list(position.me)
    them = list(position.them)
    for move in play.moves:
        if not me[move.start]:
            return None
        me[move.start] -= 1
        me[move.end] += 1
        if move.end not in (OFF, BAR) and rules.hitting:
            theirs = rules.opposite(move.end)
            if them[theirs] == 1:
                them[theirs] = 0
                them[BAR] += 1
    return Position(tuple(me), tuple(them))

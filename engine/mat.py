"""Jellyfish ``.mat`` match records: read, replay through the referee, write.

The format GNU Backgammon, eXtreme Gammon and Backgammon Studio exchange::

    ; [Crawford "On"]

     5 point match

     Game 1
     gnubg : 0                      root : 0
      1)                             21: 13/11 24/23
      2) 52: 13/8 24/22               Doubles => 2
      3)  Drops                       Wins 1 point

Each numbered row holds up to two cells, player 0's (left) then player 1's
(right). A cell is a roll and its play (``52: 13/8 24/22``; an empty play or
``Cannot Move`` for a dance), ``Doubles => N``, ``Takes``, ``Drops``,
``Beavers => N``, ``Wins N point(s) [and the match]`` or ``Losses N point(s)``.
Cells are found by what they say, not by fixed columns, because real
exporters let a long play overflow into the other column; a row's first cell
belongs to player 1 only when it starts in the right-hand column (the column
of player 1's name in the game's score line).

Pure text in and out: :func:`parse` reads a string, :func:`format_record`
writes one, :func:`replay` runs a record through :mod:`engine.match` and
:func:`record_from_events` turns the events of a match back into a record.

>>> text = '''
...  1 point match
...
...  Game 1
...  a : 0                          b : 0
...   1) 31: 8/5 6/5                 Doubles => 2
...   2)  Drops                      Wins 1 point and the match
... '''
>>> record = parse(text)
>>> [a.kind for a in record.games[0].actions]
['roll', 'double', 'drop', 'win']
>>> replay(record).state.score
(0, 1)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from engine.dice import Dice
from engine.errors import NardrefError, NotationError
from engine.judge import nearest
from engine.legal import legal_plays, literal_after
from engine.match import (
    AcceptResign,
    Beaver,
    Double,
    Drop,
    Event,
    MatchError,
    MatchRules,
    MatchState,
    OpeningRoll,
    Pass,
    Phase,
    Played,
    Resign,
    Roll,
    Take,
    TimeOut,
    apply,
    new_match,
    resolve_play,
)
from engine.play import Play
from engine.position import Position
from engine.rules import STANDARD, Rules, find_variant
from engine.scoring import Ending, FlagOutcome

TIMED_OUT = "????"
"""What Backgammon Studio writes for the play of a player whose flag fell (T3)."""

ROLL, DOUBLE, TAKE, DROP, BEAVER, WIN, LOSS = "roll", "double", "take", "drop", "beaver", "win", "loss"

_CELL = re.compile(
    r"(?P<roll>\b[1-6][1-6]:)"
    r"|(?P<double>\bDoubles\s*=>\s*\d+)"
    r"|(?P<beaver>\bBeavers\s*=>\s*\d+)"
    r"|(?P<take>\b(?:Takes|Accepts)\b)"
    r"|(?P<drop>\b(?:Drops|Passes|Rejects|Refuses)\b)"
    r"|(?P<win>\bWins\s+\d+\s+points?(?:\s+and\s+the\s+match)?)"
    r"|(?P<loss>\bLosses\s+\d+\s+points?)",
    re.IGNORECASE,
)
_ROW = re.compile(r"^\s*(\d+)\)(.*)$")
_LENGTH = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE)
_SCORES = re.compile(r"^(\s*)(\S.*?)\s*:\s*(\d+)(\s+)(.*?)\s*:\s*(\d+)\s*$")
_TAG = re.compile(r'^\s*;\s*\[\s*([^"\]]+?)\s+"([^"]*)"\s*\]\s*$')
_NUMBER = re.compile(r"\d+")


class MatFormatError(NotationError):
    """A ``.mat`` text that cannot be read; ``line`` is the 1-based line number."""

    def __init__(self, message: str, *, line: int) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


class ReplayError(NardrefError, ValueError):
    """A record that is readable but inconsistent with the rules or with itself."""

    def __init__(self, message: str, *, game: int, move: int, rule: str, line: int) -> None:
        named = message if rule in message else f"{message} ({rule})"
        super().__init__(f"game {game}, move {move} (line {line}): {named}")
        self.game = game
        self.move = move
        self.rule = rule
        self.line = line


@dataclass(frozen=True, slots=True)
class MatAction:
    """One cell: ``player`` rolled and played, doubled, took, dropped, beavered or won.

    ``play`` is the play as written ("" for a dance); ``value`` is the cube
    offered (double, beaver) or the points (win, loss); ``number`` is the
    row's move number and ``line`` the 1-based line it was read from.
    """

    player: int
    kind: str
    dice: Dice | None = None
    play: str = ""
    value: int = 0
    match_won: bool = False
    number: int = 0
    line: int = 0


@dataclass(frozen=True, slots=True)
class MatGame:
    """One game: its number, the score at its start as written, its actions."""

    number: int
    score: tuple[int, int]
    actions: tuple[MatAction, ...]
    line: int = 0


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A whole record: length (0 = money play), player names, ``; [Tag "value"]`` pairs, games."""

    length: int
    players: tuple[str, str]
    tags: tuple[tuple[str, str], ...]
    games: tuple[MatGame, ...]
    comments: tuple[str, ...] = ()  #: free ``;`` lines that are not tags

    def tag(self, name: str) -> str | None:
        """The value of header tag ``name`` (case-insensitive), or None."""
        for key, value in self.tags:
            if key.lower() == name.lower():
                return value
        return None

    def settings(self) -> MatchRules:
        """The match rules the header gives: variant, Crawford, cube limit, Jacoby."""
        rules: Rules = STANDARD
        variation = self.tag("Variation")
        if variation and variation.strip().lower() != "backgammon":
            try:
                rules = find_variant(variation)
            except NotationError as exc:
                raise MatFormatError(f"header Variation {variation!r}: {exc}", line=1) from None
        crawford = (self.tag("Crawford") or "On").strip().lower() not in ("off", "false", "no")
        limit_text = self.tag("CubeLimit")
        max_cube = 1024
        if limit_text and limit_text.strip().isdigit() and int(limit_text) > 0:
            max_cube = 1 << (int(limit_text).bit_length() - 1)
        jacoby = bool(not self.length and (self.tag("Jacoby") or "").strip().lower() == "on")
        beavers = not self.length and any(a.kind == BEAVER for game in self.games for a in game.actions)
        flag = FlagOutcome.MATCH if self.tag("ClockType") else FlagOutcome.GAMMON
        return MatchRules(
            rules=rules,
            length=self.length,
            crawford=crawford,
            max_cube=max_cube,
            jacoby=jacoby,
            beavers=beavers,
            flag=flag,
        )


# ---- reading ------------------------------------------------------------------


def parse(text: str) -> MatchRecord:
    """Read a ``.mat`` record; :class:`MatFormatError` names the first unreadable line."""
    length = -1
    tags: list[tuple[str, str]] = []
    comments: list[str] = []
    players = ("", "")
    games: list[MatGame] = []
    current: dict[str, object] | None = None
    actions: list[MatAction] = []
    split = 0
    number = 0

    def close() -> None:
        if current is not None:
            score = current["score"]
            assert isinstance(score, tuple)
            games.append(MatGame(int(str(current["number"])), score, tuple(actions), int(str(current["line"]))))

    for index, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = raw.replace("\t", "    ").rstrip()
        if not line.strip():
            continue
        if line.lstrip().startswith(";"):
            tag = _TAG.match(line)
            if tag:
                tags.append((tag.group(1).strip(), tag.group(2)))
            else:
                comments.append(line.lstrip()[1:].strip())
            continue
        if current is None and length < 0:
            found = _LENGTH.match(line)
            if found:
                length = int(found.group(1))
                continue
        game = _GAME.match(line)
        if game:
            close()
            actions = []
            current = {"number": int(game.group(1)), "line": index, "score": None}
            continue
        if current is None:
            raise MatFormatError(f"{line.strip()!r}: expected '; comment', 'N point match' or 'Game N'", line=index)
        if current["score"] is None:
            scores = _SCORES.match(line)
            if not scores:
                raise MatFormatError(f"{line.strip()!r}: expected the score line 'name : 0   name : 0'", line=index)
            current["score"] = (int(scores.group(3)), int(scores.group(6)))
            players = (scores.group(2), scores.group(5))
            split = scores.start(5) if scores.group(5) else scores.start(5) - 1
            continue
        row = _ROW.match(line)
        if row:
            number = int(row.group(1))
            body_start = row.start(2)
        else:
            body_start = 0
        actions.extend(_cells(line, body_start, split, number, index))
    close()
    if length < 0:
        if not games:
            raise MatFormatError("no 'N point match' line and no game", line=1)
        length = 0
    if not games:
        raise MatFormatError("no 'Game N' in the record", line=1)
    return MatchRecord(length, players, tuple(tags), tuple(games), tuple(comments))


def _cells(line: str, body_start: int, split: int, number: int, index: int) -> Iterator[MatAction]:
    starts = list(_CELL.finditer(line, body_start))
    rest = line[body_start:].strip()
    if not starts:
        if rest:
            raise MatFormatError(
                f"{rest!r}: expected a roll 'NN: play', 'Doubles => N', 'Takes', 'Drops' or 'Wins N points'", line=index
            )
        return
    leading = line[body_start : starts[0].start()].strip()
    if leading:
        raise MatFormatError(f"{leading!r} before the first cell: expected a roll or a cube action", line=index)
    if len(starts) > 2:
        raise MatFormatError(f"{rest!r}: more than two cells on one row", line=index)
    threshold = (split + 6) // 2
    first_player = 1 if starts[0].start() >= threshold else 0
    if len(starts) == 2 and first_player == 1:
        raise MatFormatError(f"{rest!r}: two cells but the first starts in player 1's column", line=index)
    for position, found in enumerate(starts):
        end = starts[position + 1].start() if position + 1 < len(starts) else len(line)
        cell = line[found.start() : end].strip()
        yield _cell(cell, found.lastgroup or "", first_player + position, number, index)


def _cell(cell: str, kind: str, player: int, number: int, index: int) -> MatAction:
    if kind == "roll":
        dice = Dice(int(cell[0]), int(cell[1]))
        play = cell[3:].strip()
        if play.lower().replace(" ", "") in ("cannotmove", "nomove", "(nomove)"):
            play = ""
        if play.strip("?") == "" and play:
            play = TIMED_OUT
        elif play:
            try:
                Play.parse(play)
            except NotationError as exc:
                raise MatFormatError(f"{cell!r}: {exc}", line=index) from None
        return MatAction(player, ROLL, dice=dice, play=play, number=number, line=index)
    value = int(m.group()) if (m := _NUMBER.search(cell)) else 0
    if kind == "win":
        return MatAction(player, WIN, value=value, match_won="match" in cell.lower(), number=number, line=index)
    names = {"double": DOUBLE, "beaver": BEAVER, "take": TAKE, "drop": DROP, "loss": LOSS}
    return MatAction(player, names[kind], value=value, number=number, line=index)


# ---- replaying ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Replayed:
    """The end state of a replayed record and every event that led there, by game."""

    state: MatchState
    events: tuple[tuple[Event, ...], ...]


def replay(record: MatchRecord, settings: MatchRules | None = None) -> Replayed:
    """Run every game of ``record`` through the match state machine.

    Each play must be legal, each ``Wins`` line must give the points the
    referee computes, and each game's score line must match the running
    score; the first inconsistency raises :class:`ReplayError` with the game,
    the move number, what is wrong and the rule. A game that ends with
    checkers on the board is a resignation, accepted when the points are a
    single, gammon or backgammon times the cube (S3).
    """
    rules = settings or record.settings()
    state = new_match(rules)
    events: list[tuple[Event, ...]] = []
    for game in record.games:
        state, game_events = _replay_game(state, game)
        events.append(tuple(game_events))
    return Replayed(state, tuple(events))


def _fail(game: MatGame, message: str, rule: str, action: MatAction | None) -> ReplayError:
    move = action.number if action else 0
    line = action.line if action else game.line
    return ReplayError(message, game=game.number, move=move, rule=rule, line=line)


def _step(state: MatchState, event: Event, action: MatAction, game: MatGame, events: list[Event]) -> MatchState:
    try:
        new = apply(state, event)
    except MatchError as exc:
        raise _fail(game, str(exc), exc.rule, action) from None
    events.append(event)
    return new


def _replay_game(state: MatchState, game: MatGame) -> tuple[MatchState, list[Event]]:
    events: list[Event] = []
    if state.phase == Phase.MATCH_OVER:
        raise _fail(game, "a game after the end of the match", "C5", None)
    if game.score != state.score:
        raise _fail(
            game,
            f"the score line says {game.score[0]}-{game.score[1]}, "
            f"the games before give {state.score[0]}-{state.score[1]}",
            "C5",
            None,
        )
    game_number = state.game
    for action in game.actions:
        if state.game != game_number or state.winner is not None:
            if action.kind in (WIN, LOSS):
                _check_points(state, action, game)
                continue
            raise _fail(game, f"{action.kind} by player {action.player} after the game ended", "S1", action)
        if state.phase == Phase.BEAVERED and action.kind == ROLL and action.player == state.turn:
            state = _step(state, Take(action.player), action, game, events)  # rolling accepts the beaver
        if action.kind == ROLL:
            assert action.dice is not None
            if state.phase == Phase.OPENING:
                if action.dice.is_double:
                    raise _fail(
                        game,
                        f"opening roll {action.dice} is a double: equal opening dice are rolled again",
                        "O2",
                        action,
                    )
                high, low = action.dice.high, action.dice.low
                opening = OpeningRoll(Dice(high, low) if action.player == 0 else Dice(low, high))
                state = _step(state, opening, action, game, events)
            else:
                state = _step(state, Roll(action.player, action.dice), action, game, events)
            if action.play == TIMED_OUT:
                state = _step(state, TimeOut(action.player), action, game, events)
                continue
            move: Event = Pass(action.player)
            if action.play:
                written = Play.parse(action.play)
                assert state.dice is not None
                legal = resolve_play(state.position, state.dice, written, state.settings.rules)
                move = Played(action.player, legal.play if legal is not None else written)
            state = _step(state, move, action, game, events)
        elif action.kind == DOUBLE:
            state = _step(state, Double(action.player), action, game, events)
            if action.value and action.value != state.offered_cube:
                raise _fail(
                    game, f"'Doubles => {action.value}' but the cube offered is {state.offered_cube}", "C1", action
                )
        elif action.kind == TAKE:
            state = _step(state, Take(action.player), action, game, events)
        elif action.kind == DROP:
            state = _step(state, Drop(action.player), action, game, events)
        elif action.kind == BEAVER:
            state = _step(state, Beaver(action.player), action, game, events)
        elif action.kind == WIN:
            state = _resign_for(state, action, game, events)
            _check_points(state, action, game)
    return state, events


def _resign_for(state: MatchState, action: MatAction, game: MatGame, events: list[Event]) -> MatchState:
    """A ``Wins`` line while the game is still on: a drop without its row, or a resignation (S3)."""
    winner, loser = action.player, 1 - action.player
    if state.phase == Phase.DOUBLED and winner == state.turn and action.value == state.cube:
        return _step(state, Drop(loser), action, game, events)
    if state.phase in (Phase.DOUBLED, Phase.BEAVERED, Phase.RESIGNING):
        raise _fail(game, f"player {winner} wins {action.value} while a cube decision is pending", "C2", action)
    level, remainder = divmod(action.value, state.cube)
    needed = state.settings.length - state.score[winner]
    if state.settings.length and action.value == needed and (remainder or level not in (1, 2, 3)):
        level, remainder = -(-needed // state.cube), 0  # the smallest resignation that wins the match
    if remainder or level not in (1, 2, 3):
        raise _fail(
            game,
            f"player {winner} wins {action.value} with checkers on the board: a resignation counts "
            f"1, 2 or 3 times the cube {state.cube}",
            "S3",
            action,
        )
    state = _step(state, Resign(loser, level), action, game, events)
    return _step(state, AcceptResign(winner), action, game, events)


def _check_points(state: MatchState, action: MatAction, game: MatGame) -> None:
    if not state.results:
        raise _fail(game, f"'Wins {action.value}' but no game has ended", "S1", action)
    result = state.results[-1]
    if action.kind == LOSS:
        if action.player == result.winner or action.value != result.points:
            raise _fail(
                game,
                f"'Losses {action.value}' by player {action.player}, but player {result.winner} won {result.points}",
                "S2",
                action,
            )
        return
    if action.player != result.winner:
        raise _fail(game, f"'Wins' for player {action.player}, but player {result.winner} won the game", "S1", action)
    needed = state.settings.length - (state.score[result.winner] - result.points)
    forfeit = result.ending == Ending.TIMEOUT and result.match_over
    capped = result.match_over and action.value == needed  # exporters write what the match needed
    if action.value != result.points and not capped and not forfeit:
        raise _fail(
            game,
            f"'Wins {action.value} point(s)' but the game is worth {result.points} "
            f"({result.multiplier} x cube {result.cube}, {result.ending.value})",
            "S2",
            action,
        )
    if action.match_won and not result.match_over:
        raise _fail(game, f"'and the match' but the score is {state.score[0]}-{state.score[1]}", "C5", action)


# ---- writing ------------------------------------------------------------------

COLUMN = 33
"""Where player 1's column starts in what we write (as GNU Backgammon does)."""


def format_record(record: MatchRecord) -> str:
    """The record as ``.mat`` text that GNU Backgammon imports."""
    out: list[str] = []
    for key, value in record.tags:
        out.append(f'; [{key} "{value}"]')
    for comment in record.comments:
        out.append(f"; {comment}")
    if out:
        out.append("")
    out += [f" {record.length} point match", ""]
    for game in record.games:
        out.append(f" Game {game.number}")
        left = f" {record.players[0]} : {game.score[0]}"
        out.append(f"{left:<{COLUMN - 2}} {record.players[1]} : {game.score[1]}".rstrip())
        rows: list[list[str]] = []
        for action in game.actions:
            text = _format_cell(action)
            if action.kind == WIN:
                last = rows[-1] if rows else None
                if (
                    last is not None
                    and len(last) == 2
                    and not last[action.player]
                    and (action.player == 1 or not last[1])
                ):
                    last[action.player] = text  # on the row of the drop, as GNU Backgammon writes it
                else:
                    rows.append(["", "", "win"])
                    rows[-1][action.player] = text
                continue
            if not rows or rows[-1][action.player] or len(rows[-1]) > 2 or (action.player == 0 and rows[-1][1]):
                rows.append(["", ""])
            rows[-1][action.player] = text
        number = 0
        for row in rows:
            if len(row) > 2:
                body = f"{row[0]:<{COLUMN - 6}}" + (f" {row[1]}" if row[1] else "")
                out.append(f"      {body}".rstrip() if row[0] else f"{'':<{COLUMN}}{row[1]}".rstrip())
                continue
            number += 1
            left = f"{number:3d}) {row[0]}"
            out.append(f"{left:<{COLUMN - 1}} {row[1]}".rstrip() if row[1] else left.rstrip())
        out.append("")
    return "\n".join(out) + "\n"


def _format_cell(action: MatAction) -> str:
    if action.kind == ROLL:
        assert action.dice is not None
        return f"{action.dice.first}{action.dice.second}: {action.play}".rstrip()
    if action.kind == DOUBLE:
        return f" Doubles => {action.value}"
    if action.kind == BEAVER:
        return f" Beavers => {action.value}"
    if action.kind == TAKE:
        return " Takes"
    if action.kind == DROP:
        return " Drops"
    plural = "point" if action.value == 1 else "points"
    return f"Wins {action.value} {plural}" + (" and the match" if action.match_won else "")


@dataclass(frozen=True, slots=True)
class Substitution:
    """A play written differently from what stood on the board (an accepted illegal play, X1)."""

    game: int
    player: int
    dice: Dice
    board: str  #: what stood on the board, as a Position ID after the play
    written: str  #: the legal play written in its place


def record_from_events(
    settings: MatchRules,
    games: Iterable[Iterable[Event]],
    *,
    players: tuple[str, str] = ("Player 0", "Player 1"),
    tags: tuple[tuple[str, str], ...] = (),
) -> tuple[MatchRecord, tuple[Substitution, ...]]:
    """A ``.mat`` record of a match's events, grouped by game.

    ``.mat`` holds only plays that are legal on the board it replays, so an
    illegal play the opponent accepted (X1) is written as the legal play
    whose result is nearest to what stood on the board, and each later play
    of that game as the legal play nearest to what was played; every such
    substitution is returned, and listed as a ``;`` comment in the record.
    """
    state = new_match(settings)
    written_state = state
    out_games: list[MatGame] = []
    substitutions: list[Substitution] = []
    for events in games:
        actions: list[MatAction] = []
        score = state.score
        number = state.game
        pending_opening: Dice | None = None
        for event in events:
            before = state
            state = apply(state, event)
            if isinstance(event, OpeningRoll):
                written_state = apply(written_state, event)
                if state.phase == Phase.MOVE:
                    pending_opening = event.dice
                continue
            if isinstance(event, Roll):
                written_state = apply(written_state, event)
                continue
            if isinstance(event, (Played, Pass)):
                assert before.dice is not None and before.turn is not None
                dice = before.dice
                if pending_opening is not None:
                    dice = Dice(dice.high, dice.low)
                    pending_opening = None
                seen = before.position_of(before.turn)
                after_seen = state.position_of(before.turn) if state.game == before.game else None
                play, substituted = _written_play(written_state, event, seen, after_seen)
                if substituted:
                    substitutions.append(
                        Substitution(number, event.player, dice, _board_id(event, seen, settings.rules), str(play))
                    )
                written_state = apply(written_state, Played(event.player, play))
                actions.append(MatAction(event.player, ROLL, dice=dice, play=str(play)))
            elif isinstance(event, Double):
                written_state = apply(written_state, event)
                actions.append(MatAction(event.player, DOUBLE, value=state.offered_cube))
            elif isinstance(event, Take):
                written_state = apply(written_state, event)
                if before.phase == Phase.BEAVERED:
                    continue
                actions.append(MatAction(event.player, TAKE))
            elif isinstance(event, Drop):
                written_state = apply(written_state, event)
                actions.append(MatAction(event.player, DROP))
            elif isinstance(event, Beaver):
                written_state = apply(written_state, event)
                actions.append(MatAction(event.player, BEAVER, value=before.offered_cube * 2))
            if state.game != before.game or state.phase == Phase.MATCH_OVER:
                result = state.results[-1]
                actions.append(MatAction(result.winner, WIN, value=result.points, match_won=result.match_over))
                written_state = state
        out_games.append(MatGame(number, score, tuple(actions)))
    comments = tuple(
        f"X1 game {s.game}: player {s.player} rolled {s.dice} and left {s.board} on the board (an accepted "
        f"illegal play); written as {s.written or 'no move'}"
        for s in substitutions
    )
    record = MatchRecord(settings.length, players, tags or settings_tags(settings), tuple(out_games), comments)
    return record, tuple(substitutions)


def settings_tags(settings: MatchRules) -> tuple[tuple[str, str], ...]:
    """Header tags that let a reader (and :meth:`MatchRecord.settings`) rebuild the rules."""
    name = settings.rules.name
    variation = "Backgammon" if name in ("standard", "app") else name.capitalize()
    tags = [("Variation", variation), ("CubeLimit", str(settings.max_cube))]
    if settings.length:
        tags.append(("Crawford", "On" if settings.crawford else "Off"))
    else:
        tags.append(("Jacoby", "On" if settings.jacoby else "Off"))
    return tuple(tags)


def _board_id(event: Played | Pass, seen: Position, rules: Rules) -> str:
    if isinstance(event, Played) and event.after is not None:
        return event.after.position_id()
    after = literal_after(seen, event.play if isinstance(event, Played) else Play(), rules)
    return after.position_id() if after is not None else seen.position_id()


def _written_play(
    written: MatchState, event: Played | Pass, seen: Position, after_seen: Position | None
) -> tuple[Play, bool]:
    """The play to write on the written board, and whether it differs from what was played.

    ``seen`` is the real board before the play, ``after_seen`` the real board
    after it (None when the play ended the game), both from the mover.
    """
    assert written.dice is not None
    rules = written.settings.rules
    play = event.play if isinstance(event, Played) else Play()
    board = written.position
    accepted = isinstance(event, Played) and event.accepted_illegal
    if board == seen and not accepted:
        found = resolve_play(board, written.dice, play, rules)
        assert found is not None, "the match accepted this play"
        return found.play, False
    target = event.after if isinstance(event, Played) and event.after is not None else after_seen
    if target is None:
        target = literal_after(seen, play, rules) or seen
    plays = legal_plays(board, written.dice, rules)
    best = nearest(plays, target, rules)
    return (best[0] if best else plays[0]).play, True

"""The referee's journal: every match event, with the time, one JSON line each.

The format (version 1) is documented in ``docs/journal.md``. The first line
is a header (match rules, clock settings, player names); every later line is
one record: a match event or a clock pause/resume, with its sequence number,
the time ``t_ns`` it happened (the referee's monotonic clock, integer
nanoseconds) and the clock figures after it.

:class:`JournalWriter` appends records from a background thread: the caller
only puts the record on a queue (never waiting for the disk), and the thread
writes the line, flushes and ``fsync``\\ s it; the :class:`~concurrent.futures.Future`
returned by :meth:`JournalWriter.append` resolves once the record is on disk,
which is when it counts.

:func:`load` reads a journal cut at any byte (a power cut): it keeps every
whole line and says what it dropped. :func:`rebuild` replays the records into
the exact :class:`~engine.match.TimedMatch`, clock included.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import json
import logging
import os
import queue
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.clock import Clock, ClockSettings, ReserveScope
from engine.dice import Dice
from engine.errors import NardrefError
from engine.match import (
    AcceptResign,
    Beaver,
    Double,
    Drop,
    Event,
    MatchRules,
    OpeningRoll,
    Pass,
    Played,
    RefuseResign,
    Resign,
    Roll,
    Take,
    TimedMatch,
    TimeOut,
)
from engine.play import Play
from engine.position import Position
from engine.rules import Rules
from engine.scoring import FlagOutcome

log = logging.getLogger(__name__)

FORMAT = "nardref-journal"
VERSION = 1
PAUSE, RESUME = "pause", "resume"


class JournalError(NardrefError, ValueError):
    """A journal that cannot be read or replayed; the message names the line."""


# ---- encoding -----------------------------------------------------------------

_NAMES: dict[type, str] = {
    OpeningRoll: "opening-roll",
    Roll: "roll",
    Played: "play",
    Pass: "pass",
    Double: "double",
    Take: "take",
    Drop: "drop",
    Beaver: "beaver",
    Resign: "resign",
    AcceptResign: "accept-resign",
    RefuseResign: "refuse-resign",
    TimeOut: "timeout",
}
_TYPES = {name: cls for cls, name in _NAMES.items()}


def encode_event(event: Event, rules: Rules) -> dict[str, Any]:
    """One match event as a JSON object (see docs/journal.md)."""
    out: dict[str, Any] = {"type": _NAMES[type(event)]}
    if isinstance(event, OpeningRoll):
        out["dice"] = str(event.dice)
        return out
    out["player"] = event.player
    if isinstance(event, Roll):
        out["dice"] = str(event.dice)
    elif isinstance(event, Played):
        out["play"] = str(event.play)
        if event.after is not None:
            out["after"] = event.after.position_id()
        if event.accepted_illegal:
            out["accepted_illegal"] = True
    elif isinstance(event, Resign):
        out["level"] = event.level
    return out


def decode_event(data: dict[str, Any], rules: Rules) -> Event:
    """The match event a JSON object names; :class:`JournalError` if it names none."""
    kind = data.get("type")
    cls = _TYPES.get(str(kind))
    if cls is None:
        raise JournalError(f"event type {kind!r}: expected one of {', '.join(_TYPES)}")
    try:
        if cls is OpeningRoll:
            return OpeningRoll(Dice.parse(data["dice"]))
        player = int(data["player"])
        if cls is Roll:
            return Roll(player, Dice.parse(data["dice"]))
        if cls is Played:
            after = data.get("after")
            return Played(
                player,
                Play.parse(data["play"]),
                after=Position.from_id(after, checkers=rules.checkers) if after else None,
                accepted_illegal=bool(data.get("accepted_illegal", False)),
            )
        if cls is Resign:
            return Resign(player, int(data.get("level", 1)))
        event: Event = cls(player)
        return event
    except (KeyError, TypeError, ValueError) as exc:
        raise JournalError(f"event {data!r}: {exc}") from None


def encode_settings(settings: MatchRules, clock: ClockSettings) -> dict[str, Any]:
    """The header's ``match`` and ``clock`` objects."""
    rules = {f.name: getattr(settings.rules, f.name) for f in dataclasses.fields(settings.rules) if f.init}
    rules["start"] = [list(pair) for pair in settings.rules.start]
    match = {
        "rules": rules,
        "length": settings.length,
        "crawford": settings.crawford,
        "jacoby": settings.jacoby,
        "beavers": settings.beavers,
        "automatic_doubles": settings.automatic_doubles,
        "max_cube": settings.max_cube,
        "app_resign": settings.app_resign,
        "flag": settings.flag.value,
    }
    clock_data = {
        "delay_ns": clock.delay_ns,
        "reserve_ns": list(clock.reserve_ns),
        "scope": clock.scope.value,
        "flag": clock.flag.value,
        "enabled": clock.enabled,
    }
    return {"match": match, "clock": clock_data}


def decode_settings(header: dict[str, Any]) -> tuple[MatchRules, ClockSettings]:
    """The match rules and clock settings of a header."""
    try:
        match = _known(MatchRules, header["match"])
        rules_data = _known(Rules, header["match"]["rules"])
        rules_data["start"] = tuple((int(p), int(n)) for p, n in rules_data["start"])
        match["rules"] = Rules(**rules_data)
        match["flag"] = FlagOutcome(match["flag"])
        settings = MatchRules(**match)
        clock_data = dict(header["clock"])
        clock = ClockSettings(
            delay_ns=int(clock_data["delay_ns"]),
            reserve_ns=(int(clock_data["reserve_ns"][0]), int(clock_data["reserve_ns"][1])),
            scope=ReserveScope(clock_data["scope"]),
            flag=FlagOutcome(clock_data["flag"]),
            enabled=bool(clock_data["enabled"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise JournalError(f"journal header: {exc!r}") from None
    return settings, clock


def _known(cls: type, data: dict[str, Any]) -> dict[str, Any]:
    """The fields of ``data`` that ``cls`` takes (readers ignore fields they do not know)."""
    names = {f.name for f in dataclasses.fields(cls) if f.init}
    return {k: v for k, v in data.items() if k in names}


def make_header(
    settings: MatchRules, clock: ClockSettings, *, players: tuple[str, str] = ("Player 0", "Player 1")
) -> dict[str, Any]:
    """The first line of a journal."""
    return {"format": FORMAT, "version": VERSION, "players": list(players), **encode_settings(settings, clock)}


def clock_figures(clock: Clock) -> dict[str, Any]:
    """The clock after a record, as stored with it (exact integers)."""
    return {
        "reserve_ns": list(clock.reserve_ns),
        "delay_ns": list(clock.delay_ns),
        "runner": clock.runner,
        "paused": clock.paused,
    }


# ---- writing ------------------------------------------------------------------

_STOP = object()


class JournalWriter:
    """Appends records to a journal file from a background thread, each fsync'd.

    Opening an existing journal keeps its whole lines, cuts a partial last
    line (left by a power cut) and continues the sequence numbers.
    """

    def __init__(self, path: str | Path, header: dict[str, Any], *, sync: bool = True) -> None:
        self.path = Path(path)
        self._sync = sync
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._closed = False
        self._lock = threading.Lock()
        self.seq = 0
        existing = load(self.path) if self.path.exists() else None
        self._file = open(self.path, "ab")  # noqa: SIM115 - closed in close()
        if existing is not None and existing.header is not None:
            self._file.truncate(existing.whole_bytes)
            self.header = existing.header
            self.seq = existing.records[-1]["seq"] if existing.records else 0
            if existing.note:
                log.warning("journal %s: %s; continuing after it", self.path, existing.note)
        else:
            self._file.truncate(0)
            self.header = header
            self._write_line(header)
        self._thread = threading.Thread(target=self._run, name="journal-writer", daemon=True)
        self._thread.start()

    def append(self, record: dict[str, Any]) -> concurrent.futures.Future[int]:
        """Queue ``record`` (a ``seq`` is added) and return at once; the future
        gives the ``seq`` once the line is on disk."""
        if self._closed:
            raise JournalError(f"journal {str(self.path)!r} is closed")
        future: concurrent.futures.Future[int] = concurrent.futures.Future()
        with self._lock:  # sequence numbers and queue order agree across threads
            self.seq += 1
            self._queue.put(({"seq": self.seq, **record}, future))
        return future

    def event(self, event: Event, now_ns: int, timed: TimedMatch) -> concurrent.futures.Future[int]:
        """Record a match event applied at ``now_ns``, with the clock after it."""
        rules = timed.state.settings.rules
        return self.append({"t_ns": now_ns, "event": encode_event(event, rules), "clock": clock_figures(timed.clock)})

    def clock(self, what: str, now_ns: int, timed: TimedMatch, *, reason: str = "") -> concurrent.futures.Future[int]:
        """Record a clock ``pause`` or ``resume`` at ``now_ns`` (``reason``: dispute, camera, check, ...)."""
        if what not in (PAUSE, RESUME):
            raise JournalError(f"clock record {what!r}: expected 'pause' or 'resume'")
        record: dict[str, Any] = {"t_ns": now_ns, "clock_op": what, "clock": clock_figures(timed.clock)}
        if reason:
            record["reason"] = reason
        return self.append(record)

    def flush(self, timeout_s: float | None = None) -> None:
        """Wait until everything appended so far is on disk."""
        marker: concurrent.futures.Future[int] = concurrent.futures.Future()
        self._queue.put((None, marker))
        marker.result(timeout=timeout_s)

    def close(self) -> None:
        """Write what is queued, then stop the thread and close the file; idempotent."""
        if self._closed:
            return
        self._closed = True
        self._queue.put((_STOP, None))
        self._thread.join()
        self._file.close()

    def __enter__(self) -> JournalWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write_line(self, data: dict[str, Any]) -> None:
        self._file.write(json.dumps(data, separators=(",", ":")).encode("utf-8") + b"\n")
        self._file.flush()
        if self._sync:
            os.fsync(self._file.fileno())

    def _run(self) -> None:
        while True:
            line, future = self._queue.get()
            if line is _STOP:
                return
            if line is None:
                future.set_result(0)
                continue
            try:
                self._write_line(line)
            except OSError as exc:
                log.error("journal %s: cannot write record %d: %s", self.path, line["seq"], exc)
                future.set_exception(exc)
                continue
            future.set_result(line["seq"])


# ---- reading ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Loaded:
    """A journal as read: its header (None if even that was cut), its whole records,
    how many bytes they take, and a note when a cut tail was dropped."""

    header: dict[str, Any] | None
    records: tuple[dict[str, Any], ...]
    whole_bytes: int
    note: str = ""


def load(path: str | Path) -> Loaded:
    """Read the journal at ``path`` (see :func:`load_bytes`)."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise JournalError(f"journal {str(path)!r}: {exc.strerror or exc}") from None
    return load_bytes(data, name=str(path))


def load_bytes(data: bytes, *, name: str = "journal") -> Loaded:
    """Parse journal bytes; a last line without its newline is a cut and is dropped, with a note."""
    lines = data.split(b"\n")
    tail = lines.pop()  # after the last newline: empty unless the file was cut
    whole = len(data) - len(tail)
    header: dict[str, Any] | None = None
    records: list[dict[str, Any]] = []
    for number, raw in enumerate(lines, start=1):
        try:
            item = json.loads(raw)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise JournalError(f"{name} line {number}: not a JSON record ({exc})") from None
        if not isinstance(item, dict):
            raise JournalError(f"{name} line {number}: expected a JSON object, got {raw[:40]!r}")
        if number == 1:
            if item.get("format") != FORMAT:
                raise JournalError(f"{name} line 1: not a nardref journal (format {item.get('format')!r})")
            if item.get("version") != VERSION:
                raise JournalError(
                    f"{name} line 1: journal version {item.get('version')!r}; this program reads {VERSION}"
                )
            header = item
        else:
            records.append(item)
    note = ""
    if tail:
        last = f"event {records[-1]['seq']}" if records else ("the header" if header else "nothing")
        note = f"{name} was cut inside line {len(lines) + 1} ({len(tail)} bytes dropped); loaded up to {last}"
    return Loaded(header, tuple(records), whole, note)


def rebuild(loaded: Loaded) -> TimedMatch:
    """The match and clock after every record, checking each stored clock figure."""
    if loaded.header is None:
        raise JournalError("journal has no whole header line: nothing to rebuild")
    settings, clock_settings = decode_settings(loaded.header)
    timed = TimedMatch.start(settings, clock_settings)
    for record in loaded.records:
        seq = record.get("seq")
        try:
            now = int(record["t_ns"])
            if "clock_op" in record:
                op = record["clock_op"]
                if op == PAUSE:
                    timed = timed.pause(now)
                elif op == RESUME:
                    timed = timed.resume(now)
                else:
                    raise JournalError(f"clock_op {op!r}: expected 'pause' or 'resume'")
            else:
                timed = timed.apply(decode_event(record["event"], settings.rules), now)
        except (KeyError, TypeError, ValueError) as exc:
            raise JournalError(f"journal record {seq}: {exc}") from None
        stored = record.get("clock")
        if stored is not None and stored != clock_figures(timed.clock):
            raise JournalError(
                f"journal record {seq}: clock {stored!r} but the replay gives {clock_figures(timed.clock)!r}"
            )
    return timed


def events_by_game(loaded: Loaded) -> tuple[tuple[Event, ...], ...]:
    """The match events of a journal, grouped by game (for export)."""
    if loaded.header is None:
        raise JournalError("journal has no whole header line")
    settings, clock_settings = decode_settings(loaded.header)
    timed = TimedMatch.start(settings, clock_settings)
    games: list[list[Event]] = [[]]
    for record in loaded.records:
        if "event" not in record:
            continue
        event = decode_event(record["event"], settings.rules)
        game = timed.state.game
        timed = timed.apply(event, int(record["t_ns"]))
        games[-1].append(event)
        if timed.state.game != game:
            games.append([])
    return tuple(tuple(g) for g in games if g)

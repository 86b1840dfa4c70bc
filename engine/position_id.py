"""GNU Backgammon Position ID: ten bytes of checker runs in base64.

The key lists, for the player *not* on roll and then the player on roll, the
checkers on each of their points 1..24 and the bar as that many 1-bits and a
0-bit; bits fill each byte from the lowest. The ID is the key in base64
without padding (14 characters). This is gnubg's own convention: the ID of a
position as gnubg shows it with the player to move on roll.

>>> decode("4HPwATDgc/ABMA")[1][5], decode("4HPwATDgc/ABMA")[1][23]
(5, 2)
"""

from __future__ import annotations

import base64
import binascii

from engine.errors import NotationError

Board25 = tuple[int, ...]
"""A player's 25 slots: index 0..23 for their points 1..24, 24 for the bar."""


def encode(not_on_roll: Board25, on_roll: Board25) -> str:
    """The Position ID of two 25-slot boards."""
    key = 0
    bit = 0
    for board in (not_on_roll, on_roll):
        for count in board:
            key |= ((1 << count) - 1) << bit
            bit += count + 1
    return base64.b64encode(key.to_bytes(10, "little")).decode("ascii")[:14]


def decode(position_id: str) -> tuple[Board25, Board25]:
    """The two 25-slot boards ``(not_on_roll, on_roll)`` of a Position ID."""
    text = position_id.strip()
    if len(text) != 14:
        raise NotationError(f"Position ID {position_id!r}: expected 14 base64 characters, got {len(text)}")
    try:
        raw = base64.b64decode(text + "==", validate=True)
    except (binascii.Error, ValueError):
        raise NotationError(f"Position ID {position_id!r}: not base64") from None
    key = int.from_bytes(raw, "little")
    # Runs of 1-bits between 0-bits, lowest bit first.
    runs = list(map(len, bin(key)[2:].zfill(80)[::-1].split("0")))
    if len(runs) < 51:
        raise NotationError(f"Position ID {position_id!r}: the key does not hold two boards")
    boards = (runs[:25], runs[25:50])
    if any(sum(b) > 15 for b in boards):
        raise NotationError(f"Position ID {position_id!r}: more than 15 checkers for one player")
    return tuple(boards[0]), tuple(boards[1])

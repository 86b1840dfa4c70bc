"""GNU Backgammon Match ID: the match state in twelve base64 characters.

The match key is a bit string, filled from the lowest bit of the first byte
(as the Position ID): cube (4 bits, log2 of the value), cube owner (2 bits:
0, 1, or 3 for centred), the player on roll or who rolled (1), the Crawford
game (1), the game state (3: none, playing, over, resigned, dropped), whose
turn it is to decide (1), a double offered (1), a resignation offered (2:
none, single, gammon, backgammon), the two dice (3 each, 0 before the roll),
the match length (15, 0 for money play) and the two scores (15 each). Bit 67
(index 66), gnubg's later extension, is set when the Jacoby rule is *off*:
in money play it says whether Jacoby is on; in match play gnubg 1.07 sets it
and IDs written before the extension (such as the manual's example) leave it
0, which ``extension_bit`` keeps. Nine bytes in base64 give the twelve
characters.

The example from the gnubg manual: the score is 2-4 in a 9-point match,
player 0 owns a 2-cube, player 1 has rolled 52:

>>> key = MatchKey(cube=2, cube_owner=0, dice_owner=1, turn=1, state=GameState.PLAYING,
...                dice=(5, 2), length=9, score=(2, 4), extension_bit=False)
>>> key.encode()
'QYkqASAAIAAA'
>>> MatchKey.decode('QYkqASAAIAAA') == key
True
"""

from __future__ import annotations

import base64
import binascii
import enum
from dataclasses import dataclass

from engine.errors import NotationError
from engine.match import MatchState, Phase

_FIELDS = (
    ("cube_log", 4),
    ("owner", 2),
    ("dice_owner", 1),
    ("crawford", 1),
    ("state", 3),
    ("turn", 1),
    ("doubled", 1),
    ("resigned", 2),
    ("die1", 3),
    ("die2", 3),
    ("length", 15),
    ("score0", 15),
    ("score1", 15),
    ("no_jacoby", 1),
)
CENTRED = 3


class GameState(enum.IntEnum):
    """Bits 9-11 of the match key."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchKey:
    """Every field of a Match ID; ``cube_owner`` None is centred, ``dice`` (0, 0) before the roll."""

    cube: int = 1
    cube_owner: int | None = None
    dice_owner: int = 0
    crawford: bool = False
    state: GameState = GameState.NONE
    turn: int = 0
    doubled: bool = False
    resigned: int = 0
    dice: tuple[int, int] = (0, 0)
    length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False
    extension_bit: bool = True  #: bit 67 in match play (see the module notes)

    def encode(self) -> str:
        """The twelve-character Match ID."""
        if self.cube < 1 or self.cube & (self.cube - 1) or self.cube > 1 << 15:
            raise NotationError(f"cube {self.cube!r}: expected a power of two up to 32768")
        values = {
            "cube_log": self.cube.bit_length() - 1,
            "owner": CENTRED if self.cube_owner is None else self.cube_owner,
            "dice_owner": self.dice_owner,
            "crawford": int(self.crawford),
            "state": int(self.state),
            "turn": self.turn,
            "doubled": int(self.doubled),
            "resigned": self.resigned,
            "die1": self.dice[0],
            "die2": self.dice[1],
            "length": self.length,
            "score0": self.score[0],
            "score1": self.score[1],
            "no_jacoby": int(self.extension_bit) if self.length else int(not self.jacoby),
        }
        key = 0
        bit = 0
        for name, width in _FIELDS:
            value = values[name]
            if not 0 <= value < 1 << width:
                raise NotationError(f"match ID field {name} = {value!r} does not fit in {width} bits")
            key |= value << bit
            bit += width
        return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")

    @classmethod
    def decode(cls, text: str) -> MatchKey:
        """Read a Match ID; :class:`NotationError` if it is not one."""
        raw_text = text.strip()
        if len(raw_text) != 12:
            raise NotationError(f"Match ID {text!r}: expected 12 base64 characters, got {len(raw_text)}")
        try:
            raw = base64.b64decode(raw_text, validate=True)
        except (binascii.Error, ValueError):
            raise NotationError(f"Match ID {text!r}: not base64") from None
        key = int.from_bytes(raw, "little")
        values: dict[str, int] = {}
        bit = 0
        for name, width in _FIELDS:
            values[name] = (key >> bit) & ((1 << width) - 1)
            bit += width
        if values["owner"] == 2 or values["state"] > 4 or values["die1"] > 6 or values["die2"] > 6:
            raise NotationError(f"Match ID {text!r}: cube owner, game state or dice out of range")
        length = values["length"]
        return cls(
            cube=1 << values["cube_log"],
            cube_owner=None if values["owner"] == CENTRED else values["owner"],
            dice_owner=values["dice_owner"],
            crawford=bool(values["crawford"]),
            state=GameState(values["state"]),
            turn=values["turn"],
            doubled=bool(values["doubled"]),
            resigned=values["resigned"],
            dice=(values["die1"], values["die2"]),
            length=length,
            score=(values["score0"], values["score1"]),
            jacoby=not length and not values["no_jacoby"],
            extension_bit=bool(values["no_jacoby"]) if length else True,
        )


def match_key(state: MatchState) -> MatchKey:
    """The Match ID fields of a referee match state."""
    phase = state.phase
    if phase == Phase.MATCH_OVER:
        game_state = GameState.OVER
    elif phase == Phase.OPENING:
        game_state = GameState.NONE if not state.results else GameState.OVER
    else:
        game_state = GameState.PLAYING
    mover = state.turn if state.turn is not None else 0
    actor = state.actor if state.actor is not None else mover
    dice = (state.dice.first, state.dice.second) if state.dice is not None and phase == Phase.MOVE else (0, 0)
    return MatchKey(
        cube=state.cube,
        cube_owner=state.cube_owner,
        dice_owner=mover,
        crawford=state.crawford,
        state=game_state,
        turn=actor,
        doubled=phase in (Phase.DOUBLED, Phase.BEAVERED),
        resigned=state.resign_level if phase == Phase.RESIGNING else 0,
        dice=dice,
        length=state.settings.length,
        score=state.score,
        jacoby=state.settings.jacoby,
    )


def match_id(state: MatchState) -> str:
    """The GNU Backgammon Match ID of a referee match state."""
    return match_key(state).encode()

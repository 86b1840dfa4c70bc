"""XGID, eXtreme Gammon's position text, with every field.

``XGID=position:cube:cube_owner:turn:dice:score_bottom:score_top:flags:match_length:max_cube``

The position is 26 characters from the bottom player's side: the top
player's bar, points 1..24, the bottom player's bar; ``A``-``O`` count the
bottom player's checkers, ``a``-``o`` the top player's, ``-`` an empty point.
``cube`` is log2 of its value; ``cube_owner`` 1 bottom, 0 centred, -1 top;
``turn`` 1 when the bottom player is on roll; ``dice`` ``00`` before the roll,
``D``/``B``/``R`` for a pending double, beaver or raccoon; ``flags`` is the
Crawford game (match play) or Jacoby + 2 x beaver (money play); ``max_cube``
is log2 of the cube limit.

>>> x = Xgid.parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10")
>>> x.dice, x.jacoby, x.beaver, x.max_cube
((5, 2), True, True, 1024)
>>> str(x)
'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10'
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import NotationError
from engine.position import Position
from engine.rules import BAR, OFF

CUBE_ACTIONS = {"D": "double", "B": "beaver", "R": "raccoon"}


@dataclass(frozen=True, slots=True, kw_only=True)
class Xgid:
    """Every field of an XGID; ``position`` is seen from the player on roll."""

    position: Position
    bottom_on_roll: bool = True
    cube: int = 1
    cube_owner: int = 0  # 1 bottom, 0 centred, -1 top
    dice: tuple[int, int] | None = None
    cube_action: str | None = None  # "double", "beaver", "raccoon"
    score_bottom: int = 0
    score_top: int = 0
    crawford: bool = False
    jacoby: bool = False
    beaver: bool = False
    match_length: int = 0  # 0 = money play
    max_cube: int = 1024

    @classmethod
    def parse(cls, text: str, *, checkers: int = 15) -> Xgid:
        """Read an XGID; ``checkers`` a side (3 in Hypergammon) gives the number borne off."""
        raw = text.strip()
        if raw.upper().startswith("XGID="):
            raw = raw[5:]
        fields = raw.split(":")
        if len(fields) not in (9, 10):
            raise NotationError(f"XGID {text!r}: expected 9 or 10 fields separated by ':', got {len(fields)}")
        board = fields[0]
        if len(board) != 26:
            raise NotationError(f"XGID {text!r}: the position field has {len(board)} characters, expected 26")
        bottom = [0] * 26
        top = [0] * 26
        for index, char in enumerate(board):
            if char == "-":
                continue
            if "A" <= char <= "P":
                count, side, own = ord(char) - 64, bottom, True
            elif "a" <= char <= "p":
                count, side, own = ord(char) - 96, top, False
            else:
                raise NotationError(f"XGID {text!r}: {char!r} at {index} is not '-', 'A'-'O' or 'a'-'o'")
            if index == 0:
                slot = BAR if not own else -1
            elif index == 25:
                slot = BAR if own else -1
            else:
                slot = index if own else 25 - index
            if slot < 0:
                raise NotationError(f"XGID {text!r}: checkers of the wrong player on the bar at {index}")
            side[slot] += count
        for side, who in ((bottom, "bottom"), (top, "top")):
            if sum(side) > checkers:
                raise NotationError(f"XGID {text!r}: more than {checkers} checkers for the {who} player")
            side[OFF] = checkers - sum(side)
        try:
            cube_log, owner, turn = int(fields[1]), int(fields[2]), int(fields[3])
            score_bottom, score_top, flags, length = (int(f) for f in fields[5:9])
            max_log = int(fields[9]) if len(fields) == 10 else 10
        except ValueError:
            raise NotationError(f"XGID {text!r}: cube, turn, score and length fields must be integers") from None
        if owner not in (-1, 0, 1) or turn not in (-1, 1) or not 0 <= cube_log <= 15:
            raise NotationError(f"XGID {text!r}: cube owner must be -1/0/1, turn -1 or 1, cube 0..15")
        dice_field = fields[4].upper()
        dice: tuple[int, int] | None = None
        action: str | None = None
        if dice_field in CUBE_ACTIONS:
            action = CUBE_ACTIONS[dice_field]
        elif dice_field != "00":
            if len(dice_field) != 2 or not all(c in "123456" for c in dice_field):
                raise NotationError(f"XGID {text!r}: dice {fields[4]!r} must be '00', 'D', 'B', 'R' or two dice")
            dice = (int(dice_field[0]), int(dice_field[1]))
        bottom_t, top_t = tuple(bottom), tuple(top)
        position = Position(bottom_t, top_t) if turn == 1 else Position(top_t, bottom_t)
        return cls(
            position=position,
            bottom_on_roll=turn == 1,
            cube=1 << cube_log,
            cube_owner=owner,
            dice=dice,
            cube_action=action,
            score_bottom=score_bottom,
            score_top=score_top,
            crawford=bool(flags & 1) if length else False,
            jacoby=bool(flags & 1) if not length else False,
            beaver=bool(flags & 2) if not length else False,
            match_length=length,
            max_cube=1 << max_log,
        )

    def __str__(self) -> str:
        bottom, top = (
            (self.position.me, self.position.them) if self.bottom_on_roll else (self.position.them, self.position.me)
        )
        chars = []
        for index in range(26):
            if index == 0:
                own, theirs = 0, top[BAR]
            elif index == 25:
                own, theirs = bottom[BAR], 0
            else:
                own, theirs = bottom[index], top[25 - index]
            chars.append(chr(64 + own) if own else chr(96 + theirs) if theirs else "-")
        if self.cube_action is not None:
            dice = {v: k for k, v in CUBE_ACTIONS.items()}[self.cube_action]
        elif self.dice is not None:
            dice = f"{self.dice[0]}{self.dice[1]}"
        else:
            dice = "00"
        if self.match_length:
            flags = int(self.crawford)
        else:
            flags = int(self.jacoby) + 2 * int(self.beaver)
        fields = [
            "".join(chars),
            str(self.cube.bit_length() - 1),
            str(self.cube_owner),
            "1" if self.bottom_on_roll else "-1",
            dice,
            str(self.score_bottom),
            str(self.score_top),
            str(flags),
            str(self.match_length),
            str(self.max_cube.bit_length() - 1),
        ]
        return "XGID=" + ":".join(fields)

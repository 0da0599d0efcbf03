"""Actions: small hashable values with a compact text form (python-chess's ``Move`` for mahjong).

Text form: ``<seat><letter>[<tiles>]`` — ``0d5m`` discard 5m, ``1r0p`` riichi discarding the red
5p, ``2t`` tsumo, ``3a5z`` ankan of White, ``0k5p`` kakan of 5p, ``1n4z`` kita (nuki North),
``0y`` nine-terminals draw, ``1h`` ron, ``2c34m`` chi with 3m4m from the hand, ``3p55m`` pon with
5m5m, ``1m`` daiminkan, ``2x`` pass. Tiles are tile codes (red fives distinct), never physical ids,
so an action means the same thing in every copy of a game.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from engine.tiles import RED, NotationError, format_tiles, parse_tiles


class ActionType(IntEnum):
    DISCARD = 0
    RIICHI = 1
    TSUMO = 2
    ANKAN = 3
    KAKAN = 4
    KITA = 5
    KYUUSHU = 6
    RON = 7
    CHI = 8
    PON = 9
    DAIMINKAN = 10
    PASS = 11


LETTERS = {
    ActionType.DISCARD: "d",
    ActionType.RIICHI: "r",
    ActionType.TSUMO: "t",
    ActionType.ANKAN: "a",
    ActionType.KAKAN: "k",
    ActionType.KITA: "n",
    ActionType.KYUUSHU: "y",
    ActionType.RON: "h",
    ActionType.CHI: "c",
    ActionType.PON: "p",
    ActionType.DAIMINKAN: "m",
    ActionType.PASS: "x",
}
_BY_LETTER = {v: k for k, v in LETTERS.items()}
CALL_TYPES = frozenset({ActionType.RON, ActionType.CHI, ActionType.PON, ActionType.DAIMINKAN, ActionType.PASS})
NAMES = {
    ActionType.DISCARD: "discard",
    ActionType.RIICHI: "riichi",
    ActionType.TSUMO: "tsumo",
    ActionType.ANKAN: "closed kan",
    ActionType.KAKAN: "added kan",
    ActionType.KITA: "kita",
    ActionType.KYUUSHU: "nine terminals draw",
    ActionType.RON: "ron",
    ActionType.CHI: "chi",
    ActionType.PON: "pon",
    ActionType.DAIMINKAN: "open kan",
    ActionType.PASS: "pass",
}


def canon(tiles: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """The canonical order of a call's own tiles: by kind, a red five after a plain one."""
    return tuple(sorted(tiles, key=lambda c: (c & ~RED, c & RED)))


class Action(NamedTuple):
    type: ActionType
    seat: int
    tile: int = -1  # discard / riichi / ankan / kakan / kita: the tile code
    tiles: tuple[int, ...] = ()  # chi / pon: the caller's own tile codes

    @property
    def text(self) -> str:
        body = ""
        if self.tiles:
            body = format_tiles(self.tiles)
        elif self.tile >= 0:
            body = format_tiles([self.tile])
        return f"{self.seat}{LETTERS[self.type]}{body}"

    def __str__(self) -> str:
        return self.text

    def describe(self) -> str:
        name = NAMES[self.type]
        if self.tiles:
            return f"{name} with {format_tiles(self.tiles)}"
        if self.tile >= 0:
            return f"{name} {format_tiles([self.tile])}"
        return name

    @classmethod
    def parse(cls, text: str) -> Action:
        t = text.strip()
        if len(t) < 2 or not t[0].isdigit() or t[1] not in _BY_LETTER:
            raise NotationError(f"'{text}' is not an action (expected e.g. 0d5m, 1h, 2c34m)", text, 0)
        kind = _BY_LETTER[t[1]]
        seat = int(t[0])
        rest = t[2:]
        if kind in (ActionType.CHI, ActionType.PON):
            tiles = tuple(parse_tiles(rest, offset=2))
            if len(tiles) != 2:
                raise NotationError(f"'{text}': {NAMES[kind]} needs two tiles from the hand", text, 2)
            return cls(kind, seat, -1, canon(tiles))
        if rest:
            codes = parse_tiles(rest, offset=2)
            if len(codes) != 1:
                raise NotationError(f"'{text}': expected one tile", text, 2)
            return cls(kind, seat, codes[0])
        return cls(kind, seat)

"""Actions: small hashable values with a compact text form (python-chess's ``Move`` for mahjong).

Text form: ``<seat><letter>[<tiles>]`` — ``0d5m`` discard 5m, ``1r0p`` riichi discarding the red
5p, ``2t`` tsumo, ``3a5z`` ankan of White, ``0k5p`` kakan of 5p, ``1n4z`` kita (nuki North),
``0y`` nine-terminals draw, ``1h`` ron, ``2c34m`` chi with 3m4m from the hand, ``3p55m`` pon with
5m5m, ``1m`` daiminkan, ``2x`` pass. Tiles are tile codes (red fives distinct), never physical ids,
so an action means the same thing in every copy of a game.

A claim of a discard that is not the last one (seigou SG-1: pon on your own turn of any discard
made since your previous turn) names the discarder's seat after ``@``: ``3p55m@1`` pons seat 1's
discard, ``2m@0`` makes a daiminkan of seat 0's discard, ``1c34m@0`` chis it. Without ``@`` the
claim is of the discard on the table, as before.

A shoukou call or kan that uses a transformation ends with it, ``physical>effective``, before any
``@``: ``2c34m8m>5m`` chis an 8m as 5m with 3m4m, ``1p36p6p>3p`` pons with 3p6p counting the 6p
as 3p, ``1m5s>2s`` makes a daiminkan counting the discard 5s as 2s, ``0a7m4m>7m`` an ankan of 7m
with a 4m as 7m, ``0k5p8p>5p`` a kakan of 5p with an 8p.

A chinitsu_toutenkou kakan that adds a White to an honour pon (CT-C5) uses the same form, the White
as the pon's honour: ``1k1z5z>1z`` adds a White to a pon of East. An open riichi that shows only
part of the hand (CT-F2, ``ct.open_riichi_expose = "minimal"``) lists the shown tiles after ``/``:
``0o5m/125z`` discards 5m and shows East, South and White; ``0o5m`` shows the whole hand.
"""

from __future__ import annotations

import re
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
    OPEN_RIICHI = 12  # chinitsu_toutenkou CT-F2: riichi showing the hand
    DRAW = 13  # taiwan16 TW-11 haitei_pass: take the last tile (its PASS passes it on)


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
    ActionType.OPEN_RIICHI: "o",
    ActionType.DRAW: "w",
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
    ActionType.OPEN_RIICHI: "open riichi",
    ActionType.DRAW: "draw",
}


def canon(tiles: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """The canonical order of a call's own tiles: by kind, a red five after a plain one."""
    return tuple(sorted(tiles, key=lambda c: (c & ~RED, c & RED)))


class Action(NamedTuple):
    type: ActionType
    seat: int
    tile: int = -1  # discard / riichi / ankan / kakan / kita: the tile code
    tiles: tuple[int, ...] = ()  # chi / pon: the caller's own tile codes; open riichi: the shown ones
    src: int = -1  # chi / pon / daiminkan of an earlier discard: the discarder's seat (seigou)
    # shoukou (SK-D6): the one transformation the call or kan uses, (physical tile code, effective
    # kind); () for none. The transformed tile is the discard when its code is the discard's.
    shift: tuple[int, ...] = ()

    @property
    def text(self) -> str:
        body = ""
        if self.type is ActionType.OPEN_RIICHI and self.tiles:  # CT-F2: discard/shown tiles
            body = f"{format_tiles([self.tile])}/{format_tiles(self.tiles)}"
        elif self.tiles:
            body = format_tiles(self.tiles)
        elif self.tile >= 0:
            body = format_tiles([self.tile])
        if self.shift:
            body += f"{format_tiles([self.shift[0]])}>{format_tiles([self.shift[1]])}"
        if self.src >= 0:
            body += f"@{self.src}"
        return f"{self.seat}{LETTERS[self.type]}{body}"

    def __str__(self) -> str:
        return self.text

    def describe(self) -> str:
        if self.shift:
            plain = self._replace(shift=()).describe()
            return f"{plain}, {format_tiles([self.shift[0]])} as {format_tiles([self.shift[1]])}"
        name = NAMES[self.type]
        if self.type is ActionType.OPEN_RIICHI and self.tiles:
            return f"{name} {format_tiles([self.tile])} showing {format_tiles(self.tiles)}"
        if self.src >= 0:
            name = f"{name} of seat {self.src}'s discard"
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
        if ">" in t:  # shoukou: "<action>2s>5s[@seat]", the transformation it uses
            i = t.index(">")
            phys, eff = t[i - 2 : i], t[i + 1 : i + 3]
            if phys == "5z" and re.fullmatch(r"[1-7]z", eff) and i >= 4:  # CT-C5: a White as an honour
                p, e = parse_tiles(phys)[0], parse_tiles(eff)[0]
                return cls.parse(t[: i - 2] + t[i + 3 :])._replace(shift=(p, e))
            if i < 4 or not re.fullmatch(r"[0-9][mps]", phys) or not re.fullmatch(r"[1-9][mps]", eff):
                raise NotationError(f"'{text}': write a transformation as physical>effective, e.g. 2s>5s", text, i)
            p, e = parse_tiles(phys)[0], parse_tiles(eff)[0]
            if (p & ~RED) // 9 != e // 9 or abs((p & ~RED) - e) != 3:
                raise NotationError(f"'{text}': a tile can only move 3 ranks within its suit", text, i)
            return cls.parse(t[: i - 2] + t[i + 3 :])._replace(shift=(p, e))
        kind = _BY_LETTER[t[1]]
        seat = int(t[0])
        rest = t[2:]
        src = -1
        if "@" in rest and kind in (ActionType.CHI, ActionType.PON, ActionType.DAIMINKAN):
            rest, _, who = rest.partition("@")
            if len(who) != 1 or not who.isdigit():
                raise NotationError(f"'{text}': expected the discarder's seat after '@' (e.g. 3p55m@1)", text, len(t) - len(who))
            src = int(who)
        if kind is ActionType.OPEN_RIICHI and "/" in rest:  # CT-F2: "<discard>/<shown tiles>"
            head, _, shown = rest.partition("/")
            codes = parse_tiles(head, offset=2) if head else []
            if len(codes) != 1 or not shown:
                raise NotationError(f"'{text}': write an open riichi as <discard>/<shown tiles>, e.g. 0o5m/1z2z5z", text, 2)
            return cls(kind, seat, codes[0], canon(parse_tiles(shown, offset=3 + len(head))))
        if kind in (ActionType.CHI, ActionType.PON):
            tiles = tuple(parse_tiles(rest, offset=2))
            if len(tiles) != 2:
                raise NotationError(f"'{text}': {NAMES[kind]} needs two tiles from the hand", text, 2)
            return cls(kind, seat, -1, canon(tiles), src)
        if src >= 0:
            if rest:
                raise NotationError(f"'{text}': an open kan takes no tiles, only the discarder's seat", text, 2)
            return cls(kind, seat, -1, (), src)
        if rest:
            codes = parse_tiles(rest, offset=2)
            if len(codes) != 1:
                raise NotationError(f"'{text}': expected one tile", text, 2)
            return cls(kind, seat, codes[0])
        return cls(kind, seat)

"""Tile kinds, tile codes and the compressed text notation (rules README §2).

Three levels, python-chess style (plain ints everywhere, text only at the edges):

* **kind** — ``0..33`` for the 34 riichi kinds (1m..9m, 1p..9p, 1s..9s, E S W N, Wh Gr Rd) and
  ``34..41`` for the eight taiwan16 flowers (1f..8f).
* **tile code** — a kind, with the :data:`RED` bit set for a red five (``0m`` = ``4 | RED``).
  Notation parses to tile codes; hand analysis works on kinds and count arrays.
* **physical tile** — an index into a ruleset's :class:`~engine.rules.base.TileSet` (Tenhou's
  0..135 layout for the standard set), used by walls and logs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = [
    "FLOWER_BASE",
    "HONOR_BASE",
    "KIND_NAMES",
    "NUM_KINDS",
    "NUM_KINDS_WITH_FLOWERS",
    "RED",
    "YAOCHU",
    "NotationError",
    "counts_of",
    "dora_of",
    "format_tiles",
    "is_chi_shape",
    "is_honor",
    "is_one_kind",
    "is_red",
    "is_terminal",
    "is_yaochu",
    "kind_of",
    "kind_name",
    "parse_kind",
    "parse_tiles",
    "rank_of",
    "shown_char",
    "suit_of",
]

NUM_KINDS = 34
NUM_KINDS_WITH_FLOWERS = 42
HONOR_BASE = 27
FLOWER_BASE = 34
RED = 0x40

EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED_DRAGON = range(27, 34)

SUIT_LETTERS = "mpsz"
KIND_NAMES: tuple[str, ...] = tuple(
    [f"{r}{s}" for s in "mps" for r in range(1, 10)]
    + [f"{r}z" for r in range(1, 8)]
    + [f"{r}f" for r in range(1, 9)]
)
YAOCHU: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_YAOCHU_SET = frozenset(YAOCHU)


class NotationError(ValueError):
    """Bad tile or hand notation. The message names the bad character and its position."""

    def __init__(self, message: str, text: str = "", position: int | None = None) -> None:
        self.text = text
        self.position = position
        super().__init__(message)


def kind_of(code: int) -> int:
    return code & ~RED


def is_red(code: int) -> bool:
    return bool(code & RED)


def suit_of(kind: int) -> int:
    """0 man, 1 pin, 2 sou, 3 honours, 4 flowers."""
    if kind < HONOR_BASE:
        return kind // 9
    return 3 if kind < FLOWER_BASE else 4


def rank_of(kind: int) -> int:
    """1..9 for suited kinds, 1..7 for honours, 1..8 for flowers."""
    if kind < HONOR_BASE:
        return kind % 9 + 1
    if kind < FLOWER_BASE:
        return kind - HONOR_BASE + 1
    return kind - FLOWER_BASE + 1


def is_honor(kind: int) -> bool:
    return HONOR_BASE <= kind < FLOWER_BASE


def is_terminal(kind: int) -> bool:
    return kind < HONOR_BASE and kind % 9 in (0, 8)


def is_yaochu(kind: int) -> bool:
    return kind in _YAOCHU_SET


def is_chi_shape(kinds: Iterable[int]) -> bool:
    """A chi's shape: three consecutive kinds of one number suit, in any order (pass kinds, not
    codes: strip the red flag first)."""
    k = sorted(kinds)
    return len(k) == 3 and k[0] < HONOR_BASE and k[0] // 9 == k[2] // 9 and k[1] == k[0] + 1 and k[2] == k[0] + 2


def is_one_kind(kinds: Iterable[int]) -> bool:
    """A pon's or kan's shape: at least one tile, all of one kind (pass kinds, not codes)."""
    return len(set(kinds)) == 1


def kind_name(code: int) -> str:
    k = kind_of(code)
    if code & RED:
        return "0" + "mps"[k // 9]
    return KIND_NAMES[k]


def dora_of(indicator: int, *, sanma: bool = False) -> int:
    """The dora kind for an indicator kind (R-3.4). In Tenhou sanma 1m→9m and 9m→1m."""
    k = kind_of(indicator)
    if k < HONOR_BASE:
        if sanma and k == 0:
            return 8
        if sanma and k == 8:
            return 0
        base = k - k % 9
        return base + (k % 9 + 1) % 9
    if k < 31:
        return HONOR_BASE + (k - HONOR_BASE + 1) % 4
    if k < FLOWER_BASE:
        return 31 + (k - 31 + 1) % 3
    return k


def parse_tiles(
    text: str, *, offset: int = 0, allow_flowers: bool = True, skip_spaces: bool = False
) -> list[int]:
    """Parse compressed notation (``"123m406p77z"``) into tile codes, keeping order.

    ``offset`` is added to reported positions so callers parsing a larger line can point at the
    character in the user's original text. With ``skip_spaces`` white space anywhere is ignored
    (``"1 2 3p"``, inside a meld). Only the ASCII digits 0-9 number a tile.
    """
    out: list[int] = []
    pending: list[tuple[int, int]] = []  # (digit, position)
    for i, ch in enumerate(text):
        if "0" <= ch <= "9":  # ASCII only: str.isdigit() also takes '²' or '٣', which int() refuses
            pending.append((ord(ch) - 48, i))
            continue
        if ch in "mpszf":
            if not pending:
                raise NotationError(
                    f"suit letter '{ch}' at position {i + offset + 1} has no digits before it",
                    text,
                    i + offset,
                )
            for d, pos in pending:
                out.append(_code(d, ch, text, pos + offset, allow_flowers))
            pending = []
            continue
        if ch.isspace():
            if skip_spaces:
                continue
            raise NotationError(f"unexpected space at position {i + offset + 1}", text, i + offset)
        if ch.isdigit():
            raise NotationError(
                f"unexpected character {shown_char(ch)} at position {i + offset + 1}: "
                "tiles are numbered with the digits 0-9",
                text,
                i + offset,
            )
        raise NotationError(f"unexpected character {shown_char(ch)} at position {i + offset + 1}", text, i + offset)
    if pending:
        d, pos = pending[-1]
        raise NotationError(
            f"digits at position {pending[0][1] + offset + 1} have no suit letter (m, p, s or z) after them",
            text,
            pending[0][1] + offset,
        )
    return out


def shown_char(ch: str) -> str:
    """One character as a message shows it: ``'x'``, or ``U+0000`` for one that does not print."""
    return f"'{ch}'" if ch.isprintable() else f"U+{ord(ch):04X}"


def _code(d: int, suit: str, text: str, pos: int, allow_flowers: bool) -> int:
    if suit in "mps":
        base = "mps".index(suit) * 9
        if d == 0:
            return (base + 4) | RED
        return base + d - 1
    if suit == "z":
        if 1 <= d <= 7:
            return HONOR_BASE + d - 1
        raise NotationError(f"'{d}z' at position {pos + 1} is not a tile: honours are 1z..7z", text, pos)
    if not allow_flowers:
        raise NotationError(f"flower '{d}f' at position {pos + 1} is not used in this ruleset", text, pos)
    if 1 <= d <= 8:
        return FLOWER_BASE + d - 1
    raise NotationError(f"'{d}f' at position {pos + 1} is not a tile: flowers are 1f..8f", text, pos)


def parse_kind(text: str) -> int:
    """Parse exactly one tile (``"5m"``, ``"0p"``, ``"7z"``) into a tile code."""
    codes = parse_tiles(text)
    if len(codes) != 1:
        raise NotationError(f"expected exactly one tile, got '{text}'", text, 0)
    return codes[0]


def format_tiles(codes: Iterable[int], *, sort: bool = False) -> str:
    """Compressed notation for tile codes; red fives print as ``0``."""
    seq = list(codes)
    if sort:
        seq.sort(key=lambda c: (kind_of(c), not is_red(c)))
    out: list[str] = []
    cur = ""
    buf: list[str] = []
    for c in seq:
        name = kind_name(c)
        if name[1] != cur and buf:
            out.append("".join(buf) + cur)
            buf = []
        cur = name[1]
        buf.append(name[0])
    if buf:
        out.append("".join(buf) + cur)
    return "".join(out)


def counts_of(codes: Sequence[int], size: int = NUM_KINDS) -> list[int]:
    """Count array indexed by kind (red fives count as fives)."""
    c = [0] * size
    for code in codes:
        c[code & ~RED] += 1
    return c

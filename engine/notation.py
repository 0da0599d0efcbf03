"""The hand grammar used by ``python -m engine score``, ``/score`` and the tests.

::

    <concealed tiles> [<meld> ...] (ron|tsumo) <winning tile> [flags]
    meld := chi(123p) | pon(555m) | minkan(5555m) | ankan(7777s) | kakan(5555m)

The concealed part excludes the winning tile. Flags: ``seat=E|S|W|N`` (winner's seat wind, dealer
= E), ``round=E|S|W|N``, ``dora=<indicators>``, ``ura=<indicators>``, ``riichi``, ``double_riichi``,
``ippatsu``, ``haitei``, ``houtei``, ``rinshan``, ``chankan``, ``tenhou``, ``chiihou``, ``renhou``,
``honba=N``, ``sticks=N``, ``kita=N``, ``players=3|4``, ``ruleset=NAME``, and ``from=E|S|W|N``
(the discarder's seat wind for a ron; without it the payer is reported as ``"discarder"``).

Tile groups may be separated by spaces, as people type them: ``123m 456p 789s 11z 22z ron 2z``,
``chi(1 2 3p)``, ``pon (555m)``, ``dora=1m 5p``. Tiles and numbers use the ASCII digits only;
``honba``/``sticks`` are 0..99 and ``kita`` 0..8 (:data:`NUMBER_RANGES`); a line has at most
:data:`MAX_LINE` characters.

Flowers (``1f``..``8f``, taiwan16) may be written among the concealed tiles (``...34s1f5f``); a
ruleset that uses them sets them aside with :func:`split_flowers`.

Every error is a :class:`~engine.tiles.NotationError` whose message points at the bad character
(1-based position in the whole line) and quotes at most a short, printable piece of the input.
Limits: melds must follow the concealed part (not be mixed into it); a shifted shoukou meld
(``2s>5s``) takes no spaces inside.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from engine.tiles import RED, NotationError, format_tiles, is_chi_shape, is_one_kind, kind_of, parse_tiles

__all__ = [
    "HandSpec",
    "Meld",
    "MeldType",
    "WinContext",
    "format_hand",
    "format_shifted",
    "parse_hand",
    "parse_shifted",
    "split_flowers",
    "WINDS",
]

WINDS = "ESWN"


class MeldType(StrEnum):
    CHI = "chi"
    PON = "pon"
    MINKAN = "minkan"
    ANKAN = "ankan"
    KAKAN = "kakan"


@dataclass(frozen=True, slots=True)
class Meld:
    type: MeldType
    tiles: tuple[int, ...]  # tile codes, red bit kept
    from_seat: int | None = None  # relative: 1 shimocha, 2 toimen, 3 kamicha (when known)
    # shoukou (SK-D4): the effective kind of each tile, in the order of ``tiles``; () = as printed.
    effective: tuple[int, ...] = ()

    @property
    def kind(self) -> int:
        """The lowest kind in the meld (the kind itself for pon/kan); effective kinds when set."""
        if self.effective:
            return min(self.effective)
        return min(t & ~RED for t in self.tiles)

    @property
    def kinds(self) -> tuple[int, ...]:
        """Each tile's effective kind (its printed kind unless transformed, shoukou SK-D4)."""
        return self.effective or tuple(t & ~RED for t in self.tiles)

    @property
    def is_kan(self) -> bool:
        return self.type in (MeldType.MINKAN, MeldType.ANKAN, MeldType.KAKAN)

    @property
    def opened(self) -> bool:
        return self.type is not MeldType.ANKAN

    def __str__(self) -> str:
        if self.effective:
            return f"{self.type.value}({format_shifted(self.tiles, self.effective)})"
        return f"{self.type.value}({format_tiles(self.tiles)})"


@dataclass(frozen=True, slots=True, kw_only=True)
class WinContext:
    tsumo: bool = False
    seat_wind: int = 0  # 0 East (dealer) .. 3 North
    round_wind: int = 0
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    dora_indicators: tuple[int, ...] = ()
    ura_indicators: tuple[int, ...] = ()
    honba: int = 0
    sticks: int = 0
    kita: int = 0
    players: int = 4
    discarder: int | None = None  # seat wind of the discarder on a ron

    @property
    def dealer(self) -> bool:
        return self.seat_wind == 0


@dataclass(frozen=True, slots=True)
class HandSpec:
    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: int
    ctx: WinContext
    ruleset: str = "riichi"
    options: dict[str, str] = field(default_factory=dict)  # unknown key=value flags, for variants


_MELD_RE = re.compile(r"^(chi|pon|minkan|ankan|kakan|daiminkan|shouminkan)(\s*)\((.*)\)$", re.DOTALL)
_BOOL_FLAGS = {
    "riichi",
    "double_riichi",
    "ippatsu",
    "haitei",
    "houtei",
    "rinshan",
    "chankan",
    "tenhou",
    "chiihou",
    "renhou",
    "tsumo",
}


def _meld(token: str, pos: int) -> Meld:
    m = _MELD_RE.match(token)
    if not m:
        raise NotationError(
            f"'{_shown(token)}' at position {pos + 1} is not a meld: write chi(123p), pon(555m), minkan(5555m), "
            "ankan(7777s) or kakan(5555m)",
            token,
            pos,
        )
    name, gap, body = m.group(1), m.group(2), m.group(3)
    start = pos + len(name) + len(gap) + 1  # where the body starts in the line
    mtype = {"daiminkan": "minkan", "shouminkan": "kakan"}.get(name, name)
    effective: tuple[int, ...] = ()
    if ">" in body:  # shoukou: transformed tiles written physical>effective (SK-D4)
        tiles, effective = parse_shifted(body, offset=start)
        kinds = sorted(effective)
    else:
        tiles = tuple(parse_tiles(body, offset=start, allow_flowers=False, skip_spaces=True))
        kinds = sorted(kind_of(t) for t in tiles)
    t = MeldType(mtype)
    if t is MeldType.CHI:
        ok = is_chi_shape(kinds)
        need = "three consecutive tiles of one suit"
    elif t is MeldType.PON:
        ok = len(kinds) == 3 and is_one_kind(kinds)
        need = "three identical tiles"
    else:
        ok = len(kinds) == 4 and is_one_kind(kinds)
        need = "four identical tiles"
    if not ok:
        raise NotationError(f"meld '{_shown(token)}' at position {pos + 1} must be {need}", token, pos)
    if effective:
        return Meld(t, tiles, effective=effective)
    return Meld(t, tiles)


def parse_shifted(text: str, *, offset: int = 0) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Tiles where some are written ``physical>effective`` (shoukou, rules README §2):
    ``552s>5s`` is 5s 5s and a 2s acting as 5s. Returns (tile codes, effective kinds).

    The tile before ``>`` is the last one parsed; after ``>`` comes exactly one number tile of the
    same suit whose rank differs by 3 (SK-D2, SK-D3); the compressed tiles then continue."""
    codes: list[int] = []
    eff: list[int] = []
    pos = 0
    for i, part in enumerate(text.split(">")):
        rest = part
        if i > 0:
            m = re.match(r"[0-9][mps]", part)
            if not m or not codes:
                raise NotationError(
                    f"'>' at position {offset + pos} must join two tiles, as in 2s>5s", text, offset + pos - 1
                )
            target = kind_of(parse_tiles(m.group(0), offset=offset + pos)[0])
            src = eff[-1]
            if target // 9 != src // 9 or abs(target - src) != 3:
                raise NotationError(
                    f"'{format_tiles([codes[-1]])}>{m.group(0)}' at position {offset + pos}: a tile can only "
                    "move 3 ranks within its suit",
                    text,
                    offset + pos,
                )
            eff[-1] = target
            rest = part[2:]
        if rest:
            got = parse_tiles(rest, offset=offset + pos + len(part) - len(rest), allow_flowers=False)
            codes.extend(got)
            eff.extend(kind_of(c) for c in got)
        pos += len(part) + 1
    return tuple(codes), tuple(eff)


def format_shifted(codes: tuple[int, ...] | list[int], effective: tuple[int, ...] | list[int]) -> str:
    """The inverse of :func:`parse_shifted`: plain tiles compressed, transformed ones as ``2s>5s``."""
    out: list[str] = []
    plain: list[int] = []
    for c, e in zip(codes, effective):
        if kind_of(c) == e:
            plain.append(c)
            continue
        if plain:
            out.append(format_tiles(plain))
            plain = []
        out.append(f"{format_tiles([c])}>{format_tiles([e])}")
    if plain:
        out.append(format_tiles(plain))
    return "".join(out)


def _wind(value: str, key: str, pos: int) -> int:
    if value in WINDS:
        return WINDS.index(value)
    if value in ("1", "2", "3", "4"):
        return int(value) - 1
    raise NotationError(f"{key}={_shown(value)} at position {pos + 1}: use E, S, W or N", value, pos)


#: The range of each number flag: a count a real hand can reach, with room to spare.
NUMBER_RANGES: dict[str, tuple[int, int]] = {"honba": (0, 99), "sticks": (0, 99), "kita": (0, 8)}

#: The longest hand line read (a 16-tile hand with melds and every flag is under 200 characters; room for
#: a 5,000-digit number, which then gets the sentence naming its field).
MAX_LINE = 10_000


def _shown(token: str, limit: int = 24) -> str:
    """A token as an error message quotes it: clipped, so a huge token never fills the message,
    and with ``?`` for a character that does not print (a control character, a lone surrogate)."""
    token = "".join(ch if ch.isprintable() else "?" for ch in token[:limit])
    return token if len(token) < limit else token[: limit - 1] + "…"


def _int(value: str, key: str, pos: int) -> int:
    """A number flag's value: ASCII digits only (``str.isdigit`` also takes ``'²'``), in range."""
    lo, hi = NUMBER_RANGES[key]
    if not value or not all("0" <= ch <= "9" for ch in value):
        raise NotationError(
            f"{key}={_shown(value)} at position {pos + 1}: expected a whole number from {lo} to {hi}",
            value,
            pos,
        )
    digits = value.lstrip("0") or "0"
    n = int(digits) if len(digits) <= 6 else hi + 1  # never hand int() thousands of digits
    if not lo <= n <= hi:
        raise NotationError(
            f"{key}={_shown(value)} at position {pos + 1}: {key} must be from {lo} to {hi}", value, pos
        )
    return n


# A meld keeps its spaces inside the parentheses (``chi(1 2 3p)``, ``pon (555m)``); other tokens
# are separated by white space.
_TOKEN_RE = re.compile(r"[A-Za-z_]+\s*\([^()]*\)|\S+")


#: The longest name and value of a variant's own ``key=value`` flag (``flowers=1f2f3f4f5f6f7f8f``).
MAX_OPTION = 64


def _check_option(key: str, value: str, pos: int, vpos: int, text: str) -> None:
    """A variant's own flag (read later by its ruleset): bounded in length, numbers of ASCII
    digits only and at most 9 of them, so no variant ever meets ``'²'`` or 5,000 digits."""
    if len(key) > MAX_OPTION or len(value) > MAX_OPTION:
        raise NotationError(
            f"{_shown(key)}=… at position {pos + 1}: a flag's name and value have at most {MAX_OPTION} characters",
            text,
            pos,
        )
    for i, ch in enumerate(value):
        if ch.isdigit() and not "0" <= ch <= "9":
            raise NotationError(
                f"{_shown(key)}={_shown(value)} at position {vpos + i + 1}: numbers are written with the digits 0-9",
                text,
                vpos + i,
            )
    long_number = re.search(r"[0-9]{10,}", value)
    if long_number:
        raise NotationError(
            f"{_shown(key)}={_shown(value)} at position {vpos + long_number.start() + 1}: "
            "a number has at most 9 digits",
            text,
            vpos + long_number.start(),
        )


def _tiles_token(tok: str) -> bool:
    """A token that continues a list of tiles: it starts with a digit (any digit, so that ``²``
    gets the tile parser's message) and is no meld."""
    return tok[:1].isdigit() and "(" not in tok


def parse_hand(text: str) -> HandSpec:
    """Parse one hand line. Raises :class:`NotationError` pointing at the first bad token.

    Tile groups may be separated by spaces wherever the grammar takes tiles: the concealed part
    (``123m 456p 789s 11z 22z``), inside a meld (``chi(1 2 3p)``) and ``dora=``/``ura=``
    (``dora=1m 5p``)."""
    if len(text) > MAX_LINE:
        raise NotationError(
            f"the hand is {len(text):,} characters long; a hand line has at most {MAX_LINE:,}", "", 0
        )
    tokens: list[tuple[str, int]] = [(m.group(0), m.start()) for m in _TOKEN_RE.finditer(text)]
    if not tokens:
        raise NotationError("empty hand: write e.g. '123m456p789s1122z ron 2z'", text, 0)
    concealed: list[int] = []
    melds: list[Meld] = []
    i = 0
    tok, pos = tokens[0]
    if tok not in ("ron", "tsumo") and "(" not in tok:
        concealed = parse_tiles(tok, offset=pos, allow_flowers=True)
        i = 1
        while i < len(tokens) and _tiles_token(tokens[i][0]):
            concealed += parse_tiles(tokens[i][0], offset=tokens[i][1], allow_flowers=True)
            i += 1
    while i < len(tokens) and "(" in tokens[i][0]:
        melds.append(_meld(*tokens[i]))
        i += 1
    if i >= len(tokens) or tokens[i][0] not in ("ron", "tsumo"):
        where = tokens[i][1] if i < len(tokens) else len(text)
        got = f"'{_shown(tokens[i][0])}'" if i < len(tokens) else "the end of the line"
        raise NotationError(
            f"expected 'ron' or 'tsumo' then the winning tile at position {where + 1}, found {got}",
            text,
            where,
        )
    tsumo = tokens[i][0] == "tsumo"
    i += 1
    if i >= len(tokens):
        raise NotationError(f"missing the winning tile after '{tokens[i - 1][0]}'", text, len(text))
    win_codes = parse_tiles(tokens[i][0], offset=tokens[i][1])
    if len(win_codes) != 1:
        raise NotationError(
            f"the winning tile at position {tokens[i][1] + 1} must be exactly one tile, got '{_shown(tokens[i][0])}'",
            text,
            tokens[i][1],
        )
    win = win_codes[0]
    i += 1
    kw: dict[str, object] = {"tsumo": tsumo}
    ruleset = "riichi"
    extra: dict[str, str] = {}
    indicators: dict[str, list[int]] = {}
    tiles_key = ""  # "dora" or "ura" while a bare tile group may continue that list
    for tok, pos in tokens[i:]:
        key, eq, value = tok.partition("=")
        if tiles_key and not eq and _tiles_token(tok):
            indicators[tiles_key] += parse_tiles(tok, offset=pos)
            continue
        tiles_key = ""
        if not eq:
            if key in _BOOL_FLAGS:
                kw[key] = True
                continue
            if key in ("dealer", "non-dealer"):
                if key == "dealer":
                    kw["seat_wind"] = 0
                continue
            raise NotationError(f"unknown flag '{_shown(tok)}' at position {pos + 1}", text, pos)
        vpos = pos + len(key) + 1
        if key == "seat":
            kw["seat_wind"] = _wind(value, key, vpos)
        elif key == "round":
            kw["round_wind"] = _wind(value, key, vpos)
        elif key == "from":
            kw["discarder"] = _wind(value, key, vpos)
        elif key in ("dora", "ura"):
            indicators[key] = parse_tiles(value, offset=vpos) if value else []
            tiles_key = key
        elif key in NUMBER_RANGES:
            kw[key] = _int(value, key, vpos)
        elif key == "players":
            if value not in ("3", "4"):
                raise NotationError(f"players={_shown(value)} at position {vpos + 1}: use 3 or 4", text, vpos)
            kw["players"] = int(value)
        elif key == "ruleset":
            if not re.fullmatch(r"[A-Za-z0-9_\-]{1,40}", value):
                raise NotationError(
                    f"ruleset={_shown(value)} at position {vpos + 1}: a ruleset name is letters, digits and '_'",
                    text,
                    vpos,
                )
            ruleset = value
        else:
            _check_option(key, value, pos, vpos, text)
            extra[key] = value
    for key, codes in indicators.items():
        kw[f"{key}_indicators"] = tuple(codes)
    ctx = WinContext(**kw)  # type: ignore[arg-type]
    return HandSpec(tuple(concealed), tuple(melds), win, ctx, ruleset, extra)


def split_flowers(codes: tuple[int, ...] | list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Flowers (``1f``..``8f``, kinds 34..41) written among a hand's tiles are set aside, not part
    of the hand (taiwan16 TW-1): returns (the other tiles, the flowers), each in written order."""
    tiles = tuple(c for c in codes if kind_of(c) < 34)
    flowers = tuple(c for c in codes if kind_of(c) >= 34)
    return tiles, flowers


def format_hand(spec: HandSpec) -> str:
    """The canonical text of a hand (inverse of :func:`parse_hand`)."""
    c = spec.ctx
    parts = [format_tiles(spec.concealed)] if spec.concealed else []
    parts += [str(m) for m in spec.melds]
    parts += ["tsumo" if c.tsumo else "ron", format_tiles([spec.win_tile])]
    parts += [f"seat={WINDS[c.seat_wind]}", f"round={WINDS[c.round_wind]}"]
    if c.dora_indicators:
        parts.append(f"dora={format_tiles(c.dora_indicators)}")
    if c.ura_indicators:
        parts.append(f"ura={format_tiles(c.ura_indicators)}")
    for flag in sorted(_BOOL_FLAGS - {"tsumo"}):
        if getattr(c, flag):
            parts.append(flag)
    for key in ("honba", "sticks", "kita"):
        if getattr(c, key):
            parts.append(f"{key}={getattr(c, key)}")
    if c.players != 4:
        parts.append(f"players={c.players}")
    if c.discarder is not None:
        parts.append(f"from={WINDS[c.discarder]}")
    if spec.ruleset != "riichi":
        parts.append(f"ruleset={spec.ruleset}")
    parts += [f"{k}={v}" for k, v in spec.options.items()]
    return " ".join(parts)

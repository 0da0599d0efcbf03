"""kobalab Majiang (電脳麻将) paipu JSON importer, see shared/data/logs/README.md section D.

Record seats are player indices in the paipu's ``player`` list (absolute seats). A hand's events
use ``l`` (0 = that hand's dealer); player index = ``(qijia + jushu + l) % 4``, and ``qipai.defen``
and ``fenpei`` are indexed by ``l`` too, so everything is turned into absolute seats here.
Events keep file order (``kaigang`` stays where Majiang put it).

Everything here is pure: only :func:`load_majiang` reads a file. Malformed input raises
:class:`~engine.logs.record.LogFormatError` naming the file and the problem.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.logs.limits import COUNT_LIMIT, POINTS_LIMIT, json_kind, load_json, range_error, shown
from engine.logs.record import (
    Call,
    CallKind,
    Discard,
    Draw,
    DrawKind,
    GameRecord,
    HandDraw,
    HandRecord,
    LogFormatError,
    NewDora,
    RiichiAccepted,
    RuleInfo,
    Win,
)
from engine.tiles import RED

__all__ = ["load_majiang", "parse_majiang", "tile_code"]

_DRAWS: dict[str, DrawKind] = {
    "荒牌平局": DrawKind.EXHAUSTIVE,
    "流局": DrawKind.EXHAUSTIVE,
    "流し満貫": DrawKind.NAGASHI,
    "九種九牌": DrawKind.NINE_TERMINALS,
    "四風連打": DrawKind.FOUR_WINDS,
    "四家立直": DrawKind.FOUR_RIICHI,
    "三家和": DrawKind.TRIPLE_RON,
    "四開槓": DrawKind.FOUR_KANS,
}
_MARKERS = {
    "-": 3,
    "=": 2,
    "+": 1,
}  # whom the tile came from: kamicha, toimen, shimocha (offset from the caller)


_POINT_RE = re.compile(r"[+-]?[0-9]{1,9}(?:\.[0-9]{1,6})?")


class _Bad(Exception):
    """Internal: a problem found while parsing; turned into LogFormatError with the location."""


def _code(suit: str, d: str) -> int:
    if suit in "mps":
        base = "mps".index(suit) * 9
        return (base + 4) | RED if d == "0" else base + int(d) - 1
    if suit == "z" and d in "1234567":
        return 27 + int(d) - 1
    raise _Bad(f'"{suit}{d}" is not a Majiang tile')


def tile_code(p: Any) -> int:
    """Majiang tile (``"m5"``, ``"m0"`` red five, ``"z1"``..``"z7"``) -> tile code; suffixes ``_*`` ignored."""
    if not isinstance(p, str) or len(p) < 2 or p[0] not in "mpsz" or not p[1].isdigit():
        raise _Bad(f"{shown(p)} is not a Majiang tile")
    if p[0] == "z" and p[1] == "0":
        raise _Bad(f'{shown(p)} is not a Majiang tile')
    return _code(p[0], p[1])


def _concealed(s: Any) -> list[int]:
    """Concealed tiles of a hand string (``"m123p406s789z11"``), calls after ',' ignored."""
    if not isinstance(s, str):
        raise _Bad(f"hand {shown(s)} is not a string")
    out: list[int] = []
    suit = ""
    for ch in s.split(",")[0]:
        if ch in "mpsz":
            suit = ch
        elif ch.isdigit():
            if not suit:
                raise _Bad(f'hand {shown(s)} has digits before a suit letter')
            out.append(_code(suit, ch))
        elif ch not in "*_":
            raise _Bad(f'hand {shown(s)} has the unexpected character {shown(ch)}')
    return out


@dataclass(frozen=True, slots=True)
class _Meld:
    tiles: tuple[int, ...]  # in string order
    called: int | None  # index into tiles of the tile before the marker
    offset: int  # from-seat offset (caller -> source), 0 if none
    added: bool  # the marker follows the third tile and one more tile follows it (kakan)


def _parse_meld(m: Any) -> _Meld:
    if not isinstance(m, str) or len(m) < 4 or m[0] not in "mpsz":
        raise _Bad(f"{shown(m)} is not a Majiang call")
    tiles: list[int] = []
    called = None
    offset = 0
    after_marker = 0
    for ch in m[1:]:
        if ch.isdigit():
            tiles.append(_code(m[0], ch))
            if called is not None:
                after_marker += 1
        elif ch in _MARKERS and called is None and tiles:
            called = len(tiles) - 1
            offset = _MARKERS[ch]
        else:
            raise _Bad(f'{shown(m)} is not a Majiang call')
    return _Meld(tuple(tiles), called, offset, called == 2 and after_marker == 1 and len(tiles) == 4)


def _int(x: Any, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise _Bad(f"{what} is {shown(x)}, not an integer")
    bad = range_error(x, what)
    if bad:
        raise _Bad(bad)
    return x


def _ints4(x: Any, what: str) -> list[int]:
    if not isinstance(x, list) or len(x) != 4:
        raise _Bad(f"{what} is not a list of 4 numbers")
    return [_int(v, what) for v in x]


def _body(ev: Any) -> tuple[str, dict[str, Any]]:
    if not isinstance(ev, dict) or len(ev) != 1:
        raise _Bad(f"event {str(ev)[:60]} is not a single-key object")
    ((name, body),) = ev.items()
    if not isinstance(body, dict):
        raise _Bad(f"event {name} has no body object")
    return name, body


@dataclass(slots=True)
class _Hand:
    record: HandRecord
    base: int  # player index of l = 0 (this hand's dealer)
    hands: list[list[int]]
    last_draw: list[int | None] = field(default_factory=lambda: [None] * 4)
    riichi: list[bool] = field(default_factory=lambda: [False] * 4)
    rinshan: list[bool] = field(default_factory=lambda: [False] * 4)
    pending_riichi: int | None = None  # seat whose riichi discard waits for acceptance
    last_tile: int | None = None
    last_from: int | None = None
    dora: list[int] = field(default_factory=list)
    ended: bool = False


class _Parser:
    def __init__(self, path: str) -> None:
        self.path = path
        self.qijia = 0
        self.st: _Hand | None = None
        self.hands: list[HandRecord] = []

    def seat(self, st: _Hand, body: dict[str, Any]) -> int:
        lv = _int(body.get("l"), '"l"')
        if not 0 <= lv < 4:
            raise _Bad(f'"l" = {lv} is not 0..3')
        return (st.base + lv) % 4

    def by_l(self, st: _Hand, vals: list[int]) -> tuple[int, ...]:
        out = [0] * 4
        for lv, v in enumerate(vals):
            out[(st.base + lv) % 4] = v
        return tuple(out)

    def take(self, st: _Hand, seat: int, tile: int, what: str) -> None:
        try:
            st.hands[seat].remove(tile)
        except ValueError:
            raise _Bad(f"player {seat} {what} a tile ({tile}) that is not in its hand") from None

    def accept_riichi(self, st: _Hand) -> None:
        if st.pending_riichi is not None:
            st.record.events.append(RiichiAccepted(st.pending_riichi))
            st.pending_riichi = None

    # -- events ----------------------------------------------------------------------------------

    def qipai(self, b: dict[str, Any]) -> None:
        wind = _int(b.get("zhuangfeng"), "zhuangfeng")
        jushu = _int(b.get("jushu"), "jushu")
        honba = _int(b.get("changbang"), "changbang")
        sticks = _int(b.get("lizhibang"), "lizhibang")
        if not (0 <= wind < 4 and 0 <= jushu < 4 and 0 <= honba <= COUNT_LIMIT and 0 <= sticks <= COUNT_LIMIT):
            raise _Bad("zhuangfeng / jushu / changbang / lizhibang out of range")
        base = (self.qijia + jushu) % 4
        defen = _ints4(b.get("defen"), "qipai defen")
        shoupai = b.get("shoupai")
        if not isinstance(shoupai, list) or len(shoupai) != 4:
            raise _Bad("qipai shoupai is not 4 hands")
        haipai: list[tuple[int, ...]] = [()] * 4
        for lv, s in enumerate(shoupai):
            tiles = _concealed(s)
            if len(tiles) != 13:
                raise _Bad(f"starting hand of l={lv} has {len(tiles)} tiles, expected 13")
            haipai[(base + lv) % 4] = tuple(tiles)
        dora = tile_code(b.get("baopai"))
        scores = [0] * 4
        for lv, v in enumerate(defen):
            scores[(base + lv) % 4] = v
        record = HandRecord(
            round_wind=wind,
            hand_number=jushu,
            honba=honba,
            sticks=sticks,
            dealer=base,
            scores=tuple(scores),
            dora_indicators=(dora,),
            haipai=tuple(haipai),
        )
        self.hands.append(record)
        self.st = _Hand(record=record, base=base, hands=[list(h) for h in haipai], dora=[dora])

    def draw(self, st: _Hand, b: dict[str, Any], rinshan: bool) -> None:
        self.accept_riichi(st)
        seat = self.seat(st, b)
        if rinshan != st.rinshan[seat]:
            raise _Bad(
                "gangzimo without a kan" if rinshan else f"player {seat} draws normally right after a kan"
            )
        st.rinshan[seat] = False
        t = tile_code(b.get("p"))
        st.hands[seat].append(t)
        st.last_draw[seat] = t
        st.record.events.append(Draw(seat, t, rinshan))

    def dapai(self, st: _Hand, b: dict[str, Any]) -> None:
        self.accept_riichi(st)
        seat = self.seat(st, b)
        p = b.get("p")
        t = tile_code(p)
        assert isinstance(p, str)
        flags = p[2:]
        if any(c not in "_*" for c in flags):
            raise _Bad(f'discard {shown(p)} has an unknown suffix')
        tsumogiri = "_" in flags
        riichi = "*" in flags
        if tsumogiri and st.last_draw[seat] != t:
            raise _Bad(f'player {seat} discards {shown(p)} as tsumogiri but did not just draw it')
        self.take(st, seat, t, "discards")
        st.last_draw[seat] = None
        st.last_tile, st.last_from = t, seat
        if riichi:
            st.riichi[seat] = True
            st.pending_riichi = seat
        st.record.events.append(Discard(seat, t, tsumogiri, riichi))

    def fulou(self, st: _Hand, b: dict[str, Any]) -> None:
        self.accept_riichi(st)
        seat = self.seat(st, b)
        m = _parse_meld(b.get("m"))
        if m.called is None or len(m.tiles) not in (3, 4):
            raise _Bad(f'fulou {shown(b.get("m"))} is not a chi, pon or daiminkan')
        frm = (seat + m.offset) % 4
        t = m.tiles[m.called]
        if st.last_from != frm or st.last_tile != t:
            raise _Bad(f'fulou {shown(b.get("m"))} takes a tile that player {frm} did not just discard')
        kinds = sorted(c & ~RED for c in m.tiles)
        if len(set(kinds)) == 1:
            kind = CallKind.PON if len(m.tiles) == 3 else CallKind.DAIMINKAN
        elif len(m.tiles) == 3 and kinds[0] < 27 and kinds == [kinds[0], kinds[0] + 1, kinds[0] + 2]:
            kind = CallKind.CHI
            if m.offset != 3:
                raise _Bad(f'chi {shown(b.get("m"))} not from the kamicha')
        else:
            raise _Bad(f'fulou {shown(b.get("m"))} is not a chi, pon or daiminkan')
        consumed = m.tiles[: m.called] + m.tiles[m.called + 1 :]
        for c in consumed:
            self.take(st, seat, c, f"calls {kind.value} with")
        st.last_draw[seat] = None
        st.last_tile = st.last_from = None
        if kind == CallKind.DAIMINKAN:
            st.rinshan[seat] = True
        st.record.events.append(Call(seat, kind, t, consumed, from_seat=frm))

    def gang(self, st: _Hand, b: dict[str, Any]) -> None:
        self.accept_riichi(st)
        seat = self.seat(st, b)
        m = _parse_meld(b.get("m"))
        if len(m.tiles) != 4 or len({c & ~RED for c in m.tiles}) != 1:
            raise _Bad(f'gang {shown(b.get("m"))} is not four of one tile')
        if m.called is None:
            for c in m.tiles:
                self.take(st, seat, c, "calls ankan with")
            plain = [c for c in m.tiles if not c & RED]
            ev = Call(seat, CallKind.ANKAN, plain[0] if plain else m.tiles[0], m.tiles)
            st.last_tile = m.tiles[0]
        elif m.added:
            added = m.tiles[-1]
            self.take(st, seat, added, "calls kakan with")
            ev = Call(seat, CallKind.KAKAN, added, (added,))
            st.last_tile = added
        else:
            raise _Bad(f'gang {shown(b.get("m"))} is neither an ankan nor a kakan')
        st.last_from = seat
        st.last_draw[seat] = None
        st.rinshan[seat] = True
        st.record.events.append(ev)

    def kaigang(self, st: _Hand, b: dict[str, Any]) -> None:
        t = tile_code(b.get("baopai"))
        st.dora.append(t)
        st.record.events.append(NewDora(t))

    def hule(self, st: _Hand, b: dict[str, Any]) -> None:
        seat = self.seat(st, b)
        baojia = b.get("baojia")
        if baojia is None:
            frm = seat
        else:
            bl = _int(baojia, "baojia")
            if not 0 <= bl < 4:
                raise _Bad(f"baojia = {bl} is not 0..3")
            frm = (st.base + bl) % 4
        hand = list(st.hands[seat])
        if frm == seat:
            tile = st.last_draw[seat]
            if tile is None:
                raise _Bad(f"player {seat} wins by tsumo but did not just draw")
        else:
            if st.last_from != frm or st.last_tile is None:
                raise _Bad(
                    f"player {seat} wins by ron from player {frm}, whose tile was not the last one played"
                )
            tile = st.last_tile
            hand.append(tile)
            if st.pending_riichi == frm:  # the riichi discard was ronned: no deposit
                st.pending_riichi = None
        self.accept_riichi(st)
        deltas = self.by_l(st, _ints4(b.get("fenpei"), "fenpei"))
        yaku: list[tuple[str, int]] = []
        hupai = b.get("hupai")
        if not isinstance(hupai, list):
            raise _Bad("hule has no hupai list")
        for y in hupai:
            if not isinstance(y, dict) or not isinstance(y.get("name"), str):
                raise _Bad(f"hupai entry {shown(y)} has no name")
            f = y.get("fanshu")
            if isinstance(f, str) and f and set(f) == {"*"}:
                yaku.append((y["name"], 13 * len(f)))
            else:
                yaku.append((y["name"], _int(f, f"fanshu of {y['name']}")))
        ura_raw = b.get("fubaopai")
        ura = tuple(tile_code(p) for p in ura_raw) if isinstance(ura_raw, list) else ()
        fu, han, pts, dm = b.get("fu"), b.get("fanshu"), b.get("defen"), b.get("damanguan")
        yakuman = dm if isinstance(dm, int) and not isinstance(dm, bool) else 0
        st.record.events.append(
            Win(
                seat=seat,
                from_seat=frm,
                win_tile=tile,
                deltas=deltas,
                hand=tuple(sorted(hand, key=lambda c: (c & ~RED, c))),
                ura_indicators=ura,
                dora_indicators=tuple(st.dora),
                fu=fu if isinstance(fu, int) else None,
                han=han if isinstance(han, int) else sum(h for _, h in yaku),
                points=pts if isinstance(pts, int) else None,
                yakuman=yakuman,
                yaku=tuple(yaku),
            )
        )
        st.ended = True

    def pingju(self, st: _Hand, b: dict[str, Any]) -> None:
        name = b.get("name")
        if not isinstance(name, str) or name not in _DRAWS:
            raise _Bad(f"unknown pingju name {shown(name)}")
        kind = _DRAWS[name]
        if kind == DrawKind.TRIPLE_RON:
            st.pending_riichi = None  # the discard was (triple-)ronned
        self.accept_riichi(st)
        deltas = self.by_l(st, _ints4(b.get("fenpei"), "fenpei")) if "fenpei" in b else (0, 0, 0, 0)
        tenpai: tuple[int, ...] | None = None
        shoupai = b.get("shoupai")
        if (
            kind in (DrawKind.EXHAUSTIVE, DrawKind.NAGASHI)
            and isinstance(shoupai, list)
            and len(shoupai) == 4
        ):
            tenpai = tuple(sorted((st.base + lv) % 4 for lv in range(4) if shoupai[lv]))
        st.record.events.append(HandDraw(kind, deltas, tenpai))
        st.ended = True

    # -- driver ----------------------------------------------------------------------------------

    def run(self, obj: Any) -> GameRecord:
        if not isinstance(obj, dict):
            raise _Bad(f"the game is {json_kind(obj)}, not a JSON object")
        players = obj.get("player")
        if not isinstance(players, list) or len(players) != 4:
            raise _Bad('"player" is not a list of 4 names')
        self.qijia = _int(obj.get("qijia"), '"qijia"')
        if not 0 <= self.qijia < 4:
            raise _Bad(f'"qijia" = {self.qijia} is not 0..3')
        log = obj.get("log")
        if not isinstance(log, list) or not log:
            raise _Bad('"log" is not a non-empty list of hands')
        handlers = {
            "zimo": lambda st, b: self.draw(st, b, False),
            "gangzimo": lambda st, b: self.draw(st, b, True),
            "dapai": self.dapai,
            "fulou": self.fulou,
            "gang": self.gang,
            "kaigang": self.kaigang,
            "hule": self.hule,
            "pingju": self.pingju,
        }
        for hi, hand in enumerate(log):
            try:
                if not isinstance(hand, list) or not hand:
                    raise _Bad("is not a non-empty list of events")
                for ei, ev in enumerate(hand):
                    try:
                        name, body = _body(ev)
                        if ei == 0:
                            if name != "qipai":
                                raise _Bad("the hand does not start with qipai")
                            self.qipai(body)
                            continue
                        st = self.st
                        assert st is not None
                        if name == "qipai":
                            raise _Bad("qipai in the middle of a hand")
                        handler = handlers.get(name)
                        if handler is None:
                            raise _Bad(f'unknown event {shown(name)}')
                        if st.ended and not (name == "hule" and isinstance(st.record.events[-1], Win)):
                            raise _Bad(f"{name} after the hand ended")
                        handler(st, body)
                    except _Bad as e:
                        raise _Bad(f"event {ei + 1}: {e}") from None
                assert self.st is not None
                if not self.st.ended:
                    raise _Bad("does not end with hule or pingju (truncated?)")
            except _Bad as e:
                raise _Bad(f"hand {hi + 1} {e}") from None
        final_scores: tuple[int, ...] | None = None
        final_results: tuple[float, ...] | None = None
        if obj.get("defen") is not None:
            final_scores = tuple(_ints4(obj["defen"], '"defen"'))
        point = obj.get("point")
        if isinstance(point, list) and len(point) == 4:
            # written as strings ("-22", "+31.5"): ASCII numbers only, so no "nan", "1e999" or "٣"
            if not all(
                (isinstance(x, str) and _POINT_RE.fullmatch(x)) or (isinstance(x, int | float) and not isinstance(x, bool))
                for x in point
            ):
                raise _Bad(f'"point" {shown(point)} is not 4 numbers')
            final_results = tuple(float(x) for x in point)
            if any(abs(v) > POINTS_LIMIT for v in final_results):
                raise _Bad(f'"point" {shown(point)} has a number outside ±{POINTS_LIMIT:,}')
        return GameRecord(
            path=self.path,
            format="majiang",
            rules=RuleInfo(
                players=4, red_fives=True, kuitan=True, hanchan=True, start_points=25000, source="majiang"
            ),
            names=tuple(str(p) for p in players),
            hands=self.hands,
            final_scores=final_scores,
            final_results=final_results,
            complete=final_scores is not None,
        )


def parse_majiang(obj: dict[str, Any], path: str = "") -> GameRecord:
    """Parse one Majiang paipu object. Raises LogFormatError on bad input."""
    where = path or "<majiang>"
    try:
        return _Parser(where).run(obj)
    except _Bad as e:
        raise LogFormatError(f"{where}: {e}") from None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, ArithmeticError, RecursionError) as e:
        # defensive: never leak
        raise LogFormatError(f"{where}: malformed Majiang data (an entry the importer did not expect: {shown(str(e), 60)})") from None


def load_majiang(path: str | Path) -> list[GameRecord]:
    """Read one Majiang paipu file: one game object, or a JSON array of game objects."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise LogFormatError(f"{path}: not UTF-8 text, so not a Majiang log") from None
    except OSError as e:
        raise LogFormatError(f"{path}: cannot be read ({e.strerror or e})") from None
    try:
        obj = load_json(text, str(path))
    except json.JSONDecodeError as e:
        raise LogFormatError(
            f"{path}: not valid JSON (truncated or corrupt) at line {e.lineno}, column {e.colno}: {e.msg}"
        ) from None
    if isinstance(obj, list):
        return [parse_majiang(o, f"{path}[{i}]") for i, o in enumerate(obj)]
    return [parse_majiang(obj, str(path))]

"""Tenhou mjlog XML importer (``<mjloggm ver="2.3">``), see shared/data/logs/README.md section A.

:func:`parse_tenhou_xml` turns one file into a format-neutral :class:`~engine.logs.record.GameRecord`;
:func:`iter_agari` returns every ``AGARI`` element with the context a scorer needs (winds, dealer,
honba, kita count, riichi, the winner's decoded melds), for scoring checks.

Everything here is pure: only :func:`load_tenhou_xml` reads a file. Any malformed, truncated or
inconsistent input raises :class:`~engine.logs.record.LogFormatError` with a one-sentence message
naming the file and the problem.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict
from urllib.parse import unquote

from engine.logs.limits import COUNT_LIMIT, POINTS_LIMIT, check_xml, shown
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

__all__ = [
    "AgariContext",
    "TenhouMeld",
    "decode_meld",
    "iter_agari",
    "load_tenhou_xml",
    "parse_tenhou_xml",
    "parse_with_agari",
    "tile_code",
]

# numbers as Tenhou writes them: ASCII digits only (int() would also take '٣' or thousands of digits)
_INT_RE = re.compile(r"-?[0-9]{1,12}")
_FLOAT_RE = re.compile(r"-?[0-9]{1,12}(?:\.[0-9]{1,6})?")
_TAG_NUMBER_RE = re.compile(r"[0-9]{1,3}")
_LOG_ID = re.compile(r"\d{10}gm-([0-9a-f]{4})-\d{4}-[0-9a-f]{8}")

# GO type bits (README section A)
_HUMAN = 0x01
_NO_RED = 0x02
_NO_KUITAN = 0x04
_HANCHAN = 0x08
_SANMA = 0x10
_STANDARD_BITS = 0x1000 | 0x40 | 0x20 | 0x80 | 0x10 | 0x8 | 0x4 | 0x2 | 0x1
_RED_IDS = frozenset((16, 52, 88))
_NORTH = 30

# draw / discard element letters -> (is a draw, seat)
_TILE_TAGS: dict[str, tuple[bool, int]] = {
    **{c: (True, i) for i, c in enumerate("TUVW")},
    **{c: (False, i) for i, c in enumerate("DEFG")},
}

_DRAW_KINDS: dict[str, DrawKind] = {
    "": DrawKind.EXHAUSTIVE,
    "yao9": DrawKind.NINE_TERMINALS,
    "kaze4": DrawKind.FOUR_WINDS,
    "reach4": DrawKind.FOUR_RIICHI,
    "ron3": DrawKind.TRIPLE_RON,
    "kan4": DrawKind.FOUR_KANS,
    "nm": DrawKind.NAGASHI,
}


@dataclass(frozen=True, slots=True)
class TenhouMeld:
    """A decoded ``m`` code. ``tiles`` are Tenhou ids (0..135) of every tile in the meld.

    ``called`` is the id taken from another player (chi/pon/daiminkan, and for kakan the tile of the
    original pon), ``added`` the tile added by a kakan (or the kita tile), ``from_offset`` the
    ``m & 3`` offset of the player the tile came from (0 for ankan/kita).
    """

    kind: CallKind
    tiles: tuple[int, ...]
    called: int | None
    added: int | None
    from_offset: int


@dataclass(frozen=True, slots=True)
class _RawMeld:
    """Internal: a meld with the tiles taken from the caller's hand."""

    meld: TenhouMeld
    consumed: tuple[int, ...]


class AgariContext(TypedDict):
    """One ``AGARI`` element with its hand's context (all tiles as tile codes unless named ``*_ids``)."""

    index: int  # 0-based index of this AGARI in the file
    hand_index: int  # 0-based index of its hand (INIT) in the file
    attrs: dict[str, str]  # the raw AGARI attributes
    players: int
    red_fives: bool
    round_wind: int  # 0 East, 1 South, 2 West, 3 North
    hand_number: int
    dealer: int
    seat_winds: tuple[int, ...]  # seat wind of every seat: 0 East (dealer) .. 3 North
    honba: int  # from INIT
    sticks: int  # riichi sticks on the table at the start of the hand (INIT)
    ba_honba: int  # from the AGARI's ``ba`` (a double ron's second winner may show other values)
    ba_sticks: int
    who: int
    from_who: int
    tsumo: bool
    kita: int  # the winner's kita (北抜き) count in this hand
    riichi: bool  # the winner declared riichi in this hand (REACH step=1)
    double_riichi: bool  # ... on its first discard, with no call before it in the hand
    melds: list[TenhouMeld]  # the winner's melds from the AGARI's ``m`` (kita included), in order
    hand: list[int]  # concealed tiles including the winning tile
    hand_ids: list[int]
    win_tile: int
    win_tile_id: int
    dora_indicators: list[int]
    ura_indicators: list[int]
    fu: int
    points: int
    limit: int
    yaku: list[tuple[int, int]]  # (tenhou id, han) as recorded, 0-han entries included
    yakuman: list[int]  # tenhou yakuman ids (each worth one yakuman)
    pao_who: int | None


def tile_code(tile_id: int, red_fives: bool = True) -> int:
    """Tenhou physical id (0..135) -> tile code (kind, with RED for 16/52/88 when red fives are on)."""
    kind = tile_id // 4
    if red_fives and tile_id in _RED_IDS:
        return kind | RED
    return kind


def decode_meld(m: int) -> TenhouMeld:
    """Decode a Tenhou ``m`` meld code (README section A). Raises ValueError on an impossible code."""
    if m < 0:
        raise ValueError(f"meld code {m} is negative")
    offset = m & 3
    if m & 0x4:  # chi
        t = m >> 10
        called = t % 3
        t //= 3
        if t >= 21:
            raise ValueError(f"chi code {m} names no sequence")
        base = (t // 7) * 9 + t % 7
        tiles: tuple[int, ...] = (
            base * 4 + ((m >> 3) & 3),
            (base + 1) * 4 + ((m >> 5) & 3),
            (base + 2) * 4 + ((m >> 7) & 3),
        )
        return TenhouMeld(CallKind.CHI, tiles, tiles[called], None, offset)
    if m & 0x18:  # pon (0x8) or kakan (0x10)
        unused = (m >> 5) & 3
        t = m >> 9
        called = t % 3
        base = t // 3
        if base >= 34:
            raise ValueError(f"pon code {m} names no tile")
        pon = tuple(base * 4 + i for i in range(4) if i != unused)
        if m & 0x8:
            return TenhouMeld(CallKind.PON, pon, pon[called], None, offset)
        added = base * 4 + unused
        return TenhouMeld(CallKind.KAKAN, tuple(sorted((*pon, added))), pon[called], added, offset)
    if m & 0x20:  # kita
        hai = m >> 8
        if hai > 135:
            raise ValueError(f"kita code {m} names no tile")
        return TenhouMeld(CallKind.KITA, (hai,), None, hai, 0)
    hai = m >> 8
    if hai > 135:
        raise ValueError(f"kan code {m} names no tile")
    base = hai // 4
    tiles = tuple(base * 4 + i for i in range(4))
    if offset == 0:
        return TenhouMeld(CallKind.ANKAN, tiles, None, None, 0)
    return TenhouMeld(CallKind.DAIMINKAN, tiles, hai, None, offset)


def _consumed(meld: TenhouMeld) -> tuple[int, ...]:
    """Ids the caller takes from its own hand."""
    if meld.kind in (CallKind.CHI, CallKind.PON, CallKind.DAIMINKAN):
        return tuple(t for t in meld.tiles if t != meld.called)
    if meld.kind == CallKind.ANKAN:
        return meld.tiles
    assert meld.added is not None  # kakan, kita
    return (meld.added,)


# ----------------------------------------------------------------------------------------------
# parsing state


@dataclass(slots=True)
class _HandState:
    record: HandRecord
    index: int
    players: int
    hands: list[list[int]]  # each seat's concealed tile ids (for validation)
    just_drew: list[int | None]
    pending_riichi: list[bool]
    pending_rinshan: list[bool]
    riichi: list[bool]
    double_riichi: list[bool]
    discards: list[int]
    kita: list[int]
    any_call: bool = False
    ended: bool = False
    wins: int = 0


class _Parser:
    def __init__(self, path: str) -> None:
        self.path = path or "<string>"
        self.players = 4
        self.players_known = False
        self.logid_type: int | None = None
        self.red_fives = True
        self.kuitan = True
        self.hanchan = True
        self.reasons: list[str] = []
        self.names: list[str | None] = [None] * 4
        self.hands: list[HandRecord] = []
        self.state: _HandState | None = None
        self.wins: list[AgariContext] = []
        self.final_scores: tuple[int, ...] | None = None
        self.final_results: tuple[float, ...] | None = None
        self.start_points: int | None = None
        self.element_no = 0
        self.tag = ""
        self.code_table: list[int] = [tile_code(t, True) for t in range(136)]

    # -- helpers -----------------------------------------------------------------------------

    def fail(self, what: str) -> LogFormatError:
        return LogFormatError(f"{self.path}: element {self.element_no} <{self.tag}>: {what}")

    def nonstandard(self, why: str) -> None:
        if why not in self.reasons:
            self.reasons.append(why)

    def int_attr(self, el: ET.Element, name: str, default: int | None = None) -> int:
        raw = el.get(name)
        if raw is None:
            if default is not None:
                return default
            raise self.fail(f"missing attribute '{name}'")
        if not _INT_RE.fullmatch(raw):
            raise self.fail(f"attribute {name}={shown(raw)} is not an integer of at most 12 digits")
        value = int(raw)
        if not -POINTS_LIMIT <= value <= POINTS_LIMIT:
            raise self.fail(f"attribute {name}={value} is outside ±{POINTS_LIMIT:,}")
        return value

    def int_list(self, el: ET.Element, name: str, *, required: bool = True) -> list[int]:
        raw = el.get(name)
        if raw is None:
            if required:
                raise self.fail(f"missing attribute '{name}'")
            return []
        if raw.strip() == "":
            return []
        parts = raw.split(",")
        if not all(_INT_RE.fullmatch(x) for x in parts):
            raise self.fail(f"attribute {name}={shown(raw)} is not a list of integers of at most 12 digits")
        values = [int(x) for x in parts]
        if any(not -POINTS_LIMIT <= v <= POINTS_LIMIT for v in values):
            raise self.fail(f"attribute {name}={shown(raw)} has a number outside ±{POINTS_LIMIT:,}")
        return values

    def float_list(self, el: ET.Element, name: str) -> list[float]:
        raw = el.get(name, "")
        try:
            vals = [float(x) for x in raw.split(",") if _FLOAT_RE.fullmatch(x)]
        except ValueError:
            vals = []
        if not vals or len(vals) != raw.count(",") + 1 or not all(abs(v) <= POINTS_LIMIT for v in vals):
            raise self.fail(f"attribute {name}={shown(raw)} is not a list of numbers")
        return vals

    def tile_ids(self, el: ET.Element, name: str, *, required: bool = True) -> list[int]:
        ids = self.int_list(el, name, required=required)
        for t in ids:
            self.check_id(t)
        return ids

    def check_id(self, t: int) -> None:
        if not 0 <= t <= 135:
            raise self.fail(f"tile id {t} is outside 0..135")

    def code(self, t: int) -> int:
        return self.code_table[t]

    def codes(self, ids: list[int] | tuple[int, ...]) -> tuple[int, ...]:
        table = self.code_table
        return tuple(table[t] for t in ids)

    def seat(self, el: ET.Element, name: str = "who") -> int:
        s = self.int_attr(el, name)
        if not 0 <= s < self.players:
            raise self.fail(f"{name}={s} is not a seat of a {self.players}-player game")
        return s

    def hand(self) -> _HandState:
        if self.state is None:
            raise self.fail("game action before the first <INIT>")
        if self.state.ended:
            raise self.fail("game action after the hand ended (missing <INIT>)")
        return self.state

    def take(self, st: _HandState, seat: int, t: int, what: str) -> None:
        try:
            st.hands[seat].remove(t)
        except ValueError:
            raise self.fail(f"seat {seat} {what} tile id {t}, which is not in its hand") from None

    def scores_deltas(self, el: ET.Element) -> tuple[tuple[int, ...], tuple[int, ...]]:
        sc = self.int_list(el, "sc")
        if len(sc) == 16:
            self.nonstandard("16-number sc (chip lobby)")
        elif len(sc) != 8:
            raise self.fail(f"sc has {len(sc)} numbers, expected 8")
        before = tuple(sc[2 * i] * 100 for i in range(self.players))
        deltas = tuple(sc[2 * i + 1] * 100 for i in range(self.players))
        return before, deltas

    def owari(self, el: ET.Element) -> None:
        if el.get("owari") is None:
            return
        vals = self.float_list(el, "owari")
        if len(vals) < 2 * self.players:
            raise self.fail(f"owari has {len(vals)} numbers, expected {2 * self.players}")
        if len(vals) == 16:
            self.nonstandard("16-number owari (chip lobby)")
        self.final_scores = tuple(round(vals[2 * i] * 100) for i in range(self.players))
        self.final_results = tuple(vals[2 * i + 1] for i in range(self.players))

    def check_special_attrs(self, el: ET.Element) -> None:
        for name in ("chip", "ratio", "rule", "csrule"):
            if el.get(name) is not None:
                self.nonstandard(f"'{name}' attribute on <{el.tag}>")

    # -- elements ----------------------------------------------------------------------------

    def go(self, el: ET.Element) -> None:
        t = self.int_attr(el, "type")
        if self.logid_type is not None and (self.logid_type ^ t) & (_HANCHAN | _SANMA):
            t = (t & ~(_HANCHAN | _SANMA)) | (self.logid_type & (_HANCHAN | _SANMA))
        self.players = 3 if t & _SANMA else 4
        self.players_known = True
        self.red_fives = not t & _NO_RED
        self.kuitan = not t & _NO_KUITAN
        self.hanchan = bool(t & _HANCHAN)
        self.code_table = [tile_code(i, self.red_fives) for i in range(136)]
        extra = t & ~_STANDARD_BITS
        if extra:
            self.nonstandard(f"GO type {t} has non-standard lobby bits {extra:#x}")

    def un(self, el: ET.Element) -> None:
        for i in range(4):
            raw = el.get(f"n{i}")
            if raw is not None and self.names[i] is None:
                self.names[i] = unquote(raw)

    def init(self, el: ET.Element) -> None:
        if self.state is not None and not self.state.ended:
            raise self.fail("new hand starts before the previous one ended")
        seed = self.int_list(el, "seed")
        if len(seed) != 6:
            raise self.fail(f"seed has {len(seed)} numbers, expected 6")
        rnd, honba, sticks, _d0, _d1, dora = seed
        self.check_id(dora)
        if not self.players_known:  # no GO element: infer from the empty 4th hand
            self.players = 3 if el.get("hai3", "") == "" else 4
            self.players_known = True
        ten = self.int_list(el, "ten")
        if len(ten) < self.players:
            raise self.fail(f"ten has {len(ten)} numbers for {self.players} players")
        oya = self.int_attr(el, "oya")
        if not 0 <= oya < self.players:
            raise self.fail(f"oya={oya} is not a seat of a {self.players}-player game")
        if min(rnd, honba, sticks) < 0:
            raise self.fail(f"seed {shown(el.get('seed'))} has a negative round, honba or stick count")
        if rnd > 15:
            raise self.fail(f"seed {shown(el.get('seed'))}: the round is 0..15 (East 1 to North 4)")
        if max(honba, sticks) > COUNT_LIMIT:
            raise self.fail(f"seed {shown(el.get('seed'))}: honba and sticks must be at most {COUNT_LIMIT}")
        haipai_ids: list[list[int]] = []
        for s in range(self.players):
            ids = self.tile_ids(el, f"hai{s}")
            if len(ids) != 13:
                raise self.fail(f"hai{s} has {len(ids)} tiles, expected 13")
            haipai_ids.append(ids)
        if self.start_points is None:
            self.start_points = ten[0] * 100
        record = HandRecord(
            round_wind=rnd // 4,
            hand_number=rnd % 4,
            honba=honba,
            sticks=sticks,
            dealer=oya,
            scores=tuple(x * 100 for x in ten[: self.players]),
            dora_indicators=(self.code(dora),),
            haipai=tuple(self.codes(h) for h in haipai_ids),
        )
        n = self.players
        self.hands.append(record)
        self.state = _HandState(
            record=record,
            index=len(self.hands) - 1,
            players=n,
            hands=[list(h) for h in haipai_ids],
            just_drew=[None] * n,
            pending_riichi=[False] * n,
            pending_rinshan=[False] * n,
            riichi=[False] * n,
            double_riichi=[False] * n,
            discards=[0] * n,
            kita=[0] * n,
        )

    def draw(self, seat: int, t: int) -> None:
        st = self.state
        if st is None or st.ended:
            st = self.hand()  # raises the right error
        if seat >= self.players:
            raise self.fail(f"draw by seat {seat} in a {self.players}-player game")
        if t > 135:
            raise self.fail(f"tile id {t} is outside 0..135")
        st.hands[seat].append(t)
        st.just_drew[seat] = t
        rinshan = st.pending_rinshan[seat]
        if rinshan:
            st.pending_rinshan[seat] = False
        st.record.events.append(Draw(seat, self.code_table[t], rinshan))

    def discard(self, seat: int, t: int) -> None:
        st = self.state
        if st is None or st.ended:
            st = self.hand()
        if seat >= self.players:
            raise self.fail(f"discard by seat {seat} in a {self.players}-player game")
        if t > 135:
            raise self.fail(f"tile id {t} is outside 0..135")
        hand = st.hands[seat]
        if t not in hand:
            raise self.fail(f"seat {seat} discards tile id {t}, which is not in its hand")
        hand.remove(t)
        tsumogiri = st.just_drew[seat] == t
        st.just_drew[seat] = None
        riichi = st.pending_riichi[seat]
        if riichi:
            st.pending_riichi[seat] = False
            if st.discards[seat] == 0 and not st.any_call:
                st.double_riichi[seat] = True
        st.discards[seat] += 1
        st.record.events.append(Discard(seat, self.code_table[t], tsumogiri, riichi))

    def call(self, el: ET.Element) -> None:
        st = self.hand()
        who = self.seat(el)
        m = self.int_attr(el, "m")
        try:
            meld = decode_meld(m)
        except ValueError as e:
            raise self.fail(str(e)) from None
        consumed = _consumed(meld)
        for t in consumed:
            self.take(st, who, t, f"calls {meld.kind.value} with")
        st.just_drew[who] = None
        code = self.code
        ev: Call
        if meld.kind in (CallKind.CHI, CallKind.PON, CallKind.DAIMINKAN):
            assert meld.called is not None
            # Offsets count seats of a 4-seat table even in sanma (the empty 4th seat included),
            # so the modulus is 4, not the number of players (verified on every 3-player file).
            frm = (who + meld.from_offset) % 4
            if meld.from_offset == 0 or frm >= self.players:
                raise self.fail(
                    f"{meld.kind.value} code {m} claims a tile from no other player (from seat {frm})"
                )
            ev = Call(who, meld.kind, code(meld.called), tuple(code(t) for t in consumed), from_seat=frm)
        elif meld.kind == CallKind.ANKAN:
            ev = Call(who, meld.kind, meld.tiles[0] // 4, tuple(code(t) for t in consumed))
        else:  # kakan, kita
            assert meld.added is not None
            if meld.kind == CallKind.KITA:
                if meld.added // 4 != _NORTH:
                    raise self.fail(f"kita code {m} names a tile that is not North")
                st.kita[who] += 1
            ev = Call(who, meld.kind, code(meld.added), (code(meld.added),))
        st.any_call = True
        if meld.kind in (CallKind.DAIMINKAN, CallKind.ANKAN, CallKind.KAKAN, CallKind.KITA):
            st.pending_rinshan[who] = True
        st.record.events.append(ev)

    def reach(self, el: ET.Element) -> None:
        st = self.hand()
        who = self.seat(el)
        step = self.int_attr(el, "step")
        if step == 1:
            st.pending_riichi[who] = True
            st.riichi[who] = True
        elif step == 2:
            st.record.events.append(RiichiAccepted(who))
        else:
            raise self.fail(f"step={step} is neither 1 nor 2")

    def dora(self, el: ET.Element) -> None:
        st = self.hand()
        t = self.int_attr(el, "hai")
        self.check_id(t)
        st.record.events.append(NewDora(self.code(t)))

    def agari(self, el: ET.Element) -> None:
        st = self.state
        if st is None:
            raise self.fail("win before the first <INIT>")
        if st.ended and not (st.wins and isinstance(st.record.events[-1], Win)):
            raise self.fail("win after the hand ended (missing <INIT>)")
        who = self.seat(el)
        frm = self.seat(el, "fromWho")
        _, deltas = self.scores_deltas(el)
        hai = self.tile_ids(el, "hai")
        machi = self.int_attr(el, "machi")
        self.check_id(machi)
        if machi not in hai:
            raise self.fail(f"winning tile {machi} is not in the winner's hand")
        ten = self.int_list(el, "ten")
        if len(ten) != 3:
            raise self.fail(f"ten has {len(ten)} numbers, expected fu,points,limit")
        yaku_flat = self.int_list(el, "yaku", required=False)
        if len(yaku_flat) % 2:
            raise self.fail("yaku has an odd number of values")
        yaku = [(yaku_flat[i], yaku_flat[i + 1]) for i in range(0, len(yaku_flat), 2)]
        yakuman = self.int_list(el, "yakuman", required=False)
        dora = self.tile_ids(el, "doraHai")
        ura = self.tile_ids(el, "doraHaiUra", required=False)
        ba = self.int_list(el, "ba")
        if len(ba) != 2:
            raise self.fail(f"ba has {len(ba)} numbers, expected 2")
        pao = self.seat(el, "paoWho") if el.get("paoWho") is not None else None
        melds: list[TenhouMeld] = []
        for m in self.int_list(el, "m", required=False):
            try:
                melds.append(decode_meld(m))
            except ValueError as e:
                raise self.fail(str(e)) from None
        pairs: tuple[tuple[str, int], ...]
        if yakuman:
            pairs = tuple((str(y), 13) for y in yakuman)
        else:
            pairs = tuple((str(y), h) for y, h in yaku)
        win = Win(
            seat=who,
            from_seat=frm,
            win_tile=self.code(machi),
            deltas=deltas,
            hand=self.codes(hai),
            ura_indicators=self.codes(ura),
            dora_indicators=self.codes(dora),
            fu=ten[0],
            han=sum(h for _, h in pairs),
            points=ten[1],
            yakuman=len(yakuman),
            yaku=pairs,
            pao_seat=pao,
        )
        st.record.events.append(win)
        st.ended = True
        st.wins += 1
        r = st.record
        self.wins.append(
            AgariContext(
                index=len(self.wins),
                hand_index=st.index,
                attrs=dict(el.attrib),
                players=self.players,
                red_fives=self.red_fives,
                round_wind=r.round_wind,
                hand_number=r.hand_number,
                dealer=r.dealer,
                seat_winds=tuple((s - r.dealer) % self.players for s in range(self.players)),
                honba=r.honba,
                sticks=r.sticks,
                ba_honba=ba[0],
                ba_sticks=ba[1],
                who=who,
                from_who=frm,
                tsumo=who == frm,
                kita=st.kita[who],
                riichi=st.riichi[who],
                double_riichi=st.double_riichi[who],
                melds=melds,
                hand=list(self.codes(hai)),
                hand_ids=hai,
                win_tile=self.code(machi),
                win_tile_id=machi,
                dora_indicators=list(self.codes(dora)),
                ura_indicators=list(self.codes(ura)),
                fu=ten[0],
                points=ten[1],
                limit=ten[2],
                yaku=yaku,
                yakuman=yakuman,
                pao_who=pao,
            )
        )
        self.owari(el)

    def ryuukyoku(self, el: ET.Element) -> None:
        st = self.hand()
        kind_raw = el.get("type", "")
        kind = _DRAW_KINDS.get(kind_raw)
        if kind is None:
            raise self.fail(f'unknown draw type "{kind_raw}"')
        _, deltas = self.scores_deltas(el)
        tenpai: tuple[int, ...] | None = None
        shown = tuple(s for s in range(self.players) if el.get(f"hai{s}") is not None)
        for s in shown:
            self.tile_ids(el, f"hai{s}")
        if kind in (DrawKind.EXHAUSTIVE, DrawKind.NAGASHI):
            tenpai = shown
        st.record.events.append(HandDraw(kind, deltas, tenpai))
        st.ended = True
        self.owari(el)

    # -- driver ------------------------------------------------------------------------------

    def run(self, text: str) -> GameRecord:
        # A Tenhou log id ("2017030413gm-0009-…", in a comment or the file name) carries the lobby
        # type in hex. Some archived copies rewrote <GO type>; the id is the better witness.
        m = _LOG_ID.search(text[:2000]) or _LOG_ID.search(self.path)
        self.logid_type = int(m.group(1), 16) if m else None
        check_xml(text, self.path)
        try:
            root = ET.fromstring(text)
        except ET.ParseError as e:
            line, col = e.position
            raise LogFormatError(
                f"{self.path}: not well-formed XML (truncated or corrupt) at line {line}, column {col + 1}"
            ) from None
        if root.tag != "mjloggm":
            raise LogFormatError(f"{self.path}: root element is <{root.tag}>, not a Tenhou <mjloggm> log")
        dispatch = {
            "GO": self.go,
            "UN": self.un,
            "INIT": self.init,
            "N": self.call,
            "REACH": self.reach,
            "DORA": self.dora,
            "AGARI": self.agari,
            "RYUUKYOKU": self.ryuukyoku,
        }
        tile_tags = _TILE_TAGS
        for i, el in enumerate(root):
            tag = el.tag
            self.element_no = i + 1
            self.tag = tag
            spec = tile_tags.get(tag[:1])
            if spec is not None and _TAG_NUMBER_RE.fullmatch(tag, 1):
                if spec[0]:
                    self.draw(spec[1], int(tag[1:]))
                else:
                    self.discard(spec[1], int(tag[1:]))
                continue
            if el.attrib:
                self.check_special_attrs(el)
            handler = dispatch.get(tag)
            if handler is not None:
                handler(el)
            # SHUFFLE, TAIKYOKU, BYE and unknown elements carry nothing the record needs
        if self.state is None:
            raise LogFormatError(f"{self.path}: no hand (<INIT>) found in the log")
        n = self.players
        names = tuple(self.names[i] or "" for i in range(n))
        rules = RuleInfo(
            players=n,
            red_fives=self.red_fives,
            kuitan=self.kuitan,
            hanchan=self.hanchan,
            start_points=self.start_points if self.start_points is not None else (35000 if n == 3 else 25000),
            standard=not self.reasons,
            why_nonstandard="; ".join(self.reasons),
            source="tenhou",
        )
        complete = self.state.ended and self.final_scores is not None
        return GameRecord(
            path=self.path,
            format="tenhou_xml",
            rules=rules,
            names=names,
            hands=self.hands,
            final_scores=self.final_scores,
            final_results=self.final_results,
            complete=complete,
        )


def parse_tenhou_xml(text: str, path: str = "") -> GameRecord:
    """Parse the text of one Tenhou mjlog XML file. Raises LogFormatError on bad input."""
    return _run(_Parser(path), text)


def _run(p: _Parser, text: str) -> GameRecord:
    try:
        return p.run(text)
    except LogFormatError:
        raise
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, ArithmeticError, RecursionError) as e:
        # defensive: never leak
        where = p.path or "<tenhou xml>"
        raise LogFormatError(f"{where}: malformed Tenhou XML (an entry the importer did not expect: {shown(str(e), 60)})") from None


def iter_agari(text: str, path: str = "") -> list[AgariContext]:
    """Every ``AGARI`` of a file, in order, with its hand's context (see :class:`AgariContext`)."""
    return parse_with_agari(text, path)[1]


def parse_with_agari(text: str, path: str = "") -> tuple[GameRecord, list[AgariContext]]:
    """:func:`parse_tenhou_xml` and :func:`iter_agari` in one pass."""
    p = _Parser(path)
    rec = _run(p, text)
    return rec, p.wins


def load_tenhou_xml(path: str | Path) -> GameRecord:
    """Read and parse one file. Unreadable or non-UTF-8 files raise LogFormatError too."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise LogFormatError(f"{path}: not UTF-8 text, so not a Tenhou XML log") from None
    except OSError as e:
        raise LogFormatError(f"{path}: cannot be read ({e.strerror or e})") from None
    return parse_tenhou_xml(text, str(path))

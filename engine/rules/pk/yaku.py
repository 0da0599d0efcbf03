"""pk's yaku questions and points, pure functions over a hand (pk.md PK-0 … PK-5, PK-12).

* **Scoring (PK-0).** No fu. The hand's han (yaku + dora) plus 2 han of *bazoro* picks a row of a
  fixed table. Every row is a base amount B paid as in riichi (ron 4B / 6B, tsumo B / 2B), so the
  table is :data:`PK_TABLE` (table han → B) and :func:`~engine.scoring.result.settle` does the rest.
* **Win validity (PK-1 … PK-5, PK-12).** A hand may win only if some *qualifying* yaku (PK-D4) is
  common to every kind of its wait set (PK-D2), each evaluated as a ron (PK-D3). Open hands count
  only *anchored* yaku (PK-D7): in-hand, using the first call F, or whole-hand. :func:`analyse` is
  that test as a pure function of a 13-tile hand; :meth:`PkRuleset.score` applies it before scoring.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import product
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from engine.hand.decompose import SEQ, Wait, decompositions, wait_readings
from engine.notation import Meld, MeldType, WinContext
from engine.rules.base import Ruleset
from engine.scoring.evaluate import special_readings, yaku_of, yakuman_of
from engine.scoring.yaku import HandFacts, HandView
from engine.tiles import KIND_NAMES, RED

if TYPE_CHECKING:
    from engine.rules.pk.ruleset import PkRuleset

__all__ = [
    "FURITEN",
    "NO_COMMON_YAKU",
    "PK_TABLE",
    "YAKUMAN_BASE",
    "PkAnalysis",
    "analyse",
    "first_call",
    "table_base",
    "tenhou_ok",
]

NO_COMMON_YAKU = "no_common_yaku"  # PK-4/PK-5: no qualifying yaku common to every winning tile
FURITEN = "furiten"  # PK-6/PK-7, for hands scored with the ``furiten=yes`` flag


# --------------------------------------------------------------------------------------------
# PK-0: the points table
# --------------------------------------------------------------------------------------------

# (lowest table han of the row, base B, limit name). Ron = 4B (dealer 6B); tsumo B / 2B each.
# 3 翻 → 1000 / 300-500 / 500 all / 1500 is B = 250, and so on down the seed's table.
PK_TABLE: tuple[tuple[int, int, str], ...] = (
    (3, 250, ""),
    (4, 500, ""),
    (5, 1000, ""),
    (6, 2000, "mangan"),
    (8, 3000, "haneman"),
    (10, 4000, "baiman"),
    (13, 6000, "sanbaiman"),
    (15, 8000, "kazoe"),
)
YAKUMAN_BASE = 8000  # PK-0.3 "15翻-役満", one unit per yakuman (PK-0.4)


def table_base(table_han: int) -> tuple[int, str]:
    """Base B and limit name for a table han (bazoro included). Rows below 3 (possible only with
    ``pk.bazoro`` < 2) pay as the 3 翻 row, the table's smallest."""
    out = PK_TABLE[0][1:]
    for lo, base, name in PK_TABLE:
        if table_han >= lo:
            out = (base, name)
    return out


# --------------------------------------------------------------------------------------------
# Yaku classes for the validity test (PK-D4 … PK-D7)
# --------------------------------------------------------------------------------------------

# Situational yaku: never a basis for a win (PK-D4), though they score once the hand qualifies.
SITUATIONAL = frozenset({"ippatsu", "haitei", "houtei", "rinshan", "chankan"})
NEVER_QUALIFY = frozenset({"menzen_tsumo", "tenhou", "chiihou", "renhou"})  # PK-3; PK-12 for the others

# PK-D6: a higher yaku also satisfies the lower one (closed under chaining below).
SUBSUMES: dict[str, tuple[str, ...]] = {
    "daisuushii": ("shousuushii",),
    "daisangen": ("shousangen",),
    "suuankou_tanki": ("suuankou",),
    "suuankou": ("sanankou",),
    "ryanpeikou": ("iipeikou",),
    "chinitsu": ("honitsu",),
    "junchan": ("chanta",),
    "chinroutou": ("honroutou",),
    "double_riichi": ("riichi",),
    "kokushi_13": ("kokushi",),
    "junsei_chuuren": ("chuuren",),
    "suukantsu": ("sankantsu",),
}

# PK-D7 item 3: yaku that constrain every tile, so they involve F whatever it is.
WHOLE_HAND = frozenset(
    {
        "honitsu",
        "chinitsu",
        "toitoi",
        "chanta",
        "junchan",
        "honroutou",
        "tsuuiisou",
        "chinroutou",
        "ryuuiisou",
    }
)
# Yaku made of concealed triplets only: in-hand by definition (PK-D7 item 1).
IN_HAND = frozenset({"sanankou", "suuankou", "suuankou_tanki"})
DRAGON_KINDS = (31, 32, 33)
WIND_KINDS = (27, 28, 29, 30)


def _closure(ids: Iterable[str]) -> frozenset[str]:
    out = set(ids)
    todo = list(out)
    while todo:
        for lower in SUBSUMES.get(todo.pop(), ()):
            if lower not in out:
                out.add(lower)
                todo.append(lower)
    return frozenset(out)


# --------------------------------------------------------------------------------------------
# Readings with the sets a yaku is made of
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PkSet:
    """One set of a reading: a sequence (``kind`` = its lowest kind) or a triplet/quad."""

    kind: int
    seq: bool
    concealed: bool  # in hand under the reading (a triplet completed by a ron is open), or an ankan
    first: bool  # this set is F, the first chi/pon/daiminkan (PK-D1)
    quad: bool = False


@dataclass(slots=True)
class PkReading:
    view: HandView
    sets: tuple[PkSet, ...]  # melds and hand sets; empty for chiitoitsu and kokushi


def first_call(melds: Sequence[Meld]) -> int:
    """PK-D1: index of F, the first chi/pon/daiminkan (a kakan keeps its pon's place), or -1.
    Melds are in call order; an ankan is never F."""
    for i, m in enumerate(melds):
        if m.type is not MeldType.ANKAN:
            return i
    return -1


def _readings(hand14: Sequence[int], win: int, melds: Sequence[Meld], ctx: WinContext) -> list[PkReading]:
    """Every reading of the 14 concealed tiles ``hand14`` (the winning kind ``win`` included) with
    the melds: each decomposition × each way ``win`` completed it, plus chiitoitsu and kokushi.
    A triplet that ``win`` completed is open unless ``ctx.tsumo`` (riichi.md §7 sanankou)."""
    counts = list(hand14)
    every = list(counts)
    kans = 0
    closed = True
    f = first_call(melds)
    meld_sets: list[PkSet] = []
    meld_seqs: list[int] = []
    meld_trips: list[int] = []
    ankan = 0
    for i, m in enumerate(melds):
        for t in m.tiles:
            every[t & ~RED] += 1
        if m.is_kan:
            kans += 1
        if m.opened:
            closed = False
        is_chi = m.type is MeldType.CHI
        (meld_seqs if is_chi else meld_trips).append(m.kind)
        if m.type is MeldType.ANKAN:
            ankan += 1
        meld_sets.append(PkSet(m.kind, is_chi, m.type is MeldType.ANKAN, i == f, m.is_kan))
    facts = HandFacts.of(every, closed, kans, ctx)
    out: list[PkReading] = []
    for sets, pair in decompositions(counts):
        seqs = [s - SEQ for s in sets if s >= SEQ]
        trips = [s for s in sets if s < SEQ]
        for wait, idx in wait_readings(sets, pair, win):
            hand_sets = []
            conc_trips = ankan
            for j, s in enumerate(sets):
                if s >= SEQ:
                    hand_sets.append(PkSet(s - SEQ, True, True, False))
                else:
                    concealed = not (j == idx and wait is Wait.SHANPON and not ctx.tsumo)
                    conc_trips += concealed
                    hand_sets.append(PkSet(s, False, concealed, False))
            view = HandView(
                facts, "standard", seqs + meld_seqs, trips + meld_trips, conc_trips, pair, [], wait, seqs, win
            )
            out.append(PkReading(view, tuple(meld_sets + hand_sets)))
    if not melds:
        special: list[HandView] = []
        special_readings(counts, win, facts, special)
        out.extend(PkReading(view, ()) for view in special)
    return out


# --------------------------------------------------------------------------------------------
# PK-D7: anchoring
# --------------------------------------------------------------------------------------------


def _group_anchored(groups: Iterable[Sequence[PkSet]]) -> bool:
    """A yaku made of one of these groups of sets is anchored if some group is all concealed
    (item 1) or contains F (item 2). A sequence completed by the winning tile counts as concealed:
    only a triplet completed by a ron is open (PK-D3), as in riichi's concealed-triplet rule."""
    return any(all(s.concealed for s in g) or any(s.first for s in g) for g in groups)


def _triplet_groups(r: PkReading, kinds: Sequence[int]) -> list[list[PkSet]]:
    found = [s for s in r.sets if not s.seq and s.kind in kinds]
    return [found] if len({s.kind for s in found}) == len(kinds) else []


def _sequence_groups(r: PkReading, kinds: Sequence[int]) -> list[tuple[PkSet, ...]]:
    choices = [[s for s in r.sets if s.seq and s.kind == k] for k in kinds]
    return list(product(*choices))


def anchored(yid: str, r: PkReading, ctx: WinContext) -> bool:
    """PK-D7: is yaku ``yid`` (present in reading ``r`` of an open hand) anchored?"""
    if yid in WHOLE_HAND or yid in IN_HAND:
        return True
    single = {
        "haku": 31,
        "hatsu": 32,
        "chun": 33,
        "seat_wind": 27 + ctx.seat_wind,
        "round_wind": 27 + ctx.round_wind,
    }.get(yid)
    if single is not None:
        return _group_anchored(_triplet_groups(r, (single,)))
    if yid == "sanshoku":
        return any(_group_anchored(_sequence_groups(r, (k, k + 9, k + 18))) for k in range(7))
    if yid == "ittsu":
        return any(_group_anchored(_sequence_groups(r, (b, b + 3, b + 6))) for b in (0, 9, 18))
    if yid == "sanshoku_doukou":
        return any(_group_anchored(_triplet_groups(r, (k, k + 9, k + 18))) for k in range(9))
    if yid in ("sankantsu", "suukantsu"):
        return _group_anchored([[s for s in r.sets if s.quad]])
    if yid in ("shousangen", "daisangen"):
        return _group_anchored([[s for s in r.sets if not s.seq and s.kind in DRAGON_KINDS]])
    if yid in ("shousuushii", "daisuushii"):
        return _group_anchored([[s for s in r.sets if not s.seq and s.kind in WIND_KINDS]])
    # Closed-only yaku (riichi, pinfu, iipeikou, chiitoitsu, ...) never appear in an open hand;
    # anything else unknown is not anchored, the conservative reading of "perfect kansaki".
    return False


# --------------------------------------------------------------------------------------------
# PK-4: the common-yaku test
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PkAnalysis:
    """The PK-4 test of a 13-tile hand: each wait kind with Q(w), and their intersection."""

    waits: Mapping[int, frozenset[str]]  # read-only: analyses are memoised and shared
    common: frozenset[str]

    @property
    def valid(self) -> bool:
        return bool(self.waits) and bool(self.common)

    def to_json(self) -> dict[str, Any]:
        return {
            "common_yaku": sorted(self.common),
            "wait_yaku": {KIND_NAMES[k]: sorted(q) for k, q in self.waits.items()},
        }


def _ron_reading(ctx: WinContext) -> WinContext:
    """PK-D3: the conditions are judged as a ron, whatever the actual win; situational facts off."""
    return replace(
        ctx,
        tsumo=False,
        ippatsu=False,
        haitei=False,
        houtei=False,
        rinshan=False,
        chankan=False,
        tenhou=False,
        chiihou=False,
        renhou=False,
        dora_indicators=(),
        ura_indicators=(),
        honba=0,
        sticks=0,
        discarder=None,
    )


def _reading_ids(r: PkReading, rs: Ruleset) -> set[str]:
    """Every yaku and yakuman present in the reading, before any absorption (PK-D6, A6)."""
    h = r.view
    ids = {y.id for y in rs.yaku if y.han(h)}
    ids.update(y.id for y in rs.yakuman if y.applies(h))
    if not h.closed:
        ids.discard("tanyao")  # PK-10: no kuitan (forced, see PkRuleset.__post_init__)
    return ids


def _q_of(readings: Sequence[PkReading], rs: PkRuleset, ctx: WinContext) -> frozenset[str]:
    """Q(w): qualifying (and, open, anchored) yaku over the readings, with PK-D6 subsumption."""
    if not readings:
        return frozenset()
    if rs.pk.common_mode == "best":
        readings = [max(readings, key=lambda r: _value_key(r, rs))]
    out: set[str] = set()
    for r in readings:
        ids = _reading_ids(r, rs) - NEVER_QUALIFY - SITUATIONAL
        if not r.view.closed:
            ids = {y for y in ids if anchored(y, r, ctx)}
        out |= ids
    return _closure(out)


def _value_key(r: PkReading, rs: PkRuleset) -> tuple[int, int]:
    ym = yakuman_of(r.view, rs)
    if ym:
        return (YAKUMAN_BASE * (sum(y.han for y in ym) // 13), 0)
    han = sum(y.han for y in yaku_of(r.view, rs))
    return (table_base(han + rs.pk.bazoro)[0] if han else 0, han)


def analyse(
    hand13: Sequence[int],
    melds: Sequence[Meld],
    ctx: WinContext,
    rs: PkRuleset,
    *,
    extra: frozenset[str] = frozenset(),
) -> PkAnalysis:
    """PK-4 for a 13-tile concealed hand (count array) with its melds in call order.

    ``ctx`` gives the seat and round winds and riichi; it is turned into the ron reading (PK-D3).
    ``extra`` is added to every Q(w) (the situational yaku of the actual win, when
    ``pk.situational_yaku_qualify`` is on).
    """
    key = (tuple(hand13[:34]), tuple((m.type, m.kind) for m in melds), _ron_reading(ctx), rs, extra)
    return _analyse_cached(*key)


@lru_cache(maxsize=8192)
def _analyse_cached(
    hand13: tuple[int, ...],
    meld_keys: tuple[tuple[MeldType, int], ...],
    ctx: WinContext,
    rs: PkRuleset,
    extra: frozenset[str],
) -> PkAnalysis:
    melds = [_meld_of(t, k) for t, k in meld_keys]
    waits: dict[int, frozenset[str]] = {}
    calc = rs.shanten_calculator()
    for w in calc.waits(hand13, held_all=True):  # PK-D2: by shape, all four held included
        c = list(hand13)
        c[w] += 1
        waits[w] = _q_of(_readings(c, w, melds, ctx), rs, ctx) | extra
    common = frozenset.intersection(*waits.values()) if waits else frozenset()
    return PkAnalysis(MappingProxyType(waits), common)


def _meld_of(t: MeldType, k: int) -> Meld:
    if t is MeldType.CHI:
        return Meld(t, (k, k + 1, k + 2))
    return Meld(t, (k,) * (3 if t is MeldType.PON else 4))


def tenhou_ok(hand14: Sequence[int], ctx: WinContext, rs: PkRuleset) -> tuple[bool, dict[str, Any]]:
    """PK-12: a tenhou/chiihou hand must pass PK-4 with each of its tiles as the last one drawn
    (``strict``), or with some tile (``lenient``). Returns (ok, per-tile detail)."""
    results: dict[str, bool] = {}
    for t in range(34):
        if not hand14[t]:
            continue
        c = list(hand14[:34])
        c[t] -= 1
        a = analyse(c, (), ctx, rs)
        results[KIND_NAMES[t]] = a.valid and t in a.waits
    ok = all(results.values()) if rs.pk.tenhou_check == "strict" else any(results.values())
    return ok, {"tenhou_check": rs.pk.tenhou_check, "last_tile_ok": results}

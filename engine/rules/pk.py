"""Ruleset ``pk``: the PK rule, "perfect kansaki" (shared/rules/pk.md, seed 001).

Three parts, all here:

* **Scoring (PK-0).** No fu. The hand's han (yaku + dora) plus 2 han of *bazoro* picks a row of a
  fixed table. Every row is a base amount B paid as in riichi (ron 4B / 6B, tsumo B / 2B), so the
  table is :data:`PK_TABLE` (table han → B) and :func:`~engine.scoring.result.settle` does the rest.
* **Win validity (PK-1 … PK-5, PK-12).** A hand may win only if some *qualifying* yaku (PK-D4) is
  common to every kind of its wait set (PK-D2), each evaluated as a ron (PK-D3). Open hands count
  only *anchored* yaku (PK-D7): in-hand, using the first call F, or whole-hand. :func:`analyse` is
  that test as a pure function of a 13-tile hand; :meth:`PkRuleset.score` applies it before scoring.
* **Table rules (PK-6, PK-7, PK-11, PK-13).** Furiten and a passed win block tsumo too, no kan after
  riichi, a hand that could not win is noten at the draw: overrides of the table hooks
  (``engine/table/hooks.py``) on :class:`PkRuleset`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import product
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from engine.hand.decompose import SEQ, Wait, decompositions, wait_readings
from engine.notation import HandSpec, Meld, MeldType, WinContext
from engine.rules.base import Ruleset, register
from engine.rules.options import RiichiOptions
from engine.scoring.evaluate import check_tiles, dora_extras, special_readings, yaku_of, yakuman_of
from engine.scoring.result import NO_YAKU, NOT_A_WIN, ScoreResult, YakuScore, settle_win
from engine.scoring.yaku import HandFacts, HandView
from engine.tiles import KIND_NAMES, RED

if TYPE_CHECKING:
    from engine.table.game import Game

__all__ = [
    "FURITEN",
    "NO_COMMON_YAKU",
    "PK_TABLE",
    "PkAnalysis",
    "PkOptions",
    "PkRuleset",
    "analyse",
    "first_call",
    "pk_ruleset",
    "table_base",
    "tenhou_ok",
]

NO_COMMON_YAKU = "no_common_yaku"  # PK-4/PK-5: no qualifying yaku common to every winning tile
FURITEN = "furiten"  # PK-6/PK-7, for hands scored with the ``furiten=yes`` flag


@dataclass(frozen=True, slots=True, kw_only=True)
class PkOptions:
    """pk.md §8, with the spec's defaults (keys without the ``pk.`` prefix)."""

    tenhou_check: str = "strict"  # PK-12 / A8: "strict" (every tile as the last) | "lenient" (some tile)
    common_mode: str = "union"  # PK-4 / A5: "union" over decompositions | "best" (the scored one only)
    situational_yaku_qualify: bool = False  # A1: ippatsu, haitei, houtei, rinshan, chankan as a basis
    allow_furiten_riichi: bool = True  # A10
    bazoro: int = 2  # PK-0.2

    def __post_init__(self) -> None:
        if self.tenhou_check not in ("strict", "lenient"):
            raise ValueError(f"pk.tenhou_check must be 'strict' or 'lenient', not {self.tenhou_check!r}")
        if self.common_mode not in ("union", "best"):
            raise ValueError(f"pk.common_mode must be 'union' or 'best', not {self.common_mode!r}")
        if self.bazoro < 0:
            raise ValueError("pk.bazoro must be 0 or more")


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


# --------------------------------------------------------------------------------------------
# The ruleset
# --------------------------------------------------------------------------------------------


def _truthy(v: str | None) -> bool:
    return v is not None and v.lower() in ("1", "true", "yes", "on")


@dataclass(frozen=True, kw_only=True)
class PkRuleset(Ruleset):
    """Riichi with the PK rule: the PK-0 table, kansaki win validity, and the table changes."""

    name: str = "pk"
    options: RiichiOptions = field(default_factory=lambda: RiichiOptions(kuitan=False, atozuke=False))
    pk: PkOptions = field(default_factory=PkOptions)

    description: ClassVar[str] = "PK rule (perfect kansaki): no atozuke, no fu, fixed han table"

    def __post_init__(self) -> None:
        # pk.md §8: the base kuitan and atozuke options are forced off (PK-10, PK-1…PK-5); a table
        # that turned kuitan on would let an open all-simples hand win on tanyao alone.
        for key in ("kuitan", "atozuke"):
            if getattr(self.options, key):
                raise ValueError(f"pk always plays with riichi.{key} off (pk.md §8); it cannot be turned on")

    def with_pk(self, **changes: Any) -> PkRuleset:
        return replace(self, pk=replace(self.pk, **changes))

    # -- pure hand questions --------------------------------------------------------------------

    def situational_extra(self, ctx: WinContext) -> frozenset[str]:
        """A1 option: the actual win's situational yaku, common to every wait when allowed."""
        if not self.pk.situational_yaku_qualify:
            return frozenset()
        out = set()
        if ctx.ippatsu and (ctx.riichi or ctx.double_riichi):
            out.add("ippatsu")
        if ctx.haitei and ctx.tsumo and not ctx.rinshan:
            out.add("haitei")
        if ctx.houtei and not ctx.tsumo:
            out.add("houtei")
        if ctx.rinshan and ctx.tsumo:
            out.add("rinshan")
        if ctx.chankan and not ctx.tsumo:
            out.add("chankan")
        return frozenset(out)

    def validity(self, hand13: Sequence[int], melds: Sequence[Meld], ctx: WinContext) -> PkAnalysis:
        """PK-4/PK-5 (b) for a 13-tile hand; furiten (PK-5 (c)) is the table's business."""
        return analyse(hand13, melds, ctx, self, extra=self.situational_extra(ctx))

    # -- scoring hook ---------------------------------------------------------------------------

    def score(self, spec: HandSpec) -> ScoreResult:
        """Valid (PK-5, PK-12) → value by the PK-0 table; invalid → ``agari: false`` with reason
        ``no_common_yaku`` (and the per-wait yaku in ``details``). Furiten is table state: the hand
        grammar's ``furiten=yes`` flag stands for it (reason ``furiten``)."""
        counts, spec = check_tiles(spec, self)
        if not self.shanten_calculator().is_agari(counts):
            return ScoreResult(False, reason=NOT_A_WIN)
        ctx = spec.ctx
        if _truthy(spec.options.get("furiten")):
            return ScoreResult(False, reason=FURITEN)
        win = spec.win_tile & ~RED
        details: dict[str, Any]
        if ctx.tenhou or ctx.chiihou:
            ok, details = tenhou_ok(counts, ctx, self)
        else:
            hand13 = list(counts)
            hand13[win] -= 1
            a = self.validity(hand13, spec.melds, ctx)
            ok, details = a.valid, a.to_json()
        if not ok:
            return ScoreResult(False, reason=NO_COMMON_YAKU, details=details)
        res = self._value(spec, counts)
        if not res.agari:
            return res
        return replace(res, details={**details, **res.details})

    def _value(self, spec: HandSpec, counts: Sequence[int]) -> ScoreResult:
        """PK-0 and §4 step 5: every yaku of the actual win, dora and bazoro, best reading."""
        ctx = spec.ctx
        win = spec.win_tile & ~RED
        bazoro = self.pk.bazoro
        best: tuple[tuple[int, int, int], ScoreResult] | None = None
        extras = dora_extras(spec, self)
        for r in _readings(counts, win, spec.melds, ctx):
            ym = yakuman_of(r.view, self)
            if ym:
                mult = sum(y.han for y in ym) // 13
                base, limit, han, ys = YAKUMAN_BASE * mult, "yakuman", 0, tuple(ym)
                table = 0
            else:
                found = yaku_of(r.view, self)
                if not found:
                    continue
                mult = 0
                han = sum(y.han for y in found) + sum(n for _, n in extras)
                table = han + bazoro
                base, limit = table_base(table)
                ys = tuple(found) + tuple(YakuScore(n, v) for n, v in extras if v)
            key = (base, mult, han)  # at equal value a yakuman reading wins
            if best is not None and key <= best[0]:
                continue
            pts, pay = settle_win(base, ctx, self.options)
            details = {"bazoro": bazoro, "table_han": table} if not mult else {}
            res = ScoreResult(
                True, ys, han, 0, mult, pts, pay, limit, wait=r.view.wait.name.lower(), details=details
            )
            best = (key, res)
        if best is None:
            return ScoreResult(False, reason=NO_YAKU)
        return best[1]

    def base_of(self, res: ScoreResult) -> int:
        """Base B of a scored win (PK-0), from its han and yakuman count."""
        if res.yakuman:
            return YAKUMAN_BASE * res.yakuman
        return table_base(res.han + self.pk.bazoro)[0]

    # -- table hooks (engine/table/hooks.py) -----------------------------------------------------

    def win_base(self, g: Game, res: ScoreResult) -> int:
        """PK-0: payments come from the fixed table, not from han × fu."""
        return self.base_of(res)

    def tsumo_blocked(self, g: Game, seat: int) -> bool:
        """PK-6/PK-7: furiten of any kind, or a win passed since the seat's last discard, forbids
        tsumo too. The waits are those of the hand before the drawn tile (fresh, so a kan since
        the last discard is taken into account)."""
        st = g.seats[seat]
        if st.furiten_temp or st.furiten_riichi:
            return True
        c = list(st.counts)
        c[g.code(g.drawn) & ~RED] -= 1
        return any(k in st.discarded_kinds for k in g.calc.waits(c))

    def can_tsumo(self, g: Game, seat: int) -> bool:
        """PK-3/PK-5/PK-6/PK-7: a tsumo needs a hand that could ron (``score`` checks PK-4 and
        PK-12 as a ron) and a seat that is not furiten in any sense."""
        if not g.calc.is_agari(g.seats[seat].counts) or self.tsumo_blocked(g, seat):
            return False
        return super().can_tsumo(g, seat)

    def riichi_ankan_ok(self, g: Game, seat: int, kind: int) -> bool:
        """PK-11: no kan at all after riichi."""
        return False

    def riichi_discard_ok(self, g: Game, seat: int, code: int) -> bool:
        """A10: with ``pk.allow_furiten_riichi`` off, a riichi that would be furiten is refused."""
        if not super().riichi_discard_ok(g, seat, code):
            return False
        if self.pk.allow_furiten_riichi:
            return True
        st = g.seats[seat]
        k = code & ~RED
        c = list(st.counts)
        c[k] -= 1
        discarded = st.discarded_kinds | {k}
        return not any(w in discarded for w in g.calc.waits(c))

    def seat_hand(self, g: Game, seat: int) -> tuple[list[int], tuple[Meld, ...], WinContext]:
        """The seat's concealed counts, its melds in call order (PK-D1) and its win context."""
        st = g.seats[seat]
        melds = tuple(Meld(m.type, tuple(g.code(t) for t in m.tiles)) for m in st.melds)
        ctx = self.win_context(g, seat, tsumo=False, chankan=False, from_seat=-1)
        return list(st.counts), melds, ctx

    def tenpai_at_draw(self, g: Game, seat: int) -> bool:
        """PK-13: a hand that could win neither by ron nor by tsumo is noten: shape tenpai (R-11.2),
        not furiten in any sense (PK-6: permanent, riichi, or temporary from passing the last
        discard), and a common qualifying yaku (PK-4)."""
        if not super().tenpai_at_draw(g, seat) or self.furiten(g, seat):
            return False
        counts, melds, ctx = self.seat_hand(g, seat)
        return analyse(counts, melds, ctx, self).valid  # no situational extras: nobody won


def pk_ruleset() -> PkRuleset:
    return PkRuleset()


register("pk", pk_ruleset)

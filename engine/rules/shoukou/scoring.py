"""Scoring a shoukou win: every interpretation of the hand, then their union (shoukou.md SK-8–SK-10).

An *interpretation* is (transformation τ or none, decomposition, placement of the winning tile)
such that the effective tiles after τ form a complete hand (SK-10.1). τ moves one tile's effective
rank by ±3 within its suit (SK-D2/D3): a concealed tile, the winning tile itself, or an end tile
of a chi meld (SK-8a, ``shoukou.win_transform_melds``). Each interpretation is valued by the base
rules on effective kinds (yaku, fu, dora); :func:`combine` then adds whole-hand yaku once per kind,
partial yaku once per distinct instance key (SK-10.6/10.7), takes the best single dora count and the
maximum fu (SK-10.5, SK-10.8); with ``shoukou.union = "transformations"`` only each τ's best
single reading enters that union. With ``shoukou.transform = false`` only the plain hand is read and
the best single reading is scored, exactly as the base rules do.

Speed: a transformation only changes one suit of the concealed part, so per suit the complete
transformations of its counts are found once and memoised (:func:`_suit_moves`); only complete
interpretations are valued, by :func:`_value_direct` (a direct computation of the base yaku and
fu) or, for chiitoitsu, kokushi and possible yakuman, by the ruleset's own yaku objects.

The direct valuation re-implements these yaku of ``RIICHI_YAKU`` (their han and names still come
from the objects): riichi, double_riichi, ippatsu, menzen_tsumo, haitei, houtei, rinshan,
chankan, tanyao, honroutou, honitsu, chinitsu, sankantsu, iipeikou, ryanpeikou, haku, hatsu,
chun, seat_wind, round_wind, shousangen, sanshoku, ittsu, chanta, junchan, toitoi,
sanshoku_doukou, pinfu and sanankou, and the fu of a standard reading. What keeps it equal to the
yaku objects: ``tests/engine/rules/test_shoukou_data.py::
test_sk_10_direct_valuation_equals_the_yaku_objects_on_every_interpretation`` (every
interpretation of 2,000 kobalab hands, ``interpretations(..., direct=False)`` as the reference).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import TYPE_CHECKING, Any

from engine.hand.decompose import SEQ, Wait, decompositions, suit_decompositions, wait_readings
from engine.notation import HandSpec, MeldType
from engine.scoring.breakdown import Transformation
from engine.scoring.evaluate import (
    check_tiles,
    fu_of,
    special_readings,
    standard_readings,
    yaku_of,
    yakuman_of,
)
from engine.scoring.result import NO_YAKU, NOT_A_WIN, ScoreResult, YakuScore, base_points, settle_win
from engine.scoring.yaku import HandFacts, HandView
from engine.tiles import KIND_NAMES, NORTH, RED, YAOCHU, dora_of

if TYPE_CHECKING:
    from engine.rules.shoukou.options import ShoukouOptions
    from engine.rules.shoukou.ruleset import ShoukouRuleset

__all__ = ["Interpretation", "Shift", "interpretations", "score_shoukou", "shift_targets"]

_YAOCHU = frozenset(YAOCHU)
_DRAGONS = (31, 32, 33)

# SK-10.6: the partial column (once per distinct instance); every other yaku is whole-hand.
PARTIAL = frozenset(
    {
        "iipeikou",
        "sanshoku",
        "sanshoku_doukou",
        "ittsu",
        "sanankou",
        "sankantsu",
        "shousangen",
        "haku",
        "hatsu",
        "chun",
        "seat_wind",
        "round_wind",
    }
)
# Yakuman that are one kind with their "pure" form when interpretations are united (A11).
_YAKUMAN_FAMILY = {"kokushi_13": "kokushi", "suuankou_tanki": "suuankou", "junsei_chuuren": "chuuren"}


def shift_targets(kind: int) -> tuple[int, ...]:
    """The kinds a tile of effective kind ``kind`` may become (SK-D1–D3): honors none."""
    if kind >= 27:
        return ()
    r = kind % 9
    out: tuple[int, ...] = ()
    if r <= 5:
        out += (kind + 3,)
    if r >= 3:
        out += (kind - 3,)
    return out


@dataclass(frozen=True, slots=True)
class Shift:
    """One transformation: a tile of effective kind ``src`` counted as ``dst`` (SK-D6)."""

    src: int
    dst: int
    where: str  # "hand", "winning tile", or "meld N" (1-based, in call order)
    red: bool = False  # the moved tile is a red five

    @property
    def text(self) -> str:
        return f"{KIND_NAMES[self.src]}>{KIND_NAMES[self.dst]}"


@dataclass(slots=True)
class Interpretation:
    """One interpretation (SK-10.1) and its value by the base rules (SK-10.2)."""

    shift: Shift | None
    form: str  # "standard" | "chiitoitsu" | "kokushi"
    wait: Wait
    yakuman: list[YakuScore]
    yaku: list[YakuScore]  # after the base replacement relations, inside this interpretation
    keys: list[tuple[Any, ...]]  # instance key of each entry of ``yaku`` (SK-10.7)
    fu: int
    dora: tuple[int, int, int, int]  # dora, aka, ura, kita
    halves: tuple[int, ...] = ()  # ryanpeikou: its two sequences
    sets: tuple[int, ...] = field(default=())

    @property
    def han(self) -> int:
        return sum(y.han for y in self.yaku)

    @property
    def dora_han(self) -> int:
        return sum(self.dora)


# --------------------------------------------------------------------------------------------
# the hand's constant parts
# --------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Hand:
    spec: HandSpec
    closed: bool
    kans: int
    meld_sets: list[int]  # per meld: SEQ + start (chi) or the kind (pon / kan), effective
    meld_types: list[MeldType]
    meld_kinds: list[tuple[int, ...]]  # effective kind of each meld tile
    meld_codes: list[tuple[int, ...]]
    ankan_kinds: list[int]
    dora_w: list[int]
    ura_w: list[int]
    reds: int  # red fives held (physical)
    win: int  # the winning tile's physical kind
    win_red: bool


def _hand(spec: HandSpec, rs: ShoukouRuleset) -> _Hand:
    ctx = spec.ctx
    sanma = rs.players == 3
    dora_w = [0] * 34
    for ind in ctx.dora_indicators:
        dora_w[dora_of(ind, sanma=sanma)] += 1
    ura_w = [0] * 34
    if ctx.riichi or ctx.double_riichi:
        for ind in ctx.ura_indicators:
            ura_w[dora_of(ind, sanma=sanma)] += 1
    meld_sets: list[int] = []
    meld_kinds: list[tuple[int, ...]] = []
    ankan: list[int] = []
    kans = 0
    for m in spec.melds:
        kinds = m.kinds
        meld_kinds.append(kinds)
        if m.type is MeldType.CHI:
            meld_sets.append(SEQ + min(kinds))
        else:
            meld_sets.append(kinds[0])
            if m.type is MeldType.ANKAN:
                ankan.append(kinds[0])
        if m.is_kan:
            kans += 1
    reds = sum(1 for c in (*spec.concealed, spec.win_tile, *(t for m in spec.melds for t in m.tiles)) if c & RED)
    return _Hand(
        spec,
        all(not m.opened for m in spec.melds),
        kans,
        meld_sets,
        [m.type for m in spec.melds],
        meld_kinds,
        [m.tiles for m in spec.melds],
        ankan,
        dora_w,
        ura_w,
        reds,
        spec.win_tile & ~RED,
        bool(spec.win_tile & RED),
    )


# --------------------------------------------------------------------------------------------
# finding complete transformations
# --------------------------------------------------------------------------------------------

# suit counts → ((source rank, target rank), ...) whose result is a complete suit (sets and at
# most one pair, as the suit's size requires)
_MOVES: dict[bytes, tuple[tuple[int, int], ...]] = {}


def _suit_ok(key: bytes) -> bool:
    return not any(key) or bool(suit_decompositions(key, True))


def _suit_moves(key: bytes) -> tuple[tuple[int, int], ...]:
    found = _MOVES.get(key)
    if found is not None:
        return found
    out: list[tuple[int, int]] = []
    c = bytearray(key)
    for r in range(9):
        if not c[r]:
            continue
        for t in shift_targets(r):
            c[r] -= 1
            c[t] += 1
            if suit_decompositions(bytes(c), True):
                out.append((r, t))
            c[r] += 1
            c[t] -= 1
    res = tuple(out)
    if len(_MOVES) > 200_000:
        _MOVES.clear()
    _MOVES[key] = res
    return res


def _red_needed(h: _Hand, kind: int, win_moves: bool) -> bool:
    """Must the moved tile be a red five (so that, with aka_follows_effective, it loses its red)?"""
    if kind % 9 != 4 or kind >= 27:
        return False
    if win_moves:
        return h.win_red
    plain = sum(1 for c in h.spec.concealed if c == kind)
    return plain == 0


_Decomps = list[tuple[tuple[int, ...], int]]


def _candidates(
    h: _Hand, counts: list[int], opts: ShoukouOptions
) -> list[tuple[Shift | None, list[int], list[int], int, _Decomps]]:
    """(τ, concealed effective counts, effective meld sets, effective winning kind) for every τ
    under which the hand may be complete: the standard form is checked here, chiitoitsu and
    kokushi are let through when close enough and checked by the caller."""
    out: list[tuple[Shift | None, list[int], list[int], int, _Decomps]] = []
    win = h.win
    b = bytes(counts)
    suits = [b[0:9], b[9:18], b[18:27]]
    honors_ok = all(x in (0, 2, 3) for x in b[27:34]) and sum(1 for x in b[27:34] if x == 2) <= 1
    ok = [_suit_ok(s) for s in suits]
    bad = [i for i in range(3) if not ok[i]]
    special = not h.meld_sets and (
        sum(1 for x in counts if x >= 2) >= 5 or sum(counts[k] for k in _YAOCHU) >= 12
    )
    plain = decompositions(counts) if honors_ok and not bad else []
    plain_complete = bool(plain)
    if plain_complete or special:
        out.append((None, counts, h.meld_sets, win, plain))
    if not opts.transform:
        return out
    # τ on a concealed tile (the winning tile included)
    if honors_ok and len(bad) <= 1:
        for si in bad or range(3):
            base = 9 * si
            for r, t in _suit_moves(suits[si]):
                a, d = base + r, base + t
                c2 = list(counts)
                c2[a] -= 1
                c2[d] += 1
                dc = decompositions(c2)
                if not dc:
                    continue  # the suit is fine but the pair sits in two suits
                if a == win:
                    out.append((Shift(a, d, "winning tile", h.win_red), c2, h.meld_sets, d, dc))
                    if counts[a] >= 2:
                        out.append((Shift(a, d, "hand", _red_needed(h, a, False)), c2, h.meld_sets, win, dc))
                else:
                    out.append((Shift(a, d, "hand", _red_needed(h, a, False)), c2, h.meld_sets, win, dc))
    if special:
        seen = {(x[0].src, x[0].dst, x[0].where) for x in out if x[0] is not None}
        for a in range(27):
            if not counts[a]:
                continue
            for d in shift_targets(a):
                c2 = list(counts)
                c2[a] -= 1
                c2[d] += 1
                wheres = ["winning tile"] if a == win else []
                if a != win or counts[a] >= 2:
                    wheres.append("hand")
                for where in wheres:
                    if (a, d, where) in seen:
                        continue
                    red = h.win_red if where == "winning tile" else _red_needed(h, a, False)
                    w = d if where == "winning tile" else win
                    out.append((Shift(a, d, where, red), c2, h.meld_sets, w, decompositions(c2)))
    # τ on a chi meld (SK-8a): the concealed part must already be complete
    if opts.win_transform_melds and plain_complete:
        for i, s in enumerate(h.meld_sets):
            if s < SEQ:
                continue
            start = s - SEQ
            r = start % 9
            codes = h.meld_codes[i]
            kinds = h.meld_kinds[i]
            if r <= 5:  # promote the low end: n,n+1,n+2 → n+1,n+2,n+3
                red = any(c & RED and k == start for c, k in zip(codes, kinds))
                ms = list(h.meld_sets)
                ms[i] = s + 1
                out.append((Shift(start, start + 3, f"meld {i + 1}", red), counts, ms, win, plain))
            if r >= 1:  # demote the high end: n,n+1,n+2 → n-1,n,n+1
                red = any(c & RED and k == start + 2 for c, k in zip(codes, kinds))
                ms = list(h.meld_sets)
                ms[i] = s - 1
                out.append((Shift(start + 2, start - 1, f"meld {i + 1}", red), counts, ms, win, plain))
    return out


# --------------------------------------------------------------------------------------------
# valuing one transformation's readings
# --------------------------------------------------------------------------------------------


def _every(counts: list[int], meld_sets: list[int], h: _Hand) -> list[int]:
    every = list(counts)
    for i, s in enumerate(meld_sets):
        if s >= SEQ:
            k = s - SEQ
            every[k] += 1
            every[k + 1] += 1
            every[k + 2] += 1
        else:
            every[s] += len(h.meld_kinds[i])
    return every


def _plain_dora(h: _Hand, every: list[int], kita: int) -> tuple[int, int]:
    """Indicator dora and ura dora of the untransformed hand (effective kinds of its melds)."""
    dw, uw = h.dora_w, h.ura_w
    dora = ura = 0
    for k in range(34):
        n = every[k]
        if n:
            dora += n * dw[k]
            ura += n * uw[k]
    return dora + kita * dw[NORTH], ura + kita * uw[NORTH]


def _aka(h: _Hand, opts: ShoukouOptions) -> int:
    aka = h.reds
    if opts.aka_follows_effective:
        # a red five counts only while it is a five (SK-D7 option): melded reds moved at a call
        for codes, kinds in zip(h.meld_codes, h.meld_kinds):
            aka -= sum(1 for c, k in zip(codes, kinds) if c & RED and (c & ~RED) != k)
    return aka


def _dora(h: _Hand, plain: tuple[int, int], aka: int, shift: Shift | None, opts: ShoukouOptions, kita: int) -> tuple[int, int, int, int]:
    """Dora(I) (SK-10.2): the transformation moves one tile's effective kind from src to dst."""
    dora, ura = plain
    if shift is not None:
        dora += h.dora_w[shift.dst] - h.dora_w[shift.src]
        ura += h.ura_w[shift.dst] - h.ura_w[shift.src]
        if shift.red and opts.aka_follows_effective:
            aka -= 1
    return dora, aka, ura, kita


def _instance_keys(ys: list[YakuScore], v: HandView, h: _Hand) -> tuple[list[tuple[Any, ...]], tuple[int, ...]]:
    """SK-10.7: (yaku name, effective sets forming it) for each yaku of one interpretation."""
    keys: list[tuple[Any, ...]] = []
    halves: tuple[int, ...] = ()
    seqs = v.sequences
    for y in ys:
        n = y.name
        if n not in PARTIAL:
            keys.append((n,))
            if n == "ryanpeikou":
                cs = sorted(v.closed_sequences)
                halves = tuple(sorted({s for s in cs if cs.count(s) >= 2}))
            continue
        if n == "iipeikou":
            cs = v.closed_sequences
            keys.append((n, next(s for s in cs if cs.count(s) >= 2)))
        elif n == "sanshoku":
            keys.append((n, next(r for r in range(7) if r in seqs and r + 9 in seqs and r + 18 in seqs)))
        elif n == "ittsu":
            keys.append((n, next(b for b in (0, 9, 18) if b in seqs and b + 3 in seqs and b + 6 in seqs)))
        elif n == "sanshoku_doukou":
            t = v.triplets
            keys.append((n, next(r for r in range(9) if r in t and r + 9 in t and r + 18 in t)))
        elif n == "sanankou":
            keys.append((n, *_concealed_trips(v, h)))
        elif n == "sankantsu":
            keys.append((n, *sorted(s for s, m in zip(h.meld_sets, h.meld_types) if m in _KANS)))
        else:  # shousangen and the yakuhai: honors never move, one instance each
            keys.append((n,))
    return keys, halves


_KANS = (MeldType.MINKAN, MeldType.ANKAN, MeldType.KAKAN)


def _concealed_trips(v: HandView, h: _Hand) -> list[int]:
    n_meld_trips = sum(1 for s in h.meld_sets if s < SEQ)
    hand_trips = list(v.triplets[: len(v.triplets) - n_meld_trips])
    if v.wait is Wait.SHANPON and not v.ctx.tsumo:
        hand_trips.remove(v.win_kind)
    return sorted(hand_trips + h.ankan_kinds)


def _views(
    h: _Hand, counts: list[int], meld_sets: list[int], win: int, facts: HandFacts
) -> list[HandView]:
    """Every reading of one effective hand (the base scorer's readings, SK-2 allowed)."""
    meld_seqs = [s - SEQ for s in meld_sets if s >= SEQ]
    meld_trips = [s for s in meld_sets if s < SEQ]
    views: list[HandView] = []
    standard_readings(
        counts, win, facts, views, meld_seqs=meld_seqs, meld_trips=meld_trips, ankan=len(h.ankan_kinds)
    )
    if not meld_sets:
        special_readings(counts, win, facts, views)
    return views


def interpretations(spec: HandSpec, rs: ShoukouRuleset, *, direct: bool = True) -> list[Interpretation]:
    """Every complete interpretation of the hand with its value (SK-10.1, SK-10.2). With
    ``direct=False`` every reading is valued by the yaku objects (the reference the tests use)."""
    counts, spec = check_tiles(spec, rs)
    return _interpretations(spec, counts, rs, direct=direct)


def _interpretations(
    spec: HandSpec, counts: list[int], rs: ShoukouRuleset, *, direct: bool = True
) -> list[Interpretation]:
    opts = rs.shoukou
    h = _hand(spec, rs)
    k = _consts(h, rs) if direct else None
    ctx = spec.ctx
    out: list[Interpretation] = []
    plain = _plain_dora(h, _every(counts, h.meld_sets, h), ctx.kita)
    aka = _aka(h, opts)
    for shift, c, ms, win, decomps in _candidates(h, counts, opts):
        every = _every(c, ms, h)
        dora = _dora(h, plain, aka, shift, opts, ctx.kita)
        if k is not None and decomps:
            f = _flags(bytes(every))
            if _direct_ok(k, f, every, decomps):
                _value_direct(k, f, shift, ms, win, decomps, dora, out)
                if ms or (sum(1 for x in c if x == 2) != 7 and not all(c[y] for y in YAOCHU)):
                    continue
                only_special = True  # the same tiles may also read as chiitoitsu or kokushi
            else:
                only_special = False
        else:
            only_special = False
        facts = HandFacts.of(every, h.closed, h.kans, ctx)
        for v in _views(h, c, ms, win, facts):
            if only_special and v.form == "standard":
                continue
            ym = yakuman_of(v, rs)
            ys = [] if ym else yaku_of(v, rs)
            keys, halves = _instance_keys(ys, v, h)
            out.append(Interpretation(shift, v.form, v.wait, ym, ys, keys, fu_of(v, spec, rs), dora, halves))
    return out


# --------------------------------------------------------------------------------------------
# the direct valuation of standard-form readings
# --------------------------------------------------------------------------------------------

_SIMPLE, _TERM, _HONOR, _NONGREEN = 1, 2, 4, 8
_GREEN = frozenset({19, 20, 21, 23, 25, 32})
_FLAGS: dict[bytes, int] = {}


def _flags(b: bytes) -> int:
    """Tile-fact bits of a 34-count byte string: kinds present, suit bits from bit 4."""
    out = 0
    for base in (0, 9, 18, 27):
        part = b[base : base + 9] if base < 27 else b[27:34]
        f = _FLAGS.get(part + bytes((base,)))
        if f is None:
            f = 0
            for i, n in enumerate(part):
                if not n:
                    continue
                kind = base + i
                if kind >= 27:
                    f |= _HONOR
                elif i in (0, 8):
                    f |= _TERM
                else:
                    f |= _SIMPLE
                if kind not in _GREEN:
                    f |= _NONGREEN
                f |= 16 << min(base // 9, 3)
            _FLAGS[part + bytes((base,))] = f
        out |= f
    return out


@dataclass(slots=True)
class _Consts:
    """What the direct valuation needs from the hand and the ruleset, computed once per hand."""

    closed: bool
    tsumo: bool
    kuitan: bool
    han: dict[str, int]  # yaku id → its han for this hand (closed or open value)
    score: dict[str, YakuScore]
    ctx_yaku: list[YakuScore]
    ctx_yakuman: bool
    seat: int
    round: int
    meld_fu: int
    meld_trips: list[int]
    n_ankan: int
    ankan_kinds: list[int]
    kans: int
    kan_key: tuple[Any, ...]
    double_wind_pair_fu: int


# (yaku tuple, closed) → (the tuple, han by id, YakuScore by id): one per ruleset and closedness
_HAN: dict[tuple[int, bool], tuple[tuple[Any, ...], dict[str, int], dict[str, YakuScore]]] = {}


def _consts(h: _Hand, rs: ShoukouRuleset) -> _Consts:
    ctx = h.spec.ctx
    closed = h.closed
    cached = _HAN.get((id(rs.yaku), closed))
    if cached is None or cached[0] is not rs.yaku:
        han0 = {y.id: (y.han_closed if closed else y.han_open) for y in rs.yaku}
        cached = _HAN[(id(rs.yaku), closed)] = (rs.yaku, han0, {i: YakuScore(i, v) for i, v in han0.items() if v})
    _, han, score = cached
    tsumo = ctx.tsumo
    conds = (
        ("riichi", ctx.riichi and not ctx.double_riichi),
        ("double_riichi", ctx.double_riichi),
        ("ippatsu", ctx.ippatsu and (ctx.riichi or ctx.double_riichi)),
        ("menzen_tsumo", tsumo and closed),
        ("haitei", ctx.haitei and tsumo and not ctx.rinshan),
        ("houtei", ctx.houtei and not tsumo),
        ("rinshan", ctx.rinshan and tsumo),
        ("chankan", ctx.chankan and not tsumo),
    )
    ctx_yaku = [score[i] for i, ok in conds if ok and i in score]
    meld_fu = 0
    meld_trips = []
    for s, t in zip(h.meld_sets, h.meld_types):
        if t is MeldType.CHI:
            continue
        meld_trips.append(s)
        v = 4 if (s >= 27 or s % 9 in (0, 8)) else 2
        if t is MeldType.ANKAN:
            v *= 8
        elif t in _KANS:
            v *= 4
        meld_fu += v
    kan_key = ("sankantsu", *sorted(s for s, m in zip(h.meld_sets, h.meld_types) if m in _KANS))
    return _Consts(
        closed,
        tsumo,
        rs.options.kuitan,
        han,
        score,
        ctx_yaku,
        ctx.tenhou or ctx.chiihou,
        27 + ctx.seat_wind,
        27 + ctx.round_wind,
        meld_fu,
        meld_trips,
        len(h.ankan_kinds),
        h.ankan_kinds,
        h.kans,
        kan_key,
        rs.options.double_wind_pair_fu,
    )


def _direct_ok(k: _Consts, f: int, every: list[int], decomps: list[tuple[tuple[int, ...], int]]) -> bool:
    """No yakuman is possible for this transformation (those take the yaku objects' path)."""
    if k.ctx_yakuman or k.kans == 4:
        return False
    if not f & (_SIMPLE | _TERM) or not f & (_SIMPLE | _HONOR) or not f & _NONGREEN:
        return False  # tsuuiisou, chinroutou or ryuuiisou is possible
    suits = (f >> 4) & 15
    if k.closed and k.kans == 0 and suits in (1, 2, 4):
        return False  # chuuren is possible
    honours = every[27:34]
    if sum(1 for x in honours[4:] if x >= 3) >= 3 or sum(1 for x in honours[:4] if x >= 3) >= 3:
        return False  # daisangen, the wind yakuman
    n = k.n_ankan
    # suuankou is possible when a reading has four concealed triplets
    return all(sum(1 for s in sets if s < SEQ) + n != 4 for sets, _pair in decomps)


def _value_direct(
    k: _Consts,
    f: int,
    shift: Shift | None,
    ms: list[int],
    win: int,
    decomps: list[tuple[tuple[int, ...], int]],
    dora: tuple[int, int, int, int],
    out: list[Interpretation],
) -> None:
    """The base yaku and fu of each standard reading of one transformation (the yaku objects'
    rules, computed directly; tests keep the two equal). ``f`` is :func:`_flags` of its tiles."""
    score = k.score
    closed = k.closed
    tsumo = k.tsumo
    suits = ((f >> 4) & 7) | (8 if f & _HONOR else 0)
    tau: list[YakuScore] = list(k.ctx_yaku)
    if not f & (_TERM | _HONOR) and (closed or k.kuitan) and "tanyao" in score:
        tau.append(score["tanyao"])
    if not f & _SIMPLE and f & _TERM and f & _HONOR and "honroutou" in score:
        tau.append(score["honroutou"])
    if suits in (9, 10, 12) and "honitsu" in score:
        tau.append(score["honitsu"])
    elif suits in (1, 2, 4) and "chinitsu" in score:
        tau.append(score["chinitsu"])
    tau_keys: list[tuple[Any, ...]] = [(y.name,) for y in tau]
    if k.kans == 3 and "sankantsu" in score:
        tau.append(score["sankantsu"])
        tau_keys.append(k.kan_key)
    meld_seqs = [s - SEQ for s in ms if s >= SEQ]
    meld_trips = k.meld_trips
    seat, rnd = k.seat, k.round
    for sets, pair in decomps:
        seqs_c = [s - SEQ for s in sets if s >= SEQ]
        trips_c = [s for s in sets if s < SEQ]
        seqs = seqs_c + meld_seqs
        trips = trips_c + meld_trips
        ys = list(tau)
        keys = list(tau_keys)
        halves: tuple[int, ...] = ()
        # peikou (closed hands only)
        if closed and len(seqs_c) >= 2:
            dup = sorted({s for s in seqs_c if seqs_c.count(s) >= 2})
            npk = sum(seqs_c.count(s) // 2 for s in dup)
            if npk == 1 and "iipeikou" in score:
                ys.append(score["iipeikou"])
                keys.append(("iipeikou", dup[0]))
            elif npk == 2 and "ryanpeikou" in score:
                ys.append(score["ryanpeikou"])
                keys.append(("ryanpeikou",))
                halves = tuple(dup)
        # yakuhai and shousangen
        dragons = 0
        for t in trips:
            if t >= 27:
                if t >= 31:
                    dragons += 1
                    name = ("haku", "hatsu", "chun")[t - 31]
                    if name in score:
                        ys.append(score[name])
                        keys.append((name,))
                if t == seat and "seat_wind" in score:
                    ys.append(score["seat_wind"])
                    keys.append(("seat_wind",))
                if t == rnd and "round_wind" in score:
                    ys.append(score["round_wind"])
                    keys.append(("round_wind",))
        if dragons == 2 and pair >= 31 and "shousangen" in score:
            ys.append(score["shousangen"])
            keys.append(("shousangen",))
        sset = set(seqs)
        if len(seqs) >= 3:
            for r in range(7):
                if r in sset and r + 9 in sset and r + 18 in sset:
                    if "sanshoku" in score:
                        ys.append(score["sanshoku"])
                        keys.append(("sanshoku", r))
                    break
            for b in (0, 9, 18):
                if b in sset and b + 3 in sset and b + 6 in sset:
                    if "ittsu" in score:
                        ys.append(score["ittsu"])
                        keys.append(("ittsu", b))
                    break
        # chanta / junchan
        if seqs and (pair >= 27 or pair % 9 in (0, 8)):
            if all((s % 9) in (0, 6) for s in seqs) and all(t >= 27 or t % 9 in (0, 8) for t in trips):
                name = "chanta" if suits & 8 else "junchan"
                if name in score:
                    ys.append(score[name])
                    keys.append((name,))
        if len(trips) == 4 and "toitoi" in score:
            ys.append(score["toitoi"])
            keys.append(("toitoi",))
        if len(trips) >= 3:
            tset = set(trips)
            for r in range(9):
                if r in tset and r + 9 in tset and r + 18 in tset:
                    if "sanshoku_doukou" in score:
                        ys.append(score["sanshoku_doukou"])
                        keys.append(("sanshoku_doukou", r))
                    break
        # per placement of the winning tile: pinfu, sanankou, fu
        pair_yakuhai = pair >= 31 or pair in (seat, rnd)
        pair_fu = 0
        if pair >= 31:
            pair_fu += 2
        if pair == seat:
            pair_fu += 2
        if pair == rnd:
            pair_fu += 2
        if pair_fu == 4 and pair < 31:
            pair_fu = k.double_wind_pair_fu
        trip_fu = sum(8 if (t >= 27 or t % 9 in (0, 8)) else 4 for t in trips_c)
        n_trips_c = len(trips_c)
        for wait, _idx in wait_readings(sets, pair, win):
            pys = ys
            pkeys = keys
            shanpon_ron = wait is Wait.SHANPON and not tsumo
            pinfu_shape = closed and len(seqs) == 4 and wait is Wait.RYANMEN and not pair_yakuhai
            if pinfu_shape and "pinfu" in score:
                pys = [*pys, score["pinfu"]]
                pkeys = [*pkeys, ("pinfu",)]
            ct = n_trips_c + k.n_ankan - (1 if shanpon_ron else 0)
            if ct == 3 and "sanankou" in score:
                ctk = list(trips_c)
                if shanpon_ron:
                    ctk.remove(win)
                pys = [*pys, score["sanankou"]]
                pkeys = [*pkeys, ("sanankou", *sorted(ctk + k.ankan_kinds))]
            if pinfu_shape:
                fu = 20 if tsumo else 30
            else:
                fu = 20 + (10 if closed and not tsumo else 0) + (2 if tsumo else 0) + trip_fu + k.meld_fu + pair_fu
                if shanpon_ron:
                    fu -= 4 if (win >= 27 or win % 9 in (0, 8)) else 2
                if wait is Wait.KANCHAN or wait is Wait.PENCHAN or wait is Wait.TANKI:
                    fu += 2
                fu = -(-fu // 10) * 10
                if fu == 20 and not closed:
                    fu = 30
            out.append(Interpretation(shift, "standard", wait, [], pys, pkeys, fu, dora, halves))


# --------------------------------------------------------------------------------------------
# the union (SK-10.3–SK-10.9)
# --------------------------------------------------------------------------------------------


def _where(s: Shift | None) -> dict[str, Any]:
    if s is None:
        return {"transformation": None}
    return {"transformation": s.text, "tile": s.where}


def _pay(base: int, spec: HandSpec, rs: ShoukouRuleset) -> tuple[int, dict[str, int]]:
    return settle_win(base, spec.ctx, rs.options)


def _dora_entries(d: tuple[int, int, int, int], rs: ShoukouRuleset) -> tuple[YakuScore, ...]:
    dora, aka, ura, kita = d
    pairs = (("dora", dora), ("aka_dora", aka), ("ura_dora", ura), ("kita", kita if rs.options.kita else 0))
    return tuple(YakuScore(n, v) for n, v in pairs if v)


def _dora_total(d: tuple[int, int, int, int], rs: ShoukouRuleset) -> int:
    return d[0] + d[1] + d[2] + (d[3] if rs.options.kita else 0)


def _describe(interps: list[Interpretation], rs: ShoukouRuleset) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for i in interps:
        entry = {
            **_where(i.shift),
            "form": i.form,
            "wait": i.wait.name.lower(),
            "yaku": [y.name for y in (i.yakuman or i.yaku)],
            "dora": _dora_total(i.dora, rs),
            "fu": i.fu,
        }
        key = repr(entry)
        if key not in seen:
            seen.add(key)
            out.append(entry)
    return out


def _single(interps: list[Interpretation], spec: HandSpec, rs: ShoukouRuleset) -> ScoreResult:
    """The best single interpretation (the base rule R-7; used with transformations off)."""
    opts = rs.options
    best: tuple[tuple[int, int, int], ScoreResult] | None = None
    if any(i.yakuman for i in interps):
        for i in interps:
            if not i.yakuman:
                continue
            mult = sum(y.han for y in i.yakuman) // 13
            base, limit = base_points(0, 0, mult, opts)
            key = (base, mult, 0)
            if best is None or key > best[0]:
                pts, pay = _pay(base, spec, rs)
                best = (key, ScoreResult(True, tuple(i.yakuman), 0, 0, mult, pts, pay, limit, wait=i.wait.name.lower(), details=_details([i], [i], rs), breakdown=_breakdown([i])))
        assert best is not None
        return best[1]
    for i in interps:
        if not i.yaku:
            continue
        total = i.han + _dora_total(i.dora, rs)
        base, limit = base_points(total, i.fu, 0, opts)
        key = (base, total, i.fu)
        if best is not None and key <= best[0]:
            continue
        pts, pay = _pay(base, spec, rs)
        ys = tuple(i.yaku) + _dora_entries(i.dora, rs)
        best = (key, ScoreResult(True, ys, total, i.fu, 0, pts, pay, limit, wait=i.wait.name.lower(), details=_details([i], [i], rs), breakdown=_breakdown([i])))
    if best is None:
        return ScoreResult(False, reason=NO_YAKU, details={"interpretations": _describe(interps, rs)})
    return best[1]


def _reading_key(i: Interpretation, spec: HandSpec, rs: ShoukouRuleset) -> tuple[int, int, int, int]:
    """R-7 order of one reading on its own: a win before no yaku, then points, han, fu."""
    opts = rs.options
    if i.yakuman:
        mult = sum(y.han for y in i.yakuman) // 13
        pts, _ = _pay(base_points(0, 0, mult, opts)[0], spec, rs)
        return (1, pts, 13 * mult, 0)
    total = i.han + _dora_total(i.dora, rs)
    if not i.yaku:
        return (0, 0, total, i.fu)
    pts, _ = _pay(base_points(total, i.fu, 0, opts)[0], spec, rs)
    return (1, pts, total, i.fu)


def _tau(s: Shift | None) -> tuple[int, int, str] | None:
    """The transformation a reading uses, as a kind change of one concealed tile or of one meld:
    moving the winning tile or a held tile of the same kind gives the same effective hand, so the
    two are one τ (they differ only in the winning tile's placement, which is part of D)."""
    if s is None:
        return None
    return (s.src, s.dst, s.where if s.where.startswith("meld") else "concealed")


# At most this many ways to break ties between equally good readings are compared (SK-10.9).
_MAX_TIE_COMBINATIONS = 64


def _best_per_transformation(
    interps: list[Interpretation], spec: HandSpec, rs: ShoukouRuleset
) -> list[list[Interpretation]]:
    """For each τ (none included) its best single readings by the base rule R-7 (highest points,
    then han, then fu), all of them when several tie. A τ with no reading that has a yaku still
    brings its readings, for their dora (W2)."""
    best: dict[tuple[int, int, str] | None, tuple[tuple[int, int, int, int], list[Interpretation]]] = {}
    for i in interps:
        key = _reading_key(i, spec, rs)
        tau = _tau(i.shift)
        have = best.get(tau)
        if have is None or key > have[0]:
            best[tau] = (key, [i])
        elif key == have[0] and not any(_same_for_union(i, j) for j in have[1]):
            have[1].append(i)
    return [group for _, group in best.values()]


def _same_for_union(a: Interpretation, b: Interpretation) -> bool:
    """Two readings that bring exactly the same to SK-10.5 (a tie between them changes nothing)."""
    return (a.keys, a.halves, a.fu, a.dora, [y.name for y in a.yakuman]) == (
        b.keys,
        b.halves,
        b.fu,
        b.dora,
        [y.name for y in b.yakuman],
    )


def _union_of_transformations(
    interps: list[Interpretation], spec: HandSpec, rs: ShoukouRuleset
) -> ScoreResult:
    """``shoukou.union = "transformations"``: SK-10.5 unites one best reading per τ. When a τ has
    several equally good readings (R-7 cannot tell them apart) the choice that gives the highest
    total is taken (SK-10.9); past a few combinations, the first of each."""
    groups = _best_per_transformation(interps, spec, rs)
    n = 1
    for g in groups:
        n *= len(g)
    if n == 1 or n > _MAX_TIE_COMBINATIONS:
        return _union([g[0] for g in groups], spec, rs)
    best: tuple[tuple[int, int, int, int], ScoreResult] | None = None
    for combo in product(*groups):
        r = _union(list(combo), spec, rs)
        key = (int(r.agari), r.points, r.yakuman * 13 + r.han, r.fu)
        if best is None or key > best[0]:
            best = (key, r)
    assert best is not None
    return best[1]


def _details(used: list[Interpretation], every: list[Interpretation], rs: ShoukouRuleset) -> dict[str, Any]:
    shifts: list[str] = []
    for i in used:
        if i.shift is not None and i.shift.text not in shifts:
            shifts.append(i.shift.text)
    return {"transformations": shifts}


def _breakdown(used: list[Interpretation]) -> tuple[Transformation, ...]:
    """The transformations the value used (SK-10), each once, in the order of ``used``."""
    out: list[Transformation] = []
    for i in used:
        if i.shift is not None:
            t = Transformation(i.shift.src, i.shift.dst)
            if t not in out:
                out.append(t)
    return tuple(out)


def combine(interps: list[Interpretation], spec: HandSpec, rs: ShoukouRuleset) -> ScoreResult:
    """SK-10.3–SK-10.9: the hand's value from all its interpretations."""
    sk = rs.shoukou
    if not interps:
        return ScoreResult(False, reason=NOT_A_WIN)
    if not sk.transform:
        return _single(interps, spec, rs)
    # plain interpretations first, so that a yaku the plain hand has is credited to it
    interps = sorted(interps, key=lambda i: i.shift is not None)
    if sk.union == "transformations":
        return _union_of_transformations(interps, spec, rs)
    return _union(interps, spec, rs)


def _union(interps: list[Interpretation], spec: HandSpec, rs: ShoukouRuleset) -> ScoreResult:
    """SK-10.4–SK-10.8 over ``interps`` (plain interpretations first)."""
    opts = rs.options
    sk = rs.shoukou
    ym = [i for i in interps if i.yakuman]
    if ym:
        if not sk.yakuman_union:
            return _single(ym, spec, rs)
        kinds: dict[str, tuple[YakuScore, Interpretation]] = {}
        for i in ym:
            for y in i.yakuman:
                fam = _YAKUMAN_FAMILY.get(y.name, y.name)
                have = kinds.get(fam)
                if have is None or y.han > have[0].han:
                    kinds[fam] = (y, i)
        ys = [y for y, _ in kinds.values()]
        if not opts.yakuman_stacking and len(ys) > 1:
            ys = [max(ys, key=lambda y: y.han)]
        mult = sum(y.han for y in ys) // 13
        base, limit = base_points(0, 0, mult, opts)
        pts, pay = _pay(base, spec, rs)
        used = [i for y, i in kinds.values() if y in ys]
        return ScoreResult(True, tuple(ys), 0, 0, mult, pts, pay, limit, wait=used[0].wait.name.lower(), details=_details(used, interps, rs), breakdown=_breakdown(used))
    if not any(i.yaku for i in interps):
        return ScoreResult(False, reason=NO_YAKU, details={"interpretations": _describe(interps, rs)})
    counted: dict[tuple[Any, ...], tuple[YakuScore, Interpretation]] = {}
    halves: set[int] = set()
    for i in interps:
        for y, key in zip(i.yaku, i.keys):
            have = counted.get(key)
            if have is None or y.han > have[0].han:
                counted[key] = (y, i)
        halves.update(i.halves)
    if halves:  # SK-10.5: an iipeikou that is half of a counted ryanpeikou is not counted again
        counted = {k: v for k, v in counted.items() if not (k[0] == "iipeikou" and k[1] in halves)}
    order = {y.id: n for n, y in enumerate(rs.yaku)}
    items = sorted(counted.items(), key=lambda kv: (order.get(kv[0][0], 99), kv[0]))
    ys = [y for _, (y, _) in items]
    used = [i for _, (_, i) in items]
    dora_i = max(interps, key=lambda i: _dora_total(i.dora, rs))  # A8: one interpretation's dora
    if _dora_total(dora_i.dora, rs):
        used.append(dora_i)
    han = sum(y.han for y in ys) + _dora_total(dora_i.dora, rs)
    if sk.fu == "max":
        fu_i = max(interps, key=lambda i: i.fu)
    else:
        fu_i = max(interps, key=lambda i: (i.han + _dora_total(i.dora, rs), i.fu))
    used.append(fu_i)
    base, limit = base_points(han, fu_i.fu, 0, opts)
    pts, pay = _pay(base, spec, rs)
    best = max(interps, key=lambda i: (i.han, i.fu))
    result = tuple(ys) + _dora_entries(dora_i.dora, rs)
    details = _details(used, interps, rs)
    breakdown = _breakdown(used)
    details["yaku_sources"] = [
        {"name": y.name, "han": y.han, **_where(i.shift)} for _, (y, i) in items
    ] + [{"name": y.name, "han": y.han, **_where(dora_i.shift)} for y in _dora_entries(dora_i.dora, rs)]
    return ScoreResult(True, result, han, fu_i.fu, 0, pts, pay, limit, wait=best.wait.name.lower(), details=details, breakdown=breakdown)


def score_shoukou(spec: HandSpec, rs: ShoukouRuleset) -> ScoreResult:
    """The value of a shoukou win (SK-10); a hand no interpretation completes is not a win."""
    counts, spec = check_tiles(spec, rs)
    return combine(_interpretations(spec, counts, rs), spec, rs)

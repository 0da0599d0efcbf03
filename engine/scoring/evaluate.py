"""Scoring a winning hand under riichi rules: readings, yaku, fu, points (riichi.md §6–§10).

``evaluate(spec, ruleset)`` enumerates every reading of the hand (each decomposition × each way
the winning tile completed it, plus chiitoitsu and kokushi), values each one, and keeps the one
worth most (points, then han, then fu). Yakuman readings win over ordinary ones.

Two paths give that answer. :func:`evaluate_generic` is the reference: every reading becomes a
:class:`~engine.scoring.yaku.HandView` and every yaku object of the ruleset is asked, so a
variant's own yaku tuple just works. When the ruleset uses exactly the standard tuples,
:func:`evaluate` first tries :mod:`engine.scoring.fastpath`, which computes the same result in
one function (``tests/engine/test_scoring_fastpath.py`` keeps the two identical).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from engine.hand.decompose import SEQ, Wait, decompositions, wait_readings
from engine.notation import HandSpec, MeldType
from engine.scoring.fastpath import SUPPORTED as FAST_PATH_SUPPORTED
from engine.scoring.fastpath import score_fast
from engine.scoring.result import NO_YAKU, NOT_A_WIN, ScoreResult, YakuScore, base_points, settle_win
from engine.scoring.yaku import (
    DOUBLE_FORMS,
    RIICHI_YAKU,
    RIICHI_YAKUMAN,
    SUPERSEDED,
    HandFacts,
    HandView,
    Yaku,
)
from engine.tiles import NORTH, RED, YAOCHU, dora_of

if TYPE_CHECKING:
    from engine.rules.base import Ruleset


class HandError(ValueError):
    """A hand that cannot exist (wrong tile count, a fifth copy, ...)."""


def check_tiles(spec: HandSpec, ruleset: Ruleset) -> tuple[list[int], HandSpec]:
    """Validate counts; return the 34-count array of the concealed part plus the winning tile,
    and the spec with its concealed part normalised (the winning tile taken out if typed in)."""
    copies = ruleset.copies
    n_melds = len(spec.melds)
    expected = ruleset.hand_size - 3 * n_melds
    concealed = spec.concealed
    if len(concealed) == expected + 1 and spec.win_tile in concealed:
        # Written with the winning tile included (a common way to type a hand): take it out once.
        rest = list(concealed)
        rest.remove(spec.win_tile)
        concealed = tuple(rest)
    if len(concealed) != expected:
        raise HandError(
            f"with {n_melds} meld(s) the concealed part must have {expected} tiles before the winning tile, "
            f"got {len(concealed)}"
        )
    counts = [0] * 34
    every = [0] * 34
    for code in concealed:
        k = code & ~RED
        if k >= 34:
            raise HandError("flowers are not part of a riichi hand")
        counts[k] += 1
    w = spec.win_tile & ~RED
    if w >= 34:
        raise HandError("a flower cannot be the winning tile")
    counts[w] += 1
    every[:] = counts
    reds = [0, 0, 0]
    for code in (*concealed, spec.win_tile, *(t for m in spec.melds for t in m.tiles)):
        if code & RED:
            reds[(code & ~RED) // 9] += 1
    for m in spec.melds:
        for t in m.tiles:
            every[t & ~RED] += 1
    for k in range(34):
        if every[k] > copies:
            from engine.tiles import KIND_NAMES

            raise HandError(f"{KIND_NAMES[k]} appears {every[k]} times; there are only {copies}")
        if every[k] and k in ruleset.removed_kinds:
            from engine.tiles import KIND_NAMES

            raise HandError(f"{KIND_NAMES[k]} is not used in {ruleset.name}")
    for s, r in enumerate(reds):
        if r > ruleset.options.red_fives[s] and r > 0:
            raise HandError(
                f"too many red fives of {'mps'[s]}: {r} (this ruleset has {ruleset.options.red_fives[s]})"
            )
    if concealed is not spec.concealed:
        spec = replace(spec, concealed=concealed)
    return counts, spec


def _readings(spec: HandSpec, counts: list[int], facts: HandFacts, agari: bool) -> list[HandView]:
    win = spec.win_tile & ~RED
    meld_seqs: list[int] = []
    meld_trips: list[int] = []
    ankan = 0
    for m in spec.melds:
        if m.type is MeldType.CHI:
            meld_seqs.append(m.kind)
        else:
            meld_trips.append(m.kind)
            if m.type is MeldType.ANKAN:
                ankan += 1
    views: list[HandView] = []
    if agari:
        standard_readings(counts, win, facts, views, meld_seqs=meld_seqs, meld_trips=meld_trips, ankan=ankan)
    if not spec.melds:
        special_readings(counts, win, facts, views)
    return views


def standard_readings(
    counts: list[int],
    win: int,
    facts: HandFacts,
    out: list[HandView],
    *,
    meld_seqs: list[int],
    meld_trips: list[int],
    ankan: int,
) -> None:
    """Append every standard reading of the concealed part: each decomposition × each way the
    winning tile ``win`` completed it. ``meld_seqs``/``meld_trips`` are the called sets' kinds
    (added to the reading's sets), ``ankan`` the number of concealed kans. A ron that completes
    a shanpon leaves that triplet open."""
    tsumo = facts.ctx.tsumo
    for sets, pair in decompositions(counts):
        seqs = [s - SEQ for s in sets if s >= SEQ]
        trips = [s for s in sets if s < SEQ]
        for wait, _idx in wait_readings(sets, pair, win):
            concealed_trips = len(trips) + ankan
            if wait is Wait.SHANPON and not tsumo:
                concealed_trips -= 1
            out.append(
                HandView(
                    facts,
                    "standard",
                    seqs + meld_seqs,
                    trips + meld_trips,
                    concealed_trips,
                    pair,
                    [],
                    wait,
                    seqs,
                    win,
                )
            )


def special_readings(counts: list[int], win: int, facts: HandFacts, out: list[HandView]) -> None:
    """Append the chiitoitsu and kokushi readings of a fully concealed 14-tile hand (seven
    distinct pairs; all thirteen terminals and honours plus one of them again)."""
    if sum(counts) != 14:
        return
    pairs = [k for k in range(34) if counts[k] == 2]
    if len(pairs) == 7:
        out.append(HandView(facts, "chiitoitsu", [], [], 0, -1, pairs, Wait.TANKI, [], win))
    if all(counts[k] for k in YAOCHU) and sum(counts[k] for k in YAOCHU) == 14:
        out.append(
            HandView(facts, "kokushi", [], [], 0, -1, [], Wait.TANKI, [], win, tanki_13=counts[win] == 2)
        )


def fu_of(h: HandView, spec: HandSpec, ruleset: Ruleset) -> int:
    if h.form == "chiitoitsu":
        return 25
    if h.form == "kokushi":
        return 0
    ctx = spec.ctx
    opts = ruleset.options
    pinfu_shape = (
        h.closed
        and len(h.sequences) == 4
        and h.wait is Wait.RYANMEN
        and not (h.pair >= 31 or h.pair == 27 + ctx.seat_wind or h.pair == 27 + ctx.round_wind)
    )
    if pinfu_shape:
        return 20 if ctx.tsumo else 30
    fu = 20
    if h.closed and not ctx.tsumo:
        fu += 10
    if ctx.tsumo:
        fu += 2
    # concealed triplets from the hand (the ron-completed one is open)
    win = h.win_kind
    shanpon_open = h.wait is Wait.SHANPON and not ctx.tsumo
    open_done = False
    n_meld_trips = sum(1 for m in spec.melds if m.type is not MeldType.CHI)
    hand_trips = h.triplets[: len(h.triplets) - n_meld_trips]
    for t in hand_trips:
        v = 8 if (t >= 27 or t % 9 in (0, 8)) else 4
        if shanpon_open and t == win and not open_done:
            v //= 2
            open_done = True
        fu += v
    for m in spec.melds:
        if m.type is MeldType.CHI:
            continue
        k = m.kind
        v = 4 if (k >= 27 or k % 9 in (0, 8)) else 2
        if m.type is MeldType.ANKAN:
            v *= 8
        elif m.is_kan:
            v *= 4
        fu += v
    p = h.pair
    pair_fu = 0
    if p >= 31:
        pair_fu += 2
    if p == 27 + ctx.seat_wind:
        pair_fu += 2
    if p == 27 + ctx.round_wind:
        pair_fu += 2
    if pair_fu == 4 and p < 31:
        pair_fu = opts.double_wind_pair_fu
    fu += pair_fu
    if h.wait in (Wait.KANCHAN, Wait.PENCHAN, Wait.TANKI):
        fu += 2
    fu = -(-fu // 10) * 10
    if fu == 20 and not h.closed:
        fu = 30
    return fu


def count_dora(spec: HandSpec, ruleset: Ruleset) -> tuple[int, int, int, int]:
    """(dora, aka, ura, kita) han."""
    ctx = spec.ctx
    sanma = ruleset.players == 3
    kinds: list[int] = [c & ~RED for c in spec.concealed]
    kinds.append(spec.win_tile & ~RED)
    for m in spec.melds:
        kinds.extend(t & ~RED for t in m.tiles)
    aka = sum(
        1 for c in (*spec.concealed, spec.win_tile, *(t for m in spec.melds for t in m.tiles)) if c & RED
    )
    dora = 0
    for ind in ctx.dora_indicators:
        d = dora_of(ind, sanma=sanma)
        dora += kinds.count(d)
        if d == NORTH:
            dora += ctx.kita
    ura = 0
    if ctx.riichi or ctx.double_riichi:
        for ind in ctx.ura_indicators:
            d = dora_of(ind, sanma=sanma)
            ura += kinds.count(d)
            if d == NORTH:
                ura += ctx.kita
    return dora, aka, ura, ctx.kita


def dora_extras(spec: HandSpec, ruleset: Ruleset) -> list[tuple[str, int]]:
    """The dora entries a win adds to its yaku, by name: dora, aka dora, ura dora and kita (the
    last only where the ruleset counts North as dora); zeros included, in that order."""
    dora, aka, ura, kita = count_dora(spec, ruleset)
    return [
        ("dora", dora),
        ("aka_dora", aka),
        ("ura_dora", ura),
        ("kita", kita if ruleset.options.kita else 0),
    ]


def evaluate(spec: HandSpec, ruleset: Ruleset) -> ScoreResult:
    """The value of the hand under the ruleset: the fast path when the ruleset uses exactly the
    standard yaku tuples (:mod:`engine.scoring.fastpath`), the generic per-object path otherwise
    or whenever the fast path declines (an invalid hand, an unusual way of writing it)."""
    renhou = spec.ctx.renhou and ruleset.options.renhou != "off"  # the fast path does not count it
    if not renhou and (
        ruleset is _last_fast[0]
        or (ruleset.yaku is RIICHI_YAKU and ruleset.yakuman is RIICHI_YAKUMAN and _fast_shape(ruleset))
    ):
        _last_fast[0] = ruleset
        res = score_fast(spec, ruleset)
        if res is not None:
            return res
    return evaluate_generic(spec, ruleset)


# The last ruleset found fit for the fast path (rulesets are frozen, and the reference keeps the
# object alive, so identity is a safe test): a caller scoring many hands under one ruleset object
# pays for the checks once.
_last_fast: list[Ruleset | None] = [None]

# Ruleset class -> may it take the fast path? The fast path skips the ruleset's agari hook, so a
# subclass that overrides ``shanten_calculator`` keeps the generic path.
_FAST_CLASSES: dict[type, bool] = {}


def _fast_shape(ruleset: Ruleset) -> bool:
    """The standard tile set and hand shape, which the fast path's tables are built for."""
    cls = type(ruleset)
    ok = _FAST_CLASSES.get(cls)
    if ok is None:
        from engine.rules.base import Ruleset as _Base

        ok = _FAST_CLASSES[cls] = FAST_PATH_SUPPORTED and cls.shanten_calculator is _Base.shanten_calculator
    return (
        ok
        and ruleset.copies == 4
        and ruleset.hand_size == 13
        and ruleset.max_sets == 4
        and not ruleset.wildcards
        and not ruleset.flowers
    )


def evaluate_generic(spec: HandSpec, ruleset: Ruleset) -> ScoreResult:
    """The reference path: every reading as a :class:`HandView`, every yaku object asked."""
    counts, spec = check_tiles(spec, ruleset)
    calc = ruleset.shanten_calculator()
    agari = calc.is_agari(counts)
    if not agari:
        return ScoreResult(False, reason=NOT_A_WIN)
    every = list(counts)
    kans = 0
    for m in spec.melds:
        for t in m.tiles:
            every[t & ~RED] += 1
        if m.is_kan:
            kans += 1
    closed = all(not m.opened for m in spec.melds)
    facts = HandFacts.of(every, closed, kans, spec.ctx)
    views = _readings(spec, counts, facts, agari)
    if not views:
        return ScoreResult(False, reason=NOT_A_WIN)
    return best_of(views, spec, ruleset)


def _renhou(h: HandView, ruleset: Ruleset) -> str:
    """riichi.renhou ("off" | "mangan" | "yakuman") when this win is a renhou (§7: a non-dealer's
    ron before their first draw with no call made), else "off"."""
    ctx = h.ctx
    return ruleset.options.renhou if ctx.renhou and not ctx.tsumo and not ctx.dealer else "off"


def yakuman_of(h: HandView, ruleset: Ruleset) -> list[YakuScore]:
    opts = ruleset.options
    out = []
    for y in ruleset.yakuman:
        if y.applies(h):
            mult = 2 if (opts.double_yakuman and y.id in DOUBLE_FORMS) else 1
            out.append(YakuScore(y.id, 13 * mult))
    if _renhou(h, ruleset) == "yakuman":
        out.append(YakuScore("renhou", 13))
    if not opts.yakuman_stacking and len(out) > 1:
        out = [max(out, key=lambda y: y.han)]
    return out


def yaku_of(h: HandView, ruleset: Ruleset) -> list[YakuScore]:
    found: list[YakuScore] = []
    ids: set[str] = set()
    kuitan = ruleset.options.kuitan
    for y in ruleset.yaku:
        han = y.han(h)
        if han:
            if y.id == "tanyao" and not kuitan and not h.closed:
                continue
            found.append(YakuScore(y.id, han))
            ids.add(y.id)
    if any(a in ids and b in ids for a, b in SUPERSEDED.items()):
        found = [y for y in found if not (y.name in SUPERSEDED and SUPERSEDED[y.name] in ids)]
    if _renhou(h, ruleset) == "mangan":  # a mangan yaku, counted with the others (WRC 2014 errata)
        found.append(YakuScore("renhou", 5))
    return found


def best_of(views: list[HandView], spec: HandSpec, ruleset: Ruleset) -> ScoreResult:
    opts = ruleset.options
    ctx = spec.ctx
    best: tuple[tuple[int, int, int], ScoreResult] | None = None
    yakuman_views = [(v, yakuman_of(v, ruleset)) for v in views]
    if any(y for _, y in yakuman_views):
        for v, ys in yakuman_views:
            if not ys:
                continue
            mult = sum(y.han for y in ys) // 13
            base, limit = base_points(0, 0, mult, opts)
            pts, pay = settle_win(base, ctx, opts)
            res = ScoreResult(True, tuple(ys), 0, 0, mult, pts, pay, limit, wait=v.wait.name.lower())
            key = (base, mult, 0)
            if best is None or key > best[0]:
                best = (key, res)
        assert best is not None
        return best[1]
    extras = dora_extras(spec, ruleset)
    no_yaku = True
    for v in views:
        ys = yaku_of(v, ruleset)
        if not ys:
            continue
        no_yaku = False
        han = sum(y.han for y in ys)
        fu = fu_of(v, spec, ruleset)
        total = han + sum(n for _, n in extras)
        base, limit = base_points(total, fu, 0, opts)
        key = (base, total, fu)
        if best is not None and key <= best[0]:
            continue
        pts, pay = settle_win(base, ctx, opts)
        allys = tuple(ys) + tuple(YakuScore(name, n) for name, n in extras if n)
        best = (key, ScoreResult(True, allys, total, fu, 0, pts, pay, limit, wait=v.wait.name.lower()))
    if no_yaku or best is None:
        return ScoreResult(False, reason=NO_YAKU)
    return best[1]


__all__ = ["HandError", "Yaku", "evaluate", "evaluate_generic", "fu_of"]

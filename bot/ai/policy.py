"""AI seats: tile efficiency with ukeire, a little hand value, and basic defence against riichi.

The policy sees what a player at the table sees (its own hand, every river and meld, the dora
indicators) and answers through the same legal-action list as a human. ``greedy`` is the plain
shanten-greedy baseline the benchmark compares against (bench/ai.py).

Speed: ukeire is the costly term, so ``smart`` computes it only for the discards that can still
win (branch and bound), only over kinds that can lower the shanten, and suit by suit on the
shanten calculator's own tables; the choice is the one full scoring of every discard makes
(tests/bot/test_ai.py checks both).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from engine.hand.shanten import _CLS, _F_K, _F_N, _F_P, _F_Y, _F_YP, _M6, ShantenCalculator
from engine.table.actions import Action, ActionType
from engine.table.game import Game, Phase
from engine.tiles import RED, YAOCHU, dora_of

A = ActionType
_YAOCHU = frozenset(YAOCHU)
_FOLD = 10_000  # danger weight when folding: above any shanten and ukeire difference


def _visible(game: Game, seat: int) -> list[int]:
    """Copies of each kind this seat sees outside its own hand (rivers, melds, kita, dora indicators)."""
    seen = [0] * 34
    codes = game.tileset.codes
    mask = ~RED
    for st in game.seats:
        for t, called in zip(st.river, st.river_called):
            if not called:
                seen[codes[t] & mask] += 1
        for m in st.melds:
            for t in m.tiles:
                seen[codes[t] & mask] += 1
        for t in st.kita:
            seen[codes[t] & mask] += 1
    for t in game.dora_indicators():
        seen[codes[t] & mask] += 1
    return seen


def _danger(game: Game, seat: int, kind: int, seen: list[int]) -> float:
    """How likely a discard deals in to a riichi player (0 = safe): genbutsu, suji, honours."""
    worst = 0.0
    for other, st in enumerate(game.seats):
        if other == seat or not st.riichi:
            continue
        discarded = st.discarded_kinds
        if kind in discarded:
            continue  # genbutsu
        if kind >= 27:
            d = 0.2 if seen[kind] + game.seats[seat].counts[kind] >= 3 else 0.5
        else:
            r = kind % 9
            suji = [kind - 3] if r >= 3 else []
            suji += [kind + 3] if r <= 5 else []
            covered = all(s in discarded for s in suji) if suji else False
            d = 0.4 if covered else (0.7 if r in (0, 8) else 1.0)
        worst = max(worst, d)
    return worst


def _dora_kinds(game: Game) -> set[int]:
    return {dora_of(game.kind(t), sanma=game.players == 3) for t in game.dora_indicators()}


def _value(game: Game, seat: int, kind: int, dora: set[int]) -> float:
    """What keeping a kind is worth beyond efficiency: dora, red fives, value honours."""
    v = 0.0
    if kind in dora:
        v += 1.0
    st = game.seats[seat]
    if kind >= 31 or kind == 27 + game.round_wind or kind == 27 + game.seat_wind(seat):
        if st.counts[kind] >= 2:
            v += 1.5
    return v


def smart(game: Game, seat: int, rng: random.Random | None = None) -> Action:
    """Win when possible; pon value honours unless someone is in riichi, otherwise pass; nine
    terminals from three shanten; kita; a closed kan that keeps the shanten; then the discard
    (or riichi) of :func:`_choose_discard`. ``rng`` is unused: the choice is deterministic."""
    legal = list(game.legal_actions(seat))
    by_type: dict[ActionType, list[Action]] = {}
    for a in legal:
        by_type.setdefault(a.type, []).append(a)
    for win in (A.TSUMO, A.RON):
        if win in by_type:
            return by_type[win][0]
    calc = game._calc
    st = game.seats[seat]
    if game.phase is not Phase.TURN:
        pon = by_type.get(A.PON)
        if pon:
            k = pon[0].tiles[0] & ~RED
            if k >= 31 or k == 27 + game.round_wind or k == 27 + game.seat_wind(seat):
                if not any(s.riichi for i, s in enumerate(game.seats) if i != seat):
                    return pon[0]
        return Action(A.PASS, seat)
    if A.KYUUSHU in by_type and calc.shanten(st.counts) >= 3:
        return by_type[A.KYUUSHU][0]
    if A.KITA in by_type:
        return by_type[A.KITA][0]
    if A.ANKAN in by_type and not st.riichi:
        a = by_type[A.ANKAN][0]
        c = list(st.counts)
        before = calc.shanten(c)
        c[a.tile] = 0
        if sum(c) % 3 and calc.shanten(c) <= before:
            return a
    if A.ANKAN in by_type and st.riichi:
        return by_type[A.ANKAN][0]
    discards = by_type.get(A.DISCARD, [])
    riichi = by_type.get(A.RIICHI)
    if len(discards) == 1 and not riichi:
        return discards[0]
    return _choose_discard(game, seat, discards, riichi or [])


_LO = (0, 9, 18, 27)
_HI = (9, 18, 27, 34)
_SUIT = tuple(k // 9 for k in range(34))  # 0..2 the number suits, 3 the honours
# kinds within two ranks of a kind in its suit (an honour: itself)
_NEAR = tuple(
    (k,) if k >= 27 else tuple(range(max(k - k % 9, k - 2), min(k - k % 9 + 8, k + 2) + 1)) for k in range(34)
)


@dataclass(frozen=True, slots=True)
class _Tables:
    """The shanten calculator's per-suit tables (see :mod:`engine.hand.shanten`)."""

    maps: tuple[dict[bytes, int], dict[bytes, int], dict[bytes, int], dict[bytes, int]]
    t2: list[int]
    t3: list[int]
    final: list[int]
    v: int


_TABLES: dict[ShantenCalculator, _Tables | None] = {}


def _tables(calc: ShantenCalculator) -> _Tables | None:
    """The calculator's tables for suit-by-suit updates, or None (then ``calc.shanten`` is used)."""
    if calc not in _TABLES:
        try:
            num, hon = calc._num, calc._hon
            _TABLES[calc] = _Tables((num, num, num, hon), calc._t2, calc._t3, calc._final, calc._v)
        except AttributeError:
            _TABLES[calc] = None
    return _TABLES[calc]


class _Efficiency:
    """Shanten and ukeire of each discard of one 3n+2 hand, sharing the work between discards.

    Only the ukeire count matters to the policy, so a kind with no copy left is never tried, and
    only kinds that can lower the shanten are: a kind held or within two ranks of a held tile of
    its suit, every terminal and honour while kokushi can be the best form, every kind while a
    chiitoitsu hand has fewer than seven kinds. ``ukeire(k, sh)`` equals
    ``calc.ukeire(c - k, seen).count``.

    With the calculator's tables, a hand is four per-suit packed values and a draw or discard
    replaces one of them (one table look-up instead of a whole shanten call); without them every
    test is a ``calc.shanten`` call.
    """

    def __init__(self, calc: ShantenCalculator, c: list[int], avail: list[int]) -> None:
        self.calc = calc
        self.c = c
        self.avail = avail  # copies of each kind neither in this hand nor seen
        near: set[int] = set()
        held = [k for k in range(34) if c[k]]
        for k in held:
            near.update(_NEAR[k])
        kinds = len(held)
        ykinds = sum(1 for k in held if k in _YAOCHU)
        # the candidate lists: near; near + terminals and honours; every kind. A kind with no
        # copy left adds nothing (a held one stays: its discarded copy may count).
        self.lists = [
            [j for j in sorted(kinds_set) if avail[j] > 0 or c[j]]
            for kinds_set in (near, near | _YAOCHU, range(34))
        ]
        self.bounds = [-1, -1, -1]  # per list: every copy left, + 1 (-1: not yet)
        self.kinds = kinds
        self.ykinds = ykinds
        self.closed = sum(c) == 14
        self.t = _tables(calc)
        self.packed = [0, 0, 0, 0]
        if self.t is not None:
            maps = self.t.maps
            try:
                self.packed = [maps[s][bytes(c[_LO[s] : _HI[s]])] for s in range(4)]
            except KeyError:  # a count the tables do not cover: every test goes to ``calc``
                self.t = None
        self.plus = [-1] * 34  # kind → packed value of its suit with one more copy (-1: not yet)
        self.minus: dict[int, int] = {}  # kind → packed value of its suit with one copy fewer

    def _minus(self, k: int) -> int:
        v = self.minus.get(k)
        if v is None:
            assert self.t is not None
            s = _SUIT[k]
            row = self.c[_LO[s] : _HI[s]]
            row[k - _LO[s]] -= 1
            v = self.minus[k] = self.t.maps[s][bytes(row)]
        return v

    def shanten(self, k: int) -> int:
        """Shanten of the hand after discarding ``k``."""
        t = self.t
        if t is None:
            c = self.c
            c[k] -= 1
            sh = self.calc.shanten(c)
            c[k] += 1
            return sh
        p = list(self.packed)
        try:
            p[_SUIT[k]] = self._minus(k)
        except KeyError:  # a count the tables do not cover
            self.t = None
            return self.shanten(k)
        v1, v2, v3, v4 = p
        tot = v1 + v2 + v3 + v4
        n = (tot >> _F_N) & _M6
        std: int = (
            t.final[t.t3[t.t2[(v1 & _CLS) * t.v + (v2 & _CLS)] + (v3 & _CLS)] + (v4 & _CLS) + n // 3] - 1
        )
        if n != 13:
            return std
        kinds = (tot >> _F_K) & _M6
        chiitoi = 6 - ((tot >> _F_P) & _M6) + (7 - kinds if kinds < 7 else 0)
        kokushi = 13 - ((tot >> _F_Y) & _M6) - (1 if (tot >> _F_YP) & _M6 else 0)
        return min(std, chiitoi, kokushi)

    def _which(self, k: int, sh: int) -> int:
        """Which candidate list holds the kinds that may lower the shanten ``sh`` of the hand
        after discarding ``k``."""
        if not self.closed:
            return 0
        single = self.c[k] == 1
        if self.kinds - single < 7:
            return 2  # chiitoitsu: any new kind is a step forward
        if 12 - (self.ykinds - (single and k in _YAOCHU)) <= sh:  # kokushi >= 12 - yaochu kinds
            return 1
        return 0

    def candidates(self, k: int, sh: int) -> list[int]:
        return self.lists[self._which(k, sh)]

    def bound(self, k: int, sh: int) -> int:
        """An upper bound of ``ukeire(k, sh)``: every candidate copy left (+ the discarded one)."""
        w = self._which(k, sh)
        b = self.bounds[w]
        if b < 0:
            avail = self.avail
            b = self.bounds[w] = sum(avail[j] for j in self.lists[w] if avail[j] > 0) + 1
        return b

    def ukeire(self, k: int, sh: int) -> int:
        """Copies not yet seen of the kinds that lower the shanten ``sh`` of the hand less ``k``."""
        avail = self.avail
        avail[k] += 1  # the discarded copy counts as unseen, as in ``calc.ukeire``
        try:
            if self.t is not None:
                try:
                    return self._ukeire_tables(self.t, k, sh)
                except KeyError:  # a count the tables do not cover: the generic path decides
                    pass
            return self._ukeire_generic(k, sh)
        finally:
            avail[k] -= 1

    def _ukeire_generic(self, k: int, sh: int) -> int:
        c, avail, shanten = self.c, self.avail, self.calc.shanten
        cands = self.candidates(k, sh)  # of the whole hand: before taking ``k`` out
        total = 0
        c[k] -= 1
        try:
            for j in cands:
                left = avail[j]
                if left > 0:
                    c[j] += 1
                    if shanten(c) < sh:
                        total += left
                    c[j] -= 1
        finally:
            c[k] += 1
        return total

    def _ukeire_tables(self, t: _Tables, k: int, sh: int) -> int:
        c, avail, plus, maps = self.c, self.avail, self.plus, t.maps
        final, t2, t3, width = t.final, t.t2, t.t3, t.v
        a = _SUIT[k]
        lo = _LO[a]
        p = list(self.packed)
        row = bytearray(c[lo : _HI[a]])
        row[k - lo] -= 1
        amap = maps[a]
        p[a] = amap[bytes(row)]
        tot0 = p[0] + p[1] + p[2] + p[3]
        c0, c1, c2, c3 = (x & _CLS for x in p)
        t01 = t2[c0 * width + c1]
        t012 = t3[t01 + c2]
        n = ((tot0 >> _F_N) & _M6) + 1
        sets = n // 3
        forms = False  # whether chiitoitsu or kokushi may drop below ``sh`` (one tile: one step)
        if n == 14:
            kinds = (tot0 >> _F_K) & _M6
            chiitoi = 6 - ((tot0 >> _F_P) & _M6) + (7 - kinds if kinds < 7 else 0)
            kokushi = 13 - ((tot0 >> _F_Y) & _M6) - (1 if (tot0 >> _F_YP) & _M6 else 0)
            forms = chiitoi <= sh or kokushi <= sh
        suit = _SUIT
        total = 0
        for j in self.candidates(k, sh):
            left = avail[j]
            if left <= 0:
                continue
            b = suit[j]
            if b == a:
                i = j - lo
                row[i] += 1
                vb = amap[bytes(row)]
                row[i] -= 1
            else:
                vb = plus[j]
                if vb < 0:
                    s_lo = _LO[b]
                    srow = c[s_lo : _HI[b]]
                    srow[j - s_lo] += 1
                    vb = plus[j] = maps[b][bytes(srow)]
            x = vb & _CLS
            if b == 3:
                idx = t012 + x
            elif b == 2:
                idx = t3[t01 + x] + c3
            elif b == 1:
                idx = t3[t2[c0 * width + x] + c2] + c3
            else:
                idx = t3[t2[x * width + c1] + c2] + c3
            if final[idx + sets] - 1 < sh:
                total += left
            elif forms:
                tot = tot0 - p[b] + vb
                kinds = (tot >> _F_K) & _M6
                if 6 - ((tot >> _F_P) & _M6) + (7 - kinds if kinds < 7 else 0) < sh or (
                    13 - ((tot >> _F_Y) & _M6) - (1 if (tot >> _F_YP) & _M6 else 0) < sh
                ):
                    total += left
        return total


def _choose_discard(game: Game, seat: int, discards: list[Action], riichi: list[Action]) -> Action:
    """The best discard by shanten, ukeire, value and danger; riichi with it when the wait is fine.

    Ukeire is the expensive term, so it is computed last and only while it can still change the
    choice (branch and bound): discards are taken by their score without ukeire plus a bound of
    it, and the search stops when no later one can reach the best full score. The choice is the
    one scoring every discard in full would make (ties go to the first discard listed).
    """
    calc = game._calc
    st = game.seats[seat]
    c = st.counts
    seen = _visible(game, seat)
    dora = _dora_kinds(game)
    threat = any(s.riichi for i, s in enumerate(game.seats) if i != seat)
    removed = game.ruleset.removed_kinds
    copies = calc.copies
    avail = [0 if k in removed else copies - c[k] - seen[k] for k in range(34)]
    eff = _Efficiency(calc, c, avail)
    shanten_of: dict[int, int] = {}
    for a in discards:
        k = a.tile & ~RED
        if k not in shanten_of:
            shanten_of[k] = eff.shanten(k)
    ukeire_of: dict[int, int] = {}

    def ukeire(k: int) -> int:
        n = ukeire_of.get(k)
        if n is None:
            n = ukeire_of[k] = eff.ukeire(k, shanten_of[k])
        return n

    # Far from tenpai against a riichi, fold: the safest tile first (a genbutsu when there is one),
    # efficiency only among equally safe ones. Nearer, trade danger against shanten and ukeire.
    fold = threat and min(shanten_of.values()) >= 2
    # the terms of each discard's score but ukeire: -100 shanten, value, red five, lone honour, danger
    terms: list[tuple[int, float, float, bool, float]] = []
    for a in discards:
        k = a.tile & ~RED
        sh = shanten_of[k]
        risk = 0.0
        if threat and sh >= 1:
            danger = _danger(game, seat, k, seen)
            risk = 120 * danger * (1.5 if sh >= 2 else 0.6)
            if fold:
                risk += _FOLD * danger
        terms.append(
            (
                -sh * 100,
                2 * _value(game, seat, k, dora),
                0.5 if a.tile & RED else 0,
                k >= 27 and c[k] == 1,
                risk,
            )
        )

    def score(i: int, uk: int) -> float:
        sh100, value, red, lone, risk = terms[i]
        s = sh100 + uk - value - red
        if lone:
            s += 0.3  # isolated honours go first
        return s - risk

    # (score with no ukeire + a bound of the ukeire, the bound, index), best first
    order: list[tuple[float, int, int]] = []
    for i, a in enumerate(discards):
        k = a.tile & ~RED
        sh = shanten_of[k]
        ub = eff.bound(k, sh) if sh <= 3 else 0  # ukeire is not counted past 3-shanten
        order.append((score(i, 0) + ub, ub, i))
    order.sort(key=lambda x: -x[0])
    best_score, best_i = float("-inf"), 0
    for top, ub, i in order:
        if top < best_score - 1e-6:
            break  # no later discard can reach the best score
        s = score(i, ukeire(discards[i].tile & ~RED)) if ub else score(i, 0)
        if s > best_score or (s == best_score and i < best_i):
            best_score, best_i = s, i
    if riichi:
        options = [(ukeire(a.tile & ~RED), -i, a) for i, a in enumerate(riichi)]
        waits, _, choice = max(options)
        if waits >= 2 and not (threat and _danger(game, seat, choice.tile & ~RED, seen) > 0.6):
            return choice
    return discards[best_i]


def greedy(game: Game, seat: int, rng: random.Random | None = None) -> Action:
    """Baseline: win when possible, never call, riichi when possible, else the discard with the
    lowest shanten (random among equals)."""
    rng = rng or random.Random(0)
    legal = list(game.legal_actions(seat))
    for t in (A.TSUMO, A.RON, A.RIICHI):
        for a in legal:
            if a.type is t:
                return a
    if game.phase is not Phase.TURN:
        return Action(A.PASS, seat)
    if any(a.type is A.KITA for a in legal):
        return next(a for a in legal if a.type is A.KITA)
    discards = [a for a in legal if a.type is A.DISCARD]
    calc = game._calc
    c = game.seats[seat].counts
    best: list[Action] = []
    best_sh = 99
    for a in discards:
        k = a.tile & ~RED
        c[k] -= 1
        sh = calc.shanten(c)
        c[k] += 1
        if sh < best_sh:
            best, best_sh = [a], sh
        elif sh == best_sh:
            best.append(a)
    return rng.choice(best) if best else legal[0]


POLICIES: dict[str, Callable[[Game, int, random.Random | None], Action]] = {"smart": smart, "greedy": greedy}

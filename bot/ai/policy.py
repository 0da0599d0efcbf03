"""AI seats: tile efficiency with ukeire, a little hand value, and defence against riichi.

Defence (:func:`_danger`): genbutsu, tiles passed since the riichi, suji, kabe and the copies of
an honour still unseen. Far from tenpai against a riichi (two shanten, or one with a cheap hand,
:func:`_hand_value`) it folds: the safest tile first; nearer, danger is weighed against shanten
and ukeire. Tenpai against a riichi, it declares riichi with the safest discard that keeps a fair
wait, and with any discard once the wait is good (chasing riichi).

The policy sees what a player at the table sees (its own hand, every river and meld, the dora
indicators, an open riichi's shown hand) and answers through the same legal-action list as a
human, for every registered ruleset. Hand size, sets, copies per kind, wildcards and players come
from the ruleset and its own shanten calculator (``ruleset.shanten_calculator()``); the few rule
facts the choices depend on (which calls keep a yaku, whether genbutsu is safe, furiten riichi,
open riichi) are its :class:`~bot.ai.profile.Profile`. ``greedy`` is the plain shanten-greedy
baseline the benchmark compares against (bench/ai.py).

Speed: ukeire is the costly term, so ``smart`` computes it only for the discards that can still
win (branch and bound), only over kinds that can lower the shanten, and, when the calculator
offers them (:meth:`~engine.hand.shanten.ShantenCalculator.suit_tables`), suit by suit on its
tables; the choice is the one full scoring of every discard makes (tests/bot/test_ai.py checks
both).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.ai.profile import Profile, profile_of
from engine.hand.shanten import (
    PACK_CLASS,
    PACK_FIELD,
    PACK_KINDS,
    PACK_PAIRS,
    PACK_YAOCHU,
    PACK_YAOCHU_PAIRS,
    ShantenCalculator,
    SuitTables,
)
from engine.table.actions import Action, ActionType
from engine.table.game import Game, Phase
from engine.tiles import RED, YAOCHU, dora_of

A = ActionType
_YAOCHU = frozenset(YAOCHU)
_FOLD = 10_000  # danger weight when folding: above any shanten and ukeire difference
_CALLS = (A.PON, A.CHI)
_PUSH_VALUE = 2  # han in hand (dora, value honours, dealer) from which one shanten pushes on
_CHASE_DANGER = 8  # unseen winning tiles a riichi discard's danger (0..1) costs, against a riichi
_CHASE_WAITS = 4  # unseen winning tiles from which riichi goes on against a riichi with any discard
_N = 34  # kinds that play (flowers, 34 and up, never stay in a hand)


def calculator(game: Game) -> ShantenCalculator:
    """The ruleset's own shanten calculator: ``ruleset.shanten_calculator()``, as the table holds
    it (built once per game; chinitsu_toutenkou builds a new one on every call)."""
    calc: ShantenCalculator = game.calc
    return calc


def _copies(calc: ShantenCalculator) -> list[int]:
    """Copies of each kind in the tile set (chinitsu_toutenkou: 8 of its suit, 4 of the rest)."""
    return [calc.copies_of(k) for k in range(_N)]


def _visible(game: Game, seat: int) -> list[int]:
    """Copies of each kind this seat sees outside its own hand (rivers, melds, kita, dora
    indicators, and the hand an open riichi shows)."""
    seen = [0] * _N
    codes = game.tileset.codes
    mask = ~RED

    def add(code: int) -> None:
        k = code & mask
        if k < _N:
            seen[k] += 1

    for st in game.seats:
        for t, called in zip(st.river, st.river_called):
            if not called:
                add(codes[t])
        for m in st.melds:
            for t in m.tiles:
                add(codes[t])
        for t in st.kita:
            add(codes[t])
    for t in game.dora_indicators():
        add(codes[t])
    shown = game.ruleset.shown_tiles
    for other in range(game.players):
        if other != seat:
            for code in shown(game, other):
                add(code)
    return seen


def _open_waits(game: Game, seat: int) -> set[int]:
    """Kinds that win for an opponent whose hand is shown (open riichi), unless furiten."""
    out: set[int] = set()
    for other in game.ruleset.open_riichi_seats(game):
        if other != seat and not game.ruleset.furiten(game, other):
            out.update(game.seats[other].waits)
    return out


def _riichi_safe(game: Game, seat: int) -> dict[int, set[int]]:
    """Per other seat in riichi, the kinds it cannot ron: its own discards (genbutsu) and every
    kind discarded after its declaration (a riichi player who lets a winning tile pass is furiten
    for the rest of the hand; :func:`_danger` still puts its own discards first)."""
    out = {o: set(st.discarded_kinds) for o, st in enumerate(game.seats) if o != seat and st.riichi}
    pending = set(out)
    for a in reversed(game.actions):
        if not pending:
            break
        if a.type is A.RIICHI and a.seat in pending:
            pending.discard(a.seat)
        if a.type is A.DISCARD or a.type is A.RIICHI:
            k = a.tile & ~RED
            for o in pending:
                out[o].add(k)
    return out


def _danger(
    game: Game,
    seat: int,
    kind: int,
    seen: list[int],
    genbutsu: bool = True,
    safe: dict[int, set[int]] | None = None,
) -> float:
    """How likely a discard deals in to a riichi player (0 = safe), the worst over them.

    Safe: the riichi player's own discards (0), any other kind it cannot ron (``safe``: 0.02, so
    that genbutsu goes first among them). Then by the
    waits still possible: a number tile is dangerous by the two-sided waits (ryanmen) that could
    take it, each ruled out by suji (its suji tile is safe) or kabe (every copy of a tile the
    shape needs is visible to us); an honour by the copies still unseen (none or one left: only
    a single wait). Without ``genbutsu`` (a ruleset where one's own discards do not make furiten)
    nothing is safe and suji does not count; kabe and visible honours still do."""
    own = game.seats[seat].counts
    worst = 0.0
    for other, st in enumerate(game.seats):
        if other == seat or not st.riichi:
            continue
        no_ron: set[int] = set()
        if genbutsu:
            if kind in st.discarded_kinds:
                continue
            no_ron = safe[other] if safe is not None and other in safe else st.discarded_kinds
            if kind in no_ron:
                worst = max(worst, 0.02)
                continue
        if kind >= 27:
            v = seen[kind] + own[kind]
            d = 0.01 if v >= 4 else 0.1 if v == 3 else 0.3 if v == 2 else 0.5
        else:
            r = kind % 9
            sides = []
            if r >= 3:
                sides.append((kind - 3, kind - 2, kind - 1))
            if r <= 5:
                sides.append((kind + 3, kind + 1, kind + 2))
            live = 0
            for suji, a, b in sides:
                if suji in no_ron or seen[a] + own[a] >= 4 or seen[b] + own[b] >= 4:
                    continue
                live += 1
            if live == 0:
                d = 0.2 if r in (0, 8) else 0.3  # kanchan, penchan, shanpon or tanki only
            elif len(sides) == 2:
                d = 1.0 if live == 2 else 0.7
            else:
                d = 0.6 if r in (0, 8) else 0.8
        worst = max(worst, d)
    return worst


def _hand_value(game: Game, seat: int, dora: set[int]) -> int:
    """A rough count of the han the hand holds already: dora and red fives in hand and melds,
    value-honour pairs and triplets; one more for the dealer (a dealer's win pays 1.5 times)."""
    st = game.seats[seat]
    c = st.counts
    codes = game.tileset.codes
    v = sum(c[k] for k in dora if k < _N)
    v += sum(1 for t in st.tiles if codes[t] & RED)
    for m in st.melds:
        for t in m.tiles:
            code = codes[t]
            v += (code & ~RED in dora) + bool(code & RED)
        k = codes[m.tiles[0]] & ~RED
        if 27 <= k < _N and _value_honour(game, seat, k):
            v += 1
    v += sum(1 for k in range(27, _N) if c[k] >= 2 and _value_honour(game, seat, k))
    if game.dealer == seat:
        v += 1
    return v


def _dora_kinds(game: Game) -> set[int]:
    return {dora_of(game.kind(t), sanma=game.players == 3) for t in game.dora_indicators()}


def _value_honour(game: Game, seat: int, kind: int) -> bool:
    return kind >= 31 or kind == 27 + game.round_wind or kind == 27 + game.seat_wind(seat)


def _value(game: Game, seat: int, kind: int, dora: set[int]) -> float:
    """What keeping a kind is worth beyond efficiency: dora, red fives, value honours."""
    v = 0.0
    if kind in dora:
        v += 1.0
    st = game.seats[seat]
    if 27 <= kind < _N and _value_honour(game, seat, kind) and st.counts[kind] >= 2:
        v += 1.5
    return v


def smart(game: Game, seat: int, rng: random.Random | None = None) -> Action:
    """Win when possible; calls as the ruleset's profile allows (pon value honours, or a chi/pon
    that advances the hand and keeps a yaku) unless someone is in riichi, otherwise pass (or
    draw); nine terminals from three shanten; kita / nuki; a closed kan that keeps the shanten;
    then the discard (or riichi, open riichi, declared tenpai) of :func:`_choose_discard`.
    ``rng`` is unused: the choice is deterministic."""
    legal = list(game.legal_actions(seat))
    by_type: dict[ActionType, list[Action]] = {}
    for a in legal:
        by_type.setdefault(a.type, []).append(a)
    for win in (A.TSUMO, A.RON):
        if win in by_type:
            return by_type[win][0]
    prof = profile_of(game.ruleset)
    calc = calculator(game)
    st = game.seats[seat]
    if game.phase is not Phase.TURN:
        call = _choose_call(game, seat, by_type, prof, calc)
        if call is not None:
            return call
        return _pass(seat, legal)
    if A.KYUUSHU in by_type and calc.shanten(st.counts) >= 3:
        return by_type[A.KYUUSHU][0]
    if A.KITA in by_type:
        for a in by_type[A.KITA]:
            if _nuki_ok(calc, st.counts, a, prof):
                return a
    if A.ANKAN in by_type and st.riichi:
        return by_type[A.ANKAN][0]
    for a in by_type.get(A.ANKAN, ()):
        c = list(st.counts)
        before = calc.shanten(c)
        for k in _kan_kinds(a):
            c[k] -= 1
        if min(c) >= 0 and sum(c[:_N]) % 3 and calc.shanten(c) <= before:
            return a
    discards = by_type.get(A.DISCARD, [])
    riichi = by_type.get(A.RIICHI, [])
    if not discards:  # nothing but kans or kita left (never in the registered rulesets)
        return legal[0]
    if len(discards) == 1 and not riichi:
        return discards[0]
    return _choose_discard(game, seat, discards, riichi, by_type.get(A.OPEN_RIICHI, []), prof)


def _pass(seat: int, legal: list[Action]) -> Action:
    a = Action(A.PASS, seat)
    return a if a in legal else legal[0]


def _nuki_ok(calc: ShantenCalculator, c: list[int], a: Action, prof: Profile) -> bool:
    """Kita / nuki always, except a gari that a hand heading for kokushi keeps (CT-F4)."""
    if not prof.kokushi_keeps_gari or a.tile not in _YAOCHU:
        return True
    forms = calc.forms(c)
    return not (forms[2] <= 3 and forms[2] <= min(forms[0], forms[1]))


def _kan_kinds(a: Action) -> list[int]:
    """The physical kinds a closed kan takes from the hand (shoukou: one may be transformed)."""
    kinds = [a.tile & ~RED] * 4
    if a.shift:
        kinds[-1] = a.shift[0] & ~RED
    return kinds


# -- calls ------------------------------------------------------------------------------------


def _meld_kinds(game: Game, seat: int) -> list[tuple[int, ...]]:
    """Each meld of the seat as its effective kinds."""
    out = []
    for m in game.seats[seat].melds:
        kinds = m.effective if m.effective else tuple(game.kind(t) for t in m.tiles)
        out.append(tuple(k & ~RED for k in kinds))
    return out


def _new_meld(game: Game, a: Action) -> tuple[int, ...]:
    """Effective kinds of the meld a chi or pon makes (with its transformation, shoukou)."""
    called = game.code(game.last_discard) if a.src < 0 else _claimed_code(game, a)
    codes = [*a.tiles, called]
    kinds = [c & ~RED for c in codes]
    if a.shift:
        phys = a.shift[0] & ~RED
        if phys in kinds:
            kinds[kinds.index(phys)] = a.shift[1]
    return tuple(kinds)


def _claimed_code(game: Game, a: Action) -> int:
    """The code of the discard a seigou own-turn claim takes: the last one of seat ``a.src``
    (SG-D4, ``claimable_discards``)."""
    return game.code(game.seats[a.src].river[-1])


def _yaku_in_reach(game: Game, seat: int, c: list[int], melds: list[tuple[int, ...]], prof: Profile) -> bool:
    """After a call: a value-honour triplet, kuitan, or a half flush still within reach."""
    for m in melds:
        if len(m) >= 3 and m[0] == m[1] == m[2] and 27 <= m[0] < _N and _value_honour(game, seat, m[0]):
            return True
    if any(c[k] >= 3 and _value_honour(game, seat, k) for k in range(27, _N)):
        return True
    if prof.kuitan and all(k not in _YAOCHU for m in melds for k in m):
        if sum(c[k] for k in _YAOCHU) <= 1:
            return True
    # half flush: one number suit (gari aside), at most two tiles of another in hand
    suits: set[int] = set()
    for m in melds:
        suits.update(k // 9 for k in m if k < 27)
    if len(suits) > 1:
        return False
    per_suit = [0, 0, 0]
    for k in range(27):
        if c[k] and k not in prof.gari:
            per_suit[k // 9] += c[k]
    main = next(iter(suits)) if suits else max(range(3), key=lambda s: per_suit[s])
    return sum(per_suit) - per_suit[main] <= 2


def _choose_call(
    game: Game, seat: int, by_type: dict[ActionType, list[Action]], prof: Profile, calc: ShantenCalculator
) -> Action | None:
    """The call to make on a discard (or, in seigou, instead of a draw), or None to pass."""
    threat = any(s.riichi for i, s in enumerate(game.seats) if i != seat)
    if prof.calls == "value":
        pon = by_type.get(A.PON)
        if pon and not threat:
            k = pon[0].tiles[0] & ~RED
            if 27 <= k < _N and _value_honour(game, seat, k):
                return pon[0]
        return None
    options = [a for t in _CALLS for a in by_type.get(t, ())]
    if not options:
        return None
    st = game.seats[seat]
    c = st.counts
    before = calc.shanten(c)
    melds = _meld_kinds(game, seat)
    best: tuple[int, int, Action] | None = None
    for i, a in enumerate(options):
        rest = list(c)
        for code in a.tiles:
            rest[code & ~RED] -= 1
        if min(rest) < 0:
            continue
        after = calc.shanten(rest)  # a 3n+2 hand: the shanten after its best discard
        if after >= before:
            continue
        if threat and after > 0:
            continue  # against a riichi, call only into tenpai
        new = _new_meld(game, a)
        all_melds = [*melds, new]
        if prof.calls == "anchored":
            first = all_melds[0]
            anchored = first[0] == first[1] == first[2] and 27 <= first[0] < _N and _value_honour(game, seat, first[0])
            if not anchored:
                continue
        elif prof.calls == "yaku" and not _yaku_in_reach(game, seat, rest, all_melds, prof):
            continue
        if best is None or (after, i) < best[:2]:
            best = (after, i, a)
    return best[2] if best else None


# -- the efficiency search -------------------------------------------------------------------

_LO = (0, 9, 18, 27)
_HI = (9, 18, 27, 34)
_SUIT = tuple(k // 9 for k in range(34))  # 0..2 the number suits, 3 the honours
# kinds within two ranks of a kind in its suit (an honour: itself)
_NEAR = tuple(
    (k,) if k >= 27 else tuple(range(max(k - k % 9, k - 2), min(k - k % 9 + 8, k + 2) + 1)) for k in range(34)
)
_TABLES: dict[ShantenCalculator, SuitTables] = {}


def _tables(calc: ShantenCalculator) -> SuitTables | None:
    """The calculator's tables for suit-by-suit updates, or None (then ``calc.shanten`` is used)."""
    t = _TABLES.get(calc)
    if t is None:
        t = calc.suit_tables()
        if t is not None:
            _TABLES[calc] = t
    return t


class _Efficiency:
    """Shanten and ukeire of each discard of one 3n+2 hand, sharing the work between discards.

    Only the ukeire count matters to the policy, so a kind with no copy left is never tried, and
    only kinds that can lower the shanten are: a kind held or within two ranks of a held tile of
    its suit, every terminal and honour while kokushi can be the best form, every kind while a
    chiitoitsu hand has fewer than seven kinds. ``ukeire(k, sh)`` equals
    ``calc.ukeire(c - k, seen).count`` (at least that with a calculator whose ``forms`` is a lower
    bound, see ``_ukeire_generic``).

    With the calculator's tables, a hand is four per-suit packed values and a draw or discard
    replaces one of them (one table look-up instead of a whole shanten call); without them every
    test is a ``calc.shanten`` call, over every kind (a calculator without tables may read hands
    otherwise, e.g. with wildcards).
    """

    def __init__(self, calc: ShantenCalculator, c: list[int], avail: list[int]) -> None:
        self.calc = calc
        self.c = c
        self.avail = avail  # copies of each kind neither in this hand nor seen
        self.t = _tables(calc)
        held = [k for k in range(_N) if c[k]]
        kinds = len(held)
        ykinds = sum(1 for k in held if k in _YAOCHU)
        # the candidate lists: near; near + terminals and honours; every kind. A kind with no
        # copy left adds nothing (a held one stays: its discarded copy may count).
        every = [j for j in range(_N) if avail[j] > 0 or c[j]]
        if self.t is None:
            self.lists = [every, every, every]
        else:
            near: set[int] = set()
            for k in held:
                near.update(_NEAR[k])
            self.lists = [
                [j for j in sorted(kinds_set) if avail[j] > 0 or c[j]] for kinds_set in (near, near | _YAOCHU)
            ] + [every]
        self.bounds = [-1, -1, -1]  # per list: every copy left, + 1 (-1: not yet)
        self.kinds = kinds
        self.ykinds = ykinds
        self.special = sum(c[:_N]) == 14 and (self.t is None or self.t.special_forms)
        self.packed = [0, 0, 0, 0]
        if self.t is not None:
            maps = self.t.maps
            try:
                self.packed = [maps[s][bytes(c[_LO[s] : _HI[s]])] for s in range(4)]
            except KeyError:  # a count the tables do not cover: every test goes to ``calc``
                self._drop_tables()
        self.plus = [-1] * 34  # kind → packed value of its suit with one more copy (-1: not yet)
        self.minus: dict[int, int] = {}  # kind → packed value of its suit with one copy fewer

    def _drop_tables(self) -> None:
        every = self.lists[2]
        self.t = None
        self.lists = [every, every, every]
        self.bounds = [-1, -1, -1]

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
            self._drop_tables()
            return self.shanten(k)
        v1, v2, v3, v4 = p
        std = t.standard(v1, v2, v3, v4)
        if not t.special_forms or SuitTables.tiles(v1, v2, v3, v4) != 13:
            return std
        tot = v1 + v2 + v3 + v4
        return min(std, SuitTables.seven_pairs(tot), SuitTables.thirteen_orphans(tot))

    def _which(self, k: int, sh: int) -> int:
        """Which candidate list holds the kinds that may lower the shanten ``sh`` of the hand
        after discarding ``k``."""
        if not self.special:
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
                    self._drop_tables()
            return self._ukeire_generic(k, sh)
        finally:
            avail[k] -= 1

    def _ukeire_generic(self, k: int, sh: int) -> int:
        # ``forms`` of a 3n+2 hand: exact for table and search calculators; chinitsu_toutenkou's
        # is a lower bound whose exact check costs a wait search per discard, so its ukeire may
        # count a few tiles that only look like progress (gari or North read as ordinary tiles).
        c, avail, forms = self.c, self.avail, self.calc.forms
        cands = self.candidates(k, sh)  # of the whole hand: before taking ``k`` out
        total = 0
        c[k] -= 1
        try:
            for j in cands:
                left = avail[j]
                if left > 0:
                    c[j] += 1
                    if min(forms(c)) < sh:
                        total += left
                    c[j] -= 1
        finally:
            c[k] += 1
        return total

    def _ukeire_tables(self, t: SuitTables, k: int, sh: int) -> int:
        c, avail, plus, maps = self.c, self.avail, self.plus, t.maps
        final, t2, t3, width = t.final, t.t2, t.t3, t.width
        cls, m6, f_k, f_p, f_y, f_yp = PACK_CLASS, PACK_FIELD, PACK_KINDS, PACK_PAIRS, PACK_YAOCHU, PACK_YAOCHU_PAIRS
        a = _SUIT[k]
        lo = _LO[a]
        p = list(self.packed)
        row = bytearray(c[lo : _HI[a]])
        row[k - lo] -= 1
        amap = maps[a]
        p[a] = amap[bytes(row)]
        tot0 = p[0] + p[1] + p[2] + p[3]
        c0, c1, c2, c3 = (x & cls for x in p)
        t01 = t2[c0 * width + c1]
        t012 = t3[t01 + c2]
        n = SuitTables.tiles(*p) + 1  # not off ``tot0``: the classes may carry into it
        sets = n // 3
        forms = False  # whether chiitoitsu or kokushi may drop below ``sh`` (one tile: one step)
        if n == 14 and t.special_forms:
            kinds = (tot0 >> f_k) & m6
            chiitoi = 6 - ((tot0 >> f_p) & m6) + (7 - kinds if kinds < 7 else 0)
            kokushi = 13 - ((tot0 >> f_y) & m6) - (1 if (tot0 >> f_yp) & m6 else 0)
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
            x = vb & cls
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
                kinds = (tot >> f_k) & m6
                if 6 - ((tot >> f_p) & m6) + (7 - kinds if kinds < 7 else 0) < sh or (
                    13 - ((tot >> f_y) & m6) - (1 if (tot >> f_yp) & m6 else 0) < sh
                ):
                    total += left
        return total


def _available(game: Game, seat: int, calc: ShantenCalculator, seen: list[int]) -> list[int]:
    """Copies of each kind this seat has not seen (in no hand of its own, no river, no meld)."""
    c = game.seats[seat].counts
    removed = game.ruleset.removed_kinds
    copies = _copies(calc)
    return [0 if k in removed else max(copies[k] - c[k] - seen[k], 0) for k in range(_N)]


def _furiten_after(game: Game, seat: int, calc: ShantenCalculator, kind: int) -> bool:
    """Whether the tenpai hand left by discarding ``kind`` waits on a kind the seat discarded."""
    st = game.seats[seat]
    c = list(st.counts)
    c[kind] -= 1
    discarded = st.discarded_kinds | {kind}
    return any(w in discarded for w in calc.waits(c))


def _unseen_waits(calc: ShantenCalculator, c: list[int], kind: int, avail: list[int]) -> int:
    """Unseen copies of the kinds that complete the hand left by discarding ``kind``."""
    c[kind] -= 1
    try:
        return sum(avail[w] + (w == kind) for w in calc.waits(c) if w < _N)
    finally:
        c[kind] += 1


def _choose_discard(
    game: Game,
    seat: int,
    discards: list[Action],
    riichi: list[Action],
    open_riichi: list[Action] | None = None,
    prof: Profile | None = None,
) -> Action:
    """The best discard by shanten, ukeire, value and danger; riichi with it when the wait is fine.

    Ukeire is the expensive term, so it is computed last and only while it can still change the
    choice (branch and bound): discards are taken by their score without ukeire plus a bound of
    it, and the search stops when no later one can reach the best full score. The choice is the
    one scoring every discard in full would make (ties go to the first discard listed).
    """
    prof = prof or profile_of(game.ruleset)
    calc = calculator(game)
    st = game.seats[seat]
    c = st.counts
    seen = _visible(game, seat)
    dora = _dora_kinds(game)
    threat = any(s.riichi for i, s in enumerate(game.seats) if i != seat)
    safe = _riichi_safe(game, seat) if threat and prof.genbutsu else None
    open_waits = _open_waits(game, seat)
    avail = _available(game, seat, calc, seen)
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
    # From one shanten a cheap hand folds as well.
    least = min(shanten_of.values())
    fold = threat and (least >= 2 or (least == 1 and _hand_value(game, seat, dora) < _PUSH_VALUE))
    # the terms of each discard's score but ukeire: -100 shanten, value, red five, lone honour, danger
    terms: list[tuple[int, float, float, bool, float]] = []
    for a in discards:
        k = a.tile & ~RED
        sh = shanten_of[k]
        risk = 0.0
        if threat:
            danger = _danger(game, seat, k, seen, prof.genbutsu, safe)
            risk = 120 * danger * (1.5 if sh >= 2 else 0.6 if sh == 1 else 0.3)
            if fold:
                risk += _FOLD * danger
        if k in open_waits:
            risk += 2 * _FOLD  # a shown wait: never, unless every discard is one
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
    if not prof.furiten_riichi_wins:
        riichi = [a for a in riichi if not _furiten_after(game, seat, calc, a.tile & ~RED)]
    if riichi:
        if eff.t is None:  # no tables: count the calculator's exact waits (forms may be a bound)
            waits_of = [_unseen_waits(calc, c, a.tile & ~RED, avail) for a in riichi]
        else:
            waits_of = [ukeire(a.tile & ~RED) for a in riichi]
        # against a riichi: the safest riichi discard that keeps a fair wait; chase with a good one
        danger_of = [
            _danger(game, seat, a.tile & ~RED, seen, prof.genbutsu, safe) if threat else 0.0 for a in riichi
        ]
        options = [(w - _CHASE_DANGER * d, w, -i) for i, (w, d) in enumerate(zip(waits_of, danger_of))]
        _, waits, i = max(options)
        choice = riichi[-i]
        k = choice.tile & ~RED
        if (
            waits >= prof.riichi_min_waits
            and not (threat and danger_of[-i] > 0.6 and waits < _CHASE_WAITS)
            and k not in open_waits
        ):
            if prof.open_riichi_min_waits and waits >= prof.open_riichi_min_waits:
                for a in open_riichi or ():
                    if a.tile == choice.tile:
                        return a
            return choice
    return discards[best_i]


def greedy(game: Game, seat: int, rng: random.Random | None = None) -> Action:
    """Baseline: win when possible, never call, riichi (or declare tenpai) when possible, kita
    always, else the discard with the lowest shanten (random among equals)."""
    rng = rng or random.Random(0)
    legal = list(game.legal_actions(seat))
    for t in (A.TSUMO, A.RON, A.RIICHI):
        for a in legal:
            if a.type is t:
                return a
    if game.phase is not Phase.TURN:
        return _pass(seat, legal)
    if any(a.type is A.KITA for a in legal):
        return next(a for a in legal if a.type is A.KITA)
    discards = [a for a in legal if a.type is A.DISCARD]
    calc = calculator(game)
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

__all__ = ["POLICIES", "calculator", "greedy", "smart"]

"""AI seats: tile efficiency with ukeire, a little hand value, and basic defence against riichi.

The policy sees what a player at the table sees (its own hand, every river and meld, the dora
indicators) and answers through the same legal-action list as a human. ``greedy`` is the plain
shanten-greedy baseline the benchmark compares against.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.table.actions import Action, ActionType
from engine.table.game import Game, Phase
from engine.tiles import RED, YAOCHU, dora_of

A = ActionType
_YAOCHU = frozenset(YAOCHU)


def _visible(game: Game, seat: int) -> list[int]:
    """Copies of each kind this seat can see (own hand, rivers, melds, dora indicators)."""
    seen = [0] * 34
    for st in game.seats:
        for t, called in zip(st.river, st.river_called):
            if not called:
                seen[game.kind(t)] += 1
        for m in st.melds:
            for t in m.tiles:
                seen[game.kind(t)] += 1
        for t in st.kita:
            seen[game.kind(t)] += 1
    for t in game.dora_indicators():
        seen[game.kind(t)] += 1
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
    if len(discards) == 1:
        if A.RIICHI not in by_type:
            return discards[0]
    seen = _visible(game, seat)
    dora = _dora_kinds(game)
    threat = any(s.riichi for i, s in enumerate(game.seats) if i != seat)
    c = st.counts
    scored: list[tuple[float, Action, int]] = []
    for a in discards:
        k = a.tile & ~RED
        c[k] -= 1
        sh = calc.shanten(c)
        uk = calc.ukeire(c, seen).count if sh <= 3 else 0
        c[k] += 1
        score = -sh * 100 + uk - 2 * _value(game, seat, k, dora) - (0.5 if a.tile & RED else 0)
        if k >= 27 and c[k] == 1:
            score += 0.3  # isolated honours go first
        if threat and sh >= 1:
            score -= 120 * _danger(game, seat, k, seen) * (1.5 if sh >= 2 else 0.6)
        scored.append((score, a, sh))
    scored.sort(key=lambda x: -x[0])
    best = scored[0]
    riichi = by_type.get(A.RIICHI)
    if riichi:
        options = []
        for a in riichi:
            k = a.tile & ~RED
            c[k] -= 1
            waits = calc.ukeire(c, seen).count
            c[k] += 1
            options.append((waits, a))
        options.sort(key=lambda x: -x[0])
        if options[0][0] >= 2 and not (threat and _danger(game, seat, options[0][1].tile & ~RED, seen) > 0.6):
            return options[0][1]
    return best[1]


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

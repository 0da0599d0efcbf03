"""The AI seats (bot/ai/policy.py): always legal, win when they can, riichi with a decent wait,
fold against a riichi when far from tenpai, and the fast efficiency search gives exactly what
scoring every discard in full gives.

Positions come from seeded games (AI play, sometimes mixed with random legal actions so that
calls, kans and odd scores occur), played until the situation under test arises.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from bot.ai import policy
from bot.ai.policy import POLICIES, greedy, smart
from engine.rules import Ruleset, find_ruleset
from engine.table.actions import Action, ActionType
from engine.table.game import Game, Phase
from engine.tiles import RED, YAOCHU

A = ActionType
RULESETS = ("riichi", "sanma")
# with one of these offered, smart does something else first (win, kita, kan, abort)
_FIRST = {A.TSUMO, A.KITA, A.ANKAN, A.KAKAN, A.KYUUSHU}


def visible(g: Game) -> list[int]:
    """Copies of each kind every seat sees outside its own hand (rivers, melds, kita, dora)."""
    seen = [0] * 34
    for st in g.seats:
        for t, called in zip(st.river, st.river_called):
            if not called:
                seen[g.kind(t)] += 1
        for m in st.melds:
            for t in m.tiles:
                seen[g.kind(t)] += 1
        for t in st.kita:
            seen[g.kind(t)] += 1
    for t in g.dora_indicators():
        seen[g.kind(t)] += 1
    return seen


def positions(rs: Ruleset, tag: str, games: int, *, mix: float = 0.0) -> Iterator[tuple[Game, int]]:
    """Every (game, seat to act) of seeded smart-vs-smart games; with ``mix``, that share of the
    actions is a random legal one instead. The caller must not move the game."""
    for n in range(games):
        rng = random.Random(f"{tag}:{n}")
        g = Game(rs, seed=f"{tag}:{n}")
        while not g.over:
            for s in g.to_act():
                yield g, s
            s = g.to_act()[0]
            a = smart(g, s, rng)
            if mix and rng.random() < mix:
                a = rng.choice(list(g.legal_actions(s)))
            g.apply(a)


def kinds(actions: list[Action]) -> set[ActionType]:
    return {a.type for a in actions}


# -- always legal ----------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("name", ["smart", "greedy"])
def test_always_returns_a_legal_action(ruleset: str, name: str) -> None:
    """100 games per policy and ruleset from random starts (round, dealer, honba, sticks, scores
    down to below the riichi stick), a quarter of the actions random; every seat asked to act is
    asked, and the answer must be legal. Two hands per game keep it quick."""
    rs = find_ruleset(ruleset)
    choose = POLICIES[name]
    n = rs.players
    asked = 0
    chosen_types: Counter[ActionType] = Counter()
    for game_no in range(100):
        rng = random.Random(f"legal:{ruleset}:{name}:{game_no}")
        scores = [rng.choice([500, 900, 8000, 25000, 35000, 60000]) for _ in range(n)]
        start = (rng.randrange(2), rng.randrange(n), rng.randrange(4), rng.randrange(3))
        g = Game(rs, seed=f"legal:{game_no}", scores=scores, start=start)
        while not g.over and len(g.results) < 2:
            acting = g.to_act()
            chosen = None
            for s in acting:
                a = choose(g, s, rng)
                assert a in g.legal_actions(s), f"{name} chose illegal {a.text} in game {game_no}"
                asked += 1
                chosen_types[a.type] += 1
                chosen = chosen or a
            assert chosen is not None
            if rng.random() < 0.25:
                chosen = rng.choice(list(g.legal_actions(acting[0])))
            g.apply(chosen)
    assert asked > 100 * 60
    # the positions were varied: discards, passes on calls, riichi, wins (and kita in sanma)
    expected = {A.DISCARD, A.PASS, A.RIICHI} | ({A.KITA} if rs.options.kita else set())
    assert expected <= set(chosen_types), chosen_types
    assert chosen_types[A.TSUMO] + chosen_types[A.RON] > 0, chosen_types


# -- wins when it can ------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_takes_every_win_offered(ruleset: str) -> None:
    rs = find_ruleset(ruleset)
    found = {A.TSUMO: 0, A.RON: 0}
    for g, s in positions(rs, f"win:{ruleset}", 40):
        offered = kinds(list(g.legal_actions(s))) & {A.TSUMO, A.RON}
        if not offered:
            continue
        (win,) = offered
        for choose in (smart, greedy):
            assert choose(g, s, random.Random(0)).type is win
        found[win] += 1
        if min(found.values()) >= 5:
            break
    assert min(found.values()) >= 5, found


# -- riichi ----------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_declares_riichi_with_a_decent_wait(ruleset: str) -> None:
    """Tenpai, closed, riichi allowed, no one else in riichi, and some riichi discard leaves two
    or more unseen winning tiles: smart declares, with the discard that leaves the most."""
    rs = find_ruleset(ruleset)
    checked = 0
    for g, s in positions(rs, f"riichi:{ruleset}", 60):
        legal = list(g.legal_actions(s))
        if A.RIICHI not in kinds(legal) or kinds(legal) & _FIRST:
            continue
        if any(st.riichi for o, st in enumerate(g.seats) if o != s):
            continue
        c, seen, calc = g.seats[s].counts, visible(g), g._calc
        waits = {}
        for a in legal:
            if a.type is A.RIICHI:
                k = a.tile & ~RED
                c[k] -= 1
                waits[a.tile] = sum(
                    n for kind, n in calc.ukeire(c, seen).tiles.items() if kind not in rs.removed_kinds
                )
                c[k] += 1
        if max(waits.values()) < 2:
            continue
        a = smart(g, s)
        assert a.type is A.RIICHI, f"no riichi with waits {waits}"
        assert waits[a.tile] == max(waits.values())
        checked += 1
        if checked >= 15:
            break
    assert checked >= 15


# -- defence ---------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_folds_with_genbutsu_when_far_from_tenpai(ruleset: str) -> None:
    """Someone is in riichi, smart is two or more shanten away and holds a tile that riichi
    player (every one of them) has discarded: it discards such a tile."""
    rs = find_ruleset(ruleset)
    checked = 0
    for g, s in positions(rs, f"fold:{ruleset}", 60):
        if g.phase is not Phase.TURN or g.seats[s].riichi:
            continue
        riichi = [o for o, st in enumerate(g.seats) if o != s and st.riichi]
        c = g.seats[s].counts
        if not riichi or g._calc.shanten(c) < 2:
            continue
        legal = list(g.legal_actions(s))
        if kinds(legal) & _FIRST:
            continue
        safe = {
            a.tile & ~RED
            for a in legal
            if a.type is A.DISCARD and all(a.tile & ~RED in g.seats[o].discarded_kinds for o in riichi)
        }
        if not safe:
            continue
        a = smart(g, s)
        assert a.type is A.DISCARD and a.tile & ~RED in safe, f"{a.text} is not genbutsu ({sorted(safe)})"
        checked += 1
        if checked >= 20:
            break
    assert checked >= 20


# -- the fast search is exact ----------------------------------------------------------------


def _random_hand(rng: random.Random, removed: frozenset[int]) -> list[int]:
    """A 3n+2 concealed hand, often shaped toward chiitoitsu or kokushi, or open (fewer tiles)."""
    pool = [k for k in range(34) if k not in removed for _ in range(4)]
    size = rng.choice([14, 14, 14, 11, 8, 5, 2])
    shape = rng.random()
    if shape < 0.2:  # pairs
        ks = rng.sample([k for k in range(34) if k not in removed], 7)
        tiles = [k for k in ks for _ in range(2)][:size]
    elif shape < 0.35:  # terminals and honours
        tiles = rng.sample([k for k in YAOCHU for _ in range(4)], size)
    else:
        tiles = rng.sample(pool, size)
    c = [0] * 34
    for k in tiles:
        c[k] += 1
    return c


@pytest.mark.parametrize("ruleset", RULESETS)
def test_efficiency_matches_the_calculator(ruleset: str) -> None:
    """Shanten and ukeire per discard from the suit-by-suit search equal ``calc.shanten`` and
    ``calc.ukeire(...).count`` (removed kinds have no copies), with and without the tables."""
    rs = find_ruleset(ruleset)
    calc = rs.shanten_calculator()
    rng = random.Random(f"eff:{ruleset}")
    for _ in range(600):
        c = _random_hand(rng, rs.removed_kinds)
        seen = [rng.randrange(0, 5 - c[k]) if rng.random() < 0.3 else 0 for k in range(34)]
        avail = [0 if k in rs.removed_kinds else 4 - c[k] - seen[k] for k in range(34)]
        fast = policy._Efficiency(calc, c, list(avail))
        slow = policy._Efficiency(calc, c, list(avail))
        slow.t = None
        for k in range(34):
            if not c[k]:
                continue
            c[k] -= 1
            sh = calc.shanten(c)
            uk = calc.ukeire(c, seen)
            want = sum(n for kind, n in uk.tiles.items() if kind not in rs.removed_kinds)
            c[k] += 1
            assert fast.shanten(k) == sh == slow.shanten(k)
            assert fast.ukeire(k, sh) == want == slow.ukeire(k, sh), (c, k)
            assert fast.bound(k, sh) >= want


def _reference(g: Game, seat: int) -> Action:
    """Smart's discard choice scored in full for every discard, with ``calc.ukeire``."""
    legal = list(g.legal_actions(seat))
    discards = [a for a in legal if a.type is A.DISCARD]
    riichi = [a for a in legal if a.type is A.RIICHI]
    calc, st = g._calc, g.seats[seat]
    c = st.counts
    seen = visible(g)
    removed = g.ruleset.removed_kinds
    dora = policy._dora_kinds(g)
    threat = any(o.riichi for i, o in enumerate(g.seats) if i != seat)

    def after(k: int) -> tuple[int, int]:
        c[k] -= 1
        sh = calc.shanten(c)
        uk = sum(n for kind, n in calc.ukeire(c, seen).tiles.items() if kind not in removed)
        c[k] += 1
        return sh, uk

    fold = threat and min(after(a.tile & ~RED)[0] for a in discards) >= 2
    scored = []
    for a in discards:
        k = a.tile & ~RED
        sh, uk = after(k)
        s = (
            -sh * 100
            + (uk if sh <= 3 else 0)
            - 2 * policy._value(g, seat, k, dora)
            - (0.5 if a.tile & RED else 0)
        )
        if k >= 27 and c[k] == 1:
            s += 0.3
        if threat and sh >= 1:
            d = policy._danger(g, seat, k, seen)
            s -= 120 * d * (1.5 if sh >= 2 else 0.6) + (policy._FOLD * d if fold else 0)
        scored.append((s, a))
    best = max(scored, key=lambda x: x[0])  # the first of equals
    if riichi:
        waits, choice = max(((after(a.tile & ~RED)[1], a) for a in riichi), key=lambda x: x[0])
        if waits >= 2 and not (threat and policy._danger(g, seat, choice.tile & ~RED, seen) > 0.6):
            return choice
    return best[1]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_discard_choice_equals_full_scoring(ruleset: str) -> None:
    """Branch and bound over the discards picks what scoring every discard in full picks."""
    rs = find_ruleset(ruleset)
    checked = 0
    for g, s in positions(rs, f"bnb:{ruleset}", 20, mix=0.1):
        legal = list(g.legal_actions(s))
        if g.phase is not Phase.TURN or kinds(legal) & _FIRST or A.DISCARD not in kinds(legal):
            continue
        if sum(1 for a in legal if a.type is A.DISCARD) == 1 and A.RIICHI not in kinds(legal):
            continue
        assert smart(g, s) == _reference(g, s)
        checked += 1
        if checked >= 250:
            break
    assert checked >= 250

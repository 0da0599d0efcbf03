"""1,000 random self-play games of shoukou: no error, tiles and points conserved throughout.

The games are kept short the way pk's are: tonpuu games started at the all-last hand (East 4,
honba 0–2), which end after that hand unless the dealer keeps the deal. Each game is played to
its end and its final scores must follow from the hand results (``check_final``); points are
checked before every action, every tile every 8th step. Half the seeds take every win offered and
each call and kan offered (transformed ones included) half the time, so that transformed melds,
kans, robbed kans and shoukou-only wins actually happen; the other half play uniformly at random."""

from __future__ import annotations

import random
from collections import Counter

from engine.hand.decompose import decompositions
from engine.rules import find_ruleset
from engine.rules.shoukou.moves import chi_options, chi_possible, meld_sets_of, wait_set
from engine.rules.shoukou.scoring import shift_targets
from engine.table.actions import ActionType as A
from engine.table.game import Game
from engine.tiles import RED, YAOCHU, counts_of, parse_tiles
from tests.engine.selfplay import (
    check_final,
    check_invariants,
    check_points,
    eager_agent,
    play_random,
    random_agent,
)

TONPUU = find_ruleset("shoukou").with_options(hanchan=False)
_EAGER = (A.TSUMO, A.RON, A.RIICHI, A.PON, A.CHI, A.ANKAN, A.KAKAN, A.DAIMINKAN)
AGENTS = (eager_agent(_EAGER, p=0.5, always=(A.TSUMO, A.RON)), random_agent)


def _conservation(g: Game, step: int) -> None:
    if step % 8 == 0:
        check_invariants(g)
    else:
        check_points(g)


def test_sk_1_1000_random_selfplay_games_conserve_tiles_and_points() -> None:
    kinds: Counter[str] = Counter()
    shifted: Counter[str] = Counter()
    hands = 0
    for seed in range(1000):
        g = play_random(TONPUU, seed, start=(0, 3, seed % 3, 0), agent=AGENTS[seed % 2], on_step=_conservation)
        assert g.over and not g.truncated
        check_final(g)
        hands += len(g.results)
        kinds.update(r.kind for r in g.results)
        shifted.update(a.type.name for a in g.actions if a.shift)
    assert hands > 1000  # some dealers kept the deal: the hand-to-hand flow ran too
    assert kinds["ron"] + kinds["tsumo"] > 50, kinds
    assert shifted["CHI"] and shifted["PON"] and (shifted["ANKAN"] or shifted["KAKAN"]), shifted


def test_sk_1_whole_selfplay_games_end_with_consistent_scores() -> None:
    for seed in range(3):
        g = play_random(TONPUU, seed, check_every=4, eager=True)
        check_final(g)


# --- the fast paths against the definitions (the engine reads hands without listing their readings)


def _complete_by_definition(c: list[int], meld_sets: list[int], transform: bool) -> bool:
    """SK-8/SK-9 literally: the hand, or the hand with one concealed tile moved 3 ranks, has a
    standard reading (sets and one pair), or, closed, is seven pairs or kokushi."""
    variants = [c]
    if transform:
        for a in range(27):
            for d in shift_targets(a) if c[a] else ():
                v = list(c)
                v[a] -= 1
                v[d] += 1
                variants.append(v)
    for v in variants:
        if decompositions(v):
            return True
        if not meld_sets and sum(v) == 14:
            if sum(1 for x in v if x == 2) == 7 or (all(v[k] for k in YAOCHU) and sum(v[k] for k in YAOCHU) == 14):
                return True
    return False


def test_sk_11_wait_sets_and_call_filters_match_the_definitions_on_selfplay_hands() -> None:
    """SK-11: W is every kind whose tile completes the hand (SK-8/SK-9, at most one tile moved);
    the table's wait sets, computed part by part, are exactly that on 150 hands met in self-play
    (100 within one tile of tenpai, where W may be non-empty), and the count filter in front of
    the chi options (SK-3) never hides one."""
    near: list[tuple[list[int], list[int], list[int]]] = []
    far: list[tuple[list[int], list[int], list[int]]] = []
    seed = 0
    while len(near) < 100 or len(far) < 50:
        rng = random.Random(seed)
        g = Game(TONPUU, seed=seed)
        seed += 1
        while not g.over:
            s = g.to_act()[0]
            a = AGENTS[0](g, s, list(g.legal_actions(s)), rng)
            g.apply(a)
            st = g.seats[s]
            if g.over or a.type not in (A.DISCARD, A.RIICHI):
                continue
            sets = meld_sets_of(m.effective or tuple(g.codes[t] & ~RED for t in m.tiles) for m in st.melds)
            item = (list(st.counts), sets, [g.codes[t] for t in st.tiles])
            (near if g.calc.shanten(st.counts) <= 1 else far).append(item)
    # and closed hands of the shapes self-play seldom reaches: seven pairs (one moved), kokushi,
    # honour pairs that are no standard hand
    for text in ("1133557799m11p2p", "1144m2277p3399s5z", "19m19p19s1234567z", "19m19p9s12345677z", "112233z123m456p7s"):
        codes = parse_tiles(text)
        near.append((counts_of(codes), [], codes))
    found = 0
    for c, sets, hand in near[:100] + far[:50] + near[-5:]:
        for transform in (True, False):
            want = tuple(
                k for k in range(34) if _complete_by_definition([*c[:k], c[k] + 1, *c[k + 1 :]], sets, transform)
            )
            assert wait_set(c, sets, transform=transform) == want, (c, sets, transform)
            found += bool(want)
            for d in range(27):
                if chi_options(hand, d, transform=transform):
                    assert chi_possible(c, d, transform=transform), (hand, d)
    assert found >= 20  # hands with waits, not only empty sets

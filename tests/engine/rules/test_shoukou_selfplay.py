"""1,000 random self-play hands of shoukou: no error, tiles and points conserved throughout.

Each game is played to the end of its first hand (1,000 hands in all, to stay near a minute);
half the seeds take every win, call and kan offered (transformed ones included) so that
transformed melds, kans, robbed kans and shoukou-only wins actually happen."""

from __future__ import annotations

import random
from collections import Counter

from engine.rules import find_ruleset
from engine.table.actions import ActionType as A
from engine.table.game import Game
from tests.engine.selfplay import check_final, check_invariants, play_random

_EAGER = (A.TSUMO, A.RON, A.RIICHI, A.PON, A.CHI, A.ANKAN, A.KAKAN, A.DAIMINKAN)


def test_sk_1_1000_random_selfplay_hands_conserve_tiles_and_points() -> None:
    rs = find_ruleset("shoukou")
    kinds: Counter[str] = Counter()
    shifted: Counter[str] = Counter()
    for seed in range(1000):
        rng = random.Random(seed)
        g = Game(rs, seed=seed)
        eager = seed % 2 == 0
        steps = 0
        while not g.results:
            s = g.to_act()[0]
            legal = list(g.legal_actions(s))
            assert legal
            if eager:
                for t in _EAGER:
                    best = [a for a in legal if a.type is t]
                    if best and (t in (A.TSUMO, A.RON) or rng.random() < 0.5):
                        legal = best
                        break
            a = rng.choice(legal)
            if a.shift:
                shifted[a.type.name] += 1
            g.apply(a)
            steps += 1
            assert steps < 2000
            if steps % 8 == 0:
                check_invariants(g)
        check_invariants(g)
        kinds[g.results[0].kind] += 1
    assert kinds["ron"] + kinds["tsumo"] > 50, kinds
    assert shifted["CHI"] and shifted["PON"] and (shifted["ANKAN"] or shifted["KAKAN"]), shifted


def test_sk_1_whole_selfplay_games_end_with_consistent_scores() -> None:
    rs = find_ruleset("shoukou").with_options(hanchan=False)
    for seed in range(3):
        g = play_random(rs, seed, check_every=4, eager=True)
        check_final(g)

"""Seigou self-play (tests/engine/selfplay.py's random and eager agents).

* 1,000 hands, each the first hand of its own seeded game (the dealer seat rotated by the seed),
  a third each with the random agent, the eager one (wins, riichi, pon, kans whenever offered)
  and a closed eager one (never claims; wins, riichi, ankan whenever offered): no error, every
  tile and every point accounted for at every 3rd step, turns in strict order (SG-D1), at most one
  tile per turn (SG-D3), and 18 draws-or-claims per seat whenever the hand is not ended by a win
  or an abortive draw (SG-7). One hand, not one hanchan, per game keeps the run under a minute.
* 40 whole games (tonpuu and hanchan) through ``play_random``: they finish, and the final scores
  follow from the hand results (``check_final``).
"""

from __future__ import annotations

import json
import random
from collections import Counter

from engine.rules import find_ruleset
from engine.rules.seigou import Seigou, hand_of
from engine.table.actions import Action, ActionType
from engine.table.game import Game, Phase
from tests.engine.selfplay import (
    _EAGER,
    all_tiles,
    check_copy_isolated,
    check_final,
    check_reload,
    play_random,
)

_rs = find_ruleset("seigou")
assert isinstance(_rs, Seigou)
SEIGOU: Seigou = _rs
DRAWS = ("exhaustive", "nagashi_mangan")


def _check_tiles_and_points(g: Game) -> None:
    assert sum(g.scores) + 1000 * g.sticks == 4 * g.opts.start_points
    tiles = all_tiles(g) + list(g.deal.unused)  # the 2 freed tiles that are never used (SG-7)
    assert not [t for t, c in Counter(tiles).items() if c > 1], "a tile counted twice"
    assert len(tiles) == 136
    for s in g.to_act():
        assert len(g.legal_actions(s)) > 0


_CLOSED = (ActionType.TSUMO, ActionType.RON, ActionType.RIICHI, ActionType.ANKAN)


def _play_one_hand(seed: int, eager: bool, seen: Counter[str], closed: bool = False) -> tuple[str, list[int]]:
    """Plays the first hand of a seeded game; returns its result kind and the tiles each seat
    acquired in it (the hand's own bookkeeping object, which the next hand does not reuse)."""
    rng = random.Random(seed)
    g = Game(SEIGOU, seed=seed, start=(0, seed % 4, 0, 0))
    dealer = g.dealer
    steps = 0
    hs = hand_of(g)
    while not g.results:
        hs = hand_of(g)
        acquired = hs.acquired
        # SG-D1: the seat whose turn it is follows strict order from the dealer
        assert g.current == (dealer + hs.turn - 1) % 4
        # SG-D3: at most one tile per turn
        turns_started = [(hs.turn - ((s - dealer) % 4) + 3) // 4 for s in range(4)]
        assert all(a <= t for a, t in zip(acquired, turns_started)), (acquired, turns_started)
        acting = g.to_act()
        assert acting, "the game waits for nobody"
        legal = list(g.legal_actions(acting[0]))
        if closed and g.phase is Phase.CLAIM:
            legal = [a for a in legal if a.type is ActionType.PASS]
        if eager or closed:
            for t in _EAGER if eager else _CLOSED:
                best = [a for a in legal if a.type is t]
                if best:
                    legal = best
                    break
        if g.phase is Phase.CLAIM:  # pass (= draw) is always offered
            assert Action(ActionType.PASS, acting[0]) in g.legal_actions(acting[0])
        g.apply(rng.choice(legal))
        steps += 1
        if steps % 3 == 0 and not g.results:
            _check_tiles_and_points(g)
        assert steps < 2000
    seen.update(a.type.name for a in g.actions)
    return g.results[0].kind, hs.acquired


def test_sg_7_selfplay_1000_hands_turn_count_tiles_and_points() -> None:
    kinds: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for seed in range(1000):
        kind, acquired = _play_one_hand(seed, eager=seed % 3 == 1, seen=seen, closed=seed % 3 == 2)
        kinds[kind] += 1
        if kind in DRAWS:
            assert acquired == [18, 18, 18, 18], (seed, acquired)
        else:
            assert max(acquired) <= 18
    # the run went through the turn structure's every branch, wins included
    assert kinds["exhaustive"] and kinds["ron"] and kinds["tsumo"], kinds
    assert seen["PON"] > 1000 and seen["CHI"] > 1000 and seen["DAIMINKAN"] and seen["ANKAN"] and seen["KAKAN"], seen
    assert seen["RIICHI"] >= 10 and kinds["ron"] + kinds["tsumo"] >= 10, (seen, kinds)


def test_sg_selfplay_whole_games_finish_with_consistent_scores() -> None:
    modes = [SEIGOU.with_options(hanchan=False), SEIGOU]
    for i in range(40):
        g = play_random(modes[i % 2], 5000 + i, check_every=0, eager=i % 4 >= 2)
        assert g.over and not g.truncated
        check_final(g)


def test_sg_1_games_with_delayed_claims_round_trip_through_the_action_text() -> None:
    # Claims of earlier discards name their discarder ("2p77p@0"); the stored text replays exactly.
    for seed in (1, 2):
        g = play_random(SEIGOU.with_options(hanchan=False), seed, eager=True)
        texts = g.to_dict()["actions"].split()
        assert any("@" in t for t in texts)
        assert all(Action.parse(t).text == t for t in texts)
        h = Game.from_dict(g.to_dict())
        assert h.final_scores == g.final_scores and [r.deltas for r in h.results] == [r.deltas for r in g.results]


# Every seigou.md §6 option away from its default, with a riichi option besides.
SG_CHANGED = {
    "hanchan": False,
    "seigou": {
        "claim_window": "last_discard_only",
        "turns_per_player": 12,
        "riichi_last_turn": 9,
        "suukaikan": False,
        "kan_dora_timing": "next_discard",
        "houtei_on_chankan_turn18": False,
    },
}


def test_sg_7_non_default_options_game_saves_reloads_and_copies() -> None:
    """The bot stores ruleset + options + seed + actions: a game under changed seigou options reloads
    as the same game, and a look-ahead copy (the AI's ``Game.copy()``, which copies the per-hand
    turn bookkeeping) leaves the original untouched."""
    rs = SEIGOU.with_options(**SG_CHANGED)
    draws = 0
    for seed in (1, 2):
        g = play_random(rs, seed, eager=seed == 2, on_step=lambda g, i: i % 13 or check_copy_isolated(g, i))
        assert json.loads(json.dumps(g.to_dict()))["options"] == SG_CHANGED
        check_reload(g)
        for r in g.results:
            if r.kind == "exhaustive":  # SG-7 with turns_per_player = 12: 48 turns, then the draw
                draws += 1
    h = Game(rs, seed=9)  # everybody draws and discards: the hand is drawn after 12 turns each
    while not h.results:
        hs = hand_of(h)
        h.apply(next(a for a in h.legal_actions(h.to_act()[0]) if a.type in (ActionType.PASS, ActionType.DISCARD)))
    assert h.results[0].kind == "exhaustive" and hs.acquired == [12, 12, 12, 12]
    assert draws

"""Seigou self-play (tests/engine/selfplay.py's random and eager agents).

* 1,000 complete games, kept short the way pk's are: tonpuu games started at the all-last hand
  (East 4, honba 0–2), which end after that hand unless the dealer keeps the deal. A third each
  with the random agent, the eager one (wins, riichi, pon, kans whenever offered) and a closed
  eager one (never claims; wins, riichi, ankan whenever offered). No error; the game ends and its
  final scores follow from the hand results (``check_final``); points are conserved before every
  action and every tile is accounted for at every 3rd step; turns come in strict order (SG-D1), a
  seat acquires at most one tile per turn (SG-D3), and every hand not ended by a win or an
  abortive draw gives each seat its 18 draws-or-claims (SG-7).
* 40 whole games (tonpuu and hanchan) through ``play_random``: they finish, and the final scores
  follow from the hand results (``check_final``).
"""

from __future__ import annotations

import json
import random
from collections import Counter

from engine.rules import find_ruleset
from engine.rules.seigou import Seigou, SeigouHand, hand_of
from engine.table.actions import Action, ActionType
from engine.table.game import Game, HandResult, Phase
from tests.engine.selfplay import (
    _EAGER,
    all_tiles,
    check_copy_isolated,
    check_final,
    check_invariants,
    check_points,
    check_reload,
    eager_agent,
    play_random,
    random_agent,
)

_rs = find_ruleset("seigou")
assert isinstance(_rs, Seigou)
SEIGOU: Seigou = _rs
TONPUU = SEIGOU.with_options(hanchan=False)
DRAWS = ("exhaustive", "nagashi_mangan")


def _seigou_tiles(g: Game) -> list[int]:
    return all_tiles(g) + list(g.deal.unused)  # the 2 freed tiles that are never used (SG-7)


_CLOSED = (ActionType.TSUMO, ActionType.RON, ActionType.RIICHI, ActionType.ANKAN)
_closed_eager = eager_agent(_CLOSED)


def _closed_agent(g: Game, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """Never claims a discard (passes, that is draws, in every claim window); otherwise eager
    for wins, riichi and concealed kans."""
    if g.phase is Phase.CLAIM:
        legal = [a for a in legal if a.type is ActionType.PASS]
    return _closed_eager(g, seat, legal, rng)


AGENTS = (random_agent, eager_agent(_EAGER), _closed_agent)


class _TurnWatch:
    """``on_step``: SG-D1 and SG-D3 before every action, SG-7 at the end of every hand (the hand's
    own bookkeeping object, which the next hand does not reuse, keeps its final counts)."""

    def __init__(self, check_tiles_every: int = 3) -> None:
        self.every = check_tiles_every
        self.hand: SeigouHand | None = None
        self.ended = 0  # hands of the game whose end was checked
        self.kinds: Counter[str] = Counter()

    def __call__(self, g: Game, step: int) -> None:
        self._hands_ended(g)
        check_points(g)
        if self.every and step % self.every == 0:
            check_invariants(g, _seigou_tiles)
        hs = self.hand = hand_of(g)
        dealer = g.dealer
        # SG-D1: the seat whose turn it is follows strict order from the dealer
        assert g.current == (dealer + hs.turn - 1) % 4
        # SG-D3: at most one tile per turn
        turns_started = [(hs.turn - ((s - dealer) % 4) + 3) // 4 for s in range(4)]
        assert all(a <= t for a, t in zip(hs.acquired, turns_started)), (hs.acquired, turns_started)
        acting = g.to_act()
        if g.phase is Phase.CLAIM:  # pass (= draw) is always offered
            assert Action(ActionType.PASS, acting[0]) in g.legal_actions(acting[0])

    def _hands_ended(self, g: Game) -> None:
        if len(g.results) > self.ended:
            assert len(g.results) == self.ended + 1 and self.hand is not None
            self._check_end(g.results[self.ended], self.hand)
            self.ended += 1

    def _check_end(self, r: HandResult, hs: SeigouHand) -> None:
        self.kinds[r.kind] += 1
        if r.kind in DRAWS:  # SG-7: the hand ran its 18 turns per seat
            assert hs.acquired == [18, 18, 18, 18], (r, hs.acquired)
        else:
            assert max(hs.acquired) <= 18

    def game_over(self, g: Game) -> None:
        assert g.over and not g.truncated
        self._hands_ended(g)
        assert self.ended == len(g.results)


def test_sg_7_selfplay_1000_short_games_turn_count_tiles_and_points() -> None:
    kinds: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    hands = 0
    for seed in range(1000):
        watch = _TurnWatch()
        g = play_random(TONPUU, seed, start=(0, 3, seed % 3, 0), agent=AGENTS[seed % 3], on_step=watch)
        watch.game_over(g)
        check_final(g)
        kinds += watch.kinds
        hands += len(g.results)
        seen.update(a.type.name for a in g.actions)
    assert hands > 1000  # some dealers kept the deal: the hand-to-hand flow ran too
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

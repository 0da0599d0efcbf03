"""The table state machine: validation messages, serialisation, copies (riichi.md §4–§5)."""

from __future__ import annotations

import json

import pytest

from engine.rules import find_ruleset
from engine.table.actions import Action, ActionType
from engine.table.game import Game, IllegalActionError, Phase
from tests.engine.selfplay import play_random

A = ActionType


def _to_call_phase(g: Game) -> None:
    """Discard until some seat has a call option (seeded, deterministic)."""
    for _ in range(200):
        if g.phase is Phase.CALL:
            return
        s = g.to_act()[0]
        g.apply(next(a for a in g.legal_actions(s) if a.type is A.DISCARD))
    raise AssertionError("no call window in 200 discards")


def test_not_your_turn_and_unheld_tiles_get_player_sentences() -> None:
    g = Game(find_ruleset("riichi"), seed=1)
    assert g.to_act() == [0]
    with pytest.raises(IllegalActionError, match="it is not your turn"):
        g.play(Action(A.DISCARD, 1, 0))
    held = {g.code(t) for t in g.seats[0].tiles}
    missing = next(c for c in range(34) if c not in held)
    with pytest.raises(IllegalActionError, match="you do not hold"):
        g.play(Action(A.DISCARD, 0, missing))
    with pytest.raises(IllegalActionError):
        g.play(Action(A.RON, 0))


def test_r_4_2_chi_only_from_the_left() -> None:
    for seed in range(50):
        g = Game(find_ruleset("riichi"), seed=seed)
        _to_call_phase(g)
        across = (g.last_discarder + 2) % 4
        if across in g.to_act():
            continue
        with pytest.raises(IllegalActionError, match="player on your left"):
            g.play(Action(A.CHI, across, -1, (0, 1)))
        return
    raise AssertionError("no suitable position found")


def test_double_answer_is_refused() -> None:
    for seed in range(100):
        g = Game(find_ruleset("riichi"), seed=seed)
        _to_call_phase(g)
        if len(g.to_act()) >= 2:
            s = g.to_act()[0]
            g.play(Action(A.PASS, s))
            with pytest.raises(IllegalActionError, match="already answered"):
                g.play(Action(A.PASS, s))
            return
    raise AssertionError("no two-seat call window found")


def test_r_4_4_kuikae_after_pon_is_refused() -> None:
    for seed in range(300):
        g = Game(find_ruleset("riichi"), seed=seed)
        for _ in range(300):
            if g.over or g.results:
                break
            s = g.to_act()[0]
            legal = list(g.legal_actions(s))
            pon = [a for a in legal if a.type is A.PON]
            if pon:
                g.play(pon[0])
                while g.phase is Phase.CALL:
                    g.play(Action(A.PASS, g.to_act()[0]))
                assert g.phase is Phase.TURN and g.current == pon[0].seat
                k = pon[0].tiles[0] & ~0x40
                st = g.seats[pon[0].seat]
                if any(g.kind(t) == k for t in st.tiles):
                    with pytest.raises(IllegalActionError, match="kuikae"):
                        g.play(Action(A.DISCARD, pon[0].seat, k))
                    return
                break
            g.apply(next((a for a in legal if a.type in (A.DISCARD, A.PASS)), legal[0]))
    raise AssertionError("no pon with a same-kind tile left found")


def test_game_serialises_to_ruleset_seed_actions_and_back() -> None:
    g = play_random(find_ruleset("riichi").with_options(hanchan=False), 7, eager=True)
    data = json.loads(json.dumps(g.to_dict()))
    assert data["options"] == {"hanchan": False}
    h = Game.from_dict(data)
    assert h.over and h.final_scores == g.final_scores
    assert [r.deltas for r in h.results] == [r.deltas for r in g.results]


def test_action_text_round_trip() -> None:
    for text in ("0d5m", "1r0p", "2t", "3a5z", "0k5p", "1n4z", "0y", "1h", "2c34m", "3p50m", "1m", "2x"):
        assert Action.parse(text).text == text


def test_copy_is_independent() -> None:
    g = Game(find_ruleset("riichi"), seed=3)
    c = g.copy()
    a = next(iter(c.legal_actions(0)))
    c.apply(a)
    assert len(g.actions) == 0 and len(c.actions) == 1
    assert g.seats[0].tiles != c.seats[0].tiles or g.phase != c.phase


def test_legal_actions_is_a_lazy_sequence() -> None:
    g = Game(find_ruleset("riichi"), seed=5)
    la = g.legal_actions(0)
    assert len(la) == len(list(la)) > 0
    assert la[0] in la
    assert Action(A.PASS, 0) not in la

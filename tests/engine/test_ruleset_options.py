"""A game under changed options — riichi's and a variant's own — saves and reloads as the same game."""

from __future__ import annotations

import json
import random

import pytest

from engine.rules import find_ruleset, ruleset_names
from engine.table.game import Game

CHANGES: dict[str, dict[str, object]] = {
    "riichi": {"kuitan": False, "uma": [30, 10, -10, -30], "abortive_draws": {"sanchahou": False}},
    "pk": {"pk": {"tenhou_check": "lenient"}, "hanchan": False},
    "seigou": {"seigou": {"claim_window": "last_discard_only"}},
    "chinitsu_toutenkou": {"ct": {"suit": "s"}},
    "taiwan16": {"tw": {"rate": 30, "multi_win": "all", "tai": {"sanankou": 3}}},
    "shoukou": {"hanchan": False},
}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_changed_options_survive_to_dict_and_from_dict(name: str) -> None:
    if name not in ruleset_names():
        pytest.skip(f"{name} is not in the engine")
    rs = find_ruleset(name).with_options(**CHANGES[name])
    assert rs != find_ruleset(name)
    g = Game(rs, seed=5)
    rng = random.Random(5)
    for _ in range(60):
        if g.over:
            break
        seat = g.to_act()[0]
        g.apply(rng.choice(list(g.legal_actions(seat))))
    data = json.loads(json.dumps(g.to_dict()))
    again = Game.from_dict(data)
    assert again.ruleset == rs
    assert [a.text for a in again.actions] == [a.text for a in g.actions]
    assert again.scores == g.scores and [st.tiles for st in again.seats] == [st.tiles for st in g.seats]

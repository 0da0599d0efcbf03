"""The fairness commitment, the export of a running game and ``verify`` (issue 16, "Fairness")."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.__main__ import main as engine_main
from engine.logs.export import to_jantaku, to_tenhou6
from engine.rules import find_ruleset
from engine.table.actions import Action, ActionType
from engine.table.game import Game
from engine.tiles import format_tiles
from engine.verify import commitment, verify
from tests.engine.selfplay import play_random


def _finished(name: str, seed: int | str = 7, **options: Any) -> tuple[Game, dict[str, Any]]:
    rs = find_ruleset(name)
    rs = rs.with_options(**options) if options else rs
    if isinstance(seed, int):
        g = play_random(rs, seed, eager=True)
    else:  # a seed as the bot draws them (text): random legal play, wins taken
        g, rng = Game(rs, seed), random.Random(0)
        while not g.over:
            legal = list(g.legal_actions(g.to_act()[0]))
            wins = [a for a in legal if a.type in (ActionType.TSUMO, ActionType.RON)]
            g.apply(rng.choice(wins or legal))
    c = commitment(rs.name, rs.options_dict(), g.seed)
    return g, json.loads(json.dumps(to_jantaku(g, commitment=c)))


def test_commitment_is_sha256_of_the_canonical_json_of_ruleset_options_and_seed() -> None:
    text = b'{"options":{"hanchan":false,"kuitan":true},"ruleset":"riichi","seed":"abc"}'
    assert commitment("riichi", {"kuitan": True, "hanchan": False}, "abc") == hashlib.sha256(text).hexdigest()
    # the same walls (seed 5 and "5" deal alike), the same commitment; any change, another one
    assert commitment("riichi", {}, 5) == commitment("riichi", {}, "5")
    base = commitment("riichi", {}, "abc")
    assert len({base, commitment("riichi", {}, "abd"), commitment("tenhou", {}, "abc"), commitment("riichi", {"hanchan": False}, "abc")}) == 4


@pytest.mark.parametrize(("name", "options"), [("riichi", {}), ("taiwan16", {"tw": {"rounds": 1}}), ("chinitsu_toutenkou", {})])
def test_a_finished_game_verifies_against_its_commitment(name: str, options: dict[str, Any]) -> None:
    g, export = _finished(name, **options)
    verdict = verify(export, expected=export["commitment"])
    assert verdict.ok, verdict.sentence
    assert verdict.sentence.startswith("verified")
    assert export["seed"] == g.seed and export["final_scores"] == list(g.final_scores)
    assert len(export["hands"]) == len(g.results)
    assert Game.from_dict(export).final_scores == g.final_scores  # the export still replays as to_dict's


def test_verify_detects_a_changed_seed_action_log_hand_or_score() -> None:
    g, export = _finished("riichi")
    posted = export["commitment"]

    other_seed = {**export, "seed": "not-the-seed"}
    v = verify(other_seed)
    assert not v.ok and "commitment" in v.sentence
    # the seed changed and the recorded commitment recomputed to match: the published one catches it
    forged = {**other_seed, "commitment": commitment("riichi", {}, "not-the-seed")}
    v = verify(forged, expected=posted)
    assert not v.ok and "published" in v.sentence
    other_options = {**export, "options": {"hanchan": False}}
    assert not verify(other_options).ok

    tokens = export["actions"].split()
    i = next(i for i, t in enumerate(tokens) if i > 20 and t[1] == "d")  # a discard in the first hand
    replay = Game(g.ruleset, g.seed)
    for t in tokens[:i]:
        replay.play(Action.parse(t))
    others = [a.text for a in replay.legal_actions(int(tokens[i][0])) if a.text != tokens[i] and a.text[1] == "d"]
    assert others
    v = verify({**export, "actions": " ".join([*tokens[:i], others[0], *tokens[i + 1 :]])})
    assert not v.ok, v.sentence
    v = verify({**export, "actions": " ".join(tokens[:-1])})
    assert not v.ok, v.sentence

    for key in ("deltas", "haipai", "actions"):
        changed = copy.deepcopy(export)
        first = changed["hands"][0]
        first[key] = [d + 1000 for d in first[key]] if key == "deltas" else first[key][::-1]
        v = verify(changed)
        assert not v.ok and "hand 1" in v.sentence, v.sentence
    v = verify({**export, "final_scores": [25000] * 4})
    assert not v.ok and "final scores" in v.sentence
    assert not verify({**export, "hands": export["hands"][:-1]}).ok


def test_a_running_games_export_holds_its_finished_hands_only_and_no_seed() -> None:
    seed = "9f8e7d6c5b4a39281706f5e4d3c2b1a0"
    g, export = _finished("riichi", seed=seed)
    # the same game cut in the middle of its third hand
    third = sum(len(h["actions"].split()) for h in export["hands"][:2])
    running = Game(g.ruleset, g.seed)
    for a in g.actions[: third + 10]:
        running.apply(a)
    assert len(running.results) == 2 and not running.over
    out = json.loads(json.dumps(to_jantaku(running, commitment=export["commitment"])))
    text = json.dumps(out)
    assert seed not in text and '"seed"' not in text
    assert out["in_progress"] is True and "actions" not in out and "final_scores" not in out
    assert out["hands"] == export["hands"][:2]  # the finished hands exactly as the final export has them
    current = [format_tiles((running.code(x) for x in h), sort=True) for h in running.deal.haipai]
    assert all(h["haipai"] != current for h in out["hands"])
    v = verify(out)
    assert not v.ok and "no seed" in v.sentence
    t6 = to_tenhou6(running)
    assert len(t6["log"]) == 2 and "sc" not in t6 and seed not in json.dumps(t6, ensure_ascii=False)


def test_engine_verify_command_prints_one_sentence_and_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, export = _finished("chinitsu_toutenkou")
    good = tmp_path / "good.jantaku.json"
    good.write_text(json.dumps(export))
    assert engine_main(["verify", str(good), "--commitment", export["commitment"]]) == 0
    assert capsys.readouterr().out.startswith("verified")
    assert engine_main(["verify", str(good), "--commitment", "0" * 64]) == 1
    assert "published" in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**export, "final_scores": [0, 0, 0]}))
    assert engine_main(["verify", str(bad)]) == 1
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert engine_main(["verify", str(broken)]) == 2
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 2 and out[1].startswith("error: cannot read")

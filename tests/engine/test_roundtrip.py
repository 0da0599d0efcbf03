"""Export round trips: engine game -> tenhou.net/6 JSON / mjai -> importer -> replay = the same game.

Real games (a sample of the Tenhou XML sets, every tenhou6 / mjai / Majiang game) are replayed,
exported, read back with the project's importers and replayed again; the second game must replay
cleanly and have exactly the same hand results (kinds, deltas, wins, tenpai, deposits, scores)
and final scores. Seeded random self-play games (4p hanchan, tonpuu, sanma) do the same.

What the formats cannot carry, and how the tests deal with it:

* neither format can name our presets (tenhou.net/6's ``rule.disp`` knows Tenhou and Mahjong Soul
  rooms, mjai has no rule fields), so both exports carry a ``"jantaku"`` entry with the ruleset
  name and its changed options, and games under ``riichi`` and ``mleague`` must read back under
  exactly those rules with no help (``test_export_reads_back_under_its_own_preset``);

* tenhou6 has no rule set for kobalab Majiang games (``rule.disp`` knows Tenhou and Mahjong Soul
  rooms only): for those the replayer is told the original rules;
* mjai has no rule fields at all (the importer assumes Tenhou hanchan): the replayer is handed
  the original rules;
* the project's tenhou6 and mjai importers read 4-player logs only: 3-player games are checked
  through the record that both exports format (``record_game`` -> ``replay_record``) and by the
  shape of their tenhou6 export;
* tenhou6 has no "pass": a seat that passes a pon and makes the same call on the same tile from
  the same player without drawing in between cannot be told from one that called the first
  discard (``tenhou6_ambiguities``); such self-play games go through mjai only.

Runtime: about 45 s of CPU single-threaded (XML: every 10th file; the whole XML set, every file,
round-trips as well but takes about 7 minutes).
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.logs.detect import load_any
from engine.logs.export import (
    dumps_mjai,
    record_game,
    tenhou6_ambiguities,
    to_mjai,
    to_tenhou6,
)
from engine.logs.mjai import parse_mjai
from engine.logs.record import Call, CallKind, GameRecord, LogFormatError, RuleInfo
from engine.logs.replay import ReplayReport, replay_record, ruleset_for
from engine.logs.tenhou6 import parse_tenhou6
from engine.rules.base import Ruleset, find_ruleset
from engine.table.actions import ActionType
from engine.table.game import Game, HandResult
from tests.conftest import SHARED

LOGS = SHARED / "data" / "logs"
XML = LOGS / "tenhou_xml"
XML_EVERY = 10  # every 10th Tenhou XML file (the whole set replays in about a minute on its own)
MJAI_EVERY = 3  # the mjai round trip for every 3rd real game
CHUNK = 30

pytestmark = pytest.mark.skipif(not LOGS.is_dir(), reason=f"shared logs not found at {LOGS}")


# ----------------------------------------------------------------------------------------------
# helpers


def _replay(record: GameRecord) -> tuple[Game | None, ReplayReport]:
    report = ReplayReport()
    return replay_record(record, report), report


def _canonical(r: HandResult) -> HandResult:
    """A hand result with the winning hands' tiles in sorted order (the engine lists them in the
    order of its physical tiles, which a log does not fix)."""
    wins = []
    for w in r.wins:
        h = getattr(w, "hand", None)
        if h is not None:
            melds = tuple(dataclasses.replace(m, tiles=tuple(sorted(m.tiles))) for m in h.melds)
            h = dataclasses.replace(h, concealed=tuple(sorted(h.concealed)), melds=melds)
            w = dataclasses.replace(w, hand=h)
        wins.append(w)
    return dataclasses.replace(r, wins=tuple(wins))


def _same_game(a: Game, b: Game, what: str) -> None:
    assert len(a.results) == len(b.results), f"{what}: {len(a.results)} hands, then {len(b.results)}"
    for i, (x, y) in enumerate(zip(a.results, b.results)):
        x, y = _canonical(x), _canonical(y)
        assert x == y, f"{what}: hand {i + 1} differs:\n{x}\n{y}"
    assert (a.over, a.truncated, a.final_scores, a.final_results) == (
        b.over,
        b.truncated,
        b.final_scores,
        b.final_results,
    ), what


def _via_tenhou6(g: Game, original: RuleInfo, what: str) -> Game:
    obj = json.loads(json.dumps(to_tenhou6(g), ensure_ascii=False))
    back = parse_tenhou6(obj, what)
    if original.source == "majiang":  # tenhou6's rule.disp has no way to say "Majiang rules"
        back.rules.source = original.source
    g2, report = _replay(back)
    assert g2 is not None and report.ok, f"{what}: tenhou6 export does not replay: {report.to_json()}"
    assert ruleset_for(back) == g2.ruleset
    return g2


def _via_mjai(g: Game, original: RuleInfo, what: str) -> Game:
    back = parse_mjai(dumps_mjai(g).splitlines(), what)
    back.rules = original  # mjai carries no rules (the importer assumes Tenhou hanchan)
    g2, report = _replay(back)
    assert g2 is not None and report.ok, f"{what}: mjai export does not replay: {report.to_json()}"
    return g2


def _via_record(g: Game, what: str) -> Game:
    g2, report = _replay(record_game(g))
    assert g2 is not None and report.ok, f"{what}: the recorded game does not replay: {report.to_json()}"
    return g2


def _check_tenhou6_shape(obj: dict[str, Any], g: Game, record: GameRecord) -> None:
    """What a tenhou.net/6 viewer needs, independent of our importer (which is 4-player only)."""
    n = g.players
    assert obj["ver"] == 2.3 and isinstance(obj["ref"], str)
    assert len(obj["name"]) == 4 and all(obj["name"][:n]) and obj["name"][n:] == [""] * (4 - n)
    assert obj["rule"]["disp"].startswith("三" if n == 3 else "般")
    assert ("南" in obj["rule"]["disp"]) == g.opts.hanchan
    if g.over and not g.truncated:
        assert len(obj["sc"]) == 8 and obj["sc"][0::2][:n] == list(g.final_scores)
    assert len(obj["log"]) == len(g.results)
    for hand, rec, res in zip(obj["log"], record.hands, g.results):
        assert len(hand) == 17
        assert hand[0] == [res.round_wind * 4 + res.hand_number, res.honba, rec.sticks]
        assert hand[1][n:] == [0] * (4 - n)
        for s in range(n, 4):
            assert hand[4 + 3 * s] == hand[5 + 3 * s] == hand[6 + 3 * s] == []
        for s in range(n):
            assert len(hand[4 + 3 * s]) == 13
            assert all(isinstance(x, int) or x[:1] in "cpm123456789" for x in hand[5 + 3 * s])
        kita = sum(1 for e in rec.events if isinstance(e, Call) and e.kind is CallKind.KITA)
        assert sum(1 for s in range(n) for x in hand[6 + 3 * s] if x == "f44") == kita
        assert len(hand[2]) >= 1 and (hand[3] == [] or len(hand[3]) == len(hand[2]))
        result = hand[16]
        if res.wins:
            assert result[0] == "和了" and len(result) == 1 + 2 * len(res.wins)
            total = [sum(col) for col in zip(*result[1::2], strict=True)]
            assert total[:n] == list(res.deltas) and total[n:] == [0] * (4 - n)
            for info, w in zip(result[2::2], res.wins, strict=True):
                assert info[:2] == [w.seat, w.from_seat] and info[3].endswith(("点", "点∀"))
                assert all(y.endswith(("飜)", "役満)")) for y in info[4:])
        else:
            assert result[0] in (
                "流局",
                "全員聴牌",
                "全員不聴",
                "流し満貫",
                "九種九牌",
                "四風連打",
                "四家立直",
                "三家和了",
                "四槓散了",
            )


# ----------------------------------------------------------------------------------------------
# real games


def _data_files() -> list[Path]:
    out: list[Path] = []
    for d in sorted(p for p in XML.iterdir() if p.is_dir()):
        if d.name in ("special_lobbies", "wall_from_seed"):
            continue
        files = sorted(d.glob("*.xml"))
        out += files if len(files) < XML_EVERY else files[XML_EVERY - 1 :: XML_EVERY]
    for sub, pattern in (("tenhou6_json", "*.json*"), ("mjai_jsonl", "*"), ("majiang_json", "*.json")):
        out += sorted(p for p in (LOGS / sub).rglob(pattern) if p.is_file())
    return out


FILES = _data_files() if LOGS.is_dir() else []
CHUNKS = [FILES[i : i + CHUNK] for i in range(0, len(FILES), CHUNK)]


def _chunk_id(files: list[Path]) -> str:
    return f"{files[0].parent.name}/{files[0].stem[:24]}+{len(files)}"


@pytest.mark.parametrize("files", CHUNKS, ids=[_chunk_id(c) for c in CHUNKS])
def test_real_games_round_trip(files: list[Path]) -> None:
    replayed = 0
    for k, path in enumerate(files):
        for record in load_any(path):
            g, _ = _replay(record)
            if g is None:
                continue  # a game the engine does not replay is reported by test_replay.py
            replayed += 1
            what = str(path.relative_to(LOGS))
            if g.players == 3:
                _same_game(g, _via_record(g, what), f"{what} (record)")
                _check_tenhou6_shape(to_tenhou6(g), g, record_game(g))
                continue
            _same_game(g, _via_tenhou6(g, record.rules, what), f"{what} (tenhou6)")
            if k % MJAI_EVERY == 0 or "mjai" in what:
                _same_game(g, _via_mjai(g, record.rules, what), f"{what} (mjai)")
    assert replayed > 0


def test_the_sample_covers_every_set() -> None:
    dirs = {p.relative_to(LOGS).parts[:2] for p in FILES}
    assert ("tenhou_xml", "phoenix_3p_hanchan") in dirs and ("tenhou_xml", "mixed_4p") in dirs
    assert {d[0] for d in dirs} == {"tenhou_xml", "tenhou6_json", "mjai_jsonl", "majiang_json"}


def _genuine_tenhou6() -> list[Path]:
    """tenhou6 files written by tenhou.net itself (not the tensoul / Mahjong Soul conversions)."""
    out = []
    for p in sorted((LOGS / "tenhou6_json").glob("*/*.json")):
        obj = json.loads(p.read_text(encoding="utf-8"))
        if "tensoul" in p.name or "_bug" in p.name or "playerMapping" in obj or "の間" in obj["rule"]["disp"]:
            continue
        out.append(p)
    return out


def _normalise(hand: list[Any]) -> list[Any]:
    """Tsumogiri marks of a discard equal to the drawn tile as the tile itself (the engine's
    actions carry tile codes, so "discarded the drawn 5m" and "discarded the other 5m" are one
    action); yaku strings as a set without 0-han entries."""
    out = [list(x) if isinstance(x, list) else x for x in hand]
    for s in range(4):
        draws, discards = hand[5 + 3 * s], hand[6 + 3 * s]
        di = 0
        last: Any = None
        fixed: list[Any] = []
        for x in discards:
            # the draw-list entry consumed before this discard (a call string leaves nothing drawn)
            if x == 0:
                di += 1
                last = None
                fixed.append(x)
                continue
            if isinstance(x, str) and x[:1] not in "r":
                fixed.append(x)
                last = draws[di] if di < len(draws) else None
                di += 1
                continue
            if di < len(draws):
                last = draws[di]
                di += 1
            raw = x[1:] if isinstance(x, str) else x
            v = int(raw)
            if v == 60 and isinstance(last, int):
                v = last
            fixed.append(f"r{v}" if isinstance(x, str) else v)
        out[6 + 3 * s] = fixed
    res = list(hand[16])
    if res and res[0] == "和了":
        for i in range(2, len(res), 2):
            info = res[i]
            res[i] = info[:4] + sorted(y for y in info[4:] if not y.endswith("(0飜)"))
    out[16] = res
    return out


@pytest.mark.parametrize("path", _genuine_tenhou6() if LOGS.is_dir() else [], ids=lambda p: p.name)
def test_tenhou6_export_equals_tenhou_files(path: Path) -> None:
    """Replaying a file tenhou.net wrote and exporting it gives back the file's hands."""
    original = json.loads(path.read_text(encoding="utf-8"))
    (record,) = load_any(path)
    g, report = _replay(record)
    assert g is not None, report.to_json()
    out = to_tenhou6(g, names=original["name"])
    assert out["name"] == original["name"]
    assert ("南" in out["rule"]["disp"]) == ("南" in original["rule"]["disp"])
    assert len(out["log"]) == len(original["log"])
    for i, (ours, theirs) in enumerate(zip(out["log"], original["log"], strict=True)):
        assert _normalise(ours) == _normalise(theirs), f"hand {i + 1}"
    if "sc" in original:
        assert out["sc"][0::2] == original["sc"][0::2]


# ----------------------------------------------------------------------------------------------
# seeded random self-play


_EAGER = (
    ActionType.TSUMO,
    ActionType.RON,
    ActionType.RIICHI,
    ActionType.ANKAN,
    ActionType.KAKAN,
    ActionType.DAIMINKAN,
)
_CALLS = (ActionType.PON, ActionType.CHI, ActionType.DAIMINKAN, ActionType.KITA)


def play(ruleset: Ruleset, seed: int, style: str) -> Game:
    """``uniform``: any legal action; ``eager``: wins, riichi and kans first (so that wins, kans,
    pao and double rons happen); ``caller``: calls or passes them at even odds."""
    rng = random.Random(seed)
    g = Game(ruleset, seed)
    steps = 0
    while not g.over:
        s = g.to_act()[0]
        legal = list(g.legal_actions(s))
        if style == "eager":
            for t in _EAGER:
                best = [a for a in legal if a.type is t]
                if best and rng.random() < 0.9:
                    legal = best
                    break
        elif style == "caller":
            calls = [a for a in legal if a.type in _CALLS]
            if calls and rng.random() < 0.5:
                legal = calls
        g.apply(rng.choice(legal))
        steps += 1
        assert steps < 20000
    return g


MODES = {
    "hanchan": lambda: find_ruleset("tenhou"),
    "tonpuu": lambda: find_ruleset("tenhou").with_options(hanchan=False),
    "sanma": lambda: find_ruleset("sanma"),
}
GAMES = 30
STYLES = ("uniform", "eager", "caller")


@pytest.mark.parametrize("mode", list(MODES))
def test_self_play_round_trip(mode: str) -> None:
    rs = MODES[mode]()
    kinds: set[str] = set()
    ambiguous = 0
    for seed in range(GAMES):
        g = play(rs, seed, STYLES[seed % 3])
        kinds.update(r.kind for r in g.results)
        what = f"{mode} seed {seed} ({STYLES[seed % 3]})"
        record = record_game(g)
        rules = record.rules
        assert ruleset_for(record) == rs
        _same_game(g, _via_record(g, what), f"{what} (record)")
        _check_tenhou6_shape(to_tenhou6(g), g, record)
        if rs.players == 3:
            continue
        if tenhou6_ambiguities(record):
            ambiguous += 1
        else:
            _same_game(g, _via_tenhou6(g, rules, what), f"{what} (tenhou6)")
        _same_game(g, _via_mjai(g, rules, what), f"{what} (mjai)")
    assert {"ron", "tsumo", "exhaustive"} <= kinds, kinds
    assert ambiguous <= GAMES // 5


# ----------------------------------------------------------------------------------------------
# format details


def _eager_game(rs: Ruleset, want: ActionType, seeds: range = range(200)) -> Game:
    for seed in seeds:
        g = play(rs, seed, "eager")
        if any(a.type is want for a in g.actions):
            return g
    raise AssertionError(f"no self-play game with {want.name}")


def test_tenhou6_call_strings_and_placeholders() -> None:
    g = _eager_game(find_ruleset("tenhou"), ActionType.DAIMINKAN)
    obj = to_tenhou6(g)
    entries = [
        x for h in obj["log"] for s in range(4) for x in h[5 + 3 * s] + h[6 + 3 * s] if isinstance(x, str)
    ]
    kans = [x for x in entries if "m" in x]
    assert kans and all(len(x) == 9 and x.index("m") in (0, 2, 6) for x in kans)
    for h in obj["log"]:
        for s in range(4):
            draws, discards = h[5 + 3 * s], h[6 + 3 * s]
            assert sum(1 for x in draws if isinstance(x, str) and "m" in x) == discards.count(0)
            for x in draws:
                if isinstance(x, str) and x.startswith("c"):
                    assert len(x) == 7
                if isinstance(x, str) and "p" in x:
                    assert len(x) == 7 and x.index("p") in (0, 2, 4)
            for x in discards:
                if isinstance(x, str) and "k" in x:
                    assert len(x) == 9 and x.index("k") in (0, 2, 4)
                if isinstance(x, str) and "a" in x:
                    assert len(x) == 9 and x.index("a") == 6


def test_sanma_kita_is_f44() -> None:
    g = _eager_game(find_ruleset("sanma"), ActionType.KITA, range(20))
    obj = to_tenhou6(g)
    assert any(x == "f44" for h in obj["log"] for s in range(3) for x in h[6 + 3 * s])
    assert obj["rule"]["aka51"] == 0 and obj["name"][3] == "" and obj["ratingc"] == "PF3"
    kita_events = [ev for ev in to_mjai(g) if ev["type"] == "nukidora"]
    assert kita_events and all(ev["pai"] == "N" for ev in kita_events)


def test_mjai_stream() -> None:
    g = _eager_game(find_ruleset("tenhou"), ActionType.RIICHI, range(10))
    lines = dumps_mjai(g, names=["a", "b", "c", "d"]).splitlines()
    events = [json.loads(x) for x in lines]
    assert events[0] == {
        "type": "start_game",
        "names": ["a", "b", "c", "d"],
        "jantaku": {"ruleset": "tenhou", "options": {}},
    }
    assert events[-1] == {"type": "end_game", "scores": list(g.final_scores)}
    kinds = [e["type"] for e in events]
    assert kinds.count("start_kyoku") == kinds.count("end_kyoku") == len(g.results)
    for i, e in enumerate(events):
        if e["type"] == "reach":
            assert events[i + 1]["type"] == "dahai" and events[i + 1]["actor"] == e["actor"]
        if e["type"] == "hora":
            assert set(e) >= {"actor", "target", "pai", "deltas", "scores", "yakus", "fu", "fan"}


def test_record_needs_no_constructor_arguments() -> None:
    """A game that starts mid-way with sticks on the table: scores and start are read back."""
    path = LOGS / "tenhou6_json" / "riichi-rs" / "notable-features_abort-nagashi-mangan.json"
    (record,) = load_any(path)
    g, report = _replay(record)
    assert g is not None, report.to_json()
    rec = record_game(g)
    first = record.hands[0]
    assert (rec.hands[0].round_wind, rec.hands[0].hand_number, rec.hands[0].sticks) == (
        first.round_wind,
        first.hand_number,
        first.sticks,
    )
    assert rec.hands[0].scores == first.scores and rec.final_scores == g.final_scores
    with pytest.raises(ValueError):
        record_game(g, names=["x"])


def test_record_of_a_game_started_mid_way() -> None:
    """A self-play game started at South 2, 1 honba, 3 sticks on the table, uneven scores."""
    rs = find_ruleset("tenhou")
    scores, start = [31000, 19000, 24000, 23000], (1, 1, 1, 3)
    g = Game(rs, 11, scores=scores, start=start)
    rng = random.Random(11)
    while not g.over:
        legal = list(g.legal_actions(g.to_act()[0]))
        wins = [a for a in legal if a.type in (ActionType.TSUMO, ActionType.RON)]
        g.apply(rng.choice(wins or legal))
    rec = record_game(g)
    h = rec.hands[0]
    assert (h.round_wind, h.hand_number, h.honba, h.sticks) == start and list(h.scores) == scores
    assert record_game(g, scores=scores, start=start).hands == rec.hands
    _same_game(g, _via_tenhou6(g, rec.rules, "mid-way"), "mid-way (tenhou6)")
    _same_game(g, _via_mjai(g, rec.rules, "mid-way"), "mid-way (mjai)")


# ----------------------------------------------------------------------------------------------
# presets: the "jantaku" entry


PRESET_SEEDS = range(8)


@pytest.mark.parametrize("preset", ["riichi", "mleague"])
def test_export_reads_back_under_its_own_preset(preset: str) -> None:
    """A game under the plain ``riichi`` preset or ``mleague`` (hanchan and tonpuu), exported as
    tenhou.net/6 and as mjai and read back by our importers, replays under exactly its own ruleset
    (not Tenhou's, which is all ``rule.disp`` can say) and gives the same game: every hand result,
    the final scores and the uma/oka results of the preset."""
    tenhou = find_ruleset("tenhou")
    checked_tenhou6 = 0
    for seed in PRESET_SEEDS:
        rs = find_ruleset(preset) if seed % 2 == 0 else find_ruleset(preset).with_options(hanchan=False)
        g = play(rs, 1000 + seed, STYLES[seed % 3])
        what = f"{preset} seed {seed}"
        obj = json.loads(json.dumps(to_tenhou6(g), ensure_ascii=False))
        assert obj["jantaku"]["ruleset"] == preset
        assert obj["jantaku"]["options"] == ({} if rs.options.hanchan else {"hanchan": False})
        if not tenhou6_ambiguities(record_game(g)):
            back = parse_tenhou6(obj, what)
            assert ruleset_for(back) == rs and ruleset_for(back) != tenhou.with_options(hanchan=rs.options.hanchan)
            g2, report = _replay(back)
            assert g2 is not None and report.ok, f"{what}: tenhou6 export does not replay: {report.to_json()}"
            _same_game(g, g2, f"{what} (tenhou6)")
            checked_tenhou6 += 1
        back = parse_mjai(dumps_mjai(g).splitlines(), what)  # no rules handed over this time
        assert ruleset_for(back) == rs
        g3, report = _replay(back)
        assert g3 is not None and report.ok, f"{what}: mjai export does not replay: {report.to_json()}"
        _same_game(g, g3, f"{what} (mjai)")
    assert checked_tenhou6 >= len(PRESET_SEEDS) // 2


def test_mleague_results_need_the_preset() -> None:
    """The M-League uma (+30/+10/-10/-30) is not Tenhou's (+20/+10/-10/-20): a finished mleague
    game's results read back under Tenhou rules would differ, and with the entry they do not."""
    g = play(find_ruleset("mleague"), 2000, "eager")
    assert g.over and not g.truncated
    first, last = g.ranking()[0], g.ranking()[-1]
    # oka 20 (30,000 return, 25,000 start) goes to the top; M-League uma +30 / -30
    assert round(g.final_results[first] - (g.final_scores[first] - 30000) / 1000, 1) == 30 + 20
    assert round(g.final_results[last] - (g.final_scores[last] - 30000) / 1000, 1) == -30
    back = parse_tenhou6(json.loads(json.dumps(to_tenhou6(g), ensure_ascii=False)), "mleague")
    g2, report = _replay(back)
    assert g2 is not None and report.ok, report.to_json()
    assert g2.final_results == g.final_results
    back.rules.ruleset, back.rules.ruleset_options = "", {}  # what a reader without the entry sees
    assert ruleset_for(back).options.uma == (20, 10, -10, -20)


def test_a_bad_ruleset_entry_is_reported_not_replayed() -> None:
    g = play(find_ruleset("riichi").with_options(hanchan=False), 7, "eager")
    obj = to_tenhou6(g)
    obj["jantaku"] = {"ruleset": "riichi", "options": {"no_such_option": True}}
    g2, report = _replay(parse_tenhou6(obj, "bad"))
    assert g2 is None and "no option 'no_such_option'" in report.errors[0]["error"]
    obj["jantaku"] = {"ruleset": "riichi", "options": {"hanchan": "no"}}
    g2, report = _replay(parse_tenhou6(obj, "bad"))
    assert g2 is None and "hanchan" in report.errors[0]["error"]
    obj["jantaku"] = "riichi"
    with pytest.raises(LogFormatError):
        parse_tenhou6(obj, "bad")

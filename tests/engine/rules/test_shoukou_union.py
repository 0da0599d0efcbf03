"""``shoukou.union``: what SK-10.5 unites (shared/rules/shoukou.md SK-10).

"interpretations" (the default) is SK-10 as written: yaku are united over every (τ, decomposition,
placement). "transformations" unites only each τ's best single reading (base R-7: points, then han,
then fu). Expected values come from the spec's worked examples W1–W7 and from the rule text worked
by hand in the comments (points from the base tables: 2 han 30 fu ron 2000, 2 han 40 fu 2600,
10–12 han sanbaiman 24000 / baiman 16000, 13 han kazoe 32000), never from our own output.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.notation import parse_hand
from engine.rules import find_ruleset
from engine.rules.options import MAJIANG
from engine.rules.shoukou import ShoukouRuleset
from engine.rules.shoukou.options import ShoukouOptions
from engine.scoring import score_line
from engine.table.game import Game
from tests.engine.datasets import kobalab_cases

ROOT = Path(__file__).resolve().parents[3]
MODES = ("interpretations", "transformations")


def score(line: str, union: str) -> dict:
    r = score_line(f"{line} ruleset=shoukou shoukou.union={union}")
    assert "error" not in r, r
    return r


def yaku(r: dict) -> list[tuple[str, int]]:
    return sorted((y["name"], y["han"]) for y in r["yaku"])


# ---------------------------------------------------------------------------------------------
# the option
# ---------------------------------------------------------------------------------------------


def test_sk_10_union_option_default_is_the_spec_literal_reading() -> None:
    assert ShoukouOptions().union == "interpretations"
    assert ShoukouOptions(union="transformations").union == "transformations"
    with pytest.raises(ValueError):
        ShoukouOptions(union="decompositions")
    assert "error" in score_line("123m456p789s1z11s ron 1z ruleset=shoukou shoukou.union=sometimes")
    line = "11223344556677m ron 7m seat=S ruleset=shoukou"
    assert score_line(line) == score_line(line + " shoukou.union=interpretations")


# ---------------------------------------------------------------------------------------------
# W1–W7 give the spec's numbers under both readings: every yaku they unite comes from a
# different τ (W4, W5, W7) or from one τ's only reading (W1–W3, W6)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("union", MODES)
def test_sk_10_union_w1_tanyao_by_promoting_the_chi(union: str) -> None:
    r = score("234m567m66s45s chi(123p) ron 3s seat=S", union)
    assert yaku(r) == [("tanyao", 1)] and r["han"] == 1 and r["points"] == 1000


@pytest.mark.parametrize("union", MODES)
def test_sk_10_union_w2_tanyao_from_one_tau_dora_from_another(union: str) -> None:
    r = score("23p777m345s0p67p66m ron 1p seat=S dora=1s", union)
    assert ("tanyao", 1) in yaku(r)
    assert sum(y["han"] for y in r["yaku"] if y["name"] in ("dora", "aka_dora")) == 2
    assert r["han"] == 3


@pytest.mark.parametrize("union", MODES)
@pytest.mark.parametrize(
    "tile,han,names",
    [
        ("4m", 6, {"riichi", "tanyao", "pinfu", "sanshoku", "dora"}),
        ("7m", 4, {"riichi", "tanyao", "pinfu", "dora"}),
        ("1m", 3, {"riichi", "pinfu", "tanyao"}),
    ],
)
def test_sk_10_union_w3_each_winning_tile(union: str, tile: str, han: int, names: set[str]) -> None:
    r = score(f"35m456p456s678p22s ron {tile} seat=S riichi dora=5m", union)
    assert {y["name"] for y in r["yaku"]} == names and r["han"] == han
    if tile == "4m":
        assert r["limit"] == "haneman"


@pytest.mark.parametrize("union", MODES)
def test_sk_10_union_w4_two_iipeikou_from_two_transformations(union: str) -> None:
    r = score("234m345m456p67s88p ron 5s seat=S", union)
    assert yaku(r) == [("iipeikou", 1), ("iipeikou", 1), ("pinfu", 1), ("tanyao", 1)] and r["han"] == 4


@pytest.mark.parametrize("union", MODES)
def test_sk_10_union_w5_eight_han(union: str) -> None:
    r = score("234m345m234p34s22p ron 5s seat=S", union)
    assert yaku(r) == [
        ("iipeikou", 1),
        ("iipeikou", 1),
        ("pinfu", 1),
        ("sanshoku", 2),
        ("sanshoku", 2),
        ("tanyao", 1),
    ]
    assert r["han"] == 8 and r["limit"] == "baiman"


@pytest.mark.parametrize("union", MODES)
def test_sk_10_union_w6_dora_max_not_sum(union: str) -> None:
    r = score("234p678p55p234m67s ron 5s seat=S dora=4p", union)
    assert ("dora", 3) in yaku(r) and r["han"] == 5 and r["limit"] == "mangan"


@pytest.mark.parametrize("union", MODES)
def test_sk_10_union_w7_twelve_han(union: str) -> None:
    r = score("1112345778999m tsumo 8m seat=S", union)
    assert yaku(r) == [("chinitsu", 6), ("iipeikou", 1), ("ittsu", 2), ("menzen_tsumo", 1), ("sanankou", 2)]
    assert r["han"] == 12 and r["limit"] == "sanbaiman"
    assert set(r["transformations"]) == {"5m>8m", "9m>6m"}


@pytest.mark.parametrize("union", MODES)
@pytest.mark.parametrize(
    "tile,chuuren", [("6m", True), ("3m", True), ("9m", True), ("5m", False), ("7m", False)]
)
def test_sk_10_union_w7_chuuren_tiles(union: str, tile: str, chuuren: bool) -> None:
    r = score(f"1112345778999m tsumo {tile} seat=S", union)
    assert r["agari"]
    assert (r["yakuman"] == 1 and yaku(r) == [("chuuren", 13)]) is chuuren


# ---------------------------------------------------------------------------------------------
# where the two readings differ
# ---------------------------------------------------------------------------------------------


def test_sk_10_union_interpretations_unites_two_decompositions_of_the_plain_hand() -> None:
    # 11223344556677m ron 7m, no τ: chiitoitsu (chinitsu) and the ryanpeikou readings
    # 11m 234m 234m 567m 567m (7m on 56m, ryanmen: pinfu) are all interpretations, so SK-10 as
    # written counts chinitsu 6 + ryanpeikou 3 + chiitoitsu 2 + pinfu 1 = 12 han.
    r = score("11223344556677m ron 7m seat=S", "interpretations")
    assert yaku(r) == [("chiitoitsu", 2), ("chinitsu", 6), ("pinfu", 1), ("ryanpeikou", 3)]
    assert r["han"] == 12


def test_sk_10_union_transformations_takes_one_reading_of_the_plain_hand() -> None:
    # Per τ only its best reading. No τ: ryanpeikou + pinfu + chinitsu (10 han) beats chiitoitsu +
    # chinitsu (8). No τ can keep seven pairs (moving one tile breaks a pair), so chiitoitsu is
    # gone. τ = 4m→7m reads 123m 123m 456m 567m 77m: chinitsu, pinfu and iipeikou {123m, 123m},
    # which is not a half of the counted ryanpeikou {234m, 567m}: +1. Total 11 han.
    r = score("11223344556677m ron 7m seat=S", "transformations")
    assert ("chiitoitsu", 2) not in yaku(r)
    assert yaku(r) == [("chinitsu", 6), ("iipeikou", 1), ("pinfu", 1), ("ryanpeikou", 3)]
    assert r["han"] == 11


def test_sk_10_union_tsumo_kazoe_only_when_decompositions_are_united() -> None:
    # The same hand by tsumo adds menzen tsumo: 13 han (kazoe yakuman, 32000) when the plain
    # hand's readings are united, 12 han (sanbaiman, 24000) when only τ are.
    lit = score("11223344556677m tsumo 7m seat=S", "interpretations")
    alt = score("11223344556677m tsumo 7m seat=S", "transformations")
    assert lit["han"] == 13 and lit["points"] == 32000
    assert alt["han"] == 12 and alt["points"] == 24000 and ("chiitoitsu", 2) not in yaku(alt)


def test_sk_10_union_pinfu_hand_gets_40_fu_only_from_united_readings() -> None:
    # 456m 678p 456s 789s 99s, riichi, ron 6s. Plain: 6s closes 45s or 78s, both ryanmen: riichi +
    # pinfu. τ = 4s→7s reads 567s 678s 99s: 6s in 567s (kanchan, 40 fu, no pinfu) or in 678s
    # (ryanmen, pinfu). Literal SK-10: pinfu from one reading, fu = max = 40 → 2 han 40 fu, 2600.
    # By transformation: each τ's best reading is riichi + pinfu at 30 fu (2000 beats riichi
    # alone at 40 fu, 1300), so 2 han 30 fu, 2000.
    line = "456m678p456789s9s ron 6s seat=S riichi"
    lit = score(line, "interpretations")
    alt = score(line, "transformations")
    assert yaku(lit) == yaku(alt) == [("pinfu", 1), ("riichi", 1)]
    assert (lit["fu"], lit["points"]) == (40, 2600)
    assert (alt["fu"], alt["points"]) == (30, 2000)


# ---------------------------------------------------------------------------------------------
# persistence and the command line
# ---------------------------------------------------------------------------------------------


def test_sk_10_union_option_survives_to_dict_and_from_dict() -> None:
    rs = find_ruleset("shoukou").with_options(shoukou={"union": "transformations"})
    assert isinstance(rs, ShoukouRuleset) and rs.shoukou.union == "transformations"
    g = Game(rs, seed=5)
    for a in list(g.legal_actions(g.current))[:1]:
        g.play(a)
    data = json.loads(json.dumps(g.to_dict()))
    assert data["options"]["shoukou"]["union"] == "transformations"
    again = Game.from_dict(data)
    assert again.ruleset == rs and isinstance(again.ruleset, ShoukouRuleset)
    assert again.ruleset.shoukou.union == "transformations"
    assert [a.text for a in again.actions] == [a.text for a in g.actions]
    # the reloaded ruleset scores by transformation (11 han, not 12)
    assert again.ruleset.score(parse_hand("11223344556677m ron 7m seat=S")).han == 11


def test_sk_10_union_command_line() -> None:
    line = "11223344556677m ron 7m seat=S ruleset=shoukou shoukou.union=transformations"
    out = subprocess.run(
        [sys.executable, "-m", "engine", "score", line, "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    r = json.loads(out.stdout)
    assert r["agari"] is True and r["han"] == 11
    assert "chiitoitsu" not in {y["name"] for y in r["yaku"]}
    text = subprocess.run(
        [sys.executable, "-m", "engine", "score", line],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert text.returncode == 0 and text.stdout.strip()


def test_sk_10_3_union_option_never_changes_whether_a_hand_may_win() -> None:
    # SK-10.3: a hand may win when some interpretation has a yaku. Each τ's best reading (R-7)
    # has a yaku whenever any of its readings has, so both readings allow the same wins.
    lit = ShoukouRuleset(options=MAJIANG)
    alt = ShoukouRuleset(options=MAJIANG, shoukou=ShoukouOptions(union="transformations"))
    lines = [line for line, _ in kobalab_cases()][:2000]
    assert len(lines) == 2000
    differ = [ln for ln in lines if lit.score(parse_hand(ln)).agari != alt.score(parse_hand(ln)).agari]
    assert not differ, differ[:5]

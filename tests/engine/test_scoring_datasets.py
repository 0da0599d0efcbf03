"""Scoring against hands scored by other engines: kobalab/majiang-core and RiichiEnv."""

from __future__ import annotations

from typing import Any

from engine.scoring import score_line
from tests.engine.datasets import kobalab_cases, riichienv_cases


def _yaku_pairs(r: dict[str, Any]) -> list[tuple[str, int]]:
    return sorted((y["name"], y["han"]) for y in r["yaku"])


def test_kobalab_majiang_10000_hands_every_field() -> None:
    """Yaku with han, fu, han, yakuman count, points and each seat's payment (honba, sticks)."""
    mismatches = []
    cases = kobalab_cases()
    assert len(cases) == 10000
    for line, exp in cases:
        r = score_line(line)
        if "error" in r:
            mismatches.append((line, r["error"]))
            continue
        got = {
            "yaku": _yaku_pairs(r),
            "fu": r["fu"],
            "han": r["han"],
            "yakuman": r["yakuman"],
            "points": r["points"],
            "payments": r["payments"],
        }
        want = {k: (sorted(exp["yaku"]) if k == "yaku" else exp[k]) for k in got}  # type: ignore[literal-required]
        if got != want:
            mismatches.append((line, {k: (want[k], got[k]) for k in got if got[k] != want[k]}))
    assert not mismatches, f"{len(mismatches)} of 10000 differ:\n" + "\n".join(map(str, mismatches[:50]))


def _riichienv_mismatches(players: int, ruleset: str | None) -> list[Any]:
    out = []
    for line, exp in riichienv_cases(players):
        if ruleset:
            line = line.replace("ruleset=riichi", f"ruleset={ruleset}")
        r = score_line(line)
        if "error" in r:
            out.append((line, r["error"]))
            continue
        han = r["han"] if not r["yakuman"] else sum(y["han"] for y in r["yaku"])
        got = (han, r["fu"], sorted({y["name"] for y in r["yaku"]}))
        want = (exp["han"], exp["fu"], sorted(exp["yaku"]))
        if got != want:
            out.append((line, "expected", want, "got", got))
    return out


def test_riichienv_816_4p_hands_han_fu_yaku_under_mahjong_soul_rules() -> None:
    # The set comes from Mahjong Soul, where the pure yakuman forms count double.
    bad = _riichienv_mismatches(4, "mahjongsoul")
    assert not bad, "\n".join(map(str, bad))


def test_r_8_2_default_riichi_counts_pure_yakuman_forms_single() -> None:
    """Under our default (R-8.2: double_yakuman = false) the only differences from the Mahjong Soul
    set are the hands whose pure yakuman form Mahjong Soul counts double."""
    bad = _riichienv_mismatches(4, None)
    assert bad, "expected the double-yakuman hands to differ"
    for line, _, want, _, got in bad:
        assert want[2] == got[2] and got[1] == want[1], line
        pure = {"kokushi_13", "suuankou_tanki", "junsei_chuuren", "daisuushii"}
        assert pure & set(got[2]), line
        assert want[0] - got[0] == 13 * len(pure & set(got[2])), line


def test_riichienv_402_3p_hands_han_fu_yaku() -> None:
    bad = _riichienv_mismatches(3, None)
    assert not bad, "\n".join(map(str, bad))

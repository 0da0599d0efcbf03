"""docs/rules-coverage.md is current, and every implemented ruleset has a test per rule id."""

from __future__ import annotations

import pytest

from engine.rules import ruleset_names
from tools.rules_coverage import DOC, coverage, render

# Rulesets whose every rule id must have a test once the ruleset is registered in the engine.
REQUIRED = ("riichi", "shoukou", "pk", "seigou", "taiwan16", "chinitsu_toutenkou")


def test_rules_coverage_doc_is_current() -> None:
    assert DOC.read_text(encoding="utf-8") == render(coverage()), (
        "docs/rules-coverage.md is stale: run `python -m tools.rules_coverage`"
    )


@pytest.mark.parametrize("ruleset", REQUIRED)
def test_every_rule_id_of_an_implemented_ruleset_has_a_test(ruleset: str) -> None:
    if ruleset not in ruleset_names():
        pytest.skip(f"{ruleset} is not in the engine yet")
    cov = next(c for c in coverage() if c.ruleset == ruleset)
    assert not cov.missing, f"{ruleset}: rule ids without a test: {', '.join(cov.missing)}"


def test_coverage_matches_the_longest_rule_id() -> None:
    cov = {c.ruleset: c for c in coverage()}
    riichi = cov["riichi"]
    assert any(n.endswith("::test_r_4_2_chi_only_from_the_left") for n in riichi.tests["R-4.2"])
    assert not any("test_r_4_2_" in n for n in riichi.tests.get("R-4.1", []))

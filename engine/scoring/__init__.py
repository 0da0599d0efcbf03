"""Hand scoring: ``score(spec)`` for a parsed hand, ``score_line(text)`` for the CLI contract."""

from __future__ import annotations

from typing import Any

from engine.notation import HandSpec, parse_hand
from engine.scoring.result import ScoreResult

_RULESETS: dict[tuple[str, int | None], Any] = {}


def score(spec: HandSpec) -> ScoreResult:
    """Score a parsed hand under its own ruleset (``spec.ruleset``, ``spec.ctx.players``).

    Rulesets are frozen values, so each (name, players) is looked up once per process.
    """
    players = spec.ctx.players if spec.ctx.players != 4 else None
    rs = _RULESETS.get((spec.ruleset, players))
    if rs is None:
        from engine.rules import find_ruleset  # here, not at the top: engine.rules imports this package

        rs = _RULESETS[(spec.ruleset, players)] = find_ruleset(spec.ruleset, players)
    result: ScoreResult = rs.score(spec)
    return result


def score_line(text: str) -> dict[str, Any]:
    """One line of the hand grammar → the JSON object of ``python -m engine score --json``.

    Never raises for bad input: a malformed line gives ``{"error": "<readable message>"}``.
    """
    try:
        spec = parse_hand(text)
        return score(spec).to_json()
    except ValueError as e:  # NotationError, HandError, UnknownRuleset
        return {"error": str(e)}


__all__ = ["ScoreResult", "score", "score_line"]

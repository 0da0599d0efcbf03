"""Hand scoring: ``score(spec)`` for a parsed hand, ``score_line(text)`` for the CLI contract."""

from __future__ import annotations

from typing import Any

from engine.notation import HandSpec, parse_hand
from engine.scoring.result import ScoreResult


def score(spec: HandSpec) -> ScoreResult:
    """Score a parsed hand under its own ruleset (``spec.ruleset``, ``spec.ctx.players``)."""
    from engine.rules import find_ruleset

    rs = find_ruleset(spec.ruleset, spec.ctx.players if spec.ctx.players != 4 else None)
    return rs.score(spec)


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

"""Fairness: commit to a game's walls before it is played, and check a finished game against it.

A table's walls all come from its seed (:mod:`engine.table.wall`). When a game starts, the bot
publishes :func:`commitment`, the SHA-256 of the canonical JSON of ``{ruleset, options, seed}``;
the seed itself stays secret until the game is over, then it is revealed. :func:`verify` takes
the game's export in the project's own format (:func:`engine.logs.export.to_jantaku`) and checks
that the revealed seed matches the commitment (the one recorded in the export and, when given,
the one that was published), that every recorded action can be played on the walls that seed
deals, and that the replay gives each recorded hand's starting tiles and payments and the final
scores. Any changed seed, option, action, starting hand or score is reported in one sentence.

Limits: a commitment proves that the walls were fixed before play and not changed during it; it
cannot prove that the seed was drawn at random (the bot draws it with :mod:`secrets`). A seed
space small enough to search would let a player find the seed from the commitment: the bot's
seeds are 128-bit. A running game's export has no seed and cannot be verified (by design).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.logs.export import finished_hands
from engine.rules.base import UnknownRuleset, find_ruleset
from engine.table.actions import Action
from engine.table.game import Game, IllegalActionError

__all__ = ["Verdict", "canonical", "commitment", "verify"]


def canonical(ruleset: str, options: Mapping[str, Any], seed: int | str) -> bytes:
    """The bytes a commitment hashes: ``{"options": …, "ruleset": …, "seed": "…"}`` as JSON with
    sorted keys, no spaces, UTF-8 (the seed as text: the walls of ``5`` and ``"5"`` are the same)."""
    data = {"options": dict(options), "ruleset": ruleset, "seed": str(seed)}
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def commitment(ruleset: str, options: Mapping[str, Any], seed: int | str) -> str:
    """SHA-256 (hex) of :func:`canonical`: published when a game starts, checked when it ends."""
    return hashlib.sha256(canonical(ruleset, options, seed)).hexdigest()


@dataclass(frozen=True, slots=True)
class Verdict:
    """``ok`` and one sentence saying what was verified or the first thing that does not match."""

    ok: bool
    sentence: str


def _no(sentence: str) -> Verdict:
    return Verdict(False, sentence)


def verify(export: Any, *, expected: str | None = None) -> Verdict:
    """Check an export of a finished game (module docstring); ``expected`` is the commitment that
    was published when the game started (checked in addition to the one the export records)."""
    if not isinstance(export, dict) or not isinstance(export.get("ruleset"), str):
        return _no("this is not a game export of the bot (no ruleset): export the table with /table export")
    if "seed" not in export:
        return _no("this export holds no seed: it was made while the game was running, and the seed is revealed only when the game ends")
    name, seed = export["ruleset"], export["seed"]
    options = export.get("options") or {}
    if not isinstance(options, dict) or not isinstance(seed, (str, int)):
        return _no("the export's options or seed are malformed")
    try:
        rs = find_ruleset(name)
        rs = rs.with_options(**options) if options else rs
    except (UnknownRuleset, TypeError, ValueError) as e:
        return _no(f"the export's ruleset cannot be rebuilt: {e}")
    computed = commitment(name, options, seed)
    recorded = export.get("commitment")
    if recorded is None and expected is None:
        return _no("the export records no commitment and none was given: there is nothing to check the seed against")
    if recorded is not None and recorded != computed:
        return _no(f"the seed, ruleset and options hash to {computed[:16]}…, not to the commitment {str(recorded)[:16]}… the export records: they were changed")
    if expected is not None and expected.strip().lower() != computed:
        return _no(f"the seed, ruleset and options hash to {computed[:16]}…, not to the commitment {expected.strip()[:16]}… that was published: they were changed")
    tokens = str(export.get("actions", "")).split()
    g = Game(rs, seed)
    for i, tok in enumerate(tokens):
        try:
            g.play(Action.parse(tok))
        except (ValueError, IllegalActionError) as e:
            return _no(f"action {i + 1} ({tok}) cannot be played on the walls this seed deals ({e}): the action log or the seed was changed")
    if not g.over:
        return _no(f"the action log stops after {len(tokens)} actions, before the end of the game")
    replayed = finished_hands(g)
    recorded_hands = export.get("hands")
    if not isinstance(recorded_hands, list) or len(recorded_hands) != len(replayed):
        n = len(recorded_hands) if isinstance(recorded_hands, list) else 0
        return _no(f"the export records {n} hands but its actions play {len(replayed)}")
    for i, (want, got) in enumerate(zip(recorded_hands, replayed)):
        if not isinstance(want, dict):
            return _no(f"hand {i + 1} of the export is malformed")
        for key, what in (("haipai", "starting hands"), ("actions", "actions"), ("deltas", "payments"), ("scores", "scores")):
            if want.get(key) != got[key]:
                return _no(f"hand {i + 1}: the recorded {what} differ from those the seed's walls and the action log give")
    if export.get("final_scores") != list(g.final_scores):
        return _no(f"the recorded final scores {export.get('final_scores')} differ from the replay's {list(g.final_scores)}")
    return Verdict(
        True,
        f"verified: the seed matches the commitment {computed[:16]}…, and its walls with the {len(tokens)} actions "
        f"replay the {len(replayed)} hands and the final scores {list(g.final_scores)} recorded",
    )

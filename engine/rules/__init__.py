"""Rulesets: ``find_ruleset(name)`` and the registry (one module per variant registers itself)."""

from engine.rules.base import Ruleset, UnknownRuleset, find_ruleset, register, ruleset_names
from engine.rules.options import PRESETS, RiichiOptions

__all__ = [
    "PRESETS",
    "RiichiOptions",
    "Ruleset",
    "UnknownRuleset",
    "find_ruleset",
    "register",
    "ruleset_names",
]

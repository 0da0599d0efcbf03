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
import engine.rules.chinitsu_toutenkou  # noqa: E402, F401  (registers "chinitsu_toutenkou")
import engine.rules.pk  # noqa: E402, F401  (registers "pk")
import engine.rules.seigou  # noqa: E402, F401  (registers "seigou")
import engine.rules.shoukou  # noqa: E402, F401  (registers "shoukou")
import engine.rules.taiwan16  # noqa: E402, F401  (registers "taiwan16")

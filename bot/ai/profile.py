"""How the AI adapts to a ruleset: the few rule facts its choices depend on, asked of the ruleset.

The policy (:mod:`bot.ai.policy`) plays every ruleset through its legal-action list and its own
shanten calculator; what differs between rulesets is which calls are worth making, whether a
riichi player's own discards are safe, whether a furiten riichi can still win, and when to show
an open riichi. Each ruleset declares those as its :class:`~engine.rules.facts.AiProfile`
(``Ruleset.ai_profile()``, riichi's by default); table size and tile counts come from the ruleset
object itself.
"""

from __future__ import annotations

from engine.rules import Ruleset
from engine.rules.facts import AiProfile as Profile
from engine.rules.facts import CallPolicy

__all__ = ["CallPolicy", "Profile", "profile_of"]


def profile_of(ruleset: Ruleset) -> Profile:
    """The profile of a ruleset (a registered one, or a variant of one with changed options)."""
    return ruleset.ai_profile()

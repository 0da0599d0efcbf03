"""Rulesets: ``find_ruleset(name)`` and the registry (one package per variant registers itself)."""

from collections.abc import Iterable

from engine.rules.base import Ruleset, UnknownRuleset, find_ruleset, register, ruleset_names
from engine.rules.options import PRESETS, RiichiOptions

__all__ = [
    "PRESETS",
    "warm_up",
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


def warm_up(rulesets: Iterable[Ruleset | str] | None = None) -> list[str]:
    """Load (or, the first time on a machine, build and cache) the shanten tables of ``rulesets``
    (names or ruleset objects; every registered ruleset when None) in this process now.

    A table is built on its first use otherwise: ~8-10 s of CPU per table kind on a machine that
    has never built it (then cached under ``~/.cache/jantaku``), ~0.3-0.6 s to load from the cache,
    and 65-130 MB in memory per table kind. A long-running caller (the bot) calls this in a thread
    for the rulesets it is about to play, so that no game waits for it. Returns the names of the
    rulesets made ready, in the order given."""
    out = []
    for item in ruleset_names() if rulesets is None else rulesets:
        rs = find_ruleset(item) if isinstance(item, str) else item
        rs.shanten_calculator().shanten([0] * 27 + [1] + [0] * 6)  # a one-tile hand: East
        out.append(rs.name)
    return out

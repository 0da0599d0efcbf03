"""Rulesets: ``find_ruleset(name)`` and the registry (one module per variant registers itself)."""

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


def warm_up() -> list[tuple[str, float]]:
    """Build (or load from the on-disk cache) every registered ruleset's shanten tables now.

    A table is built on first use otherwise: ~8-10 s of CPU on a machine that has never built it
    (then cached under ``~/.cache/jantaku``). A long-running caller (the bot, the test run, a
    container image) calls this once at start-up so that no table, command or AI seat waits for
    it later. Returns (ruleset, seconds taken) for each ruleset, in name order."""
    import time

    out = []
    for name in ruleset_names():
        t0 = time.perf_counter()
        rs = find_ruleset(name)
        rs.shanten_calculator().shanten([0] * 27 + [1] + [0] * 6)  # a one-tile hand: East
        out.append((name, time.perf_counter() - t0))
    return out

"""How the AI adapts to a ruleset: the few rule facts its choices depend on, read from the ruleset.

The policy (:mod:`bot.ai.policy`) plays every ruleset through its legal-action list and its own
shanten calculator; what differs between rulesets is which calls are worth making, whether a
riichi player's own discards are safe, whether a furiten riichi can still win, and when to show
an open riichi. :func:`profile_of` derives those from the ruleset (name, options, hooks), never
from the table size or tile counts (those come from the ruleset object itself).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.rules import Ruleset

CallPolicy = Literal["value", "yaku", "pk", "any"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Profile:
    """The rule facts the AI's choices depend on.

    ``calls``: ``value`` pon a value honour (the riichi family's tested play); ``yaku`` any chi or
    pon that lowers the shanten and keeps a yaku within reach (value honour, kuitan, half flush);
    ``pk`` only what keeps an *anchored* yaku (PK-D7): a value-honour pon as the first call, or
    later calls after one; ``any`` any call that lowers the shanten (no yaku needed: taiwan16 TW-9).
    """

    calls: CallPolicy = "value"
    kuitan: bool = True  # an open all-simples hand has a yaku
    genbutsu: bool = True  # a riichi player cannot ron a kind they discarded; taiwan16 TW-10: no
    furiten_riichi_wins: bool = True  # a furiten riichi can still win by tsumo; pk PK-6: never
    riichi_min_waits: int = 2  # unseen winning tiles needed to declare riichi
    open_riichi_min_waits: int = 0  # chinitsu_toutenkou CT-F2: show the hand from this many (0 = never)
    gari: frozenset[int] = frozenset()  # kinds that are nuki-dora (dead for winning but kokushi)
    kokushi_keeps_gari: bool = False  # keep 1m/9m/North in hand while kokushi is the best form


def profile_of(ruleset: Ruleset) -> Profile:
    """The profile of a registered ruleset (or a variant of one with changed options)."""
    name = ruleset.name
    kuitan = bool(getattr(ruleset.options, "kuitan", True))
    if name == "pk":
        # PK-4: a win needs a common qualifying yaku; riichi is one for every wait, so a closed
        # tenpai hand declares whenever it can (even on one unseen tile). PK-6: furiten blocks
        # tsumo too, so a furiten riichi can never win.
        return Profile(calls="pk", kuitan=False, furiten_riichi_wins=False, riichi_min_waits=1)
    if name in ("seigou", "shoukou"):
        return Profile(calls="yaku", kuitan=kuitan)
    if name == "chinitsu_toutenkou":
        # One number suit: every hand without manzu is at least a half flush (honitsu), so a call
        # that advances the hand keeps a yaku. CT-A3: gari are dead tiles except in kokushi.
        return Profile(
            calls="yaku",
            kuitan=kuitan,
            open_riichi_min_waits=4,
            gari=frozenset({0, 4, 8, 30}),
            kokushi_keeps_gari=True,
        )
    if name == "taiwan16":
        # TW-9: no minimum tai; TW-10: no furiten from one's own discards; TW-12: declared
        # tenpai costs nothing.
        return Profile(calls="any", genbutsu=False)
    return Profile(calls="value", kuitan=kuitan)

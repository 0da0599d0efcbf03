"""The small values a ruleset declares for the bot and the AI: its game lengths and its AI profile.

A ruleset answers everything its presentation and its AI need from typed members with riichi's
values as defaults (:class:`~engine.rules.base.Ruleset`, "what the bot and the AI ask of a
variant"); the two facts that are more than a word or a flag are these frozen values. Plain data:
nothing here knows Discord, the bot or a particular variant.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

CallPolicy = Literal["value", "yaku", "anchored", "any"]
#: How a winning hand's value is counted and worded (:attr:`~engine.rules.base.Ruleset.hand_value`).
HandValue = Literal["han_fu", "tai", "points"]
#: The one-seat window a turn may open with (:meth:`~engine.rules.base.Ruleset.turn_window`):
#: ``""`` none of these (riichi; seigou's claim of an earlier discard, SG-1), ``"haitei"`` the last
#: tile may be taken or passed on (taiwan16 TW-11), ``"tenting"`` a declaration on the dealt hand
#: (taiwan16 T-19).
TurnWindow = Literal["", "haitei", "tenting"]


@dataclass(frozen=True, slots=True)
class GameLength:
    """One length a table of the ruleset may be opened with: its value (``/table open length``),
    a label for the list, the ruleset options it sets (``{}`` = the ruleset's own default), and
    other words a player may type for it (taiwan16 takes ``tonpuu`` for one round)."""

    value: str
    label: str
    options: dict[str, Any]
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class AiProfile:
    """The rule facts the AI's choices depend on (``bot.ai.policy`` reads them).

    ``calls``: ``value`` pon a value honour (the riichi family's tested play); ``yaku`` any chi or
    pon that lowers the shanten and keeps a yaku within reach (value honour, kuitan, half flush);
    ``anchored`` only what keeps an *anchored* yaku (pk PK-D7): a value-honour pon as the first
    call, or later calls after one; ``any`` any call that lowers the shanten (no yaku needed:
    taiwan16 TW-9).
    """

    calls: CallPolicy = "value"
    kuitan: bool = True  # an open all-simples hand has a yaku
    genbutsu: bool = True  # a riichi player cannot ron a kind they discarded; taiwan16 TW-10: no
    furiten_riichi_wins: bool = True  # a furiten riichi can still win by tsumo; pk PK-6: never
    riichi_min_waits: int = 2  # unseen winning tiles needed to declare riichi
    open_riichi_min_waits: int = 0  # chinitsu_toutenkou CT-F2: show the hand from this many (0 = never)
    gari: frozenset[int] = frozenset()  # kinds that are nuki-dora (dead for winning but kokushi)
    kokushi_keeps_gari: bool = False  # keep 1m/9m/North in hand while kokushi is the best form

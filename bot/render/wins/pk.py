"""pk's words for a win: its han plus bazoro, read on the PK-0 table (no fu).

Read from the scoring result's :class:`~engine.scoring.breakdown.Bazoro` part;
:mod:`bot.render.wins` puts it in a win's line.
"""

from __future__ import annotations

from bot import i18n
from bot.i18n import Lang
from engine.scoring.breakdown import Bazoro
from engine.scoring.result import ScoreResult


def bazoro_of(sc: ScoreResult) -> Bazoro | None:
    """The win's bazoro, or None (another ruleset, or a yakuman, which has no table row)."""
    return next((b for b in sc.breakdown if isinstance(b, Bazoro)), None)


def value(sc: ScoreResult, b: Bazoro, lang: Lang) -> str:
    """The result message's value: ``2 han + 2 bazoro = 4 han (PK-0 table, no fu)``."""
    return i18n.t(lang, "{han} han + {bazoro} bazoro = {table} han (PK-0 table, no fu)", han=sc.han, bazoro=b.bazoro, table=b.table_han)


def lines(b: Bazoro, points: str, lang: Lang) -> list[tuple[str, str]]:
    """The result picture's rows under the yaku: the bazoro and the table's han and points."""
    return [
        (i18n.t(lang, "Bazoro"), i18n.t(lang, "{n} han", n=b.bazoro)),
        (i18n.t(lang, "Table"), i18n.t(lang, "{han} han = {points}", han=b.table_han, points=points)),
    ]


def head(value_text: str, b: Bazoro, lang: Lang) -> str:
    """``/score``'s value with the bazoro: ``2 han 30 fu + 2 bazoro``."""
    return i18n.t(lang, "{value} + {n} bazoro", value=value_text, n=b.bazoro) if b.bazoro else value_text

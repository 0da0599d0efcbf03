"""taiwan16's words for a win (TW-13): its tai items and how tai become chips.

Read from the scoring result's :class:`~engine.scoring.breakdown.TaiItem` and
:class:`~engine.scoring.breakdown.ChipRate` parts; :mod:`bot.render.wins` puts them together.
"""

from __future__ import annotations

from bot import i18n
from bot.i18n import Lang
from engine.scoring.breakdown import ChipRate, TaiItem
from engine.scoring.result import ScoreResult

from ..names import yaku_name


def _items(sc: ScoreResult, lang: Lang) -> list[tuple[str, int]]:
    return [(yaku_name(b.name, lang), b.tai) for b in sc.breakdown if isinstance(b, TaiItem)]


def _rate(sc: ScoreResult) -> ChipRate | None:
    return next((b for b in sc.breakdown if isinstance(b, ChipRate)), None)


def summary(sc: ScoreResult, listed: str, lang: Lang) -> str:
    """The result message's line: the items (``listed``), the tai, what each payer pays."""
    rate = _rate(sc)
    return i18n.t(
        lang,
        "{items} — {tai} tai; each payer pays {base} + {rate} × tai chips (+{dealer} dealer tai when the dealer wins or pays)",
        items=listed,
        tai=sc.han,
        base=rate.base if rate else "",
        rate=rate.rate if rate else "",
        dealer=rate.dealer_tai if rate else 0,
    )


def items(sc: ScoreResult, lang: Lang) -> list[tuple[str, int]]:
    """The tai items: (display name, tai)."""
    return _items(sc, lang)


def lines(sc: ScoreResult, total: str, lang: Lang) -> list[tuple[str, str] | str]:
    """The result picture's rows: each item, the total, then what each payer pays."""
    out: list[tuple[str, str] | str] = [(n, i18n.t(lang, "{n} tai", n=v)) for n, v in _items(sc, lang)]
    out.append((total, i18n.t(lang, "{n} tai", n=sc.han)))
    rate = _rate(sc)
    out.append(
        i18n.t(
            lang,
            "Each payer: {base} + {rate} × (tai + dealer tai)",
            base=rate.base if rate else "",
            rate=rate.rate if rate else "",
        )
    )
    return out

"""chinitsu_toutenkou's words for a win: point items and the kinds its Whites counted as (CT-G).

Read from the scoring result's yaku (the point items) and its
:class:`~engine.scoring.breakdown.WildcardAs` parts; :mod:`bot.render.wins` puts them together.
"""

from __future__ import annotations

from bot import i18n
from bot.i18n import Lang
from engine.scoring.breakdown import WildcardAs
from engine.scoring.result import ScoreResult
from engine.tiles import KIND_NAMES


def summary(sc: ScoreResult, listed: str, lang: Lang) -> str:
    """The result message's line: the items (``listed``), the points, the Whites' kinds."""
    whites = [KIND_NAMES[b.as_kind] for b in sc.breakdown if isinstance(b, WildcardAs)]
    if whites:
        return i18n.t(lang, "{items} — {points} points (White as {tiles})", items=listed, points=sc.points, tiles=" ".join(whites))
    return i18n.t(lang, "{items} — {points} points", items=listed, points=sc.points)


def lines(sc: ScoreResult, rows: list[tuple[str, int]], total: str, lang: Lang) -> list[tuple[str, str]]:
    """The result picture's rows: each item in points, as ``/score`` writes them, and the total."""
    out = [(name, i18n.t(lang, "{n} pts", n=n)) for name, n in rows]
    out.append((total, i18n.t(lang, "{points} points", points=f"{sc.points:,}")))
    return out

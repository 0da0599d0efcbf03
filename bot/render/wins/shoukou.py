"""shoukou's words for a win: the ±3 transformations its value used (SK-D4, SK-10).

Read from the scoring result's :class:`~engine.scoring.breakdown.Transformation` parts;
:mod:`bot.render.wins` adds them to a win's line and picture.
"""

from __future__ import annotations

from bot import i18n
from bot.i18n import Lang
from engine.scoring.breakdown import Transformation
from engine.scoring.result import ScoreResult
from engine.tiles import KIND_NAMES


def as_kind(tile: str, kind: str, lang: Lang) -> str:
    """A transformed tile: ``4m as 7m``."""
    return i18n.t(lang, "{tile} as {kind}", tile=tile, kind=kind)


def moved(sc: ScoreResult, lang: Lang) -> list[str]:
    """Each transformation the value used, ``4m as 7m`` (the engine's kind names)."""
    return [as_kind(KIND_NAMES[b.kind], KIND_NAMES[b.as_kind], lang) for b in sc.breakdown if isinstance(b, Transformation)]


def word(lang: Lang) -> str:
    """The result picture's label of a transformation row."""
    return i18n.t(lang, "Transformation")

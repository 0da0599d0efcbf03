"""The shoukou :class:`Ruleset`: riichi with the ±3 rank transformation (shoukou.md), its options
(``shoukou``, :class:`~engine.rules.shoukou.options.ShoukouOptions`) and the scoring hook (SK-10,
:func:`~engine.rules.shoukou.scoring.score_shoukou`)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from engine.notation import HandSpec
from engine.rules.base import Ruleset
from engine.rules.facts import AiProfile
from engine.rules.shoukou.options import ShoukouOptions
from engine.rules.shoukou.scoring import score_shoukou
from engine.rules.shoukou.table import ShoukouTable
from engine.scoring.result import ScoreResult

__all__ = ["ShoukouRuleset", "shoukou_ruleset"]


@dataclass(frozen=True, kw_only=True)
class ShoukouRuleset(ShoukouTable, Ruleset):
    """Riichi with the ±3 rank transformation (shoukou.md)."""

    # what the bot and the AI ask of this variant (Ruleset facts)
    menu_order: ClassVar[int] = 30
    rule_book: ClassVar[str] = "shoukou"
    rule_prefix: ClassVar[str] = "SK"
    shanten_note: ClassVar[str] = (
        "Plain shapes only: shoukou's ±3 transformations (SK-8, SK-11) are not counted here."
    )

    def ai_profile(self) -> AiProfile:
        return AiProfile(calls="yaku", kuitan=self.options.kuitan)

    name: str = "shoukou"
    shoukou: ShoukouOptions = field(default_factory=ShoukouOptions)

    description: ClassVar[str] = "昇降麻雀: one tile per call, kan or win may move 3 ranks"

    def score(self, spec: HandSpec) -> ScoreResult:
        """SK-10: the union of every interpretation (``shoukou.*`` flags of the line apply)."""
        rs = self
        if spec.options:
            sk = self.shoukou.with_flags(spec.options)
            if sk is not self.shoukou:
                rs = replace(self, shoukou=sk)
        return score_shoukou(spec, rs)


def shoukou_ruleset() -> ShoukouRuleset:
    return ShoukouRuleset()

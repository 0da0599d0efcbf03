"""The seigou :class:`Ruleset`: riichi scoring without rinshan kaihou (SG-6), the turn structure of
:mod:`.table`, its own options :class:`SeigouOptions` (``seigou``)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar

from engine.notation import HandSpec
from engine.rules.base import Ruleset
from engine.rules.facts import AiProfile
from engine.rules.seigou.options import SeigouOptions
from engine.rules.seigou.table import SeigouTable, river_slots
from engine.scoring.evaluate import evaluate
from engine.scoring.result import ScoreResult
from engine.scoring.yaku import RIICHI_YAKU, Yaku

__all__ = ["SEIGOU_YAKU", "Seigou"]

if TYPE_CHECKING:
    from engine.table.game import Game

# §3: rinshan kaihou does not exist (SG-6); every other yaku is riichi's.
SEIGOU_YAKU: tuple[Yaku, ...] = tuple(y for y in RIICHI_YAKU if y.id != "rinshan")


@dataclass(frozen=True, kw_only=True)
class Seigou(SeigouTable, Ruleset):
    # what the bot and the AI ask of this variant (Ruleset facts)
    menu_order: ClassVar[int] = 20
    rule_book: ClassVar[str] = "seigou"
    rule_prefix: ClassVar[str] = "SG"

    def ai_profile(self) -> AiProfile:
        return AiProfile(calls="yaku", kuitan=self.options.kuitan)

    def river_slots(self, g: Game, seat: int) -> list[int | None] | None:
        """SG-2: one slot per go-around, a claimed discard or a kan turn left blank."""
        return river_slots(g, seat)

    name: str = "seigou"
    yaku: tuple[Yaku, ...] = SEIGOU_YAKU
    seigou: SeigouOptions = field(default_factory=SeigouOptions)

    description: ClassVar[str] = (
        "Seigou (整合麻雀 改): fair turns, delayed pon, kan without replacement, 18 turns each"
    )

    def score(self, spec: HandSpec) -> ScoreResult:
        """Riichi scoring without rinshan kaihou: a ``rinshan`` flag is ignored (reported in details)."""
        details: dict[str, Any] = {}
        if spec.ctx.rinshan:
            spec = replace(spec, ctx=replace(spec.ctx, rinshan=False))
            details["ignored_flags"] = ["rinshan"]
        res = evaluate(spec, self)
        if details:
            res = replace(res, details={**res.details, **details})
        return res

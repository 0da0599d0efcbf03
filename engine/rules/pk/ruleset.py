"""The pk :class:`Ruleset`: riichi with the PK-0 table, kansaki win validity (PK-1 … PK-5, PK-12)
and the table changes of :mod:`.table`. Its own options are :class:`PkOptions` (``pk``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar

from engine.notation import HandSpec, Meld, WinContext
from engine.rules.base import Ruleset
from engine.rules.facts import AiProfile
from engine.rules.options import RiichiOptions
from engine.rules.pk.options import PkOptions
from engine.rules.pk.table import PkTable
from engine.rules.pk.yaku import (
    FURITEN,
    NO_COMMON_YAKU,
    YAKUMAN_BASE,
    PkAnalysis,
    _readings,
    analyse,
    table_base,
    tenhou_ok,
)
from engine.scoring.breakdown import Bazoro
from engine.scoring.evaluate import check_tiles, dora_extras, yaku_of, yakuman_of
from engine.scoring.result import NO_YAKU, NOT_A_WIN, ScoreResult, YakuScore, settle_win
from engine.tiles import RED

__all__ = ["PkRuleset", "pk_ruleset"]

if TYPE_CHECKING:
    from engine.table.game import Game


def _truthy(v: str | None) -> bool:
    return v is not None and v.lower() in ("1", "true", "yes", "on")


@dataclass(frozen=True, kw_only=True)
class PkRuleset(PkTable, Ruleset):
    """Riichi with the PK rule: the PK-0 table, kansaki win validity, and the table changes."""

    # what the bot and the AI ask of this variant (Ruleset facts)
    menu_order: ClassVar[int] = 10
    rule_book: ClassVar[str] = "pk"
    rule_prefix: ClassVar[str] = "PK"
    furiten_warning: ClassVar[str] = "You are furiten: you cannot win by ron or by tsumo (PK-6, PK-7)."

    def ai_profile(self) -> AiProfile:
        """PK-4: a win needs a common qualifying yaku; riichi is one for every wait, so a closed
        tenpai hand declares whenever it can (even on one unseen tile). PK-6: furiten blocks tsumo
        too, so a furiten riichi can never win. PK-D7: calls keep an anchored yaku."""
        return AiProfile(calls="anchored", kuitan=False, furiten_riichi_wins=False, riichi_min_waits=1)

    def why_tsumo_blocked(self, g: Game, seat: int) -> str | None:
        if not self.tsumo_blocked(g, seat):
            return None
        st = g.seats[seat]
        if st.furiten_temp:
            return "you passed a winning tile since your last discard: no win at all until you discard (PK-7)"
        if st.furiten_riichi:
            return "you passed a winning tile after riichi: furiten blocks tsumo too (PK-6)"
        return "a tile you wait on is in your own discards: furiten blocks tsumo too (PK-6)"

    name: str = "pk"
    options: RiichiOptions = field(default_factory=lambda: RiichiOptions(kuitan=False, atozuke=False))
    pk: PkOptions = field(default_factory=PkOptions)

    description: ClassVar[str] = "PK rule (perfect kansaki): no atozuke, no fu, fixed han table"

    def __post_init__(self) -> None:
        # pk.md §8: the base kuitan and atozuke options are forced off (PK-10, PK-1…PK-5); a table
        # that turned kuitan on would let an open all-simples hand win on tanyao alone.
        for key in ("kuitan", "atozuke"):
            if getattr(self.options, key):
                raise ValueError(f"pk always plays with riichi.{key} off (pk.md §8); it cannot be turned on")

    # -- pure hand questions --------------------------------------------------------------------

    def situational_extra(self, ctx: WinContext) -> frozenset[str]:
        """A1 option: the actual win's situational yaku, common to every wait when allowed."""
        if not self.pk.situational_yaku_qualify:
            return frozenset()
        out = set()
        if ctx.ippatsu and (ctx.riichi or ctx.double_riichi):
            out.add("ippatsu")
        if ctx.haitei and ctx.tsumo and not ctx.rinshan:
            out.add("haitei")
        if ctx.houtei and not ctx.tsumo:
            out.add("houtei")
        if ctx.rinshan and ctx.tsumo:
            out.add("rinshan")
        if ctx.chankan and not ctx.tsumo:
            out.add("chankan")
        return frozenset(out)

    def validity(self, hand13: Sequence[int], melds: Sequence[Meld], ctx: WinContext) -> PkAnalysis:
        """PK-4/PK-5 (b) for a 13-tile hand; furiten (PK-5 (c)) is the table's business."""
        return analyse(hand13, melds, ctx, self, extra=self.situational_extra(ctx))

    # -- scoring hook ---------------------------------------------------------------------------

    def score(self, spec: HandSpec) -> ScoreResult:
        """Valid (PK-5, PK-12) → value by the PK-0 table; invalid → ``agari: false`` with reason
        ``no_common_yaku`` (and the per-wait yaku in ``details``). Furiten is table state: the hand
        grammar's ``furiten=yes`` flag stands for it (reason ``furiten``)."""
        counts, spec = check_tiles(spec, self)
        if not self.shanten_calculator().is_agari(counts):
            return ScoreResult(False, reason=NOT_A_WIN)
        ctx = spec.ctx
        if _truthy(spec.options.get("furiten")):
            return ScoreResult(False, reason=FURITEN)
        win = spec.win_tile & ~RED
        details: dict[str, Any]
        if ctx.tenhou or ctx.chiihou:
            ok, details = tenhou_ok(counts, ctx, self)
        else:
            hand13 = list(counts)
            hand13[win] -= 1
            a = self.validity(hand13, spec.melds, ctx)
            ok, details = a.valid, a.to_json()
        if not ok:
            return ScoreResult(False, reason=NO_COMMON_YAKU, details=details)
        res = self._value(spec, counts)
        if not res.agari:
            return res
        return replace(res, details={**details, **res.details})

    def _value(self, spec: HandSpec, counts: Sequence[int]) -> ScoreResult:
        """PK-0 and §4 step 5: every yaku of the actual win, dora and bazoro, best reading."""
        ctx = spec.ctx
        win = spec.win_tile & ~RED
        bazoro = self.pk.bazoro
        best: tuple[tuple[int, int, int], ScoreResult] | None = None
        extras = dora_extras(spec, self)
        for r in _readings(counts, win, spec.melds, ctx):
            ym = yakuman_of(r.view, self)
            if ym:
                mult = sum(y.han for y in ym) // 13
                base, limit, han, ys = YAKUMAN_BASE * mult, "yakuman", 0, tuple(ym)
                table = 0
            else:
                found = yaku_of(r.view, self)
                if not found:
                    continue
                mult = 0
                han = sum(y.han for y in found) + sum(n for _, n in extras)
                table = han + bazoro
                base, limit = table_base(table)
                ys = tuple(found) + tuple(YakuScore(n, v) for n, v in extras if v)
            key = (base, mult, han)  # at equal value a yakuman reading wins
            if best is not None and key <= best[0]:
                continue
            pts, pay = settle_win(base, ctx, self.options)
            details = {"bazoro": bazoro, "table_han": table} if not mult else {}
            res = ScoreResult(
                True, ys, han, 0, mult, pts, pay, limit, wait=r.view.wait.name.lower(), details=details,
                breakdown=(Bazoro(bazoro, table),) if not mult else (),
            )
            best = (key, res)
        if best is None:
            return ScoreResult(False, reason=NO_YAKU)
        return best[1]


def pk_ruleset() -> PkRuleset:
    return PkRuleset()

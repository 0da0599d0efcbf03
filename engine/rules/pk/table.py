"""pk at the table (pk.md PK-6, PK-7, PK-11, PK-13): the table hooks the ruleset overrides.

Furiten and a passed win block tsumo too, no kan after riichi, a hand that could not win is noten
at the draw, payments come from the PK-0 table: overrides of the table hooks
(``engine/table/hooks.py``), mixed into :class:`~engine.rules.pk.ruleset.PkRuleset`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from engine.notation import Meld, WinContext
from engine.rules.pk.options import PkOptions
from engine.rules.pk.yaku import YAKUMAN_BASE, analyse, table_base
from engine.scoring.result import ScoreResult
from engine.table.hooks import TableHooks
from engine.tiles import RED

if TYPE_CHECKING:
    from engine.rules.pk.ruleset import PkRuleset
    from engine.table.game import Game

__all__ = ["PkTable"]


class PkTable(TableHooks):
    """The table hooks of pk (mixed into :class:`~engine.rules.pk.ruleset.PkRuleset`)."""

    pk: PkOptions

    def base_of(self, res: ScoreResult) -> int:
        """Base B of a scored win (PK-0), from its han and yakuman count."""
        if res.yakuman:
            return YAKUMAN_BASE * res.yakuman
        return table_base(res.han + self.pk.bazoro)[0]

    def win_base(self, g: Game, res: ScoreResult) -> int:
        """PK-0: payments come from the fixed table, not from han × fu."""
        return self.base_of(res)

    def tsumo_blocked(self, g: Game, seat: int) -> bool:
        """PK-6/PK-7: furiten of any kind, or a win passed since the seat's last discard, forbids
        tsumo too. The waits are those of the hand before the drawn tile (fresh, so a kan since
        the last discard is taken into account)."""
        st = g.seats[seat]
        if st.furiten_temp or st.furiten_riichi:
            return True
        c = list(st.counts)
        c[g.code(g.drawn) & ~RED] -= 1
        return any(k in st.discarded_kinds for k in g.calc.waits(c))

    def can_tsumo(self, g: Game, seat: int) -> bool:
        """PK-3/PK-5/PK-6/PK-7: a tsumo needs a hand that could ron (``score`` checks PK-4 and
        PK-12 as a ron) and a seat that is not furiten in any sense."""
        if not g.calc.is_agari(g.seats[seat].counts) or self.tsumo_blocked(g, seat):
            return False
        return super().can_tsumo(g, seat)

    def riichi_ankan_ok(self, g: Game, seat: int, kind: int) -> bool:
        """PK-11: no kan at all after riichi."""
        return False

    def riichi_discard_ok(self, g: Game, seat: int, code: int) -> bool:
        """A10: with ``pk.allow_furiten_riichi`` off, a riichi that would be furiten is refused."""
        if not super().riichi_discard_ok(g, seat, code):
            return False
        if self.pk.allow_furiten_riichi:
            return True
        st = g.seats[seat]
        k = code & ~RED
        c = list(st.counts)
        c[k] -= 1
        discarded = st.discarded_kinds | {k}
        return not any(w in discarded for w in g.calc.waits(c))

    def seat_hand(self, g: Game, seat: int) -> tuple[list[int], tuple[Meld, ...], WinContext]:
        """The seat's concealed counts, its melds in call order (PK-D1) and its win context."""
        st = g.seats[seat]
        melds = tuple(Meld(m.type, tuple(g.code(t) for t in m.tiles)) for m in st.melds)
        ctx = self.win_context(g, seat, tsumo=False, chankan=False, from_seat=-1)
        return list(st.counts), melds, ctx

    def tenpai_at_draw(self, g: Game, seat: int) -> bool:
        """PK-13: a hand that could win neither by ron nor by tsumo is noten: shape tenpai (R-11.2),
        not furiten in any sense (PK-6: permanent, riichi, or temporary from passing the last
        discard), and a common qualifying yaku (PK-4)."""
        if not super().tenpai_at_draw(g, seat) or self.furiten(g, seat):
            return False
        counts, melds, ctx = self.seat_hand(g, seat)
        return analyse(counts, melds, ctx, cast("PkRuleset", self)).valid  # no situational extras: nobody won


"""shoukou at the table (shoukou.md SK-3–SK-7, SK-11, SK-12): the table hooks the ruleset overrides.

:class:`ShoukouTable` puts the pure functions of :mod:`.moves` into the shared state machine
(``engine/table/hooks.py``): the extended wait set W and furiten, call options and their priority
(SK-12), kuikae after a transformed call, the transformed kans and riichi judged by W.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.notation import MeldType
from engine.rules.shoukou.moves import (
    ankan_options,
    chi_options,
    chi_possible,
    daiminkan_options,
    kakan_options,
    kuikae_forbidden,
    meld_sets_of,
    pon_options,
    triplet_in_every_reading,
    wait_set,
)
from engine.rules.shoukou.options import ShoukouOptions
from engine.rules.shoukou.scoring import shift_targets
from engine.table.actions import Action, ActionType
from engine.table.hooks import TableHooks
from engine.tiles import RED

if TYPE_CHECKING:
    from engine.table.game import Game, SeatState

A = ActionType

__all__ = ["ShoukouTable"]


class ShoukouTable(TableHooks):
    """The table hooks of shoukou (mixed into :class:`~engine.rules.shoukou.ruleset.ShoukouRuleset`)."""

    shoukou: ShoukouOptions

    # -- waits, furiten, wins (SK-8, SK-9, SK-11) --------------------------------------------

    def _meld_sets(self, g: Game, st: SeatState) -> list[int]:
        codes = g.codes
        return meld_sets_of(m.effective or tuple(codes[t] & ~RED for t in m.tiles) for m in st.melds)

    def shoukou_waits(self, g: Game, seat: int, counts: list[int] | None = None) -> tuple[int, ...]:
        """SK-11: the Shoukou wait set W of the seat's 13-tile hand (or of ``counts``)."""
        st = g.seats[seat]
        c = st.counts if counts is None else counts
        if sum(c) % 3 != 1:
            return ()
        # one tile moved 3 ranks is one tile swapped: a hand W is not empty for is at most
        # 1-shanten as printed (0 without transformations)
        if g.calc.shanten(c) > (1 if self.shoukou.transform else 0):
            return ()
        return wait_set(list(c), self._meld_sets(g, st), transform=self.shoukou.transform)

    def wait_set(self, g: Game, seat: int) -> tuple[int, ...]:
        return self.shoukou_waits(g, seat)

    def win_shape(self, g: Game, counts: list[int]) -> bool:
        """SK-8/SK-9: complete after at most one transformation (one tile's kind changed), so the
        physical hand is at most one tile from complete; scoring decides the rest."""
        return g.calc.shanten(counts) <= (0 if self.shoukou.transform else -1)

    def tenpai_at_draw(self, g: Game, seat: int) -> bool:
        """R-11.2 with W (SK-11): tenpai unless every wait is a kind the seat holds all 4 of."""
        st = g.seats[seat]
        w = self.shoukou_waits(g, seat)
        return any(st.counts[k] < 4 for k in w)

    def riichi_discard_ok(self, g: Game, seat: int, code: int) -> bool:
        """R-5.1 with W (SK-11): the hand after the declaration discard has a Shoukou wait."""
        c = list(g.seats[seat].counts)
        c[code & ~RED] -= 1
        return bool(self.shoukou_waits(g, seat, c))

    # -- calls (SK-3, SK-4, SK-5, SK-12) -------------------------------------------------------

    def call_options(self, g: Game, seat: int, tile: int, discarder: int) -> list[Action]:
        st = g.seats[seat]
        if g.live_left <= 0 or st.riichi:
            return []
        sk = self.shoukou
        d = g.codes[tile]
        out: list[Action] = []
        # What the tile counts allow, before listing the options (most discards allow nothing):
        # a pon or kan takes two (three) own tiles of the discard's kind, or one (two) of them
        # and a tile moved onto it from 3 ranks away, or the discard moved onto a kind held
        # twice (three times), SK-4/SK-5; a chi, see chi_possible (SK-3).
        c = st.counts
        dk = d & ~RED
        near = shift_targets(dk) if sk.transform else ()
        held_near = max([c[t] for t in near], default=0)
        moved_in = held_near > 0
        pon = c[dk] >= 2 or (c[dk] and moved_in) or held_near >= 2
        kan = c[dk] >= 3 or (c[dk] >= 2 and moved_in) or held_near >= 3
        chi = g.players == 4 and seat == (discarder + 1) % g.players and chi_possible(c, dk, transform=sk.transform)
        if not (pon or chi):
            return out
        hand = [g.codes[t] for t in st.tiles]
        if pon:
            for own, shift, eff in pon_options(hand, d, transform=sk.transform):
                if self._can_discard_after(hand, own, d, eff, False, bool(shift)):
                    out.append(Action(A.PON, seat, -1, own, shift=shift))
        if kan and self.kan_allowed(g, seat):
            seen: set[tuple[int, ...]] = set()
            for _own, shift, _eff in daiminkan_options(hand, d, transform=sk.transform):
                if not shift and st.counts[d & ~RED] != 3:
                    continue
                if shift not in seen:
                    seen.add(shift)
                    out.append(Action(A.DAIMINKAN, seat, shift=shift))
        if chi:
            for own, shift, eff in chi_options(hand, d, transform=sk.transform):
                if self._can_discard_after(hand, own, d, eff, True, bool(shift)):
                    out.append(Action(A.CHI, seat, -1, own, shift=shift))
        return out

    def _can_discard_after(
        self, hand: list[int], own: tuple[int, ...], d: int, eff: tuple[int, ...], is_chi: bool, transformed: bool
    ) -> bool:
        """R-4.4 / A9: a call is illegal if every tile left would be a forbidden discard."""
        forbid = kuikae_forbidden(d, eff, self.shoukou.kuikae, is_chi, transformed)
        rest = list(hand)
        for c in own:
            rest.remove(c)
        return any((c & ~RED) not in forbid for c in rest)

    def choose_call(self, g: Game, responses: Mapping[int, Action], discarder: int) -> Action | None:
        """SK-12: of two pon/kan claims the one closest in turn order after the discarder wins;
        pon/kan over chi as base."""
        n = g.players
        claims = [a for a in responses.values() if a.type in (A.PON, A.DAIMINKAN)]
        if claims:
            return min(claims, key=lambda a: (a.seat - discarder) % n)
        for a in responses.values():
            if a.type is A.CHI:
                return a
        return None

    def after_call_forbidden(self, g: Game, seat: int, call: Action, forbidden: frozenset[int]) -> frozenset[int]:
        """A9 (``shoukou.kuikae``): kuikae after a transformed call."""
        m = g.seats[seat].melds[-1]
        if m.type not in (MeldType.CHI, MeldType.PON):
            return forbidden
        eff = m.effective or tuple(g.codes[t] & ~RED for t in m.tiles)
        return kuikae_forbidden(g.codes[m.called], eff, self.shoukou.kuikae, m.type is MeldType.CHI, bool(call.shift))

    # -- kans (SK-5, SK-6, SK-7) ---------------------------------------------------------------

    def turn_actions(self, g: Game, seat: int, actions: list[Action]) -> list[Action]:
        """The base turn, with its kans replaced by the transformed ones (SK-6, SK-7) and its
        riichi declarations judged by W (SK-11): the game lists riichi only for a hand that is
        tenpai as printed, and a shoukou tenpai may be one tile further (W8)."""
        if g.after_call or not any(a.type is A.DISCARD for a in actions):
            return actions
        rest = [a for a in actions if a.type not in (A.ANKAN, A.KAKAN, A.RIICHI)]
        # a discard leaves a hand with a wait only if the 14 tiles are within 1 tile of complete
        # (0 without transformations): the shanten of 14 tiles is at most that of any 13 of them
        if self.riichi_allowed(g, seat) and g.calc.shanten(g.seats[seat].counts) <= (1 if self.shoukou.transform else 0):
            rest += [
                Action(A.RIICHI, seat, a.tile)
                for a in actions
                if a.type is A.DISCARD and self.riichi_discard_ok(g, seat, a.tile)
            ]
        if not self.kan_allowed(g, seat):
            return rest
        kans = self._kan_actions(g, seat)
        i = next((j for j, a in enumerate(rest) if a.type not in (A.TSUMO, A.KYUUSHU)), len(rest))
        return rest[:i] + kans + rest[i:]

    def _kan_actions(self, g: Game, seat: int) -> list[Action]:
        st = g.seats[seat]
        sk = self.shoukou
        c = st.counts
        # SK-6: four of a kind, or three and a tile 3 ranks away; SK-7: a pon and its kind (or a
        # tile 3 ranks away) in the hand
        targets = shift_targets if sk.transform else _no_targets
        ankan = max(c) >= 3 and any(
            c[k] >= 4 or (c[k] == 3 and any(c[s] for s in targets(k))) for k in range(34) if c[k] >= 3
        )
        pons = [m for m in st.melds if m.type is MeldType.PON]
        if not ankan and not pons:
            return []
        codes = g.codes
        hand = [codes[t] for t in st.tiles]
        out: list[Action] = []
        drawn = codes[g.drawn] if g.drawn >= 0 else -1
        for four, shift, eff in ankan_options(hand, transform=sk.transform) if ankan else ():
            k = eff[0]
            if st.riichi and not self._riichi_kan_ok(g, seat, four, drawn):
                continue
            a = Action(A.ANKAN, seat, k, shift=shift)
            if a not in out:
                out.append(a)
        if st.riichi:
            return out
        pon_kinds = [m.effective[0] if m.effective else codes[m.tiles[0]] & ~RED for m in pons]
        for k, _c, shift in kakan_options(hand, pon_kinds, transform=sk.transform):
            out.append(Action(A.KAKAN, seat, k, shift=shift))
        return out

    def _riichi_kan_ok(self, g: Game, seat: int, four: tuple[int, ...], drawn: int) -> bool:
        """R-5.3 with W (SK-11, A13): (a) the drawn tile is one of the four and three tiles of the
        quad's kind were concealed before it; (b) the Shoukou wait set of the hand before the draw
        is not empty and stays the same after the kan; (c) every interpretation that wins on one
        of those waits reads the three as a triplet."""
        if drawn not in four:
            return False
        st = g.seats[seat]
        before = list(st.counts)
        before[drawn & ~RED] -= 1
        k = max(set(c & ~RED for c in four), key=lambda x: sum(1 for c in four if c & ~RED == x))
        if before[k] < 3:
            return False
        w = self.shoukou_waits(g, seat, before)
        if not w:
            return False
        after = list(st.counts)
        for c in four:
            after[c & ~RED] -= 1
        sets = [*self._meld_sets(g, st), k]
        transform = self.shoukou.transform
        return wait_set(after, sets, transform=transform) == w and triplet_in_every_reading(
            before, k, w, transform=transform
        )

    def kan_tiles(self, g: Game, seat: int, action: Action, kind: int) -> list[int]:
        if not action.shift:
            return super().kan_tiles(g, seat, action, kind)
        st = g.seats[seat]
        codes = g.codes
        p, e = action.shift
        if action.type is A.KAKAN:
            return [next(t for t in st.tiles if codes[t] == p)]
        if action.type is A.ANKAN:
            moved = next(t for t in st.tiles if codes[t] == p)
            same = sorted((t for t in st.tiles if codes[t] & ~RED == e), key=lambda t: codes[t] & RED)
            return [*same[:3], moved]
        # daiminkan: the shift is on the discard when it is the discard's kind (see SK-5)
        if p & ~RED == kind:
            return sorted((t for t in st.tiles if codes[t] & ~RED == e), key=lambda t: codes[t] & RED)[:3]
        moved = next(t for t in st.tiles if codes[t] == p)
        same = sorted((t for t in st.tiles if codes[t] & ~RED == kind), key=lambda t: codes[t] & RED)
        return [moved, *same[:2]]

    def meld_effective(
        self, g: Game, seat: int, action: Action, tiles: tuple[int, ...], prev: tuple[int, ...] = ()
    ) -> tuple[int, ...]:
        """SK-D4/SK-D5: the transformed tile keeps its effective kind inside the meld."""
        codes = g.codes
        if action.type is A.KAKAN:
            if not action.shift and not prev:
                return ()
            base = prev or tuple(codes[t] & ~RED for t in tiles[:-1])
            return (*base, action.tile & ~RED)
        if not action.shift:
            return ()
        p, e = action.shift
        kinds = [codes[t] & ~RED for t in tiles]
        if action.type in (A.CHI, A.PON, A.DAIMINKAN) and codes[tiles[-1]] & ~RED == p & ~RED:
            kinds[-1] = e  # the discard was transformed
        else:
            i = next(i for i, t in enumerate(tiles) if codes[t] == p)
            kinds[i] = e
        return tuple(kinds)


def _no_targets(kind: int) -> tuple[int, ...]:
    return ()

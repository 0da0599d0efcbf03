"""taiwan16 at the table (rules/taiwan16.md TW-2…TW-14): the table hooks the ruleset overrides.

The shared state machine (:mod:`engine.table.game`) runs the game; this mixin changes what differs:

* **Wall (TW-4, TW-6, TW-7, TW-11).** 144 tiles. The deal gives 16 tiles each (4 × 4 from the
  dealer) and the dealer a 17th; the whole initial 補花 (dealer first, then in turn order, each
  until flower-free) is done by :func:`build_deal`, so a hand starts with flower-free hands and the
  flowers already exposed. ``Game.live`` is the whole remaining wall: normal draws from the front
  (``live_pos``), replacements for flowers and kongs from the tail (``live_end``). A normal draw
  needs more than R tiles left (the reserve); a replacement needs any tile.
* **Flowers** are kept in ``SeatState.kita`` (the table's list of set-aside tiles). A drawn flower
  is exposed and replaced at once. 七搶一 and 八仙過海 (TW-14) are won automatically the moment the
  eighth flower is out ("wins immediately"); found at the end of the deal, the dealer wins at once
  and a non-dealer at its first draw (配牌花胡, T-23).
* **Declared tenpai (TW-12)** is the riichi action (``1r5m``: declare, discarding 5m), with no
  stick, on any discard (after a chi or pon too); on the first discard with no call before it
  (``double_riichi``) it is 地聴 (T-18). With ``tenting`` (T-19 天聴) a non-dealer whose dealt
  hand is tenpai is asked before its first draw, in a one-seat ``Phase.CLAIM`` window: ``2r``
  declares (then draws), ``2x`` does not.
* **Haitei pass (TW-11, ``haitei_pass``)**: the seat due to draw the last tile is asked first
  (``Phase.CLAIM``): ``1w`` takes it, ``1x`` passes it to the next seat; four passes draw the hand.
  Whoever takes it may only win or discard it.
* **Seat winds (TW-5)** come from the dealer's dice (the broken wall's owner is East); in the first
  hand the wall is broken with the dealer-selection roll counted from the provisional East, which is
  the roll that made seat 0 the first dealer, so East is the first dealer then (A15).
* **Calls (TW-8)**: chi from the left, pon/kong from anyone, win > pon/kong > chi, head-bump; kongs
  right after a chi/pon; no kuikae (house rules as options). Only a win may claim the last discard.
* **Furiten (TW-10)**: only after passing a win, until the seat's next turn.
* **Payments (TW-13)** 底 + rate × (T + dealer tai); the dealer continues on a win or a draw (TW-3),
  ``Game.honba`` is the continuation count n. Scores start at 0 and are the sum of payments.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from engine.notation import WINDS, HandSpec, Meld, MeldType, WinContext
from engine.rules.facts import TurnWindow
from engine.rules.taiwan16.options import TaiwanOptions
from engine.rules.taiwan16.tai import settle
from engine.scoring.result import ScoreResult
from engine.table.actions import Action, ActionType
from engine.table.hooks import TableHooks, has_discard_after, open_turn_window
from engine.table.wall import Deal, TileSet, shuffled, standard_tileset
from engine.tiles import FLOWER_BASE, format_tiles

if TYPE_CHECKING:
    from engine.table.game import Game, HandResult

A = ActionType
N_FLOWERS = 8


@dataclass(frozen=True, slots=True)
class TaiwanDeal(Deal):
    """A deal after the initial 補花: hands flower-free, each seat's exposed flowers, the dice."""

    flowers: tuple[tuple[int, ...], ...] = ((), (), (), ())  # per seat, physical ids, in order exposed
    dice: tuple[int, int, int] = (1, 1, 1)

    def all_tiles(self) -> list[int]:
        return Deal.all_tiles(self) + [t for f in self.flowers for t in f]


def hand_dice(seed: int | str, hand_index: int) -> tuple[int, int, int]:
    """The dealer's roll of three dice for a hand (for the first hand: the dealer-selection roll)."""
    h = hashlib.sha256(f"jantaku:{seed}:{hand_index}:dice".encode()).digest()
    a, b, c = (h[i] % 6 + 1 for i in range(3))
    return a, b, c


def taiwan_tileset(flowers: bool = True) -> TileSet:
    """TW-1: the 136 standard tiles without red fives (ids as Tenhou's), then 1f..8f (136..143)."""
    codes = standard_tileset(red_fives=(0, 0, 0)).codes
    return TileSet(codes + (tuple(range(FLOWER_BASE, FLOWER_BASE + N_FLOWERS)) if flowers else ()))


def build_deal(
    wall: Sequence[int], codes: Sequence[int], *, dealer: int, dice: tuple[int, int, int] = (1, 1, 1), players: int = 4
) -> TaiwanDeal:
    """TW-6/TW-7 on a wall in draw order (physical ids; the tail is the end of the list): 4 × 4
    tiles each from the dealer, the dealer's 17th, then 補花 from the tail, dealer first. The
    dealer's last tile in becomes ``live[0]``, its first draw."""
    hands: list[list[int]] = [[] for _ in range(players)]
    pos = 0
    for _ in range(4):
        for k in range(players):
            s = (dealer + k) % players
            hands[s].extend(wall[pos : pos + 4])
            pos += 4
    hands[dealer].append(wall[pos])
    pos += 1
    tail = len(wall)
    flowers: list[list[int]] = [[] for _ in range(players)]
    for k in range(players):
        s = (dealer + k) % players
        while True:
            out = [t for t in hands[s] if codes[t] >= FLOWER_BASE]
            if not out:
                break
            for t in out:
                hands[s].remove(t)
                flowers[s].append(t)
            for _ in out:
                tail -= 1
                hands[s].append(wall[tail])
    last = hands[dealer].pop()
    return TaiwanDeal(
        tuple(tuple(h) for h in hands),
        (last, *wall[pos:tail]),
        (),
        (),
        (),
        flowers=tuple(tuple(f) for f in flowers),
        dice=dice,
    )


@dataclass(slots=True)
class HandState:
    """Per-hand taiwan16 state (``Game.hand_state``)."""

    east: int  # the seat that is East this hand (TW-5)
    replacement: str = ""  # this turn's replacement chain began with a "kong" or a "flower"
    window: TurnWindow = ""  # the open Phase.CLAIM window: "tenting" (T-19) or "haitei" (haitei_pass)
    heaven: frozenset[int] = frozenset()  # seats that declared 天聴 before their first draw (T-19)
    haitei_passes: int = 0  # seats that passed the last tile on (TW-11 haitei_pass)
    haitei_taken: bool = False  # the last tile was taken under haitei_pass: win or discard it


class TaiwanTable(TableHooks):
    """The table hooks of taiwan16 (mixed into :class:`~engine.rules.taiwan16.ruleset.Taiwan16`)."""

    tw: TaiwanOptions

    # ------------------------------------------------------------------ wall and deal

    def tileset(self, g: Game) -> TileSet:
        return taiwan_tileset(self.tw.flowers)

    def deal(self, g: Game) -> Deal:
        tiles = [i for i, c in enumerate(g.tileset.codes) if c >= 0]
        wall = shuffled(tiles, g.seed, g.hand_index)
        return build_deal(wall, g.codes, dealer=g.dealer, dice=hand_dice(g.seed, g.hand_index), players=g.players)

    def east_seat(self, g: Game) -> int:
        """TW-5: the seat whose wall the dealer's roll breaks ((s − 1) mod 4 seats after the dealer)."""
        if self.tw.seat_wind_mode == "dealer_east" or g.hand_index == 0:
            return g.dealer
        dice = g.deal.dice if isinstance(g.deal, TaiwanDeal) else hand_dice(g.seed, g.hand_index)
        return (g.dealer + sum(dice) - 1) % g.players

    def dice(self, g: Game) -> tuple[int, ...]:
        """The dealer's roll of this hand (TW-5); () in the first hand (A15: no roll)."""
        if not g.hand_index or not isinstance(g.deal, TaiwanDeal):
            return ()
        return g.deal.dice

    def turn_window(self, g: Game) -> TurnWindow:
        """The one-seat window open now: ``"tenting"`` (T-19) or ``"haitei"`` (TW-11 haitei_pass)."""
        state = g.hand_state
        return state.window if isinstance(state, HandState) else ""

    def seat_wind_of(self, g: Game, seat: int) -> int:
        state = g.hand_state
        east = state.east if isinstance(state, HandState) else self.east_seat(g)
        return (seat - east) % g.players

    def new_hand_state(self, g: Game) -> object:
        return HandState(east=self.east_seat(g))

    def copy_hand_state(self, g: Game, state: object) -> object:
        return replace(state) if isinstance(state, HandState) else state

    def reserve(self, g: Game) -> int:
        """TW-11: R, the tiles at the end of the wall that normal draws leave."""
        if self.tw.reserve == "none":
            return 0
        if self.tw.reserve == "plus_one_per_kong":
            return 16 + len(g.kans)
        return 16

    def _state(self, g: Game) -> HandState:
        state = g.hand_state
        assert isinstance(state, HandState)
        return state

    # ------------------------------------------------------------------ turn windows

    def start_turn(self, g: Game, seat: int) -> None:
        """The seat's turn: a one-seat window first when it may declare 天聴 (T-19) or pass the
        last tile on (TW-11 haitei_pass), else the draw."""
        state = self._state(g)
        st = g.seats[seat]
        offer: list[Action] = []
        if self.tw.haitei_pass and g.live_left == self.reserve(g) + 1:
            state.window = "haitei"
            offer = [Action(A.DRAW, seat), Action(A.PASS, seat)]
        elif (
            self.tw.tenting
            and seat != g.dealer
            and st.turns == 0
            and not st.melds
            and not st.riichi
            and g.calc.shanten(st.counts) == 0
        ):
            state.window = "tenting"
            offer = [Action(A.RIICHI, seat), Action(A.PASS, seat)]
        if offer:
            open_turn_window(g, seat, offer)
        else:
            g.draw(seat)

    def resolve_turn_claim(self, g: Game, action: Action) -> None:
        """The seat answered its window: 天聴 declared (then the draw), the last tile taken, or
        passed on to the next seat (four passes: an exhaustive draw)."""
        g.pending = {}
        g.responses = {}
        state = self._state(g)
        seat = action.seat
        window, state.window = state.window, ""
        if window == "haitei" and action.type is A.PASS:
            state.haitei_passes += 1
            g.seats[seat].furiten_temp = False  # its turn came (TW-10)
            if state.haitei_passes >= g.players:
                g.exhaustive_draw()
            else:
                self.start_turn(g, (seat + 1) % g.players)
            return
        if window == "haitei":
            state.haitei_taken = True
        elif action.type is A.RIICHI:
            g.seats[seat].riichi = 2  # declared: the hand is fixed as after 地聴 (TW-12)
            state.heaven = state.heaven | {seat}
        g.draw(seat)

    def _must_discard_drawn(self, g: Game) -> bool:
        """TW-11 haitei_pass: whoever takes the last tile and cannot win must discard it."""
        return self._state(g).haitei_taken and not g.after_call

    def turn_actions(self, g: Game, seat: int, actions: list[Action]) -> list[Action]:
        if not self._must_discard_drawn(g):
            return actions
        drawn = g.codes[g.drawn]
        return [a for a in actions if a.type is A.TSUMO or (a.type is A.DISCARD and a.tile == drawn)]

    def turn_check(self, g: Game, seat: int, a: Action) -> bool | None:
        if a.type is A.RIICHI and (g.after_call or self._must_discard_drawn(g)):
            return None  # listed in full: after a call by after_call_actions, never on the last tile
        if a.type is A.DISCARD and self._must_discard_drawn(g):
            return a.seat == seat and a.tile == g.codes[g.drawn]
        return super().turn_check(g, seat, a)

    # ------------------------------------------------------------------ drawing and flowers

    def draw_tile(self, g: Game, seat: int, rinshan: bool) -> tuple[int, bool] | None:
        codes = g.codes
        st = g.seats[seat]
        state = self._state(g)
        if not rinshan and g.live_pos == 0:
            # The dealer's first draw: the deal's flowers go on the table (TW-7), then 配牌花胡.
            deal = g.deal
            if isinstance(deal, TaiwanDeal):
                for s, fl in enumerate(deal.flowers):
                    g.seats[s].kita.extend(fl)
            t = g.live[0]
            g.live_pos = 1
            state.replacement = ""
            if self._flower_winner(g) == seat:
                self._add(g, seat, t)
                self._flower_win(g, seat, deal_phase=True)
                return None
            return t, False
        dealt_win = self._dealt_flower_winner(g, seat)
        replacement = rinshan
        if not rinshan:
            state.replacement = ""
        while True:
            if replacement:
                if g.live_left <= 0:
                    g.exhaustive_draw()  # a replacement is due and the wall is empty (TW-11)
                    return None
                g.live_end -= 1
                t = g.live[g.live_end]
            else:
                t = g.live[g.live_pos]
                g.live_pos += 1
            if codes[t] < FLOWER_BASE:
                break
            st.kita.append(t)  # TW-7: exposed at once, replaced from the tail
            if not state.replacement:
                state.replacement = "flower"
            replacement = True
            if self._flower_winner(g) >= 0:
                self._flower_win(g, self._flower_winner(g), last=t)
                return None
        if dealt_win:
            self._add(g, seat, t)
            self._flower_win(g, seat, deal_phase=True)
            return None
        return t, replacement

    def _add(self, g: Game, seat: int, t: int) -> None:
        st = g.seats[seat]
        st.tiles.append(t)
        st.counts[g.codes[t]] += 1

    def _flower_winner(self, g: Game) -> int:
        """TW-14: the seat that wins by flowers now (all eight out, it holds seven or eight), or −1."""
        if sum(len(st.kita) for st in g.seats) < N_FLOWERS:
            return -1
        for s, st in enumerate(g.seats):
            if len(st.kita) >= N_FLOWERS - 1:
                return s
        return -1

    def _dealt_flower_winner(self, g: Game, seat: int) -> bool:
        """T-23: a non-dealer that met 七搶一 or 八仙過海 in the deal; it wins with its first draw
        (and so claims nothing before it)."""
        st = g.seats[seat]
        return seat != g.dealer and st.turns == 0 and not st.melds and self._flower_winner(g) == seat

    def _flower_win(self, g: Game, seat: int, *, deal_phase: bool = False, last: int = -1) -> None:
        """Settle 八仙過海 (paid by all three, as a self-draw) or 七搶一 (paid by the holder of the
        other flower, as a discard) and end the hand."""
        from engine.table.game import HandResult, WinResult

        st = g.seats[seat]
        codes = g.codes
        mine = list(st.kita)
        payer = -1
        if len(mine) == N_FLOWERS:
            win = last if last in mine else mine[-1]
            tsumo = True
        else:
            payer = next(s for s in range(g.players) if s != seat and g.seats[s].kita)
            if last >= 0 and last not in mine:
                win, tsumo = last, False  # (a): another player exposed the eighth
            else:
                win = last if last in mine else g.seats[payer].kita[-1]
                tsumo = win in mine  # (b): the seat drew its seventh
        held = [t for t in mine if t != win]
        ctx = WinContext(
            tsumo=tsumo,
            seat_wind=self.seat_wind_of(g, seat),
            round_wind=g.round_wind,
            discarder=self.seat_wind_of(g, payer) if payer >= 0 else None,
        )
        options = self._base_options(g, seat)
        options["flowers"] = format_tiles([codes[t] for t in held])
        if deal_phase:
            options["phase"] = "deal"
        spec = HandSpec(tuple(codes[t] for t in st.tiles), tuple(self._melds(g, seat)), codes[win], ctx, "taiwan16", options)
        res = g.ruleset.score(spec)
        deltas, _ = self.payments(g, seat, payer, res, tsumo=payer < 0, honba=g.honba, sticks=0)
        for s in range(g.players):
            g.scores[s] += deltas[s]
        dealer_won = seat == g.dealer
        g.end_hand(
            HandResult(
                g.round_wind,
                g.hand_number,
                g.honba,
                "tsumo" if payer < 0 else "ron",
                tuple(deltas),
                (WinResult(seat, seat if payer < 0 else payer, res, -1, spec),),
                scores_after=tuple(g.scores),
            ),
            renchan=dealer_won,
            honba_next=g.honba + 1 if dealer_won else 0,
        )

    def _melds(self, g: Game, seat: int) -> list[Meld]:
        return [Meld(m.type, tuple(g.codes[t] for t in m.tiles)) for m in g.seats[seat].melds]

    def after_kan(self, g: Game, seat: int) -> None:
        """TW-7: the kong's replacement comes from the tail (no dead wall)."""
        self._state(g).replacement = "kong"
        g.draw(seat, rinshan=True)

    # ------------------------------------------------------------------ waits, furiten, wins

    def furiten(self, g: Game, seat: int) -> bool:
        """TW-10: only after passing a win, until the seat's next turn; never from its own discards."""
        return g.seats[seat].furiten_temp

    def passed_win(self, g: Game, seat: int, tile: int) -> None:
        if seat in g.pending and any(a.type is A.RON for a in g.pending[seat]):
            g.seats[seat].furiten_temp = True

    def tenpai_at_draw(self, g: Game, seat: int) -> bool:
        c = g.seats[seat].counts
        return sum(c) % 3 == 1 and g.calc.is_tenpai(c)

    # ------------------------------------------------------------------ turn actions

    def kan_allowed(self, g: Game, seat: int) -> bool:
        """A kong needs a replacement tile: some tile left in the wall (A8)."""
        return g.live_left > 0

    def riichi_allowed(self, g: Game, seat: int) -> bool:
        """TW-12: any hand may declare tenpai once (open hands too), at no cost."""
        return not g.seats[seat].riichi

    def double_riichi(self, g: Game, seat: int) -> bool:
        """T-18 地聴: the declaration is on the seat's first discard (and, by default, before any
        chi, pon or kong at the table: ``earth_ready_requires_no_calls``, A7)."""
        first = g.seats[seat].turns == 0
        return first and (g.calls_in_hand == 0 or not self.tw.earth_ready_requires_no_calls)

    def riichi_deposit_due(self, g: Game, seat: int) -> bool:
        return False

    def riichi_ankan_ok(self, g: Game, seat: int, kind: int) -> bool:
        """TW-12: after declaring, a concealed kong of the drawn fourth tile that keeps the winning tiles."""
        before = list(g.seats[seat].counts)
        before[kind] -= 1
        waits = g.calc.waits(before)
        if not waits:
            return False
        after = list(before)
        after[kind] -= 3
        return tuple(g.calc.waits(after)) == tuple(waits)

    def riichi_kakan_ok(self, g: Game, seat: int, kind: int) -> bool:
        """TW-12: after declaring, the drawn tile may be added to a pon (the hand does not change)."""
        st = g.seats[seat]
        return any(m.type is MeldType.PON and g.codes[m.tiles[0]] == kind for m in st.melds)

    def after_call_actions(self, g: Game, seat: int) -> list[Action]:
        """TW-8: a kong may be made after a chi/pon before discarding (unless the house rule
        forbids); TW-12: the discard after a call may declare tenpai, as any discard may."""
        st = g.seats[seat]
        out: list[Action] = []
        if not self.tw.no_kong_before_discard_after_call and self.kan_allowed(g, seat):
            out += [Action(A.ANKAN, seat, k) for k in range(34) if st.counts[k] == 4]
            for m in st.melds:
                k = g.codes[m.tiles[0]]
                if m.type is MeldType.PON and st.counts[k]:
                    out.append(Action(A.KAKAN, seat, k))
        if self.riichi_allowed(g, seat) and g.calc.shanten(st.counts) <= 0:
            codes = sorted({g.codes[t] for t in st.tiles} - st.kuikae)
            out += [Action(A.RIICHI, seat, c) for c in codes if self.riichi_discard_ok(g, seat, c)]
        return out

    def after_call_forbidden(self, g: Game, seat: int, call: Action, forbidden: frozenset[int]) -> frozenset[int]:
        """No kuikae; the house rule ``no_discard_same_as_called`` forbids the called kind."""
        if self.tw.no_discard_same_as_called:
            return frozenset({g.codes[g.last_discard]})
        return frozenset()

    # ------------------------------------------------------------------ calls

    def call_options(self, g: Game, seat: int, tile: int, discarder: int) -> list[Action]:
        """TW-8: chi from the left, pon/kong from anyone; none after declaring (TW-12) and none on the
        last discard (TW-11: only a win may claim it)."""
        st = g.seats[seat]
        out: list[Action] = []
        k = g.codes[tile]
        c34 = st.counts
        chi_seat = seat == (discarder + 1) % g.players and k < 27
        if c34[k] < 2 and not chi_seat:
            return out  # nothing to pon or kong, and not the seat that may chi
        if st.riichi or g.live_left <= self.reserve(g) or self._dealt_flower_winner(g, seat):
            return out
        if self.tw.no_call_own_discard_kind_same_round and st.river and g.codes[st.river[-1]] == k:
            return out
        forbid = {k} if self.tw.no_discard_same_as_called else set()
        if c34[k] >= 2 and has_discard_after(g, st, forbid, (k, k)):
            out.append(Action(A.PON, seat, -1, (k, k)))
        if c34[k] == 3 and self.kan_allowed(g, seat):
            out.append(Action(A.DAIMINKAN, seat))
        if chi_seat:
            r = k % 9
            for a, b in ((k - 2, k - 1), (k - 1, k + 1), (k + 1, k + 2)):
                if a < k - r or b > k - r + 8 or not c34[a] or not c34[b]:
                    continue
                if has_discard_after(g, st, forbid, (a, b)):
                    out.append(Action(A.CHI, seat, -1, (a, b)))
        return out

    # ------------------------------------------------------------------ scoring context

    def _base_options(self, g: Game, seat: int) -> dict[str, str]:
        return {"dealer": WINDS[self.seat_wind_of(g, g.dealer)], "n": str(g.honba)}

    def win_context(self, g: Game, seat: int, *, tsumo: bool, chankan: bool, from_seat: int) -> WinContext:
        st = g.seats[seat]
        last = g.live_left <= self.reserve(g)
        return WinContext(
            tsumo=tsumo,
            seat_wind=self.seat_wind_of(g, seat),
            round_wind=g.round_wind,
            haitei=tsumo and last,
            houtei=not tsumo and not chankan and last,
            rinshan=tsumo and g.rinshan_draw,
            chankan=chankan,
            tenhou=tsumo and seat == g.dealer and st.turns == 0 and g.calls_in_hand == 0,
            chiihou=not tsumo
            and not chankan
            and seat != g.dealer
            and from_seat == g.dealer
            and g.discards_in_hand == 1,
            players=g.players,
            discarder=self.seat_wind_of(g, from_seat) if from_seat >= 0 and not tsumo else None,
        )

    def spec_options(self, g: Game, seat: int, *, tsumo: bool, chankan: bool, from_seat: int) -> dict[str, str]:
        st = g.seats[seat]
        out = self._base_options(g, seat)
        if st.kita:
            out["flowers"] = format_tiles([g.codes[t] for t in st.kita])
        if st.riichi:
            heaven = seat in self._state(g).heaven
            out["tenpai"] = "heaven" if heaven else "earth" if st.riichi == 2 else "declared"
        if tsumo and g.rinshan_draw:
            out["replacement"] = self._state(g).replacement or "flower"
        return out

    # ------------------------------------------------------------------ end of hand

    def hand_exhausted(self, g: Game) -> bool:
        """TW-11: once R tiles or fewer are left, an unclaimed discard ends the hand."""
        return g.live_left <= self.reserve(g)

    def draw_settlement(self, g: Game) -> tuple[str, list[int], list[int]]:
        """TW-11: nothing is paid at an exhaustive draw."""
        tenpai = [s for s in range(g.players) if self.tenpai_at_draw(g, s)]
        return "exhaustive", [0] * g.players, tenpai

    def draw_renchan(self, g: Game, tenpai: list[int]) -> bool:
        """TW-3: the dealer continues after an exhaustive draw."""
        return True

    def payments(
        self, g: Game, seat: int, from_seat: int, res: ScoreResult, *, tsumo: bool, honba: int, sticks: int
    ) -> tuple[list[int], int]:
        """TW-13: 底 + rate × (T + D_payer) from each payer (all three on a self-draw)."""
        payers = [s for s in range(g.players) if s != seat] if tsumo else [from_seat]
        d = settle(res.han, winner=seat, payers=payers, dealer=g.dealer, continuation=g.honba, opts=self.tw)
        return [d.get(s, 0) for s in range(g.players)], -1

    def game_ends(self, g: Game, result: HandResult, *, renchan: bool) -> bool:
        """TW-3: the game ends when the deal passes away from the last round's fourth dealer."""
        return not renchan and g.round_wind >= self.tw.rounds - 1 and g.hand_number == g.players - 1

    def final_results(self, g: Game, order: list[int]) -> tuple[float, ...]:
        """No uma or oka: each seat's result is its money."""
        return tuple(float(s) for s in g.scores)

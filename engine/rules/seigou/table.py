"""seigou at the table (seigou.md SG-1 … SG-8): the per-hand turn bookkeeping and the table hooks
the ruleset overrides (engine/table/HOOKS.md).

* turns never skip (SG-D1): turn ``t`` (1-based, counted in :class:`SeigouHand`) belongs to seat
  ``dealer + t - 1`` and is go-around ``(t - 1) // 4 + 1`` (SG-D2);
* a discard only opens a ron window (``call_options`` is empty); at the start of its turn a seat
  with something to claim gets a one-seat ``Phase.CLAIM`` window: chi of its kamicha's discard, or
  pon / daiminkan of any claimable discard (SG-D4, SG-1), each naming the discarder
  (``3p55m@1``); its pass means "draw" (SG-D3);
* a kan ends the turn: no replacement draw, no discard, kan dora at once (SG-5, SG-6, A4);
* the hand ends when North's last turn is over (SG-7), whatever the wall holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, cast

from engine.notation import WinContext
from engine.rules.seigou.options import SeigouOptions
from engine.table.actions import Action, ActionType
from engine.table.hooks import TableHooks, claims_of_discard, may_declare_riichi
from engine.table.wall import Deal, deal_tail_indicators
from engine.tiles import RED

if TYPE_CHECKING:
    from engine.table.game import Game

A = ActionType


@dataclass(slots=True)
class SeigouHand:
    """Per-hand turn bookkeeping (``g.hand_state``)."""

    turn: int = 0  # turns started this hand = the current turn's number (1-based, SG-D1)
    acquired: list[int] = field(default_factory=list)  # tiles acquired per seat: draws + claims (SG-D3)
    river_turns: list[list[int]] = field(default_factory=list)  # per seat: go-around of each river tile (SG-2)

    def copy(self) -> SeigouHand:
        return SeigouHand(self.turn, list(self.acquired), [list(r) for r in self.river_turns])


def hand_of(g: Game) -> SeigouHand:
    """The seigou bookkeeping of the game's current hand."""
    return cast(SeigouHand, g.hand_state)


def go_around(turn: int, players: int = 4) -> int:
    """SG-D2: the go-around that turn number ``turn`` (1-based) belongs to."""
    return (turn - 1) // players + 1


def turns_taken(g: Game, seat: int) -> int:
    """How many turns the seat has started this hand (its current go-around while it plays)."""
    n = g.players
    return max(0, (hand_of(g).turn - g.seat_wind(seat) + n - 1) // n)


def _sync(g: Game) -> None:
    """Record the go-around of river tiles not yet recorded (a turn adds at most one, in the
    seat's latest turn), so that every hook sees the slots of SG-2 up to date."""
    hs = hand_of(g)
    for seat, st in enumerate(g.seats):
        rt = hs.river_turns[seat]
        while len(rt) < len(st.river):
            rt.append(turns_taken(g, seat))


def discard_in_go_around(g: Game, seat: int, k: int) -> int | None:
    """SG-2: the physical tile the seat discarded in go-around ``k`` (claimed or not), or None."""
    _sync(g)
    st = g.seats[seat]
    for tile, gk in zip(st.river, hand_of(g).river_turns[seat]):
        if gk == k:
            return tile
    return None


def river_slots(g: Game, seat: int) -> list[int | None]:
    """SG-2: one slot per go-around the seat has played; a claimed discard or a kan turn leaves its
    slot empty (None)."""
    _sync(g)
    st = g.seats[seat]
    slots: list[int | None] = [None] * turns_taken(g, seat)
    for tile, called, gk in zip(st.river, st.river_called, hand_of(g).river_turns[seat]):
        if not called:
            slots[gk - 1] = tile
    return slots


def river_rows(g: Game, seat: int, width: int = 6) -> list[list[int | None]]:
    """SG-2: the river as rows of ``width`` slots (slot 7 starts row 2; 18 turns fill 3 rows)."""
    slots = river_slots(g, seat)
    return [slots[i : i + width] for i in range(0, len(slots), width)]


def claimable_discards(g: Game, seat: int, window: str = "since_last_turn") -> list[tuple[int, int]]:
    """SG-D4 / A1: (discarder, physical tile) of every discard the seat may claim at the start of
    its current turn: made by another seat since this seat's previous turn ended, not claimed, and
    not a riichi declaration tile (SG-3). ``window="last_discard_only"`` keeps only the latest
    discard made in that time, if it is claimable. Most recent first."""
    _sync(g)
    hs = hand_of(g)
    n = g.players
    out: list[tuple[int, int]] = []
    for d in range(1, n):
        tp = hs.turn - d
        if tp < 1:
            break
        x = (seat - d) % n
        st = g.seats[x]
        rt = hs.river_turns[x]
        if not rt or rt[-1] != go_around(tp, n):
            continue  # that turn ended without a discard (a kan, SG-5)
        if not st.river_called[-1] and st.riichi_index != len(st.river) - 1:
            out.append((x, st.river[-1]))
        if window == "last_discard_only":
            break
    return out


class SeigouTable(TableHooks):
    """The table hooks of seigou (mixed into :class:`~engine.rules.seigou.ruleset.Seigou`)."""

    players: int
    seigou: SeigouOptions

    @property
    def last_turn(self) -> int:
        """SG-7: the number of the hand's last turn (North's 18th)."""
        return self.players * self.seigou.turns_per_player

    def deal(self, g: Game) -> Deal:
        """SG-6/SG-7: no replacement tiles, indicators in the last 5 stacks, 2 tiles never used."""
        return deal_tail_indicators(g.tileset, g.seed, g.hand_index, players=g.players, dealer=g.dealer)

    def new_hand_state(self, g: Game) -> object:
        n = g.players
        return SeigouHand(0, [0] * n, [[] for _ in range(n)])

    def copy_hand_state(self, g: Game, state: object) -> object:
        return cast(SeigouHand, state).copy()

    def turn_claims(self, g: Game, seat: int) -> list[Action]:
        """SG-1: the claims the seat may make instead of drawing (each names its discarder)."""
        if g.seats[seat].riichi:
            return []
        out: list[Action] = []
        for x, tile in claimable_discards(g, seat, self.seigou.claim_window):
            out += claims_of_discard(g, seat, tile, x, src=x)
        return out

    def start_turn(self, g: Game, seat: int) -> None:
        """SG-D1/SG-1: the next turn in strict order; a seat with something to claim chooses in a
        one-seat window (pass = draw), any other seat draws."""
        from engine.table.game import Phase

        hs = hand_of(g)
        _sync(g)
        hs.turn += 1
        claims = self.turn_claims(g, seat)
        if claims:
            g.current = seat
            g.drawn = -1
            g.after_call = False
            g.rinshan_draw = False
            g.phase = Phase.CLAIM
            g.pending = {seat: [*claims, Action(A.PASS, seat)]}
            g.responses = {}
            return
        hs.acquired[seat] += 1
        g.draw(seat)

    def resolve_turn_claim(self, g: Game, action: Action) -> None:
        hand_of(g).acquired[action.seat] += 1
        super().resolve_turn_claim(g, action)

    def call_options(self, g: Game, seat: int, tile: int, discarder: int) -> list[Action]:
        """SG-1: nothing is claimed on the discard itself (only ron, which the game adds)."""
        return []

    def call_cancels(self, g: Game, caller: int) -> None:
        """SG-4: others' calls cancel nothing; the caller's own kan ends its own ippatsu."""
        g.calls_in_hand += 1
        g.seats[caller].ippatsu = False

    def kan_allowed(self, g: Game, seat: int) -> bool:
        """SG-9: a kan in any go-around, 18 included; §3: at most 4 kans per hand."""
        return len(g.kans) < 4

    def after_kan(self, g: Game, seat: int) -> None:
        """SG-5: no replacement draw and no discard; the kan dora shows at once (A4)."""
        if self.seigou.kan_dora_timing == "immediate":
            g.reveal_pending_dora()
        if self.seigou.suukaikan and len(g.kans) == 4 and len(set(g.kans)) > 1:
            g.abortive_draw("suukaikan")  # §3: no discard follows the 4th kan
            return
        if hand_of(g).turn >= self.last_turn:
            g.exhaustive_draw()  # SG-9: North's last-turn kan ends the hand
            return
        self.start_turn(g, (seat + 1) % g.players)

    def hand_exhausted(self, g: Game) -> bool:
        """SG-7: the hand ends when North's last turn is over, whatever the wall holds."""
        return hand_of(g).turn >= self.last_turn

    def riichi_allowed(self, g: Game, seat: int) -> bool:
        """§3 / A8: closed, 1000 points, and on turns 1..riichi_last_turn (a later turn must come)."""
        return may_declare_riichi(g, seat) and turns_taken(g, seat) <= self.seigou.riichi_last_turn

    def double_riichi(self, g: Game, seat: int) -> bool:
        """SG-4: riichi with the go-around-1 discard, whatever others called."""
        return turns_taken(g, seat) == 1

    def kyuushu_allowed(self, g: Game, seat: int) -> bool:
        """§3: on the turn-1 draw, whatever others called."""
        return turns_taken(g, seat) == 1 and g.drawn >= 0

    def suufon_renda(self, g: Game) -> bool:
        """§3: the four go-around-1 discards are one wind, none of them claimed."""
        hs = hand_of(g)
        if g.players != 4 or hs.turn != 4:
            return False
        _sync(g)
        kinds: set[int] = set()
        for x, st in enumerate(g.seats):
            rt = hs.river_turns[x]
            if not rt or rt[0] != 1 or st.river_called[0]:
                return False
            kinds.add(g.codes[st.river[0]] & ~RED)
        k = next(iter(kinds))
        return len(kinds) == 1 and 27 <= k <= 30

    def win_context(self, g: Game, seat: int, *, tsumo: bool, chankan: bool, from_seat: int) -> WinContext:
        """SG-4 (tenhou, chiihou by go-around; ippatsu kept through others' calls), SG-6 (no
        rinshan), SG-8 (haitei: any last-go-around tsumo; houtei: any ron on a last-go-around
        discard, and a chankan then, A11)."""
        ctx = super().win_context(g, seat, tsumo=tsumo, chankan=chankan, from_seat=from_seat)
        k = go_around(hand_of(g).turn, g.players)
        last = k == self.seigou.turns_per_player
        first = tsumo and k == 1
        return replace(
            ctx,
            haitei=tsumo and last,
            houtei=not tsumo and last and (not chankan or self.seigou.houtei_on_chankan_turn18),
            rinshan=False,
            tenhou=first and ctx.seat_wind == 0,
            chiihou=first and ctx.seat_wind != 0,
        )

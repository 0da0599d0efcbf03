"""The table: a deterministic state machine for a whole game (riichi.md §2–§5, §11–§13).

A game is (ruleset, seed or explicit deals) plus a list of actions. ``apply(action)`` trusts its
caller (replay, AI); ``play(action)`` validates and raises :class:`IllegalActionError` with a
sentence a player can read and a reason code (engine/table/refusal.py). ``legal_actions(seat)``
lists what a seat may do now; ``to_act()`` says which seats the game is waiting for.

Phases: ``TURN`` (one seat has drawn or called and must discard or declare), ``CALL`` (a discard
is on the table; every seat with an option answers, then priority ron > pon/kan > chi resolves),
``CHANKAN`` (an added kan may be robbed), ``OVER``. Draws, dora reveals, riichi deposits, abortive
draws, settlements and the move to the next hand are automatic.
"""

from __future__ import annotations

import copy as _copy
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from engine.notation import HandSpec, Meld, MeldType
from engine.scoring.result import ScoreResult
from engine.table.actions import Action, ActionType
from engine.table.hooks import kuikae_kinds
from engine.table.refusal import IllegalActionError as IllegalActionError
from engine.table.refusal import Refusal as Refusal
from engine.table.wall import Deal, TileSet
from engine.tiles import NORTH, RED, YAOCHU, is_yaochu

if TYPE_CHECKING:
    from engine.rules.base import Ruleset

A = ActionType
R = Refusal
_YAOCHU_SET = frozenset(YAOCHU)


class Phase(IntEnum):
    TURN = 0
    CALL = 1
    CHANKAN = 2
    OVER = 3
    CLAIM = 4  # the seat whose turn starts may claim an earlier discard instead of drawing (seigou SG-1)


@dataclass(slots=True)
class TableMeld:
    type: MeldType
    tiles: tuple[int, ...]  # physical ids
    called: int = -1  # the claimed physical tile (chi/pon/daiminkan), the added one for kakan
    from_seat: int = -1
    effective: tuple[int, ...] = ()  # shoukou: each tile's effective kind (() = as printed)


@dataclass(slots=True)
class SeatState:
    tiles: list[int] = field(default_factory=list)  # concealed physical ids
    counts: list[int] = field(default_factory=lambda: [0] * 34)
    melds: list[TableMeld] = field(default_factory=list)
    river: list[int] = field(default_factory=list)
    river_called: list[bool] = field(default_factory=list)
    riichi_index: int = -1  # index in river of the riichi declaration
    discarded_kinds: set[int] = field(default_factory=set)
    riichi: int = 0  # 0 no, 1 riichi, 2 double riichi
    ippatsu: bool = False
    furiten_temp: bool = False
    furiten_riichi: bool = False
    waits: tuple[int, ...] = ()
    kita: list[int] = field(default_factory=list)
    turns: int = 0  # discards made this hand
    nagashi: bool = True
    kuikae: frozenset[int] = frozenset()
    pao: dict[str, int] = field(default_factory=dict)  # yakuman id → liable seat


@dataclass(frozen=True, slots=True)
class WinResult:
    seat: int
    from_seat: int
    score: ScoreResult
    pao_seat: int = -1
    hand: HandSpec | None = None  # the winning hand as scored (tiles, melds, winning tile, context)


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand's outcome: the wins (or the draw kind) and every seat's score change."""

    round_wind: int
    hand_number: int
    honba: int
    kind: str  # "ron" | "tsumo" | "exhaustive" | "nagashi_mangan" | abortive draw names
    deltas: tuple[int, ...]  # with honba and sticks; riichi deposits of this hand are not in here
    wins: tuple[WinResult, ...] = ()
    tenpai: tuple[int, ...] = ()
    riichi_deposits: tuple[int, ...] = ()  # seats whose riichi stick was paid this hand
    scores_after: tuple[int, ...] = ()


class LegalActions(Sequence[Action]):
    """The legal actions of one seat now: test with ``in``, iterate, count.

    Lazy, as in python-chess: the full list is built only when iterated or counted; ``in`` asks the
    game about that one action when it can (a discard, a riichi, a tsumo), which is what replay and
    validation need.
    """

    __slots__ = ("_build", "_check", "_items", "_set")

    def __init__(
        self,
        items: list[Action] | None = None,
        *,
        build: Callable[[], list[Action]] | None = None,
        check: Callable[[Action], bool | None] | None = None,
    ) -> None:
        self._items = items
        self._build = build
        self._check = check
        self._set: frozenset[Action] | None = None

    def _all(self) -> list[Action]:
        if self._items is None:
            self._items = self._build() if self._build is not None else []
        return self._items

    def __contains__(self, a: object) -> bool:
        if self._items is None and self._check is not None and isinstance(a, Action):
            quick = self._check(a)
            if quick is not None:
                return quick
        if self._set is None:
            self._set = frozenset(self._all())
        return a in self._set

    def __iter__(self) -> Iterator[Action]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __getitem__(self, i: int) -> Action:  # type: ignore[override]
        return self._all()[i]

    def __repr__(self) -> str:
        return f"LegalActions({' '.join(a.text for a in self._all())})"


class Game:
    """A whole game. Seat 0 is the first dealer (East in E1).

    The public surface — what a ruleset's hooks (engine/table/hooks.py), the bot and the log tools
    may use — is every name without a leading underscore:

    * state, read by hooks and changed only where a hook's docstring says so: ``ruleset``, ``opts``,
      ``players``, ``seed``, ``tileset``, ``codes``, ``calc``, ``recorded_deals``, ``scores``,
      ``round_wind``, ``hand_number``, ``honba``, ``sticks``, ``hand_index``, ``actions``,
      ``results``, ``phase``, ``over``, ``final_scores``, ``final_results``, ``truncated``; per hand
      ``deal``, ``seats`` (:class:`SeatState`), ``live``/``live_pos``/``live_end``,
      ``rinshan``/``rinshan_pos``, ``dora_revealed``, ``pending_dora``, ``kans``,
      ``calls_in_hand``, ``discards_in_hand``, ``first_discards``, ``riichi_deposits``,
      ``current``, ``drawn``, ``rinshan_draw``, ``after_call``, ``last_discard``,
      ``last_discarder``, ``pending``, ``responses``, ``kakan_tile``, ``kakan_is_ankan``,
      ``discard_after_kan``, ``kita_window``, ``hand_state`` (the variant's own);
    * questions: :attr:`dealer`, :meth:`seat_wind`, :meth:`code`, :meth:`kind`, :attr:`live_left`,
      :meth:`dora_indicators`, :meth:`ura_indicators`, :meth:`win_spec`, :meth:`win_value`,
      :meth:`quick_turn_check`, :meth:`to_act`, :meth:`legal_actions`, :meth:`ranking`;
    * steps a hook may take: :meth:`draw`, :meth:`kan_move`, :meth:`reveal_pending_dora`,
      :meth:`claim`, :meth:`exhaustive_draw`, :meth:`abortive_draw`, :meth:`end_hand`;
    * the players' entry points: :meth:`play`, :meth:`apply`, :meth:`copy`, :meth:`to_dict`,
      :meth:`from_dict`.

    Underscored members are the state machine's own; no module outside this one touches them
    (tests/engine/test_public_surface.py checks it).
    """

    def __init__(
        self,
        ruleset: Ruleset,
        seed: int | str = 0,
        *,
        deals: Sequence[Deal] | None = None,
        scores: Sequence[int] | None = None,
        start: tuple[int, int, int, int] | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.opts = ruleset.options
        self.players = ruleset.players
        self.seed = seed
        self.tileset: TileSet = ruleset.tileset(self)
        self.codes = self.tileset.codes  # physical tile id -> tile code (kind, | RED for a red five)
        # the explicit deals the game was built with (a recorded log), None for a seeded game
        self.recorded_deals = list(deals) if deals is not None else None
        n = self.players
        self.scores = list(scores) if scores is not None else [self.opts.start_points] * n
        self.round_wind, self.hand_number, self.honba, self.sticks = start if start else (0, 0, 0, 0)
        self.hand_index = 0  # hands played so far (the deal counter)
        self.actions: list[Action] = []
        self.results: list[HandResult] = []
        self.phase = Phase.TURN
        self.over = False
        self.final_scores: tuple[int, ...] = ()
        self.final_results: tuple[float, ...] = ()
        self.truncated = False  # a recorded excerpt that stopped before the game's end
        self.calc = ruleset.shanten_calculator()  # the ruleset's shanten / waits / agari calculator
        self._start_hand()

    # ------------------------------------------------------------------ hand set-up

    @property
    def dealer(self) -> int:
        """The dealer's seat this hand."""
        return self.hand_number % self.players

    def seat_wind(self, seat: int) -> int:
        """The seat's wind this hand: 0 East (the dealer), 1 South, ..."""
        return (seat - self.dealer) % self.players

    def _start_hand(self) -> None:
        n = self.players
        if self.recorded_deals is not None:
            if self.hand_index >= len(self.recorded_deals):
                # A recorded excerpt ends here: the game stops without final results.
                self.over = True
                self.truncated = True
                self.phase = Phase.OVER
                return
            deal = self.recorded_deals[self.hand_index]
        else:
            deal = self.ruleset.deal(self)
        self.deal = deal
        self.seats = [SeatState() for _ in range(n)]
        for s in range(n):
            st = self.seats[s]
            st.tiles = list(deal.haipai[s])
            for t in st.tiles:
                st.counts[self.codes[t] & ~RED] += 1
        self.live = list(deal.live)
        self.live_pos = 0
        self.live_end = len(self.live)
        self.rinshan = list(deal.rinshan)
        self.rinshan_pos = 0
        self.dora_revealed = 1
        self.pending_dora = 0
        self.kans: list[int] = []  # seat of each kan, in order
        self.calls_in_hand = 0
        self.discards_in_hand = 0
        self.first_discards: list[int] = []
        self.riichi_deposits: list[int] = []
        self.current = self.dealer
        self.drawn = -1
        self.rinshan_draw = False
        self.after_call = False
        self.last_discard = -1
        self.last_discarder = -1
        self.pending: dict[int, list[Action]] = {}
        self.responses: dict[int, Action] = {}
        self.kakan_tile = -1
        self.kakan_is_ankan = False
        self.discard_after_kan = False
        self.kita_window = False
        for s in range(n):
            self._update_waits(s)
        self.hand_state: object = self.ruleset.new_hand_state(self)
        self.ruleset.start_turn(self, self.dealer)

    # ------------------------------------------------------------------ helpers

    def code(self, tile: int) -> int:
        """The code of a physical tile (its kind, with ``RED`` set for a red five)."""
        return self.codes[tile]

    def kind(self, tile: int) -> int:
        """The kind (0-33) of a physical tile."""
        return self.codes[tile] & ~RED

    @property
    def live_left(self) -> int:
        """Live-wall tiles still to draw this hand."""
        return self.live_end - self.live_pos

    def _update_waits(self, s: int) -> None:
        self.seats[s].waits = self.ruleset.wait_set(self, s)

    def draw(self, seat: int, rinshan: bool = False) -> None:
        """The seat draws (a replacement tile when ``rinshan``) through the ``draw_tile`` hook and its
        turn begins (``Phase.TURN``); nothing more when the hook ended the hand instead."""
        got = self.ruleset.draw_tile(self, seat, rinshan)
        if got is None:
            return  # the ruleset ended the hand while drawing (taiwan16: a flower win, an empty wall)
        t, rinshan = got
        st = self.seats[seat]
        st.tiles.append(t)
        st.counts[self.codes[t] & ~RED] += 1
        self.current = seat
        self.drawn = t
        self.rinshan_draw = rinshan
        self.after_call = False
        self.phase = Phase.TURN
        self.pending = {}
        self.responses = {}

    def _take(self, seat: int, code: int) -> int:
        """Remove a tile with this code from the seat's hand, return its physical id."""
        st = self.seats[seat]
        codes = self.codes
        # prefer the drawn tile when it matches (keeps tsumogiri faithful)
        if self.drawn >= 0 and codes[self.drawn] == code and self.drawn in st.tiles and seat == self.current:
            t = self.drawn
        else:
            for t in st.tiles:
                if codes[t] == code:
                    break
            else:
                raise IllegalActionError(f"you do not hold {_name(code)}", reason=R.TILE_NOT_HELD, seat=seat, tile=code)
        st.tiles.remove(t)
        st.counts[code & ~RED] -= 1
        return t

    def kan_move(self) -> None:
        """A kan (or kita) moves the last live tile into the dead wall (R-3.3)."""
        self.live_end -= 1
        self.rinshan.append(self.live[self.live_end])

    def reveal_pending_dora(self) -> None:
        """Turn over the kan dora indicators that wait for the next discard or kan (R-3.5)."""
        while self.pending_dora:
            self.pending_dora -= 1
            self.dora_revealed += 1

    def dora_indicators(self) -> list[int]:
        """The revealed dora indicators (physical tiles)."""
        return list(self.deal.dora[: self.dora_revealed])

    def ura_indicators(self) -> list[int]:
        """The ura dora indicators under the revealed ones (physical tiles)."""
        return list(self.deal.ura[: self.dora_revealed])

    # ------------------------------------------------------------------ scoring

    def win_spec(self, seat: int, win_tile: int, *, tsumo: bool, chankan: bool = False, from_seat: int = -1) -> HandSpec:
        """The seat's hand as the scorer reads it if it won now on ``win_tile`` (tiles, melds, the
        ``win_context`` and ``spec_options`` hooks' facts). For a ron the tile must already be in
        the seat's tiles (as ``can_ron`` puts it there)."""
        st = self.seats[seat]
        codes = self.codes
        concealed = [codes[t] for t in st.tiles]
        if tsumo:
            concealed.remove(codes[win_tile])
        melds = []
        for m in st.melds:
            mt = m.type
            melds.append(Meld(mt, tuple(codes[t] for t in m.tiles), effective=m.effective))
        ctx = self.ruleset.win_context(self, seat, tsumo=tsumo, chankan=chankan, from_seat=from_seat)
        extra = self.ruleset.spec_options(self, seat, tsumo=tsumo, chankan=chankan, from_seat=from_seat)
        return HandSpec(tuple(concealed), tuple(melds), codes[win_tile], ctx, self.ruleset.name, extra)

    def win_value(self, seat: int, win_tile: int, *, tsumo: bool, chankan: bool = False, from_seat: int = -1) -> ScoreResult:
        """The ruleset's score of :meth:`win_spec` (``.agari`` false when it is no win)."""
        return self.ruleset.score(self.win_spec(seat, win_tile, tsumo=tsumo, chankan=chankan, from_seat=from_seat))

    # ------------------------------------------------------------------ legal actions

    def to_act(self) -> list[int]:
        """The seats the game waits for now (none once it is over)."""
        if self.over:
            return []
        if self.phase is Phase.TURN:
            return [self.current]
        return [s for s in self.pending if s not in self.responses]

    def legal_actions(self, seat: int | None = None) -> LegalActions:
        """What ``seat`` (the first seat to act when None) may do now."""
        if seat is None:
            acting = self.to_act()
            if not acting:
                return LegalActions([])
            seat = acting[0]
        if self.over:
            return LegalActions([])
        if self.phase is Phase.TURN:
            if seat != self.current:
                return LegalActions([])
            return LegalActions(
                build=lambda: self.ruleset.turn_actions(self, seat, self._turn_actions(seat)),
                check=lambda a: self.ruleset.turn_check(self, seat, a),
            )
        if seat in self.pending and seat not in self.responses:
            return LegalActions(list(self.pending[seat]))
        return LegalActions([])

    def _turn_actions(self, seat: int) -> list[Action]:
        st = self.seats[seat]
        codes = self.codes
        out: list[Action] = []
        if self.after_call:
            seen: set[int] = set()
            for t in st.tiles:
                c = codes[t]
                if c not in seen and (c & ~RED) not in st.kuikae:
                    seen.add(c)
                    out.append(Action(A.DISCARD, seat, c))
            out.extend(self.ruleset.after_call_actions(self, seat))
            return out
        c34 = st.counts
        # tsumo
        if self.ruleset.can_tsumo(self, seat):
            out.append(Action(A.TSUMO, seat))
        # nine terminals
        ab = self.opts.abortive_draws
        if ab.kyuushu_kyuuhai and self.ruleset.kyuushu_allowed(self, seat):
            if sum(1 for k in YAOCHU if c34[k]) >= 9:
                out.append(Action(A.KYUUSHU, seat))
        kan_ok = self.ruleset.kan_allowed(self, seat)
        if st.riichi:
            drawn_kind = codes[self.drawn] & ~RED
            if kan_ok and c34[drawn_kind] == 4 and self.ruleset.riichi_ankan_ok(self, seat, drawn_kind):
                out.append(Action(A.ANKAN, seat, drawn_kind))
            if kan_ok and self.ruleset.riichi_kakan_ok(self, seat, drawn_kind):
                out.append(Action(A.KAKAN, seat, drawn_kind))
            out.extend(self.ruleset.kita_options(self, seat))
            out.append(Action(A.DISCARD, seat, codes[self.drawn]))
            return out
        if kan_ok:
            for k in range(34):
                if c34[k] == 4:
                    out.append(Action(A.ANKAN, seat, k))
            out.extend(self.ruleset.kakan_options(self, seat))
        out.extend(self.ruleset.kita_options(self, seat))
        seen = set()
        discards: list[int] = []
        for t in st.tiles:
            c = codes[t]
            if c not in seen:
                seen.add(c)
                discards.append(c)
        can_riichi = self.ruleset.riichi_allowed(self, seat) and self.calc.shanten(c34) <= 0
        for c in discards:
            out.append(Action(A.DISCARD, seat, c))
        if can_riichi:
            for c in discards:
                if self.ruleset.riichi_discard_ok(self, seat, c):
                    out.append(Action(A.RIICHI, seat, c))
        return out

    def quick_turn_check(self, seat: int, a: Action) -> bool | None:
        """Legality of a discard or riichi without listing every action (None = do not know)."""
        if a.seat != seat:
            return False
        t = a.type
        if t is not A.DISCARD and t is not A.RIICHI:
            return None
        st = self.seats[seat]
        codes = self.codes
        if not any(codes[x] == a.tile for x in st.tiles):
            return False
        if self.after_call:
            return t is A.DISCARD and (a.tile & ~RED) not in st.kuikae
        if t is A.DISCARD:
            return not st.riichi or codes[self.drawn] == a.tile
        if not self.ruleset.riichi_allowed(self, seat):
            return False
        return self.ruleset.riichi_discard_ok(self, seat, a.tile)

    def _call_options(self, seat: int, tile: int, discarder: int) -> list[Action]:
        rs = self.ruleset
        out: list[Action] = []
        if rs.can_ron(self, seat, tile, discarder):
            out.append(Action(A.RON, seat))
        out.extend(rs.call_options(self, seat, tile, discarder))
        if out:
            out.append(Action(A.PASS, seat))
        return rs.call_window(self, seat, out)

    # ------------------------------------------------------------------ applying actions

    def play(self, action: Action) -> None:
        """Validate and apply; raises :class:`IllegalActionError` with a readable reason."""
        seat = action.seat
        if self.over:
            raise IllegalActionError("the game is over", reason=R.GAME_OVER, seat=seat, action=action)
        if not 0 <= seat < self.players:
            raise IllegalActionError(f"there is no seat {seat}", reason=R.NO_SUCH_SEAT, seat=seat, action=action)
        acting = self.to_act()
        if seat not in acting:
            if self.phase is Phase.TURN:
                raise IllegalActionError("it is not your turn", reason=R.NOT_YOUR_TURN, seat=seat, action=action)
            if seat in self.responses:
                raise IllegalActionError(
                    "you have already answered this discard", reason=R.ALREADY_ANSWERED, seat=seat, action=action
                )
            if action.type is A.CHI and self.phase is Phase.CALL and seat != (self.last_discarder + 1) % self.players:
                raise IllegalActionError(
                    "you can only chi a tile discarded by the player on your left",
                    reason=R.CHI_ONLY_FROM_LEFT,
                    seat=seat,
                    action=action,
                )
            raise IllegalActionError("you have no call on this tile", reason=R.NO_CALL_ON_TILE, seat=seat, action=action)
        legal = self.legal_actions(seat)
        if action not in legal:
            raise self._why_illegal(action, legal)
        self.apply(action)

    def _why_illegal(self, action: Action, legal: LegalActions) -> IllegalActionError:
        """The refusal of ``action``, a move of a seat the game waits for that is not in ``legal``."""
        t = action.type
        seat = action.seat
        kinds = {a.type for a in legal}

        def refused(message: str, reason: Refusal, **fields: Any) -> IllegalActionError:
            return IllegalActionError(message, reason=reason, seat=seat, action=action, **fields)

        if t is A.CHI and self.phase is Phase.CALL and seat != (self.last_discarder + 1) % self.players:
            return refused("you can only chi from the player before you", R.CHI_ONLY_FROM_PREVIOUS)
        if t in (A.DISCARD, A.RIICHI) and self.seats[seat].riichi and t is A.DISCARD:
            return refused("after riichi you must discard the tile you drew", R.RIICHI_MUST_TSUMOGIRI, tile=action.tile)
        if t is A.RIICHI:
            return refused("you cannot declare riichi with that discard", R.RIICHI_DISCARD_NOT_ALLOWED, tile=action.tile)
        if t is A.DISCARD and A.DISCARD in kinds:
            if self.after_call and (action.tile & ~RED) in self.seats[seat].kuikae:
                return refused("you cannot discard that tile right after calling (kuikae)", R.KUIKAE, tile=action.tile)
            if action.tile >= 0:
                return refused(f"you do not hold {_name(action.tile)}", R.TILE_NOT_HELD, tile=action.tile)
            return refused("choose a tile to discard", R.NO_TILE_CHOSEN)
        if t in (A.TSUMO, A.RON):
            return refused("your hand cannot win on this tile", R.CANNOT_WIN)
        if t in kinds:
            return refused(f"that {action.describe()} is not possible", R.ACTION_NOT_POSSIBLE)
        return refused(f"{action.describe()} is not possible now", R.ACTION_NOT_NOW)

    def apply(self, action: Action) -> None:
        """Apply a legal action (not re-validated)."""
        self.actions.append(action)
        t = action.type
        if self.phase is Phase.TURN:
            if t is A.DISCARD or t is A.RIICHI:
                self._discard(action.seat, action.tile, riichi=t is A.RIICHI)
            elif t is A.OPEN_RIICHI:
                self._discard(action.seat, action.tile, riichi=True)
            elif t is A.TSUMO:
                self._win([(action.seat, action.seat)], tsumo=True)
            elif t is A.ANKAN:
                self._ankan(action.seat, action.tile)
            elif t is A.KAKAN:
                self._kakan(action.seat, action.tile)
            elif t is A.KITA:
                self._kita(action.seat, action.tile if action.tile >= 0 else NORTH)
            elif t is A.KYUUSHU:
                self.abortive_draw("kyuushu_kyuuhai")
            else:
                raise IllegalActionError(
                    f"{action.describe()} is not a turn action", reason=R.NOT_A_TURN_ACTION, seat=action.seat, action=action
                )
            return
        if action.seat not in self.pending:
            raise IllegalActionError(
                "you have no call on this tile", reason=R.NO_CALL_ON_TILE, seat=action.seat, action=action
            )
        self.responses[action.seat] = action
        if len(self.responses) == len(self.pending):
            if self.phase is Phase.CALL:
                self._resolve_calls()
            elif self.phase is Phase.CLAIM:
                self.ruleset.resolve_turn_claim(self, action)
            else:
                self._resolve_chankan()

    # -- turn actions

    def _discard(self, seat: int, code: int, *, riichi: bool) -> None:
        st = self.seats[seat]
        tile = self._take(seat, code)
        st.river.append(tile)
        st.river_called.append(False)
        k = code & ~RED
        st.discarded_kinds.add(k)
        if not is_yaochu(k):
            st.nagashi = False
        if st.ippatsu and st.riichi and st.riichi_index >= 0 and st.riichi_index != len(st.river) - 1:
            st.ippatsu = False
        if riichi:
            st.riichi = 2 if self.ruleset.double_riichi(self, seat) else 1
            st.riichi_index = len(st.river) - 1
            st.ippatsu = True
        st.furiten_temp = False
        st.kuikae = frozenset()
        st.turns += 1
        self.discards_in_hand += 1
        if self.discards_in_hand <= self.players:
            self.first_discards.append(k)
        self._update_waits(seat)
        self.reveal_pending_dora()
        self.discard_after_kan = self.rinshan_draw
        self.drawn = -1
        self.after_call = False
        self.last_discard = tile
        self.last_discarder = seat
        # call window
        pending: dict[int, list[Action]] = {}
        for s in range(self.players):
            if s == seat:
                continue
            opts = self._call_options(s, tile, seat)
            if opts:
                pending[s] = opts
        self.phase = Phase.CALL
        self.pending = pending
        self.responses = {}
        if not pending:
            self._resolve_calls()

    def _ankan(self, seat: int, kind: int) -> None:
        st = self.seats[seat]
        action = self.actions[-1]
        tiles = self.ruleset.kan_tiles(self, seat, action, kind)
        for t in tiles:
            st.tiles.remove(t)
            st.counts[self.codes[t] & ~RED] -= 1
        eff = self.ruleset.meld_effective(self, seat, action, tuple(tiles))
        st.melds.append(TableMeld(MeldType.ANKAN, tuple(tiles), effective=eff))
        self.reveal_pending_dora()
        self.ruleset.call_cancels(self, seat)
        self.kans.append(seat)
        self.dora_revealed += 1  # an ankan reveals at once
        # only kokushi may rob an ankan
        pending: dict[int, list[Action]] = {}
        for s in range(self.players):
            if s != seat and kind in _YAOCHU_SET and self.ruleset.can_ron(self, s, tiles[0], seat, chankan=True, kokushi_only=True):
                pending[s] = self.ruleset.call_window(self, s, [Action(A.RON, s), Action(A.PASS, s)])
        if pending:
            self.phase = Phase.CHANKAN
            self.pending = pending
            self.responses = {}
            self.kakan_tile = tiles[0]
            self.kakan_is_ankan = True
            self.current = seat
            return
        self.ruleset.after_kan(self, seat)

    def _kakan(self, seat: int, kind: int) -> None:
        st = self.seats[seat]
        action = self.actions[-1]
        tile = self.ruleset.kan_tiles(self, seat, action, kind)[0]
        st.tiles.remove(tile)
        st.counts[self.codes[tile] & ~RED] -= 1
        i = self.ruleset.kakan_meld(self, seat, action, kind)
        if i >= 0:
            m = st.melds[i]
            eff = self.ruleset.meld_effective(self, seat, action, (*m.tiles, tile), m.effective)
            st.melds[i] = TableMeld(MeldType.KAKAN, (*m.tiles, tile), tile, m.from_seat, eff)
        self.reveal_pending_dora()
        pending: dict[int, list[Action]] = {}
        for s in range(self.players):
            if s != seat and self.ruleset.can_ron(self, s, tile, seat, chankan=True, kokushi_only=False):
                pending[s] = self.ruleset.call_window(self, s, [Action(A.RON, s), Action(A.PASS, s)])
        self.kakan_tile = tile
        self.kakan_is_ankan = False
        self.current = seat
        if pending:
            self.phase = Phase.CHANKAN
            self.pending = pending
            self.responses = {}
            return
        self._finish_kakan(seat)

    def _finish_kakan(self, seat: int) -> None:
        self.ruleset.call_cancels(self, seat)
        self.kans.append(seat)
        self.pending_dora += 1
        self.ruleset.after_kan(self, seat)

    def _resolve_chankan(self) -> None:
        seat = self.current
        rons = [s for s, a in self.responses.items() if a.type is A.RON]
        tile = self.kakan_tile
        for s, a in self.responses.items():
            if a.type is A.PASS:
                self.ruleset.passed_win(self, s, tile)
        self.pending = {}
        self.responses = {}
        if rons:
            robbed_kita = self.kita_window
            if robbed_kita:
                self.seats[seat].kita.remove(tile)
            self._win([(s, seat) for s in self._order_from(seat, rons)], tsumo=False, chankan=not robbed_kita, tile=tile)
            return
        self.phase = Phase.TURN
        if self.kita_window:
            self._finish_kita(seat)
        elif self.kakan_is_ankan:
            self.ruleset.after_kan(self, seat)
        else:
            self._finish_kakan(seat)

    def _kita(self, seat: int, code: int = NORTH) -> None:
        st = self.seats[seat]
        tile = self._take(seat, code)
        st.kita.append(tile)
        # Tenhou sanma: a set-aside North may be ronned (no chankan yaku); passing it is furiten.
        pending: dict[int, list[Action]] = {}
        for s in range(self.players):
            if s != seat and self.ruleset.can_ron(self, s, tile, seat, chankan=False, kokushi_only=False):
                pending[s] = self.ruleset.call_window(self, s, [Action(A.RON, s), Action(A.PASS, s)])
        self.kakan_tile = tile
        self.kakan_is_ankan = False
        self.kita_window = True
        self.current = seat
        if pending:
            self.phase = Phase.CHANKAN
            self.pending = pending
            self.responses = {}
            return
        self._finish_kita(seat)

    def _finish_kita(self, seat: int) -> None:
        self.kita_window = False
        self.ruleset.after_kita(self, seat)

    # -- call window

    def _order_from(self, discarder: int, seats: list[int]) -> list[int]:
        return sorted(seats, key=lambda s: (s - discarder) % self.players)

    def _resolve_calls(self) -> None:
        discarder = self.last_discarder
        tile = self.last_discard
        responses = self.responses
        rons = [s for s, a in responses.items() if a.type is A.RON]
        # passing a winning tile: temporary furiten, permanent after riichi
        for s in range(self.players):
            if s != discarder and s not in rons:
                self.ruleset.passed_win(self, s, tile)
        self.pending = {}
        self.responses = {}
        if rons:
            order = self._order_from(discarder, rons)
            mode = self.opts.multi_ron
            if len(order) >= 3 and mode != "triple" and self.opts.abortive_draws.sanchahou:
                self.abortive_draw("sanchahou")
                return
            if mode == "head_bump":
                order = order[:1]
            elif mode == "double":
                order = order[:2]
            self._win([(s, discarder) for s in order], tsumo=False, tile=tile)
            return
        dst = self.seats[discarder]
        # the riichi stick is paid once the declaration tile passes
        if (
            dst.riichi
            and dst.riichi_index == len(dst.river) - 1
            and discarder not in self.riichi_deposits
            and self.ruleset.riichi_deposit_due(self, discarder)
        ):
            self.scores[discarder] -= self.ruleset.stick_value(self)
            self.sticks += 1
            self.riichi_deposits.append(discarder)
        call = self.ruleset.choose_call(self, responses, discarder)
        ab = self.opts.abortive_draws
        if call is None:
            if ab.suufon_renda and self.ruleset.suufon_renda(self):
                self.abortive_draw("suufon_renda")
                return
            if ab.suucha_riichi and self.players == 4 and all(st.riichi for st in self.seats):
                self.abortive_draw("suucha_riichi")
                return
            if ab.suukaikan and len(self.kans) == 4 and len(set(self.kans)) > 1 and self._kan_just_made(discarder):
                self.abortive_draw("suukaikan")
                return
            if self.ruleset.hand_exhausted(self):
                self.exhaustive_draw()
                return
            self.ruleset.start_turn(self, (discarder + 1) % self.players)
            return
        self.claim(call, discarder, tile)

    def _kan_just_made(self, discarder: int) -> bool:
        # the discard that follows the 4th kan (the kan-maker's discard after its rinshan draw)
        return bool(self.kans) and self.kans[-1] == discarder and self.discard_after_kan

    def claim(self, call: Action, discarder: int, tile: int) -> None:
        """``call`` (a chi, pon or daiminkan) takes ``tile``, the last discard of ``discarder``: the
        meld is made (``kan_tiles``/``meld_effective``/``after_call_forbidden`` hooks) and the caller
        discards next (a daiminkan: ``after_kan``). Used by ``resolve_turn_claim`` (seigou SG-1)."""
        seat = call.seat
        st = self.seats[seat]
        dst = self.seats[discarder]
        dst.river_called[-1] = True
        dst.nagashi = False
        self.ruleset.call_cancels(self, seat)
        k = self.codes[tile] & ~RED
        if call.type is A.DAIMINKAN:
            own = self.ruleset.kan_tiles(self, seat, call, k)
            for t in own:
                st.tiles.remove(t)
                st.counts[self.codes[t] & ~RED] -= 1
            eff = self.ruleset.meld_effective(self, seat, call, (*own, tile))
            st.melds.append(TableMeld(MeldType.MINKAN, (*own, tile), tile, discarder, eff))
            self._check_pao(seat, k, discarder)
            self.kans.append(seat)
            self.pending_dora += 1
            self.ruleset.after_kan(self, seat)
            return
        own_ids = [self._take(seat, c) for c in call.tiles]
        if call.type is A.PON:
            eff = self.ruleset.meld_effective(self, seat, call, (*own_ids, tile))
            st.melds.append(TableMeld(MeldType.PON, (*own_ids, tile), tile, discarder, eff))
            st.kuikae = frozenset({k})
            self._check_pao(seat, k, discarder)
        else:
            a, b = sorted(c & ~RED for c in call.tiles)
            eff = self.ruleset.meld_effective(self, seat, call, (*own_ids, tile))
            st.melds.append(TableMeld(MeldType.CHI, (*own_ids, tile), tile, discarder, eff))
            st.kuikae = frozenset(kuikae_kinds(k, (a, b)))
        st.kuikae = self.ruleset.after_call_forbidden(self, seat, call, st.kuikae)
        self.current = seat
        self.drawn = -1
        self.after_call = True
        self.rinshan_draw = False
        self.phase = Phase.TURN

    def _check_pao(self, seat: int, k: int, discarder: int) -> None:
        st = self.seats[seat]
        trips = {self.codes[m.tiles[0]] & ~RED for m in st.melds if m.type is not MeldType.CHI}
        if k >= 31 and "daisangen" in self.opts.pao and all(d in trips for d in (31, 32, 33)):
            st.pao["daisangen"] = discarder
        if 27 <= k <= 30 and "daisuushii" in self.opts.pao and all(w in trips for w in (27, 28, 29, 30)):
            st.pao["daisuushii"] = discarder
        if "suukantsu" in self.opts.pao and sum(1 for m in st.melds if m.type in (MeldType.MINKAN, MeldType.KAKAN, MeldType.ANKAN)) == 4:
            st.pao["suukantsu"] = discarder

    # ------------------------------------------------------------------ settlements

    def _win(self, winners: list[tuple[int, int]], *, tsumo: bool, chankan: bool = False, tile: int = -1) -> None:
        n = self.players
        deltas = [0] * n
        wins: list[WinResult] = []
        for i, (seat, from_seat) in enumerate(winners):
            st = self.seats[seat]
            if tsumo:
                spec = self.win_spec(seat, self.drawn, tsumo=True)
            else:
                st.tiles.append(tile)
                st.counts[self.codes[tile] & ~RED] += 1
                spec = self.win_spec(seat, tile, tsumo=False, chankan=chankan, from_seat=from_seat)
            res = self.ruleset.score(spec)
            honba = self.honba if i == 0 else 0
            sticks = self.sticks if i == 0 else 0
            d, pao_seat = self.ruleset.payments(self, seat, from_seat, res, tsumo=tsumo, honba=honba, sticks=sticks)
            for s in range(n):
                deltas[s] += d[s]
            wins.append(WinResult(seat, from_seat, res, pao_seat, spec))
        if self.sticks:
            self.sticks = 0
        for s in range(n):
            self.scores[s] += deltas[s]
        dealer_won = any(w.seat == self.dealer for w in wins)
        self.end_hand(
            HandResult(
                self.round_wind,
                self.hand_number,
                self.honba,
                "tsumo" if tsumo else "ron",
                tuple(deltas),
                tuple(wins),
                riichi_deposits=tuple(self.riichi_deposits),
                scores_after=tuple(self.scores),
            ),
            renchan=dealer_won,
            honba_next=self.honba + 1 if dealer_won else 0,
        )

    def exhaustive_draw(self) -> None:
        """End the hand as a draw settled by the ``draw_settlement`` hook (the dealer continues as
        ``draw_renchan`` says)."""
        n = self.players
        kind, deltas, tenpai = self.ruleset.draw_settlement(self)
        for s in range(n):
            self.scores[s] += deltas[s]
        self.end_hand(
            HandResult(
                self.round_wind,
                self.hand_number,
                self.honba,
                kind,
                tuple(deltas),
                tenpai=tuple(tenpai),
                riichi_deposits=tuple(self.riichi_deposits),
                scores_after=tuple(self.scores),
            ),
            renchan=self.ruleset.draw_renchan(self, tenpai),
            honba_next=self.honba + 1,
        )

    def abortive_draw(self, kind: str) -> None:
        """End the hand as an abortive draw named ``kind``: no payments, the dealer continues."""
        self.end_hand(
            HandResult(
                self.round_wind,
                self.hand_number,
                self.honba,
                kind,
                (0,) * self.players,
                riichi_deposits=tuple(self.riichi_deposits),
                scores_after=tuple(self.scores),
            ),
            renchan=True,
            honba_next=self.honba + 1,
        )

    # ------------------------------------------------------------------ hand and game end

    def end_hand(self, result: HandResult, *, renchan: bool, honba_next: int) -> None:
        """Record ``result`` (its deltas already in ``scores``), then end the game (``game_ends``)
        or move on (``next_hand``) and deal the next hand."""
        self.results.append(result)
        self.pending = {}
        self.responses = {}
        end = self.ruleset.game_ends(self, result, renchan=renchan)
        self.hand_index += 1
        if end:
            self._finish_game()
            return
        self.ruleset.next_hand(self, result, renchan=renchan, honba_next=honba_next)
        self._start_hand()

    def ranking(self) -> list[int]:
        """Seats from first to last; equal points rank by seat order from the first dealer (R-2.8)."""
        return sorted(range(self.players), key=lambda s: (-self.scores[s], s))

    def _finish_game(self) -> None:
        order = self.ranking()
        if self.sticks:
            self.scores[order[0]] += self.ruleset.stick_value(self) * self.sticks
            self.sticks = 0
        self.final_results = self.ruleset.final_results(self, order)
        self.final_scores = tuple(self.scores)
        self.over = True
        self.phase = Phase.OVER

    # ------------------------------------------------------------------ copies and serialisation

    def copy(self) -> Game:
        """An independent copy for look-ahead (the deal list and tile set are shared, read-only)."""
        g = _copy.copy(self)
        g.scores = list(self.scores)
        g.actions = list(self.actions)
        g.results = list(self.results)
        g.live = self.live  # read-only within a hand except by index
        g.rinshan = list(self.rinshan)
        g.kans = list(self.kans)
        g.first_discards = list(self.first_discards)
        g.riichi_deposits = list(self.riichi_deposits)
        g.pending = {k: list(v) for k, v in self.pending.items()}
        g.responses = dict(self.responses)
        g.hand_state = self.ruleset.copy_hand_state(self, self.hand_state)
        seats = []
        for st in self.seats:
            c = _copy.copy(st)
            c.tiles = list(st.tiles)
            c.counts = list(st.counts)
            c.melds = list(st.melds)
            c.river = list(st.river)
            c.river_called = list(st.river_called)
            c.discarded_kinds = set(st.discarded_kinds)
            c.kita = list(st.kita)
            c.pao = dict(st.pao)
            seats.append(c)
        g.seats = seats
        return g

    def to_dict(self) -> dict[str, Any]:
        """The whole game as data: ruleset, options that differ from its defaults, seed, actions."""
        return {
            "ruleset": self.ruleset.name,
            "options": self.ruleset.options_dict(),
            "seed": self.seed,
            "actions": " ".join(a.text for a in self.actions),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Rebuild a game from :meth:`to_dict` output, validating every action."""
        from engine.rules.base import find_ruleset

        rs = find_ruleset(str(data["ruleset"]))
        opts = dict(data.get("options") or {})
        if opts:
            rs = rs.with_options(**opts)
        g = cls(rs, data.get("seed", 0))
        text = str(data.get("actions", ""))
        for tok in text.split():
            g.play(Action.parse(tok))
        return g


def _name(code: int) -> str:
    from engine.tiles import kind_name

    return kind_name(code)


def replay_actions(ruleset: Ruleset, seed: int | str, actions: Sequence[Action | str]) -> Game:
    """Rebuild a game from its seed and action list (each action validated)."""
    g = Game(ruleset, seed)
    for a in actions:
        g.play(Action.parse(a) if isinstance(a, str) else a)
    return g

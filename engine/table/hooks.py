"""The table hooks a ruleset may override (riichi.md §14), with the riichi behaviour as the base.

:class:`~engine.table.game.Game` is one state machine for every ruleset. Wherever the rulesets
differ it asks its ruleset, which inherits these methods: the wall and deal, the wait set, furiten,
win validity, the call options and their priority, kan resolution, what a call cancels, the win
context, the end of a hand, tenpai at a draw, payments, dealer rotation and the end of the game.
A variant is a :class:`~engine.rules.base.Ruleset` subclass that overrides some of them and calls
``super()`` for the rest — never a fork of the state machine.

Every hook takes the game as its first argument and may read its public state (the ``Game``
docstring lists it); hooks that change state say so. They must stay deterministic (no clock, no
randomness beyond the game's seed). The hooks are grouped by phase of play; each says when the game
calls it, what it returns and what riichi does. engine/table/HOOKS.md is generated from these
docstrings (``python -m tools.hooks_doc``; tests/engine/test_hooks_doc.py fails when it is stale).

Scoring itself is ``Ruleset.score(spec)``. Need another hook? Add a method to :class:`TableHooks`
whose body is the current riichi code, call it from game.py, and keep riichi byte-identical
(tests/engine/test_table.py, test_replay.py and test_table_properties.py stay green).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.hand.decompose import decompositions
from engine.notation import MeldType, WinContext
from engine.scoring.result import ScoreResult, base_points, ceil100
from engine.table.actions import Action, ActionType, canon
from engine.table.wall import Deal, TileSet, deal_from_seed, standard_tileset
from engine.tiles import NORTH, RED

if TYPE_CHECKING:
    from engine.table.game import Game, HandResult, SeatState

A = ActionType


class TableHooks:
    """Riichi table behaviour (riichi.md §2–§5, §11–§13); every method is a hook."""

    # ------------------------------------------------------------------ dealing
    # Once per hand, before its first turn: the tiles, the deal and the variant's own state.

    def tileset(self, g: Game) -> TileSet:
        """The physical tiles of the game (ids and their codes).

        Called once, by ``Game.__init__``. Returns a :class:`TileSet`. Riichi (R-1): 136 tiles with the
        options' red fives, minus the ruleset's ``removed_kinds`` (taiwan16: + 8 flowers).
        """
        return standard_tileset(red_fives=g.opts.red_fives, removed=g.ruleset.removed_kinds)

    def deal(self, g: Game) -> Deal:
        """The hand's deal: haipai, live wall, replacement tiles, dora and ura indicators (R-3).

        Called at the start of every hand unless the game replays recorded deals. Returns a :class:`Deal`.
        Riichi: the seeded shuffle with a 14-tile dead wall.
        """
        return deal_from_seed(g.tileset, g.seed, g.hand_index, players=g.players, dealer=g.dealer)

    def new_hand_state(self, g: Game) -> object:
        """A variant's own per-hand state, kept as ``g.hand_state``.

        Called at the start of every hand, after the deal and before the dealer's first turn. Returns any
        object. Riichi: ``None`` (no state of its own).
        """
        return None

    def copy_hand_state(self, g: Game, state: object) -> object:
        """An independent copy of ``state`` (the game's ``hand_state``).

        Called by :meth:`Game.copy` (look-ahead, the AI). Returns the copy. Riichi: ``state`` itself (``None``
        needs no copy).
        """
        return state

    # ------------------------------------------------------------------ drawing and the turn
    # A seat's turn begins, the seat draws, and the game lists what it may do.

    def start_turn(self, g: Game, seat: int) -> None:
        """A seat's turn begins.

        Called for the dealer at the start of each hand and for the next seat after every discard nobody
        claimed. Changes the game: the seat draws, or a window opens. Riichi: the seat draws
        (``g.draw(seat)``, R-4.1). seigou SG-1 and taiwan16's 天聴 and last-tile windows first open a one-seat
        ``Phase.CLAIM`` window (:func:`open_turn_window`) whose pass means draw.
        """
        g.draw(seat)

    def resolve_turn_claim(self, g: Game, action: Action) -> None:
        """The seat answered its ``Phase.CLAIM`` window with ``action``.

        Called once the window's one seat has answered. Changes the game. Riichi never opens this window; the
        base behaviour is seigou's: pass = draw, a claim takes the last discard of the seat named by
        ``action.src`` (``g.claim``).
        """
        g.pending = {}
        g.responses = {}
        if action.type is A.PASS:
            g.draw(action.seat)
            return
        g.claim(action, action.src, g.seats[action.src].river[-1])

    def draw_tile(self, g: Game, seat: int, rinshan: bool) -> tuple[int, bool] | None:
        """The tile the seat draws now, and whether it is a replacement draw; ``None`` when the hook ended the
        hand instead.

        Called by :meth:`Game.draw` for every draw (``rinshan``: a replacement after a kan or kita). Returns
        ``(physical tile, replacement)`` or ``None``. Riichi: the next live tile, or the next replacement
        tile; never ``None`` (taiwan16: flowers are exposed and replaced, a flower win or an empty wall ends
        the hand).
        """
        if rinshan:
            t = g.rinshan[g.rinshan_pos]
            g.rinshan_pos += 1
        else:
            t = g.live[g.live_pos]
            g.live_pos += 1
        return t, rinshan

    def turn_actions(self, g: Game, seat: int, actions: list[Action]) -> list[Action]:
        """The seat's turn actions as the game lists them (``actions``); a variant may add, remove or force
        some.

        Called by ``legal_actions`` in ``Phase.TURN`` when the whole list is needed. Returns the list. Riichi:
        ``actions`` unchanged (chinitsu_toutenkou: forced wins, open riichi; shoukou: transformed kans, riichi
        by its wait set; taiwan16: win or throw the last tile under haitei_pass).
        """
        return actions

    def turn_check(self, g: Game, seat: int, a: Action) -> bool | None:
        """Quick legality of the turn action ``a`` (a discard or a riichi) without listing every action.

        Called by the ``in`` test of ``legal_actions`` in ``Phase.TURN`` (replay, validation). Returns True or
        False, or ``None`` for "list them all and look". Riichi: :meth:`Game.quick_turn_check`.
        """
        return g.quick_turn_check(seat, a)

    def kyuushu_allowed(self, g: Game, seat: int) -> bool:
        """May the seat declare nine terminals now (R-12.1 timing)?

        Called when listing a turn's actions, only while the option ``abortive_draws.kyuushu_kyuuhai`` is on
        (the game counts the terminals). Returns a bool. Riichi: the seat's first draw, before any call, not a
        replacement draw.
        """
        return g.seats[seat].turns == 0 and g.calls_in_hand == 0 and not g.rinshan_draw

    # ------------------------------------------------------------------ kans and set-asides
    # The kans and nuki-dora set-asides a turn may make, and what follows them.

    def kan_allowed(self, g: Game, seat: int) -> bool:
        """May the seat make a kan now (R-4.8)?

        Called when listing a turn's actions and the calls on a discard (daiminkan). Returns a bool. Riichi:
        not on an empty live wall (so never by the haitei drawer), at most four kans a hand.
        """
        return g.live_left > 0 and len(g.kans) < 4

    def kakan_options(self, g: Game, seat: int) -> list[Action]:
        """The added kans the seat may make on its turn before riichi (R-4.6).

        Called when listing a turn's actions while kans are allowed and the seat is not in riichi. Returns
        KAKAN actions. Riichi: a held tile of each pon's printed kind (chinitsu_toutenkou CT-C5: a White added
        to an honour pon as well).
        """
        st = g.seats[seat]
        codes = g.codes
        out: list[Action] = []
        for m in st.melds:
            if m.type is MeldType.PON:
                k = codes[m.tiles[0]] & ~RED
                if st.counts[k]:
                    out.append(Action(A.KAKAN, seat, k))
        return out

    def kakan_meld(self, g: Game, seat: int, action: Action, kind: int) -> int:
        """Which pon an added kan of ``kind`` (``action``) completes.

        Called when an added kan is applied. Returns the index in the seat's melds, -1 for none. Riichi: the
        pon of that effective kind, else of that printed kind (chinitsu_toutenkou: the pon's natural honour).
        """
        codes = g.codes
        for i, m in enumerate(g.seats[seat].melds):
            if m.type is MeldType.PON and (m.effective[0] if m.effective else codes[m.tiles[0]] & ~RED) == kind:
                return i
        return -1

    def kan_tiles(self, g: Game, seat: int, action: Action, kind: int) -> list[int]:
        """The seat's own physical tiles the kan ``action`` of ``kind`` uses.

        Called when an ankan, an added kan or a daiminkan is applied. Returns physical tile ids. Riichi: an
        ankan all four of ``kind``, an added kan one, a daiminkan the three held (shoukou: a transformed tile
        among them).
        """
        st = g.seats[seat]
        codes = g.codes
        if action.type is A.KAKAN:
            return [next(t for t in st.tiles if codes[t] & ~RED == kind)]
        return [t for t in st.tiles if codes[t] & ~RED == kind]

    def meld_effective(
        self, g: Game, seat: int, action: Action, tiles: tuple[int, ...], prev: tuple[int, ...] = ()
    ) -> tuple[int, ...]:
        """Each tile's effective kind in the meld a call or kan makes (kept as ``TableMeld.effective``).

        Called for every chi, pon and kan with the meld's physical ``tiles`` (``prev``: the pon's effective
        kinds, for an added kan). Returns a tuple of kinds, ``()`` meaning as printed. Riichi: always ``()``
        (shoukou SK-D4: a transformed tile).
        """
        return ()

    def after_kan(self, g: Game, seat: int) -> None:
        """What follows a kan nobody robbed.

        Called after every kan: an ankan once no kokushi robbed it, an added kan once nobody robbed it, a
        daiminkan at once. Changes the game. Riichi (R-4.5–R-4.7): a live tile moves to the dead wall
        (``g.kan_move()``) and the kan maker draws a replacement tile (``g.draw(seat, rinshan=True)``), then
        discards (seigou: the kan ends the turn).
        """
        g.kan_move()
        g.draw(seat, rinshan=True)

    def kita_options(self, g: Game, seat: int) -> list[Action]:
        """The nuki-dora set-asides the seat may make now.

        Called when listing a turn's actions (after riichi too). Returns KITA actions. Riichi: North while
        ``opts.kita`` is on and the live wall has tiles, after riichi only the drawn North
        (chinitsu_toutenkou: any gari kind).
        """
        st = g.seats[seat]
        if not g.opts.kita or g.live_left <= 0:
            return []
        ok = (g.codes[g.drawn] & ~RED) == NORTH if st.riichi else st.counts[NORTH] > 0
        return [Action(A.KITA, seat, NORTH)] if ok else []

    def after_kita(self, g: Game, seat: int) -> None:
        """What follows a set-aside nobody robbed.

        Called once nobody robbed the set-aside (at once when nobody could). Changes the game. Riichi: it
        counts as a call (``call_cancels``), a live tile moves to the dead wall, and the seat draws a
        replacement.
        """
        g.ruleset.call_cancels(g, seat)
        g.kan_move()
        g.draw(seat, rinshan=True)

    # ------------------------------------------------------------------ discarding and calls
    # A discard is on the table: who may answer, which call is made, and what a call changes.

    def call_options(self, g: Game, seat: int, tile: int, discarder: int) -> list[Action]:
        """The pon, daiminkan and chi the seat may make on ``tile``, discarded by ``discarder`` (R-4.1–R-4.4).

        Called for every other seat after each discard. Returns actions; ron and pass are added by the game.
        Riichi: :func:`claims_of_discard`, nothing on an empty live wall or after riichi (seigou SG-1:
        nothing, its claims come at the start of a turn).
        """
        if g.live_left <= 0 or g.seats[seat].riichi:
            return []
        return claims_of_discard(g, seat, tile, discarder)

    def call_window(self, g: Game, seat: int, actions: list[Action]) -> list[Action]:
        """The seat's answers to a discard, or to a robbable kan or kita (ron, calls, pass); a variant may
        force or drop some.

        Called for every other seat after a discard, with the answers the game built (perhaps none), and for
        each seat that may rob a kan or kita. Returns the list (empty: no answer). Riichi: ``actions``
        unchanged (chinitsu_toutenkou CT-F1: no passing a win after riichi).
        """
        return actions

    def choose_call(self, g: Game, responses: Mapping[int, Action], discarder: int) -> Action | None:
        """The call that is made when seats answered a discard (``responses``: seat → action).

        Called after every discard once the answers are in (perhaps none) and nobody won by ron. Returns the
        call, or ``None``. Riichi (R-4.2): pon or kan over chi (shoukou SK-12: of two pons the nearer seat).
        """
        call = None
        for a in responses.values():
            if a.type in (A.PON, A.DAIMINKAN):
                call = a
        if call is None:
            for a in responses.values():
                if a.type is A.CHI:
                    call = a
        return call

    def call_cancels(self, g: Game, caller: int) -> None:
        """A call of any kind (kans and kita included) was made by ``caller``.

        Called for each chi, pon, kan and kita. Changes the game. Riichi: ``calls_in_hand`` goes up by one
        (which ends the first go-around for the rules that read it) and every ippatsu ends.
        """
        g.calls_in_hand += 1
        for st in g.seats:
            st.ippatsu = False

    def after_call_actions(self, g: Game, seat: int) -> list[Action]:
        """The actions besides a discard the caller may make right after a chi or pon.

        Called when listing the caller's turn actions after its call. Returns actions. Riichi: none (taiwan16:
        kongs, declared tenpai).
        """
        return []

    def after_call_forbidden(self, g: Game, seat: int, call: Action, forbidden: frozenset[int]) -> frozenset[int]:
        """The kinds the caller may not discard right after this chi or pon (kuikae, R-4.4).

        Called when a chi or pon is made, with the kinds the game computed (``forbidden``). Returns a
        frozenset of kinds. Riichi: ``forbidden`` unchanged (taiwan16: none, or the house rule; shoukou: after
        a transformed call).
        """
        return forbidden

    # ------------------------------------------------------------------ riichi
    # Declaring riichi (or a variant's declared tenpai): when it may be declared, what it allows, what it
    # costs.

    def riichi_allowed(self, g: Game, seat: int) -> bool:
        """May the seat declare riichi now, the hand's shape aside (R-5.1)?

        Called when listing a turn's actions and by the quick check of a riichi. Returns a bool. Riichi: not
        in riichi yet, a closed hand, 1000 points to pay (:func:`may_declare_riichi`) and at least
        ``opts.riichi_min_live`` live tiles left (seigou: on its turns 1..riichi_last_turn instead).
        """
        return may_declare_riichi(g, seat) and g.live_left >= g.opts.riichi_min_live

    def riichi_discard_ok(self, g: Game, seat: int, code: int) -> bool:
        """May the seat declare riichi with the discard ``code`` (R-5.1)?

        Called for each possible discard when riichi is allowed and the hand is at most tenpai, and by the
        quick check of a riichi. Returns a bool. Riichi: the hand is tenpai after that discard (pk A10: a
        furiten riichi may be refused).
        """
        c34 = g.seats[seat].counts
        k = code & ~RED
        c34[k] -= 1
        ok = g.calc.shanten(c34) == 0
        c34[k] += 1
        return ok

    def double_riichi(self, g: Game, seat: int) -> bool:
        """Is a riichi declared now a double riichi (R-5.5)?

        Called when a riichi is applied. Returns a bool. Riichi: the seat's first discard, with no call before
        it.
        """
        return g.seats[seat].turns == 0 and g.calls_in_hand == 0

    def riichi_ankan_ok(self, g: Game, seat: int, kind: int) -> bool:
        """May the seat, in riichi, make a closed kan of ``kind`` (R-5.3)?

        Called when listing the turn actions of a seat in riichi whose drawn tile is the fourth of ``kind``.
        Returns a bool. Riichi: the waits do not change and the three were a triplet in every reading (pk
        PK-11: never).
        """
        st = g.seats[seat]
        calc = g.calc
        before = list(st.counts)
        before[kind] -= 1  # the pre-draw hand
        waits = calc.waits(before)
        if not waits:
            return False
        after = list(before)
        after[kind] -= 3
        if tuple(calc.waits(after)) != tuple(waits):
            return False
        for w in waits:
            before[w] += 1
            for sets, _pair in decompositions(before):
                if kind not in sets:
                    before[w] -= 1
                    return False
            before[w] -= 1
        return True

    def riichi_kakan_ok(self, g: Game, seat: int, kind: int) -> bool:
        """May the seat, in riichi, make an added kan of ``kind``?

        Called when listing the turn actions of a seat in riichi. Returns a bool. Riichi: never, the hand is
        closed (taiwan16 TW-12: allowed after declared tenpai).
        """
        return False

    def riichi_deposit_due(self, g: Game, seat: int) -> bool:
        """Does the seat's declaration pay a stick?

        Called once the declaration tile has passed without a ron. Returns a bool. Riichi (R-5.1): yes
        (taiwan16: declared tenpai costs nothing).
        """
        return True

    def stick_value(self, g: Game) -> int:
        """The riichi deposit in points.

        Called when a deposit is paid, and when the leftover sticks go to the top at the game's end. Returns
        points. Riichi (R-5.1): 1000.
        """
        return 1000

    # ------------------------------------------------------------------ waits, furiten and winning
    # Which tiles a hand waits on, and whether a seat may win now.

    def wait_set(self, g: Game, seat: int) -> tuple[int, ...]:
        """The kinds that complete the seat's hand by shape (R-6.3).

        Called for every seat at the start of a hand and for the discarder after each discard; the game keeps
        the answer as ``SeatState.waits``. Returns kinds, ``()`` when the hand is not tenpai. Riichi: the
        calculator's waits of a tenpai hand (shoukou SK-11: the wait set W).
        """
        c = g.seats[seat].counts
        calc = g.calc
        if sum(c) % 3 != 1:
            return ()
        if calc.standard(c) > 0 and (g.seats[seat].melds or calc.shanten(c) > 0):
            return ()
        return tuple(calc.waits(c))

    def furiten(self, g: Game, seat: int) -> bool:
        """Is the seat barred from winning by ron now (R-6.4)?

        Called by ``can_ron`` (and the bot's furiten warning). Returns a bool. Riichi: temporary or riichi
        furiten, or one of its waits among its own discards.
        """
        st = g.seats[seat]
        if st.furiten_temp or st.furiten_riichi:
            return True
        return any(k in st.discarded_kinds for k in st.waits)

    def passed_win(self, g: Game, seat: int, tile: int) -> None:
        """The seat let ``tile`` go by without winning on it (R-6.4).

        Called for every seat that did not ron a discard, and for every seat that passed a robbable kan or
        kita. Changes the seat. Riichi: temporary furiten when the tile is one of its waits, permanent after
        riichi.
        """
        st = g.seats[seat]
        if (g.codes[tile] & ~RED) in st.waits:
            st.furiten_temp = True
            if st.riichi:
                st.furiten_riichi = True

    def win_shape(self, g: Game, counts: list[int]) -> bool:
        """Could these concealed tiles (the winning tile included) win by shape?

        Called by ``can_tsumo`` and ``can_ron``: the cheap filter before the hand is scored. Returns a bool.
        Riichi: a complete hand by the calculator (shoukou: at most one tile from complete).
        """
        return g.calc.is_agari(counts)

    def can_tsumo(self, g: Game, seat: int) -> bool:
        """May the seat win on the tile it drew (R-6.2)?

        Called when listing a turn's actions (not right after a call). Returns a bool. Riichi: a winning shape
        whose score is a win, so with a yaku (pk PK-6/PK-7: not while furiten in any sense).
        """
        if not self.win_shape(g, g.seats[seat].counts):
            return False
        return g.win_value(seat, g.drawn, tsumo=True).agari

    def can_ron(self, g: Game, seat: int, tile: int, from_seat: int, *, chankan: bool = False, kokushi_only: bool = False) -> bool:
        """May the seat win on ``tile`` of ``from_seat`` (R-6.2, R-6.6, R-6.7)?

        Called for each other seat on a discard, an added kan (``chankan``), an ankan (``kokushi_only``) and a
        kita. Returns a bool. Riichi: the tile is one of the seat's waits, the seat is not furiten, and the
        hand is a winning shape whose score is a win (only kokushi robs an ankan).
        """
        st = g.seats[seat]
        k = g.codes[tile] & ~RED
        if k not in st.waits or self.furiten(g, seat):
            return False
        st.counts[k] += 1
        st.tiles.append(tile)
        try:
            if not self.win_shape(g, st.counts):
                return False
            r = g.win_value(seat, tile, tsumo=False, chankan=chankan, from_seat=from_seat)
            if kokushi_only:
                return r.agari and any(y.name.startswith("kokushi") for y in r.yaku)
            return r.agari
        finally:
            st.tiles.pop()
            st.counts[k] -= 1

    # ------------------------------------------------------------------ scoring and payments
    # A win is valued: its situation, the scorer's flags, and who pays what.

    def win_context(self, g: Game, seat: int, *, tsumo: bool, chankan: bool, from_seat: int) -> WinContext:
        """The situational facts of a win for the scorer.

        Called by :meth:`Game.win_spec` whenever a win is valued: to list a tsumo or a ron, and to score one.
        Returns a :class:`WinContext`. Riichi: riichi, ippatsu, haitei/houtei, rinshan, chankan,
        tenhou/chiihou, the dora and ura indicators, kita and the discarder's wind (seigou SG-4, SG-8: by go-
        around).
        """
        st = g.seats[seat]
        codes = g.codes
        wind = g.seat_wind(seat)
        first = st.turns == 0 and g.calls_in_hand == 0 and not g.rinshan_draw
        return WinContext(
            tsumo=tsumo,
            seat_wind=wind,
            round_wind=g.round_wind,
            riichi=st.riichi == 1,
            double_riichi=st.riichi == 2,
            ippatsu=st.ippatsu,
            haitei=tsumo and g.live_left == 0 and not g.rinshan_draw,
            houtei=not tsumo and not chankan and g.live_left == 0,
            rinshan=tsumo and g.rinshan_draw,
            chankan=chankan,
            tenhou=tsumo and first and wind == 0,
            chiihou=tsumo and first and wind != 0,
            # §7 renhou: a non-dealer's ron before their first draw, nobody having called; only
            # where the club plays it (riichi.renhou), so a riichi game's context stays as it was
            renhou=not tsumo and not chankan and first and wind != 0 and g.ruleset.options.renhou != "off",
            dora_indicators=tuple(codes[t] for t in g.dora_indicators()),
            ura_indicators=tuple(codes[t] for t in g.ura_indicators()) if st.riichi else (),
            honba=0,
            sticks=0,
            kita=len(st.kita),
            players=g.players,
            discarder=g.seat_wind(from_seat) if from_seat >= 0 else None,
        )

    def spec_options(self, g: Game, seat: int, *, tsumo: bool, chankan: bool, from_seat: int) -> dict[str, str]:
        """The variant's flags of a win for the scorer (``HandSpec.options``, ``key=value`` in a hand line).

        Called by :meth:`Game.win_spec`. Returns a dict of strings. Riichi: ``{}`` (taiwan16: flowers, dealer,
        continuation, declaration).
        """
        return {}

    def win_base(self, g: Game, res: ScoreResult) -> int:
        """The base points B of the scored win ``res`` (R-10.1, R-10.2).

        Called by ``payments``. Returns points. Riichi: from its han, fu and yakuman with the options' limits
        (pk PK-0: the fixed table).
        """
        return base_points(res.han, res.fu, res.yakuman, g.opts)[0]

    def payments(
        self, g: Game, seat: int, from_seat: int, res: ScoreResult, *, tsumo: bool, honba: int, sticks: int
    ) -> tuple[list[int], int]:
        """Each seat's score change for one win (R-10, R-13).

        Called once per winner when a hand is won (``honba`` and ``sticks`` go to the first winner only).
        Returns ``(deltas, liable seat or -1)``. Riichi: ron 4B (dealer 6B), tsumo B each (2B from or to the
        dealer), honba, sticks and pao.
        """
        n = g.players
        opts = g.opts
        d = [0] * n
        dealer = seat == g.dealer
        base = self.win_base(g, res)
        pao_seat = -1
        pao_base = 0
        st = g.seats[seat]
        if res.yakuman and st.pao:
            for y in res.yaku:
                if y.name in st.pao:
                    pao_seat = st.pao[y.name]
                    pao_base += 8000 * (y.han // 13)
        hb_ron = opts.honba_ron * honba
        hb_tsumo = opts.honba_tsumo * honba
        if tsumo:
            payers = [s for s in range(n) if s != seat]

            def share(b: int, s: int) -> int:
                return ceil100(b * 2) if (dealer or s == g.dealer) else ceil100(b)

            if pao_seat >= 0:
                rest = base - pao_base
                pao_total = sum(share(pao_base, s) for s in payers)
                d[pao_seat] -= pao_total + hb_tsumo * len(payers)
                d[seat] += pao_total + hb_tsumo * len(payers)
                for s in payers:
                    if rest:
                        amt = share(rest, s)
                        d[s] -= amt
                        d[seat] += amt
            else:
                for s in payers:
                    amt = share(base, s) + hb_tsumo
                    d[s] -= amt
                    d[seat] += amt
        else:
            mult = 6 if dealer else 4
            value = ceil100(base * mult)
            if pao_seat >= 0 and pao_seat != from_seat:
                half = ceil100(pao_base * mult) // 2
                d[pao_seat] -= half + hb_ron
                d[from_seat] -= value - half
            else:
                d[from_seat] -= value + hb_ron
            d[seat] += value + hb_ron
        d[seat] += 1000 * sticks
        return d, pao_seat

    # ------------------------------------------------------------------ hand end and draws
    # The hand ends without a win: when, who is tenpai, what is paid, and who deals next.

    def hand_exhausted(self, g: Game) -> bool:
        """Does the hand end in an exhaustive draw now (R-4.10)?

        Called after a discard passed with no call and no abortive draw. Returns a bool. Riichi: the live wall
        is empty (seigou SG-7: North's last turn is over).
        """
        return g.live_left == 0

    def tenpai_at_draw(self, g: Game, seat: int) -> bool:
        """Is the seat tenpai when the hand is drawn (R-11.2)?

        Called by ``draw_settlement`` for every seat. Returns a bool. Riichi: shape tenpai by the calculator
        (pk PK-13: and able to win).
        """
        return g.calc.is_tenpai(g.seats[seat].counts)

    def draw_settlement(self, g: Game) -> tuple[str, list[int], list[int]]:
        """The outcome of an exhaustive draw (R-11).

        Called by :meth:`Game.exhaustive_draw`. Returns ``(kind, score deltas, tenpai seats)``. Riichi:
        nagashi mangan first, else the noten payments.
        """
        n = g.players
        tenpai = [s for s in range(n) if self.tenpai_at_draw(g, s)]
        deltas = [0] * n
        kind = "exhaustive"
        nagashi = [s for s in range(n) if g.opts.nagashi_mangan and g.seats[s].nagashi and g.seats[s].river]
        if nagashi:
            kind = "nagashi_mangan"
            for s in nagashi:
                for o in range(n):
                    if o == s:
                        continue
                    amt = 4000 if (s == g.dealer or o == g.dealer) else 2000
                    deltas[o] -= amt
                    deltas[s] += amt
        elif 0 < len(tenpai) < n:
            total = g.opts.noten_total
            noten = [s for s in range(n) if s not in tenpai]
            for s in tenpai:
                deltas[s] += total // len(tenpai)
            for s in noten:
                deltas[s] -= total // len(noten)
        return kind, deltas, tenpai

    def draw_renchan(self, g: Game, tenpai: list[int]) -> bool:
        """Does the dealer keep the deal after an exhaustive draw with these ``tenpai`` seats (R-2.3)?

        Called by :meth:`Game.exhaustive_draw`. Returns a bool. Riichi: when the dealer is tenpai (taiwan16
        TW-3: always).
        """
        return g.dealer in tenpai

    def suufon_renda(self, g: Game) -> bool:
        """Is this the four-winds abortive draw (R-12.2)?

        Called after a discard passed with no call, only while the option ``abortive_draws.suufon_renda`` is
        on. Returns a bool. Riichi: four players, the first four discards one wind, no call.
        """
        return (
            g.players == 4
            and g.discards_in_hand == 4
            and g.calls_in_hand == 0
            and len(set(g.first_discards)) == 1
            and 27 <= g.first_discards[0] <= 30
        )

    def next_hand(self, g: Game, result: HandResult, *, renchan: bool, honba_next: int) -> None:
        """Move on to the next hand after ``result`` (R-2.3).

        Called by :meth:`Game.end_hand` when ``game_ends`` said the game goes on. Changes the game's honba,
        hand number and round. Riichi: the honba becomes ``honba_next``; the deal passes on unless ``renchan``
        (chinitsu_toutenkou: the winner deals).
        """
        g.honba = honba_next
        if not renchan:
            g.hand_number += 1
            if g.hand_number == g.players:
                g.hand_number = 0
                g.round_wind += 1

    # ------------------------------------------------------------------ game end
    # Whether the game is over, and each seat's final result.

    def game_ends(self, g: Game, result: HandResult, *, renchan: bool) -> bool:
        """Does the game end after the hand whose ``result`` this is (R-2.5–R-2.7)?

        Called by :meth:`Game.end_hand` after every hand. Returns a bool. Riichi: tobi, all-last with agari-
        yame and tenpai-yame, the west extension and its sudden death.
        """
        n = g.players
        opts = g.opts
        length = 2 if opts.hanchan else 1
        scores = g.scores
        if opts.tobi and any(s < 0 for s in scores):
            return True
        top = max(scores)
        dealer = g.dealer
        extension = g.round_wind >= length
        all_last = g.round_wind == length - 1 and g.hand_number == n - 1
        if extension and top >= opts.return_points and not opts.extension_renchan_continues:
            return True  # as written: sudden death
        if not (extension or all_last):
            return False
        # The all-last rules, and Tenhou's sudden-death extension: a renchan ends the
        # game only by agari-yame (or tenpai-yame); a passing deal ends it when somebody has the
        # return points, or when the extension round is over.
        if renchan:
            dealer_won = any(w.seat == dealer for w in result.wins)
            stop = (opts.agari_yame and dealer_won) or (
                opts.tenpai_yame and result.kind == "exhaustive" and dealer in result.tenpai
            )
            return (
                stop
                and scores[dealer] == top
                and scores.count(top) == 1
                and (not opts.west_extension or scores[dealer] >= opts.return_points)
            )
        if not opts.west_extension or top >= opts.return_points:
            return True
        return extension and g.hand_number == n - 1

    def final_results(self, g: Game, order: list[int]) -> tuple[float, ...]:
        """Each seat's final result; ``order`` is the seats from first to last.

        Called once, when the game ends, after the leftover sticks went to the top. Returns one number per
        seat. Riichi (R-2.9): points in thousands after the return points, uma and oka.
        """
        opts = g.opts
        n = g.players
        oka = (opts.return_points - opts.start_points) * n / 1000
        res = [0.0] * n
        for place, s in enumerate(order):
            res[s] = (g.scores[s] - opts.return_points) / 1000 + opts.uma[place] + (oka if place == 0 else 0)
        return tuple(round(x, 1) for x in res)




# ---------------------------------------------------------------------- helpers for call options


def may_declare_riichi(g: Game, seat: int) -> bool:
    """R-5.1 without the wall condition: not in riichi yet, a closed hand, 1000 points to pay."""
    st = g.seats[seat]
    return not st.riichi and all(m.type is MeldType.ANKAN for m in st.melds) and g.scores[seat] >= 1000


def claims_of_discard(g: Game, seat: int, tile: int, discarder: int, src: int = -1) -> list[Action]:
    """Pon, daiminkan (when the ruleset allows a kan now) and chi (of the kamicha's discard) the
    seat's hand allows on the discarded ``tile`` (R-4.1–R-4.4, kuikae included). ``src``, the
    discarder's seat, goes into each action when the claim is not of the discard on the table
    (seigou SG-1)."""
    st = g.seats[seat]
    out: list[Action] = []
    k = g.codes[tile] & ~RED
    c34 = st.counts
    if c34[k] >= 2:
        for pair in pairs_of(g, st, k):
            if has_discard_after(g, st, {k}, pair):
                out.append(Action(A.PON, seat, -1, pair, src))
    if c34[k] == 3 and g.ruleset.kan_allowed(g, seat):
        out.append(Action(A.DAIMINKAN, seat, -1, (), src))
    if g.players == 4 and seat == (discarder + 1) % g.players and k < 27:
        r = k % 9
        for a, b in ((k - 2, k - 1), (k - 1, k + 1), (k + 1, k + 2)):
            if a < k - r or b > k - r + 8 or not c34[a] or not c34[b]:
                continue
            for pair in chi_pairs(g, st, a, b):
                if has_discard_after(g, st, kuikae_kinds(k, (a, b)), pair):
                    out.append(Action(A.CHI, seat, -1, pair, src))
    return out


def kuikae_kinds(k: int, used: tuple[int, int]) -> set[int]:
    """R-4.4: kinds the caller may not discard after calling ``k`` with ``used`` (a chi's other two)."""
    forbid = {k}
    a, b = used
    r = k % 9
    if a == k + 1 and r + 3 <= 8:  # called the low end of k,k+1,k+2: k+3 is the other end
        forbid.add(k + 3)
    elif b == k - 1 and r - 3 >= 0:  # called the high end
        forbid.add(k - 3)
    return forbid


def pairs_of(g: Game, st: SeatState, k: int) -> list[tuple[int, ...]]:
    """The ways to show two tiles of kind ``k`` for a pon (plain pair, or with a red five)."""
    codes = g.codes
    held = {codes[t] for t in st.tiles if codes[t] & ~RED == k}
    plain = sum(1 for t in st.tiles if codes[t] == k)
    out: list[tuple[int, ...]] = []
    if plain >= 2:
        out.append((k, k))
    if (k | RED) in held and plain >= 1:
        out.append((k, k | RED))
    return out


def chi_pairs(g: Game, st: SeatState, a: int, b: int) -> list[tuple[int, ...]]:
    """The ways to show kinds ``a`` and ``b`` for a chi (each may be a red five)."""
    have = {g.codes[t] for t in st.tiles}
    out: list[tuple[int, ...]] = []
    for ca in {x for x in (a, a | RED) if x in have}:
        for cb in {x for x in (b, b | RED) if x in have}:
            out.append(canon((ca, cb)))
    return sorted(out)


def has_discard_after(g: Game, st: SeatState, forbid: set[int], used: tuple[int, ...]) -> bool:
    """After showing ``used`` for a call, does the seat still hold a tile it may discard?"""
    rest = [g.codes[t] & ~RED for t in st.tiles]
    for c in used:
        rest.remove(c & ~RED)
    return any(k not in forbid for k in rest)


def open_turn_window(g: Game, seat: int, offer: list[Action]) -> None:
    """Start the seat's turn with a one-seat ``Phase.CLAIM`` window offering ``offer`` instead
    of drawing at once (seigou SG-1's claims; taiwan16's 天聴 and last-tile windows); its answer
    goes to ``resolve_turn_claim``."""
    from engine.table.game import Phase

    g.current = seat
    g.drawn = -1
    g.after_call = False
    g.rinshan_draw = False
    g.phase = Phase.CLAIM
    g.pending = {seat: offer}
    g.responses = {}

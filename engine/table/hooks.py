"""The table hooks a ruleset may override (riichi.md §14), with the riichi behaviour as the base.

:class:`~engine.table.game.Game` is one state machine for every ruleset. Wherever the rulesets
differ it asks its ruleset, which inherits these methods: the wall and deal, the wait set, furiten,
win validity, the call options and their priority, kan resolution, what a call cancels, the win
context, the end of a hand, tenpai at a draw, payments, dealer rotation and the end of the game.
A variant is a :class:`~engine.rules.base.Ruleset` subclass that overrides some of them and calls
``super()`` for the rest — never a fork of the state machine.

Every hook takes the game as its first argument and may read all of its state; hooks that change
state say so. They must stay deterministic (no clock, no randomness beyond the game's seed).
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

    # ------------------------------------------------------------------ wall

    def tileset(self, g: Game) -> TileSet:
        """R-1: the physical tiles (136, the options' red fives, minus the ruleset's removed kinds)."""
        return standard_tileset(red_fives=g.opts.red_fives, removed=g.ruleset.removed_kinds)

    def draw_tile(self, g: Game, seat: int, rinshan: bool) -> tuple[int, bool] | None:
        """The tile the seat draws now (the next live tile, or a replacement tile) and whether it is
        a replacement draw; ``None`` when the ruleset ended the hand instead (taiwan16's flowers)."""
        if rinshan:
            t = g.rinshan[g.rinshan_pos]
            g.rinshan_pos += 1
        else:
            t = g.live[g.live_pos]
            g.live_pos += 1
        return t, rinshan

    def deal(self, g: Game) -> Deal:
        """The hand's deal: haipai, live wall, replacement tiles, indicators (R-3)."""
        return deal_from_seed(g.tileset, g.seed, g.hand_index, players=g.players, dealer=g.dealer)

    # ------------------------------------------------------------------ waits, furiten, wins

    def wait_set(self, g: Game, seat: int) -> tuple[int, ...]:
        """Kinds that complete the seat's hand by shape (R-6.3); () when not tenpai."""
        c = g.seats[seat].counts
        calc = g.calc
        if sum(c) % 3 != 1:
            return ()
        if calc.standard(c) > 0 and (g.seats[seat].melds or calc.shanten(c) > 0):
            return ()
        return tuple(calc.waits(c))

    def furiten(self, g: Game, seat: int) -> bool:
        """R-6.4: the seat may not ron (permanent, temporary or riichi furiten)."""
        st = g.seats[seat]
        if st.furiten_temp or st.furiten_riichi:
            return True
        return any(k in st.discarded_kinds for k in st.waits)

    def win_shape(self, g: Game, counts: list[int]) -> bool:
        """Could these concealed tiles (a winning tile included) win by shape? The cheap filter
        that ``can_tsumo``/``can_ron`` apply before scoring the hand."""
        return g.calc.is_agari(counts)

    def can_tsumo(self, g: Game, seat: int) -> bool:
        """R-6.2: the seat's 14 tiles (after its draw) are a winning hand with a yaku."""
        if not self.win_shape(g, g.seats[seat].counts):
            return False
        return g.win_value(seat, g.drawn, tsumo=True).agari

    def can_ron(self, g: Game, seat: int, tile: int, from_seat: int, *, chankan: bool = False, kokushi_only: bool = False) -> bool:
        """R-6.2/R-6.6/R-6.7: may the seat win on this tile (a discard, an added kan, a kita)?"""
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

    def passed_win(self, g: Game, seat: int, tile: int) -> None:
        """A seat let a tile of its waits go by (R-6.4): temporary furiten, permanent after riichi."""
        st = g.seats[seat]
        if (g.codes[tile] & ~RED) in st.waits:
            st.furiten_temp = True
            if st.riichi:
                st.furiten_riichi = True

    def tenpai_at_draw(self, g: Game, seat: int) -> bool:
        """R-11.2: is the seat tenpai when the wall runs out?"""
        return g.calc.is_tenpai(g.seats[seat].counts)

    # ------------------------------------------------------------------ turn actions

    def kan_allowed(self, g: Game, seat: int) -> bool:
        """R-4.8: not on an empty live wall (so never by the haitei drawer), at most four kans."""
        return g.live_left > 0 and len(g.kans) < 4

    def riichi_allowed(self, g: Game, seat: int) -> bool:
        """R-5.1 conditions other than the hand's shape: closed, 1000 points, enough wall left."""
        return may_declare_riichi(g, seat) and g.live_left >= g.opts.riichi_min_live

    def riichi_discard_ok(self, g: Game, seat: int, code: int) -> bool:
        """R-5.1: the hand is tenpai after discarding ``code`` with the riichi declaration."""
        c34 = g.seats[seat].counts
        k = code & ~RED
        c34[k] -= 1
        ok = g.calc.shanten(c34) == 0
        c34[k] += 1
        return ok

    def riichi_ankan_ok(self, g: Game, seat: int, kind: int) -> bool:
        """R-5.3: the drawn tile is the fourth; waits unchanged; the three are a triplet in every reading."""
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

    # ------------------------------------------------------------------ calls

    def call_options(self, g: Game, seat: int, tile: int, discarder: int) -> list[Action]:
        """Pon, daiminkan and chi the seat may make on a discard (R-4.1–R-4.4); ron is separate."""
        if g.live_left <= 0 or g.seats[seat].riichi:
            return []
        return claims_of_discard(g, seat, tile, discarder)

    def choose_call(self, g: Game, responses: Mapping[int, Action], discarder: int) -> Action | None:
        """R-4.2 priority among the calls answered (ron is handled before): pon/kan over chi."""
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
        """A call of any kind (kans and kita included) ends every ippatsu and the first go-around."""
        g.calls_in_hand += 1
        for st in g.seats:
            st.ippatsu = False

    def after_call_actions(self, g: Game, seat: int) -> list[Action]:
        """Actions besides a discard right after a chi or pon (riichi: none; taiwan16: kongs)."""
        return []

    def after_call_forbidden(self, g: Game, seat: int, call: Action, forbidden: frozenset[int]) -> frozenset[int]:
        """R-4.4: the kinds the caller may not discard after this chi/pon (kuikae), as computed."""
        return forbidden

    def riichi_kakan_ok(self, g: Game, seat: int, kind: int) -> bool:
        """An added kan after riichi (riichi: never, the hand is closed; taiwan16 TW-12: allowed)."""
        return False

    def kakan_options(self, g: Game, seat: int) -> list[Action]:
        """R-4.6: the added kans a seat may make on its turn (not after riichi): a held tile of each
        pon's kind (chinitsu_toutenkou CT-C5: a White added to an honour pon as well)."""
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
        """The index in the seat's melds of the pon an added kan of ``kind`` completes (its
        effective kind, else its printed kind); -1 for none."""
        codes = g.codes
        for i, m in enumerate(g.seats[seat].melds):
            if m.type is MeldType.PON and (m.effective[0] if m.effective else codes[m.tiles[0]] & ~RED) == kind:
                return i
        return -1

    def riichi_deposit_due(self, g: Game, seat: int) -> bool:
        """R-5.1: the declaration's 1000-point stick is paid once the declaration tile passes."""
        return True

    def kita_options(self, g: Game, seat: int) -> list[Action]:
        """Nuki-dora set-asides the seat may make now (Tenhou sanma: North; after riichi only the
        drawn North)."""
        st = g.seats[seat]
        if not g.opts.kita or g.live_left <= 0:
            return []
        ok = (g.codes[g.drawn] & ~RED) == NORTH if st.riichi else st.counts[NORTH] > 0
        return [Action(A.KITA, seat, NORTH)] if ok else []

    def after_kita(self, g: Game, seat: int) -> None:
        """After a set-aside nobody robbed: it counts as a call, a live tile moves to the dead wall,
        and the seat draws a replacement."""
        g.ruleset.call_cancels(g, seat)
        g.kan_move()
        g.draw(seat, rinshan=True)

    def turn_actions(self, g: Game, seat: int, actions: list[Action]) -> list[Action]:
        """The seat's turn actions as the game lists them; a variant may add, remove or force some."""
        return actions

    def turn_check(self, g: Game, seat: int, a: Action) -> bool | None:
        """Quick legality of a discard or riichi without listing every action (None: list them)."""
        return g.quick_turn_check(seat, a)

    def call_window(self, g: Game, seat: int, actions: list[Action]) -> list[Action]:
        """The seat's answers to a discard (ron, calls, pass); a variant may force or drop some."""
        return actions

    def stick_value(self, g: Game) -> int:
        """R-5.1: the riichi deposit in points."""
        return 1000

    def kan_tiles(self, g: Game, seat: int, action: Action, kind: int) -> list[int]:
        """The seat's own physical tiles a kan uses: ankan all four of ``kind``, kakan one, a
        daiminkan of a ``kind`` discard the three held (shoukou: a transformed tile among them)."""
        st = g.seats[seat]
        codes = g.codes
        if action.type is A.KAKAN:
            return [next(t for t in st.tiles if codes[t] & ~RED == kind)]
        return [t for t in st.tiles if codes[t] & ~RED == kind]

    def meld_effective(
        self, g: Game, seat: int, action: Action, tiles: tuple[int, ...], prev: tuple[int, ...] = ()
    ) -> tuple[int, ...]:
        """Each tile's effective kind in the meld a call or kan makes (``TableMeld.effective``); ``()``
        = as printed, always in riichi (shoukou SK-D4: a transformed tile). ``prev``: the pon's, for
        a kakan."""
        return ()

    def after_kan(self, g: Game, seat: int) -> None:
        """R-4.5–R-4.7: the kan maker draws a replacement tile, then discards."""
        g.kan_move()
        g.draw(seat, rinshan=True)

    # ------------------------------------------------------------------ turn structure

    def new_hand_state(self, g: Game) -> object:
        """A variant's own per-hand state, kept as ``g.hand_state`` (riichi: none)."""
        return None

    def copy_hand_state(self, g: Game, state: object) -> object:
        """An independent copy of ``g.hand_state`` for :meth:`Game.copy`."""
        return state

    def start_turn(self, g: Game, seat: int) -> None:
        """A seat's turn begins: it draws (R-4.1). seigou SG-1 may first open a one-seat claim
        window (``Phase.CLAIM``) whose pass means draw."""
        g.draw(seat)

    def resolve_turn_claim(self, g: Game, action: Action) -> None:
        """The seat answered its ``Phase.CLAIM`` window: pass = draw; a claim takes the last discard
        of the seat named by ``action.src``. Riichi never opens this window."""
        g.pending = {}
        g.responses = {}
        if action.type is A.PASS:
            g.draw(action.seat)
            return
        g.claim(action, action.src, g.seats[action.src].river[-1])

    def kyuushu_allowed(self, g: Game, seat: int) -> bool:
        """R-12.1 timing: the seat's first draw, before any call (the option switch is the game's)."""
        return g.seats[seat].turns == 0 and g.calls_in_hand == 0 and not g.rinshan_draw

    def double_riichi(self, g: Game, seat: int) -> bool:
        """R-5.5: a riichi declared now is double (the seat's first discard, no call before it)."""
        return g.seats[seat].turns == 0 and g.calls_in_hand == 0

    def suufon_renda(self, g: Game) -> bool:
        """R-12.2 (the option switch is the game's): the first four discards are one wind, no call."""
        return (
            g.players == 4
            and g.discards_in_hand == 4
            and g.calls_in_hand == 0
            and len(set(g.first_discards)) == 1
            and 27 <= g.first_discards[0] <= 30
        )

    # ------------------------------------------------------------------ scoring context

    def win_context(self, g: Game, seat: int, *, tsumo: bool, chankan: bool, from_seat: int) -> WinContext:
        """The situational facts of a win (riichi, ippatsu, haitei, tenhou, dora, ...)."""
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
            dora_indicators=tuple(codes[t] for t in g.dora_indicators()),
            ura_indicators=tuple(codes[t] for t in g.ura_indicators()) if st.riichi else (),
            honba=0,
            sticks=0,
            kita=len(st.kita),
            players=g.players,
            discarder=g.seat_wind(from_seat) if from_seat >= 0 else None,
        )

    # ------------------------------------------------------------------ end of hand

    def hand_exhausted(self, g: Game) -> bool:
        """R-4.10: after a discard passes, does the hand end in an exhaustive draw?"""
        return g.live_left == 0

    def spec_options(self, g: Game, seat: int, *, tsumo: bool, chankan: bool, from_seat: int) -> dict[str, str]:
        """Variant flags of a win for the scorer (``HandSpec.options``, written ``key=value`` in a
        hand line); riichi needs none."""
        return {}

    def draw_renchan(self, g: Game, tenpai: list[int]) -> bool:
        """R-2.3: after an exhaustive draw the dealer keeps the deal when tenpai."""
        return g.dealer in tenpai

    def draw_settlement(self, g: Game) -> tuple[str, list[int], list[int]]:
        """R-11: (kind, score deltas, tenpai seats) at an exhaustive draw, nagashi mangan first."""
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

    def win_base(self, g: Game, res: ScoreResult) -> int:
        """R-10.1/R-10.2: the base points B of a scored win (pk's fixed table replaces it)."""
        return base_points(res.han, res.fu, res.yakuman, g.opts)[0]

    def payments(
        self, g: Game, seat: int, from_seat: int, res: ScoreResult, *, tsumo: bool, honba: int, sticks: int
    ) -> tuple[list[int], int]:
        """R-10/R-13: each seat's delta for one win (honba, sticks, pao), and the liable seat or -1."""
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

    def next_hand(self, g: Game, result: HandResult, *, renchan: bool, honba_next: int) -> None:
        """R-2.3: the honba and the next dealer (hand number, round) when the game goes on."""
        g.honba = honba_next
        if not renchan:
            g.hand_number += 1
            if g.hand_number == g.players:
                g.hand_number = 0
                g.round_wind += 1

    def game_ends(self, g: Game, result: HandResult, *, renchan: bool) -> bool:
        """R-2.5–R-2.7: does the game end after this hand (tobi, all-last, extension)?"""
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
        """R-2.9: each seat's result in thousands after return points, uma and oka."""
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

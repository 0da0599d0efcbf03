"""chinitsu_toutenkou at the table (CT-A, CT-B, CT-D … CT-H): the pure helpers the table uses and the
table hooks the ruleset overrides (engine/table/HOOKS.md).

* Pure helpers: :func:`tile_codes` (CT-B1), :func:`kuikae_forbidden` (CT-E3),
  :func:`open_riichi_exposure_ok` and :func:`open_riichi_shown` (CT-F2), :func:`riichi_ankan_ok`
  (CT-F3), :func:`noten_payments` (CT-H1), :func:`nagashi_payments` (CT-G10),
  :func:`chombo_payments` (CT-H3), :func:`call_priority` (CT-E2).
* :class:`ToutenkouTable` — the hooks, mixed into
  :class:`~engine.rules.chinitsu_toutenkou.ruleset.ChinitsuToutenkou`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations_with_replacement, product
from typing import TYPE_CHECKING, Any, ClassVar

from engine.hand.decompose import suit_decompositions
from engine.hand.wildcard import MANZU, ToutenkouCalculator
from engine.notation import MeldType, WinContext
from engine.rules.base import Ruleset
from engine.rules.chinitsu_toutenkou.options import (
    EAST,
    GARI_KINDS,
    GREEN,
    HONOURS,
    NORTH,
    RED_DRAGON,
    SOUTH,
    SUIT_BASE,
    WEST,
    WHITE,
    CtOptions,
)
from engine.scoring.result import ScoreResult
from engine.table.actions import Action, ActionType, canon
from engine.table.wall import Deal, TileSet, deal_nuki_block
from engine.tiles import KIND_NAMES, format_tiles, kind_of

if TYPE_CHECKING:
    from engine.table.game import Game, HandResult, TableMeld

__all__ = ["ToutenkouTable", "call_priority", "chombo_payments", "kuikae_forbidden", "nagashi_payments", "noten_payments", "open_riichi_exposure_ok", "open_riichi_exposures", "open_riichi_shown", "riichi_ankan_ok", "tile_codes"]


# --- small pure helpers ------------------------------------------------------------------------------


def tile_codes(suit: str = "p") -> tuple[int, ...]:
    """CT-B1: the 112 tiles as codes (one suit ×8, 1m 5m 9m ×4, honours ×4), in kind order."""
    base = SUIT_BASE[suit]
    out: list[int] = []
    for k in MANZU:
        out += [k] * 4
    for k in range(base, base + 9):
        out += [k] * 8
    for k in HONOURS:
        out += [k] * 4
    return tuple(out)


def kuikae_forbidden(called: int, exposed: Sequence[int]) -> frozenset[int]:
    """CT-E3: kinds that may not be discarded right after a pon.

    The discard may not form a triplet with the two exposed tiles (White wild among honours). With
    two exposed Whites only a pair with the called tile is forbidden; a called White pairs with
    every honour (J21)."""
    a, b = (kind_of(x) for x in exposed)
    c = kind_of(called)
    if a == WHITE and b == WHITE:
        if c == WHITE:
            return frozenset(HONOURS)
        return frozenset({c, WHITE})
    if WHITE in (a, b):
        other = b if a == WHITE else a
        return frozenset({other, WHITE})
    return frozenset({a, WHITE}) if a >= 27 else frozenset({a})


def call_priority(discarder: int, claimants: Iterable[int], players: int = 3) -> list[int]:
    """CT-E2 / CT-G8: claimants ordered by closeness in turn order after the discarder."""
    return sorted(claimants, key=lambda s: (s - discarder) % players)


def noten_payments(tenpai: Sequence[bool], total: int = 40) -> list[int]:
    """CT-H1: the noten penalty, ``total`` to the table: with one tenpai player each noten player
    pays it half; with two, the noten player pays each half (J11)."""
    n = len(tenpai)
    t = [s for s in range(n) if tenpai[s]]
    d = [0] * n
    if not t or len(t) == n:
        return d
    each = total // 2
    for s in range(n):
        if tenpai[s]:
            continue
        for w in t:
            d[s] -= each
            d[w] += each
    return d


def nagashi_payments(winners: Sequence[int], players: int = 3, each: int = 200) -> list[int]:
    """CT-G10: each nagashi player is paid ``each`` by every other player."""
    d = [0] * players
    for w in winners:
        for o in range(players):
            if o != w:
                d[o] -= each
                d[w] += each
    return d


def chombo_payments(offender: int, players: int = 3, each: int = 20) -> list[int]:
    """CT-H3: chombo pays ``each`` to every other player (the hand is replayed)."""
    d = [each] * players
    d[offender] = -each * (players - 1)
    return d


# --- open riichi (CT-F2) and ankan after riichi (CT-F3) -----------------------------------------------


def _counts(codes: Iterable[int]) -> list[int]:
    c = [0] * 34
    for x in codes:
        c[kind_of(x)] += 1
    return c


def _complete_as(c: Sequence[int], form: str) -> bool:
    """Is a 3n (sets) or 2n (pairs) fragment complete in that form? Whites wild among honours."""
    if form == "pairs":
        if any(c[k] for k in MANZU) or c[NORTH]:
            return False
        if any(c[k] % 2 for k in range(9, 27)):
            return False
        singles = sum(1 for k in (EAST, SOUTH, WEST, GREEN, RED_DRAGON) if c[k] % 2)
        return c[WHITE] >= singles and (c[WHITE] - singles) % 2 == 0
    if sum(c) % 3 or any(c[k] for k in MANZU):
        return False
    for lo in (9, 18):
        part = bytes(c[lo : lo + 9])
        if sum(part) and not suit_decompositions(part, True):
            return False
    hon = list(c[27:34])
    w = hon[4]
    hon[4] = 0
    for combo in combinations_with_replacement(range(7), w):
        h = list(hon)
        for i in combo:
            h[i] += 1
        if all(x % 3 == 0 for x in h) and not h[3]:
            return True
    return False


def _fragment_waits(shown: Sequence[int], form: str, calc: ToutenkouCalculator) -> set[int]:
    c = _counts(shown)
    out: set[int] = set()
    for k in [*range(9, 27), *HONOURS]:
        c[k] += 1
        if form == "pairs":
            ok = sum(c) % 2 == 0 and _complete_as(c, "pairs")
        else:
            ok = sum(c) % 3 == 2 and _fragment_sets_pair(c, calc)
        if ok:
            out.add(k)
        c[k] -= 1
    return out


def _fragment_sets_pair(c: Sequence[int], calc: ToutenkouCalculator) -> bool:
    """Sets plus one pair (the standard shape of a fragment), with the usual gari rules."""
    return calc.standard_complete(c)


def open_riichi_exposure_ok(concealed: Sequence[int], shown: Sequence[int], suit: str = "p") -> bool:
    """CT-F2: does showing ``shown`` (codes, a sub-multiset of ``concealed``, 13 − 3·melds tiles
    before the draw) show the complete wait set?

    The hidden rest must be complete groups of one form (sets, or pairs for a chiitoitsu), and the
    waits the shown part has in that form must be exactly the whole hand's waits."""
    calc = ToutenkouCalculator(SUIT_BASE[suit])
    whole = _counts(concealed)
    part = _counts(shown)
    if any(part[k] > whole[k] for k in range(34)):
        return False
    hidden = [whole[k] - part[k] for k in range(34)]
    waits = set(calc.waits(whole))
    if not waits:
        return False
    if not any(hidden):
        return True
    # one reading of the hidden rest must explain every wait: 1133445577999s hiding 334455s shows
    # 1s/7s if the rest is two sets and 9s if it is three pairs, never all three (CT-F2)
    return any(_complete_as(hidden, form) and _fragment_waits(shown, form, calc) == waits for form in ("sets", "pairs"))


def open_riichi_shown(concealed: Sequence[int], chosen: Sequence[int] | None, opts: CtOptions) -> tuple[int, ...]:
    """The tiles an open riichi shows everyone: the whole concealed hand with
    ``ct.open_riichi_expose = "all"``, else the player's valid choice (the whole hand if invalid)."""
    if opts.open_riichi_expose == "all" or chosen is None:
        return tuple(sorted(concealed, key=kind_of))
    if open_riichi_exposure_ok(concealed, chosen, opts.suit):
        return tuple(sorted(chosen, key=kind_of))
    return tuple(sorted(concealed, key=kind_of))


def open_riichi_exposures(concealed: Sequence[int], suit: str = "p") -> list[tuple[int, ...]]:
    """CT-F2 with ``ct.open_riichi_expose = "minimal"``: every part of the concealed hand (codes,
    after the riichi discard) short of the whole that validly shows the complete wait set
    (:func:`open_riichi_exposure_ok`). Smallest first; the whole hand is always valid and not
    listed."""
    return list(_exposures(tuple(sorted(kind_of(c) for c in concealed)), suit))


_EXPOSURES: dict[tuple[tuple[int, ...], str], tuple[tuple[int, ...], ...]] = {}


def _exposures(concealed: tuple[int, ...], suit: str) -> tuple[tuple[int, ...], ...]:
    key = (concealed, suit)
    found = _EXPOSURES.get(key)
    if found is not None:
        return found
    calc = ToutenkouCalculator(SUIT_BASE[suit])
    whole = _counts(concealed)
    waits = set(calc.waits(whole))
    kinds = [k for k in range(34) if whole[k]]
    out: list[tuple[int, ...]] = []
    for hid in product(*(range(whole[k] + 1) for k in kinds)) if waits else ():
        n = sum(hid)
        if n == 0 or n == len(concealed) or (n % 3 and n % 2):
            continue
        hidden = [0] * 34
        for k, x in zip(kinds, hid):
            hidden[k] = x
        shown = [k for k, x in zip(kinds, hid) for _ in range(whole[k] - x)]
        if any(_complete_as(hidden, form) and _fragment_waits(shown, form, calc) == waits for form in ("sets", "pairs")):
            out.append(tuple(shown))
    result = tuple(sorted(out, key=lambda t: (len(t), t)))
    if len(_EXPOSURES) > 5_000:
        _EXPOSURES.clear()
    _EXPOSURES[key] = result
    return result


def riichi_ankan_ok(before: Sequence[int], kind: int, suit: str = "p") -> bool:
    """CT-F3: after riichi an ankan of ``kind`` (the drawn tile making four in hand) is allowed when
    the wait set does not change; the change of possible yaku does not matter. North cannot be
    kanned (CT-E4). ``before`` is the 13-tile count array before the draw."""
    if kind == NORTH:
        return False
    calc = ToutenkouCalculator(SUIT_BASE[suit])
    c = list(before)
    waits = calc.waits(c)
    if not waits or c[kind] < 3:
        return False
    c[kind] -= 3
    return calc.waits(c) == waits


# --- the table -----------------------------------------------------------------------------------

A = ActionType


@dataclass(slots=True)
class CtHandState:
    """Per-hand table state (``Game.hand_state``): where the hand's actions start in
    ``Game.actions``, so open riichi declarations can be read from the action list."""

    first_action: int = 0


class _TableCalculator(ToutenkouCalculator):
    """:class:`ToutenkouCalculator` with its answers kept per hand shape, for the table: a turn
    asks about the same tiles several times (the riichi check on 14 tiles tries each 13, each
    riichi discard asks again, the discard's wait set asks for shanten and waits of the 13 that
    stay, furiten asks for the waits once more), and each of those is a search over the
    wildcard assignments. The answers depend on the counts and the game suit only."""

    _memo: ClassVar[dict[tuple[int, bytes, int], Any]] = {}  # shared: the answers are pure

    def _kept(self, what: int, counts: Sequence[int], compute: Callable[[Sequence[int]], Any]) -> Any:
        key = (what, bytes(counts[:34]), self.suit_base)
        memo = self._memo
        found = memo.get(key)
        if found is None:
            if len(memo) > 50_000:  # the repeats come within a turn or two
                memo.clear()
            found = memo[key] = compute(counts)
        return found

    # the base class binds ``standard`` and ``shanten`` to these (and its own ``_forms`` and
    # ``_shanten`` call them)
    def _standard(self, counts: Sequence[int]) -> int:
        return int(self._kept(0, counts, super()._standard))

    def _shanten(self, counts: Sequence[int]) -> int:
        return int(self._kept(1, counts, super()._shanten))

    def _is_agari(self, counts: Sequence[int]) -> bool:
        # the wait search tries a tile of the other number suit too, which the game does not have
        # (CT-B1): one such tile fits no set, pair or kokushi slot, so the hand is not complete
        other = 27 - self.suit_base
        if sum(counts[other : other + 9]) == 1:
            return False
        return super()._is_agari(counts)

    def waits(self, counts: Sequence[int], *, held_all: bool = True) -> list[int]:
        found: tuple[int, ...] = self._kept(
            2 + held_all, counts, lambda c: tuple(super(_TableCalculator, self).waits(c, held_all=held_all))
        )
        return list(found)


class ToutenkouTable:
    """The table hooks of chinitsu_toutenkou (engine/table/HOOKS.md), mixed into the ruleset."""

    ct: CtOptions

    # -- wall ------------------------------------------------------------------------------------

    def tileset(self, g: Game) -> TileSet:
        """CT-B1: 112 tiles."""
        return TileSet(tile_codes(self.ct.suit))

    def deal(self, g: Game) -> Deal:
        """CT-B4: 13 each, indicator stack, 16-tile nuki block, kan indicators from the live tail."""
        return deal_nuki_block(g.tileset, g.seed, g.hand_index, players=g.players, dealer=g.dealer)

    def new_hand_state(self, g: Game) -> object:
        return CtHandState(len(g.actions))

    def copy_hand_state(self, g: Game, state: object) -> object:
        assert isinstance(state, CtHandState)
        return CtHandState(state.first_action)

    # -- open riichi (CT-F2) ------------------------------------------------------------------

    def open_riichi_seats(self, g: Game) -> set[int]:
        st = g.hand_state
        start = st.first_action if isinstance(st, CtHandState) else 0
        return {a.seat for a in g.actions[start:] if a.type is A.OPEN_RIICHI}

    def shown_tiles(self, g: Game, seat: int) -> tuple[int, ...]:
        """The tile codes an open-riichi seat shows to everyone (``ct.open_riichi_expose = "all"``:
        the whole concealed hand, without a tile just drawn); () for any other seat."""
        if seat not in self.open_riichi_seats(g):
            return ()
        tiles = [t for t in g.seats[seat].tiles if not (seat == g.current and t == g.drawn)]
        concealed = [g.codes[t] for t in tiles]
        chosen = self._chosen_exposure(g, seat)
        if chosen and not open_riichi_exposure_ok(concealed, chosen, self.ct.suit):
            # CT-F3: an ankan took tiles of the shown part; the player re-exposes a part showing the
            # same waits: the smallest such part (the whole hand if there is none)
            smaller = open_riichi_exposures(concealed, self.ct.suit)
            chosen = smaller[0] if smaller else ()
        return open_riichi_shown(concealed, chosen or None, self.ct)

    def _chosen_exposure(self, g: Game, seat: int) -> tuple[int, ...]:
        """The part of the hand the seat's open riichi action chose to show (CT-F2 "minimal");
        () = the whole hand."""
        st = g.hand_state
        start = st.first_action if isinstance(st, CtHandState) else 0
        for a in g.actions[start:]:
            if a.type is A.OPEN_RIICHI and a.seat == seat:
                return a.tiles
        return ()

    def deals_into_open_riichi(self, g: Game, seat: int, code: int) -> list[int]:
        """Open-riichi seats that would win on ``code`` discarded by ``seat`` (CT-F2: the bot asks a
        non-riichi player to confirm such a discard)."""
        k = kind_of(code)
        return [
            s
            for s in sorted(self.open_riichi_seats(g))
            if s != seat and k in g.seats[s].waits and not g.ruleset.furiten(g, s)
        ]

    # -- turn actions ----------------------------------------------------------------------------

    def _forced_white(self, g: Game, seat: int) -> bool:
        """CT-C2: a riichi seat's ippatsu draw is a White: a full wildcard, and it must win."""
        st = g.seats[seat]
        return bool(
            st.riichi and st.ippatsu and g.current == seat and g.drawn >= 0 and kind_of(g.codes[g.drawn]) == WHITE
        )

    def can_tsumo(self, g: Game, seat: int) -> bool:
        if self._forced_white(g, seat):
            return True
        return bool(Ruleset.can_tsumo(g.ruleset, g, seat))

    def kan_allowed(self, g: Game, seat: int) -> bool:
        """CT-D4: a kan needs a stack left at the live tail for its indicator; at most 4 kans."""
        return g.live_left >= 2 and len(g.kans) < 4

    def riichi_allowed(self, g: Game, seat: int) -> bool:
        """CT-A11/CT-F1: closed hand, enough wall; no points needed (running balance from 0)."""
        st = g.seats[seat]
        return not st.riichi and all(m.type is MeldType.ANKAN for m in st.melds) and g.live_left >= g.opts.riichi_min_live

    def riichi_ankan_ok(self, g: Game, seat: int, kind: int) -> bool:
        """CT-F3: waits unchanged (the change of yaku does not matter); never North or manzu."""
        if kind in GARI_KINDS:
            return False
        before = list(g.seats[seat].counts)
        before[kind] -= 1
        return riichi_ankan_ok(before, kind, self.ct.suit)

    def kita_options(self, g: Game, seat: int) -> list[Action]:
        """CT-D1: any held gari may be extracted on one's turn; after riichi only the drawn one, and
        not one of the seat's winning tiles (CT-F4)."""
        st = g.seats[seat]
        if g.rinshan_pos >= len(g.rinshan):
            return []
        if st.riichi:
            k = kind_of(g.codes[g.drawn]) if g.drawn >= 0 else -1
            return [Action(A.KITA, seat, k)] if k in GARI_KINDS and k not in st.waits else []
        return [Action(A.KITA, seat, k) for k in GARI_KINDS if st.counts[k]]

    def after_kita(self, g: Game, seat: int) -> None:
        """CT-D1/CT-D3/J16: the replacement comes from the nuki block; not rinshan, and not a call
        unless ``ct.extraction_breaks_ippatsu``."""
        if self.ct.extraction_breaks_ippatsu:
            g.ruleset.call_cancels(g, seat)
        g.draw(seat, rinshan=True)
        g.rinshan_draw = False

    def after_kan(self, g: Game, seat: int) -> None:
        """CT-D2/CT-D4/J8: the kan's indicator stack leaves the live tail; the replacement is the
        next live tile; with no tile left the hand ends at once in an exhaustive draw."""
        g.live_end -= 2
        if g.live_left <= 0:
            g.exhaustive_draw()
            return
        g.draw(seat)
        g.rinshan_draw = True

    def turn_actions(self, g: Game, seat: int, actions: list[Action]) -> list[Action]:
        st = g.seats[seat]
        if any(a.type is A.TSUMO for a in actions) and (st.riichi or self._forced_white(g, seat)):
            return [Action(A.TSUMO, seat)]  # CT-F1 / CT-C2: no passing a win after riichi
        actions = self._with_big_ankans(g, seat, actions)
        out: list[Action] = []
        for a in actions:
            if a.type is A.ANKAN and a.tile in GARI_KINDS:
                continue  # CT-E4: no kan of North (nor of the other gari)
            if a.type is A.KAKAN and (a.tile in GARI_KINDS or self._pon_kind(g, seat, a.tile) in GARI_KINDS):
                continue
            out.append(a)
            if a.type is A.RIICHI and not self._furiten_after(g, seat, a.tile):
                out.append(Action(A.OPEN_RIICHI, seat, a.tile))  # CT-F2, never furiten (CT-A11)
                if self.ct.open_riichi_expose == "minimal":  # CT-F2: or show a valid part only
                    rest = [g.codes[t] for t in st.tiles]
                    rest.remove(a.tile)
                    out.extend(Action(A.OPEN_RIICHI, seat, a.tile, shown) for shown in open_riichi_exposures(rest, self.ct.suit))
        return out

    def turn_check(self, g: Game, seat: int, a: Action) -> bool | None:
        if a.type is A.KAKAN and a.tile == WHITE and not a.shift and self._legacy_white_pon(g, seat) >= 0:
            # games recorded before CT-C5's notation added a White to a pon shown with a White
            # first as "k5z"; it still replays, as the White added to that pon
            st = g.seats[seat]
            return a.seat == seat and not st.riichi and not g.after_call and bool(st.counts[WHITE]) and self.kan_allowed(g, seat)
        return None  # forced wins and open riichi: always list the actions

    def _with_big_ankans(self, g: Game, seat: int, actions: list[Action]) -> list[Action]:
        """CT-B1/CT-B3: the game offers an ankan for exactly four held; with eight copies of a
        suit kind a hand may hold five or more (after riichi: the drawn tile making the fifth)."""
        st = g.seats[seat]
        if g.after_call or not any(a.type is A.DISCARD for a in actions) or not self.kan_allowed(g, seat):
            return actions
        if st.riichi:
            k = kind_of(g.codes[g.drawn]) if g.drawn >= 0 else -1
            kinds = [k] if k >= 0 and st.counts[k] > 4 and self.riichi_ankan_ok(g, seat, k) else []
        else:
            kinds = [k for k in range(9, 27) if st.counts[k] > 4]
        extra = [Action(A.ANKAN, seat, k) for k in kinds]
        i = next((j for j, a in enumerate(actions) if a.type in (A.KAKAN, A.KITA, A.DISCARD)), len(actions))
        return actions[:i] + extra + actions[i:]

    def kan_tiles(self, g: Game, seat: int, action: Action, kind: int) -> list[int]:
        """A kan takes four tiles (ankan) or three and the discard (daiminkan) even from a hand
        holding more of the kind (CT-B1: eight copies). A kakan written with a White as the pon's
        honour (``1k1z5z>1z``, CT-C5) adds a White."""
        if action.type is A.KAKAN and action.shift:
            return [next(t for t in g.seats[seat].tiles if kind_of(g.codes[t]) == WHITE)]
        tiles = Ruleset.kan_tiles(g.ruleset, g, seat, action, kind)
        return tiles[: 4 if action.type is A.ANKAN else 3 if action.type is A.DAIMINKAN else 1]

    def _meld_kind(self, g: Game, m: TableMeld) -> int:
        """The kind a meld stands for: its natural tiles' kind, White when it is all Whites (CT-C1)."""
        natural = [kind_of(g.codes[t]) for t in m.tiles if kind_of(g.codes[t]) != WHITE]
        return natural[0] if natural else WHITE

    def kakan_options(self, g: Game, seat: int) -> list[Action]:
        """CT-C1/CT-C5: an added kan of a held tile of the pon's kind, or of a White added to an
        honour pon (written with the White as that honour, ``1k1z5z>1z``; a pon of Whites takes a
        White as itself). Gari pons are dropped by ``turn_actions`` (CT-E4)."""
        st = g.seats[seat]
        out: list[Action] = []
        for m in st.melds:
            if m.type is not MeldType.PON:
                continue
            k = self._meld_kind(g, m)
            if st.counts[k]:
                out.append(Action(A.KAKAN, seat, k))
            if k >= 27 and k != WHITE and st.counts[WHITE]:
                out.append(Action(A.KAKAN, seat, k, shift=(WHITE, k)))
        return out

    def kakan_meld(self, g: Game, seat: int, action: Action, kind: int) -> int:
        """The pon an added kan completes: the one standing for ``kind`` (CT-C1)."""
        for i, m in enumerate(g.seats[seat].melds):
            if m.type is MeldType.PON and self._meld_kind(g, m) == kind:
                return i
        return self._legacy_white_pon(g, seat) if kind == WHITE else -1

    def _legacy_white_pon(self, g: Game, seat: int) -> int:
        """An honour pon shown with a White first (``1p56z``) when the seat has no pon of Whites:
        the pon an old-style "k5z" kakan added its White to; -1 for none."""
        melds = g.seats[seat].melds
        pons = [i for i, m in enumerate(melds) if m.type is MeldType.PON]
        if any(self._meld_kind(g, melds[i]) == WHITE for i in pons):
            return -1
        return next((i for i in pons if kind_of(g.codes[melds[i].tiles[0]]) == WHITE), -1)

    def _pon_kind(self, g: Game, seat: int, tile_kind: int) -> int:
        for m in g.seats[seat].melds:
            if m.type is MeldType.PON and kind_of(g.codes[m.tiles[0]]) == tile_kind:
                natural = [kind_of(g.codes[t]) for t in m.tiles if kind_of(g.codes[t]) != WHITE]
                return natural[0] if natural else WHITE
        return tile_kind

    def _furiten_after(self, g: Game, seat: int, code: int) -> bool:
        st = g.seats[seat]
        c = list(st.counts)
        c[kind_of(code)] -= 1
        waits = g.calc.waits(c)
        seen = st.discarded_kinds | {kind_of(code)}
        return any(k in seen for k in waits)

    # -- calls -----------------------------------------------------------------------------------

    def call_options(self, g: Game, seat: int, tile: int, discarder: int) -> list[Action]:
        """CT-A4/CT-E1: no chi. Pon with a White for an honour (CT-C1), daiminkan of three natural
        tiles; never of manzu, never a kan of North (CT-E4); kuikae per CT-E3."""
        st = g.seats[seat]
        out: list[Action] = []
        if g.live_left <= 0 or st.riichi:
            return out
        k = kind_of(g.codes[tile])
        if k in MANZU or (k == NORTH and not self.ct.north_pon):
            return out
        c = st.counts
        pairs: list[tuple[int, int]] = []
        if k >= 27:
            if c[k] >= 2:
                pairs.append((k, k))
            if k != WHITE and c[k] >= 1 and c[WHITE] >= 1:
                pairs.append((k, WHITE))
            if c[WHITE] >= 2 and (WHITE, WHITE) not in pairs:
                pairs.append((WHITE, WHITE))
        elif c[k] >= 2:
            pairs.append((k, k))
        for pair in pairs:
            rest = list(c)
            for x in pair:
                rest[x] -= 1
            forbid = kuikae_forbidden(g.codes[tile], pair)
            if any(rest[x] for x in range(34) if x not in forbid):
                out.append(Action(A.PON, seat, -1, canon(pair)))
        if c[k] >= 3 and k != NORTH and self.kan_allowed(g, seat):
            out.append(Action(A.DAIMINKAN, seat))
        return out

    def after_call_forbidden(self, g: Game, seat: int, call: Action, forbidden: frozenset[int]) -> frozenset[int]:
        if call.type is A.PON:
            return forbidden | kuikae_forbidden(g.codes[g.last_discard], call.tiles)
        return forbidden

    def choose_call(self, g: Game, responses: Mapping[int, Action], discarder: int) -> Action | None:
        """CT-E2: the claimant closest in turn order after the discarder, pon or kan alike."""
        calls = [a for a in responses.values() if a.type in (A.PON, A.DAIMINKAN)]
        if not calls:
            return None
        first = call_priority(discarder, [a.seat for a in calls], g.players)[0]
        return next(a for a in calls if a.seat == first)

    def call_window(self, g: Game, seat: int, actions: list[Action]) -> list[Action]:
        """CT-F1: a riichi seat cannot pass a win (the engine declares it)."""
        if g.seats[seat].riichi and any(a.type is A.RON for a in actions):
            return [Action(A.RON, seat)]
        return actions

    def can_ron(
        self, g: Game, seat: int, tile: int, from_seat: int, *, chankan: bool = False, kokushi_only: bool = False
    ) -> bool:
        """Base rules plus CT-C5: an added White may be robbed only by a seat waiting on the pon's
        honour (any honour if the pon is all Whites)."""
        if chankan and not kokushi_only:
            for m in g.seats[from_seat].melds:
                if tile in m.tiles:
                    natural = {kind_of(g.codes[t]) for t in m.tiles} - {WHITE}
                    if self.ct.white_chankan_scope == "all_kakan" and natural and min(natural) < 27:
                        return False  # J12 read literally: only honour kakans may be robbed
                    if kind_of(g.codes[tile]) == WHITE and natural and not natural & set(g.seats[seat].waits):
                        return False
        return bool(Ruleset.can_ron(g.ruleset, g, seat, tile, from_seat, chankan=chankan, kokushi_only=kokushi_only))

    # -- scoring context and payments ------------------------------------------------------------

    def win_context(self, g: Game, seat: int, *, tsumo: bool, chankan: bool, from_seat: int) -> WinContext:
        """Base context with CT-D5 (no haitei on a nuki replacement) and CT-G6 (renhou)."""
        ctx = Ruleset.win_context(g.ruleset, g, seat, tsumo=tsumo, chankan=chankan, from_seat=from_seat)
        st = g.seats[seat]
        nuki_draw = tsumo and g.drawn in g.deal.rinshan
        renhou = (not tsumo) and not ctx.dealer and st.turns == 0 and g.calls_in_hand == 0
        return replace(ctx, haitei=ctx.haitei and not nuki_draw, renhou=renhou)

    def spec_options(self, g: Game, seat: int, *, tsumo: bool, chankan: bool, from_seat: int) -> dict[str, str]:
        """The scorer's extra flags: the game suit, the seat's extracted gari, open riichi and the
        +50 deal-in of a non-riichi discarder (CT-F2)."""
        st = g.seats[seat]
        out = {"suit": self.ct.suit}
        if st.kita:
            out["nuki"] = format_tiles(sorted(g.codes[t] for t in st.kita))
        if chankan and 0 <= from_seat != seat and g.kakan_tile >= 0 and kind_of(g.codes[g.kakan_tile]) == WHITE:
            for m in g.seats[from_seat].melds:  # CT-C5: a White robbed from a pon of H counts as H
                natural = {kind_of(g.codes[t]) for t in m.tiles} - {WHITE}
                if g.kakan_tile in m.tiles and len(natural) == 1:
                    out["robbed_as"] = KIND_NAMES[natural.pop()]
        if seat in self.open_riichi_seats(g):
            out["open_riichi"] = "1"
            if not tsumo and 0 <= from_seat != seat and not g.seats[from_seat].riichi:
                out["dealin"] = "1"
        return out

    def stick_value(self, g: Game) -> int:
        return self.ct.riichi_stick

    def penalty_payments(self, g: Game, seat: int) -> list[int]:
        """CT-H3: a chombo by ``seat`` pays ``ct.chombo_each`` to every other player (for an
        organiser's penalty command; the engine itself prevents every listed error)."""
        return chombo_payments(seat, g.players, self.ct.chombo_each)

    def payments(
        self, g: Game, seat: int, from_seat: int, res: ScoreResult, *, tsumo: bool, honba: int, sticks: int
    ) -> tuple[list[int], int]:
        """CT-A7/CT-G7/CT-G8: ron — the discarder pays the total; tsumo — each other seat pays it;
        honba adds 1 point per payer; the winner takes the deposits."""
        d = [0] * g.players
        total = res.points + honba
        payers = [s for s in range(g.players) if s != seat] if tsumo else [from_seat]
        for s in payers:
            d[s] -= total
            d[seat] += total
        d[seat] += self.ct.riichi_stick * sticks
        return d, -1

    # -- end of hand -----------------------------------------------------------------------------

    def draw_settlement(self, g: Game) -> tuple[str, list[int], list[int]]:
        """CT-G10 nagashi (200 from each), else CT-H1 noten penalty (40 to the table)."""
        n = g.players
        tenpai = [s for s in range(n) if g.ruleset.tenpai_at_draw(g, s)]
        nagashi = [s for s in range(n) if g.seats[s].nagashi and g.seats[s].river]
        if nagashi:
            return "nagashi_mangan", nagashi_payments(nagashi, n, self.ct.nagashi_each), tenpai
        return "exhaustive", noten_payments([s in tenpai for s in range(n)], self.ct.noten_total), tenpai

    def next_hand(self, g: Game, result: HandResult, *, renchan: bool, honba_next: int) -> None:
        """CT-A8/CT-H2/CT-G8/J23: the (closest) winner deals next, honba +1 on a dealer win or a
        draw, reset otherwise; a draw keeps a tenpai dealer, else the next seat deals. The
        prevailing wind stays East (CT-A1)."""
        dealer = g.dealer
        if result.wins:
            nxt = result.wins[0].seat
            honba = g.honba + 1 if nxt == dealer else 0
        elif result.kind == "nagashi_mangan" and self.ct.nagashi_passes_deal:
            got = [s for s in range(g.players) if result.deltas[s] > 0]
            nxt = sorted(got, key=lambda s: (s - dealer) % g.players)[0]
            honba = g.honba + 1 if nxt == dealer else 0
        elif result.kind not in ("exhaustive", "nagashi_mangan"):  # an abortive draw
            nxt = dealer
            honba = g.honba + 1
        else:
            nxt = dealer if dealer in result.tenpai else (dealer + 1) % g.players
            honba = g.honba + 1
        g.honba = honba
        g.hand_number = nxt
        g.round_wind = 0

    def game_ends(self, g: Game, result: HandResult, *, renchan: bool) -> bool:
        """CT-A12: one-hand settlements; a table plays ``ct.table_hands`` hands, or with a stack
        (``start_points`` > 0) until someone has 0 or less."""
        if self.ct.start_points > 0:
            return any(s <= 0 for s in g.scores)
        return len(g.results) >= self.ct.table_hands

    def final_results(self, g: Game, order: list[int]) -> tuple[float, ...]:
        return tuple(float(s) for s in g.scores)

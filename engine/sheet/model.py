"""The score sheet of a game played at a real table: entries (ron, tsumo, draw, chombo) → scores.

A club that plays with real tiles keeps only the hands' outcomes: who won, from whom, how much, who
declared riichi, who was tenpai at a draw. :class:`Sheet` turns such :class:`Entry` values, one
after another, into the running state a score keeper writes down (:class:`SheetState`: scores,
round, dealer, honba, riichi sticks, and per-seat tallies for the standings' statistics), by the
ruleset's own rules and numbers:

* points from han and fu with the engine's own tables (:func:`~engine.scoring.result.base_points`,
  R-10.1/R-10.2 with kiriage and kazoe as set; :func:`~engine.scoring.result.settle_at`, R-10.3 and
  R-10.4 with the options' honba values; the 3-player tsumo without North's share),
* riichi sticks: a declaration pays 1000 to the table (R-5.1); the next winner takes them all
  (R-10.5; with several rons the first winner after the discarder, with the honba, R-6.7); a draw
  leaves them (R-11.4); at the end they go to first place (R-2.9),
* draws: the options' noten payment split among the tenpai seats (R-11.1), honba +1, the dealer
  keeps the deal when tenpai (R-2.3, R-11.4),
* who deals next and when the game ends as the table does (``TableHooks.game_ends``: R-2.3 to R-2.6,
  bust, agari-yame, tenpai-yame, the West extension),
* several rons on one discard as ``multi_ron`` says (R-6.7),
* chombo as the ruleset's ``chombo`` option says: ``mangan`` (the offender pays a mangan as if each
  other seat had won by tsumo; the hand is played again: same dealer, same honba, the sticks stay),
  or ``penalty`` (EMA and WRC: nothing is paid at the table, ``chombo_penalty`` points come off the
  offender's final result).

Seats are 0..n-1 in the order of the first hand's winds: seat 0 is East (the first dealer), and
equal final scores rank by seat (R-2.8). Everything is a frozen value; :meth:`Sheet.apply` checks
an entry and refuses an impossible one with :class:`SheetError` (a reason code and the seats or
numbers it names, for a client to word in its reader's language), changing nothing.

Limits: pao is not entered (a liability payment is not split); an abortive draw is entered as
such (R-12), whatever its kind, and a nagashi mangan with its draw (R-11.3); the 3-player tsumo is always played without North's share
(``tsumo_loss``, Tenhou sanma; a 3-player ruleset without it is not for a sheet); variants whose hand-end rules are not riichi's (taiwan16,
chinitsu_toutenkou) and pk's han table cannot be kept on a sheet (:func:`sheet_ready`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from engine.notation import WINDS, parse_hand
from engine.rules.base import Ruleset
from engine.rules.options import RiichiOptions
from engine.scoring.result import WIND_LETTERS, base_points, settle_at
from engine.table.hooks import TableHooks
from engine.tiles import NotationError

#: fu a hand can have: 20 (pinfu tsumo), 25 (seven pairs), 30..110 in tens (R-9)
FU_VALUES = (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110)
YAKUMAN_HAN = 13  # a yakuman is entered as 13 han (26: a double yakuman)
STICK = 1000


class SheetRefusal(StrEnum):
    """Why an entry was refused; the value is the stable code."""

    GAME_OVER = "game_over"  # the game is over
    NO_SUCH_SEAT = "no_such_seat"  # {seat}
    RON_ON_SELF = "ron_on_self"  # {seat}
    SEAT_TWICE = "seat_twice"  # {seat}
    BAD_HAN = "bad_han"  # {han}
    BAD_FU = "bad_fu"  # {fu}
    IMPOSSIBLE_HAN_FU = "impossible_han_fu"  # {han} {fu}, by ron or tsumo ({tsumo})
    NO_DOUBLE_YAKUMAN = "no_double_yakuman"  # {han}
    HEAD_BUMP = "head_bump"  # only one ron per discard
    NO_TRIPLE_RON = "no_triple_ron"  # three rons: an abortive draw
    NO_WINNER = "no_winner"
    RIICHI_NO_POINTS = "riichi_no_points"  # {seat} below 1000 points
    RIICHI_NOT_TENPAI = "riichi_not_tenpai"  # {seat}
    NO_ABORTIVE_DRAW = "no_abortive_draw"  # the rules have no abortive draw
    NO_NAGASHI = "no_nagashi"  # the rules have no nagashi mangan
    HAND_UNREADABLE = "hand_unreadable"  # {error}
    HAND_NOT_A_WIN = "hand_not_a_win"  # {why}: no_yaku or not_a_winning_hand
    HAND_WRONG_WAY = "hand_wrong_way"  # the hand says tsumo for a ron, or the other way
    NOT_FOR_SHEET = "not_for_sheet"  # {ruleset}


class SheetError(ValueError):
    """An entry refused: ``str(e)`` is one English sentence, ``reason`` the code, ``fields`` what
    it names (``seat`` as a seat number, ``han``, ``fu``, ...)."""

    def __init__(self, message: str, *, reason: SheetRefusal, **fields: Any) -> None:
        super().__init__(message)
        self.reason = reason
        self.fields: dict[str, Any] = fields


class EntryKind(StrEnum):
    RON = "ron"
    TSUMO = "tsumo"
    DRAW = "draw"
    CHOMBO = "chombo"


@dataclass(frozen=True, slots=True, kw_only=True)
class Win:
    """One winner's hand: its seat, han (13 per yakuman) and fu (unused from 5 han on)."""

    seat: int
    han: int
    fu: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Entry:
    """One line of the sheet. ``wins``: the winners (a ron may have several, R-6.7); ``loser``: the
    discarder of a ron; ``riichi``: the seats that declared riichi in this hand; ``tenpai``: the
    seats tenpai at a draw; ``player``: the offender of a chombo; ``abortive``: the draw is an
    abortive one (R-12: no payments, honba +1, the dealer continues, the sticks stay); ``nagashi``:
    the seats with a nagashi mangan at this draw (R-11.3)."""

    kind: EntryKind
    wins: tuple[Win, ...] = ()
    loser: int | None = None
    riichi: tuple[int, ...] = ()
    tenpai: tuple[int, ...] = ()
    player: int | None = None
    abortive: bool = False
    nagashi: tuple[int, ...] = ()  # the seats paid a nagashi mangan at this draw

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value}
        if self.wins:
            out["wins"] = [[w.seat, w.han, w.fu] for w in self.wins]
        if self.loser is not None:
            out["loser"] = self.loser
        if self.riichi:
            out["riichi"] = list(self.riichi)
        if self.tenpai:
            out["tenpai"] = list(self.tenpai)
        if self.player is not None:
            out["player"] = self.player
        if self.abortive:
            out["abortive"] = True
        if self.nagashi:
            out["nagashi"] = list(self.nagashi)
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Entry:
        """The entry :meth:`to_json` wrote; ValueError on anything else."""
        try:
            return cls(
                kind=EntryKind(d["kind"]),
                wins=tuple(Win(seat=int(s), han=int(h), fu=int(f)) for s, h, f in d.get("wins", ())),
                loser=None if d.get("loser") is None else int(d["loser"]),
                riichi=tuple(int(s) for s in d.get("riichi", ())),
                tenpai=tuple(int(s) for s in d.get("tenpai", ())),
                player=None if d.get("player") is None else int(d["player"]),
                abortive=bool(d.get("abortive", False)),
                nagashi=tuple(int(x) for x in d.get("nagashi", ())),
            )
        except (KeyError, TypeError) as e:
            raise ValueError(f"not a sheet entry: {e}") from None


@dataclass(frozen=True, slots=True)
class SeatTally:
    """A seat's hand statistics (as the standings count a bot game's): hands played, wins, hands
    dealt into (a double ron counts once), riichi declared, the hand values won and dealt into
    (without honba and sticks), and the seat's draws (hands drawn), tenpai at a draw and chombo."""

    hands: int = 0
    wins: int = 0
    deal_ins: int = 0
    riichi: int = 0
    win_points: int = 0
    deal_in_points: int = 0
    draws: int = 0
    tenpai: int = 0
    chombo: int = 0


@dataclass(frozen=True, slots=True)
class SheetState:
    """The sheet after its entries: scores by seat, the round wind (0 East, 1 South, ...), the
    dealer's seat, honba, riichi sticks on the table, hands played, whether the game is over, and
    each seat's tally."""

    scores: tuple[int, ...]
    round_wind: int = 0
    dealer: int = 0
    honba: int = 0
    sticks: int = 0
    hands: int = 0
    over: bool = False
    tally: tuple[SeatTally, ...] = ()

    @property
    def players(self) -> int:
        return len(self.scores)

    def wind_of(self, seat: int) -> int:
        """The seat's wind this hand (0 East = the dealer), R-2.1."""
        return (seat - self.dealer) % self.players

    def round_name(self) -> str:
        """``E1``, ``S3``, ``W2``: the round wind's letter and the hand of the round."""
        return f"{WINDS[self.round_wind % 4]}{self.dealer + 1}"


@dataclass(frozen=True, slots=True)
class WinValue:
    """A settled win: the seat, the hand's value (without honba and sticks), its limit name."""

    seat: int
    han: int
    fu: int
    points: int
    limit: str


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one entry changed: each seat's score change (riichi deposits included), the wins, the
    honba and sticks the first winner took, the riichi deposits paid, and the state after."""

    entry: Entry
    deltas: tuple[int, ...]
    wins: tuple[WinValue, ...]
    honba: int
    sticks_taken: int
    deposits: tuple[int, ...]
    renchan: bool
    state: SheetState


@dataclass(frozen=True, slots=True)
class Final:
    """The end of a sheet: scores with leftover sticks given to first (R-2.9), places (1 = first),
    results after return points, uma and oka (R-2.7) less chombo penalties, and the sticks."""

    scores: tuple[int, ...]
    places: tuple[int, ...]
    results: tuple[float, ...]
    penalties: tuple[int, ...]  # points of chombo penalty per seat
    leftover: int  # sticks left on the table before they went to first


def sheet_ready(rs: Ruleset) -> bool:
    """Whether a game of ``rs`` can be kept on a sheet: a riichi hand value from han and fu on
    riichi's limits, and riichi's hand-end rules (payments, draws, rotation, game end)."""
    kind = type(rs)
    hooks = ("win_base", "payments", "draw_settlement", "draw_renchan", "next_hand", "game_ends", "final_results", "stick_value")
    same = all(getattr(kind, h) is getattr(TableHooks, h) for h in hooks)
    # three players: the tsumo is settled without North's share (tsumo_loss, Tenhou sanma), the only 3-player tsumo the scorer pays
    sanma_ok = rs.players == 4 or (rs.players == 3 and rs.options.tsumo_loss)
    return same and rs.hand_value == "han_fu" and rs.riichi_stick and sanma_ok


def _refuse(message: str, reason: SheetRefusal, **fields: Any) -> SheetError:
    return SheetError(message, reason=reason, **fields)


class Sheet:
    """The rules of one sheet: its ruleset (with the options it was started with)."""

    def __init__(self, rs: Ruleset) -> None:
        if not sheet_ready(rs):
            raise _refuse(f"a game of {rs.name} cannot be kept on a score sheet", SheetRefusal.NOT_FOR_SHEET, ruleset=rs.name)
        self.rs = rs
        self.opts: RiichiOptions = rs.options
        self.n = rs.players

    # ------------------------------------------------------------------ state

    def start(self) -> SheetState:
        n = self.n
        return SheetState(scores=(self.opts.start_points,) * n, tally=(SeatTally(),) * n)

    def replay(self, entries: list[Entry]) -> tuple[SheetState, list[Outcome]]:
        """The state after ``entries`` from the start, and each entry's outcome (SheetError if one
        of them is refused)."""
        state = self.start()
        out = []
        for e in entries:
            o = self.apply(state, e)
            out.append(o)
            state = o.state
        return state, out

    # ------------------------------------------------------------------ checks

    def _seat(self, seat: int | None) -> int:
        if seat is None or not 0 <= seat < self.n:
            raise _refuse(f"there is no seat {seat}", SheetRefusal.NO_SUCH_SEAT, seat=seat)
        return seat

    def _distinct(self, seats: tuple[int, ...]) -> None:
        seen: set[int] = set()
        for s in seats:
            self._seat(s)
            if s in seen:
                raise _refuse(f"seat {s} is named twice", SheetRefusal.SEAT_TWICE, seat=s)
            seen.add(s)

    def check_value(self, han: int, fu: int, *, tsumo: bool) -> int:
        """The yakuman count of a han/fu entry (0 for an ordinary hand); SheetError for a value no
        hand can have (R-9, R-10): han from 1, 13 per yakuman; fu 20, 25 or 30-110 in tens below 5
        han; 20 fu only by tsumo with 2 han or more (pinfu tsumo), 25 fu only for seven pairs (2 han
        by ron, 3 by tsumo)."""
        if han < 1 or han > 6 * YAKUMAN_HAN:
            raise _refuse(f"{han} han is not a hand's value", SheetRefusal.BAD_HAN, han=han)
        if han >= YAKUMAN_HAN:
            k = han // YAKUMAN_HAN
            if k > 1 and not (self.opts.yakuman_stacking or self.opts.double_yakuman):
                raise _refuse("these rules count no double yakuman", SheetRefusal.NO_DOUBLE_YAKUMAN, han=han)
            return k
        if han >= 5:
            return 0
        if fu not in FU_VALUES:
            raise _refuse(f"{fu} fu is not possible", SheetRefusal.BAD_FU, fu=fu)
        if (fu == 20 and (not tsumo or han < 2)) or (fu == 25 and han < (3 if tsumo else 2)):
            raise _refuse(f"{han} han {fu} fu cannot be won that way", SheetRefusal.IMPOSSIBLE_HAN_FU, han=han, fu=fu, tsumo=tsumo)
        return 0

    def _riichi(self, state: SheetState, riichi: tuple[int, ...]) -> None:
        self._distinct(riichi)
        for s in riichi:
            if state.scores[s] < STICK:  # a declaration needs 1000 points to pay
                raise _refuse(f"seat {s} has too few points to declare riichi", SheetRefusal.RIICHI_NO_POINTS, seat=s)

    # ------------------------------------------------------------------ entries

    def apply(self, state: SheetState, e: Entry) -> Outcome:
        """The outcome of ``e`` on ``state`` (SheetError, nothing changed, when it is impossible)."""
        if state.over:
            raise _refuse("the game is over", SheetRefusal.GAME_OVER)
        if e.kind is EntryKind.CHOMBO:
            return self._chombo(state, self._seat(e.player), e)
        self._riichi(state, e.riichi)
        if e.kind is EntryKind.DRAW:
            return self._draw(state, e)
        return self._win(state, e)

    def _win(self, state: SheetState, e: Entry) -> Outcome:
        n = self.n
        tsumo = e.kind is EntryKind.TSUMO
        if not e.wins:
            raise _refuse("a win needs a winner", SheetRefusal.NO_WINNER)
        self._distinct(tuple(w.seat for w in e.wins))
        wins = list(e.wins)
        if tsumo:
            if len(wins) > 1:
                raise _refuse("only one player wins by tsumo", SheetRefusal.SEAT_TWICE, seat=wins[1].seat)
            loser = None
        else:
            loser = self._seat(e.loser)
            for w in wins:
                if w.seat == loser:
                    raise _refuse(f"seat {loser} cannot ron their own discard", SheetRefusal.RON_ON_SELF, seat=loser)
            if len(wins) > 1 and self.opts.multi_ron == "head_bump":
                raise _refuse("only the first player after the discarder wins (head bump)", SheetRefusal.HEAD_BUMP)
            if len(wins) > 2 and self.opts.multi_ron != "triple":
                raise _refuse("three rons on one discard are an abortive draw", SheetRefusal.NO_TRIPLE_RON)
            wins.sort(key=lambda w: (w.seat - loser) % n)  # the first after the discarder first
        yakuman = [self.check_value(w.han, w.fu, tsumo=tsumo) for w in wins]
        scores = list(state.scores)
        deposits = [0] * n
        for s in e.riichi:
            deposits[s] -= STICK
        sticks = state.sticks + len(e.riichi)
        deltas = list(deposits)
        values = []
        for i, (w, k) in enumerate(zip(wins, yakuman)):
            base, limit = base_points(w.han, w.fu, k, self.opts)
            honba = state.honba if i == 0 else 0
            taken = sticks if i == 0 else 0
            discarder = None if loser is None else state.wind_of(loser)
            value, pay = settle_at(base, state.wind_of(w.seat), tsumo, discarder, honba, taken, self.opts)
            for s in range(n):
                deltas[s] += pay.get(WIND_LETTERS[state.wind_of(s)], 0)
            values.append(WinValue(w.seat, w.han, w.fu if not k and w.han < 5 else 0, value, limit))
        for s in range(n):
            scores[s] += deltas[s]
        dealer_won = any(w.seat == state.dealer for w in wins)
        tally = list(state.tally)
        for s in range(n):
            t = tally[s]
            t = replace(t, hands=t.hands + 1, riichi=t.riichi + (s in e.riichi))
            tally[s] = t
        for v in values:
            t = tally[v.seat]
            tally[v.seat] = replace(t, wins=t.wins + 1, win_points=t.win_points + v.points)
        if loser is not None:
            t = tally[loser]
            tally[loser] = replace(t, deal_ins=t.deal_ins + 1, deal_in_points=t.deal_in_points + sum(v.points for v in values))
        after = replace(state, scores=tuple(scores), sticks=0, tally=tuple(tally), hands=state.hands + 1)
        after = self._next(after, renchan=dealer_won, honba_next=state.honba + 1 if dealer_won else 0, dealer_won=dealer_won, dealer_tenpai=False)
        return Outcome(e, tuple(deltas), tuple(values), state.honba, sticks, tuple(deposits), dealer_won, after)

    def _draw(self, state: SheetState, e: Entry) -> Outcome:
        n = self.n
        self._distinct(e.tenpai)
        if e.abortive:
            return self._abortive(state, e)
        for s in e.riichi:
            if s not in e.tenpai:  # a riichi hand is tenpai; a noten riichi is a chombo
                raise _refuse(f"seat {s} declared riichi, so must be tenpai at the draw", SheetRefusal.RIICHI_NOT_TENPAI, seat=s)
        deltas = [0] * n
        deposits = [0] * n
        for s in e.riichi:
            deposits[s] -= STICK
            deltas[s] -= STICK
        tenpai = set(e.tenpai)
        self._distinct(e.nagashi)
        if e.nagashi and not self.opts.nagashi_mangan:
            raise _refuse("these rules have no nagashi mangan", SheetRefusal.NO_NAGASHI)
        for s in e.nagashi:  # paid as a mangan tsumo, no honba; then no tenpai payments
            for o in range(n):
                if o != s:
                    amount = 4000 if state.dealer in (s, o) else 2000
                    deltas[o] -= amount
                    deltas[s] += amount
        if not e.nagashi and 0 < len(tenpai) < n:  # noten_total from the noten seats to the tenpai seats
            total = self.opts.noten_total
            for s in range(n):
                deltas[s] += total // len(tenpai) if s in tenpai else -(total // (n - len(tenpai)))
        tally = list(state.tally)
        for s in range(n):
            t = tally[s]
            tally[s] = replace(t, hands=t.hands + 1, draws=t.draws + 1, tenpai=t.tenpai + (s in tenpai), riichi=t.riichi + (s in e.riichi))
        scores = tuple(a + d for a, d in zip(state.scores, deltas))
        after = replace(state, scores=scores, sticks=state.sticks + len(e.riichi), tally=tuple(tally), hands=state.hands + 1)
        renchan = state.dealer in tenpai
        after = self._next(after, renchan=renchan, honba_next=state.honba + 1, dealer_won=False, dealer_tenpai=renchan)
        return Outcome(e, tuple(deltas), (), 0, 0, tuple(deposits), renchan, after)

    def _abortive(self, state: SheetState, e: Entry) -> Outcome:
        """R-12: no payments, honba +1, the dealer continues, the sticks stay (and this hand's
        declarations add theirs); only where the rules have an abortive draw at all."""
        kinds = self.opts.abortive_draws
        if not any(getattr(kinds, k) for k in ("kyuushu_kyuuhai", "suufon_renda", "suucha_riichi", "suukaikan", "sanchahou")):
            raise _refuse("these rules have no abortive draw", SheetRefusal.NO_ABORTIVE_DRAW)
        n = self.n
        deposits = tuple(-STICK if s in e.riichi else 0 for s in range(n))
        tally = tuple(
            replace(t, hands=t.hands + 1, draws=t.draws + 1, riichi=t.riichi + (s in e.riichi)) for s, t in enumerate(state.tally)
        )
        scores = tuple(a + d for a, d in zip(state.scores, deposits))
        after = replace(state, scores=scores, sticks=state.sticks + len(e.riichi), tally=tally, hands=state.hands + 1)
        after = self._next(after, renchan=True, honba_next=state.honba + 1, dealer_won=False, dealer_tenpai=False)
        return Outcome(e, deposits, (), 0, 0, deposits, True, after)

    def _chombo(self, state: SheetState, seat: int, e: Entry) -> Outcome:
        n = self.n
        deltas = [0] * n
        if self.opts.chombo == "mangan":
            # a mangan paid as if each other seat had won it by tsumo: 4000 to or from the dealer,
            # 2000 between non-dealers (R-10.3's mangan tsumo shares, B = 2000)
            for s in range(n):
                if s != seat:
                    amount = 4000 if state.dealer in (s, seat) else 2000
                    deltas[s] += amount
                    deltas[seat] -= amount
        t = state.tally[seat]
        tally = list(state.tally)
        tally[seat] = replace(t, chombo=t.chombo + 1)
        scores = tuple(a + d for a, d in zip(state.scores, deltas))
        after = replace(state, scores=scores, tally=tuple(tally))
        if self.opts.tobi and min(scores) < 0:  # after any settlement
            after = replace(after, over=True)
        return Outcome(e, tuple(deltas), (), 0, 0, (0,) * n, True, after)

    # ------------------------------------------------------------------ rotation and the end

    def _next(self, s: SheetState, *, renchan: bool, honba_next: int, dealer_won: bool, dealer_tenpai: bool) -> SheetState:
        """The state for the next hand, or the game over (as ``TableHooks.game_ends`` and
        ``next_hand`` decide for a bot table)."""
        if self.ends(s, renchan=renchan, dealer_won=dealer_won, dealer_tenpai=dealer_tenpai):
            return replace(s, over=True)
        if renchan:
            return replace(s, honba=honba_next)
        dealer, wind = s.dealer + 1, s.round_wind
        if dealer == self.n:
            dealer, wind = 0, wind + 1
        return replace(s, honba=honba_next, dealer=dealer, round_wind=wind)

    def ends(self, s: SheetState, *, renchan: bool, dealer_won: bool, dealer_tenpai: bool) -> bool:
        """Does the game end after the hand that left ``s`` (R-2.4 to R-2.6)? Bust; in all-last, a
        passing deal ends it, a dealer repeat only by agari-yame (the dealer won and is alone on
        top) or tenpai-yame; the West extension while nobody has the return points."""
        opts, n, scores = self.opts, self.n, s.scores
        length = 2 if opts.hanchan else 1
        if opts.tobi and any(x < 0 for x in scores):
            return True
        top = max(scores)
        extension = s.round_wind >= length
        all_last = s.round_wind == length - 1 and s.dealer == n - 1
        if extension and top >= opts.return_points and not opts.extension_renchan_continues:
            return True
        if not (extension or all_last):
            return False
        if renchan:
            stop = (opts.agari_yame and dealer_won) or (opts.tenpai_yame and dealer_tenpai)
            return (
                stop
                and scores[s.dealer] == top
                and scores.count(top) == 1
                and (not opts.west_extension or scores[s.dealer] >= opts.return_points)
            )
        if not opts.west_extension or top >= opts.return_points:
            return True
        return extension and s.dealer == n - 1

    def final(self, s: SheetState) -> Final:
        """The final scores and results of the sheet as it stands (R-2.7 to R-2.9), each chombo
        under ``chombo: penalty`` taking ``chombo_penalty`` off the offender's result."""
        opts, n = self.opts, self.n
        order = sorted(range(n), key=lambda x: (-s.scores[x], x))
        scores = list(s.scores)
        scores[order[0]] += STICK * s.sticks
        oka = (opts.return_points - opts.start_points) * n / 1000
        places = [0] * n
        results = [0.0] * n
        penalties = [0] * n
        for place, seat in enumerate(order):
            places[seat] = place + 1
            if opts.chombo == "penalty":
                penalties[seat] = opts.chombo_penalty * s.tally[seat].chombo
            r = (scores[seat] - opts.return_points) / 1000 + opts.uma[place] + (oka if place == 0 else 0)
            results[seat] = round(r - penalties[seat] / 1000, 1)
        return Final(tuple(scores), tuple(places), tuple(results), tuple(penalties), s.sticks)


def score_hand(rs: Ruleset, text: str, state: SheetState, seat: int, *, tsumo: bool, discarder: int | None = None) -> Win:
    """The han and fu of a hand written in the hand grammar (``123m456p789s1122z ron 2z riichi``),
    scored by the ruleset as won by ``seat`` in the sheet's current hand (its seat wind, the round
    wind, the players); a yakuman as 13 han per yakuman. SheetError when the hand cannot be read,
    does not win, or says tsumo for a ron (or the other way)."""
    try:
        spec = parse_hand(text)
    except NotationError as err:
        raise _refuse(str(err), SheetRefusal.HAND_UNREADABLE, error=str(err)) from None
    if spec.ctx.tsumo != tsumo:
        raise _refuse("the hand is written as won the other way", SheetRefusal.HAND_WRONG_WAY, tsumo=tsumo)
    ctx = replace(
        spec.ctx,
        seat_wind=state.wind_of(seat),
        round_wind=state.round_wind % 4,
        players=state.players,
        discarder=None if discarder is None else state.wind_of(discarder),
        honba=0,
        sticks=0,
    )
    res = rs.score(replace(spec, ctx=ctx, ruleset=rs.name))
    if not res.agari:
        raise _refuse(f"the hand does not win ({res.reason})", SheetRefusal.HAND_NOT_A_WIN, why=res.reason)
    if res.yakuman:
        return Win(seat=seat, han=YAKUMAN_HAN * res.yakuman, fu=0)
    if res.han >= YAKUMAN_HAN:  # counted 13 han: a yakuman on the sheet only where kazoe is one
        return Win(seat=seat, han=YAKUMAN_HAN if rs.options.kazoe == "yakuman" else YAKUMAN_HAN - 1, fu=0)
    return Win(seat=seat, han=res.han, fu=res.fu)

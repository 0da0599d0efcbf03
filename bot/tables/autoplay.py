"""The moves nobody clicks: AI seats, the players' standing orders (auto-win, auto-pass,
auto-tsumogiri), the turn clock's default move, and the seats played by outside mjai programs.

:meth:`Autoplay.play_until_human` plays the built-in AI seats and standing orders on a game up to
the next human decision (or the end of the game). A seat played by an mjai program is not played
there: :meth:`Autoplay.ask` asks its program with the table unlocked (a program may think up to the
turn time, and the other players' clicks are answered meanwhile), one question per seat at a time;
its answer is checked against the decision it was asked about and played under the lock by
:meth:`bot.tables.acting.Acting.programs_move`.

Limits: decides moves and applies them to the game in memory only; storing them, rolling back on a
failure and telling the listeners is :mod:`bot.tables.acting`'s job. No storage, no Discord types.
"""

from __future__ import annotations

import asyncio
import logging
import random

from bot.ai.mjai_seat import MjaiSeats, is_mjai, program_of
from bot.ai.policy import POLICIES
from bot.tables.model import Table, TableError, quoted
from engine.table.actions import Action, ActionType
from engine.table.game import Game, Phase

log = logging.getLogger(__name__)
A = ActionType

#: moves the AI seats and standing orders may make without a human decision before the engine is
#: taken to be stuck (a whole taiwan16 game of four AI seats takes a few thousand)
MAX_AUTO_STEPS = 50_000


def auto_action(g: Game, seat: int) -> Action:
    """The move the turn clock makes for a seat that did not act: pass a call (in seigou's claim
    window pass = draw), discard the drawn tile, else the first legal discard."""
    legal = list(g.legal_actions(seat))
    if g.phase is not Phase.TURN:  # a call window; in seigou's claim window, pass = draw
        return Action(A.PASS, seat) if Action(A.PASS, seat) in legal else legal[0]
    if g.drawn >= 0:
        tsumogiri = Action(A.DISCARD, seat, g.code(g.drawn))
        if tsumogiri in g.legal_actions(seat):
            return tsumogiri
    return next((a for a in legal if a.type is A.DISCARD), legal[0])


def standing_order(t: Table, g: Game, seat: int) -> Action | None:
    """A human's standing orders: auto-win, auto-pass (no calls), auto-tsumogiri."""
    s = t.seats[seat]
    legal = list(g.legal_actions(seat))
    if len(legal) == 1 and legal[0].type in (A.TSUMO, A.RON):
        return legal[0]  # a win the rules make compulsory (chinitsu_toutenkou CT-F1, CT-C2)
    if s.auto_win:
        for a in legal:
            if a.type in (A.TSUMO, A.RON):
                return a
    if g.phase is not Phase.TURN:
        # auto-pass declines calls and claims (seigou: pass = draw), never taiwan16's last tile
        if s.auto_pass and not any(a.type in (A.RON, A.DRAW) for a in legal):
            return Action(A.PASS, seat)
        return None
    if s.auto_tsumogiri and g.drawn >= 0 and not g.after_call:
        if not any(a.type in (A.TSUMO, A.RIICHI, A.ANKAN, A.KAKAN, A.KITA) for a in legal):
            return Action(A.DISCARD, seat, g.code(g.drawn))
    if (
        g.seats[seat].riichi
        and g.drawn >= 0
        and all(a.type is A.DISCARD for a in legal)
        and len(legal) == 1
    ):
        return legal[0]  # riichi: the only move is the drawn tile
    return None


class Autoplay:
    def __init__(self, *, ai_delay: float = 0.0, mjai_bots: dict[str, tuple[str, ...]] | None = None) -> None:
        #: the seats played by outside mjai programs (bot.ai.mjai_seat), and the programs listed
        self.mjai = MjaiSeats(mjai_bots)
        self.ai_delay = ai_delay
        self._asking: set[tuple[int, int]] = set()  # (table, seat) whose mjai program is being asked

    def kinds(self) -> list[str]:
        """The AI kinds ``/table add-ai kind:`` offers: the built-in ones, then the listed mjai programs."""
        return [*POLICIES, *self.mjai.kinds()]

    def kind(self, kind: str | None) -> str:
        """The stored kind ``kind`` names (a listed program also by its bare name); TableError if none."""
        key = (kind or "smart").strip()
        if key in POLICIES or (is_mjai(key) and program_of(key) in self.mjai.programs):
            return key
        if key in self.mjai.programs:
            return "mjai:" + key
        raise TableError("there is no AI called {given}: choose one of {choices}", given=quoted(key), choices=", ".join(self.kinds()))

    async def play_until_human(self, t: Table, g: Game, accepted: list[Action]) -> None:
        """Play the AI seats and standing orders on ``g`` up to the next human decision (or a seat
        whose mjai program is to be asked), appending each move to ``accepted``. Raises whatever
        the engine or a policy raises (the caller puts the game back to what storage holds)."""
        rng = random.Random(f"{t.row.seed}:{len(g.actions)}")
        steps = 0
        while not g.over:
            acting = g.to_act()
            moved = False
            for seat in acting:
                s = t.seats[seat]
                if s.ai is not None:
                    if is_mjai(s.ai) and self.mjai.plays(t.id, seat, s.ai, g):
                        continue  # its program is asked with the table unlocked (Acting.programs_move)
                    a = POLICIES.get(s.ai, POLICIES["smart"])(g, seat, rng)
                else:
                    auto = standing_order(t, g, seat)
                    if auto is None:
                        continue
                    a = auto
                g.apply(a)
                accepted.append(a)
                moved = True
                break
            if not moved:
                break
            steps += 1
            if steps > MAX_AUTO_STEPS:
                raise RuntimeError(f"no human decision and no end of the game after {MAX_AUTO_STEPS} moves")
            if self.ai_delay and steps % 4 == 0:
                await asyncio.sleep(self.ai_delay)
            elif steps % 64 == 0:  # a game played out by AI seats (a league deadline) lets others in
                await asyncio.sleep(0)

    def due(self, t: Table) -> tuple[Game, int, int] | None:
        """The game, seat and decision serial of a move an mjai program is to make now, if any."""
        g = t.game
        if g is None or g.over or t.row.status != "playing":
            return None
        for seat in g.to_act():
            kind = t.seats[seat].ai
            if kind is not None and is_mjai(kind) and self.mjai.plays(t.id, seat, kind, g):
                return g, seat, t.decision_serial()
        return None

    async def ask(self, t: Table, g: Game, seat: int) -> tuple[Action | None, list[str]] | None:
        """Ask the seat's mjai program for its move (the table unlocked): the move (its auto
        action on a fault; None when the built-in AI is to play it: the program fell back or is no
        longer listed) and the sentences for the channel. None when another request is asking this
        seat already. Cancelled, the program is closed: its answer would land on the next question."""
        if (t.id, seat) in self._asking:
            return None
        self._asking.add((t.id, seat))
        notices: list[str] = []
        try:
            kind = t.seats[seat].ai
            assert kind is not None
            d = await self.mjai.decide(
                t.id,
                seat,
                kind,
                g,
                ruleset=g.ruleset,
                seed=t.row.seed,
                names=[s.name for s in t.seats],
                turn_seconds=float(t.row.turn_seconds),
                auto=lambda: auto_action(g, seat),
            )
        except asyncio.CancelledError:
            asked = self.mjai.seat(t.id, seat)
            if asked is not None:
                await asyncio.shield(asked.close())
            raise
        finally:
            self._asking.discard((t.id, seat))
        if d is None:
            return None, notices
        if d.notice:
            notices.append(d.notice)
        return d.action, notices

    def checked(self, t: Table, g: Game, seat: int, a: Action | None) -> Action:
        """The move to play for a program's answer, asked of this same decision but never trusted:
        the built-in AI's when there is none, the auto action when it is not legal."""
        if a is None:  # the program fell back or is no longer listed
            return POLICIES["smart"](g, seat, random.Random(f"{t.row.seed}:{len(g.actions)}"))
        if a not in g.legal_actions(seat):
            return auto_action(g, seat)
        return a

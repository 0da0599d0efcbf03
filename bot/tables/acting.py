"""Acting on a table: the one place a move is validated, stored, and only then kept.

Every move goes through here under the table's lock: a human's click and the turn clock's
default move through :meth:`Acting.act`, the start of a game and a restart through
:meth:`Acting.advance`, an mjai program's answer through :meth:`Acting.programs_move`. The engine
validates the move (``Game.play``), the AI seats and standing orders play up to the next human
decision (:mod:`bot.tables.autoplay`), the accepted moves are appended to the action log in one
transaction together with the re-armed turn clock, and only then are the listeners told
(:class:`~bot.tables.model.Events`).

Nothing is applied that is not stored: if the database refuses the write (read-only, disk full),
the game is replayed back to the stored log and :class:`~bot.tables.model.StorageError` says so in
one sentence; the listeners hear nothing. An engine failure is handled the same way
(:class:`~bot.tables.model.EngineFault`).

Limits: opening, joining, starting and closing tables is :mod:`bot.tables.lifecycle`'s; finding
and rebuilding tables is :mod:`bot.tables.restore`'s. No Discord types.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from typing import Any

from bot.storage.repository import Repository, TableRow, record_bot_game
from bot.tables.autoplay import Autoplay
from bot.tables.clocks import spend_bank, turn_clock
from bot.tables.model import (
    ENGINE_FAILED,
    SAVE_FAILED,
    EngineFault,
    Events,
    StorageError,
    Table,
    TableError,
    Update,
)
from bot.tables.refusals import refusal
from bot.tables.restore import Restore
from bot.tables.rules import table_ruleset
from engine.table.actions import Action
from engine.table.game import Game, IllegalActionError

log = logging.getLogger(__name__)


def new_game(row: TableRow) -> Game:
    """The stored table's game as dealt from its seed, before any move."""
    return Game(table_ruleset(row), row.seed)


def replayed(row: TableRow, actions: list[Action]) -> Game:
    """A fresh game with ``actions`` (already validated once) applied."""
    g = new_game(row)
    for a in actions:
        g.apply(a)
    return g


def finished_game(t: Table) -> dict[str, Any]:
    """The standings' record of the table's game, which has just ended (stored with its last moves)."""
    g = t.game
    assert g is not None
    order = g.ranking()
    players = []
    for place, seat in enumerate(order):
        s = t.seats[seat]
        players.append(
            {
                "seat": seat,
                "user_id": s.user_id,
                "name": s.name,
                "points": g.final_scores[seat],
                "place": place + 1,
                "result": g.final_results[seat],
            }
        )
    return {
        "guild_id": t.row.guild_id,
        "ruleset": t.row.ruleset,
        "options": dict(t.row.options),
        "players": players,
        "data": {"seed": t.row.seed},
    }


class Acting:
    def __init__(self, repo: Repository, restore: Restore, autoplay: Autoplay, events: Events) -> None:
        self._repo = repo
        self._restore = restore
        self._autoplay = autoplay
        self._events = events
        #: writes a finished game's record as the last step of the write of its last move,
        #: ``(conn, table_id, game) -> game id``: the game row alone here; the bot's is the standings'
        #: (StandingsService.record_finished, wired in client.py)
        self.record_game: Callable[[Any, int, dict[str, Any]], object] = record_bot_game

    async def act(
        self, table_id: int, user_id: int | None, action_text: str, serial: int, *, expired: bool = False
    ) -> Update:
        """A human's (or the timer's, with ``user_id=None`` and ``expired``) action, validated by
        the engine. Returns once the actions are stored; the listeners are told after that."""
        t = await self._restore.get(table_id)
        async with t.lock:
            g = t.game
            if t.row.status != "playing" or g is None or g.over:
                raise TableError("that game is over")
            if serial != t.decision_serial():
                raise TableError("that turn has passed")
            try:
                action = Action.parse(action_text)
            except ValueError:
                raise TableError("that button is not an action I know") from None
            if user_id is not None:
                seat = t.seat_of(user_id)
                if seat is None:
                    raise TableError("you are not seated at this table")
                if seat != action.seat:
                    raise TableError("that is another player's hand")
            hands_before = len(g.results)
            banks = [s.bank_left for s in t.seats]
            before = list(g.actions)
            try:
                g.play(action)
            except IllegalActionError as e:
                raise refusal(e, action) from None
            except Exception:
                log.exception("table %s: the engine failed on %s", t.id, action.text)
                t.game = replayed(t.row, before)
                raise EngineFault(ENGINE_FAILED) from None
            if user_id is not None:
                spend_bank(t, action.seat)
            try:
                update = await self.advance(t, [action], user_id, hands_before)
            except StorageError:
                for s, bank in zip(t.seats, banks, strict=True):
                    s.bank_left = bank
                raise
            update.expired = expired
        await self._events.emit(update)
        return await self.programs_move(t, update)

    async def advance(
        self,
        t: Table,
        accepted: list[Action],
        user_id: int | None,
        hands_before: int | None = None,
        *,
        fields: dict[str, Any] | None = None,
    ) -> Update:
        """Play AI seats and standing orders up to the next human decision, then persist (the
        caller holds the table's lock and has applied ``accepted`` to the game).

        If storing fails, the game is put back to what storage holds (the actions before
        ``accepted``) and :class:`StorageError` is raised: nothing is applied that is not stored."""
        g = t.game
        assert g is not None
        first_serial = len(g.actions) - len(accepted)
        status, prompt_at = t.row.status, t.prompt_at
        if hands_before is None:
            hands_before = len(g.results)
        try:
            await self._autoplay.play_until_human(t, g, accepted)
        except Exception:
            # a bug, or options the engine cannot play: back to what storage holds, nothing applied
            log.exception("table %s: the engine failed while playing the AI seats and standing orders", t.id)
            t.game = replayed(t.row, list(g.actions[:first_serial]))
            t.row.status, t.prompt_at = status, prompt_at
            raise EngineFault(ENGINE_FAILED) from None
        if not accepted and len(g.actions) == first_serial and not fields and t.row.mode == "async":
            # nothing played and nothing to store (a restart's resume, the humans to act): an async
            # table's stored deadline runs on as it was, not moved by the restart (a live table's
            # players get their turn afresh: they could not act while the bot was down)
            return Update(t, [], 0, g.over)
        now = time.time()
        timer = None
        fields = dict(fields or {})
        finished = None
        if g.over:
            t.row.status = "finished"
            fields.update(status="finished", finished_at=now)
            finished = finished_game(t)
        elif t.humans_to_act():
            t.prompt_at = now
            timer = (t.decision_serial(), now + turn_clock(t), now)
        rows = [(a.text, user_id if i == 0 else None) for i, a in enumerate(accepted)]
        try:
            await self._repo.append_actions(
                t.id,
                first_serial,
                rows,
                timer=timer,
                clear_timer=timer is None,
                table_fields=fields,
                then=None if finished is None else (lambda conn: self.record_game(conn, t.id, finished)),
            )
        except Exception as e:
            # Replaying the stored prefix costs ~10 ms for a 400-action game, on this rare path;
            # a Game.copy() before every click would put ~25 us on every click instead.
            t.game = replayed(t.row, g.actions[:first_serial])
            t.row.status, t.prompt_at = status, prompt_at
            if isinstance(e, sqlite3.Error | OSError):
                log.error(
                    "table %s: could not store moves %s-%s, nothing applied: %s",
                    t.id,
                    first_serial,
                    len(g.actions) - 1,
                    e,
                )
            else:  # not the database itself (a standings hook): worth its traceback
                log.exception(
                    "table %s: could not store moves %s-%s, nothing applied",
                    t.id,
                    first_serial,
                    len(g.actions) - 1,
                )
            raise StorageError(SAVE_FAILED) from None
        d = self._restore.damaged.get(t.id)
        if d is not None and not d.paused and timer is not None:
            del self._restore.damaged[t.id]  # the damaged turn clock was just written anew
        self._events.timers_changed()
        if g.over:
            await self._autoplay.mjai.close_table(t.id, g)
        hands_ended = len(g.results) - hands_before
        return Update(t, list(accepted), max(0, hands_ended), g.over)

    async def programs_move(self, t: Table, update: Update) -> Update:
        """After a request's moves are stored and told: while an mjai program's move is due, ask it
        with the table unlocked, then, under the lock, play its answer and what follows (stored and
        told like a click) if the table is still at that decision; else the answer is dropped. One
        request asks a seat's program at a time (another finds it asked and returns). Returns
        ``update`` with the moves played here added."""
        while (due := self._autoplay.due(t)) is not None:
            g, seat, serial = due
            asked = await self._autoplay.ask(t, g, seat)
            if asked is None:
                break
            answer, notices = asked
            async with t.lock:
                moved_on = t.game is not g or g.over or t.row.status != "playing" or t.decision_serial() != serial
                if moved_on or seat not in g.to_act():
                    log.info("table %s seat %s: the table moved on while its program thought; answer dropped", t.id, seat)
                    continue
                a = self._autoplay.checked(t, g, seat, answer)
                hands_before = len(g.results)
                g.apply(a)
                try:
                    part = await self.advance(t, [a], None, hands_before)
                except (StorageError, EngineFault):
                    return update  # logged; the seat is asked again at the table's next request
            part.notices[:0] = notices
            await self._events.emit(part)
            update = Update(
                t,
                update.actions + part.actions,
                update.hands_ended + part.hands_ended,
                part.game_over,
                update.expired,
                update.notices + part.notices,
            )
        return update

    async def resume(self, t: Table) -> Update | None:
        """After a restart: if AI seats or standing orders are due, let them move."""
        if t.game is None or t.row.status != "playing" or t.game.over:
            return None
        async with t.lock:
            try:
                update = await self.advance(t, [], None)
            except StorageError:
                return None  # logged; the table moves on at its next click or clock
        if update.actions:
            await self._events.emit(update)
        return await self.programs_move(t, update)

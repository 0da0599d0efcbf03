"""A table's life before and around its game: open, join, leave, add AI seats, commit to the
seed, start, move to a thread, set a player's standing orders, abandon.

Each change is checked (a plain :class:`~bot.tables.model.TableError` sentence when refused),
stored, and only then made to the table in memory, under the table's lock; a write the database
refuses changes nothing (:class:`~bot.tables.model.StorageError`). Starting a game draws the seats
from the table's seed and plays up to the first human decision through
:meth:`bot.tables.acting.Acting.advance`, which stores the status with the first moves.

Limits: the moves of a game are :mod:`bot.tables.acting`'s; finding a table by number is
:mod:`bot.tables.restore`'s. No Discord types.
"""

from __future__ import annotations

import random
import secrets
import sqlite3
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import replace

from bot.ai.mjai_seat import is_mjai, program_of
from bot.storage.repository import Repository, SeatRow
from bot.tables.acting import Acting, new_game
from bot.tables.autoplay import Autoplay
from bot.tables.fairness import table_commitment
from bot.tables.model import (
    OPEN_FAILED,
    START_FAILED,
    Events,
    StorageError,
    Table,
    TableError,
    Update,
    elsewhere,
    stored,
)
from bot.tables.restore import Restore
from bot.tables.rules import length_of, players, ruleset_for_table, table_ruleset
from engine.rules.base import Ruleset

#: a seat taken from schema version 8 on shows its waits when tenpai (``/table auto what:waits``
#: turns it off): the line tells nothing the player could not count from the table, and a newcomer
#: would not find an option that starts off at every new table; seats stored before stay off
NEW_SEAT_SHOWS_WAITS = True

#: ``/table auto what:`` -> the seat's stored column
_ORDERS = {
    "win": "auto_win",
    "pass": "auto_pass",
    "tsumogiri": "auto_tsumogiri",
    "confirm-discard": "confirm_discard",
    "waits": "show_waits",
}


class Lifecycle:
    def __init__(self, repo: Repository, restore: Restore, acting: Acting, autoplay: Autoplay, events: Events) -> None:
        self._repo = repo
        self._restore = restore
        self._acting = acting
        self._autoplay = autoplay
        self._events = events
        #: the seed of a new table's game (tests replace it to play a known deal)
        self.new_seed: Callable[[], str] = lambda: secrets.token_hex(16)  # 128 bits: see bot.tables.fairness

    async def open_table(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        opener_id: int,
        opener_name: str,
        ruleset: str = "riichi",
        mode: str = "live",
        length: str | None = None,
        turn_seconds: int = 30,
        bank_seconds: int = 60,
        async_hours: int = 24,
        on_expiry: str = "auto",
        pings: bool | None = None,
        call_minutes: int = 60,
        rules: Ruleset | None = None,
        house: str | None = None,
    ) -> Table:
        """``pings``: every decision reaches its player as a new message (None: on for async
        tables, where nobody watches the table, off for live ones); ``call_minutes``: how long a
        call offer waits in an async table before it passes (a call must not hold the table for a
        whole turn's deadline). ``rules``: a house-rule profile's ruleset (``house`` its name, shown
        with the table) instead of ``ruleset``; the table stores its options now, so a later change
        to the profile never reaches this table; ``length``, when given, applies on top."""
        if rules is not None:
            ruleset_for_table(rules.name, length)  # refuses a base no table plays, or a bad length
            opts = length_of(rules.name, length).options if length is not None and length.strip() else {}
            rs = rules.with_options(**opts) if opts else rules
        else:
            rs = ruleset_for_table(ruleset, length)
        if mode not in ("live", "async"):
            raise TableError("mode must be live or async")
        options = rs.options_dict()  # only what differs from the ruleset's defaults
        tid = await stored(
            self._repo.create_table(
                [SeatRow(0, opener_id, None, opener_name, show_waits=NEW_SEAT_SHOWS_WAITS)],
                guild_id=guild_id,
                channel_id=channel_id,
                opener_id=opener_id,
                ruleset=rs.name,
                options=options,
                seed=self.new_seed(),
                mode=mode,
                turn_seconds=max(5, turn_seconds),
                bank_seconds=max(0, bank_seconds),
                async_hours=max(1, async_hours),
                on_expiry=on_expiry,
                pings=int(mode == "async" if pings is None else pings),
                call_seconds=max(60, min(call_minutes, 24 * 60) * 60),
                **({"house": house} if house else {}),
            ),
            OPEN_FAILED,
        )
        row = await self._repo.get_table(tid)
        assert row is not None
        t = Table(row)
        self._restore.tables[tid] = t
        return t

    async def join(self, table_id: int, user_id: int, name: str) -> Table:
        t = await self._restore.get(table_id)
        async with t.lock:
            if t.row.status != "open":
                raise TableError("that table has already started")
            if t.seat_of(user_id) is not None:
                raise TableError("you are already at that table")
            if len(t.seats) >= players(t.row):
                raise TableError("that table is full")
            seats = [*t.row.seats, SeatRow(len(t.seats), user_id, None, name, show_waits=NEW_SEAT_SHOWS_WAITS)]
            await stored(self._repo.put_seats(t.id, seats))
            t.row.seats = seats
        return t

    async def leave(self, table_id: int, user_id: int) -> Table:
        t = await self._restore.get(table_id)
        async with t.lock:
            if t.row.status != "open":
                raise TableError("the game has started: ask the opener or an organiser to abandon it")
            if t.seat_of(user_id) is None:
                raise TableError("you are not at that table")
            seats = [replace(s, seat=i) for i, s in enumerate(s for s in t.seats if s.user_id != user_id)]
            await stored(self._repo.put_seats(t.id, seats))
            t.row.seats = seats
        return t

    async def add_ai(self, table_id: int, count: int, kind: str | None = None) -> Table:
        ai = self._autoplay.kind(kind)
        t = await self._restore.get(table_id)
        async with t.lock:
            if t.row.status != "open":
                raise TableError("that table has already started")
            free = players(t.row) - len(t.seats)
            if free <= 0:
                raise TableError("that table is full")
            seats = list(t.seats)
            for _ in range(min(count, free)):
                if is_mjai(ai):
                    n = sum(1 for s in seats if s.ai == ai) + 1
                    name = program_of(ai) + (f" {n}" if n > 1 else "")
                else:
                    name = f"AI {sum(1 for s in seats if s.ai and not is_mjai(s.ai)) + 1}"
                seats.append(SeatRow(len(seats), None, ai, name))
            await stored(self._repo.put_seats(t.id, seats))
            t.row.seats = seats
        return t

    @staticmethod
    def check_start(t: Table, user_id: int) -> None:
        """TableError if ``user_id`` cannot start the table now (asked before announcing it)."""
        if t.row.status != "open":
            raise TableError("that table has already started")
        if t.seat_of(user_id) is None and user_id != t.row.opener_id:
            raise TableError("only a player at the table can start it")
        need = players(t.row)
        if len(t.seats) < need:
            raise TableError(
                "the table needs {need} players and has {seated}: invite players or use /table add-ai", need=need, seated=len(t.seats)
            )

    async def commit_seed(self, table_id: int, user_id: int) -> Table:
        """Fairness: store the commitment to the table's seed (drawn at open) before anything is
        dealt, so that ``/table start`` can post it before the game starts. Refused as
        :meth:`start` would refuse (TableError), and nothing is stored then."""
        t = await self._restore.get(table_id)
        async with t.lock:
            self.check_start(t, user_id)
            committed = table_commitment(t.row)
            await stored(self._repo.set_table(t.id, commitment=committed))
            t.row.commitment = committed
        return t

    async def start(self, table_id: int, user_id: int) -> Update:
        t = await self._restore.get(table_id)
        async with t.lock:
            self.check_start(t, user_id)
            # seats and the first dealer are drawn at random (from the table's seed)
            order = list(t.seats)
            random.Random(t.row.seed).shuffle(order)
            order = [replace(s, seat=i, bank_left=float(t.row.bank_seconds)) for i, s in enumerate(order)]
            await stored(self._repo.put_seats(t.id, order), START_FAILED)
            t.row.seats = order
            await self._restore.prepare(table_ruleset(t.row))
            t.game = new_game(t.row)
            t.row.status = "playing"
            try:  # the status is stored with the first actions, in one transaction
                update = await self._acting.advance(t, [], None, fields={"status": "playing"})
            except StorageError:
                t.game = None
                t.row.status = "open"
                raise StorageError(START_FAILED) from None
        await self._events.emit(update)
        return await self._acting.programs_move(t, update)

    async def set_thread(self, table_id: int, thread_id: int) -> Table:
        """The thread the table plays in from now on (``/table open thread:true``), stored first."""
        t = await self._restore.get(table_id)
        async with t.lock:
            await stored(self._repo.set_table(t.id, thread_id=thread_id))
            t.row.thread_id = thread_id
        return t

    async def set_auto(self, table_id: int, user_id: int, what: str, on: bool) -> Table:
        """A seated player's standing order (``what``: win, pass, tsumogiri, confirm-discard, waits)."""
        t = await self._restore.get(table_id)
        seat = t.seat_of(user_id)
        if seat is None:
            raise TableError("you are not seated at this table")
        field_name = _ORDERS[what]
        await stored(self._repo.set_seat(t.id, seat, **{field_name: on}))
        setattr(t.seats[seat], field_name, on)
        return t

    async def abandon(self, table_id: int, user_id: int, *, organiser: bool, guild_id: int | None = None) -> Table | None:
        """Close a table (its opener or an organiser of its own server). A damaged table, which
        cannot be rebuilt, can still be closed by an organiser: only its status is written (None is
        returned)."""
        try:
            t = await self._restore.get_in(table_id, guild_id)
        except TableError:
            d = self._restore.damaged.get(table_id)
            if d is None or not d.paused:
                raise
            if await self._repo.guild_of(table_id) != guild_id:
                raise elsewhere(table_id) from None
            if not organiser:
                raise TableError("table #{table} is damaged: only an organiser can abandon it", table=table_id) from None
            await stored(self._repo.set_table(table_id, status="abandoned", finished_at=time.time()))
            del self._restore.damaged[table_id]
            with suppress(sqlite3.Error):
                await self._repo.clear_timer(table_id)
            self._events.timers_changed()
            return None
        async with t.lock:
            if user_id != t.row.opener_id and not organiser:
                raise TableError("only the player who opened the table or an organiser can abandon it")
            if t.row.status in ("finished", "abandoned"):
                raise TableError("that table is already closed")
            await stored(self._repo.set_table(t.id, status="abandoned", finished_at=time.time()))
            t.row.status = "abandoned"
            with suppress(sqlite3.Error):  # a timer left behind finds the table closed and is cleared then
                await self._repo.clear_timer(t.id)
            await self._autoplay.mjai.close_table(t.id)
        self._events.timers_changed()
        return t

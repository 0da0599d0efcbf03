"""Tables, seats, the action log and timers: their row types, column rules, reads and writes.

:class:`TableStore` is the part of :class:`bot.storage.repository.Repository` that reads and
writes them (reads on ``self.db``, writes as one ``self.write(fn)`` each). A move is one write
(:meth:`TableStore.append_actions`: its actions, the timer, the table row and, at the end of a
game, the game's record, a step the table service composes).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from bot.storage.columns import (
    _FLAG,
    _ID,
    _ID_OR_NULL,
    CorruptRow,
    Rule,
    _assignments,
    _checked,
    _int,
    _integer,
    _json_object,
    _number,
    _one_of,
    _shown,
    _text,
    bad_columns,
)
from bot.storage.reads import fetch_all, fetch_one

log = logging.getLogger(__name__)

#: the shards of one process among all: (shard count, the shard ids it holds)
Shards = tuple[int, frozenset[int]]


def shard_clause(shards: Shards | None) -> str:
    """`` AND …`` keeping the ``tables`` rows whose guild is on one of ``shards`` (Discord's
    ``(guild_id >> 22) % count``, which SQLite and PostgreSQL both compute on 64-bit integers); a
    table without a guild goes with shard 0 (where DMs arrive). Empty for None (every table). The
    numbers are whole numbers of the process's own settings, never user input."""
    if shards is None:
        return ""
    count, ids = int(shards[0]), sorted(int(i) for i in shards[1])
    listed = ", ".join(str(i) for i in ids) or "-1"
    none = " OR guild_id IS NULL" if 0 in ids else ""
    return f" AND ((guild_id >> 22) % {count} IN ({listed}){none})"

TABLE_RULES: dict[str, Rule] = {
    "id": _ID,
    "guild_id": _ID_OR_NULL,
    "channel_id": _ID,
    "thread_id": _ID_OR_NULL,
    "opener_id": _ID,
    "ruleset": _text(nonempty=True),
    "options": (_json_object, "a JSON object"),
    "seed": _text(nonempty=True),
    "mode": _one_of("live", "async"),
    "turn_seconds": _integer(1),
    "bank_seconds": _integer(0),
    "async_hours": _integer(1),
    "on_expiry": _one_of("auto", "wait"),
    "status": _one_of("open", "playing", "finished", "abandoned"),
    "message_id": _ID_OR_NULL,
    "created_at": _number(),
    "finished_at": _number(null=True),
    # schema version 4 and 5 (checked where the file has them)
    "results_posted": _integer(0),
    "final_posted": _FLAG,
    "pings": _FLAG,
    "call_seconds": _integer(1),
    "commitment": _text(null=True),
    # schema version 7: the house-rule profile the table was opened with (display only)
    "house": _text(null=True),
}
SEAT_RULES: dict[str, Rule] = {
    "table_id": _ID,
    "seat": _integer(0, 3),
    "user_id": _ID_OR_NULL,
    "ai": _text(null=True, nonempty=True),
    "name": _text(),
    "dm_closed": _FLAG,
    "auto_win": _FLAG,
    "auto_pass": _FLAG,
    "auto_tsumogiri": _FLAG,
    "bank_left": _number(0, null=True),
    "hand_message_id": _ID_OR_NULL,
    "confirm_discard": _FLAG,
    "show_waits": _FLAG,
}
ACTION_RULES: dict[str, Rule] = {
    "table_id": _ID,
    "serial": _integer(0),
    "action": _text(nonempty=True),
    "user_id": _ID_OR_NULL,
    "created_at": _number(),
}
TIMER_RULES: dict[str, Rule] = {
    "table_id": _ID,
    "serial": _integer(0),
    "due": _number(),
    "prompt_at": _number(),
    "reminded": _FLAG,
}

TABLE_COLUMNS = frozenset(TABLE_RULES) - {"id"}
SEAT_COLUMNS = frozenset(SEAT_RULES) - {"table_id", "seat"}


@dataclass(slots=True)
class SeatRow:
    seat: int
    user_id: int | None
    ai: str | None
    name: str
    dm_closed: bool = False
    auto_win: bool = False
    auto_pass: bool = False
    auto_tsumogiri: bool = False
    bank_left: float | None = None
    hand_message_id: int | None = None
    confirm_discard: bool = False  # two-tap discards (/table auto what:confirm-discard)
    show_waits: bool = False  # the waits line under a tenpai hand (/table auto what:waits)


@dataclass(slots=True)
class TableRow:
    id: int
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    opener_id: int
    ruleset: str
    options: dict[str, Any]
    seed: str
    mode: str
    turn_seconds: int
    bank_seconds: int
    async_hours: int
    on_expiry: str
    status: str
    message_id: int | None
    created_at: float
    seats: list[SeatRow] = field(default_factory=list)
    results_posted: int = 0  # hand results posted in the channel
    final_posted: bool = False
    pings: bool = False  # each decision reaches its player as a new message
    call_seconds: int = 3600  # an async table's call offer waits this long
    commitment: str | None = None  # fairness: written at /table start (migration 0005)
    house: str | None = None  # the house-rule profile it was opened with, for display (migration 0007)


@dataclass(slots=True)
class TimerRow:
    table_id: int
    serial: int
    due: float
    prompt_at: float
    reminded: bool



def _put_seats(conn: sqlite3.Connection, table_id: int, seats: Sequence[SeatRow]) -> None:
    """A write step: the table's seats become ``seats``."""
    conn.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
    conn.executemany(
        "INSERT INTO seats (table_id, seat, user_id, ai, name, dm_closed, auto_win, auto_pass, auto_tsumogiri,"
        " bank_left, hand_message_id, confirm_discard, show_waits) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                table_id,
                s.seat,
                s.user_id,
                s.ai,
                s.name,
                int(s.dm_closed),
                int(s.auto_win),
                int(s.auto_pass),
                int(s.auto_tsumogiri),
                s.bank_left,
                s.hand_message_id,
                int(s.confirm_discard),
                int(s.show_waits),
            )
            for s in seats
        ],
    )



class TableStore:
    """Tables, seats, actions and timers (a part of the Repository)."""

    # ---------------------------------------------------------------- tables and seats

    async def create_table(self, seats: Sequence[SeatRow] = (), **fields: Any) -> int:
        """A new table row (each keyword one of :data:`TABLE_COLUMNS`) and its first seats, in one
        write: a table is never stored without the seat of the player who opened it."""
        fields = dict(fields)
        fields["options"] = json.dumps(fields.get("options") or {})
        fields["created_at"] = time.time()
        cols = _checked("tables", TABLE_COLUMNS, fields)
        sql = f"INSERT INTO tables ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)}) RETURNING id"
        values = tuple(fields.values())

        def create(conn: sqlite3.Connection) -> int:
            tid = int(conn.execute(sql, values).fetchone()[0])
            _put_seats(conn, tid, seats)
            return tid

        return await self.write(create)

    async def set_table(self, table_id: int, **fields: Any) -> None:
        """Set columns of a table's row; each keyword must be one of :data:`TABLE_COLUMNS`."""
        sets = _assignments("tables", TABLE_COLUMNS, fields)
        if "options" in fields:
            fields["options"] = json.dumps(fields["options"])
        values = (*fields.values(), table_id)
        await self.write(lambda conn: conn.execute(f"UPDATE tables SET {sets} WHERE id = ?", values))

    async def put_seats(self, table_id: int, seats: list[SeatRow]) -> None:
        """Replace a table's seats, in one write."""
        await self.write(lambda conn: _put_seats(conn, table_id, seats))

    async def set_seat(self, table_id: int, seat: int, **fields: Any) -> None:
        """Set columns of one seat's row; each keyword must be one of :data:`SEAT_COLUMNS`."""
        sets = _assignments("seats", SEAT_COLUMNS, fields)
        values = (*(int(v) if isinstance(v, bool) else v for v in fields.values()), table_id, seat)
        await self.write(
            lambda conn: conn.execute(f"UPDATE seats SET {sets} WHERE table_id = ? AND seat = ?", values)
        )

    def _table(self, r: aiosqlite.Row) -> TableRow:
        """A ``tables`` row, every column checked (:class:`CorruptRow` names what is wrong)."""
        try:
            options = json.loads(r["options"] or "{}")
            if not isinstance(options, dict):
                raise ValueError("options is not an object")
        except (ValueError, TypeError) as e:
            raise CorruptRow("tables", r["id"], f"bad options JSON ({e})", table_id=r["id"]) from None
        why = bad_columns(r, TABLE_RULES)
        if why:
            raise CorruptRow("tables", r["id"], why, table_id=r["id"])
        return TableRow(
            id=r["id"],
            guild_id=r["guild_id"],
            channel_id=r["channel_id"],
            thread_id=r["thread_id"],
            opener_id=r["opener_id"],
            ruleset=r["ruleset"],
            options=options,
            seed=r["seed"],
            mode=r["mode"],
            turn_seconds=r["turn_seconds"],
            bank_seconds=r["bank_seconds"],
            async_hours=r["async_hours"],
            on_expiry=r["on_expiry"],
            status=r["status"],
            message_id=r["message_id"],
            created_at=r["created_at"],
            results_posted=int(r["results_posted"]),
            final_posted=bool(r["final_posted"]),
            pings=bool(r["pings"]),
            call_seconds=int(r["call_seconds"]),
            commitment=r["commitment"],
            house=r["house"],
        )

    async def get_table(self, table_id: int) -> TableRow | None:
        """The table and its seats; raises :class:`CorruptRow` if a row of it is damaged."""
        r = await fetch_one(self.db, "SELECT * FROM tables WHERE id = ?", (table_id,))
        if r is None:
            return None
        t = self._table(r)
        t.seats = await self.get_seats(table_id)
        return t

    async def get_seats(self, table_id: int) -> list[SeatRow]:
        """The table's seats in order; raises :class:`CorruptRow` for a damaged seat row or a gap."""
        rows = await fetch_all(self.db, "SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))
        for r in rows:
            why = bad_columns(r, SEAT_RULES)
            if why is None and r["user_id"] is None and r["ai"] is None:
                why = "it has neither a player nor an AI"
            if why:
                raise CorruptRow(
                    "seats", f"(table {table_id}, seat {_shown(r['seat'])})", why, table_id=table_id
                )
        for i, r in enumerate(rows):
            if r["seat"] != i:
                raise CorruptRow(
                    "seats",
                    f"(table {table_id}, seat {i})",
                    f"seat {i} is missing before seat {r['seat']}",
                    table_id=table_id,
                )
        return [
            SeatRow(
                r["seat"],
                r["user_id"],
                r["ai"],
                r["name"],
                bool(r["dm_closed"]),
                bool(r["auto_win"]),
                bool(r["auto_pass"]),
                bool(r["auto_tsumogiri"]),
                r["bank_left"],
                r["hand_message_id"],
                bool(r["confirm_discard"]),
                bool(r["show_waits"]),
            )
            for r in rows
        ]

    async def tables_with_status(
        self,
        *statuses: str,
        channel_id: int | None = None,
        skipped: list[CorruptRow] | None = None,
        unposted: bool = False,
    ) -> list[TableRow]:
        """Tables in one of ``statuses`` (in a channel or its thread); a damaged table is logged,
        left out, and added to ``skipped`` when given. ``unposted``: only tables whose final
        standings are not posted yet."""
        q = f"SELECT * FROM tables WHERE status IN ({', '.join('?' for _ in statuses)})"
        if unposted:
            q += " AND final_posted = 0"
        args: list[Any] = list(statuses)
        if channel_id is not None:
            q += " AND (channel_id = ? OR thread_id = ?)"
            args += [channel_id, channel_id]
        rows = await fetch_all(self.db, q + " ORDER BY id", args)
        return await self._readable_tables(rows, skipped)

    async def tables_to_restore(self, skipped: list[CorruptRow], shards: Shards | None = None) -> list[TableRow]:
        """Every table that is not closed, or whose final standings are still owed (start-up);
        damaged ones, including a status that is no status at all, go to ``skipped``. With
        ``shards``, only the tables of the guilds those shards hold (:func:`shard_clause`)."""
        # a finished table whose final standings are not posted yet is restored too (it is owed them)
        q = "SELECT * FROM tables WHERE (status NOT IN ('finished', 'abandoned') OR (status = 'finished' AND final_posted = 0))"
        rows = await fetch_all(self.db, q + shard_clause(shards) + " ORDER BY id")
        return await self._readable_tables(rows, skipped)

    async def _readable_tables(
        self, rows: Iterable[aiosqlite.Row], skipped: list[CorruptRow] | None
    ) -> list[TableRow]:
        out = []
        for r in rows:
            try:
                t = self._table(r)
                t.seats = await self.get_seats(t.id)
            except CorruptRow as e:
                log.error("skipping %s", e)
                if skipped is not None:
                    skipped.append(e)
                continue
            out.append(t)
        return out

    async def guild_of(self, table_id: int) -> int | None:
        """A table's server, read on its own (a damaged row's other columns do not matter); None
        when the table or its server id is missing or unreadable."""
        row = await fetch_one(self.db, "SELECT guild_id FROM tables WHERE id = ?", (table_id,))
        return row[0] if row is not None and isinstance(row[0], int) else None

    async def channel_of(self, table_id: int) -> int | None:
        """The channel (or thread) a table plays in, read without the rest of its row: a damaged
        table can still be named where it is."""
        r = await fetch_one(self.db, "SELECT channel_id, thread_id FROM tables WHERE id = ?", (table_id,))
        if r is None:
            return None
        return next((v for v in (r["thread_id"], r["channel_id"]) if _int(v)), None)

    # ---------------------------------------------------------------- the action log

    async def actions(self, table_id: int) -> list[tuple[int, str]]:
        """The table's action log as ``(serial, text)``; raises :class:`CorruptRow` for a damaged
        row or a serial out of sequence (the text itself is checked by replaying it)."""
        rows = await fetch_all(self.db, "SELECT * FROM actions WHERE table_id = ? ORDER BY serial", (table_id,))
        for r in rows:
            why = bad_columns(r, ACTION_RULES)
            if why:
                raise CorruptRow(
                    "actions", f"(table {table_id}, serial {_shown(r['serial'])})", why, table_id=table_id
                )
        for i, r in enumerate(rows):
            if r["serial"] != i:
                raise CorruptRow(
                    "actions",
                    f"(table {table_id}, serial {i})",
                    f"move {i} is missing before move {r['serial']}",
                    table_id=table_id,
                )
        return [(int(r["serial"]), str(r["action"])) for r in rows]

    async def append_actions(
        self,
        table_id: int,
        first_serial: int,
        actions: list[tuple[str, int | None]],
        *,
        timer: tuple[int, float, float] | None = None,
        clear_timer: bool = False,
        table_fields: dict[str, Any] | None = None,
        then: Callable[[sqlite3.Connection], object] | None = None,
    ) -> None:
        """Append accepted actions, re-arm or clear the table's timer, update the table row and
        run ``then(conn)``, the caller's last step of the same write (at the end of a game: the
        service's record of it) — one write, one transaction."""
        now = time.time()
        rows = [(table_id, first_serial + i, text, user, now) for i, (text, user) in enumerate(actions)]
        fields = dict(table_fields or {})
        sets = _assignments("tables", TABLE_COLUMNS, fields) if fields else ""

        def write(conn: sqlite3.Connection) -> None:
            if rows:
                conn.executemany(
                    "INSERT INTO actions (table_id, serial, action, user_id, created_at) VALUES (?, ?, ?, ?, ?)",
                    rows,
                )
            if clear_timer or timer is not None:
                conn.execute("DELETE FROM timers WHERE table_id = ?", (table_id,))
            if timer is not None:
                serial, due, prompt_at = timer
                conn.execute(
                    "INSERT INTO timers (table_id, serial, due, prompt_at) VALUES (?, ?, ?, ?)",
                    (table_id, serial, due, prompt_at),
                )
            if sets:
                conn.execute(f"UPDATE tables SET {sets} WHERE id = ?", (*fields.values(), table_id))
            if then is not None:
                then(conn)

        await self.write(write)

    # ---------------------------------------------------------------- timers

    async def timers(self) -> list[TimerRow]:
        rows = await fetch_all(self.db, "SELECT * FROM timers ORDER BY due")
        return [
            TimerRow(r["table_id"], r["serial"], r["due"], r["prompt_at"], bool(r["reminded"])) for r in rows
        ]

    # a timer the dispatcher can act on; a damaged one is left for ``db check`` (TableService names it)
    _GOOD_TIMER = (
        "typeof(table_id) = 'integer' AND typeof(serial) = 'integer' AND typeof(due) IN ('integer', 'real')"
        " AND typeof(prompt_at) IN ('integer', 'real') AND reminded IN (0, 1)"
    )

    async def next_timer(self, skip: Iterable[int] = (), shards: Shards | None = None) -> TimerRow | None:
        """The earliest usable timer, leaving out the tables in ``skip`` (paused or retrying); with
        ``shards``, only timers of tables whose guild those shards hold (:func:`shard_clause`)."""
        left_out = sorted(skip)
        q = f"SELECT * FROM timers WHERE {self._GOOD_TIMER}"
        if shards is not None:
            q += " AND table_id IN (SELECT id FROM tables WHERE 1 = 1" + shard_clause(shards) + ")"
        if left_out:
            q += f" AND table_id NOT IN ({', '.join('?' for _ in left_out)})"
        r = await fetch_one(self.db, q + " ORDER BY due LIMIT 1", left_out)
        return (
            TimerRow(r["table_id"], r["serial"], r["due"], r["prompt_at"], bool(r["reminded"])) if r else None
        )

    async def timer(self, table_id: int) -> TimerRow | None:
        """The table's timer; raises :class:`CorruptRow` if its row is damaged."""
        r = await fetch_one(self.db, "SELECT * FROM timers WHERE table_id = ?", (table_id,))
        if r is None:
            return None
        why = bad_columns(r, TIMER_RULES)
        if why:
            raise CorruptRow("timers", f"(table {table_id})", why, table_id=table_id)
        return TimerRow(r["table_id"], r["serial"], r["due"], r["prompt_at"], bool(r["reminded"]))

    async def set_timer(self, table_id: int, serial: int, due: float, prompt_at: float) -> None:
        def put(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM timers WHERE table_id = ?", (table_id,))
            conn.execute(
                "INSERT INTO timers (table_id, serial, due, prompt_at) VALUES (?, ?, ?, ?)",
                (table_id, serial, due, prompt_at),
            )

        await self.write(put)

    async def clear_timer(self, table_id: int) -> None:
        await self.write(lambda conn: conn.execute("DELETE FROM timers WHERE table_id = ?", (table_id,)))

    async def mark_reminded(self, table_id: int) -> None:
        await self.write(
            lambda conn: conn.execute("UPDATE timers SET reminded = 1 WHERE table_id = ?", (table_id,))
        )


"""All SQL of the bot, over one long-lived aiosqlite connection (WAL, foreign keys on).

Multi-statement writes run in one explicit ``BEGIN IMMEDIATE`` transaction (see :meth:`tx`);
migrations in ``migrations/NNNN_*.sql`` are applied in order in one transaction at start-up and
recorded in ``schema_version``. Readers skip a corrupted row (bad JSON, impossible values) with a
log line naming its id, so one hand-edited row never takes the bot down.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


class CorruptRow(ValueError):
    def __init__(self, table: str, row_id: object, why: str) -> None:
        super().__init__(f"{table} row {row_id}: {why}")
        self.table = table
        self.row_id = row_id
        self.why = why


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


@dataclass(slots=True)
class TimerRow:
    table_id: int
    serial: int
    due: float
    prompt_at: float
    reminded: bool


class Repository:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._db: aiosqlite.Connection | None = None
        # one connection is shared by every coroutine: transactions on it must take turns
        self._tx_lock = asyncio.Lock()

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("the database is not open")
        return self._db

    async def open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        self._db.row_factory = aiosqlite.Row
        await self._db.execute("PRAGMA journal_mode=WAL")
        await self._db.execute("PRAGMA foreign_keys=ON")
        await self._db.execute("PRAGMA synchronous=NORMAL")
        await self._db.execute("PRAGMA busy_timeout=5000")
        await self.migrate()

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    @asynccontextmanager
    async def tx(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._tx_lock:
            db = self.db
            await db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                await db.execute("ROLLBACK")
                raise
            else:
                await db.execute("COMMIT")

    # ---------------------------------------------------------------- migrations

    async def schema_version(self) -> int:
        db = self.db
        await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        async with db.execute("SELECT MAX(version) FROM schema_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    async def migrate(self) -> int:
        current = await self.schema_version()
        files = sorted(MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.sql"))
        pending = [(int(f.name[:4]), f) for f in files if int(f.name[:4]) > current]
        if not pending:
            return current
        async with self.tx() as db:
            for version, f in pending:
                for stmt in _statements(f.read_text()):
                    await db.execute(stmt)
                await db.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
                log.info("applied migration %s", f.name)
        return pending[-1][0]

    # ---------------------------------------------------------------- tables and seats

    async def create_table(self, **fields: Any) -> int:
        fields = dict(fields)
        fields["options"] = json.dumps(fields.get("options") or {})
        fields["created_at"] = time.time()
        cols = ", ".join(fields)
        marks = ", ".join("?" for _ in fields)
        async with self.tx() as db:
            cur = await db.execute(f"INSERT INTO tables ({cols}) VALUES ({marks})", tuple(fields.values()))
            return int(cur.lastrowid or 0)

    async def set_table(self, table_id: int, **fields: Any) -> None:
        if "options" in fields:
            fields["options"] = json.dumps(fields["options"])
        sets = ", ".join(f"{k} = ?" for k in fields)
        async with self.tx() as db:
            await db.execute(f"UPDATE tables SET {sets} WHERE id = ?", (*fields.values(), table_id))

    async def put_seats(self, table_id: int, seats: list[SeatRow]) -> None:
        async with self.tx() as db:
            await db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            for s in seats:
                await db.execute(
                    "INSERT INTO seats (table_id, seat, user_id, ai, name, dm_closed, auto_win, auto_pass, auto_tsumogiri,"
                    " bank_left, hand_message_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                    ),
                )

    async def set_seat(self, table_id: int, seat: int, **fields: Any) -> None:
        sets = ", ".join(f"{k} = ?" for k in fields)
        vals = [int(v) if isinstance(v, bool) else v for v in fields.values()]
        async with self.tx() as db:
            await db.execute(f"UPDATE seats SET {sets} WHERE table_id = ? AND seat = ?", (*vals, table_id, seat))

    def _table(self, r: aiosqlite.Row) -> TableRow:
        try:
            options = json.loads(r["options"] or "{}")
            if not isinstance(options, dict):
                raise ValueError("options is not an object")
        except ValueError as e:
            raise CorruptRow("tables", r["id"], f"bad options JSON ({e})") from None
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
        )

    async def get_table(self, table_id: int) -> TableRow | None:
        async with self.db.execute("SELECT * FROM tables WHERE id = ?", (table_id,)) as cur:
            r = await cur.fetchone()
        if r is None:
            return None
        t = self._table(r)
        t.seats = await self.get_seats(table_id)
        return t

    async def get_seats(self, table_id: int) -> list[SeatRow]:
        async with self.db.execute("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)) as cur:
            rows = await cur.fetchall()
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
            )
            for r in rows
        ]

    async def tables_with_status(self, *statuses: str, channel_id: int | None = None) -> list[TableRow]:
        q = f"SELECT * FROM tables WHERE status IN ({', '.join('?' for _ in statuses)})"
        args: list[Any] = list(statuses)
        if channel_id is not None:
            q += " AND (channel_id = ? OR thread_id = ?)"
            args += [channel_id, channel_id]
        async with self.db.execute(q + " ORDER BY id", args) as cur:
            rows = await cur.fetchall()
        out = []
        for r in rows:
            try:
                t = self._table(r)
            except CorruptRow as e:
                log.error("skipping %s", e)
                continue
            t.seats = await self.get_seats(t.id)
            out.append(t)
        return out

    # ---------------------------------------------------------------- the action log

    async def actions(self, table_id: int) -> list[tuple[int, str]]:
        async with self.db.execute("SELECT serial, action FROM actions WHERE table_id = ? ORDER BY serial", (table_id,)) as cur:
            return [(int(r[0]), str(r[1])) for r in await cur.fetchall()]

    async def append_actions(
        self,
        table_id: int,
        first_serial: int,
        actions: list[tuple[str, int | None]],
        *,
        timer: tuple[int, float, float] | None = None,
        clear_timer: bool = False,
        table_fields: dict[str, Any] | None = None,
        finished_game: dict[str, Any] | None = None,
    ) -> None:
        """Append accepted actions, re-arm or clear the table's timer, update the table row and,
        at the end of a game, record it for the standings — all in one transaction."""
        now = time.time()
        async with self.tx() as db:
            for i, (text, user) in enumerate(actions):
                await db.execute(
                    "INSERT INTO actions (table_id, serial, action, user_id, created_at) VALUES (?, ?, ?, ?, ?)",
                    (table_id, first_serial + i, text, user, now),
                )
            if clear_timer or timer is not None:
                await db.execute("DELETE FROM timers WHERE table_id = ?", (table_id,))
            if timer is not None:
                serial, due, prompt_at = timer
                await db.execute(
                    "INSERT INTO timers (table_id, serial, due, prompt_at) VALUES (?, ?, ?, ?)", (table_id, serial, due, prompt_at)
                )
            if table_fields:
                sets = ", ".join(f"{k} = ?" for k in table_fields)
                await db.execute(f"UPDATE tables SET {sets} WHERE id = ?", (*table_fields.values(), table_id))
            if finished_game is not None:
                await self._record_game(db, table_id, finished_game)

    async def _record_game(self, db: aiosqlite.Connection, table_id: int, g: dict[str, Any]) -> None:
        cur = await db.execute(
            "INSERT INTO games (guild_id, table_id, source, ruleset, finished_at, data) VALUES (?, ?, 'bot', ?, ?, ?)",
            (g["guild_id"], table_id, g["ruleset"], time.time(), json.dumps(g.get("data", {}))),
        )
        gid = cur.lastrowid
        for p in g["players"]:
            await db.execute(
                "INSERT INTO game_players (game_id, seat, user_id, name, points, place, result) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (gid, p["seat"], p["user_id"], p["name"], p["points"], p["place"], p["result"]),
            )

    # ---------------------------------------------------------------- timers

    async def timers(self) -> list[TimerRow]:
        async with self.db.execute("SELECT * FROM timers ORDER BY due") as cur:
            rows = await cur.fetchall()
        return [TimerRow(r["table_id"], r["serial"], r["due"], r["prompt_at"], bool(r["reminded"])) for r in rows]

    async def next_timer(self) -> TimerRow | None:
        async with self.db.execute("SELECT * FROM timers ORDER BY due LIMIT 1") as cur:
            r = await cur.fetchone()
        return TimerRow(r["table_id"], r["serial"], r["due"], r["prompt_at"], bool(r["reminded"])) if r else None

    async def set_timer(self, table_id: int, serial: int, due: float, prompt_at: float) -> None:
        async with self.tx() as db:
            await db.execute("DELETE FROM timers WHERE table_id = ?", (table_id,))
            await db.execute(
                "INSERT INTO timers (table_id, serial, due, prompt_at) VALUES (?, ?, ?, ?)", (table_id, serial, due, prompt_at)
            )

    async def clear_timer(self, table_id: int) -> None:
        async with self.tx() as db:
            await db.execute("DELETE FROM timers WHERE table_id = ?", (table_id,))

    async def mark_reminded(self, table_id: int) -> None:
        async with self.tx() as db:
            await db.execute("UPDATE timers SET reminded = 1 WHERE table_id = ?", (table_id,))

    # ---------------------------------------------------------------- maintenance

    async def check(self) -> list[str]:
        """Rows a reader would have to skip: bad JSON, impossible values, broken action text."""
        from engine.table.actions import Action

        problems: list[str] = []
        async with self.db.execute("SELECT * FROM tables") as cur:
            for r in await cur.fetchall():
                try:
                    self._table(r)
                except CorruptRow as e:
                    problems.append(str(e))
        async with self.db.execute("SELECT table_id, serial, action FROM actions ORDER BY table_id, serial") as cur:
            for r in await cur.fetchall():
                try:
                    Action.parse(r["action"])
                except ValueError as e:
                    problems.append(f"actions row (table {r['table_id']}, serial {r['serial']}): {e}")
        async with self.db.execute("SELECT game_id, seat, points, place FROM game_players") as cur:
            for r in await cur.fetchall():
                if not 1 <= int(r["place"]) <= 4 or abs(int(r["points"])) > 10_000_000:
                    problems.append(f"game_players row (game {r['game_id']}, seat {r['seat']}): impossible place or points")
        async with self.db.execute("SELECT id, data FROM games") as cur:
            for r in await cur.fetchall():
                try:
                    json.loads(r["data"])
                except ValueError as e:
                    problems.append(f"games row {r['id']}: bad data JSON ({e})")
        return problems

    async def backup(self, dest: str | Path) -> None:
        """Online backup through SQLite's backup API (safe while the bot runs)."""
        target = await aiosqlite.connect(str(dest))
        try:
            await self.db.backup(target)
        finally:
            await target.close()


def _statements(sql: str) -> list[str]:
    body = re.sub(r"--[^\n]*", "", sql)
    return [s.strip() for s in body.split(";") if s.strip()]

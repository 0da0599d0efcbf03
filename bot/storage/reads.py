"""Reads on the bot's read connection, each one whole in a single step.

The bot reads through one aiosqlite connection (writes go through :class:`~bot.storage.writer.Writer`
on their own connection). In WAL mode a read sees the database as it was when its statement first
stepped, and every statement of a connection shares that view while any of them is still open. An
``async with db.execute(...) as cur: await cur.fetchone()`` leaves its statement open across two
awaits, and any read another coroutine makes in between sees the file as it was before writes that
have since been committed: under load, a table just created was read back as missing. Here the
statement is run to its end on the connection's thread in one call, so no read is left open while
other code runs. Every read of the read connection goes through these two functions (a test scans
bot/ and cogs/ for any other ``.execute(`` on it).

With PostgreSQL (``DATABASE_URL``) the read side is :class:`bot.storage.postgres.PgReads`, an
asyncpg pool: the same two functions run the statement on it (``?`` placeholders translated), so
a reader never names its backend.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import aiosqlite

#: the read side of either backend: an aiosqlite connection or a PostgreSQL pool (``PgReads``)
ReadDB = Any


async def fetch_all(db: ReadDB, sql: str, args: Iterable[Any] = ()) -> list[aiosqlite.Row]:
    """Every row of ``sql``, read to its end in one step."""
    if isinstance(db, aiosqlite.Connection):
        return list(await db.execute_fetchall(sql, tuple(args)))
    return await db.fetch_all(sql, args)  # type: ignore[no-any-return]


async def fetch_one(db: ReadDB, sql: str, args: Iterable[Any] = ()) -> aiosqlite.Row | None:
    """The first row of ``sql`` (None if none); the statement is still read to its end."""
    got = await fetch_all(db, sql, args)
    return got[0] if got else None

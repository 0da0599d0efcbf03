"""The PostgreSQL backend (asyncpg) behind the same write and read seams as SQLite.

Design, and why: every write of the bot is a plain synchronous function ``fn(conn)`` run as one
transaction on the writer's thread (:mod:`bot.storage.writer`); about 150 of them exist, and they
are the storage's contract (a write never spans an await, so no other coroutine sees it half done).
Rather than rewrite each as a coroutine twice, the PostgreSQL writer keeps that contract: its
thread owns ONE asyncpg connection on a private event loop, and a write function is handed
:class:`PgConnection`, a small adapter with the ``sqlite3.Connection`` calls the writes use
(``execute`` / ``executemany`` returning a cursor with ``fetchone``, ``fetchall``, ``rowcount``,
iteration; rows indexable by name and position). The writer wraps the function in
``BEGIN … COMMIT`` (``ROLLBACK`` on error) as it does for SQLite. One write is still one trip to
the writer thread per click's move; on that thread each statement is one round trip to the server
(an ``executemany`` is one pipelined trip).

Reads run on the bot's loop through an asyncpg pool (:class:`PgReads`, what ``repo.db`` is for
this backend; :func:`bot.storage.reads.fetch_all` runs a statement on it). Pool size: 1 to
:data:`READ_POOL_SIZE` (4). Reads are single short statements (a leaderboard page, a table's
rows at a restart) awaited one after another by each handler; four let a burst of commands read
side by side while the one writer connection serialises every write, and 1 writer + 4 readers
per process leaves a stock server's 100 connections room for many bot processes.

SQL is written once, in the dialect both accept (``?`` placeholders, translated to ``$n`` here;
``INSERT … ON CONFLICT``; ``INSERT … RETURNING id``; no ``INSERT OR …``/AUTOINCREMENT). Where
SQLite idioms remain because they are what SQLite needs (``typeof()`` in the damaged-row checks:
SQLite keeps any value in any column; ``json_valid``/``json_extract``), :data:`FUNCTIONS` defines
them for PostgreSQL, where a typed column can hold nothing else, so ``typeof`` answers the
column's type class. Migrations are the same files; :func:`ddl` makes the few substitutions the
types need (ids: BIGINT identity; Discord ids: BIGINT; times: DOUBLE PRECISION; text: binary
``"C"`` collation, so ordering and uniqueness compare as SQLite's do).

Errors: a database error is raised as a subclass of the ``sqlite3`` error it stands for
(:class:`PgOperationalError`, :class:`PgIntegrityError`, the DB-API classes the services already
catch), with the asyncpg error as its cause. A connection lost while idle is reopened and the
write started again (nothing of it was sent); one lost during a write fails that write, whole.
Limits: one writer per process (several processes writing the same rows would need row locks or
SERIALIZABLE transactions, which the next issue adds); ``PRAGMA``s have no meaning here.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from functools import lru_cache
from typing import Any, TypeVar

import asyncpg

T = TypeVar("T")

#: the most connections the read pool opens (see the module docstring)
READ_POOL_SIZE = 4


def is_url(target: object) -> bool:
    """Whether a database target names a PostgreSQL server rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


class PgOperationalError(sqlite3.OperationalError):
    """A PostgreSQL error (or a lost connection), raised as the ``sqlite3`` class callers catch."""


class PgIntegrityError(sqlite3.IntegrityError):
    """A PostgreSQL constraint violation (unique, foreign key, check, not null)."""


def _mapped(e: BaseException) -> sqlite3.Error:
    cls = PgIntegrityError if isinstance(e, asyncpg.IntegrityConstraintViolationError) else PgOperationalError
    out = cls(str(e) or type(e).__name__)
    out.__cause__ = e
    return out


_FAILURES = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, ConnectionError, asyncio.TimeoutError)


@lru_cache(maxsize=2048)
def translate(sql: str) -> str:
    """``?`` placeholders as ``$1, $2, …`` (never inside a quoted string)."""
    out: list[str] = []
    n = 0
    quote: str | None = None
    for ch in sql:
        if quote is not None:
            if ch == quote:
                quote = None
        elif ch in ("'", '"'):
            quote = ch
        elif ch == "?":
            n += 1
            out.append(f"${n}")
            continue
        out.append(ch)
    return "".join(out)


def _returns_rows(sql: str) -> bool:
    head = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
    return head in ("SELECT", "WITH", "VALUES", "SHOW") or " RETURNING " in sql.upper()


def _count(status: str) -> int:
    """Rows a command touched, from its status (``UPDATE 3``, ``INSERT 0 1``)."""
    last = status.rsplit(" ", 1)[-1] if status else ""
    return int(last) if last.isdigit() else -1


# ---------------------------------------------------------------- SQLite's functions, for PostgreSQL
FUNCTIONS = (
    """CREATE OR REPLACE FUNCTION typeof(v anyelement) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN v IS NULL THEN 'null'
        WHEN pg_typeof(v) IN ('bigint'::regtype, 'integer'::regtype, 'smallint'::regtype) THEN 'integer'
        WHEN pg_typeof(v) IN ('double precision'::regtype, 'real'::regtype, 'numeric'::regtype) THEN 'real'
        WHEN pg_typeof(v) = 'bytea'::regtype THEN 'blob'
        ELSE 'text' END $$""",
    """CREATE OR REPLACE FUNCTION json_valid(v text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
    BEGIN
        PERFORM v::json;
        RETURN v IS NOT NULL;
    EXCEPTION WHEN others THEN
        RETURN false;
    END $$""",
    # only the '$.key' paths the bot uses
    """CREATE OR REPLACE FUNCTION json_extract(v text, path text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN json_valid(v) AND json_typeof(v::json) = 'object'
        THEN v::json ->> substr(path, 3) END $$""",
)

_DDL = (
    (re.compile(r"\bid INTEGER PRIMARY KEY\b"), "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
    (re.compile(r"\bINTEGER\b"), "BIGINT"),
    (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
    (re.compile(r"\bTEXT\b"), 'TEXT COLLATE "C"'),
)


def ddl(statement: str) -> str:
    """A migration statement as PostgreSQL runs it: the same DDL with PostgreSQL's types for what
    SQLite calls INTEGER PRIMARY KEY (an identity), INTEGER (64-bit: Discord ids), REAL (a double:
    times) and TEXT (compared byte by byte, as SQLite does)."""
    for pattern, repl in _DDL:
        statement = pattern.sub(repl, statement)
    return statement


# ---------------------------------------------------------------- the write adapter (writer thread)


class PgCursor:
    """What a write function gets back from ``execute``: the rows (if any) and how many were touched."""

    def __init__(self, rows: Sequence[Any], rowcount: int) -> None:
        self._rows = list(rows)
        self._at = 0
        self.rowcount = rowcount

    @property
    def lastrowid(self) -> int:
        raise sqlite3.NotSupportedError("no lastrowid on PostgreSQL: use INSERT ... RETURNING id")

    def fetchone(self) -> Any:
        if self._at >= len(self._rows):
            return None
        self._at += 1
        return self._rows[self._at - 1]

    def fetchall(self) -> list[Any]:
        rest, self._at = self._rows[self._at :], len(self._rows)
        return rest

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


class PgConnection:
    """The ``sqlite3.Connection`` calls a write function makes, over one asyncpg connection driven
    from the writer thread's own event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, conn: asyncpg.Connection) -> None:
        self._loop = loop
        self.conn = conn
        self.in_transaction = False

    def _run(self, coro: Any) -> Any:
        try:
            return self._loop.run_until_complete(coro)
        except _FAILURES as e:
            raise _mapped(e) from e

    def execute(self, sql: str, params: Iterable[Any] = ()) -> PgCursor:
        args = tuple(params)
        head = sql.lstrip()[:9].upper()
        if head.startswith(("BEGIN", "COMMIT", "ROLLBACK")) and not head.startswith("ROLLBACK "):
            self.in_transaction = head.startswith("BEGIN")
        q = translate(sql) if args else sql
        if _returns_rows(sql):
            rows = self._run(self.conn.fetch(q, *args))
            return PgCursor(rows, len(rows))
        status = self._run(self.conn.execute(q, *args))
        return PgCursor((), _count(status))

    def executemany(self, sql: str, seq: Iterable[Iterable[Any]]) -> PgCursor:
        rows = [tuple(r) for r in seq]
        if rows:
            self._run(self.conn.executemany(translate(sql), rows))
        return PgCursor((), -1)

    def close(self) -> None:
        with suppress(Exception):
            self._run(self.conn.close())


class PgWriter:
    """The writer for PostgreSQL: :class:`bot.storage.writer.Writer`'s contract (``run``, ``call``,
    ``close``) over one connection owned by the writer thread."""

    def __init__(self, url: str, worker: ThreadPoolExecutor) -> None:
        self.url = url
        self._worker: ThreadPoolExecutor | None = worker
        self._loop: asyncio.AbstractEventLoop | None = None
        self.conn: PgConnection | None = None

    @classmethod
    async def open(cls, url: str) -> PgWriter:
        worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jantaku-writer")
        writer = cls(url, worker)
        try:
            await writer.call(lambda conn: None)  # connects on the thread
        except BaseException:
            await writer.close()
            raise
        return writer

    def _connect(self) -> PgConnection:
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        if self.conn is None or self.conn.conn.is_closed():
            if self.conn is not None:
                self.conn.close()
                self.conn = None
            try:
                raw = self._loop.run_until_complete(asyncpg.connect(self.url, timeout=10))
            except _FAILURES as e:
                raise _mapped(e) from e
            self.conn = PgConnection(self._loop, raw)
        return self.conn

    async def run(self, fn: Callable[[Any], T]) -> T:
        """Run ``fn(conn)`` as one transaction on the writer thread; its result, or its error."""
        return await self._on_thread(lambda: self._transaction(fn))

    async def call(self, fn: Callable[[Any], T]) -> T:
        """Run ``fn(conn)`` on the writer thread outside a transaction."""
        return await self._on_thread(lambda: fn(self._connect()))

    async def _on_thread(self, job: Callable[[], T]) -> T:
        if self._worker is None:
            raise RuntimeError("the database is not open")
        return await asyncio.get_running_loop().run_in_executor(self._worker, job)

    def _transaction(self, fn: Callable[[Any], T]) -> T:
        conn = self._connect()
        try:
            conn.execute("BEGIN")
        except PgOperationalError:
            if not conn.conn.is_closed():
                raise
            # the server closed the connection while it was idle (a restart, a fail-over): nothing
            # of this write was sent yet, so it starts once more on a new connection
            conn = self._connect()
            conn.execute("BEGIN")
        try:
            out = fn(conn)
            conn.execute("COMMIT")
        except BaseException:
            if not conn.conn.is_closed():
                with suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            conn.in_transaction = False
            raise
        return out

    async def close(self) -> None:
        thread, self._worker = self._worker, None
        if thread is None:
            return

        def shut() -> None:
            if self.conn is not None:
                self.conn.close()
                self.conn = None
            if self._loop is not None:
                self._loop.close()
                self._loop = None

        with suppress(Exception):
            await asyncio.get_running_loop().run_in_executor(thread, shut)
        thread.shutdown(wait=False)


# ---------------------------------------------------------------- reads (the bot's loop)


class PgReads:
    """The read side for PostgreSQL: an asyncpg pool on the bot's loop (``repo.db``). Each read is
    one statement on one pooled connection, outside any transaction: it sees committed rows only."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    @classmethod
    async def open(cls, url: str) -> PgReads:
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=READ_POOL_SIZE, timeout=10)
        except _FAILURES as e:
            raise _mapped(e) from e
        return cls(pool)

    async def fetch_all(self, sql: str, args: Iterable[Any] = ()) -> list[Any]:
        values = tuple(args)
        try:
            return list(await self.pool.fetch(translate(sql) if values else sql, *values))
        except _FAILURES as e:
            raise _mapped(e) from e

    async def close(self) -> None:
        with suppress(Exception):
            await asyncio.wait_for(self.pool.close(), 5)


async def dump(url: str, dest: str) -> None:
    """``pg_dump --format=custom`` of the database at ``url`` into ``dest`` (a snapshot taken in one
    transaction while the bot runs); :class:`PgOperationalError` if pg_dump is missing or fails."""
    import shutil

    exe = shutil.which("pg_dump")
    if exe is None:
        raise PgOperationalError("pg_dump is not installed (install PostgreSQL's client tools to back up)")
    proc = await asyncio.create_subprocess_exec(
        exe, "--format=custom", "--no-owner", "--file", dest, url,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    _, err = await proc.communicate()
    if proc.returncode != 0:
        raise PgOperationalError(f"pg_dump failed: {err.decode(errors='replace').strip()}")

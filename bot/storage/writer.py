"""The one writer: every write to the database is one function run on one thread, in one transaction.

As datasette's ``Database.execute_write_fn``: a write is a plain function ``fn(conn)`` of a
``sqlite3.Connection``; :meth:`Writer.run` queues it on the writer's single thread, which runs it
between ``BEGIN IMMEDIATE`` and ``COMMIT`` (``ROLLBACK`` if it raises, and the error goes back to
the awaiting coroutine). Writes therefore never interleave, a write is never split across awaits,
and no transaction is held open while the event loop does other work.

The writer owns its connection, opened and closed on its thread (:meth:`Writer.open`), apart from
the connection reads go through: with the database in WAL mode a read sees the last committed
state, never a write half done (a leaderboard read while the standings are rewritten sees the old
rows or the new ones, not an empty table). A per-connection setting (``PRAGMA query_only``, a test's
full disk) must be set on both: :meth:`Writer.call` runs a statement outside a transaction here.
Limits: ``fn`` runs on the writer thread, so it may not await or touch the event loop; a write
whose caller was cancelled still runs to its end.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from typing import Any, TypeVar

T = TypeVar("T")

#: Set on the writer's connection when it opens (the read connection sets its own).
CONNECTION_PRAGMAS = ("PRAGMA foreign_keys=ON", "PRAGMA synchronous=NORMAL", "PRAGMA busy_timeout=5000")


class Writer:
    def __init__(self, conn: sqlite3.Connection, worker: ThreadPoolExecutor) -> None:
        self.conn = conn
        self._worker: ThreadPoolExecutor | None = worker

    @classmethod
    async def open(cls, path: str) -> Writer:
        """A writer with its own connection to ``path``, opened on its own thread."""
        worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jantaku-writer")

        def connect() -> sqlite3.Connection:
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            conn.row_factory = sqlite3.Row  # rows by column name, as the reads' aiosqlite.Row
            try:
                for pragma in CONNECTION_PRAGMAS:
                    conn.execute(pragma)
            except BaseException:
                conn.close()
                raise
            return conn

        try:
            conn = await asyncio.get_running_loop().run_in_executor(worker, connect)
        except BaseException:
            worker.shutdown(wait=False)
            raise
        return cls(conn, worker)

    async def run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn(conn)`` as one transaction on the writer thread; its result, or its error."""
        return await self.call(lambda conn: self._transaction(conn, fn))

    async def call(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn(conn)`` on the writer thread outside a transaction (a PRAGMA)."""
        if self._worker is None:
            raise RuntimeError("the database is not open")
        conn = self.conn
        return await asyncio.get_running_loop().run_in_executor(self._worker, fn, conn)

    @staticmethod
    def _transaction(conn: sqlite3.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
        conn.execute("BEGIN IMMEDIATE")
        try:
            out = fn(conn)
            conn.execute("COMMIT")
        except BaseException:
            # SQLite may have rolled back already (a full disk, an I/O error): ROLLBACK only what is
            # still open, and never let it hide the error that ended the transaction
            if conn.in_transaction:
                with suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            raise
        return out

    async def close(self) -> None:
        """Let the queued writes finish, close the connection on its thread, stop the thread."""
        thread, self._worker = self._worker, None
        if thread is None:
            return
        with suppress(sqlite3.Error):
            await asyncio.get_running_loop().run_in_executor(thread, self.conn.close)  # after every earlier write
        thread.shutdown(wait=False)


@contextmanager
def savepoint(conn: Any, name: str) -> Iterator[None]:
    """A part of a write that may fail alone: inside ``with savepoint(conn, "x"):`` an error rolls
    back only what the block wrote (and is raised on), the rest of the write stays. Both backends."""
    conn.execute(f"SAVEPOINT {name}")
    try:
        yield
    except BaseException:
        conn.execute(f"ROLLBACK TO {name}")
        conn.execute(f"RELEASE {name}")
        raise
    conn.execute(f"RELEASE {name}")

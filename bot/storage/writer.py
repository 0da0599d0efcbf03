"""The one writer: every write to the database is one function run on one thread, in one transaction.

As datasette's ``Database.execute_write_fn``: a write is a plain function ``fn(conn)`` of a
``sqlite3.Connection``; :meth:`Writer.run` queues it on the writer's single thread, which runs it
between ``BEGIN IMMEDIATE`` and ``COMMIT`` (``ROLLBACK`` if it raises, and the error goes back to
the awaiting coroutine). Writes therefore never interleave, a write is never split across awaits,
and no transaction is held open while the event loop does other work.

The connection is the same one the repository's aiosqlite proxy reads through (a per-connection
setting such as ``PRAGMA query_only`` applies to both); it is opened with ``check_same_thread=False``
and SQLite's serialized threading mode (``sqlite3.threadsafety == 3``) makes the two threads' calls
on it safe. Limits: ``fn`` runs on the writer thread, so it may not await or touch the event loop;
a write whose caller was cancelled still runs to its end.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from typing import TypeVar

T = TypeVar("T")


class Writer:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._worker: ThreadPoolExecutor | None = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jantaku-writer")

    async def run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn(conn)`` as one transaction on the writer thread; its result, or its error."""
        if self._worker is None:
            raise RuntimeError("the database is not open")
        return await asyncio.get_running_loop().run_in_executor(self._worker, self._transaction, fn)

    def _transaction(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        conn = self.conn
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
        """Let the queued writes finish, then stop the thread (the connection is closed by its owner)."""
        thread, self._worker = self._worker, None
        if thread is None:
            return
        await asyncio.get_running_loop().run_in_executor(thread, lambda: None)  # every earlier write is done
        thread.shutdown(wait=False)

"""Reads never see a write half done (bot/storage/writer.py: the writer has its own connection,
the file is in WAL mode): while one write has deleted a season's standings and not yet written the
new ones, a leaderboard read sees the old rows; once it commits, the new ones."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

from bot.storage.repository import Repository


def test_a_read_during_a_write_sees_the_last_committed_state(tmp_path: Path) -> None:
    async def main() -> None:
        repo = Repository(tmp_path / "iso.sqlite3")
        await repo.open()
        try:
            await repo.write(lambda c: c.execute("CREATE TABLE board (name TEXT, points INTEGER)"))
            await repo.write(lambda c: c.executemany("INSERT INTO board VALUES (?, ?)", [("alice", 10), ("bob", 5)]))
            halfway, release = threading.Event(), threading.Event()

            def rewrite(c: sqlite3.Connection) -> None:
                c.execute("DELETE FROM board")
                halfway.set()
                assert release.wait(10)
                c.executemany("INSERT INTO board VALUES (?, ?)", [("alice", 12), ("bob", 3)])

            async def board() -> list[tuple[str, int]]:
                async with repo.db.execute("SELECT name, points FROM board ORDER BY name") as cur:
                    return [(r[0], r[1]) for r in await cur.fetchall()]

            writing = asyncio.create_task(repo.write(rewrite))
            assert await asyncio.to_thread(halfway.wait, 10)
            assert await board() == [("alice", 10), ("bob", 5)]  # not the emptied table of the write in progress
            release.set()
            await writing
            assert await board() == [("alice", 12), ("bob", 3)]
        finally:
            await repo.close()

    asyncio.run(main())


def test_a_per_connection_setting_reaches_the_writer_too(tmp_path: Path) -> None:
    """``Repository.pragma``: a read-only switch (the fault tests' full or read-only disk) stops the
    writer's writes, and lifting it lets them through again."""

    async def main() -> None:
        repo = Repository(tmp_path / "ro.sqlite3")
        await repo.open()
        try:
            await repo.write(lambda c: c.execute("CREATE TABLE t (x INTEGER)"))
            await repo.pragma("query_only = ON")
            try:
                await repo.write(lambda c: c.execute("INSERT INTO t VALUES (1)"))
            except sqlite3.OperationalError as e:
                assert "readonly" in str(e)
            else:
                raise AssertionError("the write went through a read-only connection")
            await repo.pragma("query_only = OFF")
            await repo.write(lambda c: c.execute("INSERT INTO t VALUES (2)"))
            async with repo.db.execute("SELECT x FROM t") as cur:
                assert [r[0] for r in await cur.fetchall()] == [2]
        finally:
            await repo.close()

    asyncio.run(main())

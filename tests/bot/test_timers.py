"""bot.timers: one table's failing database calls never hold up the other tables' turn clocks.

The fault is injected as in test_storage_faults.py, at the repository: while it lasts, every
database call made for tables A and W (marking A's reminder, storing A's timed-out turn, clearing
the timer of W, which waits past its deadline) raises what SQLite raises for a failing disk. Their
clocks are the earliest, so a dispatcher that waited on them would starve the others.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import bot.timers as timers_mod
from bot.storage.repository import Repository
from bot.tables import TableService
from bot.timers import TimerDispatcher

ALICE = 10


async def _table(svc: TableService, **kw: Any) -> int:
    t = await svc.open_table(guild_id=1, channel_id=2, opener_id=ALICE, opener_name="alice", length="tonpuu", **kw)
    await svc.add_ai(t.id, 3)
    await svc.start(t.id, ALICE)
    return t.id


async def _stored(svc: TableService, table_id: int) -> list[Any]:
    """The table's stored actions once no move is on its way to storage: the service shows a move in
    memory while it is stored under the table's lock (and takes it back if the write fails)."""
    async with svc.tables[table_id].lock:
        return await svc.repo.actions(table_id)


async def _until(done: Callable[[], bool], seconds: float = 5.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if done():
            return True
        await asyncio.sleep(0.01)
    return bool(done())


def test_a_failing_database_call_for_one_table_leaves_the_other_clocks_running_and_is_retried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(timers_mod, "FIRST_RETRY", 0.05)
    monkeypatch.setattr(timers_mod, "LAST_RETRY", 0.2)

    async def main() -> None:
        repo = Repository(tmp_path / "t.sqlite3")
        await repo.open()
        svc = TableService(repo)
        svc.new_seed = lambda: "storage-tests"  # alice's first decision: a turn with a choice of discards
        reminded: list[int] = []

        async def remind(table_id: int) -> None:
            reminded.append(table_id)

        disp = TimerDispatcher(svc, remind=remind)
        try:
            a = await _table(svc, mode="async")  # at the deadline its drawn tile is played (on_expiry auto)
            w = await _table(svc, mode="async", on_expiry="wait")  # at the deadline its clock stops
            b = await _table(svc, turn_seconds=5, bank_seconds=0)
            c = await _table(svc, turn_seconds=5, bank_seconds=0)
            serial = {tid: svc.tables[tid].decision_serial() for tid in (a, w, b, c)}
            now = time.time()
            # W is past its deadline and A's reminder is overdue; B and C run out just after them
            await repo.set_timer(w, serial[w], now - 1, now - 100)
            await repo.set_timer(a, serial[a], now + 0.05, now - 100)
            await repo.set_timer(b, serial[b], now + 0.1, now - 5)
            await repo.set_timer(c, serial[c], now + 0.15, now - 5)

            failing = {a, w}
            real_mark, real_append, real_clear = repo.mark_reminded, repo.append_actions, repo.clear_timer

            async def mark_reminded(table_id: int) -> None:
                if table_id in failing:
                    raise sqlite3.OperationalError("disk I/O error")
                await real_mark(table_id)

            async def append_actions(table_id: int, *args: Any, **kw: Any) -> None:
                if table_id in failing:
                    raise sqlite3.OperationalError("disk I/O error")
                await real_append(table_id, *args, **kw)

            async def clear_timer(table_id: int) -> None:
                if table_id in failing:
                    raise sqlite3.OperationalError("disk I/O error")
                await real_clear(table_id)

            monkeypatch.setattr(repo, "mark_reminded", mark_reminded)
            monkeypatch.setattr(repo, "clear_timer", clear_timer)
            monkeypatch.setattr(repo, "append_actions", append_actions)

            def moved(tid: int) -> bool:
                return svc.tables[tid].decision_serial() != serial[tid]

            disp.start()
            # while A's calls fail, B's and C's clocks run out (the turns are played for alice)
            assert await _until(lambda: moved(b) and moved(c)), "the other tables' clocks were held up"
            for tid in (b, c):
                stored = await _stored(svc, tid)
                assert stored[serial[tid]][1].startswith(str(svc.tables[tid].seat_of(ALICE)))
            await asyncio.sleep(0.3)  # A has been tried several times by now
            assert not moved(a) and reminded == []  # nothing of A applied that was not stored
            assert [x.text for x in svc.tables[a].game.actions] == [x for _, x in await repo.actions(a)]  # type: ignore[union-attr]
            assert await repo.timer(a) is not None and await repo.timer(w) is not None  # their clocks are kept
            assert disp._task is not None and not disp._task.done()
            # the fault clears: A's clock (past its deadline by now) runs out too, and W's stops
            failing.clear()
            assert await _until(lambda: moved(a)), "table A's clock never ran out after the fault cleared"
            stored = await _stored(svc, a)
            assert stored[serial[a]][1].startswith(str(svc.tables[a].seat_of(ALICE)))
            for _ in range(250):
                if await repo.timer(w) is None:
                    break
                await asyncio.sleep(0.02)
            assert await repo.timer(w) is None and not moved(w)  # W waits on, without a clock
            assert not disp._task.done()
        finally:
            await disp.stop()
            await repo.close()

    caplog.set_level(logging.INFO, logger="bot.timers")
    asyncio.run(main())
    failures = [r.getMessage() for r in caplog.records if r.name == "bot.timers" and r.levelno >= logging.WARNING]
    assert failures and all("table 1" in m or "table 2" in m for m in failures), failures  # logged, naming A or W
    assert any("table 1" in m for m in failures) and any("table 2" in m for m in failures), failures

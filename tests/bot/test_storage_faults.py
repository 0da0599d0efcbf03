"""Issue 16 item 2: the database refuses a write during a click (read-only, disk full).

The move is not applied, the player is told in one sentence that nothing changed, the buttons
stay live (the same decision is pending), the presenter hears nothing, and once storage works
again the same click goes through; after a restart nothing is lost. The disk is made full with
SQLite's ``max_page_count``; read-only with ``query_only`` (both fail exactly as a full disk and a
read-only file do: SQLITE_FULL, SQLITE_READONLY).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from pathlib import Path

import pytest

import bot.timers as timers_mod
from bot.storage.repository import Repository
from bot.tables import SAVE_FAILED, StorageError, TableService, Update
from bot.timers import TimerDispatcher
from engine.table.actions import Action

ALICE = 10


async def _open(path: Path) -> tuple[Repository, TableService, list[Update]]:
    repo = Repository(path)
    await repo.open()
    svc = TableService(repo)
    svc.new_seed = lambda: "storage-tests"  # alice's first decision: a turn with a choice of discards
    seen: list[Update] = []

    async def listener(u: Update) -> None:
        seen.append(u)

    svc.listeners.append(listener)
    return repo, svc, seen


async def _table(svc: TableService, **kw: object) -> int:
    t = await svc.open_table(guild_id=1, channel_id=2, opener_id=ALICE, opener_name="alice", length="tonpuu", **kw)  # type: ignore[arg-type]
    await svc.add_ai(t.id, 3)
    await svc.start(t.id, ALICE)
    return t.id


def _move(svc: TableService, tid: int) -> Action:
    t = svc.tables[tid]
    seat = t.seat_of(ALICE)
    assert t.game is not None and seat is not None and seat in t.humans_to_act()
    legal = list(t.game.legal_actions(seat))
    return next((a for a in legal if a.type.name in ("DISCARD", "PASS")), legal[0])


async def _stored(repo: Repository, tid: int) -> list[str]:
    return [a for _, a in await repo.actions(tid)]


async def _refused_and_unchanged(repo: Repository, svc: TableService, tid: int, seen: list[Update], move: Action) -> None:
    """The click is refused with the sentence and nothing moved, in memory or in storage."""
    t = svc.tables[tid]
    assert t.game is not None
    serial, actions, banks, prompt = t.decision_serial(), list(t.game.actions), [s.bank_left for s in t.seats], t.prompt_at
    heard = len(seen)
    with pytest.raises(StorageError) as e:
        await svc.act(tid, ALICE, move.text, serial)
    assert str(e.value) == SAVE_FAILED == "I could not save that move, so nothing changed: please try again in a moment."
    t = svc.tables[tid]
    assert t.game is not None
    assert t.decision_serial() == serial and t.game.actions == actions  # nothing applied
    assert [a.text for a in t.game.actions] == await _stored(repo, tid)  # what storage holds
    assert move in t.game.legal_actions(move.seat) and move.seat in t.humans_to_act()  # the buttons stay live
    assert [s.bank_left for s in t.seats] == banks and t.prompt_at == prompt
    assert len(seen) == heard  # the presenter was not told


async def _restart_loses_nothing(path: Path, tid: int, expected: list[str]) -> None:
    repo = Repository(path)
    await repo.open()
    try:
        svc = TableService(repo)
        await svc.load()
        t = svc.tables[tid]
        assert t.game is not None and [a.text for a in t.game.actions] == expected
        assert svc.damaged == {}
    finally:
        await repo.close()


def test_a_click_while_the_database_is_read_only_is_refused_then_accepted_once_it_is_writable(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def main() -> list[str]:
        repo, svc, seen = await _open(tmp_path / "t.sqlite3")
        try:
            tid = await _table(svc)
            move = _move(svc, tid)
            await repo.pragma("query_only = ON")  # every write now fails: "attempt to write a readonly database"
            await _refused_and_unchanged(repo, svc, tid, seen, move)
            await _refused_and_unchanged(repo, svc, tid, seen, move)  # and again: still nothing changed
            await repo.pragma("query_only = OFF")
            update = await svc.act(tid, ALICE, move.text, svc.tables[tid].decision_serial())  # the same button, pressed again
            assert update.actions[0] == move and seen[-1] is update
            g = svc.tables[tid].game
            assert g is not None
            assert await _stored(repo, tid) == [a.text for a in g.actions]
            return [a.text for a in g.actions]
        finally:
            await repo.close()

    caplog.set_level(logging.INFO)
    expected = asyncio.run(main())
    asyncio.run(_restart_loses_nothing(tmp_path / "t.sqlite3", 1, expected))
    assert any("readonly" in r.getMessage() for r in caplog.records)  # the cause is logged in one line
    assert not [r for r in caplog.records if r.exc_info], "no traceback in the log"


def test_a_click_when_the_disk_is_full_is_refused_then_accepted_once_there_is_room(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async def main() -> list[str]:
        repo, svc, seen = await _open(tmp_path / "t.sqlite3")
        try:
            tid = await _table(svc)
            async with repo.db.execute("PRAGMA page_count") as cur:
                pages = (await cur.fetchone())[0]  # type: ignore[index]
            await repo.pragma(f"max_page_count = {pages}")  # the file may not grow: a full disk
            # play on until a click's rows need a new page (the pages in hand have some room left)
            for _ in range(300):
                t = svc.tables[tid]
                assert t.game is not None and not t.game.over
                move = _move(svc, tid)
                try:
                    await svc.act(tid, ALICE, move.text, t.decision_serial())
                except StorageError:
                    break
            else:
                raise AssertionError("the database never filled up")
            await _refused_and_unchanged(repo, svc, tid, seen, move)
            await repo.pragma("max_page_count = 1073741823")  # room again
            update = await svc.act(tid, ALICE, move.text, svc.tables[tid].decision_serial())
            assert update.actions[0] == move and seen[-1] is update
            g = svc.tables[tid].game
            assert g is not None and await _stored(repo, tid) == [a.text for a in g.actions]
            return [a.text for a in g.actions]
        finally:
            await repo.close()

    caplog.set_level(logging.INFO)
    expected = asyncio.run(main())
    asyncio.run(_restart_loses_nothing(tmp_path / "t.sqlite3", 1, expected))
    assert any("full" in r.getMessage() for r in caplog.records)
    assert not [r for r in caplog.records if r.exc_info], "no traceback in the log"


def test_a_failed_start_leaves_the_table_open_and_a_failed_join_leaves_the_seats(tmp_path: Path) -> None:
    async def main() -> None:
        repo, svc, seen = await _open(tmp_path / "t.sqlite3")
        try:
            t = await svc.open_table(guild_id=1, channel_id=2, opener_id=ALICE, opener_name="alice")
            await svc.add_ai(t.id, 2)
            await repo.pragma("query_only = ON")
            with pytest.raises(StorageError, match="nothing changed"):
                await svc.join(t.id, 11, "bob")
            with pytest.raises(StorageError, match="nothing changed"):
                await svc.set_auto(t.id, ALICE, "win", True)
            assert [s.name for s in t.seats] == ["alice", "AI 1", "AI 2"] and not t.seats[0].auto_win
            await repo.pragma("query_only = OFF")
            await svc.join(t.id, 11, "bob")
            await repo.pragma("query_only = ON")
            with pytest.raises(StorageError, match="it has not started"):
                await svc.start(t.id, ALICE)
            assert t.row.status == "open" and t.game is None and not seen
            await repo.pragma("query_only = OFF")
            row = await repo.get_table(t.id)
            assert row is not None and row.status == "open"
            await svc.start(t.id, ALICE)
            assert t.row.status == "playing" and t.game is not None and seen
        finally:
            await repo.close()

    asyncio.run(main())


def test_a_table_that_cannot_be_stored_is_not_opened(tmp_path: Path) -> None:
    """/table open on a read-only database or a full disk: one sentence, no table in memory or in
    storage (the table row and its opener's seat are one write: never a table without its seat),
    and the next open works once storage does."""
    sentence = "I could not save the new table, so none was opened: please try again in a moment."

    async def counts(repo: Repository) -> tuple[int, int]:
        async with repo.db.execute("SELECT (SELECT COUNT(*) FROM tables), (SELECT COUNT(*) FROM seats)") as cur:
            row = await cur.fetchone()
        assert row is not None
        return int(row[0]), int(row[1])

    async def main() -> None:
        repo, svc, _ = await _open(tmp_path / "t.sqlite3")
        try:
            await repo.pragma("query_only = ON")
            with pytest.raises(StorageError) as e:
                await svc.open_table(guild_id=1, channel_id=2, opener_id=ALICE, opener_name="alice")
            assert str(e.value) == sentence and svc.tables == {} and await counts(repo) == (0, 0)
            await repo.pragma("query_only = OFF")
            async with repo.db.execute("PRAGMA page_count") as cur:
                pages = (await cur.fetchone())[0]  # type: ignore[index]
            await repo.pragma(f"max_page_count = {pages}")  # the file may not grow: a full disk
            for i in range(5000):  # open tables until one no longer fits
                try:
                    await svc.open_table(guild_id=1, channel_id=2, opener_id=ALICE + i, opener_name=f"p{i}")
                except StorageError as e:
                    assert str(e) == sentence
                    break
            else:
                raise AssertionError("the database never filled up")
            stored = await counts(repo)
            assert stored == (len(svc.tables), len(svc.tables))  # every stored table has its seat, no more
            await repo.pragma("max_page_count = 1073741823")  # room again
            t = await svc.open_table(guild_id=1, channel_id=2, opener_id=ALICE, opener_name="alice")
            assert [s.name for s in await repo.get_seats(t.id)] == ["alice"]
        finally:
            await repo.close()

    asyncio.run(main())


def test_the_turn_clock_survives_a_failed_database_call_and_runs_out_once_storage_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(timers_mod, "FIRST_RETRY", 0.05)

    async def main() -> None:
        repo, svc, seen = await _open(tmp_path / "t.sqlite3")
        disp = TimerDispatcher(svc)
        try:
            tid = await _table(svc, turn_seconds=5, bank_seconds=0)
            t = svc.tables[tid]
            serial = t.decision_serial()
            heard = len(seen)
            # reading the timers fails once: the dispatcher carries on
            real_next = repo.next_timer
            failures = [sqlite3.OperationalError("disk I/O error")]

            async def flaky(skip: object = (), **kw: object) -> object:
                if failures:
                    raise failures.pop()
                return await real_next(skip=skip, **kw)  # type: ignore[arg-type]

            monkeypatch.setattr(repo, "next_timer", flaky)
            await repo.set_timer(tid, serial, time.time() - 1, time.time() - 6)  # due now
            await repo.pragma("query_only = ON")  # and the turn cannot be stored
            disp.start()
            await asyncio.sleep(0.5)  # several tries, each refused
            assert disp._task is not None and not disp._task.done()
            assert not failures and t.decision_serial() == serial and len(seen) == heard
            assert [a.text for a in t.game.actions] == [a for _, a in await repo.actions(tid)]  # type: ignore[union-attr]
            await repo.pragma("query_only = OFF")
            for _ in range(300):  # the move is applied, stored, then told: wait for the telling
                if len(seen) > heard:
                    break
                await asyncio.sleep(0.01)
            assert t.decision_serial() != serial  # the clock ran out once storage worked again
            stored = [a for _, a in await repo.actions(tid)]
            assert stored[serial].startswith(str(t.seat_of(ALICE))) and len(seen) == heard + 1
            assert not disp._task.done()
        finally:
            await disp.stop()
            await repo.close()

    asyncio.run(main())


def test_a_damaged_timer_row_and_a_paused_table_leave_the_other_clocks_running(tmp_path: Path) -> None:
    from tests.bot.storage_fixture import BOB, build, corrupt

    fx = asyncio.run(build(tmp_path / "club.sqlite3"))
    corrupt(fx.path, "UPDATE timers SET due = 'abc' WHERE table_id = ?", (fx.a,))  # a clock that cannot be read
    corrupt(fx.path, "UPDATE timers SET table_id = ? WHERE table_id = ?", (fx.c, fx.b))  # B's clock moves to open table C...
    corrupt(fx.path, "INSERT INTO timers (table_id, serial, due, prompt_at) SELECT ?, serial, 0, 0 FROM timers WHERE table_id = ?", (fx.b, fx.c))
    corrupt(fx.path, "UPDATE tables SET mode = 'zzz' WHERE id = ?", (fx.c,))  # ...and C is damaged: paused, its timer left alone
    corrupt(fx.path, "UPDATE timers SET due = 0 WHERE table_id = ?", (fx.c,))  # though it is due

    async def main() -> None:
        repo = Repository(fx.path)
        await repo.open()
        svc = TableService(repo)
        disp = TimerDispatcher(svc)
        try:
            await svc.load()
            assert svc.damaged[fx.c].paused and not svc.damaged[fx.a].paused
            b = svc.tables[fx.b]
            serial = b.decision_serial()
            disp.start()
            for _ in range(300):
                if b.decision_serial() != serial:
                    break
                await asyncio.sleep(0.01)
            assert b.decision_serial() != serial  # B's clock ran out (bob's turn was played for him)
            async with b.lock:  # its write is done (the move shows in memory while it is stored)
                pass
            assert (await repo.actions(fx.b))[serial][1].startswith(str(b.seat_of(BOB)))
            assert disp._task is not None and not disp._task.done()
            async with repo.db.execute("SELECT table_id, due FROM timers WHERE table_id IN (?, ?) ORDER BY table_id", (fx.a, fx.c)) as cur:
                rows = [tuple(r) for r in await cur.fetchall()]
            assert rows == [(fx.a, "abc"), (fx.c, 0)]  # both left as they were
        finally:
            await disp.stop()
            await repo.close()

    asyncio.run(main())


def test_an_engine_failure_puts_the_table_back_to_what_storage_holds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug or unplayable options raising inside the engine (here: the AI seats' policy) while a
    click is played: one sentence, the click not applied, the game as stored, the next click after
    the fault works. Without the rollback the table kept a move storage never saw."""
    import bot.tables as tables_mod
    from bot.ai.policy import POLICIES

    async def main() -> None:
        repo, svc, seen = await _open(tmp_path / "t.sqlite3")
        try:
            tid = await _table(svc)
            move = _move(svc, tid)
            t = svc.tables[tid]
            assert t.game is not None
            actions, serial, heard = list(t.game.actions), t.decision_serial(), len(seen)

            def broken(*_: object) -> object:
                raise IndexError("a bug in the engine")

            monkeypatch.setitem(POLICIES, "smart", broken)
            with pytest.raises(tables_mod.EngineFault) as e:
                await svc.act(tid, ALICE, move.text, serial)
            assert str(e.value) == tables_mod.ENGINE_FAILED
            t = svc.tables[tid]
            assert t.game is not None and t.game.actions == actions and t.decision_serial() == serial
            assert [a.text for a in t.game.actions] == await _stored(repo, tid) and len(seen) == heard
            monkeypatch.undo()
            update = await svc.act(tid, ALICE, move.text, serial)
            assert update.actions[0] == move
        finally:
            await repo.close()

    asyncio.run(main())

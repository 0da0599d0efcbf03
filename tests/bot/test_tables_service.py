"""TableService and the timer dispatcher over a real SQLite file (no Discord)."""

from __future__ import annotations

import asyncio
import hashlib
import time
from pathlib import Path

import pytest

from bot.storage.repository import MIGRATIONS, Repository
from bot.tables import TableError, TableService
from bot.timers import TimerDispatcher


async def _table(tmp: Path, **kw: object) -> tuple[Repository, TableService, int]:
    repo = Repository(tmp / "t.sqlite3")
    await repo.open()
    svc = TableService(repo)
    svc.new_seed = lambda: "storage-tests"  # a known deal: alice's first decision is a turn with a choice of discards
    t = await svc.open_table(guild_id=1, channel_id=2, opener_id=10, opener_name="alice", length="tonpuu", **kw)  # type: ignore[arg-type]
    await svc.add_ai(t.id, 3)
    await svc.start(t.id, 10)
    return repo, svc, t.id


def test_expired_live_clock_plays_the_drawn_tile_or_passes(tmp_path: Path) -> None:
    async def main() -> None:
        repo, svc, tid = await _table(tmp_path, turn_seconds=5, bank_seconds=0)
        t = svc.tables[tid]
        disp = TimerDispatcher(svc)
        disp.start()
        try:
            for _ in range(3):
                assert t.humans_to_act()
                serial = t.decision_serial()
                timer = await repo.next_timer()
                assert timer is not None and timer.serial == serial and timer.due - timer.prompt_at == 5
                # make it due now: the dispatcher wakes and times the turn out
                await repo.set_timer(tid, serial, time.time() - 1, time.time() - 6)
                disp.poke()
                for _ in range(200):
                    if t.decision_serial() != serial or t.game.over:  # type: ignore[union-attr]
                        break
                    await asyncio.sleep(0.01)
                assert t.decision_serial() != serial
                async with t.lock:  # its write is done (the move shows in memory while it is stored)
                    pass
                stored = await repo.actions(tid)
                assert stored and stored[serial][1].startswith(f"{t.seat_of(10)}")  # the timeout acted for alice's seat
        finally:
            await disp.stop()
            await repo.close()

    asyncio.run(main())


def test_async_table_set_to_wait_does_not_act_at_the_deadline(tmp_path: Path) -> None:
    async def main() -> None:
        repo, svc, tid = await _table(tmp_path, mode="async", async_hours=2, on_expiry="wait")
        t = svc.tables[tid]
        serial = t.decision_serial()
        assert await svc.timeout(tid, serial) is None
        assert t.decision_serial() == serial
        await repo.close()

    asyncio.run(main())


def test_corrupt_rows_are_reported_and_skipped(tmp_path: Path) -> None:
    async def main() -> None:
        repo, svc, tid = await _table(tmp_path)
        await repo.db.execute("UPDATE tables SET options = '{not json' WHERE id = ?", (tid,))
        await repo.db.execute("INSERT INTO actions (table_id, serial, action, created_at) VALUES (?, 99999, 'zz!', 0)", (tid,))
        problems = await repo.check()
        assert any(f"tables row {tid}: bad options JSON" in p for p in problems)
        assert any("serial 99999" in p for p in problems)
        assert await repo.tables_with_status("open", "playing") == []  # skipped, not a crash
        fresh = TableService(repo)
        assert await fresh.load() == []
        await repo.close()

    asyncio.run(main())


def test_lobby_refusals_are_sentences(tmp_path: Path) -> None:
    async def main() -> None:
        repo = Repository(tmp_path / "t.sqlite3")
        await repo.open()
        svc = TableService(repo)
        try:
            await svc.open_table(guild_id=1, channel_id=2, opener_id=1, opener_name="a", ruleset="nosuchrule")
            raise AssertionError("an unknown ruleset is not playable at a table")
        except TableError as e:
            assert "unknown ruleset 'nosuchrule'" in str(e)
        t = await svc.open_table(guild_id=1, channel_id=2, opener_id=1, opener_name="a")
        for msg, coro in [
            ("you are already at that table", svc.join(t.id, 1, "a")),
            ("you are not at that table", svc.leave(t.id, 5)),
            ("needs 4 players", svc.start(t.id, 1)),
            ("there is no table #99", svc.join(99, 2, "b")),
        ]:
            try:
                await coro
                raise AssertionError(msg)
            except TableError as e:
                assert msg in str(e)
        await repo.close()

    asyncio.run(main())


def test_migrations_record_the_schema_version(tmp_path: Path) -> None:
    async def main() -> None:
        repo = Repository(tmp_path / "m.sqlite3")
        await repo.open()
        latest = max(int(f.name[:4]) for f in MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.sql"))
        assert await repo.schema_version() == latest
        assert await repo.migrate() == latest  # idempotent
        await repo.backup(tmp_path / "copy.sqlite3")
        await repo.close()
        copy = Repository(tmp_path / "copy.sqlite3")
        await copy.open()
        assert await copy.schema_version() == latest
        await copy.close()

    asyncio.run(main())


def test_a_click_answered_before_the_clock_ran_out_goes_before_the_timeout(tmp_path: Path) -> None:
    # the click's work waits in bot.responses' queue; the turn clock queues behind it
    from bot.responses import FirstResponses

    class _Pending:
        id = 1

        class response:  # noqa: N801 - the shape of discord.Interaction.response
            @staticmethod
            def is_done() -> bool:
                return False

    async def main() -> None:
        repo, svc, tid = await _table(tmp_path, turn_seconds=5, bank_seconds=0)
        t = svc.tables[tid]
        responses = FirstResponses(limit=0.2)
        disp = TimerDispatcher(svc, settled=responses.settled)
        seat = t.seat_of(10)
        assert seat is not None and seat in t.humans_to_act()
        serial = t.decision_serial()
        g = t.game
        assert g is not None
        mine = next(a for a in g.legal_actions(seat) if a.type.name == "DISCARD" and a.tile != g.code(g.drawn))
        responses.arrived(_Pending())  # another click still waits for its first answer

        async def click() -> None:  # answered (deferred) just before the deadline
            await responses.settled()
            await svc.act(tid, 10, mine.text, serial)

        clicked = asyncio.create_task(click())
        await asyncio.sleep(0)
        await repo.set_timer(tid, serial, time.time() - 1, time.time() - 6)
        disp.start()
        try:
            await asyncio.wait_for(clicked, 2)  # accepted: not "that turn has passed"
            stored = await repo.actions(tid)
            assert stored[serial][1] == mine.text  # the player's own discard, not the tsumogiri
        finally:
            await disp.stop()
            await repo.close()

    asyncio.run(main())


def test_tables_of_one_ruleset_starting_at_once_share_one_table_load(tmp_path: Path, monkeypatch: object) -> None:
    import threading

    import bot.tables.restore as tables_mod
    from engine.rules import find_ruleset

    calls: list[int] = []

    def slow_warm(rulesets: object) -> list[str]:
        calls.append(threading.get_ident())
        time.sleep(0.2)
        return []

    monkeypatch.setattr(tables_mod, "warm_up", slow_warm)  # type: ignore[attr-defined]

    async def main() -> None:
        repo = Repository(tmp_path / "t.sqlite3")
        await repo.open()
        svc = TableService(repo)
        rs = find_ruleset("taiwan16")
        await asyncio.gather(svc.prepare(rs), svc.prepare(rs), svc.prepare(rs))
        await svc.prepare(rs)  # loaded already: no second load
        await repo.close()

    asyncio.run(main())
    assert len(calls) == 1



def test_the_thread_and_the_seed_commitment_are_stored_by_the_service_first(tmp_path: Path) -> None:
    """Issue 18 section 4: /table open's thread and /table start's commitment go through
    TableService, stored before the table in memory changes (a refusal stores nothing)."""

    async def main() -> tuple[object, object, object]:
        repo = Repository(tmp_path / "t.sqlite3")
        await repo.open()
        try:
            svc = TableService(repo)
            svc.new_seed = lambda: "commit-me"
            t = await svc.open_table(guild_id=1, channel_id=2, opener_id=10, opener_name="alice")
            await svc.set_thread(t.id, 555)
            assert t.row.thread_id == 555
            await svc.add_ai(t.id, 2)
            with pytest.raises(TableError, match="needs 4 players"):  # refused as start() would be
                await svc.commit_seed(t.id, 10)
            row = await repo.get_table(t.id)
            assert row is not None and row.commitment is None and t.row.commitment is None
            await svc.add_ai(t.id, 1)
            await svc.commit_seed(t.id, 10)
            row = await repo.get_table(t.id)
            assert row is not None
            return row.thread_id, row.commitment, t.row.commitment
        finally:
            await repo.close()

    thread_id, stored, in_memory = asyncio.run(main())
    # SHA-256 of the canonical JSON of ruleset, options and seed (tests/engine/test_fairness.py)
    want = hashlib.sha256(b'{"options":{},"ruleset":"riichi","seed":"commit-me"}').hexdigest()
    assert thread_id == 555 and stored == in_memory == want


def test_an_organiser_of_another_server_cannot_abandon_a_table(tmp_path: Path) -> None:
    """A table number is global: an organiser in server 2 naming table #1 of server 1 (or a damaged
    one) is told there is no such table in their server, and the table stays as it was."""

    async def main() -> None:
        repo = Repository(tmp_path / "t.sqlite3")
        await repo.open()
        svc = TableService(repo)
        try:
            t = await svc.open_table(guild_id=1, channel_id=2, opener_id=1, opener_name="a")
            for tid in (t.id,):
                try:
                    await svc.abandon(tid, 99, organiser=True, guild_id=2)
                    raise AssertionError("another server's organiser closed the table")
                except TableError as e:
                    assert str(e) == f"there is no table #{tid} in this server"
            assert t.row.status == "open" and (await repo.get_table(t.id)).status == "open"  # type: ignore[union-attr]
            # a damaged table of server 1: the same answer in server 2, closed by server 1's organiser
            d = await svc.open_table(guild_id=1, channel_id=2, opener_id=1, opener_name="a")
            await repo.write(lambda conn: conn.execute("UPDATE tables SET options = '{bad' WHERE id = ?", (d.id,)))
            svc.tables.pop(d.id)
            try:
                await svc.get(d.id)
                raise AssertionError("the damaged table was rebuilt")
            except TableError:
                pass
            try:
                await svc.abandon(d.id, 99, organiser=True, guild_id=2)
                raise AssertionError("another server's organiser closed the damaged table")
            except TableError as e:
                assert str(e) == f"there is no table #{d.id} in this server"
            assert await svc.abandon(d.id, 1, organiser=True, guild_id=1) is None
            async with repo.db.execute("SELECT status FROM tables WHERE id = ?", (d.id,)) as cur:
                assert (await cur.fetchone())[0] == "abandoned"  # type: ignore[index]
            await svc.abandon(t.id, 1, organiser=False, guild_id=1)  # its opener, in its own server
            assert t.row.status == "abandoned"
        finally:
            await repo.close()

    asyncio.run(main())


def test_the_tables_a_channel_or_a_server_has_come_from_the_service(tmp_path: Path) -> None:
    """What /table reads of stored tables (cogs/tables.py reaches no repository): a channel's
    tables with the statuses asked, oldest first; a server's open and playing tables, not another
    server's, not an abandoned one; /table verify's sentence for a table that has not started."""

    async def main() -> None:
        repo = Repository(tmp_path / "t.sqlite3")
        await repo.open()
        svc = TableService(repo)
        try:
            a = await svc.open_table(guild_id=1, channel_id=2, opener_id=10, opener_name="alice")
            b = await svc.open_table(guild_id=1, channel_id=2, opener_id=10, opener_name="alice")
            c = await svc.open_table(guild_id=1, channel_id=3, opener_id=10, opener_name="alice")
            d = await svc.open_table(guild_id=5, channel_id=6, opener_id=20, opener_name="bob")
            e = await svc.open_table(guild_id=1, channel_id=2, opener_id=10, opener_name="alice")
            await svc.add_ai(b.id, 3)
            await svc.start(b.id, 10)
            await svc.abandon(e.id, 10, organiser=False, guild_id=1)
            assert [r.id for r in await svc.tables_in_channel(2, "open")] == [a.id]
            assert [r.id for r in await svc.tables_in_channel(2, "open", "playing")] == [a.id, b.id]
            assert [r.id for r in await svc.tables_in_channel(2, "playing", "finished")] == [b.id]
            assert [r.id for r in await svc.tables_in_server(1)] == [a.id, b.id, c.id]
            assert [r.id for r in await svc.tables_in_server(5)] == [d.id]
            assert await svc.verify(a.id) == f"Table #{a.id} has not started: only a finished game can be verified."
            assert await svc.verify(e.id) == f"Table #{e.id} was abandoned: only a finished game can be verified."
        finally:
            await repo.close()

    asyncio.run(main())

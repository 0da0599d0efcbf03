"""Issue 29: a PostgreSQL database that becomes unreachable during a game. The click that cannot be
stored is not applied and its player gets one sentence; when the database is back the same button
plays the move and the game goes on from the stored state, nothing lost."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
import pytest

from bot.storage.postgres import is_url
from tests.bot.harness import club
from tests.conftest import PG_SERVER

SAVE_FAILED = "I could not save that move, so nothing changed: please try again in a moment."


async def _admin(sql: str) -> None:
    conn = await asyncpg.connect(f"{PG_SERVER}/postgres", timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def test_a_click_while_postgres_is_unreachable_is_refused_in_one_sentence_and_the_game_goes_on(
    tmp_path: Path, database: str
) -> None:
    if not is_url(database):
        pytest.skip("a PostgreSQL server's outage")
    name = database.rsplit("/", 1)[1]

    async def main() -> None:
        async with club(tmp_path, database=database) as c:
            await c.slash("alice", "table open", {"length": "tonpuu"})
            await c.slash("alice", "table add-ai", {"seats": 3})
            await c.slash("alice", "table start", {})
            t = await c.started()
            svc = c.bot.service
            mid, ids = await c.server.wait_for(lambda: (lambda b: b if b[1] else None)(c.live_buttons("alice")), timeout=30,
                                               what="alice's first decision")
            serial = t.decision_serial()
            stored = [a for _, a in await svc.repo.actions(t.id)]
            assert [a.text for a in t.game.actions] == stored  # type: ignore[union-attr]
            # the server goes away for this database: every connection ended, no new one let in
            await _admin(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
            await _admin(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")
            try:
                rec = await c.server.click(c.users["alice"].id, mid, ids[0])
                await c.server.wait_for(lambda: c.replies(rec), timeout=20, what="the refusal")  # noqa: B023
                assert c.replies(rec) == [SAVE_FAILED]
                assert t.decision_serial() == serial  # not applied
                assert [a.text for a in t.game.actions] == stored  # type: ignore[union-attr]
            finally:
                await _admin(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
            # back: the same button plays the move, and what is stored is what is played
            rec = await c.server.click(c.users["alice"].id, mid, ids[0])
            await c.server.wait_for(lambda: t.decision_serial() != serial, timeout=20, what="the move")
            await asyncio.sleep(0.2)
            assert SAVE_FAILED not in c.replies(rec)
            for _ in range(100):  # the AI seats move on; each of their moves is stored before it shows
                now = [a for _, a in await svc.repo.actions(t.id)]
                if now == [a.text for a in t.game.actions]:  # type: ignore[union-attr]
                    break
                await asyncio.sleep(0.05)
            assert now == [a.text for a in t.game.actions] and len(now) > len(stored)  # type: ignore[union-attr]
            assert now[: len(stored)] == stored and now[len(stored)].startswith(str(t.seat_of(c.users["alice"].id)))

    asyncio.run(main())

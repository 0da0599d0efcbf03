"""A process of several acts only for the tables of its own shards' servers: the restore at start-up,
the turn clocks and a table asked for by number (SQLite and PostgreSQL; the shard filter is SQL).

The guild ids are built so their shard is known by hand: Discord's shard of a server is
``(id >> 22) % count``, so ``n << 22`` is on shard ``n % count``.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.storage.repository import Repository
from bot.tables import TableError, TableService

GUILD_ON = {0: 4 << 22, 1: 5 << 22, 2: 6 << 22}  # shards 0, 1, 2 of 4 (4 % 4, 5 % 4, 6 % 4)
GUILD_3 = (7 << 22) | 12345  # shard 3 of 4: the low 22 bits do not count


async def _tables(svc: TableService) -> dict[int | None, int]:
    """One started table in each guild (and one without a guild), a clock on each; guild -> table."""
    out: dict[int | None, int] = {}
    for n, gid in enumerate([*GUILD_ON.values(), GUILD_3, None]):
        t = await svc.open_table(guild_id=gid, channel_id=100 + n, opener_id=10 + n, opener_name=f"p{n}", length="tonpuu")
        await svc.add_ai(t.id, 3)
        await svc.start(t.id, 10 + n)
        await svc.repo.set_timer(t.id, t.decision_serial(), time.time() + 60 - n, time.time())  # the guildless one due first
        out[gid] = t.id
    return out


def test_a_process_restores_times_and_acts_only_for_its_shards(database: str) -> None:
    async def main() -> None:
        repo = Repository(database)
        await repo.open()
        try:
            ids = await _tables(TableService(repo))
            # a process holding shards 1 and 3 of 4
            svc = TableService(repo)
            svc.restore.shards = (4, frozenset({1, 3}))
            restored = {t.row.guild_id for t in await svc.load()}
            assert restored == {GUILD_ON[1], GUILD_3}
            timer = await svc.clocks.next_timer(set())
            assert timer is not None and timer.table_id == ids[GUILD_3]  # due before shard 1's; the others are not its own
            with pytest.raises(TableError) as refused:
                await svc.get(ids[GUILD_ON[2]])
            assert "another process" in str(refused.value) and ids[GUILD_ON[2]] not in svc.tables
            # the process holding shard 0 has the tables of shard 0's server and the one without a server
            svc0 = TableService(repo)
            svc0.restore.shards = (4, frozenset({0}))
            assert {t.row.guild_id for t in await svc0.load()} == {GUILD_ON[0], None}
            timer = await svc0.clocks.next_timer(set())
            assert timer is not None and timer.table_id == ids[None]
            # one process (no shards named) has them all, as before
            assert len(await TableService(repo).load()) == 5
        finally:
            await repo.close()

    asyncio.run(main())

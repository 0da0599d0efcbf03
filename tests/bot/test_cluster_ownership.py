"""Which process owns a table's guild: Discord's shard formula, computed by hand here."""

from __future__ import annotations

import asyncio

import pytest

from bot.cluster.ownership import Ownership, TableGuilds, shard_of, table_of
from bot.shards import parse_shards


def test_the_shard_is_the_guild_ids_timestamp_part_modulo_the_count() -> None:
    # (guild_id >> 22) % shard_count: the low 22 bits (worker, process, increment) do not count
    g = (1234 << 22) | 0x3FFFFF
    assert shard_of(g, 1) == 0
    assert shard_of(g, 2) == 0  # 1234 is even
    assert shard_of(g, 4) == 2  # 1234 = 4 * 308 + 2
    assert shard_of((1235 << 22), 2) == 1


def test_a_process_owns_the_guilds_of_the_shards_it_holds() -> None:
    plan = parse_shards("2-3/4")
    assert plan is not None
    o = Ownership.of(plan.count, plan.ids)
    assert o.shard_ids == {2, 3} and not o.receives_dms and not o.everything
    assert o.owns(1234 << 22) and o.owns(1235 << 22)  # shards 2 and 3
    assert not o.owns(1236 << 22) and o.owner(1236 << 22) == 0
    one = Ownership.of(None, None)  # one unsharded process owns everything and gets every DM
    assert one.everything and one.receives_dms and one.owns(1235 << 22)
    assert Ownership.of(4, None).shard_ids == {0, 1, 2, 3}
    with pytest.raises(ValueError):
        Ownership.of(2, [2])


def test_table_buttons_name_their_table_and_nothing_else_does() -> None:
    assert table_of("mj:12:3:1d5m") == 12
    assert table_of("mjr:7:0:2") == 7 and table_of("mjw:9:4:0d1p") == 9 and table_of("mjh:41") == 41
    assert table_of("lkr:riichi:2:5") is None and table_of("mjx") is None and table_of("mj:") is None


def test_a_tables_guild_is_read_once() -> None:
    reads: list[int] = []

    async def lookup(table: int) -> int | None:
        reads.append(table)
        return {5: 555}.get(table)

    async def main() -> None:
        guilds = TableGuilds(lookup)
        assert await guilds.guild_of(5) == 555 and await guilds.guild_of(5) == 555
        assert await guilds.guild_of(6) is None and await guilds.guild_of(6) is None  # unknown: asked again
        guilds.note(8, 888)
        assert guilds.known(8) == 888 and await guilds.guild_of(8) == 888

    asyncio.run(main())
    assert reads == [5, 6, 6]

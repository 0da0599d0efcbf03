"""Issue 16 item 4 through Discord: after a restart with a damaged table, /table status names it in
one sentence (what is damaged, what an organiser can do) and the other tables answer as before."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from tests.bot.harness import club
from tests.bot.storage_fixture import Fixture, build, corrupt


def test_table_status_names_a_damaged_table_and_the_others_still_answer(tmp_path: Path) -> None:
    made: list[Fixture] = []

    async def prepare(guild_id: int, path: Path) -> None:  # the file the bot opens at start-up
        fx = await build(path, guild_id)
        corrupt(fx.path, "UPDATE tables SET options = '{not json' WHERE id = ?", (fx.a,))
        made.append(fx)

    async def main() -> None:
        async with club(tmp_path, prepare=prepare) as c:
            fx = made[0]
            rec = await c.slash("alice", "table status", {"table": fx.a})
            assert c.replies(rec) == [
                f"Table #{fx.a} is paused because its stored data is damaged (bad options JSON (Expecting property name enclosed in "
                "double quotes: line 1 column 2 (char 1))); the other tables are not affected, an organiser can ask the bot's "
                f"host to run `python -m bot db check`, which lists the damaged rows to repair, or close it with `/table abandon table:{fx.a}`."
            ]
            rec = await c.slash("alice", "table status", {"table": fx.b})
            (text,) = c.replies(rec)
            assert text.startswith(f"**Table #{fx.b}** · riichi · live") and "bob" in text
            rec = await c.slash("alice", "table status", {"table": fx.c})
            (text,) = c.replies(rec)
            assert "waiting for players (1 seated: carol)" in text

            # the damaged table can be closed from Discord, by an organiser only
            rec = await c.slash("bob", "table abandon", {"table": fx.a})
            assert c.replies(rec) == [f"table #{fx.a} is damaged: only an organiser can abandon it"]
            role = c.server.add_role(c.guild_id, "Organiser")
            c.server.add_member(c.guild_id, c.users["alice"].id, roles=[role.id])
            await asyncio.sleep(0.1)
            rec = await c.slash("alice", "table abandon", {"table": fx.a})
            assert c.replies(rec) == [f"Table #{fx.a} was abandoned by alice."]
            assert fx.a not in c.bot.service.damaged
            con = sqlite3.connect(fx.path)
            try:
                assert con.execute("SELECT status FROM tables WHERE id = ?", (fx.a,)).fetchone()[0] == "abandoned"
            finally:
                con.close()

    asyncio.run(main())

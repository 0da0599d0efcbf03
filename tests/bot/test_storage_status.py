"""Issue 16 item 4 through Discord: after a restart with a damaged table, /table status names it in
one sentence (what is damaged, what an organiser can do) and the other tables answer as before."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.bot.harness import club
from tests.bot.storage_fixture import build, corrupt


def test_table_status_names_a_damaged_table_and_the_others_still_answer(tmp_path: Path) -> None:
    fx = asyncio.run(build(tmp_path / "jantaku.sqlite3"))  # the file the bot opens at start-up
    corrupt(fx.path, "UPDATE tables SET options = '{not json' WHERE id = ?", (fx.a,))

    async def main() -> None:
        async with club(tmp_path) as c:
            rec = await c.slash("alice", "table status", {"table": fx.a})
            assert c.replies(rec) == [
                f"Table #{fx.a} is paused because its stored data is damaged (bad options JSON (Expecting property name enclosed in "
                "double quotes: line 1 column 2 (char 1))); the other tables are not affected, and an organiser can ask the bot's "
                "host to run `python -m bot db check`, which lists the damaged rows to repair."
            ]
            rec = await c.slash("alice", "table status", {"table": fx.b})
            (text,) = c.replies(rec)
            assert text.startswith(f"**Table #{fx.b}** · riichi · live") and "bob" in text
            rec = await c.slash("alice", "table status", {"table": fx.c})
            (text,) = c.replies(rec)
            assert "waiting for players (1 seated: carol)" in text

    asyncio.run(main())

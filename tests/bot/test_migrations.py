"""A database created by schema version 1 upgrades to the current schema with nothing lost."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.standings.service import StandingsService
from bot.storage.repository import MIGRATIONS, Repository, _statements

V1 = MIGRATIONS / "0001_init.sql"


def _make_v1(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """A version-1 file with a finished bot game and a table in play, as version 1 wrote them."""
    con = sqlite3.connect(path)
    for stmt in _statements(V1.read_text()):
        con.execute(stmt)
    con.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    con.execute("INSERT INTO schema_version VALUES (1)")
    con.execute(
        "INSERT INTO tables (id, guild_id, channel_id, opener_id, ruleset, options, seed, status, created_at, finished_at)"
        " VALUES (1, 7, 8, 10, 'riichi', '{\"hanchan\": false}', 'abc', 'finished', 100.0, 200.0)"
    )
    con.execute("INSERT INTO tables (id, guild_id, channel_id, opener_id, ruleset, seed, status, created_at) VALUES (2, 7, 8, 11, 'tenhou', 'def', 'playing', 300.0)")
    for t in (1, 2):
        con.execute("INSERT INTO seats (table_id, seat, user_id, name) VALUES (?, 0, 10, 'alice')", (t,))
        con.execute("INSERT INTO seats (table_id, seat, user_id, name) VALUES (?, 1, 11, 'bob')", (t,))
        con.execute("INSERT INTO seats (table_id, seat, ai, name) VALUES (?, 2, 'smart', 'AI 1')", (t,))
        con.execute("INSERT INTO seats (table_id, seat, ai, name) VALUES (?, 3, 'smart', 'AI 2')", (t,))
    con.executemany("INSERT INTO actions (table_id, serial, action, user_id, created_at) VALUES (?, ?, ?, ?, ?)",
                    [(2, i, f"{i % 4}d1m", None, 300.0 + i) for i in range(5)])
    con.execute("INSERT INTO timers (table_id, serial, due, prompt_at) VALUES (2, 5, 400.0, 350.0)")
    con.execute("INSERT INTO games (id, guild_id, table_id, source, ruleset, finished_at, data) VALUES (1, 7, 1, 'bot', 'riichi', 200.0, '{\"seed\": \"abc\"}')")
    for seat, (uid, name, pts, place, res) in enumerate(
        [(10, "alice", 40000, 1, 50.0), (11, "bob", 30000, 2, 10.0), (None, "AI 1", 20000, 3, -20.0), (None, "AI 2", 10000, 4, -40.0)]
    ):
        con.execute("INSERT INTO game_players (game_id, seat, user_id, name, points, place, result) VALUES (1, ?, ?, ?, ?, ?, ?)",
                    (seat, uid, name, pts, place, res))
    con.commit()
    dump = {t: con.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in ("tables", "seats", "actions", "timers", "games", "game_players")}
    con.close()
    return dump


def test_a_version_1_database_upgrades_with_nothing_lost(tmp_path: Path) -> None:
    path = tmp_path / "v1.sqlite3"
    before = _make_v1(path)

    async def main() -> None:
        repo = Repository(path)
        await repo.open()
        latest = max(int(f.name[:4]) for f in MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.sql"))
        assert await repo.schema_version() == latest >= 2
        for table, rows in before.items():
            async with repo.db.execute(f"SELECT * FROM {table} ORDER BY 1, 2") as cur:
                now = await cur.fetchall()
            width = len(rows[0])
            assert [tuple(r)[:width] for r in now] == rows, table  # old columns unchanged, new ones appended
        # the old rows read through the new code
        row = await repo.get_table(2)
        assert row is not None and [s.name for s in row.seats] == ["alice", "bob", "AI 1", "AI 2"]
        assert [a for _, a in await repo.actions(2)] == [f"{i % 4}d1m" for i in range(5)]
        g = await repo.get_game(1)
        assert g is not None and g.status == "ok" and g.season_id is None and g.source == "bot"
        assert [(p.player, p.kind) for p in g.players] == [("u:10", "user"), ("u:11", "user"), ("ai:AI 1", "ai"), ("ai:AI 2", "ai")]
        assert await repo.check() == []
        # and the standings work on top of it
        st = StandingsService(repo)
        season = await st.start_season(7, 10, "After the upgrade")
        assert season.id == 1
        await repo.close()
        # opening again applies nothing twice
        again = Repository(path)
        await again.open()
        assert await again.schema_version() == latest
        async with again.db.execute("SELECT COUNT(*) FROM schema_version") as cur:
            # one row per migration file (the numbers may have gaps while branches add theirs)
            assert (await cur.fetchone())[0] == len(list(MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.sql")))  # type: ignore[index]
        await again.close()

    asyncio.run(main())

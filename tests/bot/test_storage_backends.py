"""Issue 29: the same storage on SQLite and PostgreSQL (the ``database`` fixture runs each test on
both). A club's tables restart from either; ``db check`` and ``db backup`` work on both; a write
that fails stores nothing; a PostgreSQL connection lost in the middle of a move applies nothing and
the next write goes on from the stored state; a PostgreSQL database migrated from an older schema
ends the same as one created fresh."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.storage.postgres import PgOperationalError, is_url
from bot.storage.repository import MIGRATIONS, Repository, SeatRow
from bot.tables import TableService
from tests.bot.storage_fixture import ALICE, build, corrupt, dump, rows
from tests.conftest import postgres_database

#: the newest schema version: the number of the last migration file
LATEST = max(int(f.name[:4]) for f in MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.sql"))


def _db(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    capsys.readouterr()
    code = main(["db", *args])
    return code, capsys.readouterr().out.splitlines()


def test_the_clubs_tables_restart_the_same_and_check_clean(database: str, capsys: pytest.CaptureFixture[str]) -> None:
    fx = asyncio.run(build(database))
    # what the fixture played, read back outside the bot: table D's game has four seats, places 1 to 4
    assert rows(database, "SELECT status FROM tables ORDER BY id") == [("playing",), ("playing",), ("open",), ("finished",)]
    places = rows(database, "SELECT place FROM game_players WHERE game_id = ? ORDER BY place", (fx.game,))
    assert places == [(1,), (2,), (3,), (4,)]
    before = dump(database)

    async def restart() -> None:
        repo = Repository(database)
        await repo.open()
        try:
            svc = TableService(repo)
            loaded = {t.id for t in await svc.load()}
            assert loaded == {fx.a, fx.b, fx.c} and not svc.damaged
            a = svc.tables[fx.a]
            assert a.game is not None and a.seat_of(ALICE) in a.humans_to_act()  # alice's turn, as stored
        finally:
            await repo.close()

    asyncio.run(restart())
    assert dump(database) == before  # a restart writes nothing
    assert _db(capsys, "--database", database, "check") == (0, ["0 problem row(s)"])


def test_db_check_names_an_illegal_move_and_orphaned_players(database: str, capsys: pytest.CaptureFixture[str]) -> None:
    fx = asyncio.run(build(database))
    serial, text = rows(database, "SELECT serial, action FROM actions WHERE table_id = ? AND serial = 2", (fx.b,))[0]
    move = f"{(int(text[0]) + 2) % 4}d1m"  # the seat opposite discards: not its turn
    corrupt(database, "UPDATE actions SET action = ? WHERE table_id = ? AND serial = ?", (move, fx.b, serial))
    corrupt(database, "DELETE FROM games WHERE id = ?", (fx.game,))  # its players stay (foreign keys off)
    code, out = _db(capsys, "--database", database, "check")
    assert code == 1
    assert any(line.startswith(f"table #{fx.b}: move {serial} of its log ('{move}') is not a legal move: ") for line in out), out
    orphans = [line.split(":")[0] for line in out if f"its game #{fx.game} does not exist" in line]
    assert orphans == [f"game_players row (game {fx.game}, seat {s})" for s in range(4)]
    assert f"tables row {fx.d}: the table is finished but no games row records its game" in out


def test_a_backup_holds_every_row(database: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fx = asyncio.run(build(database))
    dest = tmp_path / "club.backup"
    code, out = _db(capsys, "--database", database, "backup", str(dest))
    assert (code, out) == (0, [f"backed up to {dest}"])
    if not is_url(database):
        assert dump(dest) == dump(database)
        return
    # a pg_dump archive: restored into an empty database, it is the same club
    for copy in postgres_database():
        import subprocess

        subprocess.run(["pg_restore", "--no-owner", "--dbname", copy, str(dest)], check=True, capture_output=True)
        assert dump(copy) == dump(database)
        assert rows(copy, "SELECT MAX(version) FROM schema_version") == [(LATEST,)]
        assert rows(copy, "SELECT COUNT(*) FROM games WHERE id = ?", (fx.game,)) == [(1,)]


def test_a_write_that_fails_stores_nothing(database: str) -> None:
    async def main_() -> None:
        repo = Repository(database)
        await repo.open()
        try:
            tid = await repo.create_table(guild_id=1, channel_id=2, opener_id=3, ruleset="riichi", seed="s", mode="live",
                                          seats=[SeatRow(0, 3, None, "alice")])

            def half_done(conn: Any) -> None:
                conn.execute("UPDATE tables SET seed = 'changed' WHERE id = ?", (tid,))
                conn.execute("INSERT INTO seats (table_id, seat, user_id, ai, name) VALUES (?, 0, 4, NULL, 'bob')", (tid,))

            with pytest.raises(sqlite3.IntegrityError):  # seat 0 is taken: the whole write is rolled back
                await repo.write(half_done)
            t = await repo.get_table(tid)
            assert t is not None and t.seed == "s" and [s.name for s in t.seats] == ["alice"]
            # ids come from the database on both (INSERT ... RETURNING id)
            tid2 = await repo.create_table(guild_id=1, channel_id=2, opener_id=3, ruleset="riichi", seed="t", mode="live")
            assert tid2 == tid + 1
        finally:
            await repo.close()

    asyncio.run(main_())


def test_a_lost_postgres_connection_applies_nothing_and_the_next_write_goes_on(database: str) -> None:
    if not is_url(database):
        pytest.skip("a PostgreSQL connection only")

    async def main_() -> None:
        repo = Repository(database)
        await repo.open()
        try:
            tid = await repo.create_table(guild_id=1, channel_id=2, opener_id=3, ruleset="riichi", seed="s", mode="live")
            await repo.append_actions(tid, 0, [("0d1m", 3)])

            def killed_midway(conn: Any) -> None:
                conn.execute("INSERT INTO actions (table_id, serial, action, user_id, created_at) VALUES (?, 1, '1d2m', 3, 0)", (tid,))
                # the server ends this very connection (an operator, a fail-over): the write cannot commit
                conn.execute("SELECT pg_terminate_backend(pg_backend_pid())")

            with pytest.raises(sqlite3.Error) as e:
                await repo.write(killed_midway)
            assert isinstance(e.value, PgOperationalError)
            assert await repo.actions(tid) == [(0, "0d1m")]  # the move was not applied
            await repo.append_actions(tid, 1, [("1d2m", 3)])  # the writer reconnects: the game goes on
            assert await repo.actions(tid) == [(0, "0d1m"), (1, "1d2m")]
        finally:
            await repo.close()

    asyncio.run(main_())


_SCHEMA = (
    "SELECT table_name, column_name, data_type, is_nullable, column_default, collation_name"
    " FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, column_name"
)
_INDEXES = "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname"
_CHECKS = (
    "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint"
    " WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2"
)


async def _create(target: str) -> None:
    repo = Repository(target)
    await repo.open()
    await repo.close()


def test_a_postgres_database_migrated_from_an_older_schema_ends_as_a_fresh_one(database: str) -> None:
    if not is_url(database):
        pytest.skip("PostgreSQL's schema (SQLite's: tests/bot/test_migrations.py)")

    async def older_then_current() -> None:
        repo = Repository(database)
        repo.migrate = lambda: repo.migrate_to_version(1)  # type: ignore[method-assign]
        await repo.open()  # a club that ran the bot at schema version 1, with a table and a game
        try:
            tid = await repo.create_table(guild_id=1, channel_id=2, opener_id=3, ruleset="riichi", seed="s", mode="live")

            def game(conn: Any) -> None:
                gid = conn.execute(
                    "INSERT INTO games (guild_id, table_id, ruleset, finished_at) VALUES (1, ?, 'riichi', 1.0) RETURNING id", (tid,)
                ).fetchone()[0]
                conn.executemany(
                    "INSERT INTO game_players (game_id, seat, user_id, name, points, place, result) VALUES (?, ?, ?, ?, 25000, ?, 0)",
                    [(gid, s, 10 + s if s else None, f"p{s}", s + 1) for s in range(4)],
                )

            await repo.write(game)
            assert await repo.schema_version() == 1
        finally:
            await repo.close()
        repo = Repository(database)
        await repo.open()
        try:
            assert await repo.schema_version() == LATEST
        finally:
            await repo.close()

    asyncio.run(older_then_current())
    # migration 0002's rewrite of the version-1 seats held
    assert rows(database, "SELECT seat, player, kind FROM game_players ORDER BY seat") == [
        (0, "ai:p0", "ai"), (1, "u:11", "user"), (2, "u:12", "user"), (3, "u:13", "user")
    ]
    for fresh in postgres_database():
        asyncio.run(_create(fresh))
        for q in (_SCHEMA, _INDEXES, _CHECKS):
            assert rows(database, q) == rows(fresh, q), q
        # ids are 64-bit (Discord ids), times are doubles, text compares byte by byte as in SQLite
        types = {(t, c): (d, coll) for t, c, d, _, _, coll in rows(fresh, _SCHEMA)}
        assert types[("tables", "channel_id")] == ("bigint", None)
        assert types[("tables", "created_at")] == ("double precision", None)
        assert types[("game_players", "player")] == ("text", "C")


def test_a_postgres_connection_ended_while_idle_is_replaced_and_the_write_succeeds(database: str) -> None:
    if not is_url(database):
        pytest.skip("a PostgreSQL connection only")
    name = database.rsplit("/", 1)[1]

    async def main_() -> None:
        repo = Repository(database)
        await repo.open()
        try:
            tid = await repo.create_table(guild_id=1, channel_id=2, opener_id=3, ruleset="riichi", seed="s", mode="live")
            # a server restart or a fail-over ends every connection while the bot is between writes
            admin_rows = await asyncio.to_thread(
                rows, database.rsplit("/", 1)[0] + "/postgres",
                f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'",
            )
            assert admin_rows and all(r == (True,) for r in admin_rows)
            await repo.append_actions(tid, 0, [("0d1m", 3)])  # no error: nothing of it had been sent
            assert await repo.actions(tid) == [(0, "0d1m")]  # (the read pool replaces its connection too)
        finally:
            await repo.close()

    asyncio.run(main_())

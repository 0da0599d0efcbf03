"""Issue 18 section 4: one way to write.

Every column a caller names is allow-listed: an unknown keyword (or one dressed up as SQL) raises
before any SQL is built, so no statement runs and nothing is written; the allow-lists name real
columns of the migrated schema. And no module reads a private attribute of an aiosqlite object
(its ``_execute``, ``_conn``, …): checked with the ast module over the project's code.
"""

from __future__ import annotations

import ast
import asyncio
import inspect
import re
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiosqlite
import pytest

from bot.storage.repository import (
    GAME_COLUMNS,
    MIGRATIONS,
    SEASON_COLUMNS,
    SEAT_COLUMNS,
    TABLE_COLUMNS,
    GameRow,
    PlayerLine,
    Repository,
    SeatRow,
    UnknownColumn,
    _statements,
    insert_game,
    set_game,
)

ROOT = Path(__file__).resolve().parents[2]


def _dump(path: Path) -> dict[str, list[tuple[object, ...]]]:
    con = sqlite3.connect(path)
    try:
        names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {n: sorted(map(tuple, con.execute(f"SELECT * FROM {n}")), key=repr) for n in names}
    finally:
        con.close()


def test_the_allowed_columns_are_columns_of_the_schema() -> None:
    con = sqlite3.connect(":memory:")
    for f in sorted(MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.sql")):
        for stmt in _statements(f.read_text()):
            con.execute(stmt)
    columns = {t: {r[1] for r in con.execute(f"PRAGMA table_info({t})")} for t in ("tables", "seats", "seasons", "games")}
    con.close()
    assert columns["tables"] >= TABLE_COLUMNS and "id" not in TABLE_COLUMNS
    assert columns["seats"] >= SEAT_COLUMNS and not {"table_id", "seat"} & SEAT_COLUMNS
    assert columns["seasons"] >= SEASON_COLUMNS and "id" not in SEASON_COLUMNS
    assert columns["games"] >= GAME_COLUMNS and "id" not in GAME_COLUMNS


def test_an_unknown_column_raises_before_any_sql_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite3"

    async def main() -> None:
        repo = Repository(path)
        await repo.open()
        try:
            tid = await repo.create_table(
                guild_id=1, channel_id=2, opener_id=3, ruleset="riichi", options={}, seed="s", mode="live", turn_seconds=30,
                bank_seconds=60, async_hours=24, on_expiry="auto",
            )
            await repo.put_seats(tid, [SeatRow(0, 3, None, "alice")])
            sid = await repo.create_season(3, guild_id=1, name="S", ruleset="riichi", players=4, start_points=25000,
                                           return_points=30000, uma=[20, 10, -10, -20])
            players = [PlayerLine(seat=i, player=f"g:p{i}", user_id=None, name=f"p{i}", kind="guest", points=25000, place=i + 1)
                       for i in range(4)]
            game = GameRow(id=0, guild_id=1, season_id=sid, table_id=None, source="manual", ruleset="riichi", finished_at=1.0,
                           status="ok", sticks=0, data={}, players=players)
            gid = await repo.write(lambda conn: insert_game(conn, game))
            before = _dump(path)
            ran: list[str] = []
            await repo.db.set_trace_callback(ran.append)  # every statement either thread runs on the connection
            sneaky = "status = 'abandoned', thread_id"  # a keyword that is SQL, not a column
            attempts: list[Callable[[], Awaitable[object]]] = [
                lambda: repo.set_table(tid, nosuch=1),
                lambda: repo.set_table(tid, **{sneaky: 5}),
                lambda: repo.set_table(tid, id=99),  # the key is never set by name
                lambda: repo.set_seat(tid, 0, **{"name = 'x', ai": "y"}),
                lambda: repo.set_seat(tid, 0, auto_win=True, nosuch=1),  # one bad keyword spoils the whole call
                lambda: repo.update_season(sid, 3, "season rename", name="T", nosuch=1),
                lambda: repo.create_table(guild_id=1, channel_id=2, opener_id=3, ruleset="riichi", seed="s", mode="live", nosuch=1),
                lambda: repo.create_season(3, guild_id=1, name="U", ruleset="riichi", players=4, start_points=1, return_points=1,
                                           uma=[0, 0, 0, 0], nosuch=1),
                lambda: repo.append_actions(tid, 0, [("0d1m", 3)], table_fields={"status": "playing", "nosuch": 1}),
            ]
            for call in attempts:
                with pytest.raises(UnknownColumn, match="nosuch|thread_id|'id'|, ai"):
                    await call()
            assert ran == []  # raised before any SQL was built, let alone run
            # inside a write, the step raises too, and the whole write is rolled back
            def half_done(conn: sqlite3.Connection) -> None:
                conn.execute("UPDATE tables SET seed = 'x' WHERE id = ?", (tid,))
                set_game(conn, gid, status="void", nosuch=1)

            with pytest.raises(UnknownColumn, match="nosuch"):
                await repo.write(half_done)
            await repo.db.set_trace_callback(None)  # type: ignore[arg-type]
            assert not [s for s in ran if "games" in s]  # the UPDATE of the game was never built
            assert _dump(path) == before  # nothing of any refused write is stored
            # the allowed columns still write
            await repo.set_table(tid, thread_id=77)
            await repo.set_seat(tid, 0, auto_win=True)
            row = await repo.get_table(tid)
            assert row is not None and row.thread_id == 77 and row.seats[0].auto_win
        finally:
            await repo.close()

    asyncio.run(main())


# ---------------------------------------------------------------- aiosqlite's private members


def _aiosqlite_private() -> set[str]:
    """Every private name of aiosqlite's Connection and Cursor: their methods and what their
    ``__init__`` sets on ``self``."""
    names: set[str] = set()
    for cls in (aiosqlite.Connection, aiosqlite.Cursor):
        names |= {n for n in dir(cls) if n.startswith("_") and not n.startswith("__")}
        names |= set(re.findall(r"self\.(_[a-z]\w*)", inspect.getsource(cls)))
    return names


def _private_reads(source: str, private: set[str]) -> list[str]:
    """``line: expression`` for each read of one of ``private`` on an object that is not the
    module's own ``self``/``cls`` (a class of ours may have a ``_thread`` of its own), and for each
    ``getattr(x, "_name")`` of one; ``self._name`` counts too in a subclass of an aiosqlite class."""
    tree = ast.parse(source)
    found: list[str] = []

    def visit(node: ast.AST, aiosqlite_class: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = aiosqlite_class
            if isinstance(child, ast.ClassDef):
                inner = any("aiosqlite" in ast.unparse(b) for b in child.bases)
            if isinstance(child, ast.Attribute) and child.attr in private:
                own = isinstance(child.value, ast.Name) and child.value.id in ("self", "cls") and not aiosqlite_class
                if not own:
                    found.append(f"{child.lineno}: {ast.unparse(child)}")
            if (
                isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and child.func.id in ("getattr", "setattr", "hasattr")
                and len(child.args) >= 2 and isinstance(child.args[1], ast.Constant) and child.args[1].value in private
            ):
                found.append(f"{child.lineno}: {ast.unparse(child)}")
            visit(child, inner)

    visit(tree, False)
    return found


def test_the_private_reads_check_finds_what_it_looks_for() -> None:
    private = _aiosqlite_private()
    assert {"_execute", "_conn", "_connection", "_tx"} <= private
    bad = (
        "async def f(repo):\n"
        "    conn = repo.db._conn\n"
        "    return await repo.db._execute(len, conn)\n"
        "class C(aiosqlite.Connection):\n"
        "    def g(self):\n"
        "        return self._tx\n"
        "def h(db):\n"
        "    return getattr(db, '_connection')\n"
    )
    assert [x.split(":")[0] for x in _private_reads(bad, private)] == ["2", "3", "6", "8"]
    ours = "class Writer:\n    def __init__(self):\n        self._thread = None\n    def run(self):\n        return self._thread\n"
    assert _private_reads(ours, private) == []


def test_no_module_reads_a_private_member_of_aiosqlite() -> None:
    private = _aiosqlite_private()
    problems = []
    for folder in ("bot", "cogs", "engine", "tests", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for hit in _private_reads(path.read_text(encoding="utf-8"), private):
                if hit.endswith(" client._connection") and path.parent.name == "cluster":
                    continue  # discord.py's Client._connection (the gateway parser the cluster routes), not aiosqlite's
                problems.append(f"{path.relative_to(ROOT)}:{hit}")
    assert problems == [], "\n".join(problems)

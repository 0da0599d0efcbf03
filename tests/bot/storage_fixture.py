"""A real database (a SQLite file, or a PostgreSQL database: ``path`` may be its URL) with one
table in each state, for the storage tests (no Discord).

Table A (alice) and table B (bob) are playing against three AI seats, table C (carol) is open,
table D was played to the end by four AI seats (its games and game_players rows). Every deal is
seeded, so the file is the same on every run.
"""

from __future__ import annotations

import asyncio
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.standings.service import StandingsService
from bot.storage.postgres import is_url, translate
from bot.storage.repository import Repository
from bot.tables import TableService

ALICE, BOB, CAROL, DAVE = 10, 11, 12, 13


@dataclass(frozen=True)
class Fixture:
    path: Path | str  # a SQLite file, or a PostgreSQL URL
    a: int  # playing, alice's turn
    b: int  # playing, bob's turn
    c: int  # open, carol seated
    d: int  # finished, recorded as a game
    game: int  # the games row of table D


async def _playing(svc: TableService, user: int, name: str, channel: int, seed: str, moves: int, guild_id: int = 1) -> int:
    svc.new_seed = lambda: seed
    t = await svc.open_table(guild_id=guild_id, channel_id=channel, opener_id=user, opener_name=name, length="tonpuu")
    await svc.add_ai(t.id, 3)
    await svc.start(t.id, user)
    for _ in range(moves):  # the human plays its first legal discard (or passes)
        seat = t.seat_of(user)
        g = t.game
        assert g is not None and seat is not None and seat in t.humans_to_act()
        legal = list(g.legal_actions(seat))
        a = next((x for x in legal if x.type.name in ("DISCARD", "PASS")), legal[0])
        await svc.act(t.id, user, a.text, t.decision_serial())
    seat = t.seat_of(user)
    assert seat is not None and seat in t.humans_to_act()
    return t.id


async def build(path: Path | str, guild_id: int = 1) -> Fixture:
    """The fixture's tables and games, in ``guild_id`` (a test through Discord passes its server's)."""
    repo = Repository(path)
    await repo.open()
    svc = TableService(repo)
    svc.record_game = StandingsService(repo).record_finished  # records finished games as the bot does
    a = await _playing(svc, ALICE, "alice", 100, "storage-tests", 3, guild_id)
    b = await _playing(svc, BOB, "bob", 200, "storage-tests-b", 1, guild_id)
    svc.new_seed = lambda: "storage-tests-c"
    c = (await svc.open_table(guild_id=guild_id, channel_id=300, opener_id=CAROL, opener_name="carol")).id
    svc.new_seed = lambda: "storage-tests-d"
    t = await svc.open_table(guild_id=guild_id, channel_id=400, opener_id=DAVE, opener_name="dave", length="tonpuu")
    await svc.leave(t.id, DAVE)
    await svc.add_ai(t.id, 4)
    await svc.start(t.id, DAVE)
    assert t.game is not None and t.game.over
    game = await repo.game_for_table(t.id)
    assert game is not None
    # its results and final standings went out (the presenter counts them): nothing owed at a restart
    await repo.set_table(t.id, results_posted=len(t.game.results), final_posted=1)
    await repo.close()
    return Fixture(path, a, b, c, t.id, game.id)


async def _pg(url: str, sql: str, args: tuple[Any, ...], *, replica: bool = False) -> tuple[list[tuple[Any, ...]], str]:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            if replica:  # foreign keys not enforced, as an operator's hand edit
                await conn.execute("SET LOCAL session_replication_role = replica")
            q = translate(sql)
            if sql.lstrip().upper().startswith("SELECT"):
                return [tuple(r) for r in await conn.fetch(q, *args)], ""
            return [], await conn.execute(q, *args)
    finally:
        await conn.close()


def _run(coro: Any) -> Any:
    """``asyncio.run(coro)``, also from inside a running loop (on a thread of its own)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with ThreadPoolExecutor(1) as worker:
        return worker.submit(asyncio.run, coro).result()


class Stored:
    """``sqlite3.connect(path)``'s ``execute(...)`` for either backend: a test's look at the stored
    rows (``.fetchone()``, ``.fetchall()``, iteration), outside the bot's connections."""

    def __init__(self, path: Path | str) -> None:
        self.path = path

    def execute(self, sql: str, args: tuple[Any, ...] = ()) -> Any:
        got = rows(self.path, sql, tuple(args))

        class Result(list):  # type: ignore[type-arg]
            def fetchone(self) -> Any:
                return self[0] if self else None

            def fetchall(self) -> list[Any]:
                return list(self)

        return Result(got)

    def close(self) -> None:
        pass


def rows(path: Path | str, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The rows of one query, on either backend (outside the bot's connections)."""
    if is_url(path):
        return _run(_pg(str(path), sql, args))[0]
    con = sqlite3.connect(path)
    try:
        return [tuple(r) for r in con.execute(sql, args).fetchall()]
    finally:
        con.close()


def dump(path: Path | str) -> dict[str, list[tuple[object, ...]]]:
    """Every row of the table-related tables, to compare before and after."""
    return {
        name: sorted(rows(path, f"SELECT * FROM {name}"), key=repr)
        for name in ("tables", "seats", "actions", "timers", "games", "game_players")
    }


def corrupt(path: Path | str, sql: str, args: tuple[object, ...] = ()) -> None:
    """A hand edit as an operator would make it: foreign keys and CHECK constraints not enforced
    (on PostgreSQL, foreign keys only: a typed column holds nothing but its type)."""
    if is_url(path):
        status = _run(_pg(str(path), sql, args, replica=True))[1]
        assert status.rsplit(" ", 1)[-1] not in ("0", ""), sql
        return
    con = sqlite3.connect(path)
    try:
        con.execute("PRAGMA foreign_keys=OFF")
        con.execute("PRAGMA ignore_check_constraints=ON")
        cur = con.execute(sql, args)
        assert cur.rowcount >= 1, sql
        con.commit()
    finally:
        con.close()

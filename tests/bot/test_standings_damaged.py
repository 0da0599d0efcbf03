"""Hand-damaged standings rows in a real SQLite file: every stored column of the standings tables
(bot/storage/migrations/0002_standings.sql: seasons, games, game_players, standings, audit_log,
game_stats) is damaged one at a time, and every standings command must still answer through the
local Discord-protocol server: the thing the damage touches is named in one sentence, everything
else works as before, and no traceback or "something went wrong" reaches a user."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

from tests.bot.harness import Club, club, play_out

GENERIC = "Something went wrong"


def _m(c: Club, who: str) -> str:
    return f"<@{c.users[who].id}>"


def _texts(c: Club, rec: Any) -> list[str]:
    return [m.content for m in c.server.visible_to(rec.user_id) if m.interaction_id == rec.id]


def _game(c: Club, players: list[tuple[str, int]]) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    for i, (p, s) in enumerate(players, 1):
        opts[f"p{i}"] = p if p.startswith("guest:") else _m(c, p)
        opts[f"s{i}"] = s
    return opts


async def _setup(c: Club) -> None:
    """Season Old (ended, one game); season Spring (running): three typed-in games with a guest and a
    bot game of alice against three AI seats; /stats once so the play statistics are cached."""
    role = c.server.add_role(c.guild_id, "Organiser")
    c.server.add_member(c.guild_id, c.users["alice"].id, roles=[role.id])
    await asyncio.sleep(0.1)
    await c.slash("alice", "season start", {"name": "Old"})
    await c.slash("alice", "result add", _game(c, [("alice", 40000), ("bob", 30000), ("carol", 20000), ("dave", 10000)]))
    await c.slash("alice", "season end", {})
    await c.slash("alice", "season start", {"name": "Spring"})
    for g in (
        [("alice", 40000), ("bob", 30000), ("guest:Kana", 20000), ("carol", 10000)],
        [("bob", 35000), ("carol", 33000), ("guest:Kana", 22000), ("dave", 10000)],
        [("carol", 30000), ("dave", 30000), ("alice", 20000), ("bob", 20000)],
    ):
        assert _texts(c, await c.slash("bob", "result add", _game(c, g)))[0].startswith("Game #")
    await c.slash("alice", "table open", {"length": "tonpuu"})
    await c.slash("alice", "table add-ai", {"seats": 3})
    await c.slash("alice", "table start", {})
    await play_out(c, ["alice"])
    for _ in range(200):  # the game is recorded with the last action, a moment after the last click
        await asyncio.sleep(0.05)
        con = sqlite3.connect(c.db)
        try:
            if con.execute("SELECT COUNT(*) FROM game_stats").fetchone()[0] or con.execute(
                "SELECT COUNT(*) FROM games WHERE source = 'bot' AND season_id IS NOT NULL"
            ).fetchone()[0]:
                break
        finally:
            con.close()
    assert "bot games: 1" in "\n".join(_texts(c, await c.slash("alice", "stats", {})))


# the row each table's damage goes into: the running season, a typed-in game of it (game 3:
# bob, carol, Kana, dave), alice's seat and summary, the newest audit entry, alice's bot-game statistics
ROW = {
    "seasons": "name = 'Spring'",
    "games": "id = 3",
    "game_players": "game_id = 3 AND seat = 0",
    "standings": "season_id = 2 AND player = (SELECT player FROM game_players WHERE game_id = 2 AND seat = 0)",
    "audit_log": "id = (SELECT MAX(id) FROM audit_log)",
    "game_stats": "game_id = (SELECT id FROM games WHERE source = 'bot') AND seat = (SELECT seat FROM game_players gp JOIN games g ON g.id = gp.game_id WHERE g.source = 'bot' AND gp.kind = 'user')",
}
BAD = ("garbage", None, -7)


def _columns(db: Path) -> list[tuple[str, str]]:
    con = sqlite3.connect(db)
    try:
        return [(t, r[1]) for t in ROW for r in con.execute(f"PRAGMA table_info({t})")]
    finally:
        con.close()


def _damage(db: Path, table: str, column: str, value: Any) -> bool:
    con = sqlite3.connect(db, isolation_level=None)
    try:
        con.execute("PRAGMA ignore_check_constraints = ON")
        cur = con.execute(f"UPDATE {table} SET {column} = ? WHERE {ROW[table]}", (value,))
        return cur.rowcount > 0
    except sqlite3.IntegrityError:  # NOT NULL, a primary key taken: no hand edit can store it either
        return False
    finally:
        con.close()


def _restore(pristine: Path, db: Path) -> None:
    src, dst = sqlite3.connect(pristine), sqlite3.connect(db)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()


COMMANDS: list[tuple[str, str, dict[str, Any] | None]] = [
    ("bob", "season list", {}),
    ("bob", "leaderboard", {"by": "points"}),
    ("bob", "leaderboard", {"by": "rating"}),
    ("bob", "leaderboard", {"by": "placement"}),
    ("bob", "leaderboard", {"season": "Old"}),
    ("alice", "stats", {}),
    ("bob", "stats", {"guest": "Kana"}),
    ("bob", "stats", {"season": "Old"}),
    ("bob", "season export", {}),
    ("alice", "result audit", {}),
    ("alice", "result add", None),
    ("alice", "result edit", None),
    ("alice", "result void", {"game": 4}),
    ("alice", "season rename", {"new_name": "Summer"}),
]


async def _run_all(c: Club) -> dict[str, list[str]]:
    out = {}
    for who, name, opts in COMMANDS:
        key = f"{name} {opts}" if opts is not None else name
        if opts is None and name == "result add":
            opts = _game(c, [("alice", 40000), ("bob", 30000), ("carol", 20000), ("dave", 10000)])
        elif opts is None:
            opts = {"game": 3, **_game(c, [("bob", 10000), ("carol", 33000), ("guest:Kana", 22000), ("dave", 35000)])}
        rec = await c.slash(who, name, opts)
        out[key] = _texts(c, rec)
    return out


# what a sentence must name when a column holds a value no sound row can hold ('garbage' is text in
# a column of numbers, or a word the column does not allow; -7 where no negative number fits)
SEASON_NAMED = {
    "ruleset": "its ruleset", "players": "its number of players", "start_points": "its start points",
    "return_points": "its return points", "uma": "its uma", "rating": "its rating system", "ties": "its rule for equal scores",
    "leftover": "its rule for leftover riichi sticks", "min_games": "its minimum number of games", "active": "running",
    "started_at": "its start time", "ended_at": "its end time",
}
SETTLING = ("ruleset", "players", "start_points", "return_points", "uma", "rating", "ties", "leftover")
NEGATIVE_IMPOSSIBLE = {
    "seasons": {"players", "start_points", "return_points", "uma", "min_games", "rating", "ties", "leftover", "ruleset", "active"},
    "standings": {"games", "place_total", "p1", "p2", "p3", "p4"},
    "game_players": {"seat", "place", "kind"},
    "games": {"sticks", "data", "status"},
}
STANDING_NUMBERS = ("games", "points_total", "result_total", "place_total", "p1", "p2", "p3", "p4", "rating", "mu", "sigma")
SEAT_COLUMNS = ("seat", "points", "place", "result", "player", "kind", "rating", "rating_delta", "mu", "sigma", "game_id")


def _impossible(table: str, column: str, value: Any) -> bool:
    if value == "garbage":
        # any text is a possible name, ruleset label or player key: those are not damage anyone can see
        return column not in ("name", "action", "user_id", "entered_by", "source", "ruleset", "player") or table == "seasons" and column == "ruleset"
    return value == -7 and column in NEGATIVE_IMPOSSIBLE.get(table, set())


def _check(table: str, column: str, value: Any, got: dict[str, list[str]], base: dict[str, list[str]]) -> None:
    where = f"{table}.{column} = {value!r}"
    every = "\n".join(t for texts in got.values() for t in texts)
    for cmd, texts in got.items():
        assert texts, (where, cmd, "no answer")
        assert not any(GENERIC in t or "Traceback" in t for t in texts), (where, cmd, texts)
    # everything else keeps working: the ended season answers exactly as before the damage
    for cmd in ("leaderboard {'season': 'Old'}", "stats {'season': 'Old'}"):
        assert got[cmd] == base[cmd], (where, cmd, got[cmd])
    if not _impossible(table, column, value):
        return
    if table == "seasons" and column in SEASON_NAMED:
        listed = got["season list {}"][0]
        assert "Spring" in listed and "damaged in the database" in listed and SEASON_NAMED[column] in listed, (where, listed)
        if column in SETTLING:
            add = got["result add"][0]
            assert "damaged in the database" in add and SEASON_NAMED[column] in add and "/season end" in add, (where, add)
    elif table == "standings" and column in STANDING_NUMBERS:
        stats = got["stats {}"][0]
        assert "alice's standings in the season 'Spring' are damaged in the database" in stats and "/season rebuild" in stats, (where, stats)
        board = "\n".join(got["leaderboard {'by': 'points'}"])
        assert any("alice" in line and "damaged" in line for line in board.splitlines()), (where, board)
    elif table == "game_players" and column in SEAT_COLUMNS or table == "games" and column in ("finished_at", "sticks", "data", "status"):
        edit = got["result edit"][0]
        assert "game #3" in edit and "damaged in the database" in edit and "/result void game:3" in edit, (where, edit)
        void = got["result void {'game': 4}"][0]
        assert void.startswith("Game #4 is void") and "#3" in void and "not recomputed" in void, (where, void)
    elif table == "games" and column == "season_id":
        # the repository reads the damaged column and names it (or, without it, the game is not
        # found in its season): either way one sentence that names game #3
        edit = got["result edit"][0]
        assert "game #3" in edit.lower() and ("damaged in the database" in edit or "missing from the database" in edit), (where, edit)
    elif table == "audit_log" and column == "at":
        assert "(time damaged)" in every, where
    elif table == "game_stats":  # a cache: computed again from the game's actions, the same numbers as before
        assert got["stats {}"] == base["stats {}"], (where, got["stats {}"])


def test_every_damaged_column_of_the_standings_is_named_and_everything_else_answers(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            await c.server.wait_for_commands(["season", "result", "leaderboard", "stats", "table"], c.guild_id, timeout=10)
            await _setup(c)
            pristine = tmp_path / "pristine.sqlite3"
            _restore(c.db, pristine)
            base = await _run_all(c)
            _restore(pristine, c.db)
            assert not any(GENERIC in t for texts in base.values() for t in texts), base
            cases = 0
            for table, column in _columns(c.db):
                for value in BAD:
                    if not _damage(c.db, table, column, value):
                        continue
                    cases += 1
                    got = await _run_all(c)
                    _restore(pristine, c.db)
                    _check(table, column, value, got, base)
            assert cases > 150  # every column of the six tables, each with the values it can be made to hold

            # the repair for a damaged summary row: an organiser rebuilds the season from its games
            assert _damage(c.db, "standings", "rating", "garbage")
            assert "only an organiser" in _texts(c, await c.slash("bob", "season rebuild", {}))[0]
            text = _texts(c, await c.slash("alice", "season rebuild", {}))[0]
            assert "rebuilt from its 4 games" in text, text
            for cmd in ("leaderboard {'by': 'points'}", "leaderboard {'by': 'rating'}", "stats {}"):
                who, name, opts = next(x for x in COMMANDS if f"{x[1]} {x[2]}" == cmd)
                assert _texts(c, await c.slash(who, name, opts)) == base[cmd], cmd

    asyncio.run(main())

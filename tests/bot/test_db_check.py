"""Issue 16 item 3: ``python -m bot db check`` lists every corrupt or impossible row in one pass,
replaying every stored game through the engine, and never stops at one."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.storage.repository import Repository
from bot.tables import TableService
from tests.bot.storage_fixture import build, corrupt, dump


def _check(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    capsys.readouterr()
    code = main(["db", "--database", str(path), "check"])
    return code, capsys.readouterr().out.splitlines()


def _illegal_move(path: Path, table: int) -> tuple[int, str]:
    """A well-formed move of the seat that is not to play at that point of the log."""
    con = sqlite3.connect(path)
    serial, text = con.execute("SELECT serial, action FROM actions WHERE table_id = ? AND serial = 2", (table,)).fetchone()
    con.close()
    seat = int(text[0])
    return serial, f"{(seat + 2) % 4}d1m"  # the seat opposite discards: not its turn


def test_a_clean_database_has_no_problem_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fx = asyncio.run(build(tmp_path / "club.sqlite3"))
    assert _check(fx.path, capsys) == (0, ["0 problem row(s)"])


def test_db_check_lists_a_garbled_place_an_illegal_move_and_orphaned_players_in_one_pass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the three rows of the issue: place='abc' once stopped the check with "invalid literal for int()"
    fx = asyncio.run(build(tmp_path / "club.sqlite3"))
    corrupt(fx.path, "UPDATE game_players SET place = 'abc' WHERE game_id = ? AND seat = 1", (fx.game,))
    serial, move = _illegal_move(fx.path, fx.b)
    corrupt(fx.path, "UPDATE actions SET action = ? WHERE table_id = ? AND serial = ?", (move, fx.b, serial))
    con = sqlite3.connect(fx.path)  # a second game, deleted by hand while its players stay
    con.execute("INSERT INTO games (id, guild_id, source, ruleset, finished_at) VALUES (50, 1, 'manual', 'riichi', 1.0)")
    con.executemany(
        "INSERT INTO game_players (game_id, seat, user_id, name, points, place, result, player, kind) VALUES (50, ?, NULL, ?, 25000, ?, 0, ?, 'guest')",
        [(s, f"g{s}", s + 1, f"g:g{s}") for s in range(4)],
    )
    con.commit()
    con.close()
    corrupt(fx.path, "DELETE FROM games WHERE id = 50")
    before = dump(fx.path)

    code, out = _check(fx.path, capsys)
    assert code == 1
    assert f"game_players row (game {fx.game}, seat 1): its place is 'abc', not a whole number from 1 to 4" in out
    assert any(line.startswith(f"table #{fx.b}: move {serial} of its log ('{move}') is not a legal move: ") for line in out), out
    orphans = [line for line in out if "its game #50 does not exist" in line]
    assert [line.split(":")[0] for line in orphans] == [f"game_players row (game 50, seat {s})" for s in range(4)]
    assert out[-1] == f"{len(out) - 1} problem row(s)" and len(out) - 1 == 6  # nothing else, nothing twice
    assert dump(fx.path) == before  # the check writes nothing

    # and the bot keeps going: the table with the illegal move is paused and named, the rest loads
    async def restart() -> None:
        repo = Repository(fx.path)
        await repo.open()
        try:
            svc = TableService(repo)
            loaded = {t.id for t in await svc.load()}
            assert loaded == {fx.a, fx.c} and svc.damaged[fx.b].paused
            assert f"move {serial} of its log ('{move}') is not a legal move" in svc.damaged[fx.b].sentence
            assert [d.table_id for d in svc.damaged_in(200)] == [fx.b]  # what /table status names in bob's channel
        finally:
            await repo.close()

    asyncio.run(restart())


def test_db_check_of_a_file_that_is_not_a_database_is_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "not.sqlite3"
    bad.write_bytes(b"this is not a database file" * 100)
    code, out = _check(bad, capsys)
    assert code == 2 and out == ["database error: file is not a database"]

"""Issue 16 items 3 and 4: every stored column of the table rows, corrupted one at a time in a real
SQLite file, then a restart.

Each case asserts: the restart raises nothing and logs no traceback; the damaged table (or game) is
named in one readable sentence by the service (what /table status answers); the other tables still
play; ``python -m bot db check`` lists the damaged row; and nothing stored changed.
"""

from __future__ import annotations

import asyncio
import logging
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.standings.service import StandingsService
from bot.storage.repository import (
    ACTION_RULES,
    GAME_RULES,
    MIGRATIONS,
    PLAYER_RULES,
    SEAT_RULES,
    TABLE_RULES,
    TIMER_RULES,
    CorruptRow,
    Repository,
    _statements,
)
from bot.tables import TableError, TableService
from bot.views.table import status_text
from tests.bot.storage_fixture import ALICE, BOB, CAROL, Fixture, build, corrupt, dump

TEXT_COLUMNS = {
    # a value of the right type that is still impossible, where the column has a fixed set of values
    ("tables", "mode"): "zzz", ("tables", "on_expiry"): "zzz", ("tables", "status"): "zzz", ("tables", "ruleset"): "nosuchrules",
    ("tables", "options"): "{not json", ("seats", "ai"): "nosuchai", ("actions", "action"): "zz!", ("games", "source"): "zzz",
    ("games", "status"): "zzz", ("games", "data"): "{not json", ("game_players", "kind"): "zzz",
}
BLOB = b"\xff\x00"  # for free text (a name, a seed): bytes that are not text at all
INTEGER_KEYS = {("tables", "id"), ("games", "id"), ("timers", "table_id")}  # rowid aliases hold only integers
OWNER = {  # a column that points at its owner: pointed somewhere that does not exist
    ("seats", "table_id"), ("actions", "table_id"), ("game_players", "game_id"), ("games", "table_id"), ("timers", "table_id"),
    ("tables", "id"), ("games", "id"),
}


def _schema() -> dict[str, list[tuple[str, str]]]:
    """Each table-related table's columns and declared types, from the migrations themselves."""
    con = sqlite3.connect(":memory:")
    for f in sorted(MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.sql")):
        for stmt in _statements(f.read_text()):
            con.execute(stmt)
    tables = ("tables", "seats", "actions", "timers", "games", "game_players")
    out = {t: [(r[1], r[2].upper()) for r in con.execute(f"PRAGMA table_info({t})")] for t in tables}
    con.close()
    return out


SCHEMA = _schema()
COLUMNS = {t: [c for c, _ in cols] for t, cols in SCHEMA.items()}
FREE_TEXT = {("tables", "seed"), ("seats", "name"), ("games", "ruleset"), ("game_players", "name"), ("game_players", "player")}
CASES = [(table, col) for table, cols in COLUMNS.items() for col in cols]


def test_every_table_related_column_of_the_schema_has_a_rule_its_readers_check() -> None:
    rules = {"tables": TABLE_RULES, "seats": SEAT_RULES, "actions": ACTION_RULES, "timers": TIMER_RULES, "games": GAME_RULES,
             "game_players": PLAYER_RULES}
    for table, cols in COLUMNS.items():
        assert [c for c in cols if c not in rules[table]] == [], table
    assert len(CASES) >= 62


@pytest.fixture(scope="module")
def golden(tmp_path_factory: pytest.TempPathFactory) -> Fixture:
    path = tmp_path_factory.mktemp("golden") / "golden.sqlite3"
    return asyncio.run(build(path))


def _where(fx: Fixture, table: str) -> tuple[str, tuple[object, ...]]:
    """The one row each case damages: table A's, its alice seat (an AI seat for ``ai``), its third
    move, its timer; game D's row and its first seat."""
    return {
        "tables": ("id = ?", (fx.a,)),
        "seats": ("table_id = ? AND user_id = ?", (fx.a, ALICE)),
        "actions": ("table_id = ? AND serial = 2", (fx.a,)),
        "timers": ("table_id = ?", (fx.a,)),
        "games": ("id = ?", (fx.game,)),
        "game_players": ("game_id = ? AND seat = 0", (fx.game,)),
    }[table]


def _bad(table: str, col: str) -> object:
    if (table, col) in OWNER:
        return 999
    if (table, col) in TEXT_COLUMNS:
        return TEXT_COLUMNS[(table, col)]
    if (table, col) in FREE_TEXT or dict(SCHEMA[table])[col] == "TEXT":
        return BLOB
    return "abc"  # a number column holding text


def _locator(fx: Fixture, table: str, col: str, seat: int) -> str:
    """How db check names the damaged row."""
    special = {
        ("tables", "id"): "table #999: it has 0 seats",
        ("tables", "ruleset"): f"table #{fx.a}: its ruleset 'nosuchrules' is not one this bot knows",
        ("seats", "ai"): f"table #{fx.a}: seat {seat} is an AI of unknown kind",
        ("games", "id"): f"game_players row (game {fx.game}, seat 0): its game #{fx.game} does not exist",
        ("timers", "table_id"): "timers row (table 999): its table #999 does not exist",
    }
    if (table, col) in special:
        return special[(table, col)]
    owner = 999 if (table, col) in OWNER else None
    text = "'abc'"  # a number column holding text is shown as the text it holds
    return {
        "tables": f"tables row {fx.a}:",
        "seats": f"seats row (table {owner or fx.a}, seat {text if col == 'seat' else seat})",
        "actions": f"actions row (table {owner or fx.a}, serial {text if col == 'serial' else 2})",
        "timers": f"timers row (table {fx.a})",
        "games": f"games row {fx.game}:",
        "game_players": f"game_players row (game {owner or fx.game}, seat {text if col == 'seat' else 0})",
    }[table]


@pytest.mark.parametrize(("table", "col"), CASES, ids=[f"{t}.{c}" for t, c in CASES])
def test_a_corrupted_column_is_named_and_everything_else_keeps_working(
    golden: Fixture, tmp_path: Path, table: str, col: str, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "club.sqlite3"
    shutil.copy(golden.path, path)
    fx = Fixture(path, golden.a, golden.b, golden.c, golden.d, golden.game)
    where, args = _where(fx, table)
    if (table, col) == ("seats", "ai"):
        where, args = "table_id = ? AND ai IS NOT NULL AND seat = (SELECT MIN(seat) FROM seats WHERE table_id = ? AND ai IS NOT NULL)", (fx.a, fx.a)
    con = sqlite3.connect(path)
    seat = con.execute(f"SELECT seat FROM seats WHERE {where}", args).fetchone()[0] if table == "seats" else 0
    con.close()
    corrupt(path, f"UPDATE {table} SET {col} = ? WHERE {where}", (_bad(table, col), *args))
    before = dump(path)
    caplog.set_level(logging.INFO)

    async def restart() -> None:
        repo = Repository(path)
        await repo.open()
        try:
            await first_start(repo)
        finally:
            await repo.close()
        assert dump(path) == before  # nothing was written by the restart
        repo = Repository(path)
        await repo.open()
        try:
            await other_tables_play(repo)
        finally:
            await repo.close()

    async def first_start(repo: Repository) -> None:
        svc = TableService(repo)
        svc.record_game = StandingsService(repo).record_finished
        loaded = {t.id for t in await svc.load()}
        assert {fx.b, fx.c} <= loaded  # the other tables are back

        # the damaged thing, named in one sentence (what /table status answers for it)
        if table in ("tables", "seats", "actions"):
            damaged = 999 if (table, col) == ("tables", "id") else fx.a
            assert damaged not in loaded
            d = svc.damaged[damaged]
            assert d.paused and d.sentence.startswith(f"Table #{damaged} is paused because its stored data is damaged (")
            try:
                await svc.get(damaged)
                raise AssertionError("a damaged table is not played on")
            except TableError as e:
                assert str(e) == d.sentence
        elif table == "timers" and col != "table_id":
            assert fx.a in loaded  # a damaged turn clock does not stop the table
            d = svc.damaged[fx.a]
            assert not d.paused and d.sentence.startswith(f"Table #{fx.a}'s turn clock is damaged in the database (its {col} is ")
            assert (await svc.get(fx.a)).game is not None  # and it still plays
        elif table in ("games", "game_players") and (table, col) != ("games", "table_id"):
            gid = 999 if (table, col) == ("games", "id") else fx.game
            try:
                await repo.get_game(gid)
                raise AssertionError("a damaged game is not read as if it were whole")
            except CorruptRow as e:
                assert str(e).startswith(f"games row {gid}: ") and e.why
            assert fx.d not in svc.damaged  # the finished table itself is whole
        if table in ("tables", "seats", "actions") or (table == "timers" and col != "table_id"):
            sentence = svc.damaged[999 if (table, col) == ("tables", "id") else fx.a].sentence
            assert sentence.endswith(".") and not re.search(r"\.\s+[A-Z]", sentence) and "\n" not in sentence  # one sentence
            assert "python -m bot db check" in sentence

    async def other_tables_play(repo: Repository) -> None:
        # bob's move is accepted and stored; carol's table answers
        svc = TableService(repo)
        await svc.load()
        b = await svc.get(fx.b)
        g = b.game
        seat = b.seat_of(BOB)
        assert g is not None and seat is not None
        move = next(a for a in g.legal_actions(seat) if a.type.name in ("DISCARD", "PASS"))
        update = await svc.act(fx.b, BOB, move.text, b.decision_serial())
        assert update.actions[0] == move
        assert [a for _, a in await repo.actions(fx.b)] == [a.text for a in g.actions]
        c = await svc.get(fx.c)
        assert "carol" in status_text(c) and c.seat_of(CAROL) == 0

    asyncio.run(restart())
    after = dump(path)
    for name, rows in before.items():  # only table B's rows moved on
        if name in ("tables", "seats", "actions", "timers"):
            assert [r for r in after[name] if r[0] != fx.b] == [r for r in rows if r[0] != fx.b], name
        else:
            assert after[name] == rows, name
    assert not [r for r in caplog.records if r.exc_info], "no traceback in the log"

    # python -m bot db check lists the damaged row, in a line a person can read
    capsys.readouterr()
    assert main(["db", "--database", str(path), "check"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1].endswith("problem row(s)") and not out[-1].startswith("0 ")
    named = [line for line in out if _locator(fx, table, col, seat) in line]
    assert named, f"db check does not name {table}.{col}: {out}"
    if (table, col) not in OWNER and (table, col) not in {("tables", "ruleset"), ("seats", "seat"), ("actions", "action"), ("seats", "ai")}:
        assert any(col in line.split(": ", 1)[1] for line in named), named  # the column is named
    assert not any("Traceback" in line for line in out)
    assert dump(path) == after  # the check changed nothing

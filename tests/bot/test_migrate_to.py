"""Issue 29: ``python -m bot db migrate-to postgresql://…`` copies a scripted club's SQLite database
(two seasons, a league with rounds, a substitution and a penalty, house rules, typed-in, imported
and bot games, a voided game) into an empty PostgreSQL database, every row, and checks the copy;
a target that holds rows is refused with nothing written."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.house import HouseRules
from bot.standings.service import Entry, StandingsService, Who
from bot.storage.repository import Repository
from tests.bot.storage_fixture import build, dump, rows
from tests.bot.test_league_storage import _build as build_league
from tests.conftest import postgres_database

MEMBERS = [Who.member(200 + i, n) for i, n in enumerate(("mia", "noa", "oto", "pia", "ren"))]


async def _club(path: Path, shared: Path) -> None:
    await build_league(path)  # server 1: a league, its season, a round played out, a penalty
    await build(path, guild_id=2)  # server 2: tables in every state and a bot game
    repo = Repository(path)
    await repo.open()
    try:
        st = StandingsService(repo)
        house = HouseRules(repo)
        await house.create(2, 9, "club", "riichi")
        await house.set(2, 9, "club", "kuitan", "false")
        await st.start_season(2, 9, "Spring")
        a, b, c, d, e = MEMBERS
        await st.add_result(2, 9, [Entry(a, 40000), Entry(b, 30000), Entry(c, 20000), Entry(d, 10000)])
        voided = await st.add_result(2, 9, [Entry(e, 50000), Entry(b, 30000), Entry(c, 15000), Entry(d, 5000)])
        await st.void_result(2, 9, voided.id, organiser=True, reason="wrong table")
        log = sorted(p for p in (shared / "data" / "logs" / "tenhou6_json").rglob("*") if p.is_file())[0]
        await st.import_log(2, 9, log.read_text(encoding="utf-8"), log.name)
        await st.end_season(2, 9)
        await st.start_season(2, 9, "Summer")
        await st.add_result(2, 9, [Entry(b, 35000), Entry(a, 32000), Entry(e, 20000), Entry(c, 13000)])
    finally:
        await repo.close()


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory, shared_dir: Path) -> Path:
    path = tmp_path_factory.mktemp("club") / "club.sqlite3"
    asyncio.run(_club(path, shared_dir))
    return path


async def _next_table_id(url: str) -> int:
    repo = Repository(url)
    await repo.open()
    try:
        return await repo.create_table(guild_id=2, channel_id=1, opener_id=1, ruleset="riichi", seed="x", mode="live")
    finally:
        await repo.close()


def test_migrate_to_copies_every_row_and_the_copy_checks_out(club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    counts = {name: rows(club, f"SELECT COUNT(*) FROM {name}")[0][0] for name in (
        "tables", "actions", "games", "game_players", "seasons", "standings", "audit_log", "house_rules",
        "leagues", "league_members", "league_rounds", "league_tables", "league_penalties", "substitutions", "league_misses",
    )}
    # what the script made, counted by hand: 2 seasons of server 2 and the league's; bot games of the
    # league round and of table D; 2 typed-in results (one void) and 1 more in Summer; 1 import
    assert counts["seasons"] == 3 and counts["leagues"] == 1 and counts["house_rules"] == 1
    assert rows(club, "SELECT source, status, COUNT(*) FROM games GROUP BY source, status ORDER BY 1, 2") == [
        ("bot", "ok", 2), ("import", "ok", 1), ("manual", "ok", 2), ("manual", "void", 1)
    ]
    # the round's close (finish_ai) gave all 4 seats to the AI, eve's too (its row replaces her substitution)
    assert counts["league_penalties"] == 1 and counts["substitutions"] == 4
    for url in postgres_database():
        capsys.readouterr()
        code = main(["db", "--database", str(club), "migrate-to", url])
        out = capsys.readouterr().out.splitlines()
        assert code == 0, out
        assert out[-1] == "the copy checks out"
        assert "2 bot game(s) replayed to their stored scores" in out
        assert "9 leaderboard(s) read the same" in out  # 3 seasons x points, rating, placement
        for name, n in counts.items():
            assert f"{name}: {n} row(s)" in out
            assert rows(url, f"SELECT COUNT(*) FROM {name}") == [(n,)]
        assert dump(url) == dump(club)  # the table rows themselves, value for value
        # the copy is a database the bot runs on: db check is clean and new ids follow the copied ones
        capsys.readouterr()
        assert main(["db", "--database", url, "check"]) == 0, capsys.readouterr().out

        assert asyncio.run(_next_table_id(url)) == rows(club, "SELECT MAX(id) FROM tables")[0][0] + 1
        # a second copy into the same (now not empty) database is refused, nothing written
        before = rows(url, "SELECT COUNT(*) FROM games")
        capsys.readouterr()
        assert main(["db", "--database", str(club), "migrate-to", url]) == 1
        out = capsys.readouterr().out.splitlines()
        assert len(out) == 1 and out[0].startswith("not copied: the PostgreSQL database is not empty"), out
        assert rows(url, "SELECT COUNT(*) FROM games") == before

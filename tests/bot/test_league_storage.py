"""The league's storage (schema version 9) without Discord: every column has a rule its readers and
``python -m bot db check`` apply, a corrupted column is named by the check; a league's season takes
its own tables' games and no other; the standings are the games plus the penalty list, and stay so
through a rebuild of the season."""

from __future__ import annotations

import asyncio
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.league.service import LeagueError, LeagueService
from bot.standings.service import StandingsService, Who
from bot.storage import leagues as sql
from bot.storage.repository import MIGRATIONS, Repository, _statements
from bot.tables import TableService, length_of
from engine.rules.base import find_ruleset

RULES = {
    "leagues": sql.LEAGUE_RULES, "league_members": sql.MEMBER_RULES, "league_rounds": sql.ROUND_RULES,
    "league_tables": sql.LEAGUE_TABLE_RULES, "league_penalties": sql.PENALTY_RULES, "substitutions": sql.SUBSTITUTION_RULES,
    "league_misses": sql.MISS_RULES,
}
ROWID = {("leagues", "id"), ("league_tables", "id"), ("league_penalties", "id")}
USERS = [(101, "ann"), (102, "ben"), (103, "cat"), (104, "dan")]


def _columns() -> dict[str, list[str]]:
    con = sqlite3.connect(":memory:")
    for f in sorted(MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.sql")):
        for stmt in _statements(f.read_text()):
            con.execute(stmt)
    out = {t: [r[1] for r in con.execute(f"PRAGMA table_info({t})")] for t in RULES}
    con.close()
    return out


COLUMNS = _columns()
CASES = [(t, c) for t, cols in COLUMNS.items() for c in cols if (t, c) not in ROWID]


def test_every_league_column_has_a_rule_and_every_rule_a_column() -> None:
    for table, cols in COLUMNS.items():
        assert sorted(cols) == sorted(RULES[table]), table


def _services(repo: Repository) -> tuple[TableService, StandingsService, LeagueService]:
    st = StandingsService(repo)
    tables = TableService(repo)
    tables.record_game = st.record_finished  # as the bot wires it (client.py)
    return tables, st, LeagueService(repo, tables, st)


async def _build(path: Path) -> None:
    """A league with every kind of row: members, a round and its table, a penalty, a miss and a
    substitution; the round closed (its game played out by AI seats and recorded)."""
    repo = Repository(path)
    await repo.open()
    try:
        tables, st, league = _services(repo)
        tables.new_seed = lambda: "league-storage"
        rs = find_ruleset("riichi").with_options(**length_of("riichi", "tonpuu").options)
        await league.create(1, 9, "Spring", rounds=2, mode="async", rules=rs)
        for uid, name in USERS:
            await league.join(1, None, Who.member(uid, name), actor_id=uid)
        started = await league.start_round(1, None, 9, 100)
        t = started.tables[0]
        absent = t.seats[0].user_id
        await league.substitute(t.id, 0, Who.member(105, "eve"))  # a named member plays on
        assert t.seats[0].user_id == 105 and t.seats[0].ai is None and absent is not None and t.seat_of(absent) is None
        with pytest.raises(LeagueError, match="already plays at table"):
            await league.substitute(t.id, 1, Who.member(105, "eve"))
        await league.penalty(1, None, Who.member(101, "ann"), 20, "chombo", actor_id=9)
        await league.close_round(1, None, 9)
        await league.settled()
        await repo.write(lambda conn: sql.add_miss(conn, t.id, 1))  # (a substitute clears its seat's count)
    finally:
        await repo.close()


@pytest.fixture(scope="module")
def golden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("league") / "golden.sqlite3"
    asyncio.run(_build(path))
    return path


def test_the_built_league_has_a_row_in_every_league_table_and_checks_clean(golden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    con = sqlite3.connect(golden)
    counts = {t: con.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in RULES}
    con.close()
    assert all(n > 0 for n in counts.values()), counts
    capsys.readouterr()
    assert main(["db", "--database", str(golden), "check"]) == 0
    assert capsys.readouterr().out.splitlines() == ["0 problem row(s)"]


@pytest.mark.parametrize(("table", "col"), CASES, ids=[f"{t}.{c}" for t, c in CASES])
def test_a_corrupted_league_column_is_named_by_db_check(golden: Path, tmp_path: Path, table: str, col: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "club.sqlite3"
    shutil.copy(golden, path)
    ok, _ = RULES[table][col]
    bad: object = "abc" if not ok("abc") else b"\xff\x00"
    con = sqlite3.connect(path)
    con.execute("PRAGMA ignore_check_constraints = ON")  # a hand edit gets past the CHECKs too
    con.execute(f"UPDATE {table} SET {col} = ? WHERE rowid = (SELECT MIN(rowid) FROM {table})", (bad,))
    con.commit()
    con.close()
    capsys.readouterr()
    assert main(["db", "--database", str(path), "check"]) == 1
    out = capsys.readouterr().out.splitlines()
    named = [line for line in out if line.startswith(f"{table} row ") and f"its {col} is" in line]
    assert named, out


def test_a_leagues_season_takes_its_own_games_only_and_penalties_stay_through_a_rebuild(golden: Path, tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite3"
    shutil.copy(golden, path)

    async def run() -> None:
        repo = Repository(path)
        await repo.open()
        try:
            tables, st, league = _services(repo)
            lg = await league.get(1, "Spring")
            league_games = await repo.season_games(lg.season_id)
            assert len(league_games) == 1
            # the substituted seat (eve, then an AI at the round's close) is credited to the member who sat there
            seat0 = next(s for s in await sql.substitutions(repo.db, league_games[0].table_id or 0) if s.seat == 0)
            assert seat0.old_player in {f"u:{u}" for u, _ in USERS} and seat0.new_player == "ai:smart"  # not eve, the first substitute
            assert next(p.player for p in league_games[0].players if p.seat == 0) == seat0.old_player

            # a free table of the same rules, finished: it stays out of the league's season
            free = await tables.open_table(guild_id=1, channel_id=5, opener_id=101, opener_name="ann", length="tonpuu")
            players = [{"seat": i, "user_id": uid, "name": n, "points": p, "place": i + 1, "result": 0.0}
                       for i, ((uid, n), p) in enumerate(zip(USERS, (40000, 30000, 20000, 10000), strict=True))]
            finished = {"guild_id": 1, "ruleset": "riichi", "options": {"hanchan": False}, "players": players, "data": {}}
            await repo.append_actions(free.id, 0, [], then=lambda conn: tables.record_game(conn, free.id, finished))
            g = await repo.game_for_table(free.id)
            assert g is not None and g.season_id is None
            assert len(await repo.season_games(lg.season_id)) == 1

            # the standings: the game's results minus the penalty, before and after a rebuild
            def board(rows: list) -> dict[str, float]:  # type: ignore[type-arg]
                return {r.player: round(r.points_after_penalties, 6) for r in rows}

            want = {p.player: round(p.result - (20.0 if p.player == "u:101" else 0.0), 6) for p in league_games[0].players if p.kind != "ai"}
            _, rows = await repo.leaderboard(lg.season_id, "points", limit=100)
            assert board(rows) == want
            assert [r.player for r in rows] == sorted(want, key=lambda p: -want[p])
            await st.recompute_season(lg.season_id)
            _, rows = await repo.leaderboard(lg.season_id, "points", limit=100)
            assert board(rows) == want
            stats = await st.player_stats(1, Who.member(101, "ann"), "Spring", chart=False)
            assert "penalties: −20; points after penalties:" in stats.text()

            # bad input: one sentence, nothing written
            con = sqlite3.connect(path)
            before = [con.execute(f"SELECT * FROM {t}").fetchall() for t in RULES]
            for call, words in [
                (league.penalty(1, "Spring", Who.member(999, "zed"), 5, "late", actor_id=9), "zed is not in the league 'Spring'"),
                (league.penalty(1, "Spring", Who.member(101, "ann"), 0, "late", actor_id=9), "a penalty takes off"),
                (league.penalty(1, "Spring", Who.member(101, "ann"), 5, "late", actor_id=9, game_id=g.id), "is not a game of the league"),
                (league.join(1, "Spring", Who.member(101, "ann")), "ann is already in the league"),
                (league.create(1, 9, "spring", rounds=1, mode="async", rules=find_ruleset("riichi")), "already has a league called"),
                (league.create(1, 9, "bad\x1b[31m", rounds=1, mode="async", rules=find_ruleset("riichi")), "control characters"),
                (league.create(1, 9, "x\ud800", rounds=1, mode="async", rules=find_ruleset("riichi")), "not text"),
                (league.penalty(1, "Spring", Who.member(101, "ann"), 5, " " * 5, actor_id=9), "a penalty's reason needs 1 to 200"),
            ]:
                with pytest.raises(LeagueError) as e:
                    await call
                assert words in e.value.sentence() and e.value.sentence().endswith(".")
            assert [con.execute(f"SELECT * FROM {t}").fetchall() for t in RULES] == before
            con.close()
        finally:
            await repo.close()

    asyncio.run(run())


def test_byes_and_a_void_deadline(database: str) -> None:
    """Six members at four-player tables with byes: one table, the two byes recorded; the round
    deadline passes with the game unfinished and the league set to void: the table is abandoned, no
    game recorded, the round closed and reported so; a second round gives the byes to others."""

    async def run() -> None:
        repo = Repository(database)
        await repo.open()
        try:
            tables, st, league = _services(repo)
            now = [1000.0]
            league.clock = lambda: now[0]
            reports = []

            async def closed(r: object) -> None:
                reports.append(r)

            league.on_round_closed = closed  # type: ignore[assignment]
            rs = find_ruleset("riichi").with_options(**length_of("riichi", "tonpuu").options)
            await league.create(1, 9, "Byes", rounds=2, mode="async", rules=rs, leftover="bye", on_deadline="void", round_hours=2, hours=1)
            six = [*USERS, (105, "eve"), (106, "fay")]
            for uid, name in six:
                await league.join(1, None, Who.member(uid, name))
            started = await league.start_round(1, None, 9, 100)
            assert len(started.tables) == 1 and len(started.byes) == 2 and started.deadline == 1000.0 + 2 * 3600
            with pytest.raises(LeagueError, match="still open"):
                await league.start_round(1, None, 9, 100)
            with pytest.raises(LeagueError, match="under way"):
                await league.join(1, None, Who.member(107, "gus"))
            byes1 = {m.player for m in started.byes}
            seated = {f"u:{s.user_id}" for s in started.tables[0].seats}
            assert byes1.isdisjoint(seated) and byes1 | seated == {f"u:{u}" for u, _ in six}

            now[0] += 3 * 3600  # the deadline passes
            await league.step()
            await league.settled()
            t = started.tables[0]
            assert t.row.status == "abandoned"
            assert await repo.game_for_table(t.id) is None
            assert [r.status for r in await sql.rounds(repo.db, 1)] == ["closed"]
            assert len(reports) == 1 and f"Table #{t.id}: void" in reports[0].text() and "Bye: " in reports[0].text()

            second = await league.start_round(1, None, 9, 100)
            assert {m.player for m in second.byes}.isdisjoint(byes1)
        finally:
            await repo.close()

    asyncio.run(run())


def test_a_long_league_post_is_cut_at_line_ends_within_discords_limit() -> None:
    from bot.outbound.courier import chunks as _chunks

    lines = [f"{i}. player{i} +{i}.0 (▲{i % 3})" for i in range(300)]
    text = "\n".join(lines)
    pieces = _chunks(text, 2000)
    assert len(pieces) > 1 and all(len(p) <= 2000 for p in pieces)
    assert "\n".join(pieces) == text  # nothing lost, no line cut
    long = "x" * 4500
    assert [len(p) for p in _chunks(long, 2000)] == [2000, 2000, 500]


def test_fixed_seating_follows_the_organisers_list(database: str) -> None:
    async def run() -> None:
        repo = Repository(database)
        await repo.open()
        try:
            _, _, league = _services(repo)
            rs = find_ruleset("riichi").with_options(**length_of("riichi", "tonpuu").options)
            await league.create(1, 9, "Teams", rounds=2, mode="async", rules=rs, seating="fixed")
            for uid, name in [*USERS, (105, "eve")]:
                await league.join(1, None, Who.member(uid, name))
            for text, words in [
                ("ann, ben; cat, dan", "eve is in the league but not on the list"),
                ("ann, ben, zed; cat, dan, eve", "'zed' is not a member of the league 'Teams'"),
                ("ann, ben, ANN; cat, dan, eve", "ann is on the list twice"),
                ("ann, ben, cat, dan, eve", "a table seats 4 players"),
            ]:
                with pytest.raises(LeagueError, match=re.escape(words)):
                    await league.start_round(1, None, 9, 100, listed=text)
            assert await sql.rounds(repo.db, 1) == [] and await sql.round_tables(repo.db, 1) == []
            started = await league.start_round(1, None, 9, 100, listed="Ann, eve; ben, cat, dan")
            got = [sorted(s.user_id or 0 for s in t.seats) for t in started.tables]
            assert got == [[0, 0, 101, 105], [0, 102, 103, 104]]  # AI seats (no user) fill the short tables
        finally:
            await repo.close()

    asyncio.run(run())


def test_an_in_person_round_closes_when_each_tables_result_is_typed_in(database: str) -> None:
    async def run() -> None:
        from bot.standings.service import Entry

        repo = Repository(database)
        await repo.open()
        try:
            tables, st, league = _services(repo)
            reports = []

            async def closed(r: object) -> None:
                reports.append(r)

            league.on_round_closed = closed  # type: ignore[assignment]
            with pytest.raises(LeagueError, match="get a bye"):  # AI seats at a real table: no
                await league.create(1, 9, "Club night", rounds=1, mode="in_person", rules=find_ruleset("riichi"), leftover="ai")
            made = await league.create(1, 9, "Club night", rounds=1, mode="in_person", rules=find_ruleset("riichi"))  # byes by default
            assert made.leftover == "bye"
            people = [Who.member(uid, n) for uid, n in USERS] + [Who.guest(n) for n in ("Kana", "Rio", "Sho", "Tami", "Umi")]
            for w in people:
                await league.join(1, None, w, organiser=True)
            started = await league.start_round(1, None, 9, 100)
            assert started.tables == [] and len(started.in_person) == 2 and len(started.byes) == 1
            assert not tables.tables  # no bot table opened
            assert "waiting for its result (/result add)" in await league.status(1)
            for i, table in enumerate(started.in_person):
                whos = [next(w for w in people if w.player == m.player) for m in table]
                # a result of other players (not a table of the round) is refused by the league's season (issue 30)
                if i == 0:
                    stray = [*whos[:3], next(w for w in people if w.player == started.byes[0].player)]
                    with pytest.raises(LeagueError, match="takes only the results of its own tables"):
                        await st.add_result(1, 9, [Entry(w, s) for w, s in zip(stray, (40000, 30000, 20000, 10000), strict=True)],
                                            season="Club night")
                    await league.step()
                    assert [r.status for r in await sql.rounds(repo.db, 1)] == ["open"]
                await st.add_result(1, 9, [Entry(w, s) for w, s in zip(whos, (45000, 25000, 20000, 10000), strict=True)], season="Club night")
            await league.step()
            assert [r.status for r in await sql.rounds(repo.db, 1)] == ["closed"]
            text = reports[0].text()
            assert "Table 1 (in person): " in text and "Table 2 (in person): " in text and "45,000" in text and "Bye: " in text
            linked = [e.game_id for e in await sql.round_tables(repo.db, 1, 1) if e.kind == "in_person"]
            assert all(g is not None for g in linked) and len(set(linked)) == 2
        finally:
            await repo.close()

    asyncio.run(run())


def test_a_damaged_league_row_is_one_sentence_to_the_user(golden: Path, tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite3"
    shutil.copy(golden, path)
    con = sqlite3.connect(path)
    con.execute("PRAGMA ignore_check_constraints = ON")
    con.execute("UPDATE leagues SET mode = 'zzz'")
    con.commit()
    con.close()

    async def run() -> None:
        from bot.errors import UserError

        repo = Repository(path)
        await repo.open()
        try:
            _, _, league = _services(repo)
            with pytest.raises(UserError) as e:
                await league.status(1, "Spring")
            text = e.value.sentence()
            assert text.startswith("This league's stored data is damaged (leagues row 1: its mode is 'zzz'") and "db check" in text
            assert text.count(". ") == 0 and text.endswith(".")
        finally:
            await repo.close()

    asyncio.run(run())


def test_a_seat_played_by_a_stand_in_then_by_an_ai_names_both_and_credits_the_absent_member(tmp_path: Path) -> None:
    """Issue 30: eve stands in for the absent member; at the round's close an AI plays the seat out.
    The round's post names eve and the AI; the game is credited to the absent member (the league's rule)."""

    async def run() -> None:
        repo = Repository(tmp_path / "club.sqlite3")
        await repo.open()
        try:
            tables, st, league = _services(repo)
            tables.new_seed = lambda: "league-stand-in"
            reports: list[object] = []

            async def closed(r: object) -> None:
                reports.append(r)

            league.on_round_closed = closed  # type: ignore[assignment]
            rs = find_ruleset("riichi").with_options(**length_of("riichi", "tonpuu").options)
            await league.create(1, 9, "Spring", rounds=1, mode="async", rules=rs)
            for uid, name in USERS:
                await league.join(1, None, Who.member(uid, name), actor_id=uid)
            started = await league.start_round(1, None, 9, 100)
            t = started.tables[0]
            absent = t.seats[0]
            who, key = absent.name, f"u:{absent.user_id}"
            await league.substitute(t.id, 0, Who.member(105, "eve"))
            await league.close_round(1, None, 9)
            await league.settled()
            text = reports[0].text()  # type: ignore[attr-defined]
            assert f"eve stood in for {who}; an AI played {who}'s seat to the end" in text, text
            game = await repo.game_for_table(t.id)
            assert game is not None
            assert [(p.player, p.name) for p in game.players if p.seat == 0] == [(key, who)]
        finally:
            await repo.close()

    asyncio.run(run())


def test_an_in_person_stand_in_is_credited_as_the_absent_member_on_a_typed_result_and_a_sheet(tmp_path: Path) -> None:
    """Issue 30: a no-show's stand-in at an in-person table; the table's result, typed in or kept on a
    score sheet, is credited to the absent member (the league's rule) and taken by the table."""
    from bot.standings.service import Entry

    async def run() -> None:
        repo = Repository(tmp_path / "club.sqlite3")
        await repo.open()
        try:
            tables, st, league = _services(repo)
            lg = await league.create(1, 9, "Night", rounds=1, mode="in_person", rules=find_ruleset("riichi"))
            people = [Who.member(uid, n) for uid, n in USERS] + [Who.member(105 + i, f"m{i}") for i in range(4)]
            for w in people:
                await league.join(1, None, w, organiser=True)
            started = await league.start_round(1, None, 9, 100)
            stand = Who.member(200, "stand")
            credited: list[list[str]] = []
            for n, table in enumerate(started.in_person, 1):
                absent = next(w for w in people if w.player == table[1].player)
                assert not await league.substitute_in_person(lg, n, absent, stand if n == 1 else Who.member(201, "other"), actor_id=9)
                seated = [next(w for w in people if w.player == m.player) for m in table]
                shown = [(stand if n == 1 else Who.member(201, "other")) if w.player == absent.player else w for w in seated]
                if n == 1:  # typed in
                    g = await st.add_result(1, 9, [Entry(w, sc) for w, sc in zip(shown, (45000, 25000, 20000, 10000), strict=True)], season="Night")
                else:  # kept on a score sheet
                    g = await st.record_sheet(1, 9, lg.season_id, shown, [(0, 0, 0.0)] * 4, points=[45000, 25000, 20000, 10000], sticks=0,
                                              ruleset="riichi", penalties=[0.0] * 4, data={}, also=lambda conn, gid: None)
                credited.append([p.player for p in sorted(g.players, key=lambda p: p.seat)])
                assert absent.player in credited[-1] and not any(p in ("u:200", "u:201") for p in credited[-1])
            linked = [e.game_id for e in await sql.round_tables(repo.db, 1, 1) if e.kind == "in_person"]
            assert all(x is not None for x in linked), linked
            _, board = await repo.leaderboard(lg.season_id, "points", limit=100)
            assert {r.player for r in board} == {w.player for w in people}
        finally:
            await repo.close()

    asyncio.run(run())

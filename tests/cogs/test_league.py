"""Issue 20, Must show: a 12-player async league of 3 rounds through Discord (the devserver with its
limits on) — seating, one DM per player, turn deadlines and the round deadline moved on a test
clock, one player replaced after missed turns, one penalty, the standings equal to a recomputation
from the game list and the penalty list, restarts in the middle of a round that lose nothing and
miss no deadline — and the bad input of the issue, each refused in one sentence with the database
unchanged."""

from __future__ import annotations

import asyncio
import contextlib
import re
import sqlite3
import time
from itertools import combinations
from pathlib import Path
from typing import Any

from bot.client import JantakuBot
from bot.league.seating import repeat_lower_bound
from bot.views.table import status_text
from tests.bot.harness import Club, club, make_organiser

PLAYERS = tuple(f"p{i:02d}" for i in range(1, 13))
NAMES = ("org", *PLAYERS, "outsider")
LEAGUE_TABLES = ("leagues", "league_members", "league_rounds", "league_tables", "league_penalties", "substitutions", "league_misses")
KEPT = (*LEAGUE_TABLES, "tables", "actions", "timers", "games", "game_players", "standings", "seasons", "audit_log")
DAY = 24 * 3600.0
PLAY = "SELECT id, status, ruleset, options, seed, mode, async_hours, thread_id, finished_at FROM tables ORDER BY id"


def _dump(db: Path, tables: tuple[str, ...] = KEPT) -> dict[str, list[tuple[Any, ...]]]:
    con = sqlite3.connect(db)
    try:
        # a table's play state (its message ids and the posts it is owed are the presenter's bookkeeping)
        return {
            t: con.execute(PLAY if t == "tables" else f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in tables
        }
    finally:
        con.close()


def _rows(db: Path, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    con = sqlite3.connect(db)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


async def _organiser(c: Club, who: str = "org") -> None:
    await make_organiser(c, who)


async def _say(c: Club, who: str, name: str, options: dict[str, Any] | None = None, timeout: float = 60) -> str:
    rec = await c.server.slash(c.users[who].id, c.guild_id, c.channel_id, name, options or {})
    await rec.reply(timeout=timeout)
    for _ in range(200):  # a deferred answer: wait for its follow-up
        text = "\n".join(c.replies(rec))
        if text and "is thinking" not in text:
            return text
        await asyncio.sleep(0.05)
    return "\n".join(c.replies(rec))


async def _refused(c: Club, who: str, name: str, options: dict[str, Any], expect: str) -> None:
    """One sentence, seen by the asker only, and nothing stored changed."""
    before = _dump(c.db)
    rec = await c.server.slash(c.users[who].id, c.guild_id, c.channel_id, name, options)
    msg = await rec.reply()
    assert msg is not None and msg.flags & 64, f"/{name}: the refusal is ephemeral"
    text = msg.content
    assert expect in text, text
    assert text.endswith(".") and "\n" not in text and not re.search(r"\.\s+[A-Z]", text), f"one sentence: {text!r}"
    await asyncio.sleep(0.2)
    assert _dump(c.db) == before, f"/{name} changed the database"


def _recomputed(db: Path, season_id: int, league_id: int) -> dict[str, float]:
    """Each member's points from the season's games as stored (final scores and seat order, R-2.7/2.8:
    (points - return) / 1000 + uma, oka to first; equal scores by seat), minus their penalties."""
    start, ret, uma = _rows(db, "SELECT start_points, return_points, uma FROM seasons WHERE id = ?", (season_id,))[0]
    uma = [float(x) for x in uma.strip("[]").split(",")]
    totals: dict[str, float] = {}
    for (gid,) in _rows(db, "SELECT id FROM games WHERE season_id = ? AND status = 'ok'", (season_id,)):
        seats = _rows(db, "SELECT seat, player, kind, points FROM game_players WHERE game_id = ? ORDER BY seat", (gid,))
        order = sorted(seats, key=lambda s: (-s[3], s[0]))
        for place, (_, player, kind, points) in enumerate(order, 1):
            value = (points - ret) / 1000 + uma[place - 1] + ((ret - start) * len(seats) / 1000 if place == 1 else 0)
            if kind != "ai":
                totals[player] = totals.get(player, 0.0) + value
    for player, pts in _rows(db, "SELECT player, points FROM league_penalties WHERE league_id = ?", (league_id,)):
        totals[player] = totals.get(player, 0.0) - pts
    return totals


_LINE = re.compile(r"\d+\. (.+?) · \*\*([+-]?\d+\.\d)\*\*")


async def _board_matches(c: Club, season: str, season_id: int, league_id: int) -> None:
    text = await _say(c, "org", "leaderboard", {"season": season})
    shown = {m[1]: float(m[2]) for m in map(_LINE.match, text.splitlines()) if m}
    want = _recomputed(c.db, season_id, league_id)
    name_of = {f"u:{c.users[n].id}": n for n in PLAYERS}
    ranked = sorted(((name_of[p], round(v, 1)) for p, v in want.items() if p in name_of), key=lambda x: -x[1])
    assert list(shown.items()) == ranked[:10], text  # the first page, in its order
    _, rows = await c.bot.repo.leaderboard(season_id, "points", limit=100)  # and every line of it
    assert {name_of[r.player]: round(r.points_after_penalties, 6) for r in rows} == {name_of[p]: round(v, 6) for p, v in want.items()}


def _round_seats(db: Path, number: int) -> list[list[str]]:
    return [sorted(re.findall(r'"(u:\d+)"', s)) for (s,) in _rows(db, "SELECT seats FROM league_tables WHERE round = ? ORDER BY id", (number,))]


async def _restart(c: Club, runner: asyncio.Task[None] | None) -> asyncio.Task[None]:
    await c.bot.close()
    if runner is not None:
        runner.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await runner
    c.bot = JantakuBot(c.bot.settings)
    task = asyncio.create_task(c.bot.start(c.bot.settings.token))
    await c.server.wait_for(lambda: c.bot.is_ready() or None, timeout=120, what="the restarted bot")
    await c.server.wait_for(lambda: getattr(c.bot, "presenter", None), timeout=30, what="the cogs")
    return task


def test_a_twelve_player_async_league_of_three_rounds(tmp_path: Path) -> None:
    async def main() -> None:
        t0 = time.perf_counter()
        async with club(tmp_path, names=NAMES, time_scale=25) as c:
            seeds = iter(range(1000))
            c.bot.service.new_seed = lambda: f"league-test-{next(seeds)}"
            ids = {n: c.users[n].id for n in NAMES}
            await _organiser(c)
            await _say(c, "org", "house new", {"name": "quick", "base": "riichi"})
            await _say(c, "org", "house set", {"name": "quick", "option": "hanchan", "value": "false"})
            made = await _say(c, "org", "league new", {"name": "Winter", "rounds": 3, "mode": "async", "house": "quick", "hours": 24, "misses": 2})
            assert "League 'Winter' is open" in made, made
            league_id, season_id = _rows(c.db, "SELECT id, season_id FROM leagues")[0]
            for p in PLAYERS:
                assert "joined the league 'Winter'" in await _say(c, p, "league join")
            await _refused(c, "p01", "league round", {}, "only an organiser")

            # ---- round 1: seating, threads, one DM each
            opened = await _say(c, "org", "league round")
            assert "Round 1 of 'Winter' is open" in opened, opened
            r1 = _round_seats(c.db, 1)
            assert len(r1) == 3 and sorted(p for t in r1 for p in t) == sorted(f"u:{ids[p]}" for p in PLAYERS)
            tables = [t for (t,) in _rows(c.db, "SELECT table_id FROM league_tables WHERE round = 1 ORDER BY id")]
            for tid, seats in zip(tables, r1, strict=True):
                t = c.bot.service.tables[tid]
                assert t.row.status == "playing" and t.row.mode == "async" and t.row.async_hours == 24 and t.row.house == "quick"
                assert sorted(f"u:{s.user_id}" for s in t.seats) == seats
                assert t.row.thread_id is not None and c.server.channel(t.row.thread_id).is_thread
            for p in PLAYERS:
                notes = [m.content for m in c.server.dms(ids[p]) if "round 1: you play at table" in m.content]
                assert len(notes) == 1, (p, notes)
                mine = next(tid for tid in tables if c.bot.service.tables[tid].seat_of(ids[p]) is not None)
                assert f"table #{mine}" in notes[0] and "<t:" in notes[0]

            # ---- bad input while the round runs
            await _refused(c, "org", "league round", {}, "round 1 of 'Winter' is still open")
            await _refused(c, "outsider", "league join", {}, "is under way")
            await _refused(c, "org", "league penalty", {"member": ids["outsider"], "points": 20, "reason": "chombo"}, "is not in the league")

            # ---- turn deadlines on a test clock: the waiting seats of the first table run out of time
            # until a seat has missed 2 turns in this game and a substitute (an AI) takes it
            first = c.bot.service.tables[tables[0]]

            def counted(table_id: int) -> tuple[int, int]:
                """(turns missed in this game, substitutions): each clock move changes one of them.
                Waited for in storage: the game moves before the league hears of it."""
                missed = _rows(c.db, "SELECT COALESCE(SUM(misses), 0) FROM league_misses WHERE table_id = ?", (table_id,))[0][0]
                return missed, _rows(c.db, "SELECT COUNT(*) FROM substitutions WHERE table_id = ?", (table_id,))[0][0]

            for _ in range(40):
                if counted(first.id)[1]:
                    break
                serial, before = first.decision_serial(), counted(first.id)
                await c.bot.repo.set_timer(first.id, serial, time.time() - 1, time.time() - 2 * DAY)
                c.bot.timers.poke()
                await c.server.wait_for(lambda s=serial: first.decision_serial() != s or None, timeout=10, what="the clock's move")
                await c.server.wait_for(lambda b=before: counted(first.id) != b or None, timeout=10, what="the miss counted")
                await c.bot.league.settled()
            subs = _rows(c.db, "SELECT seat, old_player, new_player, misses FROM substitutions WHERE table_id = ?", (first.id,))
            assert subs, "nobody was replaced"
            seat, old, new, misses = subs[0]
            assert new == "ai:smart" and misses == 2 and first.seats[seat].ai == "smart" and first.seats[seat].user_id is None
            absent = next(n for n in PLAYERS if f"u:{ids[n]}" == old)
            # the seat keeps one stored name, in English; a Japanese reader sees it in Japanese
            assert first.seats[seat].name == f"AI for {absent}"
            assert f"AI for {absent}" in status_text(first, None, "en")
            assert f"{absent}の代打ちAI" in status_text(first, None, "ja") and f"AI for {absent}" not in status_text(first, None, "ja")
            told = f"{absent} missed 2 turns: an AI plays the seat for the rest of this game."
            await c.server.wait_for(lambda: any(told in m.content for m in c.server.dms(ids[absent])) or None, timeout=10, what="the DM")
            assert any(m.content == told for m in c.server.messages(first.row.thread_id or 0)), "the table's thread is told"
            status = await _say(c, "p02", "league status")
            assert "Round 1 closes <t:" in status and f"Table #{first.id}: hand 1" in status and "waiting for" in status, status

            # ---- the round deadline passes (the league's clock moved on): the unfinished games are
            # played out by AI seats, the round closes, its post gives results and the leaderboard
            real = c.bot.league.clock
            c.bot.league.clock = lambda: real() + 8 * DAY
            c.bot.league.poke()
            post = await c.server.wait_for(
                lambda: next((m for m in c.server.messages(c.channel_id) if "round 1 of 3 is over" in m.content), None), timeout=60,
                what="the end of round 1",
            )
            c.bot.league.clock = real
            assert all(c.bot.service.tables[t].row.status == "finished" for t in tables)
            assert f"{absent} was replaced by an AI after 2 missed turns" in post.content, post.content
            assert "Leaderboard:" in post.content and post.content.count("(new)") == 12
            assert sorted(a.filename for a in post.attachments) == sorted(f"table-{t}.png" for t in tables)
            games = _rows(c.db, "SELECT id FROM games WHERE season_id = ?", (season_id,))
            assert len(games) == 3
            # the absent player keeps the seat's result
            credited = _rows(c.db, "SELECT gp.player FROM game_players gp JOIN games g ON g.id = gp.game_id WHERE g.table_id = ? AND gp.seat = ?",
                             (first.id, seat))
            assert credited == [(old,)]
            await _board_matches(c, "Winter", season_id, league_id)

            # ---- one penalty, in the audit log, on the leaderboard and in /stats
            said = await _say(c, "org", "league penalty", {"member": ids["p05"], "points": 20, "reason": "chombo", "game": games[0][0]})
            assert "loses 20 points" in said
            assert _rows(c.db, "SELECT actor_id FROM audit_log WHERE action = 'league penalty'") == [(ids["org"],)]
            await _board_matches(c, "Winter", season_id, league_id)
            stats = await _say(c, "p05", "stats", {"season": "Winter"})
            assert "penalties: −20" in stats, stats

            # ---- round 2: shuffle seats as few repeat opponents as can be
            assert "Round 2 of 'Winter' is open" in await _say(c, "org", "league round")
            r2 = _round_seats(c.db, 2)
            met: dict[tuple[str, str], int] = {}
            for table in r1 + r2:
                for a, b in combinations(sorted(table), 2):
                    met[(a, b)] = met.get((a, b), 0) + 1
            assert sum(m - 1 for m in met.values() if m > 1) == repeat_lower_bound(12, 4, 2)
            tables2 = [t for (t,) in _rows(c.db, "SELECT table_id FROM league_tables WHERE round = 2 ORDER BY id")]
            t2 = c.bot.service.tables[tables2[1]]
            serial = t2.decision_serial()
            await c.bot.repo.set_timer(t2.id, serial, time.time() - 1, time.time() - 2 * DAY)
            c.bot.timers.poke()
            await c.server.wait_for(lambda: t2.decision_serial() != serial or None, timeout=10, what="the clock's move")
            await c.server.wait_for(lambda: counted(t2.id)[0] >= 1 or None, timeout=10, what="the miss counted")

            # ---- a restart in the middle of the round loses nothing
            runner: asyncio.Task[None] | None = None
            before = _dump(c.db)
            runner = await _restart(c, runner)
            await asyncio.sleep(0.5)
            after = _dump(c.db)
            for name in KEPT:
                if name != "audit_log":
                    assert after[name] == before[name], name
            assert {t for t in tables2 if c.bot.service.tables[t].row.status == "playing"} == set(tables2)
            assert "Round 2 closes" in await _say(c, "p01", "league status")

            # ---- and misses no deadline: the round's deadline passes while the bot is down
            await c.bot.close()
            con = sqlite3.connect(c.db)
            con.execute("UPDATE league_rounds SET deadline = ? WHERE number = 2", (time.time() - 60,))
            con.commit()
            con.close()
            runner = await _restart(c, runner)
            try:
                await c.server.wait_for(
                    lambda: any("round 2 of 3 is over" in m.content for m in c.server.messages(c.channel_id)) or None, timeout=60,
                    what="the end of round 2 after the restart",
                )
                assert _rows(c.db, "SELECT status FROM league_rounds ORDER BY number") == [("closed",), ("closed",)]
                assert len(_rows(c.db, "SELECT id FROM games WHERE season_id = ?", (season_id,))) == 6

                # ---- round 3, closed by the organiser: the league and its season end
                assert "Round 3 of 'Winter' is open" in await _say(c, "org", "league round")
                await _refused(c, "p03", "league close", {}, "only an organiser")
                assert "Round 3 of 'Winter' is closed" in await _say(c, "org", "league close")
                await c.server.wait_for(lambda: any("round 3 of 3 is over" in m.content for m in c.server.messages(c.channel_id)) or None,
                                        timeout=30, what="the end of round 3")
                assert _rows(c.db, "SELECT status FROM leagues") == [("finished",)]
                assert _rows(c.db, "SELECT active FROM seasons WHERE id = ?", (season_id,)) == [(0,)]
                assert len(_rows(c.db, "SELECT id FROM games WHERE season_id = ?", (season_id,))) == 9
                await _board_matches(c, "Winter", season_id, league_id)
                assert "The league is over" in await _say(c, "p01", "league status", {"league": "Winter"})
                await _refused(c, "org", "league round", {"league": "Winter"}, "is over")
                assert await c.bot.repo.check() == []
            finally:
                await c.bot.close()
                runner.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await runner
        assert time.perf_counter() - t0 < 120

    asyncio.run(main())


def test_an_in_person_round_through_discord(tmp_path: Path) -> None:
    """Seated by /league round, announced in the channel and by DM, each table's result typed in with
    /result add: the round closes with the results posted."""

    async def main() -> None:
        async with club(tmp_path, names=("org", "p01", "p02", "p03", "p04"), time_scale=25) as c:
            await _organiser(c)
            made = await _say(c, "org", "league new", {"name": "Night", "rounds": 1, "mode": "in_person", "ruleset": "riichi", "leftover": "bye"})
            assert "League 'Night' is open" in made, made
            for p in ("p01", "p02", "p03", "p04"):
                await _say(c, p, "league join")
            assert "Kana is in the league 'Night'" in await _say(c, "org", "league add", {"guest": "Kana"})
            opened = await _say(c, "org", "league round")
            assert "Round 1 of 'Night' is open: 1 in-person table" in opened and "Bye: " in opened, opened
            assert not c.bot.service.tables  # no bot table
            seats = re.findall(r'"([ug]:[^"]+)"', _rows(c.db, "SELECT seats FROM league_tables WHERE kind = 'in_person'")[0][0])
            names = {f"u:{c.users[n].id}": n for n in ("p01", "p02", "p03", "p04")} | {"g:kana": "Kana"}
            posted = [m.content for m in c.server.messages(c.channel_id) if "round 1 (in person)" in m.content]
            assert len(posted) == 1 and all(names[k] in posted[0] for k in seats)
            for k in seats:
                if k.startswith("u:"):
                    dm = [m.content for m in c.server.dms(int(k[2:])) if "you play at table 1 (in person)" in m.content]
                    assert len(dm) == 1 and "/result add season:Night" in dm[0]
            opts: dict[str, Any] = {}
            for i, (k, score) in enumerate(zip(seats, (45000, 25000, 20000, 10000), strict=True), 1):
                opts[f"p{i}"] = f"<@{k[2:]}>" if k.startswith("u:") else "guest:Kana"
                opts[f"s{i}"] = score
            opts["season"] = "Night"
            await _say(c, "p01", "result add", opts)
            post = await c.server.wait_for(
                lambda: next((m for m in c.server.messages(c.channel_id) if "round 1 of 1 is over" in m.content), None), timeout=30,
                what="the end of the round",
            )
            assert "Table 1 (in person): " in post.content and "45,000" in post.content and "Bye: " in post.content, post.content
            assert _rows(c.db, "SELECT status FROM leagues") == [("finished",)]

    asyncio.run(main())

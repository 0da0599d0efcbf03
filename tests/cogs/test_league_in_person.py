"""Issue 30, findings 2 and 3 (and the in-person items of 6), through Discord (the devserver with its
limits on): an in-person league of two rounds made without ``leftover:``; its tables have numbers
and seat winds; a no-show replaced at the table with ``/league substitute table:2`` is recorded as a
substitute (the absent member keeps the seat, per the league's rule), never as a stray member; a
typed-in result goes to the club's default season unless ``season:`` names another, and the answer
names the season; the league's season refuses a game none of its tables seats; the leaderboard
equals a recomputation from the stored games and penalties, and the round post's arrows agree
with it."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

from tests.bot.harness import Club, club, make_organiser, rows

MEMBERS = tuple(f"p{i}" for i in range(1, 9))
NAMES = ("org", *MEMBERS, "stand")
WINDS = ("East", "South", "West", "North")


async def _say(c: Club, who: str, name: str, options: dict[str, Any] | None = None) -> tuple[str, bool]:
    """The answer's text, and whether only the asker sees it (a refusal)."""
    rec = await c.server.slash(c.users[who].id, c.guild_id, c.channel_id, name, options or {})
    msg = await rec.reply(timeout=60)
    for _ in range(200):
        text = "\n".join(c.replies(rec))
        if text and "is thinking" not in text:
            return text, bool(msg is not None and msg.flags & 64)
        await asyncio.sleep(0.05)
    return "\n".join(c.replies(rec)), bool(msg is not None and msg.flags & 64)


def _recomputed(db: Path, season_id: int) -> dict[str, float]:
    """Each player's points from the stored games (R-2.7/2.8: (points - return) / 1000 + uma, oka
    to first), minus their penalties (the league's and the season's)."""
    start, ret, uma = rows(db, f"SELECT start_points, return_points, uma FROM seasons WHERE id = {season_id}")[0]
    uma = json.loads(uma)
    totals: dict[str, float] = {}
    for (gid,) in rows(db, f"SELECT id FROM games WHERE season_id = {season_id} AND status = 'ok'"):
        seats = rows(db, f"SELECT seat, player, points, place FROM game_players WHERE game_id = {gid} ORDER BY seat")
        for _, player, points, place in seats:
            value = (points - ret) / 1000 + uma[place - 1] + ((ret - start) * len(seats) / 1000 if place == 1 else 0)
            totals[player] = totals.get(player, 0.0) + value
    for player, pts in rows(db, f"SELECT lp.player, lp.points FROM league_penalties lp JOIN leagues l ON l.id = lp.league_id WHERE l.season_id = {season_id}"):
        totals[player] = totals.get(player, 0.0) - pts
    for player, pts in rows(db, f"SELECT player, points FROM season_penalties WHERE season_id = {season_id}"):
        totals[player] = totals.get(player, 0.0) - pts
    return totals


def _ranked(totals: dict[str, float]) -> list[str]:
    return [p for p, _ in sorted(totals.items(), key=lambda x: (-x[1], x[0]))]


def test_an_in_person_league_with_a_no_show_and_typed_in_results(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path, names=NAMES, time_scale=25) as c:
            await make_organiser(c, "org")
            ids = {n: c.users[n].id for n in NAMES}
            key = {n: f"u:{ids[n]}" for n in NAMES}
            name_of = {v: k for k, v in key.items()}
            started, _ = await _say(c, "org", "season start", {"name": "Club", "ruleset": "riichi"})
            assert "Club" in started, started
            made, refused = await _say(c, "org", "league new", {"name": "Night", "rounds": 2, "mode": "in_person", "ruleset": "riichi"})
            assert not refused and "League 'Night' is open" in made, made  # byes by default: no leftover: needed
            for p in MEMBERS:
                await _say(c, p, "league join")
            league_id, season_id = rows(c.db, "SELECT id, season_id FROM leagues")[0]
            club_season = rows(c.db, "SELECT id FROM seasons WHERE name = 'Club'")[0][0]

            opened, _ = await _say(c, "org", "league round")
            assert "Round 1 of 'Night' is open: 2 in-person tables" in opened, opened
            seats = [json.loads(s) for (s,) in rows(c.db, "SELECT seats FROM league_tables WHERE round = 1 ORDER BY id")]
            post = next(m.content for m in c.server.messages(c.channel_id) if "round 1 (in person)" in m.content)
            for n, table in enumerate(seats, 1):  # numbered, each seat with its wind, East first
                line = next(x for x in post.splitlines() if x.startswith(f"Table {n}:"))
                assert line == f"Table {n}: " + ", ".join(f"{w} {name_of[k]}" for w, k in zip(WINDS, table, strict=True)), line

            # ---- a no-show at table 2: the stand-in plays, as a substitute
            absent = name_of[seats[1][2]]
            said, refused = await _say(c, "org", "league substitute", {"table": 2, "absent": ids[absent], "member": ids["stand"]})
            assert not refused and said == f"stand plays {absent}'s seat at table 2 (in person); the result stays {absent}'s.", said
            status, _ = await _say(c, "org", "league status")
            assert f"stand for {absent}" in status, status
            said, refused = await _say(c, "org", "league substitute", {"table": 3, "absent": ids[absent], "member": ids["stand"]})
            assert refused and said == "Round 1 of 'Night' has 2 in-person tables: there is no table 3.", said

            def opts(table: list[str], scores: tuple[int, ...], **more: Any) -> dict[str, Any]:
                out: dict[str, Any] = dict(more)
                for i, (k, s) in enumerate(zip(table, scores, strict=True), 1):
                    out[f"p{i}"], out[f"s{i}"] = f"<@{k[2:]}>", s
                return out

            # ---- a typed-in result without season: goes to the club's default season, and says so
            said, refused = await _say(c, "p1", "result add", opts(seats[0], (40000, 30000, 20000, 10000)))
            assert not refused and "recorded in the season 'Club'" in said, said
            assert rows(c.db, f"SELECT COUNT(*) FROM games WHERE season_id = {club_season}") == [(1,)]
            # ---- the league's season takes only its own tables' games
            mixed = [seats[0][0], seats[0][1], seats[1][0], seats[1][1]]
            said, refused = await _say(c, "p1", "result add", opts(mixed, (40000, 30000, 20000, 10000), season="Night"))
            assert refused and "takes only the results of its own tables" in said, said
            assert rows(c.db, f"SELECT COUNT(*) FROM games WHERE season_id = {season_id}") == [(0,)]

            said, _ = await _say(c, "p1", "result add", opts(seats[0], (45000, 25000, 20000, 10000), season="Night"))
            assert "recorded in the season 'Night'" in said, said
            with_stand = [key["stand"] if k == key[absent] else k for k in seats[1]]
            said, refused = await _say(c, "p1", "result add", opts(with_stand, (32000, 31000, 29000, 8000), season="Night"))
            assert not refused and "recorded in the season 'Night'" in said, said
            # credited to the absent member (the league's rule), never to the stand-in
            assert not rows(c.db, f"SELECT * FROM game_players WHERE player = '{key['stand']}'")
            post1 = await c.server.wait_for(
                lambda: next((m.content for m in c.server.messages(c.channel_id) if "round 1 of 2 is over" in m.content), None), timeout=30,
                what="the end of round 1",
            )
            assert f"stand stood in for {absent}" in post1 or f"stand played {absent}'s seat" in post1, post1
            board = dict(rows(c.db, f"SELECT player, games FROM standings WHERE season_id = {season_id}"))
            assert set(board) == {key[p] for p in MEMBERS}, board

            # ---- round 2: both results in; the post's arrows agree with a recomputation
            before = _ranked(_recomputed(c.db, season_id))
            await _say(c, "org", "league round")
            seats2 = [json.loads(s) for (s,) in rows(c.db, "SELECT seats FROM league_tables WHERE round = 2 ORDER BY id")]
            for table, scores in zip(seats2, ((50000, 30000, 15000, 5000), (26000, 25000, 25000, 24000)), strict=True):
                said, refused = await _say(c, "p1", "result add", opts(table, scores, season="Night", seat_order=True))
                assert not refused, said
            post2 = await c.server.wait_for(
                lambda: next((m.content for m in c.server.messages(c.channel_id) if "round 2 of 2 is over" in m.content), None), timeout=30,
                what="the end of round 2",
            )
            totals = _recomputed(c.db, season_id)
            after = _ranked(totals)
            lines = post2.split("Leaderboard:")[1].strip().splitlines()
            assert len(lines) == len(MEMBERS), post2
            for i, (line, p) in enumerate(zip(lines, after, strict=True)):
                was = before.index(p)
                moved = f" (▲{was - i})" if was > i else f" (▼{i - was})" if was < i else ""
                assert line == f"{i + 1}. {name_of[p]} {totals[p]:+.1f}{moved}", (line, p, was, i)
            shown, _ = await _say(c, "org", "leaderboard", {"season": "Night"})
            got = {m[1]: float(m[2]) for m in map(re.compile(r"\d+\. (.+?) · \*\*([+-]?\d+\.\d)\*\*").match, shown.splitlines()) if m}
            assert got == {name_of[p]: round(v, 1) for p, v in totals.items()}, shown

    asyncio.run(main())

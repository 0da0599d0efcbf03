"""Issue 30, finding 4: penalties and chombo in any season (not only a league's), through Discord
(the devserver with its limits on): ``/season penalty`` adds one (a chombo is 20 points unless
given), ``/season penalties`` lists them with their reasons and who entered them, the leaderboard and
``/stats`` take them off, ``/season export`` writes them, the audit log keeps the reason and the
organiser, and ``/result audit`` shows what each entry changed. Read with a ``ja`` locale, these
answers hold no English word of ours."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import re
from pathlib import Path
from typing import Any

from tests.bot.harness import Club, club, make_organiser, rows

NAMES = ("org", "ann", "ben", "cat", "dan")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


async def _ask(c: Club, who: str, name: str, options: dict[str, Any] | None = None, *, locale: str = "en-US") -> Any:
    rec = await c.server.slash(c.users[who].id, c.guild_id, c.channel_id, name, options or {}, locale=locale)
    msg = await rec.reply(timeout=60)
    assert msg is not None, rec
    return msg


def _recomputed(db: Path, season_id: int) -> dict[str, float]:
    """(points - return) / 1000 + uma, oka to first (R-2.7), per stored game, minus the penalties."""
    start, ret, uma = rows(db, f"SELECT start_points, return_points, uma FROM seasons WHERE id = {season_id}")[0]
    uma = json.loads(uma)
    totals: dict[str, float] = {}
    for (gid,) in rows(db, f"SELECT id FROM games WHERE season_id = {season_id} AND status = 'ok'"):
        seats = rows(db, f"SELECT player, points, place FROM game_players WHERE game_id = {gid}")
        for player, points, place in seats:
            totals[player] = totals.get(player, 0.0) + (points - ret) / 1000 + uma[place - 1] + ((ret - start) * len(seats) / 1000 if place == 1 else 0)
    for player, pts in rows(db, f"SELECT player, points FROM season_penalties WHERE season_id = {season_id}"):
        totals[player] -= pts
    return totals


def _english_left(text: str, data: list[str]) -> list[str]:
    """Latin words left once the user's data (names, mentions, times, numbers) is taken out."""
    for d in sorted(data, key=len, reverse=True):
        text = text.replace(d, " ")
    text = re.sub(r"<[@#t][^>]*>", " ", text)
    return _LATIN_WORD.findall(text)


def test_penalties_and_chombo_in_a_plain_season(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path, names=NAMES, time_scale=25) as c:
            await make_organiser(c, "org")
            ids = {n: c.users[n].id for n in NAMES}
            await _ask(c, "org", "season start", {"name": "Spring", "ruleset": "riichi"})
            (season_id,) = rows(c.db, "SELECT id FROM seasons WHERE name = 'Spring'")[0]
            people = {f"p{i}": f"<@{ids[n]}>" for i, n in enumerate(("ann", "ben", "cat", "dan"), 1)}
            one = await _ask(c, "ann", "result add", {**people, "s1": 40000, "s2": 30000, "s3": 20000, "s4": 10000})
            assert "recorded in the season 'Spring'" in one.content, one.content
            await _ask(c, "ann", "result add", {**people, "s1": 10000, "s2": 20000, "s3": 30000, "s4": 40000})

            said = await _ask(c, "org", "season penalty", {"player": f"<@{ids['ben']}>", "reason": "late for the start", "points": 5})
            assert said.content == "ben loses 5 points in 'Spring': late for the start.", said.content
            said = await _ask(c, "org", "season penalty", {"player": f"<@{ids['cat']}>", "reason": "wrong tsumo", "chombo": True, "game": 1})
            assert said.content == "cat loses 20 points in 'Spring' for a chombo: wrong tsumo.", said.content
            # bad input: one sentence, seen by the asker alone, nothing stored
            before = rows(c.db, "SELECT COUNT(*) FROM season_penalties")
            for opts, expect in (
                ({"player": f"<@{ids['ben']}>", "reason": "x"}, "give the points a penalty takes off"),
                ({"player": "guest:Nobody", "reason": "x", "points": 5}, "has no game in the season 'Spring'"),
                ({"player": f"<@{ids['ben']}>", "reason": "x", "points": 5, "game": 99}, "game #99 is not a game of the season 'Spring'"),
            ):
                refused = await _ask(c, "org", "season penalty", opts)
                assert refused.flags & 64 and expect in refused.content, refused.content
            refused = await _ask(c, "ann", "season penalty", {"player": f"<@{ids['ben']}>", "reason": "x", "points": 5})
            assert refused.flags & 64 and "only an organiser" in refused.content, refused.content
            assert rows(c.db, "SELECT COUNT(*) FROM season_penalties") == before

            listed = (await _ask(c, "dan", "season penalties")).content
            assert "Penalties in 'Spring':" in listed and "ben: −5 (late for the start)" in listed, listed
            assert "cat: chombo −20 (wrong tsumo) game #1" in listed and listed.count(f"entered by <@{ids['org']}>") == 2, listed

            # the leaderboard and /stats take them off: a recomputation from the games and the penalties
            totals = _recomputed(c.db, season_id)
            # hand-computed (riichi: 25,000 start, 30,000 return, uma 15/5/-5/-15, oka 20 to first):
            # ben: 30,000 → 0+5 = 5; 20,000 → -10-5 = -15; less 5 → -15.0
            assert round(totals[f"u:{ids['ben']}"], 6) == -15.0
            board = (await _ask(c, "dan", "leaderboard", {"season": "Spring"})).content
            got = {m[1]: float(m[2]) for m in map(re.compile(r"\d+\. (.+?) · \*\*([+-]?\d+\.\d)\*\*").match, board.splitlines()) if m}
            assert got == {n: round(totals[f"u:{ids[n]}"], 1) for n in ("ann", "ben", "cat", "dan")}, board
            stats = (await _ask(c, "cat", "stats", {"season": "Spring"})).content
            assert "penalties: −20" in stats and "chombo: 1" in stats, stats

            # /season export: the name, and the penalties as lines with their reasons
            export = await _ask(c, "dan", "season export", {"season": "Spring"})
            assert export.content == "The results of Spring:", export.content
            lines = list(csv.DictReader(io.StringIO(bytes(export.attachments[0].data).decode())))
            pens = [(r["source"], r["name"], r["result"], r["reason"], r["entered_by"]) for r in lines if r["source"] in ("penalty", "chombo")]
            assert pens == [("penalty", "ben", "-5", "late for the start", f"u:{ids['org']}"),
                            ("chombo", "cat", "-20", "wrong tsumo", f"u:{ids['org']}")], pens

            # the audit log: the reason and who entered it; /result audit shows what changed
            assert rows(c.db, "SELECT actor_id, json_extract(after, '$.reason') FROM audit_log WHERE action LIKE 'season %' AND action != 'season start' ORDER BY id") == [
                (ids["org"], "late for the start"), (ids["org"], "wrong tsumo")]
            await _ask(c, "org", "result edit", {"game": 2, **people, "s1": 12000, "s2": 18000, "s3": 30000, "s4": 40000})
            audit = (await _ask(c, "org", "result audit")).content
            assert "result added" in audit and "ann 40,000, ben 30,000, cat 20,000, dan 10,000" in audit, audit
            assert "ann 10,000 → 12,000, ben 20,000 → 18,000" in audit, audit
            assert "penalty — ben −5: late for the start" in audit and "chombo game #1 — cat −20: wrong tsumo" in audit, audit

            # ---- in Japanese: no English word of ours
            data = ["Spring", *NAMES, "late for the start", "wrong tsumo", "riichi", "openskill"]
            for name, opts, who in (
                ("season penalty", {"player": f"<@{ids['dan']}>", "reason": "late for the start", "points": 1}, "org"),
                ("season penalty", {"player": f"<@{ids['dan']}>", "reason": "wrong tsumo", "chombo": True}, "org"),
                ("season penalty", {"player": f"<@{ids['dan']}>", "reason": "late for the start"}, "org"),
                ("season penalties", {}, "dan"),
                ("result audit", {}, "org"),
                ("result add", {**people, "s1": 40000, "s2": 30000, "s3": 20000, "s4": 10000}, "ann"),
                ("season list", {}, "ann"),
                ("season export", {}, "ann"),
            ):
                msg = await _ask(c, who, name, opts, locale="ja")
                assert not _english_left(msg.content, data), (name, msg.content)

    asyncio.run(main())

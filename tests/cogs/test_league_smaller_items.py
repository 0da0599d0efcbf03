"""Issue 30, finding 6 (the smaller items), through Discord (the devserver with its limits on): a
round shorter than one turn is refused in one sentence with nothing stored; ``/season list`` names a
season's house rules; ``/season export`` names the season, not its file's slug; ``/house set``'s
autocomplete hints are in the reader's language; a round that closes with no game counted says so
instead of posting an empty "Leaderboard:"; an in-person round's pictures are named by their table's
number (not ``table-None.png``)."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path
from typing import Any

from tests.bot.harness import Club, club, make_organiser, rows

NAMES = ("org", "p1", "p2", "p3", "p4")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


async def _ask(c: Club, who: str, name: str, options: dict[str, Any] | None = None, *, locale: str = "en-US") -> Any:
    rec = await c.server.slash(c.users[who].id, c.guild_id, c.channel_id, name, options or {}, locale=locale)
    msg = await rec.reply(timeout=60)
    for _ in range(200):
        if msg is not None and "is thinking" not in (msg.content or ""):
            break
        await asyncio.sleep(0.05)
        msg = rec.original
    return msg


def _dump(db: Path) -> list[Any]:
    con = sqlite3.connect(db)
    try:
        return [con.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall() for t in ("leagues", "seasons", "league_rounds")]
    finally:
        con.close()


def test_the_smaller_items(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path, names=NAMES, time_scale=25) as c:
            await make_organiser(c, "org")
            ids = {n: c.users[n].id for n in NAMES}
            # a round shorter than one turn: refused, one sentence, nothing stored
            before = _dump(c.db)
            msg = await _ask(c, "org", "league new", {"name": "Short", "rounds": 1, "mode": "async", "ruleset": "riichi", "hours": 48, "round_hours": 6})
            assert msg.flags & 64 and msg.content == "a round of 6 hours is shorter than one turn of 48 hours: give the round at least 48 hours.", msg.content
            assert _dump(c.db) == before

            # /season list names the house rules; /season export the season
            await _ask(c, "org", "house new", {"name": "club", "base": "riichi"})
            await _ask(c, "org", "house set", {"name": "club", "option": "kiriage", "value": "true"})
            await _ask(c, "org", "season start", {"name": "Summer cup", "house": "club"})
            listed = (await _ask(c, "p1", "season list")).content
            assert "**Summer cup** — riichi, house rules club, rating openskill, running" in listed, listed
            export = await _ask(c, "p1", "season export", {"season": "Summer cup"})
            assert export.content == "The results of Summer cup:" and export.attachments[0].filename == "Summer-cup.csv", export.content

            # /house set's hints in Japanese
            rec = await c.server.autocomplete(ids["org"], c.guild_id, c.channel_id, "house set", {"name": "club", "option": "kuitan"}, "option",
                                              locale="ja")
            await rec.response()
            hint = next(ch["name"] for ch in rec.choices or [] if ch["value"] == "kuitan")
            assert "true か false" in hint and "true or false" not in hint, hint

            # an in-person round: pictures named by the table's number; a round with no game counted says so
            await _ask(c, "org", "league new", {"name": "Night", "rounds": 2, "mode": "in_person", "ruleset": "riichi"})
            for p in ("p1", "p2", "p3", "p4"):
                await _ask(c, p, "league join")
            await _ask(c, "org", "league round")
            await _ask(c, "org", "league close")
            empty = await c.server.wait_for(
                lambda: next((m for m in c.server.messages(c.channel_id) if "round 1 of 2 is over" in m.content), None), timeout=30,
                what="the end of round 1")
            assert empty.content.splitlines()[-1] == "Leaderboard: no game counts yet.", empty.content
            assert not empty.attachments
            await _ask(c, "org", "league round")
            seats = re.findall(r'"(u:\d+)"', rows(c.db, "SELECT seats FROM league_tables WHERE round = 2")[0][0])
            opts: dict[str, Any] = {"season": "Night"}
            for i, (k, s) in enumerate(zip(seats, (40000, 30000, 20000, 10000), strict=True), 1):
                opts[f"p{i}"], opts[f"s{i}"] = f"<@{k[2:]}>", s
            await _ask(c, "p1", "result add", opts)
            post = await c.server.wait_for(
                lambda: next((m for m in c.server.messages(c.channel_id) if "round 2 of 2 is over" in m.content), None), timeout=30,
                what="the end of round 2")
            assert [a.filename for a in post.attachments] == ["in-person-table-1.png"], [a.filename for a in post.attachments]
            assert "Leaderboard:\n1. " in post.content, post.content

    asyncio.run(main())

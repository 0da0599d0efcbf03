"""Issue 30, finding 1: a human substitute in an async league, through Discord (the devserver with
its limits on). The substitute gets the seat's hand by DM with buttons and plays it through DMs to
the end; the absent player and the table's thread are told in plain words; swapping back gives the
seat back; the game's result goes where the league's rule says (the absent player keeps it), in the
database and in every answer; the round's post names the substitute."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from tests.bot.harness import Club, club, make_organiser, play_out, rows

NAMES = ("org", "p01", "p02", "sub")


async def _say(c: Club, who: str, name: str, options: dict[str, Any] | None = None, *, locale: str = "en-US") -> str:
    rec = await c.server.slash(c.users[who].id, c.guild_id, c.channel_id, name, options or {}, locale=locale)
    await rec.reply(timeout=60)
    for _ in range(200):  # a deferred answer: wait for its follow-up
        text = "\n".join(c.replies(rec))
        if text and "is thinking" not in text:
            return text
        await asyncio.sleep(0.05)
    return "\n".join(c.replies(rec))


def _hand_dms(c: Club, who: str, table: int) -> list[Any]:
    """``who``'s DMs showing the table's hand (with its buttons when the seat is to act)."""
    return [m for m in c.server.dms(c.users[who].id) if m.content.startswith(f"Your hand ({who},") and f"**Table #{table}**" in m.content]


def test_a_human_substitute_gets_the_hand_plays_it_to_the_end_and_is_named(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path, names=NAMES, time_scale=25) as c:
            await make_organiser(c, "org")
            ids = {n: c.users[n].id for n in NAMES}
            await _say(c, "org", "house new", {"name": "quick", "base": "riichi"})
            await _say(c, "org", "house set", {"name": "quick", "option": "hanchan", "value": "false"})
            made = await _say(c, "org", "league new", {"name": "Autumn", "rounds": 1, "mode": "async", "house": "quick"})
            assert "League 'Autumn' is open" in made, made
            for p in ("p01", "p02"):
                await _say(c, p, "league join")
            assert "Round 1 of 'Autumn' is open" in await _say(c, "org", "league round")
            (table,) = [t for (t,) in rows(c.db, "SELECT table_id FROM league_tables")]
            tb = await c.started(table)
            seat = tb.seat_of(ids["p02"])
            assert seat is not None
            assert not _hand_dms(c, "sub", table)

            # ---- sub takes p02's seat: the answer, the thread, p02 and sub are told; sub gets the hand
            said = await _say(c, "org", "league substitute", {"table": table, "absent": ids["p02"], "member": ids["sub"]})
            assert said == f"sub plays p02's seat at table #{table} for the rest of the game; the result stays p02's.", said
            assert tb.seats[seat].user_id == ids["sub"] and tb.seat_of(ids["p02"]) is None
            await c.server.wait_for(lambda: _hand_dms(c, "sub", table) or None, timeout=20, what="sub's hand by DM")
            told = f"Table #{table}: sub plays your seat for the rest of this game; the game's result stays yours."
            await c.server.wait_for(lambda: any(m.content == told for m in c.server.dms(ids["p02"])) or None, timeout=10, what="p02's DM")
            assert not any("missed 0" in m.content for m in c.server.dms(ids["p02"]))
            # p02's hand message keeps the hand, without the buttons of a seat that is no longer theirs
            await c.server.wait_for(lambda: all(not m.components for m in c.server.dms(ids["p02"])) or None, timeout=10,
                                    what="p02's buttons taken down")
            where = tb.row.thread_id or c.channel_id
            await c.server.wait_for(
                lambda: any(m.content == "sub plays p02's seat for the rest of this game." for m in c.server.messages(where)) or None,
                timeout=10, what="the thread told",
            )

            # ---- swapping back restores the seat: p02 plays again, and is told so by the answer
            had = len(_hand_dms(c, "p02", table))
            back = await _say(c, "org", "league substitute", {"table": table, "absent": ids["sub"], "member": ids["p02"]})
            assert back == f"p02 is back in their seat at table #{table}.", back
            assert tb.seats[seat].user_id == ids["p02"] and tb.seat_of(ids["sub"]) is None
            await c.server.wait_for(lambda: len(_hand_dms(c, "p02", table)) > had or None, timeout=20, what="p02's hand again")

            # ---- sub again, and plays through DMs to the end (p01 too; the other seats are AI)
            # (asked in Japanese: answered in Japanese, no English word of ours)
            again = await _say(c, "org", "league substitute", {"table": table, "absent": ids["p02"], "member": ids["sub"]}, locale="ja")
            assert "p02" in again and not re.findall(r"[A-Za-z]{2,}", re.sub(r"p02|sub", " ", again)), again
            clicks = await play_out(c, ["p01", "sub"], seconds=300, table=table)
            assert clicks > 0
            post = await c.server.wait_for(
                lambda: next((m for m in c.server.messages(c.channel_id) if "round 1 of 1 is over" in m.content), None), timeout=60,
                what="the end of the round",
            )
            assert "sub played p02's seat to the end" in post.content, post.content
            assert "an AI" not in post.content, post.content
            # the league's rule: the absent player keeps the seat's result, as every answer said
            credited = rows(c.db, "SELECT gp.player, gp.name FROM game_players gp JOIN games g ON g.id = gp.game_id"
                                  f" WHERE g.table_id = {table} AND gp.seat = {seat}")
            assert credited == [(f"u:{ids['p02']}", "p02")], credited
            board = await _say(c, "org", "leaderboard", {"season": "Autumn"})
            assert "p02" in board and "sub" not in board, board

    asyncio.run(main())

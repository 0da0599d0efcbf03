"""End to end: users play through slash commands and buttons over real sockets (issue: the bot)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from engine.logs.replay import ReplayReport, replay_record
from engine.logs.tenhou6 import parse_tenhou6
from tests.bot.harness import club, play_out, stored_replay


def test_full_tonpuu_game_two_humans_two_ai(tmp_path: Path, database: str) -> None:
    async def main() -> None:
        # time_scale 10: under Discord's real windows (5 sends or edits per 5 s per channel) the whole
        # game outlasts the click loop below; the same limits, ten times faster
        async with club(tmp_path, time_scale=10, database=database) as c:  # on SQLite and on PostgreSQL
            # Tenhou's own rules, so that the tenhou.net/6 export reads back under the same rules
            await c.slash("alice", "table open", {"length": "tonpuu", "ruleset": "tenhou"})
            await c.slash("bob", "table join", {})
            await c.slash("alice", "table add-ai", {"seats": 2})
            await c.slash("alice", "table start", {})
            await play_out(c, ["alice", "bob"])
            await c.server.wait_for(lambda: any("final standings" in m.content for m in c.server.messages(c.channel_id)), timeout=20)
            t = c.bot.service.tables[1]
            g = t.game
            assert g is not None and g.over
            # each human's hand went only to that human: hand pictures never in the channel, and
            # every DM with a hand names its owner's seat
            for m in c.server.messages(c.channel_id):
                assert all(a.filename != "hand.png" for a in m.attachments), m.content
            for who in ("alice", "bob"):
                seat = t.seat_of(c.users[who].id)
                dms = [m for m in c.server.dms(c.users[who].id) if any(a.filename == "hand.png" for a in m.attachments)]
                assert dms, who
                for m in dms:
                    assert f"Your hand ({who}," in m.content
                other = "bob" if who == "alice" else "alice"
                assert all(f"({other}," not in m.content for m in c.server.visible_to(c.users[who].id))
                assert seat is not None
            # the final scores equal a replay of the stored action log
            row, replay = await stored_replay(c.db)
            assert replay.over and replay.final_scores == g.final_scores
            final = next(m for m in c.server.messages(c.channel_id) if "final standings" in m.content)
            for s in range(4):
                assert f"{t.seats[s].name}: {g.final_scores[s]}" in final.content
            # /table export: a tenhou.net/6 file that replays to the same game
            rec = await c.slash("bob", "table export", {"table": 1})
            msg = next(m for m in c.server.visible_to(c.users["bob"].id) if m.interaction_id == rec.id)
            files = {a.filename: a for a in msg.attachments}
            assert set(files) == {"table-1.json", "table-1.mjai.jsonl", "table-1.jantaku.json"}
            exported = parse_tenhou6(json.loads(files["table-1.json"].data), "table-1.json")
            report = ReplayReport()
            again = replay_record(exported, report)
            assert again is not None and report.ok, report.to_json()
            assert [r.deltas for r in again.results] == [r.deltas for r in g.results]

    asyncio.run(main())

"""Whole games under Discord's limits (issue: Discord's real limits, must-show 1): a riichi hanchan
with four humans and a taiwan16 game. No request is refused (no 429 from a real limit, no error),
and every hand's result and the final standings are posted once each, in order.

The devserver runs Discord's own limits with every window divided by 10 (``time_scale=10``), so
that a hanchan of four clicking humans does not take a quarter of an hour; the numbers of requests
per window are Discord's."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.bot.harness import Club, club, play_out

HUMANS = ("alice", "bob", "carol", "dave")


async def _check_posted_once(c: Club) -> None:
    t = c.bot.service.tables[1]
    g = t.game
    assert g is not None and g.over
    await c.server.wait_for(lambda: any(m.nonce == "jf1" for m in c.server.messages(c.channel_id)), timeout=60)
    posted = [str(m.nonce) for m in c.server.messages(c.channel_id) if str(m.nonce or "").startswith(("jr1.", "jf1"))]
    assert posted == [f"jr1.{i}" for i in range(len(g.results))] + ["jf1"], (posted, len(g.results))
    stats = c.server.request_stats()
    print(stats.summary())
    assert not stats.not_injected, stats.summary()
    assert not c.server.refused, c.server.refused[:5]
    assert not c.server.errors


def test_riichi_hanchan_four_humans_under_discord_limits(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path, names=HUMANS, time_scale=10) as c:
            await c.slash("alice", "table open", {"length": "hanchan"})
            for who in HUMANS[1:]:
                await c.slash(who, "table join", {})
            await c.slash("alice", "table start", {})
            await play_out(c, HUMANS)
            await _check_posted_once(c)
            # every click was answered with the clicker's own new hand (or deferred, then edited
            # through its token): per click, bot-token requests stay below one
            stats = c.server.request_stats()
            clicks = sum(1 for r in c.server.interactions() if r.type == 3)
            assert clicks > 100
            print(f"{clicks} clicks, {stats.global_budget} bot-token requests ({stats.global_budget / clicks:.2f} per click)")
            assert stats.global_budget / clicks < 1.0

    asyncio.run(main())


def test_taiwan16_game_under_discord_limits(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path, time_scale=10) as c:
            await c.slash("alice", "table open", {"ruleset": "taiwan16", "length": "1-round"})
            await c.slash("alice", "table add-ai", {"seats": 3})
            await c.slash("alice", "table start", {})
            await play_out(c, ("alice",))
            await _check_posted_once(c)

    asyncio.run(main())

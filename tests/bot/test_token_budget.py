"""Every request on the bot token waits for its place in the token's 50 per second, not only those the
outbound courier paces: a burst of discord.py's own requests (user fetches, DM channels, as a burst of
slash commands makes) earns no global 429 from the local server, which enforces Discord's limit."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from tests.bot.harness import club


def test_a_burst_of_the_bots_own_requests_keeps_to_the_tokens_budget(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            c.server.reset_stats()
            ids = [u.id for u in c.users.values()]
            started = time.monotonic()
            fetched = await asyncio.gather(*(c.bot.fetch_user(ids[i % len(ids)]) for i in range(120)))
            took = time.monotonic() - started
            stats = c.server.request_stats()
            print(f"120 user fetches in {took:.2f} s; {stats.summary()}")
            assert len(fetched) == 120
            assert stats.global_budget >= 120
            assert not stats.not_injected, stats.summary()
            assert took >= 120 / 50 - 1.0  # they were spread over more than two seconds, not sent at once

    asyncio.run(main())

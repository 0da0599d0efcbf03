"""bot.outbound.pacing.Pacer: Discord counts a request when it arrives, and a request may arrive well
after it passed the pacer (a result picture drawn first, the bot token's pacing, a busy loop).
``Pacer.slot()`` keeps any window of arrivals within the limit; counting from the passes alone
does not (a 429 from the channel's 5 per 5 s was seen in bench/bot_load.py that way)."""

from __future__ import annotations

import asyncio
import random

from bot.outbound.pacing import Pacer


def _most_in_a_window(arrivals: list[float], per: float) -> int:
    arrivals = sorted(arrivals)
    return max(sum(1 for b in arrivals if a <= b < a + per) for a in arrivals)


async def _send_all(pacer: Pacer, delays: list[float], *, slot: bool) -> list[float]:
    """Each request passes the pacer, arrives ``delay`` seconds later and is answered 5 ms after."""
    loop = asyncio.get_running_loop()
    arrivals: list[float] = []

    async def request(delay: float) -> None:
        if slot:
            async with pacer.slot():
                await asyncio.sleep(delay)
                arrivals.append(loop.time())
                await asyncio.sleep(0.005)
        else:
            await pacer()
            await asyncio.sleep(delay)
            arrivals.append(loop.time())

    await asyncio.gather(*(request(d) for d in delays))
    return arrivals


def test_a_late_arrival_does_not_let_one_more_into_the_window() -> None:
    # the first request arrives 0.19 s after it passed; two more pass once the passes' window ends
    delays = [0.19, 0.0, 0.0, 0.0]
    counted_from_passes = asyncio.run(_send_all(Pacer(2, 0.2), delays, slot=False))
    assert _most_in_a_window(counted_from_passes, 0.2) == 3  # what the server would refuse
    held = asyncio.run(_send_all(Pacer(2, 0.2), delays, slot=True))
    assert len(held) == 4 and _most_in_a_window(held, 0.2) <= 2


def test_random_delays_never_overfill_a_window() -> None:
    rng = random.Random(5)
    delays = [rng.choice((0.0, 0.0, 0.01, 0.05, 0.12)) for _ in range(30)]
    arrivals = asyncio.run(_send_all(Pacer(4, 0.25), delays, slot=True))
    assert len(arrivals) == 30 and _most_in_a_window(arrivals, 0.25) <= 4

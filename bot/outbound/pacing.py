"""Pacing of requests within Discord's budgets: :class:`Pacer` (at most N requests in any window of
time: a channel's ~5 per 5 s, the bot token's 50/s) and :class:`Gate` (at most N pieces of work at
once, the most urgent first). It knows nothing of what is sent."""

from __future__ import annotations

import asyncio
import heapq
import math
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress

__all__ = ["Gate", "Pacer"]


class Pacer:
    """At most ``limit`` passes in any ``per`` seconds (a sliding window over the passes' times,
    so a stalled event loop that wakes with many waiters still lets only ``limit`` through).

    ``await pacer()`` counts a request from when it passes. ``async with pacer.slot():`` counts it
    as present while it runs and from when it ends: Discord counts a request when it arrives,
    which may be well after it passed here (a result picture drawn first, the bot token's own
    pacing, a busy loop), and a window counted from the passes alone then lets ``limit + 1``
    arrive in one of Discord's windows. Counted from the end, and while under way, no window of
    arrivals holds more than ``limit``: every earlier request that arrives in a window ends after
    that window began, so it was still counted when the last one passed."""

    def __init__(self, limit: int, per: float = 1.0) -> None:
        self.limit = limit
        self.per = per
        self._passed: list[list[float]] = []  # [time]; math.inf while a slot's request is under way
        self._freed = asyncio.Event()

    async def __call__(self) -> None:
        if self.limit > 0:
            (await self._take())[0] = asyncio.get_running_loop().time()

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        if self.limit <= 0:
            yield
            return
        entry = await self._take()
        try:
            yield
        finally:
            entry[0] = asyncio.get_running_loop().time()
            self._freed.set()

    async def _take(self) -> list[float]:
        loop = asyncio.get_running_loop()
        while True:
            now = loop.time()
            self._passed = [e for e in self._passed if now - e[0] < self.per]
            if len(self._passed) < self.limit:
                entry = [math.inf]
                self._passed.append(entry)
                return entry
            ended = [e[0] for e in self._passed if e[0] != math.inf]
            wait = self.per - (now - min(ended)) + 0.001 if ended else self.per
            self._freed.clear()
            with suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._freed.wait(), wait)


class Gate:
    """At most ``limit`` holders at once; waiters get in by deadline: the time they came plus their
    ``delay`` (seconds a later, more urgent waiter may go before them), so a hand (delay 0) goes
    before a table picture (delay 1) that came less than a second earlier, yet a steady stream of
    hands never starves the table pictures.

    The outbound work (pictures, message edits and the fake or real Discord's answers to them)
    shares the event loop with reading interactions off the gateway and acknowledging them. Left
    unbounded under load, hundreds of updates run at once and every acknowledgement waits behind
    them; through the gate the updates queue here instead, where waiting costs nothing.
    """

    def __init__(self, limit: int, settled: Callable[[], Awaitable[None]] | None = None) -> None:
        self.limit = limit
        self.settled = settled  # awaited first: interactions waiting for a first answer go before
        self.active = 0
        self._waiting: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = 0

    async def __call__(self, delay: float) -> None:
        """Wait for a place (pair with :meth:`leave`)."""
        if self.settled is not None:
            await self.settled()
        if self.limit <= 0 or (self.active < self.limit and not self._waiting):
            self.active += 1
            return
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._seq += 1
        heapq.heappush(self._waiting, (loop.time() + delay, self._seq, fut))
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():  # the place was already handed over
                self.leave()
            raise

    def leave(self) -> None:
        self.active -= 1
        while self._waiting and self.active < max(1, self.limit):
            fut = heapq.heappop(self._waiting)[2]
            if not fut.done():
                self.active += 1
                fut.set_result(None)


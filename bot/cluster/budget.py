"""The bot token's global budget (Discord: 50 requests/s per token) shared by every process.

:class:`TokenBudget` keeps one Redis sorted set per token, keyed by the token's SHA-256 (the token
itself is never written): one entry per request of the last window, scored by Redis's clock. An
atomic Lua script drops the entries that left the window and admits a request only while fewer
than ``limit`` remain, so admissions by every process together never exceed ``limit`` in any
window. ``await budget()`` counts a request from when it is admitted; ``async with
budget.slot():`` counts it while it is under way (a lease, ``lease`` seconds at most, in case the
process dies) and for a window after it ends: Discord counts a request when it arrives, which may
be later than its admission, and counted from its end no window of arrivals holds more than
``limit`` (the argument of the outbound pacer's slots). :func:`guard_http` makes every request of
discord.py's HTTP client take a slot, except the interaction routes Discord does not count.

When Redis does not answer (refused, or slower than the client's timeout), the process keeps to
``share`` requests per window on its own, logs that once, and tries Redis again every
``retry_after`` seconds (logging once more when it is back). Limits: the window is Redis's clock
while Redis answers and the process's while it does not; a process that falls back while the
others still reach Redis may, with them, exceed the limit by up to its share.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import logging
import os
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger(__name__)

# KEYS[1] the token's set; ARGV: limit, window (µs), member, lease (µs; 0 = counted from now)
# -> {0, now} admitted, or {µs to wait, now}
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  local lease = tonumber(ARGV[4])
  redis.call('ZADD', KEYS[1], now + lease, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], math.ceil((window + lease) / 1000) + 1000)
  return {0, now}
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {math.max(1, tonumber(first[2]) + window - now), now}
"""
# KEYS[1] the token's set; ARGV[1] member: the request ended now (only if still counted)
_END = """
local t = redis.call('TIME')
redis.call('ZADD', KEYS[1], 'XX', tonumber(t[1]) * 1000000 + tonumber(t[2]), ARGV[1])
return 1
"""

#: waiting for a place, never sleep longer than this before asking again (a slot under way may end)
MAX_WAIT = 0.05
_UNREACHABLE = (RedisError, OSError, asyncio.TimeoutError)


def token_key(prefix: str, token: str) -> str:
    """The token's budget key: its hash, never the token."""
    return f"{prefix}budget:{hashlib.sha256(token.encode()).hexdigest()[:24]}"


class _Local:
    """The same window in this process alone (Redis away): at most ``limit`` entries."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._entries: list[list[float]] = []  # [when it stops counting - window]

    def take(self, lease: float) -> float:
        """0 if admitted (an entry made), else seconds to wait."""
        now = time.monotonic()
        self._entries = [e for e in self._entries if e[0] > now - self.window]
        if len(self._entries) < self.limit:
            self._entries.append([now + lease])
            return 0.0
        return max(0.001, min(e[0] for e in self._entries) + self.window - now)

    def newest(self) -> list[float]:
        return self._entries[-1]


class TokenBudget:
    """At most ``limit`` bot-token requests per ``window`` over every process sharing ``redis``
    (None: this process alone, at ``share``)."""

    def __init__(
        self,
        redis: Redis | None,
        token: str,
        *,
        limit: int = 48,
        share: int = 48,
        window: float = 1.0,
        lease: float = 10.0,
        prefix: str = "jantaku:",
        retry_after: float = 5.0,
    ) -> None:
        self.redis = redis
        self.key = token_key(prefix, token)
        self.limit = limit
        self.window = window
        self.lease = lease
        self.retry_after = retry_after
        self._local = _Local(share, window)
        self._take = redis.register_script(_TAKE) if redis is not None else None
        self._end = redis.register_script(_END) if redis is not None else None
        self._me = f"{os.getpid()}.{secrets.token_hex(4)}"
        self._seq = itertools.count()
        self._away_until = 0.0  # monotonic time before which Redis is not asked
        self.outages = 0  # times Redis was found away (each logged once)

    @property
    def share(self) -> int:
        return self._local.limit

    @property
    def shared(self) -> bool:
        """Whether the budget is kept in Redis right now."""
        return self.redis is not None and time.monotonic() >= self._away_until

    async def __call__(self) -> None:
        await self.acquire()

    async def acquire(self) -> float:
        """Wait for a place; the request counts from now. Returns when it was admitted: epoch
        seconds by Redis's clock (by this process's while Redis is away)."""
        at, _ = await self._admit(0.0)
        return at

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[float]:
        """A place held while the request is under way and counted for a window after it ends."""
        at, member = await self._admit(self.lease)
        try:
            yield at
        finally:
            await self._ended(member)

    async def _admit(self, lease: float) -> tuple[float, str | list[float]]:
        while True:
            if self.shared:
                member = f"{self._me}.{next(self._seq)}"
                try:
                    assert self._take is not None
                    wait_us, now_us = await self._take(keys=[self.key], args=[self.limit, int(self.window * 1e6), member, int(lease * 1e6)])
                except _UNREACHABLE as e:
                    self._away(e)
                    continue
                if self.outages and self._away_until:
                    log.warning("the bot token's shared budget answers again: requests are counted across processes")
                    self._away_until = 0.0
                if int(wait_us) == 0:
                    return int(now_us) / 1e6, member
                await asyncio.sleep(min(int(wait_us) / 1e6, MAX_WAIT))
                continue
            wait = self._local.take(lease)
            if wait == 0.0:
                return time.time(), self._local.newest()
            await asyncio.sleep(min(wait, MAX_WAIT, max(0.001, self._away_until - time.monotonic())))

    def _away(self, e: BaseException) -> None:
        if not self._away_until:
            self.outages += 1
            log.warning(
                "the bot token's shared budget (Redis) does not answer (%s): this process keeps to %d requests/s until it does",
                type(e).__name__,
                self._local.limit,
            )
        self._away_until = time.monotonic() + self.retry_after

    async def _ended(self, member: str | list[float]) -> None:
        if isinstance(member, list):  # counted here: from now on, for a window
            member[0] = time.monotonic()
            return
        if not self.shared:
            return  # its lease runs out in Redis
        try:
            assert self._end is not None
            await self._end(keys=[self.key], args=[member])
        except _UNREACHABLE as e:
            self._away(e)


def exempt(path: str) -> bool:
    """Routes Discord does not count against the token's global limit: the interaction callback
    (its webhook routes go through discord.py's webhook adapter, not this client)."""
    return path.startswith("/interactions/")


def guard_http(http: Any, budget: TokenBudget) -> None:
    """Make every request of a discord.py ``HTTPClient`` (``bot.http``) wait for a slot of
    ``budget`` first, interaction callbacks excepted."""
    send = http.request

    async def request(route: Any, **kwargs: Any) -> Any:
        if exempt(str(getattr(route, "path", ""))):
            return await send(route, **kwargs)
        async with budget.slot():
            return await send(route, **kwargs)

    http.request = request

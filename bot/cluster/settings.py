"""The cluster's settings, read once from the environment, and the Redis client they open.

``JANTAKU_REDIS_URL`` (or ``REDIS_URL``; the first wins): where the processes of one bot meet;
unset, the bot runs as one process and needs no Redis. ``JANTAKU_REDIS_PREFIX``: the start of
every key and channel (default ``jantaku:``; two bots on one Redis need two prefixes).
``JANTAKU_TOKEN_BUDGET``: bot-token requests per second for all processes together (default 48 of
Discord's 50). ``JANTAKU_TOKEN_SHARE``: this process's requests per second while Redis does not
answer (default: its shards' part of the budget, 50/N for N processes of equal shard ranges).
``JANTAKU_FORWARD_PATIENCE``: seconds a process waits for a table's owner to take a forwarded
click before answering it itself (default 1.0; Discord allows 3).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from redis.asyncio import Redis

DEFAULT_BUDGET = 48
DISCORD_GLOBAL = 50  # requests per second per bot token (Discord's global limit)
DEFAULT_PATIENCE = 1.0
#: a Redis call that takes longer is treated as Redis being away (the budget falls back to its share)
REDIS_TIMEOUT = 0.5


class ClusterError(ValueError):
    """A cluster setting that cannot be used; the message is one plain sentence."""


@dataclass(frozen=True, slots=True)
class ClusterSettings:
    redis_url: str | None = None
    prefix: str = "jantaku:"
    budget: int = DEFAULT_BUDGET
    share: int | None = None
    patience: float = DEFAULT_PATIENCE

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ClusterSettings:
        env = os.environ if env is None else env
        url = (env.get("JANTAKU_REDIS_URL") or env.get("REDIS_URL") or "").strip() or None
        if url is not None and not url.startswith(("redis://", "rediss://", "unix://")):
            raise ClusterError(f"JANTAKU_REDIS_URL must be a redis:// address (redis://127.0.0.1:6379/0), not {url!r}")
        budget = _whole(env, "JANTAKU_TOKEN_BUDGET", DEFAULT_BUDGET)
        if not 1 <= budget <= DISCORD_GLOBAL:
            raise ClusterError(f"JANTAKU_TOKEN_BUDGET must be between 1 and {DISCORD_GLOBAL} requests per second, not {budget}")
        share = _whole(env, "JANTAKU_TOKEN_SHARE", 0) or None
        if share is not None and share > budget:
            raise ClusterError(f"JANTAKU_TOKEN_SHARE ({share}) cannot be more than JANTAKU_TOKEN_BUDGET ({budget})")
        raw = (env.get("JANTAKU_FORWARD_PATIENCE") or "").strip() or str(DEFAULT_PATIENCE)
        try:
            patience = float(raw)
        except ValueError:
            raise ClusterError(f"JANTAKU_FORWARD_PATIENCE must be a number of seconds, not {raw!r}") from None
        if not 0.1 <= patience <= 2.0:
            raise ClusterError(f"JANTAKU_FORWARD_PATIENCE must be between 0.1 and 2 seconds (Discord waits 3), not {raw}")
        prefix = (env.get("JANTAKU_REDIS_PREFIX") or "jantaku:").strip() or "jantaku:"
        return cls(redis_url=url, prefix=prefix, budget=budget, share=share, patience=patience)

    def share_of(self, shards_here: int, shard_count: int) -> int:
        """This process's requests per second while Redis is away: the setting, else its shards'
        part of the budget (at least 1)."""
        if self.share is not None:
            return self.share
        return max(1, self.budget * max(1, shards_here) // max(1, shard_count))


def _whole(env: Mapping[str, str], name: str, default: int) -> int:
    raw = (env.get(name) or "").strip()
    if not raw:
        return default
    if not raw.isdigit():
        raise ClusterError(f"{name} must be a whole number, not {raw!r}")
    return int(raw)


#: connections to Redis per process; more callers at once queue for one (each call is bounded by
#: :data:`REDIS_TIMEOUT`, so the queue moves) rather than fail as if Redis were away
CONNECTIONS = 16


def connect(url: str) -> Redis:
    """An asyncio Redis client whose calls give up after :data:`REDIS_TIMEOUT` (a Redis that does not
    answer must not hold a click or a request up; the callers fall back). A burst of callers waits
    for one of :data:`CONNECTIONS` connections."""
    from redis.asyncio import BlockingConnectionPool, Redis

    pool = BlockingConnectionPool.from_url(
        url, max_connections=CONNECTIONS, timeout=None, socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT
    )
    return Redis.from_pool(pool)

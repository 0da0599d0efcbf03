"""This process's place in the cluster, made in one call: :class:`Node`.

``node = Node.open(settings, token)`` opens Redis (none when ``JANTAKU_REDIS_URL`` is unset: one
process, claims in memory, the budget this process's alone); ``await node.attach(client,
guild_of)`` once the client exists and before it connects: the ownership from the client's
``shard_count``/``shard_ids``, the router in front of its interaction parser, the forwarder
listening on its shards (when there is Redis and more than one process) and every bot-token
request of ``client.http`` taking a slot of the shared budget. ``node.claims`` is for once-only
posts; ``node.owns(guild_id)`` for the clocks and the restore; ``await node.close()`` at the end.

Limits: with ``JANTAKU_SHARDS=auto`` the shard count is Discord's, known once connected; such a
process holds every shard, so it owns everything and forwards nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from bot.cluster.budget import TokenBudget, guard_http
from bot.cluster.forward import Forwarder
from bot.cluster.once import Claims
from bot.cluster.ownership import Ownership, TableGuilds
from bot.cluster.route import Router, install
from bot.cluster.settings import ClusterSettings, connect

if TYPE_CHECKING:
    from redis.asyncio import Redis


class Node:
    def __init__(self, settings: ClusterSettings, token: str, redis: Redis | None) -> None:
        self.settings = settings
        self.token = token
        self.redis = redis
        self.ownership = Ownership.of(None, None)
        self.claims = Claims(redis, prefix=settings.prefix)
        self.budget: TokenBudget | None = None
        self.forwarder: Forwarder | None = None
        self.router: Router | None = None
        self.guilds: TableGuilds | None = None

    @classmethod
    def open(cls, settings: ClusterSettings, token: str) -> Node:
        return cls(settings, token, connect(settings.redis_url) if settings.redis_url else None)

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process acts for a table of ``guild_id`` (a table without one: yes)."""
        return guild_id is None or self.ownership.owns(guild_id)

    async def attach(self, client: Any, guild_of: Callable[[int], Awaitable[int | None]]) -> None:
        """Wire the client (see the module's docstring); ``guild_of`` reads a table's guild."""
        count = getattr(client, "shard_count", None)
        ids = getattr(client, "shard_ids", None)
        self.ownership = Ownership.of(count, ids)
        s = self.settings
        share = s.share_of(len(self.ownership.shard_ids), self.ownership.shard_count)
        self.budget = TokenBudget(self.redis, self.token, limit=s.budget, share=share if self.redis is not None else s.budget, prefix=s.prefix)
        guard_http(client.http, self.budget)
        self.guilds = TableGuilds(guild_of)
        if self.redis is not None and not self.ownership.everything:
            self.forwarder = Forwarder(self.redis, self.ownership, prefix=s.prefix, patience=s.patience)
        self.router = install(client._connection, self.ownership, self.guilds, self.forwarder)
        if self.forwarder is not None:
            await self.forwarder.start()

    async def close(self) -> None:
        if self.forwarder is not None:
            await self.forwarder.stop()
        if self.redis is not None:
            await self.redis.aclose()

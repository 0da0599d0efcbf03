"""Where an arriving interaction is run: here, or forwarded to its table's owner.

:func:`install` puts a router in front of discord.py's ``INTERACTION_CREATE`` parser (the
``parsers`` table of the client's connection state, which the gateway calls for each event).
Interactions in a guild are run here: Discord sent them to the guild's shard, which this process
holds. A component without a guild (a DM: a hand message's button) whose ``custom_id`` names a
table (:func:`bot.cluster.ownership.table_of`) goes to the table's owner when that is another
process (:class:`bot.cluster.forward.Forwarder`); everything else is run here. The forwarder's
owner side runs what it takes through the original parser (:func:`install` returns it).

Limits: the table's guild is looked up (once per table; :class:`TableGuilds`) before such a DM
click is parsed, so a click for a table not yet known here waits for that read.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from bot.cluster.forward import Forwarder
from bot.cluster.ownership import Ownership, TableGuilds, table_of

log = logging.getLogger(__name__)

Parser = Callable[[dict[str, Any]], None]


class Router:
    def __init__(self, parse: Parser, ownership: Ownership, guilds: TableGuilds, forwarder: Forwarder | None) -> None:
        self.parse = parse
        self.ownership = ownership
        self.guilds = guilds
        self.forwarder = forwarder
        self._tasks: set[asyncio.Task[None]] = set()

    def __call__(self, payload: dict[str, Any]) -> None:
        table = self._table(payload)
        if table is None or self.forwarder is None or self.ownership.everything:
            self.parse(payload)
            return
        gid = self.guilds.known(table)
        if gid is not None and self.ownership.owns(gid):
            self.parse(payload)
            return
        task = asyncio.create_task(self._route(payload, table), name="jantaku-cluster-route")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    def _table(payload: dict[str, Any]) -> int | None:
        """The table of a DM component click; None for anything run where it arrived."""
        if payload.get("type") != 3 or payload.get("guild_id") is not None:
            return None
        return table_of(str((payload.get("data") or {}).get("custom_id", "")))

    async def _route(self, payload: dict[str, Any], table: int) -> None:
        try:
            gid = await self.guilds.guild_of(table)
        except Exception:
            log.exception("cluster: the guild of table %s could not be read; the click is run here", table)
            gid = None
        if gid is None or self.ownership.owns(gid) or self.forwarder is None:
            self.parse(payload)  # unknown here too: the click path refuses it in one sentence
            return
        await self.forwarder.forward(payload, table, gid)


def install(connection: Any, ownership: Ownership, guilds: TableGuilds, forwarder: Forwarder | None) -> Router:
    """Route ``connection``'s (``client._connection``) interactions; returns the router, whose
    ``parse`` is discord.py's own parser (the forwarder's ``handle`` unless it has one)."""
    parsers: dict[str, Parser] = connection.parsers
    current = parsers["INTERACTION_CREATE"]
    original = current.parse if isinstance(current, Router) else current
    router = Router(original, ownership, guilds, forwarder)
    if forwarder is not None and forwarder.handle is None:
        forwarder.handle = original
    parsers["INTERACTION_CREATE"] = router
    return router

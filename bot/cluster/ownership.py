"""Which process acts for a table: the one holding its guild's shard.

Discord sends a guild's events to shard ``(guild_id >> 22) % shard_count`` and DMs to shard 0
(bot/shards.py). A process owns the guilds whose shard it holds (:class:`Ownership`); a table's
guild never changes, so :class:`TableGuilds` keeps each one once read. :func:`table_of` reads the
table out of a button's ``custom_id`` (``mj:<table>:…``, ``mjr:``, ``mjw:``, ``mjh:``).

Limits: a process started with ``JANTAKU_SHARDS=auto`` knows its shard count only once connected
(``Ownership.of(bot.shard_count, bot.shard_ids)`` then); before that it owns everything, as one
process does.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

_TABLE_BUTTON = re.compile(r"mj[a-z]?:(\d+)(?::|$)")


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives ``guild_id``'s events (Discord's formula)."""
    return (guild_id >> 22) % shard_count


def table_of(custom_id: str) -> int | None:
    """The table a table button acts on, or None for any other component."""
    m = _TABLE_BUTTON.match(custom_id)
    return int(m[1]) if m else None


@dataclass(frozen=True, slots=True)
class Ownership:
    """The shards of this process among ``shard_count``."""

    shard_count: int
    shard_ids: frozenset[int]

    @classmethod
    def of(cls, shard_count: int | None, shard_ids: Iterable[int] | None) -> Ownership:
        """From discord.py's ``shard_count``/``shard_ids`` (None: one unsharded process, or every shard)."""
        count = shard_count or 1
        ids = frozenset(range(count) if shard_ids is None else shard_ids)
        if not ids or any(not 0 <= s < count for s in ids):
            raise ValueError(f"shards {sorted(ids)} are not shards of a total of {count}")
        return cls(count, ids)

    def owner(self, guild_id: int) -> int:
        """The shard whose process acts for ``guild_id``'s tables."""
        return shard_of(guild_id, self.shard_count)

    def owns(self, guild_id: int) -> bool:
        return self.owner(guild_id) in self.shard_ids

    @property
    def receives_dms(self) -> bool:
        """Whether DMs (hand-message clicks of every guild) arrive here: shard 0 is held."""
        return 0 in self.shard_ids

    @property
    def everything(self) -> bool:
        """One process holding every shard: nothing is ever forwarded."""
        return len(self.shard_ids) == self.shard_count


class TableGuilds:
    """table id → guild id, read once through ``lookup`` (the tables' rows) and kept: a table
    never moves to another guild. ``lookup`` returns None for a table it does not know."""

    def __init__(self, lookup: Callable[[int], Awaitable[int | None]]) -> None:
        self._lookup = lookup
        self._known: dict[int, int] = {}

    def note(self, table_id: int, guild_id: int) -> None:
        """A table this process opened or restored: no look-up needed later."""
        self._known[table_id] = guild_id

    def known(self, table_id: int) -> int | None:
        return self._known.get(table_id)

    async def guild_of(self, table_id: int) -> int | None:
        gid = self._known.get(table_id)
        if gid is None:
            gid = await self._lookup(table_id)
            if gid is not None:
                self._known[table_id] = gid
        return gid

"""``JANTAKU_SHARDS``: which of Discord's gateway shards this process holds.

Discord sends a guild's events only to shard ``(guild_id >> 22) % shard_count`` and DMs (hand
messages and their buttons included) only to shard 0; a session may hold at most 2,500 guilds, past
which the gateway closes with 4011 "Sharding required". The setting:

- unset or ``1``: one unsharded connection, as before;
- ``auto``: as many shards as Discord recommends (``GET /gateway/bot``), all in this process;
- ``N``: shards 0..N-1 of N, all in this process;
- ``a-b/T`` (or ``a/T``): shards a..b of T in this process, the rest in other processes.

More than one shard runs on discord.py's ``AutoShardedBot`` (``client.py``). This module only reads
the setting and words its refusals; it imports nothing of the bot.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_RANGE = re.compile(r"(\d+)(?:-(\d+))?/(\d+)")


class ShardsError(ValueError):
    """A ``JANTAKU_SHARDS`` value that cannot be used; the message is one plain sentence."""


@dataclass(frozen=True, slots=True)
class ShardPlan:
    """The shards of this process: ``count`` None is Discord's recommended count (``auto``);
    ``ids`` None is every shard of ``count``."""

    count: int | None
    ids: tuple[int, ...] | None = None

    def client_options(self) -> dict[str, object]:
        """``shard_count`` / ``shard_ids`` for discord.py's ``AutoShardedBot``."""
        return {"shard_count": self.count, "shard_ids": list(self.ids) if self.ids is not None else None}

    def describe(self) -> str:
        if self.count is None:
            return "Discord's recommended number of shards"
        if self.ids is None:
            return f"all {self.count} shards"
        first, last = self.ids[0], self.ids[-1]
        return f"shard {first} of {self.count}" if first == last else f"shards {first}-{last} of {self.count}"


def parse_shards(value: str | None) -> ShardPlan | None:
    """The plan for ``JANTAKU_SHARDS``; None for one unsharded connection (unset, empty, ``1``)."""
    text = (value or "").strip().lower()
    if text in ("", "1", "0-0/1", "0/1"):
        return None
    if text == "auto":
        return ShardPlan(None)
    if text.isdigit():
        count = int(text)
        if count < 1:
            raise ShardsError("JANTAKU_SHARDS must be at least 1 shard, not 0")
        return ShardPlan(count)
    m = _RANGE.fullmatch(text)
    if m is None:
        raise ShardsError(
            f"JANTAKU_SHARDS must be auto, a number of shards (4) or a range of a total (0-3/8), not {value!r}"
        )
    first, last, total = int(m[1]), int(m[2] if m[2] is not None else m[1]), int(m[3])
    if total < 1 or not first <= last < total:
        raise ShardsError(
            f"JANTAKU_SHARDS {value!r} names shards {first}-{last}, but the shards of a total of {total} are 0-{max(total - 1, 0)}"
        )
    return ShardPlan(total, tuple(range(first, last + 1)))


def sharding_required(plan: ShardPlan | None) -> str:
    """What to tell the owner when Discord closes the gateway with 4011 (too many guilds for a session)."""
    if plan is None:
        return (
            "Jantaku cannot start: Discord requires sharding for a bot in this many servers (close code 4011); "
            "set JANTAKU_SHARDS=auto in .env."
        )
    advice = "a number of shards larger than Discord recommends" if plan.count is None else "auto, or a larger total,"
    return (
        f"Jantaku cannot start: Discord says a shard would hold too many servers with {plan.describe()} "
        f"(close code 4011); set JANTAKU_SHARDS to {advice} in .env."
    )

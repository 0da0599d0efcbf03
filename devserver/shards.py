"""Discord's sharding rules, for the local server: which session an event goes to, the shard count
``GET /gateway/bot`` recommends, and the limits on IDENTIFY.

The rules, from Discord's gateway docs ("Sharding", "Identifying", "Session Start Limit Object"):

- a session identifies with ``shard: [shard_id, num_shards]`` (none: ``[0, 1]``); a guild's events go
  only to the sessions whose ``shard_id`` is ``(guild_id >> 22) % num_shards``, and events without a
  ``guild_id`` (DMs, interactions in DMs) only to ``shard_id`` 0. Several sessions may hold the same
  shard, and sessions may use different ``num_shards``: each is routed by its own pair;
- a session that would hold more guilds than ``max_guilds_per_session`` (Discord: 2,500) is closed
  with 4011 "Sharding required"; a shard pair out of range is closed with 4010 "Invalid shard";
- at most one IDENTIFY per 5 s per bucket ``shard_id % max_concurrency``; one more is answered with
  op 9 Invalid Session (``d: false``), and it does not start a session;
- a daily budget of session starts (``total``, 1,000 by default; RESUMEs are free). Discord's answer
  to an IDENTIFY past it: every session of the app ends and the token is reset, so this server closes
  every connection with 4004 and answers 401 to the old token until ``reset_session_starts()``.

Limits: the 5 s window divides by the server's ``time_scale`` and runs on its clock (``advance()``
moves it), as the other rate-limit windows do; the daily budget runs on the same clock, unscaled.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

#: Discord closes a session that would hold more guilds than this with 4011 "Sharding required"
MAX_GUILDS_PER_SESSION = 2500
#: ``GET /gateway/bot``'s ``shards``: about one per this many guilds (Discord's recommendation)
GUILDS_PER_SHARD = 1000
#: the window of the IDENTIFY limit: ``max_concurrency`` buckets, one IDENTIFY each per window
IDENTIFY_WINDOW = 5.0
#: session starts a day (``session_start_limit.total``), and the day's length
SESSION_STARTS = 1000
DAY = 86400.0


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives ``guild_id``'s events (Discord's sharding formula)."""
    return (guild_id >> 22) % shard_count


def valid_shard(shard: Any) -> bool:
    """Whether an IDENTIFY's ``shard`` field is a usable ``[shard_id, num_shards]`` (or absent)."""
    if shard is None:
        return True
    if not isinstance(shard, (list, tuple)) or len(shard) != 2 or not all(type(n) is int for n in shard):
        return False
    shard_id, count = shard
    return count >= 1 and 0 <= shard_id < count


def receives(shard: list[int] | None, guild_id: int | None) -> bool:
    """Whether a session identified with ``shard`` gets an event of ``guild_id`` (None: an event
    without a guild, which only shard 0 gets)."""
    shard_id, count = shard if shard is not None else (0, 1)
    if guild_id is None:
        return shard_id == 0
    return shard_of(guild_id, count) == shard_id


class Sharding:
    """The server's sharding settings (a test may change any attribute) and its IDENTIFY budget."""

    def __init__(
        self,
        monotonic: Callable[[], float],
        time_scale: float = 1.0,
        *,
        guilds_per_shard: int = GUILDS_PER_SHARD,
        max_guilds_per_session: int = MAX_GUILDS_PER_SESSION,
        session_starts: int = SESSION_STARTS,
        max_concurrency: int = 1,
    ) -> None:
        self._monotonic = monotonic
        self.time_scale = time_scale
        self.guilds_per_shard = guilds_per_shard
        self.max_guilds_per_session = max_guilds_per_session
        self.max_concurrency = max_concurrency
        #: GET /gateway/bot's ``shards`` when set; else one per ``guilds_per_shard`` guilds
        self.recommended: int | None = None
        self.total = session_starts
        self.remaining = session_starts
        self.token_reset = False  # the budget ran out: the old token is refused
        self._day_ends: float | None = None  # when ``remaining`` refills (clock time)
        self._last_identify: dict[int, float] = {}  # bucket -> clock time of its last accepted IDENTIFY
        self.paced = 0  # IDENTIFYs answered with op 9 for coming too fast

    def recommended_shards(self, guilds: int) -> int:
        if self.recommended is not None:
            return self.recommended
        return max(1, math.ceil(guilds / self.guilds_per_shard))

    def _refill(self) -> None:
        if self._day_ends is not None and self._monotonic() >= self._day_ends:
            self.remaining, self._day_ends = self.total, None

    def start_limit(self) -> dict[str, int]:
        """``session_start_limit`` as ``GET /gateway/bot`` returns it (``reset_after`` in ms)."""
        self._refill()
        left = DAY if self._day_ends is None else max(0.0, self._day_ends - self._monotonic())
        return {
            "total": self.total,
            "remaining": self.remaining,
            "reset_after": int(left * 1000),
            "max_concurrency": self.max_concurrency,
        }

    def identify(self, shard_id: int) -> str:
        """Spend an IDENTIFY of ``shard_id``: ``"ok"``, ``"too fast"`` (its bucket identified less than
        5 s ago: op 9, nothing spent) or ``"exhausted"`` (no session start left today)."""
        self._refill()
        if self.token_reset or self.remaining <= 0:
            self.token_reset = True
            return "exhausted"
        now = self._monotonic()
        bucket = shard_id % max(1, self.max_concurrency)
        last = self._last_identify.get(bucket)
        if last is not None and now - last < IDENTIFY_WINDOW / self.time_scale:
            self.paced += 1
            return "too fast"
        self._last_identify[bucket] = now
        self.remaining -= 1
        if self._day_ends is None:
            self._day_ends = now + DAY
        return "ok"

    def reset_session_starts(self) -> None:
        """A new day (and, after a reset token, the new token): the full budget again."""
        self.remaining, self._day_ends, self.token_reset = self.total, None, False
        self._last_identify.clear()

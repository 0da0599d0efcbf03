"""Once-only work across processes: a hand's result, the final standings, a clock's move.

``await claims.claim(key)`` is True for exactly one process (``SET NX PX``: the first one, for
``lease`` seconds; the same process asking again keeps it). The holder does the work, then marks
it :meth:`Claims.done` (kept for ``keep`` seconds, a week by default, so a process that takes the
table over later skips it) or, when the work failed, :meth:`Claims.release` lets the next try
have it. A holder that dies leaves its lease to run out, after which another process may claim.

Keys: :func:`result_key`, :func:`final_key`, :func:`clock_key`, :func:`round_key` (and :func:`answer_key` for a
forwarded click, see :mod:`.forward`). With ``redis`` None (one process) claims are kept in
memory. Limits: a holder that dies between doing the work and marking it done leaves it to be
done again once its lease runs out (a post carries Discord's ``enforce_nonce`` for that); when
Redis does not answer, :meth:`Claims.claim` raises :class:`ClaimsAway` and the caller tries later:
nothing is posted twice for want of Redis, it is posted late.
"""

from __future__ import annotations

import os
import secrets
from typing import TYPE_CHECKING

from redis.exceptions import RedisError

if TYPE_CHECKING:
    from redis.asyncio import Redis

DONE = "done:"
WEEK = 7 * 86400.0

# KEYS[1]; ARGV: me, lease (ms) -> 1 ours (new or already ours), 0 another's, 2 done
_CLAIM = """
local v = redis.call('GET', KEYS[1])
if not v then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if v == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if string.sub(v, 1, 5) == 'done:' then return 2 end
return 0
"""
# KEYS[1]; ARGV: me, value to set ('' = delete), ttl (ms) -> 1 if it was ours
_SETTLE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
return 1
"""


class ClaimsAway(Exception):
    """Redis did not answer: nobody can say whether another process holds the claim."""


def result_key(table_id: int, hand_index: int) -> str:
    return f"table:{table_id}:result:{hand_index}"


def final_key(table_id: int) -> str:
    return f"table:{table_id}:final"


def clock_key(table_id: int, serial: int) -> str:
    """A turn clock's move for the decision ``serial`` of a table."""
    return f"table:{table_id}:clock:{serial}"


def round_key(league_id: int, number: int) -> str:
    """A league round's closing (its end-of-round post), done once whichever process sees the deadline."""
    return f"league:{league_id}:round:{number}"


def answer_key(interaction_id: int) -> str:
    """Who answers an interaction: its table's owner or the process that received it."""
    return f"answer:{interaction_id}"


class Claims:
    def __init__(self, redis: Redis | None, *, prefix: str = "jantaku:", me: str | None = None) -> None:
        self.redis = redis
        self.prefix = prefix
        self.me = me or f"{os.getpid()}.{secrets.token_hex(4)}"
        self._claim = redis.register_script(_CLAIM) if redis is not None else None
        self._settle = redis.register_script(_SETTLE) if redis is not None else None
        self._memory: dict[str, str] = {}  # one process: key -> holder or done

    async def claim(self, key: str, *, lease: float = 30.0) -> bool:
        """Whether this process is the one to do ``key`` (False: another holds it, or it is done)."""
        if self._claim is None:
            held = self._memory.setdefault(key, self.me)
            return held == self.me
        try:
            got = await self._claim(keys=[self.prefix + key], args=[self.me, int(lease * 1000)])
        except (RedisError, OSError) as e:
            raise ClaimsAway(f"Redis did not answer ({type(e).__name__})") from e
        return int(got) == 1

    async def done(self, key: str, *, keep: float = WEEK) -> bool:
        """Mark the work done (True if the claim was still ours)."""
        return await self._settled(key, DONE + self.me, keep)

    async def release(self, key: str) -> bool:
        """Give the claim up, the work not done (True if it was ours)."""
        return await self._settled(key, "", 0.0)

    async def is_done(self, key: str) -> bool:
        if self.redis is None:
            return self._memory.get(key, "").startswith(DONE)
        try:
            v = await self.redis.get(self.prefix + key)
        except (RedisError, OSError) as e:
            raise ClaimsAway(f"Redis did not answer ({type(e).__name__})") from e
        text = v.decode() if isinstance(v, bytes) else v
        return text is not None and str(text).startswith(DONE)

    async def _settled(self, key: str, value: str, keep: float) -> bool:
        if self._settle is None:
            if self._memory.get(key) != self.me:
                return False
            if value:
                self._memory[key] = value
            else:
                del self._memory[key]
            return True
        try:
            got = await self._settle(keys=[self.prefix + key], args=[self.me, value, max(1, int(keep * 1000))])
        except (RedisError, OSError) as e:
            raise ClaimsAway(f"Redis did not answer ({type(e).__name__})") from e
        return int(got) == 1

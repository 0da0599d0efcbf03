"""The real Redis the cluster tests use (127.0.0.1:6379, or JANTAKU_REDIS_URL / REDIS_URL), under a
random key prefix deleted afterwards. Without a Redis that answers the tests are skipped with one
line, or fail when JANTAKU_REQUIRE_POSTGRES=1 (as CI sets: its machines run Redis too)."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Iterator

import pytest

URL = (os.environ.get("JANTAKU_REDIS_URL") or os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0").strip()


def _answers() -> str | None:
    """None if Redis answers PING, else why not."""
    import redis

    try:
        client = redis.Redis.from_url(URL, socket_timeout=1.0, socket_connect_timeout=1.0)
        try:
            client.ping()
        finally:
            client.close()
    except (redis.RedisError, OSError) as e:
        return f"no Redis answers at {URL} ({type(e).__name__})"
    return None


def require_redis() -> None:
    why = _answers()
    if why is None:
        return
    if os.environ.get("JANTAKU_REQUIRE_POSTGRES") == "1":
        pytest.fail(why + " and JANTAKU_REQUIRE_POSTGRES=1")
    pytest.skip(why)


async def drop(prefix: str) -> int:
    """Delete every key under ``prefix``; how many there were."""
    from redis.asyncio import Redis

    client = Redis.from_url(URL)
    try:
        keys = [k async for k in client.scan_iter(match=prefix + "*", count=500)]
        if keys:
            await client.delete(*keys)
        return len(keys)
    finally:
        await client.aclose()


def fresh_prefix() -> Iterator[str]:
    """A fresh key prefix on the real Redis, its keys deleted after the test (a test module's
    fixture yields from it)."""
    require_redis()
    prefix = f"jantaku-test-{secrets.token_hex(6)}:"
    yield prefix
    asyncio.run(drop(prefix))

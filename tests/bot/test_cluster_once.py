"""Once-only claims on the real Redis: two processes racing for the same results each win a disjoint
part and together all of them; done work is never claimed again; a released or expired claim is."""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import time
from collections.abc import Iterator

import pytest

from bot.cluster.once import Claims, ClaimsAway, final_key, result_key
from bot.cluster.settings import connect
from tests.bot.cluster_redis import URL, fresh_prefix

KEYS = [result_key(t, h) for t in range(1, 21) for h in range(10)] + [final_key(t) for t in range(1, 21)]


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    yield from fresh_prefix()


def _race(url: str, prefix: str, start_at: float, backwards: bool, out: mp.Queue) -> None:  # type: ignore[type-arg]
    async def main() -> list[str]:
        r = connect(url)
        claims = Claims(r, prefix=prefix)
        keys = KEYS[::-1] if backwards else KEYS  # the two meet in the middle, where they race
        while time.time() < start_at:
            await asyncio.sleep(0.002)
        won = []
        for k in keys:
            if await claims.claim(k):
                won.append(k)
        for k in won:
            assert await claims.done(k)
        await r.aclose()
        return won

    out.put(asyncio.run(main()))


def test_two_processes_racing_for_every_result_post_each_once(redis_prefix: str) -> None:
    ctx = mp.get_context("spawn")
    out: mp.Queue = ctx.Queue()  # type: ignore[type-arg]
    start_at = time.time() + 3.0
    procs = [ctx.Process(target=_race, args=(URL, redis_prefix, start_at, backwards, out)) for backwards in (False, True)]
    for p in procs:
        p.start()
    try:
        a, b = (out.get(timeout=60) for _ in procs)
    finally:
        for p in procs:
            p.join(10)
    print(f"once: {len(a)} and {len(b)} of {len(KEYS)} claims won")
    assert set(a).isdisjoint(b) and sorted(a + b) == sorted(KEYS)
    assert a and b  # both were at it

    async def later() -> None:  # a third process taking the tables over skips all of it
        r = connect(URL)
        claims = Claims(r, prefix=redis_prefix)
        try:
            assert not any(await asyncio.gather(*(claims.claim(k) for k in KEYS)))
            assert all(await asyncio.gather(*(claims.is_done(k) for k in KEYS)))
        finally:
            await r.aclose()

    asyncio.run(later())


def test_a_claim_is_kept_by_its_holder_given_back_on_failure_and_taken_over_when_its_lease_ends(redis_prefix: str) -> None:
    async def main() -> None:
        r = connect(URL)
        a, b = Claims(r, prefix=redis_prefix, me="a"), Claims(r, prefix=redis_prefix, me="b")
        k = result_key(7, 0)
        try:
            assert await a.claim(k) and not await b.claim(k)
            assert await a.claim(k)  # the holder asking again (a retry after a failed post) keeps it
            assert not await b.release(k) and not await b.done(k)  # only the holder settles it
            assert await a.release(k)  # the post failed: the next try may be anyone's
            assert await b.claim(k, lease=0.2) and not await a.claim(k)
            await asyncio.sleep(0.35)  # b died holding it: its lease ran out
            assert await a.claim(k) and await a.done(k)
            assert not await b.claim(k) and await b.is_done(k)
            assert not await a.release(k)  # done is done
        finally:
            await r.aclose()

    asyncio.run(main())


def test_one_process_without_redis_keeps_its_claims_in_memory() -> None:
    async def main() -> None:
        c = Claims(None)
        assert await c.claim("x") and await c.claim("x")
        assert await c.done("x") and not await c.claim("x") and await c.is_done("x")
        assert await c.claim("y") and await c.release("y") and await c.claim("y")

    asyncio.run(main())


def test_claims_say_when_redis_is_away_instead_of_guessing() -> None:
    async def main() -> None:
        r = connect("redis://127.0.0.1:1/0")
        try:
            with pytest.raises(ClaimsAway):
                await Claims(r).claim(final_key(1))
        finally:
            await r.aclose()

    asyncio.run(main())

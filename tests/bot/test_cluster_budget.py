"""The bot token's budget shared through Redis: processes hammering it together never get more than
the limit admitted in any 1 s window (counted from the admission times Redis's clock gave), and
with Redis unreachable each keeps to its share, saying so once."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing as mp
import time
from bisect import bisect_left
from collections.abc import Iterator

import pytest

from bot.cluster.budget import TokenBudget, exempt, guard_http, token_key
from bot.cluster.settings import ClusterSettings, connect
from tests.bot.cluster_redis import URL, fresh_prefix

TOKEN = "budget-test-token"


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    yield from fresh_prefix()


def most_in_a_window(times: list[float], window: float = 1.0) -> int:
    """The most timestamps in any half-open window [t, t + window)."""
    times = sorted(times)
    return max((bisect_left(times, t + window) - i for i, t in enumerate(times)), default=0)


def test_most_in_a_window_counts_half_open_windows() -> None:
    assert most_in_a_window([0.0, 0.5, 0.999, 1.0, 1.2]) == 4  # [0.5, 1.5) holds .5, .999, 1, 1.2
    assert most_in_a_window([0.0, 0.5, 0.999, 1.0]) == 3  # [0, 1) holds 0, .5, .999; 1.0 is outside
    assert most_in_a_window([0.0, 1.0, 2.0]) == 1
    assert most_in_a_window([]) == 0


def _hammer(url: str, prefix: str, limit: int, share: int, start_at: float, seconds: float, out: mp.Queue) -> None:  # type: ignore[type-arg]
    async def main() -> list[float]:
        r = connect(url)
        budget = TokenBudget(r, TOKEN, limit=limit, share=share, prefix=prefix)
        got: list[float] = []
        while time.time() < start_at:
            await asyncio.sleep(0.002)
        while time.time() < start_at + seconds:
            got.append(await budget.acquire())
        await r.aclose()
        return got

    out.put(asyncio.run(main()))


def test_four_processes_hammering_the_budget_never_get_more_than_50_in_any_second(redis_prefix: str) -> None:
    ctx = mp.get_context("spawn")
    out: mp.Queue = ctx.Queue()  # type: ignore[type-arg]
    start_at = time.time() + 3.0  # every process has started (a spawned interpreter imports the bot)
    seconds = 3.0
    procs = [ctx.Process(target=_hammer, args=(URL, redis_prefix, 50, 12, start_at, seconds, out)) for _ in range(4)]
    for p in procs:
        p.start()
    try:
        per_process = [out.get(timeout=60) for _ in procs]
    finally:
        for p in procs:
            p.join(10)
    admitted = [t for got in per_process for t in got]
    worst = most_in_a_window(admitted)
    print(f"budget: {len(admitted)} admitted in {seconds:.0f} s by 4 processes {[len(g) for g in per_process]}; most in any 1 s window: {worst}")
    assert worst <= 50
    # and the budget is used, not starved: 50 at once, then 50 more as each second ends
    assert len(admitted) >= 3 * 50 - 5
    assert all(len(g) > 0 for g in per_process)  # nobody is shut out


def test_without_redis_each_process_keeps_to_its_share_and_says_so_once(caplog: pytest.LogCaptureFixture) -> None:
    async def main() -> list[float]:
        r = connect("redis://127.0.0.1:1/0")  # nothing listens there
        budget = TokenBudget(r, TOKEN, limit=50, share=12, retry_after=0.2)
        got = []
        end = time.time() + 2.5
        while time.time() < end:
            got.append(await budget.acquire())
        await r.aclose()
        assert not budget.shared and budget.outages == 1
        return got

    with caplog.at_level(logging.WARNING, logger="bot.cluster.budget"):
        got = asyncio.run(main())
    assert most_in_a_window(got) <= 12
    assert len(got) >= 2 * 12  # and it goes on at its share: 12 now, 12 a second later, ...
    said = [r.getMessage() for r in caplog.records if r.name == "bot.cluster.budget"]
    assert len(said) == 1 and "keeps to 12 requests/s" in said[0], said


def test_slots_count_a_request_until_a_window_after_it_ends(redis_prefix: str) -> None:
    async def main() -> None:
        r = connect(URL)
        budget = TokenBudget(r, TOKEN, limit=2, share=2, prefix=redis_prefix)
        try:
            async with budget.slot():
                await asyncio.sleep(0.3)  # a slow request: still counted
                t0 = time.monotonic()
                await budget.acquire()
                assert time.monotonic() - t0 < 0.1  # one of 2 taken: the second goes at once
            t1 = time.monotonic()
            await budget.acquire()  # the slow one ended just now: counted for a second from here
            assert 0.6 <= time.monotonic() - t1 <= 1.3
        finally:
            await r.aclose()

    asyncio.run(main())


def test_the_key_is_the_token_hash_not_the_token() -> None:
    key = token_key("jantaku:", "secret-token")
    assert "secret" not in key and key.startswith("jantaku:budget:") and key != token_key("jantaku:", "other-token")


def test_guard_http_takes_a_slot_for_bot_token_routes_only(redis_prefix: str) -> None:
    class Route:
        def __init__(self, path: str) -> None:
            self.path = path

    class Http:
        def __init__(self) -> None:
            self.sent: list[str] = []

        async def request(self, route: Route, **kwargs: object) -> str:
            self.sent.append(route.path)
            return route.path

    async def main() -> None:
        r = connect(URL)
        budget = TokenBudget(r, TOKEN, limit=1, share=1, prefix=redis_prefix)
        http = Http()
        guard_http(http, budget)
        try:
            t0 = time.monotonic()
            assert await http.request(Route("/channels/1/messages")) == "/channels/1/messages"
            await http.request(Route("/interactions/5/tok/callback"))  # not counted: no wait
            assert time.monotonic() - t0 < 0.2
            await http.request(Route("/users/@me"))  # the second bot-token request waits its second
            assert time.monotonic() - t0 >= 0.9
            assert http.sent == ["/channels/1/messages", "/interactions/5/tok/callback", "/users/@me"]
        finally:
            await r.aclose()

    assert exempt("/interactions/1/t/callback") and not exempt("/webhooks/1/t")
    asyncio.run(main())


def test_settings_give_each_process_its_shards_part_of_the_budget() -> None:
    s = ClusterSettings.from_env({"JANTAKU_REDIS_URL": "redis://127.0.0.1:6379/0"})
    assert s.redis_url == "redis://127.0.0.1:6379/0" and s.budget == 48
    assert s.share_of(4, 8) == 24 and s.share_of(1, 4) == 12 and s.share_of(1, 100) == 1
    assert ClusterSettings.from_env({"JANTAKU_TOKEN_SHARE": "10"}).share_of(1, 4) == 10
    assert ClusterSettings.from_env({"REDIS_URL": "redis://h:1"}).redis_url == "redis://h:1"
    assert ClusterSettings.from_env({}).redis_url is None
    for env, says in (
        ({"JANTAKU_TOKEN_BUDGET": "60"}, "between 1 and 50"),
        ({"JANTAKU_TOKEN_BUDGET": "x"}, "whole number"),
        ({"JANTAKU_REDIS_URL": "127.0.0.1:6379"}, "redis:// address"),
        ({"JANTAKU_TOKEN_SHARE": "49"}, "cannot be more than"),
        ({"JANTAKU_FORWARD_PATIENCE": "3"}, "between 0.1 and 2"),
    ):
        with pytest.raises(ValueError, match=says):
            ClusterSettings.from_env(env)


class _Door:
    """A TCP door in front of the real Redis that a test shuts (every connection cut, new ones
    refused) and opens again on the same port."""

    def __init__(self) -> None:
        self.port = 0
        self._server: asyncio.Server | None = None
        self._pipes: set[asyncio.StreamWriter] = set()

    async def open(self) -> None:
        host, port = URL.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)

        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            up_r, up_w = await asyncio.open_connection(host, int(port))
            self._pipes |= {writer, up_w}

            async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
                try:
                    while data := await src.read(65536):
                        dst.write(data)
                        await dst.drain()
                except (ConnectionError, OSError):
                    pass
                finally:
                    dst.close()

            await asyncio.gather(pump(reader, up_w), pump(up_r, writer))

        self._server = await asyncio.start_server(serve, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def shut(self) -> None:
        assert self._server is not None
        self._server.close()
        for w in self._pipes:
            w.close()
        self._pipes.clear()
        await self._server.wait_closed()


def test_the_budget_falls_back_when_redis_goes_away_and_comes_back_to_it(redis_prefix: str, caplog: pytest.LogCaptureFixture) -> None:
    async def main() -> None:
        door = _Door()
        await door.open()
        r = connect(f"redis://127.0.0.1:{door.port}/0")
        budget = TokenBudget(r, TOKEN, limit=40, share=5, prefix=redis_prefix, retry_after=0.2)
        try:
            await budget.acquire()
            assert budget.shared
            await door.shut()
            away = [await budget.acquire() for _ in range(12)]  # 5 a second on its own
            assert not budget.shared and most_in_a_window(away) <= 5
            assert away[-1] - away[0] >= 2.0  # 12 at 5 a second: the last two seconds after the first
            await door.open()
            await asyncio.sleep(0.25)
            t0 = time.monotonic()
            for _ in range(20):  # back on the shared budget: 40 a second
                await budget.acquire()
            assert budget.shared and time.monotonic() - t0 < 0.5 and budget.outages == 1
        finally:
            await r.aclose()
            await door.shut()

    with caplog.at_level(logging.WARNING, logger="bot.cluster.budget"):
        asyncio.run(main())
    said = [r.getMessage() for r in caplog.records if r.name == "bot.cluster.budget"]
    assert len(said) == 2 and "does not answer" in said[0] and "answers again" in said[1], said

"""The local Discord server shards as Discord does (gateway docs, "Sharding" and "Identifying"):
guild events only to shard ``(guild_id >> 22) % num_shards``, DMs only to shard 0, 4011 past the
guilds a session may hold, IDENTIFY paced per ``max_concurrency`` bucket, and the daily budget of
session starts. Driven by raw websocket clients, so every frame the server sends is seen."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp

from devserver import DiscordServer
from devserver.gateway import DIRECT_MESSAGES, GUILD_MESSAGES, GUILDS
from devserver.shards import shard_of
from devserver.state import DISCORD_EPOCH_MS

INTENTS = GUILDS | GUILD_MESSAGES | DIRECT_MESSAGES


def run(body: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(body(), 20))


class Raw:
    """One gateway connection: every dispatch it receives, and how it was closed."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.close_code: int | None = None
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                self.frames.append(json.loads(msg.data))
        self.close_code = self.ws.close_code

    def events(self, name: str) -> list[dict[str, Any]]:
        return [f["d"] for f in self.frames if f.get("t") == name]

    @property
    def ready(self) -> dict[str, Any] | None:
        got = self.events("READY")
        return got[0] if got else None

    @property
    def invalidated(self) -> bool:
        return any(f.get("op") == 9 for f in self.frames)


async def identify(http: aiohttp.ClientSession, server: DiscordServer, shard: list[int] | None, token: str = "x") -> Raw:
    ws = await http.ws_connect(server.gateway_url)
    hello = await ws.receive_json()
    assert hello["op"] == 10
    d: dict[str, Any] = {"token": token, "intents": INTENTS, "properties": {}}
    if shard is not None:
        d["shard"] = shard
    await ws.send_json({"op": 2, "d": d})
    return Raw(ws)


async def settled(server: DiscordServer, raw: Raw) -> Raw:
    """Wait until the IDENTIFY was answered: READY (and its guilds), op 9, or a close."""
    await server.wait_for(lambda: raw.ready is not None or raw.invalidated or raw.close_code is not None, timeout=5)
    if raw.ready is not None:
        n = len(raw.ready["guilds"])
        await server.wait_for(lambda: len(raw.events("GUILD_CREATE")) >= n, timeout=5)
    return raw


async def api(http: aiohttp.ClientSession, server: DiscordServer, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    async with http.request(method, server.base_url + path, json=body, headers={"Authorization": "Bot x"}) as r:
        text = await r.text()
        return r.status, json.loads(text) if text else None


def test_guild_ids_spread_over_shards_and_still_read_as_now() -> None:
    server = DiscordServer()
    guilds = [server.add_guild(f"club {n}") for n in range(7)]
    # made in one burst (the same millisecond or two), the n-th guild is on shard n % k for any k up to 10
    for k in (2, 3, 4, 7):
        assert [shard_of(g.id, k) for g in guilds] == [n % k for n in range(7)]
    now_ms = time.time() * 1000
    for g in guilds:  # the id's timestamp is at most 2.52 s old: created_at still reads as now
        assert now_ms - 2600 < (g.id >> 22) + DISCORD_EPOCH_MS <= now_ms + 1
    assert len({g.id for g in guilds}) == 7


def test_gateway_bot_recommends_shards_and_counts_session_starts() -> None:
    async def body() -> None:
        async with DiscordServer() as server, aiohttp.ClientSession() as http:
            status, info = await api(http, server, "GET", "/gateway/bot")
            assert status == 200 and info["url"] == server.gateway_url
            assert info["shards"] == 1  # no guild yet: one shard
            assert info["session_start_limit"] == {"total": 1000, "remaining": 1000, "reset_after": 86_400_000, "max_concurrency": 1}
            server.sharding.guilds_per_shard = 2  # a test's "one shard per 2 guilds"
            for n in range(5):
                server.add_guild(f"club {n}")
            _, info = await api(http, server, "GET", "/gateway/bot")
            assert info["shards"] == 3  # ceil(5 / 2)
            server.sharding.recommended = 4  # or fixed outright
            _, info = await api(http, server, "GET", "/gateway/bot")
            assert info["shards"] == 4
            _, plain = await api(http, server, "GET", "/gateway")
            assert plain == {"url": server.gateway_url}  # GET /gateway has no shard information
            raw = await settled(server, await identify(http, server, [0, 4]))
            assert raw.ready is not None and raw.ready["shard"] == [0, 4]
            _, info = await api(http, server, "GET", "/gateway/bot")
            limit = info["session_start_limit"]
            assert limit["remaining"] == 999 and 86_390_000 < limit["reset_after"] <= 86_400_000
            server.advance(86_400)  # a day later the budget is whole again
            _, info = await api(http, server, "GET", "/gateway/bot")
            assert info["session_start_limit"]["remaining"] == 1000
            await raw.ws.close()

    run(body)


def test_guild_events_go_to_their_shard_and_dms_to_shard_0() -> None:
    async def body() -> None:
        async with DiscordServer() as server, aiohttp.ClientSession() as http:
            club_a = server.add_guild("A", channels=["tables"])  # guild 0: shard 0 of 2
            club_b = server.add_guild("B", channels=["tables"])  # guild 1: shard 1 of 2
            alice = server.add_user("alice", guilds=[club_a.id, club_b.id])
            assert (shard_of(club_a.id, 2), shard_of(club_b.id, 2)) == (0, 1)
            server.sharding.max_concurrency = 2  # buckets 0 and 1: both shards may identify at once
            s0 = await settled(server, await identify(http, server, [0, 2]))
            s1 = await settled(server, await identify(http, server, [1, 2]))
            assert s0.ready is not None and s1.ready is not None
            assert [g["id"] for g in s0.ready["guilds"]] == [str(club_a.id)]
            assert [g["id"] for g in s1.ready["guilds"]] == [str(club_b.id)]
            assert [g["id"] for g in s0.events("GUILD_CREATE")] == [str(club_a.id)]
            assert [g["id"] for g in s1.events("GUILD_CREATE")] == [str(club_b.id)]

            status, _ = await api(
                http, server, "PUT", f"/applications/{server.application_id}/commands",
                [{"name": "ping", "description": "ping", "type": 1}],
            )
            assert status == 200
            in_b = await server.slash(alice.id, club_b.id, club_b.channel_ids[0], "ping", {})
            in_a = await server.slash(alice.id, club_a.id, club_a.channel_ids[0], "ping", {})
            in_dm = await server.slash(alice.id, None, None, "ping", {})
            assert (in_a.shards, in_b.shards, in_dm.shards) == ([[0, 2]], [[1, 2]], [[0, 2]])
            await server.say(alice.id, club_b.channel_ids[0], "hello B")
            await server.say(alice.id, None, "hello bot")  # a DM: no guild_id, shard 0 only
            await server.wait_for(lambda: len(s0.events("MESSAGE_CREATE")) == 1 and len(s1.events("MESSAGE_CREATE")) == 1)
            assert [i["id"] for i in s0.events("INTERACTION_CREATE")] == [str(in_a.id), str(in_dm.id)]
            assert [i["id"] for i in s1.events("INTERACTION_CREATE")] == [str(in_b.id)]
            assert "guild_id" not in s0.events("MESSAGE_CREATE")[0]
            assert s1.events("MESSAGE_CREATE")[0]["guild_id"] == str(club_b.id)

            # a guild made later is announced to its own shard only (guild 2: shard 0)
            club_c = server.add_guild("C")
            await server.wait_for(lambda: len(s0.events("GUILD_CREATE")) == 2)
            assert s0.events("GUILD_CREATE")[1]["id"] == str(club_c.id)
            assert len(s1.events("GUILD_CREATE")) == 1
            await s0.ws.close()
            await s1.ws.close()

    run(body)


def test_4011_when_a_session_would_hold_too_many_guilds_and_4010_for_a_bad_shard() -> None:
    async def body() -> None:
        async with DiscordServer() as server, aiohttp.ClientSession() as http:
            server.sharding.max_guilds_per_session = 2  # Discord's is 2,500
            for n in range(3):
                server.add_guild(f"club {n}")
            whole = await settled(server, await identify(http, server, None))
            assert whole.close_code == 4011 and whole.ready is None and server.gateway.sessions == {}
            server.advance(5)  # the next IDENTIFY of bucket 0 may come 5 s later
            half = await settled(server, await identify(http, server, [0, 2]))  # guilds 0 and 2: two, allowed
            assert half.ready is not None and len(half.ready["guilds"]) == 2 and half.close_code is None
            server.advance(5)
            bad = await settled(server, await identify(http, server, [2, 2]))
            assert bad.close_code == 4010 and bad.ready is None
            await half.ws.close()

    run(body)


def test_identify_is_paced_per_max_concurrency_bucket() -> None:
    async def body() -> None:
        async with DiscordServer() as server, aiohttp.ClientSession() as http:
            server.add_guild("club")
            first = await settled(server, await identify(http, server, [0, 2]))
            second = await settled(server, await identify(http, server, [1, 2]))  # bucket 1 % 1 = 0: too soon
            assert first.ready is not None
            assert second.invalidated and second.ready is None
            assert server.sharding.paced == 1 and server.sharding.remaining == 999  # op 9 spends no start
            server.advance(5)
            again = await settled(server, await identify(http, server, [1, 2]))
            assert again.ready is not None and server.sharding.remaining == 998

            server.advance(5)
            server.sharding.max_concurrency = 2  # buckets: shard_id % 2
            opened = [await settled(server, await identify(http, server, [i, 4])) for i in range(4)]
            # shards 0 and 1 fill buckets 0 and 1; shards 2 and 3 come back to them within 5 s
            assert [r.ready is not None for r in opened] == [True, True, False, False]
            assert [r.invalidated for r in opened] == [False, False, True, True]
            for r in [first, second, again, *opened]:
                await r.ws.close()

    run(body)


def test_identify_pacing_window_follows_time_scale() -> None:
    async def body() -> None:
        async with DiscordServer(time_scale=10) as server, aiohttp.ClientSession() as http:
            a = await settled(server, await identify(http, server, [0, 2]))
            b = await settled(server, await identify(http, server, [1, 2]))
            assert a.ready is not None and b.invalidated
            await asyncio.sleep(0.55)  # 5 s / 10
            c = await settled(server, await identify(http, server, [1, 2]))
            assert c.ready is not None
            for r in (a, b, c):
                await r.ws.close()

    run(body)


def test_no_session_start_left_ends_every_session_and_resets_the_token() -> None:
    async def body() -> None:
        async with DiscordServer() as server, aiohttp.ClientSession() as http:
            server.add_guild("club")
            server.sharding.total = server.sharding.remaining = 2
            one = await settled(server, await identify(http, server, [0, 2]))
            server.advance(5)
            two = await settled(server, await identify(http, server, [1, 2]))
            assert one.ready is not None and two.ready is not None
            server.advance(5)
            three = await settled(server, await identify(http, server, [0, 2]))
            # Discord: "all active sessions for the app will be terminated, the bot token will be reset"
            await server.wait_for(lambda: one.close_code is not None and two.close_code is not None)
            assert (one.close_code, two.close_code, three.close_code) == (4004, 4004, 4004)
            assert server.gateway.sessions == {}
            status, _ = await api(http, server, "GET", "/users/@me")
            assert status == 401
            server.reset_session_starts()  # the owner put the new token in
            status, _ = await api(http, server, "GET", "/users/@me")
            assert status == 200
            four = await settled(server, await identify(http, server, [0, 2]))
            assert four.ready is not None
            await four.ws.close()

    run(body)

"""Two real bot processes on the local Discord server and the real Redis: shard 0 of 2 and shard 1
of 2 (tests/bot/cluster_node.py). A click on a hand DM arrives only at shard 0 (Discord's rule);
for a table of a guild on shard 1 it is forwarded and answered by shard 1's process, exactly
once. A hung owner's click is answered by the receiver with one sentence before Discord's 3 s, and
the owner waking up does not answer it again; a dead owner's likewise. Both processes hammering
the bot token through the shared budget: the server never sees more than 50 bot-token requests
in any second, and answers no 429."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from bisect import bisect_left
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.cluster.forward import Forwarded, moving, redact
from devserver import DiscordServer
from devserver.shards import shard_of
from tests.bot.cluster_redis import URL, fresh_prefix

ROOT = Path(__file__).resolve().parents[2]
BUTTON = "mj:{table}:3:1d5m"


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    yield from fresh_prefix()


def most_in_a_window(times: list[float], window: float = 1.0) -> int:
    times = sorted(times)
    return max((bisect_left(times, t + window) - i for i, t in enumerate(times)), default=0)


def test_a_forwarded_click_loses_the_messages_text_but_keeps_what_the_owner_needs() -> None:
    payload = {
        "id": "77", "token": "tok", "type": 3, "locale": "ja", "user": {"id": "5"},
        "data": {"custom_id": "mj:9:1:1d5m", "component_type": 2},
        "message": {
            "id": "66", "flags": 0, "content": "your hand: 1m2m3m", "attachments": [{"id": "1"}], "embeds": [{}],
            "components": [
                {"type": 1, "components": [{"type": 2, "custom_id": "mj:9:1:0d1m", "label": "1m"}, {"type": 2, "custom_id": "mj:9:1:0d2m", "label": "2m"}]},
                {"type": 1, "components": [{"type": 2, "custom_id": "mj:9:1:1d5m", "label": "5m"}, {"type": 2, "custom_id": "mj:9:1:0d3m", "label": "3m"}]},
            ],
        },
    }
    f = Forwarded.loads(Forwarded.of(payload, 9, 1234, "r").dumps())
    assert (f.interaction_id, f.token, f.custom_id, f.user_id, f.table_id, f.guild_id) == (77, "tok", "mj:9:1:1d5m", 5, 9, 1234)
    msg = f.payload["message"]
    assert msg["content"] == "" and msg["attachments"] == [] and msg["embeds"] == []
    # only the button pressed (the move being made) is left of the hand's buttons
    assert msg["id"] == "66" and msg["components"] == [{"type": 1, "components": [{"type": 2, "custom_id": "mj:9:1:1d5m", "label": "5m"}]}]
    assert payload["message"]["content"] and len(payload["message"]["components"]) == 2  # the original is untouched
    sent = Forwarded.of(payload, 9, 1234, "r").dumps()
    assert "1m2m3m" not in sent and '"1m"' not in sent and '"2m"' not in sent and '"3m"' not in sent
    assert redact({"id": "1"}) == {"id": "1"}


def _guild_on(server: DiscordServer, shard: int, name: str) -> int:
    while True:
        g = server.add_guild(name)
        if shard_of(g.id, 2) == shard:
            return g.id


async def _start(server: DiscordServer, shard: int, prefix: str, tables: dict[int, int], go: Path, out: Path) -> asyncio.subprocess.Process:
    env = dict(os.environ)
    env.update(
        NODE_API=server.base_url, NODE_GATEWAY=server.gateway_url, NODE_SHARD=str(shard), NODE_SHARDS="2",
        NODE_TABLES=json.dumps(tables), NODE_GO=str(go), NODE_HAMMER_S="2.5",
        JANTAKU_REDIS_URL=URL, JANTAKU_REDIS_PREFIX=prefix, JANTAKU_TOKEN_BUDGET="50",
    )
    with open(out, "wb") as fh, open(out.with_suffix(".err"), "wb") as err:
        return await asyncio.create_subprocess_exec(sys.executable, "-m", "tests.bot.cluster_node", cwd=str(ROOT), env=env, stdout=fh, stderr=err)


async def _said(out: Path, line: str, timeout: float = 60.0) -> str:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for said in out.read_text().splitlines():
            if said.startswith(line):
                return said
        await asyncio.sleep(0.05)
    raise AssertionError(f"{out.name} never said {line!r}: {out.read_text()[-500:]} {out.with_suffix('.err').read_text()[-2000:]}")


def test_two_processes_forward_a_dm_click_to_its_tables_owner_share_the_budget_and_never_leave_a_click_silent(
    redis_prefix: str, tmp_path: Path
) -> None:
    async def main() -> None:
        async with DiscordServer() as server:
            mine, theirs = _guild_on(server, 0, "club on shard 0"), _guild_on(server, 1, "club on shard 1")
            alice = server.add_user("alice", guilds=[mine, theirs])
            tables = {7: theirs, 8: mine}  # table 7 is shard 1's, table 8 shard 0's
            async with aiohttp.ClientSession(headers={"Authorization": "Bot x"}) as http:
                async with http.post(server.base_url + "/users/@me/channels", json={"recipient_id": str(alice.id)}) as r:
                    dm = int((await r.json())["id"])
                hands = {}
                for table in tables:  # a hand message in alice's DMs for each table, with a button
                    buttons = [{"type": 2, "style": 2, "label": act, "custom_id": f"mj:{table}:3:{act}"} for act in ("1d1m", "1d5m", "1d9p")]
                    body = {"content": "your hand", "components": [{"type": 1, "components": buttons}]}
                    async with http.post(server.base_url + f"/channels/{dm}/messages", json=body) as r:
                        hands[table] = int((await r.json())["id"])
            go = tmp_path / "go"
            outs = [tmp_path / "shard0.out", tmp_path / "shard1.out"]
            procs = [await _start(server, s, redis_prefix, tables, go, outs[s]) for s in (0, 1)]
            arrivals: list[float] = []
            count = server.stats.count

            def counted(route: str, *, on_global: bool) -> None:  # when each bot-token request arrived
                if on_global:
                    arrivals.append(time.monotonic())
                count(route, on_global=on_global)

            server.stats.count = counted  # type: ignore[method-assign]
            try:
                await server.wait_until_ready(90, shards=2)
                for out in outs:
                    await _said(out, "ready")

                # a DM click for shard 1's table: it reaches shard 0 only, and shard 1 answers it, once
                rec = await server.click(alice.id, hands[7], BUTTON.format(table=7))
                assert rec.shards == [[0, 2]]
                await rec.response(5)
                assert rec.callback_type == 7 and rec.latency is not None and rec.latency < 2.5
                answered = server.message(hands[7]).content
                assert answered.startswith("table 7: 1d5m played by shard 1 ")
                late = float(answered.rsplit(", ", 1)[1].split(" ms")[0])
                print(f"forwarded: answered by shard 1's process {rec.latency * 1000:.0f} ms after the click; the hop over Redis took {late:.1f} ms")
                assert 0.0 < late < 1000.0  # it knows the click came late, and by how much
                # a DM click for shard 0's own table is played where it arrived
                own = await server.click(alice.id, hands[8], BUTTON.format(table=8))
                await own.response(5)
                assert server.message(hands[8]).content.startswith("table 8: 1d5m played by shard 0 ") and server.message(hands[8]).content.endswith(", 0.0 ms late)")
                await asyncio.sleep(1.5)  # past the receiver's patience: it did not answer as well
                assert rec.errors == [] and own.errors == []

                # both processes hammer the bot token at once, through the shared budget
                arrivals.clear()
                go.touch()
                done = [int((await _said(out, "hammered")).split()[1]) for out in outs]
                worst = most_in_a_window(arrivals)
                print(f"budget: {done} requests by the two processes in 2.5 s; at most {worst} arrived in any 1 s window")
                assert worst <= 50 and sum(done) >= 100
                assert server.request_stats().not_injected == []  # no 429, global or other

                # the owner hangs (stopped): the receiver answers in one sentence before Discord's 3 s
                before = server.message(hands[7]).content
                os.kill(procs[1].pid, signal.SIGSTOP)
                try:
                    hung = await server.click(alice.id, hands[7], BUTTON.format(table=7))
                    await hung.response(5)
                    assert hung.callback_type == 4 and hung.ephemeral and hung.content == moving("en")
                    assert hung.latency is not None and 0.9 <= hung.latency < 2.5, hung.latency
                finally:
                    os.kill(procs[1].pid, signal.SIGCONT)
                await asyncio.sleep(1.0)  # the owner wakes up, reads the click, finds it answered: no second answer
                assert hung.errors == [] and hung.callback_type == 4 and server.message(hands[7]).content == before

                # the owner is dead: nobody listens on its channel, so the answer comes at once
                procs[1].kill()
                await procs[1].wait()
                dead = await server.click(alice.id, hands[7], BUTTON.format(table=7), locale="ja")
                await dead.response(5)
                assert dead.callback_type == 4 and dead.content == moving("ja") and dead.content != moving("en")
                assert dead.latency is not None and dead.latency < 0.9, dead.latency
                assert dead.errors == [] and server.errors == [] and server.unhandled == []
            finally:
                for p in procs:
                    if p.returncode is None:
                        p.terminate()
                        with suppress(TimeoutError):
                            await asyncio.wait_for(p.wait(), 10)
                    if p.returncode is None:
                        p.kill()
                        await p.wait()
            counts: list[dict[str, Any]] = [json.loads(s.split(" ", 1)[1]) for s in outs[0].read_text().splitlines() if s.startswith("counts ")]
            assert counts and counts[0]["forwarded"] == 3 and counts[0]["fallback"] == 2, counts

    asyncio.run(main())


def test_the_router_forwards_only_dm_table_clicks_of_tables_owned_elsewhere() -> None:
    from bot.cluster.ownership import Ownership, TableGuilds
    from bot.cluster.route import Router

    mine, theirs = 2 << 22, 3 << 22  # shards 0 and 1 of 2
    parsed: list[str] = []
    forwarded: list[tuple[str, int, int]] = []

    class Forwarder:
        async def forward(self, payload: dict[str, Any], table: int, guild: int) -> None:
            forwarded.append((payload["id"], table, guild))

    async def lookup(table: int) -> int | None:
        return {1: mine, 2: theirs}.get(table)

    def click(id: str, custom_id: str, guild: int | None = None, type: int = 3) -> dict[str, Any]:
        return {"id": id, "type": type, "guild_id": None if guild is None else str(guild), "data": {"custom_id": custom_id}}

    async def main() -> None:
        router = Router(lambda p: parsed.append(p["id"]), Ownership.of(2, [0]), TableGuilds(lookup), Forwarder())  # type: ignore[arg-type]
        router(click("a", "mj:1:0:1d5m"))  # a DM click for our own table
        router(click("b", "mj:2:0:1d5m"))  # for shard 1's table: forwarded
        router(click("c", "mjh:2", guild=theirs))  # in a guild: Discord sent it to its shard, here
        router(click("d", "lkr:riichi:1:5"))  # not a table's button
        router(click("e", "mj:9:0:1d5m"))  # a table nobody knows: run here, refused by the click path
        router({"id": "f", "type": 2, "data": {"name": "table"}})  # a slash command in a DM
        await asyncio.sleep(0.05)
        router(click("g", "mj:2:1:1d5m"))  # the guild is known now: no second look-up needed

        await asyncio.sleep(0.05)

    asyncio.run(main())
    assert sorted(parsed) == ["a", "c", "d", "e", "f"]
    assert forwarded == [("b", 2, theirs), ("g", 2, theirs)]


def test_one_process_without_redis_owns_everything_and_forwards_nothing() -> None:
    from bot.cluster.node import Node
    from bot.cluster.settings import ClusterSettings

    parsed: list[dict[str, Any]] = []

    class Http:
        async def request(self, route: Any, **kwargs: Any) -> None:
            return None

    class Connection:
        parsers = {"INTERACTION_CREATE": parsed.append}

    class Client:
        shard_count = None
        shard_ids = None
        http = Http()
        _connection = Connection()

    async def lookup(table: int) -> int | None:
        raise AssertionError("one process never looks a table's guild up")

    async def main() -> None:
        node = Node.open(ClusterSettings.from_env({}), "token")
        client = Client()
        await node.attach(client, lookup)
        assert node.redis is None and node.forwarder is None and node.owns(5 << 22) and node.owns(None)
        assert node.budget is not None and node.budget.share == 48 and not node.budget.shared
        Connection.parsers["INTERACTION_CREATE"]({"id": "1", "type": 3, "data": {"custom_id": "mj:4:0:1d5m"}})
        assert await node.claims.claim("k") and await node.claims.done("k") and not await node.claims.claim("k")
        await node.close()

    asyncio.run(main())
    assert [p["id"] for p in parsed] == ["1"]

"""One bot process of the cluster tests (``python -m tests.bot.cluster_node``): a discord.py client
holding one shard of the local Discord server, with the cluster primitives wired as the bot wires
them: the router in front of discord.py's interaction parser, the forwarder listening on its
shards, and every bot-token request taking a slot of the shared budget.

Its table button (``mj:<table>:<serial>:<act>``) answers with UPDATE_MESSAGE naming the shard that
answered. Settings from the environment: ``NODE_API``, ``NODE_GATEWAY`` (the server),
``NODE_SHARD``/``NODE_SHARDS``, ``NODE_TABLES`` (JSON: table id -> guild id), the cluster's own
settings (``JANTAKU_REDIS_URL``, ``JANTAKU_REDIS_PREFIX``, ``JANTAKU_TOKEN_BUDGET``), ``NODE_GO`` (a file: once it exists, ``NODE_HAMMER_S`` seconds of ``GET
/users/@me`` from ``NODE_WORKERS`` tasks as fast as the budget lets them). It prints ``ready`` once
connected, ``hammered <n>`` after the hammering, and its forwarder's counts when it stops.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import time
from pathlib import Path
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl

from bot.cluster.node import Node
from bot.cluster.settings import ClusterSettings

SHARD = int(os.environ.get("NODE_SHARD", "0"))
NODE: Node | None = None


def say(line: str) -> None:
    print(line, flush=True)


class Act(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mj:(?P<table>\d+):(?P<serial>\d+):(?P<act>[0-9a-z]+)"):
    def __init__(self, table: int, serial: int, act: str) -> None:
        super().__init__(discord.ui.Button(label=act, custom_id=f"mj:{table}:{serial}:{act}"))
        self.table, self.serial, self.act = table, serial, act

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /) -> Act:
        return cls(int(match["table"]), int(match["serial"]), match["act"])

    async def callback(self, interaction: discord.Interaction) -> None:
        late = NODE.forwarder.late_by(interaction.id) if NODE is not None and NODE.forwarder is not None else 0.0
        await interaction.response.edit_message(content=f"table {self.table}: {self.act} played by shard {SHARD} (pid {os.getpid()}, {late * 1000:.1f} ms late)")


async def hammer(client: discord.AutoShardedClient, seconds: float, workers: int) -> int:
    done = 0
    end = time.monotonic() + seconds

    async def worker() -> None:
        nonlocal done
        while time.monotonic() < end:
            await client.http.request(discord.http.Route("GET", "/users/@me"))
            done += 1

    await asyncio.gather(*(worker() for _ in range(workers)))
    return done


async def main() -> None:
    env = os.environ
    discord.http.Route.BASE = env["NODE_API"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(env["NODE_GATEWAY"])
    count = int(env.get("NODE_SHARDS", "2"))
    tables = {int(k): int(v) for k, v in json.loads(env.get("NODE_TABLES", "{}")).items()}

    async def lookup(table: int) -> int | None:
        return tables.get(table)

    client = discord.AutoShardedClient(intents=discord.Intents.default(), shard_ids=[SHARD], shard_count=count)
    client.add_dynamic_items(Act)
    global NODE
    node = NODE = Node.open(ClusterSettings.from_env(), "cluster-test-token")  # JANTAKU_REDIS_URL, ... as the bot reads them
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)

    @client.event
    async def on_ready() -> None:
        say("ready")

    async with client:
        await node.attach(client, lookup)
        assert node.forwarder is not None and node.budget is not None and node.budget.share == 25
        runner = asyncio.create_task(client.start("cluster-test-token"))
        go = Path(env["NODE_GO"]) if env.get("NODE_GO") else None
        while not stop.is_set() and not runner.done():
            if go is not None and go.exists():
                go = None
                n = await hammer(client, float(env.get("NODE_HAMMER_S", "2")), int(env.get("NODE_WORKERS", "8")))
                say(f"hammered {n}")
            await asyncio.sleep(0.02)
        say("counts " + json.dumps(node.forwarder.stats))
        await node.close()
        runner.cancel()


if __name__ == "__main__":
    asyncio.run(main())

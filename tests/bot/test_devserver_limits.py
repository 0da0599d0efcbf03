"""Discord's limits as the fake server enforces them by default (issue 15 §1, issue 16 item 7).

Raw HTTP (aiohttp) where the exact answer matters (headers, bodies, codes); a tiny real discord.py bot
where what counts is how the client copes (waits on buckets, sees the same permissions, gets clean
JSON). Each test runs its own ``asyncio.run``.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from devserver import DiscordServer, Guild, User
from devserver.state import (
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    SEND_MESSAGES,
    VIEW_CHANNEL,
)

TEST_TIMEOUT = 30.0


def png(color: tuple[int, int, int]) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (4, 4), color).save(buf, format="PNG")
    return buf.getvalue()


class Act(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"act:(?P<kind>update|defer):(?P<n>\d+)"):
    """``update``: answer the click with UPDATE_MESSAGE (type 7) carrying a new picture and button;
    ``defer``: DEFERRED_UPDATE_MESSAGE (type 6), then edit @original through the token, then a follow-up."""

    def __init__(self, kind: str, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"{kind} {n}", custom_id=f"act:{kind}:{n}"))
        self.kind, self.n = kind, n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Button[Any], match: re.Match[str], /) -> Act:
        return cls(match["kind"], int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Act(self.kind, self.n + 1))
        picture = discord.File(io.BytesIO(png((0, 0, 200 + self.n))), f"step{self.n + 1}.png")
        if self.kind == "update":
            await interaction.response.edit_message(content=f"step {self.n + 1}", attachments=[picture], view=view)
            return
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"step {self.n + 1}", attachments=[picture], view=view)
        await interaction.followup.send(f"followed up {self.n + 1}", ephemeral=True)


@dataclass
class Seen:
    app_permissions: list[int] = field(default_factory=list)
    echoed: list[str] = field(default_factory=list)
    forbidden: list[discord.Forbidden] = field(default_factory=list)
    errors: list[BaseException] = field(default_factory=list)


def make_bot(guild_id: int, seen: Seen) -> commands.Bot:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)
    guild = discord.Object(id=guild_id)

    @app_commands.command(name="ping", description="Answer privately")
    async def ping(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("pong", ephemeral=True)

    @app_commands.command(name="echo", description="Say the text back")
    async def echo(interaction: discord.Interaction[Any], text: str) -> None:
        seen.echoed.append(text)
        await interaction.response.send_message(f"{len(text)}:{text}", ephemeral=True)

    @app_commands.command(name="perms", description="What the bot may do here")
    async def perms(interaction: discord.Interaction[Any]) -> None:
        seen.app_permissions.append(interaction.app_permissions.value)
        await interaction.response.send_message("noted", ephemeral=True)

    @app_commands.command(name="panel", description="A message with a button: in a DM, or ephemeral")
    async def panel(interaction: discord.Interaction[Any], where: str) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Act("update" if where == "channel" else "defer", 0))
        if where == "dm":
            await interaction.user.send("step 0", view=view)
            await interaction.response.send_message("sent", ephemeral=True)
        elif where == "ephemeral":
            await interaction.response.send_message("step 0", view=view, ephemeral=True)
        else:
            await interaction.response.send_message("step 0", view=view, file=discord.File(io.BytesIO(png((9, 9, 9))), "step0.png"))

    for cmd in (ping, echo, perms, panel):
        bot.tree.add_command(cmd, guild=guild)

    async def setup_hook() -> None:
        bot.add_dynamic_items(Act)
        await bot.tree.sync(guild=guild)

    async def on_error(interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        seen.errors.append(error)

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    bot.tree.on_error = on_error  # type: ignore[method-assign]
    return bot


@dataclass
class World:
    server: DiscordServer
    bot: commands.Bot
    seen: Seen
    guild: Guild
    channel_id: int
    alice: User


@asynccontextmanager
async def running_bot(**server_options: Any) -> AsyncIterator[World]:
    async with DiscordServer(**server_options) as server:
        guild = server.add_guild("Club", channels=["tables", "quiet"])
        alice = server.add_user("alice", guilds=[guild.id])
        seen = Seen()
        bot = make_bot(guild.id, seen)
        task = asyncio.create_task(bot.start("devserver-token"))
        try:
            await server.wait_until_ready(10)
            await server.wait_for_commands(["ping", "echo", "perms", "panel"], guild_id=guild.id)
            await asyncio.wait_for(bot.wait_until_ready(), 10)
            yield World(server, bot, seen, guild, guild.channel_ids[0], alice)
            assert server.unhandled == [] and server.errors == [], (server.unhandled, server.errors)
            assert seen.errors == [], seen.errors
        finally:
            await bot.close()
            await asyncio.wait_for(task, 5)


def run(body: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(body(), TEST_TIMEOUT))


async def raw(session: aiohttp.ClientSession, server: DiscordServer, method: str, path: str, body: Any = None) -> tuple[int, dict[str, str], Any]:
    async with session.request(method, server.base_url + path, json=body, headers={"Authorization": "Bot x"}) as r:
        text = await r.text()
        return r.status, dict(r.headers), json.loads(text) if text else None


# ---------------------------------------------------------------------------------------------------------
# per-route buckets, the global limit, time_scale and the accounting


def test_channel_sends_and_edits_share_5_per_5s_per_channel_with_headers_and_a_429() -> None:
    async def body() -> None:
        async with DiscordServer() as server, aiohttp.ClientSession() as http:
            guild = server.add_guild("Club", channels=["a", "b"])
            a, b = guild.channel_ids
            dm = server.state.dm_channel(server.add_user("alice", guilds=[guild.id]).id).id
            answers = [await raw(http, server, "POST", f"/channels/{a}/messages", {"content": f"m{i}"}) for i in range(4)]
            mid = answers[0][2]["id"]
            answers.append(await raw(http, server, "PATCH", f"/channels/{a}/messages/{mid}", {"content": "edited"}))
            assert [s for s, _, _ in answers] == [200] * 5
            assert [h["X-RateLimit-Remaining"] for _, h, _ in answers] == ["4", "3", "2", "1", "0"]
            assert {h["X-RateLimit-Limit"] for _, h, _ in answers} == {"5"}
            assert len({h["X-RateLimit-Bucket"] for _, h, _ in answers}) == 1  # sends and edits: one bucket
            assert 4.0 < float(answers[-1][1]["X-RateLimit-Reset-After"]) <= 5.0
            assert abs(float(answers[-1][1]["X-RateLimit-Reset"]) - time.time() - 5) < 1.5

            status, headers, data = await raw(http, server, "POST", f"/channels/{a}/messages", {"content": "sixth"})
            assert status == 429
            assert data["global"] is False and 4.0 < data["retry_after"] <= 5.0 and data["message"]
            assert headers["X-RateLimit-Scope"] == "user" and headers["Via"] and int(headers["Retry-After"]) == 5
            assert [m.content for m in server.messages(a)] == ["edited", "m1", "m2", "m3"]  # the sixth changed nothing

            # another channel and a DM channel each have their own bucket
            assert (await raw(http, server, "POST", f"/channels/{b}/messages", {"content": "x"}))[0] == 200
            assert (await raw(http, server, "POST", f"/channels/{dm}/messages", {"content": "x"}))[0] == 200
            # a GET answers with rate-limit headers too
            assert "X-RateLimit-Bucket" in (await raw(http, server, "GET", f"/channels/{a}"))[1]

            stats = server.request_stats()
            assert [(h.route, h.scope, h.injected) for h in stats.rate_limited] == [
                ("POST /channels/{channel_id}/messages", "user", False)
            ]
            assert stats.by_route["POST /channels/{channel_id}/messages"].requests == 7
            assert stats.global_budget == stats.requests == 9
            assert stats.invalid == 1  # the 429 counts towards Discord's invalid-request ban

    run(body)


def test_global_limit_is_50_per_second_for_the_bot_token_and_interaction_endpoints_are_exempt() -> None:
    async def body() -> None:
        # time_scale 0.1 stretches the global window to 10 s, so the slash command below surely runs
        # while the bot token's budget is spent
        async with running_bot(time_scale=0.1) as w, aiohttp.ClientSession() as http:
            w.server.advance(11)  # past the window the bot's start-up requests opened
            w.server.reset_stats()
            channels = [w.channel_id, w.guild.channel_ids[1]]
            answers = [await raw(http, w.server, "GET", f"/channels/{channels[i % 2]}") for i in range(51)]
            assert [s for s, _, _ in answers[:50]] == [200] * 50
            status, headers, data = answers[50]
            assert status == 429 and data["global"] is True and data["retry_after"] > 5
            assert headers["X-RateLimit-Scope"] == "global" and headers["X-RateLimit-Global"] == "true" and headers["Via"]

            rec = await w.server.slash(w.alice.id, w.guild.id, w.channel_id, "ping", {})
            reply = await rec.reply()
            assert reply is not None and reply.content == "pong"  # the callback is not on the global budget
            stats = w.server.request_stats()
            callback = stats.by_route["POST /interactions/{interaction_id}/{token}/callback"]
            assert (callback.requests, callback.global_budget, callback.rate_limited) == (1, 0, 0)
            assert stats.global_budget == 51 and stats.exempt == 1
            assert [h.scope for h in stats.rate_limited] == ["global"]

    run(body)


def test_discord_py_waits_on_the_channel_bucket_and_time_scale_shortens_the_window() -> None:
    async def body() -> None:
        async with running_bot(time_scale=10) as w:
            channel = w.bot.get_channel(w.channel_id)
            assert isinstance(channel, discord.TextChannel)
            w.server.reset_stats()
            t0 = time.monotonic()
            for i in range(12):
                await channel.send(f"m{i}")
            elapsed = time.monotonic() - t0
            assert [m.content for m in w.server.messages(w.channel_id)] == [f"m{i}" for i in range(12)]
            # 5 per 0.5 s: twelve sends need two waits for the window, and discord.py waited without a 429
            assert elapsed >= 0.9
            stats = w.server.request_stats()
            assert stats.not_injected == [], stats.summary()
            assert elapsed < 5  # ... of 0.5 s, not Discord's 5 s

            # an injected 429 is told apart from a real one
            w.server.inject_rate_limit("POST", r"^/channels/\d+/messages$", retry_after=0.01)
            await channel.send("after an injected 429")
            stats = w.server.request_stats()
            assert [(h.injected, h.route) for h in stats.rate_limited] == [(True, "POST /channels/{channel_id}/messages")]
            assert stats.not_injected == []
            assert "0 429s from limits" in stats.summary() and "1 injected" in stats.summary()

    run(body)


# ---------------------------------------------------------------------------------------------------------
# the clock: old messages, token lifetime


def test_edits_of_messages_older_than_an_hour_get_30046_after_3_per_6s() -> None:
    async def body() -> None:
        async with DiscordServer() as server, aiohttp.ClientSession() as http:
            guild = server.add_guild("Club", channels=["a"])
            (a,) = guild.channel_ids
            _, _, old = await raw(http, server, "POST", f"/channels/{a}/messages", {"content": "old"})
            server.advance(3601)  # the message is now an hour old; every window has passed too
            codes = [await raw(http, server, "PATCH", f"/channels/{a}/messages/{old['id']}", {"content": f"e{i}"}) for i in range(4)]
            assert [s for s, _, _ in codes] == [200, 200, 200, 429]
            _, headers, data = codes[3]
            assert data["code"] == 30046 and "older than 1 hour" in data["message"] and data["global"] is False
            assert 5.0 < data["retry_after"] <= 6.0
            assert headers["X-RateLimit-Scope"] == "shared" and headers["Via"]
            assert server.message(int(old["id"])).content == "e2"  # the refused edit changed nothing
            assert [(h.code, h.scope) for h in server.request_stats().rate_limited] == [(30046, "shared")]
            assert server.request_stats().invalid == 0  # a shared-scope 429 is not counted against the bot

            server.advance(10)
            _, _, young = await raw(http, server, "POST", f"/channels/{a}/messages", {"content": "young"})
            codes = [await raw(http, server, "PATCH", f"/channels/{a}/messages/{young['id']}", {"content": f"y{i}"}) for i in range(4)]
            assert [s for s, _, _ in codes] == [200] * 4  # a young message is only under the channel bucket

    run(body)


def test_interaction_token_routes_close_after_15_minutes_on_the_server_clock() -> None:
    async def body() -> None:
        async with running_bot() as w, aiohttp.ClientSession() as http:
            rec = await w.server.slash(w.alice.id, w.guild.id, w.channel_id, "ping", {})
            await rec.reply()
            app = w.server.application_id
            original = f"/webhooks/{app}/{rec.token}/messages/@original"
            status, headers, _ = await raw(http, w.server, "PATCH", original, {"content": "edited in time"})
            assert status == 200 and "X-RateLimit-Bucket" in headers
            w.server.advance(14 * 60)
            assert (await raw(http, w.server, "POST", f"/webhooks/{app}/{rec.token}", {"content": "at 14 min"}))[0] == 204
            w.server.advance(61)
            for method, path, payload in (("PATCH", original, {"content": "too late"}), ("POST", f"/webhooks/{app}/{rec.token}", {"content": "too late"})):
                status, _, data = await raw(http, w.server, method, path, payload)
                assert (status, data["code"]) == (401, 50027)
            assert rec.original is not None and rec.original.content == "edited in time"
            assert [m.content for m in rec.followups] == ["at 14 min"]

    run(body)


# ---------------------------------------------------------------------------------------------------------
# permissions


def test_missing_channel_permissions_get_50013_and_the_bot_sees_the_same_permissions() -> None:
    async def body() -> None:
        async with running_bot() as w:
            s = w.server
            quiet = w.guild.channel_ids[1]
            s.set_bot_permissions(w.channel_id, deny=ATTACH_FILES)
            channel = w.bot.get_channel(w.channel_id)
            assert isinstance(channel, discord.TextChannel)
            me = channel.guild.me
            # the overwrite reached the bot (CHANNEL_UPDATE) and its arithmetic agrees with the server's
            await s.wait_for(lambda: not channel.permissions_for(me).attach_files, what="CHANNEL_UPDATE")
            assert channel.permissions_for(me).value == s.bot_permissions(w.channel_id)
            assert channel.permissions_for(me).send_messages and not channel.permissions_for(me).administrator

            rec = await s.slash(w.alice.id, w.guild.id, w.channel_id, "perms", {})
            await rec.reply()
            assert w.seen.app_permissions == [s.bot_permissions(w.channel_id)]
            assert not discord.Permissions(w.seen.app_permissions[0]).attach_files

            await channel.send("text is fine")
            with pytest.raises(discord.Forbidden) as info:
                await channel.send("a picture", file=discord.File(io.BytesIO(png((1, 2, 3))), "p.png"))
            assert (info.value.status, info.value.code) == (403, 50013)
            assert [m.content for m in s.messages(w.channel_id)] == ["text is fine"]

            s.set_bot_permissions(w.channel_id, deny=SEND_MESSAGES)
            await s.wait_for(lambda: not channel.permissions_for(me).send_messages, what="CHANNEL_UPDATE")
            with pytest.raises(discord.Forbidden) as info:
                await channel.send("silenced")
            assert info.value.code == 50013
            s.set_bot_permissions(w.channel_id, deny=CREATE_PUBLIC_THREADS)
            with pytest.raises(discord.Forbidden) as info:
                await channel.create_thread(name="t", type=discord.ChannelType.public_thread)
            assert info.value.code == 50013
            s.set_bot_permissions(w.channel_id)  # overwrite removed: everything works again
            await channel.send("back")

            s.set_bot_permissions(quiet, deny=VIEW_CHANNEL)
            quiet_ch = w.bot.get_channel(quiet)
            assert isinstance(quiet_ch, discord.TextChannel)
            await s.wait_for(lambda: not quiet_ch.permissions_for(me).view_channel, what="CHANNEL_UPDATE")
            assert s.bot_permissions(quiet) == 0 == quiet_ch.permissions_for(me).value
            with pytest.raises(discord.Forbidden):
                await quiet_ch.send("unseen")
            # the interaction payload agrees there too
            rec = await s.slash(w.alice.id, w.guild.id, quiet, "perms", {})
            await rec.reply()
            assert w.seen.app_permissions[-1] == 0

    run(body)


def test_overwrites_set_before_the_bot_connects_arrive_in_guild_create() -> None:
    async def body() -> None:
        async with DiscordServer() as server:
            guild = server.add_guild("Club", channels=["tables"])
            server.set_bot_permissions(guild.channel_ids[0], deny=ATTACH_FILES | SEND_MESSAGES)
            bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)
            task = asyncio.create_task(bot.start("x"))
            try:
                await asyncio.wait_for(bot.wait_until_ready(), 10)
                channel = bot.get_channel(guild.channel_ids[0])
                assert isinstance(channel, discord.TextChannel)
                perms = channel.permissions_for(channel.guild.me)
                assert not perms.send_messages and not perms.attach_files and perms.view_channel
                assert perms.value == server.bot_permissions(channel.id)
            finally:
                await bot.close()
                await asyncio.wait_for(task, 5)

    run(body)


# ---------------------------------------------------------------------------------------------------------
# what the bot will use next: UPDATE_MESSAGE with files, deferred updates, follow-ups


def test_update_message_callback_replaces_picture_and_button_without_a_bot_token_request() -> None:
    async def body() -> None:
        async with running_bot() as w:
            rec = await w.server.slash(w.alice.id, w.guild.id, w.channel_id, "panel", {"where": "channel"})
            msg = await rec.reply()
            assert msg is not None and [a.filename for a in msg.attachments] == ["step0.png"]
            w.server.reset_stats()
            click = await w.server.click(w.alice.id, msg.id, "act:update:0")
            await click.reply()
            assert click.callback_type == 7 and click.original is msg
            assert msg.content == "step 1" and msg.custom_ids() == ["act:update:1"]
            assert [a.filename for a in msg.attachments] == ["step1.png"] and msg.attachments[0].data == png((0, 0, 200))
            stats = w.server.request_stats()
            assert stats.global_budget == 0 and stats.exempt == 1  # one multipart callback, nothing else

    run(body)


@pytest.mark.parametrize("where", ["dm", "ephemeral"])
def test_deferred_update_then_edit_original_edits_the_clicked_message_and_follows_up(where: str) -> None:
    async def body() -> None:
        async with running_bot() as w:
            rec = await w.server.slash(w.alice.id, w.guild.id, w.channel_id, "panel", {"where": where})
            await rec.reply()
            if where == "dm":
                panel = await w.server.wait_for_message(lambda m: m.content == "step 0", user_id=w.alice.id)
                assert panel in w.server.dms(w.alice.id)
            else:
                panel = rec.original
                assert panel is not None and panel.ephemeral
            for n in range(2):
                click = await w.server.click(w.alice.id, panel.id, f"act:defer:{n}")
                await click.wait_followups(1)
                assert click.callback_type == 6 and click.edited_ids == [panel.id]
                assert panel.content == f"step {n + 1}" and panel.custom_ids() == [f"act:defer:{n + 1}"]
                assert [a.filename for a in panel.attachments] == [f"step{n + 1}.png"]
                assert [m.content for m in click.followups] == [f"followed up {n + 1}"] and click.followups[0].ephemeral
            assert [v.content for v in panel.versions] == ["step 0", "step 1", "step 2"]
            assert w.server.request_stats().not_injected == []

    run(body)


# ---------------------------------------------------------------------------------------------------------
# gateway: heartbeats, and text Discord could deliver (issue 16 item 7)


def test_gateway_closes_with_4009_when_heartbeats_stop_and_keeps_a_heartbeating_client() -> None:
    async def client(server: DiscordServer, beat: bool, seconds: float) -> int | None:
        async with aiohttp.ClientSession() as http, http.ws_connect(server.gateway_url) as ws:
            hello = await ws.receive_json()
            interval = hello["d"]["heartbeat_interval"] / 1000
            await ws.send_json({"op": 2, "d": {"token": "x", "intents": 1, "properties": {}}})
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline and not ws.closed:
                if beat:
                    await ws.send_json({"op": 1, "d": None})
                try:
                    msg = await ws.receive(timeout=interval / 2)
                except TimeoutError:
                    continue
                if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.CLOSED):
                    break
            return ws.close_code

    async def body() -> None:
        async with DiscordServer(heartbeat_interval=0.5) as server:  # closed after 0.75 s without one
            server.add_guild("Club")
            t0 = time.monotonic()
            assert await client(server, beat=False, seconds=8) == 4009
            assert 0.7 < time.monotonic() - t0 < 4 and server.gateway.timed_out == 1
            assert server.gateway.sessions == {}  # 4009 ends the session: no RESUME
            assert await client(server, beat=True, seconds=2.0) is None  # still open when it leaves
            assert server.gateway.timed_out == 1

    run(body)


def test_issue16_lone_surrogate_in_a_string_option_arrives_as_u_fffd_and_the_session_lives_on() -> None:
    async def body() -> None:
        async with running_bot() as w:
            rec = await w.server.slash(w.alice.id, w.guild.id, w.channel_id, "echo", {"text": "a\ud800b"})
            reply = await rec.reply()
            assert reply is not None and reply.content == "3:a\ufffdb"
            # a surrogate pair written as two escapes is one character, as in any JSON parser
            rec = await w.server.slash(w.alice.id, w.guild.id, w.channel_id, "echo", {"text": "\ud83c\udc04"})
            reply = await rec.reply()
            assert reply is not None and reply.content == "1:\U0001f004"
            rec = await w.server.slash(w.alice.id, w.guild.id, w.channel_id, "ping", {})
            assert (await rec.reply()) is not None  # later commands still arrive
            assert w.seen.echoed == ["a\ufffdb", "\U0001f004"]

    run(body)


def test_enforce_nonce_returns_the_message_already_made() -> None:
    """Discord's Create Message: with ``enforce_nonce`` a nonce used by the same author in the past
    few minutes returns that message instead of creating another (how the bot posts a hand's
    result exactly once across a restart)."""
    import discord

    from devserver import DiscordServer

    async def main() -> None:
        async with DiscordServer() as server:
            guild = server.add_guild("Club", channels=["tables"])
            client = discord.Client(intents=discord.Intents.none(), guild_ready_timeout=0.1)
            task = asyncio.create_task(client.start("token"))
            await server.wait_until_ready()
            ch = await client.fetch_channel(guild.channel_ids[0])
            a = await ch.send("result of hand 1", nonce="jr1.0")  # type: ignore[union-attr]
            b = await ch.send("result of hand 1", nonce="jr1.0")  # type: ignore[union-attr]
            c = await ch.send("result of hand 2", nonce="jr1.1")  # type: ignore[union-attr]
            assert a.id == b.id != c.id
            assert [m.content for m in server.messages(guild.channel_ids[0])] == ["result of hand 1", "result of hand 2"]
            server.advance(600)  # past Discord's window the nonce may be used again
            d = await ch.send("result of hand 1", nonce="jr1.0")  # type: ignore[union-attr]
            assert d.id != a.id
            await client.close()
            task.cancel()

    asyncio.run(main())

"""The fake Discord server (devserver) driven by a tiny real discord.py bot over 127.0.0.1.

No pytest-asyncio: each test runs its own ``asyncio.run``; ``running_bot`` starts the server and the
bot and always closes both.
"""

from __future__ import annotations

import asyncio
import io
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from devserver import DiscordServer, Guild, User

TEST_TIMEOUT = 10.0


def png_bytes(color: tuple[int, int, int] = (200, 30, 30), size: tuple[int, int] = (6, 4)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, format="PNG")
    return buf.getvalue()


class Counter(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"t:(?P<n>\d+)"):
    """A stateless button: its number lives in the custom_id; a click edits the message to n+1."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"count {n}", style=discord.ButtonStyle.primary, custom_id=f"t:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f"clicked {self.n} by {interaction.user.name}", view=view)


class WindView(discord.ui.View):
    """A plain (message-bound) View: the click is routed by the message id from the send."""

    @discord.ui.select(
        custom_id="wind", placeholder="seat", options=[discord.SelectOption(label=w, value=w) for w in ("east", "south", "west", "north")]
    )
    async def choose(self, interaction: discord.Interaction[Any], select: discord.ui.Select[Any]) -> None:
        await interaction.response.defer()  # deferred update (type 6), then edit the original
        await interaction.edit_original_response(content=f"{interaction.user.name} sits {select.values[0]}")


class NameModal(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"hello {self.name.value}", ephemeral=True)


@dataclass
class BotLog:
    forbidden: list[discord.Forbidden] = field(default_factory=list)
    errors: list[BaseException] = field(default_factory=list)
    seen: list[discord.Message] = field(default_factory=list)
    late: list[discord.HTTPException] = field(default_factory=list)


def make_bot(guild_id: int, log: BotLog) -> commands.Bot:
    intents = discord.Intents.default()
    bot = commands.Bot(command_prefix="!", intents=intents, guild_ready_timeout=0.05)
    guild = discord.Object(id=guild_id)

    @app_commands.command(name="ping", description="Answer privately")
    @app_commands.describe(n="a number")
    async def ping(interaction: discord.Interaction[Any], n: int) -> None:
        await interaction.response.send_message(f"pong {n * 2}", ephemeral=True)

    @app_commands.command(name="post", description="Post a picture with a counter button")
    async def post(interaction: discord.Interaction[Any]) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(0))
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send("a hand", file=discord.File(io.BytesIO(png_bytes()), "hand.png"), view=view)
        await interaction.response.send_message("posted", ephemeral=True)

    @app_commands.command(name="invite", description="DM a player")
    async def invite(interaction: discord.Interaction[Any], player: discord.User) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await player.send(f"{interaction.user.name} invites you to a table")
        except discord.Forbidden as exc:
            log.forbidden.append(exc)
            await interaction.followup.send(f"cannot DM {player.name}", ephemeral=True)
        else:
            await interaction.followup.send(f"invited {player.name}", ephemeral=True)

    table = app_commands.Group(name="table", description="Tables")

    @table.command(name="open", description="Open a table in a private thread")
    async def table_open(
        interaction: discord.Interaction[Any], seats: app_commands.Range[int, 3, 4], rule: Literal["riichi", "sanma"] = "riichi"
    ) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        thread = await interaction.channel.create_thread(name=f"{rule} x{seats}", type=discord.ChannelType.private_thread)
        await thread.add_user(interaction.user)
        await thread.send("pick a seat", view=WindView(timeout=60))
        await interaction.response.send_message(f"opened {thread.mention}")

    @app_commands.command(name="name", description="Ask a name")
    async def name(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_modal(NameModal())

    @app_commands.command(name="later", description="Defer, follow up, edit, delete")
    async def later(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("step 1")
        second = await interaction.followup.send("step 2", wait=True)
        await second.edit(content="step 2 edited")
        await interaction.delete_original_response()

    @app_commands.command(name="slow", description="Too slow to answer")
    async def slow(interaction: discord.Interaction[Any]) -> None:
        await asyncio.sleep(0.3)
        try:
            await interaction.response.send_message("too late")
        except discord.NotFound as exc:
            log.late.append(exc)

    @app_commands.command(name="whoami", description="Global command, also in DMs")
    async def whoami(interaction: discord.Interaction[Any]) -> None:
        where = "dm" if interaction.guild is None else interaction.guild.name
        await interaction.response.send_message(f"{interaction.user.name} in {where}")

    for cmd in (ping, post, invite, table, name, later, slow):
        bot.tree.add_command(cmd, guild=guild)
    bot.tree.add_command(whoami)

    @bot.event
    async def on_message(message: discord.Message) -> None:
        log.seen.append(message)

    async def setup_hook() -> None:
        bot.add_dynamic_items(Counter)
        await bot.tree.sync(guild=guild)
        await bot.tree.sync()

    async def on_error(interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        log.errors.append(error)

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    bot.tree.on_error = on_error  # type: ignore[method-assign]
    return bot


@dataclass
class World:
    server: DiscordServer
    bot: commands.Bot
    log: BotLog
    guild: Guild
    channel_id: int
    alice: User
    bob: User
    hermit: User  # DMs closed


@asynccontextmanager
async def running_bot() -> AsyncIterator[World]:
    async with DiscordServer() as server:
        guild = server.add_guild("Jantaku Club", channels=["tables"])
        alice = server.add_user("alice", guilds=[guild.id])
        bob = server.add_user("bob", guilds=[guild.id])
        hermit = server.add_user("hermit", guilds=[guild.id], dms_open=False)
        log = BotLog()
        bot = make_bot(guild.id, log)
        task = asyncio.create_task(bot.start("devserver-token"))
        try:
            await server.wait_for_commands(["ping", "post", "invite"], guild_id=guild.id)
            await server.wait_until_ready()
            await asyncio.wait_for(bot.wait_until_ready(), 5)
            yield World(server, bot, log, guild, guild.channel_ids[0], alice, bob, hermit)
            assert server.unhandled == [], server.unhandled
            assert server.errors == [], server.errors
            assert log.errors == [], log.errors
        finally:
            await bot.close()
            try:
                await asyncio.wait_for(task, 5)
            finally:
                assert bot.is_closed()


def run(body: Callable[[World], Awaitable[None]]) -> None:
    async def main() -> None:
        async with running_bot() as world:
            await body(world)

    t0 = time.monotonic()
    asyncio.run(asyncio.wait_for(main(), TEST_TIMEOUT))
    assert time.monotonic() - t0 < TEST_TIMEOUT


# ---------------------------------------------------------------------------------------------------------


def test_login_ready_and_command_sync() -> None:
    async def body(w: World) -> None:
        assert w.bot.user is not None and w.bot.user.id == w.server.bot_user.id
        g = w.bot.get_guild(w.guild.id)
        assert g is not None and g.name == "Jantaku Club"
        assert [c.name for c in g.text_channels] == ["tables"]
        ping = w.server.command("ping", w.guild.id)
        assert ping is not None and ping.data["options"][0]["name"] == "n" and ping.data["options"][0]["type"] == 4
        # a second sync keeps the ids, as Discord does
        before = {c.name: c.id for c in w.server.state.commands.values() if c.guild_id == w.guild.id}
        synced = await w.bot.tree.sync(guild=discord.Object(id=w.guild.id))
        assert {c.name: c.id for c in synced} == before

    run(body)


def test_ping_reply_is_ephemeral_and_only_the_invoker_sees_it() -> None:
    async def body(w: World) -> None:
        rec = await w.server.slash(w.alice.id, w.guild.id, w.channel_id, "ping", {"n": 21})
        reply = await rec.reply()
        assert reply is not None and reply.content == "pong 42"
        assert rec.callback_type == 4 and rec.ephemeral and reply.ephemeral
        assert reply.visible_to == w.alice.id
        assert reply in w.server.visible_to(w.alice.id)
        assert reply not in w.server.visible_to(w.bob.id)
        assert w.server.messages(w.channel_id) == []  # not a channel message
        assert rec.latency is not None and rec.latency < 3

        # the server checks options against the synced command, as a Discord client would
        with pytest.raises(TypeError):
            await w.server.slash(w.alice.id, w.guild.id, w.channel_id, "ping", {"n": "many"})
        with pytest.raises(ValueError):
            await w.server.slash(w.alice.id, w.guild.id, w.channel_id, "ping", {})

    run(body)


def test_post_stores_attachment_and_button_then_click_edits_via_dynamic_item() -> None:
    async def body(w: World) -> None:
        rec = await w.server.slash(w.bob.id, w.guild.id, w.channel_id, "post", {})
        assert (await rec.reply()) is not None and rec.content == "posted"
        msg = await w.server.wait_for_message(lambda m: m.content == "a hand", channel_id=w.channel_id)
        assert [a.filename for a in msg.attachments] == ["hand.png"]
        att = msg.attachments[0]
        assert att.data == png_bytes() and att.content_type == "image/png" and (att.width, att.height) == (6, 4)
        assert msg.custom_ids() == ["t:0"] and msg.buttons()[0]["label"] == "count 0"
        assert msg in w.server.visible_to(w.alice.id) and msg in w.server.visible_to(w.bob.id)

        # the bot can read its attachment back through the fake CDN
        channel = w.bot.get_channel(w.channel_id)
        assert isinstance(channel, discord.TextChannel)
        fetched = await channel.fetch_message(msg.id)
        assert await fetched.attachments[0].read() == png_bytes()

        click = await w.server.click(w.alice.id, msg.id, "t:0")
        await click.reply()
        assert click.callback_type == 7 and click.original is msg
        assert msg.content == "clicked 0 by alice" and msg.custom_ids() == ["t:1"]
        assert [v.content for v in msg.versions] == ["a hand", "clicked 0 by alice"]
        assert msg.history[0].components[0]["components"][0]["custom_id"] == "t:0"
        assert msg.attachments[0].data == png_bytes()  # an edit without attachments keeps them

        click2 = await w.server.click(w.bob.id, msg.id, "t:1")
        await click2.reply()
        assert [v.content for v in msg.versions] == ["a hand", "clicked 0 by alice", "clicked 1 by bob"]
        with pytest.raises(LookupError):
            await w.server.click(w.bob.id, msg.id, "t:0")  # the old button is gone

    run(body)


def test_dm_to_user_and_forbidden_when_dms_closed() -> None:
    async def body(w: World) -> None:
        # through a command: the bot DMs bob, then fails to DM the hermit and says so privately
        rec = await w.server.slash(w.alice.id, w.guild.id, w.channel_id, "invite", {"player": w.bob.id})
        reply = await rec.reply()
        assert rec.callback_type == 5 and reply is not None and reply.content == "invited bob" and reply.ephemeral
        assert [m.content for m in w.server.dms(w.bob.id)] == ["alice invites you to a table"]
        assert w.server.dms(w.bob.id)[0] in w.server.visible_to(w.bob.id)
        assert w.server.dms(w.bob.id)[0] not in w.server.visible_to(w.alice.id)

        rec = await w.server.slash(w.alice.id, w.guild.id, w.channel_id, "invite", {"player": w.hermit})
        reply = await rec.reply()
        assert reply is not None and reply.content == "cannot DM hermit"
        assert len(w.log.forbidden) == 1 and w.log.forbidden[0].code == 50007
        assert w.server.dms(w.hermit.id) == []

        # and directly from the bot's client
        user = await w.bot.fetch_user(w.hermit.id)
        with pytest.raises(discord.Forbidden) as info:
            await user.send("hello?")
        assert info.value.status == 403 and info.value.code == 50007
        sent = await (await w.bot.fetch_user(w.bob.id)).send("second DM")
        assert w.server.dms(w.bob.id)[-1].id == sent.id

    run(body)


def test_many_concurrent_interactions() -> None:
    async def body(w: World) -> None:
        recs = await asyncio.gather(
            *(w.server.slash(w.alice.id if i % 2 else w.bob.id, w.guild.id, w.channel_id, "ping", {"n": i}) for i in range(100))
        )
        replies = await asyncio.gather(*(r.reply() for r in recs))
        assert [m.content for m in replies if m is not None] == [f"pong {2 * i}" for i in range(100)]
        assert len(w.server.ephemeral(w.alice.id)) == 50

    run(body)


def test_gateway_resume_replays_missed_events() -> None:
    async def body(w: World) -> None:
        resumed = asyncio.Event()

        async def on_resumed() -> None:
            resumed.set()

        w.bot.add_listener(on_resumed)
        await w.server.gateway_reconnect()  # op 7: the client closes and RESUMEs
        await asyncio.wait_for(resumed.wait(), 5)
        resumed.clear()

        await w.server.gateway_drop()  # the socket dies; the session stays resumable
        await w.server.say(w.bob.id, None, "sent while you were away")  # buffered, replayed on RESUME
        await asyncio.wait_for(resumed.wait(), 5)
        await w.server.wait_for(lambda: w.log.seen)
        assert [m.content for m in w.log.seen] == ["sent while you were away"]
        assert len(w.server.gateway.identify_payloads) == 1  # never re-identified

        await w.server.wait_until_ready()
        rec = await w.server.slash(w.alice.id, w.guild.id, w.channel_id, "ping", {"n": 1})
        assert (await rec.reply()) is not None and rec.content == "pong 2"

    run(body)


def test_thread_select_menu_and_deferred_update() -> None:
    async def body(w: World) -> None:
        rec = await w.server.slash(w.alice.id, w.guild.id, w.channel_id, "table open", {"seats": 4, "rule": "sanma"})
        reply = await rec.reply()
        assert reply is not None and not reply.ephemeral and reply.content.startswith("opened <#")
        thread = next(c for c in w.server.state.channels.values() if c.parent_id == w.channel_id)
        assert thread.type == 12 and thread.name == "sanma x4" and w.alice.id in thread.thread_members
        assert w.bot.get_channel(thread.id) is not None  # THREAD_CREATE reached the client
        menu = w.server.messages(thread.id)[0]
        assert menu.content == "pick a seat" and menu.custom_ids() == ["wind"]
        assert menu in w.server.visible_to(w.alice.id) and menu not in w.server.visible_to(w.bob.id)  # private

        choice = await w.server.select(w.alice.id, menu.id, "wind", ["south"])
        edited = await choice.reply()
        assert choice.callback_type == 6 and edited is menu and menu.content == "alice sits south"
        with pytest.raises(ValueError):
            await w.server.select(w.alice.id, menu.id, "wind", ["centre"])
        with pytest.raises(PermissionError):
            await w.server.click(w.bob.id, menu.id, "wind", values=["east"])  # bob cannot see the thread
        with pytest.raises(ValueError):
            await w.server.slash(w.alice.id, w.guild.id, w.channel_id, "table open", {"seats": 5})

    run(body)


def test_modal_followups_and_global_command_in_dm() -> None:
    async def body(w: World) -> None:
        rec = await w.server.slash(w.bob.id, w.guild.id, w.channel_id, "name", {})
        await rec.response()
        assert rec.callback_type == 9 and rec.modal is not None and rec.modal["title"] == "Your name"
        submitted = await w.server.submit_modal(rec, {"name": "Bob the dealer"})
        reply = await submitted.reply()
        assert reply is not None and reply.content == "hello Bob the dealer" and reply.visible_to == w.bob.id

        rec = await w.server.slash(w.alice.id, w.guild.id, w.channel_id, "later", {})
        await rec.wait_followups(2)
        await rec.wait_until(lambda r: r.original is not None and r.original.deleted)  # deleted at the end
        msgs = w.server.messages(w.channel_id, include_deleted=True)
        assert [(m.content, m.deleted) for m in msgs] == [("step 1", True), ("step 2 edited", False)]
        assert [v.content for v in msgs[1].versions] == ["step 2", "step 2 edited"]

        rec = await w.server.slash(w.alice.id, None, None, "whoami", {})
        reply = await rec.reply()
        assert reply is not None and reply.content == "alice in dm" and reply in w.server.dms(w.alice.id)

    run(body)


def test_user_messages_respect_the_message_content_intent() -> None:
    async def body(w: World) -> None:
        await w.server.say(w.alice.id, w.channel_id, "secret tiles")
        await w.server.say(w.alice.id, w.channel_id, f"{w.server.bot_user.mention} hello")
        await w.server.say(w.bob.id, None, "in a DM")
        await w.server.wait_for(lambda: len(w.log.seen) >= 3)
        assert [m.content for m in w.log.seen] == ["", f"<@{w.server.bot_user.id}> hello", "in a DM"]
        assert isinstance(w.log.seen[2].channel, discord.DMChannel)

    run(body)


def test_rate_limit_is_retried_and_late_callbacks_are_refused() -> None:
    async def body(w: World) -> None:
        w.server.inject_rate_limit("POST", r"^/channels/\d+/messages$", retry_after=0.05)
        channel = w.bot.get_channel(w.channel_id)
        assert isinstance(channel, discord.TextChannel)
        sent = await channel.send("after a 429")
        assert [r.status for r in w.server.requests if r.method == "POST" and r.path.endswith("/messages")] == [429, 200]
        assert w.server.messages(w.channel_id)[-1].id == sent.id

        w.server.callback_deadline = 0.1
        rec = await w.server.slash(w.alice.id, w.guild.id, w.channel_id, "slow", {})
        await rec.response(timeout=3)
        assert not rec.responded and rec.errors and "deadline" in rec.errors[0]
        await w.server.wait_for(lambda: w.log.late)
        assert w.log.late[0].code == 10062

    run(body)


def test_discord_limits_and_unknown_ids_are_refused_like_discord() -> None:
    async def body(w: World) -> None:
        channel = w.bot.get_channel(w.channel_id)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.HTTPException) as info:
            await channel.send("x" * 2001)
        assert info.value.code == 50035 and "2000" in str(info.value)
        with pytest.raises(discord.HTTPException) as info:
            await channel.send(" ")
        assert info.value.code == 50006
        with pytest.raises(discord.NotFound) as nf:
            await channel.fetch_message(12345)
        assert nf.value.code == 10008

        rec = await w.server.slash(w.alice.id, w.guild.id, w.channel_id, "ping", {"n": 1})
        eph = await rec.reply()
        assert eph is not None
        with pytest.raises(discord.NotFound):  # ephemeral messages are only reachable through the token
            await channel.fetch_message(eph.id)
        assert [(r[2], r[3]) for r in w.server.refused] == [(400, 50035), (400, 50006), (404, 10008), (404, 10008)]
        assert w.server.messages(w.channel_id) == []

    run(body)

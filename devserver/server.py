"""A small fake of Discord's HTTP API and gateway, served over real sockets on 127.0.0.1.

The real discord.py client talks to it after ``point_discord_py_at(server)`` (or
``server.configure_client()``). Tests act as users through the driver methods (``slash``, ``click``,
``select``, ``submit_modal``, ``say``, ``react``) and read what each user saw (``messages``, ``dms``,
``visible_to``, ``InteractionRecord``).

Discord's limits are on by default (``limits.py``, README "Discord's limits"): the global and per-route
rate limits, edits of hour-old messages, channel permissions, 15-minute interaction tokens and gateway
heartbeats; ``advance()`` moves the one server clock, ``time_scale`` shortens the rate-limit windows and
``request_stats()`` counts every request and 429. Limits: a fake, not Discord; where Discord publishes
no number the server uses the commonly observed one.

    async with DiscordServer() as server:          # start() + configure_client(); undone on exit
        guild = server.add_guild("Club", channels=["tables"])
        alice = server.add_user("alice", guilds=[guild.id])
        ...start the bot, await server.wait_until_ready()...
        rec = await server.slash(alice.id, guild.id, guild.channel_ids[0], "ping", {"n": 3})
        msg = await rec.reply()
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import mimetypes
import os
import re
import secrets
import socket
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import yarl
from aiohttp import BodyPartReader, web

from .gateway import (
    DIRECT_MESSAGE_REACTIONS,
    DIRECT_MESSAGES,
    GUILD_MEMBERS,
    GUILD_MESSAGE_REACTIONS,
    GUILD_MESSAGES,
    GUILDS,
    Gateway,
)
from .limits import (
    GLOBAL_LIMIT,
    GLOBAL_WINDOW,
    OLD_MESSAGE_AGE,
    OLD_MESSAGE_EDITS,
    TOKEN_LIFETIME,
    Buckets,
    Clock,
    RateLimitHit,
    RequestStats,
    RouteLimit,
    major_parameter,
    rate_limit_headers,
    route_limit,
    too_many_headers,
)
from .shards import Sharding
from .state import (
    ADD_REACTIONS,
    ATTACH_FILES,
    COMPONENTS_V2,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DM,
    EMBED_LINKS,
    EPHEMERAL,
    GUILD_TEXT,
    LOADING,
    MANAGE_MESSAGES,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    SUPPRESS_EMBEDS,
    VIEW_CHANNEL,
    Attachment,
    Channel,
    Command,
    Guild,
    InteractionRecord,
    Message,
    Role,
    State,
    User,
    dumps,
    iso,
    sniff_image,
)
from .validation import MAX_FILE_BYTES, check_message

log = logging.getLogger("devserver")

JSON = dict[str, Any]
T = TypeVar("T")

_NAME_RE = re.compile(r"^[-_\w]{1,32}$")


#: seconds a message's nonce is remembered with enforce_nonce (Discord: "the past few minutes")
NONCE_WINDOW = 180.0


class ApiError(Exception):
    """Raised by handlers; becomes Discord's error JSON ``{"message", "code", "errors"}``."""

    def __init__(
        self, status: int, code: int, message: str, errors: JSON | None = None, *,
        extra: JSON | None = None, headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors
        self.extra = extra or {}  # more body fields (a 429's retry_after and global)
        self.headers = headers or {}

    def response(self) -> web.Response:
        body: JSON = {"message": self.message, "code": self.code, **self.extra}
        if self.errors:
            body["errors"] = self.errors
        return json_response(body, status=self.status, headers=self.headers)


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with Content-Type exactly ``application/json`` (discord.py compares it for equality)."""
    hdrs = {"Content-Type": "application/json"}
    if headers:
        hdrs.update(headers)
    return web.Response(body=dumps(data).encode(), status=status, headers=hdrs)


def no_content() -> web.Response:
    return web.Response(status=204)


@dataclass
class Upload:
    index: int
    filename: str
    data: bytes


@dataclass
class Injection:
    method: str
    path: re.Pattern[str]
    status: int
    body: JSON
    headers: dict[str, str]
    remaining: int


@dataclass
class RequestLog:
    method: str
    path: str
    status: int
    seconds: float


def point_discord_py_at(server: DiscordServer) -> Callable[[], None]:
    """Make discord.py's REST routes and gateway use ``server``; returns a function that undoes it.

    Sets ``discord.http.Route.BASE`` (every Route, interaction callbacks and webhook follow-ups
    included, builds its URL from it) and ``DiscordWebSocket.DEFAULT_GATEWAY``. Call it before
    ``bot.start()`` and do not call ``discord.http._set_api_version`` afterwards.
    """
    import discord.gateway
    import discord.http

    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = server.base_url
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(server.gateway_url)

    def restore() -> None:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    return restore


class DiscordServer:
    """Fake Discord: state, REST routes, gateway and the test driver."""

    def __init__(
        self,
        *,
        bot_name: str = "Jantaku",
        token: str | None = None,
        heartbeat_interval: float = 41.25,
        callback_deadline: float | None = 3.0,
        echo_bot_messages: bool = True,
        host: str = "127.0.0.1",
        port: int = 0,
        time_scale: float = 1.0,
        global_rate_limit: int | None = GLOBAL_LIMIT,
        route_rate_limits: bool = True,
        old_message_edit_limit: bool = True,
        token_lifetime: float | None = TOKEN_LIFETIME,
        enforce_heartbeats: bool = True,
    ) -> None:
        """
        token: if set, REST calls and IDENTIFY must use it (else 401 / close 4004); None accepts any.
        callback_deadline: seconds the bot has to answer an interaction callback, as on Discord
            (3 s); a later callback gets 404 ``10062 Unknown interaction``. None disables the check.
        echo_bot_messages: dispatch MESSAGE_CREATE/UPDATE/DELETE for the bot's own messages too,
            as Discord does (to sessions with the message intents).

        Discord's limits are on by default (see ``limits.py``); each can be switched off alone, and a
        test that does so should say why:
        time_scale: every rate-limit window is divided by it (10: 5 sends per 0.5 s per channel, 50
            requests per 0.1 s); the numbers of requests stay Discord's.
        global_rate_limit: requests per second on the bot token (interaction endpoints exempt); None: off.
        route_rate_limits: per-route buckets (5 sends or edits per 5 s per channel, ...); False: off.
        old_message_edit_limit: 429 ``30046`` past 3 edits per 6 s per channel of messages older than
            an hour (server clock); False: off.
        token_lifetime: seconds an interaction token opens ``/webhooks/{app}/{token}`` (15 minutes;
            then 401 ``50027``); None: forever.
        enforce_heartbeats: close the gateway with 4009 when the client misses its heartbeats.
        """
        if time_scale <= 0:
            raise ValueError("time_scale must be positive")
        self.clock = Clock()
        self.state = State(bot_name=bot_name, now=self.clock.time)
        self.token = token
        self.time_scale = time_scale
        self.global_rate_limit = global_rate_limit
        self.route_rate_limits = route_rate_limits
        self.old_message_edit_limit = old_message_edit_limit
        self.token_lifetime = token_lifetime
        self._buckets = Buckets(self.clock, time_scale)
        self.stats = RequestStats()
        self.callback_deadline = callback_deadline
        self.echo_bot_messages = echo_bot_messages
        self.host = host
        self._port = port
        self.gateway = Gateway(self, heartbeat_interval=heartbeat_interval, enforce_heartbeats=enforce_heartbeats)
        #: Discord's sharding: recommended count, 4011 threshold, IDENTIFY limits (``shards.py``)
        self.sharding = Sharding(self.clock.monotonic, time_scale)
        self.unhandled: list[tuple[str, str]] = []  # (method, path) of requests no route matched
        self.errors: list[str] = []  # exceptions inside the fake itself
        # every request answered with a Discord error: (method, path, status, code, message, errors)
        self.refused: list[tuple[str, str, int, int, str, JSON | None]] = []
        self.requests: deque[RequestLog] = deque(maxlen=20000)
        self.request_count = 0
        self._injections: list[Injection] = []
        self._waiters: list[tuple[Callable[[], Any], asyncio.Future[Any]]] = []
        self._poller: asyncio.Task[None] | None = None
        self.poll_interval = 0.02
        self._runner: web.AppRunner | None = None
        self._restore: Callable[[], None] | None = None
        self._interactions_by_message: dict[int, list[InteractionRecord]] = {}
        self.app = self._build_app()

    # =======================================================================================================
    # lifecycle

    @property
    def port(self) -> int:
        if not self._port:
            raise RuntimeError("server not started")
        return self._port

    @property
    def root_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        return f"{self.root_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    @property
    def bot_user(self) -> User:
        return self.state.bot

    @property
    def application_id(self) -> int:
        return self.state.application_id

    async def start(self) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, self._port))
        self._port = sock.getsockname()[1]
        self.state.cdn_base = self.root_url
        self._runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.SockSite(self._runner, sock)
        await site.start()
        log.info("devserver listening on %s", self.root_url)

    async def stop(self) -> None:
        stats_file = os.environ.get("DEVSERVER_STATS_FILE")
        if stats_file:  # a line per server run, for reports on tests that run the server in a subprocess
            with open(stats_file, "a", encoding="utf-8") as fh:
                fh.write(f"{self.stats.summary()}\n")
        if self._restore is not None:
            self._restore()
            self._restore = None
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        for _, fut in self._waiters:
            if not fut.done():
                fut.cancel()
        self._waiters = []
        if self._poller is not None:
            self._poller.cancel()
            self._poller = None

    def configure_client(self) -> Callable[[], None]:
        """Point discord.py at this server (see ``point_discord_py_at``); undone by ``stop()``."""
        restore = point_discord_py_at(self)
        self._restore = restore
        return restore

    async def __aenter__(self) -> DiscordServer:
        await self.start()
        self.configure_client()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # =======================================================================================================
    # world building (usable before or after the bot connects)

    def add_user(
        self, username: str, *, guilds: Iterable[int] = (), dms_open: bool = True, bot: bool = False,
        global_name: str | None = None, roles: Iterable[int] = (),
    ) -> User:
        user = self.state.add_user(username, dms_open=dms_open, bot=bot, global_name=global_name)
        for gid in guilds:
            self.add_member(gid, user.id, roles=[r for r in roles if r in self.state.guilds[gid].roles])
        return user

    def add_guild(self, name: str, *, channels: Iterable[str] = ("general",), owner_id: int | None = None) -> Guild:
        guild = self.state.add_guild(name, owner_id=owner_id)
        for ch in channels:
            self.state.add_channel(guild.id, ch)
        self._later(self._announce_guild(guild))
        return guild

    def add_channel(self, guild_id: int, name: str, *, topic: str | None = None) -> Channel:
        ch = self.state.add_channel(guild_id, name, topic=topic)
        self._later(self.gateway.dispatch("CHANNEL_CREATE", self.state.channel_payload(ch), intent=GUILDS))
        return ch

    def add_role(self, guild_id: int, name: str, *, permissions: int = 0, color: int = 0) -> Role:
        role = self.state.add_role(guild_id, name, permissions=permissions, color=color)
        self._later(
            self.gateway.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild_id), "role": role.payload()}, intent=GUILDS)
        )
        return role

    def add_member(self, guild_id: int, user_id: int, *, roles: Iterable[int] = (), nick: str | None = None) -> None:
        self.state.add_member(guild_id, user_id, roles=list(roles), nick=nick)
        payload = {**self.state.member_payload(guild_id, user_id), "guild_id": str(guild_id)}
        self._later(self.gateway.dispatch("GUILD_MEMBER_ADD", payload, intent=GUILD_MEMBERS))

    def set_dms_open(self, user_id: int, open: bool) -> None:
        self.state.users[user_id].dms_open = open

    def set_bot_permissions(self, channel_id: int, *, allow: int = 0, deny: int = 0) -> None:
        """Give the bot a member overwrite in a channel (``deny=SEND_MESSAGES | ATTACH_FILES``, bits from
        ``devserver.state``); ``allow=deny=0`` removes it.

        The server enforces it (403 ``50013 Missing Permissions``, ``50001 Missing Access`` without View
        Channel), the channel's ``permission_overwrites`` show it (CHANNEL_UPDATE goes out now) and so
        does every later interaction's ``app_permissions``: what the bot computes is what is enforced.
        Threads follow their parent channel's overwrites.
        """
        ch = self.state.channels[channel_id]
        if ch.type == DM or ch.is_thread:
            raise ValueError("devserver: overwrites belong to guild channels (threads follow their parent)")
        if allow or deny:
            ch.overwrites[self.state.bot.id] = (1, allow, deny)
        else:
            ch.overwrites.pop(self.state.bot.id, None)
        self._later(self.gateway.dispatch("CHANNEL_UPDATE", self.state.channel_payload(ch), intent=GUILDS))

    def bot_permissions(self, channel_id: int) -> int:
        """The bot's permissions in a channel as the server enforces them."""
        return self.state.channel_permissions(self.state.channels[channel_id], self.state.bot.id)

    # =======================================================================================================
    # the clock and the accounting

    def advance(self, seconds: float) -> None:
        """Move the server's clock forward: messages age, interaction tokens expire, rate-limit windows
        pass (real time keeps running too). Gateway heartbeats stay on real time."""
        self.clock.advance(seconds)
        self._notify()

    def request_stats(self) -> RequestStats:
        """Every API request by route, whether it counted against the bot token's global budget, and
        every 429 returned (scope, route, injected or not). ``.summary()`` prints it on one line."""
        return self.stats

    def reset_stats(self) -> RequestStats:
        """Start counting afresh; returns the counts so far."""
        old, self.stats = self.stats, RequestStats()
        return old

    def _later(self, coro: Any) -> None:
        """Run a dispatch coroutine if the loop is running and someone is connected; else drop it."""
        if not self.gateway.sessions:
            coro.close()
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            coro.close()
            return
        loop.create_task(coro)

    async def _announce_guild(self, guild: Guild) -> None:
        for s in list(self.gateway.sessions.values()):
            if s.ready and s.receives(guild.id):
                payload = self.state.guild_payload(guild, members=s.wants(GUILD_MEMBERS), full=True)
                await s.send("GUILD_CREATE", dumps(payload))

    # =======================================================================================================
    # waiting

    def _notify(self) -> None:
        """Re-check every waiter's predicate now; wake only those that hold."""
        if not self._waiters:
            return
        waiters, self._waiters = self._waiters, []
        for predicate, fut in waiters:
            if fut.done():
                continue
            try:
                value = predicate()
            except Exception as exc:
                fut.set_exception(exc)
                continue
            if value:
                fut.set_result(value)
            else:
                self._waiters.append((predicate, fut))

    async def _poll_waiters(self) -> None:
        while self._waiters:
            await asyncio.sleep(self.poll_interval)
            self._notify()

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = 5.0, *, what: str = "condition") -> T:
        """Wait until ``predicate()`` (no arguments) is truthy and return its value.

        Checked after every change to the server's state, and every ``poll_interval`` seconds for
        predicates that look at something else (the bot's own objects, say).
        """
        value = predicate()
        if value:
            return value
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        self._waiters.append((predicate, fut))
        if self._poller is None or self._poller.done():
            self._poller = loop.create_task(self._poll_waiters())
        try:
            return cast(T, await asyncio.wait_for(fut, timeout))
        except TimeoutError:
            raise TimeoutError(f"devserver: timed out after {timeout}s waiting for {what}") from None

    async def wait_until_ready(self, timeout: float = 5.0, *, shards: int = 0) -> None:
        """Wait until a client has identified and received READY + GUILD_CREATEs; with ``shards=k``,
        until ready sessions hold every shard ``[i, k]`` (``i`` in ``0..k-1``)."""
        if not shards:
            await self.wait_for(lambda: self.gateway.ready_sessions, timeout=timeout, what="a client to IDENTIFY")
            return

        def held() -> bool:
            have = {tuple(s.shard) for s in self.gateway.ready_sessions if s.shard is not None}
            return all((i, shards) in have for i in range(shards))

        await self.wait_for(held, timeout=timeout, what=f"sessions holding shards 0..{shards - 1} of {shards}")

    def reset_session_starts(self) -> None:
        """A new day of IDENTIFYs (after a reset token: the new one): ``session_start_limit`` is full again."""
        self.sharding.reset_session_starts()

    async def wait_for_commands(self, names: Iterable[str], guild_id: int | None = None, timeout: float = 5.0) -> list[Command]:
        """Wait until the bot has synced commands with these names (guild-scoped if guild_id)."""
        wanted = list(names)

        def found() -> list[Command] | None:
            cmds = [self.state.find_command(n, guild_id) for n in wanted]
            return None if any(c is None for c in cmds) else [c for c in cmds if c is not None]

        return await self.wait_for(found, timeout=timeout, what=f"commands {wanted} (guild {guild_id})")

    async def wait_for_message(
        self,
        predicate: Callable[[Message], bool] | None = None,
        *,
        channel_id: int | None = None,
        user_id: int | None = None,
        after: int | None = None,
        timeout: float = 5.0,
    ) -> Message:
        """First message (not deleted) in scope matching ``predicate``.

        Scope: ``channel_id``'s messages, or everything ``user_id`` can see, or every message. ``after``
        keeps only ids above it (e.g. ``server.mark()`` taken before the action).
        """

        def pool() -> list[Message]:
            if channel_id is not None:
                return self.messages(channel_id)
            if user_id is not None:
                return self.visible_to(user_id)
            return [m for m in self.state.messages_by_id.values() if not m.deleted]

        def find() -> Message | None:
            for m in pool():
                if after is not None and m.id <= after:
                    continue
                if predicate is None or predicate(m):
                    return m
            return None

        return await self.wait_for(find, timeout=timeout, what="a matching message")

    def mark(self) -> int:
        """A snowflake below every message created from now on (for ``after=``)."""
        return self.state.snowflake()

    # =======================================================================================================
    # queries

    def channel(self, channel_id: int) -> Channel:
        return self.state.channels[channel_id]

    def message(self, message_id: int) -> Message:
        return self.state.messages_by_id[message_id]

    def messages(self, channel_id: int, *, include_deleted: bool = False) -> list[Message]:
        """Non-ephemeral messages of a channel (DM channels included), oldest first."""
        return [m for m in self.state.messages_by_channel.get(channel_id, []) if include_deleted or not m.deleted]

    def dm_channel_id(self, user_id: int) -> int | None:
        return self.state.dm_by_user.get(user_id)

    def dms(self, user_id: int) -> list[Message]:
        """The DM conversation between the bot and a user (both directions), oldest first."""
        cid = self.state.dm_by_user.get(user_id)
        return [] if cid is None else self.messages(cid)

    def ephemeral(self, user_id: int) -> list[Message]:
        return [m for m in self.state.ephemeral_by_user.get(user_id, []) if not m.deleted]

    def visible_to(self, user_id: int) -> list[Message]:
        """Every message a user can see: their guilds' channels and threads, their DMs, their ephemerals."""
        out: list[Message] = []
        for cid, msgs in self.state.messages_by_channel.items():
            ch = self.state.channels.get(cid)
            if ch is not None and self.state.can_see_channel(user_id, ch):
                out.extend(m for m in msgs if not m.deleted)
        out.extend(self.ephemeral(user_id))
        out.sort(key=lambda m: m.id)
        return out

    def interactions(self) -> list[InteractionRecord]:
        return list(self.state.interactions.values())

    def command(self, name: str, guild_id: int | None = None) -> Command | None:
        return self.state.find_command(name, guild_id)

    # =======================================================================================================
    # fault injection

    def inject_error(
        self, method: str, path_regex: str, *, status: int = 500, code: int = 0, message: str = "injected",
        count: int = 1, headers: dict[str, str] | None = None,
    ) -> None:
        """Answer the next ``count`` matching requests (path after /api/v10) with an error."""
        self._injections.append(
            Injection(method.upper(), re.compile(path_regex), status, {"message": message, "code": code}, headers or {}, count)
        )

    def inject_rate_limit(self, method: str, path_regex: str, *, retry_after: float = 0.05, count: int = 1, is_global: bool = False) -> None:
        """HTTP 429 for the next ``count`` matching requests (discord.py sleeps ``retry_after`` and retries)."""
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global}
        # discord.py treats a 429 without Via as a Cloudflare ban and raises instead of retrying
        headers = too_many_headers("global" if is_global else "user", retry_after)
        self._injections.append(Injection(method.upper(), re.compile(path_regex), 429, body, headers, count))

    async def gateway_reconnect(self) -> None:
        """Send op 7 RECONNECT: the client closes and RESUMEs."""
        await self.gateway.send_op(7, None)

    async def gateway_invalidate(self, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION."""
        await self.gateway.invalidate(resumable)

    async def gateway_drop(self, code: int = 4000) -> None:
        """Close every gateway socket with ``code`` (4000: the client RESUMEs)."""
        await self.gateway.drop(code)

    # =======================================================================================================
    # test driver: acting as users

    def _require_ready(self) -> None:
        if not self.gateway.ready_sessions:
            raise RuntimeError("devserver: no client connected (await server.wait_until_ready() first)")

    def _check_member(self, user_id: int, guild_id: int | None) -> None:
        if user_id not in self.state.users:
            raise LookupError(f"devserver: unknown user {user_id}")
        if guild_id is not None:
            if guild_id not in self.state.guilds:
                raise LookupError(f"devserver: unknown guild {guild_id}")
            if user_id not in self.state.guilds[guild_id].members:
                raise PermissionError(f"devserver: user {user_id} is not a member of guild {guild_id}")

    def _command_channel(self, user_id: int, guild_id: int | None, channel_id: int | None) -> Channel:
        if guild_id is None:
            dm = self.state.dm_channel(user_id)
            if channel_id is not None and channel_id != dm.id:
                raise ValueError("devserver: a command without guild_id runs in the user's DM with the bot")
            return dm
        if channel_id is None:
            raise ValueError("devserver: channel_id is required in a guild")
        ch = self.state.channels.get(channel_id)
        if ch is None or ch.guild_id != guild_id:
            raise LookupError(f"devserver: channel {channel_id} is not in guild {guild_id}")
        if not self.state.can_see_channel(user_id, ch):
            raise PermissionError(f"devserver: user {user_id} cannot see channel {channel_id}")
        return ch

    async def slash(
        self,
        user_id: int,
        guild_id: int | None,
        channel_id: int | None,
        name: str,
        options: JSON | list[JSON] | None = None,
        *,
        subcommand: str | None = None,
        group: str | None = None,
        locale: str = "en-US",
    ) -> InteractionRecord:
        """Run a slash command as ``user_id``; returns at once (await ``rec.response()``/``rec.reply()``).

        ``name`` may hold the group and subcommand: ``"table start"``, ``"admin table close"``.
        ``options`` maps option names to values (users/roles/channels as ids or records, attachments as
        ``(filename, bytes)``), checked against the synced command; a list is sent as raw option JSON.
        ``guild_id=None`` runs it in the user's DM with the bot.
        """
        self._require_ready()
        self._check_member(user_id, guild_id)
        parts = name.split()
        if len(parts) == 3:
            name, group, subcommand = parts
        elif len(parts) == 2:
            name, subcommand = parts
        channel = self._command_channel(user_id, guild_id, channel_id)
        cmd = self.state.find_command(name, guild_id)
        if cmd is None:
            known = sorted({c.name for c in self.state.commands.values() if c.guild_id in (None, guild_id)})
            raise LookupError(f"devserver: no command /{name} synced for guild {guild_id}; known: {known}")
        resolved: JSON = {}
        schema: list[JSON] = cmd.data.get("options") or []
        path = [name]
        if group is not None:
            g = next((o for o in schema if o.get("type") == 2 and o["name"] == group), None)
            if g is None:
                raise LookupError(f"devserver: /{name} has no group {group!r}")
            schema, path = g.get("options") or [], [*path, group]
        if subcommand is not None:
            s = next((o for o in schema if o.get("type") == 1 and o["name"] == subcommand), None)
            if s is None:
                raise LookupError(f"devserver: /{' '.join(path)} has no subcommand {subcommand!r}")
            schema, path = s.get("options") or [], [*path, subcommand]
        elif any(o.get("type") in (1, 2) for o in schema):
            raise ValueError(f"devserver: /{name} needs a subcommand: {[o['name'] for o in schema]}")
        opts = self._build_options(" ".join(path), schema, options or {}, guild_id, channel, resolved)
        if subcommand is not None:
            opts = [{"name": subcommand, "type": 1, "options": opts}]
        if group is not None:
            opts = [{"name": group, "type": 2, "options": opts}]
        data: JSON = {"id": str(cmd.id), "name": cmd.name, "type": 1, "options": opts}
        if cmd.guild_id is not None:
            data["guild_id"] = str(cmd.guild_id)
        if resolved:
            data["resolved"] = resolved
        return await self._start_interaction(2, user_id, guild_id, channel, data, locale=locale)

    async def autocomplete(
        self,
        user_id: int,
        guild_id: int | None,
        channel_id: int | None,
        name: str,
        options: JSON,
        focused: str,
        *,
        subcommand: str | None = None,
        locale: str = "en-US",
    ) -> InteractionRecord:
        """Send an autocomplete interaction (type 4) as a user whose Discord client is in ``locale``;
        the bot's choices land in ``rec.choices``."""
        self._require_ready()
        self._check_member(user_id, guild_id)
        if " " in name:
            name, subcommand = name.split(None, 1)
        channel = self._command_channel(user_id, guild_id, channel_id)
        cmd = self.state.find_command(name, guild_id)
        if cmd is None:
            raise LookupError(f"devserver: no command /{name}")
        schema = cmd.data.get("options") or []
        if subcommand is not None:
            schema = next(o for o in schema if o["name"] == subcommand).get("options") or []
        by_name = {o["name"]: o for o in schema}
        opts = []
        for key, value in options.items():
            spec = by_name.get(key)
            if spec is None:
                raise ValueError(f"devserver: /{name} has no option {key!r}")
            opt: JSON = {"name": key, "type": spec["type"], "value": value if key == focused else self._plain_value(value)}
            if key == focused:
                opt["focused"] = True
                opt["value"] = str(value)
            opts.append(opt)
        if subcommand is not None:
            opts = [{"name": subcommand, "type": 1, "options": opts}]
        data: JSON = {"id": str(cmd.id), "name": cmd.name, "type": 1, "options": opts}
        if cmd.guild_id is not None:
            data["guild_id"] = str(cmd.guild_id)
        return await self._start_interaction(4, user_id, guild_id, channel, data, locale=locale)

    async def click(
        self, user_id: int, message_id: int, custom_id: str, channel_id: int | None = None, *,
        values: Iterable[Any] | None = None, locale: str = "en-US",
    ) -> InteractionRecord:
        """Press a button (or choose ``values`` in a select menu) on a message, as ``user_id`` (whose
        Discord client is in ``locale``).

        Refuses what a Discord client could not do: unknown custom_id, disabled component, someone
        else's ephemeral message, a channel the user cannot see.
        """
        self._require_ready()
        msg = self.state.messages_by_id.get(message_id)
        if msg is None or msg.deleted:
            raise LookupError(f"devserver: no message {message_id}")
        if channel_id is not None and channel_id != msg.channel_id:
            raise ValueError(f"devserver: message {message_id} is in channel {msg.channel_id}, not {channel_id}")
        if msg.visible_to is not None and msg.visible_to != user_id:
            raise PermissionError(f"devserver: message {message_id} is ephemeral for user {msg.visible_to}")
        channel = self.state.channels[msg.channel_id]
        self._check_member(user_id, channel.guild_id)
        if not self.state.can_see_channel(user_id, channel):
            raise PermissionError(f"devserver: user {user_id} cannot see channel {channel.id}")
        comp = msg.component(custom_id)
        if comp is None:
            raise LookupError(f"devserver: message {message_id} has no component {custom_id!r}; it has {msg.custom_ids()}")
        if comp.get("disabled"):
            raise ValueError(f"devserver: component {custom_id!r} is disabled")
        ctype = int(comp["type"])
        data: JSON = {"custom_id": custom_id, "component_type": ctype}
        if "id" in comp:
            data["id"] = comp["id"]
        if ctype == 2:
            if values is not None:
                raise ValueError("devserver: buttons take no values")
            if comp.get("style") in (5, 6):
                raise ValueError("devserver: link/premium buttons do not create interactions")
        elif ctype in (3, 5, 6, 7, 8):
            chosen = list(values or [])
            lo, hi = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
            if not lo <= len(chosen) <= hi:
                raise ValueError(f"devserver: select {custom_id!r} takes {lo}..{hi} values, got {len(chosen)}")
            if ctype == 3:
                allowed = [o["value"] for o in comp.get("options", [])]
                bad = [v for v in chosen if v not in allowed]
                if bad:
                    raise ValueError(f"devserver: select {custom_id!r} has no options {bad}; options: {allowed}")
                data["values"] = [str(v) for v in chosen]
            else:
                resolved: JSON = {}
                kind = {5: 6, 6: 8, 7: 9, 8: 7}[ctype]  # select type -> option type
                data["values"] = [str(self._resolve(kind, v, channel.guild_id, resolved)) for v in chosen]
                data["resolved"] = resolved
        else:
            raise ValueError(f"devserver: component type {ctype} does not create interactions")
        return await self._start_interaction(3, user_id, channel.guild_id, channel, data, message=msg, locale=locale)

    async def select(
        self, user_id: int, message_id: int, custom_id: str, values: Iterable[Any], channel_id: int | None = None, *, locale: str = "en-US"
    ) -> InteractionRecord:
        """Choose ``values`` in a select menu (``click`` with values)."""
        return await self.click(user_id, message_id, custom_id, channel_id, values=list(values), locale=locale)

    async def submit_modal(self, rec: InteractionRecord, values: dict[str, Any], *, user_id: int | None = None) -> InteractionRecord:
        """Submit the modal the bot opened in answer to ``rec`` (text inputs by custom_id)."""
        self._require_ready()
        modal = rec.modal
        if modal is None:
            raise ValueError(f"devserver: {rec!r} did not open a modal")
        uid = rec.user_id if user_id is None else user_id

        def answer(comp: JSON) -> JSON:
            cid = comp.get("custom_id")
            out: JSON = {"type": comp["type"], "custom_id": cid}
            if "id" in comp:
                out["id"] = comp["id"]
            value = values.get(cid) if cid is not None else None
            if comp["type"] == 4:
                if value is None and comp.get("required", True):
                    raise ValueError(f"devserver: modal field {cid!r} is required")
                out["value"] = "" if value is None else str(value)
            else:
                out["values"] = [str(v) for v in (value or [])]
            return out

        comps = []
        for top in modal.get("components", []):
            if top.get("type") == 1:
                comps.append({"type": 1, "components": [answer(c) for c in top.get("components", [])]})
            elif top.get("type") == 18:
                comps.append({"type": 18, "id": top.get("id"), "component": answer(top["component"])})
        unknown = set(values) - {c.get("custom_id") for c in _walk_modal(modal.get("components", []))}
        if unknown:
            raise ValueError(f"devserver: modal has no fields {sorted(unknown)}")
        data = {"custom_id": modal["custom_id"], "components": comps}
        channel = self.state.channels[rec.channel_id]
        msg = self.state.messages_by_id.get(rec.message_id) if rec.message_id else None
        return await self._start_interaction(5, uid, rec.guild_id, channel, data, message=msg)

    async def say(self, user_id: int, channel_id: int | None, content: str, *, reply_to: int | None = None) -> Message:
        """Post a message as a user (``channel_id=None``: in their DM with the bot); dispatches MESSAGE_CREATE."""
        if channel_id is None:
            ch = self.state.dm_channel(user_id)
        else:
            ch = self.state.channels[channel_id]
            self._check_member(user_id, ch.guild_id)
            if not self.state.can_see_channel(user_id, ch):
                raise PermissionError(f"devserver: user {user_id} cannot see channel {channel_id}")
        msg = Message(id=self.state.snowflake(), channel_id=ch.id, guild_id=ch.guild_id, author_id=user_id, content=content)
        if reply_to is not None:
            msg.type = 19
            msg.message_reference = {"type": 0, "message_id": str(reply_to), "channel_id": str(ch.id)}
            if ch.guild_id:
                msg.message_reference["guild_id"] = str(ch.guild_id)
        self.state.store_message(msg)
        await self._announce_create(msg)
        self._notify()
        return msg

    async def react(self, user_id: int, message_id: int, emoji: str) -> None:
        """Add a unicode-emoji reaction as a user; dispatches MESSAGE_REACTION_ADD."""
        msg = self.state.messages_by_id[message_id]
        msg.reactions.setdefault(emoji, set()).add(user_id)
        payload: JSON = {
            "user_id": str(user_id), "channel_id": str(msg.channel_id), "message_id": str(msg.id),
            "emoji": {"id": None, "name": emoji}, "burst": False, "type": 0, "message_author_id": str(msg.author_id),
        }
        if msg.guild_id:
            payload["guild_id"] = str(msg.guild_id)
            payload["member"] = self.state.member_payload(msg.guild_id, user_id)
        intent = GUILD_MESSAGE_REACTIONS if msg.guild_id else DIRECT_MESSAGE_REACTIONS
        await self.gateway.dispatch("MESSAGE_REACTION_ADD", payload, intent=intent)
        self._notify()

    # --- building interactions --------------------------------------------------------------------------

    def _plain_value(self, value: Any) -> Any:
        if isinstance(value, (User, Role, Channel)):
            return str(value.id)
        return value

    def _resolve(self, opt_type: int, value: Any, guild_id: int | None, resolved: JSON) -> int:
        """Record a user/role/channel/mentionable in ``resolved``; returns its id."""
        st = self.state
        vid = int(value.id) if isinstance(value, (User, Role, Channel)) else int(value)
        if opt_type in (6, 9) and vid in st.users:
            resolved.setdefault("users", {})[str(vid)] = st.user_payload(vid)
            if guild_id is not None and vid in st.guilds[guild_id].members:
                member = st.member_payload(guild_id, vid, with_user=False, permissions=True)
                resolved.setdefault("members", {})[str(vid)] = member
            return vid
        if opt_type in (8, 9) and guild_id is not None and vid in st.guilds[guild_id].roles:
            resolved.setdefault("roles", {})[str(vid)] = st.guilds[guild_id].roles[vid].payload()
            return vid
        if opt_type == 7 and vid in st.channels:
            ch = st.channels[vid]
            data = {
                "id": str(vid), "name": ch.name, "type": ch.type, "permissions": str(st.member_permissions(guild_id, st.bot.id)) if guild_id else "0",
            }
            if ch.parent_id:
                data["parent_id"] = str(ch.parent_id)
            if ch.is_thread:
                data["thread_metadata"] = st.channel_payload(ch)["thread_metadata"]
            resolved.setdefault("channels", {})[str(vid)] = data
            return vid
        kind = {6: "user", 7: "channel", 8: "role", 9: "user or role"}[opt_type]
        raise LookupError(f"devserver: unknown {kind} {vid}")

    def _option_value(self, cmd: str, spec: JSON, value: Any, guild_id: int | None, channel: Channel, resolved: JSON) -> Any:
        t, name = int(spec["type"]), spec["name"]
        where = f"/{cmd} {name}"
        if t == 3:
            if not isinstance(value, str):
                raise TypeError(f"devserver: {where} is a string option, got {value!r}")
            if not int(spec.get("min_length", 0)) <= len(value) <= int(spec.get("max_length", 6000)):
                raise ValueError(f"devserver: {where}: length {len(value)} out of range")
            out: Any = value
        elif t == 4:
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"devserver: {where} is an integer option, got {value!r}")
            out = value
        elif t == 5:
            if not isinstance(value, bool):
                raise TypeError(f"devserver: {where} is a boolean option, got {value!r}")
            out = value
        elif t == 10:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"devserver: {where} is a number option, got {value!r}")
            out = value
        elif t in (6, 7, 8, 9):
            vid = self._resolve(t, value, guild_id, resolved)
            if t == 7 and spec.get("channel_types") and self.state.channels[vid].type not in spec["channel_types"]:
                raise ValueError(f"devserver: {where} accepts channel types {spec['channel_types']}")
            out = str(vid)
        elif t == 11:
            if isinstance(value, Attachment):
                att = value
            else:
                filename, data = value
                ctype, w, h = sniff_image(data)
                att = Attachment(id=self.state.snowflake(), filename=filename, data=bytes(data), content_type=ctype, width=w, height=h)
            self.state.attach_url(channel.id, att)
            resolved.setdefault("attachments", {})[str(att.id)] = att.payload()
            out = str(att.id)
        else:
            raise ValueError(f"devserver: {where}: unsupported option type {t}")
        if t in (4, 10):
            if "min_value" in spec and out < spec["min_value"] or "max_value" in spec and out > spec["max_value"]:
                raise ValueError(f"devserver: {where}={out} is outside {spec.get('min_value')}..{spec.get('max_value')}")
        choices = spec.get("choices")
        if choices and out not in [c["value"] for c in choices]:
            raise ValueError(f"devserver: {where}={out!r} is not one of {[c['value'] for c in choices]}")
        return out

    def _build_options(
        self, cmd: str, schema: list[JSON], given: JSON | list[JSON], guild_id: int | None, channel: Channel, resolved: JSON
    ) -> list[JSON]:
        if isinstance(given, list):  # raw option JSON: send as is, but fill ``resolved``
            for opt in _walk_options(given):
                if opt.get("type") in (6, 7, 8, 9) and "value" in opt:
                    self._resolve(int(opt["type"]), opt["value"], guild_id, resolved)
            return given
        by_name = {o["name"]: o for o in schema}
        out = []
        for key, value in given.items():
            spec = by_name.get(key)
            if spec is None:
                raise ValueError(f"devserver: /{cmd} has no option {key!r}; options: {list(by_name)}")
            out.append({"name": key, "type": spec["type"], "value": self._option_value(cmd, spec, value, guild_id, channel, resolved)})
        missing = [o["name"] for o in schema if o.get("required") and o["name"] not in given]
        if missing:
            raise ValueError(f"devserver: /{cmd} is missing required options {missing}")
        return out

    async def _start_interaction(
        self, type: int, user_id: int, guild_id: int | None, channel: Channel, data: JSON, *,
        message: Message | None = None, locale: str = "en-US",
    ) -> InteractionRecord:
        st = self.state
        rec = InteractionRecord(
            self, id=st.snowflake(), token=f"devtoken.{secrets.token_urlsafe(24)}", type=type, user_id=user_id,
            guild_id=guild_id, channel_id=channel.id, data=data, message_id=message.id if message else None,
        )
        st.interactions[rec.id] = rec
        st.interactions_by_token[rec.token] = rec
        if message is not None:
            self._interactions_by_message.setdefault(message.id, []).append(rec)
        payload: JSON = {
            "id": str(rec.id),
            "application_id": str(st.application_id),
            "type": type,
            "data": data,
            "token": rec.token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": {**st.channel_payload(channel)},
            "locale": locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": MAX_FILE_BYTES,
        }
        if guild_id is not None:
            guild = st.guilds[guild_id]
            payload["guild_id"] = str(guild_id)
            payload["guild"] = {"id": str(guild_id), "locale": guild.locale, "features": []}
            payload["guild_locale"] = guild.locale
            # member.permissions and app_permissions: in this channel, overwrites included (Discord's docs)
            in_channel = str(st.channel_permissions(channel, user_id))
            payload["member"] = {**st.member_payload(guild_id, user_id), "permissions": in_channel}
            payload["channel"]["permissions"] = in_channel
            payload["app_permissions"] = str(st.channel_permissions(channel, st.bot.id))
            payload["authorizing_integration_owners"] = {"0": str(guild_id)}
            payload["context"] = 0
        else:
            payload["user"] = st.user_payload(user_id)
            payload["app_permissions"] = str(st.channel_permissions(channel, st.bot.id))
            payload["authorizing_integration_owners"] = {"0": str(guild_id or 0)}
            payload["context"] = 1
        if message is not None:
            payload["message"] = st.message_payload(message)
        rec.created = self.clock.monotonic()
        sent = await self.gateway.dispatch("INTERACTION_CREATE", payload)
        if not sent:
            held = "a guild's shard" if guild_id is not None else "shard 0 (DMs)"
            raise RuntimeError(f"devserver: no client connected to receive the interaction (no ready session holds {held})")
        rec.shards = [s.shard for s in sent]  # the sessions' [shard_id, num_shards] it went to (None: unsharded)
        self._notify()
        return rec

    # =======================================================================================================
    # HTTP application

    def _build_app(self) -> web.Application:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        r = app.router
        api = r"/api/v{version:\d+}"
        routes: list[tuple[str, str, Callable[[web.Request], Any]]] = [
            ("GET", "/gateway", self._gateway_info),
            ("GET", "/gateway/bot", self._gateway_info),
            ("GET", "/users/@me", self._get_me),
            ("PATCH", "/users/@me", self._get_me),
            ("GET", "/users/{user_id}", self._get_user),
            ("POST", "/users/@me/channels", self._create_dm),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("GET", "/applications/{app_id}/commands", self._list_commands),
            ("PUT", "/applications/{app_id}/commands", self._put_commands),
            ("POST", "/applications/{app_id}/commands", self._post_command),
            ("GET", "/applications/{app_id}/commands/{command_id}", self._get_command),
            ("PATCH", "/applications/{app_id}/commands/{command_id}", self._patch_command),
            ("DELETE", "/applications/{app_id}/commands/{command_id}", self._delete_command),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self._list_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self._put_commands),
            ("POST", "/applications/{app_id}/guilds/{guild_id}/commands", self._post_command),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", self._get_command),
            ("PATCH", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", self._patch_command),
            ("DELETE", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", self._delete_command),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("PATCH", "/channels/{channel_id}", self._patch_channel),
            ("DELETE", "/channels/{channel_id}", self._delete_channel),
            ("GET", "/channels/{channel_id}/messages", self._list_messages),
            ("POST", "/channels/{channel_id}/messages", self._post_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._patch_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message),
            ("POST", "/channels/{channel_id}/messages/bulk-delete", self._bulk_delete),
            ("POST", "/channels/{channel_id}/typing", self._typing),
            ("POST", "/channels/{channel_id}/threads", self._create_thread),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._create_thread),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._add_thread_member),
            ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self._remove_thread_member),
            ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/{user_id}", self._put_reaction),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/{user_id}", self._delete_reaction),
            ("GET", "/guilds/{guild_id}", self._get_guild),
            ("GET", "/guilds/{guild_id}/channels", self._get_guild_channels),
            ("GET", "/guilds/{guild_id}/roles", self._get_guild_roles),
            ("GET", "/guilds/{guild_id}/members", self._list_members),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member),
            ("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self._add_member_role),
            ("DELETE", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self._remove_member_role),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._interaction_callback),
            ("POST", "/webhooks/{app_id}/{token}", self._webhook_execute),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_get),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_patch),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_delete),
        ]
        for method, path, handler in routes:
            r.add_route(method, api + path, handler)
        r.add_get("/gateway", self.gateway.handle)
        r.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn)
        r.add_route("*", "/{tail:.*}", self._not_found)
        return app

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
        t0 = time.monotonic()
        self.request_count += 1
        path = request.path
        api_path = re.sub(r"^/api/v\d+", "", path)
        is_api = path.startswith("/api/")
        route = f"{request.method} {self._route_template(request, api_path)}"
        response: web.StreamResponse | None = None
        limit_headers: dict[str, str] = {}
        injected = self._take_injection(request.method, api_path) if is_api else None
        if is_api:
            exempt = self._interaction_endpoint(request, api_path)
            self.stats.count(route, on_global=not exempt)
        if injected is not None:
            response = json_response(injected.body, status=injected.status, headers=injected.headers)
        elif (self.token is not None or self.sharding.token_reset) and is_api and not self._auth_ok(request, api_path):
            response = json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        elif is_api:
            response, limit_headers = self._rate_limit(request, route, exempt)
        if response is None:
            try:
                response = await handler(request)
            except ApiError as exc:
                if exc.status != 429:  # a 429 is retried, not refused: request_stats() keeps those
                    self.refused.append((request.method, api_path, exc.status, exc.code, exc.message, exc.errors))
                token = request.match_info.get("token")
                rec = self.state.interactions_by_token.get(token) if token else None
                if rec is not None and exc.code not in (10062, 40060) and exc.status != 429:  # 10062/40060: recorded already
                    rec.errors.append(f"{request.method} {api_path.split('/')[-1] or api_path} refused: {exc.code} {exc.message} {exc.errors or ''}".rstrip())
                    self._notify()
                response = exc.response()
            except web.HTTPException:
                raise
            except Exception as exc:
                log.exception("devserver: error handling %s %s", request.method, path)
                self.errors.append(f"{request.method} {path}: {exc!r}")
                # 400, not 500: discord.py retries 5xx for ~15 s before giving up
                response = json_response({"message": f"devserver internal error: {exc!r}", "code": 0}, status=400)
        if limit_headers and not response.prepared:
            for key, value in limit_headers.items():
                response.headers.setdefault(key, value)
        if response.status == 429 and is_api:
            self._record_429(request, route, api_path, response, injected=injected is not None)
        if is_api and (response.status in (401, 403) or (response.status == 429 and response.headers.get("X-RateLimit-Scope") != "shared")):
            self.stats.invalid += 1
        self.requests.append(RequestLog(request.method, api_path, response.status, time.monotonic() - t0))
        return response

    @staticmethod
    def _route_template(request: web.Request, api_path: str) -> str:
        """The route as Discord's docs write it: ``/channels/{channel_id}/messages``."""
        resource = request.match_info.route.resource
        canonical = resource.canonical if resource is not None else api_path
        if canonical == "/{tail}":
            return api_path  # no route: keep the path
        return re.sub(r"^/api/v\{version\}", "", canonical)

    def _interaction_endpoint(self, request: web.Request, api_path: str) -> bool:
        """The callback and the routes an interaction token opens: exempt from the global limit."""
        if not api_path.startswith(("/interactions/", "/webhooks/")):
            return False
        return request.match_info.get("token") in self.state.interactions_by_token

    def _rate_limit(self, request: web.Request, route: str, exempt: bool) -> tuple[web.Response | None, dict[str, str]]:
        """Take the request from the global budget and its route's bucket: (a 429 or None, headers)."""
        if self.global_rate_limit is not None and not exempt:
            kind = RouteLimit("global", self.global_rate_limit, GLOBAL_WINDOW)
            v = self._buckets.take(kind, "bot-token")
            if not v.allowed:
                body = {"message": "You are being rate limited.", "retry_after": round(v.retry_after, 3), "global": True}
                return json_response(body, status=429, headers=too_many_headers("global", v.retry_after)), {}
        if not self.route_rate_limits:
            return None, {}
        method, template = route.split(" ", 1)
        kind = route_limit(method, template)
        v = self._buckets.take(kind, major_parameter(dict(request.match_info)))
        headers = rate_limit_headers(kind, v)
        if not v.allowed:
            body = {"message": "You are being rate limited.", "retry_after": round(v.retry_after, 3), "global": False}
            return json_response(body, status=429, headers={**headers, **too_many_headers("user", v.retry_after)}), headers
        return None, headers

    def _record_429(self, request: web.Request, route: str, api_path: str, response: web.StreamResponse, *, injected: bool) -> None:
        body: JSON = {}
        if isinstance(response, web.Response) and response.body is not None:
            with contextlib.suppress(ValueError, TypeError):
                body = json.loads(bytes(cast(bytes, response.body)))
        self.stats.record_429(
            RateLimitHit(
                method=request.method, route=route, path=api_path,
                scope=response.headers.get("X-RateLimit-Scope", "user"),
                retry_after=float(body.get("retry_after") or 0.0), injected=injected,
                code=body.get("code") if isinstance(body.get("code"), int) and body.get("code") else None,
            )
        )

    def _check_old_edit(self, msg: Message) -> None:
        """Edits of messages older than an hour: 3 per 6 s per channel, then 429 ``30046`` (scope shared)."""
        if not self.old_message_edit_limit:
            return
        if self.clock.time() - msg.created_at.timestamp() < OLD_MESSAGE_AGE:
            return
        v = self._buckets.take(OLD_MESSAGE_EDITS, f"channel:{msg.channel_id}")
        if not v.allowed:
            raise ApiError(
                429, 30046, "Maximum number of edits to messages older than 1 hour reached. Try again later",
                extra={"retry_after": round(v.retry_after, 3), "global": False},
                headers=too_many_headers("shared", v.retry_after),
            )

    def _require(self, ch: Channel, needed: int) -> None:
        """403 unless the bot holds ``needed`` in guild channel ``ch`` (a DM's limits are its own: 50007)."""
        if ch.type == DM:
            return
        have = self.state.channel_permissions(ch, self.state.bot.id)
        if not have & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        if needed & ~have:
            raise ApiError(403, 50013, "Missing Permissions")

    def _auth_ok(self, request: web.Request, api_path: str) -> bool:
        if api_path.startswith(("/interactions/", "/webhooks/")):
            return True  # authorised by the interaction token in the path
        if self.sharding.token_reset:
            return False  # the session start budget ran out: Discord reset the token
        return request.headers.get("Authorization") == f"Bot {self.token}"

    def _take_injection(self, method: str, api_path: str) -> Injection | None:
        for inj in self._injections:
            if inj.remaining > 0 and inj.method in (method, "*") and inj.path.search(api_path):
                inj.remaining -= 1
                if inj.remaining == 0:
                    self._injections.remove(inj)
                return inj
        return None

    async def _not_found(self, request: web.Request) -> web.Response:
        log.warning("devserver: no route for %s %s", request.method, request.path_qs)
        self.unhandled.append((request.method, request.path))
        return json_response({"message": "404: Not Found", "code": 0}, status=404)

    # --- request helpers ----------------------------------------------------------------------------------

    async def _read_body(self, request: web.Request) -> tuple[Any, dict[int, Upload]]:
        """JSON body, or multipart ``payload_json`` + ``files[n]`` parts."""
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            payload: Any = {}
            files: dict[int, Upload] = {}
            while True:
                part = await reader.next()
                if part is None:
                    break
                if not isinstance(part, BodyPartReader):
                    continue
                name = part.name or ""
                if name == "payload_json":
                    payload = json.loads(await part.text())
                elif name.startswith("files[") and name.endswith("]"):
                    idx = int(name[6:-1])
                    data = bytes(await part.read(decode=False))
                    if len(data) > MAX_FILE_BYTES:
                        raise ApiError(413, 40005, "Request entity too large")
                    files[idx] = Upload(idx, part.filename or f"file{idx}", data)
                elif name == "file":
                    data = bytes(await part.read(decode=False))
                    files[len(files)] = Upload(len(files), part.filename or "file", data)
                else:
                    payload[name] = await part.text()
            return payload, files
        if not request.can_read_body:
            return {}, {}
        text = await request.text()
        if not text:
            return {}, {}
        try:
            return json.loads(text), {}
        except ValueError:
            raise ApiError(400, 50109, "The request body contains invalid JSON.") from None

    def _channel(self, request: web.Request) -> Channel:
        cid = _int(request.match_info["channel_id"], 10003, "Unknown Channel")
        ch = self.state.channels.get(cid)
        if ch is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return ch

    def _channel_message(self, ch: Channel, raw_id: str) -> Message:
        mid = _int(raw_id, 10008, "Unknown Message")
        msg = self.state.messages_by_id.get(mid)
        if msg is None or msg.deleted or msg.channel_id != ch.id or msg.visible_to is not None:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    def _guild(self, request: web.Request) -> Guild:
        gid = _int(request.match_info["guild_id"], 10004, "Unknown Guild")
        guild = self.state.guilds.get(gid)
        if guild is None or self.state.bot.id not in guild.members:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    def _check_app(self, request: web.Request) -> None:
        if request.match_info.get("app_id") != str(self.state.application_id):
            raise ApiError(404, 10002, "Unknown Application")

    def _make_attachment(self, up: Upload, meta: JSON | None = None) -> Attachment:
        ctype, w, h = sniff_image(up.data)
        filename = str((meta or {}).get("filename") or up.filename)
        if ctype is None:
            ctype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        return Attachment(
            id=self.state.snowflake(), filename=filename, data=up.data, content_type=ctype,
            description=(meta or {}).get("description"), width=w, height=h,
        )

    def _attachments(self, body: JSON, files: dict[int, Upload], existing: list[Attachment]) -> list[Attachment]:
        """Final attachment list: kept existing ones + new uploads, as ``body['attachments']`` says."""
        meta_list = body.get("attachments")
        if meta_list is None:
            return [*existing, *(self._make_attachment(files[i]) for i in sorted(files))]
        by_id = {a.id: a for a in existing}
        out: list[Attachment] = []
        used: set[int] = set()
        for i, meta in enumerate(meta_list):
            try:
                aid = int(meta.get("id"))
            except (TypeError, ValueError):
                raise ApiError(400, 50035, "Invalid Form Body", {"attachments": {str(i): {"id": _e("Invalid id")}}}) from None
            if aid in by_id:
                out.append(by_id[aid])
            elif aid in files:
                out.append(self._make_attachment(files[aid], meta))
                used.add(aid)
            else:
                raise ApiError(
                    400, 50035, "Invalid Form Body",
                    {"attachments": {str(i): {"_errors": [{"code": "ATTACHMENT_NOT_FOUND", "message": f"Unknown attachment {aid}"}]}}},
                )
        out.extend(self._make_attachment(files[i]) for i in sorted(files) if i not in used)
        return out

    def _fix_embeds(self, embeds: list[JSON], attachments: list[Attachment]) -> list[JSON]:
        """Echo embeds as Discord does: ``type: rich`` and ``attachment://name`` made into the file's URL."""
        by_name = {a.filename: a for a in attachments}
        out = []
        for e in embeds:
            e = {"type": "rich", **e}
            for key in ("image", "thumbnail"):
                url = (e.get(key) or {}).get("url", "")
                if isinstance(url, str) and url.startswith("attachment://"):
                    att = by_name.get(url[len("attachment://"):])
                    if att is not None:
                        e[key] = {**e[key], "url": att.url, "proxy_url": att.url}
                        if att.width is not None:
                            e[key].update(width=att.width, height=att.height)
            out.append(e)
        return out

    def _new_message(self, ch: Channel, body: JSON, files: dict[int, Upload], *, author_id: int, **extra: Any) -> Message:
        if not isinstance(body, dict):
            raise ApiError(400, 50035, "Invalid Form Body")
        content = body.get("content") or ""
        embeds = body.get("embeds") or []
        components = body.get("components") or []
        flags = int(body.get("flags") or 0)
        attachments = self._attachments(body, files, [])
        problem = check_message(
            content=str(content), embeds=embeds, components=components, attachment_count=len(attachments),
            flags=flags, sticker_ids=body.get("sticker_ids"), poll=body.get("poll"),
        )
        if problem:
            raise ApiError(400, problem[0], problem[1], problem[2])
        msg = Message(
            id=self.state.snowflake(), channel_id=ch.id, guild_id=ch.guild_id, author_id=author_id, content=str(content),
            components=components, attachments=attachments, flags=flags, tts=bool(body.get("tts")),
            nonce=body.get("nonce"), **extra,
        )
        for a in attachments:
            self.state.attach_url(ch.id, a)
        msg.embeds = self._fix_embeds(embeds, attachments)
        return msg

    def _apply_edit(self, msg: Message, body: JSON, files: dict[int, Upload]) -> None:
        """Apply a PATCH body to a message, keeping the previous state in ``msg.history``."""
        if not isinstance(body, dict):
            raise ApiError(400, 50035, "Invalid Form Body")
        content = msg.content if "content" not in body else str(body["content"] or "")
        embeds = msg.embeds if "embeds" not in body else (body["embeds"] or [])
        components = msg.components if "components" not in body else (body["components"] or [])
        flags = msg.flags & ~LOADING
        if body.get("flags") is not None:
            keep = SUPPRESS_EMBEDS | COMPONENTS_V2
            flags = (flags & ~keep) | (int(body["flags"]) & keep) | (msg.flags & COMPONENTS_V2)
        attachments = self._attachments(body, files, msg.attachments) if ("attachments" in body or files) else msg.attachments
        problem = check_message(
            content=content, embeds=embeds, components=components, attachment_count=len(attachments), flags=flags,
        )
        if problem:
            raise ApiError(400, problem[0], problem[1], problem[2])
        if not msg.loading:  # filling in a deferred "thinking" message is not an edit
            msg.history.append(msg.snapshot())
            msg.edited_at = iso(self.mark())  # the server's clock
        for a in attachments:
            self.state.attach_url(msg.channel_id, a)
        msg.content, msg.components, msg.attachments, msg.flags = content, components, attachments, flags
        msg.embeds = self._fix_embeds(embeds, attachments) if "embeds" in body else embeds
        for rec in self._interactions_by_message.get(msg.id, []):
            if rec.callback_type == 6:
                rec._acted_after_callback += 1

    # --- announcing over the gateway -------------------------------------------------------------------------

    def _gateway_message(self, msg: Message) -> tuple[JSON, JSON, int]:
        payload = self.state.message_payload(msg)
        if msg.guild_id is not None and msg.author_id in self.state.guilds[msg.guild_id].members:
            payload["member"] = self.state.member_payload(msg.guild_id, msg.author_id, with_user=False)
        intent = GUILD_MESSAGES if msg.guild_id is not None else DIRECT_MESSAGES
        stripped = payload
        mentioned = any(int(m["id"]) == self.state.bot.id for m in payload["mentions"])
        if msg.guild_id is not None and msg.author_id != self.state.bot.id and not mentioned:
            stripped = {**payload, "content": "", "embeds": [], "attachments": [], "components": []}
        return payload, stripped, intent

    async def _announce_create(self, msg: Message) -> None:
        if msg.visible_to is not None or (msg.author_id == self.state.bot.id and not self.echo_bot_messages):
            return
        payload, stripped, intent = self._gateway_message(msg)
        await self.gateway.dispatch("MESSAGE_CREATE", payload, intent=intent, without_content=stripped)

    async def _announce_update(self, msg: Message) -> None:
        if msg.visible_to is not None or (msg.author_id == self.state.bot.id and not self.echo_bot_messages):
            return
        payload, stripped, intent = self._gateway_message(msg)
        await self.gateway.dispatch("MESSAGE_UPDATE", payload, intent=intent, without_content=stripped)

    async def _announce_delete(self, msg: Message) -> None:
        if msg.visible_to is not None:
            return
        payload: JSON = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
        if msg.guild_id is not None:
            payload["guild_id"] = str(msg.guild_id)
        await self.gateway.dispatch(
            "MESSAGE_DELETE", payload, intent=GUILD_MESSAGES if msg.guild_id is not None else DIRECT_MESSAGES
        )

    # --- routes: gateway, users, application ------------------------------------------------------------------

    async def _gateway_info(self, request: web.Request) -> web.Response:
        if not request.path.endswith("/bot"):
            return json_response({"url": self.gateway_url})
        st = self.state
        guilds = sum(1 for g in st.guilds.values() if st.bot.id in g.members)
        return json_response(
            {
                "url": self.gateway_url,
                "shards": self.sharding.recommended_shards(guilds),
                "session_start_limit": self.sharding.start_limit(),
            }
        )

    async def _get_me(self, request: web.Request) -> web.Response:
        return json_response({**self.state.bot.payload(), "verified": True, "mfa_enabled": False, "locale": "en-US"})

    async def _get_user(self, request: web.Request) -> web.Response:
        uid = _int(request.match_info["user_id"], 10013, "Unknown User")
        if uid not in self.state.users:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(self.state.user_payload(uid))

    async def _create_dm(self, request: web.Request) -> web.Response:
        body, _ = await self._read_body(request)
        try:
            uid = int(body.get("recipient_id"))
        except (TypeError, ValueError):
            raise ApiError(400, 50035, "Invalid Form Body", {"recipient_id": _e("This field is required")}) from None
        if uid not in self.state.users or uid == self.state.bot.id:
            raise ApiError(400, 50033, "Invalid Recipient(s)")
        return json_response(self.state.channel_payload(self.state.dm_channel(uid)))

    async def _get_application(self, request: web.Request) -> web.Response:
        st = self.state
        return json_response(
            {
                "id": str(st.application_id),
                "name": st.bot.username,
                "description": "devserver application",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": st.owner.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": st.bot.payload(),
                "summary": "",
                "rpc_origins": [],
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(st.guilds),
            }
        )

    # --- routes: application commands --------------------------------------------------------------------------

    def _command_scope(self, request: web.Request) -> int | None:
        self._check_app(request)
        raw = request.match_info.get("guild_id")
        if raw is None:
            return None
        return self._guild(request).id

    def _command_payload(self, cmd: Command) -> JSON:
        return cmd.data

    def _validate_command(self, item: JSON, index: int) -> None:
        errors: JSON = {}
        t = int(item.get("type", 1))
        name = item.get("name")
        if not isinstance(name, str) or not (_NAME_RE.match(name) if t == 1 else 1 <= len(name) <= 32):
            errors["name"] = _e("Invalid command name")
        elif t == 1 and name != name.lower():
            errors["name"] = _e("Command names must be lower case")
        if t == 1 and not 1 <= len(item.get("description") or "") <= 100:
            errors["description"] = _e("Must be between 1 and 100 in length.")
        options = item.get("options") or []
        if len(options) > 25:
            errors["options"] = _e("Must be 25 or fewer in length.")
        for opt in _walk_options(options):
            if not _NAME_RE.match(str(opt.get("name", ""))) or str(opt.get("name")) != str(opt.get("name")).lower():
                errors.setdefault("options", {})[str(opt.get("name"))] = _e("Invalid option name")
            if len(opt.get("choices") or []) > 25:
                errors.setdefault("options", {})[str(opt.get("name"))] = _e("Too many choices")
        seen_optional = False
        for opt in options:
            if opt.get("type") in (1, 2):
                continue
            if opt.get("required"):
                if seen_optional:
                    errors.setdefault("options", {})["_errors"] = [
                        {"code": "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "message": "Required options must be placed before non-required options"}
                    ]
            else:
                seen_optional = True
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", {str(index): errors})

    def _upsert_command(self, item: JSON, guild_id: int | None) -> Command:
        st = self.state
        t = int(item.get("type", 1))
        existing = next(
            (c for c in st.commands.values() if c.guild_id == guild_id and c.name == item["name"] and c.type == t), None
        )
        cid = existing.id if existing is not None else st.snowflake()
        data: JSON = {
            "default_member_permissions": None,
            "nsfw": False,
            "description": "",
            "options": [],
            **item,
            "id": str(cid),
            "application_id": str(st.application_id),
            "type": t,
            "version": str(st.snowflake()),
        }
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        else:
            data.setdefault("dm_permission", True)
        cmd = Command(id=cid, application_id=st.application_id, guild_id=guild_id, data=data)
        st.commands[cid] = cmd
        return cmd

    async def _list_commands(self, request: web.Request) -> web.Response:
        gid = self._command_scope(request)
        return json_response([c.data for c in self.state.commands.values() if c.guild_id == gid])

    async def _put_commands(self, request: web.Request) -> web.Response:
        gid = self._command_scope(request)
        body, _ = await self._read_body(request)
        if not isinstance(body, list):
            raise ApiError(400, 50035, "Invalid Form Body")
        if len(body) > 100:
            raise ApiError(400, 30032, "Maximum number of application commands reached (100)")
        for i, item in enumerate(body):
            self._validate_command(item, i)
        keep = [self._upsert_command(item, gid) for item in body]
        keep_ids = {c.id for c in keep}
        for cid in [c.id for c in self.state.commands.values() if c.guild_id == gid and c.id not in keep_ids]:
            del self.state.commands[cid]
        self._notify()
        return json_response([c.data for c in keep])

    async def _post_command(self, request: web.Request) -> web.Response:
        gid = self._command_scope(request)
        body, _ = await self._read_body(request)
        self._validate_command(body, 0)
        cmd = self._upsert_command(body, gid)
        self._notify()
        return json_response(cmd.data, status=201)

    def _command_from(self, request: web.Request) -> Command:
        gid = self._command_scope(request)
        cid = _int(request.match_info["command_id"], 10063, "Unknown application command")
        cmd = self.state.commands.get(cid)
        if cmd is None or cmd.guild_id != gid:
            raise ApiError(404, 10063, "Unknown application command")
        return cmd

    async def _get_command(self, request: web.Request) -> web.Response:
        return json_response(self._command_from(request).data)

    async def _patch_command(self, request: web.Request) -> web.Response:
        cmd = self._command_from(request)
        body, _ = await self._read_body(request)
        cmd.data.update({k: v for k, v in body.items() if k not in ("id", "application_id", "guild_id")})
        cmd.data["version"] = str(self.state.snowflake())
        self._notify()
        return json_response(cmd.data)

    async def _delete_command(self, request: web.Request) -> web.Response:
        cmd = self._command_from(request)
        del self.state.commands[cmd.id]
        self._notify()
        return no_content()

    # --- routes: channels and messages --------------------------------------------------------------------------

    async def _get_channel(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        self._require(ch, 0)
        return json_response(self.state.channel_payload(ch))

    async def _patch_channel(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        body, _ = await self._read_body(request)
        if ch.type == DM:
            raise ApiError(403, 50003, "Cannot execute action on a DM channel")
        for key in ("name", "topic", "archived", "locked", "invitable", "auto_archive_duration", "position"):
            if key in body:
                setattr(ch, key, body[key])
        payload = self.state.channel_payload(ch)
        event = "THREAD_UPDATE" if ch.is_thread else "CHANNEL_UPDATE"
        await self.gateway.dispatch(event, payload, intent=GUILDS)
        self._notify()
        return json_response(payload)

    async def _delete_channel(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        payload = self.state.channel_payload(ch)
        if ch.type == DM:
            return json_response(payload)  # "closing" a DM: nothing to forget here
        guild = self.state.guilds[ch.guild_id or 0]
        del self.state.channels[ch.id]
        if ch.id in guild.channel_ids:
            guild.channel_ids.remove(ch.id)
        for m in self.state.messages_by_channel.get(ch.id, []):
            m.deleted = True
        if ch.is_thread:
            await self.gateway.dispatch(
                "THREAD_DELETE",
                {"id": str(ch.id), "guild_id": str(ch.guild_id), "parent_id": str(ch.parent_id), "type": ch.type},
                intent=GUILDS,
            )
        else:
            await self.gateway.dispatch("CHANNEL_DELETE", payload, intent=GUILDS)
        self._notify()
        return json_response(payload)

    async def _list_messages(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        self._require(ch, READ_MESSAGE_HISTORY)
        q = request.query
        limit = max(1, min(100, int(q.get("limit", 50))))
        msgs = self.messages(ch.id)
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])]
            msgs = msgs[:limit]
        if "around" in q:
            around = int(q["around"])
            older = [m for m in msgs if m.id <= around][-(limit // 2 + limit % 2):]
            newer = [m for m in msgs if m.id > around][: limit // 2]
            msgs = older + newer
        msgs = msgs[-limit:]
        return json_response([self.state.message_payload(m) for m in reversed(msgs)])

    async def _post_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        body, files = await self._read_body(request)
        st = self.state
        if ch.type == DM:
            user = st.users[ch.recipient_id or 0]
            if not user.dms_open or user.bot:
                raise ApiError(403, 50007, "Cannot send messages to this user")
        needed = SEND_MESSAGES_IN_THREADS if ch.is_thread else SEND_MESSAGES
        if files or (isinstance(body, dict) and body.get("attachments")):
            needed |= ATTACH_FILES
        if isinstance(body, dict) and body.get("embeds"):
            needed |= EMBED_LINKS
        if isinstance(body, dict) and body.get("message_reference"):
            needed |= READ_MESSAGE_HISTORY
        self._require(ch, needed)
        if ch.is_thread:
            if ch.locked:
                raise ApiError(403, 50083, "Thread is archived")
            if ch.archived:
                ch.archived = False
        nonce = body.get("nonce") if isinstance(body, dict) else None
        if nonce is not None and body.get("enforce_nonce"):
            # Discord: with enforce_nonce, a nonce already used by the same author in the past few
            # minutes returns that message instead of creating another
            for old in reversed(self.messages(ch.id)):
                if old.created_at.timestamp() < self.clock.time() - NONCE_WINDOW:
                    break
                if old.nonce is not None and str(old.nonce) == str(nonce) and old.author_id == st.bot.id:
                    return json_response(st.message_payload(old))
        msg = self._new_message(ch, body, files, author_id=st.bot.id)
        ref = body.get("message_reference")
        if ref:
            target = st.messages_by_id.get(int(ref.get("message_id") or 0))
            if (target is None or target.deleted) and ref.get("fail_if_not_exists", True):
                raise ApiError(
                    400, 50035, "Invalid Form Body",
                    {"message_reference": {"_errors": [{"code": "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "message": "Unknown message"}]}},
                )
            msg.message_reference = {
                "type": int(ref.get("type", 0)), "message_id": str(ref.get("message_id")),
                "channel_id": str(ref.get("channel_id") or ch.id),
                **({"guild_id": str(ch.guild_id)} if ch.guild_id else {}),
            }
            msg.type = 19
        st.store_message(msg)
        await self._announce_create(msg)
        self._notify()
        return json_response(st.message_payload(msg))

    async def _get_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        self._require(ch, READ_MESSAGE_HISTORY)
        return json_response(self.state.message_payload(self._channel_message(ch, request.match_info["message_id"])))

    async def _patch_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        msg = self._channel_message(ch, request.match_info["message_id"])
        body, files = await self._read_body(request)
        if msg.author_id != self.state.bot.id:
            changes = set(body) - {"flags"}
            if changes:
                raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        new_embeds = isinstance(body, dict) and bool(body.get("embeds"))
        self._require(ch, (ATTACH_FILES if files else 0) | (EMBED_LINKS if new_embeds else 0))
        self._check_old_edit(msg)
        self._apply_edit(msg, body, files)
        await self._announce_update(msg)
        self._notify()
        return json_response(self.state.message_payload(msg))

    async def _delete_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        msg = self._channel_message(ch, request.match_info["message_id"])
        if msg.author_id != self.state.bot.id:
            self._require(ch, MANAGE_MESSAGES)
        else:
            self._require(ch, 0)
        msg.deleted = True
        await self._announce_delete(msg)
        self._notify()
        return no_content()

    async def _bulk_delete(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        body, _ = await self._read_body(request)
        for raw in body.get("messages", []):
            msg = self.state.messages_by_id.get(int(raw))
            if msg is not None and msg.channel_id == ch.id and not msg.deleted:
                msg.deleted = True
                await self._announce_delete(msg)
        self._notify()
        return no_content()

    async def _typing(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        self._require(ch, SEND_MESSAGES_IN_THREADS if ch.is_thread else SEND_MESSAGES)
        return no_content()

    async def _create_thread(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        if parent.type != GUILD_TEXT or parent.guild_id is None:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        body, _ = await self._read_body(request)
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise ApiError(400, 50035, "Invalid Form Body", {"name": _e("Must be between 1 and 100 in length.")})
        st = self.state
        raw_mid = request.match_info.get("message_id")
        private = raw_mid is None and int(body.get("type") or PRIVATE_THREAD) == PRIVATE_THREAD
        self._require(parent, CREATE_PRIVATE_THREADS if private else CREATE_PUBLIC_THREADS)
        if raw_mid is not None:  # thread from a message: Discord gives it the message's id
            starter = self._channel_message(parent, raw_mid)
            if starter.id in st.channels:
                raise ApiError(400, 160004, "A thread has already been created for this message")
            tid, ttype = starter.id, PUBLIC_THREAD
        else:
            tid, ttype = st.snowflake(), int(body.get("type") or PRIVATE_THREAD)
        ch = Channel(
            id=tid, type=ttype, name=name, guild_id=parent.guild_id, parent_id=parent.id, owner_id=st.bot.id,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440), invitable=bool(body.get("invitable", True)),
            thread_members={st.bot.id},
        )
        st.channels[ch.id] = ch
        st.messages_by_channel[ch.id] = []
        st.guilds[parent.guild_id].channel_ids.append(ch.id)
        payload = st.channel_payload(ch)
        await self.gateway.dispatch("THREAD_CREATE", {**payload, "newly_created": True}, intent=GUILDS)
        self._notify()
        return json_response(payload, status=201)

    def _thread(self, request: web.Request) -> tuple[Channel, int]:
        ch = self._channel(request)
        if not ch.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        raw = request.match_info["user_id"]
        uid = self.state.bot.id if raw == "@me" else _int(raw, 10013, "Unknown User")
        if uid not in self.state.users:
            raise ApiError(404, 10013, "Unknown User")
        return ch, uid

    async def _add_thread_member(self, request: web.Request) -> web.Response:
        ch, uid = self._thread(request)
        self._require(ch, SEND_MESSAGES_IN_THREADS)
        ch.thread_members.add(uid)
        self._notify()
        return no_content()

    async def _remove_thread_member(self, request: web.Request) -> web.Response:
        ch, uid = self._thread(request)
        ch.thread_members.discard(uid)
        self._notify()
        return no_content()

    async def _put_reaction(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        msg = self._channel_message(ch, request.match_info["message_id"])
        if request.match_info["user_id"] != "@me":
            raise ApiError(404, 0, "404: Not Found")
        self._require(ch, ADD_REACTIONS | READ_MESSAGE_HISTORY)
        msg.reactions.setdefault(request.match_info["emoji"], set()).add(self.state.bot.id)
        self._notify()
        return no_content()

    async def _delete_reaction(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        msg = self._channel_message(ch, request.match_info["message_id"])
        raw = request.match_info["user_id"]
        uid = self.state.bot.id if raw == "@me" else int(raw)
        msg.reactions.get(request.match_info["emoji"], set()).discard(uid)
        self._notify()
        return no_content()

    # --- routes: guilds ------------------------------------------------------------------------------------------

    async def _get_guild(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        payload = self.state.guild_payload(guild, members=False)
        if request.query.get("with_counts") in ("1", "true", "True"):
            payload["approximate_member_count"] = len(guild.members)
            payload["approximate_presence_count"] = 0
        return json_response(payload)

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        chans = [self.state.channels[c] for c in guild.channel_ids]
        return json_response([self.state.channel_payload(c) for c in chans if not c.is_thread])

    async def _get_guild_roles(self, request: web.Request) -> web.Response:
        return json_response([r.payload() for r in self._guild(request).roles.values()])

    async def _list_members(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        limit = max(1, min(1000, int(request.query.get("limit", 1))))
        after = int(request.query.get("after", 0))
        uids = sorted(u for u in guild.members if u > after)[:limit]
        return json_response([self.state.member_payload(guild.id, u) for u in uids])

    def _member_of(self, request: web.Request) -> tuple[Guild, int]:
        guild = self._guild(request)
        uid = _int(request.match_info["user_id"], 10007, "Unknown Member")
        if uid not in guild.members:
            raise ApiError(404, 10007, "Unknown Member")
        return guild, uid

    async def _get_member(self, request: web.Request) -> web.Response:
        guild, uid = self._member_of(request)
        return json_response(self.state.member_payload(guild.id, uid))

    async def _add_member_role(self, request: web.Request) -> web.Response:
        guild, uid = self._member_of(request)
        rid = _int(request.match_info["role_id"], 10011, "Unknown Role")
        if rid not in guild.roles:
            raise ApiError(404, 10011, "Unknown Role")
        roles = guild.members[uid].roles
        if rid not in roles:
            roles.append(rid)
        await self._announce_member_update(guild, uid)
        return no_content()

    async def _remove_member_role(self, request: web.Request) -> web.Response:
        guild, uid = self._member_of(request)
        rid = _int(request.match_info["role_id"], 10011, "Unknown Role")
        roles = guild.members[uid].roles
        if rid in roles:
            roles.remove(rid)
        await self._announce_member_update(guild, uid)
        return no_content()

    async def _announce_member_update(self, guild: Guild, uid: int) -> None:
        payload = {**self.state.member_payload(guild.id, uid), "guild_id": str(guild.id)}
        await self.gateway.dispatch("GUILD_MEMBER_UPDATE", payload, intent=GUILD_MEMBERS)
        self._notify()

    # --- routes: interactions and webhooks -------------------------------------------------------------------

    async def _interaction_callback(self, request: web.Request) -> web.Response:
        st = self.state
        rec = st.interactions_by_token.get(request.match_info["token"])
        if rec is None or str(rec.id) != request.match_info["interaction_id"]:
            raise ApiError(404, 10062, "Unknown interaction")
        body, files = await self._read_body(request)
        if rec.callback_type is not None:
            rec.errors.append("callback after the interaction was already acknowledged")
            self._notify()
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        waited = self.clock.monotonic() - rec.created
        if self.callback_deadline is not None and waited > self.callback_deadline:
            rec.errors.append(f"callback after {waited:.2f}s (deadline {self.callback_deadline}s)")
            self._notify()
            raise ApiError(404, 10062, "Unknown interaction")
        ctype = int(body.get("type", 0))
        data = body.get("data") or {}
        channel = st.channels[rec.channel_id]
        message: Message | None = None
        if ctype == 1:
            pass
        elif ctype in (4, 5):
            if rec.type not in (2, 3, 5):
                raise ApiError(400, 50035, "Invalid Form Body", {"type": _e("Invalid interaction response type")})
            flags = int(data.get("flags") or 0)
            common: JSON = {
                "webhook_id": st.application_id, "application_id": st.application_id, "interaction_id": rec.id,
                "type": 20 if rec.type == 2 else 0,
            }
            if ctype == 4:
                message = self._new_message(channel, data, files, author_id=st.bot.id, **common)
            else:
                message = Message(
                    id=st.snowflake(), channel_id=channel.id, guild_id=channel.guild_id, author_id=st.bot.id,
                    flags=(flags & EPHEMERAL) | LOADING, **common,
                )
            if flags & EPHEMERAL:
                message.flags |= EPHEMERAL
                message.visible_to = rec.user_id
            rec.ephemeral = bool(flags & EPHEMERAL)
            rec.original_id = message.id
            rec.sent_ids.append(message.id)
            st.store_message(message)
        elif ctype in (6, 7):
            if rec.type not in (3, 5) or rec.message_id is None:
                raise ApiError(400, 50035, "Invalid Form Body", {"type": _e("Interaction has no message to update")})
            message = st.messages_by_id[rec.message_id]
            rec.original_id = message.id
            rec.ephemeral = message.ephemeral
            if ctype == 7:
                self._apply_edit(message, data, files)
                rec.edited_ids.append(message.id)
        elif ctype == 8:
            if rec.type != 4:
                raise ApiError(400, 50035, "Invalid Form Body", {"type": _e("Not an autocomplete interaction")})
            rec.choices = list(data.get("choices") or [])
        elif ctype == 9:
            if rec.type == 5:
                raise ApiError(400, 50035, "Invalid Form Body", {"type": _e("Cannot open a modal from a modal")})
            rec.modal = data
        else:
            raise ApiError(400, 50035, "Invalid Form Body", {"type": _e(f"Unknown interaction response type {ctype}")})
        rec.callback_type = ctype
        rec.callback_payload = body
        rec.responded_at = self.clock.monotonic()
        if message is not None and ctype in (4, 5):
            await self._announce_create(message)
        elif message is not None and ctype == 7:
            await self._announce_update(message)
        self._notify()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return no_content()
        result: JSON = {
            "interaction": {
                "id": str(rec.id),
                "type": rec.type,
                "response_message_loading": ctype == 5,
                "response_message_ephemeral": rec.ephemeral,
            },
        }
        if message is not None:
            result["interaction"]["response_message_id"] = str(message.id)
            result["resource"] = {"type": ctype, "message": st.message_payload(message)}
        else:
            result["resource"] = {"type": ctype}
        return json_response(result)

    def _webhook_interaction(self, request: web.Request) -> InteractionRecord:
        self._check_app(request)
        rec = self.state.interactions_by_token.get(request.match_info["token"])
        if rec is None or rec.callback_type is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        if self.token_lifetime is not None and self.clock.monotonic() - rec.created > self.token_lifetime:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return rec

    def _webhook_message(self, rec: InteractionRecord, raw: str) -> Message:
        if raw == "@original":
            msg = rec.original
        else:
            mid = _int(raw, 10008, "Unknown Message")
            msg = self.state.messages_by_id.get(mid) if mid in rec.sent_ids or mid == rec.original_id else None
        if msg is None or msg.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    async def _webhook_execute(self, request: web.Request) -> web.Response:
        rec = self._webhook_interaction(request)
        st = self.state
        body, files = await self._read_body(request)
        original = rec.original
        if rec.callback_type == 5 and original is not None and original.loading and not rec._first_followup_done:
            # the first follow-up after a deferred response fills in the "thinking" message
            rec._first_followup_done = True
            self._apply_edit(original, body, files)
            msg = original
            announce = self._announce_update
        else:
            channel = st.channels[rec.channel_id]
            msg = self._new_message(
                channel, body, files, author_id=st.bot.id, webhook_id=st.application_id,
                application_id=st.application_id, interaction_id=rec.id,
            )
            if msg.flags & EPHEMERAL:
                msg.visible_to = rec.user_id
            st.store_message(msg)
            announce = self._announce_create
        rec._first_followup_done = True
        rec.sent_ids.append(msg.id)
        rec.followup_ids.append(msg.id)
        rec._acted_after_callback += 1
        await announce(msg)
        self._notify()
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(st.message_payload(msg))
        return no_content()

    async def _webhook_get(self, request: web.Request) -> web.Response:
        rec = self._webhook_interaction(request)
        return json_response(self.state.message_payload(self._webhook_message(rec, request.match_info["message_id"])))

    async def _webhook_patch(self, request: web.Request) -> web.Response:
        rec = self._webhook_interaction(request)
        msg = self._webhook_message(rec, request.match_info["message_id"])
        body, files = await self._read_body(request)
        self._check_old_edit(msg)
        self._apply_edit(msg, body, files)
        if msg.id not in rec.sent_ids and msg.id not in rec.edited_ids:
            rec.edited_ids.append(msg.id)
        rec._acted_after_callback += 1
        await self._announce_update(msg)
        self._notify()
        return json_response(self.state.message_payload(msg))

    async def _webhook_delete(self, request: web.Request) -> web.Response:
        rec = self._webhook_interaction(request)
        msg = self._webhook_message(rec, request.match_info["message_id"])
        msg.deleted = True
        rec._acted_after_callback += 1
        await self._announce_delete(msg)
        self._notify()
        return no_content()

    # --- CDN ---------------------------------------------------------------------------------------------------

    async def _cdn(self, request: web.Request) -> web.Response:
        aid = _int(request.match_info["attachment_id"], 0, "404: Not Found")
        att = self.state.attachments.get(aid)
        if att is None:
            return json_response({"message": "404: Not Found", "code": 0}, status=404)
        return web.Response(body=att.data, headers={"Content-Type": att.content_type or "application/octet-stream"})


# ---------------------------------------------------------------------------------------------------------
# helpers


def _int(raw: str, code: int, message: str) -> int:
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise ApiError(404, code, message) from None


def _e(message: str) -> JSON:
    return {"_errors": [{"code": "BASE_TYPE_INVALID", "message": message}]}


def _walk_options(options: list[JSON]) -> Iterable[JSON]:
    for opt in options:
        yield opt
        yield from _walk_options(opt.get("options") or [])


def _walk_modal(components: list[JSON]) -> Iterable[JSON]:
    for comp in components:
        yield comp
        yield from _walk_modal(comp.get("components") or [])
        if isinstance(comp.get("component"), dict):
            yield from _walk_modal([comp["component"]])

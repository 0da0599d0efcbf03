"""What the fake Discord server remembers: users, guilds, channels, messages, commands, interactions.

Plain records plus the functions that turn them into Discord's JSON shapes (v10), and the permission
arithmetic (roles, then channel overwrites) both the server's checks and the payloads use. The HTTP/gateway
side lives in ``server.py``; nothing here touches sockets.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from .limits import Clock

_T = TypeVar("_T")

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1420070400000
SPREAD = 2520  # lcm(1..10): guild ids cycle through the shards of any count up to 10

# Message flags
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
COMPONENTS_V2 = 1 << 15

# Permission bits
ADMINISTRATOR = 1 << 3
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
SEND_TTS_MESSAGES = 1 << 12
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 53) - 1
DEFAULT_MEMBER_PERMISSIONS = (
    ADD_REACTIONS | VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS | CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
)
# the bot's managed role: what the README's invite link grants (no Administrator, so channel
# overwrites apply to it as on Discord), plus managing its own threads and messages
BOT_PERMISSIONS = DEFAULT_MEMBER_PERMISSIONS | MANAGE_MESSAGES | MANAGE_THREADS | CREATE_PRIVATE_THREADS
# app_permissions in the bot's DMs: Discord's DM permissions (receiving-and-responding.mdx: ATTACH_FILES,
# EMBED_LINKS, MENTION_EVERYONE and, in the bot's own DMs, USE_EXTERNAL_EMOJIS)
DM_APP_PERMISSIONS = (
    ADD_REACTIONS | VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
    | MENTION_EVERYONE | USE_EXTERNAL_EMOJIS | USE_APPLICATION_COMMANDS
)

# Channel types
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (10, PUBLIC_THREAD, PRIVATE_THREAD)

_SURROGATE = re.compile("[\ud800-\udfff]")
_MENTION_RE = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION_RE = re.compile(r"<@&(\d+)>")


class Snowflakes:
    """Time-based, strictly increasing snowflake ids (so ``created_at`` looks right in discord.py).

    ``now`` gives epoch seconds: the server's clock, so a message's age follows ``server.advance()``.
    """

    def __init__(self, now: Callable[[], float] = time.time) -> None:
        self._last = 0
        self._now = now

    def __call__(self) -> int:
        value = (int(self._now() * 1000) - DISCORD_EPOCH_MS) << 22
        if value <= self._last:
            value = self._last + 1
        self._last = value
        return value

    def spread(self, n: int) -> int:
        """The ``n``-th guild's id: its timestamp (the bits from 22 up, which Discord's sharding
        formula reads) is the latest millisecond ≤ now that is ``n`` modulo 2520, so guild ``n``
        lands on shard ``n % k`` for every shard count ``k`` ≤ 10 (2520 = lcm(1..10)), however fast
        the guilds are made. Dated up to 2.5 s back; the worker bits (17-21) are 1 so the id never
        meets one from ``__call__`` (worker 0)."""
        now_ms = int(self._now() * 1000) - DISCORD_EPOCH_MS
        stamp = now_ms - (now_ms - n) % SPREAD
        return (stamp << 22) | (1 << 17) | (n % 4096)


def iso(snowflake_or_none: int | None = None) -> str:
    """ISO-8601 timestamp of a snowflake (or of now)."""
    if snowflake_or_none is None:
        dt = _dt.datetime.now(_dt.UTC)
    else:
        dt = _dt.datetime.fromtimestamp(((snowflake_or_none >> 22) + DISCORD_EPOCH_MS) / 1000, _dt.UTC)
    return dt.isoformat()


def sniff_image(data: bytes) -> tuple[str | None, int | None, int | None]:
    """(content type, width, height) from the first bytes of an image, if recognisable."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return "image/png", int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:3] == b"\xff\xd8\xff":
        return "image/jpeg", None, None
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        return "image/gif", int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp", None, None
    return None, None, None


def valid_unicode(text: str) -> str:
    """``text`` as Discord could deliver it: surrogate pairs joined, lone surrogates made U+FFFD.

    Discord sends valid UTF-8 JSON; a lone surrogate (which only Python strings can hold) would reach
    the client as an escape that strict parsers (orjson, which discord.py uses when installed) refuse.
    """
    if not _SURROGATE.search(text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def dumps(data: Any) -> str:
    """JSON text for the wire: UTF-8 characters as they are, never a lone surrogate."""
    return valid_unicode(json.dumps(data, ensure_ascii=False))


# ---------------------------------------------------------------------------------------------------------
# Records


@dataclass
class User:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    dms_open: bool = True
    avatar: str | None = None

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": self.avatar,
            "public_flags": 0,
            "flags": 0,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int = 0
    position: int = 0
    color: int = 0
    hoist: bool = False
    mentionable: bool = False
    managed: bool = False

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": self.color,
            "colors": {"primary_color": self.color, "secondary_color": None, "tertiary_color": None},
            "hoist": self.hoist,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": self.mentionable,
            "flags": 0,
        }


@dataclass
class Member:
    user_id: int
    guild_id: int
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso)


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    locale: str = "en-US"

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]


@dataclass
class Channel:
    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    position: int = 0
    parent_id: int | None = None
    topic: str | None = None
    recipient_id: int | None = None  # DM channels
    owner_id: int | None = None  # threads
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    invitable: bool = True
    thread_members: set[int] = field(default_factory=set)
    last_message_id: int | None = None
    message_count: int = 0
    # permission overwrites by role or member id: (type 0 role / 1 member, allow, deny)
    overwrites: dict[int, tuple[int, int, int]] = field(default_factory=dict)

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes = field(repr=False)
    content_type: str | None = None
    description: str | None = None
    width: int | None = None
    height: int | None = None
    url: str = ""

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        if self.width is not None and self.height is not None:
            data["width"] = self.width
            data["height"] = self.height
        if self.description is not None:
            data["description"] = self.description
        return data


@dataclass
class MessageVersion:
    """One state of a message; ``Message.history`` keeps the states before each edit."""

    content: str
    embeds: list[JSON]
    components: list[JSON]
    attachments: list[Attachment]
    flags: int
    edited_at: str | None


def iter_components(components: list[JSON]) -> Iterator[JSON]:
    """Every component, depth first: action rows, v2 containers/sections/labels and their children."""
    for comp in components:
        yield comp
        if isinstance(comp.get("components"), list):
            yield from iter_components(comp["components"])
        for key in ("accessory", "component"):
            child = comp.get(key)
            if isinstance(child, dict):
                yield from iter_components([child])


@dataclass(repr=False)
class Message:
    id: int
    channel_id: int
    author_id: int
    guild_id: int | None = None
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    tts: bool = False
    nonce: str | int | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_id: int | None = None
    visible_to: int | None = None  # ephemeral: the only user who sees it
    message_reference: JSON | None = None
    edited_at: str | None = None
    deleted: bool = False
    history: list[MessageVersion] = field(default_factory=list)
    reactions: dict[str, set[int]] = field(default_factory=dict)

    def __repr__(self) -> str:
        extra = " ephemeral" if self.ephemeral else ""
        extra += " deleted" if self.deleted else ""
        extra += f" edits={len(self.history)}" if self.history else ""
        extra += f" files={[a.filename for a in self.attachments]}" if self.attachments else ""
        extra += f" custom_ids={self.custom_ids()}" if self.components else ""
        return f"<Message id={self.id} channel={self.channel_id} author={self.author_id}{extra} content={self.content[:60]!r}>"

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def created_at(self) -> _dt.datetime:
        return _dt.datetime.fromtimestamp(((self.id >> 22) + DISCORD_EPOCH_MS) / 1000, _dt.UTC)

    def snapshot(self) -> MessageVersion:
        return MessageVersion(
            content=self.content,
            embeds=list(self.embeds),
            components=list(self.components),
            attachments=list(self.attachments),
            flags=self.flags,
            edited_at=self.edited_at,
        )

    @property
    def versions(self) -> list[MessageVersion]:
        """Every state the message has had, oldest first, the current one last."""
        return [*self.history, self.snapshot()]

    # --- component helpers for tests -------------------------------------------------------------------
    def all_components(self) -> list[JSON]:
        return list(iter_components(self.components))

    def component(self, custom_id: str) -> JSON | None:
        for comp in iter_components(self.components):
            if comp.get("custom_id") == custom_id:
                return comp
        return None

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in iter_components(self.components) if "custom_id" in c]

    def buttons(self) -> list[JSON]:
        return [c for c in iter_components(self.components) if c.get("type") == 2]

    @property
    def text(self) -> str:
        """Content, embed text and v2 text displays joined by newlines: handy for ``in`` assertions."""
        parts = [self.content] if self.content else []
        for e in self.embeds:
            for key in ("title", "description"):
                if e.get(key):
                    parts.append(str(e[key]))
            for f in e.get("fields", []):
                parts.append(f"{f.get('name', '')}: {f.get('value', '')}")
            if e.get("footer", {}).get("text"):
                parts.append(e["footer"]["text"])
        for comp in iter_components(self.components):
            if comp.get("type") == 10 and comp.get("content"):
                parts.append(comp["content"])
        return "\n".join(parts)

    def attachment(self, filename: str) -> Attachment | None:
        return next((a for a in self.attachments if a.filename == filename), None)


@dataclass
class Command:
    id: int
    application_id: int
    guild_id: int | None
    data: JSON  # what the bot sent, plus the ids we added

    @property
    def name(self) -> str:
        return str(self.data["name"])

    @property
    def type(self) -> int:
        return int(self.data.get("type", 1))


class Host(Protocol):
    """What an interaction record asks of the server that holds it (``server.DiscordServer``), named here so
    that this module does not import the server back."""

    state: State
    clock: Clock

    async def wait_for(
        self, predicate: Callable[[], _T | None], timeout: float = 5.0, *, what: str = "condition"
    ) -> _T: ...


class InteractionFailed(Exception):
    """The user would have seen "This interaction failed": the bot's callback was refused."""


class InteractionRecord:
    """One interaction a test started, and everything the bot did with it.

    ``await rec.response()`` waits for the callback (any type); ``await rec.reply()`` waits until the user
    can see something (a message, a filled-in deferred message, an edit, a follow-up, a modal).
    """

    def __init__(
        self,
        server: Host,
        *,
        id: int,
        token: str,
        type: int,
        user_id: int,
        guild_id: int | None,
        channel_id: int,
        data: JSON,
        message_id: int | None = None,
    ) -> None:
        self._server = server
        self.id = id
        self.token = token
        self.type = type
        self.user_id = user_id
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.data = data
        self.message_id = message_id  # component/modal interactions: the message it came from
        self.shards: list[list[int] | None] = []  # the gateway sessions' shards it was sent to
        self.created = server.clock.monotonic()  # the server's clock: tokens expire on it
        self.responded_at: float | None = None
        self.callback_type: int | None = None
        self.callback_payload: JSON | None = None
        self.ephemeral = False
        self.original_id: int | None = None
        self.sent_ids: list[int] = []  # messages created for this interaction (original + follow-ups)
        self.followup_ids: list[int] = []
        self.edited_ids: list[int] = []  # existing messages edited through this interaction
        self.modal: JSON | None = None
        self.choices: list[JSON] | None = None
        self.errors: list[str] = []  # callbacks the server refused (late, twice, ...)
        self._first_followup_done = False
        self._acted_after_callback = 0

    def __repr__(self) -> str:
        return (
            f"<InteractionRecord id={self.id} type={self.type} user={self.user_id} "
            f"callback={self.callback_type} messages={len(dict.fromkeys(self.sent_ids))}>"
        )

    # --- state ---------------------------------------------------------------------------------------
    @property
    def responded(self) -> bool:
        return self.callback_type is not None

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the bot's callback."""
        return None if self.responded_at is None else self.responded_at - self.created

    @property
    def original(self) -> Message | None:
        """The response message (for updates/deferred updates: the component's message)."""
        return None if self.original_id is None else self._server.state.messages_by_id.get(self.original_id)

    @property
    def followups(self) -> list[Message]:
        return [self._server.state.messages_by_id[i] for i in self.followup_ids]

    @property
    def messages(self) -> list[Message]:
        """Messages created for this interaction (original response and follow-ups), not deleted."""
        out = [self._server.state.messages_by_id[i] for i in dict.fromkeys(self.sent_ids)]
        return [m for m in out if not m.deleted]

    @property
    def content(self) -> str | None:
        msg = self.original
        return None if msg is None else msg.content

    # --- waiting -------------------------------------------------------------------------------------
    async def response(self, timeout: float = 5.0) -> InteractionRecord:
        """Wait until the bot has answered the interaction callback (any type)."""
        await self._server.wait_for(lambda: self.responded or self.errors, timeout=timeout, what=f"callback for {self!r}")
        return self

    def _visible(self) -> bool:
        t = self.callback_type
        if t is None:
            return False
        if t in (4, 7):
            return True
        if t == 9:
            return True
        if t == 5:
            msg = self.original
            return msg is not None and (not msg.loading or msg.deleted)
        return self._acted_after_callback > 0  # type 6 (or 8): something happened after the ack

    async def reply(self, timeout: float = 5.0) -> Message | None:
        """Wait until the user sees a result and return the response message (None for a modal).

        Raises ``InteractionFailed`` if the server refused the bot's callback (too late, twice).
        """
        await self._server.wait_for(
            lambda: self._visible() or self.errors, timeout=timeout, what=f"visible reply for {self!r}"
        )
        if self.errors and not self._visible():
            raise InteractionFailed(f"{self!r}: {'; '.join(self.errors)}")
        if self.callback_type == 9:
            return None
        if self.callback_type == 6 and self.followup_ids and not self.edited_ids:
            return self.followups[-1]
        return self.original

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[Message]:
        await self._server.wait_for(
            lambda: len(self.followup_ids) >= count, timeout=timeout, what=f"{count} follow-ups for {self!r}"
        )
        return self.followups

    async def wait_until(self, predicate: Any, timeout: float = 5.0) -> Any:
        """Wait until ``predicate(self)`` is truthy and return its value."""
        return await self._server.wait_for(lambda: predicate(self), timeout=timeout, what=f"condition on {self!r}")


# ---------------------------------------------------------------------------------------------------------
# State


class State:
    """All records, plus Discord JSON for each. The server owns one."""

    def __init__(self, *, bot_name: str = "Jantaku", now: Callable[[], float] = time.time) -> None:
        self.snowflake = Snowflakes(now)
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages_by_channel: dict[int, list[Message]] = {}
        self.messages_by_id: dict[int, Message] = {}
        self.ephemeral_by_user: dict[int, list[Message]] = {}
        self.dm_by_user: dict[int, int] = {}
        self.commands: dict[int, Command] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.attachments: dict[int, Attachment] = {}
        self.cdn_base = ""  # set by the server once it knows its port

        self.owner = self.add_user("owner")
        self.application_id = self.snowflake()
        self.bot = User(id=self.application_id, username=bot_name, bot=True)
        self.users[self.bot.id] = self.bot

    # --- building ------------------------------------------------------------------------------------
    def add_user(self, username: str, *, dms_open: bool = True, bot: bool = False, global_name: str | None = None) -> User:
        user = User(id=self.snowflake(), username=username, global_name=global_name, bot=bot, dms_open=dms_open)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, *, owner_id: int | None = None) -> Guild:
        gid = self.snowflake.spread(len(self.guilds))
        guild = Guild(id=gid, name=name, owner_id=owner_id or self.owner.id)
        guild.roles[gid] = Role(id=gid, guild_id=gid, name="@everyone", permissions=DEFAULT_MEMBER_PERMISSIONS)
        self.guilds[gid] = guild
        bot_role = Role(
            id=self.snowflake(), guild_id=gid, name=self.bot.username, permissions=BOT_PERMISSIONS, position=1, managed=True
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot.id] = Member(user_id=self.bot.id, guild_id=gid, roles=[bot_role.id])
        guild.members[guild.owner_id] = Member(user_id=guild.owner_id, guild_id=gid)
        return guild

    def add_role(self, guild_id: int, name: str, *, permissions: int = 0, color: int = 0) -> Role:
        guild = self.guilds[guild_id]
        role = Role(
            id=self.snowflake(), guild_id=guild_id, name=name, permissions=permissions, color=color,
            position=len(guild.roles),
        )
        guild.roles[role.id] = role
        return role

    def add_member(self, guild_id: int, user_id: int, *, roles: list[int] | None = None, nick: str | None = None) -> Member:
        member = Member(user_id=user_id, guild_id=guild_id, roles=list(roles or []), nick=nick)
        self.guilds[guild_id].members[user_id] = member
        return member

    def add_channel(
        self, guild_id: int, name: str, *, type: int = GUILD_TEXT, parent_id: int | None = None,
        owner_id: int | None = None, topic: str | None = None,
    ) -> Channel:
        guild = self.guilds[guild_id]
        ch = Channel(
            id=self.snowflake(), type=type, name=name, guild_id=guild_id, position=len(guild.channel_ids),
            parent_id=parent_id, owner_id=owner_id, topic=topic,
        )
        self.channels[ch.id] = ch
        self.messages_by_channel[ch.id] = []
        guild.channel_ids.append(ch.id)
        return ch

    def dm_channel(self, user_id: int) -> Channel:
        """The bot's DM channel with a user, created on first use."""
        cid = self.dm_by_user.get(user_id)
        if cid is not None:
            return self.channels[cid]
        ch = Channel(id=self.snowflake(), type=DM, recipient_id=user_id)
        self.channels[ch.id] = ch
        self.messages_by_channel[ch.id] = []
        self.dm_by_user[user_id] = ch.id
        return ch

    # --- permissions ---------------------------------------------------------------------------------
    def member_permissions(self, guild_id: int, user_id: int) -> int:
        guild = self.guilds[guild_id]
        if user_id == guild.owner_id:
            return BOT_PERMISSIONS | ADMINISTRATOR
        perms = guild.everyone.permissions
        member = guild.members.get(user_id)
        if member is not None:
            for rid in member.roles:
                role = guild.roles.get(rid)
                if role is not None:
                    perms |= role.permissions
        if perms & ADMINISTRATOR:
            perms |= BOT_PERMISSIONS
        return perms

    def channel_permissions(self, ch: Channel, user_id: int) -> int:
        """A member's permissions in a channel: roles, then the channel's overwrites (Discord's order).

        Threads take their parent's overwrites. Without View Channel nothing else is granted; without
        Send Messages, embeds, files, TTS and @everyone are denied too (as discord.py computes it).
        """
        if ch.type == DM:
            return DM_APP_PERMISSIONS
        assert ch.guild_id is not None
        guild = self.guilds[ch.guild_id]
        perms = self.member_permissions(ch.guild_id, user_id)
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        source = self.channels.get(ch.parent_id or 0, ch) if ch.is_thread else ch
        ows = source.overwrites
        if guild.id in ows:
            _, allow, deny = ows[guild.id]
            perms = (perms & ~deny) | allow
        member = guild.members.get(user_id)
        role_allow = role_deny = 0
        for rid in member.roles if member is not None else []:
            if rid in ows and ows[rid][0] == 0:
                role_allow |= ows[rid][1]
                role_deny |= ows[rid][2]
        perms = (perms & ~role_deny) | role_allow
        if user_id in ows and ows[user_id][0] == 1:
            _, allow, deny = ows[user_id]
            perms = (perms & ~deny) | allow
        if not perms & SEND_MESSAGES:
            perms &= ~(SEND_TTS_MESSAGES | MENTION_EVERYONE | EMBED_LINKS | ATTACH_FILES)
        if not perms & VIEW_CHANNEL:
            return 0
        return perms

    # --- payloads ------------------------------------------------------------------------------------
    def user_payload(self, user_id: int) -> JSON:
        user = self.users.get(user_id)
        if user is None:
            return User(id=user_id, username=f"user{user_id}").payload()
        return user.payload()

    def member_payload(self, guild_id: int, user_id: int, *, with_user: bool = True, permissions: bool = False) -> JSON:
        member = self.guilds[guild_id].members[user_id]
        data: JSON = {
            "roles": [str(r) for r in member.roles],
            "nick": member.nick,
            "avatar": None,
            "banner": None,
            "joined_at": member.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user_payload(user_id)
        if permissions:
            data["permissions"] = str(self.member_permissions(guild_id, user_id))
        return data

    def channel_payload(self, ch: Channel) -> JSON:
        last = str(ch.last_message_id) if ch.last_message_id else None
        if ch.type == DM:
            assert ch.recipient_id is not None
            return {
                "id": str(ch.id),
                "type": DM,
                "last_message_id": last,
                "recipients": [self.user_payload(ch.recipient_id)],
                "flags": 0,
            }
        data: JSON = {
            "id": str(ch.id),
            "type": ch.type,
            "guild_id": str(ch.guild_id),
            "name": ch.name,
            "position": ch.position,
            "permission_overwrites": [
                {"id": str(oid), "type": t, "allow": str(allow), "deny": str(deny)}
                for oid, (t, allow, deny) in ch.overwrites.items()
            ],
            "nsfw": False,
            "parent_id": str(ch.parent_id) if ch.parent_id else None,
            "topic": ch.topic,
            "rate_limit_per_user": 0,
            "last_message_id": last,
            "flags": 0,
        }
        if ch.is_thread:
            data.pop("permission_overwrites")
            data.pop("position")
            data["owner_id"] = str(ch.owner_id)
            data["message_count"] = ch.message_count
            data["total_message_sent"] = ch.message_count
            data["member_count"] = len(ch.thread_members)
            data["thread_metadata"] = {
                "archived": ch.archived,
                "auto_archive_duration": ch.auto_archive_duration,
                "archive_timestamp": iso(ch.id),
                "locked": ch.locked,
                "invitable": ch.invitable,
                "create_timestamp": iso(ch.id),
            }
        return data

    def guild_payload(self, guild: Guild, *, members: bool, full: bool = False) -> JSON:
        data: JSON = {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": guild.locale,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
        }
        if full:
            chans = [self.channels[c] for c in guild.channel_ids]
            data.update(
                {
                    "joined_at": guild.members[self.bot.id].joined_at,
                    "large": False,
                    "unavailable": False,
                    "member_count": len(guild.members),
                    "voice_states": [],
                    "members": [
                        self.member_payload(guild.id, uid) for uid in guild.members if members or uid == self.bot.id
                    ],
                    "channels": [self.channel_payload(c) for c in chans if not c.is_thread],
                    "threads": [self.channel_payload(c) for c in chans if c.is_thread and not c.archived],
                    "presences": [],
                    "stage_instances": [],
                    "guild_scheduled_events": [],
                    "soundboard_sounds": [],
                }
            )
        return data

    def message_payload(self, msg: Message) -> JSON:
        guild = self.guilds.get(msg.guild_id) if msg.guild_id else None
        mentions = []
        for uid_s in dict.fromkeys(_MENTION_RE.findall(msg.content)):
            uid = int(uid_s)
            if uid in self.users:
                m = self.user_payload(uid)
                if guild is not None and uid in guild.members:
                    m["member"] = self.member_payload(guild.id, uid, with_user=False)
                mentions.append(m)
        data: JSON = {
            "id": str(msg.id),
            "channel_id": str(msg.channel_id),
            "author": self.user_payload(msg.author_id),
            "content": msg.content,
            "timestamp": iso(msg.id),
            "edited_timestamp": msg.edited_at,
            "tts": msg.tts,
            "mention_everyone": "@everyone" in msg.content,
            "mentions": mentions,
            "mention_roles": list(dict.fromkeys(_ROLE_MENTION_RE.findall(msg.content))),
            "attachments": [a.payload() for a in msg.attachments],
            "embeds": msg.embeds,
            "components": msg.components,
            "pinned": False,
            "type": msg.type,
            "flags": msg.flags,
        }
        if msg.guild_id is not None:
            data["guild_id"] = str(msg.guild_id)
        if msg.nonce is not None:
            data["nonce"] = msg.nonce
        if msg.webhook_id is not None:
            data["webhook_id"] = str(msg.webhook_id)
        if msg.application_id is not None:
            data["application_id"] = str(msg.application_id)
        if msg.reactions:
            data["reactions"] = [
                {
                    "emoji": {"id": None, "name": emoji},
                    "count": len(users),
                    "count_details": {"burst": 0, "normal": len(users)},
                    "me": self.bot.id in users,
                    "me_burst": False,
                    "burst_colors": [],
                }
                for emoji, users in msg.reactions.items()
                if users
            ]
        if msg.message_reference is not None:
            data["message_reference"] = msg.message_reference
            ref = self.messages_by_id.get(int(msg.message_reference.get("message_id", 0) or 0))
            if ref is not None:
                data["referenced_message"] = None if ref.deleted else self._message_payload_shallow(ref)
        if msg.interaction_id is not None:
            rec = self.interactions.get(msg.interaction_id)
            if rec is not None:
                meta: JSON = {
                    "id": str(rec.id),
                    "type": rec.type,
                    "user": self.user_payload(rec.user_id),
                    "authorizing_integration_owners": {"0": str(rec.guild_id)} if rec.guild_id else {"1": str(rec.user_id)},
                }
                if rec.type == 2:
                    meta["name"] = rec.data.get("name", "")
                    meta["command_type"] = rec.data.get("type", 1)
                if rec.type == 3 and rec.message_id is not None:
                    meta["interacted_message_id"] = str(rec.message_id)
                if rec.original_id is not None and rec.original_id != msg.id and rec.callback_type in (4, 5):
                    meta["original_response_message_id"] = str(rec.original_id)
                data["interaction_metadata"] = meta
                if rec.type == 2:
                    data["interaction"] = {
                        "id": str(rec.id),
                        "type": rec.type,
                        "name": rec.data.get("name", ""),
                        "user": self.user_payload(rec.user_id),
                    }
        thread = self.channels.get(msg.channel_id)
        if thread is not None and thread.is_thread:
            data["position"] = max(0, thread.message_count - 1)
        return data

    def _message_payload_shallow(self, msg: Message) -> JSON:
        ref = msg.message_reference
        msg.message_reference = None
        try:
            return self.message_payload(msg)
        finally:
            msg.message_reference = ref

    # --- storing messages ----------------------------------------------------------------------------
    def store_message(self, msg: Message) -> None:
        self.messages_by_id[msg.id] = msg
        for att in msg.attachments:
            self.attach_url(msg.channel_id, att)
        if msg.visible_to is not None:
            self.ephemeral_by_user.setdefault(msg.visible_to, []).append(msg)
        else:
            self.messages_by_channel.setdefault(msg.channel_id, []).append(msg)
            ch = self.channels.get(msg.channel_id)
            if ch is not None:
                ch.last_message_id = msg.id
                ch.message_count += 1

    def attach_url(self, channel_id: int, att: Attachment) -> None:
        """Give an attachment its CDN URL and make it downloadable."""
        if not att.url:
            att.url = f"{self.cdn_base}/attachments/{channel_id}/{att.id}/{att.filename}"
        self.attachments[att.id] = att

    # --- queries -------------------------------------------------------------------------------------
    def can_see_channel(self, user_id: int, ch: Channel) -> bool:
        if ch.type == DM:
            return ch.recipient_id == user_id
        if ch.guild_id is None or user_id not in self.guilds[ch.guild_id].members:
            return False
        if ch.type == PRIVATE_THREAD:
            return user_id in ch.thread_members or bool(
                self.member_permissions(ch.guild_id, user_id) & ADMINISTRATOR
            )
        return True

    def find_command(self, name: str, guild_id: int | None, type: int = 1) -> Command | None:
        found = None
        for cmd in self.commands.values():
            if cmd.name != name or cmd.type != type:
                continue
            if guild_id is not None and cmd.guild_id == guild_id:
                return cmd
            if cmd.guild_id is None:
                found = cmd
        return found

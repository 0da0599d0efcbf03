"""A click for a table another process owns, handed to that process over Redis pub/sub.

The receiver (:meth:`Forwarder.forward`) publishes the raw interaction on the owner shard's
channel ``<prefix>shard:<n>``, with the interaction's id, token, custom_id, user, table and guild,
and the time it was sent. The owner's listener checks it still owns the guild and that the click
is fresh, claims the interaction (:func:`bot.cluster.once.answer_key`, ``SET NX``), acknowledges
it on the receiver's channel and hands the payload to ``handle`` (in the bot: discord.py's own
``INTERACTION_CREATE`` parser, so the click runs as if it had come off the owner's gateway, and
is answered by the interaction callback, which any process may send).

The receiver answers the click itself with one sentence when nobody subscribes to the owner's
channel (``PUBLISH`` returns 0: the owner is down), when Redis does not answer, or when no
acknowledgement comes within ``patience`` seconds and it wins the claim (the owner is hung; if
the owner took the claim meanwhile, it answers). Either way the click is answered once, before
Discord's 3 s.

The message that was clicked travels without its text, embeds, attachments and other buttons (a
hand message's tiles never cross Redis); its id, flags and the button pressed are kept. Limits: an owner that claims a
click and then dies leaves it unanswered; a click older than ``patience`` when it reaches the
owner is left to the receiver. The receiver's and owner's clocks are compared for that: run the
processes on clocks kept in step (NTP).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import enum
import json
import logging
import os
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from bot import i18n
from bot.cluster.once import answer_key
from bot.cluster.ownership import Ownership

if TYPE_CHECKING:
    import aiohttp
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub

log = logging.getLogger(__name__)

VERSION = 1
CLAIM_KEEP = 60.0  # seconds an answer's claim is kept (an interaction lives 3 s, then 15 min)
_AWAY = (RedisError, OSError, asyncio.TimeoutError)


class Outcome(enum.Enum):
    OWNER = "owner"  # the owner took it and answers
    FALLBACK = "fallback"  # nobody took it: the receiver answered with one sentence


def moving(lang: i18n.Lang) -> str:
    """What a click hears when its table's process does not take it."""
    return i18n.t(lang, "This table is moving to another process; try again in a moment.")


def _find(components: Any, custom_id: str) -> dict[str, Any] | None:
    for c in components if isinstance(components, list) else ():
        if isinstance(c, dict):
            if c.get("custom_id") == custom_id:
                return c
            found = _find(c.get("components"), custom_id) or _find([c.get("accessory")], custom_id)
            if found is not None:
                return found
    return None


def redact(payload: dict[str, Any]) -> dict[str, Any]:
    """The interaction without the clicked message's text, embeds, attachments and other buttons
    (a hand message's buttons name the tiles of the hand): only the button that was pressed stays,
    which discord.py needs to run it."""
    out = copy.copy(payload)
    msg = payload.get("message")
    if isinstance(msg, dict):
        clicked = _find(msg.get("components"), str((payload.get("data") or {}).get("custom_id", "")))
        rows = [{"type": 1, "components": [clicked]}] if clicked is not None else []
        out["message"] = {**msg, "content": "", "embeds": [], "attachments": [], "components": rows}
    return out


@dataclass(frozen=True, slots=True)
class Forwarded:
    """What crosses Redis for one click."""

    interaction_id: int
    token: str
    custom_id: str
    user_id: int
    table_id: int
    guild_id: int
    reply: str  # the receiver's channel (acknowledgements)
    sent: float  # epoch seconds when the receiver published it
    payload: dict[str, Any]

    def dumps(self) -> str:
        return json.dumps({"v": VERSION, **{f.name: getattr(self, f.name) for f in fields(self)}}, separators=(",", ":"))

    @classmethod
    def loads(cls, raw: bytes | str) -> Forwarded:
        d = json.loads(raw)
        if d.pop("v", None) != VERSION:
            raise ValueError("a forwarded click of another version")
        return cls(**d)

    @classmethod
    def of(cls, payload: dict[str, Any], table_id: int, guild_id: int, reply: str) -> Forwarded:
        user = payload.get("user") or (payload.get("member") or {}).get("user") or {}
        return cls(
            interaction_id=int(payload["id"]),
            token=str(payload["token"]),
            custom_id=str((payload.get("data") or {}).get("custom_id", "")),
            user_id=int(user.get("id", 0)),
            table_id=table_id,
            guild_id=guild_id,
            reply=reply,
            sent=time.time(),
            payload=redact(payload),
        )


Handle = Callable[[dict[str, Any]], Awaitable[None] | None]
Answer = Callable[[int, str, str], Awaitable[None]]


class Forwarder:
    """Both ends: :meth:`forward` (the receiving process) and the listener of the owner's shards
    (:meth:`start`). ``handle`` runs a click this process owns (:func:`bot.cluster.route.install`
    sets it to discord.py's parser); ``answer`` sends the one-sentence
    answer (interaction id, token, text; default: the callback over HTTP at discord.py's API base)."""

    def __init__(
        self,
        redis: Redis,
        ownership: Ownership,
        handle: Handle | None = None,
        *,
        prefix: str = "jantaku:",
        patience: float = 1.0,
        answer: Answer | None = None,
    ) -> None:
        self.redis = redis
        self.ownership = ownership
        self.handle = handle
        self.prefix = prefix
        self.patience = patience
        self.answer = answer or self._callback
        self.me = f"{os.getpid()}.{secrets.token_hex(4)}"
        self.reply = f"{prefix}reply:{self.me}"
        self._waiting: dict[int, asyncio.Future[None]] = {}
        self._task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._pubsub: PubSub | None = None
        self._session: aiohttp.ClientSession | None = None
        self._down = False  # the listener lost Redis (logged once until it is back)
        self._late: dict[int, tuple[float, float]] = {}  # interaction id -> (seconds late, when taken)
        #: counts, for logs and tests: forwarded here, taken here as owner, answered with the sentence
        self.stats = {"forwarded": 0, "owned": 0, "fallback": 0, "stale": 0}

    def channel(self, shard: int) -> str:
        return f"{self.prefix}shard:{shard}"

    # -- the owner's side --------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen on this process's shards and its reply channel; returns once subscribed."""
        if self._task is None:
            await self._subscribe()
            self._task = asyncio.create_task(self._listen(), name="jantaku-cluster-listener")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for task in list(self._tasks):
            task.cancel()
        if self._pubsub is not None:
            with contextlib.suppress(*_AWAY):
                await self._pubsub.aclose()  # type: ignore[no-untyped-call]
            self._pubsub = None
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def _subscribe(self) -> None:
        if self._pubsub is not None:
            with contextlib.suppress(*_AWAY):
                await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.reply, *(self.channel(s) for s in sorted(self.ownership.shard_ids)))

    async def _listen(self) -> None:
        backoff = 0.1
        while True:
            try:
                if self._pubsub is None:
                    await self._subscribe()
                assert self._pubsub is not None
                msg = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                if self._down:
                    log.warning("cluster: Redis answers again; forwarded clicks are taken")
                    self._down, backoff = False, 0.1
                if msg is not None:
                    self._received(msg)
            except asyncio.CancelledError:
                raise
            except _AWAY as e:
                if not self._down:
                    log.warning("cluster: Redis does not answer (%s); clicks forwarded to this process are answered by their receivers", type(e).__name__)
                    self._down = True
                self._pubsub = None
                await asyncio.sleep(backoff)
                backoff = min(5.0, backoff * 2)

    def _received(self, msg: dict[str, Any]) -> None:
        channel = msg["channel"].decode() if isinstance(msg["channel"], bytes) else str(msg["channel"])
        data = msg["data"]
        if channel == self.reply:
            fut = self._waiting.get(int(data))
            if fut is not None and not fut.done():
                fut.set_result(None)
            return
        task = asyncio.create_task(self._take(data), name="jantaku-cluster-forwarded")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _take(self, raw: bytes) -> None:
        try:
            f = Forwarded.loads(raw)
        except (ValueError, TypeError, KeyError) as e:
            log.warning("cluster: a forwarded click could not be read (%s)", e)
            return
        if not self.ownership.owns(f.guild_id) or time.time() - f.sent > self.patience:
            self.stats["stale"] += 1
            return  # not ours, or its receiver answers it: leave it
        try:
            won = await self.redis.set(self.prefix + answer_key(f.interaction_id), f"owner:{self.me}", nx=True, px=int(CLAIM_KEEP * 1000))
            if not won:
                self.stats["stale"] += 1
                return
            await self.redis.publish(f.reply, str(f.interaction_id))
        except _AWAY:
            return  # the receiver answers it
        self.stats["owned"] += 1
        now = time.time()
        self._late = {i: v for i, v in self._late.items() if now - v[1] < 10.0}
        self._late[f.interaction_id] = (max(0.0, now - f.sent), now)
        try:
            assert self.handle is not None, "install() the router first"
            done = self.handle(f.payload)
            if done is not None:
                await done
        except Exception:
            log.exception("cluster: table %s: a forwarded click failed", f.table_id)

    def late_by(self, interaction_id: int) -> float:
        """Seconds a click taken here spent on its way from the process that received it (0 for a
        click that arrived here): what its first answer has less of Discord's 3 s."""
        got = self._late.get(interaction_id)
        return got[0] if got is not None else 0.0

    # -- the receiver's side ------------------------------------------------------------------------

    async def forward(self, payload: dict[str, Any], table_id: int, guild_id: int) -> Outcome:
        """Hand a click to the owner of ``guild_id``; answer it here if nobody takes it in time."""
        f = Forwarded.of(payload, table_id, guild_id, self.reply)
        lang = i18n.lang_of(payload.get("locale"))
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting[f.interaction_id] = fut
        self.stats["forwarded"] += 1
        try:
            try:
                listeners = await self.redis.publish(self.channel(self.ownership.owner(guild_id)), f.dumps())
            except _AWAY:
                listeners = -1  # Redis is away: nobody can take it
            if listeners > 0:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(fut, self.patience)
                    return Outcome.OWNER
            if listeners >= 0:
                try:
                    won = await self.redis.set(self.prefix + answer_key(f.interaction_id), f"receiver:{self.me}", nx=True, px=int(CLAIM_KEEP * 1000))
                except _AWAY:
                    won = True  # never silence: answer, even if the owner might too
                if not won:
                    return Outcome.OWNER  # the owner claimed it; its acknowledgement was late
            self.stats["fallback"] += 1
            await self.answer(f.interaction_id, f.token, moving(lang))
            return Outcome.FALLBACK
        finally:
            self._waiting.pop(f.interaction_id, None)

    async def _callback(self, interaction_id: int, token: str, text: str) -> None:
        """The sentence as the interaction's first response (ephemeral): plain HTTP, exempt from the
        token's global limit."""
        import aiohttp
        import discord.http

        if self._session is None:
            self._session = aiohttp.ClientSession()
        url = f"{discord.http.Route.BASE}/interactions/{interaction_id}/{token}/callback"
        body = {"type": 4, "data": {"content": text, "flags": 64}}
        async with self._session.post(url, json=body) as r:
            if r.status >= 400:
                log.warning("cluster: the answer to interaction %s was refused (%s)", interaction_id, r.status)


__all__ = ["Forwarded", "Forwarder", "Outcome", "moving", "redact"]

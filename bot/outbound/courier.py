"""Requests on the bot's token, within Discord's budgets: :class:`Courier`.

Every request the bot makes with its own token is spaced under Discord's 50/s for the whole token
(a burst over it is a global 429, which stops every request of the bot for a while), and every
message or edit in a channel takes its turn in that channel's ~5 per 5 s. The courier also keeps
the DM channels it opened (saves a user fetch per message), Discord's clock (the newest snowflake
seen: message ages are Discord's), and posts plain texts cut to Discord's length. It knows nothing
of what it sends.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import discord

from bot.outbound.pacing import Pacer

__all__ = ["NOTICE_LIMIT", "Courier", "chunks"]

log = logging.getLogger(__name__)

NOTICE_LIMIT = 2000  # Discord's limit for a message's text


class Courier:
    """The bot token's requests: ``client`` is the discord.py client (channels and users are
    looked up through it); ``bot_requests_per_s``: every bot-token request, spaced to stay under
    Discord's 50/s (interaction routes are not counted by Discord); ``channel_requests_per_5s``:
    messages and edits in one channel (Discord: about 5 per 5 s per channel; one is left for what
    is not paced); ``pictures_per_s``: the share of the token's budget the least urgent edits (the
    table pictures) take at most (:attr:`pictures`; 0 = no limit)."""

    def __init__(self, client: Any, *, bot_requests_per_s: int = 40, channel_requests_per_5s: int = 4, pictures_per_s: int = 20) -> None:
        self.client = client
        self.channel_requests_per_5s = channel_requests_per_5s
        self.pace = Pacer(bot_requests_per_s)
        self.pictures = Pacer(pictures_per_s)
        self._channel_pacers: dict[int, Pacer] = {}
        self._dms: dict[int, Any] = {}  # user id → DM channel
        self._newest = 0  # the newest snowflake Discord gave us (its clock)

    # -- Discord's clock -------------------------------------------------------------------------

    def saw(self, snowflake: int) -> None:
        """Note an id Discord just made: the newest one tells Discord's time (message ages are
        Discord's, whatever the bot's own clock says)."""
        self._newest = max(self._newest, snowflake)

    def age(self, message_id: int) -> float:
        """Seconds since Discord made ``message_id``, by the newest id seen since."""
        return max(0.0, ((self._newest >> 22) - (message_id >> 22)) / 1000)

    # -- channels and DMs ----------------------------------------------------------------------------

    async def channel(self, channel_id: int) -> Any:
        ch = self.client.get_channel(channel_id)
        if ch is None:
            await self.pace()
            ch = await self.client.fetch_channel(channel_id)
        return ch

    async def dm(self, user_id: int) -> Any:
        dm = self._dms.get(user_id)
        if dm is None:
            user = self.client.get_user(user_id)
            if user is None:
                await self.pace()
                user = await self.client.fetch_user(user_id)
            if user.dm_channel is None:
                await self.pace()
            dm = self._dms[user_id] = user.dm_channel or await user.create_dm()
        return dm

    def channel_pacer(self, channel_id: int) -> Pacer:
        pacer = self._channel_pacers.get(channel_id)
        if pacer is None:
            pacer = self._channel_pacers[channel_id] = Pacer(self.channel_requests_per_5s, 5.0)
        return pacer

    @asynccontextmanager
    async def turn_in(self, channel_id: int) -> AsyncIterator[None]:
        """A turn to send to a channel, held while the request is under way: its share of the
        channel's ~5 per 5 s (every writer there takes turns), then of the bot token's 50/s."""
        async with self.channel_pacer(channel_id).slot():
            await self.pace()
            yield

    # -- plain texts ---------------------------------------------------------------------------------

    async def notify(self, user_id: int, text: str) -> bool:
        """One DM to a user, paced under the token's budget and cut to Discord's length; False if
        their DMs are closed (or they cannot be found)."""
        try:
            dm = await self.dm(user_id)
            await self.pace()
            msg = await dm.send(text[:NOTICE_LIMIT])
        except (discord.Forbidden, discord.NotFound):
            return False
        self.saw(msg.id)
        return True

    async def post(self, channel_id: int, text: str, *, files: Sequence[discord.File] = (), view: discord.ui.View | None = None) -> Any:
        """A message in a channel, paced under the channel's and the token's budgets, cut to
        Discord's length (a longer text goes as several messages, split at line ends; the files
        and the buttons go with the last); the last message sent."""
        ch = await self.channel(channel_id)
        parts = chunks(text, NOTICE_LIMIT)
        for i, chunk in enumerate(parts):
            last = i == len(parts) - 1
            extra: dict[str, Any] = {"view": view} if last and view is not None else {}
            async with self.turn_in(channel_id):
                msg = await ch.send(content=chunk, files=list(files) if last else [], **extra)
            self.saw(msg.id)
        return msg

    async def edit_post(self, channel_id: int, message_id: int, text: str, *, drop_view: bool = False) -> None:
        """Edit a message :meth:`post` sent (its text; ``drop_view``: and take its buttons away),
        paced as a post is."""
        ch = await self.channel(channel_id)
        extra: dict[str, Any] = {"view": None} if drop_view else {}
        async with self.turn_in(channel_id):
            await ch.get_partial_message(message_id).edit(content=text[:NOTICE_LIMIT], **extra)


def chunks(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, split at line ends where it can."""
    out: list[str] = []
    cur = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if cur:
                out.append(cur)
                cur = ""
            out.append(line[:limit])
            line = line[limit:]
        if cur and len(cur) + 1 + len(line) > limit:
            out.append(cur)
            cur = line
        else:
            cur = f"{cur}\n{line}" if cur else line
    if cur or not out:
        out.append(cur)
    return out

"""Delivery of one message's state: as the answer to a click (:class:`ClickAnswer`), or as an edit
through a fresh interaction token (:class:`Tokens`), which Discord does not count against the bot
token's global rate limit. It knows what a message shows (:class:`Shown`: text, one picture,
buttons) and nothing of what that means.
"""

from __future__ import annotations

import asyncio
import io
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

import discord

__all__ = ["ANSWER_WITHIN", "TOKEN_LIFE", "ClickAnswer", "Shown", "Token", "Tokens", "edit_kwargs", "send_kwargs"]

#: Discord's interaction tokens live 15 minutes: an older one is never used for an edit
TOKEN_LIFE = 14 * 60.0
#: a click is answered with its new state within this many seconds, or else deferred (Discord: 3 s)
ANSWER_WITHIN = 2.0


@dataclass(eq=False)
class Shown:
    """What a message should show: text, picture (None: the one it shows is still right, named
    ``filename``) and buttons (None: no buttons)."""

    content: str
    png: bytes | None
    view: discord.ui.View | None

    #: the name of the picture's attachment
    filename = "hand.png"

    @property
    def shows(self) -> tuple[Any, ...]:
        """What a message showing this state shows: its text and its buttons (their custom_ids
        say what each does)."""
        buttons = tuple(getattr(c, "custom_id", None) for c in self.view.children) if self.view is not None else ()
        return (self.content, buttons)


def edit_kwargs(state: Shown) -> dict[str, Any]:
    """The arguments of a message edit that makes it show ``state``."""
    kwargs: dict[str, Any] = {"content": state.content, "view": state.view}
    if state.png is not None:
        kwargs["attachments"] = [discord.File(io.BytesIO(state.png), filename=state.filename)]
    return kwargs


def send_kwargs(state: Shown) -> dict[str, Any]:
    """The arguments of a new message that shows ``state``."""
    kwargs: dict[str, Any] = {"content": state.content}
    if state.view is not None:
        kwargs["view"] = state.view
    if state.png is not None:
        kwargs["file"] = discord.File(io.BytesIO(state.png), filename=state.filename)
    return kwargs


class ClickAnswer:
    """The first response to a click on a message: the message's new state itself (UPDATE_MESSAGE,
    callback type 7: no bot-token request, inside the 3 s), or, when that is not ready ``within``
    seconds, a deferred update (type 6) now and the state through the interaction's token later
    (interaction routes are outside the bot's global rate limit)."""

    def __init__(self, interaction: discord.Interaction, within: float = ANSWER_WITHIN) -> None:
        self.interaction = interaction
        # a click forwarded from the process that received it (bot.cluster) has spent part of
        # Discord's 3 s on the way: the client's ``late_by`` says how much
        late_by = getattr(getattr(interaction, "client", None), "late_by", None)
        if callable(late_by):
            within = max(0.1, within - float(late_by(interaction.id)))
        self._lock = asyncio.Lock()
        self._late = asyncio.get_running_loop().call_later(within, self._defer_soon)
        self._deferring: asyncio.Task[None] | None = None

    def _defer_soon(self) -> None:
        self._deferring = asyncio.ensure_future(self._defer())

    async def _defer(self) -> None:
        async with self._lock:
            if not self.interaction.response.is_done():
                with suppress(discord.HTTPException):
                    await self.interaction.response.defer()

    async def show(self, state: Shown) -> None:
        self._late.cancel()
        kwargs = edit_kwargs(state)
        async with self._lock:
            if not self.interaction.response.is_done():
                await self.interaction.response.edit_message(**kwargs)
            else:
                await self.interaction.edit_original_response(**kwargs)

    async def say(self, text: str) -> None:
        """One plain sentence only the clicker sees."""
        self._late.cancel()
        async with self._lock:
            if not self.interaction.response.is_done():
                await self.interaction.response.send_message(text, ephemeral=True)
            else:
                await self.interaction.followup.send(text, ephemeral=True)

    def close(self) -> None:
        self._late.cancel()


@dataclass(eq=False)
class Token:
    """An interaction whose token can still edit a message (for 15 minutes)."""

    interaction: discord.Interaction
    at: float
    message_id: int


class Tokens:
    """The freshest interaction token of each key (a player's seat) that can edit a message."""

    def __init__(self) -> None:
        self._tokens: dict[Any, Token] = {}

    def keep(self, key: Any, interaction: discord.Interaction, message_id: int) -> None:
        self._tokens[key] = Token(interaction, asyncio.get_running_loop().time(), message_id)

    def drop(self, key: Any) -> None:
        self._tokens.pop(key, None)

    def __contains__(self, key: Any) -> bool:
        return key in self._tokens

    def any(self, key: Any) -> Token | None:
        """The kept token of ``key``, still fresh, whatever message it edits."""
        tok = self._tokens.get(key)
        return None if tok is None else self.of(key, tok.message_id)

    def of(self, key: Any, message_id: int | None) -> Token | None:
        """The kept token of ``key`` if it edits ``message_id`` and is still fresh."""
        tok = self._tokens.get(key)
        if tok is None or tok.message_id != message_id:
            return None
        if asyncio.get_running_loop().time() - tok.at > TOKEN_LIFE:
            del self._tokens[key]
            return None
        return tok

    async def edit(self, key: Any, message_id: int | None, state: Shown) -> bool:
        """Edit ``message_id`` through the kept token of ``key``: False if there is none fresh, or
        Discord refused it (expired early, or the message is gone; the token is dropped)."""
        tok = self.of(key, message_id)
        if tok is None:
            return False
        try:
            await tok.interaction.edit_original_response(**edit_kwargs(state))
            return True
        except discord.HTTPException:
            self._tokens.pop(key, None)
            return False

    def forget(self, match: Any) -> None:
        """Drop every token whose key ``match(key)`` says."""
        for key in [k for k in self._tokens if match(k)]:
            del self._tokens[key]

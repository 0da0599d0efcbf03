"""The presenter the current one is measured against in ``bench/bot_load.py`` (not used by the bot).

This is Jantaku's presenter as it was before the outbound path was rebuilt for Discord's limits
(commit b62ab59), kept here so that the benchmark runs it and the current one under the same load
and the same limits in one run: a click is deferred (callback type 6) and the clicker's hand is then
edited with the bot's token like every other hand; each update is worked on inside the action's own
call; hand results and the final standings are posted by whichever update sees them. Only its
message flow differs: pictures, texts and buttons come from the current modules.
"""

from __future__ import annotations

import asyncio
import io
import logging
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.tables import Table, TableError, Update
from bot.views.buttons import hand_view, table_buttons
from bot.views.hand import hand_text
from bot.views.presenter import Presenter
from bot.views.table import status_text, table_view
from engine.table.actions import Action, ActionType

if TYPE_CHECKING:
    from bot.client import JantakuBot

log = logging.getLogger(__name__)
A = ActionType


async def deferred_callback(self: Any, interaction: discord.Interaction) -> None:
    """The click as it was: defer, then act (the hand follows by a bot-token edit)."""
    bot: JantakuBot = interaction.client  # type: ignore[assignment]
    try:
        await interaction.response.defer()
    finally:
        bot.responses.answered(interaction)
    await bot.responses.settled()
    try:
        await bot.service.act(self.table, interaction.user.id, self.act, self.serial)
    except TableError as e:
        await interaction.followup.send(str(e), ephemeral=True)


@dataclass(slots=True)
class _OldPicture:
    """A table's public message: its writer task edits it at most once per interval; an edit that
    cannot wait (the first message, the final state) is made at once under the same lock."""

    dirty: bool = False
    last: list[Action] = field(default_factory=list)  # actions since the last edit (for "Last:")
    edited_at: float = -math.inf
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one edit of the message at a time
    task: asyncio.Task[None] | None = None


class ReferencePresenter(Presenter):
    """The earlier message flow on the current presenter's pictures and texts."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pictures: dict[int, _OldPicture] = {}
        self._sig: dict[tuple[int, int], tuple[Any, ...]] = {}
        self._prompted: dict[int, set[int]] = {}
        self._dms: dict[int, Any] = {}

    def close(self) -> None:
        for p in self._pictures.values():
            if p.task is not None:
                p.task.cancel()
        super().close()

    def _lock(self, t: Table) -> asyncio.Lock:
        locks: dict[int, asyncio.Lock] = self.__dict__.setdefault("_table_locks", {})
        return locks.setdefault(t.id, asyncio.Lock())

    async def prompt_humans(self, t: Table, *, everyone: bool = False) -> None:
        async with self._lock(t):
            await self._prompt_humans(t, everyone=everyone)

    async def on_update(self, u: Update) -> None:
        # One table's messages are updated one update at a time: otherwise an older update's edit
        # could land after a newer one and leave stale buttons up.
        async with self._lock(u.table):
            await self.gate(0.0)
            try:
                await self._on_update(u)
            finally:
                self.gate.leave()

    async def _on_update(self, u: Update) -> None:
        t = u.table
        g = t.game
        if g is None:
            return
        posted = False
        if not t.row.message_id:
            # the first table message goes out before any hand: its "Show my hand" button is the
            # fallback for players whose direct messages are closed
            await self.refresh_table(t, u.actions)
            posted = True
        # the hands and their buttons first: that is what the players are waiting for (and a
        # button left up after the game moved on only earns "that turn has passed")
        await self._prompt_humans(t)
        if u.hands_ended:
            ch = await self.channel.channel(t)
            for i in range(len(g.results) - u.hands_ended, len(g.results)):
                await self.channel.post_result(ch, t, i)
        if g.over:
            await self.refresh_table(t, u.actions)  # the final state, before the standings
            await self.channel.post_final(await self.channel.channel(t), t)
            self._pictures.pop(t.id, None)
            for s in range(g.players):
                self._sig.pop((t.id, s), None)
        elif not posted:
            if self.options.table_interval > 0:
                self._table_changed(t, u.actions)
            else:
                await self.refresh_table(t, u.actions)

    # -- the public table message ---------------------------------------------------------------

    def _table_changed(self, t: Table, actions: list[Action] | None) -> _OldPicture:
        """Note that the table picture is out of date; its writer task edits it when its time comes."""
        p = self._picture(t, actions)
        if p.task is None or p.task.done():
            p.task = asyncio.create_task(self._table_writer(t, p), name=f"jantaku-table-picture-{t.id}")
        return p

    def _picture(self, t: Table, actions: list[Action] | None) -> _OldPicture:
        p = self._pictures.get(t.id)
        if p is None:
            p = self._pictures[t.id] = _OldPicture()
        if actions:
            p.last = (p.last + [a for a in actions if a.type is not A.PASS])[-4:]
        p.dirty = True
        return p

    async def _table_writer(self, t: Table, p: _OldPicture) -> None:
        loop = asyncio.get_running_loop()
        while p.dirty:
            wait = p.edited_at + self.options.table_interval - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            await self.gate(1.0)  # a table picture: hands that come within a second go first
            try:
                await self._write_table(t, p)
            finally:
                self.gate.leave()

    async def _write_table(self, t: Table, p: _OldPicture) -> None:
        async with p.lock:
            if not p.dirty:  # refresh_table got there first
                return
            p.dirty = False
            last, p.last = p.last, []
            p.edited_at = asyncio.get_running_loop().time()
            try:
                await self._edit_table(t, last)
            except Exception:  # the next update tries again; a failed edit must not stop the writer
                log.exception("could not update the table message of table %s", t.id)

    async def refresh_table(self, t: Table, last: list[Action] | None = None) -> None:
        """Edit the table message now (after an edit already under way) and wait for it."""
        await self._write_table(t, self._picture(t, last))

    async def _edit_table(self, t: Table, last: list[Action] | None = None) -> None:
        ch = await self.channel.channel(t)
        text = status_text(t, last)
        files = []
        if t.game is not None:
            png = await self.renderer.png("table", table_view(t))
            files = [discord.File(io.BytesIO(png), filename="table.png")]
        view = table_buttons(t) if t.game is not None and not t.game.over else None
        if t.row.message_id:
            msg = ch.get_partial_message(t.row.message_id)
            try:
                await msg.edit(content=text, attachments=files, view=view)
                return
            except discord.NotFound:
                pass
        msg = await ch.send(content=text, files=files, view=view)
        t.row.message_id = msg.id
        await self.service.repo.set_table(t.id, message_id=msg.id)

    # -- private hands -------------------------------------------------------------------------

    async def _prompt_humans(self, t: Table, *, everyone: bool = False) -> None:
        g = t.game
        if g is None:
            return
        acting = set(g.to_act()) if not g.over else set()
        shown: set[int] = self._prompted.setdefault(t.id, set())
        due = [
            s
            for s in range(g.players)
            if t.seats[s].ai is None and t.seats[s].user_id is not None and (everyone or s in acting or s in shown)
        ]
        # different players' messages: drawn and sent side by side
        await asyncio.gather(*(self.send_hand(t, s) for s in due))
        self._prompted[t.id] = acting

    async def send_hand(self, t: Table, s: int) -> None:
        g = t.game
        assert g is not None
        seat = t.seats[s]
        acting = (not g.over) and s in g.to_act()
        if seat.dm_closed:
            return
        view = hand_view(t, s) if acting else None
        content = hand_text(t, s)
        assert seat.user_id is not None
        try:
            dm = self._dms.get(seat.user_id)
            if dm is None:
                client = self.courier.client
                user = client.get_user(seat.user_id) or await client.fetch_user(seat.user_id)
                dm = self._dms[seat.user_id] = user.dm_channel or await user.create_dm()
            sig = (tuple(sorted(g.seats[s].tiles)), len(g.seats[s].melds), g.hand_index)
            same_hand = self._sig.get((t.id, s)) == sig
            if seat.hand_message_id and same_hand:
                # the hand did not change (its buttons went stale, or a call is offered): keep the
                # picture, change the text and buttons only
                try:
                    await dm.get_partial_message(seat.hand_message_id).edit(content=content, view=view)
                    return
                except discord.NotFound:
                    pass
            args, kwargs = self.hand_args(t, s)
            file = discord.File(io.BytesIO(await self.renderer.png("hand", *args, **kwargs)), filename="hand.png")
            if seat.hand_message_id:
                try:
                    await dm.get_partial_message(seat.hand_message_id).edit(content=content, attachments=[file], view=view)
                    self._sig[(t.id, s)] = sig  # only once the picture is really there
                    return
                except discord.NotFound:
                    pass
            msg = await dm.send(content=content, file=file, view=view)
            self._sig[(t.id, s)] = sig
            seat.hand_message_id = msg.id
            await self.service.repo.set_seat(t.id, s, hand_message_id=msg.id)
        except discord.Forbidden:
            seat.dm_closed = True
            await self.service.repo.set_seat(t.id, s, dm_closed=True)
            ch = await self.channel.channel(t)
            await ch.send(
                f"<@{seat.user_id}>, I cannot send you direct messages: use the **Show my hand** button on the table message."
            )

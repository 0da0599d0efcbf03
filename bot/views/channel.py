"""A table's channel kept in step with its game (:class:`TableChannel`): one writer task per table
posts the hand results and the final standings (each once, in order, counted in storage, with a
nonce) and edits the table message at most once per interval (:mod:`bot.outbound.folding`), always
with the newest state. The texts and pictures come from :mod:`bot.views.table` and
:mod:`bot.views.pictures`; the requests go through :class:`bot.outbound.courier.Courier`.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.outbound.courier import Courier
from bot.outbound.folding import Folded, Folds
from bot.tables import Table, TableService
from bot.views.buttons import table_buttons
from bot.views.pictures import Drawing, final_job, result_job, table_job
from bot.views.readers import Readers
from bot.views.table import final_text, result_text, status_text
from engine.table.actions import Action, ActionType

log = logging.getLogger(__name__)
A = ActionType

#: a table message older than this is replaced by a new one rather than edited (Discord limits the
#: edits of messages older than an hour: 30046)
TABLE_MESSAGE_AGE = 50 * 60.0


def channel_of(t: Table) -> int:
    return t.row.thread_id or t.row.channel_id


class TableChannel:
    """The channel side of the tables: ``finished(t)`` is awaited once a game's final standings
    are out (what was kept for the table is dropped then); ``table_interval``: seconds between two
    edits of one table's picture (times the tables sharing the channel)."""

    def __init__(
        self,
        service: TableService,
        courier: Courier,
        drawing: Drawing,
        readers: Readers,
        *,
        table_interval: float,
        finished: Callable[[Table], Awaitable[None]],
    ) -> None:
        self.service = service
        self.courier = courier
        self.drawing = drawing
        self.readers = readers
        self.finished = finished
        self._pictures = Folds(table_interval)

    def close(self) -> None:
        for p in self._pictures.values():
            if p.task is not None:
                p.task.cancel()

    def forget(self, t: Table) -> None:
        self._pictures.pop(t.id)

    async def channel(self, t: Table) -> Any:
        return await self.courier.channel(channel_of(t))

    def turn_in(self, t: Table) -> Any:
        """A turn to send to the table's channel (:meth:`Courier.turn_in`)."""
        return self.courier.turn_in(channel_of(t))

    async def notice(self, t: Table, text: str) -> None:
        try:
            ch = await self.channel(t)
            await ch.send(content=text)
        except Exception:  # a notice lost is logged; the game goes on
            log.exception("table %s: could not post a notice", t.id)

    async def post_pending(self, t: Table) -> None:
        """After a restart: whatever the channel is still owed (results, final standings)."""
        if t.game is not None:
            self.due(t, None, dirty=False)
            p = self._pictures.get(t.id)
            if p is not None and p.task is not None:
                await asyncio.shield(p.task)

    def due(self, t: Table, actions: list[Action] | None, *, dirty: bool = True) -> None:
        """The table changed (``actions`` were played): its writer is told."""
        p = self._picture(t, actions, dirty=dirty)
        if p.task is None or p.task.done():
            p.task = asyncio.create_task(self._writer(t, p), name=f"jantaku-table-channel-{t.id}")

    def _picture(self, t: Table, actions: list[Action] | None, *, dirty: bool = True) -> Folded:
        p = self._pictures.of(t.id, channel_of(t))
        p.note([a for a in actions or () if a.type is not A.PASS], keep=4, dirty=dirty)
        return p

    async def _writer(self, t: Table, p: Folded) -> None:
        backoff = 1.0
        while True:
            g = t.game
            if g is None:
                return
            try:
                if t.row.results_posted < len(g.results):
                    await self._post_results(t)
                elif g.over:
                    if p.dirty or not t.row.final_posted:
                        await self._write_table(t, p)  # the final state, before the standings
                    if not t.row.final_posted:
                        await self._post_final(t)
                    await self.finished(t)
                    return
                elif not p.dirty:
                    return
                else:
                    wait = self._pictures.wait(p)
                    if wait > 0:
                        await asyncio.sleep(wait)
                        continue  # a result may have come meanwhile: it goes first
                    await self.courier.pictures()  # the pictures' share of the bot token's 50/s
                    await self._write_table(t, p)
                backoff = 1.0
            except (discord.Forbidden, discord.NotFound):
                log.warning("table %s: its channel refuses the bot's messages", t.id)
                return  # the next update tries again
            except Exception:
                log.exception("table %s: could not update its channel; trying again in %.0f s", t.id, backoff)
                await asyncio.sleep(backoff)
                backoff = min(60.0, backoff * 2)

    async def _post_results(self, t: Table) -> None:
        g = t.game
        assert g is not None
        ch = await self.channel(t)
        while t.row.results_posted < len(g.results):
            i = t.row.results_posted
            async with self.turn_in(t):
                await self.post_result(ch, t, i)
            t.row.results_posted = i + 1
            await self.service.repo.set_table(t.id, results_posted=i + 1)

    async def _post_final(self, t: Table) -> None:
        ch = await self.channel(t)
        async with self.turn_in(t):
            await self.post_final(ch, t)
        t.row.final_posted = True
        await self.service.repo.set_table(t.id, final_posted=1)

    async def _write_table(self, t: Table, p: Folded) -> None:
        await p.write(lambda last: self._edit_table(t, p, last))

    async def refresh_table(self, t: Table, last: list[Action] | None = None) -> None:
        """Edit the table message now (after an edit already under way) and wait for it."""
        await self._write_table(t, self._picture(t, last))

    async def _edit_table(self, t: Table, p: Folded, last: list[Action] | None = None) -> None:
        ch = await self.channel(t)
        g = t.game
        lang = await self.readers.club_lang(t)
        text = status_text(t, last, lang)
        files = []
        if g is not None:
            job = table_job(t, style=self.readers.tile_style(t), lang=lang)
            png = await self.drawing.gated(job, 1.0)  # hands that come within a second go first
            files = [discord.File(io.BytesIO(png), filename="table.png")]
        view = table_buttons(t, lang) if g is not None and not g.over else None
        hand = g.hand_index if g is not None else -1
        shown = -1 if p.shown is None else p.shown
        # a new hand gets a new table message (the old one stays as that hand's history), and so
        # does a message about to be an hour old: Discord limits the edits of those (30046)
        fresh = shown == hand and t.row.message_id is not None and self.courier.age(t.row.message_id) < TABLE_MESSAGE_AGE
        if t.row.message_id and (fresh or (g is not None and g.over)):
            msg = ch.get_partial_message(t.row.message_id)
            try:
                async with self.turn_in(t):
                    await msg.edit(content=text, attachments=files, view=view)
                return
            except discord.NotFound:
                pass
        async with self.turn_in(t):
            msg = await ch.send(content=text, files=files, view=view)
        self.courier.saw(msg.id)
        p.shown = hand
        t.row.message_id = msg.id
        await self.service.repo.set_table(t.id, message_id=msg.id)

    async def post_result(self, ch: Any, t: Table, idx: int) -> None:
        """The hand's result: the text, and for a win the picture of every winner's hand
        (:func:`bot.render.variants.result_view`)."""
        lang = await self.readers.club_lang(t)
        text, _ = result_text(t, idx, lang)
        files = []
        job = result_job(t, idx, style=self.readers.tile_style(t), lang=lang)
        if job is not None:
            png = await self.drawing.draw(job)
            files = [discord.File(io.BytesIO(png), filename="result.png")]
        await ch.send(content=text, files=files, nonce=f"jr{t.id}.{idx}")

    async def post_final(self, ch: Any, t: Table) -> None:
        lang = await self.readers.club_lang(t)
        png = await self.drawing.draw(final_job(t, lang=lang))
        await ch.send(content=final_text(t, lang), files=[discord.File(io.BytesIO(png), filename="final.png")], nonce=f"jf{t.id}")

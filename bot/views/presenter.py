"""Turns table updates into Discord messages: :class:`Presenter` hears every
:class:`~bot.tables.Update` and keeps the table's channel (:class:`~bot.views.channel.TableChannel`)
and each player's hand message (:class:`~bot.views.hands.HandMessages`) in step with it. It
decides nothing about the rules: every button is one of the engine's legal actions.

Keeping the event loop free for interactions (a click must be answered within Discord's 3 s, and
we aim for 0.1 s with 200 busy tables):

* pictures are drawn in worker processes (:mod:`bot.outbound.workers`), never on the event loop;
* a player's hand and buttons go out at once, but the public table picture of one table is edited
  at most once per ``table_interval`` (1 s): later updates are folded into the next edit, which
  always shows the newest state (:mod:`bot.outbound.folding`; Discord's edit limits want that pace);
* one player's messages are sent one at a time (a per-seat lock), so an older state never
  overwrites a newer one and leaves stale buttons up; the table picture has one writer per table.
"""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import DEFAULT, Lang
from bot.outbound.courier import Courier
from bot.outbound.pacing import Gate
from bot.render.pictures import PngOptions
from bot.responses import in_time
from bot.tables import Table, TableService, Update
from bot.views import buttons
from bot.views import hand as hand_views
from bot.views.channel import TableChannel
from bot.views.hands import HandClick, HandMessages
from bot.views.pictures import Drawing, renderer, seat_job, table_job
from bot.views.readers import Readers
from engine.table.actions import Action

__all__ = ["DEFAULT_OPTIONS", "Presenter", "PresenterOptions"]


@dataclass(frozen=True, slots=True)
class PresenterOptions:
    """``render_workers``: processes that draw the pictures (0 = draw on the event loop itself);
    ``table_interval``: seconds between two edits of one table's picture (0 = edit on every
    update); ``table_edits_per_s``: table pictures edited per second over all tables (Discord
    allows a bot token 50 requests/s in all: the pictures, the least urgent, take at most this
    share of it; 0 = no limit); ``bot_requests_per_s``: every bot-token request the presenter
    makes, spaced to stay under that 50/s (interaction routes are not counted by Discord);
    ``channel_requests_per_5s``: messages and edits in one channel (Discord: about 5 per 5 s per
    channel, shared by the tables that play there; one is left for what is not paced); ``concurrent``: updates (of any tables) worked on at once, hands before table
    pictures (0 = no limit); ``png``: how pictures are encoded (None = :mod:`bot.render.pictures`'
    defaults)."""

    render_workers: int = 1
    table_interval: float = 1.0
    concurrent: int = 8
    png: PngOptions | None = None
    table_edits_per_s: int = 20
    bot_requests_per_s: int = 40
    channel_requests_per_5s: int = 4


#: What a :class:`Presenter` built without options uses (``bench/bot_load.py`` swaps it for its
#: reference run of the older design: pictures on the event loop, every table update edited).
DEFAULT_OPTIONS = PresenterOptions()


class Presenter:
    """``client``: the discord.py client the requests go through; ``locales`` and ``prefs``: the
    readers' languages and tile styles (:class:`~bot.views.readers.Readers`); ``settled``: awaited
    before a picture is drawn (interactions waiting for a first answer go first)."""

    def __init__(
        self,
        client: Any,
        service: TableService,
        *,
        locales: Any = None,
        prefs: Any = None,
        settled: Callable[[], Awaitable[None]] | None = None,
        options: PresenterOptions | None = None,
    ) -> None:
        self.service = service
        self.options = options or DEFAULT_OPTIONS
        self.renderer = renderer(self.options.render_workers, self.options.png)
        self.gate = Gate(self.options.concurrent, settled)
        self.courier = Courier(
            client,
            bot_requests_per_s=self.options.bot_requests_per_s,
            channel_requests_per_5s=self.options.channel_requests_per_5s,
            pictures_per_s=self.options.table_edits_per_s,
        )
        self.readers = Readers(locales, prefs)
        self.drawing = Drawing(self.renderer, self.gate)
        self.channel = TableChannel(
            service, self.courier, self.drawing, self.readers, table_interval=self.options.table_interval, finished=self._finished
        )
        self.hands = HandMessages(service, self.courier, self.drawing, self.readers, self.channel)

    def close(self) -> None:
        self.channel.close()
        self.hands.close()
        self.renderer.close()

    async def on_update(self, u: Update) -> None:
        """Take an update (called as the action is stored; returns at once): the channel's writer
        is told, and each player's hand goes out in a task of its own, one player's in order, so
        a message waiting out a 429 never holds back another player's hand or the next update."""
        t = u.table
        if t.game is None:
            return
        if u.expired and u.actions and t.seats[u.actions[0].seat].ai is None:
            self.hands.expired(t, u.actions[0])
        # the channel (the first table message, results, the picture) goes its own way: a busy
        # channel never holds the hands back
        self.channel.due(t, u.actions)
        for note in u.notices:  # an mjai seat fell back to the built-in AI: said once, as it happens
            self.hands.spawn(self.channel.notice(t, note), name=f"jantaku-table-notice-{t.id}")
        # the hands and their buttons: that is what the players are waiting for (and a button left
        # up after the game moved on only earns "that turn has passed")
        self.hands.due(t)

    async def _finished(self, t: Table) -> None:
        """The game's final standings are out: nothing of the table is kept any longer."""
        await self.hands.forget(t)
        self.channel.forget(t)

    # -- the table's channel ---------------------------------------------------------------------

    async def refresh_table(self, t: Table, last: list[Action] | None = None) -> None:
        """Edit the table message now (after an edit already under way) and wait for it."""
        await self.channel.refresh_table(t, last)

    async def post_pending(self, t: Table) -> None:
        """After a restart: whatever the channel is still owed (results, final standings)."""
        await self.channel.post_pending(t)

    def table_picture(self, t: Table, seat: int | None, lang: Lang = DEFAULT) -> Awaitable[bytes]:
        """The public table picture as the game is now, drawn from ``seat`` (at the bottom); for a
        spectator (None) in the shared picture's orientation. Someone waits for it: it goes with
        the hands (await it)."""
        return self.drawing.gated(table_job(t, bottom=seat or 0, style=self.readers.tile_style(t), lang=lang), 0.0)

    # -- the players' hands ----------------------------------------------------------------------

    async def prompt_humans(self, t: Table, *, everyone: bool = False) -> None:
        """Send the hand of every human who must act now, and of those whose buttons just went
        stale (so no old button stays up); everyone after a restart."""
        await self.hands.prompt_humans(t, everyone=everyone)

    async def refresh_hand(self, t: Table, seat: int) -> None:
        """Show a player's hand again though the game did not move (a standing order changed what
        its buttons do)."""
        await self.hands.refresh_hand(t, seat)

    def click(self, table_id: int, interaction: discord.Interaction) -> HandClick:
        """A click on a hand's button: the one path that answers it (:class:`HandClick`)."""
        return self.hands.click(table_id, interaction)

    async def seat_changed(self, t: Table, seat: int, *, left: tuple[int | None, int | None] = (None, None)) -> None:
        """The seat has a new player (a league's substitute): :meth:`HandMessages.seat_changed`."""
        await self.hands.seat_changed(t, seat, left=left)

    def hand_args(self, t: Table, seat: int, lang: Lang = DEFAULT) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The arguments of ``render_hand`` for this seat's hand picture (its title in ``lang``)."""
        return hand_views.hand_args(t, seat, lang)

    def seat_picture(self, t: Table, seat: int, lang: Lang = DEFAULT) -> Awaitable[bytes]:
        """The "Show my hand" picture, for that player only: the table drawn from their seat (at
        the bottom) with their own hand under it, as the game is now; drawn by the render worker,
        as every hand is (await it)."""
        return self.drawing.gated(seat_job(t, seat, style=self.readers.tile_style(t, seat), lang=lang), 0.0)

    async def show_hand(self, t: Table, seat: int, interaction: discord.Interaction, lang: Lang) -> None:
        """The answer to "Show my hand": the table drawn from the player's seat with their hand
        under it, with their buttons when they act, ephemeral; the moment shown is taken now, the
        picture drawn by the render worker, with a deferred answer if it is slow to come. Without
        DMs, that ephemeral is the player's hand from then on (kept current through its token)."""
        g = t.game
        assert g is not None
        text = self.hands.hand_text(t, seat, lang)
        view = buttons.hand_view(t, seat, lang) if seat in g.to_act() else discord.utils.MISSING
        png = await in_time(interaction, self.seat_picture(t, seat, lang))
        file = discord.File(io.BytesIO(png), filename="hand.png")
        if interaction.response.is_done():
            sent = await interaction.edit_original_response(content=text, attachments=[file], view=view)
            message_id: int | None = sent.id
        else:
            callback = await interaction.response.send_message(text, file=file, view=view, ephemeral=True)
            message_id = callback.message_id
        self.hands.showed_hand(t, seat, interaction, message_id)

    # -- outside a table (leagues) -------------------------------------------------------------------

    async def notify(self, user_id: int, text: str) -> bool:
        """One DM to a player (:meth:`Courier.notify`); False if their DMs are closed."""
        return await self.courier.notify(user_id, text)

    async def post(self, channel_id: int, text: str, *, files: Sequence[discord.File] = (), view: discord.ui.View | None = None) -> Any:
        """A message in a channel, paced, cut to Discord's length (:meth:`Courier.post`)."""
        return await self.courier.post(channel_id, text, files=files, view=view)

    async def edit_post(self, channel_id: int, message_id: int, text: str, *, drop_view: bool = False) -> None:
        """Edit a message :meth:`post` sent, paced as a post is (:meth:`Courier.edit_post`)."""
        await self.courier.edit_post(channel_id, message_id, text, drop_view=drop_view)

"""``/replay table:<id> [seat:<seat>]``: step through a finished game, ephemeral to the asker.

Thin: the command and the buttons parse, ask :mod:`bot.replay` for the state at a position (the
engine replays the stored actions) and have the presenter's render worker draw it. The buttons are
``DynamicItem``s whose ``custom_id`` carries everything, ``mjp:<table>:<seat>:<position>:<move>``
(seat ``a`` = every hand open; move ``b``/``f`` one action back/forward, ``p``/``n`` to the
previous/next hand's stop), so a replay keeps working after a restart. A click answers with the
new picture in place (UPDATE_MESSAGE); a position outside the game gets one sentence and changes
nothing. Refusals of the command are :class:`~bot.replay.ReplayError`, answered by the command
tree's handler.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import TYPE_CHECKING, Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot import replay
from bot.command_tree import answer
from bot.i18n import lang_of
from bot.responses import DEFER_AFTER
from bot.tables import TableError

if TYPE_CHECKING:
    from bot.client import JantakuBot

#: the buttons in their order: previous hand, one action back, one action on, next hand
_MOVES = {"p": "⏮", "b": "◀", "f": "▶", "n": "⏭"}


def _seat_code(seat: int) -> str:
    return "a" if seat == replay.ALL else str(seat)


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mjp:(?P<table>\d{1,12}):(?P<seat>[0-9a]):(?P<pos>\d{1,12}):(?P<move>[pbfn])"):
    def __init__(self, table: int, seat: int, pos: int, move: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=_MOVES[move], style=discord.ButtonStyle.secondary, custom_id=f"mjp:{table}:{_seat_code(seat)}:{pos}:{move}", disabled=disabled
            )
        )
        self.table, self.seat, self.pos, self.move = table, seat, pos, move

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /) -> Self:
        seat = replay.ALL if match["seat"] == "a" else int(match["seat"])
        return cls(int(match["table"]), seat, int(match["pos"]), match["move"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: JantakuBot = interaction.client  # type: ignore[assignment]
        lang = lang_of(interaction.locale)
        try:
            t = await bot.service.get_in(self.table, interaction.guild_id)
            s = await replay.step(t, self.pos, self.seat, self.move, lang)
        except (TableError, replay.ReplayError) as e:
            await answer(interaction, e.sentence(lang))
            bot.responses.answered(interaction)
            return
        await show(bot, interaction, s, self.seat, update=True)


def buttons(s: replay.Step, seat: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for move in _MOVES:
        to = replay.target(s.index, s.total, s.stops, move)
        view.add_item(ReplayButton(s.table.id, seat, s.index, move, disabled=not 0 <= to <= s.total))
    return view


async def show(bot: JantakuBot, interaction: discord.Interaction, s: replay.Step, seat: int, *, update: bool) -> None:
    """The step's picture and caption: in place of the clicked message (``update``) or as the
    command's ephemeral answer; deferred first when the render worker is slow to draw it."""
    kind, args, kwargs = replay.picture_args(bot.presenter, s, seat, lang_of(interaction.locale))
    style = bot.prefs.player(interaction.guild_id, interaction.user.id)  # the viewer's own picture
    work = asyncio.ensure_future(bot.presenter.renderer.png(kind, *args, style=style, **kwargs))
    done, _ = await asyncio.wait({work}, timeout=DEFER_AFTER)
    if not done and not interaction.response.is_done():
        if update:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
    bot.responses.answered(interaction)
    png = await work
    file = discord.File(io.BytesIO(png), filename="replay.png")
    view = buttons(s, seat)
    if interaction.response.is_done():
        await interaction.edit_original_response(content=s.caption, attachments=[file], view=view)
    elif update:
        await interaction.response.edit_message(content=s.caption, attachments=[file], view=view)
    else:
        await interaction.response.send_message(s.caption, file=file, view=view, ephemeral=True)


class Replay(commands.Cog):
    def __init__(self, bot: JantakuBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ReplayButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ReplayButton)

    @app_commands.command(name="replay", description="Step through a finished game, action by action")
    @app_commands.describe(table="the table's number", seat="whose view: all (every hand open), 1-4 or a player's name; yours by default")
    async def replay_command(self, interaction: discord.Interaction, table: app_commands.Range[int, 1, 2**53], seat: str | None = None) -> None:
        t = await self.bot.service.get_in(table, interaction.guild_id)
        replay.finished(t)
        choice = replay.parse_seat(t, seat, interaction.user.id)
        s = await replay.step(t, 0, choice, lang=lang_of(interaction.locale))
        await show(self.bot, interaction, s, choice, update=False)


async def setup(bot: JantakuBot) -> None:
    await bot.add_cog(Replay(bot))


__all__ = ["Replay", "ReplayButton", "buttons", "setup", "show"]

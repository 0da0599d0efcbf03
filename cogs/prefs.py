"""``/prefs`` commands: a player's own settings in a server, and the club's defaults of them.

* ``/prefs tiles [style]`` — the tile style of the pictures only you see (your hand, your seat's
  view, your look-ups): ``faces`` (the real tiles), ``letters`` (E, Rd, 5m: for newcomers) or
  ``club`` (follow the club); without a style, says which one you have. Answered only to you.
* ``/prefs club_tiles style`` — the club's default (organisers): the table and result pictures the
  channel sees, and every player who chose none. Answered in the channel.

Thin: :class:`~bot.prefs.TileStyles` (the bot's ``prefs``) stores and keeps the choices; a refusal
is answered, ephemeral, by the command tree's one error handler.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.command_tree import organiser_only
from bot.prefs import TileStyles

if TYPE_CHECKING:
    from bot.client import JantakuBot

_SHOWN = {"faces": "the real tile faces", "letters": "letter tiles (E, Rd, 5m)"}
_OWN = [
    app_commands.Choice(name="faces: the real tiles", value="faces"),
    app_commands.Choice(name="letters: E, Rd, 5m (for newcomers)", value="letters"),
    app_commands.Choice(name="club: whatever this club uses", value="club"),
]
_CLUB = _OWN[:2]


class Prefs(commands.GroupCog, group_name="prefs", group_description="Your own settings in this server"):
    def __init__(self, bot: JantakuBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def styles(self) -> TileStyles:
        return self.bot.prefs

    @app_commands.command(name="tiles", description="The tiles of the pictures only you see: real faces or letters")
    @app_commands.describe(style="faces, letters, or club (follow this club's choice); leave out to see yours")
    @app_commands.choices(style=_OWN)
    async def tiles(self, interaction: discord.Interaction, style: str | None = None) -> None:
        gid, uid = interaction.guild_id, interaction.user.id
        if style is not None:
            await self.styles.set_player(gid, uid, None if style == "club" else style)
        own = self.styles.own(gid, uid)
        shown = _SHOWN[self.styles.player(gid, uid)]
        if own is None:
            text = f"Your hand and look-up pictures show {shown}, as this club's do."
        else:
            text = f"Your hand and look-up pictures show {shown}."
        if style is None:
            text += " Change it with /prefs tiles style:…"
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="club_tiles", description="The tiles of this club's table pictures (organisers)")
    @app_commands.describe(style="faces (the real tiles) or letters (E, Rd, 5m)")
    @app_commands.choices(style=_CLUB)
    @organiser_only("choose the club's tile style")
    async def club_tiles(self, interaction: discord.Interaction, style: str) -> None:
        await self.styles.set_club(interaction.guild_id, interaction.user.id, style)
        await interaction.response.send_message(
            f"This club's table pictures now show {_SHOWN[style]}; a player can choose their own with /prefs tiles."
        )


async def setup(bot: JantakuBot) -> None:
    await bot.add_cog(Prefs(bot))

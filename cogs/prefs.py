"""``/prefs`` commands: a player's own settings in a server, and the club's defaults of them.

* ``/prefs tiles [style]`` — the tile style of the pictures only you see (your hand, your seat's
  view, your look-ups): ``faces`` (the real tiles), ``letters`` (E, Rd, 5m: for newcomers) or
  ``club`` (follow the club); without a style, says which one you have. Answered only to you.
* ``/prefs club_tiles style`` — the club's default (organisers): the table and result pictures the
  channel sees, and every player who chose none. Answered in the channel.
* ``/prefs club_language [language]`` — the club's language (organisers): the messages every player
  of the channel shares (table messages, league posts) are in it; without a language, says which
  one it is. Answered in the channel (in the asker's own language, as every reply).

Thin: :class:`~bot.prefs.TileStyles` (the bot's ``prefs``) stores and keeps the choices; a refusal
is answered, ephemeral, by the command tree's one error handler.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.command_tree import organiser_only
from bot.i18n import LANGS, N_, Lang, lang_of, t
from bot.prefs import PrefsError, TileStyles

if TYPE_CHECKING:
    from bot.client import JantakuBot

_SHOWN = {"faces": N_("the real tile faces"), "letters": N_("letter tiles (E, Rd, 5m)")}
#: each language by its own name (the same in every language)
_LANGUAGE_NAMES: dict[str, str] = {"ja": "日本語", "en": "English"}
_LANGUAGES = [app_commands.Choice(name=_LANGUAGE_NAMES[code], value=code) for code in LANGS]
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
        lang = lang_of(interaction.locale)
        if style is not None:
            await self.styles.set_player(gid, uid, None if style == "club" else style)
        own = self.styles.own(gid, uid)
        shown = t(lang, _SHOWN[self.styles.player(gid, uid)])
        if own is None and style is None:
            text = t(lang, "Your hand and look-up pictures show {shown}, as this club's do. Change it with /prefs tiles style:…", shown=shown)
        elif own is None:
            text = t(lang, "Your hand and look-up pictures show {shown}, as this club's do.", shown=shown)
        elif style is None:
            text = t(lang, "Your hand and look-up pictures show {shown}. Change it with /prefs tiles style:…", shown=shown)
        else:
            text = t(lang, "Your hand and look-up pictures show {shown}.", shown=shown)
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="club_tiles", description="The tiles of this club's table pictures (organisers)")
    @app_commands.describe(style="faces (the real tiles) or letters (E, Rd, 5m)")
    @app_commands.choices(style=_CLUB)
    @organiser_only("choose the club's tile style")
    async def club_tiles(self, interaction: discord.Interaction, style: str) -> None:
        await self.styles.set_club(interaction.guild_id, interaction.user.id, style)
        lang = lang_of(interaction.locale)
        await interaction.response.send_message(
            t(lang, "This club's table pictures now show {shown}; a player can choose their own with /prefs tiles.", shown=t(lang, _SHOWN[style]))
        )

    @app_commands.command(name="club_language", description="The language of this club's shared messages: tables, leagues (organisers)")
    @app_commands.describe(language="日本語 (ja) or English (en); leave out to see the current one")
    @app_commands.choices(language=_LANGUAGES)
    @organiser_only("choose the club's language")
    async def club_language(self, interaction: discord.Interaction, language: str | None = None) -> None:
        lang = lang_of(interaction.locale)
        gid = interaction.guild_id
        if gid is None:
            raise PrefsError("the club's language is chosen per server: use /prefs in a server's channel")
        if language is None:
            now = await self.bot.locales.of_club(gid)
            text = t(lang, "This club's shared messages (tables, league posts) are in {language}. Change it with /prefs club_language language:…",
                     language=_LANGUAGE_NAMES[now])
        else:
            if language not in LANGS:
                raise PrefsError("the club's language is ja or en, not {language}", language=repr(language))
            chosen: Lang = "ja" if language == "ja" else "en"
            await self.bot.locales.set_club(gid, chosen)
            text = t(lang, "This club's shared messages (tables, league posts) are now in {language}; each reply stays in its asker's language.",
                     language=_LANGUAGE_NAMES[chosen])
        await interaction.response.send_message(text)


async def setup(bot: JantakuBot) -> None:
    await bot.add_cog(Prefs(bot))

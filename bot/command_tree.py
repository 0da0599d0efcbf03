"""What every slash command shares: the one error handler on the command tree, and the organiser check.

:class:`Tree` is the bot's ``CommandTree``: a :class:`~bot.errors.UserError` raised by a command
(or by a check such as :func:`organiser_only`) is answered with its sentence, ephemeral; anything
else with :data:`GENERIC` and a log line with its traceback, never a traceback to the user. The
cogs therefore neither catch their errors nor have error handlers of their own.

An organiser is a member with Manage Server or the organiser role (``ORGANISER_ROLE``):
:func:`is_organiser` tells, :func:`organiser_only` refuses a command to anyone else before it runs.
Buttons are not commands: their callbacks answer their own refusals.

Autocomplete of a club's names (leagues, seasons, house rules): :func:`choices` answers what was
typed, :func:`complete` hangs one such callback on several commands' option.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.errors import UserError
from bot.i18n import N_, Lang, command_text, lang_of, t

log = logging.getLogger(__name__)

T = TypeVar("T")

GENERIC = N_("Something went wrong on my side; nothing was changed. Please try again.")
MESSAGE_LIMIT = 2000  # Discord's limit for a message
CHOICES_LIMIT = 25  # Discord: choices in one autocomplete answer


async def answer(interaction: discord.Interaction[Any], text: str) -> None:
    """One ephemeral sentence, whether or not the interaction was answered (or deferred) already."""
    text = text[:MESSAGE_LIMIT]
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


class Tree(app_commands.CommandTree[Any]):
    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        lang = lang_of(interaction.locale)
        if isinstance(original, UserError):
            text = original.sentence(lang)
        else:
            name = interaction.command.qualified_name if interaction.command is not None else "?"
            log.error("/%s failed", name, exc_info=original)
            text = t(lang, GENERIC)
        await answer(interaction, text)


class NotOrganiser(UserError, app_commands.CheckFailure):
    """A command for organisers, asked by someone else; ``what`` (a catalog message) is what they may do."""

    full_stop = True

    def fields(self, lang: Lang) -> dict[str, Any]:
        return {**self.kw, "what": t(lang, self.kw["what"])}


def is_organiser(interaction: discord.Interaction[Any]) -> bool:
    """Manage Server, or the organiser role (the bot's settings name it)."""
    member = interaction.user
    if not isinstance(member, discord.Member):
        return False
    if member.guild_permissions.manage_guild:
        return True
    role = interaction.client.settings.organiser_role  # type: ignore[attr-defined]
    return any(r.name == role for r in member.roles)


def organiser_only(what: str) -> Callable[[T], T]:
    """``@organiser_only("end a season")``: the command is refused to anyone but an organiser,
    before its options are read, with one sentence saying who may ``what``."""

    def predicate(interaction: discord.Interaction[Any]) -> bool:
        if not is_organiser(interaction):
            role = interaction.client.settings.organiser_role  # type: ignore[attr-defined]
            raise NotOrganiser("only an organiser (the {role} role or Manage Server) can {what}", role=role, what=what)
        return True

    return app_commands.check(predicate)


def choices(
    names: Iterable[str], current: str, label: Callable[[str], str] | None = None
) -> list[app_commands.Choice[str]]:
    """An autocomplete answer: the ``names`` (in their order) that contain ``current``, ignoring
    case, as choices whose value is the name and whose shown name is ``label(name)`` (the name
    itself by default); at most Discord's 25."""
    want = current.casefold()
    return [
        app_commands.Choice(name=label(n) if label else n, value=n) for n in names if want in n.casefold()
    ][:CHOICES_LIMIT]


def complete(option: str, callback: Any, *commands: app_commands.Command[Any, ..., Any]) -> None:
    """``complete("season", _season_complete, end, rename)``: the same autocomplete ``callback``
    for the option named ``option`` of each command (call it in the cog's class body)."""
    for command in commands:
        command.autocomplete(option)(callback)


class JantakuTranslator(app_commands.Translator):
    """The slash commands' Japanese localizations, from the ``command`` entries of the ja catalog.
    (English is the commands' own text, so only ``ja`` is localized.)"""

    async def translate(
        self, string: app_commands.locale_str, locale: Any, context: app_commands.TranslationContextTypes
    ) -> str | None:
        if lang_of(locale) != "ja":
            return None
        return command_text("ja", string.message)

"""Buttons: every game action is a ``DynamicItem`` whose ``custom_id`` carries table, serial and action.

``mj:<table>:<serial>:<action>`` — an engine action (``1d5m``, ``2h``, seigou's ``3p55m@1``,
shoukou's ``2c34m8m>5m``, ...), valid while the table's decision serial is unchanged ("that turn
has passed" otherwise); ``mjr:<table>:<serial>:<seat>`` — open the riichi chooser (taiwan16's
"Declare ready", chinitsu_toutenkou's open riichi too); ``mjw:<table>:<serial>:<action>`` — a
discard that asks to be confirmed first: one that deals into an open riichi (CT-F2), or any discard
of a player with two-tap discards on (``/table auto what:confirm-discard``); ``mjh:<table>`` — "Show
my hand": the table drawn from the player's seat with their hand under it, ephemeral (the player's
hand message when their direct messages are closed). Because the meaning is in the
id, the buttons keep working after a restart without any stored view.

The buttons are built by :mod:`bot.views.buttons` (with these templates); this cog only translates
a click into a request: an action goes to the table service inside the click's one owner
(:class:`bot.views.hands.HandClick`), which answers it with the new hand.
"""

from __future__ import annotations

import logging
import re
from contextlib import suppress
from typing import TYPE_CHECKING, Any, ClassVar, Self

import discord
from discord.ext import commands

from bot import i18n
from bot.i18n import DEFAULT, Lang, lang_of
from bot.tables import TableError
from bot.views import buttons
from engine.table.actions import Action

if TYPE_CHECKING:
    from bot.client import JantakuBot

log = logging.getLogger(__name__)


def _lang(interaction: discord.Interaction) -> Lang:
    """The clicker's language: every answer to a click is theirs alone."""
    return lang_of(getattr(interaction, "locale", None))  # (stand-ins in tests have none)


def _refusal(interaction: discord.Interaction, e: Exception) -> str:
    """A refusal in the clicker's language (an engine's own sentence stays as it is)."""
    sentence = getattr(e, "sentence", None)
    return sentence(_lang(interaction)) if callable(sentence) else str(e)


async def _answer(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral plain sentence, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=buttons.ACTION_TEMPLATE):
    """An engine action; subclasses with another ``PREFIX`` (and template) ask something first."""

    PREFIX: ClassVar[str] = "mj"
    STYLE: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.primary

    def __init__(self, table: int, serial: int, act: str, *, label: str = "", style: discord.ButtonStyle | None = None, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or act, style=style or self.STYLE, custom_id=f"{self.PREFIX}:{table}:{serial}:{act}", row=row
            )
        )
        self.table = table
        self.serial = serial
        self.act = act

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /) -> Self:
        return cls(int(match["table"]), int(match["serial"]), match["act"], label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: JantakuBot = interaction.client  # type: ignore[assignment]
        # the first response is the new hand itself (UPDATE_MESSAGE), or a deferred update if it
        # is not ready in time (the click's clock starts now), so this click is not waited for
        bot.responses.answered(interaction)
        with bot.presenter.click(self.table, interaction) as click:  # its one answer is given here
            # the engine, the AI seats and the storage after every other waiting click has its answer
            await bot.responses.settled()
            try:
                await bot.service.act(self.table, interaction.user.id, self.act, self.serial)
            except TableError as e:
                await click.refused(_refusal(interaction, e), self.serial)
                return
            await click.answered()


class RiichiChooser(discord.ui.DynamicItem[discord.ui.Button[Any]], template=buttons.RIICHI_TEMPLATE):
    def __init__(self, table: int, serial: int, seat: int, *, row: int | None = None, label: str = "Riichi…") -> None:
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.danger, custom_id=f"mjr:{table}:{serial}:{seat}", row=row)
        )
        self.table = table
        self.serial = serial
        self.seat = seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /) -> RiichiChooser:
        return cls(int(match["table"]), int(match["serial"]), int(match["seat"]), label=item.label or "Riichi…")

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: JantakuBot = interaction.client  # type: ignore[assignment]
        try:
            t = await bot.service.get(self.table)
        except TableError as e:
            await _answer(interaction, _refusal(interaction, e))
            return
        if t.seat_of(interaction.user.id) != self.seat:
            await _answer(interaction, i18n.t(_lang(interaction), "that is another player's hand"))
            return
        g = t.game
        if g is None or t.decision_serial() != self.serial:
            await _answer(interaction, i18n.t(_lang(interaction), "that turn has passed"))
            return
        question, view = buttons.riichi_question(t, self.serial, self.seat, _lang(interaction))
        await interaction.response.send_message(question, view=view, ephemeral=True)


class ConfirmDiscard(ActionButton, template=buttons.CONFIRM_TEMPLATE):
    """A discard asked to be confirmed first, with a second button that plays it: one that deals
    into an open riichi (CT-F2), and every discard of a player who turned on two-tap discards
    (``/table auto what:confirm-discard``: a mis-tap on a phone is final otherwise)."""

    PREFIX = "mjw"
    STYLE = discord.ButtonStyle.danger

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: JantakuBot = interaction.client  # type: ignore[assignment]
        try:
            t = await bot.service.get(self.table)
            a = Action.parse(self.act)
        except (TableError, ValueError) as e:
            await _answer(interaction, _refusal(interaction, e))
            return
        if t.seat_of(interaction.user.id) != a.seat:
            await _answer(interaction, i18n.t(_lang(interaction), "that is another player's hand"))
            return
        g = t.game
        if g is None or t.decision_serial() != self.serial:
            await _answer(interaction, i18n.t(_lang(interaction), "that turn has passed"))
            return
        text, view = buttons.confirm_question(t, self.serial, a, _lang(interaction))
        await interaction.response.send_message(text, view=view, ephemeral=True)


class ShowHand(discord.ui.DynamicItem[discord.ui.Button[Any]], template=buttons.SHOW_HAND_TEMPLATE):
    def __init__(self, table: int, *, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(label=label or i18n.t(DEFAULT, "Show my hand"), style=discord.ButtonStyle.secondary, custom_id=f"mjh:{table}")
        )
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /) -> ShowHand:
        return cls(int(match["table"]), label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: JantakuBot = interaction.client  # type: ignore[assignment]
        try:
            t = await bot.service.get(self.table)
        except TableError as e:
            await _answer(interaction, _refusal(interaction, e))
            return
        lang = _lang(interaction)
        seat = t.seat_of(interaction.user.id)
        if seat is None:
            await _answer(interaction, i18n.t(lang, "you are not seated at this table"))
            return
        if t.game is None or t.game.over:
            await _answer(interaction, i18n.t(lang, "that game is over"))
            return
        bot.responses.answered(interaction)  # show_hand answers it within Discord's 3 s
        await bot.presenter.show_hand(t, seat, interaction, lang)


class Play(commands.Cog):
    def __init__(self, bot: JantakuBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ActionButton, RiichiChooser, ConfirmDiscard, ShowHand)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ActionButton, RiichiChooser, ConfirmDiscard, ShowHand)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A button that looks like ours but is no button we make (forged, or from a version of the
        bot that made other ones): one sentence instead of Discord's "This interaction failed".
        Buttons of other prefixes are not ours to answer."""
        if interaction.type is not discord.InteractionType.component:
            return
        cid = str((interaction.data or {}).get("custom_id", ""))
        if not _OURS.match(cid):
            return
        # discord.py runs a button only if the clicked message has it (Discord's clients can only
        # press those); anything else reaching us is answered here
        if any(p.fullmatch(cid) for p in _templates()) and cid in _custom_ids(interaction.message):
            return
        with suppress(discord.HTTPException):
            await interaction.response.send_message(i18n.t(_lang(interaction), "That button is not one I know, so nothing changed."), ephemeral=True)


#: the custom_id prefixes this bot's buttons use
_OURS = re.compile(r"^(mj[a-z]?|lb|lkr):")


def _custom_ids(message: discord.Message | None) -> set[str]:
    out: set[str] = set()
    for row in message.components if message is not None else []:
        for c in getattr(row, "children", [row]):
            cid = getattr(c, "custom_id", None)
            if cid:
                out.add(cid)
    return out


def _templates() -> list[re.Pattern[str]]:
    """The custom_id templates of every DynamicItem defined (every button this bot makes)."""
    out: list[re.Pattern[str]] = []
    todo: list[type[Any]] = [discord.ui.DynamicItem]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            pattern = getattr(sub, "__discord_ui_compiled_template__", None)
            if pattern is not None:
                out.append(pattern)
    return out


async def setup(bot: JantakuBot) -> None:
    await bot.add_cog(Play(bot))


__all__ = ["ActionButton", "Action", "ConfirmDiscard", "Play", "RiichiChooser", "ShowHand", "setup"]

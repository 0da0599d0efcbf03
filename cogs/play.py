"""Buttons: every game action is a ``DynamicItem`` whose ``custom_id`` carries table, serial and action.

``mj:<table>:<serial>:<action>`` — an engine action (``1d5m``, ``2h``, ...), valid while the
table's decision serial is unchanged ("that turn has passed" otherwise);
``mjr:<table>:<serial>:<seat>`` — open the riichi chooser; ``mjh:<table>`` — "Show my hand"
(the ephemeral fallback when direct messages are closed). Because the meaning is in the id, the
buttons keep working after a restart without any stored view.
"""

from __future__ import annotations

import io
import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.presenter import Presenter, action_label
from bot.tables import Table, TableError
from engine.table.actions import Action, ActionType

if TYPE_CHECKING:
    from bot.client import JantakuBot

log = logging.getLogger(__name__)
A = ActionType
_STYLE = {
    A.TSUMO: discord.ButtonStyle.success,
    A.RON: discord.ButtonStyle.success,
    A.RIICHI: discord.ButtonStyle.danger,
    A.PASS: discord.ButtonStyle.secondary,
    A.DISCARD: discord.ButtonStyle.secondary,
}


async def _answer(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral plain sentence, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mj:(?P<table>\d+):(?P<serial>\d+):(?P<act>[0-9a-z]+)"):
    def __init__(self, table: int, serial: int, act: str, *, label: str = "", style: discord.ButtonStyle | None = None, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or act, style=style or discord.ButtonStyle.primary, custom_id=f"mj:{table}:{serial}:{act}", row=row
            )
        )
        self.table = table
        self.serial = serial
        self.act = act

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /) -> ActionButton:
        return cls(int(match["table"]), int(match["serial"]), match["act"], label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: JantakuBot = interaction.client  # type: ignore[assignment]
        await interaction.response.defer()
        try:
            await bot.service.act(self.table, interaction.user.id, self.act, self.serial)
        except TableError as e:
            await interaction.followup.send(str(e), ephemeral=True)


class RiichiChooser(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mjr:(?P<table>\d+):(?P<serial>\d+):(?P<seat>\d)"):
    def __init__(self, table: int, serial: int, seat: int, *, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(label="Riichi…", style=discord.ButtonStyle.danger, custom_id=f"mjr:{table}:{serial}:{seat}", row=row)
        )
        self.table = table
        self.serial = serial
        self.seat = seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /) -> RiichiChooser:
        return cls(int(match["table"]), int(match["serial"]), int(match["seat"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: JantakuBot = interaction.client  # type: ignore[assignment]
        try:
            t = await bot.service.get(self.table)
        except TableError as e:
            await _answer(interaction, str(e))
            return
        if t.seat_of(interaction.user.id) != self.seat:
            await _answer(interaction, "that is another player's hand")
            return
        if t.game is None or t.decision_serial() != self.serial:
            await _answer(interaction, "that turn has passed")
            return
        options = [a for a in t.game.legal_actions(self.seat) if a.type is A.RIICHI]
        view = discord.ui.View(timeout=None)
        for i, a in enumerate(options[:25]):
            view.add_item(ActionButton(t.id, self.serial, a.text, label=action_label(a), style=discord.ButtonStyle.danger, row=i // 5))
        await interaction.response.send_message("Declare riichi with which discard?", view=view, ephemeral=True)


class ShowHand(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mjh:(?P<table>\d+)"):
    def __init__(self, table: int) -> None:
        super().__init__(discord.ui.Button(label="Show my hand", style=discord.ButtonStyle.secondary, custom_id=f"mjh:{table}"))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /) -> ShowHand:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: JantakuBot = interaction.client  # type: ignore[assignment]
        try:
            t = await bot.service.get(self.table)
        except TableError as e:
            await _answer(interaction, str(e))
            return
        seat = t.seat_of(interaction.user.id)
        if seat is None:
            await _answer(interaction, "you are not seated at this table")
            return
        if t.game is None or t.game.over:
            await _answer(interaction, "that game is over")
            return
        p = bot.presenter
        view = hand_view(t, seat) if seat in t.game.to_act() else discord.utils.MISSING
        file = discord.File(io.BytesIO(p.hand_picture(t, seat)), filename="hand.png")
        await interaction.response.send_message(p.hand_text(t, seat), file=file, view=view, ephemeral=True)


def hand_view(t: Table, seat: int) -> discord.ui.View:
    """One button per legal action of this seat (riichi through a chooser)."""
    g = t.game
    assert g is not None
    serial = t.decision_serial()
    view = discord.ui.View(timeout=None)
    legal = list(g.legal_actions(seat))
    discards = [a for a in legal if a.type is A.DISCARD]
    others = [a for a in legal if a.type not in (A.DISCARD, A.RIICHI)]
    for n, a in enumerate(discards[:15]):
        view.add_item(ActionButton(t.id, serial, a.text, label=action_label(a), style=discord.ButtonStyle.secondary, row=n // 5))
    # rows 3 and 4: riichi chooser, wins, calls, kans, pass
    extra: list[tuple[str, Action | None]] = []
    if any(a.type is A.RIICHI for a in legal):
        extra.append(("riichi", None))
    extra += [("act", a) for a in others]
    for i, (kind, a) in enumerate(extra[:10]):
        row = 3 + i // 5
        if kind == "riichi":
            view.add_item(RiichiChooser(t.id, serial, seat, row=row))
        else:
            assert a is not None
            view.add_item(ActionButton(t.id, serial, a.text, label=action_label(a), style=_STYLE.get(a.type, discord.ButtonStyle.primary), row=row))
    return view


def table_view_buttons(t: Table) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ShowHand(t.id))
    return view


def view_factory(kind: str, t: Table, seat: int = -1) -> discord.ui.View:
    if kind == "hand":
        return hand_view(t, seat)
    return table_view_buttons(t)


class Play(commands.Cog):
    def __init__(self, bot: JantakuBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ActionButton, RiichiChooser, ShowHand)
        self.bot.presenter = Presenter(self.bot, self.bot.service, view_factory)
        self.bot.service.listeners.append(self.bot.presenter.on_update)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ActionButton, RiichiChooser, ShowHand)


async def setup(bot: JantakuBot) -> None:
    await bot.add_cog(Play(bot))


__all__ = ["ActionButton", "Action", "Play", "RiichiChooser", "ShowHand", "hand_view", "setup"]

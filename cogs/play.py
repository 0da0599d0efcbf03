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
"""

from __future__ import annotations

import io
import logging
import re
from contextlib import suppress
from typing import TYPE_CHECKING, Any, ClassVar, Self

import discord
from discord.ext import commands

from bot import i18n
from bot.i18n import DEFAULT, Lang, lang_of
from bot.presenter import ClickAnswer, Presenter, action_label, ruleset_word, tile_label
from bot.render import variants as vr
from bot.render.names import seat_name
from bot.responses import in_time
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


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mj:(?P<table>\d+):(?P<serial>\d+):(?P<act>[0-9a-z>@]+)"):
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
        # is not ready in time: ClickAnswer keeps Discord's 3 s, so this click is not waited for
        bot.responses.answered(interaction)
        answer = ClickAnswer(interaction)
        # the engine, the AI seats and the storage after every other waiting click has its answer
        await bot.responses.settled()
        try:
            await bot.service.act(self.table, interaction.user.id, self.act, self.serial)
        except TableError as e:
            await bot.presenter.refused(self.table, interaction, answer, _refusal(interaction, e), self.serial)
            return
        await bot.presenter.answer_click(self.table, interaction, answer)


class RiichiChooser(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mjr:(?P<table>\d+):(?P<serial>\d+):(?P<seat>\d)"):
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
        lang = _lang(interaction)
        legal = list(g.legal_actions(self.seat))
        options = vr.in_hand_order(g, self.seat, [a for a in legal if a.type is A.RIICHI and a.tile >= 0])
        options += vr.in_hand_order(g, self.seat, [a for a in legal if a.type is A.OPEN_RIICHI])
        view = discord.ui.View(timeout=None)
        for i, a in enumerate(options[:25]):
            view.add_item(ActionButton(t.id, self.serial, a.text, label=action_label(a, g, (), lang), style=discord.ButtonStyle.danger, row=i // 5))
        if vr.declares_ready(g):
            question = i18n.t(lang, "Declare ready (tenpai) with which discard? No stick is paid; after it you may not change your hand.")
        elif any(a.type is A.OPEN_RIICHI for a in options):
            question = i18n.t(
                lang,
                "Declare riichi with which discard? Open riichi shows your hand to everyone (2 points, +50 if a player not in riichi deals in).",
            )
        else:
            question = i18n.t(lang, "Declare riichi with which discard?")
        await interaction.response.send_message(question, view=view, ephemeral=True)


class ConfirmDiscard(ActionButton, template=r"mjw:(?P<table>\d+):(?P<serial>\d+):(?P<act>[0-9a-z]+)"):
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
        lang = _lang(interaction)
        names = [seat_name(s, lang) for s in t.seats]
        into = vr.dangerous_discards(g, a.seat, [a]).get(a.tile, [])
        tile = tile_label(a.tile, lang)
        view = discord.ui.View(timeout=None)
        if not into:
            view.add_item(ActionButton(t.id, self.serial, a.text, label=i18n.t(lang, "Discard {tile}", tile=tile), style=discord.ButtonStyle.primary))
            await interaction.response.send_message(i18n.t(lang, "Discard {tile}?", tile=tile), view=view, ephemeral=True)
            return
        who = ", ".join(names[s] for s in into)
        view.add_item(ActionButton(t.id, self.serial, a.text, label=i18n.t(lang, "Discard {tile} anyway", tile=tile), style=discord.ButtonStyle.danger))
        if g.seats[a.seat].riichi:
            text = i18n.t(lang, "Discarding {tile} deals into the open riichi of {who}: it wins on that tile. Discard it anyway?", tile=tile, who=who)
        else:
            text = i18n.t(
                lang,
                "Discarding {tile} deals into the open riichi of {who}: it wins on that tile and pays them 50 more. Discard it anyway?",
                tile=tile,
                who=who,
            )
        await interaction.response.send_message(text, view=view, ephemeral=True)


class ShowHand(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mjh:(?P<table>\d+)"):
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
        p = bot.presenter
        # the moment shown is taken now; the picture (the table from this seat, the hand under it)
        # is drawn by the render worker, with a deferred answer if it is slow to come
        text = p.hand_text(t, seat, lang=lang)
        view = hand_view(t, seat, lang) if seat in t.game.to_act() else discord.utils.MISSING
        bot.responses.answered(interaction)  # in_time answers it within Discord's 3 s
        png = await in_time(interaction, p.seat_picture(t, seat, lang))
        file = discord.File(io.BytesIO(png), filename="hand.png")
        if interaction.response.is_done():
            sent = await interaction.edit_original_response(content=text, attachments=[file], view=view)
            message_id: int | None = sent.id
        else:
            callback = await interaction.response.send_message(text, file=file, view=view, ephemeral=True)
            message_id = callback.message_id
        # this ephemeral is the player's hand from now on: later moves update it through its token
        p.showed_hand(t, seat, interaction, message_id)


_ROWS, _PER_ROW = 5, 5  # Discord: at most 5 rows of 5 buttons


def _rows(n: int) -> int:
    return -(-n // _PER_ROW)


def hand_view(t: Table, seat: int, lang: Lang = DEFAULT) -> discord.ui.View:
    """One button per legal action of this seat: the discards on the first rows (a taiwan16 hand
    may need four) in the order of the hand picture, named as the picture names the tiles, then the
    riichi chooser ("Declare ready…" in taiwan16, with open riichi in chinitsu_toutenkou), wins,
    calls, kans, nuki and pass. A discard that deals into an open riichi asks to confirm first
    (CT-F2); so does every discard of a player who turned on two-tap discards. Labels in ``lang``."""
    g = t.game
    assert g is not None
    serial = t.decision_serial()
    names = [seat_name(s, lang) for s in t.seats]
    view = discord.ui.View(timeout=None)
    legal = list(g.legal_actions(seat))
    discards = vr.in_hand_order(g, seat, [a for a in legal if a.type is A.DISCARD])
    chosen = [a for a in legal if a.type in (A.RIICHI, A.OPEN_RIICHI) and a.tile >= 0]  # with a discard
    others = [a for a in legal if a.type is not A.DISCARD and a not in chosen]
    extra: list[tuple[str, Action | None]] = []
    if chosen:
        extra.append(("riichi", None))
    extra += [("act", a) for a in others]
    room = (_ROWS - min(_rows(len(discards)), _ROWS - 1)) * _PER_ROW
    if len(extra) > room:  # more choices than buttons (shoukou's transformed calls): wins and pass first
        keep = [e for e in extra if e[1] is not None and e[1].type in (A.TSUMO, A.RON, A.PASS)]
        rest = [e for e in extra if e not in keep]
        extra = [e for e in extra if e in keep or e in rest[: room - len(keep)]]
    discards = discards[: (_ROWS - _rows(len(extra))) * _PER_ROW]  # the rows the others leave
    drows = _rows(len(discards))
    danger = vr.dangerous_discards(g, seat, discards)
    two_tap = t.seats[seat].confirm_discard
    for n, a in enumerate(discards):
        if a.tile in danger:
            view.add_item(ConfirmDiscard(t.id, serial, a.text, label=f"⚠ {action_label(a, g, names, lang)}", row=n // _PER_ROW))
        elif two_tap:
            view.add_item(
                ConfirmDiscard(t.id, serial, a.text, label=action_label(a, g, names, lang), style=discord.ButtonStyle.secondary, row=n // _PER_ROW)
            )
        else:
            view.add_item(
                ActionButton(t.id, serial, a.text, label=action_label(a, g, names, lang), style=discord.ButtonStyle.secondary, row=n // _PER_ROW)
            )
    for i, (kind, other) in enumerate(extra):
        row = drows + i // _PER_ROW
        if kind == "riichi":
            view.add_item(RiichiChooser(t.id, serial, seat, row=row, label=i18n.t(lang, "{word}…", word=ruleset_word(lang, vr.declare_word(g)))))
        else:
            assert other is not None
            style = _STYLE.get(other.type, discord.ButtonStyle.primary)
            view.add_item(ActionButton(t.id, serial, other.text, label=action_label(other, g, names, lang), style=style, row=row))
    return view


def table_view_buttons(t: Table, lang: Lang = DEFAULT) -> discord.ui.View:
    """The table message's button, in the club's language ``lang``."""
    view = discord.ui.View(timeout=None)
    view.add_item(ShowHand(t.id, label=i18n.t(lang, "Show my hand")))
    return view


def view_factory(kind: str, t: Table, seat: int = -1, lang: Lang = DEFAULT) -> discord.ui.View:
    if kind == "hand":
        return hand_view(t, seat, lang)
    return table_view_buttons(t, lang)


class Play(commands.Cog):
    def __init__(self, bot: JantakuBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ActionButton, RiichiChooser, ConfirmDiscard, ShowHand)
        self.bot.presenter = Presenter(self.bot, self.bot.service, view_factory)
        self.bot.service.listeners.append(self.bot.presenter.on_update)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ActionButton, RiichiChooser, ConfirmDiscard, ShowHand)
        self.bot.presenter.close()  # stops the render worker process

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


__all__ = ["ActionButton", "Action", "ConfirmDiscard", "Play", "RiichiChooser", "ShowHand", "hand_view", "setup"]

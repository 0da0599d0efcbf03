"""Score sheet commands: ``/sheet start|ron|tsumo|draw|chombo|undo|end``.

Thin: each command reads who it names (a seated player by mention, name or ``guest:Name``; at
``/sheet start`` any member or guest, as ``/result add`` reads them), calls
:class:`~bot.sheet.service.SheetService` (the bot's ``sheets``) and answers, in the channel and in
the asker's language, with what the entry changed; a refusal is answered, ephemeral, by the command
tree's one error handler, and nothing is stored. The sheet itself is one message in the channel,
in the club's language, posted at the start and edited after every change through the
presenter's paced path (:meth:`~bot.presenter.Presenter.post`, ``edit_post``); only its newest
text is sent (a burst of entries makes one edit per channel turn, never one per entry). Player
options autocomplete with the seated players.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.command_tree import answer, choices, complete, is_organiser
from bot.errors import UserError
from bot.i18n import Lang, lang_of, t
from bot.sheet.service import REFUSALS, Current, SheetService, SheetUserError
from bot.sheet.text import change_text, final_text, sheet_text, undo_text
from bot.standings.service import Who
from cogs.standings import Members
from engine.rules.base import UnknownRuleset, find_ruleset, ruleset_names
from engine.sheet import Entry, EntryKind, SheetRefusal, Win, score_hand, sheet_ready

if TYPE_CHECKING:
    from bot.client import JantakuBot

log = logging.getLogger(__name__)

_MENTION = re.compile(r"<@!?(\d+)>")


def seat_named(c: Current, text: str) -> int:
    """The seat of the seated player ``text`` names: a mention, ``guest:Name`` or a name
    (case-insensitive); SheetUserError otherwise."""
    raw = text.strip()
    m = _MENTION.fullmatch(raw)
    for i, p in enumerate(c.row.players):
        if m and p.user_id == int(m[1]):
            return i
        if not m:
            name = raw[6:] if raw.casefold().startswith("guest:") else raw.lstrip("@")
            if " ".join(name.split()).casefold() == p.name.casefold():
                return i
    raise SheetUserError("'{name}' is not a player at this sheet: name one of {players}", name=raw[:40], players=", ".join(c.names))


def seats_named(c: Current, text: str | None) -> tuple[int, ...]:
    """Several seated players: mentions, or names separated by commas (or spaces)."""
    if not text or not text.strip():
        return ()
    out = [seat_named(c, m[0]) for m in _MENTION.finditer(text)]
    rest = _MENTION.sub(",", text)
    for piece in (x.strip() for x in rest.split(",")):
        if not piece:
            continue
        try:
            out.append(seat_named(c, piece))
        except SheetUserError:
            words = piece.split()
            if len(words) < 2:
                raise
            out += [seat_named(c, w) for w in words]
    return tuple(out)


@dataclass(slots=True)
class _Shown:
    """A sheet's message (0 while it is being posted), the newest text for it, the text it shows."""

    channel: int
    message: int
    guild: int | None = None
    text: str = ""
    sent: str = ""
    seq: int = 0
    closed: bool = False  # the newest text is the game's end: the message loses its button


class SheetCog(commands.GroupCog, group_name="sheet", group_description="A score sheet for a game at a real table"):
    def __init__(self, bot: JantakuBot) -> None:
        self.bot = bot
        self._shown: dict[int, _Shown] = {}  # sheet → its message and the newest text for it
        self._seq = itertools.count(1)
        self._writers: dict[int, asyncio.Task[None]] = {}
        super().__init__()

    @property
    def svc(self) -> SheetService:
        return self.bot.sheets

    async def cog_unload(self) -> None:
        for task in list(self._writers.values()):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task

    # ---------------------------------------------------------------- the sheet message

    async def _show(self, c: Current, seq: int) -> None:
        """Post the sheet, or have its message show the newest state: ``seq`` orders the states
        (taken when the service answered), an older one never replaces a newer; one writer per
        sheet sends the newest text when the channel's turn comes, so a burst of entries makes one
        edit per turn."""
        club = await self.bot.locales.of_club(c.row.guild_id)
        text = sheet_text(c, club)
        shown = self._shown.get(c.row.id)
        if shown is None:
            shown = self._shown[c.row.id] = _Shown(c.row.channel_id, c.row.message_id or 0, c.row.guild_id)
            if not shown.message:  # a new sheet: post it (and later states wait for its id)
                shown.seq, shown.text = seq, text
                try:
                    msg = await self.bot.presenter.post(c.row.channel_id, text, view=sheet_view(c.row.id, club))
                except BaseException:
                    del self._shown[c.row.id]  # the next change posts it again
                    raise
                shown.message, shown.sent = msg.id, text
                await self.svc.shown_in(c.row.id, msg.id)
                self._kick(c.row.id)
                return
        if seq < shown.seq:
            return
        shown.seq, shown.text, shown.closed = seq, text, c.state.over
        if shown.message:
            self._kick(c.row.id)

    def _kick(self, sheet_id: int) -> None:
        task = self._writers.get(sheet_id)
        if task is None or task.done():
            self._writers[sheet_id] = asyncio.create_task(self._write(sheet_id), name=f"sheet-{sheet_id}")

    async def _write(self, sheet_id: int) -> None:
        shown = self._shown[sheet_id]
        while shown.text != shown.sent:
            text = shown.text
            try:
                await self.bot.presenter.edit_post(shown.channel, shown.message, text, drop_view=shown.closed)
            except discord.NotFound:  # the message was deleted: the sheet is posted again
                club = await self.bot.locales.of_club(shown.guild)
                msg = await self.bot.presenter.post(shown.channel, text, view=None if shown.closed else sheet_view(sheet_id, club))
                shown.message = msg.id
                await self.svc.shown_in(sheet_id, msg.id)
            except discord.HTTPException as e:
                log.warning("sheet %s: could not edit its message: %s", sheet_id, e)
                return
            shown.sent = text

    async def _complete_player(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            c = await self.svc.current(interaction.channel_id or 0)
        except SheetUserError:
            return []
        return choices(c.names, current)

    async def _complete_ruleset(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return choices(_sheet_rulesets(), current)

    async def _complete_house(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        profiles, _ = await self.bot.house.profiles(interaction.guild_id)
        return choices([p.name for p in profiles if sheet_ready(p.rules)], current)

    async def _complete_season(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return choices([x.name for x in reversed(await self.bot.standings.list_seasons(interaction.guild_id)) if x.active], current)

    # ---------------------------------------------------------------- commands

    @app_commands.command(name="start", description="Open a score sheet for a game at a real table")
    @app_commands.describe(
        p1="East at the start: a member (@name), a name or guest:Name", p2="South at the start", p3="West at the start",
        p4="North at the start (leave out for three players)", house="this club's house rules (/house list)",
        ruleset="rules it plays (riichi, tenhou, mleague, ema, wrc, sanma, …)", season="the season it is recorded in",
        league_table="a league's name: the game goes to its season, to the round's table of these players",
    )
    async def start(
        self, interaction: discord.Interaction, p1: str, p2: str, p3: str, p4: str | None = None, house: str | None = None,
        ruleset: str | None = None, season: str | None = None, league_table: str | None = None,
    ) -> None:
        members = Members(interaction)
        texts = [p for p in (p1, p2, p3, p4) if p is not None]
        await members.prefetch(*texts)
        whos: list[Who] = [members.resolve(p) for p in texts]
        rules = None
        if ruleset and ruleset.strip().lower() in ruleset_names() and ruleset.strip().lower() not in _sheet_rulesets():
            raise SheetUserError(REFUSALS[SheetRefusal.NOT_FOR_SHEET], ruleset=ruleset.strip().lower())
        if ruleset and ruleset.strip().lower() not in _sheet_rulesets():
            raise SheetUserError("unknown ruleset {given}: choose one of {choices}", given=f"'{ruleset.strip()[:40]}'", choices=", ".join(_sheet_rulesets()))
        if house or ruleset:
            rules, house = await self.bot.house.resolve(interaction.guild_id, house, ruleset)
            if ruleset and len(whos) == 3 and rules.players == 4:
                # a four-player name with three players: the ruleset's own three-player form where it has one
                with contextlib.suppress(UnknownRuleset):
                    rules = find_ruleset(ruleset.strip(), players=3)
        elif (club := await self.bot.house.default(interaction.guild_id)) is not None and club.rules.players == len(whos):
            rules, house = club.rules, club.name
        c = await self.svc.start(
            interaction.guild_id, interaction.channel_id or 0, interaction.user.id, whos, rules, house, season=season, league=league_table,
        )
        seq = next(self._seq)
        lang = lang_of(interaction.locale)
        seats = ", ".join(f"{t(lang, w)} {p.name}" for w, p in zip(("East", "South", "West", "North"), c.row.players))
        await interaction.response.send_message(
            t(lang, "Score sheet #{sheet} is open: {seats}. Enter each hand with /sheet ron, tsumo, draw or chombo.", sheet=c.row.id, seats=seats)
        )
        await self._show(c, seq)

    async def _entered(self, interaction: discord.Interaction, make: Any) -> None:
        c, outcome, game = await self.svc.enter(interaction.channel_id or 0, interaction.user.id, is_organiser(interaction), make)
        seq = next(self._seq)
        lang = lang_of(interaction.locale)
        text = change_text(c, outcome, lang)
        if game is not None:
            text += "\n" + final_text(c, c.final(), game, lang)
        await interaction.response.send_message(text[:2000])
        await self._show(c, seq)

    @app_commands.command(name="ron", description="A win by ron")
    @app_commands.describe(
        winner="who won", loser="who dealt in", han="han (13 for a yakuman)", fu="fu (not needed from 5 han)",
        riichi="who declared riichi this hand (names or @mentions, comma separated)",
        hand="instead of han and fu: the hand, like 234m567p2299s pon(222z) ron 9s",
        winner2="a second winner on the same discard", han2="the second winner's han", fu2="the second winner's fu",
        winner3="a third winner (where the rules allow it)", han3="the third winner's han", fu3="the third winner's fu",
    )
    async def ron(
        self, interaction: discord.Interaction, winner: str, loser: str, han: app_commands.Range[int, 0, 78] | None = None,
        fu: app_commands.Range[int, 0, 200] | None = None, riichi: str | None = None, hand: str | None = None,
        winner2: str | None = None, han2: app_commands.Range[int, 0, 78] | None = None, fu2: app_commands.Range[int, 0, 200] | None = None,
        winner3: str | None = None, han3: app_commands.Range[int, 0, 78] | None = None, fu3: app_commands.Range[int, 0, 200] | None = None,
    ) -> None:
        def make(c: Current) -> Entry:
            lost = seat_named(c, loser)
            wins = [_win(c, winner, han, fu, hand, tsumo=False, discarder=lost)]
            for w, h, f in ((winner2, han2, fu2), (winner3, han3, fu3)):
                if w:
                    wins.append(_win(c, w, h, f, None, tsumo=False, discarder=lost))
            return Entry(kind=EntryKind.RON, wins=tuple(wins), loser=lost, riichi=seats_named(c, riichi))

        await self._entered(interaction, make)

    @app_commands.command(name="tsumo", description="A win by tsumo (self-draw)")
    @app_commands.describe(
        winner="who won", han="han (13 for a yakuman)", fu="fu (not needed from 5 han)",
        riichi="who declared riichi this hand (names or @mentions, comma separated)",
        hand="instead of han and fu: the hand, like 22345678m234p56s tsumo 7s",
    )
    async def tsumo(
        self, interaction: discord.Interaction, winner: str, han: app_commands.Range[int, 0, 78] | None = None,
        fu: app_commands.Range[int, 0, 200] | None = None, riichi: str | None = None, hand: str | None = None,
    ) -> None:
        def make(c: Current) -> Entry:
            return Entry(kind=EntryKind.TSUMO, wins=(_win(c, winner, han, fu, hand, tsumo=True),), riichi=seats_named(c, riichi))

        await self._entered(interaction, make)

    @app_commands.command(name="draw", description="An exhaustive draw")
    @app_commands.describe(
        tenpai="who was tenpai (names or @mentions, comma separated; nobody if left out)", riichi="who declared riichi this hand",
        abortive="an abortive draw (nine terminals, four winds, four riichi, four kans, three rons): nothing is paid, the dealer repeats",
        nagashi="who made a nagashi mangan (paid as a mangan tsumo, instead of the tenpai payments)",
    )
    async def draw(
        self, interaction: discord.Interaction, tenpai: str | None = None, riichi: str | None = None, abortive: bool = False,
        nagashi: str | None = None,
    ) -> None:
        def make(c: Current) -> Entry:
            if abortive and (tenpai or nagashi):
                raise SheetUserError("an abortive draw has no tenpai payments: leave tenpai out")
            return Entry(
                kind=EntryKind.DRAW, tenpai=seats_named(c, tenpai), riichi=seats_named(c, riichi), abortive=abortive,
                nagashi=seats_named(c, nagashi),
            )

        await self._entered(interaction, make)

    @app_commands.command(name="chombo", description="A chombo (a false win or another foul that ends the hand)")
    @app_commands.describe(player="who made the chombo")
    async def chombo(self, interaction: discord.Interaction, player: str) -> None:
        await self._entered(interaction, lambda c: Entry(kind=EntryKind.CHOMBO, player=seat_named(c, player)))

    @app_commands.command(name="undo", description="Take back the newest entry of the sheet")
    async def undo(self, interaction: discord.Interaction) -> None:
        await self.undo_now(interaction)

    async def undo_now(self, interaction: discord.Interaction, sheet_id: int | None = None) -> None:
        """``/sheet undo``, or the sheet message's button (``sheet_id``: the sheet it belongs to)."""
        channel = interaction.channel_id or 0
        if sheet_id is not None and (await self.svc.current(channel)).row.id != sheet_id:
            raise SheetUserError("this score sheet is closed")
        c, gone = await self.svc.undo(channel, interaction.user.id, is_organiser(interaction))
        seq = next(self._seq)
        await interaction.response.send_message(undo_text(c, gone, lang_of(interaction.locale)))
        await self._show(c, seq)

    @app_commands.command(name="end", description="End the game on the sheet now and record it")
    async def end(self, interaction: discord.Interaction) -> None:
        c, game = await self.svc.end(interaction.channel_id or 0, interaction.user.id, is_organiser(interaction))
        seq = next(self._seq)
        await interaction.response.send_message(final_text(c, c.final(), game, lang_of(interaction.locale))[:2000])
        await self._show(replace(c, state=replace(c.state, over=True)), seq)

    complete("ruleset", _complete_ruleset, start)
    complete("house", _complete_house, start)
    complete("season", _complete_season, start)
    complete("winner", _complete_player, ron, tsumo)
    complete("loser", _complete_player, ron)
    complete("winner2", _complete_player, ron)
    complete("winner3", _complete_player, ron)
    complete("player", _complete_player, chombo)


def _sheet_rulesets() -> list[str]:
    """The rulesets a sheet can keep (riichi's hand-end rules and a han/fu value)."""
    return [name for name in ruleset_names() if sheet_ready(find_ruleset(name))]


def _win(c: Current, who: str, han: int | None, fu: int | None, hand: str | None, *, tsumo: bool, discarder: int | None = None) -> Win:
    seat = seat_named(c, who)
    if hand and hand.strip():
        if han is not None or fu is not None:
            raise SheetUserError("give either hand: or han and fu, not both")
        return score_hand(c.rules, hand, c.state, seat, tsumo=tsumo, discarder=discarder)
    if han is None:
        raise SheetUserError("{player}'s win needs han (and fu below 5 han), or the hand", player=c.names[seat])
    if han < 5 and fu is None:
        raise SheetUserError("a hand of {han} han needs its fu", han=han)
    return Win(seat=seat, han=han, fu=fu or 0)


class UndoButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"sheet:(?P<sheet>\d+):undo"):
    """The sheet message's **Undo** button (a phone at the table): ``/sheet undo`` for that sheet.
    Its ``custom_id`` names the sheet, so it works after a restart and does nothing to a later one."""

    def __init__(self, sheet: int, *, label: str = "Undo") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, custom_id=f"sheet:{sheet}:undo"))
        self.sheet = sheet

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /) -> UndoButton:
        return cls(int(match["sheet"]), label=item.label or "Undo")

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("SheetCog")  # type: ignore[attr-defined]
        try:
            await cog.undo_now(interaction, self.sheet)
        except UserError as e:
            await answer(interaction, e.sentence(lang_of(interaction.locale)))


def sheet_view(sheet_id: int, lang: Lang) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(UndoButton(sheet_id, label=t(lang, "Undo the last entry")))
    return view


async def setup(bot: JantakuBot) -> None:
    await bot.add_cog(SheetCog(bot))
    bot.add_dynamic_items(UndoButton)

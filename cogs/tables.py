"""``/table`` commands: open, join, leave, add-ai, start, status, view, abandon, list, export, verify, auto.

Thin: each command parses its options, calls :class:`~bot.tables.TableService` and answers with a
plain sentence in the asker's language (the thread's own messages, which every player shares, in
the club's); a refusal (:class:`~bot.tables.TableError`) is raised and answered, ephemeral, by
the command tree's one error handler (:mod:`bot.command_tree`). No rule logic here, and no write
to storage: the table service makes every change to a table.
"""

from __future__ import annotations

import io
import logging
import re
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import fairness, i18n
from bot.command_tree import answer, is_organiser
from bot.house import HouseError
from bot.i18n import N_, Lang, lang_of
from bot.presenter import rules_name, status_text
from bot.render.names import seat_name
from bot.responses import in_time
from bot.tables import Table, TableError, TableService, length_text, lengths, playable
from engine.rules.base import find_ruleset

if TYPE_CHECKING:
    from bot.client import JantakuBot

log = logging.getLogger(__name__)


def _name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


#: what a table needs of the bot in its channel (README: "Creating the Discord application"), with
#: the permissions' names as Discord's settings show them
_NEEDS = (
    ("view_channel", N_("View Channel")),
    ("send_messages", N_("Send Messages")),
    ("attach_files", N_("Attach Files")),
    ("embed_links", N_("Embed Links")),
    ("read_message_history", N_("Read Message History")),
)
_THREAD_NEEDS = (("create_public_threads", N_("Create Public Threads")), ("send_messages_in_threads", N_("Send Messages in Threads")))
#: a table's mode and status as its messages name them
_WORDS = {
    "live": N_("live"), "async": N_("async"), "open": N_("open"), "playing": N_("playing"),
    "finished": N_("finished"), "abandoned": N_("abandoned"),
}


def _word(lang: Lang, word: str) -> str:
    return i18n.t(lang, _WORDS.get(word, word))


#: the lengths as the engine words them (``GameLength.label``), marked for the catalogs: the
#: autocomplete list shows them translated (the rulesets' descriptions are catalog terms of their
#: own, context ``ruleset``, written by tools/catalog.py from the engine's list)
_ENGINE_TEXTS = (
    N_("hanchan (East and South rounds)"),
    N_("tonpuu (East round only)"),
    N_("1 round (East)"),
    N_("2 rounds (East and South)"),
    N_("3 rounds (East, South, West)"),
    N_("4 rounds (all four winds)"),
)


def _length_label(lang: Lang, label: str) -> str:
    """A length's label in ``lang`` (chinitsu_toutenkou's ``N hands`` counted, the others looked up)."""
    if lang == "en":
        return label
    m = re.fullmatch(r"(\d+) hands", label)
    return i18n.tn(lang, "{n} hand", "{n} hands", int(m[1])) if m else i18n.t(lang, label)


class MissingPermissions(TableError):
    """``/table open`` where the bot lacks permissions (``missing``: their English names)."""

    def __str__(self) -> str:
        return self.sentence()

    def sentence(self, lang: Lang = "en") -> str:
        missing: list[str] = self.kw["missing"]
        names = ("、" if lang == "ja" else ", ").join(i18n.t(lang, m) for m in missing)
        return i18n.tn(
            lang,
            "I cannot run a table in this channel: I am missing the permission {names}. A server admin can grant it to my role here.",
            "I cannot run a table in this channel: I am missing the permissions {names}. A server admin can grant them to my role here.",
            len(missing), names=names,
        )


def missing_permissions(interaction: discord.Interaction, *, thread: bool) -> list[str]:
    """The channel permissions the bot lacks for a table here, from the interaction's own
    ``app_permissions`` (Discord sends the bot's permissions in the channel with every
    interaction; none outside a server, where no table is opened); English names (the caller
    translates them)."""
    if interaction.guild_id is None:
        return []
    have = interaction.app_permissions
    needs = list(_NEEDS)
    if isinstance(interaction.channel, discord.Thread):  # inside a thread its own send permission counts
        needs[1] = ("send_messages_in_threads", N_("Send Messages in Threads"))
    if thread:
        needs += _THREAD_NEEDS
    return [label for attr, label in dict.fromkeys(needs) if not getattr(have, attr)]


#: ``/table auto``'s answer for each order turned on (True) or off
_AUTO_SAID = {
    ("confirm-discard", True): N_(
        "Two-tap discards are now on for you at table #{table}: a discard button asks \"Discard 5m?\" and the second tap discards."
    ),
    ("confirm-discard", False): N_("Two-tap discards are now off for you at table #{table}: a discard button discards at once."),
    ("waits", True): N_(
        "Waits at a glance are now on for you at table #{table}: when you are tenpai, your hand shows your waits "
        "and how many of each you have not seen."
    ),
    ("waits", False): N_("Waits at a glance are now off for you at table #{table}."),
    ("win", True): N_("Auto-win is now on for you at table #{table}."),
    ("win", False): N_("Auto-win is now off for you at table #{table}."),
    ("pass", True): N_("Auto-pass is now on for you at table #{table}."),
    ("pass", False): N_("Auto-pass is now off for you at table #{table}."),
    ("tsumogiri", True): N_("Auto-tsumogiri is now on for you at table #{table}."),
    ("tsumogiri", False): N_("Auto-tsumogiri is now off for you at table #{table}."),
}


class Tables(commands.GroupCog, group_name="table", group_description="Open, join and run mahjong tables"):
    def __init__(self, bot: JantakuBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def service(self) -> TableService:
        return self.bot.service

    async def _pick(self, interaction: discord.Interaction, table: int | None, *, statuses: tuple[str, ...] = ("open", "playing")) -> Table:
        """The table named, or the one in this channel (the caller's own first)."""
        if table is not None:
            return await self.service.get_in(table, interaction.guild_id)
        channel_id = interaction.channel_id or 0
        rows = await self.service.tables_in_channel(channel_id, *statuses)
        if not rows:
            waiting = [] if "open" in statuses else await self.service.tables_in_channel(channel_id, "open")
            if waiting:  # opened, or starting this very moment: its game is not stored yet
                raise TableError("table #{table} has not started yet", table=waiting[-1].id)
            raise TableError("there is no open table in this channel: start one with /table open")
        mine = [r for r in rows if any(s.user_id == interaction.user.id for s in r.seats)]
        row = (mine or rows)[-1]
        return await self.service.get(row.id)

    @app_commands.command(name="open", description="Open a table in this channel")
    @app_commands.describe(
        ruleset="rules to play", mode="live (turn clock) or async (deadlines in hours)",
        length="how long the game lasts (the ruleset's own default if left out): hanchan/tonpuu, taiwan16 rounds, chinitsu_toutenkou hands",
        turn_timer="seconds per turn in live mode", hours="hours per turn in async mode",
        on_expiry="async mode: at the deadline play the drawn tile / pass (auto) or keep waiting (wait)",
        thread="play in a new thread under this channel",
        pings="each move that waits for you comes as a new message, which notifies (default: on for async, off for live)",
        call_minutes="async mode: how long a pon/chi/ron offer waits before it passes (default 60)",
        house="this club's house rules to play (/house list), instead of a ruleset",
    )
    async def open(
        self,
        interaction: discord.Interaction,
        ruleset: str | None = None,
        mode: Literal["live", "async"] = "live",
        length: str | None = None,
        turn_timer: app_commands.Range[int, 5, 600] = 30,
        hours: app_commands.Range[int, 1, 168] = 24,
        on_expiry: Literal["auto", "wait"] = "auto",
        thread: bool = False,
        pings: bool | None = None,
        call_minutes: app_commands.Range[int, 1, 1440] = 60,
        house: str | None = None,
    ) -> None:
        lang = lang_of(interaction.locale)
        missing = missing_permissions(interaction, thread=thread)
        if missing:
            raise MissingPermissions(missing=missing)
        rules = None
        if house or ruleset is None:  # house rules named, or the club's default ones (riichi without)
            rs, house = await self.bot.house.resolve(interaction.guild_id, house, ruleset)
            rules = rs if house is not None else None
        t = await self.service.open_table(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id or 0,
            opener_id=interaction.user.id,
            opener_name=_name(interaction.user),
            ruleset=ruleset or "riichi",
            rules=rules,
            house=house,
            mode=mode,
            length=length,
            turn_seconds=turn_timer,
            async_hours=hours,
            on_expiry=on_expiry,
            pings=pings,
            call_minutes=call_minutes,
        )
        await interaction.response.send_message(
            i18n.t(
                lang,
                "Table #{table} is open ({rules}, {length}, {mode}). Join with `/table join`, fill seats with `/table add-ai`, "
                "then `/table start`.",
                table=t.id, rules=rules_name(t.row, lang=lang), length=length_text(t.row, lang), mode=_word(lang, mode),
            )
        )
        if thread:
            club = await self.bot.locales.of_club(interaction.guild_id)  # the thread is every player's
            msg = await interaction.original_response()
            name = i18n.t(club, "Table #{table} ({rules})", table=t.id, rules=rules_name(t.row, markdown=False, lang=club))
            th = await msg.create_thread(name=name[:100])
            await self.service.set_thread(t.id, th.id)
            await th.send(i18n.t(club, "Table #{table} plays here.", table=t.id))

    @open.autocomplete("ruleset")
    async def _ruleset_complete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        lang = lang_of(interaction.locale)
        out = []
        for r in playable():
            about = f"{r} — {i18n.term(lang, 'ruleset', find_ruleset(r).description)}"
            if current.lower() in about.lower():
                out.append(app_commands.Choice(name=about[:100], value=r))
        return out[:25]

    @open.autocomplete("length")
    async def _length_complete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The lengths of the ruleset chosen so far (riichi's when none is), its default first."""
        name = str(getattr(interaction.namespace, "ruleset", None) or "riichi")
        house = getattr(interaction.namespace, "house", None)
        if house:
            try:
                name = (await self.bot.house.get(interaction.guild_id, str(house))).base
            except HouseError:
                return []
        if name not in playable():
            return []
        lang = lang_of(interaction.locale)
        labels = [(c, _length_label(lang, c.label)) for c in lengths(name)]
        return [
            app_commands.Choice(name=label, value=c.value)
            for c, label in labels
            if current.lower() in label.lower() or current.lower() in c.label.lower() or current.lower() in c.value
        ]

    @open.autocomplete("house")
    async def _house_complete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        profiles, _ = await self.bot.house.profiles(interaction.guild_id)
        return [
            app_commands.Choice(name=f"{p.name} ({p.base})"[:100], value=p.name) for p in profiles if current.casefold() in p.name.casefold()
        ][:25]

    @app_commands.command(name="join", description="Sit down at a table")
    async def join(self, interaction: discord.Interaction, table: int | None = None) -> None:
        t = await self._pick(interaction, table, statuses=("open",))
        await self.service.join(t.id, interaction.user.id, _name(interaction.user))
        await interaction.response.send_message(
            i18n.t(
                lang_of(interaction.locale), "{player} sits down at table #{table} ({seated} seated).",
                player=_name(interaction.user), table=t.id, seated=len(t.seats),
            )
        )

    @app_commands.command(name="leave", description="Leave a table that has not started")
    async def leave(self, interaction: discord.Interaction, table: int | None = None) -> None:
        t = await self._pick(interaction, table, statuses=("open",))
        await self.service.leave(t.id, interaction.user.id)
        await interaction.response.send_message(
            i18n.t(lang_of(interaction.locale), "{player} left table #{table}.", player=_name(interaction.user), table=t.id)
        )

    @app_commands.command(name="add-ai", description="Fill empty seats with AI players")
    @app_commands.describe(kind="smart (the default), greedy, or an outside mjai program the bot's owner listed")
    async def add_ai(
        self, interaction: discord.Interaction, seats: app_commands.Range[int, 1, 4] = 1, table: int | None = None, kind: str | None = None
    ) -> None:
        self.service.ai_kind(kind)  # an unknown kind: one sentence, before anything else
        t = await self._pick(interaction, table, statuses=("open",))
        await self.service.add_ai(t.id, seats, kind)
        lang = lang_of(interaction.locale)
        await interaction.response.send_message(
            i18n.t(lang, "Table #{table}: {players}.", table=t.id, players=", ".join(seat_name(s, lang) for s in t.seats))
        )

    @add_ai.autocomplete("kind")
    async def _kind_complete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=k, value=k) for k in self.service.ai_kinds() if current.lower() in k.lower()][:25]

    @app_commands.command(name="start", description="Start the game")
    async def start(self, interaction: discord.Interaction, table: int | None = None) -> None:
        t = await self._pick(interaction, table, statuses=("open",))
        # the commitment is stored and posted before any tile is dealt (a refusal is answered before any announcement)
        t = await self.service.commit_seed(t.id, interaction.user.id)
        lang = lang_of(interaction.locale)
        await interaction.response.send_message(
            i18n.t(
                lang, "Table #{table} starts! Seats are drawn at random; hands come by direct message.\n{fairness}",
                table=t.id, fairness=fairness.commitment_text(t, lang),
            )
        )
        await self.service.start(t.id, interaction.user.id)

    @app_commands.command(name="status", description="Show a table")
    async def status(self, interaction: discord.Interaction, table: int | None = None) -> None:
        lang = lang_of(interaction.locale)
        try:
            t = await self._pick(interaction, table, statuses=("open", "playing", "finished"))
        except TableError:
            # a damaged table is left out of the channel's tables: name it rather than "no table"
            damaged = [] if table is not None else self.service.damaged_in(interaction.channel_id)
            if not damaged:
                raise
            await answer(interaction, "\n".join(d.refusal().sentence(lang) for d in damaged))
            return
        note = self.service.damaged.get(t.id)  # a damaged turn clock: the table plays on
        await interaction.response.send_message(status_text(t, lang=lang) + (f"\n{note.refusal().sentence(lang)}" if note else ""), ephemeral=True)

    @app_commands.command(name="view", description="The table picture seen from your seat (only you see it)")
    async def view_(self, interaction: discord.Interaction, table: int | None = None) -> None:
        try:
            t = await self._pick(interaction, table, statuses=("playing",))
        except TableError:
            if table is not None:
                raise
            t = await self._pick(interaction, table, statuses=("open",))  # to say it has not started
        if t.game is None:
            raise TableError("table #{table} has not started yet", table=t.id)
        lang = lang_of(interaction.locale)
        seat = t.seat_of(interaction.user.id)
        if seat is None:
            where = i18n.t(lang, "You are not seated: the table as everyone sees it.")
        else:
            where = i18n.t(lang, "Seen from your seat ({player}), at the bottom.", player=seat_name(t.seats[seat], lang))
        text = f"{status_text(t, lang=lang)}\n{where}"
        self.bot.responses.answered(interaction)  # in_time answers it within Discord's 3 s
        png = await in_time(interaction, self.bot.presenter.table_picture(t, seat, lang))
        file = discord.File(io.BytesIO(png), filename="table.png")
        if interaction.response.is_done():
            await interaction.edit_original_response(content=text, attachments=[file])
        else:
            await interaction.response.send_message(text, file=file, ephemeral=True)

    @app_commands.command(name="abandon", description="Close a table (the opener or an organiser)")
    async def abandon(self, interaction: discord.Interaction, table: int | None = None) -> None:
        # a table named by its number goes to the service as it is: a damaged one cannot be picked
        # (it cannot be rebuilt) but an organiser may still close it
        table_id = table if table is not None else (await self._pick(interaction, None)).id
        await self.service.abandon(table_id, interaction.user.id, organiser=is_organiser(interaction), guild_id=interaction.guild_id)
        await interaction.response.send_message(
            i18n.t(lang_of(interaction.locale), "Table #{table} was abandoned by {player}.", table=table_id, player=_name(interaction.user))
        )

    @app_commands.command(name="list", description="Tables in this server")
    async def list_(self, interaction: discord.Interaction) -> None:
        rows = await self.service.tables_in_server(interaction.guild_id)
        lang = lang_of(interaction.locale)
        if not rows:
            await interaction.response.send_message(i18n.t(lang, "No tables are open. Start one with /table open."), ephemeral=True)
            return
        lines = [
            i18n.t(
                lang, "#{table} {rules} {mode} — {status} — {players} in <#{channel}>",
                table=r.id, rules=rules_name(r, lang=lang), mode=_word(lang, r.mode), status=_word(lang, r.status),
                players=", ".join(seat_name(s, lang) for s in r.seats), channel=r.channel_id,
            )
            for r in rows
        ]
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @app_commands.command(name="export", description="The game's finished hands as tenhou.net/6 JSON, mjai and the bot's own format")
    async def export(self, interaction: discord.Interaction, table: int | None = None) -> None:
        t = await self._pick(interaction, table, statuses=("playing", "finished"))
        if t.game is None:
            raise TableError("that table has not started")
        await interaction.response.defer(thinking=True)  # a long game's replay can take a second or two
        text, files = await fairness.export_files(t, lang_of(interaction.locale))
        await interaction.followup.send(text, files=[discord.File(io.BytesIO(data), name) for name, data in files])

    @app_commands.command(name="verify", description="Check a finished table's seed and log against the commitment posted at its start")
    async def verify(self, interaction: discord.Interaction, table: int | None = None) -> None:
        if table is None:  # the newest started table of this channel; no replay before the thread's
            rows = await self.service.tables_in_channel(interaction.channel_id or 0, "playing", "finished")
            if not rows:
                raise TableError("there is no started table in this channel: name one, `/table verify table:<number>`")
            table = rows[-1].id
        await interaction.response.defer(thinking=True)
        await interaction.followup.send(await self.service.verify(table, lang_of(interaction.locale)))

    @app_commands.command(
        name="auto", description="Standing orders: auto-win, auto-pass calls, auto-discard the drawn tile, two-tap discards, waits"
    )
    @app_commands.describe(
        what="win/pass/tsumogiri: play it for you; confirm-discard: discards ask twice; waits: shown when tenpai",
        on="turn it on (true) or off (false)",
    )
    async def auto(
        self,
        interaction: discord.Interaction,
        what: Literal["win", "pass", "tsumogiri", "confirm-discard", "waits"],
        on: bool,
        table: int | None = None,
    ) -> None:
        t = await self._pick(interaction, table, statuses=("playing",))
        await self.service.set_auto(t.id, interaction.user.id, what, on)
        text = i18n.t(lang_of(interaction.locale), _AUTO_SAID[what, on], table=t.id)
        await interaction.response.send_message(text, ephemeral=True)
        seat = t.seat_of(interaction.user.id)
        if what in ("confirm-discard", "waits") and seat is not None:
            await self.bot.presenter.refresh_hand(t, seat)  # its discard buttons or its waits line change now


async def setup(bot: JantakuBot) -> None:
    await bot.add_cog(Tables(bot))

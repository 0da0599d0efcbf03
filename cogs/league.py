"""League commands: ``/league new|join|leave|add|remove|round|status|penalty|substitute|close``.

Thin: each command resolves who it is about, calls :class:`~bot.league.service.LeagueService`
(the bot's ``league``) and answers with one sentence; a refusal (:class:`LeagueError`, or an
organisers' command asked by someone else) is answered, ephemeral, by the command tree's one error
handler, before anything is stored. Everything the league sends outside the command's own answer
goes through the presenter's paced path (:meth:`bot.presenter.Presenter.post` and ``notify``): each
table's announcement and thread, one DM per seated player naming their table and the round's
deadline, and the post at the end of a round (the tables' results, with a picture of each, and how the
leaderboard moved). Languages: a command's answer is in the asker's, a post in the league's channel
(or a table's thread) in the club's (``/prefs club_language``), a DM in its player's.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.command_tree import choices, complete, organiser_only
from bot.i18n import N_, Lang, lang_of, t, tn
from bot.league.report import mode_word, seating_word
from bot.league.service import LeagueError, LeagueService, RoundReport
from bot.standings.service import Who
from bot.storage.leagues import SubstitutionRow
from bot.tables import Table

if TYPE_CHECKING:
    from bot.client import JantakuBot

log = logging.getLogger(__name__)

#: an in-person table's seats, East first (the round's post lists them so)
WIND_NAMES = (N_("East"), N_("South"), N_("West"), N_("North"))


def _name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


def _opened(lang: Lang, number: int, league: str, where: str, when: str, byes: list[str], closed: list[str]) -> str:
    """The organiser's answer to ``/league round start``: one whole message per combination of
    byes and players I could not DM (Japanese joins the sentences its own way)."""
    fields = {"number": number, "league": league, "where": where, "when": when}
    if byes and closed:
        return t(
            lang,
            "Round {number} of '{league}' is open: {where}; it closes {when}. Bye: {names}. I could not DM {closed} (their DMs are closed).",
            names=", ".join(byes), closed=", ".join(closed), **fields,
        )
    if byes:
        return t(lang, "Round {number} of '{league}' is open: {where}; it closes {when}. Bye: {names}.", names=", ".join(byes), **fields)
    if closed:
        return t(
            lang,
            "Round {number} of '{league}' is open: {where}; it closes {when}. I could not DM {names} (their DMs are closed).",
            names=", ".join(closed), **fields,
        )
    return t(lang, "Round {number} of '{league}' is open: {where}; it closes {when}.", **fields)


def _who(member: discord.abc.User | None, guest: str | None, *, default: discord.abc.User | None = None) -> Who:
    if member is not None and guest:
        raise LeagueError("name a member or a guest, not both")
    if guest:
        return Who.guest(guest.removeprefix("guest:"))
    user = member or default
    if user is None:
        raise LeagueError("name a member (member:@name) or a guest (guest:Name)")
    if user.bot:
        raise LeagueError("{name} is a bot account, and only people play in a league", name=_name(user))
    return Who.member(user.id, _name(user))


class LeagueCog(commands.GroupCog, group_name="league", group_description="Club leagues: rounds, seating, deadlines, penalties"):
    def __init__(self, bot: JantakuBot) -> None:
        self.bot = bot
        super().__init__()
        bot.league.on_round_closed = self._round_closed
        bot.league.on_substitute = self._substituted

    @property
    def svc(self) -> LeagueService:
        return self.bot.league

    async def _league_complete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return choices(await self.svc.names(interaction.guild_id), current)

    @app_commands.command(name="new", description="Start a league and its season (organisers)")
    @app_commands.describe(
        name="the league's name (its season has the same name)", rounds="how many rounds",
        mode="async (hours per turn) or live tables at the bot, or in person (results by /result add)",
        house="this club's house rules to play (/house list)", ruleset="a ruleset to play instead of house rules",
        hours="async: hours per turn (default 24)", seating="shuffle (fewest repeat opponents), swiss (by standing) or fixed (teams apart)",
        leftover="players left over: AI seats or a bye (in person: a bye by default)", misses="missed turns in one game before a substitute takes the seat (default 3)",
        round_hours="hours until a round's deadline (default 168)", on_deadline="at the deadline: AI seats finish the games, or they are void",
    )
    @organiser_only("start a league")
    async def new(
        self,
        interaction: discord.Interaction,
        name: str,
        rounds: app_commands.Range[int, 1, 100],
        mode: Literal["async", "live", "in_person"],
        house: str | None = None,
        ruleset: str | None = None,
        hours: app_commands.Range[int, 1, 168] = 24,
        seating: Literal["shuffle", "swiss", "fixed"] = "shuffle",
        leftover: Literal["ai", "bye"] | None = None,
        misses: app_commands.Range[int, 1, 100] = 3,
        round_hours: app_commands.Range[int, 1, 8760] = 168,
        on_deadline: Literal["finish_ai", "void"] = "finish_ai",
    ) -> None:
        rs, profile = await self.bot.house.resolve(interaction.guild_id, house, ruleset)
        lg = await self.svc.create(
            interaction.guild_id, interaction.user.id, name, rounds=rounds, mode=mode, rules=rs, house=profile, hours=hours,
            seating=seating, leftover=leftover, misses=misses, round_hours=round_hours, on_deadline=on_deadline,
        )
        await interaction.response.send_message(t(
            lang_of(interaction.locale),
            "League '{league}' is open: {rounds} rounds, {mode}, {rules}, {seating} seating. Join with `/league join`; an organiser opens each round with `/league round`.",
            league=lg.name, rounds=lg.rounds, mode=mode_word(lang_of(interaction.locale), lg.mode), rules=profile or rs.name,
            seating=seating_word(lang_of(interaction.locale), lg.seating),
        ))

    @app_commands.command(name="join", description="Join the league (between rounds)")
    async def join(self, interaction: discord.Interaction, league: str | None = None) -> None:
        who = _who(interaction.user, None)
        lg = await self.svc.join(interaction.guild_id, league, who, actor_id=interaction.user.id)
        await interaction.response.send_message(t(lang_of(interaction.locale), "{who} joined the league '{league}'.", who=who.name, league=lg.name))

    @app_commands.command(name="leave", description="Leave the league (between rounds)")
    async def leave(self, interaction: discord.Interaction, league: str | None = None) -> None:
        who = _who(interaction.user, None)
        lg = await self.svc.leave(interaction.guild_id, league, who, actor_id=interaction.user.id)
        await interaction.response.send_message(t(lang_of(interaction.locale), "{who} left the league '{league}'.", who=who.name, league=lg.name))

    @app_commands.command(name="add", description="Add a member or a guest to the league (organisers)")
    @app_commands.describe(member="a member of this server", guest="a guest's name (no Discord account)", team="their team (fixed seating keeps a team apart)")
    @organiser_only("add players to a league")
    async def add(self, interaction: discord.Interaction, member: discord.Member | None = None, guest: str | None = None,
                  team: str | None = None, league: str | None = None) -> None:
        who = _who(member, guest)
        lg = await self.svc.join(interaction.guild_id, league, who, actor_id=interaction.user.id, team=team, organiser=True)
        await interaction.response.send_message(
            t(lang_of(interaction.locale), "{who} is in the league '{league}' from its next round.", who=who.name, league=lg.name))

    @app_commands.command(name="remove", description="Remove a member or a guest from the league (organisers)")
    @organiser_only("remove players from a league")
    async def remove(self, interaction: discord.Interaction, member: discord.Member | None = None, guest: str | None = None,
                     league: str | None = None) -> None:
        who = _who(member, guest)
        lg = await self.svc.leave(interaction.guild_id, league, who, actor_id=interaction.user.id, organiser=True)
        await interaction.response.send_message(
            t(lang_of(interaction.locale), "{who} is out of the league '{league}' from its next round.", who=who.name, league=lg.name))

    @app_commands.command(name="round", description="Seat the next round and open its tables (organisers)")
    @app_commands.describe(tables="fixed seating: your own tables, like 'ann, ben, cat, dan; eve, fay, gus, hal'")
    @organiser_only("open a league round")
    async def round_(self, interaction: discord.Interaction, league: str | None = None, tables: str | None = None) -> None:
        lg = await self.svc.check_round(interaction.guild_id, league)  # a refusal before the public "thinking…"
        if tables:
            await self.svc.listed(lg, tables)  # its refusal too
        await interaction.response.defer(thinking=True)
        lang = lang_of(interaction.locale)
        club = await self.bot.locales.of_club(interaction.guild_id)
        locales = self.bot.locales
        channel_id = interaction.channel_id or 0
        presenter = self.bot.presenter

        async def announce(tb: Table, names: list[str]) -> None:
            msg = await presenter.post(channel_id, t(club, "**{league}**, table #{table}: {names}", league=lg.name, table=tb.id, names=", ".join(names)))
            th = await msg.create_thread(name=t(club, "{league} — table #{table}", league=lg.name, table=tb.id)[:100])
            await self.bot.service.set_thread(tb.id, th.id)

        started = await self.svc.start_round(interaction.guild_id, league, interaction.user.id, channel_id, before_start=announce, listed=tables)
        when = f"<t:{int(started.deadline)}:f> (<t:{int(started.deadline)}:R>)"
        closed: list[str] = []
        for uid, (table_id, name) in started.players.items():
            tb = self.bot.service.tables.get(table_id)
            others = ", ".join(s.name for s in tb.seats if s.user_id != uid) if tb else ""
            own = locales.of_user(uid)
            if tb and tb.row.thread_id:
                text = t(own, "{league}, round {number}: you play at table #{table} in <#{thread}> with {others}. Your hands come by direct message; the round closes {when}.",
                         league=lg.name, number=started.number, table=table_id, thread=tb.row.thread_id, others=others, when=when)
            else:
                text = t(own, "{league}, round {number}: you play at table #{table} with {others}. Your hands come by direct message; the round closes {when}.",
                         league=lg.name, number=started.number, table=table_id, others=others, when=when)
            if not await presenter.notify(uid, text):
                closed.append(name)
        if started.in_person:
            listing = "\n".join(
                t(club, "Table {n}: {names}", n=i, names=", ".join(t(club, "{wind} {name}", wind=t(club, WIND_NAMES[w]), name=m.name)
                                                                  for w, m in enumerate(table)))
                for i, table in enumerate(started.in_person, 1)
            )
            await presenter.post(channel_id, t(club, "**{league}**, round {number} (in person):", league=lg.name, number=started.number) + "\n" + listing)
            for i, table in enumerate(started.in_person, 1):
                for m in table:
                    if m.user_id is None:
                        continue
                    others = ", ".join(x.name for x in table if x is not m)
                    text = t(locales.of_user(m.user_id),
                             "{league}, round {number}: you play at table {n} (in person) with {others}. Enter the result with /result add season:{league}; the round closes {when}.",
                             league=lg.name, number=started.number, n=i, others=others, when=when)
                    if not await presenter.notify(m.user_id, text):
                        closed.append(m.name)
        if started.tables:
            where = t(lang, "tables {tables}", tables=", ".join(f"#{tb.id}" for tb in started.tables))
        else:
            where = tn(lang, "{n} in-person table", "{n} in-person tables", len(started.in_person))
        await interaction.followup.send(_opened(lang, started.number, lg.name, where, when, [m.name for m in started.byes], closed))

    @app_commands.command(name="status", description="The league's round, each table's progress and who it waits for")
    async def status(self, interaction: discord.Interaction, league: str | None = None) -> None:
        text = await self.svc.status(interaction.guild_id, league, lang_of(interaction.locale))
        await interaction.response.send_message(text[:2000])

    @app_commands.command(name="penalty", description="Take points off a player's league total (organisers)")
    @app_commands.describe(points="how many points it takes off (20 for a chombo)", reason="why (kept in the audit log)",
                           game="the game it is for (its number), if any")
    @organiser_only("give a league penalty")
    async def penalty(self, interaction: discord.Interaction, points: app_commands.Range[float, 0.1, 1000.0], reason: str,
                      member: discord.Member | None = None, guest: str | None = None, game: int | None = None,
                      league: str | None = None) -> None:
        who = _who(member, guest)
        lg = await self.svc.penalty(interaction.guild_id, league, who, points, reason, actor_id=interaction.user.id, game_id=game)
        await interaction.response.send_message(t(
            lang_of(interaction.locale), "{who} loses {points} points in '{league}': {reason}.", who=who.name, points=f"{points:g}", league=lg.name,
            reason=" ".join(reason.split()),
        ))

    @app_commands.command(name="substitute", description="A member takes a league seat for the rest of its game (organisers)")
    @app_commands.describe(table="the table's number (in person: its number in the round)", absent="the player who is replaced",
                           member="who plays on (an AI when left out)", guest="in person: a guest who plays on (no Discord account)")
    @organiser_only("put in a substitute")
    async def substitute(self, interaction: discord.Interaction, table: int, absent: discord.Member,
                         member: discord.Member | None = None, guest: str | None = None, league: str | None = None) -> None:
        lang = lang_of(interaction.locale)
        lg = await self.svc.in_person_league(interaction.guild_id, league)
        if lg is not None:  # a no-show at a real table: a stand-in plays the seat
            if member is None and not guest:
                raise LeagueError("at an in-person table name who plays on: member:@name or guest:Name")
            new = _who(member, guest)
            gone = Who.member(absent.id, _name(absent))
            if await self.svc.substitute_in_person(lg, table, gone, new, actor_id=interaction.user.id):
                text = t(lang, "{who} is back in their seat at table {table} (in person).", who=new.name, table=table)
            else:
                text = t(lang, "{who} plays {absent}'s seat at table {table} (in person); the result stays {absent}'s.",
                         who=new.name, absent=gone.name, table=table)
            await interaction.response.send_message(text)
            return
        if guest:
            raise LeagueError("a substitute at a bot table is a member of this server, or an AI")
        tb = await self.bot.service.get_in(table, interaction.guild_id)
        seat = tb.seat_of(absent.id)
        if seat is None:
            raise LeagueError("{name} does not play at table #{table}", name=_name(absent), table=table)
        new = _who(member, None) if member is not None else None
        sub = await self.svc.substitute(table, seat, new, actor_id=interaction.user.id)
        if sub.new_player == sub.old_player:
            text = t(lang, "{who} is back in their seat at table #{table}.", who=sub.old_name, table=table)
        elif new is None:
            text = t(lang, "An AI plays {absent}'s seat at table #{table} for the rest of the game; the result stays {absent}'s.",
                     absent=sub.old_name, table=table)
        else:
            text = t(lang, "{who} plays {absent}'s seat at table #{table} for the rest of the game; the result stays {absent}'s.",
                     who=new.name, absent=sub.old_name, table=table)
        await interaction.response.send_message(text)

    @app_commands.command(name="close", description="Close the open round now (organisers): unfinished games per the league's setting")
    @organiser_only("close a league round")
    async def close(self, interaction: discord.Interaction, league: str | None = None) -> None:
        lg, _ = await self.svc.check_close(interaction.guild_id, league)
        await interaction.response.defer(thinking=True)
        report = await self.svc.close_round(interaction.guild_id, league, interaction.user.id)
        await interaction.followup.send(t(lang_of(interaction.locale), "Round {number} of '{league}' is closed.", number=report.number, league=lg.name))

    complete("league", _league_complete, join, leave, add, remove, round_, status, penalty, substitute, close)

    async def _round_closed(self, report: RoundReport) -> None:
        """The round's post: its text, and a picture of each table's final standings (the one a
        finished table posts in its thread), at most Discord's 10 files."""
        if not report.channel_id:
            return
        club = await self.bot.locales.of_club(report.league.guild_id)
        files = []
        for tr in [tr for tr in report.tables if tr.results][:10]:
            try:
                png = await self.bot.presenter.renderer.png("final", tr.results, lang=club)
            except Exception:
                log.exception("round %s: no picture of table %s", report.number, tr.table_id)
                continue
            name = f"table-{tr.table_id}.png" if tr.table_id is not None else f"in-person-table-{tr.number}.png"
            files.append(discord.File(io.BytesIO(png), filename=name))
        await self.bot.presenter.post(report.channel_id, report.text(club), files=files)

    async def _substituted(self, tb: Table, sub: SubstitutionRow, missed: bool, left: tuple[int | None, int | None] = (None, None)) -> None:
        """Tell the table's thread, the absent player (and a stand-in who leaves) what changed, and
        send the seat's new player their hand."""
        ai = sub.new_player.startswith("ai:")
        back = sub.new_player == sub.old_player
        who_now = tb.seats[sub.seat].name

        def said(lang: Lang) -> str:
            if back:
                return t(lang, "{old} plays their own seat again.", old=sub.old_name)
            who = t(lang, "an AI") if ai else who_now
            if missed:
                return tn(lang, "{old} missed {n} turn: {who} plays the seat for the rest of this game.",
                          "{old} missed {n} turns: {who} plays the seat for the rest of this game.", sub.misses, old=sub.old_name, who=who)
            return t(lang, "{who} plays {old}'s seat for the rest of this game.", who=who, old=sub.old_name)

        await self.bot.presenter.seat_changed(tb, sub.seat, left=left)
        club = await self.bot.locales.of_club(tb.row.guild_id)
        await self.bot.presenter.post(tb.row.thread_id or tb.row.channel_id, said(club))
        if back and sub.earlier and sub.earlier[-1][0].startswith("u:") and sub.earlier[-1][0][2:].isdigit():
            uid = int(sub.earlier[-1][0][2:])  # the stand-in who leaves the seat
            own = self.bot.locales.of_user(uid)
            await self.bot.presenter.notify(uid, t(own, "Table #{table}: {old} plays their own seat again; thank you for standing in.",
                                                   table=tb.id, old=sub.old_name))
        if back or not (sub.old_player.startswith("u:") and sub.old_player[2:].isdigit()):
            return
        uid = int(sub.old_player[2:])
        own = self.bot.locales.of_user(uid)
        if missed:
            await self.bot.presenter.notify(uid, t(own, "Table #{table}: {text} The game's result stays yours.", table=tb.id, text=said(own)))
        else:
            who = t(own, "an AI") if ai else who_now
            await self.bot.presenter.notify(uid, t(own, "Table #{table}: {who} plays your seat for the rest of this game; the game's result stays yours.",
                                                   table=tb.id, who=who))


async def setup(bot: JantakuBot) -> None:
    await bot.add_cog(LeagueCog(bot))

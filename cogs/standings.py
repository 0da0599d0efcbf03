"""Standings commands: ``/season``, ``/result``, ``/leaderboard`` and ``/stats``.

Thin: each command resolves members and guests, calls :class:`~bot.standings.service.StandingsService`
(the bot's ``standings``) and answers with a plain sentence; a refusal (:class:`StandingsError`, or
an organisers' command asked by someone else, :func:`~bot.command_tree.organiser_only`) is
answered, ephemeral, by the command tree's one error handler. The leaderboard's page buttons are
``DynamicItem``s whose ``custom_id`` (``lb:<season>:<by>:<page>:<user>``) carries the page, so they
keep working after a restart.

One visibility rule for the look-ups (``/leaderboard``, ``/stats``, ``/season list``): the answer is
public, a refusal only for the asker; ``/stats`` checks before it defers, since a deferred answer
keeps the visibility of its "thinking…". Every answer is in the asker's language
(``i18n.lang_of(interaction.locale)``), the refusals through the command tree's handler. Players are typed as a mention, a member's name or
nickname (resolved through the gateway's member search, which needs no privileged intent) or
``guest:Name``; bot accounts are refused. Limits: a name is matched exactly (case-insensitive), not
by prefix; a member search that does not answer within 1.5 s falls back to the members already seen.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.command_tree import answer, choices, complete, organiser_only
from bot.i18n import Lang, t, tn
from bot.standings.audit import audit_line
from bot.standings.penalties import Penalties, penalty_line
from bot.standings.service import (
    LEADERBOARD_ORDERS,
    Entry,
    LeaderboardPage,
    StandingsError,
    StandingsService,
    Who,
)
from bot.storage.repository import GameRow

if TYPE_CHECKING:
    from bot.client import JantakuBot

log = logging.getLogger(__name__)

_MENTION = re.compile(r"<@!?(\d+)>|(\d{15,21})")
SEARCH_SECONDS = 1.5  # longest wait for the gateway's member search before answering without it
_BY_CHOICES = [
    app_commands.Choice(name="points", value="points"),
    app_commands.Choice(name="rating", value="rating"),
    app_commands.Choice(name="average placement", value="placement"),
]


def _name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


def _bot_refusal(name: str) -> StandingsError:
    return StandingsError(
        "{name} is a bot account, and only people can be players in the standings: "
        "mention a member (@name), or write guest:Name for someone without a Discord account",
        name=name,
    )


def _names_of(member: discord.Member) -> set[str]:
    """Every name a member goes by here, case-folded: username, global display name, server nickname."""
    names = {member.name, member.display_name, getattr(member, "global_name", None) or "", getattr(member, "nick", None) or ""}
    return {n.casefold() for n in names if n}


class Members:
    """Resolves what a user typed for a player: a mention, an id, a member's name or ``guest:Name``.

    A plain name is looked up among the server's members (username, display name or nickname,
    case-insensitive) and accepted when exactly one member goes by it. Bot accounts, the bot itself
    included, are refused: only people are rated."""

    def __init__(self, interaction: discord.Interaction) -> None:
        self.guild = interaction.guild
        self.cache: dict[int, discord.Member] = {}
        self.named: dict[str, list[discord.Member]] = {}  # case-folded name -> the members going by it

    async def prefetch(self, *texts: str | None) -> None:
        """Fetch every mentioned member and look up every plain name first, so that :meth:`resolve`
        can run without awaiting."""
        names: list[str] = []
        for text in texts:
            for m in _MENTION.finditer(text or ""):
                uid = int(m[1] or m[2])
                if uid in self.cache or self.guild is None:
                    continue
                member = self.guild.get_member(uid)
                if member is None:
                    try:
                        member = await self.guild.fetch_member(uid)
                    except discord.HTTPException:
                        continue
                self.cache[uid] = member
            t = (text or "").strip()
            if t and not t.casefold().startswith("guest:") and not _MENTION.search(t):
                names.append(t.lstrip("@"))
        if names:
            await asyncio.gather(*(self._search(n) for n in dict.fromkeys(names)))

    async def _search(self, name: str) -> None:
        want = " ".join(name.split()).casefold()
        if self.guild is None or not want or want in self.named:
            return
        found: dict[int, discord.Member] = {m.id: m for m in self.guild.members if want in _names_of(m)}
        self.named[want] = list(found.values())
        try:
            # the gateway's member search (op 8) matches usernames and nicknames by prefix and needs
            # no privileged intent; display names are then compared exactly. Bounded in time: the
            # interaction has 3 seconds for its first answer.
            got = await asyncio.wait_for(self.guild.query_members(query=name.strip()[:100], limit=100, cache=False), SEARCH_SECONDS)
        except (TimeoutError, discord.ClientException, ValueError) as e:
            log.warning("member search for %r failed (%r); using the members seen so far", name, e)
            return
        for m in got:
            if want in _names_of(m):
                found[m.id] = m
        self.named[want] = list(found.values())

    def by_name(self, name: str) -> Who | None:
        """The one member going by ``name`` (None if nobody or several do). Refuses a bot."""
        want = " ".join(name.strip().lstrip("@").split()).casefold()
        if self.guild is None or not want:
            return None
        found = self.named.get(want)
        if found is None:
            found = [m for m in self.guild.members if want in _names_of(m)]
        if len(found) != 1:
            return None
        return self._who(found[0])

    def _who(self, member: discord.Member) -> Who:
        if member.bot:
            raise _bot_refusal(_name(member))
        return Who.member(member.id, _name(member))

    def resolve(self, text: str) -> Who:
        t = text.strip()
        if t.casefold().startswith("guest:"):
            return Who.guest(t[6:])
        m = _MENTION.fullmatch(t)
        if m:
            uid = int(m[1] or m[2])
            member = self.cache.get(uid)
            if member is None:
                raise StandingsError("<@{user}> is not a member of this club: mention a member, or write guest:Name for a guest", user=uid)
            return self._who(member)
        name = " ".join(t.lstrip("@").split())
        found = self.named.get(name.casefold())
        if found is None and self.guild is not None:
            found = [x for x in self.guild.members if name.casefold() in _names_of(x)]
        if found and len(found) > 1:
            listed = ", ".join(f"{_name(x)} ({x.name})" for x in found[:5]) + (" …" if len(found) > 5 else "")
            raise StandingsError(
                "{n} members go by '{name}' ({listed}): mention the one you mean (@name), or write guest:{name} for a guest",
                n=len(found), name=name, listed=listed,
            )
        if not found:
            raise StandingsError("I do not know a member called '{name}': mention them (@name), or write guest:{name} for a guest", name=name)
        return self._who(found[0])


def _game_text(g: GameRow, head: str, lang: Lang = "en") -> str:
    lines = [head]
    for p in sorted(g.players, key=lambda p: (p.place, p.seat)):
        if p.rating_delta is not None:
            result = t(lang, "{result}, rating {delta}", result=f"{p.result:+.1f}", delta=f"{p.rating_delta:+.1f}")
        else:
            result = f"{p.result:+.1f}"
        lines.append(f"{p.place}. {p.name}: {p.points:,} ({result})")
    if g.sticks:
        lines.append(tn(lang, "{n} riichi stick left on the table", "{n} riichi sticks left on the table", g.sticks))
    return "\n".join(lines)


class _StandingsCog:
    bot: JantakuBot

    @property
    def svc(self) -> StandingsService:
        return self.bot.standings

    async def _season_complete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        seasons = await self.svc.list_seasons(interaction.guild_id)
        return choices([s.name for s in reversed(seasons)], current)


class SeasonCog(_StandingsCog, commands.GroupCog, group_name="season", group_description="Seasons of this club"):
    def __init__(self, bot: JantakuBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="start", description="Start a season (organisers)")
    @app_commands.describe(
        name="the season's name", ruleset="rules it plays (riichi, tenhou, mleague, sanma, …)",
        rating="rating system: openskill (default), points (uma/oka total) or tenhou (Tenhou R)",
        min_games="games needed to appear on the leaderboard", uma="one number per place, like 20,10,-10,-20",
        start_points="starting points (the ruleset's by default)", return_points="return points (the ruleset's by default)",
        ties="equal scores: seat order from the first dealer, or split the uma", leftover="riichi sticks left at the end: to first place or to nobody",
        parallel="start it while another season runs",
        house="this club's house rules (/house list): the season counts only bot games played under them",
    )
    @organiser_only("start a season")
    async def start(
        self, interaction: discord.Interaction, name: str, ruleset: str | None = None,
        rating: Literal["openskill", "points", "tenhou"] = "openskill", min_games: app_commands.Range[int, 0, 1000] = 0,
        uma: str | None = None, start_points: int | None = None, return_points: int | None = None,
        ties: Literal["seat", "split"] = "seat", leftover: Literal["first", "none"] = "first", parallel: bool = False,
        house: str | None = None,
    ) -> None:
        rules = None
        if house or ruleset is None:  # house rules named, or the club's default ones (riichi without)
            rs, house = await self.bot.house.resolve(interaction.guild_id, house, ruleset)
            rules = rs if house is not None else None
        s = await self.svc.start_season(
            interaction.guild_id, interaction.user.id, name, ruleset=ruleset or "riichi", rules=rules, house=house, start_points=start_points, return_points=return_points,
            uma=uma, rating=rating, min_games=min_games, ties=ties, leftover=leftover, parallel=parallel,
        )
        lang = i18n.lang_of(interaction.locale)
        uma_text = "/".join(f"{x:+g}" for x in s.uma)
        listed = (
            tn(lang, "players need at least {n} game to appear on the leaderboard", "players need at least {n} games to appear on the leaderboard", s.min_games)
            if s.min_games > 0 else t(lang, "every player appears on the leaderboard from their first game")
        )
        played = t(lang, "house rules {house} ({ruleset})", house=s.house, ruleset=s.ruleset) if s.house else s.ruleset
        await interaction.response.send_message(
            t(
                lang,
                "Season **{season}** has started: {rules}, {start} start / {back} return, uma {uma}, rating {rating}; {listed}.",
                season=s.name, rules=played, start=f"{s.start_points:,}", back=f"{s.return_points:,}", uma=uma_text,
                rating=s.rating, listed=listed,
            )
        )

    @app_commands.command(name="end", description="End a season (organisers)")
    @organiser_only("end a season")
    async def end(self, interaction: discord.Interaction, season: str | None = None) -> None:
        s = await self.svc.end_season(interaction.guild_id, interaction.user.id, season)
        await interaction.response.send_message(t(i18n.lang_of(interaction.locale), "Season **{season}** has ended.", season=s.name))

    @app_commands.command(name="rename", description="Rename a season (organisers)")
    @organiser_only("rename a season")
    async def rename(self, interaction: discord.Interaction, new_name: str, season: str | None = None) -> None:
        old = (await self.svc.season(interaction.guild_id, season)).name
        s = await self.svc.rename_season(interaction.guild_id, interaction.user.id, season, new_name)
        await interaction.response.send_message(
            t(i18n.lang_of(interaction.locale), "Season **{old}** is now called **{new}**.", old=old, new=s.name)
        )

    @app_commands.command(name="list", description="The seasons of this club")
    async def list_(self, interaction: discord.Interaction) -> None:
        lang = i18n.lang_of(interaction.locale)
        seasons = await self.svc.list_seasons(interaction.guild_id)
        if not seasons:
            await interaction.response.send_message(
                t(lang, "This club has no seasons yet: an organiser can start one with /season start."), ephemeral=True
            )
            return
        lines = []
        for s in seasons:
            if self.svc.damage_of(s):
                lines.append(f"**{s.name}** — {self.svc.damage(s).sentence(lang)}")
            elif s.house:
                if s.active:
                    lines.append(t(lang, "**{season}** — {ruleset}, house rules {house}, rating {rating}, running", season=s.name,
                                   ruleset=s.ruleset, house=s.house, rating=s.rating))
                else:
                    lines.append(t(lang, "**{season}** — {ruleset}, house rules {house}, rating {rating}, ended", season=s.name,
                                   ruleset=s.ruleset, house=s.house, rating=s.rating))
            elif s.active:
                lines.append(t(lang, "**{season}** — {ruleset}, rating {rating}, running", season=s.name, ruleset=s.ruleset, rating=s.rating))
            else:
                lines.append(t(lang, "**{season}** — {ruleset}, rating {rating}, ended", season=s.name, ruleset=s.ruleset, rating=s.rating))
        await interaction.response.send_message("\n".join(lines))

    @app_commands.command(name="rebuild", description="Rebuild a season's ratings and standings from its games (organisers)")
    @organiser_only("rebuild a season's standings")
    async def rebuild(self, interaction: discord.Interaction, season: str | None = None) -> None:
        s, games = await self.svc.rebuild_season(interaction.guild_id, interaction.user.id, season, organiser=True)
        await interaction.response.send_message(
            tn(
                i18n.lang_of(interaction.locale),
                "The standings of **{season}** were rebuilt from its {n} game.",
                "The standings of **{season}** were rebuilt from its {n} games.",
                games, season=s.name,
            )
        )

    @app_commands.command(name="export", description="Every result of a season as CSV")
    async def export(self, interaction: discord.Interaction, season: str | None = None) -> None:
        s, filename, data = await self.svc.export_csv(interaction.guild_id, season)
        await interaction.response.send_message(
            t(i18n.lang_of(interaction.locale), "The results of {season}:", season=s.name), file=discord.File(io.BytesIO(data), filename)
        )

    @app_commands.command(name="penalty", description="Take points off a player's season total: a penalty or a chombo (organisers)")
    @app_commands.describe(
        player="@member, a member's name or guest:Name", reason="why (kept in the audit log)",
        points="how many points it takes off (a chombo: 20 unless given)", chombo="it is a chombo",
        game="the game it is for (its number), if any", season="the season (the club's default by default)",
    )
    @organiser_only("give a penalty")
    async def penalty(self, interaction: discord.Interaction, player: str, reason: str,
                      points: app_commands.Range[float, 0.1, 1000.0] | None = None, chombo: bool = False, game: int | None = None,
                      season: str | None = None) -> None:
        members = Members(interaction)
        await members.prefetch(player)
        who = members.resolve(player)
        s, p = await Penalties(self.svc).add(interaction.guild_id, interaction.user.id, who, points, reason, chombo=chombo, season=season,
                                             game_id=game)
        lang = i18n.lang_of(interaction.locale)
        if chombo:
            text = t(lang, "{who} loses {points} points in '{season}' for a chombo: {reason}.", who=who.name, points=f"{p.points:g}",
                     season=s.name, reason=p.reason)
        else:
            text = t(lang, "{who} loses {points} points in '{season}': {reason}.", who=who.name, points=f"{p.points:g}", season=s.name,
                     reason=p.reason)
        await interaction.response.send_message(text)

    @app_commands.command(name="penalties", description="The penalties and chombo of a season")
    async def penalties(self, interaction: discord.Interaction, season: str | None = None) -> None:
        lang = i18n.lang_of(interaction.locale)
        s, rows = await Penalties(self.svc).listing(interaction.guild_id, season)
        if not rows:
            await interaction.response.send_message(t(lang, "The season '{season}' has no penalties.", season=s.name))
            return
        head = t(lang, "Penalties in '{season}':", season=s.name)
        await interaction.response.send_message("\n".join([head, *(penalty_line(p, lang) for p in rows[-30:])])[:2000])

    complete("season", _StandingsCog._season_complete, end, rename, export, rebuild, penalty, penalties)


class ResultCog(_StandingsCog, commands.GroupCog, group_name="result", group_description="Results of games played at the table"):
    def __init__(self, bot: JantakuBot) -> None:
        self.bot = bot
        super().__init__()

    async def _entries(self, interaction: discord.Interaction, pairs: list[tuple[str | None, int | None]]) -> list[Entry]:
        members = Members(interaction)
        await members.prefetch(*(p for p, _ in pairs))
        out = []
        for i, (p, s) in enumerate(pairs, 1):
            if p is None and s is None:
                continue
            if p is None or s is None:
                raise StandingsError("player {n} needs both a name and a score", n=i)
            out.append(Entry(members.resolve(p), s))
        return out

    @app_commands.command(name="add", description="Record a game played at a real table")
    @app_commands.describe(
        p1="a member (@name) or guest:Name", s1="final score", sticks="riichi sticks left on the table at the end",
        seat_order="the players are listed in seat order from the first dealer (E, S, W, N): equal scores rank by seat",
        season="the season (the club's default: the newest running one that is not a league's)",
    )
    async def add(
        self, interaction: discord.Interaction, p1: str, s1: int, p2: str, s2: int, p3: str, s3: int,
        p4: str | None = None, s4: int | None = None, sticks: app_commands.Range[int, 0, 100] = 0, seat_order: bool = False,
        season: str | None = None,
    ) -> None:
        entries = await self._entries(interaction, [(p1, s1), (p2, s2), (p3, s3), (p4, s4)])
        g = await self.svc.add_result(interaction.guild_id, interaction.user.id, entries, sticks=sticks, seat_order=seat_order, season=season)
        lang = i18n.lang_of(interaction.locale)
        s = await self.svc.season_of_game(g)
        await interaction.response.send_message(_game_text(g, t(lang, "Game #{game} recorded in the season '{season}':", game=g.id, season=s.name), lang))

    @app_commands.command(name="edit", description="Correct a recorded game (organisers)")
    @organiser_only("edit a result")
    async def edit(
        self, interaction: discord.Interaction, game: int, p1: str, s1: int, p2: str, s2: int, p3: str, s3: int,
        p4: str | None = None, s4: int | None = None, sticks: app_commands.Range[int, 0, 100] = 0, seat_order: bool = False,
    ) -> None:
        entries = await self._entries(interaction, [(p1, s1), (p2, s2), (p3, s3), (p4, s4)])
        g = await self.svc.edit_result(
            interaction.guild_id, interaction.user.id, game, entries, organiser=True, sticks=sticks, seat_order=seat_order
        )
        lang = i18n.lang_of(interaction.locale)
        await interaction.response.send_message(_game_text(g, t(lang, "Game #{game} corrected; later ratings were recomputed:", game=g.id), lang))

    @app_commands.command(name="void", description="Take a recorded game out of the standings (organisers)")
    @organiser_only("void a result")
    async def void(self, interaction: discord.Interaction, game: int, reason: str = "") -> None:
        g = await self.svc.void_result(interaction.guild_id, interaction.user.id, game, organiser=True, reason=reason)
        pending = g.data.get("not_recomputed")
        lang = i18n.lang_of(interaction.locale)
        if pending:
            await interaction.response.send_message(t(lang, "Game #{game} is void: it no longer counts anywhere; {pending}.", game=game, pending=pending.sentence(lang)))
        else:
            await interaction.response.send_message(
                t(lang, "Game #{game} is void: it no longer counts anywhere, and later ratings were recomputed.", game=game)
            )

    @app_commands.command(name="import", description="Record a game from a Tenhou / tenhou.net/6 / mjai log or a bot export")
    @app_commands.describe(
        file="the log file", names="map log names or seats to players: Aさん=@alice, S=guest:Kana",
        season="the season (the running one by default)",
    )
    async def import_(self, interaction: discord.Interaction, file: discord.Attachment, names: str = "", season: str | None = None) -> None:
        if file.size > 5_000_000:
            raise StandingsError("that file is too large for a game log")
        await interaction.response.defer(thinking=True)
        raw = await file.read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise StandingsError("that file is not UTF-8 text, so it is no game log I know") from None
        members = Members(interaction)
        await members.prefetch(*(part.partition("=")[2] for part in re.split(r"[;,\n]", names or "")))
        games = await self.svc.import_log(
            interaction.guild_id, interaction.user.id, text, file.filename, names=names, resolve=members.resolve,
            known_member=members.by_name, season=season,
        )
        lang = i18n.lang_of(interaction.locale)
        parts = []
        for g in games:
            if g.data.get("complete", True):
                head = t(lang, "Game #{game} imported from {file}:", game=g.id, file=file.filename)
            else:
                head = t(
                    lang, "Game #{game} imported from {file} (the log stops before the game's end: scores as it stops):",
                    game=g.id, file=file.filename,
                )
            parts.append(_game_text(g, head, lang))
            diffs = g.data.get("house_differences")
            if isinstance(diffs, list):
                house = (await self.svc.season(interaction.guild_id, season)).house
                if not diffs:
                    parts[-1] += "\n" + t(lang, "The log played the season's house rules {house}.", house=house)
                elif len(diffs) > 10:
                    parts[-1] += "\n" + t(
                        lang, "The log's rules differ from the season's house rules {house}: {differences} and {n} more.",
                        house=house, differences="; ".join(map(str, diffs[:10])), n=len(diffs) - 10,
                    )
                else:
                    parts[-1] += "\n" + t(
                        lang, "The log's rules differ from the season's house rules {house}: {differences}.",
                        house=house, differences="; ".join(map(str, diffs)),
                    )
        await interaction.followup.send("\n\n".join(parts))

    @app_commands.command(name="link", description="Count a guest's games for a member from now on (organisers)")
    @organiser_only("link a guest")
    async def link(self, interaction: discord.Interaction, guest: str, member: discord.Member) -> None:
        if member.bot:
            raise _bot_refusal(_name(member))
        who = Who.member(member.id, _name(member))
        await self.svc.link_guest(interaction.guild_id, interaction.user.id, guest, who, organiser=True)
        await interaction.response.send_message(
            t(
                i18n.lang_of(interaction.locale), "The games of guest {guest} now count for {player}.",
                guest=guest.removeprefix("guest:"), player=who.name,
            )
        )

    @app_commands.command(name="audit", description="Who changed which result, when (organisers)")
    @organiser_only("read the audit log")
    async def audit(self, interaction: discord.Interaction, game: int | None = None) -> None:
        lang = i18n.lang_of(interaction.locale)
        rows = await self.svc.audit_rows(interaction.guild_id, game_id=game)
        if not rows:
            await interaction.response.send_message(t(lang, "Nothing in the audit log."), ephemeral=True)
            return
        lines: list[str] = []
        for r in reversed(rows):  # the newest entries that fit in one message, oldest first
            line = audit_line(r, lang)
            if sum(len(x) + 1 for x in lines) + len(line) > 1900:
                break
            lines.insert(0, line)
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    complete("season", _StandingsCog._season_complete, add, import_)


class LeaderboardPageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"lb:(?P<season>\d+):(?P<by>[a-z]+):(?P<page>\d+):(?P<user>\d+)"
):
    def __init__(self, season: int, by: str, page: int, user: int, *, label: str, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.secondary, custom_id=f"lb:{season}:{by}:{page}:{user}", disabled=disabled
            )
        )
        self.season, self.by, self.page, self.user = season, by, page, user

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> LeaderboardPageButton:
        return cls(int(match["season"]), match["by"], int(match["page"]), int(match["user"]), label=item.label or "")

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.user:
            await answer(
                interaction,
                t(i18n.lang_of(interaction.locale), "These buttons belong to whoever asked for this leaderboard: use /leaderboard yourself."),
            )
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        lang = i18n.lang_of(interaction.locale)
        try:
            page = await interaction.client.standings.leaderboard(interaction.guild_id, self.season, self.by, self.page)  # type: ignore[attr-defined]
        except StandingsError as e:
            await answer(interaction, e.sentence(lang) if lang != "en" else str(e))
            return
        await interaction.response.edit_message(content=page.text(lang), view=leaderboard_view(page, self.user, lang))


def leaderboard_view(page: LeaderboardPage, user: int, lang: Lang = "en") -> discord.ui.View | None:
    if page.pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(
        LeaderboardPageButton(page.season.id, page.by, max(0, page.page - 1), user, label=t(lang, "◀ previous"), disabled=page.page == 0)
    )
    view.add_item(
        LeaderboardPageButton(page.season.id, page.by, page.page + 1, user, label=t(lang, "next ▶"), disabled=page.page >= page.pages - 1)
    )
    return view


class BoardCog(_StandingsCog, commands.Cog):
    def __init__(self, bot: JantakuBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(LeaderboardPageButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(LeaderboardPageButton)
        await self.svc.close()

    @app_commands.command(name="leaderboard", description="The season's leaderboard")
    @app_commands.describe(season="the season (the running one by default)", by="order by points, rating or average placement")
    @app_commands.choices(by=_BY_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, season: str | None = None, by: str = "points") -> None:
        if by not in LEADERBOARD_ORDERS:
            raise StandingsError("the leaderboard can be ordered by {orders}", orders=', '.join(LEADERBOARD_ORDERS))
        lang = i18n.lang_of(interaction.locale)
        page = await self.svc.leaderboard(interaction.guild_id, season, by, 0)
        view = leaderboard_view(page, interaction.user.id, lang)
        if view is None:
            await interaction.response.send_message(page.text(lang))
        else:
            await interaction.response.send_message(page.text(lang), view=view)

    @app_commands.command(name="stats", description="A player's results, rating and play statistics")
    @app_commands.describe(player="a member (you by default)", guest="a guest's name instead of a member", season="the season (the running one by default)")
    async def stats(
        self, interaction: discord.Interaction, player: discord.Member | None = None, guest: str | None = None, season: str | None = None
    ) -> None:
        if guest:
            who = Who.guest(guest.removeprefix("guest:"))
        else:
            user = player or interaction.user
            who = Who.member(user.id, _name(user))
        # a refusal (no season, no games) is answered before the public "thinking…", so that only the
        # asker sees it, as for /leaderboard
        await self.svc.player_standing(interaction.guild_id, who, season)
        await interaction.response.defer(thinking=True)
        lang = i18n.lang_of(interaction.locale)
        st = await self.svc.player_stats(interaction.guild_id, who, season, lang=lang)
        files = [discord.File(io.BytesIO(st.chart), filename="rating.png")] if st.chart else []
        await interaction.followup.send(st.text(lang), files=files)

    complete("season", _StandingsCog._season_complete, leaderboard, stats)


async def setup(bot: JantakuBot) -> None:
    if bot.standings.on_table_update not in bot.service.listeners:
        bot.service.listeners.append(bot.standings.on_table_update)
    await bot.add_cog(SeasonCog(bot))
    await bot.add_cog(ResultCog(bot))
    await bot.add_cog(BoardCog(bot))

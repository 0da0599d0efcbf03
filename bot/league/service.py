"""LeagueService: club leagues (issue 20) — a season with a schedule of rounds, seated by
:func:`bot.league.seating.seat_round`, played at the bot's tables, with deadlines, substitutes and
penalties.

* ``create`` makes the league and its season (a parallel season: a league's season takes its own
  tables' games only, and those never join another season); ``join``/``leave`` between rounds,
  ``add``/``remove`` (organisers) at any time, effective from the next round.
* ``start_round`` seats the current members (the league's earlier rounds as the history, its
  standing for ``swiss``, teams for ``fixed``), opens one table per group through
  :class:`~bot.tables.TableService` with the league's rules, mode and hours per turn, fills the
  leftover seats with AI (or gives byes), stores the round with its deadline, then starts the
  tables. ``before_start(table, names)`` lets the cog give each table its thread first.
* Missed turns: a :class:`~bot.tables.TableService` listener counts each turn the clock played for a
  human (``Update.expired``) in ``league_misses``; at the league's ``misses`` in one game the seat is
  handed to a substitute (:meth:`substitute`: a named member, or an AI) for the rest of that game
  and the hand-over is stored in ``substitutions``.
* Credit for a substituted seat (our reading of "credited per the record"): **the absent player
  keeps the seat's result** — the game is recorded under the member who was seated, the substitute
  only noted (the ``substitutions`` row, and the round's report). The alternative — crediting the
  substitute for their part — has no fair split of one final score, and an AI cannot hold a
  standing. This is done inside the write that records the game (a repository game recorder run
  before the standings' own), so the game, its season and its credit are one transaction.
* A round closes when every table is finished, or at the round deadline (or ``/league close``):
  then the unfinished tables are played out by AI seats (``finish_ai``, each human seat recorded as
  substituted) or abandoned (``void``, no game recorded), the league's setting. The deadline is the
  round's stored row: one task sleeps until the earliest open round's deadline, woken by
  :meth:`poke`; on start it looks again, so a deadline passed while the bot was down acts at once.
* In person (``mode="in_person"``, leftover players get byes): the round is seated the same way but
  opens no bot table; each of its tables takes the typed-in result (``/result add``) of exactly its
  players, inside the write that records it (a :class:`~bot.standings.service.StandingsService`
  result recorder), and the round closes when every table has one (or at its deadline: the tables
  without one have no result).
* Penalties are rows (``league_penalties``: points taken off a member's total); the standings read
  them beside the summary rows (:class:`~bot.storage.repository.StandingRow` ``penalty``), so the
  leaderboard stays a recomputation of the games plus the penalty list.

No Discord types here: the cog turns :class:`LeagueError` into one sentence and sends the posts and
DMs (``on_round_closed`` is its callback for the end-of-round post). Limits: guests can be members
(for the standings and in-person results) but a bot-table round refuses them; a miss counted in the
moment between the clock's move being stored and this listener hearing of it is lost if the bot
dies in that moment (the substitute then comes one miss later).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import N_, Lang, t, tn
from bot.league import in_person
from bot.league.errors import LeagueError, _clean
from bot.league.report import RoundReport, Substitution, TableReport, mode_word, seating_word
from bot.league.seating import SeatingError, seat_round
from bot.render.names import SUBSTITUTE_AI
from bot.standings.service import StandingsService, Who
from bot.storage import leagues as sql
from bot.storage import repository as repo_sql
from bot.storage.leagues import LeagueRow, LeagueTableRow, MemberRow, RoundRow, SubstitutionRow
from bot.storage.penalties import season_penalties
from bot.storage.repository import Repository
from bot.storage.writer import savepoint
from bot.tables import Table, TableError, TableService, Update
from engine.rules.base import Ruleset, find_ruleset

log = logging.getLogger(__name__)

NAME_LIMIT = 40
DEFAULT_MISSES = 3
DEFAULT_ROUND_HOURS = 168
LONGEST_SLEEP = 3600.0  # the deadline task looks again at least this often
AI_KIND = "smart"


@dataclass(slots=True)
class StartedRound:
    league: LeagueRow
    number: int
    deadline: float
    tables: list[Table]
    byes: list[MemberRow]
    players: dict[int, tuple[int, str]]  # user id -> (table id, their name), at the bot's tables
    in_person: list[list[MemberRow]] = field(default_factory=list)  # an in-person league's tables, numbered from 1


class LeagueService:
    def __init__(
        self,
        repo: Repository,
        tables: TableService,
        standings: StandingsService,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.repo = repo
        self.tables = tables
        self.standings = standings
        self.clock = clock
        #: the cog's end-of-round post (a round may close on its own: the last game, the deadline)
        self.on_round_closed: Callable[[RoundReport], Awaitable[None]] | None = None
        #: told when a substitute takes a seat (or its player takes it back: ``new_player == old_player``):
        #: (table, the substitution, whether the league's missed turns called it, (the last player, their hand message))
        self.on_substitute: Callable[[Table, SubstitutionRow, bool, tuple[int | None, int | None]], Awaitable[None]] | None = None
        self._locks: dict[int, asyncio.Lock] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._work: set[asyncio.Task[Any]] = set()
        self._closed: dict[tuple[int, int], RoundReport] = {}
        self._loop: asyncio.AbstractEventLoop | None = None  # the rounds closed since start, by (league, round)
        if self.on_game_recorded not in standings.game_attachers:
            standings.game_attachers.insert(0, self.on_game_recorded)  # before the standings attach the game
        if self.on_table_update not in tables.listeners:
            tables.listeners.append(self.on_table_update)
        if self.on_result_recorded not in standings.result_recorders:
            standings.result_recorders.append(self.on_result_recorded)
        if self.credited not in standings.result_checks:
            standings.result_checks.append(self.credited)

    def _lock(self, league_id: int) -> asyncio.Lock:
        return self._locks.setdefault(league_id, asyncio.Lock())

    # ================================================================ leagues and members

    async def get(self, guild_id: int | None, name: str | None = None) -> LeagueRow:
        """The league called ``name``, or the club's one running league when no name is given."""
        if guild_id is None:
            raise LeagueError("leagues belong to a server: use /league in a server's channel")
        found = await sql.leagues(self.repo.db, guild_id)
        if name and name.strip():
            key = " ".join(name.split()).casefold()
            for lg in found:
                if lg.name.casefold() == key:
                    return lg
            raise LeagueError("this club has no league called '{name}'", name=" ".join(name.split())[:NAME_LIMIT])
        running = [lg for lg in found if lg.status == "open"]
        if not running:
            raise LeagueError("this club has no running league: an organiser can start one with /league new")
        if len(running) > 1:
            raise LeagueError("this club runs {n} leagues: name one with league:<name>", n=len(running))
        return running[0]

    async def in_person_league(self, guild_id: int | None, league: str | None) -> LeagueRow | None:
        """The league named (or the club's one running league) if it plays in person, else None."""
        try:
            lg = await self.get(guild_id, league)
        except LeagueError:
            if league:
                raise
            return None
        return lg if lg.mode == "in_person" else None

    async def substitute_in_person(self, lg: LeagueRow, number: int, absent: Who, new: Who, *, actor_id: int | None) -> bool:
        """A stand-in for a no-show at in-person table ``number`` of the open round (True: the member is back)."""
        async with self._lock(lg.id):
            return await in_person.substitute(self.repo, lg, number, absent, new, actor_id=actor_id, at=self.clock())

    async def credited(self, season: Any, whos: Sequence[Who]) -> list[Who]:
        """StandingsService check before a typed-in result is stored: a league's season takes only
        its own tables' results, credited per the league's rule (see :mod:`bot.league.in_person`)."""
        lg = next((x for x in await sql.leagues(self.repo.db, season.guild_id) if x.season_id == season.id), None)
        return list(whos) if lg is None else await in_person.credited(self.repo, lg, whos)

    async def names(self, guild_id: int | None) -> list[str]:
        """The club's leagues' names, newest first (for autocomplete)."""
        return [lg.name for lg in reversed(await sql.leagues(self.repo.db, guild_id))] if guild_id else []

    async def create(
        self,
        guild_id: int | None,
        actor_id: int | None,
        name: str,
        *,
        rounds: int,
        mode: str,
        rules: Ruleset,
        house: str | None = None,
        hours: int = 24,
        seating: str = "shuffle",
        leftover: str | None = None,
        misses: int = DEFAULT_MISSES,
        round_hours: int = DEFAULT_ROUND_HOURS,
        on_deadline: str = "finish_ai",
    ) -> LeagueRow:
        if guild_id is None:
            raise LeagueError("leagues belong to a server: use /league in a server's channel")
        name = _clean(name, N_("a league's name"), NAME_LIMIT)
        if leftover is None:  # at a real table the players left over sit out: byes
            leftover = "bye" if mode == "in_person" else "ai"
        checks = [
            (1 <= rounds <= 100, N_("a league has 1 to 100 rounds")),
            (mode in ("async", "live", "in_person"), N_("mode must be async, live or in_person")),
            (mode != "in_person" or leftover == "bye", N_("at an in-person league the players left over get a bye (leftover:bye)")),
            (1 <= hours <= 168, N_("hours per turn must be from 1 to 168")),
            (seating in ("shuffle", "swiss", "fixed"), N_("seating must be shuffle, swiss or fixed")),
            (leftover in ("ai", "bye"), N_("leftover players get ai seats or a bye")),
            (1 <= misses <= 100, N_("misses before a substitute must be from 1 to 100")),
            (1 <= round_hours <= 24 * 365, N_("a round's deadline must be from 1 hour to a year")),
            (on_deadline in ("finish_ai", "void"), N_("at the round deadline a table is finished by AI seats (finish_ai) or voided (void)")),
        ]
        for ok, why in checks:
            if not ok:
                raise LeagueError(why)
        if mode != "in_person" and round_hours < hours:  # a round in which nobody could take one turn
            raise LeagueError("a round of {round_hours} hours is shorter than one turn of {hours} hours: give the round at least {hours} hours",
                              round_hours=round_hours, hours=hours)
        if any(lg.name.casefold() == name.casefold() for lg in await sql.leagues(self.repo.db, guild_id)):
            raise LeagueError("this club already has a league called '{name}'", name=name)
        season = await self.standings.start_season(guild_id, actor_id, name, rules=rules, house=house, parallel=True)
        fields = dict(
            guild_id=guild_id, name=name, season_id=season.id, rounds=rounds, mode=mode, ruleset=rules.name,
            options=rules.options_dict(), house=house, hours=hours, seating=seating, leftover=leftover, misses=misses,
            round_hours=round_hours, on_deadline=on_deadline, status="open", created_by=actor_id, created_at=self.clock(),
        )

        def write(conn: sqlite3.Connection) -> int:
            lid = sql.insert_league(conn, **fields)
            repo_sql.audit(conn, guild_id=guild_id, season_id=season.id, actor_id=actor_id, action="league new",
                           after={k: v for k, v in fields.items() if k != "created_at"})
            return lid

        lid = await self.repo.write(write)
        got = await sql.league(self.repo.db, lid)
        assert got is not None
        return got

    def rules(self, lg: LeagueRow) -> Ruleset:
        rs = find_ruleset(lg.ruleset)
        return rs.with_options(**lg.options) if lg.options else rs

    async def _open_round(self, lg: LeagueRow) -> RoundRow | None:
        return next((r for r in await sql.rounds(self.repo.db, lg.id) if r.status == "open"), None)

    async def join(self, guild_id: int | None, league: str | None, who: Who, *, actor_id: int | None = None, team: str | None = None,
                   organiser: bool = False) -> LeagueRow:
        """A player joins (between rounds); an organiser adds a member or guest (any time: from the next round)."""
        lg = await self.get(guild_id, league)
        async with self._lock(lg.id):
            if lg.status != "open":
                raise LeagueError("the league '{league}' is over", league=lg.name)
            current = {m.player for m in await sql.members(self.repo.db, lg.id)}
            if who.player in current:
                raise LeagueError("{who} is already in the league '{league}'", who=who.name, league=lg.name)
            if not organiser and await self._open_round(lg) is not None:
                raise LeagueError("round {number} of '{league}' is under way: join between rounds, or ask an organiser to add you",
                                  number=await self._round_number(lg), league=lg.name)
            if team is not None:
                team = _clean(team, N_("a team's name"), NAME_LIMIT)
            now = self.clock()

            def write(conn: sqlite3.Connection) -> None:
                sql.put_member(conn, lg.id, who.player, user_id=who.user_id, name=who.name, team=team, joined_at=now)
                repo_sql.audit(conn, guild_id=lg.guild_id, season_id=lg.season_id, actor_id=actor_id,
                               action="league add" if organiser else "league join", after={"league": lg.id, "player": who.player, "name": who.name})

            await self.repo.write(write)
        return lg

    async def leave(self, guild_id: int | None, league: str | None, who: Who, *, actor_id: int | None = None,
                    organiser: bool = False) -> LeagueRow:
        lg = await self.get(guild_id, league)
        async with self._lock(lg.id):
            current = {m.player for m in await sql.members(self.repo.db, lg.id)}
            if who.player not in current:
                raise LeagueError("{who} is not in the league '{league}'", who=who.name, league=lg.name)
            if not organiser and await self._open_round(lg) is not None:
                raise LeagueError("round {number} of '{league}' is under way: leave between rounds, or ask an organiser",
                                  number=await self._round_number(lg), league=lg.name)
            now = self.clock()

            def write(conn: sqlite3.Connection) -> None:
                sql.member_left(conn, lg.id, who.player, now)
                repo_sql.audit(conn, guild_id=lg.guild_id, season_id=lg.season_id, actor_id=actor_id,
                               action="league remove" if organiser else "league leave", before={"league": lg.id, "player": who.player})

            await self.repo.write(write)
        return lg

    async def _round_number(self, lg: LeagueRow) -> int:
        return len(await sql.rounds(self.repo.db, lg.id))

    # ================================================================ rounds

    async def _standing(self, lg: LeagueRow) -> list[tuple[str, str, float]]:
        """(player, name, points after penalties), best first."""
        _, rows = await self.repo.leaderboard(lg.season_id, "points", limit=10_000)
        return [(r.player, r.name, r.points_after_penalties) for r in rows]

    async def listed(self, lg: LeagueRow, text: str) -> list[list[Hashable]]:
        """An organiser's list of tables as member keys, every member once (else one sentence)."""
        if lg.seating != "fixed":
            raise LeagueError("a list of tables is for a league with fixed seating; '{league}' seats by {seating}", league=lg.name, seating=lg.seating)
        people = await sql.members(self.repo.db, lg.id)
        by_name: dict[str, list[MemberRow]] = {}
        for m in people:
            by_name.setdefault(m.name.casefold(), []).append(m)
        size = self.rules(lg).players
        out: list[list[Hashable]] = []
        seen: set[str] = set()
        for part in text.split(";"):
            names = [" ".join(n.split()) for n in part.split(",") if n.strip()]
            if not names:
                continue
            if len(names) > size:
                raise LeagueError("a table seats {size} players, and the list gives one {n}: {names}", size=size, n=len(names), names=", ".join(names)[:200])
            table: list[Hashable] = []
            for n in names:
                found = by_name.get(n.casefold(), [])
                if not found:
                    raise LeagueError("'{name}' is not a member of the league '{league}'", name=n[:NAME_LIMIT], league=lg.name)
                if len(found) > 1:
                    raise LeagueError("'{name}' is the name of several members of the league '{league}'", name=n[:NAME_LIMIT], league=lg.name)
                if found[0].player in seen:
                    raise LeagueError("{name} is on the list twice", name=found[0].name)
                seen.add(found[0].player)
                table.append(found[0].player)
            out.append(table)
        missing = [m.name for m in people if m.player not in seen]
        if len(missing) > 3:
            raise LeagueError("{names} and others are in the league but not on the list", names=", ".join(missing[:3]))
        if len(missing) == 1:
            raise LeagueError("{name} is in the league but not on the list", name=missing[0])
        if missing:
            raise LeagueError("{names} are in the league but not on the list", names=", ".join(missing))
        return out

    async def check_round(self, guild_id: int | None, league: str | None) -> LeagueRow:
        """The league, if its next round can start now (else :class:`LeagueError`): asked before
        the command shows anything, so a refusal is the asker's alone."""
        lg = await self.get(guild_id, league)
        if lg.status != "open":
            raise LeagueError("the league '{league}' is over", league=lg.name)
        done = await sql.rounds(self.repo.db, lg.id)
        if any(r.status == "open" for r in done):
            raise LeagueError("round {number} of '{league}' is still open: close it with /league close before the next one", number=len(done), league=lg.name)
        if len(done) >= lg.rounds:
            raise LeagueError("'{league}' has played all its {rounds} rounds", league=lg.name, rounds=lg.rounds)
        people = await sql.members(self.repo.db, lg.id)
        guests = [m.name for m in people if m.user_id is None]
        if guests and lg.mode != "in_person":
            if len(guests) == 1:
                raise LeagueError("{name} is a guest, who cannot play at a bot table: remove them from the league first", name=guests[0])
            raise LeagueError("{names} are guests, who cannot play at a bot table: remove them from the league first", names=", ".join(guests[:3]))
        size = self.rules(lg).players
        if len(people) < (1 if lg.leftover == "ai" else size):
            raise LeagueError("'{league}' has {n} members: a round needs at least {least}", league=lg.name, n=len(people),
                              least=size if lg.leftover == "bye" else 1)
        return lg

    async def start_round(
        self,
        guild_id: int | None,
        league: str | None,
        actor_id: int,
        channel_id: int,
        *,
        before_start: Callable[[Table, list[str]], Awaitable[None]] | None = None,
        listed: str | None = None,
    ) -> StartedRound:
        """``listed``: an organiser's own tables for a ``fixed`` league, ``"ann, ben, cat, dan; eve, …"``
        (members by their league names, tables apart by ``;``; a short table gets AI seats)."""
        lg = await self.check_round(guild_id, league)
        fixed = await self.listed(lg, listed) if listed is not None and listed.strip() else None
        async with self._lock(lg.id):
            lg = await self.check_round(guild_id, league)
            done = await sql.rounds(self.repo.db, lg.id)
            people = await sql.members(self.repo.db, lg.id)
            rs = self.rules(lg)
            size = rs.players
            number = len(done) + 1
            past = await sql.round_tables(self.repo.db, lg.id)
            history = [[t.seats for t in past if t.round == n and t.kind != "bye"] for n in range(1, number)]
            byes_so_far: dict[Hashable, int] = dict(Counter(p for t in past if t.kind == "bye" for p in t.seats if p))
            order = [p for p, _, _ in await self._standing(lg)]
            teams = {m.player: m.team for m in people if m.team}
            try:
                plan = await asyncio.to_thread(
                    seat_round, [m.player for m in people], size, history, how=lg.seating,  # type: ignore[arg-type]
                    leftover=lg.leftover, standing=order, teams=teams or None,  # type: ignore[arg-type]
                    byes_so_far=byes_so_far, seed=lg.id * 1000 + number, budget=0.3, fixed_tables=fixed,
                )
            except SeatingError as e:
                raise LeagueError(e.msgid, **e.kw) from None
            by_key = {m.player: m for m in people}
            opened: list[Table] = []
            try:
                for group in plan.tables if lg.mode != "in_person" else []:
                    humans = [by_key[str(p)] for p in group if p is not None]
                    first = humans[0]
                    assert first.user_id is not None
                    t = await self.tables.open_table(
                        guild_id=lg.guild_id, channel_id=channel_id, opener_id=first.user_id, opener_name=first.name,
                        rules=rs, house=lg.house, mode=lg.mode, async_hours=lg.hours,
                    )
                    opened.append(t)
                    for m in humans[1:]:
                        assert m.user_id is not None
                        await self.tables.join(t.id, m.user_id, m.name)
                    if len(humans) < size:
                        await self.tables.add_ai(t.id, size - len(humans))
            except Exception:
                for t in opened:
                    with contextlib.suppress(Exception):
                        await self.tables.abandon(t.id, actor_id, organiser=True, guild_id=lg.guild_id)
                raise
            now = self.clock()
            deadline = now + lg.round_hours * 3600.0
            seat_lists = [[None if p is None else str(p) for p in g] for g in plan.tables]

            def write(conn: sqlite3.Connection) -> None:
                sql.insert_round(conn, lg.id, number, status="open", deadline=deadline, channel_id=channel_id, opened_at=now)
                if lg.mode == "in_person":
                    for seats in seat_lists:
                        sql.insert_round_table(conn, league_id=lg.id, round=number, kind="in_person", table_id=None, seats=seats)
                for t, seats in zip(opened, seat_lists if lg.mode != "in_person" else [], strict=True):
                    sql.insert_round_table(conn, league_id=lg.id, round=number, kind="table", table_id=t.id, seats=seats)
                for p in plan.byes:
                    sql.insert_round_table(conn, league_id=lg.id, round=number, kind="bye", table_id=None, seats=[str(p)])
                repo_sql.audit(conn, guild_id=lg.guild_id, season_id=lg.season_id, actor_id=actor_id, action="league round",
                               after={"league": lg.id, "round": number, "tables": [t.id for t in opened], "byes": [str(p) for p in plan.byes]})

            try:
                await self.repo.write(write)
            except Exception:
                for t in opened:
                    with contextlib.suppress(Exception):
                        await self.tables.abandon(t.id, actor_id, organiser=True, guild_id=lg.guild_id)
                raise
            players: dict[int, tuple[int, str]] = {}
            for t in opened:
                names = [s.name for s in t.seats]
                if before_start is not None:
                    try:
                        await before_start(t, names)
                    except Exception:
                        log.exception("league %s round %s: table %s could not be announced", lg.id, number, t.id)
                for s in t.seats:
                    if s.user_id is not None:
                        players[s.user_id] = (t.id, s.name)
                await self.tables.commit_seed(t.id, t.row.opener_id)
                await self.tables.start(t.id, t.row.opener_id)
        self.poke()
        in_person = [[by_key[str(p)] for p in g if p is not None] for g in plan.tables] if lg.mode == "in_person" else []
        return StartedRound(lg, number, deadline, opened, [by_key[str(p)] for p in plan.byes], players, in_person)

    # ---------------------------------------------------------------- status

    async def status(self, guild_id: int | None, league: str | None = None, lang: Lang = "en") -> str:
        """The league's round and each table's progress, in ``lang``."""
        lg = await self.get(guild_id, league)
        members = await sql.members(self.repo.db, lg.id)
        rounds = await sql.rounds(self.repo.db, lg.id)
        rules = f"{lg.ruleset} ({lg.house})" if lg.house else lg.ruleset
        head = tn(lang, "**{league}** — {mode}, {rules}, {seating} seating, {n} member, round {number} of {rounds}",
                  "**{league}** — {mode}, {rules}, {seating} seating, {n} members, round {number} of {rounds}", len(members),
                  league=lg.name, mode=mode_word(lang, lg.mode), rules=rules, seating=seating_word(lang, lg.seating), number=len(rounds),
                  rounds=lg.rounds)
        lines = [head]
        r = next((x for x in rounds if x.status == "open"), None)
        if r is None:
            if lg.status == "finished":
                lines.append(t(lang, "No round is open. The league is over."))
            else:
                lines.append(t(lang, "No round is open. An organiser opens the next with /league round."))
            return "\n".join(lines)
        lines.append(t(lang, "Round {number} closes {when}.", number=r.number, when=f"<t:{int(r.deadline)}:f> (<t:{int(r.deadline)}:R>)"))
        names = {m.player: m.name for m in await sql.members(self.repo.db, lg.id, current=False)}
        in_person = 0
        for e in await sql.round_tables(self.repo.db, lg.id, r.number):
            if e.kind == "in_person":
                in_person += 1
                who = ", ".join(t(lang, "{stand_in} for {name}", stand_in=e.subs[p][1], name=names.get(p, p)) if p in e.subs
                                else names.get(p or "", p or "") for p in e.seats)
                if e.game_id is not None:
                    state = t(lang, "result in (game #{game})", game=e.game_id)
                else:
                    state = t(lang, "waiting for its result (/result add)")
                lines.append(t(lang, "Table {n} (in person): {state} ({names})", n=in_person, state=state, names=who))
            elif e.kind == "bye":
                lines.append(t(lang, "Bye: {names}", names=", ".join(names.get(p or "", p or "") for p in e.seats)))
            else:
                lines.append(await self._table_line(e, lang))
        return "\n".join(lines)

    async def _table_line(self, e: LeagueTableRow, lang: Lang = "en") -> str:
        if e.table_id is None:
            return t(lang, "Table: missing")
        tb = self.tables.tables.get(e.table_id)
        row = tb.row if tb is not None else await self.repo.get_table(e.table_id)
        if row is None:
            return t(lang, "Table #{table}: missing", table=e.table_id)
        names = ", ".join(s.name for s in row.seats)
        if row.status == "finished":
            return t(lang, "Table #{table}: finished ({names})", table=e.table_id, names=names)
        if row.status == "abandoned":
            return t(lang, "Table #{table}: void ({names})", table=e.table_id, names=names)
        if tb is None or tb.game is None:
            return t(lang, "Table #{table}: not started ({names})", table=e.table_id, names=names)
        g = tb.game
        waiting = [tb.seats[s].name for s in tb.humans_to_act()]
        return t(lang, "Table #{table}: hand {hand}, {moves} moves — waiting for {waiting} ({names})", table=e.table_id, hand=len(g.results) + 1,
                 moves=len(g.actions), waiting=", ".join(waiting) if waiting else t(lang, "nobody"), names=names)

    # ---------------------------------------------------------------- penalties

    async def penalty(self, guild_id: int | None, league: str | None, who: Who, points: float, reason: str, *,
                      actor_id: int | None, game_id: int | None = None) -> LeagueRow:
        lg = await self.get(guild_id, league)
        reason = _clean(reason, N_("a penalty's reason"), 200)
        if not (0 < points <= 1000):
            raise LeagueError("a penalty takes off from 0 to 1000 points: give how many it takes off, like 20 for a chombo")
        ever = await sql.members(self.repo.db, lg.id, current=False)
        if who.player not in {m.player for m in ever}:
            raise LeagueError("{who} is not in the league '{league}'", who=who.name, league=lg.name)
        if game_id is not None:
            g = await self.repo.get_game(game_id)
            if g is None or g.season_id != lg.season_id:
                raise LeagueError("game #{game} is not a game of the league '{league}'", game=game_id, league=lg.name)
        now = self.clock()

        def write(conn: sqlite3.Connection) -> None:
            pid = sql.insert_penalty(conn, league_id=lg.id, player=who.player, points=float(points), reason=reason, game_id=game_id,
                                     by_id=actor_id, at=now)
            repo_sql.audit(conn, guild_id=lg.guild_id, season_id=lg.season_id, game_id=game_id, actor_id=actor_id, action="league penalty",
                           after={"penalty": pid, "league": lg.id, "player": who.player, "name": who.name, "points": points,
                                  "reason": reason})

        await self.repo.write(write)
        return lg

    # ---------------------------------------------------------------- missed turns and substitutes

    async def on_table_update(self, update: Update) -> None:
        """TableService listener: count a turn the clock played for a human; see a league game end."""
        t = update.table
        if update.expired and update.actions:
            seat = update.actions[0].seat
            if 0 <= seat < len(t.seats) and t.seats[seat].ai is None:
                self._spawn(self._missed(t, seat), f"league-miss-{t.id}")
        if update.game_over:
            self._spawn(self._table_done(t.id), f"league-done-{t.id}")

    def _spawn(self, work: Awaitable[Any], name: str) -> None:
        task = asyncio.ensure_future(work)
        task.set_name(name)
        self._work.add(task)
        task.add_done_callback(self._work.discard)

    async def settled(self) -> None:
        """Wait for the listener's work in flight (tests, and close)."""
        while self._work:
            await asyncio.gather(*list(self._work), return_exceptions=True)

    async def _missed(self, t: Table, seat: int) -> None:
        entry = await sql.table_entry(self.repo.db, t.id)
        if entry is None:
            return
        lg = await sql.league(self.repo.db, entry.league_id)
        if lg is None:
            return
        count = await self.repo.write(lambda conn: sql.add_miss(conn, t.id, seat))
        if count >= lg.misses and t.row.status == "playing":
            try:
                await self.substitute(t.id, seat, None, misses=count)
            except (LeagueError, TableError) as e:
                log.info("table %s seat %s: no substitute: %s", t.id, seat, e)

    async def substitute(self, table_id: int, seat: int, new: Who | None, *, misses: int | None = None,
                         actor_id: int | None = None) -> SubstitutionRow:
        """``new`` (a member; None: an AI) takes the seat for the rest of the game; stored first."""
        entry = await sql.table_entry(self.repo.db, table_id)
        if entry is None:
            raise LeagueError("table #{table} is not a league table", table=table_id)
        t = await self.tables.get(table_id)
        async with t.lock:
            if t.row.status != "playing" or t.game is None or t.game.over:
                raise LeagueError("the game at table #{table} is not being played", table=table_id)
            if not 0 <= seat < len(t.seats):
                raise LeagueError("table #{table} has no seat {seat}", table=table_id, seat=seat)
            s = t.seats[seat]
            if s.user_id is None:
                raise LeagueError("seat {seat} of table #{table} is already played by an AI", seat=seat, table=table_id)
            if new is not None and new.user_id is None:
                raise LeagueError("a substitute at a bot table is a member of this server, or an AI")
            if new is not None and t.seat_of(new.user_id or 0) is not None:
                raise LeagueError("{who} already plays at table #{table}", who=new.name, table=table_id)
            known = await sql.substitutions(self.repo.db, table_id)
            prev = next((x for x in known if x.seat == seat), None)
            old = (prev.old_player, prev.old_name) if prev is not None else (f"u:{s.user_id}", s.name)
            # the human stand-ins so far (the round's post names each of them)
            earlier = list(prev.earlier) if prev is not None else []
            if prev is not None and prev.new_player.startswith("u:") and prev.new_player != prev.old_player:
                earlier.append([prev.new_player, s.name])
            got = misses if misses is not None else (await sql.misses(self.repo.db, table_id)).get(seat, 0)
            sub = SubstitutionRow(table_id, seat, old[0], old[1], new.player if new is not None else f"ai:{AI_KIND}", got, self.clock(),
                                  earlier)
            # the absent player back in their own seat keeps their own name
            name = (old[1] if sub.new_player == old[0] else new.name) if new is not None else SUBSTITUTE_AI.format(name=old[1])[:60]
            # the seat's messages were the absent player's: the substitute's start afresh
            fields: dict[str, Any] = {
                "user_id": new.user_id if new is not None else None, "ai": None if new is not None else AI_KIND, "name": name,
                "hand_message_id": None, "dm_closed": 0,
            }

            def write(conn: sqlite3.Connection) -> None:
                sql.substitute_in(conn, sub, fields)
                repo_sql.audit(conn, guild_id=t.row.guild_id, actor_id=actor_id, action="league substitute",
                               after={"table": table_id, "seat": seat, "old": sub.old_player, "new": sub.new_player, "misses": got})

            await self.repo.write(write)
            left = (s.user_id, s.hand_message_id)  # the hand message the seat's last player still has
            s.user_id, s.ai, s.name, s.hand_message_id, s.dm_closed = fields["user_id"], fields["ai"], name, None, False
        if self.on_substitute is not None:
            try:
                await self.on_substitute(t, sub, misses is not None, left)
            except Exception:
                log.exception("table %s: the substitute's notice failed", table_id)
        await self.tables.resume(t)  # an AI now to move does so
        return sub

    def on_game_recorded(self, conn: sqlite3.Connection, game_id: int, g: dict[str, Any]) -> None:
        """Standings attacher (StandingsService.game_attachers), in the write that records a finished bot game (before the standings'):
        a league table's game goes to its league's season, a substituted seat credited to the member
        who was seated there; any other game keeps out of the leagues' seasons."""
        try:
            with savepoint(conn, "league"):
                table_id = sql.game_table_in(conn, game_id)
                entry = sql.league_of_table_in(conn, table_id) if table_id is not None else None
                if table_id is None or entry is None:
                    g["league_seasons"] = sorted(sql.league_seasons_in(conn, g.get("guild_id")))
                else:
                    g["season_id"] = entry[1]
                    for seat, old, name in sql.substitutions_in(conn, table_id):
                        for p in g["players"]:
                            if p["seat"] == seat and old.startswith("u:") and old[2:].isdigit():
                                p["user_id"], p["name"] = int(old[2:]), name
                    sql.set_round_table_game(conn, table_id, game_id)
        except Exception:
            log.exception("game %s: could not attach it to its league; the game itself is kept", game_id)

    def on_result_recorded(self, conn: sqlite3.Connection, g: Any) -> None:
        """StandingsService hook, in the write of a typed-in result: the in-person table of an open
        round seated with exactly these players takes it (the first such, by table order)."""
        if g.season_id is None:
            return
        players = sorted(p.player for p in g.players)
        for row_id, seats in sql.in_person_waiting_in(conn, g.season_id):
            try:
                seated = sorted(p for p in json.loads(seats) if p)
            except ValueError:
                continue
            if seated == players:
                sql.set_in_person_game(conn, row_id, g.id)
                if self._loop is not None:  # (the writer's thread) the deadline task looks whether the round is complete
                    self._loop.call_soon_threadsafe(self._wake_when_written)
                return

    def _wake_when_written(self) -> None:
        """(On the event loop.) Wake the deadline task once the write that asked for it has committed:
        woken at once, it could read the round before the commit, find the table still waiting and
        sleep on. The writer runs writes one after another, so an empty write queued now ends after it."""

        async def wake() -> None:
            await self.repo.write(lambda conn: None)
            self._wake.set()

        self._spawn(wake(), "league-wake")

    # ---------------------------------------------------------------- closing a round

    async def _table_done(self, table_id: int) -> None:
        entry = await sql.table_entry(self.repo.db, table_id)
        if entry is None:
            return
        await self._close_if_done(entry.league_id, entry.round)

    async def _close_if_done(self, league_id: int, number: int) -> RoundReport | None:
        entries = await sql.round_tables(self.repo.db, league_id, number)
        for e in entries:
            if e.kind == "in_person" and e.game_id is None:
                return None
            if e.table_id is None:
                continue
            row = await self.repo.get_table(e.table_id)
            if row is not None and row.status not in ("finished", "abandoned"):
                return None
        return await self._close(league_id, number, actor_id=None)

    async def check_close(self, guild_id: int | None, league: str | None) -> tuple[LeagueRow, RoundRow]:
        """The league and its open round (else :class:`LeagueError`), asked before anything is shown."""
        lg = await self.get(guild_id, league)
        r = await self._open_round(lg)
        if r is None:
            raise LeagueError("'{league}' has no open round to close", league=lg.name)
        return lg, r

    async def close_round(self, guild_id: int | None, league: str | None, actor_id: int | None) -> RoundReport:
        """Close the open round now (organisers): unfinished tables per the league's setting."""
        lg, r = await self.check_close(guild_id, league)
        await self._finish_tables(lg, r.number, actor_id)
        report = await self._close(lg.id, r.number, actor_id=actor_id)
        if report is None:  # closed meanwhile, as its last game ended
            report = self._closed.get((lg.id, r.number))
        if report is None:
            raise LeagueError("round {number} of '{league}' is already closed", number=r.number, league=lg.name)
        return report

    async def _finish_tables(self, lg: LeagueRow, number: int, actor_id: int | None) -> None:
        """The round's unfinished tables: played out by AI seats, or abandoned (the league's setting)."""
        for e in await sql.round_tables(self.repo.db, lg.id, number):
            if e.table_id is None:
                continue
            t = self.tables.tables.get(e.table_id)
            if t is None or t.row.status in ("finished", "abandoned"):
                continue
            if lg.on_deadline == "void" or t.game is None:
                with contextlib.suppress(TableError):
                    await self.tables.abandon(t.id, actor_id or t.row.opener_id, organiser=True, guild_id=t.row.guild_id)
                continue
            for s in list(t.seats):
                if s.ai is None and t.row.status == "playing":
                    with contextlib.suppress(LeagueError):
                        await self.substitute(t.id, s.seat, None, actor_id=actor_id)
            await self.tables.resume(t)

    async def _close(self, league_id: int, number: int, *, actor_id: int | None) -> RoundReport | None:
        async with self._lock(league_id):
            lg = await sql.league(self.repo.db, league_id)
            assert lg is not None
            rounds = await sql.rounds(self.repo.db, league_id)
            r = next((x for x in rounds if x.number == number), None)
            if r is None or r.status != "open":
                return None
            before_rows = await self._standing_before(lg, number)
            now = self.clock()
            last = number >= lg.rounds

            def write(conn: sqlite3.Connection) -> bool:
                if not sql.close_round_in(conn, league_id, number, now):
                    return False
                if last:
                    sql.set_league(conn, league_id, status="finished")
                repo_sql.audit(conn, guild_id=lg.guild_id, season_id=lg.season_id, actor_id=actor_id, action="league round closed",
                               after={"league": league_id, "round": number})
                return True

            if not await self.repo.write(write):
                return None
            if last:
                with contextlib.suppress(Exception):
                    await self.repo.update_season(lg.season_id, actor_id, "season end", active=0, ended_at=now)
            report = RoundReport(lg, number, r.channel_id, await self._reports(lg, number), before_rows, await self._standing(lg))
            self._closed[(league_id, number)] = report
        self.poke()
        if self.on_round_closed is not None:
            try:
                await self.on_round_closed(report)
            except Exception:
                log.exception("league %s round %s: the end-of-round post failed", league_id, number)
        return report

    async def _standing_before(self, lg: LeagueRow, number: int) -> list[tuple[str, str, float]]:
        """The leaderboard without this round's games (a recomputation: the earlier games plus the penalties)."""
        this_round = {e.game_id for e in await sql.round_tables(self.repo.db, lg.id, number) if e.game_id is not None}
        totals: dict[str, float] = {}
        names: dict[str, str] = {}
        for g in await self.repo.season_games(lg.season_id):
            if g.id in this_round:
                continue
            for p in g.players:
                if p.kind != "ai":
                    totals[p.player] = totals.get(p.player, 0.0) + p.result
                    names[p.player] = p.name
        for pen in await season_penalties(self.repo.db, lg.season_id):  # the league's and the season's own
            if pen.player in totals:
                totals[pen.player] -= pen.points
        return sorted(((p, names[p], v) for p, v in totals.items()), key=lambda x: (-x[2], x[0]))

    async def _reports(self, lg: LeagueRow, number: int) -> list[TableReport]:
        out = []
        members = {m.player: m.name for m in await sql.members(self.repo.db, lg.id, current=False)}
        in_person = 0
        for e in await sql.round_tables(self.repo.db, lg.id, number):
            if e.table_id is None:
                seated = [members.get(p or "", p or "") for p in e.seats]
                if e.kind == "bye":
                    out.append(TableReport("bye", None, seated))
                    continue
                in_person += 1
                got = await self.repo.get_game(e.game_id) if e.game_id is not None else None
                person = TableReport("in_person", None, seated, number=in_person)
                person.subs = [Substitution(members.get(k, k), name, 0, False) for k, (_, name) in e.subs.items()]
                if got is not None and got.status == "ok":
                    person.results = [(p.name, p.points, p.result) for p in sorted(got.players, key=lambda p: p.place)]
                out.append(person)
                continue
            row = await self.repo.get_table(e.table_id)
            names = [s.name for s in row.seats] if row else []
            rep = TableReport("table", e.table_id, names)
            for s in await sql.substitutions(self.repo.db, e.table_id):
                by = None if s.new_player.startswith("ai:") else next((x.name for x in (row.seats if row else []) if x.seat == s.seat), "")
                rep.subs.append(Substitution(s.old_name, by, s.misses, s.misses >= lg.misses, [name for _, name in s.earlier],
                                             back=s.new_player == s.old_player))
            g = await self.repo.get_game(e.game_id) if e.game_id is not None else None
            if g is not None:
                rep.results = [(p.name, p.points, p.result) for p in sorted(g.players, key=lambda p: p.place)]
            elif row is not None and row.status == "abandoned":
                rep.void = True
            out.append(rep)
        return out

    # ---------------------------------------------------------------- the round deadlines

    def poke(self) -> None:
        self._wake.set()

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="jantaku-league-deadlines")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for task in list(self._work):
            task.cancel()
        await asyncio.gather(*list(self._work), return_exceptions=True)

    async def _run(self) -> None:
        backoff = 0.0
        while True:
            try:
                wait = await self.step()
                backoff = 0.0
            except asyncio.CancelledError:
                raise
            except Exception:
                backoff = min(60.0, backoff * 2 or 1.0)
                log.exception("league deadlines: trying again in %.3g s", backoff)
                await asyncio.sleep(backoff)
                continue
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await self._wake.wait()

    async def step(self) -> float:
        """Close every round whose deadline has passed (or whose tables are all done); the seconds
        until the next deadline (the task sleeps that long, or until a poke)."""
        self._wake.clear()
        wait = LONGEST_SLEEP
        for r in await sql.open_rounds(self.repo.db):
            lg = await sql.league(self.repo.db, r.league_id)
            if lg is None or not self.tables.owns(lg.guild_id):  # another process's guild: its deadlines
                continue
            if r.deadline <= self.clock():
                log.info("league %s round %s: the deadline has passed", lg.id, r.number)
                await self._finish_tables(lg, r.number, None)
                await self._close(lg.id, r.number, actor_id=None)
                continue
            if await self._close_if_done(lg.id, r.number) is not None:
                continue
            wait = min(wait, r.deadline - self.clock())
        return max(0.0, wait)

    async def members(self, guild_id: int | None, league: str | None = None) -> Sequence[MemberRow]:
        lg = await self.get(guild_id, league)
        return await sql.members(self.repo.db, lg.id)

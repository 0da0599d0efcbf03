"""StandingsService: seasons, recorded results, ratings, leaderboards and player statistics.

Every write is one write function run by the repository's writer (``repo.write(fn)``, one
transaction): a result, its places and uma/oka-adjusted result, the rating changes, the season
summary rows and the audit-log entry are written together or not at all. A finished bot game is
recorded inside the very write that stores its last action (:meth:`record_finished`, which the
table service runs as that write's last step), under a savepoint so that a problem in the standings can never lose the game
itself. The write functions run on the writer thread: they read and write through the
``sqlite3`` connection they are given, never through the async reads.

No Discord types here: the cog resolves members and guests into :class:`Who` values and turns
:class:`StandingsError` into a plain answer.

Damaged rows (see :mod:`bot.standings.damage`) are named, never fatal: seasons are read with their
damaged columns, a write that needs a damaged value is refused with one sentence saying what is
damaged and what an organiser can do, and the reads show what they can.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any

import aiosqlite

from bot.errors import UserError
from bot.house import plays_alike
from bot.i18n import DEFAULT, N_, Lang, t
from bot.standings import export, imports
from bot.standings.chart import rating_chart
from bot.standings.damage import (
    SETTLING,
    damaged_games,
    damaged_standings,
    game_header,
    history_damage,
    read_season,
    read_seasons,
    season_in,
    season_refusal,
    seasons_in,
    standing_damage,
    standing_damage_text,
)
from bot.standings.pages import (
    LeaderboardPage,
    PlayerStats,
)
from bot.standings.ratings import RATING_SYSTEMS, RatingState, RatingSystem, Seat, rating_system
from bot.standings.recompute import add_line, recompute
from bot.standings.scoring import settle
from bot.standings.stats import SeatStats, game_stats, stats_row, usable_stats
from bot.standings.types import Entry, StandingsError, Who, _DamagedGame
from bot.storage import repository as sql
from bot.storage.leagues import league_season_ids
from bot.storage.penalties import season_penalties
from bot.storage.repository import CorruptRow, GameRow, PlayerLine, Repository, SeasonRow, StandingRow
from bot.storage.writer import savepoint
from engine.rules.base import Ruleset, UnknownRuleset, find_ruleset, ruleset_names

log = logging.getLogger(__name__)

LEADERBOARD_ORDERS = ("points", "rating", "placement")
PAGE_SIZE = 10
SEATS = "ESWN"
CHART_CACHE_SIZE = 256  # rating charts kept in memory (~30 KB each)


#: what a damaged season stops, as the refusal names it (a refusal's ``doing``)
ADDING, CORRECTING, VOIDING = N_("adding this result"), N_("correcting this result"), N_("voiding this result")
LINKING, REBUILDING, IMPORTING = N_("linking this guest"), N_("rebuilding its standings"), N_("importing this log")



class StandingsService:
    def __init__(self, repo: Repository, *, clock: Callable[[], float] = time.time) -> None:
        self.repo = repo
        self.clock = clock
        self._systems: dict[str, RatingSystem] = {}
        self._stats_locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        # (season, player, games) -> ((title, label, hash of the ratings), PNG), least recently used first
        self._damage: dict[int, dict[str, str]] = {}  # season id -> damaged columns, as last read
        self._charts: OrderedDict[tuple[int, str, int, str], tuple[tuple[str, str, int], bytes]] = OrderedDict()
        #: run inside the write that records a finished bot game, before it is attached and rated
        #: (a league's table names its league's season): ``step(conn, game_id, game_dict)``
        self.game_attachers: list[Callable[[sqlite3.Connection, int, dict[str, Any]], None]] = []
        #: run inside the write that records a typed-in result (``/result add``), after it is rated:
        #: ``hook(conn, game)``; a hook that fails is rolled back alone, the result kept
        self.result_recorders: list[Callable[[sqlite3.Connection, GameRow], None]] = []
        #: asked before a typed-in result is stored: ``check(season, players)`` gives the players to
        #: credit (a league's stand-in replaced) or refuses the result (a league's season takes only
        #: its own tables' results)
        self.result_checks: list[Callable[[SeasonRow, Sequence[Who]], Awaitable[list[Who]]]] = []

    async def on_table_update(self, update: Any) -> None:
        """TableService listener: when a game ends, warm the statistics cache in the background."""
        if not getattr(update, "game_over", False):
            return
        g = await self.repo.game_for_table(update.table.id)
        if g is None:
            return
        task = asyncio.create_task(self.game_play_stats([g.id]), name=f"standings-stats-{g.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Cancel background work (before the repository closes)."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        self._tasks.clear()

    def system(self, name: str) -> RatingSystem:
        s = self._systems.get(name)
        if s is None:
            s = self._systems[name] = rating_system(name)
        return s

    # ================================================================ seasons

    async def start_season(
        self,
        guild_id: int | None,
        actor_id: int | None,
        name: str,
        *,
        ruleset: str = "riichi",
        rules: Ruleset | None = None,
        house: str | None = None,
        start_points: int | None = None,
        return_points: int | None = None,
        uma: str | Sequence[float] | None = None,
        rating: str = "openskill",
        min_games: int = 0,
        ties: str = "seat",
        leftover: str = "first",
        parallel: bool = False,
    ) -> SeasonRow:
        name = " ".join(name.split())
        if not name or len(name) > 60:
            raise StandingsError("a season needs a name of 1 to 60 characters")
        try:
            rs = rules if rules is not None else find_ruleset(ruleset)
        except (UnknownRuleset, KeyError, ValueError):
            raise StandingsError("unknown ruleset '{ruleset}': choose one of {choices}", ruleset=ruleset, choices=', '.join(ruleset_names())) from None
        if rating not in RATING_SYSTEMS:
            raise StandingsError("unknown rating system '{rating}': choose one of {choices}", rating=rating, choices=', '.join(RATING_SYSTEMS))
        if ties not in ("seat", "split") or leftover not in ("first", "none"):
            raise StandingsError("ties must be seat or split, and leftover sticks first or none")
        if min_games < 0:
            raise StandingsError("the minimum number of games cannot be negative")
        n = rs.players
        opts = rs.options
        start = opts.start_points if start_points is None else start_points
        ret = opts.return_points if return_points is None else return_points
        uma_t = tuple(float(x) for x in opts.uma) if uma is None else _parse_uma(uma, n)
        if len(uma_t) != n:
            raise StandingsError("the uma needs {n} numbers, one per place", n=n)
        if abs(sum(uma_t)) > 1e-9:
            raise StandingsError("the uma must add up to 0; {uma} adds up to {total}", uma=', '.join(f'{x:g}' for x in uma_t), total=f"{sum(uma_t):g}")
        existing = await self.list_seasons(guild_id)
        if any(s.name.casefold() == name.casefold() for s in existing):
            raise StandingsError("this club already has a season called '{name}'", name=name)
        active = [s for s in existing if s.active and not self.damage_of(s)]
        if active and not parallel:
            raise StandingsError(
                "the season '{season}' is still running: end it with /season end, or start this one with parallel:true",
                season=active[-1].name,
            )
        sid = await self.repo.create_season(
            actor_id, guild_id=guild_id, name=name, ruleset=rs.name, players=n, start_points=start, return_points=ret,
            uma=list(uma_t), rating=rating, min_games=min_games, ties=ties, leftover=leftover, active=1, started_at=self.clock(),
            **({"house": house, "options": rs.options_dict()} if rules is not None else {}),
        )
        return await self._reload_id(sid)

    def damage_of(self, s: SeasonRow) -> dict[str, str]:
        """The damaged columns of a season as last read (``{column: plain words}``; empty if sound)."""
        return self._damage.get(s.id, {})

    def damage(self, s: SeasonRow, doing: str | None = None) -> StandingsError:
        """One sentence on the season's damage (see :func:`bot.standings.damage.season_refusal`)."""
        return season_refusal(s, self.damage_of(s), doing)

    def _require_sound(self, s: SeasonRow, doing: str) -> None:
        if any(c in SETTLING for c in self.damage_of(s)):
            raise self.damage(s, doing)

    async def _club(self, guild_id: int | None) -> list[SeasonRow]:
        """The club's seasons, damaged ones included (their damage noted in ``_damage``)."""
        out = []
        for season, bad in await read_seasons(self.repo.db, guild_id):
            self._damage[season.id] = bad
            out.append(season)
        return out

    async def _reload_id(self, season_id: int) -> SeasonRow:
        got = await read_season(self.repo.db, season_id)
        if got is None:
            raise StandingsError("season #{season} is missing from the database", season=season_id)
        self._damage[got[0].id] = got[1]
        return got[0]

    async def season(self, guild_id: int | None, name: str | None = None) -> SeasonRow:
        """The season named (any state), or the club's running season."""
        seasons = await self._club(guild_id)
        if name:
            want = " ".join(name.split()).casefold()
            for s in seasons:
                if s.name.casefold() == want:
                    return s
            raise StandingsError("this club has no season called '{name}'", name=name)
        active = [s for s in seasons if s.active and "active" not in self.damage_of(s)]
        if not active:
            unsure = [s for s in seasons if "active" in self.damage_of(s)]
            if unsure:
                raise StandingsError(
                    "no season is known to be running: whether the season '{season}' runs is damaged in the database; "
                    "name a season with season:, or an organiser can end it with /season end season:{season} and start a new one",
                    season=unsure[-1].name,
                )
            raise StandingsError("no season is running in this club: an organiser can start one with /season start")
        return active[-1]

    async def default_season(self, guild_id: int | None) -> SeasonRow:
        """Where a typed-in result goes without ``season:``: the club's newest running season that
        is not a league's (a league's season takes only its own tables' results)."""
        reserved = await league_season_ids(self.repo.db, guild_id)
        seasons = [s for s in await self._club(guild_id) if s.active and "active" not in self.damage_of(s)]
        free = [s for s in seasons if s.id not in reserved]
        if free:
            return free[-1]
        if seasons:
            raise StandingsError("only a league's season is running here: name it with season:{season} for a result of its tables",
                                 season=seasons[-1].name)
        return await self.season(guild_id)

    async def audit_rows(self, guild_id: int | None, *, game_id: int | None = None) -> list[Any]:
        """The club's audit log (one game's entries, if named), oldest first."""
        return list(await self.repo.audit(guild_id, game_id=game_id))

    async def season_of_game(self, g: GameRow) -> SeasonRow:
        """The season a game was recorded in."""
        return await self._game_season(g)

    async def end_season(self, guild_id: int | None, actor_id: int | None, name: str | None = None) -> SeasonRow:
        s = await self.season(guild_id, name)
        if not s.active and "active" not in self.damage_of(s):
            raise StandingsError("the season '{season}' has already ended", season=s.name)
        await self.repo.update_season(s.id, actor_id, "season end", active=0, ended_at=self.clock())
        return await self._reload_id(s.id)

    async def rename_season(self, guild_id: int | None, actor_id: int | None, name: str | None, new_name: str) -> SeasonRow:
        s = await self.season(guild_id, name)
        new = " ".join(new_name.split())
        if not new or len(new) > 60:
            raise StandingsError("a season needs a name of 1 to 60 characters")
        if any(o.name.casefold() == new.casefold() and o.id != s.id for o in await self._club(guild_id)):
            raise StandingsError("this club already has a season called '{name}'", name=new)
        await self.repo.update_season(s.id, actor_id, "season rename", name=new)
        return await self._reload_id(s.id)

    async def list_seasons(self, guild_id: int | None) -> list[SeasonRow]:
        """Every season of the club, damaged ones included (see :meth:`damage_of`)."""
        return await self._club(guild_id)

    # ================================================================ recording

    def _settled(
        self, season: SeasonRow, players: Sequence[Who], points: Sequence[int], *, sticks: int = 0, ties: str | None = None,
        leftover: str | None = None, start_total: int | None = None,
    ) -> list[PlayerLine]:
        s = settle(
            points, start_points=season.start_points, return_points=season.return_points, uma=season.uma,
            ties=ties or season.ties, sticks=sticks, leftover=leftover or season.leftover, start_total=start_total,
        )
        return [
            PlayerLine(seat=i, player=w.player, user_id=w.user_id, name=w.name, kind=w.kind, points=s.points[i], place=s.places[i],
                       result=s.results[i])
            for i, w in enumerate(players)
        ]

    def _rate(self, conn: sqlite3.Connection, season: SeasonRow, game_id: int, lines: list[PlayerLine]) -> None:
        """Apply one more game (the newest of its season) to the ratings and the season summary (in a write)."""
        system = self.system(season.rating)
        current = sql.standings_in(conn, season.id, [p.player for p in lines])
        for p in lines:
            c = current.get(p.player)
            bad = standing_damage(c) if c is not None else {}
            if bad:
                raise self.standing_damage(p.name, season, bad, rating=True)
        states = []
        for p in lines:
            c = current.get(p.player)
            states.append(RatingState(c.rating, c.games, c.mu, c.sigma) if c else system.initial())
        new = system.update(states, [Seat(p.player, p.place, p.result) for p in lines])
        rows = []
        for p, before, after in zip(lines, states, new):
            p.rating, p.rating_delta, p.mu, p.sigma = after.rating, after.rating - before.rating, after.mu, after.sigma
            rows.append((p.rating, p.rating_delta, p.mu, p.sigma, game_id, p.seat))
            st = current.get(p.player) or StandingRow(season.id, p.player, p.user_id, p.name, p.kind)
            add_line(st, p)
            st.rating, st.mu, st.sigma = after.rating, after.mu, after.sigma
            current[p.player] = st
        sql.set_ratings(conn, rows)
        sql.put_standings(conn, list(current.values()))

    def record_finished(self, conn: sqlite3.Connection, table_id: int, g: dict[str, Any]) -> int:
        """A finished bot table's game, recorded inside the write of its last move (the table
        service's ``record_game``): its row and seats, the league's attachers, then the standings
        (:meth:`on_bot_game`); the game's id."""
        game_id = sql.record_bot_game(conn, table_id, g)
        for step in self.game_attachers:
            step(conn, game_id, g)
        self.on_bot_game(conn, game_id, g)
        return game_id

    def on_bot_game(self, conn: sqlite3.Connection, game_id: int, g: dict[str, Any]) -> None:
        """On the writer thread (:meth:`record_finished`): a bot game was just recorded in this write; give
        its seats their identity keys and, if the club's running season plays this ruleset, attach
        it and rate it."""
        try:
            with savepoint(conn, "standings"):
                self._attach_bot_game(conn, game_id, g)
        except Exception:
            log.exception("game %s: could not attach it to the standings; the game itself is kept", game_id)

    def _attach_bot_game(self, conn: sqlite3.Connection, game_id: int, g: dict[str, Any]) -> None:
        players = sorted(g["players"], key=lambda p: p["seat"])
        whos = [Who.member(p["user_id"], p["name"]) if p["user_id"] is not None else Who.ai(p["name"]) for p in players]
        points = [int(p["points"]) for p in players]
        # a league's table names its league's season (``season_id``, set by the league's recorder);
        # a league's season takes no other game (``league_seasons``)
        forced, reserved = g.get("season_id"), set(g.get("league_seasons") or ())
        running = [
            s for s, bad in reversed(seasons_in(conn, g.get("guild_id")))
            if s.active and not bad and (s.id == forced if forced is not None else s.id not in reserved)
        ]
        # a season takes a bot game that played its rules: its ruleset, and the options of the house
        # rules it started with (none: the ruleset's own), whatever the game's length
        season = next(
            (
                s for s in running
                if s.ruleset == g["ruleset"] and s.players == len(players) and plays_alike(s.ruleset, s.options, g.get("options") or {})
            ),
            None,
        )
        if season is None:
            lines = [
                PlayerLine(seat=p["seat"], player=w.player, user_id=w.user_id, name=w.name, kind=w.kind, points=int(p["points"]),
                           place=int(p["place"]), result=float(p["result"]))
                for p, w in zip(players, whos)
            ]
            sql.put_players(conn, game_id, lines)
            return
        # the engine already gave leftover sticks to the top: settle the final points as they are
        lines = self._settled(season, whos, points, sticks=0)
        for line, p in zip(lines, players):
            line.seat = int(p["seat"])
        sql.set_game(conn, game_id, season_id=season.id)
        sql.put_players(conn, game_id, lines)
        self._rate(conn, season, game_id, lines)

    def _validate(self, season: SeasonRow, entries: Sequence[Entry], sticks: int) -> None:
        n = len(entries)
        if n not in (3, 4):
            raise StandingsError("a result needs 3 or 4 players, not {n}", n=n)
        if n != season.players:
            raise StandingsError("the season '{season}' plays {players}-player games, and this result has {n} players", season=season.name, players=season.players, n=n)
        seen: dict[str, str] = {}
        for e in entries:
            if e.who.player in seen:
                raise StandingsError("{player} is listed twice: every seat needs a different player", player=e.who.name)
            seen[e.who.player] = e.who.name
        if sticks < 0:
            raise StandingsError("the number of riichi sticks left on the table cannot be negative")
        for e in entries:
            if e.score % 100:
                raise StandingsError("scores are counted in hundreds: {player}'s {score} is not", player=e.who.name, score=e.score)
        total = sum(e.score for e in entries)
        want = season.start_points * n - 1000 * sticks
        if total != want:
            amounts = {"total": f"{total:,}", "n": n, "start": f"{season.start_points:,}", "want": f"{want:,}", "off": f"{total - want:+,}"}
            if sticks == 1:
                raise StandingsError(
                    "the scores add up to {total}, but {n} players starting at {start} with 1 riichi stick left on the table "
                    "must add up to {want} (off by {off})",
                    **amounts,
                )
            if sticks:
                raise StandingsError(
                    "the scores add up to {total}, but {n} players starting at {start} with {sticks} riichi sticks left on the table "
                    "must add up to {want} (off by {off})",
                    sticks=sticks, **amounts,
                )
            raise StandingsError("the scores add up to {total}, but {n} players starting at {start} must add up to {want} (off by {off})", **amounts)

    async def add_result(
        self, guild_id: int | None, actor_id: int | None, entries: Sequence[Entry], *, sticks: int = 0, seat_order: bool = False,
        season: str | None = None,
    ) -> GameRow:
        """Record an in-person game typed in by a member. ``seat_order``: the players are listed in
        seat order from the first dealer (E, S, W, N), so equal scores rank by seat (R-2.8); without
        it, equal scores share their places' uma."""
        s = await self.season(guild_id, season) if season and season.strip() else await self.default_season(guild_id)
        if not s.active:
            raise StandingsError("the season '{season}' has ended; results can only be added to a running season", season=s.name)
        self._require_sound(s, ADDING)
        self._validate(s, entries, sticks)
        for check in self.result_checks:  # (a league's season: its own tables only, a stand-in credited per its rule)
            whos = await check(s, [e.who for e in entries])
            entries = [Entry(w, e.score) for w, e in zip(whos, entries, strict=True)]
        ties = s.ties if seat_order else "split"
        lines = self._settled(s, [e.who for e in entries], [e.score for e in entries], sticks=sticks, ties=ties)
        g = GameRow(
            id=0, guild_id=guild_id, season_id=s.id, table_id=None, source="manual", ruleset=s.ruleset, finished_at=self.clock(),
            status="ok", sticks=sticks, data={"seat_order": seat_order, "scores": [e.score for e in entries]}, players=lines,
        )
        def write(conn: sqlite3.Connection) -> None:
            g.id = sql.insert_game(conn, g, entered_by=actor_id)
            self._rate(conn, s, g.id, lines)
            sql.audit(conn, guild_id=guild_id, season_id=s.id, game_id=g.id, actor_id=actor_id, action="result add", after=g.to_json())
            for hook in self.result_recorders:  # (a league's in-person table takes its result)
                try:
                    with savepoint(conn, "result_hook"):
                        hook(conn, g)
                except Exception:
                    log.exception("game %s: a result hook failed; the result itself is kept", g.id)

        await self.repo.write(write)
        return g

    async def record_sheet(
        self, guild_id: int | None, actor_id: int | None, season_id: int | None, whos: Sequence[Who], own: Sequence[tuple[int, int, float]],
        *, points: Sequence[int], sticks: int, ruleset: str, penalties: Sequence[float], data: dict[str, Any],
        also: Callable[[sqlite3.Connection, int], None],
    ) -> GameRow:
        """A game kept hand by hand on a score sheet (``/sheet``), recorded like a bot game: in the
        season ``season_id`` while it runs and is sound (settled by its uma/oka from ``points``, the
        scores before the ``sticks`` left on the table, ties by seat order, less each seat's chombo
        ``penalties`` in result points; rated), else without a season with the sheet's ``own``
        (points, place, result) per seat. ``also(conn, game_id)`` runs in the same write."""
        s = await self._reload_id(season_id) if season_id is not None else None
        if s is not None and (not s.active or any(c in SETTLING for c in self.damage_of(s))):
            s = None
        if s is not None:
            for check in self.result_checks:  # a league's stand-in credited as its rule says; a refusal changes nothing here
                with contextlib.suppress(UserError):
                    whos = await check(s, whos)
            lines = self._settled(s, whos, points, sticks=sticks)
            for line, penalty in zip(lines, penalties):
                line.result = round(line.result - penalty, 3)
        else:
            lines = [
                PlayerLine(seat=i, player=w.player, user_id=w.user_id, name=w.name, kind=w.kind, points=p, place=place, result=r)
                for i, (w, (p, place, r)) in enumerate(zip(whos, own))
            ]
        g = GameRow(
            id=0, guild_id=guild_id, season_id=s.id if s else None, table_id=None, source="sheet", ruleset=ruleset,
            finished_at=self.clock(), status="ok", sticks=sticks if s else 0, data=data, players=lines,
        )

        def write(conn: sqlite3.Connection) -> None:
            g.id = sql.insert_game(conn, g, entered_by=actor_id)
            if s is not None:
                self._rate(conn, s, g.id, lines)
            sql.audit(conn, guild_id=guild_id, season_id=g.season_id, game_id=g.id, actor_id=actor_id, action="sheet end", after=g.to_json())
            also(conn, g.id)
            for hook in self.result_recorders if s is not None else ():  # (a league's in-person table takes its result)
                try:
                    with savepoint(conn, "result_hook"):
                        hook(conn, g)
                except Exception:
                    log.exception("game %s: a result hook failed; the result itself is kept", g.id)

        await self.repo.write(write)
        return g

    async def _game_in_club(self, guild_id: int | None, game_id: int) -> GameRow:
        try:
            g = await self.repo.get_game(game_id)
        except (CorruptRow, TypeError, ValueError) as e:
            head = await game_header(self.repo.db, game_id)
            if head is None or head[0] != guild_id:
                raise StandingsError("this club has no game #{game}", game=game_id) from None
            why = e.why if isinstance(e, CorruptRow) else await self._game_why(head[1], game_id)
            raise _DamagedGame(game_id, head[1], why) from None
        if g is None or g.guild_id != guild_id:
            raise StandingsError("this club has no game #{game}", game=game_id)
        return g

    async def _game_why(self, season_id: Any, game_id: int) -> str:
        if isinstance(season_id, int):
            got = await read_season(self.repo.db, season_id)
            if got is not None:
                why = (await damaged_games(self.repo.db, season_id, got[0].players)).get(game_id)
                if why:
                    return why
        return "its rows are unreadable"

    async def _game_season(self, g: GameRow) -> SeasonRow:
        if g.season_id is None:
            raise StandingsError("game #{game} belongs to no season", game=g.id)
        got = await read_season(self.repo.db, g.season_id) if isinstance(g.season_id, int) else None
        if got is None:
            raise StandingsError(
                "game #{game} belongs to season #{season}, which is missing from the database: the bot's host can repair "
                "the game's season_id in the games table", game=g.id, season=g.season_id,
            )
        self._damage[got[0].id] = got[1]
        return got[0]

    async def _require_games_sound(self, db: aiosqlite.Connection, s: SeasonRow, doing: str, *, except_game: int | None = None) -> None:
        """Recomputing the ratings reads every game of the season: refuse, naming the game, if one is damaged."""
        bad = {k: v for k, v in (await damaged_games(db, s.id, s.players)).items() if k != except_game}
        if bad:
            gid, why = next(iter(bad.items()))
            kw = {"doing": UserError(doing), "game": gid, "season": s.name, "why": why}
            if len(bad) == 1:
                raise StandingsError(
                    "{doing} is not possible: game #{game} of the season '{season}' is damaged in the database ({why}), so the "
                    "ratings cannot be recomputed; an organiser can take it out with /result void game:{game}", **kw,
                )
            raise StandingsError(
                "{doing} is not possible: game #{game} of the season '{season}' is damaged in the database ({why}) (and {more} more), "
                "so the ratings cannot be recomputed; an organiser can take it out with /result void game:{game}",
                more=len(bad) - 1, **kw,
            )

    def standing_damage(self, name: str, s: SeasonRow, bad: dict[str, str], *, rating: bool = False) -> StandingsError:
        """A player's damaged summary row of a season (``rating``: refused while rating a result)."""
        kw = {"name": name, "season": s.name, "what": standing_damage_text(bad)}
        if rating:
            return StandingsError(
                "this result cannot be rated: {name}'s standings in the season '{season}' are damaged in the database ({what}); "
                "an organiser can rebuild the season's standings from its games with /season rebuild", **kw,
            )
        return StandingsError(
            "{name}'s standings in the season '{season}' are damaged in the database ({what}); "
            "an organiser can rebuild the season's standings from its games with /season rebuild", **kw,
        )

    async def edit_result(
        self, guild_id: int | None, actor_id: int | None, game_id: int, entries: Sequence[Entry], *, organiser: bool,
        sticks: int = 0, seat_order: bool = False,
    ) -> GameRow:
        """Replace a typed-in or imported game's players and scores (organisers only); the ratings
        are recomputed from that game on."""
        if not organiser:
            raise StandingsError("only an organiser can edit a result")
        g = await self._game_in_club(guild_id, game_id)
        if g.status == "void":
            raise StandingsError("game #{game} was voided and cannot be edited", game=game_id)
        if g.source == "sheet":
            raise StandingsError("game #{game} was kept hand by hand on a score sheet: its scores come from its hands; void it instead", game=game_id)
        if g.source == "bot":
            raise StandingsError("game #{game} was played at a bot table: its scores come from the game itself; void it instead", game=game_id)
        s = await self._game_season(g)
        self._require_sound(s, CORRECTING)
        self._validate(s, entries, sticks)
        ties = s.ties if seat_order else "split"
        lines = self._settled(s, [e.who for e in entries], [e.score for e in entries], sticks=sticks, ties=ties)
        before = g.to_json()
        data = {**g.data, "seat_order": seat_order, "scores": [e.score for e in entries]}
        await self._require_games_sound(self.repo.db, s, CORRECTING)
        def write(conn: sqlite3.Connection) -> GameRow:
            sql.set_game(conn, game_id, sticks=sticks, data=data)
            sql.put_players(conn, game_id, lines)
            self._recompute(conn, s, from_game=g)
            after = sql.game_in(conn, game_id)
            assert after is not None
            sql.audit(conn, guild_id=guild_id, season_id=s.id, game_id=game_id, actor_id=actor_id, action="result edit",
                      before=before, after=after.to_json())
            return after

        return await self.repo.write(write)

    async def void_result(self, guild_id: int | None, actor_id: int | None, game_id: int, *, organiser: bool, reason: str = "") -> GameRow:
        """Take a game out of everything (leaderboard, ratings, stats); the ratings are recomputed
        from that game on. The rows stay, marked void, and the audit log keeps what they were."""
        if not organiser:
            raise StandingsError("only an organiser can void a result")
        try:
            g = await self._game_in_club(guild_id, game_id)
        except _DamagedGame as e:
            return await self._void_damaged(guild_id, actor_id, e, reason)
        if g.status == "void":
            raise StandingsError("game #{game} is already void", game=game_id)
        s = await self._game_season(g) if g.season_id is not None else None
        pending = None
        if s is not None:
            self._require_sound(s, VOIDING)
            pending = await self._other_damage(s, game_id)
        def write(conn: sqlite3.Connection) -> None:
            sql.set_game(conn, game_id, status="void")
            sql.set_ratings(conn, [(None, None, None, None, game_id, p.seat) for p in g.players])
            if s is not None and pending is None:
                self._recompute(conn, s, from_game=g)
            after = replace(g, status="void").to_json()
            if reason:
                after["reason"] = reason
            sql.audit(conn, guild_id=guild_id, season_id=g.season_id, game_id=game_id, actor_id=actor_id,
                      action="result void", before=g.to_json(), after=after)

        await self.repo.write(write)
        out = replace(g, status="void")
        if pending:
            out.data = {**out.data, "not_recomputed": pending}
        return out

    async def _other_damage(self, s: SeasonRow, game_id: int) -> StandingsError | None:
        """Why the ratings cannot be recomputed once ``game_id`` is void (another damaged game), or None."""
        bad = {k: v for k, v in (await damaged_games(self.repo.db, s.id, s.players)).items() if k != game_id}
        if not bad:
            return None
        ids = ", ".join(f"#{k}" for k in list(bad)[:5]) + (" …" if len(bad) > 5 else "")
        return StandingsError(
            "the ratings were not recomputed yet, because the season '{season}' has other damaged games ({games}): void those too "
            "(or have the bot's host repair them), and the last void recomputes the ratings",
            season=s.name, games=ids,
        )

    async def _void_damaged(self, guild_id: int | None, actor_id: int | None, e: _DamagedGame, reason: str) -> GameRow:
        """Void a game whose rows are damaged: it is marked void (its rows stay as they are, for the
        bot's host to look at) and the season's ratings are recomputed without it."""
        head = await game_header(self.repo.db, e.game_id)
        if head is not None and head[2] == "void":
            raise StandingsError("game #{game} is already void", game=e.game_id)
        s = None
        if isinstance(e.season_id, int):
            got = await read_season(self.repo.db, e.season_id)
            if got is not None:
                s = got[0]
                self._damage[s.id] = got[1]
                self._require_sound(s, VOIDING)
        pending = await self._other_damage(s, e.game_id) if s is not None else None
        after: dict[str, Any] = {"id": e.game_id, "status": "void", "damaged": True}
        if reason:
            after["reason"] = reason

        def write(conn: sqlite3.Connection) -> None:
            sql.set_game(conn, e.game_id, status="void")
            if s is not None and pending is None:
                self._recompute(conn, s, from_game=None)
            sql.audit(conn, guild_id=guild_id, season_id=s.id if s else None, game_id=e.game_id, actor_id=actor_id,
                      action="result void", before={"id": e.game_id, "status": "ok", "damaged": True}, after=after)

        await self.repo.write(write)
        return GameRow(id=e.game_id, guild_id=guild_id, season_id=s.id if s else None, table_id=None, source="?", ruleset="?",
                       finished_at=0.0, status="void", sticks=0, data={"not_recomputed": pending} if pending else {})

    async def link_guest(self, guild_id: int | None, actor_id: int | None, guest: str, member: Who, *, organiser: bool) -> list[int]:
        """From now on a guest's recorded games count for a member (organisers only)."""
        if not organiser:
            raise StandingsError("only an organiser can link a guest to a member")
        g = Who.guest(guest[6:] if guest.casefold().startswith("guest:") else guest)
        known = await self.repo.known_players(guild_id)
        if g.player not in known:
            raise StandingsError("this club has no games with a guest called '{guest}'", guest=g.name)
        for club_season in await self._club(guild_id):
            if await self.repo.standing(club_season.id, g.player) is not None:
                self._require_sound(club_season, LINKING)
                await self._require_games_sound(self.repo.db, club_season, LINKING)
        def write(conn: sqlite3.Connection) -> list[int]:
            try:
                seasons = sql.link_guest(conn, guild_id, g.player, int(member.user_id or 0), member.name)
            except ValueError as e:
                raise StandingsError("cannot link: {error}", error=str(e)) from None
            for sid in seasons:
                got = season_in(conn, sid)
                if got is not None and not any(c in SETTLING for c in got[1]):
                    self._recompute(conn, got[0], from_game=None)
            sql.audit(conn, guild_id=guild_id, actor_id=actor_id, action="guest link",
                      before={"player": g.player, "name": known[g.player]}, after={"player": member.player, "name": member.name})
            return seasons

        return await self.repo.write(write)

    # ---------------------------------------------------------------- recomputation

    async def recompute_season(self, season_id: int) -> None:
        """Recompute every rating and summary row of a season from its list of games (a game the
        repository cannot read is skipped; :meth:`rebuild_season` refuses instead, naming it)."""
        got = await read_season(self.repo.db, season_id)
        if got is None:
            raise StandingsError("there is no season {season}", season=season_id)
        s = got[0]
        self._damage[s.id] = got[1]
        self._require_sound(s, REBUILDING)
        await self.repo.write(lambda conn: self._recompute(conn, s, from_game=None))

    async def rebuild_season(self, guild_id: int | None, actor_id: int | None, name: str | None = None, *, organiser: bool) -> tuple[SeasonRow, int]:
        """Rebuild a season's ratings and summary rows from its games (organisers): the repair for a
        damaged summary row. Returns the season and how many games it counted."""
        if not organiser:
            raise StandingsError("only an organiser can rebuild a season's standings")
        s = await self.season(guild_id, name)
        self._require_sound(s, REBUILDING)
        await self._require_games_sound(self.repo.db, s, REBUILDING)
        await self.recompute_season(s.id)
        games = len(await self.repo.season_games(s.id))
        await self.repo.write(
            lambda conn: sql.audit(conn, guild_id=guild_id, season_id=s.id, actor_id=actor_id, action="season rebuild", after={"games": games})
        )
        return s, games

    def _recompute(self, conn: sqlite3.Connection, season: SeasonRow, *, from_game: GameRow | None) -> None:
        """The season's ratings from ``from_game`` on and its summary rows (:func:`bot.standings.recompute.recompute`)."""
        recompute(conn, season, self.system(season.rating), from_game=from_game)

    # ---------------------------------------------------------------- import

    async def import_log(
        self, guild_id: int | None, actor_id: int | None, text: str, filename: str, *, names: str = "",
        resolve: Callable[[str], Who] | None = None, known_member: Callable[[str], Who | None] | None = None, season: str | None = None,
    ) -> list[GameRow]:
        """Record the game(s) of a log file: see :func:`bot.standings.imports.import_log`."""
        return await imports.import_log(self, guild_id, actor_id, text, filename, names=names, resolve=resolve, known_member=known_member,
                                        season=season)

    # ================================================================ reading

    async def leaderboard(self, guild_id: int | None, season: str | int | None = None, by: str = "points", page: int = 0) -> LeaderboardPage:
        if by not in LEADERBOARD_ORDERS:
            raise StandingsError("the leaderboard can be ordered by {orders}", orders=', '.join(LEADERBOARD_ORDERS))
        s = await self._season_ref(guild_id, season)
        total, _ = await self.repo.leaderboard(s.id, by, min_games=s.min_games, limit=0)
        pages = max(1, -(-total // PAGE_SIZE))
        page = min(max(0, page), pages - 1)
        _, rows = await self.repo.leaderboard(s.id, by, min_games=s.min_games, offset=page * PAGE_SIZE, limit=PAGE_SIZE)
        notes: list[UserError] = []
        if self.damage_of(s):
            notes.append(self.damage(s))
        shown = {r.player for r in rows}
        hidden = [name for player, name in await damaged_standings(self.repo.db, s.id) if player not in shown]
        if hidden:
            if len(hidden) > 3:
                notes.append(StandingsError(
                    "the standings of {names} and {more} more are damaged in the database and may be missing here; an organiser "
                    "can rebuild the season's standings from its games with /season rebuild", names=", ".join(hidden[:3]), more=len(hidden) - 3,
                ))
            else:
                notes.append(StandingsError(
                    "the standings of {names} are damaged in the database and may be missing here; an organiser can rebuild the "
                    "season's standings from its games with /season rebuild", names=", ".join(hidden),
                ))
        return LeaderboardPage(s, by, page, pages, total, [(page * PAGE_SIZE + i + 1, r) for i, r in enumerate(rows)], notes)

    async def _season_ref(self, guild_id: int | None, season: str | int | None) -> SeasonRow:
        if isinstance(season, int):
            got = await read_season(self.repo.db, season)
            if got is None or got[0].guild_id != guild_id:
                raise StandingsError("that season is not this club's")
            self._damage[season] = got[1]
            return got[0]
        return await self.season(guild_id, season)

    async def player_standing(self, guild_id: int | None, who: Who, season: str | None = None) -> tuple[SeasonRow, StandingRow]:
        """The season and the player's summary row in it; refuses if they have no games there."""
        s = await self.season(guild_id, season)
        st = await self.repo.standing(s.id, who.player)
        bad = standing_damage(st) if st is not None else {}
        if st is not None and bad:
            raise self.standing_damage(who.name, s, bad)
        if st is None or st.games == 0:
            raise StandingsError("{player} has no recorded games in the season '{season}'", player=who.name, season=s.name)
        return s, st

    async def player_stats(
        self, guild_id: int | None, who: Who, season: str | None = None, *, chart: bool = True, lang: Lang = DEFAULT
    ) -> PlayerStats:
        """The player's season; the chart's words in ``lang``."""
        s, st = await self.player_standing(guild_id, who, season)
        history = []
        left_out: list[UserError] = []
        for h in await self.repo.player_history(s.id, who.player):
            why = history_damage(h, s.players)
            if why is None:
                history.append(h)
            else:
                left_out.append(StandingsError(
                    "game #{game} is left out here: it is damaged in the database ({why}); an organiser can take it "
                    "out with /result void game:{game} and enter it again", game=h.game_id, why=why,
                ))
        bot = [h for h in history if (h.source == "bot" and h.table_id is not None) or h.source == "sheet"]  # a sheet's stats are stored with it
        play: SeatStats | None = None
        if bot:
            per_game = await self.game_play_stats([h.game_id for h in bot], players=s.players)
            play = SeatStats()
            for h in bot:
                seat_stats = per_game.get(h.game_id)
                if seat_stats is not None and h.seat < len(seat_stats):
                    play.add(seat_stats[h.seat])
        ratings = [h.rating for h in history if h.rating is not None]
        counts = [0, 0]
        for h in (h for h in bot if h.source == "sheet"):
            with contextlib.suppress(CorruptRow, LookupError, TypeError, ValueError, AttributeError):  # a damaged row counts nothing
                data = (await self.repo.get_game(h.game_id)).data  # type: ignore[union-attr]
                counts = [counts[0] + int(data["draws"][h.seat]), counts[1] + int(data["chombo"][h.seat])]
        out = PlayerStats(
            replace(who, name=st.name), s, st, ratings, play, len(bot), sheet_games=sum(h.source == "sheet" for h in bot), sheet_counts=(counts[0], counts[1]),
        )
        out.notes = left_out + ([self.damage(s)] if self.damage_of(s) else [])
        out.chombo = sum(1 for p in await season_penalties(self.repo.db, s.id) if p.player == who.player and p.kind == "chombo")
        if chart and ratings:
            out.chart = await self._chart(s, who.player, st, ratings, lang)
        return out

    async def _chart(self, s: SeasonRow, player: str, st: StandingRow, ratings: list[float], lang: Lang = DEFAULT) -> bytes:
        """The rating chart, rendered off the event loop and cached by (season, player, games).

        A new game changes the games count; an edit, a void or a rename can change the picture
        without changing the count, so the entry also keeps what it was drawn from and is redrawn
        when that differs."""
        title, label = f"{st.name} — {s.name}", t(lang, "rating ({system})", system=s.rating)
        key = (s.id, player, st.games, lang)
        drawn_from = (title, label, hash(tuple(ratings)))
        hit = self._charts.get(key)
        if hit is not None and hit[0] == drawn_from:
            self._charts.move_to_end(key)
            return hit[1]
        in_lang = {"lang": lang} if lang != DEFAULT else {}  # English: the call as it always was
        png = await asyncio.to_thread(rating_chart, ratings, title=title, label=label, **in_lang)
        self._charts[key] = (drawn_from, png)
        self._charts.move_to_end(key)
        while len(self._charts) > CHART_CACHE_SIZE:
            self._charts.popitem(last=False)
        return png

    async def game_play_stats(self, game_ids: Sequence[int], *, players: int | None = None) -> dict[int, list[SeatStats]]:
        """Per-seat play statistics of bot games, from the cache or by replaying (then cached)."""
        out = usable_stats(await self.repo.cached_stats(game_ids), players)
        for gid in game_ids:
            if gid in out:
                continue
            lock = self._stats_locks.setdefault(gid, asyncio.Lock())
            async with lock:
                again = usable_stats(await self.repo.cached_stats([gid]), players)
                if gid in again:
                    out[gid] = again[gid]
                    continue
                computed = await self._replay_stats(gid)
                if computed is None:
                    continue
                await self.repo.put_stats(gid, [stats_row(x) for x in computed])
                out[gid] = computed
        return out

    async def _replay_stats(self, game_id: int) -> list[SeatStats] | None:
        try:
            g = await self.repo.get_game(game_id)
        except CorruptRow as e:
            log.error("skipping %s", e)
            return None
        if g is None or g.table_id is None:
            return None
        table = await self.repo.get_table(g.table_id)
        if table is None:
            return None
        actions = [a for _, a in await self.repo.actions(g.table_id)]
        try:
            return await asyncio.to_thread(game_stats, table.ruleset, table.options, table.seed, actions)
        except Exception as e:  # a stored log that no longer replays: report it and skip the game
            log.error("game %s (table %s): the action log does not replay for statistics: %s", game_id, g.table_id, e)
            return None

    async def export_csv(self, guild_id: int | None, season: str | None = None) -> tuple[SeasonRow, str, bytes]:
        """The season as CSV: see :func:`bot.standings.export.export_csv`."""
        return await export.export_csv(self, guild_id, season)


# ---------------------------------------------------------------------------- helpers


def _parse_uma(uma: str | Sequence[float], n: int) -> tuple[float, ...]:
    if isinstance(uma, str):
        parts = [p for p in re.split(r"[,\s/]+", uma.strip()) if p]
        try:
            return tuple(float(p) for p in parts)
        except ValueError:
            raise StandingsError("the uma is {n} numbers separated by commas, like 20,10,-10,-20", n=n) from None
    return tuple(float(x) for x in uma)

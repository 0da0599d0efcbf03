"""SheetService: the score sheets of games played at a real table, one open sheet per channel.

A sheet is stored as its rules, its players (seat order from the first dealer) and its entries;
its state is always the engine's replay of those entries (:class:`engine.sheet.Sheet`), so a
restart loses nothing and shows the same sheet. Every change is stored first and shown after:
an entry is checked by the engine on the stored state, written, and only then answered; an entry
the engine refuses, or a write that fails, changes nothing. The entry that ends the game (or
``/sheet end``) records the game in the standings (:meth:`StandingsService.record_sheet`) in the
same write that stores it, with the sheet's per-seat statistics for ``/stats`` and the sheet
closed. One ``asyncio.Lock`` per channel keeps two entries from racing.

No Discord types: the cog resolves members into :class:`~bot.standings.service.Who` values and
turns :class:`SheetUserError` into a plain answer.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.errors import UserError
from bot.house import plays_alike, rules_of
from bot.i18n import N_
from bot.standings.service import StandingsService, Who
from bot.storage import sheets as sql
from bot.storage.leagues import leagues
from bot.storage.repository import GameRow, Repository, SeasonRow
from engine.rules.base import Ruleset, find_ruleset
from engine.sheet import Entry, Final, Outcome, Sheet, SheetError, SheetRefusal, SheetState


class SheetUserError(UserError):
    full_stop = True


#: each engine refusal's sentence; ``{seat}`` is replaced by the player's name
REFUSALS: dict[SheetRefusal, str] = {
    SheetRefusal.GAME_OVER: N_("the game on this sheet is over: /sheet end records it"),
    SheetRefusal.NO_SUCH_SEAT: N_("that player is not seated at this sheet"),
    SheetRefusal.RON_ON_SELF: N_("{player} cannot win by ron on their own discard"),
    SheetRefusal.SEAT_TWICE: N_("{player} is named twice"),
    SheetRefusal.BAD_HAN: N_("{han} han is not a hand's value: han count from 1, and a yakuman is 13"),
    SheetRefusal.BAD_FU: N_("{fu} fu is not possible: fu are 20, 25, or 30 to 110 in tens"),
    SheetRefusal.IMPOSSIBLE_HAN_FU: N_("no hand is worth {han} han {fu} fu when won this way"),
    SheetRefusal.NO_DOUBLE_YAKUMAN: N_("these rules count no double yakuman: enter a yakuman as han:13"),
    SheetRefusal.HEAD_BUMP: N_("these rules give a discard to one winner only, the first after the discarder (head bump)"),
    SheetRefusal.NO_TRIPLE_RON: N_("three rons on one discard are an abortive draw under these rules, not a win"),
    SheetRefusal.NO_WINNER: N_("a win needs a winner"),
    SheetRefusal.RIICHI_NO_POINTS: N_("{player} has fewer than 1,000 points and cannot have declared riichi"),
    SheetRefusal.RIICHI_NOT_TENPAI: N_("{player} declared riichi, so must be listed as tenpai at the draw (a noten riichi is a chombo)"),
    SheetRefusal.NO_ABORTIVE_DRAW: N_("these rules have no abortive draw: every draw is an exhaustive draw"),
    SheetRefusal.NO_NAGASHI: N_("these rules have no nagashi mangan"),
    SheetRefusal.HAND_UNREADABLE: N_("I could not read that hand: {error}"),
    SheetRefusal.HAND_NOT_A_WIN: N_("that hand does not win: it has no yaku or is not complete"),
    SheetRefusal.HAND_WRONG_WAY: N_("that hand is written as won the other way: write ron or tsumo as in the command"),
    SheetRefusal.NOT_FOR_SHEET: N_("a game of {ruleset} cannot be kept on a score sheet: its hands are not valued in han and fu"),
}


def refusal(e: SheetError, names: Sequence[str]) -> SheetUserError:
    """The engine's refusal as one sentence naming the player (not the seat number)."""
    kw = dict(e.fields)
    seat = kw.pop("seat", None)
    if isinstance(seat, int) and 0 <= seat < len(names):
        kw["player"] = names[seat]
    kw.pop("tsumo", None)
    return SheetUserError(REFUSALS[e.reason], **kw)


@dataclass(frozen=True, slots=True)
class Current:
    """An open sheet as stored, and the engine's replay of its entries."""

    row: sql.SheetRow
    rules: Ruleset
    sheet: Sheet
    state: SheetState
    outcomes: tuple[Outcome, ...]
    entered_by: tuple[int | None, ...]

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.row.players]

    def seat_of(self, who: Who) -> int:
        for i, p in enumerate(self.row.players):
            if p.player == who.player:
                return i
        raise SheetUserError("{player} is not seated at this sheet", player=who.name)

    def final(self) -> Final:
        return self.sheet.final(self.state)


class SheetService:
    def __init__(self, repo: Repository, standings: StandingsService) -> None:
        self.repo = repo
        self.standings = standings
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, channel_id: int) -> asyncio.Lock:
        return self._locks.setdefault(channel_id, asyncio.Lock())

    # ---------------------------------------------------------------- reading

    async def current(self, channel_id: int) -> Current:
        """The channel's open sheet, rebuilt from its stored entries."""
        try:
            row = await sql.open_sheet(self.repo.db, channel_id)
            if row is None:
                raise SheetUserError("there is no open score sheet in this channel: /sheet start opens one")
            stored = await sql.entries(self.repo.db, row.id)
            rules = rules_of(row.ruleset, row.options)
            sheet = Sheet(rules)
            state, outcomes = sheet.replay([Entry.from_json(e.entry) for e in stored])
        except (sql.DamagedSheet, ValueError) as e:
            if isinstance(e, SheetUserError):
                raise
            raise SheetUserError("the score sheet of this channel is damaged in the database ({why}); the bot's host can repair it", why=str(e)) from None
        return Current(row, rules, sheet, state, tuple(outcomes), tuple(x.user_id for x in stored))

    # ---------------------------------------------------------------- starting

    async def _season(self, guild_id: int | None, rules: Ruleset, n: int, season: str | None, league: str | None) -> SeasonRow | None:
        """The season the game will join: the one named (or the league's), which must play these
        rules; else, as for a bot game, the club's newest running season that plays them (a
        league's season only when named)."""
        if league:
            found = [lg for lg in await leagues(self.repo.db, guild_id) if lg.name.casefold() == " ".join(league.split()).casefold()]
            if not found:
                raise SheetUserError("this club has no league called '{league}'", league=league)
            seasons = [s for s in await self.standings.list_seasons(guild_id) if s.id == found[0].season_id]
            if not seasons:
                raise SheetUserError("the season of the league '{league}' is missing", league=league)
            s: SeasonRow | None = seasons[0]
        elif season:
            s = await self.standings.season(guild_id, season)
        else:
            reserved = {lg.season_id for lg in await leagues(self.repo.db, guild_id)}
            running = [
                x for x in reversed(await self.standings.list_seasons(guild_id))
                if x.active and not self.standings.damage_of(x) and x.id not in reserved
            ]
            return next((x for x in running if self._plays(x, rules, n)), None)
        assert s is not None
        if not s.active:
            raise SheetUserError("the season '{season}' has ended; a sheet can only be recorded in a running season", season=s.name)
        if not self._plays(s, rules, n):
            raise SheetUserError(
                "the season '{season}' plays {rules} with {players} players: name the same rules for this sheet", season=s.name,
                rules=s.house or s.ruleset, players=s.players,
            )
        return s

    @staticmethod
    def _plays(s: SeasonRow, rules: Ruleset, n: int) -> bool:
        return s.ruleset == rules.name and s.players == n and plays_alike(s.ruleset, s.options, rules.options_dict())

    async def start(
        self, guild_id: int | None, channel_id: int, actor_id: int | None, players: Sequence[Who], rules: Ruleset | None,
        house: str | None, *, season: str | None = None, league: str | None = None,
    ) -> Current:
        """Open a sheet in the channel: ``players`` in seat order from the first dealer; ``rules``
        None: riichi (Tenhou sanma with three players)."""
        n = len(players)
        if rules is None:
            rules = find_ruleset("riichi", players=3) if n == 3 else find_ruleset("riichi")
        if n != rules.players:
            raise SheetUserError("{rules} is played by {players} players, and this sheet names {n}", rules=house or rules.name, players=rules.players, n=n)
        seen: set[str] = set()
        for w in players:
            if w.kind == "ai":
                raise SheetUserError("only people sit at a real table: mention a member (@name), or write guest:Name")
            if w.player in seen:
                raise SheetUserError("{player} is listed twice: every seat needs a different player", player=w.name)
            seen.add(w.player)
        try:
            Sheet(rules)
        except SheetError as e:
            raise refusal(e, []) from None
        s = await self._season(guild_id, rules, n, season, league)
        seats = [sql.SheetPlayer(w.player, w.user_id, w.name, w.kind) for w in players]

        def write(conn: sqlite3.Connection) -> int:
            return sql.insert_sheet(
                conn, guild_id=guild_id, channel_id=channel_id, ruleset=rules.name, options=rules.options_dict(), house=house,
                season_id=s.id if s else None, league_table=None, players=seats, created_by=actor_id,
            )

        async with self.lock(channel_id):
            try:
                await self.repo.write(write)
            except sqlite3.IntegrityError:
                raise SheetUserError("this channel already has an open score sheet: /sheet end closes it") from None
            return await self.current(channel_id)

    async def shown_in(self, sheet_id: int, message_id: int) -> None:
        """Note the message that shows the sheet (to edit it from then on)."""
        await self.repo.write(lambda conn: sql.set_message(conn, sheet_id, message_id))

    # ---------------------------------------------------------------- entries

    @staticmethod
    def _may(c: Current, actor_id: int | None, organiser: bool) -> None:
        if organiser or any(p.user_id is not None and p.user_id == actor_id for p in c.row.players):
            return
        raise SheetUserError("only a player seated at this sheet or an organiser can change it")

    async def enter(
        self, channel_id: int, actor_id: int | None, organiser: bool, make: Callable[[Current], Entry],
    ) -> tuple[Current, Outcome, GameRow | None]:
        """Check and store one entry (``make(current)`` builds it, so seats and hands are read on
        the stored state), then the sheet after it; an entry that ends the game records it."""
        async with self.lock(channel_id):
            c = await self.current(channel_id)
            self._may(c, actor_id, organiser)
            try:
                entry = make(c)
                outcome = c.sheet.apply(c.state, entry)
            except SheetError as e:
                raise refusal(e, c.names) from None
            serial = len(c.outcomes) + 1

            def store(conn: sqlite3.Connection, game_id: int | None = None) -> None:
                try:
                    sql.add_entry(conn, c.row.id, serial, entry.to_json(), actor_id)
                except sqlite3.IntegrityError:
                    raise SheetUserError("another entry was stored on this sheet at the same moment: look at the sheet and enter yours again") from None

            after = Current(c.row, c.rules, c.sheet, outcome.state, (*c.outcomes, outcome), (*c.entered_by, actor_id))
            game = None
            if outcome.state.over:  # the game's natural end: the entry, the game and the closed sheet in one write
                game = await self._record(after, actor_id, store)
            else:
                await self.repo.write(store)
            return after, outcome, game

    async def undo(self, channel_id: int, actor_id: int | None, organiser: bool) -> tuple[Current, Outcome]:
        """Delete the newest entry; the sheet as it was before it, and the entry's outcome."""
        async with self.lock(channel_id):
            c = await self.current(channel_id)
            self._may(c, actor_id, organiser)
            if not c.outcomes:
                raise SheetUserError("there is nothing to undo: no hand has been entered on this sheet")
            serial = len(c.outcomes)
            gone = await self.repo.write(lambda conn: sql.delete_entry(conn, c.row.id, serial))
            if not gone:
                raise SheetUserError("the newest entry changed at the same moment: look at the sheet and undo again")
            return await self.current(channel_id), c.outcomes[-1]

    async def end(self, channel_id: int, actor_id: int | None, organiser: bool) -> tuple[Current, GameRow | None]:
        """Close the sheet and record its game as it stands (no hand entered: closed, nothing
        recorded)."""
        async with self.lock(channel_id):
            c = await self.current(channel_id)
            self._may(c, actor_id, organiser)
            if not c.outcomes:
                await self.repo.write(lambda conn: sql.finish_sheet(conn, c.row.id, None))
                return c, None
            return c, await self._record(c, actor_id, lambda conn, gid: None)

    async def _record(self, c: Current, actor_id: int | None, also: Callable[[sqlite3.Connection, int], None]) -> GameRow:
        final = c.final()
        whos = [Who(p.player, p.user_id, p.name, p.kind) for p in c.row.players]
        own = list(zip(final.scores, final.places, final.results))
        stats = [
            (seat, t.hands, t.wins, t.deal_ins, t.riichi, 0, t.win_points, t.deal_in_points)
            for seat, t in enumerate(c.state.tally)
        ]
        data = {
            "sheet": c.row.id,
            "house": c.row.house,
            "options": c.row.options,
            "hands": c.state.hands,
            "draws": [t.draws for t in c.state.tally],
            "chombo": [t.chombo for t in c.state.tally],
            "penalties": list(final.penalties),
            "scores": list(c.state.scores),
        }

        def both(conn: sqlite3.Connection, game_id: int) -> None:
            also(conn, game_id)
            sql.put_stats(conn, game_id, stats)
            if not sql.finish_sheet(conn, c.row.id, game_id):
                raise SheetUserError("this sheet was closed at the same moment")

        return await self.standings.record_sheet(
            c.row.guild_id, actor_id, c.row.season_id, whos, own, points=list(c.state.scores), sticks=c.state.sticks,
            ruleset=c.row.ruleset, penalties=[p / 1000 for p in final.penalties], data=data, also=both,
        )

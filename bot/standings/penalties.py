"""Penalties and chombo in any season (issue 30): points an organiser takes off a player's season
total, with a reason, listed by ``/season penalties``, applied to the leaderboard and ``/stats`` (the
standings read them beside their rows: :data:`bot.storage.repository.Repository._PENALTY`), written
in ``/season export`` and in the audit log with the reason and who entered them.

A chombo is a penalty of its kind: by default the season's rules' ``chombo_penalty`` where their chombo is
a penalty (EMA 20,000 points, WRC 30,000: 20 and 30 result points), else 20. A league's own penalties (``/league penalty``) are listed
with the season's. No Discord types; refusals are :class:`~bot.standings.service.StandingsError`.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable

from bot.house import rules_of
from bot.i18n import Lang, t
from bot.standings.service import StandingsError, StandingsService, Who
from bot.storage import penalties as sql
from bot.storage import repository as repo_sql
from bot.storage.penalties import PenaltyRow
from bot.storage.repository import SeasonRow

CHOMBO_POINTS = 20.0
REASON_LIMIT = 200


def chombo_points(s: SeasonRow) -> float:
    """A chombo's penalty in result points under the season's rules: their ``chombo_penalty`` where
    their chombo is a penalty (EMA 20,000, WRC 30,000: 20 and 30), else :data:`CHOMBO_POINTS`."""
    try:
        o = rules_of(s.ruleset, s.options or {}).options
    except ValueError:
        return CHOMBO_POINTS
    if o.chombo == "penalty":
        return float(o.chombo_penalty) / 1000
    return CHOMBO_POINTS


class Penalties:
    def __init__(self, standings: StandingsService, *, clock: Callable[[], float] = time.time) -> None:
        self.standings = standings
        self.repo = standings.repo
        self.clock = clock

    async def _season(self, guild_id: int | None, season: str | None) -> SeasonRow:
        if season and season.strip():
            return await self.standings.season(guild_id, season)
        return await self.standings.default_season(guild_id)

    async def add(self, guild_id: int | None, actor_id: int | None, who: Who, points: float | None, reason: str, *,
                  chombo: bool = False, season: str | None = None, game_id: int | None = None) -> tuple[SeasonRow, PenaltyRow]:
        """Take ``points`` (a chombo: 20 unless given) off ``who``'s total in the season; stored with its audit entry."""
        s = await self._season(guild_id, season)
        reason = " ".join(reason.split())
        if not reason or len(reason) > REASON_LIMIT:
            raise StandingsError("a penalty's reason needs 1 to {limit} characters", limit=REASON_LIMIT)
        if points is None:
            if not chombo:
                raise StandingsError("give the points a penalty takes off, like points:10")
            points = chombo_points(s)
        if not 0 < points <= 1000:
            raise StandingsError("a penalty takes off from 0 to 1000 points: give how many it takes off, like 20 for a chombo")
        if await self.repo.standing(s.id, who.player) is None:
            raise StandingsError("{who} has no game in the season '{season}'", who=who.name, season=s.name)
        if game_id is not None:
            g = await self.repo.get_game(game_id)
            if g is None or g.season_id != s.id or g.guild_id != guild_id:
                raise StandingsError("game #{game} is not a game of the season '{season}'", game=game_id, season=s.name)
        kind = "chombo" if chombo else "penalty"
        now = self.clock()
        fields = {"season_id": s.id, "player": who.player, "name": who.name, "points": float(points), "kind": kind, "reason": reason,
                  "game_id": game_id, "by_id": actor_id, "at": now}

        def write(conn: sqlite3.Connection) -> int:
            pid = sql.insert(conn, **fields)  # type: ignore[arg-type]
            repo_sql.audit(conn, guild_id=guild_id, season_id=s.id, game_id=game_id, actor_id=actor_id, action=f"season {kind}",
                           after={"penalty": pid, "player": who.player, "name": who.name, "points": float(points), "reason": reason})
            return pid

        pid = await self.repo.write(write)
        return s, PenaltyRow(pid, s.id, who.player, who.name, float(points), kind, reason, game_id, actor_id, now)

    async def listing(self, guild_id: int | None, season: str | None = None) -> tuple[SeasonRow, list[PenaltyRow]]:
        s = await self._season(guild_id, season)
        return s, await sql.season_penalties(self.repo.db, s.id)


def penalty_line(p: PenaltyRow, lang: Lang) -> str:
    """One line of ``/season penalties``: when, who, how much, why, who entered it."""
    when = f"<t:{int(p.at)}:d>" if 0 <= p.at < 1e11 else "?"
    by = f" <@{p.by_id}>" if isinstance(p.by_id, int) else ""
    game = " " + t(lang, "game #{game}", game=p.game_id) if p.game_id else ""
    if p.kind == "chombo":
        return t(lang, "{when} {name}: chombo −{points} ({reason}){game}, entered by{by}", when=when, name=p.name, points=f"{p.points:g}",
                 reason=p.reason, game=game, by=by)
    return t(lang, "{when} {name}: −{points} ({reason}){game}, entered by{by}", when=when, name=p.name, points=f"{p.points:g}",
             reason=p.reason, game=game, by=by)

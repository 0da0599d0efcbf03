"""Seasons, recorded games, the standings summary and play statistics: row types, column rules,
reads, and the steps of a write.

:class:`GameStore` is the part of the Repository that reads them; the write steps below
(``insert_game``, ``put_players``, ``put_standings``, ``link_guest``, …) are plain functions of the
connection a write function is given (``repo.write(fn)``), so a write made of several is still one
transaction on either backend.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from bot.storage.audit import audit
from bot.storage.columns import (
    _ID,
    _ID_OR_NULL,
    CorruptRow,
    Rule,
    _assignments,
    _checked,
    _int,
    _integer,
    _json_object,
    _number,
    _one_of,
    _shown,
    _text,
    bad_columns,
)
from bot.storage.reads import fetch_all, fetch_one

log = logging.getLogger(__name__)

GAME_RULES: dict[str, Rule] = {
    "id": _ID,
    "guild_id": _ID_OR_NULL,
    "table_id": _ID_OR_NULL,
    "source": _one_of("bot", "manual", "import", "sheet"),
    "ruleset": _text(nonempty=True),
    "finished_at": _number(),
    "data": (_json_object, "a JSON object"),
    "season_id": _ID_OR_NULL,
    "status": _one_of("ok", "void"),
    "sticks": _integer(0),
    "entered_by": _ID_OR_NULL,
}
PLAYER_RULES: dict[str, Rule] = {
    "game_id": _ID,
    "seat": _integer(0, 3),
    "user_id": _ID_OR_NULL,
    "name": _text(),
    "points": _integer(-10_000_000, 10_000_000),
    "place": _integer(1, 4),
    "result": _number(),
    "player": _text(),
    "kind": _one_of("user", "guest", "ai"),
    "rating": _number(null=True),
    "rating_delta": _number(null=True),
    "mu": _number(null=True),
    "sigma": _number(null=True),
}


SEASON_COLUMNS = frozenset(
    {
        "guild_id",
        "name",
        "ruleset",
        "players",
        "start_points",
        "return_points",
        "uma",
        "rating",
        "min_games",
        "ties",
        "leftover",
        "active",
        "started_at",
        "ended_at",
        "house",
        "options",
    }
)
#: the columns a write may name, per table (the key columns are never set by name)
GAME_COLUMNS = frozenset(GAME_RULES) - {"id"}


@dataclass(slots=True)
class SeasonRow:
    id: int
    guild_id: int
    name: str
    ruleset: str
    players: int
    start_points: int
    return_points: int
    uma: tuple[float, ...]
    rating: str
    min_games: int
    ties: str
    leftover: str
    active: bool
    started_at: float
    ended_at: float | None
    house: str | None = None  # the house-rule profile it started with (migration 0007)
    options: dict[str, Any] = field(
        default_factory=dict
    )  # that profile's rules at the start (Ruleset.options_dict())

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "ruleset": self.ruleset,
            "players": self.players,
            "start_points": self.start_points,
            "return_points": self.return_points,
            "uma": list(self.uma),
            "rating": self.rating,
            "min_games": self.min_games,
            "ties": self.ties,
            "leftover": self.leftover,
            "active": self.active,
        }


@dataclass(slots=True)
class PlayerLine:
    """One seat of a recorded game. ``player`` is the identity key: ``u:<id>``, ``g:<name>`` or ``ai:<name>``."""

    seat: int
    player: str
    user_id: int | None
    name: str
    kind: str  # user | guest | ai
    points: int
    place: int = 0
    result: float = 0.0
    rating: float | None = None
    rating_delta: float | None = None
    mu: float | None = None
    sigma: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "player": self.player,
            "name": self.name,
            "points": self.points,
            "place": self.place,
            "result": self.result,
        }


@dataclass(slots=True)
class GameRow:
    id: int
    guild_id: int | None
    season_id: int | None
    table_id: int | None
    source: str  # bot | manual | import | sheet
    ruleset: str
    finished_at: float
    status: str  # ok | void
    sticks: int
    data: dict[str, Any]
    players: list[PlayerLine] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "season_id": self.season_id,
            "source": self.source,
            "status": self.status,
            "sticks": self.sticks,
            "players": [p.to_json() for p in self.players],
        }


@dataclass(slots=True)
class StandingRow:
    season_id: int
    player: str
    user_id: int | None
    name: str
    kind: str
    games: int = 0
    points_total: int = 0
    result_total: float = 0.0
    place_total: int = 0
    places: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    rating: float = 0.0
    mu: float | None = None
    sigma: float | None = None
    penalty: float = 0.0  # league penalties (points taken off), read beside the row, never stored in it

    @property
    def points_after_penalties(self) -> float:
        return self.result_total - self.penalty

    @property
    def average_place(self) -> float:
        return self.place_total / self.games if self.games else 0.0


@dataclass(slots=True)
class HistoryRow:
    game_id: int
    finished_at: float
    source: str
    table_id: int | None
    seat: int
    points: int
    place: int
    result: float
    rating: float | None



class GameStore:
    """Seasons, games, standings and statistics (a part of the Repository)."""

    # ================================================================ standings (schema version 2)
    # A standings write that reads rating states and writes the new ones is one write function
    # (``repo.write(fn)``) made of the module's ``sqlite3`` functions below (``insert_game``,
    # ``standings_in``, ``put_standings``, ``audit``, …), so that it is one transaction.

    # ---------------------------------------------------------------- seasons

    def _season(self, r: aiosqlite.Row) -> SeasonRow:
        try:
            uma = json.loads(r["uma"])
            if (
                not isinstance(uma, list)
                or len(uma) != r["players"]
                or not all(isinstance(x, int | float) for x in uma)
            ):
                raise ValueError("uma is not one number per player")
        except ValueError as e:
            raise CorruptRow("seasons", r["id"], f"bad uma JSON ({e})") from None
        try:
            options = json.loads(r["options"])
            if not isinstance(options, dict):
                raise ValueError("options is not an object")
        except (ValueError, TypeError) as e:
            raise CorruptRow("seasons", r["id"], f"bad options JSON ({e})") from None
        if r["house"] is not None and not isinstance(r["house"], str):
            raise CorruptRow("seasons", r["id"], f"its house is {_shown(r['house'])}, not text or empty")
        return SeasonRow(
            id=r["id"],
            guild_id=r["guild_id"],
            name=r["name"],
            ruleset=r["ruleset"],
            players=r["players"],
            start_points=r["start_points"],
            return_points=r["return_points"],
            uma=tuple(float(x) for x in uma),
            rating=r["rating"],
            min_games=r["min_games"],
            ties=r["ties"],
            leftover=r["leftover"],
            active=bool(r["active"]),
            started_at=r["started_at"],
            ended_at=r["ended_at"],
            house=r["house"],
            options=options,
        )

    def _seasons_of(self, rows: Iterable[aiosqlite.Row]) -> list[SeasonRow]:
        out = []
        for r in rows:
            try:
                out.append(self._season(r))
            except CorruptRow as e:
                log.error("skipping %s", e)
        return out

    async def create_season(self, actor_id: int | None, **fields: Any) -> int:
        """A new season row (each keyword one of :data:`SEASON_COLUMNS`) and its audit entry, in one write."""
        fields = dict(fields)
        fields["uma"] = json.dumps(list(fields["uma"]))
        if "options" in fields:
            fields["options"] = json.dumps(fields["options"] or {}, sort_keys=True)
        fields.setdefault("started_at", time.time())
        cols = _checked("seasons", SEASON_COLUMNS, fields)
        sql = f"INSERT INTO seasons ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)}) RETURNING id"
        after = {k: (json.loads(v) if k in ("uma", "options") else v) for k, v in fields.items()}

        def create(conn: sqlite3.Connection) -> int:
            sid = int(conn.execute(sql, tuple(fields.values())).fetchone()[0])
            audit(
                conn,
                guild_id=fields.get("guild_id"),
                season_id=sid,
                actor_id=actor_id,
                action="season start",
                after=after,
            )
            return sid

        return await self.write(create)

    async def get_season(self, season_id: int) -> SeasonRow | None:
        r = await fetch_one(self.db, "SELECT * FROM seasons WHERE id = ?", (season_id,))
        return self._season(r) if r is not None else None

    async def seasons(self, guild_id: int | None) -> list[SeasonRow]:
        return self._seasons_of(await fetch_all(self.db, "SELECT * FROM seasons WHERE guild_id = ? ORDER BY id", (guild_id,)))

    async def update_season(self, season_id: int, actor_id: int | None, action: str, **fields: Any) -> None:
        """Change a season's row (end, rename; each keyword one of :data:`SEASON_COLUMNS`) and log
        the change, in one write."""
        sets = _assignments("seasons", SEASON_COLUMNS, fields)

        def update(conn: sqlite3.Connection) -> None:
            r = conn.execute("SELECT * FROM seasons WHERE id = ?", (season_id,)).fetchone()
            if r is None:
                raise LookupError(f"no season {season_id}")
            before = {k: r[k] for k in fields}
            conn.execute(f"UPDATE seasons SET {sets} WHERE id = ?", (*fields.values(), season_id))
            audit(
                conn,
                guild_id=r["guild_id"],
                season_id=season_id,
                actor_id=actor_id,
                action=action,
                before=before,
                after=fields,
            )

        await self.write(update)

    # ---------------------------------------------------------------- games

    @staticmethod
    def _line(r: aiosqlite.Row) -> PlayerLine:
        return PlayerLine(
            seat=r["seat"],
            player=r["player"],
            user_id=r["user_id"],
            name=r["name"],
            kind=r["kind"],
            points=r["points"],
            place=r["place"],
            result=r["result"],
            rating=r["rating"],
            rating_delta=r["rating_delta"],
            mu=r["mu"],
            sigma=r["sigma"],
        )

    @staticmethod
    def _game(r: aiosqlite.Row, lines: list[PlayerLine]) -> GameRow:
        try:
            data = json.loads(r["data"] or "{}")
            if not isinstance(data, dict):
                raise ValueError("data is not an object")
        except (ValueError, TypeError) as e:
            raise CorruptRow("games", r["id"], f"bad data JSON ({e})") from None
        why = bad_columns(r, GAME_RULES)
        if why:
            raise CorruptRow("games", r["id"], why, columns=True)
        n = len(lines)
        if n not in (3, 4):
            raise CorruptRow("games", r["id"], f"{n} players")
        for p in lines:
            if not (_int(p.place) and 1 <= p.place <= n and _int(p.points) and abs(p.points) <= 10_000_000):
                # not a number at all: a column check() lists row by row (columns=True)
                raise CorruptRow(
                    "games",
                    r["id"],
                    f"impossible place or points at seat {p.seat}",
                    columns=not (_int(p.place) and _int(p.points)),
                )
        for p in lines:  # the other columns of its game_players rows, as read
            why = bad_columns({k: getattr(p, k) for k in PLAYER_RULES if hasattr(p, k)}, PLAYER_RULES)
            if why:
                raise CorruptRow("games", r["id"], f"seat {_shown(p.seat)}: {why}", columns=True)
        if len({p.player for p in lines}) != n:
            raise CorruptRow("games", r["id"], "the same player twice")
        return GameRow(
            id=r["id"],
            guild_id=r["guild_id"],
            season_id=r["season_id"],
            table_id=r["table_id"],
            source=r["source"],
            ruleset=r["ruleset"],
            finished_at=r["finished_at"],
            status=r["status"],
            sticks=r["sticks"],
            data=data,
            players=sorted(lines, key=lambda p: p.seat),
        )

    async def get_game(self, game_id: int) -> GameRow | None:
        """One recorded game; raises :class:`CorruptRow` if its rows are impossible (:func:`game_in` inside a write)."""
        r = await fetch_one(self.db, _GAME, (game_id,))
        if r is None:
            return None
        lines = [self._line(x) for x in await fetch_all(self.db, _GAME_PLAYERS, (game_id,))]
        return self._game(r, lines)

    async def game_for_table(self, table_id: int) -> GameRow | None:
        r = await fetch_one(self.db, "SELECT id FROM games WHERE table_id = ? ORDER BY id DESC LIMIT 1", (table_id,))
        return await self.get_game(int(r[0])) if r else None

    async def season_games(self, season_id: int) -> list[GameRow]:
        """The season's counted games in playing order; corrupted games are logged and skipped
        (:func:`season_games_in` inside a write)."""
        lines = await fetch_all(self.db, _SEASON_PLAYERS, (season_id,))
        games = await fetch_all(self.db, _SEASON_GAMES, (season_id,))
        return self._games_of(games, lines)

    @classmethod
    def _games_of(cls, games: Iterable[aiosqlite.Row], player_rows: Iterable[aiosqlite.Row]) -> list[GameRow]:
        lines: dict[int, list[PlayerLine]] = {}
        for x in player_rows:
            lines.setdefault(x["game_id"], []).append(cls._line(x))
        out = []
        for r in games:
            try:
                out.append(cls._game(r, lines.get(r["id"], [])))
            except CorruptRow as e:
                log.error("skipping %s", e)
        return out

    # ---------------------------------------------------------------- the standings summary

    @staticmethod
    def _standing(r: aiosqlite.Row) -> StandingRow:
        return StandingRow(
            season_id=r["season_id"],
            player=r["player"],
            user_id=r["user_id"],
            name=r["name"],
            kind=r["kind"],
            games=r["games"],
            points_total=r["points_total"],
            result_total=r["result_total"],
            place_total=r["place_total"],
            places=[r["p1"], r["p2"], r["p3"], r["p4"]],
            rating=r["rating"],
            mu=r["mu"],
            sigma=r["sigma"],
            # (``in`` on a row tests its values, not its column names)
            penalty=r["penalty"] if "penalty" in r.keys() and isinstance(r["penalty"], int | float) else 0.0,  # noqa: SIM118
        )

    # the penalties of a standings row's player in its season: its league's (schema version 9) and the
    # season's own (version 14, issue 30); a hand-edited points value that is not a number counts as 0
    # here (db check names the row)
    _PENALTY = (
        "((SELECT COALESCE(SUM(CASE WHEN typeof(lp.points) IN ('integer', 'real') THEN lp.points ELSE 0 END), 0)"
        " FROM league_penalties lp JOIN leagues lg ON lg.id = lp.league_id"
        " WHERE lg.season_id = standings.season_id AND lp.player = standings.player)"
        " + (SELECT COALESCE(SUM(CASE WHEN typeof(sp.points) IN ('integer', 'real') THEN sp.points ELSE 0 END), 0)"
        " FROM season_penalties sp WHERE sp.season_id = standings.season_id AND sp.player = standings.player)) AS penalty"
    )

    _ORDER = {
        "points": "result_total - penalty DESC, games DESC, player",
        "rating": "rating DESC, games DESC, player",
        "placement": "CAST(place_total AS DOUBLE PRECISION) / games ASC, games DESC, player",
    }

    async def leaderboard(
        self, season_id: int, by: str, *, min_games: int = 0, offset: int = 0, limit: int = 10
    ) -> tuple[int, list[StandingRow]]:
        """``(players listed, one page of them)``; AI seats are never listed."""
        order = self._ORDER[by]
        where = "season_id = ? AND kind != 'ai' AND games >= ? AND games > 0"
        row = await fetch_one(self.db, f"SELECT COUNT(*) FROM standings WHERE {where}", (season_id, min_games))
        total = int(row[0]) if row else 0
        rows = [self._standing(r) for r in await fetch_all(self.db, f"SELECT * FROM (SELECT *, {self._PENALTY} FROM standings WHERE {where}) s ORDER BY {order} LIMIT ? OFFSET ?", (season_id, min_games, limit, offset))]
        return total, rows

    async def standing(self, season_id: int, player: str) -> StandingRow | None:
        r = await fetch_one(self.db, f"SELECT *, {self._PENALTY} FROM standings WHERE season_id = ? AND player = ?", (season_id, player))
        return self._standing(r) if r else None

    async def player_history(self, season_id: int, player: str) -> list[HistoryRow]:
        """The player's counted games of the season in playing order, with the rating after each.

        CROSS JOIN fixes the join order (SQLite never reorders it): the player's seats from the
        covering index ``game_players_history`` (migration 0003), then each game by its id. Left to
        itself, without ANALYZE statistics, the planner may instead walk every game of the season
        through ``games_season`` and probe the player's seat in each: 25 times slower in a big club."""
        q = (
            "SELECT g.id, g.finished_at, g.source, g.table_id, gp.seat, gp.points, gp.place, gp.result, gp.rating"
            " FROM game_players gp CROSS JOIN games g"
            " WHERE g.id = gp.game_id AND gp.player = ? AND g.season_id = ? AND g.status = 'ok' ORDER BY g.finished_at, g.id"
        )
        return [HistoryRow(*tuple(r)) for r in await fetch_all(self.db, q, (player, season_id))]

    async def find_import(self, guild_id: int | None, sha1: str) -> int | None:
        """The counted game already imported from a file with this SHA-1, if any."""
        q = "SELECT id FROM games WHERE guild_id = ? AND source = 'import' AND status = 'ok' AND CASE WHEN json_valid(data) THEN json_extract(data, '$.sha1') END = ? LIMIT 1"
        try:
            r = await fetch_one(self.db, q, (guild_id, sha1))
        except aiosqlite.OperationalError:  # a hand-edited data column that is not JSON
            return None
        return int(r[0]) if r else None

    async def known_players(self, guild_id: int | None) -> dict[str, str]:
        """Guest keys seen in this club's games, with their names (for linking)."""
        q = "SELECT DISTINCT gp.player, gp.name FROM game_players gp JOIN games g ON g.id = gp.game_id WHERE g.guild_id = ? AND gp.kind = 'guest'"
        return {r[0]: r[1] for r in await fetch_all(self.db, q, (guild_id,))}

    # ---------------------------------------------------------------- play statistics cache

    async def cached_stats(self, game_ids: Sequence[int]) -> dict[tuple[int, int], tuple[int, ...]]:
        """``(game_id, seat) -> (hands, wins, deal_ins, riichi, calls, win_points, deal_in_points)``."""
        out: dict[tuple[int, int], tuple[int, ...]] = {}
        ids = list(game_ids)
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            marks = ", ".join("?" for _ in chunk)
            for r in await fetch_all(self.db, f"SELECT * FROM game_stats WHERE game_id IN ({marks})", chunk):
                out[(r["game_id"], r["seat"])] = (
                    r["hands"],
                    r["wins"],
                    r["deal_ins"],
                    r["riichi"],
                    r["calls"],
                    r["win_points"],
                    r["deal_in_points"],
                )
        return out

    async def put_stats(self, game_id: int, rows: Sequence[tuple[int, ...]]) -> None:
        """Cache one game's per-seat statistics (``rows[seat]`` as in :meth:`cached_stats`)."""
        values = [(game_id, seat, *row) for seat, row in enumerate(rows)]
        await self.write(
            lambda conn: conn.executemany(
                "INSERT INTO game_stats (game_id, seat, hands, wins, deal_ins, riichi, calls, win_points, deal_in_points)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET hands = excluded.hands,"
                " wins = excluded.wins, deal_ins = excluded.deal_ins, riichi = excluded.riichi, calls = excluded.calls,"
                " win_points = excluded.win_points, deal_in_points = excluded.deal_in_points",
                values,
            )
        )

    # ---------------------------------------------------------------- export and checks

    async def season_export(self, season_id: int) -> list[dict[str, Any]]:
        q = (
            "SELECT g.id AS game, g.finished_at, g.source, g.status, g.sticks, gp.seat, gp.player, gp.name, gp.points, gp.place,"
            " gp.result, gp.rating, gp.rating_delta FROM games g JOIN game_players gp ON gp.game_id = g.id"
            " WHERE g.season_id = ? ORDER BY g.finished_at, g.id, gp.seat"
        )
        return [dict(r) for r in await fetch_all(self.db, q, (season_id,))]

# ================================================================ the steps of a write
# Plain ``sqlite3`` functions of the connection a write function is given (``repo.write(fn)``, on
# the writer thread): a write that spans several of them is still one transaction.

_GAME = "SELECT * FROM games WHERE id = ?"
_GAME_PLAYERS = "SELECT * FROM game_players WHERE game_id = ? ORDER BY seat"
_SEASON_GAMES = "SELECT * FROM games WHERE season_id = ? AND status = 'ok' ORDER BY finished_at, id"
_SEASON_PLAYERS = (
    "SELECT gp.* FROM game_players gp JOIN games g ON g.id = gp.game_id"
    " WHERE g.season_id = ? AND g.status = 'ok' ORDER BY gp.game_id, gp.seat"
)


def record_bot_game(conn: sqlite3.Connection, table_id: int, g: dict[str, Any]) -> int:
    """A finished bot table's game and its seats (before the standings' hooks); its id."""
    cur = conn.execute(
        "INSERT INTO games (guild_id, table_id, source, ruleset, finished_at, data) VALUES (?, ?, 'bot', ?, ?, ?) RETURNING id",
        (g["guild_id"], table_id, g["ruleset"], time.time(), json.dumps(g.get("data", {}))),
    )
    gid = int(cur.fetchone()[0])
    conn.executemany(
        "INSERT INTO game_players (game_id, seat, user_id, name, points, place, result) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (gid, p["seat"], p["user_id"], p["name"], p["points"], p["place"], p["result"])
            for p in g["players"]
        ],
    )
    return gid


def game_in(conn: sqlite3.Connection, game_id: int) -> GameRow | None:
    """:meth:`Repository.get_game`, inside a write."""
    r = conn.execute(_GAME, (game_id,)).fetchone()
    if r is None:
        return None
    return GameStore._game(r, [GameStore._line(x) for x in conn.execute(_GAME_PLAYERS, (game_id,))])


def season_games_in(conn: sqlite3.Connection, season_id: int) -> list[GameRow]:
    """:meth:`Repository.season_games`, inside a write."""
    lines = conn.execute(_SEASON_PLAYERS, (season_id,)).fetchall()
    return GameStore._games_of(conn.execute(_SEASON_GAMES, (season_id,)).fetchall(), lines)


def insert_game(conn: sqlite3.Connection, g: GameRow, *, entered_by: int | None = None) -> int:
    cur = conn.execute(
        "INSERT INTO games (guild_id, table_id, source, ruleset, finished_at, data, season_id, status, sticks, entered_by)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (
            g.guild_id,
            g.table_id,
            g.source,
            g.ruleset,
            g.finished_at,
            json.dumps(g.data, ensure_ascii=False),
            g.season_id,
            g.status,
            g.sticks,
            entered_by,
        ),
    )
    gid = int(cur.fetchone()[0])
    put_players(conn, gid, g.players)
    return gid


def put_players(conn: sqlite3.Connection, game_id: int, players: Sequence[PlayerLine]) -> None:
    conn.execute("DELETE FROM game_players WHERE game_id = ?", (game_id,))
    conn.executemany(
        "INSERT INTO game_players (game_id, seat, user_id, name, points, place, result, player, kind, rating, rating_delta, mu, sigma)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game_id,
                p.seat,
                p.user_id,
                p.name,
                p.points,
                p.place,
                p.result,
                p.player,
                p.kind,
                p.rating,
                p.rating_delta,
                p.mu,
                p.sigma,
            )
            for p in players
        ],
    )


def set_game(conn: sqlite3.Connection, game_id: int, **fields: Any) -> None:
    """Set columns of a game's row; each keyword must be one of :data:`GAME_COLUMNS`."""
    sets = _assignments("games", GAME_COLUMNS, fields)
    if "data" in fields:
        fields["data"] = json.dumps(fields["data"], ensure_ascii=False)
    conn.execute(f"UPDATE games SET {sets} WHERE id = ?", (*fields.values(), game_id))


def set_ratings(
    conn: sqlite3.Connection,
    rows: Iterable[tuple[float | None, float | None, float | None, float | None, int, int]],
) -> None:
    """``(rating, rating_delta, mu, sigma, game_id, seat)`` per seat."""
    conn.executemany(
        "UPDATE game_players SET rating = ?, rating_delta = ?, mu = ?, sigma = ? WHERE game_id = ? AND seat = ?",
        list(rows),
    )


def standings_in(conn: sqlite3.Connection, season_id: int, players: Sequence[str]) -> dict[str, StandingRow]:
    """The summary rows of these players in the season, by player key."""
    marks = ", ".join("?" for _ in players)
    cur = conn.execute(
        f"SELECT * FROM standings WHERE season_id = ? AND player IN ({marks})", (season_id, *players)
    )
    return {r["player"]: GameStore._standing(r) for r in cur.fetchall()}


def put_standings(
    conn: sqlite3.Connection, rows: Sequence[StandingRow], *, replace_season: int | None = None
) -> None:
    """Write summary rows (insert or replace); ``replace_season`` first clears that season's rows."""
    if replace_season is not None:
        conn.execute("DELETE FROM standings WHERE season_id = ?", (replace_season,))
    conn.executemany(
        "INSERT INTO standings (season_id, player, user_id, name, kind, games, points_total, result_total, place_total,"
        " p1, p2, p3, p4, rating, mu, sigma) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (season_id, player) DO UPDATE SET user_id = excluded.user_id, name = excluded.name,"
        " kind = excluded.kind, games = excluded.games, points_total = excluded.points_total,"
        " result_total = excluded.result_total, place_total = excluded.place_total, p1 = excluded.p1,"
        " p2 = excluded.p2, p3 = excluded.p3, p4 = excluded.p4, rating = excluded.rating, mu = excluded.mu,"
        " sigma = excluded.sigma",
        [
            (
                s.season_id,
                s.player,
                s.user_id,
                s.name,
                s.kind,
                s.games,
                s.points_total,
                round(s.result_total, 3),
                s.place_total,
                *s.places[:4],
                s.rating,
                s.mu,
                s.sigma,
            )
            for s in rows
        ],
    )


def link_guest(
    conn: sqlite3.Connection, guild_id: int | None, guest: str, user_id: int, name: str
) -> list[int]:
    """Make the guest's rows the member's; returns the seasons touched. Refuses (ValueError) if both
    sat at one game."""
    q = (
        "SELECT gp.game_id FROM game_players gp JOIN games g ON g.id = gp.game_id WHERE g.guild_id = ? AND gp.player = ?"
        " INTERSECT SELECT gp.game_id FROM game_players gp JOIN games g ON g.id = gp.game_id WHERE g.guild_id = ? AND gp.player = ?"
    )
    both = [int(r[0]) for r in conn.execute(q, (guild_id, guest, guild_id, f"u:{user_id}")).fetchall()]
    if both:
        raise ValueError(f"that guest and that member both played game #{both[0]}")
    cur = conn.execute(
        "SELECT DISTINCT g.season_id FROM game_players gp JOIN games g ON g.id = gp.game_id WHERE g.guild_id = ? AND gp.player = ?",
        (guild_id, guest),
    )
    seasons = [int(r[0]) for r in cur.fetchall() if r[0] is not None]
    conn.execute(
        "UPDATE game_players SET player = ?, user_id = ?, kind = 'user', name = ?"
        " WHERE player = ? AND game_id IN (SELECT id FROM games WHERE guild_id = ?)",
        (f"u:{user_id}", user_id, name, guest, guild_id),
    )
    return seasons




# ================================================================ rows as stored (unchecked)
# For the standings' damage answers (bot/standings/damage.py): the rows as they are, whatever is
# wrong with them, so that a damaged season or game can be named rather than skipped.

_CLUB_SEASONS = "SELECT * FROM seasons WHERE guild_id = ? ORDER BY id"
_SEASON = "SELECT * FROM seasons WHERE id = ?"


async def club_season_rows(db: Any, guild_id: int | None) -> list[Any]:
    """A club's ``seasons`` rows in the order they were started."""
    return await fetch_all(db, _CLUB_SEASONS, (guild_id,))


def club_season_rows_in(conn: sqlite3.Connection, guild_id: int | None) -> list[Any]:
    """:func:`club_season_rows` inside a write."""
    return conn.execute(_CLUB_SEASONS, (guild_id,)).fetchall()


async def season_row(db: Any, season_id: int) -> Any:
    """One ``seasons`` row (None if there is none)."""
    return await fetch_one(db, _SEASON, (season_id,))


def season_row_in(conn: sqlite3.Connection, season_id: int) -> Any:
    """:func:`season_row` inside a write."""
    return conn.execute(_SEASON, (season_id,)).fetchone()


async def damaged_standing_keys(db: Any, season_id: int) -> list[tuple[str, str]]:
    """``(player key, name)`` of the season's summary rows (AI seats aside) whose numbers are not
    numbers, are negative or do not add up."""
    q = (
        "SELECT player, name FROM standings WHERE season_id = ? AND kind != 'ai' AND ("
        " typeof(games) != 'integer' OR games < 0 OR typeof(place_total) != 'integer' OR typeof(points_total) != 'integer'"
        " OR typeof(result_total) NOT IN ('integer', 'real') OR typeof(rating) NOT IN ('integer', 'real')"
        " OR typeof(p1) != 'integer' OR typeof(p2) != 'integer' OR typeof(p3) != 'integer' OR typeof(p4) != 'integer'"
        " OR p1 < 0 OR p2 < 0 OR p3 < 0 OR p4 < 0 OR p1 + p2 + p3 + p4 != games)"
    )
    return [(str(r[0]), str(r[1])) for r in await fetch_all(db, q, (season_id,))]


async def unvoided_game_rows(db: Any, season_id: int) -> tuple[list[Any], list[Any]]:
    """The season's ``games`` rows that are not void, and their ``game_players`` rows."""
    seats = await fetch_all(
        db,
        "SELECT gp.* FROM game_players gp JOIN games g ON g.id = gp.game_id"
        " WHERE g.season_id = ? AND COALESCE(g.status, '') != 'void'",
        (season_id,),
    )
    games = await fetch_all(db, "SELECT * FROM games WHERE season_id = ? AND COALESCE(status, '') != 'void'", (season_id,))
    return games, seats


async def game_header(db: Any, game_id: int) -> tuple[Any, Any, Any] | None:
    """``(guild_id, season_id, status)`` of a game as stored."""
    r = await fetch_one(db, "SELECT guild_id, season_id, status FROM games WHERE id = ?", (game_id,))
    return (r[0], r[1], r[2]) if r is not None else None

"""All SQL of the bot, over two long-lived connections to one SQLite file (WAL, foreign keys on).

Every write is one plain function of a ``sqlite3.Connection`` run by the one writer
(:mod:`bot.storage.writer`: one thread, one ``BEGIN IMMEDIATE`` transaction per function); the
functions that make up a write (``insert_game``, ``put_players``, ``audit``, …) are the module's
``sqlite3`` functions below, and a column named by a caller (``set_table(thread_id=…)``) must be one
of that table's allowed columns, else :class:`UnknownColumn` is raised before any SQL is built.
Reads go through an aiosqlite connection of their own, which sees the last committed state (never
a write half done). Migrations in
``migrations/NNNN_*.sql`` are applied in order in one write at start-up and recorded in
``schema_version``. Readers check every column of the rows they read against the
column rules below (SQLite lets a hand edit put any value in any column) and raise or skip a
corrupted row with a line naming it, so one hand-edited row never takes the bot down;
:meth:`Repository.check` lists every such row in one pass. A transaction that fails (a read-only
file, a full disk) is rolled back whole and its error raised to the caller.
"""

from __future__ import annotations

import json
import logging
import math
import re
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.storage import postgres
from bot.storage.reads import ReadDB, fetch_all, fetch_one
from bot.storage.writer import Writer

log = logging.getLogger(__name__)

T = TypeVar("T")

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


class CorruptRow(ValueError):
    """A stored row a reader cannot use; ``str()`` is one line naming the row and what is wrong.

    ``table_id`` is the game table the row belongs to (when that can be told), so the table
    service can pause that table alone and name it."""

    def __init__(
        self, table: str, row_id: object, why: str, *, table_id: int | None = None, columns: bool = False
    ) -> None:
        super().__init__(f"{table} row {row_id}: {why}")
        self.table = table
        self.row_id = row_id
        self.why = why
        self.table_id = table_id
        self.columns = columns  # a column out of its type or range (``check()`` lists those row by row)


class UnknownColumn(ValueError):
    """A write named a column that is not one of the table's allowed columns (raised before any SQL
    is built, so nothing is written)."""


# ---------------------------------------------------------------- column rules
# SQLite keeps any value in any column (a hand edit can put 'abc' in an INTEGER column), so every
# reader of the table rows checks each column against what the bot writes there.

Rule = tuple[Callable[[Any], bool], str]


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _num(v: Any) -> bool:
    return (isinstance(v, int | float) and not isinstance(v, bool)) and math.isfinite(v)


def _integer(lo: int | None = None, hi: int | None = None, *, null: bool = False) -> Rule:
    def ok(v: Any) -> bool:
        if v is None:
            return null
        return _int(v) and (lo is None or v >= lo) and (hi is None or v <= hi)

    rng = "" if lo is None else (f" from {lo} to {hi}" if hi is not None else f" of at least {lo}")
    return ok, f"a whole number{rng}" + (" or empty" if null else "")


def _number(lo: float | None = None, *, null: bool = False) -> Rule:
    def ok(v: Any) -> bool:
        if v is None:
            return null
        return _num(v) and (lo is None or v >= lo)

    return ok, ("a number" if lo is None else f"a number of at least {lo:g}") + (" or empty" if null else "")


def _text(*, null: bool = False, nonempty: bool = False) -> Rule:
    def ok(v: Any) -> bool:
        if v is None:
            return null
        return isinstance(v, str) and (bool(v.strip()) or not nonempty)

    return ok, "text" + (" or empty" if null else "")


def _one_of(*values: str) -> Rule:
    return (lambda v: v in values), "one of " + ", ".join(values)


def _json_object(v: Any) -> bool:
    if v is None:
        return True
    if not isinstance(v, str):
        return False
    try:
        return isinstance(json.loads(v), dict)
    except ValueError:
        return False


_ID = _integer()
_ID_OR_NULL = _integer(null=True)
_FLAG = _integer(0, 1)
TABLE_RULES: dict[str, Rule] = {
    "id": _ID,
    "guild_id": _ID_OR_NULL,
    "channel_id": _ID,
    "thread_id": _ID_OR_NULL,
    "opener_id": _ID,
    "ruleset": _text(nonempty=True),
    "options": (_json_object, "a JSON object"),
    "seed": _text(nonempty=True),
    "mode": _one_of("live", "async"),
    "turn_seconds": _integer(1),
    "bank_seconds": _integer(0),
    "async_hours": _integer(1),
    "on_expiry": _one_of("auto", "wait"),
    "status": _one_of("open", "playing", "finished", "abandoned"),
    "message_id": _ID_OR_NULL,
    "created_at": _number(),
    "finished_at": _number(null=True),
    # schema version 4 and 5 (checked where the file has them)
    "results_posted": _integer(0),
    "final_posted": _FLAG,
    "pings": _FLAG,
    "call_seconds": _integer(1),
    "commitment": _text(null=True),
    # schema version 7: the house-rule profile the table was opened with (display only)
    "house": _text(null=True),
}
SEAT_RULES: dict[str, Rule] = {
    "table_id": _ID,
    "seat": _integer(0, 3),
    "user_id": _ID_OR_NULL,
    "ai": _text(null=True, nonempty=True),
    "name": _text(),
    "dm_closed": _FLAG,
    "auto_win": _FLAG,
    "auto_pass": _FLAG,
    "auto_tsumogiri": _FLAG,
    "bank_left": _number(0, null=True),
    "hand_message_id": _ID_OR_NULL,
    "confirm_discard": _FLAG,
    "show_waits": _FLAG,
}
ACTION_RULES: dict[str, Rule] = {
    "table_id": _ID,
    "serial": _integer(0),
    "action": _text(nonempty=True),
    "user_id": _ID_OR_NULL,
    "created_at": _number(),
}
TIMER_RULES: dict[str, Rule] = {
    "table_id": _ID,
    "serial": _integer(0),
    "due": _number(),
    "prompt_at": _number(),
    "reminded": _FLAG,
}
GAME_RULES: dict[str, Rule] = {
    "id": _ID,
    "guild_id": _ID_OR_NULL,
    "table_id": _ID_OR_NULL,
    "source": _one_of("bot", "manual", "import"),
    "ruleset": _text(nonempty=True),
    "finished_at": _number(),
    "data": (_json_object, "a JSON object"),
    "season_id": _ID_OR_NULL,
    "status": _one_of("ok", "void"),
    "sticks": _integer(0),
    "entered_by": _ID_OR_NULL,
}
HOUSE_RULES: dict[str, Rule] = {
    "id": _ID,
    "guild_id": _ID,
    "name": _text(nonempty=True),
    "base": _text(nonempty=True),
    "options": (_json_object, "a JSON object"),
    "created_by": _ID_OR_NULL,
    "created_at": _number(),
    "updated_at": _number(),
}
#: the tile styles a club or a player may choose (bot.render.tiles.STYLES; storage does not import
#: the renderer, a test keeps the two the same)
TILE_STYLES = ("faces", "letters")
_STYLE_OR_NULL: Rule = (lambda v: v is None or v in TILE_STYLES), "one of " + ", ".join(TILE_STYLES) + " or empty"
CLUB_RULES: dict[str, Rule] = {
    "guild_id": _ID,
    "default_house": _ID_OR_NULL,
    "tile_style": _STYLE_OR_NULL,
    "language": (lambda v: v is None or v in ("ja", "en"), "ja, en or empty"),
}
TILE_STYLE_RULES: dict[str, Rule] = {"guild_id": _ID, "user_id": _ID, "style": _one_of(*TILE_STYLES)}
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
TABLE_COLUMNS = frozenset(TABLE_RULES) - {"id"}
SEAT_COLUMNS = frozenset(SEAT_RULES) - {"table_id", "seat"}
GAME_COLUMNS = frozenset(GAME_RULES) - {"id"}
HOUSE_COLUMNS = frozenset(HOUSE_RULES) - {"id", "guild_id"}


def _checked(table: str, allowed: frozenset[str], fields: Mapping[str, Any]) -> list[str]:
    """The column names of ``fields``, every one of them allowed for ``table`` (else :class:`UnknownColumn`)."""
    unknown = sorted(k for k in fields if k not in allowed)
    if unknown:
        raise UnknownColumn(f"{table} has no column {', '.join(map(repr, unknown))} that a write may set")
    return list(fields)


def _assignments(table: str, allowed: frozenset[str], fields: Mapping[str, Any]) -> str:
    """``"a = ?, b = ?"`` for an UPDATE of allowed columns (:class:`UnknownColumn` otherwise)."""
    return ", ".join(f"{k} = ?" for k in _checked(table, allowed, fields))


def _shown(v: Any) -> str:
    if isinstance(v, bytes):
        return f"binary data ({len(v)} bytes)"
    if v is None:
        return "empty"
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def bad_columns(r: Any, rules: dict[str, Rule]) -> str | None:
    """What is wrong with a row's columns (``"its mode is 'x', not one of live, async"``), or None."""
    keys = set(r.keys())
    wrong = [
        f"its {col} is {_shown(r[col])}, not {desc}"
        for col, (ok, desc) in rules.items()
        if col in keys and not ok(r[col])
    ]
    return "; ".join(wrong) or None


@dataclass(slots=True)
class SeatRow:
    seat: int
    user_id: int | None
    ai: str | None
    name: str
    dm_closed: bool = False
    auto_win: bool = False
    auto_pass: bool = False
    auto_tsumogiri: bool = False
    bank_left: float | None = None
    hand_message_id: int | None = None
    confirm_discard: bool = False  # two-tap discards (/table auto what:confirm-discard)
    show_waits: bool = False  # the waits line under a tenpai hand (/table auto what:waits)


@dataclass(slots=True)
class TableRow:
    id: int
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    opener_id: int
    ruleset: str
    options: dict[str, Any]
    seed: str
    mode: str
    turn_seconds: int
    bank_seconds: int
    async_hours: int
    on_expiry: str
    status: str
    message_id: int | None
    created_at: float
    seats: list[SeatRow] = field(default_factory=list)
    results_posted: int = 0  # hand results posted in the channel
    final_posted: bool = False
    pings: bool = False  # each decision reaches its player as a new message
    call_seconds: int = 3600  # an async table's call offer waits this long
    commitment: str | None = None  # fairness: written at /table start (migration 0005)
    house: str | None = None  # the house-rule profile it was opened with, for display (migration 0007)


@dataclass(slots=True)
class TimerRow:
    table_id: int
    serial: int
    due: float
    prompt_at: float
    reminded: bool


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
    source: str  # bot | manual | import
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


@dataclass(slots=True)
class HouseRow:
    """A club's house-rule profile as stored: its base ruleset's name and the options it changes
    (``Ruleset.options_dict()``); the house service turns it into a ruleset."""

    id: int
    guild_id: int
    name: str
    base: str
    options: dict[str, Any]
    created_by: int | None
    created_at: float
    updated_at: float

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "base": self.base, "options": self.options}


@dataclass(slots=True)
class AuditRow:
    id: int
    guild_id: int | None
    season_id: int | None
    game_id: int | None
    actor_id: int | None
    action: str
    at: float
    before: Any
    after: Any


def _put_seats(conn: sqlite3.Connection, table_id: int, seats: Sequence[SeatRow]) -> None:
    """A write step: the table's seats become ``seats``."""
    conn.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
    conn.executemany(
        "INSERT INTO seats (table_id, seat, user_id, ai, name, dm_closed, auto_win, auto_pass, auto_tsumogiri,"
        " bank_left, hand_message_id, confirm_discard, show_waits) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                table_id,
                s.seat,
                s.user_id,
                s.ai,
                s.name,
                int(s.dm_closed),
                int(s.auto_win),
                int(s.auto_pass),
                int(s.auto_tsumogiri),
                s.bank_left,
                s.hand_message_id,
                int(s.confirm_discard),
                int(s.show_waits),
            )
            for s in seats
        ],
    )


class Repository:
    def __init__(self, path: str | Path) -> None:
        """``path``: a SQLite file, or a ``postgresql://`` URL (:mod:`bot.storage.postgres`)."""
        self.path = str(path)
        #: ``"postgres"`` for a server URL, else ``"sqlite"``
        self.backend = "postgres" if postgres.is_url(path) else "sqlite"
        self._db: ReadDB | None = None
        self._writer: Writer | postgres.PgWriter | None = None
        #: run inside the write that records a finished bot game, on the writer thread (the
        #: standings attach the season and the ratings there): ``hook(conn, game_id, game_dict)``
        self.game_recorders: list[Callable[[sqlite3.Connection, int, dict[str, Any]], None]] = []

    @property
    def db(self) -> ReadDB:
        """What reads go through (:mod:`bot.storage.reads`): the aiosqlite connection, or the
        PostgreSQL read pool (writes go through :meth:`write`)."""
        if self._db is None:
            raise RuntimeError("the database is not open")
        return self._db

    async def open(self) -> None:
        if self.backend == "postgres":
            try:
                self._db = await postgres.PgReads.open(self.path)
                self._writer = await postgres.PgWriter.open(self.path)
                await self.migrate()
            except BaseException:
                await self.close()
                raise
            return
        if self.path == ":memory:":
            raise ValueError("the bot's database is a file: reads and the writer each open it")
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(self.path)
        try:
            self._db.row_factory = aiosqlite.Row
            for pragma in ("journal_mode=WAL", "foreign_keys=ON", "synchronous=NORMAL", "busy_timeout=5000"):
                await self._read_pragma(pragma)  # WAL is kept in the file: the writer's connection too
            self._writer = await Writer.open(self.path)
            await self.migrate()
        except BaseException:
            # not a database, or one we cannot migrate: close it, or its threads keep the process alive
            await self.close()
            raise

    async def _read_pragma(self, statement: str) -> None:
        # read to its end and closed: a statement left open would hold the read connection's
        # snapshot, and every later read would miss what the writer committed since
        await fetch_all(self.db, f"PRAGMA {statement}")

    async def pragma(self, statement: str) -> None:
        """Set a per-connection PRAGMA (``query_only = ON``) on the read and the write connection.
        On PostgreSQL only ``query_only`` has a meaning: the writer's transactions become read-only."""
        if self.backend == "postgres":
            key, _, value = (x.strip().lower() for x in statement.partition("="))
            if key != "query_only" or self._writer is None:
                raise ValueError(f"PRAGMA {statement} has no PostgreSQL equivalent")
            flag = "on" if value in ("on", "1", "true") else "off"
            await self._writer.call(lambda conn: conn.execute(f"SET default_transaction_read_only = {flag}"))
            return
        await self._read_pragma(statement)
        if self._writer is None:
            raise RuntimeError("the database is not open")
        await self._writer.call(lambda conn: conn.execute(f"PRAGMA {statement}").fetchall())

    async def close(self) -> None:
        if self._writer is not None:
            await self._writer.close()
            self._writer = None
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn(conn)`` as one write: one ``BEGIN IMMEDIATE … COMMIT`` transaction on the writer
        thread (ROLLBACK and the error raised here if it fails). ``fn`` is plain ``sqlite3`` (on
        PostgreSQL: the same calls on :class:`bot.storage.postgres.PgConnection`): no
        coroutines, nothing that touches the event loop. One trip to the thread per write, however
        many statements: at 200 busy tables a trip per statement capped the bot at ~50 moves/s."""
        if self._writer is None:
            raise RuntimeError("the database is not open")
        return await self._writer.run(fn)

    # ---------------------------------------------------------------- migrations

    async def schema_version(self) -> int:
        try:
            row = await fetch_one(self.db, "SELECT MAX(version) FROM schema_version")
        except sqlite3.OperationalError:  # a new file: no table yet
            return 0
        return int(row[0]) if row and row[0] is not None else 0

    async def migrate(self) -> int:
        return await self.migrate_to_version(None)

    async def migrate_to_version(self, last: int | None) -> int:
        """Apply the migrations not applied yet, up to ``last`` (None: all), in one write. On
        PostgreSQL each statement is :func:`bot.storage.postgres.ddl` of the same file, after
        :data:`bot.storage.postgres.FUNCTIONS`."""
        files = sorted(MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.sql"))
        pg = self.backend == "postgres"
        scripts = [
            (int(f.name[:4]), f.name, [postgres.ddl(x) if pg else x for x in _statements(f.read_text())])
            for f in files
            if last is None or int(f.name[:4]) <= last
        ]
        version_table = "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"

        def apply(conn: sqlite3.Connection) -> tuple[int, list[str]]:
            if pg:
                for fn in postgres.FUNCTIONS:
                    conn.execute(fn)
            conn.execute(postgres.ddl(version_table) if pg else version_table)
            row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
            current = int(row[0]) if row and row[0] is not None else 0
            applied = []
            for version, name, statements in scripts:
                if version <= current:
                    continue
                for stmt in statements:
                    conn.execute(stmt)
                conn.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
                current = version
                applied.append(name)
            return current, applied

        version, applied = await self.write(apply)
        for name in applied:
            log.info("applied migration %s", name)
        return version

    # ---------------------------------------------------------------- tables and seats

    async def create_table(self, seats: Sequence[SeatRow] = (), **fields: Any) -> int:
        """A new table row (each keyword one of :data:`TABLE_COLUMNS`) and its first seats, in one
        write: a table is never stored without the seat of the player who opened it."""
        fields = dict(fields)
        fields["options"] = json.dumps(fields.get("options") or {})
        fields["created_at"] = time.time()
        cols = _checked("tables", TABLE_COLUMNS, fields)
        sql = f"INSERT INTO tables ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)}) RETURNING id"
        values = tuple(fields.values())

        def create(conn: sqlite3.Connection) -> int:
            tid = int(conn.execute(sql, values).fetchone()[0])
            _put_seats(conn, tid, seats)
            return tid

        return await self.write(create)

    async def set_table(self, table_id: int, **fields: Any) -> None:
        """Set columns of a table's row; each keyword must be one of :data:`TABLE_COLUMNS`."""
        sets = _assignments("tables", TABLE_COLUMNS, fields)
        if "options" in fields:
            fields["options"] = json.dumps(fields["options"])
        values = (*fields.values(), table_id)
        await self.write(lambda conn: conn.execute(f"UPDATE tables SET {sets} WHERE id = ?", values))

    async def put_seats(self, table_id: int, seats: list[SeatRow]) -> None:
        """Replace a table's seats, in one write."""
        await self.write(lambda conn: _put_seats(conn, table_id, seats))

    async def set_seat(self, table_id: int, seat: int, **fields: Any) -> None:
        """Set columns of one seat's row; each keyword must be one of :data:`SEAT_COLUMNS`."""
        sets = _assignments("seats", SEAT_COLUMNS, fields)
        values = (*(int(v) if isinstance(v, bool) else v for v in fields.values()), table_id, seat)
        await self.write(
            lambda conn: conn.execute(f"UPDATE seats SET {sets} WHERE table_id = ? AND seat = ?", values)
        )

    def _table(self, r: aiosqlite.Row) -> TableRow:
        """A ``tables`` row, every column checked (:class:`CorruptRow` names what is wrong)."""
        try:
            options = json.loads(r["options"] or "{}")
            if not isinstance(options, dict):
                raise ValueError("options is not an object")
        except (ValueError, TypeError) as e:
            raise CorruptRow("tables", r["id"], f"bad options JSON ({e})", table_id=r["id"]) from None
        why = bad_columns(r, TABLE_RULES)
        if why:
            raise CorruptRow("tables", r["id"], why, table_id=r["id"])
        return TableRow(
            id=r["id"],
            guild_id=r["guild_id"],
            channel_id=r["channel_id"],
            thread_id=r["thread_id"],
            opener_id=r["opener_id"],
            ruleset=r["ruleset"],
            options=options,
            seed=r["seed"],
            mode=r["mode"],
            turn_seconds=r["turn_seconds"],
            bank_seconds=r["bank_seconds"],
            async_hours=r["async_hours"],
            on_expiry=r["on_expiry"],
            status=r["status"],
            message_id=r["message_id"],
            created_at=r["created_at"],
            results_posted=int(r["results_posted"]),
            final_posted=bool(r["final_posted"]),
            pings=bool(r["pings"]),
            call_seconds=int(r["call_seconds"]),
            commitment=r["commitment"],
            house=r["house"],
        )

    async def get_table(self, table_id: int) -> TableRow | None:
        """The table and its seats; raises :class:`CorruptRow` if a row of it is damaged."""
        r = await fetch_one(self.db, "SELECT * FROM tables WHERE id = ?", (table_id,))
        if r is None:
            return None
        t = self._table(r)
        t.seats = await self.get_seats(table_id)
        return t

    async def get_seats(self, table_id: int) -> list[SeatRow]:
        """The table's seats in order; raises :class:`CorruptRow` for a damaged seat row or a gap."""
        rows = await fetch_all(self.db, "SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))
        for r in rows:
            why = bad_columns(r, SEAT_RULES)
            if why is None and r["user_id"] is None and r["ai"] is None:
                why = "it has neither a player nor an AI"
            if why:
                raise CorruptRow(
                    "seats", f"(table {table_id}, seat {_shown(r['seat'])})", why, table_id=table_id
                )
        for i, r in enumerate(rows):
            if r["seat"] != i:
                raise CorruptRow(
                    "seats",
                    f"(table {table_id}, seat {i})",
                    f"seat {i} is missing before seat {r['seat']}",
                    table_id=table_id,
                )
        return [
            SeatRow(
                r["seat"],
                r["user_id"],
                r["ai"],
                r["name"],
                bool(r["dm_closed"]),
                bool(r["auto_win"]),
                bool(r["auto_pass"]),
                bool(r["auto_tsumogiri"]),
                r["bank_left"],
                r["hand_message_id"],
                bool(r["confirm_discard"]),
                bool(r["show_waits"]),
            )
            for r in rows
        ]

    async def tables_with_status(
        self,
        *statuses: str,
        channel_id: int | None = None,
        skipped: list[CorruptRow] | None = None,
        unposted: bool = False,
    ) -> list[TableRow]:
        """Tables in one of ``statuses`` (in a channel or its thread); a damaged table is logged,
        left out, and added to ``skipped`` when given. ``unposted``: only tables whose final
        standings are not posted yet."""
        q = f"SELECT * FROM tables WHERE status IN ({', '.join('?' for _ in statuses)})"
        if unposted:
            q += " AND final_posted = 0"
        args: list[Any] = list(statuses)
        if channel_id is not None:
            q += " AND (channel_id = ? OR thread_id = ?)"
            args += [channel_id, channel_id]
        rows = await fetch_all(self.db, q + " ORDER BY id", args)
        return await self._readable_tables(rows, skipped)

    async def tables_to_restore(self, skipped: list[CorruptRow]) -> list[TableRow]:
        """Every table that is not closed, or whose final standings are still owed (start-up);
        damaged ones, including a status that is no status at all, go to ``skipped``."""
        # a finished table whose final standings are not posted yet is restored too (it is owed them)
        rows = await fetch_all(self.db, "SELECT * FROM tables WHERE status NOT IN ('finished', 'abandoned') OR (status = 'finished' AND final_posted = 0) ORDER BY id")
        return await self._readable_tables(rows, skipped)

    async def _readable_tables(
        self, rows: Iterable[aiosqlite.Row], skipped: list[CorruptRow] | None
    ) -> list[TableRow]:
        out = []
        for r in rows:
            try:
                t = self._table(r)
                t.seats = await self.get_seats(t.id)
            except CorruptRow as e:
                log.error("skipping %s", e)
                if skipped is not None:
                    skipped.append(e)
                continue
            out.append(t)
        return out

    async def guild_of(self, table_id: int) -> int | None:
        """A table's server, read on its own (a damaged row's other columns do not matter); None
        when the table or its server id is missing or unreadable."""
        row = await fetch_one(self.db, "SELECT guild_id FROM tables WHERE id = ?", (table_id,))
        return row[0] if row is not None and isinstance(row[0], int) else None

    async def channel_of(self, table_id: int) -> int | None:
        """The channel (or thread) a table plays in, read without the rest of its row: a damaged
        table can still be named where it is."""
        r = await fetch_one(self.db, "SELECT channel_id, thread_id FROM tables WHERE id = ?", (table_id,))
        if r is None:
            return None
        return next((v for v in (r["thread_id"], r["channel_id"]) if _int(v)), None)

    # ---------------------------------------------------------------- the action log

    async def actions(self, table_id: int) -> list[tuple[int, str]]:
        """The table's action log as ``(serial, text)``; raises :class:`CorruptRow` for a damaged
        row or a serial out of sequence (the text itself is checked by replaying it)."""
        rows = await fetch_all(self.db, "SELECT * FROM actions WHERE table_id = ? ORDER BY serial", (table_id,))
        for r in rows:
            why = bad_columns(r, ACTION_RULES)
            if why:
                raise CorruptRow(
                    "actions", f"(table {table_id}, serial {_shown(r['serial'])})", why, table_id=table_id
                )
        for i, r in enumerate(rows):
            if r["serial"] != i:
                raise CorruptRow(
                    "actions",
                    f"(table {table_id}, serial {i})",
                    f"move {i} is missing before move {r['serial']}",
                    table_id=table_id,
                )
        return [(int(r["serial"]), str(r["action"])) for r in rows]

    async def append_actions(
        self,
        table_id: int,
        first_serial: int,
        actions: list[tuple[str, int | None]],
        *,
        timer: tuple[int, float, float] | None = None,
        clear_timer: bool = False,
        table_fields: dict[str, Any] | None = None,
        finished_game: dict[str, Any] | None = None,
    ) -> None:
        """Append accepted actions, re-arm or clear the table's timer, update the table row and,
        at the end of a game, record it for the standings (:attr:`game_recorders`) — one write."""
        now = time.time()
        rows = [(table_id, first_serial + i, text, user, now) for i, (text, user) in enumerate(actions)]
        fields = dict(table_fields or {})
        sets = _assignments("tables", TABLE_COLUMNS, fields) if fields else ""

        def write(conn: sqlite3.Connection) -> None:
            if rows:
                conn.executemany(
                    "INSERT INTO actions (table_id, serial, action, user_id, created_at) VALUES (?, ?, ?, ?, ?)",
                    rows,
                )
            if clear_timer or timer is not None:
                conn.execute("DELETE FROM timers WHERE table_id = ?", (table_id,))
            if timer is not None:
                serial, due, prompt_at = timer
                conn.execute(
                    "INSERT INTO timers (table_id, serial, due, prompt_at) VALUES (?, ?, ?, ?)",
                    (table_id, serial, due, prompt_at),
                )
            if sets:
                conn.execute(f"UPDATE tables SET {sets} WHERE id = ?", (*fields.values(), table_id))
            if finished_game is not None:
                gid = record_bot_game(conn, table_id, finished_game)
                for hook in self.game_recorders:
                    hook(conn, gid, finished_game)

        await self.write(write)

    # ---------------------------------------------------------------- timers

    async def timers(self) -> list[TimerRow]:
        rows = await fetch_all(self.db, "SELECT * FROM timers ORDER BY due")
        return [
            TimerRow(r["table_id"], r["serial"], r["due"], r["prompt_at"], bool(r["reminded"])) for r in rows
        ]

    # a timer the dispatcher can act on; a damaged one is left for ``db check`` (TableService names it)
    _GOOD_TIMER = (
        "typeof(table_id) = 'integer' AND typeof(serial) = 'integer' AND typeof(due) IN ('integer', 'real')"
        " AND typeof(prompt_at) IN ('integer', 'real') AND reminded IN (0, 1)"
    )

    async def next_timer(self, skip: Iterable[int] = ()) -> TimerRow | None:
        """The earliest usable timer, leaving out the tables in ``skip`` (paused or retrying)."""
        left_out = sorted(skip)
        q = f"SELECT * FROM timers WHERE {self._GOOD_TIMER}"
        if left_out:
            q += f" AND table_id NOT IN ({', '.join('?' for _ in left_out)})"
        r = await fetch_one(self.db, q + " ORDER BY due LIMIT 1", left_out)
        return (
            TimerRow(r["table_id"], r["serial"], r["due"], r["prompt_at"], bool(r["reminded"])) if r else None
        )

    async def timer(self, table_id: int) -> TimerRow | None:
        """The table's timer; raises :class:`CorruptRow` if its row is damaged."""
        r = await fetch_one(self.db, "SELECT * FROM timers WHERE table_id = ?", (table_id,))
        if r is None:
            return None
        why = bad_columns(r, TIMER_RULES)
        if why:
            raise CorruptRow("timers", f"(table {table_id})", why, table_id=table_id)
        return TimerRow(r["table_id"], r["serial"], r["due"], r["prompt_at"], bool(r["reminded"]))

    async def set_timer(self, table_id: int, serial: int, due: float, prompt_at: float) -> None:
        def put(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM timers WHERE table_id = ?", (table_id,))
            conn.execute(
                "INSERT INTO timers (table_id, serial, due, prompt_at) VALUES (?, ?, ?, ?)",
                (table_id, serial, due, prompt_at),
            )

        await self.write(put)

    async def clear_timer(self, table_id: int) -> None:
        await self.write(lambda conn: conn.execute("DELETE FROM timers WHERE table_id = ?", (table_id,)))

    async def mark_reminded(self, table_id: int) -> None:
        await self.write(
            lambda conn: conn.execute("UPDATE timers SET reminded = 1 WHERE table_id = ?", (table_id,))
        )

    # ---------------------------------------------------------------- maintenance

    async def check(self) -> list[str]:
        """Every stored row a reader would have to skip, one line each, in one pass that never
        stops at a bad row: a column out of its range or type, bad JSON, action text that does not
        parse, a row whose table or game is gone. (Replaying each table's log through the engine
        is :meth:`bot.tables.TableService.check_logs`.)"""
        from engine.table.actions import Action

        problems: list[str] = []

        async def rows(sql: str) -> list[aiosqlite.Row]:
            try:
                return await fetch_all(self.db, sql)
            except sqlite3.Error as e:
                problems.append(f"{sql.split(' FROM ')[1].split()[0]}: could not be read ({e})")
                return []

        def each(
            found: list[aiosqlite.Row],
            name: str,
            key: Callable[[aiosqlite.Row], str],
            test: Callable[[aiosqlite.Row], str | None],
        ) -> None:
            for r in found:
                try:
                    why = test(r)
                except Exception as e:  # a check must list the row, never stop at it
                    why = f"it could not be checked ({type(e).__name__}: {e})"
                if why:
                    problems.append(f"{name} row {key(r)}: {why}")

        tables = await rows("SELECT * FROM tables ORDER BY id")
        table_ids = {r["id"] for r in tables}

        def table_test(r: aiosqlite.Row) -> str | None:
            try:
                self._table(r)
            except CorruptRow as e:
                return e.why
            return None

        each(tables, "tables", lambda r: str(r["id"]), table_test)

        def owned(
            kind: str, rules: dict[str, Rule], extra: Callable[[aiosqlite.Row], str | None] | None = None
        ) -> Callable[[aiosqlite.Row], str | None]:
            def test(r: aiosqlite.Row) -> str | None:
                whys = (
                    [f"its table #{_shown(r['table_id'])} does not exist"]
                    if r["table_id"] not in table_ids
                    else []
                )
                whys.append(bad_columns(r, rules) or "")
                if not whys[-1] and extra is not None:
                    whys.append(extra(r) or "")
                return "; ".join(w for w in whys if w) or None

            return test

        seats = await rows("SELECT * FROM seats ORDER BY table_id, seat")
        each(
            seats,
            "seats",
            lambda r: f"(table {_shown(r['table_id'])}, seat {_shown(r['seat'])})",
            owned(
                "seats",
                SEAT_RULES,
                lambda r: (
                    "it has neither a player nor an AI" if r["user_id"] is None and r["ai"] is None else None
                ),
            ),
        )
        by_table: dict[Any, list[Any]] = {}
        for r in seats:
            by_table.setdefault(r["table_id"], []).append(r["seat"])
        for tid, numbers in by_table.items():
            if (
                tid in table_ids
                and all(_int(n) for n in numbers)
                and sorted(numbers) != list(range(len(numbers)))
            ):
                problems.append(
                    f"seats of table {tid}: the seats are {sorted(numbers)}, not 0 to {len(numbers) - 1}"
                )

        def action_text(r: aiosqlite.Row) -> str | None:
            try:
                Action.parse(r["action"])
            except ValueError as e:
                return f"its action {_shown(r['action'])} does not parse ({e})"
            return None

        actions = await rows("SELECT * FROM actions ORDER BY table_id, serial")
        each(
            actions,
            "actions",
            lambda r: f"(table {_shown(r['table_id'])}, serial {_shown(r['serial'])})",
            owned("actions", ACTION_RULES, action_text),
        )
        serials: dict[Any, list[Any]] = {}
        for r in actions:
            serials.setdefault(r["table_id"], []).append(r["serial"])
        for tid, numbers in serials.items():
            ints = sorted(n for n in numbers if _int(n))
            gap = next((i for i, n in enumerate(ints) if n != i), None)
            if tid in table_ids and gap is not None:
                problems.append(
                    f"actions of table {tid}: move {gap} is missing, so the moves after it cannot be replayed"
                )

        timers = await rows("SELECT * FROM timers ORDER BY table_id")
        each(timers, "timers", lambda r: f"(table {_shown(r['table_id'])})", owned("timers", TIMER_RULES))

        games = await rows("SELECT * FROM games ORDER BY id")
        game_ids = {r["id"] for r in games}

        def game_test(r: aiosqlite.Row) -> str | None:
            why = bad_columns(r, GAME_RULES)
            if why is None and r["table_id"] is not None and r["table_id"] not in table_ids:
                why = f"its table #{r['table_id']} does not exist"
            return why

        each(games, "games", lambda r: str(r["id"]), game_test)
        recorded = {r["table_id"] for r in games}
        for r in tables:
            if r["status"] == "finished" and r["id"] not in recorded:
                problems.append(
                    f"tables row {r['id']}: the table is finished but no games row records its game"
                )

        def player_test(r: aiosqlite.Row) -> str | None:
            whys = (
                [f"its game #{_shown(r['game_id'])} does not exist (deleted while its players remain)"]
                if r["game_id"] not in game_ids
                else []
            )
            whys.append(bad_columns(r, PLAYER_RULES) or "")
            return "; ".join(w for w in whys if w) or None

        players = await rows("SELECT * FROM game_players ORDER BY game_id, seat")
        each(
            players,
            "game_players",
            lambda r: f"(game {_shown(r['game_id'])}, seat {_shown(r['seat'])})",
            player_test,
        )
        houses = await rows("SELECT * FROM house_rules ORDER BY id")
        house_ids = {r["id"] for r in houses}
        each(houses, "house_rules", lambda r: str(r["id"]), lambda r: bad_columns(r, HOUSE_RULES))

        def club_test(r: aiosqlite.Row) -> str | None:
            why = bad_columns(r, CLUB_RULES)
            if why is None and r["default_house"] is not None and r["default_house"] not in house_ids:
                why = f"its default profile #{r['default_house']} does not exist"
            return why

        each(
            await rows("SELECT * FROM club_settings ORDER BY guild_id"),
            "club_settings",
            lambda r: _shown(r["guild_id"]),
            club_test,
        )
        from bot.storage import leagues  # the league rows (schema version 9); imports this module

        try:
            problems += await leagues.check(self.db)
        except Exception as e:  # listed, never fatal
            problems.append(f"the leagues could not be checked ({type(e).__name__}: {e})")
        each(
            await rows("SELECT * FROM tile_styles ORDER BY guild_id, user_id"),
            "tile_styles",
            lambda r: f"(server {_shown(r['guild_id'])}, user {_shown(r['user_id'])})",
            lambda r: bad_columns(r, TILE_STYLE_RULES),
        )
        try:
            problems += await self.check_standings()
        except Exception as e:  # the standings' own checks: listed, never fatal
            problems.append(f"the standings could not be checked ({type(e).__name__}: {e})")
        return problems

    async def backup(self, dest: str | Path) -> None:
        """Online backup through SQLite's backup API (safe while the bot runs). On PostgreSQL:
        ``pg_dump --format=custom`` of the database to ``dest`` (one consistent snapshot, taken
        while the bot runs; ``pg_restore`` reads it back); without pg_dump on the PATH it says so."""
        if self.backend == "postgres":
            await postgres.dump(self.path, str(dest))
            return
        target = await aiosqlite.connect(str(dest))
        try:
            await self.db.backup(target)
        finally:
            await target.close()

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

    # the league penalties of a standings row's player in its season (schema version 9); a hand-edited
    # points value that is not a number counts as 0 here (db check names the row)
    _PENALTY = (
        "(SELECT COALESCE(SUM(CASE WHEN typeof(lp.points) IN ('integer', 'real') THEN lp.points ELSE 0 END), 0)"
        " FROM league_penalties lp JOIN leagues lg ON lg.id = lp.league_id"
        " WHERE lg.season_id = standings.season_id AND lp.player = standings.player) AS penalty"
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

    # ---------------------------------------------------------------- audit log

    async def audit(self, guild_id: int | None, *, game_id: int | None = None) -> list[AuditRow]:
        q = "SELECT * FROM audit_log WHERE guild_id = ?"
        args: list[Any] = [guild_id]
        if game_id is not None:
            q += " AND game_id = ?"
            args.append(game_id)
        out = []
        for r in await fetch_all(self.db, q + " ORDER BY id", args):
            try:
                before = json.loads(r["before"]) if r["before"] is not None else None
                after = json.loads(r["after"]) if r["after"] is not None else None
            except ValueError as e:
                log.error("skipping audit_log row %s: bad JSON (%s)", r["id"], e)
                continue
            out.append(
                AuditRow(
                    r["id"],
                    r["guild_id"],
                    r["season_id"],
                    r["game_id"],
                    r["actor_id"],
                    r["action"],
                    r["at"],
                    before,
                    after,
                )
            )
        return out

    # ---------------------------------------------------------------- house rules (schema version 7)

    @staticmethod
    def house_row(r: Any) -> HouseRow:
        """A ``house_rules`` row, every column checked (:class:`CorruptRow` names what is wrong;
        whether the engine can play it is the house service's check)."""
        why = bad_columns(r, HOUSE_RULES)
        if why:
            raise CorruptRow("house_rules", r["id"], why, columns=True)
        options = json.loads(r["options"] or "{}")
        return HouseRow(
            id=r["id"],
            guild_id=r["guild_id"],
            name=r["name"],
            base=r["base"],
            options=options,
            created_by=r["created_by"],
            created_at=r["created_at"],
            updated_at=r["updated_at"],
        )

    async def house_rows(self, guild_id: int | None) -> list[Any]:
        """The club's ``house_rules`` rows as stored (unchecked: the house service checks each), by id."""
        return await fetch_all(self.db, "SELECT * FROM house_rules WHERE guild_id = ? ORDER BY id", (guild_id,))

    async def default_house_id(self, guild_id: int | None) -> Any:
        """The id of the club's default profile as stored (None when it has none)."""
        r = await fetch_one(self.db, "SELECT default_house FROM club_settings WHERE guild_id = ?", (guild_id,))
        return r[0] if r is not None else None

    # ---------------------------------------------------------------- tile styles

    async def tile_styles(self) -> tuple[dict[int, str], dict[tuple[int, int], str]]:
        """Every club's default tile style (guild -> style) and every player's own ((guild, user)
        -> style); a row whose values are not a style is left out with a warning (``db check``
        lists it)."""
        clubs: dict[int, str] = {}
        players: dict[tuple[int, int], str] = {}
        for r in await fetch_all(self.db, "SELECT guild_id, tile_style FROM club_settings WHERE tile_style IS NOT NULL"):
            if bad_columns(r, CLUB_RULES) is None:
                clubs[r["guild_id"]] = r["tile_style"]
            else:
                log.warning("club_settings row of server %s: %s", _shown(r["guild_id"]), bad_columns(r, CLUB_RULES))
        for r in await fetch_all(self.db, "SELECT * FROM tile_styles"):
            why = bad_columns(r, TILE_STYLE_RULES)
            if why is None:
                players[(r["guild_id"], r["user_id"])] = r["style"]
            else:
                log.warning("tile_styles row (server %s, user %s): %s", _shown(r["guild_id"]), _shown(r["user_id"]), why)
        return clubs, players

    # ---------------------------------------------------------------- languages

    async def club_language(self, guild_id: int | None) -> Any:
        """The club's default language as stored ('ja', 'en', or None when it has none)."""
        r = await fetch_one(self.db, "SELECT language FROM club_settings WHERE guild_id = ?", (guild_id,))
        return r[0] if r is not None else None

    async def set_club_language(self, guild_id: int, language: str | None) -> None:
        def put(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO club_settings (guild_id, language) VALUES (?, ?) "
                "ON CONFLICT(guild_id) DO UPDATE SET language = excluded.language",
                (guild_id, language),
            )

        await self.write(put)

    async def user_locales(self) -> dict[int, str]:
        """Every player's last Discord locale, by user id."""
        return {int(r[0]): str(r[1]) for r in await fetch_all(self.db, "SELECT user_id, locale FROM user_locales")}

    async def set_user_locale(self, user_id: int, locale: str) -> None:
        def put(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO user_locales (user_id, locale) VALUES (?, ?) "
                "ON CONFLICT(user_id) DO UPDATE SET locale = excluded.locale",
                (user_id, locale),
            )

        await self.write(put)

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

    async def check_standings(self) -> list[str]:
        """Standings rows a reader skips: seasons with a bad uma, impossible games, bad audit JSON."""
        problems: list[str] = []
        try:
            seasons = await fetch_all(self.db, "SELECT * FROM seasons")
        except aiosqlite.OperationalError:
            return problems  # a version-1 database: nothing of the standings yet
        for r in seasons:
            try:
                self._season(r)
            except CorruptRow as e:
                problems.append(str(e))
        lines: dict[int, list[PlayerLine]] = {}
        for x in await fetch_all(self.db, "SELECT * FROM game_players ORDER BY game_id, seat"):
            lines.setdefault(x["game_id"], []).append(self._line(x))
        for r in await fetch_all(self.db, "SELECT * FROM games"):
            try:
                self._game(r, lines.get(r["id"], []))
            except CorruptRow as e:
                if not e.columns and "JSON" not in e.why:  # bad columns and data JSON: listed by check()
                    problems.append(str(e))
            except (TypeError, ValueError):
                pass  # a column of the wrong type: check() lists it, column by column
        for r in await fetch_all(self.db, "SELECT id, before, after FROM audit_log"):
            for col in ("before", "after"):
                try:
                    if r[col] is not None:
                        json.loads(r[col])
                except ValueError as e:
                    problems.append(f"audit_log row {r['id']}: bad {col} JSON ({e})")
        return problems


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
    return Repository._game(r, [Repository._line(x) for x in conn.execute(_GAME_PLAYERS, (game_id,))])


def season_games_in(conn: sqlite3.Connection, season_id: int) -> list[GameRow]:
    """:meth:`Repository.season_games`, inside a write."""
    lines = conn.execute(_SEASON_PLAYERS, (season_id,)).fetchall()
    return Repository._games_of(conn.execute(_SEASON_GAMES, (season_id,)).fetchall(), lines)


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
    return {r["player"]: Repository._standing(r) for r in cur.fetchall()}


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


def audit(
    conn: sqlite3.Connection,
    *,
    guild_id: int | None,
    action: str,
    actor_id: int | None,
    season_id: int | None = None,
    game_id: int | None = None,
    before: Any = None,
    after: Any = None,
) -> None:
    conn.execute(
        "INSERT INTO audit_log (guild_id, season_id, game_id, actor_id, action, at, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            guild_id,
            season_id,
            game_id,
            actor_id,
            action,
            time.time(),
            None if before is None else json.dumps(before, ensure_ascii=False),
            None if after is None else json.dumps(after, ensure_ascii=False),
        ),
    )


def insert_house(
    conn: sqlite3.Connection,
    guild_id: int,
    name: str,
    base: str,
    options: Mapping[str, Any],
    created_by: int | None,
) -> int:
    """A new profile row; its id (the unique index refuses a second profile of the same name)."""
    now = time.time()
    cur = conn.execute(
        "INSERT INTO house_rules (guild_id, name, base, options, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
        " RETURNING id",
        (
            guild_id,
            name,
            base,
            json.dumps(dict(options), sort_keys=True, ensure_ascii=False),
            created_by,
            now,
            now,
        ),
    )
    return int(cur.fetchone()[0])


def set_house(conn: sqlite3.Connection, house_id: int, **fields: Any) -> None:
    """Set columns of a profile's row (each keyword one of :data:`HOUSE_COLUMNS`); ``updated_at`` is now."""
    fields = {**fields, "updated_at": time.time()}
    sets = _assignments("house_rules", HOUSE_COLUMNS, fields)
    if "options" in fields:
        fields["options"] = json.dumps(fields["options"], sort_keys=True, ensure_ascii=False)
    conn.execute(f"UPDATE house_rules SET {sets} WHERE id = ?", (*fields.values(), house_id))


def delete_house(conn: sqlite3.Connection, house_id: int) -> None:
    """Delete a profile; a club whose default it was has no default any more."""
    conn.execute("UPDATE club_settings SET default_house = NULL WHERE default_house = ?", (house_id,))
    conn.execute("DELETE FROM house_rules WHERE id = ?", (house_id,))


def set_default_house(conn: sqlite3.Connection, guild_id: int, house_id: int | None) -> Any:
    """Make a profile the club's default (None: no default); the previous default's id as stored."""
    r = conn.execute("SELECT default_house FROM club_settings WHERE guild_id = ?", (guild_id,)).fetchone()
    conn.execute(
        "INSERT INTO club_settings (guild_id, default_house) VALUES (?, ?) ON CONFLICT(guild_id) DO UPDATE SET default_house = excluded.default_house",
        (guild_id, house_id),
    )
    return r[0] if r is not None else None


def set_club_tile_style(conn: sqlite3.Connection, guild_id: int, style: str | None) -> Any:
    """The club's default tile style (None: the bot's); the previous one as stored."""
    r = conn.execute("SELECT tile_style FROM club_settings WHERE guild_id = ?", (guild_id,)).fetchone()
    conn.execute(
        "INSERT INTO club_settings (guild_id, tile_style) VALUES (?, ?) ON CONFLICT(guild_id) DO UPDATE SET tile_style = excluded.tile_style",
        (guild_id, style),
    )
    return r[0] if r is not None else None


def set_player_tile_style(conn: sqlite3.Connection, guild_id: int, user_id: int, style: str | None) -> None:
    """A player's own tile style in a server (None: the club's again)."""
    if style is None:
        conn.execute("DELETE FROM tile_styles WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
    else:
        conn.execute(
            "INSERT INTO tile_styles (guild_id, user_id, style) VALUES (?, ?, ?) ON CONFLICT(guild_id, user_id) DO UPDATE SET style = excluded.style",
            (guild_id, user_id, style),
        )


def _statements(sql: str) -> list[str]:
    body = re.sub(r"--[^\n]*", "", sql)
    return [s.strip() for s in body.split(";") if s.strip()]

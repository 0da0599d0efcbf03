"""The storage facade: the connections, the one writer and the migrations, over SQLite or PostgreSQL.

:class:`Repository` opens a SQLite file (the default: ``DATABASE_PATH``; WAL, foreign keys on; reads
on an aiosqlite connection of their own) or a PostgreSQL database (``DATABASE_URL``; reads on an
asyncpg pool, :mod:`bot.storage.postgres` says why it is built as it is). Every write is one plain
function of the writer's connection run by the one writer (:mod:`bot.storage.writer`: one thread,
one transaction per function, ``BEGIN IMMEDIATE`` on SQLite); reads see the last committed state,
never a write half done. A transaction that fails (a read-only file, a full disk, a lost server)
is rolled back whole and its error raised to the caller as a ``sqlite3.Error``.

Every SQL statement of the bot is under ``bot/storage/``, by aggregate, each module with its row
types and column rules: :mod:`~bot.storage.tables` (tables, seats, actions, timers),
:mod:`~bot.storage.games` (seasons, games, standings, statistics), :mod:`~bot.storage.leagues`,
:mod:`~bot.storage.clubs` (house rules and preferences), :mod:`~bot.storage.audit`,
:mod:`~bot.storage.checks` (``db check``), :mod:`~bot.storage.sheets`; the Repository joins their
parts, and re-exports their names so callers import from here as before. A column named by a
caller (``set_table(thread_id=…)``) must be one of that table's allowed columns, else
:class:`UnknownColumn` is raised before any SQL is built. Migrations in ``migrations/NNNN_*.sql``
are applied in order in one write at start-up and recorded in ``schema_version`` (the same files on
PostgreSQL, with :func:`bot.storage.postgres.ddl`'s type substitutions).
Storage calls no service: a write that records a finished game is composed by the services
(the table service's last move, with the standings' :meth:`~bot.standings.service.StandingsService.record_finished`).
"""

from __future__ import annotations

import logging
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import aiosqlite

from bot.storage import postgres
from bot.storage.audit import AuditRow, AuditStore, audit
from bot.storage.checks import CheckStore
from bot.storage.clubs import (
    CLUB_RULES,
    HOUSE_COLUMNS,
    HOUSE_RULES,
    TILE_STYLE_RULES,
    TILE_STYLES,
    ClubStore,
    HouseRow,
    delete_house,
    insert_house,
    set_club_tile_style,
    set_default_house,
    set_house,
    set_player_tile_style,
)
from bot.storage.columns import (
    CorruptRow,
    Rule,
    UnknownColumn,
    _assignments,
    _checked,
    _int,
    _integer,
    _json_object,
    _num,
    _number,
    _one_of,
    _shown,
    _text,
    bad_columns,
)
from bot.storage.games import (
    GAME_COLUMNS,
    GAME_RULES,
    PLAYER_RULES,
    SEASON_COLUMNS,
    GameRow,
    GameStore,
    HistoryRow,
    PlayerLine,
    SeasonRow,
    StandingRow,
    game_in,
    insert_game,
    link_guest,
    put_players,
    put_standings,
    record_bot_game,
    season_games_in,
    set_game,
    set_ratings,
    standings_in,
)
from bot.storage.reads import ReadDB, fetch_all, fetch_one
from bot.storage.tables import (
    ACTION_RULES,
    SEAT_COLUMNS,
    SEAT_RULES,
    TABLE_COLUMNS,
    TABLE_RULES,
    TIMER_RULES,
    SeatRow,
    TableRow,
    TableStore,
    TimerRow,
)
from bot.storage.writer import Writer

#: the names callers import from here (the facade keeps the services' imports as they were)
__all__ = [
    "ACTION_RULES", "CLUB_RULES", "GAME_COLUMNS", "GAME_RULES", "HOUSE_COLUMNS", "HOUSE_RULES", "MIGRATIONS",
    "PLAYER_RULES", "SEASON_COLUMNS", "SEAT_COLUMNS", "SEAT_RULES", "TABLE_COLUMNS", "TABLE_RULES",
    "TILE_STYLES", "TILE_STYLE_RULES", "TIMER_RULES", "AuditRow", "CorruptRow", "GameRow", "HistoryRow",
    "HouseRow", "PlayerLine", "Repository", "Rule", "SeasonRow", "SeatRow", "StandingRow", "TableRow",
    "TimerRow", "UnknownColumn", "_assignments", "_checked", "_int", "_integer", "_json_object", "_num",
    "_number", "_one_of", "_shown", "_statements", "_text", "audit", "bad_columns", "delete_house",
    "game_in", "insert_game", "insert_house", "link_guest", "put_players", "put_standings",
    "record_bot_game", "season_games_in", "set_club_tile_style", "set_default_house", "set_game",
    "set_house", "set_player_tile_style", "set_ratings", "standings_in",
]

log = logging.getLogger(__name__)

T = TypeVar("T")

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


class Repository(TableStore, GameStore, AuditStore, ClubStore, CheckStore):
    """The storage facade: the connections, the writer and the migrations here; the reads and
    writes of each aggregate in its own module's part (:class:`~bot.storage.tables.TableStore`,
    :class:`~bot.storage.games.GameStore`, …)."""

    def __init__(self, path: str | Path) -> None:
        """``path``: a SQLite file, or a ``postgresql://`` URL (:mod:`bot.storage.postgres`)."""
        self.path = str(path)
        #: ``"postgres"`` for a server URL, else ``"sqlite"``
        self.backend = "postgres" if postgres.is_url(path) else "sqlite"
        self._db: ReadDB | None = None
        self._writer: Writer | postgres.PgWriter | None = None

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
                # several bot processes starting at once on one database: one migrates, the others
                # wait here until it commits and then find nothing left to apply
                conn.execute("SELECT pg_advisory_xact_lock(31411)")
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


def _statements(sql: str) -> list[str]:
    body = re.sub(r"--[^\n]*", "", sql)
    return [s.strip() for s in body.split(";") if s.strip()]

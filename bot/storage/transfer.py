"""``python -m bot db migrate-to postgresql://…``: a SQLite club database copied into an empty
PostgreSQL database, then checked.

The copy: the SQLite file is opened as the bot opens it (migrated to the current schema first), the
target must hold no row in any table (a database the bot created and never used is empty; any
other is refused, nothing written), the target's tables are created by the same migrations, and
every row of every table is copied in ONE write (all or nothing), parents before children (the
foreign keys' order); each table's id sequence then continues after its highest id. A value a
typed column cannot hold (a hand edit SQLite kept: text in a number column) stops the copy with a
sentence naming the table; ``db check`` names the row.

The checks, on the copy as stored: the row count of every table equals the file's; every bot game
(a game recorded from a table's action log) replays through the engine from its table's stored
ruleset, options, seed and log to the final scores stored for its seats; every season's
leaderboard (by points, rating and placement, every row) reads the same from both. Typed-in and
imported games have no log to replay: their rows are compared by the counts and the leaderboards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bot.storage.reads import fetch_all
from bot.storage.repository import Repository

#: tables the copy leaves out: the target's own migrations write its schema_version
_NOT_COPIED = frozenset({"schema_version"})
_BOARDS = ("points", "rating", "placement")


class TransferError(Exception):
    """Why the copy was refused or failed; one sentence."""


@dataclass
class Report:
    counts: dict[str, int] = field(default_factory=dict)  # rows per table, equal in both
    games_replayed: int = 0
    leaderboards: int = 0  # season x ordering, equal in both
    problems: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"{name}: {n} row(s)" for name, n in sorted(self.counts.items())]
        out.append(f"{self.games_replayed} bot game(s) replayed to their stored scores")
        out.append(f"{self.leaderboards} leaderboard(s) read the same")
        return out + self.problems


async def _tables(src: Repository) -> list[str]:
    """The file's tables, parents before the tables whose foreign keys name them."""
    names = [str(r[0]) for r in await fetch_all(src.db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    parents = {n: {str(r["table"]) for r in await fetch_all(src.db, f"PRAGMA foreign_key_list({n})")} - {n} for n in names}
    order: list[str] = []
    while len(order) < len(names):
        ready = [n for n in names if n not in order and parents[n] <= set(order)]
        if not ready:  # a cycle of foreign keys: none in the schema, but never loop forever
            ready = [n for n in names if n not in order]
        order += ready
    return [n for n in order if n not in _NOT_COPIED]


async def _nonempty(url: str) -> str | None:
    """The first table of the target that holds a row (schema_version aside), or None."""
    import asyncpg

    try:
        conn = await asyncpg.connect(url, timeout=10)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:  # no server, no such database, refused login
        where = urlsplit(url)
        raise TransferError(
            f"the PostgreSQL database {where.path.lstrip('/') or '(none named)'} at {where.hostname or 'localhost'} cannot be opened ({e})"
        ) from None
    try:
        names = [r[0] for r in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")]
        for name in names:
            if name not in _NOT_COPIED and await conn.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{name}")'):
                return str(name)
        return None
    finally:
        await conn.close()


def _coerce(value: Any, pg_type: str) -> Any:
    """A SQLite value as the PostgreSQL column's type takes it (1.0 in a whole-number column is 1)."""
    if pg_type == "bigint" and isinstance(value, float) and value.is_integer():
        return int(value)
    if pg_type == "double precision" and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


async def copy(src: Repository, dst: Repository) -> dict[str, int]:
    """Every row of every table of ``src`` (SQLite) into ``dst`` (PostgreSQL, empty), in one write;
    the rows copied per table."""
    tables = await _tables(src)
    types: dict[str, dict[str, str]] = {}
    for r in await fetch_all(
        dst.db, "SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'public'"
    ):
        types.setdefault(str(r[0]), {})[str(r[1])] = str(r[2])
    plan: list[tuple[str, list[str], list[tuple[Any, ...]]]] = []
    for name in tables:
        if name not in types:
            raise TransferError(f"the file has a table {name!r} that the PostgreSQL schema does not")
        rows = await fetch_all(src.db, f"SELECT * FROM {name}")
        cols = [c for c in (rows[0].keys() if rows else []) if c in types[name]]
        plan.append((name, cols, [tuple(_coerce(r[c], types[name][c]) for c in cols) for r in rows]))

    def write(conn: Any) -> None:
        for name, cols, rows in plan:
            if not rows:
                continue
            sql = f"INSERT INTO {name} ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})"
            try:
                conn.executemany(sql, rows)
            except Exception as e:
                raise TransferError(f"the rows of {name} cannot be stored in PostgreSQL ({e}); `db check` names damaged rows") from e
            if "id" in cols:  # new rows continue after the copied ids
                conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), (SELECT MAX(id) FROM {name}))"
                )

    await dst.write(write)
    return {name: len(rows) for name, _, rows in plan}


async def _replayed(repo: Repository) -> tuple[int, list[str]]:
    """How many bot games replay to their stored scores, and a line for each that does not."""
    from engine.rules.base import find_ruleset
    from engine.table.actions import Action
    from engine.table.game import Game

    done, problems = 0, []
    games = await fetch_all(repo.db, "SELECT id, table_id FROM games WHERE source = 'bot' AND table_id IS NOT NULL ORDER BY id")
    for g in games:
        game_id, table_id = int(g[0]), int(g[1])
        try:
            row = await repo.get_table(table_id)
            if row is None:
                raise ValueError(f"its table #{table_id} is missing")
            replay = Game(find_ruleset(row.ruleset).with_options(**row.options), row.seed)
            for _, text in await repo.actions(table_id):
                replay.play(Action.parse(text))
            stored = {
                int(r[0]): int(r[1])
                for r in await fetch_all(repo.db, "SELECT seat, points FROM game_players WHERE game_id = ?", (game_id,))
            }
            if not replay.over:
                raise ValueError("its log does not reach the end of the game")
            scores = {seat: int(p) for seat, p in enumerate(replay.final_scores)}
            if stored != scores:
                raise ValueError(f"its log ends at {scores}, its stored scores are {stored}")
        except Exception as e:  # listed, never fatal: every game is looked at
            problems.append(f"game #{game_id}: does not replay to its stored result ({e})")
            continue
        done += 1
    return done, problems


async def _boards(repo: Repository) -> dict[tuple[int, str], list[Any]]:
    out: dict[tuple[int, str], list[Any]] = {}
    for r in await fetch_all(repo.db, "SELECT id FROM seasons ORDER BY id"):
        for by in _BOARDS:
            _, rows = await repo.leaderboard(int(r[0]), by, limit=1_000_000)
            out[(int(r[0]), by)] = rows
    return out


async def verify(src: Repository, dst: Repository, counts: dict[str, int]) -> Report:
    """The checks of the module docstring, on the copy as stored."""
    report = Report(counts=dict(counts))
    for name, n in counts.items():
        got = await fetch_all(dst.db, f"SELECT COUNT(*) FROM {name}")
        if int(got[0][0]) != n:
            report.problems.append(f"{name}: {got[0][0]} row(s) in PostgreSQL, {n} in the file")
    report.games_replayed, bad = await _replayed(dst)
    report.problems += bad
    before, after = await _boards(src), await _boards(dst)
    for key, rows in before.items():
        if after.get(key) != rows:
            report.problems.append(f"season #{key[0]}: the leaderboard by {key[1]} reads differently in PostgreSQL")
    report.leaderboards = sum(1 for k in before if after.get(k) == before[k])
    return report


async def migrate_to(source: str | Path, url: str) -> Report:
    """Copy the SQLite database at ``source`` into the empty PostgreSQL database at ``url`` and check
    the copy; :class:`TransferError` (nothing written) if the target is not empty."""
    from bot.storage.postgres import is_url

    if not is_url(url):
        raise TransferError(f"{url!r} is not a postgresql:// address")
    if is_url(str(source)) or not Path(source).is_file():
        raise TransferError(f"{source} is not a SQLite database file")
    busy = await _nonempty(url)
    if busy is not None:
        raise TransferError(f"the PostgreSQL database is not empty (its table {busy} has rows): migrate-to copies into an empty database only")
    src, dst = Repository(source), Repository(url)
    await src.open()
    try:
        await dst.open()
        try:
            counts = await copy(src, dst)
            return await verify(src, dst, counts)
        finally:
            await dst.close()
    finally:
        await src.close()

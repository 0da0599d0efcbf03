"""The SQL of club leagues (schema version 9): leagues, members, rounds, round tables, penalties,
substitutions and missed turns.

Kept beside :mod:`bot.storage.repository` (whose column-rule helpers it uses) so the league's
storage is one module: the column rules its readers check, the columns a write may name
(:data:`LEAGUE_COLUMNS`, …, :class:`~bot.storage.repository.UnknownColumn` otherwise), the reads
(over the repository's aiosqlite proxy) and the steps of a write (plain ``sqlite3`` functions run
inside ``repo.write(fn)``, one transaction with their audit entry). :func:`check` lists every
league row a reader would skip, for ``python -m bot db check``.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from typing import Any

import aiosqlite

from bot.errors import UserError
from bot.i18n import Lang, t
from bot.storage.columns import (
    CorruptRow,
    Rule,
    _assignments,
    _checked,
    _integer,
    _json_object,
    _number,
    _one_of,
    _shown,
    _text,
    bad_columns,
)
from bot.storage.reads import fetch_all
from bot.storage.tables import SEAT_COLUMNS


def _json_list(v: Any) -> bool:
    if not isinstance(v, str):
        return False
    try:
        got = json.loads(v)
    except ValueError:
        return False
    return isinstance(got, list) and all(x is None or isinstance(x, str) for x in got)


def _json_pairs(v: Any) -> bool:
    """A JSON list of [member key, name] pairs (a seat's earlier stand-ins)."""
    if not isinstance(v, str):
        return False
    try:
        got = json.loads(v)
    except ValueError:
        return False
    return isinstance(got, list) and all(isinstance(x, list) and len(x) == 2 and all(isinstance(y, str) for y in x) for x in got)


def _json_stand_ins(v: Any) -> bool:
    """A JSON object {absent member key: [stand-in key, stand-in name]}."""
    if not isinstance(v, str):
        return False
    try:
        got = json.loads(v)
    except ValueError:
        return False
    return isinstance(got, dict) and all(
        isinstance(x, list) and len(x) == 2 and all(isinstance(y, str) for y in x) for x in got.values()
    )


def _json_obj(v: Any) -> bool:
    """A JSON object (not NULL)."""
    return v is not None and _json_object(v)


def _player_key(v: Any) -> bool:
    return isinstance(v, str) and v.startswith(("u:", "g:")) and len(v) > 2


def _seat_key(v: Any) -> bool:
    return _player_key(v) or (isinstance(v, str) and v.startswith("ai:") and len(v) > 3)


_ID = _integer()
_ID_OR_NULL = _integer(null=True)
_KEY: Rule = (_player_key, "a member key (u:<id> or g:<name>)")
LEAGUE_RULES: dict[str, Rule] = {
    "id": _ID,
    "guild_id": _ID,
    "name": _text(nonempty=True),
    "season_id": _ID,
    "rounds": _integer(1, 1000),
    "mode": _one_of("async", "live", "in_person"),
    "ruleset": _text(nonempty=True),
    "options": (_json_obj, "a JSON object"),
    "house": _text(null=True),
    "hours": _integer(1, 24 * 30),
    "seating": _one_of("shuffle", "swiss", "fixed"),
    "leftover": _one_of("ai", "bye"),
    "misses": _integer(1, 1000),
    "round_hours": _integer(1, 24 * 365),
    "on_deadline": _one_of("finish_ai", "void"),
    "status": _one_of("open", "finished"),
    "created_by": _ID_OR_NULL,
    "created_at": _number(),
}
MEMBER_RULES: dict[str, Rule] = {
    "league_id": _ID,
    "player": _KEY,
    "user_id": _ID_OR_NULL,
    "name": _text(nonempty=True),
    "team": _text(null=True),
    "joined_at": _number(),
    "left_at": _number(null=True),
}
ROUND_RULES: dict[str, Rule] = {
    "league_id": _ID,
    "number": _integer(1),
    "status": _one_of("open", "closed"),
    "deadline": _number(),
    "channel_id": _ID_OR_NULL,
    "opened_at": _number(),
    "closed_at": _number(null=True),
}
LEAGUE_TABLE_RULES: dict[str, Rule] = {
    "id": _ID,
    "league_id": _ID,
    "round": _integer(1),
    "kind": _one_of("table", "in_person", "bye"),
    "table_id": _ID_OR_NULL,
    "game_id": _ID_OR_NULL,
    "seats": (_json_list, "a JSON list of member keys"),
    "subs": (_json_stand_ins, "a JSON object of stand-ins"),
}
PENALTY_RULES: dict[str, Rule] = {
    "id": _ID,
    "league_id": _ID,
    "player": _KEY,
    "points": _number(),
    "reason": _text(nonempty=True),
    "game_id": _ID_OR_NULL,
    "by_id": _ID_OR_NULL,
    "at": _number(),
}
SUBSTITUTION_RULES: dict[str, Rule] = {
    "table_id": _ID,
    "seat": _integer(0, 3),
    "old_player": _KEY,
    "old_name": _text(nonempty=True),
    "new_player": (_seat_key, "a member key or ai:<kind>"),
    "misses": _integer(0),
    "at": _number(),
    "earlier": (_json_pairs, "a JSON list of [member key, name]"),
}
MISS_RULES: dict[str, Rule] = {"table_id": _ID, "seat": _integer(0, 3), "misses": _integer(0)}

#: the columns a write may name, per table (the key columns are never set by name)
LEAGUE_COLUMNS = frozenset(LEAGUE_RULES) - {"id"}
MEMBER_COLUMNS = frozenset(MEMBER_RULES) - {"league_id", "player"}
ROUND_COLUMNS = frozenset(ROUND_RULES) - {"league_id", "number"}
LEAGUE_TABLE_COLUMNS = frozenset(LEAGUE_TABLE_RULES) - {"id"}
PENALTY_COLUMNS = frozenset(PENALTY_RULES) - {"id"}


@dataclass(slots=True)
class LeagueRow:
    id: int
    guild_id: int
    name: str
    season_id: int
    rounds: int
    mode: str
    ruleset: str
    options: dict[str, Any]
    house: str | None
    hours: int
    seating: str
    leftover: str
    misses: int
    round_hours: int
    on_deadline: str
    status: str
    created_by: int | None
    created_at: float


@dataclass(slots=True)
class MemberRow:
    player: str
    user_id: int | None
    name: str
    team: str | None
    joined_at: float
    left_at: float | None = None


@dataclass(slots=True)
class RoundRow:
    league_id: int
    number: int
    status: str
    deadline: float
    channel_id: int | None
    opened_at: float
    closed_at: float | None = None


@dataclass(slots=True)
class LeagueTableRow:
    id: int
    league_id: int
    round: int
    kind: str  # table (a bot table), in_person (its result typed in) or bye
    table_id: int | None
    game_id: int | None
    seats: list[str | None] = field(default_factory=list)
    subs: dict[str, list[str]] = field(default_factory=dict)  # in person: absent key -> [stand-in key, name]


@dataclass(slots=True)
class PenaltyRow:
    id: int
    league_id: int
    player: str
    points: float
    reason: str
    game_id: int | None
    by_id: int | None
    at: float


@dataclass(slots=True)
class SubstitutionRow:
    table_id: int
    seat: int
    old_player: str
    old_name: str
    new_player: str
    misses: int
    at: float
    earlier: list[list[str]] = field(default_factory=list)  # human stand-ins before new_player: [key, name]


class DamagedLeagueRow(CorruptRow, UserError):
    """A league row a reader cannot use: named to the user in one sentence (the command that read
    it is refused; the other leagues and the bot carry on)."""

    def sentence(self, lang: Lang = "en") -> str:
        return t(lang, "This league's stored data is damaged ({why}), so I cannot do that: python -m bot db check lists the damage.", why=str(self))


def _checked_row(table: str, key: str, r: Any, rules: dict[str, Rule]) -> None:
    why = bad_columns(r, rules)
    if why:
        raise DamagedLeagueRow(table, key, why, columns=True)


def _fields(cls: type, r: Any) -> dict[str, Any]:
    """The row's columns that ``cls`` has (a later migration may add columns)."""
    return {f.name: r[f.name] for f in dataclass_fields(cls)}


def league_of(r: Any) -> LeagueRow:
    _checked_row("leagues", str(r["id"]), r, LEAGUE_RULES)
    d = _fields(LeagueRow, r)
    d["options"] = json.loads(d["options"])
    return LeagueRow(**d)


def member_of(r: Any) -> MemberRow:
    _checked_row("league_members", f"(league {_shown(r['league_id'])}, {_shown(r['player'])})", r, MEMBER_RULES)
    return MemberRow(r["player"], r["user_id"], r["name"], r["team"], r["joined_at"], r["left_at"])


def round_of(r: Any) -> RoundRow:
    _checked_row("league_rounds", f"(league {_shown(r['league_id'])}, round {_shown(r['number'])})", r, ROUND_RULES)
    return RoundRow(**_fields(RoundRow, r))


def league_table_of(r: Any) -> LeagueTableRow:
    _checked_row("league_tables", str(r["id"]), r, LEAGUE_TABLE_RULES)
    d = _fields(LeagueTableRow, r)
    d["seats"] = json.loads(d["seats"])
    d["subs"] = json.loads(d["subs"])
    return LeagueTableRow(**d)


def penalty_of(r: Any) -> PenaltyRow:
    _checked_row("league_penalties", str(r["id"]), r, PENALTY_RULES)
    return PenaltyRow(**_fields(PenaltyRow, r))


def substitution_of(r: Any) -> SubstitutionRow:
    _checked_row("substitutions", f"(table {_shown(r['table_id'])}, seat {_shown(r['seat'])})", r, SUBSTITUTION_RULES)
    d = _fields(SubstitutionRow, r)
    d["earlier"] = json.loads(d["earlier"])
    return SubstitutionRow(**d)


# ---------------------------------------------------------------- reads (the aiosqlite proxy)


async def _all(db: aiosqlite.Connection, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
    return await fetch_all(db, sql, args)


async def leagues(db: aiosqlite.Connection, guild_id: int | None = None) -> list[LeagueRow]:
    if guild_id is None:
        rows = await _all(db, "SELECT * FROM leagues ORDER BY id")
    else:
        rows = await _all(db, "SELECT * FROM leagues WHERE guild_id = ? ORDER BY id", (guild_id,))
    return [league_of(r) for r in rows]


async def league(db: aiosqlite.Connection, league_id: int) -> LeagueRow | None:
    rows = await _all(db, "SELECT * FROM leagues WHERE id = ?", (league_id,))
    return league_of(rows[0]) if rows else None


async def members(db: aiosqlite.Connection, league_id: int, *, current: bool = True) -> list[MemberRow]:
    q = "SELECT * FROM league_members WHERE league_id = ?" + (" AND left_at IS NULL" if current else "")
    return [member_of(r) for r in await _all(db, q + " ORDER BY joined_at, player", (league_id,))]


async def rounds(db: aiosqlite.Connection, league_id: int) -> list[RoundRow]:
    return [round_of(r) for r in await _all(db, "SELECT * FROM league_rounds WHERE league_id = ? ORDER BY number", (league_id,))]


async def open_rounds(db: aiosqlite.Connection) -> list[RoundRow]:
    """Every open round of every league, earliest deadline first (what the deadline task watches)."""
    return [round_of(r) for r in await _all(db, "SELECT * FROM league_rounds WHERE status = 'open' ORDER BY deadline")]


async def round_tables(db: aiosqlite.Connection, league_id: int, number: int | None = None) -> list[LeagueTableRow]:
    if number is None:
        rows = await _all(db, "SELECT * FROM league_tables WHERE league_id = ? ORDER BY round, id", (league_id,))
    else:
        rows = await _all(db, "SELECT * FROM league_tables WHERE league_id = ? AND round = ? ORDER BY id", (league_id, number))
    return [league_table_of(r) for r in rows]


async def table_entry(db: aiosqlite.Connection, table_id: int) -> LeagueTableRow | None:
    rows = await _all(db, "SELECT * FROM league_tables WHERE table_id = ?", (table_id,))
    return league_table_of(rows[0]) if rows else None


async def league_season_ids(db: aiosqlite.Connection, guild_id: int | None) -> set[int]:
    """The seasons of a club's leagues (each takes its own league's games only)."""
    rows = await _all(db, "SELECT season_id FROM leagues WHERE guild_id = ?", (guild_id,))
    return {int(r[0]) for r in rows if isinstance(r[0], int)}


async def penalties(db: aiosqlite.Connection, league_id: int) -> list[PenaltyRow]:
    return [penalty_of(r) for r in await _all(db, "SELECT * FROM league_penalties WHERE league_id = ? ORDER BY id", (league_id,))]


async def substitutions(db: aiosqlite.Connection, table_id: int) -> list[SubstitutionRow]:
    return [substitution_of(r) for r in await _all(db, "SELECT * FROM substitutions WHERE table_id = ? ORDER BY seat", (table_id,))]


async def misses(db: aiosqlite.Connection, table_id: int) -> dict[int, int]:
    rows = await _all(db, "SELECT * FROM league_misses WHERE table_id = ?", (table_id,))
    out = {}
    for r in rows:
        _checked_row("league_misses", f"(table {_shown(r['table_id'])}, seat {_shown(r['seat'])})", r, MISS_RULES)
        out[r["seat"]] = r["misses"]
    return out


# ---------------------------------------------------------------- the steps of a write (sqlite3)


def _insert(conn: sqlite3.Connection, table: str, allowed: frozenset[str], fields: Mapping[str, Any]) -> int:
    cols = _checked(table, allowed, fields)
    sql = f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)}) RETURNING id"
    return int(conn.execute(sql, tuple(fields.values())).fetchone()[0])


def insert_league(conn: sqlite3.Connection, **fields: Any) -> int:
    fields = dict(fields, options=json.dumps(fields.get("options") or {}), created_at=fields.get("created_at", time.time()))
    return _insert(conn, "leagues", LEAGUE_COLUMNS, fields)


def set_league(conn: sqlite3.Connection, league_id: int, **fields: Any) -> None:
    cols = _checked("leagues", LEAGUE_COLUMNS, fields)
    conn.execute(f"UPDATE leagues SET {', '.join(f'{c} = ?' for c in cols)} WHERE id = ?", (*fields.values(), league_id))


def put_member(conn: sqlite3.Connection, league_id: int, player: str, **fields: Any) -> None:
    """A member joins (or joins again: their row is back, ``left_at`` cleared)."""
    fields = dict(fields, left_at=None)
    cols = _checked("league_members", MEMBER_COLUMNS, fields)
    conn.execute(
        f"INSERT INTO league_members (league_id, player, {', '.join(cols)}) VALUES (?, ?, {', '.join('?' for _ in cols)})"
        f" ON CONFLICT (league_id, player) DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in cols)}",
        (league_id, player, *fields.values()),
    )


def member_left(conn: sqlite3.Connection, league_id: int, player: str, at: float) -> None:
    conn.execute("UPDATE league_members SET left_at = ? WHERE league_id = ? AND player = ?", (at, league_id, player))


def insert_round(conn: sqlite3.Connection, league_id: int, number: int, **fields: Any) -> None:
    cols = _checked("league_rounds", ROUND_COLUMNS, fields)
    conn.execute(
        f"INSERT INTO league_rounds (league_id, number, {', '.join(cols)}) VALUES (?, ?, {', '.join('?' for _ in cols)})",
        (league_id, number, *fields.values()),
    )


def set_round(conn: sqlite3.Connection, league_id: int, number: int, **fields: Any) -> None:
    cols = _checked("league_rounds", ROUND_COLUMNS, fields)
    conn.execute(
        f"UPDATE league_rounds SET {', '.join(f'{c} = ?' for c in cols)} WHERE league_id = ? AND number = ?",
        (*fields.values(), league_id, number),
    )


def insert_round_table(conn: sqlite3.Connection, **fields: Any) -> int:
    fields = dict(fields, seats=json.dumps(fields.get("seats") or []))
    return _insert(conn, "league_tables", LEAGUE_TABLE_COLUMNS, fields)


def set_round_table_game(conn: sqlite3.Connection, table_id: int, game_id: int) -> None:
    conn.execute("UPDATE league_tables SET game_id = ? WHERE table_id = ?", (game_id, table_id))


def in_person_waiting_in(conn: sqlite3.Connection, season_id: int) -> list[tuple[int, str]]:
    """``(row id, seats JSON)`` of the in-person tables of the season's open rounds still without a result."""
    return [
        (int(r[0]), str(r[1]))
        for r in conn.execute(
            "SELECT t.id, t.seats FROM league_tables t JOIN leagues l ON l.id = t.league_id"
            " JOIN league_rounds r ON r.league_id = t.league_id AND r.number = t.round"
            " WHERE l.season_id = ? AND t.kind = 'in_person' AND t.game_id IS NULL AND r.status = 'open' ORDER BY t.id",
            (season_id,),
        )
        if isinstance(r[0], int) and isinstance(r[1], str)
    ]


def set_in_person_game(conn: sqlite3.Connection, row_id: int, game_id: int) -> None:
    conn.execute("UPDATE league_tables SET game_id = ? WHERE id = ?", (game_id, row_id))


def insert_penalty(conn: sqlite3.Connection, **fields: Any) -> int:
    return _insert(conn, "league_penalties", PENALTY_COLUMNS, dict(fields, at=fields.get("at", time.time())))


def add_miss(conn: sqlite3.Connection, table_id: int, seat: int) -> int:
    """One more missed turn for a seat; how many it has now."""
    conn.execute(
        "INSERT INTO league_misses (table_id, seat, misses) VALUES (?, ?, 1)"
        " ON CONFLICT (table_id, seat) DO UPDATE SET misses = league_misses.misses + 1",
        (table_id, seat),
    )
    row = conn.execute("SELECT misses FROM league_misses WHERE table_id = ? AND seat = ?", (table_id, seat)).fetchone()
    return int(row[0])


def insert_substitution(conn: sqlite3.Connection, s: SubstitutionRow) -> None:
    conn.execute(
        "INSERT INTO substitutions (table_id, seat, old_player, old_name, new_player, misses, at, earlier) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (s.table_id, s.seat, s.old_player, s.old_name, s.new_player, s.misses, s.at, json.dumps(s.earlier)),
    )


def set_in_person_subs(conn: sqlite3.Connection, row_id: int, subs: dict[str, list[str]]) -> None:
    """An in-person table's stand-ins (schema version 14)."""
    conn.execute("UPDATE league_tables SET subs = ? WHERE id = ?", (json.dumps(subs), row_id))


def league_of_table_in(conn: sqlite3.Connection, table_id: int) -> tuple[int, int] | None:
    """``(league id, season id)`` of a league's table, inside a write."""
    r = conn.execute(
        "SELECT l.id, l.season_id FROM league_tables t JOIN leagues l ON l.id = t.league_id WHERE t.table_id = ?", (table_id,)
    ).fetchone()
    return (int(r[0]), int(r[1])) if r and isinstance(r[0], int) and isinstance(r[1], int) else None


def league_seasons_in(conn: sqlite3.Connection, guild_id: int | None) -> set[int]:
    """The seasons of a club's leagues: they take their league's games only."""
    return {int(r[0]) for r in conn.execute("SELECT season_id FROM leagues WHERE guild_id = ?", (guild_id,)) if isinstance(r[0], int)}


def substitutions_in(conn: sqlite3.Connection, table_id: int) -> list[tuple[int, str, str]]:
    """``(seat, old player key, old name)`` of a table's substitutions, inside a write."""
    return [
        (int(r[0]), str(r[1]), str(r[2]))
        for r in conn.execute("SELECT seat, old_player, old_name FROM substitutions WHERE table_id = ?", (table_id,))
    ]


def substitute_in(conn: sqlite3.Connection, sub: SubstitutionRow, seat_fields: Mapping[str, Any]) -> None:
    """A substitute takes a seat: its substitution row (the seat's earlier one replaced), the seat's
    row (each key one of the seats' allowed columns), and the seat's missed turns start again."""
    sets = _assignments("seats", SEAT_COLUMNS, seat_fields)
    conn.execute("DELETE FROM substitutions WHERE table_id = ? AND seat = ?", (sub.table_id, sub.seat))
    insert_substitution(conn, sub)
    conn.execute(f"UPDATE seats SET {sets} WHERE table_id = ? AND seat = ?", (*seat_fields.values(), sub.table_id, sub.seat))
    conn.execute("DELETE FROM league_misses WHERE table_id = ? AND seat = ?", (sub.table_id, sub.seat))


def close_round_in(conn: sqlite3.Connection, league_id: int, number: int, at: float) -> bool:
    """Close a round if it is still open; whether this write closed it."""
    cur = conn.execute(
        "UPDATE league_rounds SET status = 'closed', closed_at = ? WHERE league_id = ? AND number = ? AND status = 'open'",
        (at, league_id, number),
    )
    return bool(cur.rowcount == 1)


def game_table_in(conn: sqlite3.Connection, game_id: int) -> int | None:
    """The bot table a recorded game was played at (None: typed in, imported, or unreadable)."""
    r = conn.execute("SELECT table_id FROM games WHERE id = ?", (game_id,)).fetchone()
    return r[0] if r is not None and isinstance(r[0], int) else None


# ---------------------------------------------------------------- db check


async def check(db: aiosqlite.Connection) -> list[str]:
    """Every league row a reader would skip, one line each (a version before 9: nothing)."""
    problems: list[str] = []
    try:
        ids = {r[0] for r in await _all(db, "SELECT id FROM leagues")}
    except sqlite3.OperationalError:
        return problems
    tables = {r[0] for r in await _all(db, "SELECT id FROM tables")}

    def owner(r: Any) -> str | None:
        return None if r["league_id"] in ids else f"its league #{_shown(r['league_id'])} does not exist"

    def on_table(r: Any) -> str | None:
        return None if r["table_id"] in tables else f"its table #{_shown(r['table_id'])} does not exist"

    def league_test(r: Any) -> str | None:
        return bad_columns(r, LEAGUE_RULES) or (None if _json_obj(r["options"]) else "its options are not a JSON object")

    specs: list[tuple[str, str, Callable[[Any], str], dict[str, Rule], Callable[[Any], str | None] | None]] = [
        ("leagues", "id", lambda r: str(r["id"]), LEAGUE_RULES, None),
        ("league_members", "league_id, player", lambda r: f"(league {_shown(r['league_id'])}, {_shown(r['player'])})", MEMBER_RULES, owner),
        ("league_rounds", "league_id, number", lambda r: f"(league {_shown(r['league_id'])}, round {_shown(r['number'])})", ROUND_RULES, owner),
        ("league_tables", "id", lambda r: str(r["id"]), LEAGUE_TABLE_RULES, owner),
        ("league_penalties", "id", lambda r: str(r["id"]), PENALTY_RULES, owner),
        ("substitutions", "table_id, seat", lambda r: f"(table {_shown(r['table_id'])}, seat {_shown(r['seat'])})", SUBSTITUTION_RULES, on_table),
        ("league_misses", "table_id, seat", lambda r: f"(table {_shown(r['table_id'])}, seat {_shown(r['seat'])})", MISS_RULES, on_table),
    ]
    for name, order, key, rules, belongs in specs:
        for r in await _all(db, f"SELECT * FROM {name} ORDER BY {order}"):
            try:
                whys = [belongs(r) if belongs is not None else None, league_test(r) if name == "leagues" else bad_columns(r, rules)]
            except Exception as e:  # a check lists the row, never stops at it
                whys = [f"it could not be checked ({type(e).__name__}: {e})"]
            why = "; ".join(w for w in whys if w)
            if why:
                problems.append(f"{name} row {key(r)}: {why}")
    return problems

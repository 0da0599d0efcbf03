"""The SQL of penalties and chombo in any season (schema version 14, issue 30): the rows of
``season_penalties`` (points taken off a player's season total, with the reason and who entered
it), read beside the standings rows and never written into them.

Reads over the repository's aiosqlite proxy; the write's step is a plain ``sqlite3`` function run
inside ``repo.write(fn)`` with its audit entry. Portable SQL (``RETURNING id``). A league's own
penalties stay in ``league_penalties`` (:mod:`bot.storage.leagues`); :func:`season_penalties`
lists both, so a season's penalties are one list wherever they were entered.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

import aiosqlite

from bot.storage.reads import fetch_all


@dataclass(slots=True)
class PenaltyRow:
    """One penalty of a season: ``points`` taken off ``player``'s total."""

    id: int
    season_id: int
    player: str
    name: str
    points: float
    kind: str  # penalty | chombo
    reason: str
    game_id: int | None
    by_id: int | None
    at: float
    league: bool = False  # entered with /league penalty (league_penalties)


def insert(conn: sqlite3.Connection, *, season_id: int, player: str, name: str, points: float, kind: str, reason: str,
           game_id: int | None, by_id: int | None, at: float) -> int:
    row = conn.execute(
        "INSERT INTO season_penalties (season_id, player, name, points, kind, reason, game_id, by_id, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (season_id, player, name, points, kind, reason, game_id, by_id, at),
    ).fetchone()
    return int(row[0])


def _number(v: Any) -> float:
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else 0.0


async def season_penalties(db: aiosqlite.Connection, season_id: int) -> list[PenaltyRow]:
    """Every penalty of the season, the league's included, in the order they were entered."""
    own = await fetch_all(db, "SELECT * FROM season_penalties WHERE season_id = ? ORDER BY at, id", (season_id,))
    out = [PenaltyRow(r["id"], r["season_id"], str(r["player"]), str(r["name"]), _number(r["points"]), str(r["kind"]), str(r["reason"]),
                      r["game_id"], r["by_id"], _number(r["at"])) for r in own]
    league = await fetch_all(
        db,
        "SELECT lp.*, COALESCE(m.name, lp.player) AS member_name FROM league_penalties lp JOIN leagues lg ON lg.id = lp.league_id"
        " LEFT JOIN league_members m ON m.league_id = lp.league_id AND m.player = lp.player WHERE lg.season_id = ? ORDER BY lp.at, lp.id",
        (season_id,),
    )
    out += [PenaltyRow(r["id"], season_id, str(r["player"]), str(r["member_name"]), _number(r["points"]), "penalty", str(r["reason"]),
                       r["game_id"], r["by_id"], _number(r["at"]), league=True) for r in league]
    return sorted(out, key=lambda p: p.at)

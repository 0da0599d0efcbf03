"""The SQL of score sheets (schema version 13): a sheet's row, its entries, and the per-seat
statistics of the game it records.

Reads go through the repository's read connection (:mod:`bot.storage.reads`); writes are plain
``sqlite3`` steps run inside ``repo.write(fn)``, in one transaction with whatever else the caller
writes (an entry is stored before the sheet shows it; the game, its statistics and the sheet's
``finished`` status in one write). Portable SQL: ``RETURNING id``, ``ON CONFLICT``.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import aiosqlite

from bot.storage.reads import fetch_all, fetch_one


@dataclass(frozen=True, slots=True)
class SheetPlayer:
    """A seat's player: the standings' key (``u:<id>``, ``g:<name>``), Discord id, name, kind."""

    player: str
    user_id: int | None
    name: str
    kind: str  # user | guest

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "user_id": self.user_id, "name": self.name, "kind": self.kind}


@dataclass(frozen=True, slots=True)
class SheetRow:
    id: int
    guild_id: int | None
    channel_id: int
    message_id: int | None
    ruleset: str
    options: dict[str, Any]
    house: str | None
    season_id: int | None
    league_table: int | None
    players: tuple[SheetPlayer, ...]
    status: str
    game_id: int | None
    created_by: int | None


@dataclass(frozen=True, slots=True)
class EntryRow:
    serial: int
    entry: dict[str, Any]
    user_id: int | None


class DamagedSheet(ValueError):
    """A stored sheet row or entry that cannot be read (one line saying which and why)."""


def _row(r: Any) -> SheetRow:
    try:
        options = json.loads(r["options"] or "{}")
        players = tuple(
            SheetPlayer(str(p["player"]), None if p.get("user_id") is None else int(p["user_id"]), str(p["name"]), str(p["kind"]))
            for p in json.loads(r["players"])
        )
        if not isinstance(options, dict) or len(players) not in (3, 4):
            raise ValueError("options or players")
        return SheetRow(
            id=int(r["id"]), guild_id=r["guild_id"], channel_id=int(r["channel_id"]), message_id=r["message_id"], ruleset=str(r["ruleset"]),
            options=options, house=r["house"], season_id=r["season_id"], league_table=r["league_table"], players=players,
            status=str(r["status"]), game_id=r["game_id"], created_by=r["created_by"],
        )
    except (ValueError, TypeError, KeyError, AttributeError) as e:
        raise DamagedSheet(f"sheet row {r['id']} is damaged ({e})") from None


async def open_sheet(db: aiosqlite.Connection, channel_id: int) -> SheetRow | None:
    """The channel's open sheet, if any."""
    r = await fetch_one(db, "SELECT * FROM sheets WHERE channel_id = ? AND status = 'open'", (channel_id,))
    return None if r is None else _row(r)


async def entries(db: aiosqlite.Connection, sheet_id: int) -> list[EntryRow]:
    out = []
    for r in await fetch_all(db, "SELECT serial, entry, user_id FROM sheet_entries WHERE sheet_id = ? ORDER BY serial", (sheet_id,)):
        try:
            d = json.loads(r["entry"])
        except (ValueError, TypeError):
            raise DamagedSheet(f"entry {r['serial']} of sheet {sheet_id} is not JSON") from None
        if not isinstance(d, dict):
            raise DamagedSheet(f"entry {r['serial']} of sheet {sheet_id} is not an object")
        out.append(EntryRow(int(r["serial"]), d, r["user_id"]))
    return out


# ---------------------------------------------------------------------------- writes (in repo.write)


def insert_sheet(
    conn: sqlite3.Connection, *, guild_id: int | None, channel_id: int, ruleset: str, options: dict[str, Any], house: str | None,
    season_id: int | None, league_table: int | None, players: Sequence[SheetPlayer], created_by: int | None,
) -> int:
    """A new open sheet; its id. ``sqlite3.IntegrityError`` when the channel has an open one."""
    cur = conn.execute(
        "INSERT INTO sheets (guild_id, channel_id, ruleset, options, house, season_id, league_table, players, created_by, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (
            guild_id, channel_id, ruleset, json.dumps(options), house, season_id, league_table,
            json.dumps([p.to_json() for p in players], ensure_ascii=False), created_by, time.time(),
        ),
    )
    return int(cur.fetchone()[0])


def set_message(conn: sqlite3.Connection, sheet_id: int, message_id: int) -> None:
    conn.execute("UPDATE sheets SET message_id = ? WHERE id = ?", (message_id, sheet_id))


def add_entry(conn: sqlite3.Connection, sheet_id: int, serial: int, entry: dict[str, Any], user_id: int | None) -> None:
    """The sheet's entry number ``serial`` (``sqlite3.IntegrityError`` if another write took it)."""
    conn.execute(
        "INSERT INTO sheet_entries (sheet_id, serial, entry, user_id, created_at) VALUES (?, ?, ?, ?, ?)",
        (sheet_id, serial, json.dumps(entry), user_id, time.time()),
    )


def delete_entry(conn: sqlite3.Connection, sheet_id: int, serial: int) -> int:
    """Delete entry ``serial``; how many rows went (0: it was not there any more)."""
    return conn.execute("DELETE FROM sheet_entries WHERE sheet_id = ? AND serial = ?", (sheet_id, serial)).rowcount


def finish_sheet(conn: sqlite3.Connection, sheet_id: int, game_id: int | None) -> int:
    """Close an open sheet (with the game it was recorded as); rows changed (0: already closed)."""
    return conn.execute(
        "UPDATE sheets SET status = 'finished', game_id = ? WHERE id = ? AND status = 'open'", (game_id, sheet_id)
    ).rowcount


def put_stats(conn: sqlite3.Connection, game_id: int, rows: Sequence[tuple[int, ...]]) -> None:
    """The game's per-seat play statistics (``(seat, hands, wins, deal_ins, riichi, calls, win_points,
    deal_in_points)``), where /stats reads a bot game's."""
    conn.executemany(
        "INSERT INTO game_stats (game_id, seat, hands, wins, deal_ins, riichi, calls, win_points, deal_in_points)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET hands = excluded.hands, wins = excluded.wins,"
        " deal_ins = excluded.deal_ins, riichi = excluded.riichi, calls = excluded.calls, win_points = excluded.win_points,"
        " deal_in_points = excluded.deal_in_points",
        [(game_id, *r) for r in rows],
    )

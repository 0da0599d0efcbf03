"""The audit log: every change an organiser makes to the standings or a club's settings, as JSON
of before and after, written in the same write as the change."""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from dataclasses import dataclass
from typing import Any

from bot.storage.reads import fetch_all

log = logging.getLogger(__name__)


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



class AuditStore:
    """The audit log's reads (a part of the Repository)."""

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


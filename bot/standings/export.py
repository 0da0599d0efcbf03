"""``/season export``: a season's results as CSV, one line per seat of each game, then one line per
penalty or chombo (its points taken off as ``result``, its ``reason`` and who entered it). Works on
a :class:`~bot.standings.service.StandingsService` (``svc``: the season and the repository), which
calls it.
"""

from __future__ import annotations

import csv
import io
import re
import time
from typing import Any

from bot.storage.penalties import season_penalties
from bot.storage.repository import SeasonRow


async def export_csv(svc: Any, guild_id: int | None, season: str | None = None) -> tuple[SeasonRow, str, bytes]:
    """``(the season, a file name, the CSV)``: one line per seat of each game, then one per penalty
    (``source`` penalty or chombo, ``result`` the points taken off, ``reason`` and ``entered_by``)."""
    s = await svc.season(guild_id, season)
    rows = await svc.repo.season_export(s.id)
    buf = io.StringIO()
    cols = ["game", "finished_at", "source", "status", "sticks", "seat", "player", "name", "points", "place", "result", "rating", "rating_delta",
            "reason", "entered_by"]
    w = csv.DictWriter(buf, fieldnames=cols)
    w.writeheader()

    def when(at: Any) -> Any:
        if isinstance(at, int | float) and not isinstance(at, bool) and 0 <= at < 1e11:
            return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(at))
        return at

    for r in rows:
        r = dict(r)
        r["finished_at"] = when(r["finished_at"])
        w.writerow(r)  # a damaged value is written as stored
    for p in await season_penalties(svc.repo.db, s.id):
        w.writerow({"game": p.game_id or "", "finished_at": when(p.at), "source": p.kind, "status": "ok", "player": p.player, "name": p.name,
                    "result": f"{-p.points:g}", "reason": p.reason, "entered_by": f"u:{p.by_id}" if p.by_id else ""})
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", s.name).strip("-") or f"season-{s.id}"
    return s, f"{safe}.csv", buf.getvalue().encode()

"""An in-person league's tables (issue 30): a no-show's stand-in, and which typed-in results its
season takes.

* :func:`substitute`: at table ``n`` of the open round (numbered from 1, as the round's post lists
  them), a stand-in plays an absent member's seat; stored on the round's table row
  (``league_tables.subs``: ``{absent key: [stand-in key, name]}``), with its audit entry. Naming
  the absent member as the stand-in's replacement again takes the stand-in off.
* :func:`credited`: a typed-in result for a league's season must seat exactly the players of one of
  its open round's tables still waiting for a result, a stand-in in the place of the member they
  replace; the result is then credited as the league's rule says (the absent member keeps the seat,
  as at a bot table), so a stand-in never appears in the standings. Any other game is refused: a
  league's season takes only its own tables' results (its bot tables' games come by themselves).

No Discord types; refusals are :class:`~bot.league.errors.LeagueError`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from bot.league.errors import LeagueError
from bot.standings.service import Who
from bot.storage import leagues as sql
from bot.storage import repository as repo_sql
from bot.storage.leagues import LeagueRow, LeagueTableRow
from bot.storage.repository import Repository


async def open_tables(repo: Repository, lg: LeagueRow) -> tuple[int, list[LeagueTableRow]]:
    """``(round number, its in-person tables in order)`` of the league's open round (else a refusal)."""
    r = next((x for x in await sql.rounds(repo.db, lg.id) if x.status == "open"), None)
    if r is None:
        raise LeagueError("'{league}' has no open round", league=lg.name)
    return r.number, [e for e in await sql.round_tables(repo.db, lg.id, r.number) if e.kind == "in_person"]


async def substitute(repo: Repository, lg: LeagueRow, number: int, absent: Who, new: Who, *, actor_id: int | None,
                     at: float) -> bool:
    """``new`` plays ``absent``'s seat at in-person table ``number``; True if it is ``absent`` back."""
    rnd, tables = await open_tables(repo, lg)
    if not 1 <= number <= len(tables):
        raise LeagueError("Round {number} of '{league}' has {n} in-person tables: there is no table {table}",
                          number=rnd, league=lg.name, n=len(tables), table=number)
    e = tables[number - 1]
    if e.game_id is not None:
        raise LeagueError("table {table} already has its result (game #{game})", table=number, game=e.game_id)
    subs = dict(e.subs)
    standing_in = {v[0]: k for k, v in subs.items()}
    back = standing_in.get(absent.player) == new.player  # the stand-in named absent, the member back
    if back:
        subs.pop(new.player)
    else:
        if absent.player not in e.seats or absent.player in subs:
            raise LeagueError("{name} does not play at table {table}", name=absent.name, table=number)
        for other in tables:
            if new.player in other.seats or any(v[0] == new.player for v in other.subs.values()):
                raise LeagueError("{who} already plays in this round", who=new.name)
        subs[absent.player] = [new.player, new.name]

    def write(conn: sqlite3.Connection) -> None:
        sql.set_in_person_subs(conn, e.id, subs)
        repo_sql.audit(conn, guild_id=lg.guild_id, season_id=lg.season_id, actor_id=actor_id, action="league substitute",
                       before={"league": lg.id, "round": rnd, "table": number, "subs": e.subs},
                       after={"league": lg.id, "round": rnd, "table": number, "subs": subs, "at": at})

    await repo.write(write)
    return back


async def credited(repo: Repository, lg: LeagueRow, whos: Sequence[Who]) -> list[Who]:
    """The players a typed-in result of the league's season is credited to (a stand-in replaced by
    the member they stood in for), if one of the open round's waiting tables seats them; else a refusal."""
    if lg.mode != "in_person":
        raise LeagueError("the season '{season}' is the league's: it takes only the results of its own tables, played at the bot",
                          season=lg.name)
    try:
        _, tables = await open_tables(repo, lg)
    except LeagueError:
        raise LeagueError("the season '{season}' takes only the results of its own tables, and its league has no open round",
                          season=lg.name) from None
    given = sorted(w.player for w in whos)
    members = {m.player: m for m in await sql.members(repo.db, lg.id, current=False)}
    for e in tables:
        if e.game_id is not None:
            continue
        instead = {v[0]: k for k, v in e.subs.items()}  # stand-in -> absent member
        if sorted(instead.get(p, p) for p in given) != sorted(p for p in e.seats if p) or any(p in e.subs for p in given):
            continue
        out = []
        for w in whos:
            k = instead.get(w.player)
            if k is None:
                out.append(w)
                continue
            m: Any = members.get(k)
            out.append(Who(k, m.user_id if m else None, m.name if m else k, "user" if k.startswith("u:") else "guest"))
        return out
    raise LeagueError("the season '{season}' takes only the results of its own tables, and no table of its open round "
                      "waiting for a result seats these players", season=lg.name)

"""Damaged standings rows: find them, and say in plain words what is damaged.

A row edited by hand (or by a broken tool) can hold text where a number belongs, an impossible value
or JSON that does not parse. The repository's readers skip a season whose uma does not parse and
type nothing else, so the standings check here, column by column, what they are about to use:

* :func:`read_seasons` reads a club's seasons itself (a season with a bad uma included) and gives
  each one with the columns that are damaged; a damaged column gets a harmless stand-in, so the
  season can still be listed, read and ended while what needs the damaged value is refused;
* :func:`standing_damage`, :func:`history_damage`, :func:`stats_damage` check the summary rows, a
  player's history rows and the cached play statistics;
* :func:`damaged_games` checks a season's games and seats before the ratings are recomputed.

Limits: a season whose ``guild_id`` is damaged no longer belongs to any club and is not found; a seat
whose ``game_id`` is damaged leaves its game one seat short (named as such). Its reads are named functions of bot/storage/games.py.
"""

from __future__ import annotations

import json
import math
import sqlite3
from typing import Any

import aiosqlite

from bot.errors import UserError
from bot.standings.ratings import RATING_SYSTEMS
from bot.standings.types import StandingsError
from bot.storage import games as stored
from bot.storage.repository import HistoryRow, SeasonRow, StandingRow
from engine.rules.base import UnknownRuleset, find_ruleset

# what each column is, for a sentence: "its uma is unreadable"
SEASON_WORDS = {
    "name": "its name",
    "ruleset": "its ruleset",
    "players": "its number of players",
    "start_points": "its start points",
    "return_points": "its return points",
    "uma": "its uma",
    "rating": "its rating system",
    "min_games": "its minimum number of games",
    "ties": "its rule for equal scores",
    "leftover": "its rule for leftover riichi sticks",
    "active": "its running flag",
    "started_at": "its start time",
    "ended_at": "its end time",
    "house": "its house rules name",
    "options": "its house rules",
}
# what results need: a season with one of these damaged takes no new, corrected or voided result
SETTLING = ("ruleset", "players", "start_points", "return_points", "uma", "rating", "ties", "leftover")


def _int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _num(x: Any) -> bool:
    return (isinstance(x, int | float) and not isinstance(x, bool)) and math.isfinite(x)


def _text(x: Any) -> bool:
    return isinstance(x, str) and bool(x.strip())


def _known_ruleset(name: Any) -> bool:
    if not _text(name):
        return False
    try:
        find_ruleset(name)
    except (UnknownRuleset, KeyError, ValueError):
        return False
    return True


def season_from_row(r: Any) -> tuple[SeasonRow, dict[str, str]]:
    """A seasons row as a :class:`SeasonRow` (stand-ins where damaged) and ``{column: plain words}``."""
    bad: dict[str, str] = {}
    players = r["players"] if r["players"] in (3, 4) and _int(r["players"]) else 4
    if players != r["players"]:
        bad["players"] = "not 3 or 4"
    uma: tuple[float, ...] = ()
    try:
        raw = json.loads(r["uma"]) if isinstance(r["uma"], str) else None
        if not isinstance(raw, list) or len(raw) != players or not all(_num(x) for x in raw):
            raise ValueError
        uma = tuple(float(x) for x in raw)
    except ValueError:
        bad["uma"] = f"not a list of {players} numbers"
    for col in ("start_points", "return_points"):
        if not (_int(r[col]) and 0 <= r[col] <= 10_000_000):
            bad[col] = "not a whole number of points"
    if not (_int(r["min_games"]) and r["min_games"] >= 0):
        bad["min_games"] = "not a whole number"
    checks = {
        "name": (_text(r["name"]), "empty or not text"),
        "ruleset": (_known_ruleset(r["ruleset"]), "not a ruleset the bot knows"),
        "rating": (r["rating"] in RATING_SYSTEMS, "not " + ", ".join(RATING_SYSTEMS[:-1]) + " or " + RATING_SYSTEMS[-1]),
        "ties": (r["ties"] in ("seat", "split"), "neither seat nor split"),
        "leftover": (r["leftover"] in ("first", "none"), "neither first nor none"),
        "active": (r["active"] in (0, 1) and not isinstance(r["active"], str), "neither 0 nor 1"),
        "started_at": (_num(r["started_at"]), "not a time"),
        "ended_at": (r["ended_at"] is None or _num(r["ended_at"]), "not a time"),
    }
    keys = set(r.keys())
    options: dict[str, Any] = {}
    if "options" in keys:  # schema version 7: the house rules it started with
        checks["house"] = (r["house"] is None or _text(r["house"]), "not text")
        try:
            raw_options = json.loads(r["options"]) if isinstance(r["options"], str) else None
            if not isinstance(raw_options, dict):
                raise ValueError
            options = raw_options
        except ValueError:
            bad["options"] = "not a JSON object"
    for col, (ok, why) in checks.items():
        if not ok:
            bad[col] = why
    season = SeasonRow(
        id=r["id"], guild_id=r["guild_id"],
        name=r["name"] if "name" not in bad else f"season #{r['id']}",
        ruleset=r["ruleset"] if "ruleset" not in bad else "?",
        players=players,
        start_points=r["start_points"] if "start_points" not in bad else 0,
        return_points=r["return_points"] if "return_points" not in bad else 0,
        uma=uma,
        rating=r["rating"] if "rating" not in bad else "unknown",
        min_games=r["min_games"] if "min_games" not in bad else 0,
        ties=r["ties"] if "ties" not in bad else "split",
        leftover=r["leftover"] if "leftover" not in bad else "none",
        active=bool(r["active"]) if "active" not in bad else False,
        started_at=float(r["started_at"]) if "started_at" not in bad else 0.0,
        ended_at=float(r["ended_at"]) if r["ended_at"] is not None and "ended_at" not in bad else None,
        house=r["house"] if "options" in keys and "house" not in bad else None,
        options=options,
    )
    return season, bad


async def read_seasons(db: aiosqlite.Connection, guild_id: int | None) -> list[tuple[SeasonRow, dict[str, str]]]:
    """Every season of a club in the order they were started, damaged ones included."""
    return [season_from_row(r) for r in await stored.club_season_rows(db, guild_id)]


def seasons_in(conn: sqlite3.Connection, guild_id: int | None) -> list[tuple[SeasonRow, dict[str, str]]]:
    """:func:`read_seasons` inside a write (on the writer thread)."""
    return [season_from_row(r) for r in stored.club_season_rows_in(conn, guild_id)]


def season_damage_text(season: SeasonRow, bad: dict[str, str]) -> str:
    """``its uma is not a list of 4 numbers and its rating system is …``."""
    parts = [f"{SEASON_WORDS.get(c, c)} is {why}" for c, why in bad.items()]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


STANDING_WORDS = {
    "name": "the name",
    "games": "the number of games",
    "points_total": "the total of final scores",
    "result_total": "the points total",
    "place_total": "the total of places",
    "places": "the count of each place",
    "rating": "the rating",
    "mu": "the rating's mu",
    "sigma": "the rating's sigma",
}


def standing_damage(st: StandingRow) -> dict[str, str]:
    """The damaged fields of a player's summary row of a season (``{field: plain words}``)."""
    bad: dict[str, str] = {}
    if not _text(st.name):
        bad["name"] = "empty or not text"
    if not (_int(st.games) and st.games >= 0):
        bad["games"] = "not a whole number"
    for f in ("points_total", "place_total"):
        if not _int(getattr(st, f)):
            bad[f] = "not a whole number"
    if not _num(st.result_total):
        bad["result_total"] = "not a number"
    if not all(_int(x) and x >= 0 for x in st.places):
        bad["places"] = "not whole numbers"
    if not _num(st.rating):
        bad["rating"] = "not a number"
    for f in ("mu", "sigma"):
        v = getattr(st, f)
        if v is not None and not _num(v):
            bad[f] = "not a number"
    if "games" not in bad and "place_total" not in bad and st.games and not st.games <= st.place_total <= 4 * st.games:
        bad["place_total"] = "impossible for the number of games"
    if "games" not in bad and "places" not in bad and sum(st.places) != st.games:
        bad["places"] = "not adding up to the number of games"
    return bad


def standing_damage_text(bad: dict[str, str]) -> str:
    parts = [f"{STANDING_WORDS.get(c, c)} is {why}" for c, why in bad.items()]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


async def damaged_standings(db: aiosqlite.Connection, season_id: int) -> list[tuple[str, str]]:
    """``(player key, name)`` of the season's summary rows (AI seats aside) whose numbers are not
    numbers or are negative: the leaderboard's own query may leave such a row out, so it is named."""
    return await stored.damaged_standing_keys(db, season_id)


def history_damage(h: HistoryRow, players: int) -> str | None:
    """Why a row of a player's history cannot be used, or None."""
    if not _num(h.finished_at):
        return "its time is not a time"
    if not (_int(h.place) and 1 <= h.place <= players):
        return "the place is impossible"
    if not _int(h.points):
        return "the final score is not a whole number"
    if not _num(h.result):
        return "the result is not a number"
    if h.rating is not None and not _num(h.rating):
        return "the rating is not a number"
    return None


def stats_damage(row: tuple[Any, ...]) -> bool:
    """True if a cached play-statistics row is unusable (it is then computed again from the game)."""
    return len(row) != 7 or not all(_int(x) and x >= 0 for x in row)


async def damaged_games(db: aiosqlite.Connection, season_id: int, players: int) -> dict[int, str]:
    """``{game id: what is damaged}`` for the season's games (all but the void ones) whose rows cannot be used."""
    out: dict[int, str] = {}
    seats: dict[int, list[Any]] = {}
    games, rows = await stored.unvoided_game_rows(db, season_id)
    for r in rows:
        seats.setdefault(r["game_id"], []).append(r)
    for g in games:
        why = _game_damage(g, seats.get(g["id"], []), players)
        if why:
            out[int(g["id"])] = why
    return out


def _game_damage(g: Any, seats: list[Any], players: int) -> str | None:
    if g["status"] != "ok":
        return "its status is neither ok nor void"
    if not _num(g["finished_at"]):
        return "its time is not a time"
    if not (_int(g["sticks"]) and 0 <= g["sticks"] <= 1000):
        return "its number of riichi sticks is not a whole number"
    try:
        data = json.loads(g["data"] or "{}") if isinstance(g["data"], str | None) else None
        if not isinstance(data, dict):
            raise ValueError
    except ValueError:
        return "its details are not readable JSON"
    if len(seats) != players:
        return f"it has {len(seats)} seats instead of {players}"
    keys = []
    for s in seats:
        if not (_int(s["seat"]) and 0 <= s["seat"] < players):
            return "a seat number is impossible"
        where = f"seat {s['seat']}"
        if not _text(s["player"]) or s["kind"] not in ("user", "guest", "ai"):
            return f"the player at {where} is unreadable"
        if not (_int(s["place"]) and 1 <= s["place"] <= players):
            return f"the place at {where} is impossible"
        if not (_int(s["points"]) and abs(s["points"]) <= 10_000_000):
            return f"the final score at {where} is not a whole number"
        if not _num(s["result"]):
            return f"the result at {where} is not a number"
        for col in ("rating", "rating_delta", "mu", "sigma"):
            if s[col] is not None and not _num(s[col]):
                return f"the {col.replace('_', ' ')} at {where} is not a number"
        if not isinstance(s["name"], str):
            return f"the name at {where} is not text"
        keys.append(s["player"])
    if len(set(keys)) != len(keys):
        return "the same player sits twice"
    return None


async def read_season(db: aiosqlite.Connection, season_id: int) -> tuple[SeasonRow, dict[str, str]] | None:
    """One season by id (damaged or not), or None if there is no such row."""
    r = await stored.season_row(db, season_id)
    return season_from_row(r) if r is not None else None


def season_in(conn: sqlite3.Connection, season_id: int) -> tuple[SeasonRow, dict[str, str]] | None:
    """:func:`read_season` inside a write (on the writer thread)."""
    r = stored.season_row_in(conn, season_id)
    return season_from_row(r) if r is not None else None


async def game_header(db: aiosqlite.Connection, game_id: int) -> tuple[Any, Any, Any] | None:
    """``(guild_id, season_id, status)`` of a game as stored, for a game whose other rows are damaged."""
    return await stored.game_header(db, game_id)


def season_refusal(s: SeasonRow, bad: dict[str, str], doing: str | None = None) -> StandingsError:
    """One sentence: what of the season is damaged (the row check's English, for the bot's host),
    what still works, what an organiser can do (``doing``, a catalog phrase such as
    :data:`bot.standings.service.ADDING`: what the damage refuses)."""
    kw = {"season": s.name, "what": season_damage_text(s, bad), "row": s.id}
    if doing is not None:
        return StandingsError(
            "{doing} is not possible: the season '{season}' is damaged in the database ({what}). Its standings can still be read; "
            "an organiser can end it with /season end and start a new one, and the bot's host can repair row {row} of the seasons table",
            doing=UserError(doing), **kw,
        )
    if any(c in SETTLING for c in bad):
        return StandingsError(
            "the season '{season}' is damaged in the database: {what}. Its standings can still be read, but no result can be added "
            "to it or changed; an organiser can end it with /season end and start a new one, and the bot's host can repair row "
            "{row} of the seasons table", **kw,
        )
    if "active" in bad:
        return StandingsError(
            "the season '{season}' is damaged in the database: {what}. It counts as not running; an organiser can end it with "
            "/season end and start a new one, and the bot's host can repair row {row} of the seasons table", **kw,
        )
    if "min_games" in bad:
        return StandingsError(
            "the season '{season}' is damaged in the database: {what}. Everything else of it works; every player is listed "
            "meanwhile, and the bot's host can repair row {row} of the seasons table", **kw,
        )
    return StandingsError(
        "the season '{season}' is damaged in the database: {what}. Everything else of it works, and the bot's host can repair "
        "row {row} of the seasons table", **kw,
    )

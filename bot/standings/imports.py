"""Recording games from log files (``/result import``): a Tenhou XML / tenhou.net/6 / mjai /
Majiang log (the bot's own exports too) replayed by the engine, its players mapped to members or
guests, its games stored in the season in one write. ``import_log`` works on a
:class:`~bot.standings.service.StandingsService` (``svc``: its seasons, settling and rating), which
calls it; a league's season takes no imported game.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.house import rule_differences, rules_of
from bot.i18n import N_
from bot.standings.types import StandingsError, Who
from bot.storage import repository as sql
from bot.storage.leagues import league_season_ids
from bot.storage.repository import GameRow

SEATS = "ESWN"
#: what a damaged season stops, as the refusal names it
IMPORTING = N_("importing this log")


async def import_log(
    svc: Any, guild_id: int | None, actor_id: int | None, text: str, filename: str, *, names: str = "",
    resolve: Callable[[str], Who] | None = None, known_member: Callable[[str], Who | None] | None = None, season: str | None = None,
) -> list[GameRow]:
    """Record the game(s) of a Tenhou XML / tenhou.net/6 / mjai / Majiang log (also the bot's own
    exports). The engine replays the log, and the scores recorded are the replay's, which the
    replay checks against the log's own. ``names`` maps log names or seats (E/S/W/N from the
    first dealer) to members or guests: ``"Aさん=<@123>, S=guest:Kana"``; a log name not mapped
    is the member of that name (``known_member``) or else a guest of that name."""
    from engine.logs.detect import parse_any
    from engine.logs.record import LogFormatError

    s = await svc.season(guild_id, season) if season and season.strip() else await svc.default_season(guild_id)
    if not s.active:
        raise StandingsError("the season '{season}' has ended; results can only be added to a running season", season=s.name)
    if s.id in await league_season_ids(svc.repo.db, guild_id):  # its own tables' results only (issue 30)
        raise StandingsError("the season '{season}' is a league's: it takes only its own tables' results, an in-person table's by /result add",
                             season=s.name)
    svc._require_sound(s, IMPORTING)
    digest = hashlib.sha1(text.encode()).hexdigest()
    dup = await svc.repo.find_import(guild_id, digest)
    if dup is not None:
        raise StandingsError("that log was already imported as game #{game}", game=dup)
    try:
        records = parse_any(text, filename)
    except LogFormatError as e:
        raise StandingsError("I could not read that file: {error}", error=str(e)) from None
    mapping = _parse_mapping(names, resolve)
    prepared = []
    for i, rec in enumerate(records):
        prepared.append(await asyncio.to_thread(_replay_for_import, rec))
        several = len(records) > 1  # then the refusal names which game of the file
        got = prepared[-1]
        if isinstance(got, str):
            if several:
                raise StandingsError("that log does not replay (game {game} of the file): {error}", game=i + 1, error=str(got))
            raise StandingsError("that log does not replay: {error}", error=str(got))
        n = len(got.names)
        if n != s.players and several:
            raise StandingsError(
                "the season '{season}' plays {players}-player games, and the log (game {game} of the file) has {n} players",
                season=s.name, players=s.players, game=i + 1, n=n,
            )
        if n != s.players:
            raise StandingsError(
                "the season '{season}' plays {players}-player games, and the log has {n} players", season=s.name, players=s.players, n=n
            )
    out = []
    for i, got in enumerate(prepared):
        assert not isinstance(got, str)
        whos = []
        for seat, log_name in enumerate(got.names):
            w = mapping.get(SEATS[seat]) or mapping.get(log_name.casefold())
            if w is None:
                w = (known_member(log_name) if known_member else None) or Who.guest(log_name or f"seat {SEATS[seat]}")
            whos.append(w)
        keys = [w.player for w in whos]
        dupe = next((w for w in whos if keys.count(w.player) > 1), None)
        if dupe is not None:
            seats = ", ".join(SEATS[j] for j, k in enumerate(keys) if k == dupe.player)
            raise StandingsError(
                "seats {seats} would both be {player}: map them to different players with names:, "
                "e.g. names:\"{first}=guest:{player} A, {last}=guest:{player} B\"",
                seats=seats, player=dupe.name, first=SEATS[keys.index(dupe.player)],
                last=SEATS[len(keys) - 1 - keys[::-1].index(dupe.player)],
            )
        lines = svc._settled(s, whos, got.points, sticks=got.sticks, leftover="none", start_total=got.start_total,
                              ties=s.ties)
        data = {
            "file": filename, "format": got.format, "log_names": list(got.names), "complete": got.complete,
            "sha1": digest, "index": i, "log_ruleset": got.ruleset,
        }
        if s.house is not None and got.rules is not None:
            # whether the log played the season's house rules, and if not how it differs
            try:
                data["house_differences"] = rule_differences(rules_of(s.ruleset, s.options), got.rules)
            except ValueError as e:
                data["house_differences"] = [f"the season's house rules cannot be read ({e})"]
        out.append(GameRow(id=0, guild_id=guild_id, season_id=s.id, table_id=None, source="import", ruleset=got.ruleset,
                           finished_at=svc.clock(), status="ok", sticks=got.sticks, data=data, players=lines))

    def write(conn: sqlite3.Connection) -> None:  # every game of the file, or none
        for g in out:
            g.id = sql.insert_game(conn, g, entered_by=actor_id)
            svc._rate(conn, s, g.id, g.players)
            sql.audit(conn, guild_id=guild_id, season_id=s.id, game_id=g.id, actor_id=actor_id, action="result import",
                      after=g.to_json())

    await svc.repo.write(write)
    return out


def _parse_mapping(names: str, resolve: Callable[[str], Who] | None) -> dict[str, Who]:
    """``"Aさん=<@1>, S=guest:Kana"`` -> {casefolded log name or seat letter: Who}."""
    out: dict[str, Who] = {}
    for part in re.split(r"[;,\n]", names or ""):
        if not part.strip():
            continue
        if "=" not in part:
            raise StandingsError("'{part}' is not a mapping: write log name=player, like Aさん=@alice or S=guest:Kana", part=part.strip())
        key, _, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if value.casefold().startswith("guest:"):
            who = Who.guest(value[6:])
        elif resolve is not None:
            who = resolve(value)
        else:
            raise StandingsError("I do not know the player '{player}'", player=value)
        out[key.upper() if key.upper() in SEATS and len(key) == 1 else key.casefold()] = who
    return out


@dataclass(frozen=True, slots=True)
class _Imported:
    names: tuple[str, ...]  # in seat order from the first dealer
    points: list[int]
    sticks: int
    start_total: int
    complete: bool
    format: str
    ruleset: str
    rules: Any = None  # the Ruleset the log played (compared with a season's house rules)


def _replay_for_import(rec: Any) -> _Imported | str:
    """Replay one record (worker thread); the scores in seat order from the first dealer, or why not."""
    from engine.logs.replay import ReplayReport, replay_record

    report = ReplayReport()
    try:
        game = replay_record(rec, report)
    except Exception as e:  # the engine's log errors are ValueErrors; anything else is reported the same way
        return str(e)
    if report.skipped:
        return report.skipped[0].get("why", "the log is not under standard rules")
    if game is None or not report.ok:
        if report.mismatches:
            m = report.mismatches[0]
            return f"hand {m.hand}: {m.what} (log {m.expected}, engine {m.got})"
        if report.errors:
            return report.errors[0].get("error", "unreadable")
        return "the engine could not replay it"
    n = game.players
    first = rec.hands[0]
    offset = (first.dealer - first.hand_number) % n
    seat_of = [(s - offset) % n for s in range(n)]
    names = tuple(rec.names[s] if s < len(rec.names) else "" for s in range(n))
    if game.over and not game.truncated:
        points = [game.final_scores[seat_of[s]] for s in range(n)]
        sticks, complete = 0, True
    else:
        points = [game.scores[seat_of[s]] for s in range(n)]
        sticks, complete = game.sticks, False
    start_total = sum(first.scores) + 1000 * first.sticks
    return _Imported(names, points, sticks, start_total, complete, rec.format, game.ruleset.name, game.ruleset)

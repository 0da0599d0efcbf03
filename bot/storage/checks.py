"""``db check``: every stored row a reader would have to skip, one line each, in one pass.

:class:`CheckStore` is the part of the Repository that lists them: columns out of their type or
range, bad JSON, action text that does not parse, rows whose table or game is gone, the league
rows (:func:`bot.storage.leagues.check`) and the standings' own (:meth:`CheckStore.check_standings`).
A check lists a row and goes on; it writes nothing.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import Any

import aiosqlite

from bot.storage import leagues
from bot.storage.clubs import CLUB_RULES, HOUSE_RULES, TILE_STYLE_RULES
from bot.storage.columns import CorruptRow, Rule, _int, _shown, bad_columns
from bot.storage.games import GAME_RULES, PLAYER_RULES, PlayerLine
from bot.storage.reads import fetch_all
from bot.storage.tables import ACTION_RULES, SEAT_RULES, TIMER_RULES


class CheckStore:
    """``db check`` (a part of the Repository)."""

    async def check(self) -> list[str]:
        """Every stored row a reader would have to skip, one line each, in one pass that never
        stops at a bad row: a column out of its range or type, bad JSON, action text that does not
        parse, a row whose table or game is gone. (Replaying each table's log through the engine
        is :meth:`bot.tables.TableService.check_logs`.)"""
        from engine.table.actions import Action

        problems: list[str] = []

        async def rows(sql: str) -> list[aiosqlite.Row]:
            try:
                return await fetch_all(self.db, sql)
            except sqlite3.Error as e:
                problems.append(f"{sql.split(' FROM ')[1].split()[0]}: could not be read ({e})")
                return []

        def each(
            found: list[aiosqlite.Row],
            name: str,
            key: Callable[[aiosqlite.Row], str],
            test: Callable[[aiosqlite.Row], str | None],
        ) -> None:
            for r in found:
                try:
                    why = test(r)
                except Exception as e:  # a check must list the row, never stop at it
                    why = f"it could not be checked ({type(e).__name__}: {e})"
                if why:
                    problems.append(f"{name} row {key(r)}: {why}")

        tables = await rows("SELECT * FROM tables ORDER BY id")
        table_ids = {r["id"] for r in tables}

        def table_test(r: aiosqlite.Row) -> str | None:
            try:
                self._table(r)
            except CorruptRow as e:
                return e.why
            return None

        each(tables, "tables", lambda r: str(r["id"]), table_test)

        def owned(
            kind: str, rules: dict[str, Rule], extra: Callable[[aiosqlite.Row], str | None] | None = None
        ) -> Callable[[aiosqlite.Row], str | None]:
            def test(r: aiosqlite.Row) -> str | None:
                whys = (
                    [f"its table #{_shown(r['table_id'])} does not exist"]
                    if r["table_id"] not in table_ids
                    else []
                )
                whys.append(bad_columns(r, rules) or "")
                if not whys[-1] and extra is not None:
                    whys.append(extra(r) or "")
                return "; ".join(w for w in whys if w) or None

            return test

        seats = await rows("SELECT * FROM seats ORDER BY table_id, seat")
        each(
            seats,
            "seats",
            lambda r: f"(table {_shown(r['table_id'])}, seat {_shown(r['seat'])})",
            owned(
                "seats",
                SEAT_RULES,
                lambda r: (
                    "it has neither a player nor an AI" if r["user_id"] is None and r["ai"] is None else None
                ),
            ),
        )
        by_table: dict[Any, list[Any]] = {}
        for r in seats:
            by_table.setdefault(r["table_id"], []).append(r["seat"])
        for tid, numbers in by_table.items():
            if (
                tid in table_ids
                and all(_int(n) for n in numbers)
                and sorted(numbers) != list(range(len(numbers)))
            ):
                problems.append(
                    f"seats of table {tid}: the seats are {sorted(numbers)}, not 0 to {len(numbers) - 1}"
                )

        def action_text(r: aiosqlite.Row) -> str | None:
            try:
                Action.parse(r["action"])
            except ValueError as e:
                return f"its action {_shown(r['action'])} does not parse ({e})"
            return None

        actions = await rows("SELECT * FROM actions ORDER BY table_id, serial")
        each(
            actions,
            "actions",
            lambda r: f"(table {_shown(r['table_id'])}, serial {_shown(r['serial'])})",
            owned("actions", ACTION_RULES, action_text),
        )
        serials: dict[Any, list[Any]] = {}
        for r in actions:
            serials.setdefault(r["table_id"], []).append(r["serial"])
        for tid, numbers in serials.items():
            ints = sorted(n for n in numbers if _int(n))
            gap = next((i for i, n in enumerate(ints) if n != i), None)
            if tid in table_ids and gap is not None:
                problems.append(
                    f"actions of table {tid}: move {gap} is missing, so the moves after it cannot be replayed"
                )

        timers = await rows("SELECT * FROM timers ORDER BY table_id")
        each(timers, "timers", lambda r: f"(table {_shown(r['table_id'])})", owned("timers", TIMER_RULES))

        games = await rows("SELECT * FROM games ORDER BY id")
        game_ids = {r["id"] for r in games}

        def game_test(r: aiosqlite.Row) -> str | None:
            why = bad_columns(r, GAME_RULES)
            if why is None and r["table_id"] is not None and r["table_id"] not in table_ids:
                why = f"its table #{r['table_id']} does not exist"
            return why

        each(games, "games", lambda r: str(r["id"]), game_test)
        recorded = {r["table_id"] for r in games}
        for r in tables:
            if r["status"] == "finished" and r["id"] not in recorded:
                problems.append(
                    f"tables row {r['id']}: the table is finished but no games row records its game"
                )

        def player_test(r: aiosqlite.Row) -> str | None:
            whys = (
                [f"its game #{_shown(r['game_id'])} does not exist (deleted while its players remain)"]
                if r["game_id"] not in game_ids
                else []
            )
            whys.append(bad_columns(r, PLAYER_RULES) or "")
            return "; ".join(w for w in whys if w) or None

        players = await rows("SELECT * FROM game_players ORDER BY game_id, seat")
        each(
            players,
            "game_players",
            lambda r: f"(game {_shown(r['game_id'])}, seat {_shown(r['seat'])})",
            player_test,
        )
        houses = await rows("SELECT * FROM house_rules ORDER BY id")
        house_ids = {r["id"] for r in houses}
        each(houses, "house_rules", lambda r: str(r["id"]), lambda r: bad_columns(r, HOUSE_RULES))

        def club_test(r: aiosqlite.Row) -> str | None:
            why = bad_columns(r, CLUB_RULES)
            if why is None and r["default_house"] is not None and r["default_house"] not in house_ids:
                why = f"its default profile #{r['default_house']} does not exist"
            return why

        each(
            await rows("SELECT * FROM club_settings ORDER BY guild_id"),
            "club_settings",
            lambda r: _shown(r["guild_id"]),
            club_test,
        )

        try:
            problems += await leagues.check(self.db)
        except Exception as e:  # listed, never fatal
            problems.append(f"the leagues could not be checked ({type(e).__name__}: {e})")
        each(
            await rows("SELECT * FROM tile_styles ORDER BY guild_id, user_id"),
            "tile_styles",
            lambda r: f"(server {_shown(r['guild_id'])}, user {_shown(r['user_id'])})",
            lambda r: bad_columns(r, TILE_STYLE_RULES),
        )
        try:
            problems += await self.check_standings()
        except Exception as e:  # the standings' own checks: listed, never fatal
            problems.append(f"the standings could not be checked ({type(e).__name__}: {e})")
        return problems


    async def check_standings(self) -> list[str]:
        """Standings rows a reader skips: seasons with a bad uma, impossible games, bad audit JSON."""
        problems: list[str] = []
        try:
            seasons = await fetch_all(self.db, "SELECT * FROM seasons")
        except aiosqlite.OperationalError:
            return problems  # a version-1 database: nothing of the standings yet
        for r in seasons:
            try:
                self._season(r)
            except CorruptRow as e:
                problems.append(str(e))
        lines: dict[int, list[PlayerLine]] = {}
        for x in await fetch_all(self.db, "SELECT * FROM game_players ORDER BY game_id, seat"):
            lines.setdefault(x["game_id"], []).append(self._line(x))
        for r in await fetch_all(self.db, "SELECT * FROM games"):
            try:
                self._game(r, lines.get(r["id"], []))
            except CorruptRow as e:
                if not e.columns and "JSON" not in e.why:  # bad columns and data JSON: listed by check()
                    problems.append(str(e))
            except (TypeError, ValueError):
                pass  # a column of the wrong type: check() lists it, column by column
        for r in await fetch_all(self.db, "SELECT id, before, after FROM audit_log"):
            for col in ("before", "after"):
                try:
                    if r[col] is not None:
                        json.loads(r[col])
                except ValueError as e:
                    problems.append(f"audit_log row {r['id']}: bad {col} JSON ({e})")
        return problems


"""A club's house rules and preferences: house-rule profiles, the club's settings (default
profile, tile style, language), each player's tile style and Discord locale. Row types, column
rules, reads (:class:`ClubStore`, a part of the Repository) and the steps of a write."""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.storage.columns import (
    _ID,
    _ID_OR_NULL,
    CorruptRow,
    Rule,
    _assignments,
    _json_object,
    _number,
    _one_of,
    _shown,
    _text,
    bad_columns,
)
from bot.storage.reads import fetch_all, fetch_one

log = logging.getLogger(__name__)

HOUSE_RULES: dict[str, Rule] = {
    "id": _ID,
    "guild_id": _ID,
    "name": _text(nonempty=True),
    "base": _text(nonempty=True),
    "options": (_json_object, "a JSON object"),
    "created_by": _ID_OR_NULL,
    "created_at": _number(),
    "updated_at": _number(),
}
#: the tile styles a club or a player may choose (bot.render.tiles.STYLES; storage does not import
#: the renderer, a test keeps the two the same)
TILE_STYLES = ("faces", "letters")
_STYLE_OR_NULL: Rule = (lambda v: v is None or v in TILE_STYLES), "one of " + ", ".join(TILE_STYLES) + " or empty"
CLUB_RULES: dict[str, Rule] = {
    "guild_id": _ID,
    "default_house": _ID_OR_NULL,
    "tile_style": _STYLE_OR_NULL,
    "language": (lambda v: v is None or v in ("ja", "en"), "ja, en or empty"),
}
TILE_STYLE_RULES: dict[str, Rule] = {"guild_id": _ID, "user_id": _ID, "style": _one_of(*TILE_STYLES)}
HOUSE_COLUMNS = frozenset(HOUSE_RULES) - {"id", "guild_id"}


@dataclass(slots=True)
class HouseRow:
    """A club's house-rule profile as stored: its base ruleset's name and the options it changes
    (``Ruleset.options_dict()``); the house service turns it into a ruleset."""

    id: int
    guild_id: int
    name: str
    base: str
    options: dict[str, Any]
    created_by: int | None
    created_at: float
    updated_at: float

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "base": self.base, "options": self.options}



class ClubStore:
    """House rules, club settings, tile styles, languages (a part of the Repository)."""

    # ---------------------------------------------------------------- house rules (schema version 7)

    @staticmethod
    def house_row(r: Any) -> HouseRow:
        """A ``house_rules`` row, every column checked (:class:`CorruptRow` names what is wrong;
        whether the engine can play it is the house service's check)."""
        why = bad_columns(r, HOUSE_RULES)
        if why:
            raise CorruptRow("house_rules", r["id"], why, columns=True)
        options = json.loads(r["options"] or "{}")
        return HouseRow(
            id=r["id"],
            guild_id=r["guild_id"],
            name=r["name"],
            base=r["base"],
            options=options,
            created_by=r["created_by"],
            created_at=r["created_at"],
            updated_at=r["updated_at"],
        )

    async def house_rows(self, guild_id: int | None) -> list[Any]:
        """The club's ``house_rules`` rows as stored (unchecked: the house service checks each), by id."""
        return await fetch_all(self.db, "SELECT * FROM house_rules WHERE guild_id = ? ORDER BY id", (guild_id,))

    async def default_house_id(self, guild_id: int | None) -> Any:
        """The id of the club's default profile as stored (None when it has none)."""
        r = await fetch_one(self.db, "SELECT default_house FROM club_settings WHERE guild_id = ?", (guild_id,))
        return r[0] if r is not None else None

    # ---------------------------------------------------------------- tile styles

    async def tile_styles(self) -> tuple[dict[int, str], dict[tuple[int, int], str]]:
        """Every club's default tile style (guild -> style) and every player's own ((guild, user)
        -> style); a row whose values are not a style is left out with a warning (``db check``
        lists it)."""
        clubs: dict[int, str] = {}
        players: dict[tuple[int, int], str] = {}
        for r in await fetch_all(self.db, "SELECT guild_id, tile_style FROM club_settings WHERE tile_style IS NOT NULL"):
            if bad_columns(r, CLUB_RULES) is None:
                clubs[r["guild_id"]] = r["tile_style"]
            else:
                log.warning("club_settings row of server %s: %s", _shown(r["guild_id"]), bad_columns(r, CLUB_RULES))
        for r in await fetch_all(self.db, "SELECT * FROM tile_styles"):
            why = bad_columns(r, TILE_STYLE_RULES)
            if why is None:
                players[(r["guild_id"], r["user_id"])] = r["style"]
            else:
                log.warning("tile_styles row (server %s, user %s): %s", _shown(r["guild_id"]), _shown(r["user_id"]), why)
        return clubs, players

    # ---------------------------------------------------------------- languages

    async def club_language(self, guild_id: int | None) -> Any:
        """The club's default language as stored ('ja', 'en', or None when it has none)."""
        r = await fetch_one(self.db, "SELECT language FROM club_settings WHERE guild_id = ?", (guild_id,))
        return r[0] if r is not None else None

    async def set_club_language(self, guild_id: int, language: str | None) -> None:
        def put(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO club_settings (guild_id, language) VALUES (?, ?) "
                "ON CONFLICT(guild_id) DO UPDATE SET language = excluded.language",
                (guild_id, language),
            )

        await self.write(put)

    async def user_locales(self) -> dict[int, str]:
        """Every player's last Discord locale, by user id."""
        return {int(r[0]): str(r[1]) for r in await fetch_all(self.db, "SELECT user_id, locale FROM user_locales")}

    async def set_user_locale(self, user_id: int, locale: str) -> None:
        def put(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO user_locales (user_id, locale) VALUES (?, ?) "
                "ON CONFLICT(user_id) DO UPDATE SET locale = excluded.locale",
                (user_id, locale),
            )

        await self.write(put)


def insert_house(
    conn: sqlite3.Connection,
    guild_id: int,
    name: str,
    base: str,
    options: Mapping[str, Any],
    created_by: int | None,
) -> int:
    """A new profile row; its id (the unique index refuses a second profile of the same name)."""
    now = time.time()
    cur = conn.execute(
        "INSERT INTO house_rules (guild_id, name, base, options, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
        " RETURNING id",
        (
            guild_id,
            name,
            base,
            json.dumps(dict(options), sort_keys=True, ensure_ascii=False),
            created_by,
            now,
            now,
        ),
    )
    return int(cur.fetchone()[0])


def set_house(conn: sqlite3.Connection, house_id: int, **fields: Any) -> None:
    """Set columns of a profile's row (each keyword one of :data:`HOUSE_COLUMNS`); ``updated_at`` is now."""
    fields = {**fields, "updated_at": time.time()}
    sets = _assignments("house_rules", HOUSE_COLUMNS, fields)
    if "options" in fields:
        fields["options"] = json.dumps(fields["options"], sort_keys=True, ensure_ascii=False)
    conn.execute(f"UPDATE house_rules SET {sets} WHERE id = ?", (*fields.values(), house_id))


def delete_house(conn: sqlite3.Connection, house_id: int) -> None:
    """Delete a profile; a club whose default it was has no default any more."""
    conn.execute("UPDATE club_settings SET default_house = NULL WHERE default_house = ?", (house_id,))
    conn.execute("DELETE FROM house_rules WHERE id = ?", (house_id,))


def set_default_house(conn: sqlite3.Connection, guild_id: int, house_id: int | None) -> Any:
    """Make a profile the club's default (None: no default); the previous default's id as stored."""
    r = conn.execute("SELECT default_house FROM club_settings WHERE guild_id = ?", (guild_id,)).fetchone()
    conn.execute(
        "INSERT INTO club_settings (guild_id, default_house) VALUES (?, ?) ON CONFLICT(guild_id) DO UPDATE SET default_house = excluded.default_house",
        (guild_id, house_id),
    )
    return r[0] if r is not None else None


def set_club_tile_style(conn: sqlite3.Connection, guild_id: int, style: str | None) -> Any:
    """The club's default tile style (None: the bot's); the previous one as stored."""
    r = conn.execute("SELECT tile_style FROM club_settings WHERE guild_id = ?", (guild_id,)).fetchone()
    conn.execute(
        "INSERT INTO club_settings (guild_id, tile_style) VALUES (?, ?) ON CONFLICT(guild_id) DO UPDATE SET tile_style = excluded.tile_style",
        (guild_id, style),
    )
    return r[0] if r is not None else None


def set_player_tile_style(conn: sqlite3.Connection, guild_id: int, user_id: int, style: str | None) -> None:
    """A player's own tile style in a server (None: the club's again)."""
    if style is None:
        conn.execute("DELETE FROM tile_styles WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
    else:
        conn.execute(
            "INSERT INTO tile_styles (guild_id, user_id, style) VALUES (?, ?, ?) ON CONFLICT(guild_id, user_id) DO UPDATE SET style = excluded.style",
            (guild_id, user_id, style),
        )




def house_options_in(conn: sqlite3.Connection, house_id: int) -> Any:
    """A profile's options JSON as stored (None if the profile is gone), inside a write."""
    r = conn.execute("SELECT options FROM house_rules WHERE id = ?", (house_id,)).fetchone()
    return r[0] if r is not None else None


async def every_house_row(db: Any) -> list[Any]:
    """Every club's ``house_rules`` rows as stored (unchecked), by id (``db check``)."""
    return await fetch_all(db, "SELECT * FROM house_rules ORDER BY id")

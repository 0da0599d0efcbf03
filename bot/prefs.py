"""The tile style of the pictures, per club and per player (``/prefs tiles``, ``/prefs club_tiles``).

A club's default (none set: the bot's, "faces") draws the pictures everyone in the channel sees
(the table, results); a player's own choice in that server (none: the club's) draws the pictures
only they see (their hand, their seat's view, their look-ups). Both are read once at start-up into
memory, so a picture asks for its style without a database read; a change is stored first, then
kept. Limits: a style set by hand in the database is seen after a restart.
"""

from __future__ import annotations

import sqlite3

from bot.errors import UserError
from bot.render.tiles import STYLES, Style
from bot.storage import repository as sql
from bot.storage.repository import Repository

__all__ = ["DEFAULT_STYLE", "PrefsError", "TileStyles"]

DEFAULT_STYLE: Style = "faces"


class PrefsError(UserError, ValueError):
    """A choice that cannot be stored; the message is the plain sentence the user sees."""

    full_stop = True


class TileStyles:
    """Each club's and each player's tile style; :meth:`load` before use."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self._clubs: dict[int, Style] = {}
        self._players: dict[tuple[int, int], Style] = {}

    async def load(self) -> None:
        clubs, players = await self.repo.tile_styles()
        self._clubs = {g: s for g, s in clubs.items() if s in STYLES}  # type: ignore[misc]
        self._players = {k: s for k, s in players.items() if s in STYLES}  # type: ignore[misc]

    def club(self, guild_id: int | None) -> Style:
        """The style of the pictures the club's channel sees."""
        return self._clubs.get(guild_id, DEFAULT_STYLE) if guild_id is not None else DEFAULT_STYLE

    def own(self, guild_id: int | None, user_id: int | None) -> Style | None:
        """The player's own choice in that server (None: they follow the club)."""
        if guild_id is None or user_id is None:
            return None
        return self._players.get((guild_id, user_id))

    def player(self, guild_id: int | None, user_id: int | None) -> Style:
        """The style of the pictures only this player sees: their own choice, else the club's."""
        return self.own(guild_id, user_id) or self.club(guild_id)

    async def set_player(self, guild_id: int | None, user_id: int, style: str | None) -> None:
        """Store the player's choice (None: follow the club again)."""
        gid = _server(guild_id)
        choice = _style(style)

        def write(conn: sqlite3.Connection) -> None:
            sql.set_player_tile_style(conn, gid, user_id, choice)

        await self.repo.write(write)
        if choice is None:
            self._players.pop((gid, user_id), None)
        else:
            self._players[(gid, user_id)] = choice

    async def set_club(self, guild_id: int | None, actor_id: int | None, style: str | None) -> None:
        """Store the club's default (None: the bot's), with an audit line naming who changed it."""
        gid = _server(guild_id)
        choice = _style(style)

        def write(conn: sqlite3.Connection) -> None:
            old = sql.set_club_tile_style(conn, gid, choice)
            sql.audit(conn, guild_id=gid, actor_id=actor_id, action="tile style", before={"tile_style": old}, after={"tile_style": choice})

        await self.repo.write(write)
        if choice is None:
            self._clubs.pop(gid, None)
        else:
            self._clubs[gid] = choice


def _server(guild_id: int | None) -> int:
    if guild_id is None:
        raise PrefsError("the tile style is chosen per server: use /prefs in a server's channel")
    return guild_id


def _style(style: str | None) -> Style | None:
    if style is None:
        return None
    if style not in STYLES:
        raise PrefsError("the tile style is one of {styles}, not {style}", styles=", ".join(STYLES), style=repr(style))
    return style  # type: ignore[return-value]

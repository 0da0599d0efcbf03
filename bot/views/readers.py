"""Who reads a table's messages, and so in which language and tile style each is made: the club's
for what its channel shows, the player's own for their hand (:class:`Readers`)."""

from __future__ import annotations

from typing import Any, Protocol

from bot.i18n import DEFAULT, Lang
from bot.tables import Table


class _Locales(Protocol):
    async def of_club(self, guild_id: int | None) -> Lang: ...

    def of_user(self, user_id: int | None) -> Lang: ...


class _Styles(Protocol):
    def club(self, guild_id: int | None) -> str | None: ...

    def player(self, guild_id: int | None, user_id: int | None) -> str | None: ...


class Readers:
    """``locales`` (:class:`bot.locales.Locales`) and ``prefs`` (:class:`bot.prefs.TileStyles`),
    None where the bot has none (tests): English, the default tiles."""

    def __init__(self, locales: _Locales | Any | None = None, prefs: _Styles | Any | None = None) -> None:
        self.locales = locales
        self.prefs = prefs

    async def club_lang(self, t: Table) -> Lang:
        """The language of what the table's channel shows (the club's; :class:`bot.locales.Locales`
        keeps it after its first read, so an update costs no storage read)."""
        return DEFAULT if self.locales is None else await self.locales.of_club(t.row.guild_id)

    def seat_lang(self, t: Table, seat: int) -> Lang:
        """The language of a player's own hand message: the locale they last used."""
        return DEFAULT if self.locales is None else self.locales.of_user(t.seats[seat].user_id)

    def tile_style(self, t: Table, seat: int | None = None) -> str | None:
        """The tile style of a picture of ``t``: the player's at ``seat`` for a picture only they
        see, the club's for one the channel sees (:mod:`bot.prefs`)."""
        if self.prefs is None:
            return None
        return self.prefs.club(t.row.guild_id) if seat is None else self.prefs.player(t.row.guild_id, t.seats[seat].user_id)

"""Whose language a message is in: the locale each player last used, and each club's default.

A reply to an interaction is in the asker's own language (:func:`bot.i18n.lang_of` of its
``locale``). A message nobody asked for just now is in a remembered one: a direct message a timer
sends is in the language its player last used (:meth:`Locales.of_user`, noted from every
interaction the bot answers and kept in the ``user_locales`` table), and a message every player of
a table shares (the table message in the channel) is in the club's default language
(:meth:`Locales.of_club`, the ``club_settings.language`` column; English when none is set).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bot.i18n import DEFAULT, LANGS, Lang, lang_of
from bot.storage.repository import Repository

log = logging.getLogger(__name__)


class Locales:
    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self._users: dict[int, str] = {}
        self._clubs: dict[int | None, Lang] = {}
        self._saving: set[asyncio.Task[None]] = set()

    async def load(self) -> None:
        self._users = await self.repo.user_locales()

    def noted(self, user_id: int, locale: Any) -> None:
        """The locale an interaction of ``user_id`` came with; stored when it changed (rarely)."""
        value = str(getattr(locale, "value", locale) or "")
        if not value or self._users.get(user_id) == value:
            return
        self._users[user_id] = value
        task = asyncio.get_running_loop().create_task(self._save(user_id, value))
        self._saving.add(task)  # held until done: a task nobody holds may be collected
        task.add_done_callback(self._saving.discard)

    async def _save(self, user_id: int, value: str) -> None:
        try:
            await self.repo.set_user_locale(user_id, value)
        except Exception:  # only the memory of a language: never worth failing a click for
            log.warning("could not store the locale of user %s", user_id, exc_info=True)

    def of_user(self, user_id: int | None) -> Lang:
        """The language ``user_id`` last used (English for a player never seen)."""
        if user_id is None or user_id not in self._users:
            return DEFAULT
        return lang_of(self._users[user_id])

    async def of_club(self, guild_id: int | None) -> Lang:
        if guild_id not in self._clubs:
            stored = await self.repo.club_language(guild_id)
            self._clubs[guild_id] = stored if stored in LANGS else DEFAULT
        return self._clubs[guild_id]

    async def set_club(self, guild_id: int, lang: Lang) -> None:
        await self.repo.set_club_language(guild_id, lang)
        self._clubs[guild_id] = lang

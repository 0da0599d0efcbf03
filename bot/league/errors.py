"""The league's refusal: :class:`LeagueError`, one plain sentence (its own module so the league's
helpers can raise it without importing the service)."""

from __future__ import annotations

from bot.errors import UserError


class LeagueError(UserError):
    """A league request refused; one plain sentence."""

    full_stop = True

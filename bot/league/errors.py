"""The league's refusal: :class:`LeagueError`, one plain sentence (its own module so the league's
helpers can raise it without importing the service), and :func:`_clean`, typed text checked as stored."""

from __future__ import annotations

from bot.errors import UserError


class LeagueError(UserError):
    """A league request refused; one plain sentence."""

    full_stop = True


def _clean(text: str, what: str, limit: int) -> str:
    """Typed text as stored: spaces collapsed, 1 to ``limit`` characters of printable text.
    ``what`` (a catalog message, ``N_("a league's name")``) is put in the reader's language too."""
    out = " ".join(text.split())
    named = UserError(what)  # a field that is a refusal is read in the reader's language
    if not out or len(out) > limit:
        raise LeagueError("{what} needs 1 to {limit} characters", what=named, limit=limit)
    try:
        out.encode("utf-8")
    except UnicodeEncodeError:
        raise LeagueError("{what} has characters that are not text", what=named) from None
    if any(not ch.isprintable() for ch in out):
        raise LeagueError("{what} has control characters", what=named)
    return out

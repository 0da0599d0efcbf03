"""The standings' plain values: who a player is (:class:`Who`: a member, a guest or an AI seat),
one typed-in line of a result (:class:`Entry`), and the refusals (:class:`StandingsError`; a game
whose stored rows cannot be read, :class:`_DamagedGame`). Kept apart from the service so the
leagues, the penalties and the pages can use them without importing it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.errors import UserError
from bot.i18n import N_


class StandingsError(UserError):
    """A request the standings refuse; the message is a plain sentence for the user."""

    full_stop = True


class _DamagedGame(StandingsError):
    """A game whose stored rows cannot be read (the message says so); void can still take it out.
    (Sentences about damage name the damage itself, ``why``, in the row check's English: it is
    for the bot's host.)"""

    def __init__(self, game_id: int, season_id: Any, why: str) -> None:
        super().__init__(_DAMAGED_GAME, game=game_id, why=why)
        self.game_id = game_id
        self.season_id = season_id


_DAMAGED_GAME = N_(
    "game #{game} is damaged in the database ({why}): it cannot be read or corrected; an organiser can "
    "take it out with /result void game:{game} and enter it again with /result add"
)


@dataclass(frozen=True, slots=True)
class Who:
    """A player as the standings know them: a member, a guest or an AI seat."""

    player: str  # identity key: u:<id>, g:<case-folded name>, ai:<name>
    user_id: int | None
    name: str
    kind: str  # user | guest | ai

    @classmethod
    def member(cls, user_id: int, name: str) -> Who:
        return cls(f"u:{user_id}", user_id, name, "user")

    @classmethod
    def guest(cls, name: str) -> Who:
        clean = " ".join(name.split())
        if not clean:
            raise StandingsError("a guest needs a name, like guest:Kana")
        if len(clean) > 40:
            raise StandingsError("a guest name can be at most 40 characters long")
        return cls(f"g:{clean.casefold()}", None, clean, "guest")

    @classmethod
    def ai(cls, name: str) -> Who:
        return cls(f"ai:{name}", None, name, "ai")



@dataclass(slots=True)
class Entry:
    """One typed-in line of a result: who, and their final score."""

    who: Who
    score: int

"""Rating systems and the recomputation of a season's ratings from its list of games.

Three systems, chosen per season:

* ``openskill`` (default): the Plackett-Luce model of the ``openskill`` package on the game's
  places (tied places are equal ranks); the shown rating is the conservative ``mu - 3 sigma``.
* ``points``: the running total of the uma/oka-adjusted results.
* ``tenhou``: Tenhou's R. Everyone starts at 1500; after a game
  ``R += k x (base[place] + (table average R - R) / 40)``, ``base`` = +30/+10/-10/-30 (4 players) or
  +30/0/-30 (3 players), ``k`` = 1 - 0.002 x games played before this one, or 0.2 from 400 games on.
  The table average includes the player's own R. Players tied with ``ties="split"`` share the mean
  of their places' bases.

Everything here is pure: :func:`recompute` folds a game list into each game's rating changes, and
the incremental update after one game is the same fold applied to one more game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

RATING_SYSTEMS = ("openskill", "points", "tenhou")
TENHOU_BASE = {4: (30.0, 10.0, -10.0, -30.0), 3: (30.0, 0.0, -30.0)}


@dataclass(frozen=True, slots=True)
class RatingState:
    rating: float
    games: int = 0
    mu: float | None = None
    sigma: float | None = None


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's line in a game, as a rating system needs it."""

    player: str
    place: int
    result: float


class RatingSystem:
    name = ""

    def initial(self) -> RatingState:
        raise NotImplementedError

    def update(self, states: Sequence[RatingState], seats: Sequence[Seat]) -> list[RatingState]:
        raise NotImplementedError


class PointsRating(RatingSystem):
    name = "points"

    def initial(self) -> RatingState:
        return RatingState(0.0)

    def update(self, states: Sequence[RatingState], seats: Sequence[Seat]) -> list[RatingState]:
        return [RatingState(round(st.rating + s.result, 3), st.games + 1) for st, s in zip(states, seats)]


class TenhouRating(RatingSystem):
    name = "tenhou"

    def initial(self) -> RatingState:
        return RatingState(1500.0)

    @staticmethod
    def change(own: float, table_average: float, base: float, games_before: int) -> float:
        k = 0.2 if games_before >= 400 else 1 - games_before * 0.002
        return k * (base + (table_average - own) / 40)

    def update(self, states: Sequence[RatingState], seats: Sequence[Seat]) -> list[RatingState]:
        n = len(seats)
        table = TENHOU_BASE[n]
        avg = sum(st.rating for st in states) / n
        out = []
        for st, s in zip(states, seats):
            tied = sum(1 for o in seats if o.place == s.place)
            base = sum(table[s.place - 1 : s.place - 1 + tied]) / tied
            out.append(RatingState(st.rating + self.change(st.rating, avg, base, st.games), st.games + 1))
        return out


class OpenSkillRating(RatingSystem):
    name = "openskill"

    def __init__(self) -> None:
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()

    def initial(self) -> RatingState:
        mu, sigma = self.model.mu, self.model.sigma
        return RatingState(mu - 3 * sigma, 0, mu, sigma)

    def update(self, states: Sequence[RatingState], seats: Sequence[Seat]) -> list[RatingState]:
        m = self.model
        teams = [[m.create_rating([st.mu if st.mu is not None else m.mu, st.sigma if st.sigma is not None else m.sigma])] for st in states]
        rated = m.rate(teams, ranks=[float(s.place) for s in seats])
        out = []
        for st, team in zip(states, rated):
            r = team[0]
            out.append(RatingState(r.mu - 3 * r.sigma, st.games + 1, r.mu, r.sigma))
        return out


def rating_system(name: str) -> RatingSystem:
    if name == "openskill":
        return OpenSkillRating()
    if name == "points":
        return PointsRating()
    if name == "tenhou":
        return TenhouRating()
    raise ValueError(f"unknown rating system {name!r}; choose one of {', '.join(RATING_SYSTEMS)}")


@dataclass(frozen=True, slots=True)
class RatedGame:
    game_id: int
    seats: tuple[Seat, ...]


def recompute(
    system: RatingSystem, games: Iterable[RatedGame], start: dict[str, RatingState] | None = None
) -> tuple[dict[int, list[RatingState]], dict[str, RatingState]]:
    """Fold ``games`` (in playing order) into every game's states after it, and the final states.

    ``start`` holds the states before the first game (players not in it start fresh)."""
    states: dict[str, RatingState] = dict(start or {})
    after: dict[int, list[RatingState]] = {}
    for g in games:
        before = [states.get(s.player) or system.initial() for s in g.seats]
        new = system.update(before, g.seats)
        for s, st in zip(g.seats, new):
            states[s.player] = st
        after[g.game_id] = new
    return after, states

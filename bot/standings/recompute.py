"""A season's ratings and summary rows recomputed from its stored games (inside a write): from one
game's place on (an edit or a void) or from the start (a rebuild, a guest linked). Works on the
repository's write connection with the season's rating system; the standings service calls it.
"""

from __future__ import annotations

import sqlite3

from bot.standings.ratings import RatingState, RatingSystem, Seat
from bot.storage import repository as sql
from bot.storage.repository import GameRow, PlayerLine, SeasonRow, StandingRow


def add_line(st: StandingRow, p: PlayerLine) -> None:
    """Count one seat of a game in a player's summary row."""
    st.games += 1
    st.points_total += p.points
    st.result_total = round(st.result_total + p.result, 3)
    st.place_total += p.place
    while len(st.places) < 4:
        st.places.append(0)
    st.places[p.place - 1] += 1


def recompute(conn: sqlite3.Connection, season: SeasonRow, system: RatingSystem, *, from_game: GameRow | None) -> None:
    """Ratings from ``from_game``'s place in the season on (all of them for None), then the
    season's summary rows (in a write). Games before it keep their stored ratings, which are the start."""
    games = sql.season_games_in(conn, season.id)
    start_at = 0
    if from_game is not None:
        key = (from_game.finished_at, from_game.id)
        start_at = next((i for i, g in enumerate(games) if (g.finished_at, g.id) >= key), len(games))
    states: dict[str, RatingState] = {}
    for g in games[:start_at]:
        for p in g.players:
            prev = states.get(p.player)
            count = (prev.games if prev else 0) + 1
            if p.rating is None:  # a stored rating is missing: recompute everything instead
                return recompute(conn, season, system, from_game=None)
            states[p.player] = RatingState(p.rating, count, p.mu, p.sigma)
    rows: list[tuple[float | None, float | None, float | None, float | None, int, int]] = []
    for g in games[start_at:]:
        before = [states.get(p.player) or system.initial() for p in g.players]
        after = system.update(before, [Seat(p.player, p.place, p.result) for p in g.players])
        for p, b, a in zip(g.players, before, after):
            states[p.player] = a
            p.rating, p.rating_delta, p.mu, p.sigma = a.rating, a.rating - b.rating, a.mu, a.sigma
            rows.append((a.rating, p.rating_delta, a.mu, a.sigma, g.id, p.seat))
    sql.set_ratings(conn, rows)
    summary: dict[str, StandingRow] = {}
    for g in games:
        for p in g.players:
            st = summary.get(p.player)
            if st is None:
                st = summary[p.player] = StandingRow(season.id, p.player, p.user_id, p.name, p.kind)
            st.name, st.user_id, st.kind = p.name, p.user_id, p.kind
            add_line(st, p)
    for player, st in summary.items():
        final = states[player]
        st.rating, st.mu, st.sigma = final.rating, final.mu, final.sigma
    sql.put_standings(conn, list(summary.values()), replace_season=season.id)

"""Seating a league round: who plays whom (issue 20), a pure function of the league so far.

``seat_round(players, size, history, ...)`` splits the registered players into tables of the
ruleset's size. Three ways, the league's choice:

* ``shuffle`` — the fewest repeated opponent pairs over the league so far: a local search over
  swaps between tables, minimising for each pair seated together the times they already met
  (a pair that met twice costs more than two pairs that met once), from several seeded starts,
  within a time budget. Deterministic for a given seed.
* ``swiss`` — players grouped by standing (the best four together, and so on); then swaps between
  neighbouring tables where a repeat avoided is worth more than the move away from the standing's
  table (players at a table's edge of the standing move first; the leader stays at the top).
* ``fixed`` — an organiser's list of tables, or teams kept apart (no two members of a team at one
  table, as far as the team sizes allow), the rest as in ``shuffle``.

Players left over (the count not a multiple of the table size) either get AI seats (spread so no
table has more than one more AI than another) or sit out a bye (those with the fewest byes so far,
then the lowest standing). Limits: the search is a heuristic; ``repeat_lower_bound`` gives the bound
it is measured against (bench/seating.py). No I/O, no clock except the search budget.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Literal

Player = Hashable
Seating = Literal["shuffle", "swiss", "fixed"]
Leftover = Literal["ai", "bye"]


class SeatingError(ValueError):
    """One sentence for the organiser: a catalog message and its fields (``str()``: the English);
    the league service hands both on to its refusal, which puts them in the reader's language."""

    def __init__(self, msgid: str, /, **kw: Any) -> None:
        self.msgid = msgid
        self.kw = kw
        super().__init__(msgid.format(**kw) if kw else msgid)


@dataclass
class Round:
    tables: list[list[Player | None]]  # None = an AI seat
    byes: list[Player] = field(default_factory=list)


def pair(a: Player, b: Player) -> tuple[Player, Player]:
    return (a, b) if repr(a) <= repr(b) else (b, a)


def met_counts(rounds: Iterable[Sequence[Sequence[Player | None]]]) -> Counter[tuple[Player, Player]]:
    """How many times each pair of players sat at one table (AI seats are nobody)."""
    out: Counter[tuple[Player, Player]] = Counter()
    for tables in rounds:
        for table in tables:
            people = [p for p in table if p is not None]
            for a, b in combinations(people, 2):
                out[pair(a, b)] += 1
    return out


def repeats(met: Mapping[tuple[Player, Player], int]) -> int:
    """Repeated opponent pairs: every meeting of a pair after their first."""
    return sum(max(0, m - 1) for m in met.values())


def repeat_lower_bound(players: int, size: int, rounds: int) -> int:
    """Fewest repeats any seating of ``players`` (a multiple of ``size``, everyone seated every
    round) can reach over ``rounds``: the larger of three counts. Pairs: a round seats
    tables*C(size,2) pairs and only C(players,2) pairs exist. Per player: each meets
    (size-1)*rounds opponents among players-1. Pigeonhole: a table of a later round draws its
    ``size`` players from the first round's tables, so it holds at least the pairs of the most even
    spread."""
    if size < 2 or players < size or players % size:
        raise SeatingError("the bound is for a player count that fills whole tables")
    tables = players // size
    meetings = rounds * tables * math.comb(size, 2)
    per_player = max(0, (size - 1) * rounds - (players - 1))
    q, r = divmod(size, tables)
    same = r * math.comb(q + 1, 2) + (tables - r) * math.comb(q, 2)
    return max(
        0, meetings - math.comb(players, 2), math.ceil(players * per_player / 2), (rounds - 1) * tables * same
    )


def seat_round(
    players: Sequence[Player],
    size: int,
    history: Iterable[Sequence[Sequence[Player | None]]] = (),
    *,
    how: Seating = "shuffle",
    leftover: Leftover = "ai",
    standing: Sequence[Player] = (),
    teams: Mapping[Player, Hashable] | None = None,
    fixed_tables: Sequence[Sequence[Player]] | None = None,
    byes_so_far: Mapping[Player, int] | None = None,
    seed: int = 0,
    budget: float = 0.5,
) -> Round:
    """One round's tables. ``standing`` ranks players best first (swiss, byes); ``teams`` maps a
    player to a team kept apart (fixed); ``fixed_tables`` is an organiser's list (fixed)."""
    people = list(dict.fromkeys(players))
    if len(people) != len(players):
        raise SeatingError("a player is listed twice")
    if size < 2:
        raise SeatingError("a table needs at least 2 seats")
    if not people:
        raise SeatingError("nobody is registered for this round")
    past = list(history)
    met = met_counts(past)
    if how == "fixed" and fixed_tables is not None:
        return _organisers_list(people, size, fixed_tables)
    rank = {p: i for i, p in enumerate(standing)}
    byes: list[Player] = []
    if leftover == "bye":
        extra = len(people) % size
        if extra:
            done = byes_so_far or {}
            order = sorted(people, key=lambda p: (done.get(p, 0), -rank.get(p, -1)))
            byes = order[:extra]
            people = [p for p in people if p not in byes]
        if not people:
            raise SeatingError("fewer than {size} players: nobody can be seated", size=size)
    n_tables = math.ceil(len(people) / size)
    rng = random.Random(seed)
    if how == "swiss":
        ordered = sorted(people, key=lambda p: rank.get(p, len(rank)))
        tables = _deal(ordered, n_tables)
        tables = _improve(tables, met, rng, budget, band=1, team=None, rank=rank, size=size)
    else:
        team = teams if how == "fixed" else None
        best: list[list[Player]] | None = None
        best_cost = math.inf
        deadline = time.perf_counter() + budget
        starts = 0
        while starts == 0 or time.perf_counter() < deadline:
            shuffled = people[:]
            rng.shuffle(shuffled)
            if team is not None:
                shuffled.sort(key=lambda p: str(team.get(p, "")))  # teams dealt round the tables
            cand = _improve(
                _deal(shuffled, n_tables),
                met,
                rng,
                max(0.0, deadline - time.perf_counter()) / 2,
                band=None,
                team=team,
            )
            cost = _cost(cand, met, team)
            starts += 1
            if cost < best_cost:
                best, best_cost = cand, cost
            if cost == 0:
                break
        assert best is not None
        tables = best
    seated: list[list[Player | None]] = [list(t) for t in tables]
    for t in seated:
        t.extend([None] * (size - len(t)))
    return Round(tables=seated, byes=byes)


def _deal(order: Sequence[Player], n_tables: int) -> list[list[Player]]:
    """Consecutive blocks, AI seats (the shortfall) spread one per table from the last."""
    sizes = [len(order) // n_tables + (1 if i < len(order) % n_tables else 0) for i in range(n_tables)]
    out, i = [], 0
    for s in sizes:
        out.append(list(order[i : i + s]))
        i += s
    return out


def _table_cost(
    table: Sequence[Player],
    met: Mapping[tuple[Player, Player], int],
    team: Mapping[Player, Hashable] | None,
    where: tuple[int, Mapping[Player, int], int] | None = None,
) -> float:
    c = 0.0
    if where is not None:  # swiss: how far each player sits from their standing's table
        i, rank, size = where
        for p in table:
            off = abs((rank.get(p, len(rank)) + 0.5) / size - (i + 0.5))
            c += 8 * max(0.0, off - 0.5)  # a boundary player moved one table costs less than a repeat
    for a, b in combinations(table, 2):
        m = met.get(pair(a, b), 0)
        c += m * m * 4  # meeting a third time costs more than two pairs meeting a second time
        if team is not None and a in team and team.get(a) == team.get(b):
            c += 1000
    return c


def _cost(
    tables: Sequence[Sequence[Player]],
    met: Mapping[tuple[Player, Player], int],
    team: Mapping[Player, Hashable] | None,
) -> float:
    return sum(_table_cost(t, met, team) for t in tables)


def _improve(
    tables: list[list[Player]],
    met: Mapping[tuple[Player, Player], int],
    rng: random.Random,
    budget: float,
    *,
    band: int | None,
    team: Mapping[Player, Hashable] | None,
    rank: Mapping[Player, int] | None = None,
    size: int = 4,
) -> list[list[Player]]:
    """Swap two players of different tables while that lowers the cost (first improvement, in a
    random order each sweep); with ``band``, only between tables at most that far apart."""
    tables = [t[:] for t in tables]

    def where(i: int) -> tuple[int, Mapping[Player, int], int] | None:
        return None if rank is None else (i, rank, size)

    costs = [_table_cost(t, met, team, where(i)) for i, t in enumerate(tables)]
    deadline = time.perf_counter() + budget
    improved = True
    while improved and time.perf_counter() < deadline:
        improved = False
        order = [
            (i, j)
            for i in range(len(tables))
            for j in range(i + 1, len(tables))
            if band is None or j - i <= band
        ]
        rng.shuffle(order)
        for i, j in order:
            if costs[i] == 0 and costs[j] == 0:
                continue
            ti, tj = tables[i], tables[j]
            for a in range(len(ti)):
                for b in range(len(tj)):
                    ti[a], tj[b] = tj[b], ti[a]
                    ci, cj = _table_cost(ti, met, team, where(i)), _table_cost(tj, met, team, where(j))
                    if ci + cj < costs[i] + costs[j]:
                        costs[i], costs[j] = ci, cj
                        improved = True
                    else:
                        ti[a], tj[b] = tj[b], ti[a]
    return tables


def _organisers_list(people: Sequence[Player], size: int, fixed: Sequence[Sequence[Player]]) -> Round:
    listed = [p for t in fixed for p in t]
    unknown = [p for p in listed if p not in set(people)]
    if unknown:
        raise SeatingError("{name} is not registered in this league", name=unknown[0])
    if len(listed) != len(set(listed)):
        raise SeatingError("a player is on the list twice")
    missing = [p for p in people if p not in set(listed)]
    if missing:
        raise SeatingError("{name} is registered but not on the list", name=missing[0])
    if any(not 1 <= len(t) <= size for t in fixed):
        raise SeatingError("every table on the list needs 1 to {size} players", size=size)
    return Round(tables=[list(t) + [None] * (size - len(t)) for t in fixed])

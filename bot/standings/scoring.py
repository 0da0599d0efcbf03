"""Places and the uma/oka-adjusted result of one game (riichi.md R-2.7 to R-2.9).

Pure functions over plain numbers, so that a bot game, a typed-in result and an imported log are
settled the same way under a season's settings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Settlement:
    places: tuple[int, ...]  # 1-based, per input position; tied players share the best place with ties="split"
    results: tuple[float, ...]  # (points - return) / 1000 + uma + oka, per input position
    points: tuple[int, ...]  # final points (leftover sticks added per the leftover rule)


def settle(
    points: Sequence[int],
    *,
    start_points: int,
    return_points: int,
    uma: Sequence[float],
    ties: str = "seat",
    sticks: int = 0,
    leftover: str = "first",
    start_total: int | None = None,
) -> Settlement:
    """Places and results for ``points`` listed in seat order from the first dealer.

    ``ties="seat"``: equal points rank by seat order (R-2.8); ``ties="split"``: tied players share
    their places' uma and oka equally. ``sticks`` riichi sticks left on the table go to the first
    place (R-2.9, ``leftover="first"``; split among players tied for first) or to nobody
    (``leftover="none"``). Oka = (return - start) x players / 1000, all to the first place; the
    start is ``start_total / players`` when given (an imported game's own start).
    """
    n = len(points)
    if len(uma) != n:
        raise ValueError(f"uma has {len(uma)} values for {n} players")
    final = list(points)
    start = start_points if start_total is None else start_total / n
    oka = (return_points - start) * n / 1000
    bonus = [float(uma[i]) + (oka if i == 0 else 0.0) for i in range(n)]
    order = sorted(range(n), key=lambda s: (-points[s], s))
    groups: list[list[int]] = []
    for s in order:
        if ties == "split" and groups and points[groups[-1][0]] == points[s]:
            groups[-1].append(s)
        else:
            groups.append([s])
    if sticks and leftover == "first":
        top = groups[0]
        each = (sticks * 1000 // len(top)) // 100 * 100
        for s in top:
            final[s] += each
        final[top[0]] += sticks * 1000 - each * len(top)
    places = [0] * n
    results = [0.0] * n
    pos = 0
    for g in groups:
        share = sum(bonus[pos : pos + len(g)]) / len(g)
        for s in g:
            places[s] = pos + 1
            results[s] = round((final[s] - return_points) / 1000 + share, 3)
        pos += len(g)
    return Settlement(tuple(places), tuple(results), tuple(final))

"""Play statistics of bot-played games, from the stored action log replayed through the engine.

For every seat: hands played, hands won, hands dealt into (a ron off that seat's discard; a double
ron counts once), riichi declarations, hands with at least one open call (chi, pon, open kan), the
sum of the hand values won (the hand's points without honba and sticks) and the sum of the hand
values dealt into. Rates are per hand played. ``usable_stats`` reads the cached rows back (a game
with a damaged cached row is left out, to be computed again); ``stats_row`` is a seat's cached row.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.standings.damage import stats_damage
from engine.rules.base import find_ruleset
from engine.table.actions import Action, ActionType
from engine.table.game import Game

log = logging.getLogger(__name__)

A = ActionType
CALLS = (A.CHI, A.PON, A.DAIMINKAN)


@dataclass(slots=True)
class SeatStats:
    hands: int = 0
    wins: int = 0
    deal_ins: int = 0
    riichi: int = 0
    calls: int = 0
    win_points: int = 0
    deal_in_points: int = 0

    def add(self, o: SeatStats) -> None:
        self.hands += o.hands
        self.wins += o.wins
        self.deal_ins += o.deal_ins
        self.riichi += o.riichi
        self.calls += o.calls
        self.win_points += o.win_points
        self.deal_in_points += o.deal_in_points

    def rates(self) -> dict[str, float | None]:
        h = self.hands or 0

        def per(x: int, d: int) -> float | None:
            return x / d if d else None

        return {
            "win_rate": per(self.wins, h),
            "deal_in_rate": per(self.deal_ins, h),
            "riichi_rate": per(self.riichi, h),
            "call_rate": per(self.calls, h),
            "average_win": per(self.win_points, self.wins),
            "average_deal_in": per(self.deal_in_points, self.deal_ins),
        }


def replay(ruleset: str, options: dict[str, Any], seed: str, actions: Iterable[str]) -> Game:
    rs = find_ruleset(ruleset)
    if options:
        rs = rs.with_options(**options)
    g = Game(rs, seed)
    for text in actions:
        g.play(Action.parse(text))
    return g


def game_stats(ruleset: str, options: dict[str, Any], seed: str, actions: Sequence[str]) -> list[SeatStats]:
    """Per-seat statistics of one stored game (replays it; raises ValueError if it does not replay)."""
    rs = find_ruleset(ruleset)
    if options:
        rs = rs.with_options(**options)
    g = Game(rs, seed)
    n = g.players
    called: list[set[int]] = [set()]
    riichi: list[set[int]] = [set()]
    for text in actions:
        a = Action.parse(text)
        hand = len(g.results)
        while len(called) <= hand:
            called.append(set())
            riichi.append(set())
        if a.type in CALLS:
            called[hand].add(a.seat)
        elif a.type is A.RIICHI:
            riichi[hand].add(a.seat)
        g.play(a)
    out = [SeatStats() for _ in range(n)]
    for i, r in enumerate(g.results):
        for s in range(n):
            out[s].hands += 1
        if i < len(called):
            for s in called[i]:
                out[s].calls += 1
            for s in riichi[i]:
                out[s].riichi += 1
        dealt: dict[int, int] = {}
        for w in r.wins:
            out[w.seat].wins += 1
            out[w.seat].win_points += w.score.points
            if r.kind == "ron" and w.from_seat != w.seat:
                dealt[w.from_seat] = dealt.get(w.from_seat, 0) + w.score.points
        for s, pts in dealt.items():
            out[s].deal_ins += 1
            out[s].deal_in_points += pts
    return out


def usable_stats(cached: dict[tuple[int, int], tuple[int, ...]], players: int | None = None) -> dict[int, list[SeatStats]]:
    """Cached per-seat statistics by game; a game with a damaged or missing cached row (one row per
    seat, ``players`` of them when known) is left out: it is then computed again from its action log
    and the cache rewritten."""
    by_game: dict[int, dict[Any, tuple[Any, ...]]] = {}
    for (gid, seat), row in cached.items():
        by_game.setdefault(gid, {})[seat] = row
    out: dict[int, list[SeatStats]] = {}
    for gid, seats in by_game.items():
        want = list(range(players if players else len(seats)))
        if any(not isinstance(k, int) or stats_damage(row) for k, row in seats.items()) or sorted(seats, key=str) != want:
            log.warning("game %s: the cached play statistics are damaged; computing them again", gid)
            continue
        out[gid] = [SeatStats(*seats[k]) for k in range(len(seats))]
    return out


def stats_row(x: SeatStats) -> tuple[int, ...]:
    """A seat's statistics as the cache stores them."""
    return (x.hands, x.wins, x.deal_ins, x.riichi, x.calls, x.win_points, x.deal_in_points)

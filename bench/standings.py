"""Benchmark: the standings of a big club (not a test).

A club with ``--games`` recorded games (50,000 by default) among ``--players`` players (500) in one
season, in a real SQLite file. One tenth are bot games whose per-game play statistics are in the
cache (as they are once ``/stats`` or the end of the game has filled it). It times:

* a full rating recomputation of the season from its game list (openskill, and the two options);
* the service calls behind ``/leaderboard`` (random order and page) and ``/stats`` (random player,
  including the rendered rating chart), p50 / p99 over many calls; for ``/stats`` also the players'
  first calls alone (their chart is drawn; a repeat reads the chart cache) and how late the event
  loop runs meanwhile;
* recording one more typed-in result (validation, places, ratings, summary, audit: one transaction).

Targets: ``/leaderboard`` and ``/stats`` under 200 ms at p99, the full recomputation under 30 s.

    python bench/standings.py [--games 50000] [--players 500] [--calls 300] [--no-write]

The result is written to the ``## bench/standings.py`` section of bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.results import write_section  # noqa: E402
from bot.standings.scoring import settle  # noqa: E402
from bot.standings.service import LEADERBOARD_ORDERS, Entry, StandingsService, Who  # noqa: E402
from bot.storage.repository import GameRow, PlayerLine, Repository, insert_game  # noqa: E402

GUILD = 1


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


class LoopLag:
    """How late a 5 ms sleep wakes up while other work runs: the event loop's responsiveness (the
    chart is drawn in a worker thread, the queries in aiosqlite's)."""

    def __init__(self) -> None:
        self.late: list[float] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._tick())

    async def _tick(self) -> None:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.005)
            self.late.append(1000 * (time.perf_counter() - t - 0.005))

    async def stop(self) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    def p(self, q: float) -> float:
        return pct(self.late, q) if self.late else 0.0


async def build(repo: Repository, season_id: int, games: int, players: int, rng: random.Random) -> None:
    """Insert the games directly (no ratings yet): the recomputation below fills them in."""
    whos = [Who.member(1000 + i, f"player{i:03d}") for i in range(players)]
    t0 = time.time() - games * 60

    def write(conn: sqlite3.Connection) -> None:
        conn.execute(
            "INSERT INTO tables (id, guild_id, channel_id, opener_id, ruleset, seed, status, created_at) VALUES (1, ?, 1, 1, 'riichi', 'x', 'finished', 0)",
            (GUILD,),
        )
        stats_rows = []
        for k in range(games):
            four = rng.sample(whos, 4)
            cuts = sorted(rng.randrange(0, 1001) for _ in range(3))
            pts = [100 * x for x in (cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 1000 - cuts[2])]
            s = settle(pts, start_points=25000, return_points=30000, uma=(20, 10, -10, -20))
            lines = [
                PlayerLine(seat=i, player=w.player, user_id=w.user_id, name=w.name, kind="user", points=s.points[i], place=s.places[i],
                           result=s.results[i])
                for i, w in enumerate(four)
            ]
            bot = k % 10 == 0
            g = GameRow(id=0, guild_id=GUILD, season_id=season_id, table_id=1 if bot else None, source="bot" if bot else "manual",
                        ruleset="riichi", finished_at=t0 + 60 * k, status="ok", sticks=0, data={}, players=lines)
            gid = insert_game(conn, g)
            if bot:
                for seat in range(4):
                    wins, deal = rng.randrange(0, 3), rng.randrange(0, 3)
                    stats_rows.append((gid, seat, 6, wins, deal, rng.randrange(0, 3), rng.randrange(0, 4), 5200 * wins, 3900 * deal))
        conn.executemany("INSERT INTO game_stats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", stats_rows)

    await repo.write(write)


async def run(args: argparse.Namespace, out: list[str]) -> None:
    rng = random.Random(8)
    with tempfile.TemporaryDirectory() as tmp:
        repo = Repository(Path(tmp) / "bench.sqlite3")
        await repo.open()
        st = StandingsService(repo)
        season = await st.start_season(GUILD, 1, "Bench", rating="openskill")
        t = time.perf_counter()
        await build(repo, season.id, args.games, args.players, rng)
        out.append(f"club: {args.games:,} games, {args.players} players, one season; built in {time.perf_counter() - t:.1f} s")

        for system in ("openskill", "points", "tenhou"):
            await repo.write(lambda conn, system=system: conn.execute("UPDATE seasons SET rating = ? WHERE id = ?", (system, season.id)))
            t = time.perf_counter()
            await st.recompute_season(season.id)
            took = time.perf_counter() - t
            out.append(f"full rating recomputation ({system}): {took:.2f} s (target < 30 s)")
        await repo.write(lambda conn: conn.execute("UPDATE seasons SET rating = 'openskill' WHERE id = ?", (season.id,)))
        await st.recompute_season(season.id)

        lb: list[float] = []
        for _ in range(args.calls):
            by = rng.choice(LEADERBOARD_ORDERS)
            page = rng.randrange(0, args.players // 10)
            t = time.perf_counter()
            p = await st.leaderboard(GUILD, None, by, page)
            p.text()
            lb.append(time.perf_counter() - t)
        out.append(f"/leaderboard (service + text): p50 {1000 * statistics.median(lb):.1f} ms, p99 {1000 * pct(lb, 0.99):.1f} ms "
                   f"over {len(lb)} calls (target p99 < 200 ms)")

        stats: list[float] = []
        cold: list[float] = []  # the player's first /stats: the chart is drawn (later ones read the chart cache)
        chart: list[float] = []
        games_seen: list[int] = []
        asked: set[int] = set()
        lag = LoopLag()
        lag.start()
        for _ in range(args.calls):
            i = rng.randrange(args.players)
            who = Who.member(1000 + i, f"player{i:03d}")
            t = time.perf_counter()
            s = await st.player_stats(GUILD, who)
            s.text()
            took = time.perf_counter() - t
            stats.append(took)
            if i not in asked:
                cold.append(took)
                asked.add(i)
            games_seen.append(s.games)
            assert s.chart[:4] == b"\x89PNG" and s.play is not None
        await lag.stop()
        from bot.standings.chart import rating_chart

        for _ in range(30):
            t = time.perf_counter()
            rating_chart([rng.random() for _ in range(400)], title="chart only")
            chart.append(time.perf_counter() - t)
        out.append(f"/stats (service + rating chart PNG): p50 {1000 * statistics.median(stats):.1f} ms, p99 {1000 * pct(stats, 0.99):.1f} ms "
                   f"over {len(stats)} calls, {statistics.mean(games_seen):.0f} games per player (target p99 < 200 ms)")
        out.append(f"  first /stats of a player (chart drawn, not cached): p50 {1000 * statistics.median(cold):.1f} ms, "
                   f"p99 {1000 * pct(cold, 0.99):.1f} ms over {len(cold)} calls")
        out.append(f"  of which the chart alone: p50 {1000 * statistics.median(chart):.1f} ms (400 games, drawn in this thread)")
        out.append(f"  event loop during the /stats calls (a 5 ms sleep wakes late by): p50 {lag.p(0.5):.1f} ms, p99 {lag.p(0.99):.1f} ms, "
                   f"max {lag.p(1.0):.1f} ms")

        add: list[float] = []
        for _ in range(50):
            four = rng.sample(range(args.players), 4)
            entries = [Entry(Who.member(1000 + i, f"player{i:03d}"), s) for i, s in zip(four, (40000, 30000, 20000, 10000))]
            t = time.perf_counter()
            await st.add_result(GUILD, 1, entries)
            add.append(time.perf_counter() - t)
        out.append(f"/result add (one transaction): p50 {1000 * statistics.median(add):.1f} ms, p99 {1000 * pct(add, 0.99):.1f} ms")
        await repo.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=50_000)
    ap.add_argument("--players", type=int, default=500)
    ap.add_argument("--calls", type=int, default=300)
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    out = [
        f"bench/standings.py  {time.strftime('%Y-%m-%d %H:%M')}",
        f"machine: {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"load average at start {os.getloadavg()[0]:.2f} (other processes share the cores)",
    ]
    began = time.perf_counter()
    asyncio.run(run(args, out))
    out.append(f"load average at end {os.getloadavg()[0]:.2f}; total wall time {time.perf_counter() - began:.0f} s")
    text = "\n".join(out)
    print(text)
    if not args.no_write:
        write_section("bench/standings.py", text)


if __name__ == "__main__":
    main()

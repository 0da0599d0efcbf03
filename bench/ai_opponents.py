"""Benchmark: the ``smart`` AI against outside AIs on duplicate deals (``bench/ai.py --opponent``).

Opponents: ``mjai-rulebase`` (the ``mjai`` package's RulebaseBot, its one call-list reset fixed,
as a subprocess in its own venv, bench/mjai_rulebase_bot.py; 4-player only), ``jansou-smart``
(jansou's SmartEfficiencyAgent, in process, bench/jansou_seat.py) and ``riichienv-random``
(riichienv's RandomAgent: a uniform choice among the legal actions, a sanity check).

Each seed (one set of walls) is played 2n times: our AI alone in each seat against n-1 copies
of the opponent, and the opponent alone in each seat against n-1 of ours. Per seed, "ours" is
the average result of our lone seat over its n games and "theirs" that of the opponent's lone
seat; the gap is theirs - ours in placement (positive: ours places better). Confidence intervals
(95 %, normal approximation) take the seed as the unit, so that the seats of one game and the
games of one seed are not counted as independent. Placement points: +90/+45/0/-135 (4p),
+60/0/-60 (sanma). Decision time: wall time of every ``smart`` decision, one process.
"""

from __future__ import annotations

import math
import os
import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from bench.ai import tally
from bench.results import write_section
from bot.ai.policy import smart
from engine.logs.mjai_live import MjaiStream
from engine.rules import find_ruleset
from engine.table.actions import Action
from engine.table.game import Game

OPPONENTS = ("mjai-rulebase", "jansou-smart", "riichienv-random")
PLACE_POINTS = {4: (90, 45, 0, -135), 3: (60, 0, -60)}
MAX_DECISIONS = 50_000


class Seat(Protocol):
    def act(self, game: Game, stream: Any) -> Action: ...

    def close(self) -> None: ...


class OurSeat:
    def __init__(self, seat: int, times: list[float]) -> None:
        self.seat = seat
        self.times = times

    def act(self, game: Game, stream: Any) -> Action:
        t0 = time.perf_counter()
        a = smart(game, self.seat, None)
        self.times.append(time.perf_counter() - t0)
        return a

    def close(self) -> None:
        pass


class RandomSeat:
    """riichienv's RandomAgent, handed our legal actions as its observation's legal actions."""

    def __init__(self, seat: int, seed: int) -> None:
        from riichienv.agents.random_agent import RandomAgent  # type: ignore[import-untyped]

        self.seat = seat
        self.agent = RandomAgent(seed=seed)

    def act(self, game: Game, stream: Any) -> Action:
        legal = list(game.legal_actions(self.seat))

        class _Obs:
            def legal_actions(self) -> list[Action]:
                return legal

        a: Action = self.agent.act(_Obs())  # type: ignore[arg-type]
        return a

    def close(self) -> None:
        pass


def opponent_maker(name: str) -> tuple[Callable[[int, int], Seat], bool]:
    """A function (seat, seed) -> seat player, and whether it needs the mjai event stream."""
    if name == "riichienv-random":
        return RandomSeat, False
    if name == "jansou-smart":
        from bench.opponents_env import import_jansou

        import_jansou()
        from bench.jansou_seat import JansouSeat

        return JansouSeat, True
    if name == "mjai-rulebase":
        from pathlib import Path

        from bench.mjai_driver import MjaiSeat
        from bench.opponents_env import mjai_python

        py = mjai_python()
        script = Path(__file__).resolve().parent / "mjai_rulebase_bot.py"
        return (lambda seat, seed: MjaiSeat([str(py), str(script)], seat)), True
    raise ValueError(f"unknown opponent {name!r}; one of {', '.join(OPPONENTS)}")


@dataclass(frozen=True)
class Record:
    seed: int
    ours: tuple[bool, ...]  # per seat: our AI (True) or the opponent
    places: tuple[int, ...]
    hands: int
    wins: tuple[int, ...]
    deal_ins: tuple[int, ...]
    faults: int
    fault_log: tuple[str, ...] = ()


def play(
    rs_name: str,
    seed: int,
    ours: tuple[bool, ...],
    make: Callable[[int, int], Seat],
    streamed: bool,
    times: list[float],
) -> Record:
    g = Game(find_ruleset(rs_name), seed=seed)
    stream = MjaiStream(g.ruleset, seed, [f"p{s}" for s in range(g.players)]) if streamed else None
    seats: list[Seat] = [OurSeat(s, times) if mine else make(s, seed * 10 + s) for s, mine in enumerate(ours)]
    try:
        decisions = 0
        while not g.over:
            s = g.to_act()[0]
            g.apply(seats[s].act(g, stream))
            decisions += 1
            if decisions > MAX_DECISIONS:
                raise RuntimeError(f"game seed {seed} {ours} did not end")
    finally:
        for p in seats:
            p.close()
    places, wins, deal_ins = tally(g)
    faults = sum(getattr(p, "faults", 0) for p in seats)
    log = tuple(line for p in seats for line in getattr(p, "fault_log", ()))
    return Record(seed, ours, places, len(g.results), wins, deal_ins, faults, log)


def seatings(n: int) -> list[tuple[bool, ...]]:
    lone_ours = [tuple(s == i for s in range(n)) for i in range(n)]
    lone_theirs = [tuple(s != i for s in range(n)) for i in range(n)]
    return lone_ours + lone_theirs


def mean_ci(xs: list[float]) -> tuple[float, float]:
    m = statistics.fmean(xs)
    return m, (1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf)


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else math.nan


def summarize(
    name: str, rs_name: str, n: int, records: list[Record], times: list[float], secs: float
) -> list[str]:
    pts = PLACE_POINTS[n]
    by_seed: dict[int, list[Record]] = {}
    for r in records:
        by_seed.setdefault(r.seed, []).append(r)
    per: dict[str, dict[str, list[float]]] = {w: {"place": [], "points": []} for w in ("ours", "theirs")}
    tallies = {w: [0, 0, 0] for w in ("ours", "theirs")}  # wins, deal-ins, hands of the lone seat
    for group in by_seed.values():
        acc: dict[str, list[int]] = {"ours": [], "theirs": []}
        for r in group:
            lone_is_ours = sum(r.ours) == 1
            who = "ours" if lone_is_ours else "theirs"
            s = r.ours.index(lone_is_ours)
            acc[who].append(r.places[s])
            tallies[who][0] += r.wins[s]
            tallies[who][1] += r.deal_ins[s]
            tallies[who][2] += r.hands
        for who in acc:
            per[who]["place"].append(statistics.fmean(acc[who]))
            per[who]["points"].append(statistics.fmean(pts[p - 1] for p in acc[who]))
    games = len(records)
    faults = sum(r.faults for r in records)
    lines = [
        f"{name} ({rs_name}, {n}p, hanchan, Tenhou rules): {games} games ({len(by_seed)} seeds x {2 * n}"
        f" seatings) in {secs:.0f} s, {sum(r.hands for r in records)} hands",
        f"  {'lone seat':<16} {'avg place':>9} {'95% CI':>16} {'place pts':>9} {'95% CI':>18}"
        f" {'win/hand':>9} {'deal-in/hand':>13}",
    ]
    for who, label in (("ours", "ours"), ("theirs", name)):
        m, h = mean_ci(per[who]["place"])
        pm, ph = mean_ci(per[who]["points"])
        w, d, hands = tallies[who]
        lines.append(
            f"  {label:<16} {m:>9.3f} {f'[{m - h:.3f}, {m + h:.3f}]':>16} {pm:>+9.1f}"
            f" {f'[{pm - ph:+.1f}, {pm + ph:+.1f}]':>18} {w / hands:>9.3f} {d / hands:>13.3f}"
        )
    gap, gh = mean_ci([t - o for o, t in zip(per["ours"]["place"], per["theirs"]["place"])])
    pgap, pgh = mean_ci([o - t for o, t in zip(per["ours"]["points"], per["theirs"]["points"])])
    om, tm = statistics.fmean(per["ours"]["place"]), statistics.fmean(per["theirs"]["place"])
    lines += [
        f"  duplicate gap per seed (theirs - ours, place): {gap:+.3f} [{gap - gh:+.3f}, {gap + gh:+.3f}];"
        f" placement points ours - theirs: {pgap:+.1f} [{pgap - pgh:+.1f}, {pgap + pgh:+.1f}]",
        f"  our decision time: p50 {1000 * _pct(times, 0.5):.2f} ms, p99 {1000 * _pct(times, 0.99):.2f} ms,"
        f" max {1000 * max(times):.1f} ms ({len(times)} decisions)",
    ]
    if name == "mjai-rulebase":
        lines.append(
            "  mjai-rulebase = mjai 0.2.1 RulebaseBot with one fix: its list of calls is cleared at each"
            " start_kyoku (the published bot clears it only at start_game)"
        )
        lines.append(
            f"  illegal or missing answers from the mjai program (replaced by tsumogiri/pass): {faults}"
        )
        lines += [f"    e.g. {line}" for r in records for line in r.fault_log][:3]
    lines.append(
        f"ai vs {name}: ours {om:.3f} vs {tm:.3f} (CI of the gap {gap:+.3f} [{gap - gh:+.3f}, {gap + gh:+.3f}]),"
        f" {games} games"
    )
    return lines


def run(name: str, rs_name: str, games: int, write: bool) -> int:
    rs = find_ruleset(rs_name)
    n = rs.players
    if name == "mjai-rulebase" and n != 4:
        text = (
            f"command: python bench/ai.py --opponent {name} --ruleset {rs_name} (from the repository root),"
            f" {time.strftime('%Y-%m-%d %H:%M')}\n"
            f"ai vs {name}: not measurable in {rs_name}: mjai's bots (libriichi's PlayerState) play 4-player only"
        )
        print(text)
        if write:
            write_section(f"bench/ai.py --opponent {name} --ruleset {rs_name}", text)
        return 2
    make, streamed = opponent_maker(name)
    Game(rs, seed=0)  # load the shanten tables before timing
    arr = seatings(n)
    seeds = math.ceil(games / len(arr))
    times: list[float] = []
    records: list[Record] = []
    load_start = os.getloadavg()[0]
    t0 = time.perf_counter()
    for seed in range(seeds):
        for ours in arr:
            records.append(play(rs_name, seed, ours, make, streamed, times))
    secs = time.perf_counter() - t0
    head = [
        f"bench/ai.py --opponent {name} --ruleset {rs_name}  {time.strftime('%Y-%m-%d %H:%M')}",
        f"command: python bench/ai.py --opponent {name} --ruleset {rs_name} --games {games}"
        " (from the repository root)",
        f"machine: nproc={os.cpu_count()}, Python {platform.python_version()}, load {load_start:.2f} at the"
        f" start, {os.getloadavg()[0]:.2f} at the end (1 min; other work shared the machine), one process",
        "",
    ]
    body = summarize(name, rs_name, n, records, times, secs)
    text = "\n".join(head + body)
    print(text)
    if write:
        write_section(f"bench/ai.py --opponent {name} --ruleset {rs_name}", text)
    return 0


__all__ = ["OPPONENTS", "run"]

"""Benchmark: full games of random legal play, and replay of the real logs (not a test).

Same agent rule for both engines: at every decision, a uniform random choice among the legal
actions (seeded). Our engine is timed against RiichiEnv (PyPI ``riichienv``, a Rust engine) in the
same process, in alternating slices so machine load hits both alike; it prints decisions/s,
games/s and the ratio. Then it replays every game in ``shared/data/logs`` and prints hands per
minute (parsing included).

    python bench/sim.py [--seconds 20] [--no-write]

The result is written to the ``## bench/sim.py`` section of bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.results import write_section  # noqa: E402
from engine.hand.shanten import calculator  # noqa: E402
from engine.rules import find_ruleset  # noqa: E402
from engine.table.game import Game  # noqa: E402


def ours_slice(seconds: float, seed0: int, mode: str) -> tuple[int, int, float]:
    rs = find_ruleset("sanma") if mode == "sanma" else find_ruleset("riichi")
    rng = random.Random(seed0)
    decisions = games = 0
    t0 = time.perf_counter()
    seed = seed0
    while time.perf_counter() - t0 < seconds:
        g = Game(rs, seed=seed)
        seed += 1
        while not g.over:
            s = g.to_act()[0]
            g.apply(rng.choice(list(g.legal_actions(s))))
            decisions += 1
        games += 1
    return decisions, games, time.perf_counter() - t0


def riichienv_slice(seconds: float, seed0: int, mode: str) -> tuple[int, int, float] | None:
    try:
        from riichienv import RiichiEnv
    except ImportError:
        return None
    rng = random.Random(seed0)
    decisions = games = 0
    t0 = time.perf_counter()
    seed = seed0
    game_mode = "3p-red-half" if mode == "sanma" else "4p-red-half"
    while time.perf_counter() - t0 < seconds:
        env = RiichiEnv(game_mode=game_mode, seed=seed, skip_mjai_logging=True)
        seed += 1
        obs = env.reset()
        while not env.done():
            acts = {pid: rng.choice(o.legal_actions()) for pid, o in obs.items()}
            decisions += len(acts)
            obs = env.step(acts)
        games += 1
    return decisions, games, time.perf_counter() - t0


def replay_rate() -> tuple[int, int, int, float, float]:
    """(games, hands, exact, seconds to parse every file, seconds to replay the parsed games)."""
    from engine.logs.replay import ReplayReport, iter_records, replay_record

    logs = ROOT.parent / "shared" / "data" / "logs"
    report = ReplayReport()
    t0 = time.perf_counter()
    records = list(iter_records([logs], report))
    t1 = time.perf_counter()
    for rec in records:
        replay_record(rec, report)
    t2 = time.perf_counter()
    return report.games, report.hands, report.hands_exact, t1 - t0, t2 - t1


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=20.0, help="timed seconds per engine per mode")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    calculator()  # table load is not part of the rate
    lines = [
        f"bench/sim.py  {time.strftime('%Y-%m-%d %H:%M')}",
        f"machine: nproc={os.cpu_count()}, Python {platform.python_version()}, load {os.getloadavg()[0]:.2f}",
        "agent: uniform random choice among legal actions (seeded), whole games (hanchan)",
        "",
        f"{'mode':<7} {'engine':<22} {'decisions/s':>12} {'games/s':>9} {'ratio ours/riichienv':>21}",
    ]
    slices = 4
    for mode in ("4p", "sanma"):
        tot = {"ours": [0, 0, 0.0], "riichienv": [0, 0, 0.0]}
        have_peer = True
        for i in range(slices):
            d, g, t = ours_slice(args.seconds / slices, 1000 * i, mode)
            tot["ours"][0] += d
            tot["ours"][1] += g
            tot["ours"][2] += t
            peer = riichienv_slice(args.seconds / slices, 1000 * i, mode)
            if peer is None:
                have_peer = False
                continue
            tot["riichienv"][0] += peer[0]
            tot["riichienv"][1] += peer[1]
            tot["riichienv"][2] += peer[2]
        ours_rate = tot["ours"][0] / tot["ours"][2]
        lines.append(f"{mode:<7} {'jantaku (pure Python)':<22} {ours_rate:>12,.0f} {tot['ours'][1] / tot['ours'][2]:>9.1f}")
        if have_peer:
            peer_rate = tot["riichienv"][0] / tot["riichienv"][2]
            ratio = ours_rate / peer_rate
            target = " (target >= 0.33: MET)" if ratio >= 1 / 3 else " (target >= 0.33: NOT MET)"
            lines.append(
                f"{mode:<7} {'riichienv (Rust)':<22} {peer_rate:>12,.0f} {tot['riichienv'][1] / tot['riichienv'][2]:>9.1f}"
                f" {ratio:>20.2f}{target if mode == '4p' else ''}"
            )
        else:
            lines.append(f"{mode:<7} riichienv not installed (pip install riichienv): no ratio")
    games, hands, exact, parse_s, replay_s = replay_rate()
    per_min = hands / replay_s * 60
    both = hands / (parse_s + replay_s) * 60
    lines += [
        "",
        f"replay of shared/data/logs: {games} games, {hands} hands ({exact} exact)",
        f"  parsing every file: {parse_s:.1f} s; replaying the parsed games: {replay_s:.1f} s",
        f"  replay rate {per_min:,.0f} hands/min (target >= 20,000: {'MET' if per_min >= 20000 else 'NOT MET'});"
        f" with parsing {both:,.0f} hands/min",
    ]
    text = "\n".join(lines)
    print(text)
    if not args.no_write:
        write_section("bench/sim.py", text)
    return 0



if __name__ == "__main__":
    sys.exit(main())

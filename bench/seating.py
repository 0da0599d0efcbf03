"""Benchmark: league seating (bot/league/seating.py) against the best possible (not a test).

Three measurements, printed and written to the ``## bench/seating.py`` section of bench/RESULTS.md:

1. 16 players at 4-seat tables over 8 rounds with ``shuffle``: repeated opponent pairs after each
   round, against the lower bound (``repeat_lower_bound``) and against seating at random (the
   reference: what a club gets by drawing seats), over several seeds.
2. 12 players, 3 rounds: the best possible by exhaustive search (round 1 fixed, which loses no
   generality; every partition for rounds 2 and 3, 5,775 each), against ours.
3. 200 players, 8 rounds: seconds per round (target: under 1 s).

    python bench/seating.py [--seeds 5] [--no-write]
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from itertools import combinations
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.results import write_section  # noqa: E402
from bot.league.seating import met_counts, repeat_lower_bound, repeats, seat_round  # noqa: E402


def random_round(players: list[int], size: int, rng: random.Random) -> list[list[int | None]]:
    p = players[:]
    rng.shuffle(p)
    return [list(p[i : i + size]) for i in range(0, len(p), size)]


def exhaustive_best(n: int, size: int) -> int:
    """Fewest repeats over 3 rounds of n players (n/size tables), by trying every round 2 and 3."""

    def parts(rest: list[int]) -> list[list[tuple[int, ...]]]:
        if not rest:
            return [[]]
        a, out = rest[0], []
        for c in combinations(rest[1:], size - 1):
            g = (a, *c)
            left = [x for x in rest if x not in g]
            out.extend([g, *p] for p in parts(left))
        return out

    index = {pr: i for i, pr in enumerate(combinations(range(n), 2))}
    words = (len(index) + 63) // 64

    def mask(partition: list[tuple[int, ...]]) -> list[int]:
        m = [0] * words
        for g in partition:
            for a, b in combinations(sorted(g), 2):
                i = index[(a, b)]
                m[i // 64] |= 1 << (i % 64)
        return m

    all_parts = parts(list(range(n)))
    masks = np.array([mask(p) for p in all_parts], dtype=np.uint64)  # (P, words)
    first = masks[0]  # round 1 fixed: any seating is a relabelling of this one
    with_first = np.bitwise_count(masks & first).sum(axis=1)  # repeats of each partition vs round 1
    best = 1 << 30
    for j in np.argsort(with_first):  # round 2, fewest repeats first
        r2 = int(with_first[j])
        total = r2 + (with_first + np.bitwise_count(masks & masks[j]).sum(axis=1)).min()
        best = min(best, int(total))
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    lines = [
        f"bench/seating.py  {time.strftime('%Y-%m-%d %H:%M')}",
        f"machine: {platform.python_implementation()} {platform.python_version()}, {platform.machine()}",
        "",
        "### 16 players, 4-seat tables, shuffle: repeated opponent pairs after each round",
        "round  bound  ours(min/mean/max over seeds)  random seats (mean)  ours: most meetings of one pair",
    ]
    players = list(range(16))
    ours: list[list[int]] = [[] for _ in range(8)]
    rand: list[list[int]] = [[] for _ in range(8)]
    most = [0] * 8
    for seed in range(args.seeds):
        hist: list[list[list[int | None]]] = []
        rhist: list[list[list[int | None]]] = []
        rng = random.Random(seed)
        for r in range(8):
            hist.append(seat_round(players, 4, hist, seed=seed * 100 + r).tables)
            rhist.append(random_round(players, 4, rng))
            met = met_counts(hist)
            ours[r].append(repeats(met))
            rand[r].append(repeats(met_counts(rhist)))
            most[r] = max(most[r], max(met.values()))
    for r in range(8):
        o = ours[r]
        lines.append(
            f"{r + 1:>5}  {repeat_lower_bound(16, 4, r + 1):>5}  {min(o):>4} / {sum(o) / len(o):5.1f} / {max(o):>3}"
            f"{sum(rand[r]) / len(rand[r]):>24.1f}  {most[r]:>10}"
        )
    lines += ["", "### 12 players, 3 rounds: exhaustive best vs ours"]
    t0 = time.perf_counter()
    best = exhaustive_best(12, 4)
    t_ex = time.perf_counter() - t0
    ours12 = []
    for seed in range(args.seeds):
        hist = []
        for r in range(3):
            hist.append(seat_round(list(range(12)), 4, hist, seed=seed * 100 + r).tables)
        ours12.append(repeats(met_counts(hist)))
    lines.append(
        f"best possible {best} (exhaustive, {t_ex:.1f} s); lower bound {repeat_lower_bound(12, 4, 3)}; ours {ours12}"
    )
    lines += ["", "### 200 players, 4-seat tables: seconds to seat each round (target < 1 s)"]
    hist = []
    times = []
    for r in range(8):
        t0 = time.perf_counter()
        hist.append(seat_round(list(range(200)), 4, hist, seed=r).tables)
        times.append(time.perf_counter() - t0)
    lines.append(
        f"per round: max {max(times):.3f} s, mean {sum(times) / len(times):.3f} s; repeats after 8 rounds "
        f"{repeats(met_counts(hist))} (bound {repeat_lower_bound(200, 4, 8)})"
    )
    o8 = ours[7]
    lines += [
        "",
        f"seating vs bound: 16 players 8 rounds: ours {min(o8)}-{max(o8)} vs bound {repeat_lower_bound(16, 4, 8)} "
        f"(random seats {sum(rand[7]) / len(rand[7]):.1f}); 12 players 3 rounds: ours {min(ours12)}-{max(ours12)} vs best {best}; "
        f"200 players: {max(times):.3f} s per round",
    ]
    text = "\n".join(lines)
    print(text)
    if not args.no_write:
        write_section("bench/seating.py", text)


if __name__ == "__main__":
    main()

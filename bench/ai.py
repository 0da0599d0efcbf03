"""Benchmark: the ``smart`` AI against the ``greedy`` baseline in self-play (not a test).

Every registered ruleset is played (or those named with ``--rulesets``). For each, every seed is
played once per seating arrangement of a balanced set: with four players each way of seating two
``smart`` and two ``greedy`` players (6 games: each policy holds two seats per game and each seat
half of the time), with three players every arrangement of two of one policy and one of the other
(6 games: each policy nine seats in all, each seat three times). Playing the same seed (the same
walls, as long as the hand sequence agrees) under every arrangement cancels much of the luck of
the deal. The unit of the confidence interval is the seed (its six games together), so that the
dependence between seats of one game and between games of one seed is accounted for.

Game lengths (``LENGTHS``; ``--length short`` or ``full`` for every ruleset): ``riichi`` and
``sanma`` a hanchan (as in earlier runs); the other riichi presets, ``pk``, ``seigou`` and
``shoukou`` a tonpuu (East round only); ``chinitsu_toutenkou`` its own table game
(``ct.table_hands`` = 6 one-hand settlements); ``taiwan16`` one wind round (``taiwan16.rounds``
= 1 instead of 4; the dealer keeps the deal on a draw, so a hand count varies).

Printed per ruleset and policy: average placement (1 = top) with a 95% confidence interval, the
number of games, average final points, win and deal-in rates per hand; then whether ``smart``
beats ``greedy`` (the interval of the placement gap excludes 0). Also the speed of ``smart``
seats (games/s, one process). Games are played on two worker processes. The section of
bench/RESULTS.md is rewritten after every ruleset, so a long run leaves its results so far.

    python bench/ai.py [--games 2016] [--rulesets riichi,pk] [--length default|short|full]
                       [--workers 2] [--no-write]

With ``--opponent NAME`` it plays against an outside AI instead (bench/ai_opponents.py):

    python bench/ai.py --opponent mjai-rulebase|jansou-smart|riichienv-random [--games 400]
                       [--ruleset riichi|sanma] [--no-write]

The result is written to the ``## bench/ai.py`` section of bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import itertools
import math
import multiprocessing as mp
import os
import platform
import random
import re
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.results import RESULTS, write_section  # noqa: E402
from bot.ai.policy import POLICIES  # noqa: E402
from engine.rules import Ruleset, find_ruleset, ruleset_names  # noqa: E402
from engine.table.game import Game  # noqa: E402

POLICY_NAMES = ("smart", "greedy")
MAX_DECISIONS = 50_000  # a game that long is a bug, not a benchmark


def arrangements(players: int) -> list[tuple[str, ...]]:
    """The balanced set of seatings: 4p two of each policy, 3p two of one and one of the other."""
    if players == 4:
        return [
            tuple("smart" if s in pick else "greedy" for s in range(4))
            for pick in itertools.combinations(range(4), 2)
        ]
    out = []
    for many, few in (("smart", "greedy"), ("greedy", "smart")):
        for lone in range(players):
            out.append(tuple(few if s == lone else many for s in range(players)))
    return out


@dataclass(frozen=True)
class GameRecord:
    seed: int
    seating: tuple[str, ...]
    places: tuple[int, ...]  # per seat, 1 = top
    points: tuple[int, ...]  # final scores per seat
    hands: int
    wins: tuple[int, ...]  # hands won per seat
    deal_ins: tuple[int, ...]  # hands dealt in (ron paid) per seat
    decisions: int


# how long a benchmark game lasts per ruleset: "full" (the ruleset's default) or "short"
LENGTHS = {"riichi": "full", "sanma": "full", "chinitsu_toutenkou": "full"}
SPEED_FULL = ("riichi", "sanma")  # speed measured on full games, as in earlier runs


def make_ruleset(name: str, length: str) -> Ruleset:
    """The ruleset as benchmarked: ``short`` is a tonpuu for riichi-style rulesets, one wind
    round for taiwan16; chinitsu_toutenkou's own game is already short (6 hands)."""
    rs = find_ruleset(name)
    if length != "short":
        return rs
    if name == "taiwan16":
        return rs.with_options(tw={"rounds": 1})
    if rs.options.hanchan:
        return rs.with_options(hanchan=False)
    return rs


def length_label(rs: Ruleset, length: str) -> str:
    if rs.name == "taiwan16":
        return f"{rs.tw.rounds} wind round{'s' if rs.tw.rounds > 1 else ''}"  # type: ignore[attr-defined]
    if rs.name == "chinitsu_toutenkou":
        return f"{rs.ct.table_hands} hands"  # type: ignore[attr-defined]
    return "hanchan" if rs.options.hanchan else "tonpuu"


def play(rs: Ruleset, seed: int, seating: tuple[str, ...]) -> GameRecord:
    g = Game(rs, seed=seed)
    rng = random.Random(f"{seed}:{''.join(p[0] for p in seating)}")
    policies = [POLICIES[p] for p in seating]
    decisions = 0
    while not g.over:
        s = g.to_act()[0]
        g.apply(policies[s](g, s, rng))
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError(f"game {rs.name} seed {seed} {seating} did not end")
    places, wins, deal_ins = tally(g)
    return GameRecord(seed, seating, places, tuple(g.final_scores), len(g.results), wins, deal_ins, decisions)


def tally(g: Game) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """A finished game's places (1 = top), hands won and hands dealt in (ron paid), per seat."""
    n = g.players
    places = [0] * n
    for place, s in enumerate(g.ranking()):
        places[s] = place + 1
    wins = [0] * n
    deal_ins = [0] * n
    for r in g.results:
        for w in r.wins:
            wins[w.seat] += 1
        if r.kind == "ron" and r.wins:
            deal_ins[r.wins[0].from_seat] += 1
    return tuple(places), tuple(wins), tuple(deal_ins)


def _play_seed(job: tuple[str, str, int]) -> list[GameRecord]:
    name, length, seed = job
    rs = make_ruleset(name, length)
    return [play(rs, seed, seating) for seating in arrangements(rs.players)]


def mean_ci(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, math.inf
    return m, 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def summarize(name: str, players: int, records: list[GameRecord], secs: float, label: str) -> list[str]:
    by_seed: dict[int, list[GameRecord]] = {}
    for r in records:
        by_seed.setdefault(r.seed, []).append(r)
    lines = [
        f"{label}: {len(records)} games ({len(by_seed)} seeds x {len(arrangements(players))} seatings) "
        f"in {secs:.0f} s, {sum(r.hands for r in records)} hands",
        f"  {'policy':<7} {'avg place':>9} {'95% CI':>15} {'seats':>6} {'avg points':>10} {'win/hand':>9} {'deal-in/hand':>13}",
    ]
    seed_means: dict[str, list[float]] = {}
    for pol in POLICY_NAMES:
        per_seed = []
        seats = points = wins = deal_ins = hands = 0
        for group in by_seed.values():
            places = []
            for r in group:
                for s, p in enumerate(r.seating):
                    if p != pol:
                        continue
                    places.append(r.places[s])
                    seats += 1
                    points += r.points[s]
                    wins += r.wins[s]
                    deal_ins += r.deal_ins[s]
                    hands += r.hands
            per_seed.append(statistics.fmean(places))
        seed_means[pol] = per_seed
        m, h = mean_ci(per_seed)
        lines.append(
            f"  {pol:<7} {m:>9.3f} {f'[{m - h:.3f}, {m + h:.3f}]':>15} {seats:>6} {points / seats:>10,.0f}"
            f" {wins / hands:>9.3f} {deal_ins / hands:>13.3f}"
        )
    gap, h = mean_ci([g - s for s, g in zip(seed_means["smart"], seed_means["greedy"])])
    verdict = (
        "YES"
        if gap - h > 0
        else ("NO (greedy is better)" if gap + h < 0 else "NOT SHOWN (interval includes 0)")
    )
    neutral = (players + 1) / 2
    lines.append(
        f"  placement gap greedy - smart: {gap:+.3f} [{gap - h:+.3f}, {gap + h:+.3f}]"
        f" (neutral average place {neutral:.1f}); smart beats greedy: {verdict}"
    )
    return lines


def speed(rs: Ruleset, games: int) -> tuple[float, float]:
    """Games/s and decisions/s of four (or three) ``smart`` seats, one process, CPU time."""
    smart = POLICIES["smart"]
    decisions = 0
    t0 = time.process_time()
    for seed in range(games):
        g = Game(rs, seed=10_000 + seed)
        while not g.over:
            s = g.to_act()[0]
            g.apply(smart(g, s, None))
            decisions += 1
    secs = time.process_time() - t0
    return games / secs, decisions / secs


def previous_run() -> tuple[str, dict[str, list[str]], dict[str, str]]:
    """The date, per-ruleset blocks and speed lines of the section bench/RESULTS.md holds now."""
    text = RESULTS.read_text() if RESULTS.exists() else ""
    head = "## bench/ai.py"
    if head not in text:
        return "", {}, {}
    body = text[text.index(head) :].split("```")[1]
    lines = body.strip("\n").splitlines()
    date = lines[0][len("bench/ai.py") :].strip() if lines else ""
    blocks: dict[str, list[str]] = {}
    speeds: dict[str, str] = {}
    i = 0
    while i < len(lines):
        m = re.match(r"^([a-z0-9_]+) \(\dp, ", lines[i])
        if m:
            j = i
            while j < len(lines) and lines[j].strip():
                j += 1
            blocks[m.group(1)] = lines[i:j]
            i = j
            continue
        m = re.match(r"^speed, .*?\(([a-z0-9_]+), ", lines[i])
        if m:
            speeds[m.group(1)] = lines[i]
        i += 1
    return date, blocks, speeds


def main() -> int:
    from bench.ai_opponents import OPPONENTS  # here: it imports tally from this module
    from bench.ai_opponents import run as run_opponent

    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--games",
        type=int,
        default=0,
        help="games per ruleset (rounded up to whole seeds; default 2016, with --opponent 400)",
    )
    ap.add_argument("--opponent", default="", help="an outside AI: " + ", ".join(OPPONENTS))
    ap.add_argument("--ruleset", default="riichi", choices=("riichi", "sanma"), help="with --opponent")
    ap.add_argument("--rulesets", default="", help="comma-separated names (default: every registered ruleset)")
    ap.add_argument("--length", choices=("default", "short", "full"), default="default")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--speed-games", type=int, default=20, help="games of the speed test (riichi, sanma)")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    if args.opponent:
        return run_opponent(args.opponent, args.ruleset, args.games or 400, not args.no_write)
    args.games = args.games or 2016
    names = [n for n in args.rulesets.split(",") if n] or ["riichi", "sanma"] + [
        n for n in ruleset_names() if n not in ("riichi", "sanma")
    ]
    for n in names:
        find_ruleset(n)  # an unknown name fails before any game is played
    Game(find_ruleset("riichi"), seed=0)  # load the shanten tables before the workers fork
    t_start = time.perf_counter()
    lines = [
        f"bench/ai.py  {time.strftime('%Y-%m-%d %H:%M')}",
        f"machine: nproc={os.cpu_count()}, Python {platform.python_version()}, load {os.getloadavg()[0]:.2f},"
        f" {args.workers} worker process(es)",
        "smart = efficiency with ukeire + value + riichi defence + the ruleset's calls, riichi/open riichi/"
        "declared tenpai, nuki (bot/ai/profile.py);",
        "greedy = lowest shanten, random among equals, riichi (declared tenpai) whenever possible, kita/nuki"
        " always, never calls",
        "",
    ]
    ctx = mp.get_context("fork")
    order = ["riichi", "sanma"] + [n for n in ruleset_names() if n not in ("riichi", "sanma")]
    old_date, old_blocks, old_speeds = previous_run() if args.rulesets else ("", {}, {})
    blocks: dict[str, list[str]] = {}
    speeds: dict[str, str] = {}

    def text(done: bool) -> str:
        kept = [n for n in order if n not in blocks and n in old_blocks]
        out = list(lines)
        if kept:
            out += [f"kept from the run of {old_date} (not played again now): {', '.join(kept)}", ""]
        for n in order:
            block = blocks.get(n) or old_blocks.get(n)
            if block:
                out += [*block, ""]
        out += [speeds.get(n) or old_speeds[n] for n in order if n in speeds or n in old_speeds]
        out.append(f"total wall time: {time.perf_counter() - t_start:.0f} s" if done else "(run in progress)")
        return "\n".join(out)

    for name in names:
        length = args.length if args.length != "default" else LENGTHS.get(name, "short")
        rs = make_ruleset(name, length)
        per_seed = len(arrangements(rs.players))
        seeds = math.ceil(args.games / per_seed)
        jobs = [(name, length, seed) for seed in range(seeds)]
        t0 = time.perf_counter()
        records: list[GameRecord] = []
        if args.workers > 1:
            with ctx.Pool(args.workers) as pool:
                for recs in pool.imap_unordered(_play_seed, jobs, chunksize=4):
                    records.extend(recs)
        else:
            for job in jobs:
                records.extend(_play_seed(job))
        secs = time.perf_counter() - t0
        label = f"{name} ({rs.players}p, {length_label(rs, length)})"
        blocks[name] = summarize(name, rs.players, records, secs, label)
        print("\n".join(blocks[name]), file=sys.stderr, flush=True)
        full = name in SPEED_FULL
        games = args.speed_games if full else max(2, args.speed_games // 4)
        timed = find_ruleset(name) if full else rs
        gps, dps = speed(timed, games)
        speeds[name] = (
            f"speed, {rs.players} smart seats ({name}, {length_label(timed, length)}):"
            f" {gps:.2f} games/s, {dps:,.0f} decisions/s ({games} games, one process, CPU time)"
        )
        if not args.no_write:
            write_section("bench/ai.py", text(False))
    final = text(True)
    print(final)
    if not args.no_write:
        write_section("bench/ai.py", final)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Hand-analysis benchmark: our engine against ``mahjong`` (the reference) and other PyPI peers.

Not a test. Run from the repository root::

    .venv/bin/python bench/hands.py            # full run, updates bench/RESULTS.md
    .venv/bin/python bench/hands.py --quick    # small smoke run, writes nothing

One process, one shared workload per task, built once from a fixed seed. Every engine gets the same
hands, converted to its own input format *before* timing; only the engine's call is timed.

Tasks
  shanten   random hands drawn from a shuffled 136-tile wall (14- and 13-tile), overall shanten
            (standard, chiitoitsu and kokushi, the way ``mahjong``'s ``Shanten.calculate_shanten``
            does by default);
  agari     14-tile hands, about half complete (standard, chiitoitsu, kokushi), the rest random or
            one tile away from complete;
  scoring   the 10,000 winning hands of kobalab/majiang-core (``tests.engine.datasets``) with their
            full context (winds, dora/ura, riichi, ippatsu, haitei, rinshan, melds, red fives ...).

Peers (``riichienv``, ``cmajiang``, ``jansou``) are measured when they import; any peer that is
missing, fails to import or fails on a task is skipped with a note. Each rate is the best of
``--repeat`` timed passes after one untimed warm-up pass (which also collects the answers that are
cross-checked between engines); the passes are interleaved round-robin across engines, so a busy
spell on a shared machine slows every engine alike, and the median pass is printed beside the best.
The garbage collector is off inside timed passes (as ``timeit``).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import gc
import importlib
import json
import os
import platform
import random
import resource
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

RESULTS_MD = ROOT / "bench" / "RESULTS.md"
SECTION = "## bench/hands.py"
TARGETS = {"shanten": 20.0, "agari": 2.0, "scoring": 5.0}
RED_FIVE_KINDS = (4, 13, 22)
YAOCHU = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
WINDS = "ESWN"

Key = tuple[Any, ...]  # a normalised scoring answer: ("Y", n) for n-fold yakuman, else (han, fu)


# ------------------------------------------------------------------------------------------------
# Output
# ------------------------------------------------------------------------------------------------

OUT: list[str] = []


def say(line: str = "") -> None:
    print(line, flush=True)
    OUT.append(line)


# ------------------------------------------------------------------------------------------------
# Timing
# ------------------------------------------------------------------------------------------------


@dataclass
class Timed:
    """One engine's timed pass over one task's data, queued for the interleaved rounds."""

    row: Row
    run: Callable[[], None]
    n: int
    before: Callable[[], None] | None = None
    seconds: list[float] = field(default_factory=list)


def measure(queue: list[Timed], repeat: int) -> None:
    """``repeat`` rounds; each round times one pass of every queued engine in turn (gc off while
    timing). Interleaving makes a slow spell of a shared machine hit every engine alike."""
    for _ in range(repeat):
        for t in queue:
            if t.row.note.startswith("failed"):
                continue

            def one(t: Timed = t) -> None:
                if t.before is not None:
                    t.before()
                gc.collect()
                gc.disable()
                try:
                    t0 = time.perf_counter()
                    t.run()
                    t.seconds.append(time.perf_counter() - t0)
                finally:
                    gc.enable()

            guarded(t.row, one)
    for t in queue:
        if t.seconds and not t.row.note.startswith("failed"):
            t.row.rate = t.n / min(t.seconds)
            t.row.median = t.n / statistics.median(t.seconds)
    queue.clear()


def each(f: Callable[[Any], object], items: Sequence[Any]) -> Callable[[], None]:
    def run() -> None:
        for x in items:
            f(x)

    return run


def each_star(f: Callable[..., object], items: Sequence[tuple[Any, ...]]) -> Callable[[], None]:
    def run() -> None:
        for a in items:
            f(*a)

    return run


@dataclass
class Row:
    label: str
    call: str
    rate: float | None = None  # items per second, best pass
    median: float | None = None  # items per second, median pass
    note: str = ""
    answers: list[Any] = field(default_factory=list)
    target: bool = False  # this row is judged against the task's target


@dataclass
class Peer:
    name: str
    module: Any = None
    version: str = ""
    import_s: float = 0.0
    error: str = ""


def guarded(row: Row, work: Callable[[], None]) -> None:
    """Run one engine's task; a failure becomes a note on its row, never a crash."""
    try:
        work()
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # noqa: BLE001 - a peer may panic (pyo3 PanicException is a BaseException)
        row.rate = None
        row.note = f"failed: {type(e).__name__}: {str(e).splitlines()[0][:120] if str(e) else ''}"


# ------------------------------------------------------------------------------------------------
# Imports (timed)
# ------------------------------------------------------------------------------------------------


def timed_import(name: str) -> Peer:
    peer = Peer(name)
    t0 = time.perf_counter()
    try:
        peer.module = importlib.import_module(name)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # noqa: BLE001
        peer.error = f"{type(e).__name__}: {e}"
        return peer
    peer.import_s = time.perf_counter() - t0
    try:
        from importlib.metadata import version

        peer.version = version(name)
    except Exception:  # noqa: BLE001
        peer.version = "?"
    return peer


# ------------------------------------------------------------------------------------------------
# Workloads
# ------------------------------------------------------------------------------------------------


def counts_of(ids: Iterable[int]) -> list[int]:
    c = [0] * 34
    for t in ids:
        c[t // 4] += 1
    return c


def ids_of(counts: Sequence[int]) -> list[int]:
    """136-ids for a count array (copies 0.. of each kind; red fives do not matter for shape)."""
    return [4 * k + j for k in range(34) for j in range(counts[k])]


def mpsz_of(counts: Sequence[int]) -> str:
    """Majiang (cmajiang) notation: ``m123p55z11``; five is never red here."""
    parts = []
    for s, letter in enumerate("mpsz"):
        lo, hi = 9 * s, (9 * s + 9 if s < 3 else 34)
        digits = "".join(str(k - lo + 1) * counts[k] for k in range(lo, hi))
        if digits:
            parts.append(letter + digits)
    return "".join(parts)


def shanten_workload(rng: random.Random, n14: int, n13: int) -> list[list[int]]:
    sizes = [14] * n14 + [13] * n13
    rng.shuffle(sizes)
    return [counts_of(rng.sample(range(136), n)) for n in sizes]


def _standard_complete(rng: random.Random) -> list[int]:
    while True:
        c = [0] * 34
        ok = True
        pair = rng.randrange(34)
        c[pair] += 2
        for _ in range(4):
            if rng.random() < 0.35:
                k = rng.randrange(34)
                if c[k] > 1:
                    ok = False
                    break
                c[k] += 3
            else:
                suit, start = rng.randrange(3), rng.randrange(7)
                ks = [9 * suit + start + i for i in range(3)]
                if any(c[k] >= 4 for k in ks):
                    ok = False
                    break
                for k in ks:
                    c[k] += 1
        if ok:
            return c


def complete_hand(rng: random.Random) -> list[int]:
    r = rng.random()
    if r < 0.06:
        c = [0] * 34
        for k in rng.sample(range(34), 7):
            c[k] = 2
        return c
    if r < 0.08:
        c = [0] * 34
        for k in YAOCHU:
            c[k] = 1
        c[rng.choice(YAOCHU)] += 1
        return c
    return _standard_complete(rng)


def agari_workload(rng: random.Random, n: int) -> list[list[int]]:
    """Half complete; a quarter one tile off complete; a quarter random from the wall."""
    out: list[list[int]] = []
    for i in range(n):
        kind = i % 4
        if kind in (0, 1):
            out.append(complete_hand(rng))
        elif kind == 2:
            c = complete_hand(rng)
            src = rng.choice([k for k in range(34) if c[k]])
            dst = rng.choice([k for k in range(34) if k != src and c[k] < 4])
            c[src] -= 1
            c[dst] += 1
            out.append(c)
        else:
            out.append(counts_of(rng.sample(range(136), 14)))
    rng.shuffle(out)
    return out


# ------------------------------------------------------------------------------------------------
# Scoring conversions (done before timing)
# ------------------------------------------------------------------------------------------------

RED = 0x40


class Pool136:
    """Hands out distinct 136-ids per kind; red fives get id ``4k`` (mahjong's/Tenhou's layout)."""

    def __init__(self) -> None:
        self.free: list[list[int]] = []
        for k in range(34):
            ids = [4 * k + j for j in range(4)]
            if k in RED_FIVE_KINDS:
                ids = ids[1:] + ids[:1]  # plain copies first; the red one last
            self.free.append(ids)
        self.fallbacks = 0

    def take(self, code: int) -> int:
        k, red = code & ~RED, bool(code & RED)
        free = self.free[k]
        if red:
            want = 4 * k
            if want in free:
                free.remove(want)
                return want
            self.fallbacks += 1
            return want
        for t in free:
            if not (k in RED_FIVE_KINDS and t == 4 * k):
                free.remove(t)
                return t
        self.fallbacks += 1
        return 4 * k + 3


@dataclass
class Alloc:
    concealed: list[int]  # without the winning tile
    win: int
    melds: list[tuple[str, list[int]]]  # (our meld type value, ids)
    dora: list[int]
    ura: list[int]


def alloc136(spec: Any) -> tuple[Alloc, int]:
    hand = Pool136()
    concealed = [hand.take(t) for t in spec.concealed]
    win = hand.take(spec.win_tile)
    melds = [(m.type.value, [hand.take(t) for t in m.tiles]) for m in spec.melds]
    ind = Pool136()  # indicators are other physical tiles; only their kind matters
    dora = [ind.take(t) for t in spec.ctx.dora_indicators]
    ura = [ind.take(t) for t in spec.ctx.ura_indicators]
    return Alloc(concealed, win, melds, dora, ura), hand.fallbacks


def our_key(r: Any) -> Key:
    if not r.agari:
        return ("no", r.reason)
    return ("Y", r.yakuman) if r.yakuman else (r.han, r.fu)


# ------------------------------------------------------------------------------------------------
# Table printing
# ------------------------------------------------------------------------------------------------


def fmt_rate(x: float | None) -> str:
    if x is None:
        return "-"
    if x >= 1e6:
        return f"{x / 1e6:.2f}M"
    if x >= 1e4:
        return f"{x / 1e3:.1f}k"
    return f"{x:,.0f}"


def print_task(task: str, title: str, rows: list[Row], ref: Row) -> list[tuple[str, float, bool]]:
    """Print one task's table; return (label, ratio, met) for the rows judged on the target."""
    say(f"### {title}")
    w_label = max(len(r.label) for r in rows) + 2
    w_call = max(len(r.call) for r in rows) + 2
    say(f"{'engine':<{w_label}}{'timed call':<{w_call}}{'best/s':>10}{'median/s':>10}{'x mahjong':>11}  note")
    verdicts: list[tuple[str, float, bool]] = []
    target = TARGETS.get(task)
    for r in rows:
        ratio = r.rate / ref.rate if (r.rate is not None and ref.rate) else None
        ratio_s = f"{ratio:.2f}x" if ratio is not None else "-"
        note = r.note
        if r.target and ratio is not None and target is not None:
            met = ratio >= target
            verdicts.append((r.label, ratio, met))
            note = (
                f"target >= {target:g}x: {'MET' if met else 'NOT MET'}" + (f"; {note}" if note else "")
            ).strip()
        say(
            f"{r.label:<{w_label}}{r.call:<{w_call}}{fmt_rate(r.rate):>10}{fmt_rate(r.median):>10}{ratio_s:>11}  {note}"
        )
    say()
    return verdicts


def agreement(rows: list[Row], ours: Row, what: str) -> None:
    base = ours.answers
    for r in rows:
        if r is ours or not r.answers or r.rate is None:
            continue
        same = sum(1 for a, b in zip(r.answers, base) if a == b)
        say(
            f"  {what}: {r.label} agrees with ours on {same:,}/{len(base):,} ({100.0 * same / len(base):.2f}%)"
        )


# ------------------------------------------------------------------------------------------------
# Machine
# ------------------------------------------------------------------------------------------------


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def machine_line() -> str:
    return (
        f"nproc={os.cpu_count()}, Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.system()} {platform.machine()}, CPU: {cpu_model()}"
    )


def write_results(lines: list[str], argv: list[str]) -> None:
    today = _dt.datetime.now().strftime("%Y-%m-%d %H:%M")
    cmd = " ".join([".venv/bin/python", "bench/hands.py", *argv])
    body = [
        SECTION,
        "",
        f"- date: {today}",
        f"- machine: {machine_line()}",
        f"- command: `{cmd}` (from the repository root)",
        "",
        "```text",
        *lines,
        "```",
        "",
    ]
    header = [
        "# Benchmark results",
        "",
        "Each benchmark under `bench/` owns one `## bench/<script>` section of this file and replaces",
        "only that section when it is re-run (run from the repository root).",
        "",
    ]
    text = RESULTS_MD.read_text(encoding="utf-8") if RESULTS_MD.exists() else "\n".join(header)
    old = text.splitlines()
    start = next((i for i, ln in enumerate(old) if ln.strip() == SECTION), None)
    if start is None:
        new = [*old]
        while new and not new[-1].strip():
            new.pop()
        new = [*new, "", *body]
    else:
        end, fenced = len(old), False
        for j in range(start + 1, len(old)):
            if old[j].startswith("```"):
                fenced = not fenced
            elif not fenced and old[j].startswith("## "):
                end = j
                break
        tail = old[end:]
        new = [*old[:start], *body, *tail]
    RESULTS_MD.write_text("\n".join(new).rstrip("\n") + "\n", encoding="utf-8")


# ------------------------------------------------------------------------------------------------
# Main
# ------------------------------------------------------------------------------------------------


def main(argv: list[str]) -> int:  # noqa: C901 - one linear script
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small workloads, 1 timed pass, write nothing")
    ap.add_argument("--repeat", type=int, default=5, help="timed passes per measurement (best is kept)")
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--shanten-hands", type=int, default=20_000, help="14-tile hands (plus half as many 13)")
    ap.add_argument("--agari-hands", type=int, default=20_000)
    ap.add_argument("--scoring-hands", type=int, default=10_000, help="at most 10,000 (the dataset)")
    ap.add_argument("--no-write", action="store_true", help="do not update bench/RESULTS.md")
    args = ap.parse_args(argv)
    if args.quick:
        args.repeat, args.shanten_hands, args.agari_hands, args.scoring_hands = 1, 2_000, 2_000, 500
        args.no_write = True
    repeat = max(1, args.repeat)
    t_start = time.perf_counter()

    say(f"bench/hands.py  {_dt.datetime.now():%Y-%m-%d %H:%M}")
    say(f"machine: {machine_line()}")
    say(
        f"seed={args.seed}, best of {repeat} timed pass(es) after 1 untimed warm-up pass, passes interleaved "
        "round-robin across engines, gc off while timing"
    )
    say(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (1/5/15 min)")
    say()

    # -- imports, each timed (a shared dependency is charged to the first importer) ------------
    t0 = time.perf_counter()
    from engine.hand.shanten import calculator
    from engine.notation import parse_hand
    from engine.scoring import score, score_line

    t_our_import = time.perf_counter() - t0
    t0 = time.perf_counter()
    calc = calculator()
    t_our_tables = time.perf_counter() - t0
    ref = timed_import("mahjong")
    if ref.module is None:
        say(f"the reference library `mahjong` does not import ({ref.error}); nothing to compare against")
        return 1
    from mahjong.agari import Agari
    from mahjong.constants import EAST
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
    from mahjong.meld import Meld as MjMeld
    from mahjong.shanten import Shanten

    peers = {name: timed_import(name) for name in ("riichienv", "cmajiang", "jansou")}
    jansou_sub: dict[str, Any] = {}
    if peers["jansou"].module is not None:
        t0 = time.perf_counter()
        try:
            for sub in (
                "jansou.analysis.shanten",
                "jansou.analysis.decompose",
                "jansou.scoring.score",
                "jansou.scoring.context",
                "jansou.core.hand",
                "jansou.core.tiles",
                "jansou.core.rules",
                "jansou.analysis._native",
            ):
                jansou_sub[sub.rsplit(".", 1)[1]] = importlib.import_module(sub)
        except Exception as e:  # noqa: BLE001
            peers["jansou"].error = f"{type(e).__name__}: {e}"
            peers["jansou"].module = None
        peers["jansou"].import_s += time.perf_counter() - t0

    say("imports and first use (not part of any rate):")
    say(
        f"  ours      import engine.hand.shanten/notation/scoring {t_our_import * 1e3:8.1f} ms (numpy included)"
    )
    say(f"  ours      calculator() table load (cached .npz)       {t_our_tables * 1e3:8.1f} ms")
    say(f"  mahjong   {ref.version:<10} import {ref.import_s * 1e3:8.1f} ms")
    for p in peers.values():
        if p.module is None:
            say(f"  {p.name:<9} SKIPPED: {p.error.splitlines()[0] if p.error else 'not installed'}")
        else:
            say(f"  {p.name:<9} {p.version:<10} import {p.import_s * 1e3:8.1f} ms")
    if peers["jansou"].module is not None:
        native = jansou_sub["_native"].KERNEL is not None
        say(
            f"  jansou    native kernel (extra jansou[native]): {'loaded' if native else 'not installed, pure-Python path'}"
        )
    say()

    rng = random.Random(args.seed)
    verdicts: list[tuple[str, str, float, bool]] = []

    # ------------------------------------------------------------------------------------------
    # shanten
    # ------------------------------------------------------------------------------------------
    hands = shanten_workload(rng, args.shanten_hands, args.shanten_hands // 2)
    n = len(hands)
    as_bytes = [bytes(c) for c in hands]
    first_use: list[str] = []
    task_now = ["shanten"]
    queue: list[Timed] = []

    def run_task(
        row: Row,
        f: Callable[..., Any],
        data: Sequence[Any],
        before: Callable[[], None] | None = None,
        star: bool = False,
        key: Callable[[Any], Any] | None = None,
    ) -> None:
        def work() -> None:
            if before is not None:
                before()
            t0 = time.perf_counter()
            first = f(*data[0]) if star else f(data[0])
            first_use.append(
                f"  {task_now[0]:<8} {row.label:<24} first call {1e3 * (time.perf_counter() - t0):8.2f} ms"
            )
            del first
            # warm-up pass, untimed: also the answers for the cross-check
            if star:
                ans = [f(*a) for a in data]
            else:
                ans = [f(x) for x in data]
            row.answers = [key(a) for a in ans] if key is not None else ans
            row.rate = 0.0  # set by measure()
            run = each_star(f, data) if star else each(f, data)
            queue.append(Timed(row, run, len(data), before))

        guarded(row, work)

    rows: list[Row] = []
    r_ref = Row("mahjong " + ref.version, "Shanten.calculate_shanten(list34)")
    run_task(r_ref, Shanten.calculate_shanten, hands)
    r_list = Row("ours (list input)", "calc.shanten(list34)", target=True)
    run_task(r_list, calc.shanten, hands)
    r_bytes = Row("ours (bytes input)", "calc.shanten(bytes34)", target=True)
    run_task(r_bytes, calc.shanten, as_bytes)
    rows += [r_ref, r_list, r_bytes]

    rie = peers["riichienv"].module
    if rie is not None:
        ids = [ids_of(c) for c in hands]
        r = Row("riichienv " + peers["riichienv"].version, "calculate_shanten(ids136)")
        run_task(r, rie.calculate_shanten, ids)
        rows.append(r)
    cmj = peers["cmajiang"].module
    if cmj is not None:
        r = Row("cmajiang " + peers["cmajiang"].version, "xiangting(Shoupai)")
        sps: list[Any] = []
        guarded(r, lambda: sps.extend(cmj.Shoupai(mpsz_of(c)) for c in hands))
        if not r.note:
            run_task(r, cmj.xiangting, sps)
        rows.append(r)
    if peers["jansou"].module is not None:
        js = jansou_sub["shanten"]
        r = Row("jansou " + peers["jansou"].version, "shanten_counts(list34, 0)")
        r.note = "its per-hand result memo is cleared before each pass"
        args0 = [(c, 0) for c in hands]
        run_task(r, js.shanten_counts, args0, before=js._COUNT_MEMO.clear, star=True)
        rows.append(r)

    n14 = sum(1 for c in hands if sum(c) == 14)
    measure(queue, repeat)
    for v in print_task(
        "shanten",
        f"shanten: {n:,} random hands from a 136-tile wall ({n14:,} x 14 tiles, "
        f"{n - n14:,} x 13), overall shanten",
        rows,
        r_ref,
    ):
        verdicts.append(("shanten", *v))
    agreement(rows, r_list, "shanten")
    say()

    # ------------------------------------------------------------------------------------------
    # agari
    # ------------------------------------------------------------------------------------------
    task_now[0] = "agari"
    hands = agari_workload(rng, args.agari_hands)
    n = len(hands)
    as_bytes = [bytes(c) for c in hands]
    rows = []
    r_ref = Row("mahjong " + ref.version, "Agari.is_agari(list34)")
    run_task(r_ref, Agari.is_agari, hands)
    r_list = Row("ours (list input)", "calc.is_agari(list34)", target=True)
    run_task(r_list, calc.is_agari, hands)
    r_bytes = Row("ours (bytes input)", "calc.is_agari(bytes34)", target=True)
    run_task(r_bytes, calc.is_agari, as_bytes)
    rows += [r_ref, r_list, r_bytes]
    if rie is not None:
        ids = [ids_of(c) for c in hands]
        r = Row("riichienv " + peers["riichienv"].version, "calculate_shanten(ids136) == -1")
        r.note = "no agari call in its API: shanten == -1 instead"
        run_task(r, lambda t: rie.calculate_shanten(t) == -1, ids)
        rows.append(r)
    if cmj is not None:
        r = Row("cmajiang " + peers["cmajiang"].version, "xiangting(Shoupai) == -1")
        sps = []
        guarded(r, lambda: sps.extend(cmj.Shoupai(mpsz_of(c)) for c in hands))
        if not r.note:
            r.note = "no agari call in its API: xiangting == -1 instead"
            run_task(r, lambda s: cmj.xiangting(s) == -1, sps)
        rows.append(r)
    if peers["jansou"].module is not None:
        dec = jansou_sub["decompose"]
        r = Row("jansou " + peers["jansou"].version, "decompose.is_complete(list34, 0)")
        run_task(r, dec.is_complete, [(c, 0) for c in hands], star=True)
        rows.append(r)
    wins = sum(1 for a in r_list.answers if a)
    measure(queue, repeat)
    for v in print_task(
        "agari",
        f"agari: {n:,} x 14-tile hands ({wins:,} complete = {100.0 * wins / n:.1f}%; "
        "the rest one tile off or random)",
        rows,
        r_ref,
    ):
        verdicts.append(("agari", *v))
    agreement(rows, r_list, "agari")
    say()

    # ------------------------------------------------------------------------------------------
    # full scoring
    # ------------------------------------------------------------------------------------------
    from tests.engine.datasets import DATA_DIR, kobalab_cases

    task_now[0] = "scoring"
    cases = kobalab_cases()[: args.scoring_hands]
    n = len(cases)
    lines = [line for line, _ in cases]
    specs = [parse_hand(line) for line in lines]
    expected: list[Key] = [("Y", e["yakuman"]) if e["yakuman"] else (e["han"], e["fu"]) for _, e in cases]

    rows = []
    # mahjong inputs
    opts = OptionalRules(has_open_tanyao=True, has_aka_dora=True)  # has_double_yakuman defaults to True
    mj_args: list[tuple[Any, ...]] = []
    mj_kw_ura: list[list[int]] = []
    fallbacks = 0
    mj_type = {
        "chi": MjMeld.CHI,
        "pon": MjMeld.PON,
        "minkan": MjMeld.KAN,
        "ankan": MjMeld.KAN,
        "kakan": MjMeld.SHOUMINKAN,
    }
    allocs: list[Alloc] = []
    for spec in specs:
        a, fb = alloc136(spec)
        fallbacks += fb
        allocs.append(a)
        c = spec.ctx
        riichi = c.riichi or c.double_riichi
        cfg = HandConfig(
            is_tsumo=c.tsumo,
            is_riichi=riichi,
            is_daburu_riichi=c.double_riichi,
            is_ippatsu=c.ippatsu,
            is_rinshan=c.rinshan,
            is_chankan=c.chankan,
            is_haitei=c.haitei,
            is_houtei=c.houtei,
            is_tenhou=c.tenhou,
            is_chiihou=c.chiihou,
            player_wind=EAST + c.seat_wind,
            round_wind=EAST + c.round_wind,
            tsumi_number=c.honba,
            kyoutaku_number=c.sticks,
            options=opts,
        )
        melds = [MjMeld(meld_type=mj_type[t], tiles=tiles, opened=(t != "ankan")) for t, tiles in a.melds]
        all_tiles = [*a.concealed, a.win, *(t for _, tiles in a.melds for t in tiles)]
        mj_args.append((all_tiles, a.win, melds, a.dora, cfg))
        mj_kw_ura.append(a.ura)
    mj_star = [(*x, u) for x, u in zip(mj_args, mj_kw_ura)]

    def mj_score(tiles: Any, win: int, melds: Any, dora: Any, cfg: Any, ura: Any) -> Any:
        return HandCalculator.estimate_hand_value(tiles, win, melds, dora, cfg, ura_dora_indicators=ura)

    def mj_key(r: Any) -> Key:
        if r.error:
            return ("error", r.error)
        if r.yaku and any(y.is_yakuman for y in r.yaku):
            return ("Y", r.han // 13)
        return (r.han, r.fu)

    r_ref = Row("mahjong " + ref.version, "HandCalculator.estimate_hand_value(...)")
    if fallbacks:
        r_ref.note = f"{fallbacks} tile(s) had no free 136-id"
    run_task(r_ref, mj_score, mj_star, star=True, key=mj_key)
    r_ours = Row("ours score(spec)", "score(spec)", target=True)
    run_task(r_ours, score, specs, key=our_key)
    r_line = Row("ours score_line(text)", "score_line(line): parse+score+json")
    run_task(
        r_line,
        score_line,
        lines,
        key=lambda d: ("Y", d["yakuman"]) if d.get("yakuman") else (d.get("han"), d.get("fu")),
    )
    rows += [r_ref, r_ours, r_line]

    if rie is not None:
        rc = importlib.import_module("riichienv._riichienv")
        r = Row("riichienv " + peers["riichienv"].version, "HandEvaluator(ids, melds).calc(...)")
        rie_args: list[tuple[Any, ...]] = []

        def build_rie() -> None:
            mt = {
                "chi": rc.MeldType.Chi,
                "pon": rc.MeldType.Pon,
                "minkan": rc.MeldType.Daiminkan,
                "ankan": rc.MeldType.Ankan,
                "kakan": rc.MeldType.Kakan,
            }
            winds = [rc.Wind.East, rc.Wind.South, rc.Wind.West, rc.Wind.North]
            for spec, a in zip(specs, allocs):
                c = spec.ctx
                cond = rc.Conditions(
                    tsumo=c.tsumo,
                    riichi=c.riichi,
                    double_riichi=c.double_riichi,
                    ippatsu=c.ippatsu,
                    haitei=c.haitei,
                    houtei=c.houtei,
                    rinshan=c.rinshan,
                    chankan=c.chankan,
                    tsumo_first_turn=c.tenhou or c.chiihou,
                    player_wind=winds[c.seat_wind],
                    round_wind=winds[c.round_wind],
                    riichi_sticks=c.sticks,
                    honba=c.honba,
                )
                melds = [rc.Meld(mt[t], tiles, t != "ankan") for t, tiles in a.melds]
                rie_args.append((sorted([*a.concealed, a.win]), melds, a.win, a.dora, a.ura, cond))

        def rie_score(tiles: Any, melds: Any, win: int, dora: Any, ura: Any, cond: Any) -> Any:
            return rc.HandEvaluator(tiles, melds).calc(win, dora, ura, cond)

        def rie_key(w: Any) -> Key:
            if not w.is_win:
                return ("no",)
            return ("Y", w.han // 13) if w.yakuman else (w.han, w.fu)

        guarded(r, build_rie)
        if not r.note:
            r.note = "evaluator construction is inside the timed call"
            run_task(r, rie_score, rie_args, star=True, key=rie_key)
        rows.append(r)

    if cmj is not None:
        r = Row("cmajiang " + peers["cmajiang"].version, "hule(Shoupai, rongpai, rule, ...)")
        cmj_args: list[tuple[Any, ...]] = []

        def build_cmj() -> None:
            raw = json.loads((DATA_DIR / "kobalab_majiang-core_hule.json").read_text(encoding="utf-8"))[:n]
            rule = cmj.Rule()
            for case in raw:
                i = case["in"]
                p = i["param"]
                h = p.get("hupai") or {}
                j = p.get("jicun") or {}
                cmj_args.append(
                    (
                        cmj.Shoupai(i["shoupai"]),
                        i.get("rongpai") or "",
                        rule,
                        int(p["zhuangfeng"]),
                        int(p["menfeng"]),
                        int(h.get("lizhi") or 0),
                        bool(h.get("yifa")),
                        bool(h.get("qianggang")),
                        bool(h.get("lingshang")),
                        int(h.get("haidi") or 0),
                        int(h.get("tianhu") or 0),
                        list(p.get("baopai") or []),
                        list(p.get("fubaopai") or []),
                        int(j.get("changbang") or 0),
                        int(j.get("lizhibang") or 0),
                    )
                )

        def cmj_key(d: Any) -> Key:
            if not d.defen:
                return ("no",)
            return ("Y", d.damanguan) if d.damanguan else (d.fanshu, d.fu)

        guarded(r, build_cmj)
        if not r.note:
            r.note = "input = the dataset's own majiang-core records (same hands, its native format)"
            run_task(r, cmj.hule, cmj_args, star=True, key=cmj_key)
        rows.append(r)

    if peers["jansou"].module is not None:
        jh, jt, jc, jr, jsc = (jansou_sub[k] for k in ("hand", "tiles", "context", "rules", "score"))
        r = Row("jansou " + peers["jansou"].version, "score(Hand, Tile, WinContext)")
        js_args: list[tuple[Any, ...]] = []

        def jtile(code: int) -> Any:
            return jt.Tile(jt.TileKind(code & ~RED), red=bool(code & RED))

        def build_js() -> None:
            rules = jr.Rules()  # the library baseline: kuitan, aka dora, double yakuman, kazoe, no kiriage
            mt = jh.MeldType
            for spec in specs:
                melds = []
                for m in spec.melds:
                    tiles = [jtile(t) for t in m.tiles]
                    t = m.type.value
                    if t == "ankan":
                        melds.append(jh.Meld(mt.ANKAN, tiles))
                    elif t == "chi":
                        melds.append(jh.Meld(mt.CHII, tiles, tiles[0], jh.CallSource.KAMICHA))
                    elif t == "pon":
                        melds.append(jh.Meld(mt.PON, tiles, tiles[0], jh.CallSource.TOIMEN))
                    elif t == "minkan":
                        melds.append(jh.Meld(mt.DAIMINKAN, tiles, tiles[0], jh.CallSource.TOIMEN))
                    else:
                        melds.append(jh.Meld(mt.SHOUMINKAN, tiles, tiles[0], jh.CallSource.TOIMEN, tiles[1]))
                win = jtile(spec.win_tile)
                hand = jh.Hand(tuple([*(jtile(t) for t in spec.concealed), win]), tuple(melds))
                c = spec.ctx
                ctx = jc.WinContext(
                    rules=rules,
                    round_wind=jt.Wind(c.round_wind),
                    seat_wind=jt.Wind(c.seat_wind),
                    is_tsumo=c.tsumo,
                    riichi=c.riichi,
                    double_riichi=c.double_riichi,
                    ippatsu=c.ippatsu,
                    haitei=c.haitei,
                    houtei=c.houtei,
                    rinshan=c.rinshan,
                    chankan=c.chankan,
                    tenhou=c.tenhou,
                    chiihou=c.chiihou,
                    dora_indicators=tuple(jtile(t) for t in c.dora_indicators),
                    ura_indicators=tuple(jtile(t) for t in c.ura_indicators),
                    honba=c.honba,
                    riichi_sticks=c.sticks,
                )
                js_args.append((hand, win, ctx))

        scoring_error = jsc.ScoringError

        def js_score(hand: Any, win: Any, ctx: Any) -> Any:
            try:
                return jsc.score(hand, win, ctx)
            except scoring_error as e:
                return e

        def js_key(res: Any) -> Key:
            if isinstance(res, Exception):
                return ("error", str(res))
            if res.is_yakuman:  # its han is 0 for a yakuman; each YakuValue holds the multiple
                return ("Y", sum(y.value for y in res.yaku))
            return (res.han, res.fu.total)

        guarded(r, build_js)
        if not r.note:
            run_task(r, js_score, js_args, star=True, key=js_key)
        rows.append(r)

    n_open = sum(1 for s in specs if any(m.opened for m in s.melds))
    n_yak = sum(1 for k in expected if k[0] == "Y")
    measure(queue, repeat)
    for v in print_task(
        "scoring",
        f"full scoring: {n:,} winning hands with context (kobalab/majiang-core; "
        f"{n_open:,} open, {n_yak} yakuman), han/fu/yaku/points",
        rows,
        r_ref,
    ):
        verdicts.append(("scoring", *v))
    same = sum(1 for a, b in zip(r_ours.answers, expected) if a == b)
    say(
        f"  scoring: ours agrees with the dataset's expected han/fu on {same:,}/{n:,} ({100.0 * same / n:.2f}%)"
    )
    agreement(rows, r_ours, "scoring (han/fu, or yakuman count)")
    say()

    say("first call of each timed function (after imports; part of no rate):")
    for line in first_use:
        say(line)
    say()

    # ------------------------------------------------------------------------------------------
    say("targets (ours vs mahjong, pure Python):")
    for task, label, ratio, met in verdicts:
        say(
            f"  {task:<8} {label:<22} {ratio:7.2f}x  (target >= {TARGETS[task]:g}x)  {'MET' if met else 'NOT MET'}"
        )
    skipped = [p.name for p in peers.values() if p.module is None]
    if skipped:
        say(f"skipped peers: {', '.join(skipped)}")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    rss_mib = rss / 1024 if sys.platform != "darwin" else rss / (1024 * 1024)
    say(f"peak RSS: {rss_mib:.1f} MiB (whole process, all engines)")
    say(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (1/5/15 min)")
    say(f"total wall time: {time.perf_counter() - t_start:.1f} s")

    if not args.no_write:
        write_results(OUT, argv)
        print(f"\nwrote the '{SECTION}' section of {RESULTS_MD.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

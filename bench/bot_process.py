"""The bot's side of ``bench/bot_load.py``: the real Jantaku bot in a process of its own.

``bench/bot_load.py`` runs the local Discord-protocol server and the scripted humans in its own
process and starts this one, as Discord and its users are elsewhere than the bot: the bot's event
loop does only the bot's work, and the machine's two cores are shared by the bot, its render worker
and the fake Discord, as they would be by the bot and whatever else runs on its host.

This process points discord.py at the server (``JANTAKU_DISCORD_API`` / ``_GATEWAY``, the network
edge), installs timing wrappers around the engine and the AI (here only, never in the bot's code),
starts the bot and answers one JSON command per line on stdin with one JSON line on stdout:
``start`` (measure from now), ``rss``, ``stop`` (wait until no table is busy, then report what was
measured), ``quit``. Its configuration is the JSON in ``JANTAKU_BENCH``: ``guild_id``, ``db`` (a
SQLite file's path, or a ``postgresql://`` URL: the bot then runs on that PostgreSQL database),
``reference`` (the presenter before the rebuild for Discord's limits), ``profile`` (a cProfile output path or null),
``shards`` (``JANTAKU_SHARDS``'s form, e.g. ``0/2`` or ``0-1/2``; absent: one unsharded connection and the
commands synced to ``guild_id``; present: synced globally, as several guilds need). Several of these
processes on one token meet in Redis when the environment names it (``JANTAKU_REDIS_URL``,
``JANTAKU_REDIS_PREFIX``: bot/cluster reads them itself).
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import json
import logging
import os
import pstats
import resource
import sys
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.ai.policy import POLICIES  # noqa: E402
from bot.render.pictures import png_options  # noqa: E402
from bot.shards import parse_shards  # noqa: E402
from bot.storage.postgres import PgWriter, is_url  # noqa: E402
from bot.storage.writer import Writer  # noqa: E402
from engine.table.game import Game  # noqa: E402


def install_reference() -> None:
    """Run the bot with the presenter as it was before the outbound path was rebuilt for Discord's
    limits (``bench/reference_presenter.py``: clicks deferred, every hand edited with the bot's
    token), with the same options, pictures and texts as the current one. The presenter class is
    swapped where ``bot.client`` imports it from; discord.py loads an extension as a new module
    object, so the button's callback is swapped once it is loaded (:func:`patch_loaded_reference`)."""
    import bot.client
    from bench.reference_presenter import ReferencePresenter

    bot.client.Presenter = ReferencePresenter  # type: ignore[misc]


def patch_loaded_reference() -> None:
    from bench.reference_presenter import deferred_callback

    sys.modules["cogs.play"].ActionButton.callback = deferred_callback  # type: ignore[attr-defined]


def _vmrss(pid: str) -> float | None:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def rss_mb(children: list[int] | tuple[int, ...] = ()) -> float:
    """Resident set size (VmRSS) of this process plus the ``children`` (the bot's render worker
    processes), MiB."""
    own = _vmrss("self")
    if own is None:
        own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return own + sum(_vmrss(str(pid)) or 0.0 for pid in children)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q / 100 * (len(s) - 1))))]




@dataclass
class Timer:
    """Wall time (perf_counter) of every call and this thread's CPU time (thread_time) of every
    ``CPU_EVERY``-th: the machine may be shared, so the CPU time is the steadier of the two, but
    reading it is a system call, which on a busy VM costs as much as the call being timed."""

    ns: list[int] = field(default_factory=list)
    cpu_ns: list[int] = field(default_factory=list)
    on: bool = False

    CPU_EVERY = 16

    def reset(self) -> None:
        self.ns.clear()
        self.cpu_ns.clear()
        self.on = False

    def wrap(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        clock, cpu = time.perf_counter_ns, time.thread_time_ns
        every = self.CPU_EVERY

        def timed(*args: Any, **kwargs: Any) -> Any:
            if not self.on:
                return fn(*args, **kwargs)
            sample = len(self.ns) % every == 0
            t0 = clock()
            c0 = cpu() if sample else 0
            try:
                return fn(*args, **kwargs)
            finally:
                if sample:
                    self.cpu_ns.append(cpu() - c0)
                self.ns.append(clock() - t0)

        timed.__wrapped__ = fn  # type: ignore[attr-defined]
        return timed

    def line(self, label: str) -> str:
        if not self.ns:
            return f"  {label:<44} (no calls)"
        us = [n / 1000 for n in self.ns]
        cus = [n / 1000 for n in self.cpu_ns] or [float("nan")]
        mean = sum(us) / len(us)
        cpu_mean = sum(cus) / len(cus)
        return (
            f"  {label:<44} n={len(us):>7,}  wall mean {mean:>8.1f} µs  p50 {pct(us, 50):>8.1f}  p99 {pct(us, 99):>8.1f}"
            f"  max {max(us):>9.1f} | cpu (1 in {self.CPU_EVERY}) mean {cpu_mean:>7.1f}  p99 {pct(cus, 99):>7.1f}"
            f"  total ~{cpu_mean * len(us) / 1e6:>5.2f} s"
        )


TIMERS = {
    "apply": Timer(),
    "play": Timer(),
    "ai": Timer(),
    "write": Timer(),  # one write's transaction on the writer thread (BEGIN .. COMMIT)
    "write_wait": Timer(),  # asking for a write on the bot's loop -> its result (the writer's queue included)
}


def _timed_async(timer: Timer, fn: Callable[..., Any]) -> Callable[..., Any]:
    """Wall time of every await of the coroutine function ``fn`` while ``timer`` is on."""
    clock = time.perf_counter_ns

    async def timed(*args: Any, **kwargs: Any) -> Any:
        if not timer.on:
            return await fn(*args, **kwargs)
        t0 = clock()
        try:
            return await fn(*args, **kwargs)
        finally:
            timer.ns.append(clock() - t0)

    return timed


def install_timers() -> None:
    # Game.play validates then calls self.apply, so "apply" covers every action (human, AI, auto)
    Game.apply = TIMERS["apply"].wrap(Game.apply)  # type: ignore[method-assign]
    Game.play = TIMERS["play"].wrap(Game.play)  # type: ignore[method-assign]
    for name in list(POLICIES):  # bot.tables looks the policy up in this dict at every AI move
        POLICIES[name] = TIMERS["ai"].wrap(POLICIES[name])
    # the storage's one writer, either backend: every write is ``run(fn)`` -> ``_transaction`` on its thread
    Writer._transaction = staticmethod(TIMERS["write"].wrap(Writer._transaction))  # type: ignore[method-assign]
    PgWriter._transaction = TIMERS["write"].wrap(PgWriter._transaction)  # type: ignore[method-assign]
    Writer.run = _timed_async(TIMERS["write_wait"], Writer.run)  # type: ignore[method-assign]
    PgWriter.run = _timed_async(TIMERS["write_wait"], PgWriter.run)  # type: ignore[method-assign]


class RenderStats:
    """Every picture the presenter drew (its ``Renderer.on_render`` hook): CPU seconds drawing it
    (in the render worker, or on the event loop in the reference design) and seconds from asking
    for it to having the PNG (queueing for the worker included)."""

    def __init__(self) -> None:
        self.by_kind: dict[str, tuple[list[float], list[float]]] = {}
        self.on = False

    def __call__(self, kind: str, cpu: float, wait: float) -> None:
        if self.on:
            cpus, waits = self.by_kind.setdefault(kind, ([], []))
            cpus.append(cpu * 1000)
            waits.append(wait * 1000)

    def cpu_total(self) -> float:
        return sum(sum(c) for c, _ in self.by_kind.values()) / 1000

    def lines(self, where: str) -> list[str]:
        out = []
        for kind in ("table", "hand", "result", "final"):
            if kind not in self.by_kind:
                continue
            cpu, wait = self.by_kind[kind]
            out.append(
                f"  {kind + ' picture':<15} n={len(cpu):>6,}  CPU ({where}) mean {sum(cpu) / len(cpu):6.2f} ms"
                f"  p99 {pct(cpu, 99):6.2f}  total {sum(cpu) / 1000:5.2f} s | asked -> PNG in hand: p50 {pct(wait, 50):7.1f} ms"
                f"  p99 {pct(wait, 99):7.1f}  max {max(wait):7.1f}"
            )
        return out


class Stages:
    """Where a click's time to first response goes: the bot reading the INTERACTION_CREATE off the
    gateway, discord.py dispatching it to the button's callback, and the defer's HTTP round trip."""

    def __init__(self) -> None:
        self.parsed: dict[int, float] = {}
        self.deferred: dict[int, float] = {}

    def reset(self) -> None:
        self.parsed.clear()
        self.deferred.clear()

    def install(self) -> None:
        import discord.interactions
        import discord.state

        parse = discord.state.ConnectionState.parse_interaction_create
        defer = discord.interactions.InteractionResponse.defer
        parsed, deferred = self.parsed, self.deferred

        def parse_interaction_create(state: Any, data: Any) -> None:
            parsed[int(data["id"])] = time.monotonic()
            parse(state, data)

        async def timed_defer(response: Any, *args: Any, **kwargs: Any) -> Any:
            deferred[response._parent.id] = time.monotonic()
            return await defer(response, *args, **kwargs)

        # ConnectionState binds its parsers when it is created: install before the bot exists
        discord.state.ConnectionState.parse_interaction_create = parse_interaction_create  # type: ignore[method-assign]
        discord.interactions.InteractionResponse.defer = timed_defer  # type: ignore[method-assign]

    def lines(self, recs: list[Any]) -> list[str]:
        a, b, c = [], [], []
        for r in recs:
            p, d = self.parsed.get(r.id), self.deferred.get(r.id)
            if p is None or d is None or r.responded_at is None:
                continue
            a.append((p - r.created) * 1000)
            b.append((d - p) * 1000)
            c.append((r.responded_at - d) * 1000)
        if not a:
            return []
        out = [f"  where the time to first response goes ({len(a):,} clicks; ms):"]
        for label, v in (
            ("sent -> bot has read INTERACTION_CREATE off the gateway", a),
            ("-> the button callback calls defer()", b),
            ("-> the defer callback reaches the server", c),
        ):
            out.append(
                f"    {label:<58} p50 {pct(v, 50):7.1f}  p90 {pct(v, 90):7.1f}  p99 {pct(v, 99):7.1f}  max {max(v):7.1f}"
            )
        return out


class GcPauses:
    """The cyclic garbage collector's pauses (they stop the event loop), by generation."""

    def __init__(self) -> None:
        self.ms: dict[int, list[float]] = {}
        self.on = False
        self._t0 = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._t0 = time.perf_counter()
        elif self.on:
            self.ms.setdefault(int(info["generation"]), []).append((time.perf_counter() - self._t0) * 1000)

    def line(self) -> str:
        parts = [
            f"gen{g} {len(v)} x, total {sum(v):.0f} ms, max {max(v):.1f} ms" for g, v in sorted(self.ms.items()) if v
        ]
        return "  garbage-collector pauses during the drive: " + ("; ".join(parts) or "none")


class LoopLag:
    """How late a 20 ms sleep wakes up: how long the event loop is kept busy by other work."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self.on = False

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            t0 = loop.time()
            await asyncio.sleep(0.02)
            if self.on:
                self.lags.append((loop.time() - t0 - 0.02) * 1000)


# ---------------------------------------------------------------------------------------------------------


def deep_size(roots: list[Any]) -> int:
    """Bytes of the Python objects reachable from ``roots`` that no module global reaches (so the
    shared rulesets, shanten tables, tile images and the like are not counted); does not follow the
    event loop, tasks, modules, classes or functions."""
    import types

    stop = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)
    stop += (asyncio.AbstractEventLoop, asyncio.Future)
    shared: set[int] = set()
    stack: list[Any] = [
        m.__dict__
        for name, m in list(sys.modules.items())
        if name.split(".")[0] in ("engine", "bot") and m is not None
    ]
    while stack:
        o = stack.pop()
        if id(o) in shared or isinstance(o, stop):
            continue
        shared.add(id(o))
        stack.extend(gc.get_referents(o))
    seen = set(shared)
    total = 0
    stack = list(roots)
    while stack:
        o = stack.pop()
        if id(o) in seen or isinstance(o, stop):
            continue
        seen.add(id(o))
        total += sys.getsizeof(o)
        stack.extend(gc.get_referents(o))
    return total


def _profile_text(path: str, key: str, top: int) -> list[str]:
    import io

    buf = io.StringIO()
    st = pstats.Stats(path, stream=buf)
    st.sort_stats(key).print_stats(top)
    lines = buf.getvalue().splitlines()
    start = next((i for i, s in enumerate(lines) if s.strip().startswith("ncalls")), 0)
    return [
        "  " + s.replace(str(ROOT) + "/", "").replace(sys.prefix, "<venv>")
        for s in lines[start:]
        if s.strip()
    ]


STAGES = Stages()


def _send(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


async def _quiet(bot: Any, limit: float = 15.0) -> None:
    """Until no table is busy for 0.6 s: the work the last clicks started is done."""
    t0 = time.perf_counter()
    still = 0
    while time.perf_counter() - t0 < limit and still < 3:
        await asyncio.sleep(0.2)
        busy = any(t.lock.locked() for t in bot.service.tables.values())
        still = 0 if busy else still + 1


async def main() -> int:
    import discord.gateway
    import discord.http
    import yarl

    from bot.client import make_bot
    from bot.config import Settings

    cfg = json.loads(os.environ["JANTAKU_BENCH"])
    rss_import = rss_mb()
    discord.http.Route.BASE = os.environ["JANTAKU_DISCORD_API"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["JANTAKU_DISCORD_GATEWAY"])
    if cfg.get("reference"):
        install_reference()
    STAGES.install()  # discord.py's parser binds at connection time: before the bot exists
    install_timers()
    shards = cfg.get("shards")
    settings = Settings(
        token="bench-token",
        dev_guild_id=None if shards else int(cfg["guild_id"]),
        sync_global=bool(shards),
        shards=parse_shards(shards) if shards else None,
        database=Path(cfg["db"]),  # unused when database_url is set
        database_url=cfg["db"] if is_url(cfg["db"]) else "",
        organiser_role="Organiser",
        log_level="WARNING",
        ai_delay=0.0,
    )
    renders, lag, pauses = RenderStats(), LoopLag(), GcPauses()
    bot = make_bot(settings)  # AutoShardedBot when shards are named, as python -m bot does
    runner = asyncio.create_task(bot.start(settings.token))
    lag_task = asyncio.create_task(lag.run())
    gc.callbacks.append(pauses)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    try:
        ready_task = asyncio.ensure_future(bot.wait_until_ready())
        done, _ = await asyncio.wait({runner, ready_task}, timeout=300, return_when=asyncio.FIRST_COMPLETED)
        if ready_task not in done:  # the bot ended (or hung) before it was ready: say why at once
            ready_task.cancel()
            why = (runner.exception() or "it stopped") if runner.done() and not runner.cancelled() else "timed out"
            raise RuntimeError(f"the bot did not start: {why}")
        if cfg.get("reference"):
            patch_loaded_reference()
            assert type(bot.presenter).__name__ == "ReferencePresenter"
        renderer = bot.presenter.renderer
        renderer.on_render = renders
        await renderer.wait_ready()
        workers = renderer.worker_pids()
        gc.collect()
        opts = bot.presenter.options
        design = (
            f"{'REFERENCE (presenter of b62ab59: clicks deferred, hands edited with the bot token)' if cfg.get('reference') else 'current'}: pictures drawn "
            + (f"in {len(workers)} worker process(es)" if opts.render_workers else "on the event loop")
            + f", palette {png_options().palette}, zlib level {png_options().compress_level}, table picture edited "
            + (f"at most once per {opts.table_interval:g} s per table" if opts.table_interval > 0 else "on every update")
            + (f", at most {opts.concurrent} updates worked on at once" if opts.concurrent else ", no limit on updates at once")
            + f"; storage backend the bot opened: {bot.repo.backend}"
        )
        _send({"ready": True, "rss_import": rss_import, "rss_base": rss_mb(workers), "workers": len(workers),
               "workers_rss": sum(_vmrss(str(p)) or 0 for p in workers), "design": design})
        prof: cProfile.Profile | None = None
        cpu0 = 0.0
        while line := await reader.readline():
            cmd = json.loads(line)["cmd"]
            if cmd == "start":
                STAGES.reset()
                for t in TIMERS.values():
                    t.reset()
                    t.on = True
                renders.on = pauses.on = lag.on = True
                bot.responses.waits = 0
                if cfg.get("profile"):
                    prof = cProfile.Profile()
                    prof.enable()
                cpu0 = time.process_time()
                _send({"started": True})
            elif cmd == "rss":
                _send({"rss": rss_mb(workers)})
            elif cmd == "stop":
                cpu = time.process_time() - cpu0
                if prof is not None:
                    prof.disable()
                await _quiet(bot)
                for t in TIMERS.values():
                    t.on = False
                renders.on = pauses.on = lag.on = False
                gc.collect()
                tables = list(bot.service.tables.values())
                report: dict[str, Any] = {
                    "cpu": cpu,
                    "render_cpu": renders.cpu_total(),
                    "actions": len(TIMERS["apply"].ns),
                    "human_actions": len(TIMERS["play"].ns),
                    "timer_lines": [
                        TIMERS["apply"].line("engine action: Game.apply (every action)"),
                        TIMERS["play"].line("Game.play (human: validate + apply)"),
                        TIMERS["ai"].line("AI policy decision (smart)"),
                        TIMERS["write"].line("storage write on the writer thread"),
                        TIMERS["write_wait"].line("storage write asked -> done (queue incl.)"),
                    ],
                    "writes": len(TIMERS["write"].ns),
                    "write_ms": [n / 1e6 for n in TIMERS["write"].ns],
                    "write_wait_ms": [n / 1e6 for n in TIMERS["write_wait"].ns],
                    "render_lines": renders.lines("worker" if workers else "event loop"),
                    "gc_line": pauses.line(),
                    "lags": lag.lags,
                    "parsed": STAGES.parsed,
                    "deferred": STAGES.deferred,
                    "settled_waits": bot.responses.waits,
                    "rss_end": rss_mb(workers),
                    "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
                    + sum(_vmrss(str(p)) or 0 for p in workers),
                    "state_bytes": deep_size(tables),
                    "tables": len(tables),
                }
                if prof is not None:
                    prof.dump_stats(cfg["profile"])
                    report["profile"] = {
                        "tottime": _profile_text(cfg["profile"], "tottime", int(cfg.get("profile_top", 25))),
                        "cumulative": _profile_text(cfg["profile"], "cumulative", int(cfg.get("profile_top", 25))),
                    }
                _send(report)
            elif cmd == "quit":
                break
    finally:
        lag_task.cancel()
        for name in ("discord", "bot"):  # work cut off by the shutdown is not a finding
            logging.getLogger(name).setLevel(logging.CRITICAL)
        await bot.close()
        runner.cancel()
        with suppress(asyncio.CancelledError, Exception):
            await runner
    _send({"bye": True})
    return 0


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING, format="bot: %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    sys.exit(asyncio.run(main()))

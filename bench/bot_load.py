"""Benchmark: the real bot under load from many concurrent tables (not a test).

One process, one event loop: the local Discord-protocol server (``bot.devserver``), the real
``JantakuBot`` (AI_DELAY 0, a temporary SQLite file) and a driver acting as the human players.
It opens N tables through ``/table open|join|add-ai|start`` (by default 150 tables with one
scripted human and three AI seats, 50 with two humans and two AI; a user sits at several tables),
then every scripted human presses the first live button (``mj:<table>:<serial>:...``) of its
newest DM for each of its tables as soon as that button appears, all of them at once, for a fixed
time or until every game has ended.

It prints the time from an interaction being sent to the bot's first callback (the devserver's
``InteractionRecord.latency``) and where it goes, how many interactions went unanswered within
Discord's 3 s, the time from a click to the player's hand message changing (the work the first
response does not wait for), the engine's time per action (timing wrappers around
``Game.apply``/``Game.play`` and the AI policy, installed here only), the pictures drawn (the
presenter's render hook: CPU in the render worker and time from asking to having the PNG), the REST
calls per click, RSS per table (the bot's render worker processes included) and interactions/s,
with MET / NOT MET against the targets. The bot, the fake server and the driver share one event
loop, so every latency includes the fake server's work. Clicking at once keeps the bot saturated;
``--think N`` paces each click by N s (x0.5..1.5).

Then, in the same process and under the same load, it runs the same drive again with the older
design as the reference (pictures drawn on the event loop with a palette chosen per picture, every
update edits the table picture before the hands go out) and prints each headline number of the
current design next to the reference's with their ratio. The current design runs first, so its RSS
is measured in a fresh process; ``--no-reference`` skips the reference run.

    python bench/bot_load.py [--seconds 60] [--tables 200] [--two-human 50] [--users 100]
                             [--think 0] [--profile out.prof] [--no-reference] [--no-write]

The result is written to the ``## bench/bot_load.py`` section of bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import logging
import os
import platform
import pstats
import random
import re
import resource
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bot.presenter as presenter_mod  # noqa: E402
from bench.results import write_section  # noqa: E402
from bot.ai.policy import POLICIES  # noqa: E402
from bot.client import JantakuBot  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.devserver import DiscordServer  # noqa: E402
from bot.devserver.state import DM, InteractionRecord, Message  # noqa: E402
from bot.render.pictures import PngOptions, png_options, set_png_options  # noqa: E402
from engine.table.game import Game  # noqa: E402

DEADLINE = 3.0  # Discord's interaction callback window
TARGET_P99_MS = 100.0
TARGET_RSS_MB = 2.0


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


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q / 100 * (len(s) - 1))))]


# ---------------------------------------------------------------------------------------------------------
# timing wrappers (installed by this script only)


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
}


def install_timers() -> None:
    # Game.play validates then calls self.apply, so "apply" covers every action (human, AI, auto)
    Game.apply = TIMERS["apply"].wrap(Game.apply)  # type: ignore[method-assign]
    Game.play = TIMERS["play"].wrap(Game.play)  # type: ignore[method-assign]
    for name in list(POLICIES):  # bot.tables looks the policy up in this dict at every AI move
        POLICIES[name] = TIMERS["ai"].wrap(POLICIES[name])


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

    def lines(self, recs: list[InteractionRecord]) -> list[str]:
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
# driver


@dataclass
class Seat:
    user_id: int
    table: int
    last_serial: int = -1
    last_rec: InteractionRecord | None = None
    event: asyncio.Event = field(default_factory=asyncio.Event)
    clicks: int = 0


class Driver:
    def __init__(self, server: DiscordServer, bot: JantakuBot, think: float = 0.0) -> None:
        self.server = server
        self.bot = bot
        self.seats: dict[tuple[int, int], Seat] = {}
        self.dm_owner: dict[int, int] = {}  # DM channel id -> user id
        self.records: list[InteractionRecord] = []
        self.stop = False
        self.think = think
        self.rng = random.Random(1)
        self.click_errors: Counter[str] = Counter()
        self.clicked_at: dict[tuple[int, int], float] = {}  # (user, table) -> when the click was sent
        self.hand_lag: list[float] = []  # ms from a click to that player's hand message changing
        self._orig_create = server._announce_create
        self._orig_update = server._announce_update
        # wake a seat's agent when its hand DM changes (instead of polling, or server.wait_for
        # waiters that the fake server would re-check on every state change)
        server._announce_create = self._announce_create  # type: ignore[method-assign]
        server._announce_update = self._announce_update  # type: ignore[method-assign]

    async def _announce_create(self, msg: Message) -> None:
        self._wake(msg)
        await self._orig_create(msg)

    async def _announce_update(self, msg: Message) -> None:
        self._wake(msg)
        await self._orig_update(msg)

    def _wake(self, msg: Message) -> None:
        uid = self.dm_owner.get(msg.channel_id)
        if uid is None:
            ch = self.server.state.channels.get(msg.channel_id)
            if ch is None or ch.type != DM:
                return
            cid = self.server.dm_channel_id
            for seat in self.seats.values():  # DM channels are created lazily by the bot
                if cid(seat.user_id) == msg.channel_id:
                    self.dm_owner[msg.channel_id] = uid = seat.user_id
                    break
            else:
                return
        self._hand_changed(msg, uid)
        for row in msg.components:
            for comp in row.get("components", ()):
                m = re.match(r"mjr?:(\d+):", comp.get("custom_id", ""))
                if m:
                    seat = self.seats.get((uid, int(m[1])))
                    if seat is not None:
                        seat.event.set()
                    return

    def _hand_changed(self, msg: Message, uid: int) -> None:
        if not self.clicked_at:
            return
        m = re.search(r"\*\*Table #(\d+)\*\*", msg.content or "")
        if m is None:
            return
        t0 = self.clicked_at.pop((uid, int(m[1])), None)
        if t0 is not None:
            self.hand_lag.append((time.monotonic() - t0) * 1000)

    def live(self, seat: Seat) -> tuple[int, str, int] | None | bool:
        """(message id, custom_id, serial) of the first live button, None if none, False if over."""
        t = self.bot.service.tables.get(seat.table)
        if t is None or t.game is None:
            return None
        if t.game.over or t.row.status != "playing":
            return False
        serial = t.decision_serial()
        if serial <= seat.last_serial:
            return None
        prefix = f"mj:{seat.table}:{serial}:"
        for m in reversed(self.server.dms(seat.user_id)):
            for row in m.components:
                for comp in row.get("components", ()):
                    cid = comp.get("custom_id", "")
                    if cid.startswith(prefix) and not comp.get("disabled"):
                        return m.id, cid, serial
        return None

    async def agent(self, seat: Seat) -> None:
        while not self.stop:
            found = self.live(seat)
            if found is False:
                return
            if found is None:
                seat.event.clear()
                # woken by a change of the seat's hand DM; the timeout only retries a refused click
                refused = seat.last_rec is not None and bool(seat.last_rec.followup_ids)
                try:
                    await asyncio.wait_for(seat.event.wait(), timeout=1.0 if refused else 5.0)
                except TimeoutError:
                    rec = seat.last_rec
                    if rec is not None and rec.responded and rec.followup_ids:
                        seat.last_serial = -1  # the bot refused the click: allow a retry
                continue
            assert not isinstance(found, bool)
            if self.think:  # a human's thinking time before the click (0 = click at once)
                await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
                if self.stop:
                    return
                found = self.live(seat)
                if not found:
                    continue
                assert not isinstance(found, bool)
            mid, cid, serial = found
            try:
                self.clicked_at[(seat.user_id, seat.table)] = time.monotonic()
                rec = await self.server.click(seat.user_id, mid, cid)
            except (LookupError, ValueError, PermissionError) as e:
                self.clicked_at.pop((seat.user_id, seat.table), None)
                self.click_errors[type(e).__name__] += 1
                await asyncio.sleep(0.01)
                continue
            seat.last_serial, seat.last_rec = serial, rec
            seat.clicks += 1
            self.records.append(rec)

    def games(self) -> tuple[int, int]:
        tables = [self.bot.service.tables.get(t) for t in {s.table for s in self.seats.values()}]
        over = sum(1 for t in tables if t is not None and t.game is not None and t.game.over)
        playing = sum(1 for t in tables if t is not None and t.game is not None and not t.game.over)
        return playing, over


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


def prune_devserver(server: DiscordServer) -> int:
    """Drop edit history and attachments no current message uses (the fake keeps every PNG ever
    uploaded, which would otherwise swamp the bot's own memory); returns bytes still held."""
    st = server.state
    keep: set[int] = set()
    for m in st.messages_by_id.values():
        m.history.clear()
        if not m.deleted:
            keep.update(a.id for a in m.attachments)
    for aid in [a for a in st.attachments if a not in keep]:
        del st.attachments[aid]
    return sum(len(a.data) for a in st.attachments.values())


def devserver_bytes(server: DiscordServer) -> int:
    st = server.state
    seen: dict[int, int] = {a.id: len(a.data) for a in st.attachments.values()}
    for m in st.messages_by_id.values():
        for v in m.history:
            for a in v.attachments:
                seen.setdefault(a.id, len(a.data))
    return sum(seen.values())


def route_table(reqs: list[Any], clicks: int, top: int = 10) -> list[str]:
    by: dict[tuple[str, str], list[float]] = {}
    bad: Counter[tuple[str, str]] = Counter()
    for r in reqs:
        path = re.sub(r"/interactions/\d+/[^/]+/", "/interactions/{id}/{token}/", r.path)
        path = re.sub(r"/webhooks/(\d+)/[^/]+", "/webhooks/{app}/{token}", path)
        path = re.sub(r"/\d+", "/{id}", path)
        key = (r.method, path)
        by.setdefault(key, []).append(r.seconds * 1000)
        if r.status >= 400:
            bad[key] += 1
    rows = sorted(by.items(), key=lambda kv: -len(kv[1]))[:top]
    return [
        f"  {m:<6} {p:<52} {len(v):>6,}  {len(v) / max(1, clicks):5.2f}/click  mean {sum(v) / len(v):6.2f} ms"
        f"  p99 {pct(v, 99):7.2f} ms" + (f"  ({bad[(m, p)]} errors)" if bad[(m, p)] else "")
        for (m, p), v in rows
    ]


BACKLOG = 1024


def widen_backlog(server: DiscordServer) -> None:
    """Let the fake server queue up to BACKLOG connections not yet accepted (aiohttp's default is
    128). Discord's edge never turns a connection away for that; here a burst of new connections
    from the bot would overflow the queue, the kernel would drop the SYN, and that click would wait
    a full second for the retransmission: a harness artifact, not the bot's latency."""
    runner = getattr(server, "_runner", None)
    for site in getattr(runner, "sites", ()):
        sock = getattr(site, "_sock", None)
        if sock is not None:
            sock.listen(BACKLOG)  # on a listening socket this only changes the queue's length


async def quiesce(server: DiscordServer, bot: JantakuBot, limit: float = 15.0) -> None:
    """Wait until the bot has finished the work the last clicks started (no table locked and no
    request reaching the fake server for a while), so closing it cuts nothing off."""
    t0 = time.perf_counter()
    last, still = -1, 0
    while time.perf_counter() - t0 < limit and still < 3:
        await asyncio.sleep(0.2)
        busy = any(t.lock.locked() for t in bot.service.tables.values())
        n = server.request_count
        still = still + 1 if n == last and not busy else 0
        last = n


# ---------------------------------------------------------------------------------------------------------


async def setup_table(
    server: DiscordServer,
    guild_id: int,
    channel_id: int,
    humans: list[int],
    length: str,
    setup_recs: list[InteractionRecord],
) -> int:
    async def cmd(uid: int, name: str, options: dict[str, Any]) -> Message | None:
        rec = await server.slash(uid, guild_id, channel_id, name, options)
        setup_recs.append(rec)
        return await rec.reply(timeout=60)

    msg = await cmd(humans[0], "table open", {"length": length})
    m = re.search(r"Table #(\d+) is open", msg.content if msg else "")
    if m is None:
        raise RuntimeError(f"/table open did not open a table: {msg!r}")
    tid = int(m[1])
    for uid in humans[1:]:
        await cmd(uid, "table join", {"table": tid})
    await cmd(humans[0], "table add-ai", {"seats": 4 - len(humans), "table": tid})
    await cmd(humans[0], "table start", {"table": tid})
    return tid


STAGES = Stages()

#: The older presenter the current one is measured against (same process, same load): pictures
#: drawn on the event loop, a palette chosen per picture at zlib level 6, every update edits the
#: table picture, no limit on updates worked on at once. (The rest of the bot is the same in both
#: runs: the per-table ordering of updates, the message intents left out.)
REFERENCE = presenter_mod.PresenterOptions(
    render_workers=0, table_interval=0.0, concurrent=0, png=PngOptions("adaptive", 6)
)


async def run(args: argparse.Namespace, out: list[str], *, reference: bool = False) -> dict[str, Any]:
    def say(line: str = "") -> None:
        out.append(line)
        print(line, flush=True)

    res: dict[str, Any] = {}
    res["rss_import"] = rss_mb()
    say(f"load average at start: {os.getloadavg()[0]:.2f}")
    tmp = tempfile.TemporaryDirectory(prefix="jantaku-load-")
    server = DiscordServer()
    await server.start()
    widen_backlog(server)
    restore = server.configure_client()
    guild = server.add_guild("Load club", channels=[f"tables-{i}" for i in range(args.channels)])
    users = [server.add_user(f"p{i:03d}", guilds=[guild.id]).id for i in range(args.users)]
    db = Path(tmp.name) / "jantaku.sqlite3"
    settings = Settings(
        token="bench-token",
        dev_guild_id=guild.id,
        sync_global=False,
        database=db,
        organiser_role="Organiser",
        log_level="WARNING",
        ai_delay=0.0,
    )
    stages = STAGES
    stages.reset()
    for timer in TIMERS.values():
        timer.reset()
    renders = RenderStats()
    saved_options, saved_png = presenter_mod.DEFAULT_OPTIONS, png_options()
    if reference:
        presenter_mod.DEFAULT_OPTIONS = REFERENCE
    bot = JantakuBot(settings)
    runner = asyncio.create_task(bot.start(settings.token))
    lag = LoopLag()
    lag_task = asyncio.create_task(lag.run())
    pauses = GcPauses()
    gc.callbacks.append(pauses)
    workers: list[int] = []
    try:
        await server.wait_until_ready(30)
        await server.wait_for_commands(["table"], guild.id, timeout=30)
        renderer = bot.presenter.renderer
        renderer.on_render = renders
        await renderer.wait_ready()
        workers = renderer.worker_pids()
        gc.collect()
        res["rss_base"] = rss_mb(workers)
        opts = bot.presenter.options
        say(
            f"design: {'REFERENCE (older design)' if reference else 'current'}: pictures drawn "
            + (f"in {len(workers)} worker process(es)" if opts.render_workers else "on the event loop")
            + f", palette {png_options().palette}, zlib level {png_options().compress_level}, table picture edited "
            + (f"at most once per {opts.table_interval:g} s per table" if opts.table_interval > 0 else "on every update")
            + (f", at most {opts.concurrent} updates worked on at once" if opts.concurrent else ", no limit on updates at once")
        )
        say(
            f"bot ready: RSS {res['rss_base']:.1f} MiB with 0 tables (after import: {res['rss_import']:.1f} MiB"
            + (f"; render workers {sum(_vmrss(str(p)) or 0 for p in workers):.1f} MiB of it)" if workers else ")")
        )

        # --- tables -------------------------------------------------------------------------------
        plan: list[list[int]] = []
        k = 0
        for i in range(args.tables):
            n = 2 if i < args.two_human else 1
            plan.append([users[(k + j) % len(users)] for j in range(n)])
            k += n
        drv = Driver(server, bot, args.think)
        setup_recs: list[InteractionRecord] = []
        sem = asyncio.Semaphore(args.setup_concurrency)

        setup_failed: Counter[str] = Counter()

        async def one(i: int, humans: list[int]) -> int | None:
            async with sem:
                try:
                    return await setup_table(
                        server,
                        guild.id,
                        guild.channel_ids[i % len(guild.channel_ids)],
                        humans,
                        args.length,
                        setup_recs,
                    )
                except Exception as e:  # e.g. a command answered after Discord's 3 s
                    setup_failed[f"{type(e).__name__}: {str(e)[-60:]}"] += 1
                    return None

        t_setup = time.perf_counter()
        started = await asyncio.gather(*(one(i, h) for i, h in enumerate(plan)))
        tids = [t for t in started if t is not None]
        for tid, humans in zip(started, plan):
            if tid is None:
                continue
            for uid in humans:
                drv.seats[(uid, tid)] = Seat(uid, tid)

        # /table start answers before the game is dealt: wait until every table message and every
        # human's hand DM is out, so the drive starts from a quiet bot
        def dealt() -> bool:
            for tid in tids:
                t = bot.service.tables.get(tid)
                if t is None or t.game is None or not t.row.message_id:
                    return False
                acting = t.humans_to_act()  # humans who must act now have their hand DM
                if any(not t.seats[i].hand_message_id and not t.seats[i].dm_closed for i in acting):
                    return False
            return True

        while not dealt() and time.perf_counter() - t_setup < 120:
            await asyncio.sleep(0.1)
        await quiesce(server, bot, limit=30)
        setup_s = time.perf_counter() - t_setup
        users_used = len({uid for h in plan for uid in h})
        say(
            f"setup: {len(tids)} tables ({args.two_human} with 2 humans, {args.tables - args.two_human} with 1; "
            f"{len(drv.seats)} human seats over {users_used} users) opened, filled and started in {setup_s:.1f} s "
            f"({len(setup_recs)} slash commands)"
        )
        if setup_failed:
            say(f"  setup FAILED for {len(plan) - len(tids)} tables: {dict(setup_failed)}")
        if not tids:
            raise RuntimeError("no table started")

        # --- drive ---------------------------------------------------------------------------------
        for t in TIMERS.values():
            t.on = True
        renders.on = True
        pauses.on = True
        lag.on = True
        prof = cProfile.Profile() if args.profile else None
        req0 = server.request_count
        agents = [asyncio.create_task(drv.agent(s)) for s in drv.seats.values()]
        cpu0, t0, mono0 = time.process_time(), time.perf_counter(), time.monotonic()
        if prof is not None:
            prof.enable()
        mid_done = False
        rss_samples: list[float] = []
        held_mid = 0
        while True:
            await asyncio.sleep(1.0)
            el = time.perf_counter() - t0
            held = prune_devserver(server) if not args.keep_history else devserver_bytes(server)
            rss_samples.append(rss_mb(workers))
            playing, over = drv.games()
            if not mid_done and el >= args.seconds / 2:
                # no gc.collect() here: a full collection of this heap stops the loop ~0.5 s,
                # a pause the benchmark would add to every click in flight
                res["rss_mid"], held_mid, res["playing_mid"], mid_done = rss_mb(workers), held, playing, True
            if el >= args.seconds or playing == 0:
                break
            if int(el) % 10 == 0:
                answered = sum(1 for r in drv.records if r.responded)
                say(
                    f"  t={el:4.0f}s  clicks sent {len(drv.records):>6,}  answered {answered:>6,}  games playing {playing}, over {over}"
                )
        drive_s = time.perf_counter() - t0
        drv.stop = True
        for s in drv.seats.values():
            s.event.set()
        await asyncio.gather(*agents, return_exceptions=True)
        # let in-flight interactions finish (or run past the deadline)
        t_wait = time.perf_counter()
        while (
            any(not r.responded and not r.errors for r in drv.records)
            and time.perf_counter() - t_wait < DEADLINE + 2
        ):
            await asyncio.sleep(0.05)
        if prof is not None:
            prof.disable()
        cpu = time.process_time() - cpu0
        n_req = server.request_count - req0
        reqs = list(server.requests)[-n_req:] if n_req else []
        await quiesce(server, bot)
        for t in TIMERS.values():
            t.on = False
        renders.on = False
        pauses.on = False
        lag.on = False
        gc.collect()
        res["rss_end"] = rss_mb(workers)
        res["peak"] = max(peak_rss_mb(), res["rss_end"])
        held_end = prune_devserver(server) if not args.keep_history else devserver_bytes(server)
        playing, over = drv.games()
        res["state_end"] = deep_size([bot.service.tables[t] for t in tids])
        if not mid_done:
            res["rss_mid"], held_mid, res["playing_mid"] = res["rss_end"], held_end, playing

        # --- results -------------------------------------------------------------------------------
        recs = drv.records
        lat = [r.latency * 1000 for r in recs if r.latency is not None]
        late = [r for r in recs if r.latency is None or r.latency > DEADLINE or r.errors]
        refused = sum(1 for r in recs if r.followup_ids)
        setup_lat = [r.latency * 1000 for r in setup_recs if r.latency is not None]
        setup_late = [r for r in setup_recs if r.latency is None or r.latency > DEADLINE or r.errors]
        actions = len(TIMERS["apply"].ns)
        rate = len(lat) / drive_s
        say()
        say(
            f"drive: {drive_s:.1f} s, {len(drv.seats)} scripted humans at {len(tids)} tables; games at the end: {playing} playing, {over} over"
        )
        say(
            f"  interactions (button clicks) sent {len(recs):,}, answered {len(lat):,} = {rate:,.1f} interactions/s handled; "
            f"refused by the bot (ephemeral follow-up) {refused}; driver click errors {dict(drv.click_errors) or 0}"
        )
        say(
            f"  engine actions applied {actions:,} = {actions / drive_s:,.0f}/s (human {len(TIMERS['play'].ns):,}, AI/auto the rest)"
        )
        worker_cpu = renders.cpu_total() if workers else 0.0
        say(
            f"  process CPU {cpu:.1f} s over {drive_s:.1f} s wall ({cpu / drive_s * 100:.0f}% of one core; one event loop)"
            + (f" + render worker CPU {worker_cpu:.1f} s ({worker_cpu / drive_s * 100:.0f}% of one core)" if workers else "")
        )
        res["cpu_per_click"] = (cpu + worker_cpu) * 1000 / max(1, len(recs))
        res["loop_cpu_per_click"] = cpu * 1000 / max(1, len(recs))
        if lat:
            say(
                f"  click -> first callback (InteractionRecord.latency, ms): p50 {pct(lat, 50):.1f}  p90 {pct(lat, 90):.1f}  "
                f"p99 {pct(lat, 99):.1f}  max {max(lat):.1f}  mean {sum(lat) / len(lat):.1f}"
            )
        for line in stages.lines(recs):
            say(line)
        slow = [r for r in recs if r.latency is not None and r.latency * 1000 > TARGET_P99_MS]
        if slow:
            # when the slow clicks were sent: a burst at the start (every human clicks at once) or
            # spread over the drive (pauses, queueing at saturation)
            by_s = Counter(int(r.created - mono0) for r in slow)
            steady = [r.latency * 1000 for r in recs if r.latency is not None and r.created - mono0 >= 2.0]
            say(
                f"  clicks over {TARGET_P99_MS:.0f} ms: {len(slow):,}; by second of the drive they were sent in: "
                + ", ".join(f"{sec}s {n}" for sec, n in sorted(by_s.items(), key=lambda kv: -kv[1])[:8])
                + (f"; p99 of clicks sent after the first 2 s: {pct(steady, 99):.1f}" if steady else "")
            )
        hand = drv.hand_lag
        if hand:
            say(
                f"  click -> the player's hand message changes (what the first response does not wait for; ms): "
                f"p50 {pct(hand, 50):.1f}  p90 {pct(hand, 90):.1f}  p99 {pct(hand, 99):.1f}  max {max(hand):.1f}"
            )
        say(f"  unanswered within {DEADLINE:.0f} s: {len(late)} of {len(recs):,}")
        if setup_lat:
            say(
                f"  setup slash commands -> first callback (ms): p50 {pct(setup_lat, 50):.1f}  p99 {pct(setup_lat, 99):.1f}  "
                f"max {max(setup_lat):.1f}; unanswered within {DEADLINE:.0f} s: {len(setup_late)} of {len(setup_recs)}"
            )
        if lag.lags:
            say(
                f"  event-loop lag (a 20 ms sleep wakes late by, ms): p50 {pct(lag.lags, 50):.1f}  p99 {pct(lag.lags, 99):.1f}  "
                f"max {max(lag.lags):.1f}"
            )
        say(pauses.line())
        say()
        say(
            f"REST requests the bot made to the fake server during the drive: {n_req:,} "
            f"({n_req / max(1, len(recs)):.1f} per click); by route (server-side handling time):"
        )
        for line in route_table(reqs, len(recs)):
            say(line)
        say()
        say("time inside the bot per call (wrappers installed by this script; drive phase only):")
        say(TIMERS["apply"].line("engine action: Game.apply (every action)"))
        say(TIMERS["play"].line("Game.play (human: validate + apply)"))
        say(TIMERS["ai"].line("AI policy decision (smart)"))
        say("pictures drawn during the drive (the presenter's render hook):")
        for line in renders.lines("worker" if workers else "event loop"):
            say(line)
        say()
        per_mid = (res["rss_mid"] - res["rss_base"]) / len(tids)
        per_end = (res["rss_end"] - res["rss_base"]) / len(tids)
        net_end = (res["rss_end"] - res["rss_base"] - held_end / 2**20) / len(tids)
        say(
            f"RSS: {res['rss_base']:.1f} MiB with 0 tables; {res['rss_mid']:.1f} MiB mid-drive ({res['playing_mid']} games playing); "
            f"{res['rss_end']:.1f} MiB at the end; peak {res['peak']:.1f} MiB"
        )
        say(
            f"  per table: {per_mid:.2f} MiB mid-drive, {per_end:.2f} MiB at the end; the fake server itself held "
            f"{held_end / 2**20:.1f} MiB of PNG attachments at the end ({held_mid / 2**20:.1f} mid) -> "
            f"{net_end:.2f} MiB per table without them"
        )
        say(
            f"  the bot's own Python objects per table (Table, Game, seats: deep size, shared tables excluded): "
            f"{res['state_end'] / len(tids) / 1024:.0f} KiB at the end (measured after the RSS above)"
        )
        say(
            "  (the fake server's edit history and unused PNGs are pruned every second so its archive does not count; "
            "its messages, records and current PNGs still do)"
            if not args.keep_history
            else "  (--keep-history: the fake server keeps every PNG ever uploaded, all of it inside this RSS)"
        )
        say()
        p99 = pct(lat, 99) if lat else float("inf")
        res.update(p99=p99, late=len(late), per_table=per_end, net_per_table=net_end)
        res.update(
            p50=pct(lat, 50) if lat else float("nan"),
            p90=pct(lat, 90) if lat else float("nan"),
            max=max(lat) if lat else float("nan"),
            clicks=len(recs),
            rate=rate,
            hand_p50=pct(hand, 50) if hand else float("nan"),
            hand_p99=pct(hand, 99) if hand else float("nan"),
            lag_p99=pct(lag.lags, 99) if lag.lags else float("nan"),
            req_per_click=n_req / max(1, len(recs)),
            table_edits=sum(1 for r in reqs if r.method == "PATCH" and "/channels/" in r.path) / max(1, len(recs)),
        )
        say("targets:")
        say(
            f"  p99 click -> first response < {TARGET_P99_MS:.0f} ms: {p99:.1f} ms  {'MET' if p99 < TARGET_P99_MS else 'NOT MET'}"
        )
        say(
            f"  nothing unanswered within {DEADLINE:.0f} s: {len(late)} unanswered  {'MET' if not late else 'NOT MET'}"
        )
        say(
            f"  RSS < {TARGET_RSS_MB:.0f} MB per table: {per_end:.2f} MiB (whole process, fake server included)  "
            f"{'MET' if per_end < TARGET_RSS_MB else 'NOT MET'}"
        )
        if not args.think:
            say(
                "note: the humans click the moment their buttons appear (closed loop), so the bot runs at its "
                "capacity and the latency above is queueing at saturation; --think N paces the clicks."
            )
        say(
            f"note: the fake server listens with a backlog of {BACKLOG} (aiohttp's 128 drops SYNs under bursts of new "
            "connections: a 1 s TCP retransmission that real Discord would not cause); the driver wakes on hand-message "
            "changes (and every 5 s); no gc.collect() during the drive."
        )
        say(
            "note: bot, fake Discord server and driver share ONE event loop on a "
            f"{os.cpu_count()}-core machine; every latency above includes the fake server's own work "
            "(JSON, multipart parsing, gateway dispatch) and the driver's."
        )
        if prof is not None:
            prof.dump_stats(args.profile)
            say()
            say(f"profile of the drive phase written to {args.profile}; top functions by own time:")
            text = _profile_text(args.profile, "tottime", args.profile_top)
            for line in text:
                say(line)
            say("top by cumulative time:")
            for line in _profile_text(args.profile, "cumulative", args.profile_top):
                say(line)
    finally:
        lag_task.cancel()
        gc.callbacks.remove(pauses)
        for name in ("discord", "bot"):  # work cut off by the shutdown is not a finding
            logging.getLogger(name).setLevel(logging.CRITICAL)
        await bot.close()
        runner.cancel()
        with suppress(asyncio.CancelledError, Exception):
            await runner
        restore()
        await server.stop()
        tmp.cleanup()
        presenter_mod.DEFAULT_OPTIONS = saved_options
        set_png_options(saved_png)
    return res


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


def comparison(new: dict[str, Any], ref: dict[str, Any]) -> list[str]:
    """The current design's headline numbers next to the reference run's, with their ratio."""
    rows = [
        ("click -> first response p50 (ms)", "p50", "{:.1f}"),
        ("click -> first response p90 (ms)", "p90", "{:.1f}"),
        ("click -> first response p99 (ms)", "p99", "{:.1f}"),
        ("click -> first response max (ms)", "max", "{:.1f}"),
        ("unanswered within 3 s", "late", "{:.0f}"),
        ("interactions handled per second", "rate", "{:.1f}"),
        ("click -> hand message changes p50 (ms)", "hand_p50", "{:.1f}"),
        ("click -> hand message changes p99 (ms)", "hand_p99", "{:.1f}"),
        ("event-loop lag p99 (ms)", "lag_p99", "{:.1f}"),
        ("CPU per click, all processes (ms)", "cpu_per_click", "{:.1f}"),
        ("CPU per click in the event loop's process (ms)", "loop_cpu_per_click", "{:.1f}"),
        ("REST requests per click", "req_per_click", "{:.2f}"),
        ("message edits (PATCH) per click", "table_edits", "{:.2f}"),
        ("RSS per table (MiB; reference measured second)", "per_table", "{:.2f}"),
    ]
    out = [
        "current design vs the reference run (the older presenter: pictures on the event loop, every update edits the "
        "table picture, no limit on updates at once), same process, same settings, run right after:",
        f"  {'':<50} {'current':>10} {'reference':>10}  current/reference",
    ]
    for label, key, fmt in rows:
        a, b = new.get(key, float("nan")), ref.get(key, float("nan"))
        ratio = f"{a / b:.2f}x" if isinstance(a, (int, float)) and isinstance(b, (int, float)) and b else "-"
        out.append(f"  {label:<50} {fmt.format(a):>10} {fmt.format(b):>10}  {ratio}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=60.0, help="how long the humans play")
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument(
        "--two-human", type=int, default=50, help="tables with two scripted humans (the rest have one)"
    )
    ap.add_argument("--users", type=int, default=100, help="distinct users; each sits at several tables")
    ap.add_argument("--channels", type=int, default=10, help="guild channels the tables are spread over")
    ap.add_argument("--length", choices=("hanchan", "tonpuu"), default="hanchan")
    ap.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds a human waits before each click (x0.5..1.5); 0 = as fast as responses come back",
    )
    ap.add_argument("--setup-concurrency", type=int, default=20)
    ap.add_argument("--keep-history", action="store_true", help="do not prune the fake server's old PNGs")
    ap.add_argument("--profile", metavar="FILE", help="cProfile the drive phase into FILE (slows everything)")
    ap.add_argument("--profile-top", type=int, default=25)
    ap.add_argument("--no-reference", action="store_true", help="skip the reference run of the older design")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    out: list[str] = [
        f"bench/bot_load.py  {time.strftime('%Y-%m-%d %H:%M')}",
        f"machine: nproc={os.cpu_count()}, Python {platform.python_version()}, load average at start {os.getloadavg()[0]:.2f}",
        f"tables {args.tables} ({args.two_human} x 2 humans + 2 AI, {args.tables - args.two_human} x 1 human + 3 AI), "
        f"{args.length}, AI_DELAY 0, {args.users} users, {args.seconds:.0f} s of play, "
        + (
            f"think time {args.think:g} s (x0.5..1.5) per click"
            if args.think
            else "humans click as soon as their buttons appear"
        ),
        "",
    ]
    for line in out:
        print(line)
    t0 = time.perf_counter()
    STAGES.install()  # discord.py's parser binds at connection time: before any bot exists
    install_timers()
    res = asyncio.run(run(args, out))
    if not args.no_reference and not args.profile:
        ref_out: list[str] = []
        print("\n--- reference run (older design), same process, same settings ---")
        ref = asyncio.run(run(args, ref_out, reference=True))
        out.append("")
        out.extend(comparison(res, ref))
        print("\n".join(out[-len(comparison(res, ref)) :]))
    out.append(f"load average at end: {os.getloadavg()[0]:.2f} (other processes share the 2 cores)")
    out.append(f"total wall time: {time.perf_counter() - t0:.1f} s")
    print("\n".join(out[-2:]))
    if not args.no_write and not args.profile:
        write_section("bench/bot_load.py", "\n".join(out))
    return 0



if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: the real bot under load from many concurrent tables (not a test).

Two processes: this one runs the local Discord-protocol server (``devserver``) and a driver
acting as the human players; ``bench/bot_process.py`` runs the real ``JantakuBot`` (AI_DELAY 0, a
temporary SQLite file or PostgreSQL database, its render worker) and the timing wrappers, as Discord and its users run
elsewhere than the bot.
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
with MET / NOT MET against the targets. Every latency is measured at the fake server, so it includes
the gateway and HTTP hops and the CPU both ends take on the same machine. Clicking at once keeps the
bot saturated; ``--think N`` paces each click by N s (x0.5..1.5).

Then, from the same process and under the same load, it runs the same drive again against a bot
with the older design as the reference (pictures drawn on the event loop with a palette chosen per picture, every
update edits the table picture before the hands go out) and prints each headline number of the
current design next to the reference's with their ratio (each bot in a fresh process);
``--no-reference`` skips the reference run.

``--database`` picks what the bot stores in: ``sqlite`` (the default, a temporary file),
``postgres`` (a database ``jantaku_bench_<random>`` created on the server of ``--postgres-server``,
127.0.0.1:5432 by default, and dropped afterwards; one line and exit 2 if no server answers) or
``both``: the same drive (same tables, seeds, think time and Discord limits) on SQLite, then on
PostgreSQL, each bot in a fresh process, and one table of the two side by side. The reference run
of the older design is made only with ``--database sqlite``. The memory per table is the bot
process and its render workers; a PostgreSQL server's own memory is not counted.

``--processes 1|2|both`` (always on PostgreSQL) runs the bot sharded: the devserver gets two
guilds, one on each of 2 shards, the tables alternating between them; ``1`` is one bot process holding
shards ``0-1/2``, ``2`` is two processes holding ``0/2`` and ``1/2`` on the one PostgreSQL database and
one Redis (``JANTAKU_REDIS_URL``, 127.0.0.1:6379 by default) under a fresh key prefix, deleted after
(hand clicks, all sent to shard 0, forwarded to the table's process; one token budget); ``both`` runs
1 then 2 with the same tables, seeds and think time and prints one table side by side: clicks/s,
click-to-hand p50/p99, unanswered, 429s, bot-token requests per click and the most in any 1 s window
(counted on arrival at the devserver), CPU per process, and what one token's 50/s carries in tables.

    python bench/bot_load.py [--seconds 60] [--tables 200] [--two-human 50] [--users 100]
                             [--think 0] [--database sqlite|postgres|both] [--processes 1|2|both]
                             [--channels 10] [--profile out.prof]
                             [--no-reference] [--no-write]

The result is written to the ``## bench/bot_load.py`` section of bench/RESULTS.md (a run with
``--think N`` to ``## bench/bot_load.py --think N``; a run on PostgreSQL or both to a section
whose name adds ``--database postgres|both``, then ``--processes``, and ``--channels`` when not 10).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import logging
import os
import platform
import random
import re
import secrets
import sys
import tempfile
import time
from collections import Counter, deque
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bot_process import Stages, pct  # noqa: E402
from bench.results import write_section  # noqa: E402
from devserver import DiscordServer  # noqa: E402
from devserver.shards import shard_of  # noqa: E402
from devserver.state import DM, InteractionRecord, Message  # noqa: E402

DEADLINE = 3.0  # Discord's interaction callback window
#: the PostgreSQL server a ``--database postgres|both`` run creates its database on (trust authentication)
PG_SERVER = "postgresql://postgres@127.0.0.1:5432"
#: the Redis a ``--processes 2`` run's bot processes meet in (under a random key prefix, deleted after)
REDIS_URL = (os.environ.get("JANTAKU_REDIS_URL") or os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0").strip()
TARGET_P99_MS = 100.0
TARGET_RSS_MB = 2.0


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
    def __init__(self, server: DiscordServer, think: float = 0.0) -> None:
        self.server = server
        self.over: set[int] = set()  # tables whose final standings were posted
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
        self._note_final(msg)
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
        """(message id, custom_id, serial) of the first button of the seat's newest hand message
        with a decision newer than its last click; None if there is none, False once the game is
        over. Only what the player sees: the bot is another process."""
        if seat.table in self.over:
            return False
        prefix = f"mj:{seat.table}:"
        for m in reversed(self.server.dms(seat.user_id)):  # the newest hand message of the table
            for row in m.components:
                for comp in row.get("components", ()):
                    cid = comp.get("custom_id", "")
                    if cid.startswith(prefix) and not comp.get("disabled"):
                        serial = int(cid.split(":", 3)[2])
                        return (m.id, cid, serial) if serial > seat.last_serial else None
        return None

    def _note_final(self, msg: Message) -> None:
        m = re.match(r"\*\*Table #(\d+) final standings\*\*", msg.content or "")
        if m:
            tid = int(m[1])
            self.over.add(tid)
            for seat in self.seats.values():
                if seat.table == tid:
                    seat.event.set()

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
        tables = {s.table for s in self.seats.values()}
        over = len(tables & self.over)
        return len(tables) - over, over


def prune_devserver(server: DiscordServer) -> int:
    """Drop edit history and attachments no current message uses (the fake keeps every PNG ever
    uploaded: this process would grow by GBs over a long drive); returns bytes still held."""
    st = server.state
    keep: set[int] = set()
    for m in st.messages_by_id.values():
        m.history.clear()
        if not m.deleted:
            keep.update(a.id for a in m.attachments)
    for aid in [a for a in st.attachments if a not in keep]:
        del st.attachments[aid]
    return sum(len(a.data) for a in st.attachments.values())


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
    if len(humans) < 4:
        await cmd(humans[0], "table add-ai", {"seats": 4 - len(humans), "table": tid})
    await cmd(humans[0], "table start", {"table": tid})
    return tid


async def pg_admin(server_url: str, sql: str) -> None:
    """One statement on the server's ``postgres`` database (CREATE / DROP DATABASE)."""
    import asyncpg

    conn = await asyncpg.connect(f"{server_url}/postgres", timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def pg_answers(server_url: str) -> str | None:
    """None when the PostgreSQL server answers, else one line saying why not."""
    try:
        await pg_admin(server_url, "SELECT 1")
    except (OSError, ConnectionError, TimeoutError) as e:
        return f"no PostgreSQL server answers at {server_url} ({type(e).__name__}: {e})"
    except Exception as e:  # e.g. the role does not exist
        return f"the PostgreSQL server at {server_url} refused the benchmark ({type(e).__name__}: {e})"
    return None


class BotProcess:
    """The bot in its own process (``bench/bot_process.py``), driven by one JSON line per command."""

    def __init__(
        self, server: DiscordServer, guild_id: int, db: Path | str, *, reference: bool, profile: str | None, top: int,
        shards: str | None = None, redis_prefix: str | None = None,
    ) -> None:
        self.env = dict(os.environ)
        self.env.update(
            JANTAKU_DISCORD_API=server.base_url,
            JANTAKU_DISCORD_GATEWAY=server.gateway_url,
            JANTAKU_BENCH=json.dumps(
                {"guild_id": guild_id, "db": str(db), "reference": reference, "profile": profile, "profile_top": top,
                 "shards": shards}
            ),
        )
        for name in ("JANTAKU_REDIS_URL", "REDIS_URL", "JANTAKU_REDIS_PREFIX"):
            self.env.pop(name, None)
        if redis_prefix is not None:  # several processes on one token meet there (bot/cluster)
            self.env.update(JANTAKU_REDIS_URL=REDIS_URL, JANTAKU_REDIS_PREFIX=redis_prefix)
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> dict[str, Any]:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, str(ROOT / "bench" / "bot_process.py"), cwd=str(ROOT), env=self.env,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=2**26,
        )
        return await self._answer(300)

    async def _answer(self, timeout: float = 120) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
        if not line:
            raise RuntimeError("the bot process ended (its stderr is above)")
        answer: dict[str, Any] = json.loads(line)
        return answer

    async def ask(self, cmd: str, timeout: float = 120) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write((json.dumps({"cmd": cmd}) + "\n").encode())
        await self.proc.stdin.drain()
        return await self._answer(timeout)

    def cpu_seconds(self) -> float:
        """User + system CPU of the bot process so far (its render workers not included)."""
        assert self.proc is not None
        try:
            with open(f"/proc/{self.proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return float("nan")

    async def close(self) -> None:
        if self.proc is None or self.proc.returncode is not None:
            return
        with suppress(Exception):
            await self.ask("quit", timeout=30)
        try:
            await asyncio.wait_for(self.proc.wait(), 30)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()


async def quiet_server(server: DiscordServer, still_for: float = 1.5, limit: float = 60.0) -> None:
    """Until no request has reached the fake server for ``still_for`` seconds: the bot has finished
    what the last commands and clicks started (it is another process; this is what it shows)."""
    t0 = time.perf_counter()
    last, since = -1, time.perf_counter()
    while time.perf_counter() - t0 < limit:
        await asyncio.sleep(0.1)
        n = server.request_count
        if n != last:
            last, since = n, time.perf_counter()
        elif time.perf_counter() - since >= still_for:
            return


async def redis_answers(url: str) -> str | None:
    """None when Redis answers PING, else one line saying why not."""
    from redis.asyncio import Redis

    client = Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
    try:
        await client.ping()
    except Exception as e:
        return f"no Redis answers at {url} ({type(e).__name__}: {e})"
    finally:
        await client.aclose()
    return None


async def redis_drop(url: str, prefix: str) -> int:
    """Delete every key under ``prefix``; how many there were."""
    from redis.asyncio import Redis

    client = Redis.from_url(url)
    try:
        keys = [k async for k in client.scan_iter(match=prefix + "*", count=500)]
        if keys:
            await client.delete(*keys)
        return len(keys)
    finally:
        await client.aclose()


def most_in_a_second(times: list[float]) -> int:
    """The most arrivals in any window of one second (each window starting at an arrival)."""
    times = sorted(times)
    return max((bisect.bisect_left(times, t + 1.0) - i for i, t in enumerate(times)), default=0)


def merge_reports(reps: list[dict[str, Any]]) -> dict[str, Any]:
    """Several bot processes' ``stop`` reports as one: counts and CPU summed, samples pooled; the
    per-call timer lines and the garbage collector's line are kept per process."""
    if len(reps) == 1:
        return reps[0]
    out: dict[str, Any] = {}
    for key in ("cpu", "render_cpu", "actions", "human_actions", "writes", "settled_waits", "rss_end", "peak", "state_bytes", "tables"):
        out[key] = sum(r[key] for r in reps)
    for key in ("write_ms", "write_wait_ms", "lags"):
        out[key] = [v for r in reps for v in r[key]]
    for key in ("parsed", "deferred"):
        out[key] = {k: v for r in reps for k, v in r[key].items()}
    out["timer_lines"] = [f"{line}  [process {i}]" for i, r in enumerate(reps) for line in r["timer_lines"]]
    out["render_lines"] = [f"{line}  [process {i}]" for i, r in enumerate(reps) for line in r["render_lines"]]
    out["gc_line"] = "\n".join(f"{r['gc_line']}  [process {i}]" for i, r in enumerate(reps))
    return out


async def run(
    args: argparse.Namespace, out: list[str], *, reference: bool = False, database: str = "sqlite", processes: int = 0
) -> dict[str, Any]:
    """One drive. ``processes`` 0: one unsharded bot process and one guild (the other runs); 1 or 2:
    two guilds (one on each of 2 shards), the tables split between them, and shards 0-1/2 in one
    process or 0/2 and 1/2 in two (these on one Redis under a fresh prefix)."""
    def say(line: str = "") -> None:
        out.append(line)
        print(line, flush=True)

    res: dict[str, Any] = {"database": database, "processes": processes}
    say(f"load average at start: {os.getloadavg()[0]:.2f}")
    redis_prefix = f"jantaku-bench-{secrets.token_hex(6)}:" if processes == 2 else None
    tmp = tempfile.TemporaryDirectory(prefix="jantaku-load-")
    db: Path | str = Path(tmp.name) / "jantaku.sqlite3"
    pg_name = ""
    if database == "postgres":
        pg_name = f"jantaku_bench_{secrets.token_hex(6)}"
        await pg_admin(args.postgres_server, f'CREATE DATABASE "{pg_name}"')
        db = f"{args.postgres_server}/{pg_name}"
        say(f"database: PostgreSQL {args.postgres_server}/{pg_name} (created for this run, dropped after it)")
    else:
        say("database: SQLite, a temporary file")
    server = DiscordServer()
    await server.start()
    widen_backlog(server)
    server.requests = deque(maxlen=1_000_000)  # every request of the drive (the fake keeps 20,000)
    channels = [f"tables-{i}" for i in range(args.channels)]
    guilds = [server.add_guild("Load club", channels=channels)]
    if processes:
        guilds.append(server.add_guild("Load club B", channels=channels))
        if [shard_of(g.id, 2) for g in guilds] != [0, 1]:
            raise RuntimeError(f"the two guilds are not on shards 0 and 1 of 2: {[shard_of(g.id, 2) for g in guilds]}")
        say(f"guilds: 2 (shard 0 and shard 1 of 2), the tables alternating between them; {args.channels} channels each")
    guild = guilds[0]
    users = [server.add_user(f"p{i:03d}", guilds=[g.id for g in guilds]).id for i in range(args.users)]
    shard_sets: list[str | None] = [None] if not processes else ["0-1/2"] if processes == 1 else ["0/2", "1/2"]
    if processes == 2:
        say(f"Redis: {REDIS_URL} under the key prefix {redis_prefix} (fresh for this run, deleted after it)")
    bps = [
        BotProcess(server, guild.id, db, reference=reference, profile=args.profile, top=args.profile_top, shards=sh, redis_prefix=redis_prefix)
        for sh in shard_sets
    ]
    if processes:
        say(f"bot processes: {len(bps)}, shards {', '.join(str(sh) for sh in shard_sets)}")
    try:
        readies = list(await asyncio.gather(*(bp.start() for bp in bps)))  # on a fresh database one migrates, the other waits
        ready = readies[0]
        await server.wait_until_ready(60, shards=2 if processes else 0)
        await server.wait_for_commands(["table"], None if processes else guild.id, timeout=30)
        res["rss_base"] = sum(r["rss_base"] for r in readies)
        workers_n = sum(r["workers"] for r in readies)
        say(f"design: {ready['design']}")
        for i, r in enumerate(readies):
            say(
                f"bot process {i} ready: RSS {r['rss_base']:.1f} MiB with 0 tables (after import: {r['rss_import']:.1f} MiB"
                + (f"; render workers {r['workers_rss']:.1f} MiB of it)" if r["workers"] else ")")
            )

        # --- tables -------------------------------------------------------------------------------
        plan: list[list[int]] = []
        k = 0
        for i in range(args.tables):
            n = 4 if args.all_human else 2 if i < args.two_human else 1
            plan.append([users[(k + j) % len(users)] for j in range(n)])
            k += n
        drv = Driver(server, args.think)
        setup_recs: list[InteractionRecord] = []
        sem = asyncio.Semaphore(args.setup_concurrency)
        setup_failed: Counter[str] = Counter()

        async def one(i: int, humans: list[int]) -> int | None:
            async with sem:
                g = guilds[i % len(guilds)]
                try:
                    return await setup_table(
                        server, g.id, g.channel_ids[(i // len(guilds)) % len(g.channel_ids)], humans, args.length, setup_recs
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
        # /table start answers before the game is dealt: wait until the bot has sent every table
        # message and hand and gone quiet, so the drive starts from a quiet bot
        await quiet_server(server)
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
        for bp in bps:
            await bp.ask("start")
        server.reset_stats()  # Discord's limits: what the drive itself sends and meets
        arrivals: list[float] = []  # when each bot-token request (on the global budget) reached the server
        count = server.stats.count

        def counted(route: str, *, on_global: bool) -> None:
            if on_global:
                arrivals.append(time.monotonic())
            count(route, on_global=on_global)

        server.stats.count = counted  # type: ignore[method-assign]
        req0 = server.request_count
        agents = [asyncio.create_task(drv.agent(s)) for s in drv.seats.values()]
        bot_cpu0 = [bp.cpu_seconds() for bp in bps]
        cpu0, t0, mono0 = time.process_time(), time.perf_counter(), time.monotonic()
        mid_done = False
        while True:
            await asyncio.sleep(1.0)
            el = time.perf_counter() - t0
            prune_devserver(server)
            playing, over = drv.games()
            if not mid_done and el >= args.seconds / 2:
                rss_mid = sum([(await bp.ask("rss"))["rss"] for bp in bps])
                res["rss_mid"], res["playing_mid"], mid_done = rss_mid, playing, True
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
        while any(not r.responded and not r.errors for r in drv.records) and time.perf_counter() - t_wait < DEADLINE + 2:
            await asyncio.sleep(0.05)
        limits = server.request_stats()
        fake_cpu = time.process_time() - cpu0
        bot_cpus = [bp.cpu_seconds() - c0 for bp, c0 in zip(bps, bot_cpu0, strict=True)]
        bot_cpu = sum(bot_cpus)
        n_req = server.request_count - req0
        reqs = list(server.requests)[-n_req:] if n_req else []
        # each bot waits until no table of its is busy, then reports
        reps = list(await asyncio.gather(*(bp.ask("stop") for bp in bps)))
        rep = merge_reports(reps)
        playing, over = drv.games()
        if not mid_done:
            res["rss_mid"], res["playing_mid"] = rep["rss_end"], playing
        res["rss_end"], res["peak"] = rep["rss_end"], rep["peak"]

        # --- results -------------------------------------------------------------------------------
        recs = drv.records
        lat = [r.latency * 1000 for r in recs if r.latency is not None]
        late = [r for r in recs if r.latency is None or r.latency > DEADLINE or r.errors]
        refused = sum(1 for r in recs if r.followup_ids)
        setup_lat = [r.latency * 1000 for r in setup_recs if r.latency is not None]
        setup_late = [r for r in setup_recs if r.latency is None or r.latency > DEADLINE or r.errors]
        actions = rep["actions"]
        rate = len(lat) / drive_s
        lags: list[float] = rep["lags"]
        say()
        say(f"drive: {drive_s:.1f} s, {len(drv.seats)} scripted humans at {len(tids)} tables; games at the end: {playing} playing, {over} over")
        say(
            f"  interactions (button clicks) sent {len(recs):,}, answered {len(lat):,} = {rate:,.1f} interactions/s handled; "
            f"refused by the bot (ephemeral follow-up) {refused}; driver click errors {dict(drv.click_errors) or 0}"
        )
        say(f"  engine actions applied {actions:,} = {actions / drive_s:,.0f}/s (human {rep['human_actions']:,}, AI/auto the rest)")
        worker_cpu = rep["render_cpu"]
        for i, (c, r) in enumerate(zip(bot_cpus, reps, strict=True)):
            say(
                f"  bot process {i} CPU {c:.1f} s over {drive_s:.1f} s wall ({c / drive_s * 100:.0f}% of one core; one event loop)"
                + (f" + render worker CPU {r['render_cpu']:.1f} s ({r['render_cpu'] / drive_s * 100:.0f}%)" if readies[i]["workers"] else "")
            )
        say(f"  the fake Discord and the driver (this process) {fake_cpu:.1f} s ({fake_cpu / drive_s * 100:.0f}%)")
        res["proc_cpu"] = [
            (c + (r["render_cpu"] if rd["workers"] else 0.0)) / drive_s * 100 for c, r, rd in zip(bot_cpus, reps, readies, strict=True)
        ]
        res["cpu_per_click"] = (bot_cpu + (worker_cpu if workers_n else 0.0)) * 1000 / max(1, len(recs))
        res["loop_cpu_per_click"] = bot_cpu * 1000 / max(1, len(recs))
        if lat:
            say(
                f"  click -> first callback (InteractionRecord.latency, ms): p50 {pct(lat, 50):.1f}  p90 {pct(lat, 90):.1f}  "
                f"p99 {pct(lat, 99):.1f}  max {max(lat):.1f}  mean {sum(lat) / len(lat):.1f}"
            )
        stages = Stages()
        stages.parsed.update({int(k): v for k, v in rep["parsed"].items()})
        stages.deferred.update({int(k): v for k, v in rep["deferred"].items()})
        for line in stages.lines(recs):
            say(line)
        burst = [r.latency * 1000 for r in recs if r.latency is not None and r.created - mono0 < 1.0]
        if burst:
            say(
                f"  of which the first second ({len(burst)} clicks, every human clicking at once as the drive starts): "
                f"p50 {pct(burst, 50):.1f}  p99 {pct(burst, 99):.1f}  max {max(burst):.1f}"
            )
        slow = [r for r in recs if r.latency is not None and r.latency * 1000 > TARGET_P99_MS]
        if slow:
            by_s = Counter(int(r.created - mono0) for r in slow)
            say(
                f"  clicks over {TARGET_P99_MS:.0f} ms: {len(slow):,}; by second of the drive they were sent in: "
                + ", ".join(f"{sec}s {n}" for sec, n in sorted(by_s.items(), key=lambda kv: -kv[1])[:8])
            )
        say(f"  first-response waits: work that waited for other clicks' first answers (bot.responses): {rep['settled_waits']:,}")
        hand = drv.hand_lag
        if hand:
            say(
                f"  click -> the player's hand message changes (what the first response does not wait for; ms): "
                f"p50 {pct(hand, 50):.1f}  p90 {pct(hand, 90):.1f}  p99 {pct(hand, 99):.1f}  max {max(hand):.1f}"
            )
        say(f"  unanswered within {DEADLINE:.0f} s: {len(late)} of {len(recs):,}")
        r429 = limits.not_injected
        res["tok_max_1s"] = most_in_a_second(arrivals)
        res["tables"] = len(tids)
        say(
            f"  under Discord's limits (the devserver enforces them: 50 requests/s per bot token, 5 sends or edits per 5 s "
            f"per channel, ...): {limits.global_budget:,} bot-token requests = {limits.global_budget / max(1, len(recs)):.2f} "
            f"per click ({limits.global_budget / drive_s:.1f}/s, at most {res['tok_max_1s']} in any 1 s window as they "
            f"arrived); {limits.exempt:,} to interaction endpoints; 429s from the limits: {len(r429)} {limits.by_scope() if r429 else ''}"
        )
        if r429:
            say(f"  {limits.summary()}")
        if setup_lat:
            say(
                f"  setup slash commands -> first callback (ms): p50 {pct(setup_lat, 50):.1f}  p99 {pct(setup_lat, 99):.1f}  "
                f"max {max(setup_lat):.1f}; unanswered within {DEADLINE:.0f} s: {len(setup_late)} of {len(setup_recs)}"
            )
        if lags:
            say(f"  bot event-loop lag (a 20 ms sleep wakes late by, ms): p50 {pct(lags, 50):.1f}  p99 {pct(lags, 99):.1f}  max {max(lags):.1f}")
        say(rep["gc_line"])
        say()
        say(
            f"REST requests the bot made to the fake server during the drive: {n_req:,} "
            f"({n_req / max(1, len(recs)):.1f} per click); by route (server-side handling time):"
        )
        for line in route_table(reqs, len(recs)):
            say(line)
        say()
        say("time inside the bot per call (wrappers installed by bench/bot_process.py; drive phase only):")
        for line in rep["timer_lines"]:
            say(line)
        say("pictures drawn during the drive (the presenter's render hook):")
        for line in rep["render_lines"]:
            say(line)
        say()
        per_mid = (res["rss_mid"] - res["rss_base"]) / len(tids)
        per_end = (res["rss_end"] - res["rss_base"]) / len(tids)
        say(
            f"RSS of the bot process{'es' if len(bps) > 1 else ''} and render workers: {res['rss_base']:.1f} MiB with 0 tables; {res['rss_mid']:.1f} MiB "
            f"mid-drive ({res['playing_mid']} games playing); {res['rss_end']:.1f} MiB at the end; peak {res['peak']:.1f} MiB"
        )
        say(f"  per table: {per_mid:.2f} MiB mid-drive, {per_end:.2f} MiB at the end")
        say(
            f"  the bot's own Python objects per table (Table, Game, seats: deep size, shared tables excluded): "
            f"{rep['state_bytes'] / max(1, rep['tables']) / 1024:.0f} KiB at the end (measured after the RSS above)"
        )
        say()
        p99 = pct(lat, 99) if lat else float("inf")
        res.update(p99=p99, late=len(late), per_table=per_end)
        res.update(
            p50=pct(lat, 50) if lat else float("nan"),
            p90=pct(lat, 90) if lat else float("nan"),
            max=max(lat) if lat else float("nan"),
            burst_p99=pct(burst, 99) if burst else float("nan"),
            clicks=len(recs),
            rate=rate,
            hand_p50=pct(hand, 50) if hand else float("nan"),
            hand_p99=pct(hand, 99) if hand else float("nan"),
            lag_p99=pct(lags, 99) if lags else float("nan"),
            req_per_click=n_req / max(1, len(recs)),
            tok_per_click=limits.global_budget / max(1, len(recs)),
            tok_per_s=limits.global_budget / drive_s,
            r429=len(r429),
            per_mid=per_mid,
            table_edits=sum(1 for r in reqs if r.method == "PATCH" and "/channels/" in r.path) / max(1, len(recs)),
            writes_per_click=rep.get("writes", 0) / max(1, len(recs)),
            write_p50=pct(rep.get("write_ms", []), 50),
            write_p99=pct(rep.get("write_ms", []), 99),
            write_wait_p50=pct(rep.get("write_wait_ms", []), 50),
            write_wait_p99=pct(rep.get("write_wait_ms", []), 99),
            writer_busy=sum(rep.get("write_ms", [])) / 1000 / drive_s,
        )
        say("targets:")
        say(f"  p99 click -> first response < {TARGET_P99_MS:.0f} ms: {p99:.1f} ms  {'MET' if p99 < TARGET_P99_MS else 'NOT MET'}")
        say(f"  nothing unanswered within {DEADLINE:.0f} s: {len(late)} unanswered  {'MET' if not late else 'NOT MET'}")
        say(f"  RSS < {TARGET_RSS_MB:.0f} MB per table: {per_end:.2f} MiB (the bot process and its render workers)  {'MET' if per_end < TARGET_RSS_MB else 'NOT MET'}")
        if not args.think:
            say(
                "note: the humans click the moment their buttons appear (closed loop), so the bot runs at its "
                "capacity and the latency above is queueing at saturation; --think N paces the clicks."
            )
        say(
            f"note: the fake server listens with a backlog of {BACKLOG} (aiohttp's 128 drops SYNs under bursts of new "
            "connections: a 1 s TCP retransmission that real Discord would not cause); the driver wakes on hand-message "
            "changes (and every 5 s)."
        )
        say(
            "note: the bot runs in a process of its own (bench/bot_process.py), the fake Discord server and the scripted "
            f"humans in this one, on the same {os.cpu_count()}-core machine: every latency is measured at the fake server "
            "(sent -> callback received) and includes both ends' share of the CPU."
        )
        if "profile" in rep:
            say()
            say(f"profile of the bot process during the drive written to {args.profile}; top functions by own time:")
            for line in rep["profile"]["tottime"]:
                say(line)
            say("top by cumulative time:")
            for line in rep["profile"]["cumulative"]:
                say(line)
    finally:
        await asyncio.gather(*(bp.close() for bp in bps), return_exceptions=True)
        await server.stop()
        tmp.cleanup()
        if pg_name:
            await pg_admin(args.postgres_server, f'DROP DATABASE IF EXISTS "{pg_name}" WITH (FORCE)')
        if redis_prefix:
            await redis_drop(REDIS_URL, redis_prefix)
    return res


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
        ("bot-token requests per click (Discord: 50/s in all)", "tok_per_click", "{:.2f}"),
        ("bot-token requests per second", "tok_per_s", "{:.1f}"),
        ("429s from Discord's limits", "r429", "{:.0f}"),
        ("message edits (PATCH) per click", "table_edits", "{:.2f}"),
        ("click -> first response p99, first second of the drive (ms)", "burst_p99", "{:.1f}"),
        ("RSS per table (MiB)", "per_table", "{:.2f}"),
    ]
    out = [
        "current design vs the reference run (the presenter of b62ab59, bench/reference_presenter.py: clicks deferred, "
        "every hand edited with the bot's token), same settings and limits, run right after from the same process:",
        f"  {'':<50} {'current':>10} {'reference':>10}  current/reference",
    ]
    for label, key, fmt in rows:
        a, b = new.get(key, float("nan")), ref.get(key, float("nan"))
        ratio = f"{a / b:.2f}x" if isinstance(a, (int, float)) and isinstance(b, (int, float)) and b else "-"
        out.append(f"  {label:<50} {fmt.format(a):>10} {fmt.format(b):>10}  {ratio}")
    return out


DB_ROWS = [
    ("clicks handled per second", "rate", "{:.1f}"),
    ("click -> first response p50 (ms)", "p50", "{:.1f}"),
    ("click -> first response p99 (ms)", "p99", "{:.1f}"),
    ("click -> hand message changes p50 (ms)", "hand_p50", "{:.1f}"),
    ("click -> hand message changes p99 (ms)", "hand_p99", "{:.1f}"),
    ("unanswered within 3 s", "late", "{:.0f}"),
    ("429s from Discord's limits", "r429", "{:.0f}"),
    ("bot-token requests per click (Discord: 50/s in all)", "tok_per_click", "{:.2f}"),
    ("bot-token requests per second", "tok_per_s", "{:.1f}"),
    ("CPU per click in the bot's process (ms)", "loop_cpu_per_click", "{:.1f}"),
    ("storage writes per click (human and AI moves, ...)", "writes_per_click", "{:.2f}"),
    ("one write on the writer thread p50 (ms)", "write_p50", "{:.2f}"),
    ("one write on the writer thread p99 (ms)", "write_p99", "{:.2f}"),
    ("write asked -> done p50 (ms; the writer's queue incl.)", "write_wait_p50", "{:.2f}"),
    ("write asked -> done p99 (ms; the writer's queue incl.)", "write_wait_p99", "{:.2f}"),
    ("writer thread busy (share of the drive's wall time)", "writer_busy", "{:.2f}"),
    ("RSS per table mid-drive (MiB)", "per_mid", "{:.2f}"),
    ("RSS per table at the end (MiB)", "per_table", "{:.2f}"),
]


def database_table(results: list[dict[str, Any]]) -> list[str]:
    """The headline numbers of each database's run side by side (and PostgreSQL / SQLite when both ran)."""
    by = {r["database"]: r for r in results}
    names = [n for n in ("sqlite", "postgres") if n in by]
    both = len(names) == 2
    out = [
        "the current design on each database, same tables, seeds, think time and Discord limits, one after the other "
        "from the same process (memory: the bot process and its render workers; the PostgreSQL server's own not counted):",
        f"  {'':<52}" + "".join(f" {n:>10}" for n in names) + ("  postgres/sqlite" if both else ""),
    ]
    for label, key, fmt in DB_ROWS:
        vals = [by[n].get(key, float("nan")) for n in names]
        line = f"  {label:<52}" + "".join(f" {fmt.format(v):>10}" for v in vals)
        if both:
            a, b = vals[1], vals[0]
            line += f"  {a / b:.2f}x" if isinstance(a, (int, float)) and isinstance(b, (int, float)) and b else "  -"
        out.append(line)
    if "postgres" in by:
        from bot.storage.postgres import READ_POOL_SIZE

        out.append(
            f"PostgreSQL as bot/storage/postgres.py builds it: reads on the bot's loop through an asyncpg pool of 1 to "
            f"{READ_POOL_SIZE} connections; every write one transaction on ONE asyncpg connection owned by the writer "
            "thread (a click's move is one trip to that thread, each statement one round trip to the server)"
        )
    return out


PROC_ROWS = [
    ("clicks handled per second", "rate", "{:.1f}"),
    ("click -> first response p50 (ms)", "p50", "{:.1f}"),
    ("click -> first response p99 (ms)", "p99", "{:.1f}"),
    ("click -> hand message changes p50 (ms)", "hand_p50", "{:.1f}"),
    ("click -> hand message changes p99 (ms)", "hand_p99", "{:.1f}"),
    ("unanswered within 3 s", "late", "{:.0f}"),
    ("429s from Discord's limits", "r429", "{:.0f}"),
    ("bot-token requests per click (Discord: 50/s in all)", "tok_per_click", "{:.2f}"),
    ("bot-token requests per second", "tok_per_s", "{:.1f}"),
    ("most bot-token requests in any 1 s (at the server)", "tok_max_1s", "{:.0f}"),
    ("clicks per table per second", "clicks_per_table_s", "{:.3f}"),
    ("bot-token requests per table per second", "tok_per_table_s", "{:.3f}"),
    ("busy tables one token's 50/s carries (50 / the above)", "tables_per_token", "{:.0f}"),
]


def processes_table(results: list[dict[str, Any]]) -> list[str]:
    """The headline numbers of the one-process and the two-process run side by side."""
    for r in results:
        tables = max(1, r.get("tables", 1))
        r["clicks_per_table_s"] = r["rate"] / tables
        r["tok_per_table_s"] = r["tok_per_s"] / tables
        r["tables_per_token"] = 50 / r["tok_per_table_s"] if r["tok_per_table_s"] else float("inf")
    names = [f"{r['processes']} process" + ("es" if r["processes"] > 1 else "") for r in results]
    out = [
        "one bot process holding shards 0-1/2 vs two holding 0/2 and 1/2 (on one Redis), on PostgreSQL, two guilds "
        "(one per shard), same tables, seeds, think time and Discord's limits, one after the other from the same process:",
        f"  {'':<56}" + "".join(f" {n:>12}" for n in names),
    ]
    for label, key, fmt in PROC_ROWS:
        out.append(f"  {label:<56}" + "".join(f" {fmt.format(r.get(key, float('nan'))):>12}" for r in results))
    cpu = [r.get("proc_cpu", []) for r in results]
    out.append(
        f"  {'CPU per bot process, % of one core (render worker incl.)':<56}"
        + "".join(f" {' + '.join(f'{c:.0f}' for c in cs):>12}" for cs in cpu)
    )
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
    ap.add_argument("--profile", metavar="FILE", help="cProfile the drive phase into FILE (slows everything)")
    ap.add_argument("--profile-top", type=int, default=25)
    ap.add_argument("--no-reference", action="store_true", help="skip the reference run of the older design")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument(
        "--database", choices=("sqlite", "postgres", "both"), default="sqlite",
        help="what the bot stores in; both = SQLite then PostgreSQL in one run, side by side",
    )
    ap.add_argument("--postgres-server", default=PG_SERVER, help="the PostgreSQL server (no database name)")
    ap.add_argument(
        "--processes", choices=("1", "2", "both"),
        help="on PostgreSQL and two guilds: 1 = one bot process holding shards 0-1/2, 2 = two processes (0/2, 1/2) "
        "meeting in Redis, both = one after the other, side by side",
    )
    ap.add_argument("--all-human", action="store_true", help="every seat a scripted human (4 per table)")
    ap.add_argument(
        "--sweep", metavar="N,N,...",
        help="find the most busy tables one bot token sustains: a short run per table count, current and reference",
    )
    args = ap.parse_args()
    if args.sweep and args.database != "sqlite":
        print("--sweep runs on SQLite only; run --database both at a table count instead.", file=sys.stderr)
        return 2
    if args.processes and args.database == "both":
        print("--processes runs on PostgreSQL only: drop --database both.", file=sys.stderr)
        return 2
    if args.processes:
        args.database = "postgres"  # several processes share one database: PostgreSQL
    if args.database != "sqlite":
        why = asyncio.run(pg_answers(args.postgres_server))
        if why:
            print(why, file=sys.stderr)
            return 2
    if args.processes in ("2", "both"):
        why = asyncio.run(redis_answers(REDIS_URL))
        if why:
            print(why + "; two bot processes need it to meet.", file=sys.stderr)
            return 2
    if args.sweep:
        return sweep(args)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    out: list[str] = [
        f"bench/bot_load.py  {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        "command: python " + " ".join(["bench/bot_load.py", *sys.argv[1:]]),
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
    if args.processes:
        results = []
        for n in (1, 2) if args.processes == "both" else (int(args.processes),):
            print(f"\n--- {n} process{'es' if n > 1 else ''} ---")
            out.extend(["", f"--- {n} process{'es' if n > 1 else ''} ---"])
            results.append(asyncio.run(run(args, out, database="postgres", processes=n)))
        table = processes_table(results)
        out.extend(["", *table])
        print("\n" + "\n".join(table))
    elif args.database != "sqlite":
        results = []
        for db in ("sqlite", "postgres") if args.database == "both" else ("postgres",):
            print(f"\n--- {db} ---")
            out.extend(["", f"--- {db} ---"])
            results.append(asyncio.run(run(args, out, database=db)))
        table = database_table(results)
        out.extend(["", *table])
        print("\n" + "\n".join(table))
    else:
        res = asyncio.run(run(args, out))
    if args.database == "sqlite" and not args.no_reference and not args.profile:
        ref_out: list[str] = []
        print("\n--- reference run (older design), same settings ---")
        ref = asyncio.run(run(args, ref_out, reference=True))
        out.append("")
        out.extend(comparison(res, ref))
        print("\n".join(out[-len(comparison(res, ref)) :]))
    out.append(f"load average at end: {os.getloadavg()[0]:.2f} (other processes share the 2 cores)")
    out.append(f"total wall time: {time.perf_counter() - t0:.1f} s")
    print("\n".join(out[-2:]))
    if not args.no_write and not args.profile:
        # a paced run (--think) keeps a section of its own beside the saturated one
        name = "bench/bot_load.py" + (f" --database {args.database}" if args.database != "sqlite" else "")
        name += f" --processes {args.processes}" if args.processes else ""
        name += f" --channels {args.channels}" if args.channels != 10 else ""  # tables per channel change the token's load
        write_section(name + (f" --think {args.think:g}" if args.think else ""), "\n".join(out))
    return 0


HAND_P99_LIMIT_MS = 500.0


def sweep(args: argparse.Namespace) -> int:
    """For each table count: a run of the current design and of the reference; a count is sustained
    when Discord's limits returned no 429 and the players' hands followed their clicks within
    ``HAND_P99_LIMIT_MS`` at p99."""
    counts = [int(x) for x in args.sweep.split(",")]
    head = (
        f"bench/bot_load.py --sweep {args.sweep}  {time.strftime('%Y-%m-%d %H:%M')}; machine: nproc={os.cpu_count()}, "
        f"load average at start {os.getloadavg()[0]:.2f}; {'every seat human' if args.all_human else 'tables as in the main run'}, "
        f"{args.seconds:.0f} s per run, " + (f"think {args.think:g} s" if args.think else "clicking as soon as they can")
        + ", Discord's limits on (real numbers)"
    )
    lines = [head, "", f"  {'tables':>6} {'design':<10} {'clicks/s':>9} {'hand p50':>9} {'hand p99':>9} {'tok req/s':>9} {'tok/click':>9} {'429s':>5}  sustained"]
    print("\n".join(lines), flush=True)
    best: dict[str, int] = {"current": 0, "reference": 0}
    for n in counts:
        for design in ("current", "reference"):
            a = argparse.Namespace(**{**vars(args), "tables": n, "two_human": min(args.two_human, n)})
            res = asyncio.run(run(a, [], reference=design == "reference"))
            ok = res["r429"] == 0 and res["hand_p99"] <= HAND_P99_LIMIT_MS and res["late"] == 0
            if ok:
                best[design] = max(best[design], n)
            line = (
                f"  {n:>6} {design:<10} {res['rate']:>9.1f} {res['hand_p50']:>9.1f} {res['hand_p99']:>9.1f} "
                f"{res['tok_per_s']:>9.1f} {res['tok_per_click']:>9.2f} {res['r429']:>5}  {'yes' if ok else 'no'}"
            )
            lines.append(line)
            print(line, flush=True)
    ratio = f"{best['current'] / best['reference']:.1f}x" if best["reference"] else "-"
    lines += ["", f"most busy tables sustained (no 429, hand p99 <= {HAND_P99_LIMIT_MS:.0f} ms, nothing unanswered): "
              f"current {best['current']}, reference {best['reference']} ({ratio})"]
    print(lines[-1])
    if not args.no_write:
        write_section("bench/bot_load.py --sweep" + (f" --think {args.think:g}" if args.think else ""), "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())

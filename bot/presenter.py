"""Turns table state into what people see: the public table message, private hands, results.

The presenter listens to :class:`~bot.tables.TableService` updates. It builds pictures with
:mod:`bot.render` and text with the helpers below; the buttons themselves live in ``cogs.play``
(they are ``DynamicItem``\\ s rebuilt from their ``custom_id`` after a restart). It decides nothing
about the rules: every button is one of the engine's legal actions.

Keeping the event loop free for interactions (a click must be answered within Discord's 3 s, and
we aim for 0.1 s with 200 busy tables):

* pictures are drawn in a worker process (:class:`Renderer`), never on the event loop;
* a player's hand and buttons go out at once, but the public table picture of one table is edited
  at most once per ``table_interval`` (1 s): later updates are folded into the next edit, which
  always shows the newest state (Discord's edit rate limits want that pace too);
* the updates of one table are applied one at a time (a per-table lock), so an older update can
  never overwrite a newer one and leave stale buttons up; the table picture has its own single
  writer task per table for the same reason.
"""

from __future__ import annotations

import asyncio
import heapq
import io
import logging
import math
import os
import pickle
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord

from bot.render import variants as vr
from bot.render.names import kind_label, tile_name
from bot.render.pictures import (
    DEADLINES,
    PngOptions,
    png_options,
    render_hand,
    render_job,
    set_png_options,
)
from bot.render.views import SeatView, TableView
from bot.tables import Table, TableService, Update
from engine.notation import MeldType
from engine.table.actions import Action, ActionType
from engine.table.game import Game, Phase, WinResult
from engine.tiles import RED

if TYPE_CHECKING:
    from bot.client import JantakuBot

log = logging.getLogger(__name__)
A = ActionType
WINDS = "ESWN"
ROUND = ("East", "South", "West", "North")
_MELD = {MeldType.CHI: "chi", MeldType.PON: "pon", MeldType.MINKAN: "minkan", MeldType.ANKAN: "ankan", MeldType.KAKAN: "kakan"}


def tile_label(code: int) -> str:
    """A tile as buttons and texts name it: the same name the pictures show (:mod:`bot.render.names`)."""
    return tile_name(code)


def action_label(a: Action, g: Game | None = None, names: Sequence[str] = ()) -> str:
    """A button's label for any action. With the game (and the seats' names), in the ruleset's
    words: taiwan16's "Declare ready", seigou's "Draw" and whose discard a claim takes (SG-1),
    shoukou's transformation (SK-D6), chinitsu_toutenkou's nuki (CT-D1)."""
    t = a.type
    if t is A.DISCARD:
        return tile_label(a.tile)
    if t is A.RIICHI:
        word = vr.declare_word(g) if g is not None else "Riichi"
        return f"{word} {tile_label(a.tile)}" if a.tile >= 0 else f"{word} on the dealt hand"  # taiwan16 T-19
    if t is A.OPEN_RIICHI:
        return f"Open riichi {tile_label(a.tile)}"
    if t is A.KITA:
        return f"Nuki {kind_label(a.tile)}" if vr.is_nuki(a) else "Kita"
    if t is A.PASS:
        return vr.pass_word(g) if g is not None else "Pass"
    if t is A.DRAW:
        return "Take the last tile"  # taiwan16 TW-11 haitei_pass
    if t in (A.CHI, A.PON):
        label = f"{'Chi' if t is A.CHI else 'Pon'} {' '.join(tile_label(c) for c in a.tiles)}"
    elif t is A.DAIMINKAN:
        label = "Kan"
    elif t is A.ANKAN:
        label = f"Kan {kind_label(a.tile)}"
    elif t is A.KAKAN:
        label = f"Add kan {kind_label(a.tile)}"
    else:
        return {A.TSUMO: "Tsumo!", A.RON: "Ron!", A.KYUUSHU: "Nine terminals"}.get(t, t.name.replace("_", " ").capitalize())
    if a.shift:
        label += f" ({tile_label(a.shift[0])} as {kind_label(a.shift[1])})"
    if a.src >= 0:
        who = names[a.src] if a.src < len(names) else f"seat {a.src}"
        river = g.seats[a.src].river if g is not None else []
        label += f" · {who}'s {tile_label(g.code(river[-1])) if g is not None and river else 'discard'}"
    return label[:80]


def round_text(g: Game) -> str:
    return vr.round_text(g)


def table_view(t: Table) -> TableView:
    g = t.game
    assert g is not None
    seats = []
    declared = vr.declare_word(g) != "Riichi"  # taiwan16: declared tenpai has no stick (TW-12)
    for s, st in enumerate(g.seats):
        melds = [vr.meld_of(g, m) for m in st.melds] + vr.seat_extras(g, s)
        discards, sideways, called = vr.river(g, s)
        note = ", ".join(x for x in ("AI" if t.seats[s].ai else "", "ready" if declared and st.riichi else "") if x)
        seats.append(
            SeatView(
                name=t.seats[s].name,
                wind=WINDS[vr.seat_wind(g, s)],
                score=g.scores[s],
                discards=discards,
                sideways=sideways,
                called=called,
                melds=melds,
                riichi=bool(st.riichi) and not declared,
                note=note,
            )
        )
    turn = g.current if g.phase in (Phase.TURN, Phase.CLAIM) and not g.over else None
    return TableView(
        title=f"Table #{t.id} · {t.row.ruleset}",
        round_text=round_text(g),
        seats=seats,
        dora_indicators=[g.code(x) for x in g.dora_indicators()],
        riichi_sticks=g.sticks,
        wall_left=g.live_left,
        turn=turn,
        last_discard=g.last_discarder if g.last_discarder >= 0 else None,
        clock=(f"{t.row.turn_seconds}s per turn" if t.row.mode == "live" else f"{t.row.async_hours}h per turn"),
        dora_slots=5 if g.deal.dora else 0,
        footer=vr.table_footer(g, [s.name for s in t.seats]),
    )


def describe(g: Game, t: Table, a: Action) -> str:
    who = t.seats[a.seat].name
    if a.type is A.DISCARD:
        return f"{who} discarded {tile_label(a.tile)}"
    if a.type is A.RIICHI:
        what = "declared ready" if vr.declare_word(g) != "Riichi" else "declared riichi"
        return f"{who} {what}, discarding {tile_label(a.tile)}"
    if a.type is A.OPEN_RIICHI:
        return f"{who} declared open riichi, discarding {tile_label(a.tile)}"
    if a.type is A.PASS:
        return f"{who} passed"
    return f"{who}: {action_label(a, None, [s.name for s in t.seats])}"


def status_text(t: Table, last: list[Action] | None = None) -> str:
    g = t.game
    head = f"**Table #{t.id}** · {t.row.ruleset} · {t.row.mode}"
    if g is None:
        names = ", ".join(s.name for s in t.seats) or "nobody yet"
        return f"{head} · waiting for players ({len(t.seats)} seated: {names}). `/table join {t.id}` to sit down."
    lines = [f"{head} · {round_text(g)} · wall {g.live_left} · sticks {g.sticks}"]
    lines.append(" · ".join(f"{WINDS[vr.seat_wind(g, s)]} {t.seats[s].name} {g.scores[s]}" for s in range(g.players)))
    if last:
        shown = [describe(g, t, a) for a in last if a.type is not A.PASS][-4:]
        if shown:
            lines.append("Last: " + "; ".join(shown))
    if g.over:
        lines.append("Game over.")
    else:
        waiting = [t.seats[s].name for s in g.to_act()]
        lines.append("Waiting for: " + ", ".join(waiting) + clock_text(t))
    return "\n".join(lines)


def clock_text(t: Table) -> str:
    """The clock of the pending human decision: a Discord relative timestamp for the deadline."""
    if not t.humans_to_act() or not t.prompt_at:
        return ""
    if t.row.mode == "async":
        deadline = t.prompt_at + t.row.async_hours * 3600
        return f" · deadline <t:{int(deadline)}:R>"
    bank = min((t.seats[s].bank_left or 0.0) for s in t.humans_to_act())
    return f" · {t.row.turn_seconds}s + {int(bank)}s bank (<t:{int(t.prompt_at + t.row.turn_seconds + bank)}:R>)"


def result_text(t: Table, idx: int) -> tuple[str, list[WinResult]]:
    g = t.game
    assert g is not None
    r = g.results[idx]
    name = t.seats
    label = vr.result_label(g, idx)
    if not r.wins:
        kinds = {
            "exhaustive": "Exhaustive draw",
            "nagashi_mangan": "Nagashi mangan",
            "kyuushu_kyuuhai": "Abortive draw: nine terminals",
            "suufon_renda": "Abortive draw: four winds",
            "suucha_riichi": "Abortive draw: four riichi",
            "suukaikan": "Abortive draw: four kans",
            "sanchahou": "Abortive draw: triple ron",
        }
        text = f"**{label}: {kinds.get(r.kind, r.kind)}**"
        if r.tenpai:
            text += " — tenpai: " + ", ".join(name[s].name for s in r.tenpai)
    else:
        parts = []
        for w in r.wins:
            sc = w.score
            how = "tsumo" if w.seat == w.from_seat else f"ron from {name[w.from_seat].name}"
            parts.append(f"**{name[w.seat].name} wins by {how}**: {vr.win_summary(g, sc)}")
        text = f"**{label}** " + "\n".join(parts)
    deltas = ", ".join(f"{name[s].name} {d:+,d}" for s, d in enumerate(r.deltas) if d)
    if deltas:
        text += f"\nPayments: {deltas}"
    return text, list(r.wins)


def final_text(t: Table) -> str:
    g = t.game
    assert g is not None
    unit = vr.final_unit(g)  # taiwan16 / chinitsu_toutenkou: no uma, the score is the result
    rows = [
        f"{i + 1}. {t.seats[s].name}: {g.final_scores[s]} {unit}" if unit else f"{i + 1}. {t.seats[s].name}: {g.final_scores[s]} ({g.final_results[s]:+.1f})"
        for i, s in enumerate(g.ranking())
    ]
    return f"**Table #{t.id} final standings**\n" + "\n".join(rows)


@dataclass(frozen=True, slots=True)
class PresenterOptions:
    """``render_workers``: processes that draw the pictures (0 = draw on the event loop itself);
    ``table_interval``: seconds between two edits of one table's picture (0 = edit on every
    update); ``concurrent``: updates (of any tables) worked on at once, hands before table
    pictures (0 = no limit); ``png``: how pictures are encoded (None = :mod:`bot.render.pictures`'
    defaults)."""

    render_workers: int = 1
    table_interval: float = 1.0
    concurrent: int = 8
    png: PngOptions | None = None


class Gate:
    """At most ``limit`` holders at once; waiters get in by deadline: the time they came plus their
    ``delay`` (seconds a later, more urgent waiter may go before them), so a hand (delay 0) goes
    before a table picture (delay 1) that came less than a second earlier, yet a steady stream of
    hands never starves the table pictures.

    The presenter's work (pictures, message edits and the fake or real Discord's answers to them)
    shares the event loop with reading interactions off the gateway and acknowledging them. Left
    unbounded under load, hundreds of updates run at once and every acknowledgement waits behind
    them; through the gate the updates queue here instead, where waiting costs nothing.
    """

    def __init__(self, limit: int, settled: Callable[[], Awaitable[None]] | None = None) -> None:
        self.limit = limit
        self.settled = settled  # awaited first: interactions waiting for a first answer go before
        self.active = 0
        self._waiting: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = 0

    async def __call__(self, delay: float) -> None:
        """Wait for a place (pair with :meth:`leave`)."""
        if self.settled is not None:
            await self.settled()
        if self.limit <= 0 or (self.active < self.limit and not self._waiting):
            self.active += 1
            return
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._seq += 1
        heapq.heappush(self._waiting, (loop.time() + delay, self._seq, fut))
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():  # the place was already handed over
                self.leave()
            raise

    def leave(self) -> None:
        self.active -= 1
        while self._waiting and self.active < max(1, self.limit):
            fut = heapq.heappop(self._waiting)[2]
            if not fut.done():
                self.active += 1
                fut.set_result(None)


#: What a :class:`Presenter` built without options uses (``bench/bot_load.py`` swaps it for its
#: reference run of the older design: pictures on the event loop, every table update edited).
DEFAULT_OPTIONS = PresenterOptions()

#: (kind of picture, CPU seconds drawing it, seconds from asking to having it) -> None
RenderHook = Callable[[str, float, float], None]


IN_FLIGHT = 64  # jobs handed to one worker at a time (it orders them: bot.render.pictures.DEADLINES)
_WORKER_CMD = "from bot.render.pictures import worker_main; worker_main()"
_ROOT = str(Path(__file__).resolve().parents[1])


class WorkerGone(Exception):
    """The render worker ended (or never started); the picture is drawn on the event loop."""


_Job = tuple[float, int, str, tuple[Any, ...], dict[str, Any], "asyncio.Future[tuple[bytes, float]]"]


@dataclass(eq=False)
class _Worker:
    proc: asyncio.subprocess.Process
    jobs: dict[int, asyncio.Future[tuple[bytes, float]]] = field(default_factory=dict)
    reader: asyncio.Task[None] | None = None


class Renderer:
    """Draws pictures (``bot.render.pictures``) in worker processes, so the event loop is never
    blocked by Pillow and PNG encoding.

    Each worker is a child process that reads jobs from a pipe and answers on another; the event
    loop writes and reads those pipes itself (no helper threads: a thread fighting the event loop
    for the GIL adds milliseconds to every hand-off). Jobs go to the least busy worker at once (at
    most :data:`IN_FLIGHT` each; more wait here), and a worker draws the most urgent first: a hand
    before a backlog of table pictures (``bot.render.pictures.DEADLINES``). The workers start (and
    draw every tile face once) when the renderer is built, so the first game does not wait for
    them; a worker that dies is replaced, and the pictures it owed are drawn on the event loop.
    ``workers=0`` draws everything on the event loop.
    """

    def __init__(self, workers: int, png: PngOptions | None = None) -> None:
        self.workers = max(0, workers)
        self.png_options = png
        self.on_render: RenderHook | None = None
        self._workers: list[_Worker] = []
        self._waiting: list[_Job] = []
        self._seq = 0
        self._pump_due = False
        self._closed = False
        self._starting: asyncio.Task[None] | None = None
        if png is not None and self.workers == 0:
            set_png_options(png)
        if self.workers:
            with suppress(RuntimeError):  # no running loop: start at the first picture instead
                self._starting = asyncio.get_running_loop().create_task(self._start(), name="jantaku-render-start")

    async def _start(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([_ROOT, *filter(None, [env.get("PYTHONPATH")])])
        for _ in range(self.workers - len(self._workers)):
            try:
                proc = await asyncio.create_subprocess_exec(
                    sys.executable, "-c", _WORKER_CMD, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env
                )
                assert proc.stdin is not None and proc.stdout is not None
                options = pickle.dumps(self.png_options or png_options(), pickle.HIGHEST_PROTOCOL)
                proc.stdin.write(len(options).to_bytes(4, "little") + options)
                ready = await _read_answer(proc.stdout)  # after the worker has drawn its tiles
                if ready is None or ready[0] != 0:
                    raise WorkerGone("the render worker did not start")
            except (OSError, WorkerGone) as e:
                log.warning("could not start a render worker (%s); drawing pictures on the event loop", e)
                self.workers = len(self._workers)
                break
            if self._closed:
                _kill(proc)
                return
            w = _Worker(proc)
            w.reader = asyncio.get_running_loop().create_task(self._read(w), name="jantaku-render-answers")
            self._workers.append(w)
        self._starting = None
        self._pump()

    async def wait_ready(self, timeout: float = 30.0) -> None:
        """Until the workers have started and drawn their tiles (tests and benchmarks)."""
        if self._starting is not None:
            await asyncio.wait_for(asyncio.shield(self._starting), timeout)

    def worker_pids(self) -> list[int]:
        return [w.proc.pid for w in self._workers if w.proc.returncode is None]

    async def png(self, kind: str, *args: Any, **kwargs: Any) -> bytes:
        t0 = time.perf_counter()
        data: bytes | None = None
        cpu = 0.0
        if self.workers and not self._closed:
            loop = asyncio.get_running_loop()
            if self._starting is None and len(self._workers) < self.workers:
                self._starting = loop.create_task(self._start(), name="jantaku-render-start")
            fut: asyncio.Future[tuple[bytes, float]] = loop.create_future()
            self._seq += 1
            heapq.heappush(self._waiting, (DEADLINES.get(kind, 0.5), self._seq, kind, args, kwargs, fut))
            if not self._pump_due:  # the jobs asked for in this turn of the loop go in one write
                self._pump_due = True
                loop.call_soon(self._pump)
            try:
                data, cpu = await fut
            except WorkerGone:
                data = None
        if data is None:
            data, cpu = render_job(kind, args, kwargs)
        if self.on_render is not None:
            self.on_render(kind, cpu, time.perf_counter() - t0)
        return data

    def _pump(self) -> None:
        """Hand waiting jobs to workers with room, most urgent first."""
        self._pump_due = False
        if self._starting is not None:
            return  # _start pumps when it is done
        if not self._workers:
            while self._waiting:  # no worker could start: the callers draw the pictures themselves
                fut = heapq.heappop(self._waiting)[-1]
                if not fut.done():
                    fut.set_exception(WorkerGone())
            return
        frames: dict[int, list[bytes]] = {}
        while self._waiting:
            i, w = min(enumerate(self._workers), key=lambda x: len(x[1].jobs))
            if len(w.jobs) >= IN_FLIGHT:
                break
            _, job_id, kind, args, kwargs, fut = heapq.heappop(self._waiting)
            if fut.done():  # its caller was cancelled
                continue
            data = pickle.dumps((job_id, kind, args, kwargs), pickle.HIGHEST_PROTOCOL)
            w.jobs[job_id] = fut
            frames.setdefault(i, []).extend((len(data).to_bytes(4, "little"), data))
        for i, parts in frames.items():  # one write (one wake-up of the worker) per worker
            stdin = self._workers[i].proc.stdin
            assert stdin is not None
            stdin.write(b"".join(parts))

    async def _read(self, w: _Worker) -> None:
        assert w.proc.stdout is not None
        try:
            while (answer := await _read_answer(w.proc.stdout)) is not None:
                job_id, ok, payload, cpu = answer
                fut = w.jobs.pop(job_id, None)
                if fut is not None and not fut.done():
                    if ok:
                        fut.set_result((payload, cpu))
                    else:
                        log.warning("the render worker could not draw a picture: %s", payload)
                        fut.set_exception(WorkerGone(payload))
                self._pump()
        except (ConnectionError, OSError):
            pass
        finally:
            if w in self._workers:
                self._workers.remove(w)
            for fut in w.jobs.values():
                if not fut.done():
                    fut.set_exception(WorkerGone())
            w.jobs.clear()
            if not self._closed:
                log.warning("a render worker ended (exit code %s); starting a new one", w.proc.returncode)
                _kill(w.proc)
                self._starting = asyncio.get_running_loop().create_task(self._start(), name="jantaku-render-start")

    def close(self) -> None:
        """Stop the workers and fail what they still owed (its callers draw it themselves)."""
        self._closed = True
        if self._starting is not None:
            self._starting.cancel()
        for w in self._workers:
            if w.reader is not None:
                w.reader.cancel()
            _kill(w.proc)
            for fut in w.jobs.values():
                if not fut.done():
                    fut.set_exception(WorkerGone())
        self._workers.clear()
        for item in self._waiting:
            if not item[-1].done():
                item[-1].set_exception(WorkerGone())
        self._waiting.clear()


def _kill(proc: asyncio.subprocess.Process) -> None:
    """End a worker: closing its transport kills it if it still runs and closes the pipes."""
    transport = getattr(proc, "_transport", None)
    if transport is not None:
        transport.close()
    elif proc.returncode is None:
        with suppress(ProcessLookupError):
            proc.kill()


async def _read_answer(stream: asyncio.StreamReader) -> tuple[Any, ...] | None:
    try:
        head = await stream.readexactly(4)
        body = await stream.readexactly(int.from_bytes(head, "little"))
    except asyncio.IncompleteReadError:
        return None
    answer: tuple[Any, ...] = pickle.loads(body)
    return answer


@dataclass(slots=True)
class _TablePicture:
    """A table's public message: its writer task edits it at most once per interval; an edit that
    cannot wait (the first message, the final state) is made at once under the same lock."""

    dirty: bool = False
    last: list[Action] = field(default_factory=list)  # actions since the last edit (for "Last:")
    edited_at: float = -math.inf
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one edit of the message at a time
    task: asyncio.Task[None] | None = None


class Presenter:
    """Renders updates into Discord messages. ``view_factory`` builds the button views."""

    def __init__(
        self,
        bot: JantakuBot,
        service: TableService,
        view_factory: Callable[..., discord.ui.View],
        options: PresenterOptions | None = None,
    ) -> None:
        self.bot = bot
        self.service = service
        self.view_factory = view_factory
        self.options = options or DEFAULT_OPTIONS
        self.renderer = Renderer(self.options.render_workers, self.options.png)
        self._prompted: dict[int, set[int]] = {}  # table → seats whose hand message shows buttons
        self._dms: dict[int, Any] = {}  # user id → DM channel (saves a user fetch per hand message)
        self._sig: dict[tuple[int, int], tuple[Any, ...]] = {}  # (table, seat) → the hand last drawn
        self._locks: dict[int, asyncio.Lock] = {}
        self._pictures: dict[int, _TablePicture] = {}
        self.gate = Gate(self.options.concurrent, bot.responses.settled)

    def close(self) -> None:
        for p in self._pictures.values():
            if p.task is not None:
                p.task.cancel()
        self.renderer.close()

    async def channel(self, t: Table) -> Any:
        cid = t.row.thread_id or t.row.channel_id
        ch = self.bot.get_channel(cid)
        if ch is None:
            ch = await self.bot.fetch_channel(cid)
        return ch

    def _lock(self, t: Table) -> asyncio.Lock:
        return self._locks.setdefault(t.id, asyncio.Lock())

    async def on_update(self, u: Update) -> None:
        # One table's messages are updated one update at a time: otherwise an older update's edit
        # could land after a newer one and leave stale buttons up.
        async with self._lock(u.table):
            await self.gate(0.0)
            try:
                await self._on_update(u)
            finally:
                self.gate.leave()

    async def _on_update(self, u: Update) -> None:
        t = u.table
        g = t.game
        if g is None:
            return
        posted = False
        if not t.row.message_id:
            # the first table message goes out before any hand: its "Show my hand" button is the
            # fallback for players whose direct messages are closed
            await self.refresh_table(t, u.actions)
            posted = True
        # the hands and their buttons first: that is what the players are waiting for (and a
        # button left up after the game moved on only earns "that turn has passed")
        await self._prompt_humans(t)
        if u.hands_ended:
            ch = await self.channel(t)
            for i in range(len(g.results) - u.hands_ended, len(g.results)):
                await self.post_result(ch, t, i)
        if g.over:
            await self.refresh_table(t, u.actions)  # the final state, before the standings
            await self.post_final(await self.channel(t), t)
            self._pictures.pop(t.id, None)
            for s in range(g.players):
                self._sig.pop((t.id, s), None)
        elif not posted:
            if self.options.table_interval > 0:
                self._table_changed(t, u.actions)
            else:
                await self.refresh_table(t, u.actions)

    # -- the public table message ---------------------------------------------------------------

    def _table_changed(self, t: Table, actions: list[Action] | None) -> _TablePicture:
        """Note that the table picture is out of date; its writer task edits it when its time comes."""
        p = self._picture(t, actions)
        if p.task is None or p.task.done():
            p.task = asyncio.create_task(self._table_writer(t, p), name=f"jantaku-table-picture-{t.id}")
        return p

    def _picture(self, t: Table, actions: list[Action] | None) -> _TablePicture:
        p = self._pictures.get(t.id)
        if p is None:
            p = self._pictures[t.id] = _TablePicture()
        if actions:
            p.last = (p.last + [a for a in actions if a.type is not A.PASS])[-4:]
        p.dirty = True
        return p

    async def _table_writer(self, t: Table, p: _TablePicture) -> None:
        loop = asyncio.get_running_loop()
        while p.dirty:
            wait = p.edited_at + self.options.table_interval - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            await self.gate(1.0)  # a table picture: hands that come within a second go first
            try:
                await self._write_table(t, p)
            finally:
                self.gate.leave()

    async def _write_table(self, t: Table, p: _TablePicture) -> None:
        async with p.lock:
            if not p.dirty:  # refresh_table got there first
                return
            p.dirty = False
            last, p.last = p.last, []
            p.edited_at = asyncio.get_running_loop().time()
            try:
                await self._edit_table(t, last)
            except Exception:  # the next update tries again; a failed edit must not stop the writer
                log.exception("could not update the table message of table %s", t.id)

    async def refresh_table(self, t: Table, last: list[Action] | None = None) -> None:
        """Edit the table message now (after an edit already under way) and wait for it."""
        await self._write_table(t, self._picture(t, last))

    async def _edit_table(self, t: Table, last: list[Action] | None = None) -> None:
        ch = await self.channel(t)
        text = status_text(t, last)
        files = []
        if t.game is not None:
            png = await self.renderer.png("table", table_view(t))
            files = [discord.File(io.BytesIO(png), filename="table.png")]
        view = self.view_factory("table", t) if t.game is not None and not t.game.over else None
        if t.row.message_id:
            msg = ch.get_partial_message(t.row.message_id)
            try:
                await msg.edit(content=text, attachments=files, view=view)
                return
            except discord.NotFound:
                pass
        msg = await ch.send(content=text, files=files, view=view)
        t.row.message_id = msg.id
        await self.service.repo.set_table(t.id, message_id=msg.id)

    async def post_result(self, ch: Any, t: Table, idx: int) -> None:
        """The hand's result: the text, and for a win the picture of every winner's hand
        (:func:`bot.render.variants.result_view`)."""
        g = t.game
        assert g is not None
        text, _ = result_text(t, idx)
        files = []
        view = vr.result_view(g, idx, [s.name for s in t.seats])
        if view is not None and view.wins:
            png = await self.renderer.png("result", view)
            files = [discord.File(io.BytesIO(png), filename="result.png")]
        await ch.send(content=text, files=files)

    async def post_final(self, ch: Any, t: Table) -> None:
        g = t.game
        assert g is not None
        rows = [(t.seats[s].name, g.final_scores[s], g.final_results[s]) for s in g.ranking()]
        png = await self.renderer.png("final", rows)
        await ch.send(content=final_text(t), files=[discord.File(io.BytesIO(png), filename="final.png")])

    # -- private hands -------------------------------------------------------------------------

    def hand_args(self, t: Table, seat: int) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The arguments of ``render_hand`` for this seat's hand picture."""
        g = t.game
        assert g is not None
        st = g.seats[seat]
        tiles = [g.code(x) for x in st.tiles]
        drawn = None
        if g.current == seat and g.drawn >= 0 and g.phase is Phase.TURN and g.drawn in st.tiles:
            drawn = g.code(g.drawn)
            tiles.remove(drawn)
        tiles.sort(key=lambda c: (c & ~RED, c & RED))
        melds = [vr.meld_of(g, m) for m in st.melds] + vr.hand_extras(g, seat)
        wind = WINDS[vr.seat_wind(g, seat)]
        title = f"Table #{t.id} · {round_text(g)} · you are {wind} · {g.scores[seat]} {vr.score_unit(g)}"
        return (tiles, melds, drawn), {"title": title}

    def hand_picture(self, t: Table, seat: int) -> bytes:
        """The hand picture, drawn here (the "Show my hand" reply)."""
        args, kwargs = self.hand_args(t, seat)
        return render_hand(*args, **kwargs)

    def hand_text(self, t: Table, seat: int) -> str:
        g = t.game
        assert g is not None
        st = g.seats[seat]
        lines = [f"Your hand ({t.seats[seat].name}, {WINDS[vr.seat_wind(g, seat)]})", status_text(t)]
        if seat in g.to_act():
            names = [s.name for s in t.seats]
            if g.phase is Phase.TURN:
                lines.append("**Your turn.** Pick a tile to discard or an action.")
            elif g.phase is Phase.CLAIM:
                lines.append(vr.claim_text(g, seat, names))
            elif g.phase is Phase.CHANKAN:
                lines.append(f"**{names[g.current]} sets aside {tile_label(g.code(g.kakan_tile))}.** Rob it (ron) or pass.")
            else:
                lines.append(f"**{t.seats[g.last_discarder].name} discarded {tile_label(g.code(g.last_discard))}.** Call it or pass.")
            lines += vr.warnings(g, seat, g.legal_actions(seat), names)  # lazy: listed only when needed
        shown = vr.hand_extras(g, seat)
        if shown and st.kita:
            lines.append(f"Set aside: {' '.join(tile_label(c) for c in shown[0][1])}")
        return "\n".join(lines)

    async def prompt_humans(self, t: Table, *, everyone: bool = False) -> None:
        """Send the hand of every human who must act now, and of those whose buttons just went
        stale (so no old button stays up); everyone after a restart."""
        async with self._lock(t):
            await self._prompt_humans(t, everyone=everyone)

    async def _prompt_humans(self, t: Table, *, everyone: bool = False) -> None:
        g = t.game
        if g is None:
            return
        acting = set(g.to_act()) if not g.over else set()
        shown: set[int] = self._prompted.setdefault(t.id, set())
        due = [
            s
            for s in range(g.players)
            if t.seats[s].ai is None and t.seats[s].user_id is not None and (everyone or s in acting or s in shown)
        ]
        # different players' messages: drawn and sent side by side
        await asyncio.gather(*(self.send_hand(t, s) for s in due))
        self._prompted[t.id] = acting

    async def send_hand(self, t: Table, s: int) -> None:
        g = t.game
        assert g is not None
        seat = t.seats[s]
        acting = (not g.over) and s in g.to_act()
        if seat.dm_closed:
            return
        view = self.view_factory("hand", t, s) if acting else None
        content = self.hand_text(t, s)
        assert seat.user_id is not None
        try:
            dm = self._dms.get(seat.user_id)
            if dm is None:
                user = self.bot.get_user(seat.user_id) or await self.bot.fetch_user(seat.user_id)
                dm = self._dms[seat.user_id] = user.dm_channel or await user.create_dm()
            sig = (tuple(sorted(g.seats[s].tiles)), len(g.seats[s].melds), g.hand_index)
            same_hand = self._sig.get((t.id, s)) == sig
            if seat.hand_message_id and same_hand:
                # the hand did not change (its buttons went stale, or a call is offered): keep the
                # picture, change the text and buttons only
                try:
                    await dm.get_partial_message(seat.hand_message_id).edit(content=content, view=view)
                    return
                except discord.NotFound:
                    pass
            args, kwargs = self.hand_args(t, s)
            file = discord.File(io.BytesIO(await self.renderer.png("hand", *args, **kwargs)), filename="hand.png")
            if seat.hand_message_id:
                try:
                    await dm.get_partial_message(seat.hand_message_id).edit(content=content, attachments=[file], view=view)
                    self._sig[(t.id, s)] = sig  # only once the picture is really there
                    return
                except discord.NotFound:
                    pass
            msg = await dm.send(content=content, file=file, view=view)
            self._sig[(t.id, s)] = sig
            seat.hand_message_id = msg.id
            await self.service.repo.set_seat(t.id, s, hand_message_id=msg.id)
        except discord.Forbidden:
            seat.dm_closed = True
            await self.service.repo.set_seat(t.id, s, dm_closed=True)
            ch = await self.channel(t)
            await ch.send(
                f"<@{seat.user_id}>, I cannot send you direct messages: use the **Show my hand** button on the table message."
            )

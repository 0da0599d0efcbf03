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
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord

from bot import fairness, i18n
from bot.i18n import DEFAULT, N_, Lang, lang_of
from bot.render import variants as vr
from bot.render.names import kind_label, ruleset_label, seat_name, tile_name
from bot.render.pictures import (
    DEADLINES,
    PngOptions,
    png_options,
    render_job,
    set_png_options,
)
from bot.render.views import SeatView, TableView
from bot.render.waits import waits_line
from bot.tables import Table, TableService, Update
from engine.notation import MeldType
from engine.table.actions import Action, ActionType
from engine.table.game import Game, Phase, WinResult
from engine.tiles import HONOR_BASE

if TYPE_CHECKING:
    from bot.client import JantakuBot
    from bot.prefs import TileStyles

log = logging.getLogger(__name__)
A = ActionType
WINDS = "ESWN"
_MELD = {MeldType.CHI: "chi", MeldType.PON: "pon", MeldType.MINKAN: "minkan", MeldType.ANKAN: "ankan", MeldType.KAKAN: "kakan"}


def tile_label(code: int, lang: Lang = DEFAULT) -> str:
    """A tile as buttons and texts name it: the same name the pictures show (:mod:`bot.render.names`)."""
    return tile_name(code, lang)


_SIMPLE_LABELS = {A.TSUMO: N_("Tsumo!"), A.RON: N_("Ron!"), A.KYUUSHU: N_("Nine terminals")}


def ruleset_word(lang: Lang, english: str) -> str:
    """A word the ruleset names (``riichi_word``, ``pass_word``: English data from bot.render.variants),
    through the catalog when it has it."""
    return english if lang == DEFAULT else i18n.t(lang, english)


def action_label(a: Action, g: Game | None = None, names: Sequence[str] = (), lang: Lang = DEFAULT) -> str:
    """A button's label for any action. With the game (and the seats' names), in the ruleset's
    words: taiwan16's "Declare ready", seigou's "Draw" and whose discard a claim takes (SG-1),
    shoukou's transformation (SK-D6), chinitsu_toutenkou's nuki (CT-D1)."""
    t = a.type

    def tl(code: int) -> str:
        return tile_label(code, lang)

    if t is A.DISCARD:
        return tl(a.tile)
    if t is A.RIICHI:
        word = ruleset_word(lang, vr.declare_word(g)) if g is not None else i18n.t(lang, "Riichi")
        if a.tile >= 0:
            return i18n.t(lang, "{word} {tile}", word=word, tile=tl(a.tile))
        return i18n.t(lang, "{word} on the dealt hand", word=word)  # taiwan16 T-19
    if t is A.OPEN_RIICHI:
        return i18n.t(lang, "Open riichi {tile}", tile=tl(a.tile))
    if t is A.KITA:
        return i18n.t(lang, "Nuki {tile}", tile=kind_label(a.tile, lang)) if vr.is_nuki(a) else i18n.t(lang, "Kita")
    if t is A.PASS:
        return ruleset_word(lang, vr.pass_word(g)) if g is not None else i18n.t(lang, "Pass")
    if t is A.DRAW:
        return i18n.t(lang, "Take the last tile")  # taiwan16 TW-11 haitei_pass
    tiles = " ".join(tl(c) for c in a.tiles)
    if t is A.CHI:
        label = i18n.t(lang, "Chi {tiles}", tiles=tiles)
    elif t is A.PON:
        label = i18n.t(lang, "Pon {tiles}", tiles=tiles)
    elif t is A.DAIMINKAN:
        label = i18n.t(lang, "Kan")
    elif t is A.ANKAN:
        label = i18n.t(lang, "Kan {tile}", tile=kind_label(a.tile, lang))
    elif t is A.KAKAN:
        label = i18n.t(lang, "Add kan {tile}", tile=kind_label(a.tile, lang))
    else:
        simple = _SIMPLE_LABELS.get(t)
        return i18n.t(lang, simple) if simple else t.name.replace("_", " ").capitalize()
    if a.shift:
        label = i18n.t(lang, "{label} ({tile} as {kind})", label=label, tile=tl(a.shift[0]), kind=kind_label(a.shift[1], lang))
    if a.src >= 0:
        who = names[a.src] if a.src < len(names) else i18n.t(lang, "seat {seat}", seat=a.src)
        river = g.seats[a.src].river if g is not None else []
        if g is not None and river:
            label = i18n.t(lang, "{label} · {who}'s {tile}", label=label, who=who, tile=tl(g.code(river[-1])))
        else:
            label = i18n.t(lang, "{label} · {who}'s discard", label=label, who=who)
    return label[:80]


def round_text(g: Game, lang: Lang = DEFAULT) -> str:
    return vr.round_text(g, lang=lang)


def table_view(t: Table, bottom: int = 0, lang: Lang = DEFAULT) -> TableView:
    """What the table picture shows: public information only (rivers, melds, scores, the revealed
    indicators, the wall's count), seat ``bottom`` drawn at the bottom (0: the shared picture);
    its words (title, notes, clock) in ``lang``."""
    g = t.game
    assert g is not None
    seats = []
    declared = vr.declares_ready(g)  # taiwan16: declared tenpai has no stick (TW-12)
    for s, st in enumerate(g.seats):
        melds = [vr.meld_of(g, m) for m in st.melds] + vr.seat_extras(g, s)
        discards, sideways, called = vr.river(g, s)
        note = ", ".join(x for x in ("AI" if t.seats[s].ai else "", i18n.t(lang, "ready") if declared and st.riichi else "") if x)
        seats.append(
            SeatView(
                name=seat_name(t.seats[s], lang),
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
        title=i18n.t(lang, "Table #{table} · {ruleset}", table=t.id, ruleset=ruleset_label(t.row.ruleset, lang)),
        round_text=round_text(g, lang),
        seats=seats,
        dora_indicators=[g.code(x) for x in g.dora_indicators()],
        riichi_sticks=g.sticks,
        wall_left=g.live_left,
        turn=turn,
        last_discard=g.last_discarder if g.last_discarder >= 0 else None,
        clock=(
            i18n.t(lang, "{seconds}s per turn", seconds=t.row.turn_seconds)
            if t.row.mode == "live"
            else i18n.t(lang, "{hours}h per turn", hours=t.row.async_hours)
        ),
        dora_slots=5 if g.deal.dora else 0,
        footer=vr.table_footer(g, [seat_name(s, lang) for s in t.seats], lang=lang),
        bottom=bottom,
    )


def describe(g: Game, t: Table, a: Action, lang: Lang = DEFAULT) -> str:
    who = seat_name(t.seats[a.seat], lang)
    if a.type is A.DISCARD:
        return i18n.t(lang, "{who} discarded {tile}", who=who, tile=tile_label(a.tile, lang))
    if a.type is A.RIICHI:
        if vr.declares_ready(g):
            return i18n.t(lang, "{who} declared ready, discarding {tile}", who=who, tile=tile_label(a.tile, lang))
        return i18n.t(lang, "{who} declared riichi, discarding {tile}", who=who, tile=tile_label(a.tile, lang))
    if a.type is A.OPEN_RIICHI:
        return i18n.t(lang, "{who} declared open riichi, discarding {tile}", who=who, tile=tile_label(a.tile, lang))
    if a.type is A.PASS:
        return i18n.t(lang, "{who} passed", who=who)
    return i18n.t(lang, "{who}: {action}", who=who, action=action_label(a, None, [seat_name(s, lang) for s in t.seats], lang))


def rules_name(row: Any, *, markdown: bool = True, lang: Lang = DEFAULT) -> str:
    """A table's rules as its messages name them: the ruleset (:func:`ruleset_label`), or
    ``club: riichi`` when it was opened with a house-rule profile (the name is the club's text:
    Markdown escaped unless the place shows no Markdown, as a thread's name)."""
    house = getattr(row, "house", None)
    rules = ruleset_label(str(row.ruleset), lang)
    if not house:
        return rules
    return f"{discord.utils.escape_markdown(house) if markdown else house}: {rules}"


def _mode(lang: Lang, mode: str) -> str:
    return {"live": i18n.t(lang, "live"), "async": i18n.t(lang, "async")}.get(mode, mode)


def status_text(t: Table, last: list[Action] | None = None, lang: Lang = DEFAULT) -> str:
    g = t.game
    head = i18n.t(lang, "**Table #{table}** · {rules} · {mode}", table=t.id, rules=rules_name(t.row, lang=lang), mode=_mode(lang, t.row.mode))
    if g is None:
        names = ", ".join(seat_name(s, lang) for s in t.seats) or i18n.t(lang, "nobody yet")
        return i18n.t(
            lang,
            "{head} · waiting for players ({seated} seated: {names}). `/table join {table}` to sit down.",
            head=head,
            seated=len(t.seats),
            names=names,
            table=t.id,
        )
    lines = [
        i18n.t(lang, "{head} · {round} · wall {wall} · sticks {sticks}", head=head, round=round_text(g, lang), wall=g.live_left, sticks=g.sticks)
    ]
    lines.append(" · ".join(f"{_wind(lang, vr.seat_wind(g, s))} {seat_name(t.seats[s], lang)} {g.scores[s]}" for s in range(g.players)))
    if last:
        shown = [describe(g, t, a, lang) for a in last if a.type is not A.PASS][-4:]
        if shown:
            lines.append(i18n.t(lang, "Last: {moves}", moves="; ".join(shown)))
    if g.over:
        lines.append(i18n.t(lang, "Game over."))
    else:
        waiting = [seat_name(t.seats[s], lang) for s in g.to_act()]
        lines.append(waiting_line(t, ", ".join(waiting), lang))
    lines.append(fairness.status_line(t, lang))  # the commitment; the seed once the game is over
    return "\n".join(lines)


def _wind(lang: Lang, wind: int) -> str:
    """A seat wind as the status lines write it: ``E`` (東 in Japanese, the tile's name)."""
    return WINDS[wind] if lang == DEFAULT else kind_label(HONOR_BASE + wind, lang)


def waiting_line(t: Table, names: str, lang: Lang = DEFAULT) -> str:
    """Who the table waits for, with the clock of the pending human decision (a Discord relative
    timestamp for the deadline) when there is one."""
    if not t.humans_to_act() or not t.prompt_at:
        return i18n.t(lang, "Waiting for: {names}", names=names)
    if t.row.mode == "async":
        deadline = t.prompt_at + t.row.async_hours * 3600
        return i18n.t(lang, "Waiting for: {names} · deadline <t:{deadline}:R>", names=names, deadline=int(deadline))
    bank = min((t.seats[s].bank_left or 0.0) for s in t.humans_to_act())
    return i18n.t(
        lang,
        "Waiting for: {names} · {seconds}s + {bank}s bank (<t:{deadline}:R>)",
        names=names,
        seconds=t.row.turn_seconds,
        bank=int(bank),
        deadline=int(t.prompt_at + t.row.turn_seconds + bank),
    )


#: how a hand without a winner ended (``HandResult.kind``)
DRAW_KINDS = {
    "exhaustive": N_("Exhaustive draw"),
    "nagashi_mangan": N_("Nagashi mangan"),
    "kyuushu_kyuuhai": N_("Abortive draw: nine terminals"),
    "suufon_renda": N_("Abortive draw: four winds"),
    "suucha_riichi": N_("Abortive draw: four riichi"),
    "suukaikan": N_("Abortive draw: four kans"),
    "sanchahou": N_("Abortive draw: triple ron"),
}


def result_text(t: Table, idx: int, lang: Lang = DEFAULT) -> tuple[str, list[WinResult]]:
    g = t.game
    assert g is not None
    r = g.results[idx]
    name = t.seats
    label = vr.result_label(g, idx, lang=lang)
    if not r.wins:
        kind = DRAW_KINDS.get(r.kind)
        result = i18n.t(lang, kind) if kind else r.kind
        if r.tenpai:
            tenpai = ", ".join(seat_name(name[s], lang) for s in r.tenpai)
            text = i18n.t(lang, "**{hand}: {result}** — tenpai: {names}", hand=label, result=result, names=tenpai)
        else:
            text = i18n.t(lang, "**{hand}: {result}**", hand=label, result=result)
    else:
        parts = []
        for w in r.wins:
            sc = w.score
            if w.seat == w.from_seat:
                head = i18n.t(lang, "**{winner} wins by tsumo**", winner=seat_name(name[w.seat], lang))
            else:
                head = i18n.t(lang, "**{winner} wins by ron from {loser}**", winner=seat_name(name[w.seat], lang), loser=seat_name(name[w.from_seat], lang))
            parts.append(f"{head}: {vr.win_summary(g, sc, lang=lang)}")
        text = f"**{label}** " + "\n".join(parts)
    deltas = ", ".join(f"{seat_name(name[s], lang)} {d:+,d}" for s, d in enumerate(r.deltas) if d)
    if deltas:
        text += "\n" + i18n.t(lang, "Payments: {deltas}", deltas=deltas)
    return text, list(r.wins)


def final_text(t: Table, lang: Lang = DEFAULT) -> str:
    g = t.game
    assert g is not None
    unit = vr.final_unit(g)  # taiwan16 / chinitsu_toutenkou: no uma, the score is the result
    rows = [
        f"{i + 1}. {seat_name(t.seats[s], lang)}: {g.final_scores[s]} {ruleset_word(lang, unit)}" if unit else f"{i + 1}. {seat_name(t.seats[s], lang)}: {g.final_scores[s]} ({g.final_results[s]:+.1f})"
        for i, s in enumerate(g.ranking())
    ]
    head = i18n.t(lang, "**Table #{table} final standings**", table=t.id)
    return head + "\n" + "\n".join(rows) + "\n" + fairness.reveal_text(t, lang)


@dataclass(frozen=True, slots=True)
class PresenterOptions:
    """``render_workers``: processes that draw the pictures (0 = draw on the event loop itself);
    ``table_interval``: seconds between two edits of one table's picture (0 = edit on every
    update); ``table_edits_per_s``: table pictures edited per second over all tables (Discord
    allows a bot token 50 requests/s in all: the pictures, the least urgent, take at most this
    share of it; 0 = no limit); ``bot_requests_per_s``: every bot-token request the presenter
    makes, spaced to stay under that 50/s (interaction routes are not counted by Discord);
    ``channel_requests_per_5s``: messages and edits in one channel (Discord: about 5 per 5 s per
    channel, shared by the tables that play there; one is left for what is not paced); ``concurrent``: updates (of any tables) worked on at once, hands before table
    pictures (0 = no limit); ``png``: how pictures are encoded (None = :mod:`bot.render.pictures`'
    defaults)."""

    render_workers: int = 1
    table_interval: float = 1.0
    concurrent: int = 8
    png: PngOptions | None = None
    table_edits_per_s: int = 20
    bot_requests_per_s: int = 40
    channel_requests_per_5s: int = 4


class Pacer:
    """At most ``limit`` passes in any ``per`` seconds (a sliding window over the passes' times,
    so a stalled event loop that wakes with many waiters still lets only ``limit`` through).

    ``await pacer()`` counts a request from when it passes. ``async with pacer.slot():`` counts it
    as present while it runs and from when it ends: Discord counts a request when it arrives,
    which may be well after it passed here (a result picture drawn first, the bot token's own
    pacing, a busy loop), and a window counted from the passes alone then lets ``limit + 1``
    arrive in one of Discord's windows. Counted from the end, and while under way, no window of
    arrivals holds more than ``limit``: every earlier request that arrives in a window ends after
    that window began, so it was still counted when the last one passed."""

    def __init__(self, limit: int, per: float = 1.0) -> None:
        self.limit = limit
        self.per = per
        self._passed: list[list[float]] = []  # [time]; math.inf while a slot's request is under way
        self._freed = asyncio.Event()

    async def __call__(self) -> None:
        if self.limit > 0:
            (await self._take())[0] = asyncio.get_running_loop().time()

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        if self.limit <= 0:
            yield
            return
        entry = await self._take()
        try:
            yield
        finally:
            entry[0] = asyncio.get_running_loop().time()
            self._freed.set()

    async def _take(self) -> list[float]:
        loop = asyncio.get_running_loop()
        while True:
            now = loop.time()
            self._passed = [e for e in self._passed if now - e[0] < self.per]
            if len(self._passed) < self.limit:
                entry = [math.inf]
                self._passed.append(entry)
                return entry
            ended = [e[0] for e in self._passed if e[0] != math.inf]
            wait = self.per - (now - min(ended)) + 0.001 if ended else self.per
            self._freed.clear()
            with suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._freed.wait(), wait)


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
            proc: asyncio.subprocess.Process | None = None
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
            except asyncio.CancelledError:  # closed while it started: it must not outlive us
                if proc is not None:
                    _kill(proc)
                raise
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


#: Discord's interaction tokens live 15 minutes: an older one is never used for an edit
TOKEN_LIFE = 14 * 60.0
#: a click is answered with its new hand within this many seconds, or else deferred (Discord: 3 s)
ANSWER_WITHIN = 2.0
#: a table message older than this is replaced by a new one rather than edited (Discord limits the
#: edits of messages older than an hour: 30046)
TABLE_MESSAGE_AGE = 50 * 60.0
#: seconds a click's callback waits for the presenter to answer it before it answers on its own
CLAIM_PATIENCE = 20.0
NEXT_MOVE = N_("Your next move is in the newest message below.")
#: tries to send a hand that failed (each with the newest state), 1 s, 2 s, 4 s apart
HAND_TRIES = 4


@dataclass(eq=False)
class HandState:
    """What a hand message should show: text, picture (None: the one it shows is still right) and
    buttons (None: no buttons), with the moment of the game it was taken at: the hand drawn
    (``sig``), the decision its buttons answer (-1: none) and the hand's index."""

    content: str
    png: bytes | None
    view: discord.ui.View | None
    sig: tuple[Any, ...] = ()
    decision: int = -1
    hand: int = -1

    @property
    def shows(self) -> tuple[Any, ...]:
        """What a message showing this state shows: its text, its buttons (their custom_ids say
        what each does) and the hand drawn."""
        buttons = tuple(getattr(c, "custom_id", None) for c in self.view.children) if self.view is not None else ()
        return (self.content, buttons, self.sig)


class ClickAnswer:
    """The first response to a click on a hand: the new hand itself (UPDATE_MESSAGE, callback type
    7: no bot-token request, inside the 3 s), or, when that is not ready ``within`` seconds, a
    deferred update (type 6) now and the hand through the interaction's token later (interaction
    routes are outside the bot's global rate limit)."""

    def __init__(self, interaction: discord.Interaction, within: float = ANSWER_WITHIN) -> None:
        self.interaction = interaction
        self._lock = asyncio.Lock()
        self._late = asyncio.get_running_loop().call_later(within, self._defer_soon)
        self._deferring: asyncio.Task[None] | None = None

    def _defer_soon(self) -> None:
        self._deferring = asyncio.ensure_future(self._defer())

    async def _defer(self) -> None:
        async with self._lock:
            if not self.interaction.response.is_done():
                with suppress(discord.HTTPException):
                    await self.interaction.response.defer()

    async def show(self, state: HandState) -> None:
        self._late.cancel()
        kwargs: dict[str, Any] = {"content": state.content, "view": state.view}
        if state.png is not None:
            kwargs["attachments"] = [discord.File(io.BytesIO(state.png), filename="hand.png")]
        async with self._lock:
            if not self.interaction.response.is_done():
                await self.interaction.response.edit_message(**kwargs)
            else:
                await self.interaction.edit_original_response(**kwargs)

    async def say(self, text: str) -> None:
        """One plain sentence only the clicker sees."""
        self._late.cancel()
        async with self._lock:
            if not self.interaction.response.is_done():
                await self.interaction.response.send_message(text, ephemeral=True)
            else:
                await self.interaction.followup.send(text, ephemeral=True)

    def close(self) -> None:
        self._late.cancel()


@dataclass(eq=False)
class _Claim:
    """A click waiting to be answered with the hand's next state (by the update its action made)."""

    answer: ClickAnswer
    message_id: int
    ephemeral: bool
    done: asyncio.Future[bool]  # True: answered by the presenter; False: the click answers itself


@dataclass(eq=False)
class _Token:
    """An interaction whose token can still edit a seat's hand message (for 15 minutes)."""

    interaction: discord.Interaction
    at: float
    message_id: int


@dataclass(slots=True)
class _TablePicture:
    """A table's channel: its writer task posts the hand results and the final standings (each
    once, in order, counted in storage) and edits the table picture at most once per interval."""

    channel_id: int
    dirty: bool = False
    last: list[Action] = field(default_factory=list)  # actions since the last edit (for "Last:")
    edited_at: float = -math.inf
    hand: int = -1  # the hand the table message in use shows
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one edit of the message at a time
    task: asyncio.Task[None] | None = None


def _ordinal(n: int, lang: Lang = DEFAULT) -> str:
    if lang != DEFAULT:
        return i18n.t(lang, "place {n}", n=n)  # 1着
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


class Presenter:
    """Renders updates into Discord messages. ``view_factory`` builds the button views.

    Each table update is worked on in a task of its own (one table's in order), so the click that
    caused it is answered as soon as the action is stored. The clicker's hand goes out as the
    answer to the click (:class:`ClickAnswer`); other hands through the freshest interaction token
    of their player, else a bot-token edit, or, where the table pings (async tables), as a new
    message for each new decision with the previous one left without buttons. The channel gets
    the hand results, the final standings and the table picture from one writer task per table.
    """

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
        self._locks: dict[tuple[int, int], asyncio.Lock] = {}  # (table, seat): one hand message at a time
        self._pictures: dict[int, _TablePicture] = {}
        self._claims: dict[tuple[int, int], _Claim] = {}
        self._tokens: dict[tuple[int, int], _Token] = {}
        self._asked: dict[tuple[int, int], int] = {}  # (table, seat) → decision serial last offered
        self._expired: dict[tuple[int, int], list[Action]] = {}  # moves the clock made, to tell
        self._results_seen: dict[tuple[int, int], int] = {}  # hand results a player was told of
        self._shown: dict[tuple[int, int], tuple[Any, ...]] = {}  # what each hand message shows
        self._tasks: set[asyncio.Task[None]] = set()
        self._newest = 0  # the newest snowflake Discord gave us (its clock)
        self._pace_tables = Pacer(self.options.table_edits_per_s)
        # every request on the bot's token, spaced under Discord's 50/s for the whole token (a
        # burst over it is a global 429, which stops every request of the bot for a while)
        self._pace = Pacer(self.options.bot_requests_per_s)
        self._channel_pacers: dict[int, Pacer] = {}
        self._dealt: dict[tuple[int, int], int] = {}  # (table, seat) → the hand its message shows
        self.gate = Gate(self.options.concurrent, bot.responses.settled)

    def close(self) -> None:
        for p in self._pictures.values():
            if p.task is not None:
                p.task.cancel()
        for task in list(self._tasks):
            task.cancel()
        self.renderer.close()

    async def club_lang(self, t: Table) -> Lang:
        """The language of what the table's channel shows (the club's; :class:`bot.locales.Locales`
        keeps it after its first read, so an update costs no storage read)."""
        locales = getattr(self.bot, "locales", None)
        return DEFAULT if locales is None else await locales.of_club(t.row.guild_id)

    def seat_lang(self, t: Table, seat: int) -> Lang:
        """The language of a player's own hand message: the locale they last used."""
        locales = getattr(self.bot, "locales", None)
        return DEFAULT if locales is None else locales.of_user(t.seats[seat].user_id)

    async def channel(self, t: Table) -> Any:
        cid = t.row.thread_id or t.row.channel_id
        ch = self.bot.get_channel(cid)
        if ch is None:
            await self._pace()
            ch = await self.bot.fetch_channel(cid)
        return ch

    @asynccontextmanager
    async def _turn_in(self, t: Table) -> AsyncIterator[None]:
        """A turn to send to the table's channel, held while the request is under way: its share
        of the channel's ~5 per 5 s (every table there takes turns), then of the bot token's 50/s."""
        async with self._channel_pacer(t.row.thread_id or t.row.channel_id).slot():
            await self._pace()
            yield

    def _channel_pacer(self, channel_id: int) -> Pacer:
        pacer = self._channel_pacers.get(channel_id)
        if pacer is None:
            pacer = self._channel_pacers[channel_id] = Pacer(self.options.channel_requests_per_5s, 5.0)
        return pacer

    def saw(self, snowflake: int) -> None:
        """Note an id Discord just made: the newest one tells Discord's time (message ages are
        Discord's, whatever the bot's own clock says)."""
        self._newest = max(self._newest, snowflake)

    def age(self, message_id: int) -> float:
        """Seconds since Discord made ``message_id``, by the newest id seen since."""
        return max(0.0, ((self._newest >> 22) - (message_id >> 22)) / 1000)

    async def _png(self, kind: str, delay: float, *args: Any, **kwargs: Any) -> bytes:
        """A picture, drawn when the gate lets it in (hands before table pictures); the gate is
        held for the drawing only, never while a message is sent (a 429 may make that wait)."""
        await self.gate(delay)
        try:
            return await self.renderer.png(kind, *args, **kwargs)
        finally:
            self.gate.leave()

    async def on_update(self, u: Update) -> None:
        """Take an update (called as the action is stored; returns at once): the channel's writer
        is told, and each player's hand goes out in a task of its own, one player's in order, so
        a message waiting out a 429 never holds back another player's hand or the next update."""
        t = u.table
        if t.game is None:
            return
        if u.expired and u.actions and t.seats[u.actions[0].seat].ai is None:
            self._expired.setdefault((t.id, u.actions[0].seat), []).append(u.actions[0])
        # the channel (the first table message, results, the picture) goes its own way: a busy
        # channel never holds the hands back
        self._channel_due(t, u.actions)
        for note in u.notices:  # an mjai seat fell back to the built-in AI: said once, as it happens
            task = asyncio.create_task(self._notice(t, note), name=f"jantaku-table-notice-{t.id}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        # the hands and their buttons: that is what the players are waiting for (and a button left
        # up after the game moved on only earns "that turn has passed")
        self._hands_due(t)

    async def _notice(self, t: Table, text: str) -> None:
        try:
            ch = await self.channel(t)
            await ch.send(content=text)
        except Exception:  # a notice lost is logged; the game goes on
            log.exception("table %s: could not post a notice", t.id)

    async def post_pending(self, t: Table) -> None:
        """After a restart: whatever the channel is still owed (results, final standings)."""
        if t.game is not None:
            self._channel_due(t, None, dirty=False)
            p = self._pictures.get(t.id)
            if p is not None and p.task is not None:
                await asyncio.shield(p.task)

    # -- the channel: results, final standings, the table picture --------------------------------

    def _channel_due(self, t: Table, actions: list[Action] | None, *, dirty: bool = True) -> None:
        p = self._picture(t, actions, dirty=dirty)
        if p.task is None or p.task.done():
            p.task = asyncio.create_task(self._channel_writer(t, p), name=f"jantaku-table-channel-{t.id}")

    def _picture(self, t: Table, actions: list[Action] | None, *, dirty: bool = True) -> _TablePicture:
        p = self._pictures.get(t.id)
        if p is None:
            p = self._pictures[t.id] = _TablePicture(t.row.thread_id or t.row.channel_id)
        if actions:
            p.last = (p.last + [a for a in actions if a.type is not A.PASS])[-4:]
        p.dirty = p.dirty or dirty
        return p

    def _interval(self, p: _TablePicture) -> float:
        """Seconds between two edits of one table picture: Discord lets a channel take ~5 messages
        or edits per 5 s, shared by every table in it, so each gets its share."""
        sharing = sum(1 for q in self._pictures.values() if q.channel_id == p.channel_id and q.dirty)
        return self.options.table_interval * max(1, sharing)

    async def _channel_writer(self, t: Table, p: _TablePicture) -> None:
        loop = asyncio.get_running_loop()
        backoff = 1.0
        while True:
            g = t.game
            if g is None:
                return
            try:
                if t.row.results_posted < len(g.results):
                    await self._post_results(t)
                elif g.over:
                    if p.dirty or not t.row.final_posted:
                        await self._write_table(t, p)  # the final state, before the standings
                    if not t.row.final_posted:
                        await self._post_final(t)
                    await self._forget(t)
                    return
                elif not p.dirty:
                    return
                else:
                    wait = p.edited_at + self._interval(p) - loop.time()
                    if wait > 0:
                        await asyncio.sleep(wait)
                        continue  # a result may have come meanwhile: it goes first
                    await self._pace_tables()  # the pictures' share of the bot token's 50/s
                    await self._write_table(t, p)
                backoff = 1.0
            except (discord.Forbidden, discord.NotFound):
                log.warning("table %s: its channel refuses the bot's messages", t.id)
                return  # the next update tries again
            except Exception:
                log.exception("table %s: could not update its channel; trying again in %.0f s", t.id, backoff)
                await asyncio.sleep(backoff)
                backoff = min(60.0, backoff * 2)

    async def _forget(self, t: Table) -> None:
        """Drop what was kept for a finished table, after its last hand messages are out: each
        seat's lock is taken once more (first come, first served, so the sends queued on it are
        done and can no longer put their notes back)."""
        g = t.game
        seats = range(g.players if g is not None else 0)
        for s in seats:
            lock = self._locks.get((t.id, s))
            if lock is not None:
                async with lock:
                    pass
        self._pictures.pop(t.id, None)
        self._prompted.pop(t.id, None)
        for s in seats:
            for d in (self._sig, self._tokens, self._asked, self._expired, self._results_seen, self._shown, self._dealt, self._locks):
                d.pop((t.id, s), None)  # type: ignore[attr-defined]

    async def _post_results(self, t: Table) -> None:
        g = t.game
        assert g is not None
        ch = await self.channel(t)
        while t.row.results_posted < len(g.results):
            i = t.row.results_posted
            async with self._turn_in(t):
                await self.post_result(ch, t, i)
            t.row.results_posted = i + 1
            await self.service.repo.set_table(t.id, results_posted=i + 1)

    async def _post_final(self, t: Table) -> None:
        ch = await self.channel(t)
        async with self._turn_in(t):
            await self.post_final(ch, t)
        t.row.final_posted = True
        await self.service.repo.set_table(t.id, final_posted=1)

    async def _write_table(self, t: Table, p: _TablePicture) -> None:
        async with p.lock:
            if not p.dirty:  # refresh_table got there first
                return
            p.dirty = False
            last, p.last = p.last, []
            p.edited_at = asyncio.get_running_loop().time()
            try:
                await self._edit_table(t, p, last)
            except Exception:
                p.dirty = True  # the newest state is still owed
                raise

    async def refresh_table(self, t: Table, last: list[Action] | None = None) -> None:
        """Edit the table message now (after an edit already under way) and wait for it."""
        await self._write_table(t, self._picture(t, last))

    async def _edit_table(self, t: Table, p: _TablePicture, last: list[Action] | None = None) -> None:
        ch = await self.channel(t)
        g = t.game
        lang = await self.club_lang(t)
        text = status_text(t, last, lang)
        files = []
        if g is not None:
            png = await self._png("table", 1.0, table_view(t, lang=lang), style=self.tile_style(t), lang=lang)  # hands that come within a second go first
            files = [discord.File(io.BytesIO(png), filename="table.png")]
        view = self.view_factory("table", t, lang=lang) if g is not None and not g.over else None
        hand = g.hand_index if g is not None else -1
        # a new hand gets a new table message (the old one stays as that hand's history), and so
        # does a message about to be an hour old: Discord limits the edits of those (30046)
        fresh = p.hand == hand and t.row.message_id is not None and self.age(t.row.message_id) < TABLE_MESSAGE_AGE
        if t.row.message_id and (fresh or (g is not None and g.over)):
            msg = ch.get_partial_message(t.row.message_id)
            try:
                async with self._turn_in(t):
                    await msg.edit(content=text, attachments=files, view=view)
                return
            except discord.NotFound:
                pass
        async with self._turn_in(t):
            msg = await ch.send(content=text, files=files, view=view)
        self.saw(msg.id)
        p.hand = hand
        t.row.message_id = msg.id
        await self.service.repo.set_table(t.id, message_id=msg.id)

    async def post_result(self, ch: Any, t: Table, idx: int) -> None:
        """The hand's result: the text, and for a win the picture of every winner's hand
        (:func:`bot.render.variants.result_view`)."""
        g = t.game
        assert g is not None
        lang = await self.club_lang(t)
        text, _ = result_text(t, idx, lang)
        files = []
        view = vr.result_view(g, idx, [seat_name(s, lang) for s in t.seats], lang=lang)
        if view is not None and view.wins:
            png = await self.renderer.png("result", view, style=self.tile_style(t), lang=lang)
            files = [discord.File(io.BytesIO(png), filename="result.png")]
        await ch.send(content=text, files=files, nonce=f"jr{t.id}.{idx}")

    async def post_final(self, ch: Any, t: Table) -> None:
        g = t.game
        assert g is not None
        lang = await self.club_lang(t)
        rows = [(seat_name(t.seats[s], lang), g.final_scores[s], g.final_results[s]) for s in g.ranking()]
        png = await self.renderer.png("final", rows, lang=lang)
        await ch.send(content=final_text(t, lang), files=[discord.File(io.BytesIO(png), filename="final.png")], nonce=f"jf{t.id}")

    # -- private hands -------------------------------------------------------------------------

    def hand_args(self, t: Table, seat: int, lang: Lang = DEFAULT) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The arguments of ``render_hand`` for this seat's hand picture (its title in ``lang``)."""
        g = t.game
        assert g is not None
        tiles, drawn = vr.hand_tiles(g, seat)  # the order the discard buttons follow
        melds = [vr.meld_of(g, m) for m in g.seats[seat].melds] + vr.hand_extras(g, seat)
        title = i18n.t(
            lang,
            "Table #{table} · {round} · you are {wind} · {score} {unit}",
            table=t.id,
            round=round_text(g, lang),
            wind=_wind(lang, vr.seat_wind(g, seat)),
            score=g.scores[seat],
            unit=ruleset_word(lang, vr.score_unit(g)),
        )
        return (tiles, melds, drawn), {"title": title, "lang": lang}

    def tile_style(self, t: Table, seat: int | None = None) -> str | None:
        """The tile style of a picture of ``t``: the player's at ``seat`` for a picture only they
        see, the club's for one the channel sees (:mod:`bot.prefs`)."""
        prefs: TileStyles | None = getattr(self.bot, "prefs", None)
        if prefs is None:
            return None
        return prefs.club(t.row.guild_id) if seat is None else prefs.player(t.row.guild_id, t.seats[seat].user_id)

    def seat_picture(self, t: Table, seat: int, lang: Lang = DEFAULT) -> Awaitable[bytes]:
        """The "Show my hand" picture, for that player only: the table drawn from their seat (at
        the bottom) with their own hand under it, as the game is now; drawn by the render worker,
        as every hand is (await it)."""
        args, kwargs = self.hand_args(t, seat, lang)
        return self._png("seat", 0.0, table_view(t, bottom=seat, lang=lang), *args, style=self.tile_style(t, seat), **kwargs)

    def table_picture(self, t: Table, seat: int | None, lang: Lang = DEFAULT) -> Awaitable[bytes]:
        """The public table picture as the game is now, drawn from ``seat`` (at the bottom); for a
        spectator (None) in the shared picture's orientation. Someone waits for it: it goes with
        the hands (await it)."""
        return self._png("table", 0.0, table_view(t, bottom=seat or 0, lang=lang), style=self.tile_style(t), lang=lang)

    def hand_text(self, t: Table, seat: int, *, buttons: bool = True, notes: Sequence[str] = (), lang: Lang = DEFAULT) -> str:
        """The text of a hand message, in ``lang``; ``buttons=False`` for a message whose buttons
        are elsewhere (the player's next move came as a new message); ``notes`` go first (what the
        clock did)."""
        g = t.game
        assert g is not None
        st = g.seats[seat]
        you = i18n.t(lang, "Your hand ({name}, {wind})", name=seat_name(t.seats[seat], lang), wind=_wind(lang, vr.seat_wind(g, seat)))
        lines = [*notes, you, status_text(t, None, lang)]
        lines += Presenter._news(self, t, seat, lang)  # (the class's: tests call hand_text on a stand-in)
        waits = waits_line(g, seat, lang) if t.seats[seat].show_waits else None
        if seat in g.to_act() and not g.over and not buttons:
            lines.append(i18n.t(lang, NEXT_MOVE))
            lines += [waits] if waits else []
        elif seat in g.to_act() and not g.over:
            names = [seat_name(s, lang) for s in t.seats]
            if g.phase is Phase.TURN:
                lines.append(i18n.t(lang, "**Your turn.** Pick a tile to discard or an action."))
            elif g.phase is Phase.CLAIM:
                lines.append(vr.claim_text(g, seat, names, lang=lang))
            elif g.phase is Phase.CHANKAN:
                lines.append(
                    i18n.t(
                        lang,
                        "**{who} sets aside {tile}.** Rob it (ron) or pass.",
                        who=names[g.current],
                        tile=tile_label(g.code(g.kakan_tile), lang),
                    )
                )
            else:
                lines.append(
                    i18n.t(
                        lang,
                        "**{who} discarded {tile}.** Call it or pass.",
                        who=seat_name(t.seats[g.last_discarder], lang),
                        tile=tile_label(g.code(g.last_discard), lang),
                    )
                )
            lines += [waits] if waits else []
            lines += vr.warnings(g, seat, g.legal_actions(seat), names, lang=lang)  # lazy: listed only when needed
        elif waits:
            lines.append(waits)
        shown = vr.hand_extras(g, seat)
        if shown and st.kita:
            lines.append(i18n.t(lang, "Set aside: {tiles}", tiles=" ".join(tile_label(c, lang) for c in shown[0][1])))
        return "\n".join(lines)[:2000]

    def _news(self, t: Table, seat: int, lang: Lang = DEFAULT) -> list[str]:
        """What happened since this player's own last move: the others' moves, their own result
        when a hand ended, their place when the game ended. It depends on the game only (and on
        the results already told), so one state always reads the same."""
        g = t.game
        assert g is not None
        out = []
        last = next((i for i in range(len(g.actions) - 1, -1, -1) if g.actions[i].seat == seat), None)
        if last is not None and not g.over:
            moves = [describe(g, t, a, lang) for a in g.actions[last + 1 :] if a.type is not A.PASS and a.seat != seat]
            if moves:
                out.append(i18n.t(lang, "Since your last move: {moves}", moves="; ".join(moves[-8:])))
        for i in range(self._results_seen.get((t.id, seat), len(g.results)), len(g.results)):
            r = g.results[i]
            d = r.deltas[seat] if seat < len(r.deltas) else 0
            won = any(w.seat == seat for w in r.wins)
            dealt = any(w.from_seat == seat and w.seat != seat for w in r.wins)
            what = i18n.t(lang, "you won") if won else i18n.t(lang, "you dealt in") if dealt else i18n.t(lang, "the hand ended")
            out.append(
                i18n.t(
                    lang,
                    "Hand over ({hand}): {what}, {delta} {unit}.",
                    hand=vr.result_label(g, i, lang=lang),
                    what=what,
                    delta=f"{d:+d}",
                    unit=ruleset_word(lang, vr.score_unit(g)),
                )
            )
        if g.over and g.final_scores:
            place = g.ranking().index(seat) + 1
            out.append(
                i18n.t(
                    lang,
                    "**Game over: you placed {place} with {score} {unit}.**",
                    place=_ordinal(place, lang),
                    score=g.final_scores[seat],
                    unit=ruleset_word(lang, vr.final_unit(g) or vr.score_unit(g)),
                )
            )
        return out

    def hand_now(self, t: Table, seat: int, *, buttons: bool, notes: Sequence[str] = (), lang: Lang | None = None) -> HandState:
        """The hand message's state at this moment, without its picture, in ``lang`` (None: the
        player's own, :meth:`seat_lang`)."""
        g = t.game
        assert g is not None
        lang = self.seat_lang(t, seat) if lang is None else lang
        content = self.hand_text(t, seat, buttons=buttons, notes=notes, lang=lang)
        acting = not g.over and seat in g.to_act()
        view = self.view_factory("hand", t, seat, lang=lang) if buttons and acting else None
        sig = (tuple(sorted(g.seats[seat].tiles)), len(g.seats[seat].melds), g.hand_index)
        return HandState(content, None, view, sig, t.decision_serial() if acting else -1, g.hand_index)

    async def hand_state(
        self, t: Table, seat: int, *, buttons: bool, picture: bool, notes: Sequence[str] = (), lang: Lang | None = None
    ) -> HandState:
        """The hand message's state at this moment, its picture drawn (after the moment is taken:
        the game may move on meanwhile, and the state says which moment it shows); in ``lang``
        (None: the player's own)."""
        lang = self.seat_lang(t, seat) if lang is None else lang
        state = self.hand_now(t, seat, buttons=buttons, notes=notes, lang=lang)
        if picture:
            args, kwargs = self.hand_args(t, seat, lang)
            state.png = await self._png("hand", 0.0, *args, style=self.tile_style(t, seat), **kwargs)
        return state

    async def prompt_humans(self, t: Table, *, everyone: bool = False) -> None:
        """Send the hand of every human who must act now, and of those whose buttons just went
        stale (so no old button stays up); everyone after a restart."""
        await asyncio.gather(*self._hands_due(t, everyone=everyone))

    async def refresh_hand(self, t: Table, seat: int) -> None:
        """Show a player's hand again though the game did not move (a standing order changed what
        its buttons do)."""
        g = t.game
        if g is None or g.over or t.seats[seat].ai is not None or t.seats[seat].user_id is None:
            return
        self._shown.pop((t.id, seat), None)
        await self._send_seat(t, seat, seat in self._prompted.get(t.id, set()))

    def _hands_due(self, t: Table, *, everyone: bool = False) -> list[asyncio.Task[None]]:
        """Start sending the hands that changed meaning: of the humans who act now, of those whose
        buttons went stale, of a clicker waiting for an answer, of a player the clock moved for."""
        g = t.game
        if g is None:
            return []
        acting = set(g.to_act()) if not g.over else set()
        shown = self._prompted.get(t.id, set())
        self._prompted[t.id] = acting
        tasks = []
        for s in range(g.players):
            seat = t.seats[s]
            if seat.ai is not None or seat.user_id is None:
                continue
            if everyone or s in acting or s in shown or (t.id, s) in self._claims or (t.id, s) in self._expired:
                task = asyncio.create_task(self._send_seat(t, s, s in shown), name=f"jantaku-hand-{t.id}-{s}")
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
                tasks.append(task)
        return tasks

    async def _send_seat(self, t: Table, s: int, had_buttons: bool) -> None:
        # one player's messages one at a time, in the order the updates came (asyncio.Lock is
        # first come, first served): an older state never lands after a newer one
        async with self._locks.setdefault((t.id, s), asyncio.Lock()):
            for attempt in range(HAND_TRIES):
                try:
                    await self.send_hand(t, s, had_buttons=had_buttons)
                    return
                except discord.Forbidden:  # the channel refuses us: trying again changes nothing
                    log.warning("table %s: seat %s's hand was refused (missing permissions)", t.id, s)
                    return
                except Exception:
                    # tried again with the newest state (what failed may be outdated by then)
                    log.warning("table %s: could not send seat %s its hand (try %d)", t.id, s, attempt + 1, exc_info=True)
                    await asyncio.sleep(2.0**attempt)
            log.error("table %s: gave up sending seat %s its hand after %d tries", t.id, s, HAND_TRIES)

    # a click on a hand: answered with the hand's next state ---------------------------------------

    async def answer_click(self, table_id: int, interaction: discord.Interaction, answer: ClickAnswer) -> None:
        """Answer a click whose action was just stored with the clicker's new hand. Called right
        after :meth:`TableService.act` returned (its update is not worked on yet): the update's
        task answers the click; if it does not (the seat was not due), the click answers itself."""
        self.saw(interaction.id)
        t = self.service.tables.get(table_id)
        seat = t.seat_of(interaction.user.id) if t is not None else None
        if t is None or seat is None or t.game is None:
            answer.close()
            return
        msg = interaction.message
        claim = _Claim(answer, msg.id if msg else 0, bool(msg and msg.flags.ephemeral), asyncio.get_running_loop().create_future())
        old = self._claims.pop((t.id, seat), None)
        if old is not None and not old.done.done():
            old.done.set_result(False)
        self._claims[(t.id, seat)] = claim
        if t.game.over:
            # the game's last update: another listener (the standings) awaited before act()
            # returned, so its hand task may have run before this claim was made, and no later
            # update will answer it. Behind that task on the seat's lock, the click answers itself
            # unless the task took it.
            await asyncio.sleep(0)  # a hand task still to start takes the claim now
            lock = self._locks.get((t.id, seat))
            if lock is not None:
                async with lock:
                    pass
            answered = claim.done.done() and claim.done.result()
        else:
            try:
                answered = await asyncio.wait_for(asyncio.shield(claim.done), CLAIM_PATIENCE)
            except TimeoutError:
                answered = False
        if self._claims.get((t.id, seat)) is claim:
            del self._claims[(t.id, seat)]
        if not answered:
            await self._answer_now(t, seat, interaction, answer, claim.message_id, claim.ephemeral)

    async def refused(self, table_id: int, interaction: discord.Interaction, answer: ClickAnswer, text: str, serial: int) -> None:
        """A click the table refused: one sentence; a button of a turn that has passed also brings
        the hand up to date, so what the player sees offers only moves that are still open."""
        t = self.service.tables.get(table_id)
        seat = t.seat_of(interaction.user.id) if t is not None else None
        msg = interaction.message
        if t is not None and seat is not None and t.game is not None and not t.game.over and msg is not None and serial != t.decision_serial():
            with suppress(discord.HTTPException):
                await self._answer_now(t, seat, interaction, answer, msg.id, bool(msg.flags.ephemeral))
        await answer.say(text)

    async def _answer_now(self, t: Table, seat: int, interaction: discord.Interaction, answer: ClickAnswer, message_id: int, ephemeral: bool) -> None:
        current = self._is_hand_message(t, seat, message_id, ephemeral)
        state = await self.hand_state(t, seat, buttons=current, picture=current, lang=lang_of(getattr(interaction, "locale", None)))
        await answer.show(state)
        if current:
            self._tokens[(t.id, seat)] = _Token(interaction, asyncio.get_running_loop().time(), message_id)

    @staticmethod
    def _is_hand_message(t: Table, seat: int, message_id: int, ephemeral: bool) -> bool:
        """Whether a clicked message is the player's hand (their DM hand message, or, without
        DMs, an ephemeral one) rather than a question asked on the way (the riichi chooser)."""
        s = t.seats[seat]
        return message_id == s.hand_message_id or (ephemeral and s.dm_closed)

    def showed_hand(self, t: Table, seat: int, interaction: discord.Interaction, message_id: int | None) -> None:
        """A "Show my hand" reply went out: for a player without DMs, that ephemeral is their hand
        from now on, kept up to date through its token."""
        if message_id and t.seats[seat].dm_closed:
            self._tokens[(t.id, seat)] = _Token(interaction, asyncio.get_running_loop().time(), message_id)
            self._sig.pop((t.id, seat), None)
            g = t.game
            if g is not None:
                if seat in g.to_act():
                    self._asked[(t.id, seat)] = t.decision_serial()

    def _token(self, key: tuple[int, int], message_id: int | None) -> _Token | None:
        tok = self._tokens.get(key)
        if tok is None or tok.message_id != message_id:
            return None
        if asyncio.get_running_loop().time() - tok.at > TOKEN_LIFE:
            del self._tokens[key]
            return None
        return tok

    async def send_hand(self, t: Table, s: int, *, had_buttons: bool = True) -> None:
        g = t.game
        assert g is not None
        seat = t.seats[s]
        if seat.user_id is None:
            return  # the seat went to an AI (a league's substitute) after its hand was due
        key = (t.id, s)
        acting = (not g.over) and s in g.to_act()
        decision = t.decision_serial() if acting else -1
        new_decision = acting and self._asked.get(key) != decision
        claim = self._claims.pop(key, None)
        expired = self._expired.pop(key, [])
        lang = self.seat_lang(t, s) if claim is None else lang_of(getattr(claim.answer.interaction, "locale", None))
        notes = [i18n.t(lang, "⏰ Time ran out, so I played for you: {move}.", move=describe(g, t, a, lang)) for a in expired]
        # a table that pings: every new decision (and a move the clock made) is a new message; in
        # any table a new hand is (a message edited all game would pass an hour: 30046)
        new_hand = self._dealt.get(key, g.hand_index) != g.hand_index
        notify = ((t.row.pings and (new_decision or bool(expired))) or new_hand) and not seat.dm_closed
        sig = (tuple(sorted(g.seats[s].tiles)), len(g.seats[s].melds), g.hand_index)
        try:
            if claim is not None:
                # the clicked message shows the new hand: with its buttons, unless they come in a
                # new message (a table that pings) or it is an older message than the hand's own
                current = self._is_hand_message(t, s, claim.message_id, claim.ephemeral)
                same = current and not claim.ephemeral and self._sig.get(key) == sig
                state = await self.hand_state(
                    t, s, buttons=current and not notify, picture=current and not same, notes=() if notify else notes, lang=lang
                )
                try:
                    await claim.answer.show(state)
                finally:
                    if not claim.done.done():
                        claim.done.set_result(True)
                self._results_seen[key] = len(g.results)  # the player has read those results now
                if current:
                    self._tokens[key] = _Token(claim.answer.interaction, asyncio.get_running_loop().time(), claim.message_id)
                    if not claim.ephemeral:
                        self._sig[key] = state.sig
                        self._shown[key] = (claim.message_id, state.shows)
                    if not notify:
                        self._done_sending(key, state)
                        return
            elif seat.dm_closed:
                self._done_sending(key, await self._send_ephemeral_hand(t, s, acting, new_decision, notes))
                return
            stripped = claim is not None and claim.message_id == seat.hand_message_id
            self._done_sending(key, await self._send_dm_hand(t, s, notify=notify, notes=notes, stripped=stripped or not had_buttons))
        except discord.Forbidden:
            seat.dm_closed = True
            await self.service.repo.set_seat(t.id, s, dm_closed=True)
            if not t.row.message_id:  # the button the sentence points at comes first
                await self.refresh_table(t)
            ch = await self.channel(t)
            await ch.send(
                i18n.t(
                    self.seat_lang(t, s),
                    "<@{user}>, I cannot send you direct messages: use the **Show my hand** button on the table message.",
                    user=seat.user_id,
                )
            )
        finally:
            if claim is not None and not claim.done.done():
                claim.done.set_result(False)

    def _done_sending(self, key: tuple[int, int], state: HandState | None) -> None:
        """Note what the player's hand message now shows (the moment its state was taken at)."""
        if state is None:
            return
        self._dealt[key] = state.hand
        if state.decision >= 0 and state.view is not None:
            self._asked[key] = state.decision

    async def _send_ephemeral_hand(self, t: Table, s: int, acting: bool, new_decision: bool, notes: list[str]) -> HandState | None:
        """A player without DMs: their ephemeral hand is kept current through the freshest token;
        where the table pings, they are mentioned in its channel once per new decision."""
        seat = t.seats[s]
        key = (t.id, s)
        tok = self._tokens.get(key)
        state: HandState | None = None
        if tok is not None and self._token(key, tok.message_id) is not None:
            state = await self.hand_state(t, s, buttons=True, picture=True, notes=notes)
            try:
                await tok.interaction.edit_original_response(**_edit_kwargs(state))
            except discord.HTTPException:
                self._tokens.pop(key, None)
                state = None
        if t.row.pings and acting and new_decision:
            ch = await self.channel(t)
            async with self._turn_in(t):
                await ch.send(
                    i18n.t(
                        self.seat_lang(t, s), "<@{user}>, your move at table #{table}: **Show my hand** on the table message.", user=seat.user_id, table=t.id
                    ),
                    allowed_mentions=discord.AllowedMentions(users=True),
                )
            state = state or self.hand_now(t, s, buttons=True)  # pinged for this decision
        return state

    async def _dm(self, user_id: int) -> Any:
        dm = self._dms.get(user_id)
        if dm is None:
            user = self.bot.get_user(user_id)
            if user is None:
                await self._pace()
                user = await self.bot.fetch_user(user_id)
            if user.dm_channel is None:
                await self._pace()
            dm = self._dms[user_id] = user.dm_channel or await user.create_dm()
        return dm

    async def _edit_hand_message(self, t: Table, s: int, dm: Any, message_id: int, state: HandState) -> bool:
        """Edit a hand message: through a fresh interaction token (outside the global rate limit)
        when one can, else with the bot's token. False if the message is gone."""
        key = (t.id, s)
        tok = self._token(key, message_id)
        if tok is not None:
            try:
                await tok.interaction.edit_original_response(**_edit_kwargs(state))
                return True
            except discord.HTTPException:  # expired early, or gone
                self._tokens.pop(key, None)
        try:
            await self._pace()
            await dm.get_partial_message(message_id).edit(**_edit_kwargs(state))
            return True
        except discord.NotFound:
            return False

    async def _send_dm_hand(self, t: Table, s: int, *, notify: bool, notes: list[str], stripped: bool) -> HandState:
        seat = t.seats[s]
        key = (t.id, s)
        assert seat.user_id is not None
        dm = await self._dm(seat.user_id)
        if seat.hand_message_id and not notify:
            now = self.hand_now(t, s, buttons=True, notes=notes)
            if self._shown.get(key) == (seat.hand_message_id, now.shows):
                return now  # it shows exactly this already (a queued update after a newer one)
            state = await self.hand_state(t, s, buttons=True, picture=self._sig.get(key) != now.sig, notes=notes)
            if await self._edit_hand_message(t, s, dm, seat.hand_message_id, state):
                self._sig[key] = state.sig
                self._shown[key] = (seat.hand_message_id, state.shows)
                return state
        elif seat.hand_message_id and not stripped:
            # the previous message still shows buttons: it keeps the hand, without them
            old = self.hand_now(t, s, buttons=False)
            with suppress(discord.NotFound):
                await self._edit_hand_message(t, s, dm, seat.hand_message_id, old)
        state = await self.hand_state(t, s, buttons=True, picture=True, notes=notes)
        await self._pace()
        msg = await dm.send(**_send_kwargs(state))
        self.saw(msg.id)
        self._sig[key] = state.sig
        self._shown[key] = (msg.id, state.shows)
        self._tokens.pop(key, None)  # its token edits the old message, not this one
        seat.hand_message_id = msg.id
        await self.service.repo.set_seat(t.id, s, hand_message_id=msg.id)
        return state

    # -- a seat's player changed (a league's substitute; issue 30) --------------------------------

    async def seat_changed(self, t: Table, seat: int, *, left: tuple[int | None, int | None] = (None, None)) -> None:
        """The seat has a new player (its stored user and name were changed under the table's
        lock): the last player's hand message (``left``: their user id and its message id) keeps the
        hand without its buttons; what it showed is forgotten, and the new player gets the hand by
        DM, with its buttons if the seat is to act."""
        key = (t.id, seat)
        user_id, message_id = left
        async with self._locks.setdefault(key, asyncio.Lock()):  # a hand on its way to the last player lands first
            late = t.seats[seat].hand_message_id  # set by that hand after the change: the last player's message
            t.seats[seat].hand_message_id = None
            for old in dict.fromkeys(m for m in (message_id, late) if m):
                if user_id is None or t.game is None:
                    break
                with suppress(discord.HTTPException):
                    dm = await self._dm(user_id)
                    await self._pace()
                    await dm.get_partial_message(old).edit(view=None)
        claim = self._claims.pop(key, None)
        if claim is not None and not claim.done.done():
            claim.done.set_result(False)
        for d in (self._sig, self._shown, self._tokens, self._asked, self._dealt, self._expired, self._results_seen):
            d.pop(key, None)  # type: ignore[attr-defined]
        g = t.game
        if g is None or g.over or t.seats[seat].ai is not None or t.seats[seat].user_id is None:
            return
        if seat in g.to_act():  # its buttons are up: the next update refreshes them
            self._prompted.setdefault(t.id, set()).add(seat)
        await self._send_seat(t, seat, False)

    # -- notices outside a table (leagues) -----------------------------------------------------

    async def notify(self, user_id: int, text: str) -> bool:
        """One DM to a player, paced under the token's budget and cut to Discord's length;
        False if their DMs are closed (or they cannot be found)."""
        try:
            dm = await self._dm(user_id)
            await self._pace()
            msg = await dm.send(text[:NOTICE_LIMIT])
        except (discord.Forbidden, discord.NotFound):
            return False
        self.saw(msg.id)
        return True

    async def post(self, channel_id: int, text: str, *, files: Sequence[discord.File] = (), view: discord.ui.View | None = None) -> Any:
        """A message in a channel, paced under the channel's and the token's budgets, cut to
        Discord's length (a longer text goes as several messages, split at line ends); the last
        message sent."""
        ch = self.bot.get_channel(channel_id)
        if ch is None:
            await self._pace()
            ch = await self.bot.fetch_channel(channel_id)
        pacer = self._channel_pacer(channel_id)
        chunks = _chunks(text, NOTICE_LIMIT)
        for i, chunk in enumerate(chunks):
            async with pacer.slot():
                await self._pace()
                last = i == len(chunks) - 1
                extra: dict[str, Any] = {"view": view} if last and view is not None else {}
                msg = await ch.send(content=chunk, files=list(files) if last else [], **extra)  # type: ignore[union-attr]
            self.saw(msg.id)
        return msg

    async def edit_post(self, channel_id: int, message_id: int, text: str, *, drop_view: bool = False) -> None:
        """Edit a message :meth:`post` sent (its text; ``drop_view``: and take its buttons away),
        paced as a post is."""
        ch = self.bot.get_channel(channel_id)
        if ch is None:
            await self._pace()
            ch = await self.bot.fetch_channel(channel_id)
        async with self._channel_pacer(channel_id).slot():
            await self._pace()
            extra: dict[str, Any] = {"view": None} if drop_view else {}
            await ch.get_partial_message(message_id).edit(content=text[:NOTICE_LIMIT], **extra)  # type: ignore[union-attr]


NOTICE_LIMIT = 2000  # Discord's limit for a message's text


def _chunks(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, split at line ends where it can."""
    out: list[str] = []
    cur = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if cur:
                out.append(cur)
                cur = ""
            out.append(line[:limit])
            line = line[limit:]
        if cur and len(cur) + 1 + len(line) > limit:
            out.append(cur)
            cur = line
        else:
            cur = f"{cur}\n{line}" if cur else line
    if cur or not out:
        out.append(cur)
    return out


def _edit_kwargs(state: HandState) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"content": state.content, "view": state.view}
    if state.png is not None:
        kwargs["attachments"] = [discord.File(io.BytesIO(state.png), filename="hand.png")]
    return kwargs


def _send_kwargs(state: HandState) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"content": state.content}
    if state.view is not None:
        kwargs["view"] = state.view
    if state.png is not None:
        kwargs["file"] = discord.File(io.BytesIO(state.png), filename="hand.png")
    return kwargs

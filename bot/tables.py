"""TableService: the only thing that changes a table.

Every change goes through :meth:`TableService.act` under the table's lock: the engine validates
the action (``Game.play``), the accepted actions (the human's, then the AI seats' and automatic
ones up to the next human decision) are appended to the action log in one transaction together
with the re-armed timer, and only then are the listeners told so they can render messages. A table
is its ruleset, options, seed and action log, so :meth:`load` rebuilds any table after a restart.

No Discord types here: the cog layer translates interactions into calls on this service and the
service's :class:`Update` events into messages.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from bot.ai.policy import POLICIES
from bot.storage.repository import Repository, SeatRow, TableRow
from engine.rules import warm_up
from engine.rules.base import Ruleset, UnknownRuleset, find_ruleset, ruleset_names
from engine.table.actions import Action, ActionType
from engine.table.game import Game, IllegalActionError, Phase

log = logging.getLogger(__name__)
A = ActionType

class TableError(Exception):
    """A request the table refuses; the message is a plain sentence for the user."""


# The order /table open lists them in; a registered ruleset missing here comes after these.
_ORDER = ("riichi", "tenhou", "mleague", "majiang", "mahjongsoul", "sanma", "pk", "seigou", "shoukou", "taiwan16", "chinitsu_toutenkou")
#: Registered rulesets whose table does not play yet (none: every ruleset's hooks run a whole game,
#: tests/cogs/test_variant_games.py plays each variant through Discord).
NOT_AT_TABLE: frozenset[str] = frozenset()
PLAYABLE: tuple[str, ...] = tuple(
    n for n in sorted(ruleset_names(), key=lambda n: (_ORDER.index(n) if n in _ORDER else len(_ORDER), n)) if n not in NOT_AT_TABLE
)


@dataclass(frozen=True, slots=True)
class Length:
    """One choice of ``/table open length``: its value, a label for the list, and the ruleset
    options it sets (``{}`` = the ruleset's own default)."""

    value: str
    label: str
    options: dict[str, Any]


def lengths(name: str) -> list[Length]:
    """The game lengths a ruleset offers, its own default first (rounds for taiwan16, hands for
    chinitsu_toutenkou's one-hand settlements, hanchan/tonpuu for the riichi family)."""
    rs = find_ruleset(name)
    tw = getattr(rs, "tw", None)
    if tw is not None:  # TW-3: four rounds; shorter games are the option's other values
        rounds = [tw.rounds] + [r for r in (1, 2, 3, 4) if r != tw.rounds]
        winds = ("East", "East and South", "East, South, West", "all four winds")
        return [Length(f"{r}-round{'s' if r > 1 else ''}", f"{r} round{'s' if r > 1 else ''} ({winds[r - 1]})", {"tw": {"rounds": r}}) for r in rounds]
    ct = getattr(rs, "ct", None)
    if ct is not None:  # CT-A12: one-hand settlements; a table plays ct.table_hands of them
        hands = [ct.table_hands] + [h for h in (3, 6, 9, 12) if h != ct.table_hands]
        return [Length(f"{h}-hands", f"{h} hands", {"ct": {"table_hands": h}}) for h in hands]
    east_south = Length("hanchan", "hanchan (East and South rounds)", {"hanchan": True})
    east = Length("tonpuu", "tonpuu (East round only)", {"hanchan": False})
    return [east_south, east] if rs.options.hanchan else [east, east_south]


def length_of(name: str, length: str | None) -> Length:
    """The :class:`Length` ``length`` names (None: the ruleset's default). Accepts the listed
    values, ``N`` for rounds/hands, and ``tonpuu``/``hanchan`` for 1/2 taiwan16 rounds."""
    choices = lengths(name)
    if length is None or not length.strip():
        return choices[0]
    key = length.strip().lower().replace(" ", "-")
    if choices[0].value.endswith(("round", "rounds")):
        key = {"tonpuu": "1", "hanchan": "2"}.get(key, key)
    for c in choices:
        if key == c.value or key == c.value.split("-")[0]:
            return c
    m = re.fullmatch(r"(\d{1,2})(?:-(?:hands?|rounds?))?", key)
    if m and choices[0].value.endswith("hands") and 1 <= int(m[1]) <= 60:
        n = int(m[1])
        return Length(f"{n}-hands", f"{n} hands", {"ct": {"table_hands": n}})
    raise TableError(f"the length of a {name} table is one of {', '.join(c.value for c in choices)}, not '{length}'")


@dataclass(slots=True)
class Table:
    row: TableRow
    game: Game | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    prompt_at: float = 0.0

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def seats(self) -> list[SeatRow]:
        return self.row.seats

    def seat_of(self, user_id: int) -> int | None:
        for s in self.row.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    @property
    def serial(self) -> int:
        return len(self.game.actions) if self.game else 0

    def decision_serial(self) -> int:
        """The serial at which the pending decision was offered (a call window counts from its
        discard, so every seat asked about it shares one serial)."""
        g = self.game
        if g is None:
            return 0
        if g.phase in (Phase.CALL, Phase.CHANKAN):
            return len(g.actions) - len(g.responses)
        return len(g.actions)

    def humans_to_act(self) -> list[int]:
        if self.game is None:
            return []
        return [s for s in self.game.to_act() if self.row.seats[s].ai is None]


@dataclass(slots=True)
class Update:
    """What happened in one accepted request, for rendering."""

    table: Table
    actions: list[Action]
    hands_ended: int  # number of hand results added
    game_over: bool
    expired: bool = False  # the first action was made by the turn clock for a human who did not act


Listener = Callable[[Update], Awaitable[None]]


def ruleset_for_table(name: str, length: str | None = None) -> Ruleset:
    """The ruleset a table of ``name`` plays, with the length's options (TableError if it cannot)."""
    if name not in PLAYABLE:
        if name in ruleset_names():
            raise TableError(f"the ruleset '{name}' cannot be played at a table yet; playable: {', '.join(PLAYABLE)}")
        raise TableError(f"unknown ruleset '{name}': choose one of {', '.join(PLAYABLE)}")
    try:
        rs = find_ruleset(name)
    except UnknownRuleset as e:
        raise TableError(str(e)) from None
    opts = length_of(name, length).options
    return rs.with_options(**opts) if opts else rs


def table_ruleset(row: TableRow) -> Ruleset:
    """The ruleset of a stored table: its name and its saved options."""
    rs = find_ruleset(row.ruleset)
    return rs.with_options(**row.options) if row.options else rs


def length_text(row: TableRow) -> str:
    """How long the table's game lasts, in its ruleset's terms ("tonpuu", "1 round", "6 hands")."""
    rs = table_ruleset(row)
    tw = getattr(rs, "tw", None)
    if tw is not None:
        return f"{tw.rounds} round{'s' if tw.rounds > 1 else ''}"
    ct = getattr(rs, "ct", None)
    if ct is not None:
        return f"{ct.table_hands} hands"
    return "hanchan" if rs.options.hanchan else "tonpuu"


class TableService:
    def __init__(self, repo: Repository, *, ai_delay: float = 0.0) -> None:
        self.repo = repo
        self.tables: dict[int, Table] = {}
        self.listeners: list[Listener] = []
        self.ai_delay = ai_delay
        self._prepared: set[tuple[str, int, int]] = set()  # rulesets whose tables are loaded
        self._preparing: dict[tuple[str, int, int], asyncio.Future[list[str]]] = {}  # loads under way
        self.on_timer_change: Callable[[], None] | None = None
        #: the seed of a new table's game (tests replace it to play a known deal)
        self.new_seed: Callable[[], str] = lambda: secrets.token_hex(16)  # 128 bits: see bot.fairness

    # ---------------------------------------------------------------- lobby

    async def open_table(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        opener_id: int,
        opener_name: str,
        ruleset: str = "riichi",
        mode: str = "live",
        length: str | None = None,
        turn_seconds: int = 30,
        bank_seconds: int = 60,
        async_hours: int = 24,
        on_expiry: str = "auto",
        pings: bool | None = None,
        call_minutes: int = 60,
    ) -> Table:
        """``pings``: every decision reaches its player as a new message (None: on for async
        tables, where nobody watches the table, off for live ones); ``call_minutes``: how long a
        call offer waits in an async table before it passes (a call must not hold the table for a
        whole turn's deadline)."""
        rs = ruleset_for_table(ruleset, length)
        if mode not in ("live", "async"):
            raise TableError("mode must be live or async")
        options = rs.options_dict()  # only what differs from the ruleset's defaults
        tid = await self.repo.create_table(
            guild_id=guild_id,
            channel_id=channel_id,
            opener_id=opener_id,
            ruleset=rs.name,
            options=options,
            seed=self.new_seed(),
            mode=mode,
            turn_seconds=max(5, turn_seconds),
            bank_seconds=max(0, bank_seconds),
            async_hours=max(1, async_hours),
            on_expiry=on_expiry,
            pings=int(mode == "async" if pings is None else pings),
            call_seconds=max(60, min(call_minutes, 24 * 60) * 60),
        )
        seats = [SeatRow(0, opener_id, None, opener_name)]
        await self.repo.put_seats(tid, seats)
        row = await self.repo.get_table(tid)
        assert row is not None
        t = Table(row)
        self.tables[tid] = t
        return t

    def _players(self, t: Table) -> int:
        return table_ruleset(t.row).players

    async def get(self, table_id: int) -> Table:
        t = self.tables.get(table_id)
        if t is None:
            row = await self.repo.get_table(table_id)
            if row is None:
                raise TableError(f"there is no table #{table_id}")
            t = await self._rebuild(row)
        return t

    async def join(self, table_id: int, user_id: int, name: str) -> Table:
        t = await self.get(table_id)
        async with t.lock:
            if t.row.status != "open":
                raise TableError("that table has already started")
            if t.seat_of(user_id) is not None:
                raise TableError("you are already at that table")
            if len(t.seats) >= self._players(t):
                raise TableError("that table is full")
            t.row.seats.append(SeatRow(len(t.seats), user_id, None, name))
            await self.repo.put_seats(t.id, t.row.seats)
        return t

    async def leave(self, table_id: int, user_id: int) -> Table:
        t = await self.get(table_id)
        async with t.lock:
            if t.row.status != "open":
                raise TableError("the game has started: ask the opener or an organiser to abandon it")
            if t.seat_of(user_id) is None:
                raise TableError("you are not at that table")
            t.row.seats = [s for s in t.seats if s.user_id != user_id]
            for i, s in enumerate(t.row.seats):
                s.seat = i
            await self.repo.put_seats(t.id, t.row.seats)
        return t

    async def add_ai(self, table_id: int, count: int) -> Table:
        t = await self.get(table_id)
        async with t.lock:
            if t.row.status != "open":
                raise TableError("that table has already started")
            free = self._players(t) - len(t.seats)
            if free <= 0:
                raise TableError("that table is full")
            for _ in range(min(count, free)):
                n = sum(1 for s in t.seats if s.ai) + 1
                t.row.seats.append(SeatRow(len(t.seats), None, "smart", f"AI {n}"))
            await self.repo.put_seats(t.id, t.row.seats)
        return t

    def check_start(self, t: Table, user_id: int) -> None:
        """TableError if ``user_id`` cannot start the table now (asked before announcing it)."""
        if t.row.status != "open":
            raise TableError("that table has already started")
        if t.seat_of(user_id) is None and user_id != t.row.opener_id:
            raise TableError("only a player at the table can start it")
        need = self._players(t)
        if len(t.seats) < need:
            raise TableError(f"the table needs {need} players and has {len(t.seats)}: invite players or use /table add-ai")

    async def start(self, table_id: int, user_id: int) -> Update:
        t = await self.get(table_id)
        async with t.lock:
            self.check_start(t, user_id)
            # seats and the first dealer are drawn at random (from the table's seed)
            order = list(t.seats)
            random.Random(t.row.seed).shuffle(order)
            for i, s in enumerate(order):
                s.seat = i
                s.bank_left = float(t.row.bank_seconds)
            t.row.seats = order
            await self.repo.put_seats(t.id, order)
            await self.prepare(table_ruleset(t.row))
            t.game = self._new_game(t.row)
            t.row.status = "playing"
            await self.repo.set_table(t.id, status="playing")
            update = await self._advance(t, [], None)
        await self._emit(update)
        return update

    async def abandon(self, table_id: int, user_id: int, *, organiser: bool) -> Table:
        t = await self.get(table_id)
        async with t.lock:
            if user_id != t.row.opener_id and not organiser:
                raise TableError("only the player who opened the table or an organiser can abandon it")
            if t.row.status in ("finished", "abandoned"):
                raise TableError("that table is already closed")
            t.row.status = "abandoned"
            await self.repo.set_table(t.id, status="abandoned", finished_at=time.time())
            await self.repo.clear_timer(t.id)
        self._timers_changed()
        return t

    # ---------------------------------------------------------------- play

    @staticmethod
    def _new_game(row: TableRow) -> Game:
        return Game(table_ruleset(row), row.seed)

    async def act(self, table_id: int, user_id: int | None, action_text: str, serial: int, *, expired: bool = False) -> Update:
        """A human's (or the timer's, with ``user_id=None`` and ``expired``) action, validated by
        the engine. Returns once the actions are stored; the listeners are told after that."""
        t = await self.get(table_id)
        async with t.lock:
            g = t.game
            if t.row.status != "playing" or g is None or g.over:
                raise TableError("that game is over")
            if serial != t.decision_serial():
                raise TableError("that turn has passed")
            try:
                action = Action.parse(action_text)
            except ValueError:
                raise TableError("that button is not an action I know") from None
            if user_id is not None:
                seat = t.seat_of(user_id)
                if seat is None:
                    raise TableError("you are not seated at this table")
                if seat != action.seat:
                    raise TableError("that is another player's hand")
            hands_before = len(g.results)
            try:
                g.play(action)
            except IllegalActionError as e:
                raise TableError(str(e)) from None
            if user_id is not None:
                self._spend_bank(t, action.seat)
            update = await self._advance(t, [action], user_id, hands_before)
            update.expired = expired
        await self._emit(update)
        return update

    def _spend_bank(self, t: Table, seat: int) -> None:
        if t.row.mode != "live" or not t.prompt_at:
            return
        used = time.time() - t.prompt_at
        over = used - t.row.turn_seconds
        s = t.seats[seat]
        if over > 0 and s.bank_left is not None:
            s.bank_left = max(0.0, s.bank_left - over)

    async def timeout(self, table_id: int, serial: int) -> Update | None:
        """The turn clock ran out: draw-discard (tsumogiri) or pass for every waiting human."""
        t = await self.get(table_id)
        if t.game is None or t.row.status != "playing" or t.decision_serial() != serial:
            return None
        if t.row.mode == "async" and t.row.on_expiry == "wait":
            return None
        update: Update | None = None
        for seat in list(t.humans_to_act()):
            g = t.game
            if g is None or g.over or seat not in g.to_act():
                break
            a = self.auto_action(g, seat)
            t.seats[seat].bank_left = 0.0
            update = await self.act(table_id, None, a.text, t.decision_serial(), expired=True)
        return update

    @staticmethod
    def auto_action(g: Game, seat: int) -> Action:
        legal = list(g.legal_actions(seat))
        if g.phase is not Phase.TURN:  # a call window; in seigou's claim window, pass = draw
            return Action(A.PASS, seat) if Action(A.PASS, seat) in legal else legal[0]
        if g.drawn >= 0:
            tsumogiri = Action(A.DISCARD, seat, g.code(g.drawn))
            if tsumogiri in g.legal_actions(seat):
                return tsumogiri
        return next((a for a in legal if a.type is A.DISCARD), legal[0])

    async def set_auto(self, table_id: int, user_id: int, what: str, on: bool) -> Table:
        t = await self.get(table_id)
        seat = t.seat_of(user_id)
        if seat is None:
            raise TableError("you are not seated at this table")
        field_name = {"win": "auto_win", "pass": "auto_pass", "tsumogiri": "auto_tsumogiri", "confirm-discard": "confirm_discard"}[what]
        setattr(t.seats[seat], field_name, on)
        await self.repo.set_seat(t.id, seat, **{field_name: on})
        return t

    def _auto_for(self, t: Table, g: Game, seat: int) -> Action | None:
        """A human's standing orders: auto-win, auto-pass (no calls), auto-tsumogiri."""
        s = t.seats[seat]
        legal = list(g.legal_actions(seat))
        if len(legal) == 1 and legal[0].type in (A.TSUMO, A.RON):
            return legal[0]  # a win the rules make compulsory (chinitsu_toutenkou CT-F1, CT-C2)
        if s.auto_win:
            for a in legal:
                if a.type in (A.TSUMO, A.RON):
                    return a
        if g.phase is not Phase.TURN:
            # auto-pass declines calls and claims (seigou: pass = draw), never taiwan16's last tile
            if s.auto_pass and not any(a.type in (A.RON, A.DRAW) for a in legal):
                return Action(A.PASS, seat)
            return None
        if s.auto_tsumogiri and g.drawn >= 0 and not g.after_call:
            if not any(a.type in (A.TSUMO, A.RIICHI, A.ANKAN, A.KAKAN, A.KITA) for a in legal):
                return Action(A.DISCARD, seat, g.code(g.drawn))
        if g.seats[seat].riichi and g.drawn >= 0 and all(a.type is A.DISCARD for a in legal) and len(legal) == 1:
            return legal[0]  # riichi: the only move is the drawn tile
        return None

    async def _advance(self, t: Table, accepted: list[Action], user_id: int | None, hands_before: int | None = None) -> Update:
        """Play AI seats and standing orders up to the next human decision, then persist."""
        g = t.game
        assert g is not None
        first_serial = len(g.actions) - len(accepted)
        if hands_before is None:
            hands_before = len(g.results)
        rng = random.Random(f"{t.row.seed}:{len(g.actions)}")
        steps = 0
        while not g.over:
            acting = g.to_act()
            moved = False
            for seat in acting:
                s = t.seats[seat]
                if s.ai is not None:
                    a = POLICIES.get(s.ai, POLICIES["smart"])(g, seat, rng)
                else:
                    auto = self._auto_for(t, g, seat)
                    if auto is None:
                        continue
                    a = auto
                g.apply(a)
                accepted.append(a)
                moved = True
                break
            if not moved:
                break
            steps += 1
            if self.ai_delay and steps % 4 == 0:
                await asyncio.sleep(self.ai_delay)
        now = time.time()
        timer = None
        fields: dict[str, Any] = {}
        finished = None
        if g.over:
            t.row.status = "finished"
            fields = {"status": "finished", "finished_at": now}
            finished = self._finished_game(t)
        elif t.humans_to_act():
            t.prompt_at = now
            timer = (t.decision_serial(), now + self._clock(t), now)
        rows = [(a.text, user_id if i == 0 else None) for i, a in enumerate(accepted)]
        await self.repo.append_actions(
            t.id, first_serial, rows, timer=timer, clear_timer=timer is None, table_fields=fields, finished_game=finished
        )
        self._timers_changed()
        hands_ended = len(g.results) - hands_before
        return Update(t, list(accepted), max(0, hands_ended), g.over)

    def _clock(self, t: Table) -> float:
        if t.row.mode == "async":
            g = t.game
            if g is not None and g.phase in (Phase.CALL, Phase.CHANKAN):  # a call offer: its own window
                return float(min(t.row.call_seconds, t.row.async_hours * 3600))
            return t.row.async_hours * 3600.0
        g = t.game
        bank = 0.0
        if g is not None:
            humans = t.humans_to_act()
            if humans:
                bank = min((t.seats[s].bank_left or 0.0) for s in humans)
        return t.row.turn_seconds + bank

    def _finished_game(self, t: Table) -> dict[str, Any]:
        g = t.game
        assert g is not None
        order = g.ranking()
        players = []
        for place, seat in enumerate(order):
            s = t.seats[seat]
            players.append(
                {
                    "seat": seat,
                    "user_id": s.user_id,
                    "name": s.name,
                    "points": g.final_scores[seat],
                    "place": place + 1,
                    "result": g.final_results[seat],
                }
            )
        return {"guild_id": t.row.guild_id, "ruleset": t.row.ruleset, "players": players, "data": {"seed": t.row.seed}}

    def _timers_changed(self) -> None:
        if self.on_timer_change is not None:
            self.on_timer_change()

    async def _emit(self, update: Update) -> None:
        for fn in self.listeners:
            try:
                await fn(update)
            except Exception:  # a rendering failure must not lose the accepted action
                log.exception("listener failed for table %s", update.table.id)

    # ---------------------------------------------------------------- restart

    async def _rebuild(self, row: TableRow) -> Table:
        t = Table(row)
        if row.status in ("playing", "finished"):
            with suppress(Exception):  # a ruleset the row cannot name fails in _new_game, said there
                await self.prepare(table_ruleset(row))
            g = self._new_game(row)
            for serial, text in await self.repo.actions(row.id):
                try:
                    g.play(Action.parse(text))
                except (ValueError, IllegalActionError) as e:
                    log.error("table %s: action %s (%r) does not replay: %s; the table stops there", row.id, serial, text, e)
                    break
            t.game = g
        self.tables[row.id] = t
        return t

    async def prepare(self, rs: Ruleset) -> None:
        """Load the ruleset's shanten tables in a thread (built and cached the first time on a
        machine), so that dealing, replaying and the AI never load them on the event loop. Tables
        of one ruleset starting at once share one load."""
        key = (rs.name, rs.copies, rs.max_sets)
        if key in self._prepared:
            return
        task = self._preparing.get(key)
        if task is None:
            task = self._preparing[key] = asyncio.ensure_future(asyncio.to_thread(warm_up, [rs]))
        try:
            await asyncio.shield(task)
        finally:
            if task.done():
                self._preparing.pop(key, None)
        self._prepared.add(key)

    async def load(self) -> list[Table]:
        """Rebuild every open or playing table from the database (start-up)."""
        out = []
        for row in await self.repo.tables_with_status("open", "playing"):
            out.append(await self._rebuild(row))
        for row in await self.repo.tables_with_status("finished", unposted=True):  # results still owed
            out.append(await self._rebuild(row))
        return out

    async def resume(self, t: Table) -> Update | None:
        """After a restart: if AI seats or standing orders are due, let them move."""
        if t.game is None or t.row.status != "playing" or t.game.over:
            return None
        async with t.lock:
            update = await self._advance(t, [], None)
        if update.actions:
            await self._emit(update)
        return update

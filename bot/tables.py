"""TableService: the only thing that changes a table.

Every change goes through :meth:`TableService.act` under the table's lock: the engine validates
the action (``Game.play``), the accepted actions (the human's, then the AI seats' and automatic
ones up to the next human decision) are appended to the action log in one transaction together
with the re-armed timer, and only then are the listeners told so they can render messages. A table
is its ruleset, options, seed and action log, so :meth:`load` rebuilds any table after a restart.

Nothing is applied that is not stored: if the database refuses the write (read-only, disk full),
the game is replayed back to the stored log and :class:`StorageError` says so in one sentence; the
listeners hear nothing. A stored table that cannot be rebuilt (a damaged row, a move of its log
the engine refuses) is left out and recorded in :attr:`TableService.damaged` with a sentence that
names it; it is never played on, and the other tables load as usual.

A seat played by an mjai program is asked with the table unlocked (:meth:`TableService._programs_move`:
a program may think up to the turn time, and the other players' clicks are answered meanwhile);
its answer is played under the lock only if the table is still at that decision.

No Discord types here: the cog layer translates interactions into calls on this service and the
service's :class:`Update` events into messages.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import secrets
import sqlite3
import time
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from bot import i18n
from bot.ai.mjai_seat import MjaiSeats, is_mjai, program_of
from bot.ai.policy import POLICIES
from bot.errors import UserError
from bot.i18n import N_, Lang
from bot.storage.repository import CorruptRow, Repository, SeatRow, TableRow, record_bot_game
from engine.rules import warm_up
from engine.rules.base import Ruleset, UnknownRuleset, find_ruleset, ruleset_names, rulesets_in_menu_order
from engine.rules.facts import GameLength
from engine.table.actions import Action, ActionType
from engine.table.game import Game, IllegalActionError, Phase

log = logging.getLogger(__name__)
T = TypeVar("T")
A = ActionType


class TableError(UserError):
    """A request the table refuses; the message is a plain sentence for the user."""


def quoted(text: str, limit: int = 40) -> str:
    """What a user typed, quoted in a sentence: clipped, and without characters that cannot be
    shown (control characters, lone surrogates) or that Discord would format."""
    clean = "".join(ch if ch.isprintable() and not 0xD800 <= ord(ch) <= 0xDFFF else "�" for ch in text)
    clean = clean.replace("`", "'")
    return f"'{clean[:limit]}…'" if len(clean) > limit else f"'{clean}'"


class StorageError(TableError):
    """The database refused a write (read-only, disk full, locked): the request was not applied
    and the table is exactly what storage holds; the message says so in one sentence."""


def _elsewhere(table_id: int) -> TableError:
    return TableError("there is no table #{table} in this server", table=table_id)


class EngineFault(StorageError):
    """The rules engine failed on a move (a bug, or options it cannot play): handled as a refused
    write, so the table is put back to what storage holds and nothing is applied."""


#: moves the AI seats and standing orders may make without a human decision before the engine is
#: taken to be stuck (a whole taiwan16 game of four AI seats takes a few thousand)
MAX_AUTO_STEPS = 50_000
SAVE_FAILED = N_("I could not save that move, so nothing changed: please try again in a moment.")
ENGINE_FAILED = N_("Something went wrong playing that move, so nothing changed; the bot's host has the details in its log.")
SAVE_SETTING_FAILED = N_("I could not save that change, so nothing changed: please try again in a moment.")
OPEN_FAILED = N_("I could not save the new table, so none was opened: please try again in a moment.")
START_FAILED = N_("I could not save the start of the game, so it has not started: please try again in a moment.")
#: a seat taken from schema version 8 on shows its waits when tenpai (``/table auto what:waits``
#: turns it off): the line tells nothing the player could not count from the table, and a newcomer
#: would not find an option that starts off at every new table; seats stored before stay off
NEW_SEAT_SHOWS_WAITS = True


@dataclass(frozen=True, slots=True)
class Damage:
    """Why a stored table could not be rebuilt (or, ``paused=False``, a part of it that does not
    stop play: its turn clock)."""

    table_id: int
    channel_id: int | None
    detail: str  # what is wrong, from the row's check ("its mode is 'x', not one of live, async")
    paused: bool = True

    @property
    def sentence(self) -> str:
        """The sentence in English (the log's)."""
        return self.refusal().sentence()

    def refusal(self) -> TableError:
        """The sentence as a refusal, put in the reader's language where it is shown (``detail``
        is the row check's own English: it is for the bot's host)."""
        if self.paused:
            return TableError(
                "Table #{table} is paused because its stored data is damaged ({detail}); the other tables are not affected, "
                "an organiser can ask the bot's host to run `python -m bot db check`, which lists the damaged rows to repair, "
                "or close it with `/table abandon table:{table}`.",
                table=self.table_id, detail=self.detail,
            )
        return TableError(
            "Table #{table}'s turn clock is damaged in the database ({detail}), so it will not run out until the next move; "
            "an organiser can ask the bot's host to run `python -m bot db check`, which lists the damaged rows to repair.",
            table=self.table_id, detail=self.detail,
        )


class _Damaged(Exception):
    pass


def _detail(e: CorruptRow) -> str:
    """What is damaged, for a sentence about the table: its own row's column, or which row of it."""
    return e.why if e.table == "tables" else f"{e.table} row {e.row_id}: {e.why}"


def playable() -> list[str]:
    """The rulesets ``/table open`` offers, in menu order: every registered one whose table can
    play a whole game (``Ruleset.table_ready``; tests/cogs/test_variant_games.py plays each
    variant through Discord)."""
    return [rs.name for rs in rulesets_in_menu_order() if rs.table_ready]


def lengths(name: str) -> list[GameLength]:
    """The game lengths a ruleset offers, its own default first (``Ruleset.lengths()``: rounds for
    taiwan16, hands for chinitsu_toutenkou's one-hand settlements, hanchan/tonpuu for the riichi
    family)."""
    return list(find_ruleset(name).lengths())


def length_of(name: str, length: str | None) -> GameLength:
    """The :class:`~engine.rules.facts.GameLength` ``length`` names (None: the ruleset's default).
    Accepts the listed values and their first word (``4`` for ``4-rounds``), their aliases
    (taiwan16's ``tonpuu``/``hanchan`` for 1/2 rounds), and a number the ruleset counts
    (``Ruleset.counted_length``: chinitsu_toutenkou's ``N`` hands)."""
    choices = lengths(name)
    if length is None or not length.strip():
        return choices[0]
    key = length.strip().lower().replace(" ", "-")
    for c in choices:
        if key == c.value or key == c.value.split("-")[0] or key in c.aliases:
            return c
    m = re.fullmatch(r"(\d{1,2})(?:-(?:hands?|rounds?))?", key)
    counted = find_ruleset(name).counted_length(int(m[1])) if m else None
    if counted is not None:
        return counted
    raise TableError(
        "the length of a {ruleset} table is one of {choices}, not {given}",
        ruleset=name, choices=", ".join(c.value for c in choices), given=quoted(length),
    )


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
    notices: list[str] = field(default_factory=list)  # sentences for the table channel (an mjai seat fell back)


Listener = Callable[[Update], Awaitable[None]]


def ruleset_for_table(name: str, length: str | None = None) -> Ruleset:
    """The ruleset a table of ``name`` plays, with the length's options (TableError if it cannot)."""
    offered = playable()
    if name not in offered:
        if name in ruleset_names():
            raise TableError(
                "the ruleset '{ruleset}' cannot be played at a table yet; playable: {choices}", ruleset=name, choices=", ".join(offered)
            )
        raise TableError("unknown ruleset {given}: choose one of {choices}", given=quoted(name), choices=", ".join(offered))
    try:
        rs = find_ruleset(name)
    except UnknownRuleset as e:
        raise TableError(str(e)) from None  # not reached: a playable ruleset is a registered one
    opts = length_of(name, length).options
    return rs.with_options(**opts) if opts else rs


def table_ruleset(row: TableRow) -> Ruleset:
    """The ruleset of a stored table: its name and its saved options."""
    rs = find_ruleset(row.ruleset)
    return rs.with_options(**row.options) if row.options else rs


def length_text(row: TableRow, lang: Lang = "en") -> str:
    """How long the table's game lasts, in its ruleset's terms ("tonpuu", "1 round", "6 hands"),
    in ``lang`` (the engine's words are English: its hanchan/tonpuu, rounds and hands are read here)."""
    text = table_ruleset(row).length_text()
    if lang == "en":
        return text
    m = re.fullmatch(r"(\d+) (round|hand)s?", text)
    if m is None:
        return i18n.t(lang, _LENGTH_WORDS.get(text, text))
    if m[2] == "round":
        return i18n.tn(lang, "{n} round", "{n} rounds", int(m[1]))
    return i18n.tn(lang, "{n} hand", "{n} hands", int(m[1]))


_LENGTH_WORDS = {"hanchan": N_("hanchan"), "tonpuu": N_("tonpuu")}


class TableService:
    def __init__(
        self, repo: Repository, *, ai_delay: float = 0.0, mjai_bots: dict[str, tuple[str, ...]] | None = None
    ) -> None:
        self.repo = repo
        #: the seats played by outside mjai programs (bot.ai.mjai_seat), and the programs listed
        self.mjai = MjaiSeats(mjai_bots)
        self.tables: dict[int, Table] = {}
        self.listeners: list[Listener] = []
        self.ai_delay = ai_delay
        #: stored tables that could not be rebuilt (and damaged turn clocks), by table id: /table
        #: status names them, their timers are left alone, the other tables play on
        self.damaged: dict[int, Damage] = {}
        self._prepared: set[tuple[str, int, int]] = set()  # rulesets whose tables are loaded
        self._preparing: dict[tuple[str, int, int], asyncio.Future[list[str]]] = {}  # loads under way
        self.on_timer_change: Callable[[], None] | None = None
        self._asking: set[tuple[int, int]] = set()  # (table, seat) whose mjai program is being asked
        #: writes a finished game's record as the last step of the write of its last move,
        #: ``(conn, table_id, game) -> game id``: the game row alone here; the bot's is the standings'
        #: (StandingsService.record_finished, wired in client.py)
        self.record_game: Callable[[Any, int, dict[str, Any]], object] = record_bot_game
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
        rules: Ruleset | None = None,
        house: str | None = None,
    ) -> Table:
        """``pings``: every decision reaches its player as a new message (None: on for async
        tables, where nobody watches the table, off for live ones); ``call_minutes``: how long a
        call offer waits in an async table before it passes (a call must not hold the table for a
        whole turn's deadline). ``rules``: a house-rule profile's ruleset (``house`` its name, shown
        with the table) instead of ``ruleset``; the table stores its options now, so a later change
        to the profile never reaches this table; ``length``, when given, applies on top."""
        if rules is not None:
            ruleset_for_table(rules.name, length)  # refuses a base no table plays, or a bad length
            opts = length_of(rules.name, length).options if length is not None and length.strip() else {}
            rs = rules.with_options(**opts) if opts else rules
        else:
            rs = ruleset_for_table(ruleset, length)
        if mode not in ("live", "async"):
            raise TableError("mode must be live or async")
        options = rs.options_dict()  # only what differs from the ruleset's defaults
        tid = await self._store(
            self.repo.create_table(
                [SeatRow(0, opener_id, None, opener_name, show_waits=NEW_SEAT_SHOWS_WAITS)],
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
                **({"house": house} if house else {}),
            ),
            OPEN_FAILED,
        )
        row = await self.repo.get_table(tid)
        assert row is not None
        t = Table(row)
        self.tables[tid] = t
        return t

    def _players(self, t: Table) -> int:
        return table_ruleset(t.row).players

    async def get_in(self, table_id: int, guild_id: int | None) -> Table:
        """The table ``table_id`` if it belongs to server ``guild_id``: a table number is global,
        and a command names another server's table as no table of its own."""
        t = await self.get(table_id)
        if t.row.guild_id != guild_id:
            raise _elsewhere(table_id)
        return t

    async def get(self, table_id: int) -> Table:
        t = self.tables.get(table_id)
        if t is None:
            d = self.damaged.get(table_id)
            if d is not None and d.paused:
                raise d.refusal()
            try:
                row = await self.repo.get_table(table_id)
            except CorruptRow as e:
                raise self._record(table_id, _detail(e), await self._channel(table_id)).refusal() from None
            if row is None:
                raise TableError("there is no table #{table}", table=table_id)
            t = await self._rebuild(row)
            d = self.damaged.get(table_id)
            if d is not None and d.paused:
                raise d.refusal()
        return t

    def damaged_in(self, channel_id: int | None) -> list[Damage]:
        """The damaged tables known in a channel (or its thread), for /table status."""
        return [d for d in self.damaged.values() if d.channel_id == channel_id]

    def _record(self, table_id: int, detail: str, channel_id: int | None, *, paused: bool = True) -> Damage:
        d = Damage(table_id, channel_id, detail, paused)
        if d != self.damaged.get(table_id):
            log.error("table %s: %s", table_id, d.sentence)
        self.damaged[table_id] = d
        return d

    async def _channel(self, table_id: int) -> int | None:
        try:
            return await self.repo.channel_of(table_id)
        except sqlite3.Error:
            return None

    async def _store(self, write: Awaitable[T], sentence: str = SAVE_SETTING_FAILED) -> T:
        """Await a write; a database that refuses it becomes :class:`StorageError`."""
        try:
            return await write
        except (sqlite3.Error, OSError) as e:
            log.error("could not store a change: %s", e)
            raise StorageError(sentence) from None

    async def join(self, table_id: int, user_id: int, name: str) -> Table:
        t = await self.get(table_id)
        async with t.lock:
            if t.row.status != "open":
                raise TableError("that table has already started")
            if t.seat_of(user_id) is not None:
                raise TableError("you are already at that table")
            if len(t.seats) >= self._players(t):
                raise TableError("that table is full")
            seats = [*t.row.seats, SeatRow(len(t.seats), user_id, None, name, show_waits=NEW_SEAT_SHOWS_WAITS)]
            await self._store(self.repo.put_seats(t.id, seats))
            t.row.seats = seats
        return t

    async def leave(self, table_id: int, user_id: int) -> Table:
        t = await self.get(table_id)
        async with t.lock:
            if t.row.status != "open":
                raise TableError("the game has started: ask the opener or an organiser to abandon it")
            if t.seat_of(user_id) is None:
                raise TableError("you are not at that table")
            seats = [replace(s, seat=i) for i, s in enumerate(s for s in t.seats if s.user_id != user_id)]
            await self._store(self.repo.put_seats(t.id, seats))
            t.row.seats = seats
        return t

    def ai_kinds(self) -> list[str]:
        """The AI kinds ``/table add-ai kind:`` offers: the built-in ones, then the listed mjai programs."""
        return [*POLICIES, *self.mjai.kinds()]

    def ai_kind(self, kind: str | None) -> str:
        """The stored kind ``kind`` names (a listed program also by its bare name); TableError if none."""
        key = (kind or "smart").strip()
        if key in POLICIES or (is_mjai(key) and program_of(key) in self.mjai.programs):
            return key
        if key in self.mjai.programs:
            return "mjai:" + key
        raise TableError("there is no AI called {given}: choose one of {choices}", given=quoted(key), choices=", ".join(self.ai_kinds()))

    async def add_ai(self, table_id: int, count: int, kind: str | None = None) -> Table:
        ai = self.ai_kind(kind)
        t = await self.get(table_id)
        async with t.lock:
            if t.row.status != "open":
                raise TableError("that table has already started")
            free = self._players(t) - len(t.seats)
            if free <= 0:
                raise TableError("that table is full")
            seats = list(t.seats)
            for _ in range(min(count, free)):
                if is_mjai(ai):
                    n = sum(1 for s in seats if s.ai == ai) + 1
                    name = program_of(ai) + (f" {n}" if n > 1 else "")
                else:
                    name = f"AI {sum(1 for s in seats if s.ai and not is_mjai(s.ai)) + 1}"
                seats.append(SeatRow(len(seats), None, ai, name))
            await self._store(self.repo.put_seats(t.id, seats))
            t.row.seats = seats
        return t

    def check_start(self, t: Table, user_id: int) -> None:
        """TableError if ``user_id`` cannot start the table now (asked before announcing it)."""
        if t.row.status != "open":
            raise TableError("that table has already started")
        if t.seat_of(user_id) is None and user_id != t.row.opener_id:
            raise TableError("only a player at the table can start it")
        need = self._players(t)
        if len(t.seats) < need:
            raise TableError(
                "the table needs {need} players and has {seated}: invite players or use /table add-ai", need=need, seated=len(t.seats)
            )

    async def start(self, table_id: int, user_id: int) -> Update:
        t = await self.get(table_id)
        async with t.lock:
            self.check_start(t, user_id)
            # seats and the first dealer are drawn at random (from the table's seed)
            order = list(t.seats)
            random.Random(t.row.seed).shuffle(order)
            order = [replace(s, seat=i, bank_left=float(t.row.bank_seconds)) for i, s in enumerate(order)]
            await self._store(self.repo.put_seats(t.id, order), START_FAILED)
            t.row.seats = order
            await self.prepare(table_ruleset(t.row))
            t.game = self._new_game(t.row)
            t.row.status = "playing"
            try:  # the status is stored with the first actions, in one transaction
                update = await self._advance(t, [], None, fields={"status": "playing"})
            except StorageError:
                t.game = None
                t.row.status = "open"
                raise StorageError(START_FAILED) from None
        await self._emit(update)
        return await self._programs_move(t, update)

    async def set_thread(self, table_id: int, thread_id: int) -> Table:
        """The thread the table plays in from now on (``/table open thread:true``), stored first."""
        t = await self.get(table_id)
        async with t.lock:
            await self._store(self.repo.set_table(t.id, thread_id=thread_id))
            t.row.thread_id = thread_id
        return t

    async def commit_seed(self, table_id: int, user_id: int) -> Table:
        """Fairness: store the commitment to the table's seed (drawn at open) before anything is
        dealt, so that ``/table start`` can post it before the game starts. Refused as
        :meth:`start` would refuse (TableError), and nothing is stored then."""
        from bot.fairness import table_commitment  # bot.fairness builds on this module

        t = await self.get(table_id)
        async with t.lock:
            self.check_start(t, user_id)
            committed = table_commitment(t.row)
            await self._store(self.repo.set_table(t.id, commitment=committed))
            t.row.commitment = committed
        return t

    async def abandon(self, table_id: int, user_id: int, *, organiser: bool, guild_id: int | None = None) -> Table | None:
        """Close a table (its opener or an organiser of its own server). A damaged table, which
        cannot be rebuilt, can still be closed by an organiser: only its status is written (None is
        returned)."""
        try:
            t = await self.get_in(table_id, guild_id)
        except TableError:
            d = self.damaged.get(table_id)
            if d is None or not d.paused:
                raise
            if await self.repo.guild_of(table_id) != guild_id:
                raise _elsewhere(table_id) from None
            if not organiser:
                raise TableError("table #{table} is damaged: only an organiser can abandon it", table=table_id) from None
            await self._store(self.repo.set_table(table_id, status="abandoned", finished_at=time.time()))
            del self.damaged[table_id]
            with suppress(sqlite3.Error):
                await self.repo.clear_timer(table_id)
            self._timers_changed()
            return None
        async with t.lock:
            if user_id != t.row.opener_id and not organiser:
                raise TableError("only the player who opened the table or an organiser can abandon it")
            if t.row.status in ("finished", "abandoned"):
                raise TableError("that table is already closed")
            await self._store(self.repo.set_table(t.id, status="abandoned", finished_at=time.time()))
            t.row.status = "abandoned"
            with suppress(sqlite3.Error):  # a timer left behind finds the table closed and is cleared then
                await self.repo.clear_timer(t.id)
            await self.mjai.close_table(t.id)
        self._timers_changed()
        return t

    # ---------------------------------------------------------------- play

    @staticmethod
    def _new_game(row: TableRow) -> Game:
        return Game(table_ruleset(row), row.seed)

    @classmethod
    def _replayed(cls, row: TableRow, actions: list[Action]) -> Game:
        """A fresh game with ``actions`` (already validated once) applied."""
        g = cls._new_game(row)
        for a in actions:
            g.apply(a)
        return g

    async def act(
        self, table_id: int, user_id: int | None, action_text: str, serial: int, *, expired: bool = False
    ) -> Update:
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
            banks = [s.bank_left for s in t.seats]
            before = list(g.actions)
            try:
                g.play(action)
            except IllegalActionError as e:
                from bot.engine_refusals import refusal  # it builds on this module

                raise refusal(e, action) from None
            except Exception:
                log.exception("table %s: the engine failed on %s", t.id, action.text)
                t.game = self._replayed(t.row, before)
                raise EngineFault(ENGINE_FAILED) from None
            if user_id is not None:
                self._spend_bank(t, action.seat)
            try:
                update = await self._advance(t, [action], user_id, hands_before)
            except StorageError:
                for s, bank in zip(t.seats, banks, strict=True):
                    s.bank_left = bank
                raise
            update.expired = expired
        await self._emit(update)
        return await self._programs_move(t, update)

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
            bank = t.seats[seat].bank_left
            t.seats[seat].bank_left = 0.0
            try:
                update = await self.act(table_id, None, a.text, t.decision_serial(), expired=True)
            except StorageError:
                t.seats[seat].bank_left = bank  # not stored: the clock runs out again later
                raise
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
        field_name = {
            "win": "auto_win",
            "pass": "auto_pass",
            "tsumogiri": "auto_tsumogiri",
            "confirm-discard": "confirm_discard",
            "waits": "show_waits",
        }[what]
        await self._store(self.repo.set_seat(t.id, seat, **{field_name: on}))
        setattr(t.seats[seat], field_name, on)
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
        if (
            g.seats[seat].riichi
            and g.drawn >= 0
            and all(a.type is A.DISCARD for a in legal)
            and len(legal) == 1
        ):
            return legal[0]  # riichi: the only move is the drawn tile
        return None

    async def _advance(
        self,
        t: Table,
        accepted: list[Action],
        user_id: int | None,
        hands_before: int | None = None,
        *,
        fields: dict[str, Any] | None = None,
    ) -> Update:
        """Play AI seats and standing orders up to the next human decision, then persist.

        If storing fails, the game is put back to what storage holds (the actions before
        ``accepted``) and :class:`StorageError` is raised: nothing is applied that is not stored."""
        g = t.game
        assert g is not None
        first_serial = len(g.actions) - len(accepted)
        status, prompt_at = t.row.status, t.prompt_at
        if hands_before is None:
            hands_before = len(g.results)
        rng = random.Random(f"{t.row.seed}:{len(g.actions)}")
        steps = 0
        try:
            while not g.over:
                acting = g.to_act()
                moved = False
                for seat in acting:
                    s = t.seats[seat]
                    if s.ai is not None:
                        if is_mjai(s.ai) and self.mjai.plays(t.id, seat, s.ai, g):
                            continue  # its program is asked with the table unlocked (_programs_move)
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
                if steps > MAX_AUTO_STEPS:
                    raise RuntimeError(f"no human decision and no end of the game after {MAX_AUTO_STEPS} moves")
                if self.ai_delay and steps % 4 == 0:
                    await asyncio.sleep(self.ai_delay)
                elif steps % 64 == 0:  # a game played out by AI seats (a league deadline) lets others in
                    await asyncio.sleep(0)
        except Exception:
            # a bug, or options the engine cannot play: back to what storage holds, nothing applied
            log.exception("table %s: the engine failed while playing the AI seats and standing orders", t.id)
            t.game = self._replayed(t.row, list(g.actions[:first_serial]))
            t.row.status, t.prompt_at = status, prompt_at
            raise EngineFault(ENGINE_FAILED) from None
        now = time.time()
        timer = None
        fields = dict(fields or {})
        finished = None
        if g.over:
            t.row.status = "finished"
            fields.update(status="finished", finished_at=now)
            finished = self._finished_game(t)
        elif t.humans_to_act():
            t.prompt_at = now
            timer = (t.decision_serial(), now + self._clock(t), now)
        rows = [(a.text, user_id if i == 0 else None) for i, a in enumerate(accepted)]
        try:
            await self.repo.append_actions(
                t.id,
                first_serial,
                rows,
                timer=timer,
                clear_timer=timer is None,
                table_fields=fields,
                then=None if finished is None else (lambda conn: self.record_game(conn, t.id, finished)),
            )
        except Exception as e:
            # Replaying the stored prefix costs ~10 ms for a 400-action game, on this rare path;
            # a Game.copy() before every click would put ~25 us on every click instead.
            t.game = self._replayed(t.row, g.actions[:first_serial])
            t.row.status, t.prompt_at = status, prompt_at
            if isinstance(e, sqlite3.Error | OSError):
                log.error(
                    "table %s: could not store moves %s-%s, nothing applied: %s",
                    t.id,
                    first_serial,
                    len(g.actions) - 1,
                    e,
                )
            else:  # not the database itself (a standings hook): worth its traceback
                log.exception(
                    "table %s: could not store moves %s-%s, nothing applied",
                    t.id,
                    first_serial,
                    len(g.actions) - 1,
                )
            raise StorageError(SAVE_FAILED) from None
        d = self.damaged.get(t.id)
        if d is not None and not d.paused and timer is not None:
            del self.damaged[t.id]  # the damaged turn clock was just written anew
        self._timers_changed()
        if g.over:
            await self.mjai.close_table(t.id, g)
        hands_ended = len(g.results) - hands_before
        return Update(t, list(accepted), max(0, hands_ended), g.over)

    def _program_due(self, t: Table) -> tuple[Game, int, int] | None:
        """The game, seat and decision serial of a move an mjai program is to make now, if any."""
        g = t.game
        if g is None or g.over or t.row.status != "playing":
            return None
        for seat in g.to_act():
            kind = t.seats[seat].ai
            if kind is not None and is_mjai(kind) and self.mjai.plays(t.id, seat, kind, g):
                return g, seat, t.decision_serial()
        return None

    async def _programs_move(self, t: Table, update: Update) -> Update:
        """After a request's moves are stored and told: while an mjai program's move is due, ask it
        with the table unlocked, then, under the lock, play its answer and what follows (stored and
        told like a click) if the table is still at that decision; else the answer is dropped. One
        request asks a seat's program at a time (another finds it asked and returns). Returns
        ``update`` with the moves played here added."""
        while (due := self._program_due(t)) is not None:
            g, seat, serial = due
            if (t.id, seat) in self._asking:
                break
            self._asking.add((t.id, seat))
            notices: list[str] = []
            try:
                a = await self._mjai_move(t, g, seat, notices)
            except asyncio.CancelledError:  # its answer would land on the next question: stop it
                asked = self.mjai.seat(t.id, seat)
                if asked is not None:
                    await asyncio.shield(asked.close())
                raise
            finally:
                self._asking.discard((t.id, seat))
            async with t.lock:
                moved_on = t.game is not g or g.over or t.row.status != "playing" or t.decision_serial() != serial
                if moved_on or seat not in g.to_act():
                    log.info("table %s seat %s: the table moved on while its program thought; answer dropped", t.id, seat)
                    continue
                if a is None:  # the program fell back or is no longer listed
                    a = POLICIES["smart"](g, seat, random.Random(f"{t.row.seed}:{len(g.actions)}"))
                elif a not in g.legal_actions(seat):  # asked of this same decision, but never trusted
                    a = self.auto_action(g, seat)
                hands_before = len(g.results)
                g.apply(a)
                try:
                    part = await self._advance(t, [a], None, hands_before)
                except (StorageError, EngineFault):
                    return update  # logged; the seat is asked again at the table's next request
            part.notices[:0] = notices
            await self._emit(part)
            update = Update(
                t,
                update.actions + part.actions,
                update.hands_ended + part.hands_ended,
                part.game_over,
                update.expired,
                update.notices + part.notices,
            )
        return update

    async def _mjai_move(self, t: Table, g: Game, seat: int, notices: list[str]) -> Action | None:
        """The move of a seat played by an mjai program (its auto action on a fault), or None when
        the built-in AI plays it (the program fell back or is no longer listed)."""
        kind = t.seats[seat].ai
        assert kind is not None
        d = await self.mjai.decide(
            t.id,
            seat,
            kind,
            g,
            ruleset=g.ruleset,
            seed=t.row.seed,
            names=[s.name for s in t.seats],
            turn_seconds=float(t.row.turn_seconds),
            auto=lambda: self.auto_action(g, seat),
        )
        if d is None:
            return None
        if d.notice:
            notices.append(d.notice)
        return d.action

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
        return {
            "guild_id": t.row.guild_id,
            "ruleset": t.row.ruleset,
            "options": dict(t.row.options),
            "players": players,
            "data": {"seed": t.row.seed},
        }

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
        """The table from its stored row and log. A table that cannot be rebuilt is recorded in
        :attr:`damaged` (and left out of :attr:`tables`): it is named, never played on."""
        t = Table(row)
        channel = row.thread_id or row.channel_id
        try:
            t.game = await self._stored_game(row)
        except _Damaged as e:
            self._record(row.id, str(e), channel)
            return t
        try:
            await self.repo.timer(row.id)
        except CorruptRow as e:
            self._record(row.id, e.why, channel, paused=False)  # names the clock itself
        else:
            self.damaged.pop(row.id, None)
        self.tables[row.id] = t
        return t

    async def _stored_game(self, row: TableRow, *, replay_abandoned: bool = False) -> Game | None:
        """Replay a stored table's log through the engine; :class:`_Damaged` says what stops it."""
        if row.ruleset not in ruleset_names():
            raise _Damaged(f"its ruleset {row.ruleset!r} is not one this bot knows")
        try:
            rs = table_ruleset(row)
        except Exception as e:  # options the ruleset does not have
            raise _Damaged(
                f"its options {json.dumps(row.options)} do not fit the {row.ruleset} ruleset ({e})"
            ) from None
        for s in row.seats:
            if s.ai is not None and s.ai not in POLICIES and not is_mjai(s.ai):
                raise _Damaged(f"seat {s.seat} is an AI of unknown kind {s.ai!r}")
        if row.status == "open" or (
            row.status == "abandoned" and not (replay_abandoned and await self.repo.actions(row.id))
        ):
            return None
        if len(row.seats) != rs.players:
            raise _Damaged(f"it has {len(row.seats)} seats for a {rs.players}-player game")
        try:
            log_rows = await self.repo.actions(row.id)
        except CorruptRow as e:
            raise _Damaged(_detail(e)) from None
        with suppress(Exception):  # loading the shanten tables; a failure shows in the replay below
            await self.prepare(rs)
        try:
            g = Game(rs, row.seed)
        except Exception as e:
            raise _Damaged(f"its game cannot be dealt from its seed ({type(e).__name__}: {e})") from None
        for serial, text in log_rows:
            try:
                g.play(Action.parse(text))
            except (ValueError, IllegalActionError) as e:
                raise _Damaged(f"move {serial} of its log ({text!r}) is not a legal move: {e}") from None
        if row.status == "playing" and g.over:
            raise _Damaged("it is marked as playing but its log ends the game")
        if row.status == "finished" and not g.over:
            raise _Damaged("it is marked as finished but its log stops before the end of the game")
        return g

    async def check_logs(self) -> list[str]:
        """Replay every stored table's log through the engine (``python -m bot db check``): one
        line per table whose log does not replay, whose seats or options cannot play, or whose
        status contradicts its log. Tables whose row cannot be read are left to
        :meth:`Repository.check`, which lists them."""
        problems = []
        for row in await self.repo.tables_with_status("open", "playing", "finished", "abandoned"):
            try:
                await self._stored_game(row, replay_abandoned=True)
            except _Damaged as e:
                problems.append(f"table #{row.id}: {e}")
            except Exception as e:  # never stop at one table
                problems.append(f"table #{row.id}: could not be replayed ({type(e).__name__}: {e})")
        return problems

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
        """Rebuild every open or playing table from the database (start-up). A damaged table is
        left out and recorded in :attr:`damaged`; the others load."""
        skipped: list[CorruptRow] = []
        rows = await self.repo.tables_to_restore(skipped)
        for e in skipped:
            if e.table_id is not None:
                self._record(e.table_id, _detail(e), await self._channel(e.table_id))
        out = []
        for row in rows:  # open and playing tables, and finished ones still owed their results
            t = await self._rebuild(row)
            if self.tables.get(row.id) is t:
                out.append(t)
        return out

    async def resume(self, t: Table) -> Update | None:
        """After a restart: if AI seats or standing orders are due, let them move."""
        if t.game is None or t.row.status != "playing" or t.game.over:
            return None
        async with t.lock:
            try:
                update = await self._advance(t, [], None)
            except StorageError:
                return None  # logged; the table moves on at its next click or clock
        if update.actions:
            await self._emit(update)
        return await self._programs_move(t, update)

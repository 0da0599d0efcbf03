"""What a table is in memory, the refusals its service raises, and the events it tells.

A :class:`Table` is its stored row (:class:`~bot.storage.repository.TableRow`: ruleset, options,
seed, seats, status) and, once started, the :class:`~engine.table.game.Game` its action log
replays to, with the lock every change to it is made under. An :class:`Update` is what one
accepted request did; :class:`Events` tells the listeners (the presenter, the league, the
standings) of each one and pokes the timer dispatcher when a turn clock changes.

Limits: data and small helpers only; no storage calls except :func:`stored`, which turns a write
the database refuses into :class:`StorageError`; no Discord types.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

from bot.errors import UserError
from bot.i18n import N_
from bot.storage.repository import CorruptRow, SeatRow, TableRow
from engine.table.actions import Action
from engine.table.game import Game, Phase

log = logging.getLogger(__name__)
T = TypeVar("T")


class TableError(UserError):
    """A request the table refuses; the message is a plain sentence for the user."""


class StorageError(TableError):
    """The database refused a write (read-only, disk full, locked): the request was not applied
    and the table is exactly what storage holds; the message says so in one sentence."""


class EngineFault(StorageError):
    """The rules engine failed on a move (a bug, or options it cannot play): handled as a refused
    write, so the table is put back to what storage holds and nothing is applied."""


def quoted(text: str, limit: int = 40) -> str:
    """What a user typed, quoted in a sentence: clipped, and without characters that cannot be
    shown (control characters, lone surrogates) or that Discord would format."""
    clean = "".join(ch if ch.isprintable() and not 0xD800 <= ord(ch) <= 0xDFFF else "�" for ch in text)
    clean = clean.replace("`", "'")
    return f"'{clean[:limit]}…'" if len(clean) > limit else f"'{clean}'"


def elsewhere(table_id: int) -> TableError:
    """A table number of another server, refused as no table of this one."""
    return TableError("there is no table #{table} in this server", table=table_id)


SAVE_FAILED = N_("I could not save that move, so nothing changed: please try again in a moment.")
ENGINE_FAILED = N_("Something went wrong playing that move, so nothing changed; the bot's host has the details in its log.")
SAVE_SETTING_FAILED = N_("I could not save that change, so nothing changed: please try again in a moment.")
OPEN_FAILED = N_("I could not save the new table, so none was opened: please try again in a moment.")
START_FAILED = N_("I could not save the start of the game, so it has not started: please try again in a moment.")


async def stored(write: Awaitable[T], sentence: str = SAVE_SETTING_FAILED) -> T:
    """Await a write; a database that refuses it becomes :class:`StorageError`."""
    try:
        return await write
    except (sqlite3.Error, OSError) as e:
        log.error("could not store a change: %s", e)
        raise StorageError(sentence) from None


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


def detail(e: CorruptRow) -> str:
    """What is damaged, for a sentence about the table: its own row's column, or which row of it."""
    return e.why if e.table == "tables" else f"{e.table} row {e.row_id}: {e.why}"


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


@dataclass(slots=True)
class Events:
    """Who hears of the service's changes: the listeners, told of every stored :class:`Update`
    in order, and the timer dispatcher's poke when a turn clock was written or cleared."""

    listeners: list[Listener] = field(default_factory=list)
    on_timer_change: Callable[[], None] | None = None

    async def emit(self, update: Update) -> None:
        for fn in self.listeners:
            try:
                await fn(update)
            except Exception:  # a rendering failure must not lose the accepted action
                log.exception("listener failed for table %s", update.table.id)

    def timers_changed(self) -> None:
        if self.on_timer_change is not None:
            self.on_timer_change()

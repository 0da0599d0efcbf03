"""The tables in memory, rebuilt from storage: at start-up, and whenever a table not in memory is
asked for. A table is its ruleset, options, seed and action log, so replaying its log through the
engine gives back its game exactly.

A stored table that cannot be rebuilt (a damaged row, a move of its log the engine refuses) is left
out and recorded in :attr:`Restore.damaged` with a sentence that names it; it is never played on,
and the other tables load as usual. The shanten tables a ruleset needs are loaded in a thread
(:meth:`Restore.prepare`), so dealing, replaying and the AI never load them on the event loop.

With several bot processes (README, "Running at scale"), :attr:`Restore.shards` names this
process's shards: only the tables of their guilds are restored or rebuilt here, and a table of
another process's guild is refused in one sentence, so a process never acts for a table another
one holds in memory.

Limits: reads storage (tables, their logs, their timers) and never writes it; letting AI seats move
after a restart is :meth:`bot.tables.acting.Acting.resume`'s job.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from contextlib import suppress

from bot.ai.mjai_seat import is_mjai
from bot.ai.policy import POLICIES
from bot.storage.repository import CorruptRow, Repository, TableRow
from bot.storage.tables import Shards
from bot.tables.model import Damage, Table, TableError, detail, elsewhere
from bot.tables.rules import table_ruleset
from engine.rules import warm_up
from engine.rules.base import Ruleset, ruleset_names
from engine.table.actions import Action
from engine.table.game import Game, IllegalActionError

log = logging.getLogger(__name__)


class Damaged(Exception):
    """Why a stored table's game cannot be rebuilt (one sentence, English: for the host)."""


class Restore:
    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self.tables: dict[int, Table] = {}
        #: stored tables that could not be rebuilt (and damaged turn clocks), by table id: /table
        #: status names them, their timers are left alone, the other tables play on
        self.damaged: dict[int, Damage] = {}
        self._prepared: set[tuple[str, int, int]] = set()  # rulesets whose tables are loaded
        self._preparing: dict[tuple[str, int, int], asyncio.Future[list[str]]] = {}  # loads under way
        #: the shards of this process when others hold the rest (client.py sets it): only the tables
        #: of their guilds are restored, timed or acted for here; None is every table (one process)
        self.shards: Shards | None = None

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process acts for a table of ``guild_id`` (a table without one: the process
        holding shard 0, where DMs arrive)."""
        if self.shards is None:
            return True
        count, ids = self.shards
        return (0 if guild_id is None else (guild_id >> 22) % count) in ids

    async def get(self, table_id: int) -> Table:
        t = self.tables.get(table_id)
        if t is None:
            d = self.damaged.get(table_id)
            if d is not None and d.paused:
                raise d.refusal()
            try:
                row = await self.repo.get_table(table_id)
            except CorruptRow as e:
                raise self.record(table_id, detail(e), await self.channel_of(table_id)).refusal() from None
            if row is None:
                raise TableError("there is no table #{table}", table=table_id)
            if not self.owns(row.guild_id):  # another process acts for it: never a second game in memory
                raise TableError("table #{table} is played by another process of the bot; try again in a moment", table=table_id)
            t = await self._rebuild(row)
            d = self.damaged.get(table_id)
            if d is not None and d.paused:
                raise d.refusal()
        return t

    async def get_in(self, table_id: int, guild_id: int | None) -> Table:
        """The table ``table_id`` if it belongs to server ``guild_id``: a table number is global,
        and a command names another server's table as no table of its own."""
        t = await self.get(table_id)
        if t.row.guild_id != guild_id:
            raise elsewhere(table_id)
        return t

    async def in_channel(self, channel_id: int, *statuses: str) -> list[TableRow]:
        """The stored tables of a channel with one of ``statuses``, oldest first."""
        return await self.repo.tables_with_status(*statuses, channel_id=channel_id)

    async def in_server(self, guild_id: int | None) -> list[TableRow]:
        """The open and playing tables of a server, oldest first (``/table list``)."""
        return [r for r in await self.repo.tables_with_status("open", "playing") if r.guild_id == guild_id]

    def damaged_in(self, channel_id: int | None) -> list[Damage]:
        """The damaged tables known in a channel (or its thread), for /table status."""
        return [d for d in self.damaged.values() if d.channel_id == channel_id]

    def record(self, table_id: int, what: str, channel_id: int | None, *, paused: bool = True) -> Damage:
        d = Damage(table_id, channel_id, what, paused)
        if d != self.damaged.get(table_id):
            log.error("table %s: %s", table_id, d.sentence)
        self.damaged[table_id] = d
        return d

    async def channel_of(self, table_id: int) -> int | None:
        try:
            return await self.repo.channel_of(table_id)
        except sqlite3.Error:
            return None

    async def _rebuild(self, row: TableRow) -> Table:
        """The table from its stored row and log. A table that cannot be rebuilt is recorded in
        :attr:`damaged` (and left out of :attr:`tables`): it is named, never played on."""
        t = Table(row)
        channel = row.thread_id or row.channel_id
        try:
            t.game = await self._stored_game(row)
        except Damaged as e:
            self.record(row.id, str(e), channel)
            return t
        try:
            await self.repo.timer(row.id)
        except CorruptRow as e:
            self.record(row.id, e.why, channel, paused=False)  # names the clock itself
        else:
            self.damaged.pop(row.id, None)
        self.tables[row.id] = t
        return t

    async def _stored_game(self, row: TableRow, *, replay_abandoned: bool = False) -> Game | None:
        """Replay a stored table's log through the engine; :class:`Damaged` says what stops it."""
        if row.ruleset not in ruleset_names():
            raise Damaged(f"its ruleset {row.ruleset!r} is not one this bot knows")
        try:
            rs = table_ruleset(row)
        except Exception as e:  # options the ruleset does not have
            raise Damaged(
                f"its options {json.dumps(row.options)} do not fit the {row.ruleset} ruleset ({e})"
            ) from None
        for s in row.seats:
            if s.ai is not None and s.ai not in POLICIES and not is_mjai(s.ai):
                raise Damaged(f"seat {s.seat} is an AI of unknown kind {s.ai!r}")
        if row.status == "open" or (
            row.status == "abandoned" and not (replay_abandoned and await self.repo.actions(row.id))
        ):
            return None
        if len(row.seats) != rs.players:
            raise Damaged(f"it has {len(row.seats)} seats for a {rs.players}-player game")
        try:
            log_rows = await self.repo.actions(row.id)
        except CorruptRow as e:
            raise Damaged(detail(e)) from None
        with suppress(Exception):  # loading the shanten tables; a failure shows in the replay below
            await self.prepare(rs)
        try:
            g = Game(rs, row.seed)
        except Exception as e:
            raise Damaged(f"its game cannot be dealt from its seed ({type(e).__name__}: {e})") from None
        for serial, text in log_rows:
            try:
                g.play(Action.parse(text))
            except (ValueError, IllegalActionError) as e:
                raise Damaged(f"move {serial} of its log ({text!r}) is not a legal move: {e}") from None
        if row.status == "playing" and g.over:
            raise Damaged("it is marked as playing but its log ends the game")
        if row.status == "finished" and not g.over:
            raise Damaged("it is marked as finished but its log stops before the end of the game")
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
            except Damaged as e:
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
        """Rebuild every open or playing table from the database (start-up), of this process's
        shards only (:attr:`shards`). A damaged table is left out and recorded in :attr:`damaged`;
        the others load."""
        skipped: list[CorruptRow] = []
        rows = await self.repo.tables_to_restore(skipped, self.shards)
        for e in skipped:
            if e.table_id is not None:
                self.record(e.table_id, detail(e), await self.channel_of(e.table_id))
        out = []
        for row in rows:  # open and playing tables, and finished ones still owed their results
            t = await self._rebuild(row)
            if self.tables.get(row.id) is t:
                out.append(t)
        return out

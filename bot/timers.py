"""Turn clocks that survive restarts: timers are rows; one task sleeps until the earliest.

As in RoboDanny's reminders: the dispatcher reads the earliest timer, sleeps until it is due (or
until a table re-arms its timer, which wakes it), then asks TableService to time the turn out; the timer rows are read and written through its
clocks (:class:`bot.tables.clocks.Clocks`).
Async tables get one DM reminder halfway through the deadline.

A failed database call never ends the dispatcher, nor holds up another table's clock: a database
call that fails while one table's clock acts (its turn not stored, its reminder not marked, its
finished timer not cleared: the database read-only, full, or failing) is logged and retried for
that table alone after a back-off (1 s, doubling to a minute), its timer kept, while the other
tables' clocks run on; an error reading the timers waits the same way. Timers of tables the service
reports damaged are left alone.

With several bot processes, each reads only the timers of its own shards' tables
(:meth:`bot.tables.clocks.Clocks.next_timer`), and claims each clock's move across processes
(:attr:`TimerDispatcher.claims`, :func:`bot.cluster.once.clock_key`) before playing it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable

from bot.cluster.once import Claims, ClaimsAway, clock_key
from bot.storage.repository import TimerRow
from bot.tables import StorageError, TableError, TableService

log = logging.getLogger(__name__)

FIRST_RETRY = 1.0
LAST_RETRY = 60.0


class TimerDispatcher:
    def __init__(
        self,
        service: TableService,
        remind: Callable[[int], Awaitable[None]] | None = None,
        settled: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.service = service
        self.remind = remind
        # awaited before a turn clock acts: a click answered before the clock ran out queues ahead
        # of it (bot.responses), so it is not overtaken by the auto-discard
        self.settled = settled
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        #: tables whose last turn could not be stored: table id -> when to try again, and the
        #: back-off used last (doubled at each failure, dropped when a turn goes through)
        self._retry: dict[int, float] = {}
        self._backoffs: dict[int, float] = {}
        self._backoff = 0.0  # after a failure outside one table's turn (reading the timers)
        #: with several bot processes (client.py sets it): a clock's move is claimed across them
        #: first, so it is played once even by two processes started with overlapping shards
        self.claims: Claims | None = None
        service.on_timer_change = self.poke

    def poke(self) -> None:
        self._wake.set()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="jantaku-timers")

    async def stop(self) -> None:
        if self._task is not None:
            self._stopping = True
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
            self._stopping = False

    async def _run(self) -> None:
        while not self._stopping:
            try:
                await self._step()
                self._backoff = 0.0
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the database failed us: wait, then carry on
                self._backoff = min(LAST_RETRY, self._backoff * 2 or FIRST_RETRY)
                log.error("turn clocks: %s; trying again in %.3g s", e, self._backoff)
                await asyncio.sleep(self._backoff)

    async def _step(self) -> None:
        self._wake.clear()
        now = time.time()
        for table_id, at in list(self._retry.items()):
            if at <= now:
                del self._retry[table_id]  # its timer is eligible again (its back-off is kept)
        paused = {i for i, d in self.service.damaged.items() if d.paused}
        timer = await self.service.clocks.next_timer(paused | set(self._retry))
        now = time.time()
        waits = [at - now for at in self._retry.values()]
        if timer is not None:
            due_in = self._next_event(timer, now)
            if due_in <= 0:
                await self._fire(timer, now)
                return
            waits.append(due_in)
        if not waits:
            await self._wake.wait()
            return
        # asyncio.timeout, not wait_for: on 3.11 wait_for can swallow the cancel of stop() when
        # the wake-up and the cancel arrive together, and the dispatcher would never end
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(min(max(min(waits), 0.0), 3600)):
                await self._wake.wait()

    def _next_event(self, timer: TimerRow, now: float) -> float:
        t = self.service.tables.get(timer.table_id)
        if t is not None and t.row.mode == "async" and not timer.reminded and self.remind is not None:
            half = timer.prompt_at + (timer.due - timer.prompt_at) / 2
            if half > now:
                return min(half, timer.due) - now
            return 0.0
        return timer.due - now

    async def _fire(self, timer: TimerRow, now: float) -> None:
        key = clock_key(timer.table_id, timer.serial) + (":remind" if self._reminding(timer, now) else "")
        if self.claims is not None:
            try:
                mine = await self.claims.claim(key, lease=LAST_RETRY)
            except ClaimsAway as e:
                log.warning("timer for table %s: %s; trying again later", timer.table_id, e)
                mine = False
            if not mine:  # another process holds it (or Redis is away): look again after a back-off
                backoff = min(LAST_RETRY, self._backoffs.get(timer.table_id, 0.0) * 2 or FIRST_RETRY)
                self._backoffs[timer.table_id] = backoff
                self._retry[timer.table_id] = time.time() + backoff
                return
        try:
            await self._act(timer, now)
        except (StorageError, sqlite3.Error, OSError) as e:
            # not stored, so not applied: this table's clock acts again after a back-off
            backoff = min(LAST_RETRY, self._backoffs.get(timer.table_id, 0.0) * 2 or FIRST_RETRY)
            self._backoffs[timer.table_id] = backoff
            self._retry[timer.table_id] = time.time() + backoff
            why = "the turn could not be stored" if isinstance(e, StorageError) else f"a database call failed ({e})"
            log.warning("timer for table %s: %s; trying again in %.3g s", timer.table_id, why, backoff)
            if self.claims is not None:
                with contextlib.suppress(ClaimsAway):
                    await self.claims.release(key)
            return
        self._backoffs.pop(timer.table_id, None)
        if self.claims is not None:
            with contextlib.suppress(ClaimsAway):
                await self.claims.done(key, keep=3600.0)

    def _reminding(self, timer: TimerRow, now: float) -> bool:
        """Whether the clock's event now is an async table's halfway reminder (not its run-out)."""
        t = self.service.tables.get(timer.table_id)
        return t is not None and t.row.mode == "async" and not timer.reminded and self.remind is not None and now < timer.due

    async def _act(self, timer: TimerRow, now: float) -> None:
        """What the table's clock does now: remind (async tables, halfway), or run the turn out.
        A failed database call is raised (:meth:`_fire` retries the table later)."""
        if self._reminding(timer, now):
            await self.service.clocks.reminded(timer.table_id)
            try:
                await self.remind(timer.table_id)
            except Exception:
                log.exception("reminder for table %s failed", timer.table_id)
            return
        if self.settled is not None:
            await self.settled()
        try:
            update = await self.service.timeout(timer.table_id, timer.serial)
        except (StorageError, sqlite3.Error, OSError):
            raise  # the database failed: retried, the timer kept
        except TableError as e:
            log.info("timer for table %s: %s", timer.table_id, e)
            update = None
        except Exception:
            log.exception("timer for table %s failed", timer.table_id)
            update = None
        if update is None:
            if timer.table_id in self.service.damaged:
                return  # a damaged table's timer is kept for when it is repaired
            t = self.service.tables.get(timer.table_id)
            if t is None or t.decision_serial() == timer.serial:
                # nothing moved (an async table set to wait, or a closed table): stop this timer
                await self.service.clocks.stop(timer.table_id)

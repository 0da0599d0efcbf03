"""Turn clocks that survive restarts: timers are rows; one task sleeps until the earliest.

As in RoboDanny's reminders: the dispatcher reads the earliest timer, sleeps until it is due (or
until a table re-arms its timer, which wakes it), then asks TableService to time the turn out.
Async tables get one DM reminder halfway through the deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from bot.storage.repository import TimerRow
from bot.tables import TableError, TableService

log = logging.getLogger(__name__)


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
        service.on_timer_change = self.poke

    def poke(self) -> None:
        self._wake.set()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="jantaku-timers")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            timer = await self.service.repo.next_timer()
            now = time.time()
            if timer is None:
                await self._wake.wait()
                continue
            wait = self._next_event(timer, now)
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), timeout=min(wait, 3600))
                continue
            await self._fire(timer, now)

    def _next_event(self, timer: TimerRow, now: float) -> float:
        t = self.service.tables.get(timer.table_id)
        if t is not None and t.row.mode == "async" and not timer.reminded and self.remind is not None:
            half = timer.prompt_at + (timer.due - timer.prompt_at) / 2
            if half > now:
                return min(half, timer.due) - now
            return 0.0
        return timer.due - now

    async def _fire(self, timer: TimerRow, now: float) -> None:
        t = self.service.tables.get(timer.table_id)
        if t is not None and t.row.mode == "async" and not timer.reminded and self.remind is not None and now < timer.due:
            await self.service.repo.mark_reminded(timer.table_id)
            try:
                await self.remind(timer.table_id)
            except Exception:
                log.exception("reminder for table %s failed", timer.table_id)
            return
        if self.settled is not None:
            await self.settled()
        try:
            update = await self.service.timeout(timer.table_id, timer.serial)
        except TableError as e:
            log.info("timer for table %s: %s", timer.table_id, e)
            update = None
        except Exception:
            log.exception("timer for table %s failed", timer.table_id)
            update = None
        if update is None:
            t = self.service.tables.get(timer.table_id)
            if t is None or t.decision_serial() == timer.serial:
                # nothing moved (an async table set to wait, or a closed table): stop this timer
                await self.service.repo.clear_timer(timer.table_id)

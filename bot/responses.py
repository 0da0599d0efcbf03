"""First responses first: interactions waiting for their first answer go before everything else.

Discord gives an interaction 3 s for its first response (a reply or a ``defer()``), and the user
sees nothing happen until it is out. The bot does everything on one event loop: reading the
gateway, answering clicks, and the work a click causes (engine actions, AI seats, storage, pictures,
message edits). When many clicks arrive at once, the work caused by the first ones would run
between reading and answering the later ones, and each later user waits for all of it.

:class:`FirstResponses` notes every interaction the moment discord.py parses it off the gateway
(:meth:`arrived`, from ``JantakuBot.dispatch``) and forgets it once its first response is out
(:meth:`answered`, or found done by :meth:`settled`'s own check). Work that no user is waiting on
to see a first response awaits :meth:`settled` before it starts, so it runs once no interaction is
waiting, or after ``limit`` seconds at most (so a steady stream of clicks never starves it).
:func:`in_time` keeps an interaction that waits for slower work (a picture) by deferring it.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable
from typing import Any, TypeVar

T = TypeVar("T")

#: seconds some work may take before the interaction waiting for it is deferred (Discord: 3 s)
DEFER_AFTER = 1.5

#: seconds after which an interaction is no longer waited for (Discord's window: its first
#: response can no longer be sent, or the callback that would send it failed)
EXPIRY = 3.0


class _Waiter:
    __slots__ = ("deadline", "wake")

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.wake: asyncio.Future[None] | None = None


class FirstResponses:
    def __init__(self, *, limit: float = 0.1, recheck: float = 0.02) -> None:
        self.limit = limit  # at most this long in settled()
        self.recheck = recheck  # how often settled() looks for answers it was not told about
        self._pending: dict[int, tuple[Any, float]] = {}  # interaction id -> (interaction, arrival)
        self._queue: deque[_Waiter] = deque()  # settled() callers, in the order they came
        self.waits = 0  # settled() calls that had to wait (for benchmarks and tests)

    def __len__(self) -> int:
        return len(self._pending)

    def arrived(self, interaction: Any) -> None:
        self._pending[interaction.id] = (interaction, asyncio.get_running_loop().time())

    def answered(self, interaction: Any) -> None:
        if self._pending.pop(interaction.id, None) is not None and not self._pending:
            self._wake_head()

    def _wake_head(self) -> None:
        if self._queue:
            _resolve(self._queue[0].wake)

    def _prune(self, now: float) -> None:
        """Forget interactions answered without telling us, and those past Discord's window."""
        done = [
            key
            for key, (interaction, at) in self._pending.items()
            if now - at > EXPIRY or interaction.response.is_done()
        ]
        for key in done:
            del self._pending[key]

    async def settled(self) -> None:
        """Until no interaction waits for its first response (at most ``limit`` seconds after the
        call), and every earlier caller has gone on: callers go on in the order they called, so
        two clicks on one table reach it in the order they were answered."""
        if not self._pending and not self._queue:
            return
        loop = asyncio.get_running_loop()
        me = _Waiter(loop.time() + self.limit)
        self._queue.append(me)
        self.waits += 1
        try:
            while True:
                timer = None
                if self._queue[0] is me:
                    now = loop.time()
                    self._prune(now)
                    if not self._pending or now >= me.deadline:
                        return
                    me.wake = loop.create_future()
                    timer = loop.call_later(min(self.recheck, me.deadline - now), _resolve, me.wake)
                else:  # woken when the callers before have gone on
                    me.wake = loop.create_future()
                try:
                    await me.wake
                finally:
                    if timer is not None:
                        timer.cancel()
        finally:
            head = self._queue[0] is me
            self._queue.remove(me)
            if head:
                self._wake_head()


def _resolve(fut: asyncio.Future[None] | None) -> None:
    if fut is not None and not fut.done():
        fut.set_result(None)


async def in_time(interaction: Any, work: Awaitable[T]) -> T:
    """``work`` (a picture from the render worker) for an ephemeral answer: when it is slow to
    come, the interaction is deferred first ("thinking…", seen by the asker only) so Discord keeps
    it; the caller then fills in that answer (``edit_original_response``) instead of sending one."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done and not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    return await task

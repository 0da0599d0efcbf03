"""Newest-state folding: a message that many updates change is edited at most once per interval,
and each edit shows the newest state (:class:`Folded`, kept per key by :class:`Folds`).

An update only marks its message dirty (and notes what it wants told in the next edit); the
message's one writer edits it when its time comes. Messages that share a channel share its budget:
each is given the interval times the number of dirty messages in that channel. It knows nothing of
what the messages show.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Folded", "Folds"]


@dataclass(slots=True)
class Folded:
    """One message kept showing the newest state: ``dirty`` while an edit is owed, ``news``: what
    happened since the last edit (the newest ``keep``), ``shown``: what the message in use stands
    for (its writer decides when that calls for a new message), ``task``: its writer."""

    channel_id: int
    dirty: bool = False
    news: list[Any] = field(default_factory=list)
    edited_at: float = -math.inf
    shown: Any = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one edit of the message at a time
    task: asyncio.Task[None] | None = None

    def note(self, news: Iterable[Any], *, keep: int = 4, dirty: bool = True) -> None:
        self.news = (self.news + list(news))[-keep:]
        self.dirty = self.dirty or dirty

    async def write(self, edit: Callable[[list[Any]], Awaitable[None]]) -> None:
        """Run ``edit(news)`` if an edit is owed (one at a time; a failed edit leaves it owed)."""
        async with self.lock:
            if not self.dirty:  # another write got there first
                return
            self.dirty = False
            news, self.news = self.news, []
            self.edited_at = asyncio.get_running_loop().time()
            try:
                await edit(news)
            except Exception:
                self.dirty = True  # the newest state is still owed
                raise


class Folds:
    """The folded messages by key; ``interval``: seconds between two edits of one message (0: edit
    on every update), times the number of dirty messages sharing its channel."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self._by: dict[Any, Folded] = {}

    def of(self, key: Any, channel_id: int) -> Folded:
        f = self._by.get(key)
        if f is None:
            f = self._by[key] = Folded(channel_id)
        return f

    def get(self, key: Any) -> Folded | None:
        return self._by.get(key)

    def pop(self, key: Any) -> None:
        self._by.pop(key, None)

    def values(self) -> list[Folded]:
        return list(self._by.values())

    def keys(self) -> list[Any]:
        return list(self._by)

    def wait(self, f: Folded) -> float:
        """Seconds until ``f`` may be edited again (0 or less: now)."""
        sharing = sum(1 for g in self._by.values() if g.channel_id == f.channel_id and g.dirty)
        return f.edited_at + self.interval * max(1, sharing) - asyncio.get_running_loop().time()

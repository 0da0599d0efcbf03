"""Turn clocks: how long a decision may wait, the live players' time banks, and what the table
does when a clock runs out (draw-discard, or pass, for every human who did not act).

A live table gives each decision its turn seconds plus the waiting players' bank; the time a
player takes beyond the turn seconds comes off their bank. An async table gives a turn its hours
and a call offer its own, shorter window; ``on_expiry=wait`` keeps it waiting past the deadline.
The clocks themselves are timer rows, written with the moves (:meth:`bot.tables.acting.Acting.advance`);
:class:`Clocks` reads the next one, marks an async table's reminder sent and stops a clock that
has nothing left to run out, for the one dispatcher task of :mod:`bot.timers`, which sleeps until
the next one and sends the reminder.

Limits: a clock's move is played as any other, through the acting path it is given
(:class:`Act`: validated, stored, then applied); a database call that fails is raised (the
dispatcher retries that table later).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable
from typing import Protocol

from bot.storage.repository import Repository, TimerRow
from bot.tables.autoplay import auto_action
from bot.tables.model import StorageError, Table, Update
from bot.tables.restore import Restore
from engine.table.game import Phase


def turn_clock(t: Table) -> float:
    """The seconds the table's pending decision may wait."""
    g = t.game
    if t.row.mode == "async":
        if g is not None and g.phase in (Phase.CALL, Phase.CHANKAN):  # a call offer: its own window
            return float(min(t.row.call_seconds, t.row.async_hours * 3600))
        return t.row.async_hours * 3600.0
    bank = 0.0
    if g is not None:
        humans = t.humans_to_act()
        if humans:
            bank = min((t.seats[s].bank_left or 0.0) for s in humans)
    return t.row.turn_seconds + bank


def spend_bank(t: Table, seat: int) -> None:
    """A live player acted: the time beyond the turn seconds comes off their bank."""
    if t.row.mode != "live" or not t.prompt_at:
        return
    used = time.time() - t.prompt_at
    over = used - t.row.turn_seconds
    s = t.seats[seat]
    if over > 0 and s.bank_left is not None:
        s.bank_left = max(0.0, s.bank_left - over)


class Act(Protocol):
    """How a clock's move is played: :meth:`bot.tables.acting.Acting.act`."""

    def __call__(
        self, table_id: int, user_id: int | None, action_text: str, serial: int, *, expired: bool = False
    ) -> Awaitable[Update]: ...


class Clocks:
    def __init__(self, repo: Repository, restore: Restore, act: Act) -> None:
        self._repo = repo
        self._restore = restore
        self._act = act

    async def next_timer(self, skip: set[int]) -> TimerRow | None:
        """The clock that runs out first, of the tables not in ``skip`` (and of this process's
        shards: another process runs its own tables' clocks)."""
        return await self._repo.next_timer(skip=skip, shards=self._restore.shards)

    async def reminded(self, table_id: int) -> None:
        """The async table's halfway reminder was sent: its clock does not send another."""
        await self._repo.mark_reminded(table_id)

    async def stop(self, table_id: int) -> None:
        """The table's clock has nothing to run out (it waits on, or it is closed)."""
        await self._repo.clear_timer(table_id)

    async def timeout(self, table_id: int, serial: int) -> Update | None:
        """The turn clock ran out: draw-discard (tsumogiri) or pass for every waiting human."""
        t = await self._restore.get(table_id)
        if t.game is None or t.row.status != "playing" or t.decision_serial() != serial:
            return None
        if t.row.mode == "async" and t.row.on_expiry == "wait":
            return None
        update: Update | None = None
        for seat in list(t.humans_to_act()):
            g = t.game
            if g is None or g.over or seat not in g.to_act():
                break
            a = auto_action(g, seat)
            bank = t.seats[seat].bank_left
            t.seats[seat].bank_left = 0.0
            try:
                update = await self._act(table_id, None, a.text, t.decision_serial(), expired=True)
            except StorageError:
                t.seats[seat].bank_left = bank  # not stored: the clock runs out again later
                raise
        return update

"""TableService: the only thing that changes a table, made of one part per job.

* :class:`~bot.tables.restore.Restore`: the tables in memory, found by number, rebuilt from
  storage (start-up, ``db check``), damaged ones named;
* :class:`~bot.tables.lifecycle.Lifecycle`: open, join, leave, add AI seats, commit, start,
  thread, standing orders, abandon;
* :class:`~bot.tables.acting.Acting`: a move validated, stored, then applied, under the lock;
* :class:`~bot.tables.autoplay.Autoplay`: the AI seats, standing orders and mjai programs;
* :class:`~bot.tables.clocks.Clocks`: the turn clock running out;
* :class:`~bot.tables.model.Events`: the listeners told of each stored
  :class:`~bot.tables.model.Update`, and the timer dispatcher's poke.

The cogs, the presenter, the league and the timer dispatcher call this one object; each method
hands the call to the part whose job it is. The listener interface (``listeners``, ``Update``) and
every method and attribute callers use are the same as when this was one class.

Limits: no logic of its own beyond the wiring (``verify`` reads the stored table for
:func:`bot.tables.fairness.verify_table`). No Discord types: the cog layer translates interactions
into calls on this service and its events into messages.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.ai.mjai_seat import MjaiSeats
from bot.i18n import Lang
from bot.storage.repository import Repository, TableRow
from bot.tables.acting import Acting
from bot.tables.autoplay import Autoplay, auto_action
from bot.tables.clocks import Clocks, turn_clock
from bot.tables.fairness import verify_table
from bot.tables.lifecycle import Lifecycle
from bot.tables.model import Damage, Events, Listener, Table, Update
from bot.tables.restore import Restore
from bot.tables.rules import players
from engine.rules.base import Ruleset
from engine.table.actions import Action
from engine.table.game import Game


class TableService:
    def __init__(
        self, repo: Repository, *, ai_delay: float = 0.0, mjai_bots: dict[str, tuple[str, ...]] | None = None
    ) -> None:
        self.repo = repo
        self.events = Events()
        self.restore = Restore(repo)
        self.autoplay = Autoplay(ai_delay=ai_delay, mjai_bots=mjai_bots)
        self.acting = Acting(repo, self.restore, self.autoplay, self.events)
        self.lifecycle = Lifecycle(repo, self.restore, self.acting, self.autoplay, self.events)
        self.clocks = Clocks(repo, self.restore, self.acting.act)

    # ------------------------------------------------------------ what callers read and set

    @property
    def tables(self) -> dict[int, Table]:
        return self.restore.tables

    @property
    def damaged(self) -> dict[int, Damage]:
        """Stored tables that could not be rebuilt (and damaged turn clocks), by table id."""
        return self.restore.damaged

    @property
    def listeners(self) -> list[Listener]:
        return self.events.listeners

    @property
    def mjai(self) -> MjaiSeats:
        """The seats played by outside mjai programs, and the programs listed."""
        return self.autoplay.mjai

    @property
    def ai_delay(self) -> float:
        return self.autoplay.ai_delay

    @ai_delay.setter
    def ai_delay(self, value: float) -> None:
        self.autoplay.ai_delay = value

    @property
    def on_timer_change(self) -> Callable[[], None] | None:
        return self.events.on_timer_change

    @on_timer_change.setter
    def on_timer_change(self, fn: Callable[[], None] | None) -> None:
        self.events.on_timer_change = fn

    @property
    def record_game(self) -> Callable[[Any, int, dict[str, Any]], object]:
        """Writes a finished game's record inside the write of its last move (the bot's:
        StandingsService.record_finished, wired in client.py; the game row alone otherwise)."""
        return self.acting.record_game

    @record_game.setter
    def record_game(self, fn: Callable[[Any, int, dict[str, Any]], object]) -> None:
        self.acting.record_game = fn

    @property
    def new_seed(self) -> Callable[[], str]:
        """The seed of a new table's game (tests replace it to play a known deal)."""
        return self.lifecycle.new_seed

    @new_seed.setter
    def new_seed(self, fn: Callable[[], str]) -> None:
        self.lifecycle.new_seed = fn

    # ------------------------------------------------------------ finding and restoring tables

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process acts for the tables of ``guild_id`` (several processes: its shards')."""
        return self.restore.owns(guild_id)

    async def get(self, table_id: int) -> Table:
        return await self.restore.get(table_id)

    async def get_in(self, table_id: int, guild_id: int | None) -> Table:
        return await self.restore.get_in(table_id, guild_id)

    async def tables_in_channel(self, channel_id: int, *statuses: str) -> list[TableRow]:
        return await self.restore.in_channel(channel_id, *statuses)

    async def tables_in_server(self, guild_id: int | None) -> list[TableRow]:
        return await self.restore.in_server(guild_id)

    def damaged_in(self, channel_id: int | None) -> list[Damage]:
        return self.restore.damaged_in(channel_id)

    async def load(self) -> list[Table]:
        return await self.restore.load()

    async def check_logs(self) -> list[str]:
        return await self.restore.check_logs()

    async def prepare(self, rs: Ruleset) -> None:
        await self.restore.prepare(rs)

    async def resume(self, t: Table) -> Update | None:
        return await self.acting.resume(t)

    async def verify(self, table_id: int, lang: Lang = "en") -> str:
        """``/table verify``'s sentence for a stored table (:func:`bot.tables.fairness.verify_table`)."""
        return await verify_table(self.repo, table_id, lang)

    # ------------------------------------------------------------ lifecycle

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
        """A new open table, its opener seated (:meth:`bot.tables.lifecycle.Lifecycle.open_table`)."""
        return await self.lifecycle.open_table(
            guild_id=guild_id, channel_id=channel_id, opener_id=opener_id, opener_name=opener_name, ruleset=ruleset,
            mode=mode, length=length, turn_seconds=turn_seconds, bank_seconds=bank_seconds, async_hours=async_hours,
            on_expiry=on_expiry, pings=pings, call_minutes=call_minutes, rules=rules, house=house,
        )

    async def join(self, table_id: int, user_id: int, name: str) -> Table:
        return await self.lifecycle.join(table_id, user_id, name)

    async def leave(self, table_id: int, user_id: int) -> Table:
        return await self.lifecycle.leave(table_id, user_id)

    def ai_kinds(self) -> list[str]:
        return self.autoplay.kinds()

    def ai_kind(self, kind: str | None) -> str:
        return self.autoplay.kind(kind)

    async def add_ai(self, table_id: int, count: int, kind: str | None = None) -> Table:
        return await self.lifecycle.add_ai(table_id, count, kind)

    def check_start(self, t: Table, user_id: int) -> None:
        self.lifecycle.check_start(t, user_id)

    async def commit_seed(self, table_id: int, user_id: int) -> Table:
        return await self.lifecycle.commit_seed(table_id, user_id)

    async def start(self, table_id: int, user_id: int) -> Update:
        return await self.lifecycle.start(table_id, user_id)

    async def set_thread(self, table_id: int, thread_id: int) -> Table:
        return await self.lifecycle.set_thread(table_id, thread_id)

    async def set_auto(self, table_id: int, user_id: int, what: str, on: bool) -> Table:
        return await self.lifecycle.set_auto(table_id, user_id, what, on)

    async def abandon(self, table_id: int, user_id: int, *, organiser: bool, guild_id: int | None = None) -> Table | None:
        return await self.lifecycle.abandon(table_id, user_id, organiser=organiser, guild_id=guild_id)

    # ------------------------------------------------------------ play

    async def act(
        self, table_id: int, user_id: int | None, action_text: str, serial: int, *, expired: bool = False
    ) -> Update:
        return await self.acting.act(table_id, user_id, action_text, serial, expired=expired)

    async def timeout(self, table_id: int, serial: int) -> Update | None:
        return await self.clocks.timeout(table_id, serial)

    @staticmethod
    def auto_action(g: Game, seat: int) -> Action:
        return auto_action(g, seat)

    # the two private names the tests of the cogs read, kept as they were
    @staticmethod
    def _players(t: Table) -> int:
        return players(t.row)

    @staticmethod
    def _clock(t: Table) -> float:
        return turn_clock(t)

"""Runs the real Jantaku bot against the local Discord-protocol server, for end-to-end tests."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.client import JantakuBot
from bot.config import Settings
from bot.storage.postgres import is_url
from bot.storage.repository import Repository
from devserver import DiscordServer, User
from engine.rules import find_ruleset
from engine.table.actions import Action
from engine.table.game import Game


@dataclass
class Club:
    server: DiscordServer
    bot: JantakuBot
    guild_id: int
    channel_id: int
    users: dict[str, User]
    db: Path  # the SQLite file, or (the database fixture's postgres run) the PostgreSQL URL

    async def slash(self, who: str, name: str, options: dict[str, Any] | None = None) -> Any:
        rec = await self.server.slash(self.users[who].id, self.guild_id, self.channel_id, name, options or {})
        await rec.reply()
        return rec

    async def started(self, table: int = 1, timeout: float = 30) -> Any:
        """Wait until ``/table start`` has stored the game, and return the table. The start is
        answered first and stored after, so a test that read only ``t.game`` (set in memory just
        before the write) could send its next command while the stored status still said open."""
        svc = self.bot.service
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            t = svc.tables.get(table)
            if t is not None and t.game is not None and any(r.id == table for r in await svc.repo.tables_with_status("playing")):
                return t
            if loop.time() > deadline:
                raise AssertionError(f"table #{table} was not stored as playing within {timeout} s")
            await asyncio.sleep(0.02)

    def replies(self, rec: Any) -> list[str]:
        return [m.content for m in self.server.visible_to(rec.user_id) if m.interaction_id == rec.id]

    def live_buttons(self, who: str, table: int = 1) -> tuple[int, list[str]]:
        """The newest DM of ``who`` with buttons for the table's current decision."""
        t = self.bot.service.tables.get(table)
        assert t is not None
        prefix = f"mj:{table}:{t.decision_serial()}:"
        for m in reversed(self.server.dms(self.users[who].id)):
            ids = [c.get("custom_id", "") for row in m.components for c in row.get("components", [])]
            live = [c for c in ids if c.startswith(prefix)]
            if live:
                return m.id, live
        return 0, []


@asynccontextmanager
async def club(
    tmp: Path, *, names: tuple[str, ...] = ("alice", "bob", "carol", "dave", "erin"), closed_dms: tuple[str, ...] = (),
    time_scale: float = 1.0, prepare: Callable[[int, Path], Awaitable[None]] | None = None, database: str | None = None,
) -> AsyncIterator[Club]:
    """The bot against a devserver with Discord's limits on; ``time_scale`` divides the rate-limit windows
    (a test that plays whole games passes one: under Discord's 5 edits per 5 s per channel they take minutes);
    ``prepare(guild_id, database)`` runs before the bot starts, to build the file it will find.
    ``database``: the ``database`` fixture's SQLite file or PostgreSQL URL (default: a file in ``tmp``)."""
    server = DiscordServer(time_scale=time_scale)
    await server.start()
    restore = server.configure_client()
    guild = server.add_guild("Test club", channels=("mahjong",))
    users = {n: server.add_user(n, guilds=[guild.id], dms_open=n not in closed_dms) for n in names}
    url = database if database is not None and is_url(database) else ""
    db: Any = url or (Path(database) if database is not None else tmp / "jantaku.sqlite3")
    if prepare is not None:  # a database the bot finds at start-up, made for this server
        await prepare(guild.id, db)
    settings = Settings(
        token="test-token", dev_guild_id=guild.id, sync_global=False, database=tmp / "jantaku.sqlite3" if url else db, database_url=url, organiser_role="Organiser", log_level="WARNING", ai_delay=0.0
    )
    bot = JantakuBot(settings)
    runner = asyncio.create_task(bot.start(settings.token))
    try:
        # a first start on a new machine builds the engine tables (~20 s); a bot that fails to start
        # fails the test with its own error instead of a timeout
        ready = asyncio.create_task(server.wait_until_ready(120))
        await asyncio.wait({ready, runner}, return_when=asyncio.FIRST_COMPLETED)
        if not ready.done():
            ready.cancel()
            runner.result()
            raise RuntimeError("the bot stopped before it connected")
        ready.result()
        await server.wait_for_commands(["table"], guild.id, timeout=10)
        yield Club(server, bot, guild.id, guild.channel_ids[0], users, db)
    finally:
        print(f"devserver: {server.request_stats().summary()}")  # shown with -s: what the limits did
        await bot.close()
        runner.cancel()
        with suppress(asyncio.CancelledError, Exception):
            await runner
        restore()
        await server.stop()


async def make_organiser(c: Club, who: str) -> None:
    """Gives ``who`` the organiser role (the bot's settings name it ``Organiser`` here)."""
    role = c.server.add_role(c.guild_id, "Organiser")
    c.server.add_member(c.guild_id, c.users[who].id, roles=[role.id])
    await asyncio.sleep(0.1)  # the member update reaches the bot over the gateway


def rows(db: Path, sql: str) -> list[tuple[Any, ...]]:
    """The rows of ``sql`` in the bot's SQLite file, read with a connection of the test's own."""
    con = sqlite3.connect(db)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


async def stored_replay(db: Path, table: int = 1) -> tuple[Any, Game]:
    """A finished table's stored row and its stored action log replayed by the engine from the
    row's ruleset, options and seed (what a restart or an export rebuilds)."""
    repo = Repository(db)
    await repo.open()
    try:
        stored = [a for _, a in await repo.actions(table)]
        row = await repo.get_table(table)
    finally:
        await repo.close()
    assert row is not None and row.status == "finished"
    replay = Game(find_ruleset(row.ruleset).with_options(**row.options), row.seed)
    for text in stored:
        replay.play(Action.parse(text))
    return row, replay


async def play_out(c: Club, humans: Iterable[str], *, seconds: float = 240, table: int = 1) -> int:
    """Each human presses the first live button of their newest hand message until the game is
    over; returns the clicks. AssertionError if it does not end within ``seconds``."""
    t = c.bot.service.tables[table]
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds
    clicks = 0
    while loop.time() < until:
        if t.game is not None and t.game.over:
            return clicks
        moved = False
        for who in humans:
            mid, live = c.live_buttons(who, table)
            if live:
                rec = await c.server.click(c.users[who].id, mid, live[0])
                await rec.response()
                assert not rec.errors, rec.errors
                clicks += 1
                moved = True
        if not moved:
            await asyncio.sleep(0.01)
    raise AssertionError("the game did not finish")

"""``python -m bot`` — run the bot; ``demo`` — a whole game against the built-in local server;
``db check`` / ``db backup PATH`` / ``db migrate-to postgresql://…`` — database maintenance.

Start-up failures (no token, a wrong token, an unreadable database) end in one plain sentence.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sqlite3
import sys
import tempfile
from pathlib import Path

import discord

from bot.cluster.settings import ClusterError
from bot.config import ConfigError, Settings
from bot.shards import sharding_required


def _logging(level: str) -> None:
    logging.basicConfig(level=getattr(logging, level, logging.INFO), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord").setLevel(logging.WARNING)


async def _run(settings: Settings) -> int:
    from bot.client import make_bot

    if settings.api_base and settings.gateway:
        # the network edge only: talk to a local Discord-protocol server (tests, demos)
        import discord.gateway
        import discord.http
        import yarl

        discord.http.Route.BASE = settings.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway)

    async with make_bot(settings) as bot:
        await bot.start(settings.token)
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    try:
        settings = Settings.load()
    except ConfigError as e:
        print(f"Jantaku cannot start: {e}.")
        return 2
    _logging(settings.log_level)
    if not settings.token:
        print(
            "Jantaku cannot start: DISCORD_TOKEN is not set. Put your bot token in .env (see .env.example), "
            "or run `python -m bot demo` to play against the built-in local server."
        )
        return 2
    try:
        return asyncio.run(_run(settings))
    except discord.LoginFailure:
        print("Jantaku cannot start: Discord refused the token. Check DISCORD_TOKEN in .env (reset it in the developer portal).")
        return 2
    except discord.PrivilegedIntentsRequired:
        print("Jantaku cannot start: the bot asks for an intent that is not enabled in the developer portal.")
        return 2
    except ClusterError as e:
        print(f"Jantaku cannot start: {e}.")
        return 2
    except discord.ConnectionClosed as e:
        if e.code != 4011:
            raise
        print(sharding_required(settings.shards))
        return 2
    except OSError as e:
        print(f"Jantaku cannot start: {e.strerror or e}.")
        return 2
    except KeyboardInterrupt:
        return 0


async def demo(*, humans: int = 0, seed: str | None = None, quiet: bool = False, length: str = "tonpuu") -> int:
    """Play one game through the real client and the local Discord-protocol server; print the channel."""
    from bot.client import JantakuBot
    from devserver.server import DiscordServer
    from engine.hand.tables import cache_path

    if not cache_path(4, 4).exists():
        print("First run on this machine: building the engine's shanten tables (about 10 s, once)...\n", flush=True)
    server = DiscordServer()
    await server.start()
    restore = server.configure_client()
    guild = server.add_guild("Jantaku demo club", channels=("mahjong",))
    channel_id = guild.channel_ids[0]
    people = [server.add_user(name, guilds=[guild.id]) for name in ("alice", "bob", "carol", "dave")[: max(1, humans)]]
    tmp = tempfile.TemporaryDirectory()
    settings = Settings(
        token="demo-token",
        dev_guild_id=guild.id,
        sync_global=False,
        database=Path(tmp.name) / "demo.sqlite3",
        organiser_role="Organiser",
        log_level="WARNING",
        ai_delay=0.0,
    )
    bot = JantakuBot(settings)
    runner = asyncio.create_task(bot.start(settings.token))
    printed: set[tuple[int, int]] = set()

    def show() -> None:
        for m in server.messages(channel_id):
            key = (m.id, len(m.history))
            if key in printed or m.visible_to is not None:
                continue
            printed.add(key)
            if not quiet and not m.content.startswith("**Table #") or "final standings" in m.content:
                print(m.content + "\n")

    try:
        await server.wait_until_ready(180)  # a first start on a new machine builds the engine tables (~20 s)
        await server.wait_for_commands(["table"], guild.id, timeout=10)
        opener = people[0]
        rec = await server.slash(opener.id, guild.id, channel_id, "table open", {"length": length})
        await rec.reply()
        for p in people[1:humans]:
            await (await server.slash(p.id, guild.id, channel_id, "table join", {})).reply()
        if humans == 0:
            await (await server.slash(opener.id, guild.id, channel_id, "table leave", {})).reply()
            await (await server.slash(opener.id, guild.id, channel_id, "table add-ai", {"seats": 4, "table": 1})).reply()
            await (await server.slash(opener.id, guild.id, channel_id, "table start", {"table": 1})).reply()
        else:
            await (await server.slash(opener.id, guild.id, channel_id, "table add-ai", {"seats": 4 - humans})).reply()
            await (await server.slash(opener.id, guild.id, channel_id, "table start", {})).reply()
        # scripted humans: press the first offered button of their DM (a discard or a pass)
        for _ in range(20000):
            show()
            t = bot.service.tables.get(1)
            if t is None or t.game is None:
                await asyncio.sleep(0.01)
                continue
            if t.game.over:
                break
            clicked = False
            for p in people[:humans]:
                for m in reversed(server.dms(p.id)):
                    ids = [c.get("custom_id", "") for row in m.components for c in row.get("components", [])]
                    live = [c for c in ids if c.startswith(f"mj:1:{t.decision_serial()}:")]
                    if live:
                        await (await server.click(p.id, m.id, live[0])).response()
                        clicked = True
                    break
            if not clicked:
                await asyncio.sleep(0.02)
        await server.wait_for(lambda: any("final standings" in m.content for m in server.messages(channel_id)), timeout=30)
        # let the last clicks' follow-up work (hand messages) finish before closing
        await server.wait_for(lambda: all(r.responded_at is not None for r in server.interactions()), timeout=10)
        t = bot.service.tables.get(1)
        if t is not None:
            async with t.lock:
                pass
        await asyncio.sleep(0.3)
        show()
        return 0
    finally:
        await bot.close()
        runner.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await runner
        restore()
        await server.stop()
        tmp.cleanup()


def cmd_demo(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("discord").setLevel(logging.ERROR)
    try:
        return asyncio.run(demo(humans=args.humans, length=args.length))
    except TimeoutError:
        print("The demo did not finish in time.")
        return 1


async def _db(args: argparse.Namespace) -> int:
    from bot.storage.repository import Repository

    settings = Settings.load()
    if args.db_cmd == "migrate-to":
        from bot.storage.transfer import TransferError, migrate_to

        try:
            report = await migrate_to(args.database or settings.database, args.url)
        except TransferError as e:
            print(f"not copied: {e}")
            return 1
        for line in report.lines():
            print(line)
        print("the copy checks out" if not report.problems else f"{len(report.problems)} check(s) failed")
        return 0 if not report.problems else 1
    repo = Repository(args.database or settings.database_target)
    await repo.open()
    quiet = logging.getLogger("bot")  # the listing says what is damaged; no log lines beside it
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)
    try:
        if args.db_cmd == "check":
            from bot.house import HouseRules
            from bot.tables import TableService

            problems = await repo.check()
            # every stored game replayed through the engine: a well-formed but illegal move
            problems += await TableService(repo).check_logs()
            problems += await HouseRules(repo).check()  # house rules the engine cannot play
            for p in problems:
                print(p)
            print(f"{len(problems)} problem row(s)")
            return 1 if problems else 0
        await repo.backup(args.path)
        print(f"backed up to {args.path}")
        return 0
    finally:
        quiet.setLevel(level)
        await repo.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bot", description="Jantaku, a Discord bot for mahjong clubs")
    sub = p.add_subparsers(dest="cmd")
    sub.add_parser("run", help="run the bot with DISCORD_TOKEN from .env (the default)")
    d = sub.add_parser("demo", help="play a game against the built-in local Discord server (no token needed)")
    d.add_argument("--humans", type=int, default=0, help="scripted human players (0-4); the rest are AI")
    d.add_argument("--length", choices=("tonpuu", "hanchan"), default="tonpuu")
    db = sub.add_parser("db", help="database maintenance")
    db.add_argument("--database", default=None)
    dbs = db.add_subparsers(dest="db_cmd", required=True)
    dbs.add_parser("check", help="list corrupted or impossible rows")
    b = dbs.add_parser("backup", help="online backup to PATH")
    b.add_argument("path")
    m = dbs.add_parser("migrate-to", help="copy the SQLite database into an empty PostgreSQL database and check the copy")
    m.add_argument("url", help="postgresql://user@host:5432/dbname")
    args = p.parse_args(argv)
    if args.cmd == "demo":
        return cmd_demo(args)
    if args.cmd == "db":
        try:
            return asyncio.run(_db(args))
        except (OSError, ValueError, sqlite3.Error) as e:
            print(f"database error: {e}")
            return 2
    return cmd_run(args)


if __name__ == "__main__":
    sys.exit(main())

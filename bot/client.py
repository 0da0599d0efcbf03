"""The discord.py client: start-up, cogs, command sync, restoring tables after a restart.

The services are attributes of :class:`JantakuBot`, and that is the one way a cog or a button gets
one (``self.bot.service``, ``interaction.client.standings``): the repository, the table service,
the standings, the house rules, the leagues, the score sheets, the tile styles, the turn clocks and the first-response queue are made here, and
the presenter (:mod:`bot.views.presenter`: the tables' messages) once the event loop runs (its render workers start with it). Slash commands run on
:class:`~bot.command_tree.Tree`, whose one error handler answers every command's errors.

A process holding part of the shards (``JANTAKU_SHARDS=a-b/T``) keeps to its own servers' tables,
and with Redis named joins the other processes (:mod:`bot.cluster`: forwarded hand clicks, the
token's shared budget, once-only clocks); restored tables are told in their channel that the game
is back.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from bot import i18n
from bot.cluster.budget import TokenBudget, guard_http
from bot.cluster.node import Node
from bot.cluster.settings import ClusterSettings
from bot.command_tree import JantakuTranslator, Tree
from bot.config import Settings
from bot.house import HouseRules
from bot.league.service import LeagueService
from bot.locales import Locales
from bot.prefs import TileStyles
from bot.responses import FirstResponses
from bot.sheet.service import SheetService
from bot.standings.service import StandingsService
from bot.storage.repository import Repository
from bot.tables import TableService
from bot.timers import TimerDispatcher
from bot.views.presenter import Presenter
from engine.rules import warm_up

log = logging.getLogger(__name__)

COGS = ("cogs.play", "cogs.tables", "cogs.lookups", "cogs.standings", "cogs.house", "cogs.replay", "cogs.league", "cogs.prefs", "cogs.sheet")
# gc thresholds (gen0 allocations, gen1 per gen0, gen2 per gen1); Python's default is (700, 10, 10)
GC_THRESHOLDS = (700, 10, 1000)


def _answered_here(interaction: discord.Interaction) -> bool:
    """Slash commands and the table's buttons (``mj…`` custom ids): what this bot always answers.
    (A click on a stranger's component is never answered, so nothing should wait for it.)"""
    if interaction.type is discord.InteractionType.application_command:
        return True
    if interaction.type is discord.InteractionType.component:
        return str((interaction.data or {}).get("custom_id", "")).startswith("mj")
    return False


class JantakuBot(commands.Bot):
    presenter: Presenter  # made in setup_hook (its render workers start on the running loop)

    def __init__(self, settings: Settings, **kwargs: object) -> None:
        intents = discord.Intents.default()
        # the bot reads no messages (slash commands and buttons arrive as interactions): without
        # these it is not sent every message of every channel it can see, nor one per own edit
        intents.guild_messages = intents.dm_messages = False
        if settings.http_connections and "connector" not in kwargs:
            # at most this many REST connections, kept alive: a burst of first responses reuses warm
            # connections instead of opening (against Discord: a TLS handshake) one per click. The
            # gateway's websocket holds one more of the same connector for as long as it is open.
            kwargs["connector"] = aiohttp.TCPConnector(limit=settings.http_connections + 1)
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents, help_command=None, max_messages=None, tree_cls=Tree, **kwargs  # type: ignore[arg-type]
        )
        self.settings = settings
        self.repo = Repository(settings.database_target)
        self.service = TableService(self.repo, ai_delay=settings.ai_delay, mjai_bots=settings.mjai_bots)
        self.standings = StandingsService(self.repo)
        self.service.record_game = self.standings.record_finished  # a finished game joins the standings
        self.house = HouseRules(self.repo)
        self.league = LeagueService(self.repo, self.service, self.standings)
        self.sheets = SheetService(self.repo, self.standings)
        self.prefs = TileStyles(self.repo)
        self.locales = Locales(self.repo)
        self.responses = FirstResponses()
        self.timers = TimerDispatcher(self.service, remind=self._remind, settled=self.responses.settled)
        # several processes on one token (bot/cluster, README "Running at scale"): only when Redis is
        # named and this process holds part of the shards; one process without Redis is as before
        cluster = ClusterSettings.from_env()
        self._budget = cluster.budget
        plan = settings.shards
        self.cluster: Node | None = None
        if cluster.redis_url and plan is not None and plan.count is not None and plan.ids is not None and len(plan.ids) < plan.count:
            self.cluster = Node.open(cluster, settings.token)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        # discord.py calls this with "interaction" while it parses INTERACTION_CREATE off the
        # gateway, before any callback runs: from here on the interaction's first response goes
        # before work nobody waits on (bot.responses)
        if event_name == "interaction" and args and _answered_here(args[0]):
            self.responses.arrived(args[0])
            self.locales.noted(args[0].user.id, args[0].locale)
        super().dispatch(event_name, *args, **kwargs)

    async def on_app_command_completion(self, interaction: discord.Interaction, command: object) -> None:
        self.responses.answered(interaction)

    def late_by(self, interaction_id: int) -> float:
        """Seconds a click forwarded from another process spent on the way (0 for one received here)."""
        fw = self.cluster.forwarder if self.cluster is not None else None
        return fw.late_by(interaction_id) if fw is not None else 0.0

    async def setup_hook(self) -> None:
        await self.repo.open()
        plan = self.settings.shards
        if plan is not None and plan.count is not None and plan.ids is not None and len(plan.ids) < plan.count:
            # part of the shards: this process's tables (restore, clocks, acting) are those of its
            # own shards' guilds, Redis or not (without it, a hand click for another process's
            # table is refused in one sentence rather than played on a stale copy)
            self.service.restore.shards = (plan.count, frozenset(plan.ids))
            if self.cluster is None:
                log.warning("JANTAKU_SHARDS names part of the shards but JANTAKU_REDIS_URL is not set: hand clicks for other processes' tables cannot reach them")
        if self.cluster is not None:
            # before any table loads and before the gateway connects: the clicks routed to their
            # table's owner and every bot-token request in the shared budget
            await self.cluster.attach(self, self.repo.guild_of)
            self.timers.claims = self.cluster.claims
            log.info("cluster: shards %s of %d here; forwarding and the shared budget through Redis", list(plan.ids) if plan and plan.ids else "all", plan.count if plan else 1)
        else:
            # one process: every bot-token request still waits for its place in the token's 50/s (the
            # courier paces what it sends; this also holds discord.py's own requests, DM channels and
            # user fetches of a burst of commands), so no burst earns a global 429
            guard_http(self.http, TokenBudget(None, self.settings.token, limit=self._budget, share=self._budget))
        await self.prefs.load()
        await self.locales.load()
        await self.tree.set_translator(JantakuTranslator())
        # The default ruleset's shanten tables, in a thread before the gateway connects: loaded on
        # first use instead, the first table would stop the event loop (~0.3 s from the cache; ~8 s
        # on a new machine, which builds them). Other rulesets' load when a table of theirs starts
        # or is restored (TableService.prepare), so memory goes only to the rulesets played.
        t0 = time.perf_counter()
        await asyncio.to_thread(warm_up, ["riichi"])
        log.info("engine tables ready in %.1f s", time.perf_counter() - t0)
        self.presenter = Presenter(self, self.service, locales=self.locales, prefs=self.prefs, settled=self.responses.settled)
        self.service.listeners.append(self.presenter.on_update)
        for name in COGS:
            await self.load_extension(name)
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            log.info("slash commands synced to guild %s", self.settings.dev_guild_id)
        elif self.settings.sync_global:
            await self.tree.sync()
            log.info("slash commands synced globally")
        tables = await self.service.load()
        log.info("restored %d open tables", len(tables))
        # A full garbage collection stops the event loop for as long as it takes (0.1-0.7 s with
        # 200 busy tables, holding every click in flight): what start-up built (restored tables
        # included) is frozen out of it, and it runs a hundredth as often as by default - about
        # once in 10 minutes at 200 busy tables (bench/bot_load.py), so at most ~0.2% of clicks
        # meet one. The price: cyclic garbage old enough to reach generation 2 waits that long.
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        self.timers.start()
        self.league.start()  # round deadlines: one passed while the bot was down acts now
        # keep a reference: a task nobody holds may be garbage-collected before it runs
        self._resume_task = asyncio.create_task(self._resume(tables), name="jantaku-resume")

    async def _resume(self, tables: list) -> None:  # type: ignore[type-arg]
        await self.wait_until_ready()
        # side by side: a table's owed posts wait for its channel writer, which runs on while its
        # players play, and must not hold the next table's resume up
        await asyncio.gather(*(self._resume_one(t) for t in tables))

    async def _resume_one(self, t: Any) -> None:
        try:
            if t.game is not None and t.row.status == "playing":
                # the players learn in the channel that their game goes on (after a crash, a
                # deploy, or another process taking these shards over)
                try:
                    lang = await self.presenter.readers.club_lang(t)
                    text = i18n.t(lang, "Table #{table} is back: the bot restarted and the game goes on where it stopped.", table=t.id)
                    await self.presenter.post(t.row.thread_id or t.row.channel_id, text)
                except Exception:  # a notice lost is logged; the table resumes all the same
                    log.exception("table %s: could not say in its channel that the game is back", t.id)
                await self.presenter.refresh_table(t)
                await self.presenter.prompt_humans(t, everyone=True)
                await self.service.resume(t)
            if t.game is not None and t.row.status in ("playing", "finished"):
                await self.presenter.post_pending(t)  # results or standings the channel is owed
        except Exception:
            log.exception("could not restore table %s", t.id)

    async def _remind(self, table_id: int) -> None:
        t = self.service.tables.get(table_id)
        if t is None or t.game is None:
            return
        for seat in t.humans_to_act():
            uid = t.seats[seat].user_id
            if uid is None:
                continue
            try:
                user = self.get_user(uid) or await self.fetch_user(uid)
                lang = self.locales.of_user(uid)
                await user.send(i18n.t(lang, "Reminder: it is your move at table #{table}; half of your time is gone.", table=table_id))
            except discord.HTTPException:
                pass

    async def close(self) -> None:
        await self.timers.stop()
        await self.league.stop()
        await self.service.mjai.close_all()  # no outside program outlives the bot
        if hasattr(self, "presenter"):
            self.presenter.close()  # stops the render worker processes
        await super().close()
        if self.cluster is not None:
            await self.cluster.close()
        await self.repo.close()


class ShardedJantakuBot(JantakuBot, commands.AutoShardedBot):
    """The same bot holding several gateway shards in this process (JANTAKU_SHARDS, bot/shards.py)."""


def make_bot(settings: Settings, **kwargs: object) -> JantakuBot:
    """One unsharded connection as ever, or discord.py's AutoShardedBot for the shards settings name."""
    if settings.shards is None:
        return JantakuBot(settings, **kwargs)
    return ShardedJantakuBot(settings, **settings.shards.client_options(), **kwargs)

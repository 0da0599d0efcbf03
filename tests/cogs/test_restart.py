"""The bot process is SIGKILLed at random points of 8 games (live and async; three times a game, every
4th game four times: 26 kills) and restarted: every
game continues and ends exactly as an uninterrupted game would, no accepted action is lost, and a
stale button answers "that turn has passed" (issue: the bot, must-show 2).

The bot runs as a real subprocess (``python -m bot``) pointed at the local Discord-protocol server
in this process; two scripted humans press the first button of their newest hand message, and
after each press wait for their hand message to answer it (new buttons, or none). A hand message
that has not answered within ``LAG_LIMIT`` seconds lags behind the game: the player falls back to
"Show my hand" to carry on, and the test fails at the end if that ever happened.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import sys
from pathlib import Path

from bot.ai.policy import smart
from bot.render.variants import in_hand_order
from bot.storage.postgres import is_url
from devserver import DiscordServer
from engine.rules import find_ruleset
from engine.table.actions import Action, ActionType
from engine.table.game import Game
from tests.bot.storage_fixture import Stored

ROOT = Path(__file__).resolve().parents[2]
GAMES = int(os.environ.get("JANTAKU_RESTART_GAMES", "8"))  # more for a longer run; each game is a tonpuu
LAG_LIMIT = 15.0  # seconds a hand message may take to answer a press (a restart and a busy machine included)
A = ActionType


def human_choice(g: Game, seat: int) -> Action:
    """What 'press the first action button' means (cogs.play.hand_view lists discards first, in
    the order of the hand picture)."""
    legal = list(g.legal_actions(seat))
    discards = in_hand_order(g, seat, [a for a in legal if a.type is A.DISCARD])
    return discards[0] if discards else next(a for a in legal if a.type is not A.RIICHI)


def uninterrupted(ruleset: str, options: dict[str, object], seed: str, ai_seats: set[int], humans: list[int]) -> Game:
    """The same game without kills: AI seats answer a call window first (as the bot does), then the
    humans in the order the script tries them."""
    rs = find_ruleset(ruleset).with_options(**options) if options else find_ruleset(ruleset)
    g = Game(rs, seed)
    while not g.over:
        acting = g.to_act()
        ai = [s for s in acting if s in ai_seats]
        s = ai[0] if ai else min(acting, key=humans.index)
        g.apply(smart(g, s) if s in ai_seats else human_choice(g, s))
    return g


class BotProcess:
    def __init__(self, server: DiscordServer, guild_id: int, db: Path, url: str = "") -> None:
        self.env = dict(os.environ)
        self.env.update(
            DISCORD_TOKEN="restart-test",
            DEV_GUILD_ID=str(guild_id),
            DATABASE_PATH=str(db),
            DATABASE_URL=url,  # PostgreSQL when set (the database fixture's postgres run)
            JANTAKU_DISCORD_API=server.base_url,
            JANTAKU_DISCORD_GATEWAY=server.gateway_url,
            AI_DELAY_SECONDS="0",
            LOG_LEVEL="WARNING",
        )
        self.server = server
        self.proc: asyncio.subprocess.Process | None = None
        self.log = db.parent / "bot.log"

    async def start(self) -> None:
        with open(self.log, "ab") as out:  # a file, not a pipe nobody reads (a full pipe would block the bot)
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=str(ROOT), env=self.env, stdout=out, stderr=out
            )
        await self.server.wait_until_ready(120)

    async def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()  # SIGKILL: no clean shutdown
        await self.proc.wait()
        await self.server.wait_for(lambda: not self.server.gateway.ready_sessions, timeout=10, what="the killed bot to drop")

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()


_ID = re.compile(r"^mj:(\d+):(\d+):")


def newest_buttons(server: DiscordServer, user_id: int, table: int) -> tuple[int, list[str]]:
    best: tuple[int, int, list[str]] = (-1, 0, [])
    for m in server.dms(user_id):
        ids = [c for c in m.custom_ids() if (mm := _ID.match(c)) and int(mm.group(1)) == table]
        if ids:
            serial = int(_ID.match(ids[0]).group(2))  # type: ignore[union-attr]
            if serial >= best[0]:
                best = (serial, m.id, ids)
    return best[1], best[2]


async def _ephemeral_buttons(server: DiscordServer, channel: int, users: tuple[object, ...], tables: list[int]) -> tuple[int, int, str] | None:
    """Press "Show my hand" and keep the ephemeral copy of the action buttons (never updated later)."""
    for table in tables:
        msgs = [m for m in server.messages(channel) if m.content.startswith(f"**Table #{table}**") and m.custom_ids()]
        if not msgs:
            continue
        table_msg = max(msgs, key=lambda m: m.id)
        for who in users:
            uid = who.id  # type: ignore[attr-defined]
            show = await server.click(uid, table_msg.id, f"mjh:{table}")
            await show.reply()
            e = next((m for m in server.ephemeral(uid) if m.interaction_id == show.id), None)
            ids = [x for x in (e.custom_ids() if e else []) if x.startswith("mj:")]
            if e is not None and ids:
                return uid, e.id, ids[0]
    return None


def _windows_sorted(actions: list[str]) -> list[str]:
    """Answers to one call window in a canonical order: who answers first does not change the game
    (the engine resolves the window when every seat has answered), and after a restart a human may
    answer before an AI seat does."""
    out: list[str] = []
    run: list[str] = []
    for a in actions:
        if a[1] in "hcpmx":
            run.append(a)
            continue
        out += sorted(run)
        run = []
        out.append(a)
    return out + sorted(run)


async def _hand_answers(server: DiscordServer, user_id: int, table: int, pressed: list[str], done: str, channel: int) -> bool:
    """Whether the player's hand message answers a press of one of ``pressed`` (shows other
    buttons, or none) within ``LAG_LIMIT`` seconds (or the game ends)."""
    loop = asyncio.get_running_loop()
    until = loop.time() + LAG_LIMIT
    while loop.time() < until:
        if newest_buttons(server, user_id, table)[1] != pressed:
            return True
        if any(m.content.startswith(done) for m in server.messages(channel)):
            return True
        await asyncio.sleep(0.01)
    return False


def _moved_past(server: DiscordServer, users: tuple[int, ...], table: int, custom_id: str) -> bool:
    """True once some hand message offers a decision later than the one ``custom_id`` was for."""
    m = _ID.match(custom_id)
    assert m is not None
    old = int(m.group(2))
    for uid in users:
        _, ids = newest_buttons(server, uid, table)
        if ids and int(_ID.match(ids[0]).group(2)) > old:  # type: ignore[union-attr]
            return True
    return False


def test_sigkill_at_random_points_loses_nothing(tmp_path: Path, database: str) -> None:
    async def main() -> None:
        rng = random.Random(20261123)
        # Discord's limits with every window divided by 10: eight games one after another in one
        # channel would otherwise spend most of the run waiting on the channel's 5 messages per 5 s
        server = DiscordServer(time_scale=10)
        await server.start()
        guild = server.add_guild("Restart club", channels=("mahjong",))
        channel = guild.channel_ids[0]
        alice = server.add_user("alice", guilds=[guild.id])
        bob = server.add_user("bob", guilds=[guild.id])
        db = tmp_path / "jantaku.sqlite3"
        url = database if is_url(database) else ""  # SQLite and PostgreSQL
        bot = BotProcess(server, guild.id, db, url)
        await bot.start()
        stale_checked = 0
        kills = 0
        lags: list[str] = []
        try:
            await server.wait_for_commands(["table"], guild.id, timeout=30)
            # one game after another (live and async alternate); each is killed at three random
            # points, every 4th game at four (a tonpuu takes the two humans well over 60 presses)
            for game_no in range(1, GAMES + 1):
                mode = "live" if game_no % 2 else "async"
                await (await server.slash(alice.id, guild.id, channel, "table open", {"length": "tonpuu", "mode": mode})).reply()
                await (await server.slash(bob.id, guild.id, channel, "table join", {"table": game_no})).reply()
                await (await server.slash(alice.id, guild.id, channel, "table add-ai", {"seats": 2, "table": game_no})).reply()
                await (await server.slash(alice.id, guild.id, channel, "table start", {"table": game_no})).reply()
                kill_at = sorted(rng.sample(range(2, 60), 4 if game_no % 4 == 0 else 3))
                clicks = 0
                eph: tuple[int, int, str] | None = None
                done = f"**Table #{game_no} final standings**"
                for _ in range(20000):
                    if any(m.content.startswith(done) for m in server.messages(channel)):
                        break
                    if kill_at and clicks >= kill_at[0]:
                        kill_at.pop(0)
                        if eph is None and stale_checked < 8:
                            eph = await _ephemeral_buttons(server, channel, (alice, bob), [game_no])
                        await bot.kill()
                        kills += 1
                        await bot.start()
                        continue
                    if eph is not None and _moved_past(server, (alice.id, bob.id), game_no, eph[2]):
                        uid, eid, cid = eph
                        stale = await server.click(uid, eid, cid)
                        await server.wait_for(
                            lambda: [m for m in server.ephemeral(uid) if m.interaction_id == stale.id],  # noqa: B023
                            timeout=10,
                            what="the stale click reply",
                        )
                        texts = [m.content for m in server.ephemeral(uid) if m.interaction_id == stale.id]
                        assert texts[-1] in ("that turn has passed", "that game is over"), texts
                        stale_checked += 1
                        eph = None
                    moved = False
                    for user in (alice, bob):
                        mid, ids = newest_buttons(server, user.id, game_no)
                        if not ids:
                            continue
                        rec = await server.click(user.id, mid, ids[0])
                        with contextlib.suppress(Exception):
                            await rec.response()
                        clicks += 1
                        moved = True
                        if not await _hand_answers(server, user.id, game_no, ids, done, channel):
                            # the hand message lags behind the game: carry on through "Show my hand"
                            lags.append(f"game {game_no}, click {clicks}: {ids[0]}")
                            fresh = await _ephemeral_buttons(server, channel, (alice, bob), [game_no])
                            if fresh is not None:
                                uid, eid, cid = fresh
                                with contextlib.suppress(Exception):
                                    await (await server.click(uid, eid, cid)).response()
                        break
                    if not moved:
                        await asyncio.sleep(0.02)
                else:
                    raise AssertionError(f"game {game_no} did not finish")
            # every game ended exactly as it would have without the kills
            con = Stored(url or db)
            for tid in range(1, GAMES + 1):
                ruleset, options, seed, status = con.execute("SELECT ruleset, options, seed, status FROM tables WHERE id = ?", (tid,)).fetchone()
                assert status == "finished", (tid, status)
                ai = {s for (s,) in con.execute("SELECT seat FROM seats WHERE table_id = ? AND ai IS NOT NULL", (tid,))}
                stored = [a for (a,) in con.execute("SELECT action FROM actions WHERE table_id = ? ORDER BY serial", (tid,))]
                serials = [s for (s,) in con.execute("SELECT serial FROM actions WHERE table_id = ? ORDER BY serial", (tid,))]
                assert serials == list(range(len(serials))), f"table {tid}: a gap in the action log"
                import json

                by_user = dict(con.execute("SELECT user_id, seat FROM seats WHERE table_id = ? AND ai IS NULL", (tid,)).fetchall())
                ref = uninterrupted(ruleset, json.loads(options), seed, ai, [by_user[alice.id], by_user[bob.id]])
                want = _windows_sorted([a.text for a in ref.actions])
                stored = _windows_sorted(stored)
                if stored != want:
                    i = next((k for k, (x, y) in enumerate(zip(stored, want)) if x != y), min(len(stored), len(want)))
                    raise AssertionError(
                        f"table {tid}: the stored game differs from an uninterrupted one at action {i}: "
                        f"stored {stored[max(0, i - 6) : i + 3]} vs {want[max(0, i - 6) : i + 3]} (lengths {len(stored)}, {len(want)})"
                    )
                pts = sorted(p for (p,) in con.execute("SELECT points FROM game_players gp JOIN games g ON g.id = gp.game_id WHERE g.table_id = ?", (tid,)))
                assert pts == sorted(ref.final_scores), tid
                # every hand's result and the final standings were posted once each, in order,
                # across the kills (counted in storage; Discord's nonce covers a kill mid-send)
                posted = [n for m in server.messages(channel) if (n := str(m.nonce)).startswith(f"jr{tid}.") or n == f"jf{tid}"]
                assert posted == [f"jr{tid}.{i}" for i in range(len(ref.results))] + [f"jf{tid}"], (tid, posted)
            con.close()
            assert kills >= 3 * GAMES
            assert stale_checked >= 1
            print(f"{kills} kills, {stale_checked} stale presses checked, {len(lags)} times a hand message lagged")
            assert not lags, f"a hand message did not answer a press within {LAG_LIMIT:g} s: {lags}"
        finally:
            await bot.stop()
            await server.stop()

    asyncio.run(main())

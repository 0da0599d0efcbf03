"""Issue 29, Must show: a club built through Discord (the devserver with its limits on) on SQLite —
two seasons, house rules, a league of two in-person rounds (one with a stand-in), typed-in,
imported, score-sheet and bot games, a season penalty, a chombo and a league penalty, a voided
game, a bot game left half played, players' and the club's preferences — is copied by
``python -m bot db migrate-to`` (run as a user runs it, in a process of its own, the bot stopped)
into a fresh PostgreSQL database. The command says every check holds (a count line per table, equal
to both databases' own counts; the bot game replayed; every leaderboard equal); ``db check`` finds
nothing on the copy; the bot started again on that database answers ``/leaderboard`` and ``/stats``
(English, and Japanese for one player) and the other read commands with the same text as before,
and goes on: the half-played game to its end (stored, replaying to the scores shown, counted in its
season), new rows with the ids after the copied ones. A second copy into the now non-empty
database, and one into a database that does not exist, are refused in one sentence each, nothing
changed. Without a PostgreSQL server the test skips in one line (a failure under
``JANTAKU_REQUIRE_POSTGRES=1``).

The Summer leaderboard is also checked against a computation by hand; the rest is compared before
and after the copy (the point of the test), each answer checked to be a board or a player's lines,
never a refusal."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bot.client import JantakuBot
from tests.bot.harness import Club, club, make_organiser, stored_replay
from tests.bot.storage_fixture import rows
from tests.conftest import postgres_database

NAMES = ("org", "ann", "ben", "cat", "dan")
ROOT = Path(__file__).resolve().parents[2]


async def _say(c: Club, who: str, name: str, options: dict[str, Any] | None = None, *, locale: str = "en-US") -> str:
    """The whole answer's text (a deferred answer: its follow-up)."""
    rec = await c.server.slash(c.users[who].id, c.guild_id, c.channel_id, name, options or {}, locale=locale)
    await rec.reply(timeout=60)
    for _ in range(400):
        text = "\n".join(c.replies(rec))
        if text and "is thinking" not in text:
            return text
        await asyncio.sleep(0.05)
    raise AssertionError(f"/{name}: no answer")


def _opts(c: Club, names: tuple[str, ...], scores: tuple[int, ...], **more: Any) -> dict[str, Any]:
    out: dict[str, Any] = dict(more)
    for i, (n, s) in enumerate(zip(names, scores, strict=True), 1):
        out[f"p{i}"], out[f"s{i}"] = f"<@{c.users[n].id}>", s
    return out


async def _clicks(c: Club, table: int, clicks: int | None = None) -> None:
    """org presses the first live button of the table's newest hand message, ``clicks`` times or
    until the game is over."""
    t = c.bot.service.tables[table]
    loop = asyncio.get_running_loop()
    until = loop.time() + 90
    done = 0
    while not (t.game is not None and t.game.over) and (clicks is None or done < clicks):
        assert loop.time() < until, f"table #{table}: the game did not go on"
        mid, live = c.live_buttons("org", table)
        if live:
            rec = await c.server.click(c.users["org"].id, mid, live[0])
            await rec.response()
            assert not rec.errors, rec.errors
            done += 1
        else:
            await asyncio.sleep(0.01)


#: what is read before and after the copy: (who asks, command, options by name, locale)
def _questions(c: Club) -> list[tuple[str, str, dict[str, Any], str]]:
    ids = {n: c.users[n].id for n in NAMES}
    out: list[tuple[str, str, dict[str, Any], str]] = []
    for season in ("Spring", "Summer", "Night"):
        for by in ("points", "rating", "placement"):
            out.append(("ann", "leaderboard", {"season": season, "by": by}, "en-US"))
        for who in {"Spring": ("ann", "ben", "org"), "Summer": ("ann", "ben", "org"), "Night": ("ann", "ben", "dan")}[season]:
            out.append(("dan", "stats", {"player": ids[who], "season": season}, "en-US"))
    out.append(("cat", "leaderboard", {"season": "Spring"}, "ja"))
    out.append(("cat", "stats", {"season": "Spring"}, "ja"))
    out.append(("cat", "stats", {"season": "Night"}, "ja"))
    out.append(("ann", "season penalties", {"season": "Spring"}, "en-US"))
    out.append(("org", "season list", {}, "en-US"))
    out.append(("org", "league status", {"league": "Night"}, "en-US"))
    out.append(("org", "result audit", {}, "en-US"))
    out.append(("org", "season penalties", {"season": "Night"}, "en-US"))
    out.append(("ann", "house show", {"name": "quick"}, "en-US"))
    out.append(("ann", "house list", {}, "en-US"))
    out.append(("ann", "prefs tiles", {}, "en-US"))  # her own choice, and the club's
    out.append(("org", "prefs club_language", {}, "en-US"))
    return out


async def _read(c: Club) -> list[str]:
    return [await _say(c, who, name, opts, locale=loc) for who, name, opts, loc in _questions(c)]


async def _build(c: Club, shared: Path) -> None:
    """The scripted club, every step through a slash command or a button."""
    ids = {n: c.users[n].id for n in NAMES}
    await make_organiser(c, "org")
    said = await _say(c, "org", "house new", {"name": "quick", "base": "riichi"})
    assert "quick" in said, said
    said = await _say(c, "org", "house set", {"name": "quick", "option": "kuitan", "value": "false"})
    assert "kuitan" in said.lower() or "open tanyao" in said.lower(), said

    # ---- season 1 (Tenhou rules): typed-in results, one voided, an imported log, a bot game, a penalty
    said = await _say(c, "org", "season start", {"name": "Spring", "ruleset": "tenhou"})
    assert "Spring" in said, said
    four = ("ann", "ben", "cat", "dan")
    said = await _say(c, "ann", "result add", _opts(c, four, (40000, 30000, 20000, 10000)))
    assert "recorded in the season 'Spring'" in said, said
    said = await _say(c, "ann", "result add", _opts(c, four, (15000, 25000, 35000, 25000)))
    void_id = int(re.search(r"Game #(\d+) recorded", said)[1])  # type: ignore[index]
    said = await _say(c, "ben", "result add", _opts(c, ("ben", "cat", "dan", "org"), (52000, 21000, 17000, 10000)))
    assert "recorded" in said, said
    said = await _say(c, "org", "result void", {"game": void_id, "reason": "typed twice"})
    assert f"Game #{void_id} is void" in said, said
    log = sorted(p for p in (shared / "data" / "logs" / "tenhou6_json").rglob("*.json") if p.is_file())[0]
    names = ", ".join(f"{w}=<@{ids[n]}>" for w, n in zip("ESWN", four, strict=True))
    said = await _say(c, "org", "result import", {"file": (log.name, log.read_bytes()), "names": names})
    assert re.search(r"Game #\d+ imported", said), said
    # a bot game under the season's rules: org against three AI seats, to the end
    await _say(c, "org", "table open", {"length": "tonpuu", "ruleset": "tenhou"})
    await _say(c, "org", "table add-ai", {"seats": 3})
    await _say(c, "org", "table start", {})
    await c.started()
    await _clicks(c, 1)
    await c.server.wait_for(
        lambda: rows(c.db, "SELECT COUNT(*) FROM games WHERE source = 'bot'")[0][0] == 1 or None, timeout=30, what="the bot game's record"
    )
    said = await _say(c, "org", "season penalty", {"player": f"<@{ids['ben']}>", "reason": "late for the start", "points": 5})
    assert said == "ben loses 5 points in 'Spring': late for the start.", said
    said = await _say(c, "org", "season penalty", {"player": f"<@{ids['cat']}>", "reason": "wrong tsumo", "chombo": True})
    assert "for a chombo" in said, said
    said = await _say(c, "org", "season end", {"season": "Spring"})
    assert "has ended" in said, said

    # ---- season 2 under the house rules, and a league of two in-person rounds (its own season)
    said = await _say(c, "org", "season start", {"name": "Summer", "house": "quick"})
    assert "Summer" in said, said
    said = await _say(c, "cat", "result add", _opts(c, ("org", "ann", "cat", "dan"), (33000, 31000, 26000, 10000)))
    assert "recorded in the season 'Summer'" in said, said
    # a game at a real table kept on a score sheet (Summer): E1 ann ron off ben, 3 han 30 fu = 3,900;
    # E2 ann deals and rons ben for a yakuman, 48,000: ben at 21,100 - 48,000 is below zero, the game ends
    mention = {n: f"<@{ids[n]}>" for n in NAMES}
    said = await _say(c, "org", "sheet start", {"p1": mention["org"], "p2": mention["ann"], "p3": mention["ben"], "p4": mention["dan"], "house": "quick", "season": "Summer"})
    assert "Score sheet #1 is open" in said, said
    said = await _say(c, "ann", "sheet ron", {"winner": mention["ann"], "loser": mention["ben"], "han": 3, "fu": 30})
    assert "ann +3,900" in said and "ben -3,900" in said, said
    said = await _say(c, "ann", "sheet ron", {"winner": mention["ann"], "loser": mention["ben"], "han": 13})
    assert "The game is over." in said, said
    # a bot game under the house rules left half played: it goes on after the copy
    said = await _say(c, "org", "table open", {"length": "tonpuu", "house": "quick", "turn_timer": 600})
    assert "Table #2 is open" in said, said
    await _say(c, "org", "table add-ai", {"seats": 3, "table": 2})
    await _say(c, "org", "table start", {"table": 2})
    await c.started(2)
    await _clicks(c, 2, 8)
    said = await _say(c, "org", "league new", {"name": "Night", "rounds": 2, "mode": "in_person", "house": "quick"})
    assert "League 'Night' is open" in said, said
    for p in four:
        await _say(c, p, "league join")
    for number, scores in ((1, (45000, 25000, 20000, 10000)), (2, (26000, 25000, 25000, 24000))):
        said = await _say(c, "org", "league round")
        assert f"Round {number} of 'Night' is open" in said, said
        (seats,) = rows(c.db, f"SELECT seats FROM league_tables WHERE round = {number}")[0]
        by_key = {f"u:{ids[n]}": n for n in NAMES}
        table = tuple(by_key[k] for k in json.loads(seats))
        played = table
        if number == 1:  # a no-show: org stands in for the West seat; the result stays the absent member's
            absent = table[2]
            said = await _say(c, "org", "league substitute", {"table": 1, "absent": ids[absent], "member": ids["org"]})
            assert f"org plays {absent}'s seat at table 1" in said, said
            played = (table[0], table[1], "org", table[3])
        said = await _say(c, "ann", "result add", _opts(c, played, scores, season="Night", seat_order=True))
        assert "recorded in the season 'Night'" in said, said
        if number == 1:
            said = await _say(c, "org", "league penalty", {"points": 10, "reason": "slow play", "member": ids["dan"]})
            assert "dan loses 10 points in 'Night'" in said, said
        over = f"round {number} of 2 is over"
        await c.server.wait_for(
            lambda over=over: next((m for m in c.server.messages(c.channel_id) if over in m.content), None), timeout=30, what=over,
        )
    # preferences: ann's own tile style, the club's tile style and its language
    said = await _say(c, "ann", "prefs tiles", {"style": "faces"})
    assert "faces" in said, said
    await _say(c, "org", "prefs club_tiles", {"style": "letters"})
    await _say(c, "org", "prefs club_language", {"language": "ja"})


def _stored(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the tables a copy would write to, in a fixed order."""
    return {name: sorted(rows(url, f"SELECT * FROM {name}"), key=repr) for name in (
        "tables", "actions", "games", "game_players", "seasons", "standings", "season_penalties", "leagues", "league_rounds", "house_rules",
    )}


def _command(*args: str, url: str = "") -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` in a process of its own, as a user runs it (``DATABASE_URL=url`` if given)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATABASE_PATH")}
    if url:
        env["DATABASE_URL"] = url
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def _migrate(db: Path, url: str) -> subprocess.CompletedProcess[str]:
    return _command("db", "--database", str(db), "migrate-to", url)


async def _start(c: Club, url: str) -> asyncio.Task[None]:
    """The bot again, on the same Discord server, now on the PostgreSQL database at ``url``."""
    c.bot = JantakuBot(dataclasses.replace(c.bot.settings, database_url=url))
    task = asyncio.create_task(c.bot.start(c.bot.settings.token))
    await c.server.wait_for(lambda: c.bot.is_ready() or None, timeout=120, what="the bot on PostgreSQL")
    await c.server.wait_for(lambda: getattr(c.bot, "presenter", None), timeout=30, what="the cogs")
    await c.server.wait_for_commands(["leaderboard", "stats"], c.guild_id, timeout=10)
    return task


def test_a_club_built_through_discord_reads_the_same_after_migrate_to(tmp_path: Path, shared_dir: Path) -> None:
    for url in postgres_database():  # skips in one line without a server (fails under JANTAKU_REQUIRE_POSTGRES=1)
        async def main(url: str = url) -> None:
            async with club(tmp_path, names=NAMES, time_scale=25) as c:
                await c.server.wait_for_commands(["season", "result", "table", "league", "house"], c.guild_id, timeout=10)
                await _build(c, shared_dir)
                assert rows(c.db, "SELECT source, status, COUNT(*) FROM games GROUP BY source, status ORDER BY 1, 2") == [
                    ("bot", "ok", 1), ("import", "ok", 1), ("manual", "ok", 5), ("manual", "void", 1), ("sheet", "ok", 1)
                ]
                before = await _read(c)
                # every answer a text of its own: a board, or a player's line; none a refusal
                assert len(set(before)) == len(before), before
                for (_, name, _, _), text in zip(_questions(c), before, strict=True):
                    assert "**" in text or name not in ("leaderboard", "stats"), text
                # Summer by hand (riichi under the house rules: 30,000 return, uma +20/+10/-10/-20, oka 20 to first):
                # ann 31,000 → +1 +10 = +11.0, and 76,900 on the sheet → +46.9 +20 +20 = +86.9: +97.9;
                # org 33,000 → +3 +20 +20 = +43.0, and 25,000 (second by seat) → -5 +10: +48.0; ben -26,900 → -56.9 -20 = -76.9
                summer = before[6]  # the first Summer question (each season: 3 boards, 3 players)
                assert summer.startswith("**Summer** — ranked by points"), summer
                for line in ("1. ann · **+97.9** · 2 games", "2. org · **+48.0** · 2 games", "3. cat · **-14.0** · 1 game",
                             "4. dan · **-55.0** · 2 games", "5. ben · **-76.9** · 1 game"):
                    assert line in summer.splitlines(), summer
                assert before[-9].startswith("Penalties in 'Spring':\n"), before[-9]
                assert "faces" in before[-2] and "as this club's do" not in before[-2], before[-2]  # her own, not the club's letters
                assert "日本語" in before[-1], before[-1]
                # the bot stops; the user copies its file
                await c.bot.close()
                done = await asyncio.to_thread(_migrate, c.db, url)
                out = done.stdout.splitlines()
                assert done.returncode == 0, (done.stdout, done.stderr)
                assert out[-1] == "the copy checks out", out
                assert "1 bot game(s) replayed to their stored scores" in out, out
                assert "9 leaderboard(s) read the same" in out, out  # 3 seasons x points, rating, placement
                # a count line for every table of the file, equal to the file's and to PostgreSQL's own count
                counted = {m[1]: int(m[2]) for m in map(re.compile(r"(\w+): (\d+) row\(s\)$").match, out) if m}
                tables = {r[0] for r in rows(c.db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
                assert set(counted) == tables - {"schema_version"}, (counted, tables)
                for name, n in counted.items():
                    assert rows(c.db, f"SELECT COUNT(*) FROM {name}") == rows(url, f"SELECT COUNT(*) FROM {name}") == [(n,)], name
                for name in ("games", "game_players", "seasons", "standings", "season_penalties", "leagues", "league_rounds",
                             "league_penalties", "house_rules", "actions", "sheets", "sheet_entries", "audit_log"):
                    assert counted[name] > 0, name  # the club left rows in each
                # the copy passes `db check` as the bot would open it (DATABASE_URL set): no damaged row,
                # every stored log (the half-played game's too) legal move by move
                checked = await asyncio.to_thread(_command, "db", "check", url=url)
                assert checked.returncode == 0 and checked.stdout.splitlines() == ["0 problem row(s)"], (checked.stdout, checked.stderr)
                runner = await _start(c, url)
                try:
                    after = await _read(c)
                    for q, a, b in zip(_questions(c), before, after, strict=True):
                        assert a == b, (q, a, b)
                    # and it goes on from there: the half-played game to its end, stored on PostgreSQL and
                    # replaying to the scores the bot showed; new rows take the ids after the copied ones
                    await _clicks(c, 2)
                    game = c.bot.service.tables[2].game
                    assert game is not None and game.over
                    await c.server.wait_for(
                        lambda: rows(url, "SELECT COUNT(*) FROM games WHERE source = 'bot'")[0][0] == 2 or None, timeout=30,
                        what="the second bot game's record",
                    )
                    (last_game,) = rows(c.db, "SELECT MAX(id) FROM games")[0]
                    assert rows(url, "SELECT id FROM games WHERE table_id = 2") == [(last_game + 1,)]
                    # played under Summer's house rules, it counts in Summer (the season as read from PostgreSQL)
                    assert rows(url, "SELECT s.name FROM games g JOIN seasons s ON s.id = g.season_id WHERE g.table_id = 2") == [("Summer",)]
                    last_game += 1
                    row, replay = await stored_replay(url, 2)
                    assert replay.over and replay.final_scores == game.final_scores
                    assert [p for (p,) in rows(url, "SELECT points FROM game_players gp JOIN games g ON g.id = gp.game_id WHERE g.table_id = 2 ORDER BY seat")] == list(game.final_scores)
                    said = await _say(c, "dan", "result add", _opts(c, ("dan", "ben", "ann", "cat"), (30000, 30000, 25000, 15000)))
                    assert f"Game #{last_game + 1} recorded in the season 'Summer'" in said, said
                    (last_table,) = rows(c.db, "SELECT MAX(id) FROM tables")[0]
                    said = await _say(c, "ben", "table open", {"length": "tonpuu"})
                    assert f"Table #{last_table + 1} is open" in said, said
                finally:
                    await c.bot.close()
                    runner.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await runner
                # a second copy into the (now non-empty) database: one sentence, nothing written
                stored = _stored(url)
                again = await asyncio.to_thread(_migrate, c.db, url)
                lines = again.stdout.splitlines()
                assert again.returncode == 1 and len(lines) == 1, (again.stdout, again.stderr)
                assert lines[0].startswith("not copied: the PostgreSQL database is not empty"), lines
                assert _stored(url) == stored
                # a database name with a typo: one sentence, no traceback
                typo = await asyncio.to_thread(_migrate, c.db, url + "_typo")
                name, host = url.rsplit("/", 1)[1] + "_typo", urlsplit(url).hostname
                assert typo.returncode == 1 and typo.stdout.splitlines() == [
                    f'not copied: the PostgreSQL database {name} at {host} cannot be opened (database "{name}" does not exist)'
                ], (typo.stdout, typo.stderr)

        asyncio.run(main())

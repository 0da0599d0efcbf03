"""Issue 30, Japanese: every answer of the league flows (a new league in person and async, joining, a
round, a no-show's stand-in, a bot table's substitute and the swap back, typed-in results, the
status, the round's post, a penalty, the refusals of finding 6) read by players whose Discord locale
is ``ja`` (and a club whose language is Japanese) holds no English word of ours: once the players'
own words are taken out (their names, the league's name, mentions and times, the ruleset's id they
type), no Latin word is left."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

from tests.bot.harness import Club, club, make_organiser, rows

NAMES = ("org", "pa", "pb", "pc", "pd", "stand")
JA = "ja"
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
DATA = [*NAMES, "riichi", "none", "openskill", "kiriage", "uma", "true", "false", "maybe"]  # what players type: names, ids, option keys, values


def _english(text: str) -> list[str]:
    # mentions, times, typed code, and the commands a sentence points at (/result add: what is typed)
    text = re.sub(r"<[@#t][^>]*>|`[^`]*`|/[a-z_]+(?: [a-z_-]+)?(?: [a-z_]+:\S*)?", " ", text)
    for d in sorted(DATA, key=len, reverse=True):
        text = re.sub(rf"(?<![A-Za-z]){re.escape(d)}(?![A-Za-z])", " ", text)
    return _LATIN_WORD.findall(text)


async def _ask(c: Club, who: str, name: str, options: dict[str, Any] | None = None) -> str:
    rec = await c.server.slash(c.users[who].id, c.guild_id, c.channel_id, name, options or {}, locale=JA)
    await rec.reply(timeout=60)
    for _ in range(200):
        text = "\n".join(c.replies(rec))
        if text and "is thinking" not in text and "考え中" not in text:
            break
        await asyncio.sleep(0.05)
    assert text, (name, options)
    return text


def test_the_league_flows_in_japanese(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path, names=NAMES, time_scale=25) as c:
            await make_organiser(c, "org")
            ids = {n: c.users[n].id for n in NAMES}
            said: list[tuple[str, str]] = []

            async def ask(who: str, name: str, options: dict[str, Any] | None = None) -> str:
                text = await _ask(c, who, name, options)
                said.append((name, text))
                return text

            await ask("org", "prefs club_language", {"language": "ja"})
            await ask("org", "season start", {"name": "通常", "ruleset": "riichi"})
            await ask("org", "league new", {"name": "夜会", "rounds": 1, "mode": "in_person", "ruleset": "riichi"})
            await ask("org", "league new", {"name": "短い", "rounds": 1, "mode": "async", "ruleset": "riichi", "hours": 48, "round_hours": 6})
            for p in ("pa", "pb", "pc", "pd"):
                await ask(p, "league join", {"league": "夜会"})
            await ask("org", "league round", {"league": "夜会"})
            seats = json.loads(rows(c.db, "SELECT seats FROM league_tables")[0][0])
            absent = next(n for n in NAMES if f"u:{ids[n]}" == seats[3])
            await ask("org", "league substitute", {"table": 1, "absent": ids[absent], "member": ids["stand"], "league": "夜会"})
            await ask("org", "league substitute", {"table": 2, "absent": ids[absent], "member": ids["stand"], "league": "夜会"})
            await ask("org", "league status", {"league": "夜会"})
            opts: dict[str, Any] = {"season": "夜会"}
            for i, (k, s) in enumerate(zip(seats, (45000, 25000, 20000, 10000), strict=True), 1):
                opts[f"p{i}"], opts[f"s{i}"] = f"<@{ids['stand'] if k == f'u:{ids[absent]}' else k[2:]}>", s
            wrong = dict(opts, season=None)
            del wrong["season"]
            await ask("pa", "result add", wrong)  # to the club's default season, named in the answer
            await ask("pa", "result add", dict(opts, p1=f"<@{ids['org']}>"))  # refused: not a table of the round
            await ask("pa", "result add", opts)
            post = await c.server.wait_for(
                lambda: next((m.content for m in c.server.messages(c.channel_id) if "第1" in m.content and "夜会" in m.content
                              and "ランキング" in m.content), None), timeout=30, what="the round's post",
            )
            said.append(("round post", post))
            await ask("org", "league penalty", {"member": ids["pb"], "points": 5, "reason": "遅刻", "league": "夜会"})
            await ask("org", "house new", {"name": "家", "base": "riichi"})
            await ask("org", "house set", {"name": "家", "option": "kiriage", "value": "maybe"})
            await ask("org", "house set", {"name": "家", "option": "uma", "value": "10,10,10,10"})
            for name, text in said:
                assert not _english(text), (name, text, _english(text))
            # the DMs a player with a Japanese locale was sent
            for m in c.server.dms(ids[absent]):
                assert not _english(m.content), m.content

    asyncio.run(main())

"""Issue 30, finding 5, through Discord (the devserver with its limits on): ``/rule house:<name>``
shows each changed rule as the club plays it, not the standard text it replaces (kiriage and uma,
in English and in Japanese), and the ``ema`` and ``wrc`` presets are described option by option by
``/rule`` and ``/house show``.

Expected values from the rulebooks, not from our output: kiriage rounds 4 han 30 fu (7,700) up to a
mangan, 8,000 (riichi.md R-10.2); EMA 2016 and WRC 2015/2022 start at 30,000 with a return of 30,000
(no oka), uma +15/+5/−5/−15, no red fives; WRC plays head bump; the chombo penalties are 20,000 (EMA)
and 30,000 (WRC) off the final result, as engine/rules/options.py quotes the books."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from tests.bot.harness import Club, club, make_organiser

_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


async def _ask(c: Club, who: str, name: str, options: dict[str, Any], *, locale: str = "en-US") -> str:
    rec = await c.server.slash(c.users[who].id, c.guild_id, c.channel_id, name, options, locale=locale)
    msg = await rec.reply(timeout=60)
    assert msg is not None and not rec.errors, rec
    return "\n".join([msg.content or "", *(str(e.get("title") or "") + "\n" + str(e.get("description") or "") for e in msg.embeds)])


def test_house_rules_and_presets_read_as_they_are_played(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path, names=("alice", "bob")) as c:
            await make_organiser(c, "alice")
            await _ask(c, "alice", "house new", {"name": "club", "base": "riichi"})
            await _ask(c, "alice", "house set", {"name": "club", "option": "kiriage", "value": "true"})
            await _ask(c, "alice", "house set", {"name": "club", "option": "uma", "value": "30,10,-10,-30"})

            text = await _ask(c, "bob", "rule", {"house": "club"})
            assert "4 han 30 fu and 3 han 60 fu are scored as a mangan, 8,000" in text, text
            assert "Uma: +30/+10/−10/−30" in text, text
            # the standard texts that say the opposite are gone
            assert "4 han 30 fu stays 7,700" not in text and "+20 / +10 / −10 / −20" not in text, text

            ja = await _ask(c, "bob", "rule", {"house": "club"}, locale="ja")
            assert "切り上げ満貫" in ja and "8,000点" in ja and "ウマ：+30/+10/−10/−30" in ja, ja
            assert "4翻30符は7,700点のままです" not in ja and "+20/+10/−10/−20" not in ja, ja
            # no English word of ours: what the user types (option keys, values, the ruleset's id, the profile's name) aside
            bare = re.sub(r"`[^`]*`|\b(true|false|riichi|club)\b", " ", ja)
            assert not _LATIN_WORD.findall(re.sub(r"R-[\d.]+", " ", bare)), _LATIN_WORD.findall(bare)

            # the presets, option by option: /rule ruleset:ema|wrc and /house show ema|wrc
            ema = await _ask(c, "bob", "rule", {"ruleset": "ema"})
            for said in ("Each player starts with 30,000 points and 30,000 are returned at the end: no oka.", "Uma: +15/+5/−5/−15",
                         "No red fives", "Chombo: the offender loses 20,000 points off their final result, after uma", "double and triple ron are played",
                         "No bust"):
                assert said in ema, (said, ema)
            wrc = await _ask(c, "bob", "house show", {"name": "wrc"})
            for said in ("Head bump (atamahane)", "Kiriage mangan", "Chombo: the offender loses 30,000 points off their final result, after uma", "Uma: +15/+5/−5/−15"):
                assert said in wrc, (said, wrc)
            assert "unchanged" not in wrc
            # house rules made from a preset say what the preset itself plays
            await _ask(c, "alice", "house new", {"name": "euro", "base": "ema"})
            euro = await _ask(c, "bob", "house show", {"name": "euro"})
            assert "Uma: +15/+5/−5/−15" in euro and "Chombo: the offender loses 20,000 points" in euro, euro
            ja_wrc = await _ask(c, "bob", "rule", {"ruleset": "wrc"}, locale="ja")
            assert "頭ハネ" in ja_wrc and "30,000点" in ja_wrc, ja_wrc
            assert not _LATIN_WORD.findall(re.sub(r"R-[\d.]+|WRC|EMA|multi_ron|triple", " ", ja_wrc)), _LATIN_WORD.findall(ja_wrc)

    asyncio.run(main())

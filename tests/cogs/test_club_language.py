"""Issue 21, "Japanese": a club in Japanese, through Discord (the local Discord-protocol server and a
real SQLite file).

A ``ja`` organiser makes and changes house rules and reads every answer in Japanese; ``/prefs
club_language`` is refused to a non-organiser in one sentence, sets the club's language for an
organiser, is stored and read back by a restarted bot; a league post in that club's channel is then
in Japanese while the English-speaking organiser's own answers stay English.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from pathlib import Path
from typing import Any

from bot import i18n
from bot.client import JantakuBot
from engine.rules.catalog import find_spec, show_value
from tests.bot.harness import Club, club, make_organiser
from tests.bot.harness import rows as _rows

JA_CHARS = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


async def _organiser(c: Club, who: str = "alice") -> None:
    await make_organiser(c, who)


async def _ask(c: Club, who: str, name: str, options: dict[str, Any] | None = None, *, locale: str = "en-US") -> Any:
    """The one message the command's asker sees (a deferred answer: its follow-up)."""
    rec = await c.server.slash(c.users[who].id, c.guild_id, c.channel_id, name, options or {}, locale=locale)
    await rec.reply(timeout=60)
    for _ in range(200):
        msgs = [m for m in c.server.visible_to(rec.user_id) if m.interaction_id == rec.id and "is thinking" not in m.content]
        if msgs:
            assert len(msgs) == 1, [m.content for m in msgs]
            return msgs[0]
        await asyncio.sleep(0.05)
    raise AssertionError(f"/{name}: no answer")


def _one_sentence(m: Any) -> str:
    text = str(m.content)
    assert m.ephemeral, text
    assert "\n" not in text and "Something went wrong" not in text and "Traceback" not in text, text
    assert text.endswith((".", "。")) and not re.search(r"[.。]\s*\S", text[:-1]), f"one sentence: {text!r}"
    return text


def test_a_ja_organiser_makes_house_rules_and_reads_japanese(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            await c.server.wait_for_commands(["house"], c.guild_id, timeout=10)
            await _organiser(c)
            made = await _ask(c, "alice", "house new", {"name": "club", "base": "riichi"}, locale="ja")
            assert not made.ephemeral
            assert made.content == i18n.t(
                "ja", "House rules **{name}** made from {base}: change an option with `/house set name:{name} option:… value:…`, "
                "see them with `/house show`.", name="club", base="riichi",
            )
            assert "ハウスルール" in made.content and "made from" not in made.content

            changed = await _ask(c, "alice", "house set", {"name": "club", "option": "kuitan", "value": "false"}, locale="ja")
            p = await c.bot.house.get(c.guild_id, "club")
            spec = find_spec(p.rules, "kuitan")
            assert spec.value is False  # stored: the change itself
            rule = f" ({spec.rule})" if spec.rule else ""
            assert changed.content == i18n.t(
                "ja", "House rules **{name}**: `{key}` is now **{value}**{rule} (usually {usual}). Tables opened from now on play it; "
                "games already open keep their rules.", name="club", key="kuitan", value="false", rule=rule, usual=show_value(spec.default),
            )
            assert "標準は" in changed.content

            listed = await _ask(c, "bob", "house list", {}, locale="ja")
            assert listed.content == "**club** — riichi、変更1件", listed.content
            made_default = await _ask(c, "alice", "house default", {"name": "club"}, locale="ja")
            assert "ハウスルールにしました" in made_default.content
            listed = await _ask(c, "bob", "house list", {}, locale="ja")
            assert listed.content == "**club**（クラブの既定）— riichi、変更1件", listed.content

            # refusals: the service's (a name taken) and the organisers' check, each one Japanese sentence
            taken = _one_sentence(await _ask(c, "alice", "house new", {"name": "CLUB", "base": "tenhou"}, locale="ja"))
            assert taken == i18n.t("ja", "this club already has house rules called '{name}'", name="CLUB") + "。"
            assert "すでに" in taken
            missing = _one_sentence(await _ask(c, "alice", "house show", {"name": "nope"}, locale="ja"))
            assert "「nope」というハウスルールはありません" in missing
            assert JA_CHARS.search(_one_sentence(await _ask(c, "bob", "house delete", {"name": "club"}, locale="ja")))

            # the same commands asked in English stay English
            en = await _ask(c, "bob", "house list", {})
            assert en.content == "**club** (the club's default) — riichi with 1 change", en.content
            deleted = await _ask(c, "alice", "house delete", {"name": "club"}, locale="ja")
            assert deleted.content == "ハウスルール **club** を削除しました。これで始まった卓とシーズンはそのルールのままです。"
            assert _rows(c.db, "SELECT COUNT(*) FROM house_rules") == [(0,)]

    asyncio.run(main())


def test_club_language_is_for_organisers_survives_a_restart_and_makes_league_posts_japanese(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path, names=("alice", "bob", "p01", "p02", "p03"), time_scale=25) as c:
            await c.server.wait_for_commands(["prefs", "league"], c.guild_id, timeout=10)
            # nobody chose: English, and a non-organiser may not change it
            shown = await _ask(c, "bob", "prefs club_language", {})
            assert shown.ephemeral and shown.content.startswith("only an organiser"), shown.content
            refused = _one_sentence(await _ask(c, "bob", "prefs club_language", {"language": "ja"}))
            assert refused.startswith("only an organiser") and "choose the club's language" in refused, refused
            assert _rows(c.db, "SELECT language FROM club_settings") in ([], [(None,)])
            refused_ja = _one_sentence(await _ask(c, "bob", "prefs club_language", {"language": "ja"}, locale="ja"))
            assert "クラブの言語を選ぶ" in refused_ja, refused_ja

            await _organiser(c)
            now = await _ask(c, "alice", "prefs club_language", {})
            assert "are in English" in now.content, now.content
            done = await _ask(c, "alice", "prefs club_language", {"language": "ja"})
            assert not done.ephemeral and done.content == (
                "This club's shared messages (tables, league posts) are now in 日本語; each reply stays in its asker's language."
            )
            assert _rows(c.db, "SELECT guild_id, language FROM club_settings") == [(c.guild_id, "ja")]

            # a restarted bot reads it from the file
            await c.bot.close()
            c.bot = JantakuBot(c.bot.settings)
            runner = asyncio.create_task(c.bot.start(c.bot.settings.token))
            try:
                await c.server.wait_for(lambda: c.bot.is_ready() or None, timeout=120, what="the restarted bot")
                await c.server.wait_for(lambda: getattr(c.bot, "presenter", None), timeout=30, what="the cogs")
                assert await c.bot.locales.of_club(c.guild_id) == "ja"
                asked = await _ask(c, "alice", "prefs club_language", {}, locale="ja")
                assert asked.content == i18n.t(
                    "ja", "This club's shared messages (tables, league posts) are in {language}. Change it with /prefs club_language language:…",
                    language="日本語",
                )

                # an in-person league: alice asks in English, the channel's post is the club's Japanese
                opened = await _ask(c, "alice", "league new", {"name": "Night", "rounds": 1, "mode": "in_person", "ruleset": "riichi",
                                                                "leftover": "bye"})
                assert "League 'Night' is open" in opened.content, opened.content
                for p in ("p01", "p02", "p03", "bob"):
                    await _ask(c, p, "league join", {})
                answer = await _ask(c, "alice", "league round", {})
                assert "Round 1 of 'Night' is open: 1 in-person table" in answer.content, answer.content
                posted = [m.content for m in c.server.messages(c.channel_id) if m.content.startswith("**Night**")]
                assert len(posted) == 1, posted
                head = i18n.t("ja", "**{league}**, round {number} (in person):", league="Night", number=1)
                assert posted[0].startswith(head + "\n") and "第1節（対面）" in head
                assert "round 1" not in posted[0] and "Table 1" not in posted[0] and "卓1: " in posted[0]
                # the status, asked in Japanese, is Japanese; closed now, the round's report is the club's
                status = await _ask(c, "bob", "league status", {}, locale="ja")
                assert "第1節の締め切りは" in status.content and "結果待ち" in status.content, status.content
                closed = await _ask(c, "alice", "league close", {})
                assert closed.content == "Round 1 of 'Night' is closed."
                report = await c.server.wait_for(
                    lambda: next((m for m in c.server.messages(c.channel_id) if "終了しました" in m.content), None), timeout=30,
                    what="the round's report",
                )
                assert report.content.startswith(i18n.t("ja", "**{league}** — round {number} of {rounds} is over.", league="Night", number=1,
                                                         rounds=1))
                assert "ランキング:" in report.content and "Leaderboard" not in report.content, report.content
            finally:
                with contextlib.suppress(Exception):
                    await c.bot.close()
                runner.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await runner

    asyncio.run(main())

"""``/score``, ``/shanten``, ``/rule`` and ``/stats`` in the asker's language (issue 21): a player
whose Discord locale is ``ja`` reads the Japanese catalog's texts (the embeds, the refusals, the
words drawn in the ``/score`` and ``/shanten`` pictures) and the Japanese rule text of every rule
id of the six rulesets; a player on ``en-US`` reads the English of before.

Expected values: the catalog entries (``i18n.t("ja", ...)``) filled with numbers from outside the
cog (riichi.md §15's worked example for ``/score``, the ``mahjong`` library for ``/shanten``, the
bundled rule files for ``/rule``), and Japanese words the catalog must contain (立直, 満貫, 符, 翻,
向聴), so that an English answer cannot pass.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from mahjong.shanten import Shanten

from bot import i18n
from bot.render.names import yaku_name
from bot.render.pictures import picture_texts
from bot.rules_text import RULESETS, rulebook
from bot.standings.service import StandingsError
from engine.notation import parse_hand
from engine.tiles import NotationError, counts_of, parse_tiles
from tests.bot.harness import Club, club, make_organiser

JA = "ja"
EN = "en-US"
#: riichi.md §15 v6: dealer tsumo, riichi + menzen tsumo + pinfu + dora 2 = 5 han, mangan, 4,000 all
V6 = "123456m789p55s67s tsumo 8s seat=E riichi dora=4s"
SHANTEN_HAND = "1234m5678p2399s1z"
BAD_HAND = "123m456p789s11q22z ron 2z"  # 'q' is no suit
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


async def _ask(c: Club, who: str, name: str, options: dict[str, Any], *, locale: str) -> Any:
    rec = await c.server.slash(c.users[who].id, c.guild_id, c.channel_id, name, options, locale=locale)
    await rec.reply(timeout=30)
    assert not rec.errors, rec.errors
    msg = rec.original
    assert msg is not None, rec
    return msg


def _png(msg: Any, name: str) -> bytes:
    att = {a.filename: a for a in msg.attachments}
    assert name in att, [a.filename for a in msg.attachments]
    return bytes(att[name].data)


def _lines(msg: Any) -> list[str]:
    return "\n".join(str(e.get("description") or "") for e in msg.embeds).splitlines()


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _shanten_of(tiles: str) -> int:
    return int(Shanten().calculate_shanten(counts_of(parse_tiles(tiles))))


def test_score_shanten_and_rule_answer_a_japanese_player_in_japanese(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JANTAKU_PICTURE_TEXT", "1")  # the pictures keep the words they draw

    def ja(msgid: str, **kw: Any) -> str:
        text = i18n.t("ja", msgid, **kw)
        assert text != msgid.format(**kw), msgid  # a Japanese entry, not the English fallback
        return text

    async def main() -> None:
        async with club(tmp_path) as c:
            await c.server.wait_for_commands(["score", "shanten", "rule"], c.guild_id, timeout=10)

            # /score: the title, the yaku lines, the total and the payments from the catalog
            msg = await _ask(c, "alice", "score", {"hand": V6}, locale=JA)
            value = ja("{value} ({limit})", value=ja("{han} han {fu} fu", han=5, fu=20), limit=ja("mangan"))
            total = ja("{value} = {points} points", value=value, points="12,000")
            title = ja("Tsumo {tile} — {total}", tile="8s", total=total)
            assert msg.embeds[0]["title"] == title and "満貫" in title and "符" in title and "翻" in title
            lines = _lines(msg)
            for key, han in (("riichi", 1), ("menzen_tsumo", 1), ("pinfu", 1), ("dora", 2)):
                assert f"{yaku_name(key, 'ja')}: {ja('{n} han', n=han)}" in lines, lines
            assert f"{yaku_name('riichi', 'ja')}: {ja('{n} han', n=1)}" == "立直: 1翻"
            assert f"**{total}**" in lines
            payments = ", ".join(
                f"{name} {amount:+,}"
                for name, amount in (
                    (ja("{seat} (winner)", seat=ja("East")), 12000), (ja("South"), -4000), (ja("West"), -4000), (ja("North"), -4000)
                )
            )
            assert ja("payments: {payments}", payments=payments) in lines
            assert not any(_LATIN_WORD.search(x) for x in lines[1:]), lines  # no English word under the hand line
            # ... and the words drawn in its picture
            drawn = picture_texts(_png(msg, "score.png"))
            assert title in drawn and total in drawn and ja("Dora indicators") in drawn
            footer = ja("ruleset {ruleset} · seat {seat} · round {round}", ruleset="リーチ麻雀", seat="東", round="東")
            assert footer in drawn
            assert not [x for x in drawn if x != footer and _LATIN_WORD.search(x)], drawn

            # /score refusal: a hand that is not complete
            msg = await _ask(c, "alice", "score", {"hand": "123456789m1234p ron 9p"}, locale=JA)
            first, _, caret = str(msg.content).partition("\n")
            assert msg.ephemeral and str(msg.content) == ja("That hand cannot win: it is not a complete hand.\n{caret}", caret=caret)
            assert "和了" in first

            # /score refusal: a hand the notation parser cannot read names the part to fix in Japanese
            # (the parser's own detail is English only), above the same caret an English player sees
            msg = await _ask(c, "alice", "score", {"hand": BAD_HAND}, locale=JA)
            first, _, caret = str(msg.content).partition("\n")
            assert msg.ephemeral and str(msg.content) == ja(
                "I could not read that hand: please check `{part}` (character {position}).\n{caret}",
                part="123m456p789s11q22z", position=BAD_HAND.index("q") + 1, caret=caret,
            )
            assert "読み取れませんでした" in first and "確認してください" in first and not _LATIN_WORD.search(first.replace(BAD_HAND.split()[0], ""))
            msg = await _ask(c, "alice", "score", {"hand": "123m456p789s1122z ron"}, locale=JA)
            assert "書き方を確認してください" in str(msg.content) and "winning tile" not in str(msg.content)

            # /shanten: the title, the ukeire line, the picture's title and rows
            sh = _shanten_of(SHANTEN_HAND)
            msg = await _ask(c, "alice", "shanten", {"tiles": SHANTEN_HAND}, locale=JA)
            head = ja("{n}-shanten", n=sh) if sh > 0 else ja("tenpai")
            assert msg.embeds[0]["title"] == ja("{shanten} ({n} tiles)", shanten=head, n=13) and "向聴" in head
            ukeire = re.compile(
                re.escape(ja("ukeire: {amount} — {tiles}", amount="@", tiles="@")).replace("@", ".+", 1).replace("@", ".+")
            )
            assert any(ukeire.fullmatch(x) and "種" in x for x in _lines(msg)), _lines(msg)
            drawn = picture_texts(_png(msg, "shanten.png"))
            assert ja("{shanten} ({n} tiles) — ruleset {ruleset}", shanten=head, n=13, ruleset="リーチ麻雀") in drawn
            rows = [x for x in drawn if " · " in x]
            assert rows and all(x.startswith(head) and "種" in x and "枚" in x for x in rows), drawn

            # /rule: the list of every ruleset, and every rule id of every ruleset, in Japanese
            for rs in RULESETS:
                en_book, ja_book = rulebook(rs), rulebook(rs, "ja")
                assert [e.id for e in ja_book.entries] == [e.id for e in en_book.entries]
                listed = (await _ask(c, "alice", "rule", {"ruleset": rs}, locale=JA)).embeds[0]
                assert listed["title"] == _clip(ja("{title} — rules", title=ja_book.title), 256)
                pages = re.search(r"1/(\d+)", listed["footer"]["text"])
                assert pages, listed["footer"]
                footer_msgid = "page {page}/{pages} · /rule {ruleset} <id or keyword> explains one rule"
                assert listed["footer"]["text"] == ja(footer_msgid, page=1, pages=int(pages[1]), ruleset=rs)
                for entry, english in zip(ja_book.entries, en_book.entries):
                    embed = (await _ask(c, "alice", "rule", {"ruleset": rs, "topic": entry.id}, locale=JA)).embeds[0]
                    assert embed["title"] == _clip(f"{entry.id} · {entry.title}", 256), (rs, entry.id)
                    assert embed["description"] == _clip(entry.text, 4096), (rs, entry.id)
                    assert entry.text != english.text and re.search(r"[\u3041-\u30ff\u4e00-\u9fff]", entry.text), entry.id
            # a refusal of /rule in Japanese
            msg = await _ask(c, "alice", "rule", {"ruleset": "riichi", "topic": "zzqx"}, locale=JA)
            book = rulebook("riichi", "ja")
            want = ja(
                "No rule of {ruleset} matches '{topic}'. Ask with a rule id (`{example}`), a keyword (`furiten`) or a "
                "question in plain words (`how does dora work`); `/rule {ruleset}` lists every rule.",
                ruleset="riichi", topic="zzqx", example=book.entries[0].id,
            )
            assert msg.ephemeral and msg.content == want and "ルール" in want

    asyncio.run(main())


def test_score_shanten_and_rule_answer_an_english_player_as_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JANTAKU_PICTURE_TEXT", "1")

    async def main() -> None:
        async with club(tmp_path) as c:
            await c.server.wait_for_commands(["score", "shanten", "rule"], c.guild_id, timeout=10)
            msg = await _ask(c, "bob", "score", {"hand": V6}, locale=EN)
            assert msg.embeds[0]["title"] == "Tsumo 8s — 5 han 20 fu (mangan) = 12,000 points"
            lines = _lines(msg)
            assert "Riichi: 1 han" in lines and "Dora: 2 han" in lines and "**5 han 20 fu (mangan) = 12,000 points**" in lines
            assert "payments: East (winner) +12,000, South -4,000, West -4,000, North -4,000" in lines
            drawn = picture_texts(_png(msg, "score.png"))
            assert "Dora indicators" in drawn and "ruleset riichi · seat E · round E" in drawn
            msg = await _ask(c, "bob", "score", {"hand": BAD_HAND}, locale=EN)
            with pytest.raises(NotationError) as bad:
                parse_hand(BAD_HAND)
            assert str(msg.content).startswith(f"I could not read that hand: {bad.value}.\n```\n{BAD_HAND}\n")

            sh = _shanten_of(SHANTEN_HAND)
            msg = await _ask(c, "bob", "shanten", {"tiles": SHANTEN_HAND}, locale=EN)
            assert msg.embeds[0]["title"] == f"{sh}-shanten (13 tiles)"
            assert f"{sh}-shanten (13 tiles) — ruleset riichi" in picture_texts(_png(msg, "shanten.png"))

            for rs in RULESETS:
                book = rulebook(rs)
                listed = (await _ask(c, "bob", "rule", {"ruleset": rs}, locale=EN)).embeds[0]
                assert listed["title"] == _clip(f"{book.title} — rules", 256)
                entry = book.entries[0]
                embed = (await _ask(c, "bob", "rule", {"ruleset": rs, "topic": entry.id}, locale=EN)).embeds[0]
                assert embed["title"] == _clip(f"{entry.id} · {entry.title}", 256)
                assert embed["description"] == _clip(entry.text, 4096)

    asyncio.run(main())


async def _organiser(c: Club, who: str = "alice") -> None:
    await make_organiser(c, who)


def _text(c: Club, rec: Any) -> str:
    return "\n".join(c.replies(rec))


def test_stats_and_results_answer_each_player_in_their_language(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            await c.server.wait_for_commands(["season", "result", "leaderboard", "stats"], c.guild_id, timeout=10)

            async def ask(who: str, name: str, options: dict[str, Any], locale: str) -> str:
                rec = await c.server.slash(c.users[who].id, c.guild_id, c.channel_id, name, options, locale=locale)
                await rec.reply(timeout=30)
                assert not rec.errors, rec.errors
                return _text(c, rec)

            # a refusal before any season: the catalog's sentence, with the Japanese full stop
            none = "no season is running in this club: an organiser can start one with /season start"
            refused = await ask("carol", "stats", {}, JA)
            assert refused == StandingsError(none).sentence("ja") and refused.endswith("。") and "シーズン" in refused
            assert await ask("dave", "stats", {}, EN) == none + "."

            await _organiser(c)
            started = await ask("alice", "season start", {"name": "Spring", "ruleset": "riichi"}, JA)
            # riichi's defaults (riichi.md): 25,000 start, 30,000 return
            started_msgid = "Season **{season}** has started: {rules}, {start} start / {back} return, uma {uma}, rating {rating}; {listed}."
            head, _, tail = i18n.t("ja", started_msgid, season="Spring", rules="riichi", start="25,000", back="30,000", uma="@", rating="@",
                                   listed=i18n.t("ja", "every player appears on the leaderboard from their first game")).partition("@")
            assert started.startswith(head) and started.endswith(tail.rpartition("@")[2]) and "始まりました" in head
            players = {"p1": "guest:Aki", "s1": 40000, "p2": "guest:Ben", "s2": 30000, "p3": "guest:Cho", "s3": 20000, "p4": "guest:Dai", "s4": 10000}
            recorded = await ask("alice", "result add", players, JA)
            assert recorded.splitlines()[0] == i18n.t("ja", "Game #{game} recorded in the season '{season}':", game=1, season="Spring") and "記録しました" in recorded

            stats = (await ask("carol", "stats", {"guest": "Aki"}, JA)).splitlines()
            assert stats[0] == i18n.t("ja", "**{player}** in {season}", player="Aki", season="Spring")
            games = i18n.t("ja", "games: {games}; places 1st–4th: {counts} ({shares})", games=1, counts="1 / 0 / 0 / 0", shares="100% / 0% / 0% / 0%")
            assert stats[1] == games and "対局数" in games
            assert stats[2] == i18n.t("ja", "average placement: {place}", place="1.00") and "平均着順" in stats[2]
            assert not [x for x in stats if re.search(r"\b(games|average|points|rating)\b", x)], stats

            board = (await ask("carol", "leaderboard", {}, JA)).splitlines()
            assert board[0] == i18n.t("ja", "**{season}** — ranked by {order}, page {page}/{pages}", season="Spring",
                                      order=i18n.t("ja", "points (uma/oka total)"), page=1, pages=1)
            assert all(x.endswith(i18n.tn("ja", "{n} game", "{n} games", 1)) for x in board[1:5]) and "1戦" in board[1]

            stats_en = (await ask("dave", "stats", {"guest": "Aki"}, EN)).splitlines()
            assert stats_en[:3] == ["**Aki** in Spring", "games: 1; places 1st–4th: 1 / 0 / 0 / 0 (100% / 0% / 0% / 0%)", "average placement: 1.00"]
            assert (await ask("dave", "leaderboard", {}, EN)).splitlines()[0] == "**Spring** — ranked by points (uma/oka total), page 1/1"

    asyncio.run(main())


def test_every_rulesets_shanten_note_has_japanese() -> None:
    """A ruleset's own note under /shanten (engine text) is a catalog message with Japanese."""
    from bot.lookups import SHANTEN_NOTES, WILDCARD_NOTE
    from engine.rules import find_ruleset, ruleset_names

    notes = {find_ruleset(n).shanten_note for n in ruleset_names()} - {""}
    assert notes and notes <= set(SHANTEN_NOTES)
    for note in [*notes, WILDCARD_NOTE]:
        assert i18n.t("ja", note) != note and "形" in i18n.t("ja", note)

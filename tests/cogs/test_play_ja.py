"""A table in Japanese (issue 21): the channel's table message in the club's language, each hand
message in its own player's language (their Discord locale), English for an ``en-US`` player at the
same table."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from bot import i18n
from bot.storage.repository import SeatRow, TableRow
from bot.tables import Table
from bot.views.buttons import hand_view
from bot.views.hand import hand_text
from devserver.state import Message, iter_components
from engine.rules import find_ruleset
from engine.table.actions import ActionType
from engine.table.game import Game
from tests.bot.harness import Club, club
from tests.engine.scripted import scripted_game

A = ActionType
KANA = re.compile(r"[\u3040-\u30ff]")  # hiragana and katakana: no English text has them
#: a discard button names a tile: 1m..9s (the same in both languages), an honour, a red five
JA_TILE = re.compile(r"^(⚠ )?([1-9][mps]|[東南西北白發中]|赤5[mps])$")
EN_TILE = re.compile(r"^(⚠ )?([1-9][mps]|E|S|W|N|Wh|Gr|Rd|red 5[mps])$")


def _labels(versions: list[Any]) -> list[str]:
    return [str(c.get("label", "")) for v in versions for c in iter_components(v.components) if c.get("type") == 2]


def _versions(m: Message) -> list[Any]:
    return [*m.history, m]


def _hand_dms(c: Club, who: str) -> list[Any]:
    """Every state of every hand message ``who`` received (the edits included)."""
    return [v for m in c.server.dms(c.users[who].id) for v in _versions(m)]


async def _play_first_hand(c: Club, locales: dict[str, str]) -> None:
    """Each human presses the first live button of their newest hand message, with their own
    Discord locale, until the first hand is over."""
    t = c.bot.service.tables[1]
    loop = asyncio.get_running_loop()
    until = loop.time() + 240
    while loop.time() < until:
        g = t.game
        if g is not None and (g.results or g.over):
            return
        moved = False
        for who, locale in locales.items():
            mid, live = c.live_buttons(who)
            if live:
                rec = await c.server.click(c.users[who].id, mid, live[0], locale=locale)
                await rec.response()
                assert not rec.errors, rec.errors
                moved = True
        if not moved:
            await asyncio.sleep(0.01)
    raise AssertionError("the first hand did not end")


def test_a_ja_player_reads_japanese_and_an_en_player_english_at_one_table(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path, time_scale=10) as c:
            await c.bot.locales.set_club(c.guild_id, "ja")
            alice = c.users["alice"].id
            for name, options in (("table open", {"ruleset": "riichi"}), ("table add-ai", {"seats": 2}), ("table start", {})):
                if name == "table add-ai":
                    await c.slash("bob", "table join", {})
                rec = await c.server.slash(alice, c.guild_id, c.channel_id, name, options, locale="ja")
                await rec.reply()
            await _play_first_hand(c, {"alice": "ja", "bob": "en-US"})
            t = c.bot.service.tables[1]
            g = t.game
            assert g is not None
            seated = {who: t.seat_of(c.users[who].id) for who in ("alice", "bob")}
            seat = {who: s for who, s in seated.items() if s is not None}
            assert len(seat) == 2, seated

            # the table message in the channel: the club's language, its button too
            table_msgs = [m for m in c.server.messages(c.channel_id) if "mjh:1" in m.custom_ids()]
            assert table_msgs
            head = i18n.t("ja", "**Table #{table}** · {rules} · {mode}", table=1, rules="リーチ麻雀", mode=i18n.t("ja", "live"))
            assert head == "**卓 #1** · リーチ麻雀 · ライブ"
            assert all(m.content.startswith(head) for m in table_msgs)
            assert "山 " in table_msgs[0].content and "供託 " in table_msgs[0].content
            assert "コミットメント `" in table_msgs[0].content  # the fairness line too
            assert set(_labels([table_msgs[-1]])) == {i18n.t("ja", "Show my hand")} == {"手牌を見る"}

            # alice (ja): her hand messages and their buttons in Japanese
            mine = _hand_dms(c, "alice")
            assert mine
            wind = {0: "東", 1: "南", 2: "西", 3: "北"}
            first = mine[0].content
            assert i18n.t("ja", "Your hand ({name}, {wind})", name="alice", wind=wind[seat["alice"]]) in first  # hand 1: seat 0 deals
            assert "あなたの手牌（alice、" in first
            turn = i18n.t("ja", "**Your turn.** Pick a tile to discard or an action.")
            assert "あなたの番です" in turn
            assert any(turn in v.content for v in mine)
            labels = _labels(mine)
            words = {i18n.t("ja", w) for w in ("Tsumo!", "Ron!", "Kan", "Pass", "Nine terminals", "Kita")}
            assert {"ツモ！", "ロン！", "スキップ"} <= words
            riichi = i18n.t("ja", "{word}…", word=i18n.t("ja", "Riichi"))
            assert riichi == "立直…"
            for label in labels:
                ja_call = label.split(" ")[0] in {"ポン", "チー", "カン", "加槓", "抜き"}
                assert JA_TILE.match(label) or label in words or label == riichi or ja_call, label
            assert any(JA_TILE.match(x) for x in labels)  # the discard buttons
            for v in mine:
                for english in ("Your hand", "Your turn", "Pick a tile", "Call it or pass", "Since your last move", "Waiting for:"):
                    assert english not in v.content, v.content

            # bob (en-US) at the same table: English, byte for byte as before
            his = _hand_dms(c, "bob")
            assert his
            assert f"Your hand (bob, {'ESWN'[seat['bob']]})" in his[0].content
            assert any("**Your turn.** Pick a tile to discard or an action." in v.content for v in his)
            for v in his:
                assert not KANA.search(v.content), v.content
            for label in _labels(his):
                assert not KANA.search(label) and not re.search(r"[東南西北白發中]", label), label
            assert any(EN_TILE.match(x) for x in _labels(his))

    asyncio.run(main())


# -- the buttons of a decision with a win and a riichi, in both languages --------------------------

RIICHI = find_ruleset("riichi")
DEALER = "123m456p789s1122z"  # draws the third East: tsumo (East triplet), or riichi discarding a South
OTHERS = ["147m147p147s3456z", "369m369p369s3456z", "258m258p258s4567z"]


def _table(g: Game) -> Table:
    seats = [SeatRow(s, 100 + s, None, f"P{s}") for s in range(g.players)]
    row = TableRow(1, None, 10, None, 100, g.ruleset.name, {}, "seed", "live", 30, 60, 24, "auto", "playing", None, 0.0, seats)
    return Table(row=row, game=g)


def _hand_text(t: Table, lang: i18n.Lang) -> str:
    return hand_text(t, 0, lang=lang)


def test_tsumo_riichi_and_discard_buttons_in_the_players_language() -> None:
    g = scripted_game(RIICHI, [DEALER, *OTHERS], "1z")
    legal = {a.type for a in g.legal_actions(0)}
    assert A.TSUMO in legal and A.RIICHI in legal
    t = _table(g)

    def labels(lang: i18n.Lang) -> list[str]:
        return [str(getattr(getattr(b, "item", b), "label", "")) for b in hand_view(t, 0, lang).children]

    ja, en = labels("ja"), labels("en")
    assert "ツモ！" in ja and i18n.t("ja", "Tsumo!") == "ツモ！"
    assert "立直…" in ja
    assert "東" in ja and "南" in ja  # the honours to discard, by their Japanese names
    assert "Tsumo!" in en and "Riichi…" in en and "E" in en and "S" in en
    assert not any(KANA.search(x) or x in ("東", "南") for x in en)

    text = _hand_text(t, "ja")
    assert "**あなたの番です。** 切る牌か操作を選んでください。" in text.split("\n")
    assert text.startswith("あなたの手牌（P0、東家）")
    english = _hand_text(t, "en")
    assert "**Your turn.** Pick a tile to discard or an action." in english.split("\n") and english.startswith("Your hand (P0, E)")

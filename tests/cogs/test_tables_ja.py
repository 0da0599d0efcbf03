"""``/table`` and ``/replay`` in the asker's language (issue 21): a player whose Discord locale is
``ja`` reads the Japanese catalog's sentences (open, join, list, the refusals, the start with its
fairness line, the export of a running game, /replay refused while the game runs and shown once
it is over), a player on ``en-US`` reads the English of before; an engine refusal reaches a
Japanese player as the catalog's sentence and an English one as the engine's own words."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot import fairness, i18n
from bot.render import variants as vr
from bot.render.names import tile_name
from bot.tables import TableError, lengths, playable
from bot.tables.refusals import EngineRefusal, refusal
from engine.rules.base import find_ruleset
from engine.table.actions import Action, ActionType
from engine.table.game import Game, IllegalActionError
from engine.table.refusal import Refusal
from engine.tiles import kind_of
from tests.bot.harness import Club, club

JA = "ja"
EN = "en-US"


async def _slash(c: Club, who: str, name: str, options: dict[str, Any] | None = None, *, locale: str) -> list[str]:
    """Run a command as ``who`` in ``locale``; what they see of its answer."""
    rec = await c.server.slash(c.users[who].id, c.guild_id, c.channel_id, name, options or {}, locale=locale)
    await rec.reply(timeout=30)
    assert not rec.errors, rec.errors
    return c.replies(rec)


def _one(replies: list[str]) -> str:
    assert len(replies) == 1, replies
    return replies[0]


def test_table_commands_answer_a_japanese_player_in_japanese_and_an_english_one_as_before(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path, time_scale=10) as c:
            c.bot.service.new_seed = lambda: "tables-ja-seed"
            no_table = i18n.t("ja", "there is no open table in this channel: start one with /table open")
            assert _one(await _slash(c, "alice", "table status", locale=JA)) == no_table
            assert "卓" in no_table
            assert _one(await _slash(c, "bob", "table status", locale=EN)) == "there is no open table in this channel: start one with /table open"
            none_open = _one(await _slash(c, "alice", "table list", locale=JA))
            assert none_open == i18n.t("ja", "No tables are open. Start one with /table open.") and "開いている卓はありません" in none_open
            assert _one(await _slash(c, "bob", "table list", locale=EN)) == "No tables are open. Start one with /table open."

            # the ruleset menu: each playable ruleset, described in the asker's language
            menus = {}
            for locale in (JA, EN):
                rec = await c.server.autocomplete(c.users["alice"].id, c.guild_id, c.channel_id, "table open",
                                                  {"ruleset": ""}, "ruleset", locale=locale)
                await rec.response()
                menus[locale] = {ch["value"]: ch["name"] for ch in rec.choices or []}
            assert list(menus[JA]) == list(menus[EN]) == playable()[:25]
            for name in playable():
                about = find_ruleset(name).description
                assert menus[EN][name] == f"{name} — {about}"[:100]
                assert menus[JA][name] == f"{name} — {i18n.term('ja', 'ruleset', about)}"[:100] != menus[EN][name]
            assert "麻雀" in menus[JA]["riichi"] and "符なし" in menus[JA]["pk"]

            opened = _one(await _slash(c, "alice", "table open", {"ruleset": "tenhou", "length": "tonpuu"}, locale=JA))
            assert opened == i18n.t(
                "ja",
                "Table #{table} is open ({rules}, {length}, {mode}). Join with `/table join`, fill seats with `/table add-ai`, "
                "then `/table start`.",
                table=1, rules="天鳳", length="東風戦", mode="ライブ",
            )
            assert opened.startswith("卓 #1 を立てました（天鳳、東風戦、ライブ）")

            # refused: the opener alone at the table, a stranger's start, a second join
            need = _one(await _slash(c, "alice", "table start", locale=JA))
            assert need == i18n.t(
                "ja", "the table needs {need} players and has {seated}: invite players or use /table add-ai", need=4, seated=1
            )
            assert "4人必要" in need
            stranger = _one(await _slash(c, "carol", "table start", locale=JA))
            assert stranger == i18n.t("ja", "only a player at the table can start it") != "only a player at the table can start it"
            assert _one(await _slash(c, "bob", "table start", locale=EN)) == "only a player at the table can start it"
            again = _one(await _slash(c, "alice", "table join", locale=JA))
            assert again == i18n.t("ja", "you are already at that table") and "着いています" in again
            assert _one(await _slash(c, "bob", "table join", locale=EN)) == "bob sits down at table #1 (2 seated)."
            assert _one(await _slash(c, "bob", "table join", locale=EN)) == "you are already at that table"
            sat = _one(await _slash(c, "carol", "table join", locale=JA))
            assert sat == i18n.t("ja", "{player} sits down at table #{table} ({seated} seated).", player="carol", table=1, seated=3)
            assert sat == "carolさんが卓 #1 に着席しました（3人着席）。"

            listed = _one(await _slash(c, "alice", "table list", locale=JA))
            assert listed == f"#1 天鳳 ライブ — 募集中 — alice, bob, carol（<#{c.channel_id}>）"
            assert _one(await _slash(c, "bob", "table list", locale=EN)) == f"#1 tenhou live — open — alice, bob, carol in <#{c.channel_id}>"

            filled = _one(await _slash(c, "alice", "table add-ai", locale=JA))
            assert filled == "卓 #1：alice, bob, carol, AI 1"

            started = await _slash(c, "alice", "table start", locale=JA)
            t = await c.started()
            assert _one(started) == i18n.t(
                "ja",
                "Table #{table} starts! Seats are drawn at random; hands come by direct message.\n{fairness}",
                table=1, fairness=fairness.commitment_text(t, "ja"),
            )
            assert "対局開始" in started[0] and "公正性" in started[0]
            assert "Fairness" in fairness.commitment_text(t)  # the English line is the one of before

            # a running game: its export holds no hand yet, /replay refuses in one sentence
            exported = _one(await _slash(c, "alice", "table export", locale=JA))
            assert exported.startswith(
                i18n.tn(
                    "ja",
                    "Table #{table} is still being played: this export holds its {n} finished hand only; "
                    "the hand in play and the seed stay hidden until the game ends.",
                    "Table #{table} is still being played: this export holds its {n} finished hands only; "
                    "the hand in play and the seed stay hidden until the game ends.",
                    len(t.game.results) if t.game else 0, table=1,
                )
            )
            assert "まだ対局中" in exported
            running = _one(await _slash(c, "alice", "replay", {"table": 1}, locale=JA))
            assert running == i18n.t("ja", "Table #{table} is still being played: only a finished game can be replayed", table=1) + "。"
            assert "牌譜再生できるのは終わった対局だけです" in running
            assert _one(await _slash(c, "bob", "replay", {"table": 1}, locale=EN)) == (
                "Table #1 is still being played: only a finished game can be replayed."
            )

            # an engine refusal through the table service: the engine's words in English, the catalog's in Japanese
            g = t.game
            assert g is not None
            alice = t.seat_of(c.users["alice"].id)
            assert alice is not None
            held = {kind_of(g.codes[x]) for x in g.seats[alice].tiles}
            action = Action(ActionType.DISCARD, alice, next(k for k in range(34) if k not in held)).text  # a tile not held
            with pytest.raises(TableError) as refused:
                await c.bot.service.act(1, c.users["alice"].id, action, t.decision_serial())
            e = refused.value
            assert isinstance(e, EngineRefusal), e
            assert e.sentence("en") == e.engine_text and e.engine_text.isascii()
            assert e.sentence("ja") == i18n.t("ja", e.msgid, **e.fields("ja")) != e.engine_text
            assert not e.sentence("ja").isascii()

            # a finished game: four AI seats play table #2 to its end, then /replay shows its deal
            await _slash(c, "erin", "table open", {"ruleset": "tenhou", "length": "tonpuu"}, locale=JA)
            left = _one(await _slash(c, "erin", "table leave", {"table": 2}, locale=JA))
            assert left == i18n.t("ja", "{player} left table #{table}.", player="erin", table=2) == "erinさんが卓 #2 を離れました。"
            await _slash(c, "erin", "table add-ai", {"seats": 4, "table": 2}, locale=JA)
            await _slash(c, "erin", "table start", {"table": 2}, locale=JA)
            t2 = c.bot.service.tables[2]
            await c.server.wait_for(lambda: t2.row.status == "finished", timeout=120)
            g2 = t2.game
            assert g2 is not None
            shown = _one(await _slash(c, "erin", "replay", {"table": 2}, locale=JA))
            fresh = Game(g2.ruleset, t2.row.seed)
            head = i18n.t(
                "ja", "**Table #{table} replay** · {hand} · action {index} of {total} · {whose}",
                table=2, hand=vr.round_text(fresh, lang="ja"), index=0, total=len(g2.actions), whose=i18n.t("ja", "every hand open"),
            )
            assert shown == f"{head}\n{i18n.t('ja', 'The deal.')}"
            assert "牌譜再生" in shown and "全員の手牌を公開" in shown and "配牌。" in shown
            english = _one(await _slash(c, "dave", "replay", {"table": 2}, locale=EN))
            assert english == f"**Table #2 replay** · {vr.round_text(fresh)} · action 0 of {len(g2.actions)} · every hand open\nThe deal."

    asyncio.run(main())


def test_an_engine_refusal_reads_as_the_catalog_sentence_in_japanese_and_the_engine_s_in_english() -> None:
    g = Game(find_ruleset("riichi"), "refusal-seed")
    now = g.current
    other = (now + 1) % g.players
    held = {kind_of(g.codes[x]) for x in g.seats[now].tiles}
    missing = next(k for k in range(34) if k not in held)
    cases = [
        (Action(ActionType.DISCARD, other, g.codes[g.seats[other].tiles[0]]), "it is not your turn", {}),
        (Action(ActionType.DISCARD, now, missing), "you do not hold {tile}", {"tile": tile_name(missing, "ja")}),
    ]
    for action, msgid, fields in cases:
        with pytest.raises(IllegalActionError) as raised:
            g.play(action)
        e = refusal(raised.value, action)
        assert e.msgid == msgid
        assert e.sentence("en") == str(raised.value) == str(e)  # the engine's words, as before
        assert e.sentence("ja") == i18n.t("ja", msgid, **fields)
    not_held = IllegalActionError("you do not hold 1z", reason=Refusal.TILE_NOT_HELD, tile=27)
    assert refusal(not_held, cases[1][0]).sentence("ja").endswith("を持っていません")
    not_yours = IllegalActionError("it is not your turn", reason=Refusal.NOT_YOUR_TURN)
    assert refusal(not_yours, cases[0][0]).sentence("ja") == "あなたの番ではありません"
    strange = IllegalActionError("a sentence the table does not know", reason="a_code_the_table_does_not_know")  # type: ignore[arg-type]
    unknown = refusal(strange, cases[0][0])
    assert unknown.sentence("en") == "a sentence the table does not know"
    assert unknown.sentence("ja") == "その操作は今はできません"


def test_the_open_menus_name_lengths_and_rulesets_in_the_asker_s_language() -> None:
    from cogs.tables import _length_label

    assert _length_label("ja", "tonpuu (East round only)") == i18n.t("ja", "tonpuu (East round only)") == "東風戦（東場のみ）"
    assert _length_label("ja", "6 hands") == "6局"
    assert _length_label("en", "6 hands") == "6 hands"
    assert _length_label("en", "tonpuu (East round only)") == "tonpuu (East round only)"
    for name in playable():
        about = find_ruleset(name).description
        assert i18n.term("ja", "ruleset", about) != about, name  # every playable ruleset's description has its Japanese
        for c in lengths(name):
            assert _length_label("ja", c.label) != c.label, (name, c.label)


def test_missing_permissions_are_named_as_discord_names_them_in_the_asker_s_language() -> None:
    from cogs.tables import MissingPermissions

    two = MissingPermissions(missing=["View Channel", "Embed Links"])
    assert two.sentence("en") == str(two) == (
        "I cannot run a table in this channel: I am missing the permissions View Channel, Embed Links. "
        "A server admin can grant them to my role here."
    )
    assert two.sentence("ja") == i18n.tn(
        "ja",
        "I cannot run a table in this channel: I am missing the permission {names}. A server admin can grant it to my role here.",
        "I cannot run a table in this channel: I am missing the permissions {names}. A server admin can grant them to my role here.",
        2, names="チャンネルを見る、埋め込みリンク",
    )
    assert "権限「チャンネルを見る、埋め込みリンク」" in two.sentence("ja")
    one = MissingPermissions(missing=["Send Messages"])
    assert one.sentence("en").endswith("missing the permission Send Messages. A server admin can grant it to my role here.")


def test_a_substitute_ai_s_seat_name_reads_in_the_reader_s_language_and_a_member_s_never_changes() -> None:
    from types import SimpleNamespace

    from bot.render.names import SUBSTITUTE_AI, seat_name

    ai = SimpleNamespace(name=SUBSTITUTE_AI.format(name="bob"), ai="smart")
    assert ai.name == "AI for bob"
    assert seat_name(ai, "en") == "AI for bob"
    assert seat_name(ai, "ja") == i18n.t("ja", "AI for {name}", name="bob") == "bobの代打ちAI"
    member = SimpleNamespace(name="AI for bob", ai=None)  # a member may call themself anything
    assert seat_name(member, "ja") == "AI for bob"
    assert seat_name(SimpleNamespace(name="AI 2", ai="smart"), "ja") == "AI 2"

"""``/score``, ``/shanten`` and ``/rule`` through the local Discord server and the real bot.

Expected values come from outside our code: the worked examples of ``riichi.md`` §15 for
``/score``, the ``mahjong`` library (and ``engine/hand/report.py`` run here, independently of the
cog) for ``/shanten``, and the rule specifications for ``/rule``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import io
import re
import threading
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest
from mahjong.shanten import Shanten
from PIL import Image

from bot.rules_text import RULESETS, rulebook
from engine.hand.report import shanten_report
from engine.rules import ruleset_names
from engine.tiles import counts_of, parse_kind, parse_tiles
from tests.bot.harness import Club, club
from tests.bot.test_rules_text import spec_ids

T = TypeVar("T")


@dataclass
class Bot:
    """The bot and the local server running on their own event loop (one per module: fast)."""

    club: Club
    loop: asyncio.AbstractEventLoop

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 30) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def slash(self, who: str, name: str, options: dict[str, Any]) -> Any:
        async def go() -> Any:
            rec = await self.club.server.slash(
                self.club.users[who].id, self.club.guild_id, self.club.channel_id, name, options
            )
            await rec.reply(timeout=15)
            return rec

        return self.run(go())

    def autocomplete(self, name: str, options: dict[str, Any], focused: str) -> list[dict[str, Any]]:
        async def go() -> list[dict[str, Any]]:
            c = self.club
            rec = await c.server.autocomplete(
                c.users["alice"].id, c.guild_id, c.channel_id, name, options, focused
            )
            await rec.response()
            assert rec.callback_type == 8, rec
            return list(rec.choices or [])

        return self.run(go())

    def click(self, who: str, message_id: int, custom_id: str) -> Any:
        async def go() -> Any:
            rec = await self.club.server.click(self.club.users[who].id, message_id, custom_id)
            await rec.reply(timeout=15)
            return rec

        return self.run(go())


@pytest.fixture(scope="module")
def bot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bot]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="lookups-bot", daemon=True)
    thread.start()
    ready: concurrent.futures.Future[Club] = concurrent.futures.Future()
    stop = asyncio.Event()

    async def hold(tmp: Path) -> None:
        try:
            async with club(tmp) as c:
                await c.server.wait_for_commands(["score", "shanten", "rule"], c.guild_id, timeout=10)
                ready.set_result(c)
                await stop.wait()
                assert not c.server.errors, c.server.errors
        except BaseException as e:
            if not ready.done():
                ready.set_exception(e)
            raise

    held = asyncio.run_coroutine_threadsafe(hold(tmp_path_factory.mktemp("lookups")), loop)
    try:
        yield Bot(ready.result(30), loop)
    finally:
        loop.call_soon_threadsafe(stop.set)
        held.result(30)

        async def cancel_rest() -> None:
            rest = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in rest:
                t.cancel()
            await asyncio.gather(*rest, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(cancel_rest(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def _answer(rec: Any) -> Any:
    msg = rec.original
    assert msg is not None, rec
    assert "Traceback" not in msg.content
    return msg


def _ephemeral_text(rec: Any) -> str:
    msg = _answer(rec)
    assert msg.ephemeral, msg
    return str(msg.content)


def _png(msg: Any, name: str) -> Image.Image:
    att = {a.filename: a for a in msg.attachments}
    assert name in att, [a.filename for a in msg.attachments]
    data = att[name].data
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.load()
    assert 300 <= img.width <= 1400 and 100 <= img.height <= 1400, img.size
    assert msg.embeds and msg.embeds[0].get("image", {}).get("url", "").endswith(name)
    return img


def _description(msg: Any) -> str:
    return "\n".join(str(e.get("description") or "") for e in msg.embeds)


# --- /score: riichi.md §15 worked examples ---------------------------------------------------

# (hand line, {yaku: han} as the spec's table names them, han, fu, points, payments or None)
# The winner is a non-dealer South unless the spec says otherwise (§15's preamble).
VECTORS = {
    "v1": ("22345678m234p56s ron 7s seat=S", {"pinfu": 1, "tanyao": 1}, 2, 30, 2000, None),
    "v2": (
        "22345678m234p56s tsumo 7s seat=S",
        {"menzen tsumo": 1, "pinfu": 1, "tanyao": 1},
        3,
        20,
        2700,
        {"East": -1300, "West": -700, "North": -700},
    ),
    "v3": ("1133m5577p99s1122z ron 2z seat=S", {"chiitoitsu": 2}, 2, 25, 1600, None),
    "v4": ("123m456p789s5s pon(777z) ron 5s seat=S", {"yakuhai chun": 1}, 1, 30, 1000, None),
    "v5": ("111m456p1223789s ron 2s seat=S riichi", {"riichi": 1}, 1, 40, 1300, None),
    "v6": (
        "123456m789p55s67s tsumo 8s seat=E riichi dora=4s",
        {"riichi": 1, "menzen tsumo": 1, "pinfu": 1, "dora": 2},
        5,
        None,  # mangan: the spec gives no fu
        12000,
        {"South": -4000, "West": -4000, "North": -4000},
    ),
    "v7": ("234567m2267p chi(234s) ron 8p seat=S", {"tanyao": 1}, 1, 30, 1000, None),
}


def _yaku_lines(desc: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for m in re.finditer(r"^(.+?): (\d+) han$", desc, re.M):
        name = re.sub(r"[()]", "", m.group(1)).strip().lower()
        out[name] = int(m.group(2))
    return out


def _check_vector(bot: Bot, key: str) -> None:
    line, yaku, han, fu, points, payments = VECTORS[key]
    msg = _answer(bot.slash("alice", "score", {"hand": line}))
    assert not msg.ephemeral
    _png(msg, "score.png")
    desc = _description(msg)
    assert _yaku_lines(desc) == yaku, desc
    total = re.search(r"\*\*(\d+) han(?: (\d+) fu)?.*? = ([\d,]+) points\*\*", desc)
    assert total, desc
    assert int(total.group(1)) == han
    if fu is not None:
        assert total.group(2) is not None and int(total.group(2)) == fu
    assert int(total.group(3).replace(",", "")) == points
    if payments:
        for who, amount in payments.items():
            assert f"{who} {amount:+,}" in desc, desc


def test_r_15_v1_pinfu_tanyao_ron(bot: Bot) -> None:
    _check_vector(bot, "v1")


def test_r_15_v2_tsumo_pinfu_20_fu_700_1300(bot: Bot) -> None:
    _check_vector(bot, "v2")


def test_r_15_v3_chiitoitsu_25_fu(bot: Bot) -> None:
    _check_vector(bot, "v3")


def test_r_15_v4_open_yakuhai_chun_fu_rounded_to_30(bot: Bot) -> None:
    _check_vector(bot, "v4")


def test_r_15_v5_kanchan_reading_40_fu(bot: Bot) -> None:
    _check_vector(bot, "v5")


def test_r_15_v6_dealer_mangan_tsumo_4000_all(bot: Bot) -> None:
    _check_vector(bot, "v6")
    msg = _answer(bot.slash("alice", "score", {"hand": VECTORS["v6"][0]}))
    assert "mangan" in _description(msg)


def test_r_15_v7_open_tanyao_20_fu_becomes_30(bot: Bot) -> None:
    _check_vector(bot, "v7")


def test_score_ruleset_option_is_used(bot: Bot) -> None:
    # vs the mleague preset (riichi.md §18: kiriage mangan): 4 han 30 fu non-dealer ron
    line = "22345678m234p56s ron 7s seat=S riichi dora=1p"
    plain = _description(_answer(bot.slash("alice", "score", {"hand": line})))
    assert "= 7,700 points" in plain, plain
    ml = _description(_answer(bot.slash("alice", "score", {"hand": line, "ruleset": "mleague"})))
    assert "= 8,000 points" in ml, ml


def test_malformed_hand_gets_the_parsers_message_pointing_at_the_bad_character(bot: Bot) -> None:
    text = _ephemeral_text(bot.slash("alice", "score", {"hand": "123m4x5p ron 1m"}))
    assert "unexpected character 'x' at position 6" in text
    block = text.split("```")[1].strip("\n").splitlines()
    assert block[0] == "123m4x5p ron 1m" and block[1].index("^") == block[0].index("x")
    text = _ephemeral_text(bot.slash("alice", "score", {"hand": "123456789m1234p ron"}))
    assert "missing the winning tile" in text
    text = _ephemeral_text(bot.slash("alice", "score", {"hand": "123456789m1234p ron 5p"}))
    assert text.startswith("That hand cannot win: it is not a complete hand")


def test_score_with_a_ruleset_the_engine_lacks_is_a_plain_sentence(bot: Bot) -> None:
    text = _ephemeral_text(
        bot.slash("alice", "score", {"hand": "22345678m234p56s ron 7s", "ruleset": "nosuch"})
    )
    assert text.startswith("unknown ruleset 'nosuch'")
    missing = [rs for rs in RULESETS if rs not in ruleset_names()]
    if not missing:
        pytest.skip("every ruleset of the spec is in the engine now")
    for rs in missing:
        text = _ephemeral_text(
            bot.slash("alice", "score", {"hand": "22345678m234p56s ron 7s", "ruleset": rs})
        )
        assert text.startswith(f"ruleset {rs} cannot score hands yet"), text
        text = _ephemeral_text(bot.slash("alice", "shanten", {"tiles": "22345678m234p56s", "ruleset": rs}))
        assert text.startswith(f"ruleset {rs} cannot compute shanten yet"), text


def test_ruleset_autocomplete_offers_engine_and_spec_rulesets(bot: Bot) -> None:
    values = [c["value"] for c in bot.autocomplete("score", {"hand": "", "ruleset": "t"}, "ruleset")]
    assert "tenhou" in values and "taiwan16" in values
    values = [c["value"] for c in bot.autocomplete("shanten", {"tiles": "", "ruleset": ""}, "ruleset")]
    assert set(RULESETS) <= set(values) and "riichi" in values


# --- /shanten: against the engine's report (computed here) and the mahjong library -----------


def _mj_shanten(counts: list[int]) -> int:
    return int(Shanten().calculate_shanten(counts[:34]))


def _mj_ukeire(counts: list[int]) -> dict[str, int]:
    """Kinds that lower the shanten of a 13-tile hand, with the copies left (mahjong library)."""
    base = _mj_shanten(counts)
    out: dict[str, int] = {}
    for k in range(34):
        if counts[k] >= 4:
            continue
        counts[k] += 1
        if _mj_shanten(counts) < base:
            out[f"{k % 9 + 1}{'mpsz'[k // 9]}"] = 4 - counts[k] + 1
        counts[k] -= 1
    return out


#: how the answers name honours (the letters on the faces) → the engine's notation the reports use
_HONOURS = {"E": "1z", "S": "2z", "W": "3z", "N": "4z", "Wh": "5z", "Gr": "6z", "Rd": "7z"}


def _notation(name: str) -> str:
    return _HONOURS.get(name, name)


def _parse_ukeire(text: str) -> dict[str, int]:
    return {_notation(t): int(n) for t, n in re.findall(r"(\d[mps]|Wh|Gr|Rd|[ESWN])×(\d+)", text)}


@pytest.mark.parametrize(
    "tiles", ["1223m4579p1368s15z", "123m456p789s1123z5m", "11223344556677z", "119m19p19s1234567z"]
)
def test_shanten_14_tiles_every_useful_discard(bot: Bot, tiles: str) -> None:
    msg = _answer(bot.slash("alice", "shanten", {"tiles": tiles}))
    _png(msg, "shanten.png")
    desc = _description(msg)
    expected = shanten_report(tiles)
    counts = counts_of(parse_tiles(tiles))
    assert _mj_shanten(list(counts)) == expected["shanten"]
    title = msg.embeds[0]["title"]
    sh = expected["shanten"]
    assert title.startswith("complete hand" if sh == -1 else "tenpai" if sh == 0 else f"{sh}-shanten"), title
    lines = re.findall(r"^discard \*\*(\w+)\*\* → (\S+?), (\d+) kinds, (\d+) tiles: (.*)$", desc, re.M)
    assert [_notation(d) for d, *_ in lines] == [d["discard"] for d in expected["discards"]]
    for (discard, _, kinds, total, ukeire), exp in zip(lines, expected["discards"]):
        assert (
            _parse_ukeire(ukeire) == exp["ukeire"]
            and int(total) == exp["total"]
            and int(kinds) == len(exp["ukeire"])
        )
        after = list(counts)
        after[parse_kind(_notation(discard))] -= 1
        assert _mj_shanten(after) == exp["shanten"]
        if exp["shanten"] >= 0:
            assert _parse_ukeire(ukeire) == _mj_ukeire(after)


@pytest.mark.parametrize("tiles", ["1112345678999m", "123m456p789s1123z", "13579m2468p1357s"])
def test_shanten_13_tiles_waits_and_ukeire(bot: Bot, tiles: str) -> None:
    msg = _answer(bot.slash("alice", "shanten", {"tiles": tiles}))
    desc = _description(msg)
    expected = shanten_report(tiles)
    counts = counts_of(parse_tiles(tiles))
    assert _mj_shanten(list(counts)) == expected["shanten"]
    m = re.search(r"^ukeire: (\d+) kinds, (\d+) tiles — (.*)$", desc, re.M)
    assert m, desc
    assert _parse_ukeire(m.group(3)) == expected["ukeire"] == _mj_ukeire(list(counts))
    assert int(m.group(2)) == expected["ukeire_total"]
    if expected["shanten"] == 0:
        waits = re.search(r"^waits: (.*)$", desc, re.M)
        assert waits and [_notation(w) for w in waits.group(1).split()] == expected["waits"], desc


def test_shanten_bad_tiles_point_at_the_bad_character(bot: Bot) -> None:
    text = _ephemeral_text(bot.slash("alice", "shanten", {"tiles": "123m45q6p"}))
    assert "unexpected character 'q' at position 7" in text
    block = text.split("```")[1].strip("\n").splitlines()
    assert block[1].index("^") == block[0].index("q")
    assert "3n+1 or 3n+2" in _ephemeral_text(bot.slash("alice", "shanten", {"tiles": "123m456p789s"}))


# --- /rule -----------------------------------------------------------------------------------


def _spec_line(shared_dir: Path, rs: str, rule_id: str) -> str:
    text = (shared_dir / "rules" / f"{rs}.md").read_text(encoding="utf-8")
    m = re.search(rf"(\*\*{re.escape(rule_id)}\b.*|^\|\s*{re.escape(rule_id)}\s*\|.*)", text, re.M)
    assert m, rule_id
    return m.group(1).lower()


def _rule(bot: Bot, rs: str, topic: str | None = None) -> Any:
    opts: dict[str, Any] = {"ruleset": rs}
    if topic is not None:
        opts["topic"] = topic
    return _answer(bot.slash("alice", "rule", opts))


def test_r_6_4_rule_by_id_explains_furiten(bot: Bot, shared_dir: Path) -> None:
    msg = _rule(bot, "riichi", "R-6.4")
    embed = msg.embeds[0]
    assert embed["title"].startswith("R-6.4")
    assert "furiten" in _spec_line(shared_dir, "riichi", "R-6.4")
    assert "furiten" in embed["title"].lower() and "ron" in embed["description"].lower()


def test_pk_10_rule_by_keyword_kuitan(bot: Bot, shared_dir: Path) -> None:
    assert "no kuitan" in _spec_line(shared_dir, "pk", "PK-10")
    embed = _rule(bot, "pk", "kuitan").embeds[0]
    assert embed["title"].startswith("PK-10")
    assert "closed" in embed["description"]


def test_sg_5_rule_by_short_id(bot: Bot, shared_dir: Path) -> None:
    assert "a kan ends the turn" in _spec_line(shared_dir, "seigou", "SG-5")
    embed = _rule(bot, "seigou", "5").embeds[0]
    assert embed["title"].startswith("SG-5") and "kan" in embed["title"].lower()


def test_tw_13_rule_by_keywords_lists_other_matches(bot: Bot) -> None:
    embed = _rule(bot, "taiwan16", "pay").embeds[0]
    assert embed["title"].startswith("TW-13")
    # other texts about payments are offered as well, within Discord's field limit
    field = next(f for f in embed.get("fields", []) if f["name"] == "Also matching")
    assert len(field["value"]) <= 1024 and "`TW-14`" in field["value"]


def test_ct_g5_rule_by_japanese_keyword(bot: Bot, shared_dir: Path) -> None:
    assert "カラス" in _spec_line(shared_dir, "chinitsu_toutenkou", "CT-G5")
    assert _rule(bot, "chinitsu_toutenkou", "カラス").embeds[0]["title"].startswith("CT-G5")


def test_rule_with_an_id_of_another_ruleset_shows_that_rule(bot: Bot) -> None:
    assert _rule(bot, "pk", "R-6.4").embeds[0]["title"].startswith("R-6.4")


def test_rule_without_a_match_is_a_plain_sentence(bot: Bot) -> None:
    rec = bot.slash("alice", "rule", {"ruleset": "shoukou", "topic": "zzzqqq"})
    assert _ephemeral_text(rec).startswith("No rule of shoukou matches 'zzzqqq'")


def test_sk_10_autocomplete_on_ids(bot: Bot) -> None:
    choices = bot.autocomplete("rule", {"ruleset": "shoukou", "topic": "SK-10"}, "topic")
    values = [c["value"] for c in choices]
    assert values[:3] == ["SK-10", "SK-10.6", "SK-10.7"], values
    assert all(len(c["name"]) <= 100 for c in choices)


def test_r_6_4_autocomplete_on_topics(bot: Bot) -> None:
    values = [
        c["value"] for c in bot.autocomplete("rule", {"ruleset": "riichi", "topic": "furiten"}, "topic")
    ]
    assert values and values[0] == "R-6.4" and "R-5.6" in values
    values = [c["value"] for c in bot.autocomplete("rule", {"ruleset": "taiwan16", "topic": ""}, "topic")]
    assert len(values) == 25 and values[0] == "TW-1"


def test_rule_list_is_paged_and_only_the_asker_turns_pages(bot: Bot) -> None:
    msg = _rule(bot, "riichi")
    embed = msg.embeds[0]
    pages = int(re.search(r"page 1/(\d+)", embed["footer"]["text"]).group(1))  # type: ignore[union-attr]
    assert pages == -(-len(rulebook("riichi").entries) // 20)
    assert len(embed["description"]) <= 4096
    nxt = next(i for i in msg.custom_ids() if i.startswith("lkr:riichi:1:"))
    bot.click("alice", msg.id, nxt)
    assert "page 2/" in msg.embeds[0]["footer"]["text"]
    first_on_page_2 = rulebook("riichi").entries[20].id
    assert f"`{first_on_page_2}`" in msg.embeds[0]["description"]
    nxt = next(i for i in msg.custom_ids() if i.startswith("lkr:riichi:2:"))
    refused = bot.click("bob", msg.id, nxt)
    assert "Only the person who asked" in _ephemeral_text(refused)
    assert "page 2/" in msg.embeds[0]["footer"]["text"]


def test_every_rule_id_of_the_six_specs_is_answered_by_rule(bot: Bot, shared_dir: Path) -> None:
    async def ask_all() -> list[tuple[str, str, str]]:
        c = bot.club
        bad: list[tuple[str, str, str]] = []
        for rs, ids in spec_ids(shared_dir).items():
            for rule_id in sorted(ids):
                rec = await c.server.slash(
                    c.users["carol"].id, c.guild_id, c.channel_id, "rule", {"ruleset": rs, "topic": rule_id}
                )
                await rec.reply(timeout=15)
                msg = rec.original
                title = (
                    msg.embeds[0]["title"] if msg is not None and msg.embeds else (msg.content if msg else "")
                )
                if not title.startswith(f"{rule_id} ·"):
                    bad.append((rs, rule_id, title))
        return bad

    assert bot.run(ask_all(), timeout=120) == []


# --- /score in a variant's own units (when the engine has the ruleset) ------------------------


def _needs(rs: str) -> None:
    if rs not in ruleset_names():
        pytest.skip(f"ruleset {rs} is not in the engine yet")


def test_tw_13_score_in_tai_and_payment(bot: Bot) -> None:
    # taiwan16.md §7 example 1: 平胡 2 + 門清 1 = 3 tai; the discarder pays 50 + 20 × 3 = 110
    _needs("taiwan16")
    msg = _answer(
        bot.slash("alice", "score", {"hand": "123456m234p567s88p34s ron 5s seat=S", "ruleset": "taiwan16"})
    )
    desc = _description(msg)
    assert "**3 tai → 110**" in desc and "discarder -110" in desc, desc
    _png(msg, "score.png")


def test_ct_g2_score_in_points(bot: Bot) -> None:
    # chinitsu_toutenkou.md Part I example 1 (game suit s): 41 points, paid by the discarder
    _needs("chinitsu_toutenkou")
    line = "234s456s678s33s56s ron 7s seat=S"
    desc = _description(_answer(bot.slash("alice", "score", {"hand": line, "ruleset": "chinitsu_toutenkou"})))
    assert "**41 points**" in desc and "discarder -41" in desc, desc


def test_pk_8_score_with_bazoro(bot: Bot) -> None:
    # pk.md E31: dealer pinfu tsumo = pinfu 1 + tsumo 1 (+2 bazoro) = 4 翻 → 1000 all
    _needs("pk")
    line = "12367m234p567s88p tsumo 5m seat=E"
    desc = _description(_answer(bot.slash("alice", "score", {"hand": line, "ruleset": "pk"})))
    assert "2 han + 2 bazoro = 3,000 points" in desc, desc
    assert all(f"{w} -1,000" in desc for w in ("South", "West", "North")), desc


def test_slow_answer_is_deferred_then_filled_in(bot: Bot, monkeypatch: pytest.MonkeyPatch) -> None:
    # a cold cache or a busy machine: the cog defers instead of missing Discord's 3-second window
    import sys

    monkeypatch.setattr(sys.modules["cogs.lookups"], "DEFER_AFTER", 0.0)  # the module the bot loaded
    rec = bot.slash("alice", "score", {"hand": VECTORS["v1"][0]})
    assert rec.callback_type == 5
    msg = _answer(rec)
    _png(msg, "score.png")
    assert "**2 han 30 fu = 2,000 points**" in _description(msg)
    text = _ephemeral_text(bot.slash("alice", "shanten", {"tiles": "12x"}))  # checked before any defer
    assert "unexpected character 'x'" in text


def test_shanten_sanma_never_counts_removed_kinds(bot: Bot) -> None:
    # Tenhou sanma has no 2m–8m: they can be neither in the hand nor among the improving tiles
    tiles = "1119m456p789s1123z"
    desc = _description(_answer(bot.slash("alice", "shanten", {"tiles": tiles, "ruleset": "sanma"})))
    assert not re.search(r"\b[2-8]m×", desc), desc
    assert int(Shanten().calculate_shanten(counts_of(parse_tiles(tiles))[:34])) == 1
    assert "1-shanten (14 tiles)" in desc or desc.count("→ 1-shanten") >= 1
    text = _ephemeral_text(bot.slash("alice", "shanten", {"tiles": "1115m456p789s1123z", "ruleset": "sanma"}))
    assert "5m is not used in sanma" in text


def test_tw_9_shanten_of_a_sixteen_tile_hand(bot: Bot) -> None:
    # taiwan16.md §7 example 1: 123456m234p567s88p34s waits on 2s and 5s (five sets + a pair)
    _needs("taiwan16")
    msg = _answer(bot.slash("alice", "shanten", {"tiles": "123456m234p567s88p34s", "ruleset": "taiwan16"}))
    assert msg.embeds[0]["title"].startswith("tenpai (16 tiles)")
    assert "waits: 2s 5s" in _description(msg)


# --- issue 16 item 5 / issue 17 item 6 --------------------------------------------------------


def test_issue_17_score_with_spaces_between_groups(bot: Bot) -> None:
    # South's own wind triplet (1 han); fu 20 + 10 closed ron + 4 (honour triplet completed by ron)
    # + 2 (East pair, the round wind) = 36 → 40: 1 han 40 fu non-dealer = 1,300
    desc = _description(_answer(bot.slash("alice", "score", {"hand": "123m 456p 789s 11z 22z ron 2z seat=S"})))
    assert "1 han 40 fu = 1,300 points" in desc, desc
    text = _ephemeral_text(bot.slash("alice", "score", {"hand": "123m 456p 789s 11z 22z ron 2z"}))
    assert text.startswith("That hand cannot win: it is complete but has no yaku"), text


def test_issue_16_superscript_digit_is_named_by_score_and_shanten(bot: Bot) -> None:
    text = _ephemeral_text(bot.slash("alice", "score", {"hand": "12²3m456p789s1122z ron 2z"}))
    assert "unexpected character '²' at position 3" in text and "0-9" in text
    block = text.split("```")[1].strip("\n").splitlines()
    assert block[1].index("^") == block[0].index("²")
    text = _ephemeral_text(bot.slash("alice", "shanten", {"tiles": "12²3m456p789s1122z"}))
    assert "unexpected character '²' at position 3" in text and "went wrong" not in text


def test_issue_16_huge_honba_names_the_field(bot: Bot) -> None:
    text = _ephemeral_text(bot.slash("alice", "score", {"hand": "123m456p789s1122z ron 2z honba=" + "9" * 4000}))
    assert "honba must be from 0 to 99" in text and len(text) < 2000


def test_issue_17_rule_question_how_does_dora_work(bot: Bot) -> None:
    embed = _rule(bot, "riichi", "how does dora work").embeds[0]
    assert embed["title"].startswith("R-3.4")
    field = next(f for f in embed.get("fields", []) if f["name"] == "Also matching")
    assert 1 <= field["value"].count("`R-") <= 5


def test_rule_question_matching_nothing_says_how_to_ask(bot: Bot) -> None:
    text = _ephemeral_text(bot.slash("alice", "rule", {"ruleset": "riichi", "topic": "how does zzzqqq work"}))
    assert text.startswith("No rule of riichi matches 'how does zzzqqq work'")
    assert "question in plain words" in text and "/rule riichi" in text


def test_find_rule_reads_the_texts_of_the_language_asked() -> None:
    from bot.lookups import find_rule

    entry, book, _ = find_rule("riichi", "フリテンとは", "ja")
    assert entry.id == "R-6.4" and book is rulebook("riichi", "ja")
    entry, book, _ = find_rule("pk", "R-6.4", "ja")  # another ruleset's id, in the same language
    assert entry.id == "R-6.4" and book is rulebook("riichi", "ja")
    entry, book, _ = find_rule("riichi", "furiten")  # English stays the default
    assert entry.title == "Furiten" and book is rulebook("riichi")

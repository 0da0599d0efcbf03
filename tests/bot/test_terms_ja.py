"""Every yaku, point item and tai item any ruleset's results can name has its Japanese entry in the
catalog (``bot.render.names.yaku_name``), in the clubs' own words (../shared/seeds/); the rulesets'
own words and option descriptions too."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n import t, term
from bot.render.names import yaku_name
from bot.render.rules_card import option_help
from bot.render.variants import RULESET_WORDS
from engine.rules import find_ruleset, ruleset_names
from engine.rules.catalog import option_specs
from tools.catalog import item_keys

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"


def _seed(words: str) -> str:
    """The seed text that holds ``words`` (a club's original)."""
    if not SEEDS.is_dir():
        pytest.skip("../shared/seeds is not beside the repository")
    found = [
        p.read_text(encoding="utf-8")
        for p in sorted(SEEDS.glob("*.txt"))
        if words in p.read_text(encoding="utf-8")
    ]
    assert found, f"no seed says {words!r}"
    return found[0]


@pytest.mark.parametrize("name", ruleset_names())
def test_every_item_a_ruleset_can_name_has_a_japanese_entry(name: str) -> None:
    keys = item_keys(find_ruleset(name))
    assert keys, name
    for key in sorted(keys):
        english, japanese = yaku_name(key), yaku_name(key, "ja")
        assert japanese and japanese != english, (name, key, english)


def test_item_keys_cover_what_the_rulesets_score() -> None:
    """The lists come from the engine: riichi's yaku and yakuman, chinitsu_toutenkou's point table
    (CT-G2) and taiwan16's tai items (TW-13)."""
    assert {"riichi", "pinfu", "kokushi", "dora", "aka_dora", "ura_dora"} <= item_keys(find_ruleset("riichi"))
    assert "rinshan" not in item_keys(find_ruleset("seigou"))  # SG-6
    assert {"karasu", "banban", "gari", "tsumosu", "daisharin", "chiitoi_4"} <= item_keys(
        find_ruleset("chinitsu_toutenkou")
    )
    assert {"門清", "自摸", "花牌", "辺張", "単吊"} <= item_keys(find_ruleset("taiwan16"))


def test_japanese_names_use_the_seeds_words() -> None:
    # chinitsu_toutenkou (the club's ruling): カラス, ツモスー, 大車輪
    for key, word in (("karasu", "カラス"), ("tsumosu", "ツモスー"), ("daisharin", "大車輪")):
        assert yaku_name(key, "ja") == word
        assert word in _seed("チンイツ東天紅")
    # taiwan16: the items' Chinese names, with the tile after an item that names one
    assert yaku_name("門清", "ja") == "門清 (T-5)" and "門清" in _seed("台湾の16枚麻雀")
    assert (
        yaku_name("三元台 中", "ja") == "三元台 (T-6) 中" and yaku_name("三元台 中") == "Dragon set (T-6) Rd"
    )
    assert yaku_name("花牌 1f", "ja") == "花牌 (T-9) 1f"
    # the standard yaku from the engine's own name_ja
    assert (yaku_name("riichi", "ja"), yaku_name("hatsu", "ja")) == ("立直", "役牌 發")


def test_the_rulesets_own_words_are_catalog_messages_with_japanese() -> None:
    for name in ruleset_names():
        rs = find_ruleset(name)
        for word in (rs.score_unit, rs.riichi_word, rs.furiten_warning):
            assert word in RULESET_WORDS, (name, word)
            assert t("ja", word) != word, (name, word)
        assert rs.honba_word in ("honba", "continuation"), name  # the two variants.round_text writes
    assert t("ja", "{hand}, {n} continuation", hand="東1局", n=2) == "東1局 2連荘"


def test_every_option_description_has_japanese() -> None:
    for name in ruleset_names():
        for spec in option_specs(find_ruleset(name)):
            if spec.help:
                assert option_help(spec, "ja") != spec.help == option_help(spec), (name, spec.key)
                assert term("ja", "option", spec.help)

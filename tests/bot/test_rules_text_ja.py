"""The Japanese player texts of ``/rule`` (bot/rules_text/ja/*.md) against the specifications and
the English texts: every rule id of each spec has a Japanese entry, the Japanese file has the
same ids as the English one, each entry cites the same rule ids, and lookups by id, by a Japanese
keyword and by a Japanese question (written without spaces) find the right entry.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.rules_text import RULESETS, parse_rulebook, rulebook
from tests.bot.test_rules_text import SPEC_ID, spec_ids

JAPANESE = re.compile(r"[\u3041-\u30ff\u4e00-\u9fff]")


def _cited(text: str) -> set[str]:
    return {m.group(0) for m in SPEC_ID.finditer(text)}


@pytest.mark.parametrize("rs", list(RULESETS))
def test_every_spec_rule_id_has_a_japanese_text(shared_dir: Path, rs: str) -> None:
    ids = spec_ids(shared_dir)[rs]
    have = {e.id for e in rulebook(rs, "ja").entries}
    missing = sorted(ids - have)
    assert not missing, f"{rs}: no Japanese text for {missing}"


@pytest.mark.parametrize("rs", list(RULESETS))
def test_japanese_file_has_the_english_ids_in_order(rs: str) -> None:
    assert [e.id for e in rulebook(rs, "ja").entries] == [e.id for e in rulebook(rs).entries]


@pytest.mark.parametrize("rs", list(RULESETS))
def test_japanese_texts_are_japanese_and_fit_discord(rs: str) -> None:
    book = rulebook(rs, "ja")
    assert JAPANESE.search(book.title) and JAPANESE.search(book.summary), rs
    assert len(book.summary) <= 1200
    for e in book.entries:
        assert JAPANESE.search(e.text), f"{e.id}: no Japanese in the text"
        assert JAPANESE.search(e.title), f"{e.id}: no Japanese in the title"
        assert len(e.label) <= 100 and 10 <= len(e.text) <= 4096, e.id
        assert any(JAPANESE.search(k) for k in e.keywords), f"{e.id}: no Japanese keyword"
        assert any(k.isascii() for k in e.keywords), f"{e.id}: no English keyword"


@pytest.mark.parametrize("rs", list(RULESETS))
def test_japanese_entries_cite_the_rules_the_english_ones_cite(rs: str) -> None:
    en = {e.id: _cited(e.text) for e in rulebook(rs).entries}
    differ = {
        e.id: (sorted(en.get(e.id, set())), sorted(_cited(e.text)))
        for e in rulebook(rs, "ja").entries
        if _cited(e.text) != en.get(e.id, set())
    }
    assert not differ, f"{rs}: cited rule ids differ (English, Japanese): {differ}"


def test_english_stays_the_default_and_languages_load_apart() -> None:
    assert rulebook("riichi") is rulebook("riichi", "en")
    assert rulebook("riichi", "ja") is rulebook("riichi", "ja")
    assert rulebook("riichi").get("R-6.4").title == "Furiten"  # type: ignore[union-attr]
    assert rulebook("riichi", "ja").get("R-6.4").title == "振聴"  # type: ignore[union-attr]
    with pytest.raises(KeyError):
        rulebook("riichi", "fr")


def test_japanese_lookup_by_id_and_short_id() -> None:
    book = rulebook("riichi", "ja")
    assert book.get("R-6.4") is book.get("r6.4") is book.get("6.4") is not None
    assert [e.id for e in book.suggest("R-6.")][:3] == ["R-6.1", "R-6.2", "R-6.3"]


@pytest.mark.parametrize(
    ("rs", "query", "rule_id"),
    [
        ("riichi", "振聴", "R-6.4"),
        ("riichi", "フリテン", "R-6.4"),
        ("riichi", "一発", "R-5.4"),
        ("riichi", "喰い替え", "R-4.4"),
        ("riichi", "furiten", "R-6.4"),  # an English keyword finds the Japanese entry too
        ("riichi", "nagashi mangan", "R-11.3"),
        ("shoukou", "昇格", "SK-D2"),
        ("pk", "中付け", "PK-D7"),
        ("seigou", "リーチ宣言牌", "SG-3"),
        ("taiwan16", "八仙過海", "T-31"),
        ("chinitsu_toutenkou", "カラス", "CT-G5"),
    ],
)
def test_japanese_lookup_by_keyword(rs: str, query: str, rule_id: str) -> None:
    assert rulebook(rs, "ja").search(query)[0].id == rule_id


@pytest.mark.parametrize(
    ("rs", "question", "rule_id"),
    [
        ("riichi", "フリテンとは", "R-6.4"),
        ("riichi", "フリテンとは?", "R-6.4"),
        ("riichi", "ドラとは", "R-3.4"),
        ("riichi", "流し満貫って何ですか", "R-11.3"),
        ("riichi", "立直後の暗槓はできる?", "R-5.3"),
        ("riichi", "what is furiten", "R-6.4"),
        ("riichi", "包とは", "R-6.8"),
        ("shoukou", "昇降によるチーとは", "SK-3"),
        ("pk", "場ゾロって何", "PK-0.2"),
        ("pk", "打牌優先とは", "PK-7"),
        ("seigou", "嶺上開花はある?", "SG-6"),
        ("taiwan16", "補花とは", "TW-7"),
        ("chinitsu_toutenkou", "カラスとは何", "CT-G5"),
        ("chinitsu_toutenkou", "白の扱いは?", "CT-C1"),
    ],
)
def test_japanese_question_finds_the_rule_it_names(rs: str, question: str, rule_id: str) -> None:
    assert rulebook(rs, "ja").search(question)[0].id == rule_id


def test_question_bigrams_find_a_title_without_a_keyword() -> None:
    # no keyword of either entry is inside the question: only the bigrams of the title match
    book = parse_rulebook(
        "riichi",
        "## R-1.1 山の作り方\nkeywords: wall\n山を作ります。\n\n"
        "## R-1.2 点数の払い方\nkeywords: payment\n点数を払います。\n",
    )
    assert [e.id for e in book.search("点数の払い方を教えて")][:1] == ["R-1.2"]
    assert book.search("牌譜") == []

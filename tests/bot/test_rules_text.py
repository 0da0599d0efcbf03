"""The player texts of ``/rule`` (bot/rules_text/*.md) against the rule specifications.

Every rule id of ``../shared/rules/*.md`` (``R-…``, ``SK-…``, ``PK-…``, ``SG-…``, ``TW-…``,
``CT-…``) must have a player text, every text must belong to an id of the specs, each must fit
Discord's limits, and the texts are rewritten for players rather than copied from the specs.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.rules_text import RULESETS, parse_rulebook, rulebook

SPEC_ID = re.compile(r"(?<![\w-])(R|SK|PK|TW|SG|CT|T)-([A-Z]?\d+(?:\.\d+)*[a-z]?)\b")
OWNER = {prefix: rs for rs, prefix in RULESETS.items()} | {"T": "taiwan16"}


def _spec_dir(shared_dir: Path) -> Path:
    d = shared_dir / "rules"
    if not d.exists():
        pytest.skip(f"rule specifications not found at {d}")
    return d


def spec_ids(
    shared_dir: Path, *, prefixes: tuple[str, ...] = tuple(RULESETS.values())
) -> dict[str, set[str]]:
    """Every rule id written anywhere in the spec files, grouped by the ruleset that owns it."""
    out: dict[str, set[str]] = {rs: set() for rs in RULESETS}
    for f in sorted(_spec_dir(shared_dir).glob("*.md")):
        for m in SPEC_ID.finditer(f.read_text(encoding="utf-8")):
            if m.group(1) in prefixes:
                out[OWNER[m.group(1)]].add(f"{m.group(1)}-{m.group(2)}")
    return out


def defined_ids(shared_dir: Path) -> dict[str, set[str]]:
    """Ids that a spec file defines: a bold rule start (``**R-6.4**``, ``**SK-8a**``,
    ``**PK-D1 First call**``) or a table row's first cell (``| CT-A1 |``)."""
    bold = re.compile(r"\*\*((?:R|SK|PK|TW|SG|CT)-[A-Z]?\d+(?:\.\d+)*[a-z]?)\b")
    row = re.compile(r"^\|\s*((?:R|SK|PK|TW|SG|CT)-[A-Z]?\d+(?:\.\d+)*[a-z]?)\s*\|", re.M)
    out: dict[str, set[str]] = {rs: set() for rs in RULESETS}
    for rs in RULESETS:
        text = (_spec_dir(shared_dir) / f"{rs}.md").read_text(encoding="utf-8")
        for m in [*bold.finditer(text), *row.finditer(text)]:
            out[rs].add(m.group(1))
    return out


def _sections(shared_dir: Path, rs: str) -> set[str]:
    """``R-7`` style section ids: a numbered heading of the ruleset's spec file."""
    text = (_spec_dir(shared_dir) / f"{rs}.md").read_text(encoding="utf-8")
    return {f"{RULESETS[rs]}-{n}" for n in re.findall(r"^## (\d+)\. ", text, re.M)}


@pytest.mark.parametrize("rs", list(RULESETS))
def test_every_spec_rule_id_has_a_player_text(shared_dir: Path, rs: str) -> None:
    ids = spec_ids(shared_dir)[rs]
    assert len(ids) >= 10, f"parsed too few ids for {rs}: {sorted(ids)}"
    have = {e.id for e in rulebook(rs).entries}
    missing = sorted(ids - have)
    assert not missing, f"{rs}: no player text for {missing}"


def test_every_defined_rule_id_is_found_by_the_id_parser(shared_dir: Path) -> None:
    # guards the parser above: the ids a spec defines are all among the ids it collects
    every = spec_ids(shared_dir)
    for rs, ids in defined_ids(shared_dir).items():
        assert ids, rs
        assert ids <= every[rs], (rs, sorted(ids - every[rs]))


def test_taiwan16_tai_items_have_texts(shared_dir: Path) -> None:
    # the tai table's items (T-1 … T-34, T-9b) are rule ids of taiwan16.md too
    ids = {i for i in spec_ids(shared_dir, prefixes=("T",))["taiwan16"]}
    assert {"T-1", "T-9b", "T-34"} <= ids
    have = {e.id for e in rulebook("taiwan16").entries}
    assert not sorted(ids - have), sorted(ids - have)


@pytest.mark.parametrize("rs", list(RULESETS))
def test_no_player_text_for_an_id_the_spec_does_not_have(shared_dir: Path, rs: str) -> None:
    known = spec_ids(shared_dir, prefixes=(*RULESETS.values(), "T"))[rs] | _sections(shared_dir, rs)
    extra = sorted(e.id for e in rulebook(rs).entries if e.id not in known)
    assert not extra, f"{rs}: texts for ids not in the spec: {extra}"


@pytest.mark.parametrize("rs", list(RULESETS))
def test_texts_fit_discord_and_have_title_and_keywords(rs: str) -> None:
    book = rulebook(rs)
    assert book.title and book.summary and len(book.summary) <= 1200
    for e in book.entries:
        assert e.title and len(e.label) <= 100, e.id  # autocomplete choice names: 100 characters
        assert e.keywords, f"{e.id} has no keywords"
        assert 20 <= len(e.text) <= 4096, e.id  # embed description limit
        assert "\n## " not in e.text


_PROSE = frozenset(
    {"a", "an", "the", "of", "to", "is", "in", "on", "and", "or", "if", "it", "by", "for", "with", "that"}
    | {"be", "as", "are", "at", "from", "not", "may", "only", "any", "each", "no"}
)


def _shingles(text: str, n: int) -> set[tuple[str, ...]]:
    """Runs of ``n`` words that read as prose (4+ function words): a list of yaku names or a row
    of numbers shared with the spec is data, not a copied paragraph."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    runs = (tuple(words[i : i + n]) for i in range(len(words) - n + 1))
    return {r for r in runs if sum(w in _PROSE for w in r) >= 4}


@pytest.mark.parametrize("rs", list(RULESETS))
def test_texts_are_rewritten_not_copied_from_the_spec(shared_dir: Path, rs: str) -> None:
    spec = _shingles((_spec_dir(shared_dir) / f"{rs}.md").read_text(encoding="utf-8"), 12)
    copied = [e.id for e in rulebook(rs).entries if _shingles(e.text, 12) & spec]
    assert not copied, f"{rs}: these texts repeat 12+ words of the spec verbatim: {copied}"


def test_lookup_by_id_short_id_and_keyword() -> None:
    book = rulebook("riichi")
    assert book.get("R-6.4") is book.get("r6.4") is book.get("6.4")
    assert book.get("R-6.4") is not None and book.get("R-6.4").title == "Furiten"  # type: ignore[union-attr]
    assert book.search("furiten")[0].id == "R-6.4"
    assert book.get("R-99") is None and not book.search("zzzqqq")
    assert [e.id for e in book.suggest("R-6.")][:3] == ["R-6.1", "R-6.2", "R-6.3"]


def test_malformed_file_is_reported_with_its_line() -> None:
    with pytest.raises(ValueError, match="line 2"):
        parse_rulebook("riichi", "\n## not an id\ntext")
    with pytest.raises(ValueError, match="appears twice"):
        parse_rulebook("riichi", "## R-1.1 A\nkeywords: a\ntext one\n## R-1.1 B\nkeywords: b\ntext two\n")
    with pytest.raises(ValueError, match="never closed"):
        parse_rulebook("riichi", "---\ntitle: x\n## R-1.1 A\nkeywords: a\ntext\n")


# --- free-text questions (issue 17 item 6) -----------------------------------------------------


def test_question_words_leave_out_stop_words() -> None:
    book = rulebook("riichi")
    assert book.question_words("How does DORA work?") == ["dora"]
    assert book.question_words("what is the dead wall") == ["dead", "wall"]


def test_question_how_does_dora_work_finds_the_dora_rule(shared_dir: Path) -> None:
    spec = (_spec_dir(shared_dir) / "riichi.md").read_text(encoding="utf-8")
    assert "**R-3.4** Dora = the kind after the indicator" in spec
    found = rulebook("riichi").search("how does dora work")
    assert found[0].id == "R-3.4"
    assert 2 <= len(found) <= 6 and all("dora" in (e.title + " ".join(e.keywords) + e.text).lower() for e in found)


@pytest.mark.parametrize(
    ("rs", "question", "rule_id"),
    [
        ("riichi", "what is furiten", "R-6.4"),
        ("riichi", "What is the dead wall?", "R-3.1"),
        ("riichi", "how are honba paid", "R-10.4"),
        ("chinitsu_toutenkou", "カラスとは何", "CT-G5"),
    ],
)
def test_questions_find_the_rule_they_name(rs: str, question: str, rule_id: str) -> None:
    assert rulebook(rs).search(question)[0].id == rule_id


def test_a_question_matching_nothing_finds_nothing() -> None:
    assert rulebook("riichi").search("how does zzzqqq work") == []
    assert rulebook("riichi").ask("how does it work") == []

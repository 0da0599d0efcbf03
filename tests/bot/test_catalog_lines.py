"""The catalogs hold whole lines and labels, never sentence fragments: a message that begins with
whitespace or a separator (``" · {who}'s discard"``) was meant to be glued onto another one, and
glued pieces cannot be translated well (Japanese orders the words and writes the separators its own
way). A variant of a line is a message of its own (``"{label} · {who}'s discard"``). And
``tools.catalog update`` drops a message the code no longer uses, so a fragment replaced by whole
lines leaves the catalogs with it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot import i18n
from bot.command_tree import GENERIC
from tools import catalog

#: what a fragment begins with: a space, or a separator that joins it to the text before it
FRAGMENT_START = (" ", "\t", "\n", "·", "—", "–", "(", "（", ",", "、", ";", "；", ":", "：", ".")

#: messages that begin so and still stand alone, each with its reason
EXCEPTIONS = {
    ", ": "the language's list separator itself (Japanese: 、), used to join the items of a list of data",
    "(time damaged)": "a whole label that stands in place of an audit entry's timestamp; the parentheses are "
    "part of the label (Japanese writes its own （…）)",
}


def _msgids(lang: i18n.Lang) -> list[str]:
    out: list[str] = []
    for m in i18n.catalog(lang):
        if m.id:
            out.extend(m.id if isinstance(m.id, (tuple, list)) else [m.id])
    return out


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_no_message_is_a_fragment(lang: i18n.Lang) -> None:
    ids = _msgids(lang)
    assert "{label} · {who}'s discard" in ids  # the whole label that replaced the fragment " · {who}'s discard"
    fragments = [m for m in ids if m not in EXCEPTIONS and (m.startswith(FRAGMENT_START) or m != m.rstrip())]
    assert not fragments, "messages that begin with a separator or end with whitespace:\n" + "\n".join(map(repr, fragments))


def test_the_exceptions_are_still_in_the_catalog() -> None:
    ids = set(_msgids("ja"))
    assert not set(EXCEPTIONS) - ids, "an exception no longer needed: remove it from EXCEPTIONS"


def test_update_drops_a_message_the_code_no_longer_uses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(catalog.LOCALE_DIR, tmp_path, dirs_exist_ok=True)
    monkeypatch.setattr(catalog, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(catalog, "command_strings", lambda: set())  # the command entries are kept either way
    for lang in catalog.LANGS:
        cat = catalog.read(catalog.po_path(lang), lang)
        cat.add(" · a fragment nothing uses", " · a fragment nothing uses" if lang == "en" else " · 使われない断片")
        catalog.write(cat, catalog.po_path(lang))
    assert catalog.update() == 0
    for lang in catalog.LANGS:
        with catalog.po_path(lang).open("rb") as f:
            cat = read_po(f, locale=lang, domain="jantaku")
        assert cat.get(" · a fragment nothing uses") is None
        assert cat.get(GENERIC) is not None  # a message kept in a constant is marked N_ and stays
        assert cat.get("table", context="command") is not None
        kept = {(m.context, m.id) for m in i18n.catalog(lang) if m.id}
        assert {(m.context, m.id) for m in cat if m.id} == kept


# -- the whole lines read in each language ---------------------------------------------------------


def test_a_claim_label_is_one_message_in_japanese() -> None:
    from bot.views.words import action_label
    from engine.table.actions import Action

    assert action_label(Action.parse("3p55m@1"), None, ["a", "b", "c", "d"]) == "Pon 5m 5m · b's discard"
    ja = action_label(Action.parse("3p55m@1"), None, ["a", "b", "c", "d"], "ja")
    assert ja == "ポン 5m 5m · bの捨て牌"
    shifted = action_label(Action.parse("2c34m8m>5m"), None, (), "ja")
    assert shifted == i18n.t("ja", "{label} ({tile} as {kind})", label=i18n.t("ja", "Chi {tiles}", tiles="3m 4m"), tile="8m", kind="5m")
    assert "として" in shifted and " as " not in shifted


def test_an_option_value_offered_with_its_marks() -> None:
    from cogs.house import _choice_label

    assert _choice_label("en", "true", now=True, usual=True) == "true (now) (usual)"
    assert _choice_label("en", "false", now=False, usual=True) == "false (usual)"
    assert _choice_label("en", "3", now=False, usual=False) == "3"
    assert _choice_label("ja", "true", now=True, usual=True) == "true（現在・標準）"
    assert _choice_label("ja", "true", now=True, usual=False) == "true（現在）"


def test_a_round_opened_with_byes_and_closed_dms() -> None:
    from cogs.league import _opened

    en = _opened("en", 2, "Spring", "tables #4, #5", "<t:99:R>", ["Kana"], ["Bob", "Dave"])
    assert en == (
        "Round 2 of 'Spring' is open: tables #4, #5; it closes <t:99:R>. Bye: Kana. "
        "I could not DM Bob, Dave (their DMs are closed)."
    )
    assert _opened("en", 2, "Spring", "x", "y", [], ["Bob"]) == "Round 2 of 'Spring' is open: x; it closes y. I could not DM Bob (their DMs are closed)."
    ja = _opened("ja", 2, "Spring", "tables #4, #5", "<t:99:R>", ["Kana"], ["Bob", "Dave"])
    assert "抜け番: Kana" in ja and "Bob, Dave にDMを送れませんでした" in ja and "Bye" not in ja

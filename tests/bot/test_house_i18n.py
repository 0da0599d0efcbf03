"""Issue 21, "Japanese": the house-rules option menu in the reader's language.

The options' descriptions are the engine's English data (``OptionSpec.help``); the catalog holds
each one's Japanese as an entry of context ``option`` (tools/catalog.py adds them), and
:func:`bot.house.option_line` shows it to a ``ja`` reader and the English to anyone else.
"""

from __future__ import annotations

import re

from bot.house import option_line
from bot.i18n import term
from engine.rules.base import rulesets_in_menu_order
from engine.rules.catalog import option_specs
from tools.catalog import term_strings

JA_CHARS = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def test_every_option_description_of_every_ruleset_has_its_japanese() -> None:
    seen = 0
    for rs in rulesets_in_menu_order():
        for spec in option_specs(rs):
            if not spec.help:
                continue
            seen += 1
            ja = term("ja", "option", spec.help)
            assert ja != spec.help and JA_CHARS.search(ja), (rs.name, spec.key, ja)
            assert term("en", "option", spec.help) == spec.help
            assert ("option", spec.help) in term_strings()
    assert seen >= 20


def test_the_option_menu_line_is_in_the_readers_language() -> None:
    spec = next(s for s in option_specs(next(iter(rulesets_in_menu_order()))) if s.key == "kuitan")
    en, ja = option_line(spec), option_line(spec, 100, "ja")
    assert en == option_line(spec, 100, "en") and spec.help[:20] in en
    assert ja.startswith(f"{spec.key} = ") and "喰いタン" in ja and spec.help[:20] not in ja
    assert len(ja) <= 100


def test_a_damaged_profile_is_named_in_the_readers_language() -> None:
    from bot.errors import UserError
    from bot.house import Damaged, HouseError, rules_of

    try:
        rules_of("nosuchrules", {})
    except Damaged as e:
        damaged = e
    else:
        raise AssertionError("an unknown base was played")
    assert str(damaged) == "its base ruleset 'nosuchrules' is not one this bot knows"
    refusal = HouseError(
        "the house rules '{name}' are damaged in the database ({why}), so they cannot be used; an organiser can "
        "delete them with /house delete, and the bot's host can repair row {row} of the house_rules table",
        name="club", why=UserError(damaged.msgid, **damaged.kw), row=3,
    )
    assert "(its base ruleset 'nosuchrules' is not one this bot knows)" in refusal.sentence("en")
    ja = refusal.sentence("ja")
    assert "基本ルールセット 'nosuchrules' をこのボットは知りません" in ja and "ハウスルール「club」" in ja and ja.endswith("。"), ja


def test_every_rulesets_description_has_its_japanese() -> None:
    for rs in rulesets_in_menu_order():
        ja = term("ja", "ruleset", rs.description)
        assert ja != rs.description and JA_CHARS.search(ja), rs.name
        assert term("en", "ruleset", rs.description) == rs.description

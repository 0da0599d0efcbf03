"""The option catalog (engine/rules/catalog.py): every option of every ruleset is listed, can be set
from text and round-trips through ``options_dict``; bad values and unplayable combinations are
refused in one sentence; the riichi options carry rule ids that exist in rules/riichi.md."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from engine.rules import find_ruleset, ruleset_names
from engine.rules.catalog import OptionError, option_specs, set_option, show_value

RULES = Path(__file__).resolve().parents[2].parent / "shared" / "rules"


def test_riichi_options_are_described_with_rule_ids_of_the_spec() -> None:
    """R-1.2 ... R-12.5: each riichi option names a rule that riichi.md defines."""
    text = (RULES / "riichi.md").read_text(encoding="utf-8")
    defined = set(re.findall(r"\*\*(R-\d+\.\d+)\*\*", text))
    specs = option_specs(find_ruleset("riichi"))
    assert len(specs) == 34
    for spec in specs:
        assert spec.help, spec.key
        assert spec.rule in defined or spec.rule in ("§7", "sanma", "chombo"), (spec.key, spec.rule)
    # the spec's options table (§16) lists these keys; every one is settable here
    table = set(re.findall(r"`riichi\.(\w+)`", text.split("## 16.")[1].split("## 17.")[0]))
    assert table - {s.key.split(".")[0] for s in specs} == set()


def _other_value(spec) -> str | None:  # type: ignore[no-untyped-def]
    if spec.kind == "bool":
        return show_value(not spec.value)
    if spec.kind == "choice":
        return next((c for c in spec.choices if c != spec.value), None)
    if spec.kind == "choices":
        return show_value(tuple(c for c in spec.choices if c not in spec.value) or ())
    if spec.kind in ("int", "int?"):
        return str((spec.value or 0) + 600)
    if spec.kind == "ints":
        return show_value(spec.value)
    return None


@pytest.mark.parametrize("name", ruleset_names())
def test_every_option_sets_from_text_and_round_trips(name: str) -> None:
    """Setting an option to its own shown value changes nothing; setting it to another value either
    plays (and survives options_dict -> with_options, as a stored profile or game does) or is
    refused with one sentence."""
    rs = find_ruleset(name)
    specs = option_specs(rs)
    assert specs
    for spec in specs:
        assert set_option(rs, spec.key, show_value(spec.value)) == rs, spec.key
        other = _other_value(spec)
        if other is None:
            continue
        try:
            new = set_option(rs, spec.key, other)
        except OptionError as e:
            assert str(e) and "\n" not in str(e) and len(str(e)) < 200, (spec.key, str(e))
            continue
        assert new != rs or other == show_value(spec.value), spec.key
        again = find_ruleset(name).with_options(**new.options_dict())
        assert again == new, spec.key
        changed = {s.key for s in option_specs(new) if s.changed}
        assert spec.key in changed or other == show_value(spec.value), spec.key


@pytest.mark.parametrize(
    ("name", "key", "value", "says"),
    [
        ("riichi", "bogus", "1", "no option 'bogus'"),
        ("riichi", "kuitan", "maybe", "kuitan takes true or false"),
        ("riichi", "multi_ron", "all", "double | head_bump | triple"),
        ("riichi", "red_fives", "5,1,1", "more than the 4 copies"),
        ("riichi", "red_fives", "1,1", "red_fives takes 3 whole numbers"),
        ("riichi", "uma", "30,10,-10,-20", "add up to 0"),
        ("riichi", "uma", "20,10,-10", "needs 4 values"),
        ("riichi", "uma", "-20,-10,10,20", "go down from 1st"),
        ("riichi", "noten_total", "1000", "multiple of 600"),
        ("riichi", "pao", "daisangen,chombo", "comma list of daisangen"),
        ("riichi", "kita", "true", "3-player rule"),
        ("sanma", "red_fives", "1,1,1", "no 5m"),
        ("sanma", "uma", "15,0,-15,0", "needs 3 values"),
        ("riichi", "start_points", "35000", "return_points must be"),
        ("taiwan16", "tw.multi_win", "triple", "head_bump, all"),
        # values the game would break on mid-play (review of session 5): refused when set
        ("riichi", "start_points", "1" + "0" * 20, "from -1,000,000 to 1,000,000"),
        ("riichi", "honba_ron", "1" + "0" * 3000, "honba_ron takes"),
        ("chinitsu_toutenkou", "ct.white_dora_kinds", "99,99,99,99,99,99", "tile kinds, 0 to 33"),
        ("chinitsu_toutenkou", "ct.gari_value", "0:1,4:1,99:1", "a tile kind (0 to 33)"),
        ("taiwan16", "tw.min_tai", "30", "min_tai must be 8 or less"),
    ],
)
def test_bad_values_are_refused_in_one_sentence(name: str, key: str, value: str, says: str) -> None:
    rs = find_ruleset(name)
    with pytest.raises(OptionError) as e:
        set_option(rs, key, value)
    assert says in str(e.value), str(e.value)
    assert "\n" not in str(e.value)


def test_hostile_text_is_clipped_and_changes_nothing() -> None:
    rs = find_ruleset("riichi")
    for text in ("\x00" * 3000, "\ud800", "１", "true; DROP TABLE games", "9" * 400):
        with pytest.raises(OptionError) as e:
            set_option(rs, "start_points", text)
        assert len(str(e.value)) < 200 and str(e.value).isprintable()
    assert find_ruleset("riichi") == rs


def test_a_profile_of_several_changes_is_what_the_engine_plays() -> None:
    """kuitan off and head bump, as issue 19's example club sets them, reach RiichiOptions."""
    rs = set_option(set_option(find_ruleset("riichi"), "kuitan", "false"), "multi_ron", "head_bump")
    assert rs.options.kuitan is False and rs.options.multi_ron == "head_bump"
    assert rs.options_dict() == {"kuitan": False, "multi_ron": "head_bump"}


def test_differences_name_each_option_that_differs() -> None:
    """What /result import tells an organiser when a log's rules are not the season's."""
    from engine.rules.catalog import differences

    club = set_option(find_ruleset("riichi"), "kuitan", "false")
    assert differences(find_ruleset("riichi"), find_ruleset("riichi")) == []
    assert differences(club, find_ruleset("riichi")) == ["kuitan: false here, true there"]
    assert differences(find_ruleset("riichi"), find_ruleset("mleague"))[0].startswith(
        "a different ruleset: mleague"
    )
    mleague_like = replace(find_ruleset("riichi"), options=find_ruleset("mleague").options)
    lines = differences(find_ruleset("riichi"), mleague_like)
    # riichi.md §18: M-League differs in uma, tobi, agari-yame, head bump, kiriage, nagashi, abortive draws, kazoe, pao
    assert {line.split(":")[0].split(".")[0] for line in lines} == {
        "uma",
        "tobi",
        "agari_yame",
        "multi_ron",
        "kiriage",
        "nagashi_mangan",
        "abortive_draws",
        "kazoe",
        "pao",
    }
    assert differences(find_ruleset("riichi"), find_ruleset("sanma"))[0].startswith(
        "a different ruleset: sanma"
    )


@pytest.mark.parametrize(("name", "prefix", "group"), [("taiwan16", "taiwan16", "tw"), ("chinitsu_toutenkou", "ct", "ct")])
def test_variants_with_their_own_rules_offer_their_own_options_only(name: str, prefix: str, group: str) -> None:
    """TW options table / CT options table: a club of these variants sets the spec's own options
    (every key of the file's options table is settable); riichi's options, which these rulesets
    keep only to run the shared table, are neither listed nor settable, in one sentence."""
    rs = find_ruleset(name)
    text = (RULES / f"{name}.md").read_text(encoding="utf-8")
    table = {k.split(" ")[0] for k in re.findall(rf"^\| `{prefix}\.([\w.]+)`", text, flags=re.M)}
    keys = {s.key for s in option_specs(rs)}
    assert keys and all(k.startswith(group + ".") for k in keys), sorted(keys)
    assert {f"{group}.{k}" for k in table} - keys == set()
    for key in ("kuitan", "riichi.tobi", "abortive_draws.sanchahou", "red_fives"):
        with pytest.raises(OptionError, match=rf"^{name} plays by its own rules, not riichi's .*: its options start with {group}\.$"):
            set_option(rs, key, "true")

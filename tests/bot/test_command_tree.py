"""bot/command_tree.py's autocomplete helper: what a club's names offer for what was typed."""

from __future__ import annotations

from bot.command_tree import choices


def test_choices_keep_the_order_ignore_case_and_stop_at_25() -> None:
    names = [f"Spring {i}" for i in range(30)] + ["Autumn"]
    got = choices(names, "spRING")
    assert [c.value for c in got] == [f"Spring {i}" for i in range(25)]
    assert all(c.name == c.value for c in got)
    assert [c.value for c in choices(names, "umn")] == ["Autumn"]
    assert choices(names, "winter") == []


def test_choices_show_a_label_but_answer_the_name() -> None:
    got = choices(["club", "weekly"], "", lambda name: f"{name} (riichi)")
    assert [(c.name, c.value) for c in got] == [("club (riichi)", "club"), ("weekly (riichi)", "weekly")]

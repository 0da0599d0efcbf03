"""engine/table/HOOKS.md is generated from the hooks' docstrings and is current; every hook is in a
phase of play and documents when it is called, what it returns and what riichi does (issue 18 §2)."""

from __future__ import annotations

import inspect
import re

import pytest

from engine.table.hooks import TableHooks
from tools.hooks_doc import DOC, phases, render

HOOK_NAMES = sorted(
    name for name, member in inspect.getmembers(TableHooks, inspect.isfunction) if not name.startswith("_")
)


def test_hooks_md_is_current() -> None:
    assert DOC.read_text(encoding="utf-8") == render(), "engine/table/HOOKS.md is stale: run `python -m tools.hooks_doc`"


def test_every_hook_is_in_hooks_md_under_a_phase() -> None:
    groups = phases()
    assert all(p.title != "hooks" for p in groups), "a hook comes before the first phase comment"
    assert all(p.about for p in groups), "a phase comment without its one-line description"
    listed = sorted(h.name for p in groups for h in p.hooks)
    assert listed == HOOK_NAMES
    doc = DOC.read_text(encoding="utf-8")
    headed = set(re.findall(r"^#### `(\w+)\(", doc, flags=re.M))
    # the five hooks the hand-written page used to miss, and every other one
    assert {"new_hand_state", "copy_hand_state", "kyuushu_allowed", "double_riichi", "suufon_renda"} <= headed
    assert set(HOOK_NAMES) <= headed


@pytest.mark.parametrize("name", HOOK_NAMES)
def test_each_hook_says_when_it_is_called_what_it_returns_and_the_riichi_default(name: str) -> None:
    doc = " ".join((inspect.getdoc(getattr(TableHooks, name)) or "").split())
    assert "Called " in doc, f"{name}: say when the game calls it"
    assert "Returns " in doc or "Changes " in doc, f"{name}: say what it returns (or what it changes)"
    assert "Riichi" in doc, f"{name}: say what riichi does"


def test_phases_follow_the_section_comments() -> None:
    src = (
        "class TableHooks:\n"
        '    """Doc."""\n'
        "\n"
        "    # ---------------------------------------------------------------- first phase\n"
        "    # What happens first,\n"
        "    # in two lines.\n"
        "\n"
        "    def a(self, g: Game) -> int:\n"
        '        """A."""\n'
        "        return 1\n"
        "\n"
        "    # ---------------------------------------------------------------- second phase\n"
        "    # Then this.\n"
        "\n"
        "    def b(self, g: Game, seat: int) -> None:\n"
        '        """B."""\n'
        "\n"
        "    def c(self, g: Game) -> bool:\n"
        '        """C."""\n'
        "        return True\n"
    )
    got = [(p.title, p.about, [(h.name, h.signature, h.doc) for h in p.hooks]) for p in phases(src)]
    assert got == [
        ("first phase", "What happens first, in two lines.", [("a", "a(g: Game) -> int", "A.")]),
        (
            "second phase",
            "Then this.",
            [("b", "b(g: Game, seat: int) -> None", "B."), ("c", "c(g: Game) -> bool", "C.")],
        ),
    ]

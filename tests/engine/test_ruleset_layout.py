"""Every variant is a package of taiwan16's shape (issue 18 §3): ``engine/rules/<name>/`` with
``options.py``, ``table.py`` (the hooks), ``ruleset.py`` (the ``Ruleset`` subclass), a scoring
module or hand line where it has them, and an ``__init__.py`` that registers it and whose docstring
names each module (and says which of taiwan16's parts the variant does not have)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.rules import find_ruleset, ruleset_names
from engine.rules.base import Ruleset
from engine.table.hooks import TableHooks

RULES = Path(__file__).resolve().parents[2] / "engine" / "rules"
VARIANTS = sorted(n for n in ruleset_names() if type(find_ruleset(n)) is not Ruleset)


def test_the_variants_are_found() -> None:
    assert {"chinitsu_toutenkou", "pk", "seigou", "shoukou", "taiwan16"} <= set(VARIANTS)


def test_no_variant_is_a_flat_module_any_more() -> None:
    """The flat modules of engine/rules are shared parts (the base, riichi options, the option
    catalog, the facts types): none defines a Ruleset subclass or registers a variant."""
    flat = []
    for p in RULES.glob("*.py"):
        if p.stem in ("__init__", "base"):  # base registers the riichi presets, which are no variants
            continue
        tree = ast.parse(p.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            registers = isinstance(node, ast.Call) and getattr(node.func, "id", None) == "register"
            subclass = isinstance(node, ast.ClassDef) and any(getattr(b, "id", None) == "Ruleset" for b in node.bases)
            if registers or subclass:
                flat.append(p.name)
    assert flat == []


@pytest.mark.parametrize("name", VARIANTS)
def test_variant_is_a_package_of_the_taiwan16_shape(name: str) -> None:
    rs = find_ruleset(name)
    pkg = RULES / name
    assert type(rs).__module__ == f"engine.rules.{name}.ruleset"
    for part in ("__init__", "options", "table", "ruleset"):
        assert (pkg / f"{part}.py").is_file(), f"{name}: no {part}.py"
    hooks = {h for h in vars(TableHooks) if not h.startswith("_")}
    mixins = [c for c in type(rs).__mro__ if c.__module__ == f"engine.rules.{name}.table"]
    assert mixins and hooks & set(vars(mixins[0])), f"{name}: the hook overrides are not in table.py"
    assert not hooks & set(vars(type(rs))), f"{name}: ruleset.py overrides hooks that belong in table.py"
    doc = ast.get_docstring(ast.parse((pkg / "__init__.py").read_text(encoding="utf-8"))) or ""
    for module in sorted(p.stem for p in pkg.glob("*.py") if p.stem != "__init__"):
        assert f":mod:`.{module}`" in doc, f"{name}/__init__.py: its docstring does not name {module}.py"
    if not (pkg / "hand.py").is_file():
        assert "No ``hand.py``" in doc, f"{name}/__init__.py: say that it has no hand.py"

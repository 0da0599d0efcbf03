"""The tables package keeps one job per module (issue 28): read from the source with :mod:`ast`.

* The moves of a game are stored in one place: only bot/tables/acting.py calls the repository's
  ``append_actions`` (the write that stores moves and re-arms the turn clock in one transaction),
  of every module in ``bot/`` and ``cogs/``.
* Each module of the package says its job in a docstring, and is under 900 lines.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "bot" / "tables"


def _calls(path: Path, name: str) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        n.lineno
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == name
    ]


def test_only_acting_stores_the_moves_of_a_game() -> None:
    callers = {
        str(p.relative_to(ROOT)): lines
        for d in ("bot", "cogs")
        for p in sorted((ROOT / d).rglob("*.py"))
        if "storage" not in p.relative_to(ROOT).parts and (lines := _calls(p, "append_actions"))
    }
    assert list(callers) == ["bot/tables/acting.py"], callers


def test_each_module_of_the_tables_package_says_its_job_and_stays_small() -> None:
    modules = sorted(PACKAGE.glob("*.py"))
    assert {p.stem for p in modules} >= {"acting", "autoplay", "clocks", "lifecycle", "restore", "service"}
    for p in modules:
        text = p.read_text(encoding="utf-8")
        doc = ast.get_docstring(ast.parse(text))
        assert doc and len(doc.split()) >= 20, f"{p.name}: no docstring saying its job"
        assert len(text.splitlines()) <= 900, f"{p.name}: {len(text.splitlines())} lines"

"""The way out is layered: ``bot/outbound`` knows Discord's budgets and nothing of mahjong (it
imports nothing of the engine, the tables, the views or the client), and nothing under
``bot/views`` or ``bot/outbound`` imports the client back (the client makes the presenter).
Imports inside functions and under ``TYPE_CHECKING`` count too."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _imports(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: inside its own package
                out.add("." * node.level + (node.module or ""))
            else:
                out.add(node.module or "")
    return out


def test_outbound_imports_nothing_of_mahjong() -> None:
    files = sorted((ROOT / "bot" / "outbound").glob("*.py"))
    assert len(files) >= 5
    for path in files:
        ours = {m for m in _imports(path) if m.split(".")[0] in ("bot", "cogs", "engine", "devserver")}
        assert all(m.startswith("bot.outbound") for m in ours), (path.name, ours)


def test_nothing_on_the_way_out_imports_the_client_or_a_cog() -> None:
    for package in ("views", "outbound"):
        for path in sorted((ROOT / "bot" / package).glob("*.py")):
            bad = {m for m in _imports(path) if m == "bot.client" or m.startswith("cogs")}
            assert not bad, (f"bot/{package}/{path.name}", bad)

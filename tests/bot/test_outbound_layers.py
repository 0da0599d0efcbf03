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


def _graph() -> dict[str, set[str]]:
    """Module -> the modules of bot/, cogs/ and devserver/ it imports (anywhere in it)."""
    mods: dict[str, Path] = {}
    for root in ("bot", "cogs", "devserver"):
        for path in (ROOT / root).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            mods[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path

    def known(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    edges: dict[str, set[str]] = {m: set() for m in mods}
    for m, path in mods.items():
        package = m if path.name == "__init__.py" else m.rpartition(".")[0]
        for name in _imports(path):
            if name.startswith("."):
                dots = len(name) - len(name.lstrip("."))
                base = package.split(".")[: len(package.split(".")) - dots + 1]
                name = ".".join([*base, name.lstrip(".")] if name.lstrip(".") else base)
            target = known(name)
            if target is not None and target != m:
                edges[m].add(target)
    return edges


def _reaches(edges: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(edges[start])
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(edges[m])
    return seen


def test_the_way_in_and_out_is_in_no_import_circle() -> None:
    """The client, the play cog, the views and the outbound package: none is reached back from
    what it imports (late imports and TYPE_CHECKING ones count)."""
    edges = _graph()
    ours = [m for m in edges if m.startswith(("bot.views", "bot.outbound")) or m in ("bot.client", "cogs.play")]
    assert "bot.client" in ours and "bot.views.presenter" in ours
    circles = [m for m in ours if m in _reaches(edges, m)]
    assert not circles, circles

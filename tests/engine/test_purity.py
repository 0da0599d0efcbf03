"""The engine stays pure: no Discord, no database, no asyncio, no clock (brief: architecture)."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN_MODULES = {"discord", "aiosqlite", "asyncio", "sqlite3", "time", "datetime"}
FORBIDDEN_CALLS = {"time.time", "time.monotonic", "datetime.now", "datetime.utcnow", "date.today"}


def _imports(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name.split(".")[0], node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module.split(".")[0], node.lineno))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            v = node.func.value
            name = f"{v.id}.{node.func.attr}" if isinstance(v, ast.Name) else ""
            if name in FORBIDDEN_CALLS:
                found.append((name, node.lineno))
    return found


def test_engine_imports_no_io_frameworks_and_reads_no_clock() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert files
    bad = [
        f"{p.relative_to(ENGINE.parent)}:{line} uses {mod}"
        for p in files
        for mod, line in _imports(p)
        if mod in FORBIDDEN_MODULES or mod in FORBIDDEN_CALLS
    ]
    assert not bad, "\n".join(bad)


def test_the_check_itself_catches_a_forbidden_import(tmp_path: Path) -> None:
    p = tmp_path / "x.py"
    p.write_text("import asyncio\nfrom discord import ui\nimport time\nx = time.time()\n")
    mods = {m for m, _ in _imports(p)}
    assert {"asyncio", "discord", "time", "time.time"} <= mods

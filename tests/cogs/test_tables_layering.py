"""cogs/tables.py only translates: it reaches tables through the table service, never storage.

Read with the :mod:`ast` module: no attribute named ``repo`` (``self.service.repo``,
``self.bot.repo``), no name ``Repository``, no import of ``bot.storage``. What the ``/table``
commands read of stored tables (a channel's tables, a server's list, a finished table's
verification) are :class:`~bot.tables.TableService` methods.
"""

from __future__ import annotations

import ast
from pathlib import Path

COG = Path(__file__).resolve().parents[2] / "cogs" / "tables.py"


def test_the_tables_cog_never_reaches_the_repository() -> None:
    tree = ast.parse(COG.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ("repo", "repository"):
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Name) and node.id == "Repository":
            found.append(f"line {node.lineno}: Repository")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bot.storage"):
            found.append(f"line {node.lineno}: from {node.module} import")
        elif isinstance(node, ast.Import) and any(a.name.startswith("bot.storage") for a in node.names):
            found.append(f"line {node.lineno}: import bot.storage")
    assert not found, "cogs/tables.py reaches storage: " + ", ".join(found)

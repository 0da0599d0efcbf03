"""Hooks and the bot use only Game's public surface: no module outside engine/table/game.py reads
a private member (``_name``) of a Game (issue 18 §2).

The private names are collected from game.py's ``Game`` class with the ``ast`` module (its methods,
and the ``self._x`` attributes its methods assign); any ``<expr>._x`` with one of those names
outside game.py is flagged unless ``<expr>`` is ``self`` or ``cls`` (another class's own member of
the same name).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "engine" / "table" / "game.py"
PACKAGES = ("engine", "bot", "cogs")


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def game_private_names(source: str | None = None) -> frozenset[str]:
    """The private member names of class ``Game`` in ``source`` (game.py when None)."""
    tree = ast.parse(GAME.read_text(encoding="utf-8") if source is None else source)
    game = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Game")
    names: set[str] = set()
    for node in game.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _is_private(node.name):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign | ast.Assign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name) and _is_private(t.id))
    for node in ast.walk(game):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
            and _is_private(node.attr)
        ):
            names.add(node.attr)
    return frozenset(names)


def private_reads(tree: ast.AST, private: frozenset[str]) -> list[ast.Attribute]:
    """``<expr>._x`` nodes of ``tree`` naming one of ``private``, ``<expr>`` not ``self``/``cls``."""
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr in private
        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
    ]


def private_game_reads(private: frozenset[str]) -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if path == GAME or ".venv" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in sorted(private_reads(tree, private), key=lambda n: n.lineno):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_game_private_names_are_found() -> None:
    # the collector on game.py (a private method of the state machine) and on a made-up Game
    assert "_start_hand" in game_private_names()
    src = (
        "class Game:\n"
        "    _slot: int = 0\n"
        "    def __init__(self):\n        self._x = 1\n        self.y = 2\n"
        "    def _step(self):\n        pass\n"
        "    def __len__(self):\n        return 0\n"
        "class Other:\n    def _other(self):\n        pass\n"
    )
    assert game_private_names(src) == {"_slot", "_x", "_step"}


def test_no_module_outside_game_reads_a_private_member_of_game() -> None:
    found = private_game_reads(game_private_names())
    assert not found, "private members of Game read outside engine/table/game.py:\n" + "\n".join(found)


def test_the_check_flags_a_private_read_but_not_self() -> None:
    tree = ast.parse("def hook(g, self):\n    return g._start_hand, self._start_hand, g.start_hand, g.t._take\n")
    flagged = [ast.unparse(n) for n in private_reads(tree, game_private_names())]
    assert sorted(flagged) == ["g._start_hand", "g.t._take"]

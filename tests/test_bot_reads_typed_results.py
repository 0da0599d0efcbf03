"""The bot reads the engine's typed results and facts; it never probes them by string (issue 28).

A win's breakdown is :attr:`ScoreResult.breakdown <engine.scoring.result.ScoreResult.breakdown>`
(typed parts, :mod:`engine.scoring.breakdown`), the turn window and the dice are
:meth:`Ruleset.turn_window <engine.rules.base.Ruleset.turn_window>` and
:meth:`Ruleset.dice <engine.rules.base.Ruleset.dice>`, every shanten calculator has ``copies_of``,
and a variant's words come from its public names. This test reads bot/ and cogs/ with the ``ast``
module (devserver is a Discord stand-in) and fails on the ways the bot used to reach them:

* indexing a scoring result's details by a string: ``sc.details["bazoro"]``,
  ``r.details.get("tai_items")``, ``details["unit"]`` (a renamed key silently showed nothing);
* ``getattr(obj, "literal")`` / ``hasattr(obj, "literal")`` on an engine object: the receiver is
  one the bot names for an engine value (``g.hand_state``, ``g.deal``, ``calc``, ``sc`` ...), or the
  attribute is one only engine classes define (``window``, ``dice``, ``copies_of``);
* importing a private name (a leading underscore) of ``engine.rules.*``, or from a private module.

``test_the_scan_finds_what_the_bot_did`` runs the scan on the code the bot had before (kept here
as snippets), so the scan itself is checked.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIP = ROOT / "devserver"

#: how bot/ and cogs/ name engine values (a game, its parts, rulesets, calculators, results)
ENGINE_HANDLES = frozenset(
    {"g", "game", "hand_state", "deal", "calc", "ruleset", "rs", "sc", "score", "spec", "ctx", "tileset", "seats"}
)
#: members every kind of object has, whoever defines them: not a sign of an engine object
GENERIC = frozenset({"value", "name", "size", "type", "id"})


def _files(root: Path) -> list[Path]:
    return sorted(p for d in ("bot", "cogs") for p in (root / d).rglob("*.py") if SKIP not in p.parents)


def _members(paths: list[Path]) -> set[str]:
    """Every member a class in ``paths`` defines: fields, methods, class attributes, ``self.x``."""
    out: set[str] = set()
    for p in paths:
        for c in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if not isinstance(c, ast.ClassDef):
                continue
            for n in c.body:
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    out.add(n.name)
                elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
                    out.add(n.target.id)
                elif isinstance(n, ast.Assign):
                    out.update(t.id for t in n.targets if isinstance(t, ast.Name))
            for n in ast.walk(c):
                if (
                    isinstance(n, ast.Attribute)
                    and isinstance(n.ctx, ast.Store)
                    and isinstance(n.value, ast.Name)
                    and n.value.id == "self"
                ):
                    out.add(n.attr)
    return out


@cache
def engine_only_members(root: Path = ROOT) -> frozenset[str]:
    """Members engine classes define and no class of bot/ or cogs/ does (nor every object has)."""
    engine = _members(sorted((root / "engine").rglob("*.py")))
    return frozenset(engine - _members(_files(root)) - GENERIC)


def _handles(node: ast.expr) -> set[str]:
    """The names along a receiver: ``g.hand_state`` → {"g", "hand_state"}."""
    out: set[str] = set()
    while True:
        if isinstance(node, ast.Attribute):
            out.add(node.attr)
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Subscript):
            node = node.value
        else:
            if isinstance(node, ast.Name):
                out.add(node.id)
            return out


def _is_details(node: ast.expr, aliases: frozenset[str] = frozenset()) -> bool:
    """``x.details``, a variable named ``details``, or one assigned from ``x.details`` (``d = sc.details``)."""
    if isinstance(node, ast.Attribute):
        return node.attr == "details"
    return isinstance(node, ast.Name) and (node.id == "details" or node.id in aliases)


def _aliases(tree: ast.AST) -> frozenset[str]:
    """Names assigned a ``details`` in the module (``d = sc.details``)."""
    return frozenset(
        t.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Assign) and _is_details(n.value)
        for t in n.targets
        if isinstance(t, ast.Name)
    )


def _is_str(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def violations(source: str, where: str, engine_only: frozenset[str]) -> list[str]:
    """What ``source`` (a module of bot/ or cogs/) reads by string from the engine."""
    out: list[str] = []
    tree = ast.parse(source)
    aliases = _aliases(tree)
    for n in ast.walk(tree):
        at = f"{where}:{getattr(n, 'lineno', 0)}"
        if isinstance(n, ast.Subscript) and _is_details(n.value, aliases) and _is_str(n.slice):
            out.append(f"{at}: details indexed by a string: {ast.unparse(n)}")
        elif isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Attribute) and f.attr in ("get", "pop", "setdefault") and _is_details(f.value, aliases):
                if n.args and _is_str(n.args[0]):
                    out.append(f"{at}: details read by a string: {ast.unparse(n)}")
            elif isinstance(f, ast.Name) and f.id in ("getattr", "hasattr") and len(n.args) >= 2 and _is_str(n.args[1]):
                literal = n.args[1]
                assert isinstance(literal, ast.Constant)
                attr = str(literal.value)
                if attr in engine_only or (_handles(n.args[0]) & ENGINE_HANDLES and attr not in GENERIC):
                    out.append(f"{at}: {f.id} of an engine object by a string: {ast.unparse(n)}")
        elif isinstance(n, ast.ImportFrom) and n.module and (n.module + ".").startswith("engine.rules."):
            private_module = any(part.startswith("_") for part in n.module.split("."))
            private = [a.name for a in n.names if a.name.startswith("_") and not a.name.startswith("__")]
            if private_module or private:
                out.append(f"{at}: a private name of {n.module} imported: {', '.join(private) or n.module}")
        elif isinstance(n, ast.Import):
            for a in n.names:
                if a.name.startswith("engine.rules.") and any(part.startswith("_") for part in a.name.split(".")):
                    out.append(f"{at}: a private module imported: {a.name}")
    return out


def scan(root: Path = ROOT) -> list[str]:
    engine_only = engine_only_members(root)
    out: list[str] = []
    for p in _files(root):
        out += violations(p.read_text(encoding="utf-8"), str(p.relative_to(root)), engine_only)
    return out


def test_bot_and_cogs_read_typed_results_and_facts() -> None:
    found = scan()
    assert not found, "\n".join(found)


#: what bot/ and cogs/ did before issue 28, each a line the scan must flag
BEFORE = {
    "tai items": 'items = sc.details.get("tai_items") or []',
    "transformations": 'for tr in sc.details.get("transformations") or []: pass',
    "wildcards": 'wild = sc.details.get("wildcards") or []',
    "bazoro": 'bazoro = r.details.get("bazoro")',
    "table han": 'table = sc.details["table_han"]',
    "a details variable": 'unit = details["unit"]',
    "a details alias": 'd = sc.details\nbase = d.get("base", "")',
    "turn window": 'window = getattr(g.hand_state, "window", "")',
    "dice": 'dice = getattr(g.deal, "dice", ())',
    "copies_of": 'per_kind = getattr(calc, "copies_of", None)',
    "copies_of on anything": 'ok = hasattr(thing, "copies_of")',
    "a private name": "from engine.rules.taiwan16.tai import _T11_NAMES, ITEMS",
    "a private module": "from engine.rules.chinitsu_toutenkou._x import thing",
}

#: what the scan must leave alone: Discord values, the result's typed parts, a public name
FINE = {
    "a command's option": 'name = getattr(interaction.namespace, "ruleset", None)',
    "a locale": 'value = getattr(locale, "value", locale)',
    "a refusal": 'sentence = getattr(e, "sentence", None)',
    "the breakdown": "items = [b for b in sc.breakdown if isinstance(b, TaiItem)]",
    "the window": "window = g.ruleset.turn_window(g)",
    "a public name": "from engine.rules.taiwan16 import ITEMS, T11_NAMES",
    "details as a whole": "for k, v in r.details.items(): pass",
}


def test_the_scan_finds_what_the_bot_did() -> None:
    engine_only = engine_only_members()
    for what, line in BEFORE.items():
        assert violations(line, what, engine_only), f"not flagged: {what}: {line}"
    for what, line in FINE.items():
        assert not violations(line, what, engine_only), f"flagged: {what}: {line}"

"""The bot asks a ruleset for its facts; it never finds them by name (issue 18 §1).

Everything a variant shows or how the AI plays it is a typed member of
:class:`~engine.rules.base.Ruleset` with riichi's value as the default, so a new ruleset is one
folder under ``engine/rules``. This test reads bot/ and cogs/ (devserver is a Discord stand-in,
not about rulesets) with the ``ast`` module and fails on the two ways the bot used to know a variant:

* looking up a ruleset member by string: ``getattr(g.ruleset, "tw", None)``, ``hasattr(rs, ...)``
  (a typo there silently showed riichi);
* comparing a ruleset's name to pick behaviour: ``rs.name == "pk"``, ``name in ("seigou",
  "shoukou")``, or a hand-made list or dict of ruleset names (``_ORDER``, ``{"pk": "han"}``).
"""

from __future__ import annotations

import ast
from pathlib import Path

from engine.rules import ruleset_names

ROOT = Path(__file__).resolve().parents[1]
SKIP = ROOT / "devserver"
NAMES = frozenset(ruleset_names())
RULESET_WORDS = frozenset({"ruleset", "rs"})  # how the code names a ruleset value


def _files() -> list[Path]:
    return sorted(p for d in ("bot", "cogs") for p in (ROOT / d).rglob("*.py") if SKIP not in p.parents)


def _is_ruleset(node: ast.expr) -> bool:
    """``g.ruleset``, ``rs``, ``ruleset``, or a part of one (``ruleset.options``)."""
    if isinstance(node, ast.Name):
        return node.id in RULESET_WORDS
    if isinstance(node, ast.Attribute):
        return node.attr == "ruleset" or _is_ruleset(node.value)
    return False


def _strings(node: ast.expr) -> list[str] | None:
    """The strings of a string literal or of a tuple/list/set of them; None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and node.elts:
        out = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        return out if len(out) == len(node.elts) else None
    return None


def _is_name_of_ruleset(node: ast.expr) -> bool:
    """``rs.name`` / ``g.ruleset.name``, possibly ``.lower()``-ed."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args:
        return _is_name_of_ruleset(node.func.value)
    return isinstance(node, ast.Attribute) and node.attr == "name" and _is_ruleset(node.value)


def _from_ruleset(node: ast.AST, derived: set[str]) -> bool:
    """Whether ``node`` holds a ruleset or a value taken from one (``name = ruleset.name``)."""
    return any(
        (isinstance(n, ast.expr) and _is_ruleset(n)) or (isinstance(n, ast.Name) and n.id in derived)
        for n in ast.walk(node)
    )


def _derived_names(scope: ast.AST) -> set[str]:
    """Names a function (or module) assigns from a ruleset: ``name = (ruleset or "riichi").strip()``."""
    out: set[str] = set()
    for n in ast.walk(scope):
        if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None and _from_ruleset(n.value, out):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            out.update(t.id for t in targets if isinstance(t, ast.Name))
    return out


def _compare(node: ast.Compare, derived: set[str]) -> bool:
    """A comparison of a ruleset's name (or a value taken from a ruleset) with ruleset names."""
    if not all(isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)) for op in node.ops):
        return False
    sides = [node.left, *node.comparators]
    literal = [w for s in sides for w in _strings(s) or ()]
    other = [s for s in sides if _strings(s) is None]
    if not literal or not other:
        return False
    if any(_is_name_of_ruleset(s) for s in other):
        return True  # any string: a typo of a name is still a name
    return any(w in NAMES for w in literal) and any(_from_ruleset(s, derived) for s in other)


def findings(source: str, filename: str = "<test>") -> list[str]:
    """Where ``source`` finds a ruleset fact by name, one ``line: what`` per place."""
    tree = ast.parse(source, filename=filename)
    out: set[tuple[int, str]] = set()
    scopes = [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))]
    for scope in scopes:
        derived = _derived_names(scope)
        for node in ast.walk(scope):
            if isinstance(node, ast.Compare) and _compare(node, derived):
                out.add((node.lineno, f"{ast.unparse(node)} picks behaviour by a ruleset's name"))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2
            and _is_ruleset(node.args[0])
            and isinstance(node.args[1], ast.Constant)
        ):
            what = f"{node.func.id}({ast.unparse(node.args[0])}, {node.args[1].value!r})"
            out.add((node.lineno, f"{what} looks a ruleset member up by string"))
        elif isinstance(node, ast.Dict):
            keys = [k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
            if sum(k in NAMES for k in keys) >= 2:
                out.add((node.lineno, f"a dict keyed by ruleset names ({', '.join(k for k in keys if k in NAMES)})"))
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            listed = [n for n in _strings(node) or () if n in NAMES]
            if len(listed) >= 2:
                out.add((node.lineno, f"a hand-made list of ruleset names ({', '.join(listed)})"))
    return [f"{line}: {what}" for line, what in sorted(out)]


def test_bot_and_cogs_ask_the_ruleset_instead_of_finding_facts_by_name() -> None:
    files = _files()
    assert len(files) > 20
    bad = [f"{p.relative_to(ROOT)}:{line}" for p in files for line in findings(p.read_text(), str(p))]
    assert not bad, "\n".join(bad)


def test_the_check_catches_each_way_of_knowing_a_variant_by_name() -> None:
    caught = [
        'tw = getattr(rs, "tw", None)',
        'f = getattr(g.ruleset, "shown_tiles", None)',
        'k = bool(getattr(ruleset.options, "kuitan", True))',
        'ok = hasattr(game.ruleset, "pk")',
        'if ruleset.name == "pk": pass',
        'if g.ruleset.name.lower() != "pkk": pass',  # a typo is a name comparison too
        'def f(ruleset: str) -> None:\n    name = (ruleset or "riichi").strip()\n    if name.lower() == "shoukou": pass',
        'def f(rs: object) -> None:\n    name = rs.name\n    if name in ("seigou", "shoukou"): pass',
        'UNITS = {"taiwan16": "tai", "chinitsu_toutenkou": "pts"}',
        'ORDER = ("riichi", "tenhou", "sanma")',
        'SHAPES = {"riichi", "pk"}',
        'if spec.ruleset == "taiwan16": pass',
    ]
    for src in caught:
        assert findings(src), src


def test_the_check_leaves_unrelated_code_alone() -> None:
    fine = [
        'n = getattr(interaction.namespace, "ruleset", None) or "riichi"',  # a command option, not a ruleset
        'w = getattr(g.hand_state, "window", "")',
        'size = getattr(f, "size", 24)',
        'ok = any(r.name == role for r in member.roles)',
        'if by not in ("points", "rating"): pass',
        'def rating_system(name: str) -> int:\n    return 1 if name == "tenhou" else 0',  # a rating, not a ruleset
        'EXPLAINED = {"tenhou": "Tenhou\'s R", "points": "the total"}',
        'if kind == "riichi": pass',  # a button kind
        'def open_table(ruleset: str = "riichi") -> None: pass',
        'people = [u for u in ("alice", "bob")]',
        'if rs.hand_value == "tai": pass',  # a typed fact's value, not the ruleset's name
        'x = rs.wildcards',
    ]
    for src in fine:
        assert not findings(src), (src, findings(src))

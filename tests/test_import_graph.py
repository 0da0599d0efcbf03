"""No import circles in ``bot/``, ``cogs/`` and ``devserver/``, late imports included (issue 28).

The graph is built from the source with the :mod:`ast` module, never by importing it: every
``import`` and ``from … import`` statement anywhere in a module counts, at the top or inside a
function, a method or a ``try`` (a late import is still a dependency: it only moves the failure of
a circle from start-up to the first call), and relative forms (``from . import x``,
``from ..storage import repository``) are resolved against the module's package.

An edge ``a -> b`` means that ``a`` imports ``b``, or runs it by importing. Importing ``pkg.sub.mod`` runs
``pkg/__init__.py`` and ``pkg/sub/__init__.py`` first, so the edge goes to each of those packages
too (except the importer's own packages, which are already running when it runs): a package whose
``__init__`` re-exports its modules closes a circle through any module outside it that one of them
imports and that imports the package back. ``from pkg import name`` goes to ``pkg.name`` when that
is a module, and to ``pkg`` in every case (the package runs first).

Imports under ``if TYPE_CHECKING:`` count too. They never run, so they cannot make an import fail,
but they are a dependency all the same: the two modules cannot be read, tested or moved one
without the other, and such a pair is how a circle hides (``bot/client.py`` and
``bot/presenter.py`` named each other only for the type checker). A module that needs another's
type without depending on it takes a :class:`typing.Protocol` of its own.

On a circle the test fails naming each one: its modules, and the shortest way round through each
of them, with the file and line of each import.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "devserver")


@dataclass(frozen=True, slots=True)
class Edge:
    source: str
    target: str
    path: str  # the importing file, relative to the root
    line: int


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement of the tree at any depth (functions, methods, ``try``, ``if``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node


def _named(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    """The dotted names the statement imports (before the packages they run are added)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        package = module.split(".") if is_package else module.split(".")[:-1]
        base_parts = package[: len(package) - (node.level - 1)]
        if node.module:
            base_parts = [*base_parts, *node.module.split(".")]
        base = ".".join(base_parts)
    else:
        base = node.module or ""
    return [base, *(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")]


def build_graph(root: Path, packages: tuple[str, ...] = PACKAGES) -> tuple[set[str], list[Edge]]:
    """The modules under ``packages`` and the import edges between them."""
    files = {module_name(root, p): p for d in packages if (root / d).is_dir() for p in sorted((root / d).rglob("*.py"))}
    modules = set(files)
    edges: list[Edge] = []
    for module, path in files.items():
        is_package = path.name == "__init__.py"
        parts = module.split(".")
        own = {".".join(parts[:i]) for i in range(1, len(parts) + 1)}  # itself and its packages
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in _imports(tree):
            targets: set[str] = set()
            for name in _named(node, module, is_package):
                named = name.split(".")
                targets.update(".".join(named[:i]) for i in range(1, len(named) + 1))
            for target in sorted(targets & modules - own):
                edges.append(Edge(module, target, str(path.relative_to(root)), node.lineno))
    return modules, edges


def cycles(modules: set[str], edges: list[Edge]) -> list[tuple[list[str], list[list[Edge]]]]:
    """Each circle: a group of modules that reach each other (Tarjan's strongly connected
    components of more than one module), with the shortest way round through each of its modules
    (the same way found from two of them is given once)."""
    out_edges: dict[str, list[Edge]] = {m: [] for m in modules}
    for e in edges:
        out_edges[e.source].append(e)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[set[str]] = []
    counter = 0

    def connect(v: str) -> None:  # recursion depth is bounded by the number of modules (a few hundred)
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for e in out_edges[v]:
            w = e.target
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for m in sorted(modules):
        if m not in index:
            connect(m)
    found = []
    for group in sorted(groups, key=min):
        walks: list[list[Edge]] = []
        for member in sorted(group):
            walk = _shortest_round(member, group, out_edges)
            if not any(set(walk) == set(w) for w in walks):
                walks.append(walk)
        found.append((sorted(group), walks))
    return found


def _shortest_round(start: str, group: set[str], out_edges: dict[str, list[Edge]]) -> list[Edge]:
    """The shortest closed walk from ``start`` back to it inside ``group`` (breadth first)."""
    came: dict[str, Edge] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for e in out_edges[v]:
                if e.target == start:
                    walk = [e]
                    while walk[0].source != start:
                        walk.insert(0, came[walk[0].source])
                    return walk
                if e.target in group and e.target not in came:
                    came[e.target] = e
                    nxt.append(e.target)
        frontier = nxt
    raise AssertionError(f"{start} is in a strongly connected group but no walk leads back to it")


def describe(walk: list[Edge]) -> str:
    names = " -> ".join([walk[0].source, *(e.target for e in walk)])
    steps = "; ".join(f"{e.path}:{e.line} imports {e.target}" for e in walk)
    return f"{names} ({steps})"


def test_no_import_circles_in_bot_cogs_and_devserver() -> None:
    modules, edges = build_graph(ROOT)
    assert {"bot", "cogs", "devserver"} <= {m.split(".")[0] for m in modules}
    found = cycles(modules, edges)
    assert not found, f"{len(found)} import circle(s):\n" + "\n".join(
        f"{', '.join(group)}:\n" + "\n".join(f"  {describe(w)}" for w in walks) for group, walks in found
    )


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_graph_sees_late_relative_package_and_type_checking_imports(tmp_path: Path) -> None:
    """The graph builder on a made-up package: a late import in a method, ``from . import x``,
    ``from ..e import y``, an import under ``if TYPE_CHECKING:`` and the run of a package's
    ``__init__`` are edges, and each circle is named with its files and lines."""
    _write(
        tmp_path,
        {
            "p/__init__.py": "",
            "p/a.py": "class A:\n    def f(self):\n        from p import b\n        return b\n",
            "p/b.py": "from . import c\n",
            "p/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p.q import d\n",
            "p/q/__init__.py": "from .d import D\n",
            "p/q/d.py": "from ..e import E\nD = 1\n",
            "p/e.py": "E = 2\n",
            "p/lone.py": "import p.q.d\n",
            "p/back.py": "import p.lone\n",
            "p/f.py": "from p.g import G\n",
            "p/g.py": "try:\n    import p.f\nexcept ImportError:\n    pass\nG = 3\n",
        },
    )
    modules, edges = build_graph(tmp_path, ("p",))
    pairs = {(e.source, e.target) for e in edges}
    assert modules == {"p", "p.a", "p.b", "p.c", "p.q", "p.q.d", "p.e", "p.lone", "p.back", "p.f", "p.g"}
    assert ("p.a", "p.b") in pairs  # the late import
    assert ("p.b", "p.c") in pairs  # from . import c
    assert {("p.c", "p.q"), ("p.c", "p.q.d")} <= pairs  # under TYPE_CHECKING; p/q/__init__.py runs first
    assert ("p.q.d", "p.e") in pairs  # from ..e import E
    assert ("p.q.d", "p.q") not in pairs  # its own package is already running
    assert ("p.lone", "p.q.d") in pairs and ("p.lone", "p.q") in pairs
    assert ("p.g", "p.f") in pairs  # inside try
    assert cycles(modules, [e for e in edges if e.source != "p.g"]) == []
    found = cycles(modules, edges)
    assert [(group, [[e.source for e in w] for w in walks]) for group, walks in found] == [(["p.f", "p.g"], [["p.f", "p.g"]])]
    assert describe(found[0][1][0]) == "p.f -> p.g -> p.f (p/f.py:1 imports p.g; p/g.py:2 imports p.f)"


def test_a_package_that_runs_a_module_which_imports_it_back_is_a_circle(tmp_path: Path) -> None:
    """``import p.q.d`` runs ``p/q/__init__.py``: when that runs a module that imports the first
    one back, the first one, imported first, finds the other half-made."""
    _write(
        tmp_path,
        {
            "p/__init__.py": "",
            "p/q/__init__.py": "from .service import Service\n",
            "p/q/model.py": "M = 1\n",
            "p/q/service.py": "from p.text import line\nService = 2\n",
            "p/text.py": "from p.q.model import M\n\ndef line():\n    return M\n",
        },
    )
    found = cycles(*build_graph(tmp_path, ("p",)))
    assert [group for group, _ in found] == [["p.q", "p.q.service", "p.text"]]

"""Per-suit lookup tables for shanten and agari, built once (numpy) and cached on disk.

The method is the exact "distance" formulation (tomohxx): for a suit's count vector ``c`` and a
target of ``m`` sets and ``p`` pairs (``p`` ∈ {0, 1}), ``D[m][p](c)`` is the least number of tiles
that must be added so that ``c`` contains such a complete form, with no kind above ``copies``.
A hand's distance is the min-plus combination of its suits' vectors, and shanten = distance − 1.

Tables are built over the whole lattice of count vectors with a separable min-plus transform
(one pass per rank), so a full table costs about a second. The per-suit vectors fall into very few
classes (126 for 4 copies and 4 sets), and so do their combinations, so combining the three
suits and the honours is four small table look-ups at run time.

This module is only imported through :mod:`engine.hand.shanten`.
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

INF = 99
TABLE_VERSION = 3


@dataclass(frozen=True, slots=True)
class SuitShape:
    ranks: int  # 9 for a number suit, 7 for the honours
    sequences: bool
    copies: int
    max_sets: int


def _forms(shape: SuitShape) -> dict[tuple[int, int], set[tuple[int, ...]]]:
    """Every complete form (m sets + p pairs) of one suit, as count tuples."""
    n, c_max, m_max = shape.ranks, shape.copies, shape.max_sets
    set_kinds: list[tuple[int, ...]] = []
    for i in range(n):
        set_kinds.append(tuple(3 if j == i else 0 for j in range(n)))
    if shape.sequences:
        for i in range(n - 2):
            set_kinds.append(tuple(1 if i <= j <= i + 2 else 0 for j in range(n)))
    out: dict[tuple[int, int], set[tuple[int, ...]]] = {}

    def rec(start: int, m: int, cnt: tuple[int, ...]) -> None:
        out.setdefault((m, 0), set()).add(cnt)
        for pk in range(n):
            if cnt[pk] + 2 <= c_max:
                out.setdefault((m, 1), set()).add(tuple(v + 2 if j == pk else v for j, v in enumerate(cnt)))
        if m == m_max:
            return
        for j in range(start, len(set_kinds)):
            nxt = tuple(a + b for a, b in zip(cnt, set_kinds[j]))
            if max(nxt) <= c_max:
                rec(j, m + 1, nxt)

    rec(0, 0, (0,) * n)
    return out


def _distance_vectors(shape: SuitShape) -> Any:
    """Array [ (copies+1)**ranks, 2*(max_sets+1) ] of distances, key = sum c_i * base**i."""
    base = shape.copies + 1
    n = shape.ranks
    size = base**n
    width = 2 * (shape.max_sets + 1)
    res = np.full((size, width), INF, dtype=np.uint8)
    weights = base ** np.arange(n)
    for (m, p), forms in _forms(shape).items():
        g = np.full(size, INF, dtype=np.uint8)
        keys = np.array([int(np.dot(f, weights)) for f in forms], dtype=np.int64)
        g[keys] = 0
        # Axis a of the C-ordered reshape is rank n-1-a; the transform is separable, so the
        # order of the per-axis passes does not matter.
        g = g.reshape((base,) * n)
        for ax in range(n):
            h = np.moveaxis(g, ax, 0).astype(np.int16)
            pre = np.minimum.accumulate(h, axis=0)  # surplus tiles cost nothing
            suf = np.full_like(h, INF)
            for c in range(base - 2, -1, -1):  # a missing tile costs one
                suf[c] = np.minimum(h[c + 1], suf[c + 1]) + 1
            h = np.minimum(np.minimum(pre, suf), INF)
            g = np.moveaxis(h.astype(np.uint8), 0, ax)
        res[:, m * 2 + p] = g.reshape(size)
    return res


def _convolve(a: Any, b: Any, max_sets: int) -> Any:
    """Min-plus combination of every row of ``a`` with every row of ``b`` → [len(a)*len(b), width]."""
    width = 2 * (max_sets + 1)
    out = np.full((a.shape[0], b.shape[0], width), INF, dtype=np.int16)
    a16 = a.astype(np.int16)
    b16 = b.astype(np.int16)
    for m1 in range(max_sets + 1):
        for p1 in range(2):
            for m2 in range(max_sets + 1 - m1):
                for p2 in range(2 - p1):
                    k = (m1 + m2) * 2 + p1 + p2
                    np.minimum(
                        out[:, :, k], a16[:, None, m1 * 2 + p1] + b16[None, :, m2 * 2 + p2], out=out[:, :, k]
                    )
    return np.minimum(out, INF).reshape(a.shape[0] * b.shape[0], width)


@dataclass(slots=True)
class BuiltTables:
    """Everything the run-time shanten needs, as plain numpy arrays (cached in one .npz)."""

    num_class: Any  # [(copies+1)**9] uint16: class of each number-suit key
    num_vectors: Any  # [V, width]
    hon_class: Any  # [(copies+1)**7] uint16
    hon_vectors: Any  # [H, width]
    t2: Any  # [V*V] class of man+pin
    t3: Any  # [C2*V] class of man+pin+sou
    final: Any  # [C3*H, max_sets+1]: distance with one pair, for m sets


def _unique(rows: Any) -> tuple[Any, Any]:
    u, inv = np.unique(rows, axis=0, return_inverse=True)
    return u, inv.reshape(-1).astype(np.uint16)


def build(copies: int, max_sets: int) -> BuiltTables:
    num = _distance_vectors(SuitShape(9, True, copies, max_sets))
    hon = _distance_vectors(SuitShape(7, False, copies, max_sets))
    num_vec, num_cls = _unique(num)
    hon_vec, hon_cls = _unique(hon)
    c2_vec, t2 = _unique(_convolve(num_vec, num_vec, max_sets))
    c3_vec, t3 = _unique(_convolve(c2_vec, num_vec, max_sets))
    full = _convolve(c3_vec, hon_vec, max_sets)
    final = full[:, 1::2].astype(np.uint8)  # the p = 1 columns, for m = 0..max_sets
    return BuiltTables(num_cls, num_vec, hon_cls, hon_vec, t2, t3, final)


def _cache_dir() -> Path:
    env = os.environ.get("JANTAKU_CACHE")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "jantaku"


def cache_path(copies: int, max_sets: int) -> Path:
    """Where the tables for ``copies`` per kind and ``max_sets`` sets are cached."""
    tag = hashlib.sha1(f"{TABLE_VERSION}:{copies}:{max_sets}".encode()).hexdigest()[:12]
    return _cache_dir() / f"shanten-{copies}-{max_sets}-{tag}.npz"


def load(copies: int, max_sets: int) -> BuiltTables:
    """Load the tables from the on-disk cache, building (and caching) them on first use."""
    path = cache_path(copies, max_sets)
    names = ("num_class", "num_vectors", "hon_class", "hon_vectors", "t2", "t3", "final")
    try:
        with np.load(path) as z:
            return BuiltTables(*(z[n] for n in names))
    except (OSError, KeyError, ValueError):
        pass
    tables = build(copies, max_sets)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp.npz")  # one per writer
        np.savez_compressed(tmp, **{n: getattr(tables, n) for n in names})
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home only costs the rebuild next time
    return tables

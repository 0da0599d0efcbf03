"""Shanten and agari by memoised per-suit search, for tile sets with more than 4 copies of a kind.

The table-driven :class:`~engine.hand.shanten.ShantenCalculator` is built for at most 4 copies per
kind. A ruleset with more (chinitsu_toutenkou has 8 copies of each number of its one suit) gets
:class:`SearchCalculator` through :func:`engine.hand.shanten.calculator`; the 4-copy path is not
touched.

Each suit (and the honours) is searched once per count vector: the result is the set of
Pareto-best ``(sets, partial sets, head)`` triples it can be read as, memoised on the suit's counts.
A hand's standard shanten is the best combination of its suits' triples under the usual formula
``2K − 2·sets − min(partials, K − sets) − head`` with ``K`` the sets the concealed part needs. The
formula ignores how many copies exist (a wait on a kind the hand holds every copy of still counts),
which is the usual convention of search-based calculators.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product

from engine.hand.shanten import ShantenCalculator, special_shanten

__all__ = ["SearchCalculator", "best_standard", "pareto", "suit_partitions"]

Triple = tuple[int, int, int]  # (sets, partial sets incl. extra pairs, head 0/1)

_memo: dict[tuple[bytes, bool], frozenset[Triple]] = {}


def pareto(items: Iterable[Triple]) -> frozenset[Triple]:
    xs = sorted(set(items), reverse=True)
    keep: list[Triple] = []
    for x in xs:
        if not any(y[0] >= x[0] and y[1] >= x[1] and y[2] >= x[2] for y in keep):
            keep.append(x)
    return frozenset(keep)


def suit_partitions(key: bytes, sequences: bool) -> frozenset[Triple]:
    """Pareto-best (sets, partials, head) readings of one suit's counts (memoised)."""
    found = _memo.get((key, sequences))
    if found is not None:
        return found
    c = list(key)
    n = len(c)
    i = 0
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        res = frozenset({(0, 0, 0)})
        _memo[(key, sequences)] = res
        return res
    out: list[Triple] = []

    def sub(changes: Sequence[tuple[int, int]], dm: int, dt: int, dp: int) -> None:
        cc = list(c)
        for j, d in changes:
            cc[j] -= d
        for m, t, p in suit_partitions(bytes(cc), sequences):
            if p + dp <= 1:
                out.append((m + dm, t + dt, p + dp))

    if c[i] >= 3:
        sub(((i, 3),), 1, 0, 0)
    if c[i] >= 2:
        sub(((i, 2),), 0, 0, 1)
        sub(((i, 2),), 0, 1, 0)
    if sequences:
        if i + 2 < n and c[i + 1] and c[i + 2]:
            sub(((i, 1), (i + 1, 1), (i + 2, 1)), 1, 0, 0)
        if i + 1 < n and c[i + 1]:
            sub(((i, 1), (i + 1, 1)), 0, 1, 0)
        if i + 2 < n and c[i + 2]:
            sub(((i, 1), (i + 2, 1)), 0, 1, 0)
    sub(((i, 1),), 0, 0, 0)  # the tile stays isolated
    res = pareto(out)
    _memo[(key, sequences)] = res
    return res


def best_standard(parts: Sequence[frozenset[Triple]], need: int) -> int:
    """Standard-form shanten from each group's triples, for a hand that needs ``need`` sets."""
    best = 99
    for combo in product(*parts):
        m = sum(x[0] for x in combo)
        t = sum(x[1] for x in combo)
        p = sum(x[2] for x in combo)
        if p > 1:
            continue
        m = min(m, need)
        sh = 2 * need - 2 * m - min(t, need - m) - p
        if sh < best:
            best = sh
    return best


_GROUPS = ((0, 9, True), (9, 18, True), (18, 27, True), (27, 34, False))


class SearchCalculator(ShantenCalculator):
    """The :class:`ShantenCalculator` interface for any number of copies (search, not tables)."""

    def __init__(self, copies: int = 8, max_sets: int = 4) -> None:  # no table build
        self.copies = copies
        self.max_sets = max_sets
        self.standard = self._standard
        self.forms = self._forms
        self.shanten = self._shanten
        self.is_agari = self._is_agari

    def _standard(self, counts: Sequence[int]) -> int:
        b = bytes(counts[:34])
        n = sum(b)
        parts = [suit_partitions(b[lo:hi], seqs) for lo, hi, seqs in _GROUPS]
        return best_standard(parts, n // 3)

    def _forms(self, counts: Sequence[int]) -> tuple[int, int, int]:
        std = self._standard(counts)
        c = counts[:34]
        n = sum(c)
        if n not in (13, 14):
            return std, 99, 99
        return (std, *special_shanten(c))

    def _shanten(self, counts: Sequence[int]) -> int:
        return min(self._forms(counts))

    def _is_agari(self, counts: Sequence[int]) -> bool:
        if sum(counts[:34]) % 3 != 2:
            return False
        return self._shanten(counts) == -1

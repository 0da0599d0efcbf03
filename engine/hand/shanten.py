"""Shanten, agari check, waits and ukeire, table-driven.

Input is a count array indexed by kind (``len >= 34``; flowers past index 33 are ignored) for the
*concealed* tiles only; melds are implied by the size (``3n+1`` or ``3n+2`` tiles means
``4 - n`` melds for a 13/14-tile game, ``5 - n`` for taiwan16).

Per suit, one dictionary look-up on the suit's counts (as ``bytes``) gives a packed int: the low
bits are the suit's distance class (see :mod:`engine.hand.tables`), the high bits hold additive
counters (tiles, pairs, kinds, yaochu kinds, yaochu pairs, "complete", "holds the pair") so that
the sum of the four values answers the chiitoitsu, kokushi and agari questions at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from engine.hand import tables as _tables
from engine.tiles import YAOCHU


def special_shanten(c: Sequence[int]) -> tuple[int, int]:
    """Chiitoitsu and kokushi shanten of a concealed 13- or 14-tile hand's 34 counts (R-6.2):
    seven distinct pairs (a kind held twice more counts once, a missing kind costs one more);
    thirteen terminals and honours plus a pair of one of them."""
    pairs = sum(1 for x in c if x >= 2)
    kinds = sum(1 for x in c if x >= 1)
    chiitoi = 6 - pairs + max(0, 7 - kinds)
    y = sum(1 for k in YAOCHU if c[k])
    yp = any(c[k] >= 2 for k in YAOCHU)
    return chiitoi, 13 - y - (1 if yp else 0)

__all__ = [
    "PACK_CLASS",
    "PACK_FIELD",
    "PACK_KINDS",
    "PACK_PAIRS",
    "PACK_TILES",
    "PACK_YAOCHU",
    "PACK_YAOCHU_PAIRS",
    "ShantenCalculator",
    "SuitTables",
    "Ukeire",
    "calculator",
    "is_agari",
    "is_tenpai",
    "shanten",
    "shanten_forms",
    "ukeire",
    "waits",
]

# A packed per-suit value: the suit's distance class in the low 12 bits, then 6-bit counters. The
# four suits' values are added and the counters read off the sum, so the class field must hold the
# sum of four classes (checked when a calculator is built: 1,050 at most with five sets).
_CLS = 4095
_F_N, _F_P, _F_K, _F_Y, _F_YP, _F_CF, _F_PS = 12, 18, 24, 30, 36, 42, 48
_AGARI_STD = (1 << 6) | 4  # after >> _F_CF: four complete blocks, exactly one of them holds the pair
_M6 = 63

_YAOCHU_NUM = (0, 8)  # ranks that are yaochu inside a number suit

# Public names of the packed per-suit value's layout (see :class:`SuitTables`): ``v & PACK_CLASS``
# is the suit's distance class; ``(v >> PACK_TILES) & PACK_FIELD`` its tiles, and so on. The
# counters are additive, so they can be read off the sum of the four suits' values.
PACK_CLASS = _CLS
PACK_FIELD = _M6
PACK_TILES, PACK_PAIRS, PACK_KINDS, PACK_YAOCHU, PACK_YAOCHU_PAIRS = _F_N, _F_P, _F_K, _F_Y, _F_YP


@dataclass(frozen=True, slots=True)
class SuitTables:
    """A calculator's per-suit tables, for callers that change a hand one suit at a time (the AI's
    ukeire search): a hand is four packed values, ``maps[s][bytes(counts of suit s)]`` (suits 0-2
    the number suits, 3 the honours), and a tile drawn or discarded replaces one of them.

    ``standard(v1, v2, v3, v4)`` is the standard-form shanten of the hand those values describe,
    equal to ``calculator.standard(counts)`` for a 3n+1 or 3n+2 hand. ``special_forms`` says
    whether the calculator's ``shanten`` also takes chiitoitsu and kokushi (13 and 14 tiles),
    read off the counters as :meth:`seven_pairs` and :meth:`thirteen_orphans` (every field of the
    sum adds up exactly: the class field holds the sum of four classes).
    """

    maps: tuple[dict[bytes, int], dict[bytes, int], dict[bytes, int], dict[bytes, int]]
    t2: list[int]
    t3: list[int]
    final: list[int]
    width: int
    special_forms: bool

    @staticmethod
    def tiles(v1: int, v2: int, v3: int, v4: int) -> int:
        """Tiles in the hand."""
        return ((v1 + v2 + v3 + v4) >> _F_N) & _M6

    def standard(self, v1: int, v2: int, v3: int, v4: int) -> int:
        n = self.tiles(v1, v2, v3, v4)
        idx = self.t3[self.t2[(v1 & _CLS) * self.width + (v2 & _CLS)] + (v3 & _CLS)] + (v4 & _CLS)
        return self.final[idx + n // 3] - 1

    @staticmethod
    def seven_pairs(total: int) -> int:
        """Chiitoitsu shanten of a 13/14-tile hand from the sum of its four packed values."""
        kinds = (total >> _F_K) & _M6
        return 6 - ((total >> _F_P) & _M6) + (7 - kinds if kinds < 7 else 0)

    @staticmethod
    def thirteen_orphans(total: int) -> int:
        """Kokushi shanten of a 13/14-tile hand from the sum of its four packed values."""
        return 13 - ((total >> _F_Y) & _M6) - (1 if (total >> _F_YP) & _M6 else 0)


@dataclass(frozen=True, slots=True)
class Ukeire:
    """Tiles that lower the shanten of a 3n+1 hand: kind → copies still unseen."""

    shanten: int
    tiles: dict[int, int]

    @property
    def kinds(self) -> int:
        return len(self.tiles)

    @property
    def count(self) -> int:
        return sum(self.tiles.values())


class ShantenCalculator:
    """Shanten for hands built from ``copies`` of each kind and up to ``max_sets`` sets.

    ``standard``, ``forms``, ``shanten`` and ``is_agari`` are the hot paths (see
    ``_make_hot_paths``); every other question is answered through them.
    """

    standard: Callable[[Sequence[int]], int]
    forms: Callable[[Sequence[int]], tuple[int, int, int]]
    shanten: Callable[[Sequence[int]], int]
    is_agari: Callable[[Sequence[int]], bool]

    def __init__(self, copies: int = 4, max_sets: int = 4) -> None:
        if copies > 4:
            raise NotImplementedError("table-driven shanten is built for at most 4 copies per kind")
        t = _tables.load(copies, max_sets)
        self.copies = copies
        self.max_sets = max_sets
        m1 = max_sets + 1
        self._m1 = m1
        v = int(t.num_vectors.shape[0])
        h = int(t.hon_vectors.shape[0])
        self._v = v
        base = copies + 1
        self._base = base
        self._num_class = t.num_class
        self._hon_class = t.hon_class
        self._t2: list[int] = (t.t2.astype(np.int64) * v).tolist()
        self._t3: list[int] = (t.t3.astype(np.int64) * (h * m1)).tolist()
        self._final: list[int] = t.final.reshape(-1).astype(np.int64).tolist()
        limit = 3 * max_sets + 2
        # the four classes' sum must not carry out of the class field (see _CLS)
        biggest = 3 * int(t.num_class.max()) + int(t.hon_class.max()) * m1
        if biggest > _CLS:
            raise ValueError(f"packed shanten layout: classes add up to {biggest}, more than the field's {_CLS}")
        self._num = self._packed_map(9, True, t.num_class, t.num_vectors, base, limit, 1)
        self._hon = self._packed_map(7, False, t.hon_class, t.hon_vectors, base, limit, m1)
        self._make_hot_paths()

    @staticmethod
    def _packed_map(
        ranks: int, numbered: bool, classes: object, vectors: object, base: int, limit: int, mult: int
    ) -> dict[bytes, int]:
        cls = np.asarray(classes).astype(np.int64)
        vec = np.asarray(vectors)
        keys = np.arange(base**ranks, dtype=np.int32)
        digits = np.empty((keys.shape[0], ranks), dtype=np.uint8)
        for i in range(ranks):
            digits[:, i] = (keys // base**i) % base
        n = digits.sum(axis=1, dtype=np.int64)
        sel = n <= limit
        digits, n, cls = digits[sel], n[sel], cls[sel]
        yao = np.zeros(ranks, dtype=bool)
        if numbered:
            yao[list(_YAOCHU_NUM)] = True
        else:
            yao[:] = True
        pairs = (digits >= 2).sum(axis=1, dtype=np.int64)
        kinds = (digits >= 1).sum(axis=1, dtype=np.int64)
        ykinds = (digits[:, yao] >= 1).sum(axis=1, dtype=np.int64)
        ypairs = (digits[:, yao] >= 2).sum(axis=1, dtype=np.int64)
        # complete: this suit alone is sets (+ the pair when it has 3k+2 tiles)
        col = (n // 3) * 2 + (n % 3 == 2)
        complete = (vec[cls, np.minimum(col, vec.shape[1] - 1)] == 0) & (n % 3 != 1)
        packed = (
            cls * mult
            + (complete.astype(np.int64) << _F_CF)
            + (n << _F_N)
            + (pairs << _F_P)
            + (kinds << _F_K)
            + (ykinds << _F_Y)
            + (ypairs << _F_YP)
            + ((n % 3 == 2).astype(np.int64) << _F_PS)
        )
        blob = np.ascontiguousarray(digits).tobytes()
        return {blob[i * ranks : (i + 1) * ranks]: int(val) for i, val in enumerate(packed.tolist())}

    # -- the hot paths -------------------------------------------------------------------------
    # Built as closures over local names: attribute look-ups cost as much as the table work.

    def _make_hot_paths(self) -> None:
        num, hon, t2, t3, final, v = self._num, self._hon, self._t2, self._t3, self._final, self._v
        slow_forms = self._slow_forms
        cls, m6 = _CLS, _M6
        f_n, f_p, f_k, f_y, f_yp, f_cf = _F_N, _F_P, _F_K, _F_Y, _F_YP, _F_CF
        agari_mark = _AGARI_STD

        def standard(counts: Sequence[int]) -> int:
            b = bytes(counts if len(counts) == 34 else counts[:34])
            try:
                v1 = num[b[0:9]]
                v2 = num[b[9:18]]
                v3 = num[b[18:27]]
                v4 = hon[b[27:34]]
            except KeyError:
                return slow_forms(counts)[0]
            n = ((v1 + v2 + v3 + v4) >> f_n) & m6
            if n % 3 == 0:
                return slow_forms(counts)[0]
            return final[t3[t2[(v1 & cls) * v + (v2 & cls)] + (v3 & cls)] + (v4 & cls) + n // 3] - 1

        def forms(counts: Sequence[int]) -> tuple[int, int, int]:
            b = bytes(counts if len(counts) == 34 else counts[:34])
            try:
                v1 = num[b[0:9]]
                v2 = num[b[9:18]]
                v3 = num[b[18:27]]
                v4 = hon[b[27:34]]
            except KeyError:
                return slow_forms(counts)
            tot = v1 + v2 + v3 + v4
            n = (tot >> f_n) & m6
            if n % 3 == 0:
                return slow_forms(counts)
            std = final[t3[t2[(v1 & cls) * v + (v2 & cls)] + (v3 & cls)] + (v4 & cls) + n // 3] - 1
            if n < 13 or n > 14:
                return std, 99, 99
            k = (tot >> f_k) & m6
            chiitoi = 6 - ((tot >> f_p) & m6) + (7 - k if k < 7 else 0)
            kokushi = 13 - ((tot >> f_y) & m6) - (1 if (tot >> f_yp) & m6 else 0)
            return std, chiitoi, kokushi

        def shanten(counts: Sequence[int]) -> int:
            b = bytes(counts if len(counts) == 34 else counts[:34])
            try:
                v1 = num[b[0:9]]
                v2 = num[b[9:18]]
                v3 = num[b[18:27]]
                v4 = hon[b[27:34]]
            except KeyError:
                return min(slow_forms(counts))
            tot = v1 + v2 + v3 + v4
            n = (tot >> f_n) & m6
            if n % 3 == 0:
                return min(slow_forms(counts))
            std = final[t3[t2[(v1 & cls) * v + (v2 & cls)] + (v3 & cls)] + (v4 & cls) + n // 3] - 1
            if n < 13 or n > 14:
                return std
            k = (tot >> f_k) & m6
            chiitoi = 6 - ((tot >> f_p) & m6) + (7 - k if k < 7 else 0)
            if chiitoi < std:
                std = chiitoi
            kokushi = 13 - ((tot >> f_y) & m6) - (1 if (tot >> f_yp) & m6 else 0)
            return kokushi if kokushi < std else std

        def is_agari(counts: Sequence[int]) -> bool:
            b = bytes(counts if len(counts) == 34 else counts[:34])
            try:
                tot = num[b[0:9]] + num[b[9:18]] + num[b[18:27]] + hon[b[27:34]]
            except KeyError:
                return min(slow_forms(counts)) == -1
            if (tot >> f_cf) & 4095 == agari_mark:
                return True
            if (tot >> f_n) & m6 != 14:
                return False
            if (tot >> f_p) & m6 == 7 and (tot >> f_k) & m6 == 7:
                return True
            return (tot >> f_y) & m6 == 13 and (tot >> f_yp) & m6 == 1

        self.standard = standard
        self.forms = forms
        self.shanten = shanten
        self.is_agari = is_agari
        self._table_paths = (standard, shanten)  # for ``suit_tables``: which shanten is in use

    def copies_of(self, kind: int) -> int:
        """Copies of ``kind`` in the tile set: :attr:`copies` for every kind here; a calculator
        whose kinds differ overrides it (chinitsu_toutenkou: 8 of its suits, 4 of the rest)."""
        return self.copies

    def suit_tables(self) -> SuitTables | None:
        """The per-suit tables behind ``shanten`` (see :class:`SuitTables`), or None when this
        calculator's ``shanten`` is not the table's (a subclass that searches, or reads other
        hand forms): then callers use ``shanten`` itself."""
        paths = getattr(self, "_table_paths", None)
        if paths is None:
            return None
        standard, shanten = paths
        if self.shanten is shanten and self.standard is standard:
            special = True
        elif self.shanten is standard and self.standard is standard:
            special = False  # standard form only (e.g. taiwan16's 16-tile hands)
        else:
            return None
        return SuitTables((self._num, self._num, self._num, self._hon), self._t2, self._t3, self._final, self._v, special)

    # -- slow, validating path ---------------------------------------------------------------

    def _check(self, counts: Sequence[int]) -> list[int]:
        c = [int(x) for x in counts[:34]]
        if len(c) < 34:
            raise ValueError(f"a count array needs 34 entries, got {len(c)}")
        for k, x in enumerate(c):
            if x < 0 or x > self.copies:
                raise ValueError(f"kind {k} has count {x}; allowed 0..{self.copies}")
        n = sum(c)
        if n % 3 == 0:
            raise ValueError(f"a hand of {n} tiles has no shanten: it needs 3n+1 or 3n+2 tiles")
        if n > 3 * self.max_sets + 2:
            raise ValueError(f"a hand of {n} tiles is too large (at most {3 * self.max_sets + 2})")
        return c

    def _slow_class(self, digits: Sequence[int], table: object) -> int:
        key = 0
        for i, d in enumerate(digits):
            key += d * self._base**i
        return int(np.asarray(table)[key])

    def _slow_forms(self, counts: Sequence[int]) -> tuple[int, int, int]:
        c = self._check(counts)
        n = sum(c)
        c1 = self._slow_class(c[0:9], self._num_class)
        c2 = self._slow_class(c[9:18], self._num_class)
        c3 = self._slow_class(c[18:27], self._num_class)
        h = self._slow_class(c[27:34], self._hon_class)
        std = self._final[self._t3[self._t2[c1 * self._v + c2] + c3] + h * self._m1 + n // 3] - 1
        if n not in (13, 14):
            return std, 99, 99
        return (std, *special_shanten(c))

    # -- derived questions -------------------------------------------------------------------

    def waits(self, counts: Sequence[int], *, held_all: bool = True) -> list[int]:
        """Kinds that complete a 3n+1 hand by shape (R-6.3).

        With ``held_all`` (the default, used for furiten) a kind the hand already holds every copy
        of is included when the shape waits on it; without it (the tenpai test at a draw) it is not.
        """
        from engine.hand.decompose import decompositions

        c = list(counts[:34])
        out: list[int] = []
        agari = self.is_agari
        # A wait is held already or sits within two ranks of a held tile of its suit, except for
        # kokushi, whose waits are any missing terminal or honour.
        near: set[int] = set()
        for k in range(34):
            if c[k]:
                if k >= 27:
                    near.add(k)
                    continue
                base = k - k % 9
                near.update(range(max(base, k - 2), min(base + 8, k + 2) + 1))
        if sum(c) == 13 and self.forms(c)[2] == 0:
            near.update(YAOCHU)
        cand = sorted(near)
        for k in cand:
            c[k] += 1
            if c[k] > self.copies:
                if held_all and decompositions(c):
                    out.append(k)
            elif agari(c):
                out.append(k)
            c[k] -= 1
        return out

    def is_tenpai(self, counts: Sequence[int]) -> bool:
        """Tenpai for the draw settlement: some wait that is not a kind held in every copy."""
        return self.shanten(counts) == 0 and bool(self.waits(counts, held_all=False))

    def ukeire(self, counts: Sequence[int], visible: Sequence[int] | None = None) -> Ukeire:
        """For a 3n+1 hand: each kind that lowers shanten, with the copies not yet seen."""
        c = list(counts[:34])
        base = self.shanten(c)
        out: dict[int, int] = {}
        sh = self.shanten
        for k in range(34):
            if c[k] >= self.copies:
                continue
            c[k] += 1
            if sh(c) < base:
                left = self.copies - c[k] + 1 - (visible[k] if visible is not None else 0)
                out[k] = max(left, 0)
            c[k] -= 1
        return Ukeire(base, out)


@lru_cache(maxsize=4)
def _calculator(copies: int, max_sets: int) -> ShantenCalculator:
    if copies > 4:  # the tables are built for at most 4 copies: memoised search instead
        from engine.hand.search import SearchCalculator

        return SearchCalculator(copies, max_sets)
    return ShantenCalculator(copies, max_sets)


def calculator(copies: int = 4, max_sets: int = 4) -> ShantenCalculator:
    """The shared calculator for this tile set (built once per process)."""
    return _calculator(copies, max_sets)


def shanten(counts: Sequence[int]) -> int:
    return calculator().shanten(counts)


def shanten_forms(counts: Sequence[int]) -> tuple[int, int, int]:
    return calculator().forms(counts)


def is_agari(counts: Sequence[int]) -> bool:
    return calculator().is_agari(counts)


def waits(counts: Sequence[int], *, held_all: bool = True) -> list[int]:
    return calculator().waits(counts, held_all=held_all)


def is_tenpai(counts: Sequence[int]) -> bool:
    return calculator().is_tenpai(counts)


def ukeire(counts: Sequence[int], visible: Sequence[int] | None = None) -> Ukeire:
    return calculator().ukeire(counts, visible)

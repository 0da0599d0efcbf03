"""All decompositions of a complete concealed part, and the wait readings of the winning tile.

A set is an int: ``k`` (0..33) is a triplet of kind ``k``; ``SEQ + k`` is the sequence starting
at kind ``k``. Per-suit decompositions are memoised on the suit's counts, so a hand costs four
dictionary look-ups once its suits have been seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from itertools import product

SEQ = 34


class Wait(IntEnum):
    RYANMEN = 0
    KANCHAN = 1
    PENCHAN = 2
    SHANPON = 3
    TANKI = 4


# (sets, pair kind or -1) per suit, with kinds relative to the suit start
_SuitDecomp = tuple[tuple[tuple[int, ...], int], ...]
_memo: dict[tuple[bytes, bool], _SuitDecomp] = {}


def _suit(key: bytes, sequences: bool) -> _SuitDecomp:
    found = _memo.get((key, sequences))
    if found is not None:
        return found
    out: set[tuple[tuple[int, ...], int]] = set()
    c = list(key)
    n = len(c)
    total = sum(c)
    if total % 3 == 1:
        _memo[(key, sequences)] = ()
        return ()
    want_pair = total % 3 == 2

    def rec(i: int, sets: list[int], pair: int) -> None:
        while i < n and c[i] == 0:
            i += 1
        if i == n:
            if (pair >= 0) == want_pair:
                out.add((tuple(sorted(sets)), pair))
            return
        if c[i] >= 3:
            c[i] -= 3
            sets.append(i)
            rec(i, sets, pair)
            sets.pop()
            c[i] += 3
        if c[i] >= 2 and pair < 0 and want_pair:
            c[i] -= 2
            rec(i, sets, i)
            c[i] += 2
        if sequences and i + 2 < n and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            sets.append(SEQ + i)
            rec(i, sets, pair)
            sets.pop()
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1

    rec(0, [], -1)
    result = tuple(sorted(out))
    _memo[(key, sequences)] = result
    return result


def suit_decompositions(counts: bytes, sequences: bool) -> _SuitDecomp:
    """Every (sets, pair or -1) reading of one suit's counts (kinds relative to the suit start),
    sorted; ``()`` when the suit cannot be read as sets and at most one pair. Memoised."""
    return _suit(counts, sequences)


def decompositions(counts: Sequence[int]) -> list[tuple[tuple[int, ...], int]]:
    """Every (sets, pair kind) reading of a complete 3n+2 concealed count array (standard form)."""
    b = bytes(counts[:34])
    parts = []
    for base, lo, hi, seqs in ((0, 0, 9, True), (9, 9, 18, True), (18, 18, 27, True), (27, 27, 34, False)):
        d = _suit(b[lo:hi], seqs)
        if not d:
            if any(b[lo:hi]):
                return []
            d = (((), -1),)
        parts.append((base, d))
    out: list[tuple[tuple[int, ...], int]] = []
    for combo in product(*(d for _, d in parts)):
        sets: list[int] = []
        pair = -1
        for (base, _), (s, p) in zip(parts, combo):
            for x in s:
                sets.append(x + base)
            if p >= 0:
                if pair >= 0:
                    break
                pair = p + base
        else:
            if pair >= 0:
                out.append((tuple(sorted(sets)), pair))
    return out


def wait_readings(sets: Sequence[int], pair: int, win: int) -> list[tuple[Wait, int]]:
    """Each way the winning kind can have completed this reading: (wait, index of the set or -1)."""
    out: list[tuple[Wait, int]] = []
    if pair == win:
        out.append((Wait.TANKI, -1))
    seen: set[int] = set()
    for i, s in enumerate(sets):
        if s in seen:
            continue
        if s < SEQ:
            if s == win:
                seen.add(s)
                out.append((Wait.SHANPON, i))
            continue
        start = s - SEQ
        if not start <= win <= start + 2:
            continue
        seen.add(s)
        r = start % 9
        if win == start + 1:
            out.append((Wait.KANCHAN, i))
        elif (win == start and r == 6) or (win == start + 2 and r == 0):
            out.append((Wait.PENCHAN, i))
        else:
            out.append((Wait.RYANMEN, i))
    return out

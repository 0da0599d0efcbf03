"""Agari, waits and shanten for chinitsu_toutenkou hands: 8 copies of one suit, White as a wildcard.

The hand shapes of the ruleset (chinitsu_toutenkou.md CT-C1, CT-F4, CT-F5, CT-G3):

* every White (``5z``) stands for any honour kind (North only in a four-winds hand or kokushi);
* manzu (1m 5m 9m) and North are nuki-dora: a hand holding one can only win as kokushi, and a
  hand holding North (or a White used as North) only as kokushi, shousuushii or daisuushii;
* chiitoitsu may repeat a kind (4, 6 or 8 of a kind give 2, 3 or 4 of the pairs) but never holds
  North;
* kokushi uses the game suit's 1 and 9 twice each: 1m 9m 1x 1x 9x 9x E S W N Wh Gr Rd plus one
  duplicate.

:class:`ToutenkouCalculator` answers these with the :class:`~engine.hand.shanten.ShantenCalculator`
interface, so the table's wait set, furiten, riichi and tenpai checks use it unchanged. Agari is
exact; shanten is exact at 0 and −1 (checked through the waits) and a lower bound above.
Number suits are searched per suit with memoisation (:mod:`engine.hand.search`); the honours with
their Whites are memoised on the seven honour counts.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations_with_replacement

from engine.hand.decompose import suit_decompositions
from engine.hand.search import Triple, best_standard, pareto, suit_partitions
from engine.hand.shanten import ShantenCalculator

__all__ = [
    "MANZU",
    "ToutenkouCalculator",
    "chiitoi_complete",
    "honour_assignments",
    "kokushi_distance",
    "white_assignments",
]

EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED_DRAGON = range(27, 34)
HONOURS = tuple(range(27, 34))
MANZU = (0, 4, 8)  # the manzu kinds of the tile set (all gari)
_NON_WILD_HONOURS = (EAST, SOUTH, WEST, GREEN, RED_DRAGON)  # honours a chiitoitsu may pair freely
_WINDS = (EAST, SOUTH, WEST, NORTH)


def white_assignments(whites: int, *, north: bool) -> Iterator[tuple[int, ...]]:
    """Every multiset of honour kinds ``whites`` Whites can stand for (North only if allowed)."""
    kinds = HONOURS if north else tuple(k for k in HONOURS if k != NORTH)
    return combinations_with_replacement(kinds, whites)


def honour_assignments(h: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Honour counts (7, E..Rd, Whites all wild) after each assignment of the Whites."""
    natural = list(h)
    w = natural[4]
    natural[4] = 0
    for combo in white_assignments(w, north=True):
        out = list(natural)
        for k in combo:
            out[k - 27] += 1
        yield tuple(out)


def _suushii(h: Sequence[int]) -> bool:
    """Honour counts read as sets: all four winds appear, at least three as triplets."""
    return all(h[i] >= 2 for i in range(4)) and sum(1 for i in range(4) if h[i] >= 3) >= 3


_hon_memo: dict[tuple[bytes, bool], bool] = {}


def _honours_complete(h: bytes, need_pair: bool) -> bool:
    """Can the honours (Whites wild) be triplets plus exactly ``need_pair`` pair, with North only
    in a four-winds reading?"""
    key = (h, need_pair)
    found = _hon_memo.get(key)
    if found is not None:
        return found
    ok = False
    for cnt in honour_assignments(h):
        if any(x % 3 == 1 for x in cnt):
            continue
        pairs = sum(1 for x in cnt if x % 3 == 2)
        if pairs != (1 if need_pair else 0):
            continue
        if cnt[3] and not _suushii(cnt):
            continue
        ok = True
        break
    _hon_memo[key] = ok
    return ok


def chiitoi_complete(c: Sequence[int]) -> bool:
    """CT-G3/CT-F5: 14 tiles in pairs (a kind may repeat), no gari, Whites pairing any honour but
    North."""
    if sum(c[:34]) != 14 or any(c[k] for k in MANZU) or c[NORTH]:
        return False
    if any(c[k] % 2 for k in range(9, 27)):
        return False
    singles = sum(1 for k in _NON_WILD_HONOURS if c[k] % 2)
    w = c[WHITE]
    return w >= singles and (w - singles) % 2 == 0


def kokushi_distance(c: Sequence[int], suit_base: int) -> int:
    """Kokushi shanten (CT-F4): 13 slots 1m 9m 1x 1x 9x 9x and the seven honours, plus a duplicate.
    Whites fill any missing honour slot (North included), then serve as the duplicate."""
    b = suit_base
    present = sum(1 for k in (EAST, SOUTH, WEST, NORTH, GREEN, RED_DRAGON) if c[k])
    w = c[WHITE]
    missing = 7 - present
    filled = (c[0] >= 1) + (c[8] >= 1) + min(c[b], 2) + min(c[b + 8], 2) + present + min(w, missing)
    extra = (
        c[0] >= 2
        or c[8] >= 2
        or c[b] >= 3
        or c[b + 8] >= 3
        or any(c[k] >= 2 for k in (EAST, SOUTH, WEST, NORTH, GREEN, RED_DRAGON))
        or w > missing
    )
    return 13 - filled - (1 if extra else 0)


_hon_parts: dict[bytes, frozenset[Triple]] = {}


def _honour_partitions(h: bytes) -> frozenset[Triple]:
    found = _hon_parts.get(h)
    if found is None:
        acc: list[Triple] = []
        for cnt in honour_assignments(h):
            acc.extend(suit_partitions(bytes(cnt), False))
        found = _hon_parts[h] = pareto(acc)
    return found


class ToutenkouCalculator(ShantenCalculator):
    """Hand shapes of chinitsu_toutenkou (see the module docstring); ``suit_base`` is 9 (pinzu) or
    18 (souzu), the game suit used by kokushi."""

    def __init__(self, suit_base: int = 9, max_sets: int = 4) -> None:  # no table build
        self.copies = 8
        self.max_sets = max_sets
        self.suit_base = suit_base
        self.standard = self._standard
        self.forms = self._forms
        self.shanten = self._shanten
        self.is_agari = self._is_agari

    def copies_of(self, kind: int) -> int:
        """8 of a pinzu or souzu kind (CT-B1: the game's one number suit has 8 copies; either suit
        may be the game's), 4 of the rest."""
        return 8 if 9 <= kind < 27 else 4

    # -- agari --------------------------------------------------------------------------------

    def standard_complete(self, c: Sequence[int]) -> bool:
        """Sets and one pair (melds implied by the size), with the gari and North rules."""
        b = bytes(c[:34])
        n = sum(b)
        if n % 3 != 2 or any(b[k] for k in range(9)):
            return False
        pairs = 0
        for lo in (9, 18):
            part = b[lo : lo + 9]
            s = sum(part)
            if not s:
                continue
            if s % 3 == 1 or not suit_decompositions(part, True):
                return False
            pairs += s % 3 == 2
        hs = sum(b[27:34])
        if hs % 3 == 1 or pairs + (hs % 3 == 2) != 1:
            return False
        return not hs or _honours_complete(b[27:34], hs % 3 == 2)

    def _is_agari(self, counts: Sequence[int]) -> bool:
        c = counts
        n = sum(c[:34])
        if n % 3 != 2:
            return False
        if self.standard_complete(c):
            return True
        if n != 14:
            return False
        return chiitoi_complete(c) or kokushi_distance(c, self.suit_base) == -1

    # -- shanten ------------------------------------------------------------------------------

    def _standard(self, counts: Sequence[int]) -> int:
        """Lower bound of the standard-form shanten: manzu dead, North and Whites relaxed."""
        b = bytes(counts[:34])
        n = sum(b)
        parts = [suit_partitions(b[9:18], True), suit_partitions(b[18:27], True), _honour_partitions(b[27:34])]
        return best_standard(parts, n // 3)

    def _chiitoi(self, c: Sequence[int]) -> int:
        pairs = sum(c[k] // 2 for k in range(9, 27)) + sum(c[k] // 2 for k in _NON_WILD_HONOURS)
        singles = sum(1 for k in _NON_WILD_HONOURS if c[k] % 2)
        used = min(c[WHITE], singles)
        pairs += used + (c[WHITE] - used) // 2
        return 6 - min(pairs, 7)

    def _forms(self, counts: Sequence[int]) -> tuple[int, int, int]:
        std = self._standard(counts)
        n = sum(counts[:34])
        if n not in (13, 14):
            return std, 99, 99
        return std, self._chiitoi(counts), kokushi_distance(counts, self.suit_base)

    def _shanten(self, counts: Sequence[int]) -> int:
        est = min(self._forms(counts))
        if est > 0:
            return est
        c = list(counts[:34])
        n = sum(c)
        if n % 3 == 2:
            if self._is_agari(c):
                return -1
            for k in range(34):
                if c[k]:
                    c[k] -= 1
                    tenpai = bool(self.waits(c))
                    c[k] += 1
                    if tenpai:
                        return 0
            return 1
        return 0 if self.waits(c) else 1

    # -- waits --------------------------------------------------------------------------------

    def waits(self, counts: Sequence[int], *, held_all: bool = True) -> list[int]:
        """Kinds that complete a 3n+1 hand (White whenever some honour does, CT-C6). Without
        ``held_all`` a kind the hand holds every copy of is left out (the tenpai test)."""
        c = list(counts[:34])
        if sum(c) % 3 != 1:
            return []
        out: list[int] = []
        cand = [0, 8, *range(9, 27), *HONOURS]
        for k in cand:
            if not held_all and c[k] >= self.copies_of(k):
                continue
            c[k] += 1
            if self._is_agari(c):
                out.append(k)
            c[k] -= 1
        return out

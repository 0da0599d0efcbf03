"""Shoukou calls, kans and waits as pure functions over a hand (shoukou.md SK-2–SK-7, SK-11).

A hand here is tile codes (red bit kept); an option is the own tiles it shows, the one
transformation it uses (``(physical code, effective kind)`` or ``()``, SK-D6) and the effective
kind of every tile of the resulting meld (SK-D4), own tiles first, then the claimed one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from engine.hand.decompose import SEQ, decompositions
from engine.rules.shoukou.scoring import _suit_moves, _suit_ok, shift_targets
from engine.table.actions import canon
from engine.tiles import RED, YAOCHU

__all__ = [
    "CallOption",
    "ankan_options",
    "chi_options",
    "chi_possible",
    "complete",
    "daiminkan_options",
    "kakan_options",
    "kuikae_forbidden",
    "pon_options",
    "triplet_in_every_reading",
    "wait_set",
]

# (own tile codes in canonical order, shift (physical code, effective kind) or (), effective kinds
# of (*own, claimed))
CallOption = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def _kind(code: int) -> int:
    return code & ~RED


def _variants(codes: Sequence[int], allow: bool) -> Iterable[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """Each way to apply at most one transformation to one of ``codes``: (index or -1, the shift,
    the effective kinds)."""
    kinds = tuple(_kind(c) for c in codes)
    yield -1, (), kinds
    if not allow:
        return
    for i, c in enumerate(codes):
        for t in shift_targets(kinds[i]):
            yield i, (c, t), kinds[:i] + (t,) + kinds[i + 1 :]


def _distinct_pairs(hand: Sequence[int]) -> list[tuple[int, int]]:
    return sorted({canon((a, b)) for a, b in combinations(hand, 2)})  # type: ignore[misc]


def chi_options(hand: Sequence[int], discard: int, *, transform: bool = True) -> list[CallOption]:
    """SK-3: two own tiles a, b and the discard d are a sequence after at most one transformation
    of one of {d, a, b}."""
    out: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}
    dk = _kind(discard)
    if dk >= 27:
        return []
    # with one transformation either the discard or one own tile moves: own tiles lie within 5
    reach = 5 if transform else 2
    cand = [c for c in hand if _kind(c) // 9 == dk // 9 and _kind(c) < 27 and abs(_kind(c) - dk) <= reach]
    for a, b in _distinct_pairs(cand):
        if _kind(a) == _kind(b):
            continue
        for _i, shift, eff in _variants((a, b, discard), transform):
            e = sorted(eff)
            if e[0] >= 27 or e[0] // 9 != e[2] // 9 or e != [e[0], e[0] + 1, e[0] + 2]:
                continue
            out.setdefault(((a, b), shift), eff)
    return [(own, shift, eff) for (own, shift), eff in out.items()]


def chi_possible(counts: Sequence[int], discard_kind: int, *, transform: bool = True) -> bool:
    """Whether :func:`chi_options` can find anything, from the kind counts alone: the sequence
    holds the discard (moved or not) and two own kinds, one of them possibly moved (SK-3)."""
    dk = discard_kind
    if dk >= 27:
        return False
    lo = dk - dk % 9
    suit = counts[lo : lo + 9]

    def held(x: int) -> bool:
        return 0 <= x <= 8 and suit[x] > 0

    def moved_onto(x: int) -> bool:  # a tile 3 ranks away that may become rank x
        return 0 <= x <= 8 and ((x <= 5 and suit[x + 3] > 0) or (x >= 3 and suit[x - 3] > 0))

    r = dk % 9
    for de in (r, r - 3, r + 3) if transform else (r,):
        if not 0 <= de <= 8:
            continue
        for x, y in ((de - 2, de - 1), (de - 1, de + 1), (de + 1, de + 2)):  # ranks off the suit hold nothing
            if held(x) and held(y):
                return True
            if de == r and transform and ((held(x) and moved_onto(y)) or (held(y) and moved_onto(x))):
                return True
    return False


def pon_options(hand: Sequence[int], discard: int, *, transform: bool = True) -> list[CallOption]:
    """SK-4: two own tiles and the discard are one effective kind after at most one
    transformation of one of the three."""
    out: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}
    dk = _kind(discard)
    near = {dk, *shift_targets(dk)}
    cand = [c for c in hand if _kind(c) in near or any(t in near for t in shift_targets(_kind(c)))]
    for a, b in _distinct_pairs(cand):
        for _i, shift, eff in _variants((a, b, discard), transform):
            if eff[0] == eff[1] == eff[2]:
                out.setdefault(((a, b), shift), eff)
    return [(own, shift, eff) for (own, shift), eff in out.items()]


def daiminkan_options(hand: Sequence[int], discard: int, *, transform: bool = True) -> list[CallOption]:
    """SK-5 (A1): three own tiles and the discard are one effective kind after at most one
    transformation of one of the four."""
    out: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}
    dk = _kind(discard)
    near = {dk, *shift_targets(dk)}
    cand = sorted(c for c in hand if _kind(c) in near or any(t in near for t in shift_targets(_kind(c))))
    for trio in sorted({tuple(sorted(x, key=lambda c: (_kind(c), c & RED))) for x in combinations(cand, 3)}):
        for _i, shift, eff in _variants((*trio, discard), transform):
            if eff[0] == eff[1] == eff[2] == eff[3]:
                out.setdefault((trio, shift), eff)
    return [(own, shift, eff) for (own, shift), eff in out.items()]


def ankan_options(hand: Sequence[int], *, transform: bool = True) -> list[CallOption]:
    """SK-6: four concealed tiles that are one effective kind after at most one transformation
    of one of them. Returns (the four codes, shift, effective kinds)."""
    out: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}
    by_kind: dict[int, list[int]] = {}
    for c in hand:
        by_kind.setdefault(_kind(c), []).append(c)
    for k, same in by_kind.items():
        same = sorted(same, key=lambda c: c & RED)
        if len(same) >= 4:
            four = tuple(same[:4])
            out.setdefault((four, ()), (k,) * 4)
        if not transform or len(same) < 3:
            continue
        three = tuple(same[:3])
        for src in shift_targets(k):  # a tile of kind k±3 moved onto k
            for c in sorted({c for c in by_kind.get(src, ())}):
                out.setdefault(((*three, c), (c, k)), (k,) * 4)
    return [(own, shift, eff) for (own, shift), eff in out.items()]


def kakan_options(
    hand: Sequence[int], pon_kinds: Sequence[int], *, transform: bool = True
) -> list[tuple[int, int, tuple[int, ...]]]:
    """SK-7: a concealed tile t added to one's pon of effective kind k, t moved onto k when its
    own kind is k±3. Returns (pon kind, the tile code, shift)."""
    out: list[tuple[int, int, tuple[int, ...]]] = []
    codes = sorted(set(hand), key=lambda c: (_kind(c), c & RED))
    for k in pon_kinds:
        for c in codes:
            if _kind(c) == k:
                out.append((k, c, ()))
                break
        if transform:
            for c in codes:
                if k in shift_targets(_kind(c)):
                    out.append((k, c, (c, k)))
    return out


def kuikae_forbidden(called: int, eff: tuple[int, ...], mode: str, is_chi: bool, transformed: bool) -> frozenset[int]:
    """A9: the kinds the caller may not discard after a call. ``called`` is the claimed tile's
    code, ``eff`` the meld's effective kinds (claimed tile last). ``mode``:
    ``"effective+physical"`` (default): the claimed tile's printed and effective kinds, and for a
    chi the other end of the effective sequence; ``"effective"``: without the printed kind;
    ``"off"``: a transformed call forbids nothing (an untransformed one keeps base R-4.4)."""
    if mode == "off" and transformed:
        return frozenset()
    ce = eff[-1]
    forbid = {ce}
    if mode != "effective":
        forbid.add(_kind(called))
    if is_chi:
        lo = min(eff)
        r = lo % 9
        if ce == lo and r + 3 <= 8:
            forbid.add(lo + 3)
        elif ce == lo + 2 and r - 1 >= 0:
            forbid.add(lo - 1)
    return frozenset(forbid)


# --------------------------------------------------------------------------------------------
# complete hands and the wait set (SK-8, SK-9, SK-11)
# --------------------------------------------------------------------------------------------


def complete(counts: list[int], meld_sets: Sequence[int], *, transform: bool = True) -> bool:
    """Is a 14-tile hand (concealed counts with the winning tile, effective meld sets) complete
    after at most one transformation (SK-8/SK-9; yaku not required)?"""
    b = bytes(counts[:34])
    if _standard_ok((b[0:9], b[9:18], b[18:27], b[27:34]), transform):
        return True
    # seven pairs and kokushi are closed; a meld moves (SK-8a) only when the concealed part is
    # complete already
    return not meld_sets and _special_ok(counts, transform)


def _honours_ok(h: bytes) -> bool:
    return all(x in (0, 2, 3) for x in h) and h.count(2) <= 1


def _standard_ok(parts: Sequence[bytes], transform: bool) -> bool:
    """The standard form from the three suits' and the honours' counts, without listing its
    readings: each part reads as sets and at most one pair, and the part sizes modulo 3 say how
    many pairs there are (a part of 3n tiles has none, of 3n+2 one): exactly one. Moving a tile
    3 ranks inside a suit keeps the sizes, so a transformation can only mend the one suit that
    does not read."""
    if not _honours_ok(parts[3]) or sum(1 for p in parts if sum(p) % 3 == 2) != 1:
        return False
    return _mendable([s for s in parts[:3] if not _suit_ok(s)], transform)


def _special_ok(counts: list[int], transform: bool) -> bool:
    """Seven pairs or kokushi, after at most one transformation of a concealed tile."""
    if _special(counts):
        return True
    if not transform:
        return False
    if sum(1 for x in counts if x >= 2) >= 5 or sum(counts[k] for k in YAOCHU) >= 12:
        for a in range(27):
            if counts[a]:
                for d in shift_targets(a):
                    c2 = list(counts)
                    c2[a] -= 1
                    c2[d] += 1
                    if _special(c2):
                        return True
    return False


def _special(c: list[int]) -> bool:
    """Chiitoitsu (7 different effective kinds, R-6.1(b)) or kokushi."""
    if sum(c) != 14:
        return False
    if sum(1 for x in c if x == 2) == 7:
        return True
    return all(c[k] for k in YAOCHU) and sum(c[k] for k in YAOCHU) == 14


def wait_set(counts: list[int], meld_sets: Sequence[int], *, transform: bool = True) -> tuple[int, ...]:
    """SK-11: every kind k such that the hand plus a tile of physical kind k has a complete
    interpretation (the winning tile or an own tile transformed, or none).

    :func:`complete` for each k, with the parts k leaves alone read once: a kind changes one
    suit (or the honours), and seven pairs or kokushi need 5 pairs or 12 terminals and honours
    in the 14 tiles (one more than the 13 hold)."""
    b = bytes(counts[:34])
    parts = [b[0:9], b[9:18], b[18:27], b[27:34]]
    ok = [_suit_ok(p) for p in parts[:3]] + [_honours_ok(parts[3])]
    # per part i that k may join: can the sizes give exactly one pair, and the other suits that
    # do not read
    sizes = [sum(p) % 3 for p in parts]
    fits = [sorted((x + (j == i)) % 3 for j, x in enumerate(sizes)) == [0, 0, 0, 2] for i in range(4)]
    others_bad = [[s for j, s in enumerate(parts[:3]) if j != i and not ok[j]] for i in range(4)]
    specials = not meld_sets and (
        sum(1 for x in counts if x >= 2) >= 4 or sum(counts[k] for k in YAOCHU) >= 11
    )
    out = []
    c = list(counts)
    for k in range(34):
        i, r = (k // 9, k % 9) if k < 27 else (3, k - 27)
        if fits[i]:
            p = bytearray(parts[i])
            p[r] += 1
            with_k = bytes(p)
            if i == 3:
                std = _honours_ok(with_k) and _mendable(others_bad[i], transform)
            else:
                std = ok[3] and _mendable(others_bad[i] if _suit_ok(with_k) else [*others_bad[i], with_k], transform)
            if std:
                out.append(k)
                continue
        if specials:
            c[k] += 1
            if _special_ok(c, transform):
                out.append(k)
            c[k] -= 1
    return tuple(out)


def _mendable(bad: list[bytes], transform: bool) -> bool:
    """The suits that do not read as sets and at most one pair: none, or one that a move mends."""
    return not bad or (transform and len(bad) == 1 and bool(_suit_moves(bad[0])))


def triplet_in_every_reading(before: list[int], kind: int, waits: Iterable[int], *, transform: bool = True) -> bool:
    """R-5.3(c) read with SK-9: for every wait w, every complete interpretation of the 13-tile
    concealed hand ``before`` plus w (no transformation, or one concealed tile moved ±3) reads the
    three tiles of ``kind`` as a triplet. Moving one of them away, or a seven-pairs or kokushi
    reading, breaks it."""
    c = list(before)
    for w in waits:
        c[w] += 1
        try:
            variants = [c]
            if transform:
                for a in range(27):
                    for d in shift_targets(a) if c[a] else ():
                        c2 = list(c)
                        c2[a] -= 1
                        c2[d] += 1
                        variants.append(c2)
            for v in variants:
                if v[kind] < 3 and (decompositions(v) or _special(v)):
                    return False
                if v[kind] >= 3 and (_special(v) or any(kind not in sets for sets, _ in decompositions(v))):
                    return False
        finally:
            c[w] -= 1
    return True


def meld_sets_of(effs: Iterable[tuple[int, ...]]) -> list[int]:
    """Effective meld sets (SEQ + start for a sequence, the kind for a triplet or quad)."""
    out = []
    for eff in effs:
        if len(set(eff)) == 1:
            out.append(eff[0])
        else:
            out.append(SEQ + min(eff))
    return out

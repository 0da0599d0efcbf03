"""Shanten, agari and waits against third-party data (tomohxx sets, RiichiEnv) and `mahjong`."""

from __future__ import annotations

import random

import pytest

from engine.hand.shanten import calculator, is_agari, is_tenpai, shanten, shanten_forms, ukeire, waits
from engine.tiles import counts_of, parse_tiles
from tests.engine.datasets import negative_cases, shanten_cases


def test_all_40000_tomohxx_hands_exact_on_every_form() -> None:
    calc = calculator()
    mismatches = []
    n = 0
    for name, kinds, (std, kokushi, chiitoi) in shanten_cases():
        c = [0] * 34
        for k in kinds:
            c[k] += 1
        got = calc.forms(c)
        n += 1
        if got != (std, chiitoi, kokushi):
            mismatches.append((name, kinds, "expected", (std, chiitoi, kokushi), "got", got))
    assert n == 40000
    assert not mismatches, f"{len(mismatches)} mismatches:\n" + "\n".join(map(str, mismatches))


def test_riichienv_negative_set_tenpai_flags_200_of_200() -> None:
    cases = negative_cases()
    wrong = [(c, t) for c, t in cases if (shanten(c) == 0) != t or (bool(waits(c)) != t)]
    assert len(cases) == 200
    assert not wrong, wrong


def test_matches_reference_library_on_random_hands_of_every_size() -> None:
    from mahjong.shanten import Shanten

    ref = Shanten()
    rng = random.Random(20261123)
    wall = [k for k in range(34) for _ in range(4)]
    mismatches = []
    for size in (1, 2, 4, 5, 7, 8, 10, 11, 13, 14):
        for _ in range(400):
            c = [0] * 34
            for k in rng.sample(wall, size):
                c[k] += 1
            want = ref.calculate_shanten_for_regular_hand(c)
            got = calculator().standard(c)
            if got != want:
                mismatches.append((size, c, want, got))
    # The reference treats a kind held four times as usable for a pair plus a set in ways the
    # exact (tomohxx) distance does not; those hands are the only allowed differences.
    real = [m for m in mismatches if max(m[1]) < 4]
    assert not real, real[:20]


def test_agari_forms() -> None:
    assert is_agari(counts_of(parse_tiles("11122233344455m")))
    assert is_agari(counts_of(parse_tiles("1133m5577p99s1122z")))  # chiitoitsu
    assert is_agari(counts_of(parse_tiles("19m19p19s12345677z")))  # kokushi
    assert not is_agari(
        counts_of(parse_tiles("1111m2222p3333s44z"))
    )  # R-6.1(b): 4 of a kind is not two pairs
    assert is_agari(counts_of(parse_tiles("55m")))  # one tile left after four melds
    assert not is_agari(counts_of(parse_tiles("56m")))


def test_waits_and_ukeire() -> None:
    assert waits(counts_of(parse_tiles("1112345678999m"))) == list(range(9))  # nine-sided chuuren
    assert waits(counts_of(parse_tiles("19m19p19s1234567z"))) == [
        0,
        8,
        9,
        17,
        18,
        26,
        27,
        28,
        29,
        30,
        31,
        32,
        33,
    ]
    # a wait on a kind held four times is still a wait by shape
    assert waits(counts_of(parse_tiles("1111m234p567s789s"))) == [0]
    assert not is_tenpai(counts_of(parse_tiles("1111m234p567s789s")))
    u = ukeire(counts_of(parse_tiles("123m456p789s11z23s")))
    assert u.shanten == 0 and u.tiles == {18: 4, 21: 4}  # 1s and 4s, four unseen copies each
    seen = [0] * 34
    seen[18] = 2
    assert ukeire(counts_of(parse_tiles("123m456p789s11z23s")), seen).tiles == {18: 2, 21: 4}
    u = ukeire(counts_of(parse_tiles("123m456p789s1z235s")))  # 1-shanten: tanki/kanchan shapes
    assert u.shanten == 1 and 27 in u.tiles and 19 in u.tiles


def test_shanten_forms_for_smaller_hands() -> None:
    assert shanten_forms(counts_of(parse_tiles("1m"))) == (0, 99, 99)
    assert shanten(counts_of(parse_tiles("13m"))) == 0 or shanten(counts_of(parse_tiles("13m5p1z"))) >= 0


@pytest.mark.parametrize("bad", [[5] + [0] * 33, [0] * 33, [1, 1, 1] + [0] * 31])
def test_bad_count_arrays_raise_value_error(bad: list[int]) -> None:
    with pytest.raises(ValueError):
        shanten(bad)


def test_five_set_packed_sums_match_the_per_suit_lookup_for_the_largest_classes() -> None:
    """With five sets (taiwan16) four suits' distance classes add up to 1,050: the packed value's
    class field must hold the sum, or it carries into the tile count. Hands built from the suit
    shapes with the largest class numbers, fast path against the per-suit (slow) lookup."""
    from itertools import product

    from engine.hand.shanten import PACK_CLASS, calculator
    from engine.rules.taiwan16.ruleset import standard_calculator

    calc = standard_calculator(4, 5)
    for c in (calculator(4, 4), calc):
        assert 3 * int(c._num_class.max()) + int(c._hon_class.max()) * c._m1 <= PACK_CLASS

    def top(classes: object, ranks: int, most: int) -> list[list[int]]:
        shapes = []
        for key in range(5**ranks):
            digits = [(key // 5**i) % 5 for i in range(ranks)]
            if 0 < sum(digits) <= most:
                shapes.append((int(classes[key]), digits))  # type: ignore[index]
        shapes.sort(reverse=True)
        return [d for _, d in shapes[:6]]

    nums, hons = top(calc._num_class, 9, 5), top(calc._hon_class, 7, 5)
    checked = 0
    for a, b, c, h in product(nums, nums, nums, hons):
        counts = a + b + c + h
        n = sum(counts)
        if n > 17 or n % 3 == 0:
            continue
        assert calc.standard(counts) == calc._slow_forms(counts)[0], counts
        checked += 1
    assert checked > 100

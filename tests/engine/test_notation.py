"""Tile notation and the hand grammar (rules README §2), including the error messages users see."""

from __future__ import annotations

import pytest

from engine.notation import MeldType, format_hand, parse_hand
from engine.tiles import RED, NotationError, dora_of, format_tiles, kind_of, parse_tiles


def test_compressed_notation_round_trip() -> None:
    codes = parse_tiles("123m406p789s1234567z")
    assert len(codes) == 16
    assert codes[4] == (9 + 4) | RED and kind_of(codes[4]) == 13
    assert format_tiles(codes) == "123m406p789s1234567z"
    assert parse_tiles("1234f") == [34, 35, 36, 37]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("12x3m", "'x' at position 3"),
        ("123", "position 1 have no suit letter"),
        ("8z", "'8z' at position 1"),
        ("m1", "position 1"),
    ],
)
def test_bad_notation_names_the_character_and_position(text: str, where: str) -> None:
    with pytest.raises(NotationError) as e:
        parse_tiles(text)
    assert where in str(e.value)
    assert isinstance(e.value, ValueError)


def test_dora_wraps_per_r_3_4() -> None:
    assert dora_of(8) == 0  # 9m → 1m
    assert dora_of(30) == 27  # N → E
    assert dora_of(33) == 31  # Rd → Wh
    assert dora_of(0, sanma=True) == 8  # Tenhou sanma: 1m → 9m


def test_hand_grammar_parses_melds_flags_and_round_trips() -> None:
    spec = parse_hand("123m406p pon(777z) chi(0s46s) ron 5s seat=S round=E dora=1z riichi honba=2 from=N")
    assert [m.type for m in spec.melds] == [MeldType.PON, MeldType.CHI]
    assert spec.ctx.seat_wind == 1 and spec.ctx.discarder == 3 and spec.ctx.honba == 2 and spec.ctx.riichi
    assert parse_hand(format_hand(spec)) == spec


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("123m pon(776z) ron 5s", "three identical tiles"),
        ("123m456p ron", "missing the winning tile"),
        ("123m456p 5s", "expected 'ron' or 'tsumo'"),
        ("123m ron 5s seat=X", "seat=X"),
        ("123m ron 5s bogus", "unknown flag 'bogus'"),
        ("123m ron 55s", "exactly one tile"),
    ],
)
def test_bad_hands_get_a_readable_message(line: str, fragment: str) -> None:
    with pytest.raises(NotationError) as e:
        parse_hand(line)
    assert fragment in str(e.value)

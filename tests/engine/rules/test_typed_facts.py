"""The typed parts of a scoring result and the typed facts the bot asks of a ruleset (issue 28).

Each expected value is the rule's own: PK-0.2 (bazoro 2 added to the han), TW-13's worked example
1 (平胡 2 + 門清 1, 底 50 + 20 per tai, 1 dealer tai), SK-8a's W1 (1p counted as 4p), CT Part I
example 5 (the two Whites as East), TW-5 (the dealer's roll, none in hand 1, A15), TW-11 (the
last tile offered around: a "haitei" window), and the tile sets (4 of each kind; chinitsu_toutenkou
8 of a pinzu or souzu kind, CT-B1).
"""

from __future__ import annotations

from engine.hand.shanten import calculator
from engine.notation import parse_hand
from engine.rules import find_ruleset
from engine.rules.taiwan16.table import build_deal
from engine.scoring import score
from engine.scoring.breakdown import Bazoro, ChipRate, TaiItem, Transformation, WildcardAs
from engine.table.game import Game, Phase
from engine.tiles import EAST, WHITE, parse_kind
from tests.engine.rules.test_taiwan16_table import J0, J1, J2, J3, RS, _until, scripted


def test_pk_0_2_bazoro_is_a_typed_part_of_the_value() -> None:
    r = score(parse_hand("22m66778899m678s ron 6m ruleset=pk"))  # iipeikou 1 han
    assert r.breakdown == (Bazoro(bazoro=2, table_han=3),)


def test_pk_a_yakuman_has_no_table_row_so_no_bazoro() -> None:
    r = score(parse_hand("19m19p19s1234567z ron 1m ruleset=pk"))  # kokushi
    assert r.yakuman and not r.breakdown


def test_tw_13_tai_items_and_chip_rate_are_typed_parts_of_the_value() -> None:
    r = score(parse_hand("123456m234p567s88p34s ron 5s seat=S from=W ruleset=taiwan16"))
    tai = [(b.id, b.tai) for b in r.breakdown if isinstance(b, TaiItem)]
    assert sorted(tai) == [("T-16", 2), ("T-5", 1)]
    assert [b for b in r.breakdown if isinstance(b, ChipRate)] == [ChipRate(base=50, rate=20, dealer_tai=1)]
    assert r.payments == {"W": -(50 + 20 * 3), "S": 110}


def test_sk_8a_a_transformation_is_a_typed_part_of_the_value() -> None:
    r = score(parse_hand("234m567m66s45s chi(123p) ron 3s seat=S ruleset=shoukou"))
    assert r.breakdown == (Transformation(kind=parse_kind("1p"), as_kind=parse_kind("4p")),)


def test_ct_whites_counted_as_east_are_typed_parts_of_the_value() -> None:
    r = score(parse_hand("2222s4466s88s1z55z ron 1z seat=S ruleset=chinitsu_toutenkou"))
    assert r.points == 42
    assert r.breakdown == (WildcardAs(WHITE, EAST), WildcardAs(WHITE, EAST))


def test_riichi_has_no_breakdown_beyond_its_yaku() -> None:
    assert score(parse_hand("123m456p789s11z234s ron 4s riichi")).breakdown == ()


def test_tw_5_dice_are_the_dealers_roll_and_hand_one_has_none() -> None:
    g = Game(RS, seed=5)
    assert RS.dice(g) == ()  # A15: the first hand's roll only chose the dealer
    g.hand_index = 1
    g.deal = build_deal(list(range(144)), g.codes, dealer=0, dice=(6, 5, 3))
    assert RS.dice(g) == (6, 5, 3)
    riichi = Game(find_ruleset("riichi"), seed=5)
    assert riichi.ruleset.dice(riichi) == ()


def test_tw_11_the_last_tile_passed_around_is_a_haitei_window() -> None:
    rs = RS.with_options(tw=dict(haitei_pass=True))
    g = scripted([J0, J1, J2, J3], rs=rs)
    assert rs.turn_window(g) == ""
    _until(g, lambda: g.phase is Phase.CLAIM)
    assert rs.turn_window(g) == "haitei"
    riichi = Game(find_ruleset("riichi"), seed=1)
    assert riichi.ruleset.turn_window(riichi) == ""


def test_every_shanten_calculator_says_the_copies_of_each_kind() -> None:
    assert [calculator().copies_of(k) for k in range(34)] == [4] * 34
    for name in ("riichi", "taiwan16", "pk", "seigou", "shoukou"):
        calc = find_ruleset(name).shanten_calculator()
        assert all(calc.copies_of(k) == 4 for k in range(34)), name
    ct = find_ruleset("chinitsu_toutenkou").shanten_calculator()
    assert [ct.copies_of(k) for k in (0, 8, 9, 17, 18, 26, 27, 33)] == [4, 4, 8, 8, 8, 8, 4, 4]

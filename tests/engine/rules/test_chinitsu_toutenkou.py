"""chinitsu_toutenkou: hand shapes and the point table (shared/rules/chinitsu_toutenkou.md).

Expected values are worked out from the spec's rule text and its Part I examples (game suit s,
non-dealer South, no dora, no honba, no gari unless stated), never copied from the engine.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.hand.shanten import ShantenCalculator, calculator
from engine.hand.wildcard import ToutenkouCalculator
from engine.rules import find_ruleset
from engine.rules.chinitsu_toutenkou import (
    NOT_APPLICABLE,
    ChinitsuToutenkou,
    CtOptions,
    call_priority,
    chombo_payments,
    dora_kind,
    kuikae_forbidden,
    nagashi_payments,
    noten_payments,
    open_riichi_exposure_ok,
    open_riichi_shown,
    riichi_ankan_ok,
    tile_codes,
)
from engine.scoring import score_line
from engine.tiles import counts_of, format_tiles, parse_kind, parse_tiles

RS = "ruleset=chinitsu_toutenkou"


def sc(line: str) -> dict[str, Any]:
    r = score_line(f"{line} {RS}")
    assert "error" not in r, r
    return r


def total(line: str) -> int:
    r = sc(line)
    assert r["agari"], r
    return int(r["points"])


def items(line: str) -> dict[str, int]:
    r = sc(line)
    assert r["agari"], r
    return {y["name"]: y["han"] for y in r["yaku"]}


def waits_of(tiles: str, suit: str = "s") -> str:
    calc = ToutenkouCalculator(9 if suit == "p" else 18)
    return format_tiles(calc.waits(counts_of(parse_tiles(tiles))))


EX1 = "234s456s678s33s56s ron 7s seat=S"


# --- Part I worked examples ----------------------------------------------------------------------


def test_part_i_example_1_chinitsu_tanyao_ron_41_tsumo_42_each() -> None:
    r = sc(EX1)
    assert r["points"] == 41 and r["payments"] == {"discarder": -41, "S": 41}
    assert items(EX1) == {"chinitsu": 6, "tanyao": 1, "pinfu": 1, "menzen": 1, "banban": 2, "karasu": 30}
    t = sc("234s456s678s33s56s tsumo 7s seat=S")
    assert t["points"] == 42 and t["payments"] == {"E": -42, "W": -42, "S": 84}


def test_part_i_example_2_chanta_replaces_honitsu_54() -> None:
    line = "123s789s111z99s55z ron 9s seat=S"
    assert total(line) == 54
    got = items(line)
    assert got["chanta"] == 20 and got["round_wind"] == 1 and "honitsu" not in got


def test_part_i_example_3_junchan_yakuman_85() -> None:
    line = "1112223378999s ron 3s seat=S riichi"
    assert total(line) == 85
    got = items(line)
    assert got["junchan"] == 50 and got["iipeikou"] == 1 and "chinitsu" not in got and "chanta" not in got


def test_part_i_example_4_tsumosu_87_from_each() -> None:
    r = sc("111s444s777s22s55z tsumo 2s seat=S")
    assert r["points"] == 87 and r["payments"] == {"E": -87, "W": -87, "S": 174}
    got = items("111s444s777s22s55z tsumo 2s seat=S")
    assert got["tsumosu"] == 50 and got["menzen_tsumo"] == 1 and got["honitsu"] == 3
    assert "sanankou" not in got and "toitoi" not in got


def test_part_i_example_5_chiitoitsu_repeats_whites_as_east_42() -> None:
    r = sc("2222s4466s88s1z55z ron 1z seat=S")
    assert r["points"] == 42
    assert [w["as"] for w in r["wildcards"]] == ["1z", "1z"]


def test_part_i_example_6_open_riichi_dealin_adds_50() -> None:
    base = total(f"{EX1} riichi open_riichi=1")
    assert total(f"{EX1} riichi open_riichi=1 dealin=1") == base + 50
    # X pays the hand (here 43) plus 50, as 30 + 50 = 80 in the spec's example
    assert sc(f"{EX1} riichi open_riichi=1 dealin=1 from=W")["payments"]["W"] == -(base + 50)


def test_part_i_example_7_gari_no_karasu_13() -> None:
    assert total(f"{EX1} nuki=4z1m") == 13
    assert items(f"{EX1} nuki=4z1m")["gari"] == 2


# --- Part A: base toutenkou -----------------------------------------------------------------------


def test_ct_a1_three_players_east_round() -> None:
    rs = find_ruleset("chinitsu_toutenkou")
    assert rs.players == 3 and isinstance(rs, ChinitsuToutenkou)
    # East is the prevailing wind: an East triplet is worth the round wind for South
    assert items("123s456s111z99s55z ron 9s seat=S round=E").get("round_wind") == 1


def test_ct_a2_tile_set_with_1m_5m_9m() -> None:
    codes = tile_codes("s")
    assert len(codes) == 112
    assert sorted({c for c in codes if c < 9}) == [0, 4, 8]


def test_ct_a3_gari_in_hand_cannot_win_and_extracted_gari_score() -> None:
    r = sc("234s456s678s33s5s1m ron 7s seat=S")  # 1m held instead of 6s: not a hand
    assert not r["agari"]
    calc = ToutenkouCalculator(18)
    assert not calc.is_agari(counts_of(parse_tiles("234s456s678s1m1m")))
    assert items(f"{EX1} nuki=1m9m5m")["gari"] == 3


def test_ct_a5_points_are_a_sum_without_fu() -> None:
    r = sc(EX1)
    assert r["fu"] == 0 and r["points"] == sum(y["han"] for y in r["yaku"])


def test_ct_a6_bonus_items_do_not_meet_the_minimum() -> None:
    r = sc(EX1)
    assert r["qualifying"] == 8  # pinfu + tanyao + chinitsu; karasu, banban, menzen do not count


def test_ct_a7_ron_discarder_pays_tsumo_each_pays_total() -> None:
    assert sc(f"{EX1} from=E")["payments"] == {"E": -41, "W": 0, "S": 41}
    assert sc("234s456s678s33s56s tsumo 7s seat=S")["payments"]["W"] == -42


def test_ct_a12_start_points_zero_one_hand_settlement() -> None:
    assert CtOptions().start_points == 0
    assert find_ruleset("chinitsu_toutenkou").options.start_points == 0


def test_ct_a13_yakuman_is_50_and_no_sanshoku() -> None:
    assert items("19m11999s123456z ron 7z seat=S")["kokushi"] == 50
    assert total("19m11999s123456z ron 7z seat=S") == 50 + 2 + 1 + 30


def test_ct_a14_bonus_items() -> None:
    # ankan 2, menzen 1 (the ankan keeps the hand closed), banban 2, karasu 30, honitsu 3
    assert total("234s567s888s1z ankan(9999s) ron 1z seat=S") == 3 + 2 + 1 + 2 + 30
    # minkan 1, open: honitsu 2, karasu 20
    assert total("234s567s888s1z minkan(9999s) ron 1z seat=S") == 2 + 2 + 1 + 20
    # the four Norths extracted: gari 4 + set 4, no karasu
    assert total("234s567s888s1z ankan(9999s) ron 1z seat=S nuki=4z4z4z4z") == 3 + 2 + 1 + 2 + 4 + 4
    # dealer 1
    assert total("234s456s678s33s56s ron 7s seat=E") == 42


def test_ct_a15_kuitan_on_by_default() -> None:
    line = "234s567s66s44s pon(888s) ron 6s seat=S"
    assert total(line) == 1 + 5 + 2 + 20  # tanyao, open chinitsu, banban, open karasu
    assert total(f"{line} kuitan=false") == 5 + 2 + 20


def test_ct_a16_variants_off_by_default() -> None:
    assert total(EX1) == 41
    assert total(f"{EX1} always_dora_fives=true") == 43  # two 5s


# --- Part B: tiles and setup ----------------------------------------------------------------------


def test_ct_b1_112_tiles_one_suit_eight_copies_no_red() -> None:
    for suit, base in (("p", 9), ("s", 18)):
        codes = tile_codes(suit)
        assert len(codes) == 112
        assert all(codes.count(k) == 8 for k in range(base, base + 9))
        assert all(codes.count(k) == 4 for k in (0, 4, 8, *range(27, 34)))
    r = score_line(f"234s406s678s33s56s ron 7s seat=S {RS}")
    assert "error" in r and "red" in r["error"]
    r = score_line(f"234s456p678s33s56s ron 7s seat=S {RS}")
    assert "error" in r


def test_ct_b2_gari_kinds_and_values() -> None:
    assert items(f"{EX1} nuki=5m")["gari"] == 1
    assert total(f"{EX1} nuki=5m") == 41 - 30 + 1
    bad = score_line(f"{EX1} nuki=1z {RS}")
    assert "error" in bad


def test_ct_b3_fifth_honour_and_ninth_suit_tile_through_white() -> None:
    # four Easts and a White: EEE + EE (a 5th East); round wind 1, honitsu 3, banban, menzen, karasu
    assert total("234s567s888s1111z ron 5z seat=S") == 1 + 3 + 2 + 1 + 30
    # eight 2s and the ippatsu White as a 9th 2s (CT-C2)
    r = sc("22222222s345s67s tsumo 5z seat=S riichi ippatsu")
    assert r["agari"] and r["ippatsu_white_as"] in ("2s", "5s", "8s")


def test_ct_b5_dora_mapping_and_gari_dora() -> None:
    k = parse_kind
    assert dora_kind(k("1m")) == k("5m") and dora_kind(k("5m")) == k("9m") and dora_kind(k("9m")) == k("1m")
    assert dora_kind(k("9s")) == k("1s") and dora_kind(k("4z")) == k("1z")
    assert dora_kind(k("6z")) == k("7z") and dora_kind(k("7z")) == k("5z")
    # an extracted 1m is a dora with indicator 9m, an extracted North with indicator West
    assert total(f"{EX1} nuki=4z1m dora=9m") == 13 + 1
    assert total(f"{EX1} nuki=4z1m dora=3z") == 13 + 1


# --- Part C: White --------------------------------------------------------------------------------


def test_ct_c1_white_is_any_honour_but_not_north_outside_four_winds() -> None:
    # White pair standing for any honour
    assert sc("123s456s789s111z5z ron 5z seat=S")["agari"]
    # North + White can never be a chiitoitsu pair (CT-F5)
    assert not sc("22s44s66s88s99s11z4z ron 5z seat=S")["agari"]
    # but in a four-winds hand the White may be North: EEE SSS WWW + White pair as North
    got = items("234s111z222z333z5z ron 5z seat=S")
    assert got["shousuushii"] == 50
    assert total("234s111z222z333z5z ron 5z seat=S") == 50 + 2 + 3 + 2 + 1 + 30  # + sanankou, honitsu


def test_ct_c2_ippatsu_white_is_a_full_wildcard_with_the_best_assignment() -> None:
    hand = "2223334567888s"
    r = sc(f"{hand} tsumo 5z seat=S riichi ippatsu")
    assert r["agari"]
    # the best of every real tile the White could be
    best = 0
    for t in ("1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s"):
        x = score_line(f"{hand} tsumo {t} seat=S riichi ippatsu {RS}")
        if x.get("agari"):
            best = max(best, x["points"])
    assert best and r["points"] == best
    # without ippatsu the White is only an honour: no win
    assert not sc(f"{hand} tsumo 5z seat=S riichi")["agari"]


def test_ct_c3_choice_at_scoring_maximises() -> None:
    r = sc("2222s4466s88s1z55z ron 1z seat=S")
    assert r["points"] == 42  # Whites as East (4-use East) beat Whites as White (40)


def test_ct_c4_white_indicator_picks_one_honour() -> None:
    # EEE in hand: a White indicator makes East the dora (3), not every honour
    base = total("234s567s888s111z3z ron 3z seat=S")
    assert base == 1 + 3 + 2 + 1 + 30
    assert total("234s567s888s111z3z ron 3z seat=S dora=5z") == base + 3
    # Whites standing for East are East for dora too (EEE + Wh Wh as EE = 5)
    assert total("234s567s888s111z5z ron 5z seat=S dora=5z") == base + 5
    # the ura indicator gets its own choice
    assert total("234s567s888s111z5z ron 5z seat=S dora=5z riichi ura=5z") == base + 5 + 1 + 5
    # North is never the chosen kind
    assert "4z" not in CtOptions().white_dora_kinds


def test_ct_c6_white_is_a_wait_whenever_an_honour_is() -> None:
    assert waits_of("123s456s789s111z2z") == "25z"
    assert waits_of("123s456s789s11z22z") == "125z"
    assert waits_of("123s456s789s1112s") == "23s"  # no honour wait, no White


# --- Part D: wall, nuki, kans ---------------------------------------------------------------------


def test_ct_d3_rinshan_only_on_kan_point() -> None:
    line = "234s567s888s1z ankan(9999s) tsumo 1z seat=S"
    assert total(f"{line} rinshan") == total(line) + 1


def test_ct_d5_haitei_houtei_one_point() -> None:
    assert total("234s456s678s33s56s tsumo 7s seat=S haitei") == 43
    assert total(f"{EX1} houtei") == 42


# --- Part E: calls --------------------------------------------------------------------------------


def test_ct_e2_closest_in_turn_order() -> None:
    assert call_priority(0, [2, 1]) == [1, 2]
    assert call_priority(1, [0, 2]) == [2, 0]


def test_ct_e3_kuikae_with_white() -> None:
    k = parse_kind
    assert kuikae_forbidden(k("3s"), (k("3s"), k("3s"))) == {k("3s")}
    assert kuikae_forbidden(k("1z"), (k("1z"), k("5z"))) == {k("1z"), k("5z")}
    assert kuikae_forbidden(k("2z"), (k("5z"), k("5z"))) == {k("2z"), k("5z")}
    assert kuikae_forbidden(k("5z"), (k("5z"), k("5z"))) == set(range(27, 34))


def test_ct_e4_north_never_kanned() -> None:
    before = counts_of(parse_tiles("234s567s888s444z"))
    assert not riichi_ankan_ok(before[:30] + [4] + before[31:], 30, "s")


# --- Part F: riichi, open riichi, gari in hand --------------------------------------------------


def test_ct_f1_riichi_stick_is_one_point() -> None:
    r = sc(f"{EX1} riichi sticks=2 from=E")
    assert r["points"] == 42 and r["payments"]["S"] == 42 + 2 and r["payments"]["E"] == -42


def test_ct_f2_open_riichi_two_points() -> None:
    got = items(f"{EX1} riichi open_riichi=1")
    assert got["riichi"] == 1 and got["open_riichi"] == 1


def test_ct_f2_exposure_chiitoitsu_three_singles_suffice() -> None:
    hand = parse_tiles("22s44s66s88s99s1z2z5z")
    assert waits_of("22s44s66s88s99s1z2z5z") == "125z"
    assert open_riichi_exposure_ok(hand, parse_tiles("125z"), "s")
    assert not open_riichi_exposure_ok(hand, parse_tiles("12z"), "s")


def test_ct_f2_exposure_179_must_show_everything() -> None:
    hand = parse_tiles("1133445577999s")
    assert waits_of("1133445577999s") == "179s"
    assert open_riichi_exposure_ok(hand, hand, "s")
    for drop in ("11s", "99s", "999s", "3s", "77s"):
        part = list(hand)
        for t in parse_tiles(drop):
            part.remove(t)
        assert not open_riichi_exposure_ok(hand, part, "s"), drop


def test_ct_f2_exposure_3444_shows_235() -> None:
    hand = parse_tiles("1113444678999s")
    assert waits_of("1113444678999s") == "235s"
    assert open_riichi_exposure_ok(hand, parse_tiles("3444s"), "s")
    opts = CtOptions(open_riichi_expose="minimal", suit="s")
    assert open_riichi_shown(hand, parse_tiles("3444s"), opts) == tuple(parse_tiles("3444s"))
    assert open_riichi_shown(hand, parse_tiles("3444s"), CtOptions(suit="s")) == tuple(hand)


def test_ct_f2_scoring_ignores_the_exposure_junchan_on_3s() -> None:
    hand = parse_tiles("1112223378999s")
    assert open_riichi_exposure_ok(hand, parse_tiles("3378999s"), "s")
    assert items("1112223378999s ron 3s seat=S riichi open_riichi=1")["junchan"] == 50


def test_ct_f3_ankan_after_riichi_when_waits_unchanged() -> None:
    c = counts_of(parse_tiles("1113444678999s"))
    assert riichi_ankan_ok(c, parse_kind("1s"), "s")
    c = counts_of(parse_tiles("1112223378999s"))
    assert waits_of("1112223378999s") == "369s"
    assert riichi_ankan_ok(c, parse_kind("1s"), "s") and riichi_ankan_ok(c, parse_kind("2s"), "s")
    c = counts_of(parse_tiles("1112346668999s"))
    assert waits_of("1112346668999s") == "78s"
    assert riichi_ankan_ok(c, parse_kind("9s"), "s")
    assert open_riichi_exposure_ok(parse_tiles("1112346668s"), parse_tiles("6668s"), "s")
    # a kan that changes the waits is refused: 3444 + ankan of 4s loses the 2s/5s waits
    c = counts_of(parse_tiles("1113444678999s"))
    assert not riichi_ankan_ok(c, parse_kind("4s"), "s")


def test_ct_f4_kokushi_with_gari_and_thirteen_sided() -> None:
    assert waits_of("19m1199s1234567z") == "19m19s1234567z"
    assert items("19m1199s1234567z ron 1z seat=S")["kokushi_13"] == 100
    assert total("19m1199s1234567z ron 1z seat=S") == 100 + 2 + 1 + 30


def test_ct_f4_four_winds_with_north_in_hand() -> None:
    assert waits_of("234s222z11z33z44z5z") == "1345z"
    assert total("234s222z11z33z44z5z ron 1z seat=S") == 50 + 3 + 2 + 1 + 30


def test_ct_f5_chiitoitsu_never_holds_north() -> None:
    assert waits_of("222s222z11z33z44z5z") == "1345z"  # 2s is not a wait
    assert not sc("222s222z11z33z44z5z ron 2s seat=S")["agari"]


def test_ct_f6_wait_set_includes_white_for_furiten() -> None:
    calc = find_ruleset("chinitsu_toutenkou").shanten_calculator()
    assert 31 in calc.waits(counts_of(parse_tiles("123p456p789p111z2z")))


# --- Part G: scoring ------------------------------------------------------------------------------


def test_ct_g1_total_is_the_sum_of_items() -> None:
    for line in (EX1, "123s789s111z99s55z ron 9s seat=S", "1112223378999s ron 3s seat=S riichi"):
        r = sc(line)
        assert r["points"] == r["total"] == sum(y["han"] for y in r["yaku"])


@pytest.mark.parametrize(
    ("line", "expected", "item"),
    [
        ("123s789s99s55z pon(111z) ron 9s seat=S", 10 + 1 + 2 + 20, ("chanta", 10)),
        ("123s789s11s99s pon(999s) ron 1s seat=S", 30 + 2 + 20, ("junchan", 30)),
        ("111s999s111z22z33z ron 2z seat=S", 50 + 2 + 2 + 1 + 1 + 2 + 1 + 30, ("honroutou", 50)),
        ("234s555z666z77z11s ron 1s seat=S", 50 + 3 + 2 + 1 + 30, ("shousangen", 50)),
        ("234s555z666z77z11s ron 7z seat=S", 100 + 3 + 2 + 1 + 30, ("daisangen", 100)),
        ("111z222z333z666z7z ron 7z seat=S", 100 + 100 + 1 + 1 + 1 + 2 + 1 + 30, ("tsuuiisou", 100)),
        ("11s99s999s999s pon(111s) ron 1s seat=S", 100 + 2 + 20, ("chinroutou", 100)),
        ("111s333s555s777s9s ron 9s seat=S", 100 + 6 + 2 + 1 + 30, ("suuankou_tanki", 100)),
        ("234s234s666s88s66z ron 6z seat=S", 50 + 1 + 1 + 2 + 1 + 30, ("ryuuiisou", 50)),
        ("2233445566778p ron 8p seat=S", 50 + 2 + 1 + 30, ("daisharin", 50)),
        ("1112345678999s ron 5s seat=S", 100 + 2 + 1 + 30, ("junsei_chuuren", 100)),
        ("1112345678899s ron 9s seat=S", 50 + 2 + 1 + 30, ("chuuren", 50)),
        ("111s444s777s22s55z ron 2s seat=S", 2 + 2 + 3 + 2 + 1 + 30, ("sanankou", 2)),
    ],
)
def test_ct_g2_point_table(line: str, expected: int, item: tuple[str, int]) -> None:
    assert total(line) == expected
    assert items(line)[item[0]] == item[1]


def test_ct_g2_renhou_30_and_green_and_wheel_only_in_their_suit() -> None:
    assert total(f"{EX1} renhou") == 41 + 30
    assert "renhou" not in items("234s456s678s33s56s ron 7s seat=E renhou")
    assert "ryuuiisou" not in items("234p234p666p88p66z ron 6z seat=S")
    assert "daisharin" not in items("2233445566778s ron 8s seat=S")


def test_ct_g3_chiitoitsu_with_6_and_8_copies() -> None:
    assert total("222222s44s66s88s1z ron 1z seat=S") == 2 + 4 + 3 + 2 + 1 + 30
    got = items("22222222s44s66s1z ron 1z seat=S")
    assert got["chiitoitsu_8"] == 50 and "chiitoi_6" not in got
    assert total("22222222s44s66s1z ron 1z seat=S") == 2 + 50 + 3 + 2 + 1 + 30


def test_ct_g4_exclusions_and_yakuman_only_option() -> None:
    assert items(EX1)["tanyao"] == 1 and items(EX1)["chinitsu"] == 6  # they combine
    got = items(f"{EX1} renhou")
    assert got["renhou"] == 30 and got["karasu"] == 30
    # yakuman_adds_other=false: the junchan yakuman + bonus items only
    assert total("1112223378999s ron 3s seat=S riichi yakuman_adds_other=false") == 50 + 2 + 1 + 30


def test_ct_g5_karasu_closed_30_open_20() -> None:
    assert items(EX1)["karasu"] == 30
    assert items("234s567s66s44s pon(888s) ron 6s seat=S")["karasu"] == 20
    assert "karasu" not in items(f"{EX1} nuki=9m")


def test_ct_g6_renhou_not_for_the_dealer() -> None:
    assert "renhou" not in items("234s456s678s33s56s ron 7s seat=E renhou")


def test_ct_g7_honba_one_point_each() -> None:
    assert total(f"{EX1} honba=2") == 43


def test_ct_g9_tenhou_scores_the_cheapest_winning_tile() -> None:
    # the hand with 7s as the winning tile would have pinfu (93); 3s (tanki/kanchan) does not
    r = sc("234s456s678s33s56s tsumo 7s seat=E tenhou")
    assert r["points"] == 50 + 6 + 1 + 1 + 1 + 2 + 1 + 30
    assert total("234s456s678s33s56s tsumo 7s seat=E") == 6 + 1 + 1 + 1 + 1 + 2 + 1 + 30


def test_ct_g10_nagashi_200_from_each() -> None:
    assert nagashi_payments([1]) == [-200, 400, -200]


# --- Part H ---------------------------------------------------------------------------------------


def test_ct_h1_noten_penalty_40() -> None:
    assert noten_payments([True, False, False]) == [40, -20, -20]
    assert noten_payments([True, True, False]) == [20, 20, -40]
    assert noten_payments([False, False, False]) == [0, 0, 0]


def test_ct_h3_chombo_20_to_each() -> None:
    assert chombo_payments(2) == [20, 20, -40]
    assert CtOptions().chombo_each == 20


def test_ct_h5_riichi_undo_window_off() -> None:
    assert CtOptions().riichi_undo_window is False


def test_not_applicable_rules_have_reasons() -> None:
    assert set(NOT_APPLICABLE) == {"CT-E5", "CT-H4"} and all(NOT_APPLICABLE.values())


# --- the 8-copy fallback --------------------------------------------------------------------------


def test_eight_copy_calculator_is_the_search_fallback_and_the_4_copy_path_is_unchanged() -> None:
    calc = calculator(8, 4)
    assert type(calc).__name__ == "SearchCalculator"
    assert type(calculator()) is ShantenCalculator
    c = counts_of(parse_tiles("11111111p234p567p"))  # 8 of 1p: 111 111 11 + 234 567
    assert calc.is_agari(c)
    assert calc.shanten(counts_of(parse_tiles("1111111p234p567p"))) == 0

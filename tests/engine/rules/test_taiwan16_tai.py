"""taiwan16 scoring: the tai table (rules/taiwan16.md §5, one test per row, named test_tw_t<N>_…),
the flower wins (§6), the payment formula (TW-13) and the worked examples of §7, through the
hand notation that ``python -m engine score "... ruleset=taiwan16"`` reads.

Every expected value comes from the spec's rule text or its examples (底50台20 unless said)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.hand.decompose import Wait, decompositions, wait_readings
from engine.rules import find_ruleset
from engine.rules.taiwan16 import TaiValues, TaiwanOptions
from engine.rules.taiwan16.tai import NotAWin, Situation, evaluate_tai, settle, shape_waits
from engine.scoring import score_line
from engine.tiles import parse_tiles

ROOT = Path(__file__).resolve().parents[3]


def tw(line: str) -> dict[str, Any]:
    r = score_line(line + " ruleset=taiwan16")
    assert "error" not in r, r
    return r


def items(r: dict[str, Any]) -> dict[str, int]:
    """id → tai (ids may repeat: T-6, T-9, T-9b are per set/flower; they add up here)."""
    out: dict[str, int] = {}
    for i in r["tai_items"]:
        out[i["id"]] = out.get(i["id"], 0) + i["tai"]
    return out


# ---------------------------------------------------------------------- §7 worked examples


def test_tw_13_example1_pinghu_and_concealed_pay_110() -> None:
    r = tw("123456m234p567s88p34s ron 5s seat=S from=W")
    assert items(r) == {"T-16": 2, "T-5": 1}
    assert r["tai"] == 3
    assert r["payments"] == {"W": -110, "S": 110}


def test_tw_t11_example2_middle_wait_is_not_pinghu() -> None:
    r = tw("123456m234p567s88p35s ron 4s seat=S from=W")
    assert items(r) == {"T-11": 1, "T-5": 1}
    assert [i["name"] for i in r["tai_items"] if i["id"] == "T-11"] == ["中洞"]
    assert r["payments"]["W"] == -90


def test_tw_t11_example3_nobetan_has_two_waits_no_unique_wait_no_pinghu() -> None:
    # 2s and 5s each read as a single on the pair (the spec's example); with the 567s the shape
    # also takes 8s (234s 55s 678s). Several kinds either way.
    assert {19, 22} <= set(shape_waits(_counts("123456m234p567s2345s")))
    for w in ("2s", "5s"):
        r = tw(f"123456m234p567s2345s ron {w} seat=S from=W")
        assert items(r) == {"T-5": 1}


def test_tw_13_example4_dealer_on_second_continuation_pays_dealer_tai() -> None:
    # X (South) self-draws: T-10 3 + own flower 2f 1 = 4 tai; the dealer (East) is on n = 2.
    r = tw("123456m234p567s88p2f35s tsumo 4s seat=S dealer=E n=2")
    assert r["tai"] == 5  # T-10 3 + T-9 1 + T-11 中洞 1: the spec's 4 plus the middle wait
    r = tw("123456m234p567s88p2f34s tsumo 5s seat=S dealer=E n=2")
    assert items(r) == {"T-10": 3, "T-9": 1}
    assert r["payments"] == {"E": -230, "W": -130, "N": -130, "S": 490}


def test_tw_13_example5_dealer_discards_into_a_non_dealer() -> None:
    r = tw("123456m234p567s88p2f34s ron 5s seat=S from=E dealer=E n=2")
    assert items(r) == {"T-5": 1, "T-9": 1}
    assert r["payments"] == {"E": -190, "S": 190}


def test_tw_t9b_example6_flower_set_replaces_own_flower_point() -> None:
    r = tw("123456m234p567s88p1f2f3f4f6f34s ron 5s seat=S from=W")
    fl = {k: v for k, v in items(r).items() if k in ("T-9", "T-9b")}
    assert fl == {"T-9b": 2, "T-9": 1}


def test_tw_t15_example7_all_exposed_single_wait_is_three() -> None:
    r = tw("7m chi(123m) pon(555p) pon(777s) minkan(9999p) kakan(2222s) ron 7m seat=S from=W")
    assert items(r) == {"T-15": 2, "T-11": 1}


def test_tw_t18_example8_earth_ready_self_draw_six_ron_four() -> None:
    assert items(tw("123456m234p567s88p34s tsumo 5s seat=S tenpai=earth")) == {"T-18": 4, "T-18b": 2}
    r = tw("123456m234p567s88p35s ron 4s seat=S from=W tenpai=earth")
    assert r["tai"] - items(r).get("T-11", 0) == 4
    assert "T-5" not in items(r) and "T-3" not in items(r)


def test_tw_t30_example9_seven_rob_one_b_paid_by_the_holder() -> None:
    # A (South) held six, B (West) exposed 7f, A draws 8f: A wins, B pays as a discarder.
    r = tw("123456m234p567s88p34s1f2f3f4f5f6f tsumo 8f seat=S from=W")
    assert items(r) == {"T-30": 8, "T-9b": 2, "T-9": 1}  # 1f-4f set; 6f own; 5f-8f incomplete
    assert r["payments"] == {"W": -(50 + 20 * 11), "S": 50 + 20 * 11}


# ---------------------------------------------------------------------- TW-13 payments


def test_tw_13_payment_formula_base_plus_rate_times_tai() -> None:
    assert settle(3, winner=1, payers=[2], dealer=0, continuation=0) == {2: -110, 1: 110}
    d = settle(4, winner=1, payers=[0, 2, 3], dealer=0, continuation=2)
    assert d == {0: -230, 2: -130, 3: -130, 1: 490}
    custom = TaiwanOptions(base=100, rate=30)
    assert settle(2, winner=0, payers=[3], dealer=0, continuation=1, opts=custom) == {3: -(100 + 30 * 5), 0: 250}


def test_tw_13_base_and_rate_flags_and_no_cap_by_default() -> None:
    r = tw("123456m234p567s88p34s ron 5s seat=S from=W base=100 rate=30")
    assert r["payments"]["W"] == -(100 + 30 * 3)
    assert TaiwanOptions().tai_cap is None
    capped = tw("123456m234p567s88p34s ron 5s seat=S from=W tai_cap=2")
    assert capped["payments"]["W"] == -(50 + 20 * 2)


def test_tw_13_zero_tai_win_is_paid_base_only() -> None:
    # TW-9: no minimum tai. Open hand, two-kind (shanpon) wait, ron: nothing on the table.
    r = tw("12399m456789p55s chi(456m) ron 5s seat=S from=W")
    assert r["agari"] and r["tai"] == 0 and r["tai_items"] == []
    assert r["payments"] == {"W": -50, "S": 50}


def test_tw_13_min_tai_option_refuses_a_small_hand() -> None:
    r = score_line("12399m456789p55s chi(456m) ron 5s seat=S from=W min_tai=1 ruleset=taiwan16")
    assert r["agari"] is False and r["reason"] == "below_min_tai"


# ---------------------------------------------------------------------- the tai table, row by row


def test_tw_t1_dealer_tai_on_the_dealers_win_and_on_the_dealers_payment() -> None:
    r = tw("123456m234p567s88p34s ron 5s seat=E dealer=E from=W")
    assert r["payments"]["W"] == -(50 + 20 * (3 + 1))
    r = tw("123456m234p567s88p34s ron 5s seat=S dealer=W from=W")  # the dealer discards
    assert r["payments"]["W"] == -(50 + 20 * (3 + 1))
    r = tw("123456m234p567s88p34s ron 5s seat=S dealer=E from=W")  # neither is the dealer
    assert r["payments"]["W"] == -110


def test_tw_t2_continuation_adds_two_per_continuation() -> None:
    for n, dealer_tai in ((0, 1), (1, 3), (2, 5), (3, 7)):
        r = tw(f"123456m234p567s88p34s ron 5s seat=E dealer=E from=W n={n}")
        assert r["dealer_tai"] == dealer_tai
        assert r["payments"]["W"] == -(50 + 20 * (3 + dealer_tai))


def test_tw_t3_declared_tenpai_one() -> None:
    assert items(tw("123456m234p567s88p34s ron 5s seat=S from=W tenpai=declared")) == {"T-3": 1, "T-16": 2, "T-5": 1}


def test_tw_t4_self_draw_in_an_open_hand() -> None:
    assert items(tw("456m234p567s88p34s chi(123m) tsumo 5s seat=S")) == {"T-4": 1}


def test_tw_t5_concealed_win_by_discard_concealed_kong_allowed() -> None:
    r = tw("456m234p567s88p34s ankan(1111z) ron 5s seat=S from=W")
    assert "T-5" in items(r)
    assert "T-5" not in items(tw("456m234p567s88p34s pon(111z) ron 5s seat=S from=W"))


def test_tw_t6_one_per_dragon_triplet() -> None:
    r = tw("555z666z123m456p9s chi(789p) tsumo 9s seat=S")
    assert items(r)["T-6"] == 2
    assert "T-22" not in items(r)


def test_tw_t7_prevailing_wind_triplet() -> None:
    r = tw("222z123m456p789s1p chi(678s) ron 1p seat=W round=S from=N")
    assert items(r).get("T-7") == 1 and "T-8" not in items(r)


def test_tw_t8_seat_wind_triplet_even_when_the_dealer_is_not_east() -> None:
    r = tw("333z123m456p789s1p chi(678s) ron 1p seat=W round=E dealer=S from=N")
    assert items(r).get("T-8") == 1 and "T-7" not in items(r)
    both = tw("111z123m456p789s1p chi(678s) ron 1p seat=E round=E from=N")
    assert items(both).get("T-7") == 1 and items(both).get("T-8") == 1


def test_tw_t9_own_flowers_one_each_by_seat() -> None:
    hand = "123456m234p567s88p34s ron 5s"
    assert items(tw(f"{hand} seat=E from=N flowers=1f5f"))["T-9"] == 2
    assert items(tw(f"{hand} seat=S from=N flowers=2f6f3f"))["T-9"] == 2
    assert items(tw(f"{hand} seat=W from=N flowers=3f7f"))["T-9"] == 2  # the seed: West = 秋 菊
    assert items(tw(f"{hand} seat=N from=E flowers=4f8f"))["T-9"] == 2  # North = 冬 竹
    assert "T-9" not in items(tw(f"{hand} seat=N from=E flowers=1f2f3f"))


def test_tw_t9b_two_flower_sets_and_own_flowers_outside_them() -> None:
    r = tw("123456m234p567s88p34s ron 5s seat=E from=N flowers=1f2f3f4f5f6f7f")
    assert items(r).get("T-9b") == 2 and items(r).get("T-9") == 1  # 1f in the set; 5f own
    r = tw("123456m234p567s88p34s ron 5s seat=E from=N flowers=5f6f7f8f")
    assert items(r) == {"T-9b": 2, "T-5": 1}  # no 平胡 with flowers


def test_tw_t10_concealed_self_draw_three_replaces_t4_t5() -> None:
    r = items(tw("123456m234p567s88p34s tsumo 5s seat=S"))
    assert r == {"T-10": 3}


def test_tw_t11_edge_middle_single_only_for_a_unique_wait() -> None:
    edge = tw("123456m234p567s88p12s ron 3s seat=S from=W")
    assert [i["name"] for i in edge["tai_items"] if i["id"] == "T-11"] == ["辺張"]
    tanki = tw("123456m234p567s111z9p ron 9p seat=S from=W")
    assert [i["name"] for i in tanki["tai_items"] if i["id"] == "T-11"] == ["単吊"]


def test_tw_t11_a_kind_held_in_all_four_copies_still_counts_as_a_wait() -> None:
    # Waits 1m and 7p by shape; the player holds all four 7p, so only 1m can come, but the wait
    # set is by shape: two winning kinds, no T-11.
    hand = "11m55567777889p567s"
    assert shape_waits(_counts(hand)) == [0, 15]
    assert "T-11" not in items(tw(f"{hand} ron 1m seat=S from=W"))


def test_tw_t12_robbing_a_kong() -> None:
    assert items(tw("123456m234p567s88p34s ron 5s seat=S from=W chankan"))["T-12"] == 1


def test_tw_t13_win_on_a_kong_or_flower_replacement() -> None:
    assert items(tw("123456m234p567s88p34s tsumo 5s seat=S rinshan")) == {"T-10": 3, "T-13": 1}
    assert items(tw("123456m234p567s88p34s tsumo 5s seat=S replacement=flower"))["T-13"] == 1
    off = tw("123456m234p567s88p34s tsumo 5s seat=S replacement=flower kong_bloom_on_flower=false")
    assert "T-13" not in items(off)


def test_tw_t14_last_tile_self_draw_and_the_ron_option() -> None:
    assert items(tw("123456m234p567s88p34s tsumo 5s seat=S haitei"))["T-14"] == 1
    assert "T-14" not in items(tw("123456m234p567s88p34s ron 5s seat=S from=W houtei"))
    on = tw("123456m234p567s88p34s ron 5s seat=S from=W houtei haitei_ron=true")
    assert items(on)["T-14"] == 1


def test_tw_t15_all_exposed_needs_a_discard() -> None:
    r = tw("7m chi(123m) pon(555p) pon(777s) minkan(9999p) kakan(2222s) tsumo 7m seat=S")
    assert "T-15" not in items(r)
    r = tw("7m chi(123m) pon(555p) pon(777s) ankan(9999p) kakan(2222s) ron 7m seat=S from=W")
    assert "T-15" not in items(r)  # a concealed kong is not exposed


def test_tw_t16_pinghu_conditions() -> None:
    base = "123456m234p567s88p34s"
    assert "T-16" in items(tw(f"{base} ron 5s seat=S from=W"))
    assert "T-16" not in items(tw(f"{base} tsumo 5s seat=S"))  # by discard only
    assert "T-16" not in items(tw(f"{base} ron 5s seat=S from=W flowers=3f"))  # no flowers at all
    assert "T-16" not in items(tw("123456m234p567s11z34s ron 5s seat=S from=W"))  # no honours
    assert "T-16" in items(tw("456m234p567s88p34s chi(123m) ron 5s seat=S from=W"))  # open is fine
    # waits 2s/5s/8s: the win on 2s reads two-sided in five sequences, but some reading of a
    # winning kind is not two-sided, so no 平胡 (the seed: "待ちのなかに単騎…があったら").
    hand = "123m1223345566778s"
    assert shape_waits(_counts(hand)) == [19, 22, 25]
    assert "T-16" not in items(tw(f"{hand} ron 2s seat=S from=W"))


def test_tw_t16_no_pinghu_when_another_winning_kind_reads_as_an_edge() -> None:
    # 12345s waits 3s and 6s. A win on 6s reads only as two-sided (123s + 45s→6s), but the other
    # winning kind 3s also reads as the edge 12s→3s: "待ちのなかに…ペンチャンがあったら,
    # 両面で上がっても認められない". The wait set decides, not the tile that came.
    hand = "123m456m234p88p12345s"
    assert shape_waits(_counts(hand)) == [20, 23]
    c = _counts(hand)
    c[23] += 1
    assert all(w is Wait.RYANMEN for sets, pair in decompositions(c) for w, _ in wait_readings(sets, pair, 23))
    assert items(tw(f"{hand} ron 6s seat=S from=W")) == {"T-5": 1}


def test_tw_t17_three_concealed_triplets_not_by_a_discard() -> None:
    r = tw("111m222p333s456p78s99m ron 9s seat=S from=W")
    assert items(r)["T-17"] == 2
    # the third triplet completed by the discard is not concealed: 2 concealed → nothing
    r = tw("111m222p456p789s33s99m ron 3s seat=S from=W")
    assert "T-17" not in items(r)
    r = tw("111m222p456p789s33s99m tsumo 3s seat=S")
    assert items(r)["T-17"] == 2
    r = tw("111m222p333s456p78s99m ron 9s seat=S from=W tai.sanankou=3")
    assert items(r)["T-17"] == 3


def test_tw_t18_earth_ready_excludes_declared_and_concealed() -> None:
    r = items(tw("123456m234p567s88p34s ron 5s seat=S from=W tenpai=earth"))
    assert r["T-18"] == 4 and "T-3" not in r and "T-5" not in r and r.get("T-16") == 2


def test_tw_t19_heaven_ready_only_with_the_option() -> None:
    bad = score_line("123456m234p567s88p34s ron 5s seat=S from=W tenpai=heaven ruleset=taiwan16")
    assert "error" in bad and "tenting" in bad["error"]
    r = items(tw("123456m234p567s88p34s tsumo 5s seat=S tenpai=heaven tenting=true"))
    assert r == {"T-19": 8, "T-18b": 2}


def test_tw_t20_all_triplets() -> None:
    r = tw("111m222p333s444p9m pon(555s) ron 9m seat=S from=W")
    assert items(r)["T-20"] == 4


def test_tw_t21_one_suit_and_honours() -> None:
    r = tw("123456m111z55z23m chi(789m) ron 4m seat=S from=W")
    assert items(r)["T-21"] == 4 and "T-26" not in items(r)


def test_tw_t22_little_three_dragons_without_t6() -> None:
    r = items(tw("555z666z123m456p7z chi(789p) ron 7z seat=S from=W"))
    assert r["T-22"] == 4 and "T-6" not in r


def test_tw_t23_flower_win_in_the_deal() -> None:
    r = tw("123456m234p567s88p34s1f2f3f4f5f6f7f tsumo 8f seat=E phase=deal")
    assert items(r) == {"T-31": 8, "T-23": 4, "T-9b": 4}


def test_tw_t24_four_concealed_triplets_and_its_options() -> None:
    r = tw("111m222p333s444p99m56s ron 7s seat=S from=W")
    assert items(r)["T-24"] == 5 and "T-17" not in items(r)
    for v in (4, 6):
        r = tw(f"111m222p333s444p99m56s ron 7s seat=S from=W tai.suuankou={v}")
        assert items(r)["T-24"] == v


def test_tw_t25_five_concealed_triplets_with_all_triplets() -> None:
    r = items(tw("111m222p333s444p555m9s tsumo 9s seat=S"))
    assert r["T-25"] == 8 and r["T-20"] == 4 and "T-24" not in r and "T-17" not in r


def test_tw_t26_one_suit() -> None:
    r = items(tw("111234456678999m5m tsumo 5m seat=S"))
    assert r["T-26"] == 8 and "T-21" not in r


def test_tw_t27_big_three_dragons_without_t6_t22() -> None:
    r = items(tw("555z666z777z123m9s chi(789p) ron 9s seat=S from=W"))
    assert r["T-27"] == 8 and "T-6" not in r and "T-22" not in r


def test_tw_t28_little_four_winds_keeps_wind_tai() -> None:
    r = items(tw("111z222z333z4z123m chi(789p) ron 4z seat=S round=E from=W"))
    assert r["T-28"] == 8 and r.get("T-7") == 1 and r.get("T-8") == 1
    r = items(tw("111z222z333z4z123m chi(789p) ron 4z seat=S round=E from=W tai.shousuushii=4"))
    assert r["T-28"] == 4


def test_tw_t29_all_honours_without_all_triplets() -> None:
    r = items(tw("111z222z333z555z666z7z tsumo 7z seat=S"))
    assert r["T-29"] == 8 and "T-20" not in r
    assert r["T-22"] == 4 and r["T-25"] == 8  # 字一色 stacks with 三元 and 暗刻 items


def test_tw_t30_seven_rob_one_a_ron_on_the_others_flower() -> None:
    r = tw("123456m234p567s88p34s1f2f3f4f5f6f7f ron 8f seat=S from=W")
    assert items(r) == {"T-30": 8, "T-9b": 2, "T-9": 1}
    assert r["payments"] == {"W": -(50 + 20 * 11), "S": 270}


def test_tw_t31_all_eight_flowers_paid_by_all() -> None:
    r = tw("123456m234p567s88p34s1f2f3f4f5f6f7f tsumo 8f seat=W dealer=E")
    assert items(r) == {"T-31": 8, "T-9b": 4}
    assert r["payments"] == {"E": -(50 + 20 * 13), "S": -290, "N": -290, "W": 310 + 580}


def test_tw_t32_big_four_winds_without_t7_t8_t28() -> None:
    r = items(tw("111z222z333z444z123m5m tsumo 5m seat=E round=E"))
    assert r["T-32"] == 16 and not {"T-7", "T-8", "T-28"} & set(r)
    r = items(tw("111z222z333z444z123m5m tsumo 5m seat=E tai.daisuushii=8"))
    assert r["T-32"] == 8


def test_tw_t33_earth_win_stacks_with_concealed() -> None:
    r = items(tw("123456m234p567s88p34s ron 5s seat=S from=E chiihou"))
    assert r["T-33"] == 16 and r["T-5"] == 1


def test_tw_t34_heaven_win_has_no_self_draw_concealed_or_wait() -> None:
    r = items(tw("123456m234p567s88p35s tsumo 4s seat=E tenhou"))
    assert r == {"T-34": 24}
    r = items(tw("123456m234p567s88p35s tsumo 4s seat=E tenhou tai.tenhou=16"))
    assert r == {"T-34": 16}


# ---------------------------------------------------------------------- TW-9 and TW-14 on the scorer


def test_tw_9_five_sets_and_a_pair_no_seven_pairs() -> None:
    r = score_line("11223344556677m8m ruleset=taiwan16 ron 8m")  # malformed order on purpose
    assert "error" in r
    r = score_line("1122334455667788m ron 9m ruleset=taiwan16")
    assert r["agari"] is False  # eight pairs are not five sets and a pair
    with pytest.raises(NotAWin):
        evaluate_tai(parse_kinds("11223344556677m88p"), (), 25, Situation())


def test_tw_14_a_flower_win_needs_seven_or_eight_flowers() -> None:
    r = score_line("123456m234p567s88p34s1f2f3f4f5f ron 8f seat=S from=W ruleset=taiwan16")
    assert "error" in r


def test_tw_1_flowers_refused_when_the_table_plays_without_them() -> None:
    r = score_line("123456m234p567s88p34s1f ron 5s seat=S from=W taiwan16.flowers=false ruleset=taiwan16")
    assert "error" in r and "without flowers" in r["error"]


# ---------------------------------------------------------------------- options


def test_tw_13_options_have_the_spec_defaults_and_refuse_unknown_values() -> None:
    o = TaiwanOptions()
    assert (o.flowers, o.base, o.rate, o.seat_wind_mode, o.multi_win, o.reserve) == (
        True, 50, 20, "dice", "head_bump", "fixed16")
    assert (o.haitei_pass, o.haitei_ron, o.tenting, o.kong_bloom_on_flower) == (False, False, False, True)
    assert o.earth_ready_requires_no_calls is True
    assert not (o.no_kong_before_discard_after_call or o.no_discard_same_as_called)
    assert o.no_call_own_discard_kind_same_round is False
    assert (o.min_tai, o.tai_cap) == (0, None)
    assert o.tai == TaiValues(sanankou=2, suuankou=5, shousuushii=8, tsuuiisou=8, daisuushii=16, tenhou=24)
    with pytest.raises(ValueError):
        TaiValues(sanankou=4)
    with pytest.raises(ValueError):
        TaiwanOptions(reserve="twenty")
    assert "error" in score_line("123456m234p567s88p34s ron 5s nonsense=1 ruleset=taiwan16")


def test_tw_t29_all_honours_option_sixteen() -> None:
    r = items(tw("111z222z333z555z666z7z tsumo 7z seat=S tai.tsuuiisou=16"))
    assert r["T-29"] == 16


def test_tw_13_score_command_line_prints_items_total_and_payments() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "engine", "score", "--json",
         "123456m234p567s88p1f34s ron 5s seat=E from=S n=1 ruleset=taiwan16"],
        capture_output=True, text=True, cwd=ROOT, check=True,
    ).stdout
    r = json.loads(out)
    assert items(r) == {"T-5": 1, "T-9": 1}
    assert r["tai"] == 2 and r["dealer_tai"] == 3
    assert r["payments"] == {"S": -(50 + 20 * 5), "E": 150}


def test_ruleset_is_registered_with_sixteen_tile_hands() -> None:
    rs = find_ruleset("taiwan16")
    assert (rs.hand_size, rs.max_sets, rs.flowers, rs.players) == (16, 5, 8, 4)


# ---------------------------------------------------------------------- helpers


def _counts(text: str) -> list[int]:
    c = [0] * 34
    for k in parse_tiles(text):
        c[k] += 1
    return c


def parse_kinds(text: str) -> list[int]:
    return list(parse_tiles(text))


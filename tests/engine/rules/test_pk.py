"""Ruleset ``pk`` (shared/rules/pk.md): scoring (PK-0), definitions (PK-D1…D7), the hand rules
(PK-1…PK-5, PK-8…PK-10, PK-12, PK-14) and every worked example of §5, as pure hand evaluation.

The table rules (PK-6, PK-7, PK-11, PK-12 at the table, PK-13) are in ``test_pk_table.py``.
Unless a test says otherwise the winner is the non-dealer South seat in the East round (the spec's
context for §5), so West and North are otakaze. Expected values come from the spec's text.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.notation import parse_hand
from engine.rules import find_ruleset
from engine.rules.pk import (
    NO_COMMON_YAKU,
    PkOptions,
    PkRuleset,
    analyse,
    first_call,
    table_base,
)
from engine.rules.pk.yaku import _closure
from engine.scoring import score_line
from engine.scoring.result import settle
from engine.tiles import parse_kind

CONTEXT = "seat=S round=E"


def pk(line: str, rs: PkRuleset | None = None) -> dict[str, Any]:
    """Score one hand line under pk (the §5 context unless the line sets seat/round)."""
    if "seat=" not in line:
        line += " seat=S"
    if "round=" not in line:
        line += " round=E"
    if rs is None:
        r = score_line(line + " ruleset=pk")
        assert "error" not in r, r
        return r
    return rs.score(parse_hand(line)).to_json()


def waits(r: dict[str, Any]) -> dict[str, set[str]]:
    return {k: set(v) for k, v in r["wait_yaku"].items()}


def names(r: dict[str, Any]) -> set[str]:
    return {y["name"] for y in r["yaku"]}


def invalid(r: dict[str, Any]) -> bool:
    return r["agari"] is False and r["reason"] == NO_COMMON_YAKU


# ---------------------------------------------------------------------------------------------
# PK-0 scoring
# ---------------------------------------------------------------------------------------------

# pk.md §1 PK-0.3, typed from the spec: (table han, non-dealer ron, non-dealer tsumo
# (from each non-dealer, from the dealer), dealer tsumo (each), dealer ron)
SPEC_TABLE = [
    (3, 1000, (300, 500), 500, 1500),
    (4, 2000, (500, 1000), 1000, 3000),
    (5, 4000, (1000, 2000), 2000, 6000),
    (6, 8000, (2000, 4000), 4000, 12000),
    (7, 8000, (2000, 4000), 4000, 12000),
    (8, 12000, (3000, 6000), 6000, 18000),
    (9, 12000, (3000, 6000), 6000, 18000),
    (10, 16000, (4000, 8000), 8000, 24000),
    (11, 16000, (4000, 8000), 8000, 24000),
    (12, 16000, (4000, 8000), 8000, 24000),
    (13, 24000, (6000, 12000), 12000, 36000),
    (14, 24000, (6000, 12000), 12000, 36000),
    (15, 32000, (8000, 16000), 16000, 48000),
    (16, 32000, (8000, 16000), 16000, 48000),
    (20, 32000, (8000, 16000), 16000, 48000),
]

# Riichi only (1 han): East pair is the round wind, so no pinfu; 1s/4s wait.
RIICHI_ONLY = "123m456p789s11z23s"


def _dora(n: int) -> str:
    """Indicators worth n dora on RIICHI_ONLY: each 4z indicator makes the 11z pair 2 dora, 9m → 1m."""
    return "4z" * (n // 2) + "9m" * (n % 2)


@pytest.mark.parametrize(("table_han", "ko_ron", "ko_tsumo", "oya_tsumo", "oya_ron"), SPEC_TABLE)
def test_pk_0_3_points_table_every_row_and_column(
    table_han: int, ko_ron: int, ko_tsumo: tuple[int, int], oya_tsumo: int, oya_ron: int
) -> None:
    han = table_han - 2
    ron_dora = han - 1  # riichi 1
    tsumo_dora = han - 2  # riichi 1 + menzen tsumo 1
    r = pk(f"{RIICHI_ONLY} ron 1s riichi seat=S from=W dora={_dora(ron_dora)}")
    assert (
        r["han"] == han
        and r["points"] == ko_ron
        and r["payments"] == {"W": -ko_ron, "S": ko_ron, "E": 0, "N": 0}
    )
    r = pk(f"{RIICHI_ONLY} ron 1s riichi seat=E from=W dora={_dora(ron_dora)}")
    assert r["points"] == oya_ron and r["payments"]["W"] == -oya_ron
    if tsumo_dora >= 0:
        r = pk(f"{RIICHI_ONLY} tsumo 1s riichi seat=S dora={_dora(tsumo_dora)}")
        assert r["han"] == han
        assert r["payments"] == {
            "E": -ko_tsumo[1],
            "W": -ko_tsumo[0],
            "N": -ko_tsumo[0],
            "S": sum(ko_tsumo) + ko_tsumo[0],
        }
        r = pk(f"{RIICHI_ONLY} tsumo 1s riichi seat=E dora={_dora(tsumo_dora)}")
        assert r["payments"] == {"S": -oya_tsumo, "W": -oya_tsumo, "N": -oya_tsumo, "E": 3 * oya_tsumo}


def test_pk_0_3_table_rows_are_base_amounts() -> None:
    """Each row is a base B paid as ron 4B / 6B and tsumo B / 2B (rounded up to 100)."""
    for table_han, ko_ron, ko_tsumo, oya_tsumo, oya_ron in SPEC_TABLE:
        base, _ = table_base(table_han)
        opts = find_ruleset("pk").options
        assert settle(base, seat=1, tsumo=False, discarder=0, honba=0, sticks=0, opts=opts)[0] == ko_ron
        assert settle(base, seat=0, tsumo=False, discarder=1, honba=0, sticks=0, opts=opts)[0] == oya_ron
        pay = settle(base, seat=1, tsumo=True, discarder=None, honba=0, sticks=0, opts=opts)[1]
        assert (-pay["W"], -pay["E"]) == ko_tsumo
        assert (
            -settle(base, seat=0, tsumo=True, discarder=None, honba=0, sticks=0, opts=opts)[1]["S"]
            == oya_tsumo
        )


def test_pk_0_1_no_fu_and_kans_do_not_matter() -> None:
    # riichi: the pon hand is 30 fu (1000), the daiminkan 40 fu (1300); pk pays the same for both
    pon = pk("123m456p789s5s pon(777z) ron 5s")
    kan = pk("123m456p789s5s minkan(7777z) ron 5s")
    ankan = pk("123m456p789s5s ankan(7777z) ron 5s")
    assert pon["fu"] == kan["fu"] == ankan["fu"] == 0
    assert pon["points"] == kan["points"] == 1000
    assert score_line("123m456p789s5s minkan(7777z) ron 5s seat=S")["points"] == 1300  # riichi, for contrast
    # ankan: closed ron, chun 1 han; no menzen-ron fu either: 3 翻 → 1000
    assert ankan["points"] == 1000


def test_pk_0_2_bazoro_two_han_added_to_every_hand() -> None:
    r = pk("22m66778899m678s ron 6m")  # iipeikou 1 han
    assert r["han"] == 1 and r["bazoro"] == 2 and r["table_han"] == 3 and r["points"] == 1000
    # with pk.bazoro = 0 a 3-han hand reads the 3 翻 row (1000) instead of the 5 翻 row (4000)
    line = "123m11z23s456p789s ron 1s riichi dora=4z"  # riichi 1 + dora 2
    assert pk(line)["points"] == 4000
    assert pk(line, find_ruleset("pk").with_options(pk=dict(bazoro=0)))["points"] == 1000


def test_pk_0_4_multiple_yakuman_stack() -> None:
    # daisangen + tsuuiisou + suuankou tanki (closed tanki ron): three yakuman = 3 × 32000
    line = "111z555z666z777z2z ron 2z"
    r = pk(line)
    assert {"daisangen", "tsuuiisou", "suuankou_tanki"} <= names(r) and r["yakuman"] == 3
    assert r["points"] == 96000
    flat = find_ruleset("pk").with_options(yakuman_stacking=False)
    assert pk(line, flat)["points"] == 32000  # type: ignore[arg-type]


def test_pk_0_5_honba_and_riichi_sticks_follow_the_base_rules() -> None:
    r = pk("1133m5577p99s1122z ron 2z honba=2 sticks=1 from=W")
    assert r["points"] == 2000
    assert r["payments"]["W"] == -2600 and r["payments"]["S"] == 3600
    r = pk("1133m5577p99s1122z tsumo 2z honba=1")
    # chiitoitsu 2 + tsumo 1 = 3 (+2) = 5 翻: 1000 / 2000, +100 each per honba
    assert r["payments"] == {"E": -2100, "W": -1100, "N": -1100, "S": 4300}


def test_pk_0_6_seed_example_ten_han_open_honitsu_toitoi_shousangen() -> None:
    r = pk("66z33p pon(333z) pon(555z) pon(777z) ron 3p")
    assert names(r) == {"honitsu", "toitoi", "shousangen", "haku", "chun"}
    assert r["han"] == 8 and r["table_han"] == 10 and r["points"] == 16000


# ---------------------------------------------------------------------------------------------
# Definitions
# ---------------------------------------------------------------------------------------------


def test_pk_d1_first_call_is_the_first_chi_pon_or_daiminkan() -> None:
    spec = parse_hand("5p ankan(7777z) chi(234m) pon(555z) kakan(6666z) ron 5p")
    assert first_call(spec.melds) == 1  # the ankan is never F
    assert first_call(parse_hand("123m456p789s5s ankan(7777z) ron 5s").melds) == -1  # closed: no F


def test_pk_d1_order_of_calls_decides_f() -> None:
    # Haku pon first: F is yakuhai → valid (E13); the same tiles with the chi first → 中付け (PK-1)
    assert pk("567p33s78s pon(555z) chi(234m) ron 6s")["agari"] is True
    assert invalid(pk("567p33s78s chi(234m) pon(555z) ron 6s"))


def test_pk_d1_a_later_kakan_of_f_is_still_f() -> None:
    assert pk("567p33s78s kakan(5555z) chi(234m) ron 6s")["agari"] is True
    assert invalid(pk("567p33s78s chi(234m) kakan(5555z) ron 6s"))


def test_pk_d2_wait_set_includes_kinds_held_four_times() -> None:
    r = pk("123m123p1111234s ron 4s")  # E25: 1s is a wait by shape although all four are held
    assert set(r["wait_yaku"]) == {"1s", "4s"}


def test_pk_d3_conditions_read_the_winning_tile_as_a_ron() -> None:
    # Shanpon 8s/9s: by ron each wait leaves two concealed triplets (no yaku); the tsumo would
    # have sanankou, but "a hand that cannot ron cannot tsumo".
    r = pk("111m444p88s99s234m tsumo 8s")
    assert invalid(r) and waits(r) == {"8s": set(), "9s": set()}
    riichi = score_line("111m444p88s99s234m tsumo 8s seat=S")
    assert {y["name"] for y in riichi["yaku"]} >= {"sanankou", "menzen_tsumo"}


def test_pk_d3_a_triplet_completed_by_tsumo_is_still_open_for_the_conditions() -> None:
    # E6 won by tsumo on Hatsu: the Hatsu triplet does not anchor (it would by a concealed reading)
    r = pk("777z66z55p chi(234m) pon(555z) tsumo 6z")
    assert waits(r)["6z"] == {"chun"} and r["agari"] is True


def test_pk_d4_menzen_tsumo_and_dora_never_qualify() -> None:
    r = pk("123m456p789s23s11z tsumo 1s dora=4z")  # tsumo + dora 2, no yaku from the tiles
    assert invalid(r) and r["common_yaku"] == []


def test_pk_d4_situational_yaku_do_not_qualify_but_score() -> None:
    assert invalid(pk("123m456p789s23s11z tsumo 1s haitei"))
    assert invalid(pk("123m456p789s23s11z ron 1s houtei"))
    r = pk("123m456p789s23s11z ron 1s riichi ippatsu")
    assert r["common_yaku"] == ["riichi"] and names(r) == {"riichi", "ippatsu"}
    # option pk.situational_yaku_qualify (A1): then haitei, common to every wait, is a basis
    opt = find_ruleset("pk").with_options(pk=dict(situational_yaku_qualify=True))
    assert pk("123m456p789s23s11z tsumo 1s haitei", opt)["agari"] is True
    assert invalid(pk("123m456p789s23s11z tsumo 1s", opt))  # menzen tsumo never (PK-3)


def test_pk_d4_riichi_qualifies() -> None:
    r = pk("234m567p789s5566z ron 5z riichi")  # E22 with riichi
    assert r["agari"] is True and r["common_yaku"] == ["riichi"]


def test_pk_d5_yakuhai_distinct_per_tile_and_per_role() -> None:
    assert invalid(pk("234m567p789s5566z ron 5z"))  # Haku vs Hatsu (E22)
    # East (round wind) pair and South (seat wind) pair: different yaku although both winds
    r = pk("234m567p789s1122z ron 1z")
    assert invalid(r) and waits(r) == {"1z": {"round_wind"}, "2z": {"seat_wind"}}


def test_pk_d5_iipeikou_on_different_sequences_is_one_yaku() -> None:
    r = pk("22m66778899m678s ron 6m")  # E24: iipeikou 789 on 6m, 678 on 9m
    assert r["common_yaku"] == ["iipeikou"]


def test_pk_d6_subsumption_list() -> None:
    pairs = {
        "daisuushii": "shousuushii",
        "daisangen": "shousangen",
        "suuankou": "sanankou",
        "ryanpeikou": "iipeikou",
        "chinitsu": "honitsu",
        "junchan": "chanta",
        "chinroutou": "honroutou",
        "double_riichi": "riichi",
    }
    for high, low in pairs.items():
        assert low in _closure({high}), high


def test_pk_d6_suuankou_high_end_satisfies_sanankou() -> None:
    r = pk("111m444p888s5556m ron 6m")  # E7 on the high tile: suuankou tanki
    assert r["agari"] is True and r["yakuman"] == 1
    assert "sanankou" in waits(r)["6m"]


def test_pk_d6_daisangen_satisfies_shousangen_closed() -> None:
    # Closed shanpon 7z/5p: Chun → daisangen, 5p → shousangen; common shousangen, Haku, Hatsu
    r = pk("555z666z77z234m55p ron 5p")
    assert {"shousangen", "haku", "hatsu"} <= set(r["common_yaku"])


def test_pk_d6_ordinary_yaku_checked_before_yakuman_absorbs_them() -> None:
    r = pk("66z33p pon(333z) pon(555z) pon(777z) ron 6z")  # E8 on Hatsu: daisangen
    assert r["yakuman"] == 1 and {"honitsu", "toitoi"} <= waits(r)["6z"]


def test_pk_d7_in_hand_anchor() -> None:
    r = pk("777z56p99s chi(234m) pon(666z) ron 4p")  # E12: concealed Chun
    assert r["common_yaku"] == ["chun"]


def test_pk_d7_anchor_by_using_f() -> None:
    assert pk("789m89p234p55m chi(789s) ron 7p")["common_yaku"] == ["sanshoku"]  # E17
    assert "sanshoku_doukou" in pk("111m111s78p99m pon(111p) ron 6p")["common_yaku"]  # E21


def test_pk_d7_whole_hand_anchor() -> None:
    assert pk("77z56p chi(234p) pon(555z) pon(666z) ron 4p")["common_yaku"] == ["honitsu"]  # E4
    assert pk("77z12p chi(123s) pon(555z) pon(666z) ron 3p")["common_yaku"] == ["chanta"]  # E5


def test_pk_d7_middle_attached_yakuhai_is_not_anchored() -> None:
    assert invalid(pk("567p33s78s chi(234m) pon(777z) ron 6s"))  # E34


# ---------------------------------------------------------------------------------------------
# Worked examples §5 (E30 and E33 are table examples, in test_pk_table.py)
# ---------------------------------------------------------------------------------------------


def test_pk_1_e1_daiminkan_of_a_concealed_dragon_after_a_chi_is_middle_attached() -> None:
    r = pk("567p33s78s chi(234m) minkan(7777z) ron 6s")
    assert invalid(r) and waits(r) == {"6s": set(), "9s": set()}


def test_pk_1_e1_prime_the_same_dragon_as_ankan_is_concealed() -> None:
    r = pk("567p33s78s chi(234m) ankan(7777z) ron 9s")
    assert r["agari"] is True and waits(r) == {"6s": {"chun"}, "9s": {"chun"}}


def test_pk_1_e2_yakuhai_and_shousangen_middle_attached() -> None:
    r = pk("77z34s chi(234m) pon(555z) pon(666z) ron 2s")
    assert invalid(r) and waits(r) == {"2s": set(), "5s": set()}


def test_pk_1_e3_dragon_hand_with_non_f_dragon_calls() -> None:
    # As written in the spec the tanki Chun completes a shousangen (the concealed part has one
    # Chun); either way no dragon set is F or concealed.
    r = pk("7z567p chi(234m) pon(555z) pon(666z) ron 7z")
    assert invalid(r) and set(r["wait_yaku"]) == {"7z"}
    # the daisangen reading of the seed's "大三元の中付け": all three dragons called after the chi
    assert invalid(pk("5p chi(234m) pon(555z) pon(666z) pon(777z) ron 5p"))


def test_pk_1_e34_chun_ponned_after_the_first_chi() -> None:
    r = pk("567p33s78s chi(234m) pon(777z) ron 9s")
    assert invalid(r) and waits(r) == {"6s": set(), "9s": set()}
    # riichi rules (atozuke allowed): Chun 1 han, a win
    assert score_line("567p33s78s chi(234m) pon(777z) ron 9s seat=S")["agari"] is True


def test_pk_1_e4_whole_hand_honitsu() -> None:
    r = pk("77z56p chi(234p) pon(555z) pon(666z) ron 7p")
    assert r["agari"] is True and waits(r) == {"4p": {"honitsu"}, "7p": {"honitsu"}}


def test_pk_1_e5_whole_hand_chanta() -> None:
    r = pk("77z12p chi(123s) pon(555z) pon(666z) ron 3p")
    assert r["agari"] is True and waits(r) == {"3p": {"chanta"}}


def test_pk_1_e6_concealed_chun_common_to_both_waits() -> None:
    r = pk("777z66z55p chi(234m) pon(555z) ron 5p")
    assert r["agari"] is True and waits(r) == {"5p": {"chun"}, "6z": {"chun"}}
    assert names(r) == {"haku", "chun", "shousangen"} and r["han"] == 4 and r["table_han"] == 6
    assert r["points"] == 8000
    # on Hatsu the daisangen: valid too (Chun is common), scored as a yakuman
    assert pk("777z66z55p chi(234m) pon(555z) ron 6z")["yakuman"] == 1


def test_pk_1_e7_sanankou_certain_suuankou_on_the_high_tile() -> None:
    r = pk("111m444p888s5556m ron 4m")
    assert r["agari"] is True
    assert waits(r)["4m"] == {"sanankou"} and waits(r)["7m"] == {"sanankou"}
    assert {"suuankou", "sanankou"} <= waits(r)["6m"]


def test_pk_1_e8_otakaze_first_honitsu_toitoi() -> None:
    r = pk("66z33p pon(333z) pon(555z) pon(777z) ron 3p")
    assert waits(r) == {"3p": {"honitsu", "toitoi"}, "6z": {"honitsu", "toitoi"}}
    assert r["points"] == 16000


def test_pk_1_e9_shousuushii_certain() -> None:
    r = pk("11z55p pon(222z) pon(333z) pon(444z) ron 5p")
    assert r["agari"] is True
    assert "shousuushii" in waits(r)["5p"] and {"daisuushii", "shousuushii"} <= waits(r)["1z"]
    assert pk("11z55p pon(222z) pon(333z) pon(444z) ron 1z")["agari"] is True  # as daisuushii


def test_pk_1_e10_no_dragon_set_concealed_or_first() -> None:
    r = pk("77z55p chi(234m) pon(555z) pon(666z) ron 7z")
    assert invalid(r) and waits(r) == {"5p": set(), "7z": set()}


def test_pk_1_e11_haku_daiminkan_first() -> None:
    r = pk("66z77z567p minkan(5555z) chi(234m) ron 7z")
    assert r["agari"] is True and "haku" in r["common_yaku"]


def test_pk_1_e12_yakuhai_certain_in_hand() -> None:
    r = pk("777z56p99s chi(234m) pon(666z) ron 7p")
    assert r["agari"] is True and waits(r) == {"4p": {"chun"}, "7p": {"chun"}}


def test_pk_1_e13_yakuhai_first_call_unrelated_to_dragons() -> None:
    r = pk("567p33s78s pon(555z) chi(234m) ron 9s")
    assert r["agari"] is True and waits(r) == {"6s": {"haku"}, "9s": {"haku"}}


def test_pk_14_e14_ryuuiisou_chinitsu_type_without_hatsu() -> None:
    r = pk("234s234s88s34s pon(666s) ron 5s")
    w = waits(r)
    assert set(w) == {"2s", "5s", "8s"} and "ryuuiisou" in w["2s"] and "ryuuiisou" in w["8s"]
    assert "chinitsu" in r["common_yaku"]
    top = pk("234s234s88s34s pon(666s) ron 8s")
    assert "ryuuiisou" in names(top) and top["points"] == 32000  # no Hatsu needed (PK-14)


def test_pk_14_e15_ryuuiisou_honitsu_type() -> None:
    r = pk("234s234s88s34s pon(666z) ron 2s")
    assert {"honitsu", "hatsu"} <= set(r["common_yaku"]) and "ryuuiisou" in names(r)


def test_pk_2_e16_sanshoku_on_one_side_only() -> None:
    r = pk("789m78p234p55m chi(789s) ron 9p")
    assert invalid(r) and waits(r) == {"9p": {"sanshoku"}, "6p": set()}


def test_pk_2_e17_penchan_sanshoku_with_f() -> None:
    assert pk("789m89p234p55m chi(789s) ron 7p")["agari"] is True


def test_pk_2_e18_first_call_unrelated_to_the_sanshoku() -> None:
    r = pk("789m789p6s chi(234p) chi(789s) ron 6s")
    assert invalid(r) and waits(r) == {"6s": set()}


def test_pk_2_e19_otakaze_pon_first() -> None:
    assert invalid(pk("789m789p6s pon(444z) chi(789s) ron 6s"))


def test_pk_2_e20_chanta_or_toitoi_sanshoku_doukou_no_common() -> None:
    r = pk("111m1112s pon(111p) pon(444z) ron 2s")
    assert invalid(r)
    assert {"toitoi", "sanshoku_doukou"} <= waits(r)["2s"] and waits(r)["3s"] == {"chanta"}


def test_pk_2_e21_sanshoku_doukou_certain() -> None:
    r = pk("111m111s78p99m pon(111p) ron 9p")
    assert r["agari"] is True and "sanshoku_doukou" in r["common_yaku"]


def test_pk_2_e35_kanchan_sanshoku_with_f() -> None:
    r = pk("789m79p234p55m chi(789s) ron 8p")
    assert r["agari"] is True and waits(r) == {"8p": {"sanshoku"}}


def test_pk_2_middle_attached_sanshoku_allowed_by_other_kansaki_rules_is_not() -> None:
    # A14: the 789p completed by the winning tile with a two-sided wait is not enough
    assert invalid(pk("789m78p234p55m chi(789s) ron 9p"))


def test_pk_3_no_tsumo_only_wins() -> None:
    # closed, no yaku from the tiles: riichi rules let it win by menzen tsumo, pk does not
    assert score_line("123m456p789s23s11z tsumo 1s seat=S")["agari"] is True
    r = pk("123m456p789s23s11z tsumo 1s")
    assert invalid(r)
    assert pk("123m456p789s23s11z tsumo 1s riichi")["agari"] is True


def test_pk_4_e22_two_dragon_pairs_dama() -> None:
    r = pk("234m567p789s5566z ron 6z")
    assert invalid(r) and waits(r) == {"5z": {"haku"}, "6z": {"hatsu"}}
    assert pk("234m567p789s5566z ron 6z riichi")["common_yaku"] == ["riichi"]


def test_pk_4_e23_pinfu_or_tanyao_no_common() -> None:
    r = pk("2333m456p678s345s ron 4m")
    assert invalid(r)
    assert waits(r) == {"1m": {"pinfu"}, "2m": {"tanyao"}, "4m": {"pinfu", "tanyao"}}


def test_pk_4_e24_irregular_three_sided_iipeikou() -> None:
    r = pk("22m66778899m678s ron 2m")
    assert r["agari"] is True
    assert waits(r) == {"2m": {"iipeikou"}, "6m": {"iipeikou"}, "9m": {"iipeikou"}}


def test_pk_4_e25_nobetan_with_a_dead_end_still_counts() -> None:
    r = pk("123m123p1111234s ron 4s")
    assert invalid(r) and waits(r) == {"1s": set(), "4s": {"sanshoku"}}


def test_pk_4_e26_iipeikou_or_sanshoku_with_a_yakuhai_pair() -> None:
    r = pk("567m567p456s56s55z ron 7s")
    assert invalid(r) and waits(r) == {"4s": {"iipeikou"}, "7s": {"sanshoku"}}


def test_pk_4_e27_pinfu_common_with_a_number_pair() -> None:
    r = pk("567m567p456s56s22m ron 7s")
    assert r["agari"] is True
    assert waits(r) == {"4s": {"iipeikou", "pinfu", "tanyao"}, "7s": {"sanshoku", "pinfu", "tanyao"}}


def test_pk_4_e28_sanankou_certain_tanyao_not() -> None:
    r = pk("222m444p666s7888s ron 9s")
    assert r["agari"] is True and set(r["wait_yaku"]) == {"5s", "6s", "7s", "8s", "9s"}
    for w in ("5s", "6s", "8s"):
        assert waits(r)[w] == {"sanankou", "tanyao"}
    assert waits(r)["9s"] == {"sanankou"}
    assert {"suuankou", "sanankou"} <= waits(r)["7s"]
    assert r["common_yaku"] == ["sanankou"]


def test_pk_4_e29_four_waits_no_common() -> None:
    r = pk("22233344s55567p ron 1s")
    assert invalid(r)
    assert waits(r) == {
        "1s": {"pinfu", "iipeikou"},
        "4s": {"tanyao", "pinfu", "iipeikou"},
        "5p": {"tanyao", "sanankou"},
        "8p": {"tanyao", "sanankou"},
    }


def test_pk_4_e36_iipeikou_formed_by_different_sequences() -> None:
    r = pk("11223344m567p99s ron 9s")
    assert r["agari"] is True
    assert waits(r) == {"1m": {"iipeikou"}, "4m": {"iipeikou"}, "9s": {"iipeikou"}}


def test_pk_4_e37_otakaze_or_terminal_pair_gives_common_pinfu() -> None:
    for pair in ("33z", "99m"):
        r = pk(f"567m567p456s56s{pair} ron 4s")
        assert r["agari"] is True and "pinfu" in r["common_yaku"], pair
        assert waits(r)["4s"] >= {"iipeikou", "pinfu"} and waits(r)["7s"] >= {"sanshoku", "pinfu"}


def test_pk_4_union_over_decompositions_is_the_default() -> None:
    assert find_ruleset("pk").pk.common_mode == "union"  # type: ignore[attr-defined]
    # E24's 2m has two readings (678m ×2 + 99m, or 789m ×2 + 66m), both with iipeikou: valid in
    # either mode; E29 has no common yaku in either mode.
    best = find_ruleset("pk").with_options(pk=dict(common_mode="best"))
    assert pk("22m66778899m678s ron 2m", best)["agari"] is True
    assert invalid(pk("22233344s55567p ron 1s", best))


def test_pk_4_best_mode_keeps_only_the_scored_reading() -> None:
    # 99m + 11222333444s waits 9m, 1s, 4s. On 9m (and 1s) the hand reads 222 333 444s (sanankou +
    # toitoi, scored) or 234s ×3 (iipeikou); on 4s only 123 123 234 444s (iipeikou). Union (A5
    # default): iipeikou is common, valid. "best": 9m keeps only sanankou + toitoi, invalid.
    line = "99m11222333444s ron 4s"
    union = pk(line)
    assert union["agari"] is True and union["common_yaku"] == ["iipeikou"]
    assert {"iipeikou", "sanankou", "toitoi"} <= waits(union)["9m"]
    best = pk(line, find_ruleset("pk").with_options(pk=dict(common_mode="best")))
    assert invalid(best) and waits(best)["9m"] == {"sanankou", "toitoi"} and waits(best)["4s"] == {"iipeikou"}


def test_pk_5_master_test_base_conditions_common_yaku_and_furiten() -> None:
    # (a) base conditions: an incomplete hand is not a win
    assert pk("222m444p666s7888s ron 1s")["reason"] == "not_a_winning_hand"
    # (b) common yaku
    assert invalid(pk("2333m456p678s345s ron 1m"))
    assert pk("222m444p666s7888s ron 5s")["agari"] is True
    # (c) furiten (the table's state; the hand grammar's furiten=yes flag stands for it)
    r = pk("222m444p666s7888s tsumo 5s furiten=yes")
    assert r["agari"] is False and r["reason"] == "furiten"


def test_pk_8_e31_pinfu_tsumo_dealer_1000_all() -> None:
    r = pk("12367m234p567s88p tsumo 5m seat=E")
    assert names(r) == {"pinfu", "menzen_tsumo"} and r["table_han"] == 4
    assert r["payments"] == {"S": -1000, "W": -1000, "N": -1000, "E": 3000}


def test_pk_8_pinfu_is_one_full_han_on_ron() -> None:
    r = pk("12367m234p567s88p ron 5m")
    assert names(r) == {"pinfu"} and r["han"] == 1 and r["points"] == 1000


def test_pk_9_e32_chiitoitsu_two_han_2000() -> None:
    r = pk("1133m5577p99s1122z ron 2z")
    assert names(r) == {"chiitoitsu"} and r["han"] == 2 and r["points"] == 2000


def test_pk_9_chiitoitsu_no_25_fu_logic() -> None:
    # chiitoitsu + 2 dora: riichi rules 6400 (4 han 25 fu); pk 4 + 2 = 6 翻 → 8000
    line = "1133m5577p99s1122z ron 2z dora=8s"
    assert score_line(line + " seat=S")["points"] == 6400
    assert pk(line)["points"] == 8000


def test_pk_10_no_kuitan_even_with_toitoi() -> None:
    r = pk("222m444p6s pon(888s) pon(333m) ron 6s")
    assert "tanyao" not in names(r) and names(r) == {"toitoi"} and r["points"] == 2000
    assert "tanyao" in {y["name"] for y in score_line("222m444p6s pon(888s) pon(333m) ron 6s seat=S")["yaku"]}


def test_pk_10_open_tanyao_only_hand_cannot_win() -> None:
    assert invalid(pk("234567m2267p chi(234s) ron 8p"))  # riichi.md V7 (open tanyao)


def test_pk_10_toitoi_tanyao_only_closed_suuankou_shape_by_ron() -> None:
    r = pk("222m666p888s33s55p ron 5p")
    assert names(r) == {"sanankou", "toitoi", "tanyao"} and r["points"] == 8000  # 5 (+2) = 7 翻


def test_pk_10_kuitan_and_atozuke_are_forced_off() -> None:
    # pk.md §8: base riichi.kuitan and riichi.atozuke are "forced false", not defaults a table may
    # change: with kuitan on, an open all-simples hand would win on tanyao alone (PK-10 forbids it).
    rs = find_ruleset("pk")
    for key in ("kuitan", "atozuke"):
        with pytest.raises(ValueError, match=key):
            rs.with_options(**{key: True})
    assert invalid(pk("234567m2267p chi(234s) ron 8p", rs.with_options(kuitan=False)))  # type: ignore[arg-type]


def test_pk_10_ankan_keeps_the_hand_closed_for_tanyao() -> None:
    r = pk("234m567p66s78s ankan(4444s) ron 9s")  # ron 9s: no tanyao; 6s: tanyao
    assert "tanyao" in waits(r)["6s"]


def test_pk_12_tenhou_needs_every_tile_as_the_last_one() -> None:
    # 2333m456p678s345s + 4m: with 4m as the last tile the 13 are E23 (no common yaku)
    line = "2333m456p678s345s tsumo 4m seat=E tenhou"
    r = pk(line)
    assert r["agari"] is False and r["last_tile_ok"]["4m"] is False and r["last_tile_ok"]["2m"] is True
    lenient = find_ruleset("pk").with_options(pk=dict(tenhou_check="lenient"))
    assert pk(line, lenient)["yaku"] == [{"name": "tenhou", "han": 13}]


def test_pk_12_yakuless_tenhou_shape_cannot_win() -> None:
    line = "123m456p789s333z4z tsumo 4z seat=E tenhou"
    assert score_line(line)["agari"] is True  # riichi: tenhou
    r = pk(line)
    assert r["agari"] is False and not any(r["last_tile_ok"].values())


def test_pk_12_tenhou_and_chiihou_on_a_hand_that_could_ron() -> None:
    r = pk("234m567m234p678s5s tsumo 5s seat=E tenhou")  # tanyao/pinfu whichever tile is last
    assert r["agari"] is True and r["yakuman"] == 1 and all(r["last_tile_ok"].values())
    assert pk("234m567m234p678s5s tsumo 5s seat=S chiihou")["yakuman"] == 1


def test_pk_options_defaults_match_the_spec() -> None:
    rs = find_ruleset("pk")
    assert isinstance(rs, PkRuleset)
    assert rs.pk == PkOptions(
        tenhou_check="strict",
        common_mode="union",
        situational_yaku_qualify=False,
        allow_furiten_riichi=True,
        bazoro=2,
    )
    assert rs.options.kuitan is False and rs.options.atozuke is False
    with pytest.raises(ValueError):
        PkOptions(tenhou_check="sometimes")


def test_pk_analyse_is_a_pure_function_of_the_13_tiles() -> None:
    rs = find_ruleset("pk")
    assert isinstance(rs, PkRuleset)
    spec = parse_hand("222m444p666s7888s ron 5s seat=S")
    c = [0] * 34
    for t in spec.concealed:
        c[t & ~0x40] += 1
    a = analyse(c, (), spec.ctx, rs)
    assert (
        a.valid
        and a.common == {"sanankou"}
        and set(a.waits) == {parse_kind(k) for k in ("5s", "6s", "7s", "8s", "9s")}
    )


def test_pk_4_cached_analysis_cannot_be_changed_by_a_caller() -> None:
    # analyse() is memoised (the AI asks the same hand again and again): the answer every caller
    # shares must be read-only, or one caller could change another's Q(w).
    rs = find_ruleset("pk")
    assert isinstance(rs, PkRuleset)
    spec = parse_hand("2333m456p678s345s ron 1m seat=S")  # E23: no common yaku
    c = [0] * 34
    for t in spec.concealed:
        c[t & ~0x40] += 1
    a = analyse(c, (), spec.ctx, rs)
    with pytest.raises(TypeError):
        a.waits[parse_kind("1m")] = frozenset({"tanyao"})  # type: ignore[index]
    assert not analyse(c, (), spec.ctx, rs).valid


def test_pk_cli_score_command() -> None:
    import json
    import subprocess
    import sys

    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "score",
            "66z33p pon(333z) pon(555z) pon(777z) ron 3p seat=S ruleset=pk",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    r = json.loads(out)
    assert r["agari"] is True and r["points"] == 16000 and r["fu"] == 0 and r["table_han"] == 10
    assert r["common_yaku"] == ["honitsu", "toitoi"]
    text = subprocess.run(
        [sys.executable, "-m", "engine", "score", "567p33s78s chi(234m) pon(777z) ron 6s seat=S ruleset=pk"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "common to every winning tile" in text

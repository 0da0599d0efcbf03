"""The worked examples of riichi.md §15 (V1–V14), through the CLI contract."""

from __future__ import annotations

from engine.scoring import score_line


def s(line: str) -> dict:  # type: ignore[type-arg]
    r = score_line(line)
    assert "error" not in r, r
    return r


def yaku(r: dict) -> set[str]:  # type: ignore[type-arg]
    return {y["name"] for y in r["yaku"]}


def test_r_15_v1_pinfu_tanyao_ron() -> None:
    r = s("22345678m234p56s ron 7s seat=S")
    assert yaku(r) == {"pinfu", "tanyao"} and (r["han"], r["fu"], r["points"]) == (2, 30, 2000)


def test_r_15_v2_tsumo_pinfu_20_fu() -> None:
    r = s("22345678m234p56s tsumo 7s seat=S from=E")
    assert (r["han"], r["fu"], r["points"]) == (3, 20, 2700)
    assert r["payments"] == {"E": -1300, "W": -700, "N": -700, "S": 2700}


def test_r_15_v3_chiitoitsu_25_fu() -> None:
    r = s("1133m5577p99s112z ron 2z seat=S")
    assert yaku(r) == {"chiitoitsu"} and (r["han"], r["fu"], r["points"]) == (2, 25, 1600)


def test_r_15_v3_typed_with_the_winning_tile_included() -> None:
    assert s("1133m5577p99s1122z ron 2z seat=S")["points"] == 1600


def test_r_15_v4_open_yakuhai_fu_rounding() -> None:
    r = s("123m456p789s5s pon(777z) ron 5s seat=S")
    assert yaku(r) == {"chun"} and (r["han"], r["fu"], r["points"]) == (1, 30, 1000)


def test_r_15_v5_kanchan_reading_gives_40_fu() -> None:
    r = s("111m456p1223789s ron 2s seat=S riichi")
    assert yaku(r) == {"riichi"} and (r["fu"], r["points"]) == (40, 1300)


def test_r_15_v6_dealer_mangan_tsumo() -> None:
    r = s("123456m789p55s67s tsumo 8s seat=E riichi dora=4s")
    assert r["han"] == 5 and r["points"] == 12000
    assert r["payments"] == {"S": -4000, "W": -4000, "N": -4000, "E": 12000}


def test_r_15_v7_open_tanyao_20_fu_becomes_30() -> None:
    r = s("234567m2267p chi(234s) ron 8p seat=S")
    assert yaku(r) == {"tanyao"} and (r["fu"], r["points"]) == (30, 1000)


def test_r_15_v8_two_honba_on_ron() -> None:
    r = s("22345678m234p56s ron 7s seat=S honba=2 from=N")
    assert r["payments"]["N"] == -2600 and r["payments"]["S"] == 2600


def test_r_15_v9_one_honba_on_tsumo() -> None:
    r = s("22345678m234p56s tsumo 7s seat=S honba=1")
    assert r["payments"] == {"E": -1400, "W": -800, "N": -800, "S": 3000}


def test_r_15_v10_kiriage_option_off_and_on() -> None:
    line = "234m234p234s67s88p ron 5s seat=S"  # pinfu tanyao sanshoku = 4 han 30 fu
    r = s(line)
    assert (r["han"], r["fu"], r["points"]) == (4, 30, 7700)
    assert s(line.replace("seat=S", "seat=E"))["points"] == 11600
    assert s(line + " ruleset=mleague")["points"] == 8000  # §18: kiriage on


def test_r_15_v11_3_han_70_fu_capped_to_mangan() -> None:
    # 20 + 10 (closed ron) + 32 (North ankan) + 8 (concealed 9m triplet) = 70 fu; riichi + 2 dora
    r = s("999m123p45s77s ankan(4444z) ron 6s seat=S riichi dora=2p3s")
    assert (r["han"], r["fu"]) == (3, 70)
    assert r["points"] == 8000 and r["limit"] == "mangan"


def test_r_15_v12_chiitoitsu_two_dora_6400() -> None:
    r = s("1133m5577p99s112z ron 2z seat=S dora=8s")
    assert (r["han"], r["fu"], r["points"]) == (4, 25, 6400)


def test_r_15_v13_kazoe_yakuman() -> None:
    # riichi 1 + chinitsu 6 + ittsu 2 + four 9m dora = 13 han from ordinary yaku
    r = s("1345556789999m ron 2m seat=S riichi dora=8m")
    assert r["han"] == 13 and r["yakuman"] == 0 and r["limit"] == "kazoe"
    assert r["points"] == 32000
    assert s("1345556789999m ron 2m seat=S riichi dora=8m ruleset=mleague")["points"] == 24000  # §18


def test_r_15_v14_double_ron_stick_and_honba_to_the_first_winner() -> None:
    # Each winner is scored separately; the table gives honba/sticks only to the first.
    south = s("22345678m234p56s ron 7s seat=S from=N honba=1 sticks=1")
    west = s("234m234p234s67s88p ron 5s seat=W from=N dora=1z2z")
    assert south["payments"]["N"] == -2300 and south["payments"]["S"] == 3300
    assert west["points"] == 7700

"""The score sheet's model (engine.sheet): points, honba, sticks, rotation and the game's end, each
case computed by hand from the rules (rule ids of ../shared/rules/riichi.md; V-numbers are its §15
vectors, themselves checked against an independent scorer)."""

from __future__ import annotations

import pytest

from engine.rules import find_ruleset
from engine.sheet import (
    Entry,
    EntryKind,
    Sheet,
    SheetError,
    SheetRefusal,
    SheetState,
    Win,
    score_hand,
    sheet_ready,
)

K = EntryKind


def ron(winner: int, loser: int, han: int, fu: int = 30, *, riichi: tuple[int, ...] = ()) -> Entry:
    return Entry(kind=K.RON, wins=(Win(seat=winner, han=han, fu=fu),), loser=loser, riichi=riichi)


def tsumo(winner: int, han: int, fu: int = 30, *, riichi: tuple[int, ...] = ()) -> Entry:
    return Entry(kind=K.TSUMO, wins=(Win(seat=winner, han=han, fu=fu),), riichi=riichi)


def draw(*tenpai: int, riichi: tuple[int, ...] = ()) -> Entry:
    return Entry(kind=K.DRAW, tenpai=tenpai, riichi=riichi)


def sheet(name: str = "riichi", **opts: object) -> Sheet:
    rs = find_ruleset(name)
    return Sheet(rs.with_options(**opts) if opts else rs)


def at(sh: Sheet, **kw: object) -> SheetState:
    """The start state with some fields set (``dealer``, ``honba``, ``sticks``, ``round_wind``, ``scores``)."""
    from dataclasses import replace

    return replace(sh.start(), **kw)  # type: ignore[arg-type]


def refused(sh: Sheet, state: SheetState, e: Entry) -> SheetRefusal:
    with pytest.raises(SheetError) as err:
        sh.apply(state, e)
    return err.value.reason


# ---------------------------------------------------------------------- points


def test_r10_3_v10_four_han_thirty_fu_ron_non_dealer_and_dealer() -> None:
    sh = sheet()
    # V10: 4 han 30 fu, B = 30 x 2^6 = 1920; non-dealer 4B = 7680 -> 7700, dealer 6B = 11520 -> 11600
    assert sh.apply(sh.start(), ron(1, 2, 4, 30)).deltas == (0, 7700, -7700, 0)
    assert sh.apply(sh.start(), ron(0, 2, 4, 30)).deltas == (11600, 0, -11600, 0)


def test_r10_2_kiriage_rounds_four_thirty_and_three_sixty_up_to_mangan() -> None:
    sh = sheet(kiriage=True)
    assert sh.apply(sh.start(), ron(1, 2, 4, 30)).deltas == (0, 8000, -8000, 0)
    assert sh.apply(sh.start(), ron(1, 2, 3, 60)).deltas == (0, 8000, -8000, 0)
    assert sh.apply(sh.start(), ron(0, 2, 4, 30)).deltas == (12000, 0, -12000, 0)


def test_r10_2_limits_v11_v13() -> None:
    sh = sheet()
    # V11: 3 han 70 fu, B = 70 x 32 = 2240 >= 2000 -> mangan 8000
    o = sh.apply(sh.start(), ron(1, 3, 3, 70))
    assert o.deltas[1] == 8000 and o.wins[0].limit == "mangan"
    # haneman 6-7 han: B 3000 -> 12000; baiman 8: 16000; sanbaiman 11: 24000; yakuman (han:13): 32000
    for han, value in ((6, 12000), (8, 16000), (11, 24000), (13, 32000)):
        assert sh.apply(sh.start(), ron(1, 3, han, 0)).deltas[1] == value, han
    # a double yakuman (26) stacks under riichi's defaults (R-8.2 yakuman_stacking)
    assert sh.apply(sh.start(), ron(1, 3, 26, 0)).deltas[1] == 64000


def test_r8_2_no_double_yakuman_where_the_rules_count_none() -> None:
    sh = sheet("ema")  # yakuman_stacking and double_yakuman off
    assert refused(sh, sh.start(), ron(1, 3, 26, 0)) is SheetRefusal.NO_DOUBLE_YAKUMAN
    assert sh.apply(sh.start(), ron(1, 3, 13, 0)).deltas[1] == 32000


def test_r10_3_tsumo_shares_v2_v9_and_dealer_tsumo() -> None:
    sh = sheet()
    # V2: 3 han 20 fu tsumo, B = 20 x 32 = 640: 700 / 1300 -> non-dealer seat 1 gets 2700
    assert sh.apply(sh.start(), tsumo(1, 3, 20)).deltas == (-1300, 2700, -700, -700)
    # V9: the same with 1 honba: 800 / 1400
    assert sh.apply(at(sh, honba=1), tsumo(1, 3, 20)).deltas == (-1400, 3000, -800, -800)
    # dealer mangan tsumo: 4000 all
    assert sh.apply(sh.start(), tsumo(0, 5)).deltas == (12000, -4000, -4000, -4000)


def test_r10_4_honba_v8_on_a_ron() -> None:
    sh = sheet()
    # V8: 2 han 30 fu (V1, 2000) with 2 honba: the discarder pays 2000 + 600
    assert sh.apply(at(sh, honba=2), ron(1, 2, 2, 30)).deltas == (0, 2600, -2600, 0)


def test_r10_4_honba_value_follows_the_options() -> None:
    sh = sheet("sanma")  # Tenhou sanma: 200 per honba on a ron
    assert sh.apply(at(sh, honba=2), ron(1, 2, 2, 30)).deltas == (0, 2400, -2400)


# ---------------------------------------------------------------------- riichi sticks


def test_r10_5_r11_4_sticks_carry_over_a_draw_and_go_to_the_next_winner() -> None:
    sh = sheet()
    s = sh.start()
    # E1: seat 1 riichi, draw with seats 1 and 2 tenpai: 1500 each from 0 and 3, stick stays
    o = sh.apply(s, draw(1, 2, riichi=(1,)))
    assert o.deltas == (-1500, 500, 1500, -1500) and o.state.sticks == 1
    # the dealer (seat 0) was noten: the deal passes, honba 1
    assert (o.state.dealer, o.state.honba) == (1, 1)
    # E2: seat 3 riichi and wins 1 han 30 fu off seat 2: 1000 + 300 honba + 2 sticks
    o = sh.apply(o.state, ron(3, 2, 1, 30, riichi=(3,)))
    assert o.deltas == (0, 0, -1300, 2300) and o.sticks_taken == 2 and o.state.sticks == 0
    # a non-dealer win: the deal passes and honba go back to 0
    assert (o.state.dealer, o.state.honba) == (2, 0)


def test_r6_7_v14_double_ron_honba_and_sticks_to_the_first_after_the_discarder() -> None:
    sh = sheet()
    s = at(sh, honba=1, sticks=1)
    # V14: S (seat 1, 2 han 30 fu = 2000) and W (seat 2, mangan 8000) on N's (seat 3) discard
    e = Entry(kind=K.RON, wins=(Win(seat=2, han=5), Win(seat=1, han=2, fu=30)), loser=3)
    o = sh.apply(s, e)
    assert o.deltas == (0, 2300 + 1000, 8000, -10300)


def test_r6_7_head_bump_and_triple_ron_as_the_options_say() -> None:
    double = Entry(kind=K.RON, wins=(Win(seat=1, han=1, fu=30), Win(seat=2, han=1, fu=30)), loser=0)
    triple = Entry(kind=K.RON, wins=(Win(seat=1, han=1, fu=30), Win(seat=2, han=1, fu=30), Win(seat=3, han=1, fu=30)), loser=0)
    assert refused(sheet("mleague"), sheet("mleague").start(), double) is SheetRefusal.HEAD_BUMP
    assert refused(sheet(), sheet().start(), triple) is SheetRefusal.NO_TRIPLE_RON
    ema = sheet("ema")  # multi_ron triple: each paid in full
    assert ema.apply(ema.start(), triple).deltas == (-3000, 1000, 1000, 1000)


def test_r5_1_riichi_needs_a_thousand_points() -> None:
    sh = sheet()
    assert refused(sh, at(sh, scores=(25000, 900, 25000, 49100)), draw(1, riichi=(1,))) is SheetRefusal.RIICHI_NO_POINTS


# ---------------------------------------------------------------------- draws


@pytest.mark.parametrize(
    ("tenpai", "deltas"),
    [
        ((), (0, 0, 0, 0)),
        ((2,), (-1000, -1000, 3000, -1000)),
        ((1, 2), (-1500, 1500, 1500, -1500)),
        ((0, 1, 2), (1000, 1000, 1000, -3000)),
        ((0, 1, 2, 3), (0, 0, 0, 0)),
    ],
)
def test_r11_1_noten_payments(tenpai: tuple[int, ...], deltas: tuple[int, ...]) -> None:
    sh = sheet()
    assert sh.apply(sh.start(), draw(*tenpai)).deltas == deltas


def test_r11_1_sanma_noten_total_is_the_options() -> None:
    sh = sheet("sanma")  # noten_total 2000: one tenpai takes 1000 from each of the two others
    assert sh.apply(sh.start(), draw(1)).deltas == (-1000, 2000, -1000)


def test_r2_3_dealer_tenpai_keeps_the_deal_and_adds_a_honba() -> None:
    sh = sheet()
    o = sh.apply(sh.start(), draw(0))
    assert (o.state.dealer, o.state.honba, o.state.round_wind) == (0, 1, 0) and o.renchan


def test_a_riichi_seat_must_be_tenpai_at_the_draw() -> None:
    sh = sheet()
    assert refused(sh, sh.start(), draw(2, riichi=(1,))) is SheetRefusal.RIICHI_NOT_TENPAI


# ---------------------------------------------------------------------- sanma


def test_sanma_tsumo_without_north_share() -> None:
    sh = sheet("sanma")
    # non-dealer mangan tsumo: 4000 from the dealer, 2000 from the other non-dealer; no North
    assert sh.apply(sh.start(), tsumo(1, 5)).deltas == (-4000, 6000, -2000)
    # E3 is the last hand of the East round with three players
    s = sh.start()
    for _ in range(3):
        s = sh.apply(s, draw()).state
    assert (s.round_wind, s.dealer) == (1, 0)


# ---------------------------------------------------------------------- chombo


def test_chombo_mangan_is_paid_and_the_hand_is_played_again() -> None:
    sh = sheet()
    s = at(sh, dealer=1, honba=2, sticks=1)
    o = sh.apply(s, Entry(kind=K.CHOMBO, player=3))
    # a non-dealer's chombo: 4000 to the dealer (seat 1), 2000 to each other non-dealer
    assert o.deltas == (2000, 4000, 2000, -8000)
    assert (o.state.dealer, o.state.honba, o.state.sticks, o.state.hands) == (1, 2, 1, 0)
    # the dealer's chombo: 4000 to each
    assert sh.apply(s, Entry(kind=K.CHOMBO, player=1)).deltas == (4000, -12000, 4000, 4000)


def test_chombo_penalty_comes_off_the_final_result_ema() -> None:
    sh = sheet("ema")
    o = sh.apply(sh.start(), Entry(kind=K.CHOMBO, player=2))
    assert o.deltas == (0, 0, 0, 0)
    f = sh.final(o.state)
    # 30000 each, ties by seat: uma +15/+5/-5/-15, no oka; seat 2 third, -5 - 20 = -25
    assert f.results == (15.0, 5.0, -25.0, -15.0) and f.penalties == (0, 0, 20000, 0)


# ---------------------------------------------------------------------- the game's end (R-2.4 - R-2.6)


def test_r2_1_a_hanchan_ends_after_s4_when_the_deal_passes() -> None:
    sh = sheet()
    s = sh.start()
    for i in range(7):
        s = sh.apply(s, draw(3 if s.dealer != 3 else 2)).state  # the dealer noten: the deal passes
        assert not s.over, i
    assert s.round_name() == "S4"
    s = sh.apply(s, draw(0)).state
    assert s.over


def test_r2_1_tonpuu_ends_after_e4() -> None:
    sh = sheet(hanchan=False)
    s = sh.start()
    for _ in range(4):
        s = sh.apply(s, draw()).state
    assert s.over and s.hands == 4
    assert refused(sh, s, draw()) is SheetRefusal.GAME_OVER


def test_r2_4_bust_ends_the_game_and_exactly_zero_does_not() -> None:
    sh = sheet()
    # a mangan (8000) off seat 2 with 8000 left: exactly 0 goes on; with 7900 left: -100 ends it
    o = sh.apply(at(sh, scores=(25000, 25000, 8000, 42000)), ron(1, 2, 5))
    assert o.state.scores[2] == 0 and not o.state.over
    assert sh.apply(at(sh, scores=(25000, 25100, 7900, 42000)), ron(1, 2, 5)).state.over
    assert not sheet("ema").apply(at(sh, scores=(25000, 25100, 7900, 42000)), ron(1, 2, 5)).state.over  # EMA: no bust


def test_r2_5_agari_yame_only_when_the_dealer_is_alone_on_top() -> None:
    sh = sheet()
    last = at(sh, round_wind=1, dealer=3, scores=(30000, 20000, 20000, 30000))
    assert sh.apply(last, ron(3, 1, 1, 30)).state.over  # dealer 31500, alone on top: ends
    behind = at(sh, round_wind=1, dealer=3, scores=(40000, 20000, 20000, 20000))
    o = sh.apply(behind, ron(3, 1, 1, 30))
    assert not o.state.over and (o.state.dealer, o.state.honba) == (3, 1)
    no_yame = sheet("wrc")  # WRC: no agari-yame, the dealer plays on
    assert not no_yame.apply(last, ron(3, 1, 1, 30)).state.over


def test_r2_6_west_extension_when_nobody_has_the_return_points() -> None:
    sh = sheet("tenhou")
    s = at(sh, round_wind=1, dealer=3)  # 25000 each, below the 30000 return points
    o = sh.apply(s, draw())
    assert not o.state.over and o.state.round_name() == "W1"
    assert sh.apply(o.state, tsumo(0, 5)).state.over  # 37000 >= 30000: sudden death


# ---------------------------------------------------------------------- refusals and the final


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        (ron(1, 1, 2), SheetRefusal.RON_ON_SELF),
        (ron(1, 4, 2), SheetRefusal.NO_SUCH_SEAT),
        (ron(1, 2, 0), SheetRefusal.BAD_HAN),
        (ron(1, 2, 1, 35), SheetRefusal.BAD_FU),
        (ron(1, 2, 1, 20), SheetRefusal.IMPOSSIBLE_HAN_FU),  # a ron has 30 fu or more, or 25 (seven pairs)
        (ron(1, 2, 1, 25), SheetRefusal.IMPOSSIBLE_HAN_FU),  # seven pairs is 2 han
        (tsumo(1, 1, 20), SheetRefusal.IMPOSSIBLE_HAN_FU),  # pinfu tsumo is 2 han
        (tsumo(1, 2, 25), SheetRefusal.IMPOSSIBLE_HAN_FU),  # seven pairs tsumo is 3 han
        (draw(1, 1), SheetRefusal.SEAT_TWICE),
    ],
)
def test_impossible_entries_are_refused_and_change_nothing(entry: Entry, reason: SheetRefusal) -> None:
    sh = sheet()
    s = sh.start()
    assert refused(sh, s, entry) is reason
    assert s == sh.start()


def test_r2_7_r2_9_final_results_with_leftover_sticks() -> None:
    sh = sheet()
    s = at(sh, scores=(40000, 30000, 20000, 9000), sticks=1)
    f = sh.final(s)
    # the stick to first (41000); (x - 30000) / 1000 + uma 20/10/-10/-20, + oka 20 to first
    assert f.scores == (41000, 30000, 20000, 9000)
    assert f.results == (51.0, 10.0, -20.0, -41.0) and f.places == (1, 2, 3, 4)


def test_entries_round_trip_as_json() -> None:
    e = Entry(kind=K.RON, wins=(Win(seat=2, han=5), Win(seat=1, han=2, fu=30)), loser=3, riichi=(1,))
    assert Entry.from_json(e.to_json()) == e
    with pytest.raises(ValueError):
        Entry.from_json({"kind": "ron", "wins": [[1]]})


def test_variants_with_other_hand_end_rules_are_not_for_a_sheet() -> None:
    assert sheet_ready(find_ruleset("riichi")) and sheet_ready(find_ruleset("sanma")) and sheet_ready(find_ruleset("wrc"))
    assert not sheet_ready(find_ruleset("sanma").with_options(tsumo_loss=False))
    for name in ("taiwan16", "chinitsu_toutenkou", "pk"):
        assert not sheet_ready(find_ruleset(name))
        with pytest.raises(SheetError):
            Sheet(find_ruleset(name))


def test_score_hand_v1_v2_and_the_seat_wind_of_the_sheet() -> None:
    rs = find_ruleset("riichi")
    sh = Sheet(rs)
    s = sh.start()
    # V1: pinfu + tanyao 2 han 30 fu by ron; V2 by tsumo: 3 han 20 fu (seat 1 is South, non-dealer)
    assert score_hand(rs, "22345678m234p56s ron 7s", s, 1, tsumo=False) == Win(seat=1, han=2, fu=30)
    assert score_hand(rs, "22345678m234p56s tsumo 7s", s, 1, tsumo=True) == Win(seat=1, han=3, fu=20)
    with pytest.raises(SheetError) as err:
        score_hand(rs, "22345678m234p56s tsumo 7s", s, 1, tsumo=False)
    assert err.value.reason is SheetRefusal.HAND_WRONG_WAY
    with pytest.raises(SheetError) as err:
        score_hand(rs, "123m456p789s1234z ron 5z", s, 1, tsumo=False)
    assert err.value.reason is SheetRefusal.HAND_NOT_A_WIN
    with pytest.raises(SheetError) as err:
        score_hand(rs, "123x ron 1m", s, 1, tsumo=False)
    assert err.value.reason is SheetRefusal.HAND_UNREADABLE


def test_score_hand_agrees_with_the_reference_scorer() -> None:
    """The ``mahjong`` library's han and fu for a hand with a seat-wind pon (South for seat 1)."""
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig
    from mahjong.meld import Meld
    from mahjong.tile import TilesConverter

    rs = find_ruleset("riichi")
    s = Sheet(rs).start()
    got = score_hand(rs, "234m567p2299s pon(222z) ron 9s", s, 1, tsumo=False)
    tiles = TilesConverter.string_to_136_array(man="234", pin="567", sou="22999", honors="222")
    win = TilesConverter.string_to_136_array(sou="9")[0]
    meld = Meld(meld_type=Meld.PON, tiles=TilesConverter.string_to_136_array(honors="222"), opened=True)
    from mahjong.constants import EAST, SOUTH

    ref = HandCalculator().estimate_hand_value(tiles, win, melds=[meld], config=HandConfig(player_wind=SOUTH, round_wind=EAST))
    assert ref.error is None
    assert (got.han, got.fu) == (ref.han, ref.fu)


def test_r12_abortive_draw_no_payment_dealer_repeats_sticks_stay() -> None:
    sh = sheet()
    # four riichi (suucha riichi, R-12.3): each pays a stick, nothing else is paid, the dealer repeats, honba +1
    o = sh.apply(sh.start(), Entry(kind=K.DRAW, abortive=True, riichi=(0, 1, 2, 3)))
    assert o.deltas == (-1000, -1000, -1000, -1000) and o.state.sticks == 4
    assert (o.state.dealer, o.state.honba, o.state.round_wind) == (0, 1, 0) and not o.state.over
    assert Entry.from_json(o.entry.to_json()) == o.entry
    ema = sheet("ema")  # EMA 2016: no abortive draws
    assert refused(ema, ema.start(), Entry(kind=K.DRAW, abortive=True)) is SheetRefusal.NO_ABORTIVE_DRAW


def test_r11_3_nagashi_mangan_paid_as_a_tsumo_mangan_and_no_tenpai_payments() -> None:
    sh = sheet()
    s = at(sh, honba=2, sticks=1)
    # seat 2 (non-dealer): 4000 from the dealer, 2000 from each other, no honba; the tenpai payments are not
    # made, the stick stays, and the dealer (seat 0), tenpai, repeats
    o = sh.apply(s, Entry(kind=K.DRAW, tenpai=(0, 2), nagashi=(2,)))
    assert o.deltas == (-4000, -2000, 8000, -2000) and o.state.sticks == 1
    assert (o.state.dealer, o.state.honba) == (0, 3)
    mleague = sheet("mleague")  # no nagashi mangan
    assert refused(mleague, mleague.start(), Entry(kind=K.DRAW, nagashi=(2,))) is SheetRefusal.NO_NAGASHI

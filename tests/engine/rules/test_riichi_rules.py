"""Base riichi rules (../shared/rules/riichi.md), one or more tests per rule id.

Hand values come from the spec's own tables and worked examples; table behaviour is checked
through the state machine with scripted deals (tests/engine/scripted.py): each test says which
tiles each seat holds and what comes off the wall, then plays the actions the rule is about.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.hand.shanten import calculator
from engine.rules import find_ruleset
from engine.table.actions import Action, ActionType
from engine.table.game import Game, Phase
from engine.table.wall import deal_from_seed, standard_tileset
from engine.tiles import counts_of, dora_of, format_tiles, parse_kind, parse_tiles
from tests.engine.scripted import play, scripted_game
from tests.engine.selfplay import play_random
from tests.engine.test_riichi_spec_vectors import s
from tests.engine.test_riichi_spec_vectors import yaku as names

A = ActionType
RIICHI = find_ruleset("riichi")

# A junk hand (far from tenpai), built by the scripted deal from the tiles nobody else needs.
J0 = J1 = J2 = J3 = None
TANYAO_WAIT_36M = "45m234p567s678s22p"  # ryanmen 3m-6m, tanyao


def idle(g: Game, steps: int = 1) -> None:
    """Play the do-nothing move ``steps`` times: discard the drawn tile, or pass every call."""
    for _ in range(steps):
        if g.over or g.results:
            return
        if g.phase is Phase.TURN:
            seat = g.current
            if g.drawn >= 0:
                g.play(Action(A.DISCARD, seat, g.code(g.drawn)))
            else:
                g.play(next(a for a in g.legal_actions(seat) if a.type is A.DISCARD))
        else:
            for seat in list(g.to_act()):
                g.play(Action(A.PASS, seat))


def _turn(g: Game, seat: int) -> None:
    """Play do-nothing moves until it is ``seat``'s turn."""
    while not (g.phase is Phase.TURN and g.current == seat):
        idle(g)


def idle_until_end(g: Game) -> None:
    for _ in range(1000):
        if g.results:
            return
        idle(g)
    raise AssertionError("hand did not end")


def types(g: Game, seat: int) -> set[ActionType]:
    return {a.type for a in g.legal_actions(seat)}


# ---------------------------------------------------------------------- §1 equipment


def test_r_1_1_136_tiles_four_of_each_kind() -> None:
    ts = standard_tileset()
    kinds = Counter(c & ~0x40 for c in ts.codes)
    assert ts.size == 136 and len(kinds) == 34 and set(kinds.values()) == {4}
    deal = deal_from_seed(ts, 7, 0, players=4, dealer=0)
    assert sorted(deal.all_tiles()) == list(range(136))


def test_r_1_2_one_red_five_per_suit_counts_as_dora_not_yaku() -> None:
    reds = [c for c in standard_tileset().codes if c & 0x40]
    assert sorted(c & ~0x40 for c in reds) == [4, 13, 22]
    plain = s("22345678m234p56s ron 7s seat=S")
    red = s("22340678m234p56s ron 7s seat=S")
    assert red["han"] == plain["han"] + 1 and names(red) - names(plain) <= {"aka_dora", "red_fives", "akadora"}
    # a red five alone is not a yaku
    open_red = s("234m06p99s chi(123s) pon(888m) ron 7p seat=S")
    assert not open_red["agari"] and open_red["reason"] == "no_yaku"


def test_r_1_3_four_players_seat_zero_is_east_in_e1() -> None:
    g = Game(RIICHI, seed=3)
    assert g.players == 4 and g.dealer == 0 and g.round_wind == 0
    assert [g.seat_wind(x) for x in range(4)] == [0, 1, 2, 3]


# ---------------------------------------------------------------------- §2 game structure


def _hands(g: Game) -> list[tuple[int, int, int]]:
    return [(r.round_wind, r.hand_number, r.honba) for r in g.results]


@pytest.mark.parametrize("seed", range(12))
def test_r_2_3_rotation_and_honba_follow_each_hand_result(seed: int) -> None:
    g = play_random(RIICHI, seed, eager=seed % 2 == 0)
    prev = None
    for r in g.results:
        if prev is not None:
            dealer_won = any(w.seat == prev.hand_number for w in prev.wins)
            keeps = dealer_won or (prev.kind in ("exhaustive", "nagashi_mangan") and prev.hand_number in prev.tenpai)
            keeps = keeps or prev.kind not in ("ron", "tsumo", "exhaustive", "nagashi_mangan")
            if keeps:
                assert (r.round_wind, r.hand_number) == (prev.round_wind, prev.hand_number)
            else:
                nxt = (prev.round_wind + (prev.hand_number + 1) // 4, (prev.hand_number + 1) % 4)
                assert (r.round_wind, r.hand_number) == nxt
            won = prev.kind in ("ron", "tsumo")
            assert r.honba == (prev.honba + 1 if (not won or dealer_won) else 0)
        prev = r
    assert all(rw <= 1 for rw, _, _ in _hands(g)), "no West round without the extension (R-2.6)"


def test_r_2_1_east_round_then_south_round() -> None:
    g = play_random(RIICHI, 4, eager=True)
    rounds = [(r.round_wind, r.hand_number) for r in g.results]
    assert rounds[0] == (0, 0) and rounds == sorted(rounds) and {rw for rw, _ in rounds} <= {0, 1}
    short = play_random(find_ruleset("riichi").with_options(hanchan=False), 4, eager=True)
    assert {r.round_wind for r in short.results} == {0}
    # in every hand the dealer is East and the winds follow turn order
    for hand in range(4):
        g.hand_number = hand
        assert [g.seat_wind((hand + k) % 4) for k in range(4)] == [0, 1, 2, 3]


def test_r_2_2_start_and_return_points() -> None:
    g = Game(RIICHI, seed=1)
    assert g.scores == [25000] * 4 and g.opts.return_points == 30000


def test_r_2_4_a_player_below_zero_ends_the_game() -> None:
    # the dealer deals in for 2000 (tanyao pinfu) with 1000 points left: the game ends at once
    g = scripted_game(RIICHI, [J0, TANYAO_WAIT_36M, J2, J3], "3m", scores=[1000, 33000, 33000, 33000])
    play(g, "0d3m", "1h")
    assert g.scores[0] == -1000 and g.over and not g.truncated


def test_r_2_4_exactly_zero_does_not_end_the_game() -> None:
    g = scripted_game(RIICHI, [J0, TANYAO_WAIT_36M, J2, J3], "3m", scores=[2000, 32000, 33000, 33000])
    play(g, "0d3m", "1h")
    assert g.scores[0] == 0 and g.truncated  # the game went on to the next hand


def test_r_2_5_agari_yame_in_all_last_only_when_strictly_first() -> None:
    # S4: seat 3 deals and wins on its first 14 tiles (tenhou)
    g = scripted_game(RIICHI, [J0, J1, J2, "123456m456p789s1z"], "1z", start=(1, 3, 0, 0))
    play(g, "3t")
    assert g.over and not g.truncated and g.final_scores[3] == 25000 + 48000
    # a dealer ron that leaves the dealer second: the game goes on
    g = scripted_game(RIICHI, [J0, J1, J2, TANYAO_WAIT_36M], "?3m", start=(1, 3, 0, 0), scores=[60000, 20000, 10000, 10000])
    idle(g)  # the dealer discards its draw
    while not (g.phase is Phase.CALL and A.RON in types(g, 3)):
        idle(g)
    play(g, "3h")
    assert g.scores[3] < g.scores[0] and g.truncated, "the dealer won but is not first: the game continues"


def test_r_2_5_no_tenpai_yame() -> None:
    # S4, dealer tenpai at the draw: the game goes on (a renchan), with the default options
    g = scripted_game(RIICHI, [J0, J1, J2, TANYAO_WAIT_36M], "?", start=(1, 3, 0, 0), scores=[20000, 20000, 20000, 40000])
    idle_until_end(g)
    assert g.results[-1].kind == "exhaustive" and g.results[-1].tenpai == (3,)
    assert g.truncated


def test_r_2_6_west_extension_off_and_on() -> None:
    g = scripted_game(RIICHI, [J0, J1, J2, J3], start=(1, 3, 0, 0))
    idle_until_end(g)
    assert g.results[-1].kind == "exhaustive" and not g.results[-1].tenpai
    assert g.over and not g.truncated  # nobody has 30000, yet the game ends after S4
    west = RIICHI.with_options(west_extension=True)
    g = scripted_game(west, [J0, J1, J2, J3], start=(1, 3, 0, 0))
    idle_until_end(g)
    assert g.truncated and g.round_wind == 2  # into the West round


def test_r_2_7_final_score_uma_and_oka() -> None:
    g = Game(RIICHI, seed=0)
    g.scores = [40000, 30000, 20000, 10000]
    assert RIICHI.final_results(g, g.ranking()) == (10 + 20 + 20, 0 + 10, -10 - 10, -20 - 20)


def test_r_2_8_ties_rank_by_seat_order_from_the_first_dealer() -> None:
    g = Game(RIICHI, seed=0)
    g.scores = [20000, 30000, 30000, 20000]
    g.hand_number = 2  # whoever deals now, seat 0 was East in E1
    assert g.ranking() == [1, 2, 0, 3]


def test_r_2_9_sticks_left_go_to_first_place() -> None:
    g = Game(RIICHI, seed=0)
    g.scores = [24000, 31000, 22000, 21000]
    g.sticks = 2
    g._finish_game()
    assert g.final_scores == (24000, 33000, 22000, 21000) and g.sticks == 0


# ---------------------------------------------------------------------- §3 wall and dora


def test_r_3_1_dead_wall_is_14_tiles() -> None:
    d = deal_from_seed(standard_tileset(), 11, 0, players=4, dealer=0)
    assert (len(d.rinshan), len(d.dora), len(d.ura)) == (4, 5, 5)


def test_r_3_2_thirteen_each_dealer_draws_first_69_left() -> None:
    g = Game(RIICHI, seed=5)
    assert [len(st.tiles) for st in g.seats] == [14, 13, 13, 13]
    assert g.live_left == 69


def test_r_3_3_each_kan_shortens_the_live_wall_by_one() -> None:
    g = scripted_game(RIICHI, ["111m258p369s1357z", J1, J2, J3], "1m")
    assert g.live_left == 69
    play(g, "0a1m")
    assert g.live_left == 68 and g.rinshan_draw and len(g.seats[0].tiles) == 11


@pytest.mark.parametrize(("ind", "dora"), [("1m", "2m"), ("9m", "1m"), ("9p", "1p"), ("4z", "1z"), ("3z", "4z"), ("5z", "6z"), ("7z", "5z")])
def test_r_3_4_dora_is_the_next_kind_with_wrap_around(ind: str, dora: str) -> None:
    assert dora_of(parse_kind(ind)) == parse_kind(dora)


def test_r_3_4_each_dora_tile_adds_a_han() -> None:
    base = s("22345678m234p56s ron 7s seat=S")
    two = s("22345678m234p56s ron 7s seat=S dora=1m")
    assert two["han"] == base["han"] + 2  # two 2m


def test_r_3_5_ankan_reveals_at_once_daiminkan_after_the_next_discard() -> None:
    g = scripted_game(RIICHI, ["111m258p369s1357z", J1, J2, J3], "1m")
    play(g, "0a1m")
    assert g.dora_revealed == 2
    # daiminkan: seat 1 holds 555z, the dealer discards White
    g = scripted_game(RIICHI, ["147m258p369s1367z", "555z258m369p147s1z", J2, J3], "5z")
    play(g, "0d5z", "1m")
    assert g.dora_revealed == 1 and g.rinshan_draw
    idle(g)  # seat 1 discards
    assert g.dora_revealed == 2


def test_r_3_6_ura_dora_only_for_riichi() -> None:
    plain = s("22345678m234p56s ron 7s seat=S ura=1m")
    riichi = s("22345678m234p56s ron 7s seat=S riichi ura=1m")
    assert "ura_dora" not in names(plain) and {"riichi", "ura_dora"} <= names(riichi)
    assert riichi["han"] == plain["han"] + 1 + 2


def test_r_3_7_dora_never_satisfy_the_yaku_minimum() -> None:
    r = s("234m567p9s chi(123s) pon(888m) ron 9s seat=S dora=7m")
    assert not r["agari"] and r["reason"] == "no_yaku"


# ---------------------------------------------------------------------- §4 turns and calls


def test_r_4_1_draw_then_discard_dealer_starts_with_fourteen() -> None:
    g = Game(RIICHI, seed=9)
    assert g.current == 0 and len(g.seats[0].tiles) == 14 and g.drawn >= 0
    idle(g)  # the dealer discards
    while g.phase is not Phase.TURN:
        idle(g)
    assert g.current == 1 and len(g.seats[1].tiles) == 14


def test_r_4_2_ron_beats_pon_beats_chi() -> None:
    # dealer discards 5p: seat 1 (shimocha) can chi 46p, seat 2 can pon 55p
    hands = ["147m28p9m369s1357z", "46p258m39p147s246z", "55p369m147p28s135z", J3]
    g = scripted_game(RIICHI, hands, "5p")
    play(g, "0d5p")
    assert A.CHI in types(g, 1) and A.PON in types(g, 2)
    chi = next(a for a in g.legal_actions(1) if a.type is A.CHI)
    pon = next(a for a in g.legal_actions(2) if a.type is A.PON)
    g.play(chi)
    g.play(pon)
    assert g.phase is Phase.TURN and g.current == 2 and g.seats[2].melds and not g.seats[1].melds


def test_r_4_2_ron_beats_pon() -> None:
    g = scripted_game(RIICHI, [J0, TANYAO_WAIT_36M, "66m369p147s258s13z", J3], "6m")
    play(g, "0d6m")
    assert A.RON in types(g, 1) and A.PON in types(g, 2)
    g.play(next(a for a in g.legal_actions(2) if a.type is A.PON))
    play(g, "1h")
    assert g.results and g.results[0].kind == "ron" and g.results[0].wins[0].seat == 1


def test_r_4_3_after_a_call_only_a_discard_and_skipped_turns() -> None:
    g = scripted_game(RIICHI, [J0, J1, "66m369p147s258s13z", J3], "6m")
    play(g, "0d6m")
    g.play(next(a for a in g.legal_actions(2) if a.type is A.PON))
    assert g.current == 2 and g.drawn == -1
    assert types(g, 2) == {A.DISCARD}  # no tsumo, kan or riichi
    idle(g)
    while g.phase is not Phase.TURN:
        idle(g)
    assert g.current == 3  # seat 1 lost its turn


def test_r_4_4_kuikae_chi_forbids_the_called_kind_and_the_other_end() -> None:
    # seat 1 holds 56p; the dealer discards 4p; after chi 4p-56p, 4p and 7p may not be discarded
    g = scripted_game(RIICHI, [J0, "56p47p258m39s1246z", J2, J3], "4p")
    play(g, "0d4p")
    chi = next(a for a in g.legal_actions(1) if a.type is A.CHI)
    g.play(chi)
    while g.phase is not Phase.TURN:
        idle(g)
    legal = {a.tile & ~0x40 for a in g.legal_actions(1) if a.type is A.DISCARD}
    assert parse_kind("4p") not in legal and parse_kind("7p") not in legal
    assert parse_kind("2m") in legal


def test_r_4_5_daiminkan_draws_a_replacement_then_discards() -> None:
    g = scripted_game(RIICHI, ["147m258p369s1367z", "555z258m369p147s1z", J2, J3], "5z")
    play(g, "0d5z", "1m")
    assert g.current == 1 and g.rinshan_draw and g.phase is Phase.TURN
    assert A.DISCARD in types(g, 1)


def test_r_4_6_kakan_on_own_turn_not_right_after_the_call() -> None:
    g = scripted_game(RIICHI, [J0, J1, "77p369m14p258s136z", J3], "7p" + "???" + "7p")
    play(g, "0d7p")
    g.play(next(a for a in g.legal_actions(2) if a.type is A.PON))
    assert A.KAKAN not in types(g, 2)
    while not (g.phase is Phase.TURN and g.current == 2 and g.drawn >= 0):
        idle(g)
    assert A.KAKAN in types(g, 2)
    play(g, "2k7p")
    assert g.seats[2].melds[0].type.value == "kakan" and g.rinshan_draw


def test_r_4_7_ankan_on_own_turn_with_a_replacement_draw() -> None:
    g = scripted_game(RIICHI, ["111m258p369s1357z", J1, J2, J3], "1m")
    assert A.ANKAN in types(g, 0)
    play(g, "0a1m")
    assert g.current == 0 and g.rinshan_draw and g.phase is Phase.TURN


def test_r_4_8_no_kan_by_the_haitei_drawer() -> None:
    # seat 1 holds four 1m all hand long and draws the last live tile (the 70th draw)
    g = scripted_game(RIICHI, [J0, "1111m369p147s246z", J2, J3])
    _turn(g, 1)
    assert A.ANKAN in types(g, 1)
    while not (g.live_left == 0 and g.phase is Phase.TURN):
        idle(g)
    assert g.current == 1 and A.ANKAN not in types(g, 1)


def test_r_4_8_at_most_four_kans() -> None:
    g = scripted_game(RIICHI, ["111m258p369s1357z", J1, J2, J3], "1m")
    g.kans = [1, 2, 3, 1]
    assert A.ANKAN not in types(g, 0)


def test_r_4_9_the_last_discard_can_be_ronned_not_called() -> None:
    # the haitei tile 9p is drawn by seat 1 (the 70th draw); seat 2 holds 99p, seat 3 waits on 9p
    g = scripted_game(RIICHI, [J0, "258m136p147s2467z", "99p36m147p258s135z", "9p234m567s345s123p"], live_tail="9p")
    while not (g.live_left == 0 and g.phase is Phase.TURN):
        idle(g)
    assert g.current == 1
    play(g, "1d9p")
    assert A.PON not in types(g, 2)
    assert A.RON in types(g, 3)


def test_r_4_10_exhaustive_draw_when_the_wall_is_empty() -> None:
    g = scripted_game(RIICHI, [J0, J1, J2, J3])
    idle_until_end(g)
    assert g.results[0].kind == "exhaustive" and g.live_left == 0


# ---------------------------------------------------------------------- §5 riichi


def test_r_5_1_riichi_conditions_and_the_stick() -> None:
    g = scripted_game(RIICHI, ["45m234p567s678s22p", J1, J2, J3], "7z")
    assert A.RIICHI in types(g, 0)
    play(g, "0r7z")
    while g.phase is not Phase.TURN:
        idle(g)
    assert g.scores[0] == 24000 and g.sticks == 1
    poor = scripted_game(RIICHI, ["45m234p567s678s22p", J1, J2, J3], "?", scores=[900, 33000, 33000, 33100])
    assert A.RIICHI not in types(poor, 0)


def test_r_5_1_a_ronned_declaration_pays_no_stick() -> None:
    # the dealer declares riichi with 6m; seat 1 rons it
    g = scripted_game(RIICHI, ["45m234p567s678s2p6m", "45m567p345s678s33p", J2, J3], "2p")
    play(g, "0r6m", "1h")
    assert g.sticks == 0 and g.results[0].riichi_deposits == ()
    assert g.results[0].deltas[0] == -2000


def test_r_5_2_after_riichi_only_the_drawn_tile() -> None:
    g = scripted_game(RIICHI, ["45m234p567s678s22p", J1, J2, J3], "7z????")
    play(g, "0r7z")
    _turn(g, 0)
    assert {a for a in g.legal_actions(0) if a.type is A.DISCARD} == {Action(A.DISCARD, 0, g.code(g.drawn))}


def test_r_5_3_ankan_after_riichi_only_when_waits_do_not_change() -> None:
    # 111m + tanki 5z: the drawn 4th 1m may be a kan (waits stay 5z)
    g = scripted_game(RIICHI, ["111m234p567s789s5z", J1, J2, J3], "7z???1m")
    play(g, "0r7z")
    _turn(g, 0)
    assert A.ANKAN in types(g, 0)
    # 3335m waits 4m and 5m: a kan of 3m would leave only 5m, so it is refused
    g = scripted_game(RIICHI, ["3335m234p567s789s", J1, J2, J3], "7z???3m")
    play(g, "0r7z")
    _turn(g, 0)
    assert A.ANKAN not in types(g, 0)


def test_r_5_4_ippatsu_on_a_win_before_the_next_draw() -> None:
    g = scripted_game(RIICHI, [J0, "45m234p567s678s2p7z", J2, J3], "9m2p9m9m6m")
    idle(g)  # dealer discards 9m
    while g.current != 1 or g.phase is not Phase.TURN:
        idle(g)
    play(g, "1r7z")
    while not g.results and not (g.phase is Phase.CALL and A.RON in types(g, 1)):
        idle(g)
    assert g.last_discarder == 0
    play(g, "1h")
    assert "ippatsu" in {y.name for y in g.results[0].wins[0].score.yaku}


def test_r_5_4_a_call_in_between_cancels_ippatsu() -> None:
    g = scripted_game(RIICHI, [J0, "45m234p567s678s2p7z", J2, "99m147p258s13567z"], "9m2p9m6m")
    idle(g)  # dealer discards 9m (seat 3 passes the pon)
    while g.current != 1 or g.phase is not Phase.TURN:
        idle(g)
    play(g, "1r7z")
    _turn(g, 2)
    play(g, "2d9m")
    g.play(next(a for a in g.legal_actions(3) if a.type is A.PON))
    while not g.results and not (g.phase is Phase.CALL and A.RON in types(g, 1)):
        idle(g)
    play(g, "1h")
    yaku = {y.name for y in g.results[0].wins[0].score.yaku}
    assert "double_riichi" in yaku and "ippatsu" not in yaku


def test_r_5_5_double_riichi_on_the_first_discard() -> None:
    g = scripted_game(RIICHI, ["45m234p567s678s2p7z", J1, J2, J3], "2p6m")
    play(g, "0r7z")
    while not (g.phase is Phase.CALL and A.RON in types(g, 0)) and not g.results:
        idle(g)
    play(g, "0h")
    yaku = {y.name for y in g.results[0].wins[0].score.yaku}
    assert "double_riichi" in yaku and "riichi" not in yaku


def test_r_5_6_furiten_riichi_is_allowed_and_passing_makes_it_permanent() -> None:
    # the dealer has already discarded 6m, one of its waits: riichi is still offered
    g = scripted_game(RIICHI, ["45m234p567s678s2p6m", J1, J2, J3], "2p???")
    play(g, "0d6m")
    _turn(g, 0)
    assert A.RIICHI in types(g, 0)


# ---------------------------------------------------------------------- §6 winning


def test_r_6_1_complete_hand_shapes() -> None:
    calc = calculator(4, 4)
    assert calc.is_agari(counts_of(parse_tiles("123m456p789s11122z"), 34))
    assert calc.is_agari(counts_of(parse_tiles("1133m5577p99s1122z"), 34))
    assert not calc.is_agari(counts_of(parse_tiles("1111m5577p99s1122z"), 34)), "four of a kind are not two pairs"
    assert calc.is_agari(counts_of(parse_tiles("19m19p19s12345677z"), 34))


def test_r_6_2_a_win_needs_a_yaku() -> None:
    # seat 1: complete by shape on 6m but open and yakuless
    r = s("45m234p99s chi(123s) pon(888m) ron 6m seat=S")
    assert not r["agari"] and r["reason"] == "no_yaku"


def test_r_6_3_waits_include_kinds_held_four_times_but_not_for_the_draw() -> None:
    g = scripted_game(RIICHI, [J0, "1111m234p567s789s", J2, J3])
    # by shape the hand waits on a fifth 1m; it can never come, so at the draw it is noten
    assert calculator(4, 4).waits(g.seats[1].counts) == [parse_kind("1m")]
    assert not RIICHI.tenpai_at_draw(g, 1)


def test_r_6_4_permanent_furiten_blocks_ron_not_tsumo() -> None:
    # seat 1 discards 6m (one of its waits) then may not ron 3m, but may tsumo it
    g = scripted_game(RIICHI, [J0, "45m234p567s678s2p6m", "3m369m147p258s135z", J3], "?2p???3m")
    idle(g)
    _turn(g, 1)
    play(g, "1d6m")
    _turn(g, 2)
    play(g, "2d3m")
    assert A.RON not in types(g, 1)
    while not (g.phase is Phase.TURN and g.current == 1) and not g.results:
        idle(g)
    assert A.TSUMO in types(g, 1)


def test_r_6_4_temporary_furiten_lasts_until_own_discard() -> None:
    g = scripted_game(RIICHI, [J0, TANYAO_WAIT_36M, "3m369m147p258s135z", "6m147m258p369s246z"], "6m")
    play(g, "0d6m")
    assert A.RON in types(g, 1)
    play(g, "1x")
    # seat 1 draws and discards; seat 2 is skipped in this check, seat 2's 3m comes next
    idle(g)  # seat 1 discards its draw: temporary furiten over
    _turn(g, 2)
    play(g, "2d3m")
    assert A.RON in types(g, 1)


def test_r_6_4_temporary_furiten_blocks_ron_in_the_same_go_around() -> None:
    g = scripted_game(RIICHI, ["6m147m258p369s246z", TANYAO_WAIT_36M, J2, J3], "?")
    play(g, "0d6m")
    play(g, "1x")
    assert g.seats[1].furiten_temp
    assert not RIICHI.can_ron(g, 1, g.seats[0].river[-1], 0)


def test_r_6_4_riichi_furiten_lasts_the_hand() -> None:
    g = scripted_game(RIICHI, [J0, "45m234p567s678s2p7z", "3m369m147p258s135z", J3], "?2p?")
    idle(g)
    _turn(g, 1)
    play(g, "1r7z")
    _turn(g, 2)
    play(g, "2d3m", "1x")
    assert g.seats[1].furiten_riichi
    idle(g, 8)
    assert g.seats[1].furiten_riichi and RIICHI.furiten(g, 1)


def test_r_6_5_atozuke_and_kuitan_are_allowed() -> None:
    atozuke = s("123m456p55z66s chi(789s) ron 5z seat=S")
    assert atozuke["agari"] and names(atozuke) == {"haku"}
    kuitan = s("234567m2267p chi(234s) ron 8p seat=S")
    assert kuitan["agari"] and names(kuitan) == {"tanyao"}


def test_r_6_6_chankan_on_an_added_kan() -> None:
    g = scripted_game(RIICHI, [J0, J1, "77p369m14p258s136z", "56p234m567s22z345s"], "7p" + "???" + "7p")
    play(g, "0d7p")
    g.play(next(a for a in g.legal_actions(2) if a.type is A.PON))
    while not (g.phase is Phase.TURN and g.current == 2 and g.drawn >= 0):
        idle(g)
    play(g, "2k7p")
    assert g.phase is Phase.CHANKAN and A.RON in types(g, 3)
    play(g, "3h")
    assert "chankan" in {y.name for y in g.results[0].wins[0].score.yaku}


def test_r_6_6_an_ankan_is_robbed_only_by_kokushi() -> None:
    g = scripted_game(RIICHI, ["111m258p369s2467z", J1, J2, "9m19p19s12345677z"], "1m")
    play(g, "0a1m")
    assert g.phase is Phase.CHANKAN and A.RON in types(g, 3)
    g = scripted_game(RIICHI, ["0555p147m369s123z", J1, J2, "46p234m678s345s88s"], "?")
    play(g, "0a5p")
    assert g.phase is Phase.TURN  # a plain 5z wait may not rob an ankan


def test_r_6_6_passing_a_chankan_is_temporary_furiten() -> None:
    g = scripted_game(RIICHI, [J0, J1, "77p369m14p258s136z", "56p234m567s22z345s"], "7p" + "???" + "7p")
    play(g, "0d7p")
    g.play(next(a for a in g.legal_actions(2) if a.type is A.PON))
    while not (g.phase is Phase.TURN and g.current == 2 and g.drawn >= 0):
        idle(g)
    play(g, "2k7p", "3x")
    assert g.seats[3].furiten_temp


def test_r_6_7_double_ron_sticks_and_honba_to_the_first_after_the_discarder() -> None:
    g = scripted_game(RIICHI, [J0, TANYAO_WAIT_36M, "45m234p567s678s33p", J3], "6m", start=(0, 0, 1, 1), scores=[25000, 25000, 25000, 24000])
    play(g, "0d6m", "1h", "2h")
    r = g.results[0]
    assert [w.seat for w in r.wins] == [1, 2]
    assert r.deltas[1] == 2000 + 300 + 1000 and r.deltas[2] == 2000


def _pon(g: Game, seat: int) -> None:
    g.play(next(a for a in g.legal_actions(seat) if a.type is A.PON))
    for other in list(g.to_act()):
        if other != seat:
            g.play(Action(A.PASS, other))


PAO_HANDS = ["5z147m258p369s234z", "55z66z77z234m9p128s", "6z9p147m258p369s13z", "7z147m258p369s124z"]


def _three_dragon_pons(g: Game) -> None:
    """Seat 1 pons White from seat 0, Green from seat 2, then Red from seat 3 (the liable one),
    and is left waiting on 9p."""
    play(g, "0d5z")
    _pon(g, 1)
    play(g, "1d1s")
    _turn(g, 2)
    play(g, "2d6z")
    _pon(g, 1)
    play(g, "1d2s")
    _turn(g, 3)
    play(g, "3d7z")
    _pon(g, 1)
    play(g, "1d8s")


def test_r_6_8_pao_for_daisangen_on_ron_from_a_third_player() -> None:
    # seat 1 pons White (seat 0), Green (seat 2), then Red from seat 3, who becomes liable;
    # it then rons seat 2's 9p: seat 3 and seat 2 each pay half of the yakuman
    g = scripted_game(RIICHI, PAO_HANDS, "?")
    _three_dragon_pons(g)
    _turn(g, 2)
    play(g, "2d9p", "1h")
    r = g.results[0]
    assert r.wins[0].pao_seat == 3
    assert r.deltas[3] == -16000 and r.deltas[2] == -16000 and r.deltas[1] == 32000


def test_r_6_8_pao_pays_everything_on_tsumo() -> None:
    g = scripted_game(RIICHI, PAO_HANDS, "?" * 7 + "9p")
    _three_dragon_pons(g)
    _turn(g, 1)
    assert A.TSUMO in types(g, 1)
    play(g, "1t")
    r = g.results[0]
    assert r.wins[0].pao_seat == 3 and r.deltas[3] == -32000 and r.deltas[1] == 32000


# ---------------------------------------------------------------------- §8 yakuman


def test_r_8_1_a_yakuman_ignores_ordinary_yaku_and_dora() -> None:
    # suuankou by tsumo with riichi and dora: only the yakuman is scored
    r = s("111m999p111s99s11z tsumo 1z seat=S dora=8m riichi")
    assert r["yakuman"] == 1 and [y["name"] for y in r["yaku"]] == ["suuankou"] and r["points"] == 32000


def test_r_8_3_kazoe_yakuman_and_the_sanbaiman_option() -> None:
    # riichi 1 + chinitsu 6 + ryanpeikou 3 + tanyao 1 + pinfu 1 + dora 2 = 14 han
    line = "22334455667788p ron 8p seat=S riichi dora=1p"
    r = s(line)
    assert r["han"] >= 13 and r["points"] == 32000 and r["limit"] == "kazoe"
    sanbaiman = find_ruleset("mleague")  # alternative: 13+ han is sanbaiman (§18 preset)
    from engine.notation import parse_hand

    res = sanbaiman.score(parse_hand(line))
    assert res.points == 24000


# ---------------------------------------------------------------------- §9 fu


def test_r_9_1_to_9_3_base_menzen_ron_and_tsumo_fu() -> None:
    # closed ron with a kanchan 40 fu (20 + 10 + 2 wait + 8 concealed 111m = 40)
    assert s("111m456p1223789s ron 2s seat=S riichi")["fu"] == 40
    # the same hand by tsumo: 20 + 2 tsumo + 2 wait + 8 = 32 → 40
    assert s("111m456p1223789s tsumo 2s seat=S riichi")["fu"] == 40


def test_r_9_2_menzen_kafu_only_for_closed_ron() -> None:
    closed = s("123m456p789s1z pon(555z) ron 1z seat=S")  # open: 20 + 4 (555z open) + 2 tanki = 26 → 30
    assert closed["fu"] == 30


def test_r_9_3_rinshan_tsumo_keeps_its_two_fu() -> None:
    r = s("234m567p2s ankan(8888m) pon(555z) tsumo 2s seat=S rinshan")
    # 20 + 2 tsumo + 16 (ankan of simples) + 4 (open haku) + 2 tanki = 44 → 50
    assert r["fu"] == 50


def test_r_9_4_set_fu_table() -> None:
    # open triplet of simples 2, of terminals 4; concealed 4/8; open quad 8/16; concealed quad 16/32
    # closed ron, ankan of 9m (32), dragon tanki pair (2 + 2): 20 + 10 + 32 + 4 = 66 → 70
    assert s("123m456p789s5z ankan(9999m) ron 5z seat=S riichi")["fu"] == 70
    # open: pon of 2s (2) + pon of 9p (4) + open quads of 3m and 4p (8 + 8) + tanki 8s (2): 44 → 50
    assert s("8s pon(222s) pon(999p) minkan(3333m) minkan(4444p) ron 8s seat=S")["fu"] == 50
    # the same with an open quad of 9p instead of the pon: 20 + 2 + 16 + 8 + 8 + 2 = 56 → 60
    assert s("8s pon(222s) minkan(9999p) minkan(3333m) minkan(4444p) ron 8s seat=S")["fu"] == 60


def test_r_9_5_double_wind_pair_is_four_fu() -> None:
    r = s("123m456p789s234s1z ron 1z seat=E round=E riichi")
    # 20 + 10 + 4 (double East pair) + 2 tanki = 36 → 40
    assert r["fu"] == 40


def test_r_9_6_the_best_wait_reading_is_used() -> None:
    # 23 4 on 4 — ryanmen or tanki readings: 12344m won on 4m can be 123 + 44 tanki (+2)
    r = s("1234m456p789s123s ron 4m seat=S riichi")
    assert r["fu"] == 40  # tanki reading 20+10+2 = 32 → 40 beats ryanmen 30


def test_r_9_7_rounding_up_to_ten() -> None:
    assert s("123m456p789s5s pon(777z) ron 5s seat=S")["fu"] == 30  # V4: 26 → 30


def test_r_9_8_special_fu_cases() -> None:
    assert s("1133m5577p99s112z ron 2z seat=S")["fu"] == 25
    assert s("22345678m234p56s tsumo 7s seat=S")["fu"] == 20
    assert s("22345678m234p56s ron 7s seat=S")["fu"] == 30
    assert s("234567m2267p chi(234s) ron 8p seat=S")["fu"] == 30


# ---------------------------------------------------------------------- §10 points


def test_r_10_1_base_points_from_fu_and_han() -> None:
    # 1 han 30 fu: B = 30 * 2^3 = 240 → non-dealer ron 4B = 960 → 1000
    assert s("123m456p789s5s pon(777z) ron 5s seat=S")["points"] == 1000


def test_r_10_2_limits_and_no_kiriage() -> None:
    # V10: 4 han 30 fu stays 7700 (non-dealer ron) without kiriage
    r = s("22345678m234p56s ron 7s seat=S riichi dora=1p")
    assert (r["han"], r["fu"], r["points"]) == (4, 30, 7700)
    r = s("22345678m234p56s ron 7s seat=S riichi dora=1m")  # riichi pinfu tanyao + 2 dora = 5 han
    assert r["points"] == 8000 and r["limit"] == "mangan"


def test_r_10_3_payments_round_up_to_hundreds() -> None:
    r = s("22345678m234p56s tsumo 7s seat=S from=E")
    assert r["payments"] == {"E": -1300, "W": -700, "N": -700, "S": 2700}


def test_r_10_4_honba() -> None:
    assert s("22345678m234p56s ron 7s seat=S honba=2")["payments"]["S"] == 2600


def test_r_10_5_the_winner_collects_the_sticks() -> None:
    g = scripted_game(RIICHI, [J0, TANYAO_WAIT_36M, J2, J3], "6m", start=(0, 0, 0, 2), scores=[25000, 25000, 24000, 24000])
    play(g, "0d6m", "1h")
    assert g.results[0].deltas[1] == 2000 + 2000 and g.sticks == 0


# ---------------------------------------------------------------------- §11 exhaustive draw


def test_r_11_1_tenpai_payments() -> None:
    g = scripted_game(RIICHI, [TANYAO_WAIT_36M, J1, J2, J3])
    idle_until_end(g)
    assert g.results[0].tenpai == (0,) and g.results[0].deltas == (3000, -1000, -1000, -1000)
    g = scripted_game(RIICHI, [TANYAO_WAIT_36M, "45m234p567s678s33p", J2, J3])
    idle_until_end(g)
    assert g.results[0].deltas == (1500, 1500, -1500, -1500)


def test_r_11_2_formal_tenpai_counts_without_a_yaku() -> None:
    g = scripted_game(RIICHI, ["45m234p567s789s11z", J1, J2, J3])  # yakuless closed tenpai
    idle_until_end(g)
    assert 0 in g.results[0].tenpai


def test_r_11_3_nagashi_mangan() -> None:
    # seat 1 draws (and discards) only terminals and honours; nobody calls; the others discard simples
    codes = standard_tileset().codes
    simples = sorted(c for c in codes if (c & ~0x40) < 27 and (c & ~0x40) % 9 not in (0, 8))
    yaochu = sorted(c for c in codes if (c & ~0x40) >= 27 or (c & ~0x40) % 9 in (0, 8))
    hands = [simples[0:13], yaochu[0:13], simples[13:26], simples[26:32] + yaochu[13:20]]
    free_s, free_y = simples[32:], yaochu[20:]
    draws = [free_y.pop(0) if i % 4 == 1 else free_s.pop(0) for i in range(70)]
    g = scripted_game(RIICHI, [format_tiles(h) for h in hands], format_tiles(draws))
    idle_until_end(g)
    r = g.results[0]
    assert r.kind == "nagashi_mangan"
    assert r.deltas == (-4000, 8000, -2000, -2000)
    assert g.honba == 1


def test_r_11_4_sticks_stay_after_a_draw() -> None:
    g = scripted_game(RIICHI, [J0, J1, J2, J3], start=(0, 0, 0, 1), scores=[25000, 25000, 25000, 24000])
    idle_until_end(g)
    assert g.sticks == 1 and g.honba == 1


# ---------------------------------------------------------------------- §12 abortive draws


def test_r_12_1_kyuushu_kyuuhai() -> None:
    g = scripted_game(RIICHI, ["19m19p19s1234z258m", J1, J2, J3], "5z")
    assert A.KYUUSHU in types(g, 0)
    play(g, "0y")
    assert g.results[0].kind == "kyuushu_kyuuhai" and g.honba == 1 and g.dealer == 0


def test_r_12_2_suufon_renda() -> None:
    hands = ["1z147m258p369s357z", "1z258m369p147s467z", "1z369m147p258s356z", "1z147m258p369s267z"]
    g = scripted_game(RIICHI, hands, "9p")
    play(g, "0d1z")
    for seat in (1, 2, 3):
        while not (g.phase is Phase.TURN and g.current == seat):
            idle(g)
        play(g, f"{seat}d1z")
    while not g.results:
        idle(g)
    assert g.results[0].kind == "suufon_renda" and g.results[0].deltas == (0, 0, 0, 0)


def test_r_5_7_four_riichi_end_the_hand() -> None:
    test_r_12_3_suucha_riichi()


def test_r_12_3_suucha_riichi() -> None:
    hands = ["45m234p567s678s22p", "78m567p234s345s99s", "23m678p111s789p99p", "67m345p456s999m77z"]
    g = scripted_game(RIICHI, hands, "1z2z3z4z")
    for seat, wind in zip(range(4), "1234", strict=True):
        while not (g.phase is Phase.TURN and g.current == seat):
            idle(g)
        play(g, f"{seat}r{wind}z")
    while not g.results:
        idle(g)
    r = g.results[0]
    assert r.kind == "suucha_riichi" and r.riichi_deposits == (0, 1, 2, 3)
    assert g.sticks == 4 and g.honba == 1


def test_r_12_4_suukaikan() -> None:
    g = scripted_game(RIICHI, ["1111m2222m3333m9p", "4444m258p369s246z", J2, J3], "9s", rinshan="5p6p7p8p")
    play(g, "0a1m", "0a2m", "0a3m")
    idle(g)  # the dealer discards
    _turn(g, 1)
    play(g, "1a4m")
    assert not g.results
    idle(g)  # seat 1 discards after its replacement draw
    while not g.results:
        idle(g)
    assert g.results[0].kind == "suukaikan" and g.results[0].deltas == (0, 0, 0, 0)


def test_r_12_4_four_kans_by_one_player_do_not_abort() -> None:
    g = scripted_game(RIICHI, ["1111m2222m3333m9p", J1, J2, J3], "????4m", rinshan="4m4m4m5p")
    play(g, "0a1m", "0a2m", "0a3m", "0d9p")
    _turn(g, 0)
    play(g, "0a4m")
    assert len(g.kans) == 4
    idle(g, 8)
    assert not g.results


def test_r_12_5_sanchahou() -> None:
    g = scripted_game(RIICHI, [J0, TANYAO_WAIT_36M, "45m567p345s678s33p", "45m456p234s789p99s"], "6m")
    play(g, "0d6m", "1h", "2h", "3h")
    assert g.results[0].kind == "sanchahou" and g.results[0].deltas == (0, 0, 0, 0) and g.honba == 1

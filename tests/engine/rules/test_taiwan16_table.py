"""taiwan16 through the table state machine (rules/taiwan16.md TW-1…TW-14): scripted deals with
flowers, the special wins (七搶一, 八仙過海, 配牌花胡, 天胡, 地胡, 全求人, 平胡), declared tenpai (地聴,
天聴, after a call, kongs after it), furiten, the reserve and the last tile (haitei_pass), dealer
rotation over several hands, saving/reloading and copying a game under non-default options, and
random self-play."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Sequence

import pytest

from engine.rules import find_ruleset
from engine.rules.taiwan16 import Taiwan16
from engine.rules.taiwan16.table import build_deal, hand_dice, taiwan_tileset
from engine.table.actions import CALL_TYPES, Action, ActionType
from engine.table.game import Game, IllegalActionError, Phase
from engine.tiles import parse_tiles
from tests.engine.selfplay import all_tiles, check_copy_isolated, check_invariants, check_reload, play_random

A = ActionType
RS: Taiwan16 = find_ruleset("taiwan16")  # type: ignore[assignment]


# ---------------------------------------------------------------------- scripted walls


def wall_for(
    hands: Sequence[str], draws: str = "", tail: str = "", *, dealer: int = 0, flowers: bool = True
) -> list[int]:
    """A wall (physical ids, in draw order) dealing ``hands[s]`` (16 tiles, flowers allowed) to
    each seat, then the dealer's 17th and the later normal draws from ``draws``, with the tail
    (replacement draws, first one last in the wall) ``tail``. Every other tile fills the middle,
    flowers in the very middle so that short scripts never meet one."""
    codes = taiwan_tileset(flowers).codes
    free: dict[int, list[int]] = {}
    for i, c in enumerate(codes):
        free.setdefault(c, []).append(i)

    def take(text: str) -> list[int]:
        return [free[c].pop(0) for c in parse_tiles(text)] if text else []

    hand_ids = [take(h) for h in hands]
    assert all(len(h) == 16 for h in hand_ids), [len(h) for h in hand_ids]
    draw_ids = take(draws)
    tail_ids = take(tail)
    rest = [i for c in sorted(free) if c < 34 for i in free[c]]
    fl = [i for c in sorted(free) if c >= 34 for i in free[c]]
    middle = rest[: len(rest) // 2] + fl + rest[len(rest) // 2 :]
    wall: list[int] = []
    for r in range(4):
        for k in range(4):
            s = (dealer + k) % 4
            wall.extend(hand_ids[s][4 * r : 4 * r + 4])
    return wall + draw_ids + middle + tail_ids[::-1]


def scripted(hands: Sequence[str], draws: str = "", tail: str = "", *, rs: Taiwan16 = RS) -> Game:
    codes = taiwan_tileset(rs.tw.flowers).codes
    deal = build_deal(wall_for(hands, draws, tail, flowers=rs.tw.flowers), codes, dealer=0)
    return Game(rs, seed=7, deals=[deal])


def run(g: Game, script: str) -> None:
    """Play actions in text form; seats with an open call window that the script does not name
    next pass."""
    for tok in script.split():
        a = Action.parse(tok)
        while g.phase in (Phase.CALL, Phase.CHANKAN) and not (a.type in CALL_TYPES and a.seat in g.to_act()):
            g.play(Action(A.PASS, g.to_act()[0]))
        g.play(a)
    while not g.over and g.phase in (Phase.CALL, Phase.CHANKAN):
        g.play(Action(A.PASS, g.to_act()[0]))


# Four junk hands far from tenpai (J3 keeps two copies of most number tiles free) and a
# waiting hand (example 1 of the spec: 2s/5s two-sided).
J0 = "1m4m7m1p4p7p1s4s7s1z2z3z4z5z6z7z"
J1 = "2m5m8m2p5p8p2s5s8s1z2z3z4z5z6z7z"
J2 = "3m6m9m3p6p9p3s6s9s1z2z3z4z5z6z7z"
J3 = "1m2m4m5m7m8m2p3p5p6p8p9p1s3s6s9s"
W = "123456m234p567s88p34s"


def flowers_of(g: Game, seat: int) -> list[int]:
    return sorted(g.code(t) for t in g.seats[seat].kita)


def last_win(g: Game) -> tuple[int, dict[str, int], tuple[int, ...]]:
    r = g.results[-1]
    w = r.wins[0]
    ids: Counter[str] = Counter()
    for i in w.score.details["tai_items"]:
        ids[i["id"]] += i["tai"]
    return w.seat, dict(ids), r.deltas


# ---------------------------------------------------------------------- TW-1, TW-4…TW-7: wall, deal, flowers


def test_tw_1_the_wall_has_144_tiles_with_eight_flowers() -> None:
    ts = taiwan_tileset()
    assert ts.size == 144
    assert Counter(c for c in ts.codes if c >= 34) == Counter(range(34, 42))
    assert all(c < 0x40 for c in ts.codes)  # no red fives
    assert taiwan_tileset(flowers=False).size == 136
    g = Game(RS, seed=3)
    assert sorted(all_tiles(g)) == list(range(144))
    g = Game(RS.with_options(tw=dict(flowers=False)), seed=3)
    assert sorted(all_tiles(g)) == list(range(136))


def test_tw_6_dealer_holds_17_others_16() -> None:
    for seed in range(5):
        g = Game(RS, seed=seed)
        assert len(g.seats[g.dealer].tiles) == 17
        assert all(len(g.seats[s].tiles) == 16 for s in range(4) if s != g.dealer)


def test_tw_7_flowers_in_the_deal_are_exposed_and_replaced_from_the_tail_dealer_first() -> None:
    hands = ["1f2f1m4m7m1p4p7p1s4s7s1z2z3z4z5z", J1, "3f3m6m9m3p6p9p3s6s9s1z2z3z4z5z6z", J3]
    # tail: the dealer's two replacements (8m, 8p), then seat 2's: 4f (a flower again), then 7s
    g = scripted(hands, draws="9m", tail="8m8p4f7s")
    assert flowers_of(g, 0) == [34, 35]
    assert flowers_of(g, 2) == [36, 37]
    assert [g.code(t) for t in g.seats[0].tiles].count(7) == 1  # 8m reached the dealer
    assert 24 in [g.code(t) for t in g.seats[2].tiles]  # 7s replaced the 4f
    assert all(g.code(t) < 34 for st in g.seats for t in st.tiles)
    assert len(g.seats[0].tiles) == 17 and len(g.seats[2].tiles) == 16
    assert sorted(all_tiles(g)) == list(range(144))


def test_tw_7_a_drawn_flower_is_exposed_and_replaced_during_play() -> None:
    g = scripted([J0, J1, J2, J3], draws="9m" + "1f", tail="5s")
    run(g, "0d9m")  # seat 1 draws 1f, exposes it, takes 5s from the tail
    assert flowers_of(g, 1) == [34]
    assert g.code(g.drawn) == 22 and g.rinshan_draw
    assert sorted(all_tiles(g)) == list(range(144))


def test_tw_4_first_hand_east_is_the_first_dealer_later_hands_follow_the_dice() -> None:
    g = Game(RS, seed=5)
    assert RS.seat_wind_of(g, 0) == 0  # A15: the dealer-selection roll breaks the first dealer's wall
    g2 = Game(RS, seed=5)
    while not g2.over and g2.hand_index < 3:
        g2.apply(next(iter(g2.legal_actions(g2.to_act()[0]))))
    s = sum(hand_dice(5, g2.hand_index))
    assert RS.east_seat(g2) == (g2.dealer + s - 1) % 4
    assert RS.seat_wind_of(g2, (g2.dealer + s - 1) % 4) == 0


def test_tw_5_seat_wind_is_the_broken_walls_owner_dice_14_makes_the_dealers_right_east() -> None:
    # The spec's example: the dealer rolls 14 → seat 2 counting the dealer as 1: its shimocha.
    g = Game(RS, seed=5)
    g.hand_index = 1  # a later hand: the dealer's own roll decides
    g.deal = build_deal(list(range(144)), g.codes, dealer=0, dice=(6, 5, 3))
    assert RS.east_seat(g) == 1
    assert RS.with_options(tw=dict(seat_wind_mode="dealer_east")).east_seat(g) == 0


def test_tw_2_seat_zero_is_the_first_dealer_in_the_east_round() -> None:
    g = Game(RS, seed=9)
    assert g.dealer == 0 and g.round_wind == 0 and g.scores == [0, 0, 0, 0]


# ---------------------------------------------------------------------- TW-8…TW-12: play


def test_tw_8_chi_only_from_the_left_pon_from_anyone() -> None:
    # seats 1 and 2 both hold 3m4m; only seat 1, the discarder's right, may chi the 2m
    g = scripted([J0, "3m4m2m5m8m2p5p8p2s5s8s1z2z3z4z5z", "3m4m6m9m3p6p9p3s6s9s1z2z3z4z5z6z", J3], draws="2m")
    g.play(Action(A.DISCARD, 0, 1))
    assert Action(A.CHI, 1, -1, (2, 3)) in g.legal_actions(1)
    assert all(a.type is not A.CHI for a in g.legal_actions(2))
    g = scripted([J0, J1, "4p4p3m6m9m3p6p9p3s6s9s1z2z3z4z5z", J3], draws="4p")
    g.play(Action(A.DISCARD, 0, 12))
    assert Action(A.PON, 2, -1, (12, 12)) in g.legal_actions(2)
    assert all(a.type is not A.CHI for a in g.legal_actions(2))


def test_tw_8_kong_right_after_a_pon_before_discarding_is_allowed_by_default() -> None:
    hands = [J0, "2s2s2s2s9m9m1z2z3z4z5z6z5m8m2p5p", J2, J3]
    g = scripted(hands, draws="9m")
    run(g, "0d9m 1p99m")
    assert Action(A.ANKAN, 1, 19) in g.legal_actions(1)
    g = scripted(hands, draws="9m", rs=RS.with_options(tw=dict(no_kong_before_discard_after_call=True)))
    run(g, "0d9m 1p99m")
    assert all(a.type is A.DISCARD for a in g.legal_actions(1))


def test_tw_8_house_rule_no_discard_same_as_called() -> None:
    hands = [J0, "2s2s2s1z2z3z4z5z6z7z5m8m2p5p8p1m", J2, J3]
    g = scripted(hands, draws="2s", rs=RS.with_options(tw=dict(no_discard_same_as_called=True)))
    run(g, "0d2s 1p22s")
    assert Action(A.DISCARD, 1, 19) not in g.legal_actions(1)
    g = scripted(hands, draws="2s")
    run(g, "0d2s 1p22s")
    assert Action(A.DISCARD, 1, 19) in g.legal_actions(1)


def test_tw_8_house_rule_no_call_own_discard_kind_same_round() -> None:
    hands = [J0, "2s2s2s1z2z3z4z5z6z7z5m8m2p5p8p1m", "2s3m6m9m3p6p9p3s6s9s1z2z3z4z5z6z", J3]
    for rule, offered in ((True, False), (False, True)):
        g = scripted(hands, draws="9m" + "4s" + "7s", rs=RS.with_options(tw=dict(no_call_own_discard_kind_same_round=rule)))
        run(g, "0d9m 1d2s")
        g.play(Action(A.DISCARD, 2, 19))  # seat 2 throws the kind seat 1 threw this go-around
        assert (Action(A.PON, 1, -1, (19, 19)) in g.legal_actions(1)) is offered


def test_tw_8_several_winners_head_bump_by_default_or_all() -> None:
    w2 = "123456m234p567s99m34s"
    g = scripted([J0, W, w2, J3], draws="5s")
    run(g, "0d5s 1h 2h")
    assert [w.seat for w in g.results[-1].wins] == [1]  # the first in turn order after the discarder
    g = scripted([J0, W, w2, J3], draws="5s", rs=RS.with_options(tw=dict(multi_win="all")))
    run(g, "0d5s 1h 2h")
    r = g.results[-1]
    assert [w.seat for w in r.wins] == [1, 2] and r.deltas[0] == -(r.deltas[1] + r.deltas[2])


def test_tw_9_the_hand_is_five_sets_and_a_pair() -> None:
    g = scripted([J0, W, J2, J3], draws="9m" + "5s")
    run(g, "0d9m")
    assert Action(A.TSUMO, 1) in g.legal_actions(1)
    assert len(g.seats[1].tiles) == 17


def test_tw_10_passing_a_win_blocks_ron_until_the_next_turn_but_not_tsumo() -> None:
    g = scripted([J0, W, J2, J3], draws="2s" + "9m" + "5s")
    g.play(Action(A.DISCARD, 0, 19))  # 2s: a winning tile for seat 1
    assert Action(A.RON, 1) in g.legal_actions(1)
    run(g, "1x")
    assert g.seats[1].furiten_temp and g.ruleset.furiten(g, 1)
    run(g, "1d9m")  # seat 1's turn: the furiten ends
    assert not g.seats[1].furiten_temp
    g.play(Action(A.DISCARD, 2, 22))  # seat 2 draws and throws 5s
    assert Action(A.RON, 1) in g.legal_actions(1)


def test_tw_10_no_furiten_from_own_discards() -> None:
    g = scripted([J0, W, J2, J3], draws="9m" + "2s" + "7z" + "6z" + "5s")
    run(g, "0d9m")
    assert Action(A.TSUMO, 1) in g.legal_actions(1)  # 2s wins; seat 1 throws it instead
    run(g, "1d2s 2d7z 3d6z")
    g.play(Action(A.DISCARD, 0, 22))
    assert Action(A.RON, 1) in g.legal_actions(1)


def _exhaust(g: Game) -> None:
    """Everybody throws what they draw and passes every call until the hand ends."""
    start = len(g.results)
    while len(g.results) == start and not g.over:
        _step(g)


def _until(g: Game, done: Callable[[], bool]) -> None:
    """Play :func:`_step` until ``done()``."""
    while not done():
        assert not g.results, "the hand ended first"
        _step(g)


def test_tw_11_exhaustive_draw_leaves_the_reserve_pays_nothing_and_the_dealer_continues() -> None:
    g = scripted([J0, J1, J2, J3])
    lefts: list[int] = []
    while not g.results:
        lefts.append(g.live_left)
        _step(g)
    r = g.results[0]
    assert r.kind == "exhaustive" and r.deltas == (0, 0, 0, 0)
    assert min(lefts) == 16  # the 16-tile reserve is never drawn


def _step(g: Game) -> None:
    """One action: pass every call, throw the drawn tile (or the first one after a call)."""
    s = g.to_act()[0]
    legal = list(g.legal_actions(s))
    pick = next((a for a in legal if a.type is A.PASS), None)
    if pick is None:
        d = g.code(g.drawn) if g.drawn >= 0 else -1
        pick = next((a for a in legal if a.type is A.DISCARD and a.tile == d), None) or next(
            a for a in legal if a.type is A.DISCARD
        )
    g.play(pick)


def test_tw_11_reserve_options() -> None:
    for mode, left in (("none", 0), ("fixed16", 16)):
        g = scripted([J0, J1, J2, J3], rs=RS.with_options(tw=dict(reserve=mode)))
        lefts: list[int] = []
        while not g.results:
            lefts.append(g.live_left)
            _step(g)
        assert min(lefts) == left
    g = Game(RS.with_options(tw=dict(reserve="plus_one_per_kong")), seed=1)
    g.kans.extend([0, 2])
    assert RS.with_options(tw=dict(reserve="plus_one_per_kong")).reserve(g) == 18


PAIRS = "3m3m6m6m9m9m3p3p6p6p9p9p3s3s6s6s"  # pairs of kinds J3 holds one of


def test_tw_11_only_a_win_may_claim_the_last_discard() -> None:
    g = scripted([J0, J1, PAIRS, J3])
    _until(g, lambda: g.phase is Phase.TURN and g.current == 3 and g.live_left == 20)
    g.play(Action(A.DISCARD, 3, 11))  # 3p with more than R tiles left: seat 2 may pon it
    assert Action(A.PON, 2, -1, (11, 11)) in g.legal_actions(2)
    g.play(Action(A.PASS, 2))
    _until(g, lambda: g.phase is Phase.TURN and g.live_left == 16)
    assert g.current == 3  # seat 3 drew the last tile (海底); seat 2 holds 6p6p
    g.play(Action(A.DISCARD, 3, 14))
    assert g.results[-1].kind == "exhaustive"  # no pon offered: the hand is drawn at once


def test_tw_11_a_kong_on_the_last_tile_is_replaced_from_the_reserve() -> None:
    # A8: replacement draws may come from the reserve while any tile remains.
    g = scripted([J0, J1, J3, "3333m6m9m9p5s7s1z2z3z4z5z6z7z"], rs=RS.with_options(tw=dict(flowers=False)))
    _until(g, lambda: g.phase is Phase.TURN and g.live_left == 16)
    assert g.current == 3 and Action(A.ANKAN, 3, 2) in g.legal_actions(3)
    g.play(Action(A.ANKAN, 3, 2))
    assert g.live_left == 15 and g.rinshan_draw and not g.results
    _step(g)
    assert g.results[-1].kind == "exhaustive"


# reserve "none" and no flowers: the wall's very last tile (the first of ``tail``) is the last
# normal draw, and it is seat 3's (71 draws after the dealer's 17th).
LAST = RS.with_options(tw=dict(flowers=False, reserve="none"))


def test_tw_11_haitei_pass_four_passes_draw_the_hand() -> None:
    g = scripted([J0, J1, J2, J3], rs=RS.with_options(tw=dict(haitei_pass=True)))
    _until(g, lambda: g.phase is Phase.CLAIM)
    asked: list[int] = []
    while not g.results:
        seat = g.to_act()[0]
        assert g.phase is Phase.CLAIM and g.live_left == 17  # the last tile is still in the wall
        assert set(g.legal_actions(seat)) == {Action(A.DRAW, seat), Action(A.PASS, seat)}
        asked.append(seat)
        g.play(Action(A.PASS, seat))
    assert asked == [3, 0, 1, 2]  # from the seat due to draw it, in turn order
    assert g.results[0].kind == "exhaustive" and (g.dealer, g.honba) == (0, 1)


def test_tw_11_haitei_pass_the_taker_wins_or_discards_it() -> None:
    g = scripted([J0, W, J2, J3], tail="5s", rs=LAST.with_options(tw=dict(haitei_pass=True)))
    _until(g, lambda: g.phase is Phase.CLAIM)
    run(g, "3x 0x 1w")  # seats 3 and 0 pass the last tile on; seat 1 takes it: 5s
    assert set(g.legal_actions(1)) == {Action(A.TSUMO, 1), Action(A.DISCARD, 1, 22)}
    with pytest.raises(IllegalActionError):
        g.play(Action(A.DISCARD, 1, 3))  # may not keep it
    g.play(Action(A.TSUMO, 1))
    seat, tai, deltas = last_win(g)
    assert seat == 1 and tai == {"T-10": 3, "T-14": 1}
    assert deltas == (-(50 + 20 * 5), 410, -130, -130)


def test_tw_11_without_haitei_pass_the_last_tile_is_simply_drawn() -> None:
    g = scripted([J0, J1, J2, J3], tail="5s", rs=LAST)
    _until(g, lambda: g.live_left == 0)
    assert g.phase is Phase.TURN and g.current == 3 and g.code(g.drawn) == 22
    assert Action(A.DISCARD, 3, 0) in g.legal_actions(3)  # any tile may go


def test_tw_t14_last_tile_through_the_table_ron_only_with_haitei_ron() -> None:
    for on, extra in ((False, {}), (True, {"T-14": 1})):
        g = scripted([J0, W, J2, J3], tail="5s", rs=LAST.with_options(tw=dict(haitei_ron=on)))
        _until(g, lambda g=g: g.live_left == 0)
        run(g, "3d5s 1h")  # the last tile's discard
        seat, tai, deltas = last_win(g)
        assert seat == 1 and tai == {"T-16": 2, "T-5": 1, **extra}
        assert deltas[3] == -(50 + 20 * (3 + len(extra)))


def test_tw_12_declared_tenpai_fixes_the_hand_and_earns_earth_ready_on_the_first_discard() -> None:
    g = scripted([J0, W, J2, J3], draws="9m" + "7z" + "6z" + "5z" + "1z" + "5s")
    run(g, "0d9m")
    assert Action(A.RIICHI, 1, 33) in g.legal_actions(1)  # declare tenpai, throwing the 7z
    run(g, "1r7z")
    assert g.seats[1].riichi == 2 and g.scores == [0, 0, 0, 0]  # 地聴; no stick
    run(g, "2d6z 3d5z 0d1z")
    g.play(Action(A.TSUMO, 1))
    seat, tai, _ = last_win(g)
    assert seat == 1 and tai == {"T-18": 4, "T-18b": 2}


def test_tw_12_after_declaring_only_the_drawn_tile_is_thrown_and_no_calls() -> None:
    g = scripted([J0, W, J2, J3], draws="9m" + "7z" + "8p" + "6z" + "5z" + "9p")
    run(g, "0d9m 1r7z")
    g.play(Action(A.DISCARD, 2, 16))  # 8p: seat 1 holds 88p but may not pon
    assert 1 not in g.to_act()
    run(g, "3d6z 0d5z")
    assert list(g.legal_actions(1)) == [Action(A.DISCARD, 1, 17)]


def test_tw_12_later_declaration_is_plain_declared_tenpai() -> None:
    g = scripted([J0, W, J2, J3], draws="9m" + "7z" + "6z" + "5z" + "1z" + "9p" + "4z" + "3z" + "2z" + "5s")
    run(g, "0d9m 1d7z 2d6z 3d5z 0d1z 1r9p 2d4z 3d3z 0d2z")
    g.play(Action(A.TSUMO, 1))
    _, tai, _ = last_win(g)
    assert tai == {"T-3": 1, "T-10": 3}


# J0, J1 and J3 hold no 3m, 6m or 9m: seat 1's hands below may hold (and draw) all four.
NINES = "999m123456m234p88p34s"  # waits 2s/5s with a concealed 999m


def test_tw_12_declaration_on_the_discard_after_a_call_then_an_added_kong() -> None:
    # Seat 1 pons the dealer's 9m and declares with the discard that follows (TW-12: when
    # discarding; open hands too); later it draws the fourth 9m: an added kong is allowed, and
    # a win on its replacement is 宣告聴牌 + 自摸 + 槓上開花.
    g = scripted([J0, "9m9m123456m234p88p34s9p", J1, J3], draws="9m" + "7z" + "6z" + "5z" + "9m", tail="5s")
    run(g, "0d9m 1p99m")
    assert Action(A.RIICHI, 1, 17) in g.legal_actions(1)
    run(g, "1r9p")
    assert g.seats[1].riichi == 1  # not 地聴: a call came before (its own)
    run(g, "2d7z 3d6z 0d5z")
    assert set(g.legal_actions(1)) == {Action(A.KAKAN, 1, 8), Action(A.DISCARD, 1, 8)}
    assert Action(A.RIICHI, 1, 8) not in g.legal_actions(1)  # one declaration only
    run(g, "1k9m")
    g.play(Action(A.TSUMO, 1))
    seat, tai, _ = last_win(g)
    assert seat == 1 and tai == {"T-3": 1, "T-4": 1, "T-13": 1}


def test_tw_12_concealed_kong_after_declaring_only_when_the_waits_stay() -> None:
    g = scripted([J0, NINES, J1, J3], draws="7z" + "6z" + "5z" + "4z" + "3z" + "9m")
    run(g, "0d7z 1r6z 2d5z 3d4z 0d3z")
    assert Action(A.ANKAN, 1, 8) in g.legal_actions(1)  # 999m+9m: waits 2s/5s either way
    g = scripted([J0, "3334m234p789p567s123s", J1, J3], draws="7z" + "6z" + "5z" + "4z" + "3z" + "3m")
    run(g, "0d7z 1r6z 2d5z 3d4z 0d3z")
    # 3334m waits 2m/4m/5m; a kong of 3m would leave 4m alone: refused, the 3m must go
    assert list(g.legal_actions(1)) == [Action(A.DISCARD, 1, 2)]


def test_tw_t18_earth_ready_needs_no_call_before_it_by_default() -> None:
    hands = [J0, W, "9m9m3m6m3p6p9p3s6s9s1z2z3z4z5z6z", J3]
    for requires, riichi in ((True, 1), (False, 2)):
        g = scripted(hands, draws="9m" + "5z" + "6z" + "7z", rs=RS.with_options(tw=dict(earth_ready_requires_no_calls=requires)))
        run(g, "0d9m 2p99m 2d1z 3d5z 0d6z 1r7z")  # seat 1's first discard, after seat 2's pon
        assert g.seats[1].turns == 1 and g.seats[1].riichi == riichi


def test_tw_t19_heaven_ready_declared_before_the_first_draw() -> None:
    rs = RS.with_options(tw=dict(tenting=True))
    g = scripted([J0, W, J2, J3], draws="9m" + "5s", rs=rs)
    assert g.phase is Phase.TURN and g.current == 0  # never the dealer
    run(g, "0d9m")
    assert g.phase is Phase.CLAIM and set(g.legal_actions(1)) == {Action(A.RIICHI, 1), Action(A.PASS, 1)}
    run(g, "1r")
    assert g.seats[1].riichi and len(g.seats[1].tiles) == 17  # declared, then drew
    g.play(Action(A.TSUMO, 1))
    seat, tai, deltas = last_win(g)
    assert seat == 1 and tai == {"T-19": 8, "T-18b": 2}  # no T-3/T-5/T-10; 不求 2 on a self-draw
    assert deltas == (-(50 + 20 * 11), 770, -250, -250)
    # passing the offer is an ordinary draw; a hand that is not tenpai is not asked
    g = scripted([J0, W, J2, J3], draws="9m" + "8m" + "7m", rs=rs)
    run(g, "0d9m 1x")
    assert g.phase is Phase.TURN and g.current == 1 and not g.seats[1].riichi
    run(g, "1d8m")
    assert g.phase is Phase.TURN and g.current == 2
    # without the option nobody is asked
    g = scripted([J0, W, J2, J3], draws="9m" + "5s")
    run(g, "0d9m")
    assert g.phase is Phase.TURN and g.current == 1


def test_tw_t13_win_on_a_flower_or_kong_replacement_through_the_table() -> None:
    for on, extra in ((True, {"T-13": 1}), (False, {})):
        g = scripted([J0, W, J2, J3], draws="9m" + "1f", tail="5s", rs=RS.with_options(tw=dict(kong_bloom_on_flower=on)))
        run(g, "0d9m")  # seat 1 draws 1f, exposes it, takes 5s from the tail
        g.play(Action(A.TSUMO, 1))
        assert last_win(g)[1] == {"T-10": 3, **extra}  # 1f is East's flower, not South's
    g = scripted([J0, NINES, J1, J3], draws="7z" + "9m", tail="5s", rs=RS.with_options(tw=dict(kong_bloom_on_flower=False)))
    run(g, "0d7z 1a9m")
    g.play(Action(A.TSUMO, 1))
    assert last_win(g)[1] == {"T-10": 3, "T-13": 1}  # a concealed kong keeps the hand concealed


# ---------------------------------------------------------------------- TW-13 and special wins


def test_tw_13_pinghu_through_the_table_example_1() -> None:
    # seat 3 (North, a non-dealer) discards 5s into seat 1 (South): 平胡 2 + 門清 1 = 3 tai → 110.
    g = scripted([J0, W, J2, J3], draws="9m" + "7z" + "6z" + "5s")
    run(g, "0d9m 1d7z 2d6z 3d5s 1h")
    seat, tai, deltas = last_win(g)
    assert seat == 1 and tai == {"T-16": 2, "T-5": 1}
    assert deltas == (0, 110, 0, -110)


def test_tw_t16_pinghu_through_the_state_machine() -> None:
    g = scripted([J0, W, J2, J3], draws="9m" + "7z" + "6z" + "2s")
    run(g, "0d9m 1d7z 2d6z 3d2s 1h")
    _, tai, _ = last_win(g)
    assert tai["T-16"] == 2


def test_tw_t33_earth_win_on_the_dealers_first_discard() -> None:
    g = scripted([J0, W, J2, J3], draws="5s")
    run(g, "0d5s 1h")
    seat, tai, deltas = last_win(g)
    assert seat == 1 and tai == {"T-33": 16, "T-16": 2, "T-5": 1}
    assert deltas == (-450, 450, 0, 0)  # the dealer pays 50 + 20 × (19 + dealer tai 1)


def test_tw_t34_heaven_win_for_the_dealers_dealt_hand() -> None:
    g = scripted([W, J1, J2, J3], draws="5s")
    assert Action(A.TSUMO, 0) in g.legal_actions(0)
    g.play(Action(A.TSUMO, 0))
    seat, tai, deltas = last_win(g)
    assert seat == 0 and tai == {"T-34": 24}
    each = 50 + 20 * (24 + 1)
    assert deltas == (3 * each, -each, -each, -each)


def test_tw_t15_all_exposed_through_the_state_machine() -> None:
    # Seat 1 pons 2s, 5s, 8s, 2m, 5m and wins on 8m by a discard: 全求人 2 + 単吊 1 + 対対胡 4.
    hands = [J0, "2s2s5s5s8s8s2m2m5m5m8m1z2z3z4z5z", J2, J3]
    g = scripted(hands, draws="2s" + "5s8s2m5m8m")
    run(g, "0d2s 1p22s 1d1z 2d5s 1p55s 1d2z 2d8s 1p88s 1d3z 2d2m 1p22m 1d4z 2d5m 1p55m 1d5z 2d8m 1h")
    seat, tai, deltas = last_win(g)
    assert seat == 1 and tai == {"T-15": 2, "T-11": 1, "T-20": 4}
    assert deltas == (0, 190, -190, 0)


# ---------------------------------------------------------------------- TW-14: flower wins


def test_tw_14_seven_rob_one_a_another_player_exposes_the_eighth() -> None:
    # seat 1 (South) holds 1f..7f from the deal; seat 2 draws 8f in play: seat 1 wins, seat 2 pays.
    hands = [J0, "1f2f3f4f5f6f7f2m5m8m2p5p8p2s5s8s", J2, J3]
    g = scripted(hands, draws="9m" + "8s" + "8f", tail="3m6m9m1p4p7p4s")
    assert len(g.seats[1].kita) == 7 and not g.results
    run(g, "0d9m 1d8s")
    seat, tai, deltas = last_win(g)
    assert seat == 1 and tai == {"T-30": 8, "T-9b": 2, "T-9": 1}
    assert deltas == (0, 270, -270, 0)


def test_tw_14_seven_rob_one_b_draw_the_seventh_when_the_eighth_is_out() -> None:
    hands = [J0, "1f2f3f4f5f6f2m5m8m2p5p8p2s5s8s1z", "8f3m6m9m3p6p9p3s6s9s1z2z3z4z5z6z", J3]
    g = scripted(hands, draws="9m" + "7f", tail="3m6m1p4p7p4s7s")
    run(g, "0d9m")
    seat, tai, deltas = last_win(g)
    assert seat == 1 and tai == {"T-30": 8, "T-9b": 2, "T-9": 1}
    assert deltas == (0, 270, -270, 0)  # paid as a discard by the holder of 8f


def test_tw_t31_eight_immortals_all_three_pay() -> None:
    hands = [J0, "1f2f3f4f5f6f7f2m5m8m2p5p8p2s5s8s", J2, J3]
    g = scripted(hands, draws="9m" + "8f", tail="3m6m9m1p4p7p4s")
    run(g, "0d9m")
    seat, tai, deltas = last_win(g)
    assert seat == 1 and tai == {"T-31": 8, "T-9b": 4}
    assert deltas == (-310, 890, -290, -290)


def test_tw_14_dealt_flowers_the_dealer_wins_at_once() -> None:
    hands = ["1f2f3f4f5f6f7f8f1m4m7m1p4p7p1s4s", J1, J2, J3]
    g = scripted(hands, draws="9m", tail="2m3m5m6m8m9m2p3p")
    seat, tai, deltas = last_win(g)
    assert seat == 0 and tai == {"T-31": 8, "T-23": 4, "T-9b": 4}
    each = 50 + 20 * (16 + 1)
    assert deltas == (3 * each, -each, -each, -each)


def test_tw_t23_dealt_flowers_a_non_dealer_wins_at_its_first_draw() -> None:
    # seat 2 (West) holds seven flowers, the dealer the eighth: seat 2 wins when it first draws;
    # the dealer pays as the holder of the other flower, with dealer tai.
    hands = ["8f1m4m7m1p4p7p1s4s7s1z2z3z4z5z6z", J1, "1f2f3f4f5f6f7f3m6m9m3p6p9p3s6s9s", J3]
    g = scripted(hands, draws="9m" + "8s" + "7s", tail="2m5m8m2p5p8p2s5s")
    assert not g.results
    run(g, "0d9m 1d8s")
    seat, tai, deltas = last_win(g)
    assert seat == 2 and tai == {"T-30": 8, "T-23": 4, "T-9b": 2, "T-9": 1}
    assert deltas == (-370, 0, 370, 0)


def test_tw_14_a_dealt_flower_winner_claims_nothing_before_its_first_draw() -> None:
    # Seat 2 meets 七搶一 in the deal (the dealer holds 8f): it wins when it first draws (T-23),
    # so it is not offered a pon of the dealer's 9m on the way, which would skip that draw.
    hands = ["8f1m4m7m1p4p7p1s4s7s1z2z3z4z5z6z", J1, "1f2f3f4f5f6f7f9m9m6m3p6p9p3s6s9s", J3]
    g = scripted(hands, draws="9m" + "8s" + "7s", tail="2m5m8m2p5p8p2s5s")
    g.play(Action(A.DISCARD, 0, 8))
    assert 2 not in g.to_act()
    run(g, "1d8s")
    seat, tai, deltas = last_win(g)
    assert seat == 2 and tai == {"T-30": 8, "T-23": 4, "T-9b": 2, "T-9": 1}
    assert deltas == (-370, 0, 370, 0)


# ---------------------------------------------------------------------- TW-3: rotation over several hands


def test_tw_3_dealer_rotation_and_continuation_tai_over_a_scripted_game() -> None:
    codes = taiwan_tileset().codes
    deals = [
        build_deal(wall_for([J0, J1, J2, J3]), codes, dealer=0),  # an exhaustive draw
        build_deal(wall_for([W, J1, J2, J3], "5s"), codes, dealer=0),  # the dealer's 天胡
        build_deal(wall_for([J0, W, J2, J3], "9m" + "7z" + "6z" + "5s"), codes, dealer=0),  # seat 1 wins
        build_deal(wall_for([J0, J1, J2, J3], dealer=1), codes, dealer=1),
    ]
    g = Game(RS, seed=3, deals=deals)
    _exhaust(g)
    assert g.results[0].kind == "exhaustive"
    assert (g.dealer, g.honba) == (0, 1)  # a draw keeps the dealer: n = 1
    g.play(Action(A.TSUMO, 0))  # 天胡 with n = 1: dealer tai 1 + 2 = 3 on every payment
    each = 50 + 20 * (24 + 3)
    assert g.results[1].deltas == (3 * each, -each, -each, -each)
    assert g.results[1].wins[0].score.details["continuation"] == 1
    assert (g.dealer, g.honba) == (0, 2)  # the dealer won: continues, n = 2
    run(g, "0d9m 1d7z 2d6z 3d5s 1h")
    assert g.results[2].wins[0].seat == 1
    assert g.results[2].deltas == (0, 110, 0, -110)  # neither winner nor payer deals: no dealer tai
    assert (g.dealer, g.honba, g.round_wind) == (1, 0, 0)  # the deal passes to the right, n = 0


def test_tw_3_game_ends_when_the_deal_leaves_the_last_rounds_fourth_dealer() -> None:
    g = play_random(RS.with_options(tw=dict(rounds=1)), 2, eager=True, max_steps=400000)
    assert g.over and not g.truncated
    last = g.results[-1]
    assert last.hand_number == 3 and last.round_wind == 0
    assert last.kind != "exhaustive" and all(w.seat != 3 for w in last.wins)
    assert g.final_results == tuple(float(s) for s in g.final_scores)


# ---------------------------------------------------------------------- self-play


def _rotation_ok(g: Game, base: int = 50, rate: int = 20, cap: int | None = None) -> None:
    """TW-3 on every consecutive pair of hands; TW-13 payments for every win."""
    for a, b in zip(g.results, g.results[1:]):
        dealer = a.hand_number
        keeps = a.kind == "exhaustive" or any(w.seat == dealer for w in a.wins)
        if keeps:
            assert (b.round_wind, b.hand_number, b.honba) == (a.round_wind, a.hand_number, a.honba + 1)
        else:
            nxt = (a.round_wind + (a.hand_number + 1) // 4, (a.hand_number + 1) % 4)
            assert (b.round_wind, b.hand_number, b.honba) == (*nxt, 0)
    for r in g.results:
        assert sum(r.deltas) == 0
        for w in r.wins:
            t = w.score.han
            payers = [s for s in range(4) if r.deltas[s] < 0]
            for p in payers:
                d = 1 + 2 * r.honba if r.hand_number in (w.seat, p) else 0
                if len(r.wins) == 1:
                    assert -r.deltas[p] == base + rate * min(t + d, cap if cap is not None else t + d)


def test_tw_selfplay_1000_games_finish_with_tile_and_point_conservation() -> None:
    """1,000 complete games of random play (win-eager agents), kept short by starting each at the
    last hand of a one-round game (TW-3: the dealer keeps the deal on a draw, so a game goes on until
    a non-dealer wins); tiles conserved after every action in the first games, points every hand,
    TW-3/TW-13 checked on every hand."""
    rs = RS.with_options(tw=dict(rounds=1))
    hands = 0
    kinds: Counter[str] = Counter()
    for seed in range(1000):
        g = play_random(rs, seed, check_every=1 if seed < 4 else 0, eager=True, start=(0, 3, 0, 0), max_steps=400000)
        check_invariants(g)
        assert g.over and not g.truncated and sum(g.scores) == 0
        _rotation_ok(g)
        hands += len(g.results)
        for r in g.results:
            kinds[r.kind] += 1
    assert hands >= 1000
    assert kinds["ron"] and kinds["tsumo"] and kinds["exhaustive"]


# Every option away from its default (those the table plays included), for save/reload and copies.
ODD = RS.with_options(tw=dict(
    rounds=1,
    haitei_pass=True,
    tenting=True,
    multi_win="all",
    reserve="plus_one_per_kong",
    seat_wind_mode="dealer_east",
    base=100,
    rate=30,
    tai_cap=30,
    haitei_ron=True,
    kong_bloom_on_flower=False,
    earth_ready_requires_no_calls=False,
    no_kong_before_discard_after_call=True,
    no_discard_same_as_called=True,
    no_call_own_discard_kind_same_round=True,
    tai={"sanankou": 3, "suuankou": 6, "tenhou": 16},
))


def test_taiwan16_game_under_non_default_options_saves_reloads_and_copies() -> None:
    """The bot stores ruleset + options + seed + actions (Game.to_dict); the AI looks ahead on
    Game.copy(). Both must hold under every option, the one-seat windows included."""
    assert find_ruleset("taiwan16").with_options(**ODD.options_dict()) == ODD
    windows = 0

    def look_ahead(g: Game, step: int) -> None:
        nonlocal windows
        windows += g.phase is Phase.CLAIM
        if step % 97 == 0 or g.phase is Phase.CLAIM:
            check_copy_isolated(g, step, ahead=12)

    for seed in range(2):
        g = play_random(ODD, seed, eager=True, max_steps=400000, on_step=look_ahead)
        check_reload(g)
        _rotation_ok(g, ODD.tw.base, ODD.tw.rate, ODD.tw.tai_cap)
    assert windows  # the tenting / haitei windows were met and copied


def test_taiwan16_selfplay_with_the_table_windows_keeps_every_tile() -> None:
    rs = RS.with_options(tw=dict(rounds=1, haitei_pass=True, tenting=True))
    answers: Counter[str] = Counter()
    for seed in range(4):
        g = play_random(rs, 100 + seed, check_every=1, eager=True, max_steps=400000)
        assert g.over and sum(g.scores) == 0
        _rotation_ok(g)
        answers.update(a.type.name for a in g.actions if a.type is A.DRAW)
    assert answers["DRAW"]  # the last tile was offered and taken (天聴 needs a tenpai deal: T-19's test)


@pytest.mark.skipif(not os.environ.get("JANTAKU_LONG"), reason="1,000 full games take ~5 min: run with JANTAKU_LONG=1")
def test_tw_selfplay_1000_games() -> None:
    rs = RS.with_options(tw=dict(rounds=1))
    for seed in range(1000):
        g = play_random(rs, 10_000 + seed, eager=True, max_steps=400000)
        assert g.over and sum(g.scores) == 0
        _rotation_ok(g)

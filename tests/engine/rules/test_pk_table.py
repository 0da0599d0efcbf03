"""Ruleset ``pk`` at the table (shared/rules/pk.md PK-6, PK-7, PK-11, PK-12, PK-13, examples E30 and
E33), through the state machine with scripted deals; each test also plays the same deal under riichi
rules where the two differ, so that the difference is the rule's.

Seat 0 is the dealer (East), seat 1 South, seat 2 West, seat 3 North; the East round.
"""

from __future__ import annotations

import json

from engine.rules import find_ruleset
from engine.rules.base import Ruleset
from engine.table.actions import Action, ActionType
from engine.table.game import Game, Phase
from engine.tiles import parse_kind
from tests.engine.scripted import scripted_game
from tests.engine.selfplay import check_copy_isolated, check_reload, play_random

A = ActionType
PK = find_ruleset("pk")
RIICHI = find_ruleset("riichi")


def kinds(g: Game, seat: int) -> set[ActionType]:
    return {a.type for a in g.legal_actions(seat)}


def discard(g: Game, tile: str | None = None) -> None:
    """The player to move discards ``tile`` (default: the tile just drawn)."""
    seat = g.current
    code = parse_kind(tile) if tile else g.code(g.drawn)
    g.play(Action(A.DISCARD, seat, code))


def pass_calls(g: Game) -> None:
    while not g.over and g.phase is Phase.CALL:
        g.play(Action(A.PASS, g.to_act()[0]))


def step(g: Game, tile: str | None = None) -> None:
    discard(g, tile)
    pass_calls(g)


def to_the_draw(g: Game) -> None:
    """Everybody discards what they draw and passes every call until the hand ends."""
    while not g.results:
        assert g.phase is Phase.TURN
        step(g)


# ---------------------------------------------------------------------------------------------
# PK-7 discard priority (E30)
# ---------------------------------------------------------------------------------------------

E28 = "222m444p666s7888s"  # waits 5s 6s 7s 8s 9s, sanankou common (valid)
JUNK = ["1359m1359p13s567z", E28, "2468m2468p2459s7z", "1379m1379p149s67z"]


def _e30(rs: Ruleset, draws: str) -> Game:
    g = scripted_game(rs, JUNK, draws)
    discard(g, "6s")  # the kamicha (dealer) discards 6s: seat 1 may ron
    assert A.RON in kinds(g, 1)
    g.play(Action(A.PASS, 1))  # hoping for 7s (suuankou)
    pass_calls(g)
    assert g.current == 1
    return g


def test_pk_7_e30_passing_a_win_forbids_the_tsumo_on_the_next_draw() -> None:
    g = _e30(PK, "6s7s")
    assert g.code(g.drawn) == parse_kind("7s")
    assert A.TSUMO not in kinds(g, 1)
    # riichi rules: tsumo has priority, the suuankou tsumo is allowed
    r = _e30(RIICHI, "6s7s")
    assert A.TSUMO in kinds(r, 1)


def test_pk_7_e30_winning_is_allowed_again_after_the_players_discard() -> None:
    g = _e30(PK, "6s1z2z3z4z9s")
    assert A.TSUMO not in kinds(g, 1)
    step(g)  # seat 1 discards 1z: a new go-around starts for it
    step(g)  # seat 2
    step(g)  # seat 3
    step(g)  # dealer
    assert g.current == 1 and g.code(g.drawn) == parse_kind("9s")
    assert A.TSUMO in kinds(g, 1)
    g.play(Action(A.TSUMO, 1))
    win = g.results[0].wins[0]
    assert win.seat == 1 and "sanankou" in {y.name for y in win.score.yaku}


def test_pk_7_a_passed_win_lasts_until_the_players_discard() -> None:
    g = _e30(PK, "6s1z")
    assert g.seats[1].furiten_temp  # base R-6.4 temporary furiten, cleared by seat 1's discard
    step(g)
    assert not g.seats[1].furiten_temp


# ---------------------------------------------------------------------------------------------
# PK-6 furiten blocks tsumo
# ---------------------------------------------------------------------------------------------

DAISANGEN = "555z666z777z1234m"  # waits 1m and 4m, daisangen on both
FURITEN_HANDS = ["1379m1379p1379s1z", DAISANGEN, "2468p2468s2345z9m", "568m567p56s12346z"]


def _furiten_game(rs: Ruleset) -> Game:
    g = scripted_game(rs, FURITEN_HANDS, "8p4m9p8s7m1m")
    step(g)  # dealer
    assert A.TSUMO in kinds(g, 1)  # 4m: daisangen, not furiten yet
    step(g, "4m")  # declines and discards 4m: permanent furiten (a wait in the river)
    step(g)
    step(g)
    step(g)
    assert g.current == 1 and g.code(g.drawn) == parse_kind("1m")
    return g


def test_pk_6_furiten_player_may_not_tsumo_even_daisangen() -> None:
    g = _furiten_game(PK)
    assert A.TSUMO not in kinds(g, 1)
    assert A.TSUMO in kinds(_furiten_game(RIICHI), 1)  # base: furiten blocks ron only


def test_pk_6_furiten_still_blocks_ron() -> None:
    # not furiten: the dealer's 1m is a daisangen ron for seat 1
    g = scripted_game(PK, FURITEN_HANDS, "8p")
    discard(g, "1m")
    assert A.RON in kinds(g, 1)
    # seat 1 declined the 4m tsumo and discarded it (a wait in its river): the same 1m is no ron
    g = scripted_game(PK, FURITEN_HANDS, "8p4m9p8s7m")
    step(g)
    step(g, "4m")
    step(g)
    step(g)
    assert g.current == 0
    discard(g, "1m")
    assert A.RON not in kinds(g, 1)  # (a chi is still offered)


# ---------------------------------------------------------------------------------------------
# PK-11 no kan after riichi (E33)
# ---------------------------------------------------------------------------------------------

RIICHI_KAN_HANDS = ["111m234p567s789s5z", "2468m2468p2468s2z", "3579m3579p134s36z", "2468m2468p1349s4z"]


def _riichi_then_fourth_tile(rs: Ruleset) -> Game:
    g = scripted_game(rs, RIICHI_KAN_HANDS, "1z7z7z7z1m")
    g.play(Action(A.RIICHI, 0, parse_kind("1z")))  # tanki 5z; 111m is a triplet in every reading
    pass_calls(g)
    step(g)
    step(g)
    step(g)
    assert g.current == 0 and g.code(g.drawn) == parse_kind("1m")
    return g


def test_pk_11_e33_no_ankan_after_riichi() -> None:
    g = _riichi_then_fourth_tile(PK)
    assert A.ANKAN not in kinds(g, 0)
    assert kinds(g, 0) == {A.DISCARD}
    # riichi rules: the same ankan is allowed (waits unchanged, always a triplet)
    assert A.ANKAN in kinds(_riichi_then_fourth_tile(RIICHI), 0)


def test_pk_11_ankan_before_riichi_is_still_allowed() -> None:
    g = scripted_game(PK, RIICHI_KAN_HANDS, "1m")
    assert Action(A.ANKAN, 0, parse_kind("1m")) in g.legal_actions(0)


# ---------------------------------------------------------------------------------------------
# PK-12 tenhou / chiihou at the table
# ---------------------------------------------------------------------------------------------

OTHERS = ["1111m9999p1111s1z", "9999m1111p9999s2z", "333444z66z7z58p37s"]


def test_pk_12_tenhou_offered_when_every_tile_could_be_the_last() -> None:
    g = scripted_game(PK, ["234m567m234p5678s", *OTHERS], "5s")
    assert A.TSUMO in kinds(g, 0)
    g.play(Action(A.TSUMO, 0))
    res = g.results[0].wins[0].score
    assert [y.name for y in res.yaku] == ["tenhou"] and res.points == 48000


def test_pk_12_tenhou_refused_when_some_tile_as_the_last_fails() -> None:
    # 2333m456p678s345s + 4m: with 4m taken as the last tile the 13 are E23 (no common yaku)
    g = scripted_game(PK, ["2333m456p678s345s", *OTHERS], "4m")
    assert A.TSUMO not in kinds(g, 0)
    assert A.TSUMO in kinds(scripted_game(RIICHI, ["2333m456p678s345s", *OTHERS], "4m"), 0)
    lenient = PK.with_options(pk=dict(tenhou_check="lenient"))
    assert A.TSUMO in kinds(scripted_game(lenient, ["2333m456p678s345s", *OTHERS], "4m"), 0)


# ---------------------------------------------------------------------------------------------
# PK-13 hands that cannot win are noten at the draw
# ---------------------------------------------------------------------------------------------

# Dealer: E23 (shape tenpai on 1m 2m 4m, no common yaku). Seat 3: East and Chun concealed, waits 2s/5s
# (valid). Every copy of their waits sits in seats 1 and 2, who never discard them.
DRAW_HANDS = ["2333m456p678s345s", "222059s9m19p1357z", "11112224444m9p2z", "111777z456p2345s"]


def test_pk_13_shape_tenpai_without_common_yaku_is_noten() -> None:
    g = scripted_game(PK, DRAW_HANDS)
    to_the_draw(g)
    res = g.results[0]
    assert res.kind == "exhaustive" and res.tenpai == (3,)
    assert res.deltas == (-1000, -1000, -1000, 3000)
    assert g.hand_number == 1  # the dealer was noten: the deal passes (no renchan)
    r = scripted_game(RIICHI, DRAW_HANDS)
    to_the_draw(r)
    assert r.results[0].tenpai == (0, 3) and r.results[0].deltas == (1500, -1500, -1500, 1500)
    assert r.hand_number == 0  # riichi: dealer tenpai, renchan


def test_pk_13_riichi_player_made_furiten_pays_the_noten_penalty() -> None:
    g = scripted_game(PK, DRAW_HANDS)
    g.play(Action(A.RIICHI, 0, g.code(g.drawn)))  # E23 with riichi: riichi is the common yaku
    pass_calls(g)
    step(g)
    step(g)
    g.play(Action(A.RIICHI, 3, g.code(g.drawn)))
    pass_calls(g)
    step(g)  # dealer (riichi: its draw)
    step(g, "2s")  # seat 1 lets a 2s go from its hand: seat 3 may ron (riichi + Chun) …
    assert g.seats[3].furiten_riichi  # … and passed (pass_calls): riichi furiten for the hand
    to_the_draw(g)
    res = g.results[0]
    assert res.tenpai == (0,) and res.deltas == (3000, -1000, -1000, -1000)
    assert set(res.riichi_deposits) == {0, 3}
    r = scripted_game(RIICHI, DRAW_HANDS)
    r.play(Action(A.RIICHI, 0, r.code(r.drawn)))
    pass_calls(r)
    step(r)
    step(r)
    r.play(Action(A.RIICHI, 3, r.code(r.drawn)))
    pass_calls(r)
    step(r)
    step(r, "2s")
    to_the_draw(r)
    assert r.results[0].tenpai == (0, 3)  # riichi: furiten is still tenpai


def test_pk_13_hook_on_the_dealt_hands() -> None:
    g = scripted_game(PK, DRAW_HANDS)
    assert not PK.tenpai_at_draw(g, 2)  # shape noten
    assert PK.tenpai_at_draw(g, 3)  # Chun in hand
    assert RIICHI.tenpai_at_draw(g, 3)


# ---------------------------------------------------------------------------------------------
# PK-5 / PK-0 at the table: ron validity and the table's payments
# ---------------------------------------------------------------------------------------------


def test_pk_5_ron_offered_only_for_a_valid_hand() -> None:
    hands = ["1579m1359p13s567z", "2333m456p678s345s", "2468m2468p2459s7z", "1379m1379p149s67z"]
    # the dealer discards 1m: E23 waits on it (pinfu) but has no common yaku: no ron in pk
    g = scripted_game(PK, hands)
    discard(g, "1m")
    assert A.RON not in kinds(g, 1)
    r = scripted_game(RIICHI, hands)
    discard(r, "1m")
    assert A.RON in kinds(r, 1)


def test_pk_0_table_payments_at_the_table() -> None:
    # E30's hand rons the dealer's 6s: sanankou 2 + tanyao 1 = 3 (+2) = 5 翻 → 4000 from the dealer
    g = scripted_game(PK, JUNK, "6s")
    discard(g, "6s")
    g.play(Action(A.RON, 1))
    res = g.results[0]
    assert res.kind == "ron" and res.wins[0].score.points == 4000
    assert res.deltas == (-4000, 4000, 0, 0)


# ---------------------------------------------------------------------------------------------
# Options and persistence
# ---------------------------------------------------------------------------------------------

FURITEN_RIICHI_HANDS = ["123m456p789s11z23s", "2468m2468p2468s5z", "3579m3579p579s46z", "1357m1357p1346s7z"]


def _before_furiten_riichi(rs: Ruleset) -> Game:
    g = scripted_game(rs, FURITEN_RIICHI_HANDS, "1s7z7z7z9p")
    assert A.TSUMO not in kinds(g, 0)  # 1s completes the hand but only menzen tsumo (PK-3)
    step(g)  # the dealer lets 1s go: a wait of its hand is now in its river
    step(g)
    step(g)
    step(g)
    assert g.current == 0 and g.code(g.drawn) == parse_kind("9p")
    return g


def test_pk_options_allow_furiten_riichi() -> None:
    riichi_9p = Action(A.RIICHI, 0, parse_kind("9p"))
    assert riichi_9p in _before_furiten_riichi(PK).legal_actions(0)  # A10 default: allowed
    strict = PK.with_options(pk=dict(allow_furiten_riichi=False))
    g = _before_furiten_riichi(strict)
    assert riichi_9p not in g.legal_actions(0)
    assert A.RIICHI not in kinds(g, 0)


# Every pk.md §8 option away from its default, with riichi options besides (hanchan, red fives).
PK_CHANGED = {
    "hanchan": False,
    "red_fives": [0, 2, 1],
    "pk": {
        "tenhou_check": "lenient",
        "common_mode": "best",
        "situational_yaku_qualify": True,
        "allow_furiten_riichi": False,
        "bazoro": 1,
    },
}


def test_pk_options_non_default_game_saves_reloads_and_copies() -> None:
    """The bot stores ruleset + options + seed + actions: a game under changed pk options reloads as
    the same game, and a look-ahead copy (the AI's ``Game.copy()``) leaves the original untouched."""
    rs = PK.with_options(**PK_CHANGED)
    assert rs.pk.bazoro == 1 and rs.options.red_fives == (0, 2, 1)  # type: ignore[attr-defined]
    wins = 0
    for seed in (0, 1):  # seed 0 has a win (wins are rare in random pk play)
        g = play_random(rs, seed, eager=True, on_step=lambda g, i: i % 11 or check_copy_isolated(g, i))
        assert json.loads(json.dumps(g.to_dict()))["options"] == PK_CHANGED
        again = check_reload(g)
        assert again.ruleset.pk == rs.pk  # type: ignore[attr-defined]
        for w in (w for r in g.results for w in r.wins if not w.score.yakuman):
            wins += 1
            assert w.score.details["bazoro"] == 1 and w.score.details["table_han"] == w.score.han + 1  # PK-0.2
    assert wins


def test_pk_game_serialises_and_replays() -> None:
    from tests.engine.rules.test_pk_selfplay import TONPUU

    g = play_random(TONPUU, 11, eager=True)
    data = g.to_dict()
    assert data["ruleset"] == "pk" and data["options"] == {"hanchan": False}
    h = Game.from_dict(data)
    assert h.over and h.final_scores == g.final_scores
    assert [r.deltas for r in h.results] == [r.deltas for r in g.results]

"""Ruleset ``shoukou`` at the table (shared/rules/shoukou.md SK-7, SK-9, SK-11, SK-12, R-5.3 under
SK-11), through the state machine with scripted deals.

Seat 0 is the dealer (East), seat 1 South, seat 2 West, seat 3 North; the East round. Every
expected outcome is the spec's: who gets a contested discard (SK-12, "上家が優先"), who may rob a
transformed added kan (SK-7 + SK-9), which riichi declarations and kans are offered (SK-11, R-5).
"""

from __future__ import annotations

import json

from engine.notation import MeldType
from engine.rules import find_ruleset
from engine.rules.shoukou import ShoukouRuleset
from engine.table.actions import Action, ActionType
from engine.table.game import Game, Phase
from engine.tiles import parse_kind
from tests.engine.scripted import play, scripted_game

A = ActionType
SK = find_ruleset("shoukou")
RIICHI = find_ruleset("riichi")


def k(name: str) -> int:
    return parse_kind(name) & ~0x40


# --- SK-12: two pon claims on one discard ----------------------------------------------------------

# Seat 0 discards 2s. Seat 2 holds 55s (pon, promoting the discard 2s→5s, C3), seat 3 holds 22s
# (a plain pon). Seat 1 holds no souzu.
TWO_PONS = ["2s147m258p369p123z", "147m258m369m4567z", "55s147p369m1567z9p", "22s258m369p47p567z"]


def test_sk_12_table_two_pons_on_one_discard_go_to_the_seat_closest_after_the_discarder() -> None:
    for answers in (("3p22s", "2p55s2s>5s"), ("2p55s2s>5s", "3p22s")):
        g = scripted_game(SK, TWO_PONS, "4z")
        play(g, "0d2s")
        assert Action.parse("2p55s2s>5s") in g.legal_actions(2)
        assert Action.parse("3p22s") in g.legal_actions(3)
        play(g, *answers)
        # seat 2 is first after seat 0 in turn order: it gets the 2s, seat 3 gets nothing
        assert g.phase is Phase.TURN and g.current == 2
        m = g.seats[2].melds[-1]
        assert m.type is MeldType.PON and m.effective == (k("5s"),) * 3
        assert [g.kind(t) for t in m.tiles] == [k("5s"), k("5s"), k("2s")]
        assert g.seats[3].melds == []
    # under riichi rules seat 2 has no call on 2s at all: only seat 3 pons
    g = scripted_game(RIICHI, TWO_PONS, "4z")
    play(g, "0d2s")
    assert set(g.to_act()) == {3}


# --- SK-7 + SK-9: robbing a transformed added kan ----------------------------------------------

# Seat 0 pons a 4s (44s) and later adds its 1s as 4s (C9). Seat 1 waits on 1s-4s (23s, ittsu in
# manzu); seat 2 waits on 4s tanki, so a 1s completes its hand only as 1s>4s (SK-9).
ROB_HANDS = ["44s1s147m258p369p1z", "23s123m456m789m99p", "4s234p567p222z333z", "4s23689m147p4567z"]


def _to_transformed_kakan(g: Game) -> None:
    play(g, "0d7z", "1d7z", "2d7z", "3d4s")
    play(g, "1x", "2x", "0p44s")  # both may ron the 4s; they let it go (temporary furiten)
    play(g, "0d1z", "1d6z", "2d6z", "3d6z")  # their own discards end the temporary furiten


def test_sk_7_table_transformed_kakan_is_offered_and_melded_as_one_kind() -> None:
    g = scripted_game(SK, ROB_HANDS, "7z7z7z9p6z6z6z5z")
    _to_transformed_kakan(g)
    kakan = Action.parse("0k4s1s>4s")
    assert kakan in g.legal_actions(0)
    g2 = g.copy()  # Game.copy (AI look-ahead) shares no meld state with the game
    play(g, "0k4s1s>4s")
    m = g.seats[0].melds[-1]
    assert m.type is MeldType.KAKAN and m.effective == (k("4s"),) * 4
    assert g.kind(m.called) == k("1s")
    assert g2.seats[0].melds[-1].type is MeldType.PON


def test_sk_9_table_chankan_of_a_transformed_kakan_by_a_plain_and_a_transforming_robber() -> None:
    g = scripted_game(SK, ROB_HANDS, "7z7z7z9p6z6z6z5z")
    _to_transformed_kakan(g)
    play(g, "0k4s1s>4s")
    # the added tile is a physical 1s: seat 1 robs it as 1s, seat 2 by moving it to 4s
    assert g.phase is Phase.CHANKAN and set(g.to_act()) == {1, 2}
    play(g, "1h", "2h")
    wins = {w.seat: w for w in g.results[-1].wins}
    assert set(wins) == {1, 2} and g.results[-1].kind == "ron"
    names1 = {y.name for y in wins[1].score.yaku}
    names2 = {y.name for y in wins[2].score.yaku}
    assert {"chankan", "ittsu"} <= names1
    assert "chankan" in names2 and wins[2].score.details["transformations"] == ["1s>4s"]
    assert all(w.from_seat == 0 for w in wins.values())


# --- SK-11 / R-5.1: riichi on a hand that is tenpai only under shoukou --------------------------


def test_sk_11_table_riichi_is_offered_on_a_shoukou_only_tenpai_w8() -> None:
    # W8: 23m66m77m89m789p46s waits only on 5s (7m>4m), plain waits none. The dealer draws 1z.
    g = scripted_game(SK, ["23m66m77m89m789p46s", None, None, None], "1z")
    riichi = Action(A.RIICHI, 0, k("1z"))
    listed = list(g.legal_actions(0))
    assert riichi in listed and riichi in g.legal_actions(0)
    assert all(a.tile == k("1z") for a in listed if a.type is A.RIICHI)  # only a discard keeping W
    play(g, "0r1z")
    assert g.seats[0].riichi == 2 and g.seats[0].waits == (k("5s"),)  # the first discard: double
    # under riichi rules the same hand is not tenpai: no riichi
    g = scripted_game(RIICHI, ["23m66m77m89m789p46s", None, None, None], "1z")
    assert not any(a.type is A.RIICHI for a in g.legal_actions(0))


# --- persistence ------------------------------------------------------------------------------


def test_sk_options_every_option_survives_to_dict_and_from_dict() -> None:
    rs = SK.with_options(
        shoukou={
            "win_transform_melds": False,
            "kuikae": "effective",
            "yakuman_union": False,
            "aka_follows_effective": True,
            "fu": "best_interpretation",
        },
        kuitan=False,
    )
    assert isinstance(rs, ShoukouRuleset)
    g = Game(rs, seed=3)
    for a in list(g.legal_actions(0))[:1]:
        g.play(a)
    data = json.loads(json.dumps(g.to_dict()))
    assert data["options"]["shoukou"]["kuikae"] == "effective"
    again = Game.from_dict(data)
    assert again.ruleset == rs and again.ruleset.shoukou == rs.shoukou
    assert [a.text for a in again.actions] == [a.text for a in g.actions]


# --- under SK-11: an ankan after riichi --------------------------------------------------


def _riichi_then_draw(rs: object, hand: str, tile: str) -> Game:
    """The dealer declares riichi with ``hand`` (discarding a drawn 5z); three 6z go round; then
    the dealer draws ``tile``."""
    g = scripted_game(rs, [hand, None, None, None], f"5z6z6z6z{tile}")  # type: ignore[arg-type]
    play(g, "0r5z", "1d6z", "2d6z", "3d6z")
    assert g.current == 0 and g.kind(g.drawn) == k(tile) and g.seats[0].riichi
    return g


def ankans(g: Game) -> set[str]:
    return {a.text for a in g.legal_actions(0) if a.type is A.ANKAN}


def test_sk_11_table_riichi_ankan_keeps_the_waits_w_and_the_triplet() -> None:
    # 111m + 234p 567p 789s + 5s tanki: W = {2s, 5s, 8s} before and after a kan of 1m, and every
    # interpretation that wins keeps 111m a triplet: the kan is allowed (A13)
    g = _riichi_then_draw(SK, "111m234p567p789s5s", "1m")
    assert g.seats[0].waits == (k("2s"), k("5s"), k("8s"))
    assert ankans(g) == {"0a1m"}
    play(g, "0a1m")
    assert g.seats[0].melds[-1].type is MeldType.ANKAN and g.seats[0].waits == (k("2s"), k("5s"), k("8s"))


def test_sk_11_table_riichi_ankan_refused_when_a_winning_reading_breaks_the_triplet() -> None:
    # R-5.3(c): 1112344566778p waits on 1p 4p 7p; on 4p it reads 444p 123p 567p 678p + 11p, where
    # the 1p are not a triplet. Riichi refuses the kan of a drawn 1p; so does shoukou (and its
    # transformed variant 1p1p1p4p>1p).
    for rs in (RIICHI, SK):
        assert ankans(_riichi_then_draw(rs, "1112344566778p", "1p")) == set(), rs.name
    # 1122244455789s: every plain reading keeps 222s a triplet (riichi allows the kan), but the
    # shoukou win on 1s with 2s>5s reads 111s 444s 555s 789s + 22s: shoukou refuses
    assert "0a2s" in ankans(_riichi_then_draw(RIICHI, "1122244455789s", "2s"))
    assert ankans(_riichi_then_draw(SK, "1122244455789s", "2s")) == set()

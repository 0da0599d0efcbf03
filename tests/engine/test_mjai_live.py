"""The live mjai stream (engine/logs/mjai_live.py): the export's events, as they happen, with other
seats' hidden tiles masked; and a seat's answers read back into its legal actions."""

from __future__ import annotations

import random

import pytest

from bot.ai.policy import smart
from engine.logs.export import mjai_tile, to_mjai
from engine.logs.mjai_live import REACH, AnswerError, MjaiStream, parse_answer, seat_view
from engine.rules import find_ruleset
from engine.table.actions import Action, ActionType
from engine.table.game import Game, Phase

A = ActionType
NAMES = ["a", "b", "c", "d"]


def _self_play(seed: str) -> tuple[Game, list[Game]]:
    """A tonpuu of the smart AI, and a copy of the game before each action."""
    rs = find_ruleset("tenhou").with_options(hanchan=False)
    g = Game(rs, seed)
    rng = random.Random(seed)
    before = []
    while not g.over:
        before.append(g.copy())
        seat = g.to_act()[0]
        g.apply(smart(g, seat, rng))
    return g, before


@pytest.mark.parametrize("seed", ["live-1", "live-2"])  # live-1 has an ankan, live-2 a ryukyoku
def test_stream_is_the_export_as_it_happens(seed: str) -> None:
    g, _ = _self_play(seed)
    export = to_mjai(g, names=NAMES)
    st = MjaiStream(g.ruleset, seed, NAMES)
    for i in range(len(g.actions)):
        st.sync(g.actions[: i + 1])
        assert st.events == export[: len(st.events)]
    assert st.events == export
    # the games cover riichi, calls, a closed kan and its dora, both ends of a hand
    assert {"reach", "reach_accepted", "pon", "hora", "end_game"} <= {ev["type"] for ev in export}


def test_a_seat_hears_no_other_seats_hidden_tiles() -> None:
    g, _ = _self_play("live-1")
    st = MjaiStream(g.ruleset, "live-1", NAMES)
    st.sync(g.actions)
    for seat in range(4):
        view = st.view(seat)
        assert view[0]["type"] == "start_game" and view[0]["id"] == seat
        for full, seen in zip(st.events, view, strict=True):
            if full["type"] == "start_kyoku":
                for s in range(4):
                    want = full["tehais"][s] if s == seat else ["?"] * 13
                    assert seen["tehais"][s] == want
            elif full["type"] == "tsumo":
                assert seen["pai"] == (full["pai"] if full["actor"] == seat else "?")
            elif full["type"] != "start_game":
                assert seen == full
        assert seat_view(st.events[1], seat) is not st.events[1]  # the stream itself is left whole


def _first(before: list[Game], pick: object) -> tuple[Game, int, Action]:
    for g in before:
        for seat in g.to_act():
            for a in g.legal_actions(seat):
                if pick(g, a):  # type: ignore[operator]
                    return g, seat, a
    raise AssertionError("no such position in the game")


def test_answers_on_the_own_turn() -> None:
    _, before = _self_play("live-1")
    g, seat, _ = _first(before, lambda g, a: g.phase is Phase.TURN and g.drawn >= 0)
    drawn = g.code(g.drawn)
    assert parse_answer({"type": "dahai", "actor": seat, "pai": mjai_tile(drawn), "tsumogiri": True}, g, seat) == Action(
        A.DISCARD, seat, drawn
    )
    bad = [
        {"type": "none"},  # a pass is no move on the own turn
        {"type": "dahai", "actor": (seat + 1) % 4, "pai": mjai_tile(drawn)},
        {"type": "dahai", "actor": seat, "pai": "9z"},
        {"type": "hora", "actor": seat, "target": (seat + 1) % 4},
        {"type": "teleport"},
        ["dahai"],
        "none",
    ]
    for answer in bad:
        with pytest.raises(AnswerError):
            parse_answer(answer, g, seat)
    held = {g.code(t) for t in g.seats[seat].tiles}
    missing = next(c for c in range(27) if c not in held)
    with pytest.raises(AnswerError):
        parse_answer({"type": "dahai", "actor": seat, "pai": mjai_tile(missing)}, g, seat)


def test_answers_in_a_call_window() -> None:
    _, before = _self_play("live-1")
    g, seat, pon = _first(before, lambda g, a: a.type is A.PON)
    assert parse_answer({"type": "none"}, g, seat) == Action(A.PASS, seat)
    consumed = [mjai_tile(c) for c in pon.tiles]
    assert parse_answer({"type": "pon", "actor": seat, "consumed": consumed}, g, seat) == pon
    with pytest.raises(AnswerError):
        parse_answer({"type": "dahai", "actor": seat, "pai": consumed[0]}, g, seat)


def test_reach_is_two_answers() -> None:
    _, before = _self_play("live-2")
    g, seat, riichi = _first(before, lambda g, a: a.type is A.RIICHI)
    assert parse_answer({"type": "reach", "actor": seat}, g, seat) == REACH
    answer = {"type": "dahai", "actor": seat, "pai": mjai_tile(riichi.tile)}
    assert parse_answer(answer, g, seat, after_reach=True) == riichi
    with pytest.raises(AnswerError):
        parse_answer({"type": "none"}, g, seat, after_reach=True)

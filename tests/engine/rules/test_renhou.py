"""Renhou (riichi.md §7, ``riichi.renhou``): a non-dealer's ron before their first draw, with no call
made. Off by default (riichi.md §7 "not adopted by default"); "mangan" counts it as a 5-han yaku,
cumulative with the others (the WRC rules, 2014 errata; the EMA's "renhou is a mangan"), and
"yakuman" as a yakuman. Scripted deals: seat 1 waits on 2m with a hand that has no other yaku
(1m and 9p: no tanyao; a kanchan wait: no pinfu)."""

from __future__ import annotations

import pytest

from engine.rules import find_ruleset
from engine.table.actions import Action, ActionType
from tests.engine.scripted import play, scripted_game

NO_YAKU_WAIT_2M = "13m234p567s678s99p"  # kanchan 2m; not tanyao, not pinfu


def _rons(g, seat: int) -> bool:  # type: ignore[no-untyped-def]
    return any(a.type is ActionType.RON for a in g.legal_actions(seat))


def test_renhou_is_off_by_default_and_the_hand_has_no_yaku() -> None:
    g = scripted_game(find_ruleset("riichi"), [None, NO_YAKU_WAIT_2M, None, None], "2m")
    play(g, "0d2m")
    assert not _rons(g, 1)


@pytest.mark.parametrize(("mode", "han", "paid"), [("mangan", 5, 8000), ("yakuman", 13, 32000)])
def test_renhou_mangan_or_yakuman_on_the_first_go_around(mode: str, han: int, paid: int) -> None:
    rs = find_ruleset("riichi").with_options(renhou=mode, red_fives=(0, 0, 0))
    g = scripted_game(rs, [None, NO_YAKU_WAIT_2M, None, None], "2m", dora="1z")  # dora E: none here
    play(g, "0d2m")
    assert _rons(g, 1)
    play(g, "1h")
    [win] = g.results[0].wins
    assert ("renhou", han) in [(y.name, y.han) for y in win.score.yaku]
    assert g.results[0].deltas[1] == paid  # non-dealer ron from the dealer, no honba


def test_renhou_is_cumulative_with_other_yaku_as_a_mangan_yaku() -> None:
    """WRC (2014 errata): renhou counts with the other yaku and dora: tanyao + renhou = 6 han."""
    rs = find_ruleset("riichi").with_options(renhou="mangan", red_fives=(0, 0, 0))
    g = scripted_game(rs, [None, "45m234p567s678s22p", None, None], "6m", dora="1z")
    play(g, "0d6m", "1h")
    [win] = g.results[0].wins
    names = {y.name for y in win.score.yaku}
    assert {"renhou", "tanyao"} <= names
    assert g.results[0].deltas[1] == 12000  # 6 han: haneman


def test_no_renhou_after_the_first_draw_or_after_a_call() -> None:
    rs = find_ruleset("riichi").with_options(renhou="yakuman")
    # seat 1 has drawn and discarded once: the dealer's 2m on the next go-around is no renhou
    g = scripted_game(rs, [None, NO_YAKU_WAIT_2M, None, None], "1z2z3z4z2m")
    play(g, "0d1z")
    for seat, tile in ((1, "2z"), (2, "3z"), (3, "4z")):
        for other in list(g.to_act()):
            if other != seat and g.to_act() != [seat]:
                g.play(Action(ActionType.PASS, other))
        play(g, f"{seat}d{tile}")
    for other in list(g.to_act()):
        if other != 0:
            g.play(Action(ActionType.PASS, other))
    play(g, "0d2m")
    assert not _rons(g, 1)


def test_the_dealer_cannot_renhou_and_a_tsumo_is_no_renhou() -> None:
    """The dealer draws first (so never wins before a draw); a first-draw tsumo is chiihou."""
    rs = find_ruleset("riichi").with_options(renhou="yakuman")
    g = scripted_game(rs, [None, NO_YAKU_WAIT_2M, None, None], "1z2m")
    play(g, "0d1z")
    for other in list(g.to_act()):
        if other != 1:
            g.play(Action(ActionType.PASS, other))
    tsumo = [a for a in g.legal_actions(1) if a.type is ActionType.TSUMO]
    assert tsumo
    g.play(tsumo[0])
    [win] = g.results[0].wins
    assert "renhou" not in {y.name for y in win.score.yaku} and "chiihou" in {y.name for y in win.score.yaku}

"""The table's refusals carry a reason code and fields (engine/table/refusal.py).

Each raise site in game.py is driven in a scripted situation and must give its :class:`Refusal`
with the English sentence players and logs have always read; an AST scan of engine/ makes sure
no ``IllegalActionError(...)`` is built without a reason, and that every code is raised somewhere.
"""

from __future__ import annotations

import ast
import pickle
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.rules import find_ruleset
from engine.table.actions import Action, ActionType
from engine.table.game import Game, IllegalActionError, Phase
from engine.table.refusal import Refusal
from engine.tiles import parse_tiles
from tests.engine.scripted import play, scripted_game

A = ActionType
R = Refusal
RIICHI = find_ruleset("riichi")
ENGINE = Path(__file__).resolve().parents[2] / "engine"


def tile(text: str) -> int:
    (code,) = parse_tiles(text)
    return code


def refused(move: Callable[[], object]) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as raised:
        move()
    return raised.value


# seat 0 (the dealer) draws 5p and discards it; seat 1 (the next seat) may chi it with 34p, seat 2
# (across) may pon it with 55p, seat 3 has nothing to say on it
CALLS = ["147m147p147s1234z", "234p258m258s567z9s", "55p46p369m3689s67z", None]


def _call_window() -> Game:
    g = scripted_game(RIICHI, CALLS, "5p")
    play(g, "0d5p")
    assert g.phase is Phase.CALL and sorted(g.to_act()) == [1, 2]
    return g


def test_turn_refusals_give_their_reason_and_fields_with_the_same_sentence() -> None:
    g = scripted_game(RIICHI, ["1111m258p258s123z", None, None, None], "9p")
    assert g.current == 0
    e = refused(lambda: g.play(Action(A.DISCARD, 1, g.codes[g.seats[1].tiles[0]])))
    assert (e.reason, str(e), e.fields["seat"]) == (R.NOT_YOUR_TURN, "it is not your turn", 1)
    e = refused(lambda: g.play(Action(A.DISCARD, 4, tile("1m"))))
    assert (e.reason, str(e), e.fields["seat"]) == (R.NO_SUCH_SEAT, "there is no seat 4", 4)
    e = refused(lambda: g.play(Action(A.DISCARD, 0, tile("9s"))))
    assert (e.reason, str(e), e.fields["tile"]) == (R.TILE_NOT_HELD, "you do not hold 9s", tile("9s"))
    e = refused(lambda: g.play(Action(A.DISCARD, 0)))
    assert (e.reason, str(e)) == (R.NO_TILE_CHOSEN, "choose a tile to discard")
    e = refused(lambda: g.play(Action(A.RIICHI, 0, tile("9p"))))
    assert (e.reason, str(e), e.fields["tile"]) == (R.RIICHI_DISCARD_NOT_ALLOWED, "you cannot declare riichi with that discard", tile("9p"))
    e = refused(lambda: g.play(Action(A.TSUMO, 0)))
    assert (e.reason, str(e)) == (R.CANNOT_WIN, "your hand cannot win on this tile")
    assert Action(A.ANKAN, 0, tile("1m")) in g.legal_actions(0)
    ankan_2p = Action(A.ANKAN, 0, tile("2p"))
    e = refused(lambda: g.play(ankan_2p))
    assert (e.reason, str(e), e.fields["action"]) == (R.ACTION_NOT_POSSIBLE, "that closed kan 2p is not possible", ankan_2p)
    kakan = Action(A.KAKAN, 0, tile("1m"))
    e = refused(lambda: g.play(kakan))
    assert (e.reason, str(e), e.fields["action"]) == (R.ACTION_NOT_NOW, "added kan 1m is not possible now", kakan)
    assert g.actions == []  # nothing refused was played


def test_apply_refuses_what_it_cannot_apply_with_a_reason() -> None:
    g = scripted_game(RIICHI, ["1111m258p258s123z", None, None, None], "9p")
    e = refused(lambda: g.apply(Action(A.DISCARD, 0, tile("9s"))))  # _take: the tile is not in the hand
    assert (e.reason, str(e), e.fields["seat"], e.fields["tile"]) == (R.TILE_NOT_HELD, "you do not hold 9s", 0, tile("9s"))
    g = scripted_game(RIICHI, ["1111m258p258s123z", None, None, None], "9p")
    e = refused(lambda: g.apply(Action(A.PASS, 0)))
    assert (e.reason, str(e)) == (R.NOT_A_TURN_ACTION, "pass is not a turn action")
    g = _call_window()
    e = refused(lambda: g.apply(Action(A.PASS, 3)))
    assert (e.reason, str(e), e.fields["seat"]) == (R.NO_CALL_ON_TILE, "you have no call on this tile", 3)


def test_call_window_refusals_give_their_reason() -> None:
    g = _call_window()
    e = refused(lambda: g.play(Action(A.PASS, 3)))
    assert (e.reason, str(e), e.fields["seat"]) == (R.NO_CALL_ON_TILE, "you have no call on this tile", 3)
    e = refused(lambda: g.play(Action(A.CHI, 3, -1, (tile("3p"), tile("4p")))))
    assert (e.reason, str(e)) == (R.CHI_ONLY_FROM_LEFT, "you can only chi a tile discarded by the player on your left")
    e = refused(lambda: g.play(Action(A.CHI, 2, -1, (tile("4p"), tile("6p")))))
    assert (e.reason, str(e)) == (R.CHI_ONLY_FROM_PREVIOUS, "you can only chi from the player before you")
    wrong_pon = Action(A.PON, 2, -1, (tile("4p"), tile("6p")))
    e = refused(lambda: g.play(wrong_pon))
    assert (e.reason, str(e), e.fields["action"]) == (R.ACTION_NOT_POSSIBLE, "that pon with 46p is not possible", wrong_pon)
    e = refused(lambda: g.play(Action(A.RON, 1)))
    assert (e.reason, str(e)) == (R.CANNOT_WIN, "your hand cannot win on this tile")
    play(g, "2x")
    e = refused(lambda: g.play(Action(A.PASS, 2)))
    assert (e.reason, str(e), e.fields["seat"]) == (R.ALREADY_ANSWERED, "you have already answered this discard", 2)


def test_r_4_4_kuikae_refusal_gives_its_reason() -> None:
    g = _call_window()
    play(g, "2x", "1c34p")
    assert g.phase is Phase.TURN and g.current == 1
    e = refused(lambda: g.play(Action(A.DISCARD, 1, tile("2p"))))
    assert (e.reason, str(e), e.fields["tile"]) == (R.KUIKAE, "you cannot discard that tile right after calling (kuikae)", tile("2p"))


def test_after_riichi_a_held_tile_is_refused_as_must_tsumogiri() -> None:
    g = scripted_game(RIICHI, ["123m456p789s11z22z", None, None, None], "9m???4m")
    play(g, "0r9m")
    while g.current != 0 or g.phase is not Phase.TURN:
        seat = g.to_act()[0]
        if g.phase is Phase.TURN:
            g.play(Action(A.DISCARD, seat, g.codes[g.drawn]))
        else:
            g.play(Action(A.PASS, seat))
    assert g.seats[0].riichi and g.codes[g.drawn] == tile("4m")
    e = refused(lambda: g.play(Action(A.DISCARD, 0, tile("1m"))))
    assert (e.reason, str(e), e.fields["tile"]) == (R.RIICHI_MUST_TSUMOGIRI, "after riichi you must discard the tile you drew", tile("1m"))


def test_a_move_after_the_end_is_refused_as_game_over() -> None:
    g = scripted_game(RIICHI, ["123m456p789s11z22z", None, None, None], "1z")
    play(g, "0t")
    assert g.over
    e = refused(lambda: g.play(Action(A.DISCARD, 0, tile("1m"))))
    assert (e.reason, str(e)) == (R.GAME_OVER, "the game is over")


def test_a_refusal_survives_pickling_with_its_reason() -> None:
    e = IllegalActionError("you do not hold 9s", reason=R.TILE_NOT_HELD, seat=0, tile=tile("9s"))
    back = pickle.loads(pickle.dumps(e))
    assert (str(back), back.reason, back.fields) == ("you do not hold 9s", R.TILE_NOT_HELD, {"seat": 0, "tile": tile("9s")})


def _raised_reasons(root: Path) -> tuple[set[str], list[str]]:
    """The Refusal members named by ``IllegalActionError(...)`` calls under ``root`` (any name
    passed as ``reason=``, and the members ``R.X``/``Refusal.X`` a helper passes on), and the
    calls that give no reason."""
    named: set[str] = set()
    bare: list[str] = []
    for path in sorted(root.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        uses_codes = "Refusal" in source  # only there is ``R`` the codes' alias
        for node in ast.walk(ast.parse(source)):
            if uses_codes and isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("R", "Refusal"):
                named.add(node.attr)
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if name == "IllegalActionError" and not any(k.arg == "reason" for k in node.keywords):
                bare.append(f"{path.relative_to(root.parent)}:{node.lineno}")
    return named, bare


def test_every_illegal_action_error_in_the_engine_gives_a_reason() -> None:
    named, bare = _raised_reasons(ENGINE)
    assert bare == []
    assert {r.name for r in Refusal} <= named  # every code is raised somewhere (none left stale)


def test_the_scan_catches_a_refusal_without_a_reason(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text('def f():\n    raise IllegalActionError("no")\n', encoding="utf-8")
    assert _raised_reasons(tmp_path)[1] == [f"{tmp_path.name}/m.py:2"]

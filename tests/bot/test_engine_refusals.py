"""bot/tables/refusals.py: every engine refusal code has a catalog message, read from the code
(never from the English sentence), its fields taken from the engine's refusal."""

from __future__ import annotations

import pytest

from bot import i18n
from bot.render.names import tile_name
from bot.tables.refusals import MESSAGES, UNKNOWN, EngineRefusal, placeholders, refusal
from engine.rules import find_ruleset
from engine.table.actions import Action, ActionType
from engine.table.game import IllegalActionError
from engine.table.refusal import Refusal
from engine.tiles import parse_tiles
from tests.engine.scripted import scripted_game

A = ActionType


def test_every_refusal_code_of_the_engine_has_a_catalog_message_with_its_japanese() -> None:
    missing = [r.value for r in Refusal if r not in MESSAGES]
    assert missing == []
    for reason, msgid in MESSAGES.items():
        assert placeholders(msgid) <= {"seat", "tile", "action"}, reason
        fields = {"seat": 2, "tile": "1m", "action": "pon"}
        assert i18n.t("ja", msgid, **fields) != msgid.format(**fields), reason  # translated
    assert len(set(MESSAGES.values())) == len(MESSAGES)  # one message per code


def test_the_message_follows_the_code_whatever_the_engine_s_words() -> None:
    # a reworded engine sentence keeps its Japanese: the code, not the text, picks the message
    action = Action(A.DISCARD, 1, 0)
    e = refusal(IllegalActionError("wait for your turn, please", reason=Refusal.NOT_YOUR_TURN, seat=1), action)
    assert e.msgid == "it is not your turn"
    assert e.sentence("ja") == "あなたの番ではありません"
    assert e.sentence("en") == str(e) == "wait for your turn, please"


def _refused(action: Action) -> EngineRefusal:
    """The bot's refusal of ``action`` by the dealer of a real game (who holds 1111m258p258s123z + 9p)."""
    g = scripted_game(find_ruleset("riichi"), ["1111m258p258s123z", None, None, None], "9p")
    with pytest.raises(IllegalActionError) as raised:
        g.play(action)
    return refusal(raised.value, action)


def test_a_real_refusal_names_the_engine_s_tile_in_the_reader_s_language() -> None:
    (white,) = parse_tiles("5z")
    e = _refused(Action(A.DISCARD, 0, white))
    assert isinstance(e, EngineRefusal) and e.msgid == "you do not hold {tile}"
    assert e.sentence("en") == "you do not hold 5z"
    assert e.sentence("ja") == i18n.t("ja", "you do not hold {tile}", tile=tile_name(white, "ja"))
    assert "白" in e.sentence("ja") and "持っていません" in e.sentence("ja")


def test_a_refused_move_reads_with_its_japanese_name() -> None:
    (one_m,) = parse_tiles("1m")
    e = _refused(Action(A.KAKAN, 0, one_m))
    assert e.msgid == "{action} is not possible now"
    assert e.sentence("en") == "added kan 1m is not possible now"
    kakan = i18n.t("ja", "added kan")
    assert kakan == "加槓"
    assert e.sentence("ja") == i18n.t("ja", "{action} is not possible now", action=f"{kakan} {tile_name(one_m, 'ja')}")


def test_a_code_without_a_message_still_reads_as_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(MESSAGES, Refusal.KUIKAE)
    e = refusal(IllegalActionError("you cannot discard that tile right after calling (kuikae)", reason=Refusal.KUIKAE), Action(A.DISCARD, 0, 0))
    assert e.msgid == UNKNOWN
    assert e.sentence("ja") == i18n.t("ja", UNKNOWN) != UNKNOWN
    assert e.sentence("en") == "you cannot discard that tile right after calling (kuikae)"

"""The engine's refusal of a move, told to the player in their language (raised by
:meth:`~bot.tables.acting.Acting.act`).

The engine stays English and knows nothing of catalogs: ``Game.play`` raises
:class:`~engine.table.game.IllegalActionError` with one English sentence, a reason code
(:class:`~engine.table.refusal.Refusal`) and the fields the sentence names. :func:`refusal` gives
the catalog message of that code (:data:`MESSAGES`, one for every code: tests/bot/
test_engine_refusals.py fails on a code without one), its fields (a tile, the move, a seat) taken
from the engine's fields, else from the refused action, and named in the reader's language where it
is shown. English readers get the engine's sentence word for word; a code this table does not know
(which that test keeps from being merged) reads, in other languages, as one catalog sentence saying
the move is not possible now.

Limits: words only; what is refused, and why, is the engine's (``Game.play``).
"""

from __future__ import annotations

from string import Formatter
from typing import Any

from bot.i18n import N_, Lang, t
from bot.render.names import tile_name
from bot.tables.model import TableError
from engine.table.actions import Action, ActionType
from engine.table.game import IllegalActionError
from engine.table.refusal import Refusal

A = ActionType
R = Refusal

#: each refusal code's catalog message, the engine's English sentence for it (game.py ``play``,
#: ``_why_illegal``, ``apply``); ``{tile}`` is a tile, ``{action}`` the refused move, ``{seat}`` a seat
MESSAGES: dict[Refusal, str] = {
    R.GAME_OVER: N_("the game is over"),
    R.NO_SUCH_SEAT: N_("there is no seat {seat}"),
    R.NOT_YOUR_TURN: N_("it is not your turn"),
    R.ALREADY_ANSWERED: N_("you have already answered this discard"),
    R.CHI_ONLY_FROM_LEFT: N_("you can only chi a tile discarded by the player on your left"),
    R.NO_CALL_ON_TILE: N_("you have no call on this tile"),
    R.CHI_ONLY_FROM_PREVIOUS: N_("you can only chi from the player before you"),
    R.RIICHI_MUST_TSUMOGIRI: N_("after riichi you must discard the tile you drew"),
    R.RIICHI_DISCARD_NOT_ALLOWED: N_("you cannot declare riichi with that discard"),
    R.KUIKAE: N_("you cannot discard that tile right after calling (kuikae)"),
    R.TILE_NOT_HELD: N_("you do not hold {tile}"),
    R.NO_TILE_CHOSEN: N_("choose a tile to discard"),
    R.CANNOT_WIN: N_("your hand cannot win on this tile"),
    R.ACTION_NOT_POSSIBLE: N_("that {action} is not possible"),
    R.ACTION_NOT_NOW: N_("{action} is not possible now"),
    R.NOT_A_TURN_ACTION: N_("{action} is not a turn action"),
}
UNKNOWN = N_("that move is not possible now")

#: a move's name in a refusal (the engine's ``NAMES``, as the buttons call them)
_MOVE_NAMES = {
    A.DISCARD: N_("discard"),
    A.RIICHI: N_("riichi"),
    A.TSUMO: N_("tsumo"),
    A.ANKAN: N_("closed kan"),
    A.KAKAN: N_("added kan"),
    A.KITA: N_("kita"),
    A.KYUUSHU: N_("nine terminals draw"),
    A.RON: N_("ron"),
    A.CHI: N_("chi"),
    A.PON: N_("pon"),
    A.DAIMINKAN: N_("open kan"),
    A.PASS: N_("pass"),
    A.OPEN_RIICHI: N_("open riichi"),
    A.DRAW: N_("draw"),
}


def placeholders(msgid: str) -> set[str]:
    """The ``{fields}`` a message names."""
    return {name for _, name, _, _ in Formatter().parse(msgid) if name}


class EngineRefusal(TableError):
    """A move the engine refused: ``sentence("en")`` is the engine's own sentence, other
    languages the catalog message of its reason code."""

    def __init__(self, engine_text: str, msgid: str, action: Action, /, **kw: Any) -> None:
        super().__init__(msgid, **kw)
        self.engine_text = engine_text
        self.action = action
        self.args = (engine_text,)

    def fields(self, lang: Lang) -> dict[str, Any]:
        out = dict(self.kw)
        if "tile" in out:
            out["tile"] = tile_name(out["tile"], lang)
        if "action" in out:
            a: Action = out["action"]
            name = t(lang, _MOVE_NAMES.get(a.type, "move"))
            out["action"] = f"{name} {tile_name(a.tile, lang)}" if a.tile >= 0 else name
        return out

    def sentence(self, lang: Lang = "en") -> str:
        if lang == "en":
            return self.engine_text
        return super().sentence(lang)


def refusal(error: IllegalActionError, action: Action) -> EngineRefusal:
    """The refusal a player reads for ``action``, which the engine refused with ``error``: the
    message of its reason code, its fields from the engine's (else from ``action``)."""
    text = str(error)
    msgid = MESSAGES.get(error.reason)
    if msgid is None:
        return EngineRefusal(text, UNKNOWN, action)
    given = {"seat": action.seat, "tile": action.tile, "action": action} | error.fields
    return EngineRefusal(text, msgid, action, **{name: given[name] for name in placeholders(msgid)})

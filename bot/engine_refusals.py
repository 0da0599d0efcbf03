"""The engine's refusal of a move, told to the player in their language.

The engine stays English and knows nothing of catalogs: ``Game.play`` raises
:class:`~engine.table.game.IllegalActionError` with one English sentence. :func:`refusal` reads
which of its sentences that is and gives the matching catalog message, its fields (a tile, the
move) taken from the refused action and named in the reader's language where it is shown. English
readers get the engine's sentence word for word; a sentence this table does not know reads, in
other languages, as one catalog sentence saying the move is not possible now.
"""

from __future__ import annotations

import re
from typing import Any

from bot.i18n import N_, Lang, t
from bot.render.names import tile_name
from bot.tables import TableError
from engine.table.actions import Action, ActionType
from engine.table.game import IllegalActionError

A = ActionType

#: the engine's sentences (game.py ``play``/``_why_illegal``/``apply``), each a catalog message;
#: ``{tile}`` is the refused action's tile, ``{action}`` the refused action, ``{seat}`` the seat
_SENTENCES = (
    N_("the game is over"),
    N_("there is no seat {seat}"),
    N_("it is not your turn"),
    N_("you have already answered this discard"),
    N_("you can only chi a tile discarded by the player on your left"),
    N_("you have no call on this tile"),
    N_("you can only chi from the player before you"),
    N_("after riichi you must discard the tile you drew"),
    N_("you cannot declare riichi with that discard"),
    N_("you cannot discard that tile right after calling (kuikae)"),
    N_("you do not hold {tile}"),
    N_("choose a tile to discard"),
    N_("your hand cannot win on this tile"),
    N_("that {action} is not possible"),
    N_("you cannot {action} now"),
    N_("{action} is not a turn action"),
)
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


def _pattern(msgid: str) -> re.Pattern[str]:
    return re.compile(re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>.+)", re.escape(msgid)))


_PATTERNS = [(_pattern(m), m) for m in _SENTENCES]


class EngineRefusal(TableError):
    """A move the engine refused: ``sentence("en")`` is the engine's own sentence, other
    languages the catalog message it matches."""

    def __init__(self, engine_text: str, msgid: str, action: Action, **kw: Any) -> None:
        super().__init__(msgid, **kw)
        self.engine_text = engine_text
        self.action = action
        self.args = (engine_text,)

    def fields(self, lang: Lang) -> dict[str, Any]:
        a = self.action
        out = dict(self.kw)
        if "tile" in out:
            out["tile"] = tile_name(a.tile, lang)
        if "action" in out:
            name = t(lang, _MOVE_NAMES.get(a.type, "move"))
            out["action"] = f"{name} {tile_name(a.tile, lang)}" if a.tile >= 0 else name
        return out

    def sentence(self, lang: Lang = "en") -> str:
        if lang == "en":
            return self.engine_text
        return super().sentence(lang)


def refusal(error: IllegalActionError, action: Action) -> EngineRefusal:
    """The refusal a player reads for ``action``, which the engine refused with ``error``."""
    text = str(error)
    for pattern, msgid in _PATTERNS:
        m = pattern.fullmatch(text)
        if m is not None:
            return EngineRefusal(text, msgid, action, **m.groupdict())
    return EngineRefusal(text, UNKNOWN, action)

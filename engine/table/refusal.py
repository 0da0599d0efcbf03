"""Why the table refused a move: :class:`IllegalActionError` and its reason codes.

``Game.play`` (and ``Game.apply`` on a move it cannot apply) raises :class:`IllegalActionError`
whose ``str`` is one English sentence for logs and English readers, whose ``reason`` is a stable
:class:`Refusal` code and whose ``fields`` hold the data the sentence names (``seat``, ``tile`` as a
tile code, ``action`` as the refused :class:`~engine.table.actions.Action`). A client that shows
the refusal in another language reads the code and the fields, never the sentence. The engine
knows no catalog: adding a code here means giving it a message where refusals are translated.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Refusal(StrEnum):
    """A reason the table refuses a move; the value is the stable code."""

    GAME_OVER = "game_over"  # the game is over
    NO_SUCH_SEAT = "no_such_seat"  # there is no seat {seat}
    NOT_YOUR_TURN = "not_your_turn"
    ALREADY_ANSWERED = "already_answered"  # the seat has answered this discard already
    CHI_ONLY_FROM_LEFT = "chi_only_from_left"  # a chi by a seat with nothing to say on this discard
    NO_CALL_ON_TILE = "no_call_on_tile"
    CHI_ONLY_FROM_PREVIOUS = "chi_only_from_previous"  # a chi by a seat that may call this discard otherwise
    RIICHI_MUST_TSUMOGIRI = "riichi_must_tsumogiri"
    RIICHI_DISCARD_NOT_ALLOWED = "riichi_discard_not_allowed"
    KUIKAE = "kuikae"
    TILE_NOT_HELD = "tile_not_held"
    NO_TILE_CHOSEN = "no_tile_chosen"
    CANNOT_WIN = "cannot_win"
    ACTION_NOT_POSSIBLE = "action_not_possible"  # a move of an allowed kind, not with these tiles
    ACTION_NOT_NOW = "action_not_now"  # a kind of move the seat has not now
    NOT_A_TURN_ACTION = "not_a_turn_action"  # apply(): a call-window move on a turn


class IllegalActionError(ValueError):
    """An action that is not allowed now: ``str(e)`` is the English sentence meant for the player,
    ``reason`` why, ``fields`` what it names (``seat``, ``tile``, ``action``)."""

    def __init__(self, message: str, *, reason: Refusal, **fields: Any) -> None:
        super().__init__(message)
        self.reason = reason
        self.fields: dict[str, Any] = fields

    def __reduce__(self) -> tuple[Any, ...]:
        # the keyword-only reason would be lost by ValueError's own pickling (args only)
        return (_rebuild, (str(self), self.reason, self.fields))


def _rebuild(message: str, reason: Refusal, fields: dict[str, Any]) -> IllegalActionError:
    return IllegalActionError(message, reason=reason, **fields)

"""The mjai event stream of a running game as one seat hears it, and that seat's answers read back.

A live mjai seat (``bot/ai/mjai_seat.py``) hears the same events the mjai export writes
(:class:`~engine.logs.export.MjaiHandWriter` over the export's own :class:`~engine.logs.export.Recorder`),
written as the game's actions come instead of once the hand is over, with every other seat's hidden
tiles masked: their starting hands in ``start_kyoku`` and their draws in ``tsumo`` are ``"?"``
(what mjai.app sends a player). ``start_game`` carries the seat's ``id``. What is revealed when a
hand ends (a winner's hand, a tenpai hand at a draw) is sent as the export writes it.

:func:`parse_answer` turns one answer (``dahai``, ``reach``, ``chi``, ``pon``, ``daiminkan``,
``ankan``, ``kakan``, ``hora``, ``ryukyoku``, ``nukidora``, ``none``) into the engine action among
the seat's legal actions, or raises :class:`AnswerError` with what is wrong. mjai's riichi is two
answers (``reach``, then the ``dahai`` once the seat has heard its own ``reach``): the first gives
:data:`REACH`, the second is read with ``after_reach=True`` into the engine's one riichi action.

Pure: no I/O; the caller owns the process and the clock.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from engine.logs.export import MjaiHandWriter, Recorder, mjai_start_game
from engine.logs.mjai import tile_code
from engine.logs.record import HandRecord
from engine.rules.base import Ruleset
from engine.table.actions import Action, ActionType, canon
from engine.table.game import Game
from engine.tiles import RED

__all__ = ["REACH", "AnswerError", "MjaiStream", "parse_answer", "seat_view"]

A = ActionType
#: :func:`parse_answer`'s value for a ``reach`` answer: the seat's discard comes next
REACH: Final = "reach"


class AnswerError(ValueError):
    """An answer that is not one of the seat's legal moves; the message says why."""


def seat_view(ev: dict[str, Any], seat: int) -> dict[str, Any]:
    """The event as ``seat`` may hear it: other seats' starting tiles and draws hidden."""
    kind = ev.get("type")
    if kind == "start_kyoku":
        tehais = [h if s == seat else ["?"] * len(h) for s, h in enumerate(ev["tehais"])]
        return {**ev, "tehais": tehais}
    if kind == "tsumo" and ev.get("actor") != seat:
        return {**ev, "pai": "?"}
    if kind == "start_game":
        return {**ev, "id": seat}
    return ev


class MjaiStream:
    """The full-information mjai events of one game so far (start_game, then each hand's events as
    they happen, end_kyoku, end_game), kept in step with the table's actions by :meth:`sync`.
    :meth:`view` gives them as one seat hears them."""

    def __init__(self, ruleset: Ruleset, seed: int | str, names: Sequence[str]) -> None:
        game = Game(ruleset, seed)
        self.game = game
        self.n = game.players
        self._rec = Recorder(game)
        self.events: list[dict[str, Any]] = [mjai_start_game(game, names)]
        self._done = 0  # hands of the recorder already closed with end_kyoku
        self._hand: HandRecord | None = None
        self._writer: MjaiHandWriter | None = None
        self._written = 0  # events of the open hand already written
        self._ended = False
        self._collect()

    def follows(self, actions: Sequence[Action]) -> bool:
        """Whether ``actions`` extend what this stream has seen (else it must be built anew)."""
        seen = self.game.actions
        return len(seen) <= len(actions) and list(actions[: len(seen)]) == list(seen)

    def sync(self, actions: Sequence[Action]) -> None:
        """Apply the actions the stream has not seen (``actions`` must extend them, :meth:`follows`)."""
        for a in actions[len(self.game.actions) :]:
            self._rec.step(a)
            self._collect()

    def view(self, seat: int, start: int = 0) -> list[dict[str, Any]]:
        """Events ``start`` onwards as ``seat`` hears them."""
        return [seat_view(ev, seat) for ev in self.events[start:]]

    def _collect(self) -> None:
        rec = self._rec
        while self._hand is not None and self._done < len(rec.hands) and rec.hands[self._done] is self._hand:
            self._flush()  # the hand ended: its last events, then end_kyoku
            self.events.append({"type": "end_kyoku"})
            self._done += 1
            self._hand = self._writer = None
        if self._hand is None and rec.current is not None:
            self._hand = rec.current
            self._writer = MjaiHandWriter(rec.current, self.n)
            self._written = 0
            self.events.append(self._writer.start(rec.current))
        if self._hand is not None:
            self._flush()
        elif self.game.over and not self._ended:
            self._ended = True
            self.events.append({"type": "end_game", "scores": list(self.game.final_scores)})

    def _flush(self) -> None:
        assert self._hand is not None and self._writer is not None
        fresh = self._hand.events[self._written :]
        self._written += len(fresh)
        for e in fresh:
            self.events += self._writer.event(e)


def _tile(pai: Any) -> int:
    try:
        return tile_code(pai)
    except Exception as e:  # the importer's own error: not a tile
        raise AnswerError(f"{json.dumps(pai)[:20]} is not a tile") from e


def _tiles(ev: dict[str, Any]) -> tuple[int, ...]:
    raw = ev.get("consumed")
    if not isinstance(raw, list) or not raw:
        raise AnswerError('"consumed" is not a list of tiles')
    return tuple(_tile(p) for p in raw)


def _one(legal: list[Action], what: str, pick: Any) -> Action:
    found = [a for a in legal if pick(a)]
    if not found:
        raise AnswerError(f"{what} is not a legal move now")
    return found[0]


def parse_answer(answer: Any, game: Game, seat: int, *, after_reach: bool = False) -> Action | str:
    """The legal action (or :data:`REACH`) an mjai answer of ``seat`` names; :class:`AnswerError`
    if it names none. ``answer`` is the decoded JSON value of one line."""
    if not isinstance(answer, dict) or not isinstance(answer.get("type"), str):
        raise AnswerError('the answer is not a JSON object with a "type"')
    kind = answer["type"]
    actor = answer.get("actor", seat)
    if kind != "none" and actor != seat:
        raise AnswerError(f'"actor" is {json.dumps(actor)[:12]}, not the seat {seat}')
    legal = list(game.legal_actions(seat))
    if after_reach and kind != "dahai":
        raise AnswerError(f"{kind} after reach: a riichi discard (dahai) is due")
    if kind == "none":
        return _one(legal, "none (pass)", lambda a: a.type is A.PASS)
    if kind == "dahai":
        tile = _tile(answer.get("pai"))
        want = A.RIICHI if after_reach else A.DISCARD
        return _one(legal, f"dahai {answer.get('pai')}", lambda a: a.type is want and a.tile == tile)
    if kind == "reach":
        _one(legal, "reach", lambda a: a.type is A.RIICHI)
        return REACH
    if kind in ("chi", "pon"):
        own = canon(_tiles(answer))
        want = A.CHI if kind == "chi" else A.PON
        return _one(legal, kind, lambda a: a.type is want and a.tiles == own and not a.shift)
    if kind == "daiminkan":
        return _one(legal, kind, lambda a: a.type is A.DAIMINKAN)
    if kind == "ankan":
        kinds = {c & ~RED for c in _tiles(answer)}
        if len(kinds) != 1:
            raise AnswerError("ankan of different tiles")
        k = kinds.pop()
        return _one(legal, kind, lambda a: a.type is A.ANKAN and a.tile & ~RED == k and not a.shift)
    if kind == "kakan":
        k = _tile(answer.get("pai")) & ~RED
        return _one(legal, kind, lambda a: a.type is A.KAKAN and a.tile & ~RED == k and not a.shift)
    if kind == "hora":
        target = answer.get("target", seat)
        want = A.TSUMO if target == seat else A.RON
        return _one(legal, "hora", lambda a: a.type is want)
    if kind == "ryukyoku":
        return _one(legal, kind, lambda a: a.type is A.KYUUSHU)
    if kind == "nukidora":
        return _one(legal, kind, lambda a: a.type is A.KITA)
    raise AnswerError(f"{json.dumps(kind)[:20]} is not an mjai move")

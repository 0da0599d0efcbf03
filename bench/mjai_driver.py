"""Bench-only: an mjai program playing a seat of a game, as a subprocess, one event per line.

The events are :class:`engine.logs.mjai_live.MjaiStream`'s (the mjai export's own writer, the
stream the bot's live mjai seats hear), masked for the seat by :func:`~engine.logs.mjai_live.seat_view`
(the other seats' starting hands and draws become ``"?"``). :class:`MjaiSeat` sends the program
the events it has not heard, one JSON line per event, reads its one answer per event, and turns
the answer to the last event into one of the engine's legal actions with
:func:`~engine.logs.mjai_live.parse_answer`; an answer that is not legal is counted as a fault and
replaced by the seat's plain action (tsumogiri, or pass). Synchronous and without deadlines, for
the bench only: the bot's own seat is bot/ai/mjai_seat.py. Four-player games only (mjai itself
and the libriichi state its bots use know no sanma).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.logs.mjai_live import REACH, AnswerError, MjaiStream, parse_answer, seat_view
from engine.table.actions import Action, ActionType
from engine.table.game import Game

A = ActionType


def _plain(game: Game, seat: int, legal: Sequence[Action]) -> Action:
    """The seat's plain action: pass a call, else discard the drawn tile (or the first discard)."""
    for a in legal:
        if a.type is A.PASS:
            return a
    drawn = game.code(game.drawn) if game.drawn >= 0 else -1
    discards = [a for a in legal if a.type is A.DISCARD]
    for a in discards:
        if a.tile == drawn:
            return a
    return discards[0] if discards else legal[0]


class MjaiSeat:
    """An mjai program playing one seat: started per game, fed that seat's view of the stream."""

    def __init__(self, command: Sequence[str], seat: int, cwd: Path | None = None) -> None:
        self.seat = seat
        self.proc = subprocess.Popen(
            [*command, str(seat)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
            cwd=cwd,
        )
        self.sent = 0  # events of the stream sent so far
        self.faults = 0
        self.fault_log: list[str] = []  # the first few faults: the answer and the legal actions
        self.skip_reach = False  # a reach event already sent on the program's own request

    def _send(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        """Send events, read one answer each; the answer to the last one."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        lines = []
        for ev in events:
            if ev["type"] == "start_kyoku":
                self.skip_reach = False
            if self.skip_reach and ev["type"] == "reach" and ev["actor"] == self.seat:
                self.skip_reach = False
                continue
            lines.append(json.dumps(seat_view(ev, self.seat)) + "\n")
        if not lines:
            return {"type": "none"}
        self.proc.stdin.write("".join(lines))
        self.proc.stdin.flush()
        answer: dict[str, Any] = {"type": "none"}
        for _ in lines:
            answer = json.loads(self.proc.stdout.readline() or '{"type": "none"}')
        return answer

    def act(self, game: Game, stream: MjaiStream) -> Action:
        stream.sync(game.actions)
        new, self.sent = stream.events[self.sent :], len(stream.events)
        answer = self._send(new)
        legal = list(game.legal_actions(self.seat))
        try:
            a = parse_answer(answer, game, self.seat)
            if a == REACH:
                answer = self._send([{"type": "reach", "actor": self.seat}])
                self.skip_reach = True  # the stream's own reach event will not be sent again
                a = parse_answer(answer, game, self.seat, after_reach=True)
        except AnswerError:
            self.faults += 1
            if len(self.fault_log) < 3:
                self.fault_log.append(
                    f"seat {self.seat} answered {answer} to {new[-1:]}; legal {[x.text for x in legal]}"
                )
            return _plain(game, self.seat, legal)
        assert isinstance(a, Action)
        return a

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


__all__ = ["MjaiSeat"]

"""Bench-only: a live game as mjai events, and an mjai program playing a seat as a subprocess.

:class:`MjaiStream` applies the game's actions through the mjai exporter's re-play recorder
(``engine.logs.export``), so the events are the ones ``to_mjai`` writes for the finished game,
produced as the game goes; :meth:`MjaiStream.view` masks them for one seat (the other seats'
starting hands and draws become ``"?"``). :class:`MjaiSeat` sends a program those events, one
JSON line per event, reads its one answer per event, and turns the answer to the last event into
one of the engine's legal actions; an answer that is not legal is counted as a fault and replaced
by the seat's plain action (tsumogiri, or pass). Four-player games only for now (mjai itself and
the libriichi state its bots use know no sanma). Kept small on purpose: the bot's own mjai seat
(issue 22) is the shared code this will later use.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.logs.export import _mjai_hand, _Recorder, mjai_tile
from engine.logs.mjai import tile_code
from engine.table.actions import Action, ActionType
from engine.table.game import Game, Phase
from engine.tiles import RED

A = ActionType


class MjaiStream:
    """The mjai events of a game being played; apply every action through :meth:`apply`."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.rec = _Recorder(game)
        self.events: list[dict[str, Any]] = [
            {"type": "start_game", "names": [f"p{s}" for s in range(game.players)]}
        ]
        self._done = 0  # hands of ``rec.hands`` fully written
        self._written = 0  # events of the current hand written (start_kyoku included)
        self._synced = False

    def apply(self, a: Action) -> None:
        self.rec.step(a)
        self._synced = False

    def sync(self) -> list[dict[str, Any]]:
        """Every event so far (the hand in progress up to now)."""
        if self._synced:
            return self.events
        n = self.game.players
        while self._done < len(self.rec.hands):
            out: list[dict[str, Any]] = []
            _mjai_hand(self.rec.hands[self._done], n, out)
            self.events += out[self._written :]
            self._done += 1
            self._written = 0
        if self.rec.current is not None:
            out = []
            _mjai_hand(self.rec.current, n, out)
            out.pop()  # its end_kyoku: the hand goes on
            self.events += out[self._written :]
            self._written = len(out)
        elif self.game.over and self.events[-1]["type"] != "end_game":
            self.events.append({"type": "end_game", "scores": list(self.game.final_scores)})
        self._synced = True
        return self.events

    @staticmethod
    def view(ev: dict[str, Any], seat: int) -> dict[str, Any]:
        """The event as ``seat`` sees it: other seats' starting hands and draws hidden."""
        t = ev["type"]
        if t == "start_game":
            return {**ev, "id": seat}
        if t == "start_kyoku":
            return {**ev, "tehais": [h if s == seat else ["?"] * len(h) for s, h in enumerate(ev["tehais"])]}
        if t == "tsumo" and ev["actor"] != seat:
            return {**ev, "pai": "?"}
        return ev


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
            lines.append(json.dumps(MjaiStream.view(ev, self.seat)) + "\n")
        if not lines:
            return {"type": "none"}
        self.proc.stdin.write("".join(lines))
        self.proc.stdin.flush()
        answer: dict[str, Any] = {"type": "none"}
        for _ in lines:
            answer = json.loads(self.proc.stdout.readline() or '{"type": "none"}')
        return answer

    def act(self, game: Game, stream: MjaiStream) -> Action:
        events = stream.sync()
        new, self.sent = events[self.sent :], len(events)
        answer = self._send(new)
        legal = list(game.legal_actions(self.seat))
        riichi = False
        if answer.get("type") == "reach" and game.phase is Phase.TURN:
            riichi = True
            answer = self._send([{"type": "reach", "actor": self.seat}])
            self.skip_reach = True  # the stream's own reach event will not be sent again
        a = self._action(game, answer, legal, riichi)
        if a is None:
            self.faults += 1
            if len(self.fault_log) < 3:
                self.fault_log.append(
                    f"seat {self.seat} answered {answer} to {new[-1:]}; legal {[x.text for x in legal]}"
                )
            return _plain(game, self.seat, legal)
        return a

    def _action(self, game: Game, ans: dict[str, Any], legal: list[Action], riichi: bool) -> Action | None:
        t = ans.get("type")
        try:
            if t == "dahai":
                code = tile_code(ans["pai"])
                want = A.RIICHI if riichi else A.DISCARD
                return next((a for a in legal if a.type is want and a.tile == code), None)
            if t == "hora":
                return next((a for a in legal if a.type in (A.TSUMO, A.RON)), None)
            if t == "none":
                return next((a for a in legal if a.type is A.PASS), None)
            if t in ("chi", "pon"):
                want = A.CHI if t == "chi" else A.PON
                consumed = sorted(tile_code(p) for p in ans["consumed"])
                return next((a for a in legal if a.type is want and sorted(a.tiles) == consumed), None)
            if t == "daiminkan":
                return next((a for a in legal if a.type is A.DAIMINKAN), None)
            if t == "ankan":
                kind = tile_code(ans["consumed"][0]) & ~RED
                return next((a for a in legal if a.type is A.ANKAN and a.tile & ~RED == kind), None)
            if t == "kakan":
                kind = tile_code(ans["pai"]) & ~RED
                return next((a for a in legal if a.type is A.KAKAN and a.tile & ~RED == kind), None)
            if t == "ryukyoku":
                return next((a for a in legal if a.type is A.KYUUSHU), None)
            if t == "nukidora":
                return next((a for a in legal if a.type is A.KITA), None)
        except (KeyError, ValueError, TypeError, IndexError):
            return None
        return None

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


__all__ = ["MjaiSeat", "MjaiStream", "mjai_tile"]

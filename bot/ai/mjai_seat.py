"""AI seats played by outside programs that speak mjai, run as subprocesses.

The bot's owner lists the programs a club may seat (``JANTAKU_MJAI_BOTS`` in ``.env``,
:mod:`bot.config`); a seat of kind ``mjai:<name>`` is played by that program, one process per seat
per game, with the seat number (0-3) added as its last argument (as mjai.app and Mortal's
``mortal.py`` expect): started at the seat's first decision, started again (and fed the game so far) if it died
or faulted, killed with its whole process group when the table ends, is abandoned or the bot
stops. No Discord user names a command: only the listed names are seatable.

The protocol is mjai.app's (what the ``mjai`` package's bots and mjai.app submissions read): each
line the program reads is a JSON array of the events since its last answer, up to the one it can
act on; it writes one JSON answer per line. The events are :class:`engine.logs.mjai_live.MjaiStream`'s
(the mjai export's own writer) as the seat sees them: other seats' starting tiles and draws are
``"?"``. After a start the first line holds the game from its ``start_game``. A riichi is two answers
(``reach``, then after the seat's own ``reach`` event its ``dahai``).

A malformed or illegal answer, a line over :data:`LINE_LIMIT` bytes, silence past the decision's
deadline or a program that exits is a fault: the seat makes its auto action (what the turn clock
makes for a human), the host's log gets a line, and the process is killed (it is restarted and fed
the game again at the next decision, so a late answer never lands on a later question). After
:data:`MAX_FAULTS` faults in a game the seat plays the built-in AI for the rest of it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from engine.logs.mjai_live import REACH, AnswerError, MjaiStream, parse_answer
from engine.rules.base import Ruleset
from engine.table.actions import Action
from engine.table.game import Game

log = logging.getLogger(__name__)

PREFIX = "mjai:"
#: faults in one game after which the seat plays the built-in AI
MAX_FAULTS = 3
#: the longest answer line read (bytes); a longer one is a fault
LINE_LIMIT = 16 * 1024
#: a decision's deadline is the table's turn time, never more than this (the table waits on it)
DEADLINE_CAP = 10.0
#: the first answer after a start may take this much longer (programs load models at start-up)
STARTUP_GRACE = 10.0


def is_mjai(kind: str | None) -> bool:
    return kind is not None and kind.startswith(PREFIX)


def program_of(kind: str) -> str:
    return kind[len(PREFIX) :]


class Fault(Exception):
    """What went wrong with one answer, as a short phrase for the log."""


class MjaiProcess:
    """One running program: a line of events out, a line of answer back."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    @classmethod
    async def start(cls, argv: Sequence[str]) -> MjaiProcess:
        proc = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            limit=LINE_LIMIT,
            start_new_session=True,  # its own process group: closing it kills what it started too
        )
        return cls(proc)

    @property
    def alive(self) -> bool:
        return self.proc.returncode is None

    async def send(self, events: list[dict[str, Any]]) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        stdin.write((json.dumps(events, separators=(",", ":")) + "\n").encode())
        await stdin.drain()

    async def answer(self) -> Any:
        """The next non-empty line, decoded (:class:`Fault` if it is not JSON or the program ended)."""
        stdout = self.proc.stdout
        assert stdout is not None
        while True:
            try:
                line = await stdout.readline()
            except (ValueError, asyncio.LimitOverrunError):
                raise Fault(f"an answer longer than {LINE_LIMIT} bytes") from None
            if not line:
                raise Fault("the program exited")
            if line.strip():
                break
        try:
            return json.loads(line)
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise Fault(f"an answer that is not JSON ({line[:40]!r})") from None

    async def close(self, last: list[dict[str, Any]] | None = None) -> None:
        """Send ``last`` (end_game) if it still listens, then kill its process group and reap it."""
        proc = self.proc
        if last and self.alive:
            with suppress(Exception):
                await asyncio.wait_for(self.send(last), 1.0)
                assert proc.stdin is not None
                proc.stdin.close()  # end of input: a program that reads to the end stops by itself
                await asyncio.wait_for(proc.wait(), 1.0)
        with suppress(ProcessLookupError, PermissionError):  # whatever it started goes too
            os.killpg(proc.pid, signal.SIGKILL)
        if proc.returncode is None:
            with suppress(ProcessLookupError):
                proc.kill()
        with suppress(Exception):
            await asyncio.wait_for(proc.wait(), 5.0)


@dataclass(slots=True)
class Decision:
    action: Action
    fault: str | None = None  # what went wrong (the action is then the auto action)
    notice: str | None = None  # a sentence for the table channel (the seat fell back)


@dataclass(slots=True)
class MjaiSeat:
    """One seat's program, its view of the game and its faults in this game."""

    name: str
    argv: tuple[str, ...]
    seat: int
    stream: MjaiStream
    proc: MjaiProcess | None = None
    sent: int = 0  # events of the stream the program has heard
    faults: int = 0
    fallen: bool = False  # plays the built-in AI for the rest of the game
    heard_reach: bool = False  # the program was sent its own reach before the engine's riichi

    async def close(self, final: Game | None = None) -> None:
        """Stop the program; ``final``, a game that is over, is told to it first (up to end_game)."""
        if self.proc is not None:
            last = None
            if final is not None and final.over and self.stream.follows(final.actions):
                self.stream.sync(final.actions)
                last = self.stream.view(self.seat, self.sent)
                if self.heard_reach:
                    last = _without_reach(last, self.seat)
            await self.proc.close(last)
            self.proc = None

    async def _ask(self, events: list[dict[str, Any]], deadline: float) -> Any:
        proc = self.proc
        assert proc is not None

        async def exchange() -> Any:
            await proc.send(events)  # under the deadline too: a program that stops reading fills the pipe
            return await proc.answer()

        return await asyncio.wait_for(exchange(), max(0.05, deadline - asyncio.get_running_loop().time()))

    async def decide(self, g: Game, seat_time: float, grace: float = STARTUP_GRACE) -> Action:
        """The program's move for the seat within ``seat_time`` (and ``grace`` more just after a
        start), or :class:`Fault`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seat_time
        if self.proc is None or not self.proc.alive:
            if self.proc is not None:
                await self.proc.close()
            try:
                self.proc = await MjaiProcess.start((*self.argv, str(self.seat)))
            except OSError as e:
                self.proc = None
                raise Fault(f"the program could not be started ({e.strerror or e})") from None
            self.sent = 0
            self.heard_reach = False  # a new program hears the whole game, riichi included
            deadline += grace
        self.stream.sync(g.actions)
        events = self.stream.view(self.seat, self.sent)
        self.sent = len(self.stream.events)
        if self.heard_reach:  # (a kan's dora may come before it)
            self.heard_reach = False
            events = _without_reach(events, self.seat)
        try:
            ans = await self._ask(events, deadline)
            first = parse_answer(ans, g, self.seat)
            if first != REACH:
                assert isinstance(first, Action)
                return first
            reach = [{"type": "reach", "actor": self.seat}]
            ans = await self._ask(reach, deadline)
            second = parse_answer(ans, g, self.seat, after_reach=True)
            assert isinstance(second, Action)
            self.heard_reach = True  # the stream writes this riichi as reach + dahai: skip that reach
            return second
        except TimeoutError:
            raise Fault(f"no answer within {seat_time:.1f} s") from None
        except AnswerError as e:
            raise Fault(f"an illegal answer ({e})") from None
        except (BrokenPipeError, ConnectionResetError):
            raise Fault("the program exited") from None


def _without_reach(events: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """``events`` without their first ``reach`` of ``seat`` (which the program already heard)."""
    for i, ev in enumerate(events):
        if ev.get("type") == "reach" and ev.get("actor") == seat:
            return events[:i] + events[i + 1 :]
    return events


class MjaiSeats:
    """Every table's mjai seats, by (table, seat); the programs the owner listed, by name."""

    def __init__(self, programs: dict[str, tuple[str, ...]] | None = None) -> None:
        self.programs: dict[str, tuple[str, ...]] = dict(programs or {})
        self.seats: dict[tuple[int, int], MjaiSeat] = {}
        self.deadline_cap = DEADLINE_CAP
        self.startup_grace = STARTUP_GRACE

    def kinds(self) -> list[str]:
        return [PREFIX + n for n in self.programs]

    def plays(self, table_id: int, seat: int, kind: str, g: Game) -> bool:
        """Whether the seat's program is asked for its move in ``g`` (it is listed and has not
        fallen back to the built-in AI in this game)."""
        if program_of(kind) not in self.programs:
            return False
        s = self.seats.get((table_id, seat))
        return s is None or not s.fallen or not s.stream.follows(g.actions)

    def seat(self, table_id: int, seat: int) -> MjaiSeat | None:
        return self.seats.get((table_id, seat))

    async def decide(
        self,
        table_id: int,
        seat: int,
        kind: str,
        g: Game,
        *,
        ruleset: Ruleset,
        seed: str,
        names: Sequence[str],
        turn_seconds: float,
        auto: Callable[[], Action],
    ) -> Decision | None:
        """The seat's move; None when the built-in AI plays the seat (it fell back, or its program
        is no longer listed)."""
        name = program_of(kind)
        s = self.seats.get((table_id, seat))
        if s is None or not s.stream.follows(g.actions):
            if s is not None:  # the table went back (a write that failed): the program starts over
                await s.close()
            argv = self.programs.get(name)
            if argv is None:
                log.warning("table %s seat %s: mjai program %r is not listed; the built-in AI plays", table_id, seat, name)
                return None
            s = self.seats[(table_id, seat)] = MjaiSeat(name, argv, seat, MjaiStream(ruleset, seed, names))
        if s.fallen:
            return None
        try:
            return Decision(await s.decide(g, min(turn_seconds, self.deadline_cap), self.startup_grace))
        except Fault as e:
            a = auto()
            s.faults += 1
            log.warning(
                "table %s seat %s (mjai %s): %s at move %s; auto action %s (fault %s of %s)",
                table_id, seat, name, e, len(g.actions), a.text, s.faults, MAX_FAULTS,
            )
            await s.close()  # restarted at the next decision, fed the game again
            notice = None
            if s.faults >= MAX_FAULTS:
                s.fallen = True
                log.warning("table %s seat %s (mjai %s): the built-in AI plays the rest of the game", table_id, seat, name)
                notice = (
                    f"{names[seat]}: the mjai program {name} made {s.faults} faulty moves, "
                    "so the built-in AI plays this seat for the rest of the game."
                )
            return Decision(a, str(e), notice)

    async def close_table(self, table_id: int, final: Game | None = None) -> None:
        """Stop the table's programs (the game ended, ``final``, or the table closed)."""
        for key in [k for k in self.seats if k[0] == table_id]:
            s = self.seats.pop(key)
            await s.close(final)

    async def close_all(self) -> None:
        for tid in {k[0] for k in self.seats}:
            await self.close_table(tid)

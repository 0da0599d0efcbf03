"""The worker-process pool that draws pictures: :class:`Renderer`.

Each worker is a child process running a :class:`WorkerProgram`'s command; jobs (a kind, its
arguments) go to it pickled over a pipe and come back as PNG bytes. The pool knows nothing of what
is drawn: the program says how to start a worker, how urgent each kind of job is, and how to draw a
job on the event loop when no worker can.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import os
import pickle
import sys
import time
from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["IN_FLIGHT", "RenderHook", "Renderer", "WorkerGone", "WorkerProgram"]

log = logging.getLogger(__name__)

#: (kind of picture, CPU seconds drawing it, seconds from asking to having it) -> None
RenderHook = Callable[[str, float, float], None]

IN_FLIGHT = 64  # jobs handed to one worker at a time (it orders them by the program's urgency)
_ROOT = str(Path(__file__).resolve().parents[2])


@dataclass(frozen=True)
class WorkerProgram:
    """What the workers run. ``command``: the Python code each worker process runs (``python -c``):
    it reads the pickled result of ``settings()`` as its first length-prefixed frame, answers
    ``(0, True, b"", 0.0)`` once ready, then answers each ``(job id, kind, args, kwargs)`` frame
    with ``(job id, ok, PNG or error text, CPU seconds)``. ``draw(kind, args, kwargs)``: the same job
    drawn on the event loop (no worker, or the worker failed it). ``urgency``: seconds a job of each
    kind may wait while more urgent ones go first (0.5 for a kind not listed)."""

    command: str
    draw: Callable[[str, tuple[Any, ...], dict[str, Any]], tuple[bytes, float]]
    urgency: Mapping[str, float]
    settings: Callable[[], Any]


class WorkerGone(Exception):
    """The render worker ended (or never started); the picture is drawn on the event loop."""


_Job = tuple[float, int, str, tuple[Any, ...], dict[str, Any], "asyncio.Future[tuple[bytes, float]]"]


@dataclass(eq=False)
class _Worker:
    proc: asyncio.subprocess.Process
    jobs: dict[int, asyncio.Future[tuple[bytes, float]]] = field(default_factory=dict)
    reader: asyncio.Task[None] | None = None


class Renderer:
    """Draws pictures (the jobs of a :class:`WorkerProgram`) in worker processes, so the event loop
    is never blocked by Pillow and PNG encoding.

    Each worker is a child process that reads jobs from a pipe and answers on another; the event
    loop writes and reads those pipes itself (no helper threads: a thread fighting the event loop
    for the GIL adds milliseconds to every hand-off). Jobs go to the least busy worker at once (at
    most :data:`IN_FLIGHT` each; more wait here), and a worker draws the most urgent first: a hand
    before a backlog of table pictures (:attr:`WorkerProgram.urgency`). The workers start (and
    draw every tile face once) when the renderer is built, so the first game does not wait for
    them; a worker that dies is replaced, and the pictures it owed are drawn on the event loop.
    ``workers=0`` draws everything on the event loop.
    """

    def __init__(self, workers: int, program: WorkerProgram) -> None:
        self.workers = max(0, workers)
        self.program = program
        self.on_render: RenderHook | None = None
        self._workers: list[_Worker] = []
        self._waiting: list[_Job] = []
        self._seq = 0
        self._pump_due = False
        self._closed = False
        self._starting: asyncio.Task[None] | None = None
        if self.workers:
            with suppress(RuntimeError):  # no running loop: start at the first picture instead
                self._starting = asyncio.get_running_loop().create_task(self._start(), name="jantaku-render-start")

    async def _start(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([_ROOT, *filter(None, [env.get("PYTHONPATH")])])
        for _ in range(self.workers - len(self._workers)):
            proc: asyncio.subprocess.Process | None = None
            try:
                proc = await asyncio.create_subprocess_exec(
                    sys.executable, "-c", self.program.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env
                )
                assert proc.stdin is not None and proc.stdout is not None
                options = pickle.dumps(self.program.settings(), pickle.HIGHEST_PROTOCOL)
                proc.stdin.write(len(options).to_bytes(4, "little") + options)
                ready = await _read_answer(proc.stdout)  # after the worker has drawn its tiles
                if ready is None or ready[0] != 0:
                    raise WorkerGone("the render worker did not start")
            except asyncio.CancelledError:  # closed while it started: it must not outlive us
                if proc is not None:
                    _kill(proc)
                raise
            except (OSError, WorkerGone) as e:
                log.warning("could not start a render worker (%s); drawing pictures on the event loop", e)
                self.workers = len(self._workers)
                break
            if self._closed:
                _kill(proc)
                return
            w = _Worker(proc)
            w.reader = asyncio.get_running_loop().create_task(self._read(w), name="jantaku-render-answers")
            self._workers.append(w)
        self._starting = None
        self._pump()

    async def wait_ready(self, timeout: float = 30.0) -> None:
        """Until the workers have started and drawn their tiles (tests and benchmarks)."""
        if self._starting is not None:
            await asyncio.wait_for(asyncio.shield(self._starting), timeout)

    def worker_pids(self) -> list[int]:
        return [w.proc.pid for w in self._workers if w.proc.returncode is None]

    async def png(self, kind: str, *args: Any, **kwargs: Any) -> bytes:
        t0 = time.perf_counter()
        data: bytes | None = None
        cpu = 0.0
        if self.workers and not self._closed:
            loop = asyncio.get_running_loop()
            if self._starting is None and len(self._workers) < self.workers:
                self._starting = loop.create_task(self._start(), name="jantaku-render-start")
            fut: asyncio.Future[tuple[bytes, float]] = loop.create_future()
            self._seq += 1
            heapq.heappush(self._waiting, (self.program.urgency.get(kind, 0.5), self._seq, kind, args, kwargs, fut))
            if not self._pump_due:  # the jobs asked for in this turn of the loop go in one write
                self._pump_due = True
                loop.call_soon(self._pump)
            try:
                data, cpu = await fut
            except WorkerGone:
                data = None
        if data is None:
            data, cpu = self.program.draw(kind, args, kwargs)
        if self.on_render is not None:
            self.on_render(kind, cpu, time.perf_counter() - t0)
        return data

    def _pump(self) -> None:
        """Hand waiting jobs to workers with room, most urgent first."""
        self._pump_due = False
        if self._starting is not None:
            return  # _start pumps when it is done
        if not self._workers:
            while self._waiting:  # no worker could start: the callers draw the pictures themselves
                fut = heapq.heappop(self._waiting)[-1]
                if not fut.done():
                    fut.set_exception(WorkerGone())
            return
        frames: dict[int, list[bytes]] = {}
        while self._waiting:
            i, w = min(enumerate(self._workers), key=lambda x: len(x[1].jobs))
            if len(w.jobs) >= IN_FLIGHT:
                break
            _, job_id, kind, args, kwargs, fut = heapq.heappop(self._waiting)
            if fut.done():  # its caller was cancelled
                continue
            data = pickle.dumps((job_id, kind, args, kwargs), pickle.HIGHEST_PROTOCOL)
            w.jobs[job_id] = fut
            frames.setdefault(i, []).extend((len(data).to_bytes(4, "little"), data))
        for i, parts in frames.items():  # one write (one wake-up of the worker) per worker
            stdin = self._workers[i].proc.stdin
            assert stdin is not None
            stdin.write(b"".join(parts))

    async def _read(self, w: _Worker) -> None:
        assert w.proc.stdout is not None
        try:
            while (answer := await _read_answer(w.proc.stdout)) is not None:
                job_id, ok, payload, cpu = answer
                fut = w.jobs.pop(job_id, None)
                if fut is not None and not fut.done():
                    if ok:
                        fut.set_result((payload, cpu))
                    else:
                        log.warning("the render worker could not draw a picture: %s", payload)
                        fut.set_exception(WorkerGone(payload))
                self._pump()
        except (ConnectionError, OSError):
            pass
        finally:
            if w in self._workers:
                self._workers.remove(w)
            for fut in w.jobs.values():
                if not fut.done():
                    fut.set_exception(WorkerGone())
            w.jobs.clear()
            if not self._closed:
                log.warning("a render worker ended (exit code %s); starting a new one", w.proc.returncode)
                _kill(w.proc)
                self._starting = asyncio.get_running_loop().create_task(self._start(), name="jantaku-render-start")

    def close(self) -> None:
        """Stop the workers and fail what they still owed (its callers draw it themselves)."""
        self._closed = True
        if self._starting is not None:
            self._starting.cancel()
        for w in self._workers:
            if w.reader is not None:
                w.reader.cancel()
            _kill(w.proc)
            for fut in w.jobs.values():
                if not fut.done():
                    fut.set_exception(WorkerGone())
        self._workers.clear()
        for item in self._waiting:
            if not item[-1].done():
                item[-1].set_exception(WorkerGone())
        self._waiting.clear()


def _kill(proc: asyncio.subprocess.Process) -> None:
    """End a worker: closing its transport kills it if it still runs and closes the pipes."""
    transport = getattr(proc, "_transport", None)
    if transport is not None:
        transport.close()
    elif proc.returncode is None:
        with suppress(ProcessLookupError):
            proc.kill()


async def _read_answer(stream: asyncio.StreamReader) -> tuple[Any, ...] | None:
    try:
        head = await stream.readexactly(4)
        body = await stream.readexactly(int.from_bytes(head, "little"))
    except asyncio.IncompleteReadError:
        return None
    answer: tuple[Any, ...] = pickle.loads(body)
    return answer


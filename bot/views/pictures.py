"""The picture jobs of a table's messages (what :mod:`bot.render.pictures` is asked to draw, as
``(kind, args, kwargs)``), and the worker program that draws them (:func:`renderer`: the
:class:`bot.outbound.workers.Renderer` pool running :func:`bot.render.pictures.worker_main`)."""

from __future__ import annotations

from typing import Any

from bot.i18n import DEFAULT, Lang
from bot.outbound.pacing import Gate
from bot.outbound.workers import Renderer, WorkerProgram
from bot.render import variants as vr
from bot.render.names import seat_name
from bot.render.pictures import DEADLINES, PngOptions, png_options, render_job, set_png_options
from bot.tables import Table
from bot.views.hand import hand_args
from bot.views.table import table_view

#: (kind of picture, its arguments, its keyword arguments)
Job = tuple[str, tuple[Any, ...], dict[str, Any]]


def renderer(workers: int, png: PngOptions | None = None) -> Renderer:
    """A pool of ``workers`` processes drawing :mod:`bot.render.pictures` (0: on the event loop),
    encoding with ``png`` (None: the module's defaults)."""
    if png is not None and workers <= 0:
        set_png_options(png)
    program = WorkerProgram(
        command="from bot.render.pictures import worker_main; worker_main()",
        draw=render_job,
        urgency=DEADLINES,
        settings=lambda: png or png_options(),
    )
    return Renderer(workers, program)


def table_job(t: Table, *, bottom: int = 0, style: str | None = None, lang: Lang = DEFAULT) -> Job:
    """The public table picture, seat ``bottom`` at the bottom."""
    return "table", (table_view(t, bottom=bottom, lang=lang),), {"style": style, "lang": lang}


def hand_job(t: Table, seat: int, *, style: str | None = None, lang: Lang = DEFAULT) -> Job:
    """A player's own hand (for that player only)."""
    args, kwargs = hand_args(t, seat, lang)
    return "hand", args, {"style": style, **kwargs}


def seat_job(t: Table, seat: int, *, style: str | None = None, lang: Lang = DEFAULT) -> Job:
    """The "Show my hand" picture (for that player only): the table drawn from their seat with
    their own hand under it."""
    args, kwargs = hand_args(t, seat, lang)
    return "seat", (table_view(t, bottom=seat, lang=lang), *args), {"style": style, **kwargs}


def result_job(t: Table, idx: int, *, style: str | None = None, lang: Lang = DEFAULT) -> Job | None:
    """The picture of a hand's winners (:func:`bot.render.variants.result_view`); None without a win."""
    g = t.game
    assert g is not None
    view = vr.result_view(g, idx, [seat_name(s, lang) for s in t.seats], lang=lang)
    if view is None or not view.wins:
        return None
    return "result", (view,), {"style": style, "lang": lang}


def final_job(t: Table, *, lang: Lang = DEFAULT) -> Job:
    """The final standings' picture."""
    g = t.game
    assert g is not None
    rows = [(seat_name(t.seats[s], lang), g.final_scores[s], g.final_results[s]) for s in g.ranking()]
    return "final", (rows,), {"lang": lang}


class Drawing:
    """Pictures drawn by ``renderer``, the urgent ones first: :meth:`gated` waits for a place at
    ``gate`` (hands before table pictures); the gate is held for the drawing only, never while a
    message is sent (a 429 may make that wait)."""

    def __init__(self, renderer: Renderer, gate: Gate) -> None:
        self.renderer = renderer
        self.gate = gate

    async def gated(self, job: Job, delay: float) -> bytes:
        await self.gate(delay)
        try:
            return await self.draw(job)
        finally:
            self.gate.leave()

    async def draw(self, job: Job) -> bytes:
        kind, args, kwargs = job
        return await self.renderer.png(kind, *args, **kwargs)

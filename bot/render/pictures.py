"""The bot's result pictures (a hand's result, final standings), the render worker, and the one
import place of every picture function.

Hand pictures are drawn in :mod:`bot.render.hand_pictures`, table pictures in
:mod:`bot.render.table_pictures`, the look-ups' cards in :mod:`bot.render.lookup` and the rules
card in :mod:`bot.render.rules_card`, all with :mod:`bot.render.canvas` (colours, PNG encoding and
the shared palette, the pieces pictures share); the hand, table and encoding names are also
importable from here, as the bot has always imported them.

Every ``render_*`` function takes ``style=`` ("faces" or "letters", :mod:`bot.render.tiles`) and
draws its tiles in it (None: the style in force), so the bot passes a player's or a club's choice
to the render worker with the picture's other arguments. Pure functions: data in, PNG bytes out
(no Discord, no I/O).

:func:`worker_main` is the bot's render worker process (see ``bot.presenter.Renderer``); it draws
pictures by name with :func:`render_job`.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from bot import i18n
from bot.i18n import DEFAULT, Lang, term

from .canvas import (
    BLANK,
    GOLD,
    HAND_W,
    HEADER,
    MUTED,
    PANEL,
    PANEL_EDGE,
    RESULT_DORA_W,
    TEXT,
    TEXT_CHUNK,
    Item,
    PngOptions,
    delta_colour,
    draw_items,
    drawing,
    fit_text,
    fixed_palette,
    hand_items_of,
    header_bar,
    indicator_strip,
    layout_items,
    meld_items_of,
    new_canvas,
    picture_texts,
    png_options,
    set_png_options,
    signed,
    to_png,
    value_line,
    wrap,
)
from .fonts import draw_text, picture_lang, text_font, text_in
from .hand_pictures import render_hand, render_tiles
from .table_pictures import render_open_table, render_seat_table, render_table
from .tiles import Style, tile_size
from .views import ResultView, WinView

__all__ = [
    "BLANK",
    "COLUMNS",
    "DEADLINES",
    "HAND_W",
    "RESULT_DORA_W",
    "TEXT_CHUNK",
    "PngOptions",
    "fixed_palette",
    "picture_texts",
    "png_options",
    "render_final",
    "render_hand",
    "render_job",
    "render_open_table",
    "render_result",
    "render_seat_table",
    "render_table",
    "render_tiles",
    "set_png_options",
    "to_png",
    "worker_main",
]

RESULT_ROW_W = 980  # a winning hand wider than this puts its melds, flowers and nuki on a row below


def _win_rows(w: WinView, tw: int) -> list[list[Item]]:
    """The tile rows of one win: the concealed tiles and the winning tile (framed, set apart), the
    melds and set-aside tiles after them or, when that row would be too wide, on a row below."""
    hand = hand_items_of(w.hand, w.win_tile, [], extra_gap=16, meld_gap=24, mark_extra=True)
    melds: list[Item] = []
    for m in w.melds:
        melds.extend(meld_items_of(m, gap=12 if melds else 0))
    if not melds:
        return [hand]
    hand_w, melds_w = layout_items(hand, tw)[1], layout_items(melds, tw)[1]
    if hand_w + 24 + melds_w <= max(RESULT_ROW_W, hand_w):
        melds[0].gap = 24
        return [hand + melds]
    return [hand, melds]


def render_result(view: ResultView, *, style: Style | None = None, lang: Lang = DEFAULT) -> bytes:
    """:func:`_result_png` with the tiles in ``style`` and its labels in ``lang`` (the view's texts
    are the caller's: :func:`bot.render.variants.result_view` writes them in a language)."""
    with drawing(style, lang):
        return _result_png(view)


def _result_png(view: ResultView) -> bytes:
    """A hand-end picture: the title (wrapped to the picture's width), then for every win its
    heading, the winning hand (the concealed tiles, the winning tile set apart in a gold frame, the
    melds and what lies beside the hand), the dora / ura indicators it counted and its breakdown;
    then every seat's payment.

    A line holding a tab is drawn as two columns (``"Riichi\\t1 han"``); payments are (name, change).
    """
    tw, th = tile_size(HAND_W)
    dtw, dth = tile_size(RESULT_DORA_W)
    pad = 18
    # ~12 px text and more on a phone (the picture is ~770 px wide, shown at ~360)
    f_title, f_head, f_line, f_small = text_font(30), text_font(27), text_font(26), text_font(21, "regular")
    line_h, head_h, title_h = 36, 36, 38
    rows = [_win_rows(w, tw) for w in view.wins]
    tiles_w = max([layout_items(r, tw)[1] for rs in rows for r in rs] + [0])
    text_w = max(
        [int(f_line.getlength(ln.replace("\t", "    "))) + 40 for w in view.wins for ln in w.lines]
        + [int(f_line.getlength(f"{n}  {signed(v)}")) + 40 for n, v in view.payments]
        + [0]
    )
    width = max(tiles_w + 2 * pad, min(text_w, RESULT_ROW_W) + 2 * pad, 600)
    inner = width - 2 * pad
    title = wrap(view.title, f_title, inner)
    heads = [wrap(w.heading, f_head, inner) for w in view.wins]
    bodies = [[wrap(ln, f_line, inner) if "\t" not in ln else [ln] for ln in w.lines] for w in view.wins]

    def win_h(i: int) -> int:
        w = view.wins[i]
        h = len(heads[i]) * head_h + 8
        h += sum(max(layout_items(r, tw)[2], th) + 10 for r in rows[i])
        if w.dora or w.ura:
            h += dth + 34
        return h + 10 + sum(len(b) for b in bodies[i]) * line_h + 14

    bar_h = len(title) * title_h + 14
    height = bar_h + 12 + sum(win_h(i) for i in range(len(view.wins)))
    if view.payments:
        height += 12 + 30 + len(view.payments) * line_h
    height += pad
    img, d = new_canvas(width, height)
    d.rectangle((0, 0, width, bar_h), fill=HEADER)
    for i, ln in enumerate(title):
        draw_text(d, (pad, 7 + i * title_h + title_h / 2), ln, font=f_title, fill=GOLD, anchor="lm")
    y = bar_h + 12
    for i, w in enumerate(view.wins):
        if i:
            d.line((pad, y - 8, width - pad, y - 8), fill=PANEL_EDGE, width=3)
        for ln in heads[i]:
            draw_text(d, (pad, y + head_h / 2), ln, font=f_head, fill=TEXT, anchor="lm")
            y += head_h
        y += 8
        for r in rows[i]:
            h = max(layout_items(r, tw)[2], th)
            draw_items(img, r, tw, pad, y + h)
            y += h + 10
        if w.dora or w.ura:

            def dora_tiles(codes: Sequence[int], x: int, baseline: int) -> int:
                draw_items(img, [Item(c) for c in codes], RESULT_DORA_W, x, baseline)
                return x + len(codes) * (dtw + 1)

            lang = picture_lang()
            groups = ((i18n.t(lang, "Dora"), w.dora), (i18n.t(lang, "Ura"), w.ura))
            indicator_strip(d, groups, pad, y, f_small, label_dy=10, tiles_dy=24 + dth, draw_tiles=dora_tiles)
            y += dth + 34
        d.line((pad, y, width - pad, y), fill=PANEL_EDGE, width=1)
        y += 10
        for wrapped in bodies[i]:
            for ln in wrapped:
                yy = y + line_h / 2
                if "\t" in ln:
                    left, right = ln.split("\t", 1)
                    value_line(
                        d, yy, left, right, f_line, x=pad, right=width - pad, name_w=inner - f_line.getlength(right) - 16
                    )
                else:
                    draw_text(d, (pad, yy), ln, font=f_line, fill=TEXT, anchor="lm")
                y += line_h
        y += 14
    if view.payments:
        y += 12
        d.line((pad, y - 6, width - pad, y - 6), fill=PANEL_EDGE, width=2)
        draw_text(d, (pad, y + 12), i18n.t(picture_lang(), "Payments"), font=f_small, fill=MUTED, anchor="lm")
        y += 30
        for name, delta in view.payments:
            amount = signed(delta)
            yy = y + line_h / 2
            draw_text(d, (pad, yy), fit_text(name, f_line, inner - f_line.getlength(amount) - 16), font=f_line, fill=TEXT, anchor="lm")
            draw_text(d, (width - pad, yy), amount, font=f_line, fill=delta_colour(delta), anchor="rm")
            y += line_h
    return to_png(img, palette="default")


#: the final standings' column headers (catalog context ``column``: "points" there are the
#: uma-adjusted result, not the score's unit)
COLUMNS = ("player", "score", "points")


def render_final(rows: Sequence[tuple[str, int, float]], *, title: str | None = None, lang: Lang = DEFAULT) -> bytes:
    """Final standings: one row per player (name, final score, points after uma/oka) in the order
    given (first = winner), under ``title`` ("Final standings" in ``lang`` when None)."""
    with text_in(lang):
        return _final_png(rows, i18n.t(lang, "Final standings") if title is None else title)


def _final_png(rows: Sequence[tuple[str, int, float]], title: str) -> bytes:
    lang = picture_lang()
    pad = 16
    row_h = 44
    f_title = text_font(24)
    f_row = text_font(21)
    f_head = text_font(14, "regular")
    width = 600
    height = pad + 40 + 24 + row_h * max(len(rows), 1) + pad
    img, d = new_canvas(width, height)
    header_bar(d, width, title, f_title, pad=pad, bar_h=40, text_y=16)
    y = pad + 40 + 4
    col_score = width - pad - 150
    col_pts = width - pad
    head_player, head_score, head_points = (term(lang, "column", c) for c in COLUMNS)
    draw_text(d, (pad + 56, y + 10), head_player, font=f_head, fill=MUTED, anchor="lm")
    draw_text(d, (col_score, y + 10), head_score, font=f_head, fill=MUTED, anchor="rm")
    draw_text(d, (col_pts, y + 10), head_points, font=f_head, fill=MUTED, anchor="rm")
    y += 22
    medal = [(236, 190, 50), (192, 198, 206), (205, 127, 60)]
    for i, (name, score, pts) in enumerate(rows):
        top = y + i * row_h
        if i % 2 == 0:
            d.rectangle((pad - 6, top, width - pad + 6, top + row_h - 2), fill=PANEL)
        cy = top + (row_h - 2) / 2
        r = 15
        d.ellipse((pad + 6, cy - r, pad + 6 + 2 * r, cy + r), fill=medal[i] if i < 3 else (90, 110, 100))
        draw_text(d, (pad + 6 + r, cy), str(i + 1), font=text_font(18), fill=(30, 30, 30), anchor="mm")
        draw_text(
            d,
            (pad + 56, cy), fit_text(name, f_row, col_score - pad - 56 - 110), font=f_row, fill=TEXT, anchor="lm"
        )
        draw_text(d, (col_score, cy), f"{score:,}", font=f_row, fill=TEXT, anchor="rm")
        draw_text(d, (col_pts, cy), signed(pts), font=f_row, fill=delta_colour(pts), anchor="rm")
    return to_png(img, palette="default")


_JOBS: dict[str, Callable[..., bytes]] = {
    "table": render_table,
    "seat": render_seat_table,
    "open": render_open_table,
    "hand": render_hand,
    "result": render_result,
    "final": render_final,
    "tiles": render_tiles,
}


def render_job(kind: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[bytes, float]:
    """Draw one picture (``kind`` names a ``render_*`` function); returns the PNG and the CPU
    seconds it took in this thread."""
    c0 = time.thread_time()
    png = _JOBS[kind](*args, **kwargs)
    return png, time.thread_time() - c0


def _read_frame(inp: Any) -> bytes | None:
    head = inp.read(4)
    if len(head) < 4:
        return None
    n = int.from_bytes(head, "little")
    body = inp.read(n)
    return body if len(body) == n else None


def _write_frame(out: Any, obj: object) -> None:
    data = pickle.dumps(obj, pickle.HIGHEST_PROTOCOL)
    out.write(len(data).to_bytes(4, "little") + data)
    out.flush()


#: How soon each kind of picture is wanted, seconds after the worker receives it: the worker draws
#: the job with the earliest deadline first, so a player's hand goes before a backlog of table
#: pictures, yet a table picture that has waited long enough is not starved by new hands.
DEADLINES = {"hand": 0.0, "seat": 0.0, "open": 0.0, "tiles": 0.0, "result": 0.25, "final": 0.25, "table": 1.0}


def worker_main() -> None:
    """The render worker process; see :func:`_worker_loop`. A bot that went away while the worker
    was answering (it closed the pipe) ends the worker quietly, with no traceback on stderr."""
    try:
        _worker_loop()
    except (BrokenPipeError, ConnectionResetError):
        with contextlib.suppress(OSError):  # nor when Python flushes stdout on the way out
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)


def _worker_loop() -> None:
    """The render worker process (``bot.presenter.Renderer`` starts it): reads length-prefixed
    pickled ``(job id, kind, args, kwargs)`` frames on stdin, answers ``(job id, ok, PNG or error
    text, CPU seconds)`` frames on stdout, and ends when stdin closes (so also when the bot that
    started it is killed). The first frame carries the :class:`PngOptions`; the first answer
    (``(0, True, b"", 0.0)``) says every tile face and the palette are drawn. A reader thread takes
    every job as soon as it arrives; the drawing thread takes them by :data:`DEADLINES`."""
    import heapq

    inp, out = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # stdout carries frames only
    with contextlib.suppress(AttributeError, OSError):  # pictures can wait; answering clicks cannot
        os.nice(5)
    first = _read_frame(inp)
    if first is None:
        return
    set_png_options(pickle.loads(first))
    from .tiles import warm_up

    warm_up()
    fixed_palette()
    _write_frame(out, (0, True, b"", 0.0))
    jobs: list[tuple[float, int, str, tuple[Any, ...], dict[str, Any]]] = []
    more = threading.Condition()
    ended = False

    def read() -> None:
        nonlocal ended
        while (frame := _read_frame(inp)) is not None:
            job_id, kind, args, kwargs = pickle.loads(frame)
            with more:
                heapq.heappush(jobs, (time.monotonic() + DEADLINES.get(kind, 0.5), job_id, kind, args, kwargs))
                more.notify()
        with more:
            ended = True
            more.notify()

    threading.Thread(target=read, name="jantaku-render-jobs", daemon=True).start()
    while True:
        with more:
            while not jobs and not ended:
                more.wait()
            if not jobs:
                return
            _, job_id, kind, args, kwargs = heapq.heappop(jobs)
        try:
            png, cpu = render_job(kind, args, kwargs)
            _write_frame(out, (job_id, True, png, cpu))
        except Exception as e:  # a bad picture must not take the worker down: the bot draws it itself
            _write_frame(out, (job_id, False, f"{type(e).__name__}: {e}", 0.0))


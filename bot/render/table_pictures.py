"""The table pictures: the public table, the table from one seat with that player's hand under it
(for them only), and a finished game's table with every hand under it (``/replay``).

Sized for a phone: Discord's mobile client shows a picture ~360 px wide, so what matters is a
tile's and a letter's size at that width. The table (:func:`_quadrant_image`) puts one seat in
each quadrant, two rivers of 6 side by side, and the round, dora, sticks and wall in a band
between them: ~12 river tiles across instead of the ~20 of a layout with a river on every side,
so a river tile is ~25 px on a phone. ``TableView.rotate`` keeps the older pinwheel (every seat's
tiles turned to face the centre), which is wider and meant for a desktop.

Pure functions: a :class:`~bot.render.views.TableView` in, PNG bytes out (no Discord, no I/O);
drawn with :mod:`bot.render.canvas`, the hand under the table with :mod:`bot.render.hand_pictures`.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from typing import Any

from PIL import Image, ImageDraw

from bot import i18n
from bot.i18n import DEFAULT, Lang

from .canvas import (
    CENTRE,
    CENTRE_EDGE,
    DEALER,
    DORA_W,
    GOLD,
    HAND_W,
    HEADER,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PLATE,
    PLATE_TURN,
    RIVER_W,
    TEXT,
    TMELD_W,
    Item,
    draw_items,
    draw_stick,
    drawing,
    fit_text,
    layout_items,
    meld_items_of,
    new_canvas,
    to_png,
    wind_letter,
    wind_word,
)
from .fonts import FontT, draw_text, picture_lang, text_font
from .hand_pictures import hand_fit, hand_image
from .tiles import BACK, Style, tile_size
from .views import Meld, SeatView, TableView

__all__ = ["render_open_table", "render_seat_table", "render_table"]


# --- the table ----------------------------------------------------------------------------------

_ROT = {
    0: None,
    1: Image.Transpose.ROTATE_90,
    2: Image.Transpose.ROTATE_180,
    3: Image.Transpose.ROTATE_270,
}

PAD = 8  # inside a cell
GAP = 6  # between cells
MARGIN = 8
MIN_SIDE = 190  # narrowest side column
MIN_CENTRE = 236  # smallest centre panel side
MIN_MELD_ROW = 56  # top row with three players: room for one line of the right seat's melds
PLATE_H = 28
HEADER_H = 36
RIVER_ROWS = 4  # rows of 6 reserved (more when a river is longer)


def _river_block(seat: SeatView, rows: int, mark_last: bool) -> Image.Image:
    """A seat's river in rows of 6, oriented for the bottom seat (first row at the top)."""
    tw, th = tile_size(RIVER_W)
    row_h = th + 2
    sideways: Collection[int] = set(seat.sideways)
    called: Collection[int] = set(seat.called)
    n = len(seat.discards)
    row_items: list[list[Item]] = []
    for r in range(math.ceil(n / 6)):
        row_items.append(
            [
                Item(
                    seat.discards[i],
                    sideways=i in sideways,
                    dim=i in called,
                    mark=mark_last and i == n - 1,
                )
                for i in range(r * 6, min(n, r * 6 + 6))
            ]
        )
    width = 5 * (tw + 1) + th + 4
    for items in row_items:
        width = max(width, layout_items(items, tw)[1] + 4)
    height = max(rows, len(row_items)) * row_h + 2
    img = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    for r, items in enumerate(row_items):
        draw_items(img, items, tw, 2, (r + 1) * row_h)
    return img


def _melds_block(melds: Sequence[Meld], max_w: int) -> Image.Image | None:
    """The seat's melds, flowing left to right and wrapping at ``max_w`` (bottom orientation)."""
    if not melds:
        return None
    tw, th = tile_size(TMELD_W)
    groups = []
    for m in melds:
        items = meld_items_of(m)
        _, w, h = layout_items(items, tw)
        groups.append((items, w, max(h, th)))
    lines: list[list[tuple[list[Item], int, int]]] = [[]]
    x = 0
    for g in groups:
        if lines[-1] and x + 8 + g[1] > max_w:
            lines.append([])
            x = 0
        x += (8 if lines[-1] else 0) + g[1]
        lines[-1].append(g)
    width = max(sum(g[1] for g in ln) + 8 * (len(ln) - 1) for ln in lines) + 4
    heights = [max(g[2] for g in ln) for ln in lines]
    img = Image.new("RGBA", (width, sum(heights) + 4 * (len(lines) - 1) + 4), (0, 0, 0, 0))
    y = 2
    for ln, lh in zip(lines, heights):
        x = 2
        for items, w, _ in ln:
            draw_items(img, items, tw, x, y + lh)
            x += w + 8
        y += lh + 4
    return img


def _turn(img: Image.Image, q: int) -> Image.Image:
    t = _ROT[q % 4]
    return img if t is None else img.transpose(t)


def _positions(n: int) -> list[int]:
    """Side of the table (0 bottom, 1 right, 2 top, 3 left) for relative seats 0..n-1."""
    return [0, 1, 3] if n == 3 else [0, 1, 2, 3]


def _plate(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], seat: SeatView, *, turn: bool) -> None:
    x0, y0, x1, y1 = box
    h = y1 - y0
    d.rounded_rectangle(box, radius=8, fill=PLATE_TURN if turn else PLATE)
    fg = (20, 20, 20) if turn else TEXT
    muted = (60, 50, 20) if turn else MUTED
    letter = wind_letter(seat.wind)
    r = (h - 8) / 2
    cx, cy = x0 + 6 + r, y0 + h / 2
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=DEALER if letter == "E" else (60, 70, 66))
    draw_text(d, (cx, cy), wind_word(letter), font=text_font(16), fill=(255, 255, 255), anchor="mm")
    f_score = text_font(17)
    score = f"{seat.score:,}"
    right = x1 - 8
    draw_text(d, (right, cy), score, font=f_score, fill=fg, anchor="rm")
    right -= int(f_score.getlength(score)) + 8
    if seat.riichi:
        draw_stick(d, right - 30, cy - 4, 30, 8)
        right -= 38
    f_name = text_font(17)
    name_x = cx + r + 7
    note = f" · {seat.note}" if seat.note else ""
    f_note = text_font(14, "regular")
    avail = right - name_x
    note_w = f_note.getlength(note) if note else 0
    if note and note_w > avail * 0.45:
        note = fit_text(note, f_note, avail * 0.45)
        note_w = f_note.getlength(note)
    name = fit_text(seat.name, f_name, avail - note_w)
    draw_text(d, (name_x, cy), name, font=f_name, fill=fg, anchor="lm")
    if note:
        draw_text(d, (name_x + f_name.getlength(name), cy + 1), note, font=f_note, fill=muted, anchor="lm")


def _rotated_text(
    text: str, f: FontT, fill: tuple[int, int, int], q: int, bg: tuple[int, int, int] | None
) -> Image.Image:
    w = int(f.getlength(text)) + 12
    h = int(f.size if hasattr(f, "size") else 14) + 10
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0) if bg is None else (*bg, 255))
    d = ImageDraw.Draw(img)
    draw_text(d, (w / 2, h / 2), text, font=f, fill=fill, anchor="mm")
    return _turn(img, q)


def _centre(
    canvas: Image.Image, box: tuple[int, int, int, int], view: TableView, sides: dict[int, int]
) -> None:
    d = ImageDraw.Draw(canvas)
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=14, fill=CENTRE, outline=CENTRE_EDGE, width=2)
    cx = (x0 + x1) / 2
    # scores on each side, facing the seat (left/right turned)
    f_side = text_font(14)
    for pos, seat_i in sides.items():
        seat = view.seats[seat_i]
        label = f"{wind_word(wind_letter(seat.wind))} {seat.score:,}"
        turn = view.turn == seat_i
        fill = (20, 20, 20) if turn else MUTED
        bg = PLATE_TURN if turn else None
        q = {0: 0, 1: 1, 2: 0, 3: 3}[pos]
        t = _rotated_text(label, f_side, fill, q, bg)
        xy: tuple[float, float]
        if pos == 0:
            xy = (cx - t.width / 2, y1 - 6 - t.height)
        elif pos == 2:
            xy = (cx - t.width / 2, y0 + 6)
        elif pos == 1:
            xy = (x1 - 6 - t.width, (y0 + y1) / 2 - t.height / 2)
        else:
            xy = (x0 + 6, (y0 + y1) / 2 - t.height / 2)
        canvas.paste(t, (int(xy[0]), int(xy[1])), t)
    # round, dora, sticks, wall
    inner_w = x1 - x0 - 2 * 34
    f_round = text_font(18)
    dtw, dth = tile_size(DORA_W)
    slots = max(view.dora_slots, len(view.dora_indicators))
    block_h = 24 + 16 + dth + 10 + 20
    top = (y0 + y1) / 2 - block_h / 2
    size = 18
    while size > 11 and f_round.getlength(view.round_text) > inner_w:
        size -= 1
        f_round = text_font(size)
    draw_text(d, (cx, top + 10), fit_text(view.round_text, f_round, inner_w), font=f_round, fill=TEXT, anchor="mm")
    if slots:  # no label where the ruleset has no dora (taiwan16)
        draw_text(d, (cx, top + 31), i18n.t(picture_lang(), "dora"), font=text_font(11, "regular"), fill=MUTED, anchor="mm")
    items = [Item(c) for c in view.dora_indicators] + [Item(BACK)] * (slots - len(view.dora_indicators))
    _, row_w, _ = layout_items(items, DORA_W)
    draw_items(canvas, items, DORA_W, int(cx - row_w / 2), int(top + 40 + dth))
    y = top + 40 + dth + 18
    f_info = text_font(14)
    wall = i18n.t(picture_lang(), "wall {n}", n=view.wall_left) if view.wall_left is not None else ""
    sticks = f"× {view.riichi_sticks}"
    sw = 30 + 4 + f_info.getlength(sticks)
    ww = f_info.getlength(wall)
    total = sw + (16 + ww if wall else 0)
    x = cx - total / 2
    draw_stick(d, x, y - 4, 30, 8)
    draw_text(d, (x + 34, y), sticks, font=f_info, fill=TEXT, anchor="lm")
    if wall:
        draw_text(d, (x + sw + 16, y), wall, font=f_info, fill=TEXT, anchor="lm")


def _table_image(view: TableView) -> Image.Image:
    n = len(view.seats)
    if n not in (3, 4):
        raise ValueError(f"a table has 3 or 4 seats, got {n}")
    return _pinwheel_image(view) if view.rotate else _quadrant_image(view)


# --- the upright table: one quadrant per seat (what the bot sends) -------------------------------

Q_PAD = 5  # inside a seat's quadrant
Q_GAP = 5  # between quadrants, and around the centre band
Q_MARGIN = 5
Q_PLATE_H = 30
Q_HEADER_H = 32
#: side -> (column, row) of its quadrant: bottom-left is the viewer, the next seat (on their
#: right) bottom-right, the opposite seat top-right, the one on their left top-left
QUADRANT = {0: (0, 1), 1: (1, 1), 2: (1, 0), 3: (0, 0)}


def _centre_lines(view: TableView, max_w: int) -> list[list[tuple[str, Any]]]:
    """The centre's content as lines of pieces (``("text", (str, font, colour))``, ``("dora",
    items)``, ``("sticks", text)``): the round; then the dora indicators, the riichi sticks and
    the wall, on one line when that fits in ``max_w``, else the dora on a line of their own."""
    f_round = text_font(20)
    size = 20
    while size > 12 and f_round.getlength(view.round_text) > max_w:
        size -= 1
        f_round = text_font(size)
    lines: list[list[tuple[str, Any]]] = [[("text", (fit_text(view.round_text, f_round, max_w), f_round, TEXT))]]
    slots = max(view.dora_slots, len(view.dora_indicators))
    dora: list[tuple[str, Any]] = []
    if slots:  # no label where the ruleset has no dora (taiwan16)
        items = [Item(c) for c in view.dora_indicators] + [Item(BACK)] * (slots - len(view.dora_indicators))
        dora = [("text", (i18n.t(picture_lang(), "dora"), text_font(15, "regular"), MUTED)), ("dora", items)]
    info: list[tuple[str, Any]] = [("sticks", f"× {view.riichi_sticks}")]
    if view.wall_left is not None:
        info.append(("text", (i18n.t(picture_lang(), "wall {n}", n=view.wall_left), text_font(17), TEXT)))
    if _pieces_width(dora + info) <= max_w:
        lines.append(dora + info)
    else:
        lines += [x for x in (dora, info) if x]
    return lines


def _piece_size(piece: tuple[str, Any]) -> tuple[int, int]:
    kind, what = piece
    if kind == "text":
        text, f, _ = what
        return int(f.getlength(text)), 22
    if kind == "dora":
        _, w, h = layout_items(what, DORA_W)
        return w, max(h, tile_size(DORA_W)[1])
    return 34 + int(text_font(17).getlength(what)), 22  # a stick and its count


def _pieces_width(pieces: Sequence[tuple[str, Any]]) -> int:
    return sum(_piece_size(p)[0] for p in pieces) + 14 * max(len(pieces) - 1, 0)


def _draw_centre(canvas: Image.Image, box: tuple[int, int, int, int], view: TableView) -> None:
    """The table's centre in ``box``: the round, the dora indicators, the riichi sticks and the
    wall, each line centred, the block in the middle of the box."""
    d = ImageDraw.Draw(canvas)
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=10, fill=CENTRE, outline=CENTRE_EDGE, width=2)
    lines = _centre_lines(view, x1 - x0 - 2 * Q_PAD)
    heights = [max(_piece_size(p)[1] for p in ln) for ln in lines]
    y = (y0 + y1) / 2 - (sum(heights) + 6 * (len(lines) - 1)) / 2
    for ln, h in zip(lines, heights):
        x = (x0 + x1) / 2 - _pieces_width(ln) / 2
        mid = y + h / 2
        for kind, what in ln:
            w = _piece_size((kind, what))[0]
            if kind == "text":
                text, f, colour = what
                draw_text(d, (x, mid), text, font=f, fill=colour, anchor="lm")
            elif kind == "dora":
                draw_items(canvas, what, DORA_W, int(x), int(y + h))
            else:
                draw_stick(d, x, mid - 4, 30, 8)
                draw_text(d, (x + 34, mid), what, font=text_font(17), fill=TEXT, anchor="lm")
            x += w + 14
        y += h + 6


def _centre_height(view: TableView, max_w: int) -> int:
    lines = _centre_lines(view, max_w)
    return sum(max(_piece_size(p)[1] for p in ln) for ln in lines) + 6 * (len(lines) - 1) + 2 * Q_PAD + 4


def _quadrant_image(view: TableView) -> Image.Image:
    """The upright table, laid out for a phone (Discord shows it ~360 px wide). Each seat gets a
    quadrant — its name plate, its river in rows of 6 (as in real play), its melds under the river
    on the right — and the quadrants go round the table as the seats do: the viewer bottom-left,
    the next seat bottom-right, the opposite seat top-right, the seat on the viewer's left
    top-left; the centre (round, dora, sticks, wall) is a band between the two rows, or with three
    players the empty top-right quadrant. Two rivers side by side rather than three (left, centre,
    right) make the picture about 12 river tiles wide instead of 20, so a river tile is ~25 px on a
    phone instead of ~16; scores live on the plates, so the centre needs no side columns."""
    n = len(view.seats)
    positions = _positions(n)
    side_of = {(view.bottom + rel) % n: positions[rel] for rel in range(n)}  # seat -> side
    pos_seat = {pos: s for s, pos in side_of.items()}

    def rows(pos: int) -> int:  # river rows reserved: as many as the longer river of its row of quadrants
        row = QUADRANT[pos][1]
        same = [p for p in pos_seat if QUADRANT[p][1] == row]
        return max([RIVER_ROWS] + [math.ceil(len(view.seats[pos_seat[p]].discards) / 6) for p in same])

    rivers = {pos: _river_block(view.seats[s], rows(pos), view.last_discard == s) for pos, s in pos_seat.items()}
    inner = max(b.width for b in rivers.values())
    melds = {pos: _melds_block(view.seats[s].melds, inner) for pos, s in pos_seat.items()}
    inner = max([inner] + [m.width for m in melds.values() if m is not None])
    cell_w = inner + 2 * Q_PAD
    width = 2 * Q_MARGIN + 2 * cell_w + Q_GAP

    def cell_h(pos: int) -> int:
        m = melds.get(pos)
        return Q_PLATE_H + 4 + rivers[pos].height + (4 + m.height if m is not None else 0) + 2 * Q_PAD

    row_h = [max([cell_h(p) for p in (3, 2) if p in rivers]), max(cell_h(0), cell_h(1))]
    band_h = 0 if n == 3 else _centre_height(view, width - 2 * Q_MARGIN - 2 * Q_PAD)
    tops = [Q_HEADER_H + Q_GAP]
    tops.append(tops[0] + row_h[0] + Q_GAP + (band_h + Q_GAP if band_h else 0))
    footer_h = 26 if view.footer else 0
    height = tops[1] + row_h[1] + Q_MARGIN + footer_h

    img, d = new_canvas(width, height)
    d.rectangle((0, 0, width, Q_HEADER_H), fill=HEADER)
    f_head = text_font(18)
    clock_w = 0
    if view.clock:
        clock_w = int(f_head.getlength(view.clock)) + 16
        draw_text(d, (width - 8, Q_HEADER_H / 2), view.clock, font=f_head, fill=GOLD, anchor="rm")
    draw_text(d, (8, Q_HEADER_H / 2), fit_text(view.title, f_head, width - 16 - clock_w), font=f_head, fill=TEXT, anchor="lm")

    def box(c: int, r: int) -> tuple[int, int, int, int]:
        x = Q_MARGIN + c * (cell_w + Q_GAP)
        return x, tops[r], x + cell_w, tops[r] + row_h[r]

    for pos, seat_i in pos_seat.items():
        seat = view.seats[seat_i]
        x0, y0, x1, y1 = box(*QUADRANT[pos])
        d.rounded_rectangle((x0, y0, x1, y1), radius=10, fill=PANEL, outline=PANEL_EDGE, width=1)
        _plate(d, (x0 + Q_PAD, y0 + Q_PAD, x1 - Q_PAD, y0 + Q_PAD + Q_PLATE_H), seat, turn=view.turn == seat_i)
        river = rivers[pos]
        y = y0 + Q_PAD + Q_PLATE_H + 4
        img.paste(river, (x0 + Q_PAD, y), river)
        m = melds[pos]
        if m is not None:  # on the right, as the melds lie at a real table
            img.paste(m, (x1 - Q_PAD - m.width, y + river.height + 4), m)
    if n == 3:
        _draw_centre(img, box(1, 0), view)
    else:
        top = tops[0] + row_h[0] + Q_GAP
        _draw_centre(img, (Q_MARGIN, top, width - Q_MARGIN, top + band_h), view)
    if view.footer:
        f_foot = text_font(16, "regular")
        draw_text(d, (8, height - footer_h / 2 - 2), fit_text(view.footer, f_foot, width - 16), font=f_foot, fill=MUTED, anchor="lm")
    return img


# --- the turned table: each seat's tiles face the centre (``TableView.rotate``) -------------------


def _pinwheel_image(view: TableView) -> Image.Image:
    n = len(view.seats)
    positions = _positions(n)
    side_of = {(view.bottom + rel) % n: positions[rel] for rel in range(n)}  # seat -> side
    tw, th = tile_size(RIVER_W)
    rows = max([RIVER_ROWS] + [math.ceil(len(s.discards) / 6) for s in view.seats])

    rivers: dict[int, Image.Image] = {}
    for seat_i, pos in side_of.items():
        block = _river_block(view.seats[seat_i], rows, view.last_discard == seat_i)
        rivers[pos] = _turn(block, pos) if view.rotate else block

    def river_cell(pos: int) -> tuple[int, int]:
        b = rivers.get(pos)
        if b is None:
            return 0, 0
        return b.width + 2 * PAD, b.height + PLATE_H + 6 + 2 * PAD

    # column / row sizes from the rivers (left, middle, right; top, middle, bottom) ...
    widths = [
        max(river_cell(3)[0], MIN_SIDE),
        max(river_cell(0)[0], river_cell(2)[0], MIN_CENTRE),
        max(river_cell(1)[0], MIN_SIDE),
    ]
    heights = [
        max(river_cell(2)[1], MIN_MELD_ROW),
        max(river_cell(1)[1], river_cell(3)[1], MIN_CENTRE),
        max(river_cell(0)[1], MIN_MELD_ROW),
    ]
    # ... then each side's melds, in the corner on its right-hand side (pinwheel), which may grow
    corner = {0: (2, 2), 1: (2, 0), 2: (0, 0), 3: (0, 2)}  # side -> (column, row)
    melds: dict[int, Image.Image] = {}
    for seat_i, pos in side_of.items():
        c, r = corner[pos]
        limit = (heights[r] if (view.rotate and pos % 2) else widths[c]) - 2 * PAD
        m = _melds_block(view.seats[seat_i].melds, limit)
        if m is not None:
            melds[pos] = _turn(m, pos) if view.rotate else m
    for pos, m in melds.items():
        c, r = corner[pos]
        widths[c] = max(widths[c], m.width + 2 * PAD)
        heights[r] = max(heights[r], m.height + 2 * PAD)
    cols = [MARGIN, MARGIN + widths[0] + GAP, MARGIN + widths[0] + GAP + widths[1] + GAP]
    top0 = HEADER_H + GAP
    rows_y = [top0, top0 + heights[0] + GAP, top0 + heights[0] + GAP + heights[1] + GAP]
    width = cols[2] + widths[2] + MARGIN
    footer_h = 24 if view.footer else 0
    height = rows_y[2] + heights[2] + MARGIN + footer_h

    img, d = new_canvas(width, height)
    # header
    d.rectangle((0, 0, width, HEADER_H), fill=HEADER)
    f_head = text_font(17)
    clock_w = 0
    if view.clock:
        clock_w = int(f_head.getlength(view.clock)) + 20
        draw_text(d, (width - 12, HEADER_H / 2), view.clock, font=f_head, fill=GOLD, anchor="rm")
    draw_text(
        d,
        (12, HEADER_H / 2),
        fit_text(view.title, f_head, width - 24 - clock_w),
        font=f_head,
        fill=TEXT,
        anchor="lm",
    )

    def rect(c: int, r: int) -> tuple[int, int, int, int]:
        return cols[c], rows_y[r], cols[c] + widths[c], rows_y[r] + heights[r]

    def union(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])

    # pinwheel: each side owns its river cell and the corner on its right-hand side
    river_box = {0: rect(1, 2), 1: rect(2, 1), 2: rect(1, 0), 3: rect(0, 1)}
    meld_box = {pos: rect(c, r) for pos, (c, r) in corner.items()}
    pos_seat = {pos: s for s, pos in side_of.items()}
    for pos, seat_i in pos_seat.items():
        seat = view.seats[seat_i]
        rc, mc = river_box[pos], meld_box[pos]
        d.rounded_rectangle(union(rc, mc), radius=12, fill=PANEL, outline=PANEL_EDGE, width=1)
        # name plate on the outer edge (top for the side seats)
        if pos == 0:
            pbox = (rc[0] + PAD, rc[3] - PAD - PLATE_H, rc[2] - PAD, rc[3] - PAD)
        else:
            pbox = (rc[0] + PAD, rc[1] + PAD, rc[2] - PAD, rc[1] + PAD + PLATE_H)
        _plate(d, pbox, seat, turn=view.turn == seat_i)
        # river, against the centre
        b = rivers[pos]
        if pos == 0:
            xy = ((rc[0] + rc[2] - b.width) // 2, rc[1] + PAD)
        elif pos == 2:
            xy = ((rc[0] + rc[2] - b.width) // 2, rc[3] - PAD - b.height)
        elif pos == 1:
            xy = (rc[0] + PAD, pbox[3] + 6)
        else:
            xy = (rc[2] - PAD - b.width, pbox[3] + 6)
        img.paste(b, xy, b)
        # melds, in the corner next to the river and the seat's outer edge
        m = melds.get(pos)
        if m is not None:
            if pos == 0:
                mxy = (mc[0] + PAD, mc[3] - PAD - m.height)
            elif pos == 1:
                mxy = (mc[2] - PAD - m.width, mc[3] - PAD - m.height)
            elif pos == 2:
                mxy = (mc[2] - PAD - m.width, mc[1] + PAD)
            else:
                mxy = (mc[0] + PAD, mc[1] + PAD)
            img.paste(m, mxy, m)
    _centre(img, rect(1, 1), view, {pos: s for pos, s in pos_seat.items()})
    if view.footer:
        draw_text(
            d,
            (12, height - footer_h / 2 - 2),
            fit_text(view.footer, text_font(14, "regular"), width - 24),
            font=text_font(14, "regular"),
            fill=MUTED,
            anchor="lm",
        )
    return img


def render_table(view: TableView, *, style: Style | None = None, lang: Lang = DEFAULT) -> bytes:
    """The public table picture: header (title, clock), each seat with its name plate (wind,
    name, score, riichi stick), river in rows of 6 (riichi tile sideways, called-away tiles dimmed)
    and melds, and the centre (round, dora indicators, riichi sticks, wall count); laid out as
    :func:`_quadrant_image` says (``view.rotate``: the pinwheel, tiles facing the centre). The
    view's texts are the caller's; ``lang`` is the language of the picture's own words (winds,
    "dora", the wall)."""
    with drawing(style, lang):
        return to_png(_table_image(view), palette="default")


#: tile widths of the hand under the table in :func:`render_seat_table`, the largest that fits
SEAT_HAND_WIDTHS = (HAND_W, 44, 38, 32)


def render_seat_table(
    view: TableView,
    concealed: Sequence[int],
    melds: Sequence[Meld],
    drawn: int | None,
    *,
    title: str = "",
    style: Style | None = None,
    lang: Lang = DEFAULT,
) -> bytes:
    """One player's own picture: the table as :func:`render_table` draws it from ``view`` (their
    seat is ``view.bottom``), and under it, next to their river, their hand as :func:`render_hand`
    draws it, with smaller tiles (:data:`SEAT_HAND_WIDTHS`) where it would be wider than the table
    (a phone shrinks the whole picture to its width). The table part shows only what ``view`` holds
    (public), the hand part only the arguments given: the caller passes the viewer's own hand and
    nobody else's."""
    with drawing(style, lang):
        table = _table_image(view)
        hand = hand_image(concealed, melds, drawn, title=title, tile_w=_seat_hand_w(concealed, melds, drawn, table.width))
        img, d = new_canvas(max(table.width, hand.width), table.height + hand.height)
        d.rectangle((0, 0, img.width, _header_h(view)), fill=HEADER)  # the header bar spans a wider hand too
        img.paste(table, ((img.width - table.width) // 2, 0))
        img.paste(hand, ((img.width - hand.width) // 2, table.height))
        return to_png(img, palette="default")


def _seat_hand_w(concealed: Sequence[int], melds: Sequence[Meld], drawn: int | None, width: int) -> int:
    """The largest tile width of :data:`SEAT_HAND_WIDTHS` that keeps the hand within ``width``."""
    return next((w for w in SEAT_HAND_WIDTHS if hand_fit(concealed, melds, drawn, w) <= width), SEAT_HAND_WIDTHS[-1])


def _header_h(view: TableView) -> int:
    return HEADER_H if view.rotate else Q_HEADER_H


def render_open_table(
    view: TableView,
    hands: Sequence[tuple[str, Sequence[int], Sequence[Meld], int | None]],
    *,
    style: Style | None = None,
    lang: Lang = DEFAULT,
) -> bytes:
    """A finished game's table with every hand open (``/replay`` with seat "all"): the table as
    :func:`render_table` draws it, and under it one strip per seat (``(title, concealed, melds,
    drawn)`` in seat order), each drawn as :func:`render_seat_table` draws its one hand, at the
    largest tile width of :data:`SEAT_HAND_WIDTHS` that keeps it within the table's width."""
    with drawing(style, lang):
        table = _table_image(view)
        strips = [
            hand_image(concealed, melds, drawn, title=title, tile_w=_seat_hand_w(concealed, melds, drawn, table.width))
            for title, concealed, melds, drawn in hands
        ]
        img, d = new_canvas(max([table.width] + [s.width for s in strips]), table.height + sum(s.height for s in strips))
        d.rectangle((0, 0, img.width, _header_h(view)), fill=HEADER)
        img.paste(table, ((img.width - table.width) // 2, 0))
        y = table.height
        for s in strips:
            img.paste(s, (0, y))
            y += s.height
        return to_png(img, palette="default")


# --- the render worker ----------------------------------------------------------------------------


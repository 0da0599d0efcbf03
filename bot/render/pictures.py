"""The bot's pictures: hand strips, hands with melds, the public table (also with one player's hand
under it, for that player only), hand results, final standings.

Sized for a phone: Discord's mobile client shows a picture ~360 px wide, so what matters is a
tile's and a letter's size at that width. The table (:func:`_quadrant_image`) puts one seat in
each quadrant, two rivers of 6 side by side, and the round, dora, sticks and wall in a band
between them: ~12 river tiles across instead of the ~20 of a layout with a river on every side,
so a river tile is ~25 px on a phone (it was ~16, too small to tell 2p from 3p). Hands keep one
row of tiles up to 14.5 tiles and put their melds on a row below beyond that; text is sized to be
~12 px or more at 360 px. ``TableView.rotate`` keeps the older pinwheel (every seat's tiles turned
to face the centre), which is wider and meant for a desktop.

Every ``render_*`` function takes ``style=`` ("faces" or "letters", :mod:`bot.render.tiles`) and
draws its tiles in it (None: the style in force), so the bot passes a player's or a club's choice
to the render worker with the picture's other arguments.

Pure functions: data in, PNG bytes out (no Discord, no I/O). Tile images come from the in-process
cache in :mod:`bot.render.tiles`, so after the first call a picture is mostly pastes plus PNG
encoding. The bot's own pictures share one fixed 256-colour palette (learned once per process from
the sample pictures) and the fastest zlib level: mapping to a known palette costs about a tenth of
choosing a palette per picture, and these flat drawings compress well at any level.

:func:`worker_main` is the bot's render worker process (see ``bot.presenter.Renderer``); it draws
pictures by name with :func:`render_job`.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import pickle
import sys
import threading
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw, PngImagePlugin

from bot import i18n
from bot.i18n import DEFAULT, Lang, term

from .fonts import FontT, draw_text, picture_lang, take_drawn, text_font, text_in
from .tiles import BACK, FELT, STYLES, Style, tile_image, tile_size, tile_style, tiles_in
from .views import Meld, ResultView, SeatView, TableView, WinView

__all__ = [
    "PngOptions",
    "fixed_palette",
    "picture_texts",
    "png_options",
    "render_final",
    "render_job",
    "render_open_table",
    "render_hand",
    "render_result",
    "render_seat_table",
    "render_table",
    "render_tiles",
    "set_png_options",
    "to_png",
    "worker_main",
    "DEADLINES",
    "TEXT_CHUNK",
    "COLUMNS",
]

HAND_W = 54  # tile width in hand / result pictures
RIVER_W = 36  # tile width in table rivers (~25 px on a phone: see _quadrant_image)
TMELD_W = 30  # tile width of melds on the table (a kan and a pon side by side under a river)
DORA_W = 30  # dora indicators in the table centre
RESULT_DORA_W = 38  # ~18 px on a phone

TEXT = (242, 242, 234)
MUTED = (172, 204, 186)
GOLD = (250, 198, 56)
PANEL = (15, 68, 46)
PANEL_EDGE = (40, 110, 78)
CENTRE = (12, 50, 34)
CENTRE_EDGE = (92, 150, 112)
PLATE = (9, 44, 30)
PLATE_TURN = (250, 198, 56)
PLUS = (120, 230, 140)
MINUS = (255, 128, 120)
DEALER = (200, 40, 40)
HEADER = (10, 46, 31)
BLANK = -2  # pseudo tile code: an empty river slot, drawn as an outline (bot.render.variants)

_WIND_NAMES = {
    "east": "E",
    "south": "S",
    "west": "W",
    "north": "N",
    "東": "E",
    "南": "S",
    "西": "W",
    "北": "N",
}


# --- small helpers ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PngOptions:
    """How the bot's own pictures are encoded.

    ``palette``: ``"fixed"`` maps every picture to one shared palette (:func:`fixed_palette`),
    ``"adaptive"`` chooses 256 colours per picture, ``"none"`` keeps RGB. ``compress_level`` is
    zlib's (1 fastest, 9 smallest).
    """

    palette: str = "fixed"
    compress_level: int = 1


_PNG = PngOptions()
_PALETTE: Image.Image | None = None
_PALETTE_LOCK = threading.Lock()


def png_options() -> PngOptions:
    return _PNG


def set_png_options(opts: PngOptions) -> PngOptions:
    """Use ``opts`` for the pictures drawn from now on (in this process); returns the old ones."""
    global _PNG
    if opts.palette not in ("fixed", "adaptive", "none"):
        raise ValueError(f"unknown palette mode {opts.palette!r}")
    old, _PNG = _PNG, opts
    return old


#: the samples the shared palette is learned from, per tile style: every picture drawn with this
#: module's palette in the default style, and in the other the pictures holding all its tile
#: colours (a sheet of every picture twice takes seconds to quantise, at each worker's start)
_PALETTE_SAMPLES = {
    "faces": {"tiles", "tiles_numbered", "all_tiles", "hand", "result", "result_melds", "result_double", "final",
              "table4", "table4_rotated", "table3", "table3_rotated", "rules_card"},
    "letters": {"all_tiles", "table4", "result"},
}


def fixed_palette() -> Image.Image:
    """The shared palette: 256 colours chosen once from a sheet of sample pictures in both tile
    styles (:data:`_PALETTE_SAMPLES`: all tile faces, a table with every kind of meld, hands,
    results, standings), so each colour the bot draws, anti-aliased edges included, has a close
    entry."""
    global _PALETTE, _PNG
    with _PALETTE_LOCK:
        if _PALETTE is None:
            from .samples import sample_pictures  # samples draws with this module: import late

            saved, _PNG = _PNG, PngOptions("none", 1)
            parts = []
            try:
                for style in STYLES:
                    with tile_style(style):
                        parts += [
                            Image.open(io.BytesIO(make())).convert("RGB")
                            for name, make in sample_pictures().items()
                            if name in _PALETTE_SAMPLES[style]
                        ]
            finally:
                _PNG = saved
            sheet = Image.new("RGB", (max(p.width for p in parts), sum(p.height for p in parts)), FELT)
            y = 0
            for p in parts:
                sheet.paste(p, (0, y))
                y += p.height
            _PALETTE = sheet.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        return _PALETTE


#: the PNG text chunk (iTXt) that holds the strings a picture drew, with ``JANTAKU_PICTURE_TEXT=1``
TEXT_CHUNK = "jantaku-text"


@contextlib.contextmanager
def _drawing(style: Style | None, lang: Lang | None) -> Iterator[None]:
    """Draw the picture made inside with tiles in ``style`` and words in ``lang``."""
    with tiles_in(style), text_in(lang):
        yield


def to_png(img: Image.Image, *, palette: bool | str = True, compress_level: int | None = None) -> bytes:
    """PNG bytes of ``img``.

    ``palette=True`` reduces the picture to its own 256 colours without dithering (these flat
    drawings look the same and the file is about a third the size); ``"fixed"`` maps it to the
    shared :func:`fixed_palette` instead (several times faster), ``"default"`` follows
    :func:`png_options` (what the bot's pictures use), ``False`` keeps RGB.

    With ``JANTAKU_PICTURE_TEXT=1`` the strings the picture drew (:func:`bot.render.fonts.draw_text`)
    go into an iTXt chunk :data:`TEXT_CHUNK`, a JSON list (:func:`picture_texts` reads it back).
    """
    drawn = take_drawn()  # before the palette: learning it draws pictures of its own
    level = 6 if compress_level is None else compress_level
    if palette == "default":
        palette, level = _PNG.palette, (_PNG.compress_level if compress_level is None else compress_level)
    if img.mode == "RGB" and palette not in (False, "none"):
        if palette == "fixed":
            img = img.quantize(palette=fixed_palette(), dither=Image.Dither.NONE)
        else:
            img = img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    if drawn is None:
        img.save(buf, format="PNG", compress_level=level)
    else:
        info = PngImagePlugin.PngInfo()
        info.add_itxt(TEXT_CHUNK, json.dumps(drawn, ensure_ascii=False))
        img.save(buf, format="PNG", compress_level=level, pnginfo=info)
    return buf.getvalue()


def picture_texts(png: bytes) -> list[str]:
    """The strings a picture drew, from its :data:`TEXT_CHUNK` chunk ([] when it has none: drawn
    without ``JANTAKU_PICTURE_TEXT=1``)."""
    with Image.open(io.BytesIO(png)) as img:
        raw = img.info.get(TEXT_CHUNK)
    return [str(x) for x in json.loads(raw)] if isinstance(raw, str) and raw else []


def _fit(text: str, f: FontT, max_w: float) -> str:
    """``text`` cut with an ellipsis so it is at most ``max_w`` pixels wide."""
    if f.getlength(text) <= max_w:
        return text
    while text and f.getlength(text + "…") > max_w:
        text = text[:-1]
    return text + "…" if text else ""


def _wind_letter(w: str) -> str:
    w = w.strip()
    return _WIND_NAMES.get(w.lower(), _WIND_NAMES.get(w, w[:1].upper() or "?"))


def _wind_word(letter: str) -> str:
    """A wind letter as the picture's language writes it: ``E`` / 東."""
    return term(picture_lang(), "tile", letter)


def _signed(n: float) -> str:
    """+8,000 / -21.7: floats (points) keep one decimal, ints (payments) none."""
    if isinstance(n, float):
        return f"{n:+,.1f}"
    return f"{int(n):+,}"


def _stick(d: ImageDraw.ImageDraw, x: float, y: float, w: float = 34, h: float = 8) -> None:
    """A riichi stick (white bar with a red dot) with its top-left corner at (x, y)."""
    d.rounded_rectangle((x, y, x + w, y + h), radius=h / 2, fill=(250, 250, 250), outline=(150, 150, 150))
    r = h * 0.32
    cx, cy = x + w / 2, y + h / 2
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=DEALER)


# --- layout pieces of the card pictures (results, standings, bot.render.lookup) ---------------------


def _header_bar(
    d: ImageDraw.ImageDraw, width: int, title: str, f: FontT, *, pad: int, bar_h: int, text_y: int
) -> None:
    """The dark bar across the top (down to ``pad + bar_h``) with ``title`` in gold, its middle at
    ``pad + text_y``, its font shrunk (down to 12 px, cut only below that) to fit between the side
    paddings."""
    d.rectangle((0, 0, width, pad + bar_h), fill=HEADER)
    size = int(getattr(f, "size", 24))
    while size > 12 and f.getlength(title) > width - 2 * pad:  # shrink a long title rather than cut it
        size -= 1
        f = text_font(size)
    draw_text(d, (pad, pad + text_y), _fit(title, f, width - 2 * pad), font=f, fill=GOLD, anchor="lm")


def _indicator_strip(
    d: ImageDraw.ImageDraw,
    groups: Sequence[tuple[str, Sequence[int]]],
    x: int,
    y: int,
    f: FontT,
    *,
    label_dy: int,
    tiles_dy: int,
    draw_tiles: Callable[[Sequence[int], int, int], int],
) -> None:
    """Labelled groups of indicator tiles (``("Dora", codes)``, ...) left to right from ``x``; empty
    groups are left out. Each label is drawn muted with its middle at ``y + label_dy``, its tiles by
    ``draw_tiles(codes, x, baseline)`` standing on ``y + tiles_dy`` (it returns where they end); the
    next group starts 30 px after the wider of the two."""
    for label, codes in groups:
        if not codes:
            continue
        draw_text(d, (x, y + label_dy), label, font=f, fill=MUTED, anchor="lm")
        end = draw_tiles(codes, x, y + tiles_dy)
        x = max(end, x + int(f.getlength(label))) + 30


def _value_line(
    d: ImageDraw.ImageDraw, yy: float, name: str, value: str, f: FontT, *, x: int, right: int, name_w: float
) -> None:
    """One row of a breakdown: ``name`` from ``x`` (cut to ``name_w``), ``value`` in gold ending at
    ``right``, both with their middle at ``yy``."""
    draw_text(d, (x, yy), _fit(name, f, name_w), font=f, fill=TEXT, anchor="lm")
    draw_text(d, (right, yy), value, font=f, fill=GOLD, anchor="rm")


def _delta_colour(n: float) -> tuple[int, int, int]:
    """Green for a gain, red for a loss, muted for nothing."""
    return PLUS if n > 0 else MINUS if n < 0 else MUTED


def _payments_column(
    d: ImageDraw.ImageDraw,
    payments: Sequence[tuple[str, int]],
    *,
    right: int,
    col_w: int,
    top: int,
    rows: int,
    row_h: int,
    f: FontT,
    name_w: float,
    amount: Callable[[int], str] = _signed,
) -> None:
    """Each seat's payment in a column ``col_w`` wide ending at ``right``, one ``row_h`` row each from
    ``top``: a rule down its left (``rows`` rows long), the name (cut to ``name_w``) and the change
    (written by ``amount``) coloured by its sign."""
    x0 = right - col_w
    d.line((x0 - 15, top, x0 - 15, top + rows * row_h), fill=PANEL_EDGE, width=2)
    for i, (name, delta) in enumerate(payments):
        yy = top + i * row_h + row_h / 2
        draw_text(d, (x0, yy), _fit(name, f, name_w), font=f, fill=TEXT, anchor="lm")
        draw_text(d, (right, yy), amount(delta), font=f, fill=_delta_colour(delta), anchor="rm")


# --- rows of tiles ------------------------------------------------------------------------------


@dataclass(slots=True)
class _Item:
    code: int
    sideways: bool = False
    dim: bool = False
    stacked: bool = False  # drawn on top of the previous (sideways) tile: a kakan's added tile
    mark: bool = False  # gold highlight frame
    gap: int = 0  # extra space before this tile
    lift: int = 0  # drawn this many pixels higher


def _item_size(it: _Item, tw: int) -> tuple[int, int]:
    w, h = tile_size(tw)
    return (h, w) if it.sideways else (w, h)


def _layout(
    items: Sequence[_Item], tw: int, spacing: int = 1
) -> tuple[list[tuple[int, int, int, int]], int, int]:
    """Rectangles (x, y, w, h) relative to the row's left end and baseline (y < 0), width, height."""
    rects: list[tuple[int, int, int, int]] = []
    x = 0
    top = 0
    prev: tuple[int, int, int, int] | None = None
    for it in items:
        w, h = _item_size(it, tw)
        if it.stacked and prev is not None:
            r = (prev[0], prev[1] - h - 1, w, h)
        else:
            x += it.gap
            r = (x, -h - it.lift, w, h)
            x += w + spacing
        rects.append(r)
        prev = r
        top = min(top, r[1])
    return rects, max(x - spacing, 0), -top


def _draw_items(
    canvas: Image.Image, items: Sequence[_Item], tw: int, x0: int, baseline: int, spacing: int = 1
) -> int:
    """Paste ``items`` left to right on ``canvas`` standing on ``baseline``; returns the row width."""
    rects, width, _ = _layout(items, tw, spacing)
    d: ImageDraw.ImageDraw | None = None
    for it, (x, y, w, h) in zip(items, rects):
        if it.mark:
            d = d or ImageDraw.Draw(canvas)
            m = max(2, tw // 12)
            d.rounded_rectangle(
                (x0 + x - m, baseline + y - m, x0 + x + w - 1 + m, baseline + y + h - 1 + m),
                radius=tw // 5 + m,
                fill=GOLD,
            )
        if it.code == BLANK:  # an empty slot (seigou SG-2: a claimed discard, a kan turn)
            d = d or ImageDraw.Draw(canvas)
            d.rounded_rectangle((x0 + x, baseline + y, x0 + x + w - 1, baseline + y + h - 1), radius=tw // 5, outline=MUTED)
            continue
        t = tile_image(it.code, tw, sideways=it.sideways, dim=it.dim)
        canvas.paste(t, (x0 + x, baseline + y), t)
    return width


_ANKAN = {"ankan", "closed kan", "concealed kan"}
_KAKAN = {"kakan", "shouminkan", "added kan"}


def _meld_items(meld: Meld, gap: int = 0) -> list[_Item]:
    mtype, codes_seq, called = meld
    kind = mtype.lower()
    codes = list(codes_seq)
    if kind in _ANKAN and len(codes) == 4:
        items = [_Item(BACK), _Item(codes[1]), _Item(codes[2]), _Item(BACK)]
    elif kind in _KAKAN and len(codes) == 4 and 0 <= called < 3:
        items = [_Item(c, sideways=i == called) for i, c in enumerate(codes[:3])]
        items.insert(called + 1, _Item(codes[3], sideways=True, stacked=True))
    else:
        items = [_Item(c, sideways=i == called) for i, c in enumerate(codes)]
    if items:
        items[0].gap = gap
    return items


def _hand_items(
    concealed: Sequence[int],
    extra: int | None,
    melds: Sequence[Meld],
    *,
    extra_gap: int,
    meld_gap: int,
    mark_extra: bool = False,
) -> list[_Item]:
    items = [_Item(c) for c in concealed]
    if extra is not None:
        items.append(_Item(extra, gap=extra_gap if items else 0, mark=mark_extra))
    for i, m in enumerate(melds):
        items.extend(_meld_items(m, gap=(meld_gap if (items and i == 0) else meld_gap // 2 if items else 0)))
    return items


def _new(w: int, h: int, colour: tuple[int, int, int] = FELT) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (max(1, w), max(1, h)), colour)
    return img, ImageDraw.Draw(img)


# --- public pictures: hands ---------------------------------------------------------------------


def render_tiles(
    codes: Sequence[int],
    *,
    highlight: int | None = None,
    gap_before_last: bool = False,
    numbered: bool = False,
    style: Style | None = None,
    lang: Lang = DEFAULT,
) -> bytes:
    """A strip of tiles (a hand). ``highlight`` is an index into ``codes`` (drawn lifted with a gold
    frame); ``gap_before_last`` sets the last tile apart (the drawn tile); ``numbered`` writes 1..n
    under the tiles; ``style`` is the tile style (as every picture here takes it; None: the one in
    force, :func:`bot.render.tiles.tile_style`) and ``lang`` the language of its words (as every
    picture here takes it)."""
    with _drawing(style, lang):
        return _tiles_strip(codes, highlight, gap_before_last, numbered)


def _tiles_strip(codes: Sequence[int], highlight: int | None, gap_before_last: bool, numbered: bool) -> bytes:
    tw, th = tile_size(HAND_W)
    items = [_Item(c) for c in codes]
    if gap_before_last and len(items) > 1:
        items[-1].gap = 14
    if highlight is not None and 0 <= highlight < len(items):
        items[highlight].mark = True
        items[highlight].lift = 6
    _, width, height = _layout(items, tw)
    pad = 10
    label_h = 20 if numbered else 0
    img, d = _new(width + 2 * pad, max(height, th) + 2 * pad + label_h + 6)
    baseline = pad + 6 + max(height - 6, th)
    _draw_items(img, items, tw, pad, baseline)
    if numbered:
        f = text_font(15)
        rects, _, _ = _layout(items, tw)
        for i, (x, _, w, _) in enumerate(rects):
            draw_text(d, (pad + x + w / 2, baseline + 4), str(i + 1), font=f, fill=MUTED, anchor="mt")
    return to_png(img, palette="default")


def render_hand(
    concealed: Sequence[int],
    melds: Sequence[Meld],
    drawn: int | None,
    *,
    title: str = "",
    style: Style | None = None,
    lang: Lang = DEFAULT,
) -> bytes:
    """A player's hand: concealed tiles, the drawn tile set apart, then the melds (called tile
    sideways, kakan's added tile stacked on it, ankan's outer tiles face down); the melds go on a
    row below when one row would be wider than :data:`HAND_ROW_TILES`."""
    with _drawing(style, lang):
        return to_png(_hand_image(concealed, melds, drawn, title=title), palette="default")


def _hand_image(
    concealed: Sequence[int], melds: Sequence[Meld], drawn: int | None, *, title: str = "", tile_w: int = HAND_W
) -> Image.Image:
    tw, th = tile_size(tile_w)
    rows = _hand_rows(concealed, drawn, melds, tile_w)
    pad = 12
    w = _hand_width(max(_layout(r, tw)[1] for r in rows), pad)
    # the title is ~12 px when a phone shrinks the picture to 360 px (20 px at least)
    size = max(20, min(30, w * 12 // 360))
    title_h = size + 12 if title else 0
    f = text_font(size)
    heights = [max(_layout(r, tw)[2], th) for r in rows]
    img, d = _new(w, title_h + sum(heights) + 8 * (len(rows) - 1) + 2 * pad)
    if title:
        while size > 12 and f.getlength(title) > w - 2 * pad:  # shrink a long title rather than cut it
            size -= 1
            f = text_font(size)
        draw_text(d, (pad, pad + title_h / 2 - 4), _fit(title, f, w - 2 * pad), font=f, fill=TEXT, anchor="lm")
    y = title_h + pad
    for r, h in zip(rows, heights):
        y += h
        _draw_items(img, r, tw, pad, y)
        y += 8
    return img


#: a hand row wider than this many tiles (concealed, drawn and melds) puts its melds on a row
#: below: 14 tiles and the drawn tile's gap, so a phone (~360 px) shows tiles of ~24 px, not ~18
HAND_ROW_TILES = 14.5


def _hand_rows(concealed: Sequence[int], drawn: int | None, melds: Sequence[Meld], tile_w: int) -> list[list[_Item]]:
    """The hand's tile rows: one row, or (when that is wider than :data:`HAND_ROW_TILES`) the
    concealed tiles and the drawn tile, then the melds on a row below."""
    tw = tile_size(tile_w)[0]
    one = _hand_items(concealed, drawn, melds, extra_gap=14, meld_gap=24)
    if not melds or _layout(one, tw)[1] <= HAND_ROW_TILES * (tw + 1):
        return [one]
    meld_items: list[_Item] = []
    for m in melds:
        meld_items.extend(_meld_items(m, gap=12 if meld_items else 0))
    return [_hand_items(concealed, drawn, [], extra_gap=14, meld_gap=24), meld_items]


def _hand_fit(concealed: Sequence[int], melds: Sequence[Meld], drawn: int | None, tile_w: int) -> int:
    """The width of :func:`_hand_image`'s picture at ``tile_w``."""
    tw = tile_size(tile_w)[0]
    return _hand_width(max(_layout(r, tw)[1] for r in _hand_rows(concealed, drawn, melds, tile_w)))


def _hand_width(tiles_w: int, pad: int = 12) -> int:
    return max(tiles_w + 2 * pad, 200)


def _wrap(text: str, f: FontT, max_w: float) -> list[str]:
    """``text`` broken at spaces into lines at most ``max_w`` pixels wide (a word wider than that
    is broken between characters): a title is wrapped, never cut."""
    lines: list[str] = []
    for para in text.split("\n"):
        cur = ""
        for word in para.split(" "):
            trial = f"{cur} {word}" if cur else word
            if f.getlength(trial) <= max_w:
                cur = trial
                continue
            if cur:
                lines.append(cur)
            cur = ""
            for ch in word:
                if cur and f.getlength(cur + ch) > max_w:
                    lines.append(cur)
                    cur = ""
                cur += ch
        lines.append(cur)
    return lines


RESULT_ROW_W = 980  # a winning hand wider than this puts its melds, flowers and nuki on a row below


def _win_rows(w: WinView, tw: int) -> list[list[_Item]]:
    """The tile rows of one win: the concealed tiles and the winning tile (framed, set apart), the
    melds and set-aside tiles after them or, when that row would be too wide, on a row below."""
    hand = _hand_items(w.hand, w.win_tile, [], extra_gap=16, meld_gap=24, mark_extra=True)
    melds: list[_Item] = []
    for m in w.melds:
        melds.extend(_meld_items(m, gap=12 if melds else 0))
    if not melds:
        return [hand]
    hand_w, melds_w = _layout(hand, tw)[1], _layout(melds, tw)[1]
    if hand_w + 24 + melds_w <= max(RESULT_ROW_W, hand_w):
        melds[0].gap = 24
        return [hand + melds]
    return [hand, melds]


def render_result(view: ResultView, *, style: Style | None = None, lang: Lang = DEFAULT) -> bytes:
    """:func:`_result_png` with the tiles in ``style`` and its labels in ``lang`` (the view's texts
    are the caller's: :func:`bot.render.variants.result_view` writes them in a language)."""
    with _drawing(style, lang):
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
    tiles_w = max([_layout(r, tw)[1] for rs in rows for r in rs] + [0])
    text_w = max(
        [int(f_line.getlength(ln.replace("\t", "    "))) + 40 for w in view.wins for ln in w.lines]
        + [int(f_line.getlength(f"{n}  {_signed(v)}")) + 40 for n, v in view.payments]
        + [0]
    )
    width = max(tiles_w + 2 * pad, min(text_w, RESULT_ROW_W) + 2 * pad, 600)
    inner = width - 2 * pad
    title = _wrap(view.title, f_title, inner)
    heads = [_wrap(w.heading, f_head, inner) for w in view.wins]
    bodies = [[_wrap(ln, f_line, inner) if "\t" not in ln else [ln] for ln in w.lines] for w in view.wins]

    def win_h(i: int) -> int:
        w = view.wins[i]
        h = len(heads[i]) * head_h + 8
        h += sum(max(_layout(r, tw)[2], th) + 10 for r in rows[i])
        if w.dora or w.ura:
            h += dth + 34
        return h + 10 + sum(len(b) for b in bodies[i]) * line_h + 14

    bar_h = len(title) * title_h + 14
    height = bar_h + 12 + sum(win_h(i) for i in range(len(view.wins)))
    if view.payments:
        height += 12 + 30 + len(view.payments) * line_h
    height += pad
    img, d = _new(width, height)
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
            h = max(_layout(r, tw)[2], th)
            _draw_items(img, r, tw, pad, y + h)
            y += h + 10
        if w.dora or w.ura:

            def dora_tiles(codes: Sequence[int], x: int, baseline: int) -> int:
                _draw_items(img, [_Item(c) for c in codes], RESULT_DORA_W, x, baseline)
                return x + len(codes) * (dtw + 1)

            lang = picture_lang()
            groups = ((i18n.t(lang, "Dora"), w.dora), (i18n.t(lang, "Ura"), w.ura))
            _indicator_strip(d, groups, pad, y, f_small, label_dy=10, tiles_dy=24 + dth, draw_tiles=dora_tiles)
            y += dth + 34
        d.line((pad, y, width - pad, y), fill=PANEL_EDGE, width=1)
        y += 10
        for wrapped in bodies[i]:
            for ln in wrapped:
                yy = y + line_h / 2
                if "\t" in ln:
                    left, right = ln.split("\t", 1)
                    _value_line(
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
            amount = _signed(delta)
            yy = y + line_h / 2
            draw_text(d, (pad, yy), _fit(name, f_line, inner - f_line.getlength(amount) - 16), font=f_line, fill=TEXT, anchor="lm")
            draw_text(d, (width - pad, yy), amount, font=f_line, fill=_delta_colour(delta), anchor="rm")
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
    img, d = _new(width, height)
    _header_bar(d, width, title, f_title, pad=pad, bar_h=40, text_y=16)
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
            (pad + 56, cy), _fit(name, f_row, col_score - pad - 56 - 110), font=f_row, fill=TEXT, anchor="lm"
        )
        draw_text(d, (col_score, cy), f"{score:,}", font=f_row, fill=TEXT, anchor="rm")
        draw_text(d, (col_pts, cy), _signed(pts), font=f_row, fill=_delta_colour(pts), anchor="rm")
    return to_png(img, palette="default")


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
    row_items: list[list[_Item]] = []
    for r in range(math.ceil(n / 6)):
        row_items.append(
            [
                _Item(
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
        width = max(width, _layout(items, tw)[1] + 4)
    height = max(rows, len(row_items)) * row_h + 2
    img = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    for r, items in enumerate(row_items):
        _draw_items(img, items, tw, 2, (r + 1) * row_h)
    return img


def _melds_block(melds: Sequence[Meld], max_w: int) -> Image.Image | None:
    """The seat's melds, flowing left to right and wrapping at ``max_w`` (bottom orientation)."""
    if not melds:
        return None
    tw, th = tile_size(TMELD_W)
    groups = []
    for m in melds:
        items = _meld_items(m)
        _, w, h = _layout(items, tw)
        groups.append((items, w, max(h, th)))
    lines: list[list[tuple[list[_Item], int, int]]] = [[]]
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
            _draw_items(img, items, tw, x, y + lh)
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
    letter = _wind_letter(seat.wind)
    r = (h - 8) / 2
    cx, cy = x0 + 6 + r, y0 + h / 2
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=DEALER if letter == "E" else (60, 70, 66))
    draw_text(d, (cx, cy), _wind_word(letter), font=text_font(16), fill=(255, 255, 255), anchor="mm")
    f_score = text_font(17)
    score = f"{seat.score:,}"
    right = x1 - 8
    draw_text(d, (right, cy), score, font=f_score, fill=fg, anchor="rm")
    right -= int(f_score.getlength(score)) + 8
    if seat.riichi:
        _stick(d, right - 30, cy - 4, 30, 8)
        right -= 38
    f_name = text_font(17)
    name_x = cx + r + 7
    note = f" · {seat.note}" if seat.note else ""
    f_note = text_font(14, "regular")
    avail = right - name_x
    note_w = f_note.getlength(note) if note else 0
    if note and note_w > avail * 0.45:
        note = _fit(note, f_note, avail * 0.45)
        note_w = f_note.getlength(note)
    name = _fit(seat.name, f_name, avail - note_w)
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
        label = f"{_wind_word(_wind_letter(seat.wind))} {seat.score:,}"
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
    draw_text(d, (cx, top + 10), _fit(view.round_text, f_round, inner_w), font=f_round, fill=TEXT, anchor="mm")
    if slots:  # no label where the ruleset has no dora (taiwan16)
        draw_text(d, (cx, top + 31), i18n.t(picture_lang(), "dora"), font=text_font(11, "regular"), fill=MUTED, anchor="mm")
    items = [_Item(c) for c in view.dora_indicators] + [_Item(BACK)] * (slots - len(view.dora_indicators))
    _, row_w, _ = _layout(items, DORA_W)
    _draw_items(canvas, items, DORA_W, int(cx - row_w / 2), int(top + 40 + dth))
    y = top + 40 + dth + 18
    f_info = text_font(14)
    wall = i18n.t(picture_lang(), "wall {n}", n=view.wall_left) if view.wall_left is not None else ""
    sticks = f"× {view.riichi_sticks}"
    sw = 30 + 4 + f_info.getlength(sticks)
    ww = f_info.getlength(wall)
    total = sw + (16 + ww if wall else 0)
    x = cx - total / 2
    _stick(d, x, y - 4, 30, 8)
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
    lines: list[list[tuple[str, Any]]] = [[("text", (_fit(view.round_text, f_round, max_w), f_round, TEXT))]]
    slots = max(view.dora_slots, len(view.dora_indicators))
    dora: list[tuple[str, Any]] = []
    if slots:  # no label where the ruleset has no dora (taiwan16)
        items = [_Item(c) for c in view.dora_indicators] + [_Item(BACK)] * (slots - len(view.dora_indicators))
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
        _, w, h = _layout(what, DORA_W)
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
                _draw_items(canvas, what, DORA_W, int(x), int(y + h))
            else:
                _stick(d, x, mid - 4, 30, 8)
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

    img, d = _new(width, height)
    d.rectangle((0, 0, width, Q_HEADER_H), fill=HEADER)
    f_head = text_font(18)
    clock_w = 0
    if view.clock:
        clock_w = int(f_head.getlength(view.clock)) + 16
        draw_text(d, (width - 8, Q_HEADER_H / 2), view.clock, font=f_head, fill=GOLD, anchor="rm")
    draw_text(d, (8, Q_HEADER_H / 2), _fit(view.title, f_head, width - 16 - clock_w), font=f_head, fill=TEXT, anchor="lm")

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
        draw_text(d, (8, height - footer_h / 2 - 2), _fit(view.footer, f_foot, width - 16), font=f_foot, fill=MUTED, anchor="lm")
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

    img, d = _new(width, height)
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
        _fit(view.title, f_head, width - 24 - clock_w),
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
            _fit(view.footer, text_font(14, "regular"), width - 24),
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
    with _drawing(style, lang):
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
    with _drawing(style, lang):
        table = _table_image(view)
        hand = _hand_image(concealed, melds, drawn, title=title, tile_w=_seat_hand_w(concealed, melds, drawn, table.width))
        img, d = _new(max(table.width, hand.width), table.height + hand.height)
        d.rectangle((0, 0, img.width, _header_h(view)), fill=HEADER)  # the header bar spans a wider hand too
        img.paste(table, ((img.width - table.width) // 2, 0))
        img.paste(hand, ((img.width - hand.width) // 2, table.height))
        return to_png(img, palette="default")


def _seat_hand_w(concealed: Sequence[int], melds: Sequence[Meld], drawn: int | None, width: int) -> int:
    """The largest tile width of :data:`SEAT_HAND_WIDTHS` that keeps the hand within ``width``."""
    return next((w for w in SEAT_HAND_WIDTHS if _hand_fit(concealed, melds, drawn, w) <= width), SEAT_HAND_WIDTHS[-1])


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
    with _drawing(style, lang):
        table = _table_image(view)
        strips = [
            _hand_image(concealed, melds, drawn, title=title, tile_w=_seat_hand_w(concealed, melds, drawn, table.width))
            for title, concealed, melds, drawn in hands
        ]
        img, d = _new(max([table.width] + [s.width for s in strips]), table.height + sum(s.height for s in strips))
        d.rectangle((0, 0, img.width, _header_h(view)), fill=HEADER)
        img.paste(table, ((img.width - table.width) // 2, 0))
        y = table.height
        for s in strips:
            img.paste(s, (0, y))
            y += s.height
        return to_png(img, palette="default")


# --- the render worker ----------------------------------------------------------------------------

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

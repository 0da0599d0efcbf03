"""What every picture of the bot is drawn with: colours, sizes, the PNG encoding and its shared
palette, and the small pieces several pictures share (title bar, indicator strip, value rows,
payments column, tile items and their layout, text wrapping).

Pictures are drawn in RGB and encoded by :func:`to_png`: the bot's own pictures share one fixed
256-colour palette (:func:`fixed_palette`, learned once per process from the sample pictures the
package registers, :func:`learn_palette_from`) and the fastest zlib level; mapping to a known
palette costs about a tenth of choosing a palette per picture, and these flat drawings compress
well at any level. With ``JANTAKU_PICTURE_TEXT=1`` a PNG also carries the strings it drew
(:func:`picture_texts`).

Pure functions and values (no Discord, no I/O); the pictures themselves are in
:mod:`bot.render.pictures`, :mod:`bot.render.table_pictures`, :mod:`bot.render.lookup` and
:mod:`bot.render.rules_card`.
"""

from __future__ import annotations

import contextlib
import io
import json
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, PngImagePlugin

from bot.i18n import Lang, term

from .fonts import FontT, draw_text, picture_lang, take_drawn, text_font, text_in
from .tiles import BACK, FELT, Style, tile_image, tile_size, tiles_in
from .views import Meld

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

WIND_NAMES = {
    "east": "E",
    "south": "S",
    "west": "W",
    "north": "N",
    "東": "E",
    "南": "S",
    "西": "W",
    "北": "N",
}


# --- PNG encoding and the shared palette ---------------------------------------------------------


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


_PALETTE_SOURCE: Callable[[], list[Image.Image]] | None = None


def learn_palette_from(source: Callable[[], list[Image.Image]]) -> None:
    """Say what the shared palette is learned from: ``source()`` draws the sample pictures (in
    RGB, :func:`to_png` keeps every colour while it runs). The package registers
    :func:`bot.render.palette.palette_samples` when it loads, so this module, which the sample
    pictures are drawn with, never imports them."""
    global _PALETTE_SOURCE
    _PALETTE_SOURCE = source


def fixed_palette() -> Image.Image:
    """The shared palette: 256 colours chosen once from a sheet of sample pictures in both tile
    styles (:func:`learn_palette_from`: all tile faces, a table with every kind of meld, hands,
    results, standings), so each colour the bot draws, anti-aliased edges included, has a close
    entry."""
    global _PALETTE, _PNG
    with _PALETTE_LOCK:
        if _PALETTE is None:
            if _PALETTE_SOURCE is None:
                raise RuntimeError("the palette's sample pictures are not registered (import bot.render)")
            saved, _PNG = _PNG, PngOptions("none", 1)
            try:
                parts = _PALETTE_SOURCE()
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
def drawing(style: Style | None, lang: Lang | None) -> Iterator[None]:
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


def fit_text(text: str, f: FontT, max_w: float) -> str:
    """``text`` cut with an ellipsis so it is at most ``max_w`` pixels wide."""
    if f.getlength(text) <= max_w:
        return text
    while text and f.getlength(text + "…") > max_w:
        text = text[:-1]
    return text + "…" if text else ""


def wind_letter(w: str) -> str:
    w = w.strip()
    return WIND_NAMES.get(w.lower(), WIND_NAMES.get(w, w[:1].upper() or "?"))


def wind_word(letter: str) -> str:
    """A wind letter as the picture's language writes it: ``E`` / 東."""
    return term(picture_lang(), "tile", letter)


def signed(n: float) -> str:
    """+8,000 / -21.7: floats (points) keep one decimal, ints (payments) none."""
    if isinstance(n, float):
        return f"{n:+,.1f}"
    return f"{int(n):+,}"


def draw_stick(d: ImageDraw.ImageDraw, x: float, y: float, w: float = 34, h: float = 8) -> None:
    """A riichi stick (white bar with a red dot) with its top-left corner at (x, y)."""
    d.rounded_rectangle((x, y, x + w, y + h), radius=h / 2, fill=(250, 250, 250), outline=(150, 150, 150))
    r = h * 0.32
    cx, cy = x + w / 2, y + h / 2
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=DEALER)


# --- layout pieces of the card pictures (results, standings, bot.render.lookup) ---------------------


def header_bar(
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
    draw_text(d, (pad, pad + text_y), fit_text(title, f, width - 2 * pad), font=f, fill=GOLD, anchor="lm")


def indicator_strip(
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


def value_line(
    d: ImageDraw.ImageDraw, yy: float, name: str, value: str, f: FontT, *, x: int, right: int, name_w: float
) -> None:
    """One row of a breakdown: ``name`` from ``x`` (cut to ``name_w``), ``value`` in gold ending at
    ``right``, both with their middle at ``yy``."""
    draw_text(d, (x, yy), fit_text(name, f, name_w), font=f, fill=TEXT, anchor="lm")
    draw_text(d, (right, yy), value, font=f, fill=GOLD, anchor="rm")


def delta_colour(n: float) -> tuple[int, int, int]:
    """Green for a gain, red for a loss, muted for nothing."""
    return PLUS if n > 0 else MINUS if n < 0 else MUTED


def payments_column(
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
    amount: Callable[[int], str] = signed,
) -> None:
    """Each seat's payment in a column ``col_w`` wide ending at ``right``, one ``row_h`` row each from
    ``top``: a rule down its left (``rows`` rows long), the name (cut to ``name_w``) and the change
    (written by ``amount``) coloured by its sign."""
    x0 = right - col_w
    d.line((x0 - 15, top, x0 - 15, top + rows * row_h), fill=PANEL_EDGE, width=2)
    for i, (name, delta) in enumerate(payments):
        yy = top + i * row_h + row_h / 2
        draw_text(d, (x0, yy), fit_text(name, f, name_w), font=f, fill=TEXT, anchor="lm")
        draw_text(d, (right, yy), amount(delta), font=f, fill=delta_colour(delta), anchor="rm")


# --- rows of tiles ------------------------------------------------------------------------------


@dataclass(slots=True)
class Item:
    code: int
    sideways: bool = False
    dim: bool = False
    stacked: bool = False  # drawn on top of the previous (sideways) tile: a kakan's added tile
    mark: bool = False  # gold highlight frame
    gap: int = 0  # extra space before this tile
    lift: int = 0  # drawn this many pixels higher


def item_size(it: Item, tw: int) -> tuple[int, int]:
    w, h = tile_size(tw)
    return (h, w) if it.sideways else (w, h)


def layout_items(
    items: Sequence[Item], tw: int, spacing: int = 1
) -> tuple[list[tuple[int, int, int, int]], int, int]:
    """Rectangles (x, y, w, h) relative to the row's left end and baseline (y < 0), width, height."""
    rects: list[tuple[int, int, int, int]] = []
    x = 0
    top = 0
    prev: tuple[int, int, int, int] | None = None
    for it in items:
        w, h = item_size(it, tw)
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


def draw_items(
    canvas: Image.Image, items: Sequence[Item], tw: int, x0: int, baseline: int, spacing: int = 1
) -> int:
    """Paste ``items`` left to right on ``canvas`` standing on ``baseline``; returns the row width."""
    rects, width, _ = layout_items(items, tw, spacing)
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


ANKAN_WORDS = {"ankan", "closed kan", "concealed kan"}
KAKAN_WORDS = {"kakan", "shouminkan", "added kan"}


def meld_items_of(meld: Meld, gap: int = 0) -> list[Item]:
    mtype, codes_seq, called = meld
    kind = mtype.lower()
    codes = list(codes_seq)
    if kind in ANKAN_WORDS and len(codes) == 4:
        items = [Item(BACK), Item(codes[1]), Item(codes[2]), Item(BACK)]
    elif kind in KAKAN_WORDS and len(codes) == 4 and 0 <= called < 3:
        items = [Item(c, sideways=i == called) for i, c in enumerate(codes[:3])]
        items.insert(called + 1, Item(codes[3], sideways=True, stacked=True))
    else:
        items = [Item(c, sideways=i == called) for i, c in enumerate(codes)]
    if items:
        items[0].gap = gap
    return items


def hand_items_of(
    concealed: Sequence[int],
    extra: int | None,
    melds: Sequence[Meld],
    *,
    extra_gap: int,
    meld_gap: int,
    mark_extra: bool = False,
) -> list[Item]:
    items = [Item(c) for c in concealed]
    if extra is not None:
        items.append(Item(extra, gap=extra_gap if items else 0, mark=mark_extra))
    for i, m in enumerate(melds):
        items.extend(meld_items_of(m, gap=(meld_gap if (items and i == 0) else meld_gap // 2 if items else 0)))
    return items


def new_canvas(w: int, h: int, colour: tuple[int, int, int] = FELT) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (max(1, w), max(1, h)), colour)
    return img, ImageDraw.Draw(img)


def hand_width(tiles_w: int, pad: int = 12) -> int:
    return max(tiles_w + 2 * pad, 200)


def wrap(text: str, f: FontT, max_w: float) -> list[str]:
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



"""Tile pictures drawn with Pillow, cached per (code, size, variant, style).

Every face is drawn once on a 180×240 design canvas and scaled down with Lanczos, which gives
smooth (anti-aliased) circles and text at the small sizes Discord previews show. A face is a white
rounded tile with an amber border (thicker at the bottom for a little depth) and, in two styles:

``"faces"`` (the default): the real tile artwork — FluffyStuff's riichi-mahjong-tiles (CC0), the
PNGs in ``faces/`` beside this module (made once by ``tools/make_tile_faces.py``; ``faces/NOTICE.md``)
pasted into the face area: 一萬…九萬, the coins, the bamboos, 東南西北, 發, 中 and the artwork's own
red fives (red, with a dot). The artwork has no flowers and a blank white dragon, so those are the
drawn ones of the letters style: a blue frame (no letters) for the white dragon — chinitsu_toutenkou's
wildcard stays unmistakable — and the numbered flowers 1f..8f. The back is the drawn back.

``"letters"`` (for newcomers):

* man / pin / sou: a big rank digit over a suit mark — a red "m" (or 萬 with a CJK font), a drawn
  coin, drawn bamboo bars; digits are tinted per suit (black, blue, green);
* red fives: digit and mark in red plus a red dot in the top-right corner;
* winds: E S W N; dragons: a blue frame "Wh", green "Gr", red "Rd" — the names buttons and texts
  use (:mod:`bot.render.names`); with a CJK font 東南西北 / 白 發 中 with that name in a corner;
* flowers 1f..8f: the number in a flower colour over a drawn five-petal flower;
* a face-down back; sideways (rotated 90°) and dimmed (called-away) variants (both styles).

The style is ``tile_image(..., style=...)``; left out, it is the one :func:`tile_style` set for the
current context ("faces" unless set). Pictures are drawn in render worker processes, so the bot
passes the style down to them rather than setting it around a call. Images returned are shared
cache entries: paste them, never draw on them.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from importlib import resources
from typing import Literal

from PIL import Image, ImageDraw

from engine.tiles import FLOWER_BASE, HONOR_BASE, NUM_KINDS_WITH_FLOWERS, RED, kind_of

from .fonts import cjk_font, font
from .names import HONOR_NAMES

__all__ = [
    "ART_BOX",
    "ART_FILES",
    "BACK",
    "FELT",
    "STYLES",
    "Style",
    "art_path",
    "tile_image",
    "tile_size",
    "tile_style",
    "tiles_in",
    "warm_up",
]

log = logging.getLogger(__name__)

Style = Literal["faces", "letters"]
STYLES: tuple[Style, ...] = ("faces", "letters")
_STYLE: ContextVar[Style] = ContextVar("jantaku_tile_style", default="faces")

RGB = tuple[int, int, int]

# design canvas
DW, DH = 180, 240
# face area inside the border (bottom border thicker: the tile's depth)
FX0, FY0, FX1, FY1 = 9, 9, DW - 10, DH - 22

BACK = -1  # pseudo code for a face-down tile

# where the artwork goes on the design canvas: 150×200 (the artwork's 3:4), centred in the face area
ART_BOX = (15, 14, 165, 214)
WHITE = HONOR_BASE + 4

_SUITS = ("Man", "Pin", "Sou")
_HONOURS = ("Ton", "Nan", "Shaa", "Pei", "", "Hatsu", "Chun")  # the artwork's white (Haku) is blank
#: tile code -> the artwork's file name (without .png) for every face the artwork draws
ART_FILES: dict[int, str] = {
    **{k: f"{_SUITS[k // 9]}{k % 9 + 1}" for k in range(HONOR_BASE)},
    **{k | RED: f"{_SUITS[k // 9]}5-Dora" for k in (4, 13, 22)},
    **{HONOR_BASE + h: n for h, n in enumerate(_HONOURS) if n},
}

FELT = (22, 84, 58)
BORDER = (214, 138, 40)
BORDER_DARK = (150, 88, 18)
FACE = (253, 251, 244)
FACE_EDGE = (205, 196, 176)

INK = (24, 24, 28)
MAN_RED = (200, 30, 36)
PIN_BLUE = (28, 72, 170)
SOU_GREEN = (22, 120, 62)
RED5 = (222, 26, 34)
DRAGON_BLUE = (40, 96, 200)
DRAGON_GREEN = (16, 140, 70)
DRAGON_RED = (214, 28, 36)
FLOWER_PINK = (200, 40, 120)
FLOWER_PURPLE = (110, 50, 170)

_SUIT_DIGIT = (INK, PIN_BLUE, SOU_GREEN)


def tile_size(width: int) -> tuple[int, int]:
    """(width, height) of an upright tile ``width`` pixels wide (3:4)."""
    return width, round(width * 4 / 3)


def _base() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGBA", (DW, DH), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, DW - 1, DH - 1), radius=24, fill=BORDER_DARK)
    d.rounded_rectangle((3, 3, DW - 4, DH - 8), radius=22, fill=BORDER)
    return img, d


def _face(d: ImageDraw.ImageDraw) -> None:
    d.rounded_rectangle((FX0, FY0, FX1, FY1), radius=18, fill=FACE, outline=FACE_EDGE, width=2)


def _centered_text(
    d: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    text: str,
    size: int,
    fill: RGB,
    style: str = "bold",
) -> None:
    """Draw ``text`` centred (by its ink box) in ``box``, shrinking the font until it fits."""
    x0, y0, x1, y1 = box
    f = font(size, style)
    for _ in range(20):
        left, t, r, b = d.textbbox((0, 0), text, font=f)
        if r - left <= x1 - x0 and b - t <= y1 - y0:
            break
        size = int(size * 0.9)
        f = font(size, style)
    left, t, r, b = d.textbbox((0, 0), text, font=f)
    x = x0 + (x1 - x0 - (r - left)) / 2 - left
    y = y0 + (y1 - y0 - (b - t)) / 2 - t
    d.text((x, y), text, font=f, fill=fill)


def _cjk(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], ch: str, size: int, fill: RGB) -> bool:
    f = cjk_font(size)
    if f is None:
        return False
    x0, y0, x1, y1 = box
    left, t, r, b = d.textbbox((0, 0), ch, font=f)
    d.text((x0 + (x1 - x0 - (r - left)) / 2 - left, y0 + (y1 - y0 - (b - t)) / 2 - t), ch, font=f, fill=fill)
    return True


# --- suit marks (drawn in the lower part of the face) -------------------------------------------

MARK_BOX = (FX0 + 12, 134, FX1 - 12, FY1 - 6)
DIGIT_BOX = (FX0 + 6, FY0 + 6, FX1 - 6, 128)


def _mark_man(d: ImageDraw.ImageDraw, red: bool) -> None:
    colour = RED5 if red else MAN_RED
    if not _cjk(d, MARK_BOX, "萬", 66, colour):
        _centered_text(
            d, (MARK_BOX[0] - 4, MARK_BOX[1] + 4, MARK_BOX[2] + 4, MARK_BOX[3] - 4), "m", 160, colour, "serif"
        )


def _mark_pin(d: ImageDraw.ImageDraw, red: bool) -> None:
    cx = (MARK_BOX[0] + MARK_BOX[2]) / 2
    cy = (MARK_BOX[1] + MARK_BOX[3]) / 2
    r = 44
    ring = RED5 if red else PIN_BLUE
    inner = RED5 if red else MAN_RED
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ring)
    r2 = r * 0.72
    d.ellipse((cx - r2, cy - r2, cx + r2, cy + r2), fill=FACE)
    r3 = r * 0.46
    d.ellipse((cx - r3, cy - r3, cx + r3, cy + r3), fill=inner if not red else RED5)
    r4 = r * 0.16
    d.ellipse((cx - r4, cy - r4, cx + r4, cy + r4), fill=FACE)


def _mark_sou(d: ImageDraw.ImageDraw, red: bool) -> None:
    colour = RED5 if red else SOU_GREEN
    x0, y0, x1, y1 = MARK_BOX
    n = 3
    bw = 16
    span = (x1 - x0) - 24
    step = (span - bw) / (n - 1)
    for i in range(n):
        bx = x0 + 12 + i * step
        d.rounded_rectangle((bx, y0 + 2, bx + bw, y1 - 2), radius=7, fill=colour)
        # bamboo nodes
        for ny in (y0 + (y1 - y0) * 0.36, y0 + (y1 - y0) * 0.68):
            d.rectangle((bx - 2, ny - 2, bx + bw + 2, ny + 3), fill=colour)
            d.line((bx + 3, ny, bx + bw - 3, ny), fill=FACE, width=2)


def _flower(d: ImageDraw.ImageDraw, colour: RGB) -> None:
    import math

    cx = (MARK_BOX[0] + MARK_BOX[2]) / 2
    cy = (MARK_BOX[1] + MARK_BOX[3]) / 2
    R = min(MARK_BOX[2] - MARK_BOX[0], MARK_BOX[3] - MARK_BOX[1]) / 2
    pr = R * 0.42
    for i in range(5):
        a = -math.pi / 2 + i * 2 * math.pi / 5
        px, py = cx + math.cos(a) * R * 0.55, cy + math.sin(a) * R * 0.55
        d.ellipse((px - pr, py - pr, px + pr, py + pr), fill=colour)
    c = R * 0.3
    d.ellipse((cx - c, cy - c, cx + c, cy + c), fill=(246, 196, 40))


# --- faces -------------------------------------------------------------------------------------


def _draw_face(code: int) -> Image.Image:
    img, d = _base()
    if code == BACK:
        d.rounded_rectangle((FX0, FY0, FX1, FY1), radius=18, fill=(232, 160, 62))
        d.rounded_rectangle((FX0 + 14, FY0 + 14, FX1 - 14, FY1 - 14), radius=12, outline=BORDER_DARK, width=5)
        cx, cy = (FX0 + FX1) / 2, (FY0 + FY1) / 2
        s = 26
        d.polygon([(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)], fill=BORDER_DARK)
        return img
    _face(d)
    red = bool(code & RED)
    k = kind_of(code)
    if k < HONOR_BASE:
        suit, rank = divmod(k, 9)
        digit_colour = RED5 if red else _SUIT_DIGIT[suit]
        _centered_text(d, DIGIT_BOX, str(rank + 1), 128, digit_colour)
        (_mark_man, _mark_pin, _mark_sou)[suit](d, red)
        if red:
            d.ellipse((FX1 - 34, FY0 + 10, FX1 - 12, FY0 + 32), fill=RED5)
    elif k < FLOWER_BASE:
        h = k - HONOR_BASE
        box = (FX0 + 6, FY0 + 8, FX1 - 6, FY1 - 8)
        letters = HONOR_NAMES[h]  # the tile's name on buttons and in texts (bot.render.names)
        if h == 4:  # white dragon: a blue frame
            d.rounded_rectangle(
                (FX0 + 12, FY0 + 14, FX1 - 12, FY1 - 14), radius=12, outline=DRAGON_BLUE, width=10
            )
        colour = (INK, INK, INK, INK, DRAGON_BLUE, DRAGON_GREEN, DRAGON_RED)[h]
        glyph = "東南西北"[h] if h < 4 else {5: "發", 6: "中"}.get(h, "")
        if cjk_font(10) is not None:
            if glyph:
                _cjk(d, box, glyph, 130, colour)
            # the name in the top-left corner, so the face always shows what buttons call it
            _centered_text(d, (FX0 + 4, FY0 + 2, FX0 + 58, FY0 + 40), letters, 34, colour, "condensed")
        elif h < 4:
            _centered_text(d, box, letters, 150, INK)
        elif h == 4:
            _centered_text(d, (FX0 + 26, FY0 + 30, FX1 - 26, FY1 - 30), letters, 96, DRAGON_BLUE, "condensed")
        else:
            _centered_text(d, box, letters, 96, colour, "condensed")
    else:
        n = k - FLOWER_BASE + 1
        colour = FLOWER_PINK if n <= 4 else FLOWER_PURPLE
        _centered_text(d, DIGIT_BOX, str(n), 120, colour)
        _flower(d, colour)
    return img


def art_path(name: str) -> resources.abc.Traversable:
    """The bundled artwork file ``name`` (an :data:`ART_FILES` value, or ``NOTICE.md``)."""
    return resources.files(__package__ or "bot.render").joinpath(
        "faces", name if "." in name else f"{name}.png"
    )


@lru_cache(maxsize=64)
def _art(name: str) -> Image.Image | None:
    try:
        with art_path(name).open("rb") as f:
            img = Image.open(f)
            img.load()
    except OSError as e:  # a broken install: say so once per face, draw the letters instead
        log.warning("tile face %s is missing (%s): drawing its letter face", name, e)
        return None
    return img.convert("RGBA")


def _draw_art(code: int) -> Image.Image:
    if code == WHITE:  # the artwork's white is blank: the letters style's blue frame, no letters
        img, d = _base()
        _face(d)
        d.rounded_rectangle(
            (FX0 + 12, FY0 + 14, FX1 - 12, FY1 - 14), radius=12, outline=DRAGON_BLUE, width=10
        )
        return img
    name = ART_FILES.get(code)
    art = _art(name) if name is not None else None
    if art is None:  # the back, the flowers (not in the artwork), or a face missing from the install
        return _draw_face(code)
    img, d = _base()
    _face(d)
    img.alpha_composite(art, (ART_BOX[0], ART_BOX[1]))
    return img


def _check(code: int) -> None:
    if code != BACK and not (0 <= code & ~RED < NUM_KINDS_WITH_FLOWERS and code >= 0):
        raise ValueError(f"not a tile code: {code!r}")


@lru_cache(maxsize=512)
def _design(code: int, style: Style) -> Image.Image:
    _check(code)
    return _draw_art(code) if style == "faces" else _draw_face(code)


def _style(style: str | None) -> Style:
    if style is None:
        return _STYLE.get()
    if style not in STYLES:
        raise ValueError(f"tile style must be one of {', '.join(STYLES)}, not {style!r}")
    return style


@contextmanager
def tile_style(style: Style) -> Iterator[None]:
    """Within the block, tiles drawn without a ``style`` keyword use ``style`` (this thread or task
    only; a render worker process keeps its own default, so the bot passes the style to it)."""
    token = _STYLE.set(_style(style))
    try:
        yield
    finally:
        _STYLE.reset(token)


def tiles_in(style: Style | None) -> contextlib.AbstractContextManager[None]:
    """:func:`tile_style` for ``style``, or nothing for None (the style in force stays): how a
    picture function taking ``style=`` draws its tiles."""
    return contextlib.nullcontext() if style is None else tile_style(style)


def warm_up(widths: tuple[int, ...] = (54, 34, 28), style: Style | None = None) -> None:
    """Draw every face at ``widths`` now (about 0.15 s) so the first pictures are fast."""
    for w in widths:
        for code in [*range(NUM_KINDS_WITH_FLOWERS), 4 | RED, 13 | RED, 22 | RED, BACK]:
            tile_image(code, w, style=style)


def tile_image(
    code: int, width: int, *, sideways: bool = False, dim: bool = False, style: Style | None = None
) -> Image.Image:
    """The RGBA picture of ``code`` (or :data:`BACK`) ``width`` px wide when upright.

    ``sideways`` rotates it a quarter turn counter-clockwise (riichi discards, called tiles);
    ``dim`` greys it out (a discard called away by another player); ``style`` is "faces" (the
    artwork) or "letters", by default the :func:`tile_style` in force ("faces").
    """
    return _tile_image(code, width, sideways, dim, _style(style))


@lru_cache(maxsize=4096)
def _tile_image(code: int, width: int, sideways: bool, dim: bool, style: Style) -> Image.Image:
    w, h = tile_size(width)
    img = _design(code, style).resize((w, h), Image.Resampling.LANCZOS, reducing_gap=2.0)
    if dim:
        grey = Image.new("RGBA", img.size, (120, 120, 120, 255))
        a = img.getchannel("A")
        img = Image.blend(img, grey, 0.5)
        img.putalpha(a)
    if sideways:
        img = img.transpose(Image.Transpose.ROTATE_90)
    return img

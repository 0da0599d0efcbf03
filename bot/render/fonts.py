"""Fonts and text for the renderer: the fonts a picture's words are drawn in, and the one function
that draws them.

Nothing is downloaded. :func:`font` returns a cached FreeType font for a size and style: DejaVu
when the system has it, else Pillow's own; :func:`has_glyph` says whether a font really draws a
character (so the letter tiles use 萬 / 東 / 中 only when a CJK-capable font is installed, and
Latin letters otherwise: :func:`cjk_font`).

Words in a picture are in the reader's language, set for the picture being drawn with
:func:`text_in` (the render functions take ``lang=``): :func:`text_font` is :func:`font` in
English and the bundled Japanese font (``cjk/``, a subset of Noto Sans CJK JP Bold made by
tools/make_cjk_font.py, SIL OFL) in Japanese, so Japanese draws the same on every machine. Its
limit: kanji outside JIS X 0208 level 1 that the bot's own texts never use are left out (a player
name using one shows a box).

Every word a picture shows goes through :func:`draw_text`. With ``JANTAKU_PICTURE_TEXT=1`` in the
environment (render workers inherit it) the strings drawn are also kept, and
:func:`bot.render.canvas.to_png` writes them into the PNG (:func:`take_drawn`) for tests to read
back; otherwise nothing is kept and the PNG is unchanged.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from PIL import ImageDraw, ImageFont

from bot.i18n import DEFAULT, Lang

__all__ = [
    "JA_FONT",
    "TEXT_ENV",
    "FontT",
    "cjk_font",
    "draw_text",
    "font",
    "has_glyph",
    "ja_font",
    "picture_lang",
    "recording",
    "take_drawn",
    "text_font",
    "text_in",
    "text_size",
]

FontT = ImageFont.FreeTypeFont | ImageFont.ImageFont

_DIRS = (
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/dejavu",
    "/usr/share/fonts/TTF",
    "/usr/local/share/fonts",
    "/Library/Fonts",
    "C:/Windows/Fonts",
)

_FILES = {
    # style: candidate file names, best first
    "bold": ("DejaVuSans-Bold.ttf", "DejaVuSansCondensed-Bold.ttf", "Arial Bold.ttf", "arialbd.ttf"),
    "regular": ("DejaVuSans.ttf", "DejaVuSansCondensed.ttf", "Arial.ttf", "arial.ttf"),
    "condensed": ("DejaVuSansCondensed-Bold.ttf", "DejaVuSans-Bold.ttf", "arialbd.ttf"),
    "serif": ("DejaVuSerif-Bold.ttf", "DejaVuSerifCondensed-Bold.ttf", "Georgia Bold.ttf", "georgiab.ttf"),
    "mono": ("DejaVuSansMono-Bold.ttf", "DejaVuSansMono.ttf", "consolab.ttf"),
}

_CJK_FILES = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/System/Library/Fonts/PingFang.ttc",
    "C:/Windows/Fonts/msyhbd.ttc",
    "C:/Windows/Fonts/msgothic.ttc",
)


@cache
def _path(style: str) -> str | None:
    for name in _FILES.get(style, _FILES["bold"]):
        for d in _DIRS:
            p = os.path.join(d, name)
            if os.path.exists(p):
                return p
        try:  # let FreeType search its own default directories
            ImageFont.truetype(name, 10)
            return name
        except OSError:
            continue
    return None


@lru_cache(maxsize=256)
def font(size: int, style: str = "bold") -> FontT:
    """A font of ``size`` pixels: DejaVu when present, else Pillow's bundled scalable default."""
    p = _path(style)
    if p is not None:
        try:
            return ImageFont.truetype(p, size)
        except OSError:
            pass
    try:
        return ImageFont.load_default(size=size)  # Pillow >= 10.1: a scalable FreeType font
    except TypeError:  # very old Pillow: a fixed bitmap font
        return ImageFont.load_default()


#: the bundled Japanese font (tools/make_cjk_font.py)
JA_FONT = Path(__file__).resolve().parent / "cjk" / "NotoSansCJKjp-Bold.subset.otf"
#: the environment variable that makes pictures keep the strings they draw (tests)
TEXT_ENV = "JANTAKU_PICTURE_TEXT"

_LANG: ContextVar[Lang] = ContextVar("jantaku_picture_lang", default=DEFAULT)
_DRAWN: ContextVar[list[str] | None] = ContextVar("jantaku_picture_text", default=None)


@lru_cache(maxsize=64)
def ja_font(size: int) -> FontT:
    """The bundled Japanese font at ``size`` pixels (a system CJK font, then :func:`font`, if the
    file is missing)."""
    try:
        return ImageFont.truetype(str(JA_FONT), size)
    except OSError:
        return cjk_font(size) or font(size)


def picture_lang() -> Lang:
    """The language of the picture being drawn (:func:`text_in`)."""
    return _LANG.get()


def text_font(size: int, style: str = "bold") -> FontT:
    """The font a picture's words are drawn in: :func:`font` in English, :func:`ja_font` (one
    weight for every style) when the picture is in Japanese."""
    return ja_font(size) if _LANG.get() == "ja" else font(size, style)


@contextmanager
def text_in(lang: Lang | None) -> Iterator[None]:
    """Draw the words of the picture made inside in ``lang`` (None: the one in force); the
    strings kept for :func:`take_drawn` start afresh."""
    token = _LANG.set(lang or _LANG.get())
    kept = _DRAWN.set(None)
    try:
        yield
    finally:
        _DRAWN.reset(kept)
        _LANG.reset(token)


def recording() -> bool:
    """Whether pictures keep the strings they draw (``JANTAKU_PICTURE_TEXT=1``)."""
    return os.environ.get(TEXT_ENV) == "1"


def draw_text(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, *, font: FontT, **kw: Any) -> None:
    """``d.text(xy, text, font=font, **kw)``: every word of a picture is drawn here, and kept for
    :func:`take_drawn` when :func:`recording`."""
    if text and recording():
        drawn = _DRAWN.get()
        if drawn is None:
            drawn = []
            _DRAWN.set(drawn)
        drawn.append(text)
    d.text(xy, text, font=font, **kw)


def take_drawn() -> list[str] | None:
    """The strings drawn since the picture began (None when not :func:`recording`); the next
    picture starts afresh."""
    if not recording():
        return None
    drawn = _DRAWN.get()
    _DRAWN.set(None)
    return drawn or []


@lru_cache(maxsize=64)
def cjk_font(size: int) -> FontT | None:
    """A font that draws 萬 東 南 西 北 發 中, or ``None`` when the system has none."""
    for p in _CJK_FILES:
        if os.path.exists(p):
            try:
                f = ImageFont.truetype(p, size)
            except OSError:
                continue
            if all(has_glyph(f, ch) for ch in "萬東發中"):
                return f
    return None


def has_glyph(f: FontT, ch: str) -> bool:
    """True when ``f`` draws ``ch`` as something other than its missing-glyph box."""
    try:
        mask = f.getmask(ch)
        missing = f.getmask("\uffff")
    except Exception:  # pragma: no cover - broken font
        return False
    if mask.getbbox() is None:
        return False
    return bytes(mask) != bytes(missing) or mask.size != missing.size


def text_size(f: FontT, text: str) -> tuple[int, int]:
    """Width and height of ``text`` drawn at the origin (bbox based, ascender included)."""
    left, top, right, bottom = f.getbbox(text)
    return int(right - left), int(bottom - top)

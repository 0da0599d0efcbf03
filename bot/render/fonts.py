"""Font discovery for the renderer: DejaVu (or a CJK font) when the system has one, else Pillow's own.

Nothing is downloaded. :func:`font` returns a cached FreeType font for a size and style;
:func:`has_glyph` says whether a font really draws a character (so tiles can use 萬 / 東 / 中 only
when a CJK-capable font is installed and fall back to Latin letters otherwise).
"""

from __future__ import annotations

import os
from functools import cache, lru_cache

from PIL import ImageFont

__all__ = ["FontT", "cjk_font", "font", "has_glyph", "text_size"]

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

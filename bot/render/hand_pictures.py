"""Hand pictures: a strip of tiles, and a hand with its drawn tile and melds (a player's own hand,
also under the table picture drawn for them).

Pure functions: tile codes and melds in, PNG bytes (or an image) out; drawn with
:mod:`bot.render.canvas`.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from bot.i18n import DEFAULT, Lang

from .canvas import (
    HAND_W,
    MUTED,
    TEXT,
    Item,
    draw_items,
    drawing,
    fit_text,
    hand_items_of,
    hand_width,
    layout_items,
    meld_items_of,
    new_canvas,
    to_png,
)
from .fonts import draw_text, text_font
from .tiles import Style, tile_size
from .views import Meld

__all__ = ["HAND_ROW_TILES", "hand_fit", "hand_image", "hand_rows", "render_hand", "render_tiles"]


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
    with drawing(style, lang):
        return _tiles_strip(codes, highlight, gap_before_last, numbered)


def _tiles_strip(codes: Sequence[int], highlight: int | None, gap_before_last: bool, numbered: bool) -> bytes:
    tw, th = tile_size(HAND_W)
    items = [Item(c) for c in codes]
    if gap_before_last and len(items) > 1:
        items[-1].gap = 14
    if highlight is not None and 0 <= highlight < len(items):
        items[highlight].mark = True
        items[highlight].lift = 6
    _, width, height = layout_items(items, tw)
    pad = 10
    label_h = 20 if numbered else 0
    img, d = new_canvas(width + 2 * pad, max(height, th) + 2 * pad + label_h + 6)
    baseline = pad + 6 + max(height - 6, th)
    draw_items(img, items, tw, pad, baseline)
    if numbered:
        f = text_font(15)
        rects, _, _ = layout_items(items, tw)
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
    with drawing(style, lang):
        return to_png(hand_image(concealed, melds, drawn, title=title), palette="default")


def hand_image(
    concealed: Sequence[int], melds: Sequence[Meld], drawn: int | None, *, title: str = "", tile_w: int = HAND_W
) -> Image.Image:
    tw, th = tile_size(tile_w)
    rows = hand_rows(concealed, drawn, melds, tile_w)
    pad = 12
    w = hand_width(max(layout_items(r, tw)[1] for r in rows), pad)
    # the title is ~12 px when a phone shrinks the picture to 360 px (20 px at least)
    size = max(20, min(30, w * 12 // 360))
    title_h = size + 12 if title else 0
    f = text_font(size)
    heights = [max(layout_items(r, tw)[2], th) for r in rows]
    img, d = new_canvas(w, title_h + sum(heights) + 8 * (len(rows) - 1) + 2 * pad)
    if title:
        while size > 12 and f.getlength(title) > w - 2 * pad:  # shrink a long title rather than cut it
            size -= 1
            f = text_font(size)
        draw_text(d, (pad, pad + title_h / 2 - 4), fit_text(title, f, w - 2 * pad), font=f, fill=TEXT, anchor="lm")
    y = title_h + pad
    for r, h in zip(rows, heights):
        y += h
        draw_items(img, r, tw, pad, y)
        y += 8
    return img


#: a hand row wider than this many tiles (concealed, drawn and melds) puts its melds on a row
#: below: 14 tiles and the drawn tile's gap, so a phone (~360 px) shows tiles of ~24 px, not ~18
HAND_ROW_TILES = 14.5


def hand_rows(concealed: Sequence[int], drawn: int | None, melds: Sequence[Meld], tile_w: int) -> list[list[Item]]:
    """The hand's tile rows: one row, or (when that is wider than :data:`HAND_ROW_TILES`) the
    concealed tiles and the drawn tile, then the melds on a row below."""
    tw = tile_size(tile_w)[0]
    one = hand_items_of(concealed, drawn, melds, extra_gap=14, meld_gap=24)
    if not melds or layout_items(one, tw)[1] <= HAND_ROW_TILES * (tw + 1):
        return [one]
    meld_items: list[Item] = []
    for m in melds:
        meld_items.extend(meld_items_of(m, gap=12 if meld_items else 0))
    return [hand_items_of(concealed, drawn, [], extra_gap=14, meld_gap=24), meld_items]


def hand_fit(concealed: Sequence[int], melds: Sequence[Meld], drawn: int | None, tile_w: int) -> int:
    """The width of :func:`hand_image`'s picture at ``tile_w``."""
    tw = tile_size(tile_w)[0]
    return hand_width(max(layout_items(r, tw)[1] for r in hand_rows(concealed, drawn, melds, tile_w)))



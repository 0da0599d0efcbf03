"""Rendered PNG pictures for the bot (Pillow, drawn in code; no Discord imports).

* :func:`render_tiles` — a strip of tiles (a hand, optionally the drawn tile set apart)
* :func:`render_hand` — concealed tiles, drawn tile and melds
* :func:`render_table` — the public table from a :class:`TableView`
* :func:`render_seat_table` — that table from one player's seat, their hand under it (for them only)
* :func:`render_open_table` — a finished game's table with every hand under it (``/replay``)
* :func:`render_result` — a hand-end result (winning hand, yaku lines, payments)
* :func:`render_final` — final standings
* :func:`picture_texts` — the strings a picture drew, read back from its PNG (tests:
  ``JANTAKU_PICTURE_TEXT=1``)

Every ``render_*`` function takes ``lang=`` ("en" or "ja") for the words it draws itself.

Tiles are tile codes from :mod:`engine.tiles` (kind 0..41, red five = kind | RED).

Layers, each importing only those below it: :mod:`.tiles`, :mod:`.fonts`, :mod:`.views` →
:mod:`.canvas` (colours, PNG encoding, shared pieces) → :mod:`.hand_pictures` →
:mod:`.table_pictures` → :mod:`.pictures` (results, standings, the render worker), :mod:`.lookup`,
:mod:`.rules_card` → :mod:`.samples` → :mod:`.palette`; this package registers the palette's
samples with the canvas.
"""

from .canvas import learn_palette_from
from .palette import palette_samples
from .pictures import (
    picture_texts,
    render_final,
    render_hand,
    render_open_table,
    render_result,
    render_seat_table,
    render_table,
    render_tiles,
    to_png,
)
from .tiles import BACK, tile_image, warm_up
from .views import Meld, ResultView, SeatView, TableView, WinView

learn_palette_from(palette_samples)  # the shared palette is learned from the sample pictures

__all__ = [
    "BACK",
    "Meld",
    "ResultView",
    "SeatView",
    "TableView",
    "WinView",
    "picture_texts",
    "render_final",
    "render_hand",
    "render_open_table",
    "render_result",
    "render_seat_table",
    "render_table",
    "render_tiles",
    "tile_image",
    "to_png",
    "warm_up",
]

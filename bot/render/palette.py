"""The sample pictures the bot's shared palette is learned from (:func:`bot.render.canvas.fixed_palette`).

The palette is learned from the pictures the bot draws, so it sits above them: this module draws
the samples (:mod:`bot.render.samples`) and the package hands :func:`palette_samples` to
:func:`bot.render.canvas.learn_palette_from` when it loads; the canvas the samples are drawn
with never imports them.
"""

from __future__ import annotations

import io

from PIL import Image

from .samples import sample_pictures
from .tiles import STYLES, tile_style

__all__ = ["palette_samples"]

#: the samples the shared palette is learned from, per tile style: every picture drawn with this
#: module's palette in the default style, and in the other the pictures holding all its tile
#: colours (a sheet of every picture twice takes seconds to quantise, at each worker's start)
_PALETTE_SAMPLES = {
    "faces": {"tiles", "tiles_numbered", "all_tiles", "hand", "result", "result_melds", "result_double", "final",
              "table4", "table4_rotated", "table3", "table3_rotated", "rules_card"},
    "letters": {"all_tiles", "table4", "result"},
}


def palette_samples() -> list[Image.Image]:
    """The sample pictures of :data:`_PALETTE_SAMPLES`, drawn in each tile style, in RGB."""
    parts: list[Image.Image] = []
    for style in STYLES:
        with tile_style(style):
            parts += [
                Image.open(io.BytesIO(make())).convert("RGB")
                for name, make in sample_pictures().items()
                if name in _PALETTE_SAMPLES[style]
            ]
    return parts

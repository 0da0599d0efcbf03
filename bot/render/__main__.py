"""``python -m bot.render [DIR]``: write the sample pictures in both tile styles (default
/tmp/render_samples): ``DIR/<style>/<name>.png`` as sent, ``DIR/<style>/phone/<name>.png`` scaled to
the ~360 px a phone shows."""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image

from .samples import write_samples
from .tiles import STYLES, tile_style

PHONE_W = 360


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "/tmp/render_samples")
    for style in STYLES:
        with tile_style(style):
            stats = write_samples(out / style)
        (out / style / "phone").mkdir(exist_ok=True)
        for name, (size, ms) in stats.items():
            img = Image.open(out / style / f"{name}.png").convert("RGB")
            if img.width > PHONE_W:
                img = img.resize((PHONE_W, round(img.height * PHONE_W / img.width)), Image.Resampling.LANCZOS)
            small = img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
            small.save(out / style / "phone" / f"{name}.png", optimize=True)
            print(f"{out}/{style}/{name}.png  {size / 1024:6.1f} KB  {ms:6.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

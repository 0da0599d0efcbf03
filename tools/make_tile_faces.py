"""Make bot/render/faces/: the tile artwork the renderer pastes on its tile bodies, run once by hand.

``python -m tools.make_tile_faces CLONE`` reads FluffyStuff's riichi-mahjong-tiles (public domain,
CC0) from a git clone of it (a bare one will do), takes the author's own PNG exports of the
"Regular" set (600×800, transparent around the drawing), scales each to the art box of the
renderer's 180×240 design canvas and writes it as a small palette PNG, plus NOTICE.md with the
licence and the commit the faces came from. The bot reads only those PNGs: no SVG library, no
network at run time. Only the faces the bot draws are written (the white dragon of the artwork is
blank and flowers are not in the set: the renderer draws those itself).
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from PIL import Image

from bot.render.tiles import ART_BOX, ART_FILES

OUT = Path(__file__).resolve().parent.parent / "bot" / "render" / "faces"
SET = "Export/Regular"
COLOURS = 96  # palette size: the faces have few colours; 96 keeps the anti-aliased edges smooth


def _show(clone: str, rev: str) -> bytes:
    return subprocess.run(["git", "-C", clone, "show", rev], check=True, capture_output=True).stdout


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    clone = argv[0]
    commit = subprocess.run(
        ["git", "-C", clone, "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    ).stdout.strip()
    licence = _show(clone, "HEAD:LICENSE.md").decode().strip()
    if "public domain" not in licence or "publicdomain/zero" not in licence:
        print(f"LICENSE.md does not say CC0 / public domain:\n{licence}")
        return 1
    x0, y0, x1, y1 = ART_BOX
    size = (x1 - x0, y1 - y0)
    OUT.mkdir(parents=True, exist_ok=True)
    total = 0
    for name in sorted(set(ART_FILES.values())):
        src = Image.open(io.BytesIO(_show(clone, f"HEAD:{SET}/{name}.png"))).convert("RGBA")
        art = src.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)
        small = art.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        path = OUT / f"{name}.png"
        small.save(path, optimize=True)
        total += path.stat().st_size
    (OUT / "NOTICE.md").write_text(
        "# Tile faces\n\n"
        "The PNG files in this folder are FluffyStuff's riichi-mahjong-tiles "
        '(https://github.com/FluffyStuff/riichi-mahjong-tiles), the "Regular" set\'s own PNG exports '
        f"at commit {commit}, scaled to {size[0]}×{size[1]} and reduced to a {COLOURS}-colour palette "
        "by tools/make_tile_faces.py.\n\n"
        "Their licence, LICENSE.md of that repository, reads:\n\n"
        f"> {licence}\n\n"
        "That is CC0 1.0 Universal (https://creativecommons.org/publicdomain/zero/1.0/): no rights "
        "reserved. We thank the author all the same.\n",
        encoding="utf-8",
    )
    print(f"{len(set(ART_FILES.values()))} faces, {total / 1024:.1f} KB, in {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""``python -m bot.render [DIR]`` and ``python -m bot.render gallery DIR``.

* ``[DIR]`` (default /tmp/render_samples): every sample picture in both tile styles as sent,
  ``DIR/<style>/<name>.png``, and scaled to the ~360 px a phone shows, ``DIR/<style>/phone/``;
  the same in Japanese under ``DIR/ja/``; prints sizes and timings.
* ``gallery DIR`` (the repository's is docs/gallery): every sample at phone width only, in both
  tile styles and both languages (English ``DIR/<style>/<name>.png``, Japanese
  ``DIR/ja/<style>/<name>.png``, 256 colours), and ``DIR/README.md``, the index that shows the
  two styles side by side with what each picture is, English first, then Japanese.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image

from bot.i18n import DEFAULT, LANGS, Lang

from .samples import ABOUT, sample_pictures, untranslated, write_samples
from .tiles import STYLES, tile_style

PHONE_W = 360


def phone(img: Image.Image) -> Image.Image:
    """``img`` as a phone shows it: at most :data:`PHONE_W` wide, in 256 colours (no dithering)."""
    img = img.convert("RGB")
    if img.width > PHONE_W:
        img = img.resize((PHONE_W, round(img.height * PHONE_W / img.width)), Image.Resampling.LANCZOS)
    return img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def lang_dir(out: Path, lang: Lang) -> Path:
    """Where a language's pictures go: ``out`` for English, ``out/<lang>`` for the others."""
    return out if lang == DEFAULT else out / lang


def samples(out: Path) -> int:
    for lang in (DEFAULT, *[x for x in LANGS if x != DEFAULT]):
        base = lang_dir(out, lang)
        for style in STYLES:
            with tile_style(style):
                stats = write_samples(base / style, lang)
            (base / style / "phone").mkdir(exist_ok=True)
            for name, (size, ms) in stats.items():
                phone(Image.open(base / style / f"{name}.png")).save(base / style / "phone" / f"{name}.png", optimize=True)
                print(f"{base}/{style}/{name}.png  {size / 1024:6.1f} KB  {ms:6.1f} ms")
    return 0


def gallery(out: Path) -> int:
    """Write the gallery into ``out``; returns the exit status."""
    names = [n for n in ABOUT if n in sample_pictures()] + [n for n in sample_pictures() if n not in ABOUT]
    others = [x for x in LANGS if x != DEFAULT]
    sizes: dict[str, dict[str, int]] = {}
    for lang in (DEFAULT, *others):
        for style in STYLES:
            (lang_dir(out, lang) / style).mkdir(parents=True, exist_ok=True)
            with tile_style(style):
                pictures = sample_pictures(lang)
                for name in names:
                    if name in untranslated(lang):
                        continue
                    sent = Image.open(io.BytesIO(pictures[name]()))
                    phone(sent).save(lang_dir(out, lang) / style / f"{name}.png", optimize=True)
                    if lang == DEFAULT:
                        sizes.setdefault(name, {})[style] = sent.width
    lines = [
        "# The bot's pictures at phone width",
        "",
        "Every picture the bot draws, as Discord's mobile client shows it (~360 px wide), in both tile",
        "styles: the real tile faces (FluffyStuff's riichi-mahjong-tiles, CC0: `bot/render/faces/NOTICE.md`)",
        "and the letter faces for newcomers (`/prefs tiles`, `/prefs club_tiles`). Made by",
        "`python -m bot.render gallery docs/gallery` from the samples in `bot/render/samples.py`;",
        "the width each picture is sent at is in brackets.",
        "",
        "| picture | faces | letters |",
        "|---|---|---|",
    ]
    for name in names:
        about = ABOUT.get(name, name)
        cells = " | ".join(f'<img src="{style}/{name}.png" width="{PHONE_W}" alt="{name}, {style}">' for style in STYLES)
        lines.append(f"| **{name}** ({sizes[name][STYLES[0]]} px): {about} | {cells} |")
    for lang in others:
        lines += [
            "",
            f"## The same in Japanese (`{lang}`)",
            "",
            "What a player whose Discord language is Japanese sees: every word drawn from the",
            "Japanese catalog, in the bundled Japanese font (`bot/render/cjk/NOTICE.md`).",
            "",
            "| picture | faces | letters |",
            "|---|---|---|",
        ]
        for name in names:
            cells = " | ".join(
                "(not yet in Japanese)"
                if name in untranslated(lang)
                else f'<img src="{lang}/{style}/{name}.png" width="{PHONE_W}" alt="{name}, {style}, {lang}">'
                for style in STYLES
            )
            lines.append(f"| **{name}** | {cells} |")
    (out / "README.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    total = sum(p.stat().st_size for p in out.rglob("*.png"))
    print(f"{out}: {len(names)} pictures × {len(STYLES)} styles × {len(LANGS)} languages, {total / 1024:.0f} KB")
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["gallery"]:
        if len(argv) != 2:
            print("usage: python -m bot.render gallery DIR", file=sys.stderr)
            return 2
        return gallery(Path(argv[1]))
    return samples(Path(argv[0] if argv else "/tmp/render_samples"))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

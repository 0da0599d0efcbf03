"""Make bot/render/cjk/: the Japanese font the pictures draw Japanese text with, run once by hand.

``python -m tools.make_cjk_font FONT`` reads Noto Sans CJK Bold (SIL Open Font License 1.1) from
``FONT`` (Debian's fonts-noto-cjk ships it as /usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc;
the collection's first font is the Japanese one) and writes a subset of it: ASCII and Latin-1,
general punctuation, the CJK symbols, kana and full-width forms, the kanji of JIS X 0208 level 1
(the everyday ones), and every other character of the bot's catalogs, rule texts, engine sources
and the clubs' seed texts (so each term the bot writes is in it, taiwan16's Chinese names too).
Hinting is dropped (the pictures are drawn large and scaled down). About 1.8 MB instead of 20.

The bot reads only that file (:mod:`bot.render.fonts`): nothing is downloaded or looked up on the
system at run time, so a fresh machine set up as the README says draws Japanese. Its licence and
where it came from are written beside it (``OFL.txt``, ``NOTICE.md``).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bot" / "render" / "cjk"
FILE = "NotoSansCJKjp-Bold.subset.otf"
#: text files whose characters must all be in the font (besides the fixed ranges)
TEXTS = ("bot/locale/**/*.po", "bot/rules_text/**/*.md", "engine/**/*.py", "bot/**/*.py")
SEEDS = ROOT.parent / "shared" / "seeds"

_RANGES = (
    (0x20, 0x7F),  # ASCII
    (0xA0, 0x100),  # Latin-1
    (0x2000, 0x2070),  # general punctuation
    (0x2190, 0x2200),  # arrows
    (0x2460, 0x24FF),  # circled numbers
    (0x25A0, 0x2600),  # geometric shapes (◀ ▶ ○ ●)
    (0x3000, 0x3100),  # CJK symbols, hiragana, katakana
    (0xFF00, 0xFFF0),  # full-width forms
)


def characters() -> set[int]:
    chars = {cp for lo, hi in _RANGES for cp in range(lo, hi)}
    for cp in range(0x4E00, 0xA000):  # JIS X 0208 level 1: Shift_JIS lead bytes 0x88..0x98
        try:
            if chr(cp).encode("shift_jis")[0] <= 0x98:
                chars.add(cp)
        except UnicodeEncodeError:
            continue
    files = [p for pattern in TEXTS for p in ROOT.glob(pattern)] + sorted(SEEDS.glob("*.txt"))
    for p in files:
        chars |= {ord(c) for c in p.read_text(encoding="utf-8", errors="ignore") if ord(c) >= 0x2E80}
    return chars


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    from fontTools import subset  # type: ignore[import-untyped]  # matplotlib's dependency
    from fontTools.ttLib import TTCollection, TTFont  # type: ignore[import-untyped]

    src = argv[0]
    font = TTCollection(src).fonts[0] if src.lower().endswith((".ttc", ".otc")) else TTFont(src)
    name = font["name"].getDebugName(4)
    version = font["name"].getDebugName(5)
    opts = subset.Options()
    opts.layout_features = ["*"]
    opts.name_IDs = ["*"]
    opts.hinting = False
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=characters())
    sub.subset(font)
    OUT.mkdir(parents=True, exist_ok=True)
    font.save(OUT / FILE)
    (OUT / "NOTICE.md").write_text(
        "# The Japanese font of the pictures\n\n"
        f"`{FILE}` is a subset of {name} ({version}), Noto Sans CJK by Adobe and Google "
        "(https://github.com/notofonts/noto-cjk), made by tools/make_cjk_font.py: ASCII, Latin-1, "
        "punctuation, kana, full-width forms, the kanji of JIS X 0208 level 1 and every other character "
        "the bot's texts use; hinting removed.\n\n"
        "It is licensed under the SIL Open Font License, Version 1.1 (`OFL.txt` beside it): "
        "© 2014-2021 Adobe (http://www.adobe.com/), with Reserved Font Name 'Source'.\n",
        encoding="utf-8",
    )
    print(f"{OUT / FILE}: {(OUT / FILE).stat().st_size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""bot.render.tiles: the real tile faces (FluffyStuff's CC0 artwork) for every tile of every ruleset,
the letter faces as the other style, and the bundled notice (issue 21, "Tiles")."""

from __future__ import annotations

import tomllib
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import bot.render.tiles as tiles_mod
from bot.render.__main__ import main as gallery_main
from bot.render.tiles import (
    ART_BOX,
    ART_FILES,
    BACK,
    FACE,
    STYLES,
    WHITE,
    tile_image,
    tile_size,
    tile_style,
)
from engine.rules import find_ruleset, ruleset_names
from engine.table.game import Game
from engine.tiles import FLOWER_BASE, RED, kind_of

DESIGN_W = 180  # the design canvas: tile_image at this width is the face as drawn
FACES_DIR = Path(tiles_mod.__file__).parent / "faces"
ROOT = Path(__file__).resolve().parents[2]


def _ruleset_codes(name: str) -> list[int]:
    """Every tile code (kind and red bit) of the ruleset's physical tile set."""
    return sorted({c for c in Game(find_ruleset(name)).tileset.codes if c >= 0})


ALL_RULESET_CODES = sorted({c for n in ruleset_names() for c in _ruleset_codes(n)})


def _rgb(img: Image.Image) -> np.ndarray:
    return np.asarray(img.convert("RGB")).astype(np.int16)


def _face_area(img: Image.Image) -> np.ndarray:
    return _rgb(img.crop(ART_BOX))


def _artwork_on_face(name: str) -> np.ndarray:
    """The bundled artwork file as it should look on the tile: over the face colour, at its box."""
    art = Image.open(FACES_DIR / f"{name}.png").convert("RGBA")
    assert art.size == (ART_BOX[2] - ART_BOX[0], ART_BOX[3] - ART_BOX[1])
    ground = Image.new("RGBA", art.size, (*FACE, 255))
    return _rgb(Image.alpha_composite(ground, art))


def test_the_rulesets_use_flowers_and_red_fives() -> None:
    """The sweep below really covers flowers (taiwan16), red fives and the white wildcard."""
    assert {4 | RED, 13 | RED, 22 | RED} <= set(ALL_RULESET_CODES)
    assert set(range(FLOWER_BASE, FLOWER_BASE + 8)) <= set(_ruleset_codes("taiwan16"))
    assert WHITE in _ruleset_codes("chinitsu_toutenkou")


@pytest.mark.parametrize("ruleset", ruleset_names())
def test_every_tile_of_every_ruleset_shows_its_artwork(ruleset: str) -> None:
    for code in _ruleset_codes(ruleset):
        faces = tile_image(code, DESIGN_W, style="faces")
        letters = tile_image(code, DESIGN_W, style="letters")
        if kind_of(code) >= FLOWER_BASE or code == WHITE:
            continue  # not in the artwork: checked below
        name = ART_FILES[code]
        drawn = _face_area(faces)
        diff = np.abs(drawn - _artwork_on_face(name)).mean()
        assert diff < 2.0, (ruleset, code, name, diff)
        # and it is not the letter drawing
        assert np.abs(drawn - _face_area(letters)).mean() > 8.0, (ruleset, code, name)


def test_red_fives_use_the_red_artwork() -> None:
    for suit in range(3):
        five = 9 * suit + 4
        assert ART_FILES[five | RED].endswith("5-Dora") and ART_FILES[five] == ART_FILES[five | RED][:-5]

        def strong_red(img: Image.Image) -> int:
            px = _face_area(img)
            return int(((px[..., 0] > 180) & (px[..., 1] < 80) & (px[..., 2] < 80)).sum())

        red, plain = tile_image(five | RED, DESIGN_W), tile_image(five, DESIGN_W)
        assert strong_red(red) > strong_red(plain) + 500, suit


def test_flowers_and_the_white_keep_their_drawn_faces() -> None:
    """The artwork has no flowers and a blank white dragon: those keep the drawn faces, so
    taiwan16's flowers stay numbered and chinitsu_toutenkou's wildcard stays a framed tile."""
    assert not (FACES_DIR / "Haku.png").exists()
    for n in range(8):
        code = FLOWER_BASE + n
        assert (
            _rgb(tile_image(code, 54, style="faces")).tolist()
            == _rgb(tile_image(code, 54, style="letters")).tolist()
        )
    white = _rgb(tile_image(WHITE, DESIGN_W, style="faces"))
    blue = (np.abs(white - np.array(tiles_mod.DRAGON_BLUE)) <= 20).all(axis=2).sum()
    assert blue > 3000  # the blue frame
    # no letters inside the frame: the inside is plain face colour
    inner = white[60:180, 50:130]
    assert (np.abs(inner - np.array(FACE)) <= 3).all()


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("width", [54, 34, 28])
def test_both_styles_draw_every_tile_distinctly(style: str, width: int) -> None:
    codes = [*ALL_RULESET_CODES, BACK]
    pics = {c: tile_image(c, width, style=style) for c in codes}  # type: ignore[arg-type]
    for c, img in pics.items():
        assert img.size == tile_size(width) and img.mode == "RGBA", c
        side = tile_image(c, width, sideways=True, style=style)  # type: ignore[arg-type]
        assert side.size == tile_size(width)[::-1]
        dim = tile_image(c, width, dim=True, style=style)  # type: ignore[arg-type]
        assert _rgb(dim).mean() != _rgb(img).mean()
    for a, b in combinations(codes, 2):
        assert pics[a].tobytes() != pics[b].tobytes(), (style, a, b)


def test_the_back_is_the_same_in_both_styles() -> None:
    assert tile_image(BACK, 34, style="faces").tobytes() == tile_image(BACK, 34, style="letters").tobytes()


def test_the_default_style_is_faces_and_tile_style_switches_it() -> None:
    code = 9  # 1p
    assert tile_image(code, 34) is tile_image(code, 34, style="faces")
    with tile_style("letters"):
        assert tile_image(code, 34) is tile_image(code, 34, style="letters")
        assert tile_image(code, 34, style="faces") is not tile_image(code, 34)
    assert tile_image(code, 34) is tile_image(code, 34, style="faces")


def test_an_unknown_style_is_refused() -> None:
    with pytest.raises(ValueError, match="faces, letters"):
        tile_image(0, 34, style="emoji")  # type: ignore[arg-type]
    with pytest.raises(ValueError), tile_style("emoji"):  # type: ignore[arg-type]
        pass


def test_the_artwork_and_its_notice_are_bundled() -> None:
    notice = (FACES_DIR / "NOTICE.md").read_text(encoding="utf-8")
    assert "FluffyStuff" in notice and "public domain" in notice
    assert "creativecommons.org/publicdomain/zero/1.0" in notice
    bundled = {p.stem for p in FACES_DIR.glob("*.png")}
    assert bundled == set(ART_FILES.values())  # every face drawn, nothing unused
    # a normal (non-editable) install copies them: they are package data
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    globs = data["package-data"]["bot"]
    assert "render/faces/*.png" in globs and "render/faces/NOTICE.md" in globs


def test_the_gallery_writes_both_styles(tmp_path: Path) -> None:
    assert gallery_main([str(tmp_path)]) == 0
    for style in STYLES:
        hand = Image.open(tmp_path / style / "hand.png")
        phone = Image.open(tmp_path / style / "phone" / "hand.png")
        assert phone.width == 360 < hand.width
    faces = _rgb(Image.open(tmp_path / "faces" / "all_tiles.png"))
    letters = _rgb(Image.open(tmp_path / "letters" / "all_tiles.png"))
    assert faces.shape == letters.shape and np.abs(faces - letters).mean() > 5


def test_the_gallery_shows_every_sample_at_phone_width_in_both_styles(tmp_path: Path) -> None:
    from bot.render.samples import ABOUT, sample_pictures

    assert gallery_main(["gallery", str(tmp_path)]) == 0
    names = set(sample_pictures())
    assert set(ABOUT) == names  # every picture has its caption
    index = (tmp_path / "README.md").read_text(encoding="utf-8")
    for style in STYLES:
        written = {p.stem for p in (tmp_path / style).glob("*.png")}
        assert written == names, style
        for name in names:
            img = Image.open(tmp_path / style / f"{name}.png")
            assert img.width <= 360 and img.mode == "P", (style, name)
            assert f'src="{style}/{name}.png"' in index
    # the styles differ where tiles are drawn, not in the standings (no tiles)
    a, b = (_rgb(Image.open(tmp_path / s / "table4.png")) for s in STYLES)
    assert a.shape == b.shape and np.abs(a - b).mean() > 2
    a, b = (_rgb(Image.open(tmp_path / s / "final.png")) for s in STYLES)
    assert (a == b).all()


def test_the_committed_gallery_is_complete_and_small() -> None:
    """docs/gallery is what ``python -m bot.render gallery docs/gallery`` writes: every sample in
    both styles, the index naming each, under 2 MB in all."""
    from bot.render.samples import sample_pictures

    gallery = ROOT / "docs" / "gallery"
    index = (gallery / "README.md").read_text(encoding="utf-8")
    for style in STYLES:
        assert {p.stem for p in (gallery / style).glob("*.png")} == set(sample_pictures()), style
        for name in sample_pictures():
            assert f'src="{style}/{name}.png"' in index
    assert sum(p.stat().st_size for p in gallery.rglob("*.png")) < 2 * 1024 * 1024

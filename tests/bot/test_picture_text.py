"""The words inside the pictures, in the reader's language: the strings a picture drew are read back
from the PNG (``JANTAKU_PICTURE_TEXT=1``, :func:`bot.render.picture_texts`), so a test sees what a
player reads; Japanese pictures hold the Japanese catalog's words and no English, English pictures
the English ones; the Japanese font is the bundled one; the gallery shows both languages."""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from bot.i18n import t
from bot.render import picture_texts, render_final, render_result, render_table
from bot.render.fonts import JA_FONT, TEXT_ENV, has_glyph, ja_font, text_font, text_in
from bot.render.samples import sample_pictures, sample_table, untranslated
from bot.render.tiles import STYLES
from bot.render.variants import result_view, round_text
from engine.rules import find_ruleset
from engine.table.game import Game
from tests.engine.scripted import play, scripted_game

NAMES = ["Alice", "Bob", "Carol", "Dan"]
ROOT = Path(__file__).resolve().parents[2]
#: Latin words a Japanese picture may hold: the players' names, tile names (6m), "AI" (the glossary's word)
LATIN_OK = {*NAMES, "DanTheVeryLongNamedPlayer", "AI"}


def _double_ron() -> Game:
    """R-6.7's double ron: Bob and Carol both win on Alice's 6m."""
    g = scripted_game(
        find_ruleset("riichi"),
        [None, "45m234p567s678s22p", "45m234p567s678s33p", None],
        "6m",
        start=(0, 0, 1, 1),
    )
    play(g, "0d6m", "1h", "2h")
    return g


def _english_words(texts: list[str]) -> set[str]:
    """Latin words of two letters or more, other than the players' names (whole, or cut short to
    fit a plate)."""
    words = {w for s in texts for w in re.findall(r"[A-Za-z]{2,}", s)}
    return {w for w in words if not any(ok.startswith(w) for ok in LATIN_OK)}


def _cjk(texts: list[str]) -> bool:
    return any("\u3000" <= ch <= "\u9fff" for s in texts for ch in s)


def test_picture_text_is_off_by_default_and_leaves_the_png_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    view = result_view(_double_ron(), 0, NAMES)
    assert view is not None
    monkeypatch.delenv(TEXT_ENV, raising=False)
    plain = render_result(view)
    assert b"iTXt" not in plain and picture_texts(plain) == []
    monkeypatch.setenv(TEXT_ENV, "1")
    kept = render_result(view)
    assert b"iTXt" in kept and picture_texts(kept)
    a, b = (np.asarray(Image.open(io.BytesIO(png)).convert("RGB")) for png in (plain, kept))
    assert (a == b).all()  # the same picture, only the chunk added


def test_a_japanese_result_picture_holds_the_japanese_texts_and_no_english(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(TEXT_ENV, "1")
    g = _double_ron()
    view = result_view(g, 0, NAMES, lang="ja")
    assert view is not None
    texts = picture_texts(render_result(view, lang="ja"))
    assert t("ja", "{name} wins by ron from {payer}", name="Bob", payer="Alice") in texts
    assert "BobがAliceからロン和了" in texts  # what the catalog says, written by hand
    assert view.title in texts and view.title == "東1局 1本場 · ダブロン"
    assert {"平和", "断幺九", "1翻", "2翻30符 = 2,000"} <= set(texts)  # yaku by their catalog names
    for word in ("合計", "収支", "ドラ"):
        assert any(word in s for s in texts), word
    assert not _english_words(texts), _english_words(texts)


def test_an_english_result_picture_holds_the_english_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TEXT_ENV, "1")
    view = result_view(_double_ron(), 0, NAMES)
    assert view is not None
    texts = picture_texts(render_result(view, style="letters"))
    assert {"Bob wins by ron from Alice", "Carol wins by ron from Alice", "Payments", "Dora", "Total"} <= set(
        texts
    )
    assert "East 1, 1 honba · Double ron" in texts and "2 han 30 fu = 2,000" in texts and "Pinfu" in texts
    assert not _cjk(texts)


def test_a_japanese_table_picture_names_winds_dora_and_the_wall_in_japanese(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(TEXT_ENV, "1")
    texts = picture_texts(render_table(sample_table(4, lang="ja"), lang="ja"))
    assert {"東", "南", "西", "北", "ドラ", "残り42", "東2局 1本場"} <= set(texts)
    assert not _english_words(texts), _english_words(texts)
    english = picture_texts(render_table(sample_table(4)))
    assert {"E", "S", "W", "N", "dora", "wall 42", "East 2, 1 honba"} <= set(english)
    assert not _cjk(english)


def test_final_standings_in_japanese(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TEXT_ENV, "1")
    texts = picture_texts(render_final([("Alice", 42100, 62.1), ("Bob", 31000, -62.1)], lang="ja"))
    assert {"最終順位", "プレイヤー", "素点", "ポイント"} <= set(texts)
    assert not _english_words(texts)
    assert {"Final standings", "player", "score", "points"} <= set(
        picture_texts(render_final([("Alice", 1, 0.0)]))
    )


def test_round_text_in_japanese() -> None:
    g = Game(find_ruleset("riichi"), seed=1)
    assert round_text(g) == "East 1" and round_text(g, lang="ja") == "東1局"
    tw = Game(find_ruleset("chinitsu_toutenkou"), seed=1)
    assert round_text(tw, lang="ja").startswith("第1局")


def test_the_language_and_the_switch_travel_to_the_render_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot draws in worker processes: ``lang`` goes with the request, the environment variable
    is inherited, and the worker's picture is the one drawn here."""
    from bot.views.pictures import renderer as Renderer

    monkeypatch.setenv(TEXT_ENV, "1")
    view = result_view(_double_ron(), 0, NAMES, lang="ja")
    assert view is not None

    async def main() -> bytes:
        r = Renderer(1)
        try:
            await r.wait_ready()
            assert r.worker_pids()
            return await r.png("result", view, lang="ja")
        finally:
            r.close()

    png = asyncio.run(main())
    assert "収支" in picture_texts(png) and "Payments" not in picture_texts(png)
    assert png == render_result(view, lang="ja")


def test_japanese_is_drawn_in_the_bundled_font() -> None:
    """A fresh machine has no CJK font: the pictures draw Japanese with the one in bot/render/cjk
    (installed with the package), which has every character of the catalog's picture words."""
    assert JA_FONT.is_file() and JA_FONT.stat().st_size < 3 * 1024 * 1024
    f = ja_font(24)
    assert getattr(f, "path", "") == str(JA_FONT)
    for ch in "東南西北ドラ翻符満貫立直収支合計最終順位残りあなたの番です":
        assert has_glyph(f, ch), ch
    with text_in("ja"):
        assert text_font(24) is f
    assert text_font(24) is not f  # English keeps its font
    globs = (ROOT / "pyproject.toml").read_text()
    assert "render/cjk/*.otf" in globs and "render/cjk/OFL.txt" in globs
    assert (JA_FONT.parent / "OFL.txt").is_file() and (JA_FONT.parent / "NOTICE.md").is_file()


def test_every_japanese_sample_fits_and_differs_from_the_english_one() -> None:
    """Japanese strings are wider per character: every sample in Japanese keeps the English one's
    width (nothing pushed the picture wider) and draws other words."""
    en, ja = sample_pictures(), sample_pictures("ja")
    for name in en:
        if name in untranslated("ja"):
            continue
        a = Image.open(io.BytesIO(en[name]()))
        b = Image.open(io.BytesIO(ja[name]()))
        assert b.width == a.width, name
        if name not in ("tiles", "tiles_numbered", "all_tiles"):  # no words but numbers
            assert a.size != b.size or (np.asarray(a.convert("RGB")) != np.asarray(b.convert("RGB"))).any(), (
                name
            )


def test_the_gallery_shows_every_picture_in_japanese_too(tmp_path: Path) -> None:
    from bot.render.__main__ import main as gallery_main

    assert gallery_main(["gallery", str(tmp_path)]) == 0
    index = (tmp_path / "README.md").read_text(encoding="utf-8")
    for style in STYLES:
        expected = set(sample_pictures()) - untranslated("ja")
        assert {p.stem for p in (tmp_path / "ja" / style).glob("*.png")} == expected
        for name in expected:
            assert Image.open(tmp_path / "ja" / style / f"{name}.png").width <= 360
            assert f'src="ja/{style}/{name}.png"' in index
    committed = ROOT / "docs" / "gallery" / "ja"
    for style in STYLES:
        assert {p.stem for p in (committed / style).glob("*.png")} == set(sample_pictures()) - untranslated(
            "ja"
        )

"""Pictures for the look-ups: ``/score`` (hand + breakdown) and ``/shanten`` (hand + ukeire per discard).

Pure functions: plain data in, PNG bytes out (no Discord, no engine objects). Tile faces come from
:func:`bot.render.tiles.tile_image` (cached there); the layout here is deliberately small, and the
card pieces it shares with the result picture (title bar, indicator strip, breakdown rows, payments
column) come from :mod:`bot.render.canvas`.

Words: the callers give the title, rows, total, payments and footer already in the reader's
language; the labels drawn here (the indicator groups, "… and N more") come from the catalogs in
the ``lang`` the render functions take, and every word is drawn in :func:`bot.render.fonts.text_font`
(the bundled Japanese font in Japanese) through :func:`bot.render.fonts.draw_text`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from bot import i18n
from bot.i18n import DEFAULT, Lang

from .canvas import header_bar, indicator_strip, payments_column, to_png, value_line
from .fonts import FontT, draw_text, font, picture_lang, text_font, text_in
from .tiles import BACK, FELT, Style, tile_image, tile_size, tiles_in

__all__ = ["LookupMeld", "ScoreCard", "ShantenRow", "render_score_card", "render_shanten_card"]

TEXT = (242, 242, 234)
MUTED = (172, 204, 186)
GOLD = (250, 198, 56)
RULE = (40, 110, 78)

HAND_W = 48  # tile width of the hand
SMALL_W = 36  # tile width of ukeire tiles and dora indicators (~19 px on a phone)
PAD = 16
MAX_WIDTH = 1400


@dataclass(frozen=True, slots=True)
class LookupMeld:
    """A meld as drawn here: its type (``chi``, ``pon``, ``minkan``, ``ankan``, ``kakan``) and codes."""

    type: str
    codes: Sequence[int]


@dataclass(frozen=True, slots=True)
class ShantenRow:
    """One line of the shanten picture: ``discard`` (a tile code, or None for a 13-tile hand),
    a label (``"tenpai, 8 tiles"``) and the kinds that improve the hand. ``measure``: the text the
    label column is sized for besides the label (its English, so that a card keeps one width in
    every language); empty: the label alone."""

    discard: int | None
    label: str
    tiles: Sequence[int] = field(default_factory=tuple)
    measure: str = ""


@dataclass(slots=True)
class _Tile:
    code: int
    x: int
    sideways: bool = False
    mark: bool = False


def _fit(text: str, f: FontT, max_w: float) -> str:
    if f.getlength(text) <= max_w:
        return text
    while text and f.getlength(text + "…") > max_w:
        text = text[:-1]
    return text + "…" if text else ""


def _png(img: Image.Image) -> bytes:
    # flat drawings: 256 colours without dithering look the same at about a third of the size
    return to_png(img, palette=True, compress_level=6)


def _hand_row(
    concealed: Sequence[int], win_tile: int | None, melds: Sequence[LookupMeld], tw: int
) -> tuple[list[_Tile], int]:
    """Positions of the hand's tiles: concealed, the winning tile set apart, then the melds
    (the called tile of an open meld sideways, an ankan's outer tiles face down)."""
    w, h = tile_size(tw)
    out: list[_Tile] = []
    x = 0
    for c in concealed:
        out.append(_Tile(c, x))
        x += w + 1
    if win_tile is not None:
        x += 12 if concealed else 0
        out.append(_Tile(win_tile, x, mark=True))
        x += w + 1
    for i, m in enumerate(melds):
        x += 20 if (i == 0 and out) else 10 if out else 0
        codes = list(m.codes)
        kind = m.type.lower()
        for j, c in enumerate(codes):
            if kind == "ankan" and len(codes) == 4 and j in (0, 3):
                out.append(_Tile(BACK, x))
                x += w + 1
            elif kind in ("chi", "pon", "minkan", "kakan") and j == 0:
                out.append(_Tile(c, x, sideways=True))
                x += h + 1
            else:
                out.append(_Tile(c, x))
                x += w + 1
    return out, max(x - 1, 0)


def _paste_row(img: Image.Image, tiles: Sequence[_Tile], tw: int, x0: int, baseline: int) -> None:
    w, h = tile_size(tw)
    d = ImageDraw.Draw(img)
    for t in tiles:
        tile = tile_image(t.code, tw, sideways=t.sideways)
        tw_, th_ = tile.size
        y = baseline - th_
        if t.mark:
            m = max(2, tw // 12)
            d.rounded_rectangle(
                (x0 + t.x - m, y - m, x0 + t.x + tw_ - 1 + m, y + th_ - 1 + m), radius=tw // 5 + m, fill=GOLD
            )
        img.paste(tile, (x0 + t.x, y), tile)


def _small_strip(img: Image.Image, codes: Sequence[int], x0: int, baseline: int, max_w: int) -> int:
    """Small upright tiles left to right; stops (with "…") before ``max_w``. Returns the end x."""
    w, h = tile_size(SMALL_W)
    x = x0
    for i, c in enumerate(codes):
        if x + w > x0 + max_w:
            draw_text(ImageDraw.Draw(img), (x + 2, baseline - h / 2), "…", font=text_font(18), fill=MUTED, anchor="lm")
            break
        t = tile_image(c, SMALL_W)
        img.paste(t, (x, baseline - h), t)
        x += w + (1 if i + 1 < len(codes) else 0)
    return x


def _card(
    width: int, height: int, title: str, tiles: Sequence[_Tile], th: int
) -> tuple[Image.Image, ImageDraw.ImageDraw, int]:
    """A card's felt, its title bar and the hand row under it: the picture, its drawer and the y
    just under the hand."""
    img = Image.new("RGB", (width, height), FELT)
    d = ImageDraw.Draw(img)
    header_bar(d, width, title, text_font(28), pad=PAD, bar_h=40, text_y=16)
    y = PAD + 40 + 12
    _paste_row(img, tiles, HAND_W, PAD, y + th)
    return img, d, y + th


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoreCard:
    """What the ``/score`` picture shows: the hand (``concealed`` codes, ``melds``, the
    ``win_tile`` set apart), the ``title``, one ``(name, value)`` row per yaku or item, the
    ``total`` line, each seat's payment, the dora / ura indicators and a ``footer``; every text
    already in the reader's language."""

    concealed: Sequence[int]
    melds: Sequence[LookupMeld]
    win_tile: int
    title: str
    rows: Sequence[tuple[str, str]]
    total: str
    payments: Sequence[tuple[str, int]] = ()
    dora: Sequence[int] = ()
    ura: Sequence[int] = ()
    footer: str = ""


def render_score_card(card: ScoreCard, *, style: Style | None = None, lang: Lang = DEFAULT) -> bytes:
    """A scored hand: a title bar, the hand (winning tile set apart in a gold frame, melds after it),
    dora / ura indicators, then the breakdown — one row per yaku or item, the total line, and each
    seat's payment; ``style`` is the tile style (None: the one in force), ``lang`` the language of
    the labels drawn here (the card's texts are drawn as they are)."""
    with tiles_in(style), text_in(lang):
        return _score_card(card)


def _score_card(card: ScoreCard) -> bytes:
    tw, th = tile_size(HAND_W)
    tiles, hand_w = _hand_row(card.concealed, card.win_tile, card.melds, tw)
    f_row = text_font(24)  # ~12 px on a phone: the card is ~700 px wide, shown at ~360
    f_small = text_font(19, "regular")
    row_h = 32
    sw, sh = tile_size(SMALL_W)
    dora_h = sh + 26 if (card.dora or card.ura) else 0
    name_w = max([int(f_row.getlength(n)) for n, _ in card.rows] + [160])
    val_w = max([int(f_row.getlength(v)) for _, v in card.rows] + [60])
    pay_w = 300 if card.payments else 0
    width = min(
        MAX_WIDTH,
        max(
            hand_w + 2 * PAD,
            name_w + val_w + 60 + pay_w + 2 * PAD,
            int(f_row.getlength(card.total)) + 2 * PAD,
            520,
        ),
    )
    body = max(len(card.rows) + 1, len(card.payments), 1)
    foot_h = 24 if card.footer else 0
    height = PAD + 40 + 12 + th + 12 + dora_h + 12 + body * row_h + foot_h + PAD
    img, d, y = _card(width, height, card.title, tiles, th)
    y += 12
    if card.dora or card.ura:

        def indicators(codes: Sequence[int], x: int, baseline: int) -> int:
            return _small_strip(img, codes, x, baseline, width - x - PAD)

        lang = picture_lang()
        groups = ((i18n.t(lang, "Dora indicators"), card.dora), (i18n.t(lang, "Ura indicators"), card.ura))
        indicator_strip(d, groups, PAD, y, f_small, label_dy=7, tiles_dy=18 + sh, draw_tiles=indicators)
        y += dora_h
    d.line((PAD, y, width - PAD, y), fill=RULE, width=2)
    y += 12
    col_val = width - PAD - pay_w - (30 if pay_w else 0)
    for i, (name, value) in enumerate(card.rows):
        yy = y + i * row_h + row_h / 2
        value_line(d, yy, name, value, f_row, x=PAD, right=col_val, name_w=col_val - PAD - val_w - 16)
    yy = y + len(card.rows) * row_h + row_h / 2
    # the total spans the card when the payments end above it
    total_w = width - 2 * PAD if len(card.payments) <= len(card.rows) else col_val - PAD
    draw_text(d, (PAD, yy), _fit(card.total, f_row, total_w), font=f_row, fill=GOLD, anchor="lm")
    if card.payments:
        payments_column(
            d,
            card.payments,
            right=width - PAD,
            col_w=pay_w,
            top=y,
            rows=body if total_w < width - 2 * PAD else len(card.rows),
            row_h=row_h,
            f=f_row,
            name_w=pay_w - 125,
            amount="{:+,}".format,
        )
    if card.footer:
        draw_text(
            d,
            (PAD, height - PAD - 8),
            _fit(card.footer, f_small, width - 2 * PAD),
            font=f_small,
            fill=MUTED,
            anchor="lm",
        )
    return _png(img)


def render_shanten_card(
    hand: Sequence[int],
    *,
    title: str,
    rows: Sequence[ShantenRow],
    max_rows: int = 14,
    style: Style | None = None,
    lang: Lang = DEFAULT,
) -> bytes:
    """A hand and what improves it: one row per useful discard (the discard, a label such as
    ``"1-shanten · 12 tiles"`` and the improving kinds), or one row for a 13-tile hand; ``style``
    and ``lang`` as for :func:`render_score_card`."""
    with tiles_in(style), text_in(lang):
        return _shanten_card(hand, title, rows, max_rows)


def _shanten_card(hand: Sequence[int], title: str, rows: Sequence[ShantenRow], max_rows: int) -> bytes:
    tw, th = tile_size(HAND_W)
    tiles, hand_w = _hand_row(hand, None, (), tw)
    sw, sh = tile_size(SMALL_W)
    f_row = text_font(22)
    shown = list(rows[:max_rows])
    f_measure = font(22)  # the English font: the width a row's ``measure`` text takes
    label_w = max([int(max(f_row.getlength(r.label), f_measure.getlength(r.measure))) for r in shown] + [120]) + 12
    longest = max([len(r.tiles) for r in shown] + [1])
    strip_w = longest * (sw + 1)
    row_h = sh + 12
    width = min(MAX_WIDTH, max(hand_w + 2 * PAD, PAD + sw + 24 + label_w + strip_w + PAD, 520))
    extra = 26 if len(rows) > len(shown) else 0
    height = PAD + 40 + 12 + th + 14 + max(len(shown), 1) * row_h + extra + PAD
    img, d, y = _card(width, height, title, tiles, th)
    y += 8
    d.line((PAD, y, width - PAD, y), fill=RULE, width=2)
    y += 6
    for r in shown:
        base = y + row_h - 6
        x = PAD
        if r.discard is not None:
            t = tile_image(r.discard, SMALL_W)
            img.paste(t, (x, base - sh), t)
            draw_text(d, (x + sw + 4, base - sh / 2), "→", font=f_row, fill=MUTED, anchor="lm")
            x += sw + 24
        draw_text(d, (x, base - sh / 2), _fit(r.label, f_row, label_w - 8), font=f_row, fill=TEXT, anchor="lm")
        x += label_w
        _small_strip(img, r.tiles, x, base, width - x - PAD)
        y += row_h
    if extra:
        draw_text(
            d,
            (PAD, y + 12),
            i18n.t(picture_lang(), "… and {n} more", n=len(rows) - len(shown)),
            font=text_font(15, "regular"),
            fill=MUTED,
            anchor="lm",
        )
    return _png(img)

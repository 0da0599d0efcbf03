"""One name and one order for a tile everywhere a player reads it; yaku by their display names.

The pictures (:mod:`bot.render`), the buttons and the texts (``bot.presenter``, ``cogs.play``)
and the look-ups (``bot.lookups``) all name tiles with :func:`tile_name` and order them with
:func:`tile_order`, so a button says what the picture shows, in the picture's order:

* suited tiles ``1m`` … ``9s`` (the rank and the suit letter, as the faces show them); a red five
  is ``red 5m`` (its face is drawn red with a red dot);
* honours by the letters on their faces: ``E S W N`` and ``Wh Gr Rd`` (with a CJK font the faces
  show 東 … 中 and these letters in a corner);
* flowers ``1f`` … ``8f`` (taiwan16).

A seat's name as a reader sees it: :func:`seat_name` (the stored name; a league substitute AI's,
stored in English as :data:`SUBSTITUTE_AI`, in the reader's language).

Limits: names only, no grammar — the engine's notation (``0m``, ``5z``) stays the input and storage
form (``engine.tiles``); this module never parses.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Protocol

from bot.i18n import DEFAULT, N_, Lang, t, term
from engine.tiles import FLOWER_BASE, HONOR_BASE, RED

__all__ = [
    "HONOR_NAMES",
    "SUBSTITUTE_AI",
    "YAKU_NAMES",
    "kind_label",
    "picture_order",
    "ruleset_label",
    "seat_name",
    "sort_tiles",
    "tai_name",
    "tile_name",
    "tile_order",
    "tiles_text",
    "yaku_name",
]

#: the seat name of an AI that plays a league seat for an absent member (bot/league/service.py).
#: Stored in English, once, so that the table, its log and the league keep one name for the seat;
#: :func:`seat_name` shows it in the reader's language.
SUBSTITUTE_AI = N_("AI for {name}")
_SUBSTITUTE = re.compile(re.escape(SUBSTITUTE_AI).replace(re.escape("{name}"), "(.+)"), re.S)


class _Seat(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def ai(self) -> str | None: ...


def seat_name(seat: _Seat, lang: Lang = DEFAULT) -> str:
    """A seat's name in ``lang``: the stored name, but a substitute AI's (an AI seat whose name
    is :data:`SUBSTITUTE_AI`'s form; a member's name is never rewritten) says so in ``lang``."""
    m = _SUBSTITUTE.fullmatch(seat.name) if seat.ai else None
    return t(lang, SUBSTITUTE_AI, name=m[1]) if m else seat.name


#: the letters on the honour faces, East .. Red dragon
HONOR_NAMES = ("E", "S", "W", "N", "Wh", "Gr", "Rd")


def kind_label(kind: int, lang: Lang = DEFAULT) -> str:
    """The name of a tile kind (no red): ``5m``, ``E``, ``Gr``, ``3f``; an honour in ``lang``
    (the catalog's ``tile`` entries: 東 … 中 in Japanese)."""
    k = kind & ~RED
    if k < HONOR_BASE:
        return f"{k % 9 + 1}{'mps'[k // 9]}"
    if k < FLOWER_BASE:
        return term(lang, "tile", HONOR_NAMES[k - HONOR_BASE])
    return f"{k - FLOWER_BASE + 1}f"


def tile_name(code: int, lang: Lang = DEFAULT) -> str:
    """The name of a tile code: :func:`kind_label`, with ``red`` before a red five (``red 5p``;
    the catalog's ``tile`` entry ``red {tile}`` in other languages)."""
    name = kind_label(code, lang)
    if not code & RED:
        return name
    return "red " + name if lang == DEFAULT else term(lang, "tile", "red {tile}").format(tile=name)


def tiles_text(codes: Iterable[int], lang: Lang = DEFAULT) -> str:
    """Tile names separated by spaces: ``1m 2m red 5m``."""
    return " ".join(tile_name(c, lang) for c in codes)


def tile_order(code: int) -> tuple[int, int]:
    """The sort key of every tile row: by kind (man, pin, sou, winds, dragons, flowers), a red five
    after the plain five of its suit."""
    return (code & ~RED, code & RED)


def sort_tiles(codes: Iterable[int]) -> list[int]:
    return sorted(codes, key=tile_order)


def picture_order(concealed: Sequence[int], drawn: int | None = None) -> list[int]:
    """The distinct tile codes of a hand in the order its picture shows them: the concealed tiles
    sorted by :func:`tile_order`, then the drawn tile (set apart at the right end) when no copy of
    it came before. Buttons that pick a tile of the hand follow this order."""
    out: list[int] = []
    for c in [*sort_tiles(concealed), *([] if drawn is None else [drawn])]:
        if c not in out:
            out.append(c)
    return out


#: engine yaku keys → how players write them (what ``/score`` and the results show)
YAKU_NAMES = {
    "menzen_tsumo": "Menzen tsumo",
    "haku": "Yakuhai (haku)",
    "hatsu": "Yakuhai (hatsu)",
    "chun": "Yakuhai (chun)",
    "seat_wind": "Yakuhai (seat wind)",
    "round_wind": "Yakuhai (round wind)",
    "sanshoku": "Sanshoku doujun",
    "sanshoku_doukou": "Sanshoku doukou",
    "rinshan": "Rinshan kaihou",
    "kokushi": "Kokushi musou",
    "kokushi_13": "Kokushi musou (13-sided wait)",
    "suuankou_tanki": "Suuankou (tanki wait)",
    "chuuren": "Chuuren poutou",
    "junsei_chuuren": "Chuuren poutou (9-sided wait)",
    "dora": "Dora",
    "aka_dora": "Red fives",
    "ura_dora": "Ura dora",
    "kita": "Kita (North) dora",
}


@cache
def _tai_items() -> dict[str, str]:
    """taiwan16's tai items: Chinese name (and the unique-wait names of T-11) → item id."""
    from engine.rules.taiwan16 import ITEMS, T11_NAMES

    out = {chinese: item_id for item_id, (chinese, _) in ITEMS.items()}
    out.update({name: "T-11" for name in T11_NAMES.values()})
    return out


_DRAGONS = {"白": "Wh", "發": "Gr", "中": "Rd"}


def tai_name(item_id: str, chinese: str = "") -> str:
    """A taiwan16 tai item as players read it: its English name and its rule id (``Concealed
    (T-5)``; ``/rule taiwan16 T-5`` explains it). The pictures' fonts may lack the Chinese."""
    from engine.rules.taiwan16 import ITEMS

    english = ITEMS.get(item_id, ("", chinese or item_id))[1]
    return f"{english[:1].upper()}{english[1:]} ({item_id})"


def ruleset_label(name: str, lang: Lang = DEFAULT) -> str:
    """A ruleset as players read it: its id in English (``riichi``, what ``ruleset:`` takes), the
    catalog's ``ruleset name`` entry in another language (リーチ麻雀, 天鳳ルール)."""
    return name if lang == DEFAULT else term(lang, "ruleset name", name)


def yaku_name(key: str, lang: Lang = DEFAULT) -> str:
    """A yaku (or point item) key as players write it: ``hatsu`` → ``Yakuhai (hatsu)``,
    ``riichi`` → ``Riichi``, ``aka_dora`` → ``Red fives``; a taiwan16 item's Chinese name → its
    :func:`tai_name` (``花牌 1f`` → ``Own flower (T-9) 1f``). In another language, the catalog's
    ``yaku`` entry of that English name (立直, 役牌 發; a tai item's tile as :func:`kind_label`
    names it), else the English name."""
    if key in YAKU_NAMES:
        return term(lang, "yaku", YAKU_NAMES[key])
    head, _, rest = key.partition(" ")  # taiwan16 names an item's tile after it: "花牌 1f", "三元台 中"
    item = _tai_items().get(head)
    if item is not None:
        tile = term(lang, "tile", _DRAGONS[rest]) if rest in _DRAGONS else rest
        return " ".join(x for x in (term(lang, "yaku", tai_name(item)), tile) if x)
    return term(lang, "yaku", key.replace("_", " ").capitalize())

"""Demo data for every picture, used by the tests, the shared palette and ``python -m bot.render``.

Every picture the bot sends has a sample here: hand strips, hands of 14 and of 17 tiles
(taiwan16, with its flowers), the table with four and three players (upright and turned), the
seat view, the open table of a replay, results, standings, the ``/score`` and ``/shanten`` cards
and a house-rules card. ``python -m bot.render /tmp/render_samples`` writes one PNG per picture
and prints sizes and timings.

``sample_pictures(lang)`` draws them in a language: every word of the samples comes from the
catalogs through the messages the bot itself uses (``{wind} {n}``, ``{name} wins by ron from
{payer}``, the yaku names), so the English samples read as before and the Japanese ones as a
Japanese player sees them. The look-up cards (:mod:`bot.render.lookup`) are drawn in Japanese only
once they take a ``lang`` (:func:`untranslated`).
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Callable
from pathlib import Path

from bot import i18n
from bot.i18n import DEFAULT, Lang, term
from engine.rules import find_ruleset
from engine.tiles import parse_tiles as _p

from .hand_pictures import render_hand, render_tiles
from .lookup import LookupMeld, ScoreCard, ShantenRow, render_score_card, render_shanten_card
from .names import yaku_name
from .pictures import render_final, render_result
from .rules_card import render_card
from .table_pictures import render_open_table, render_seat_table, render_table
from .tiles import warm_up
from .views import ResultView, SeatView, TableView, WinView

__all__ = ["ABOUT", "sample_pictures", "sample_table", "takes_lang", "untranslated", "write_samples"]

#: what each sample shows (the gallery's captions), in the gallery's order
ABOUT = {
    "table4": "The table a channel sees, four players: a riichi, a called-away discard, every kind of meld",
    "table3": "The table with three players (sanma): the centre in the empty seat's corner",
    "seat4": "“Show my hand”: the table from the player's seat, their hand under it (for them only)",
    "seat3": "The same for a three-player table, a 14-tile hand",
    "hand14": "A hand of 14 tiles (the drawn tile set apart)",
    "hand17_taiwan16": "A taiwan16 hand of 17 tiles, its flowers on a row below",
    "hand": "A hand with melds: a pon, an added kan, a closed kan (on a row below the tiles)",
    "tiles": "A hand strip with one tile picked out",
    "tiles_numbered": "A hand strip numbered for the discard buttons",
    "all_tiles": "Every tile: suits, red fives, winds, dragons (the White is the chinitsu_toutenkou wildcard), flowers",
    "result": "A hand's result: the winning hand, dora and ura, the yaku and the payments",
    "result_melds": "A result with open melds",
    "result_double": "A double ron",
    "final": "Final standings",
    "open4": "/replay with every hand open",
    "score": "/score: a scored hand with its payments",
    "score_melds": "/score with melds (an added kan with a red five)",
    "shanten": "/shanten: the useful discards and what each waits on",
    "rules_card": "/house show: a house-rules card",
    "table4_rotated": "The table with each seat's tiles turned to face the centre (not sent by the bot)",
    "table3_rotated": "The same with three players",
}


def _seat(name: str, wind: str, score: int, river: str, **kw: object) -> SeatView:
    return SeatView(name, wind, score, _p(river) if river else [], **kw)  # type: ignore[arg-type]


def _hand(lang: Lang, wind: str, n: int, honba: int | None = None) -> str:
    """``East 2`` / ``East 2, 1 honba`` in ``lang``, as the bot names a hand."""
    name = i18n.t(lang, "{wind} {n}", wind=i18n.t(lang, wind), n=n)
    return name if honba is None else i18n.t(lang, "{hand}, {n} honba", hand=name, n=honba)


def _you_are(lang: Lang, wind: str) -> str:
    return i18n.t(lang, "you are {wind}", wind=i18n.t(lang, wind))


def _han(lang: Lang, key: str, n: int = 1) -> str:
    """A breakdown line: the yaku and its han."""
    return f"{yaku_name(key, lang)}\t{i18n.t(lang, '{n} han', n=n)}"


def _total(lang: Lang, han: int, fu: int, points: str) -> str:
    return f"{i18n.t(lang, 'Total')}\t{i18n.t(lang, '{han} han {fu} fu = {points}', han=han, fu=fu, points=points)}"


def sample_table(players: int = 4, *, rotate: bool = False, lang: Lang = DEFAULT) -> TableView:
    """A mid-game table: a riichi (sideways tile, stick), a called-away discard, all meld kinds."""
    seats = [
        _seat("Alice", "E", 24000, "19m4z6z1p9s3z2m8p7z55s3m", sideways={6}, called={3}, riichi=True),
        _seat(
            "Bob",
            "S",
            33400,
            "1z9p2z8m1s4p6m7z1p",
            melds=[("pon", _p("666z"), 0), ("chi", _p("324s"), 0)],
            note=i18n.t(lang, "bot"),
        ),
        _seat(
            "Carol",
            "W",
            18600,
            "9s9m1p2z4z3p3p6s5m5m0p",
            melds=[("ankan", _p("1111m"), -1), ("kakan", _p("2222z"), 2)],
        ),
        _seat(
            "DanTheVeryLongNamedPlayer",
            "N",
            23000,
            "1s2s3s4m5m6m7p8p9p1z2z",
            melds=[("minkan", _p("8888p"), 3)],
        ),
    ]
    if players == 3:
        seats = seats[:3]
        seats[0].score, seats[1].score, seats[2].score = 35000, 41000, 29000
        return TableView(
            f"{i18n.t(lang, 'Sanma (Tenhou rules)')} · {i18n.t(lang, 'tonpuusen')}",
            _hand(lang, "South", 1, 0),
            seats,
            dora_indicators=_p("9m"),
            wall_left=30,
            turn=2,
            last_discard=1,
            rotate=rotate,
        )
    return TableView(
        f"{i18n.t(lang, 'Riichi (Tenhou rules)')} · {i18n.t(lang, 'hanchan')} · {i18n.t(lang, 'table #{id}', id=3)}",
        _hand(lang, "East", 2, 1),
        seats,
        dora_indicators=_p("3p5z"),
        riichi_sticks=1,
        wall_left=42,
        turn=1,
        last_discard=0,
        clock=i18n.t(lang, "{n}s left", n=15),
        footer=i18n.t(lang, "{name} to discard", name="Bob"),
        rotate=rotate,
    )


def _seat_view(players: int, lang: Lang) -> TableView:
    view = sample_table(players, lang=lang)
    view.footer = ""
    return view


def sample_pictures(lang: Lang = DEFAULT) -> dict[str, Callable[[], bytes]]:
    """Name -> a call producing that sample picture, its words in ``lang``."""
    L = lang

    def table_no(n: int) -> str:
        return i18n.t(L, "Table #{id}", id=n)


    return {
        "tiles": lambda: render_tiles(_p("123m406p789s1234z5z"), highlight=3, gap_before_last=True, lang=L),
        "tiles_numbered": lambda: render_tiles(_p("1230m456p789s567z"), numbered=True, lang=L),
        "all_tiles": lambda: render_tiles(_p("123456789m0m123456789p0p123456789s0s1234567z12345678f"), lang=L),
        "hand": lambda: render_hand(
            _p("2340m67p"),
            [("pon", _p("777z"), 2), ("kakan", _p("5555p"), 1), ("ankan", _p("9999s"), -1)],
            _p("8p")[0],
            title=f"{i18n.t(L, 'Your hand')} · {_hand(L, 'East', 2)} · {_you_are(L, 'South')}",
            lang=L,
        ),
        "result": lambda: render_result(
            ResultView(
                f"{_hand(L, 'East', 2, 1)} · {i18n.t(L, 'Ron')}",
                [
                    WinView(
                        i18n.t(L, "{name} wins by ron from {payer}", name="Alice", payer="Bob"),
                        _p("2234567m234p56s"),
                        _p("7s")[0],
                        lines=[
                            _han(L, "riichi"),
                            _han(L, "ippatsu"),
                            _han(L, "pinfu"),
                            _han(L, "dora"),
                            _han(L, "aka_dora"),
                            _total(L, 5, 30, "12,000"),
                        ],
                        dora=_p("1m"),
                        ura=_p("4z"),
                    )
                ],
                [("Alice", 13300), ("Bob", -12300), ("Carol", 0), ("Dan", 0)],
            ),
            lang=L,
        ),
        "result_melds": lambda: render_result(
            ResultView(
                f"{_hand(L, 'South', 4)} · {i18n.t(L, 'Tsumo')}",
                [
                    WinView(
                        i18n.t(L, "{name} wins by tsumo", name="Bob"),
                        _p("456m78p"),
                        _p("9p")[0],
                        [("pon", _p("666z"), 0), ("chi", _p("324s"), 0)],
                        [_han(L, "hatsu"), _total(L, 1, 30, i18n.t(L, "{points} all", points="1,000"))],
                        dora=_p("3z"),
                    )
                ],
                [("Bob", 3000), ("Alice", -1000), ("Carol", -1000), ("Dan", -1000)],
            ),
            lang=L,
        ),
        "result_double": lambda: render_result(
            ResultView(
                f"{_hand(L, 'East', 1)} · {i18n.t(L, 'Double ron')}",
                [
                    WinView(
                        i18n.t(L, "{name} wins by ron from {payer}", name="Bob", payer="Alice"),
                        _p("45m234p567s678s22p"),
                        _p("6m")[0],
                        lines=[_han(L, "tanyao"), _total(L, 1, 30, "1,000")],
                        dora=_p("9s"),
                    ),
                    WinView(
                        i18n.t(L, "{name} wins by ron from {payer}", name="Carol", payer="Alice"),
                        _p("45m234p567s33p"),
                        _p("6m")[0],
                        [("pon", _p("777z"), 0)],
                        [_han(L, "chun"), _total(L, 1, 30, "1,000")],
                        dora=_p("9s"),
                    ),
                ],
                [("Alice", -2000), ("Bob", 1000), ("Carol", 1000), ("Dan", 0)],
            ),
            lang=L,
        ),
        "hand14": lambda: render_hand(
            _p("1112345678999m"),
            [],
            _p("5m")[0],
            title=f"{table_no(3)} · {_hand(L, 'East', 1)} · {_you_are(L, 'East')} · 25000 {i18n.t(L, 'points')}",
            lang=L,
        ),
        "hand17_taiwan16": lambda: render_hand(
            _p("1123456789m22p567s"),
            [("flower", _p("25f"), -1)],
            _p("8s")[0],
            title=f"{table_no(9)} · {_hand(L, 'East', 1)} · {_you_are(L, 'South')} · 1000 {i18n.t(L, 'points')}",
            lang=L,
        ),
        "seat4": lambda: render_seat_table(
            _seat_view(4, L), _p("2340m67p"), [("pon", _p("777z"), 2)], _p("8p")[0],
            title=f"{table_no(3)} · {_you_are(L, 'East')}", lang=L,
        ),
        "seat3": lambda: render_seat_table(
            _seat_view(3, L), _p("1112345678999p"), [], None, title=f"{table_no(4)} · {_you_are(L, 'East')}", lang=L
        ),
        "open4": lambda: render_open_table(
            sample_table(4, lang=L),
            [
                (f"Alice · {term(L, 'tile', 'E')}", _p("234m406p789s11z"), [], _p("5s")[0]),
                (f"Bob · {term(L, 'tile', 'S')}", _p("456m78p"), [("pon", _p("666z"), 0), ("chi", _p("324s"), 0)], None),
                (f"Carol · {term(L, 'tile', 'W')}", _p("1234p55z"), [("ankan", _p("1111m"), -1), ("kakan", _p("2222z"), 2)], None),
                (f"Dan · {term(L, 'tile', 'N')}", _p("123s99m456p7z"), [("minkan", _p("8888p"), 3)], None),
            ],
            lang=L,
        ),
        "score": lambda: _look(render_score_card, L)(ScoreCard(
            concealed=_p("2234567m234p56s"),
            melds=[],
            win_tile=_p("7s")[0],
            title=f"{i18n.t(L, 'Ron')} 7s — {_value(L, 3, 30, i18n.t(L, '{points} points', points='3,900'))}",
            rows=[
                (yaku_name("riichi", L), i18n.t(L, "{n} han", n=1)),
                (yaku_name("pinfu", L), i18n.t(L, "{n} han", n=1)),
                (yaku_name("dora", L), i18n.t(L, "{n} han", n=1)),
                (i18n.t(L, "fu"), "30"),
            ],
            total=_value(L, 3, 30, i18n.t(L, "{points} points", points="3,900")),
            payments=[(i18n.t(L, "East"), 3900), (i18n.t(L, "South"), -3900)],
            dora=_p("1m"),
            ura=_p("4z"),
        )),
        "score_melds": lambda: _look(render_score_card, L)(ScoreCard(
            concealed=_p("456m78p"),
            melds=[LookupMeld("pon", _p("666z")), LookupMeld("kakan", _p("5505p"))],
            win_tile=_p("9p")[0],
            title=f"{i18n.t(L, 'Tsumo')} 9p — {_value(L, 2, 40, i18n.t(L, '{points} all', points='1,300'))}",
            rows=[(yaku_name("hatsu", L), i18n.t(L, "{n} han", n=1)), (yaku_name("aka_dora", L), i18n.t(L, "{n} han", n=1))],
            total=_value(L, 2, 40, i18n.t(L, "{points} all", points="1,300")),
        )),
        "shanten": lambda: _look(render_shanten_card, L)(
            _p("1234m5678p2399s1z"),
            title=i18n.t(L, "{shanten} ({n} tiles) — ruleset {ruleset}", shanten=_shanten(L, 1), n=14, ruleset="riichi"),
            rows=[
                ShantenRow(_p("1z")[0], _ukeire(L, 1, 6, 20), _p("14m4589p1s"), _ukeire(DEFAULT, 1, 6, 20)),
                ShantenRow(_p("1m")[0], _ukeire(L, 1, 5, 16), _p("4m4589p"), _ukeire(DEFAULT, 1, 5, 16)),
                ShantenRow(_p("2s")[0], _ukeire(L, 1, 3, 10), _p("4m49p"), _ukeire(DEFAULT, 1, 3, 10)),
            ],
        ),
        "rules_card": lambda: render_card(
            "Friday club", find_ruleset("riichi").with_options(kuitan=False, red_fives=(0, 0, 0), tobi=False), lang=L
        ),
        "final": lambda: render_final(
            [
                ("Alice", 42100, 62.1),
                ("Bob", 31000, 11.0),
                ("Carol", 18300, -21.7),
                ("Dan with a really long name indeed", 8600, -51.4),
            ],
            lang=L,
        ),
        "table4": lambda: render_table(sample_table(4, lang=L), lang=L),
        "table4_rotated": lambda: render_table(sample_table(4, rotate=True, lang=L), lang=L),
        "table3": lambda: render_table(sample_table(3, lang=L), lang=L),
        "table3_rotated": lambda: render_table(sample_table(3, rotate=True, lang=L), lang=L),
    }


def _look(fn: Callable[..., bytes], lang: Lang) -> Callable[..., bytes]:
    """A look-up picture (bot.render.lookup) in ``lang``: given the language where it takes one."""
    return functools.partial(fn, lang=lang) if takes_lang(fn) else fn


def takes_lang(fn: Callable[..., bytes]) -> bool:
    """Whether a picture function draws its own words in a language (a ``lang`` keyword)."""
    return "lang" in inspect.signature(fn).parameters


def untranslated(lang: Lang) -> set[str]:
    """The samples that cannot be drawn in ``lang`` yet: the look-up cards, until
    :mod:`bot.render.lookup` takes a ``lang`` (its own labels would be drawn in a font without
    Japanese)."""
    if lang == DEFAULT:
        return set()
    return {
        name
        for name, fn in (("score", render_score_card), ("score_melds", render_score_card), ("shanten", render_shanten_card))
        if not takes_lang(fn)
    }


def _value(lang: Lang, han: int, fu: int, points: str) -> str:
    return i18n.t(lang, "{han} han {fu} fu = {points}", han=han, fu=fu, points=points)


def _shanten(lang: Lang, n: int) -> str:
    return i18n.t(lang, "{n}-shanten", n=n)


def _ukeire(lang: Lang, shanten: int, kinds: int, tiles: int) -> str:
    return f"{_shanten(lang, shanten)} · {i18n.t(lang, '{kinds} kinds, {n} tiles', kinds=kinds, n=tiles)}"


def write_samples(out_dir: str | Path, lang: Lang = DEFAULT) -> dict[str, tuple[int, float]]:
    """Write every sample to ``out_dir/<name>.png``; returns name -> (bytes, ms per render, warm)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    warm_up()
    stats: dict[str, tuple[int, float]] = {}
    for name, make in sample_pictures(lang).items():
        if name in untranslated(lang):
            continue
        data = make()
        (out / f"{name}.png").write_bytes(data)
        n = 10
        t0 = time.perf_counter()
        for _ in range(n):
            make()
        stats[name] = (len(data), (time.perf_counter() - t0) / n * 1000)
    return stats

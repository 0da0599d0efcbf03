"""Demo data for every picture, used by the tests, the shared palette and ``python -m bot.render``.

Every picture the bot sends has a sample here: hand strips, hands of 14 and of 17 tiles
(taiwan16, with its flowers), the table with four and three players (upright and turned), the
seat view, the open table of a replay, results, standings, the ``/score`` and ``/shanten`` cards
and a house-rules card. ``python -m bot.render /tmp/render_samples`` writes one PNG per picture
and prints sizes and timings.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from engine.rules import find_ruleset
from engine.tiles import parse_tiles as _p

from .lookup import LookupMeld, ShantenRow, render_score_card, render_shanten_card
from .pictures import (
    render_final,
    render_hand,
    render_open_table,
    render_result,
    render_seat_table,
    render_table,
    render_tiles,
)
from .rules_card import render_card
from .tiles import warm_up
from .views import ResultView, SeatView, TableView, WinView

__all__ = ["ABOUT", "sample_pictures", "sample_table", "write_samples"]

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


def sample_table(players: int = 4, *, rotate: bool = False) -> TableView:
    """A mid-game table: a riichi (sideways tile, stick), a called-away discard, all meld kinds."""
    seats = [
        _seat("Alice", "E", 24000, "19m4z6z1p9s3z2m8p7z55s3m", sideways={6}, called={3}, riichi=True),
        _seat(
            "Bob",
            "S",
            33400,
            "1z9p2z8m1s4p6m7z1p",
            melds=[("pon", _p("666z"), 0), ("chi", _p("324s"), 0)],
            note="bot",
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
            "Sanma (Tenhou rules) · tonpuusen",
            "South 1, 0 honba",
            seats,
            dora_indicators=_p("9m"),
            wall_left=30,
            turn=2,
            last_discard=1,
            rotate=rotate,
        )
    return TableView(
        "Riichi (Tenhou rules) · hanchan · table #3",
        "East 2, 1 honba",
        seats,
        dora_indicators=_p("3p5z"),
        riichi_sticks=1,
        wall_left=42,
        turn=1,
        last_discard=0,
        clock="15s left",
        footer="Bob to discard",
        rotate=rotate,
    )


def _seat_view(players: int) -> TableView:
    view = sample_table(players)
    view.footer = ""
    return view


def sample_pictures() -> dict[str, Callable[[], bytes]]:
    """Name -> a call producing that sample picture."""
    return {
        "tiles": lambda: render_tiles(_p("123m406p789s1234z5z"), highlight=3, gap_before_last=True),
        "tiles_numbered": lambda: render_tiles(_p("1230m456p789s567z"), numbered=True),
        "all_tiles": lambda: render_tiles(_p("123456789m0m123456789p0p123456789s0s1234567z12345678f")),
        "hand": lambda: render_hand(
            _p("2340m67p"),
            [("pon", _p("777z"), 2), ("kakan", _p("5555p"), 1), ("ankan", _p("9999s"), -1)],
            _p("8p")[0],
            title="Your hand · East 2 · you are South",
        ),
        "result": lambda: render_result(
            ResultView(
                "East 2, 1 honba · Ron",
                [
                    WinView(
                        "Alice wins by ron from Bob",
                        _p("2234567m234p56s"),
                        _p("7s")[0],
                        lines=[
                            "Riichi\t1 han",
                            "Ippatsu\t1 han",
                            "Pinfu\t1 han",
                            "Dora\t1 han",
                            "Red fives\t1 han",
                            "Total\t5 han 30 fu = 12,000",
                        ],
                        dora=_p("1m"),
                        ura=_p("4z"),
                    )
                ],
                [("Alice", 13300), ("Bob", -12300), ("Carol", 0), ("Dan", 0)],
            )
        ),
        "result_melds": lambda: render_result(
            ResultView(
                "South 4 · Tsumo",
                [
                    WinView(
                        "Bob wins by tsumo",
                        _p("456m78p"),
                        _p("9p")[0],
                        [("pon", _p("666z"), 0), ("chi", _p("324s"), 0)],
                        ["Yakuhai (hatsu)\t1 han", "Total\t1 han 30 fu = 1,000 all"],
                        dora=_p("3z"),
                    )
                ],
                [("Bob", 3000), ("Alice", -1000), ("Carol", -1000), ("Dan", -1000)],
            )
        ),
        "result_double": lambda: render_result(
            ResultView(
                "East 1 · Double ron",
                [
                    WinView(
                        "Bob wins by ron from Alice",
                        _p("45m234p567s678s22p"),
                        _p("6m")[0],
                        lines=["Tanyao\t1 han", "Total\t1 han 30 fu = 1,000"],
                        dora=_p("9s"),
                    ),
                    WinView(
                        "Carol wins by ron from Alice",
                        _p("45m234p567s33p"),
                        _p("6m")[0],
                        [("pon", _p("777z"), 0)],
                        ["Yakuhai (chun)\t1 han", "Total\t1 han 30 fu = 1,000"],
                        dora=_p("9s"),
                    ),
                ],
                [("Alice", -2000), ("Bob", 1000), ("Carol", 1000), ("Dan", 0)],
            )
        ),
        "hand14": lambda: render_hand(
            _p("1112345678999m"), [], _p("5m")[0], title="Table #3 · East 1 · you are East · 25000 points"
        ),
        "hand17_taiwan16": lambda: render_hand(
            _p("1123456789m22p567s"),
            [("flower", _p("25f"), -1)],
            _p("8s")[0],
            title="Table #9 · East 1 · you are South · 1000 points",
        ),
        "seat4": lambda: render_seat_table(
            _seat_view(4), _p("2340m67p"), [("pon", _p("777z"), 2)], _p("8p")[0], title="Table #3 · you are East"
        ),
        "seat3": lambda: render_seat_table(
            _seat_view(3), _p("1112345678999p"), [], None, title="Table #4 · you are East"
        ),
        "open4": lambda: render_open_table(
            sample_table(4),
            [
                ("Alice · E", _p("234m406p789s11z"), [], _p("5s")[0]),
                ("Bob · S", _p("456m78p"), [("pon", _p("666z"), 0), ("chi", _p("324s"), 0)], None),
                ("Carol · W", _p("1234p55z"), [("ankan", _p("1111m"), -1), ("kakan", _p("2222z"), 2)], None),
                ("Dan · N", _p("123s99m456p7z"), [("minkan", _p("8888p"), 3)], None),
            ],
        ),
        "score": lambda: render_score_card(
            _p("2234567m234p56s"),
            [],
            _p("7s")[0],
            title="Ron 7s — 3 han 30 fu = 3,900 points",
            rows=[("Riichi", "1 han"), ("Pinfu", "1 han"), ("Dora", "1 han"), ("fu", "30")],
            total="3 han 30 fu = 3,900 points",
            payments=[("East", 3900), ("South", -3900)],
            dora=_p("1m"),
            ura=_p("4z"),
        ),
        "score_melds": lambda: render_score_card(
            _p("456m78p"),
            [LookupMeld("pon", _p("666z")), LookupMeld("kakan", _p("5505p"))],
            _p("9p")[0],
            title="Tsumo 9p — 2 han 40 fu = 1,300 all",
            rows=[("Yakuhai (hatsu)", "1 han"), ("Red fives", "1 han")],
            total="2 han 40 fu = 1,300 all",
        ),
        "shanten": lambda: render_shanten_card(
            _p("1234m5678p2399s1z"),
            title="1-shanten (14 tiles) — ruleset riichi",
            rows=[
                ShantenRow(_p("1z")[0], "1-shanten · 6 kinds, 20 tiles", _p("14m4589p1s")),
                ShantenRow(_p("1m")[0], "1-shanten · 5 kinds, 16 tiles", _p("4m4589p")),
                ShantenRow(_p("2s")[0], "1-shanten · 3 kinds, 10 tiles", _p("4m49p")),
            ],
        ),
        "rules_card": lambda: render_card(
            "Friday club", find_ruleset("riichi").with_options(kuitan=False, red_fives=(0, 0, 0), tobi=False)
        ),
        "final": lambda: render_final(
            [
                ("Alice", 42100, 62.1),
                ("Bob", 31000, 11.0),
                ("Carol", 18300, -21.7),
                ("Dan with a really long name indeed", 8600, -51.4),
            ]
        ),
        "table4": lambda: render_table(sample_table(4)),
        "table4_rotated": lambda: render_table(sample_table(4, rotate=True)),
        "table3": lambda: render_table(sample_table(3)),
        "table3_rotated": lambda: render_table(sample_table(3, rotate=True)),
    }


def write_samples(out_dir: str | Path) -> dict[str, tuple[int, float]]:
    """Write every sample to ``out_dir/<name>.png``; returns name -> (bytes, ms per render, warm)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    warm_up()
    stats: dict[str, tuple[int, float]] = {}
    for name, make in sample_pictures().items():
        data = make()
        (out / f"{name}.png").write_bytes(data)
        n = 10
        t0 = time.perf_counter()
        for _ in range(n):
            make()
        stats[name] = (len(data), (time.perf_counter() - t0) / n * 1000)
    return stats

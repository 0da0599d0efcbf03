"""Result pictures show exactly the winning hands: the tiles of every picture are counted in its
pixels against what the winner held, for ron, tsumo, double ron and each ruleset's own wins
(sanma kita, taiwan16 flowers and flower wins, chinitsu_toutenkou nuki, shoukou transformations),
with every winner named, the dora / ura indicators the win counted and yaku by display names."""

from __future__ import annotations

import io
import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pytest
from PIL import Image

from bot.ai.policy import smart
from bot.render import ResultView, render_result
from bot.render.names import YAKU_NAMES, yaku_name
from bot.render.pictures import HAND_W, RESULT_DORA_W
from bot.render.tiles import BORDER
from bot.render.variants import result_view
from engine.rules import find_ruleset, ruleset_names
from engine.table.game import Game
from engine.tiles import FLOWER_BASE, kind_of
from tests.engine.scripted import play, scripted_game

NAMES = ["Alice", "Bob", "Carol", "Dan"]


# --- counting tiles in a picture --------------------------------------------------------------------


def tiles_in(png: bytes) -> tuple[int, int]:
    """(hand tiles, indicator tiles) drawn in a picture, counted in its pixels: each tile has one
    amber border ring (BORDER); a ring as big as a hand tile (upright or sideways) is a hand tile,
    one as wide as an indicator tile is an indicator."""
    rgb = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)
    mask = (np.abs(rgb - np.array(BORDER)) <= 28).all(axis=2)
    h, w = mask.shape
    seen = np.zeros_like(mask)
    hand = small = 0
    big_side = round(HAND_W * 4 / 3) - 8
    for y0, x0 in zip(*np.nonzero(mask), strict=True):
        if seen[y0, x0]:
            continue
        seen[y0, x0] = True
        q = deque([(y0, x0)])
        xs, ys, n = [x0, x0], [y0, y0], 0
        while q:
            y, x = q.popleft()
            n += 1
            xs[0], xs[1], ys[0], ys[1] = min(xs[0], x), max(xs[1], x), min(ys[0], y), max(ys[1], y)
            for yy, xx in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                if 0 <= yy < h and 0 <= xx < w and mask[yy, xx] and not seen[yy, xx]:
                    seen[yy, xx] = True
                    q.append((yy, xx))
        bw, bh = xs[1] - xs[0] + 1, ys[1] - ys[0] + 1
        if n < 20:
            continue  # anti-aliasing specks
        if max(bw, bh) >= big_side:
            hand += 1
        elif RESULT_DORA_W - 6 <= max(bw, bh) <= RESULT_DORA_W + 4:
            small += 1
    return hand, small


def test_the_counter_counts_hands_melds_and_indicators() -> None:
    """The counter itself, on pictures whose tiles are known: a 14-tile hand with two indicators;
    a hand with a pon (one tile sideways), an added kan (two sideways, one stacked) and a closed kan
    (two face down)."""
    from bot.render import WinView
    from engine.tiles import parse_tiles as p

    one = ResultView("t", [WinView("a", p("123456789m1234p"), p("4p")[0], dora=p("1z"), ura=p("2z"))])
    assert tiles_in(render_result(one)) == (14, 2)
    melds = [("pon", p("777z"), 0), ("kakan", p("5555p"), 1), ("ankan", p("9999s"), -1)]
    two = ResultView("t", [WinView("a", p("11m"), p("1m")[0], melds)])
    assert tiles_in(render_result(two)) == (3 + 3 + 4 + 4, 0)


# --- what the winner held -------------------------------------------------------------------------


def held(g: Game) -> list[int]:
    """Tiles each seat holds now: in hand, in melds, set aside (kita, nuki, flowers)."""
    return [len(st.tiles) + sum(len(m.tiles) for m in st.melds) + len(st.kita) for st in g.seats]


@dataclass
class Checked:
    wins: int = 0
    rons: int = 0
    tsumos: int = 0
    multi: int = 0
    with_sets: int = 0  # a win with melds or tiles set aside


def check_result(g: Game, idx: int, before: Sequence[int], seen: Checked) -> None:
    """Hand ``idx``'s picture shows each winner's tiles once (what it held before the winning
    action, plus the discard or robbed tile of a ron), each winner by name, the indicators each
    win counted and yaku by the names /score uses."""
    r = g.results[idx]
    view = result_view(g, idx, NAMES[: g.players])
    if not r.wins:
        assert view is None
        return
    assert view is not None
    png = render_result(view)
    expected_hand = expected_ind = 0
    for w, wv in zip(r.wins, view.wins, strict=True):
        assert w.hand is not None
        if kind_of(w.hand.win_tile) >= FLOWER_BASE:
            continue  # a flower win happens inside a draw: tests below count those by hand
        ron = w.seat != w.from_seat and w.from_seat >= 0
        expected_hand += before[w.seat] + (1 if ron else 0)
        ctx = w.hand.ctx
        assert list(wv.dora) == list(ctx.dora_indicators)
        assert list(wv.ura) == list(ctx.ura_indicators)
        expected_ind += len(ctx.dora_indicators) + len(ctx.ura_indicators)
        assert wv.heading.startswith(f"{NAMES[w.seat]} wins ")
        if ron:
            assert wv.heading.endswith(f"ron from {NAMES[w.from_seat]}")
        names = [ln.split("\t")[0] for ln in wv.lines]
        for y in w.score.yaku:  # the names /score shows, never the engine's keys
            assert yaku_name(y.name) in names, (y.name, wv.lines)
            assert y.name == yaku_name(y.name) or y.name not in names, (y.name, wv.lines)
        assert not any(n in YAKU_NAMES or "_" in n for n in names), wv.lines
        seen.wins += 1
        seen.rons += ron
        seen.tsumos += not ron
        seen.with_sets += bool(wv.melds)
    if any(kind_of(w.hand.win_tile) >= FLOWER_BASE for w in r.wins if w.hand is not None):
        return
    seen.multi += len(r.wins) > 1
    assert tiles_in(png) == (expected_hand, expected_ind), (g.ruleset.name, idx, [str(w.hand) for w in r.wins])


def play_and_check(rs_name: str, seed: int, seen: Checked, *, max_wins: int) -> None:
    """Self-play by the bot's own AI (it wins often, calls and sets tiles aside), checking every
    result picture."""
    rs = find_ruleset(rs_name)
    rng = random.Random(seed)
    g = Game(rs, seed=seed)
    steps = 0
    while not g.over and seen.wins < max_wins:
        before = held(g)
        n = len(g.results)
        s = g.to_act()[0]
        g.apply(smart(g, s, rng))
        for idx in range(n, len(g.results)):
            check_result(g, idx, before, seen)
        steps += 1
        assert steps < 20000


@pytest.mark.parametrize("rs_name", ruleset_names())
def test_result_pictures_show_each_winning_hand_once_for_every_ruleset(rs_name: str) -> None:
    seen = Checked()
    seed = 1
    while seen.wins < 6 and seed < 40:
        play_and_check(rs_name, seed, seen, max_wins=6)
        seed += 1
    assert seen.wins >= 6 and seen.rons and seen.tsumos, seen


def test_r_6_7_double_ron_picture_shows_both_winners() -> None:
    """The double ron of the riichi spec (R-6.7): both hands, both names, 14 + 14 tiles."""
    rs = find_ruleset("riichi")
    g = scripted_game(rs, [None, "45m234p567s678s22p", "45m234p567s678s33p", None], "6m", start=(0, 0, 1, 1))
    before = held(g)
    play(g, "0d6m", "1h", "2h")
    seen = Checked()
    check_result(g, 0, before, seen)
    view = result_view(g, 0, NAMES)
    assert view is not None and [w.heading for w in view.wins] == ["Bob wins by ron from Alice", "Carol wins by ron from Alice"]
    assert "Double ron" in view.title
    assert seen.multi == 1 and tiles_in(render_result(view))[0] == 28


def test_sanma_kita_are_shown_beside_the_winning_hand() -> None:
    seen = Checked()
    for seed in range(1, 60):
        play_and_check("sanma", seed, seen, max_wins=10**6)
        if seen.with_sets >= 3:
            break
    assert seen.with_sets >= 3, seen


# --- taiwan16 flower wins (TW-14): counted from the scripted hands ----------------------------------


def _tw_view(g: Game) -> ResultView:
    view = result_view(g, len(g.results) - 1, NAMES)
    assert view is not None and len(view.wins) == 1
    return view


def test_tw_14_eight_immortals_picture_shows_sixteen_tiles_and_eight_flowers() -> None:
    from tests.engine.rules.test_taiwan16_table import J0, J2, J3, run, scripted

    # seat 1 holds 1f..7f and nine tiles, replaces the seven flowers (16 tiles), draws 8f and wins
    g = scripted([J0, "1f2f3f4f5f6f7f2m5m8m2p5p8p2s5s8s", J2, J3], draws="9m" + "8f", tail="3m6m9m1p4p7p4s")
    run(g, "0d9m")
    view = _tw_view(g)
    assert view.wins[0].heading == "Bob wins with flowers"
    assert tiles_in(render_result(view)) == (16 + 8, 0)


def test_tw_14_seven_rob_one_picture_shows_the_robbed_flower() -> None:
    from tests.engine.rules.test_taiwan16_table import J0, J2, J3, run, scripted

    # seat 1 holds seven flowers; seat 2 draws the eighth, exposes it and seat 1 robs it
    g = scripted([J0, "1f2f3f4f5f6f7f2m5m8m2p5p8p2s5s8s", J2, J3], draws="9m" + "8s" + "8f", tail="3m6m9m1p4p7p4s")
    run(g, "0d9m 1d8s")
    view = _tw_view(g)
    assert view.wins[0].heading == "Bob wins with flowers, paid by Carol"
    assert tiles_in(render_result(view)) == (16 + 8, 0)


def test_result_title_wraps_instead_of_being_cut() -> None:
    from bot.render import WinView
    from engine.tiles import parse_tiles as p

    win = WinView("a", p("123456789m1234p"), p("4p")[0])
    short = Image.open(io.BytesIO(render_result(ResultView("East 1 · Ron", [win]))))
    long = Image.open(io.BytesIO(render_result(ResultView("East 1, 3 honba · " + "very long title " * 12, [win]))))
    assert long.width == short.width and long.height > short.height + 30


def test_render_worker_draws_the_result_picture_the_bot_sends() -> None:
    """The ResultView crosses to the render worker process and comes back as the same PNG."""
    import asyncio

    from bot.views.pictures import renderer as Renderer

    rs = find_ruleset("riichi")
    g = scripted_game(rs, [None, "45m234p567s678s22p", "45m234p567s678s33p", None], "6m", start=(0, 0, 1, 1))
    play(g, "0d6m", "1h", "2h")
    view = result_view(g, 0, NAMES)
    assert view is not None

    async def main() -> None:
        r = Renderer(1)
        try:
            await r.wait_ready()
            assert await r.png("result", view) == render_result(view)
        finally:
            r.close()

    asyncio.run(main())

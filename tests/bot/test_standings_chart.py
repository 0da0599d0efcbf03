"""/stats speed work: the rating chart (one reused matplotlib figure, drawn off the event loop, cached
by season, player and games) and the covering index behind a player's history (migration 0003)."""

from __future__ import annotations

import asyncio
import io
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from PIL import Image

import bot.standings.service as service_module
from bot.standings.chart import DPI, LINE_COLOR, SIZE_INCHES, rating_chart
from bot.standings.service import Entry, StandingsService, Who
from bot.storage.repository import Repository

ALICE, BOB, CAROL, DAVE = (Who.member(10 + i, n) for i, n in enumerate(("alice", "bob", "carol", "dave")))
LINE_RGB = tuple(int(LINE_COLOR[i : i + 2], 16) for i in (1, 3, 5))


def _line_pixels(png: bytes) -> list[tuple[int, int]]:
    """(x, y) of the pixels drawn in the line's own colour (within anti-aliasing tolerance)."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    w, h = img.size
    px = img.load()
    assert px is not None
    out = []
    for x in range(w):
        for y in range(h):
            r, g, b = px[x, y]  # type: ignore[misc]
            if abs(r - LINE_RGB[0]) + abs(g - LINE_RGB[1]) + abs(b - LINE_RGB[2]) < 40:
                out.append((x, y))
    return out


def test_rating_chart_is_a_png_of_the_rating_over_time() -> None:
    rising = [float(i) for i in range(50)]
    png = rating_chart(rising, title="alice — S", label="rating (points)")
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    assert img.size == (round(SIZE_INCHES[0] * DPI), round(SIZE_INCHES[1] * DPI))
    line = _line_pixels(png)
    assert len(line) > 100
    # a rising rating: the line's left end is lower on the picture (larger y) than its right end
    left = [y for x, y in line if x <= min(x for x, _ in line) + 3]
    right = [y for x, y in line if x >= max(x for x, _ in line) - 3]
    assert min(left) > max(right) + 50
    falling = rating_chart(rising[::-1], title="alice — S", label="rating (points)")
    line = _line_pixels(falling)
    left = [y for x, y in line if x <= min(x for x, _ in line) + 3]
    right = [y for x, y in line if x >= max(x for x, _ in line) - 3]
    assert max(left) + 50 < min(right)


def test_the_reused_figure_carries_nothing_from_one_chart_to_the_next() -> None:
    a = [1500.0, 1510.0, 1490.0, 1530.0]
    b = [float(x % 7) for x in range(300)]
    first = rating_chart(a, title="alice — S", label="rating (tenhou)")
    other = rating_chart(b, title="bob — S", label="rating (openskill)")
    assert other != first
    assert rating_chart(a, title="alice — S", label="rating (tenhou)") == first
    # and from many threads at once (the service draws through asyncio.to_thread) the same bytes
    series = [[float((i * k) % 11) for i in range(20 + k)] for k in range(8)]
    alone = [rating_chart(s, title=f"p{k}", label="rating") for k, s in enumerate(series)]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda ks: rating_chart(ks[1], title=f"p{ks[0]}", label="rating"), enumerate(series)))
    assert together == alone


def test_a_single_game_is_drawn_as_a_point() -> None:
    png = rating_chart([25.0], title="alice — S", label="rating (points)")
    line = _line_pixels(png)
    assert line, "the one rating is visible"
    xs = {x for x, _ in line}
    width = Image.open(io.BytesIO(png)).size[0]
    assert max(xs) - min(xs) < 0.04 * width  # a dot, not a line across the chart
    with pytest.raises(ValueError):
        rating_chart([], title="nobody", label="rating")


async def _open(tmp: Path) -> tuple[Repository, StandingsService]:
    repo = Repository(tmp / "standings.sqlite3")
    await repo.open()
    return repo, StandingsService(repo)


def test_stats_chart_is_drawn_off_the_event_loop_and_cached_until_the_history_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[tuple[list[float], str, str]] = []
    real = service_module.rating_chart

    def counting(ratings: list[float], *, title: str, label: str = "rating") -> bytes:
        assert threading.current_thread() is not threading.main_thread()  # never on the event loop's thread
        drawn.append((list(ratings), title, label))
        return real(ratings, title=title, label=label)

    monkeypatch.setattr(service_module, "rating_chart", counting)

    async def main() -> None:
        repo, st = await _open(tmp_path)
        await st.start_season(1, 10, "S", rating="points")
        g1 = await st.add_result(1, 10, [Entry(ALICE, 40000), Entry(BOB, 30000), Entry(CAROL, 20000), Entry(DAVE, 10000)])
        await st.add_result(1, 10, [Entry(ALICE, 10000), Entry(BOB, 20000), Entry(CAROL, 30000), Entry(DAVE, 40000)])
        first = await st.player_stats(1, ALICE)
        assert first.chart[:4] == b"\x89PNG"
        # the points rating is the running total of results: +50 (1st with oka), then -40 (4th)
        assert drawn == [([50.0, 10.0], "alice — S", "rating (points)")]
        again = await st.player_stats(1, ALICE)
        assert again.chart == first.chart and len(drawn) == 1  # same season, player, games: from the cache
        await st.player_stats(1, BOB)
        assert len(drawn) == 2  # another player is another picture
        # a new game: a new picture
        await st.add_result(1, 10, [Entry(ALICE, 30000), Entry(BOB, 30000), Entry(CAROL, 20000), Entry(DAVE, 20000)], seat_order=True)
        await st.player_stats(1, ALICE)
        assert len(drawn) == 3 and drawn[-1][0][:2] == [50.0, 10.0] and len(drawn[-1][0]) == 3
        # an edit of an old game keeps the count but changes the history: redrawn, never stale
        await st.edit_result(1, 11, g1.id, [Entry(ALICE, 10000), Entry(BOB, 30000), Entry(CAROL, 20000), Entry(DAVE, 40000)], organiser=True)
        edited = await st.player_stats(1, ALICE)
        assert len(drawn) == 4 and drawn[-1][0][0] == -40.0 and edited.chart != first.chart
        # a renamed season changes the title
        await st.rename_season(1, 10, None, "Spring")
        await st.player_stats(1, ALICE, "Spring")
        assert len(drawn) == 5 and drawn[-1][1] == "alice — Spring"
        await repo.close()

    asyncio.run(main())


def test_chart_cache_keeps_the_most_recently_used_charts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service_module, "CHART_CACHE_SIZE", 2)
    calls: list[str] = []
    monkeypatch.setattr(service_module, "rating_chart", lambda ratings, *, title, label="rating": calls.append(title) or b"\x89PNG")

    async def main() -> None:
        repo, st = await _open(tmp_path)
        await st.start_season(1, 10, "S")
        await st.add_result(1, 10, [Entry(ALICE, 40000), Entry(BOB, 30000), Entry(CAROL, 20000), Entry(DAVE, 10000)])
        for who in (ALICE, BOB, ALICE, CAROL, ALICE, BOB):
            await st.player_stats(1, who)
        # ALICE stays cached (used again before CAROL arrived); BOB was the least recent and left
        assert calls == ["alice — S", "bob — S", "carol — S", "bob — S"]
        await repo.close()

    asyncio.run(main())


def test_a_players_history_reads_the_covering_index_in_playing_order(tmp_path: Path) -> None:
    async def main() -> None:
        repo, st = await _open(tmp_path)
        season = await st.start_season(1, 10, "S")
        other = await st.start_season(1, 10, "Other", parallel=True)
        for k in range(6):
            four = [ALICE, BOB, CAROL, DAVE] if k % 2 else [DAVE, CAROL, BOB, ALICE]
            await st.add_result(1, 10, [Entry(w, s) for w, s in zip(four, (40000, 30000, 20000, 10000))], season="S")
        await st.add_result(1, 10, [Entry(w, s) for w, s in zip([ALICE, BOB, CAROL, DAVE], (40000, 30000, 20000, 10000))], season="Other")
        g = await st.add_result(1, 10, [Entry(w, s) for w, s in zip([BOB, ALICE, CAROL, DAVE], (40000, 30000, 20000, 10000))], season="S")
        await st.void_result(1, 10, g.id, organiser=True)
        traced: list[str] = []
        await repo.db.set_trace_callback(traced.append)
        history = await repo.player_history(season.id, ALICE.player)
        await repo.db.set_trace_callback(None)
        (sql,) = [q for q in traced if "game_players" in q]
        async with repo.db.execute("EXPLAIN QUERY PLAN " + sql) as cur:
            plan = " | ".join(r[3] for r in await cur.fetchall())
        assert "COVERING INDEX game_players_history (player=?)" in plan and "games_season" not in plan, plan
        # the same rows a plain reading of the two tables gives: the season's counted games, in order
        con = sqlite3.connect(repo.path)
        games = {r[0]: r[1:] for r in con.execute("SELECT id, season_id, status, finished_at FROM games")}
        want = sorted(
            (games[gid][2], gid, place)
            for gid, player, place in con.execute("SELECT game_id, player, place FROM game_players")
            if player == ALICE.player and games[gid][0] == season.id and games[gid][1] == "ok"
        )
        con.close()
        assert [(h.finished_at, h.game_id, h.place) for h in history] == want and len(want) == 6
        assert [h.place for h in history] == [4, 1, 4, 1, 4, 1]
        assert other.id != season.id
        await repo.close()

    asyncio.run(main())


PHONE_WIDTH = 360  # about how wide Discord's mobile client shows a picture


def _dark_rows(img: Image.Image, box: tuple[int, int, int, int]) -> list[int]:
    """The rows (y) of ``box`` holding text-dark pixels."""
    gray = img.convert("L").crop(box)
    px = gray.load()
    assert px is not None
    w, h = gray.size
    return [y for y in range(h) if any(px[x, y] < 100 for x in range(w))]  # type: ignore[operator]


def test_rating_chart_reads_on_a_phone_screen() -> None:
    png = rating_chart([1500.0, 1530.0, 1480.0, 1560.0, 1610.0], title="alice — Spring", label="rating (tenhou)")
    img = Image.open(io.BytesIO(png))
    w, h = img.size
    assert w >= 2 * PHONE_WIDTH * 0.85 and h / w >= 0.6  # room for labels, and tall enough to read the line
    scale = PHONE_WIDTH / w
    # the digits under the x axis, measured on the picture: at least 8 px tall once shrunk to a phone's width
    bottom = round(0.83 * h)  # the axes end 17 % above the bottom edge
    rows = _dark_rows(img, (round(0.2 * w), bottom + 4, round(0.93 * w), bottom + round(0.09 * h)))
    assert rows and (max(rows) - min(rows) + 1) * scale >= 8, rows


def test_a_long_title_is_cut_to_fit_the_picture() -> None:
    png = rating_chart([1.0, 2.0], title="W" * 60 + " — Autumn league", label="rating (openskill)")
    img = Image.open(io.BytesIO(png))
    w, h = img.size
    band = (0, 0, w, round(0.1 * h))
    assert _dark_rows(img, band)  # the title is there
    assert not _dark_rows(img, (0, 0, 3, band[3])) and not _dark_rows(img, (w - 3, 0, w, band[3]))  # and inside the picture

"""Issue 30: a chombo entered without points costs what the season's rules say (EMA 2016 notes:
20,000 points after uma; WRC 2022: 30,000: 20 and 30 result points; riichi, whose chombo is a
payment: 20), and the leaderboard takes every penalty off: a recomputation from the games and the
penalty list."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.standings.penalties import Penalties
from bot.standings.service import Entry, StandingsService, Who
from bot.storage.repository import Repository

PLAYERS = [Who.member(1, "ann"), Who.member(2, "ben"), Who.member(3, "cat"), Who.member(4, "dan")]


@pytest.mark.parametrize(("ruleset", "expected"), [("ema", 20.0), ("wrc", 30.0), ("riichi", 20.0)])
def test_a_chombo_costs_what_the_seasons_rules_say(tmp_path: Path, ruleset: str, expected: float) -> None:
    async def run() -> None:
        repo = Repository(tmp_path / "club.sqlite3")
        await repo.open()
        try:
            st = StandingsService(repo)
            s = await st.start_season(1, 9, "Cup", ruleset=ruleset)
            start = s.start_points
            scores = [start + 15000, start + 5000, start - 5000, start - 15000]
            await st.add_result(1, 9, [Entry(w, sc) for w, sc in zip(PLAYERS, scores, strict=True)])
            _, pen = await Penalties(st).add(1, 9, PLAYERS[1], None, "false ron", chombo=True)
            assert pen.points == expected and pen.kind == "chombo"
            await Penalties(st).add(1, 9, PLAYERS[2], 2.5, "slow play")
            page = await st.leaderboard(1, "Cup")
            got = {row.player: round(row.points_after_penalties, 6) for _, row in page.rows}
            # (points - return) / 1000 + uma (the ruleset's), oka to first; less each penalty
            uma = [float(x) for x in s.uma]
            oka = (s.return_points - s.start_points) * 4 / 1000
            want = {w.player: (sc - s.return_points) / 1000 + uma[i] + (oka if i == 0 else 0) for i, (w, sc) in enumerate(zip(PLAYERS, scores))}
            want["u:2"] -= expected
            want["u:3"] -= 2.5
            assert got == {k: round(v, 6) for k, v in want.items()}
        finally:
            await repo.close()

    asyncio.run(run())

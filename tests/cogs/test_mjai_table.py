"""Through Discord: an outside mjai program in one seat of a whole game (issue 22, "Outside AIs at
the table"). The program is tests/bot/mjai_bots/tsumogiri_bot.py, which writes down every line it
reads; what it read must be the game's mjai export as its seat sees it, with no other seat's
starting tiles or draws."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from pathlib import Path

import pytest

from bot.storage.repository import TableRow
from engine.logs.export import to_mjai
from engine.table.game import Game
from tests.bot.harness import Club, club, play_out, stored_replay
from tests.bot.mjai_bots.venv import mjai_python

BOTS = Path(__file__).parents[1] / "bot" / "mjai_bots"
BOT = BOTS / "tsumogiri_bot.py"


def _masked(ev: dict, full: dict, seat: int) -> None:
    """``ev`` is ``full`` as ``seat`` may hear it: no other seat's starting tiles or draws."""
    if full["type"] == "start_kyoku":
        assert ev["tehais"][seat] == full["tehais"][seat]
        assert all(ev["tehais"][s] == ["?"] * 13 for s in range(4) if s != seat), ev
        assert {**ev, "tehais": full["tehais"]} == full
    elif full["type"] == "tsumo" and full["actor"] != seat:
        assert ev == {**full, "pai": "?"}
    else:
        assert ev == full


async def _play_out_with(c: Club, kind: str) -> tuple[int, Game, TableRow]:
    """Seat ``kind`` and two built-in AIs beside alice at the open table 1 and play the game out.
    The mjai seat, the stored log replayed (it must end with the table's scores: the stored log is
    the game) and the stored table row, finished."""
    await c.slash("alice", "table add-ai", {"kind": kind})
    await c.slash("alice", "table add-ai", {"seats": 2})
    await c.slash("alice", "table start", {})
    await play_out(c, ["alice"])
    t = c.bot.service.tables[1]
    g = t.game
    assert g is not None and g.over
    seat = next(s.seat for s in t.seats if s.ai is not None and s.ai.startswith("mjai:"))
    row, replay = await stored_replay(c.db)
    assert replay.over and replay.final_scores == g.final_scores
    return seat, replay, row


def test_whole_game_with_an_mjai_program_in_one_seat(tmp_path: Path) -> None:
    async def main() -> None:
        record = tmp_path / "heard.txt"
        async with club(tmp_path, time_scale=10) as c:
            # the owner's list (JANTAKU_MJAI_BOTS in .env, bot.config): this one program
            c.bot.service.mjai.programs = {"tsumogiri": (sys.executable, str(BOT), "--record", str(record))}
            await c.slash("alice", "table open", {"length": "tonpuu", "ruleset": "tenhou"})
            # kind autocompletes: the built-in AIs and the listed programs, nothing else
            rec = await c.server.autocomplete(c.users["alice"].id, c.guild_id, c.channel_id, "table add-ai", {"kind": ""}, "kind")
            await rec.response()
            assert [ch["value"] for ch in rec.choices or []] == ["smart", "greedy", "mjai:tsumogiri"]
            rec = await c.server.autocomplete(c.users["alice"].id, c.guild_id, c.channel_id, "table add-ai", {"kind": "tsu"}, "kind")
            await rec.response()
            assert [ch["value"] for ch in rec.choices or []] == ["mjai:tsumogiri"]
            rec = await c.slash("alice", "table add-ai", {"kind": "mortal"})
            (refusal,) = c.replies(rec)  # an unlisted name: one sentence naming what can be seated
            assert refusal.startswith("there is no AI called 'mortal'") and "mjai:tsumogiri" in refusal
            seat, replay, row = await _play_out_with(c, "mjai:tsumogiri")
            assert row.seats[seat].ai == "mjai:tsumogiri"
            names = [s.name for s in c.bot.service.tables[1].seats]
        # what the program heard: one process, one line per question, the export of the replayed game
        lines = record.read_text().splitlines()
        assert len([ln for ln in lines if ln.startswith("pid ")]) == 1
        heard = [ev for ln in lines if not ln.startswith("pid ") for ev in json.loads(ln)]
        export = to_mjai(replay, names=names)
        assert len(heard) == len(export)
        assert heard[0] == {**export[0], "id": seat}
        for full, ev in zip(export[1:], heard[1:], strict=True):
            _masked(ev, full, seat)
        # its answers were played: each of its discards is the tile it just drew
        again = Game(replay.ruleset, replay.seed)
        discards = 0
        for a in replay.actions:
            if a.seat == seat:
                assert a.type.name in ("DISCARD", "PASS", "TSUMO"), a.text
                if a.type.name == "DISCARD":
                    assert a.tile == again.code(again.drawn), a.text
                    discards += 1
            again.apply(a)
        assert discards > 20

    asyncio.run(main())


def test_whole_game_with_the_mjai_packages_rulebase_bot(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    python, why = mjai_python()
    if python is None:
        pytest.skip(why)

    async def main() -> None:
        async with club(tmp_path, time_scale=10) as c:
            c.bot.service.mjai.programs = {"rulebase": (str(python), str(BOTS / "rulebase_bot.py"))}
            caplog.set_level(logging.WARNING, logger="bot.ai.mjai_seat")
            await c.slash("alice", "table open", {"length": "tonpuu", "ruleset": "tenhou"})
            seat, replay, _ = await _play_out_with(c, "rulebase")
        # every answer it gave was legal and in time: no fault, no fallback
        assert [r.getMessage() for r in caplog.records if r.name == "bot.ai.mjai_seat"] == []
        assert any(a.seat == seat and a.type.name in ("DISCARD", "RIICHI") for a in replay.actions)

    asyncio.run(main())


def test_a_faulty_program_is_replaced_and_the_channel_told_once(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path, time_scale=10) as c:
            c.bot.service.mjai.programs = {"broken": (sys.executable, str(BOT), "--fault", "garbage")}
            await c.slash("alice", "table open", {"length": "tonpuu", "ruleset": "tenhou"})
            await c.slash("alice", "table add-ai", {"kind": "broken", "seats": 1})
            await c.slash("alice", "table add-ai", {"seats": 2})
            await c.slash("alice", "table start", {})
            await play_out(c, ["alice"])
            await c.server.wait_for(lambda: any("final standings" in m.content for m in c.server.messages(c.channel_id)), timeout=20)
            t = c.bot.service.tables[1]
            assert t.game is not None and t.game.over and t.row.status == "finished"
            told = [m.content for m in c.server.messages(c.channel_id) if "mjai program" in m.content]
            assert told == [
                "broken: the mjai program broken made 3 faulty moves, so the built-in AI plays this seat for the rest of the game."
            ]

    asyncio.run(main())

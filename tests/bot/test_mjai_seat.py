"""AI seats played by an outside mjai program (bot/ai/mjai_seat.py) through TableService, no
Discord: a faulty program is answered by auto actions and, after three faults, replaced by the
built-in AI; its processes never outlive the game; only listed programs can be seated; the
settings are read from the environment."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import sys
import time
from contextlib import suppress
from pathlib import Path

import pytest

from bot.ai.mjai_seat import MAX_FAULTS, Fault, MjaiSeat
from bot.config import ConfigError, mjai_bots
from bot.storage.repository import Repository
from bot.tables import TableError, TableService
from engine.logs.export import mjai_tile
from engine.logs.mjai_live import MjaiStream
from engine.rules import find_ruleset
from engine.table.actions import Action, ActionType
from engine.table.game import Game

BOT = Path(__file__).parent / "mjai_bots" / "tsumogiri_bot.py"


def program(record: Path, *extra: str) -> tuple[str, ...]:
    return (sys.executable, str(BOT), "--record", str(record), *extra)


def pids(record: Path) -> list[int]:
    return [int(line.split()[1]) for line in record.read_text().splitlines() if line.startswith("pid ")]


def gone(pid: int) -> bool:
    """The process is gone and reaped (a zombie would still answer signal 0)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


async def _all_ai_table(tmp: Path, kind: str, programs: dict[str, tuple[str, ...]], seed: str = "mjai-seat") -> tuple[Repository, TableService, int]:
    repo = Repository(tmp / "t.sqlite3")
    await repo.open()
    svc = TableService(repo, mjai_bots=programs)
    svc.mjai.deadline_cap = 0.5  # a silent program costs half a second a decision, not ten
    svc.mjai.startup_grace = 2.0
    svc.new_seed = lambda: seed
    t = await svc.open_table(guild_id=1, channel_id=2, opener_id=10, opener_name="alice", length="tonpuu")
    await svc.leave(t.id, 10)
    await svc.add_ai(t.id, 1, kind)
    await svc.add_ai(t.id, 3)
    return repo, svc, t.id


@pytest.mark.parametrize("fault", ["garbage", "illegal", "silent", "crash"])
def test_a_faulty_program_gets_auto_actions_then_the_builtin_ai(tmp_path: Path, fault: str, caplog: pytest.LogCaptureFixture) -> None:
    async def main() -> None:
        record = tmp_path / "record.txt"
        repo, svc, tid = await _all_ai_table(tmp_path, "mjai:faulty", {"faulty": program(record, "--fault", fault)})
        caplog.set_level(logging.WARNING, logger="bot.ai.mjai_seat")
        update = await svc.start(tid, 10)  # four AI seats: the whole game is played here
        t = svc.tables[tid]
        g = t.game
        assert g is not None and g.over and t.row.status == "finished"
        seat = next(s.seat for s in t.seats if s.ai == "mjai:faulty")
        # three faults, each answered by the seat's auto action, then the built-in AI for the rest
        faults = [r.getMessage() for r in caplog.records if "auto action" in r.getMessage()]
        assert len(faults) == MAX_FAULTS, faults
        stored = [Action.parse(text) for _, text in await repo.actions(tid)]
        for line in faults:
            m = re.search(r"at move (\d+); auto action (\S+)", line)
            assert m is not None, line
            serial, text = int(m[1]), m[2]
            replay = Game(g.ruleset, t.row.seed)
            for a in stored[:serial]:
                replay.play(a)
            assert stored[serial].text == text == TableService.auto_action(replay, seat).text
        assert any("built-in AI plays the rest" in r.getMessage() for r in caplog.records)
        assert update.notices == [
            f"{t.seats[seat].name}: the mjai program faulty made {MAX_FAULTS} faulty moves, "
            "so the built-in AI plays this seat for the rest of the game."
        ]
        # each fault killed its process (it would be restarted at the next decision); none is left
        started = pids(record)
        assert len(started) == MAX_FAULTS
        assert all(gone(p) for p in started)
        assert not svc.mjai.seats
        await repo.close()

    asyncio.run(main())


def test_a_whole_game_with_a_good_program_has_no_fault(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async def main() -> None:
        record = tmp_path / "record.txt"
        repo, svc, tid = await _all_ai_table(tmp_path, "mjai:tsumogiri", {"tsumogiri": program(record)})
        caplog.set_level(logging.WARNING, logger="bot.ai.mjai_seat")
        update = await svc.start(tid, 10)
        g = svc.tables[tid].game
        assert g is not None and g.over and not update.notices
        assert not [r for r in caplog.records if r.name == "bot.ai.mjai_seat"]
        (pid,) = pids(record)  # one process for the whole game, closed at its end
        assert gone(pid)
        lines = [ln for ln in record.read_text().splitlines() if not ln.startswith("pid ")]
        assert '"end_game"' in lines[-1]
        await repo.close()

    asyncio.run(main())


def test_only_listed_programs_can_be_seated(tmp_path: Path) -> None:
    async def main() -> None:
        repo = Repository(tmp_path / "t.sqlite3")
        await repo.open()
        svc = TableService(repo, mjai_bots={"rulebase": ("true",)})
        t = await svc.open_table(guild_id=1, channel_id=2, opener_id=10, opener_name="alice")
        assert svc.ai_kinds() == ["smart", "greedy", "mjai:rulebase"]
        for unknown in ("mjai:/bin/sh", "mortal", "mjai:mortal", "sh -c 'rm -rf /'"):
            with pytest.raises(TableError, match="there is no AI called"):
                await svc.add_ai(t.id, 1, unknown)
        await svc.add_ai(t.id, 1, "rulebase")  # a listed program by its bare name
        await svc.add_ai(t.id, 1, "mjai:rulebase")
        await svc.add_ai(t.id, 1, "greedy")
        assert [(s.ai, s.name) for s in t.seats[1:]] == [
            ("mjai:rulebase", "rulebase"),
            ("mjai:rulebase", "rulebase 2"),
            ("greedy", "AI 1"),
        ]
        # the kind is stored with the seat: a restart finds it
        row = await repo.get_table(t.id)
        assert row is not None and [s.ai for s in row.seats[1:]] == ["mjai:rulebase", "mjai:rulebase", "greedy"]
        await repo.close()

    asyncio.run(main())


def test_settings_list_programs_by_name() -> None:
    env = {
        "JANTAKU_MJAI_BOTS": "rulebase, my-bot",
        "JANTAKU_MJAI_RULEBASE": "/opt/venv/bin/python '/opt/my bots/rulebase.py' --fast",
        "JANTAKU_MJAI_MY_BOT": "./run.sh",
    }
    assert mjai_bots(env) == {
        "rulebase": ("/opt/venv/bin/python", "/opt/my bots/rulebase.py", "--fast"),
        "my-bot": ("./run.sh",),
    }
    assert mjai_bots({}) == {}
    with pytest.raises(ConfigError, match="JANTAKU_MJAI_MORTAL gives no command line"):
        mjai_bots({"JANTAKU_MJAI_BOTS": "mortal"})
    with pytest.raises(ConfigError, match="lower-case"):
        mjai_bots({"JANTAKU_MJAI_BOTS": "Bad Name", "JANTAKU_MJAI_BAD NAME": "x"})
    with pytest.raises(ConfigError, match="not a command line"):
        mjai_bots({"JANTAKU_MJAI_BOTS": "q", "JANTAKU_MJAI_Q": "python 'unclosed"})


def test_after_a_restart_the_program_is_started_again_and_told_the_game_so_far(tmp_path: Path) -> None:
    async def main() -> None:
        record = tmp_path / "record.txt"
        programs = {"tsumogiri": program(record)}
        repo = Repository(tmp_path / "t.sqlite3")
        await repo.open()
        svc = TableService(repo, mjai_bots=programs)
        svc.new_seed = lambda: "mjai-restart"
        t = await svc.open_table(guild_id=1, channel_id=2, opener_id=10, opener_name="alice", length="tonpuu")
        await svc.add_ai(t.id, 1, "mjai:tsumogiri")
        await svc.add_ai(t.id, 2)
        await svc.start(t.id, 10)

        async def alice_plays(svc: TableService, moves: int) -> None:
            tt = svc.tables[t.id]
            for _ in range(moves):
                g = tt.game
                if g is None or g.over:
                    return
                legal = list(g.legal_actions(tt.seat_of(10)))  # type: ignore[arg-type]
                a = next((x for x in legal if x.type.name in ("DISCARD", "PASS")), legal[0])
                await svc.act(t.id, 10, a.text, tt.decision_serial())

        await alice_plays(svc, 12)
        await svc.mjai.close_all()  # the bot stops (JantakuBot.close)
        await repo.close()
        first = record.read_text().splitlines()

        repo = Repository(tmp_path / "t.sqlite3")
        await repo.open()
        svc = TableService(repo, mjai_bots=programs)
        await svc.load()
        await alice_plays(svc, 10_000)
        g = svc.tables[t.id].game
        assert g is not None and g.over
        await repo.close()
        lines = record.read_text().splitlines()
        assert len(pids(record)) == 2 and all(gone(p) for p in pids(record))
        heard_before = [ev for ln in first[1:] for ev in json.loads(ln)]
        after = lines[len(first) :]
        assert after[0].startswith("pid ")
        told = json.loads(after[1])  # the restarted program's first line: the game from its start
        assert told[0]["type"] == "start_game" and len(told) > len(heard_before)
        assert told[: len(heard_before)] == heard_before

    asyncio.run(main())


def test_a_program_that_stops_reading_is_a_fault_within_the_deadline() -> None:
    """A question larger than the pipe and the write buffer hold (a long game told at a restart)
    to a program that never reads: the write itself waits, and the deadline still ends it."""

    async def main() -> None:
        rs = find_ruleset("tenhou")
        g = Game(rs, "deaf")
        seat = MjaiSeat("deaf", (sys.executable, "-c", "import time; time.sleep(60)"), g.to_act()[0], MjaiStream(rs, "deaf", "abcd"))
        seat.stream.events.append({"type": "none", "padding": "x" * 400_000})  # a question of 400 KB
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        with pytest.raises(Fault, match="no answer within 0.3 s"):
            await asyncio.wait_for(seat.decide(g, 0.3, grace=0.2), 5.0)  # a write that waits forever fails here
        assert loop.time() - t0 < 2.0
        assert seat.proc is not None
        pid = seat.proc.proc.pid
        await seat.close()
        assert gone(pid)

    asyncio.run(main())


REACH_BOT = """
import json, sys
pai, record, seat = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(record, "a") as out:
    for n, line in enumerate(sys.stdin):
        out.write(line)
        out.flush()
        last = json.loads(line)[-1]
        if n == 0:
            answer = {"type": "reach", "actor": seat}
        elif n == 1:
            answer = {"type": "dahai", "actor": seat, "pai": pai}
        elif last["type"] == "tsumo" and last["actor"] == seat:
            answer = {"type": "dahai", "actor": seat, "pai": last["pai"]}
        else:
            answer = {"type": "none"}
        print(json.dumps(answer), flush=True)
"""


def test_riichi_is_reach_then_the_discard_and_the_reach_is_not_told_twice(tmp_path: Path) -> None:
    async def main() -> None:
        from tests.engine.test_mjai_live import _first, _self_play

        _, before = _self_play("live-2")
        g, seat, riichi = _first(before, lambda g, a: a.type.name == "RIICHI")
        script = tmp_path / "reach_bot.py"
        script.write_text(REACH_BOT)
        record = tmp_path / "heard.txt"
        argv = (sys.executable, str(script), mjai_tile(riichi.tile), str(record))
        s = MjaiSeat("reach", argv, seat, MjaiStream(g.ruleset, g.seed, "abcd"))
        assert await s.decide(g, 5.0) == riichi
        g.apply(riichi)
        while seat not in g.to_act():  # the others play on until the seat is asked again
            g.apply(TableService.auto_action(g, g.to_act()[0]))
        await s.decide(g, 5.0)
        await s.close()
        first, second, third = (json.loads(ln) for ln in record.read_text().splitlines())
        assert first[-1]["type"] in ("tsumo", "dahai") and second == [{"type": "reach", "actor": seat}]
        # the stream writes the riichi as reach + dahai: the program hears only the dahai
        assert third[0] == {"type": "dahai", "actor": seat, "pai": mjai_tile(riichi.tile), "tsumogiri": third[0]["tsumogiri"]}
        assert not [ev for ev in third if ev["type"] == "reach"]

    asyncio.run(main())


async def _two_humans_and_a_held_program(tmp: Path, hold: Path, record: Path) -> tuple[Repository, TableService, int]:
    """alice (10) and bob (11), the tsumogiri program (held while ``hold`` exists) and a built-in AI."""
    repo = Repository(tmp / "t.sqlite3")
    await repo.open()
    svc = TableService(repo, mjai_bots={"slow": program(record, "--hold", str(hold))})
    svc.new_seed = lambda: "mjai-unlocked"
    t = await svc.open_table(guild_id=1, channel_id=2, opener_id=10, opener_name="alice", length="tonpuu")
    await svc.join(t.id, 11, "bob")
    await svc.add_ai(t.id, 1, "mjai:slow")
    await svc.add_ai(t.id, 1)
    return repo, svc, t.id


def _plain_move(svc: TableService, tid: int, user: int) -> Action | None:
    """The user's pass (a call window) or discard of the drawn tile, if they are to act."""
    t = svc.tables[tid]
    g, seat = t.game, t.seat_of(user)
    if g is None or g.over or seat not in g.to_act():
        return None
    return TableService.auto_action(g, seat)


def _lines(record: Path) -> int:
    return len(record.read_text().splitlines()) if record.exists() else 0


async def _until_the_program_is_asked(svc: TableService, tid: int, record: Path) -> asyncio.Task[object]:
    """Click for alice and bob until a click leaves the program thinking (its question is in the
    record and the click has not returned); that click's task."""
    while True:
        user = next(u for u in (10, 11) if _plain_move(svc, tid, u) is not None)
        a = _plain_move(svc, tid, user)
        assert a is not None
        heard = _lines(record)
        click = asyncio.create_task(svc.act(tid, user, a.text, svc.tables[tid].decision_serial()))
        while not click.done() and _lines(record) == heard:
            await asyncio.sleep(0.01)
        if not click.done():
            return click
        await click


async def _asked_and_held(tmp: Path, hold: Path, record: Path) -> tuple[Repository, TableService, int, asyncio.Task[object]]:
    """The table started, its program asked and holding its answer (while ``hold`` exists), and the
    click whose request waits for that answer."""
    repo, svc, tid = await _two_humans_and_a_held_program(tmp, hold, record)
    await svc.start(tid, 10)
    hold.touch()
    return repo, svc, tid, await _until_the_program_is_asked(svc, tid, record)


def test_while_the_program_thinks_the_table_answers_other_clicks(tmp_path: Path) -> None:
    async def main() -> None:
        hold, record = tmp_path / "hold", tmp_path / "record.txt"
        repo, svc, tid = await _two_humans_and_a_held_program(tmp_path, hold, record)
        await svc.start(tid, 10)
        t = svc.tables[tid]
        hold.touch()
        for _ in range(3):
            click = await _until_the_program_is_asked(svc, tid, record)
            stored = len(await repo.actions(tid))
            # a click of each human while the program thinks: answered at once (the table is not
            # locked), refused since it is not their move, and nothing played
            for user in (10, 11):
                seat = t.seat_of(user)
                assert seat is not None
                t0 = time.perf_counter()
                with pytest.raises(TableError):
                    await svc.act(tid, user, Action(ActionType.PASS, seat).text, t.decision_serial())
                assert time.perf_counter() - t0 < 0.5
            assert not click.done() and len(await repo.actions(tid)) == stored
            hold.unlink()  # the program answers: its move is played, the click returns
            await asyncio.wait_for(click, 10)
            assert len(await repo.actions(tid)) > stored
            hold.touch()
        hold.unlink()
        while (u := next((u for u in (10, 11) if _plain_move(svc, tid, u) is not None), None)) is not None:
            a = _plain_move(svc, tid, u)
            assert a is not None
            await svc.act(tid, u, a.text, t.decision_serial())
        g = t.game
        assert g is not None and g.over and t.row.status == "finished"
        # the stored log is the game, and the engine's replay of it ends the same
        stored_actions = [Action.parse(text) for _, text in await repo.actions(tid)]
        assert stored_actions == list(g.actions)
        replay = Game(g.ruleset, t.row.seed)
        for a in stored_actions:
            replay.play(a)
        assert replay.over and replay.final_scores == g.final_scores
        assert any(a.seat == t.seats.index(next(s for s in t.seats if s.ai == "mjai:slow")) for a in g.actions)
        await repo.close()

    asyncio.run(main())


def test_an_answer_to_a_table_that_moved_on_is_dropped(tmp_path: Path) -> None:
    async def main() -> None:
        hold, record = tmp_path / "hold", tmp_path / "record.txt"
        repo, svc, tid, click = await _asked_and_held(tmp_path, hold, record)
        stored = await repo.actions(tid)
        t0 = time.perf_counter()
        await svc.abandon(tid, 10, organiser=False, guild_id=1)  # not kept waiting by the program either
        assert time.perf_counter() - t0 < 0.5
        hold.unlink()
        await asyncio.wait_for(click, 10)
        # the program was stopped with the table; whatever it answered, nothing more was played
        assert await repo.actions(tid) == stored
        t = svc.tables[tid]
        assert t.row.status == "abandoned" and t.game is not None and len(t.game.actions) == len(stored)
        assert not svc.mjai.seats
        await repo.close()

    asyncio.run(main())


def test_a_request_cancelled_while_the_program_thinks_stops_the_program(tmp_path: Path) -> None:
    """Its answer, read later, would be taken for the answer to the next question: the program is
    stopped, and started again (told the game so far) when it is next asked."""

    async def main() -> None:
        hold, record = tmp_path / "hold", tmp_path / "record.txt"
        repo, svc, tid, click = await _asked_and_held(tmp_path, hold, record)
        (pid,) = pids(record)
        click.cancel()
        with suppress(asyncio.CancelledError):
            await click
        assert gone(pid)
        hold.unlink()
        t = svc.tables[tid]
        await svc.resume(t)  # the table's next request asks it again
        while (u := next((u for u in (10, 11) if _plain_move(svc, tid, u) is not None), None)) is not None:
            a = _plain_move(svc, tid, u)
            assert a is not None
            await svc.act(tid, u, a.text, t.decision_serial())
        g = t.game
        assert g is not None and g.over
        assert len(pids(record)) == 2
        assert [Action.parse(text) for _, text in await repo.actions(tid)] == list(g.actions)
        await repo.close()

    asyncio.run(main())

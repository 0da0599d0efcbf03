"""``/replay`` end to end (issue 21): a finished game stepped through with its buttons shows exactly
the states the engine reaches replaying the stored actions; the seat view hides the other hands;
a running or abandoned game, and a forged position, are refused in one sentence."""

from __future__ import annotations

import asyncio
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest

from bot.client import JantakuBot
from bot.render import variants as vr
from bot.render.names import tile_name
from bot.render.pictures import render_open_table, render_seat_table
from bot.tables import Table
from bot.views.table import table_view
from devserver import Message
from engine.table.actions import Action, ActionType
from engine.table.game import Game
from tests.bot.harness import Club, club, play_out
from tests.cogs.test_leaks import _dealt_otherwise

SEED = "replay-test-seed-1"


def _fresh(t: Table, stored: list[str], n: int) -> Table:
    """The finished table's row with a new game of its rules and seed, fed the first ``n`` stored
    actions through the validating path (not the bot's replay)."""
    g = Game(t.game.ruleset, t.row.seed)  # type: ignore[union-attr]
    for text in stored[:n]:
        g.play(Action.parse(text))
    return Table(row=t.row, game=g)


def _seat_png(c: Club, t: Table, seat: int) -> bytes:
    args, kwargs = c.bot.presenter.hand_args(t, seat)
    g = t.game
    assert g is not None
    kwargs["title"] = f"{t.seats[seat].name} · {'ESWN'[vr.seat_wind(g, seat)]} · {g.scores[seat]} {vr.score_unit(g)}"
    return render_seat_table(table_view(t, bottom=seat), *args, **kwargs)


def _open_png(c: Club, t: Table) -> bytes:
    g = t.game
    assert g is not None
    hands = []
    for s in range(g.players):
        (tiles, melds, drawn), _ = c.bot.presenter.hand_args(t, s)
        hands.append((f"{t.seats[s].name} · {'ESWN'[vr.seat_wind(g, s)]}", tiles, melds, drawn))
    return render_open_table(table_view(t, bottom=0), hands)


def _picture(msg: Message) -> bytes:
    return next(a.data for a in msg.attachments if a.filename == "replay.png")


def _button(msg: Message, move: str) -> str:
    return next(cid for cid in msg.custom_ids() if cid.startswith("mjp:") and cid.endswith(f":{move}"))


async def _press(c: Club, who: str, msg_id: int, move: str) -> Any:
    msg = c.server.message(msg_id)
    rec = await c.server.click(c.users[who].id, msg_id, _button(msg, move))
    await rec.reply(timeout=10)
    assert not rec.errors, rec.errors
    assert rec.callback_type in (6, 7), rec  # the replay message itself is updated
    return c.server.message(msg_id)


def _check(c: Club, t: Table, stored: list[str], msg: Any, n: int, seat: int | None) -> None:
    """The message shows position ``n``: its picture is the table the engine reaches after ``n``
    stored actions; its caption counts, names the action and, at a hand's end, its payments."""
    want = _fresh(t, stored, n)
    g = want.game
    assert g is not None
    assert f"action {n} of {len(stored)}" in msg.content, (n, msg.content)
    assert _picture(msg) == (_open_png(c, want) if seat is None else _seat_png(c, want, seat)), n
    if n:
        a = Action.parse(stored[n - 1])
        name = t.seats[a.seat].name
        if a.type is ActionType.DISCARD:
            assert f"{name} discarded {tile_name(a.tile)}" in msg.content, msg.content
        else:
            assert name in msg.content
    before = _fresh(t, stored, n - 1).game if n else None
    if before is not None and len(g.results) > len(before.results):
        for s, d in enumerate(g.results[-1].deltas):
            if d:
                assert f"{t.seats[s].name} {d:+,d}" in msg.content, msg.content


def test_replay_steps_through_a_finished_game_as_the_engine_replays_it(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path, time_scale=10) as c:
            c.bot.service.new_seed = lambda: SEED
            await c.slash("alice", "table open", {"ruleset": "tenhou", "length": "tonpuu"})
            await c.slash("alice", "table add-ai", {"seats": 3})
            await c.slash("alice", "table start", {})
            t = await c.started()

            # a running game: one sentence, no picture, nothing of the game
            for who, seat in (("alice", None), ("bob", "all")):
                rec = await c.slash(who, "replay", {"table": 1} | ({"seat": seat} if seat else {}))
                msgs = [m for m in c.server.visible_to(c.users[who].id) if m.interaction_id == rec.id]
                assert len(msgs) == 1 and not msgs[0].attachments and not msgs[0].components
                assert "still being played" in msgs[0].content and msgs[0].content.count(".") == 1, msgs[0].content
                assert SEED not in msgs[0].content

            await play_out(c, ["alice"])
            g = t.game
            assert g is not None and g.over
            stored = [a for _, a in await c.bot.repo.actions(1)]
            m = len(stored)
            alice = t.seat_of(c.users["alice"].id)
            assert alice is not None

            # alice's own view: step through the first hand action by action
            rec = await c.slash("alice", "replay", {"table": 1})
            msg = rec.original
            assert msg is not None and msg.visible_to == c.users["alice"].id
            _check(c, t, stored, msg, 0, alice)
            # where each hand ends, from a fresh game fed the stored actions one by one
            probe, ends = Game(g.ruleset, t.row.seed), list[int]()
            for i, text in enumerate(stored, 1):
                probe.play(Action.parse(text))
                if len(probe.results) > len(ends):
                    ends.append(i)
            first_end = ends[0]
            for n in range(1, first_end + 1):
                msg = await _press(c, "alice", msg.id, "f")
                _check(c, t, stored, msg, n, alice)
            # ◀ one back, then ⏭ through every hand's end to the end of the game
            msg = await _press(c, "alice", msg.id, "b")
            _check(c, t, stored, msg, first_end - 1, alice)
            assert ends[-1] == m and len(ends) == len(g.results)
            for n in ends:
                msg = await _press(c, "alice", msg.id, "n")
                _check(c, t, stored, msg, n, alice)
            assert "final standings" in msg.content
            assert {b["custom_id"][-1] for b in msg.buttons() if b.get("disabled")} == {"f", "n"}
            # ⏮ back through them to the deal
            for n in [*reversed(ends[:-1]), 0]:
                msg = await _press(c, "alice", msg.id, "p")
                _check(c, t, stored, msg, n, alice)

            # the seat view hides the other hands: dealing them otherwise changes nothing in it;
            # the view with every hand open shows them
            mid = first_end // 2
            for _ in range(mid):
                msg = await _press(c, "alice", msg.id, "f")
            seen = _picture(msg)
            at = _fresh(t, stored, mid)
            assert seen == _seat_png(c, _dealt_otherwise(at, alice), alice)
            assert seen != _seat_png(c, _dealt_otherwise(at, alice, own=True), alice)
            rec = await c.slash("bob", "replay", {"table": 1, "seat": "all"})  # bob sat nowhere: allowed, the game is over
            opened = rec.original
            assert opened is not None and opened.visible_to == c.users["bob"].id
            _check(c, t, stored, opened, 0, None)
            for n in (1, 2):
                opened = await _press(c, "bob", opened.id, "f")
                _check(c, t, stored, opened, n, None)
            assert _picture(opened) != _open_png(c, _dealt_otherwise(_fresh(t, stored, 2), None))
            # only the asker sees (and so steps) their replay; a seat the table lacks is one sentence
            with pytest.raises(PermissionError):
                await c.server.click(c.users["alice"].id, opened.id, _button(opened, "f"))
            rec = await c.slash("alice", "replay", {"table": 1, "seat": "9"})
            seat_answer = [x for x in c.server.visible_to(c.users["alice"].id) if x.interaction_id == rec.id]
            assert len(seat_answer) == 1 and not seat_answer[0].attachments and "no seat '9'" in seat_answer[0].content, seat_answer

            # forged positions (a custom_id discord.py accepts, put on the message): one sentence, nothing changes
            shown = (msg.content, _picture(msg))
            for cid in (f"mjp:1:{alice}:{m}:f", f"mjp:1:{alice}:{m + 7}:b", f"mjp:1:{alice}:0:p", f"mjp:1:{alice}:{10**11}:n", "mjp:1:7:0:f", "mjp:99:a:0:f"):
                msg.components.append({"type": 1, "components": [{"type": 2, "style": 2, "label": "x", "custom_id": cid}]})
                click = await c.server.click(c.users["alice"].id, msg.id, cid)
                msg.components.pop()
                await click.reply(timeout=10)
                texts = [x.content for x in c.server.visible_to(c.users["alice"].id) if x.interaction_id == click.id]
                assert len(texts) == 1 and texts[0].count(".") == 1 and "nothing changed" in texts[0] or "no table" in texts[0], (cid, texts)
                assert (c.server.message(msg.id).content, _picture(c.server.message(msg.id))) == shown
            # a custom_id not on the message at all: the play cog's one sentence
            forged = await c.server._start_interaction(
                3, c.users["alice"].id, None, c.server.state.channels[msg.channel_id], {"custom_id": f"mjp:1:{alice}:3:f", "component_type": 2}, message=msg
            )
            await forged.reply(timeout=10)
            assert (c.server.message(msg.id).content, _picture(c.server.message(msg.id))) == shown

            # a restarted bot steps the same message on: its buttons carry the whole position
            old = c.bot
            await old.close()
            await c.server.wait_for(lambda: not c.server.gateway.ready_sessions, timeout=10)
            c.bot = JantakuBot(old.settings)
            runner = asyncio.create_task(c.bot.start(old.settings.token))
            try:
                await c.server.wait_until_ready(60)
                msg = await _press(c, "alice", msg.id, "f")
                _check(c, t, stored, msg, mid + 1, alice)
            finally:
                await c.bot.close()
                runner.cancel()
                with suppress(asyncio.CancelledError, Exception):
                    await runner

    asyncio.run(main())


def test_replay_refuses_an_abandoned_game(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            await c.slash("alice", "table open", {"length": "tonpuu"})
            await c.slash("alice", "table add-ai", {"seats": 3})
            await c.slash("alice", "table start", {})
            t = await c.started()
            await c.slash("alice", "table abandon", {"table": 1})
            assert t.row.status == "abandoned"
            await c.slash("bob", "table open", {"length": "tonpuu"})  # table 2: open, not started
            for options in ({"table": 1}, {"table": 1, "seat": "all"}, {"table": 2}, {"table": 5}):
                rec = await c.slash("alice", "replay", options)
                msgs = [m for m in c.server.visible_to(c.users["alice"].id) if m.interaction_id == rec.id]
                assert len(msgs) == 1 and not msgs[0].attachments and not msgs[0].components, msgs
                assert any(w in msgs[0].content for w in ("was abandoned", "has not started", "no table")), msgs[0].content

    asyncio.run(main())

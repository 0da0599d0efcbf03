"""A player whose direct messages are closed plays through the ephemeral "Show my hand" flow."""

from __future__ import annotations

import asyncio
from pathlib import Path

from engine.table.game import Phase
from tests.bot.harness import club


def test_closed_dms_fall_back_to_ephemeral_hand(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path, closed_dms=("carol",)) as c:
            await c.slash("carol", "table open", {"length": "tonpuu"})
            await c.slash("carol", "table add-ai", {"seats": 3})
            await c.slash("carol", "table start", {})
            carol = c.users["carol"].id
            await c.server.wait_for(
                lambda: any("cannot send you direct messages" in m.content and f"<@{carol}>" in m.content for m in c.server.messages(c.channel_id)),
                timeout=30,  # the first pictures after start wait for the render worker to come up
            )
            assert not c.server.dms(carol)
            t = c.bot.service.tables[1]
            moves = 0
            for _ in range(400):
                if t.game is not None and t.game.over:
                    break
                if not t.humans_to_act():
                    await asyncio.sleep(0.01)
                    continue
                serial = t.decision_serial()
                show = await c.server.click(carol, t.row.message_id, "mjh:1")
                await show.reply()
                eph = next(m for m in c.server.ephemeral(carol) if m.interaction_id == show.id)
                assert eph.visible_to == carol and any(a.filename == "hand.png" for a in eph.attachments)
                ids = [x for x in eph.custom_ids() if x.startswith(f"mj:1:{serial}:")]
                assert ids, eph.custom_ids()
                await (await c.server.click(carol, eph.id, ids[0])).response()
                await c.server.wait_for(lambda: t.decision_serial() != serial or t.game.over, timeout=10)  # noqa: B023
                moves += 1
                if moves >= 5:
                    break
            assert moves >= 5
            # nobody else ever saw carol's hand
            for m in c.server.messages(c.channel_id):
                assert all(a.filename != "hand.png" for a in m.attachments)

    asyncio.run(main())


def test_table_in_its_own_thread_async_mode(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            await c.slash("alice", "table open", {"length": "tonpuu", "mode": "async", "hours": 48, "on_expiry": "wait", "thread": True})
            t = c.bot.service.tables[1]
            await c.server.wait_for(lambda: t.row.thread_id is not None, timeout=10)
            assert t.row.thread_id != c.channel_id and t.row.mode == "async" and t.row.on_expiry == "wait"
            await c.slash("alice", "table add-ai", {"seats": 3, "table": 1})
            await c.slash("alice", "table start", {"table": 1})
            await c.server.wait_for(lambda: t.row.message_id is not None, timeout=30)  # render worker start-up
            assert c.server.message(t.row.message_id).channel_id == t.row.thread_id
            timers = await c.bot.repo.timers()
            if t.humans_to_act():  # a 48-hour deadline was armed for alice's turn; a call offer waits call_seconds
                g = t.game
                assert g is not None
                longest = t.row.call_seconds if g.phase is Phase.CALL else 48 * 3600
                assert timers and longest - 3600 < timers[0].due - timers[0].prompt_at <= longest

    asyncio.run(main())


def test_closed_dms_one_ephemeral_follows_the_game(tmp_path: Path) -> None:
    """Discord's real limits §4: without DMs, one "Show my hand" is enough: each click answers with
    the new hand in that same ephemeral (UPDATE_MESSAGE), and in a table that pings the player is
    mentioned in the channel once per decision that reaches them without a click."""

    async def main() -> None:
        async with club(tmp_path, closed_dms=("carol",)) as c:
            await c.slash("carol", "table open", {"length": "tonpuu", "mode": "async", "hours": 24})
            await c.slash("carol", "table add-ai", {"seats": 3})
            await c.slash("carol", "table start", {})
            carol = c.users["carol"].id
            t = c.bot.service.tables[1]
            await c.server.wait_for(lambda: t.humans_to_act() and t.row.message_id, timeout=30)

            def pings() -> list[str]:
                return [m.content for m in c.server.messages(c.channel_id) if f"<@{carol}>" in m.content]

            await c.server.wait_for(pings, timeout=10)
            assert len(pings()) == 1, pings()  # her first decision: the sentence that DMs are closed
            show = await c.server.click(carol, t.row.message_id, "mjh:1")
            await show.reply()
            eph = next(m for m in c.server.ephemeral(carol) if m.interaction_id == show.id)
            moves = 0
            for _ in range(200):
                if t.game is None or t.game.over or moves >= 6:
                    break
                serial = t.decision_serial()
                ids = [x for x in eph.custom_ids() if x.startswith(f"mj:1:{serial}:")]
                if not ids:
                    await asyncio.sleep(0.02)
                    continue
                rec = await c.server.click(carol, eph.id, ids[0])
                await rec.response()
                assert rec.callback_type in (6, 7)
                await c.server.wait_for(lambda: t.decision_serial() != serial or t.game.over, timeout=10)  # noqa: B023
                moves += 1
            assert moves >= 6, "the ephemeral hand did not follow the game"
            # decisions she met right after her own click came with the click's answer, not a ping
            assert len(pings()) <= 1 + sum(1 for r in c.server.interactions() if r.user_id == carol and r.callback_type == 6)

    asyncio.run(main())

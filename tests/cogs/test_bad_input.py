"""Bad input gets a plain ephemeral sentence and changes nothing (issue: the bot, must-show 3)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.bot.harness import Club, club


def _ephemeral_text(c: Club, rec: object) -> list[str]:
    uid = rec.user_id  # type: ignore[attr-defined]
    return [m.content for m in c.server.ephemeral(uid) if m.interaction_id == rec.id]  # type: ignore[attr-defined]


async def _wait_text(c: Club, rec: object) -> str:
    await c.server.wait_for(lambda: _ephemeral_text(c, rec), timeout=10)
    return _ephemeral_text(c, rec)[-1]


async def _actions(c: Club) -> int:
    return len(await c.bot.repo.actions(1))


def test_bad_input_each_gets_a_plain_sentence(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            rec = await c.slash("alice", "table open", {"ruleset": "nosuchrule"})
            assert "unknown ruleset 'nosuchrule'" in await _wait_text(c, rec)
            assert not await c.bot.repo.tables_with_status("open")

            await c.slash("alice", "table open", {"length": "tonpuu"})
            rec = await c.slash("alice", "table start", {})
            assert "needs 4 players" in await _wait_text(c, rec)
            await c.slash("alice", "table add-ai", {"seats": 3})
            rec = await c.slash("erin", "table join", {"table": 1})
            assert "that table is full" in await _wait_text(c, rec)

            await c.slash("alice", "table start", {})
            await c.server.wait_for(lambda: c.live_buttons("alice")[1], timeout=10)
            mid, live = c.live_buttons("alice")
            before = await _actions(c)

            # a click from someone not seated: "Show my hand" on the public table message
            table_msg = await c.server.wait_for(lambda: c.bot.service.tables[1].row.message_id, timeout=10)
            rec = await c.server.click(c.users["erin"].id, table_msg, "mjh:1")
            assert "not seated" in await _wait_text(c, rec)

            # a click on another player's hand: Bob presses an action of Alice's seat
            t = c.bot.service.tables[1]
            try:
                await c.bot.service.act(1, c.users["bob"].id, live[0].split(":", 3)[3], t.decision_serial())
            except Exception as e:  # bob is not seated: refused before any change
                assert "not seated" in str(e)
            assert await _actions(c) == before

            # the ephemeral "Show my hand" fallback carries the same action buttons
            show = await c.server.click(c.users["alice"].id, table_msg, "mjh:1")
            await show.reply()
            eph = next(m for m in c.server.ephemeral(c.users["alice"].id) if m.interaction_id == show.id)
            eph_ids = [x for x in eph.custom_ids() if x.startswith("mj:")]
            assert eph_ids and "Your hand (alice," in eph.content

            # a double click: two presses of one button before the first is processed
            first = await c.server.click(c.users["alice"].id, mid, live[0])
            second = await c.server.click(c.users["alice"].id, mid, live[0])
            await first.response()
            text = await _wait_text(c, second)
            assert text in ("that turn has passed", "you have already answered this discard"), text
            after_one = await _actions(c)
            assert after_one > before

            # a button after the turn moved on (the ephemeral copy was not updated: alice's DMs
            # are open, so her hand follows the game there): the sentence, and the copy loses its
            # buttons, so it no longer offers a move of a turn that has passed
            stale = await c.server.click(c.users["alice"].id, eph.id, eph_ids[0])
            assert await _wait_text(c, stale) == "that turn has passed"
            assert await _actions(c) == after_one
            await c.server.wait_for(lambda: not [x for x in eph.custom_ids() if x.startswith("mj:")], timeout=10)

            # a button from a finished game
            await c.server.wait_for(lambda: c.live_buttons("alice")[1], timeout=10)
            mid, live = c.live_buttons("alice")
            rec = await c.slash("alice", "table abandon", {"table": 1})
            assert "abandoned" in c.replies(rec)[0]
            over = await c.server.click(c.users["alice"].id, mid, live[0])
            assert await _wait_text(c, over) == "that game is over"
            assert await _actions(c) == after_one
            # nothing in any reply is a traceback
            for m in c.server.visible_to(c.users["alice"].id):
                assert "Traceback" not in m.content

    asyncio.run(main())


def test_seated_player_cannot_act_for_another_seat(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            await c.slash("alice", "table open", {"length": "tonpuu"})
            await c.slash("bob", "table join", {})
            await c.slash("alice", "table add-ai", {"seats": 2})
            await c.slash("alice", "table start", {})
            t = c.bot.service.tables[1]
            await c.server.wait_for(lambda: t.game is not None and t.humans_to_act(), timeout=10)
            g = t.game
            assert g is not None
            seat = t.humans_to_act()[0]
            owner = next(n for n in ("alice", "bob") if t.seat_of(c.users[n].id) == seat)
            other = "bob" if owner == "alice" else "alice"
            action = next(iter(g.legal_actions(seat)))
            before = len(g.actions)
            from bot.tables import TableError

            try:
                await c.bot.service.act(1, c.users[other].id, action.text, t.decision_serial())
                raise AssertionError("accepted another player's action")
            except TableError as e:
                assert str(e) == "that is another player's hand"
            assert len(g.actions) == before

    asyncio.run(main())

"""What a player receives when they act and when they are waited for (issues: Discord's real limits
§2 and §4, a player's turn as the player sees it §1 and §4).

* A click on a hand is answered with the new hand itself (interaction callback 7, UPDATE_MESSAGE):
  the clicker's own hand costs no bot-token request.
* In a table that pings (async by default), every decision that waits for a person reaches them as
  one new message, the previous one left without buttons; a call offer has its own short window;
  a move the clock made is told to its player.
* Hand results and the final standings are posted once each, in order.
"""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import pytest

from devserver import DiscordServer
from tests.bot.harness import Club, club, play_out

_DM_MESSAGES = re.compile(r"^/channels/(\d+)/messages")


def _bot_token_requests_to(server: DiscordServer, channel_id: int, since: int) -> int:
    """Bot-token requests (not interaction callbacks or webhook routes) to one channel's messages."""
    n = 0
    for r in list(server.requests)[since:]:
        m = _DM_MESSAGES.match(r.path)
        if m and int(m.group(1)) == channel_id:
            n += 1
    return n


async def _decisions(c: Club, who: str, table: int = 1) -> tuple[int, list[str]]:
    def ready() -> bool:
        g = c.bot.service.tables[table].game
        return bool(c.live_buttons(who, table)[1]) or (g is not None and g.over)

    await c.server.wait_for(ready, timeout=30)
    return c.live_buttons(who, table)


def test_a_click_is_answered_with_the_new_hand(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            await c.slash("alice", "table open", {"length": "tonpuu"})
            await c.slash("alice", "table add-ai", {"seats": 3})
            await c.slash("alice", "table start", {})
            alice = c.users["alice"].id
            t = c.bot.service.tables[1]
            mid, live = await _decisions(c, "alice")
            dm = c.server.dm_channel_id(alice)
            assert dm is not None and live
            clicks = 0
            while clicks < 12 and not t.game.over:  # type: ignore[union-attr]
                mid, live = c.live_buttons("alice")
                if not live:
                    await asyncio.sleep(0.01)
                    continue
                mark = len(c.server.requests)
                hand = t.game.hand_index  # type: ignore[union-attr]
                rec = await c.server.click(alice, mid, live[0])
                await rec.response()
                clicks += 1
                # the first response is the hand itself (or, if it was late, a deferred update
                # followed by an edit through the interaction's own token)
                assert rec.callback_type in (6, 7), rec.callback_type
                msg = c.server.message(mid)
                await c.server.wait_for(lambda: live[0] not in msg.custom_ids(), timeout=10)  # noqa: B023
                assert not rec.errors, rec.errors
                # alice's hand went out without one bot-token request to her DM channel (live
                # table: no pings; the next decision rides this click's answer or its token), but
                # for one new message when a new hand is dealt
                await asyncio.sleep(0.05)
                allowed = 0 if t.game.hand_index == hand else 1  # type: ignore[union-attr]
                assert _bot_token_requests_to(c.server, dm, mark) <= allowed, [r.path for r in list(c.server.requests)[mark:]]
                if allowed:
                    continue
                if t.humans_to_act():
                    serial = t.decision_serial()
                    # the clicked message carries the next decision's buttons
                    await c.server.wait_for(lambda: any(x.startswith(f"mj:1:{serial}:") for x in msg.custom_ids()), timeout=10)  # noqa: B023
            assert clicks >= 5
            # the hand message tells what happened since the last look
            assert any("Since your last move:" in v.content for v in msg.versions), [v.content for v in msg.versions][-3:]

    asyncio.run(main())


@pytest.mark.parametrize("mode", ["async", "live"])
def test_a_table_that_pings_notifies_once_per_decision(tmp_path: Path, mode: str) -> None:
    """Async tables ping by default; a live table when the club turns pings on."""
    opts: dict[str, object] = {"length": "tonpuu", "mode": mode}
    opts.update({"hours": 24} if mode == "async" else {"pings": True, "turn_timer": 600})

    async def main() -> None:
        async with club(tmp_path) as c:
            await c.slash("alice", "table open", opts)
            await c.slash("alice", "table add-ai", {"seats": 3})
            await c.slash("alice", "table start", {})
            alice = c.users["alice"].id
            t = c.bot.service.tables[1]
            assert t.row.pings
            decisions: list[int] = []
            calls = 0
            for _ in range(8):
                mid, live = await _decisions(c, "alice")
                if not live:
                    break
                serial = t.decision_serial()
                decisions.append(serial)
                # the clock armed for this decision: a call offer has its own short window
                from engine.table.game import Phase

                (timer,) = await c.bot.repo.timers()
                window = timer.due - timer.prompt_at
                if mode == "live":
                    pass  # the live clock: the turn's seconds and the time bank
                elif t.game.phase in (Phase.CALL, Phase.CHANKAN):  # type: ignore[union-attr]
                    calls += 1
                    assert abs(window - t.row.call_seconds) < 1, window
                else:
                    assert abs(window - 24 * 3600) < 1, window
                rec = await c.server.click(alice, mid, live[0])
                await rec.response()
                assert rec.callback_type in (6, 7)
                # the clicked message keeps the hand but loses its buttons
                await c.server.wait_for(lambda: not any(x.startswith("mj:") for x in c.server.message(mid).custom_ids()), timeout=10)  # noqa: B023
                await c.server.wait_for(lambda: t.decision_serial() != serial or t.game.over, timeout=10)  # noqa: B023, B023
            assert len(decisions) >= 4
            print(f"{len(decisions)} decisions, {calls} of them call offers")
            # exactly one new message per decision, each with that decision's buttons
            dms = [m for m in c.server.dms(alice) if any(a.filename == "hand.png" for a in m.attachments)]
            firsts: dict[int, int] = {}
            for m in dms:
                for v in [m.versions[0]] if m.versions else [m]:
                    ids = [x for row in v.components for x2 in row.get("components", []) if (x := x2.get("custom_id", "")).startswith("mj:1:")]
                    if ids:
                        s = int(ids[0].split(":")[2])
                        firsts[s] = firsts.get(s, 0) + 1
            for s in decisions:
                assert firsts.get(s) == 1, (s, firsts)
            # at most one message of alice's offers live buttons
            assert sum(1 for m in c.server.dms(alice) if any(x.startswith("mj:") for x in m.custom_ids())) <= 1

            # the clock runs out on alice's turn: the move is made for her and she is told, in a new message
            await _decisions(c, "alice")
            if t.humans_to_act():
                before = len(c.server.dms(alice))
                serial = t.decision_serial()
                await c.bot.repo.set_timer(1, serial, time.time() - 1, time.time() - 25 * 3600)
                c.bot.timers.poke()
                await c.server.wait_for(lambda: any("Time ran out" in m.content for m in c.server.dms(alice)[before:]), timeout=15)
                told = [m for m in c.server.dms(alice)[before:] if "Time ran out" in m.content]
                assert len(told) == 1 and ("discarded" in told[0].content or "passed" in told[0].content), told[0].content

    asyncio.run(main())


def test_async_call_offer_has_its_own_window(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            await c.slash("alice", "table open", {"length": "tonpuu", "mode": "async", "hours": 48, "call_minutes": 30})
            t = c.bot.service.tables[1]
            assert t.row.call_seconds == 30 * 60
            svc = c.bot.service
            # a call window of an async table: the clock is the call window, not the 48-hour turn
            from engine.table.game import Phase

            class _G:
                phase = Phase.CALL

            t.game = _G()  # type: ignore[assignment]
            assert svc._clock(t) == 30 * 60
            _G.phase = Phase.TURN
            assert svc._clock(t) == 48 * 3600
            t.game = None

    asyncio.run(main())


def test_results_and_final_posted_once_each_in_order(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            await c.slash("alice", "table open", {"length": "tonpuu"})
            await c.slash("alice", "table add-ai", {"seats": 3})
            t = c.bot.service.tables[1]
            await c.slash("alice", "table auto", {"what": "tsumogiri", "on": True})
            await c.slash("alice", "table auto", {"what": "pass", "on": True})
            await c.slash("alice", "table start", {})
            for _ in range(3000):
                if t.game is not None and t.game.over:
                    break
                mid, live = c.live_buttons("alice")
                if live:
                    rec = await c.server.click(c.users["alice"].id, mid, live[0])
                    await rec.response()
                else:
                    await asyncio.sleep(0.01)
            g = t.game
            assert g is not None and g.over
            await c.server.wait_for(lambda: any(m.nonce == "jf1" for m in c.server.messages(c.channel_id)), timeout=30)
            await asyncio.sleep(0.5)
            posted = [str(m.nonce) for m in c.server.messages(c.channel_id) if str(m.nonce or "").startswith(("jr1.", "jf1"))]
            assert posted == [f"jr1.{i}" for i in range(len(g.results))] + ["jf1"], (posted, len(g.results))
            await c.server.wait_for(lambda: t.row.final_posted, timeout=10)
            assert t.row.results_posted == len(g.results) and t.row.final_posted
            # the last hand's result comes before the final standings, and each text matches its hand
            msgs = {str(m.nonce): m for m in c.server.messages(c.channel_id) if m.nonce}
            assert "final standings" in msgs["jf1"].content

    asyncio.run(main())


def test_a_finished_table_leaves_nothing_in_the_presenter(tmp_path: Path) -> None:
    """Once a game is over and its final standings are posted, the presenter keeps nothing of
    that table: no per-table or per-seat entry (the buttons shown, the locks, tokens, ...)."""

    def kept(c: Club, table: int) -> list[str]:
        out: list[str] = []
        seen: set[int] = set()

        def walk(obj: object, where: str) -> None:  # the presenter and the parts it is made of
            if id(obj) in seen or not type(obj).__module__.startswith(("bot.views", "bot.outbound")):
                return
            seen.add(id(obj))
            for name, value in vars(obj).items():
                if isinstance(value, dict) and name not in ("_dms", "_channel_pacers"):  # by user, by channel
                    out.extend(f"{where}{name}[{k!r}]" for k in value if k == table or (isinstance(k, tuple) and k[0] == table))
                elif hasattr(value, "__dict__"):
                    walk(value, f"{where}{name}.")

        walk(c.bot.presenter, "")
        return out

    async def main() -> None:
        async with club(tmp_path, time_scale=10) as c:
            await c.slash("alice", "table open", {"length": "tonpuu"})
            await c.slash("alice", "table add-ai", {"seats": 3})
            await c.slash("alice", "table auto", {"what": "tsumogiri", "on": True})
            await c.slash("alice", "table start", {})
            t = c.bot.service.tables[1]
            await c.server.wait_for(lambda: kept(c, 1), timeout=30)  # what it keeps while the game runs
            await play_out(c, ("alice",))
            await c.server.wait_for(lambda: t.row.final_posted, timeout=30)
            try:
                await c.server.wait_for(lambda: not kept(c, 1), timeout=10)
            except Exception:
                raise AssertionError(f"kept after the game: {kept(c, 1)}") from None

    asyncio.run(main())


def test_table_open_names_missing_channel_permissions(tmp_path: Path) -> None:
    """Discord's real limits §5: /table open checks the bot's permissions in the channel."""
    from devserver.state import ATTACH_FILES, CREATE_PUBLIC_THREADS

    async def main() -> None:
        async with club(tmp_path) as c:
            c.server.set_bot_permissions(c.channel_id, deny=ATTACH_FILES)
            rec = await c.slash("alice", "table open", {})
            text = [m.content for m in c.server.visible_to(c.users["alice"].id) if m.interaction_id == rec.id][-1]
            assert "Attach Files" in text and "missing" in text
            assert rec.ephemeral and not await c.bot.repo.tables_with_status("open")
            c.server.set_bot_permissions(c.channel_id, deny=CREATE_PUBLIC_THREADS)
            rec = await c.slash("alice", "table open", {})  # no thread asked: fine
            assert await c.bot.repo.tables_with_status("open")
            rec = await c.slash("bob", "table open", {"thread": True})
            text = [m.content for m in c.server.visible_to(c.users["bob"].id) if m.interaction_id == rec.id][-1]
            assert "Create Public Threads" in text
            assert len(await c.bot.repo.tables_with_status("open")) == 1

    asyncio.run(main())


def test_an_hour_long_game_keeps_its_table_current(tmp_path: Path) -> None:
    """Discord's real limits §3: edits of hour-old messages are limited (30046), so the table
    message in use is never older than ~50 minutes (the server's clock is moved forward here)."""

    async def main() -> None:
        async with club(tmp_path) as c:
            await c.slash("alice", "table open", {"length": "hanchan"})
            await c.slash("alice", "table add-ai", {"seats": 3})
            await c.slash("alice", "table start", {})
            t = c.bot.service.tables[1]
            alice = c.users["alice"].id

            async def play(clicks: int) -> None:
                for _ in range(clicks):
                    mid, live = await _decisions(c, "alice")
                    if not live:
                        return
                    serial = t.decision_serial()
                    await (await c.server.click(alice, mid, live[0])).response()
                    await c.server.wait_for(lambda: t.decision_serial() != serial or t.game.over, timeout=10)  # noqa: B023

            await play(3)
            first = await c.server.wait_for(lambda: t.row.message_id, timeout=10)
            hand = t.game.hand_index  # type: ignore[union-attr]
            c.server.advance(55 * 60)  # the table message is 55 minutes old now
            await play(4)
            await asyncio.sleep(2.5)  # the table picture's next edit
            assert not [h for h in c.server.request_stats().not_injected if h.code == 30046]
            if t.game.hand_index == hand:  # type: ignore[union-attr]
                assert t.row.message_id != first, "an hour-old table message was still being edited"
            newest = c.server.message(t.row.message_id)  # type: ignore[arg-type]
            assert newest.created_at.timestamp() > c.server.message(first).created_at.timestamp() + 50 * 60
            assert t.game is not None and (f"wall {t.game.live_left}" in newest.content or t.game.over)

    asyncio.run(main())

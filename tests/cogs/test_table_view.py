"""The table picture drawn for one viewer (issue 17.4): "Show my hand" answers with the table from
the player's seat and their hand under it, drawn by the render worker; ``/table view`` shows the
table from the caller's seat, or as the channel shows it to someone not seated."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import Lang
from bot.render import pictures
from bot.render.pictures import render_seat_table, render_table
from bot.tables import Table
from bot.views.table import table_view
from tests.bot.harness import Club, club


def _answer(c: Club, who: str, rec: Any) -> Any:
    uid = c.users[who].id
    msg = next(m for m in c.server.ephemeral(uid) if m.interaction_id == rec.id)
    assert msg.visible_to == uid
    return msg


def _picture(msg: Any, filename: str) -> bytes:
    return next(a.data for a in msg.attachments if a.filename == filename)


async def _started(c: Club, who: str) -> Table:
    t = c.bot.service.tables[1]
    await c.server.wait_for(lambda: t.humans_to_act() and t.row.message_id, timeout=30)
    return t


def test_show_my_hand_is_the_table_from_the_players_seat_drawn_by_the_render_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn_here: list[int] = []
    real = pictures.to_png

    def here(img: Any, **kwargs: Any) -> bytes:
        drawn_here.append(img.width)  # a picture drawn in this process: on the event loop
        return real(img, **kwargs)

    monkeypatch.setattr(pictures, "to_png", here)

    async def main() -> None:
        async with club(tmp_path) as c:
            await c.slash("alice", "table open", {"length": "tonpuu", "mode": "async"})
            await c.slash("alice", "table add-ai", {"seats": 3})
            await c.slash("alice", "table start", {})
            t = await _started(c, "alice")
            assert c.bot.presenter.renderer.worker_pids()
            seat = t.seat_of(c.users["alice"].id)
            assert seat is not None
            serial = t.decision_serial()
            drawn_here.clear()
            rec = await c.server.click(c.users["alice"].id, t.row.message_id or 0, "mjh:1")
            await rec.reply()
            msg = _answer(c, "alice", rec)
            assert drawn_here == []
            assert t.decision_serial() == serial  # the game waits for alice
            args, kwargs = c.bot.presenter.hand_args(t, seat)
            assert _picture(msg, "hand.png") == render_seat_table(table_view(t, bottom=seat), *args, **kwargs)
            assert [x for x in msg.custom_ids() if x.startswith(f"mj:1:{serial}:")]
            assert "Your hand (alice," in msg.content

    asyncio.run(main())


def test_show_my_hand_defers_when_the_picture_is_slow(tmp_path: Path) -> None:
    """A busy render worker: the click is deferred within Discord's 3 s and the ephemeral filled
    in once the picture comes; without DMs, that ephemeral is the player's hand from then on."""

    async def main() -> None:
        async with club(tmp_path, closed_dms=("carol",)) as c:
            presenter = c.bot.presenter
            real = presenter.seat_picture

            def slow(t: Table, seat: int, lang: Lang = "en") -> Awaitable[bytes]:
                picture = real(t, seat, lang)

                async def later() -> bytes:
                    await asyncio.sleep(2.5)
                    return await picture

                return later()

            presenter.seat_picture = slow  # type: ignore[method-assign]
            await c.slash("carol", "table open", {"length": "tonpuu"})
            await c.slash("carol", "table add-ai", {"seats": 3})
            await c.slash("carol", "table start", {})
            t = await _started(c, "carol")
            carol = c.users["carol"].id
            serial = t.decision_serial()
            rec = await c.server.click(carol, t.row.message_id or 0, "mjh:1")
            await rec.response()
            assert rec.callback_type == 5 and not rec.errors  # deferred ("thinking…") in time
            await rec.reply(timeout=10)
            msg = _answer(c, "carol", rec)
            assert any(a.filename == "hand.png" for a in msg.attachments)
            ids = [x for x in msg.custom_ids() if x.startswith(f"mj:1:{serial}:")]
            assert ids
            click = await c.server.click(carol, msg.id, ids[0])
            await click.response()
            assert click.callback_type in (6, 7) and not click.errors
            await c.server.wait_for(lambda: t.decision_serial() != serial, timeout=10)

    asyncio.run(main())


def test_table_view_from_the_callers_seat(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            await c.slash("alice", "table open", {"length": "tonpuu", "mode": "async"})
            await c.slash("alice", "table add-ai", {"seats": 3})
            rec = await c.slash("alice", "table view", {})
            assert "has not started" in _answer(c, "alice", rec).content
            await c.slash("alice", "table start", {})
            t = await _started(c, "alice")
            seat = t.seat_of(c.users["alice"].id)
            assert seat is not None
            rec = await c.slash("alice", "table view", {})  # the table of this channel
            msg = _answer(c, "alice", rec)
            assert msg.content.startswith("**Table #1**") and "from your seat (alice)" in msg.content
            assert _picture(msg, "table.png") == render_table(table_view(t, bottom=seat))
            rec = await c.slash("erin", "table view", {"table": 1})
            msg = _answer(c, "erin", rec)
            assert "not seated" in msg.content
            assert _picture(msg, "table.png") == render_table(table_view(t))
            # nothing of it in the channel
            assert not [m for m in c.server.messages(c.channel_id) if m.interaction_id == rec.id]

    asyncio.run(main())

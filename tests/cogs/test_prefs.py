"""Issue 21, "Tiles": the tile style as a player's and a club's setting, through Discord.

A player's own choice (``/prefs tiles``) draws the pictures only they see (their look-ups, their
seat's view); the club's default (``/prefs club_tiles``, organisers only) draws the pictures the
channel sees and those of every player who chose none; both are stored and read back.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path
from typing import Any

from bot.lookups import shanten_of
from bot.prefs import TileStyles
from bot.presenter import table_view
from bot.render import render_seat_table, render_table
from bot.render.tiles import STYLES
from bot.storage.repository import TILE_STYLES
from tests.bot.harness import Club, club
from tests.bot.harness import rows as _rows

TILES = "1223m4579p1368s15z"


def _one(c: Club, who: str, rec: Any) -> Any:
    msgs = [m for m in c.server.visible_to(c.users[who].id) if m.interaction_id == rec.id]
    assert len(msgs) == 1, msgs
    return msgs[0]


def _picture(msg: Any, filename: str) -> bytes:
    return next(a.data for a in msg.attachments if a.filename == filename)


def test_storage_knows_the_renderers_styles() -> None:
    assert tuple(TILE_STYLES) == tuple(STYLES)


def test_a_players_style_draws_their_pictures_and_the_clubs_draws_the_channels(tmp_path: Path) -> None:
    faces, letters = (shanten_of(TILES, None, s).png for s in ("faces", "letters"))
    assert faces != letters

    async def main() -> None:
        async with club(tmp_path) as c:
            await c.server.wait_for_commands(["prefs"], c.guild_id, timeout=10)
            # bob takes the letters for himself: his look-ups show them, alice's still the faces
            m = _one(c, "bob", await c.slash("bob", "prefs tiles", {"style": "letters"}))
            assert m.ephemeral and "letter tiles" in m.content
            assert _rows(c.db, "SELECT guild_id, user_id, style FROM tile_styles") == [(c.guild_id, c.users["bob"].id, "letters")]
            bob = _one(c, "bob", await c.slash("bob", "shanten", {"tiles": TILES}))
            alice = _one(c, "alice", await c.slash("alice", "shanten", {"tiles": TILES}))
            assert _picture(bob, "shanten.png") == letters
            assert _picture(alice, "shanten.png") == faces
            # the club's default is for organisers
            m = _one(c, "bob", await c.slash("bob", "prefs club_tiles", {"style": "letters"}))
            assert m.ephemeral and m.content.startswith("only an organiser"), m.content
            assert _rows(c.db, "SELECT tile_style FROM club_settings") in ([], [(None,)])
            role = c.server.add_role(c.guild_id, "Organiser")
            c.server.add_member(c.guild_id, c.users["alice"].id, roles=[role.id])
            await asyncio.sleep(0.1)
            m = _one(c, "alice", await c.slash("alice", "prefs club_tiles", {"style": "letters"}))
            assert not m.ephemeral and "letter tiles" in m.content
            assert _rows(c.db, "SELECT guild_id, tile_style FROM club_settings") == [(c.guild_id, "letters")]
            assert _rows(c.db, "SELECT action FROM audit_log WHERE action = 'tile style'") == [("tile style",)]
            # alice chose nothing: her look-ups follow the club now
            alice = _one(c, "alice", await c.slash("alice", "shanten", {"tiles": TILES}))
            assert _picture(alice, "shanten.png") == letters
            m = _one(c, "alice", await c.slash("alice", "prefs tiles", {}))
            assert "as this club's do" in m.content and "letter tiles" in m.content

            # at a table: the channel's picture in the club's style, alice's own view in hers
            await c.slash("alice", "prefs tiles", {"style": "faces"})
            await c.slash("alice", "table open", {"length": "tonpuu", "mode": "async"})
            await c.slash("alice", "table add-ai", {"seats": 3})
            await c.slash("alice", "table start", {})
            t = c.bot.service.tables[1]
            await c.server.wait_for(lambda: t.humans_to_act() and t.row.message_id, timeout=30)
            seat = t.seat_of(c.users["alice"].id)
            assert seat is not None

            def shared_is(style: str) -> bool:
                msg = c.server.message(t.row.message_id or 0)
                pics = [a.data for a in msg.attachments if a.filename == "table.png"]
                return bool(pics) and pics[0] == render_table(table_view(t), style=style)  # type: ignore[arg-type]

            await c.server.wait_for(lambda: shared_is("letters"), timeout=15)
            rec = await c.server.click(c.users["alice"].id, t.row.message_id or 0, "mjh:1")
            await rec.reply()
            own = _picture(_one(c, "alice", rec), "hand.png")
            args, kwargs = c.bot.presenter.hand_args(t, seat)
            view = table_view(t, bottom=seat)
            assert own == render_seat_table(view, *args, style="faces", **kwargs)
            assert own != render_seat_table(view, *args, style="letters", **kwargs)

            # "club" drops bob's own choice; what is stored is what a restarted bot reads
            m = _one(c, "bob", await c.slash("bob", "prefs tiles", {"style": "club"}))
            assert re.search(r"letter tiles.*as this club's do", m.content), m.content
            fresh = TileStyles(c.bot.repo)
            await fresh.load()
            assert fresh.player(c.guild_id, c.users["bob"].id) == "letters"  # the club's
            assert fresh.own(c.guild_id, c.users["bob"].id) is None
            assert fresh.player(c.guild_id, c.users["alice"].id) == "faces"
            assert fresh.club(c.guild_id) == "letters" and fresh.club(c.guild_id + 1) == "faces"
            assert not await c.bot.repo.check()

    asyncio.run(main())


def test_a_hand_edited_style_is_left_out_and_listed_by_the_check(tmp_path: Path) -> None:
    from bot.storage.repository import Repository

    async def main() -> None:
        repo = Repository(tmp_path / "db.sqlite3")
        await repo.open()
        try:
            def write(conn: sqlite3.Connection) -> None:
                conn.execute("INSERT INTO tile_styles (guild_id, user_id, style) VALUES (1, 2, 'emoji'), (1, 3, 'letters')")
                conn.execute("INSERT INTO club_settings (guild_id, tile_style) VALUES (1, 'Faces')")

            await repo.write(write)
            styles = TileStyles(repo)
            await styles.load()
            assert styles.player(1, 2) == "faces" and styles.player(1, 3) == "letters"
            problems = await repo.check()
            assert any("tile_styles" in p and "emoji" in p for p in problems), problems
            assert any("club_settings" in p and "Faces" in p for p in problems), problems
        finally:
            await repo.close()

    asyncio.run(main())

"""Hidden tiles do not leak, and a finished game verifies against its commitment (issue 16 item 1,
"Fairness").

A game is played through the local Discord server with two seated humans (alice, bob) and two AI
seats, erin watching. After a hand has finished, everything erin (not seated) and bob (seated) can
obtain is collected: every message they can see in every version it had (text, embeds, buttons,
the bytes of every attachment), their DMs and ephemeral answers, and the answers to
``/table export``, ``/table status``, ``/table list``, ``/table verify``, ``/stats`` and to
refused requests. None of it may hold the seed or any token that deals the current hand's wall,
and the export may hold the finished hands only. The pictures drawn for one viewer (bob's "Show my
hand": the table from his seat with his hand under it; ``/table view`` for bob and erin) stay the
same, byte for byte, when every tile they may not see (the others' concealed tiles, the wall) is
dealt otherwise, and change when bob's own hand does. When the game is over, the seed is revealed and
the export verifies against the commitment posted at the start; a changed log does not.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
from pathlib import Path
from typing import Any

from bot.render.pictures import render_seat_table, render_table
from bot.tables import Table
from bot.views.table import table_view
from engine.__main__ import main as engine_main
from engine.logs.export import mjai_tile
from engine.logs.replay import ReplayReport, replay_record
from engine.logs.tenhou6 import parse_tenhou6
from engine.table.game import Game
from engine.table.wall import shuffled
from engine.tiles import format_tiles
from tests.bot.harness import Club, club

SEED = "leak-test-0f1e2d3c4b5a69788796a5b4c3d2e1f0"


async def _click_until(c: Club, humans: list[str], done: Any, limit: int = 5000) -> None:
    """Press each human's first live button until ``done(game)`` holds at a human's decision."""
    for _ in range(limit):
        t = c.bot.service.tables.get(1)
        if t is None or t.game is None:
            await asyncio.sleep(0.01)
            continue
        live = [(who, *c.live_buttons(who)) for who in humans]
        live = [x for x in live if x[2]]
        if t.game.over or (live and done(t.game)):
            return
        if not live:
            await asyncio.sleep(0.01)
            continue
        who, mid, ids = live[0]
        rec = await c.server.click(c.users[who].id, mid, ids[0])
        await rec.response()
    raise AssertionError("the game did not get there")


def _seen_by(c: Club, who: str) -> list[tuple[str, bytes]]:
    """Everything ``who`` can see: each visible message in each of its versions."""
    out: list[tuple[str, bytes]] = []
    for m in c.server.visible_to(c.users[who].id):
        for v in [m, *m.history]:
            where = f"message {m.id} ({m.content[:40]!r})"
            out.append((where, v.content.encode()))
            out.append((where + " embeds", json.dumps(v.embeds).encode()))
            out.append((where + " components", json.dumps(v.components).encode()))
            out += [(f"{where} file {a.filename}", a.data) for a in v.attachments]
    return out


def _tokens(blobs: list[tuple[str, bytes]]) -> set[str]:
    """Every word-like token of the text seen: what a person could try as a seed."""
    out: set[str] = set()
    for _, data in blobs:
        out.update(re.findall(r"[A-Za-z0-9_\-]{8,}", data.decode("utf-8", "replace")))
    return out


def _files(c: Club, rec: Any) -> dict[str, bytes]:
    return {a.filename: a.data for m in rec.messages for a in m.attachments}


def _ephemeral_picture(c: Club, who: str, rec: Any, filename: str) -> bytes:
    """The picture of the ephemeral answer ``who`` got to ``rec`` (only they see it)."""
    uid = c.users[who].id
    msg = next(m for m in c.server.ephemeral(uid) if m.interaction_id == rec.id)
    assert msg.visible_to == uid
    return next(a.data for a in msg.attachments if a.filename == filename)


def _dealt_otherwise(t: Table, viewer: int | None, *, own: bool = False) -> Table:
    """The table with the tiles ``viewer`` may not see (every other seat's concealed tiles, the
    live wall, the kan draws, the dora indicators not turned yet and the ura) dealt otherwise: the same tiles, reversed over those places; with
    ``own`` the viewer's concealed tiles are among them too."""
    g = t.game
    assert g is not None
    h = g.copy()
    h.live = list(g.live)
    places: list[tuple[list[int], int]] = []
    for s, st in enumerate(h.seats):
        if s != viewer or own:
            places += [(st.tiles, i) for i in range(len(st.tiles))]
    places += [(h.live, i) for i in range(h.live_pos, h.live_end)]
    places += [(h.rinshan, i) for i in range(h.rinshan_pos, len(h.rinshan))]
    # the dora indicators not turned yet and every ura indicator (hidden while the hand runs)
    dora, ura = list(h.deal.dora), list(h.deal.ura)
    places += [(dora, i) for i in range(h.dora_revealed, len(dora))] + [(ura, i) for i in range(len(ura))]
    old = [where[i] for where, i in places]
    moved = dict(zip(old, reversed(old)))
    for where, i in places:
        where[i] = moved[where[i]]
    h.deal = dataclasses.replace(h.deal, dora=tuple(dora), ura=tuple(ura))
    h.drawn = moved.get(h.drawn, h.drawn)
    for s, st in enumerate(h.seats):
        st.counts = [0] * len(st.counts)
        for x in st.tiles:
            st.counts[h.kind(x)] += 1
        st.waits = h.ruleset.wait_set(h, s)
    others = [s for s in range(h.players) if s != viewer or own]
    assert any(sorted(map(g.code, g.seats[s].tiles)) != sorted(map(h.code, h.seats[s].tiles)) for s in others)
    return Table(row=t.row, game=h, prompt_at=t.prompt_at)


def test_leaks_nothing_a_non_player_or_another_player_sees_rebuilds_hidden_tiles(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            c.bot.service.new_seed = lambda: SEED
            await c.slash("alice", "table open", {"ruleset": "tenhou", "length": "tonpuu", "mode": "async"})
            await c.slash("bob", "table join", {})
            await c.slash("alice", "table add-ai", {"seats": 2})
            start = await c.slash("alice", "table start", {})
            posted = re.search(r"`([0-9a-f]{64})`", start.content or "")
            assert posted, start.content
            commitment = posted[1]

            # play on until one hand has finished and the next one is eight draws in, a human to act
            await _click_until(c, ["alice", "bob"], lambda g: len(g.results) >= 1 and g.live_pos >= 8)
            t = c.bot.service.tables[1]
            g = t.game
            assert g is not None and not g.over and g.results
            finished = len(g.results)
            current_haipai = {format_tiles((g.code(x) for x in h), sort=True) for h in g.deal.haipai}
            live_wall = [g.code(x) for x in g.live[g.live_pos :]]

            # everything erin (not seated) and bob (seated) can obtain while the game runs
            asked: dict[str, dict[str, Any]] = {"erin": {}, "bob": {}}
            for who in asked:
                for cmd in ("table export", "table status", "table list", "table verify", "stats"):
                    asked[who][cmd] = await c.slash(who, cmd, {"table": 1} if cmd.startswith("table ") and cmd != "table list" else {})
            refused = [
                await c.slash("erin", "table join", {"table": 1}),
                await c.slash("erin", "table auto", {"what": "win", "on": True, "table": 1}),
            ]
            show = await c.server.click(c.users["erin"].id, t.row.message_id or 0, "mjh:1")
            await show.reply()
            assert "not seated" in (show.content or "") + " ".join(m.content for m in show.messages)
            for rec in refused:
                assert rec.messages and all("Traceback" not in m.content for m in rec.messages)
            assert "revealed" in " ".join(m.content for m in asked["erin"]["table verify"].messages)

            # the pictures for one viewer: bob's "Show my hand" and /table view (bob, erin)
            bob = t.seat_of(c.users["bob"].id)
            assert bob is not None
            rec = await c.server.click(c.users["bob"].id, t.row.message_id or 0, "mjh:1")
            await rec.reply()
            shown = _ephemeral_picture(c, "bob", rec, "hand.png")
            assert not any(m.interaction_id == rec.id for m in c.server.visible_to(c.users["erin"].id))
            viewed = {}
            for who in ("bob", "erin"):
                viewed[who] = _ephemeral_picture(c, who, await c.slash(who, "table view", {"table": 1}), "table.png")
            assert len(g.results) == finished and not g.over  # nobody moved while we looked
            for seen in (t, _dealt_otherwise(t, bob)):
                args, kwargs = c.bot.presenter.hand_args(seen, bob)
                assert shown == render_seat_table(table_view(seen, bottom=bob), *args, **kwargs)
                assert viewed["bob"] == render_table(table_view(seen, bottom=bob))
            mine = _dealt_otherwise(t, bob, own=True)  # bob's own hand is his to see
            args, kwargs = c.bot.presenter.hand_args(mine, bob)
            assert shown != render_seat_table(table_view(mine, bottom=bob), *args, **kwargs)
            assert viewed["erin"] == render_table(table_view(_dealt_otherwise(t, None)))
            # erin, not seated, sees the table as the channel shows it; bob from his own seat
            assert (viewed["bob"] == viewed["erin"]) == (bob == 0)
            await c.server.wait_for(
                lambda: [a.data for a in c.server.message(t.row.message_id or 0).attachments] == [viewed["erin"]], timeout=10
            )

            for who in ("erin", "bob"):
                blobs = _seen_by(c, who)
                assert blobs and any(b"table-1.json" in n.encode() for n, _ in blobs)
                for where, data in blobs:
                    assert SEED.encode() not in data, f"{who} sees the seed in {where}"
                # no token anyone was shown deals the wall of the hand in play
                real = shuffled(list(range(136)), SEED, finished)
                for token in _tokens(blobs):
                    assert shuffled(list(range(136)), token, finished) != real, f"{who} was shown a seed: {token}"

                files = _files(c, asked[who]["table export"])
                assert set(files) == {"table-1.json", "table-1.mjai.jsonl", "table-1.jantaku.json"}
                # tenhou.net/6: the finished hands only, and they replay exactly
                t6 = json.loads(files["table-1.json"])
                assert len(t6["log"]) == finished and "sc" not in t6
                report = ReplayReport()
                again = replay_record(parse_tenhou6(t6, "table-1.json"), report)
                assert again is not None and report.ok, report.to_json()
                assert [r.deltas for r in again.results] == [r.deltas for r in g.results]
                # mjai: as many hands, no more
                mjai = [json.loads(line) for line in files["table-1.mjai.jsonl"].decode().splitlines()]
                assert sum(1 for ev in mjai if ev["type"] == "start_kyoku") == finished
                assert not any(ev["type"] == "end_game" for ev in mjai)
                # the own format: no seed, no action log of the hand in play
                own = json.loads(files["table-1.jantaku.json"])
                assert own["in_progress"] is True and "seed" not in own and "actions" not in own
                assert own["commitment"] == commitment
                assert len(own["hands"]) == finished
                exported_actions = sum(len(h["actions"].split()) for h in own["hands"])
                assert exported_actions < len(g.actions)  # the hand in play is left out
                assert not current_haipai & {x for h in own["hands"] for x in h["haipai"]}
                # the wall still to be drawn in the hand in play is nowhere in the exported draws
                future = [mjai_tile(x) for x in live_wall[:12]]
                assert len(future) == 12
                hands: list[list[str]] = []
                for ev in mjai:
                    if ev["type"] == "start_kyoku":
                        hands.append([])
                    elif ev["type"] == "tsumo":
                        hands[-1].append(ev["pai"])
                for drawn in hands:
                    assert all(drawn[i : i + 12] != future for i in range(len(drawn))), who

            # the game goes on to its end: the seed is revealed, and the game verifies
            await _click_until(c, ["alice", "bob"], lambda g: g.over)
            await c.server.wait_for(lambda: any("final standings" in m.content for m in c.server.messages(c.channel_id)), timeout=20)
            final = next(m for m in c.server.messages(c.channel_id) if "final standings" in m.content)
            assert SEED in final.content and commitment in final.content
            verdict = await c.slash("erin", "table verify", {"table": 1})
            answer = " ".join(m.content for m in verdict.messages)
            assert "verified" in answer and "NOT" not in answer, answer

            # a seed or an action changed in the database afterwards: /table verify says so
            async def verify_now() -> str:
                rec = await c.slash("erin", "table verify", {"table": 1})
                return " ".join(m.content for m in rec.messages)

            db = c.bot.repo.db
            await db.execute("UPDATE tables SET seed = ? WHERE id = 1", ("arranged-" + SEED,))
            answer = await verify_now()
            assert "does NOT verify" in answer and "commitment" in answer, answer
            await db.execute("UPDATE tables SET seed = ? WHERE id = 1", (SEED,))
            stored = await c.bot.repo.actions(1)
            serial, text = next((s, a) for s, a in stored[len(stored) // 2 :] if re.fullmatch(r"\dd\d[mps]", a))
            swapped = next(f"{text[:2]}{n}{text[3]}" for n in "123456789" if n != text[2])
            await db.execute("UPDATE actions SET action = ? WHERE table_id = 1 AND serial = ?", (swapped, serial))
            answer = await verify_now()
            assert "does NOT verify" in answer, answer
            await db.execute("UPDATE actions SET action = ? WHERE table_id = 1 AND serial = ?", (text, serial))
            assert "verified" in await verify_now()

            rec = await c.slash("erin", "table export", {"table": 1})
            own = json.loads(_files(c, rec)["table-1.jantaku.json"])
            assert own["seed"] == SEED and own["final_scores"] == list(c.bot.service.tables[1].game.final_scores)  # type: ignore[union-attr]
            path = tmp_path / "table-1.jantaku.json"
            path.write_text(json.dumps(own))
            assert engine_main(["verify", str(path), "--commitment", commitment]) == 0
            tokens = own["actions"].split()
            cut = next(i for i in range(len(tokens) // 2, len(tokens)) if re.fullmatch(r"\dd\d[mps]", tokens[i]))
            seat, tile = tokens[cut][0], tokens[cut][2:]
            other = next(f"{seat}d{n}{tile[1]}" for n in "123456789" if f"{n}{tile[1]}" != tile)
            path.write_text(json.dumps({**own, "actions": " ".join(tokens[:cut] + [other] + tokens[cut + 1 :])}))
            assert engine_main(["verify", str(path), "--commitment", commitment]) == 1

    asyncio.run(main())


def test_leaks_taiwan16_export_of_a_running_game_has_no_seed_and_no_hand_in_play(tmp_path: Path) -> None:
    """taiwan16 has no tenhou.net/6 form: its own-format export was the seed and every action."""

    async def main() -> None:
        async with club(tmp_path) as c:
            c.bot.service.new_seed = lambda: SEED
            await c.slash("alice", "table open", {"ruleset": "taiwan16", "length": "1-round", "mode": "async"})
            await c.slash("bob", "table join", {})
            await c.slash("alice", "table add-ai", {"seats": 2})
            await c.slash("alice", "table start", {})
            await _click_until(c, ["alice", "bob"], lambda g: len(g.results) >= 1 and g.live_pos >= 8)
            t = c.bot.service.tables[1]
            g = t.game
            assert g is not None and not g.over
            finished = len(g.results)
            current = [format_tiles((g.code(x) for x in h), sort=True) for h in g.deal.haipai]

            rec = await c.slash("erin", "table export", {"table": 1})
            status = await c.slash("erin", "table status", {"table": 1})
            files = _files(c, rec)
            assert set(files) == {"table-1.jantaku.json"}
            blobs = _seen_by(c, "erin") + _seen_by(c, "bob")
            assert any(m.interaction_id == status.id for m in c.server.visible_to(c.users["erin"].id))
            for where, data in blobs:
                assert SEED.encode() not in data, where
            real = shuffled(list(range(len(g.tileset.codes))), SEED, finished)
            for token in _tokens(blobs):
                assert shuffled(list(range(len(g.tileset.codes))), token, finished) != real, token
            own = json.loads(files["table-1.jantaku.json"])
            assert "seed" not in own and "actions" not in own and own["in_progress"] is True
            assert len(own["hands"]) == finished
            assert sum(len(h["actions"].split()) for h in own["hands"]) < len(g.actions)
            assert all(h["haipai"] != current for h in own["hands"])
            # Game.from_dict, the way the issue rebuilt the hidden hands, gets nothing of this game
            rebuilt = Game.from_dict(own)
            assert rebuilt.actions == [] and [
                format_tiles((rebuilt.code(x) for x in h), sort=True) for h in rebuilt.deal.haipai
            ] != current

    asyncio.run(main())

"""End to end through the local Discord-protocol server and a real SQLite file: seasons, typed-in
and bot-played games on one leaderboard, corrections, voids, the audit log and refused entries."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from bot.standings.service import StandingsService
from tests.bot.harness import Club, club, make_organiser, play_out

UMA = (20, 10, -10, -20)


def _result(points: list[int], place_of: list[int], start: int = 25000, ret: int = 30000) -> list[float]:
    """R-2.7, written out here: (points - return) / 1000 + uma, + oka (return - start) x 4 / 1000 to first."""
    oka = (ret - start) * 4 / 1000
    return [(p - ret) / 1000 + UMA[place_of[i] - 1] + (oka if place_of[i] == 1 else 0) for i, p in enumerate(points)]


def _seat_places(points: list[int]) -> list[int]:
    """R-2.8: equal points rank by seat order."""
    order = sorted(range(len(points)), key=lambda s: (-points[s], s))
    places = [0] * len(points)
    for place, s in enumerate(order, 1):
        places[s] = place
    return places


async def _organiser(c: Club, who: str = "alice") -> None:
    await make_organiser(c, who)


def _m(c: Club, who: str) -> str:
    return f"<@{c.users[who].id}>"


def _reply(c: Club, rec: Any) -> str:
    return "\n".join(c.replies(rec))


async def _add(c: Club, who: str, players: list[tuple[str, int]], **extra: Any) -> str:
    opts: dict[str, Any] = {}
    for i, (p, s) in enumerate(players, 1):
        opts[f"p{i}"] = p
        opts[f"s{i}"] = s
    opts.update(extra)
    return _reply(c, await c.slash(who, "result add", opts))


_LINE = re.compile(r"(\d+)\. (.+?) · \*\*([+-]?\d+\.\d+)\*\*(?: \(([+-]\d+\.\d)\)| avg place)? · (\d+) games?")


def _board(text: str) -> list[tuple[str, int, float]]:
    """(name, games, the value ranked by) per leaderboard line: ``1. alice · **+55.0** · 3 games``."""
    out = []
    for line in text.splitlines():
        m = _LINE.fullmatch(line)
        if m:
            out.append((m[2], int(m[5]), float(m[3])))
    return out


def _dump(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    con = sqlite3.connect(db)
    try:
        return {t: con.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in ("games", "game_players", "standings", "audit_log", "seasons")}
    finally:
        con.close()


def test_season_with_bot_and_typed_games_gives_the_expected_leaderboard(tmp_path: Path) -> None:
    async def main() -> None:
        # time_scale 10: under Discord's real windows (5 sends or edits per 5 s per channel) the bot game
        # outlasts a patient player; the same limits, ten times faster
        async with club(tmp_path, time_scale=10) as c:
            await c.server.wait_for_commands(["season", "result", "leaderboard", "stats"], c.guild_id, timeout=10)
            await _organiser(c)
            assert "has started" in _reply(c, await c.slash("alice", "season start", {"name": "Spring", "ruleset": "riichi"}))
            # one bot game: alice and bob with two AI seats
            await c.slash("alice", "table open", {"length": "tonpuu"})
            await c.slash("bob", "table join", {})
            await c.slash("alice", "table add-ai", {"seats": 2})
            await c.slash("alice", "table start", {})
            await play_out(c, ["alice", "bob"])
            t = c.bot.service.tables[1]
            assert t.game is not None
            bot_points = list(t.game.final_scores)
            bot_res = _result(bot_points, _seat_places(bot_points))
            expected: dict[str, list[float]] = {"alice": [], "bob": [], "carol": [], "dave": [], "erin": [], "Kana": []}
            for seat, s in enumerate(t.seats):
                if s.user_id is not None:
                    expected[s.name].append(bot_res[seat])
            # typed-in games (scores in seat order where seat_order is given)
            typed = [
                ([("alice", 40000), ("bob", 30000), ("guest:Kana", 20000), ("carol", 10000)], {}),
                ([("bob", 35000), ("carol", 32000), ("guest:Kana", 20000), ("dave", 12000)], {"sticks": 1}),
                ([("carol", 30000), ("dave", 30000), ("alice", 20000), ("bob", 20000)], {"seat_order": True}),
                ([("erin", 30000), ("dave", 30000), ("carol", 20000), ("alice", 20000)], {}),
            ]
            for players, extra in typed:
                ps = [(p if p.startswith("guest:") else _m(c, p), s) for p, s in players]
                text = await _add(c, "bob", ps, **extra)
                assert text.startswith("Game #"), text
            names = [[p.removeprefix("guest:") for p, _ in g] for g, _ in typed]
            # game 1: 40/30/20/10 -> +50 +10 -20 -40
            for n, r in zip(names[0], [50, 10, -20, -40]):
                expected[n].append(r)
            # game 2: the leftover stick goes to bob: 36000 -> +46
            for n, r in zip(names[1], [46, 12, -20, -38]):
                expected[n].append(r)
            # game 3: carol and dave tie; seat order decides
            for n, r in zip(names[2], [40, 10, -20, -30]):
                expected[n].append(r)
            # game 4: a tie without seat order shares the uma: (40 + 10) / 2 and (-10 - 20) / 2
            for n, r in zip(names[3], [25, 25, -25, -25]):
                expected[n].append(r)
            rec = await c.slash("dave", "leaderboard", {"by": "points"})
            board = _board(_reply(c, rec))
            want = sorted(((n, len(v), round(sum(v), 1)) for n, v in expected.items() if v), key=lambda x: (-x[2], -x[1], x[0]))
            assert [(n, g) for n, g, _ in board] == [(n, g) for n, g, _ in want]
            for (n, _, pts), (_, _, wpts) in zip(board, want):
                assert abs(pts - wpts) < 0.051, n
            # by average placement: places counted here
            rec = await c.slash("dave", "leaderboard", {"by": "placement"})
            assert [n for n, _, _ in _board(_reply(c, rec))][0] in ("erin", "alice", "bob", "carol", "dave", "Kana")
            # /stats of a player with a bot game: placements, rating chart, play statistics
            rec = await c.slash("alice", "stats", {})
            text = _reply(c, rec)
            assert f"games: {len(expected['alice'])}" in text and "bot games: 1" in text and "win " in text, text
            msg = next(m for m in c.server.visible_to(c.users["alice"].id) if m.interaction_id == rec.id)
            assert [a.filename for a in msg.attachments] == ["rating.png"] and msg.attachments[0].data[:4] == b"\x89PNG"
            # the CSV export holds every seat of every game
            rec = await c.slash("alice", "season export", {})
            msg = next(m for m in c.server.visible_to(c.users["alice"].id) if m.interaction_id == rec.id)
            csv_text = msg.attachments[0].data.decode()
            assert len(csv_text.strip().splitlines()) == 1 + 4 * 5

    asyncio.run(main())


def test_leaderboard_pages_with_buttons(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            await c.server.wait_for_commands(["season", "result", "leaderboard"], c.guild_id, timeout=10)
            await _organiser(c)
            await c.slash("alice", "season start", {"name": "Big"})
            for k in range(3):
                await _add(c, "alice", [(f"guest:P{4 * k + i:02d}", s) for i, s in enumerate((45000, 30000, 15000, 10000))])
            rec = await c.slash("bob", "leaderboard", {})
            first = _board(_reply(c, rec))
            assert len(first) == 10 and "page 1/2" in _reply(c, rec)
            msg = next(m for m in c.server.messages(c.channel_id) if m.interaction_id == rec.id)
            nxt = next(cid for cid in msg.custom_ids() if cid.startswith("lb:") and cid.split(":")[3] == "1")
            # somebody else's click is refused; the asker's click turns the page in place
            other = await c.server.click(c.users["carol"].id, msg.id, nxt)
            await other.reply()
            assert "belong to whoever asked" in _reply(c, other)
            click = await c.server.click(c.users["bob"].id, msg.id, nxt)
            await click.response()
            page2 = c.server.message(msg.id)
            assert "page 2/2" in page2.content
            rows = _board(page2.content)
            assert len(rows) == 2 and {n for n, _, _ in rows}.isdisjoint({n for n, _, _ in first})
            # 45000/30000/15000/10000 -> +55/+10/-25/-40 in each game; three guests at -40 share ranks 10 to 12
            assert [n for n, _, _ in rows] == ["P07", "P11"] and [p for _, _, p in rows] == [-40.0, -40.0]

    asyncio.run(main())


def test_edit_recomputes_later_ratings_void_removes_the_game_and_the_audit_log_holds_every_change(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            await c.server.wait_for_commands(["season", "result", "leaderboard", "stats"], c.guild_id, timeout=10)
            await _organiser(c)
            await c.slash("alice", "season start", {"name": "Autumn"})
            games = [
                [("alice", 40000), ("bob", 30000), ("carol", 20000), ("dave", 10000)],
                [("bob", 40000), ("carol", 30000), ("dave", 20000), ("alice", 10000)],
                [("carol", 40000), ("alice", 30000), ("bob", 20000), ("dave", 10000)],
                [("dave", 50000), ("alice", 20000), ("bob", 20000), ("carol", 10000)],
            ]
            for g in games:
                await _add(c, "bob", [(_m(c, p), s) for p, s in g], seat_order=True)
            repo = c.bot.repo
            st: StandingsService = c.bot.standings  # type: ignore[attr-defined]
            uid = {n: f"u:{c.users[n].id}" for n in ("alice", "bob", "carol", "dave")}

            def fold(list_: list[list[tuple[str, int]]]) -> list[dict[str, float]]:
                """openskill's own Plackett-Luce model over the games, ranked by points then seat."""
                m = PlackettLuce()
                r: dict[str, Any] = {}
                out = []
                for g in list_:
                    places = _seat_places([s for _, s in g])
                    teams = [[r.get(p) or m.rating()] for p, _ in g]
                    rated = m.rate(teams, ranks=[float(x) for x in places])
                    for (p, _), t in zip(g, rated):
                        r[p] = t[0]
                    out.append({p: r[p].mu - 3 * r[p].sigma for p, _ in g})
                return out

            async def stored() -> list[dict[str, float]]:
                gs = await repo.season_games(1)
                return [{p.name: p.rating for p in g.players} for g in gs]  # type: ignore[misc]

            def close(a: list[dict[str, float]], b: list[dict[str, float]]) -> bool:
                return len(a) == len(b) and all(abs(x[k] - y[k]) < 1e-9 for x, y in zip(a, b) for k in x)

            assert close(await stored(), fold(games))
            before = await stored()
            # the organiser corrects game 2: the later games' ratings follow
            edited = [("bob", 10000), ("carol", 30000), ("dave", 20000), ("alice", 40000)]
            text = _reply(c, await c.slash("alice", "result edit", {"game": 2, **{f"p{i}": _m(c, p) for i, (p, _) in enumerate(edited, 1)},
                                                                   **{f"s{i}": s for i, (_, s) in enumerate(edited, 1)}, "seat_order": True}))
            assert "corrected" in text, text
            games[1] = edited
            after = await stored()
            assert close(after, fold(games))
            assert after[0] == before[0] and after[2] != before[2] and after[3] != before[3]
            # void game 3: out of the leaderboard, the ratings, the stats
            assert "is void" in _reply(c, await c.slash("alice", "result void", {"game": 3, "reason": "wrong table"}))
            del games[2]
            assert close(await stored(), fold(games))
            board = {n: (g, p) for n, g, p in _board(_reply(c, await c.slash("bob", "leaderboard", {})))}
            for name in ("alice", "bob", "carol", "dave"):
                mine = [g for g in games if any(p == name for p, _ in g)]
                want = sum(_result([s for _, s in g], _seat_places([s for _, s in g]))[[p for p, _ in g].index(name)] for g in mine)
                assert board[name][0] == 3 and abs(board[name][1] - want) < 0.051
            assert "games: 3" in _reply(c, await c.slash("carol", "stats", {}))
            standing = await repo.standing(1, uid["carol"])
            assert standing is not None and standing.games == 3
            # a voided game cannot be edited, and a second void is refused
            assert "voided" in _reply(c, await c.slash("alice", "result edit", {"game": 3, "p1": _m(c, "alice"), "s1": 25000, "p2": _m(c, "bob"),
                                                                               "s2": 25000, "p3": _m(c, "carol"), "s3": 25000, "p4": _m(c, "dave"), "s4": 25000}))
            assert "already void" in _reply(c, await c.slash("alice", "result void", {"game": 3}))
            # the audit log: who, when, before, after of every change
            rows = await repo.audit(c.guild_id)
            assert [r.action for r in rows] == ["season start", "result add", "result add", "result add", "result add", "result edit", "result void"]
            assert [r.actor_id for r in rows] == [c.users["alice"].id] + [c.users["bob"].id] * 4 + [c.users["alice"].id] * 2
            assert all(r.at > 0 for r in rows)
            edit, void = rows[5], rows[6]
            assert edit.game_id == 2 and [p["points"] for p in edit.before["players"]] == [40000, 30000, 20000, 10000]
            assert [p["points"] for p in edit.after["players"]] == [10000, 30000, 20000, 40000]
            assert void.game_id == 3 and void.before["status"] == "ok" and void.after["status"] == "void" and void.after["reason"] == "wrong table"
            _ = st

    asyncio.run(main())


def test_bad_entries_get_a_plain_answer_and_change_nothing(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            await c.server.wait_for_commands(["season", "result"], c.guild_id, timeout=10)
            await _organiser(c)
            assert "no season is running" in await _add(c, "bob", [(_m(c, "alice"), 25000), (_m(c, "bob"), 25000), (_m(c, "carol"), 25000), (_m(c, "dave"), 25000)])
            await c.slash("alice", "season start", {"name": "Winter"})
            good = [(_m(c, "alice"), 40000), (_m(c, "bob"), 30000), (_m(c, "carol"), 20000), (_m(c, "dave"), 10000)]
            assert (await _add(c, "bob", good)).startswith("Game #1")
            snapshot = _dump(c.db)
            cases = [
                ([(_m(c, "alice"), 40000), (_m(c, "bob"), 30000), (_m(c, "carol"), 20000), (_m(c, "dave"), 11000)], {}, "add up to 101,000"),
                ([(_m(c, "alice"), 40000), (_m(c, "bob"), 30000), (_m(c, "carol"), 20000), (_m(c, "dave"), 10000)], {"sticks": 1}, "with 1 riichi stick left"),
                ([(_m(c, "alice"), 40000), (_m(c, "alice"), 30000), (_m(c, "carol"), 20000), (_m(c, "dave"), 10000)], {}, "listed twice"),
                ([("guest:Kana", 40000), ("guest:kana", 30000), (_m(c, "carol"), 20000), (_m(c, "dave"), 10000)], {}, "listed twice"),
                ([("<@123456789012345678>", 40000), (_m(c, "bob"), 30000), (_m(c, "carol"), 20000), (_m(c, "dave"), 10000)], {}, "is not a member of this club"),
                ([("zed", 40000), (_m(c, "bob"), 30000), (_m(c, "carol"), 20000), (_m(c, "dave"), 10000)], {}, "I do not know a member called 'zed'"),
                ([(_m(c, "alice"), 40050), (_m(c, "bob"), 29950), (_m(c, "carol"), 20000), (_m(c, "dave"), 10000)], {}, "counted in hundreds"),
                ([(_m(c, "alice"), 45000), (_m(c, "bob"), 30000), (_m(c, "carol"), 0)], {}, "plays 4-player games"),
                ([(_m(c, "alice"), 40000), (_m(c, "bob"), 30000), (_m(c, "carol"), 20000), (_m(c, "dave"), 10000)], {"season": "Nope"}, "no season called 'Nope'"),
            ]
            for players, extra, want in cases:
                text = await _add(c, "bob", players, **extra)
                assert want in text, (want, text)
                assert not text.startswith("Game #")
            # non-organisers may not edit, void, link or run seasons
            edit = {"game": 1, "p1": _m(c, "alice"), "s1": 10000, "p2": _m(c, "bob"), "s2": 20000, "p3": _m(c, "carol"), "s3": 30000,
                    "p4": _m(c, "dave"), "s4": 40000}
            assert "only an organiser" in _reply(c, await c.slash("bob", "result edit", edit))
            assert "only an organiser" in _reply(c, await c.slash("bob", "result void", {"game": 1}))
            assert "only an organiser" in _reply(c, await c.slash("bob", "season end", {}))
            assert "only an organiser" in _reply(c, await c.slash("bob", "result link", {"guest": "Kana", "member": c.users["bob"].id}))
            # an organiser's bad edit is refused the same way; an unknown game too
            assert "add up to" in _reply(c, await c.slash("alice", "result edit", {**edit, "s4": 45000}))
            assert "no game #9" in _reply(c, await c.slash("alice", "result void", {"game": 9}))
            assert "no games with a guest called 'Kana'" in _reply(c, await c.slash("alice", "result link", {"guest": "Kana", "member": c.users["bob"].id}))
            # an unreadable file for import
            rec = await c.slash("alice", "result import", {"file": ("junk.json", b"{not a log")})
            assert "could not read that file" in _reply(c, rec)
            assert _dump(c.db) == snapshot

    asyncio.run(main())


def test_guest_results_count_for_the_member_after_linking(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            await c.server.wait_for_commands(["season", "result", "stats"], c.guild_id, timeout=10)
            await _organiser(c)
            await c.slash("alice", "season start", {"name": "Guests"})
            await _add(c, "alice", [("guest:Kana", 40000), (_m(c, "bob"), 30000), (_m(c, "carol"), 20000), (_m(c, "dave"), 10000)])
            await _add(c, "alice", [(_m(c, "erin"), 40000), (_m(c, "bob"), 30000), (_m(c, "carol"), 20000), (_m(c, "dave"), 10000)])
            assert "games: 1" in _reply(c, await c.slash("bob", "stats", {"guest": "Kana"}))
            text = _reply(c, await c.slash("alice", "result link", {"guest": "guest:Kana", "member": c.users["erin"].id}))
            assert "now count for erin" in text, text
            assert "games: 2" in _reply(c, await c.slash("erin", "stats", {}))
            assert [r.action for r in await c.bot.repo.audit(c.guild_id)][-1] == "guest link"

    asyncio.run(main())


def _answers(c: Club, rec: Any) -> list[Any]:
    return [m for m in c.server.visible_to(rec.user_id) if m.interaction_id == rec.id]


def test_bot_accounts_are_refused_as_players_the_bot_itself_included(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            await c.server.wait_for_commands(["season", "result"], c.guild_id, timeout=10)
            await _organiser(c)
            helper = c.server.add_user("dicebot", guilds=[c.guild_id], bot=True)
            await c.slash("alice", "season start", {"name": "People"})
            snapshot = _dump(c.db)
            rest = [(_m(c, "bob"), 30000), (_m(c, "carol"), 20000), (_m(c, "dave"), 10000)]
            for first in (f"<@{c.server.bot_user.id}>", f"<@{helper.id}>", "dicebot"):
                text = await _add(c, "bob", [(first, 40000), *rest])
                assert "is a bot account" in text and "guest:Name" in text, text
                assert text.count("\n") == 0
            text = _reply(c, await c.slash("alice", "result link", {"guest": "Kana", "member": helper.id}))
            assert "is a bot account" in text, text
            assert _dump(c.db) == snapshot

    asyncio.run(main())


def test_a_plain_member_name_or_nickname_counts_when_it_names_exactly_one_member(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            await c.server.wait_for_commands(["season", "result"], c.guild_id, timeout=10)
            await _organiser(c)
            kazu = c.server.add_user("kazuki_t", guilds=[c.guild_id])
            c.server.add_member(c.guild_id, kazu.id, nick="Kazu")
            sam = c.server.add_user("sam", guilds=[c.guild_id])
            samuel = c.server.add_user("samuel", guilds=[c.guild_id])
            c.server.add_member(c.guild_id, samuel.id, nick="Sam")
            await asyncio.sleep(0.1)
            await c.slash("alice", "season start", {"name": "Names"})
            # a username in other letter case, a nickname, an @-prefixed name: each one member
            text = await _add(c, "bob", [("ALICE", 40000), ("kazu", 30000), ("@bob", 20000), (_m(c, "carol"), 10000)])
            assert text.startswith("Game #1"), text
            g = await c.bot.repo.get_game(1)
            assert g is not None
            assert [p.player for p in g.players] == [f"u:{c.users['alice'].id}", f"u:{kazu.id}", f"u:{c.users['bob'].id}",
                                                     f"u:{c.users['carol'].id}"]
            snapshot = _dump(c.db)
            # 'sam' is sam's username and samuel's nickname: ambiguous, and the answer says how to name them
            text = await _add(c, "bob", [("sam", 40000), (_m(c, "bob"), 30000), (_m(c, "carol"), 20000), (_m(c, "dave"), 10000)])
            assert "2 members go by 'sam'" in text and "samuel" in text and "@name" in text and "guest:sam" in text, text
            text = await _add(c, "bob", [("nobody", 40000), (_m(c, "bob"), 30000), (_m(c, "carol"), 20000), (_m(c, "dave"), 10000)])
            assert "I do not know a member called 'nobody'" in text and "guest:nobody" in text, text
            assert _dump(c.db) == snapshot
            _ = sam

    asyncio.run(main())


def test_a_season_without_a_minimum_lists_everyone_and_says_so(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            await c.server.wait_for_commands(["season"], c.guild_id, timeout=10)
            await _organiser(c)
            text = _reply(c, await c.slash("alice", "season start", {"name": "Open"}))
            assert "has started" in text and "at least 0" not in text and "from their first game" in text, text
            await c.slash("alice", "season end", {})
            text = _reply(c, await c.slash("alice", "season start", {"name": "Strict", "min_games": 5}))
            assert "at least 5 games to appear on the leaderboard" in text, text

    asyncio.run(main())


def test_standings_look_ups_answer_in_the_channel_and_refusals_only_to_the_asker(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            await c.server.wait_for_commands(["season", "result", "leaderboard", "stats"], c.guild_id, timeout=10)
            await _organiser(c)
            for cmd in ("stats", "leaderboard"):
                rec = await c.slash("bob", cmd, {})
                answers = _answers(c, rec)
                assert len(answers) == 1 and answers[0].ephemeral and "no season is running" in answers[0].content, (cmd, answers)
            await c.slash("alice", "season start", {"name": "Seen"})
            await _add(c, "alice", [(_m(c, "alice"), 40000), (_m(c, "bob"), 30000), (_m(c, "carol"), 20000), (_m(c, "dave"), 10000)])
            rec = await c.slash("erin", "stats", {})
            answers = _answers(c, rec)
            assert len(answers) == 1 and answers[0].ephemeral and "no recorded games" in answers[0].content, answers
            for cmd in ("stats", "leaderboard"):
                rec = await c.slash("bob", cmd, {})
                answers = _answers(c, rec)
                assert answers and not any(m.ephemeral for m in answers), (cmd, answers)
                assert any("bob" in m.content for m in answers)

    asyncio.run(main())


def test_the_leaderboard_is_one_short_line_per_player_with_the_value_it_ranks_by(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            await c.server.wait_for_commands(["season", "result", "leaderboard"], c.guild_id, timeout=10)
            await _organiser(c)
            await c.slash("alice", "season start", {"name": "Phones"})
            # dave plays three games (1st, 1st, 4th); erin one (1st): erin has the better average place
            games = [
                [("dave", 50000), ("alice", 30000), ("bob", 12000), ("carol", 8000)],
                [("dave", 45000), ("bob", 30000), ("alice", 15000), ("carol", 10000)],
                [("alice", 40000), ("bob", 30000), ("carol", 20000), ("dave", 10000)],
                [("erin", 70000), ("alice", 15000), ("bob", 10000), ("carol", 5000)],
            ]
            for g in games:
                await _add(c, "alice", [(_m(c, p), s) for p, s in g])
            by_points = _reply(c, await c.slash("bob", "leaderboard", {"by": "points"}))
            assert "```" not in by_points and "ranked by points" in by_points
            lines = [x for x in by_points.splitlines() if _LINE.fullmatch(x)]
            assert len(lines) == 5 and all(len(x.replace("**", "")) <= 40 for x in lines), lines
            # by hand: dave +60 +55 -40 = +75, erin +80
            assert _board(by_points)[:2] == [("erin", 1, 80.0), ("dave", 3, 75.0)]
            by_place = _reply(c, await c.slash("bob", "leaderboard", {"by": "placement"}))
            assert "ranked by average placement" in by_place
            assert _board(by_place)[0] == ("erin", 1, 1.0) and ("dave", 3, 2.0) in _board(by_place)
            by_rating = _reply(c, await c.slash("bob", "leaderboard", {"by": "rating"}))
            assert "ranked by rating (openskill)" in by_rating and "mu − 3 sigma" in by_rating and "games played" in by_rating

            # the ratings shown are openskill's mu - 3 sigma over the games in order, highest first
            m = PlackettLuce()
            r: dict[str, Any] = {}
            for g in games:
                places = _seat_places([s for _, s in g])
                rated = m.rate([[r.get(p) or m.rating()] for p, _ in g], ranks=[float(x) for x in places])
                for (p, _), t in zip(g, rated):
                    r[p] = t[0]
            want = sorted(((p, round(x.mu - 3 * x.sigma, 1)) for p, x in r.items()), key=lambda x: -x[1])
            assert [(n, v) for n, _, v in _board(by_rating)] == want
            # each rating line also shows the points, so a higher rating with fewer points is visible
            erin = next(x for x in by_rating.splitlines() if " erin " in x)
            assert "(+80.0)" in erin and "1 game" in erin

    asyncio.run(main())

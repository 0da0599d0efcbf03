"""``/sheet`` end to end through the local Discord-protocol server (Discord's limits on) and a real
SQLite file: games at a real table entered hand by hand, their scores computed here by hand from
the rules (rule ids of ../shared/rules/riichi.md), and the season's standings and ``/stats`` after.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from tests.bot.harness import Club, club, make_organiser, rows

SEATS4 = ("alice", "bob", "carol", "dave")


def _m(c: Club, who: str) -> str:
    return f"<@{c.users[who].id}>"


def _reply(c: Club, rec: Any) -> str:
    return "\n".join(c.replies(rec))


async def _do(c: Club, who: str, cmd: str, **opts: Any) -> str:
    return _reply(c, await c.slash(who, f"sheet {cmd}", opts))


def _sheet_messages(c: Club) -> list[Any]:
    return [m for m in c.server.messages(c.channel_id) if m.content.startswith(("**Score sheet #", "**点数記録 #"))]


async def _sheet_shows(c: Club, scores: dict[str, int], *, timeout: float = 20) -> str:
    """Wait until the one sheet message shows these scores (it is edited through the paced path)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = _sheet_messages(c)
        assert len(found) <= 1, [m.content for m in found]  # one sheet message, edited
        text = found[0].content if found else ""
        shown = {m[1]: int(m[2].replace(",", "")) for m in re.finditer(r"^\w+ · (.+?) · \*\*(-?[\d,]+)\*\*", text, re.M)}
        if shown == scores:
            return text
        if loop.time() > deadline:
            raise AssertionError(f"the sheet shows {shown}, not {scores}:\n{text}")
        await asyncio.sleep(0.05)


def _entries(c: Club) -> int:
    return int(rows(c.db, "SELECT COUNT(*) FROM sheet_entries")[0][0])


def _board(text: str) -> dict[str, float]:
    return {m[1]: float(m[2]) for m in re.finditer(r"^\d+\. (.+?) · \*\*([+-]?\d+\.\d+)\*\*", text, re.M)}


def test_four_player_sheet_hand_by_hand_to_the_season_and_stats(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path, time_scale=10) as c:
            await c.server.wait_for_commands(["sheet", "season", "stats"], c.guild_id, timeout=10)
            await make_organiser(c, "alice")
            assert "has started" in _reply(c, await c.slash("alice", "season start", {"name": "Spring", "ruleset": "riichi"}))
            # no open sheet yet: one sentence, nothing stored
            text = await _do(c, "bob", "draw")
            assert "no open score sheet" in text and text.count(".") == 1, text
            text = await _do(c, "alice", "start", p1=_m(c, "alice"), p2=_m(c, "bob"), p3="carol", p4="guest:Dave")
            assert "Score sheet #1 is open" in text, text
            a, b, cz, d = "alice", "bob", "carol", "Dave"
            await _sheet_shows(c, {a: 25000, b: 25000, cz: 25000, d: 25000})

            # E1 (alice deals): bob riichi, ron off carol, 3 han 40 fu: B = 40 x 2^5 = 1280, 4B = 5120 -> 5200;
            # bob pays his stick and takes it back: bob +5200, carol -5200
            text = await _do(c, "bob", "ron", winner="bob", loser="carol", han=3, fu=40, riichi="bob")
            assert "bob +5,200" in text and "carol -5,200" in text, text
            # E2 (bob deals): draw, bob and Dave tenpai, Dave riichi: alice and carol pay 1500 each,
            # Dave's stick stays; bob was tenpai, so he deals again with 1 honba
            text = await _do(c, "carol", "draw", tenpai="bob, guest:Dave", riichi="Dave")
            assert "East 2, 1 honba" in text and "bob deals" in text, text
            # E2 1 honba: alice tsumo, written as a hand: menzen tsumo + tanyao, 2 han 30 fu (closed 333m: 20+2+4 -> 30)
            # B = 480: the dealer bob pays 1000 + 100, carol and Dave 500 + 100; alice +2300 and the stick: +3300
            text = await _do(c, "alice", "tsumo", winner="alice", hand="234m456p678s55s33m tsumo 3m")
            assert "2 han 30 fu" in text and "alice +3,300" in text and "bob -1,100" in text, text
            # scores: alice 28300? no: 25000 - 1500 + 3300 = 26800; bob 30200 + 1500 - 1100 = 30600;
            # carol 19800 - 1500 - 600 = 17700; Dave 25000 + 1500 - 1000 - 600 = 24900
            await _sheet_shows(c, {a: 26800, b: 30600, cz: 17700, d: 24900})

            # bad entries: one sentence each, nothing stored
            before = _entries(c)
            for who, cmd, opts, says in [
                ("erin", "draw", {}, "only a player seated at this sheet or an organiser"),
                ("bob", "ron", {"winner": "bob", "loser": "bob", "han": 1, "fu": 30}, "cannot win by ron on their own discard"),
                ("bob", "ron", {"winner": "zed", "loser": "bob", "han": 1, "fu": 30}, "'zed' is not a player at this sheet"),
                ("bob", "ron", {"winner": "bob", "loser": "carol", "han": 1, "fu": 20}, "no hand is worth 1 han 20 fu"),
                ("bob", "ron", {"winner": "bob", "loser": "carol", "han": 2, "fu": 35}, "35 fu is not possible"),
                ("bob", "tsumo", {"winner": "bob", "hand": "123m456p789s1234z tsumo 5z"}, "that hand does not win"),
            ]:
                text = await _do(c, who, cmd, **opts)
                assert says in text and len(text.splitlines()) == 1, (cmd, opts, text)
            assert _entries(c) == before

            # a mistaken entry, taken back with the sheet's Undo button (a stranger's click is refused)
            await _do(c, "carol", "ron", winner="Dave", loser="alice", han=1, fu=30)
            sheet = _sheet_messages(c)[0]
            assert sheet.custom_ids() == ["sheet:1:undo"]
            rec = await c.server.click(c.users["erin"].id, sheet.id, "sheet:1:undo")
            await rec.reply()
            assert "only a player seated at this sheet" in _reply(c, rec) and _entries(c) == before + 1
            rec = await c.server.click(c.users["carol"].id, sheet.id, "sheet:1:undo")
            await rec.reply()
            text = _reply(c, rec)
            assert "Taken back" in text and "East 3" in text, text
            await _sheet_shows(c, {a: 26800, b: 30600, cz: 17700, d: 24900})

            # E3 (carol deals): Dave's chombo, a mangan as if the others had won by tsumo: 4000 to the dealer carol,
            # 2000 to alice and bob; the hand is played again (same dealer, same honba)
            text = await _do(c, "alice", "chombo", player="Dave")
            assert "Dave -8,000" in text and "East 3" in text, text
            # E3 again: alice riichi; carol (dealer) ron off bob, 4 han 30 fu: 6B = 11520 -> 11600 (V10), and the stick
            text = await _do(c, "bob", "ron", winner="carol", loser="bob", han=4, fu=30, riichi="alice")
            assert "carol +12,600" in text and "East 3, 1 honba" in text, text
            # alice 28800 - 1000 = 27800; bob 32600 - 11600 = 21000; carol 21700 + 12600 = 34300; Dave 16900
            await _sheet_shows(c, {a: 27800, b: 21000, cz: 34300, d: 16900})
            # E3 1 honba: draw, only Dave tenpai (riichi): he takes 1000 from each; carol noten: the deal passes
            text = await _do(c, "alice", "draw", tenpai="Dave", riichi="Dave")
            assert "East 4, 2 honba" in text, text
            # E4 2 honba (Dave deals): double ron on alice's discard: bob 2 han 30 fu (2000), Dave 3 han 30 fu
            # as dealer (6 x 960 = 5760 -> 5800); bob is first after alice: he takes the honba (600) and the stick
            text = await _do(c, "bob", "ron", winner="Dave", loser="alice", han=3, fu=30, winner2="bob", han2=2, fu2=30)
            assert "alice -8,400" in text and "bob +3,600" in text and "Dave +5,800" in text, text
            # alice 26800 - 8400 = 18400; bob 20000 + 3600 = 23600; carol 33300; Dave 18900 + 5800 = 24700
            await _sheet_shows(c, {a: 18400, b: 23600, cz: 33300, d: 24700})

            text = await _do(c, "carol", "end")
            # the sheet message shows the end and loses its button
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 20
            while _sheet_messages(c)[0].custom_ids() or "the game is over" not in _sheet_messages(c)[0].content:
                assert loop.time() < deadline, _sheet_messages(c)[0].content
                await asyncio.sleep(0.05)
            # (points - 30000) / 1000 + uma 20/10/-10/-20, oka +20 to first:
            # carol 3.3 + 20 + 20 = +43.3, Dave -5.3 + 10 = +4.7, bob -6.4 - 10 = -16.4, alice -11.6 - 20 = -31.6
            assert "1. carol: 33,300 (+43.3)" in text and "2. Dave: 24,700 (+4.7)" in text, text
            assert "3. bob: 23,600 (-16.4)" in text and "4. alice: 18,400 (-31.6)" in text, text
            board = _board(_reply(c, await c.slash("erin", "leaderboard", {"by": "points"})))
            assert board == {"carol": 43.3, "Dave": 4.7, "bob": -16.4, "alice": -31.6}, board
            # /stats: 6 hands (the chombo is not a hand); bob won 2 (5200 and 2000: average 3,600), dealt in once,
            # declared riichi once; alice won 1 (a 2,000 tsumo), dealt in once, riichi once
            stats = _reply(c, await c.slash("bob", "stats", {}))
            assert "1 of them on a score sheet (6 hands) — win 33.3%, deal-in 16.7%, riichi 16.7%; average win 3,600" in stats, stats
            assert "on the sheets 2 draws, 0 chombo" in stats, stats
            stats = _reply(c, await c.slash("bob", "stats", {"guest": "Dave"}))
            assert "(6 hands) — win 16.7%, deal-in 0.0%, riichi 33.3%; average win 5,800" in stats and "2 draws, 1 chombo" in stats, stats
            stats = _reply(c, await c.slash("alice", "stats", {}))
            assert "(6 hands) — win 16.7%, deal-in 16.7%, riichi 16.7%; average win 2,000, average deal-in 7,800" in stats, stats
            # the sheet is closed: the next entry is refused; the game is in the season, with its seats in order
            assert "no open score sheet" in await _do(c, "bob", "draw")
            got = rows(c.db, "SELECT g.source, gp.seat, gp.name, gp.points, gp.place FROM games g JOIN game_players gp ON gp.game_id = g.id ORDER BY gp.seat")
            assert got == [("sheet", 0, "alice", 18400, 4), ("sheet", 1, "bob", 23600, 3), ("sheet", 2, "carol", 33300, 1), ("sheet", 3, "Dave", 24700, 2)]

    asyncio.run(main())


def test_three_player_sheet_ends_when_a_player_busts(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path, time_scale=10) as c:
            await c.server.wait_for_commands(["sheet", "season", "stats"], c.guild_id, timeout=10)
            await make_organiser(c, "alice")
            assert "has started" in _reply(c, await c.slash("alice", "season start", {"name": "Sanma", "ruleset": "sanma"}))
            # three players and no ruleset: Tenhou sanma (35000 start, 40000 return, uma 15/0/-15, noten 2000 in all)
            text = await _do(c, "alice", "start", p1=_m(c, "alice"), p2=_m(c, "bob"), p3=_m(c, "carol"))
            assert "Score sheet #1 is open" in text, text
            await _sheet_shows(c, {"alice": 35000, "bob": 35000, "carol": 35000})
            # E1 (alice deals): bob tsumo mangan, no North to pay: alice (dealer) 4000, carol 2000 -> bob +6000
            text = await _do(c, "bob", "tsumo", winner="bob", han=5)
            assert "alice -4,000" in text and "bob +6,000" in text and "carol -2,000" in text, text
            await _sheet_shows(c, {"alice": 31000, "bob": 41000, "carol": 33000})
            _sheet_messages(c)[0].deleted = True  # someone deletes the sheet message: the next change posts it again
            # E2 (bob deals): draw, carol alone tenpai with riichi: 2000 from the two noten players (1000 each),
            # her stick stays; bob noten: the deal passes with 1 honba
            text = await _do(c, "carol", "draw", tenpai="carol", riichi="carol")
            assert "East 3, 1 honba" in text, text
            # E3 1 honba (carol deals): alice ron off bob, 3 han 30 fu: 4 x 960 = 3840 -> 3900, 200 a honba in
            # sanma (honba_ron), and the stick: alice +5100, bob -4100
            text = await _do(c, "alice", "ron", winner="alice", loser="bob", han=3, fu=30)
            assert "alice +5,100" in text and "bob -4,100" in text and "South 1" in text, text
            # alice 35000 - 4000 - 1000 + 5100 = 35100; bob 41000 - 1000 - 4100 = 35900; carol 33000 + 2000 - 1000 = 34000
            await _sheet_shows(c, {"alice": 35100, "bob": 35900, "carol": 34000})
            # S1 (alice deals): kokushi off bob, written as a hand (a single yakuman: no double yakuman in
            # Tenhou sanma): dealer 6 x 8000 = 48000; bob at -12100 busts and the game ends
            text = await _do(c, "bob", "ron", winner="alice", loser="bob", hand="19m19p19s1234567z ron 1m")
            assert "1 yakuman, 48,000 points" in text and "The game is over." in text, text
            # with oka (40000 - 35000) x 3 / 1000 = 15 to first:
            # alice (83100 - 40000) / 1000 + 15 + 15 = +73.1, carol -6.0 + 0 = -6.0, bob -52.1 - 15 = -67.1
            assert "1. alice: 83,100 (+73.1)" in text and "2. carol: 34,000 (-6.0)" in text and "3. bob: -12,100 (-67.1)" in text, text
            await _sheet_shows(c, {"alice": 83100, "bob": -12100, "carol": 34000})
            board = _board(_reply(c, await c.slash("erin", "leaderboard", {"by": "points"})))
            assert board == {"alice": 73.1, "carol": -6.0, "bob": -67.1}, board
            # 4 hands: alice won 2 (3900 and 48000), bob dealt in twice, carol declared riichi once
            stats = _reply(c, await c.slash("alice", "stats", {}))
            assert "(4 hands) — win 50.0%, deal-in 0.0%, riichi 0.0%; average win 25,950" in stats, stats
            stats = _reply(c, await c.slash("carol", "stats", {}))
            assert "(4 hands) — win 0.0%, deal-in 0.0%, riichi 25.0%" in stats, stats
            stats = _reply(c, await c.slash("bob", "stats", {}))
            assert "win 25.0%, deal-in 50.0%" in stats and "average deal-in 25,950" in stats, stats

    asyncio.run(main())


def test_house_rules_kiriage_uma_and_chombo_penalty_change_the_result(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path, time_scale=10) as c:
            await c.server.wait_for_commands(["sheet", "season", "house"], c.guild_id, timeout=10)
            await make_organiser(c, "alice")
            await c.slash("alice", "house new", {"name": "club", "base": "riichi"})
            for option, value in (("kiriage", "true"), ("uma", "30,10,-10,-30"), ("hanchan", "false"), ("chombo", "penalty")):
                text = _reply(c, await c.slash("alice", "house set", {"name": "club", "option": option, "value": value}))
                assert "club" in text, text
            assert "has started" in _reply(c, await c.slash("alice", "season start", {"name": "House", "house": "club"}))
            # the season plays the house rules: a sheet under plain riichi is refused for it, nothing stored
            text = await _do(c, "alice", "start", p1="alice", p2="bob", p3="carol", p4="dave", ruleset="riichi", season="House")
            assert "plays club with 4 players" in text, text
            text = await _do(c, "alice", "start", p1="alice", p2="bob", p3="carol", p4="dave", ruleset="taiwan16")
            assert "cannot be kept on a score sheet" in text, text
            text = await _do(c, "alice", "start", p1="alice", p2="bob", p3="carol", p4="dave", ruleset="nope")
            assert "unknown ruleset 'nope'" in text, text
            text = await _do(c, "alice", "start", p1="alice", p2="bob", p3="carol", ruleset="ema")
            assert "ema is played by 4 players, and this sheet names 3" in text, text
            assert rows(c.db, "SELECT COUNT(*) FROM sheets") == [(0,)]
            text = await _do(c, "alice", "start", p1="alice", p2="bob", p3="carol", p4="dave", house="club")
            assert "Score sheet #1 is open" in text, text
            # E1: bob ron off carol, 4 han 30 fu: kiriage makes it a mangan, 8000 (7700 without, R-10.2)
            assert "bob +8,000" in await _do(c, "bob", "ron", winner="bob", loser="carol", han=4, fu=30)
            # E2: carol ron off dave, 3 han 60 fu: kiriage 8000 again
            assert "carol +8,000" in await _do(c, "carol", "ron", winner="carol", loser="dave", han=3, fu=60)
            # E3 (carol deals): dave's chombo under chombo: penalty: nothing is paid now
            text = await _do(c, "dave", "chombo", player="dave")
            assert "changes: none" in text, text
            # E3: draw, nobody tenpai, carol noten: E4 with 1 honba; E4: draw, dave (dealer) noten: a tonpuu
            # ends after E4 when the deal passes (R-2.1, hanchan false)
            assert "East 4, 1 honba" in await _do(c, "carol", "draw")
            text = await _do(c, "dave", "draw")
            assert "The game is over." in text, text
            # bob 33000, alice 25000, carol 25000, dave 17000; alice and carol tie: seat order
            # uma 30/10/-10/-30, oka 20: bob 3 + 30 + 20 = +53, alice -5 + 10 = +5, carol -5 - 10 = -15,
            # dave -13 - 30 = -43, less his chombo penalty of 20,000: -63
            assert "1. bob: 33,000 (+53.0)" in text and "2. alice: 25,000 (+5.0)" in text, text
            assert "3. carol: 25,000 (-15.0)" in text and "4. dave: 17,000 (-63.0)" in text and "chombo penalty −20,000" in text, text
            board = _board(_reply(c, await c.slash("erin", "leaderboard", {"by": "points"})))
            assert board == {"bob": 53.0, "alice": 5.0, "carol": -15.0, "dave": -63.0}, board

    asyncio.run(main())


_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def test_japanese_replies_and_a_restart_that_loses_nothing(tmp_path: Path) -> None:
    """Every reply of a sheet read with a ``ja`` locale has no English word of ours (player names,
    command names and the hand's notation aside); a new service (as after a restart) rebuilds the
    sheet from its stored entries and goes on editing the same message."""

    async def ja(c: Club, who: str, cmd: str, **opts: Any) -> str:
        rec = await c.server.slash(c.users[who].id, c.guild_id, c.channel_id, f"sheet {cmd}", opts, locale="ja")
        await rec.reply(timeout=30)
        return _reply(c, rec)

    def english(text: str) -> list[str]:
        ours = {"alice", "bob", "carol", "dave", "sheet", "end", "start", "ron", "tsumo", "draw", "chombo", "han", "zed"}
        return [w for w in _LATIN_WORD.findall(text) if w.lower() not in ours]

    async def main() -> None:
        async with club(tmp_path, time_scale=10) as c:
            await c.server.wait_for_commands(["sheet", "prefs"], c.guild_id, timeout=10)
            await make_organiser(c, "alice")
            await c.slash("alice", "prefs club_language", {"language": "ja"})
            replies = [await ja(c, "alice", "start", p1="alice", p2="bob", p3="carol", p4="dave")]
            replies.append(await ja(c, "bob", "ron", winner="bob", loser="carol", han=3, fu=40, riichi="bob"))
            replies.append(await ja(c, "bob", "draw", tenpai="bob, dave", riichi="dave"))
            replies.append(await ja(c, "erin", "draw"))  # not seated
            replies.append(await ja(c, "bob", "ron", winner="bob", loser="bob", han=1, fu=30))
            replies.append(await ja(c, "bob", "ron", winner="bob", loser="carol", han=1, fu=20))
            replies.append(await ja(c, "bob", "tsumo", winner="zed", han=1, fu=30))
            replies.append(await ja(c, "bob", "chombo", player="carol"))
            replies.append(await ja(c, "bob", "undo"))
            for text in replies:
                assert text and not english(text), text
            # E1 bob +5200 / carol -5200; E2 draw: alice and carol -1500, bob +1500, dave +1500 - 1000 (stick)
            shown = await _sheet_shows(c, {"alice": 23500, "bob": 31700, "carol": 18300, "dave": 25500})
            assert not english(shown) and "点数記録 #1" in shown and "東" in shown, shown

            # "restart": a new service and no memory of the sheet message; the sheet comes back from storage
            from bot.sheet.service import SheetService

            c.bot.sheets = SheetService(c.bot.repo, c.bot.standings)  # type: ignore[attr-defined]
            c.bot.get_cog("SheetCog")._shown.clear()  # type: ignore[union-attr]
            # E2 1 honba (bob deals): bob tsumo 1 han 30 fu as dealer: 500 all + 100 each, and dave's stick
            text = await ja(c, "bob", "tsumo", winner="bob", han=1, fu=30)
            assert not english(text), text
            await _sheet_shows(c, {"alice": 22900, "bob": 34500, "carol": 17700, "dave": 24900})
            text = await ja(c, "carol", "end")
            assert not english(text) and "1. bob: 34,500" in text, text

    asyncio.run(main())


def test_an_entry_that_cannot_be_stored_is_not_applied(tmp_path: Path) -> None:
    """Storage before state: a write that fails leaves the sheet as it was (and the final entry,
    whose write also records the game, records nothing); the same entry then goes through."""
    from bot.sheet.service import SheetService, SheetUserError
    from bot.standings.service import StandingsService, Who
    from bot.storage.repository import Repository
    from engine.sheet import Entry, EntryKind, Win

    async def main() -> None:
        repo = Repository(tmp_path / "sheets.sqlite3")
        await repo.open()
        try:
            svc = SheetService(repo, StandingsService(repo))
            players = [Who.guest(n) for n in ("Ann", "Ben", "Cat", "Dan")]
            await svc.start(1, 10, 99, players, None, None)
            real = repo.write
            fail = True

            async def flaky(fn: Any) -> Any:
                if fail:
                    raise OSError("disk full")
                return await real(fn)

            repo.write = flaky  # type: ignore[method-assign]
            ron = Entry(kind=EntryKind.RON, wins=(Win(seat=1, han=3, fu=40),), loser=2)
            with pytest.raises(OSError):
                await svc.enter(10, 99, True, lambda c: ron)
            c = await svc.current(10)
            assert c.state.scores == (25000,) * 4 and not c.outcomes
            fail = False
            c, o, game = await svc.enter(10, 99, True, lambda c: ron)
            assert c.state.scores == (25000, 30200, 19800, 25000) and game is None
            # a bust ends the game: its entry, the game and the closed sheet are one write
            bust = Entry(kind=EntryKind.RON, wins=(Win(seat=1, han=13),), loser=2)
            fail = True
            with pytest.raises(OSError):
                await svc.enter(10, 99, True, lambda c: bust)
            fail = False
            assert len((await svc.current(10)).outcomes) == 1
            assert rows(tmp_path / "sheets.sqlite3", "SELECT COUNT(*) FROM games") == [(0,)]
            c, o, game = await svc.enter(10, 99, True, lambda c: bust)
            # Ben deals E2 (his E1 win passed the deal to him): a dealer's yakuman ron is 6 x 8000 = 48000
            assert game is not None and o.state.over and [p.points for p in game.players] == [25000, 78200, -28200, 25000]
            try:
                await svc.current(10)
            except SheetUserError as e:
                assert "no open score sheet" in str(e)
            else:
                raise AssertionError("the sheet stayed open")
        finally:
            await repo.close()

    asyncio.run(main())


def test_entries_at_the_same_moment_are_taken_one_by_one_and_the_sheet_shows_the_last(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path, time_scale=10) as c:
            await c.server.wait_for_commands(["sheet"], c.guild_id, timeout=10)
            start = c.server.slash(c.users["alice"].id, c.guild_id, c.channel_id, "sheet start",
                                   {"p1": "alice", "p2": "bob", "p3": "carol", "p4": "dave"})
            await (await start).reply()
            # three draws with nobody tenpai, sent together by three players: no payment, the deal passes
            # each time, so the sheet is at East 4 with 3 honba whatever order they are taken in
            recs = await asyncio.gather(*(
                c.server.slash(c.users[who].id, c.guild_id, c.channel_id, "sheet draw", {}) for who in ("bob", "carol", "dave")
            ))
            for rec in recs:
                await rec.reply()
            assert _entries(c) == 3
            text = await _sheet_shows(c, {"alice": 25000, "bob": 25000, "carol": 25000, "dave": 25000})
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 20
            while "East 4, 3 honba" not in _sheet_messages(c)[0].content:
                assert loop.time() < deadline, text
                await asyncio.sleep(0.05)
            assert len(_sheet_messages(c)) == 1
            # E4 3 honba: an abortive draw: bob's riichi stick goes to the table, nothing else is paid,
            # dave deals again with 4 honba
            assert "leave tenpai out" in await _do(c, "bob", "draw", abortive=True, tenpai="bob")
            text = await _do(c, "bob", "draw", abortive=True, riichi="bob")
            assert "Abortive draw" in text and "bob -1,000" in text and "East 4, 4 honba, dave deals" in text, text
            await _sheet_shows(c, {"alice": 25000, "bob": 24000, "carol": 25000, "dave": 25000})
            # E4 4 honba: carol's nagashi mangan: a mangan tsumo without honba, 4000 from the dealer dave,
            # 2000 from alice and bob; no tenpai payments; dave was tenpai, so he deals again
            text = await _do(c, "carol", "draw", tenpai="dave", nagashi="carol")
            assert "Draw: nagashi mangan carol" in text and "carol +8,000" in text and "East 4, 5 honba" in text, text
            await _sheet_shows(c, {"alice": 23000, "bob": 22000, "carol": 33000, "dave": 21000})

    asyncio.run(main())


def test_a_sheet_for_an_in_person_league_table(tmp_path: Path) -> None:
    """``league_table:`` names the league: the game goes to its season, and the open round's
    in-person table seated with these players takes it (the round then closes)."""

    async def main() -> None:
        async with club(tmp_path, names=("org", "p01", "p02", "p03", "p04"), time_scale=25) as c:
            await c.server.wait_for_commands(["sheet", "league"], c.guild_id, timeout=10)
            await make_organiser(c, "org")
            await c.slash("org", "league new", {"name": "Night", "rounds": 1, "mode": "in_person", "ruleset": "riichi", "leftover": "bye"})
            for p in ("p01", "p02", "p03", "p04"):
                await c.slash(p, "league join", {})
            assert "Round 1 of 'Night' is open" in _reply(c, await c.slash("org", "league round", {}))
            seats = re.findall(r'"u:(\d+)"', rows(c.db, "SELECT seats FROM league_tables WHERE kind = 'in_person'")[0][0])
            who = {str(c.users[n].id): n for n in ("p01", "p02", "p03", "p04")}
            order = [who[s] for s in seats]
            text = await _do(c, order[0], "start", p1=order[0], p2=order[1], p3=order[2], p4=order[3], league_table="Night")
            assert "Score sheet #1 is open" in text, text
            # E1: the dealer (first seat) wins a mangan by ron off the second: 6 x 2000 = 12000
            await _do(c, order[1], "ron", winner=order[0], loser=order[1], han=5)
            text = await _do(c, order[2], "end")
            # with uma 20/10/-10/-20 and oka 20: 37000 -> +47, 25000 (seat 3) +5, 25000 (seat 4) -15, 13000 -> -37
            assert f"1. {order[0]}: 37,000 (+47.0)" in text and f"2. {order[2]}: 25,000 (+5.0)" in text, text
            assert f"3. {order[3]}: 25,000 (-15.0)" in text and f"4. {order[1]}: 13,000 (-37.0)" in text, text
            post = await c.server.wait_for(
                lambda: next((m for m in c.server.messages(c.channel_id) if "round 1 of 1 is over" in m.content), None), timeout=30,
                what="the end of the round",
            )
            assert "37,000" in post.content, post.content
            assert rows(c.db, "SELECT g.source, s.name FROM games g JOIN seasons s ON s.id = g.season_id") == [("sheet", "Night")]

    asyncio.run(main())

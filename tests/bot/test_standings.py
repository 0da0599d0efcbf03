"""Standings over a real SQLite file, without Discord: settlement (R-2.7 to R-2.9), ratings and their
recomputation, play statistics of bot games, damaged rows."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from bot.standings.ratings import RatedGame, Seat, TenhouRating, rating_system, recompute
from bot.standings.scoring import settle
from bot.standings.service import Entry, StandingsError, StandingsService, Who
from bot.storage.reads import fetch_one
from bot.storage.repository import Repository
from bot.tables import TableService
from engine.rules import find_ruleset
from engine.table.actions import Action, ActionType
from engine.table.game import Game

A = ActionType
ALICE, BOB, CAROL, DAVE = (Who.member(10 + i, n) for i, n in enumerate(("alice", "bob", "carol", "dave")))


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


async def _open(where: Path | str) -> tuple[Repository, StandingsService]:
    """A repository in a SQLite file under ``where`` (a folder), or at ``where`` (the ``database``
    fixture: a SQLite file's path or a PostgreSQL URL)."""
    repo = Repository(where / "standings.sqlite3" if isinstance(where, Path) else where)
    await repo.open()
    return repo, StandingsService(repo)


# ---------------------------------------------------------------------------- settlement


def test_r_2_7_final_score_is_points_minus_return_plus_uma_and_oka() -> None:
    # (points - 30000) / 1000 + uma 20/10/-10/-20, oka (30000 - 25000) x 4 / 1000 = +20 to first
    s = settle([40000, 30000, 20000, 10000], start_points=25000, return_points=30000, uma=(20, 10, -10, -20))
    assert s.places == (1, 2, 3, 4)
    assert s.results == (10 + 20 + 20, 0 + 10, -10 - 10, -20 - 20)
    assert sum(s.results) == 0


def test_r_2_8_equal_points_rank_by_seat_order_from_the_first_dealer() -> None:
    s = settle([20000, 30000, 30000, 20000], start_points=25000, return_points=30000, uma=(20, 10, -10, -20))
    assert s.places == (3, 1, 2, 4)  # seat 1 (South) before seat 2 (West); seat 0 before seat 3
    assert s.results == (-20.0, 40.0, 10.0, -30.0)


def test_r_2_9_leftover_sticks_go_to_first_place() -> None:
    s = settle([35000, 32000, 20000, 12000], start_points=25000, return_points=30000, uma=(20, 10, -10, -20), sticks=1)
    assert s.points == (36000, 32000, 20000, 12000)
    assert s.results[0] == 6 + 20 + 20
    none = settle([35000, 32000, 20000, 12000], start_points=25000, return_points=30000, uma=(20, 10, -10, -20), sticks=1, leftover="none")
    assert none.points == (35000, 32000, 20000, 12000)


def test_split_ties_share_their_places_uma_and_oka() -> None:
    s = settle([30000, 30000, 20000, 20000], start_points=25000, return_points=30000, uma=(20, 10, -10, -20), ties="split")
    assert s.places == (1, 1, 3, 3)
    assert s.results == (25.0, 25.0, -25.0, -25.0)  # (20+20+10)/2 and (-10-20)/2


def test_sanma_uma_and_oka() -> None:
    # Tenhou sanma: 35000 start, 40000 return, uma 15/0/-15, oka (40000-35000) x 3 / 1000 = 15
    s = settle([50000, 35000, 20000], start_points=35000, return_points=40000, uma=(15, 0, -15))
    assert s.results == (10 + 15 + 15, -5 + 0, -20 - 15)


# ---------------------------------------------------------------------------- ratings


def test_tenhou_r_worked_examples() -> None:
    # tenhou.net/man (as quoted by riichi.wiki): change = k x (base + (table average - own) / 40);
    # the worked example of a club page: R2000 at an R2000 table, 4th after 400+ games -> -6
    assert TenhouRating.change(2000, 2000, -30, 400) == pytest.approx(-6)
    # (that page's other two examples do not follow its own formula; these follow the formula)
    assert TenhouRating.change(2000, 1600, -30, 400) == pytest.approx(0.2 * (-30 - 10))
    assert TenhouRating.change(2000, 1875, -30, 400) == pytest.approx(0.2 * (-30 - 3.125))
    # k = 1 - 0.002 x games below 400 games
    assert TenhouRating.change(1500, 1500, 30, 0) == pytest.approx(30)
    assert TenhouRating.change(1500, 1500, 30, 100) == pytest.approx(24)
    # the table average includes the player's own rating: 2000 with 1500, 1500, 1400 averages 1600
    r = TenhouRating()
    from bot.standings.ratings import RatingState

    states = [RatingState(2000, 400), RatingState(1500, 400), RatingState(1500, 400), RatingState(1400, 400)]
    seats = [Seat("a", 4, 0), Seat("b", 1, 0), Seat("c", 2, 0), Seat("d", 3, 0)]
    assert r.update(states, seats)[0].rating == pytest.approx(2000 - 8)


def test_openskill_rating_follows_the_openskill_model() -> None:
    system = rating_system("openskill")
    games = [
        RatedGame(1, (Seat("a", 1, 0), Seat("b", 2, 0), Seat("c", 3, 0), Seat("d", 4, 0))),
        RatedGame(2, (Seat("b", 1, 0), Seat("a", 2, 0), Seat("e", 3, 0), Seat("c", 4, 0))),
    ]
    _, final = recompute(system, games)
    m = PlackettLuce()
    r = {k: m.rating() for k in "abcde"}
    for order in (("a", "b", "c", "d"), ("b", "a", "e", "c")):
        out = m.rate([[r[k]] for k in order], ranks=[1, 2, 3, 4])
        for k, t in zip(order, out):
            r[k] = t[0]
    for k in "abcde":
        assert final[k].mu == pytest.approx(r[k].mu) and final[k].sigma == pytest.approx(r[k].sigma)
        assert final[k].rating == pytest.approx(r[k].mu - 3 * r[k].sigma)


async def _ai_game(svc: TableService, guild: int = 1, ruleset: str = "riichi") -> int:
    t = await svc.open_table(guild_id=guild, channel_id=2, opener_id=99, opener_name="host", length="tonpuu", ruleset=ruleset)
    await svc.leave(t.id, 99)
    await svc.add_ai(t.id, 4)
    await svc.start(t.id, 99)
    assert svc.tables[t.id].game.over  # type: ignore[union-attr]
    return t.id


async def _human_game(svc: TableService, humans: list[Who], guild: int = 1) -> int:
    """A tonpuu table with members seated; they play by standing orders and the first legal move."""
    first = humans[0]
    t = await svc.open_table(guild_id=guild, channel_id=2, opener_id=first.user_id, opener_name=first.name, length="tonpuu")  # type: ignore[arg-type]
    for h in humans[1:]:
        await svc.join(t.id, h.user_id, h.name)  # type: ignore[arg-type]
    if len(humans) < 4:
        await svc.add_ai(t.id, 4 - len(humans))
    await svc.start(t.id, first.user_id)  # type: ignore[arg-type]
    table = svc.tables[t.id]
    while table.game is not None and not table.game.over:
        seat = table.humans_to_act()[0]
        a = TableService.auto_action(table.game, seat)
        await svc.act(t.id, table.seats[seat].user_id, a.text, table.decision_serial())
    return t.id


@pytest.mark.parametrize("system", ["openskill", "points", "tenhou"])
def test_incremental_ratings_equal_a_recomputation_from_the_game_list(database: str, system: str) -> None:
    async def main() -> None:
        repo, st = await _open(database)
        svc = TableService(repo)
        svc.record_game = st.record_finished  # as the bot wires it (client.py)
        season = await st.start_season(1, 10, "S", rating=system)
        await _human_game(svc, [ALICE, BOB])
        await st.add_result(1, 10, [Entry(ALICE, 40000), Entry(BOB, 30000), Entry(CAROL, 20000), Entry(DAVE, 10000)])
        await st.add_result(1, 10, [Entry(DAVE, 30000), Entry(CAROL, 30000), Entry(Who.guest("Kana"), 20000), Entry(BOB, 20000)])
        await _ai_game(svc)
        await st.add_result(1, 10, [Entry(CAROL, 50000), Entry(ALICE, 25000), Entry(BOB, 15000), Entry(DAVE, 10000)], seat_order=True)
        games = await repo.season_games(season.id)
        assert len(games) == 5 and sum(g.source == "bot" for g in games) == 2
        stored = {(g.id, p.seat): p.rating for g in games for p in g.players}
        after, final = recompute(rating_system(system), [RatedGame(g.id, tuple(Seat(p.player, p.place, p.result) for p in g.players)) for g in games])
        for g in games:
            for p, a in zip(g.players, after[g.id]):
                assert stored[(g.id, p.seat)] == pytest.approx(a.rating)
        board = {s.player: s for s in (await repo.leaderboard(season.id, "rating", limit=100))[1]}
        for key, state in final.items():
            if not key.startswith("ai:"):
                assert board[key].rating == pytest.approx(state.rating)
        # a full recomputation from the stored list changes nothing
        await st.recompute_season(season.id)
        again = await repo.season_games(season.id)
        assert {(g.id, p.seat): p.rating for g in again for p in g.players} == pytest.approx(stored)
        await repo.close()

    run(main())


# ---------------------------------------------------------------------------- play statistics


def _independent_counts(ruleset: str, options: dict, seed: str, actions: list[str], seat: int) -> dict[str, int]:  # type: ignore[type-arg]
    """Win, deal-in and riichi counts of one seat, counted here from the engine's replay."""
    rs = find_ruleset(ruleset)
    if options:
        rs = rs.with_options(**options)
    g = Game(rs, seed)
    riichi = 0
    for text in actions:
        a = Action.parse(text)
        if a.type is A.RIICHI and a.seat == seat:
            riichi += 1
        g.play(a)
    wins = sum(1 for r in g.results for w in r.wins if w.seat == seat)
    deal_ins = sum(1 for r in g.results if r.kind == "ron" and any(w.from_seat == seat for w in r.wins))
    return {"hands": len(g.results), "wins": wins, "deal_ins": deal_ins, "riichi": riichi}


def test_bot_game_win_deal_in_and_riichi_rates_equal_an_independent_replay(database: str) -> None:
    async def main() -> None:
        repo, st = await _open(database)
        svc = TableService(repo)
        svc.record_game = st.record_finished  # as the bot wires it (client.py)
        await st.start_season(1, 10, "S")
        tables = [await _human_game(svc, [ALICE, BOB]) for _ in range(2)]
        stats = await st.player_stats(1, ALICE, chart=False)
        assert stats.bot_games == 2 and stats.play is not None
        total = {"hands": 0, "wins": 0, "deal_ins": 0, "riichi": 0}
        for tid in tables:
            row = await repo.get_table(tid)
            assert row is not None
            seat = next(s.seat for s in row.seats if s.user_id == ALICE.user_id)
            actions = [a for _, a in await repo.actions(tid)]
            for k, v in _independent_counts(row.ruleset, row.options, row.seed, actions, seat).items():
                total[k] += v
        p = stats.play
        assert (p.hands, p.wins, p.deal_ins, p.riichi) == (total["hands"], total["wins"], total["deal_ins"], total["riichi"])
        rates = p.rates()
        assert rates["win_rate"] == pytest.approx(total["wins"] / total["hands"])
        assert rates["deal_in_rate"] == pytest.approx(total["deal_ins"] / total["hands"])
        assert rates["riichi_rate"] == pytest.approx(total["riichi"] / total["hands"])
        # cached per game: the second answer reads the cache
        assert len(await repo.cached_stats([g.game_id for g in await repo.player_history(1, ALICE.player)])) == 8
        assert (await st.player_stats(1, ALICE, chart=False)).play == p
        await repo.close()

    run(main())


# ---------------------------------------------------------------------------- seasons and damaged rows


def test_a_bot_game_of_another_ruleset_stays_out_of_the_season(database: str) -> None:
    async def main() -> None:
        repo, st = await _open(database)
        svc = TableService(repo)
        svc.record_game = st.record_finished  # as the bot wires it (client.py)
        season = await st.start_season(1, 10, "Tenhou rules", ruleset="tenhou")
        tid = await _ai_game(svc, ruleset="riichi")
        g = await repo.game_for_table(tid)
        assert g is not None and g.season_id is None and all(p.player.startswith("ai:") for p in g.players)
        tid = await _ai_game(svc, ruleset="tenhou")
        g = await repo.game_for_table(tid)
        assert g is not None and g.season_id == season.id
        with pytest.raises(StandingsError, match="still running"):
            await st.start_season(1, 10, "Another")
        await repo.close()

    run(main())


def test_a_hand_edited_game_row_is_reported_and_skipped(tmp_path: Path) -> None:
    async def main() -> None:
        repo, st = await _open(tmp_path)
        season = await st.start_season(1, 10, "S")
        g1 = await st.add_result(1, 10, [Entry(ALICE, 40000), Entry(BOB, 30000), Entry(CAROL, 20000), Entry(DAVE, 10000)])
        g2 = await st.add_result(1, 10, [Entry(ALICE, 10000), Entry(BOB, 20000), Entry(CAROL, 30000), Entry(DAVE, 40000)])
        def damage(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE games SET data = '{not json' WHERE id = ?", (g1.id,))
            conn.execute("UPDATE game_players SET place = 9 WHERE game_id = ? AND seat = 0", (g2.id,))

        await repo.write(damage)
        assert await repo.season_games(season.id) == []
        problems = await repo.check()
        assert any(f"games row {g1.id}" in p and "JSON" in p for p in problems), problems
        assert any(f"games row {g2.id}" in p and "impossible place" in p for p in problems), problems
        # a correction needs the game's rows: refused, naming the damage and the way out
        with pytest.raises(StandingsError, match=f"game #{g1.id} is damaged in the database .*/result void game:{g1.id}"):
            await st.edit_result(1, 10, g1.id, [Entry(ALICE, 40000), Entry(BOB, 30000), Entry(CAROL, 20000), Entry(DAVE, 10000)],
                                 organiser=True)
        # rebuilding the standings names the first damaged game and how many more there are
        with pytest.raises(StandingsError, match=f"game #{g1.id} of the season 'S' is damaged .*and 1 more"):
            await st.rebuild_season(1, 10, None, organiser=True)
        # the way out: voiding a damaged game takes it out (its rows stay, marked void); while another
        # damaged game is left the ratings wait, and the last void recomputes them
        first = await st.void_result(1, 10, g1.id, organiser=True)
        assert f"other damaged games (#{g2.id})" in first.data["not_recomputed"].sentence("en")
        assert f"他にも壊れた対局（#{g2.id}）" in first.data["not_recomputed"].sentence("ja")
        raw = sqlite3.connect(tmp_path / "standings.sqlite3")
        assert raw.execute("SELECT status, data FROM games WHERE id = ?", (g1.id,)).fetchone() == ("void", "{not json")
        raw.close()
        last = await st.void_result(1, 10, g2.id, organiser=True)
        assert "not_recomputed" not in last.data
        await st.recompute_season(season.id)
        assert (await repo.leaderboard(season.id, "points"))[0] == 0
        await repo.close()

    run(main())


def test_audit_entries_are_json_of_before_and_after(database: str) -> None:
    async def main() -> None:
        repo, st = await _open(database)
        await st.start_season(1, 10, "S")
        g = await st.add_result(1, 10, [Entry(ALICE, 40000), Entry(BOB, 30000), Entry(CAROL, 20000), Entry(DAVE, 10000)])
        await st.edit_result(1, 11, g.id, [Entry(ALICE, 10000), Entry(BOB, 30000), Entry(CAROL, 20000), Entry(DAVE, 40000)], organiser=True)
        rows = await repo.audit(1, game_id=g.id)
        assert [r.action for r in rows] == ["result add", "result edit"]
        assert [p["points"] for p in rows[1].before["players"]] == [40000, 30000, 20000, 10000]
        assert [p["points"] for p in rows[1].after["players"]] == [10000, 30000, 20000, 40000]
        assert rows[1].actor_id == 11
        stored = await fetch_one(repo.db, "SELECT before FROM audit_log WHERE action = 'result edit'")
        assert stored is not None and json.loads(stored[0])["id"] == g.id
        await repo.close()

    run(main())


def test_damage_sentences_read_in_the_reader_s_language(tmp_path: Path) -> None:
    """A damaged season or game: the refusal and the leaderboard's note are catalog sentences, in
    Japanese for a Japanese reader (the damage itself stays the row check's English, for the
    bot's host), and the English of before."""
    from bot import i18n

    async def main() -> None:
        repo, st = await _open(tmp_path)
        season = await st.start_season(1, 10, "S")
        g1 = await st.add_result(1, 10, [Entry(ALICE, 40000), Entry(BOB, 30000), Entry(CAROL, 20000), Entry(DAVE, 10000)])

        def damage_game(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE games SET data = '{not json' WHERE id = ?", (g1.id,))

        await repo.write(damage_game)
        with pytest.raises(StandingsError) as got:
            await st.edit_result(1, 10, g1.id, [Entry(ALICE, 40000), Entry(BOB, 30000), Entry(CAROL, 20000), Entry(DAVE, 10000)],
                                 organiser=True)
        e = got.value
        assert e.sentence("en").startswith(f"game #{g1.id} is damaged in the database (") and e.sentence("en") == str(e) + "."
        assert e.sentence("ja") == i18n.t("ja", e.msgid, **e.kw) + "。" and "壊れています" in e.sentence("ja")
        assert f"/result void game:{g1.id}" in e.sentence("ja")

        def damage_season(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE seasons SET uma = 'x' WHERE id = ?", (season.id,))

        await repo.write(damage_season)
        st2 = StandingsService(repo)  # reads the season afresh, damage and all
        with pytest.raises(StandingsError) as got:
            await st2.add_result(1, 10, [Entry(ALICE, 40000), Entry(BOB, 30000), Entry(CAROL, 20000), Entry(DAVE, 10000)])
        e = got.value
        assert e.sentence("en").startswith("adding this result is not possible: the season 'S' is damaged in the database (")
        ja = e.sentence("ja")
        assert ja.startswith("この結果の追加はできません") and "シーズン「S」" in ja and "/season end" in ja
        page = await st2.leaderboard(1, None, "points")
        assert page.text("ja").count("壊れています") == 1 and "damaged in the database" in page.text("en")
        await repo.close()

    run(main())

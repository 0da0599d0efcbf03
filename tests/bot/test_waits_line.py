"""Waits at a glance (issue 21): a tenpai player's hand message names the engine's waits and how many
of each that player has not seen, never reading another player's concealed tiles; a per-seat option
(``/table auto what:waits``), stored in ``seats.show_waits``."""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from bot.ai.policy import smart
from bot.render.names import kind_label
from bot.render.waits import waits_line
from bot.storage.repository import Repository, SeatRow, TableRow
from bot.tables import Table
from bot.views.hand import hand_text
from engine.rules import find_ruleset
from engine.table.actions import Action, ActionType
from engine.table.game import Game
from engine.tiles import kind_of
from tests.engine.scripted import play, scripted_game

RIICHI = find_ruleset("riichi")
DEALER = "158m147p147s3456z"  # holds one 1m, discards it first
WAITING = "23m456p789s11122z"  # seat 1: 23m waits on 1m and 4m (East triplet, South pair)
SEAT2 = "114m258p369s3457z"  # two 1m and a 4m, concealed
SEAT3 = "44m369p258s34567z"  # two 4m, concealed


def _after_dealer_discard(seat2: str = SEAT2, seat3: str = SEAT3, dora: str = "4m") -> Game:
    g = scripted_game(RIICHI, [DEALER, WAITING, seat2, seat3], "9m", dora=dora)
    play(g, "0d1m")  # seat 1 may ron or chi it now: a call window, 13 tiles in hand
    return g


def _hand_text(g: Game, seat: int, *, show_waits: bool) -> str:
    seats = [SeatRow(s, 100 + s, None, f"P{s}", show_waits=show_waits) for s in range(g.players)]
    row = TableRow(1, None, 10, None, 100, g.ruleset.name, {}, "seed", "live", 30, 60, 24, "auto", "playing", None, 0.0, seats)
    return hand_text(Table(row=row, game=g), seat)


def test_the_line_names_the_waits_and_the_copies_the_player_cannot_see() -> None:
    # 1m: 4 copies, one in the dealer's river; 4m: 4 copies, one the dora indicator. Seat 2 holds a
    # 1m and a 4m and seat 3 two 4m, concealed: they count as unseen
    g = _after_dealer_discard()
    assert set(g.seats[1].waits) == {0, 3}
    assert waits_line(g, 1) == "Waiting on 1m (3 left), 4m (3 left)"


def test_a_called_tile_counts_once_and_a_wait_all_in_view_has_none_left() -> None:
    # seat 2 pons the dealer's 1m and discards its 4m, which seat 3 pons: 1m has three copies in
    # view (the called one lies in a river and in a meld), 4m all four (indicator, river + pon)
    g = _after_dealer_discard()
    play(g, "1x", "2p11m", "2d4m", "3p44m", "3d3z")
    assert sum(g.seats[1].counts) == 13
    assert waits_line(g, 1) == "Waiting on 1m (1 left), 4m (none left)"


def test_a_red_five_counts_as_a_five() -> None:
    g = scripted_game(RIICHI, ["0p58m147p147s3456z", "123m34p789s11122z", None, None], "9m")
    play(g, "0d0p")  # the dealer's red 5p
    assert waits_line(g, 1) == "Waiting on 2p (4 left), 5p (3 left)"


def test_the_line_never_depends_on_the_other_players_concealed_tiles() -> None:
    # the same table in view, other concealed hands (no 1m, no 4m) and so another wall
    other = _after_dealer_discard(seat2="69m258p369s34567z", seat3="77m369p258s34567z")
    assert other.seats[1].tiles == _after_dealer_discard().seats[1].tiles
    assert other.seats[2].counts != _after_dealer_discard().seats[2].counts
    assert waits_line(other, 1) == waits_line(_after_dealer_discard(), 1) == "Waiting on 1m (3 left), 4m (3 left)"
    # what the player does see changes it: another dora indicator leaves all four 4m unseen
    assert waits_line(_after_dealer_discard(dora="9p"), 1) == "Waiting on 1m (3 left), 4m (4 left)"


def test_no_line_for_a_hand_that_is_not_tenpai_or_holds_a_tile_to_discard() -> None:
    g = scripted_game(RIICHI, [DEALER, WAITING, SEAT2, SEAT3], "9m", dora="4m")
    assert not g.seats[0].waits and waits_line(g, 0) is None  # far from tenpai
    g = scripted_game(RIICHI, [WAITING, DEALER, SEAT2, SEAT3], "9m", dora="4m")
    assert g.seats[0].waits and sum(g.seats[0].counts) == 14
    assert waits_line(g, 0) is None  # the dealer's turn: it discards first


@pytest.mark.parametrize("rs_name", ["riichi", "sanma", "taiwan16", "chinitsu_toutenkou", "seigou", "shoukou", "pk"])
def test_every_ruleset_names_its_own_wait_set_and_counts_hidden_copies_as_unseen(rs_name: str) -> None:
    """Self-play: whenever a seat holds a tenpai hand between its turns, the line names exactly the
    engine's wait set, and each count is at least the copies in the other seats' concealed hands
    (hidden from the player) and at most the copies outside the player's own hand."""
    lines = 0
    for seed in range(3):
        g = Game(find_ruleset(rs_name), seed=seed)
        total = Counter(kind_of(c) for c in g.codes if c >= 0)
        rng = random.Random(seed)
        for _ in range(400):
            if g.over:
                break
            for s in range(g.players):
                line = waits_line(g, s)
                st = g.seats[s]
                if st.waits and sum(st.counts) % 3 == 1 and g.current != s:
                    assert line is not None
                if line is None:
                    continue
                lines += 1
                named = re.findall(r"(\w+) \((\d+|none) left\)", line.removeprefix("Waiting on "))
                assert [k for k, _ in named] == [kind_label(k) for k in sorted(set(st.waits))], line
                for k, (_, n) in zip(sorted(set(st.waits)), named):
                    hidden = sum(g.seats[o].counts[k] for o in range(g.players) if o != s) - sum(
                        kind_of(c) == k for o in range(g.players) if o != s for c in g.ruleset.shown_tiles(g, o)
                    )
                    assert hidden <= (0 if n == "none" else int(n)) <= total[k] - st.counts[k], (line, k)
            g.apply(smart(g, g.to_act()[0], rng))
    assert lines > 0


def test_the_hand_message_shows_the_line_only_with_the_option_on() -> None:
    g = _after_dealer_discard()
    on, off = _hand_text(g, 1, show_waits=True), _hand_text(g, 1, show_waits=False)
    assert "Waiting on 1m (3 left), 4m (3 left)" in on.splitlines()
    assert "Waiting on" not in off
    assert on.replace("\nWaiting on 1m (3 left), 4m (3 left)", "") == off  # nothing else changes
    # between turns too (the hand message after the player's own discard)
    g = _after_dealer_discard()
    play(g, "1x", "2x")
    assert g.current == 1 and "Waiting on" not in _hand_text(g, 1, show_waits=True)  # 14 tiles: a discard to choose
    g.play(Action(ActionType.DISCARD, 1, g.code(g.drawn)))
    assert 1 not in g.to_act() and "Waiting on" in _hand_text(g, 1, show_waits=True)
    assert "Waiting on" not in _hand_text(g, 0, show_waits=True)  # the dealer is not tenpai


def test_the_option_is_stored_per_seat(tmp_path: Path) -> None:
    async def main() -> None:
        repo = Repository(tmp_path / "t.sqlite3")
        await repo.open()
        try:
            table_id = await repo.create_table(
                guild_id=1, channel_id=2, thread_id=None, opener_id=3, ruleset="riichi", options={}, seed="s",
                mode="live", turn_seconds=30, bank_seconds=60, async_hours=24, on_expiry="auto",
            )
            await repo.put_seats(table_id, [SeatRow(0, 3, None, "Alice", show_waits=True), SeatRow(1, None, "smart", "AI 1")])
            assert [s.show_waits for s in await repo.get_seats(table_id)] == [True, False]
            await repo.set_seat(table_id, 0, show_waits=False)
            assert [s.show_waits for s in await repo.get_seats(table_id)] == [False, False]
        finally:
            await repo.close()

    asyncio.run(main())


def test_table_auto_waits_shows_the_line_in_the_dm_through_discord(tmp_path: Path) -> None:
    """End to end over the local Discord server: a new seat shows its waits (the default chosen for
    seats taken from schema version 8 on); ``/table auto what:waits on:false`` re-shows the DM hand
    without the line and ``on:true`` with it. The dealt hand is the service's seeded one, so once
    it is alice's decision her table is given a scripted tenpai deal (the presenter reads
    ``t.game``; nothing is played on it)."""
    from tests.bot.harness import club

    async def main() -> None:
        async with club(tmp_path) as c:
            uid = c.users["alice"].id
            await c.slash("alice", "table open", {"length": "tonpuu"})
            await c.slash("alice", "table add-ai", {"seats": 3})
            rec = await c.slash("alice", "table auto", {"what": "waits", "on": False})  # before the start
            assert c.replies(rec) == ["table #1 has not started yet"]
            await c.slash("alice", "table start", {})
            svc = c.bot.service
            t = await c.started()
            seat = t.seat_of(uid)
            assert seat is not None and t.seats[seat].show_waits  # on for a new seat
            # her decision, and the start stored: the hand DM is sent only once the start is written
            await c.server.wait_for(lambda: t.game is not None and seat in t.game.to_act() and any("Your hand" in (m.content or "") for m in c.server.dms(uid)), timeout=30)
            assert t.game is not None
            hands: list[str | None] = [None] * t.game.players
            hands[seat] = WAITING
            g = scripted_game(RIICHI, hands, "9m", dora="9p")
            if seat == g.dealer:  # the dealer discards its draw first: 13 tiles, between turns
                play(g, f"{seat}d9m")
            t.game = g

            def dm_text() -> str:
                return "\n".join(m.content or "" for m in c.server.dms(uid)[-1:])

            rec = await c.slash("alice", "table auto", {"what": "waits", "on": False})
            assert any("Waits at a glance are now off" in m for m in c.replies(rec)), c.replies(rec)
            await c.server.wait_for(lambda: "Your hand" in dm_text() and "Waiting on" not in dm_text(), timeout=10)
            rec = await c.slash("alice", "table auto", {"what": "waits", "on": True})
            assert any("Waits at a glance are now on" in m for m in c.replies(rec)), c.replies(rec)
            await c.server.wait_for(lambda: "Waiting on 1m (4 left), 4m (4 left)" in dm_text().splitlines(), timeout=10)
            assert [s.show_waits for s in await svc.repo.get_seats(1)][seat] is True

    asyncio.run(main())

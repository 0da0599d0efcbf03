"""One name and one order for a tile: buttons follow the hand picture and name tiles as the
picture, the texts and ``/score`` do; two-tap discards for players who want them."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PIL import ImageChops

from bot.ai.policy import smart
from bot.presenter import Presenter, action_label, describe, tile_label
from bot.render import tiles as render_tiles
from bot.render.names import HONOR_NAMES, kind_label, picture_order, tile_name, tiles_text
from bot.storage.repository import Repository, SeatRow, TableRow
from bot.tables import Table
from cogs.play import ConfirmDiscard, hand_view
from engine.rules import find_ruleset
from engine.table.actions import Action, ActionType
from engine.table.game import Game
from engine.tiles import HONOR_BASE, RED, parse_tiles

A = ActionType
NAMES = ["Alice", "Bob", "Carol", "Dan"]
# the engine's notation must never reach a player: honours as 1z..7z, red fives as 0m, a "*" mark
ENGINE_NOTATION = re.compile(r"\b[1-7]z\b|\b0[mps]\b|\d[mps]\*")
VALID_NAMES = {tile_name(c) for c in [*range(42), 4 | RED, 13 | RED, 22 | RED]}


def _table(g: Game, *, confirm: bool = False) -> Table:
    seats = [SeatRow(s, 100 + s, None, NAMES[s], confirm_discard=confirm) for s in range(g.players)]
    row = TableRow(1, None, 10, None, 100, g.ruleset.name, {}, "seed", "live", 30, 60, 24, "auto", "playing", None, 0.0, seats)
    return Table(row=row, game=g)


def _buttons(view: Any) -> list[tuple[str, Action | None, str]]:
    """(custom_id prefix, the action it plays or None, label) of each button, in the view's order."""
    out = []
    for item in view.children:
        button = getattr(item, "item", item)  # a DynamicItem wraps its button
        prefix, _, rest = button.custom_id.partition(":")
        act = Action.parse(rest.split(":", 2)[2]) if prefix in ("mj", "mjw") else None
        out.append((prefix, act, button.label))
    return out


# --- the names ------------------------------------------------------------------------------------------


def test_tile_names_are_the_picture_letters_and_red_fives_are_marked() -> None:
    assert [tile_name(c) for c in parse_tiles("1m9p5s1234567z")] == ["1m", "9p", "5s", "E", "S", "W", "N", "Wh", "Gr", "Rd"]
    assert [tile_name(c) for c in parse_tiles("0m0p0s")] == ["red 5m", "red 5p", "red 5s"]
    assert tile_name(parse_tiles("3f", allow_flowers=True)[0]) == "3f"
    assert len(VALID_NAMES) == 45  # every kind and the three red fives: 45 different names
    assert tile_label(parse_tiles("6z")[0]) == "Gr"
    assert action_label(Action.parse("0p66z")) == "Pon Gr Gr"
    assert action_label(Action.parse("1a5z")) == "Kan Wh"
    assert action_label(Action.parse("2d0p")) == "red 5p"


def test_honour_faces_are_drawn_from_the_same_names() -> None:
    """The picture's letters are the names' letters: drawing a face with other names changes it."""
    before = render_tiles._draw_face(HONOR_BASE + 5)
    try:
        render_tiles.HONOR_NAMES = ("X", "X", "X", "X", "X", "X", "X")  # type: ignore[assignment]
        other = render_tiles._draw_face(HONOR_BASE + 5)
    finally:
        render_tiles.HONOR_NAMES = HONOR_NAMES
    assert ImageChops.difference(before.convert("RGB"), other.convert("RGB")).getbbox() is not None
    assert render_tiles.HONOR_NAMES[5] == kind_label(HONOR_BASE + 5) == "Gr"


def test_picture_order_sorts_the_hand_and_keeps_the_drawn_tile_last() -> None:
    hand = parse_tiles("6s1m3p8s9s9p1z8m5p")
    assert [tile_name(c) for c in picture_order(hand, parse_tiles("2m")[0])] == ["1m", "8m", "3p", "5p", "9p", "6s", "8s", "9s", "E", "2m"]
    # a drawn tile already in the hand keeps its place; a red five after the plain one
    assert [tile_name(c) for c in picture_order(parse_tiles("55m0m"), parse_tiles("5m")[0])] == ["5m", "red 5m"]


def test_shanten_text_names_honours_as_the_pictures_do() -> None:
    """/shanten's text: waits, ukeire and discards with the faces' letters, never ``1z``."""
    from bot.lookups import shanten_of

    tenpai = shanten_of("123m456p789s11z55z")  # a shanpon wait on East and White
    assert "waits: E Wh" in tenpai.lines
    assert "ukeire: 2 kinds, 4 tiles — E×2 Wh×2" in tenpai.lines
    discard = shanten_of("123m456p789s11z557z")  # only the Red dragon goes
    assert "discard **Rd** → tenpai, 2 kinds, 4 tiles: E×2 Wh×2" in discard.lines
    for ans in (tenpai, discard, shanten_of("1223m4579p1368s15z"), shanten_of("119m19p19s1234567z")):
        for line in [ans.title, *ans.lines]:
            assert not ENGINE_NOTATION.search(line.replace("**", "")), line  # bold, not a tile's "*" mark


# --- every decision of self-play: buttons against the picture ------------------------------------------


def _check_decision(t: Table, seat: int) -> int:
    g = t.game
    assert g is not None
    (tiles, melds, drawn), _ = Presenter.hand_args(None, t, seat)  # type: ignore[arg-type]  # the picture's arguments
    buttons = _buttons(hand_view(t, seat))
    discards = [(a, label) for _, a, label in buttons if a is not None and a.type is A.DISCARD]
    codes = [a.tile for a, _ in discards]
    assert codes == [c for c in picture_order(tiles, drawn) if c in set(codes)], (codes, tiles, drawn)
    for a, label in discards:
        assert label.removeprefix("⚠ ") == tile_name(a.tile)
    for _, a, label in buttons:
        assert not ENGINE_NOTATION.search(label), label
        if a is not None and a.type in (A.CHI, A.PON):
            assert tiles_text(a.tiles) in label, (a, label)
        if a is not None and a.type in (A.ANKAN, A.KAKAN):
            assert label.split(" (")[0].split()[-1] == kind_label(a.tile), (a, label)
    return len(discards)


@pytest.mark.parametrize("rs_name", ["riichi", "sanma", "taiwan16", "chinitsu_toutenkou", "seigou", "shoukou", "pk"])
def test_buttons_follow_the_hand_picture_over_every_decision_of_self_play(rs_name: str) -> None:
    """Every decision of self-play (a few hundred per ruleset): the discard buttons come in the
    order of the tiles in the hand picture, each named as the picture names it; no label or
    text shows engine notation; the text of each action names its tile the same way."""
    decisions = turns = 0
    for seed in range(11, 20):
        g = Game(find_ruleset(rs_name), seed=seed)
        rng = random.Random(seed)
        t = _table(g)
        while not g.over and decisions < 300:
            acting = g.to_act()
            for s in acting:
                turns += _check_decision(t, s) > 0
                decisions += 1
            a = smart(g, acting[0], rng)
            text = describe(g, t, a)
            assert not ENGINE_NOTATION.search(text), text
            if a.type in (A.DISCARD, A.RIICHI):
                assert text.endswith(tile_name(a.tile)), text
            g.apply(a)
    assert decisions >= 300 and turns >= 100, (decisions, turns)


def test_riichi_chooser_offers_its_discards_in_the_order_of_the_hand_picture() -> None:
    from cogs.play import RiichiChooser

    g = Game(find_ruleset("riichi"), seed=5)
    rng = random.Random(5)
    while sum(a.type is A.RIICHI for s in g.to_act() for a in g.legal_actions(s)) < 3:  # a choice of discards
        g.apply(smart(g, g.to_act()[0], rng))
    seat = g.to_act()[0]
    t = _table(g)
    sent: list[Any] = []

    async def get(_: int) -> Table:
        return t

    async def send_message(text: str, *, view: Any = None, ephemeral: bool = False) -> None:
        sent.append(view)

    async def main() -> None:
        me = SimpleNamespace(
            client=SimpleNamespace(service=SimpleNamespace(get=get)),
            user=SimpleNamespace(id=100 + seat),
            response=SimpleNamespace(send_message=send_message, is_done=lambda: False),
        )
        await RiichiChooser(t.id, t.decision_serial(), seat).callback(me)  # type: ignore[arg-type]

    asyncio.run(main())
    (tiles, _, drawn), _ = Presenter.hand_args(None, t, seat)  # type: ignore[arg-type]
    offered = [(a.tile, label) for _, a, label in _buttons(sent[0]) if a is not None]
    codes = [c for c, _ in offered]
    assert len(codes) >= 3 and codes == [c for c in picture_order(tiles, drawn) if c in set(codes)]
    assert all(label == f"Riichi {tile_name(c)}" for c, label in offered)


# --- two-tap discards ------------------------------------------------------------------------------------


def _turn_game() -> Game:
    g = Game(find_ruleset("riichi"), seed=3)
    assert g.to_act() == [g.current]
    return g


def test_two_tap_discards_turn_every_discard_button_into_a_question() -> None:
    g = _turn_game()
    seat = g.current
    plain = _buttons(hand_view(_table(g), seat))
    asked = _buttons(hand_view(_table(g, confirm=True), seat))
    discards = [b for b in plain if b[1] is not None and b[1].type is A.DISCARD]
    assert discards and all(prefix == "mj" for prefix, _, _ in discards)
    asked_discards = [b for b in asked if b[1] is not None and b[1].type is A.DISCARD]
    assert [(a, label) for _, a, label in asked_discards] == [(a, label) for _, a, label in discards]  # same order, names
    assert all(prefix == "mjw" for prefix, _, _ in asked_discards)
    others = [b for b in asked if b[1] is None or b[1].type is not A.DISCARD]
    assert all(prefix != "mjw" for prefix, _, _ in others)  # only discards ask


def test_two_tap_discard_asks_discard_5m_and_offers_the_real_discard() -> None:
    g = _turn_game()
    seat = g.current
    t = _table(g, confirm=True)
    a = next(a for a in g.legal_actions(seat) if a.type is A.DISCARD)
    sent: list[tuple[str, Any]] = []

    async def get(_: int) -> Table:
        return t

    async def send_message(text: str, *, view: Any = None, ephemeral: bool = False) -> None:
        assert ephemeral
        sent.append((text, view))

    async def main() -> None:
        button = ConfirmDiscard(t.id, t.decision_serial(), a.text, label=tile_label(a.tile))
        response = SimpleNamespace(send_message=send_message, is_done=lambda: False)
        me = SimpleNamespace(client=SimpleNamespace(service=SimpleNamespace(get=get)), user=SimpleNamespace(id=100 + seat), response=response)
        await button.callback(me)  # type: ignore[arg-type]
        stranger = SimpleNamespace(client=me.client, user=SimpleNamespace(id=999), response=response)
        await button.callback(stranger)  # type: ignore[arg-type]

    asyncio.run(main())
    (question, view), (refusal, _) = sent
    assert question == f"Discard {tile_name(a.tile)}?"
    [confirm] = [getattr(item, "item", item) for item in view.children]
    assert confirm.custom_id == f"mj:{t.id}:{t.decision_serial()}:{a.text}" and confirm.label == f"Discard {tile_name(a.tile)}"
    assert refusal == "that is another player's hand"
    assert g.to_act() == [seat] and not g.actions  # asking plays nothing


def test_two_tap_option_is_stored_on_the_seat(tmp_path: Path) -> None:
    async def main() -> None:
        repo = Repository(tmp_path / "t.sqlite3")
        await repo.open()
        try:
            table_id = await repo.create_table(
                guild_id=1, channel_id=2, thread_id=None, opener_id=3, ruleset="riichi", options={}, seed="s",
                mode="live", turn_seconds=30, bank_seconds=60, async_hours=24, on_expiry="auto",
            )
            await repo.put_seats(table_id, [SeatRow(0, 3, None, "Alice"), SeatRow(1, None, "smart", "AI 1")])
            assert [s.confirm_discard for s in await repo.get_seats(table_id)] == [False, False]
            await repo.set_seat(table_id, 0, confirm_discard=True)
            assert [s.confirm_discard for s in await repo.get_seats(table_id)] == [True, False]
        finally:
            await repo.close()

    asyncio.run(main())


def test_two_tap_discards_through_discord(tmp_path: Path) -> None:
    """End to end over the local Discord server: /table auto what:confirm-discard on:true; the next
    discard buttons ask "Discard 5m?" (ephemeral) and only the second tap discards; off again, a
    discard button discards at once. The DM's discard buttons follow the hand picture's order."""
    from tests.bot.harness import club

    async def main() -> None:
        async with club(tmp_path) as c:
            uid = c.users["alice"].id
            await c.slash("alice", "table open", {"length": "tonpuu"})
            await c.slash("alice", "table add-ai", {"seats": 3})
            await c.slash("alice", "table start", {})
            await c.started()
            rec = await c.slash("alice", "table auto", {"what": "confirm-discard", "on": True})
            assert any("Two-tap discards are now on" in m for m in c.replies(rec)), c.replies(rec)
            t = c.bot.service.tables[1]
            assert t.seats[t.seat_of(uid)].confirm_discard  # type: ignore[index]

            def my_discards() -> tuple[int, list[tuple[str, str]]] | None:
                g = t.game
                if g is None or g.over or g.current != t.seat_of(uid) or uid not in [t.seats[s].user_id for s in g.to_act()]:
                    return None
                serial = t.decision_serial()
                for m in reversed(c.server.dms(uid)):
                    found = [(b.get("custom_id", ""), b.get("label", "")) for b in m.buttons()]
                    mine = [(i, lab) for i, lab in found if i.split(":")[1:3] == ["1", str(serial)] and "d" in i.split(":")[3][:2]]
                    if mine:
                        return m.id, mine
                return None

            async def next_turn(two_tap: bool = False) -> tuple[int, list[tuple[str, str]]]:
                """Alice's next turn (her call offers passed on the way). With two_tap, the turn once
                its DM shows the two-tap buttons: /table auto answers first and then re-shows a hand
                already on screen, so the edit may land a moment after the answer."""
                for _ in range(600):
                    found = my_discards()
                    if found and (not two_tap or all(i.startswith("mjw:") for i, _ in found[1])):
                        return found
                    mid, live = c.live_buttons("alice")
                    passes = [i for i in live if i.endswith("x")]
                    if passes:
                        rec = await c.server.click(uid, mid, passes[0])
                        await rec.response()
                    await asyncio.sleep(0.05)
                raise AssertionError("alice's turn did not come")

            mid, buttons = await next_turn(two_tap=True)
            assert buttons and all(i.startswith("mjw:") for i, _ in buttons), buttons
            seat = t.seat_of(uid)
            assert seat is not None
            (tiles, _, drawn), _ = Presenter.hand_args(None, t, seat)  # type: ignore[arg-type]
            assert [lab for _, lab in buttons] == [tile_name(x) for x in picture_order(tiles, drawn) if tile_name(x) in {lab for _, lab in buttons}]
            cid, label = buttons[0]
            serial = t.decision_serial()
            click = await c.server.click(uid, mid, cid)
            await click.response()
            asks = await c.server.wait_for(
                lambda: [m for m in c.server.ephemeral(uid) if m.interaction_id == click.id and m.buttons()], timeout=10
            )
            assert asks[0].content == f"Discard {label}?"
            assert t.decision_serial() == serial  # the first tap discards nothing
            [confirm] = asks[0].buttons()
            assert confirm["label"] == f"Discard {label}" and confirm["custom_id"] == "mj:" + cid.split(":", 1)[1]
            # turned off before the second tap: from the next turn on, a discard button plays at once
            await c.slash("alice", "table auto", {"what": "confirm-discard", "on": False})
            second = await c.server.click(uid, asks[0].id, confirm["custom_id"])
            await second.response()
            await c.server.wait_for(lambda: t.decision_serial() != serial, timeout=10)
            g = t.game
            assert g is not None and any(a.seat == seat and a.text == cid.split(":")[3] for a in g.actions)
            _, buttons = await next_turn()
            assert all(i.startswith("mj:") for i, _ in buttons), buttons

    asyncio.run(main())

"""One owner answers a click (bot.views.hands.HandClick): while a click is under way, the updates
leave the clicker's hand message to it (so the clicked message is never also edited on the way,
at the price of a bot-token request); an update that came after the hand the click showed was
taken goes out the usual way as the click ends, and nothing is kept once it has."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from bot.storage.repository import SeatRow, TableRow
from bot.tables import Table
from bot.views.hands import HandMessages
from bot.views.readers import Readers
from engine.rules import find_ruleset
from engine.table.game import Game


def _table() -> Table:
    g = Game(find_ruleset("riichi"), seed=3)
    seats = [SeatRow(s, 100 + s, None, f"P{s}") for s in range(g.players)]
    row = TableRow(1, None, 10, None, 100, g.ruleset.name, {}, "seed", "live", 30, 60, 24, "auto", "playing", None, 0.0, seats)
    return Table(row=row, game=g)


def _hands(t: Table) -> tuple[HandMessages, list[int]]:
    service: Any = SimpleNamespace(tables={t.id: t})
    hands = HandMessages(service, SimpleNamespace(), SimpleNamespace(), Readers(), SimpleNamespace())  # type: ignore[arg-type]
    sent: list[int] = []

    async def send_seat(t: Table, s: int, had_buttons: bool) -> None:  # what the usual way would send
        sent.append(s)

    hands._send_seat = send_seat  # type: ignore[method-assign]
    return hands, sent


def _click(user_id: int) -> Any:
    response = SimpleNamespace(is_done=lambda: True)
    return SimpleNamespace(id=1, user=SimpleNamespace(id=user_id), message=None, response=response)


def test_an_update_during_a_click_leaves_the_clickers_hand_to_the_click() -> None:
    t = _table()
    dealer = t.game.to_act()[0]  # type: ignore[union-attr]

    async def main() -> None:
        hands, sent = _hands(t)
        click = hands.click(t.id, _click(100 + dealer))
        with click:
            hands.due(t)  # the click's own update: the dealer acts, so their hand is due
            await asyncio.sleep(0)
            assert sent == []  # left to the click, whose answer shows it
            click.taken()  # the hand the click shows is taken after that update
        click.answer.close()
        await asyncio.sleep(0)
        assert sent == []  # nothing owed: the click showed the newest state
        assert not hands._clicks and not hands._skipped

    asyncio.run(main())


def test_an_update_after_the_clicks_hand_was_taken_goes_out_as_the_click_ends() -> None:
    t = _table()
    dealer = t.game.to_act()[0]  # type: ignore[union-attr]

    async def main() -> None:
        hands, sent = _hands(t)
        click = hands.click(t.id, _click(100 + dealer))
        with click:
            click.taken()
            hands.due(t)  # another update came while the click's answer was on its way
            await asyncio.sleep(0)
            assert sent == []
        click.answer.close()
        await asyncio.sleep(0)
        assert sent == [dealer]  # the newest state goes out the usual way
        assert not hands._clicks and not hands._skipped

    asyncio.run(main())


def test_a_click_by_someone_not_seated_leaves_every_hand_to_the_updates() -> None:
    t = _table()
    dealer = t.game.to_act()[0]  # type: ignore[union-attr]

    async def main() -> None:
        hands, sent = _hands(t)
        click = hands.click(t.id, _click(999))
        with click:
            hands.due(t)
            await asyncio.sleep(0)
        click.answer.close()
        assert sent == [dealer]

    asyncio.run(main())

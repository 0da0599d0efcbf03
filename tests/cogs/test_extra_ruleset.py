"""A ruleset defined in the tests plays through Discord end to end (issue 18 §1).

:mod:`tests.cogs.extra_ruleset` is riichi with one changed rule (a game is a sprint of a few hands)
and its own words. Registered for this test only, it is offered by ``/table open`` with its own
lengths, played to the end by one human and three AI seats, and what the players read is in its
words — although no line of bot/ or cogs/ names it: the bot asks the ruleset.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from engine.rules.base import ruleset_names
from engine.table.game import Game
from tests.bot.harness import club, play_out
from tests.cogs.extra_ruleset import NAME, registered

ROOT = Path(__file__).resolve().parents[2]


def test_no_line_of_the_bot_names_the_extra_ruleset() -> None:
    files = [p for d in ("bot", "cogs") for p in (ROOT / d).rglob("*") if p.suffix in (".py", ".md")]
    assert files and not [p for p in files if NAME in p.read_text(encoding="utf-8")]


def test_a_ruleset_of_the_tests_plays_through_discord_in_its_own_words(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path, time_scale=10) as c:
            async def complete(options: dict[str, str], focused: str) -> list[tuple[str, str]]:
                rec = await c.server.autocomplete(c.users["alice"].id, c.guild_id, c.channel_id, "table open", options, focused)
                await rec.response()
                return [(ch["name"], ch["value"]) for ch in rec.choices or []]

            # offered by /table open, after the rulesets the bot ships, with its own lengths
            offered = [v for _, v in await complete({"ruleset": ""}, "ruleset")]
            assert offered[-1] == NAME and "riichi" in offered
            assert await complete({"ruleset": NAME, "length": ""}, "length") == [
                ("a one-hand sprint", "1-hand"),
                ("a two-hand sprint", "2-hand"),
                ("a three-hand sprint", "3-hand"),
            ]
            rec = await c.slash("alice", "table open", {"ruleset": NAME, "length": "1-hand"})
            assert any(f"({NAME}, a 1-hand sprint, live)" in x for x in c.replies(rec)), c.replies(rec)
            await c.slash("alice", "table add-ai", {"seats": 3})
            await c.slash("alice", "table start", {})
            await play_out(c, ["alice"])
            await c.server.wait_for(lambda: any("final standings" in m.content for m in c.server.messages(c.channel_id)), timeout=20)

            t = c.bot.service.tables[1]
            g = t.game
            assert g is not None and g.over and t.row.ruleset == NAME and t.row.options == {}
            # the changed rule: the game ended after its one hand, where riichi's tonpuu goes on
            # to East 4 (nobody went below zero, so no tobi ended it)
            assert len(g.results) == 1 and min(g.scores) >= 0
            replay = Game.from_dict({"ruleset": NAME, "options": t.row.options, "seed": t.row.seed, "actions": " ".join(a.text for a in g.actions)})
            assert replay.over and replay.final_scores == g.final_scores
            # its own words, in what the players received: the final standings in its unit (no
            # uma), and alice's own hand message
            final = next(m.content for m in c.server.messages(c.channel_id) if "final standings" in m.content)
            for s in range(4):
                assert f"{t.seats[s].name}: {g.final_scores[s]} marbles" in final
            place = g.ranking().index(t.seat_of(c.users["alice"].id) or 0) + 1
            def mine() -> str:
                return " ".join(m.content for m in c.server.dms(c.users["alice"].id))

            # her hand message tells the end after the channel's standings (a separate send)
            await c.server.wait_for(lambda: f"you placed {place}" in mine() or None, timeout=20, what="alice's final hand message")
            assert "marbles.**" in mine()

    with registered():
        assert NAME in ruleset_names()
        asyncio.run(main())
    assert NAME not in ruleset_names()

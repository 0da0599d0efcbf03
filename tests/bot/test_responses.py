"""bot.responses.FirstResponses: work waits while an interaction waits for its first answer."""

from __future__ import annotations

import asyncio

from bot.responses import FirstResponses


class _Response:
    def __init__(self) -> None:
        self.done = False

    def is_done(self) -> bool:
        return self.done


class _Interaction:
    def __init__(self, id: int) -> None:
        self.id = id
        self.response = _Response()


def test_nothing_pending_means_no_wait() -> None:
    async def main() -> None:
        r = FirstResponses()
        await asyncio.wait_for(r.settled(), 0.01)
        assert r.waits == 0

    asyncio.run(main())


def test_work_starts_after_the_last_pending_answer_in_call_order() -> None:
    async def main() -> None:
        r = FirstResponses(limit=5.0)
        a, b = _Interaction(1), _Interaction(2)
        r.arrived(a)
        r.arrived(b)
        order: list[str] = []

        async def work(name: str) -> None:
            await r.settled()
            order.append(name)

        first = asyncio.create_task(work("first"))
        second = asyncio.create_task(work("second"))
        await asyncio.sleep(0.01)
        assert order == []  # both interactions still wait for their first answer
        r.answered(a)
        await asyncio.sleep(0.01)
        assert order == []
        r.answered(b)  # the last answer: the waiting work goes on, first caller first
        late = asyncio.create_task(work("late"))  # came after: queues behind the others
        await asyncio.gather(first, second, late)
        assert order == ["first", "second", "late"]
        assert r.waits == 3

    asyncio.run(main())


def test_an_answer_it_was_not_told_about_is_found() -> None:
    async def main() -> None:
        r = FirstResponses(limit=5.0, recheck=0.01)
        a = _Interaction(1)
        r.arrived(a)
        task = asyncio.create_task(r.settled())
        await asyncio.sleep(0.03)
        assert not task.done()
        a.response.done = True  # answered by a callback that does not call answered()
        await asyncio.wait_for(task, 1)
        assert len(r) == 0

    asyncio.run(main())


def test_the_wait_is_bounded() -> None:
    async def main() -> None:
        r = FirstResponses(limit=0.05, recheck=0.01)
        r.arrived(_Interaction(1))  # never answered
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        await asyncio.wait_for(r.settled(), 1)
        assert 0.04 <= loop.time() - t0 < 0.5
        assert len(r) == 1  # still pending: only Discord's 3 s window forgets it

    asyncio.run(main())


def test_the_bot_notes_commands_and_its_table_buttons_as_they_arrive(tmp_path: object) -> None:
    from pathlib import Path

    import discord

    from bot.client import JantakuBot
    from bot.config import Settings

    class Arrived(_Interaction):
        def __init__(self, id: int, type: discord.InteractionType, custom_id: str = "") -> None:
            super().__init__(id)
            self.type = type
            self.data = {"custom_id": custom_id} if custom_id else {"name": "table"}
            self.user = discord.Object(id)  # the bot notes each asker's locale as it arrives
            self.locale = discord.Locale.american_english

    async def main() -> None:
        settings = Settings(
            token="t", dev_guild_id=None, sync_global=False, database=Path(str(tmp_path)) / "db.sqlite3",
            organiser_role="Organiser", log_level="WARNING", ai_delay=0.0,
        )
        bot = JantakuBot(settings)
        comp, cmd = discord.InteractionType.component, discord.InteractionType.application_command
        bot.dispatch("interaction", Arrived(1, comp, "mj:3:17:0d5m"))  # a table button
        bot.dispatch("interaction", Arrived(2, cmd))  # a slash command
        bot.dispatch("interaction", Arrived(3, comp, "someone-elses:button"))  # never answered here
        assert len(bot.responses) == 2
        bot.responses.answered(Arrived(1, comp, "mj:3:17:0d5m"))
        bot.responses.answered(Arrived(2, cmd))
        await asyncio.wait_for(bot.responses.settled(), 0.05)
        await bot.close()

    asyncio.run(main())

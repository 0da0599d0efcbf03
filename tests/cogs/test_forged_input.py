"""Forged buttons and hostile slash-command options (issue: security and bad input, must-show 1):
each gets one readable sentence, changes nothing and loses nothing, and no traceback reaches a user.

A Discord client only presses buttons a message has; a forged request does not, so the buttons
here are sent as raw INTERACTION_CREATEs (``DiscordServer._start_interaction``) carrying custom_ids
of another table, another seat, a huge or negative serial, an unknown action, and malformed text.
Slash-command options are generated (a fixed random seed): odd Unicode (lone surrogates, control
characters, right-to-left marks, 2,000-character strings) and out-of-range numbers."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from tests.bot.harness import Club, club

GENERIC = "Something went wrong"


def _replies(c: Club, rec: object) -> list[str]:
    uid = rec.user_id  # type: ignore[attr-defined]
    return [m.content for m in c.server.visible_to(uid) if m.interaction_id == rec.id]  # type: ignore[attr-defined]


async def _answered(c: Club, rec: object) -> list[str]:
    await c.server.wait_for(lambda: rec.callback_type is not None or rec.errors, timeout=10)  # type: ignore[attr-defined]
    await asyncio.sleep(0.05)
    return _replies(c, rec)


def _odd_text(rng: random.Random) -> str:
    pool = [
        "\ud800", "\udfff", "\u202e", "\u0000", "\x1b[31m", "²", "٣", "🀄", "\u200b", "'; DROP TABLE tables; --",
        "{}", "[[[[", "%s%n", "\\", "mj:1:0:0d1m", "../../etc/passwd", "null", "NaN", "9" * 60,
    ]
    n = rng.choice((1, 2, 5, 40, 2000))
    return "".join(rng.choice(pool) for _ in range(n))[:2000]


def test_forged_buttons_change_nothing(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            await c.slash("alice", "table open", {"length": "tonpuu"})
            await c.slash("bob", "table join", {})
            await c.slash("alice", "table add-ai", {"seats": 2})
            await c.slash("alice", "table start", {})
            t = c.bot.service.tables[1]
            await c.server.wait_for(lambda: t.humans_to_act() and t.row.message_id, timeout=30)
            seat = t.humans_to_act()[0]
            who = "alice" if t.seats[seat].user_id == c.users["alice"].id else "bob"
            other = "bob" if who == "alice" else "alice"
            mid, live = await c.server.wait_for(lambda: c.live_buttons(who)[1] and c.live_buttons(who), timeout=10)
            msg = c.server.message(mid)
            channel = c.server.state.channels[msg.channel_id]
            serial = t.decision_serial()
            act = live[0].split(":", 3)[3]
            other_seat = next(s for s in range(4) if s != seat)
            forged = [
                f"mj:999:{serial}:{act}",  # another table (none)
                f"mj:{10**30}:{serial}:{act}",  # a table id no database holds
                f"mj:1:{10**30}:{act}",  # a huge serial
                f"mj:1:{serial + 5}:{act}",  # a serial of the future
                f"mj:1:{serial}:{other_seat}{act[1:]}",  # another seat's move
                f"mj:1:{serial}:{seat}d9z",  # a tile that does not exist
                f"mj:1:{serial}:{seat}q5m",  # an action type that does not exist
                f"mj:1:{serial}:{seat}",  # no action
                f"mjr:1:{serial}:{other_seat}",  # the riichi chooser of another seat
                f"mjr:1:{10**30}:{seat}",
                f"mjw:1:{serial}:{act}",  # the open-riichi confirmation, forged
                "mjh:999",  # "Show my hand" of a table that does not exist
                f"mjh:{10**30}",
                "mj:1",  # malformed
                "mj:" + "9" * 90,
            ]
            before = len(await c.bot.repo.actions(1))
            for cid in forged:
                rec = await c.server._start_interaction(
                    3, c.users[who].id, None, channel, {"custom_id": cid, "component_type": 2}, message=msg
                )
                try:
                    texts = await _answered(c, rec)
                except TimeoutError:
                    raise AssertionError(f"no answer to a forged {cid!r}") from None
                assert all("Traceback" not in x and GENERIC not in x for x in texts), (cid, texts)
                assert not rec.errors or "acknowledged" not in " ".join(rec.errors), (cid, rec.errors)
                assert len(await c.bot.repo.actions(1)) == before, cid
                assert t.decision_serial() == serial, cid
            # the other player pressing the real button of this hand: refused, nothing changed
            rec = await c.server._start_interaction(
                3, c.users[other].id, None, channel, {"custom_id": live[0], "component_type": 2}, message=msg
            )
            texts = await _answered(c, rec)
            assert texts and "another player's hand" in texts[-1] or "not seated" in texts[-1], texts
            assert len(await c.bot.repo.actions(1)) == before
            # and the real button still works
            rec = await c.server.click(c.users[who].id, mid, live[0])
            await rec.response()
            await c.server.wait_for(lambda: t.decision_serial() != serial, timeout=10)
            assert not c.server.errors

    asyncio.run(main())


def test_hostile_slash_command_options_get_a_sentence(tmp_path: Path) -> None:
    rng = random.Random(20261126)

    async def main() -> None:
        async with club(tmp_path) as c:
            await c.slash("alice", "table open", {"length": "tonpuu"})
            cases: list[tuple[str, dict[str, object]]] = []
            for _ in range(6):
                cases += [
                    ("table open", {"ruleset": _odd_text(rng)}),
                    ("table open", {"length": _odd_text(rng), "ruleset": "riichi"}),
                    ("table join", {"table": rng.choice((0, -1, 2**53, 999))}),
                    ("table status", {"table": rng.choice((0, -5, 2**53))}),
                    ("table export", {"table": rng.choice((1, 0, 2**53))}),
                    ("score", {"hand": _odd_text(rng)}),
                    ("score", {"hand": "123m456p789s11z22z ron 2z", "ruleset": _odd_text(rng)}),
                    ("shanten", {"tiles": _odd_text(rng)}),
                    ("rule", {"ruleset": _odd_text(rng), "topic": _odd_text(rng)}),
                    ("rule", {"ruleset": "riichi", "topic": _odd_text(rng)}),
                ]
            generic = 0
            for name, options in cases:
                try:
                    rec = await c.server.slash(c.users["bob"].id, c.guild_id, c.channel_id, name, options)
                except (TypeError, ValueError) as e:  # what Discord's client cannot send (a value not among the choices)
                    assert "devserver" in str(e), (name, options, e)
                    continue
                try:
                    await rec.reply(timeout=20)
                except Exception as e:
                    raise AssertionError(f"/{name} {options!r:.300}: {e!s:.300}") from None
                texts = _replies(c, rec)
                assert texts and all("Traceback" not in x for x in texts), (name, options, texts)
                generic += sum(GENERIC in x for x in texts)
            assert generic == 0, f"{generic} answers were the generic sentence"
            # the table opened at the start is untouched and nobody else opened one
            assert [r.id for r in await c.bot.repo.tables_with_status("open")] == [1]
            assert not c.server.errors

    asyncio.run(main())

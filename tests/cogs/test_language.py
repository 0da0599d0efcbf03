"""Issue 21's Must show: a player whose Discord locale is Japanese plays a whole game and uses
/score, /shanten, /rule and /stats, and every message, edit, label, embed and picture text they
receive is Japanese (no English left); the same player as en-US receives English only.

What the player receives is read off the devserver: every version of every message they can see
(channel, DMs, ephemerals; each edit's earlier states too), its content, embeds, components
(labels, placeholders, select options) and the words drawn in its pictures (the renderer records
them with JANTAKU_PICTURE_TEXT=1, bot.render.picture_texts). Data is not language: player names,
numbers, tile codes (5m), rule ids (T-5), slash commands and their option keys are taken out
before looking for English words. The English run looks for kana and kanji instead."""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.render import picture_texts
from devserver.state import iter_components
from tests.bot.harness import Club, club, make_organiser

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]")
WORD = re.compile(r"[A-Za-z]{2,}")
#: what a text may hold in any language: slash commands and option keys (Discord shows the
#: command as typed), rule ids, tile codes, numbers
DATA = [
    re.compile(r"`[^`]*`"),  # code: commands to type, seeds, commitments
    re.compile(r"</?[a-z_ -]+(:\d+)?>"),  # a command mention
    re.compile(r"/[a-z_-]+( [a-z_-]+)?"),  # /table open
    re.compile(r"\b[a-z_]+:"),  # member:@name
    re.compile(r"\b[A-Z]{1,3}-\d+(\.\d+)*[a-z]?\b"),  # rule ids: T-5, PK-3, R-2.7
    re.compile(r"\b\d+[mpsz]\b"),
    re.compile(r"https?://\S+"),
]
#: the names of things, the same in every language: the player, the AI seats, the organiser role
#: (the bot's settings name it) and Discord's own word for a direct message
NAMES = {"alice", "AI", "Organiser", "DM"}


def _versions(m: Any) -> Iterator[Any]:
    yield from m.history
    yield m


def received(c: Club, who: str) -> list[tuple[str, str]]:
    """(where, text) of everything ``who`` can see, every version."""
    out: list[tuple[str, str]] = []
    seen_pictures: set[bytes] = set()
    for m in c.server.visible_to(c.users[who].id):
        for n, v in enumerate(_versions(m)):
            where = f"message {m.id} v{n}"
            if v.content:
                out.append((where, v.content))
            for e in v.embeds:
                for key in ("title", "description"):
                    if e.get(key):
                        out.append((f"{where} embed {key}", e[key]))
                for f in e.get("fields", []):
                    out += [(f"{where} field", f.get("name", "")), (f"{where} field", f.get("value", ""))]
                for key in ("footer", "author"):
                    text = (e.get(key) or {}).get("text") or (e.get(key) or {}).get("name")
                    if text:
                        out.append((f"{where} embed {key}", text))
            for comp in iter_components(v.components):
                for key in ("label", "placeholder", "content"):
                    if comp.get(key):
                        out.append((f"{where} component {key}", comp[key]))
                for o in comp.get("options", []):
                    out += [(f"{where} option", o.get("label", "")), (f"{where} option", o.get("description", ""))]
            for a in v.attachments:
                if a.filename.endswith(".png") and a.data not in seen_pictures:
                    seen_pictures.add(a.data)
                    out += [(f"{where} picture {a.filename}", t) for t in picture_texts(a.data)]
    return [(w, t) for w, t in out if t]


def english_left(text: str, names: set[str]) -> list[str]:
    for pattern in DATA:
        text = pattern.sub(" ", text)
    return [w for w in WORD.findall(text) if w not in names and w.lower() not in names]


async def _say(c: Club, who: str, name: str, options: dict[str, Any], locale: str) -> Any:
    rec = await c.server.slash(c.users[who].id, c.guild_id, c.channel_id, name, options, locale=locale)
    await rec.reply()
    return rec


async def _play_a_game(c: Club, locale: str) -> None:
    """alice (``locale``) and three AI seats play a whole east-only game; alice presses the first
    live button of her newest hand message each time."""
    await _say(c, "alice", "table open", {"length": "tonpuu"}, locale)
    await _say(c, "alice", "table add-ai", {"seats": 3}, locale)
    await _say(c, "alice", "table start", {}, locale)
    t = c.bot.service.tables[1]
    loop = asyncio.get_running_loop()
    until = loop.time() + 240
    while not (t.game is not None and t.game.over):
        assert loop.time() < until, "the game did not finish"
        mid, live = c.live_buttons("alice")
        if not live:
            await asyncio.sleep(0.01)
            continue
        rec = await c.server.click(c.users["alice"].id, mid, live[0], locale=locale)
        await rec.response()
        assert not rec.errors, rec.errors
    await c.server.wait_for(
        lambda: any(a.filename == "final.png" for m in c.server.messages(c.channel_id) for a in m.attachments), timeout=30
    )
    await asyncio.sleep(0.5)  # the hands' last edits


async def _look_ups(c: Club, locale: str) -> None:
    await _say(c, "alice", "score", {"hand": "22345678m234p56s ron 7s riichi"}, locale)
    await _say(c, "alice", "shanten", {"tiles": "22345678m234p56s"}, locale)
    await _say(c, "alice", "rule", {"ruleset": "riichi", "topic": "pinfu"}, locale)
    await _say(c, "alice", "stats", {}, locale)


@pytest.mark.parametrize("locale", ["ja", "en-US"])
def test_a_player_receives_only_their_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, locale: str) -> None:
    monkeypatch.setenv("JANTAKU_PICTURE_TEXT", "1")  # the render workers inherit it
    assert os.environ["JANTAKU_PICTURE_TEXT"] == "1"

    async def main() -> None:
        async with club(tmp_path, names=("alice",), time_scale=10) as c:
            await make_organiser(c, "alice")
            if locale == "ja":  # the table message every player shares is in the club's language
                await _say(c, "alice", "prefs club_language", {"language": "ja"}, locale)
            await _play_a_game(c, locale)
            await _look_ups(c, locale)
            texts = received(c, "alice")
            pictures = [t for w, t in texts if " picture " in w]
            assert len(texts) > 200 and len(pictures) > 20, (len(texts), len(pictures))
            names = NAMES | {s.name for s in c.bot.service.tables[1].seats}
            if locale == "ja":
                left = {(w, t): english_left(t, names) for w, t in texts}
                left = {k: v for k, v in left.items() if v}
                assert not left, "\n".join(f"{w}: {t!r} -> {v}" for (w, t), v in list(left.items())[:40])
                # Japanese is what arrived, not merely no English: the game's own words
                joined = "\n".join(t for _, t in texts)
                for word in ("立直", "あなたの番です", "を切りました", "東1局", "点", "符", "翻", "聴牌"):
                    assert word in joined, word
            else:
                japanese = [(w, t) for w, t in texts if JAPANESE.search(t)]
                assert not japanese, japanese[:20]

    asyncio.run(main())

"""The message catalogs cover the code: every message the bot can show (an ``i18n.t``/``tn`` call, a
``N_`` mark, a refusal raised with a literal message, an ``organiser_only`` phrase) has a
non-empty Japanese and English translation with the same ``{fields}``, English translations are
the source text itself (so English output is what it was before the catalogs), and every slash
command, option and choice has a Japanese localization that Discord accepts."""

from __future__ import annotations

import asyncio
import re
import string
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from bot import i18n
from bot.command_tree import JantakuTranslator
from bot.errors import UserError
from tools.catalog import used_messages

# Discord's rule for a localized command or option name
NAME = re.compile(r"^[-_\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_the_walk_finds_messages_of_every_kind() -> None:
    used = used_messages()
    assert i18n.command_text("ja", "table") == "卓"
    assert "Reminder: it is your move at table #{table}; half of your time is gone." in used  # t()
    assert "start a season" in used  # organiser_only
    assert "only an organiser (the {role} role or Manage Server) can {what}" in used  # a raise


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_message_in_the_code_has_a_translation(lang: i18n.Lang) -> None:
    cat = i18n.catalog(lang)
    missing, bad = [], []
    for msgid, where in used_messages().items():
        entry = cat.get(msgid)
        forms = entry.string if entry is not None else None
        texts = list(forms) if isinstance(forms, (tuple, list)) else [forms]
        if entry is None or entry.fuzzy or not all(texts):
            missing.append(f"{where}: {msgid!r}")
            continue
        want = set().union(*(fields(m) for m in (msgid if isinstance(msgid, tuple) else [msgid])))
        for text in texts:
            if fields(str(text)) - want or (fields(str(text)) != want and not isinstance(msgid, tuple)):
                bad.append(f"{where}: {msgid!r} -> {text!r}")
    assert not missing, f"no {lang} translation:\n" + "\n".join(missing)
    assert not bad, f"{lang} placeholders differ:\n" + "\n".join(bad)


def test_english_is_the_source_text() -> None:
    for message in i18n.catalog("en"):
        if message.id:
            assert message.string == message.id, message.id


def test_the_catalogs_read_cleanly_and_hold_the_same_messages() -> None:
    keys = {}
    for lang in i18n.LANGS:
        with i18n.po_path(lang).open("rb") as f:
            cat = read_po(f, locale=lang)
        keys[lang] = {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in cat if m.id}
    assert keys["ja"] == keys["en"]


def test_a_refusal_reads_in_the_askers_language() -> None:
    e = UserError("Reminder: it is your move at table #{table}; half of your time is gone.", table=7)
    assert str(e) == e.sentence("en") == "Reminder: it is your move at table #7; half of your time is gone."
    ja = e.sentence("ja")
    assert "7" in ja and "Reminder" not in ja
    assert UserError("an engine's own sentence {x}").sentence("ja") == "an engine's own sentence {x}"


def test_lang_of_a_discord_locale() -> None:
    from discord import Locale

    assert i18n.lang_of(Locale.japanese) == "ja"
    assert i18n.lang_of("ja") == "ja"
    assert [i18n.lang_of(x) for x in (Locale.american_english, "fr", None, "")] == ["en"] * 4


async def _bot() -> Any:
    from bot.client import COGS, JantakuBot
    from bot.config import Settings

    settings = Settings(token="", dev_guild_id=None, sync_global=False, database=Path("unused.sqlite3"), organiser_role="Organiser", log_level="INFO", ai_delay=0)
    bot = JantakuBot(settings)
    for name in COGS:
        await bot.load_extension(name)
    return bot


def test_every_command_option_and_choice_has_a_japanese_localization() -> None:
    from discord import Locale

    async def payloads() -> list[dict[str, Any]]:
        from bot.client import COGS

        bot = await _bot()
        translator = JantakuTranslator()
        try:
            return [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]
        finally:
            for name in COGS:  # the play cog's unload stops its render worker
                await bot.unload_extension(name)

    missing: list[str] = []

    def check(item: dict[str, Any], where: str) -> None:
        here = f"{where} {item['name']}".strip()
        names = item.get("name_localizations") or {}
        ja = names.get(Locale.japanese.value)
        if not ja or not NAME.match(ja) or ja != ja.lower():
            missing.append(f"{here}: name {ja!r}")
        if "description" in item and not (item.get("description_localizations") or {}).get("ja"):
            missing.append(f"{here}: description")
        for choice in item.get("choices", []):
            if not (choice.get("name_localizations") or {}).get("ja"):
                missing.append(f"{here}: choice {choice['name']!r}")
        for option in item.get("options", []):
            check(option, here)

    for payload in asyncio.run(payloads()):
        check(payload, "")
    assert not missing, "\n".join(missing)


def test_names_made_from_data_read_in_japanese() -> None:
    from bot.render.names import tile_name, tiles_text, yaku_name
    from engine.tiles import HONOR_BASE, RED

    # the seven honours as Japanese players write them, a red five marked 赤
    assert tiles_text(range(HONOR_BASE, HONOR_BASE + 7), "ja") == "東 南 西 北 白 發 中"
    assert tile_name(4 | RED, "ja") == "赤5m" and tile_name(4 | RED) == "red 5m"
    assert [yaku_name(k, "ja") for k in ("riichi", "pinfu", "ippatsu", "hatsu")] == ["立直", "平和", "一発", "役牌 發"]
    assert yaku_name("riichi") == "Riichi"

"""The message catalogs kept in step with the code: which messages the code can show, and the
``.po`` files brought up to date with them.

``python -m tools.catalog update`` adds every message the code uses and the catalogs lack (English:
the source text itself; Japanese: empty, to be written), drops the messages (no context) the code
no longer uses, and rewrites both files sorted, without source locations, so that two branches
adding messages rarely touch the same lines. Term and command entries (with a context) are kept.
``python -m tools.catalog missing`` lists the messages with no Japanese text yet.
``python -m tools.catalog union FILE...`` adds the translated entries of other copies of the
Japanese catalog (another branch's, when a merge conflicted) that ours lacks.

What counts as a message (an AST walk of ``bot/`` and ``cogs/``): the string literal given to
``i18n.t(lang, "...")`` or ``tn(lang, "...", "...", n)``, to ``N_("...")``, to ``organiser_only``, and
the first literal of a refusal (``UserError`` and its subclasses in :data:`REFUSALS`). A message
built at run time from pieces is invisible to the walk: keep messages literal. Names made
from data are entries of their own context (``tile``, ``yaku``, ``ruleset``, ``option``: :func:`term_strings`; read with
``i18n.term``). Command names, descriptions, options and choices are the entries of context ``command``, taken from the command
tree as discord.py hands it to the translator (the cogs loaded, nothing connected).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE_DIR = ROOT / "bot" / "locale"
LANGS = ("ja", "en")
#: the devserver is a test double, not the bot; the rule texts are translated as whole files
SKIP = ("devserver/", "bot/rules_text/")
#: the refusals a user reads (bot.errors.UserError and its subclasses)
REFUSALS = {
    "UserError", "TableError", "StorageError", "EngineFault", "StandingsError", "HouseError",
    "ReplayError", "LookupError_", "NotOrganiser", "LeagueError", "PrefsError", "SheetUserError",
    "SeatingError",  # not a UserError: its message reaches the user as a LeagueError's
}
Msgid = str | tuple[str, str]


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def used_messages(root: Path = ROOT) -> dict[Msgid, str]:
    """msgid (or (singular, plural)) -> where it is first used (``path:line``)."""
    found: dict[Msgid, str] = {}
    for path in sorted([*root.glob("bot/**/*.py"), *root.glob("cogs/*.py")]):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(SKIP):
            continue
        for node in ast.walk(ast.parse(path.read_text(), rel)):
            if not isinstance(node, ast.Call):
                continue
            name, args = _name(node.func), node.args
            where = f"{rel}:{node.lineno}"
            msgid: Msgid | None = None
            if name == "t" and len(args) >= 2:
                msgid = _literal(args[1])
            elif name == "tn" and len(args) >= 3:
                one, many = _literal(args[1]), _literal(args[2])
                msgid = (one, many) if one is not None and many is not None else None
            elif (name in ("N_", "organiser_only") or name in REFUSALS) and args:
                msgid = _literal(args[0])
            if msgid and msgid not in found:
                found[msgid] = where
    return found


def command_strings() -> set[str]:
    """Every command's and option's name and description and every choice's name."""
    import asyncio
    from typing import Any

    from discord import app_commands

    from bot.client import COGS, JantakuBot
    from bot.config import Settings

    found: set[str] = set()

    class Collect(app_commands.Translator):
        async def translate(self, string: app_commands.locale_str, locale: Any, context: Any) -> str | None:
            found.add(string.message)
            return None

    async def walk() -> None:
        settings = Settings(token="", dev_guild_id=None, sync_global=False, database=Path("unused.sqlite3"),
                            organiser_role="Organiser", log_level="INFO", ai_delay=0)
        bot = JantakuBot(settings)
        for name in COGS:
            await bot.load_extension(name)
        try:
            for c in bot.tree.get_commands():
                await c.get_translated_payload(bot.tree, Collect())
        finally:
            for name in COGS:  # the play cog's unload stops its render worker
                await bot.unload_extension(name)

    asyncio.run(walk())
    return found


def item_keys(ruleset: object) -> set[str]:
    """Every yaku or point item key a ruleset's results can name (what :func:`bot.render.names.yaku_name` is asked
    for), from the engine's own lists: its yaku and yakuman, the dora counts, chinitsu_toutenkou's
    point tables (CT-G2) and taiwan16's tai items (TW-13; each item's Chinese name, as its results
    carry it)."""
    from engine.rules.chinitsu_toutenkou import points
    from engine.rules.taiwan16 import ITEMS, T11_NAMES
    from engine.scoring.yaku import Yaku

    name = getattr(ruleset, "name", "")
    yaku: tuple[Yaku, ...] = (*getattr(ruleset, "yaku", ()), *getattr(ruleset, "yakuman", ()))
    keys = {y.id for y in yaku}
    if keys:
        keys |= {"dora", "aka_dora", "ura_dora", "kita", "renhou"}
    if name == "chinitsu_toutenkou":
        keys |= set(points.ORDINARY) | set(points.YAKUMAN) | set(points.BONUS)
    if name == "taiwan16":
        keys |= {chinese for chinese, _ in ITEMS.values()} | set(T11_NAMES.values())
    return keys


def term_strings() -> dict[tuple[str, str], str]:
    """(context, English name) -> a Japanese text to start from ('' when none): the honour tiles'
    names (context ``tile``) and every yaku or point item any ruleset's results can name (context
    ``yaku``: :func:`item_keys`), started from the yaku's own ``name_ja``, and
    for taiwan16's tai items from their Chinese names (``門清 (T-5)``, the seed's words); and the
    rulesets' descriptions (context ``ruleset``) and option descriptions (context ``option``: the house rules card) and the final
    standings' column headers (context ``column``)."""
    import importlib
    import pkgutil

    import engine
    from bot.render.names import HONOR_NAMES, YAKU_NAMES, tai_name, yaku_name
    from bot.render.pictures import COLUMNS
    from engine.rules import find_ruleset, ruleset_names
    from engine.rules.base import rulesets_in_menu_order
    from engine.rules.catalog import option_specs
    from engine.rules.taiwan16.tai import ITEMS
    from engine.scoring.yaku import Yaku

    for m in pkgutil.walk_packages(engine.__path__, "engine."):
        importlib.import_module(m.name)
    out: dict[tuple[str, str], str] = {("tile", n): "" for n in HONOR_NAMES}
    out[("tile", "red {tile}")] = ""
    out.update({("yaku", yaku_name(key)): "" for key in YAKU_NAMES})
    for name in ruleset_names():
        out.update({("yaku", yaku_name(key)): "" for key in item_keys(find_ruleset(name))})
    out.update({("yaku", tai_name(item)): f"{chinese} ({item})" for item, (chinese, _) in ITEMS.items()})
    out.update({("option", s.help): "" for name in ruleset_names() for s in option_specs(find_ruleset(name)) if s.help})
    out.update({("column", c): "" for c in COLUMNS})
    todo: list[type[Yaku]] = [Yaku]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.id:
            out[("yaku", yaku_name(cls.id))] = cls.name_ja
    from bot.i18n import command_text

    for name in ruleset_names():  # started from the /table open choice's Japanese
        out[("ruleset name", name)] = command_text("ja", name) or ""
    for rs in rulesets_in_menu_order():
        out.setdefault(("ruleset", rs.description), "")
    return out


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / "jantaku.po"


def read(path: Path, lang: str) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain="jantaku")


def write(cat: Catalog, path: Path) -> None:
    with path.open("wb") as f:
        write_po(f, cat, sort_output=True, no_location=True, width=0, include_previous=False)


def update() -> int:
    used = used_messages()
    commands = command_strings()
    terms = term_strings()
    added = 0
    dropped: set[str] = set()
    for lang in LANGS:
        cat = read(po_path(lang), lang)
        for m in list(cat):
            if m.id and m.context is None and m.id not in used:
                dropped.add(repr(m.id))
                cat.delete(m.id)
        for msgid in used:
            if cat.get(msgid) is not None:
                continue
            string: str | tuple[str, ...]
            if lang == "en":
                string = msgid
            else:
                string = ("",) if isinstance(msgid, tuple) else ""
            cat.add(msgid, string)
            added += lang == "ja"
        for (context, text), ja in terms.items():
            if cat.get(text, context=context) is None:
                cat.add(text, text if lang == "en" else ja, context=context)
                added += lang == "ja"
        for text in commands:
            if cat.get(text, context="command") is None:
                cat.add(text, text if lang == "en" else "", context="command")
                added += lang == "ja"
        write(cat, po_path(lang))
    for text in sorted(dropped):
        print("dropped (no longer used):", text)
    print(f"{added} new message(s), {len(dropped)} dropped; {len(untranslated())} without Japanese text")
    return 0


def untranslated() -> list[str]:
    cat = read(po_path("ja"), "ja")
    out = []
    for m in cat:
        if not m.id:
            continue
        texts: Iterable[object] = m.string if isinstance(m.string, (tuple, list)) else [m.string]
        if m.fuzzy or not all(texts):
            out.append(repr(m.id))
    return out


def union(paths: list[str]) -> int:
    """Adds the translated entries of ``paths`` (copies of a catalog) that ours lacks, to ja and
    en alike (en: the source text)."""
    ours = {lang: read(po_path(lang), lang) for lang in LANGS}
    added = 0
    for p in paths:
        other = read(Path(p), "ja")
        for m in other:
            if not m.id:
                continue
            mine = ours["ja"].get(m.id, context=m.context)
            if mine is not None and (all(mine.string) if isinstance(mine.string, (tuple, list)) else mine.string):
                continue
            ours["ja"][m.id] = m  # type: ignore[index]
            if ours["en"].get(m.id, context=m.context) is None:
                ours["en"].add(m.id, m.id, context=m.context)
            added += 1
    for lang in LANGS:
        write(ours[lang], po_path(lang))
    print(f"{added} entr(ies) taken from {len(paths)} file(s)")
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["update"]:
        return update()
    if argv[:1] == ["missing"]:
        for line in untranslated():
            print(line)
        return 0
    if argv[:1] == ["union"] and argv[1:]:
        return union(argv[1:])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Text in the reader's language: the message catalogs, the language an interaction asks for, and the
slash commands' localizations.

The catalogs are gettext ``.po`` files, ``bot/locale/<lang>/LC_MESSAGES/jantaku.po`` (source
strings are the English text; ``ja`` and ``en``), read with Babel once, on first use. Placeholders
are ``str.format`` fields (``{table}``): :func:`t` formats the translation with the keywords it
is given, so a literal brace in a catalog message is written ``{{``. A msgid missing from a catalog
is shown as the English source text (tests/bot/test_i18n.py fails on any such msgid in the code).

:func:`lang_of` turns a Discord locale into one of :data:`LANGS`: ``ja`` reads Japanese, every
other locale English. Command names, descriptions, option names and choices are the catalogs'
entries in the ``command`` context (``msgctxt "command"``); :class:`bot.command_tree.JantakuTranslator` hands them to
discord.py when the command tree syncs. Whose language a message is in (the asker's own, or the
club's for a message every player shares) is the caller's choice; the player's last locale and the
club default are kept by :mod:`bot.locales`.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

Lang = Literal["ja", "en"]
LANGS: tuple[Lang, ...] = ("ja", "en")
DEFAULT: Lang = "en"
DOMAIN = "jantaku"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
COMMAND_CONTEXT = "command"


def N_(msgid: str) -> str:
    """Marks a message translated later (kept in a constant, translated where it is shown)."""
    return msgid


def lang_of(locale: object) -> Lang:
    """``ja`` for a Japanese Discord locale (``discord.Locale.japanese``, ``"ja"``), else ``en``."""
    value = getattr(locale, "value", locale)
    return "ja" if isinstance(value, str) and value.lower().startswith("ja") else "en"


def po_path(lang: Lang) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def catalog(lang: Lang) -> Catalog:
    from babel.messages.pofile import read_po  # only where a catalog is read: English never is

    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def _lookup(lang: Lang, msgid: str | tuple[str, str], context: str | None = None) -> Any:
    if lang == DEFAULT:  # English is the source text itself (tests/bot/test_i18n.py checks the catalog)
        return None
    message = catalog(lang).get(msgid, context=context)
    if message is None or message.fuzzy:
        return None
    return message.string


def t(lang: Lang, msgid: str, /, **kw: Any) -> str:
    """``msgid`` in ``lang``, its ``{fields}`` filled from ``kw``."""
    text = _lookup(lang, msgid)
    if not isinstance(text, str) or not text:
        if not kw:  # not a catalog message (an engine's sentence, a name): shown as it is
            return msgid
        text = msgid
    return text.format(**kw)


def term(lang: Lang, context: str, name: str) -> str:
    """A name made from data (a yaku, an honour tile) in ``lang``: the catalog's entry of that
    ``context`` (``msgctxt "yaku"``, ``"tile"``), else ``name`` itself. tools/catalog.py writes
    these entries from the engine's own lists, so the AST walk does not need to see them."""
    found = _lookup(lang, name, context)
    return found if isinstance(found, str) and found else name


def tn(lang: Lang, singular: str, plural: str, n: int, /, **kw: Any) -> str:
    """The form for ``n`` (``{n}`` is filled with it) of a message with a plural."""
    forms = _lookup(lang, (singular, plural))
    if isinstance(forms, (tuple, list)) and all(forms):
        text = forms[min(_plural_index(lang, n), len(forms) - 1)]
    else:
        text = singular if n == 1 else plural
    return str(text).format(n=n, **kw)


def _plural_index(lang: Lang, n: int) -> int:
    # the catalogs' Plural-Forms: ja has one form, en two (n != 1)
    return 0 if catalog(lang).num_plurals == 1 else int(n != 1)


def command_text(lang: Lang, text: str) -> str | None:
    """A command's name, description, option or choice in ``lang`` (None: no entry)."""
    found = _lookup(lang, text, COMMAND_CONTEXT)
    return found if isinstance(found, str) and found else None

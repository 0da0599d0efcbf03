"""``/rule``: the rule texts of a ruleset or a club's house rules, found by id or keywords, and paged.

The texts are the bundled ones of the reader's language (:mod:`bot.rules_text`); a list of rules
is cut into pages of at most :data:`PAGE_ENTRIES` ids and :data:`PAGE_CHARS` characters. No Discord
here: the cog turns these into embeds and page buttons.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.house_text import changed_rule_lines
from bot.i18n import DEFAULT, Lang, t
from bot.render.rules_card import card_lines
from bot.rules_text import RULESETS, Rulebook, RuleText, rulebook
from engine.rules import ruleset_names
from engine.rules.base import Ruleset

from .refusals import LookupError_, clip

__all__ = [
    "PAGE_CHARS",
    "PAGE_ENTRIES",
    "RulePageText",
    "find_rule",
    "house_lines",
    "keywords_shown",
    "rule_page",
    "rule_pages",
    "ruleset_suggestions",
    "topic_suggestions",
]

PAGE_CHARS = 3800  # a rule list page (embed description), with room for the summary line
PAGE_ENTRIES = 20  # rule ids per list page: a screenful
#: a kana or kanji character
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def rule_pages(book: Rulebook) -> list[str]:
    """The list of a ruleset's rules (``id`` and title), cut into embed-sized pages."""
    pages: list[str] = []
    cur = clip(book.summary, 1200) + "\n\n" if book.summary else ""
    n = 0
    for e in book.entries:
        line = f"`{e.id}` {e.title}\n"
        if len(cur) + len(line) > PAGE_CHARS or n == PAGE_ENTRIES:
            pages.append(cur.rstrip())
            cur, n = "", 0
        cur += line
        n += 1
    pages.append(cur.rstrip())
    return pages



@dataclass(frozen=True, slots=True)
class RulePageText:
    """One page of a rule list: its text, its index (clamped to the pages there are) and how many."""

    text: str
    page: int
    pages: int


def rule_page(book: Rulebook, page: int) -> RulePageText:
    """Page ``page`` (0-based, clamped) of ``book``'s list of rules."""
    pages = rule_pages(book)
    page = max(0, min(page, len(pages) - 1))
    return RulePageText(pages[page], page, len(pages))


def keywords_shown(entry: RuleText, lang: Lang) -> list[str]:
    """The entry's keywords written in the reader's script (both find the entry; the other
    script's romaji or kanji would be noise in a footer)."""
    return [k for k in entry.keywords if bool(_CJK.search(k)) == (lang == "ja")] or list(entry.keywords)


def find_rule(ruleset: str, topic: str, lang: Lang = DEFAULT) -> tuple[RuleText, Rulebook, list[RuleText]]:
    """The entry for ``topic`` (an id, or keywords) in ``ruleset``'s texts in ``lang`` (``en``,
    ``ja``), with other matches.

    An id of another ruleset (``/rule pk R-6.4``) is looked up in that ruleset's texts."""
    book = rulebook(ruleset, lang)
    entry = book.get(topic)
    if entry is not None:
        return entry, book, []
    m = re.fullmatch(r"\s*([A-Za-z]{1,2})-?(\S+)\s*", topic)
    if m:
        owner = {p.lower(): rs for rs, p in RULESETS.items()}.get(m.group(1).lower())
        if owner and owner != ruleset:
            other = rulebook(owner, lang).get(topic)
            if other is not None:
                return other, rulebook(owner, lang), []
    found = book.search(topic)
    if not found:
        prefix = RULESETS.get(ruleset, "R")
        raise LookupError_(
            "No rule of {ruleset} matches '{topic}'. Ask with a rule id (`{example}`), a keyword (`furiten`) or a "
            "question in plain words (`how does dora work`); `/rule {ruleset}` lists every rule.",
            ruleset=ruleset, topic=clip(topic.strip(), 100), example=book.entries[0].id if book.entries else prefix + "-1",
        )
    return found[0], book, found[1:]



def house_lines(name: str, rules: Ruleset, lang: Lang = DEFAULT) -> list[str]:
    """``/rule house:<name>``: the rules card of a club's house rules, then each rule they change as
    the club plays it (:func:`bot.house_text.changed_rule_lines`: its own words and values, not the
    standard text it replaces; issue 30), in ``lang``."""
    lines = card_lines(name, rules, lang=lang)
    own = changed_rule_lines(rules, lang)
    return [*lines, "", *own] if own else lines


def ruleset_suggestions(current: str, lang: Lang = DEFAULT) -> list[tuple[str, str]]:
    """Up to 25 (label, ruleset) the typed ``current`` may mean: names that start with it first,
    then names that hold it; a ruleset with texts only is labelled as not playable yet."""
    names = sorted(set(ruleset_names()) | set(RULESETS))
    cur = current.strip().lower()
    hits = [n for n in names if n.startswith(cur)] + [n for n in names if cur and cur in n and not n.startswith(cur)]
    return [
        (n if n in ruleset_names() else t(lang, "{ruleset} (rules only, not playable yet)", ruleset=n), n)
        for n in hits[:25]
    ]


def topic_suggestions(ruleset: str, current: str, lang: Lang = DEFAULT) -> Sequence[tuple[str, str]]:
    """(label, rule id) of the rules of ``ruleset`` the typed ``current`` may mean; none for a
    ruleset without texts."""
    if ruleset not in RULESETS:
        return []
    return [(clip(e.label, 100), e.id) for e in rulebook(ruleset, lang).suggest(current)]

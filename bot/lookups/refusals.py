"""The look-ups' refusals: one plain sentence for a hand, tiles or a ruleset that cannot be answered.

:class:`LookupError_` is a :class:`~bot.errors.UserError` (the command tree answers it in the
asker's language); :class:`Unreadable` shows the refused line with a caret under the bad character.
No Discord here.
"""

from __future__ import annotations

from bot.errors import UserError
from bot.i18n import Lang, t
from bot.rules_text import RULESETS
from engine.rules import UnknownRuleset, find_ruleset
from engine.tiles import NotationError

__all__ = ["CARET_WIDTH", "LookupError_", "Unreadable", "caret", "clip", "unknown_ruleset"]


class LookupError_(UserError, ValueError):
    """A look-up that cannot be answered; the message is the plain sentence the user sees."""



class Unreadable(LookupError_):
    """A hand or tiles the notation parser refused. English reads the parser's own detail (the
    engine words it in English only); another language reads a sentence of its own that names the
    part to fix, by its position and its word, above the same caret."""

    def __init__(self, msgid: str, e: NotationError, line: str, *, at: str, nowhere: str) -> None:
        super().__init__(msgid, error=str(e), caret=caret(line, e.position))
        self.position, self.part = e.position, _word_at(line, e.position)
        self.at, self.nowhere = at, nowhere

    def sentence(self, lang: Lang = "en") -> str:
        if lang == "en":
            return super().sentence(lang)
        if self.position is None or not self.part:
            return t(lang, self.nowhere, caret=self.kw["caret"])
        return t(lang, self.at, position=self.position + 1, part=self.part, caret=self.kw["caret"])


def _word_at(line: str, position: int | None) -> str:
    """The word (between spaces) of ``line`` that holds ``position`` (0-based), clipped; "" if none."""
    if position is None or not 0 <= position < len(line) or line[position].isspace():
        return ""
    start = line.rfind(" ", 0, position) + 1
    end = line.find(" ", position)
    word = "".join(ch if ch.isprintable() else "?" for ch in line[start : end if end >= 0 else len(line)]).replace("`", "'")
    return word if len(word) <= 30 else word[:29] + "…"


def caret(line: str, position: int | None) -> str:
    """The line in a code block with a ``^`` under the character at ``position`` (0-based)."""
    safe = "".join(ch if ch.isprintable() else "?" for ch in line.replace("`", "'"))
    pos = max(0, min(position or 0, len(safe)))
    if len(safe) > CARET_WIDTH:  # show the part around the bad character, not a wall of text
        start = max(0, min(pos - CARET_WIDTH // 2, len(safe) - CARET_WIDTH))
        safe = ("…" if start else "") + safe[start : start + CARET_WIDTH] + ("…" if start + CARET_WIDTH < len(safe) else "")
        pos = pos - start + (1 if start else 0)
    if position is None:
        return f"```\n{safe}\n```"
    return f"```\n{safe}\n{' ' * pos}^\n```"


#: The widest line :func:`caret` shows.
CARET_WIDTH = 100


def unknown_ruleset(name: str, shanten: bool) -> LookupError_:
    """The refusal for a ruleset the engine cannot use (yet) to score hands, or (``shanten``) to
    compute shanten."""
    if name.lower() in RULESETS:
        if shanten:
            return LookupError_(
                "ruleset {ruleset} cannot compute shanten yet: it is not in the engine yet (/rule {rule} explains its rules)",
                ruleset=name, rule=name.lower(),
            )
        return LookupError_(
            "ruleset {ruleset} cannot score hands yet: it is not in the engine yet (/rule {rule} explains its rules)",
            ruleset=name, rule=name.lower(),
        )
    try:
        find_ruleset(name)
    except UnknownRuleset as e:
        return LookupError_(str(e))
    if shanten:
        return LookupError_("ruleset {ruleset} cannot compute shanten yet", ruleset=name)
    return LookupError_("ruleset {ruleset} cannot score hands yet", ruleset=name)



def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis at the cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"

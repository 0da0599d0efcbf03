"""The one kind of error a user is told about: :class:`UserError`, a refusal in one plain sentence.

Services raise its subclasses (``TableError``, ``StandingsError``, the look-ups' refusals) with a
catalog message and its fields, ``TableError("there is no table #{table}", table=7)``; the
sentence is put in the reader's language only where it reaches them: the command tree's one error
handler (:mod:`bot.command_tree`) answers with ``sentence(lang)``, anything else with one generic
sentence and a log line. ``str(error)`` is the English sentence (for logs and older callers). No
Discord types here, so the services that raise it stay free of them.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import Lang, t


class UserError(Exception):
    """A request refused; ``sentence(lang)`` is what the user reads: the message in their language,
    ended with a full stop where the subclass says ``full_stop``."""

    full_stop = False

    def __init__(self, msgid: str = "", /, **kw: Any) -> None:
        self.msgid = msgid
        self.kw = kw
        super().__init__(msgid.format(**kw) if kw else msgid)

    def fields(self, lang: Lang) -> dict[str, Any]:
        """The message's fields in ``lang`` (a field that is itself a refusal reads as its sentence)."""
        return {k: v.sentence(lang) if isinstance(v, UserError) else v for k, v in self.kw.items()}

    def sentence(self, lang: Lang = "en") -> str:
        text = t(lang, self.msgid, **self.fields(lang)) if self.msgid else str(self)
        if self.full_stop and not text.endswith((".", "?", "!", "。", "？", "！")):
            text += "。" if lang == "ja" else "."
        return text

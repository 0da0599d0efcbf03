"""The one kind of error a user is told about: :class:`UserError`, a refusal in one plain sentence.

Services raise its subclasses (``TableError``, ``StandingsError``, the look-ups' refusals); the
command tree's one error handler (:mod:`bot.command_tree`) answers them with their sentence, and
anything else with one generic sentence and a log line. No Discord types here, so the services
that raise it stay free of them.
"""

from __future__ import annotations


class UserError(Exception):
    """A request refused; ``sentence()`` is what the user reads: the message itself, ended with a
    full stop where the subclass says ``full_stop``."""

    full_stop = False

    def sentence(self) -> str:
        text = str(self)
        if self.full_stop and not text.endswith((".", "?", "!")):
            text += "."
        return text

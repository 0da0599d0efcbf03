"""The look-ups service: ``/score``, ``/shanten`` and ``/rule`` computed, without Discord.

* :mod:`.score` — a hand line parsed and scored by the engine, worded and drawn;
* :mod:`.shanten` — shanten, waits and ukeire of a concealed hand, worded and drawn;
* :mod:`.rules` — rule texts found by id or keywords, rule lists paged, house rules' texts, and
  what the commands' autocomplete suggests;
* :mod:`.refusals` — the one plain sentence for a look-up that cannot be answered.

The cog (:mod:`cogs.lookups`) only translates between Discord and these functions: it reads the
options, runs the slow ones in a worker thread, and turns their answers into embeds, files and
page buttons. Every answer is in the ``lang`` it is given (the asker's language).
"""

from __future__ import annotations

from .refusals import LookupError_, Unreadable
from .rules import (
    RulePageText,
    find_rule,
    house_lines,
    keywords_shown,
    rule_page,
    ruleset_suggestions,
    topic_suggestions,
)
from .score import ScoreAnswer, check_hand, score_hand
from .shanten import SHANTEN_NOTES, WILDCARD_NOTE, ShantenAnswer, check_tiles, shanten_of

__all__ = [
    "SHANTEN_NOTES",
    "WILDCARD_NOTE",
    "LookupError_",
    "RulePageText",
    "ScoreAnswer",
    "ShantenAnswer",
    "Unreadable",
    "check_hand",
    "check_tiles",
    "find_rule",
    "house_lines",
    "keywords_shown",
    "rule_page",
    "ruleset_suggestions",
    "score_hand",
    "shanten_of",
    "topic_suggestions",
]

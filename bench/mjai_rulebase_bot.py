"""The ``mjai`` package's RulebaseBot over stdin/stdout, run in the mjai venv (bench/opponents_env.py; not our venv).

    .cache/mjai-venv/bin/python bench/mjai_rulebase_bot.py <seat>

One mjai event (a JSON object, or a list of them) per input line, one JSON answer per line.
Patched, one fix only: mjai 0.2.1's ``Bot.react`` clears its list of calls at ``start_game``
only, so after its first call the published bot plays every later hand as if its old melds were
still there (it then chi/pons freely, believing its hand already open). Here the list is also
cleared at each ``start_kyoku``. Everything else is the published bot. Its log lines are dropped.
"""

from __future__ import annotations

import json
import sys

from loguru import logger
from mjai.bot.rulebase import RulebaseBot

logger.remove()


class FixedRulebaseBot(RulebaseBot):  # type: ignore[misc]
    def react(self, input_str: str) -> str:
        events = json.loads(input_str)
        if isinstance(events, dict):
            events = [events]
        answer = json.dumps({"type": "none"})
        for ev in events:  # one at a time, so the reset falls exactly at the hand's start
            if ev.get("type") == "start_kyoku":
                self._Bot__call_events = []  # the fix (name-mangled private list of mjai's Bot)
            answer = super().react(json.dumps([ev]))
        return answer


def main() -> None:
    bot = FixedRulebaseBot(player_id=int(sys.argv[1]))
    out = sys.stdout
    for line in sys.stdin:
        if line.strip():
            out.write(bot.react(line) + "\n")
            out.flush()


if __name__ == "__main__":
    main()

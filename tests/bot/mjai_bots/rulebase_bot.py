"""The ``mjai`` package's RulebaseBot as an mjai program (run with the python of
tests/bot/mjai_bots/venv.py): mjai.app's protocol on stdin/stdout, the seat as the last argument.

mjai 0.2.1's ``Bot.react`` clears its list of calls only at ``start_game``, so from the hand after
its first call it plays as if its old melds were still there; this wrapper also clears it at each
``start_kyoku`` (the one fix issue 22 asks for).
"""

from __future__ import annotations

import json
import sys

from mjai.bot.rulebase import RulebaseBot  # type: ignore[import-not-found]


class FixedRulebaseBot(RulebaseBot):  # type: ignore[misc]
    def react(self, input_str: str) -> str:
        try:
            events = json.loads(input_str)
            starts = [i for i, ev in enumerate(events) if ev.get("type") == "start_kyoku"]
        except (ValueError, AttributeError, TypeError):
            return str(super().react(input_str))
        if not starts:
            return str(super().react(input_str))
        i = starts[-1]
        if i:  # the events before the new hand (its answer is not asked for)
            super().react(json.dumps(events[:i]))
        self._Bot__call_events = []  # the name-mangled list react() keeps
        return str(super().react(json.dumps(events[i:])))

if __name__ == "__main__":
    FixedRulebaseBot(player_id=int(sys.argv[-1])).start()

"""A ruleset the bot has never heard of, for tests/cogs/test_extra_ruleset.py (issue 18 §1).

Riichi with one changed rule: a game is a sprint of a few hands (the ``game_ends`` hook), not
rounds; and its own words: its lengths and their labels, its score unit, its word for riichi and
for a repeated deal. It declares them the way every variant does, in its ruleset class; nothing in
bot/ or cogs/ knows its name. :func:`registered` registers it for one test and takes it back.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from engine.rules.base import Ruleset, register, unregister
from engine.rules.facts import GameLength

if TYPE_CHECKING:
    from engine.table.game import Game, HandResult

NAME = "sprint_test"  # listed nowhere else: no other test enumerates it


@dataclass(frozen=True, slots=True, kw_only=True)
class SprintOptions:
    hands: int = 1  # the game ends after this many hands (whatever the rounds)


@dataclass(frozen=True, kw_only=True)
class Sprint(Ruleset):
    """Riichi, but a game ends after ``sprint.hands`` hands."""

    # what the bot and the AI ask of this variant (Ruleset facts)
    menu_order: ClassVar[int] = 90
    score_unit: ClassVar[str] = "marbles"
    final_with_uma: ClassVar[bool] = False
    honba_word: ClassVar[str] = "encore"
    riichi_word: ClassVar[str] = "Reach"

    def lengths(self) -> tuple[GameLength, ...]:
        words = {1: "one", 2: "two", 3: "three"}
        counts = [self.sprint.hands] + [n for n in (1, 2, 3) if n != self.sprint.hands]
        return tuple(GameLength(f"{n}-hand", f"a {words[n]}-hand sprint", {"sprint": {"hands": n}}) for n in counts)

    def length_text(self) -> str:
        return f"a {self.sprint.hands}-hand sprint"

    name: str = NAME
    sprint: SprintOptions = field(default_factory=SprintOptions)

    description: ClassVar[str] = "Riichi sprint: a game of a few hands (a test's own ruleset)"

    def game_ends(self, g: Game, result: HandResult, *, renchan: bool) -> bool:
        return len(g.results) >= self.sprint.hands or super().game_ends(g, result, renchan=renchan)


@contextmanager
def registered() -> Iterator[str]:
    """The ruleset registered under :data:`NAME` while the block runs."""
    register(NAME, Sprint)
    try:
        yield NAME
    finally:
        unregister(NAME)

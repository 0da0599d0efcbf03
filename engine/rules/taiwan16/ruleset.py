"""The taiwan16 :class:`Ruleset`: 144 tiles with eight flowers, 16-tile hands of five sets and a
pair, tai scoring (rules/taiwan16.md). Its own options are :class:`TaiwanOptions` (``tw``);
``options`` keeps the riichi fields the shared table reads, set so that they change nothing here
(no red fives, no starting points: scores are the running sum of payments)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import ClassVar

from engine.hand.shanten import ShantenCalculator
from engine.notation import HandSpec
from engine.rules.base import Ruleset
from engine.rules.facts import AiProfile, GameLength, HandValue
from engine.rules.options import AbortiveDraws, RiichiOptions
from engine.rules.taiwan16.hand import score_spec
from engine.rules.taiwan16.options import TaiwanOptions
from engine.rules.taiwan16.table import TaiwanTable
from engine.scoring.result import ScoreResult
from engine.scoring.yaku import Yaku

# The riichi fields the shared table reads, neutralised for taiwan16.
TAIWAN_TABLE_OPTIONS = RiichiOptions(
    red_fives=(0, 0, 0),
    start_points=0,
    return_points=0,
    uma=(0, 0, 0, 0),
    tobi=False,
    multi_ron="head_bump",
    nagashi_mangan=False,
    abortive_draws=AbortiveDraws(
        kyuushu_kyuuhai=False, suufon_renda=False, suucha_riichi=False, suukaikan=False, sanchahou=False
    ),
    pao=(),
    honba_ron=0,
    honba_tsumo=0,
    noten_total=0,
)


class StandardCalculator(ShantenCalculator):
    """Shanten and agari of the standard form only (TW-9, A13: no seven pairs, no thirteen
    orphans), for hands of up to five sets: 13- and 14-tile concealed parts are not read as
    chiitoitsu or kokushi as the riichi calculator does."""

    def _make_hot_paths(self) -> None:
        super()._make_hot_paths()
        std = self.standard

        def forms(counts: Sequence[int]) -> tuple[int, int, int]:
            return std(counts), 99, 99

        def is_agari(counts: Sequence[int]) -> bool:
            return std(counts) == -1

        self.forms = forms
        self.shanten = std
        self.is_agari = is_agari


@lru_cache(maxsize=2)
def standard_calculator(copies: int = 4, max_sets: int = 5) -> StandardCalculator:
    return StandardCalculator(copies, max_sets)


@dataclass(frozen=True, kw_only=True)
class Taiwan16(TaiwanTable, Ruleset):
    # what the bot and the AI ask of this variant (Ruleset facts)
    menu_order: ClassVar[int] = 40
    rule_book: ClassVar[str] = "taiwan16"
    rule_prefix: ClassVar[str] = "TW"
    score_unit: ClassVar[str] = "chips"  # TW-13: base + tai × rate
    final_with_uma: ClassVar[bool] = False
    hand_value: ClassVar[HandValue] = "tai"
    honba_word: ClassVar[str] = "continuation"  # TW-3: the dealer's continuations
    riichi_word: ClassVar[str] = "Declare ready"  # TW-12: declared tenpai, no stick
    riichi_stick: ClassVar[bool] = False
    furiten_warning: ClassVar[str] = "You passed a win: no ron until your next turn (TW-10)."
    set_aside: ClassVar[str] = "flower"  # TW-7
    seats_by_dice: ClassVar[bool] = True  # TW-5 (seat_wind_of: TaiwanTable)

    def lengths(self) -> tuple[GameLength, ...]:
        """TW-3: four rounds; shorter games are the ``rounds`` option's other values."""
        winds = ("East", "East and South", "East, South, West", "all four winds")
        aliases = {1: ("tonpuu",), 2: ("hanchan",)}
        return tuple(
            GameLength(
                f"{r}-round{'s' if r > 1 else ''}",
                f"{r} round{'s' if r > 1 else ''} ({winds[r - 1]})",
                {"tw": {"rounds": r}},
                aliases.get(r, ()),
            )
            for r in [self.tw.rounds] + [r for r in (1, 2, 3, 4) if r != self.tw.rounds]
        )

    def length_text(self) -> str:
        return f"{self.tw.rounds} round{'s' if self.tw.rounds > 1 else ''}"

    def ai_profile(self) -> AiProfile:
        """TW-9: no minimum tai; TW-10: no furiten from one's own discards; TW-12: declared
        tenpai costs nothing."""
        return AiProfile(calls="any", genbutsu=False)

    name: str = "taiwan16"
    hand_size: int = 16
    max_sets: int = 5
    flowers: int = 8
    options: RiichiOptions = field(default_factory=lambda: TAIWAN_TABLE_OPTIONS)
    yaku: tuple[Yaku, ...] = ()
    yakuman: tuple[Yaku, ...] = ()
    tw: TaiwanOptions = field(default_factory=TaiwanOptions)

    #: Its house rules are its own group's (``tw.``/``ct.``): riichi's fields here only run the
    #: shared table, neutral or derived from that group.
    riichi_options_read: ClassVar[frozenset[str] | None] = frozenset()
    description: ClassVar[str] = "Taiwanese 16-tile mahjong: flowers, five sets and a pair, tai scoring"

    def __post_init__(self) -> None:
        # The shared call window reads multi_ron: head-bump, or every winner (A1).
        multi = "triple" if self.tw.multi_win == "all" else "head_bump"
        if self.options.multi_ron != multi:
            object.__setattr__(self, "options", replace(self.options, multi_ron=multi))

    def shanten_calculator(self) -> ShantenCalculator:
        return standard_calculator(self.copies, self.max_sets)

    def score(self, spec: HandSpec) -> ScoreResult:
        """Tai items, total and payments of a winning hand (TW-13, §5)."""
        return score_spec(spec, self)

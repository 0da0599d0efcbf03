"""Options of ``chinitsu_toutenkou`` (chinitsu_toutenkou.md: the options table ``ct.*`` and the named
defaults of its §J), and the kinds the rules name."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CtOptions", "GARI_KINDS", "HONOURS", "NAME", "SUIT_BASE"]


NAME = "chinitsu_toutenkou"
EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED_DRAGON = range(27, 34)
HONOURS = tuple(range(27, 34))
GARI_KINDS = (0, 4, 8, NORTH)
SUIT_BASE = {"p": 9, "s": 18}


_CHOICES: dict[str, tuple[str, ...]] = {
    "suit": ("p", "s"),
    "open_riichi_expose": ("all", "minimal"),
    "white_chankan_scope": ("white_kakan", "all_kakan"),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class CtOptions:
    """The spec's options table (``ct.*``) and the named defaults of its §J."""

    suit: str = "p"  # "p" or "s" (CT-B1)
    gari_value: tuple[tuple[int, int], ...] = ((0, 1), (4, 1), (8, 1), (NORTH, 1))  # J2
    banban: int = 2  # J3
    always_dora_fives: bool = False  # J4
    kuitan: bool = True  # CT-A15
    yakuman_adds_other: bool = True  # J5
    noten_total: int = 40  # CT-H1
    nagashi_each: int = 200  # CT-G10
    chombo_each: int = 20  # CT-H3
    open_riichi_expose: str = "all"  # CT-F2: "all" | "minimal"
    open_riichi_dealin_bonus: int = 50  # CT-F2
    abortive_draws: bool = False  # J9
    start_points: int = 0  # J17
    riichi_undo_window: bool = False  # CT-H5
    # --- named choices where the seed is silent (spec §J) -----------------------------------
    riichi_stick: int = 1  # CT-F1 "供託棒は通常立直と同様に1点"
    white_dora_kinds: tuple[int, ...] = (EAST, SOUTH, WEST, WHITE, GREEN, RED_DRAGON)  # J20
    honroutou_yakuman: bool = False  # J22: 50 points, not a yakuman
    tsumosu_yakuman: bool = False  # J22
    extraction_breaks_ippatsu: bool = False  # J16
    white_chankan_scope: str = "white_kakan"  # J12: "white_kakan" | "all_kakan"
    nagashi_passes_deal: bool = True  # J23
    north_pon: bool = True  # a discarded North may be ponned (only for a four-winds hand)
    table_hands: int = 6  # hands a table game lasts with start_points 0 (one-hand settlements)

    def __post_init__(self) -> None:
        # options saved as JSON come back as lists: keep the value (and its hash) the same
        object.__setattr__(self, "gari_value", tuple((int(k), int(v)) for k, v in self.gari_value))
        object.__setattr__(self, "white_dora_kinds", tuple(self.white_dora_kinds))
        for key, allowed in _CHOICES.items():
            if getattr(self, key) not in allowed:
                raise ValueError(f"ct.{key} must be one of {', '.join(map(str, allowed))}")
        if self.riichi_undo_window:
            raise ValueError("ct.riichi_undo_window = true is not supported: the engine's declarations are atomic")
        # tile kinds are 0..33 (a kind outside would index past the tables mid-hand)
        if any(not 0 <= k <= 33 for k in self.white_dora_kinds):
            raise ValueError("ct.white_dora_kinds are tile kinds, 0 to 33")
        if any(not 0 <= k <= 33 or not 0 <= v <= 100 for k, v in self.gari_value):
            raise ValueError("ct.gari_value pairs are a tile kind (0 to 33) and its points (0 to 100)")

    def gari_points(self, kind: int) -> int:
        return dict(self.gari_value).get(kind, 0)

    @property
    def suit_base(self) -> int:
        return SUIT_BASE[self.suit]

"""Options of the ``seigou`` ruleset (seigou.md §6), with the spec's defaults."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CLAIM_WINDOWS", "KAN_DORA_TIMINGS", "SeigouOptions"]

CLAIM_WINDOWS = ("since_last_turn", "last_discard_only")
KAN_DORA_TIMINGS = ("immediate", "next_discard")


@dataclass(frozen=True, slots=True, kw_only=True)
class SeigouOptions:
    """seigou.md §6, with the spec's defaults (the ``seigou.`` prefix dropped)."""

    # A1: which discards a seat may claim at the start of its turn: every unclaimed discard made
    # since its previous turn, or only the one just made.
    claim_window: str = "since_last_turn"
    turns_per_player: int = 18  # SG-7 (at most 18: the live wall holds exactly 4 × 18 tiles)
    riichi_last_turn: int = 17  # §3 / A8: riichi on turns 1..17 only
    suukaikan: bool = True  # §3: 4 kans by >= 2 players end the hand right after the 4th kan
    # A4. "next_discard": a daiminkan's or kakan's indicator shows with the next discard made at
    # the table (an ankan's at once, as ).
    kan_dora_timing: str = "immediate"
    houtei_on_chankan_turn18: bool = True  # A11

    def __post_init__(self) -> None:
        if self.claim_window not in CLAIM_WINDOWS:
            raise ValueError(f"seigou.claim_window must be one of {', '.join(CLAIM_WINDOWS)}")
        if self.kan_dora_timing not in KAN_DORA_TIMINGS:
            raise ValueError(f"seigou.kan_dora_timing must be one of {', '.join(KAN_DORA_TIMINGS)}")
        if not 1 <= self.turns_per_player <= 18:
            raise ValueError("seigou.turns_per_player must be between 1 and 18 (the wall holds 18 go-arounds)")
        if self.riichi_last_turn < 0:
            raise ValueError("seigou.riichi_last_turn must be 0 (no riichi) or more")

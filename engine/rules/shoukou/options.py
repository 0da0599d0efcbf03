"""Options of the ``shoukou`` ruleset (shoukou.md §6), with the spec's defaults."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

__all__ = ["ShoukouOptions"]

_CHOICES = {
    "kuikae": ("effective+physical", "effective", "off"),
    "fu": ("max", "best_interpretation"),
    "union": ("interpretations", "transformations"),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoukouOptions:
    # Not in the spec's table: switches the ±3 transformation off everywhere (calls, kans, wins,
    # waits). Then the ruleset plays and scores exactly as its riichi options (the cross-check).
    transform: bool = True
    win_transform_melds: bool = True  # A4 / SK-8a: a chi may shift at the win
    kuikae: str = "effective+physical"  # A9: "effective+physical" | "effective" | "off"
    yakuman_union: bool = True  # A11: yakuman kinds from every interpretation
    aka_follows_effective: bool = False  # SK-D7 / A14: a transformed red five keeps its red dora
    fu: str = "max"  # A10 / SK-10.8: "max" | "best_interpretation"
    # SK-10.5: what the union runs over. "interpretations" (the spec's literal SK-10): every
    # (τ, decomposition, placement), so one untransformed hand may add chiitoitsu to ryanpeikou.
    # "transformations": per τ (none included) only its best single reading (R-7: points, han,
    # fu), then the union of those readings by SK-10.5 (a reading of the seed: 昇降 adds yaku).
    union: str = "interpretations"

    def __post_init__(self) -> None:
        for key, allowed in _CHOICES.items():
            if getattr(self, key) not in allowed:
                raise ValueError(f"shoukou.{key} must be one of {', '.join(allowed)}")

    @classmethod
    def keys(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    def with_flags(self, flags: dict[str, str]) -> ShoukouOptions:
        """Apply ``shoukou.<key>=<value>`` flags of a hand line (other flags are ignored)."""
        changes: dict[str, Any] = {}
        for raw, value in flags.items():
            if not raw.startswith("shoukou."):
                continue
            key = raw[len("shoukou.") :]
            if key not in self.keys():
                raise ValueError(f"unknown option {raw}: choose one of {', '.join('shoukou.' + k for k in self.keys())}")
            if isinstance(getattr(self, key), bool):
                if value.lower() not in ("true", "false", "on", "off", "1", "0", "yes", "no"):
                    raise ValueError(f"{raw}={value}: use true or false")
                changes[key] = value.lower() in ("true", "on", "1", "yes")
            else:
                changes[key] = value
        return replace(self, **changes) if changes else self

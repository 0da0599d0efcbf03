"""Options of the ``pk`` ruleset (pk.md §8), with the spec's defaults."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PkOptions"]


@dataclass(frozen=True, slots=True, kw_only=True)
class PkOptions:
    """pk.md §8, with the spec's defaults (keys without the ``pk.`` prefix)."""

    tenhou_check: str = "strict"  # PK-12 / A8: "strict" (every tile as the last) | "lenient" (some tile)
    common_mode: str = "union"  # PK-4 / A5: "union" over decompositions | "best" (the scored one only)
    situational_yaku_qualify: bool = False  # A1: ippatsu, haitei, houtei, rinshan, chankan as a basis
    allow_furiten_riichi: bool = True  # A10
    bazoro: int = 2  # PK-0.2

    def __post_init__(self) -> None:
        if self.tenhou_check not in ("strict", "lenient"):
            raise ValueError(f"pk.tenhou_check must be 'strict' or 'lenient', not {self.tenhou_check!r}")
        if self.common_mode not in ("union", "best"):
            raise ValueError(f"pk.common_mode must be 'union' or 'best', not {self.common_mode!r}")
        if self.bazoro < 0:
            raise ValueError("pk.bazoro must be 0 or more")


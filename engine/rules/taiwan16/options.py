"""The taiwan16 options (rules/taiwan16.md §9b) as frozen values, with the spec's defaults.

Every option the seed marks as "some people …" is a field here, named as in the spec's options
table (``taiwan16.<key>``); the tai values the seed gives alternatives for are :class:`TaiValues`
(``taiwan16.tai.<item>``). Values outside the listed alternatives are refused, so a typo never
plays a different game silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

SEAT_WIND_MODES = ("dice", "dealer_east")
MULTI_WIN = ("head_bump", "all")
RESERVES = ("fixed16", "plus_one_per_kong", "none")
MAX_MIN_TAI = 8  # the house minimums clubs play are a few tai; above this most hands could not win

# The seed's alternatives for each tai value, the default (the seed's first value) first (A10).
TAI_CHOICES: dict[str, tuple[int, ...]] = {
    "sanankou": (2, 3),
    "suuankou": (5, 4, 6),
    "shousuushii": (8, 4),
    "tsuuiisou": (8, 16),
    "daisuushii": (16, 8),
    "tenhou": (24, 16),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class TaiValues:
    """``taiwan16.tai.<item>``: the tai of the items whose value the seed says varies."""

    sanankou: int = 2  # T-17 三暗刻 [3]
    suuankou: int = 5  # T-24 四暗刻 [4, 6]
    shousuushii: int = 8  # T-28 小四喜 [4]
    tsuuiisou: int = 8  # T-29 字一色 [16]
    daisuushii: int = 16  # T-32 大四喜 [8]
    tenhou: int = 24  # T-34 天胡 [16]

    def __post_init__(self) -> None:
        for name, allowed in TAI_CHOICES.items():
            v = getattr(self, name)
            if v not in allowed:
                raise ValueError(
                    f"taiwan16.tai.{name}={v}: the seed allows {' or '.join(str(a) for a in allowed)}"
                )


@dataclass(frozen=True, slots=True, kw_only=True)
class TaiwanOptions:
    """``taiwan16.*`` (spec §9b). Defaults are the spec's."""

    flowers: bool = True  # TW-1: some southern areas play without the eight flowers
    base: int = 50  # TW-13 底
    rate: int = 20  # TW-13 台 (per tai)
    seat_wind_mode: str = "dice"  # TW-5 / A2: "dice" (the broken wall's owner is East) | "dealer_east"
    multi_win: str = "head_bump"  # TW-8 / A1: "head_bump" | "all"
    reserve: str = "fixed16"  # TW-11: "fixed16" | "plus_one_per_kong" | "none"
    haitei_pass: bool = False  # TW-11: the last tile may be declined and passed on
    haitei_ron: bool = False  # T-14 / A9: a ron on the final discard also earns 海底
    tenting: bool = False  # T-19 天聴: a non-dealer may declare on the dealt hand
    kong_bloom_on_flower: bool = True  # T-13 / A4: 槓上開花 also on a flower replacement
    earth_ready_requires_no_calls: bool = True  # T-18 / A7
    no_kong_before_discard_after_call: bool = False  # TW-8 house rule
    no_discard_same_as_called: bool = False  # TW-8 house rule
    no_call_own_discard_kind_same_round: bool = False  # TW-8 house rule
    min_tai: int = 0  # A11
    tai_cap: int | None = None  # TW-13: no cap
    tai: TaiValues = field(default_factory=TaiValues)
    # Not a rule of the spec: how many wind rounds a game lasts (TW-3 says four, 東南西北). Short
    # games are for tests and self-play only.
    rounds: int = 4

    def __post_init__(self) -> None:
        for key, allowed in (
            ("seat_wind_mode", SEAT_WIND_MODES),
            ("multi_win", MULTI_WIN),
            ("reserve", RESERVES),
        ):
            v = getattr(self, key)
            if v not in allowed:
                raise ValueError(f"taiwan16.{key}={v!r}: choose one of {', '.join(allowed)}")
        if self.base < 0 or self.rate < 0 or self.min_tai < 0:
            raise ValueError("taiwan16.base, rate and min_tai cannot be negative")
        if self.tai_cap is not None and self.tai_cap < 0:
            raise ValueError("taiwan16.tai_cap cannot be negative")
        # a minimum few hands reach would make every hand a draw and the dealer repeat for ever
        if self.min_tai > MAX_MIN_TAI or (self.tai_cap is not None and self.min_tai > self.tai_cap):
            raise ValueError(f"taiwan16.min_tai must be {MAX_MIN_TAI} or less (and no more than tai_cap)")
        if not 1 <= self.rounds <= 4:
            raise ValueError("taiwan16.rounds must be 1..4")

    def with_(self, **changes: Any) -> TaiwanOptions:
        """A copy with some options changed; ``tai`` may be given as a dict of its items."""
        tai = changes.get("tai")
        if isinstance(tai, dict):
            changes["tai"] = replace(self.tai, **tai)
        return replace(self, **changes)

    @classmethod
    def keys(cls) -> list[str]:
        return [f.name for f in fields(cls) if f.name != "tai"] + [f"tai.{k}" for k in TAI_CHOICES]

    def set_text(self, key: str, value: str) -> TaiwanOptions:
        """One option from text (``haitei_ron=true``, ``tai.sanankou=3``, ``tai_cap=null``),
        as a hand line or a table command gives it. Raises ValueError naming the key."""
        key = key.removeprefix("taiwan16.")
        if key.startswith("tai."):
            item = key[4:]
            if item not in TAI_CHOICES:
                raise ValueError(f"unknown option taiwan16.{key}")
            return replace(self, tai=replace(self.tai, **{item: _int(key, value)}))
        names = {f.name: f for f in fields(self)}
        if key not in names or key == "tai":
            raise ValueError(f"unknown option taiwan16.{key}")
        current = getattr(self, key)
        parsed: Any
        if isinstance(current, bool):
            low = value.lower()
            if low not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
                raise ValueError(f"taiwan16.{key}={value}: expected true or false")
            parsed = low in ("true", "1", "yes", "on")
        elif key == "tai_cap":
            parsed = None if value.lower() in ("null", "none", "") else _int(key, value)
        elif isinstance(current, int):
            parsed = _int(key, value)
        else:
            parsed = value
        changes: dict[str, Any] = {key: parsed}
        return replace(self, **changes)


def _int(key: str, value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"taiwan16.{key}={value}: expected a whole number") from None


DEFAULT = TaiwanOptions()

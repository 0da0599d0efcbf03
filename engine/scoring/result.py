"""Typed scoring results, and points/payments from han and fu (riichi.md §10)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.rules.options import RiichiOptions

WIND_LETTERS = "ESWN"

NOT_A_WIN = "not_a_winning_hand"
NO_YAKU = "no_yaku"


@dataclass(frozen=True, slots=True)
class YakuScore:
    name: str
    han: int  # 13 per yakuman for yakuman entries


@dataclass(frozen=True, slots=True)
class ScoreResult:
    """The value of a hand. ``agari`` is False for a hand that is not complete (reason
    ``not_a_winning_hand``) or that has no yaku (reason ``no_yaku``); those are values, not errors."""

    agari: bool
    yaku: tuple[YakuScore, ...] = ()
    han: int = 0
    fu: int = 0
    yakuman: int = 0
    points: int = 0  # the hand's value without honba and sticks
    payments: dict[str, int] = field(default_factory=dict)  # seat letter (or "discarder") → delta
    limit: str = ""  # "", "mangan", "haneman", "baiman", "sanbaiman", "kazoe", "yakuman"
    reason: str = ""
    wait: str = ""
    details: dict[str, Any] = field(default_factory=dict)  # variant extras (e.g. shoukou transformations)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "agari": self.agari,
            "yaku": [{"name": y.name, "han": y.han} for y in self.yaku],
            "han": self.han,
            "fu": self.fu,
            "yakuman": self.yakuman,
            "points": self.points,
            "payments": dict(self.payments),
        }
        if self.limit:
            out["limit"] = self.limit
        if self.reason:
            out["reason"] = self.reason
        if self.details:
            out.update(self.details)
        return out


def ceil100(x: int) -> int:
    return -(-x // 100) * 100


def base_points(han: int, fu: int, yakuman: int, opts: RiichiOptions) -> tuple[int, str]:
    """Base points B and the limit name (R-10.1, R-10.2)."""
    if yakuman:
        return 8000 * yakuman, "yakuman"
    if han >= 13:
        return (8000, "kazoe") if opts.kazoe == "yakuman" else (6000, "sanbaiman")
    if han >= 11:
        return 6000, "sanbaiman"
    if han >= 8:
        return 4000, "baiman"
    if han >= 6:
        return 3000, "haneman"
    if han == 5:
        return 2000, "mangan"
    b = fu * (1 << (han + 2))
    if b >= 2000 or (opts.kiriage and ((han == 4 and fu == 30) or (han == 3 and fu == 60))):
        return 2000, "mangan"
    return b, ""


def settle(
    base: int,
    *,
    seat: int,
    tsumo: bool,
    discarder: int | None,
    honba: int,
    sticks: int,
    opts: RiichiOptions,
) -> tuple[int, dict[str, int]]:
    """Hand value (without honba/sticks) and each seat's delta (with them), R-10.3–R-10.5."""
    players = opts.players
    dealer = seat == 0
    pay: dict[str, int] = {}
    if tsumo:
        total = 0
        for other in range(players):
            if other == seat:
                continue
            amount = ceil100(base * 2) if (dealer or other == 0) else ceil100(base)
            total += amount
            pay[WIND_LETTERS[other]] = -(amount + opts.honba_tsumo * honba)
        pay[WIND_LETTERS[seat]] = total + opts.honba_tsumo * honba * (players - 1) + 1000 * sticks
        return total, pay
    value = ceil100(base * (6 if dealer else 4))
    loser = WIND_LETTERS[discarder] if discarder is not None else "discarder"
    if discarder is not None:
        for other in range(players):
            if other != seat:
                pay[WIND_LETTERS[other]] = 0
    pay[loser] = -(value + opts.honba_ron * honba)
    pay[WIND_LETTERS[seat]] = value + opts.honba_ron * honba + 1000 * sticks
    return value, pay

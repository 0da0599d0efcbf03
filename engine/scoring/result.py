"""Typed scoring results, and points/payments from han and fu (riichi.md §10).

:func:`win_result` and :func:`settle_at` are the scorer's cheap routes to exactly what
``ScoreResult(...)`` and :func:`settle` give (the fast path makes one of each per hand).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.scoring.breakdown import Breakdown

if TYPE_CHECKING:
    from engine.notation import WinContext
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
    details: dict[str, Any] = field(default_factory=dict)  # variant extras as JSON data (to_json)
    #: the variant's typed parts of the value (taiwan16 tai items, pk bazoro, shoukou
    #: transformations, chinitsu_toutenkou Whites; :mod:`engine.scoring.breakdown`): what readers use
    breakdown: tuple[Breakdown, ...] = ()

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


_FIELD_NAMES = (
    "agari",
    "yaku",
    "han",
    "fu",
    "yakuman",
    "points",
    "payments",
    "limit",
    "reason",
    "wait",
    "details",
    "breakdown",
)


class _Unfrozen:
    """A plain slots class with exactly :class:`ScoreResult`'s slots: filled with ordinary
    (specialised, cheap) attribute stores, then relabelled as a ScoreResult."""

    __slots__ = _FIELD_NAMES
    agari: bool
    yaku: tuple[YakuScore, ...]
    han: int
    fu: int
    yakuman: int
    points: int
    payments: dict[str, int]
    limit: str
    reason: str
    wait: str
    details: dict[str, Any]
    breakdown: tuple[Breakdown, ...]


def _make_win_result() -> Callable[..., ScoreResult]:
    """Build ``win_result``: a winning :class:`ScoreResult` made without the dataclass ``__init__``.

    A frozen dataclass's ``__init__`` stores each field through ``object.__setattr__``, which costs
    about as much as the whole rest of a fast-path hand. Python allows ``__class__`` assignment
    between classes with the same ``__slots__`` (data model, "__slots__"), so the result is
    filled as a plain :class:`_Unfrozen` and then becomes a ScoreResult: the same object the
    constructor makes, frozen from then on. An import-time check compares it with the
    constructor's; should that ever fail (fields changed, another Python), the ordinary
    constructor is used."""

    def slow(
        yaku: tuple[YakuScore, ...],
        han: int,
        fu: int,
        yakuman: int,
        points: int,
        payments: dict[str, int],
        limit: str,
        wait: str,
    ) -> ScoreResult:
        return ScoreResult(True, yaku, han, fu, yakuman, points, payments, limit, wait=wait)

    new = object.__new__
    result_class = ScoreResult

    def fast(
        yaku: tuple[YakuScore, ...],
        han: int,
        fu: int,
        yakuman: int,
        points: int,
        payments: dict[str, int],
        limit: str,
        wait: str,
    ) -> ScoreResult:
        r = new(_Unfrozen)
        r.agari = True
        r.yaku = yaku
        r.han = han
        r.fu = fu
        r.yakuman = yakuman
        r.points = points
        r.payments = payments
        r.limit = limit
        r.reason = ""
        r.wait = wait
        r.details = {}
        r.breakdown = ()
        r.__class__ = result_class  # type: ignore[assignment]
        return r  # type: ignore[return-value]

    if getattr(ScoreResult, "__slots__", None) != _FIELD_NAMES:
        return slow
    try:
        probe = fast((YakuScore("riichi", 1),), 1, 30, 0, 1000, {"E": 1}, "", "tanki")
    except TypeError:
        return slow
    same = slow((YakuScore("riichi", 1),), 1, 30, 0, 1000, {"E": 1}, "", "tanki")
    return fast if type(probe) is ScoreResult and probe == same else slow


# ``win_result(yaku, han, fu, yakuman, points, payments, limit, wait)`` is
# ``ScoreResult(True, yaku, han, fu, yakuman, points, payments, limit, wait=wait)``.
win_result = _make_win_result()


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
    return settle_at(base, seat, tsumo, discarder, honba, sticks, opts)


def settle_win(base: int, ctx: WinContext, opts: RiichiOptions) -> tuple[int, dict[str, int]]:
    """:func:`settle` for the win ``ctx`` describes (its seat, tsumo or ron, discarder, honba, sticks)."""
    return settle_at(base, ctx.seat_wind, ctx.tsumo, ctx.discarder, ctx.honba, ctx.sticks, opts)


_OTHERS: dict[tuple[int, int], tuple[str, ...]] = {}  # (players, seat) -> the others' letters, in seat order


# Settlements by (base, seat, tsumo, discarder, honba, sticks, players, honba_ron, honba_tsumo):
# few distinct ones occur (a few dozen bases), so most hands find theirs here.
_SETTLED: dict[tuple[int, int, bool, int | None, int, int, int, int, int], tuple[int, dict[str, int]]] = {}


def settle_at(
    base: int, seat: int, tsumo: bool, discarder: int | None, honba: int, sticks: int, opts: RiichiOptions
) -> tuple[int, dict[str, int]]:
    """:func:`settle` with positional arguments (the scorer calls it once per hand)."""
    key = (base, seat, tsumo, discarder, honba, sticks, opts.players, opts.honba_ron, opts.honba_tsumo)
    found = _SETTLED.get(key)
    if found is None:
        found = _settle(base, seat, tsumo, discarder, honba, sticks, opts)
        if len(_SETTLED) >= 4096:
            _SETTLED.clear()
        _SETTLED[key] = found
    return found[0], found[1].copy()  # each result owns its payments


def _settle(
    base: int, seat: int, tsumo: bool, discarder: int | None, honba: int, sticks: int, opts: RiichiOptions
) -> tuple[int, dict[str, int]]:
    """Payments list the other seats in seat order, then the winner (a ron's discarder keeps its
    place among the others), so a result's JSON reads the same whichever path made it."""
    players = opts.players
    others = _OTHERS.get((players, seat))
    if others is None:
        others = _OTHERS[(players, seat)] = tuple(WIND_LETTERS[o] for o in range(players) if o != seat)
    if tsumo:
        extra = opts.honba_tsumo * honba
        double = -(-base * 2 // 100) * 100
        if seat == 0:
            pay = dict.fromkeys(others, -(double + extra))
            total = double * (players - 1)
        else:
            single = -(-base // 100) * 100
            pay = dict.fromkeys(others, -(single + extra))
            pay["E"] = -(double + extra)  # the dealer (seat 0) pays double; "E" is already first
            total = double + single * (players - 2)
        pay[WIND_LETTERS[seat]] = total + extra * (players - 1) + 1000 * sticks
        return total, pay
    value = -(-base * (6 if seat == 0 else 4) // 100) * 100
    extra = opts.honba_ron * honba
    if discarder is not None:
        pay = dict.fromkeys(others, 0)
        pay[WIND_LETTERS[discarder]] = -(value + extra)
    else:
        pay = {"discarder": -(value + extra)}
    pay[WIND_LETTERS[seat]] = value + extra + 1000 * sticks
    return value, pay

"""The taiwan16 tai table (rules/taiwan16.md §5, §6) and payments (TW-13), as pure functions.

:func:`evaluate_tai` takes a winning hand (concealed kinds without the winning tile, melds, the
winning kind) and the situation of the win, reads the hand every way it can be read as five sets
and a pair (each decomposition × each way the winning tile completed it), and keeps the reading
worth the most tai. Flower wins (TW-14) ignore the hand's shape. Dealer tai (T-1, T-2) is not part
of the hand's tai: it belongs to each payment (:func:`payment_tai`, :func:`settle`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from engine.hand.decompose import SEQ, Wait, decompositions, wait_readings
from engine.notation import Meld, MeldType
from engine.rules.taiwan16.options import DEFAULT, TaiwanOptions
from engine.scoring.breakdown import TaiItem  # one tai item, as the scoring result carries it

__all__ = [
    "FLOWER_KINDS",
    "ITEMS",
    "Situation",
    "T11_NAMES",
    "TaiItem",
    "TaiResult",
    "evaluate_tai",
    "own_flowers",
    "payment_rows",
    "payment_tai",
    "settle",
    "shape_waits",
]

FLOWER_KINDS = tuple(range(34, 42))  # 1f..8f
_DRAGONS = (31, 32, 33)
_WINDS = (27, 28, 29, 30)

# id → (name, English name). The order is the table's.
ITEMS: dict[str, tuple[str, str]] = {
    "T-1": ("莊家", "dealer"),
    "T-2": ("連莊拉莊", "continuation"),
    "T-3": ("宣告聴牌", "declared tenpai"),
    "T-4": ("自摸", "self-draw"),
    "T-5": ("門清", "concealed"),
    "T-6": ("三元台", "dragon set"),
    "T-7": ("圈風台", "prevailing wind"),
    "T-8": ("門風台", "seat wind"),
    "T-9": ("花牌", "own flower"),
    "T-9b": ("花槓", "flower set"),
    "T-10": ("門清自摸", "concealed self-draw"),
    "T-11": ("獨聽", "unique wait"),
    "T-12": ("搶槓", "robbing a kong"),
    "T-13": ("槓上開花", "win on a replacement"),
    "T-14": ("海底撈月", "last tile"),
    "T-15": ("全求人", "all exposed"),
    "T-16": ("平胡", "all sequences, two-sided"),
    "T-17": ("三暗刻", "three concealed triplets"),
    "T-18": ("地聴", "declared on the first discard"),
    "T-18b": ("不求", "self-draw after 地聴"),
    "T-19": ("天聴", "declared on the dealt hand"),
    "T-20": ("対対胡", "all triplets"),
    "T-21": ("混一色", "one suit and honours"),
    "T-22": ("小三元", "little three dragons"),
    "T-23": ("配牌花胡", "flower win in the deal"),
    "T-24": ("四暗刻", "four concealed triplets"),
    "T-25": ("五暗刻", "five concealed triplets"),
    "T-26": ("清一色", "one suit"),
    "T-27": ("大三元", "big three dragons"),
    "T-28": ("小四喜", "little four winds"),
    "T-29": ("字一色", "all honours"),
    "T-30": ("七搶一", "seven flowers rob one"),
    "T-31": ("八仙過海", "all eight flowers"),
    "T-32": ("大四喜", "big four winds"),
    "T-33": ("地胡", "win on the dealer's first discard"),
    "T-34": ("天胡", "dealt complete"),
}
P = TypeVar("P", int, str)  # a payer: a seat number, or a wind letter / "discarder" (hand lines)
#: T-11's item name for each unique wait (the item reads the wait, not a fixed name)
T11_NAMES = {Wait.PENCHAN: "辺張", Wait.KANCHAN: "中洞", Wait.TANKI: "単吊"}

TENPAI_KINDS = ("", "declared", "earth", "heaven")
REPLACEMENTS = ("", "kong", "flower")
FLOWER_WINS = ("", "seven", "eight")


@dataclass(frozen=True, slots=True, kw_only=True)
class Situation:
    """What the win's value depends on besides the tiles (the table fills it; so does the notation)."""

    tsumo: bool = False
    seat_wind: int = 0  # 0 East .. 3 North: the winner's seat wind (TW-5), not "is the dealer"
    round_wind: int = 0
    flowers: tuple[int, ...] = ()  # flower kinds (34..41) the winner has exposed
    tenpai: str = ""  # "" | "declared" (TW-12, T-3) | "earth" (T-18) | "heaven" (T-19)
    replacement: str = ""  # the winning draw was a replacement: "" | "kong" | "flower"
    chankan: bool = False  # T-12
    last_tile: bool = False  # tsumo on the last tile (or its same-turn replacement); ron on its discard
    tenhou: bool = False  # T-34
    chiihou: bool = False  # T-33: a non-dealer's win on the dealer's first discard
    flower_win: str = ""  # TW-14: "" | "seven" (七搶一) | "eight" (八仙過海)
    deal_phase: bool = False  # T-23: the flower win came out of the deal

    def __post_init__(self) -> None:
        if self.tenpai not in TENPAI_KINDS:
            raise ValueError(f"tenpai={self.tenpai}: use declared, earth or heaven")
        if self.replacement not in REPLACEMENTS:
            raise ValueError(f"replacement={self.replacement}: use kong or flower")
        if self.flower_win not in FLOWER_WINS:
            raise ValueError(f"flower_win={self.flower_win}: use seven or eight")


@dataclass(frozen=True, slots=True)
class TaiResult:
    """The hand's tai items (T-3…T-34, without dealer tai), their total and the wait read."""

    items: tuple[TaiItem, ...]
    wait: str = ""

    @property
    def tai(self) -> int:
        return sum(i.tai for i in self.items)

    def ids(self) -> list[str]:
        return [i.id for i in self.items]


def _item(tid: str, tai: int, name: str | None = None) -> TaiItem:
    return TaiItem(tid, name or ITEMS[tid][0], tai)


# ---------------------------------------------------------------------- flowers


def own_flowers(seat_wind: int) -> tuple[int, int]:
    """T-9: East 1f+5f, South 2f+6f, West 3f+7f, North 4f+8f (the seed's pairing)."""
    return 34 + seat_wind, 38 + seat_wind


def flower_items(flowers: Sequence[int], seat_wind: int) -> list[TaiItem]:
    """T-9 (1 per own flower) and T-9b (2 per complete group 1f–4f or 5f–8f, which replaces the
    own flower's point inside that group; A16)."""
    held = set(flowers)
    out: list[TaiItem] = []
    for group in ((34, 35, 36, 37), (38, 39, 40, 41)):
        if all(f in held for f in group):
            out.append(_item("T-9b", 2))
            continue
        for f in own_flowers(seat_wind):
            if f in group and f in held:
                out.append(_item("T-9", 1, f"花牌 {f - 33}f"))
    return out


# ---------------------------------------------------------------------- waits


def shape_waits(counts: Sequence[int]) -> list[int]:
    """Kinds that complete a 3n+1 concealed part by shape, including kinds already held in every
    copy (the tai table's "unique wait" counts them; T-11)."""
    c = list(counts[:34])
    if sum(c) % 3 != 1:
        return []
    out: list[int] = []
    for k in range(34):
        c[k] += 1
        if decompositions(c):
            out.append(k)
        c[k] -= 1
    return out


def _all_two_sided(counts16: Sequence[int], waits: Sequence[int]) -> bool:
    """T-16: every reading of every winning kind is a two-sided (ryanmen) wait."""
    if not waits:
        return False
    c = list(counts16[:34])
    for w in waits:
        c[w] += 1
        for sets, pair in decompositions(c):
            for wait, _ in wait_readings(sets, pair, w):
                if wait is not Wait.RYANMEN:
                    return False
        c[w] -= 1
    return True


# ---------------------------------------------------------------------- the table


def _honour_items(
    trip: set[int], pair: set[int], seat_wind: int, round_wind: int, opts: TaiwanOptions
) -> list[TaiItem]:
    out: list[TaiItem] = []
    dragons = [d for d in _DRAGONS if d in trip]
    dragon_pair = any(d in pair for d in _DRAGONS)
    if len(dragons) == 3:
        out.append(_item("T-27", 8))
    elif len(dragons) == 2 and dragon_pair:
        out.append(_item("T-22", 4))
    else:
        for d in dragons:
            out.append(_item("T-6", 1, f"三元台 {'白發中'[d - 31]}"))
    winds = [w for w in _WINDS if w in trip]
    if len(winds) == 4:
        out.append(_item("T-32", opts.tai.daisuushii))
        return out
    if len(winds) == 3 and any(w in pair for w in _WINDS):
        out.append(_item("T-28", opts.tai.shousuushii))
    if 27 + round_wind in trip:
        out.append(_item("T-7", 1))
    if 27 + seat_wind in trip:
        out.append(_item("T-8", 1))
    return out


def _suit_items(kinds: set[int], opts: TaiwanOptions) -> list[TaiItem]:
    suits = {k // 9 for k in kinds if k < 27}
    honours = any(k >= 27 for k in kinds)
    if not suits:
        return [_item("T-29", opts.tai.tsuuiisou)]
    if len(suits) == 1:
        return [_item("T-21", 4)] if honours else [_item("T-26", 8)]
    return []


def _situation_items(sit: Situation, concealed_hand: bool, opts: TaiwanOptions) -> list[TaiItem]:
    out: list[TaiItem] = []
    ready = sit.tenpai in ("earth", "heaven")
    if sit.tenpai == "declared":
        out.append(_item("T-3", 1))
    elif sit.tenpai == "earth":
        out.append(_item("T-18", 4))
    elif sit.tenpai == "heaven":
        if not opts.tenting:
            raise ValueError("天聴 (tenpai=heaven) needs the option taiwan16.tenting=true")
        out.append(_item("T-19", 8))
    if sit.tenhou:
        out.append(_item("T-34", opts.tai.tenhou))  # no T-4, T-5, T-10, T-11 (A6)
    elif ready:
        if sit.tsumo:
            out.append(_item("T-18b", 2))  # 不求 instead of T-4/T-10; never T-5
    elif concealed_hand:
        out.append(_item("T-10", 3) if sit.tsumo else _item("T-5", 1))
    elif sit.tsumo:
        out.append(_item("T-4", 1))
    if sit.chankan:
        out.append(_item("T-12", 1))
    if sit.tsumo and not sit.tenhou and (
        sit.replacement == "kong" or (sit.replacement == "flower" and opts.kong_bloom_on_flower)
    ):
        out.append(_item("T-13", 1))
    if sit.last_tile and (sit.tsumo or (opts.haitei_ron and not sit.chankan)):
        out.append(_item("T-14", 1))
    if sit.chiihou:
        out.append(_item("T-33", 16))
    return out


class NotAWin(ValueError):
    """The tiles are not five sets and a pair (or a flower win without the flowers)."""


def evaluate_tai(
    concealed: Sequence[int],
    melds: Sequence[Meld],
    win: int,
    sit: Situation,
    opts: TaiwanOptions = DEFAULT,
) -> TaiResult:
    """The best reading's tai items. ``concealed`` are kinds without the winning kind ``win``
    (a flower kind for a flower win). Raises :class:`NotAWin` for a hand that does not win."""
    flowers = tuple(sorted(set(sit.flowers)))
    if sit.flower_win:
        need = 8 if sit.flower_win == "eight" else 7
        if len(flowers) != need:
            raise NotAWin(f"{ITEMS['T-31' if need == 8 else 'T-30'][0]} needs {need} flowers, the winner has {len(flowers)}")
        items = flower_items(flowers, sit.seat_wind)
        items.append(_item("T-31", 8) if need == 8 else _item("T-30", 8))
        if sit.deal_phase:
            items.append(_item("T-23", 4))
        return TaiResult(tuple(items), "")
    if win >= 34:
        raise NotAWin("a flower is never a winning tile except for 七搶一 / 八仙過海")
    c16 = [0] * 34
    for k in concealed:
        c16[k] += 1
    c17 = list(c16)
    c17[win] += 1
    readings = decompositions(c17)
    if not readings or len(readings[0][0]) + len(melds) != 5:
        raise NotAWin("the tiles are not five sets and a pair")

    concealed_hand = all(m.type is MeldType.ANKAN for m in melds)
    meld_trip = {m.kind for m in melds if m.type is not MeldType.CHI}
    every = {k for k in range(34) if c17[k]} | {m.kind + i for m in melds for i in (0, 1, 2) if m.type is MeldType.CHI}
    every |= meld_trip
    honour_trip = {k for k in range(27, 34) if c17[k] >= 3} | {k for k in meld_trip if k >= 27}
    honour_pair = {k for k in range(27, 34) if c17[k] == 2}

    common = _situation_items(sit, concealed_hand, opts)
    common += flower_items(flowers, sit.seat_wind)
    common += _honour_items(honour_trip, honour_pair, sit.seat_wind, sit.round_wind, opts)
    suit = _suit_items(every, opts)
    common += suit
    all_honours = bool(suit) and suit[0].id == "T-29"

    waits = [] if sit.tenhou else shape_waits(c16)
    unique = len(waits) == 1
    all_exposed = len(melds) == 5 and all(m.type is not MeldType.ANKAN for m in melds)
    pinghu_shape = (
        not sit.tsumo
        and not sit.tenhou
        and not flowers
        and not any(k >= 27 for k in every)
        and all(m.type is MeldType.CHI for m in melds)
        and _all_two_sided(c16, waits)
    )
    n_ankan = sum(1 for m in melds if m.type is MeldType.ANKAN)

    best: tuple[int, list[TaiItem], str] | None = None
    for sets, pair in readings:
        ways: list[Wait | None] = [None] if sit.tenhou else [w for w, _ in wait_readings(sets, pair, win)]
        for wait in ways:
            items = list(common)
            trips = [i for i, s in enumerate(sets) if s < SEQ]
            hidden = len(trips) + n_ankan
            if wait is Wait.SHANPON and not sit.tsumo:
                hidden -= 1  # a triplet completed by a discard is not concealed (T-17)
            if hidden >= 5:
                items.append(_item("T-25", 8))
            elif hidden == 4:
                items.append(_item("T-24", opts.tai.suuankou))
            elif hidden == 3:
                items.append(_item("T-17", opts.tai.sanankou))
            if len(trips) == len(sets) and not any(m.type is MeldType.CHI for m in melds) and not all_honours:
                items.append(_item("T-20", 4))
            if all_exposed and not sit.tsumo:
                items.append(_item("T-15", 2))
            if unique and wait in T11_NAMES:
                assert wait is not None
                items.append(_item("T-11", 1, T11_NAMES[wait]))
            if pinghu_shape and all(s >= SEQ for s in sets):
                items.append(_item("T-16", 2))
            total = sum(i.tai for i in items)
            name = "" if wait is None else wait.name.lower()
            if best is None or total > best[0]:
                best = (total, items, name)
    assert best is not None
    return TaiResult(tuple(best[1]), best[2])


# ---------------------------------------------------------------------- payments


def dealer_tai(continuation: int) -> int:
    """T-1 + T-2: 1 + 2n (1, 3, 5, …)."""
    return 1 + 2 * continuation


def payment_tai(tai: int, *, winner_is_dealer: bool, payer_is_dealer: bool, continuation: int, opts: TaiwanOptions = DEFAULT) -> int:
    """T + D_payer (TW-13), capped by ``tai_cap`` when one is set."""
    t = tai + (dealer_tai(continuation) if winner_is_dealer or payer_is_dealer else 0)
    if opts.tai_cap is not None:
        t = min(t, opts.tai_cap)
    return t


def payment_rows(
    tai: int,
    *,
    winner: P,
    payers: Sequence[P],
    dealer: P | None,
    continuation: int,
    opts: TaiwanOptions = DEFAULT,
) -> list[tuple[P, int, int]]:
    """(payer, T + D_payer, 底 + rate × (T + D_payer)) for each payer (TW-13). Seats may be seat
    numbers or winds; a payer that is not ``dealer`` is a non-dealer."""
    rows: list[tuple[P, int, int]] = []
    for p in payers:
        t = payment_tai(
            tai, winner_is_dealer=winner == dealer, payer_is_dealer=p == dealer, continuation=continuation, opts=opts
        )
        rows.append((p, t, opts.base + opts.rate * t))
    return rows


def settle(
    tai: int,
    *,
    winner: int,
    payers: Sequence[int],
    dealer: int | None,
    continuation: int,
    opts: TaiwanOptions = DEFAULT,
) -> dict[int, int]:
    """Each payer pays 底 + rate × (T + D_payer) to the winner (TW-13); seat → delta."""
    out: dict[int, int] = {}
    rows = payment_rows(tai, winner=winner, payers=payers, dealer=dealer, continuation=continuation, opts=opts)
    for p, _, amount in rows:
        out[p] = out.get(p, 0) - amount
    out[winner] = out.get(winner, 0) + sum(amount for _, _, amount in rows)
    return out

"""``chinitsu_toutenkou``: 清一色東天紅, three-player one-suit Toutenkou with White as a wildcard.

Spec: ``shared/rules/chinitsu_toutenkou.md`` (rule ids CT-A1 … CT-H5). 112 tiles (one number suit
×8, 1m 5m 9m ×4, honours ×4), manzu and North are nuki-dora (gari), White stands for any honour,
and a hand is worth the sum of its point items (no fu, no limits).

* :class:`CtOptions` — the spec's options table (``ct.*``) plus the named defaults of its §J.
* :class:`ChinitsuToutenkou` — the :class:`~engine.rules.base.Ruleset` subclass: tile set, hand
  shapes (:class:`~engine.hand.wildcard.ToutenkouCalculator`) and the ``score`` hook.
* Scoring enumerates every assignment of the Whites (and of the ippatsu White, CT-C2), every
  reading and every choice of a White dora indicator (CT-C4), and keeps the winner's best total;
  tenhou/chiihou take the cheapest winning tile (CT-G9).
* Pure helpers the table uses: :func:`kuikae_forbidden` (CT-E3), :func:`open_riichi_exposure_ok`
  and :func:`open_riichi_shown` (CT-F2), :func:`riichi_ankan_ok` (CT-F3), :func:`noten_payments`
  (CT-H1), :func:`nagashi_payments` (CT-G10), :func:`chombo_payments` (CT-H3),
  :func:`call_priority` (CT-E2), :func:`dora_kind` (CT-B5).

Hand grammar extras (``python -m engine score``): ``suit=p|s`` (inferred from the tiles when
absent), ``nuki=<tiles>`` (the winner's extracted gari, e.g. ``nuki=4z1m``; ``kita=N`` means N
Norths), ``open_riichi=1``, ``dealin=1`` (a non-riichi player dealt into the open riichi),
and any :class:`CtOptions` field as ``key=value``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from itertools import combinations_with_replacement, product
from typing import TYPE_CHECKING, Any, ClassVar

from engine.hand.decompose import Wait, suit_decompositions
from engine.hand.shanten import ShantenCalculator
from engine.hand.wildcard import MANZU, ToutenkouCalculator
from engine.notation import WINDS, HandSpec, Meld, MeldType, WinContext
from engine.rules.base import Ruleset, register
from engine.rules.options import AbortiveDraws, RiichiOptions
from engine.scoring.evaluate import HandError, standard_readings
from engine.scoring.result import NO_YAKU, NOT_A_WIN, ScoreResult, YakuScore
from engine.scoring.yaku import Chankan as ChankanYaku
from engine.scoring.yaku import (
    Chanta,
    Chiihou,
    Chiitoitsu,
    Chinitsu,
    Chinroutou,
    Chuuren,
    Daisangen,
    Daisuushii,
    Haitei,
    Haku,
    HandFacts,
    HandView,
    Hatsu,
    Honitsu,
    Honroutou,
    Houtei,
    Iipeikou,
    Ippatsu,
    Ittsu,
    Junchan,
    JunseiChuuren,
    MenzenTsumo,
    Pinfu,
    Rinshan,
    RoundWind,
    Ryanpeikou,
    Sanankou,
    Sankantsu,
    SeatWind,
    Shousangen,
    Shousuushii,
    Suuankou,
    SuuankouTanki,
    Suukantsu,
    Tanyao,
    Tenhou,
    Toitoi,
    Tsuuiisou,
    Yaku,
)
from engine.scoring.yaku import Chun as ChunYaku
from engine.table.actions import Action, ActionType, canon
from engine.table.wall import Deal, TileSet, deal_nuki_block
from engine.tiles import KIND_NAMES, RED, dora_of, format_tiles, kind_of, parse_tiles

if TYPE_CHECKING:
    from engine.table.game import Game, HandResult, TableMeld

__all__ = [
    "NOT_APPLICABLE",
    "ChinitsuToutenkou",
    "CtOptions",
    "call_priority",
    "chombo_payments",
    "dora_kind",
    "kuikae_forbidden",
    "nagashi_payments",
    "noten_payments",
    "open_riichi_exposure_ok",
    "open_riichi_exposures",
    "open_riichi_shown",
    "riichi_ankan_ok",
    "tile_codes",
]

NAME = "chinitsu_toutenkou"
EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED_DRAGON = range(27, 34)
HONOURS = tuple(range(27, 34))
GARI_KINDS = (0, 4, 8, NORTH)
SUIT_BASE = {"p": 9, "s": 18}

# Table-only rules (fixing physical mistakes, or declarations the engine makes atomic).
NOT_APPLICABLE: dict[str, str] = {
    "CT-E5": "call cancellation before the discard and 'a kan is final once placed' are table "
    "manners; the engine's call actions are atomic",
    "CT-H4": "missing tiles, wrongly extracted tiles, a winning tile taken into the hand, pointing "
    "out others' mistakes and signalling waits are physical-table matters the engine cannot get wrong",
}


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

    def gari_points(self, kind: int) -> int:
        return dict(self.gari_value).get(kind, 0)

    @property
    def suit_base(self) -> int:
        return SUIT_BASE[self.suit]


# --- point table (CT-G2) ---------------------------------------------------------------------------

# id → (closed, open) points; 0 open = closed only.
ORDINARY: dict[str, tuple[int, int]] = {
    "riichi": (1, 0),
    "double_riichi": (2, 0),
    "open_riichi": (1, 0),
    "ippatsu": (1, 0),
    "menzen_tsumo": (1, 0),
    "pinfu": (1, 0),
    "tanyao": (1, 1),
    "iipeikou": (1, 0),
    "haku": (1, 1),
    "hatsu": (1, 1),
    "chun": (1, 1),
    "seat_wind": (1, 1),
    "round_wind": (1, 1),
    "haitei": (1, 1),
    "houtei": (1, 1),
    "rinshan": (1, 1),
    "chankan": (1, 1),
    "chiitoitsu": (2, 0),
    "ittsu": (2, 1),
    "toitoi": (2, 2),
    "sanankou": (2, 2),
    "sankantsu": (2, 2),
    "honitsu": (3, 2),
    "ryanpeikou": (3, 0),
    "chinitsu": (6, 5),
    "chanta": (20, 10),
    "junchan": (50, 30),  # closed: a yakuman
    "honroutou": (50, 50),
    "renhou": (30, 30),
    "tsumosu": (50, 50),
    "shousangen": (50, 50),  # a yakuman
}
YAKUMAN: dict[str, int] = {
    "tenhou": 50,
    "chiihou": 50,
    "kokushi": 50,
    "shousuushii": 50,
    "chuuren": 50,
    "suukantsu": 50,
    "ryuuiisou": 50,
    "daisharin": 50,
    "chiitoitsu_8": 50,
    "suuankou_tanki": 100,
    "kokushi_13": 100,
    "junsei_chuuren": 100,
    "daisangen": 100,
    "daisuushii": 100,
    "tsuuiisou": 100,
    "chinroutou": 100,
}

# CT-G4: an item is not counted when another one present includes it.
EXCLUDES: dict[str, frozenset[str]] = {
    "double_riichi": frozenset({"riichi"}),
    "ryanpeikou": frozenset({"iipeikou"}),
    "chinitsu": frozenset({"honitsu"}),
    "junchan": frozenset({"chinitsu", "chanta", "honitsu"}),
    "chanta": frozenset({"honitsu"}),
    "honroutou": frozenset({"honitsu", "chanta"}),
    "tsumosu": frozenset({"sanankou", "toitoi"}),
    "suuankou_tanki": frozenset({"sanankou", "toitoi", "tsumosu"}),
    "daisangen": frozenset({"shousangen", "haku", "hatsu", "chun"}),
    "shousangen": frozenset({"haku", "hatsu", "chun"}),
    "daisuushii": frozenset({"seat_wind", "round_wind", "shousuushii"}),
    "shousuushii": frozenset({"seat_wind", "round_wind"}),
    "tsuuiisou": frozenset({"toitoi", "honroutou", "chanta"}),
    "chinroutou": frozenset({"toitoi", "honroutou", "junchan", "chanta", "chinitsu"}),
    "chuuren": frozenset({"chinitsu", "honitsu"}),
    "junsei_chuuren": frozenset({"chinitsu", "honitsu", "chuuren"}),
    "ryuuiisou": frozenset({"chinitsu", "honitsu"}),
    "daisharin": frozenset(
        {"chinitsu", "honitsu", "chiitoitsu", "tanyao", "pinfu", "iipeikou", "ryanpeikou", "chiitoi_4", "chiitoi_6"}
    ),
    "kokushi_13": frozenset({"kokushi"}),
}

# Bonus items: never satisfy the one-point minimum (CT-A6).
BONUS = frozenset(
    {
        "banban",
        "menzen",
        "oya",
        "honba",
        "gari",
        "gari_set",
        "minkan",
        "ankan",
        "dora",
        "ura_dora",
        "karasu",
        "open_riichi_dealin",
        "chiitoi_4",
        "chiitoi_6",
    }
)
# chiitoi_4/6 are the CT-G3 bonuses: part of chiitoitsu, counted with it.
QUALIFYING_BONUS = frozenset({"chiitoi_4", "chiitoi_6"})

_SITUATIONAL: tuple[tuple[str, Yaku], ...] = (
    ("ippatsu", Ippatsu()),
    ("menzen_tsumo", MenzenTsumo()),
    ("haitei", Haitei()),
    ("houtei", Houtei()),
    ("rinshan", Rinshan()),
    ("chankan", ChankanYaku()),
)
_SHAPE: tuple[tuple[str, Yaku], ...] = (
    ("pinfu", Pinfu()),
    ("tanyao", Tanyao()),
    ("iipeikou", Iipeikou()),
    ("ryanpeikou", Ryanpeikou()),
    ("haku", Haku()),
    ("hatsu", Hatsu()),
    ("chun", ChunYaku()),
    ("seat_wind", SeatWind()),
    ("round_wind", RoundWind()),
    ("chiitoitsu", Chiitoitsu()),
    ("ittsu", Ittsu()),
    ("chanta", Chanta()),
    ("junchan", Junchan()),
    ("toitoi", Toitoi()),
    ("sanankou", Sanankou()),
    ("sankantsu", Sankantsu()),
    ("shousangen", Shousangen()),
    ("honroutou", Honroutou()),
    ("honitsu", Honitsu()),
    ("chinitsu", Chinitsu()),
)
_YAKUMAN_OBJ: tuple[tuple[str, Yaku], ...] = (
    ("tenhou", Tenhou()),
    ("chiihou", Chiihou()),
    ("tsumosu", Suuankou()),
    ("suuankou_tanki", SuuankouTanki()),
    ("daisangen", Daisangen()),
    ("shousuushii", Shousuushii()),
    ("daisuushii", Daisuushii()),
    ("tsuuiisou", Tsuuiisou()),
    ("chinroutou", Chinroutou()),
    ("chuuren", Chuuren()),
    ("junsei_chuuren", JunseiChuuren()),
    ("suukantsu", Suukantsu()),
)


_SHOUSUUSHII = Shousuushii()
_DAISUUSHII = Daisuushii()

# --- small pure helpers ------------------------------------------------------------------------------


def tile_codes(suit: str = "p") -> tuple[int, ...]:
    """CT-B1: the 112 tiles as codes (one suit ×8, 1m 5m 9m ×4, honours ×4), in kind order."""
    base = SUIT_BASE[suit]
    out: list[int] = []
    for k in MANZU:
        out += [k] * 4
    for k in range(base, base + 9):
        out += [k] * 8
    for k in HONOURS:
        out += [k] * 4
    return tuple(out)


def dora_kind(indicator: int, white_choice: int | None = None) -> int:
    """CT-B5: suit 1→…→9→1, manzu 1m→5m→9m→1m, winds E→S→W→N→E, Gr→Rd→Wh; a White indicator
    gives the chosen honour (CT-C4), or -1 when nothing is chosen."""
    k = kind_of(indicator)
    if k in MANZU:
        return MANZU[(MANZU.index(k) + 1) % 3]
    if k == WHITE:
        return -1 if white_choice is None else white_choice
    return dora_of(k)


def kuikae_forbidden(called: int, exposed: Sequence[int]) -> frozenset[int]:
    """CT-E3: kinds that may not be discarded right after a pon.

    The discard may not form a triplet with the two exposed tiles (White wild among honours). With
    two exposed Whites only a pair with the called tile is forbidden; a called White pairs with
    every honour (J21)."""
    a, b = (kind_of(x) for x in exposed)
    c = kind_of(called)
    if a == WHITE and b == WHITE:
        if c == WHITE:
            return frozenset(HONOURS)
        return frozenset({c, WHITE})
    if WHITE in (a, b):
        other = b if a == WHITE else a
        return frozenset({other, WHITE})
    return frozenset({a, WHITE}) if a >= 27 else frozenset({a})


def call_priority(discarder: int, claimants: Iterable[int], players: int = 3) -> list[int]:
    """CT-E2 / CT-G8: claimants ordered by closeness in turn order after the discarder."""
    return sorted(claimants, key=lambda s: (s - discarder) % players)


def noten_payments(tenpai: Sequence[bool], total: int = 40) -> list[int]:
    """CT-H1: the noten penalty, ``total`` to the table: with one tenpai player each noten player
    pays it half; with two, the noten player pays each half (J11)."""
    n = len(tenpai)
    t = [s for s in range(n) if tenpai[s]]
    d = [0] * n
    if not t or len(t) == n:
        return d
    each = total // 2
    for s in range(n):
        if tenpai[s]:
            continue
        for w in t:
            d[s] -= each
            d[w] += each
    return d


def nagashi_payments(winners: Sequence[int], players: int = 3, each: int = 200) -> list[int]:
    """CT-G10: each nagashi player is paid ``each`` by every other player."""
    d = [0] * players
    for w in winners:
        for o in range(players):
            if o != w:
                d[o] -= each
                d[w] += each
    return d


def chombo_payments(offender: int, players: int = 3, each: int = 20) -> list[int]:
    """CT-H3: chombo pays ``each`` to every other player (the hand is replayed)."""
    d = [each] * players
    d[offender] = -each * (players - 1)
    return d


# --- open riichi (CT-F2) and ankan after riichi (CT-F3) -----------------------------------------------


def _counts(codes: Iterable[int]) -> list[int]:
    c = [0] * 34
    for x in codes:
        c[kind_of(x)] += 1
    return c


def _complete_as(c: Sequence[int], form: str) -> bool:
    """Is a 3n (sets) or 2n (pairs) fragment complete in that form? Whites wild among honours."""
    if form == "pairs":
        if any(c[k] for k in MANZU) or c[NORTH]:
            return False
        if any(c[k] % 2 for k in range(9, 27)):
            return False
        singles = sum(1 for k in (EAST, SOUTH, WEST, GREEN, RED_DRAGON) if c[k] % 2)
        return c[WHITE] >= singles and (c[WHITE] - singles) % 2 == 0
    if sum(c) % 3 or any(c[k] for k in MANZU):
        return False
    for lo in (9, 18):
        part = bytes(c[lo : lo + 9])
        if sum(part) and not suit_decompositions(part, True):
            return False
    hon = list(c[27:34])
    w = hon[4]
    hon[4] = 0
    for combo in combinations_with_replacement(range(7), w):
        h = list(hon)
        for i in combo:
            h[i] += 1
        if all(x % 3 == 0 for x in h) and not h[3]:
            return True
    return False


def _fragment_waits(shown: Sequence[int], form: str, calc: ToutenkouCalculator) -> set[int]:
    c = _counts(shown)
    out: set[int] = set()
    for k in [*range(9, 27), *HONOURS]:
        c[k] += 1
        if form == "pairs":
            ok = sum(c) % 2 == 0 and _complete_as(c, "pairs")
        else:
            ok = sum(c) % 3 == 2 and _fragment_sets_pair(c, calc)
        if ok:
            out.add(k)
        c[k] -= 1
    return out


def _fragment_sets_pair(c: Sequence[int], calc: ToutenkouCalculator) -> bool:
    """Sets plus one pair (the standard shape of a fragment), with the usual gari rules."""
    return calc.standard_complete(c)


def open_riichi_exposure_ok(concealed: Sequence[int], shown: Sequence[int], suit: str = "p") -> bool:
    """CT-F2: does showing ``shown`` (codes, a sub-multiset of ``concealed``, 13 − 3·melds tiles
    before the draw) show the complete wait set?

    The hidden rest must be complete groups of one form (sets, or pairs for a chiitoitsu), and the
    waits the shown part has in that form must be exactly the whole hand's waits."""
    calc = ToutenkouCalculator(SUIT_BASE[suit])
    whole = _counts(concealed)
    part = _counts(shown)
    if any(part[k] > whole[k] for k in range(34)):
        return False
    hidden = [whole[k] - part[k] for k in range(34)]
    waits = set(calc.waits(whole))
    if not waits:
        return False
    if not any(hidden):
        return True
    # one reading of the hidden rest must explain every wait: 1133445577999s hiding 334455s shows
    # 1s/7s if the rest is two sets and 9s if it is three pairs, never all three (CT-F2)
    return any(_complete_as(hidden, form) and _fragment_waits(shown, form, calc) == waits for form in ("sets", "pairs"))


def open_riichi_shown(concealed: Sequence[int], chosen: Sequence[int] | None, opts: CtOptions) -> tuple[int, ...]:
    """The tiles an open riichi shows everyone: the whole concealed hand with
    ``ct.open_riichi_expose = "all"``, else the player's valid choice (the whole hand if invalid)."""
    if opts.open_riichi_expose == "all" or chosen is None:
        return tuple(sorted(concealed, key=kind_of))
    if open_riichi_exposure_ok(concealed, chosen, opts.suit):
        return tuple(sorted(chosen, key=kind_of))
    return tuple(sorted(concealed, key=kind_of))


def open_riichi_exposures(concealed: Sequence[int], suit: str = "p") -> list[tuple[int, ...]]:
    """CT-F2 with ``ct.open_riichi_expose = "minimal"``: every part of the concealed hand (codes,
    after the riichi discard) short of the whole that validly shows the complete wait set
    (:func:`open_riichi_exposure_ok`). Smallest first; the whole hand is always valid and not
    listed."""
    return list(_exposures(tuple(sorted(kind_of(c) for c in concealed)), suit))


_EXPOSURES: dict[tuple[tuple[int, ...], str], tuple[tuple[int, ...], ...]] = {}


def _exposures(concealed: tuple[int, ...], suit: str) -> tuple[tuple[int, ...], ...]:
    key = (concealed, suit)
    found = _EXPOSURES.get(key)
    if found is not None:
        return found
    calc = ToutenkouCalculator(SUIT_BASE[suit])
    whole = _counts(concealed)
    waits = set(calc.waits(whole))
    kinds = [k for k in range(34) if whole[k]]
    out: list[tuple[int, ...]] = []
    for hid in product(*(range(whole[k] + 1) for k in kinds)) if waits else ():
        n = sum(hid)
        if n == 0 or n == len(concealed) or (n % 3 and n % 2):
            continue
        hidden = [0] * 34
        for k, x in zip(kinds, hid):
            hidden[k] = x
        shown = [k for k, x in zip(kinds, hid) for _ in range(whole[k] - x)]
        if any(_complete_as(hidden, form) and _fragment_waits(shown, form, calc) == waits for form in ("sets", "pairs")):
            out.append(tuple(shown))
    result = tuple(sorted(out, key=lambda t: (len(t), t)))
    if len(_EXPOSURES) > 5_000:
        _EXPOSURES.clear()
    _EXPOSURES[key] = result
    return result


def riichi_ankan_ok(before: Sequence[int], kind: int, suit: str = "p") -> bool:
    """CT-F3: after riichi an ankan of ``kind`` (the drawn tile making four in hand) is allowed when
    the wait set does not change; the change of possible yaku does not matter. North cannot be
    kanned (CT-E4). ``before`` is the 13-tile count array before the draw."""
    if kind == NORTH:
        return False
    calc = ToutenkouCalculator(SUIT_BASE[suit])
    c = list(before)
    waits = calc.waits(c)
    if not waits or c[kind] < 3:
        return False
    c[kind] -= 3
    return calc.waits(c) == waits


# --- scoring -----------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Item:
    name: str
    points: int


@dataclass(slots=True)
class _Best:
    total: int
    items: list[_Item]
    details: dict[str, Any]
    wait: str


def _flag(options: dict[str, str], key: str) -> bool:
    return options.get(key, "").lower() in ("1", "true", "yes", "on")


def _parse_options(spec: HandSpec, base: CtOptions) -> CtOptions:
    changes: dict[str, Any] = {}
    for f in fields(CtOptions):
        raw = spec.options.get(f.name)
        if raw is None:
            continue
        cur = getattr(base, f.name)
        if isinstance(cur, bool):
            changes[f.name] = raw.lower() in ("1", "true", "yes", "on")
        elif isinstance(cur, int):
            if not raw.isdigit():
                raise HandError(f"{f.name}={raw}: expected a whole number")
            changes[f.name] = int(raw)
        elif isinstance(cur, str):
            changes[f.name] = raw
    if changes:
        base = replace(base, **changes)
    if base.suit not in SUIT_BASE:
        raise HandError(f"suit={base.suit}: the game suit is p or s")
    return base


@dataclass(frozen=True, slots=True)
class _MeldInfo:
    type: MeldType
    kind: int  # -1: all Whites, any honour
    whites: int
    size: int


def _meld_info(m: Meld) -> _MeldInfo:
    kinds = [kind_of(t) for t in m.tiles]
    others = {k for k in kinds if k != WHITE}
    if len(others) > 1:
        raise HandError(f"meld {m} mixes kinds")
    k = next(iter(others)) if others else -1
    if 0 <= k < 27 and WHITE in kinds:
        raise HandError(f"meld {m}: a White stands only for an honour")
    return _MeldInfo(m.type, k, kinds.count(WHITE), len(kinds))


class _Scorer:
    """One hand under one ruleset: validation done, every reading valued, the best kept."""

    def __init__(self, rs: ChinitsuToutenkou, spec: HandSpec, opts: CtOptions) -> None:
        self.rs = rs
        self.spec = spec
        self.opts = opts
        self.ctx = spec.ctx
        self.base = opts.suit_base
        self.melds = [_meld_info(m) for m in spec.melds]
        self.closed = all(m.type is MeldType.ANKAN for m in spec.melds)
        self.kans = sum(1 for m in spec.melds if m.is_kan)
        nuki_raw = spec.options.get("nuki")
        if nuki_raw is not None:
            try:
                self.nuki = [kind_of(t) for t in parse_tiles(nuki_raw)]
            except ValueError as e:
                raise HandError(f"nuki={nuki_raw}: {e}") from e
        else:
            self.nuki = [NORTH] * self.ctx.kita
        for k in self.nuki:
            if k not in GARI_KINDS:
                raise HandError(f"{KIND_NAMES[k]} is not a gari: only 1m, 5m, 9m and North are extracted")
        robbed = spec.options.get("robbed_as")
        try:
            self.robbed_as = kind_of(parse_tiles(robbed)[0]) if robbed else -1
        except (ValueError, IndexError) as e:
            raise HandError(f"robbed_as={robbed}: {e}") from e
        if self.robbed_as >= 0 and self.robbed_as not in HONOURS:
            raise HandError(f"robbed_as={robbed}: a robbed White stands for an honour")
        self.open_riichi = _flag(spec.options, "open_riichi") and (self.ctx.riichi or self.ctx.double_riichi)
        self.dealin = _flag(spec.options, "dealin") and self.open_riichi and not self.ctx.tsumo

    # -- readings ------------------------------------------------------------------------------

    def best_for(self, concealed: list[int], win_code: int) -> _Best | None:
        """Concealed kinds *including* the winning tile; the best valuation or None."""
        ctx = self.ctx
        win_kind = kind_of(win_code)
        full_wild = (
            win_kind == WHITE and ctx.tsumo and ctx.ippatsu and (ctx.riichi or ctx.double_riichi)
        )
        base_counts = [0] * 34
        for k in concealed:
            base_counts[k] += 1
        best: _Best | None = None
        wild_choices: Sequence[int] = (
            [*MANZU[::2], *range(self.base, self.base + 9), *HONOURS] if full_wild else [-1]
        )
        if win_kind == WHITE and self.robbed_as >= 0 and not ctx.tsumo:
            wild_choices = [self.robbed_as]  # CT-C5: the White robbed from a pon of H counts as H
        all_white_melds = [i for i, m in enumerate(self.melds) if m.kind == -1]
        for f in wild_choices:
            c = list(base_counts)
            if f >= 0:
                c[WHITE] -= 1  # the ippatsu White becomes kind f (CT-C2)
                c[f] += 1
            whites = c[WHITE]
            c[WHITE] = 0
            for combo in combinations_with_replacement(HONOURS, whites):
                r = list(c)
                for k in combo:
                    r[k] += 1
                for meld_kinds in product(HONOURS, repeat=len(all_white_melds)):
                    kinds = [m.kind for m in self.melds]
                    for i, k in zip(all_white_melds, meld_kinds):
                        kinds[i] = k
                    if f >= 0:
                        win_options: Sequence[int] = (f,)
                    elif win_kind == WHITE:
                        win_options = sorted(set(combo))
                    else:
                        win_options = (win_kind,)
                    for wk in win_options:
                        b = self._value_resolved(r, kinds, wk, combo, f)
                        if b is not None and (best is None or b.total > best.total):
                            best = b
        return best

    def _value_resolved(
        self, r: list[int], meld_kinds: list[int], win: int, combo: tuple[int, ...], full: int
    ) -> _Best | None:
        ctx = self.ctx
        every = list(r)
        for m, k in zip(self.melds, meld_kinds):
            every[k] += m.size
        facts = HandFacts.of(every, self.closed, self.kans, ctx)
        views: list[HandView] = []
        meld_trips = list(meld_kinds)
        ankan = sum(1 for m in self.melds if m.type is MeldType.ANKAN)
        north_any = every[NORTH] > 0
        manzu = any(r[k] for k in MANZU) or any(k in MANZU for k in meld_kinds)
        if not manzu:  # every meld is a pon or kan: no called sequences
            standard_readings(r, win, facts, views, meld_seqs=[], meld_trips=meld_trips, ankan=ankan)
        if not self.melds and sum(r) == 14:
            if not manzu and not north_any and all(x % 2 == 0 for x in r):
                pairs = [k for k in range(34) for _ in range(r[k] // 2)]
                views.append(HandView(facts, "chiitoitsu", [], [], 0, -1, pairs, Wait.TANKI, [], win))
            if self._kokushi(r):
                before = list(r)
                before[win] -= 1
                views.append(
                    HandView(
                        facts, "kokushi", [], [], 0, -1, [], Wait.TANKI, [], win, tanki_13=self._kokushi_13(before)
                    )
                )
        best: _Best | None = None
        for v in views:
            if v.form == "standard" and north_any and not (_SHOUSUUSHII.applies(v) or _DAISUUSHII.applies(v)):
                continue  # CT-F4: North only in a four-winds hand
            b = self._value_view(v, every, combo, meld_kinds, full)
            if b is not None and (best is None or b.total > best.total):
                best = b
        return best

    def _kokushi(self, r: Sequence[int]) -> bool:
        b = self.base
        need = {0: 1, 8: 1, b: 2, b + 8: 2, **dict.fromkeys(HONOURS, 1)}
        if any(r[k] and k not in need for k in range(34)):
            return False
        return all(r[k] >= n for k, n in need.items()) and sum(r) == 14

    def _kokushi_13(self, before: Sequence[int]) -> bool:
        b = self.base
        need = {0: 1, 8: 1, b: 2, b + 8: 2, **dict.fromkeys(HONOURS, 1)}
        return all(before[k] == need.get(k, 0) for k in range(34))

    # -- values --------------------------------------------------------------------------------

    def _value_view(
        self, v: HandView, every: list[int], combo: tuple[int, ...], meld_kinds: list[int], full: int
    ) -> _Best | None:
        ctx = self.ctx
        opts = self.opts
        closed = self.closed
        found: dict[str, int] = {}

        def add(name: str, pts: int) -> None:
            if pts:
                found[name] = found.get(name, 0) + pts

        # situational
        if ctx.double_riichi:
            add("double_riichi", 2)
        elif ctx.riichi:
            add("riichi", 1)
        if self.open_riichi:
            add("open_riichi", ORDINARY["open_riichi"][0])
        for name, y in _SITUATIONAL:
            if y.applies(v):
                add(name, self._pts(name, closed))
        if ctx.renhou and not ctx.tsumo and not ctx.dealer:
            add("renhou", ORDINARY["renhou"][0])
        for name, y in _SHAPE:
            if y.applies(v):
                if name == "tanyao" and not closed and not opts.kuitan:
                    continue
                add(name, self._pts(name, closed))
        for name, y in _YAKUMAN_OBJ:
            if y.applies(v):
                if name == "tsumosu":
                    add(name, ORDINARY["tsumosu"][0])
                else:
                    add(name, YAKUMAN[name])
        if v.form == "kokushi":
            add("kokushi_13" if v.tanki_13 else "kokushi", YAKUMAN["kokushi_13" if v.tanki_13 else "kokushi"])
        if opts.suit == "s" and v.facts.all_green:
            add("ryuuiisou", YAKUMAN["ryuuiisou"])
        if opts.suit == "p" and closed and not self.melds and every == _DAISHARIN:
            add("daisharin", YAKUMAN["daisharin"])
        if v.form == "chiitoitsu":
            for k in set(v.pairs):
                n = v.pairs.count(k)
                if n == 2:
                    add("chiitoi_4", 2)
                elif n == 3:
                    add("chiitoi_6", 4)
                elif n == 4:
                    add("chiitoitsu_8", YAKUMAN["chiitoitsu_8"])
        # CT-G4 exclusions
        drop: set[str] = set()
        for name in found:
            drop |= EXCLUDES.get(name, frozenset())
        for name in drop:
            found.pop(name, None)
        if not found or not any(n not in BONUS or n in QUALIFYING_BONUS for n in found):
            return None
        if not opts.yakuman_adds_other and any(self._is_yakuman(n, closed) for n in found):
            found = {n: p for n, p in found.items() if self._is_yakuman(n, closed)}
        items = [_Item(n, p) for n, p in found.items()]
        qualifying = sum(i.points for i in items)
        # bonus items (CT-G2)
        bonus: list[_Item] = []

        def bon(name: str, pts: int) -> None:
            if pts:
                bonus.append(_Item(name, pts))

        bon("banban", opts.banban)
        bon("menzen", 1 if closed else 0)
        bon("oya", 1 if ctx.dealer else 0)
        bon("honba", ctx.honba)
        bon("gari", sum(opts.gari_points(k) for k in self.nuki))
        bon("gari_set", 4 * sum(1 for k in GARI_KINDS if self.nuki.count(k) >= 4))
        bon("minkan", sum(1 for m in self.melds if m.type in (MeldType.MINKAN, MeldType.KAKAN)))
        bon("ankan", 2 * sum(1 for m in self.melds if m.type is MeldType.ANKAN))
        dora, choices = self._dora(every, ctx.dora_indicators)
        bon("dora", dora)
        ura_choices: list[int] = []
        if ctx.riichi or ctx.double_riichi:
            ura, ura_choices = self._dora(every, ctx.ura_indicators)
            bon("ura_dora", ura)
        bon("karasu", (30 if closed else 20) if not self.nuki else 0)
        bon("open_riichi_dealin", opts.open_riichi_dealin_bonus if self.dealin else 0)
        total = qualifying + sum(b.points for b in bonus)
        details: dict[str, Any] = {
            "unit": "points",
            "total": total,
            "qualifying": sum(i.points for i in items if i.name not in BONUS or i.name in QUALIFYING_BONUS),
            "form": v.form,
            "suit": opts.suit,
            "wildcards": [{"tile": "5z", "as": KIND_NAMES[k]} for k in combo],
        }
        if full >= 0:
            details["robbed_white_as" if full == self.robbed_as else "ippatsu_white_as"] = KIND_NAMES[full]
        if meld_kinds and any(m.kind == -1 for m in self.melds):
            details["white_melds_as"] = [KIND_NAMES[k] for m, k in zip(self.melds, meld_kinds) if m.kind == -1]
        details["yakuman_points"] = sum(i.points for i in items if self._is_yakuman(i.name, closed))
        if choices or ura_choices:
            details["white_dora_as"] = [KIND_NAMES[k] for k in choices + ura_choices]
        return _Best(total, items + bonus, details, v.wait.name.lower())

    def _pts(self, name: str, closed: bool) -> int:
        c, o = ORDINARY[name]
        return c if closed else o

    def _is_yakuman(self, name: str, closed: bool) -> bool:
        if name in YAKUMAN:
            return True
        if name == "junchan":
            return closed
        if name == "shousangen":
            return True
        if name == "honroutou":
            return self.opts.honroutou_yakuman
        if name == "tsumosu":
            return self.opts.tsumosu_yakuman
        return False

    def _dora(self, every: Sequence[int], indicators: Sequence[int]) -> tuple[int, list[int]]:
        """Dora count over the resolved hand and the extracted gari; each White indicator picks the
        honour worth most (CT-C4)."""
        total = 0
        choices: list[int] = []
        for ind in indicators:
            d = dora_kind(ind)
            if d < 0:
                kinds = self.opts.white_dora_kinds
                d = max(kinds, key=lambda k: (every[k], -kinds.index(k)))
                choices.append(d)
            total += every[d] + self.nuki.count(d)
        if self.opts.always_dora_fives:
            total += every[self.base + 4]
        return total, choices


_DAISHARIN = [0] * 34
for _k in range(10, 17):
    _DAISHARIN[_k] = 2


A = ActionType


@dataclass(slots=True)
class CtHandState:
    """Per-hand table state (``Game.hand_state``): where the hand's actions start in
    ``Game.actions``, so open riichi declarations can be read from the action list."""

    first_action: int = 0


class _TableCalculator(ToutenkouCalculator):
    """:class:`ToutenkouCalculator` with its answers kept per hand shape, for the table: a turn
    asks about the same tiles several times (the riichi check on 14 tiles tries each 13, each
    riichi discard asks again, the discard's wait set asks for shanten and waits of the 13 that
    stay, furiten asks for the waits once more), and each of those is a search over the
    wildcard assignments. The answers depend on the counts and the game suit only."""

    _memo: ClassVar[dict[tuple[int, bytes, int], Any]] = {}  # shared: the answers are pure

    def _kept(self, what: int, counts: Sequence[int], compute: Callable[[Sequence[int]], Any]) -> Any:
        key = (what, bytes(counts[:34]), self.suit_base)
        memo = self._memo
        found = memo.get(key)
        if found is None:
            if len(memo) > 50_000:  # the repeats come within a turn or two
                memo.clear()
            found = memo[key] = compute(counts)
        return found

    # the base class binds ``standard`` and ``shanten`` to these (and its own ``_forms`` and
    # ``_shanten`` call them)
    def _standard(self, counts: Sequence[int]) -> int:
        return int(self._kept(0, counts, super()._standard))

    def _shanten(self, counts: Sequence[int]) -> int:
        return int(self._kept(1, counts, super()._shanten))

    def _is_agari(self, counts: Sequence[int]) -> bool:
        # the wait search tries a tile of the other number suit too, which the game does not have
        # (CT-B1): one such tile fits no set, pair or kokushi slot, so the hand is not complete
        other = 27 - self.suit_base
        if sum(counts[other : other + 9]) == 1:
            return False
        return super()._is_agari(counts)

    def waits(self, counts: Sequence[int], *, held_all: bool = True) -> list[int]:
        found: tuple[int, ...] = self._kept(
            2 + held_all, counts, lambda c: tuple(super(_TableCalculator, self).waits(c, held_all=held_all))
        )
        return list(found)


class ToutenkouTable:
    """The table hooks of chinitsu_toutenkou (engine/table/HOOKS.md), mixed into the ruleset."""

    ct: CtOptions

    # -- wall ------------------------------------------------------------------------------------

    def tileset(self, g: Game) -> TileSet:
        """CT-B1: 112 tiles."""
        return TileSet(tile_codes(self.ct.suit))

    def deal(self, g: Game) -> Deal:
        """CT-B4: 13 each, indicator stack, 16-tile nuki block, kan indicators from the live tail."""
        return deal_nuki_block(g.tileset, g.seed, g.hand_index, players=g.players, dealer=g.dealer)

    def new_hand_state(self, g: Game) -> object:
        return CtHandState(len(g.actions))

    def copy_hand_state(self, g: Game, state: object) -> object:
        assert isinstance(state, CtHandState)
        return CtHandState(state.first_action)

    # -- open riichi (CT-F2) ------------------------------------------------------------------

    def open_riichi_seats(self, g: Game) -> set[int]:
        st = g.hand_state
        start = st.first_action if isinstance(st, CtHandState) else 0
        return {a.seat for a in g.actions[start:] if a.type is A.OPEN_RIICHI}

    def shown_tiles(self, g: Game, seat: int) -> tuple[int, ...]:
        """The tile codes an open-riichi seat shows to everyone (``ct.open_riichi_expose = "all"``:
        the whole concealed hand, without a tile just drawn); () for any other seat."""
        if seat not in self.open_riichi_seats(g):
            return ()
        tiles = [t for t in g.seats[seat].tiles if not (seat == g.current and t == g.drawn)]
        concealed = [g.codes[t] for t in tiles]
        chosen = self._chosen_exposure(g, seat)
        if chosen and not open_riichi_exposure_ok(concealed, chosen, self.ct.suit):
            # CT-F3: an ankan took tiles of the shown part; the player re-exposes a part showing the
            # same waits: the smallest such part (the whole hand if there is none)
            smaller = open_riichi_exposures(concealed, self.ct.suit)
            chosen = smaller[0] if smaller else ()
        return open_riichi_shown(concealed, chosen or None, self.ct)

    def _chosen_exposure(self, g: Game, seat: int) -> tuple[int, ...]:
        """The part of the hand the seat's open riichi action chose to show (CT-F2 "minimal");
        () = the whole hand."""
        st = g.hand_state
        start = st.first_action if isinstance(st, CtHandState) else 0
        for a in g.actions[start:]:
            if a.type is A.OPEN_RIICHI and a.seat == seat:
                return a.tiles
        return ()

    def deals_into_open_riichi(self, g: Game, seat: int, code: int) -> list[int]:
        """Open-riichi seats that would win on ``code`` discarded by ``seat`` (CT-F2: the bot asks a
        non-riichi player to confirm such a discard)."""
        k = kind_of(code)
        return [
            s
            for s in sorted(self.open_riichi_seats(g))
            if s != seat and k in g.seats[s].waits and not g.ruleset.furiten(g, s)
        ]

    # -- turn actions ----------------------------------------------------------------------------

    def _forced_white(self, g: Game, seat: int) -> bool:
        """CT-C2: a riichi seat's ippatsu draw is a White: a full wildcard, and it must win."""
        st = g.seats[seat]
        return bool(
            st.riichi and st.ippatsu and g.current == seat and g.drawn >= 0 and kind_of(g.codes[g.drawn]) == WHITE
        )

    def can_tsumo(self, g: Game, seat: int) -> bool:
        if self._forced_white(g, seat):
            return True
        return bool(Ruleset.can_tsumo(g.ruleset, g, seat))

    def kan_allowed(self, g: Game, seat: int) -> bool:
        """CT-D4: a kan needs a stack left at the live tail for its indicator; at most 4 kans."""
        return g.live_left >= 2 and len(g.kans) < 4

    def riichi_allowed(self, g: Game, seat: int) -> bool:
        """CT-A11/CT-F1: closed hand, enough wall; no points needed (running balance from 0)."""
        st = g.seats[seat]
        return not st.riichi and all(m.type is MeldType.ANKAN for m in st.melds) and g.live_left >= g.opts.riichi_min_live

    def riichi_ankan_ok(self, g: Game, seat: int, kind: int) -> bool:
        """CT-F3: waits unchanged (the change of yaku does not matter); never North or manzu."""
        if kind in GARI_KINDS:
            return False
        before = list(g.seats[seat].counts)
        before[kind] -= 1
        return riichi_ankan_ok(before, kind, self.ct.suit)

    def kita_options(self, g: Game, seat: int) -> list[Action]:
        """CT-D1: any held gari may be extracted on one's turn; after riichi only the drawn one, and
        not one of the seat's winning tiles (CT-F4)."""
        st = g.seats[seat]
        if g.rinshan_pos >= len(g.rinshan):
            return []
        if st.riichi:
            k = kind_of(g.codes[g.drawn]) if g.drawn >= 0 else -1
            return [Action(A.KITA, seat, k)] if k in GARI_KINDS and k not in st.waits else []
        return [Action(A.KITA, seat, k) for k in GARI_KINDS if st.counts[k]]

    def after_kita(self, g: Game, seat: int) -> None:
        """CT-D1/CT-D3/J16: the replacement comes from the nuki block; not rinshan, and not a call
        unless ``ct.extraction_breaks_ippatsu``."""
        if self.ct.extraction_breaks_ippatsu:
            g.ruleset.call_cancels(g, seat)
        g.draw(seat, rinshan=True)
        g.rinshan_draw = False

    def after_kan(self, g: Game, seat: int) -> None:
        """CT-D2/CT-D4/J8: the kan's indicator stack leaves the live tail; the replacement is the
        next live tile; with no tile left the hand ends at once in an exhaustive draw."""
        g.live_end -= 2
        if g.live_left <= 0:
            g.exhaustive_draw()
            return
        g.draw(seat)
        g.rinshan_draw = True

    def turn_actions(self, g: Game, seat: int, actions: list[Action]) -> list[Action]:
        st = g.seats[seat]
        if any(a.type is A.TSUMO for a in actions) and (st.riichi or self._forced_white(g, seat)):
            return [Action(A.TSUMO, seat)]  # CT-F1 / CT-C2: no passing a win after riichi
        actions = self._with_big_ankans(g, seat, actions)
        out: list[Action] = []
        for a in actions:
            if a.type is A.ANKAN and a.tile in GARI_KINDS:
                continue  # CT-E4: no kan of North (nor of the other gari)
            if a.type is A.KAKAN and (a.tile in GARI_KINDS or self._pon_kind(g, seat, a.tile) in GARI_KINDS):
                continue
            out.append(a)
            if a.type is A.RIICHI and not self._furiten_after(g, seat, a.tile):
                out.append(Action(A.OPEN_RIICHI, seat, a.tile))  # CT-F2, never furiten (CT-A11)
                if self.ct.open_riichi_expose == "minimal":  # CT-F2: or show a valid part only
                    rest = [g.codes[t] for t in st.tiles]
                    rest.remove(a.tile)
                    out.extend(Action(A.OPEN_RIICHI, seat, a.tile, shown) for shown in open_riichi_exposures(rest, self.ct.suit))
        return out

    def turn_check(self, g: Game, seat: int, a: Action) -> bool | None:
        if a.type is A.KAKAN and a.tile == WHITE and not a.shift and self._legacy_white_pon(g, seat) >= 0:
            # games recorded before CT-C5's notation added a White to a pon shown with a White
            # first as "k5z"; it still replays, as the White added to that pon
            st = g.seats[seat]
            return a.seat == seat and not st.riichi and not g.after_call and bool(st.counts[WHITE]) and self.kan_allowed(g, seat)
        return None  # forced wins and open riichi: always list the actions

    def _with_big_ankans(self, g: Game, seat: int, actions: list[Action]) -> list[Action]:
        """CT-B1/CT-B3: the game offers an ankan for exactly four held; with eight copies of a
        suit kind a hand may hold five or more (after riichi: the drawn tile making the fifth)."""
        st = g.seats[seat]
        if g.after_call or not any(a.type is A.DISCARD for a in actions) or not self.kan_allowed(g, seat):
            return actions
        if st.riichi:
            k = kind_of(g.codes[g.drawn]) if g.drawn >= 0 else -1
            kinds = [k] if k >= 0 and st.counts[k] > 4 and self.riichi_ankan_ok(g, seat, k) else []
        else:
            kinds = [k for k in range(9, 27) if st.counts[k] > 4]
        extra = [Action(A.ANKAN, seat, k) for k in kinds]
        i = next((j for j, a in enumerate(actions) if a.type in (A.KAKAN, A.KITA, A.DISCARD)), len(actions))
        return actions[:i] + extra + actions[i:]

    def kan_tiles(self, g: Game, seat: int, action: Action, kind: int) -> list[int]:
        """A kan takes four tiles (ankan) or three and the discard (daiminkan) even from a hand
        holding more of the kind (CT-B1: eight copies). A kakan written with a White as the pon's
        honour (``1k1z5z>1z``, CT-C5) adds a White."""
        if action.type is A.KAKAN and action.shift:
            return [next(t for t in g.seats[seat].tiles if kind_of(g.codes[t]) == WHITE)]
        tiles = Ruleset.kan_tiles(g.ruleset, g, seat, action, kind)
        return tiles[: 4 if action.type is A.ANKAN else 3 if action.type is A.DAIMINKAN else 1]

    def _meld_kind(self, g: Game, m: TableMeld) -> int:
        """The kind a meld stands for: its natural tiles' kind, White when it is all Whites (CT-C1)."""
        natural = [kind_of(g.codes[t]) for t in m.tiles if kind_of(g.codes[t]) != WHITE]
        return natural[0] if natural else WHITE

    def kakan_options(self, g: Game, seat: int) -> list[Action]:
        """CT-C1/CT-C5: an added kan of a held tile of the pon's kind, or of a White added to an
        honour pon (written with the White as that honour, ``1k1z5z>1z``; a pon of Whites takes a
        White as itself). Gari pons are dropped by ``turn_actions`` (CT-E4)."""
        st = g.seats[seat]
        out: list[Action] = []
        for m in st.melds:
            if m.type is not MeldType.PON:
                continue
            k = self._meld_kind(g, m)
            if st.counts[k]:
                out.append(Action(A.KAKAN, seat, k))
            if k >= 27 and k != WHITE and st.counts[WHITE]:
                out.append(Action(A.KAKAN, seat, k, shift=(WHITE, k)))
        return out

    def kakan_meld(self, g: Game, seat: int, action: Action, kind: int) -> int:
        """The pon an added kan completes: the one standing for ``kind`` (CT-C1)."""
        for i, m in enumerate(g.seats[seat].melds):
            if m.type is MeldType.PON and self._meld_kind(g, m) == kind:
                return i
        return self._legacy_white_pon(g, seat) if kind == WHITE else -1

    def _legacy_white_pon(self, g: Game, seat: int) -> int:
        """An honour pon shown with a White first (``1p56z``) when the seat has no pon of Whites:
        the pon an old-style "k5z" kakan added its White to; -1 for none."""
        melds = g.seats[seat].melds
        pons = [i for i, m in enumerate(melds) if m.type is MeldType.PON]
        if any(self._meld_kind(g, melds[i]) == WHITE for i in pons):
            return -1
        return next((i for i in pons if kind_of(g.codes[melds[i].tiles[0]]) == WHITE), -1)

    def _pon_kind(self, g: Game, seat: int, tile_kind: int) -> int:
        for m in g.seats[seat].melds:
            if m.type is MeldType.PON and kind_of(g.codes[m.tiles[0]]) == tile_kind:
                natural = [kind_of(g.codes[t]) for t in m.tiles if kind_of(g.codes[t]) != WHITE]
                return natural[0] if natural else WHITE
        return tile_kind

    def _furiten_after(self, g: Game, seat: int, code: int) -> bool:
        st = g.seats[seat]
        c = list(st.counts)
        c[kind_of(code)] -= 1
        waits = g.calc.waits(c)
        seen = st.discarded_kinds | {kind_of(code)}
        return any(k in seen for k in waits)

    # -- calls -----------------------------------------------------------------------------------

    def call_options(self, g: Game, seat: int, tile: int, discarder: int) -> list[Action]:
        """CT-A4/CT-E1: no chi. Pon with a White for an honour (CT-C1), daiminkan of three natural
        tiles; never of manzu, never a kan of North (CT-E4); kuikae per CT-E3."""
        st = g.seats[seat]
        out: list[Action] = []
        if g.live_left <= 0 or st.riichi:
            return out
        k = kind_of(g.codes[tile])
        if k in MANZU or (k == NORTH and not self.ct.north_pon):
            return out
        c = st.counts
        pairs: list[tuple[int, int]] = []
        if k >= 27:
            if c[k] >= 2:
                pairs.append((k, k))
            if k != WHITE and c[k] >= 1 and c[WHITE] >= 1:
                pairs.append((k, WHITE))
            if c[WHITE] >= 2 and (WHITE, WHITE) not in pairs:
                pairs.append((WHITE, WHITE))
        elif c[k] >= 2:
            pairs.append((k, k))
        for pair in pairs:
            rest = list(c)
            for x in pair:
                rest[x] -= 1
            forbid = kuikae_forbidden(g.codes[tile], pair)
            if any(rest[x] for x in range(34) if x not in forbid):
                out.append(Action(A.PON, seat, -1, canon(pair)))
        if c[k] >= 3 and k != NORTH and self.kan_allowed(g, seat):
            out.append(Action(A.DAIMINKAN, seat))
        return out

    def after_call_forbidden(self, g: Game, seat: int, call: Action, forbidden: frozenset[int]) -> frozenset[int]:
        if call.type is A.PON:
            return forbidden | kuikae_forbidden(g.codes[g.last_discard], call.tiles)
        return forbidden

    def choose_call(self, g: Game, responses: Mapping[int, Action], discarder: int) -> Action | None:
        """CT-E2: the claimant closest in turn order after the discarder, pon or kan alike."""
        calls = [a for a in responses.values() if a.type in (A.PON, A.DAIMINKAN)]
        if not calls:
            return None
        first = call_priority(discarder, [a.seat for a in calls], g.players)[0]
        return next(a for a in calls if a.seat == first)

    def call_window(self, g: Game, seat: int, actions: list[Action]) -> list[Action]:
        """CT-F1: a riichi seat cannot pass a win (the engine declares it)."""
        if g.seats[seat].riichi and any(a.type is A.RON for a in actions):
            return [Action(A.RON, seat)]
        return actions

    def can_ron(
        self, g: Game, seat: int, tile: int, from_seat: int, *, chankan: bool = False, kokushi_only: bool = False
    ) -> bool:
        """Base rules plus CT-C5: an added White may be robbed only by a seat waiting on the pon's
        honour (any honour if the pon is all Whites)."""
        if chankan and not kokushi_only:
            for m in g.seats[from_seat].melds:
                if tile in m.tiles:
                    natural = {kind_of(g.codes[t]) for t in m.tiles} - {WHITE}
                    if self.ct.white_chankan_scope == "all_kakan" and natural and min(natural) < 27:
                        return False  # J12 read literally: only honour kakans may be robbed
                    if kind_of(g.codes[tile]) == WHITE and natural and not natural & set(g.seats[seat].waits):
                        return False
        return bool(Ruleset.can_ron(g.ruleset, g, seat, tile, from_seat, chankan=chankan, kokushi_only=kokushi_only))

    # -- scoring context and payments ------------------------------------------------------------

    def win_context(self, g: Game, seat: int, *, tsumo: bool, chankan: bool, from_seat: int) -> WinContext:
        """Base context with CT-D5 (no haitei on a nuki replacement) and CT-G6 (renhou)."""
        ctx = Ruleset.win_context(g.ruleset, g, seat, tsumo=tsumo, chankan=chankan, from_seat=from_seat)
        st = g.seats[seat]
        nuki_draw = tsumo and g.drawn in g.deal.rinshan
        renhou = (not tsumo) and not ctx.dealer and st.turns == 0 and g.calls_in_hand == 0
        return replace(ctx, haitei=ctx.haitei and not nuki_draw, renhou=renhou)

    def spec_options(self, g: Game, seat: int, *, tsumo: bool, chankan: bool, from_seat: int) -> dict[str, str]:
        """The scorer's extra flags: the game suit, the seat's extracted gari, open riichi and the
        +50 deal-in of a non-riichi discarder (CT-F2)."""
        st = g.seats[seat]
        out = {"suit": self.ct.suit}
        if st.kita:
            out["nuki"] = format_tiles(sorted(g.codes[t] for t in st.kita))
        if chankan and 0 <= from_seat != seat and g.kakan_tile >= 0 and kind_of(g.codes[g.kakan_tile]) == WHITE:
            for m in g.seats[from_seat].melds:  # CT-C5: a White robbed from a pon of H counts as H
                natural = {kind_of(g.codes[t]) for t in m.tiles} - {WHITE}
                if g.kakan_tile in m.tiles and len(natural) == 1:
                    out["robbed_as"] = KIND_NAMES[natural.pop()]
        if seat in self.open_riichi_seats(g):
            out["open_riichi"] = "1"
            if not tsumo and 0 <= from_seat != seat and not g.seats[from_seat].riichi:
                out["dealin"] = "1"
        return out

    def stick_value(self, g: Game) -> int:
        return self.ct.riichi_stick

    def penalty_payments(self, g: Game, seat: int) -> list[int]:
        """CT-H3: a chombo by ``seat`` pays ``ct.chombo_each`` to every other player (for an
        organiser's penalty command; the engine itself prevents every listed error)."""
        return chombo_payments(seat, g.players, self.ct.chombo_each)

    def payments(
        self, g: Game, seat: int, from_seat: int, res: ScoreResult, *, tsumo: bool, honba: int, sticks: int
    ) -> tuple[list[int], int]:
        """CT-A7/CT-G7/CT-G8: ron — the discarder pays the total; tsumo — each other seat pays it;
        honba adds 1 point per payer; the winner takes the deposits."""
        d = [0] * g.players
        total = res.points + honba
        payers = [s for s in range(g.players) if s != seat] if tsumo else [from_seat]
        for s in payers:
            d[s] -= total
            d[seat] += total
        d[seat] += self.ct.riichi_stick * sticks
        return d, -1

    # -- end of hand -----------------------------------------------------------------------------

    def draw_settlement(self, g: Game) -> tuple[str, list[int], list[int]]:
        """CT-G10 nagashi (200 from each), else CT-H1 noten penalty (40 to the table)."""
        n = g.players
        tenpai = [s for s in range(n) if g.ruleset.tenpai_at_draw(g, s)]
        nagashi = [s for s in range(n) if g.seats[s].nagashi and g.seats[s].river]
        if nagashi:
            return "nagashi_mangan", nagashi_payments(nagashi, n, self.ct.nagashi_each), tenpai
        return "exhaustive", noten_payments([s in tenpai for s in range(n)], self.ct.noten_total), tenpai

    def next_hand(self, g: Game, result: HandResult, *, renchan: bool, honba_next: int) -> None:
        """CT-A8/CT-H2/CT-G8/J23: the (closest) winner deals next, honba +1 on a dealer win or a
        draw, reset otherwise; a draw keeps a tenpai dealer, else the next seat deals. The
        prevailing wind stays East (CT-A1)."""
        dealer = g.dealer
        if result.wins:
            nxt = result.wins[0].seat
            honba = g.honba + 1 if nxt == dealer else 0
        elif result.kind == "nagashi_mangan" and self.ct.nagashi_passes_deal:
            got = [s for s in range(g.players) if result.deltas[s] > 0]
            nxt = sorted(got, key=lambda s: (s - dealer) % g.players)[0]
            honba = g.honba + 1 if nxt == dealer else 0
        elif result.kind not in ("exhaustive", "nagashi_mangan"):  # an abortive draw
            nxt = dealer
            honba = g.honba + 1
        else:
            nxt = dealer if dealer in result.tenpai else (dealer + 1) % g.players
            honba = g.honba + 1
        g.honba = honba
        g.hand_number = nxt
        g.round_wind = 0

    def game_ends(self, g: Game, result: HandResult, *, renchan: bool) -> bool:
        """CT-A12: one-hand settlements; a table plays ``ct.table_hands`` hands, or with a stack
        (``start_points`` > 0) until someone has 0 or less."""
        if self.ct.start_points > 0:
            return any(s <= 0 for s in g.scores)
        return len(g.results) >= self.ct.table_hands

    def final_results(self, g: Game, order: list[int]) -> tuple[float, ...]:
        return tuple(float(s) for s in g.scores)


def _infer_suit(spec: HandSpec, default: str) -> str:
    if "suit" in spec.options:
        return spec.options["suit"]
    kinds = [kind_of(t) for t in (*spec.concealed, spec.win_tile, *(t for m in spec.melds for t in m.tiles))]
    has_p = any(9 <= k < 18 for k in kinds)
    has_s = any(18 <= k < 27 for k in kinds)
    if has_p and has_s:
        raise HandError("a chinitsu_toutenkou game uses one number suit: p or s, not both")
    if has_s:
        return "s"
    if has_p:
        return "p"
    return default


@dataclass(frozen=True, kw_only=True)
class ChinitsuToutenkou(ToutenkouTable, Ruleset):
    """The ruleset object: 3 players, 8 copies of the game suit, White wild (see module docstring)."""

    name: str = NAME
    players: int = 3
    copies: int = 8
    hand_size: int = 13
    max_sets: int = 4
    removed_kinds: frozenset[int] = frozenset({1, 2, 3, 5, 6, 7, *range(18, 27)})
    wildcards: frozenset[int] = frozenset({WHITE})
    options: RiichiOptions = field(
        default_factory=lambda: RiichiOptions(
            players=3,
            red_fives=(0, 0, 0),
            start_points=0,
            return_points=0,
            uma=(0, 0, 0),
            tobi=False,
            hanchan=False,
            kita=True,
            tsumo_loss=False,
            honba_ron=1,
            honba_tsumo=1,
            noten_total=40,
            nagashi_mangan=True,
            multi_ron="double",
            riichi_min_live=3,
            pao=(),
            abortive_draws=AbortiveDraws(
                kyuushu_kyuuhai=False, suufon_renda=False, suucha_riichi=False, suukaikan=False, sanchahou=False
            ),
        )
    )
    ct: CtOptions = field(default_factory=CtOptions)

    description: ClassVar[str] = "清一色東天紅: 3 players, one suit ×8, White wild, points (no fu)"

    def shanten_calculator(self) -> ShantenCalculator:
        return _TableCalculator(self.ct.suit_base)

    def __post_init__(self) -> None:
        """What follows from the ``ct`` options, so that ``with_options(ct={...})`` (a game
        reloaded from its saved options) gives the same ruleset as :meth:`with_ct`: the kinds the
        game suit leaves out (CT-B1), the starting stack (CT-A12/J17) and the abortive draws
        (J9: only nine terminals exists among three players without a four-kan draw, CT-D4)."""
        ct = self.ct
        other = range(18, 27) if ct.suit == "p" else range(9, 18)
        object.__setattr__(self, "removed_kinds", frozenset({1, 2, 3, 5, 6, 7, *other}))
        opts = self.options
        derived = replace(
            opts,
            start_points=ct.start_points,
            noten_total=ct.noten_total,
            abortive_draws=replace(opts.abortive_draws, kyuushu_kyuuhai=ct.abortive_draws),
        )
        if derived != opts:
            object.__setattr__(self, "options", derived)

    def with_ct(self, **changes: Any) -> ChinitsuToutenkou:
        return replace(self, ct=replace(self.ct, **changes))

    # -- the scoring hook ----------------------------------------------------------------------

    def score(self, spec: HandSpec) -> ScoreResult:
        """CT-G: every point item and the total (``points``); ``details`` has the White
        assignments, the White-indicator choices and the qualifying points."""
        opts = _parse_options(spec, replace(self.ct, suit=_infer_suit(spec, self.ct.suit)))
        concealed = self._validate(spec, opts)
        sc = _Scorer(self, spec, opts)
        ctx = spec.ctx
        win = spec.win_tile
        all14 = [*concealed, kind_of(win)]
        if ctx.tenhou or ctx.chiihou:
            # CT-G9: the winning tile is whichever of the 14 gives the lowest score
            picked: tuple[_Best, int] | None = None
            complete = False
            for k in sorted(set(all14)):
                b = sc.best_for(all14, k)
                if b is None:
                    if self.shanten_calculator().is_agari(_counts(all14)):
                        complete = True
                    continue
                if picked is None or b.total < picked[0].total:
                    picked = (b, k)
            if picked is None:
                return ScoreResult(False, reason=NO_YAKU if complete else NOT_A_WIN)
            best = picked[0]
            best.details["win_tile_as"] = KIND_NAMES[picked[1]]
        else:
            found = sc.best_for(all14, win)
            if found is None:
                calc = self.shanten_calculator()
                c = _counts(all14)
                if calc.is_agari(c) or (kind_of(win) == WHITE and ctx.tsumo and ctx.ippatsu):
                    return ScoreResult(False, reason=NO_YAKU)
                return ScoreResult(False, reason=NOT_A_WIN)
            best = found
        return self._result(best, ctx)

    def _validate(self, spec: HandSpec, opts: CtOptions) -> list[int]:
        expected = self.hand_size - 3 * len(spec.melds)
        concealed = list(spec.concealed)
        if len(concealed) == expected + 1 and spec.win_tile in concealed:
            concealed.remove(spec.win_tile)
        if len(concealed) != expected:
            raise HandError(
                f"with {len(spec.melds)} meld(s) the concealed part must have {expected} tiles before "
                f"the winning tile, got {len(concealed)}"
            )
        every = [0] * 34
        codes = [*concealed, spec.win_tile, *(t for m in spec.melds for t in m.tiles)]
        for code in codes:
            if code & RED:
                raise HandError("there are no red fives in chinitsu_toutenkou")
            k = kind_of(code)
            if k >= 34:
                raise HandError("flowers are not used in chinitsu_toutenkou")
            every[k] += 1
        nuki = spec.options.get("nuki")
        if nuki:
            for t in parse_tiles(nuki):
                every[kind_of(t)] += 1
        else:
            every[NORTH] += spec.ctx.kita
        base = opts.suit_base
        for k in range(34):
            if not every[k]:
                continue
            if k < 27 and k not in MANZU and not base <= k < base + 9:
                raise HandError(f"{KIND_NAMES[k]} is not used in a {opts.suit} game of chinitsu_toutenkou")
            limit = 8 if k >= 9 and k < 27 else 4
            if every[k] > limit:
                raise HandError(f"{KIND_NAMES[k]} appears {every[k]} times; there are only {limit}")
        return [kind_of(c) for c in concealed]

    def _result(self, best: _Best, ctx: WinContext) -> ScoreResult:
        total = best.total
        seat = ctx.seat_wind
        stick = self.ct.riichi_stick
        others = [WINDS[o] for o in range(self.players) if o != seat]
        if ctx.tsumo:
            pay = dict.fromkeys(others, -total)
            pay[WINDS[seat]] = total * (self.players - 1) + stick * ctx.sticks
        else:
            if ctx.discarder is not None:
                pay = dict.fromkeys(others, 0)
                pay[WINDS[ctx.discarder]] = -total
            else:
                pay = {"discarder": -total}
            pay[WINDS[seat]] = total + stick * ctx.sticks
        return ScoreResult(
            True,
            tuple(YakuScore(i.name, i.points) for i in best.items),
            total,
            0,
            0,
            total,
            pay,
            "",
            wait=best.wait,
            details=best.details,
        )


def _factory() -> Ruleset:
    return ChinitsuToutenkou()


register(NAME, _factory)


def describe_items(result: ScoreResult) -> str:
    """One line per point item and the total (for the bot's result message)."""
    lines = [f"{y.name}: {y.han}" for y in result.yaku]
    lines.append(f"total: {result.points}")
    if result.details.get("wildcards"):
        lines.append("White as " + " ".join(w["as"] for w in result.details["wildcards"]))
    return "\n".join(lines)


def format_kinds(kinds: Iterable[int]) -> str:
    return format_tiles(sorted(kinds))

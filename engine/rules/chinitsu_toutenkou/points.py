"""chinitsu_toutenkou's scoring, pure functions over a hand (CT-C, CT-G): the point table (CT-G2),
the items one includes (CT-G4), dora kinds (CT-B5) and the scorer that values every assignment of
the Whites (and of the ippatsu White, CT-C2), every reading and every choice of a White dora
indicator (CT-C4), keeping the winner's best total; tenhou/chiihou take the cheapest winning tile
(CT-G9)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement, product
from typing import TYPE_CHECKING, Any

from engine.hand.decompose import Wait
from engine.hand.wildcard import MANZU
from engine.notation import HandSpec, Meld, MeldType
from engine.rules.chinitsu_toutenkou.options import (
    GARI_KINDS,
    HONOURS,
    NORTH,
    WHITE,
    CtOptions,
)
from engine.scoring.breakdown import WildcardAs
from engine.scoring.evaluate import HandError, standard_readings
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
from engine.tiles import KIND_NAMES, dora_of, kind_of, parse_tiles

if TYPE_CHECKING:
    from engine.rules.chinitsu_toutenkou.ruleset import ChinitsuToutenkou

__all__ = ["dora_kind"]


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


def dora_kind(indicator: int, white_choice: int | None = None) -> int:
    """CT-B5: suit 1→…→9→1, manzu 1m→5m→9m→1m, winds E→S→W→N→E, Gr→Rd→Wh; a White indicator
    gives the chosen honour (CT-C4), or -1 when nothing is chosen."""
    k = kind_of(indicator)
    if k in MANZU:
        return MANZU[(MANZU.index(k) + 1) % 3]
    if k == WHITE:
        return -1 if white_choice is None else white_choice
    return dora_of(k)


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
    breakdown: tuple[WildcardAs, ...] = ()


def _flag(options: dict[str, str], key: str) -> bool:
    return options.get(key, "").lower() in ("1", "true", "yes", "on")


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
        whites = tuple(WildcardAs(WHITE, k) for k in combo)
        return _Best(total, items + bonus, details, v.wait.name.lower(), whites)

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

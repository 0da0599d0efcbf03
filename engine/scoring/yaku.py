"""Yaku and yakuman as small objects (riichi.md §7, §8).

One class per yaku, its metadata as class attributes and one ``han(view)`` method returning the
han it is worth for this reading of the hand (0 when it does not apply). A ruleset's yaku list is
a tuple of instances, so a variant adds, removes or revalues a yaku by building another tuple
(``dataclasses.replace`` on an instance changes its han).

A :class:`HandView` is one reading of a winning hand: its sets (melds included), pair, the wait
the winning tile completed, and the context. Hand-wide facts that do not depend on the reading
(suit mix, terminals) are computed once per hand in :class:`HandFacts`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.hand.decompose import SEQ, Wait
from engine.notation import WinContext
from engine.tiles import GREEN, NORTH, RED_DRAGON, WHITE

DRAGONS = (WHITE, GREEN, RED_DRAGON)
WINDS4 = (27, 28, 29, 30)
GREEN_KINDS = frozenset({19, 20, 21, 23, 25, GREEN})  # 2s 3s 4s 6s 8s and the Green dragon


@dataclass(slots=True)
class HandFacts:
    """Facts about all tiles of the winning hand (concealed + winning tile + melds)."""

    counts: list[int]  # 34 counts of every tile in the hand (a kan counts 4)
    closed: bool  # no opened meld (ankan keeps a hand closed)
    suits: int  # bitmask: 1 man, 2 pin, 4 sou, 8 honours
    all_simples: bool
    all_yaochu: bool
    all_terminals: bool
    all_honours: bool
    all_green: bool
    kans: int
    ctx: WinContext

    @classmethod
    def of(cls, counts: list[int], closed: bool, kans: int, ctx: WinContext) -> HandFacts:
        suits = 0
        simples = yaochu = terminals = honours = green = True
        for k in range(34):
            if counts[k]:
                if k < 27:
                    suits |= 1 << (k // 9)
                    r = k % 9
                    if r == 0 or r == 8:
                        simples = False
                        honours = False
                    else:
                        yaochu = terminals = honours = False
                else:
                    suits |= 8
                    simples = terminals = False
                if k not in GREEN_KINDS:
                    green = False
        return cls(counts, closed, suits, simples, yaochu, terminals, honours, green, kans, ctx)


@dataclass(slots=True)
class HandView:
    """One reading: standard form (sets + pair), chiitoitsu (pairs) or kokushi."""

    facts: HandFacts
    form: str  # "standard" | "chiitoitsu" | "kokushi"
    sequences: list[int]  # start kinds, melds included
    triplets: list[int]  # kinds of triplets and quads, melds included
    concealed_triplets: int  # ankou + ankan, after the ron rule
    pair: int  # the pair kind (-1 for chiitoitsu/kokushi)
    pairs: list[int]  # chiitoitsu pairs
    wait: Wait
    closed_sequences: list[int]  # concealed sequences only (for iipeikou)
    win_kind: int
    tanki_13: bool = False  # kokushi with the 13-sided wait, or junsei chuuren 9-sided

    @property
    def ctx(self) -> WinContext:
        return self.facts.ctx

    @property
    def closed(self) -> bool:
        return self.facts.closed


class Yaku:
    """A yaku: han when closed and when open (0 = closed only), or a yakuman multiplier."""

    id: ClassVar[str] = ""
    name_ja: ClassVar[str] = ""
    han_closed: int = 0
    han_open: int = 0
    yakuman: int = 0  # 1 or 2 for yakuman

    def applies(self, h: HandView) -> bool:
        raise NotImplementedError

    def han(self, h: HandView) -> int:
        if not self.applies(h):
            return 0
        if self.yakuman:
            return self.yakuman
        return self.han_closed if h.closed else self.han_open

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id}>"


# --- situational -------------------------------------------------------------------------------


class Riichi(Yaku):
    id = "riichi"
    name_ja = "立直"
    han_closed = 1

    def applies(self, h: HandView) -> bool:
        return h.ctx.riichi and not h.ctx.double_riichi


class DoubleRiichi(Yaku):
    id = "double_riichi"
    name_ja = "ダブル立直"
    han_closed = 2

    def applies(self, h: HandView) -> bool:
        return h.ctx.double_riichi


class Ippatsu(Yaku):
    id = "ippatsu"
    name_ja = "一発"
    han_closed = 1

    def applies(self, h: HandView) -> bool:
        return h.ctx.ippatsu and (h.ctx.riichi or h.ctx.double_riichi)


class MenzenTsumo(Yaku):
    id = "menzen_tsumo"
    name_ja = "門前清自摸和"
    han_closed = 1

    def applies(self, h: HandView) -> bool:
        return h.ctx.tsumo and h.closed


class Haitei(Yaku):
    id = "haitei"
    name_ja = "海底摸月"
    han_closed = han_open = 1

    def applies(self, h: HandView) -> bool:
        return h.ctx.haitei and h.ctx.tsumo and not h.ctx.rinshan


class Houtei(Yaku):
    id = "houtei"
    name_ja = "河底撈魚"
    han_closed = han_open = 1

    def applies(self, h: HandView) -> bool:
        return h.ctx.houtei and not h.ctx.tsumo


class Rinshan(Yaku):
    id = "rinshan"
    name_ja = "嶺上開花"
    han_closed = han_open = 1

    def applies(self, h: HandView) -> bool:
        return h.ctx.rinshan and h.ctx.tsumo


class Chankan(Yaku):
    id = "chankan"
    name_ja = "搶槓"
    han_closed = han_open = 1

    def applies(self, h: HandView) -> bool:
        return h.ctx.chankan and not h.ctx.tsumo


# --- shape yaku ----------------------------------------------------------------------------------


def _is_yakuhai_kind(k: int, ctx: WinContext) -> bool:
    return k in DRAGONS or k == 27 + ctx.seat_wind or k == 27 + ctx.round_wind


class Pinfu(Yaku):
    id = "pinfu"
    name_ja = "平和"
    han_closed = 1

    def applies(self, h: HandView) -> bool:
        return (
            h.form == "standard"
            and h.closed
            and len(h.sequences) == 4
            and h.wait is Wait.RYANMEN
            and not _is_yakuhai_kind(h.pair, h.ctx)
        )


class Tanyao(Yaku):
    id = "tanyao"
    name_ja = "断幺九"
    han_closed = han_open = 1

    def applies(self, h: HandView) -> bool:
        return h.facts.all_simples


def _peikou(h: HandView) -> int:
    """Number of pairs of identical concealed sequences (three identical count one, four two)."""
    if not h.closed or h.form != "standard":
        return 0
    s = h.closed_sequences
    if len(s) < 2:
        return 0
    seen: dict[int, int] = {}
    for x in s:
        seen[x] = seen.get(x, 0) + 1
    return sum(v // 2 for v in seen.values())


class Iipeikou(Yaku):
    id = "iipeikou"
    name_ja = "一盃口"
    han_closed = 1

    def applies(self, h: HandView) -> bool:
        return _peikou(h) == 1


class Ryanpeikou(Yaku):
    id = "ryanpeikou"
    name_ja = "二盃口"
    han_closed = 3

    def applies(self, h: HandView) -> bool:
        return _peikou(h) == 2


class Yakuhai(Yaku):
    """One han per triplet of the given dragon."""

    han_closed = han_open = 1
    kind: ClassVar[int] = WHITE

    def applies(self, h: HandView) -> bool:
        return self.kind in h.triplets


class Haku(Yakuhai):
    id = "haku"
    name_ja = "役牌 白"
    kind = WHITE


class Hatsu(Yakuhai):
    id = "hatsu"
    name_ja = "役牌 發"
    kind = GREEN


class Chun(Yakuhai):
    id = "chun"
    name_ja = "役牌 中"
    kind = RED_DRAGON


class SeatWind(Yaku):
    id = "seat_wind"
    name_ja = "自風"
    han_closed = han_open = 1

    def applies(self, h: HandView) -> bool:
        return 27 + h.ctx.seat_wind in h.triplets


class RoundWind(Yaku):
    id = "round_wind"
    name_ja = "場風"
    han_closed = han_open = 1

    def applies(self, h: HandView) -> bool:
        return 27 + h.ctx.round_wind in h.triplets


class Chiitoitsu(Yaku):
    id = "chiitoitsu"
    name_ja = "七対子"
    han_closed = 2

    def applies(self, h: HandView) -> bool:
        return h.form == "chiitoitsu"


class Sanshoku(Yaku):
    id = "sanshoku"
    name_ja = "三色同順"
    han_closed = 2
    han_open = 1

    def applies(self, h: HandView) -> bool:
        s = set(h.sequences)
        return any(r in s and r + 9 in s and r + 18 in s for r in range(7))


class Ittsu(Yaku):
    id = "ittsu"
    name_ja = "一気通貫"
    han_closed = 2
    han_open = 1

    def applies(self, h: HandView) -> bool:
        s = set(h.sequences)
        return any(b in s and b + 3 in s and b + 6 in s for b in (0, 9, 18))


def _set_has_yaochu(s: int) -> bool:
    if s >= SEQ:
        r = (s - SEQ) % 9
        return r == 0 or r == 6
    return s >= 27 or s % 9 in (0, 8)


def _all_sets_yaochu(h: HandView) -> bool:
    if h.form != "standard" or not h.sequences:
        return False
    if not (h.pair >= 27 or h.pair % 9 in (0, 8)):
        return False
    return all(_set_has_yaochu(SEQ + s) for s in h.sequences) and all(_set_has_yaochu(t) for t in h.triplets)


class Chanta(Yaku):
    id = "chanta"
    name_ja = "混全帯幺九"
    han_closed = 2
    han_open = 1

    def applies(self, h: HandView) -> bool:
        return bool(h.facts.suits & 8) and _all_sets_yaochu(h)


class Junchan(Yaku):
    id = "junchan"
    name_ja = "純全帯幺九"
    han_closed = 3
    han_open = 2

    def applies(self, h: HandView) -> bool:
        return not h.facts.suits & 8 and _all_sets_yaochu(h)


class Toitoi(Yaku):
    id = "toitoi"
    name_ja = "対々和"
    han_closed = han_open = 2

    def applies(self, h: HandView) -> bool:
        return h.form == "standard" and len(h.triplets) == 4


class Sanankou(Yaku):
    id = "sanankou"
    name_ja = "三暗刻"
    han_closed = han_open = 2

    def applies(self, h: HandView) -> bool:
        return h.concealed_triplets == 3


class SanshokuDoukou(Yaku):
    id = "sanshoku_doukou"
    name_ja = "三色同刻"
    han_closed = han_open = 2

    def applies(self, h: HandView) -> bool:
        t = set(h.triplets)
        return any(r in t and r + 9 in t and r + 18 in t for r in range(9))


class Sankantsu(Yaku):
    id = "sankantsu"
    name_ja = "三槓子"
    han_closed = han_open = 2

    def applies(self, h: HandView) -> bool:
        return h.facts.kans == 3


class Shousangen(Yaku):
    id = "shousangen"
    name_ja = "小三元"
    han_closed = han_open = 2

    def applies(self, h: HandView) -> bool:
        return h.pair in DRAGONS and sum(1 for d in DRAGONS if d in h.triplets) == 2


class Honroutou(Yaku):
    id = "honroutou"
    name_ja = "混老頭"
    han_closed = han_open = 2

    def applies(self, h: HandView) -> bool:
        f = h.facts
        return f.all_yaochu and not f.all_honours and not f.all_terminals and h.form != "kokushi"


class Honitsu(Yaku):
    id = "honitsu"
    name_ja = "混一色"
    han_closed = 3
    han_open = 2

    def applies(self, h: HandView) -> bool:
        s = h.facts.suits
        return s in (9, 10, 12)


class Chinitsu(Yaku):
    id = "chinitsu"
    name_ja = "清一色"
    han_closed = 6
    han_open = 5

    def applies(self, h: HandView) -> bool:
        return h.facts.suits in (1, 2, 4)


# --- yakuman -------------------------------------------------------------------------------------


class Tenhou(Yaku):
    id = "tenhou"
    name_ja = "天和"
    yakuman = 1

    def applies(self, h: HandView) -> bool:
        return h.ctx.tenhou and h.ctx.dealer and h.ctx.tsumo


class Chiihou(Yaku):
    id = "chiihou"
    name_ja = "地和"
    yakuman = 1

    def applies(self, h: HandView) -> bool:
        return h.ctx.chiihou and not h.ctx.dealer and h.ctx.tsumo


class Kokushi(Yaku):
    id = "kokushi"
    name_ja = "国士無双"
    yakuman = 1

    def applies(self, h: HandView) -> bool:
        return h.form == "kokushi" and not h.tanki_13


class Kokushi13(Yaku):
    id = "kokushi_13"
    name_ja = "国士無双十三面"
    yakuman = 1

    def applies(self, h: HandView) -> bool:
        return h.form == "kokushi" and h.tanki_13


class Suuankou(Yaku):
    id = "suuankou"
    name_ja = "四暗刻"
    yakuman = 1

    def applies(self, h: HandView) -> bool:
        return h.concealed_triplets == 4 and h.wait is not Wait.TANKI


class SuuankouTanki(Yaku):
    id = "suuankou_tanki"
    name_ja = "四暗刻単騎"
    yakuman = 1

    def applies(self, h: HandView) -> bool:
        return h.concealed_triplets == 4 and h.wait is Wait.TANKI


class Daisangen(Yaku):
    id = "daisangen"
    name_ja = "大三元"
    yakuman = 1

    def applies(self, h: HandView) -> bool:
        return all(d in h.triplets for d in DRAGONS)


class Shousuushii(Yaku):
    id = "shousuushii"
    name_ja = "小四喜"
    yakuman = 1

    def applies(self, h: HandView) -> bool:
        return h.pair in WINDS4 and sum(1 for w in WINDS4 if w in h.triplets) == 3


class Daisuushii(Yaku):
    id = "daisuushii"
    name_ja = "大四喜"
    yakuman = 1

    def applies(self, h: HandView) -> bool:
        return all(w in h.triplets for w in WINDS4)


class Tsuuiisou(Yaku):
    id = "tsuuiisou"
    name_ja = "字一色"
    yakuman = 1

    def applies(self, h: HandView) -> bool:
        return h.facts.all_honours


class Chinroutou(Yaku):
    id = "chinroutou"
    name_ja = "清老頭"
    yakuman = 1

    def applies(self, h: HandView) -> bool:
        return h.facts.all_terminals


class Ryuuiisou(Yaku):
    id = "ryuuiisou"
    name_ja = "緑一色"
    yakuman = 1

    def applies(self, h: HandView) -> bool:
        return h.facts.all_green


_CHUUREN = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _chuuren_suit(h: HandView) -> int:
    f = h.facts
    if not f.closed or f.kans or f.suits not in (1, 2, 4) or h.form != "standard":
        return -1
    base = {1: 0, 2: 9, 4: 18}[f.suits]
    c = f.counts[base : base + 9]
    if all(c[i] >= _CHUUREN[i] for i in range(9)):
        return base
    return -1


class Chuuren(Yaku):
    id = "chuuren"
    name_ja = "九蓮宝燈"
    yakuman = 1

    def applies(self, h: HandView) -> bool:
        base = _chuuren_suit(h)
        return base >= 0 and h.facts.counts[h.win_kind] - 1 != _CHUUREN[h.win_kind - base]


class JunseiChuuren(Yaku):
    id = "junsei_chuuren"
    name_ja = "純正九蓮宝燈"
    yakuman = 1

    def applies(self, h: HandView) -> bool:
        base = _chuuren_suit(h)
        # the 13 tiles before the win were exactly 1112345678999: the win tile is the extra one
        return base >= 0 and h.facts.counts[h.win_kind] - 1 == _CHUUREN[h.win_kind - base]


class Suukantsu(Yaku):
    id = "suukantsu"
    name_ja = "四槓子"
    yakuman = 1

    def applies(self, h: HandView) -> bool:
        return h.facts.kans == 4


# Yakuman whose "pure" form counts double with riichi.double_yakuman; with the option off (the
# default, R-8.2) every yakuman counts one.
DOUBLE_FORMS = frozenset({"kokushi_13", "suuankou_tanki", "junsei_chuuren", "daisuushii"})

RIICHI_YAKU: tuple[Yaku, ...] = (
    Riichi(),
    DoubleRiichi(),
    Ippatsu(),
    MenzenTsumo(),
    Pinfu(),
    Tanyao(),
    Iipeikou(),
    Haitei(),
    Houtei(),
    Rinshan(),
    Chankan(),
    Haku(),
    Hatsu(),
    Chun(),
    SeatWind(),
    RoundWind(),
    Chiitoitsu(),
    Sanshoku(),
    Ittsu(),
    Chanta(),
    Toitoi(),
    Sanankou(),
    SanshokuDoukou(),
    Sankantsu(),
    Shousangen(),
    Honroutou(),
    Honitsu(),
    Junchan(),
    Ryanpeikou(),
    Chinitsu(),
)

RIICHI_YAKUMAN: tuple[Yaku, ...] = (
    Tenhou(),
    Chiihou(),
    Kokushi(),
    Kokushi13(),
    Suuankou(),
    SuuankouTanki(),
    Daisangen(),
    Shousuushii(),
    Daisuushii(),
    Tsuuiisou(),
    Chinroutou(),
    Ryuuiisou(),
    Chuuren(),
    JunseiChuuren(),
    Suukantsu(),
)

# Yaku that are replaced by a stronger one when both apply.
SUPERSEDED = {
    "iipeikou": "ryanpeikou",
    "chanta": "junchan",
    "honitsu": "chinitsu",
    "riichi": "double_riichi",
}

__all__ = [
    "DOUBLE_FORMS",
    "HandFacts",
    "HandView",
    "NORTH",
    "RIICHI_YAKU",
    "RIICHI_YAKUMAN",
    "SUPERSEDED",
    "Yaku",
]

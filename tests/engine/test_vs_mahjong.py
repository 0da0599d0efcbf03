"""Differential test: our scorer against the reference scorer ``mahjong`` (PyPI 2.1.0).

20,000 random winning hands from :mod:`tests.engine.generated` (fixed seed: the same hands on every
run) are scored by ``engine.scoring.score_line`` and by ``mahjong``'s ``HandCalculator`` set up for
riichi.md's default ruleset (§16): kuitan on (R-6.5), red fives (R-1.2), no double yakuman (R-8.2),
yakuman stacking (R-8.2), kazoe yakuman (R-8.3), no kiriage (R-10.2), open 20 fu → 30 fu (R-9.8),
no tsumo fu for pinfu (R-9.3), a double-wind pair worth 4 fu (R-9.5; the library's only behaviour),
renhou off (§7).

Compared per hand:

* ``points``, the hand value without honba and sticks (R-10.1–R-10.3): for a ron what the
  discarder pays (``cost["main"]``), for a tsumo the sum of all payments
  (``cost["main"] + 2 * cost["additional"]``: for a dealer tsumo both are the 2B each
  non-dealer pays, for a non-dealer tsumo ``main`` is the dealer's 2B and ``additional`` each
  non-dealer's B);
* the winner's gain with honba and riichi sticks (R-10.4, R-10.5; ``cost["total"]``);
* han and fu of non-yakuman hands, the yakuman count of yakuman hands;
* the yaku list with each yaku's han (the library's yaku names mapped to ours).

Hands that both scorers call yaku-less (R-6.2) are counted and skipped. The test asserts that
``points`` agree on ≥ 99.9 % of the scored hands **and** that every disagreement (of points, or an
error on one side only) is listed in :data:`KNOWN_DIFFERENCES`; the failure message lists every
unexplained one with both outputs.

Known disagreements (line → who is right, with the rule id):

    (none: on the 20,000 hands of seed 20240601 the two scorers agree on every compared field.
    400,000 further hands from seeds 1–4, checked off-line, agree on points, total, han, fu and
    yakuman count; one of them shows a different yaku list at equal value, see below)

Equal-value readings (not a disagreement; reported, never failed). When two readings of a hand have
the same han and fu, R-7 ("compare han first, then fu") does not say which one to show, and the
two scorers may list different yaku for the same points. Seen off-line (seed 3)::

    055m5567888s ankan(0555p) ron 5s seat=W round=S dora=1m3p honba=5
      555m 5555p 555s(ron) 678s 88s: tanyao + sanshoku doukou + aka 2 = 5 han, 52 → 60 fu  (ours)
      555m 5555p 888s 567s 55s:      tanyao + sanankou + aka 2        = 5 han, 56 → 60 fu  (mahjong)
    both 8000 (mangan); mahjong breaks the tie on the unrounded fu, we keep the first reading found.

A second test runs the §15 test vectors through both adapters, so a mis-set option of the
reference (or a conversion slip in this file) shows up as a vector failure rather than as a
silent agreement; a third checks that the sample really covers the §7/§8 yaku, every meld type
and every situational flag.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine.scoring import score_line
from tests.engine.generated import FIVES, GenHand, generate_hands, hand_from_line

mahjong = pytest.importorskip("mahjong")

from mahjong.constants import EAST  # noqa: E402
from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules  # noqa: E402
from mahjong.meld import Meld  # noqa: E402

N_HANDS = 20_000
SEED = 20240601
MIN_AGREEMENT = 0.999

# line → explanation ("who is right, and why", with the riichi.md rule id).
KNOWN_DIFFERENCES: dict[str, str] = {}

OPTIONS: dict[str, Any] = dict(
    has_open_tanyao=True,  # kuitan
    has_aka_dora=True,
    has_double_yakuman=False,
    kazoe_limit=HandConfig.KAZOE_LIMITED,  # 13+ han = one yakuman
    kiriage=False,
    fu_for_open_pinfu=True,  # open 20 fu -> 30 fu
    fu_for_pinfu_tsumo=False,  # pinfu tsumo = 20 fu
    renhou_as_yakuman=False,  # renhou not adopted (never flagged here)
    has_daisharin=False,
    has_daisharin_other_suits=False,
    has_daichisei=False,
    has_sashikomi_yakuman=False,
    paarenchan_needs_yaku=True,
    is_three_player=False,
)

# mahjong's YakuConfig attribute → our yaku id.
_YAKU_NAMES = {
    "tsumo": "menzen_tsumo",
    "daburu_riichi": "double_riichi",
    "iipeiko": "iipeikou",
    "chantai": "chanta",
    "honroto": "honroutou",
    "sanshoku_douko": "sanshoku_doukou",
    "shosangen": "shousangen",
    "ryanpeiko": "ryanpeikou",
    "chuuren_poutou": "chuuren",
    "shosuushi": "shousuushii",
    "ryuisou": "ryuuiisou",
    "tsuisou": "tsuuiisou",
    "chinroto": "chinroutou",
    "daisuushi": "daisuushii",
    "daburu_kokushi": "kokushi_13",
    "daburu_chuuren_poutou": "junsei_chuuren",
    **{f"seat_wind_{w}": "seat_wind" for w in ("east", "south", "west", "north")},
    **{f"round_wind_{w}": "round_wind" for w in ("east", "south", "west", "north")},
}

_MELD_TYPES = {
    "chi": (Meld.CHI, True),
    "pon": (Meld.PON, True),
    "minkan": (Meld.KAN, True),
    "ankan": (Meld.KAN, False),
    "kakan": (Meld.SHOUMINKAN, True),
}


def _to_136(h: GenHand) -> tuple[list[int], int, list[Meld], list[int], list[int]]:
    """Physical tile ids (Tenhou's 0..135 layout): kind*4 + copy, the red five being copy 0."""
    nxt = [1 if k in FIVES else 0 for k in range(34)]

    def tid(t: tuple[int, bool]) -> int:
        k, red = t
        if red:
            return 4 * k
        c = nxt[k]
        nxt[k] += 1
        assert c < 4, f"fifth copy of kind {k}"
        return 4 * k + c

    concealed = [tid(t) for t in h.concealed]
    win = tid(h.win)
    melds = []
    for mtype, ts in h.melds:
        kind, opened = _MELD_TYPES[mtype]
        melds.append(Meld(meld_type=kind, tiles=[tid(t) for t in ts], opened=opened))
    dora = [tid(t) for t in h.dora]
    ura = [tid(t) for t in h.ura]
    tiles = concealed + [win] + [t for m in melds for t in m.tiles]
    return tiles, win, melds, dora, ura


def mahjong_score(h: GenHand) -> dict[str, Any]:
    """The reference's verdict in our terms: points (no honba/sticks), total, han, fu, yakuman."""
    tiles, win, melds, dora, ura = _to_136(h)
    f = set(h.flags)
    config = HandConfig(
        is_tsumo=h.tsumo,
        is_riichi="riichi" in f,
        is_ippatsu="ippatsu" in f,
        is_rinshan="rinshan" in f,
        is_chankan="chankan" in f,
        is_haitei="haitei" in f,
        is_houtei="houtei" in f,
        is_daburu_riichi="double_riichi" in f,
        is_tenhou="tenhou" in f,
        is_chiihou="chiihou" in f,
        player_wind=EAST + h.seat,
        round_wind=EAST + h.round_wind,
        tsumi_number=h.honba,
        kyoutaku_number=h.sticks,
        options=OptionalRules(**OPTIONS),
    )
    res = HandCalculator.estimate_hand_value(
        tiles, win, melds=melds, dora_indicators=dora, config=config, ura_dora_indicators=ura
    )
    if res.error:
        return {"error": res.error}
    cost, found = res.cost, res.yaku
    assert cost is not None and found is not None
    attr = {id(v): k for k, v in vars(config.yaku).items()}
    is_open = any(m.opened for m in melds)
    yaku = sorted(
        (_YAKU_NAMES.get(attr[id(y)], attr[id(y)]), y.han_open if is_open and y.han_open else y.han_closed)
        for y in found
    )
    points = cost["main"] + (2 * cost["additional"] if h.tsumo else 0)
    yakuman = sum(y.han_closed for y in found if y.is_yakuman) // 13
    return {
        "points": points,
        "total": cost["total"],
        "han": res.han,
        "fu": res.fu,
        "yakuman": yakuman,
        "yaku": yaku,
    }


def our_score(h: GenHand) -> dict[str, Any]:
    r = score_line(h.line)
    if "error" in r:
        return {"error": r["error"]}
    if not r["agari"]:
        return {"error": r.get("reason", "not agari")}
    return {
        "points": r["points"],
        "total": r["payments"]["ESWN"[h.seat]],
        "han": r["han"],
        "fu": r["fu"],
        "yakuman": r["yakuman"],
        "yaku": sorted((y["name"], y["han"]) for y in r["yaku"]),
        "limit": r.get("limit", ""),
    }


def _same(ours: dict[str, Any], ref: dict[str, Any], key: str) -> bool:
    return bool(ours[key] == ref[key])


@dataclass
class Comparison:
    generated: int = 0
    both_no_yaku: int = 0
    scored: int = 0
    points_equal: int = 0
    total_equal: int = 0
    yaku_equal: int = 0
    han_fu_compared: int = 0
    han_equal: int = 0
    fu_equal: int = 0
    yakuman_hands: int = 0
    yakuman_equal: int = 0
    # (line, ours, mahjong): points differ, or only one side errs
    mismatches: list[tuple[str, dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    # (line, fields): points agree but another compared field does not
    other_differences: list[tuple[str, list[str]]] = field(default_factory=list)
    # (line, ours, mahjong): same han, fu and points, different yaku (another reading of the hand)
    ties: list[tuple[str, dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    shapes: Counter[str] = field(default_factory=Counter)
    yaku_seen: Counter[str] = field(default_factory=Counter)
    situations: Counter[str] = field(default_factory=Counter)
    limits: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    def summary(self) -> str:
        c = self
        return (
            f"{c.generated} generated, {c.both_no_yaku} yaku-less for both (skipped), {c.scored} scored; "
            f"points agree on {c.points_equal}/{c.scored} ({c.points_equal / max(c.scored, 1):.4%}); "
            f"winner's total with honba/sticks {c.total_equal}; yaku lists {c.yaku_equal}; "
            f"non-yakuman han {c.han_equal}/{c.han_fu_compared}, fu {c.fu_equal}/{c.han_fu_compared}; "
            f"yakuman count {c.yakuman_equal}/{c.yakuman_hands}; {c.seconds:.1f} s"
        )


def compare(n: int = N_HANDS, seed: int = SEED) -> Comparison:
    c = Comparison()
    t0 = time.perf_counter()
    for h in generate_hands(n, seed):
        c.generated += 1
        ours = our_score(h)
        ref = mahjong_score(h)
        if ours.get("error") == "no_yaku" and ref.get("error") == HandCalculator.ERR_NO_YAKU:
            c.both_no_yaku += 1
            continue
        c.scored += 1
        c.shapes[h.shape] += 1
        c.situations.update(h.flags)
        c.situations.update(t for t, _ in h.melds)
        c.situations.update(
            {
                "tsumo" if h.tsumo else "ron",
                "dealer" if h.seat == 0 else "non-dealer",
                "closed" if h.closed else "open",
                f"round={'ESWN'[h.round_wind]}",
                f"seat={'ESWN'[h.seat]}",
                *(["honba"] if h.honba else []),
                *(["sticks"] if h.sticks else []),
                *(["red_five"] if any(red for _, red in h.all_tiles) else []),
            }
        )
        if "error" in ours or "error" in ref:
            c.mismatches.append((h.line, ours, ref))
            continue
        c.yaku_seen.update(name for name, _ in ours["yaku"])
        c.limits["stacked" if ours["yakuman"] >= 2 else ours["limit"] or "-"] += 1
        differ = [k for k in ("points", "total", "yaku", "yakuman") if not _same(ours, ref, k)]
        c.points_equal += "points" not in differ
        c.total_equal += "total" not in differ
        c.yaku_equal += "yaku" not in differ
        if ours["yakuman"] or ref["yakuman"]:
            c.yakuman_hands += 1
            c.yakuman_equal += "yakuman" not in differ
        else:
            c.han_fu_compared += 1
            differ += [k for k in ("han", "fu") if not _same(ours, ref, k)]
            c.han_equal += "han" not in differ
            c.fu_equal += "fu" not in differ
        if "points" in differ:
            c.mismatches.append((h.line, ours, ref))
        elif differ == ["yaku"] and _same(ours, ref, "han") and _same(ours, ref, "fu"):
            # Equal han, fu and points from two readings: R-7 orders readings by han, then fu, and
            # says nothing more, so which one is shown is a free choice (see the module docstring).
            c.ties.append((h.line, ours, ref))
        elif differ:
            c.other_differences.append((h.line, differ))
    c.seconds = time.perf_counter() - t0
    return c


@pytest.fixture(scope="module")
def comparison() -> Comparison:
    return compare()


def _fmt(m: tuple[str, dict[str, Any], dict[str, Any]]) -> str:
    line, ours, ref = m
    return f"  {line}\n    ours:    {ours}\n    mahjong: {ref}"


def test_points_agree_with_mahjong_on_20000_generated_hands(comparison: Comparison) -> None:
    c = comparison
    assert c.generated == N_HANDS
    print(c.summary())
    unexplained = [m for m in c.mismatches if m[0] not in KNOWN_DIFFERENCES]
    assert not unexplained, (
        f"{c.summary()}\n{len(unexplained)} unexplained disagreement(s) (add each to KNOWN_DIFFERENCES "
        "with who is right and the riichi.md rule, or fix the side that is wrong):\n"
        + "\n".join(map(_fmt, unexplained))
    )
    stale = sorted(set(KNOWN_DIFFERENCES) - {m[0] for m in c.mismatches})
    assert not stale, f"KNOWN_DIFFERENCES entries that no longer differ: {stale}"
    assert c.points_equal / c.scored >= MIN_AGREEMENT, c.summary()


def test_han_fu_yaku_and_payments_agree_with_mahjong(comparison: Comparison) -> None:
    """Points can agree by accident (two errors cancelling, or both past a limit): the finer fields
    must agree too, apart from hands already explained in KNOWN_DIFFERENCES. A different yaku list
    with the same han, fu and points is a tie between readings and is only printed."""
    c = comparison
    for tie in c.ties:
        print("equal-value reading chosen differently:\n" + _fmt(tie))
    bad = [d for d in c.other_differences if d[0] not in KNOWN_DIFFERENCES]
    assert not bad, f"{c.summary()}\n" + "\n".join(f"  {line}: {fields}" for line, fields in bad)


# riichi.md §15 test vectors (non-dealer South in the East round unless stated), written in the
# generator's strict form: the concealed part never includes the winning tile (V3 and V12 do in §15).
# V10, V11 and V13 are concrete hands with the han/fu the vector names.
SPEC_VECTORS = [
    ("V1", "22345678m234p56s ron 7s seat=S round=E", 2000, 2000),
    ("V2", "22345678m234p56s tsumo 7s seat=S round=E", 2700, 2700),
    ("V3", "1133m5577p99s112z ron 2z seat=S round=E", 1600, 1600),
    ("V4", "123m456p789s5s pon(777z) ron 5s seat=S round=E", 1000, 1000),
    ("V5", "111m456p1223789s ron 2s seat=S round=E riichi", 1300, 1300),
    ("V6", "123456m789p55s67s tsumo 8s seat=E round=E dora=4s riichi", 12000, 12000),
    ("V7", "234567m2267p chi(234s) ron 8p seat=S round=E", 1000, 1000),
    ("V8", "22345678m234p56s ron 7s seat=S round=E honba=2", 2000, 2600),
    ("V9", "22345678m234p56s tsumo 7s seat=S round=E honba=1", 2700, 3000),
    ("V10", "22345678m234p56s ron 7s seat=S round=E dora=7m riichi", 7700, 7700),
    ("V10d", "22345678m234p56s ron 7s seat=E round=E dora=7m riichi", 11600, 11600),
    ("V11", "234m456p678s9s ankan(1111z) ron 9s seat=S round=E dora=2m riichi", 8000, 8000),
    ("V12", "1133m5577p99s112z ron 2z seat=S round=E dora=2m", 6400, 6400),
    ("V13", "1122334455667m ron 7m seat=S round=E dora=16m riichi", 32000, 32000),
    ("sticks", "22345678m234p56s tsumo 7s seat=S round=E honba=1 sticks=2", 2700, 5000),
]


@pytest.mark.parametrize(("vid", "line", "points", "total"), SPEC_VECTORS, ids=[v[0] for v in SPEC_VECTORS])
def test_both_scorers_reproduce_riichi_md_15_vectors(vid: str, line: str, points: int, total: int) -> None:
    h = hand_from_line(line)
    for who, got in (("ours", our_score(h)), ("mahjong", mahjong_score(h))):
        assert (got.get("points"), got.get("total")) == (points, total), f"{vid} {who}: {got}"


# Every yaku of riichi.md §7 and §8 (renhou is not adopted), plus dora.
EXPECTED_YAKU = {
    "riichi", "double_riichi", "ippatsu", "menzen_tsumo", "pinfu", "tanyao", "iipeikou", "haku",
    "hatsu", "chun", "seat_wind", "round_wind", "haitei", "houtei", "rinshan", "chankan",
    "chiitoitsu", "sanshoku", "ittsu", "chanta", "toitoi", "sanankou", "sanshoku_doukou",
    "sankantsu", "shousangen", "honroutou", "honitsu", "junchan", "ryanpeikou", "chinitsu",
    "tenhou", "chiihou", "kokushi", "kokushi_13", "suuankou", "suuankou_tanki", "daisangen",
    "shousuushii", "daisuushii", "tsuuiisou", "chinroutou", "ryuuiisou", "chuuren",
    "junsei_chuuren", "suukantsu", "dora", "aka_dora", "ura_dora",
}  # fmt: skip
EXPECTED_SITUATIONS = {
    "chi", "pon", "minkan", "ankan", "kakan", "tsumo", "ron", "dealer", "non-dealer", "open",
    "closed", "riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan",
    "tenhou", "chiihou", "honba", "sticks", "red_five", "round=E", "round=S", "round=W", "round=N",
    "seat=E", "seat=S", "seat=W", "seat=N",
}  # fmt: skip
# "stacked": two or more yakuman in one hand (R-8.2 yakuman_stacking).
EXPECTED_LIMITS = {"-", "mangan", "haneman", "baiman", "sanbaiman", "kazoe", "yakuman", "stacked"}


def test_sample_covers_the_yaku_list_melds_and_flags(comparison: Comparison) -> None:
    c = comparison
    print("shapes:", dict(c.shapes.most_common()))
    print("yaku:", dict(sorted(c.yaku_seen.items())))
    print("situations:", dict(sorted(c.situations.items())))
    print("limits:", dict(c.limits.most_common()))
    assert set(c.yaku_seen) >= EXPECTED_YAKU, EXPECTED_YAKU - set(c.yaku_seen)
    assert set(c.situations) >= EXPECTED_SITUATIONS, EXPECTED_SITUATIONS - set(c.situations)
    assert set(c.limits) >= EXPECTED_LIMITS, EXPECTED_LIMITS - set(c.limits)

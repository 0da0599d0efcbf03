"""A taiwan16 hand line (``python -m engine score "... ruleset=taiwan16"``) → tai items and payments.

The grammar is the shared one (:mod:`engine.notation`); flowers are written among the concealed
tiles (``...34s1f5f``) or as ``flowers=1f5f``. Flags that mean something else here:

* ``seat=E|S|W|N`` is the winner's **seat wind** (TW-5), which decides T-8 and T-9; the dealer is
  ``dealer=E|S|W|N`` (default ``E``: whoever sits East deals, as with ``seat_wind_mode=dealer_east``).
* ``n=N`` the dealer's continuation count (T-1/T-2: dealer tai 1 + 2n); ``base=``, ``rate=``.
* ``tenpai=declared|earth|heaven`` (T-3 宣告聴牌, T-18 地聴, T-19 天聴).
* ``rinshan`` or ``replacement=kong|flower`` (T-13), ``chankan`` (T-12), ``haitei`` (T-14, self-draw
  on the last tile), ``houtei`` (ron on the final discard: T-14 only with ``haitei_ron=true``),
  ``tenhou`` (T-34), ``chiihou`` (T-33 地胡: a non-dealer's win on the dealer's first discard).
* A flower as the winning tile is a flower win (TW-14): ``tsumo 8f`` holding the other seven is
  八仙過海; ``ron 8f`` holding seven is 七搶一 (a); ``tsumo 7f`` holding six (another player has the
  eighth, ``from=`` names them) is 七搶一 (b). ``phase=deal`` adds 配牌花胡 (T-23).
* Any option of §9b by its key: ``haitei_ron=true``, ``tai.sanankou=3``, ``min_tai=1``, ...

``from=`` names the discarder (or the holder of the other flower); without it a ron's payer is
reported as ``"discarder"`` and taken to be a non-dealer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.notation import WINDS, HandSpec, split_flowers
from engine.rules.taiwan16.options import TaiwanOptions
from engine.rules.taiwan16.tai import (
    NotAWin,
    Situation,
    TaiResult,
    dealer_tai,
    evaluate_tai,
    payment_rows,
)
from engine.scoring.breakdown import Breakdown, ChipRate
from engine.scoring.evaluate import HandError
from engine.scoring.result import NOT_A_WIN, ScoreResult, YakuScore
from engine.tiles import kind_name, kind_of, parse_tiles

if TYPE_CHECKING:
    from engine.rules.taiwan16.ruleset import Taiwan16

BELOW_MIN_TAI = "below_min_tai"
_RIICHI_ONLY = ("riichi", "double_riichi", "ippatsu", "renhou")
_OWN_KEYS = ("dealer", "n", "tenpai", "replacement", "phase", "flowers")


def _wind(value: str, key: str) -> int:
    v = value.upper()
    if v in WINDS:
        return WINDS.index(v)
    raise HandError(f"{key}={value}: use E, S, W or N")


def _options(spec: HandSpec, opts: TaiwanOptions) -> TaiwanOptions:
    for key, value in spec.options.items():
        if key in _OWN_KEYS:
            continue
        opts = opts.set_text(key, value)  # ValueError names the key
    return opts


def _count_check(tiles: list[int], spec: HandSpec, win: int) -> None:
    every = [0] * 34
    for k in tiles:
        every[k] += 1
    if win < 34:
        every[win] += 1
    for m in spec.melds:
        for t in m.tiles:
            every[kind_of(t)] += 1
    for k, c in enumerate(every):
        if c > 4:
            raise HandError(f"the hand has {c} copies of {kind_name(k)}; there are only 4")


def read_hand(spec: HandSpec, opts: TaiwanOptions) -> tuple[list[int], int, Situation, TaiwanOptions]:
    """The hand's kinds (concealed, without the winning tile), the winning kind, the situation and
    the options in force. Raises HandError / ValueError with a readable message."""
    ctx = spec.ctx
    for flag in _RIICHI_ONLY:
        if getattr(ctx, flag):
            raise HandError(f"'{flag}' does not exist in taiwan16 (no riichi, no dora)")
    if ctx.dora_indicators or ctx.ura_indicators or ctx.kita or ctx.honba or ctx.sticks:
        raise HandError("taiwan16 has no dora, kita, honba or sticks")
    if ctx.players != 4:
        raise HandError("taiwan16 is played by 4 players")
    opts = _options(spec, opts)
    tiles_c, flowers_c = split_flowers(spec.concealed)
    extra_flowers = spec.options.get("flowers", "")
    if extra_flowers:
        parsed = parse_tiles(extra_flowers)
        if any(kind_of(c) < 34 for c in parsed):
            raise HandError("flowers= takes flowers only (1f..8f)")
        flowers_c += tuple(parsed)
    flowers = [kind_of(c) for c in flowers_c]
    if len(set(flowers)) != len(flowers):
        raise HandError("each flower exists once")
    win = kind_of(spec.win_tile)
    tiles = [kind_of(c) for c in tiles_c]
    n_melds = len(spec.melds)
    expected = 16 - 3 * n_melds
    flower_win = ""
    if win >= 34:
        if win in flowers:
            raise HandError("the winning flower is also written among the held flowers")
        mine = [*flowers, win] if ctx.tsumo else flowers
        if len(mine) == 8:
            flower_win = "eight"
        elif len(mine) == 7:
            flower_win = "seven"
        else:
            raise HandError(
                "a flower wins only for 七搶一 (seven flowers) or 八仙過海 (all eight); "
                f"this hand has {len(mine)}"
            )
        flowers = mine
        if len(tiles) not in (expected, expected + 1):
            raise HandError(f"with {n_melds} meld(s) a hand has {expected} tiles (the dealer {expected + 1} in the deal)")
    else:
        if len(tiles) == expected + 1 and win in tiles:
            tiles.remove(win)  # written with the winning tile included
        if len(tiles) != expected:
            raise HandError(
                f"with {n_melds} meld(s) the concealed part must have {expected} tiles before the winning tile, "
                f"got {len(tiles)}"
            )
    if flowers and not opts.flowers:
        raise HandError("this table plays without flowers (taiwan16.flowers=false)")
    _count_check(tiles, spec, win)
    replacement = spec.options.get("replacement", "kong" if ctx.rinshan else "")
    phase = spec.options.get("phase", "")
    if phase not in ("", "deal", "play"):
        raise HandError(f"phase={phase}: use deal or play")
    sit = Situation(
        tsumo=ctx.tsumo,
        seat_wind=ctx.seat_wind,
        round_wind=ctx.round_wind,
        flowers=tuple(flowers),
        tenpai=spec.options.get("tenpai", ""),
        replacement=replacement,
        chankan=ctx.chankan,
        last_tile=ctx.haitei if ctx.tsumo else ctx.houtei,
        tenhou=ctx.tenhou,
        chiihou=ctx.chiihou,
        flower_win=flower_win,
        deal_phase=phase == "deal",
    )
    if sit.chankan and sit.tsumo:
        raise HandError("robbing a kong (chankan) is a win on another's tile: write ron")
    return tiles, win, sit, opts


def score_spec(spec: HandSpec, ruleset: Taiwan16) -> ScoreResult:
    """The hand line's tai items, total and payments (the ``score`` hook of taiwan16)."""
    tiles, win, sit, opts = read_hand(spec, ruleset.tw)
    ctx = spec.ctx
    n = int(spec.options.get("n", "0")) if spec.options.get("n", "0").isdigit() else -1
    if n < 0:
        raise HandError(f"n={spec.options.get('n')}: the continuation count is a whole number")
    dealer = _wind(spec.options["dealer"], "dealer") if "dealer" in spec.options else 0
    try:
        result = evaluate_tai(tiles, spec.melds, win, sit, opts)
    except NotAWin:
        return ScoreResult(False, reason=NOT_A_WIN)
    tai = result.tai
    details = _details(result, opts, dealer, n)
    breakdown: tuple[Breakdown, ...] = (*result.items, ChipRate(opts.base, opts.rate, dealer_tai(n)))
    if tai < opts.min_tai:
        return ScoreResult(False, han=tai, reason=BELOW_MIN_TAI, details=details, breakdown=breakdown)
    seat = ctx.seat_wind
    by_all = ctx.tsumo and sit.flower_win != "seven"  # 七搶一 is always paid like a discard
    payers: list[str]  # winds; "discarder" (no from=) is a non-dealer
    if by_all:
        payers = [WINDS[s] for s in range(4) if s != seat]
    elif ctx.discarder is not None:
        if ctx.discarder == seat:
            raise HandError("from= names the winner: a win on a discard needs another player's tile")
        payers = [WINDS[ctx.discarder]]
    else:
        payers = ["discarder"]
    rows = payment_rows(tai, winner=WINDS[seat], payers=payers, dealer=WINDS[dealer], continuation=n, opts=opts)
    total = sum(amount for _, _, amount in rows)
    pay = {key: -amount for key, _, amount in rows}
    pay[WINDS[seat]] = total
    details["payer_tai"] = {key: t for key, t, _ in rows}
    return ScoreResult(
        True,
        tuple(YakuScore(i.name, i.tai) for i in result.items),
        han=tai,
        fu=0,
        points=total,
        payments=pay,
        wait=result.wait,
        details=details,
        breakdown=breakdown,
    )


def _details(result: TaiResult, opts: TaiwanOptions, dealer: int, n: int) -> dict[str, Any]:
    return {
        "ruleset": "taiwan16",
        "tai": result.tai,
        "tai_items": [{"id": i.id, "name": i.name, "tai": i.tai} for i in result.items],
        "dealer": WINDS[dealer],
        "continuation": n,
        "dealer_tai": dealer_tai(n),
        "base": opts.base,
        "rate": opts.rate,
    }

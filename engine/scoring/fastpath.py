"""Fast path of hand scoring for rulesets that use exactly the standard yaku tuples.

It re-implements every yaku of :data:`~engine.scoring.yaku.RIICHI_YAKU` and
:data:`~engine.scoring.yaku.RIICHI_YAKUMAN` (their conditions as bit operations; their han and
names are read from the yaku objects), and the fu. What keeps them equal:
``tests/engine/test_scoring_fastpath.py`` (``test_kobalab_10000_hands``,
``test_riichienv_4p_and_3p_hands``, ``test_generated_hands``,
``test_option_variants_keep_the_fast_path_and_agree``, ``test_incomplete_and_invalid_hands``).

:func:`engine.scoring.evaluate.evaluate` sends a hand here when its ruleset's ``yaku`` and
``yakuman`` *are* :data:`~engine.scoring.yaku.RIICHI_YAKU` and
:data:`~engine.scoring.yaku.RIICHI_YAKUMAN` (identity, not equality) on the standard tile set.
The answer is the very :class:`~engine.scoring.result.ScoreResult` the generic per-object path
gives (same yaku in the same order, han, fu, points, payments, wait), on every dataset hand and
thousands of generated ones. A variant that adds, removes or revalues a yaku builds another tuple
and so takes the generic path; nothing here is consulted for it.

:func:`score_fast` returns ``None`` whenever the generic path must answer instead: an invalid
hand (the generic path words the error), a concealed part written with the winning tile in it,
a tile code outside the riichi set.

Where the time goes, and what replaces it:

* **One tally.** Each tile code maps to an int increment of a *tile key*: 6 bits per kind hold
  its count, three more 6-bit fields count the red fives of m/p/s, and a high bit flags a code
  the fast path does not know. The concealed key (with the winning tile) plus the melds' keys is
  the whole hand; validity (at most 4 copies, removed kinds, red fives) and every hand-wide fact
  (suits, all simples, all terminals/honours, all green, kinds with 3+ copies, 7 pairs, kokushi)
  are then one or two mask operations each instead of loops over 34 counts.
* **Readings by suit.** A suit's bits of the concealed key index a memo of that suit's readings
  (from :func:`engine.hand.decompose.suit_decompositions`, so the decomposition logic is
  shared). Each per-suit reading carries its sets summarised in one packed small int: the
  sequence-start mask and counters (sequences, triplets, identical-sequence pairs, triplet fu,
  pairs, the pair's kind, readings of the suit, sets without a terminal or honour). Suits occupy
  disjoint bits, so a whole reading is summarised by adding four ints; its waits are memoised
  on the winning suit's reading.
* **Yaku as bits.** Yaku are bits in :data:`RIICHI_YAKU` order. The context yaku and the ones
  fixed by the hand's tiles (tanyao, honitsu, yakuhai, shousangen ...) are computed once per
  hand, only the shape yaku (pinfu, peikou, sanshoku, ittsu, chanta, toitoi, sanankou ...) and
  fu per reading. Han is one to three table look-ups on the bit set; the result's
  :class:`~engine.scoring.result.YakuScore` tuple for a bit set and dora counts is built once
  and kept. Han values and names come from the yaku objects themselves, so their metadata stays
  the only source.
* **Yakuman only when possible.** The tile facts give every yakuman but suuankou once per hand
  (most hands have none); suuankou is one comparison per reading.
* **Cheap result.** Settlements are memoised (:func:`engine.scoring.result.settle_at`) and the
  :class:`~engine.scoring.result.ScoreResult` is built by
  :func:`~engine.scoring.result.win_result`, not the frozen dataclass's ``__init__``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import product
from typing import TYPE_CHECKING

from engine.hand.decompose import SEQ, suit_decompositions, wait_readings
from engine.notation import HandSpec, MeldType
from engine.scoring.result import (
    NO_YAKU,
    NOT_A_WIN,
    ScoreResult,
    YakuScore,
    base_points,
    settle_at,
    win_result,
)
from engine.scoring.yaku import DOUBLE_FORMS, GREEN_KINDS, RIICHI_YAKU, RIICHI_YAKUMAN
from engine.tiles import NORTH, RED, YAOCHU, dora_of

if TYPE_CHECKING:
    from engine.rules.base import Ruleset
    from engine.rules.options import RiichiOptions

# ------------------------------------------------------------------------------------------------
# The tile key: 6 bits of count per kind (a hand never holds more than 30 tiles, so no field can
# overflow into the next), then the red-five counters, then the "unknown code" flag.
# ------------------------------------------------------------------------------------------------

_W = 6
_F = (1 << _W) - 1
_RED_SHIFT = 34 * _W
_BAD = 1 << (37 * _W)
_NO_KIND = 38  # a field above _BAD: always zero in a key that passed validation


def _fields(kinds: Iterable[int], value: int) -> int:
    out = 0
    for k in kinds:
        out |= value << (_W * k)
    return out


_KIND_MASK = _fields(range(34), _F)
_M_MAN = _fields(range(0, 9), _F)
_M_PIN = _fields(range(9, 18), _F)
_M_SOU = _fields(range(18, 27), _F)
_M_HON = _fields(range(27, 34), _F)
_YAOCHU_MASK = _fields(YAOCHU, _F)
_SIMPLE_MASK = _KIND_MASK & ~_YAOCHU_MASK
_NONGREEN_MASK = _KIND_MASK & ~_fields(GREEN_KINDS, _F)
# count + 3 reaches 8 exactly when count >= 5: more copies than the set has
_ADD3 = _fields(range(34), 3)
_OVER4 = _fields(range(34), 0b111000)
# count + 5 sets bit 3 exactly when count >= 3 (counts are <= 4 once validated)
_ADD5 = _fields(range(34), 5)
_BIT3 = _fields(range(34), 0b1000)
_NOT_PAIR = _KIND_MASK & ~_fields(range(34), 2)  # all fields 0 or 2 <=> seven pairs (14 tiles)
_HONOUR_SHIFT = 27 * _W


def _increments() -> tuple[int, ...]:
    inc = [_BAD] * 128
    for k in range(34):
        inc[k] = 1 << (_W * k)
    for s, k in enumerate((4, 13, 22)):
        inc[k | RED] = (1 << (_W * k)) + (1 << (_RED_SHIFT + _W * s))
    return tuple(inc)


_INC = _increments()  # tile code -> its increment of the key

# Per-kind properties, indexed by kind.
_IS_YAOCHU = tuple(k >= 27 or k % 9 in (0, 8) for k in range(34))
_SEQ_YAOCHU = tuple(k < 27 and k % 9 in (0, 6) for k in range(34))  # a run starting here holds 1 or 9
_CLOSED_TRIP_FU = tuple(8 if y else 4 for y in _IS_YAOCHU)


def _dora_table(sanma: bool) -> tuple[int, ...]:
    """Indicator tile code -> the key shift of its dora kind (of ``_NO_KIND``, whose field is
    always zero, for a kind no hand holds)."""
    out = []
    for code in range(128):
        k = code & ~RED
        out.append(_W * (dora_of(k, sanma=sanma) if k < 34 else _NO_KIND))
    return tuple(out)


_DORA = (_dora_table(False), _dora_table(True))
_NORTH_SHIFT = _W * NORTH
_ROUND_FU = tuple(-(-fu // 10) * 10 for fu in range(256))  # fu rounded up to the next 10

# ------------------------------------------------------------------------------------------------
# Yaku bits, in RIICHI_YAKU order; han and names read from the objects.
# ------------------------------------------------------------------------------------------------

_KNOWN_YAKU = [
    "riichi",
    "double_riichi",
    "ippatsu",
    "menzen_tsumo",
    "pinfu",
    "tanyao",
    "iipeikou",
    "haitei",
    "houtei",
    "rinshan",
    "chankan",
    "haku",
    "hatsu",
    "chun",
    "seat_wind",
    "round_wind",
    "chiitoitsu",
    "sanshoku",
    "ittsu",
    "chanta",
    "toitoi",
    "sanankou",
    "sanshoku_doukou",
    "sankantsu",
    "shousangen",
    "honroutou",
    "honitsu",
    "junchan",
    "ryanpeikou",
    "chinitsu",
]
_KNOWN_YAKUMAN = [
    "tenhou",
    "chiihou",
    "kokushi",
    "kokushi_13",
    "suuankou",
    "suuankou_tanki",
    "daisangen",
    "shousuushii",
    "daisuushii",
    "tsuuiisou",
    "chinroutou",
    "ryuuiisou",
    "chuuren",
    "junsei_chuuren",
    "suukantsu",
]

# The fast path knows each standard yaku by id; should the standard tuples ever hold another
# (or lose one), it switches itself off rather than answer differently from the objects.
SUPPORTED = (
    sorted(y.id for y in RIICHI_YAKU) == sorted(_KNOWN_YAKU)
    and sorted(y.id for y in RIICHI_YAKUMAN) == sorted(_KNOWN_YAKUMAN)
    and len(RIICHI_YAKU) <= 30
    and not any(y.yakuman for y in RIICHI_YAKU)
)

_BIT = {y.id: 1 << i for i, y in enumerate(RIICHI_YAKU)}
_YBIT = {y.id: 1 << i for i, y in enumerate(RIICHI_YAKUMAN)}


def _b(name: str) -> int:
    return _BIT.get(name, 0)


def _yb(name: str) -> int:
    return _YBIT.get(name, 0)


B_RIICHI, B_DOUBLE, B_IPPATSU, B_TSUMO = _b("riichi"), _b("double_riichi"), _b("ippatsu"), _b("menzen_tsumo")
B_PINFU, B_TANYAO, B_IIPEIKOU, B_RYANPEIKOU = _b("pinfu"), _b("tanyao"), _b("iipeikou"), _b("ryanpeikou")
B_HAITEI, B_HOUTEI, B_RINSHAN, B_CHANKAN = _b("haitei"), _b("houtei"), _b("rinshan"), _b("chankan")
B_HAKU, B_HATSU, B_CHUN = _b("haku"), _b("hatsu"), _b("chun")
B_SEAT, B_ROUND, B_CHIITOI = _b("seat_wind"), _b("round_wind"), _b("chiitoitsu")
B_SANSHOKU, B_ITTSU, B_CHANTA, B_JUNCHAN = _b("sanshoku"), _b("ittsu"), _b("chanta"), _b("junchan")
B_TOITOI, B_SANANKOU, B_DOUKOU = _b("toitoi"), _b("sanankou"), _b("sanshoku_doukou")
B_SANKANTSU, B_SHOUSANGEN, B_HONROUTOU = _b("sankantsu"), _b("shousangen"), _b("honroutou")
B_HONITSU, B_CHINITSU = _b("honitsu"), _b("chinitsu")

Y_TENHOU, Y_CHIIHOU, Y_KOKUSHI, Y_KOKUSHI13 = _yb("tenhou"), _yb("chiihou"), _yb("kokushi"), _yb("kokushi_13")
Y_SUUANKOU, Y_TANKI, Y_DAISANGEN = _yb("suuankou"), _yb("suuankou_tanki"), _yb("daisangen")
Y_SHOUSUUSHII, Y_DAISUUSHII, Y_TSUUIISOU = _yb("shousuushii"), _yb("daisuushii"), _yb("tsuuiisou")
Y_CHINROUTOU, Y_RYUUIISOU, Y_CHUUREN = _yb("chinroutou"), _yb("ryuuiisou"), _yb("chuuren")
Y_JUNSEI, Y_SUUKANTSU = _yb("junsei_chuuren"), _yb("suukantsu")


def _han_tables(hans: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Han of a yaku bit set as three look-ups, one per 10-bit chunk."""
    padded = hans + (0,) * (30 - len(hans))
    chunks = []
    for c in range(0, 30, 10):
        part = padded[c : c + 10]
        chunks.append(tuple(sum(h for i, h in enumerate(part) if m >> i & 1) for m in range(1024)))
    return chunks[0], chunks[1], chunks[2]


_HAN_CLOSED = tuple(y.han_closed for y in RIICHI_YAKU)
_HAN_OPEN = tuple(y.han_open for y in RIICHI_YAKU)
_TABLES = (_han_tables(_HAN_OPEN), _han_tables(_HAN_CLOSED))  # indexed by "closed"
# A yaku worth 0 han in this state does not count (closed-only yaku on an open hand).
_WORTH = (
    sum(1 << i for i, h in enumerate(_HAN_OPEN) if h),
    sum(1 << i for i, h in enumerate(_HAN_CLOSED) if h),
)

# The result's yaku list, keyed by (yaku bits, closed, dora, aka, ura, kita): the lists are few
# (about as many as distinct yaku combinations), so this stays small.
_YakuKey = tuple[int, bool, int, int, int, int]
_YAKU_TUPLES: dict[_YakuKey, tuple[YakuScore, ...]] = {}


def _yaku_tuple(key: _YakuKey) -> tuple[YakuScore, ...]:
    """The yaku in RIICHI_YAKU order with their han, then the dora entries (as ``best_of``)."""
    bits, closed, dora, aka, ura, kita = key
    hans = _HAN_CLOSED if closed else _HAN_OPEN
    out = [YakuScore(y.id, hans[i]) for i, y in enumerate(RIICHI_YAKU) if bits >> i & 1]
    extras = (("dora", dora), ("aka_dora", aka), ("ura_dora", ura), ("kita", kita))
    out += [YakuScore(name, n) for name, n in extras if n]
    found = tuple(out)
    if len(_YAKU_TUPLES) >= 1 << 16:
        _YAKU_TUPLES.clear()
    _YAKU_TUPLES[key] = found
    return found


_YAKUMAN_PICKS: dict[tuple[int, bool, bool], tuple[int, tuple[YakuScore, ...]]] = {}


def _yakuman_pick(bits: int, opts: RiichiOptions) -> tuple[int, tuple[YakuScore, ...]]:
    """(multiple, yaku list) of a yakuman bit set under the options (as ``yakuman_of``)."""
    key = (bits, opts.double_yakuman, opts.yakuman_stacking)
    found = _YAKUMAN_PICKS.get(key)
    if found is None:
        out = [
            YakuScore(y.id, 13 * (2 if (opts.double_yakuman and y.id in DOUBLE_FORMS) else 1))
            for i, y in enumerate(RIICHI_YAKUMAN)
            if bits >> i & 1
        ]
        if not opts.yakuman_stacking and len(out) > 1:
            out = [max(out, key=lambda y: y.han)]
        found = _YAKUMAN_PICKS[key] = (sum(y.han for y in out) // 13, tuple(out))
    return found


# ------------------------------------------------------------------------------------------------
# Per-suit readings, summarised
# ------------------------------------------------------------------------------------------------

# Packed summary of a suit reading, under 60 bits so that it stays a small int. The four suits'
# summaries are added: masks of different suits do not overlap and no counter overflows its
# field in a reading with one pair (the pair field is only read when there is exactly one).
_SEQ_FIELD = (1 << 27) - 1  # bits 0..26: sequence starts
_O_NSEQ = 27  # number of sequences (3 bits)
_O_NTRIP = 30  # number of (concealed) triplets (3 bits)
_O_PEIKOU = 33  # pairs of identical sequences (2 bits)
_O_TFU = 35  # fu of the concealed triplets (6 bits: at most 4 x 8)
_O_NPAIR = 41  # number of pairs (3 bits; a reading needs exactly one)
_O_PAIR = 44  # the pair's kind + 1 (6 bits)
_O_NALT = 50  # how many readings the suit has (6 bits): the four add up to 4 when each has one
_O_NONCH = 56  # sets and pair holding no terminal or honour

_ITTSU_STARTS = 1 | 1 << 9 | 1 << 18

# A part is (packed summary, pair kind or -1, sets as in engine.hand.decompose, {win kind: waits},
# triplet-kind mask)
_Part = tuple[int, int, tuple[int, ...], dict[int, tuple[int, ...]], int]
_EMPTY: tuple[_Part, ...] = ((1 << _O_NALT, -1, (), {}, 0),)
_PARTS: dict[int, tuple[_Part, ...]] = {0: _EMPTY}
_PARTS_MAX = 1 << 18  # bounded: cleared when full (a suit's patterns are few in practice)


def _parts(key: int, suit: int) -> tuple[_Part, ...]:
    """The readings of one suit, keyed by the suit's bits of the concealed key."""
    base = 9 * suit
    n = 9 if suit < 3 else 7
    counts = bytes((key >> (_W * (base + i))) & _F for i in range(n))
    out: list[_Part] = []
    readings = suit_decompositions(counts, suit < 3)
    for sets, pair in readings:
        abs_sets = tuple(s + base for s in sets)
        seqs = [s - SEQ for s in abs_sets if s >= SEQ]
        trips = [s for s in abs_sets if s < SEQ]
        seqmask = 0
        for k in seqs:
            seqmask |= 1 << k
        tripmask = 0
        for k in trips:
            tripmask |= 1 << k
        peikou = sum(v // 2 for v in Counter(seqs).values())
        tripfu = sum(_CLOSED_TRIP_FU[k] for k in trips)
        nonch = sum(1 for k in seqs if not _SEQ_YAOCHU[k]) + sum(1 for k in trips if not _IS_YAOCHU[k])
        pair_abs = pair + base if pair >= 0 else -1
        if pair_abs >= 0 and not _IS_YAOCHU[pair_abs]:
            nonch += 1
        packed = (
            seqmask
            | len(seqs) << _O_NSEQ
            | len(trips) << _O_NTRIP
            | peikou << _O_PEIKOU
            | tripfu << _O_TFU
            | (pair_abs >= 0) << _O_NPAIR
            | (pair_abs + 1) << _O_PAIR
            | len(readings) << _O_NALT
            | nonch << _O_NONCH
        )
        out.append((packed, pair_abs, abs_sets, {}, tripmask))
    found = tuple(out)
    if len(_PARTS) >= _PARTS_MAX:
        _PARTS.clear()
        _PARTS[0] = _EMPTY
    _PARTS[key] = found
    return found


def _waits(part: _Part, win: int) -> tuple[int, ...]:
    """The waits (``Wait`` values, in ``wait_readings`` order) of the winning tile on this suit
    reading; only the winning suit's sets can hold the winning tile."""
    ws = tuple(int(w) for w, _ in wait_readings(part[2], part[1], win))
    part[3][win] = ws
    return ws


_MELD_TILES: dict[tuple[int, ...], tuple[int, int, int]] = {}
_SUIT_BIT = tuple(1 << (k // 9) if k < 27 else 8 for k in range(34))  # 1 m, 2 p, 4 s, 8 honours


def _meld_tiles(tiles: tuple[int, ...]) -> tuple[int, int, int] | None:
    """(key increment, lowest kind, suit bit) of a meld's tiles; None for tiles the fast path
    rejects."""
    try:
        inc = sum(_INC[t] for t in tiles)
        kind = min(t & ~RED for t in tiles)
    except (IndexError, TypeError, ValueError):
        return None
    if not 0 <= kind < 34:
        return None
    if len(_MELD_TILES) >= 1 << 14:
        _MELD_TILES.clear()
    found = _MELD_TILES[tiles] = (inc, kind, _SUIT_BIT[kind])
    return found


_REMOVED: dict[frozenset[int], int] = {}


def _removed_mask(kinds: frozenset[int]) -> int:
    m = _REMOVED.get(kinds)
    if m is None:
        m = _REMOVED[kinds] = _fields((k for k in kinds if 0 <= k < 34), _F)
    return m


def _honour_table() -> dict[int, tuple[int, int, int, int]]:
    """Honour kinds with 3+ copies (the "count >= 3" bits of the key's honour fields, shifted
    down) -> (dragon yakuhai bits, winds as a 4-bit mask, number of dragons, number of winds)."""
    out = {}
    for present in range(1 << 7):
        key = sum(1 << (_W * i + 3) for i in range(7) if present >> i & 1)
        dragons = [d for d in range(3) if present >> (4 + d) & 1]
        bits = sum((B_HAKU, B_HATSU, B_CHUN)[d] for d in dragons)
        out[key] = (bits, present & 15, len(dragons), (present & 15).bit_count())
    return out


_HONOURS = _honour_table()
# Suit mix (1 m, 2 p, 4 s, 8 honours) -> honitsu or chinitsu bit; -> the suit's first kind for a
# one-suit hand (-1 otherwise).
_SUIT_MIX_YAKU = tuple(
    B_HONITSU if m in (9, 10, 12) else (B_CHINITSU if m in (1, 2, 4) else 0) for m in range(16)
)
_ONE_SUIT_BASE = tuple({1: 0, 2: 9, 4: 18}.get(m, -1) for m in range(16))
_SUIT_OF = tuple(k // 9 if k < 27 else 3 for k in range(34))  # the suit index (3 = honours) of a kind
_CHUUREN = (3, 1, 1, 1, 1, 1, 1, 1, 3)
_WAIT_NAMES = ("ryanmen", "kanchan", "penchan", "shanpon", "tanki")
_WAIT_FU = (0, 2, 2, 0, 2)  # kanchan, penchan and tanki add 2 fu
_RYANMEN, _SHANPON, _TANKI = 0, 3, 4
_CHI, _PON, _ANKAN = MeldType.CHI, MeldType.PON, MeldType.ANKAN


# ------------------------------------------------------------------------------------------------
# The evaluator
# ------------------------------------------------------------------------------------------------


def score_fast(spec: HandSpec, rs: Ruleset) -> ScoreResult | None:  # noqa: C901 - one hot function
    """The value of the hand, exactly as the generic path would give it, or ``None`` when the
    generic path has to answer (see the module docstring)."""
    concealed = spec.concealed
    melds = spec.melds
    n_melds = len(melds)
    if len(concealed) != 13 - 3 * n_melds:
        return None
    inc = _INC
    win_code = spec.win_tile
    try:
        ck = inc[win_code]
        for c in concealed:
            ck += inc[c]
    except (IndexError, TypeError):
        return None

    # -- melds: their tiles, and what they contribute to every reading --------------------------
    every = ck
    closed = True
    kans = ankans = 0
    mseq = mtrip = n_mseq = n_mtrip = 0
    meld_fu = meld_nonch = suits = 0
    if melds:
        cache = _MELD_TILES
        for m in melds:
            info = cache.get(m.tiles)
            if info is None:
                info = _meld_tiles(m.tiles)
                if info is None:
                    return None
            every += info[0]
            k = info[1]
            suits |= info[2]
            t = m.type
            if t is _CHI:
                closed = False
                mseq |= 1 << k
                n_mseq += 1
                if not _SEQ_YAOCHU[k]:
                    meld_nonch += 1
            else:
                mtrip |= 1 << k
                n_mtrip += 1
                fu = 4 if _IS_YAOCHU[k] else 2
                if t is _PON:
                    closed = False
                elif t is _ANKAN:
                    fu *= 8
                    kans += 1
                    ankans += 1
                else:
                    fu *= 4
                    kans += 1
                    closed = False
                meld_fu += fu
                if not _IS_YAOCHU[k]:
                    meld_nonch += 1

    # -- validity: anything odd goes to the generic path, which words the error ----------------
    if every >= _BAD or (every + _ADD3) & _OVER4:
        return None
    removed = rs.removed_kinds
    if removed and every & _removed_mask(removed):
        return None
    opts = rs.options
    reds = every >> _RED_SHIFT
    aka = 0
    if reds:
        rf = opts.red_fives
        r_m, r_p, r_s = reds & _F, (reds >> _W) & _F, reds >> (2 * _W)
        if r_m > rf[0] or r_p > rf[1] or r_s > rf[2]:
            return None
        aka = r_m + r_p + r_s

    # -- the standard readings: one memoised look-up per suit ----------------------------------
    # (each suit's key also says whether the suit is present, for the suit mix)
    memo = _PARTS
    key = ck & _M_MAN
    if key:
        suits |= 1
    dm = memo.get(key)
    if dm is None:
        dm = _parts(key, 0)
    key = ck & _M_PIN
    if key:
        suits |= 2
    dp = memo.get(key)
    if dp is None:
        dp = _parts(key, 1)
    key = ck & _M_SOU
    if key:
        suits |= 4
    ds = memo.get(key)
    if ds is None:
        ds = _parts(key, 2)
    key = ck & _M_HON
    if key:
        suits |= 8
    dz = memo.get(key)
    if dz is None:
        dz = _parts(key, 3)
    # A suit needs the pair exactly when its tile count is 2 mod 3, whichever its reading; a
    # reading needs exactly one pair.
    standard = False
    if dm and dp and ds and dz:
        s = dm[0][0] + dp[0][0] + ds[0][0] + dz[0][0]
        standard = (s >> _O_NPAIR) & 7 == 1
    all_yaochu = not every & _SIMPLE_MASK
    chiitoi = kokushi = False
    if not n_melds:
        chiitoi = not ck & _NOT_PAIR
        if all_yaochu:
            kokushi = all((ck >> (_W * k)) & _F for k in YAOCHU)
    if not (standard or chiitoi or kokushi):
        return ScoreResult(False, reason=NOT_A_WIN)

    # -- facts of the whole hand ---------------------------------------------------------------
    ctx = spec.ctx
    tsumo = ctx.tsumo
    seat = ctx.seat_wind
    seat_k = 27 + seat
    round_k = 27 + ctx.round_wind
    win = win_code & 63  # the kind: a valid code is a kind or a red five (kind | RED)

    # yaku of every form, fixed by the context and the tiles
    hb = 0
    if ctx.double_riichi:
        hb = B_DOUBLE
    elif ctx.riichi:
        hb = B_RIICHI
    if ctx.ippatsu and (ctx.riichi or ctx.double_riichi):
        hb |= B_IPPATSU
    if tsumo:
        if closed:
            hb |= B_TSUMO
        if ctx.haitei and not ctx.rinshan:
            hb |= B_HAITEI
        if ctx.rinshan:
            hb |= B_RINSHAN
    else:
        if ctx.houtei:
            hb |= B_HOUTEI
        if ctx.chankan:
            hb |= B_CHANKAN
    if not every & _YAOCHU_MASK:
        hb |= B_TANYAO
    elif all_yaochu and suits & 8 and suits & 7:
        hb |= B_HONROUTOU
    hb |= _SUIT_MIX_YAKU[suits]

    # yakuman of every form, and of the standard form, fixed by the context and the tiles
    y_all = 0
    if tsumo:
        if ctx.tenhou and seat == 0:
            y_all = Y_TENHOU
        if ctx.chiihou and seat != 0:
            y_all |= Y_CHIIHOU
    if all_yaochu:
        if suits == 8:
            y_all |= Y_TSUUIISOU
        elif not suits & 8:
            y_all |= Y_CHINROUTOU
    if not suits & 3 and not every & _NONGREEN_MASK:
        y_all |= Y_RYUUIISOU
    if kans == 4:
        y_all |= Y_SUUKANTSU

    # standard-form yaku fixed by the tiles: honours only form triplets and the pair, so the
    # honour triplets (kinds with 3+ copies) and the honour pair (in the concealed part) are the
    # same in every reading
    sb = 0
    y_std = 0
    if suits & 8 and (honours := ((every + _ADD5) & _BIT3) >> _HONOUR_SHIFT):
        sb, winds, n_dragons, n_winds = _HONOURS[honours]
        if winds >> seat & 1:
            sb |= B_SEAT
        if winds >> (round_k - 27) & 1:
            sb |= B_ROUND
        hpair = dz[0][1] if dz else -1  # the honour pair, if the honours hold the pair
        if n_dragons == 3:
            y_std = Y_DAISANGEN
        elif n_dragons == 2 and hpair >= 31:
            sb |= B_SHOUSANGEN
        if n_winds == 4:
            y_std |= Y_DAISUUSHII
        elif n_winds == 3 and 27 <= hpair < 31:
            y_std |= Y_SHOUSUUSHII
    if kans == 3:
        sb |= B_SANKANTSU
    if not n_melds and (base := _ONE_SUIT_BASE[suits]) >= 0:
        if all((ck >> (_W * (base + i))) & _F >= _CHUUREN[i] for i in range(9)):
            extra = (ck >> (_W * win)) & _F
            y_std |= Y_JUNSEI if extra - 1 == _CHUUREN[win - base] else Y_CHUUREN
    # Most hands can be no yakuman: only suuankou is left to check, per reading.
    y_hand = y_all | y_std

    # -- dora (once: the same for every reading) -----------------------------------------------
    dtab = _DORA[rs.players == 3]
    kita = ctx.kita
    dora = 0
    try:
        for ind in ctx.dora_indicators:
            d = dtab[ind]
            dora += (every >> d) & _F
            if d == _NORTH_SHIFT:
                dora += kita
        ura = 0
        if ctx.riichi or ctx.double_riichi:
            for ind in ctx.ura_indicators:
                d = dtab[ind]
                ura += (every >> d) & _F
                if d == _NORTH_SHIFT:
                    ura += kita
    except (IndexError, TypeError):
        return None
    kita_han = kita if opts.kita else 0
    extra_han = dora + aka + ura + kita_han

    # -- value every reading; keep the best (first of equals, as the generic path) ------------
    keep = _WORTH[closed]
    if not closed and not opts.kuitan:
        keep &= ~B_TANYAO
    t0, t1, t2 = _TABLES[closed]
    fu_base = 20 + meld_fu + (2 if tsumo else (10 if closed else 0))
    found = False  # a reading with yaku; the best so far in best_*
    best_bits = best_fu = best_han = best_base = best_wait = 0
    best_limit = ""
    y_best_mult = 0
    y_best_bits = y_best_wait = 0
    if standard:
        combos: Iterable[tuple[_Part, ...]]
        single = (s >> _O_NALT) & _F == 4  # one reading per suit (most hands)
        combos = ((dm[0], dp[0], ds[0], dz[0]),) if single else product(dm, dp, ds, dz)
        win_suit = _SUIT_OF[win]
        for combo in combos:
            if not single:
                s = combo[0][0] + combo[1][0] + combo[2][0] + combo[3][0]
            pair = ((s >> _O_PAIR) & _F) - 1
            wpart = combo[win_suit]
            waits = wpart[3].get(win)
            if waits is None:
                waits = _waits(wpart, win)
            seqm = (s & _SEQ_FIELD) | mseq
            nseq = ((s >> _O_NSEQ) & 7) + n_mseq
            ctrip = (s >> _O_NTRIP) & 7
            rb = hb | sb
            if nseq >= 3:  # sanshoku and ittsu need three sequences
                if seqm & (seqm >> 9) & (seqm >> 18) & 0x7F:
                    rb |= B_SANSHOKU
                if seqm & (seqm >> 3) & (seqm >> 6) & _ITTSU_STARTS:
                    rb |= B_ITTSU
            elif nseq == 0:
                if ctrip + n_mtrip == 4:
                    rb |= B_TOITOI
            if nseq and not (s >> _O_NONCH) + meld_nonch:
                rb |= B_CHANTA if suits & 8 else B_JUNCHAN
            if closed and nseq >= 2:
                pk = (s >> _O_PEIKOU) & 3
                if pk == 1:
                    rb |= B_IIPEIKOU
                elif pk == 2:
                    rb |= B_RYANPEIKOU
            if nseq <= 1:  # sanshoku doukou needs three triplets
                tm = combo[0][4] | combo[1][4] | combo[2][4] | mtrip
                if tm & (tm >> 9) & (tm >> 18) & 0x1FF:
                    rb |= B_DOUKOU
            tripfu = (s >> _O_TFU) & _F
            pair_fu = 0
            yakuhai_pair = False
            if pair >= 27:
                if pair >= 31:
                    pair_fu = 2
                    yakuhai_pair = True
                if pair == seat_k:
                    pair_fu += 2
                    yakuhai_pair = True
                if pair == round_k:
                    pair_fu += 2
                    yakuhai_pair = True
                if pair_fu == 4 and pair < 31:
                    pair_fu = opts.double_wind_pair_fu
                    if not 0 <= pair_fu <= 32:
                        return None  # keeps every fu inside the _ROUND_FU table
            pinfu_able = closed and nseq == 4 and not yakuhai_pair
            ctrip += ankans
            for w in waits:
                ct = ctrip
                tf = tripfu
                if w == _SHANPON and not tsumo:
                    ct -= 1  # the triplet completed by the discard is an open one
                    tf -= _CLOSED_TRIP_FU[win] >> 1
                if y_hand or ct == 4:
                    yb = y_hand
                    if ct == 4:
                        yb |= Y_TANKI if w == _TANKI else Y_SUUANKOU
                    if yb:
                        mult = _yakuman_pick(yb, opts)[0]
                        if mult > y_best_mult:
                            y_best_mult, y_best_bits, y_best_wait = mult, yb, w
                        continue
                bits = (rb | B_SANANKOU) if ct == 3 else rb
                if w == _RYANMEN and pinfu_able:
                    bits |= B_PINFU
                    fu = 20 if tsumo else 30
                else:
                    fu = _ROUND_FU[fu_base + tf + pair_fu + _WAIT_FU[w]]
                    if fu == 20 and not closed:
                        fu = 30
                bits &= keep
                if not bits:
                    continue
                if bits < 1024:  # only yaku of the first chunk (riichi, tsumo, pinfu, tanyao ...)
                    han = t0[bits] + extra_han
                else:
                    han = t0[bits & 1023] + t1[(bits >> 10) & 1023] + t2[bits >> 20] + extra_han
                if found and han <= best_han and fu <= best_fu:
                    continue  # cannot beat the best: base points grow with han and with fu
                # Below 1920 base points neither a limit nor kiriage can apply (base_points).
                b = fu << (han + 2) if han < 5 else 2000
                if b < 1920:
                    limit = ""
                else:
                    b, limit = base_points(han, fu, 0, opts)
                # the generic order (base, han, fu), the first of equals kept
                if not found or (b, han, fu) > (best_base, best_han, best_fu):
                    found = True
                    best_bits = bits
                    best_fu = fu
                    best_han = han
                    best_base = b
                    best_limit = limit
                    best_wait = w
    if chiitoi:
        if y_all:
            mult = _yakuman_pick(y_all, opts)[0]
            if mult > y_best_mult:
                y_best_mult, y_best_bits, y_best_wait = mult, y_all, _TANKI
        else:
            bits = (hb | B_CHIITOI) & keep
            if bits:
                han = t0[bits & 1023] + t1[(bits >> 10) & 1023] + t2[bits >> 20] + extra_han
                b, limit = base_points(han, 25, 0, opts)
                if not found or (b, han, 25) > (best_base, best_han, best_fu):
                    found = True
                    best_bits = bits
                    best_fu = 25
                    best_han = han
                    best_base = b
                    best_limit = limit
                    best_wait = _TANKI
    if kokushi:
        yb = y_all | (Y_KOKUSHI13 if (ck >> (_W * win)) & _F == 2 else Y_KOKUSHI)
        mult = _yakuman_pick(yb, opts)[0]
        if mult > y_best_mult:
            y_best_mult, y_best_bits, y_best_wait = mult, yb, _TANKI

    if y_best_mult:
        mult, ys = _yakuman_pick(y_best_bits, opts)
        base, limit = base_points(0, 0, mult, opts)
        pts, pay = settle_at(base, seat, tsumo, ctx.discarder, ctx.honba, ctx.sticks, opts)
        return win_result(ys, 0, 0, mult, pts, pay, limit, _WAIT_NAMES[y_best_wait])
    if not found:
        return ScoreResult(False, reason=NO_YAKU)
    ykey = (best_bits, closed, dora, aka, ura, kita_han)
    ys = _YAKU_TUPLES.get(ykey) or _yaku_tuple(ykey)
    pts, pay = settle_at(best_base, seat, tsumo, ctx.discarder, ctx.honba, ctx.sticks, opts)
    return win_result(ys, best_han, best_fu, 0, pts, pay, best_limit, _WAIT_NAMES[best_wait])


__all__ = ["SUPPORTED", "score_fast"]

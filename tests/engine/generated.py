"""Deterministic generator of random, legal winning hands for differential scoring tests.

This is a helper for ``test_vs_mahjong.py``; it holds no tests itself and imports nothing from the
engine, so a bug in the engine's notation code cannot hide a bug in its scorer.

:func:`generate_hands` yields :class:`GenHand` objects. Each one carries the line of the hand
grammar (``<concealed, without the winning tile> [melds] (ron|tsumo) <winning tile> [flags]``)
plus the same hand in structured form, so the test can convert it to the reference library's
input without parsing the line back.

What the generator guarantees (riichi.md §1, §3, §5, §6, §7, §8):

* the hand is complete: 4 sets + pair, 7 distinct pairs, or kokushi (R-6.1);
* at most 4 copies of each kind counting the concealed tiles, the winning tile, the melds and the
  dora/ura indicators; at most one red five per suit, and a red five whenever all four fives of a
  suit are in sight (R-1.2: the red five replaces one of the four);
* the winning tile is a concealed tile (never part of a meld);
* the situational flags are consistent: riichi / double riichi / ura only on a closed hand (ankan
  allowed); ippatsu only with riichi and never together with rinshan or chankan (R-5.4: any call,
  own ankan included, ends it); rinshan only on a tsumo with a kan; haitei only on a non-rinshan
  tsumo; houtei only on a non-chankan ron; chankan only on a ron whose winning kind the winner
  holds no other copy of (the other three are in the robbed kan), and never on an indicator;
  tenhou (dealer) / chiihou (non-dealer) only on a tsumo with no meld at all and no other flag;
* one dora indicator plus one per kan (R-3.5); ura indicators only with riichi, one per dora.

The ``shape`` of a hand names the template that built it (``regular``, ``tanyao``, ``chiitoitsu``,
``kokushi``, ``daisangen`` …) so a report can show how the sample is spread.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

__all__ = [
    "GenHand",
    "Meld",
    "Tile",
    "format_line",
    "generate_hands",
    "hand_from_line",
    "indicator_of",
    "parse_tiles_text",
    "tile_text",
]

# A tile is (kind, red): kind 0..33 = 1m..9m, 1p..9p, 1s..9s, E S W N, Wh Gr Rd.
Tile = tuple[int, bool]
# A meld is (type, tiles) with type one of chi, pon, minkan, ankan, kakan.
Meld = tuple[str, tuple[Tile, ...]]

WINDS = "ESWN"
HONOURS = tuple(range(27, 34))
WIND_KINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)
TERMINALS = (0, 8, 9, 17, 18, 26)
YAOCHU = TERMINALS + HONOURS
SIMPLES = tuple(k for k in range(27) if k % 9 not in (0, 8))
GREEN = (19, 20, 21, 23, 25, 32)  # 2s 3s 4s 6s 8s Gr
FIVES = (4, 13, 22)

# Set specs: ("s", k) = sequence k, k+1, k+2; ("t", k) = triplet of k.
SetSpec = tuple[str, int]


@dataclass(frozen=True, slots=True)
class GenHand:
    line: str
    shape: str
    concealed: tuple[Tile, ...]  # without the winning tile, sorted
    melds: tuple[Meld, ...]  # in call order
    win: Tile
    tsumo: bool
    seat: int  # 0 = East = dealer
    round_wind: int
    flags: tuple[
        str, ...
    ]  # riichi, double_riichi, ippatsu, haitei, houtei, rinshan, chankan, tenhou, chiihou
    dora: tuple[Tile, ...]
    ura: tuple[Tile, ...]
    honba: int
    sticks: int

    @property
    def closed(self) -> bool:
        return all(t == "ankan" for t, _ in self.melds)

    @property
    def all_tiles(self) -> tuple[Tile, ...]:
        """Every tile of the winning hand: concealed, winning tile, melds."""
        return self.concealed + (self.win,) + tuple(t for _, ts in self.melds for t in ts)


def indicator_of(kind: int) -> int:
    """The indicator whose dora is ``kind`` (R-3.4 backwards)."""
    if kind < 27:
        return kind - 1 if kind % 9 else kind + 8
    if kind < 31:
        return 27 + (kind - 27 - 1) % 4
    return 31 + (kind - 31 - 1) % 3


def _sorted(tiles: Iterable[Tile]) -> tuple[Tile, ...]:
    """Sorted by kind, a red five before the plain fives."""
    return tuple(sorted(tiles, key=lambda t: (t[0], not t[1])))


def tile_text(tiles: Iterable[Tile]) -> str:
    """Compressed notation, suits in the order m p s z, a red five as ``0`` before the plain fives."""
    ts = _sorted(tiles)
    out: list[str] = []
    for s, letter in enumerate("mpsz"):
        digits = ["0" if red else str(k - 9 * s + 1) for k, red in ts if k // 9 == s]
        if digits:
            out.append("".join(digits) + letter)
    return "".join(out)


def format_line(h: GenHand) -> str:
    parts = [tile_text(h.concealed)] if h.concealed else []
    parts += [f"{t}({tile_text(ts)})" for t, ts in h.melds]
    parts += ["tsumo" if h.tsumo else "ron", tile_text([h.win])]
    parts += [f"seat={WINDS[h.seat]}", f"round={WINDS[h.round_wind]}"]
    if h.dora:
        parts.append(f"dora={tile_text(h.dora)}")
    if h.ura:
        parts.append(f"ura={tile_text(h.ura)}")
    parts += list(h.flags)
    if h.honba:
        parts.append(f"honba={h.honba}")
    if h.sticks:
        parts.append(f"sticks={h.sticks}")
    return " ".join(parts)


def _set_kinds(s: SetSpec) -> list[int]:
    kind, k = s
    return [k, k + 1, k + 2] if kind == "s" else [k, k, k]


class _Gen:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    # ---- random sets -------------------------------------------------------------------------

    def seq(self, suits: tuple[int, ...] = (0, 1, 2), starts: tuple[int, ...] = tuple(range(7))) -> SetSpec:
        return ("s", 9 * self.r.choice(suits) + self.r.choice(starts))

    def trip(self, pool: tuple[int, ...]) -> SetSpec:
        return ("t", self.r.choice(pool))

    def any_set(self, p_seq: float = 0.65) -> SetSpec:
        return self.seq() if self.r.random() < p_seq else self.trip(tuple(range(34)))

    # ---- templates: (shape, sets, pair, closed_only) -----------------------------------------

    def template(self) -> tuple[str, list[SetSpec], int, bool] | tuple[str, list[int]]:
        """A regular hand as (shape, 4 sets, pair kind, closed_only), or a special hand as
        (shape, 14 kinds)."""
        r = self.r
        shapes = [
            ("regular", 22),
            ("tanyao", 9),
            ("pinfu", 9),
            ("yakuhai", 9),
            ("honitsu", 7),
            ("chinitsu", 5),
            ("chanta", 5),
            ("junchan", 3),
            ("toitoi", 6),
            ("sanshoku", 3),
            ("doukou", 2),
            ("ittsu", 3),
            ("peikou", 4),
            ("kans", 3),
            ("chiitoitsu", 6),
            ("overlap", 5),
            ("kokushi", 1),
            ("yakuman", 5),
        ]
        shape = r.choices([s for s, _ in shapes], [w for _, w in shapes])[0]
        suit = r.randrange(3)
        if shape == "regular":
            return shape, [self.any_set() for _ in range(4)], r.randrange(34), False
        if shape == "tanyao":
            sets: list[SetSpec] = [
                self.seq(starts=(1, 2, 3, 4, 5)) if r.random() < 0.7 else self.trip(SIMPLES) for _ in range(4)
            ]
            return shape, sets, r.choice(SIMPLES), False
        if shape == "pinfu":
            pair = r.choice(tuple(range(27)) + HONOURS)
            return shape, [self.seq() for _ in range(4)], pair, True
        if shape == "yakuhai" and r.random() < 0.2:
            dragons = r.sample(DRAGONS, 3)
            sets = [("t", dragons[0]), ("t", dragons[1]), self.any_set(), self.any_set()]
            return "shousangen", sets, dragons[2], False
        if shape == "yakuhai":
            n = r.choice((1, 1, 2, 2, 3))
            honours = r.sample(HONOURS, n)
            sets = [("t", k) for k in honours] + [self.any_set() for _ in range(4 - n)]
            pair = r.choice(HONOURS) if r.random() < 0.5 else r.randrange(34)
            return shape, sets, pair, False
        if shape == "honitsu":
            pool = tuple(range(9 * suit, 9 * suit + 9)) + HONOURS
            sets = [self.seq((suit,)) if r.random() < 0.55 else self.trip(pool) for _ in range(4)]
            return shape, sets, r.choice(pool), False
        if shape == "chinitsu":
            pool = tuple(range(9 * suit, 9 * suit + 9))
            sets = [self.seq((suit,)) if r.random() < 0.7 else self.trip(pool) for _ in range(4)]
            return shape, sets, r.choice(pool), r.random() < 0.4
        if shape in ("chanta", "junchan"):
            pool = TERMINALS if shape == "junchan" else YAOCHU
            sets = [self.seq(starts=(0, 6)) if r.random() < 0.6 else self.trip(pool) for _ in range(4)]
            return shape, sets, r.choice(pool), False
        if shape == "toitoi":
            pool = r.choice(
                (tuple(range(34)), YAOCHU, SIMPLES, HONOURS + tuple(range(9 * suit, 9 * suit + 9)))
            )
            kinds = r.sample(pool, 5)
            return shape, [("t", k) for k in kinds[:4]], kinds[4], False
        if shape == "sanshoku":
            start = r.randrange(7)
            sets = [("s", 9 * s + start) for s in range(3)] + [self.any_set()]
            return shape, sets, r.randrange(34), False
        if shape == "doukou":
            rank = r.randrange(9)
            sets = [("t", 9 * s + rank) for s in range(3)] + [self.any_set()]
            return shape, sets, r.randrange(34), False
        if shape == "ittsu":
            sets = [("s", 9 * suit), ("s", 9 * suit + 3), ("s", 9 * suit + 6), self.any_set()]
            return shape, sets, r.randrange(34), False
        if shape == "peikou":
            a = self.seq()
            b = self.seq() if r.random() < 0.4 else self.any_set()
            rest = [b, b] if r.random() < 0.4 else [b, self.any_set()]
            return shape, [a, a, *rest], r.randrange(34), True
        if shape == "kans":
            kinds = r.sample(range(34), 4)
            sets = [("t", k) for k in kinds[: r.choice((2, 3, 3, 4))]]
            sets += [self.any_set() for _ in range(4 - len(sets))]
            return "kans", sets, r.choice([k for k in range(34) if k not in kinds]), False
        if shape == "overlap":
            # Several readings of the same tiles: 111222333 = 123x3, 2223444 with a shared edge, ...
            k = 9 * suit + r.randrange(7)
            if r.random() < 0.5:
                sets = [("s", k)] * 3 if r.random() < 0.5 else [("t", k), ("t", k + 1), ("t", k + 2)]
                sets.append(self.seq((suit,)) if r.random() < 0.7 else self.any_set())
            else:
                sets = [
                    ("s", k),
                    ("s", k),
                    self.seq((suit,)),
                    self.trip(tuple(range(9 * suit, 9 * suit + 9))),
                ]
            pool = tuple(range(9 * suit, 9 * suit + 9))
            return shape, sets, r.choice(pool) if r.random() < 0.8 else r.randrange(34), r.random() < 0.7
        if shape == "chiitoitsu":
            pool = r.choice(
                (
                    tuple(range(34)),
                    SIMPLES,
                    tuple(range(9 * suit, 9 * suit + 9)) + HONOURS,
                    tuple(range(9 * suit, 9 * suit + 9)),
                    YAOCHU,
                    HONOURS,
                )
            )
            return shape, [k for k in r.sample(pool, 7) for _ in (0, 1)]
        if shape == "kokushi":
            return shape, [*YAOCHU, r.choice(YAOCHU)]
        return self.yakuman()

    def yakuman(self) -> tuple[str, list[SetSpec], int, bool] | tuple[str, list[int]]:
        r = self.r
        suit = r.randrange(3)
        which = r.choice(
            (
                "daisangen",
                "shousuushii",
                "daisuushii",
                "tsuuiisou",
                "chinroutou",
                "ryuuiisou",
                "chuuren",
                "suuankou",
                "suukantsu",
            )
        )
        if which == "daisangen":
            return which, [("t", 31), ("t", 32), ("t", 33), self.any_set()], r.randrange(31), False
        if which == "shousuushii":
            w = r.sample(WIND_KINDS, 4)
            return which, [("t", w[0]), ("t", w[1]), ("t", w[2]), self.any_set()], w[3], False
        if which == "daisuushii":
            return (
                which,
                [("t", k) for k in WIND_KINDS],
                r.choice([k for k in range(34) if k > 30 or k < 27]),
                False,
            )
        if which == "tsuuiisou":
            kinds = r.sample(HONOURS, 5)
            return which, [("t", k) for k in kinds[:4]], kinds[4], False
        if which == "chinroutou":
            kinds = r.sample(TERMINALS, 5)
            return which, [("t", k) for k in kinds[:4]], kinds[4], False
        if which == "ryuuiisou":
            sets = [("s", 19) if r.random() < 0.4 else self.trip(GREEN) for _ in range(4)]
            return which, sets, r.choice(GREEN), False
        if which == "chuuren":
            base = [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, r.randrange(9)]
            return which, [9 * suit + k for k in base]
        if which == "suuankou":
            kinds = r.sample(range(34), 5)
            return which, [("t", k) for k in kinds[:4]], kinds[4], True
        kinds = r.sample(range(34), 5)
        return which, [("t", k) for k in kinds[:4]], kinds[4], False

    # ---- one hand ----------------------------------------------------------------------------

    def hand(self) -> GenHand | None:
        """One hand, or None when the random choices broke a tile-count limit (the caller retries)."""
        r = self.r
        t = self.template()
        melds_k: list[tuple[str, list[int]]] = []
        if len(t) == 2:
            shape, concealed_k = t  # type: ignore[misc]
            concealed_k = list(concealed_k)
        else:
            shape, sets, pair, closed_only = t  # type: ignore[misc]
            concealed_k = [pair, pair]
            # How open the hand is: a third fully closed, the rest with a random call rate.
            p_open = 0.0 if closed_only or r.random() < 0.35 else r.uniform(0.25, 1.0)
            p_kan = {"kans": 0.9, "suukantsu": 1.0}.get(shape, 0.2)
            for s in sets:
                ks = _set_kinds(s)
                if s[0] == "t" and r.random() < p_kan and (shape != "suuankou" or r.random() < 0.3):
                    if shape in ("suuankou",) or r.random() >= p_open:
                        melds_k.append(("ankan", ks + [ks[0]]))
                    else:
                        melds_k.append((r.choice(("minkan", "kakan")), ks + [ks[0]]))
                elif r.random() < p_open:
                    melds_k.append(("chi" if s[0] == "s" else "pon", ks))
                else:
                    concealed_k += ks
            r.shuffle(melds_k)
        counts = [0] * 34
        for k in concealed_k + [k for _, ks in melds_k for k in ks]:
            counts[k] += 1
        if max(counts) > 4:
            return None
        # The winning tile: any concealed tile.
        win_k = concealed_k.pop(r.randrange(len(concealed_k)))
        open_hand = any(m != "ankan" for m, _ in melds_k)
        n_kans = sum(1 for m, _ in melds_k if m.endswith("kan"))

        # ---- situation ----
        tsumo = r.random() < 0.5
        seat = r.randrange(4)
        round_wind = r.choices(range(4), (45, 45, 7, 3))[0]
        flags: list[str] = []
        if tsumo and not melds_k and r.random() < 0.03:
            flags.append("tenhou" if seat == 0 else "chiihou")
        else:
            riichi = not open_hand and r.random() < 0.45
            if riichi:
                flags.append("double_riichi" if r.random() < 0.1 else "riichi")
            rinshan = tsumo and n_kans > 0 and r.random() < 0.25
            chankan = not tsumo and counts[win_k] == 1 and r.random() < 0.1
            if riichi and not rinshan and not chankan and r.random() < 0.25:
                flags.append("ippatsu")
            if rinshan:
                flags.append("rinshan")
            if chankan:
                flags.append("chankan")
            if tsumo and not rinshan and r.random() < 0.06:
                flags.append("haitei")
            if not tsumo and not chankan and r.random() < 0.06:
                flags.append("houtei")
        riichi_any = "riichi" in flags or "double_riichi" in flags

        # ---- indicators ----
        hand_kinds = concealed_k + [win_k] + [k for _, ks in melds_k for k in ks]
        used = counts[:]
        if "chankan" in flags:
            used[win_k] = 4  # the other three copies are in the robbed kan

        def pick_indicator() -> int | None:
            for _ in range(20):
                if r.random() < 0.25:
                    k = indicator_of(r.choice(hand_kinds))
                else:
                    k = r.randrange(34)
                if used[k] < 4:
                    used[k] += 1
                    return k
            return None

        dora_k: list[int] = []
        ura_k: list[int] = []
        for _ in range(1 + n_kans):
            d = pick_indicator()
            if d is None:
                return None
            dora_k.append(d)
            if riichi_any:
                u = pick_indicator()
                if u is None:
                    return None
                ura_k.append(u)

        # ---- red fives: at most one per suit; forced when all four fives are in sight ----
        # Slots: ("c", i) concealed, ("w", 0) winning tile, ("m", j, i) meld tile, ("d"/"u", i).
        red_slots: set[tuple[int, ...]] = set()
        slot_kind: list[tuple[tuple[int, ...], int]] = [((0, i), k) for i, k in enumerate(concealed_k)]
        slot_kind.append(((1, 0), win_k))
        slot_kind += [((2, j, i), k) for j, (_, ks) in enumerate(melds_k) for i, k in enumerate(ks)]
        slot_kind += [((3, i), k) for i, k in enumerate(dora_k)]
        slot_kind += [((4, i), k) for i, k in enumerate(ura_k)]
        for five in FIVES:
            slots = [s for s, k in slot_kind if k == five]
            if slots and (len(slots) == 4 or r.random() < 0.2):
                red_slots.add(r.choice(slots))

        concealed = _sorted((k, (0, i) in red_slots) for i, k in enumerate(concealed_k))
        melds = tuple(
            (m, _sorted((k, (2, j, i) in red_slots) for i, k in enumerate(ks)))
            for j, (m, ks) in enumerate(melds_k)
        )
        honba = r.choice((0, 0, 0, 1, 1, 2, 3, 5))
        sticks = r.choice((0, 0, 0, 1, 2))
        h = GenHand(
            line="",
            shape=shape,
            concealed=concealed,
            melds=melds,
            win=(win_k, (1, 0) in red_slots),
            tsumo=tsumo,
            seat=seat,
            round_wind=round_wind,
            flags=tuple(flags),
            dora=_sorted((k, (3, i) in red_slots) for i, k in enumerate(dora_k)),
            ura=_sorted((k, (4, i) in red_slots) for i, k in enumerate(ura_k)),
            honba=honba,
            sticks=sticks,
        )
        return replace(h, line=format_line(h))


def generate_hands(n: int, seed: int = 20240601) -> Iterator[GenHand]:
    """``n`` random winning hands, the same ones for the same seed."""
    g = _Gen(seed)
    made = 0
    while made < n:
        h = g.hand()
        if h is not None:
            made += 1
            yield h


def parse_tiles_text(text: str) -> tuple[Tile, ...]:
    """Inverse of :func:`tile_text` (for hand-written fixtures): ``"40567m"`` → tiles, ``0`` = red five."""
    out: list[Tile] = []
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
            continue
        base = 9 * "mpsz".index(ch)
        out += [(base + 4, True) if d == "0" else (base + int(d) - 1, False) for d in digits]
        digits = ""
    if digits:
        raise ValueError(f"tiles {text!r} end without a suit letter")
    return tuple(out)


def hand_from_line(line: str, shape: str = "fixture") -> GenHand:
    """A :class:`GenHand` from a line in this module's own format (fixtures, e.g. riichi.md §15)."""
    toks = line.split()
    i = 0
    concealed: tuple[Tile, ...] = ()
    if "(" not in toks[0] and toks[0] not in ("ron", "tsumo"):
        concealed, i = parse_tiles_text(toks[0]), 1
    melds: list[Meld] = []
    while "(" in toks[i]:
        mtype, _, body = toks[i].rstrip(")").partition("(")
        melds.append((mtype, parse_tiles_text(body)))
        i += 1
    kw: dict[str, object] = {"seat": 1, "round_wind": 0, "dora": (), "ura": (), "honba": 0, "sticks": 0}
    flags: list[str] = []
    for tok in toks[i + 2 :]:
        key, eq, value = tok.partition("=")
        if key in ("seat", "round"):
            kw["seat" if key == "seat" else "round_wind"] = WINDS.index(value)
        elif key in ("dora", "ura"):
            kw[key] = parse_tiles_text(value)
        elif key in ("honba", "sticks"):
            kw[key] = int(value)
        elif not eq:
            flags.append(tok)
        else:
            raise ValueError(f"unknown flag {tok!r}")
    return GenHand(
        line=line,
        shape=shape,
        concealed=concealed,
        melds=tuple(melds),
        win=parse_tiles_text(toks[i + 1])[0],
        tsumo=toks[i] == "tsumo",
        flags=tuple(flags),
        **kw,  # type: ignore[arg-type]
    )

"""Tenhou's wall, regenerated from the seed a Tenhou mjlog publishes in its ``SHUFFLE`` element.

Tenhou published its shuffle together with validation data for one game (kept in
``shared/data/logs/tenhou_xml/wall_from_seed/``). As implemented here:

1. The game owns one MT19937 generator (mt19937ar), seeded once with ``init_by_array`` on the seed
   words: 624 words, the base64 payload of ``mt19937ar-sha512-n288-base64,…`` read as little-endian
   32-bit words.
2. Every hand (every ``INIT``: renchan, abortive draws and honba repeats included) takes the next 288
   ``genrand_int32`` words from that generator (``src``).
3. ``src`` is cut into nine 1024-bit chunks of 32 words; each chunk, written little-endian (128
   bytes), is hashed with SHA-512 and the nine 64-byte digests, read as little-endian words, are
   ``rnd`` (144 words).
4. ``wall`` = the tile ids in ascending order (136 ids; in 3-player the 108 ids without 4–31, i.e.
   without 2m–8m – Tenhou shuffles 108, not 136); for ``i`` in ``0 … n-2`` swap ``wall[i]`` with
   ``wall[i + rnd[i] % (n - i)]``.
5. The dice are ``rnd[135] % 6 + 1`` and ``rnd[136] % 6 + 1`` (``INIT seed`` fields 3 and 4 hold each
   minus one), in 3-player too. They only say where the physical wall is broken; which tile is
   where in the list below does not depend on them.

**Layout of a returned wall** (index = position in the list, n = 136 or 108):

* Dealing starts at the **highest index** and goes down: ``wall[n-1]`` is the first tile dealt.
  Three rounds of 4 tiles to each seat (dealer first, then in turn order), then 1 tile each
  (:func:`deal_from_tenhou_wall`); the live wall continues downward, so the dealer's first draw is
  ``wall[n-1-13*players]`` (``wall[83]`` / ``wall[68]``) and each later live draw is the next lower
  index (:func:`live_wall_order`).
* The **dead wall is the low end**, ``wall[0:14]`` at the start of the hand (:func:`dead_wall`):
  4-player – first dora indicator ``wall[5]``, kan-dora indicators ``wall[7], wall[9], wall[11],
  wall[13]``, ura indicators one below each (``wall[4], wall[6], …``), replacement draws in the
  order ``wall[1], wall[0], wall[3], wall[2]``.
  3-player – eight replacement draws (kita and kan) ``wall[1], wall[0], wall[3], wall[2], wall[5],
  wall[4], wall[7], wall[6]``, first dora indicator ``wall[9]``, kan-dora ``wall[11] … wall[17]``,
  ura one below each.
  Every replacement draw moves the end of the live wall up by one (the dead wall stays 14 tiles):
  with ``k`` replacement draws the last live draw (haitei) is ``wall[14 + k]``.

All of this (haipai of every seat, the first and every kan-dora indicator, every ura indicator, the
dice, every live and replacement draw in order, the haitei position) is checked against every hand
of the Tenhou XML logs in ``tests/engine/test_tenhou_wall.py``. Positions no log reached: 4p ura
``wall[12]``; 3p replacement draws 7–8 (``wall[7]``, ``wall[6]``) and ura 4–5 (``wall[14]``,
``wall[16]``) – these follow the pattern of the ones seen.

**Legacy seeds** (2009 to early 2010): ``mt19937ar-sha512-n288,<32 comma-separated hex words>``.
The same algorithm seeded with those 32 words (``init_by_array`` key of length 32) reproduces haipai,
dice and every live draw, but the dead wall then has each indicator pair the other way up: dora
``wall[4]``, kan-dora ``wall[6], wall[8], …``, ura one *above* each (``wall[5], …``), replacement
draws ``wall[0], wall[1], wall[2], wall[3]`` (the first two seen in logs). Only 4-player legacy
games were available to check. :func:`tenhou_seed_words` rejects these seeds unless
``allow_legacy=True``; pass ``legacy=True`` to :func:`dead_wall` for them. Logs from before that
(early 2009) have no ``SHUFFLE`` element at all and cannot be reproduced.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import random
import struct
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "SUPPORTED_SEED_PREFIX",
    "LEGACY_SEED_PREFIX",
    "MT19937",
    "TenhouDeadWall",
    "tenhou_seed_words",
    "is_legacy_seed",
    "src_from_mt",
    "rnd_from_src",
    "shuffle_with_rnd",
    "tenhou_hand_rnds",
    "tenhou_walls",
    "dice_from_rnd",
    "deal_from_tenhou_wall",
    "live_wall_order",
    "dead_wall",
]

SUPPORTED_SEED_PREFIX = "mt19937ar-sha512-n288-base64,"
LEGACY_SEED_PREFIX = "mt19937ar-sha512-n288,"
SEED_WORDS = 624
LEGACY_SEED_WORDS = 32
SRC_WORDS = 288
RND_WORDS = 144
DEAD_WALL_SIZE = 14

_MASK = 0xFFFFFFFF


class MT19937:
    """The reference MT19937 (Matsumoto & Nishimura, ``mt19937ar.c``): ``init_by_array`` + ``genrand_int32``."""

    __slots__ = ("_mt", "_i")

    def __init__(self, key: Sequence[int]) -> None:
        if not key:
            raise ValueError("MT19937 init_by_array needs at least one seed word")
        if any(not 0 <= k <= _MASK for k in key):
            raise ValueError("MT19937 seed words must be unsigned 32-bit integers")
        mt = [0] * 624
        mt[0] = 19650218
        for i in range(1, 624):
            mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & _MASK
        i, j, n = 1, 0, len(key)
        for _ in range(max(624, n)):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & _MASK
            i += 1
            j += 1
            if i >= 624:
                mt[0] = mt[623]
                i = 1
            if j >= n:
                j = 0
        for _ in range(623):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & _MASK
            i += 1
            if i >= 624:
                mt[0] = mt[623]
                i = 1
        mt[0] = 0x80000000
        self._mt = mt
        self._i = 624

    def state(self) -> tuple[int, ...]:
        """The 624 state words and the position (the layout of ``random.Random().getstate()[1]``)."""
        return (*self._mt, self._i)

    def _twist(self) -> None:
        mt = self._mt
        for k in range(624):
            y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7FFFFFFF)
            v = mt[(k + 397) % 624] ^ (y >> 1)
            mt[k] = v ^ 0x9908B0DF if y & 1 else v
        self._i = 0

    def genrand_int32(self) -> int:
        if self._i >= 624:
            self._twist()
        y = self._mt[self._i]
        self._i += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def words(self, count: int) -> list[int]:
        return [self.genrand_int32() for _ in range(count)]


def is_legacy_seed(seed_attr: str) -> bool:
    """True for the 2009–2010 ``mt19937ar-sha512-n288,<hex words>`` seed format."""
    return seed_attr.strip().startswith(LEGACY_SEED_PREFIX)


def _unsupported(seed_attr: str) -> ValueError:
    text = seed_attr.strip()
    shown = text.split(",", 1)[0] if "," in text else text[:40]
    return ValueError(
        f"unsupported Tenhou SHUFFLE seed format {shown!r}: supported is "
        f"'{SUPPORTED_SEED_PREFIX}<base64 of 624 little-endian 32-bit words>' (Tenhou logs since mid-2010), "
        f"and with allow_legacy=True '{LEGACY_SEED_PREFIX}<32 hex words>' (2009-2010 logs); "
        "logs without a SHUFFLE seed cannot be reproduced"
    )


def tenhou_seed_words(seed_attr: str, *, allow_legacy: bool = False) -> list[int]:
    """The MT19937 ``init_by_array`` key of a ``SHUFFLE seed`` attribute.

    ``mt19937ar-sha512-n288-base64,<base64>`` → 624 words (the payload must decode to 2,496 bytes,
    read as little-endian words). With ``allow_legacy=True`` also ``mt19937ar-sha512-n288,<hex>,…``
    → its 32 words (such walls need ``dead_wall(..., legacy=True)``). Anything else raises
    :class:`ValueError` saying which formats are supported.
    """
    text = seed_attr.strip()
    if text.startswith(SUPPORTED_SEED_PREFIX):
        payload = "".join(text[len(SUPPORTED_SEED_PREFIX) :].split())
        try:
            raw = base64.b64decode(payload, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise ValueError(f"Tenhou SHUFFLE seed: the payload is not valid base64 ({exc})") from None
        if len(raw) != SEED_WORDS * 4:
            raise ValueError(
                f"Tenhou SHUFFLE seed: expected {SEED_WORDS * 4} bytes ({SEED_WORDS} words) of base64 payload, "
                f"got {len(raw)}"
            )
        return list(struct.unpack(f"<{SEED_WORDS}I", raw))
    if text.startswith(LEGACY_SEED_PREFIX) and allow_legacy:
        parts = [p.strip() for p in text[len(LEGACY_SEED_PREFIX) :].split(",")]
        if len(parts) != LEGACY_SEED_WORDS or any(
            len(p) != 8 or any(c not in "0123456789abcdefABCDEF" for c in p) for p in parts
        ):
            raise ValueError(
                f"Tenhou legacy SHUFFLE seed: expected {LEGACY_SEED_WORDS} comma-separated 8-digit hex words"
            )
        return [int(p, 16) for p in parts]
    if text.startswith(LEGACY_SEED_PREFIX):
        raise ValueError(
            f"Tenhou SHUFFLE seed is the 2009-2010 format '{LEGACY_SEED_PREFIX}<hex words>'; it is reproducible "
            "but its dead wall is laid out differently: call tenhou_seed_words(..., allow_legacy=True) and "
            "dead_wall(..., legacy=True)"
        )
    raise _unsupported(seed_attr)


def src_from_mt(mt: MT19937) -> list[int]:
    """The next hand's 288 raw words (``src``)."""
    return mt.words(SRC_WORDS)


def rnd_from_src(src: Sequence[int]) -> list[int]:
    """SHA-512 of each 32-word chunk (little-endian bytes in and out): 288 words → 144 words."""
    if len(src) != SRC_WORDS:
        raise ValueError(f"src must have {SRC_WORDS} words, got {len(src)}")
    out: list[int] = []
    for k in range(0, SRC_WORDS, 32):
        digest = hashlib.sha512(struct.pack("<32I", *src[k : k + 32])).digest()
        out.extend(struct.unpack("<16I", digest))
    return out


def _wall_size(players: int) -> int:
    if players == 4:
        return 136
    if players == 3:
        return 108
    raise ValueError(f"players must be 3 or 4, got {players}")


def _sorted_tiles(players: int) -> list[int]:
    _wall_size(players)
    return list(range(136)) if players == 4 else [t for t in range(136) if not 4 <= t < 32]


def shuffle_with_rnd(rnd: Sequence[int], *, players: int = 4) -> list[int]:
    """Tenhou's low-to-high Fisher–Yates shuffle of the sorted tile ids, driven by ``rnd``."""
    wall = _sorted_tiles(players)
    n = len(wall)
    if len(rnd) < n - 1:
        raise ValueError(f"rnd must have at least {n - 1} words, got {len(rnd)}")
    for i in range(n - 1):
        j = i + rnd[i] % (n - i)
        wall[i], wall[j] = wall[j], wall[i]
    return wall


def tenhou_hand_rnds(seed_words: Sequence[int], hands: int) -> list[list[int]]:
    """``rnd`` (144 words) of each of the game's first ``hands`` hands."""
    if hands < 0:
        raise ValueError(f"hands must be >= 0, got {hands}")
    # CPython's random.Random is the same MT19937; loaded with our init_by_array state its getrandbits(32)
    # is genrand_int32 (checked in the tests), about 20x faster than the pure-Python twist.
    stream = random.Random()
    stream.setstate((3, MT19937(seed_words).state(), None))
    return [rnd_from_src([stream.getrandbits(32) for _ in range(SRC_WORDS)]) for _ in range(hands)]


def tenhou_walls(seed_words: Sequence[int], hands: int, *, players: int = 4) -> list[list[int]]:
    """The wall of each of the game's first ``hands`` hands (one per ``INIT``, in order).

    Each wall is a list of 136 Tenhou tile ids (108 for ``players=3``, never ids 4–31), dealt from the
    highest index down; the dead wall is the low end (see the module docstring, :func:`dead_wall`).
    """
    _wall_size(players)
    return [shuffle_with_rnd(rnd, players=players) for rnd in tenhou_hand_rnds(seed_words, hands)]


def dice_from_rnd(rnd: Sequence[int]) -> tuple[int, int]:
    """The hand's two dice, 1–6 each (``INIT seed`` stores each minus one)."""
    return rnd[135] % 6 + 1, rnd[136] % 6 + 1


def _check_wall(wall: Sequence[int], players: int) -> int:
    n = _wall_size(players)
    if len(wall) != n:
        raise ValueError(f"a {players}-player Tenhou wall has {n} tiles, got {len(wall)}")
    return n


def deal_from_tenhou_wall(wall: Sequence[int], dealer: int, players: int = 4) -> list[list[int]]:
    """Each seat's 13 starting tiles, indexed by absolute seat, each in the order dealt.

    From ``wall[n-1]`` downward: three rounds in which each seat, dealer first, takes 4 tiles, then one
    tile each, dealer first. The dealer's 14th tile is its first draw: ``live_wall_order(wall)[0]``.
    """
    n = _check_wall(wall, players)
    if not 0 <= dealer < players:
        raise ValueError(f"dealer must be a seat 0..{players - 1}, got {dealer}")
    hands: list[list[int]] = [[] for _ in range(players)]
    pos = n - 1
    for take in (4, 4, 4, 1):
        for k in range(players):
            seat = (dealer + k) % players
            hands[seat].extend(wall[pos - t] for t in range(take))
            pos -= take
    return hands


def live_wall_order(wall: Sequence[int], players: int = 4) -> list[int]:
    """The live wall in draw order (element 0 = the dealer's first draw), down to ``wall[14]``.

    Each replacement (rinshan / kita) draw shortens it by one from the far end: with ``k`` replacement
    draws in the hand, the last live draw is ``wall[14 + k]`` (the final ``k`` elements are not drawn).
    """
    n = _check_wall(wall, players)
    return [wall[i] for i in range(n - 1 - 13 * players, DEAD_WALL_SIZE - 1, -1)]


@dataclass(frozen=True, slots=True)
class TenhouDeadWall:
    """Dead-wall tiles (Tenhou ids) in the order the hand uses them."""

    dora: tuple[int, ...]  # 5 indicators: the first one, then one per kan
    ura: tuple[int, ...]  # 5 ura indicators, paired with ``dora``
    rinshan: tuple[int, ...]  # replacement draws in order (4 in 4-player, 8 in 3-player: kita + kan)


def dead_wall(wall: Sequence[int], players: int = 4, *, legacy: bool = False) -> TenhouDeadWall:
    """The indicators and replacement tiles of a wall from :func:`tenhou_walls`.

    4-player: dora ``wall[5,7,9,11,13]``, ura ``wall[4,6,8,10,12]``, replacements ``wall[1,0,3,2]``;
    3-player: dora ``wall[9,11,13,15,17]``, ura ``wall[8,10,…,16]``, replacements ``wall[1,0,3,2,5,4,7,6]``.
    ``legacy=True`` (2009–2010 hex seeds, 4-player only): dora ``wall[4,6,…,12]``, ura ``wall[5,7,…,13]``,
    replacements ``wall[0,1,2,3]``.
    """
    _check_wall(wall, players)
    dora_at: tuple[int, ...]
    ura_at: tuple[int, ...]
    rinshan_at: tuple[int, ...]
    if legacy:
        if players != 4:
            raise ValueError("the legacy (2009-2010) dead-wall layout is only known for 4-player games")
        dora_at, ura_at, rinshan_at = (4, 6, 8, 10, 12), (5, 7, 9, 11, 13), (0, 1, 2, 3)
    elif players == 4:
        dora_at, ura_at, rinshan_at = (5, 7, 9, 11, 13), (4, 6, 8, 10, 12), (1, 0, 3, 2)
    else:
        dora_at, ura_at, rinshan_at = (9, 11, 13, 15, 17), (8, 10, 12, 14, 16), (1, 0, 3, 2, 5, 4, 7, 6)
    return TenhouDeadWall(
        dora=tuple(wall[i] for i in dora_at),
        ura=tuple(wall[i] for i in ura_at),
        rinshan=tuple(wall[i] for i in rinshan_at),
    )

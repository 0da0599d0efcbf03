"""Tile sets and deals: the physical tiles of a ruleset, and a seeded, deterministic deal per hand.

A :class:`Deal` is everything a hand needs from the wall: each seat's 13 starting tiles, the live
wall in draw order (the dealer's first draw is its first tile), the replacement (rinshan) tiles in
draw order, and the dora / ura indicator positions. Deals come from a seed (our own shuffle,
stable across Python versions: SHA-256 in counter mode feeding a Fisher–Yates shuffle) or are built
from a game log by the importers.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from engine.tiles import RED


@dataclass(frozen=True, slots=True)
class TileSet:
    """Physical tiles: ``codes[i]`` is the tile code (kind, red bit) of physical tile ``i``."""

    codes: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.codes)

    def ids_by_code(self) -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for i, c in enumerate(self.codes):
            out.setdefault(c, []).append(i)
        return out


def standard_tileset(
    *, red_fives: tuple[int, int, int] = (1, 1, 1), removed: frozenset[int] = frozenset(), copies: int = 4
) -> TileSet:
    """Tenhou's layout for 4 copies: id = kind*4 + copy, the red five(s) are the lowest copies of 5."""
    codes: list[int] = []
    for kind in range(34):
        for copy in range(copies):
            if kind in removed:
                codes.append(-1)
                continue
            red = kind < 27 and kind % 9 == 4 and copy < red_fives[kind // 9]
            codes.append(kind | RED if red else kind)
    return TileSet(tuple(codes))


@dataclass(frozen=True, slots=True)
class Deal:
    haipai: tuple[tuple[int, ...], ...]  # per absolute seat, 13 physical tiles
    live: tuple[int, ...]  # live wall in draw order
    rinshan: tuple[int, ...]  # replacement draws in order (at least 4)
    dora: tuple[int, ...]  # 5 indicator positions
    ura: tuple[int, ...]  # 5 ura positions
    unused: tuple[int, ...] = ()  # dead-wall tiles that are never drawn or revealed (seigou SG-7)

    def all_tiles(self) -> list[int]:
        return (
            [t for h in self.haipai for t in h]
            + list(self.live)
            + list(self.rinshan)
            + list(self.dora)
            + list(self.ura)
            + list(self.unused)
        )


def _stream(seed: int | str, hand_index: int) -> list[int]:
    out: list[int] = []
    counter = 0
    while len(out) < 256:
        h = hashlib.sha256(f"jantaku:{seed}:{hand_index}:{counter}".encode()).digest()
        out.extend(int.from_bytes(h[i : i + 8], "big") for i in range(0, 32, 8))
        counter += 1
    return out


def shuffled(tiles: list[int], seed: int | str, hand_index: int) -> list[int]:
    wall = list(tiles)
    rnd = _stream(seed, hand_index)
    for i in range(len(wall) - 1, 0, -1):
        j = rnd[i % len(rnd)] % (i + 1)
        wall[i], wall[j] = wall[j], wall[i]
    return wall


def deal_hands(
    body: list[int], *, players: int, dealer: int, hand_size: int
) -> tuple[list[tuple[int, ...]], int]:
    """The haipai from the front of ``body``, ``hand_size`` tiles a seat from the dealer on, and how
    many tiles that took (the live wall starts there)."""
    hands: list[tuple[int, ...]] = [()] * players
    pos = 0
    for k in range(players):
        hands[(dealer + k) % players] = tuple(body[pos : pos + hand_size])
        pos += hand_size
    return hands, pos


def deal_from_seed(
    tileset: TileSet, seed: int | str, hand_index: int, *, players: int, dealer: int, hand_size: int = 13, dead: int = 14
) -> Deal:
    """Shuffle, then: dead wall (4 rinshan, 5 dora, 5 ura) from the end, 13 tiles each, live rest."""
    tiles = [i for i, c in enumerate(tileset.codes) if c >= 0]
    wall = shuffled(tiles, seed, hand_index)
    dead_tiles = wall[len(wall) - dead :]
    body = wall[: len(wall) - dead]
    hands, pos = deal_hands(body, players=players, dealer=dealer, hand_size=hand_size)
    n_rinshan = dead - 10
    return Deal(tuple(hands), tuple(body[pos:]), tuple(dead_tiles[:n_rinshan]), tuple(dead_tiles[n_rinshan : n_rinshan + 5]), tuple(dead_tiles[n_rinshan + 5 :]))


def deal_tail_indicators(
    tileset: TileSet, seed: int | str, hand_index: int, *, players: int, dealer: int, hand_size: int = 13, unused: int = 2
) -> Deal:
    """A wall without replacement tiles, indicators at its tail (seigou SG-6, SG-7, A10).

    The same shuffle as :func:`deal_from_seed`. The wall is a row of stacks ``(wall[2i] top,
    wall[2i+1] bottom)`` drawn from the front. The last stack's top tile is the dora indicator and
    its bottom tile the ura indicator; the 4 stacks before it hold the kan-dora indicators and their
    ura, revealed from the tail inwards. The ``unused`` tiles just before those 5 stacks are never
    drawn or revealed; everything else after the deal is the live wall (71 draws + the dealer's 14th
    tile with 4 players).
    """
    tiles = [i for i, c in enumerate(tileset.codes) if c >= 0]
    wall = shuffled(tiles, seed, hand_index)
    n = len(wall)
    dora = tuple(wall[n - 2 - 2 * k] for k in range(5))
    ura = tuple(wall[n - 1 - 2 * k] for k in range(5))
    body = wall[: n - 10 - unused]
    hands, pos = deal_hands(body, players=players, dealer=dealer, hand_size=hand_size)
    return Deal(tuple(hands), tuple(body[pos:]), (), dora, ura, tuple(wall[n - 10 - unused : n - 10]))


def deal_nuki_block(
    tileset: TileSet, seed: int | str, hand_index: int, *, players: int, dealer: int, hand_size: int = 13, nuki: int = 16
) -> Deal:
    """chinitsu_toutenkou's wall (CT-B4): the same shuffle as :func:`deal_from_seed`; the last
    ``nuki`` tiles are the nuki-dora replacement block (``Deal.rinshan``, used only for gari
    replacements), the stack before it holds the dora indicator (top) and its ura (bottom), and
    everything else after the deal is the live wall. Kan indicators are the stacks at the live
    wall's tail, next to the indicator: the k-th kan's stack is ``live[-2k]`` (top) and
    ``live[-2k + 1]`` (bottom), so ``Deal.dora[k]``/``Deal.ura[k]`` name live-wall tiles that leave
    the live wall when that kan is made (the ruleset's ``after_kan`` shortens it)."""
    tiles = [i for i, c in enumerate(tileset.codes) if c >= 0]
    wall = shuffled(tiles, seed, hand_index)
    n = len(wall)
    block = wall[n - nuki :]
    d0, u0 = wall[n - nuki - 2], wall[n - nuki - 1]
    body = wall[: n - nuki - 2]
    hands: list[tuple[int, ...]] = [()] * players
    pos = 0
    for k in range(players):
        seat = (dealer + k) % players
        hands[seat] = tuple(body[pos : pos + hand_size])
        pos += hand_size
    live = body[pos:]
    dora = (d0, *(live[-2 * k] for k in range(1, 5)))
    ura = (u0, *(live[-2 * k + 1] for k in range(1, 5)))
    return Deal(tuple(hands), tuple(live), tuple(block), dora, ura)

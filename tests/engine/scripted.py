"""Scripted deals for rule tests: say which tiles each seat holds and what comes off the wall.

``scripted_game(ruleset, hands=[...], draws="...")`` builds a one-hand game whose seat ``i`` holds
``hands[i]`` (13 tiles, tenhou notation), whose live wall yields ``draws`` in order (the dealer's
first draw is the first of them) and then every other tile in a fixed order, and whose dead wall
holds the given indicators and replacement tiles. Every physical tile is used exactly once, so the
game's tile conservation still holds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.rules.base import Ruleset
from engine.table.actions import Action
from engine.table.game import Game
from engine.table.wall import Deal, TileSet, standard_tileset
from engine.tiles import parse_tiles


class _Pool:
    def __init__(self, tileset: TileSet) -> None:
        self.free: dict[int, list[int]] = {}
        for i, c in enumerate(tileset.codes):
            if c >= 0:
                self.free.setdefault(c, []).append(i)

    def take(self, code: int) -> int:
        ids = self.free.get(code)
        if not ids:
            raise ValueError(f"no tile with code {code} left for the scripted deal")
        return ids.pop(0)

    def take_all(self, text: str) -> list[int]:
        return [self.take(c) for c in parse_tiles(text)] if text else []

    def rest(self) -> list[int]:
        return sorted(i for ids in self.free.values() for i in ids)


def _junk(pool: _Pool, size: int) -> list[int]:
    """A hand far from tenpai: distinct kinds, at least 3 apart within a suit, from what is left."""
    order = [k for start in (0, 1, 2) for suit in (0, 9, 18) for k in (suit + start, suit + start + 3, suit + start + 6)]
    order += list(range(27, 34))
    taken: list[int] = []
    kinds: list[int] = []
    for k in order:
        if len(taken) == size:
            break
        if any(k < 27 and j < 27 and j // 9 == k // 9 and abs(j - k) < 3 for j in kinds):
            continue
        if pool.free.get(k):
            taken.append(pool.take(k))
            kinds.append(k)
    if len(taken) < size:
        raise ValueError("not enough tiles left for a junk hand")
    return taken


def _draw_plan(text: str) -> list[str | None]:
    """``"7p??7p"`` → ["7p", None, None, "7p"]: ``?`` is any filler tile."""
    out: list[str | None] = []
    for piece in re.split(r"(\?)", text):
        if piece == "?":
            out.append(None)
        elif piece:
            out.append(piece)
    return out


def scripted_deal(
    ruleset: Ruleset,
    hands: Sequence[str | None],
    draws: str = "",
    *,
    dora: str = "",
    ura: str = "",
    rinshan: str = "",
    live_tail: str = "",
) -> Deal:
    """A deal for one hand. A hand given as ``None`` is a junk hand (far from tenpai); ``?`` in
    ``draws`` is a filler tile; ``live_tail`` tiles are the last ones of the live wall (haitei last)."""
    ts = standard_tileset(red_fives=ruleset.options.red_fives, removed=ruleset.removed_kinds)
    pool = _Pool(ts)
    given = [pool.take_all(h) if h is not None else None for h in hands]
    plan = [(pool.take_all(p) if p is not None else None) for p in _draw_plan(draws)]
    tail = pool.take_all(live_tail)
    dora_ids = pool.take_all(dora)
    ura_ids = pool.take_all(ura)
    rin = pool.take_all(rinshan)
    haipai = [tuple(h) if h is not None else tuple(_junk(pool, ruleset.hand_size)) for h in given]
    for h in haipai:
        assert len(h) == ruleset.hand_size, f"a scripted hand needs {ruleset.hand_size} tiles, got {len(h)}"
    rest = pool.rest()
    head: list[int] = []
    for p in plan:
        head += p if p is not None else [rest.pop()]
    # dead wall: 4 replacement tiles (more for sanma kita), 5 indicators, 5 ura
    n_rin = 8 if ruleset.players == 3 else 4
    while len(rin) < n_rin:
        rin.append(rest.pop())
    while len(dora_ids) < 5:
        dora_ids.append(rest.pop())
    while len(ura_ids) < 5:
        ura_ids.append(rest.pop())
    live = head + rest + tail
    return Deal(tuple(haipai), tuple(live), tuple(rin), tuple(dora_ids), tuple(ura_ids))


def scripted_game(
    ruleset: Ruleset,
    hands: Sequence[str | None],
    draws: str = "",
    *,
    dora: str = "",
    ura: str = "",
    rinshan: str = "",
    live_tail: str = "",
    scores: Sequence[int] | None = None,
    start: tuple[int, int, int, int] | None = None,
) -> Game:
    deal = scripted_deal(ruleset, hands, draws, dora=dora, ura=ura, rinshan=rinshan, live_tail=live_tail)
    return Game(ruleset, deals=[deal], scores=scores, start=start)


def play(g: Game, *actions: str) -> None:
    """Play actions in text form (validated), e.g. ``play(g, "0d1m", "1p")``."""
    for a in actions:
        g.play(Action.parse(a))

"""The waits line under a tenpai hand: which kinds the engine says complete it, and how many of each
are still unseen from that seat (``Waiting on 3m (2 left), 6m (none left)``).

The waits are the engine's own wait set (``SeatState.waits``, kept by the ruleset's ``wait_set``
hook), so a variant's wildcards and transformed calls count as it says; nothing here decides a
wait. The counts are the copies of the kind in the game's tile set minus what this seat can see:
its own hand, every river (called tiles included), every meld, the set-aside kita/nuki and flowers,
the revealed dora indicators and an open riichi's shown hand. Another seat's concealed tiles are
never read, so the line tells a player nothing they could not count from the table.

Pure functions of a :class:`~engine.table.game.Game` (no Discord, no I/O); the line's words from the
message catalogs (:mod:`bot.i18n`).
"""

from __future__ import annotations

from collections import Counter

from bot import i18n
from bot.i18n import DEFAULT, Lang
from engine.table.game import Game, Phase
from engine.tiles import kind_of

from .names import kind_label

__all__ = ["unseen", "waits_line"]


def unseen(g: Game, seat: int) -> Counter[int]:
    """Kind → copies the seat cannot see: the game's tile set minus the tiles in its view (red
    fives count as fives)."""
    total = Counter(kind_of(c) for c in g.codes if c >= 0)
    seen: set[int] = set(g.seats[seat].tiles)  # physical ids: a called tile is in a river and a meld
    for st in g.seats:
        seen.update(st.river)
        seen.update(st.kita)
        for m in st.melds:
            seen.update(m.tiles)
    seen.update(g.dora_indicators())
    total.subtract(g.kind(x) for x in seen)
    for s in range(g.players):
        if s != seat:  # an open riichi's hand lies face up for everyone (CT-F2)
            total.subtract(kind_of(c) for c in g.ruleset.shown_tiles(g, s))
    return total


def waits_line(g: Game, seat: int, lang: Lang = DEFAULT) -> str | None:
    """``Waiting on 3m (2 left), 6m (none left)`` when the seat's hand is tenpai between its turns
    (the hand without a tile to discard), else None; in ``lang``."""
    st = g.seats[seat]
    if g.over or not st.waits or sum(st.counts) % 3 != 1:
        return None
    if g.current == seat and g.phase is Phase.CHANKAN:
        return None  # mid-kan: the wait set is the one before it, until the replacement draw
    left = unseen(g, seat)
    parts = []
    for k in sorted(set(st.waits)):
        n = max(0, left[k])
        if n:
            parts.append(i18n.t(lang, "{tile} ({n} left)", n=n, tile=kind_label(k, lang)))
        else:
            parts.append(i18n.t(lang, "{tile} (none left)", tile=kind_label(k, lang)))
    return i18n.t(lang, "Waiting on {waits}", waits=i18n.t(lang, ", ").join(parts))

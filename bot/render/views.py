"""Plain data the table and result pictures are drawn from (filled in by the bot from its game state)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

__all__ = ["Meld", "ResultView", "SeatView", "TableView", "WinView"]

#: A meld as the renderer takes it: (type name, tile codes in display order, index of the
#: sideways/called tile or -1). Type names: ``chi``, ``pon``, ``minkan`` (``daiminkan``),
#: ``ankan`` (outer two tiles face down), ``kakan`` (``shouminkan``; four codes, the fourth is the
#: added tile, stacked on the sideways one), ``kita`` / ``flower`` (a plain row, nothing sideways).
Meld = tuple[str, Sequence[int], int]


@dataclass(slots=True)
class SeatView:
    """One seat as the public table shows it."""

    name: str
    wind: str  # "E" / "S" / "W" / "N" (or "East", "南", ...); the first letter is shown
    score: int
    discards: Sequence[int] = ()  # tile codes in discard order
    sideways: Collection[int] = ()  # indices into ``discards`` drawn sideways (riichi declaration)
    called: Collection[int] = ()  # indices into ``discards`` taken by another seat (drawn dimmed)
    melds: Sequence[Meld] = ()
    riichi: bool = False
    note: str = ""  # short status shown on the name plate ("bot", "away", "tenpai", ...)


@dataclass(slots=True)
class TableView:
    """Everything the public table picture shows.

    ``seats`` are in seat order (3 or 4 of them); ``bottom`` is the seat drawn at the bottom and the
    others follow counter-clockwise (next seat on the right, as at a real table; with three players
    the top side stays empty). ``turn`` and ``last_discard`` are seat indices.
    """

    title: str  # ruleset / game name, shown in the header
    round_text: str  # "East 2, 1 honba"
    seats: Sequence[SeatView]
    dora_indicators: Sequence[int] = ()
    dora_slots: int = 5  # indicator slots; the ones not yet revealed are drawn face down
    riichi_sticks: int = 0
    wall_left: int | None = None
    turn: int | None = None
    last_discard: int | None = None  # seat whose newest discard gets a highlight frame
    clock: str = ""  # e.g. "12s left"; shown in the header
    bottom: int = 0
    rotate: bool = False  # True: each seat's river and melds face the centre (tiles turned per seat)
    footer: str = ""  # optional line under the table


@dataclass(slots=True)
class WinView:
    """One win of a hand's result: who won and how, the winning hand and its value.

    ``hand`` is the concealed part without the winning tile (in picture order); ``melds`` follow
    it, then what lies beside the hand (flowers, nuki / kita) as plain rows. ``lines`` are the
    breakdown, ``"name\tvalue"`` drawn as two columns. ``dora`` / ``ura`` are the indicators the
    win counted (ura only for a riichi win)."""

    heading: str  # "Alice wins by ron from Bob"
    hand: Sequence[int]
    win_tile: int
    melds: Sequence[Meld] = ()
    lines: Sequence[str] = ()
    dora: Sequence[int] = ()
    ura: Sequence[int] = ()


@dataclass(slots=True)
class ResultView:
    """A hand's result picture: its title (wrapped, never cut), every win in the order the engine
    settled them, and each seat's payment (name, change)."""

    title: str
    wins: Sequence[WinView]
    payments: Sequence[tuple[str, int]] = ()

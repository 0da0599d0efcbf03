"""The score sheet of a game at a real table (``/sheet``): :mod:`engine.sheet.model`.

Entries (ron, tsumo, draw, chombo) in, running scores, rotation, sticks, the game's end and its
final results out, by a ruleset's own rules; pure values, no table and no tiles.
"""

from engine.sheet.model import (
    Entry,
    EntryKind,
    Final,
    Outcome,
    SeatTally,
    Sheet,
    SheetError,
    SheetRefusal,
    SheetState,
    Win,
    WinValue,
    score_hand,
    sheet_ready,
)

__all__ = [
    "Entry",
    "EntryKind",
    "Final",
    "Outcome",
    "SeatTally",
    "Sheet",
    "SheetError",
    "SheetRefusal",
    "SheetState",
    "Win",
    "WinValue",
    "score_hand",
    "sheet_ready",
]

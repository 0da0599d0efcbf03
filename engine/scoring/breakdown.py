"""The typed parts of a win's value beyond yaku, han and fu: what a variant's scorer adds.

:attr:`ScoreResult.breakdown <engine.scoring.result.ScoreResult.breakdown>` is a tuple of these
frozen values, in the order the scorer found them, so a reader (the bot's result messages and
pictures, ``/score``) words a win by the type of each part instead of probing ``details`` by
key. ``details`` stays the JSON of ``python -m engine score --json`` (the same facts as data).

* :class:`TaiItem` and :class:`ChipRate`: taiwan16's tai items and how tai become chips (TW-13);
* :class:`Bazoro`: pk's bazoro and the han it reads on the PK-0 table;
* :class:`Transformation`: shoukou's ±3 transformation of a tile (SK-D4, SK-10);
* :class:`WildcardAs`: chinitsu_toutenkou's White counted as another kind (CT-G).

Kinds are tile kinds 0..33 (:mod:`engine.tiles`); words are left to the reader.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias


@dataclass(frozen=True, slots=True)
class TaiItem:
    """One tai item of a taiwan16 win (T-3…T-34): its rule id, its Chinese name, its tai."""

    id: str
    name: str
    tai: int


@dataclass(frozen=True, slots=True)
class ChipRate:
    """How a taiwan16 win's tai become chips (TW-13): each payer pays ``base + rate × tai``, with
    ``dealer_tai`` (T-1 + T-2) added when the dealer wins or pays."""

    base: int
    rate: int
    dealer_tai: int


@dataclass(frozen=True, slots=True)
class Bazoro:
    """pk's bazoro (PK-0): ``bazoro`` han every hand gets, and ``table_han`` (han + bazoro) read
    on the PK-0 table."""

    bazoro: int
    table_han: int


@dataclass(frozen=True, slots=True)
class Transformation:
    """A shoukou tile of kind ``kind`` counted as ``as_kind`` (±3, SK-D4) in the win's value."""

    kind: int
    as_kind: int


@dataclass(frozen=True, slots=True)
class WildcardAs:
    """A chinitsu_toutenkou White (``kind``, 5z) counted as ``as_kind`` in the win's value."""

    kind: int
    as_kind: int


#: one part of a win's breakdown
Breakdown: TypeAlias = TaiItem | ChipRate | Bazoro | Transformation | WildcardAs

__all__ = ["Bazoro", "Breakdown", "ChipRate", "TaiItem", "Transformation", "WildcardAs"]

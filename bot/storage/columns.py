"""The column rules every reader of a stored row checks, and the errors a bad row or column raises.

SQLite keeps any value in any column (a hand edit can put 'abc' in an INTEGER column), so every
reader checks each column it uses against what the bot writes there (:func:`bad_columns`) and
raises :class:`CorruptRow` naming the row; a write may name only allowed columns
(:func:`_checked`, :class:`UnknownColumn` before any SQL is built). On PostgreSQL the column types
hold, but the same rules run (ranges, JSON, one-of values). The aggregates' modules
(:mod:`bot.storage.tables`, :mod:`bot.storage.games`, :mod:`bot.storage.clubs`,
:mod:`bot.storage.leagues`) hold their own rules and row types, built from these.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any


class CorruptRow(ValueError):
    """A stored row a reader cannot use; ``str()`` is one line naming the row and what is wrong.

    ``table_id`` is the game table the row belongs to (when that can be told), so the table
    service can pause that table alone and name it."""

    def __init__(
        self, table: str, row_id: object, why: str, *, table_id: int | None = None, columns: bool = False
    ) -> None:
        super().__init__(f"{table} row {row_id}: {why}")
        self.table = table
        self.row_id = row_id
        self.why = why
        self.table_id = table_id
        self.columns = columns  # a column out of its type or range (``check()`` lists those row by row)


class UnknownColumn(ValueError):
    """A write named a column that is not one of the table's allowed columns (raised before any SQL
    is built, so nothing is written)."""


# ---------------------------------------------------------------- column rules
# SQLite keeps any value in any column (a hand edit can put 'abc' in an INTEGER column), so every
# reader of the table rows checks each column against what the bot writes there.

Rule = tuple[Callable[[Any], bool], str]


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _num(v: Any) -> bool:
    return (isinstance(v, int | float) and not isinstance(v, bool)) and math.isfinite(v)


def _integer(lo: int | None = None, hi: int | None = None, *, null: bool = False) -> Rule:
    def ok(v: Any) -> bool:
        if v is None:
            return null
        return _int(v) and (lo is None or v >= lo) and (hi is None or v <= hi)

    rng = "" if lo is None else (f" from {lo} to {hi}" if hi is not None else f" of at least {lo}")
    return ok, f"a whole number{rng}" + (" or empty" if null else "")


def _number(lo: float | None = None, *, null: bool = False) -> Rule:
    def ok(v: Any) -> bool:
        if v is None:
            return null
        return _num(v) and (lo is None or v >= lo)

    return ok, ("a number" if lo is None else f"a number of at least {lo:g}") + (" or empty" if null else "")


def _text(*, null: bool = False, nonempty: bool = False) -> Rule:
    def ok(v: Any) -> bool:
        if v is None:
            return null
        return isinstance(v, str) and (bool(v.strip()) or not nonempty)

    return ok, "text" + (" or empty" if null else "")


def _one_of(*values: str) -> Rule:
    return (lambda v: v in values), "one of " + ", ".join(values)


def _json_object(v: Any) -> bool:
    if v is None:
        return True
    if not isinstance(v, str):
        return False
    try:
        return isinstance(json.loads(v), dict)
    except ValueError:
        return False


_ID = _integer()
_ID_OR_NULL = _integer(null=True)
_FLAG = _integer(0, 1)


def _checked(table: str, allowed: frozenset[str], fields: Mapping[str, Any]) -> list[str]:
    """The column names of ``fields``, every one of them allowed for ``table`` (else :class:`UnknownColumn`)."""
    unknown = sorted(k for k in fields if k not in allowed)
    if unknown:
        raise UnknownColumn(f"{table} has no column {', '.join(map(repr, unknown))} that a write may set")
    return list(fields)


def _assignments(table: str, allowed: frozenset[str], fields: Mapping[str, Any]) -> str:
    """``"a = ?, b = ?"`` for an UPDATE of allowed columns (:class:`UnknownColumn` otherwise)."""
    return ", ".join(f"{k} = ?" for k in _checked(table, allowed, fields))


def _shown(v: Any) -> str:
    if isinstance(v, bytes):
        return f"binary data ({len(v)} bytes)"
    if v is None:
        return "empty"
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def bad_columns(r: Any, rules: dict[str, Rule]) -> str | None:
    """What is wrong with a row's columns (``"its mode is 'x', not one of live, async"``), or None."""
    keys = set(r.keys())
    wrong = [
        f"its {col} is {_shown(r[col])}, not {desc}"
        for col, (ok, desc) in rules.items()
        if col in keys and not ok(r[col])
    ]
    return "; ".join(wrong) or None


"""Bounds on what a game log may hold, checked before and while it is parsed.

Log files come from anywhere (``/result import``, ``python -m engine replay``), so every importer
reads them through these guards:

* :func:`load_json` - JSON with a cap on size and nesting depth checked *before* parsing (200,000
  ``[`` would otherwise exhaust the parser's recursion), numbers of at most
  :data:`MAX_NUMBER_CHARS` characters (Python refuses integers over 4,300 digits with its own
  message), no ``NaN``/``Infinity`` and only finite floats;
* :func:`check_xml` - XML without a document type declaration, so no entity can be declared or
  expanded (billion laughs, external entities); the standard parser then sees only the five
  predefined entities and character references;
* :func:`range_error` - every integer a log gives is within a sane range for its field;
* :func:`shown` - a value quoted in a message is clipped, so a huge value never fills it.

Every refusal is a :class:`~engine.logs.record.LogFormatError` with one sentence naming the file.
Limits: the depth check counts brackets outside JSON strings (a string is ``"…"`` with backslash
escapes); it does not validate the JSON, which the parser does next.
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any

from engine.logs.record import LogFormatError

__all__ = [
    "MAX_DEPTH",
    "MAX_LOG_BYTES",
    "MAX_NUMBER_CHARS",
    "COUNT_LIMIT",
    "POINTS_LIMIT",
    "range_error",
    "check_xml",
    "json_kind",
    "load_json",
    "shown",
]

#: The largest log read (the largest real one, a whole mjai game, is under 1 MB).
MAX_LOG_BYTES = 32 * 1024 * 1024
#: The deepest JSON nesting read (real logs nest at most 5 deep).
MAX_DEPTH = 40
#: The longest number read, sign, digits, point and exponent included.
MAX_NUMBER_CHARS = 24
#: Scores, deltas and point values must lie within ±POINTS_LIMIT.
POINTS_LIMIT = 10_000_000
#: Honba and riichi-stick counts must lie within 0..COUNT_LIMIT.
COUNT_LIMIT = 99

_STRING_RE = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS_RE = re.compile(r"[^\[\]{}]+")


def json_kind(value: object) -> str:
    """What a JSON value is, in JSON's words: ``null``, ``a list``, ``an object``, ``a string``…"""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "a list"
    return "an object"


def shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` clipped to about ``limit`` characters, for messages."""
    if isinstance(value, (list, dict, tuple)) and len(value) > limit:
        return f"{json_kind(value)} of {len(value):,} entries"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _too_deep(text: str) -> bool:
    """Whether brackets outside strings open deeper than :data:`MAX_DEPTH` at any point (closed
    or not: a truncated file is refused by the parser next)."""
    brackets = _BRACKETS_RE.sub("", _STRING_RE.sub("", text))
    if len(brackets) <= MAX_DEPTH:
        return False
    return max(accumulate(1 if ch in "[{" else -1 for ch in brackets)) > MAX_DEPTH


def _parse_int(where: str) -> Any:
    def parse(text: str) -> int:
        if len(text) > MAX_NUMBER_CHARS:
            raise LogFormatError(f"{where}: a number {len(text):,} characters long, more than any game log holds")
        return int(text)

    return parse


def _parse_float(where: str) -> Any:
    def parse(text: str) -> float:
        if len(text) > MAX_NUMBER_CHARS:
            raise LogFormatError(f"{where}: a number {len(text):,} characters long, more than any game log holds")
        value = float(text)
        if not math.isfinite(value):
            raise LogFormatError(f"{where}: the number {shown(text)} is too large for a game log")
        return value

    return parse


def _parse_constant(where: str) -> Any:
    def parse(name: str) -> float:
        raise LogFormatError(f"{where}: {name} is not a number a game log may hold")

    return parse


def load_json(text: str, where: str) -> Any:
    """``json.loads`` within the bounds above. Raises :class:`LogFormatError` for a log beyond
    them and lets :class:`json.JSONDecodeError` through for malformed JSON (callers word it)."""
    if len(text) > MAX_LOG_BYTES:
        raise LogFormatError(f"{where}: {len(text):,} characters, more than the {MAX_LOG_BYTES:,} a log may have")
    if _too_deep(text):
        raise LogFormatError(f"{where}: JSON nested more than {MAX_DEPTH} levels deep, which no game log is")
    try:
        return json.loads(
            text,
            parse_int=_parse_int(where),
            parse_float=_parse_float(where),
            parse_constant=_parse_constant(where),
        )
    except RecursionError:  # the depth check should make this unreachable; never a traceback
        raise LogFormatError(f"{where}: JSON nested too deeply for a game log") from None


def check_xml(text: str, where: str) -> None:
    """Refuse XML that declares a document type (and with it any entity): Tenhou logs have none."""
    if len(text) > MAX_LOG_BYTES:
        raise LogFormatError(f"{where}: {len(text):,} characters, more than the {MAX_LOG_BYTES:,} a log may have")
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        raise LogFormatError(f"{where}: XML with a document type declaration, which no Tenhou log has")


def range_error(value: int, what: str, lo: int = -POINTS_LIMIT, hi: int = POINTS_LIMIT) -> str | None:
    """None if ``lo <= value <= hi``; else the sentence naming the field ``what`` (importers raise
    it with the place in the file)."""
    if lo <= value <= hi:
        return None
    return f"{what} is {shown(value)}, outside {lo:,}..{hi:,}"

"""Open a game log of any supported format, telling the format from the content.

* text starting with ``<`` holding ``<mjloggm`` -> Tenhou mjlog XML (:mod:`engine.logs.tenhou_xml`);
* one JSON object with ``"log"`` and ``"name"`` -> tenhou.net/6 JSON (:mod:`engine.logs.tenhou6`);
* one JSON object with ``"qijia"`` (or ``"log"`` and ``"player"``) -> kobalab Majiang (:mod:`engine.logs.majiang`);
* a JSON array of such objects -> one record per element;
* lines of JSON objects with ``"type"`` -> mjai (:mod:`engine.logs.mjai`);
* lines of tenhou6 objects (mjx's one hand per line) -> one tenhou6 game.

Anything else - unknown, malformed or truncated - raises
:class:`~engine.logs.record.LogFormatError` with a one-sentence message naming the file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.logs.limits import MAX_LOG_BYTES, load_json
from engine.logs.majiang import parse_majiang
from engine.logs.mjai import parse_mjai
from engine.logs.record import GameRecord, LogFormatError
from engine.logs.tenhou6 import parse_tenhou6, parse_tenhou6_lines

__all__ = ["detect_format", "load_any", "parse_any"]


def _kind_of_object(obj: Any) -> str | None:
    if not isinstance(obj, dict):
        return None
    if "log" in obj and "name" in obj:
        return "tenhou6"
    if "qijia" in obj or ("log" in obj and "player" in obj):
        return "majiang"
    if isinstance(obj.get("type"), str):
        return "mjai"
    return None


def detect_format(text: str) -> str:
    """``"tenhou_xml"``, ``"tenhou6"``, ``"tenhou6_lines"``, ``"majiang"`` or ``"mjai"``; LogFormatError if none."""
    return _detect(text, "<text>")[0]


def _first_line_object(text: str, where: str) -> Any:
    """The first non-blank line parsed as JSON, or None if it is not valid JSON."""
    for line in text.splitlines():
        if line.strip():
            try:
                return load_json(line, where)
            except json.JSONDecodeError:
                return None
    return None


def _detect(text: str, where: str) -> tuple[str, Any]:
    s = text.lstrip("\ufeff \t\r\n")
    if not s:
        raise LogFormatError(f"{where}: the file is empty")
    if s.startswith("<"):
        if "<mjloggm" in s[:2000]:
            return "tenhou_xml", None
        raise LogFormatError(f"{where}: XML, but not a Tenhou <mjloggm> log")
    if s[0] not in "{[":
        raise LogFormatError(f"{where}: neither a Tenhou XML log nor JSON, so no known game log format")
    try:
        whole = load_json(s, where)
    except json.JSONDecodeError as e:
        return _detect_lines(s, where, e)
    if isinstance(whole, list):
        kinds = {_kind_of_object(o) for o in whole}
        if whole and len(kinds) == 1 and kinds <= {"tenhou6", "majiang"}:
            return f"{kinds.pop()}_array", whole
        raise LogFormatError(f"{where}: a JSON array, but not a list of tenhou6 or Majiang games")
    kind = _kind_of_object(whole)
    if kind is None:
        raise LogFormatError(
            f"{where}: a JSON object that is no known game log (no tenhou6/Majiang/mjai keys)"
        )
    if kind == "mjai":
        return "mjai", None  # a one-line mjai file
    return kind, whole


def _detect_lines(s: str, where: str, err: json.JSONDecodeError) -> tuple[str, Any]:
    """Not one JSON document: JSON lines, or a truncated / corrupt single document."""
    if s[0] == "{" and "\n" in s.strip():
        kind = _kind_of_object(_first_line_object(s, where))
        if kind == "mjai":
            return "mjai", None
        if kind == "tenhou6":
            return "tenhou6_lines", None
    raise LogFormatError(
        f"{where}: not valid JSON (truncated or corrupt) at line {err.lineno}, column {err.colno}: {err.msg}"
    )


def parse_any(text: str, path: str = "") -> list[GameRecord]:
    """Parse log text of any supported format (see the module docstring)."""
    where = path or "<text>"
    kind, obj = _detect(text, where)
    if kind == "tenhou_xml":
        from engine.logs.tenhou_xml import parse_tenhou_xml  # imported lazily

        return [parse_tenhou_xml(text.lstrip("\ufeff"), where)]
    if kind == "tenhou6":
        return [parse_tenhou6(obj, where)]
    if kind == "majiang":
        return [parse_majiang(obj, where)]
    if kind == "tenhou6_array":
        return [parse_tenhou6(o, f"{where}[{i}]") for i, o in enumerate(obj)]
    if kind == "majiang_array":
        return [parse_majiang(o, f"{where}[{i}]") for i, o in enumerate(obj)]
    lines = text.lstrip("\ufeff").splitlines()
    if kind == "mjai":
        return [parse_mjai(lines, where)]
    # tenhou6_lines
    objs: list[Any] = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            objs.append(load_json(line, f"{where}: line {n}"))
        except json.JSONDecodeError as e:
            raise LogFormatError(
                f"{where}: line {n} is not valid JSON (truncated or corrupt): {e.msg}"
            ) from None
        if _kind_of_object(objs[-1]) != "tenhou6":
            raise LogFormatError(f"{where}: line {n} is not a tenhou6 game object like the first line")
    return [parse_tenhou6_lines(objs, where)]


def load_any(path: str | Path) -> list[GameRecord]:
    """Read a game log file of any supported format and return its games."""
    p = Path(path)
    try:
        if p.stat().st_size > MAX_LOG_BYTES:
            raise LogFormatError(f"{path}: larger than the {MAX_LOG_BYTES:,} bytes a game log may have")
        data = p.read_bytes()
    except OSError as e:
        raise LogFormatError(f"{path}: cannot be read ({e.strerror or e})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise LogFormatError(
            f"{path}: not UTF-8 text (byte {e.start + 1:,} cannot be read), so no known game log format"
        ) from None
    if text.lstrip("\ufeff \t\r\n").startswith("<"):
        _detect(text, str(path))
        from engine.logs.tenhou_xml import load_tenhou_xml  # imported lazily: written alongside this module

        return [load_tenhou_xml(p)]
    return parse_any(text, str(path))

"""The chinitsu_toutenkou hand line (``python -m engine score "... ruleset=chinitsu_toutenkou"``): its
``ct`` option flags, the game suit inferred from the tiles, and a result described line by line."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields, replace
from typing import Any

from engine.notation import HandSpec
from engine.rules.chinitsu_toutenkou.options import SUIT_BASE, CtOptions
from engine.scoring.breakdown import WildcardAs
from engine.scoring.evaluate import HandError
from engine.scoring.result import ScoreResult
from engine.tiles import KIND_NAMES, format_tiles, kind_of

__all__ = ["describe_items", "format_kinds"]


def _parse_options(spec: HandSpec, base: CtOptions) -> CtOptions:
    changes: dict[str, Any] = {}
    for f in fields(CtOptions):
        raw = spec.options.get(f.name)
        if raw is None:
            continue
        cur = getattr(base, f.name)
        if isinstance(cur, bool):
            changes[f.name] = raw.lower() in ("1", "true", "yes", "on")
        elif isinstance(cur, int):
            if not raw.isdigit():
                raise HandError(f"{f.name}={raw}: expected a whole number")
            changes[f.name] = int(raw)
        elif isinstance(cur, str):
            changes[f.name] = raw
    if changes:
        base = replace(base, **changes)
    if base.suit not in SUIT_BASE:
        raise HandError(f"suit={base.suit}: the game suit is p or s")
    return base


def _infer_suit(spec: HandSpec, default: str) -> str:
    if "suit" in spec.options:
        return spec.options["suit"]
    kinds = [kind_of(t) for t in (*spec.concealed, spec.win_tile, *(t for m in spec.melds for t in m.tiles))]
    has_p = any(9 <= k < 18 for k in kinds)
    has_s = any(18 <= k < 27 for k in kinds)
    if has_p and has_s:
        raise HandError("a chinitsu_toutenkou game uses one number suit: p or s, not both")
    if has_s:
        return "s"
    if has_p:
        return "p"
    return default


def describe_items(result: ScoreResult) -> str:
    """One line per point item and the total (for the bot's result message)."""
    lines = [f"{y.name}: {y.han}" for y in result.yaku]
    lines.append(f"total: {result.points}")
    whites = [KIND_NAMES[b.as_kind] for b in result.breakdown if isinstance(b, WildcardAs)]
    if whites:
        lines.append("White as " + " ".join(whites))
    return "\n".join(lines)


def format_kinds(kinds: Iterable[int]) -> str:
    return format_tiles(sorted(kinds))

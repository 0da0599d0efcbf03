"""A readable shanten report (shared by ``python -m engine shanten`` and the bot's ``/shanten``)."""

from __future__ import annotations

from typing import Any

from engine.hand.shanten import calculator
from engine.tiles import KIND_NAMES, NotationError, counts_of, kind_of, parse_tiles


def shanten_report(text: str) -> dict[str, Any]:
    """Shanten of a concealed hand (3n+1 or 3n+2 tiles) with waits or per-discard ukeire."""
    codes = parse_tiles(text, allow_flowers=False)
    counts = counts_of(codes)
    n = len(codes)
    if n % 3 == 0 or n == 0 or n > 14:
        raise NotationError(
            f"a hand for shanten needs 1, 2, 4, 5, … 13 or 14 tiles (3n+1 or 3n+2), got {n}", text, 0
        )
    if max(counts) > 4:
        k = counts.index(max(counts))
        raise NotationError(f"{KIND_NAMES[k]} appears {counts[k]} times; there are only 4", text, 0)
    calc = calculator()
    std, chiitoi, kokushi = calc.forms(counts)
    best = min(std, chiitoi, kokushi)
    report: dict[str, Any] = {
        "tiles": n,
        "shanten": best,
        "forms": {
            "standard": std,
            "chiitoitsu": None if chiitoi == 99 else chiitoi,
            "kokushi": None if kokushi == 99 else kokushi,
        },
    }
    if n % 3 == 1:
        u = calc.ukeire(counts)
        report["ukeire"] = {KIND_NAMES[k]: c for k, c in sorted(u.tiles.items())}
        report["ukeire_total"] = u.count
        if best == 0:
            report["waits"] = [KIND_NAMES[k] for k in calc.waits(counts)]
    else:
        discards: list[dict[str, Any]] = []
        for k in sorted({kind_of(c) for c in codes}):
            counts[k] -= 1
            sh = calc.shanten(counts)
            if sh == best or (best == -1 and sh == 0):
                u = calc.ukeire(counts)
                discards.append(
                    {
                        "discard": KIND_NAMES[k],
                        "shanten": sh,
                        "ukeire": {KIND_NAMES[x]: c for x, c in sorted(u.tiles.items())},
                        "total": u.count,
                    }
                )
            counts[k] += 1
        discards.sort(key=lambda d: (d["shanten"], -d["total"]))
        report["discards"] = discards
    return report

"""A house-rule profile's rules card: its base ruleset and every option it changes, as text lines
and as a picture readable on a phone (600 px wide, shown at ~360: its text is 12 px and more there).

Pure: a profile's name, the base's name and the ruleset it plays in, lines and PNG bytes out.
Limits: long descriptions wrap; a profile that changes more than ~25 options makes a tall picture.
"""

from __future__ import annotations

from engine.rules import Ruleset
from engine.rules.catalog import OptionSpec, option_specs, show_value

from .fonts import font
from .pictures import MUTED, PANEL, TEXT, _header_bar, _new, _wrap, to_png

__all__ = ["card_lines", "changed_options", "render_card"]

WIDTH = 600
PAD = 20


def changed_options(rs: Ruleset) -> list[OptionSpec]:
    """The options ``rs`` plays differently from its registered base, in the catalog's order."""
    return [s for s in option_specs(rs) if s.changed]


def card_lines(name: str, rs: Ruleset) -> list[str]:
    """The card as Discord text: a title line, then one line per changed option."""
    changed = changed_options(rs)
    lines = [
        f"**{name}**: {rs.name} rules"
        + (f" with {len(changed)} change{'s' if len(changed) != 1 else ''}" if changed else ", unchanged")
    ]
    for s in changed:
        rule = f" ({s.rule})" if s.rule else ""
        about = f": {s.help}" if s.help else ""
        lines.append(
            f"• `{s.key}` = **{show_value(s.value)}** (usually {show_value(s.default)}){rule}{about}"
        )
    return lines


def render_card(name: str, rs: Ruleset) -> bytes:
    """The card as a PNG: title bar, then per changed option its key, new and usual value, rule id
    and description (wrapped)."""
    changed = changed_options(rs)
    f_title, f_key, f_text = font(28), font(24), font(21, "regular")
    rows: list[tuple[OptionSpec, list[str]]] = [
        (s, _wrap(s.help or "", f_text, WIDTH - 2 * PAD - 16)) for s in changed
    ]
    row_h = [46 + 28 * max(1, len(lines)) for _, lines in rows]
    height = PAD + 48 + 40 + (sum(row_h) if rows else 40) + PAD
    img, d = _new(WIDTH, height)
    _header_bar(d, WIDTH, f"{name} — {rs.name}", f_title, pad=PAD, bar_h=48, text_y=PAD + 24)
    y = PAD + 48 + 10
    d.text(
        (PAD, y + 14),
        f"{len(changed)} rule{'s' if len(changed) != 1 else ''} changed from {rs.name}",
        font=f_text,
        fill=MUTED,
        anchor="lm",
    )
    y += 34
    if not rows:
        d.text((PAD, y + 16), "Plays the base rules unchanged.", font=f_text, fill=TEXT, anchor="lm")
    for i, ((s, lines), h) in enumerate(zip(rows, row_h)):
        if i % 2 == 0:
            d.rectangle((PAD - 8, y, WIDTH - PAD + 8, y + h - 4), fill=PANEL)
        d.text((PAD, y + 20), f"{s.key} = {show_value(s.value)}", font=f_key, fill=TEXT, anchor="lm")
        d.text(
            (WIDTH - PAD, y + 20),
            f"{s.rule}  usually {show_value(s.default)}".strip(),
            font=f_text,
            fill=MUTED,
            anchor="rm",
        )
        for j, line in enumerate(lines):
            d.text((PAD + 16, y + 46 + 28 * j + 10), line, font=f_text, fill=TEXT, anchor="lm")
        y += h
    return to_png(img, palette="default")

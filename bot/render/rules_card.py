"""A house-rule profile's rules card: its base ruleset and every option it changes, as text lines
and as a picture readable on a phone (600 px wide, shown at ~360: its text is 12 px and more there).

Pure: a profile's name, the base's name and the ruleset it plays in, lines and PNG bytes out, in
``lang`` (an option's description is the catalog's ``option`` entry of the engine's text).
Limits: long descriptions wrap; a profile that changes more than ~25 options makes a tall picture.
"""

from __future__ import annotations

from bot import i18n
from bot.i18n import DEFAULT, Lang, term
from engine.rules import Ruleset
from engine.rules.catalog import OptionSpec, option_specs, show_value

from .canvas import MUTED, PANEL, TEXT, header_bar, new_canvas, to_png, wrap
from .fonts import draw_text, text_font, text_in

__all__ = ["card_lines", "changed_options", "render_card"]

WIDTH = 600
PAD = 20


def changed_options(rs: Ruleset) -> list[OptionSpec]:
    """The options ``rs`` plays differently from its registered base, in the catalog's order."""
    return [s for s in option_specs(rs) if s.changed]


def option_help(s: OptionSpec, lang: Lang = DEFAULT) -> str:
    """An option's description in ``lang`` (the catalog's ``option`` entry of the engine's text)."""
    return term(lang, "option", s.help) if s.help else ""


def card_lines(name: str, rs: Ruleset, *, lang: Lang = DEFAULT) -> list[str]:
    """The card as Discord text: a title line, then one line per changed option."""
    changed = changed_options(rs)
    if changed:
        title = i18n.tn(
            lang, "**{name}**: {base} rules with {n} change", "**{name}**: {base} rules with {n} changes", len(changed),
            name=name, base=rs.name,
        )
    else:
        title = i18n.t(lang, "**{name}**: {base} rules, unchanged", name=name, base=rs.name)
    lines = [title]
    for s in changed:
        rule = f" ({s.rule})" if s.rule else ""
        shown = {"key": s.key, "value": show_value(s.value), "usual": show_value(s.default), "rule": rule}
        if s.help:
            lines.append(i18n.t(lang, "• `{key}` = **{value}** (usually {usual}){rule}: {about}", about=option_help(s, lang), **shown))
        else:
            lines.append(i18n.t(lang, "• `{key}` = **{value}** (usually {usual}){rule}", **shown))
    return lines


def render_card(name: str, rs: Ruleset, *, lang: Lang = DEFAULT) -> bytes:
    """The card as a PNG: title bar, then per changed option its key, new and usual value, rule id
    and description (wrapped), its words in ``lang``."""
    with text_in(lang):
        return _card_png(name, rs, lang)


def _card_png(name: str, rs: Ruleset, lang: Lang) -> bytes:
    changed = changed_options(rs)
    f_title, f_key, f_text = text_font(28), text_font(24), text_font(21, "regular")
    rows: list[tuple[OptionSpec, list[str]]] = [
        (s, wrap(option_help(s, lang), f_text, WIDTH - 2 * PAD - 16)) for s in changed
    ]
    row_h = [46 + 28 * max(1, len(lines)) for _, lines in rows]
    height = PAD + 48 + 40 + (sum(row_h) if rows else 40) + PAD
    img, d = new_canvas(WIDTH, height)
    header_bar(d, WIDTH, f"{name} — {rs.name}", f_title, pad=PAD, bar_h=48, text_y=PAD + 24)
    y = PAD + 48 + 10
    draw_text(
        d,
        (PAD, y + 14),
        i18n.tn(lang, "{n} rule changed from {base}", "{n} rules changed from {base}", len(changed), base=rs.name),
        font=f_text,
        fill=MUTED,
        anchor="lm",
    )
    y += 34
    if not rows:
        draw_text(d, (PAD, y + 16), i18n.t(lang, "Plays the base rules unchanged."), font=f_text, fill=TEXT, anchor="lm")
    for i, ((s, lines), h) in enumerate(zip(rows, row_h)):
        if i % 2 == 0:
            d.rectangle((PAD - 8, y, WIDTH - PAD + 8, y + h - 4), fill=PANEL)
        draw_text(d, (PAD, y + 20), f"{s.key} = {show_value(s.value)}", font=f_key, fill=TEXT, anchor="lm")
        usual = i18n.t(lang, "usually {value}", value=show_value(s.default))
        draw_text(d, (WIDTH - PAD, y + 20), f"{s.rule}  {usual}".strip(), font=f_text, fill=MUTED, anchor="rm")
        for j, line in enumerate(lines):
            draw_text(d, (PAD + 16, y + 46 + 28 * j + 10), line, font=f_text, fill=TEXT, anchor="lm")
        y += h
    return to_png(img, palette="default")

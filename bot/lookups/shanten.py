"""``/shanten``: shanten, waits and the ukeire of each useful discard, as text lines and a picture.

Riichi's tile set and hand size use the engine's report (:func:`engine.hand.report.shanten_report`);
another ruleset's (copies per kind, sets, removed kinds) its own shanten calculator. Plain shapes:
a ruleset's note says what is left out (``Ruleset.shanten_note``). No Discord here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.i18n import DEFAULT, N_, Lang, t
from bot.render.lookup import ShantenRow, render_shanten_card
from bot.render.names import ruleset_label, tile_name
from bot.render.tiles import Style
from engine.hand.report import shanten_report
from engine.rules import UnknownRuleset, find_ruleset, ruleset_names
from engine.rules.base import Ruleset
from engine.tiles import KIND_NAMES, NotationError, counts_of, kind_of, parse_kind, parse_tiles

from .refusals import LookupError_, Unreadable, unknown_ruleset
from .score import sort_codes

__all__ = ["FORM_NAMES", "SHANTEN_NOTES", "WILDCARD_NOTE", "ShantenAnswer", "check_tiles", "shanten_of"]


@dataclass
class ShantenAnswer:
    title: str
    lines: list[str]
    png: bytes
    report: dict[str, Any] = field(default_factory=dict)


def _head(sh: int, lang: Lang = DEFAULT) -> str:
    if sh == -1:
        return t(lang, "complete hand")
    return t(lang, "tenpai") if sh == 0 else t(lang, "{n}-shanten", n=sh)


def _kinds_tiles(kinds: int, n: int, lang: Lang) -> str:
    return t(lang, "{kinds} kinds, {n} tiles", kinds=kinds, n=n)


def _generic_report(tiles: str, ruleset: Ruleset) -> dict[str, Any]:
    """:func:`engine.hand.report.shanten_report` for a ruleset with another tile set or hand size
    (copies per kind, sets, removed kinds), from the ruleset's own shanten calculator."""
    codes = parse_tiles(tiles, allow_flowers=False)
    calc = ruleset.shanten_calculator()
    sets = int(ruleset.max_sets)
    copies = int(ruleset.copies)
    removed = set(ruleset.removed_kinds)
    n = len(codes)
    if n % 3 == 0 or n == 0 or n > 3 * sets + 2:
        raise NotationError(
            f"a {ruleset.name} hand for shanten needs 3n+1 or 3n+2 tiles, at most {3 * sets + 2}, got {n}",
            tiles,
            0,
        )
    counts = counts_of(codes)
    for k in range(34):
        if counts[k] and k in removed:
            raise NotationError(f"{KIND_NAMES[k]} is not used in {ruleset.name}", tiles, 0)
        if counts[k] > copies:
            raise NotationError(
                f"{KIND_NAMES[k]} appears {counts[k]} times; there are only {copies}", tiles, 0
            )
    best = calc.shanten(counts)
    report: dict[str, Any] = {"tiles": n, "shanten": best}

    def ukeire(c: list[int]) -> tuple[dict[str, int], int]:
        u = calc.ukeire(c)
        tiles_ = {KIND_NAMES[k]: v for k, v in sorted(u.tiles.items()) if k not in removed}
        return tiles_, sum(tiles_.values())

    if n % 3 == 1:
        report["ukeire"], report["ukeire_total"] = ukeire(counts)
        if best == 0:
            report["waits"] = [KIND_NAMES[k] for k in calc.waits(counts)]
    else:
        discards: list[dict[str, Any]] = []
        for k in sorted({kind_of(c) for c in codes}):
            counts[k] -= 1
            sh = calc.shanten(counts)
            if sh == best or (best == -1 and sh == 0):
                u, total = ukeire(counts)
                discards.append({"discard": KIND_NAMES[k], "shanten": sh, "ukeire": u, "total": total})
            counts[k] += 1
        discards.sort(key=lambda d: (d["shanten"], -d["total"]))
        report["discards"] = discards
    return report


def check_tiles(tiles: str, ruleset: str | None = None) -> None:
    """:class:`LookupError_` for unreadable tiles or a ruleset the engine lacks (cheap, see
    :func:`check_hand`)."""
    text = tiles.strip()
    name = (ruleset or "riichi").strip()
    try:
        parse_tiles(text, allow_flowers=False)
    except NotationError as e:
        raise Unreadable(
            "I could not read those tiles: {error}.\n{caret}", e, text,
            at=N_("I could not read those tiles: please check `{part}` (character {position}).\n{caret}"),
            nowhere=N_("I could not read those tiles: please check how they are written (e.g. `123m456p`).\n{caret}"),
        ) from None
    if name.lower() not in ruleset_names():
        raise unknown_ruleset(name, shanten=True)


#: what :func:`shanten_of` says of a ruleset with wildcards and no note of its own
WILDCARD_NOTE = N_("Shapes only: wildcard tiles are counted as their own kind here.")
#: the rulesets' own notes (``Ruleset.shanten_note``, engine text) as catalog messages
SHANTEN_NOTES = (N_("Plain shapes only: shoukou's ±3 transformations (SK-8, SK-11) are not counted here."),)
#: the hand forms of the engine's report (``forms``)
FORM_NAMES = {"standard": N_("standard"), "chiitoitsu": N_("chiitoitsu"), "kokushi": N_("kokushi")}


def shanten_of(tiles: str, ruleset: str | None = None, style: Style | None = None, lang: Lang = DEFAULT) -> ShantenAnswer:
    """Shanten and ukeire of a concealed hand, as text and a picture (its tiles in ``style``), in
    ``lang``. Raises :class:`LookupError_`."""
    text = tiles.strip()
    note = ""
    name = (ruleset or "riichi").strip()
    try:
        if name.lower() in ruleset_names():
            rs = find_ruleset(name)
            if (rs.copies, rs.max_sets, rs.removed_kinds) == (4, 4, frozenset()):
                report = shanten_report(text)  # riichi's tile set and hand: the engine's report as is
            else:
                report = _generic_report(text, rs)
            note = rs.shanten_note
            if rs.wildcards and not note:
                note = WILDCARD_NOTE
        else:
            raise unknown_ruleset(name, shanten=True)
    except NotationError as e:
        raise Unreadable(
            "I could not read those tiles: {error}.\n{caret}", e, text,
            at=N_("I could not read those tiles: please check `{part}` (character {position}).\n{caret}"),
            nowhere=N_("I could not read those tiles: please check how they are written (e.g. `123m456p`).\n{caret}"),
        ) from None
    except NotImplementedError:
        raise LookupError_("ruleset {ruleset} cannot compute shanten yet", ruleset=name) from None
    except UnknownRuleset as e:
        raise LookupError_(str(e)) from None
    codes = sort_codes(parse_tiles(text, allow_flowers=False))
    sh = report["shanten"]
    lines: list[str] = []
    forms = report.get("forms")
    if forms:
        named = ", ".join(f"{t(lang, FORM_NAMES.get(k, k))} {v}" for k, v in forms.items() if v is not None)
        lines.append(t(lang, "forms: {forms}", forms=named))
    rows: list[ShantenRow] = []
    if "waits" in report:
        lines.append(t(lang, "waits: {tiles}", tiles=" ".join(_kind_text(k, lang) for k in report["waits"])))
    if "ukeire" in report:
        amount = _kinds_tiles(len(report["ukeire"]), report["ukeire_total"], lang)
        lines.append(t(lang, "ukeire: {amount} — {tiles}", amount=amount, tiles=_ukeire_text(report["ukeire"], lang)))
        label = f"{_head(sh, lang)} · {amount}"
        measure = f"{_head(sh)} · {_kinds_tiles(len(report['ukeire']), report['ukeire_total'], DEFAULT)}"
        rows.append(ShantenRow(None, label, [parse_kind(k) for k in report["ukeire"]], measure))
    for d in report.get("discards", []):
        u = d["ukeire"]
        amount = _kinds_tiles(len(u), d["total"], lang)
        lines.append(
            t(
                lang,
                "discard **{tile}** → {shanten}, {amount}: {tiles}",
                tile=_kind_text(d["discard"], lang), shanten=_head(d["shanten"], lang), amount=amount,
                tiles=_ukeire_text(u, lang),
            )
        )
        measure = f"{_head(d['shanten'])} · {_kinds_tiles(len(u), d['total'], DEFAULT)}"  # the English: one width in every language
        rows.append(
            ShantenRow(parse_kind(d["discard"]), f"{_head(d['shanten'], lang)} · {amount}", [parse_kind(k) for k in u], measure)
        )
    if "discards" in report and not report["discards"]:
        lines.append(t(lang, "no discard keeps this shanten"))
    if note:
        lines.append(f"*{t(lang, note)}*")
    title = t(lang, "{shanten} ({n} tiles)", shanten=_head(sh, lang), n=report["tiles"])
    picture_title = t(lang, "{shanten} ({n} tiles) — ruleset {ruleset}", shanten=_head(sh, lang), n=report["tiles"], ruleset=ruleset_label(name, lang))
    png = render_shanten_card(codes, title=picture_title, rows=rows, style=style, lang=lang)
    return ShantenAnswer(title, lines, png, report)


def _kind_text(kind: str, lang: Lang = DEFAULT) -> str:
    """A kind of the engine's report (``1z``) as players read it everywhere else (``E``)."""
    return tile_name(parse_kind(kind), lang)


def _ukeire_text(u: dict[str, int], lang: Lang = DEFAULT) -> str:
    return " ".join(f"{_kind_text(k, lang)}×{c}" for k, c in u.items()) or "—"

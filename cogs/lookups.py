"""Look-ups: ``/score``, ``/shanten`` and ``/rule`` — the engine's answers and the rule texts.

The cog only translates: the hand grammar and the numbers come from :mod:`engine`, the pictures
from :mod:`bot.render.lookup`, the rule texts from :mod:`bot.rules_text`. Bad input gets one plain
ephemeral sentence (a hand's message points at the bad character): the commands raise
:class:`LookupError_` and the command tree's error handler (:mod:`bot.command_tree`) answers it.

Every answer is in the asker's language (``i18n.lang_of(interaction.locale)``): the sentences and
labels from the catalogs, the yaku by :func:`bot.render.names.yaku_name`, the tiles by
:func:`bot.render.names.tile_name`, the rule texts from the bundled texts of that language
(``bot/rules_text/ja/`` in Japanese). Limits: the engine's own sentence inside a refusal (why a
hand could not be read) and a variant's extra result fields stay the engine's words.

Long rule lists are paged with buttons whose ``custom_id`` carries what they show
(``lkr:<ruleset>:<page>:<user>``), so they keep working after a restart.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.errors import UserError
from bot.house_text import PRESETS, changed_rule_lines, preset_text
from bot.i18n import DEFAULT, N_, Lang, t, term, tn
from bot.render.lookup import LookupMeld, ScoreCard, ShantenRow, render_score_card, render_shanten_card
from bot.render.names import ruleset_label, tile_name, yaku_name
from bot.render.rules_card import card_lines
from bot.render.tiles import Style
from bot.rules_text import RULESETS, Rulebook, RuleText, rulebook
from engine.hand.report import shanten_report
from engine.notation import WINDS, HandSpec, format_hand, parse_hand
from engine.rules import UnknownRuleset, find_ruleset, ruleset_names
from engine.rules.base import Ruleset
from engine.scoring import score
from engine.scoring.result import ScoreResult
from engine.tiles import KIND_NAMES, RED, NotationError, counts_of, kind_of, parse_kind, parse_tiles

if TYPE_CHECKING:
    from bot.client import JantakuBot

log = logging.getLogger(__name__)
T = TypeVar("T")

DESCRIPTION_LIMIT = 4096
FIELD_LIMIT = 1024
PAGE_CHARS = 3800  # a rule list page (embed description), with room for the summary line
PAGE_ENTRIES = 20  # rule ids per list page: a screenful
MAX_EMBED_TOTAL = 6000

_LIMITS = {"kazoe": "kazoe yakuman"}
#: the limit hands' names as the catalogs have them (ScoreResult.limit, kazoe spelt out)
LIMIT_NAMES = (N_("mangan"), N_("haneman"), N_("baiman"), N_("sanbaiman"), N_("kazoe yakuman"), N_("yakuman"))
# what a hand's value counts in, by how the ruleset counts it (``Ruleset.hand_value``; rules/README.md §4)
_UNITS = {"han_fu": "han", "tai": "tai", "points": "pts"}
#: the seats of a payment, by the wind letters of the engine
_SEATS = {"E": N_("East"), "S": N_("South"), "W": N_("West"), "N": N_("North")}


class LookupError_(UserError, ValueError):
    """A look-up that cannot be answered; the message is the plain sentence the user sees."""


def sort_codes(codes: Sequence[int]) -> list[int]:
    return sorted(codes, key=lambda c: (kind_of(c), c & RED))


class Unreadable(LookupError_):
    """A hand or tiles the notation parser refused. English reads the parser's own detail (the
    engine words it in English only); another language reads a sentence of its own that names the
    part to fix, by its position and its word, above the same caret."""

    def __init__(self, msgid: str, e: NotationError, line: str, *, at: str, nowhere: str) -> None:
        super().__init__(msgid, error=str(e), caret=_caret(line, e.position))
        self.position, self.part = e.position, _word_at(line, e.position)
        self.at, self.nowhere = at, nowhere

    def sentence(self, lang: Lang = "en") -> str:
        if lang == "en":
            return super().sentence(lang)
        if self.position is None or not self.part:
            return t(lang, self.nowhere, caret=self.kw["caret"])
        return t(lang, self.at, position=self.position + 1, part=self.part, caret=self.kw["caret"])


def _word_at(line: str, position: int | None) -> str:
    """The word (between spaces) of ``line`` that holds ``position`` (0-based), clipped; "" if none."""
    if position is None or not 0 <= position < len(line) or line[position].isspace():
        return ""
    start = line.rfind(" ", 0, position) + 1
    end = line.find(" ", position)
    word = "".join(ch if ch.isprintable() else "?" for ch in line[start : end if end >= 0 else len(line)]).replace("`", "'")
    return word if len(word) <= 30 else word[:29] + "…"


def _caret(line: str, position: int | None) -> str:
    """The line in a code block with a ``^`` under the character at ``position`` (0-based)."""
    safe = "".join(ch if ch.isprintable() else "?" for ch in line.replace("`", "'"))
    pos = max(0, min(position or 0, len(safe)))
    if len(safe) > CARET_WIDTH:  # show the part around the bad character, not a wall of text
        start = max(0, min(pos - CARET_WIDTH // 2, len(safe) - CARET_WIDTH))
        safe = ("…" if start else "") + safe[start : start + CARET_WIDTH] + ("…" if start + CARET_WIDTH < len(safe) else "")
        pos = pos - start + (1 if start else 0)
    if position is None:
        return f"```\n{safe}\n```"
    return f"```\n{safe}\n{' ' * pos}^\n```"


#: The widest line :func:`_caret` shows.
CARET_WIDTH = 100


def _unknown_ruleset(name: str, shanten: bool) -> LookupError_:
    """The refusal for a ruleset the engine cannot use (yet) to score hands, or (``shanten``) to
    compute shanten."""
    if name.lower() in RULESETS:
        if shanten:
            return LookupError_(
                "ruleset {ruleset} cannot compute shanten yet: it is not in the engine yet (/rule {rule} explains its rules)",
                ruleset=name, rule=name.lower(),
            )
        return LookupError_(
            "ruleset {ruleset} cannot score hands yet: it is not in the engine yet (/rule {rule} explains its rules)",
            ruleset=name, rule=name.lower(),
        )
    try:
        find_ruleset(name)
    except UnknownRuleset as e:
        return LookupError_(str(e))
    if shanten:
        return LookupError_("ruleset {ruleset} cannot compute shanten yet", ruleset=name)
    return LookupError_("ruleset {ruleset} cannot score hands yet", ruleset=name)


# --- /score ----------------------------------------------------------------------------------


@dataclass
class ScoreAnswer:
    title: str
    lines: list[str]
    png: bytes
    hand: str
    ruleset: str


def _amount(n: int, unit: str, lang: Lang = DEFAULT) -> str:
    """``1 point`` / ``2 points`` / ``3 tai`` / ``2 han`` / ``5 pts`` in ``lang``."""
    if unit == "han":
        return t(lang, "{n} han", n=n)
    if unit == "tai":
        return t(lang, "{n} tai", n=n)
    if unit == "pts":
        return t(lang, "{n} pts", n=n)
    if unit == "points":
        return tn(lang, "{n} point", "{n} points", n)
    if n == 1 and unit.endswith("s"):
        unit = unit[:-1]
    return f"{n} {unit}"


def _yakuman(n: int, lang: Lang) -> str:
    return t(lang, "yakuman") if n == 1 else t(lang, "{n}× yakuman", n=n)


def _score_rows(r: ScoreResult, unit: str, lang: Lang = DEFAULT) -> tuple[list[tuple[str, str]], str]:
    rows: list[tuple[str, str]] = []
    for y in r.yaku:
        if r.yakuman and y.han >= 13 and unit == "han":
            rows.append((yaku_name(y.name, lang), _yakuman(y.han // 13, lang)))
        else:
            rows.append((yaku_name(y.name, lang), _amount(y.han, unit, lang)))
    if r.yakuman and unit == "han":
        head = _yakuman(r.yakuman, lang)
    elif unit == "han" and r.fu:
        head = t(lang, "{han} han {fu} fu", han=r.han, fu=r.fu)
    else:
        head = _amount(r.han, unit, lang)
    bazoro = r.details.get("bazoro")
    if isinstance(bazoro, int) and bazoro and unit == "han":
        head = t(lang, "{value} + {n} bazoro", value=head, n=bazoro)
    limit = _LIMITS.get(r.limit, r.limit)
    if limit and limit != "yakuman":
        head = t(lang, "{value} ({limit})", value=head, limit=t(lang, limit))
    return rows, head


def _detail(value: object) -> str | None:
    """A variant's extra result field as text, or None when it adds nothing for a player
    (empty, or a list of records already shown as the yaku lines)."""
    if value is None or value == [] or value == {} or value == "":
        return None
    if isinstance(value, dict):
        parts = [f"{k}: {_detail(v)}" for k, v in value.items() if _detail(v) is not None]
        return "; ".join(parts) or None
    if isinstance(value, (list, tuple)):
        if any(isinstance(v, (dict, list, tuple)) for v in value):
            return None
        return ", ".join(str(v) for v in value)
    return str(value)


# result fields a variant may add that repeat what the breakdown already shows
_SHOWN = {"unit", "total", "tai", "ruleset", "bazoro"}


def check_hand(line: str) -> HandSpec:
    """The parsed hand, or :class:`LookupError_` for a malformed line or a ruleset the engine lacks.
    Cheap: the cog runs it before anything slow, so these answers are always ephemeral."""
    try:
        spec = parse_hand(line)
    except NotationError as e:
        raise Unreadable(
            "I could not read that hand: {error}.\n{caret}", e, line,
            at=N_("I could not read that hand: please check `{part}` (character {position}).\n{caret}"),
            nowhere=N_("I could not read that hand: please check how it is written (e.g. `123m456p789s1122z ron 2z`).\n{caret}"),
        ) from None
    if spec.ruleset.lower() not in ruleset_names():
        raise _unknown_ruleset(spec.ruleset, shanten=False)
    return spec


def score_hand(
    line: str, rules: Ruleset | None = None, house: str | None = None, style: Style | None = None, lang: Lang = DEFAULT
) -> ScoreAnswer:
    """Score one hand line (the ``python -m engine score`` grammar). Raises :class:`LookupError_`.
    ``rules``: score under this ruleset (a club's house rules, ``house`` their name) instead of the
    registered one the line names; ``style``: the picture's tile style (the asker's, bot.prefs);
    ``lang``: the language of the answer and of the picture's words."""
    spec = check_hand(line)
    name = spec.ruleset
    try:
        r = rules.score(spec) if rules is not None else score(spec)
    except NotImplementedError:
        raise LookupError_("ruleset {ruleset} cannot score hands yet", ruleset=name) from None
    except ValueError as e:  # HandError (impossible tiles), UnknownRuleset (wrong player count)
        raise LookupError_("That hand cannot be scored: {error}.", error=str(e)) from None
    if not r.agari:
        caret = _caret(format_hand(spec), None)
        if r.reason == "no_yaku":
            raise LookupError_("That hand cannot win: it is complete but has no yaku.\n{caret}", caret=caret)
        raise LookupError_("That hand cannot win: it is not a complete hand.\n{caret}", caret=caret)
    unit = str(r.details.get("unit", "")) or _UNITS[find_ruleset(name).hand_value]
    rows, head = _score_rows(r, unit, lang)
    if unit == "han":
        total = t(lang, "{value} = {points} points", value=head, points=f"{r.points:,}")
    else:
        total = head if r.points == r.han else f"{head} → {r.points:,}"
    pay = sorted(r.payments.items(), key=lambda kv: -kv[1])
    payments = [(_seat_name(k, spec, lang), v) for k, v in pay]
    win = _tile_text(spec.win_tile, lang)
    if spec.ctx.tsumo:
        title = t(lang, "Tsumo {tile} — {total}", tile=win, total=total)
    else:
        title = t(lang, "Ron {tile} — {total}", tile=win, total=total)
    seat, rnd = (term(lang, "tile", WINDS[w]) for w in (spec.ctx.seat_wind, spec.ctx.round_wind))
    if house:
        footer = t(lang, "house rules {house} ({ruleset}) · seat {seat} · round {round}", house=house, ruleset=name, seat=seat, round=rnd)
    else:
        footer = t(lang, "ruleset {ruleset} · seat {seat} · round {round}", ruleset=ruleset_label(name, lang), seat=seat, round=rnd)
    melds = [LookupMeld(m.type.value, list(m.tiles)) for m in spec.melds]
    card = ScoreCard(
        concealed=sort_codes(spec.concealed),
        melds=melds,
        win_tile=spec.win_tile,
        title=title,
        rows=rows,
        total=total,
        payments=payments,
        dora=spec.ctx.dora_indicators,
        ura=spec.ctx.ura_indicators,
        footer=footer,
    )
    png = render_score_card(card, style=style, lang=lang)
    lines = [f"{n}: {v}" for n, v in rows]
    lines.append(f"**{total}**")
    if payments:
        lines.append(t(lang, "payments: {payments}", payments=", ".join(f"{k} {v:+,}" for k, v in payments)))
    for k, v in r.details.items():
        text = None if k in _SHOWN else _detail(v)
        if text is not None:
            lines.append(_clip(f"{k.replace('_', ' ')}: {text}", 1000))
    return ScoreAnswer(title, lines, png, format_hand(spec), name)


#: a kana or kanji character
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")

def _seat_name(key: str, spec: HandSpec, lang: Lang = DEFAULT) -> str:
    if key in WINDS:
        who = t(lang, _SEATS[key])
        return t(lang, "{seat} (winner)", seat=who) if WINDS.index(key) == spec.ctx.seat_wind else who
    if key == "discarder":  # a ron whose line names no discarder (from=)
        return t(lang, "discarder")
    return key


def _tile_text(code: int, lang: Lang = DEFAULT) -> str:
    return tile_name(code, lang)  # the name the buttons, texts and pictures use (bot.render.names)


# --- /shanten --------------------------------------------------------------------------------


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


def _generic_report(tiles: str, ruleset: Any) -> dict[str, Any]:
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
        discards = []
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
        raise _unknown_ruleset(name, shanten=True)


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
            raise _unknown_ruleset(name, shanten=True)
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
    return _tile_text(parse_kind(kind), lang)


def _ukeire_text(u: dict[str, int], lang: Lang = DEFAULT) -> str:
    return " ".join(f"{_kind_text(k, lang)}×{c}" for k, c in u.items()) or "—"


# --- /rule -----------------------------------------------------------------------------------


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def rule_pages(book: Rulebook) -> list[str]:
    """The list of a ruleset's rules (``id`` and title), cut into embed-sized pages."""
    pages: list[str] = []
    cur = _clip(book.summary, 1200) + "\n\n" if book.summary else ""
    n = 0
    for e in book.entries:
        line = f"`{e.id}` {e.title}\n"
        if len(cur) + len(line) > PAGE_CHARS or n == PAGE_ENTRIES:
            pages.append(cur.rstrip())
            cur, n = "", 0
        cur += line
        n += 1
    pages.append(cur.rstrip())
    return pages


def rule_list_embed(book: Rulebook, page: int, lang: Lang = DEFAULT) -> tuple[discord.Embed, int]:
    """A page of ``book``'s list of rules (the book is in the reader's language; ``lang`` says the
    embed's own words)."""
    pages = rule_pages(book)
    page = max(0, min(page, len(pages) - 1))
    e = discord.Embed(
        title=_clip(t(lang, "{title} — rules", title=book.title), 256), description=pages[page], colour=discord.Colour.dark_green()
    )
    e.set_footer(
        text=t(
            lang, "page {page}/{pages} · /rule {ruleset} <id or keyword> explains one rule",
            page=page + 1, pages=len(pages), ruleset=book.ruleset,
        )
    )
    return e, len(pages)


def rule_embed(entry: RuleText, book: Rulebook, also: Sequence[RuleText] = (), lang: Lang = DEFAULT) -> discord.Embed:
    e = discord.Embed(
        title=_clip(f"{entry.id} · {entry.title}", 256),
        description=_clip(entry.text, DESCRIPTION_LIMIT),
        colour=discord.Colour.dark_green(),
    )
    if also:
        lines: list[str] = []
        for a in also:
            line = f"`{a.id}` {a.title}"
            if sum(len(x) + 1 for x in lines) + len(line) > FIELD_LIMIT - 40:
                lines.append(t(lang, "… and {n} more", n=len(also) - len(lines)))
                break
            lines.append(line)
        e.add_field(name=t(lang, "Also matching"), value="\n".join(lines), inline=False)
    foot = f"{book.title}"
    if entry.keywords:
        # the keywords written in the reader's script (both find the entry; the other script's
        # romaji or kanji would be noise in the footer)
        words = [k for k in entry.keywords if bool(_CJK.search(k)) == (lang == "ja")] or list(entry.keywords)
        foot = t(lang, "{title} · keywords: {keywords}", title=book.title, keywords=", ".join(words))
    e.set_footer(text=_clip(foot, 2048))
    return e


def find_rule(ruleset: str, topic: str, lang: Lang = DEFAULT) -> tuple[RuleText, Rulebook, list[RuleText]]:
    """The entry for ``topic`` (an id, or keywords) in ``ruleset``'s texts in ``lang`` (``en``,
    ``ja``), with other matches.

    An id of another ruleset (``/rule pk R-6.4``) is looked up in that ruleset's texts."""
    book = rulebook(ruleset, lang)
    entry = book.get(topic)
    if entry is not None:
        return entry, book, []
    m = re.fullmatch(r"\s*([A-Za-z]{1,2})-?(\S+)\s*", topic)
    if m:
        owner = {p.lower(): rs for rs, p in RULESETS.items()}.get(m.group(1).lower())
        if owner and owner != ruleset:
            other = rulebook(owner, lang).get(topic)
            if other is not None:
                return other, rulebook(owner, lang), []
    found = book.search(topic)
    if not found:
        prefix = RULESETS.get(ruleset, "R")
        raise LookupError_(
            "No rule of {ruleset} matches '{topic}'. Ask with a rule id (`{example}`), a keyword (`furiten`) or a "
            "question in plain words (`how does dora work`); `/rule {ruleset}` lists every rule.",
            ruleset=ruleset, topic=_clip(topic.strip(), 100), example=book.entries[0].id if book.entries else prefix + "-1",
        )
    return found[0], book, found[1:]


def house_embeds(name: str, rules: Ruleset, lang: Lang = DEFAULT) -> list[discord.Embed]:
    """``/rule house:<name>``: the rules card of a club's house rules, then the text of each rule
    they change (by the option's rule id, where the bundled texts have it), in ``lang``."""
    lines = card_lines(name, rules, lang=lang)
    own = changed_rule_lines(rules, lang)  # each changed rule as played, not the standard text it replaces (issue 30)
    if own:
        lines += ["", *own]
    return _embeds(t(lang, "House rules {name}", name=name), lines, "", discord.Colour.dark_green())[:10]


class RulePage(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"lkr:(?P<rs>[a-z0-9_]+):(?P<page>\d+):(?P<user>\d+)",
):
    """A page button of a ``/rule`` list: the ruleset, the page it opens and who asked."""

    def __init__(self, ruleset: str, page: int, user: int, *, label: str, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"lkr:{ruleset}:{page}:{user}",
                disabled=disabled,
            )
        )
        self.ruleset = ruleset
        self.page = page
        self.user = user

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> RulePage:
        return cls(match["rs"], int(match["page"]), int(match["user"]), label=item.label or "")

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.user:
            await interaction.response.send_message(
                t(
                    i18n.lang_of(interaction.locale),
                    "Only the person who asked can turn these pages; ask /rule {ruleset} yourself.",
                    ruleset=self.ruleset,
                ),
                ephemeral=True,
            )
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        lang = i18n.lang_of(interaction.locale)
        if self.ruleset not in RULESETS:
            await interaction.response.send_message(t(lang, "that list is no longer available"), ephemeral=True)
            return
        book = rulebook(self.ruleset, lang)
        embed, pages = rule_list_embed(book, self.page, lang)
        await interaction.response.edit_message(
            embed=embed, view=page_view(self.ruleset, self.page, pages, self.user, lang)
        )


def page_view(ruleset: str, page: int, pages: int, user: int, lang: Lang = DEFAULT) -> discord.ui.View | None:
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    page = max(0, min(page, pages - 1))
    prev_page = page - 1 if page > 0 else 0
    next_page = page + 1 if page + 1 < pages else pages - 1
    view.add_item(RulePage(ruleset, prev_page, user, label=t(lang, "◀ previous"), disabled=page == 0))
    view.add_item(RulePage(ruleset, next_page, user, label=t(lang, "next ▶"), disabled=page + 1 >= pages))
    return view


# --- the cog ---------------------------------------------------------------------------------


RULESET_CHOICES = [app_commands.Choice(name=rs, value=rs) for rs in (*RULESETS, *PRESETS)]  # presets: issue 30


def _ruleset_suggestions(current: str, lang: Lang = DEFAULT) -> list[app_commands.Choice[str]]:
    names = sorted(set(ruleset_names()) | set(RULESETS))
    cur = current.strip().lower()
    hits = [n for n in names if n.startswith(cur)] + [
        n for n in names if cur and cur in n and not n.startswith(cur)
    ]
    return [
        app_commands.Choice(
            name=n if n in ruleset_names() else t(lang, "{ruleset} (rules only, not playable yet)", ruleset=n), value=n
        )
        for n in hits[:25]
    ]


def _embeds(title: str, lines: Sequence[str], image: str, colour: discord.Colour) -> list[discord.Embed]:
    """``lines`` as one embed, or several (Discord: 4096 per description, 6000 per message); the
    picture goes in the first."""
    chunks: list[str] = []
    cur = ""
    for ln in lines:
        ln = _clip(ln, DESCRIPTION_LIMIT - 10)
        if len(cur) + len(ln) + 1 > DESCRIPTION_LIMIT - 10:
            chunks.append(cur)
            cur = ""
        cur += ln + "\n"
    chunks.append(cur)
    embeds: list[discord.Embed] = []
    used = len(title)
    for i, chunk in enumerate(chunks):
        room = MAX_EMBED_TOTAL - used - 40
        if room <= 0:
            break
        text = _clip(chunk.rstrip(), min(room, DESCRIPTION_LIMIT)) or "—"
        e = discord.Embed(title=_clip(title, 256) if i == 0 else None, description=text, colour=colour)
        if i == 0 and image:
            e.set_image(url=f"attachment://{image}")
        used += len(text)
        embeds.append(e)
    return embeds


DEFER_AFTER = 1.5  # seconds; Discord drops an interaction not answered within 3


async def _in_thread(interaction: discord.Interaction, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a worker thread (the engine is CPU work); when it is slow — a cold table
    cache, a busy machine — the interaction is deferred ("thinking…") so Discord keeps it."""
    task = asyncio.ensure_future(asyncio.to_thread(fn, *args))
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done:
        await interaction.response.defer(thinking=True)
    return await task


async def _reply(
    interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool = False, **kw: Any
) -> None:
    """Answer, or fill in the deferred "thinking" message (which keeps the defer's visibility)."""
    if interaction.response.is_done():
        await interaction.followup.send(content or discord.utils.MISSING, ephemeral=ephemeral, **kw)
    else:
        await interaction.response.send_message(content, ephemeral=ephemeral, **kw)


class Lookups(commands.Cog):
    def __init__(self, bot: JantakuBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(RulePage)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(RulePage)

    @app_commands.command(
        name="score", description="Score a hand, e.g. 22345678m234p56s ron 7s seat=S riichi"
    )
    @app_commands.describe(
        hand="<concealed> [melds] ron|tsumo <tile> [flags]",
        ruleset="riichi, tenhou, mleague, … (default riichi)",
        house="this club's house rules (/house list) instead of a ruleset",
    )
    async def score_cmd(
        self, interaction: discord.Interaction, hand: str, ruleset: str | None = None, house: str | None = None
    ) -> None:
        rules, house = await self._house_rules(interaction, house, ruleset, "ruleset=" in hand)
        if rules is not None:
            ruleset = rules.name
        line = hand.strip() if not ruleset else f"{hand.strip()} ruleset={ruleset.strip()}"
        check_hand(line)  # a refusal is answered by the command tree's error handler (bot.command_tree)
        style = self.bot.prefs.player(interaction.guild_id, interaction.user.id)
        lang = i18n.lang_of(interaction.locale)
        ans = await _in_thread(interaction, score_hand, line, rules, house, style, lang)
        lines = [f"`{ans.hand}`", *ans.lines]
        embeds = _embeds(ans.title, lines, "score.png", discord.Colour.gold())
        await _reply(interaction, embeds=embeds, file=discord.File(io.BytesIO(ans.png), filename="score.png"))

    @app_commands.command(name="shanten", description="Shanten, waits and the ukeire of each useful discard")
    @app_commands.describe(
        tiles="13 or 14 tiles, e.g. 123m456p789s1123z", ruleset="riichi (default) or another ruleset",
        house="this club's house rules (/house list): their base ruleset's tiles",
    )
    async def shanten_cmd(
        self, interaction: discord.Interaction, tiles: str, ruleset: str | None = None, house: str | None = None
    ) -> None:
        rules, _ = await self._house_rules(interaction, house, ruleset, False)
        if rules is not None:
            ruleset = rules.name  # shanten depends on the tile set, which options do not change
        check_tiles(tiles, ruleset)
        style = self.bot.prefs.player(interaction.guild_id, interaction.user.id)
        ans = await _in_thread(interaction, shanten_of, tiles, ruleset, style, i18n.lang_of(interaction.locale))
        embeds = _embeds(ans.title, ans.lines, "shanten.png", discord.Colour.blue())
        await _reply(
            interaction, embeds=embeds, file=discord.File(io.BytesIO(ans.png), filename="shanten.png")
        )

    async def _house_rules(
        self, interaction: discord.Interaction, house: str | None, ruleset: str | None, named_in_line: bool
    ) -> tuple[Ruleset | None, str | None]:
        """The house rules to answer under: the ones named, else the club's default when no ruleset
        is named; (None, None) for a plain ruleset."""
        if not house and (ruleset or named_in_line):
            return None, None
        rs, name = await self.bot.house.resolve(interaction.guild_id, house, ruleset)
        return (rs, name) if name is not None else (None, None)

    @score_cmd.autocomplete("house")
    @shanten_cmd.autocomplete("house")
    async def house_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        profiles, _ = await self.bot.house.profiles(interaction.guild_id)
        return [
            app_commands.Choice(name=_clip(f"{p.name} ({p.base})", 100), value=p.name)
            for p in profiles
            if current.casefold() in p.name.casefold()
        ][:25]

    @score_cmd.autocomplete("ruleset")
    @shanten_cmd.autocomplete("ruleset")
    async def ruleset_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return _ruleset_suggestions(current, i18n.lang_of(interaction.locale))

    @app_commands.command(
        name="rule",
        description="Explain a rule of one of the six rulesets, by id (R-6.4) or keyword (furiten)",
    )
    @app_commands.describe(
        ruleset="which rules", topic="a rule id such as R-6.4, or keywords such as furiten",
        house="this club's house rules (/house list): what they change, and those rules' texts",
    )
    @app_commands.choices(ruleset=RULESET_CHOICES)
    async def rule_cmd(
        self,
        interaction: discord.Interaction,
        ruleset: app_commands.Choice[str] | None = None,
        topic: str | None = None,
        house: str | None = None,
    ) -> None:
        lang = i18n.lang_of(interaction.locale)
        if house:
            p = await self.bot.house.get(interaction.guild_id, house)
            await interaction.response.send_message(embeds=house_embeds(p.name, p.rules, lang))
            return
        if ruleset is None:
            raise LookupError_("Name a ruleset (`/rule ruleset:riichi`) or this club's house rules (`/rule house:<name>`).")
        name = ruleset.value
        if name in PRESETS:  # a preset of the riichi rules, option by option (issue 30)
            await interaction.response.send_message(embeds=_embeds(name.upper(), preset_text(name, lang), "", discord.Colour.dark_green())[:10])
            return
        if not topic or not topic.strip():
            embed, pages = rule_list_embed(rulebook(name, lang), 0, lang)
            view = page_view(name, 0, pages, interaction.user.id, lang)
            if view is None:
                await interaction.response.send_message(embed=embed)
            else:
                await interaction.response.send_message(embed=embed, view=view)
            return
        entry, book, also = find_rule(name, topic, lang)
        await interaction.response.send_message(embed=rule_embed(entry, book, also[:30], lang))

    @rule_cmd.autocomplete("topic")
    async def topic_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        chosen = getattr(interaction.namespace, "ruleset", None)
        name = getattr(chosen, "value", chosen) or "riichi"
        if name not in RULESETS:
            return []
        return [
            app_commands.Choice(name=_clip(e.label, 100), value=e.id)
            for e in rulebook(str(name), i18n.lang_of(interaction.locale)).suggest(current)
        ]

    rule_cmd.autocomplete("house")(house_autocomplete)


async def setup(bot: JantakuBot) -> None:
    await bot.add_cog(Lookups(bot))

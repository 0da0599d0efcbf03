"""Which rulesets a table plays, and for how long: the ruleset ``/table open`` asks for, checked
and given its length's options, and the ruleset a stored table plays.

Limits: asks each ruleset for its facts (``table_ready``, ``lengths()``, ``counted_length``,
``length_text()``), knows no ruleset by name; no storage, no Discord types.
"""

from __future__ import annotations

import re

from bot import i18n
from bot.i18n import N_, Lang
from bot.storage.repository import TableRow
from bot.tables.model import TableError, quoted
from engine.rules.base import Ruleset, UnknownRuleset, find_ruleset, ruleset_names, rulesets_in_menu_order
from engine.rules.facts import GameLength


def playable() -> list[str]:
    """The rulesets ``/table open`` offers, in menu order: every registered one whose table can
    play a whole game (``Ruleset.table_ready``; tests/cogs/test_variant_games.py plays each
    variant through Discord)."""
    return [rs.name for rs in rulesets_in_menu_order() if rs.table_ready]


def lengths(name: str) -> list[GameLength]:
    """The game lengths a ruleset offers, its own default first (``Ruleset.lengths()``: rounds for
    taiwan16, hands for chinitsu_toutenkou's one-hand settlements, hanchan/tonpuu for the riichi
    family)."""
    return list(find_ruleset(name).lengths())


def length_of(name: str, length: str | None) -> GameLength:
    """The :class:`~engine.rules.facts.GameLength` ``length`` names (None: the ruleset's default).
    Accepts the listed values and their first word (``4`` for ``4-rounds``), their aliases
    (taiwan16's ``tonpuu``/``hanchan`` for 1/2 rounds), and a number the ruleset counts
    (``Ruleset.counted_length``: chinitsu_toutenkou's ``N`` hands)."""
    choices = lengths(name)
    if length is None or not length.strip():
        return choices[0]
    key = length.strip().lower().replace(" ", "-")
    for c in choices:
        if key == c.value or key == c.value.split("-")[0] or key in c.aliases:
            return c
    m = re.fullmatch(r"(\d{1,2})(?:-(?:hands?|rounds?))?", key)
    counted = find_ruleset(name).counted_length(int(m[1])) if m else None
    if counted is not None:
        return counted
    raise TableError(
        "the length of a {ruleset} table is one of {choices}, not {given}",
        ruleset=name, choices=", ".join(c.value for c in choices), given=quoted(length),
    )


def ruleset_for_table(name: str, length: str | None = None) -> Ruleset:
    """The ruleset a table of ``name`` plays, with the length's options (TableError if it cannot)."""
    offered = playable()
    if name not in offered:
        if name in ruleset_names():
            raise TableError(
                "the ruleset '{ruleset}' cannot be played at a table yet; playable: {choices}", ruleset=name, choices=", ".join(offered)
            )
        raise TableError("unknown ruleset {given}: choose one of {choices}", given=quoted(name), choices=", ".join(offered))
    try:
        rs = find_ruleset(name)
    except UnknownRuleset as e:
        raise TableError(str(e)) from None  # not reached: a playable ruleset is a registered one
    opts = length_of(name, length).options
    return rs.with_options(**opts) if opts else rs


def table_ruleset(row: TableRow) -> Ruleset:
    """The ruleset of a stored table: its name and its saved options."""
    rs = find_ruleset(row.ruleset)
    return rs.with_options(**row.options) if row.options else rs


def players(row: TableRow) -> int:
    """How many seats the stored table's game has."""
    return table_ruleset(row).players


def length_text(row: TableRow, lang: Lang = "en") -> str:
    """How long the table's game lasts, in its ruleset's terms ("tonpuu", "1 round", "6 hands"),
    in ``lang`` (the engine's words are English: its hanchan/tonpuu, rounds and hands are read here)."""
    text = table_ruleset(row).length_text()
    if lang == "en":
        return text
    m = re.fullmatch(r"(\d+) (round|hand)s?", text)
    if m is None:
        return i18n.t(lang, _LENGTH_WORDS.get(text, text))
    if m[2] == "round":
        return i18n.tn(lang, "{n} round", "{n} rounds", int(m[1]))
    return i18n.tn(lang, "{n} hand", "{n} hands", int(m[1]))


_LENGTH_WORDS = {"hanchan": N_("hanchan"), "tonpuu": N_("tonpuu")}

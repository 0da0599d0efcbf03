"""The words of a table's messages: tiles, actions (the buttons' labels), rounds, moves, rules,
winds, how a hand without a winner ended, places. Every word goes through the catalogs
(:mod:`bot.i18n`), in the reader's language ``lang``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot import i18n
from bot.i18n import DEFAULT, N_, Lang
from bot.render import variants as vr
from bot.render.names import kind_label, ruleset_label, seat_name, tile_name
from bot.tables import Table
from engine.table.actions import Action, ActionType
from engine.table.game import Game
from engine.tiles import HONOR_BASE

A = ActionType
WINDS = "ESWN"


def tile_label(code: int, lang: Lang = DEFAULT) -> str:
    """A tile as buttons and texts name it: the same name the pictures show (:mod:`bot.render.names`)."""
    return tile_name(code, lang)


_SIMPLE_LABELS = {A.TSUMO: N_("Tsumo!"), A.RON: N_("Ron!"), A.KYUUSHU: N_("Nine terminals")}


def ruleset_word(lang: Lang, english: str) -> str:
    """A word the ruleset names (``riichi_word``, ``pass_word``: English data from bot.render.variants),
    through the catalog when it has it."""
    return english if lang == DEFAULT else i18n.t(lang, english)


def action_label(a: Action, g: Game | None = None, names: Sequence[str] = (), lang: Lang = DEFAULT) -> str:
    """A button's label for any action. With the game (and the seats' names), in the ruleset's
    words: taiwan16's "Declare ready", seigou's "Draw" and whose discard a claim takes (SG-1),
    shoukou's transformation (SK-D6), chinitsu_toutenkou's nuki (CT-D1)."""
    t = a.type

    def tl(code: int) -> str:
        return tile_label(code, lang)

    if t is A.DISCARD:
        return tl(a.tile)
    if t is A.RIICHI:
        word = ruleset_word(lang, vr.declare_word(g)) if g is not None else i18n.t(lang, "Riichi")
        if a.tile >= 0:
            return i18n.t(lang, "{word} {tile}", word=word, tile=tl(a.tile))
        return i18n.t(lang, "{word} on the dealt hand", word=word)  # taiwan16 T-19
    if t is A.OPEN_RIICHI:
        return i18n.t(lang, "Open riichi {tile}", tile=tl(a.tile))
    if t is A.KITA:
        return i18n.t(lang, "Nuki {tile}", tile=kind_label(a.tile, lang)) if vr.is_nuki(a) else i18n.t(lang, "Kita")
    if t is A.PASS:
        return ruleset_word(lang, vr.pass_word(g)) if g is not None else i18n.t(lang, "Pass")
    if t is A.DRAW:
        return i18n.t(lang, "Take the last tile")  # taiwan16 TW-11 haitei_pass
    tiles = " ".join(tl(c) for c in a.tiles)
    if t is A.CHI:
        label = i18n.t(lang, "Chi {tiles}", tiles=tiles)
    elif t is A.PON:
        label = i18n.t(lang, "Pon {tiles}", tiles=tiles)
    elif t is A.DAIMINKAN:
        label = i18n.t(lang, "Kan")
    elif t is A.ANKAN:
        label = i18n.t(lang, "Kan {tile}", tile=kind_label(a.tile, lang))
    elif t is A.KAKAN:
        label = i18n.t(lang, "Add kan {tile}", tile=kind_label(a.tile, lang))
    else:
        simple = _SIMPLE_LABELS.get(t)
        return i18n.t(lang, simple) if simple else t.name.replace("_", " ").capitalize()
    if a.shift:
        label = i18n.t(lang, "{label} ({tile} as {kind})", label=label, tile=tl(a.shift[0]), kind=kind_label(a.shift[1], lang))
    if a.src >= 0:
        who = names[a.src] if a.src < len(names) else i18n.t(lang, "seat {seat}", seat=a.src)
        river = g.seats[a.src].river if g is not None else []
        if g is not None and river:
            label = i18n.t(lang, "{label} · {who}'s {tile}", label=label, who=who, tile=tl(g.code(river[-1])))
        else:
            label = i18n.t(lang, "{label} · {who}'s discard", label=label, who=who)
    return label[:80]


def round_text(g: Game, lang: Lang = DEFAULT) -> str:
    return vr.round_text(g, lang=lang)


def describe(g: Game, t: Table, a: Action, lang: Lang = DEFAULT) -> str:
    who = seat_name(t.seats[a.seat], lang)
    if a.type is A.DISCARD:
        return i18n.t(lang, "{who} discarded {tile}", who=who, tile=tile_label(a.tile, lang))
    if a.type is A.RIICHI:
        if vr.declares_ready(g):
            return i18n.t(lang, "{who} declared ready, discarding {tile}", who=who, tile=tile_label(a.tile, lang))
        return i18n.t(lang, "{who} declared riichi, discarding {tile}", who=who, tile=tile_label(a.tile, lang))
    if a.type is A.OPEN_RIICHI:
        return i18n.t(lang, "{who} declared open riichi, discarding {tile}", who=who, tile=tile_label(a.tile, lang))
    if a.type is A.PASS:
        return i18n.t(lang, "{who} passed", who=who)
    return i18n.t(lang, "{who}: {action}", who=who, action=action_label(a, None, [seat_name(s, lang) for s in t.seats], lang))


def rules_name(row: Any, *, markdown: bool = True, lang: Lang = DEFAULT) -> str:
    """A table's rules as its messages name them: the ruleset (:func:`ruleset_label`), or
    ``club: riichi`` when it was opened with a house-rule profile (the name is the club's text:
    Markdown escaped unless the place shows no Markdown, as a thread's name)."""
    house = getattr(row, "house", None)
    rules = ruleset_label(str(row.ruleset), lang)
    if not house:
        return rules
    return f"{discord.utils.escape_markdown(house) if markdown else house}: {rules}"


def mode_word(lang: Lang, mode: str) -> str:
    return {"live": i18n.t(lang, "live"), "async": i18n.t(lang, "async")}.get(mode, mode)



def wind_word(lang: Lang, wind: int) -> str:
    """A seat wind as the status lines write it: ``E`` (東 in Japanese, the tile's name)."""
    return WINDS[wind] if lang == DEFAULT else kind_label(HONOR_BASE + wind, lang)



#: how a hand without a winner ended (``HandResult.kind``)
DRAW_KINDS = {
    "exhaustive": N_("Exhaustive draw"),
    "nagashi_mangan": N_("Nagashi mangan"),
    "kyuushu_kyuuhai": N_("Abortive draw: nine terminals"),
    "suufon_renda": N_("Abortive draw: four winds"),
    "suucha_riichi": N_("Abortive draw: four riichi"),
    "suukaikan": N_("Abortive draw: four kans"),
    "sanchahou": N_("Abortive draw: triple ron"),
}



def ordinal(n: int, lang: Lang = DEFAULT) -> str:
    if lang != DEFAULT:
        return i18n.t(lang, "place {n}", n=n)  # 1着
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"

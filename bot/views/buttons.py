"""The buttons of a table's messages, in the reader's language: a hand's legal actions
(:func:`hand_view`), the table message's "Show my hand" (:func:`table_buttons`), and the questions
asked on the way (the riichi chooser's discards, a discard to confirm).

A button's meaning is in its ``custom_id`` (the templates below): ``mj:<table>:<serial>:<action>``
plays an engine action, ``mjr:<table>:<serial>:<seat>`` opens the riichi chooser,
``mjw:<table>:<serial>:<action>`` asks to confirm a discard, ``mjh:<table>`` shows the player's
hand. The buttons built here are data only (:class:`Inert`): a click reaches the ``DynamicItem``
of ``cogs.play`` whose template matches its id, after a restart too, and no view is kept per
message.
"""

from __future__ import annotations

from typing import Any

import discord

from bot import i18n
from bot.i18n import DEFAULT, Lang
from bot.render import variants as vr
from bot.render.names import seat_name
from bot.tables import Table
from bot.views.words import action_label, ruleset_word, tile_label
from engine.table.actions import Action, ActionType

A = ActionType

#: the custom_id templates (``cogs.play`` matches clicks with them)
ACTION_TEMPLATE = r"mj:(?P<table>\d+):(?P<serial>\d+):(?P<act>[0-9a-z>@]+)"
RIICHI_TEMPLATE = r"mjr:(?P<table>\d+):(?P<serial>\d+):(?P<seat>\d)"
CONFIRM_TEMPLATE = r"mjw:(?P<table>\d+):(?P<serial>\d+):(?P<act>[0-9a-z]+)"
SHOW_HAND_TEMPLATE = r"mjh:(?P<table>\d+)"

_STYLE = {
    A.TSUMO: discord.ButtonStyle.success,
    A.RON: discord.ButtonStyle.success,
    A.RIICHI: discord.ButtonStyle.danger,
    A.PASS: discord.ButtonStyle.secondary,
    A.DISCARD: discord.ButtonStyle.secondary,
}


class Inert(discord.ui.Button[Any]):
    """A button that is data only: discord.py keeps no view for a message of these (a click is
    routed by its ``custom_id`` to a ``DynamicItem``)."""

    def is_dispatchable(self) -> bool:
        return False


def action_button(table: int, serial: int, act: str, *, label: str, style: discord.ButtonStyle = discord.ButtonStyle.primary, row: int | None = None) -> Inert:
    return Inert(label=label, style=style, custom_id=f"mj:{table}:{serial}:{act}", row=row)


def confirm_button(table: int, serial: int, act: str, *, label: str, style: discord.ButtonStyle = discord.ButtonStyle.danger, row: int | None = None) -> Inert:
    return Inert(label=label, style=style, custom_id=f"mjw:{table}:{serial}:{act}", row=row)


def riichi_button(table: int, serial: int, seat: int, *, label: str, row: int | None = None) -> Inert:
    return Inert(label=label, style=discord.ButtonStyle.danger, custom_id=f"mjr:{table}:{serial}:{seat}", row=row)


def show_hand_button(table: int, *, label: str) -> Inert:
    return Inert(label=label, style=discord.ButtonStyle.secondary, custom_id=f"mjh:{table}")


_ROWS, _PER_ROW = 5, 5  # Discord: at most 5 rows of 5 buttons


def _rows(n: int) -> int:
    return -(-n // _PER_ROW)


def hand_view(t: Table, seat: int, lang: Lang = DEFAULT) -> discord.ui.View:
    """One button per legal action of this seat: the discards on the first rows (a taiwan16 hand
    may need four) in the order of the hand picture, named as the picture names the tiles, then the
    riichi chooser ("Declare ready…" in taiwan16, with open riichi in chinitsu_toutenkou), wins,
    calls, kans, nuki and pass. A discard that deals into an open riichi asks to confirm first
    (CT-F2); so does every discard of a player who turned on two-tap discards. Labels in ``lang``."""
    g = t.game
    assert g is not None
    serial = t.decision_serial()
    names = [seat_name(s, lang) for s in t.seats]
    view = discord.ui.View(timeout=None)
    legal = list(g.legal_actions(seat))
    discards = vr.in_hand_order(g, seat, [a for a in legal if a.type is A.DISCARD])
    chosen = [a for a in legal if a.type in (A.RIICHI, A.OPEN_RIICHI) and a.tile >= 0]  # with a discard
    others = [a for a in legal if a.type is not A.DISCARD and a not in chosen]
    extra: list[tuple[str, Action | None]] = []
    if chosen:
        extra.append(("riichi", None))
    extra += [("act", a) for a in others]
    room = (_ROWS - min(_rows(len(discards)), _ROWS - 1)) * _PER_ROW
    if len(extra) > room:  # more choices than buttons (shoukou's transformed calls): wins and pass first
        keep = [e for e in extra if e[1] is not None and e[1].type in (A.TSUMO, A.RON, A.PASS)]
        rest = [e for e in extra if e not in keep]
        extra = [e for e in extra if e in keep or e in rest[: room - len(keep)]]
    discards = discards[: (_ROWS - _rows(len(extra))) * _PER_ROW]  # the rows the others leave
    drows = _rows(len(discards))
    danger = vr.dangerous_discards(g, seat, discards)
    two_tap = t.seats[seat].confirm_discard
    for n, a in enumerate(discards):
        if a.tile in danger:
            view.add_item(confirm_button(t.id, serial, a.text, label=f"⚠ {action_label(a, g, names, lang)}", row=n // _PER_ROW))
        elif two_tap:
            view.add_item(
                confirm_button(t.id, serial, a.text, label=action_label(a, g, names, lang), style=discord.ButtonStyle.secondary, row=n // _PER_ROW)
            )
        else:
            view.add_item(
                action_button(t.id, serial, a.text, label=action_label(a, g, names, lang), style=discord.ButtonStyle.secondary, row=n // _PER_ROW)
            )
    for i, (kind, other) in enumerate(extra):
        row = drows + i // _PER_ROW
        if kind == "riichi":
            view.add_item(riichi_button(t.id, serial, seat, row=row, label=i18n.t(lang, "{word}…", word=ruleset_word(lang, vr.declare_word(g)))))
        else:
            assert other is not None
            style = _STYLE.get(other.type, discord.ButtonStyle.primary)
            view.add_item(action_button(t.id, serial, other.text, label=action_label(other, g, names, lang), style=style, row=row))
    return view


def table_buttons(t: Table, lang: Lang = DEFAULT) -> discord.ui.View:
    """The table message's button, in the club's language ``lang``."""
    view = discord.ui.View(timeout=None)
    view.add_item(show_hand_button(t.id, label=i18n.t(lang, "Show my hand")))
    return view


def riichi_question(t: Table, serial: int, seat: int, lang: Lang = DEFAULT) -> tuple[str, discord.ui.View]:
    """The riichi chooser: which discard to declare with (open riichi too, where the ruleset has it)."""
    g = t.game
    assert g is not None
    legal = list(g.legal_actions(seat))
    options = vr.in_hand_order(g, seat, [a for a in legal if a.type is A.RIICHI and a.tile >= 0])
    options += vr.in_hand_order(g, seat, [a for a in legal if a.type is A.OPEN_RIICHI])
    view = discord.ui.View(timeout=None)
    for i, a in enumerate(options[:25]):
        view.add_item(action_button(t.id, serial, a.text, label=action_label(a, g, (), lang), style=discord.ButtonStyle.danger, row=i // 5))
    if vr.declares_ready(g):
        question = i18n.t(lang, "Declare ready (tenpai) with which discard? No stick is paid; after it you may not change your hand.")
    elif any(a.type is A.OPEN_RIICHI for a in options):
        question = i18n.t(
            lang,
            "Declare riichi with which discard? Open riichi shows your hand to everyone (2 points, +50 if a player not in riichi deals in).",
        )
    else:
        question = i18n.t(lang, "Declare riichi with which discard?")
    return question, view


def confirm_question(t: Table, serial: int, a: Action, lang: Lang = DEFAULT) -> tuple[str, discord.ui.View]:
    """A discard to confirm: plainly (two-tap discards), or naming the open riichi it deals into
    and what it pays them (CT-F2)."""
    g = t.game
    assert g is not None
    names = [seat_name(s, lang) for s in t.seats]
    into = vr.dangerous_discards(g, a.seat, [a]).get(a.tile, [])
    tile = tile_label(a.tile, lang)
    view = discord.ui.View(timeout=None)
    if not into:
        view.add_item(action_button(t.id, serial, a.text, label=i18n.t(lang, "Discard {tile}", tile=tile), style=discord.ButtonStyle.primary))
        return i18n.t(lang, "Discard {tile}?", tile=tile), view
    who = ", ".join(names[s] for s in into)
    view.add_item(action_button(t.id, serial, a.text, label=i18n.t(lang, "Discard {tile} anyway", tile=tile), style=discord.ButtonStyle.danger))
    if g.seats[a.seat].riichi:
        text = i18n.t(lang, "Discarding {tile} deals into the open riichi of {who}: it wins on that tile. Discard it anyway?", tile=tile, who=who)
    else:
        text = i18n.t(
            lang,
            "Discarding {tile} deals into the open riichi of {who}: it wins on that tile and pays them 50 more. Discard it anyway?",
            tile=tile,
            who=who,
        )
    return text, view

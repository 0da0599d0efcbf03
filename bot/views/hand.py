"""What a player's own hand message says and shows: its text (:func:`hand_text`: whose turn, what
happened since their last move, their waits), its buttons (:func:`bot.views.buttons.hand_view`),
its picture's arguments (:func:`hand_args`), all at one moment of the game (:class:`HandState`).
Only the player's own tiles and what everyone sees."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot import i18n
from bot.i18n import DEFAULT, N_, Lang
from bot.outbound.delivery import Shown
from bot.render import variants as vr
from bot.render.names import seat_name
from bot.render.waits import waits_line
from bot.tables import Table
from bot.views.buttons import hand_view
from bot.views.table import status_text
from bot.views.words import describe, ordinal, round_text, ruleset_word, tile_label, wind_word
from engine.table.actions import ActionType
from engine.table.game import Phase

A = ActionType
NEXT_MOVE = N_("Your next move is in the newest message below.")


@dataclass(eq=False)
class HandState(Shown):
    """What a hand message should show: text, picture (None: the one it shows is still right) and
    buttons (None: no buttons), with the moment of the game it was taken at: the hand drawn
    (``sig``), the decision its buttons answer (-1: none) and the hand's index."""

    sig: tuple[Any, ...] = ()
    decision: int = -1
    hand: int = -1

    @property
    def shows(self) -> tuple[Any, ...]:
        """What a message showing this state shows: its text, its buttons (their custom_ids say
        what each does) and the hand drawn."""
        buttons = tuple(getattr(c, "custom_id", None) for c in self.view.children) if self.view is not None else ()
        return (self.content, buttons, self.sig)


def hand_args(t: Table, seat: int, lang: Lang = DEFAULT) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The arguments of ``render_hand`` for this seat's hand picture (its title in ``lang``)."""
    g = t.game
    assert g is not None
    tiles, drawn = vr.hand_tiles(g, seat)  # the order the discard buttons follow
    melds = [vr.meld_of(g, m) for m in g.seats[seat].melds] + vr.hand_extras(g, seat)
    title = i18n.t(
        lang,
        "Table #{table} · {round} · you are {wind} · {score} {unit}",
        table=t.id,
        round=round_text(g, lang),
        wind=wind_word(lang, vr.seat_wind(g, seat)),
        score=g.scores[seat],
        unit=ruleset_word(lang, vr.score_unit(g)),
    )
    return (tiles, melds, drawn), {"title": title, "lang": lang}


def hand_text(
    t: Table, seat: int, *, buttons: bool = True, notes: Sequence[str] = (), results_seen: int | None = None, lang: Lang = DEFAULT
) -> str:
    """The text of a hand message, in ``lang``; ``buttons=False`` for a message whose buttons
    are elsewhere (the player's next move came as a new message); ``notes`` go first (what the
    clock did); ``results_seen``: how many of the game's hand results the player was told of
    (None: all of them)."""
    g = t.game
    assert g is not None
    st = g.seats[seat]
    you = i18n.t(lang, "Your hand ({name}, {wind})", name=seat_name(t.seats[seat], lang), wind=wind_word(lang, vr.seat_wind(g, seat)))
    lines = [*notes, you, status_text(t, None, lang)]
    lines += news(t, seat, results_seen, lang)
    waits = waits_line(g, seat, lang) if t.seats[seat].show_waits else None
    if seat in g.to_act() and not g.over and not buttons:
        lines.append(i18n.t(lang, NEXT_MOVE))
        lines += [waits] if waits else []
    elif seat in g.to_act() and not g.over:
        names = [seat_name(s, lang) for s in t.seats]
        if g.phase is Phase.TURN:
            lines.append(i18n.t(lang, "**Your turn.** Pick a tile to discard or an action."))
        elif g.phase is Phase.CLAIM:
            lines.append(vr.claim_text(g, seat, names, lang=lang))
        elif g.phase is Phase.CHANKAN:
            lines.append(
                i18n.t(
                    lang,
                    "**{who} sets aside {tile}.** Rob it (ron) or pass.",
                    who=names[g.current],
                    tile=tile_label(g.code(g.kakan_tile), lang),
                )
            )
        else:
            lines.append(
                i18n.t(
                    lang,
                    "**{who} discarded {tile}.** Call it or pass.",
                    who=seat_name(t.seats[g.last_discarder], lang),
                    tile=tile_label(g.code(g.last_discard), lang),
                )
            )
        lines += [waits] if waits else []
        lines += vr.warnings(g, seat, g.legal_actions(seat), names, lang=lang)  # lazy: listed only when needed
    elif waits:
        lines.append(waits)
    shown = vr.hand_extras(g, seat)
    if shown and st.kita:
        lines.append(i18n.t(lang, "Set aside: {tiles}", tiles=" ".join(tile_label(c, lang) for c in shown[0][1])))
    return "\n".join(lines)[:2000]


def news(t: Table, seat: int, results_seen: int | None = None, lang: Lang = DEFAULT) -> list[str]:
    """What happened since this player's own last move: the others' moves, their own result
    when a hand ended, their place when the game ended. It depends on the game only (and on
    the results already told), so one state always reads the same."""
    g = t.game
    assert g is not None
    out = []
    last = next((i for i in range(len(g.actions) - 1, -1, -1) if g.actions[i].seat == seat), None)
    if last is not None and not g.over:
        moves = [describe(g, t, a, lang) for a in g.actions[last + 1 :] if a.type is not A.PASS and a.seat != seat]
        if moves:
            out.append(i18n.t(lang, "Since your last move: {moves}", moves="; ".join(moves[-8:])))
    for i in range(len(g.results) if results_seen is None else results_seen, len(g.results)):
        r = g.results[i]
        d = r.deltas[seat] if seat < len(r.deltas) else 0
        won = any(w.seat == seat for w in r.wins)
        dealt = any(w.from_seat == seat and w.seat != seat for w in r.wins)
        what = i18n.t(lang, "you won") if won else i18n.t(lang, "you dealt in") if dealt else i18n.t(lang, "the hand ended")
        out.append(
            i18n.t(
                lang,
                "Hand over ({hand}): {what}, {delta} {unit}.",
                hand=vr.result_label(g, i, lang=lang),
                what=what,
                delta=f"{d:+d}",
                unit=ruleset_word(lang, vr.score_unit(g)),
            )
        )
    if g.over and g.final_scores:
        place = g.ranking().index(seat) + 1
        out.append(
            i18n.t(
                lang,
                "**Game over: you placed {place} with {score} {unit}.**",
                place=ordinal(place, lang),
                score=g.final_scores[seat],
                unit=ruleset_word(lang, vr.final_unit(g) or vr.score_unit(g)),
            )
        )
    return out


def hand_now(
    t: Table, seat: int, *, buttons: bool, notes: Sequence[str] = (), results_seen: int | None = None, lang: Lang = DEFAULT
) -> HandState:
    """The hand message's state at this moment, without its picture, in ``lang``."""
    g = t.game
    assert g is not None
    content = hand_text(t, seat, buttons=buttons, notes=notes, results_seen=results_seen, lang=lang)
    acting = not g.over and seat in g.to_act()
    view = hand_view(t, seat, lang) if buttons and acting else None
    sig = (tuple(sorted(g.seats[seat].tiles)), len(g.seats[seat].melds), g.hand_index)
    return HandState(content, None, view, sig, t.decision_serial() if acting else -1, g.hand_index)


"""``/replay``: a finished game's states, one per action, rebuilt from its stored log by the engine.

:func:`finished` refuses anything but a finished game (a running, open or abandoned table: its
seed and hidden tiles stay secret). :func:`step` replays the game's stored actions on a fresh
:class:`~engine.table.game.Game` of its ruleset, options and seed up to a position (the number of
actions played, or where a button's move goes from one: :func:`target`), and returns that state
with its caption and where each hand ends (the ⏮ ⏭ stops). :func:`picture_args` says what the render worker draws for it: the table from one seat,
with that seat's concealed tiles only (``seat`` job), or every hand open (``open`` job). No
Discord types here, and no rule logic: the engine plays the actions; the texts are the presenter's,
and the caption's own words and the picture's title are in the ``lang`` asked for.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from bot import i18n
from bot.errors import UserError
from bot.i18n import Lang
from bot.render import variants as vr
from bot.render.names import kind_label, seat_name
from bot.tables import Table, quoted, table_ruleset
from bot.views.presenter import Presenter
from bot.views.table import final_text, result_text, table_view
from bot.views.words import WINDS, describe
from engine.table.actions import Action
from engine.table.game import Game

__all__ = ["ALL", "ReplayError", "Step", "finished", "parse_seat", "picture_args", "step", "target"]

#: the seat choice that shows every hand open (allowed only because the game is over)
ALL = -1
CAPTION_LIMIT = 2000  # Discord's message length


class ReplayError(UserError):
    """A replay refused: not a finished game, a seat it does not have, a position outside it."""

    full_stop = True


def finished(t: Table) -> Game:
    """The table's finished game, or a refusal in one sentence (nothing of a running game shown)."""
    g = t.game
    if t.row.status != "finished" or g is None or not g.over:
        if t.row.status == "open":
            raise ReplayError("Table #{table} has not started: only a finished game can be replayed", table=t.id)
        if t.row.status == "playing":
            raise ReplayError("Table #{table} is still being played: only a finished game can be replayed", table=t.id)
        if t.row.status == "abandoned":
            raise ReplayError("Table #{table} was abandoned before its end: only a finished game can be replayed", table=t.id)
        raise ReplayError("Table #{table} is not finished: only a finished game can be replayed", table=t.id)
    return g


def parse_seat(t: Table, text: str | None, user_id: int) -> int:
    """``all``, a seat number (1 = the first dealer), a wind letter of the first hand or a seated
    player's name; by default the asker's own seat, or every hand open for a non-player."""
    players = len(t.seats)
    if text is None or not text.strip():
        own = t.seat_of(user_id)
        return ALL if own is None else own
    word = text.strip().lower()
    if word == "all":
        return ALL
    if word.isdigit() and 1 <= int(word) <= players:
        return int(word) - 1
    if len(word) == 1 and word.upper() in WINDS[:players]:
        return WINDS.index(word.upper())
    for s in t.seats:
        if s.name.lower() == word:
            return s.seat
    raise ReplayError(
        "Table #{table} has no seat {given}: choose all, 1-{players} or a player's name", table=t.id, given=quoted(text.strip()), players=players
    )


@dataclass(slots=True)
class Step:
    """The game after ``index`` of its ``total`` actions, as a table the presenter can draw."""

    table: Table  # the finished table's row with the game at this position
    index: int
    total: int
    stops: list[int]  # the positions ⏮ ⏭ go to: 0, each hand's end (the next hand dealt), the end
    caption: str


def _stops(actions: list[Action], g: Game) -> list[int]:
    """0, the position after each action that ended a hand, played on ``g`` (a fresh game)."""
    stops = [0]
    for i, a in enumerate(actions, 1):
        before = len(g.results)
        g.apply(a)  # validated when the game was played and again when the table was loaded
        if len(g.results) > before:
            stops.append(i)
    return stops


def target(index: int, total: int, stops: list[int], move: str) -> int:
    """Where a button goes from ``index``: ``f``/``b`` one action on/back, ``n``/``p`` to the
    next/previous stop; -1 or ``total + 1`` past either end (such a click changes nothing)."""
    if move == "f":
        return index + 1
    if move == "b":
        return index - 1
    if move == "n":
        return next((x for x in stops if x > index), total + 1)
    return next((x for x in reversed(stops) if x < index), -1)


def _rebuild(t: Table, index: int, seat: int, move: str, lang: Lang = "en") -> Step | int:
    done = t.game
    assert done is not None
    actions = list(done.actions)
    rs, seed = table_ruleset(t.row), t.row.seed
    stops = _stops(actions, Game(rs, seed))
    if move:
        index = target(index, len(actions), stops, move)
        if not 0 <= index <= len(actions):
            return index
    at = Game(rs, seed)
    for a in actions[:index]:
        at.apply(a)
    shown = Table(row=t.row, game=at)
    return Step(shown, index, len(actions), stops, _caption(shown, actions, index, seat, ended=index in stops[1:], lang=lang))


def _caption(t: Table, actions: list[Action], index: int, seat: int, *, ended: bool, lang: Lang = "en") -> str:
    g = t.game
    assert g is not None
    if seat == ALL:
        whose = i18n.t(lang, "every hand open")
    else:
        whose = i18n.t(lang, "{player}'s view", player=seat_name(t.seats[seat], lang))
    hand = vr.result_label(g, len(g.results) - 1, lang=lang) if g.over else vr.round_text(g, lang=lang)
    lines = [
        i18n.t(
            lang, "**Table #{table} replay** · {hand} · action {index} of {total} · {whose}",
            table=t.id, hand=hand, index=index, total=len(actions), whose=whose,
        )
    ]
    lines.append(describe(g, t, actions[index - 1]) if index else i18n.t(lang, "The deal."))
    if ended:
        lines.append(result_text(t, len(g.results) - 1)[0])
    if g.over:
        lines.append(final_text(t))
    return "\n".join(lines)[:CAPTION_LIMIT]


async def step(t: Table, index: int, seat: int, move: str = "", lang: Lang = "en") -> Step:
    """The finished game at ``index`` (0: the deal, ``total``: the end), or where ``move`` (see
    :func:`target`) goes from there, replayed in a thread so the event loop is never held; a
    position outside the game is refused in one sentence."""
    g = finished(t)
    total = len(g.actions)
    if not 0 <= index <= total:
        raise ReplayError("Table #{table}'s game has no position {index}: nothing changed", table=t.id, index=index)
    if seat != ALL and not 0 <= seat < len(t.seats):
        raise ReplayError("Table #{table} has no seat {seat}: nothing changed", table=t.id, seat=seat + 1)
    s = await asyncio.to_thread(_rebuild, t, index, seat, move, lang)
    if isinstance(s, int):
        if s > total:
            raise ReplayError("The replay is already at the end of the game, so nothing changed")
        raise ReplayError("The replay is already at the start of the game, so nothing changed")
    return s


def _wind(lang: Lang, wind: int) -> str:
    """A seat wind on the picture: the presenter's letter, the wind tile's name in other languages."""
    return WINDS[wind] if lang == "en" else kind_label(27 + wind, lang)


def picture_args(presenter: Presenter, s: Step, seat: int, lang: Lang = "en") -> tuple[str, tuple[Any, ...], dict[str, Any]]:
    """The render job for this step: the table from ``seat`` with that seat's hand only, or
    (:data:`ALL`) the table from the first dealer's seat with every hand under it."""
    t, g = s.table, s.table.game
    assert g is not None
    if seat != ALL:
        args, kwargs = presenter.hand_args(t, seat, lang)
        kwargs["title"] = f"{seat_name(t.seats[seat], lang)} · {_wind(lang, vr.seat_wind(g, seat))} · {g.scores[seat]} {vr.score_unit(g, lang=lang)}"
        return "seat", (table_view(t, bottom=seat, lang=lang), *args), kwargs
    hands = []
    for n in range(g.players):
        (tiles, melds, drawn), _ = presenter.hand_args(t, n)
        hands.append((f"{seat_name(t.seats[n], lang)} · {_wind(lang, vr.seat_wind(g, n))}", tiles, melds, drawn))
    return "open", (table_view(t, bottom=0, lang=lang), hands), {"lang": lang}

"""A win in words: the one place that words a scored hand, in the ruleset's units.

Three readers, one wording: the result message's line (:func:`win_summary`), the result
picture's rows (:func:`win_lines`) and ``/score``'s rows and value (:func:`score_rows`). Each reads
the scoring result's yaku and its typed breakdown (:mod:`engine.scoring.breakdown`), never its
``details``; how a win counts is the ruleset's :attr:`~engine.rules.base.Ruleset.hand_value`:

* ``han_fu``: yaku in han, han and fu (or yakuman) and points; pk's bazoro on the PK-0 table
  (:mod:`.pk`), shoukou's transformations (:mod:`.shoukou`);
* ``tai``: taiwan16's tai items and chips (:mod:`.tai`);
* ``points``: chinitsu_toutenkou's point items and the kinds its Whites counted as
  (:mod:`.chinitsu_toutenkou`).

Each variant's own words are in its module here (catalog messages); yaku are named by
:func:`bot.render.names.yaku_name`. Every text is in ``lang`` (English unless given).
Pure functions (no Discord, no I/O).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot import i18n
from bot.i18n import DEFAULT, N_, Lang, t, tn
from engine.rules.facts import HandValue
from engine.scoring.result import ScoreResult
from engine.table.game import Game

from ..names import yaku_name
from . import chinitsu_toutenkou, pk, shoukou, tai

__all__ = ["LIMIT_NAMES", "amount", "score_rows", "unit_of", "win_lines", "win_summary"]

#: the limit hands' names as the catalogs have them (ScoreResult.limit, kazoe spelt out)
LIMIT_NAMES = (N_("mangan"), N_("haneman"), N_("baiman"), N_("sanbaiman"), N_("kazoe yakuman"), N_("yakuman"))
_LIMITS = {"kazoe": "kazoe yakuman"}
#: what a hand's value counts in, by how the ruleset counts it
_UNITS: dict[HandValue, str] = {"han_fu": "han", "tai": "tai", "points": "points"}


def unit_of(hand_value: HandValue) -> str:
    """The unit ``/score`` counts a yaku in: ``han``, ``tai`` or ``points``."""
    return _UNITS[hand_value]


def _list(lang: Lang, items: Sequence[str]) -> str:
    return i18n.t(lang, ", ").join(items)


def _line(name: str, value: str) -> str:
    """A result picture's line: name and value in two columns."""
    return f"{name}\t{value}"


def amount(n: int, unit: str, lang: Lang = DEFAULT) -> str:
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


# -- the result message --------------------------------------------------------------------------


def win_summary(g: Game, sc: ScoreResult, *, lang: Lang = DEFAULT) -> str:
    """One win's breakdown and value for the result message, in the ruleset's units."""
    how = g.ruleset.hand_value
    if how == "tai":
        listed = _list(lang, [f"{n} {v}" for n, v in tai.items(sc, lang)]) or i18n.t(lang, "no tai items")
        return tai.summary(sc, listed, lang)
    if how == "points":
        listed = _list(lang, [f"{yaku_name(y.name, lang)} {y.han}" for y in sc.yaku])
        return chinitsu_toutenkou.summary(sc, listed, lang)
    yakuman = i18n.t(lang, "yakuman")
    yaku = _list(lang, [f"{yaku_name(y.name, lang)} {y.han if not sc.yakuman else yakuman}" for y in sc.yaku])
    bazoro = pk.bazoro_of(sc)
    if sc.yakuman:
        value = i18n.t(lang, "{n}× yakuman", n=sc.yakuman)
    elif bazoro is not None:
        value = pk.value(sc, bazoro, lang)
    else:
        value = i18n.t(lang, "{han} han {fu} fu", han=sc.han, fu=sc.fu)
    points = f"{sc.points:,}"
    moved = shoukou.moved(sc, lang)
    if moved:
        return i18n.t(
            lang, "{yaku} — {value}, {points} points; transformations: {moved}", yaku=yaku, value=value, points=points, moved=_list(lang, moved)
        )
    return i18n.t(lang, "{yaku} — {value}, {points} points", yaku=yaku, value=value, points=points)


# -- the result picture --------------------------------------------------------------------------


def win_lines(g: Game, sc: ScoreResult, *, lang: Lang = DEFAULT) -> list[str]:
    """The result picture's lines (``name\\tvalue``) for one win, in the ruleset's units, the
    yaku by the names ``/score`` uses (:func:`~bot.render.names.yaku_name`)."""
    how = g.ruleset.hand_value
    total = i18n.t(lang, "Total")
    if how == "tai":
        return [ln if isinstance(ln, str) else _line(*ln) for ln in tai.lines(sc, total, lang)]
    if how == "points":
        rows = [(yaku_name(y.name, lang), y.han) for y in sc.yaku]
        return [_line(*ln) for ln in chinitsu_toutenkou.lines(sc, rows, total, lang)]
    if sc.yakuman:
        lines = [_line(yaku_name(y.name, lang), i18n.t(lang, "yakuman")) for y in sc.yaku]
    else:
        lines = [_line(yaku_name(y.name, lang), i18n.t(lang, "{n} han", n=y.han)) for y in sc.yaku]
    bazoro = pk.bazoro_of(sc)
    points = f"{sc.points:,}"
    if sc.yakuman == 1:
        lines.append(_line(total, i18n.t(lang, "yakuman = {points}", points=points)))
    elif sc.yakuman:
        lines.append(_line(total, i18n.t(lang, "{n}× yakuman = {points}", n=sc.yakuman, points=points)))
    elif bazoro is not None:
        lines += [_line(*ln) for ln in pk.lines(bazoro, points, lang)]
    else:
        lines.append(_line(total, i18n.t(lang, "{han} han {fu} fu = {points}", han=sc.han, fu=sc.fu, points=points)))
    for m in shoukou.moved(sc, lang):
        lines.append(_line(shoukou.word(lang), m))
    return lines


# -- /score --------------------------------------------------------------------------------------


def score_rows(r: ScoreResult, hand_value: HandValue, lang: Lang = DEFAULT) -> tuple[list[tuple[str, str]], str]:
    """``/score``'s rows (yaku, amount) and its value (``3 han 30 fu (mangan)``, ``+ 2 bazoro``)."""
    unit = unit_of(hand_value)
    rows: list[tuple[str, str]] = []
    for y in r.yaku:
        if r.yakuman and y.han >= 13 and unit == "han":
            rows.append((yaku_name(y.name, lang), _yakuman(y.han // 13, lang)))
        else:
            rows.append((yaku_name(y.name, lang), amount(y.han, unit, lang)))
    if r.yakuman and unit == "han":
        head = _yakuman(r.yakuman, lang)
    elif unit == "han" and r.fu:
        head = t(lang, "{han} han {fu} fu", han=r.han, fu=r.fu)
    else:
        head = amount(r.han, unit, lang)
    bazoro = pk.bazoro_of(r)
    if bazoro is not None and unit == "han":
        head = pk.head(head, bazoro, lang)
    limit = _LIMITS.get(r.limit, r.limit)
    if limit and limit != "yakuman":
        head = t(lang, "{value} ({limit})", value=head, limit=t(lang, limit))
    return rows, head

"""``/score``: one hand line scored by the engine, as text lines and a picture, in the asker's language.

The hand grammar is :func:`engine.notation.parse_hand`'s; the value is the ruleset's
(``Ruleset.score``), worded by :mod:`bot.render.wins` (the one place a win is worded), drawn by
:mod:`bot.render.lookup`. A variant's extra result fields (``details``) are shown as the engine
words them. No Discord here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import DEFAULT, N_, Lang, t, term
from bot.render.lookup import LookupMeld, ScoreCard, render_score_card
from bot.render.names import ruleset_label, tile_name
from bot.render.tiles import Style
from bot.render.variants import ROUND
from bot.render.wins import score_rows
from engine.notation import WINDS, HandSpec, format_hand, parse_hand
from engine.rules import find_ruleset, ruleset_names
from engine.rules.base import Ruleset
from engine.scoring import score
from engine.tiles import RED, NotationError, kind_of

from .refusals import LookupError_, Unreadable, caret, clip, unknown_ruleset

__all__ = ["ScoreAnswer", "check_hand", "score_hand", "sort_codes"]

#: the seats of a payment, by the wind letters of the engine (named as the rounds are)
_SEATS = dict(zip(WINDS, ROUND, strict=True))


def sort_codes(codes: Sequence[int]) -> list[int]:
    return sorted(codes, key=lambda c: (kind_of(c), c & RED))



@dataclass
class ScoreAnswer:
    title: str
    lines: list[str]
    png: bytes
    hand: str
    ruleset: str


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


# result fields a variant may add that repeat what the rows already show
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
        raise unknown_ruleset(spec.ruleset, shanten=False)
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
        shown = caret(format_hand(spec), None)
        if r.reason == "no_yaku":
            raise LookupError_("That hand cannot win: it is complete but has no yaku.\n{caret}", caret=shown)
        raise LookupError_("That hand cannot win: it is not a complete hand.\n{caret}", caret=shown)
    hand_value = find_ruleset(name).hand_value
    rows, head = score_rows(r, hand_value, lang)
    if hand_value == "han_fu":
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
            lines.append(clip(f"{k.replace('_', ' ')}: {text}", 1000))
    return ScoreAnswer(title, lines, png, format_hand(spec), name)


def _seat_name(key: str, spec: HandSpec, lang: Lang = DEFAULT) -> str:
    if key in WINDS:
        who = t(lang, _SEATS[key])
        return t(lang, "{seat} (winner)", seat=who) if WINDS.index(key) == spec.ctx.seat_wind else who
    if key == "discarder":  # a ron whose line names no discarder (from=)
        return t(lang, "discarder")
    return key


def _tile_text(code: int, lang: Lang = DEFAULT) -> str:
    return tile_name(code, lang)  # the name the buttons, texts and pictures use (bot.render.names)

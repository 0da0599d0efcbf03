"""House rules and presets as they are played (issue 30): each rule that a club's house rules, or
the ``ema`` and ``wrc`` presets, play differently from the rulebook whose texts apply (riichi's for
both presets), told in its own words with its own values — "4 han 30 fu is a mangan, 8,000" after
``kiriage true``, "uma +30/+10/−10/−30" — instead of the standard text it replaces.

:func:`rule_changes` lists the changed options against the book's ruleset (so a preset is described
option by option even though it is "unchanged" against itself); :func:`changed_rule_lines` gives the
lines ``/rule house:`` and ``/house show`` print. The texts are catalog messages (English and
Japanese); an option with no text of its own is said as its description with the value played and
the book's value. Chombo is the options ``chombo`` and ``chombo_penalty`` (a score sheet applies them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bot.i18n import Lang, t, term
from bot.render.names import ruleset_label
from engine.rules.base import Ruleset, find_ruleset, ruleset_names
from engine.rules.catalog import OptionSpec, option_specs, show_value


def _presets() -> tuple[str, ...]:
    """Every ruleset that plays another's rule book with options of its own (the riichi presets: tenhou,
    ema, wrc, ...; sanma): the ones described option by option, asked of the rulesets themselves."""
    return tuple(n for n in ruleset_names() if find_ruleset(n).rule_book != n)


#: the presets described option by option
PRESETS = _presets()


@dataclass(frozen=True, slots=True)
class Change:
    key: str
    value: Any  # as played
    usual: Any  # in the rulebook's own ruleset
    rule: str  # the rule id(s) of the option
    spec: OptionSpec


def rule_changes(rules: Ruleset) -> list[Change]:
    """The options ``rules`` plays differently from the ruleset whose rule texts apply."""
    try:
        book = find_ruleset(rules.rule_book)
    except Exception:
        book = find_ruleset(rules.name)
    usual = {s.key: s.value for s in option_specs(book)}
    return [Change(s.key, s.value, usual[s.key], s.rule, s) for s in option_specs(rules) if s.key in usual and s.value != usual[s.key]]


def _pts(n: Any) -> str:
    return f"{n:,}" if isinstance(n, int) else str(n)


def _uma(v: Any) -> str:
    return "/".join(f"{x:+g}".replace("-", "−") for x in v) if isinstance(v, tuple) else str(v)


def _own(c: Change, rules: Ruleset, lang: Lang) -> str | None:
    """The rule in its own words as played (None: no text of its own)."""
    v, o = c.value, rules.options
    if c.key == "kiriage":
        if v:
            return t(lang, "Kiriage mangan: 4 han 30 fu and 3 han 60 fu are scored as a mangan, 8,000 (dealer 12,000), not 7,700 (11,600).")
        return t(lang, "No kiriage: 4 han 30 fu and 3 han 60 fu stay 7,700 (dealer 11,600); a mangan starts at 5 han or 4 han 40 fu.")
    if c.key in ("chombo", "chombo_penalty"):
        if o.chombo == "penalty":
            return t(lang, "Chombo: the offender loses {points} points off their final result, after uma.", points=_pts(o.chombo_penalty))
        return t(lang, "Chombo: the offender pays a mangan as if the others had won by tsumo (a non-dealer 2,000 to each and 4,000 to "
                       "the dealer, a dealer 4,000 to each) and the hand is replayed.")
    if c.key == "uma":
        return t(lang, "Uma: {uma} (in thousands, first to last place), added to each player's final result.", uma=_uma(v))
    if c.key in ("start_points", "return_points"):
        oka = (o.return_points - o.start_points) * o.players
        if oka:
            return t(lang, "Each player starts with {start} points and {ret} are returned at the end: first place takes the difference, {oka}, as oka.",
                     start=_pts(o.start_points), ret=_pts(o.return_points), oka=_pts(oka))
        return t(lang, "Each player starts with {start} points and {ret} are returned at the end: no oka.", start=_pts(o.start_points),
                 ret=_pts(o.return_points))
    if c.key == "red_fives":
        if not any(v):
            return t(lang, "No red fives: every five is an ordinary tile.")
        return t(lang, "Red fives: {man} in man, {pin} in pin, {sou} in sou; each red five counts as one dora.", man=v[0], pin=v[1], sou=v[2])
    if c.key == "multi_ron":
        if v == "head_bump":
            return t(lang, "Head bump (atamahane): when several players ron the same discard, only the first in turn order from the discarder wins.")
        if v == "triple":
            return t(lang, "Every player who rons the same discard wins: double and triple ron are played, and three rons do not abort the hand.")
        return t(lang, "Double ron: when two players ron the same discard, both win; three rons abort the hand.")
    if c.key == "tobi":
        if v:
            return t(lang, "The game ends when a player's score drops below zero.")
        return t(lang, "No bust: a player below zero plays on, and the game ends only at its last hand.")
    if c.key == "agari_yame":
        if v:
            return t(lang, "Agari-yame: the dealer of the last hand who wins while in the lead may end the game.")
        return t(lang, "No agari-yame: the last dealer who wins deals again, in the lead or not.")
    if c.key == "kazoe":
        if v == "sanbaiman":
            return t(lang, "13 han or more from ordinary yaku is a sanbaiman, 24,000 (dealer 36,000): never a counted yakuman.")
        return t(lang, "13 han or more from ordinary yaku is a counted yakuman, 32,000 (dealer 48,000).")
    if c.key == "kuitan":
        if v:
            return t(lang, "Open tanyao (kuitan): all simples counts on an open hand too.")
        return t(lang, "No kuitan: all simples counts only on a closed hand.")
    if c.key == "hanchan":
        if v:
            return t(lang, "A game is a hanchan: the East and the South rounds.")
        return t(lang, "A game is the East round only (tonpuusen).")
    if c.key == "nagashi_mangan":
        if v:
            return t(lang, "Nagashi mangan: only terminals and honours discarded and none called is paid as a mangan at the draw.")
        return t(lang, "No nagashi mangan: discarding only terminals and honours pays nothing at the draw.")
    if c.key == "yakuman_stacking":
        if v:
            return t(lang, "Different yakuman in one hand add up.")
        return t(lang, "Different yakuman in one hand do not add up: the hand is one yakuman.")
    if c.key == "renhou":
        if v == "off":
            return t(lang, "No renhou: a ron before your first draw is scored by its other yaku.")
        if v == "mangan":
            return t(lang, "Renhou, a ron before your first draw with no call made, is a 5-han yaku, at least a mangan.")
        return t(lang, "Renhou, a ron before your first draw with no call made, is a yakuman.")
    return None


def changed_rule_lines(rules: Ruleset, lang: Lang) -> list[str]:
    """One line per changed rule (its id, then the rule as played; the abortive draws played or not
    in one line each), and the preset's chombo where the rules are a preset's; [] if nothing differs."""
    lines: list[str] = []
    changes = rule_changes(rules)
    draws: dict[bool, list[Change]] = {True: [], False: []}
    for c in changes:
        if c.key == "return_points" and any(x.key == "start_points" for x in changes):
            continue  # said once, with the starting points
        if c.key == "chombo_penalty" and any(x.key == "chombo" for x in changes):
            continue  # said once, with the chombo
        if c.key.startswith("abortive_draws."):
            draws[bool(c.value)].append(c)
            continue
        about = term(lang, "option", c.spec.help) if c.spec.help else c.key
        own = _own(c, rules, lang)
        if own is None:
            own = t(lang, "{about}: {value} here (the {book} rules: {usual}).", about=about, value=show_value(c.value),
                    book=ruleset_label(rules.rule_book, lang), usual=show_value(c.usual))
        lines.append(f"• **{c.rule}** {own}" if re.search(r"\d", c.rule) else f"• {own}")  # a rule id, not a group's name
    for played, group in draws.items():
        if not group:
            continue
        ids = ", ".join(c.rule for c in group)
        names = "; ".join(term(lang, "option", c.spec.help) if c.spec.help else c.key for c in group)
        if played:
            lines.append(f"• **{ids}** " + t(lang, "These abortive draws are played: {rules}.", rules=names))
        else:
            lines.append(f"• **{ids}** " + t(lang, "These abortive draws are not played, and the hand goes on: {rules}.", rules=names))
    return lines


def preset_text(name: str, lang: Lang) -> list[str]:
    """``/rule ruleset:ema`` and ``/house show ema``: the preset's title and each rule it plays differently from riichi."""
    rs = find_ruleset(name)
    changes = rule_changes(rs)
    head = t(lang, "**{name}**: the {book} rules with {n} changes, each as played:", name=name.upper(), book=ruleset_label(rs.rule_book, lang),
             n=len(changes))
    return [head, *changed_rule_lines(rs, lang)]

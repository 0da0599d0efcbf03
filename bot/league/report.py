"""What the end of a league round posts: each table's results, its substitutes, and how the
leaderboard moved (:class:`RoundReport`, built by :class:`bot.league.service.LeagueService`).

Plain data and text in a reader's language; no storage, no Discord types.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.i18n import N_, Lang, t, tn
from bot.storage.leagues import LeagueRow

#: a league's mode and seating as a reader sees them (the stored words are what the options take)
MODE_WORDS = {"async": N_("async (hours per turn)"), "live": N_("live"), "in_person": N_("in person")}
SEATING_WORDS = {"shuffle": N_("shuffled"), "swiss": N_("Swiss"), "fixed": N_("fixed")}


def mode_word(lang: Lang, mode: str) -> str:
    return t(lang, MODE_WORDS[mode]) if mode in MODE_WORDS else mode


def seating_word(lang: Lang, seating: str) -> str:
    return t(lang, SEATING_WORDS[seating]) if seating in SEATING_WORDS else seating


@dataclass(slots=True)
class Substitution:
    """A substitute in a round's report: who was absent, who played on (None: an AI)."""

    old_name: str
    by: str | None  # None: an AI; "": a substitute whose name is lost
    misses: int
    replaced: bool  # after the league's missed turns (else: played out at the round's end)
    earlier: list[str] = field(default_factory=list)  # human stand-ins before ``by``, in order
    back: bool = False  # the absent player came back: ``by`` is not used

    def text(self, lang: Lang) -> str:
        parts = [t(lang, "{by} stood in for {old}", by=name, old=self.old_name) for name in self.earlier]
        if self.back:
            parts.append(t(lang, "{old} played their seat again", old=self.old_name))
            return "; ".join(parts)
        by = self.by or (t(lang, "an AI") if self.by is None else t(lang, "a substitute"))
        if self.replaced:
            parts.append(tn(lang, "{old} was replaced by {by} after {n} missed turn", "{old} was replaced by {by} after {n} missed turns",
                            self.misses, old=self.old_name, by=by))
        else:
            parts.append(t(lang, "{by} played {old}'s seat to the end", by=by, old=self.old_name))
        return "; ".join(parts)


@dataclass(slots=True)
class TableReport:
    kind: str  # "table" (a bot table), "in_person", "bye"
    table_id: int | None  # the bot table, if any
    names: list[str]  # the seats' names (AI seats included) or the bye's name
    results: list[tuple[str, int, float]] = field(default_factory=list)  # name, final points, result
    number: int = 0  # an in-person table's number in its round
    void: bool = False
    subs: list[Substitution] = field(default_factory=list)

    def label(self, lang: Lang = "en") -> str:
        """"Table #12", "Table 2 (in person)", "Bye"."""
        if self.kind == "bye":
            return t(lang, "Bye")
        if self.kind == "in_person":
            return t(lang, "Table {n} (in person)", n=self.number)
        return t(lang, "Table #{table}", table=self.table_id)

    def note(self, lang: Lang = "en") -> str:
        """"void", and the substitutes; "" when there is nothing to say."""
        parts = ([t(lang, "void")] if self.void else []) + [s.text(lang) for s in self.subs]
        return "; ".join(parts)


@dataclass(slots=True)
class RoundReport:
    """What the end of a round posts: each table's results and how the leaderboard moved."""

    league: LeagueRow
    number: int
    channel_id: int | None
    tables: list[TableReport]
    before: list[tuple[str, str, float]]  # (player, name, points) best first, before the round
    after: list[tuple[str, str, float]]

    def text(self, lang: Lang = "en") -> str:
        """The post, in ``lang`` (the club's language)."""
        lines = [t(lang, "**{league}** — round {number} of {rounds} is over.", league=self.league.name, number=self.number, rounds=self.league.rounds)]
        for tr in self.tables:
            names = ", ".join(tr.names)
            if tr.kind == "bye":
                lines.append(t(lang, "Bye: {names}", names=names))
            elif not tr.results:
                lines.append(t(lang, "{label}: {note} ({names})", label=tr.label(lang), note=tr.note(lang) or t(lang, "no result"), names=names))
            else:
                res = ", ".join(f"{n} {p:,} ({r:+.1f})" for n, p, r in tr.results)
                note = tr.note(lang)
                if note:
                    lines.append(t(lang, "{label}: {results} — {note}", label=tr.label(lang), results=res, note=note))
                else:
                    lines.append(t(lang, "{label}: {results}", label=tr.label(lang), results=res))
        was = {p: i for i, (p, _, _) in enumerate(self.before)}
        if not self.after:  # no game counted yet (every table void, or no result typed in)
            lines.append(t(lang, "Leaderboard: no game counts yet."))
            return "\n".join(lines)
        lines.append(t(lang, "Leaderboard:"))
        for i, (p, name, pts) in enumerate(self.after[:20]):
            if p not in was:
                lines.append(t(lang, "{rank}. {name} {points} (new)", rank=i + 1, name=name, points=f"{pts:+.1f}"))
                continue
            moved = ""
            if was[p] != i:
                moved = f" (▲{was[p] - i})" if was[p] > i else f" (▼{i - was[p]})"
            lines.append(f"{i + 1}. {name} {pts:+.1f}{moved}")
        return "\n".join(lines)

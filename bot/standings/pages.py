"""What the standings show: a leaderboard page (:class:`LeaderboardPage`) and a player's season
(:class:`PlayerStats`) as text in a reader's language, built by
:class:`~bot.standings.service.StandingsService`. No storage, no Discord types.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.errors import UserError
from bot.i18n import DEFAULT, N_, Lang, t, tn
from bot.standings.damage import standing_damage, standing_damage_text
from bot.standings.stats import SeatStats
from bot.standings.types import Who
from bot.storage.repository import SeasonRow, StandingRow

RATING_EXPLAINED = {
    "openskill": N_(
        "rating = mu − 3 sigma (openskill): a careful estimate of skill that grows with games played, "
        "so at the same results a player with fewer games ranks lower"
    ),
    "tenhou": N_("rating = Tenhou's R: starts at 1500 and moves with each game's place against the table's average R"),
    "points": N_("rating = the running total of the results (uma/oka)"),
}
NAME_WIDTH = 20  # a leaderboard line stays within a phone's width: place, name, value, games


def _markdown_safe(text: str) -> str:
    """A player's name as plain text inside Discord markdown (no bold, links or mentions from it)."""
    return re.sub(r"([\\*_~`|<@\[\]])", r"\\\1", text)


@dataclass(slots=True)
class LeaderboardPage:
    season: SeasonRow
    by: str
    page: int
    pages: int
    total: int
    rows: list[tuple[int, StandingRow]]
    notes: list[UserError] = field(default_factory=list)  # damaged things, one sentence each

    def text(self, lang: Lang = DEFAULT) -> str:
        """One line per player (place, name, the value ranked by, games): no code block, so each line
        wraps like ordinary text on a phone instead of scrolling sideways. In ``lang``."""
        head = {
            "points": t(lang, "points (uma/oka total)"),
            "rating": t(lang, "rating ({system})", system=self.season.rating),
            "placement": t(lang, "average placement (lower is better)"),
        }[self.by]
        lines = [
            t(
                lang, "**{season}** — ranked by {order}, page {page}/{pages}",
                season=_markdown_safe(self.season.name), order=head, page=self.page + 1, pages=max(1, self.pages),
            )
        ]
        if self.by == "rating":
            lines.append(f"-# {t(lang, RATING_EXPLAINED.get(self.season.rating, N_('rating of the season')))}")
        lines += [_sentence(n.sentence(lang)) for n in self.notes]
        if not self.rows:
            if self.season.min_games > 0:
                lines.append(t(lang, "No players with at least {n} games yet.", n=self.season.min_games))
            else:
                lines.append(t(lang, "No players yet."))
            return "\n".join(lines)
        damaged = False
        for rank, s in self.rows:
            bad = standing_damage(s)
            if bad:
                damaged = True
                label = s.name if isinstance(s.name, str) and s.name.strip() else s.player
                lines.append(t(lang, "{rank}. {name} · damaged in the database: {what}", rank=rank, name=_markdown_safe(str(label)[:NAME_WIDTH]),
                               what=standing_damage_text(bad)))
                continue
            name = s.name if len(s.name) <= NAME_WIDTH else s.name[: NAME_WIDTH - 1] + "…"
            games = tn(lang, "{n} game", "{n} games", s.games)
            if self.by == "points":
                value = f"**{s.points_after_penalties:+.1f}**"
                if s.penalty:
                    value = t(lang, "{value} (penalties −{penalty})", value=value, penalty=f"{s.penalty:g}")
            elif self.by == "rating":
                value = f"**{s.rating:.1f}** ({s.result_total:+.1f})"
            else:
                value = t(lang, "**{place}** avg place", place=f"{s.average_place:.2f}")
            lines.append(f"{rank}. {_markdown_safe(name)} · {value} · {games}")
        if damaged:
            lines.append(
                t(lang, "A damaged line can be repaired: an organiser can rebuild the season's standings from its games with /season rebuild.")
            )
        if self.season.min_games > 0:
            lines.append(f"-# {t(lang, 'players with fewer than {n} games are not listed', n=self.season.min_games)}")
        return "\n".join(lines)


@dataclass(slots=True)
class PlayerStats:
    who: Who
    season: SeasonRow
    standing: StandingRow
    ratings: list[float]
    play: SeatStats | None  # over the bot-played games, if any
    bot_games: int
    chart: bytes = b""
    notes: list[UserError] = field(default_factory=list)  # damaged things left out, one sentence each
    chombo: int = 0  # chombo entered in the season (their points are in the standing's penalty)
    sheet_games: int = 0  # of ``bot_games``, those kept on a score sheet (/sheet): no calls counted
    sheet_counts: tuple[int, int] = (0, 0)  # draws and chombo over the sheet games (their stored data)

    @property
    def games(self) -> int:
        return self.standing.games

    def placement_distribution(self) -> list[int]:
        return self.standing.places[: self.season.players]

    def text(self, lang: Lang = DEFAULT) -> str:
        """The player's season in ``lang``: games and places, points, rating, and the play
        statistics of their bot games."""
        s = self.standing
        n = self.season.players
        dist = " / ".join(f"{c}" for c in s.places[:n])
        pct = " / ".join(f"{100 * c / s.games:.0f}%" for c in s.places[:n]) if s.games else ""
        if n == 3:
            places = t(lang, "games: {games}; places 1st–3rd: {counts} ({shares})", games=s.games, counts=dist, shares=pct)
        else:
            places = t(lang, "games: {games}; places 1st–4th: {counts} ({shares})", games=s.games, counts=dist, shares=pct)
        lines = [
            t(lang, "**{player}** in {season}", player=self.who.name, season=self.season.name),
            places,
            t(lang, "average placement: {place}", place=f"{s.average_place:.2f}"),
            t(
                lang, "points (uma/oka): total {total}, average {average}",
                total=f"{s.result_total:+.1f}", average=f"{s.result_total / s.games:+.2f}",
            ) if s.games else t(lang, "points: none"),
            t(
                lang, "penalties: −{penalty}; points after penalties: {points}",
                penalty=f"{s.penalty:g}", points=f"{s.points_after_penalties:+.1f}",
            ) if s.penalty else "",
            tn(lang, "chombo: {n}", "chombo: {n}", self.chombo) if self.chombo else "",
            t(lang, "average final score: {score}", score=f"{s.points_total / s.games:,.0f}") if s.games else "",
            t(lang, "rating ({system}): {rating}", system=self.season.rating, rating=f"{s.rating:.1f}"),
        ]
        p = self.play
        if p is not None and p.hands:
            r = p.rates()
            if self.sheet_games:
                lines.append(
                    t(
                        lang,
                        "games kept hand by hand: {games}, {sheets} of them on a score sheet ({hands} hands) — win {win}, "
                        "deal-in {deal_in}, riichi {riichi}; average win {average_win}, average deal-in {average_deal_in}; "
                        "on the sheets {draws} draws, {chombo} chombo",
                        draws=self.sheet_counts[0], chombo=self.sheet_counts[1],
                        games=self.bot_games, sheets=self.sheet_games, hands=p.hands, win=_pct(r["win_rate"]),
                        deal_in=_pct(r["deal_in_rate"]), riichi=_pct(r["riichi_rate"]), average_win=_num(r["average_win"]),
                        average_deal_in=_num(r["average_deal_in"]),
                    )
                )
            else:
                lines.append(
                    t(
                        lang,
                        "bot games: {games} ({hands} hands) — win {win}, deal-in {deal_in}, riichi {riichi}, call {call}; "
                        "average win {average_win}, average deal-in {average_deal_in}",
                        games=self.bot_games, hands=p.hands, win=_pct(r["win_rate"]), deal_in=_pct(r["deal_in_rate"]),
                        riichi=_pct(r["riichi_rate"]), call=_pct(r["call_rate"]), average_win=_num(r["average_win"]),
                        average_deal_in=_num(r["average_deal_in"]),
                    )
                )
        lines += [_sentence(n.sentence(lang)) for n in self.notes]
        return "\n".join(x for x in lines if x)


def _sentence(text: str) -> str:
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "?", "!", "。")) else text + "."


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _num(x: float | None) -> str:
    return "–" if x is None else f"{x:,.0f}"

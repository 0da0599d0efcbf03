"""What a score sheet says: the sheet message (seats, round, honba, sticks, scores), the answer to
an entry (what it changed) and the final standings, in a reader's language.

Plain text that reads on a phone: one line per seat, no code block, within Discord's 2,000
characters (four seats and a few lines).
"""

from __future__ import annotations

from bot.i18n import Lang, t, tn
from bot.render.names import ruleset_label
from bot.render.variants import ROUND
from bot.sheet.service import Current
from bot.storage.repository import GameRow
from engine.sheet import EntryKind, Final, Outcome, SheetState

WIND_MARKS = ("E", "S", "W", "N")


def round_text(s: SheetState, lang: Lang) -> str:
    """``East 2, 1 honba``."""
    name = t(lang, "{wind} {n}", wind=t(lang, ROUND[min(s.round_wind, 3)]), n=s.dealer + 1)
    return t(lang, "{hand}, {n} honba", hand=name, n=s.honba) if s.honba else name


def _wind(s: SheetState, seat: int, lang: Lang) -> str:
    return t(lang, ROUND[s.wind_of(seat)])


def sheet_text(c: Current, lang: Lang) -> str:
    """The sheet message: what it plays, the round, and each seat's wind, name and score."""
    s = c.state
    ruleset = ruleset_label(c.row.ruleset, lang)
    rules = t(lang, "house rules {house} ({ruleset})", house=c.row.house, ruleset=ruleset) if c.row.house else ruleset
    head = t(lang, "**Score sheet #{sheet}** — {rules}", sheet=c.row.id, rules=rules)
    if s.over:
        where = t(lang, "the game is over")
    else:
        where = round_text(s, lang)
    lines = [head, t(lang, "{round} · riichi sticks on the table: {sticks}", round=where, sticks=s.sticks)]
    for seat, p in enumerate(c.row.players):
        dealer = " ◀" if seat == s.dealer and not s.over else ""
        lines.append(f"{_wind(s, seat, lang)} · {p.name} · **{s.scores[seat]:,}**{dealer}")
    if c.outcomes:
        lines.append(t(lang, "hands entered: {n}; last: {last}", n=len(c.outcomes), last=entry_line(c, c.outcomes[-1], lang)))
    return "\n".join(lines)


def entry_line(c: Current, o: Outcome, lang: Lang) -> str:
    """One entry in a few words: ``Ron: carol 3,900 from bob``."""
    names = c.names
    e = o.entry
    if e.kind is EntryKind.RON:
        wins = ", ".join(t(lang, "{player} {points}", player=names[w.seat], points=f"{w.points:,}") for w in o.wins)
        return t(lang, "Ron: {wins} from {loser}", wins=wins, loser=names[e.loser if e.loser is not None else 0])
    if e.kind is EntryKind.TSUMO:
        w = o.wins[0]
        return t(lang, "Tsumo: {player} {points}", player=names[w.seat], points=f"{w.points:,}")
    if e.kind is EntryKind.DRAW and e.abortive:
        return t(lang, "Abortive draw")
    if e.kind is EntryKind.DRAW:
        tenpai = ", ".join(names[s] for s in e.tenpai) or t(lang, "nobody")
        if e.nagashi:
            return t(lang, "Draw: nagashi mangan {players}", players=", ".join(names[s] for s in e.nagashi))
        return t(lang, "Draw: tenpai {players}", players=tenpai)
    return t(lang, "Chombo: {player}", player=names[e.player if e.player is not None else 0])


def change_text(c: Current, o: Outcome, lang: Lang) -> str:
    """The answer to an entry: the entry, each seat's change and the state after it."""
    names = c.names
    lines = [entry_line(c, o, lang)]
    for w in o.wins:
        if w.han >= 13:
            value = tn(lang, "{n} yakuman", "{n} yakuman", w.han // 13)
        elif w.fu:
            value = t(lang, "{han} han {fu} fu", han=w.han, fu=w.fu)
        else:
            value = t(lang, "{han} han", han=w.han)
        lines.append(t(lang, "{player}: {value}, {points} points", player=names[w.seat], value=value, points=f"{w.points:,}"))
    if o.entry.riichi:
        lines.append(t(lang, "riichi declared: {players} (1,000 each to the table)", players=", ".join(names[s] for s in o.entry.riichi)))
    if o.honba and o.wins:
        lines.append(tn(lang, "{n} honba paid", "{n} honba paid", o.honba))
    if o.sticks_taken:
        lines.append(tn(lang, "{player} takes {n} riichi stick", "{player} takes {n} riichi sticks", o.sticks_taken, player=names[o.wins[0].seat]))
    changes = [f"{names[s]} {d:+,}" for s, d in enumerate(o.deltas) if d]
    lines.append(t(lang, "changes: {changes}", changes=", ".join(changes) if changes else t(lang, "none")))
    s = o.state
    if s.over:
        lines.append(t(lang, "The game is over."))
    else:
        dealer = names[s.dealer]
        lines.append(t(lang, "Next: {round}, {player} deals; riichi sticks on the table: {sticks}", round=round_text(s, lang), player=dealer, sticks=s.sticks))
    return "\n".join(lines)


def undo_text(c: Current, gone: Outcome, lang: Lang) -> str:
    return t(lang, "Taken back: {entry}. Now: {round}.", entry=entry_line(c, gone, lang), round=round_text(c.state, lang))


def final_text(c: Current, final: Final, game: GameRow | None, lang: Lang) -> str:
    """The final standings: place, name, score, result (after uma and oka, less chombo penalties)."""
    names = c.names
    if game is not None:
        head = t(lang, "Game #{game} recorded from score sheet #{sheet}:", game=game.id, sheet=c.row.id)
        by_seat = {p.seat: p for p in game.players}
        rows = sorted(range(len(names)), key=lambda s: (by_seat[s].place, s))
        lines = [head]
        for s in rows:
            p = by_seat[s]
            lines.append(f"{p.place}. {p.name}: {p.points:,} ({p.result:+.1f})")
    else:
        lines = [t(lang, "Score sheet #{sheet} closed with no hand entered: nothing recorded.", sheet=c.row.id)]
        return "\n".join(lines)
    for s, pen in enumerate(final.penalties):
        if pen:
            lines.append(t(lang, "{player}: chombo penalty −{points}", player=names[s], points=f"{pen:,}"))
    if game.sticks:
        lines.append(tn(lang, "{n} riichi stick left on the table", "{n} riichi sticks left on the table", game.sticks))
    tally = c.state.tally
    stats = [
        t(lang, "{player}: won {wins}, dealt in {deal_ins}, riichi {riichi}, chombo {chombo}", player=names[s], wins=x.wins, deal_ins=x.deal_ins,
          riichi=x.riichi, chombo=x.chombo)
        for s, x in enumerate(tally)
    ]
    draws = tally[0].draws if tally else 0
    lines.append(tn(lang, "{hands} hands, {n} draw", "{hands} hands, {n} draws", draws, hands=c.state.hands))
    lines += stats
    if game.season_id is None:
        lines.append(t(lang, "No running season plays these rules: the game is kept without a season."))
    return "\n".join(lines)

"""What the table's channel shows: the table picture's data (:func:`table_view`), the status text
with whom the table waits for (:func:`status_text`, :func:`waiting_line`), a hand's result and the
final standings (:func:`result_text`, :func:`final_text`), in the reader's language ``lang``.
Public information only: no hidden tile leaves through here."""

from __future__ import annotations

from bot import fairness, i18n
from bot.i18n import DEFAULT, Lang
from bot.render import variants as vr
from bot.render.names import ruleset_label, seat_name
from bot.render.views import SeatView, TableView
from bot.tables import Table
from bot.views.words import (
    DRAW_KINDS,
    WINDS,
    describe,
    mode_word,
    round_text,
    rules_name,
    ruleset_word,
    wind_word,
)
from engine.table.actions import Action, ActionType
from engine.table.game import Phase, WinResult

A = ActionType


def table_view(t: Table, bottom: int = 0, lang: Lang = DEFAULT) -> TableView:
    """What the table picture shows: public information only (rivers, melds, scores, the revealed
    indicators, the wall's count), seat ``bottom`` drawn at the bottom (0: the shared picture);
    its words (title, notes, clock) in ``lang``."""
    g = t.game
    assert g is not None
    seats = []
    declared = vr.declares_ready(g)  # taiwan16: declared tenpai has no stick (TW-12)
    for s, st in enumerate(g.seats):
        melds = [vr.meld_of(g, m) for m in st.melds] + vr.seat_extras(g, s)
        discards, sideways, called = vr.river(g, s)
        note = ", ".join(x for x in ("AI" if t.seats[s].ai else "", i18n.t(lang, "ready") if declared and st.riichi else "") if x)
        seats.append(
            SeatView(
                name=seat_name(t.seats[s], lang),
                wind=WINDS[vr.seat_wind(g, s)],
                score=g.scores[s],
                discards=discards,
                sideways=sideways,
                called=called,
                melds=melds,
                riichi=bool(st.riichi) and not declared,
                note=note,
            )
        )
    turn = g.current if g.phase in (Phase.TURN, Phase.CLAIM) and not g.over else None
    return TableView(
        title=i18n.t(lang, "Table #{table} · {ruleset}", table=t.id, ruleset=ruleset_label(t.row.ruleset, lang)),
        round_text=round_text(g, lang),
        seats=seats,
        dora_indicators=[g.code(x) for x in g.dora_indicators()],
        riichi_sticks=g.sticks,
        wall_left=g.live_left,
        turn=turn,
        last_discard=g.last_discarder if g.last_discarder >= 0 else None,
        clock=(
            i18n.t(lang, "{seconds}s per turn", seconds=t.row.turn_seconds)
            if t.row.mode == "live"
            else i18n.t(lang, "{hours}h per turn", hours=t.row.async_hours)
        ),
        dora_slots=5 if g.deal.dora else 0,
        footer=vr.table_footer(g, [seat_name(s, lang) for s in t.seats], lang=lang),
        bottom=bottom,
    )



def status_text(t: Table, last: list[Action] | None = None, lang: Lang = DEFAULT) -> str:
    g = t.game
    head = i18n.t(lang, "**Table #{table}** · {rules} · {mode}", table=t.id, rules=rules_name(t.row, lang=lang), mode=mode_word(lang, t.row.mode))
    if g is None:
        names = ", ".join(seat_name(s, lang) for s in t.seats) or i18n.t(lang, "nobody yet")
        return i18n.t(
            lang,
            "{head} · waiting for players ({seated} seated: {names}). `/table join {table}` to sit down.",
            head=head,
            seated=len(t.seats),
            names=names,
            table=t.id,
        )
    lines = [
        i18n.t(lang, "{head} · {round} · wall {wall} · sticks {sticks}", head=head, round=round_text(g, lang), wall=g.live_left, sticks=g.sticks)
    ]
    lines.append(" · ".join(f"{wind_word(lang, vr.seat_wind(g, s))} {seat_name(t.seats[s], lang)} {g.scores[s]}" for s in range(g.players)))
    if last:
        shown = [describe(g, t, a, lang) for a in last if a.type is not A.PASS][-4:]
        if shown:
            lines.append(i18n.t(lang, "Last: {moves}", moves="; ".join(shown)))
    if g.over:
        lines.append(i18n.t(lang, "Game over."))
    else:
        waiting = [seat_name(t.seats[s], lang) for s in g.to_act()]
        lines.append(waiting_line(t, ", ".join(waiting), lang))
    lines.append(fairness.status_line(t, lang))  # the commitment; the seed once the game is over
    return "\n".join(lines)



def waiting_line(t: Table, names: str, lang: Lang = DEFAULT) -> str:
    """Who the table waits for, with the clock of the pending human decision (a Discord relative
    timestamp for the deadline) when there is one."""
    if not t.humans_to_act() or not t.prompt_at:
        return i18n.t(lang, "Waiting for: {names}", names=names)
    if t.row.mode == "async":
        deadline = t.prompt_at + t.row.async_hours * 3600
        return i18n.t(lang, "Waiting for: {names} · deadline <t:{deadline}:R>", names=names, deadline=int(deadline))
    bank = min((t.seats[s].bank_left or 0.0) for s in t.humans_to_act())
    return i18n.t(
        lang,
        "Waiting for: {names} · {seconds}s + {bank}s bank (<t:{deadline}:R>)",
        names=names,
        seconds=t.row.turn_seconds,
        bank=int(bank),
        deadline=int(t.prompt_at + t.row.turn_seconds + bank),
    )



def result_text(t: Table, idx: int, lang: Lang = DEFAULT) -> tuple[str, list[WinResult]]:
    g = t.game
    assert g is not None
    r = g.results[idx]
    name = t.seats
    label = vr.result_label(g, idx, lang=lang)
    if not r.wins:
        kind = DRAW_KINDS.get(r.kind)
        result = i18n.t(lang, kind) if kind else r.kind
        if r.tenpai:
            tenpai = ", ".join(seat_name(name[s], lang) for s in r.tenpai)
            text = i18n.t(lang, "**{hand}: {result}** — tenpai: {names}", hand=label, result=result, names=tenpai)
        else:
            text = i18n.t(lang, "**{hand}: {result}**", hand=label, result=result)
    else:
        parts = []
        for w in r.wins:
            sc = w.score
            if w.seat == w.from_seat:
                head = i18n.t(lang, "**{winner} wins by tsumo**", winner=seat_name(name[w.seat], lang))
            else:
                head = i18n.t(lang, "**{winner} wins by ron from {loser}**", winner=seat_name(name[w.seat], lang), loser=seat_name(name[w.from_seat], lang))
            parts.append(f"{head}: {vr.win_summary(g, sc, lang=lang)}")
        text = f"**{label}** " + "\n".join(parts)
    deltas = ", ".join(f"{seat_name(name[s], lang)} {d:+,d}" for s, d in enumerate(r.deltas) if d)
    if deltas:
        text += "\n" + i18n.t(lang, "Payments: {deltas}", deltas=deltas)
    return text, list(r.wins)


def final_text(t: Table, lang: Lang = DEFAULT) -> str:
    g = t.game
    assert g is not None
    unit = vr.final_unit(g)  # taiwan16 / chinitsu_toutenkou: no uma, the score is the result
    rows = [
        f"{i + 1}. {seat_name(t.seats[s], lang)}: {g.final_scores[s]} {ruleset_word(lang, unit)}" if unit else f"{i + 1}. {seat_name(t.seats[s], lang)}: {g.final_scores[s]} ({g.final_results[s]:+.1f})"
        for i, s in enumerate(g.ranking())
    ]
    head = i18n.t(lang, "**Table #{table} final standings**", table=t.id)
    return head + "\n" + "\n".join(rows) + "\n" + fairness.reveal_text(t, lang)

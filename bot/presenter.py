"""Turns table state into what people see: the public table message, private hands, results.

The presenter listens to :class:`~bot.tables.TableService` updates. It builds pictures with
:mod:`bot.render` and text with the helpers below; the buttons themselves live in ``cogs.play``
(they are ``DynamicItem``\\ s rebuilt from their ``custom_id`` after a restart). It decides nothing
about the rules: every button is one of the engine's legal actions.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.render.pictures import render_final, render_hand, render_result, render_table
from bot.render.views import SeatView, TableView
from bot.tables import Table, TableService, Update
from engine.notation import MeldType
from engine.table.actions import Action, ActionType
from engine.table.game import Game, Phase, WinResult
from engine.tiles import RED, kind_name

if TYPE_CHECKING:
    from bot.client import JantakuBot

log = logging.getLogger(__name__)
A = ActionType
WINDS = "ESWN"
ROUND = ("East", "South", "West", "North")
_MELD = {MeldType.CHI: "chi", MeldType.PON: "pon", MeldType.MINKAN: "minkan", MeldType.ANKAN: "ankan", MeldType.KAKAN: "kakan"}


def tile_label(code: int) -> str:
    name = kind_name(code & ~RED)
    return name + ("*" if code & RED else "")


def action_label(a: Action) -> str:
    t = a.type
    if t is A.DISCARD:
        return tile_label(a.tile)
    if t is A.RIICHI:
        return f"Riichi {tile_label(a.tile)}"
    if t in (A.CHI, A.PON):
        return f"{'Chi' if t is A.CHI else 'Pon'} {' '.join(tile_label(c) for c in a.tiles)}"
    if t is A.ANKAN:
        return f"Kan {kind_name(a.tile)}"
    if t is A.KAKAN:
        return f"Add kan {kind_name(a.tile)}"
    return {A.TSUMO: "Tsumo!", A.RON: "Ron!", A.DAIMINKAN: "Kan", A.PASS: "Pass", A.KITA: "Kita", A.KYUUSHU: "Nine terminals"}.get(
        t, t.name.title()
    )


def round_text(g: Game) -> str:
    return f"{ROUND[min(g.round_wind, 3)]} {g.hand_number + 1}" + (f", {g.honba} honba" if g.honba else "")


def table_view(t: Table) -> TableView:
    g = t.game
    assert g is not None
    seats = []
    for s, st in enumerate(g.seats):
        melds = [(_MELD[m.type], [g.code(x) for x in m.tiles], len(m.tiles) - 1 if m.called >= 0 else -1) for m in st.melds]
        if st.kita:
            melds.append(("kita", [g.code(x) for x in st.kita], -1))
        seats.append(
            SeatView(
                name=t.seats[s].name,
                wind=WINDS[g.seat_wind(s)],
                score=g.scores[s],
                discards=[g.code(x) for x in st.river],
                sideways=[st.riichi_index] if st.riichi_index >= 0 else [],
                called=[i for i, c in enumerate(st.river_called) if c],
                melds=melds,
                riichi=bool(st.riichi),
                note="AI" if t.seats[s].ai else "",
            )
        )
    turn = g.current if g.phase is Phase.TURN and not g.over else None
    return TableView(
        title=f"Table #{t.id} · {t.row.ruleset}",
        round_text=round_text(g),
        seats=seats,
        dora_indicators=[g.code(x) for x in g.dora_indicators()],
        riichi_sticks=g.sticks,
        wall_left=g.live_left,
        turn=turn,
        last_discard=g.last_discarder if g.last_discarder >= 0 else None,
        clock=(f"{t.row.turn_seconds}s per turn" if t.row.mode == "live" else f"{t.row.async_hours}h per turn"),
    )


def describe(g: Game, t: Table, a: Action) -> str:
    who = t.seats[a.seat].name
    if a.type is A.DISCARD:
        return f"{who} discarded {tile_label(a.tile)}"
    if a.type is A.RIICHI:
        return f"{who} declared riichi, discarding {tile_label(a.tile)}"
    if a.type is A.PASS:
        return f"{who} passed"
    return f"{who}: {action_label(a)}"


def status_text(t: Table, last: list[Action] | None = None) -> str:
    g = t.game
    head = f"**Table #{t.id}** · {t.row.ruleset} · {t.row.mode}"
    if g is None:
        names = ", ".join(s.name for s in t.seats) or "nobody yet"
        return f"{head} · waiting for players ({len(t.seats)} seated: {names}). `/table join {t.id}` to sit down."
    lines = [f"{head} · {round_text(g)} · wall {g.live_left} · sticks {g.sticks}"]
    lines.append(" · ".join(f"{WINDS[g.seat_wind(s)]} {t.seats[s].name} {g.scores[s]}" for s in range(g.players)))
    if last:
        shown = [describe(g, t, a) for a in last if a.type is not A.PASS][-4:]
        if shown:
            lines.append("Last: " + "; ".join(shown))
    if g.over:
        lines.append("Game over.")
    else:
        waiting = [t.seats[s].name for s in g.to_act()]
        lines.append("Waiting for: " + ", ".join(waiting) + clock_text(t))
    return "\n".join(lines)


def clock_text(t: Table) -> str:
    """The clock of the pending human decision: a Discord relative timestamp for the deadline."""
    if not t.humans_to_act() or not t.prompt_at:
        return ""
    if t.row.mode == "async":
        deadline = t.prompt_at + t.row.async_hours * 3600
        return f" · deadline <t:{int(deadline)}:R>"
    bank = min((t.seats[s].bank_left or 0.0) for s in t.humans_to_act())
    return f" · {t.row.turn_seconds}s + {int(bank)}s bank (<t:{int(t.prompt_at + t.row.turn_seconds + bank)}:R>)"


def result_text(t: Table, idx: int) -> tuple[str, list[WinResult]]:
    g = t.game
    assert g is not None
    r = g.results[idx]
    name = t.seats
    label = f"{ROUND[min(r.round_wind, 3)]} {r.hand_number + 1}" + (f", {r.honba} honba" if r.honba else "")
    if not r.wins:
        kinds = {
            "exhaustive": "Exhaustive draw",
            "nagashi_mangan": "Nagashi mangan",
            "kyuushu_kyuuhai": "Abortive draw: nine terminals",
            "suufon_renda": "Abortive draw: four winds",
            "suucha_riichi": "Abortive draw: four riichi",
            "suukaikan": "Abortive draw: four kans",
            "sanchahou": "Abortive draw: triple ron",
        }
        text = f"**{label}: {kinds.get(r.kind, r.kind)}**"
        if r.tenpai:
            text += " — tenpai: " + ", ".join(name[s].name for s in r.tenpai)
    else:
        parts = []
        for w in r.wins:
            sc = w.score
            how = "tsumo" if w.seat == w.from_seat else f"ron from {name[w.from_seat].name}"
            yaku = ", ".join(f"{y.name} {y.han if not sc.yakuman else 'yakuman'}" for y in sc.yaku)
            value = f"{sc.yakuman}× yakuman" if sc.yakuman else f"{sc.han} han {sc.fu} fu"
            parts.append(f"**{name[w.seat].name} wins by {how}**: {yaku} — {value}, {sc.points} points")
        text = f"**{label}** " + "\n".join(parts)
    deltas = ", ".join(f"{name[s].name} {d:+d}" for s, d in enumerate(r.deltas) if d)
    if deltas:
        text += f"\nPayments: {deltas}"
    return text, list(r.wins)


def final_text(t: Table) -> str:
    g = t.game
    assert g is not None
    rows = [f"{i + 1}. {t.seats[s].name}: {g.final_scores[s]} ({g.final_results[s]:+.1f})" for i, s in enumerate(g.ranking())]
    return f"**Table #{t.id} final standings**\n" + "\n".join(rows)


class Presenter:
    """Renders updates into Discord messages. ``view_factory`` builds the button views."""

    def __init__(self, bot: JantakuBot, service: TableService, view_factory: Callable[..., discord.ui.View]) -> None:
        self.bot = bot
        self.service = service
        self.view_factory = view_factory
        self._prompted: dict[int, set[int]] = {}  # table → seats whose hand message shows buttons
        self._dms: dict[int, Any] = {}  # user id → DM channel (saves a user fetch per hand message)
        self._sig: dict[tuple[int, int], tuple[Any, ...]] = {}  # (table, seat) → the hand last drawn
        self._locks: dict[int, asyncio.Lock] = {}

    async def channel(self, t: Table) -> Any:
        cid = t.row.thread_id or t.row.channel_id
        ch = self.bot.get_channel(cid)
        if ch is None:
            ch = await self.bot.fetch_channel(cid)
        return ch

    async def on_update(self, u: Update) -> None:
        # One table's messages are updated one update at a time: otherwise an older update's edit
        # could land after a newer one and leave stale buttons up.
        async with self._locks.setdefault(u.table.id, asyncio.Lock()):
            await self._on_update(u)

    async def _on_update(self, u: Update) -> None:
        t = u.table
        g = t.game
        if g is None:
            return
        ch = await self.channel(t)
        for i in range(len(g.results) - u.hands_ended, len(g.results)):
            await self.post_result(ch, t, i)
        await self.refresh_table(t, u.actions)
        if g.over:
            await self.post_final(ch, t)
        await self.prompt_humans(t)

    async def refresh_table(self, t: Table, last: list[Action] | None = None) -> None:
        ch = await self.channel(t)
        text = status_text(t, last)
        files = []
        if t.game is not None:
            png = render_table(table_view(t))
            files = [discord.File(io.BytesIO(png), filename="table.png")]
        view = self.view_factory("table", t) if t.game is not None and not t.game.over else None
        if t.row.message_id:
            msg = ch.get_partial_message(t.row.message_id)
            try:
                await msg.edit(content=text, attachments=files, view=view)
                return
            except discord.NotFound:
                pass
        msg = await ch.send(content=text, files=files, view=view)
        t.row.message_id = msg.id
        await self.service.repo.set_table(t.id, message_id=msg.id)

    async def post_result(self, ch: Any, t: Table, idx: int) -> None:
        g = t.game
        assert g is not None
        text, wins = result_text(t, idx)
        files = []
        if wins and wins[0].hand is not None:
            spec = wins[0].hand
            melds = [(_MELD[m.type], list(m.tiles), -1 if m.type is MeldType.ANKAN else 0) for m in spec.melds]
            hand = sorted(spec.concealed, key=lambda c: (c & ~RED, c & RED))
            png = render_result(
                text.split("\n")[0].replace("**", ""),
                hand,
                melds,
                spec.win_tile,
                [f"{y.name}: {y.han} han" if not wins[0].score.yakuman else f"{y.name}: yakuman" for y in wins[0].score.yaku],
                [(t.seats[s].name, d) for s, d in enumerate(g.results[idx].deltas)],
            )
            files = [discord.File(io.BytesIO(png), filename="result.png")]
        await ch.send(content=text, files=files)

    async def post_final(self, ch: Any, t: Table) -> None:
        g = t.game
        assert g is not None
        rows = [(t.seats[s].name, g.final_scores[s], g.final_results[s]) for s in g.ranking()]
        png = render_final(rows)
        await ch.send(content=final_text(t), files=[discord.File(io.BytesIO(png), filename="final.png")])

    # -- private hands -------------------------------------------------------------------------

    def hand_picture(self, t: Table, seat: int) -> bytes:
        g = t.game
        assert g is not None
        st = g.seats[seat]
        tiles = [g.code(x) for x in st.tiles]
        drawn = None
        if g.current == seat and g.drawn >= 0 and g.phase is Phase.TURN and g.drawn in st.tiles:
            drawn = g.code(g.drawn)
            tiles.remove(drawn)
        tiles.sort(key=lambda c: (c & ~RED, c & RED))
        melds = [(_MELD[m.type], [g.code(x) for x in m.tiles], len(m.tiles) - 1 if m.called >= 0 else -1) for m in st.melds]
        wind = WINDS[g.seat_wind(seat)]
        return render_hand(tiles, melds, drawn, title=f"Table #{t.id} · {round_text(g)} · you are {wind} · {g.scores[seat]} points")

    def hand_text(self, t: Table, seat: int) -> str:
        g = t.game
        assert g is not None
        st = g.seats[seat]
        lines = [f"Your hand ({t.seats[seat].name}, {WINDS[g.seat_wind(seat)]})", status_text(t)]
        if seat in g.to_act():
            if g.phase is Phase.TURN:
                lines.append("**Your turn.** Pick a tile to discard or an action.")
            else:
                lines.append(f"**{t.seats[g.last_discarder].name} discarded {tile_label(g.code(g.last_discard))}.** Call it or pass.")
            if st.waits and g._furiten(seat):
                lines.append("⚠ You are furiten: you cannot win by ron.")
            if g.phase is Phase.TURN and g._calc.is_agari(st.counts) and not any(
                a.type is A.TSUMO for a in g.legal_actions(seat)
            ):
                lines.append("⚠ Your hand is complete but has no yaku: you cannot win with it.")
        return "\n".join(lines)

    async def prompt_humans(self, t: Table, *, everyone: bool = False) -> None:
        """Send the hand of every human who must act now, and of those whose buttons just went
        stale (so no old button stays up); everyone after a restart."""
        g = t.game
        if g is None:
            return
        acting = set(g.to_act()) if not g.over else set()
        shown: set[int] = self._prompted.setdefault(t.id, set())
        for s in range(g.players):
            seat = t.seats[s]
            if seat.ai is not None or seat.user_id is None:
                continue
            if everyone or s in acting or s in shown:
                await self.send_hand(t, s)
        self._prompted[t.id] = acting

    async def send_hand(self, t: Table, s: int) -> None:
        g = t.game
        assert g is not None
        seat = t.seats[s]
        acting = (not g.over) and s in g.to_act()
        if seat.dm_closed:
            return
        view = self.view_factory("hand", t, s) if acting else None
        content = self.hand_text(t, s)
        assert seat.user_id is not None
        try:
            dm = self._dms.get(seat.user_id)
            if dm is None:
                user = self.bot.get_user(seat.user_id) or await self.bot.fetch_user(seat.user_id)
                dm = self._dms[seat.user_id] = user.dm_channel or await user.create_dm()
            sig = (tuple(sorted(g.seats[s].tiles)), len(g.seats[s].melds), g.hand_index)
            same_hand = self._sig.get((t.id, s)) == sig
            self._sig[(t.id, s)] = sig
            if seat.hand_message_id and not acting and same_hand:
                # the buttons went stale and the hand did not change: drop them, keep the picture
                try:
                    await dm.get_partial_message(seat.hand_message_id).edit(content=content, view=None)
                    return
                except discord.NotFound:
                    pass
            file = discord.File(io.BytesIO(self.hand_picture(t, s)), filename="hand.png")
            if seat.hand_message_id:
                try:
                    await dm.get_partial_message(seat.hand_message_id).edit(content=content, attachments=[file], view=view)
                    return
                except discord.NotFound:
                    pass
            msg = await dm.send(content=content, file=file, view=view)
            seat.hand_message_id = msg.id
            await self.service.repo.set_seat(t.id, s, hand_message_id=msg.id)
        except discord.Forbidden:
            seat.dm_closed = True
            await self.service.repo.set_seat(t.id, s, dm_closed=True)
            ch = await self.channel(t)
            await ch.send(
                f"<@{seat.user_id}>, I cannot send you direct messages: use the **Show my hand** button on the table message."
            )

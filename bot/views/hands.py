"""Each player's own hand message kept in step with the game (:class:`HandMessages`).

The hands of one update go out in tasks of their own, one player's in order (a per-seat lock), so
a message waiting out a 429 never holds back another player's hand or the next update. A hand goes
out through the freshest interaction token of its player (outside the global rate limit), else as
a bot-token edit of their DM hand message, or, where the table pings, as a new DM for each new
decision with the previous one left without buttons; a player without DMs gets an ephemeral hand,
kept current through its token. The clicker's own hand is the answer to the click. What each
message says and shows comes from :mod:`bot.views.hand`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Sequence
from contextlib import suppress
from typing import Any

import discord

from bot import i18n
from bot.i18n import Lang, lang_of
from bot.outbound.courier import Courier
from bot.outbound.delivery import ClickAnswer, Tokens, edit_kwargs, send_kwargs
from bot.tables import Table, TableService
from bot.views import hand as views
from bot.views.channel import TableChannel
from bot.views.hand import HandState
from bot.views.pictures import Drawing, hand_job
from bot.views.readers import Readers
from bot.views.words import describe
from engine.table.actions import Action

log = logging.getLogger(__name__)

#: tries to send a hand that failed (each with the newest state), 1 s, 2 s, 4 s apart
HAND_TRIES = 4


class HandMessages:
    """The players' hand messages of every table; ``channel`` is where a player is told their DMs
    are closed."""

    def __init__(self, service: TableService, courier: Courier, drawing: Drawing, readers: Readers, channel: TableChannel) -> None:
        self.service = service
        self.courier = courier
        self.drawing = drawing
        self.readers = readers
        self.channel = channel
        self._prompted: dict[int, set[int]] = {}  # table → seats whose hand message shows buttons
        self._sig: dict[tuple[int, int], tuple[Any, ...]] = {}  # (table, seat) → the hand last drawn
        self._locks: dict[tuple[int, int], asyncio.Lock] = {}  # (table, seat): one hand message at a time
        self._clicks: dict[tuple[int, int], int] = {}  # (table, seat) → its clicks under way
        self._skipped: dict[tuple[int, int], int] = {}  # (table, seat) → updates left to its clicks
        self._tokens = Tokens()  # (table, seat) → the freshest token that edits its hand message
        self._asked: dict[tuple[int, int], int] = {}  # (table, seat) → decision serial last offered
        self._expired: dict[tuple[int, int], list[Action]] = {}  # moves the clock made, to tell
        self._results_seen: dict[tuple[int, int], int] = {}  # hand results a player was told of
        self._shown: dict[tuple[int, int], tuple[Any, ...]] = {}  # what each hand message shows
        self._dealt: dict[tuple[int, int], int] = {}  # (table, seat) → the hand its message shows
        self._tasks: set[asyncio.Task[None]] = set()

    def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    def expired(self, t: Table, a: Action) -> None:
        """The clock played ``a`` for its human seat: told in their next hand message."""
        self._expired.setdefault((t.id, a.seat), []).append(a)

    async def forget(self, t: Table) -> None:
        """Drop what was kept for a finished table, after its last hand messages are out: each
        seat's lock is taken once more (first come, first served, so the sends queued on it are
        done and can no longer put their notes back)."""
        g = t.game
        seats = range(g.players if g is not None else 0)
        for s in seats:
            lock = self._locks.get((t.id, s))
            if lock is not None:
                async with lock:
                    pass
        self._prompted.pop(t.id, None)
        for s in seats:
            if (t.id, s) not in self._clicks:  # else the click drops it as it ends
                self._drop((t.id, s))

    def _drop(self, key: tuple[int, int]) -> None:
        self._tokens.drop(key)
        for d in (self._sig, self._asked, self._expired, self._results_seen, self._shown, self._dealt, self._locks):
            d.pop(key, None)  # type: ignore[attr-defined]

    def spawn(self, work: Coroutine[Any, Any, None], *, name: str) -> asyncio.Task[None]:
        """Run ``work`` in a task of its own, kept until it ends (and cancelled by :meth:`close`)."""
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def hand_text(self, t: Table, seat: int, lang: Lang) -> str:
        """The text of the player's hand message now (:func:`bot.views.hand.hand_text`)."""
        return views.hand_text(t, seat, results_seen=self._results_seen.get((t.id, seat)), lang=lang)

    def hand_now(self, t: Table, seat: int, *, buttons: bool, notes: Sequence[str] = (), lang: Lang | None = None) -> HandState:
        """The hand message's state at this moment, without its picture, in ``lang`` (None: the
        player's own)."""
        lang = self.readers.seat_lang(t, seat) if lang is None else lang
        return views.hand_now(t, seat, buttons=buttons, notes=notes, results_seen=self._results_seen.get((t.id, seat)), lang=lang)

    async def hand_state(
        self, t: Table, seat: int, *, buttons: bool, picture: bool, notes: Sequence[str] = (), lang: Lang | None = None
    ) -> HandState:
        """The hand message's state at this moment, its picture drawn (after the moment is taken:
        the game may move on meanwhile, and the state says which moment it shows); in ``lang``
        (None: the player's own)."""
        lang = self.readers.seat_lang(t, seat) if lang is None else lang
        state = self.hand_now(t, seat, buttons=buttons, notes=notes, lang=lang)
        if picture:
            state.png = await self.drawing.gated(hand_job(t, seat, style=self.readers.tile_style(t, seat), lang=lang), 0.0)
        return state

    async def prompt_humans(self, t: Table, *, everyone: bool = False) -> None:
        """Send the hand of every human who must act now, and of those whose buttons just went
        stale (so no old button stays up); everyone after a restart."""
        await asyncio.gather(*self.due(t, everyone=everyone))

    async def refresh_hand(self, t: Table, seat: int) -> None:
        """Show a player's hand again though the game did not move (a standing order changed what
        its buttons do)."""
        g = t.game
        if g is None or g.over or t.seats[seat].ai is not None or t.seats[seat].user_id is None:
            return
        self._shown.pop((t.id, seat), None)
        await self._send_seat(t, seat, seat in self._prompted.get(t.id, set()))

    def due(self, t: Table, *, everyone: bool = False) -> list[asyncio.Task[None]]:
        """Start sending the hands that changed meaning: of the humans who act now, of those whose
        buttons went stale, of a player the clock moved for; not the hand of a player whose click is
        under way (its answer shows the hand: :class:`HandClick`)."""
        g = t.game
        if g is None:
            return []
        acting = set(g.to_act()) if not g.over else set()
        shown = self._prompted.get(t.id, set())
        self._prompted[t.id] = acting
        tasks = []
        for s in range(g.players):
            seat = t.seats[s]
            if seat.ai is not None or seat.user_id is None:
                continue
            if not (everyone or s in acting or s in shown or (t.id, s) in self._expired):
                continue
            if (t.id, s) in self._clicks:  # the click under way answers with this hand (HandClick)
                self._skipped[(t.id, s)] = self._skipped.get((t.id, s), 0) + 1
            else:
                tasks.append(self.spawn(self._send_seat(t, s, s in shown), name=f"jantaku-hand-{t.id}-{s}"))
        return tasks

    async def _send_seat(self, t: Table, s: int, had_buttons: bool) -> None:
        # one player's messages one at a time, in the order the updates came (asyncio.Lock is
        # first come, first served): an older state never lands after a newer one
        async with self._lock((t.id, s)):
            for attempt in range(HAND_TRIES):
                try:
                    await self.send_hand(t, s, had_buttons=had_buttons)
                    return
                except discord.Forbidden:  # the channel refuses us: trying again changes nothing
                    log.warning("table %s: seat %s's hand was refused (missing permissions)", t.id, s)
                    return
                except Exception:
                    # tried again with the newest state (what failed may be outdated by then)
                    log.warning("table %s: could not send seat %s its hand (try %d)", t.id, s, attempt + 1, exc_info=True)
                    await asyncio.sleep(2.0**attempt)
            log.error("table %s: gave up sending seat %s its hand after %d tries", t.id, s, HAND_TRIES)

    # -- a seat's player changed (a league's substitute) ------------------------------------------

    async def seat_changed(self, t: Table, seat: int, *, left: tuple[int | None, int | None] = (None, None)) -> None:
        """The seat has a new player (its stored user and name were changed under the table's
        lock): the last player's hand message (``left``: their user id and its message id) keeps the
        hand without its buttons; what it showed is forgotten, and the new player gets the hand by
        DM, with its buttons if the seat is to act."""
        key = (t.id, seat)
        user_id, message_id = left
        async with self._lock(key):  # a hand on its way to the last player lands first
            late = t.seats[seat].hand_message_id  # set by that hand after the change: the last player's message
            t.seats[seat].hand_message_id = None
            for old in dict.fromkeys(m for m in (message_id, late) if m):
                if user_id is None or t.game is None:
                    break
                with suppress(discord.HTTPException):
                    dm = await self.courier.dm(user_id)
                    await self.courier.pace()
                    await dm.get_partial_message(old).edit(view=None)
        self._tokens.drop(key)
        for d in (self._sig, self._shown, self._asked, self._dealt, self._expired, self._results_seen):
            d.pop(key, None)  # type: ignore[attr-defined]
        g = t.game
        if g is None or g.over or t.seats[seat].ai is not None or t.seats[seat].user_id is None:
            return
        if seat in g.to_act():  # its buttons are up: the next update refreshes them
            self._prompted.setdefault(t.id, set()).add(seat)
        await self._send_seat(t, seat, False)

    # -- a click on a hand: its one owner answers it with the hand's next state -------------------

    def click(self, table_id: int, interaction: discord.Interaction) -> HandClick:
        """A click on one of the table's buttons, answered by its own path (:class:`HandClick`)."""
        return HandClick(self, table_id, interaction)

    def _lock(self, key: tuple[int, int]) -> asyncio.Lock:
        return self._locks.setdefault(key, asyncio.Lock())

    @staticmethod
    def _is_hand_message(t: Table, seat: int, message_id: int, ephemeral: bool) -> bool:
        """Whether a clicked message is the player's hand (their DM hand message, or, without
        DMs, an ephemeral one) rather than a question asked on the way (the riichi chooser)."""
        s = t.seats[seat]
        return message_id == s.hand_message_id or (ephemeral and s.dm_closed)

    def showed_hand(self, t: Table, seat: int, interaction: discord.Interaction, message_id: int | None) -> None:
        """A "Show my hand" reply went out: for a player without DMs, that ephemeral is their hand
        from now on, kept up to date through its token."""
        if message_id and t.seats[seat].dm_closed:
            self._tokens.keep((t.id, seat), interaction, message_id)
            self._sig.pop((t.id, seat), None)
            g = t.game
            if g is not None:
                if seat in g.to_act():
                    self._asked[(t.id, seat)] = t.decision_serial()

    async def send_hand(self, t: Table, s: int, *, had_buttons: bool = True, click: HandClick | None = None) -> None:
        """Bring seat ``s``'s hand message up to date (under the seat's lock); with ``click``, the
        clicked message is the answer to that click."""
        g = t.game
        assert g is not None
        seat = t.seats[s]
        if seat.user_id is None:
            return  # the seat went to an AI (a league's substitute) after its hand was due
        key = (t.id, s)
        acting = (not g.over) and s in g.to_act()
        decision = t.decision_serial() if acting else -1
        new_decision = acting and self._asked.get(key) != decision
        expired = self._expired.pop(key, [])
        lang = self.readers.seat_lang(t, s) if click is None else click.lang
        notes = [i18n.t(lang, "⏰ Time ran out, so I played for you: {move}.", move=describe(g, t, a, lang)) for a in expired]
        # a table that pings: every new decision (and a move the clock made) is a new message; in
        # any table a new hand is (a message edited all game would pass an hour: 30046)
        new_hand = self._dealt.get(key, g.hand_index) != g.hand_index
        notify = ((t.row.pings and (new_decision or bool(expired))) or new_hand) and not seat.dm_closed
        sig = (tuple(sorted(g.seats[s].tiles)), len(g.seats[s].melds), g.hand_index)
        try:
            if click is not None:
                # the clicked message shows the new hand: with its buttons, unless they come in a
                # new message (a table that pings) or it is an older message than the hand's own
                current = self._is_hand_message(t, s, click.message_id, click.ephemeral)
                same = current and not click.ephemeral and self._sig.get(key) == sig
                click.taken()
                state = await self.hand_state(
                    t, s, buttons=current and not notify, picture=current and not same, notes=() if notify else notes, lang=lang
                )
                await click.answer.show(state)
                self._results_seen[key] = len(g.results)  # the player has read those results now
                if current:
                    self._tokens.keep(key, click.interaction, click.message_id)
                    if not click.ephemeral:
                        self._sig[key] = state.sig
                        self._shown[key] = (click.message_id, state.shows)
                    if not notify:
                        self._done_sending(key, state)
                        return
            elif seat.dm_closed:
                self._done_sending(key, await self._send_ephemeral_hand(t, s, acting, new_decision, notes))
                return
            stripped = click is not None and click.message_id == seat.hand_message_id
            self._done_sending(key, await self._send_dm_hand(t, s, notify=notify, notes=notes, stripped=stripped or not had_buttons))
        except discord.Forbidden:
            seat.dm_closed = True
            await self.service.repo.set_seat(t.id, s, dm_closed=True)
            if not t.row.message_id:  # the button the sentence points at comes first
                await self.channel.refresh_table(t)
            ch = await self.channel.channel(t)
            await ch.send(
                i18n.t(
                    self.readers.seat_lang(t, s),
                    "<@{user}>, I cannot send you direct messages: use the **Show my hand** button on the table message.",
                    user=seat.user_id,
                )
            )

    def _done_sending(self, key: tuple[int, int], state: HandState | None) -> None:
        """Note what the player's hand message now shows (the moment its state was taken at)."""
        if state is None:
            return
        self._dealt[key] = state.hand
        if state.decision >= 0 and state.view is not None:
            self._asked[key] = state.decision

    async def _send_ephemeral_hand(self, t: Table, s: int, acting: bool, new_decision: bool, notes: list[str]) -> HandState | None:
        """A player without DMs: their ephemeral hand is kept current through the freshest token;
        where the table pings, they are mentioned in its channel once per new decision."""
        seat = t.seats[s]
        key = (t.id, s)
        tok = self._tokens.any(key)
        state: HandState | None = None
        if tok is not None:
            state = await self.hand_state(t, s, buttons=True, picture=True, notes=notes)
            if not await self._tokens.edit(key, tok.message_id, state):
                state = None
        if t.row.pings and acting and new_decision:
            ch = await self.channel.channel(t)
            async with self.channel.turn_in(t):
                await ch.send(
                    i18n.t(
                        self.readers.seat_lang(t, s), "<@{user}>, your move at table #{table}: **Show my hand** on the table message.", user=seat.user_id, table=t.id
                    ),
                    allowed_mentions=discord.AllowedMentions(users=True),
                )
            state = state or self.hand_now(t, s, buttons=True)  # pinged for this decision
        return state

    async def _edit_hand_message(self, t: Table, s: int, dm: Any, message_id: int, state: HandState) -> bool:
        """Edit a hand message: through a fresh interaction token (outside the global rate limit)
        when one can, else with the bot's token. False if the message is gone."""
        if await self._tokens.edit((t.id, s), message_id, state):  # False: none, expired early, or gone
            return True
        try:
            await self.courier.pace()
            await dm.get_partial_message(message_id).edit(**edit_kwargs(state))
            return True
        except discord.NotFound:
            return False

    async def _send_dm_hand(self, t: Table, s: int, *, notify: bool, notes: list[str], stripped: bool) -> HandState:
        seat = t.seats[s]
        key = (t.id, s)
        assert seat.user_id is not None
        dm = await self.courier.dm(seat.user_id)
        if seat.hand_message_id and not notify:
            now = self.hand_now(t, s, buttons=True, notes=notes)
            if self._shown.get(key) == (seat.hand_message_id, now.shows):
                return now  # it shows exactly this already (a queued update after a newer one)
            state = await self.hand_state(t, s, buttons=True, picture=self._sig.get(key) != now.sig, notes=notes)
            if await self._edit_hand_message(t, s, dm, seat.hand_message_id, state):
                self._sig[key] = state.sig
                self._shown[key] = (seat.hand_message_id, state.shows)
                return state
        elif seat.hand_message_id and not stripped:
            # the previous message still shows buttons: it keeps the hand, without them
            old = self.hand_now(t, s, buttons=False)
            with suppress(discord.NotFound):
                await self._edit_hand_message(t, s, dm, seat.hand_message_id, old)
        state = await self.hand_state(t, s, buttons=True, picture=True, notes=notes)
        await self.courier.pace()
        msg = await dm.send(**send_kwargs(state))
        self.courier.saw(msg.id)
        self._sig[key] = state.sig
        self._shown[key] = (msg.id, state.shows)
        self._tokens.drop(key)  # its token edits the old message, not this one
        seat.hand_message_id = msg.id
        await self.service.repo.set_seat(t.id, s, hand_message_id=msg.id)
        return state


class HandClick:
    """A click on a table's button, from its arrival to its answer: the one path that answers it.

    Made as the click arrives (the first answer's clock starts: :class:`ClickAnswer` defers it at
    2 s if the new hand is not ready by then), and entered (``with``) before the action goes to the
    table service: while it is under way, the updates leave the clicker's hand message to it. Once
    the service has stored the action, :meth:`answered` shows the clicker's hand as it is then as
    the click's answer (UPDATE_MESSAGE: no bot-token request); a refusal is :meth:`refused`. An
    update left to the click after the hand it showed was taken goes out the usual way as the
    click ends, so the player always ends up seeing the newest state."""

    def __init__(self, hands: HandMessages, table_id: int, interaction: discord.Interaction) -> None:
        self.hands = hands
        self.table_id = table_id
        self.interaction = interaction
        self.answer = ClickAnswer(interaction)
        self.lang = lang_of(getattr(interaction, "locale", None))  # (stand-ins in tests have none)
        msg = interaction.message
        self.message_id = msg.id if msg else 0
        self.ephemeral = bool(msg and msg.flags.ephemeral)
        t = hands.service.tables.get(table_id)
        seat = t.seat_of(interaction.user.id) if t is not None else None
        self.key = (table_id, seat) if seat is not None else None
        self._seen = 0  # updates left to clicks of this seat when the hand shown was taken
        self._failed = False

    def __enter__(self) -> HandClick:
        if self.key is not None:
            clicks = self.hands._clicks
            clicks[self.key] = clicks.get(self.key, 0) + 1
            self.taken()
        return self

    def __exit__(self, *exc: object) -> None:
        key = self.key
        if key is None:
            return
        hands = self.hands
        missed = self._failed or hands._skipped.get(key, 0) != self._seen
        left = hands._clicks[key] - 1
        if left:
            hands._clicks[key] = left
        else:
            del hands._clicks[key]
            hands._skipped.pop(key, None)
        t = hands.service.tables.get(self.table_id)
        g = t.game if t is not None else None
        if t is None or g is None:
            return
        if g.over and t.row.final_posted and not left:
            hands._drop(key)  # the table was forgotten while this click was under way
        elif missed and not left:
            hands.spawn(hands._send_seat(t, key[1], True), name=f"jantaku-hand-{t.id}-{key[1]}")

    def taken(self) -> None:
        """The hand to show is taken now: updates left to the click before are in it."""
        if self.key is not None:
            self._seen = self.hands._skipped.get(self.key, 0)

    def _table(self) -> Table | None:
        t = self.hands.service.tables.get(self.table_id)
        if t is None or t.game is None or self.key is None or t.seat_of(self.interaction.user.id) != self.key[1]:
            return None
        return t

    async def answered(self) -> None:
        """The click's action is stored: its answer is the clicker's hand as it is now (and, where
        the table pings or a new hand began, a new hand message after it)."""
        hands = self.hands
        hands.courier.saw(self.interaction.id)
        t = self._table()
        if t is None:
            self.answer.close()
            return
        assert self.key is not None
        async with hands._lock(self.key):  # after the hand messages already under way
            try:
                await hands.send_hand(t, self.key[1], click=self)
            except Exception:  # the hand goes out the usual way as the click ends
                log.warning("table %s: could not answer seat %s's click", t.id, self.key[1], exc_info=True)
                self._failed = True

    async def refused(self, text: str, serial: int) -> None:
        """A click the table refused: one sentence; a button of a turn that has passed also brings
        the hand up to date, so what the player sees offers only moves that are still open."""
        t = self._table()
        if t is not None and t.game is not None and not t.game.over and self.interaction.message is not None and serial != t.decision_serial():
            assert self.key is not None
            hands = self.hands
            async with hands._lock(self.key):
                current = hands._is_hand_message(t, self.key[1], self.message_id, self.ephemeral)
                self.taken()
                state = await hands.hand_state(t, self.key[1], buttons=current, picture=current, lang=self.lang)
                try:
                    await self.answer.show(state)
                except discord.HTTPException:
                    self._failed = True
                else:
                    if current:
                        hands._tokens.keep(self.key, self.interaction, self.message_id)
        await self.answer.say(text)

"""Ruleset ``seigou`` (整合麻雀 改, shared/rules/seigou.md), registered as ``seigou``: every seat gets
exactly one tile per go-around.

Scoring is riichi's without rinshan kaihou (SG-6); haitei and houtei are the SG-8 ones, which the
table expresses with the scorer's existing ``haitei``/``houtei`` flags.

The modules, in taiwan16's layout: :mod:`.options` (:class:`SeigouOptions`, seigou.md §6),
:mod:`.table` (:class:`SeigouTable`, the hooks and the turn bookkeeping) and :mod:`.ruleset`
(:class:`Seigou`, whose scoring hook is riichi's without rinshan kaihou). No ``hand.py`` and no
scoring module: a seigou hand line is the shared one and its scoring the riichi evaluator's.

The table is the riichi state machine with these hooks overridden (engine/table/HOOKS.md):

* turns never skip (SG-D1): turn ``t`` (1-based, counted in :class:`SeigouHand`) belongs to seat
  ``dealer + t - 1`` and is go-around ``(t - 1) // 4 + 1`` (SG-D2);
* a discard only opens a ron window (``call_options`` is empty); at the start of its turn a seat
  with something to claim gets a one-seat ``Phase.CLAIM`` window: chi of its kamicha's discard, or
  pon / daiminkan of any claimable discard (SG-D4, SG-1), each naming the discarder
  (``3p55m@1``); its pass means "draw" (SG-D3);
* a kan ends the turn: no replacement draw, no discard, kan dora at once (SG-5, SG-6, A4);
* the hand ends when North's last turn is over (SG-7), whatever the wall holds.

Readings chosen where the spec is silent: a 4th kan by a second player on North's last turn ends
the hand as suukaikan (it comes "right after the 4th kan", before the turn is over);
``claim_window="last_discard_only"`` keeps the latest discard made since the seat's previous turn
(after a kan turn, that is the one before it); ``turns_per_player`` below 18 ends the hand earlier
and ``riichi_last_turn`` past it simply never binds.
"""

from __future__ import annotations

from engine.rules.base import register
from engine.rules.seigou.options import CLAIM_WINDOWS, KAN_DORA_TIMINGS, SeigouOptions
from engine.rules.seigou.ruleset import SEIGOU_YAKU, Seigou
from engine.rules.seigou.table import (
    SeigouHand,
    SeigouTable,
    claimable_discards,
    discard_in_go_around,
    go_around,
    hand_of,
    river_rows,
    river_slots,
    turns_taken,
)

__all__ = [
    "CLAIM_WINDOWS",
    "KAN_DORA_TIMINGS",
    "SEIGOU_YAKU",
    "Seigou",
    "SeigouHand",
    "SeigouOptions",
    "SeigouTable",
    "claimable_discards",
    "discard_in_go_around",
    "go_around",
    "hand_of",
    "river_rows",
    "river_slots",
    "turns_taken",
]

register("seigou", Seigou)

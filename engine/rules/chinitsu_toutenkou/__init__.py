"""``chinitsu_toutenkou``: 清一色東天紅, three-player one-suit Toutenkou with White as a wildcard,
registered as ``chinitsu_toutenkou``.

Spec: ``shared/rules/chinitsu_toutenkou.md`` (rule ids CT-A1 … CT-H5). 112 tiles (one number suit
×8, 1m 5m 9m ×4, honours ×4), manzu and North are nuki-dora (gari), White stands for any honour,
and a hand is worth the sum of its point items (no fu, no limits).

The modules, in taiwan16's layout:

* :mod:`.options` — :class:`CtOptions`, the spec's options table (``ct.*``) plus the named
  defaults of its §J, and the kinds the rules name;
* :mod:`.points` — the scoring module: the point table (CT-G2) and the scorer, which enumerates
  every assignment of the Whites (and of the ippatsu White, CT-C2), every reading and every choice
  of a White dora indicator (CT-C4), and keeps the winner's best total; tenhou/chiihou take the
  cheapest winning tile (CT-G9); :func:`dora_kind` (CT-B5);
* :mod:`.hand` — the hand line: its extras (``python -m engine score``) are ``suit=p|s``
  (inferred from the tiles when absent), ``nuki=<tiles>`` (the winner's extracted gari, e.g.
  ``nuki=4z1m``; ``kita=N`` means N Norths), ``open_riichi=1``, ``dealin=1`` (a non-riichi player
  dealt into the open riichi), and any :class:`CtOptions` field as ``key=value``;
* :mod:`.table` — pure helpers the table uses (:func:`kuikae_forbidden` CT-E3,
  :func:`open_riichi_exposure_ok` and :func:`open_riichi_shown` CT-F2, :func:`riichi_ankan_ok`
  CT-F3, :func:`noten_payments` CT-H1, :func:`nagashi_payments` CT-G10, :func:`chombo_payments`
  CT-H3, :func:`call_priority` CT-E2, :func:`tile_codes` CT-B1) and :class:`ToutenkouTable`, the
  table hooks;
* :mod:`.ruleset` — :class:`ChinitsuToutenkou`: tile set, hand shapes
  (:class:`~engine.hand.wildcard.ToutenkouCalculator`) and the ``score`` hook; ``NOT_APPLICABLE``
  (the rules a physical table needs and the engine cannot break).
"""

from __future__ import annotations

from engine.rules.base import register
from engine.rules.chinitsu_toutenkou.options import NAME, CtOptions
from engine.rules.chinitsu_toutenkou.points import dora_kind
from engine.rules.chinitsu_toutenkou.ruleset import NOT_APPLICABLE, ChinitsuToutenkou
from engine.rules.chinitsu_toutenkou.table import (
    ToutenkouTable,
    call_priority,
    chombo_payments,
    kuikae_forbidden,
    nagashi_payments,
    noten_payments,
    open_riichi_exposure_ok,
    open_riichi_exposures,
    open_riichi_shown,
    riichi_ankan_ok,
    tile_codes,
)

__all__ = [
    "NOT_APPLICABLE",
    "ChinitsuToutenkou",
    "CtOptions",
    "ToutenkouTable",
    "call_priority",
    "chombo_payments",
    "dora_kind",
    "kuikae_forbidden",
    "nagashi_payments",
    "noten_payments",
    "open_riichi_exposure_ok",
    "open_riichi_exposures",
    "open_riichi_shown",
    "riichi_ankan_ok",
    "tile_codes",
]

register(NAME, ChinitsuToutenkou)

"""Ruleset ``shoukou``: 昇降麻雀, rank-shift mahjong (shared/rules/shoukou.md, seed 000), registered
as ``shoukou``.

Each call, kan or win may include one transformation: a number tile counts 3 ranks higher or
lower (SK-D1–D7). The modules, in taiwan16's layout:

* :mod:`.options` — :class:`ShoukouOptions` (shoukou.md §6), and the ``shoukou.<key>=<value>``
  flags of a hand line (``python -m engine score "... ruleset=shoukou shoukou.transform=false"``);
* :mod:`.scoring` — SK-8–SK-10: every interpretation of a winning hand and their union
  (whole-hand yaku once, partial yaku once per instance, dora from one interpretation, the
  maximum fu), with its direct valuation of the base yaku;
* :mod:`.moves` — SK-3–SK-7, SK-11: the transformed calls and kans, the extended wait set,
  kuikae after a transformed call (pure functions over a hand; a part taiwan16 does not have);
* :mod:`.table` — :class:`ShoukouTable`, the table hooks (``engine/table/hooks.py``) that put
  those into the game: call options and their priority (SK-12), kans, wins, waits and furiten;
* :mod:`.ruleset` — the :class:`ShoukouRuleset`.

No ``hand.py``: a shoukou hand line is the shared one (``engine.notation``) with ``shoukou.*``
flags, read by :meth:`ShoukouOptions.with_flags`.
"""

from __future__ import annotations

from engine.rules.base import register
from engine.rules.shoukou.options import ShoukouOptions
from engine.rules.shoukou.ruleset import ShoukouRuleset, shoukou_ruleset

__all__ = ["ShoukouOptions", "ShoukouRuleset", "shoukou_ruleset"]

register("shoukou", shoukou_ruleset)

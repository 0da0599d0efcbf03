"""Ruleset ``pk``: the PK rule, "perfect kansaki" (shared/rules/pk.md, seed 001), registered as ``pk``.

The modules, in taiwan16's layout:

* :mod:`.options` — :class:`PkOptions` (pk.md §8);
* :mod:`.yaku` — the scoring module: the PK-0 points table and the win-validity test (common
  qualifying yaku, anchoring), pure functions over a hand;
* :mod:`.table` — :class:`PkTable`, the table hooks (PK-6, PK-7, PK-11, PK-13, PK-0 payments);
* :mod:`.ruleset` — the :class:`PkRuleset` (its scoring hook applies :func:`analyse` first).

No ``hand.py``: a pk hand line is the shared one (``engine.notation``), with a ``furiten=yes``
flag read by :meth:`PkRuleset.score`.
"""

from __future__ import annotations

from engine.rules.base import register
from engine.rules.pk.options import PkOptions
from engine.rules.pk.ruleset import PkRuleset, pk_ruleset
from engine.rules.pk.table import PkTable
from engine.rules.pk.yaku import (
    FURITEN,
    NO_COMMON_YAKU,
    PK_TABLE,
    YAKUMAN_BASE,
    PkAnalysis,
    analyse,
    first_call,
    table_base,
    tenhou_ok,
)

__all__ = [
    "FURITEN",
    "NO_COMMON_YAKU",
    "PK_TABLE",
    "YAKUMAN_BASE",
    "PkAnalysis",
    "PkOptions",
    "PkRuleset",
    "PkTable",
    "analyse",
    "first_call",
    "pk_ruleset",
    "table_base",
    "tenhou_ok",
]

register("pk", pk_ruleset)

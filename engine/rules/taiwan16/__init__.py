"""taiwan16: Taiwanese 16-tile mahjong (rules/taiwan16.md), registered as ``taiwan16``.

* :mod:`.options` — :class:`TaiwanOptions` / :class:`TaiValues` (spec §9b);
* :mod:`.tai` — the tai table (§5, §6) and payments (TW-13), pure functions over a hand;
* :mod:`.hand` — the hand line (``python -m engine score "... ruleset=taiwan16"``);
* :mod:`.table` — :class:`~engine.rules.taiwan16.table.TaiwanTable`, the table hooks (wall, flowers,
  declared tenpai, calls, payments; TW-2 … TW-14);
* :mod:`.ruleset` — the :class:`Taiwan16` ruleset.
"""

from __future__ import annotations

from engine.rules.base import register
from engine.rules.taiwan16.options import TaiValues, TaiwanOptions
from engine.rules.taiwan16.ruleset import Taiwan16
from engine.rules.taiwan16.tai import ITEMS, T11_NAMES

__all__ = ["ITEMS", "T11_NAMES", "TaiValues", "Taiwan16", "TaiwanOptions"]

register("taiwan16", Taiwan16)

"""The ruleset object: tile set, hand size, players, options and the hooks variants override.

A ruleset is a frozen value. ``find_ruleset(name)`` returns the registered one; variants are
subclasses that override hooks (riichi.md §14) — never a fork of the scorer or the table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields, is_dataclass, replace
from typing import Any, ClassVar

from engine.hand.shanten import ShantenCalculator, calculator
from engine.notation import HandSpec
from engine.rules.options import PRESETS, RiichiOptions
from engine.scoring.evaluate import evaluate
from engine.scoring.result import ScoreResult
from engine.scoring.yaku import RIICHI_YAKU, RIICHI_YAKUMAN, Yaku
from engine.table.hooks import TableHooks

SANMA_REMOVED = frozenset(range(1, 8))  # 2m..8m


@dataclass(frozen=True, kw_only=True)
class Ruleset(TableHooks):
    name: str = "riichi"
    players: int = 4
    copies: int = 4  # copies of each kind
    hand_size: int = 13  # tiles in a hand before the draw
    max_sets: int = 4
    flowers: int = 0
    removed_kinds: frozenset[int] = frozenset()
    wildcards: frozenset[int] = frozenset()
    options: RiichiOptions = field(default_factory=RiichiOptions)
    yaku: tuple[Yaku, ...] = RIICHI_YAKU
    yakuman: tuple[Yaku, ...] = RIICHI_YAKUMAN

    description: ClassVar[str] = "Japanese riichi mahjong, Tenhou-style defaults"

    def shanten_calculator(self) -> ShantenCalculator:
        return calculator(self.copies, self.max_sets)

    def score(self, spec: HandSpec) -> ScoreResult:
        """Value of a winning hand (the scoring hook)."""
        return evaluate(spec, self)

    def with_options(self, **changes: Any) -> Ruleset:
        """Change riichi options (``kuitan=False``) or a variant's option group (``pk={...}``)."""
        groups = {k: v for k, v in changes.items() if k in self._option_groups()}
        plain = {k: v for k, v in changes.items() if k not in groups}
        rs = replace(self, options=_replace_typed(self.options, plain)) if plain else self
        for name, values in groups.items():
            current = getattr(rs, name)
            new: Any = values if is_dataclass(values) else _replace_typed(current, dict(values))
            rs = replace(rs, **{name: new})
        return rs

    def _option_groups(self) -> list[str]:
        """The variant's option groups: its dataclass-valued fields besides the riichi options."""
        return [f.name for f in fields(self) if f.name != "options" and is_dataclass(getattr(self, f.name))]

    def options_dict(self) -> dict[str, Any]:
        """Every option that differs from the registered ruleset's defaults, as JSON data: riichi
        options at the top level, each variant group (``pk``, ``seigou``, …) as a nested dict.
        ``find_ruleset(name).with_options(**d)`` gives this ruleset back."""
        base = find_ruleset(self.name)
        out = _changed(self.options, base.options)
        for name in self._option_groups():
            diff = _changed(getattr(self, name), getattr(base, name))
            if diff:
                out[name] = diff
        return out


def _changed(value: Any, base: Any) -> dict[str, Any]:
    now, before = asdict(value), asdict(base)
    return {k: v for k, v in now.items() if before.get(k) != v}


def _replace_typed(obj: Any, changes: dict[str, Any]) -> Any:
    """``dataclasses.replace`` from JSON data: lists become tuples, dicts nested dataclasses."""
    typed: dict[str, Any] = {}
    for key, v in changes.items():
        current = getattr(obj, key, None)
        if isinstance(v, dict) and is_dataclass(current) and not isinstance(current, type):
            v = _replace_typed(current, v)
        elif isinstance(v, list) and isinstance(current, tuple):
            v = tuple(v)
        elif isinstance(v, list) and isinstance(current, frozenset):
            v = frozenset(v)
        typed[key] = v
    return replace(obj, **typed)


_REGISTRY: dict[str, Callable[[], Ruleset]] = {}


def register(name: str, factory: Callable[[], Ruleset]) -> None:
    _REGISTRY[name] = factory


def ruleset_names() -> list[str]:
    return sorted(_REGISTRY)


class UnknownRuleset(ValueError):
    pass


def find_ruleset(name: str, players: int | None = None) -> Ruleset:
    """The ruleset called ``name``; ``players=3`` with ``tenhou``/``riichi`` means Tenhou sanma."""
    key = name.lower()
    if players == 3 and key in ("riichi", "tenhou"):
        key = "sanma"
    factory = _REGISTRY.get(key)
    if factory is None:
        raise UnknownRuleset(f"unknown ruleset '{name}': choose one of {', '.join(ruleset_names())}")
    rs = factory()
    if players is not None and players != rs.players:
        raise UnknownRuleset(f"ruleset '{name}' is for {rs.players} players, not {players}")
    return rs


def _riichi(preset: str) -> Callable[[], Ruleset]:
    def make() -> Ruleset:
        return Ruleset(name=preset, options=PRESETS[preset])

    return make


for _p in ("riichi", "tenhou", "mleague", "majiang", "mahjongsoul", "ema", "wrc"):
    register(_p, _riichi(_p))
register(
    "sanma",
    lambda: Ruleset(name="sanma", players=3, removed_kinds=SANMA_REMOVED, options=PRESETS["sanma"]),
)

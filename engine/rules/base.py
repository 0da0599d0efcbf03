"""The ruleset object: tile set, hand size, players, options, the hooks variants override, and
the facts the bot and the AI ask of a variant.

A ruleset is a frozen value. ``find_ruleset(name)`` returns the registered one; variants are
subclasses that override hooks (riichi.md §14) — never a fork of the scorer or the table.

Like python-chess's variants, a ruleset also declares what its presentation and its AI need as
typed members with riichi's values as defaults (the block "what the bot and the AI ask of a
variant" below): its game lengths, its place in menus, its units and words, what of a hand is
shown to others, its seat-wind rule, its AI profile, its look-up note and its rule texts. The bot
asks these; it never looks a variant up by name. Words are English; the bot may translate them
at the edge.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields, is_dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from engine.hand.shanten import ShantenCalculator, calculator
from engine.notation import HandSpec
from engine.rules.facts import AiProfile, GameLength, HandValue, TurnWindow
from engine.rules.options import PRESETS, RiichiOptions
from engine.scoring.evaluate import evaluate
from engine.scoring.result import ScoreResult
from engine.scoring.yaku import RIICHI_YAKU, RIICHI_YAKUMAN, Yaku
from engine.table.hooks import TableHooks

if TYPE_CHECKING:
    from engine.table.game import Game

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

    # -- what the bot and the AI ask of a variant (Ruleset facts) --------------------------------
    # Riichi's values; a variant declares the ones that differ at the top of its class body. The
    # riichi presets and sanma (below) are this class, so these are their facts too.

    #: Place in menus (``/table open``): lower first; equal places keep the order of registration.
    menu_order: ClassVar[int] = 0
    #: Whether a table can play a whole game of it (False keeps it out of ``/table open``).
    table_ready: ClassVar[bool] = True
    #: The rule texts ``/rule`` shows for it (``bot/rules_text/<rule_book>.md``) and the prefix of
    #: their rule ids (``R-6.4``); the riichi presets share riichi's.
    rule_book: ClassVar[str] = "riichi"
    rule_prefix: ClassVar[str] = "R"
    #: What the scores count (``25000 points``; taiwan16 chips).
    score_unit: ClassVar[str] = "points"
    #: Whether the final result is the uma/oka-adjusted one (``+45.0``); False: the final score is
    #: the result, in :attr:`score_unit`.
    final_with_uma: ClassVar[bool] = True
    #: How a winning hand's value is counted and worded: ``han_fu`` (han and fu → points; pk's han +
    #: bazoro on its table), ``tai`` (tai items → chips), ``points`` (point items, no fu).
    hand_value: ClassVar[HandValue] = "han_fu"
    #: The word for the counter of repeated deals (``East 2, 1 honba``).
    honba_word: ClassVar[str] = "honba"
    #: The riichi action's name on its button, and whether declaring pays a stick (False: a
    #: declared tenpai, the table lists the seats as ready instead of showing a stick).
    riichi_word: ClassVar[str] = "Riichi"
    riichi_stick: ClassVar[bool] = True
    #: The warning under a furiten seat's hand.
    furiten_warning: ClassVar[str] = "You are furiten: you cannot win by ron."
    #: What the tiles a seat sets aside are, for its pictures: ``kita`` (nuki) or ``flower``.
    set_aside: ClassVar[str] = "kita"
    #: The seat-wind rule: False, the winds follow the dealer (:meth:`seat_wind_of`); True, the
    #: dealer's dice seat them, so the table says who is East and who deals.
    seats_by_dice: ClassVar[bool] = False
    #: What ``/shanten`` leaves out for it (empty: nothing).
    shanten_note: ClassVar[str] = ""
    #: The riichi options (``RiichiOptions`` fields) a club may change for this ruleset: None, every
    #: one (riichi, its presets, and the variants that play riichi's rules where they say nothing);
    #: a set, only those (taiwan16 and chinitsu_toutenkou keep riichi's fields only to run the
    #: shared table, neutral or derived from their own options group, so a house rule goes there).
    riichi_options_read: ClassVar[frozenset[str] | None] = None

    def lengths(self) -> tuple[GameLength, ...]:
        """The game lengths a table offers, this ruleset's own default first (R-2.5: hanchan or
        tonpuu)."""
        east_south = GameLength("hanchan", "hanchan (East and South rounds)", {"hanchan": True})
        east = GameLength("tonpuu", "tonpuu (East round only)", {"hanchan": False})
        return (east_south, east) if self.options.hanchan else (east, east_south)

    def counted_length(self, n: int) -> GameLength | None:
        """The length ``n`` typed as a bare number means beyond :meth:`lengths`, or None."""
        return None

    def length_text(self) -> str:
        """How long a game of this ruleset (with its options) lasts, in its own words."""
        return "hanchan" if self.options.hanchan else "tonpuu"

    def fixed_hands(self) -> int:
        """The number of hands a game lasts when it counts hands instead of rounds (0: rounds)."""
        return 0

    def ai_profile(self) -> AiProfile:
        """The rule facts the AI's choices depend on (riichi: pon value honours, kuitan as set)."""
        return AiProfile(calls="value", kuitan=self.options.kuitan)

    def seat_wind_of(self, g: Game, seat: int) -> int:
        """The seat's wind this hand (R-2.2: counted from the dealer)."""
        return g.seat_wind(seat)

    def turn_window(self, g: Game) -> TurnWindow:
        """The kind of one-seat window the seat to act is in at the start of its turn (a
        ``Phase.CLAIM`` of one seat before its draw); ``""`` in riichi, which has none."""
        return ""

    def dice(self, g: Game) -> tuple[int, ...]:
        """The dealer's roll that seated this hand (:attr:`seats_by_dice`), or () when none was
        rolled (riichi seats by the dealer; taiwan16's first hand has no roll, A15)."""
        return ()

    def shown_tiles(self, g: Game, seat: int) -> tuple[int, ...]:
        """Tile codes of the seat's concealed hand shown to everyone (an open riichi); () in riichi."""
        return ()

    def open_riichi_seats(self, g: Game) -> set[int]:
        """Seats whose hand is shown by an open riichi; none in riichi."""
        return set()

    def deals_into_open_riichi(self, g: Game, seat: int, code: int) -> list[int]:
        """Open-riichi seats that would win on ``code`` discarded by ``seat``; none in riichi."""
        return []

    def why_tsumo_blocked(self, g: Game, seat: int) -> str | None:
        """Why the seat's complete hand may not win by tsumo for a rule of this ruleset, in its
        words, or None (riichi blocks no tsumo beyond a missing yaku)."""
        return None

    def river_slots(self, g: Game, seat: int) -> list[int | None] | None:
        """The seat's river laid out one slot per go-around (None: an empty slot), or None when the
        river is its discards in order (riichi)."""
        return None

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


def unregister(name: str) -> None:
    """Forget a registered ruleset (a test that registers one of its own takes it back)."""
    _REGISTRY.pop(name, None)


def rulesets_in_menu_order() -> list[Ruleset]:
    """Every registered ruleset, by :attr:`Ruleset.menu_order`, equal places in the order they
    were registered."""
    return sorted((factory() for factory in _REGISTRY.values()), key=lambda rs: rs.menu_order)


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

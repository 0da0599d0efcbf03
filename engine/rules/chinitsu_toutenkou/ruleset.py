"""The chinitsu_toutenkou :class:`Ruleset`: tile set, hand shapes (the table's
:class:`~engine.hand.wildcard.ToutenkouCalculator`), the riichi options it derives from its own
(``ct``, :class:`CtOptions`) and the ``score`` hook."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from engine.hand.shanten import ShantenCalculator
from engine.hand.wildcard import MANZU
from engine.notation import WINDS, HandSpec, WinContext
from engine.rules.base import Ruleset
from engine.rules.chinitsu_toutenkou.hand import _infer_suit, _parse_options
from engine.rules.chinitsu_toutenkou.options import GARI_KINDS, NAME, NORTH, WHITE, CtOptions
from engine.rules.chinitsu_toutenkou.points import _Best, _Scorer
from engine.rules.chinitsu_toutenkou.table import ToutenkouTable, _counts, _TableCalculator
from engine.rules.facts import AiProfile, GameLength, HandValue
from engine.rules.options import AbortiveDraws, RiichiOptions
from engine.scoring.evaluate import HandError
from engine.scoring.result import NO_YAKU, NOT_A_WIN, ScoreResult, YakuScore
from engine.tiles import KIND_NAMES, RED, kind_of, parse_tiles

__all__ = ["NOT_APPLICABLE", "ChinitsuToutenkou"]


# Table-only rules (fixing physical mistakes, or declarations the engine makes atomic).
NOT_APPLICABLE: dict[str, str] = {
    "CT-E5": "call cancellation before the discard and 'a kan is final once placed' are table "
    "manners; the engine's call actions are atomic",
    "CT-H4": "missing tiles, wrongly extracted tiles, a winning tile taken into the hand, pointing "
    "out others' mistakes and signalling waits are physical-table matters the engine cannot get wrong",
}


@dataclass(frozen=True, kw_only=True)
class ChinitsuToutenkou(ToutenkouTable, Ruleset):
    """The ruleset object: 3 players, 8 copies of the game suit, White wild (see the package docstring)."""

    # what the bot and the AI ask of this variant (Ruleset facts)
    menu_order: ClassVar[int] = 50
    rule_book: ClassVar[str] = "chinitsu_toutenkou"
    rule_prefix: ClassVar[str] = "CT"
    final_with_uma: ClassVar[bool] = False  # the points are the result (no uma)
    hand_value: ClassVar[HandValue] = "points"

    def lengths(self) -> tuple[GameLength, ...]:
        """CT-A12: one-hand settlements; a table plays ``ct.table_hands`` of them."""
        hands = [self.ct.table_hands] + [h for h in (3, 6, 9, 12) if h != self.ct.table_hands]
        return tuple(GameLength(f"{h}-hands", f"{h} hands", {"ct": {"table_hands": h}}) for h in hands)

    def counted_length(self, n: int) -> GameLength | None:
        return GameLength(f"{n}-hands", f"{n} hands", {"ct": {"table_hands": n}}) if 1 <= n <= 60 else None

    def length_text(self) -> str:
        return f"{self.ct.table_hands} hands"

    def fixed_hands(self) -> int:
        return self.ct.table_hands

    def ai_profile(self) -> AiProfile:
        """One number suit: every hand without manzu is at least a half flush (honitsu), so a call
        that advances the hand keeps a yaku. CT-A3: gari are dead tiles except in kokushi."""
        return AiProfile(
            calls="yaku",
            kuitan=self.options.kuitan,
            open_riichi_min_waits=4,
            gari=frozenset(GARI_KINDS),
            kokushi_keeps_gari=True,
        )

    name: str = NAME
    players: int = 3
    copies: int = 8
    hand_size: int = 13
    max_sets: int = 4
    removed_kinds: frozenset[int] = frozenset({1, 2, 3, 5, 6, 7, *range(18, 27)})
    wildcards: frozenset[int] = frozenset({WHITE})
    options: RiichiOptions = field(
        default_factory=lambda: RiichiOptions(
            players=3,
            red_fives=(0, 0, 0),
            start_points=0,
            return_points=0,
            uma=(0, 0, 0),
            tobi=False,
            hanchan=False,
            kita=True,
            tsumo_loss=False,
            honba_ron=1,
            honba_tsumo=1,
            noten_total=40,
            nagashi_mangan=True,
            multi_ron="double",
            riichi_min_live=3,
            pao=(),
            abortive_draws=AbortiveDraws(
                kyuushu_kyuuhai=False,
                suufon_renda=False,
                suucha_riichi=False,
                suukaikan=False,
                sanchahou=False,
            ),
        )
    )
    ct: CtOptions = field(default_factory=CtOptions)

    #: Its house rules are its own group's (``tw.``/``ct.``): riichi's fields here only run the
    #: shared table, neutral or derived from that group.
    riichi_options_read: ClassVar[frozenset[str] | None] = frozenset()
    description: ClassVar[str] = "清一色東天紅: 3 players, one suit ×8, White wild, points (no fu)"

    def shanten_calculator(self) -> ShantenCalculator:
        return _TableCalculator(self.ct.suit_base)

    def __post_init__(self) -> None:
        """What follows from the ``ct`` options, so that ``with_options(ct={...})`` (a game
        reloaded from its saved options) gives the same ruleset as one built with those ``ct`` options: the kinds the
        game suit leaves out (CT-B1), the starting stack (CT-A12/J17) and the abortive draws
        (J9: only nine terminals exists among three players without a four-kan draw, CT-D4)."""
        ct = self.ct
        other = range(18, 27) if ct.suit == "p" else range(9, 18)
        object.__setattr__(self, "removed_kinds", frozenset({1, 2, 3, 5, 6, 7, *other}))
        opts = self.options
        derived = replace(
            opts,
            start_points=ct.start_points,
            noten_total=ct.noten_total,
            abortive_draws=replace(opts.abortive_draws, kyuushu_kyuuhai=ct.abortive_draws),
        )
        if derived != opts:
            object.__setattr__(self, "options", derived)

    # -- the scoring hook ----------------------------------------------------------------------

    def score(self, spec: HandSpec) -> ScoreResult:
        """CT-G: every point item and the total (``points``); ``details`` has the White
        assignments, the White-indicator choices and the qualifying points."""
        opts = _parse_options(spec, replace(self.ct, suit=_infer_suit(spec, self.ct.suit)))
        concealed = self._validate(spec, opts)
        sc = _Scorer(self, spec, opts)
        ctx = spec.ctx
        win = spec.win_tile
        all14 = [*concealed, kind_of(win)]
        if ctx.tenhou or ctx.chiihou:
            # CT-G9: the winning tile is whichever of the 14 gives the lowest score
            picked: tuple[_Best, int] | None = None
            complete = False
            for k in sorted(set(all14)):
                b = sc.best_for(all14, k)
                if b is None:
                    if self.shanten_calculator().is_agari(_counts(all14)):
                        complete = True
                    continue
                if picked is None or b.total < picked[0].total:
                    picked = (b, k)
            if picked is None:
                return ScoreResult(False, reason=NO_YAKU if complete else NOT_A_WIN)
            best = picked[0]
            best.details["win_tile_as"] = KIND_NAMES[picked[1]]
        else:
            found = sc.best_for(all14, win)
            if found is None:
                calc = self.shanten_calculator()
                c = _counts(all14)
                if calc.is_agari(c) or (kind_of(win) == WHITE and ctx.tsumo and ctx.ippatsu):
                    return ScoreResult(False, reason=NO_YAKU)
                return ScoreResult(False, reason=NOT_A_WIN)
            best = found
        return self._result(best, ctx)

    def _validate(self, spec: HandSpec, opts: CtOptions) -> list[int]:
        expected = self.hand_size - 3 * len(spec.melds)
        concealed = list(spec.concealed)
        if len(concealed) == expected + 1 and spec.win_tile in concealed:
            concealed.remove(spec.win_tile)
        if len(concealed) != expected:
            raise HandError(
                f"with {len(spec.melds)} meld(s) the concealed part must have {expected} tiles before "
                f"the winning tile, got {len(concealed)}"
            )
        every = [0] * 34
        codes = [*concealed, spec.win_tile, *(t for m in spec.melds for t in m.tiles)]
        for code in codes:
            if code & RED:
                raise HandError("there are no red fives in chinitsu_toutenkou")
            k = kind_of(code)
            if k >= 34:
                raise HandError("flowers are not used in chinitsu_toutenkou")
            every[k] += 1
        nuki = spec.options.get("nuki")
        if nuki:
            for t in parse_tiles(nuki):
                every[kind_of(t)] += 1
        else:
            every[NORTH] += spec.ctx.kita
        base = opts.suit_base
        for k in range(34):
            if not every[k]:
                continue
            if k < 27 and k not in MANZU and not base <= k < base + 9:
                raise HandError(f"{KIND_NAMES[k]} is not used in a {opts.suit} game of chinitsu_toutenkou")
            limit = 8 if k >= 9 and k < 27 else 4
            if every[k] > limit:
                raise HandError(f"{KIND_NAMES[k]} appears {every[k]} times; there are only {limit}")
        return [kind_of(c) for c in concealed]

    def _result(self, best: _Best, ctx: WinContext) -> ScoreResult:
        total = best.total
        seat = ctx.seat_wind
        stick = self.ct.riichi_stick
        others = [WINDS[o] for o in range(self.players) if o != seat]
        if ctx.tsumo:
            pay = dict.fromkeys(others, -total)
            pay[WINDS[seat]] = total * (self.players - 1) + stick * ctx.sticks
        else:
            if ctx.discarder is not None:
                pay = dict.fromkeys(others, 0)
                pay[WINDS[ctx.discarder]] = -total
            else:
                pay = {"discarder": -total}
            pay[WINDS[seat]] = total + stick * ctx.sticks
        return ScoreResult(
            True,
            tuple(YakuScore(i.name, i.points) for i in best.items),
            total,
            0,
            0,
            total,
            pay,
            "",
            wait=best.wait,
            details=best.details,
            breakdown=best.breakdown,
        )

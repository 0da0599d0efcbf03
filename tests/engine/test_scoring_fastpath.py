"""The scoring fast path (engine/scoring/fastpath.py) against the generic per-object path.

Both must give the very same :class:`ScoreResult` (every field, payments in the same order) for
every hand: the kobalab and RiichiEnv datasets under their own rulesets, the same hands under
option variants that keep the standard yaku tuples (so still take the fast path), generated
hands, hands that are not complete, and invalid hands (where the fast path must step aside so
that the generic path raises its error). A ruleset whose yaku tuples are not the standard ones,
or whose agari hook is overridden, must never reach the fast path.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

import engine.scoring.evaluate as ev
from engine.hand.shanten import ShantenCalculator
from engine.notation import HandSpec, parse_hand
from engine.rules import find_ruleset
from engine.rules.base import Ruleset
from engine.scoring import fastpath
from engine.scoring.evaluate import HandError, evaluate, evaluate_generic
from engine.scoring.fastpath import score_fast
from engine.scoring.result import ScoreResult
from engine.scoring.yaku import RIICHI_YAKU, RIICHI_YAKUMAN
from tests.engine.datasets import kobalab_cases, riichienv_cases
from tests.engine.generated import generate_hands

N_GENERATED = 4000


def _ruleset(spec: HandSpec) -> Ruleset:
    return find_ruleset(spec.ruleset, spec.ctx.players if spec.ctx.players != 4 else None)


def _diff(spec: HandSpec, rs: Ruleset) -> str | None:
    """None when both paths agree on this hand under this ruleset, else a readable difference."""
    try:
        generic: ScoreResult | str = evaluate_generic(spec, rs)
    except HandError as e:
        generic = f"HandError: {e}"
    fast = score_fast(spec, rs)
    if isinstance(generic, str):
        if fast is not None:
            return f"generic raised {generic!r}, fast gave {fast}"
        try:
            evaluate(spec, rs)
        except HandError as e:
            if f"HandError: {e}" == generic:
                return None
            return f"evaluate raised {e!r}, generic {generic!r}"
        return f"evaluate did not raise; generic {generic!r}"
    if fast is None:
        # The fast path may decline (e.g. the winning tile written into the concealed part);
        # evaluate() must then give the generic answer.
        return None if evaluate(spec, rs) == generic else "declined, and evaluate() differs"
    if fast != generic or list(fast.payments) != list(generic.payments):
        return f"\n  fast    {fast}\n  generic {generic}"
    return None


def _check(specs: list[tuple[str, HandSpec, Ruleset]]) -> None:
    bad = [(line, d) for line, spec, rs in specs if (d := _diff(spec, rs)) is not None]
    assert not bad, f"{len(bad)} of {len(specs)} differ:\n" + "\n".join(f"{ln}: {d}" for ln, d in bad[:20])


def _parsed(lines: list[str]) -> list[tuple[str, HandSpec, Ruleset]]:
    out = []
    for line in lines:
        spec = parse_hand(line)
        out.append((line, spec, _ruleset(spec)))
    return out


@pytest.fixture(scope="module")
def kobalab() -> list[tuple[str, HandSpec, Ruleset]]:
    return _parsed([line for line, _ in kobalab_cases()])


@pytest.fixture(scope="module")
def generated() -> list[tuple[str, HandSpec, Ruleset]]:
    return _parsed([h.line for h in generate_hands(N_GENERATED, seed=20240777)])


def test_the_standard_rulesets_take_the_fast_path() -> None:
    assert fastpath.SUPPORTED
    for name, players in (
        ("riichi", None),
        ("tenhou", None),
        ("mleague", None),
        ("majiang", None),
        ("mahjongsoul", None),
        ("tenhou", 3),
    ):
        rs = find_ruleset(name, players)
        assert rs.yaku is RIICHI_YAKU and rs.yakuman is RIICHI_YAKUMAN
        assert ev._fast_shape(rs), name


def test_kobalab_10000_hands(kobalab: list[tuple[str, HandSpec, Ruleset]]) -> None:
    _check(kobalab)


def test_riichienv_4p_and_3p_hands() -> None:
    lines = [line for line, _ in riichienv_cases(4)] + [line for line, _ in riichienv_cases(3)]
    specs = _parsed(lines)
    # the 4p set also under Mahjong Soul rules (double yakuman), as the dataset test scores it
    specs += [(line, spec, find_ruleset("mahjongsoul")) for line, spec, rs in specs if spec.ctx.players == 4]
    _check(specs)


def test_generated_hands(generated: list[tuple[str, HandSpec, Ruleset]]) -> None:
    _check(generated)


OPTION_VARIANTS: list[dict[str, Any]] = [
    {"kuitan": False},
    {"kiriage": True, "kazoe": "sanbaiman"},
    {"double_yakuman": True, "yakuman_stacking": False},
    {"double_yakuman": False, "yakuman_stacking": False},
    {"double_wind_pair_fu": 2, "honba_ron": 500, "honba_tsumo": 200},
]


@pytest.mark.parametrize("changes", OPTION_VARIANTS, ids=lambda c: ",".join(c))
def test_option_variants_keep_the_fast_path_and_agree(
    changes: dict[str, Any],
    kobalab: list[tuple[str, HandSpec, Ruleset]],
    generated: list[tuple[str, HandSpec, Ruleset]],
) -> None:
    variant = find_ruleset("riichi").with_options(**changes)
    assert ev._fast_shape(variant)
    specs = [(line, spec, variant) for line, spec, _ in kobalab[::4] + generated]
    _check(specs)


def _mutations(rng: random.Random, spec: HandSpec) -> list[HandSpec]:
    """Hands near a winning one: another winning tile (mostly not complete), another concealed
    tile, the winning tile written into the concealed part, a fifth copy, an extra red five."""
    out = [replace(spec, win_tile=rng.randrange(34))]
    if spec.concealed:
        i = rng.randrange(len(spec.concealed))
        tiles = list(spec.concealed)
        tiles[i] = rng.randrange(34)
        out.append(replace(spec, concealed=tuple(tiles)))
        out.append(replace(spec, concealed=tuple(sorted((*spec.concealed, spec.win_tile)))))
        k = spec.concealed[0] & 63
        out.append(replace(spec, concealed=(*spec.concealed[:-2], k, k), win_tile=k))
        out.append(replace(spec, concealed=(*spec.concealed[:-1], 4 | 0x40), win_tile=4 | 0x40))
    return out


def test_incomplete_and_invalid_hands(generated: list[tuple[str, HandSpec, Ruleset]]) -> None:
    rng = random.Random(7)
    specs = []
    for line, spec, rs in generated[:1500]:
        for i, m in enumerate(_mutations(rng, spec)):
            specs.append((f"{line} [mutation {i}]", m, rs))
            specs.append((f"{line} [mutation {i}, sanma]", m, find_ruleset("sanma")))
    _check(specs)
    outcomes = set()
    for _, spec, rs in specs:
        try:
            outcomes.add(evaluate(spec, rs).reason or "win")
        except HandError:
            outcomes.add("error")
    assert outcomes == {"win", "no_yaku", "not_a_winning_hand", "error"}


def test_other_yaku_tuples_take_the_generic_path(
    monkeypatch: pytest.MonkeyPatch, kobalab: list[tuple[str, HandSpec, Ruleset]]
) -> None:
    def refuse(spec: HandSpec, rs: Ruleset) -> ScoreResult | None:
        raise AssertionError("the fast path was used")

    monkeypatch.setattr(ev, "score_fast", refuse)
    base = find_ruleset("riichi")

    class OwnAgari(Ruleset):
        def shanten_calculator(self) -> ShantenCalculator:
            return super().shanten_calculator()

    variants = [
        replace(base, yaku=RIICHI_YAKU[:-1]),  # no chinitsu
        replace(base, yaku=tuple([*RIICHI_YAKU])),  # equal, but not the standard tuple itself
        replace(base, yakuman=tuple([*RIICHI_YAKUMAN])),
        OwnAgari(name="own-agari"),
    ]
    for rs in variants:
        assert rs.yaku is not RIICHI_YAKU or rs.yakuman is not RIICHI_YAKUMAN or type(rs) is not Ruleset
        for _, spec, _ in kobalab[:200]:
            evaluate(spec, rs)

"""Seeded random self-play and the invariants every game state must keep (used by the tests)."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from typing import Any

from engine.rules.base import Ruleset
from engine.table.actions import Action, ActionType
from engine.table.game import Game


def wall_tiles(g: Game) -> list[int]:
    """The tiles still in the wall: the live wall up to its end and the indicator stacks."""
    return g.live[g.live_pos : g.live_end] + list(g.deal.dora) + list(g.deal.ura)


def all_tiles(g: Game, wall: Callable[[Game], list[int]] = wall_tiles) -> list[int]:
    """Every physical tile somewhere in the current hand's state; ``wall`` reads the wall of a
    ruleset whose wall is laid out otherwise (chinitsu_toutenkou's)."""
    out: list[int] = []
    for st in g.seats:
        out += st.tiles
        for m in st.melds:
            out += m.tiles
        out += [t for t, called in zip(st.river, st.river_called) if not called]
        out += st.kita
    out += wall(g)
    out += g.rinshan[g.rinshan_pos :]
    return out


def check_points(g: Game) -> None:
    """Point conservation: the scores and the riichi sticks on the table add up to the start."""
    total_points = sum(g.scores) + g.ruleset.stick_value(g) * g.sticks
    assert total_points == g.opts.start_points * g.players, (g.scores, g.sticks)


def check_invariants(g: Game, tiles_of: Callable[[Game], list[int]] = all_tiles) -> None:
    """Points conserved; every physical tile of the set exactly once in ``tiles_of(g)`` (a ruleset
    that keeps tiles elsewhere, such as seigou's unused ones, passes its own); nobody asked to
    act without a legal action."""
    check_points(g)
    if g.over:
        return
    tiles = tiles_of(g)
    counts = Counter(tiles)
    dup = [t for t, c in counts.items() if c > 1]
    assert not dup, f"tiles counted twice: {dup}"
    expected = sum(1 for c in g.tileset.codes if c >= 0)
    assert len(tiles) == expected, (len(tiles), expected)
    for s in g.to_act():
        assert len(g.legal_actions(s)) > 0, f"seat {s} asked to act with no legal action"


_EAGER = (ActionType.TSUMO, ActionType.RON, ActionType.RIICHI, ActionType.PON, ActionType.ANKAN, ActionType.KAKAN)

Agent = Callable[[Game, int, list[Action], random.Random], Action]
"""Chooses one of a seat's legal actions (the game, the seat, its legal actions, the game's rng)."""


def random_agent(g: Game, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """Uniform random legal play."""
    return rng.choice(legal)


def eager_agent(
    order: Sequence[ActionType] = _EAGER, *, p: float = 1.0, always: Collection[ActionType] = ()
) -> Agent:
    """Takes the first action type of ``order`` that is offered, with probability ``p`` (1 for the
    types in ``always``), else the next one; uniform random among what is left."""

    def choose(g: Game, seat: int, legal: list[Action], rng: random.Random) -> Action:
        for t in order:
            best = [a for a in legal if a.type is t]
            if best and (p >= 1 or t in always or rng.random() < p):
                return rng.choice(best)
        return rng.choice(legal)

    return choose


def play_random(
    ruleset: Ruleset,
    seed: int,
    *,
    check_every: int = 0,
    max_steps: int = 20000,
    eager: bool = False,
    start: tuple[int, int, int, int] | None = None,
    on_step: Callable[[Game, int], None] | None = None,
    agent: Agent | None = None,
) -> Game:
    """Uniform random legal play; ``eager`` takes wins, riichi, pon and kans whenever offered
    (so that wins, kans, pao and the rarer settlements actually happen); ``agent``, when given,
    chooses instead (see :func:`eager_agent`). ``start`` is the game's (round, hand, honba,
    sticks) to begin at; ``on_step(g, steps)`` runs before each action."""
    rng = random.Random(seed)
    g = Game(ruleset, seed=seed, start=start)
    steps = 0
    while not g.over:
        if on_step is not None:
            on_step(g, steps)
        acting = g.to_act()
        assert acting, "the game waits for nobody"
        s = acting[0]
        legal = list(g.legal_actions(s))
        assert legal
        if agent is not None:
            g.apply(agent(g, s, legal, rng))
        else:
            if eager:
                for t in _EAGER:
                    best = [a for a in legal if a.type is t]
                    if best:
                        legal = best
                        break
            g.apply(rng.choice(legal))
        steps += 1
        if check_every and steps % check_every == 0:
            check_invariants(g)
        assert steps < max_steps, "game does not end"
    return g


def check_final(g: Game) -> None:
    """Final scores follow from the hand results: start + deltas − deposits (+ sticks to the top)."""
    n = g.players
    stick = g.ruleset.stick_value(g)
    scores = [g.opts.start_points] * n
    for r in g.results:
        for s in r.riichi_deposits:
            scores[s] -= stick
        for s in range(n):
            scores[s] += r.deltas[s]
        assert tuple(scores) == r.scores_after, (r, scores)
    leftover = g.opts.start_points * n - sum(scores)
    assert leftover % stick == 0 and leftover >= 0
    top = g.ranking()[0]
    scores[top] += leftover
    assert tuple(scores) == g.final_scores
    assert len(g.final_results) == n
    assert abs(sum(g.final_results)) < 0.01 + 0.1 * n


def _state(g: Game) -> tuple[Any, ...]:
    """What a look-ahead must not change: the stored game, the seats, the answers awaited."""
    seats = [(st.tiles, st.counts, st.melds, st.river, st.river_called, st.furiten_temp, st.ippatsu) for st in g.seats]
    legal = [[a.text for a in g.legal_actions(s)] for s in g.to_act()]
    return json.dumps(g.to_dict()), repr(seats), repr(g.hand_state), legal, list(g.scores), g.phase, g.current


def check_copy_isolated(g: Game, seed: int, ahead: int = 30) -> None:
    """``Game.copy()`` (the AI's look-ahead) played ``ahead`` random steps on leaves ``g`` as it was."""
    before = _state(g)
    rng = random.Random(seed)
    h = g.copy()
    for _ in range(ahead):
        if h.over:
            break
        h.apply(rng.choice(list(h.legal_actions(h.to_act()[0]))))
    assert _state(g) == before, "Game.copy() shares state with the original"


def check_reload(g: Game) -> Game:
    """The game saved as JSON (``Game.to_dict``) and rebuilt (``Game.from_dict``) is the same game."""
    again = Game.from_dict(json.loads(json.dumps(g.to_dict())))
    assert again.ruleset == g.ruleset
    assert [a.text for a in again.actions] == [a.text for a in g.actions]
    assert [r.deltas for r in again.results] == [r.deltas for r in g.results]
    assert again.scores == g.scores and again.final_scores == g.final_scores
    return again

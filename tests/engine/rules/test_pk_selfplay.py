"""Ruleset ``pk``: 1,000 seeded random self-play games finish without an error, with tile and point
conservation, and every win they produce obeys PK-0/PK-5/PK-10.

To stay well under a minute the 1,000 games are *short* games: tonpuu games started at the all-last
hand (East 4), which end after that hand unless the dealer keeps the deal (1–3 hands each). A further
100 full tonpuu games exercise the hand-to-hand flow (dealer rotation, honba, sticks, game end).
Half of the games use the win-eager agent of ``tests/engine/selfplay.py`` (wins, riichi, pon, kans
taken whenever offered), half the uniform random one.
"""

from __future__ import annotations

import pytest

from engine.rules import find_ruleset
from engine.rules.base import Ruleset
from engine.table.game import Game, WinResult
from tests.engine.selfplay import check_final, play_random

TONPUU = find_ruleset("pk").with_options(hanchan=False)
ALL_LAST = (0, 3, 0, 0)  # East round, fourth hand, no honba, no sticks

# PK-0.3 non-dealer ron by table han (typed from the spec); dealer ron is 1.5×, yakuman 32000/48000.
SPEC_RON = {3: 1000, 4: 2000, 5: 4000, 6: 8000, 7: 8000, 8: 12000, 9: 12000, 10: 16000, 11: 16000, 12: 16000}
NOT_A_BASIS = {
    "menzen_tsumo",
    "ippatsu",
    "haitei",
    "houtei",
    "rinshan",
    "chankan",
    "dora",
    "aka_dora",
    "ura_dora",
}


def play_short(rs: Ruleset, seed: int, *, eager: bool, check_every: int = 0) -> Game:
    """The agents of ``play_random``, on a game that starts at the all-last hand."""
    return play_random(rs, seed, eager=eager, check_every=check_every, start=ALL_LAST)


def check_pk_wins(g: Game) -> list[WinResult]:
    """Every win: a basis yaku (PK-3/PK-4), no open tanyao (PK-10), no fu and the table's points."""
    wins = [w for r in g.results for w in r.wins]
    for w in wins:
        s = w.score
        assert s.agari and s.fu == 0
        assert w.hand is not None
        names = {y.name for y in s.yaku}
        assert names - NOT_A_BASIS, names
        if any(m.opened for m in w.hand.melds):
            assert "tanyao" not in names
        dealer = w.hand.ctx.seat_wind == 0
        if s.yakuman:
            unit = 48000 if dealer else 32000
            assert s.points == unit * s.yakuman
        elif not w.hand.ctx.tsumo:
            ko = SPEC_RON.get(s.han + 2, 24000 if s.han + 2 <= 14 else 32000)
            assert s.points == (ko * 3 // 2 if dealer else ko)
        assert s.details.get("common_yaku") or s.details.get("tenhou_check")
    return wins


CHUNKS = 10
GAMES_PER_CHUNK = 100


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_pk_selfplay_1000_short_games_conserve_tiles_and_points(chunk: int) -> None:
    for i in range(GAMES_PER_CHUNK):
        seed = chunk * GAMES_PER_CHUNK + i
        g = play_short(TONPUU, seed, eager=i % 2 == 1, check_every=3 if i % 5 == 0 else 0)
        assert g.over and not g.truncated
        check_final(g)
        check_pk_wins(g)


def test_pk_selfplay_100_full_tonpuu_games() -> None:
    kinds: set[str] = set()
    wins = 0
    for seed in range(100):
        g = play_random(TONPUU, 5000 + seed, check_every=7 if seed % 10 == 0 else 0, eager=seed % 2 == 1)
        check_final(g)
        wins += len(check_pk_wins(g))
        kinds.update(r.kind for r in g.results)
    assert "exhaustive" in kinds and wins > 0, kinds

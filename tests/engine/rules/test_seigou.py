"""Ruleset ``seigou`` (shared/rules/seigou.md): one test or more per rule id, the worked timelines
of §4 through the state machine with scripted deals, the §3 rows and the §6 options.

Deals are scripted: each seat's 13 tiles, chosen live-wall positions, the rest filled from the
remaining tiles. With no claim before it, turn ``t`` (1-based: E1 S1 W1 N1 E2 ...) draws live
tile ``t - 1`` (the dealer's turn 1 takes live tile 0, the 14th dealt tile).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

import pytest

from engine.notation import parse_hand
from engine.rules import find_ruleset
from engine.rules.seigou import (
    SEIGOU_YAKU,
    Seigou,
    SeigouOptions,
    claimable_discards,
    discard_in_go_around,
    go_around,
    hand_of,
    river_rows,
    river_slots,
    turns_taken,
)
from engine.scoring import score_line
from engine.table.actions import Action, ActionType
from engine.table.game import Game, HandResult, IllegalActionError, Phase
from engine.table.wall import Deal, deal_tail_indicators, shuffled, standard_tileset
from engine.tiles import RED, parse_tiles

A = ActionType
E, S, W, N = 0, 1, 2, 3
TS = standard_tileset()
_rs = find_ruleset("seigou")
assert isinstance(_rs, Seigou)
SEIGOU: Seigou = _rs


# ---------------------------------------------------------------------- scripted deals


def make_deal(
    hands: Sequence[str],
    live: Mapping[int, str] | None = None,
    *,
    dora: str = "",
    ura: str = "",
    avoid: Iterable[str] = (),
) -> Deal:
    """A seigou deal: ``hands`` per seat (13 tiles each), ``live`` = {live index: tile}, the dora
    / kan-dora indicators and ura in reveal order; the other tiles fill the rest, tiles of the
    ``avoid`` kinds last (so filler draws do not hit a scripted wait early)."""
    pool: dict[int, list[int]] = {c: list(ids) for c, ids in TS.ids_by_code().items()}

    def take(code: int) -> int:
        ids = pool.get(code)
        if not ids:
            raise AssertionError(f"no tile {code} left for the script")
        return ids.pop()

    haipai = tuple(tuple(take(c) for c in parse_tiles(h)) for h in hands)
    assert all(len(h) == 13 for h in haipai)
    fixed = {i: take(parse_tiles(t)[0]) for i, t in (live or {}).items()}
    dora_ids = [take(c) for c in parse_tiles(dora)] if dora else []
    ura_ids = [take(c) for c in parse_tiles(ura)] if ura else []
    avoid_kinds = {c & ~RED for a in avoid for c in parse_tiles(a)}
    rest = [t for ids in pool.values() for t in ids]
    random.Random(7).shuffle(rest)
    rest.sort(key=lambda t: TS.codes[t] & ~RED in avoid_kinds)
    it = iter(rest)
    wall = [fixed[i] if i in fixed else next(it) for i in range(72)]
    unused = (next(it), next(it))
    while len(dora_ids) < 5:
        dora_ids.append(next(it))
    while len(ura_ids) < 5:
        ura_ids.append(next(it))
    d = Deal(haipai, tuple(wall), (), tuple(dora_ids), tuple(ura_ids), unused)
    assert sorted(d.all_tiles()) == list(range(136))
    return d


def game(hands: Sequence[str], live: Mapping[int, str] | None = None, *, rs: Seigou | None = None, **kw: object) -> Game:
    return Game(rs or SEIGOU, 0, deals=[make_deal(hands, live, **kw)])  # type: ignore[arg-type]


# Far from tenpai, no pairs: filler hands for the seats a test does not script.
PLAIN = ("1469m1469p1469s1z", "1469m1469p1469s2z", "1469m1469p1469s3z", "258m258p258s4z6z7z3z")
NO_1M = ("2358m1469p1469s2z", "2358m1469p1469s3z", "258m258p258s4z6z7z3z")  # S, W, N without 1m
NO_4P = ("1469m1369p1469s1z", "1469m1369p1469s2z", "1469m1258p1469s3z")  # E, S, W without 4p


def play(g: Game, text: str) -> None:
    g.play(Action.parse(text))


def pass_windows(g: Game) -> None:
    """Everybody passes the ron (or chankan) windows now open."""
    while g.phase in (Phase.CALL, Phase.CHANKAN) and not g.over:
        for s in g.to_act():
            g.play(Action(A.PASS, s))


def draw(g: Game) -> int:
    """The seat whose turn starts draws (passing any claim it could make); returns the seat."""
    pass_windows(g)
    seat = g.current
    if g.phase is Phase.CLAIM:
        g.play(Action(A.PASS, seat))
    assert g.phase is Phase.TURN and g.current == seat and g.drawn >= 0
    return seat


def turn(g: Game, discard: str | None = None) -> int:
    """One ordinary turn: draw, discard (the drawn tile unless told), others pass. Returns the seat."""
    seat = draw(g)
    code = parse_tiles(discard)[0] if discard else g.code(g.drawn)
    g.play(Action(A.DISCARD, seat, code))
    pass_windows(g)
    return seat


def turns(g: Game, n: int) -> list[int]:
    return [turn(g) for _ in range(n)]


def claims(g: Game) -> set[tuple[ActionType, int, int]]:
    """The claim window of the seat whose turn starts: (type, discarder, claimed kind)."""
    assert g.phase is Phase.CLAIM
    seat = g.current
    out: set[tuple[ActionType, int, int]] = set()
    for a in g.legal_actions(seat):
        if a.type is A.PASS:
            continue
        out.add((a.type, a.src, g.code(g.seats[a.src].river[-1]) & ~RED))
    return out


def k(tile: str) -> int:
    return parse_tiles(tile)[0] & ~RED


def yaku_names(r: HandResult) -> set[str]:
    return {y.name for w in r.wins for y in w.score.yaku}


def legal_types(g: Game, seat: int) -> set[ActionType]:
    return {a.type for a in g.legal_actions(seat)}


# ---------------------------------------------------------------------- §1 definitions


def test_sg_d1_turns_in_strict_order_never_skipped() -> None:
    # W pons E's discard on W's own turn: S is not skipped, and N follows W.
    hands = ("1469m1469p1469s7p", "1469m1469p1469s2z", "77p1469m1469s1z2z3z", PLAIN[3])
    g = game(hands, {0: "7p"})
    assert draw(g) == E
    play(g, "0d7p")
    pass_windows(g)
    assert turn(g) == S
    assert g.phase is Phase.CLAIM and g.current == W
    play(g, "2p77p@0")
    assert g.phase is Phase.TURN and g.current == W
    play(g, "2d1z")
    pass_windows(g)
    assert g.current == N
    seq = turns(g, 8)
    assert seq == [N, E, S, W, N, E, S, W]


def test_sg_d2_go_around_is_the_kth_turn_of_each_seat() -> None:
    assert [go_around(t) for t in (1, 4, 5, 8, 69, 72)] == [1, 1, 2, 2, 18, 18]
    g = game(PLAIN)
    turns(g, 6)  # E1 S1 W1 N1 E2 S2; W2 is about to start
    draw(g)
    assert hand_of(g).turn == 7
    assert [turns_taken(g, s) for s in (E, S, W, N)] == [2, 2, 2, 1]
    assert discard_in_go_around(g, S, 2) is not None and discard_in_go_around(g, N, 2) is None


def test_sg_d3_dealer_turn_1_uses_the_14th_tile_and_one_tile_per_turn() -> None:
    hands = ("1469m1469p1469s7p", "1469m1469p1469s2z", "77p1469m1469s1z2z3z", PLAIN[3])
    g = game(hands, {0: "7p"})
    # the dealer's turn 1 is the 14th dealt tile (live tile 0)
    assert g.current == E and g.phase is Phase.TURN and g.live_pos == 1 and len(g.seats[E].tiles) == 14
    play(g, "0d7p")
    pass_windows(g)
    turn(g)  # S draws
    assert g.live_pos == 2
    play(g, "2p77p@0")  # W claims instead of drawing: no draw, and no tsumo / kan / second claim
    assert g.live_pos == 2
    assert legal_types(g, W) == {A.DISCARD}
    assert hand_of(g).acquired == [1, 1, 1, 0]


def test_sg_d4_claimable_discards_are_those_since_the_last_turn_unclaimed() -> None:
    # N holds pairs of 3s, 5z and 8m. W's turn-5 3s (before N's turn 5) is no longer claimable at
    # N's turn 6; E6 3s, S6 5z and W6 8m are.
    hands = (PLAIN[0], PLAIN[1], PLAIN[2], "33s55z88m1p4p7p2s9s5m7m")
    g = game(hands, {18: "3s", 20: "3s", 21: "5z", 22: "8m"}, avoid=("5z8m",))
    turns(g, 19)  # through W5 (turn 19), who discards 3s
    assert g.phase is Phase.CLAIM and g.current == N  # N5 could pon W5's 3s
    assert claims(g) == {(A.PON, W, k("3s"))}
    draw(g)
    g.play(Action(A.DISCARD, N, g.code(g.drawn)))
    pass_windows(g)
    turns(g, 3)  # E6 3s, S6 5z, W6 8m
    assert g.current == N and g.phase is Phase.CLAIM
    assert {(x, g.kind(t)) for x, t in claimable_discards(g, N)} == {(E, k("3s")), (S, k("5z")), (W, k("8m"))}
    assert claims(g) == {(A.PON, E, k("3s")), (A.PON, S, k("5z")), (A.PON, W, k("8m"))}


# ---------------------------------------------------------------------- §4 worked timelines

# Timeline 1: E5 (turn 17) discards 7p.
T1_E = PLAIN[0]
T1_N = PLAIN[3]


def test_sg_1_timeline_1_s_pons_instead_of_drawing_then_w_and_n_follow() -> None:
    # Only one of S and W can hold a pair of 7p (4 copies), so S holds it here.
    g = game((T1_E, "77p1469m1469s2z5z7z", "2357m2357s3z4z6z1p9p", T1_N), {16: "7p"}, avoid=("7p",))
    turns(g, 16)
    assert turn(g) == E and g.code(g.seats[E].river[-1]) == k("7p")
    assert g.current == S and g.phase is Phase.CLAIM
    assert (A.PON, E, k("7p")) in claims(g)
    drawn_before = g.live_pos
    play(g, "1p77p@0")  # instead of drawing
    assert g.live_pos == drawn_before and g.current == S and g.phase is Phase.TURN
    play(g, "1d1m")
    pass_windows(g)
    assert g.current == W  # nobody skipped: E -> S -> W -> N
    assert turn(g) == W and turn(g) == N and turn(g) == E


def test_sg_1_timeline_1_if_s_draws_w_may_pon_on_its_own_turn() -> None:
    g = game((T1_E, "68p1469m1469s2z5z7z", "77p2357m2357s3z4z6z", T1_N), {16: "7p"}, avoid=("7p",))
    turns(g, 17)  # through E5's 7p
    assert g.current == S and (A.CHI, E, k("7p")) in claims(g)
    assert turn(g) == S  # S draws instead
    assert g.current == W and (A.PON, E, k("7p")) in claims(g)
    play(g, "2p77p@0")
    play(g, "2d2m")
    pass_windows(g)
    assert g.current == N
    assert g.seats[W].melds[-1].from_seat == E and g.seats[E].river_called[-1]


def test_sg_1_timeline_1_an_earlier_chi_makes_the_later_pon_impossible() -> None:
    g = game((T1_E, "68p1469m1469s2z5z7z", "77p2357m2357s3z4z6z", T1_N), {16: "7p"}, avoid=("7p",))
    turns(g, 17)
    play(g, "1c68p@0")  # S chis E5's 7p on S's turn
    play(g, "1d1m")
    pass_windows(g)
    assert g.current == W
    if g.phase is Phase.CLAIM:
        assert not any(kind == k("7p") for _t, _x, kind in claims(g))
    with pytest.raises(IllegalActionError):
        play(g, "2p77p@0")


def test_sg_1_one_claim_per_turn_and_ron_stays_immediate() -> None:
    # W waits on 7p with tanyao; E's 7p gives W a ron window at once, with no pon/chi in it.
    w_hand = "234m345p456s88s68p"
    g = game((T1_E, "77p1469m1469s2z5z7z", w_hand, T1_N), {16: "7p"}, avoid=("7p",))
    turns(g, 16)
    draw(g)
    play(g, "0d7p")
    assert g.phase is Phase.CALL and g.to_act() == [W]
    assert legal_types(g, W) == {A.RON, A.PASS}  # S's pon waits for S's turn
    play(g, "2x")
    assert g.phase is Phase.CLAIM and g.current == S
    play(g, "1p77p@0")
    assert legal_types(g, S) == {A.DISCARD}  # no draw, no second claim, no kan after a claim


def test_sg_d4_timeline_2_choosing_among_three_discards() -> None:
    # N's turn 6 after E6 3s, S6 5z, W6 8m: pon any of them, or chi 8m (W is N's kamicha), or draw.
    n_hand = "33s55z88m79m1p4p7p2s9s"
    g = game((PLAIN[0], PLAIN[1], PLAIN[2], n_hand), {20: "3s", 21: "5z", 22: "8m"}, avoid=("3s5z8m",))
    turns(g, 23)
    assert g.current == N and g.phase is Phase.CLAIM
    assert claims(g) == {(A.PON, E, k("3s")), (A.PON, S, k("5z")), (A.PON, W, k("8m")), (A.CHI, W, k("8m"))}
    assert Action(A.PASS, N) in g.legal_actions(N)  # or N draws
    play(g, "3p55z@1")  # not the latest discard: S's
    assert g.seats[S].river_called[-1] and not g.seats[W].river_called[-1]
    assert river_slots(g, S)[5] is None and river_slots(g, W)[5] is not None  # SG-2
    play(g, "3d1p")
    pass_windows(g)
    assert g.current == E and turns_taken(g, E) == 7


def test_sg_5_timeline_3_kan_turn_no_replacement_no_discard() -> None:
    # S draws 4m on turn 9 (turn 34) and makes an ankan. Since W's turn 8 only N8 (5z) and E9 (6z)
    # were discarded: W may pon one of them, and cannot chi (S made no discard).
    e_hand = "1369m1469p1469s1z"
    s_hand = "444m2358p2358s2z7z"
    w_hand = "55z66z24p1369m19s7s"
    g = game((e_hand, s_hand, w_hand, PLAIN[3]), {29: "3p", 31: "5z", 32: "6z", 33: "4m"}, avoid=("5z6z4m",))
    turns(g, 33)
    assert draw(g) == S and g.code(g.drawn) == k("4m")
    live_before = g.live_pos
    river_before = len(g.seats[S].river)
    play(g, "1a4m")
    assert g.dora_revealed == 2 and g.dora_indicators() == [g.deal.dora[0], g.deal.dora[1]]  # at once (A4)
    assert g.live_pos == live_before  # no replacement tile
    assert len(g.seats[S].river) == river_before and river_slots(g, S)[8] is None  # slot 9 empty
    st = g.seats[S]
    assert len(st.tiles) + 3 * len(st.melds) == 13  # a quad counts as one set
    assert g.current == W and g.phase is Phase.CLAIM
    assert claims(g) == {(A.PON, N, k("5z")), (A.PON, E, k("6z"))}
    play(g, "2p55z@3")
    assert legal_types(g, W) == {A.DISCARD}  # one of the two only


def test_sg_7_timeline_4_hand_ends_after_north_turn_18() -> None:
    # E is tenpai (5z tanki) all hand and never wins; after N's 18th discard the hand is drawn.
    e_hand = "234m345p456s678s5z"
    g = game((e_hand, PLAIN[1], PLAIN[2], PLAIN[3]), avoid=("5z",))
    seq = []
    while not g.results:
        seq.append(turn(g))
    assert seq == [E, S, W, N] * 18
    r = g.results[0]
    assert r.kind == "exhaustive" and r.tenpai == (E,)
    assert r.deltas == (3000, -1000, -1000, -1000)  # base
    assert hand_of(g).acquired == [18, 18, 18, 18]
    assert [len(row) for row in river_rows(g, N)] == [6, 6, 6]  # SG-2: 3 rows of 6


def test_sg_8_timeline_4_tsumo_in_go_around_18_is_haitei() -> None:
    # E waits on 5z; E's draws in go-around 17 (turn 65) and 18 (turn 69) are 5z.
    e_hand = "234m345p456s678s5z"
    g = game((e_hand, PLAIN[1], PLAIN[2], PLAIN[3]), {64: "5z", 68: "5z"}, avoid=("5z",))
    turns(g, 64)
    draw(g)
    assert turns_taken(g, E) == 17 and A.TSUMO in legal_types(g, E)
    assert not g.ruleset.win_context(g, E, tsumo=True, chankan=False, from_seat=E).haitei
    play(g, "0d5z")
    pass_windows(g)
    turns(g, 3)
    draw(g)
    assert turns_taken(g, E) == 18 and g.live_left == 3  # not the wall's last tile
    play(g, "0t")
    r = g.results[0]
    assert r.kind == "tsumo" and "haitei" in yaku_names(r)


def test_sg_8_timeline_4_ron_on_a_go_around_18_discard_is_houtei() -> None:
    # W waits on 6z with no yaku at all: S's go-around-17 6z gives no ron, S's go-around-18 6z does.
    w_hand = "234m345p456s678s6z"
    g = game((PLAIN[0], "1469m1469p1469s2z", w_hand, "258m258p258s4z1z7z3z"), {65: "6z", 69: "6z"}, avoid=("6z",))
    turns(g, 66)  # S17 (turn 66) discarded 6z: no ron
    assert g.code(g.seats[S].river[-1]) == k("6z")
    assert g.results == [] and turns_taken(g, S) == 17
    assert turns(g, 3) == [W, N, E]
    assert draw(g) == S and turns_taken(g, S) == 18
    play(g, "1d6z")
    assert g.phase is Phase.CALL and A.RON in legal_types(g, W)
    play(g, "2h")
    r = g.results[0]
    assert r.kind == "ron" and yaku_names(r) == {"houtei"}


# Timeline 5: W declares riichi with its turn-7 discard (turn 27); N pons S7's 7z on N's turn 7.
T5 = ("1469m1469p1469s1z", "1468m1469p1469s2z", "234m345p456s78s5z9m", "99m77z258m258p25s4z")


def _timeline_5(live: dict[int, str]) -> Game:
    g = game(T5, {25: "7z", 26: "5z", **live}, avoid=("3s6s9s",))
    turns(g, 26)
    draw(g)
    assert g.current == W
    play(g, "2r9m")
    pass_windows(g)
    assert g.seats[W].riichi == 1 and g.seats[W].ippatsu
    assert g.current == N and g.phase is Phase.CLAIM
    got = claims(g)
    assert (A.PON, S, k("7z")) in got and (A.PON, W, k("9m")) not in got  # SG-3
    play(g, "3p77z@1")
    play(g, "3d2m")
    pass_windows(g)
    assert g.seats[W].ippatsu  # SG-4: N's pon does not cancel it
    return g


def test_sg_4_timeline_5_ippatsu_through_a_call_ron_on_e8() -> None:
    g = _timeline_5({27: "6s"})
    draw(g)
    play(g, "0d6s")
    play(g, "2h")
    r = g.results[0]
    assert r.wins[0].seat == W and {"riichi", "ippatsu"} <= yaku_names(r)
    assert r.riichi_deposits == (W,)


def test_sg_4_timeline_5_ippatsu_through_a_call_ron_on_s8() -> None:
    g = _timeline_5({28: "9s"})
    turn(g)  # E8
    draw(g)
    play(g, "1d9s")
    play(g, "2h")
    assert {"riichi", "ippatsu"} <= yaku_names(g.results[0])


def test_sg_4_timeline_5_ippatsu_through_a_call_tsumo_on_w8() -> None:
    g = _timeline_5({29: "6s"})
    turns(g, 2)
    draw(g)
    assert g.current == W
    play(g, "2t")
    r = g.results[0]
    assert r.kind == "tsumo" and {"riichi", "ippatsu", "menzen_tsumo"} <= yaku_names(r)


# ---------------------------------------------------------------------- §2 rules


def test_sg_2_discard_slots_by_go_around_with_gaps() -> None:
    # S's turn-1 discard is claimed (slot 1 empty), S's turn-2 is an ankan (slot 2 empty).
    e_hand = "1469m1369p1469s1z"
    s_hand = "4444p2358m2358s2z"
    w_hand = "11z2357m2357s3z4z6z"
    g = game((e_hand, s_hand, w_hand, PLAIN[3]), {1: "1z"}, avoid=("1z",))
    turn(g)  # E1
    assert draw(g) == S and g.code(g.drawn) == k("1z")
    play(g, "1d1z")
    pass_windows(g)
    play(g, "2p11z@1")  # W claims S's turn-1 discard
    play(g, "2d2m")
    pass_windows(g)
    turn(g)  # N1
    turn(g)  # E2
    draw(g)
    play(g, "1a4p")  # S2: kan, no discard
    turns(g, 8)
    slots = river_slots(g, S)
    assert len(slots) == 4 and slots[0] is None and slots[1] is None and None not in slots[2:]
    assert discard_in_go_around(g, S, 1) is not None  # still known for safety reading
    assert discard_in_go_around(g, S, 2) is None
    assert river_slots(g, W)[0] is not None  # W's own turn-1 discard after its claim
    # slot 7 starts row 2
    turns(g, 11)  # through E7
    rows = river_rows(g, E)
    assert [len(r) for r in rows] == [6, 1] and turns_taken(g, E) == 7


def test_sg_3_riichi_declaration_tile_cannot_be_chied_or_ponned() -> None:
    # S declares riichi discarding 3p on S1; W (shimocha) holds 2p4p and 3p3p... only 2p4p here.
    s_hand = "123m456m789m123s9s"
    w_hand = "24p5z6z7z1467m1469s"
    g = game((PLAIN[0], s_hand, w_hand, PLAIN[3]), {1: "3p"}, avoid=("3p",))
    turn(g)
    draw(g)
    play(g, "1r3p")
    pass_windows(g)
    assert g.current == W
    if g.phase is Phase.CLAIM:
        assert (A.CHI, S, k("3p")) not in claims(g)
    with pytest.raises(IllegalActionError):
        play(g, "2c24p@1")
    assert g.seats[S].riichi == 2  # SG-4: double riichi on the go-around-1 discard


def test_sg_3_riichi_declaration_tile_can_be_ronned_and_riichi_is_not_established() -> None:
    s_hand = "123m456m789m123s9s"
    w_hand = "234m567m345s66s24p"  # kanchan 3p, tanyao
    g = game((PLAIN[0], s_hand, w_hand, PLAIN[3]), {1: "3p"}, avoid=("3p",))
    turn(g)
    draw(g)
    play(g, "1r3p")
    assert legal_types(g, W) == {A.RON, A.PASS}
    play(g, "2h")
    r = g.results[0]
    assert r.kind == "ron" and r.wins[0].seat == W and r.riichi_deposits == ()
    assert g.sticks == 0 and g.scores[S] == 25000 + r.deltas[S]  # no stick paid


CHIIHOU_S = "234m345p456s678s5z"


def test_sg_4_chiihou_despite_the_dealers_ankan_from_the_deal() -> None:
    # The seed's complaint: the dealer's ankan from the dealt hand must not cancel S's chiihou.
    e_hand = "1111m2469p1469s1z"
    g = game((e_hand, CHIIHOU_S, "2358m1469p1469s3z", PLAIN[3]), {1: "5z"})
    assert A.ANKAN in legal_types(g, E)
    play(g, "0a1m")
    assert draw(g) == S and g.code(g.drawn) == k("5z")
    play(g, "1t")
    r = g.results[0]
    assert "chiihou" in yaku_names(r) and r.wins[0].score.yakuman == 1


def test_sg_4_chiihou_and_double_riichi_despite_another_seats_pon() -> None:
    # E1 discards 7z; S pons it on S1; W wins on its turn-1 draw (chiihou) ...
    e_hand = "1469m1469p1469s7z"
    s_hand = "77z1469m1469p25s3z"
    w_hand = "234m345p456s678s5z"
    g = game((e_hand, s_hand, w_hand, PLAIN[3]), {0: "2z", 1: "5z"})
    play(g, "0d7z")
    pass_windows(g)
    play(g, "1p77z@0")
    assert A.TSUMO not in legal_types(g, S)  # a claim turn has no draw: no chiihou for S
    play(g, "1d3z")
    pass_windows(g)
    h = g.copy()
    assert draw(g) == W
    play(g, "2t")
    assert "chiihou" in yaku_names(g.results[0])
    # ... or declares a double riichi on it
    draw(h)
    play(h, "2r8s") if Action(A.RIICHI, W, k("8s")) in h.legal_actions(W) else play(h, "2r6s")
    assert h.seats[W].riichi == 2


def test_sg_4_tenhou_on_the_dealt_14_tiles() -> None:
    g = game(("234m345p456s678s5z", PLAIN[1], PLAIN[2], PLAIN[3]), {0: "5z"})
    play(g, "0t")
    assert "tenhou" in yaku_names(g.results[0])


def test_sg_4_own_kan_on_turn_1_means_no_double_riichi() -> None:
    # E makes an ankan on turn 1 (no turn-1 discard); its riichi on turn 2 is an ordinary riichi.
    e_hand = "1111m234p456s78s5z"
    g = game((e_hand, *NO_1M), {0: "5z", 4: "9p"}, avoid=("6s9s",))
    play(g, "0a1m")
    turns(g, 3)
    assert draw(g) == E and turns_taken(g, E) == 2
    play(g, "0r9p")
    assert g.seats[E].riichi == 1


def test_sg_4_ippatsu_ends_with_own_ankan_after_the_next_draw() -> None:
    # W riichi on W1 with 555m concealed; W2 draws the 4th 5m and makes an ankan: ippatsu is over.
    w_hand = "555m234p678s45s11z"
    n_hand = "268m258p258s4z6z7z3z"
    g = game((PLAIN[0], PLAIN[1], w_hand, n_hand), {2: "9p", 6: "0m"}, avoid=("3s6s",))
    turns(g, 2)
    draw(g)
    play(g, "2r9p")
    pass_windows(g)
    assert g.seats[W].ippatsu
    turns(g, 3)
    assert draw(g) == W and A.ANKAN in legal_types(g, W)
    play(g, "2a5m")
    assert not g.seats[W].ippatsu and g.current == N


def test_sg_5_daiminkan_on_own_turn_ends_the_turn() -> None:
    e_hand = "1469m1469p1469s7z"
    s_hand = "777z1469m1469p25s"
    g = game((e_hand, s_hand, PLAIN[2], "258m258p258s4z6z1z3z"), {0: "2z"})
    play(g, "0d7z")
    pass_windows(g)
    assert (A.DAIMINKAN, E, k("7z")) in claims(g)
    live_before = g.live_pos
    play(g, "1m@0")
    st = g.seats[S]
    assert st.melds[-1].type.value == "minkan" and len(st.tiles) + 3 * len(st.melds) == 13
    assert not st.river and hand_of(g).acquired[S] == 1  # no replacement draw, no discard
    assert g.dora_revealed == 2 and g.current == W and g.live_pos == live_before + 1  # W drew
    assert river_slots(g, S) == [None]


KAKAN_S = "77p1469m1469s2z5z7z"
KAKAN_W = "234m345p456s88s89p"  # waits 7p (penchan): its only yaku would be chankan


def _kakan_game(live: dict[int, str], rs: Seigou | None = None) -> Game:
    # E1 discards 7p, S pons it on S1; S2 (turn 6: live tile 4) draws the 4th 7p.
    g = game(("1469m1469p1469s1z", KAKAN_S, KAKAN_W, PLAIN[3]), {0: "7p", **live}, rs=rs)
    play(g, "0d7p")
    pass_windows(g)
    play(g, "1p77p@0")
    play(g, "1d1m")
    pass_windows(g)
    return g


def test_sg_5_kakan_may_be_robbed_chankan() -> None:
    g = _kakan_game({4: "7p"})
    turns(g, 3)
    assert draw(g) == S and A.KAKAN in legal_types(g, S)
    play(g, "1k7p")
    assert g.phase is Phase.CHANKAN and legal_types(g, W) == {A.RON, A.PASS}
    play(g, "2h")
    r = g.results[0]
    assert yaku_names(r) == {"chankan"}


def test_sg_5_kakan_not_robbed_ends_the_turn_without_discard() -> None:
    g = _kakan_game({4: "7p"})
    turns(g, 3)
    draw(g)
    river = len(g.seats[S].river)
    play(g, "1k7p")
    play(g, "2x")
    assert g.current == W and len(g.seats[S].river) == river and g.dora_revealed == 2
    assert hand_of(g).acquired[S] == 2


def test_sg_6_no_rinshan_kaihou() -> None:
    assert "rinshan" not in {y.id for y in SEIGOU_YAKU}
    plain = score_line("22345678m234p56s tsumo 7s ruleset=seigou")
    flagged = score_line("22345678m234p56s tsumo 7s ruleset=seigou rinshan")
    riichi = score_line("22345678m234p56s tsumo 7s rinshan")
    assert "rinshan" in {y["name"] for y in riichi["yaku"]}
    assert flagged["han"] == plain["han"] == 3 and "rinshan" not in {y["name"] for y in flagged["yaku"]}
    assert flagged["ignored_flags"] == ["rinshan"]


def test_sg_6_dora_indicators_at_the_tail_of_the_wall() -> None:
    # Stacks are (wall[2i] top, wall[2i+1] bottom), drawn from the front. Dora = top of the last
    # stack, ura = below it; kan dora from the 4 stacks before, tail inwards.
    d = deal_tail_indicators(TS, "x", 3, players=4, dealer=1)
    wall = shuffled([i for i in range(136)], "x", 3)
    assert d.dora == (wall[134], wall[132], wall[130], wall[128], wall[126])
    assert d.ura == (wall[135], wall[133], wall[131], wall[129], wall[127])
    assert d.rinshan == ()  # no replacement tiles


def test_sg_6_kan_dora_revealed_at_once_from_the_next_stack() -> None:
    g = game(("1111m2469p1469s1z", *NO_1M), dora="1z2z", ura="3z4z")
    assert [g.code(t) for t in g.dora_indicators()] == [k("1z")]
    play(g, "0a1m")
    assert [g.code(t) for t in g.dora_indicators()] == [k("1z"), k("2z")]
    assert [g.code(t) for t in g.ura_indicators()] == [k("3z"), k("4z")]


def test_sg_7_wall_layout_124_live_12_dead_71_draws() -> None:
    d = deal_tail_indicators(TS, 11, 0, players=4, dealer=0)
    wall = shuffled([i for i in range(136)], 11, 0)
    assert sum(len(h) for h in d.haipai) + len(d.live) == 124
    assert len(d.live) == 72  # the dealer's 14th tile + 71 draws = dealer 17 + 3 x 18
    assert d.unused == (wall[124], wall[125])  # A10: one stack between the live wall and the indicators
    assert len(d.unused) + len(d.dora) + len(d.ura) == 12
    assert sorted(d.all_tiles()) == list(range(136))


def test_sg_7_hand_ends_after_north_18_however_many_tiles_remain() -> None:
    # W pons on W1 (no draw), so one live tile is left when N's 18th turn is over.
    hands = ("1469m1469p1469s7p", "1469m1469p1469s2z", "77p1469m1469s1z2z3z", PLAIN[3])
    g = game(hands, {0: "7p"}, avoid=("7p",))
    play(g, "0d7p")
    pass_windows(g)
    turn(g)
    play(g, "2p77p@0")
    play(g, "2d1z")
    pass_windows(g)
    while not g.results:
        turn(g)
    assert g.results[0].kind == "exhaustive" and g.live_left == 1
    assert hand_of(g).acquired == [18, 18, 18, 18] and hand_of(g).turn == 72


def test_sg_8_haitei_and_houtei_flags_by_go_around() -> None:
    r = score_line("22345678m234p56s tsumo 7s seat=S ruleset=seigou haitei")
    assert "haitei" in {y["name"] for y in r["yaku"]}
    r = score_line("234m345p456s678s6z ron 6z seat=W from=S ruleset=seigou houtei")
    # 1 han; 20 + 10 (closed ron) + 2 (tanki) + 2 (dragon pair) -> 40 fu: 1300 (riichi.md R-10)
    assert r["agari"] and [y["name"] for y in r["yaku"]] == ["houtei"] and r["points"] == 1300


def _chankan_18(rs: Seigou | None = None) -> Game:
    # N pons E1's 7p on N1 (no draw: turn t > 4 draws live tile t - 2); N18 (turn 72) draws the 4th
    # 7p (live tile 70) and adds it to the pon; W waits on 7p.
    hands = ("1469m1469p1469s1z", "1469m2358p1469s2z", KAKAN_W, "77p258m258s4z6z7z3z1m")
    g = game(hands, {0: "7p", 70: "7p"}, rs=rs)
    play(g, "0d7p")
    pass_windows(g)
    turns(g, 2)
    play(g, "3p77p@0")
    play(g, "3d1m")
    pass_windows(g)
    while True:
        pass_windows(g)
        if g.current == N and turns_taken(g, N) == 18:
            break
        turn(g)
    assert draw(g) == N and turns_taken(g, N) == 18 and A.KAKAN in legal_types(g, N)
    play(g, "3k7p")
    return g


def test_sg_8_chankan_in_go_around_18_gets_houtei() -> None:
    g = _chankan_18()
    assert g.phase is Phase.CHANKAN
    play(g, "2h")
    assert yaku_names(g.results[0]) == {"chankan", "houtei"}


def test_sg_9_north_turn_18_kakan_opens_chankan_then_ends_the_hand() -> None:
    g = _chankan_18()
    play(g, "2x")
    assert g.results[0].kind == "exhaustive" and hand_of(g).acquired == [18, 18, 18, 18]


def test_sg_9_north_turn_18_ankan_ends_the_hand_at_once() -> None:
    g = game((*NO_4P, "444p258m25s4z6z7z3z1m"), {71: "4p"})
    turns(g, 71)
    assert draw(g) == N and turns_taken(g, N) == 18 and A.ANKAN in legal_types(g, N)
    play(g, "3a4p")
    r = g.results[0]
    assert r.kind == "exhaustive" and len(g.seats[N].river) == 17 and river_slots(g, N)[17] is None


def test_sg_9_claims_in_go_around_18_and_north_18_discard_only_ronned() -> None:
    # E18 discards 3s and W pons it on W18; N18's discard 5z could be ponned by E, but the hand ends.
    e_hand = "55z1469m1469p146s"
    w_hand = "33s2357m2357p4z6z7z"
    g = game((e_hand, PLAIN[1], w_hand, "258m258p258s4z6z7z1z"), {68: "3s", 70: "5z"}, avoid=("3s5z",))
    turns(g, 69)
    turn(g)  # S18
    assert g.current == W and turns_taken(g, W) == 18 and (A.PON, E, k("3s")) in claims(g)
    play(g, "2p33s@0")
    play(g, "2d2m")
    pass_windows(g)
    assert draw(g) == N and g.code(g.drawn) == k("5z")
    play(g, "3d5z")
    pass_windows(g)
    assert g.results and g.results[0].kind == "exhaustive" and g.phase is not Phase.CLAIM


# ---------------------------------------------------------------------- §3 other base rules


RIICHI_E = "234m345p456s678s5z"  # waits 5z


def test_r_5_1_seigou_riichi_on_turns_1_to_17_only() -> None:
    g = game((RIICHI_E, PLAIN[1], PLAIN[2], PLAIN[3]), avoid=("5z",))
    turns(g, 64)
    assert draw(g) == E and turns_taken(g, E) == 17 and A.RIICHI in legal_types(g, E)
    g.play(Action(A.DISCARD, E, g.code(g.drawn)))
    pass_windows(g)
    turns(g, 3)
    assert draw(g) == E and turns_taken(g, E) == 18 and A.RIICHI not in legal_types(g, E)


def test_r_5_1_seigou_riichi_last_turn_option_replaces_the_live_wall_rule() -> None:
    rs = SEIGOU.with_options(seigou=dict(riichi_last_turn=18))
    g = game((RIICHI_E, PLAIN[1], PLAIN[2], PLAIN[3]), rs=rs, avoid=("5z",))
    turns(g, 68)
    assert draw(g) == E and g.live_left == 3 and A.RIICHI in legal_types(g, E)  # base would need 4
    rs5 = SEIGOU.with_options(seigou=dict(riichi_last_turn=5))
    g = game((RIICHI_E, PLAIN[1], PLAIN[2], PLAIN[3]), rs=rs5, avoid=("5z",))
    turns(g, 16)
    assert draw(g) == E and turns_taken(g, E) == 5 and A.RIICHI in legal_types(g, E)
    g.play(Action(A.DISCARD, E, g.code(g.drawn)))
    turns(g, 3)
    assert draw(g) == E and A.RIICHI not in legal_types(g, E)


KANS = ("1111m2222m69p19s1z", "3333m1469p1469s2z", "4444m1258p258s3z6z", "5678m2369p369s4z7z")


def _three_kans(rs: Seigou | None = None) -> Game:
    g = game(KANS, rs=rs)
    play(g, "0a1m")
    assert draw(g) == S
    play(g, "1a3m")
    assert draw(g) == W
    play(g, "2a4m")
    turn(g)  # N1
    assert draw(g) == E
    play(g, "0a2m")  # the 4th kan, by a third player
    return g


def test_r_4_8_seigou_suukaikan_right_after_the_fourth_kan() -> None:
    g = _three_kans()
    assert g.results[0].kind == "suukaikan" and g.results[0].deltas == (0, 0, 0, 0)


def test_r_4_8_seigou_suukaikan_option_off_continues_with_no_fifth_kan() -> None:
    g = _three_kans(SEIGOU.with_options(seigou=dict(suukaikan=False)))
    assert not g.results and g.current == S and len(g.kans) == 4
    assert not g.ruleset.kan_allowed(g, S)


def test_r_12_1_seigou_kyuushu_on_the_turn_1_draw_despite_calls() -> None:
    e_hand = "1469m1469p1469s7z"
    s_hand = "77z1469m1469p25s3z"
    w_hand = "19m19p19s12345z23m"
    g = game((e_hand, s_hand, w_hand, "258m258p258s4z6z1z3z"), {0: "2z"})
    play(g, "0d7z")
    pass_windows(g)
    play(g, "1p77z@0")
    play(g, "1d3z")
    pass_windows(g)
    assert draw(g) == W and A.KYUUSHU in legal_types(g, W)
    h = g.copy()
    play(g, "2y")
    assert g.results[0].kind == "kyuushu_kyuuhai"
    h.play(Action(A.DISCARD, W, h.code(h.drawn)))
    turns(h, 3)
    assert draw(h) == W and A.KYUUSHU not in legal_types(h, W)  # turn 2: too late


WINDS_4 = ("1469m1469p1469s1z", "1469m1469p1469s1z", "2358m2358p2358s1z", "2358m2358p2358s1z")


def test_r_12_2_seigou_suufon_renda_four_go_around_1_winds() -> None:
    g = game(WINDS_4)
    for seat in (E, S, W, N):
        assert draw(g) == seat
        g.play(Action(A.DISCARD, seat, k("1z")))
        pass_windows(g)
    assert g.results[0].kind == "suufon_renda"


def test_r_12_2_seigou_no_suufon_renda_when_a_go_around_1_turn_had_no_discard() -> None:
    hands = ("1111m2469p1469s1z", "2358m1469p1469s1z", "2358m2358p2358s1z", "2367m3578p2357s1z")
    g = game(hands)
    play(g, "0a1m")
    for seat in (S, W, N, E):
        assert draw(g) == seat
        g.play(Action(A.DISCARD, seat, k("1z")))
        pass_windows(g)
    assert not g.results and g.current == S


def test_r_12_3_seigou_suucha_riichi_unchanged() -> None:
    hands = ("123m456m789m1122z", "123p456p789p3344z", "123s456s789s5566z", "234m567p678s99m77z")
    g = game(hands, avoid=("1234567z9m",))
    for seat in (E, S, W, N):
        assert draw(g) == seat
        g.play(Action(A.RIICHI, seat, g.code(g.drawn)))
        pass_windows(g)
    r = g.results[0]
    assert r.kind == "suucha_riichi" and r.riichi_deposits == (E, S, W, N) and g.sticks == 4


def test_r_12_5_seigou_sanchahou_unchanged() -> None:
    # S, W and N all wait on 5p (kanchan 46p, tanyao); E's 14th tile is 5p and E discards it.
    hands = (PLAIN[0], "234m678m345s66s46p", "234m678m345s77s46p", "234m678m345s88s46p")
    g = game(hands, {0: "5p"}, avoid=("5p",))
    play(g, "0d5p")
    assert g.to_act() == [S, W, N]
    for s in (S, W, N):
        g.play(Action(A.RON, s))
    assert g.results[0].kind == "sanchahou" and g.results[0].deltas == (0, 0, 0, 0)


def test_r_4_4_seigou_kuikae_after_a_delayed_pon_and_chi() -> None:
    g = game((PLAIN[0], "777p1469m1469s2z5z", PLAIN[2], PLAIN[3]), {0: "7p"})
    play(g, "0d7p")
    pass_windows(g)
    play(g, "1p77p@0")
    with pytest.raises(IllegalActionError, match="kuikae"):
        play(g, "1d7p")
    g = game((PLAIN[0], "456p1469m1469s2z5z", PLAIN[2], PLAIN[3]), {0: "7p"})
    play(g, "0d7p")
    pass_windows(g)
    play(g, "1c56p@0")
    with pytest.raises(IllegalActionError, match="kuikae"):
        play(g, "1d4p")


def test_r_6_4_seigou_temporary_furiten_ends_at_the_own_next_discard() -> None:
    w_hand = "234m345p456s88s68p"  # waits 7p, tanyao
    g = game((PLAIN[0], PLAIN[1], w_hand, PLAIN[3]), {0: "7p", 1: "7p", 3: "7p"}, avoid=("7p",))
    play(g, "0d7p")
    assert A.RON in legal_types(g, W)
    play(g, "2x")
    assert draw(g) == S
    play(g, "1d7p")
    assert g.phase is not Phase.CALL  # W is furiten
    turn(g)  # W draws and discards: the temporary furiten ends
    assert draw(g) == N
    play(g, "3d7p")
    assert A.RON in legal_types(g, W)


# ---------------------------------------------------------------------- §6 options


def test_sg_d4_a1_claim_window_last_discard_only() -> None:
    rs = SEIGOU.with_options(seigou=dict(claim_window="last_discard_only"))
    n_hand = "33s55z88m79m1p4p7p2s9s"
    g = game((PLAIN[0], PLAIN[1], PLAIN[2], n_hand), {20: "3s", 21: "5z", 22: "8m"}, rs=rs, avoid=("3s5z8m",))
    turns(g, 23)
    assert claims(g) == {(A.PON, W, k("8m")), (A.CHI, W, k("8m"))}


def test_sg_6_a4_kan_dora_timing_next_discard_option() -> None:
    rs = SEIGOU.with_options(seigou=dict(kan_dora_timing="next_discard"))
    g = game(("1469m1469p1469s7z", "777z1469m1469p25s", PLAIN[2], "258m258p258s4z6z1z3z"), {0: "2z"}, rs=rs)
    play(g, "0d7z")
    pass_windows(g)
    play(g, "1m@0")
    assert g.dora_revealed == 1 and draw(g) == W
    g.play(Action(A.DISCARD, W, g.code(g.drawn)))
    assert g.dora_revealed == 2


def test_sg_8_a11_houtei_on_chankan_turn18_option_off() -> None:
    g = _chankan_18(SEIGOU.with_options(seigou=dict(houtei_on_chankan_turn18=False)))
    play(g, "2h")
    assert yaku_names(g.results[0]) == {"chankan"}


def test_sg_7_turns_per_player_option() -> None:
    g = game(PLAIN, rs=SEIGOU.with_options(seigou=dict(turns_per_player=6)))
    seq = []
    while not g.results:
        seq.append(turn(g))
    assert seq == [E, S, W, N] * 6 and hand_of(g).acquired == [6, 6, 6, 6]


def test_seigou_options_have_the_spec_defaults_and_reject_bad_values() -> None:
    o = SeigouOptions()
    assert (o.claim_window, o.turns_per_player, o.riichi_last_turn, o.suukaikan, o.kan_dora_timing) == (
        "since_last_turn",
        18,
        17,
        True,
        "immediate",
    )
    assert o.houtei_on_chankan_turn18 is True
    for bad in ({"claim_window": "always"}, {"turns_per_player": 19}, {"kan_dora_timing": "never"}, {"riichi_last_turn": -1}):
        with pytest.raises(ValueError):
            SeigouOptions(**bad)


def test_seigou_score_command_line() -> None:
    import json
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "engine", "score", "--json", "234m345p456s678s6z ron 6z seat=W from=S ruleset=seigou houtei"],
        capture_output=True,
        text=True,
        check=True,
    )
    r = json.loads(out.stdout)
    assert r["agari"] and r["points"] == 1300
    assert {s: v for s, v in r["payments"].items() if v} == {"S": -1300, "W": 1300}
    assert parse_hand("123m456p789s1122z ron 2z ruleset=seigou").ruleset == "seigou"

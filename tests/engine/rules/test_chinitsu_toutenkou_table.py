"""chinitsu_toutenkou at the table: wall, nuki, kans, calls, riichi, settlements, self-play."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest

from engine.notation import MeldType
from engine.rules import find_ruleset
from engine.rules.chinitsu_toutenkou import ChinitsuToutenkou, CtOptions
from engine.scoring.result import ScoreResult
from engine.table.actions import Action, ActionType
from engine.table.game import Game, HandResult, TableMeld, WinResult
from engine.table.wall import Deal
from engine.tiles import counts_of, parse_kind, parse_tiles
from tests.engine.selfplay import all_tiles, check_final, check_points, eager_agent, play_random, random_agent

A = ActionType


def ruleset(**ct: object) -> ChinitsuToutenkou:
    rs = find_ruleset("chinitsu_toutenkou")
    assert isinstance(rs, ChinitsuToutenkou)
    return rs.with_options(ct=dict(suit="s", **ct))


def scripted(hands: list[str], draws: str = "", *, seed: int = 0, **ct: object) -> Game:
    """A game whose first deal has these hands (seat 0 deals) and live wall head ``draws``."""
    rs = ruleset(**ct)
    codes = rs.tileset(None).codes  # type: ignore[arg-type]
    free: dict[int, list[int]] = {}
    for i, c in enumerate(codes):
        free.setdefault(c, []).append(i)

    def take(text: str) -> list[int]:
        return [free[c].pop() for c in parse_tiles(text)] if text else []

    haipai = tuple(tuple(take(h)) for h in hands)
    head = take(draws)
    rest = [i for ids in free.values() for i in ids]
    random.Random(seed).shuffle(rest)
    live = head + rest[: 55 - len(head)]
    d0, u0 = rest[55 - len(head)], rest[56 - len(head)]
    block = rest[57 - len(head) :]
    assert len(block) == 16
    dora = (d0, *(live[-2 * k] for k in range(1, 5)))
    ura = (u0, *(live[-2 * k + 1] for k in range(1, 5)))
    return Game(rs, 0, deals=[Deal(haipai, tuple(live), tuple(block), dora, ura)])


def _wall(g: Game) -> list[int]:
    # the live wall with the kan indicator stacks behind its end, and the first indicator pair
    return g.live[g.live_pos :] + [g.deal.dora[0], g.deal.ura[0]]


def check_tiles(g: Game) -> None:
    tiles = all_tiles(g, _wall)
    assert len(tiles) == 112 and len(set(tiles)) == 112


OTHERS = ["123456789s1233z", "123456789s5677z"]


# --- wall and setup -------------------------------------------------------------------------------


def test_ct_b4_wall_layout() -> None:
    g = Game(ruleset(), seed=7)
    assert [len(st.tiles) for st in g.seats] == [14, 13, 13]
    assert g.live_left == 54 and len(g.rinshan) == 16
    assert g.dora_indicators() == [g.deal.dora[0]]
    assert g.deal.dora[1] == g.live[-2] and g.deal.ura[1] == g.live[-1]
    check_tiles(g)


def test_ct_a1_three_seats_dealer_east() -> None:
    g = Game(ruleset(), seed=1)
    assert g.players == 3 and g.round_wind == 0 and [g.seat_wind(s) for s in range(3)] == [0, 1, 2]


def test_ct_a9_wall_played_to_the_end() -> None:
    g = Game(ruleset(), seed=3)
    assert not g.ruleset.hand_exhausted(g)
    g.live_pos = g.live_end
    assert g.ruleset.hand_exhausted(g)


# --- nuki and kans ------------------------------------------------------------------------------


def test_ct_d1_extraction_from_the_nuki_block_is_not_a_call() -> None:
    g = scripted(["1m234s567s888s112z", *OTHERS], "9s")
    assert Action(A.KITA, 0, parse_kind("1m")) in g.legal_actions(0)
    g.play(Action(A.KITA, 0, parse_kind("1m")))
    st = g.seats[0]
    assert [g.code(t) for t in st.kita] == [parse_kind("1m")]
    assert g.drawn in g.deal.rinshan and not g.rinshan_draw
    assert g.calls_in_hand == 0 and len(st.tiles) == 14
    check_tiles(g)


def test_ct_a3_extracted_gari_scored_at_the_table() -> None:
    g = scripted(["1m234s567s888s112z", *OTHERS], "9s")
    g.play(Action(A.KITA, 0, parse_kind("1m")))
    spec = g.win_spec(0, g.drawn, tsumo=True)
    assert spec.options["nuki"] == "1m"


def test_ct_d2_kan_replacement_from_the_live_wall() -> None:
    g = scripted(["9999s234s567s112z", *OTHERS], "8s")
    end = g.live_end
    g.play(Action(A.ANKAN, 0, parse_kind("9s")))
    assert g.live_end == end - 2 and g.rinshan_draw
    assert g.drawn == g.live[g.live_pos - 1] and g.rinshan_pos == 0
    assert g.dora_indicators() == [g.deal.dora[0], g.deal.dora[1]]
    check_tiles(g)


def test_ct_d4_kan_that_leaves_no_replacement_ends_the_hand() -> None:
    g = scripted(["9999s234s567s112z", *OTHERS], "8s")
    g.live_pos = g.live_end - 2
    assert Action(A.ANKAN, 0, parse_kind("9s")) in g.legal_actions(0)
    g.play(Action(A.ANKAN, 0, parse_kind("9s")))
    assert g.results and g.results[-1].kind == "exhaustive"


def test_ct_e4_no_kan_of_north_but_extraction() -> None:
    g = scripted(["4444z234s567s112z", *OTHERS], "8s")
    legal = list(g.legal_actions(0))
    assert Action(A.ANKAN, 0, parse_kind("4z")) not in legal
    assert Action(A.KITA, 0, parse_kind("4z")) in legal


def test_ct_d3_nuki_replacement_win_is_not_rinshan() -> None:
    g = scripted(["1m234s567s888s112z", *OTHERS], "9s")
    g.play(Action(A.KITA, 0, parse_kind("1m")))
    ctx = g.ruleset.win_context(g, 0, tsumo=True, chankan=False, from_seat=-1)
    assert not ctx.rinshan


def test_ct_d5_no_haitei_on_a_nuki_replacement() -> None:
    g = scripted(["1m234s567s888s112z", *OTHERS], "9s")
    g.live_pos = g.live_end
    g.play(Action(A.KITA, 0, parse_kind("1m")))
    assert not g.ruleset.win_context(g, 0, tsumo=True, chankan=False, from_seat=-1).haitei


# --- calls ----------------------------------------------------------------------------------------


def test_ct_a4_no_chi() -> None:
    g = scripted(["123s456s789s112z1m", "23s456s789s11z345z", "123456789s5677z"], "9s")
    tile = next(t for t in g.seats[0].tiles if g.code(t) == parse_kind("1s"))
    assert g.ruleset.call_options(g, 1, tile, 0) == []  # 23s in hand, but no chi
    g.play(Action(A.DISCARD, 0, parse_kind("1s")))
    assert g.to_act() == [1] and g.seats[1].melds == []


def test_ct_e1_no_chi_option_ever() -> None:
    g = scripted(["123s456s789s112z1m", "23s456s789s11z345z", "123456789s5677z"], "9s")
    for t in g.seats[0].tiles:
        for seat in (1, 2):
            assert all(a.type is not A.CHI for a in g.ruleset.call_options(g, seat, t, 0))


def test_ct_a8_dealer_win_continues_with_honba() -> None:
    g = Game(ruleset(), seed=4)
    g.ruleset.next_hand(g, _result("tsumo", (10, -5, -5), wins=(0,)), renchan=True, honba_next=1)
    assert g.dealer == 0 and g.honba == 1
    g.ruleset.next_hand(g, _result("ron", (-10, 10, 0), wins=(1,)), renchan=False, honba_next=0)
    assert g.dealer == 1 and g.honba == 0


def test_ct_e2_closest_claimant_wins() -> None:
    g = Game(ruleset(), seed=5)
    pon1 = Action(A.PON, 1, -1, (27, 27))
    kan2 = Action(A.DAIMINKAN, 2)
    assert g.ruleset.choose_call(g, {2: kan2, 1: pon1}, 0) == pon1
    assert g.ruleset.choose_call(g, {1: pon1, 2: kan2}, 0) == pon1
    pon0 = Action(A.PON, 0, -1, (28, 28))
    assert g.ruleset.choose_call(g, {1: pon1, 0: pon0}, 2) == pon0
    assert g.ruleset.choose_call(g, {0: pon0, 2: kan2}, 1) == kan2


def test_ct_e3_kuikae_after_pon_with_white() -> None:
    g = scripted(["234s567s888s1122z", "1z5z234s567s789s23z", "123456789s5677z"], "1z")
    g.play(Action(A.DISCARD, 0, parse_kind("1z")))
    pon = Action(A.PON, 1, -1, (parse_kind("1z"), parse_kind("5z")))
    assert pon in g.legal_actions(1)
    g.play(pon)
    kinds = {a.tile for a in g.legal_actions(1)}
    assert parse_kind("1z") not in kinds and parse_kind("5z") not in kinds
    assert parse_kind("2z") in kinds


# --- riichi ---------------------------------------------------------------------------------------

RIICHI_HANDS = ["123s456s789s111s5m", "1m9m2z3z4z6z7z234567s", "5m9m1z6z7z23456789s"]


def test_ct_f2_open_riichi_shows_the_hand_and_a_non_riichi_deal_in_pays_50() -> None:
    g = scripted(RIICHI_HANDS, "2z1m")
    assert Action(A.OPEN_RIICHI, 0, parse_kind("5m")) in g.legal_actions(0)
    g.play(Action(A.OPEN_RIICHI, 0, parse_kind("5m")))
    shown = g.ruleset.shown_tiles(g, 0)  # type: ignore[attr-defined]
    assert sorted(shown) == sorted(parse_tiles("123s456s789s111s2z"))
    assert g.ruleset.shown_tiles(g, 1) == ()  # type: ignore[attr-defined]
    assert g.ruleset.deals_into_open_riichi(g, 1, parse_kind("2z")) == [0]  # type: ignore[attr-defined]
    g.play(Action(A.DISCARD, 1, parse_kind("2z")))
    assert list(g.legal_actions(0)) == [Action(A.RON, 0)]  # CT-F1: no passing
    g.play(Action(A.RON, 0))
    win = g.results[-1].wins[0]
    names = {y.name: y.han for y in win.score.yaku}
    assert names["open_riichi"] == 1 and names["open_riichi_dealin"] == 50
    assert g.results[-1].deltas[1] == -win.score.points


def test_ct_f1_riichi_cannot_pass_a_win_and_stick_is_one_point() -> None:
    g = scripted(RIICHI_HANDS, "2z1m")
    g.play(Action(A.RIICHI, 0, parse_kind("5m")))
    assert g.scores[0] == -1 and g.sticks == 1  # the stick is paid once the declaration passes
    g.play(Action(A.DISCARD, 1, parse_kind("2z")))
    assert list(g.legal_actions(0)) == [Action(A.RON, 0)]


def test_ct_c2_ippatsu_white_forces_the_win() -> None:
    g = scripted(RIICHI_HANDS, "2z1m9m5z")
    g.play(Action(A.RIICHI, 0, parse_kind("5m")))
    g.play(Action(A.DISCARD, 1, parse_kind("1m")))
    g.play(Action(A.DISCARD, 2, parse_kind("9m")))
    assert list(g.legal_actions(0)) == [Action(A.TSUMO, 0)]
    g.play(Action(A.TSUMO, 0))
    win = g.results[-1].wins[0]
    assert win.score.agari and win.score.details["ippatsu_white_as"] in ("1s", "2z", "4s", "7s")


def test_ct_a11_furiten_riichi_allowed_but_not_open() -> None:
    g = scripted(RIICHI_HANDS, "2z1m")
    g.seats[0].discarded_kinds.add(parse_kind("2z"))  # as if 2z had been discarded earlier
    legal = list(g.legal_actions(0))
    assert Action(A.RIICHI, 0, parse_kind("5m")) in legal
    assert Action(A.OPEN_RIICHI, 0, parse_kind("5m")) not in legal


def test_ct_f3_ankan_after_riichi_at_the_table() -> None:
    g = scripted(["111s3444s678s999s", *RIICHI_HANDS[1:]], "5m1m9m1s")
    g.play(Action(A.RIICHI, 0, parse_kind("5m")))
    g.play(Action(A.DISCARD, 1, parse_kind("1m")))
    g.play(Action(A.DISCARD, 2, parse_kind("9m")))  # a discard nobody can take
    assert Action(A.ANKAN, 0, parse_kind("1s")) in g.legal_actions(0)


def test_ct_c5_added_white_robbed_only_by_a_wait_on_the_pon_kind() -> None:
    g = Game(ruleset(), seed=11)
    # seat 1 made a pon of East and adds a White; seat 2 waits on South only (and White)
    east, white, south = parse_kind("1z"), parse_kind("5z"), parse_kind("2z")
    ids = {c: [i for i, x in enumerate(g.codes) if x == c] for c in (east, white)}
    from engine.table.game import TableMeld

    g.seats[1].melds = [TableMeld(MeldType.KAKAN, (ids[east][0], ids[east][1], ids[white][0], ids[white][1]))]
    g.seats[2].waits = (south, white)
    assert not g.ruleset.can_ron(g, 2, ids[white][1], 1, chankan=True)


# --- settlements and the deal -------------------------------------------------------------------


def _fake(points: int) -> ScoreResult:
    return ScoreResult(True, (), points, 0, 0, points, {})


def test_ct_g8_payments_honba_and_sticks() -> None:
    g = Game(ruleset(), seed=2)
    d, _ = g.ruleset.payments(g, 1, 2, _fake(30), tsumo=False, honba=2, sticks=1)
    assert d == [0, 33, -32]
    d, _ = g.ruleset.payments(g, 1, 1, _fake(30), tsumo=True, honba=1, sticks=0)
    assert d == [-31, 62, -31]


def _result(kind: str, deltas: tuple[int, ...], wins: tuple[int, ...] = (), tenpai: tuple[int, ...] = ()) -> HandResult:
    w = tuple(WinResult(s, 0, _fake(10)) for s in wins)
    return HandResult(0, 0, 0, kind, deltas, w, tenpai)


def test_ct_h2_the_winner_deals_next() -> None:
    g = Game(ruleset(), seed=4)
    g.honba = 2
    g.ruleset.next_hand(g, _result("ron", (0, 10, -10), wins=(1,)), renchan=False, honba_next=0)
    assert g.dealer == 1 and g.honba == 0
    g.ruleset.next_hand(g, _result("tsumo", (-5, 10, -5), wins=(1,)), renchan=True, honba_next=1)
    assert g.dealer == 1 and g.honba == 1
    # double ron: the winner closest after the discarder takes the deal (CT-G8)
    g.ruleset.next_hand(g, _result("ron", (10, -20, 10), wins=(2, 0)), renchan=False, honba_next=0)
    assert g.dealer == 2 and g.honba == 0 and g.round_wind == 0


def test_ct_h1_draw_dealer_keeps_when_tenpai_else_next_seat() -> None:
    g = Game(ruleset(), seed=4)
    g.ruleset.next_hand(g, _result("exhaustive", (40, -20, -20), tenpai=(0,)), renchan=True, honba_next=1)
    assert g.dealer == 0 and g.honba == 1
    g.ruleset.next_hand(g, _result("exhaustive", (-20, 40, -20), tenpai=(1,)), renchan=False, honba_next=2)
    assert g.dealer == 1 and g.honba == 2


def test_ct_g10_nagashi_passes_the_deal() -> None:
    g = Game(ruleset(), seed=4)
    g.ruleset.next_hand(g, _result("nagashi_mangan", (-200, -200, 400)), renchan=False, honba_next=1)
    assert g.dealer == 2 and g.honba == 0


def test_ct_a10_draw_settlement_noten_40() -> None:
    # CT-H1: 40 to the table; one tenpai player gets 20 from each noten player, two tenpai players
    # get 20 each from the noten player
    g = Game(ruleset(), seed=4)
    for st in g.seats:
        st.nagashi = False
    _give(g, 0, "123s456s789s111z2z")  # tenpai: 2z tanki (and a White)
    _give(g, 1, "135579s1234567z")  # far from any hand
    _give(g, 2, "135579s1234567z")
    assert g.ruleset.draw_settlement(g) == ("exhaustive", [40, -20, -20], [0])
    _give(g, 2, "234s567s888s33z66z")  # tenpai: 3z/6z shanpon (and a White)
    assert g.ruleset.draw_settlement(g) == ("exhaustive", [20, -40, 20], [0, 2])


def test_ct_a12_table_game_length_and_final_results() -> None:
    g = Game(ruleset(table_hands=2), seed=9)
    rng = random.Random(9)
    while not g.over:
        s = g.to_act()[0]
        g.apply(rng.choice(list(g.legal_actions(s))))
    assert len(g.results) == 2 and g.final_results == tuple(float(x) for x in g.scores)


# --- self-play ------------------------------------------------------------------------------------

_EAGER = (A.TSUMO, A.RON, A.OPEN_RIICHI, A.RIICHI, A.PON, A.ANKAN, A.KAKAN, A.DAIMINKAN, A.KITA)


def _next_deal(r: HandResult, players: int = 3) -> tuple[int, int]:
    """The next hand's dealer and honba after ``r`` (r.hand_number is its dealer's seat):
    CT-H2 the winner deals, continuing with honba +1 if it was the dealer, else honba 0; CT-G8 on
    a double ron the winner closest in turn order after the discarder; CT-G10 (J23) a nagashi
    player like a winner, the closest after the dealer; CT-H1 a draw keeps a tenpai dealer, else
    the next seat deals, honba +1 either way."""
    dealer = r.hand_number
    if r.wins:
        nxt = min((w.seat for w in r.wins), key=lambda s: (s - r.wins[0].from_seat) % players)
    elif r.kind == "nagashi_mangan":
        nxt = min((s for s in range(players) if r.deltas[s] > 0), key=lambda s: (s - dealer) % players)
    else:
        assert r.kind == "exhaustive", r.kind  # no abortive draws by default (J9)
        nxt = dealer if dealer in r.tenpai else (dealer + 1) % players
        return nxt, r.honba + 1
    return nxt, r.honba + 1 if nxt == dealer else 0


def test_ct_h2_selfplay_1000_two_hand_games_conserve_tiles_points_and_pass_the_deal() -> None:
    """1,000 complete games of two hands each (``ct.table_hands = 2``, the ruleset's own game
    length; 500 in pinzu, 500 in souzu): half with an agent that takes wins, riichi, calls, kans
    and extractions 70 % of the time, half uniformly random. Points (scores + riichi sticks = 0)
    before every action, tiles every 7th step, final scores from the hand results
    (``check_final``), and the second hand dealt as CT-H1/CT-H2/CT-G8/CT-G10 say."""
    kinds: Counter[str] = Counter()
    seen: set[ActionType] = set()
    agents = (eager_agent(_EAGER, p=0.7), random_agent)

    def agent(g: Game, seat: int, legal: list[Action], rng: random.Random) -> Action:
        assert all(a.type is not A.CHI for a in legal)  # CT-A4
        seen.update(a.type for a in legal)
        return agents[int(g.seed) % 2](g, seat, legal, rng)

    def conservation(g: Game, step: int) -> None:
        check_points(g)
        if step % 7 == 0:
            check_tiles(g)

    for suit in ("p", "s"):
        rs = ruleset(table_hands=2).with_options(ct=dict(suit=suit))
        for seed in range(500):
            g = play_random(rs, seed, agent=agent, on_step=conservation, max_steps=2000)
            assert g.over and not g.truncated and len(g.results) == 2
            check_final(g)
            first, second = g.results
            assert (second.hand_number, second.honba) == _next_deal(first), (first, second)
            assert second.round_wind == 0  # CT-A1: East round only
            kinds.update(r.kind for r in g.results)
    assert sum(kinds.values()) == 2000
    assert kinds["ron"] and kinds["tsumo"] and kinds["exhaustive"]
    assert {A.KITA, A.PON, A.OPEN_RIICHI, A.RIICHI, A.ANKAN} <= seen


def test_ct_c6_the_table_calculator_answers_like_the_hand_calculator() -> None:
    """The table's calculator keeps answers per hand shape and skips tiles of the suit the game
    does not use (CT-B1); its shanten, waits (CT-C6, White included) and agari are the hand
    calculator's on 100 hands met in self-play per suit, each also given one tile of the other
    suit (as the wait search tries), and on a few lookup hands."""
    from engine.hand.wildcard import ToutenkouCalculator

    for suit in ("p", "s"):
        rs = ruleset(table_hands=1).with_options(ct=dict(suit=suit))
        table = rs.shanten_calculator()
        plain = ToutenkouCalculator(rs.ct.suit_base)
        other = 18 if suit == "p" else 9
        # complete, nine-sided, White-wild, eight-copy pairs, kokushi, a wait on a kind held in
        # every copy, a lone gari (x = the game suit)
        lookups = ("11122233344455x", "1112345678999x", "123x456x789x11z55z", "2233445566778x")
        lookups += ("19m199x1234567z5z", "1111z123x456x789x", "1m")
        hands = [counts_of(parse_tiles(t.replace("x", suit))) for t in lookups]
        assert sum(bool(plain.waits(h)) for h in hands) >= 4
        seed = 0
        while len(hands) < 107:
            rng = random.Random(seed)
            g = Game(rs, seed=seed)
            seed += 1
            while not g.over:
                s = g.to_act()[0]
                g.apply(rng.choice(list(g.legal_actions(s))))
                if not g.over and rng.random() < 0.1:
                    hands.append(list(g.seats[rng.randrange(3)].counts))
        for c in hands:
            for k in (-1, other, other + 4):
                h = list(c)
                if k >= 0:
                    h[k] += 1
                assert table.shanten(h) == plain.shanten(h) and table.standard(h) == plain.standard(h), h
                assert table.is_agari(h) == plain.is_agari(h), h
                assert table.waits(h) == plain.waits(h), h
                assert table.waits(h, held_all=False) == plain.waits(h, held_all=False), h


# --- options: every one read, and a game under changed options saves and reloads -------------------


def _play_some(g: Game, steps: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if g.over:
            break
        s = g.to_act()[0]
        g.apply(rng.choice(list(g.legal_actions(s))))


def test_ct_b1_a_souzu_game_reloaded_from_its_saved_options_keeps_the_souzu_tile_set() -> None:
    base = find_ruleset("chinitsu_toutenkou")
    rs = base.with_options(ct={"suit": "s"})  # the path Game.from_dict and the bot's reload take
    assert isinstance(rs, ChinitsuToutenkou) and rs.ct.suit == "s"
    # CT-B1: 1m 5m 9m, the seven honours and 1s-9s; pinzu and the other manzu are not in the set
    assert rs.removed_kinds == frozenset({1, 2, 3, 5, 6, 7, *range(9, 18)})
    assert rs == ChinitsuToutenkou(ct=CtOptions(suit="s"))  # built directly, __post_init__ deriving the rest
    g = Game(rs, seed=4)
    _play_some(g, 40)
    again = Game.from_dict(json.loads(json.dumps(g.to_dict())))
    assert again.ruleset == rs and again.ruleset.removed_kinds == rs.removed_kinds
    assert [st.tiles for st in again.seats] == [st.tiles for st in g.seats]


def test_ct_b2_gari_values_from_json_options_are_the_same_option() -> None:
    rs = find_ruleset("chinitsu_toutenkou").with_options(ct={"gari_value": [[0, 1], [4, 2], [8, 1], [30, 1]]})
    assert isinstance(rs, ChinitsuToutenkou)
    assert rs.ct.gari_value == ((0, 1), (4, 2), (8, 1), (30, 1)) and hash(rs)
    assert rs.ct.gari_points(4) == 2  # J2: NEKO's 2 points for a 5m
    g = Game(rs, seed=2)
    _play_some(g, 30)
    assert Game.from_dict(json.loads(json.dumps(g.to_dict()))).ruleset == rs


def test_ct_a12_a_fixed_stack_starts_everyone_at_it_and_ends_at_zero() -> None:
    # CT-A12 / J17: optionally a fixed stack (e.g. 50 start), ending when someone reaches 0
    rs = ruleset(start_points=50)
    g = Game(rs, seed=9)
    assert g.scores == [50, 50, 50]
    rng = random.Random(9)
    while not g.over:
        s = g.to_act()[0]
        g.apply(rng.choice(list(g.legal_actions(s))))
        assert sum(g.scores) + g.sticks == 150
    assert min(g.scores) <= 0  # the game ran until someone had nothing left
    assert all(min(r.scores_after) > 0 for r in g.results[:-1])
    assert Game.from_dict(json.loads(json.dumps(g.to_dict()))).scores == g.scores


def test_ct_h3_chombo_pays_the_option_to_each_other_player() -> None:
    g = Game(ruleset(chombo_each=30), seed=1)
    assert g.ruleset.penalty_payments(g, 2) == [30, 30, -60]  # type: ignore[attr-defined]
    assert Game(ruleset(), seed=1).ruleset.penalty_payments(g, 0) == [-40, 20, 20]  # type: ignore[attr-defined]


def test_ct_h5_an_undo_window_is_refused_rather_than_ignored() -> None:
    with pytest.raises(ValueError, match="riichi_undo_window"):
        CtOptions(riichi_undo_window=True)


def test_ct_a10_abortive_draws_only_with_the_option() -> None:
    # J9: none by default; with ct.abortive_draws = true a nine-terminals hand may end the deal,
    # which the dealer keeps
    hands = ["19m19s1234567z25s", *OTHERS]
    assert not any(a.type is A.KYUUSHU for a in scripted(hands, "3s").legal_actions(0))
    g = scripted(hands, "3s", abortive_draws=True)
    assert Action(A.KYUUSHU, 0) in g.legal_actions(0)
    g.play(Action(A.KYUUSHU, 0))
    assert g.results[-1].kind == "kyuushu_kyuuhai" and g.dealer == 0 and g.honba == 1


def test_ct_d1_extraction_breaks_ippatsu_only_with_the_option() -> None:
    for breaks in (False, True):
        g = scripted(RIICHI_HANDS, "2z1m9m5z", extraction_breaks_ippatsu=breaks)
        g.play(Action(A.RIICHI, 0, parse_kind("5m")))
        assert g.seats[0].ippatsu
        g.play(Action(A.KITA, 1, parse_kind("1m")))  # seat 1 extracts its drawn 1m
        assert g.seats[0].ippatsu is not breaks and (g.calls_in_hand == 1) is breaks


def _give(g: Game, seat: int, text: str) -> None:
    """Give a seat exactly these concealed tiles (for a hook test; other seats are not adjusted)."""
    ids: list[int] = []
    for c in parse_tiles(text):
        ids.append(next(i for i, x in enumerate(g.codes) if x == c and i not in ids))
    st = g.seats[seat]
    st.tiles = ids
    st.counts = counts_of(parse_tiles(text))
    st.melds = []
    st.discarded_kinds = set()
    st.waits = g.ruleset.wait_set(g, seat)


def test_ct_c5_all_kakan_scope_keeps_number_kakans_from_being_robbed() -> None:
    # J12: the seed's sentence read literally ("明加槓に対する槍槓は、刻子と同種の字牌待ちの場合のみ
    # 可能": robbing an added kan only with a wait on an honour of the triplet's kind) lets nobody
    # rob an added kan of a number tile; the default reads it for added Whites only
    for scope, robbed in (("white_kakan", True), ("all_kakan", False)):
        g = Game(ruleset(white_chankan_scope=scope), seed=11)
        quad = tuple(i for i, x in enumerate(g.codes) if x == parse_kind("4s"))[:4]
        g.seats[1].melds = [TableMeld(MeldType.KAKAN, quad, quad[3], 0)]
        _give(g, 2, "23s567s888s111z22z")  # waits 1s-4s
        assert parse_kind("4s") in g.seats[2].waits
        assert g.ruleset.can_ron(g, 2, quad[3], 1, chankan=True) is robbed, scope


def test_ct_c1_a_pon_with_a_white_for_green_reads_back_from_its_text() -> None:
    # CT-C1: a White stands for Green in a pon; the action's text (what the database stores) must
    # parse back to the same legal action, or a reloaded game stops at that pon
    g = scripted(["234s567s888s1166z", "6z5z234s567s789s23z", "123456789s1477z"], "1z")
    g.play(Action(A.DISCARD, 0, parse_kind("6z")))
    pons = [a for a in g.legal_actions(1) if a.type is A.PON]
    assert {a.text for a in pons} == {"1p56z"}
    for a in g.legal_actions(1):
        assert Action.parse(a.text) == a
    g.play(Action.parse("1p56z"))
    assert [g.kind(t) for t in g.seats[1].melds[-1].tiles] == [parse_kind("5z"), parse_kind("6z"), parse_kind("6z")]


def test_ct_f1_riichi_cannot_pass_a_robbed_extraction_ct_f4() -> None:
    # the dealer's riichi kokushi waits on North; seat 1 extracts a North: CT-F4 lets kokushi ron
    # an extraction, CT-F1 forbids passing a win after riichi, so the only answer is ron
    g = scripted(["19m1199s1235677z", *OTHERS], "8s4z")
    g.play(Action(A.RIICHI, 0, parse_kind("8s")))
    assert parse_kind("4z") in g.seats[0].waits
    g.play(Action(A.KITA, 1, parse_kind("4z")))
    assert list(g.legal_actions(0)) == [Action(A.RON, 0)]
    g.play(Action(A.RON, 0))
    win = g.results[-1].wins[0]
    assert win.seat == 0 and win.from_seat == 1 and "kokushi" in {y.name for y in win.score.yaku}


def test_ct_b3_kans_from_five_or_more_copies_in_hand() -> None:
    # CT-B1/CT-B3: eight copies of each suit tile, so a hand may hold five 2s; a kan still takes
    # four of them (ankan) or three and the discard (daiminkan), and the rest stays in the hand
    g = scripted(["22222s345s678s11z", "3333s56s789s1234z", "456789s1255677z"], "9s")
    assert Action(A.ANKAN, 0, parse_kind("2s")) in list(g.legal_actions(0))
    g.play(Action(A.ANKAN, 0, parse_kind("2s")))
    m = g.seats[0].melds[-1]
    held = [t for t in g.seats[0].tiles if t != g.drawn and g.kind(t) == parse_kind("2s")]
    assert m.type is MeldType.ANKAN and len(m.tiles) == 4 and len(held) == 1
    check_tiles(g)
    g.play(Action(A.DISCARD, 0, parse_kind("3s")))  # seat 1 holds four 3s
    assert Action(A.DAIMINKAN, 1) in g.legal_actions(1)
    g.play(Action(A.DAIMINKAN, 1))
    m = g.seats[1].melds[-1]
    held = [t for t in g.seats[1].tiles if t != g.drawn and g.kind(t) == parse_kind("3s")]  # not the replacement
    assert m.type is MeldType.MINKAN and len(m.tiles) == 4 and len(held) == 1
    check_tiles(g)


# --- CT-C5 at the table: a White added to an honour pon, and robbing it --------------------------

# seat 1 pons seat 0's East, later draws a White and adds it to the pon (a kakan whose added tile is
# the wildcard White); seat 2 waits on East (tanki) or on South only
KAKAN_HANDS = ["1z9m9m5m5m1m1m23456s8s", "11z234s567s3z4z6z7z8s"]


def _white_kakan_game(seat2: str, **ct: object) -> Game:
    g = scripted([*KAKAN_HANDS, seat2], "1m5m9m5z", **ct)
    g.play(Action(A.DISCARD, 0, parse_kind("1z")))
    if 2 in g.to_act():
        g.play(Action(A.PASS, 2))
    g.play(Action(A.PON, 1, -1, (parse_kind("1z"), parse_kind("1z"))))
    g.play(Action(A.DISCARD, 1, parse_kind("8s")))
    g.play(Action(A.DISCARD, 2, parse_kind("5m")))
    g.play(Action(A.DISCARD, 0, parse_kind("9m")))
    assert g.current == 1 and g.kind(g.drawn) == parse_kind("5z")
    return g


@pytest.mark.parametrize("scope", ["white_kakan", "all_kakan"])
def test_ct_c5_a_white_added_to_an_east_pon_is_offered_and_robbed_by_an_east_wait(scope: str) -> None:
    g = _white_kakan_game("123456789s222z1z", white_chankan_scope=scope)
    east, white = parse_kind("1z"), parse_kind("5z")
    assert east in g.seats[2].waits
    add_white = Action(A.KAKAN, 1, east, shift=(white, east))
    legal = list(g.legal_actions(1))
    assert add_white in legal and add_white.text == "1k1z5z>1z"
    for a in legal:  # what the database stores reads back to the same legal action
        assert Action.parse(a.text) == a
    g.play(Action.parse("1k1z5z>1z"))
    meld = g.seats[1].melds[0]
    assert meld.type is MeldType.KAKAN and sorted(g.kind(t) for t in meld.tiles) == [east, east, east, white]
    assert g.to_act() == [2] and Action(A.RON, 2) in g.legal_actions(2)  # CT-C5: the White counts as East
    g.play(Action(A.RON, 2))
    r = g.results[-1]
    assert r.kind == "ron"
    win = r.wins[0]
    assert (win.seat, win.from_seat) == (2, 1)
    assert win.hand is not None and win.hand.win_tile == white
    assert "chankan" in {y.name for y in win.score.yaku}
    assert r.deltas[1] == -win.score.points and r.deltas[2] == win.score.points


def test_ct_c5_a_white_added_to_an_east_pon_is_not_robbed_by_a_south_wait() -> None:
    g = _white_kakan_game("123456789s666z2z")
    east, white = parse_kind("1z"), parse_kind("5z")
    assert parse_kind("2z") in g.seats[2].waits and east not in g.seats[2].waits
    g.play(Action(A.KAKAN, 1, east, shift=(white, east)))
    # nobody may rob it: the kan stands and seat 1 draws its replacement from the live wall (CT-D2)
    assert g.phase.name == "TURN" and g.current == 1 and g.rinshan_draw
    assert g.seats[1].melds[0].type is MeldType.KAKAN and len(g.kans) == 1
    check_tiles(g)


def test_ct_c5_a_white_added_to_a_pon_of_whites_is_robbed_by_any_honour_wait() -> None:
    # seat 1 pons a discarded White with two Whites and adds the fourth; seat 2 waits on South only
    white = parse_kind("5z")
    g = scripted(["5z9m9m5m5m1m1m23456s8s", "55z234s567s3z4z6z7z8s", "123456789s666z2z"], "1m5m9m5z")
    g.play(Action(A.DISCARD, 0, white))
    if 2 in g.to_act():
        g.play(Action(A.PASS, 2))
    g.play(Action(A.PON, 1, -1, (white, white)))
    g.play(Action(A.DISCARD, 1, parse_kind("8s")))
    g.play(Action(A.DISCARD, 2, parse_kind("5m")))
    g.play(Action(A.DISCARD, 0, parse_kind("9m")))
    assert Action(A.KAKAN, 1, white) in g.legal_actions(1)
    g.play(Action.parse("1k5z"))
    assert g.to_act() == [2]
    g.play(Action(A.RON, 2))
    win = g.results[-1].wins[0]
    assert (win.seat, win.from_seat) == (2, 1) and "chankan" in {y.name for y in win.score.yaku}


def test_ct_c1_a_pon_with_a_white_for_green_takes_a_green_or_a_white_and_old_records_replay() -> None:
    green, white = parse_kind("6z"), parse_kind("5z")
    for draw, kakan in (("6z", Action(A.KAKAN, 1, green)), ("5z", Action(A.KAKAN, 1, green, shift=(white, green)))):
        for text in (kakan.text, "1k5z") if draw == "5z" else (kakan.text,):
            g = scripted(["234s567s888s1166z", "6z5z234s567s789s23z", "123456789s1477z"], "1m9m1m" + draw)
            g.play(Action(A.DISCARD, 0, green))
            g.play(Action.parse("1p56z"))
            g.play(Action(A.DISCARD, 1, parse_kind("3z")))
            g.play(Action(A.DISCARD, 2, parse_kind("9m")))
            g.play(Action(A.DISCARD, 0, parse_kind("1m")))
            assert kakan in g.legal_actions(1)
            g.play(Action.parse(text))  # "1k5z": how such a kakan was written before
            m = g.seats[1].melds[0]
            assert m.type is MeldType.KAKAN and sorted(g.kind(t) for t in m.tiles) == sorted([white, green, green, g.kind(m.called)])
            assert g.kind(m.called) == parse_kind(draw)


def test_ct_c5_a_white_cannot_be_added_to_a_number_pon() -> None:
    g = scripted(["234s567s888s1z9m5m1m", "88s234s567s9s3z4z6z7z", "123456789s666z2z"], "1m5m9m5z")
    g.play(Action(A.DISCARD, 0, parse_kind("8s")))
    g.play(Action(A.PON, 1, -1, (parse_kind("8s"), parse_kind("8s"))))
    g.play(Action(A.DISCARD, 1, parse_kind("3z")))
    g.play(Action(A.DISCARD, 2, parse_kind("5m")))
    g.play(Action(A.DISCARD, 0, parse_kind("9m")))
    assert g.kind(g.drawn) == parse_kind("5z")
    assert not [a for a in g.legal_actions(1) if a.type is A.KAKAN]  # CT-C1: White is an honour wildcard only


# --- CT-F2 at the table: open riichi showing a chosen part (ct.open_riichi_expose = "minimal") ------


def test_ct_f2_minimal_exposure_is_chosen_at_the_table_and_shown() -> None:
    g = scripted(RIICHI_HANDS, "2z1m", open_riichi_expose="minimal")
    five_m, south = parse_kind("5m"), parse_kind("2z")
    opens = [a for a in g.legal_actions(0) if a.type is A.OPEN_RIICHI]
    assert Action(A.OPEN_RIICHI, 0, five_m) in opens  # the whole hand, as before
    assert Action(A.OPEN_RIICHI, 0, five_m, (south,)) in opens  # the South tanki alone shows the wait
    assert Action(A.OPEN_RIICHI, 0, five_m, tuple(parse_tiles("123s"))) not in opens  # shows no wait
    for a in opens:
        assert Action.parse(a.text) == a
    with pytest.raises(ValueError):
        g.play(Action.parse("0o5m/123s"))
    g.play(Action.parse("0o5m/2z"))
    assert g.ruleset.shown_tiles(g, 0) == (south,)  # type: ignore[attr-defined]
    g.play(Action(A.DISCARD, 1, south))
    assert list(g.legal_actions(0)) == [Action(A.RON, 0)]
    g.play(Action(A.RON, 0))
    names = {y.name: y.han for y in g.results[-1].wins[0].score.yaku}
    assert names["open_riichi"] == 1 and names["open_riichi_dealin"] == 50


def test_ct_f2_the_default_offers_only_the_whole_hand() -> None:
    g = scripted(RIICHI_HANDS, "2z1m")
    opens = [a for a in g.legal_actions(0) if a.type is A.OPEN_RIICHI]
    assert opens and all(not a.tiles for a in opens)
    with pytest.raises(ValueError):
        g.play(Action.parse("0o5m/2z"))


def test_ct_f2_seed_examples_3444_suffices_and_179_must_show_everything() -> None:
    # CT-F2: 1113444678999s (waits 2s 3s 5s) may show just 3444s; 1133445577999s (waits 1s 7s 9s)
    # must be shown whole: its 1s/7s reading hides 345s 345s, its 9s reading 33 44 55
    g = scripted(["1113444678999s", *RIICHI_HANDS[1:]], "5m", open_riichi_expose="minimal")
    opens = [a for a in g.legal_actions(0) if a.type is A.OPEN_RIICHI and a.tile == parse_kind("5m")]
    assert Action(A.OPEN_RIICHI, 0, parse_kind("5m"), tuple(parse_tiles("3444s"))) in opens
    g = scripted(["1133445577999s", *RIICHI_HANDS[1:]], "5m", open_riichi_expose="minimal")
    opens = [a for a in g.legal_actions(0) if a.type is A.OPEN_RIICHI and a.tile == parse_kind("5m")]
    assert opens == [Action(A.OPEN_RIICHI, 0, parse_kind("5m"))]


def test_ct_f2_existing_action_texts_are_unchanged() -> None:
    for text in ("0o5m", "1r0p", "0k5p", "0k5p8p>5p", "3p55m@1", "1p56z"):
        assert Action.parse(text).text == text
    assert Action.parse("0o5m/1z2z5z") == Action(A.OPEN_RIICHI, 0, parse_kind("5m"), tuple(parse_tiles("125z")))


def test_ct_f3_ankan_of_the_shown_part_re_exposes_a_part_with_the_same_waits() -> None:
    # CT-F3 (reconstructed example): 1112346668999s showing 8999s waits on 7s 8s; drawing 9s allows
    # the ankan 9999s, after which 6668s is shown (same waits)
    g = scripted(["1112346668999s", *RIICHI_HANDS[1:]], "5m1m9m9s", open_riichi_expose="minimal")
    five_m, nine_s = parse_kind("5m"), parse_kind("9s")
    g.play(Action(A.OPEN_RIICHI, 0, five_m, tuple(parse_tiles("8999s"))))
    assert g.ruleset.shown_tiles(g, 0) == tuple(parse_tiles("8999s"))  # type: ignore[attr-defined]
    g.play(Action(A.DISCARD, 1, parse_kind("1m")))
    g.play(Action(A.DISCARD, 2, parse_kind("9m")))
    assert Action(A.ANKAN, 0, nine_s) in g.legal_actions(0)
    g.play(Action(A.ANKAN, 0, nine_s))
    assert sorted(g.seats[0].waits) == sorted(parse_tiles("78s"))
    assert g.ruleset.shown_tiles(g, 0) == tuple(parse_tiles("6668s"))  # type: ignore[attr-defined]


def test_ct_c5_the_robbed_white_counts_as_the_pons_honour_when_scored() -> None:
    # seat 1 pons South with a White (2z 2z 5z) and adds a second White; seat 2 waits on South or Red
    # (shanpon 22z 77z). The robbed White counts as South (CT-C5), never as the Red it would be
    # worth more as.
    south, red, white = parse_kind("2z"), parse_kind("7z"), parse_kind("5z")
    g = scripted(["2z9m9m5m5m1m1m23456s8s", "2z5z234s567s3z4z6z1z8s", "123456789s22z77z"], "1m5m9m5z")
    g.play(Action(A.DISCARD, 0, south))
    if 2 in g.to_act():
        g.play(Action(A.PASS, 2))
    g.play(Action.parse("1p25z"))
    g.play(Action(A.DISCARD, 1, parse_kind("8s")))
    g.play(Action(A.DISCARD, 2, parse_kind("5m")))
    g.play(Action(A.DISCARD, 0, parse_kind("9m")))
    assert g.current == 1 and g.kind(g.drawn) == white
    assert {south, red} <= set(g.seats[2].waits)
    kakan = next(a for a in g.legal_actions(1) if a.type is A.KAKAN)
    g.play(kakan)
    assert Action(A.RON, 2) in g.legal_actions(2)
    g.play(Action(A.RON, 2))
    win = g.results[-1].wins[0]
    assert win.hand is not None and win.hand.win_tile == white
    assert win.hand.options.get("robbed_as") == "2z"
    assert win.score.details["robbed_white_as"] == "2z"
    # the same hand with the White free to be any honour scores it as Red, for more
    free = replace(win.hand, options={k: v for k, v in win.hand.options.items() if k != "robbed_as"})
    best = g.ruleset.score(free)
    assert best.points > win.score.points
    assert best.details.get("wildcards") and any(w["as"] == "7z" for w in best.details["wildcards"])

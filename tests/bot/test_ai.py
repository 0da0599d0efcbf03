"""The AI seats (bot/ai/policy.py): always legal in every registered ruleset, games of AI seats
finish, win when they can, riichi with a decent wait, fold against a riichi when far from tenpai,
the rules of each variant (pk furiten riichi and anchored calls, seigou own-turn claims, shoukou
transformed calls, chinitsu_toutenkou nuki and open riichi, taiwan16 declared tenpai), and the
fast efficiency search gives exactly what scoring every discard in full gives.

Positions come from seeded games (AI play, sometimes mixed with random legal actions so that
calls, kans and odd scores occur), played until the situation under test arises.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from bot.ai import policy
from bot.ai.policy import POLICIES, greedy, smart
from bot.ai.profile import profile_of
from engine.rules import Ruleset, find_ruleset, ruleset_names
from engine.table.actions import Action, ActionType
from engine.table.game import Game, Phase
from engine.tiles import RED, YAOCHU

A = ActionType
RULESETS = ("riichi", "sanma")
EVERY = tuple(ruleset_names())
VARIANTS = ("pk", "seigou", "shoukou", "chinitsu_toutenkou", "taiwan16")
# with one of these offered, smart does something else first (win, kita, kan, abort)
_FIRST = {A.TSUMO, A.KITA, A.ANKAN, A.KAKAN, A.KYUUSHU}


def visible(g: Game, seat: int = -1) -> list[int]:
    """Copies of each kind a seat sees outside its own hand (rivers, melds, kita, dora, and an
    open riichi's shown hand); flowers are not counted."""
    seen = [0] * 34

    def add(kind: int) -> None:
        if kind < 34:
            seen[kind] += 1

    for st in g.seats:
        for t, called in zip(st.river, st.river_called):
            if not called:
                add(g.kind(t))
        for m in st.melds:
            for t in m.tiles:
                add(g.kind(t))
        for t in st.kita:
            add(g.kind(t))
    for t in g.dora_indicators():
        add(g.kind(t))
    shown = getattr(g.ruleset, "shown_tiles", None)
    if shown is not None:
        for other in range(g.players):
            if other != seat:
                for code in shown(g, other):
                    add(code & ~RED)
    return seen


def short(rs: Ruleset) -> Ruleset:
    """The shortest game a ruleset has: tonpuu, one wind round (taiwan16), two hands
    (chinitsu_toutenkou's table game)."""
    if rs.name == "taiwan16":
        return rs.with_options(tw={"rounds": 1})
    if rs.name == "chinitsu_toutenkou":
        return rs.with_options(ct={"table_hands": 2})
    return rs.with_options(hanchan=False) if rs.options.hanchan else rs


def positions(rs: Ruleset, tag: str, games: int, *, mix: float = 0.0) -> Iterator[tuple[Game, int]]:
    """Every (game, seat to act) of seeded smart-vs-smart games; with ``mix``, that share of the
    actions is a random legal one instead. The caller must not move the game."""
    for n in range(games):
        rng = random.Random(f"{tag}:{n}")
        g = Game(rs, seed=f"{tag}:{n}")
        while not g.over:
            for s in g.to_act():
                yield g, s
            s = g.to_act()[0]
            a = smart(g, s, rng)
            if mix and rng.random() < mix:
                a = rng.choice(list(g.legal_actions(s)))
            g.apply(a)


def kinds(actions: list[Action]) -> set[ActionType]:
    return {a.type for a in actions}


# -- always legal ----------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("name", ["smart", "greedy"])
def test_always_returns_a_legal_action(ruleset: str, name: str) -> None:
    """100 games per policy and ruleset from random starts (round, dealer, honba, sticks, scores
    down to below the riichi stick), a quarter of the actions random; every seat asked to act is
    asked, and the answer must be legal. Two hands per game keep it quick."""
    rs = find_ruleset(ruleset)
    choose = POLICIES[name]
    n = rs.players
    asked = 0
    chosen_types: Counter[ActionType] = Counter()
    for game_no in range(100):
        rng = random.Random(f"legal:{ruleset}:{name}:{game_no}")
        scores = [rng.choice([500, 900, 8000, 25000, 35000, 60000]) for _ in range(n)]
        start = (rng.randrange(2), rng.randrange(n), rng.randrange(4), rng.randrange(3))
        g = Game(rs, seed=f"legal:{game_no}", scores=scores, start=start)
        while not g.over and len(g.results) < 2:
            acting = g.to_act()
            chosen = None
            for s in acting:
                a = choose(g, s, rng)
                assert a in g.legal_actions(s), f"{name} chose illegal {a.text} in game {game_no}"
                asked += 1
                chosen_types[a.type] += 1
                chosen = chosen or a
            assert chosen is not None
            if rng.random() < 0.25:
                chosen = rng.choice(list(g.legal_actions(acting[0])))
            g.apply(chosen)
    assert asked > 100 * 60
    # the positions were varied: discards, passes on calls, riichi, wins (and kita in sanma)
    expected = {A.DISCARD, A.PASS, A.RIICHI} | ({A.KITA} if rs.options.kita else set())
    assert expected <= set(chosen_types), chosen_types
    assert chosen_types[A.TSUMO] + chosen_types[A.RON] > 0, chosen_types


# -- wins when it can ------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_takes_every_win_offered(ruleset: str) -> None:
    rs = find_ruleset(ruleset)
    found = {A.TSUMO: 0, A.RON: 0}
    for g, s in positions(rs, f"win:{ruleset}", 40):
        offered = kinds(list(g.legal_actions(s))) & {A.TSUMO, A.RON}
        if not offered:
            continue
        (win,) = offered
        for choose in (smart, greedy):
            assert choose(g, s, random.Random(0)).type is win
        found[win] += 1
        if min(found.values()) >= 5:
            break
    assert min(found.values()) >= 5, found


# -- riichi ----------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_declares_riichi_with_a_decent_wait(ruleset: str) -> None:
    """Tenpai, closed, riichi allowed, no one else in riichi, and some riichi discard leaves two
    or more unseen winning tiles: smart declares, with the discard that leaves the most."""
    rs = find_ruleset(ruleset)
    checked = 0
    for g, s in positions(rs, f"riichi:{ruleset}", 60):
        legal = list(g.legal_actions(s))
        if A.RIICHI not in kinds(legal) or kinds(legal) & _FIRST:
            continue
        if any(st.riichi for o, st in enumerate(g.seats) if o != s):
            continue
        c, seen, calc = g.seats[s].counts, visible(g), g.calc
        waits = {}
        for a in legal:
            if a.type is A.RIICHI:
                k = a.tile & ~RED
                c[k] -= 1
                waits[a.tile] = sum(
                    n for kind, n in calc.ukeire(c, seen).tiles.items() if kind not in rs.removed_kinds
                )
                c[k] += 1
        if max(waits.values()) < 2:
            continue
        a = smart(g, s)
        assert a.type is A.RIICHI, f"no riichi with waits {waits}"
        assert waits[a.tile] == max(waits.values())
        checked += 1
        if checked >= 15:
            break
    assert checked >= 15


# -- defence ---------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_folds_with_genbutsu_when_far_from_tenpai(ruleset: str) -> None:
    """Someone is in riichi, smart is two or more shanten away and holds a tile that riichi
    player (every one of them) has discarded: it discards such a tile."""
    rs = find_ruleset(ruleset)
    checked = 0
    for g, s in positions(rs, f"fold:{ruleset}", 60):
        if g.phase is not Phase.TURN or g.seats[s].riichi:
            continue
        riichi = [o for o, st in enumerate(g.seats) if o != s and st.riichi]
        c = g.seats[s].counts
        if not riichi or g.calc.shanten(c) < 2:
            continue
        legal = list(g.legal_actions(s))
        if kinds(legal) & _FIRST:
            continue
        safe = {
            a.tile & ~RED
            for a in legal
            if a.type is A.DISCARD and all(a.tile & ~RED in g.seats[o].discarded_kinds for o in riichi)
        }
        if not safe:
            continue
        a = smart(g, s)
        assert a.type is A.DISCARD and a.tile & ~RED in safe, f"{a.text} is not genbutsu ({sorted(safe)})"
        checked += 1
        if checked >= 20:
            break
    assert checked >= 20


# -- the fast search is exact ----------------------------------------------------------------


def _random_hand(rng: random.Random, rs: Ruleset, copies: list[int]) -> list[int]:
    """A 3n+2 concealed hand of the ruleset's size, often shaped toward chiitoitsu or kokushi, or
    open (fewer tiles)."""
    removed = rs.removed_kinds
    kinds_left = [k for k in range(34) if k not in removed]
    pool = [k for k in kinds_left for _ in range(copies[k])]
    full = 3 * rs.max_sets + 2
    size = rng.choice([full, full, full, full - 3, full - 6, 5, 2])
    shape = rng.random()
    if shape < 0.2:  # pairs
        ks = rng.sample(kinds_left, (size + 1) // 2)
        tiles = [k for k in ks for _ in range(2)][:size]
    elif shape < 0.35:  # terminals and honours
        tiles = rng.sample([k for k in YAOCHU if k not in removed for _ in range(copies[k])], size)
    else:
        tiles = rng.sample(pool, size)
    c = [0] * 34
    for k in tiles:
        c[k] += 1
    return c


CALCULATORS = ("riichi", "sanma", "taiwan16", "chinitsu_toutenkou")  # pk, seigou, shoukou: riichi's


@pytest.mark.parametrize("ruleset", CALCULATORS)
def test_efficiency_matches_the_calculator(ruleset: str) -> None:
    """Shanten and ukeire per discard from the suit-by-suit search equal the ruleset's calculator
    (``shanten``, and the unseen copies of the kinds whose draw lowers it; removed kinds have no
    copies), with and without the tables. chinitsu_toutenkou's calculator has no tables and its
    ``forms`` is a lower bound: there ukeire counts the kinds ``forms`` says lower the shanten,
    which include every kind that does."""
    rs = find_ruleset(ruleset)
    calc = rs.shanten_calculator()
    copies = policy._copies(calc)
    exact_forms = calc.suit_tables() is not None
    rng = random.Random(f"eff:{ruleset}")
    for _ in range(60 if not exact_forms else 200 if rs.max_sets > 4 else 600):
        c = _random_hand(rng, rs, copies)
        seen = [rng.randrange(0, copies[k] + 1 - c[k]) if rng.random() < 0.3 else 0 for k in range(34)]
        avail = [0 if k in rs.removed_kinds else copies[k] - c[k] - seen[k] for k in range(34)]
        fast = policy._Efficiency(calc, c, list(avail))
        slow = policy._Efficiency(calc, c, list(avail))
        slow._drop_tables()
        for k in range(34):
            if not c[k]:
                continue
            c[k] -= 1
            sh = calc.shanten(c)
            exact = bound = 0
            for j in range(34):
                left = avail[j] + (j == k)
                if left <= 0 or j in rs.removed_kinds:
                    continue
                c[j] += 1
                exact += left if calc.shanten(c) < sh else 0
                bound += left if min(calc.forms(c)) < sh else 0
                c[j] -= 1
            c[k] += 1
            assert fast.shanten(k) == sh == slow.shanten(k)
            assert fast.ukeire(k, sh) == bound == slow.ukeire(k, sh) >= exact, (c, k)
            if exact_forms:
                assert bound == exact
            assert fast.bound(k, sh) >= bound


def _reference(g: Game, seat: int) -> Action:
    """Smart's discard choice scored in full for every discard: the same terms, every kind tried
    for ukeire, no pruning."""
    legal = list(g.legal_actions(seat))
    discards = [a for a in legal if a.type is A.DISCARD]
    riichi = [a for a in legal if a.type is A.RIICHI]
    open_riichi = {a.tile: a for a in legal if a.type is A.OPEN_RIICHI}
    rs = g.ruleset
    prof = profile_of(rs)
    calc, st = g.calc, g.seats[seat]
    c = st.counts
    seen = visible(g, seat)
    removed = rs.removed_kinds
    copies = policy._copies(calc)
    avail = [0 if k in removed else max(copies[k] - c[k] - seen[k], 0) for k in range(34)]
    dora = policy._dora_kinds(g)
    threat = any(o.riichi for i, o in enumerate(g.seats) if i != seat)
    safe = policy._riichi_safe(g, seat) if threat and prof.genbutsu else None
    open_waits = policy._open_waits(g, seat)

    def after(k: int) -> tuple[int, int]:
        c[k] -= 1
        sh = calc.shanten(c)
        uk = 0
        for j in range(34):
            left = avail[j] + (j == k)
            if left > 0:
                c[j] += 1
                uk += left if min(calc.forms(c)) < sh else 0
                c[j] -= 1
        c[k] += 1
        return sh, uk

    def waits_left(k: int) -> int:
        if calc.suit_tables() is not None:
            return after(k)[1]
        c[k] -= 1
        n = sum(avail[w] + (w == k) for w in calc.waits(c))
        c[k] += 1
        return n

    least = min(after(a.tile & ~RED)[0] for a in discards)
    fold = threat and (least >= 2 or (least == 1 and policy._hand_value(g, seat, dora) < policy._PUSH_VALUE))
    scored = []
    for a in discards:
        k = a.tile & ~RED
        sh, uk = after(k)
        s = (
            -sh * 100
            + (uk if sh <= 3 else 0)
            - 2 * policy._value(g, seat, k, dora)
            - (0.5 if a.tile & RED else 0)
        )
        if k >= 27 and c[k] == 1:
            s += 0.3
        if threat:
            d = policy._danger(g, seat, k, seen, prof.genbutsu, safe)
            s -= 120 * d * (1.5 if sh >= 2 else 0.6 if sh == 1 else 0.3) + (policy._FOLD * d if fold else 0)
        if k in open_waits:
            s -= 2 * policy._FOLD
        scored.append((s, a))
    best = max(scored, key=lambda x: x[0])  # the first of equals
    if not prof.furiten_riichi_wins:
        riichi = [a for a in riichi if not policy._furiten_after(g, seat, calc, a.tile & ~RED)]
    if riichi:
        scored_riichi = []
        for a in riichi:
            w = waits_left(a.tile & ~RED)
            d = policy._danger(g, seat, a.tile & ~RED, seen, prof.genbutsu, safe) if threat else 0.0
            scored_riichi.append((w - policy._CHASE_DANGER * d, w, d, a))
        _, waits, danger, choice = max(scored_riichi, key=lambda x: x[:2])  # the first of equals
        k = choice.tile & ~RED
        if (
            waits >= prof.riichi_min_waits
            and not (threat and danger > 0.6 and waits < policy._CHASE_WAITS)
            and k not in open_waits
        ):
            if prof.open_riichi_min_waits and waits >= prof.open_riichi_min_waits and choice.tile in open_riichi:
                return open_riichi[choice.tile]
            return choice
    return best[1]


@pytest.mark.parametrize("ruleset", EVERY)
def test_discard_choice_equals_full_scoring(ruleset: str) -> None:
    """Branch and bound over the discards picks what scoring every discard in full picks."""
    rs = short(find_ruleset(ruleset)) if ruleset not in RULESETS else find_ruleset(ruleset)
    want = 250 if ruleset in RULESETS else 60
    checked = 0
    for g, s in positions(rs, f"bnb:{ruleset}", 20, mix=0.1):
        legal = list(g.legal_actions(s))
        if g.phase is not Phase.TURN or kinds(legal) & _FIRST or A.DISCARD not in kinds(legal):
            continue
        if sum(1 for a in legal if a.type is A.DISCARD) == 1 and A.RIICHI not in kinds(legal):
            continue
        assert smart(g, s) == _reference(g, s)
        checked += 1
        if checked >= want:
            break
    assert checked >= want


# -- every registered ruleset ----------------------------------------------------------------


@pytest.mark.parametrize("ruleset", EVERY)
def test_smart_seats_finish_games_in_every_ruleset(ruleset: str) -> None:
    """Two whole games of smart seats (the ruleset's shortest length) end with a final ranking,
    and every action smart chose was in the seat's legal actions."""
    rs = short(find_ruleset(ruleset))
    for n in range(2):
        g = Game(rs, seed=f"finish:{ruleset}:{n}")
        decisions = 0
        while not g.over:
            s = g.to_act()[0]
            a = smart(g, s)
            assert a in g.legal_actions(s), f"smart chose illegal {a.text} in {ruleset} game {n}"
            g.apply(a)
            decisions += 1
            assert decisions < 20_000, f"{ruleset} game {n} does not end"
        assert g.over and g.phase is Phase.OVER and len(g.final_scores) == rs.players
        assert sorted(g.ranking()) == list(range(rs.players))
        assert g.results, "no hand was played"


@pytest.mark.parametrize("ruleset", EVERY)
@pytest.mark.parametrize("name", ["smart", "greedy"])
def test_every_ruleset_decision_is_legal(ruleset: str, name: str) -> None:
    """Every seat asked to act in 12 games (a fifth of the actions random, so that calls, kans,
    claims and odd hands occur) gets an answer from its legal actions, and the answers cover
    the ruleset's own kinds of action (seigou's own-turn claims, toutenkou's nuki and open
    riichi, taiwan16's declared tenpai)."""
    rs = short(find_ruleset(ruleset))
    choose = POLICIES[name]
    chosen: Counter[ActionType] = Counter()
    phases: Counter[Phase] = Counter()
    asked = 0
    for game_no in range(12):
        rng = random.Random(f"every:{ruleset}:{name}:{game_no}")
        g = Game(rs, seed=f"every:{game_no}")
        while not g.over and len(g.results) < 3:
            acting = g.to_act()
            first = None
            for s in acting:
                a = choose(g, s, rng)
                assert a in g.legal_actions(s), f"{name} chose illegal {a.text} ({ruleset}, game {game_no})"
                chosen[a.type] += 1
                phases[g.phase] += 1
                asked += 1
                first = first or a
            assert first is not None
            if rng.random() < 0.2:
                first = rng.choice(list(g.legal_actions(acting[0])))
            g.apply(first)
    assert asked > 300
    assert {A.DISCARD} <= set(chosen) and chosen[A.TSUMO] + chosen[A.RON] > 0, chosen
    if ruleset == "seigou":
        assert phases[Phase.CLAIM] > 0, phases
    if ruleset == "chinitsu_toutenkou":
        assert chosen[A.KITA] > 0, chosen
        if name == "smart":
            assert chosen[A.OPEN_RIICHI] + chosen[A.RIICHI] > 0, chosen
    if ruleset == "taiwan16":
        assert chosen[A.RIICHI] > 0, chosen  # declared tenpai (TW-12)


def _calls_made(rs: Ruleset, tag: str, games: int) -> Iterator[tuple[Game, int, Action]]:
    """Every (game, seat, call) smart makes in seeded smart-vs-smart games, before it is applied."""
    for g, s in positions(rs, tag, games):
        if g.phase is Phase.TURN:
            continue
        a = smart(g, s)
        if a.type in (A.CHI, A.PON, A.DAIMINKAN):
            yield g, s, a


def _call_rest(g: Game, s: int, a: Action) -> list[int]:
    rest = list(g.seats[s].counts)
    for code in a.tiles:
        rest[code & ~RED] -= 1
    return rest


def test_pk_6_no_furiten_riichi() -> None:
    """PK-6 / A10: a furiten riichi may be declared but can never win (furiten blocks tsumo too),
    so smart never declares one: every riichi it declares waits on no kind it has discarded
    (the declaration tile included). And PK-4: riichi is a common yaku of every wait, so with a
    riichi that is not furiten on offer (no one else in riichi, nothing better to do) it
    declares even on a single unseen tile."""
    rs = short(find_ruleset("pk"))
    declared = 0
    for g, s in positions(rs, "pk6", 40):
        legal = list(g.legal_actions(s))
        if A.RIICHI not in kinds(legal) or kinds(legal) & _FIRST:
            continue
        st = g.seats[s]

        def waits_after(code: int, counts: list[int] = st.counts, g: Game = g) -> set[int]:
            c = list(counts)
            c[code & ~RED] -= 1
            return set(g.calc.waits(c))

        a = smart(g, s)
        if a.type is A.RIICHI:
            assert not waits_after(a.tile) & (st.discarded_kinds | {a.tile & ~RED}), a.text
            declared += 1
            if declared >= 15:
                break
        elif not any(o.riichi for i, o in enumerate(g.seats) if i != s):
            seen = visible(g, s)
            fine = [
                r
                for r in legal
                if r.type is A.RIICHI
                and not waits_after(r.tile) & (st.discarded_kinds | {r.tile & ~RED})
                and sum(
                    max(4 - st.counts[w] + (w == r.tile & ~RED) - seen[w], 0)
                    for w in waits_after(r.tile)
                    if w not in rs.removed_kinds
                )
                >= 1
            ]
            assert not fine, f"no riichi although {[r.text for r in fine]} are not furiten"
    assert declared >= 15


def test_pk_d7_calls_only_with_an_anchored_first_call() -> None:
    """PK-D7 / PK-1: an open hand wins only with an anchored yaku, so smart's first call is a pon
    of a value honour (a yakuhai that uses F), and later calls follow only such a first call."""
    rs = short(find_ruleset("pk"))
    calls = 0
    for g, s, a in _calls_made(rs, "pkd7", 40):
        st = g.seats[s]
        first = g.kind(st.melds[0].tiles[0]) if st.melds else a.tiles[0] & ~RED
        first_is_pon = (st.melds[0].type.name == "PON") if st.melds else a.type is A.PON
        assert first_is_pon and policy._value_honour(g, s, first), (a.text, first)
        calls += 1
        if calls >= 5:
            break
    assert calls >= 5


def test_sg_1_claims_instead_of_drawing() -> None:
    """SG-1: a pon or chi is taken on one's own turn instead of the draw (Phase.CLAIM, ``@src``
    claims). Smart claims when the claim lowers its shanten and keeps a yaku in reach, and
    otherwise passes (draws); both happen."""
    rs = short(find_ruleset("seigou"))
    claimed = passed = 0
    for g, s in positions(rs, "sg1", 30):
        if g.phase is not Phase.CLAIM:
            continue
        a = smart(g, s)
        assert a in g.legal_actions(s)
        if a.type is A.PASS:
            passed += 1
            continue
        assert a.src >= 0, a.text
        assert g.calc.shanten(_call_rest(g, s, a)) < g.calc.shanten(g.seats[s].counts), a.text
        claimed += 1
        if claimed >= 10 and passed >= 10:
            break
    assert claimed >= 10 and passed >= 10, (claimed, passed)


def test_sk_4_transformed_calls() -> None:
    """SK-3/SK-4: a chi or pon may count one tile 3 ranks up or down. Smart weighs these calls
    like plain ones: every call it makes lowers its shanten (the remaining concealed tiles are
    what counts), and some of the calls it makes use a transformation."""
    rs = short(find_ruleset("shoukou"))
    calls = shifted = 0
    for g, s, a in _calls_made(rs, "sk4", 40):
        assert g.calc.shanten(_call_rest(g, s, a)) < g.calc.shanten(g.seats[s].counts), a.text
        calls += 1
        shifted += bool(a.shift)
        if calls >= 10 and shifted >= 1:
            break
    assert calls >= 10 and shifted >= 1, (calls, shifted)


def test_ct_d1_nuki_always() -> None:
    """CT-D1/CT-A3: a gari kept in hand is a dead tile (it cannot be part of a winning hand but
    kokushi, CT-F4), so smart extracts every gari offered unless kokushi is its best form."""
    rs = short(find_ruleset("chinitsu_toutenkou"))
    offered = 0
    for g, s in positions(rs, "ctd1", 20):
        legal = list(g.legal_actions(s))
        if A.KITA not in kinds(legal) or kinds(legal) & {A.TSUMO}:
            continue
        forms = g.calc.forms(g.seats[s].counts)
        if forms[2] <= min(forms[0], forms[1]) and forms[2] <= 3:
            continue
        assert smart(g, s).type is A.KITA
        offered += 1
        if offered >= 20:
            break
    assert offered >= 20


def test_ct_f2_open_riichi_and_its_waits() -> None:
    """CT-F2: an open riichi shows the hand (worth a point more, +50 on a deal-in). Smart shows
    it when four or more of its winning tiles are unseen and riichis closed with fewer; a seat not
    in riichi never discards a tile an open riichi waits on while it holds another discard."""
    rs = find_ruleset("chinitsu_toutenkou")
    calc = rs.shanten_calculator()
    copies = policy._copies(calc)
    opened = avoided = 0
    for g, s in positions(rs, "ctf2", 30):
        if g.phase is not Phase.TURN:
            continue
        legal = list(g.legal_actions(s))
        if kinds(legal) & {A.TSUMO, A.KITA, A.ANKAN}:
            continue
        a = smart(g, s)
        if a.type in (A.OPEN_RIICHI, A.RIICHI) and Action(A.OPEN_RIICHI, s, a.tile) in legal:
            c = list(g.seats[s].counts)
            c[a.tile & ~RED] -= 1
            seen = visible(g, s)
            unseen = sum(max(copies[w] - c[w] - seen[w], 0) for w in calc.waits(c))
            assert (a.type is A.OPEN_RIICHI) == (unseen >= 4), (a.text, unseen)
            opened += a.type is A.OPEN_RIICHI
        open_seats = [o for o in rs.open_riichi_seats(g) if o != s and not g.ruleset.furiten(g, o)]  # type: ignore[attr-defined]
        if open_seats and not g.seats[s].riichi:
            waits = {w for o in open_seats for w in g.seats[o].waits}
            safe = [d for d in legal if d.type is A.DISCARD and d.tile & ~RED not in waits]
            if safe:
                assert a.tile & ~RED not in waits, f"{a.text} deals into an open riichi on {sorted(waits)}"
                avoided += 1
        if opened >= 5 and avoided >= 20:
            break
    assert opened >= 5 and avoided >= 20, (opened, avoided)


def test_tw_12_declares_tenpai() -> None:
    """TW-12/T-3: declaring tenpai costs nothing and earns a tai; smart declares when tenpai with
    two or more unseen winning tiles and no one else has declared; flowers never stay in a hand
    it plays (TW-5: they are exposed and replaced)."""
    rs = short(find_ruleset("taiwan16"))
    declared = 0
    for g, s in positions(rs, "tw12", 10):
        for st in g.seats:
            assert all(g.kind(t) < 34 for t in st.tiles), "a flower in hand"
        legal = list(g.legal_actions(s))
        if A.RIICHI not in kinds(legal) or kinds(legal) & _FIRST:
            continue
        if any(st.riichi for o, st in enumerate(g.seats) if o != s):
            continue
        c, seen, calc = g.seats[s].counts, visible(g, s), g.calc
        best = 0
        for r in legal:
            if r.type is A.RIICHI:
                c[r.tile & ~RED] -= 1
                best = max(best, calc.ukeire(c, seen).count)
                c[r.tile & ~RED] += 1
        if best < 2:
            continue
        assert smart(g, s).type is A.RIICHI
        declared += 1
        if declared >= 10:
            break
    assert declared >= 10

"""Export an engine game as a tenhou.net/6 JSON object or an mjai JSON-lines log.

The :class:`~engine.table.game.Game` keeps only its actions and hand results; draws, dora reveals
and riichi deposits are implicit. :func:`record_game` therefore **re-plays** the game's actions on
a fresh game built from the same ruleset, seed and deals, and watches the engine between actions
(the drawn tile, new melds, revealed indicators, the riichi deposits, the results). What it sees
becomes a :class:`~engine.logs.record.GameRecord` in the event order of Tenhou's own mjlog (the
order the importers produce), which :func:`to_tenhou6` and :func:`to_mjai` then format. The
record replays through :func:`engine.logs.replay.replay_record` exactly like an imported log.

The starting scores and (round, hand, honba, sticks) of a game are not stored by the engine: they
are derived from the first hand's result (the riichi sticks on the table at the start are found by
trying until the re-play reproduces every result), or given with ``scores=`` / ``start=``.
Only finished hands are exported; an unfinished last hand is left out (both formats need a result).
Nothing here writes the seed except :func:`to_jantaku` of a game that is over: a running game's
export holds its finished hands only, from which neither the current hand nor a later one can be
rebuilt (each hand's wall is its own SHA-256 stream of the seed, :mod:`engine.table.wall`).

The project's own format (:func:`to_jantaku`, every ruleset, the one ``python -m engine verify``
checks): ``format`` ``"jantaku"``, ``version`` 1, ``ruleset``, ``options``, ``names``,
``commitment`` (when given), ``hands`` (per finished hand: each seat's starting tiles in the hand
grammar, the hand's actions, its payments and the scores after it) and, once the game is over,
``seed``, ``actions`` (the whole log, so ``Game.from_dict`` replays it), ``final_scores`` and
``final_results``; a running game's export says ``"in_progress": true`` instead.

tenhou.net/6: ``ver``, ``ref``, ``name``, ``rule {disp, aka51..53}``, ``log`` (17-element hand
arrays), ``sc`` (only for a game that reached its end). 3-player games follow what Tenhou and the
usual converters write: a 4th seat with an empty name, score 0 and empty lists; kita as ``"f44"``
in the discard list; call letters placed by the seat offset counted on a 4-seat table (as in
Tenhou's mjlog); ``rule.disp`` starting with 三; kita dora counted inside ``ドラ``. The project's own
tenhou6 and mjai importers read 4-player logs only.

Limits of the formats: ``rule.disp`` names Tenhou rooms (and Mahjong Soul, written 雀魂) and mjai
has no rule fields, so both exports also carry the exact engine ruleset under the key
``"jantaku"`` (top level in tenhou.net/6, a field of mjai's ``start_game``): the registered ruleset
name and the options that differ from its preset (:func:`ruleset_entry`), which the project's
importers read back (``engine.logs.replay.ruleset_for``), so a game under ``riichi`` or
``mleague`` replays under its own rules. Other readers ignore the key.
A discard is written as tsumogiri (60 / ``tsumogiri: true``) whenever its code equals the drawn
tile's, because the engine then discards the drawn tile. tenhou6 has no "pass", so a seat that
passes a call and makes the same call on the same tile from the same player before drawing again
is read as calling the first discard: :func:`tenhou6_ambiguities` lists such places.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

from engine.logs.record import (
    RULESET_KEY,
    Call,
    CallKind,
    Discard,
    Draw,
    DrawKind,
    GameRecord,
    HandDraw,
    HandRecord,
    NewDora,
    RiichiAccepted,
    RuleInfo,
    Win,
)
from engine.notation import MeldType
from engine.rules.base import Ruleset, UnknownRuleset, find_ruleset
from engine.scoring.result import base_points, ceil100
from engine.table.actions import Action, ActionType
from engine.table.game import Game, HandResult, Phase
from engine.tiles import RED, format_tiles

__all__ = [
    "MjaiHandWriter",
    "Recorder",
    "dumps_mjai",
    "finished_hands",
    "mjai_start_game",
    "mjai_tile",
    "record_game",
    "ruleset_entry",
    "tenhou6_ambiguities",
    "tenhou6_tile",
    "to_jantaku",
    "to_mjai",
    "to_tenhou6",
]

A = ActionType

_DRAW_KINDS: dict[str, DrawKind] = {
    "exhaustive": DrawKind.EXHAUSTIVE,
    "nagashi_mangan": DrawKind.NAGASHI,
    "kyuushu_kyuuhai": DrawKind.NINE_TERMINALS,
    "suufon_renda": DrawKind.FOUR_WINDS,
    "suucha_riichi": DrawKind.FOUR_RIICHI,
    "suukaikan": DrawKind.FOUR_KANS,
    "sanchahou": DrawKind.TRIPLE_RON,
}
_OPEN_CALLS = {MeldType.CHI: CallKind.CHI, MeldType.PON: CallKind.PON, MeldType.MINKAN: CallKind.DAIMINKAN}
_MAX_START_STICKS = 20


# ----------------------------------------------------------------------------------------------
# re-playing a game into a GameRecord


class Recorder:
    """Applies actions to a fresh game and writes down what happens, hand by hand."""

    def __init__(self, g: Game) -> None:
        self.g = g
        self.hands: list[HandRecord] = []
        self.current: HandRecord | None = None
        self.riichi: set[int] = set()  # seats that declared riichi in the current hand
        self._begin()

    def _begin(self) -> None:
        g = self.g
        if g.over:
            self.current = None
            return
        code = g.code
        hand = HandRecord(
            round_wind=g.round_wind,
            hand_number=g.hand_number,
            honba=g.honba,
            sticks=g.sticks,
            dealer=g.dealer,
            scores=tuple(g.scores),
            dora_indicators=(code(g.deal.dora[0]),),
            haipai=tuple(tuple(code(t) for t in h) for h in g.deal.haipai),
        )
        hand.events.append(Draw(g.current, code(g.drawn)))
        self.current = hand
        self.riichi = set()

    def step(self, a: Action) -> None:
        g = self.g
        hand = self.current
        if hand is None:
            raise ValueError(f"action {a.text} after the end of the game")
        code = g.code
        ev = hand.events
        t = a.type
        phase = g.phase
        n_results = len(g.results)
        seats = g.seats  # the list object survives the start of the next hand
        deal = g.deal
        revealed = g.dora_revealed
        pending_dora = g.pending_dora
        deposits = len(g.riichi_deposits)
        live_pos, rinshan_pos = g.live_pos, g.rinshan_pos
        drawn = g.drawn
        melds = [len(st.melds) for st in seats]
        last_discard, kakan_tile = g.last_discard, g.kakan_tile
        # a double ron needs each winner's share: keep the state the payments are computed from
        before: Game | None = None
        if phase is not Phase.TURN and len(g.responses) + 1 == len(g.pending):
            rons = sum(1 for r in g.responses.values() if r.type is A.RON) + (t is A.RON)
            if rons >= 2:
                before = g.copy()
        discard = phase is Phase.TURN and t in (A.DISCARD, A.RIICHI)
        if discard:
            for i in range(revealed, revealed + pending_dora):  # the reveal that precedes a discard
                ev.append(NewDora(code(deal.dora[i])))
            if t is A.RIICHI:
                self.riichi.add(a.seat)
            ev.append(Discard(a.seat, a.tile, drawn >= 0 and code(drawn) == a.tile, t is A.RIICHI))

        g.apply(a)

        ended = len(g.results) > n_results
        if phase is Phase.TURN and t in (A.ANKAN, A.KAKAN, A.KITA):
            st = g.seats[a.seat]
            if t is A.KITA:
                c = code(st.kita[-1])
                ev.append(Call(a.seat, CallKind.KITA, c, (c,)))
            elif t is A.ANKAN:
                codes = tuple(code(x) for x in st.melds[-1].tiles)
                plain = [c for c in codes if not c & RED]
                ev.append(Call(a.seat, CallKind.ANKAN, plain[0] if plain else codes[0], codes))
            else:
                m = next(m for m in st.melds if m.type is MeldType.KAKAN and g.kind(m.called) == a.tile)
                ev.append(Call(a.seat, CallKind.KAKAN, code(m.called), (code(m.called),)))
            for i in range(revealed, g.dora_revealed):
                ev.append(NewDora(code(deal.dora[i])))
        paid = g.results[n_results].riichi_deposits if ended else tuple(g.riichi_deposits)
        for s in paid[deposits:]:
            ev.append(RiichiAccepted(s))
        if not ended:
            if phase is Phase.CALL:
                for s, st in enumerate(seats):
                    if len(st.melds) > melds[s]:
                        m = st.melds[-1]
                        consumed = tuple(code(x) for x in m.tiles if x != m.called)
                        ev.append(
                            Call(s, _OPEN_CALLS[m.type], code(m.called), consumed, from_seat=m.from_seat)
                        )
            if g.rinshan_pos > rinshan_pos:
                ev.append(Draw(g.current, code(g.drawn), True))
            elif g.live_pos > live_pos:
                ev.append(Draw(g.current, code(g.drawn), False))
            return
        result = g.results[n_results]
        final_revealed = revealed + (pending_dora if discard else 0)
        if result.wins:
            for i, w in enumerate(result.wins):
                if w.seat == w.from_seat:
                    tile = code(drawn)
                elif phase is Phase.CHANKAN:
                    tile = code(kakan_tile)
                else:
                    tile = code(last_discard)
                if len(result.wins) == 1:
                    deltas = result.deltas
                else:
                    assert before is not None
                    d, _ = before.ruleset.payments(
                        before,
                        w.seat,
                        w.from_seat,
                        w.score,
                        tsumo=False,
                        honba=before.honba if i == 0 else 0,
                        sticks=before.sticks if i == 0 else 0,
                    )
                    deltas = tuple(d)
                sc = w.score
                ev.append(
                    Win(
                        seat=w.seat,
                        from_seat=w.from_seat,
                        win_tile=tile,
                        deltas=tuple(deltas),
                        hand=tuple(sorted((code(x) for x in seats[w.seat].tiles), key=_tile_order)),
                        ura_indicators=tuple(code(x) for x in deal.ura[:final_revealed])
                        if w.seat in self.riichi
                        else (),
                        dora_indicators=tuple(code(x) for x in deal.dora[:final_revealed]),
                        fu=sc.fu,
                        han=sc.han,
                        points=sc.points,
                        yakuman=sc.yakuman,
                        yaku=tuple((y.name, y.han) for y in sc.yaku),
                        pao_seat=w.pao_seat if w.pao_seat >= 0 else None,
                    )
                )
        else:
            kind = _DRAW_KINDS[result.kind]
            tenpai = tuple(result.tenpai) if kind in (DrawKind.EXHAUSTIVE, DrawKind.NAGASHI) else None
            ev.append(HandDraw(kind, tuple(result.deltas), tenpai))
        self.hands.append(hand)
        self._begin()


def _tile_order(c: int) -> tuple[int, int]:
    return (c & ~RED, c & RED)  # by kind, a red five after the plain ones (as tenhou.net/6 lists hands)


def _same_outcome(a: Game, b: Game) -> bool:
    return (
        a.results == b.results
        and a.scores == b.scores
        and a.sticks == b.sticks
        and a.over == b.over
        and a.final_scores == b.final_scores
    )


def _derived_start(game: Game) -> tuple[list[int], tuple[int, int, int, int]]:
    """Starting scores and (round, hand, honba, sticks=0) read back from the first result."""
    n = game.players
    if game.results:
        r: HandResult = game.results[0]
        scores = [r.scores_after[s] - r.deltas[s] + 1000 * r.riichi_deposits.count(s) for s in range(n)]
        return scores, (r.round_wind, r.hand_number, r.honba, 0)
    deps = game.riichi_deposits if not game.over else []
    scores = [game.scores[s] + 1000 * deps.count(s) for s in range(n)]
    return scores, (game.round_wind, game.hand_number, game.honba, max(0, game.sticks - len(deps)))


def _replayed(game: Game, scores: Sequence[int], start: tuple[int, int, int, int]) -> tuple[Recorder, Game]:
    fresh = Game(game.ruleset, game.seed, deals=game.recorded_deals, scores=scores, start=start)
    rec = Recorder(fresh)
    for a in game.actions:
        rec.step(a)
    return rec, fresh


def _json_value(v: Any) -> Any:
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return {f.name: _json_value(getattr(v, f.name)) for f in dataclasses.fields(v)}
    if isinstance(v, (tuple, list, frozenset, set)):
        return [_json_value(x) for x in (sorted(v) if isinstance(v, (set, frozenset)) else v)]
    return v


def ruleset_entry(rs: Ruleset) -> dict[str, Any]:
    """``{"ruleset": name, "options": {...}}``: the registered ruleset ``rs`` is made from and, as
    JSON values, each option that differs from that ruleset's preset (empty for the preset itself)."""
    try:
        base = find_ruleset(rs.name).options
    except UnknownRuleset:
        base = None
    changed: dict[str, Any] = {}
    if dataclasses.is_dataclass(rs.options):
        for f in dataclasses.fields(rs.options):
            value = getattr(rs.options, f.name)
            if base is None or value != getattr(base, f.name):
                changed[f.name] = _json_value(value)
    return {"ruleset": rs.name, "options": changed}


def _rule_info(rs: Ruleset) -> RuleInfo:
    o = rs.options
    source = {"mahjongsoul": "mahjongsoul", "majiang": "majiang"}.get(rs.name, "tenhou")
    entry = ruleset_entry(rs)
    return RuleInfo(
        players=rs.players,
        red_fives=any(o.red_fives),
        kuitan=o.kuitan,
        hanchan=o.hanchan,
        start_points=o.start_points,
        source=source,
        ruleset=entry["ruleset"],
        ruleset_options=entry["options"],
    )


def _default_names(n: int) -> tuple[str, ...]:
    return tuple(f"{c}さん" for c in "ABCD"[:n])


def record_game(
    game: Game,
    *,
    names: Sequence[str] | None = None,
    scores: Sequence[int] | None = None,
    start: tuple[int, int, int, int] | None = None,
) -> GameRecord:
    """The game's finished hands as a :class:`GameRecord` (seat 0 = the first dealer).

    Re-plays ``game.actions`` on a fresh ``Game`` with the same ruleset, seed and deals; raises
    ``ValueError`` if that does not reproduce the game's results (then pass ``scores``/``start``).
    """
    n = game.players
    if names is not None and len(names) != n:
        raise ValueError(f"{len(names)} names for a {n}-player game")
    if scores is not None or start is not None:
        s0, st0 = _derived_start(game)
        candidates = [(list(scores) if scores is not None else s0, start if start is not None else st0)]
    else:
        s0, (rw, hn, hb, k0) = _derived_start(game)
        ks = [k0] + [k for k in range(_MAX_START_STICKS) if k != k0]
        candidates = [(s0, (rw, hn, hb, k)) for k in ks]
    for sc, st in candidates:
        try:
            rec, fresh = _replayed(game, sc, st)
        except (ValueError, IndexError):  # a wrong guess can end the game early (tobi)
            continue
        if _same_outcome(fresh, game):
            break
    else:
        raise ValueError(
            "re-playing the game's actions does not reproduce its results: pass scores= and start="
        )
    over = game.over and not game.truncated
    return GameRecord(
        path="",
        format="engine",
        rules=_rule_info(game.ruleset),
        names=tuple(names) if names is not None else _default_names(n),
        hands=rec.hands,
        final_scores=tuple(game.final_scores) if over else None,
        final_results=tuple(game.final_results) if over else None,
        complete=over,
    )


# ----------------------------------------------------------------------------------------------
# tenhou.net/6


def tenhou6_tile(code: int) -> int:
    """Tile code -> tenhou6 number (11..19 man, 21..29 pin, 31..39 sou, 41..47 honors, 51..53 red)."""
    k = code & ~RED
    if code & RED:
        return 51 + k // 9
    if k < 27:
        return (k // 9 + 1) * 10 + k % 9 + 1
    return 41 + k - 27


_WIND_JA = "東南西北"
_LIMIT_JA = {
    "mangan": "満貫",
    "haneman": "跳満",
    "baiman": "倍満",
    "sanbaiman": "三倍満",
    "kazoe": "役満",
    "yakuman": "役満",
}
# Tenhou's names where they differ from the yaku classes' name_ja (README section A's list)
_TENHOU_YAKU = {
    "renhou": "人和",
    "menzen_tsumo": "門前清自摸和",
    "double_riichi": "両立直",
    "chankan": "槍槓",
    "kokushi_13": "国士無双１３面",
    "dora": "ドラ",
    "aka_dora": "赤ドラ",
    "ura_dora": "裏ドラ",
    "kita": "ドラ",  # Tenhou sanma counts each kita inside ドラ
}
# the order the yaku are listed in (Tenhou-like: situational first, dora last)
_YAKU_ORDER = [  # Tenhou's order (consistent with every yaku list in the Tenhou XML logs here)
    "riichi",
    "double_riichi",
    "ippatsu",
    "chankan",
    "rinshan",
    "haitei",
    "houtei",
    "menzen_tsumo",
    "pinfu",
    "iipeikou",
    "ryanpeikou",
    "chiitoitsu",
    "sanshoku",
    "ittsu",
    "junchan",
    "shousangen",
    "sankantsu",
    "sanankou",
    "toitoi",
    "tanyao",
    "sanshoku_doukou",
    "round_wind",
    "seat_wind",
    "haku",
    "hatsu",
    "chun",
    "chanta",
    "honroutou",
    "honitsu",
    "chinitsu",
    "tenhou",
    "chiihou",
    "renhou",
    "daisangen",
    "suuankou_tanki",
    "ryuuiisou",
    "chinroutou",
    "chuuren",
    "junsei_chuuren",
    "kokushi",
    "kokushi_13",
    "daisuushii",
    "shousuushii",
    "suuankou",
    "tsuuiisou",
    "suukantsu",
]
_DORA_IDS = ("dora", "aka_dora", "ura_dora")
_DRAW_JA = {
    DrawKind.NAGASHI: "流し満貫",
    DrawKind.NINE_TERMINALS: "九種九牌",
    DrawKind.FOUR_WINDS: "四風連打",
    DrawKind.FOUR_RIICHI: "四家立直",
    DrawKind.TRIPLE_RON: "三家和了",
    DrawKind.FOUR_KANS: "四槓散了",
}


def _yaku_names(rs: Ruleset) -> dict[str, str]:
    out = {y.id: y.name_ja for y in (*rs.yaku, *rs.yakuman) if y.name_ja}
    out.update(_TENHOU_YAKU)
    return out


def _yaku_texts(w: Win, hand: HandRecord, n: int, names: dict[str, str]) -> list[str]:
    order = {y: i for i, y in enumerate(_YAKU_ORDER)}
    yaku = sorted(
        (y for y in w.yaku if y[0] not in _DORA_IDS and y[0] != "kita"),
        key=lambda y: order.get(y[0], len(order)),
    )
    out: list[str] = []
    for name, han in yaku:
        text = names.get(name, name)
        if name == "seat_wind":
            text = f"自風 {_WIND_JA[(w.seat - hand.dealer) % n]}"
        elif name == "round_wind":
            text = f"場風 {_WIND_JA[hand.round_wind % 4]}"
        out.append(f"{text}(役満)" if w.yakuman else f"{text}({han}飜)")
    if not w.yakuman:
        extra = dict(w.yaku)
        dora = extra.get("dora", 0) + extra.get("kita", 0)
        for name, han in (
            ("dora", dora),
            ("aka_dora", extra.get("aka_dora", 0)),
            ("ura_dora", extra.get("ura_dora", 0)),
        ):
            if han:
                out.append(f"{names[name]}({han}飜)")
    return out


def _points_text(w: Win, hand: HandRecord, rs: Ruleset) -> str:
    base, limit = base_points(w.han or 0, w.fu or 0, w.yakuman or 0, rs.options)
    head = _LIMIT_JA.get(limit, f"{w.fu}符{w.han}飜")
    dealer = w.seat == hand.dealer
    if w.seat != w.from_seat:
        return f"{head}{ceil100(base * (6 if dealer else 4))}点"
    if dealer:
        return f"{head}{ceil100(base * 2)}点∀"
    return f"{head}{ceil100(base)}-{ceil100(base * 2)}点"


def _pad(xs: Sequence[Any], fill: Any) -> list[Any]:
    return list(xs) + [fill] * (4 - len(xs))


def _call_string(c: Call) -> str:
    """chi / pon / daiminkan as Tenhou writes it in the caller's draw list."""
    t = tenhou6_tile
    own = [t(x) for x in sorted(c.consumed, key=lambda x: (x & ~RED, x & RED))]
    assert c.from_seat is not None
    if c.kind is CallKind.CHI:
        return "c" + "".join(str(x) for x in [t(c.tile), *own])
    offset = (c.from_seat - c.seat) % 4  # counted on a 4-seat table, as in Tenhou's mjlog (sanma too)
    letter = "p" if c.kind is CallKind.PON else "m"
    pos = {3: 0, 2: 1}.get(offset, len(own))
    parts = [str(x) for x in own]
    parts.insert(pos, f"{letter}{t(c.tile)}")
    return "".join(parts)


def _tenhou6_hand(hand: HandRecord, n: int, rs: Ruleset, names: dict[str, str]) -> list[Any]:
    t = tenhou6_tile
    draws: list[list[int | str]] = [[] for _ in range(4)]
    discards: list[list[int | str]] = [[] for _ in range(4)]
    pons: list[list[str]] = [[] for _ in range(4)]
    dora = [hand.dora_indicators[0]]
    ura: list[int] = []
    result: list[Any] = []
    wins: list[Win] = []
    for e in hand.events:
        if isinstance(e, Draw):
            draws[e.seat].append(t(e.tile))
        elif isinstance(e, Discard):
            v = 60 if e.tsumogiri else t(e.tile)
            discards[e.seat].append(f"r{v}" if e.riichi else v)
        elif isinstance(e, NewDora):
            dora.append(e.indicator)
        elif isinstance(e, Call):
            s = e.seat
            if e.kind in (CallKind.CHI, CallKind.PON, CallKind.DAIMINKAN):
                text = _call_string(e)
                draws[s].append(text)
                if e.kind is CallKind.PON:
                    pons[s].append(text)
                elif e.kind is CallKind.DAIMINKAN:
                    discards[s].append(0)
            elif e.kind is CallKind.ANKAN:
                tiles = [t(x) for x in sorted(e.consumed, key=lambda x: (x & ~RED, x & RED))]
                discards[s].append("".join(str(x) for x in tiles[:3]) + "a" + str(tiles[3]))
            elif e.kind is CallKind.KAKAN:
                kind = e.tile & ~RED
                pon = next(p for p in pons[s] if _kind_of_call(p) == kind)
                pons[s].remove(pon)
                discards[s].append(pon.replace("p", f"k{t(e.tile)}"))
            else:
                discards[s].append(f"f{t(e.tile)}")
        elif isinstance(e, Win):
            wins.append(e)
            if e.ura_indicators and len(e.ura_indicators) > len(ura):
                ura = list(e.ura_indicators)
        elif isinstance(e, HandDraw):
            if e.kind is DrawKind.EXHAUSTIVE:
                tenpai = e.tenpai or ()
                if len(tenpai) == n:
                    result = ["全員聴牌"]
                elif not tenpai:
                    result = ["全員不聴"]
                else:
                    result = ["流局", _pad(e.deltas, 0)]
            elif e.kind is DrawKind.NAGASHI:
                result = ["流し満貫", _pad(e.deltas, 0)]
            else:
                result = [_DRAW_JA[e.kind]]
    if wins:
        result = ["和了"]
        for w in wins:
            info: list[Any] = [w.seat, w.from_seat, w.pao_seat if w.pao_seat is not None else w.seat]
            info.append(_points_text(w, hand, rs))
            info += _yaku_texts(w, hand, n, names)
            result += [_pad(w.deltas, 0), info]
    out: list[Any] = [
        [hand.round_wind * 4 + hand.hand_number, hand.honba, hand.sticks],
        _pad(hand.scores, 0),
        [t(x) for x in dora],
        [t(x) for x in ura],
    ]
    for s in range(4):
        haipai = sorted(hand.haipai[s], key=_tile_order) if s < n else []
        out += [[t(x) for x in haipai], draws[s], discards[s]]
    out.append(result)
    return out


def _kind_of_call(text: str) -> int:
    """The tile kind of a tenhou6 call string (``"p454545"`` -> White)."""
    digits = "".join(ch for ch in text if ch.isdigit())
    num = int(digits[:2])
    if num >= 51:
        return (num - 51) * 9 + 4
    if num >= 41:
        return 27 + num - 41
    return (num // 10 - 1) * 9 + num % 10 - 1


def tenhou6_ambiguities(record: GameRecord) -> list[str]:
    """Places where a tenhou.net/6 log cannot say what happened: a seat passed a pon (or chi, or
    daiminkan) and later made the same call on the same tile from the same player without
    drawing in between, so its next draw-list entry already matches the earlier discard. The
    format has no "pass": a reader (ours, and Tenhou's viewer) gives the call to the earlier
    discard. mjai has no such gap. Empty for almost every game."""
    out: list[str] = []
    for hi, hand in enumerate(record.hands):
        n = len(hand.scores)
        queue: list[list[Call | None]] = [[] for _ in range(n)]  # each seat's draw-list entries
        for e in hand.events:
            if isinstance(e, Draw):
                queue[e.seat].append(None)
            elif isinstance(e, Call) and e.from_seat is not None:
                queue[e.seat].append(e)
        pos = [0] * n
        events = hand.events
        for i, e in enumerate(events):
            if isinstance(e, Draw | Call) and (isinstance(e, Draw) or e.from_seat is not None):
                pos[e.seat] += 1
            if not isinstance(e, Discard):
                continue
            nxt = next((x for x in events[i + 1 :] if not isinstance(x, RiichiAccepted | NewDora)), None)
            if isinstance(nxt, Win):
                continue
            called = nxt.seat if isinstance(nxt, Call) and nxt.from_seat == e.seat else None
            found: list[tuple[bool, int]] = []
            for off in range(1, 4):
                s = (e.seat + off) % 4
                if s >= n or pos[s] >= len(queue[s]):
                    continue
                c = queue[s][pos[s]]
                if c is not None and c.from_seat == e.seat and c.tile == e.tile:
                    found.append((c.kind is CallKind.CHI, s))
            chosen = sorted(found, key=lambda f: f[0])[0][1] if found else None
            if chosen != called:
                who = f"seat {chosen}'s call" if chosen is not None else "no call"
                out.append(
                    f"hand {hi + 1}, event {i}: a reader gives {who} to seat {e.seat}'s discard (actual caller: {called})"
                )
    return out


def _rule_disp(rs: Ruleset) -> str:
    o = rs.options
    head = "雀魂" if rs.name == "mahjongsoul" else "般"
    disp = ("三" if rs.players == 3 else "") + head + ("南" if o.hanchan else "東")
    if o.kuitan:
        disp += "喰"
    if any(o.red_fives):
        disp += "赤"
    return disp


def _number(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x


def to_tenhou6(game: Game, *, names: Sequence[str] | None = None, ref: str | None = None) -> dict[str, Any]:
    """The game as one tenhou.net/6 JSON object (``json.dumps(..., ensure_ascii=False)`` it).

    Its finished hands only; ``ref`` (default ``jantaku-<ruleset>``) never holds the seed."""
    record = record_game(game, names=names)
    rs = game.ruleset
    n = rs.players
    yaku_names = _yaku_names(rs)
    red = rs.options.red_fives
    out: dict[str, Any] = {
        "ver": 2.3,
        "ref": ref if ref is not None else f"jantaku-{rs.name}",  # never the seed: see to_jantaku
        "log": [_tenhou6_hand(h, n, rs, yaku_names) for h in record.hands],
        "ratingc": f"PF{n}",
        "rule": {"disp": _rule_disp(rs), "aka53": red[2], "aka52": red[1], "aka51": red[0]},
        "lobby": 0,
        "dan": _pad([""] * n, ""),
        "rate": _pad([1500] * n, 0),
        "sx": _pad(["C"] * n, ""),
        RULESET_KEY: ruleset_entry(rs),
    }
    if record.final_scores is not None and record.final_results is not None:
        sc: list[int | float] = []
        for s in range(4):
            if s < n:
                sc += [record.final_scores[s], _number(record.final_results[s])]
            else:
                sc += [0, 0]
        out["sc"] = sc
    out["name"] = _pad(list(record.names), "")
    return out


# ----------------------------------------------------------------------------------------------
# mjai


_MJAI_HONORS = "ESWNPFC"
_MJAI_YAKU = {
    "menzen_tsumo": "menzenchin_tsumoho",
    "riichi": "reach",
    "ippatsu": "ippatsu",
    "chankan": "chankan",
    "rinshan": "rinshankaiho",
    "haitei": "haiteiraoyue",
    "houtei": "hoteiraoyui",
    "pinfu": "pinfu",
    "tanyao": "tanyaochu",
    "iipeikou": "ipeko",
    "seat_wind": "jikaze",
    "round_wind": "bakaze",
    "haku": "sangenpai",
    "hatsu": "sangenpai",
    "chun": "sangenpai",
    "double_riichi": "double_reach",
    "chiitoitsu": "chitoitsu",
    "chanta": "honchantaiyao",
    "ittsu": "ikkitsukan",
    "sanshoku": "sanshokudojun",
    "sanshoku_doukou": "sanshokudoko",
    "sankantsu": "sankantsu",
    "toitoi": "toitoiho",
    "sanankou": "sananko",
    "shousangen": "shosangen",
    "honroutou": "honroto",
    "ryanpeikou": "ryanpeko",
    "junchan": "junchantaiyao",
    "honitsu": "honiso",
    "chinitsu": "chiniso",
    "tenhou": "tenho",
    "chiihou": "chiho",
    "renhou": "renho",
    "daisangen": "daisangen",
    "suuankou": "suanko",
    "suuankou_tanki": "suanko",
    "tsuuiisou": "tsuiso",
    "ryuuiisou": "ryuiso",
    "chinroutou": "chinroto",
    "chuuren": "churenpoton",
    "junsei_chuuren": "churenpoton",
    "kokushi": "kokushimuso",
    "kokushi_13": "kokushimuso",
    "daisuushii": "daisushi",
    "shousuushii": "shosushi",
    "suukantsu": "sukantsu",
    "dora": "dora",
    "ura_dora": "uradora",
    "aka_dora": "akadora",
    "kita": "nukidora",
}
_MJAI_REASONS = {
    DrawKind.EXHAUSTIVE: "fanpai",
    DrawKind.NAGASHI: "nagashimangan",
    DrawKind.NINE_TERMINALS: "kyushukyuhai",
    DrawKind.FOUR_WINDS: "sufonrenda",
    DrawKind.FOUR_RIICHI: "suchariichi",
    DrawKind.FOUR_KANS: "sukaikan",
    DrawKind.TRIPLE_RON: "sanchaho",
}


def mjai_tile(code: int) -> str:
    k = code & ~RED
    if k >= 27:
        return _MJAI_HONORS[k - 27]
    return f"{k % 9 + 1}{'mps'[k // 9]}{'r' if code & RED else ''}"


def _mjai_tiles(codes: Sequence[int]) -> list[str]:
    return [mjai_tile(c) for c in sorted(codes, key=_tile_order)]


class MjaiHandWriter:
    """One hand's mjai events, written as its record's events come (the export writes a finished
    hand at once; :mod:`engine.logs.mjai_live` writes a running hand event by event, so a live mjai
    seat hears exactly what the export writes). :attr:`scores` are the scores after what was written."""

    def __init__(self, hand: HandRecord, n: int) -> None:
        self.n = n
        self.scores = list(hand.scores)
        self.tehai = [list(h) for h in hand.haipai]
        self.pons: list[list[int]] = [[] for _ in range(n)]

    def start(self, hand: HandRecord) -> dict[str, Any]:
        """The hand's ``start_kyoku`` (every seat's starting tiles: mask them for a seat's view)."""
        return {
            "type": "start_kyoku",
            "bakaze": "ESWN"[hand.round_wind % 4],
            "kyoku": hand.hand_number + 1,
            "honba": hand.honba,
            "kyotaku": hand.sticks,
            "oya": hand.dealer,
            "dora_marker": mjai_tile(hand.dora_indicators[0]),
            "scores": list(self.scores),
            "tehais": [_mjai_tiles(h) for h in hand.haipai],
        }

    def event(self, e: object) -> list[dict[str, Any]]:
        """The mjai events of one record event (a riichi discard is two: ``reach`` and ``dahai``)."""
        n, scores, tehai, pons = self.n, self.scores, self.tehai, self.pons
        out: list[dict[str, Any]] = []
        if isinstance(e, Draw):
            tehai[e.seat].append(e.tile)
            out.append({"type": "tsumo", "actor": e.seat, "pai": mjai_tile(e.tile)})
        elif isinstance(e, Discard):
            if e.riichi:
                out.append({"type": "reach", "actor": e.seat})
            tehai[e.seat].remove(e.tile)
            out.append(
                {"type": "dahai", "actor": e.seat, "pai": mjai_tile(e.tile), "tsumogiri": bool(e.tsumogiri)}
            )
        elif isinstance(e, RiichiAccepted):
            scores[e.seat] -= 1000
            deltas = [0] * n
            deltas[e.seat] = -1000
            out.append({"type": "reach_accepted", "actor": e.seat, "deltas": deltas, "scores": list(scores)})
        elif isinstance(e, NewDora):
            out.append({"type": "dora", "dora_marker": mjai_tile(e.indicator)})
        elif isinstance(e, Call):
            for c in e.consumed:
                tehai[e.seat].remove(c)
            consumed = _mjai_tiles(e.consumed)
            if e.kind in (CallKind.CHI, CallKind.PON, CallKind.DAIMINKAN):
                if e.kind is CallKind.PON:
                    pons[e.seat].append(e.tile)
                    pons[e.seat] += list(e.consumed)
                out.append(
                    {
                        "type": e.kind.value,
                        "actor": e.seat,
                        "target": e.from_seat,
                        "pai": mjai_tile(e.tile),
                        "consumed": consumed,
                    }
                )
            elif e.kind is CallKind.ANKAN:
                out.append({"type": "ankan", "actor": e.seat, "consumed": consumed})
            elif e.kind is CallKind.KAKAN:
                k = e.tile & ~RED
                pon = [c for c in pons[e.seat] if c & ~RED == k]
                out.append(
                    {"type": "kakan", "actor": e.seat, "pai": mjai_tile(e.tile), "consumed": _mjai_tiles(pon)}
                )
            else:
                out.append({"type": "nukidora", "actor": e.seat, "pai": mjai_tile(e.tile)})
        elif isinstance(e, Win):
            concealed = list(tehai[e.seat])
            if e.seat == e.from_seat:
                concealed.remove(e.win_tile)
            for s in range(n):
                scores[s] += e.deltas[s]
            hora: dict[str, Any] = {
                "type": "hora",
                "actor": e.seat,
                "target": e.from_seat,
                "pai": mjai_tile(e.win_tile),
                "uradora_markers": [mjai_tile(c) for c in e.ura_indicators],
                "hora_tehais": _mjai_tiles(concealed),
                "yakus": [[_MJAI_YAKU.get(name, name), han] for name, han in e.yaku],
                "fu": e.fu,
                "fan": e.han,
                "hora_points": e.points,
                "deltas": list(e.deltas),
                "scores": list(scores),
            }
            out.append(hora)
        elif isinstance(e, HandDraw):
            for s in range(n):
                scores[s] += e.deltas[s]
            tenpai = set(e.tenpai or ())
            ev: dict[str, Any] = {"type": "ryukyoku", "reason": _MJAI_REASONS[e.kind]}
            if e.kind in (DrawKind.EXHAUSTIVE, DrawKind.NAGASHI):
                ev["tehais"] = [
                    _mjai_tiles(tehai[s]) if s in tenpai else ["?"] * len(tehai[s]) for s in range(n)
                ]
                ev["tenpais"] = [s in tenpai for s in range(n)]
            ev["deltas"] = list(e.deltas)
            ev["scores"] = list(scores)
            out.append(ev)
        return out


def _mjai_hand(hand: HandRecord, n: int, out: list[dict[str, Any]]) -> list[int]:
    """Append one hand's events; returns the scores after it (deposits and deltas applied)."""
    w = MjaiHandWriter(hand, n)
    out.append(w.start(hand))
    for e in hand.events:
        out += w.event(e)
    out.append({"type": "end_kyoku"})
    return w.scores


def mjai_start_game(game: Game, names: Sequence[str]) -> dict[str, Any]:
    """The ``start_game`` event of a game (with the exact ruleset under ``"jantaku"``)."""
    return {"type": "start_game", "names": list(names), RULESET_KEY: ruleset_entry(game.ruleset)}


def to_mjai(game: Game, *, names: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """The game as mjai events (``start_game`` … ``end_game``), one dict per line."""
    record = record_game(game, names=names)
    n = game.players
    out: list[dict[str, Any]] = [mjai_start_game(game, record.names)]
    for hand in record.hands:
        _mjai_hand(hand, n, out)
    if record.complete and record.final_scores is not None:
        out.append({"type": "end_game", "scores": list(record.final_scores)})
    return out


def dumps_mjai(game: Game, *, names: Sequence[str] | None = None) -> str:
    """:func:`to_mjai` as JSON lines (one event per line, final newline)."""
    return "".join(json.dumps(ev, ensure_ascii=False) + "\n" for ev in to_mjai(game, names=names))


# ----------------------------------------------------------------------------------------------
# the project's own format


def finished_hands(game: Game) -> list[dict[str, Any]]:
    """Each finished hand of ``game``: ``haipai`` (every seat's starting tiles, sorted, in the hand
    grammar), ``actions`` (the hand's action texts), ``deltas`` and ``scores`` (after the hand).
    The hand still being played is left out. Re-plays the actions on a fresh game."""
    fresh = Game(game.ruleset, game.seed, deals=game.recorded_deals)

    def haipai(g: Game) -> list[str]:
        return [format_tiles((g.code(t) for t in h), sort=True) for h in g.deal.haipai]

    out: list[dict[str, Any]] = []
    dealt = haipai(fresh)
    texts: list[str] = []
    for a in game.actions:
        n = len(fresh.results)
        fresh.apply(a)
        texts.append(a.text)
        if len(fresh.results) > n:
            r = fresh.results[n]
            out.append({"haipai": dealt, "actions": " ".join(texts), "deltas": list(r.deltas), "scores": list(r.scores_after)})
            texts = []
            if not fresh.over:
                dealt = haipai(fresh)
    return out


def to_jantaku(
    game: Game, *, names: Sequence[str] | None = None, commitment: str | None = None
) -> dict[str, Any]:
    """The game in the project's own format (module docstring). The seed and the whole action log
    are written only when the game is over; before, only the finished hands are."""
    entry = ruleset_entry(game.ruleset)
    out: dict[str, Any] = {
        "format": "jantaku",
        "version": 1,
        "ruleset": entry["ruleset"],
        "options": game.ruleset.options_dict(),
        "names": list(names) if names is not None else list(_default_names(game.players)),
    }
    if commitment is not None:
        out["commitment"] = commitment
    out["hands"] = finished_hands(game)
    if game.over and not game.truncated:
        out["seed"] = game.seed
        out["actions"] = " ".join(a.text for a in game.actions)
        out["final_scores"] = list(game.final_scores)
        out["final_results"] = [_number(x) for x in game.final_results]
    else:
        out["in_progress"] = True
    return out

"""mjai JSON-lines importer, see shared/data/logs/README.md section C.

One event per line. Events are mapped one to one and kept in file order (``dora`` events stay
where the writer put them). The ``logs`` field some servers attach to every event is ignored.
Hidden tiles (``"?"``) in anything the record needs (starting hands, draws, discards, calls)
raise :class:`~engine.logs.record.LogFormatError`: a replay needs full information.
``ryukyoku.tehais`` is not needed and may hide the noten hands.

Starting scores come from ``start_kyoku.scores`` when present, otherwise they are tracked from
25,000 with every ``hora`` / ``ryukyoku`` delta and 1,000 per ``reach_accepted``.

Everything here is pure: only :func:`load_mjai` reads a file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.logs.limits import COUNT_LIMIT, POINTS_LIMIT, load_json, range_error, shown
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
    LogFormatError,
    NewDora,
    RiichiAccepted,
    RuleInfo,
    Win,
    read_ruleset_entry,
)
from engine.tiles import RED, is_chi_shape, is_one_kind

__all__ = ["load_mjai", "parse_mjai", "tile_code"]

_START_POINTS = 25000
_HONORS = {"E": 27, "S": 28, "W": 29, "N": 30, "P": 31, "F": 32, "C": 33}
_WINDS = {"E": 0, "S": 1, "W": 2, "N": 3}

# ryukyoku.reason (normalised: lower case, no '_' / '-') -> DrawKind
_REASONS: dict[str, DrawKind] = {
    "fanpai": DrawKind.EXHAUSTIVE,
    "howanpai": DrawKind.EXHAUSTIVE,
    "exhaustive": DrawKind.EXHAUSTIVE,
    "ryukyoku": DrawKind.EXHAUSTIVE,
    "nagashimangan": DrawKind.NAGASHI,
    "kyushukyuhai": DrawKind.NINE_TERMINALS,
    "kyuushukyuuhai": DrawKind.NINE_TERMINALS,
    "kyushu": DrawKind.NINE_TERMINALS,
    "suufonrenda": DrawKind.FOUR_WINDS,
    "sufonrenda": DrawKind.FOUR_WINDS,
    "suufuurenda": DrawKind.FOUR_WINDS,
    "sufurenda": DrawKind.FOUR_WINDS,
    "suuchariichi": DrawKind.FOUR_RIICHI,
    "suchariichi": DrawKind.FOUR_RIICHI,
    "suuchareach": DrawKind.FOUR_RIICHI,
    "sucharichi": DrawKind.FOUR_RIICHI,
    "suukaikan": DrawKind.FOUR_KANS,
    "sukaikan": DrawKind.FOUR_KANS,
    "suukan": DrawKind.FOUR_KANS,
    "sanchaho": DrawKind.TRIPLE_RON,
    "sanchahou": DrawKind.TRIPLE_RON,
    "sanchahoo": DrawKind.TRIPLE_RON,
}


class _Bad(Exception):
    """Internal: a problem found while parsing; turned into LogFormatError with the location."""


def tile_code(pai: Any) -> int:
    """mjai tile string (``"5m"``, ``"5mr"``, ``"E"`` … ``"C"``) -> tile code."""
    if not isinstance(pai, str):
        raise _Bad(f"tile {shown(pai)} is not a string")
    if pai == "?":
        raise _Bad('a hidden tile "?" where the record needs the tile')
    if pai in _HONORS:
        return _HONORS[pai]
    red = pai.endswith("r")
    body = pai[:-1] if red else pai
    if len(body) == 2 and body[0] in "123456789" and body[1] in "mps":
        kind = "mps".index(body[1]) * 9 + int(body[0]) - 1
        if red:
            if body[0] != "5":
                raise _Bad(f'{shown(pai)} is not a tile: only fives can be red')
            return kind | RED
        return kind
    if len(body) == 2 and body[0] == "0" and body[1] in "mps" and not red:  # some writers use 0m for red
        return ("mps".index(body[1]) * 9 + 4) | RED
    raise _Bad(f'{shown(pai)} is not an mjai tile')


def _int(ev: dict[str, Any], key: str) -> int:
    if key not in ev:
        raise _Bad(f'missing "{key}"')
    x = ev[key]
    if isinstance(x, bool) or not isinstance(x, int):
        raise _Bad(f'"{key}" is {shown(x)}, not an integer')
    bad = range_error(x, f'"{key}"')
    if bad:
        raise _Bad(bad)
    return x


def _seat(ev: dict[str, Any], key: str) -> int:
    s = _int(ev, key)
    if not 0 <= s < 4:
        raise _Bad(f'"{key}" = {s} is not a seat 0..3')
    return s


def _deltas(ev: dict[str, Any]) -> tuple[int, ...]:
    raw = ev.get("deltas")
    if not isinstance(raw, list) or len(raw) != 4:
        raise _Bad('"deltas" is not a list of 4 numbers')
    out = []
    for x in raw:
        if isinstance(x, bool) or not isinstance(x, int | float) or range_error(int(x), "") or x != int(x):
            raise _Bad(f'"deltas" has {shown(x)}, not an integer within ±{POINTS_LIMIT:,}')
        out.append(int(x))
    return tuple(out)


def _tiles(ev: dict[str, Any], key: str) -> tuple[int, ...]:
    raw = ev.get(key)
    if not isinstance(raw, list):
        raise _Bad(f'"{key}" is not a list of tiles')
    return tuple(tile_code(p) for p in raw)


def _scores(raw: Any, what: str) -> tuple[int, ...]:
    if not isinstance(raw, list) or len(raw) != 4:
        raise _Bad(f"{what} is not a list of 4 scores")
    out = []
    for x in raw:
        if isinstance(x, bool) or not isinstance(x, int | float) or range_error(int(x), "") or x != int(x):
            raise _Bad(f"{what} has {shown(x)}, not an integer within ±{POINTS_LIMIT:,}")
        out.append(int(x))
    return tuple(out)


@dataclass(slots=True)
class _Hand:
    record: HandRecord
    hands: list[list[int]]
    last_draw: list[int | None] = field(default_factory=lambda: [None] * 4)
    reach: list[bool] = field(default_factory=lambda: [False] * 4)
    declared: list[bool] = field(default_factory=lambda: [False] * 4)
    rinshan: list[bool] = field(default_factory=lambda: [False] * 4)
    last_tile: int | None = None  # last discarded / kakan tile (ron candidate)
    last_from: int | None = None
    dora: list[int] = field(default_factory=list)
    ended: bool = False


class _Parser:
    def __init__(self, path: str) -> None:
        self.path = path
        self.names: tuple[str, ...] | None = None
        self.ruleset: tuple[str, dict[str, Any]] = ("", {})  # a Jantaku export's exact ruleset
        self.hands: list[HandRecord] = []
        self.state: _Hand | None = None
        self.scores = [_START_POINTS] * 4
        self.final_scores: tuple[int, ...] | None = None
        self.ended = False

    def hand(self) -> _Hand:
        st = self.state
        if st is None:
            raise _Bad("game action before the first start_kyoku")
        if st.ended:
            raise _Bad("game action after the hand ended")
        return st

    def take(self, st: _Hand, seat: int, tile: int, what: str) -> None:
        try:
            st.hands[seat].remove(tile)
        except ValueError:
            raise _Bad(f"seat {seat} {what} {tile_name(tile)}, which is not in its hand") from None

    # -- events ----------------------------------------------------------------------------------

    def start_game(self, ev: dict[str, Any]) -> None:
        names = ev.get("names")
        if isinstance(names, list) and len(names) == 4:
            self.names = tuple(str(n) for n in names)
        if RULESET_KEY in ev:
            try:
                self.ruleset = read_ruleset_entry(ev[RULESET_KEY])
            except LogFormatError as e:
                raise _Bad(str(e)) from None

    def start_kyoku(self, ev: dict[str, Any]) -> None:
        if self.state is not None and not self.state.ended:
            raise _Bad("start_kyoku before the previous hand ended")
        if self.ended:
            raise _Bad("start_kyoku after end_game")
        wind = ev.get("bakaze")
        if wind not in _WINDS:
            raise _Bad(f'"bakaze" is {shown(wind)}, not E/S/W/N')
        kyoku = _int(ev, "kyoku")
        if not 1 <= kyoku <= 4:
            raise _Bad(f'"kyoku" = {kyoku} is not 1..4')
        honba = _int(ev, "honba")
        sticks = _int(ev, "kyotaku")
        if not (0 <= honba <= COUNT_LIMIT and 0 <= sticks <= COUNT_LIMIT):
            raise _Bad(f'"honba" and "kyotaku" must be from 0 to {COUNT_LIMIT}')
        oya = _seat(ev, "oya")
        dora = tile_code(ev.get("dora_marker"))
        tehais = ev.get("tehais")
        if not isinstance(tehais, list) or len(tehais) != 4:
            raise _Bad('"tehais" is not 4 starting hands')
        haipai = []
        for s, th in enumerate(tehais):
            if not isinstance(th, list) or len(th) != 13:
                raise _Bad(f"seat {s} starting hand does not have 13 tiles")
            haipai.append(tuple(tile_code(p) for p in th))
        if "scores" in ev and ev["scores"] is not None:
            self.scores = list(_scores(ev["scores"], '"scores"'))
        record = HandRecord(
            round_wind=_WINDS[wind],
            hand_number=kyoku - 1,
            honba=honba,
            sticks=sticks,
            dealer=oya,
            scores=tuple(self.scores),
            dora_indicators=(dora,),
            haipai=tuple(haipai),
        )
        self.hands.append(record)
        self.state = _Hand(record=record, hands=[list(h) for h in haipai], dora=[dora])

    def tsumo(self, ev: dict[str, Any]) -> None:
        st = self.hand()
        seat = _seat(ev, "actor")
        t = tile_code(ev.get("pai"))
        st.hands[seat].append(t)
        st.last_draw[seat] = t
        rinshan = st.rinshan[seat]
        st.rinshan[seat] = False
        st.record.events.append(Draw(seat, t, rinshan))

    def dahai(self, ev: dict[str, Any]) -> None:
        st = self.hand()
        seat = _seat(ev, "actor")
        t = tile_code(ev.get("pai"))
        self.take(st, seat, t, "discards")
        flag = ev.get("tsumogiri")
        tsumogiri = flag if isinstance(flag, bool) else None
        riichi = st.reach[seat]
        st.reach[seat] = False
        st.last_draw[seat] = None
        st.last_tile, st.last_from = t, seat
        st.record.events.append(Discard(seat, t, tsumogiri, riichi))

    def open_call(self, ev: dict[str, Any], kind: CallKind) -> None:
        st = self.hand()
        seat = _seat(ev, "actor")
        target = _seat(ev, "target")
        if target == seat:
            raise _Bad(f"{kind.value} by seat {seat} from itself")
        t = tile_code(ev.get("pai"))
        consumed = _tiles(ev, "consumed")
        if len(consumed) != (3 if kind == CallKind.DAIMINKAN else 2):
            raise _Bad(f"{kind.value} consumes {len(consumed)} tiles")
        if st.last_from != target or st.last_tile != t:
            raise _Bad(
                f"{kind.value} by seat {seat} takes {tile_name(t)} from seat {target}, which was not just discarded"
            )
        kinds = sorted(c & ~RED for c in (t, *consumed))
        if kind == CallKind.CHI:
            if target != (seat + 3) % 4:
                raise _Bad(f"chi by seat {seat} from seat {target}, which is not its kamicha")
            if not is_chi_shape(kinds):
                raise _Bad(f"chi by seat {seat} is not a sequence")
        elif not is_one_kind(kinds):
            raise _Bad(f"{kind.value} by seat {seat} mixes different tiles")
        for c in consumed:
            self.take(st, seat, c, f"calls {kind.value} with")
        st.last_draw[seat] = None
        st.last_tile = st.last_from = None
        if kind == CallKind.DAIMINKAN:
            st.rinshan[seat] = True
        st.record.events.append(Call(seat, kind, t, consumed, from_seat=target))

    def ankan(self, ev: dict[str, Any]) -> None:
        st = self.hand()
        seat = _seat(ev, "actor")
        consumed = _tiles(ev, "consumed")
        if len(consumed) != 4 or not is_one_kind(c & ~RED for c in consumed):
            raise _Bad(f"ankan by seat {seat} is not four of one tile")
        for c in consumed:
            self.take(st, seat, c, "calls ankan with")
        st.last_draw[seat] = None
        st.rinshan[seat] = True
        plain = [c for c in consumed if not c & RED]
        st.last_tile, st.last_from = consumed[0], seat
        st.record.events.append(Call(seat, CallKind.ANKAN, plain[0] if plain else consumed[0], consumed))

    def kakan(self, ev: dict[str, Any]) -> None:
        st = self.hand()
        seat = _seat(ev, "actor")
        t = tile_code(ev.get("pai"))
        if "consumed" in ev:
            pon = _tiles(ev, "consumed")
            if not is_one_kind(c & ~RED for c in (t, *pon)):
                raise _Bad(f"kakan by seat {seat} mixes different tiles")
        self.take(st, seat, t, "calls kakan with")
        st.last_draw[seat] = None
        st.rinshan[seat] = True
        st.last_tile, st.last_from = t, seat
        st.record.events.append(Call(seat, CallKind.KAKAN, t, (t,)))

    def dora(self, ev: dict[str, Any]) -> None:
        st = self.hand()
        t = tile_code(ev.get("dora_marker"))
        st.dora.append(t)
        st.record.events.append(NewDora(t))

    def reach(self, ev: dict[str, Any]) -> None:
        st = self.hand()
        seat = _seat(ev, "actor")
        st.reach[seat] = True
        st.declared[seat] = True

    def reach_accepted(self, ev: dict[str, Any]) -> None:
        st = self.hand()
        seat = _seat(ev, "actor")
        self.scores[seat] -= 1000
        st.record.events.append(RiichiAccepted(seat))

    def hora(self, ev: dict[str, Any]) -> None:
        st = self.state
        if st is None:
            raise _Bad("hora before the first start_kyoku")
        if st.ended and not isinstance(st.record.events[-1], Win):
            raise _Bad("hora after the hand ended")
        seat = _seat(ev, "actor")
        target = _seat(ev, "target")
        deltas = _deltas(ev)
        hand = list(st.hands[seat])
        if seat == target:
            tile = st.last_draw[seat]
            if tile is None:
                raise _Bad(f"seat {seat} wins by tsumo but did not just draw")
        else:
            if st.last_from != target or st.last_tile is None:
                raise _Bad(
                    f"seat {seat} wins by ron from seat {target}, whose tile was not the last one played"
                )
            tile = st.last_tile
            hand.append(tile)
        if ev.get("pai") is not None and tile_code(ev["pai"]) & ~RED != tile & ~RED:
            raise _Bad(f'hora "pai" {ev["pai"]} is not the winning tile {tile_name(tile)}')
        ura_key = "uradora_markers" if "uradora_markers" in ev else "ura_markers"
        ura = _tiles(ev, ura_key) if isinstance(ev.get(ura_key), list) else ()
        yaku: list[tuple[str, int]] = []
        raw_yakus = ev.get("yakus")
        if isinstance(raw_yakus, list):
            for y in raw_yakus:
                if not (
                    isinstance(y, list) and len(y) == 2 and isinstance(y[0], str) and isinstance(y[1], int)
                ):
                    raise _Bad(f"yaku entry {shown(y)} is not [name, han]")
                yaku.append((y[0], y[1]))
        fu = ev.get("fu")
        fan = ev.get("fan")
        pts = ev.get("hora_points")
        st.record.events.append(
            Win(
                seat=seat,
                from_seat=target,
                win_tile=tile,
                deltas=deltas,
                hand=tuple(sorted(hand, key=lambda c: (c & ~RED, c))),
                ura_indicators=ura,
                dora_indicators=tuple(st.dora),
                fu=fu if isinstance(fu, int) else None,
                han=fan if isinstance(fan, int) else None,
                points=pts if isinstance(pts, int) else None,
                yaku=tuple(yaku),
            )
        )
        self.settle(st, deltas)

    def ryukyoku(self, ev: dict[str, Any]) -> None:
        st = self.hand()
        reason = ev.get("reason")
        kind = DrawKind.EXHAUSTIVE
        if reason is not None:
            if not isinstance(reason, str):
                raise _Bad(f'"reason" is {shown(reason)}, not a string')
            key = reason.lower().replace("_", "").replace("-", "")
            if key not in _REASONS:
                raise _Bad(f'unknown ryukyoku reason {shown(reason)}')
            kind = _REASONS[key]
        deltas = _deltas(ev) if "deltas" in ev else (0, 0, 0, 0)
        tenpai: tuple[int, ...] | None = None
        raw = ev.get("tenpais")
        if isinstance(raw, list) and len(raw) == 4:
            tenpai = tuple(s for s in range(4) if raw[s] is True)
        st.record.events.append(HandDraw(kind, deltas, tenpai))
        self.settle(st, deltas)

    def settle(self, st: _Hand, deltas: tuple[int, ...]) -> None:
        st.ended = True
        self.scores = [s + d for s, d in zip(self.scores, deltas, strict=True)]

    def end_kyoku(self, ev: dict[str, Any]) -> None:
        st = self.state
        if st is None or not st.ended:
            raise _Bad("end_kyoku before the hand ended with hora or ryukyoku")

    def end_game(self, ev: dict[str, Any]) -> None:
        if self.state is not None and not self.state.ended:
            raise _Bad("end_game in the middle of a hand")
        self.ended = True
        if ev.get("scores") is not None:
            self.final_scores = _scores(ev["scores"], "end_game scores")

    # -- driver ----------------------------------------------------------------------------------

    def run(self, lines: list[str]) -> GameRecord:
        dispatch = {
            "start_game": self.start_game,
            "start_kyoku": self.start_kyoku,
            "tsumo": self.tsumo,
            "dahai": self.dahai,
            "chi": lambda ev: self.open_call(ev, CallKind.CHI),
            "pon": lambda ev: self.open_call(ev, CallKind.PON),
            "daiminkan": lambda ev: self.open_call(ev, CallKind.DAIMINKAN),
            "ankan": self.ankan,
            "kakan": self.kakan,
            "dora": self.dora,
            "reach": self.reach,
            "reach_accepted": self.reach_accepted,
            "hora": self.hora,
            "ryukyoku": self.ryukyoku,
            "end_kyoku": self.end_kyoku,
            "end_game": self.end_game,
        }
        seen_any = False
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                ev = load_json(line, f"{self.path}: line {n}")
            except json.JSONDecodeError as e:
                raise LogFormatError(
                    f"{self.path}: line {n} is not valid JSON (truncated or corrupt): {e.msg}"
                ) from None
            try:
                if not isinstance(ev, dict) or not isinstance(ev.get("type"), str):
                    raise _Bad('not an mjai event (a JSON object with a "type")')
                seen_any = True
                handler = dispatch.get(ev["type"])
                if handler is not None:
                    handler(ev)
                elif ev["type"] == "error":
                    raise _Bad(f"the log records an error event: {str(ev.get('message', ''))[:80]}")
                # other types (none, hello, join, …) carry nothing for the record
            except _Bad as e:
                raise LogFormatError(f"{self.path}: line {n} ({_type_of(ev)}): {e}") from None
        if not seen_any:
            raise LogFormatError(f"{self.path}: no mjai events")
        if not self.hands:
            raise LogFormatError(f"{self.path}: no hand (start_kyoku) in the log")
        assert self.state is not None
        if not self.state.ended:
            raise LogFormatError(f"{self.path}: the last hand has no hora or ryukyoku (truncated log)")
        names = self.names or ("", "", "", "")
        red = any(t & RED for h in self.hands for hp in h.haipai for t in hp) or any(
            isinstance(e, Draw) and e.tile & RED for h in self.hands for e in h.events
        )
        rules = RuleInfo(
            players=4,
            red_fives=red,
            kuitan=True,
            hanchan=True,  # the format does not say; both files here are hanchan
            start_points=self.hands[0].scores[0] if len(set(self.hands[0].scores)) == 1 else _START_POINTS,
            source="mjai",
            ruleset=self.ruleset[0],
            ruleset_options=self.ruleset[1],
        )
        return GameRecord(
            path=self.path,
            format="mjai",
            rules=rules,
            names=names,
            hands=self.hands,
            final_scores=self.final_scores,
            final_results=None,
            complete=self.ended,
        )


def _type_of(ev: Any) -> str:
    if isinstance(ev, dict) and isinstance(ev.get("type"), str):
        return str(ev["type"])
    return "?"


def tile_name(code: int) -> str:
    k = code & ~RED
    if code & RED:
        return f"5{'mps'[k // 9]}r"
    if k < 27:
        return f"{k % 9 + 1}{'mps'[k // 9]}"
    return "ESWNPFC"[k - 27]


def parse_mjai(lines: list[str], path: str = "") -> GameRecord:
    """Parse the lines of one mjai game log. Raises LogFormatError on bad input."""
    where = path or "<mjai>"
    try:
        return _Parser(where).run(lines)
    except LogFormatError:
        raise
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, ArithmeticError, RecursionError) as e:
        # defensive: never leak
        raise LogFormatError(f"{where}: malformed mjai data (an entry the importer did not expect: {shown(str(e), 60)})") from None


def load_mjai(path: str | Path) -> list[GameRecord]:
    """Read and parse one mjai file (one game)."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise LogFormatError(f"{path}: not UTF-8 text, so not an mjai log") from None
    except OSError as e:
        raise LogFormatError(f"{path}: cannot be read ({e.strerror or e})") from None
    return [parse_mjai(text.splitlines(), str(path))]

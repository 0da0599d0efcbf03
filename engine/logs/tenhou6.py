"""tenhou.net/6 JSON importer, see shared/data/logs/README.md section B.

A tenhou6 hand stores each seat's draws and discards as two separate lists, so the interleaved
order of play has to be rebuilt by simulating the turns (:class:`_HandSim`): the dealer draws
first; after each discard the other seats' next draw-list entries are checked for a call string
that takes that discard (pon / daiminkan from any seat, told by the letter position; chi only by
the discarder's shimocha); a ron ends the hand; otherwise the next seat in turn order draws.

Event order follows Tenhou's own mjlog XML (so a tenhou6 record and the XML record of the same
game compare equal event by event): ``RiichiAccepted`` right after the riichi discard once nobody
rons it; the new dora of an **ankan** right after the kan call; the new dora of a **daiminkan /
kakan** after the replacement draw, just before that player's next discard, or right after the
next kan call if the player declares another kan first; it is never shown if the hand ends on
the replacement draw (rinshan tsumo) or by a chankan.

Everything here is pure: only :func:`load_tenhou6` reads a file. Malformed input raises
:class:`~engine.logs.record.LogFormatError` naming the file and the problem.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.logs.limits import COUNT_LIMIT, POINTS_LIMIT, json_kind, load_json, range_error, shown
from engine.logs.record import (
    RULESET_KEY,
    Call,
    CallKind,
    Discard,
    Draw,
    DrawKind,
    Event,
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

__all__ = ["game_over_after", "load_tenhou6", "parse_tenhou6", "parse_tenhou6_lines", "tile_code"]

_TSUMOGIRI = 60
_PLACEHOLDER = 0

# Mahjong Soul rooms as tensoul writes them into rule.disp
_MAHJONG_SOUL_MARKERS = ("の間", "大会戦", "友人戦", "段位戦", "雀魂")

_DRAW_RESULTS: dict[str, DrawKind] = {
    "流局": DrawKind.EXHAUSTIVE,
    "全員聴牌": DrawKind.EXHAUSTIVE,
    "全員不聴": DrawKind.EXHAUSTIVE,
    "流し満貫": DrawKind.NAGASHI,
    "九種九牌": DrawKind.NINE_TERMINALS,
    "四風連打": DrawKind.FOUR_WINDS,
    "四家立直": DrawKind.FOUR_RIICHI,
    "三家和了": DrawKind.TRIPLE_RON,
    "四槓散了": DrawKind.FOUR_KANS,
}

_FU_HAN = re.compile(r"(\d+)符(\d+)飜")
_POINTS = re.compile(r"(\d+)(?:-(\d+))?点(∀)?$")
_YAKU = re.compile(r"^(.+)\((?:(\d+)飜|役満(\d*))\)$")
_LIMIT_NAMES = ("三倍満", "数え役満", "役満", "倍満", "跳満", "満貫")


class _Bad(Exception):
    """Internal: a problem found while parsing; turned into LogFormatError with the location."""


def tile_code(t: int) -> int:
    """tenhou6 tile number (11..47, 51..53 red fives) -> tile code."""
    if 11 <= t <= 47:
        suit, rank = divmod(t, 10)
        if suit < 4 and 1 <= rank <= 9:
            return (suit - 1) * 9 + rank - 1
        if suit == 4 and 1 <= rank <= 7:
            return 27 + rank - 1
    elif 51 <= t <= 53:
        return ((t - 51) * 9 + 4) | RED
    raise _Bad(f"{shown(t)} is not a tenhou6 tile number")


def _int(x: Any, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise _Bad(f"{what} is {shown(x)}, not an integer")
    bad = range_error(x, what)
    if bad:
        raise _Bad(bad)
    return x


def _list(x: Any, what: str, length: int | None = None) -> list[Any]:
    if not isinstance(x, list):
        raise _Bad(f"{what} is {json_kind(x)}, not a list")
    if length is not None and len(x) != length:
        raise _Bad(f"{what} has {len(x)} entries, expected {length}")
    return x


def _ints(x: Any, what: str, length: int | None = None) -> list[int]:
    return [_int(v, what) for v in _list(x, what, length)]


def _tiles(x: Any, what: str) -> list[int]:
    return [tile_code(_int(v, what)) for v in _list(x, what)]


@dataclass(frozen=True, slots=True)
class _Meld:
    """A parsed call string: ``letter`` c/p/m/a/k, ``before`` = number of tiles before the letter."""

    letter: str
    before: int
    tiles: tuple[int, ...]  # tenhou6 numbers in string order

    @property
    def marked(self) -> int:
        """The tile right after the letter (the called tile for c/p/m)."""
        return self.tiles[self.before]


_MELD_SIZES = {"c": 3, "p": 3, "m": 4, "a": 4, "k": 4}


def _parse_meld(s: str) -> _Meld:
    letters = [(i, ch) for i, ch in enumerate(s) if not ch.isdigit()]
    if len(letters) != 1 or letters[0][1] not in _MELD_SIZES:
        raise _Bad(f'{shown(s)} is not a tenhou6 call string')
    pos, letter = letters[0]
    digits = s[:pos] + s[pos + 1 :]
    size = _MELD_SIZES[letter]
    if pos % 2 or len(digits) != 2 * size or pos // 2 >= size:
        raise _Bad(f'{shown(s)} is not a tenhou6 call string')
    tiles = tuple(int(digits[i : i + 2]) for i in range(0, len(digits), 2))
    for t in tiles:
        tile_code(t)
    return _Meld(letter, pos // 2, tiles)


def _from_offset(m: _Meld) -> int:
    """Seat offset (caller -> discarder) told by the letter position: 3 kamicha, 2 toimen, 1 shimocha."""
    if m.before == 0:
        return 3
    if m.before == 1:
        return 2
    return 1


def _parse_points(text: str) -> tuple[int | None, int | None, int | None]:
    """'30符4飜7700点' / '満貫8000点' / '40符1飜400-700点' / '30符2飜700点∀' -> (fu, han, points)."""
    fu = han = None
    m = _FU_HAN.match(text)
    if m:
        fu, han = int(m.group(1)), int(m.group(2))
    elif not text.startswith(_LIMIT_NAMES):
        raise _Bad(f'points text {shown(text)} is neither "<fu>符<han>飜…" nor a limit hand')
    p = _POINTS.search(text)
    if p is None:
        raise _Bad(f'points text {shown(text)} has no "<points>点"')
    a = int(p.group(1))
    if p.group(2) is not None:  # non-dealer tsumo: each non-dealer pays a, the dealer b
        points = 2 * a + int(p.group(2))
    elif p.group(3):  # dealer tsumo: everybody pays a
        points = 3 * a
    else:
        points = a
    return fu, han, points


def _parse_yaku(text: str) -> tuple[str, int, int]:
    """'立直(1飜)' -> ('立直', 1, 0); '大三元(役満)' -> ('大三元', 13, 1)."""
    m = _YAKU.match(text)
    if m is None:
        raise _Bad(f'yaku text {shown(text)} is not "<name>(<n>飜)" or "<name>(役満)"')
    if m.group(2) is not None:
        return m.group(1), int(m.group(2)), 0
    n = int(m.group(3)) if m.group(3) else 1
    return m.group(1), 13 * n, n


# ----------------------------------------------------------------------------------------------
# turn simulation


@dataclass(slots=True)
class _HandSim:
    index: int
    dealer: int
    draws: list[list[Any]]
    discards: list[list[Any]]
    indicators: list[int]  # tile codes, initial indicator first
    ura: list[int]
    result: list[Any]
    events: list[Event] = field(default_factory=list)
    hands: list[list[int]] = field(default_factory=list)
    pons: list[list[list[int]]] = field(default_factory=list)  # per seat: pon tile codes
    di: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    ki: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    last_draw: list[int | None] = field(default_factory=lambda: [None, None, None, None])
    riichi: list[bool] = field(default_factory=lambda: [False] * 4)
    revealed: int = 1
    pending_dora: int = 0
    win_tile: int | None = None  # the last discarded / kakan / ankan tile (a ron candidate)
    win_from: int | None = None

    # -- helpers ---------------------------------------------------------------------------------

    def ron_from(self) -> set[int]:
        if not self.result or self.result[0] != "和了":
            return set()
        out = set()
        for k in range(2, len(self.result), 2):
            info = _list(self.result[k], "win info")
            if len(info) >= 2 and info[0] != info[1]:
                out.add(_int(info[1], "fromWho"))
        return out

    def take(self, seat: int, tile: int, what: str) -> None:
        try:
            self.hands[seat].remove(tile)
        except ValueError:
            raise _Bad(f"seat {seat} {what} tile {_name(tile)}, which is not in its hand") from None

    def reveal(self) -> None:
        if self.revealed >= len(self.indicators):
            raise _Bad(
                f"a kan reveals dora indicator #{self.revealed + 1}, but the hand lists only "
                f"{len(self.indicators)}"
            )
        self.events.append(NewDora(self.indicators[self.revealed]))
        self.revealed += 1

    def flush_dora(self) -> None:
        while self.pending_dora:
            self.pending_dora -= 1
            self.reveal()

    def next_draw_entry(self, seat: int) -> Any:
        if self.di[seat] < len(self.draws[seat]):
            return self.draws[seat][self.di[seat]]
        return None

    # -- main loop -------------------------------------------------------------------------------

    def run(self) -> None:
        turn = self.dealer
        drawing = True
        rinshan = False
        ron_from = self.ron_from()
        while True:
            if drawing:
                if self.di[turn] >= len(self.draws[turn]):
                    if rinshan:
                        raise _Bad(f"seat {turn} makes a kan but its draw list has no replacement draw")
                    break  # nobody can draw: the hand ended after the last discard
                entry = self.draws[turn][self.di[turn]]
                if isinstance(entry, str):
                    raise _Bad(
                        f'seat {turn} should draw (draw #{self.di[turn] + 1}) but its draw list has the call "{entry}"'
                    )
                t = tile_code(_int(entry, f"seat {turn} draw #{self.di[turn] + 1}"))
                self.di[turn] += 1
                self.hands[turn].append(t)
                self.last_draw[turn] = t
                self.events.append(Draw(turn, t, rinshan))
                rinshan = False
                drawing = False
                continue

            # the seat `turn` acts: discard, or ankan / kakan
            if self.ki[turn] >= len(self.discards[turn]):
                break  # tsumo, nine terminals, or a call string left unresolved (checked later)
            k = self.ki[turn]
            entry = self.discards[turn][k]
            self.ki[turn] += 1
            where = f"seat {turn} discard #{k + 1}"
            if isinstance(entry, str) and entry[:1] != "r":
                m = _parse_meld(entry)
                if m.letter == "a":
                    self.ankan(turn, m)
                elif m.letter == "k":
                    self.kakan(turn, m)
                else:
                    raise _Bad(f'{where} is the call {shown(entry)}, which belongs in a draw list')
                if turn in ron_from and self.ki[turn] == len(self.discards[turn]):
                    self.win_from = turn
                    break  # robbed kan (chankan)
                drawing = True
                rinshan = True
                continue

            riichi = False
            if isinstance(entry, str):
                riichi = True
                if not entry[1:].isdigit():
                    raise _Bad(f'{where} {shown(entry)} is not a riichi discard')
                num = int(entry[1:])
            else:
                num = _int(entry, where)
            if num == _PLACEHOLDER:
                raise _Bad(f"{where} is the placeholder 0, but no daiminkan came before it")
            tsumogiri = num == _TSUMOGIRI
            if tsumogiri:
                last = self.last_draw[turn]
                if last is None:
                    raise _Bad(f"{where} is a tsumogiri (60) right after a call, with no drawn tile")
                t = last
            else:
                t = tile_code(num)
            self.flush_dora()
            self.take(turn, t, "discards")
            self.last_draw[turn] = None
            if riichi:
                self.riichi[turn] = True
            self.events.append(Discard(turn, t, tsumogiri, riichi))
            self.win_tile, self.win_from = t, turn

            if turn in ron_from and self.ki[turn] == len(self.discards[turn]):
                break  # ron on this discard
            caller = self.find_caller(turn, t)
            if caller is None:
                nxt = (turn + 1) % 4
                if self.di[nxt] >= len(self.draws[nxt]):
                    # nothing more to draw: exhaustive or abortive draw after this discard
                    if riichi and self.result[:1] != ["三家和了"]:
                        self.events.append(RiichiAccepted(turn))
                    break
                if riichi:
                    self.events.append(RiichiAccepted(turn))
                turn = nxt
                drawing = True
                continue
            if riichi:
                self.events.append(RiichiAccepted(turn))
            seat, meld = caller
            self.di[seat] += 1
            self.open_call(seat, turn, t, meld)
            turn = seat
            if meld.letter == "m":
                k2 = self.ki[seat]
                if k2 >= len(self.discards[seat]) or self.discards[seat][k2] != _PLACEHOLDER:
                    raise _Bad(
                        f"seat {seat} makes a daiminkan but its discard list has no 0 placeholder after it"
                    )
                self.ki[seat] += 1
                drawing = True
                rinshan = True
            else:
                drawing = False

    def find_caller(self, discarder: int, tile: int) -> tuple[int, _Meld] | None:
        found: list[tuple[int, _Meld]] = []
        for off in (1, 2, 3):
            seat = (discarder + off) % 4
            entry = self.next_draw_entry(seat)
            if not isinstance(entry, str):
                continue
            m = _parse_meld(entry)
            if m.letter not in "cpm":
                raise _Bad(f'seat {seat} draw list has {shown(entry)}, which is not chi, pon or daiminkan')
            frm = (seat + (3 if m.letter == "c" else _from_offset(m))) % 4
            if m.letter == "c" and m.before != 0:
                raise _Bad(f'chi {shown(entry)} must start with "c"')
            if frm != discarder or tile_code(m.marked) != tile:
                continue
            found.append((seat, m))
        if not found:
            return None
        found.sort(key=lambda sm: sm[1].letter == "c")  # pon / kan before chi
        return found[0]

    def open_call(self, seat: int, discarder: int, tile: int, m: _Meld) -> None:
        codes = [tile_code(t) for t in m.tiles]
        consumed = codes[: m.before] + codes[m.before + 1 :]
        what = {"c": "chi", "p": "pon", "m": "daiminkan"}[m.letter]
        kinds = sorted(c & ~RED for c in codes)
        if m.letter == "c":
            if not is_chi_shape(kinds):
                raise _Bad(f"chi of seat {seat} is not a sequence")
        elif not is_one_kind(kinds):
            raise _Bad(f"{what} of seat {seat} mixes different tiles")
        for c in consumed:
            self.take(seat, c, f"calls {what} with")
        self.last_draw[seat] = None
        kind = {"c": CallKind.CHI, "p": CallKind.PON, "m": CallKind.DAIMINKAN}[m.letter]
        self.events.append(Call(seat, kind, tile, tuple(consumed), from_seat=discarder))
        if m.letter == "p":
            self.pons[seat].append(codes)
        elif m.letter == "m":
            self.flush_dora()
            self.pending_dora += 1

    def ankan(self, seat: int, m: _Meld) -> None:
        codes = tuple(tile_code(t) for t in m.tiles)
        if not is_one_kind(c & ~RED for c in codes):
            raise _Bad(f"ankan of seat {seat} mixes different tiles")
        for c in codes:
            self.take(seat, c, "calls ankan with")
        self.last_draw[seat] = None
        plain = [c for c in codes if not c & RED]
        self.events.append(Call(seat, CallKind.ANKAN, plain[0] if plain else codes[0], codes))
        self.win_tile, self.win_from = codes[0], seat
        self.flush_dora()
        self.reveal()

    def kakan(self, seat: int, m: _Meld) -> None:
        codes = [tile_code(t) for t in m.tiles]
        kind = codes[0] & ~RED
        if any(c & ~RED != kind for c in codes):
            raise _Bad(f"kakan of seat {seat} mixes different tiles")
        pon = next((p for p in self.pons[seat] if p[0] & ~RED == kind), None)
        if pon is None:
            raise _Bad(f"seat {seat} adds to a kan of {_name(kind)} without a pon of it")
        rest = list(codes)
        for c in pon:
            if c in rest:
                rest.remove(c)
        added = rest[0] if len(rest) == 1 else tile_code(m.marked)
        self.pons[seat].remove(pon)
        self.take(seat, added, "calls kakan with")
        self.last_draw[seat] = None
        self.events.append(Call(seat, CallKind.KAKAN, added, (added,)))
        self.win_tile, self.win_from = added, seat
        self.flush_dora()
        self.pending_dora += 1

    # -- result ----------------------------------------------------------------------------------

    def finish(self) -> None:
        res = self.result
        if not res or not isinstance(res[0], str):
            raise _Bad("the result (17th element) is missing or has no name")
        name = res[0]
        if name == "和了":
            if len(res) < 3 or len(res) % 2 == 0:
                raise _Bad("a win result needs deltas and info for every winner")
            for k in range(1, len(res), 2):
                self.win(_ints(res[k], "win deltas", 4), _list(res[k + 1], "win info"))
        elif name in _DRAW_RESULTS:
            kind = _DRAW_RESULTS[name]
            deltas = _ints(res[1], "draw deltas", 4) if len(res) > 1 else [0, 0, 0, 0]
            tenpai: tuple[int, ...] | None = None
            if name == "全員聴牌":
                tenpai = (0, 1, 2, 3)
            elif name == "全員不聴":
                tenpai = ()
            elif kind == DrawKind.EXHAUSTIVE and any(deltas):
                tenpai = tuple(s for s in range(4) if deltas[s] > 0)
            self.events.append(HandDraw(kind, tuple(deltas), tenpai))
        else:
            raise _Bad(f'unknown result {shown(name)}')
        for s in range(4):
            if self.di[s] != len(self.draws[s]) or self.ki[s] != len(self.discards[s]):
                raise _Bad(
                    f"the hand ends ({name}) but seat {s} has unplayed entries "
                    f"(draw {self.di[s]}/{len(self.draws[s])}, discard {self.ki[s]}/{len(self.discards[s])})"
                )
        if self.revealed != len(self.indicators):
            raise _Bad(
                f"{len(self.indicators)} dora indicators listed but {self.revealed} revealed by the kans"
            )

    def win(self, deltas: list[int], info: list[Any]) -> None:
        if len(info) < 4:
            raise _Bad("win info needs who, fromWho, paoWho and the points text")
        who = _int(info[0], "who")
        frm = _int(info[1], "fromWho")
        pao = _int(info[2], "paoWho")
        if not (0 <= who < 4 and 0 <= frm < 4 and 0 <= pao < 4):
            raise _Bad(f"win info seats {info[:3]} are not seats 0..3")
        if not isinstance(info[3], str):
            raise _Bad("win info points text is not a string")
        fu, han, points = _parse_points(info[3])
        yaku: list[tuple[str, int]] = []
        yakuman = 0
        for y in info[4:]:
            if not isinstance(y, str):
                raise _Bad(f"yaku entry {shown(y)} is not a string")
            name, h, n = _parse_yaku(y)
            yaku.append((name, h))
            yakuman += n
        if han is None:
            han = sum(h for _, h in yaku)
        hand = list(self.hands[who])
        if who == frm:
            tile = self.last_draw[who]
            if tile is None:
                raise _Bad(f"seat {who} wins by tsumo but did not just draw")
        else:
            if self.win_from != frm or self.win_tile is None:
                raise _Bad(f"seat {who} wins by ron from seat {frm}, whose tile was not the last one played")
            tile = self.win_tile
            hand.append(tile)
        self.events.append(
            Win(
                seat=who,
                from_seat=frm,
                win_tile=tile,
                deltas=tuple(deltas),
                hand=tuple(sorted(hand, key=lambda c: (c & ~RED, c))),
                ura_indicators=tuple(self.ura) if self.riichi[who] else (),
                dora_indicators=tuple(self.indicators[: self.revealed]),
                fu=fu,
                han=han,
                points=points,
                yakuman=yakuman,
                yaku=tuple(yaku),
                pao_seat=None if pao == who else pao,
            )
        )


def _name(code: int) -> str:
    k = code & ~RED
    if code & RED:
        return "0" + "mps"[k // 9]
    if k < 27:
        return f"{k % 9 + 1}{'mps'[k // 9]}"
    return f"{k - 26}z"


def _parse_hand(raw: Any, index: int) -> HandRecord:
    h = _list(raw, "hand", 17)
    head = _ints(h[0], "[round, honba, sticks]", 3)
    rnd, honba, sticks = head
    if min(head) < 0:
        raise _Bad(f"[round, honba, sticks] = {head} has a negative number")
    if rnd > 15:
        raise _Bad(f"[round, honba, sticks] = {head}: the round is 0..15 (East 1 to North 4)")
    if honba > COUNT_LIMIT or sticks > COUNT_LIMIT:
        raise _Bad(f"[round, honba, sticks] = {head}: honba and sticks must be at most {COUNT_LIMIT}")
    scores = _ints(h[1], "scores", 4)
    indicators = _tiles(h[2], "dora indicators")
    if not indicators:
        raise _Bad("no dora indicator")
    ura = _tiles(h[3], "ura indicators")
    haipai = [_tiles(h[4 + 3 * s], f"seat {s} starting hand") for s in range(4)]
    for s, hp in enumerate(haipai):
        if len(hp) != 13:
            if not hp and s == 3:
                raise _Bad("3-player tenhou6 logs are not supported")
            raise _Bad(f"seat {s} starting hand has {len(hp)} tiles, expected 13")
    draws = [_list(h[5 + 3 * s], f"seat {s} draw list") for s in range(4)]
    discards = [_list(h[6 + 3 * s], f"seat {s} discard list") for s in range(4)]
    result = _list(h[16], "result")
    dealer = rnd % 4
    sim = _HandSim(
        index=index,
        dealer=dealer,
        draws=draws,
        discards=discards,
        indicators=indicators,
        ura=ura,
        result=result,
        hands=[list(hp) for hp in haipai],
        pons=[[] for _ in range(4)],
    )
    sim.run()
    sim.finish()
    return HandRecord(
        round_wind=rnd // 4,
        hand_number=rnd % 4,
        honba=honba,
        sticks=sticks,
        dealer=dealer,
        scores=tuple(scores),
        dora_indicators=(indicators[0],),
        haipai=tuple(tuple(hp) for hp in haipai),
        events=sim.events,
    )


def _rules(obj: dict[str, Any], path: str, hands: list[HandRecord]) -> RuleInfo:
    first = hands[0] if hands else None
    rule = obj.get("rule")
    disp = ""
    aka_flags: list[bool] = []
    if isinstance(rule, dict):
        d = rule.get("disp")
        disp = d if isinstance(d, str) else ""
        for key in ("aka", "aka51", "aka52", "aka53"):
            if key in rule:
                aka_flags.append(bool(rule[key]))
    # tensoul (Mahjong Soul) and the tenhou.net/6 editor may leave 赤 out of disp while red fives
    # are in play: trust the aka flags and the tiles themselves too
    red = "赤" in disp or any(aka_flags) or any(t & RED for h in hands for hp in h.haipai for t in hp)
    kuitan = "喰" in disp if disp else True
    hanchan = not ("東" in disp and "南" not in disp)
    soul = (
        any(m in disp for m in _MAHJONG_SOUL_MARKERS) or "tensoul" in path.lower() or "playerMapping" in obj
    )
    start = 25000
    fresh = first is not None and first.round_wind == first.hand_number == first.honba == first.sticks == 0
    if first is not None and fresh and len(set(first.scores)) == 1:
        start = first.scores[0]
    ruleset, options = read_ruleset_entry(obj[RULESET_KEY]) if RULESET_KEY in obj else ("", {})
    return RuleInfo(
        players=4,
        red_fives=red,
        kuitan=kuitan,
        hanchan=hanchan,
        start_points=start,
        standard=True,
        why_nonstandard="",
        source="mahjongsoul" if soul else "tenhou",
        ruleset=ruleset,
        ruleset_options=options,
    )


def _names(obj: dict[str, Any]) -> tuple[str, ...]:
    raw = obj.get("name")
    if not isinstance(raw, list) or len(raw) < 4:
        raise _Bad('"name" is not a list of 4 player names')
    return tuple(str(n) for n in raw[:4])


def _final(obj: dict[str, Any]) -> tuple[tuple[int, ...] | None, tuple[float, ...] | None]:
    sc = obj.get("sc")
    if sc is None:
        return None, None
    vals = _list(sc, '"sc"')
    if len(vals) < 8 or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in vals):
        raise _Bad('"sc" is not 8 numbers (score, result) × 4')
    if any(abs(v) > POINTS_LIMIT for v in vals):
        raise _Bad(f'"sc" has a number outside ±{POINTS_LIMIT:,}')
    return tuple(round(vals[2 * i]) for i in range(4)), tuple(float(vals[2 * i + 1]) for i in range(4))


def _hands_of(obj: Any, first_index: int, hands: list[HandRecord]) -> None:
    if not isinstance(obj, dict):
        raise _Bad(f"the game is {json_kind(obj)}, not a JSON object")
    log = _list(obj.get("log"), '"log"')
    for i, raw in enumerate(log):
        n = first_index + i
        try:
            hands.append(_parse_hand(raw, n))
        except _Bad as e:
            raise _Bad(f"hand {n + 1}: {e}") from None


def _parse_checked(objs: Sequence[Any], path: str) -> GameRecord:
    if not objs:
        raise _Bad("no game data")
    hands: list[HandRecord] = []
    for k, obj in enumerate(objs):
        try:
            _hands_of(obj, len(hands), hands)
        except _Bad as e:
            raise _Bad(f"line {k + 1}: {e}" if len(objs) > 1 else str(e)) from None
    if not hands:
        raise _Bad('"log" has no hands')
    first, last = objs[0], objs[-1]
    names = _names(first)
    rules = _rules(first, path, hands)
    final_scores, final_results = _final(last)
    if final_scores is not None:
        complete = True
    elif len(objs) > 1:
        complete = game_over_after(hands[-1], rules.hanchan)
    else:
        complete = False
    return GameRecord(
        path=path,
        format="tenhou6",
        rules=rules,
        names=names,
        hands=hands,
        final_scores=final_scores,
        final_results=final_results,
        complete=complete,
    )


def _wrap(objs: Sequence[Any], path: str) -> GameRecord:
    where = path or "<tenhou6>"
    try:
        return _parse_checked(objs, where)
    except _Bad as e:
        raise LogFormatError(f"{where}: {e}") from None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, ArithmeticError, RecursionError) as e:
        # defensive: never leak
        raise LogFormatError(f"{where}: malformed tenhou6 data (an entry the importer did not expect: {shown(str(e), 60)})") from None


def parse_tenhou6(obj: dict[str, Any], path: str = "") -> GameRecord:
    """Parse one tenhou.net/6 game object (``{"name": [...], "log": [...], ...}``)."""
    return _wrap([obj], path)


def parse_tenhou6_lines(objs: Sequence[dict[str, Any]], path: str = "") -> GameRecord:
    """Join tenhou6 objects holding consecutive hands of one game (mjx's one-hand-per-line files).

    ``complete`` is taken from ``sc`` of the last object if present, else from
    :func:`game_over_after` applied to the last hand.
    """
    return _wrap(list(objs), path)


def _accepted(hand: HandRecord) -> int:
    return sum(isinstance(e, RiichiAccepted) for e in hand.events)


def game_over_after(hand: HandRecord, hanchan: bool = True) -> bool:
    """Whether Tenhou's 4-player rules end the game after ``hand`` (a best effort from the record).

    Ends when a score drops below zero; in and after the last scheduled hand (South 4, or East 4
    for tonpuu) when the dealer passes and somebody has 30,000 or more, or the dealer keeps the deal
    as the sole leader with 30,000 or more; and always after the last hand of the extension round.
    """
    after = list(hand.scores)
    dealer_keeps = False
    for e in hand.events:
        if isinstance(e, Win):
            after = [a + d for a, d in zip(after, e.deltas, strict=False)]
            dealer_keeps = dealer_keeps or e.seat == hand.dealer
        elif isinstance(e, HandDraw):
            after = [a + d for a, d in zip(after, e.deltas, strict=False)]
            if e.kind in (DrawKind.EXHAUSTIVE, DrawKind.NAGASHI):
                dealer_keeps = e.tenpai is not None and hand.dealer in e.tenpai
            else:
                dealer_keeps = True
        elif isinstance(e, RiichiAccepted):
            after[e.seat] -= 1000
    if min(after) < 0:
        return True
    rnd = hand.round_wind * 4 + hand.hand_number
    last = 7 if hanchan else 3
    if rnd < last:
        return False
    top = max(after)
    if dealer_keeps:
        return after[hand.dealer] == top and after.count(top) == 1 and top >= 30000
    return top >= 30000 or rnd >= last + 4


def load_tenhou6(path: str | Path) -> list[GameRecord]:
    """Read a ``.json`` file (one game) or a ``.jsonl`` file (one hand per line of one game)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise LogFormatError(f"{path}: not UTF-8 text, so not a tenhou6 log") from None
    except OSError as e:
        raise LogFormatError(f"{path}: cannot be read ({e.strerror or e})") from None
    objs: list[Any] = []
    if p.suffix == ".jsonl":
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                objs.append(load_json(line, f"{path}: line {n}"))
            except json.JSONDecodeError as e:
                raise LogFormatError(
                    f"{path}: line {n} is not valid JSON (truncated or corrupt): {e.msg}"
                ) from None
        if not objs:
            raise LogFormatError(f"{path}: empty file")
    else:
        try:
            objs.append(load_json(text, str(path)))
        except json.JSONDecodeError as e:
            raise LogFormatError(
                f"{path}: not valid JSON (truncated or corrupt) at line {e.lineno}, column {e.colno}: {e.msg}"
            ) from None
    return [_wrap(objs, str(path))]

"""Tenhou mjlog XML importer: every real file parses, and what it produces is self-consistent.

Each file is parsed once (module cache); the whole set takes a few seconds.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

_REPO = Path(__file__).resolve().parents[2]
if str(_REPO) not in sys.path:  # pytest's rootdir is not on sys.path by default
    sys.path.insert(0, str(_REPO))

from engine.logs.record import (  # noqa: E402
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
    Win,
)
from engine.logs.tenhou_xml import (  # noqa: E402
    AgariContext,
    decode_meld,
    load_tenhou_xml,
    parse_tenhou_xml,
    parse_with_agari,
    tile_code,
)
from engine.tiles import RED  # noqa: E402

TENHOU_XML = _REPO.parent / "shared" / "data" / "logs" / "tenhou_xml"
DIRS = sorted(p.name for p in TENHOU_XML.iterdir() if p.is_dir() and p.name != "wall_from_seed")
STANDARD_DIRS = [d for d in DIRS if d != "special_lobbies"]
KAN_KINDS = (CallKind.DAIMINKAN, CallKind.ANKAN, CallKind.KAKAN, CallKind.KITA)

pytestmark = pytest.mark.skipif(not TENHOU_XML.is_dir(), reason="shared Tenhou logs not available")


def files_in(d: str) -> list[Path]:
    return sorted((TENHOU_XML / d).glob("*.xml"))


@cache
def parsed(path: Path) -> tuple[GameRecord, list[AgariContext]]:
    return parse_with_agari(path.read_text(encoding="utf-8"), str(path))


def record(path: Path) -> GameRecord:
    return parsed(path)[0]


def records(d: str) -> list[GameRecord]:
    return [record(p) for p in files_in(d)]


def accepted(hand: HandRecord) -> int:
    return sum(isinstance(e, RiichiAccepted) for e in hand.events)


# ---------------------------------------------------------------------------------------------
# every file parses


@pytest.mark.parametrize("d", DIRS)
def test_every_file_parses(d: str) -> None:
    files = files_in(d)
    assert files
    for p in files:
        rec = record(p)
        assert rec.format == "tenhou_xml" and rec.path == str(p)
        assert rec.hands, p
        assert rec.complete and rec.final_scores is not None and rec.final_results is not None, p
        assert rec.rules.players == (3 if "3p" in d else 4), p
        assert len(rec.names) == rec.rules.players
        assert rec.rules.standard == (d != "special_lobbies"), (p, rec.rules.why_nonstandard)
        for h in rec.hands:
            assert isinstance(h.events[-1], Win | HandDraw), p
            assert len(h.scores) == rec.rules.players


def test_special_lobbies_are_marked() -> None:
    for rec in records("special_lobbies"):
        assert not rec.rules.standard
        assert rec.rules.why_nonstandard


def test_rule_bits() -> None:
    r4 = record(files_in("phoenix_4p_hanchan")[0]).rules  # type 169
    assert (r4.players, r4.red_fives, r4.kuitan, r4.hanchan, r4.start_points) == (4, True, True, True, 25000)
    r3 = record(files_in("phoenix_3p_hanchan")[0]).rules  # type 185
    assert (r3.players, r3.hanchan, r3.start_points) == (3, True, 35000)
    rt = record(files_in("phoenix_4p_tonpuu_fast")[0]).rules  # type 225
    assert (rt.players, rt.hanchan, rt.standard) == (4, False, True)
    names = record(files_in("phoenix_3p_hanchan")[0]).names
    assert names[0] == "お知らせ" and names[1] == "師匠/雀鬼"  # URL-decoded UTF-8


# ---------------------------------------------------------------------------------------------
# tiles: every discard / call comes out of the right hand


def _check_hand(h: HandRecord, players: int, red: bool, where: str) -> None:
    assert len(h.haipai) == players
    hands = [Counter(hp) for hp in h.haipai]
    for hp in h.haipai:
        assert len(hp) == 13, where
    seen = Counter(t for hp in h.haipai for t in hp)
    melds = [0] * players  # chi/pon/kan count per seat
    last_draw: list[int | None] = [None] * players
    owe_rinshan = [False] * players
    riichi_pending: int | None = None
    wins = 0
    for i, e in enumerate(h.events):
        at = f"{where} event {i} {e}"
        if isinstance(e, Draw):
            assert e.rinshan == owe_rinshan[e.seat], at
            owe_rinshan[e.seat] = False
            hands[e.seat][e.tile] += 1
            seen[e.tile] += 1
            last_draw[e.seat] = e.tile
        elif isinstance(e, Discard):
            assert hands[e.seat][e.tile] > 0, at
            hands[e.seat][e.tile] -= 1
            assert sum(hands[e.seat].values()) == 13 - 3 * melds[e.seat], at
            if e.tsumogiri:
                assert last_draw[e.seat] == e.tile, at
            last_draw[e.seat] = None
            if e.riichi:
                riichi_pending = e.seat
        elif isinstance(e, Call):
            for t in e.consumed:
                assert hands[e.seat][t] > 0, at
                hands[e.seat][t] -= 1
            if e.kind in (CallKind.CHI, CallKind.PON, CallKind.DAIMINKAN):
                prev = next(x for x in reversed(h.events[:i]) if not isinstance(x, RiichiAccepted))
                assert isinstance(prev, Discard) and prev.tile == e.tile, at  # the tile just discarded
                assert e.from_seat == prev.seat != e.seat, at
                if e.kind == CallKind.CHI:
                    assert e.from_seat == (e.seat - 1) % players, at  # kamicha
                    ks = sorted(t & ~RED for t in (e.tile, *e.consumed))
                    assert ks == [ks[0], ks[0] + 1, ks[0] + 2] and ks[0] < 27 and ks[0] // 9 == ks[2] // 9, at
                else:
                    assert len({t & ~RED for t in (e.tile, *e.consumed)}) == 1, at
                melds[e.seat] += 1
            elif e.kind == CallKind.ANKAN:
                assert len(e.consumed) == 4 and len({t & ~RED for t in e.consumed}) == 1, at
                melds[e.seat] += 1
            elif e.kind == CallKind.KAKAN:
                assert e.consumed == (e.tile,), at
            else:
                assert e.kind == CallKind.KITA and e.tile == 30 and players == 3, at
            if e.kind in KAN_KINDS:
                owe_rinshan[e.seat] = True
            last_draw[e.seat] = None
        elif isinstance(e, RiichiAccepted):
            assert riichi_pending == e.seat, at
            riichi_pending = None
        elif isinstance(e, Win):
            wins += 1
            shown = Counter(e.hand)
            tracked = hands[e.seat].copy()
            if e.from_seat != e.seat:
                tracked[e.win_tile] += 1
            assert +shown == +tracked, at
            assert e.win_tile in e.hand, at
        else:
            assert isinstance(e, NewDora | HandDraw), at
    for t, n in seen.items():
        k = t & ~RED
        cap = 1 if t & RED else (3 if red and k in (4, 13, 22) and not (players == 3 and k == 4) else 4)
        assert n <= cap, f"{where}: tile {t} drawn {n} times"
        if players == 3:
            assert not 1 <= k <= 7, f"{where}: 2m-8m in sanma"


@pytest.mark.parametrize("d", DIRS)
def test_tiles_come_from_the_right_hands(d: str) -> None:
    for p in files_in(d):
        rec = record(p)
        for n, h in enumerate(rec.hands):
            _check_hand(h, rec.rules.players, rec.rules.red_fives, f"{p.name} hand {n}")


def test_load_equals_parse() -> None:
    p = files_in("mixed_3p")[0]
    assert load_tenhou_xml(p) == parse_tenhou_xml(p.read_text(encoding="utf-8"), str(p)) == record(p)


def test_tile_codes() -> None:
    assert [tile_code(t) for t in (0, 15, 16, 17, 52, 88, 135)] == [0, 3, 4 | RED, 4, 13 | RED, 22 | RED, 33]
    assert tile_code(16, red_fives=False) == 4


def test_decode_meld() -> None:
    kita = decode_meld(31008)  # 3p kita: tile id 121 (North)
    assert kita.kind == CallKind.KITA and kita.tiles == (121,)
    assert decode_meld(31264).kind == CallKind.KITA
    pon = decode_meld((30 * 3 + 1) << 9 | 0x8 | 0 << 5 | 1)  # North pon without id 120, calling 122
    assert (pon.kind, pon.tiles, pon.called, pon.from_offset) == (CallKind.PON, (121, 122, 123), 122, 1)
    # chi 3p-4p-5p calling the 4p from kamicha: t = (7 * suit + 2) * 3 + 1 = 28, copies 0, 1, 2
    chi = decode_meld(28 << 10 | 0x4 | 0 << 3 | 1 << 5 | 2 << 7 | 3)
    assert chi == type(chi)(CallKind.CHI, (44, 49, 54), 49, None, 3)
    dmk = decode_meld(53 << 8 | 2)  # daiminkan of 5p (id 53) from toimen
    assert (dmk.kind, dmk.tiles, dmk.called, dmk.from_offset) == (CallKind.DAIMINKAN, (52, 53, 54, 55), 53, 2)
    with pytest.raises(ValueError):
        decode_meld(0xFFFF << 10 | 0x4)
    ankan = decode_meld(4 * 4 << 8)  # 5m ankan
    assert ankan.kind == CallKind.ANKAN and ankan.tiles == (16, 17, 18, 19)
    kakan = decode_meld((4 * 3 + 1) << 9 | 0x10 | (2 << 5))  # 5m pon + added id 18
    assert kakan.kind == CallKind.KAKAN and kakan.added == 18 and len(kakan.tiles) == 4


# ---------------------------------------------------------------------------------------------
# scores: deltas, sticks and continuity


@pytest.mark.parametrize("d", STANDARD_DIRS)
def test_deltas_and_score_continuity(d: str) -> None:
    for p in files_in(d):
        rec = record(p)
        n = rec.rules.players
        total = rec.rules.start_points * n
        for k, h in enumerate(rec.hands):
            where = f"{p.name} hand {k}"
            assert sum(h.scores) + 1000 * h.sticks == total, where
            ends = [e for e in h.events if isinstance(e, Win | HandDraw)]
            assert ends and h.events[-len(ends) :] == ends, where
            table = h.sticks + accepted(h)
            if isinstance(ends[0], Win):
                assert sum(sum(w.deltas) for w in ends) == 1000 * table, where
                for w in ends:
                    assert isinstance(w, Win)
                    assert w.deltas[w.seat] > 0, where
                    assert all(x <= 0 for s, x in enumerate(w.deltas) if s != w.seat), where
                left = 0
            else:
                assert len(ends) == 1, where
                dr = ends[0]
                assert isinstance(dr, HandDraw)
                assert sum(dr.deltas) == 0, where
                if dr.kind == DrawKind.EXHAUSTIVE:
                    assert dr.tenpai is not None
                    pool = 3000 if n == 4 else 2000
                    t = len(dr.tenpai)
                    if 0 < t < n:
                        for s in range(n):
                            want = pool // t if s in dr.tenpai else -pool // (n - t)
                            assert dr.deltas[s] == want, where
                    else:
                        assert dr.deltas == (0,) * n, where
                elif dr.kind != DrawKind.NAGASHI:
                    assert dr.deltas == (0,) * n, where
                left = table
            after = tuple(
                s
                + sum(e.deltas[i] for e in ends)
                - 1000 * sum(isinstance(e, RiichiAccepted) and e.seat == i for e in h.events)
                for i, s in enumerate(h.scores)
            )
            if k + 1 < len(rec.hands):
                nxt = rec.hands[k + 1]
                assert nxt.scores == after, where
                assert nxt.sticks == left, where
            else:
                assert rec.final_scores is not None
                top = max(range(n), key=lambda i: (after[i], -((i - rec.hands[0].dealer) % n)))
                want = tuple(a + (1000 * left if i == top else 0) for i, a in enumerate(after))
                assert rec.final_scores == want, where


# ---------------------------------------------------------------------------------------------
# iter_agari context


@pytest.mark.parametrize("d", DIRS)
def test_iter_agari_matches_wins(d: str) -> None:
    for p in files_in(d):
        rec = record(p)
        wins = [e for h in rec.hands for e in h.events if isinstance(e, Win)]
        ctx = parsed(p)[1]
        assert len(ctx) == len(wins), p
        for a, w in zip(ctx, wins):
            assert (a["who"], a["from_who"], a["win_tile"], a["fu"], a["points"]) == (
                w.seat,
                w.from_seat,
                w.win_tile,
                w.fu,
                w.points,
            )
            assert a["kita"] == sum(m.kind == CallKind.KITA for m in a["melds"]), p
            ids = {y for y, _ in a["yaku"]}
            if a["yaku"]:  # REACH-derived riichi agrees with the recorded yaku
                assert a["riichi"] == bool(ids & {1, 21}), (p, a["index"])
                assert a["double_riichi"] == (21 in ids), (p, a["index"])
            assert bool(a["ura_indicators"]) == a["riichi"], (p, a["index"])


# ---------------------------------------------------------------------------------------------
# bad input


def _a_real_file() -> Path:
    return files_in("mixed_4p")[0]


def test_truncated_file(tmp_path: Path) -> None:
    src = _a_real_file()
    data = src.read_bytes()
    cut = tmp_path / src.name
    cut.write_bytes(data[: len(data) * 6 // 10])
    with pytest.raises(LogFormatError) as ei:
        load_tenhou_xml(cut)
    msg = str(ei.value)
    assert str(cut) in msg and "truncated" in msg and "\n" not in msg


def test_garbage_files(tmp_path: Path) -> None:
    cases = {
        "garbage.xml": b"\x00\x01 this is not xml at all <<<",
        "binary.xml": bytes(range(256)),
        "other_root.xml": b"<html><body>hi</body></html>",
        "empty.xml": b"",
        "no_hands.xml": b'<mjloggm ver="2.3"><GO type="169" lobby="0"/></mjloggm>',
    }
    for name, data in cases.items():
        f = tmp_path / name
        f.write_bytes(data)
        with pytest.raises(LogFormatError) as ei:
            load_tenhou_xml(f)
        assert name in str(ei.value), name
    with pytest.raises(LogFormatError, match="cannot be read"):
        load_tenhou_xml(tmp_path / "missing.xml")


INIT = (
    '<INIT seed="0,0,0,1,2,5" ten="250,250,250,250" oya="0" hai0="0,1,2,3,4,5,6,7,8,9,10,11,12" '
    'hai1="13,14,15,16,17,18,19,20,21,22,23,24,25" hai2="26,27,28,29,30,31,32,33,34,35,36,37,38" '
    'hai3="39,40,41,42,43,44,45,46,47,48,49,50,51"/>'
)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("<T60/><D60/>", "before the first <INIT>"),
        (INIT.replace('seed="0,0,0,1,2,5"', 'seed="0,0,x,1,2,5"'), "not a list of integers"),
        (INIT.replace('oya="0"', 'oya="7"'), "oya=7"),
        (INIT.replace(',12"', '"'), "hai0 has 12 tiles"),
        (INIT + "<T60/><D61/>", "not in its hand"),
        (INIT + "<T999/>", "outside 0..135"),
        (INIT + '<T60/><D60/><N who="1" m="abc"/>', "not an integer"),
        (INIT + '<T60/><D60/><N who="5" m="1"/>', "who=5"),
        (INIT + '<RYUUKYOKU ba="0,0" sc="250,0,250,0,250,0,250,0"/><T60/>', "after the hand ended"),
        (INIT + '<RYUUKYOKU type="zzz" ba="0,0" sc="250,0,250,0,250,0,250,0"/>', "unknown draw type"),
        (INIT + '<RYUUKYOKU ba="0,0" sc="250,0,250"/>', "sc has 3 numbers"),
        (INIT + '<T60/><REACH who="0" step="3"/>', "step=3"),
    ],
)
def test_malformed_content(body: str, words: str) -> None:
    text = f'<mjloggm ver="2.3"><GO type="169" lobby="0"/>{body}</mjloggm>'
    with pytest.raises(LogFormatError) as ei:
        parse_tenhou_xml(text, "bad.xml")
    msg = str(ei.value)
    assert msg.startswith("bad.xml: ") and words in msg, msg


def test_mutated_files_raise_only_log_format_error() -> None:
    """Cut, overwritten, deleted and duplicated stretches: parse cleanly or raise LogFormatError."""
    rng = random.Random(2024)
    texts = [p.read_text(encoding="utf-8") for p in (files_in("mixed_4p")[0], files_in("mixed_3p")[0])]
    alphabet = '0123456789,"<>/= abcxTDNm-'
    for _ in range(300):
        t = rng.choice(texts)
        i = rng.randrange(len(t))
        op = rng.randrange(4)
        if op == 0:
            u = t[:i]
        elif op == 1:
            u = t[:i] + rng.choice(alphabet) + t[i + 1 :]
        elif op == 2:
            u = t[:i] + t[i + 1 + rng.randrange(20) :]
        else:
            j = rng.randrange(len(t))
            u = t[:i] + t[j : j + rng.randrange(200)] + t[i:]
        try:
            parse_with_agari(u, "fuzz.xml")
        except LogFormatError as e:
            assert str(e).startswith("fuzz.xml: ")

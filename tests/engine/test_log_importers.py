"""tenhou.net/6 JSON, mjai and Majiang importers (plus format detection) on the shared real logs.

Every file parses; every hand conserves tiles (each discard / call comes out of the right hand);
every Win / HandDraw carries exactly the deltas written in the file; scores run on from hand to
hand; the mjx one-hand-per-line games equal the same games' Tenhou XML event by event; broken,
truncated or garbage input raises LogFormatError and nothing else.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

_REPO = Path(__file__).resolve().parents[2]
if str(_REPO) not in sys.path:  # pytest's rootdir is not on sys.path by default
    sys.path.insert(0, str(_REPO))

from engine.logs.detect import detect_format, load_any, parse_any  # noqa: E402
from engine.logs.majiang import load_majiang, parse_majiang  # noqa: E402
from engine.logs.mjai import load_mjai, parse_mjai  # noqa: E402
from engine.logs.record import (  # noqa: E402
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
    Win,
)
from engine.logs.tenhou6 import game_over_after, load_tenhou6, parse_tenhou6  # noqa: E402
from engine.tiles import RED  # noqa: E402

SHARED = Path(__file__).resolve().parents[3] / "shared"
LOGS = SHARED / "data" / "logs"
TENHOU6 = LOGS / "tenhou6_json"
MJAI = LOGS / "mjai_jsonl"
MAJIANG = LOGS / "majiang_json"
MJX = TENHOU6 / "mjx_mjscore_per_hand"
XML_4P = LOGS / "tenhou_xml" / "mixed_4p"
KAN_KINDS = (CallKind.DAIMINKAN, CallKind.ANKAN, CallKind.KAKAN)

pytestmark = pytest.mark.skipif(not LOGS.is_dir(), reason=f"shared logs not found at {LOGS}")


def _files(root: Path, *patterns: str) -> list[Path]:
    if not root.is_dir():
        return []
    return sorted(p for pat in patterns for p in root.rglob(pat))


TENHOU6_FILES = _files(TENHOU6, "*.json", "*.jsonl")
MJAI_FILES = _files(MJAI, "*.jsonl", "*.mjson", "*.json")
MAJIANG_FILES = _files(MAJIANG, "*.json")
ALL_FILES = TENHOU6_FILES + MJAI_FILES + MAJIANG_FILES


def _id(p: Path) -> str:
    return p.name


@cache
def record(path: Path) -> GameRecord:
    if path.is_relative_to(TENHOU6):
        games = load_tenhou6(path)
    elif path.is_relative_to(MJAI):
        games = load_mjai(path)
    else:
        games = load_majiang(path)
    assert len(games) == 1
    return games[0]


def accepted(hand: HandRecord) -> int:
    return sum(isinstance(e, RiichiAccepted) for e in hand.events)


def results(hand: HandRecord) -> list[Win | HandDraw]:
    return [e for e in hand.events if isinstance(e, Win | HandDraw)]


# ---------------------------------------------------------------------------------------------
# every file parses


def test_the_data_is_there() -> None:
    assert len(TENHOU6_FILES) >= 60 and len(MJAI_FILES) >= 2 and len(MAJIANG_FILES) >= 30


@pytest.mark.parametrize("path", ALL_FILES, ids=_id)
def test_every_file_parses(path: Path) -> None:
    rec = record(path)
    fmt = "tenhou6" if path.is_relative_to(TENHOU6) else "mjai" if path.is_relative_to(MJAI) else "majiang"
    assert rec.format == fmt and rec.path == str(path)
    assert rec.hands and len(rec.names) == 4 and rec.rules.players == 4
    for i, h in enumerate(rec.hands):
        assert len(h.scores) == 4 and len(h.haipai) == 4, i
        assert 0 <= h.dealer < 4 and h.dealer == h.hand_number % 4 or fmt == "majiang", i
        assert isinstance(h.events[-1], Win | HandDraw), (path.name, i)
        first = next(e for e in h.events if isinstance(e, Draw))
        assert first.seat == h.dealer, (path.name, i)  # the dealer draws first
        ends = [j for j, e in enumerate(h.events) if isinstance(e, Win | HandDraw)]
        assert ends == list(range(ends[0], len(h.events))), (path.name, i)  # results only at the end
        assert all(isinstance(e, Win) for e in h.events[ends[0] :]) or len(ends) == 1, (path.name, i)
    if fmt == "majiang" or rec.final_scores is not None:
        assert rec.final_scores is not None and rec.complete


def test_load_any_agrees_with_the_format_loaders() -> None:
    for path in ALL_FILES:
        assert load_any(path) == [record(path)], path.name


def test_detect_format() -> None:
    assert detect_format((MJX / "2017040900gm-00a9-0000-af5434e3.jsonl").read_text()) == "tenhou6_lines"
    assert detect_format(TENHOU6_FILES[0].read_text()) in ("tenhou6", "tenhou6_lines")
    assert detect_format(MJAI_FILES[0].read_text()) == "mjai"
    assert detect_format(MAJIANG_FILES[0].read_text()) == "majiang"
    if XML_4P.is_dir():
        assert detect_format(sorted(XML_4P.glob("*.xml"))[0].read_text()) == "tenhou_xml"


def test_parse_equals_load() -> None:
    p = TENHOU6 / "riichi-rs" / "2022013100gm-00a9-0000-af91b2de.json"
    assert parse_tenhou6(json.loads(p.read_text()), str(p)) == record(p)
    m = MJAI_FILES[0]
    assert parse_mjai(m.read_text().splitlines(), str(m)) == record(m)
    j = MAJIANG_FILES[0]
    assert parse_majiang(json.loads(j.read_text()), str(j)) == record(j)


# ---------------------------------------------------------------------------------------------
# tiles: every discard / call comes out of the right hand


def check_hand(h: HandRecord, where: str) -> None:
    hands = [Counter(hp) for hp in h.haipai]
    for hp in h.haipai:
        assert len(hp) == 13, where
    seen = Counter(t for hp in h.haipai for t in hp)
    melds = [0] * 4
    last_draw: list[int | None] = [None] * 4
    owe_rinshan = [False] * 4
    riichi_pending: int | None = None
    last_discard: Discard | None = None
    must_discard: int | None = None
    kans = 0
    doras = 0

    def size(s: int) -> int:
        return sum(hands[s].values()) + 3 * melds[s]

    for i, e in enumerate(h.events):
        at = f"{where} event {i} {e}"
        if isinstance(e, Draw):
            assert must_discard is None, at
            assert size(e.seat) == 13, at
            assert e.rinshan == owe_rinshan[e.seat], at
            owe_rinshan[e.seat] = False
            hands[e.seat][e.tile] += 1
            seen[e.tile] += 1
            last_draw[e.seat] = e.tile
            must_discard = e.seat
        elif isinstance(e, Discard):
            assert must_discard == e.seat, at
            assert hands[e.seat][e.tile] > 0, at
            hands[e.seat][e.tile] -= 1
            assert size(e.seat) == 13, at
            if e.tsumogiri:
                assert last_draw[e.seat] == e.tile, at
            last_draw[e.seat] = None
            if e.riichi:
                riichi_pending = e.seat
            last_discard = e
            must_discard = None
        elif isinstance(e, Call):
            for t in e.consumed:
                assert hands[e.seat][t] > 0, at
                hands[e.seat][t] -= 1
            if e.kind in (CallKind.CHI, CallKind.PON, CallKind.DAIMINKAN):
                assert must_discard is None and size(e.seat) == 13 - len(e.consumed), at
                assert last_discard is not None and last_discard.tile == e.tile, at  # the tile just discarded
                assert e.from_seat == last_discard.seat != e.seat, at
                prev = next(x for x in reversed(h.events[:i]) if not isinstance(x, RiichiAccepted | NewDora))
                assert prev is last_discard, at
                kinds = sorted(t & ~RED for t in (e.tile, *e.consumed))
                if e.kind == CallKind.CHI:
                    assert e.from_seat == (e.seat - 1) % 4, at  # kamicha
                    assert (
                        kinds == [kinds[0], kinds[0] + 1, kinds[0] + 2] and kinds[0] // 9 == kinds[2] // 9 < 3
                    ), at
                else:
                    assert len(set(kinds)) == 1 and len(kinds) == (3 if e.kind == CallKind.PON else 4), at
                melds[e.seat] += 1
                must_discard = e.seat if e.kind != CallKind.DAIMINKAN else None
                last_discard = None
            else:
                assert must_discard == e.seat, at  # ankan / kakan only on one's own turn
                if e.kind == CallKind.ANKAN:
                    assert len(e.consumed) == 4 and len({t & ~RED for t in e.consumed}) == 1, at
                    melds[e.seat] += 1
                else:
                    assert e.kind == CallKind.KAKAN and e.consumed == (e.tile,), at
                must_discard = None
            if e.kind in KAN_KINDS:
                owe_rinshan[e.seat] = True
                kans += 1
            last_draw[e.seat] = None
        elif isinstance(e, RiichiAccepted):
            assert riichi_pending == e.seat, at
            riichi_pending = None
        elif isinstance(e, NewDora):
            doras += 1
            assert doras <= kans, at
        elif isinstance(e, Win):
            shown = Counter(e.hand)
            tracked = hands[e.seat].copy()
            if e.from_seat != e.seat:
                tracked[e.win_tile] += 1
            else:
                assert must_discard == e.seat and last_draw[e.seat] == e.win_tile, at
            assert +shown == +tracked, at
            assert e.win_tile in e.hand, at
            assert size(e.seat) + (e.from_seat != e.seat) == 14, at
        else:
            assert isinstance(e, HandDraw), at
    for k in range(34):
        assert seen[k] + seen[k | RED] <= 4, f"{where}: kind {k} seen {seen[k] + seen[k | RED]} times"
        assert seen[k | RED] <= 1, f"{where}: red {k} seen {seen[k | RED]} times"


@pytest.mark.parametrize("path", ALL_FILES, ids=_id)
def test_tiles_are_conserved(path: Path) -> None:
    rec = record(path)
    for n, h in enumerate(rec.hands):
        check_hand(h, f"{path.name} hand {n + 1}")


# ---------------------------------------------------------------------------------------------
# the deltas are the file's


def raw_deltas(path: Path) -> list[list[tuple[int, ...]]]:
    """Per hand, the deltas of every win / draw, read straight from the file."""
    out: list[list[tuple[int, ...]]] = []
    if path.is_relative_to(TENHOU6):
        text = path.read_text(encoding="utf-8")
        objs = (
            [json.loads(x) for x in text.splitlines() if x.strip()]
            if path.suffix == ".jsonl"
            else [json.loads(text)]
        )
        for obj in objs:
            for hand in obj["log"]:
                res = hand[16]
                if res[0] == "和了":
                    out.append([tuple(res[k]) for k in range(1, len(res), 2)])
                else:
                    out.append([tuple(res[1]) if len(res) > 1 else (0, 0, 0, 0)])
    elif path.is_relative_to(MJAI):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            ev = json.loads(line)
            if ev["type"] == "start_kyoku":
                out.append([])
            elif ev["type"] in ("hora", "ryukyoku"):
                out[-1].append(tuple(ev["deltas"]))
    else:
        game = json.loads(path.read_text(encoding="utf-8"))
        for hand in game["log"]:
            out.append([])
            base = 0
            for ev in hand:
                ((name, body),) = ev.items()
                if name == "qipai":
                    base = (game["qijia"] + body["jushu"]) % 4
                elif name in ("hule", "pingju"):
                    d = [0] * 4
                    for lv, x in enumerate(body["fenpei"]):
                        d[(base + lv) % 4] = x
                    out[-1].append(tuple(d))
    return out


@pytest.mark.parametrize("path", ALL_FILES, ids=_id)
def test_deltas_equal_the_data(path: Path) -> None:
    rec = record(path)
    expected = raw_deltas(path)
    assert len(expected) == len(rec.hands)
    for n, (h, exp) in enumerate(zip(rec.hands, expected, strict=True)):
        assert [r.deltas for r in results(h)] == exp, f"{path.name} hand {n + 1}"


def after_scores(h: HandRecord) -> list[int]:
    out = list(h.scores)
    for e in h.events:
        if isinstance(e, Win | HandDraw):
            out = [a + d for a, d in zip(out, e.deltas, strict=True)]
        elif isinstance(e, RiichiAccepted):
            out[e.seat] -= 1000
    return out


@pytest.mark.parametrize("path", [p for p in ALL_FILES if len(record(p).hands) > 1], ids=_id)
def test_scores_run_on_from_hand_to_hand(path: Path) -> None:
    rec = record(path)
    for n in range(len(rec.hands) - 1):
        assert tuple(after_scores(rec.hands[n])) == rec.hands[n + 1].scores, f"{path.name} after hand {n + 1}"


def sticks_left(h: HandRecord) -> int:
    """Riichi sticks on the table after the hand (a win collects all of them)."""
    if any(isinstance(e, Win) for e in h.events):
        return 0
    return h.sticks + accepted(h)


@pytest.mark.parametrize("path", [p for p in ALL_FILES if len(record(p).hands) > 1], ids=_id)
def test_sticks_and_final_scores(path: Path) -> None:
    """The next hand's stick count follows the wins / draws, and the final scores are the last
    hand's scores with the leftover sticks given to the leader."""
    rec = record(path)
    for n in range(len(rec.hands) - 1):
        assert rec.hands[n + 1].sticks == sticks_left(rec.hands[n]), f"{path.name} after hand {n + 1}"
    if rec.final_scores is None:
        return
    after = after_scores(rec.hands[-1])
    left = sticks_left(rec.hands[-1]) * 1000
    assert sum(rec.final_scores) == sum(after) + left, path.name
    diff = [f - a for f, a in zip(rec.final_scores, after, strict=True)]
    assert sorted(diff) == [0, 0, 0, left], (path.name, diff)


# ---------------------------------------------------------------------------------------------
# tenhou6 details


def test_tenhou6_points_and_yaku() -> None:
    h = record(TENHOU6 / "riichi-rs" / "2022013100gm-00a9-0000-af91b2de.json").hands[0]
    (w,) = [e for e in h.events if isinstance(e, Win)]
    assert (w.seat, w.from_seat, w.fu, w.han, w.points, w.yakuman) == (0, 0, None, 6, 18000, 0)  # 跳満6000点∀
    assert w.yaku[0] == ("立直", 1) and w.ura_indicators == (7,)  # tenhou6 18 = 8m
    h1 = record(TENHOU6 / "riichi-rs" / "2022013100gm-00a9-0000-af91b2de.json").hands[1]
    (w1,) = [e for e in h1.events if isinstance(e, Win)]
    assert (w1.seat, w1.from_seat, w1.fu, w1.han, w1.points) == (1, 0, 30, 2, 2000)
    assert w1.ura_indicators == ()  # not in riichi
    # the winner of a single win gets the hand value + 300 per honba + every riichi stick
    # (tsumo "40符1飜400-700点" counts 2 x 400 + 700, dealer tsumo "…点∀" 3 x the share)
    checked = 0
    for path in TENHOU6_FILES:
        for hand in record(path).hands:
            wins = [e for e in hand.events if isinstance(e, Win)]
            if len(wins) == 1 and wins[0].points is not None:
                w, pts = wins[0], wins[0].points
                bonus = 300 * hand.honba + 1000 * (hand.sticks + accepted(hand))
                assert w.deltas[w.seat] == pts + bonus, (path.name, hand.round_wind, hand.hand_number)
                checked += 1
    assert checked > 300
    yakuman = [
        e
        for e in record(TENHOU6 / "pantheon" / "pantheon_tripleyakuman.json").hands[-1].events
        if isinstance(e, Win)
    ]
    assert any(w.yakuman and w.yakuman >= 1 and all(h == 13 for _, h in w.yaku) for w in yakuman)


def test_tenhou6_rules() -> None:
    r = record(TENHOU6 / "pantheon" / "pantheon_tensoul_usual.json").rules
    assert (r.source, r.hanchan, r.red_fives, r.kuitan, r.standard) == (
        "mahjongsoul",
        False,
        True,
        True,
        True,
    )
    r = record(TENHOU6 / "pantheon" / "pantheon_models_nagashi_mangan_riichi_bets_bug.json").rules
    assert (r.source, r.hanchan, r.start_points) == ("mahjongsoul", True, 30000)
    r = record(TENHOU6 / "riichi-rs" / "2022081017gm-00e1-0000-2df24853.json").rules  # 鳳東喰赤速
    assert (r.source, r.hanchan, r.red_fives, r.kuitan) == ("tenhou", False, True, True)
    assert not record(TENHOU6 / "riichi-rs" / "notable-features_chankan.json").complete  # excerpt, no sc


def test_tenhou6_special_hands() -> None:
    ch = record(TENHOU6 / "riichi-rs" / "notable-features_chankan.json").hands[0].events
    wins = [i for i, e in enumerate(ch) if isinstance(e, Win)]
    prev = ch[wins[0] - 1]
    won = ch[wins[0]]
    assert isinstance(prev, Call) and prev.kind == CallKind.KAKAN
    assert isinstance(won, Win) and won.win_tile == prev.tile and won.from_seat == prev.seat
    rs = record(TENHOU6 / "riichi-rs" / "notable-features_rinshan.json").hands[0].events
    w = rs[-1]
    assert isinstance(w, Win) and w.seat == w.from_seat
    assert any(isinstance(e, Draw) and e.rinshan and e.seat == w.seat for e in rs[-3:])
    kinds = {
        e.kind for p in TENHOU6_FILES for h in record(p).hands for e in h.events if isinstance(e, HandDraw)
    }
    assert kinds == set(DrawKind)
    four = record(TENHOU6 / "pantheon" / "pantheon_four_riichi_draw.json")
    h4 = next(
        h
        for h in four.hands
        if any(isinstance(e, HandDraw) and e.kind == DrawKind.FOUR_RIICHI for e in h.events)
    )
    assert accepted(h4) == 4 and isinstance(h4.events[-2], RiichiAccepted)


def test_mjx_lines_are_complete_games() -> None:
    for p in sorted(MJX.glob("*.jsonl")):
        rec = record(p)
        assert rec.complete, p.name  # game_over_after(last hand) says the game ended
        assert rec.final_scores is None
        assert not any(game_over_after(h, True) for h in rec.hands[:-1]), p.name


# ---------------------------------------------------------------------------------------------
# mjai / Majiang details


def test_mjai_details() -> None:
    manue = record(next(p for p in MJAI_FILES if "manue" in p.name))
    assert manue.final_scores == (17200, 13500, 35600, 33700) and manue.complete
    w = next(e for e in manue.hands[0].events if isinstance(e, Win))
    assert (w.fu, w.han, w.points) == (40, 2, 2600) and ("reach", 1) in w.yaku
    env = record(next(p for p in MJAI_FILES if "riichienv" in p.name))
    assert env.hands[0].scores == (25000,) * 4 and env.final_scores is None
    assert any(isinstance(e, Call) and e.kind == CallKind.ANKAN for h in env.hands for e in h.events)


def test_majiang_seats_are_absolute() -> None:
    for p in MAJIANG_FILES:
        rec = record(p)
        game = json.loads(p.read_text(encoding="utf-8"))
        for h, raw in zip(rec.hands, game["log"], strict=True):
            q = raw[0]["qipai"]
            assert h.dealer == (game["qijia"] + q["jushu"]) % 4
            for lv in range(4):
                assert h.scores[(h.dealer + lv) % 4] == q["defen"][lv]
        assert rec.final_scores == tuple(game["defen"])
    rec = record(MAJIANG / "kobalab_scenarios" / "scenario_01.json")
    w = next(e for h in rec.hands for e in h.events if isinstance(e, Win) and e.yakuman)
    assert (w.seat, w.from_seat, w.yakuman, w.yaku, w.points, w.fu) == (
        rec.hands[1].dealer,
        w.seat,
        1,
        (("天和", 13),),
        48000,
        None,
    )


# ---------------------------------------------------------------------------------------------
# the mjx one-hand-per-line games equal the same games in Tenhou XML


def event_key(e: Event) -> tuple[Any, ...]:
    if isinstance(e, Draw):
        return ("draw", e.seat, e.tile, e.rinshan)
    if isinstance(e, Discard):
        return ("discard", e.seat, e.tile, e.tsumogiri, e.riichi)
    if isinstance(e, Call):
        return ("call", e.seat, e.kind, e.tile & ~RED, tuple(sorted(e.consumed)), e.from_seat)
    if isinstance(e, NewDora):
        return ("dora", e.indicator)
    if isinstance(e, RiichiAccepted):
        return ("riichi", e.seat)
    if isinstance(e, Win):
        return ("win", e.seat, e.from_seat, e.win_tile, e.deltas, tuple(sorted(e.hand)), e.pao_seat, e.points)
    return ("draw_end", e.kind, e.deltas)


MJX_FILES = sorted(MJX.glob("*.jsonl")) if MJX.is_dir() else []


@pytest.mark.parametrize("path", MJX_FILES, ids=_id)
def test_mjx_lines_match_tenhou_xml(path: Path) -> None:
    try:
        from engine.logs.tenhou_xml import load_tenhou_xml
    except ImportError:
        pytest.skip("engine.logs.tenhou_xml.load_tenhou_xml is not available yet")
    xml_path = XML_4P / (path.stem + ".xml")
    if not xml_path.exists():
        pytest.skip(f"no Tenhou XML for {path.stem}")
    a = record(path)
    b = load_tenhou_xml(xml_path)
    assert len(a.hands) == len(b.hands)
    assert a.complete == b.complete
    assert (a.rules.red_fives, a.rules.kuitan, a.rules.hanchan) == (
        b.rules.red_fives,
        b.rules.kuitan,
        b.rules.hanchan,
    )
    for n, (x, y) in enumerate(zip(a.hands, b.hands, strict=True)):
        where = f"{path.stem} hand {n + 1}"
        assert (x.round_wind, x.hand_number, x.honba, x.sticks, x.dealer, x.scores) == (
            y.round_wind,
            y.hand_number,
            y.honba,
            y.sticks,
            y.dealer,
            y.scores,
        ), where
        assert x.dora_indicators == y.dora_indicators, where
        assert [sorted(hp) for hp in x.haipai] == [sorted(hp) for hp in y.haipai], where
        ka = [event_key(e) for e in x.events]
        kb = [event_key(e) for e in y.events]
        for i, (ea, eb) in enumerate(zip(ka, kb, strict=False)):
            assert ea == eb, f"{where} event {i}: tenhou6 {ea} != xml {eb}"
        assert len(ka) == len(kb), where
        for wa, wb in zip(
            (e for e in x.events if isinstance(e, Win)),
            (e for e in y.events if isinstance(e, Win)),
            strict=True,
        ):
            assert (wa.han, wa.yakuman, wa.dora_indicators, wa.ura_indicators) == (
                wb.han,
                wb.yakuman,
                wb.dora_indicators,
                wb.ura_indicators,
            ), where
            assert wa.fu is None or wa.fu == wb.fu, where


# ---------------------------------------------------------------------------------------------
# broken input: LogFormatError and nothing else


def one_of_each() -> list[Path]:
    picks = [
        TENHOU6 / "riichi-rs" / "2022013100gm-00a9-0000-af91b2de.json",
        MJX / "2010081709gm-00a9-0000-fe3371ad.jsonl",
        next(p for p in MJAI_FILES if "manue" in p.name),
        next(p for p in MJAI_FILES if "riichienv" in p.name),
        MAJIANG / "kobalab_scenarios" / "scenario_08.json",
    ]
    xml = sorted(XML_4P.glob("*.xml")) if XML_4P.is_dir() else []
    return picks + xml[:1]


@pytest.mark.parametrize("path", one_of_each(), ids=_id)
def test_truncated_file_raises(path: Path, tmp_path: Path) -> None:
    data = path.read_bytes()
    cut = tmp_path / path.name
    cut.write_bytes(data[: int(len(data) * 0.6)])
    with pytest.raises(LogFormatError) as err:
        load_any(cut)
    assert str(cut) in str(err.value)
    if path.suffix != ".xml":
        loader = (
            load_tenhou6
            if path.is_relative_to(TENHOU6)
            else load_mjai
            if path.is_relative_to(MJAI)
            else load_majiang
        )
        with pytest.raises(LogFormatError):
            loader(cut)


GARBAGE: list[tuple[str, bytes]] = [
    ("empty", b""),
    ("spaces", b"   \n\n"),
    ("text", b"hello world"),
    ("binary", bytes(range(256))),
    ("bad_utf8", b"\xff\xfe{\x00"),
    ("json_number", b"42"),
    ("json_string", b'"log"'),
    ("json_empty_object", b"{}"),
    ("json_empty_array", b"[]"),
    ("json_array_of_numbers", b"[1, 2, 3]"),
    ("tenhou6_no_log", b'{"name": ["a","b","c","d"], "log": 5}'),
    ("tenhou6_empty_log", b'{"name": ["a","b","c","d"], "log": []}'),
    ("tenhou6_bad_hand", b'{"name": ["a","b","c","d"], "log": [[1, 2, 3]]}'),
    (
        "tenhou6_bad_names",
        b'{"name": 7, "log": [[[0,0,0],[25000,25000,25000,25000],[11],[],' + b"[]," * 12 + b'["x"]]]}',
    ),
    ("majiang_no_log", b'{"qijia": 0, "player": ["a","b","c","d"]}'),
    ("majiang_bad_qijia", b'{"qijia": 9, "player": ["a","b","c","d"], "log": [[]]}'),
    ("majiang_bad_event", b'{"qijia": 0, "player": ["a","b","c","d"], "log": [[{"qipai": 3}]]}'),
    ("mjai_no_kyoku", b'{"type": "start_game", "names": ["a","b","c","d"]}\n{"type": "end_game"}\n'),
    ("mjai_bad_event", b'{"type": "start_game"}\n{"type": "tsumo", "actor": 0, "pai": "5m"}\n'),
    ("mjai_not_objects", b'{"type": "start_game"}\n[1,2]\n'),
    ("mjai_broken_line", b'{"type": "start_game"}\n{"type": "tsu\n'),
    ("xml_other", b"<html><body>hi</body></html>"),
    ("xml_broken", b'<mjloggm ver="2.3"><GO type="169"/><INIT seed="0,0,0,'),
]


@pytest.mark.parametrize("name,data", GARBAGE, ids=[g[0] for g in GARBAGE])
def test_garbage_raises(name: str, data: bytes, tmp_path: Path) -> None:
    p = tmp_path / f"{name}.json"
    p.write_bytes(data)
    with pytest.raises(LogFormatError) as err:
        load_any(p)
    msg = str(err.value)
    assert str(p) in msg and "\n" not in msg, msg


def test_hidden_tiles_in_mjai_raise() -> None:
    lines = next(p for p in MJAI_FILES if "riichienv" in p.name).read_text().splitlines()
    i = next(k for k, line in enumerate(lines) if '"tsumo"' in line)
    ev = json.loads(lines[i])
    ev["pai"] = "?"
    lines[i] = json.dumps(ev)
    with pytest.raises(LogFormatError, match="hidden"):
        parse_mjai(lines, "x.mjson")


def _mutations(obj: Any, rng: random.Random) -> Any:
    """A deep copy of a JSON value with one random list entry deleted, replaced or duplicated."""
    obj = json.loads(json.dumps(obj))
    containers: list[Any] = []

    def walk(x: Any) -> None:
        if isinstance(x, list):
            if x:
                containers.append(x)
            for v in x:
                walk(v)
        elif isinstance(x, dict):
            containers.append(x)
            for v in x.values():
                walk(v)

    walk(obj)
    c = rng.choice(containers)
    if isinstance(c, dict):
        key = rng.choice(list(c))
        if rng.random() < 0.5:
            del c[key]
        else:
            c[key] = rng.choice([None, 0, -1, "x", [], {}, 99])
    else:
        k = rng.randrange(len(c))
        r = rng.random()
        if r < 0.4:
            del c[k]
        elif r < 0.7:
            c[k] = rng.choice([None, 0, -1, "x", "p111111", "r99", 60, 19, [], {}, 99, "?"])
        else:
            c.insert(k, c[k])
    return obj


@pytest.mark.parametrize("path", one_of_each()[:-1], ids=_id)
def test_mutated_files_never_leak_other_exceptions(path: Path) -> None:
    """Random single edits either still parse or raise LogFormatError - never KeyError & co."""
    rng = random.Random(20240607)
    text = path.read_text(encoding="utf-8")
    line_based = path.is_relative_to(MJAI) or path.suffix == ".jsonl"
    errors = 0
    for _ in range(150):
        if line_based:
            lines = text.splitlines()
            k = rng.randrange(len(lines))
            lines[k] = json.dumps(_mutations(json.loads(lines[k]), rng), ensure_ascii=False)
            mutated = "\n".join(lines)
        else:
            mutated = json.dumps(_mutations(json.loads(text), rng), ensure_ascii=False)
        try:
            parse_any(mutated, "mutated" + path.suffix)
        except LogFormatError as e:
            errors += 1
            assert "mutated" in str(e)
    assert errors > 0

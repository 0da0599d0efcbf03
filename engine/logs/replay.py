"""Replay game records through the engine and compare every action and every score.

For each hand the record's tiles become a :class:`~engine.table.wall.Deal` (so the engine draws
exactly what the players drew); each recorded decision becomes an engine action that must be in
the engine's legal set at that moment; the engine's settlement must equal the recorded deltas;
the final scores must equal the log's.

``python -m engine replay PATH... [--json]`` runs this over files and directories: every file
gets its own result (a file that cannot be read or replayed is one error sentence in the report,
and the run goes on with the next file).
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.logs.limits import json_kind, shown
from engine.logs.record import (
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
from engine.rules.base import Ruleset, UnknownRuleset, find_ruleset
from engine.table.actions import Action, ActionType, canon
from engine.table.game import Game, IllegalActionError, Phase
from engine.table.wall import Deal, TileSet, standard_tileset
from engine.tiles import NORTH, RED, kind_name

A = ActionType

_DRAW_NAMES = {
    DrawKind.EXHAUSTIVE: ("exhaustive", "nagashi_mangan"),
    DrawKind.NAGASHI: ("nagashi_mangan",),
    DrawKind.NINE_TERMINALS: ("kyuushu_kyuuhai",),
    DrawKind.FOUR_WINDS: ("suufon_renda",),
    DrawKind.FOUR_RIICHI: ("suucha_riichi",),
    DrawKind.FOUR_KANS: ("suukaikan",),
    DrawKind.TRIPLE_RON: ("sanchahou",),
}


@dataclass(slots=True)
class Mismatch:
    file: str
    hand: str
    what: str
    expected: Any
    got: Any

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "hand": self.hand, "what": self.what, "expected": self.expected, "got": self.got}


@dataclass(slots=True)
class ReplayReport:
    games: int = 0
    hands: int = 0
    hands_exact: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    errors: list[dict[str, str]] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "hands": self.hands,
            "hands_exact": self.hands_exact,
            "mismatches": [m.to_json() for m in self.mismatches],
            "errors": self.errors,
            "skipped": self.skipped,
        }

    @property
    def ok(self) -> bool:
        return not self.mismatches and not self.errors


def ruleset_from_entry(name: str, options: dict[str, Any]) -> Ruleset:
    """The ruleset a Jantaku export names: the registered ``name`` with the changed ``options``
    (JSON values, see ``engine.logs.export.ruleset_entry``); raises :class:`LogFormatError` for an
    unknown ruleset or option or a value of the wrong kind."""
    try:
        rs = find_ruleset(name)
    except UnknownRuleset as e:
        raise LogFormatError(str(e)) from None
    if not options:
        return rs
    if not dataclasses.is_dataclass(rs.options):
        raise LogFormatError(f"the ruleset '{name}' takes no options")
    known = {f.name for f in dataclasses.fields(rs.options)}
    changes: dict[str, Any] = {}
    for key, value in options.items():
        if key not in known:
            raise LogFormatError(f"the ruleset '{name}' has no option '{key}'")
        changes[key] = _option_value(getattr(rs.options, key), value, key)
    return rs.with_options(**changes)


def _option_value(like: Any, value: Any, key: str) -> Any:
    """``value`` (read from JSON) in the shape of the preset's value ``like``."""
    if dataclasses.is_dataclass(like) and not isinstance(like, type):
        if not isinstance(value, dict):
            raise LogFormatError(f"option '{key}' is not an object")
        inner = {f.name: getattr(like, f.name) for f in dataclasses.fields(like)}
        unknown = set(value) - set(inner)
        if unknown:
            raise LogFormatError(f"option '{key}' has no field {shown(sorted(unknown)[0])}")
        return dataclasses.replace(like, **{k: _option_value(inner[k], v, f"{key}.{k}") for k, v in value.items()})
    if isinstance(like, tuple):
        if not isinstance(value, list):
            raise LogFormatError(f"option '{key}' is not a list")
        return tuple(value)
    if isinstance(like, bool) or isinstance(value, bool):
        if not (isinstance(like, bool) and isinstance(value, bool)):
            raise LogFormatError(f"option '{key}' is {shown(value)}, not {'true or false' if isinstance(like, bool) else json_kind(like)}")
        return value
    if isinstance(like, (int, float)) and isinstance(value, (int, float)):
        return type(like)(value) if isinstance(like, float) else value
    if not isinstance(value, type(like)):
        raise LogFormatError(f"option '{key}' is {shown(value)}, not {'true or false' if isinstance(like, bool) else json_kind(like)}")
    return value


def ruleset_for(record: GameRecord) -> Ruleset:
    """The engine ruleset that plays by the rules the log was played under: the exact ruleset when
    the log names it (a Jantaku export), else the nearest one its rule fields describe."""
    r = record.rules
    if r.ruleset:
        return ruleset_from_entry(r.ruleset, r.ruleset_options)
    if r.players == 3:
        rs = find_ruleset("sanma")
        return rs.with_options(hanchan=r.hanchan, kuitan=r.kuitan, west_extension=True)
    if r.source == "majiang":
        rs = find_ruleset("majiang")
        return rs.with_options(hanchan=r.hanchan, west_extension=True)
    if r.source == "mahjongsoul":
        rs = find_ruleset("mahjongsoul")
    else:
        rs = find_ruleset("tenhou")
    return rs.with_options(
        hanchan=r.hanchan,
        kuitan=r.kuitan,
        red_fives=(1, 1, 1) if r.red_fives else (0, 0, 0),
        start_points=r.start_points if r.start_points in (25000, 30000, 35000) else 25000,
        west_extension=True,
    )


class _Pool:
    """Physical tiles still unassigned in this hand, by tile code."""

    def __init__(self, tileset: TileSet) -> None:
        self.by_code = {c: list(ids) for c, ids in tileset.ids_by_code().items() if c >= 0}

    def take(self, code: int) -> int:
        ids = self.by_code.get(code)
        if not ids:
            raise LogFormatError(f"the log uses more {kind_name(code)} than exist")
        return ids.pop()

    def rest(self) -> list[int]:
        return [t for ids in self.by_code.values() for t in ids]


def build_deal(tileset: TileSet, players: int, hand: HandRecord, seat_of: Sequence[int]) -> Deal:
    """A deal that reproduces the record: observed draws in order, fillers for unseen tiles."""
    n = players
    pool = _Pool(tileset)
    haipai: list[tuple[int, ...]] = [()] * n
    for rec_seat, tiles in enumerate(hand.haipai):
        haipai[seat_of[rec_seat]] = tuple(pool.take(c) for c in tiles)
    live_codes: list[int] = []
    rinshan_codes: list[int] = []
    dora_codes = list(hand.dora_indicators)
    ura_codes: list[int] = []
    for ev in hand.events:
        if isinstance(ev, Draw):
            (rinshan_codes if ev.rinshan else live_codes).append(ev.tile)
        elif isinstance(ev, NewDora):
            dora_codes.append(ev.indicator)
        elif isinstance(ev, Win) and ev.ura_indicators and not ura_codes:
            ura_codes = list(ev.ura_indicators)
    total_live = tileset.size - sum(1 for c in tileset.codes if c < 0) - 14 - 13 * n
    live: list[int | None] = [None] * total_live
    for i, c in enumerate(live_codes):
        if i >= total_live:
            raise LogFormatError("the log draws more tiles than the live wall holds")
        live[i] = pool.take(c)
    rinshan = [pool.take(c) for c in rinshan_codes[:4]]
    # replacement draws beyond the fourth come from tiles moved off the live wall's tail
    for j, c in enumerate(rinshan_codes[4:]):
        pos = total_live - 1 - j
        if live[pos] is not None:
            raise LogFormatError("replacement draws overlap the live wall")
        live[pos] = pool.take(c)
    dora = [pool.take(c) for c in dora_codes[:5]]
    ura = [pool.take(c) for c in ura_codes[:5]]
    rest = pool.rest()
    rest.reverse()

    def fill() -> int:
        return rest.pop()

    live_full = [t if t is not None else fill() for t in live]
    while len(rinshan) < 4:
        rinshan.append(fill())
    while len(dora) < 5:
        dora.append(fill())
    while len(ura) < 5:
        ura.append(fill())
    return Deal(tuple(haipai), tuple(live_full), tuple(rinshan), tuple(dora), tuple(ura))


class _Stop(Exception):
    def __init__(self, what: str, expected: Any, got: Any) -> None:
        super().__init__(what)
        self.what = what
        self.expected = expected
        self.got = got


def _hand_label(h: HandRecord) -> str:
    return f"{'ESWN'[h.round_wind]}{h.hand_number + 1}-{h.honba}"


def replay_record(record: GameRecord, report: ReplayReport) -> Game | None:
    """Replay one game; adds to ``report``; returns the finished game (or None after a stop)."""
    if not record.rules.standard:
        report.skipped.append({"file": record.path, "why": record.rules.why_nonstandard or "non-standard rules"})
        return None
    if not record.hands:
        report.errors.append({"file": record.path, "error": "the log has no hands"})
        return None
    report.games += 1
    try:
        rs = ruleset_for(record)
    except LogFormatError as e:
        report.errors.append({"file": record.path, "error": str(e)})
        return None
    n = rs.players
    first = record.hands[0]
    offset = (first.dealer - first.hand_number) % n
    seat_of = [(s - offset) % n for s in range(n)]
    rec_of = [(s + offset) % n for s in range(n)]
    scores = [first.scores[rec_of[s]] for s in range(n)]
    tileset = standard_tileset(red_fives=rs.options.red_fives, removed=rs.removed_kinds)
    deals = [build_deal(tileset, n, h, seat_of) for h in record.hands]
    game = Game(rs, deals=deals, scores=scores, start=(first.round_wind, first.hand_number, first.honba, first.sticks))
    for hi, hand in enumerate(record.hands):
        label = _hand_label(hand)
        report.hands += 1
        try:
            if game.over:
                raise _Stop("the engine ended the game before this hand", "hand", "game over")
            _check_start(game, hand, rec_of)
            _replay_hand(game, hand, seat_of, rec_of)
        except _Stop as stop:
            report.mismatches.append(Mismatch(record.path, label, stop.what, stop.expected, stop.got))
            return None
        except (IllegalActionError, LogFormatError) as e:
            report.mismatches.append(Mismatch(record.path, label, "replay stopped", "", str(e)))
            return None
        report.hands_exact += 1
        _ = hi
    if record.complete and record.final_scores is not None:
        ended = game.over and not game.truncated
        got = [game.final_scores[seat_of[s]] for s in range(n)] if ended else None
        if got != list(record.final_scores):
            report.mismatches.append(
                Mismatch(
                    record.path,
                    "final",
                    "final scores",
                    list(record.final_scores),
                    got if got else "the engine's game goes on after the log's last hand",
                )
            )
    return game


def _check_start(game: Game, hand: HandRecord, rec_of: Sequence[int]) -> None:
    n = game.players
    got = (game.round_wind, game.hand_number, game.honba, game.sticks, [game.scores[s] for s in range(n)])
    want = (hand.round_wind, hand.hand_number, hand.honba, hand.sticks, [hand.scores[rec_of[s]] for s in range(n)])
    if got != want:
        raise _Stop("hand start (round, hand, honba, sticks, scores)", want, got)


def _act(game: Game, action: Action) -> None:
    legal = game.legal_actions(action.seat)
    if action not in legal:
        raise _Stop("recorded action not legal", action.text, " ".join(a.text for a in legal) or f"seat {action.seat} may not act")
    game.apply(action)


def _pass_all(game: Game, except_seats: Iterable[int] = ()) -> None:
    skip = set(except_seats)
    for s in list(game.to_act()):
        if s not in skip and game.phase in (Phase.CALL, Phase.CHANKAN):
            game.apply(Action(A.PASS, s))


def _replay_hand(game: Game, hand: HandRecord, seat_of: Sequence[int], rec_of: Sequence[int]) -> None:
    results_before = len(game.results)
    events = hand.events
    i = 0
    while i < len(events):
        ev = events[i]
        if isinstance(ev, Draw):
            if game.phase is not Phase.TURN or len(game.results) > results_before:
                _pass_all(game)
            if len(game.results) > results_before:
                raise _Stop("hand ended early", "draw", game.results[-1].kind)
            seat = seat_of[ev.seat]
            if game.current != seat or game.drawn < 0 or game.code(game.drawn) != ev.tile:
                got = f"seat {game.current} drew {kind_name(game.code(game.drawn))}" if game.drawn >= 0 else f"seat {game.current} to act"
                raise _Stop("draw", f"seat {seat} draws {kind_name(ev.tile)}", got)
        elif isinstance(ev, Discard):
            _pass_all(game)
            t = A.RIICHI if ev.riichi else A.DISCARD
            _act(game, Action(t, seat_of[ev.seat], ev.tile))
        elif isinstance(ev, Call):
            seat = seat_of[ev.seat]
            if ev.kind in (CallKind.CHI, CallKind.PON, CallKind.DAIMINKAN):
                if ev.kind is CallKind.DAIMINKAN:
                    a = Action(A.DAIMINKAN, seat)
                else:
                    a = Action(A.CHI if ev.kind is CallKind.CHI else A.PON, seat, -1, canon(ev.consumed))
                if game.phase is not Phase.CALL:
                    raise _Stop("call without a discard to claim", a.text, f"phase {game.phase.name}")
                legal = game.legal_actions(seat)
                if a not in legal:
                    raise _Stop("recorded call not legal", a.text, " ".join(x.text for x in legal) or "no call option")
                for s in list(game.to_act()):
                    if s != seat:
                        game.apply(Action(A.PASS, s))
                game.apply(a)
            else:
                _pass_all(game)
                kind = ev.tile & ~RED
                if ev.kind is CallKind.ANKAN:
                    _act(game, Action(A.ANKAN, seat, kind))
                elif ev.kind is CallKind.KAKAN:
                    _act(game, Action(A.KAKAN, seat, kind))
                else:
                    _act(game, Action(A.KITA, seat, NORTH))
        elif isinstance(ev, Win):
            wins = [ev]
            while i + 1 < len(events) and isinstance(events[i + 1], Win):
                i += 1
                nxt = events[i]
                assert isinstance(nxt, Win)
                wins.append(nxt)
            if wins[0].seat == wins[0].from_seat:
                _pass_all(game)
                _act(game, Action(A.TSUMO, seat_of[wins[0].seat]))
            else:
                winners = {seat_of[w.seat] for w in wins}
                for w in winners:
                    legal = game.legal_actions(w)
                    if Action(A.RON, w) not in legal:
                        raise _Stop("recorded ron not legal", f"{w}h", " ".join(x.text for x in legal) or "no call option")
                for s in list(game.to_act()):
                    game.apply(Action(A.RON if s in winners else A.PASS, s))
            _compare_result(game, results_before, [d for w in wins for d in [w.deltas]], rec_of, "win", wins)
            return
        elif isinstance(ev, HandDraw):
            if ev.kind is DrawKind.NINE_TERMINALS:
                _act(game, Action(A.KYUUSHU, game.current))
            elif ev.kind is DrawKind.TRIPLE_RON:
                for s in list(game.to_act()):
                    ron = Action(A.RON, s)
                    game.apply(ron if ron in game.legal_actions(s) else Action(A.PASS, s))
            else:
                _pass_all(game)
            if len(game.results) <= results_before:
                raise _Stop("draw", ev.kind.value, f"hand still running (phase {game.phase.name})")
            res = game.results[results_before]
            if res.kind not in _DRAW_NAMES[ev.kind]:
                raise _Stop("draw kind", ev.kind.value, res.kind)
            _compare_result(game, results_before, [ev.deltas], rec_of, "draw", [])
            return
        elif isinstance(ev, NewDora | RiichiAccepted):
            pass
        i += 1
    raise _Stop("hand has no result", "win or draw", "events ran out")


def _compare_result(
    game: Game, before: int, deltas_list: list[tuple[int, ...]], rec_of: Sequence[int], what: str, wins: list[Win]
) -> None:
    if len(game.results) <= before:
        raise _Stop(what, "hand over", "hand still running")
    res = game.results[before]
    n = game.players
    want = [0] * n
    for d in deltas_list:
        for s in range(n):
            want[s] += d[rec_of[s]] if s < len(rec_of) else 0
    got = list(res.deltas)
    if got != want:
        detail = [(w.seat, w.points, w.han, w.fu) for w in wins]
        mine = [(x.seat, x.score.points, x.score.han, x.score.fu, [y.name for y in x.score.yaku]) for x in res.wins]
        raise _Stop(f"{what} deltas", {"deltas": want, "log": detail}, {"deltas": got, "engine": mine})


# ---------------------------------------------------------------------------- files and CLI


def iter_records(paths: Sequence[str | Path], report: ReplayReport) -> Iterable[GameRecord]:
    from engine.logs.detect import load_any

    files: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            files += sorted(x for x in path.rglob("*") if x.is_file() and x.suffix in (".xml", ".json", ".jsonl", ".mjson", ".mjlog"))
        else:
            files.append(path)
    for f in files:
        if "wall_from_seed" in f.parts:
            continue
        try:
            records = load_any(f)
        except LogFormatError as e:
            report.errors.append({"file": str(f), "error": str(e)})
            continue
        except OSError as e:
            report.errors.append({"file": str(f), "error": f"cannot read the file: {e.strerror or e}"})
            continue
        except Exception as e:  # noqa: BLE001 - an importer's bug must not end the run or print a traceback
            report.errors.append({"file": str(f), "error": _internal("read", e)})
            continue
        yield from records


def replay_paths(paths: Sequence[str | Path]) -> ReplayReport:
    report = ReplayReport()
    for record in iter_records(paths, report):
        try:
            replay_record(record, report)
        except LogFormatError as e:
            report.errors.append({"file": record.path, "error": str(e)})
        except Exception as e:  # noqa: BLE001 - one file's failure is reported and the run goes on
            report.errors.append({"file": record.path, "error": _internal("replay", e)})
    return report


def _internal(what: str, e: Exception) -> str:
    return f"the engine could not {what} this file ({type(e).__name__}); please report it"


def main(paths: Sequence[str], *, as_json: bool = False) -> int:
    report = replay_paths(paths)
    lines: list[str] = []
    if as_json:
        lines.append(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        lines.append(f"games {report.games}, hands {report.hands}, exact {report.hands_exact}")
        for m in report.mismatches:
            lines.append(f"MISMATCH {m.file} {m.hand}: {m.what}: expected {m.expected}, got {m.got}")
        for e in report.errors:
            lines.append(f"ERROR {e['file']}: {e['error']}")
        for s in report.skipped:
            lines.append(f"skipped {s['file']}: {s['why']}")
    # UTF-8 whatever the locale; a file name that is not UTF-8 (surrogate escapes) prints as \udcxx
    sys.stdout.flush()
    out = sys.stdout.buffer
    for line in lines:
        out.write(line.encode("utf-8", "backslashreplace") + b"\n")
    out.flush()
    return 0 if report.ok else 1


__all__ = ["ReplayReport", "main", "replay_paths", "replay_record", "ruleset_for", "ruleset_from_entry"]

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

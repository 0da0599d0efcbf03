"""``python -m engine score | shanten | replay`` — the engine's command line (a stable contract).

* ``score "<hand>" [--json]``; ``score --json -`` reads one hand per line from stdin (as bytes,
  UTF-8) and prints exactly one JSON object per input line, in order: a bad, blank or non-UTF-8
  line gives ``{"error": ...}`` and the run goes on. The output is UTF-8 whatever the locale.
* ``shanten "<tiles>" [--json]``: shanten overall and per form, then waits (tenpai) or, for each
  useful discard, the ukeire with counts.
* ``replay PATH... [--json]``: replays game logs (see :mod:`engine.logs.replay`).
* ``verify PATH [--commitment HEX]``: checks a finished game's own-format export (the
  ``.jantaku.json`` of ``/table export``) against its commitment (:mod:`engine.verify`): one
  sentence, exit status 0 if verified, 1 if something does not match, 2 if the file cannot be read.
* ``warm``: builds every ruleset's shanten tables into the on-disk cache (``~/.cache/jantaku``,
  or ``$JANTAKU_CACHE``), which their first use does otherwise (~17 s once per machine).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from engine.hand.report import shanten_report
from engine.notation import MAX_LINE
from engine.scoring import score_line


def _describe_score(line: str, r: dict[str, Any]) -> str:
    if "error" in r:
        return f"error: {r['error']}"
    if not r["agari"]:
        return {
            "no_yaku": "no yaku: the hand is complete but has nothing to win with",
            "no_common_yaku": "no yaku common to every winning tile (pk PK-4): the hand may not win",
            "furiten": "furiten: the hand may not win, by ron or by tsumo (pk PK-6)",
        }.get(r.get("reason", ""), "not a winning hand")
    lines = [
        f"{y['name']}: {y['han']} han" if y["han"] < 13 or not r["yakuman"] else f"{y['name']}: yakuman"
        for y in r["yaku"]
    ]
    head = f"{r['yakuman']}× yakuman" if r["yakuman"] else f"{r['han']} han {r['fu']} fu"
    if "table_han" in r:  # pk: no fu, the table row includes bazoro
        head = f"{r['han']} han + {r['bazoro']} bazoro = {r['table_han']} han"
    if r.get("limit"):
        head += f" ({r['limit']})"
    pay = ", ".join(f"{k} {v:+d}" for k, v in r["payments"].items())
    return "\n".join([*lines, f"{head} = {r['points']} points", f"payments: {pay}"])


def _score_one(line: str) -> dict[str, Any]:
    """:func:`score_line`, and never an exception: one bad line must not end a run of thousands."""
    try:
        return score_line(line)
    except Exception as e:  # noqa: BLE001 - the engine's bug, reported as one line, not a traceback
        return {"error": f"the engine could not score this hand ({type(e).__name__}); please report it"}


def _decode_line(raw: bytes, n: int) -> str | dict[str, Any]:
    """One stdin line (bytes, newline removed) as text, or the error object that answers it."""
    try:
        line = raw.decode("utf-8").strip()
    except UnicodeDecodeError as e:
        return {"error": f"line {n} is not UTF-8 text (byte {e.start + 1} cannot be read)"}
    if not line:
        return {"error": f"line {n} is blank: write one hand per line"}
    return line


def _write(out: Any, text: str) -> None:
    out.write(text.encode("utf-8", "backslashreplace") + b"\n")


def cmd_score(args: argparse.Namespace) -> int:
    out = sys.stdout.buffer
    dumps = json.dumps
    if args.hand == "-":
        sys.stdout.flush()
        for n, raw in enumerate(sys.stdin.buffer, 1):
            got = _decode_line(raw.rstrip(b"\r\n"), n)
            res = _score_one(got) if isinstance(got, str) else got
            if args.json:
                _write(out, dumps(res, ensure_ascii=False))
            else:
                _write(out, _describe_score(got, res) if isinstance(got, str) else f"error: {res['error']}")
        out.flush()
        return 0
    try:
        hand = args.hand.encode("utf-8").decode("utf-8")
    except UnicodeError:  # an argument that was not UTF-8 arrives with surrogate escapes
        r: dict[str, Any] = {"error": "the hand is not UTF-8 text"}
    else:
        r = _score_one(hand)
    sys.stdout.flush()
    _write(out, dumps(r, ensure_ascii=False) if args.json else _describe_score(args.hand, r))
    out.flush()
    return 1 if "error" in r else 0


def _describe_shanten(r: dict[str, Any]) -> str:
    f = r["forms"]
    head = (
        "complete (agari)"
        if r["shanten"] == -1
        else ("tenpai" if r["shanten"] == 0 else f"{r['shanten']}-shanten")
    )
    forms = ", ".join(f"{k} {v}" for k, v in f.items() if v is not None)
    lines = [f"{head}  ({forms})"]
    if "waits" in r:
        lines.append("waits: " + " ".join(r["waits"]))
    if "ukeire" in r:
        lines.append(f"ukeire {r['ukeire_total']}: " + " ".join(f"{k}×{c}" for k, c in r["ukeire"].items()))
    for d in r.get("discards", []):
        lines.append(
            f"discard {d['discard']}: {d['total']} tiles "
            + " ".join(f"{k}×{c}" for k, c in d["ukeire"].items())
        )
    return "\n".join(lines)


def cmd_shanten(args: argparse.Namespace) -> int:
    out = sys.stdout.buffer
    sys.stdout.flush()
    try:
        tiles = args.tiles.encode("utf-8").decode("utf-8")
        if len(tiles) > MAX_LINE:
            raise ValueError(f"the tiles are {len(tiles):,} characters long; at most {MAX_LINE:,} are read")
        r = shanten_report(tiles)
    except UnicodeError:
        error = "the tiles are not UTF-8 text"
    except ValueError as e:  # NotationError, HandError: a sentence for the user
        error = str(e)
    except Exception as e:  # noqa: BLE001 - the engine's bug, reported as one line, not a traceback
        error = f"the engine could not analyse these tiles ({type(e).__name__}); please report it"
    else:
        _write(out, json.dumps(r, ensure_ascii=False) if args.json else _describe_shanten(r))
        out.flush()
        return 0
    _write(out, json.dumps({"error": error}, ensure_ascii=False) if args.json else f"error: {error}")
    out.flush()
    return 1


def cmd_replay(args: argparse.Namespace) -> int:
    import importlib

    try:
        replay = importlib.import_module("engine.logs.replay")
    except ImportError:
        print("error: log replay is not available in this build yet", file=sys.stderr)
        return 2
    rc: int = replay.main(args.paths, as_json=args.json)
    return rc


def cmd_verify(args: argparse.Namespace) -> int:
    from engine.verify import verify

    try:
        with open(args.path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        print(f"error: cannot read {args.path} as a JSON export: {e}")
        return 2
    verdict = verify(data, expected=args.commitment)
    print(verdict.sentence)
    return 0 if verdict.ok else 1


def cmd_warm(args: argparse.Namespace) -> int:
    from engine.rules import warm_up

    for name in warm_up():
        print(f"{name}: shanten tables ready")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m engine", description="Jantaku rules engine")
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser(
        "score", help="score a hand: '<concealed> [melds] ron|tsumo <tile> [flags]' or - for stdin"
    )
    s.add_argument("hand")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_score)
    t = sub.add_parser("shanten", help="shanten, waits and ukeire of a concealed hand")
    t.add_argument("tiles")
    t.add_argument("--json", action="store_true")
    t.set_defaults(func=cmd_shanten)
    w = sub.add_parser("warm", help="build every ruleset's shanten tables into the on-disk cache now")
    w.set_defaults(func=cmd_warm)
    r = sub.add_parser("replay", help="replay game logs and check every action and score")
    r.add_argument("paths", nargs="+")
    r.add_argument("--json", action="store_true")
    r.set_defaults(func=cmd_replay)
    v = sub.add_parser("verify", help="check a finished game's export against its commitment")
    v.add_argument("path")
    v.add_argument("--commitment", help="the commitment the bot posted when the game started")
    v.set_defaults(func=cmd_verify)
    args = p.parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())

"""``python -m engine score | shanten | replay`` — the engine's command line (a stable contract).

* ``score "<hand>" [--json]``; ``score --json -`` reads one hand per line from stdin and prints
  one JSON object per line, in order (a bad line gives ``{"error": ...}`` and the run goes on).
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


def cmd_score(args: argparse.Namespace) -> int:
    if args.hand == "-":
        out = sys.stdout
        write = out.write
        dumps = json.dumps
        for raw in sys.stdin:
            line = raw.strip()
            if not line:
                continue
            r = score_line(line)
            write((dumps(r, ensure_ascii=False) if args.json else _describe_score(line, r)) + "\n")
        out.flush()
        return 0
    r = score_line(args.hand)
    print(json.dumps(r, ensure_ascii=False) if args.json else _describe_score(args.hand, r))
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
    try:
        r = shanten_report(args.tiles)
    except ValueError as e:
        print(json.dumps({"error": str(e)}) if args.json else f"error: {e}")
        return 1
    print(json.dumps(r, ensure_ascii=False) if args.json else _describe_shanten(r))
    return 0


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

"""A small mjai program for the tests (standard library only): mjai.app's protocol, a JSON array of
events per line in, one JSON answer per line out; the seat number is the last argument.

It discards every tile it draws, declares tsumo when the drawn tile completes its (closed) hand
(menzen tsumo is always a yaku), and passes on every call (and so on every ron). With
``--fault KIND`` it answers every question wrongly instead: ``garbage`` (a line that is not JSON),
``illegal`` (``none`` on its own turn, a ``dahai`` in a call window), ``silent`` (never answers)
or ``crash`` (exits). ``--record FILE`` appends each line it reads to FILE, after a line
``pid <pid>``, so a test sees what it was told and which processes ran. ``--hold FILE`` holds
each answer while FILE exists (a test makes the program think as long as it likes).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

_HONORS = "ESWNPFC"


def kind(pai: str) -> int:
    if pai in _HONORS:
        return 27 + _HONORS.index(pai)
    return "mps".index(pai[1]) * 9 + int(pai[0]) - 1


def _sets(c: list[int], i: int = 0) -> bool:
    while i < 34 and c[i] == 0:
        i += 1
    if i == 34:
        return True
    if c[i] >= 3:
        c[i] -= 3
        ok = _sets(c, i)
        c[i] += 3
        if ok:
            return True
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        ok = _sets(c, i)
        for k in (i, i + 1, i + 2):
            c[k] += 1
        return ok
    return False


def complete(tiles: list[str]) -> bool:
    """A 14-tile closed hand of four sets and a pair, or seven pairs."""
    c = [0] * 34
    for t in tiles:
        c[kind(t)] += 1
    if sorted(x for x in c if x) == [2] * 7:
        return True
    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            ok = _sets(c)
            c[p] += 2
            if ok:
                return True
    return False


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fault", choices=("garbage", "illegal", "silent", "crash"))
    ap.add_argument("--record")
    ap.add_argument("--hold")
    ap.add_argument("seat", type=int)
    args = ap.parse_args()
    me = args.seat
    record = open(args.record, "a", encoding="utf-8") if args.record else None  # noqa: SIM115
    if record:
        record.write(f"pid {os.getpid()}\n")
        record.flush()
    hand: list[str] = []
    for line in sys.stdin:
        if record:
            record.write(line if line.endswith("\n") else line + "\n")
            record.flush()
        events = json.loads(line)
        for ev in events:
            if ev["type"] == "start_kyoku":
                hand = [t.rstrip("r") for t in ev["tehais"][me]]
        last = events[-1]
        mine = last["type"] == "tsumo" and last["actor"] == me
        if args.fault == "garbage":
            out = "this is not json {"
        elif args.fault == "illegal":
            out = json.dumps({"type": "none"} if mine else {"type": "dahai", "actor": me, "pai": "1m", "tsumogiri": False})
        elif args.fault == "silent":
            time.sleep(3600)
            out = ""
        elif args.fault == "crash":
            sys.exit(3)
        elif mine and complete([*hand, last["pai"].rstrip("r")]):
            out = json.dumps({"type": "hora", "actor": me, "target": me, "pai": last["pai"]})
        elif mine:
            out = json.dumps({"type": "dahai", "actor": me, "pai": last["pai"], "tsumogiri": True})
        else:
            out = json.dumps({"type": "none"})
        while args.hold and os.path.exists(args.hold):
            time.sleep(0.02)
        sys.stdout.write(out + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

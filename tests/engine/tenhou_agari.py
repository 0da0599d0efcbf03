"""Scoring cases from real Tenhou games: every ``AGARI`` as a line in the project's hand grammar.

Not a test module: the scoring tests import :func:`agari_cases` / :func:`all_agari_files`.

Grammar (CLI contract)::

    <concealed tiles> [<meld> ...] (ron|tsumo) <winning tile> [flags]

* concealed tiles exclude the winning tile; melds ``chi(123p) pon(055p) minkan(5555m) ankan(7777s)
  kakan(5555m)`` in call order (kita are not melds: they are the ``kita=N`` flag);
* flags: ``seat= round= from=`` (winds E/S/W/N; dealer = E), ``riichi`` or ``double_riichi`` (never
  both), ``ippatsu haitei houtei rinshan chankan tenhou chiihou``, ``dora=`` (all indicators),
  ``ura=`` (only for a riichi winner), ``honba=N sticks=N`` (only when non-zero),
  ``kita=N players=3|4 ruleset=tenhou``.

Expected values per case: ``fu``, ``points`` (Tenhou ``ten[1]``: hand value without honba and
sticks; for tsumo the sum of all payments), ``han`` (sum of ``yaku`` han, 0 for yakuman hands),
``yakuman`` (number of yakuman ids), ``yaku`` (sorted ``(tenhou id, han)`` with 0-han entries
dropped), ``yakuman_ids`` (sorted), ``limit`` (``ten[2]``), ``file``, ``index`` (0-based AGARI index in
the file).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

_REPO = Path(__file__).resolve().parents[2]
if str(_REPO) not in sys.path:  # pytest's rootdir is not on sys.path by default
    sys.path.insert(0, str(_REPO))

from engine.logs.record import CallKind  # noqa: E402
from engine.logs.tenhou_xml import AgariContext, iter_agari, tile_code  # noqa: E402
from engine.tiles import format_tiles, kind_name  # noqa: E402

SHARED = _REPO.parent / "shared"
TENHOU_XML = SHARED / "data" / "logs" / "tenhou_xml"
_EXCLUDED_DIRS = ("special_lobbies", "wall_from_seed")

WINDS = "ESWN"

# Tenhou yaku ids of the situational flags
_FLAG_YAKU = {2: "ippatsu", 3: "chankan", 4: "rinshan", 5: "haitei", 6: "houtei"}
_FLAG_YAKUMAN = {37: "tenhou", 38: "chiihou"}
_MELD_WORD = {
    CallKind.CHI: "chi",
    CallKind.PON: "pon",
    CallKind.DAIMINKAN: "minkan",
    CallKind.ANKAN: "ankan",
    CallKind.KAKAN: "kakan",
}


def all_agari_files() -> list[Path]:
    """Every Tenhou XML game file (special lobbies and the wall-from-seed vectors left out), sorted."""
    return sorted(
        p
        for p in TENHOU_XML.rglob("*.xml")
        if not any(d in p.relative_to(TENHOU_XML).parts for d in _EXCLUDED_DIRS)
    )


def agari_line(a: AgariContext, *, first_of_hand: bool = True) -> str:
    """The hand-grammar line for one AGARI (see the module docstring).

    ``first_of_hand`` is False for the second winner of a double ron: Tenhou pays honba and sticks
    to the first winner only, so the line carries no ``honba=``/``sticks=`` then.
    """
    red = a["red_fives"]
    concealed = list(a["hand_ids"])
    concealed.remove(a["win_tile_id"])
    parts = [format_tiles((tile_code(t, red) for t in concealed), sort=True)]
    for m in a["melds"]:
        if m.kind == CallKind.KITA:
            continue
        parts.append(f"{_MELD_WORD[m.kind]}({format_tiles((tile_code(t, red) for t in m.tiles), sort=True)})")
    parts.append("tsumo" if a["tsumo"] else "ron")
    parts.append(kind_name(a["win_tile"]))

    n = a["players"]
    flags = [f"seat={WINDS[a['seat_winds'][a['who']]]}", f"round={WINDS[a['round_wind'] % 4]}"]
    if not a["tsumo"]:
        flags.append(f"from={WINDS[a['seat_winds'][a['from_who']]]}")
    yaku_ids = {y for y, _ in a["yaku"]}
    if a["yaku"]:  # an ordinary hand: the yaku list says it all
        riichi, double = bool(yaku_ids & {1, 21}), 21 in yaku_ids
    else:  # yakuman: no yaku list, use the REACH elements
        riichi, double = a["riichi"], a["double_riichi"]
    if double:
        flags.append("double_riichi")
    elif riichi:
        flags.append("riichi")
    flags += [word for y, word in _FLAG_YAKU.items() if y in yaku_ids]
    flags += [word for y, word in _FLAG_YAKUMAN.items() if y in a["yakuman"]]
    flags.append(f"dora={format_tiles(a['dora_indicators'])}")
    if a["ura_indicators"] and riichi:
        flags.append(f"ura={format_tiles(a['ura_indicators'])}")
    if first_of_hand:
        if a["ba_honba"]:
            flags.append(f"honba={a['ba_honba']}")
        if a["ba_sticks"]:
            flags.append(f"sticks={a['ba_sticks']}")
    if n == 3:
        flags.append(f"kita={a['kita']}")
    flags += [f"players={n}", "ruleset=tenhou"]
    return " ".join(parts + flags)


def agari_expected(a: AgariContext, path: str) -> dict[str, Any]:
    return {
        "fu": a["fu"],
        "points": a["points"],
        "han": 0 if a["yakuman"] else sum(h for _, h in a["yaku"]),
        "yakuman": len(a["yakuman"]),
        "yaku": sorted((y, h) for y, h in a["yaku"] if h > 0),
        "yakuman_ids": sorted(a["yakuman"]),
        "limit": a["limit"],
        "file": path,
        "index": a["index"],
    }


def agari_cases(path: str | Path) -> list[tuple[str, dict[str, Any]]]:
    """(line, expected) for every AGARI in one Tenhou XML file, in file order."""
    p = str(path)
    text = Path(path).read_text(encoding="utf-8")
    out: list[tuple[str, dict[str, Any]]] = []
    prev_hand = -1
    for a in iter_agari(text, p):
        out.append((agari_line(a, first_of_hand=a["hand_index"] != prev_hand), agari_expected(a, p)))
        prev_hand = a["hand_index"]
    return out


if __name__ == "__main__":  # python tests/engine/tenhou_agari.py [file ...]: print the cases
    for f in sys.argv[1:] or [str(all_agari_files()[0])]:
        for line, exp in agari_cases(f):
            print(line, "  #", {k: v for k, v in exp.items() if k != "file"})

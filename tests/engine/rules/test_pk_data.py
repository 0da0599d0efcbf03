"""Ruleset ``pk`` against the 10,000 scored hands of kobalab/majiang-core (``hule.json``).

For each hand the expected PK-0 value is computed here, independently of ``engine.rules.pk``, from
the data file's own yaku and han: yaku han (open tanyao removed, PK-10) + dora han + 2 bazoro
gives the row of the spec's table (typed below from pk.md §1), each yakuman one 32000/48000 unit;
honba and riichi sticks as in the base rules. That value is compared with our pk score for every
hand pk accepts as a valid win, where our best reading has the same yaku as the data's (majiang
picks the reading worth most under fu, pk the one with most han; where they differ ours must not
be worth less). The validity side is checked where the data decides it without our code: every
closed riichi hand is valid (riichi is common to every wait), every hand whose only yaku is open
tanyao (PK-10) or menzen tsumo (PK-3) is not.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.scoring import score_line
from tests.engine.datasets import MAJIANG_YAKUMAN, kobalab_cases

DORA = {"dora", "aka_dora", "ura_dora"}
YAKUMAN = set(MAJIANG_YAKUMAN.values())
SITUATIONAL = {"menzen_tsumo", "ippatsu", "haitei", "houtei", "rinshan", "chankan"}
WINDS = "ESWN"

# pk.md §1 PK-0.3: (lowest 翻 of the row incl. bazoro, non-dealer ron, non-dealer tsumo
# (each non-dealer, dealer), dealer tsumo each, dealer ron)
ROWS = [
    (3, 1000, (300, 500), 500, 1500),
    (4, 2000, (500, 1000), 1000, 3000),
    (5, 4000, (1000, 2000), 2000, 6000),
    (6, 8000, (2000, 4000), 4000, 12000),
    (8, 12000, (3000, 6000), 6000, 18000),
    (10, 16000, (4000, 8000), 8000, 24000),
    (13, 24000, (6000, 12000), 12000, 36000),
    (15, 32000, (8000, 16000), 16000, 48000),
]


def _row(table_han: int) -> tuple[int, int, tuple[int, int], int, int]:
    return [r for r in ROWS if table_han >= r[0]][-1]


def _flags(line: str) -> dict[str, str]:
    out = {}
    for tok in line.split():
        key, eq, value = tok.partition("=")
        out[key] = value if eq else "1"
    return out


def expected(
    line: str, yaku: list[tuple[str, int]]
) -> tuple[int, int, dict[str, int], list[tuple[str, int]]]:
    """(table han or 0, points, payments, yaku as pk counts them) from the data's yaku alone."""
    f = _flags(line)
    seat = WINDS.index(f["seat"])
    tsumo = " tsumo " in line
    honba = int(f.get("honba", "0"))
    sticks = int(f.get("sticks", "0"))
    is_open = any(m in line for m in ("chi(", "pon(", "minkan(", "kakan("))
    units = sum(1 for n, _ in yaku if n in YAKUMAN)
    if units:
        ko, kt, ot, oya = 32000 * units, (8000 * units, 16000 * units), 16000 * units, 48000 * units
        counted = [(n, 13) for n, _ in yaku if n in YAKUMAN]
        table = 0
    else:
        counted = [(n, h) for n, h in yaku if not (n == "tanyao" and is_open)]
        table = sum(h for _, h in counted) + 2
        _, ko, kt, ot, oya = _row(table)
    pay = dict.fromkeys(WINDS, 0)
    me = WINDS[seat]
    if tsumo:
        for o in WINDS:
            if o == me:
                continue
            amount = ot if seat == 0 else (kt[1] if o == "E" else kt[0])
            pay[o] = -(amount + 100 * honba)
        points = -sum(pay.values()) - 300 * honba
    else:
        points = oya if seat == 0 else ko
        pay[f["from"]] = -(points + 300 * honba)
    pay[me] = points + 300 * honba + 1000 * sticks
    return table, points, pay, counted


@cache
def _cases() -> list[tuple[str, Any]]:
    return kobalab_cases()


def _pk(line: str) -> dict[str, Any]:
    r = score_line(line.replace("ruleset=majiang", "ruleset=pk"))
    assert "error" not in r, (line, r)
    return r


def test_pk_0_table_matches_kobalab_hands_by_hand_computation() -> None:
    cases = _cases()
    assert len(cases) == 10000
    accepted = same_reading = 0
    bad = []
    for line, exp in cases:
        r = _pk(line)
        if not r["agari"]:
            continue
        accepted += 1
        table, points, pay, counted = expected(line, exp["yaku"])
        ours = sorted((y["name"], y["han"]) for y in r["yaku"])
        if ours == sorted(counted):
            same_reading += 1
            if (r["points"], {k: r["payments"].get(k, 0) for k in WINDS}) != (points, pay):
                bad.append((line, counted, (points, pay), (r["points"], r["payments"])))
            if table and r["table_han"] != table:
                bad.append((line, "table han", table, r["table_han"]))
        elif r["points"] < points:
            bad.append((line, "another reading worth less", counted, ours))
    assert not bad, f"{len(bad)} mismatches:\n" + "\n".join(map(str, bad[:20]))
    # most accepted hands are read the same way by both engines; the rest are compared by value
    assert accepted > 3000 and same_reading > 0.97 * accepted, (accepted, same_reading)


def test_pk_5_kobalab_validity_where_the_data_decides_it() -> None:
    closed_riichi = rejected_kuitan = rejected_tsumo = 0
    for line, exp in _cases():
        f = _flags(line)
        names = {n for n, _ in exp["yaku"]} - DORA
        is_open = any(m in line for m in ("chi(", "pon(", "minkan(", "kakan("))
        if not is_open and ("riichi" in f or "double_riichi" in f) and not names & {"tenhou", "chiihou"}:
            assert _pk(line)["agari"] is True, line  # riichi is a common qualifying yaku
            closed_riichi += 1
        elif is_open and names == {"tanyao"}:
            assert _pk(line)["agari"] is False, line  # PK-10: no kuitan, nothing left
            rejected_kuitan += 1
        elif names and names <= SITUATIONAL and "menzen_tsumo" in names:
            assert _pk(line)["agari"] is False, line  # PK-3: tsumo (and luck) only
            rejected_tsumo += 1
    assert closed_riichi > 1000 and rejected_kuitan > 100 and rejected_tsumo > 50, (
        closed_riichi,
        rejected_kuitan,
        rejected_tsumo,
    )

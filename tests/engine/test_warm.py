"""``python -m engine warm`` builds every ruleset's shanten tables into the on-disk cache, so that a
bot (which calls :func:`engine.rules.warm_up` before it connects) never builds one mid-game."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from engine.rules import ruleset_names


def test_warm_builds_every_table_into_an_empty_cache(tmp_path: Path) -> None:
    env = {**os.environ, "JANTAKU_CACHE": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-m", "engine", "warm"], capture_output=True, text=True, timeout=600, env=env, check=True
    ).stdout
    assert [line.split(":")[0] for line in out.splitlines()] == ruleset_names()
    built = sorted(p.name.rsplit("-", 1)[0] for p in tmp_path.glob("*.npz"))
    # 4 copies with 4 sets (the riichi family, pk, seigou, shoukou) and with 5 sets (taiwan16)
    assert built == ["shanten-4-4", "shanten-4-5"]
    assert not list(tmp_path.glob("*.tmp*")), "a half-written table was left behind"
    # the next process loads them instead of building (and so rewrites nothing)
    stamps = {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()}
    again = subprocess.run(
        [sys.executable, "-m", "engine", "shanten", "123m456p789s1122z"],
        capture_output=True, text=True, timeout=60, env=env, check=True,
    ).stdout
    assert again.startswith("tenpai")
    assert {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()} == stamps

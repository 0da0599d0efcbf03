"""``python -m bot demo``: the no-token path of the README plays a whole game and prints it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_demo_plays_a_whole_game_and_prints_the_final_standings(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("DISCORD_TOKEN", None)
    r = subprocess.run(
        [sys.executable, "-m", "bot", "demo"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "Traceback" not in r.stdout + r.stderr
    final = r.stdout.split("**Table #1 final standings**", 1)[1]
    rows = re.findall(r"^(\d)\. (.+?): (-?\d+) \(([+-]\d+\.\d)\)$", final, re.M)
    assert [int(place) for place, *_ in rows] == [1, 2, 3, 4]
    points = [int(p) for _, _, p, _ in rows]
    assert sum(points) == 100_000 and points == sorted(points, reverse=True)
    assert abs(sum(float(x) for *_, x in rows)) < 0.05  # uma and oka add up to nothing

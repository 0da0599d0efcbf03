"""Replay of every real game in ``shared/data/logs`` through the engine (issue: Engine II).

Every recorded action must be legal at its moment, every hand's score changes and every final
score must equal the log's. Known residuals are listed with their reason; anything else fails.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.logs.replay import ReplayReport, iter_records, replay_record
from tests.conftest import SHARED

LOGS = SHARED / "data" / "logs"

# Games Tenhou played under its 2009 rules, which differ from today's at the end of a game
# (verified on the files): in the first, the dealer was tenpai and top in S4 and play went on
# (no tenpai-yame then); in the second (a tonpuu game, log id type 0001), play went into the South
# round although a player had 36,400 after E4. Our `tenhou` preset follows current Tenhou.
KNOWN = {
    ("2009022022gm-00a9-0000-cd94aac8.xml", "S4-2"),
    ("pantheon_doubleron_and_riichi.xml", "S1-0"),
}


def _groups() -> list[tuple[str, list[Path]]]:
    out: list[tuple[str, list[Path]]] = []
    for d in sorted(p for p in LOGS.rglob("*") if p.is_dir()):
        files = sorted(f for f in d.iterdir() if f.is_file() and f.suffix in (".xml", ".json", ".jsonl", ".mjson"))
        if not files or "wall_from_seed" in d.parts:
            continue
        chunk = 150
        for i in range(0, len(files), chunk):
            out.append((f"{d.relative_to(LOGS)}[{i // chunk}]", files[i : i + chunk]))
    return out


GROUPS = _groups() if LOGS.exists() else []


@pytest.mark.parametrize("files", [g[1] for g in GROUPS], ids=[g[0] for g in GROUPS])
def test_replay_every_game(files: list[Path]) -> None:
    report = ReplayReport()
    for record in iter_records(files, report):
        replay_record(record, report)
    assert not report.errors, report.errors
    unexplained = [m for m in report.mismatches if (Path(m.file).name, m.hand) not in KNOWN]
    assert not unexplained, "\n".join(str(m.to_json()) for m in unexplained)
    if any("special_lobbies" in str(f) for f in files):
        assert report.skipped and report.games == 0
    else:
        assert report.games > 0 and report.hands_exact >= report.hands - len(report.mismatches)


def test_replay_cli_contract_and_bad_files(tmp_path: Path) -> None:
    good = sorted((LOGS / "tenhou6_json" / "pantheon").glob("*.json"))[0]
    xml = sorted((LOGS / "tenhou_xml" / "mixed_4p").glob("*.xml"))[0]
    (tmp_path / "cut.xml").write_text(xml.read_text()[: len(xml.read_text()) * 6 // 10])
    (tmp_path / "junk.json").write_text("{not json")
    out = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(good), str(tmp_path), str(LOGS / "tenhou_xml" / "special_lobbies"), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    r = json.loads(out.stdout)
    assert set(r) == {"games", "hands", "hands_exact", "mismatches", "errors", "skipped"}
    assert r["games"] == 1 and r["hands"] == r["hands_exact"] > 0
    assert {Path(e["file"]).name for e in r["errors"]} == {"cut.xml", "junk.json"}
    assert all("Traceback" not in e["error"] and e["error"] for e in r["errors"])
    assert len(r["skipped"]) == 5
    assert out.returncode == 1  # errors present
    ok = subprocess.run([sys.executable, "-m", "engine", "replay", str(good)], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stdout + ok.stderr

"""Start-up problems end in one plain sentence, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(env_extra: dict[str, str], tmp: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_GUILD", "JANTAKU_DISCORD"))}
    env.update(env_extra)
    return subprocess.run([sys.executable, "-m", "bot"], cwd=tmp, env=env, capture_output=True, text=True, timeout=60)


def test_missing_token_is_one_sentence(tmp_path: Path) -> None:
    r = _run({"PYTHONPATH": str(ROOT)}, tmp_path)
    assert r.returncode == 2
    assert "DISCORD_TOKEN is not set" in r.stdout and "python -m bot demo" in r.stdout
    assert "Traceback" not in r.stdout + r.stderr


def test_bad_setting_is_one_sentence(tmp_path: Path) -> None:
    r = _run({"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "x", "DEV_GUILD_ID": "my-server"}, tmp_path)
    assert r.returncode == 2 and "DEV_GUILD_ID must be a server id" in r.stdout
    assert "Traceback" not in r.stdout + r.stderr


def test_bad_connection_limit_is_one_sentence(tmp_path: Path) -> None:
    r = _run({"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "x", "HTTP_CONNECTIONS": "lots"}, tmp_path)
    assert r.returncode == 2 and "HTTP_CONNECTIONS must be a whole number" in r.stdout
    assert "Traceback" not in r.stdout + r.stderr

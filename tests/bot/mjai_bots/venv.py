"""A virtual environment with the ``mjai`` package (its RulebaseBot), for the tests that seat it.

``mjai`` 0.2.1 pins ``mahjong~=1.2``, which clashes with the test extra's ``mahjong==2.1.0``, so it
lives in its own environment under ``.cache/mjai-venv`` (or ``$JANTAKU_MJAI_VENV_DIR``). Making it
needs the package index (or pip's ``PIP_FIND_LINKS``), so it is made only when
``JANTAKU_MJAI_VENV=1`` asks for it (``python -m tests.bot.mjai_bots.venv`` makes it); an
environment made before is used whenever it is there.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = "mjai==0.2.1"


def venv_dir() -> Path:
    return Path(os.environ.get("JANTAKU_MJAI_VENV_DIR") or ROOT / ".cache" / "mjai-venv")


def _python(d: Path) -> Path:
    return d / "bin" / "python"


def _works(py: Path) -> bool:
    if not py.exists():
        return False
    try:
        done = subprocess.run([str(py), "-c", "import mjai.bot.rulebase"], capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def mjai_python(*, make: bool | None = None) -> tuple[Path | None, str]:
    """The environment's python, or None and the reason it is not there."""
    d = venv_dir()
    py = _python(d)
    if _works(py):
        return py, ""
    if make is None:
        make = os.environ.get("JANTAKU_MJAI_VENV") == "1"
    if not make:
        return None, f"no mjai environment at {d} (JANTAKU_MJAI_VENV=1 makes it; it needs the package index)"
    try:
        venv.EnvBuilder(with_pip=True, clear=True).create(d)
        done = subprocess.run(
            [str(py), "-m", "pip", "install", "-q", PACKAGE], capture_output=True, text=True, timeout=600
        )
    except (OSError, subprocess.SubprocessError) as e:
        return None, f"could not make the mjai environment at {d}: {e}"
    if done.returncode != 0 or not _works(py):
        return None, f"could not install {PACKAGE} into {d}: {done.stderr.strip()[-300:]}"
    return py, ""


if __name__ == "__main__":
    path, why = mjai_python(make=True)
    print(path or why)
    sys.exit(0 if path else 1)

"""Where the bench's outside opponents live: PyPI packages installed by the bench, outside the venv.

``jansou`` (pure Python) is imported in process: from the venv when the ``bench`` extra is
installed, otherwise from ``bench/.deps`` (``pip install --target``, made on first use). The
``mjai`` package (0.2.1 pins ``mahjong~=1.2``, which clashes with our ``mahjong==2.1.0``) gets
its own virtual environment, ``bench/.venv-mjai``, made on first use; its bot runs there as a
subprocess (bench/mjai_driver.py). Both folders are ignored by git.
"""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

BENCH = Path(__file__).resolve().parent
DEPS = BENCH / ".deps"
MJAI_VENV = BENCH / ".venv-mjai"
MJAI_REQUIREMENT = "mjai==0.2.1"


def import_jansou() -> None:
    """Make ``import jansou`` work: the venv's copy, else ``bench/.deps`` (installed if missing)."""
    try:
        import jansou  # noqa: F401

        return
    except ImportError:
        pass
    if not (DEPS / "jansou").is_dir():
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "-q", "--target", str(DEPS), "jansou"], check=True
        )
    sys.path.insert(0, str(DEPS))
    import jansou  # noqa: F401,F811


def mjai_python() -> Path:
    """The python of the mjai venv, made (with ``mjai==0.2.1``) on first use."""
    py = MJAI_VENV / "bin" / "python"
    if not py.exists():
        venv.EnvBuilder(with_pip=True, clear=True).create(MJAI_VENV)
    probe = subprocess.run([str(py), "-c", "import mjai.bot.rulebase"], capture_output=True)
    if probe.returncode:
        subprocess.run([str(py), "-m", "pip", "install", "-q", MJAI_REQUIREMENT], check=True)
    return py

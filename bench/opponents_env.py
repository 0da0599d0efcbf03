"""Where the bench's outside opponents live: PyPI packages installed by the bench, outside the venv.

``jansou`` (pure Python) is imported in process: from the venv when the ``bench`` extra is
installed, otherwise from ``bench/.deps`` (``pip install --target``, made on first use). The
``mjai`` package (0.2.1 pins ``mahjong~=1.2``, which clashes with our ``mahjong==2.1.0``) gets
its own virtual environment, the one the tests that seat it use (tests/bot/mjai_bots/venv.py:
``.cache/mjai-venv``), made on first use; its bot runs there as a subprocess
(bench/mjai_driver.py). Both folders are ignored by git.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
DEPS = BENCH / ".deps"


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
    from tests.bot.mjai_bots.venv import mjai_python as made

    py, why = made(make=True)
    if py is None:
        raise SystemExit(why)
    return py

"""The project's whole test command: lint, strict typing of the engine, then the test suite.

``python -m tools.check`` is what README's test command and ``.ci/run`` run.
"""

from __future__ import annotations

import subprocess
import sys


def run(cmd: list[str]) -> int:
    print("$", " ".join(cmd), flush=True)
    return subprocess.call(cmd)


def main() -> int:
    py = sys.executable
    steps = [
        [py, "-m", "ruff", "check", "engine", "bot", "cogs", "devserver", "tests", "bench", "tools"],
        [py, "-m", "mypy", "--strict", "engine"],
        # the shanten tables once, before two test workers would each build them (~17 s cold)
        [py, "-m", "engine", "warm"],
        [py, "-m", "pytest", "-n", "2", "tests"],
    ]
    for cmd in steps:
        rc = run(cmd)
        if rc != 0:
            print(f"FAILED: {' '.join(cmd)} (exit {rc})", flush=True)
            return rc
    return 0


if __name__ == "__main__":
    sys.exit(main())

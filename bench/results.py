"""Writing one benchmark's section of bench/RESULTS.md, leaving the other sections alone."""

from __future__ import annotations

from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


def write_section(name: str, text: str, path: Path = RESULTS) -> None:
    head = f"## {name}"
    body = f"{head}\n\n```\n{text}\n```\n"
    old = path.read_text() if path.exists() else "# Benchmark results\n\n"
    line = head + "\n"  # the whole heading line: "## x" must not match "## x --think 2"
    at = old.find("\n" + line)
    if old.startswith(line) or at >= 0:
        start = 0 if old.startswith(line) else at + 1
        nxt = old.find("\n## ", start + len(head))
        old = old[:start] + body + ("\n" + old[nxt + 1 :] if nxt >= 0 else "")  # the blank line kept
    else:
        old = old.rstrip("\n") + "\n\n" + body
    path.write_text(old)

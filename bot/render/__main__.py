"""``python -m bot.render [DIR]``: write the sample pictures (default /tmp/render_samples)."""

from __future__ import annotations

import sys

from .samples import write_samples


def main(argv: list[str]) -> int:
    out = argv[0] if argv else "/tmp/render_samples"
    for name, (size, ms) in write_samples(out).items():
        print(f"{out}/{name}.png  {size / 1024:6.1f} KB  {ms:6.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

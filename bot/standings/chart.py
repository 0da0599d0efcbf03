"""The rating-over-time picture for ``/stats`` (matplotlib, Agg backend, no pyplot state).

:func:`rating_chart` is CPU work: the service calls it through ``asyncio.to_thread`` so the event
loop never waits on it. Kept lean for speed: fixed margins instead of ``tight_layout``, a few ticks,
and the PNG written by Pillow at a low compression level.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")

from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402
from PIL import Image  # noqa: E402


def rating_chart(ratings: Sequence[float], *, title: str, label: str = "rating") -> bytes:
    """A PNG line chart of ``ratings`` after each game (x = game number)."""
    fig = Figure(figsize=(5, 2.2), dpi=72)
    canvas = FigureCanvasAgg(fig)
    fig.subplots_adjust(left=0.11, right=0.98, top=0.86, bottom=0.16)
    ax = fig.add_subplot(1, 1, 1)
    ax.plot(range(1, len(ratings) + 1), list(ratings), color="#2b7bb9", linewidth=1.2)
    ax.set_title(title, fontsize=9)
    ax.set_ylabel(label, fontsize=7)
    ax.xaxis.set_major_locator(MaxNLocator(5, integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(4))
    ax.tick_params(labelsize=7)
    ax.grid(True, alpha=0.3)
    canvas.draw()
    w, h = canvas.get_width_height()
    img = Image.frombuffer("RGBA", (w, h), canvas.buffer_rgba(), "raw", "RGBA", 0, 1).convert("RGB")
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()

"""The rating-over-time picture for ``/stats`` (matplotlib, Agg backend, no pyplot state).

:func:`rating_chart` is CPU work: the service calls it through ``asyncio.to_thread`` so the event
loop never waits on it. Building a matplotlib figure (axes, ticks, spines, text objects) costs more
than drawing it, so one small figure is built once per process and reused: each call only replaces
the line's data, the limits and the two texts, then draws. Matplotlib is not thread-safe, so a lock
serialises the calls on that figure. Fixed margins instead of ``tight_layout``, a few ticks, and the
PNG written by Pillow at a low compression level.

Words in the reader's language: the caller gives the title and the y label already translated;
the x label comes from the catalogs in ``lang``, and in Japanese every text of the chart (title,
labels) is drawn in the bundled Japanese font (:data:`bot.render.fonts.JA_FONT`), which
matplotlib's default DejaVu cannot replace (it has no kana or kanji).

Sized for a phone: Discord's mobile client shows a picture about 360 px wide, so the chart is drawn
at 720 x 540 (4:3, twice that width) with fonts of 13-15 pt at 144 dpi, which are 13-15 px tall on
such a screen.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence

import matplotlib

from bot.i18n import DEFAULT, Lang, t
from bot.render.fonts import JA_FONT

matplotlib.use("Agg")

import numpy as np  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.font_manager import FontProperties  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.text import Text  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402
from PIL import Image  # noqa: E402

SIZE_INCHES = (5.0, 3.75)
DPI = 144  # 720 x 540 pixels, shown about 360 px wide on a phone: 1 pt of font is then 1 px there
TITLE_PT, LABEL_PT, TICK_PT = 15, 13, 13
LINE_COLOR = "#2b7bb9"
PNG_COMPRESS_LEVEL = 1  # zlib level: barely smaller at 9, for far more time


class _Chart:
    """One reusable figure: an axes with a grid, one line, a title and a y label."""

    def __init__(self) -> None:
        fig = Figure(figsize=SIZE_INCHES, dpi=DPI)
        self.canvas = FigureCanvasAgg(fig)
        fig.subplots_adjust(left=0.19, right=0.94, top=0.87, bottom=0.17)
        ax: Axes = fig.add_subplot(1, 1, 1)
        self.line: Line2D = ax.plot([], [], color=LINE_COLOR, linewidth=2.0, markersize=7)[0]
        # fixed places for the title and the axis labels: matplotlib would otherwise measure every
        # tick label on each draw to find room for them
        self.title: Text = ax.set_title("", fontsize=TITLE_PT, y=1.0, pad=8)
        self.ylabel: Text = ax.set_ylabel("rating", fontsize=LABEL_PT)
        self.xlabel: Text = ax.set_xlabel("games played", fontsize=LABEL_PT)
        self.lang: Lang = DEFAULT
        self.default_font = self.title.get_fontproperties().copy()
        ax.yaxis.set_label_coords(-0.17, 0.5)
        ax.xaxis.set_label_coords(0.5, -0.13)
        ax.xaxis.set_major_locator(MaxNLocator(5, integer=True))
        ax.yaxis.set_major_locator(MaxNLocator(4))
        ax.tick_params(labelsize=TICK_PT)
        ax.grid(True, alpha=0.3)
        ax.set_autoscale_on(False)  # the limits are set per chart below
        self.ax = ax

    def _fit_title(self, title: str) -> None:
        """The title, cut with an ellipsis where it would run off the picture (wide letters, long names)."""
        self.title.set_text(title)
        renderer = self.canvas.get_renderer()  # type: ignore[no-untyped-call]
        width = self.canvas.figure.bbox.width
        box = self.ax.get_position()  # the title is centred over the axes, not the picture
        centre = (box.x0 + box.x1) / 2 * width
        room = 2 * min(centre, width - centre) - 8
        cut = len(title)
        while cut > 1 and self.title.get_window_extent(renderer).width > room:
            cut -= 1
            self.title.set_text(title[:cut].rstrip() + "…")

    def _set_lang(self, lang: Lang) -> None:
        """The words' font and the x label for ``lang`` (changed only when the language does)."""
        if lang == self.lang:
            return
        self.lang = lang
        family = _ja_font() if lang == "ja" else self.default_font
        for text, size in ((self.title, TITLE_PT), (self.ylabel, LABEL_PT), (self.xlabel, LABEL_PT)):
            fp = family.copy()
            fp.set_size(size)
            text.set_fontproperties(fp)
        self.xlabel.set_text(t(lang, "games played"))

    def render(self, ratings: Sequence[float], title: str, label: str, lang: Lang = DEFAULT) -> Image.Image:
        ys = np.array(ratings, dtype=float)  # a copy: the caller's sequence stays as it was
        ys[~np.isfinite(ys)] = np.nan  # a gap in the line, never an infinite limit
        n = len(ys)
        xs = np.arange(1, n + 1)
        self.line.set_data(xs, ys)
        self.line.set_marker("o" if n == 1 else "None")  # a single game is a point, not a line
        self._set_lang(lang)
        self._fit_title(title)
        self.ylabel.set_text(label)
        # the same 5% margins matplotlib's autoscale would give, without its relim/autoscale pass
        x0, x1 = (0.0, 2.0) if n <= 1 else (1 - 0.05 * (n - 1), n + 0.05 * (n - 1))
        finite = ys[np.isfinite(ys)]
        lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        pad = 0.05 * (hi - lo) if hi > lo else max(1.0, abs(lo) * 0.05)
        self.ax.set_xlim(x0, x1)
        self.ax.set_ylim(lo - pad, hi + pad)
        self.canvas.draw()  # type: ignore[no-untyped-call]
        w, h = self.canvas.get_width_height()
        rgba = self.canvas.buffer_rgba()  # type: ignore[no-untyped-call]
        return Image.frombuffer("RGBA", (w, h), rgba, "raw", "RGBA", 0, 1).convert("RGB")  # a copy of the canvas


def _ja_font() -> FontProperties:
    return FontProperties(fname=str(JA_FONT))


_lock = threading.Lock()
_chart: _Chart | None = None


def rating_chart(ratings: Sequence[float], *, title: str, label: str = "rating", lang: Lang = DEFAULT) -> bytes:
    """A PNG line chart of ``ratings`` after each game (x = game number), its words in ``lang``.
    Thread-safe."""
    if not ratings:
        raise ValueError("a rating chart needs at least one rating")
    global _chart
    with _lock:
        if _chart is None:
            _chart = _Chart()
        img = _chart.render(ratings, title, label, lang)
    buf = io.BytesIO()  # encoding needs only the copy: outside the lock, zlib lets another chart draw meanwhile
    img.save(buf, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()

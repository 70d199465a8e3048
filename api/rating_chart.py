"""A rating history drawn as a small SVG line (server-side: no script, no external asset).

The line is the conservative rating (``mu - 3 sigma``) after each rated match, oldest on the
left; the axis labels are its lowest and highest values. Every number is formatted here and
every text escaped, so the SVG can be inlined in a page as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

WIDTH, HEIGHT, PAD = 360, 96, 6
LABEL = 44  # room for the axis labels on the left


def points(values: Sequence[float], width: int = WIDTH, height: int = HEIGHT
           ) -> list[tuple[float, float]]:
    """The (x, y) of each value in the plot area (higher value, smaller y)."""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    left, right, top, bottom = LABEL, width - PAD, PAD, height - PAD
    step = (right - left) / max(1, len(values) - 1)
    return [(round(left + i * step, 1),
             round(bottom - (value - low) / span * (bottom - top), 1))
            for i, value in enumerate(values)]


def history_svg(history: Sequence[dict[str, Any]], title: str) -> str:
    """An ``<svg>`` element: the conservative rating after each match of ``history``."""
    values = [float(entry["conservative"]) for entry in history]
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" class="rating-chart" role="img" '
            f'width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}">'
            f"<title>{escape(title)}</title>")
    if not values:
        return (head + f'<text x="{WIDTH // 2}" y="{HEIGHT // 2}" text-anchor="middle">'
                "no rated match yet</text></svg>")
    plotted = points(values)
    line = " ".join(f"{x},{y}" for x, y in plotted)
    low, high = min(values), max(values)
    last_x, last_y = plotted[-1]
    return (head
            + f'<line class="axis" x1="{LABEL}" y1="{PAD}" x2="{LABEL}" y2="{HEIGHT - PAD}" '
              'stroke="currentColor" stroke-opacity="0.3"/>'
            + f'<text x="{LABEL - 4}" y="{PAD + 8}" text-anchor="end" font-size="10">'
              f"{high:.1f}</text>"
            + f'<text x="{LABEL - 4}" y="{HEIGHT - PAD}" text-anchor="end" font-size="10">'
              f"{low:.1f}</text>"
            + f'<polyline class="rating-line" fill="none" stroke="currentColor" '
              f'stroke-width="2" points="{line}"/>'
            + f'<circle cx="{last_x}" cy="{last_y}" r="3" fill="currentColor"/>'
            + "</svg>")

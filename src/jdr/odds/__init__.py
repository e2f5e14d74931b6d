"""Exact distributions: the odds of a check come from its own definition (see jdr.core.check).

This package renders them: percentages and a bar chart for the terminal.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction


def percent(p: Fraction | float | None) -> str:
    if p is None:
        return "—"
    return f"{float(p) * 100:.2f} %".replace(".", ",")


def bar_chart(distribution: Sequence[tuple[int, Fraction]], width: int = 40) -> list[str]:
    """One line per total: the total, its probability, a bar proportional to it."""
    if not distribution:
        return []
    top = max(float(p) for _, p in distribution)
    pad = max(len(str(t)) for t, _ in distribution)
    lines = []
    for total, p in distribution:
        length = round(float(p) / top * width) if top else 0
        lines.append(f"{total:>{pad}} {percent(p):>8} {'█' * length}")
    return lines

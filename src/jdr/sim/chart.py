"""The chart of a simulation (matplotlib, imported only here): the chance of each outcome with
its 95 % interval, and the distribution of the number of rounds. PNG or SVG."""

from __future__ import annotations

import io
from pathlib import Path

from jdr.errors import JdrError
from jdr.sim.report import percent
from jdr.sim.summary import Simulation

FORMATS = {".png": "png", ".svg": "svg"}
COLOURS = ("#1f5fa8", "#b3261e", "#5f6368")  # camp 1, camp 2, nul (AA contrast on white)


def _figure(sim: Simulation) -> object:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.6), width_ratios=(1, 1.6))
    # ticks at 1, 2 or 5 × 10ⁿ of a fraction (never 2,5 %), read to the first useful decimal
    shown = FuncFormatter(lambda y, _: f"{y * 100:.1f}".rstrip("0").rstrip(".").replace(".", ",")
                          + " %")
    for axis in (left, right):
        axis.yaxis.set_major_locator(MaxNLocator(steps=[1, 2, 5, 10]))
        axis.yaxis.set_major_formatter(shown)
    right.xaxis.set_major_locator(MaxNLocator(integer=True))
    labels = ["Camp 1", "Camp 2", "Nul"]
    values = [sim.win[0], sim.win[1], sim.draw]
    low = [sim.win[i] - sim.ci95[i][0] for i in (0, 1)] + [0.0]
    high = [sim.ci95[i][1] - sim.win[i] for i in (0, 1)] + [0.0]
    left.bar(labels, values, color=COLOURS, yerr=[low, high], capsize=4)
    for x, value in enumerate(values):
        left.text(x, value + 0.02, percent(value), ha="center", fontsize=9)
    left.set_ylim(0, 1.12)
    left.set_ylabel("chance")
    left.set_title("Issue du combat")
    rounds = [(r, p) for r, p in sorted(sim.rounds.items()) if p >= 0.001] or [(0, 0.0)]
    right.bar([r for r, _ in rounds], [p for _, p in rounds], color=COLOURS[0])
    right.set_xlabel("round de la fin du combat")
    right.set_ylabel("part des combats")
    right.set_title(f"Rounds (moyenne {sim.rounds_mean:.2f})".replace(".", ","))
    fig.tight_layout()
    return fig


def render(sim: Simulation, kind: str) -> bytes:
    """The chart as PNG or SVG bytes."""
    import matplotlib.pyplot as plt

    fig = _figure(sim)
    buffer = io.BytesIO()
    fig.savefig(buffer, format=kind, dpi=110, metadata={"Date": None} if kind == "svg" else None)  # type: ignore[attr-defined]
    plt.close(fig)  # type: ignore[arg-type]
    return buffer.getvalue()


def write(sim: Simulation, path: str) -> Path:
    """`--graphique F.png|F.svg`: the chart written there (French error for another suffix)."""
    target = Path(path)
    kind = FORMATS.get(target.suffix.lower())
    if kind is None:
        raise JdrError(f"--graphique {path[:80]} : un fichier .png ou .svg")
    data = render(sim, kind)
    try:
        target.write_bytes(data)
    except OSError as exc:
        from jdr.core.sheet import os_reason

        raise JdrError(f"--graphique {path[:80]} : écriture impossible ({os_reason(exc)})") from None
    return target

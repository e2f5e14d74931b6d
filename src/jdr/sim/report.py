"""A simulation in French, as `jdr simuler` prints it and the table page shows it."""

from __future__ import annotations

from jdr.sim.fight import TACTICS
from jdr.sim.summary import Simulation


def percent(p: float) -> str:
    return f"{p * 100:.1f} %".replace(".", ",")


def number(value: float, digits: int = 1) -> str:
    return f"{value:.{digits}f}".replace(".", ",")


def whole(value: int) -> str:
    return f"{value:,}".replace(",", " ")


def _names(names: tuple[str, ...]) -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " et " + names[-1]


def headline(sim: Simulation) -> str:
    how = ("calcul exact" if sim.exact else f"{whole(sim.n)} combats simulés"
           + ("" if sim.compiled else " un à un"))
    return f"Simulation ({how}) : {_names(sim.sides[0])} contre {_names(sim.sides[1])}"


def side_lines(sim: Simulation) -> list[str]:
    out = []
    for i, names in enumerate(sim.sides):
        low, high = sim.ci95[i]
        interval = "" if sim.exact else f" (intervalle à 95 % : {percent(low)} à {percent(high)})"
        out.append(f"Camp {i + 1} ({_names(names)}, tactique « {sim.tactics[i]} ») : "
                   f"victoire {percent(sim.win[i])}{interval}")
    out.append(f"Match nul : {percent(sim.draw)}")
    return out


def rounds_line(sim: Simulation, shown: int = 12) -> str:
    seen = [(r, p) for r, p in sorted(sim.rounds.items()) if p >= 0.0005]  # 0,1 % or more
    parts = [f"{r} : {percent(p)}" for r, p in seen[:shown]]
    more = " …" if len(seen) > shown else ""
    return (f"Rounds : {number(sim.rounds_mean, 2)} en moyenne ; répartition "
            + " · ".join(parts) + more)


def character_lines(sim: Simulation) -> list[str]:
    return [f"  {c.name} (camp {c.side + 1}) : tombe {percent(c.fall)}, meurt {percent(c.death)}, "
            f"santé restante {number(c.health_left_mean)} en moyenne" for c in sim.characters]


def to_text(sim: Simulation) -> str:
    lines = [headline(sim), *side_lines(sim), rounds_line(sim), "Personnages :",
             *character_lines(sim)]
    lines += [f"Note : {note}" for note in sim.notes]
    used = sorted(set(sim.tactics))
    lines += [f"Tactique « {t} » : {TACTICS[t]}" for t in used]
    return "\n".join(lines)

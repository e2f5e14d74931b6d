"""`jdr simuler A [B…] contre C [D…]`: who wins this encounter, in how many rounds, on the real
sheets (`jdr.sim`). Sheet files or names in a campaign; `NOM×N` (or `NOM*N`) for N copies; in a
campaign, an NPC group's name with a count takes its first member as the model. Nothing is
written (but the chart, when asked). numpy is imported only inside the command."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer

KW = inspect.Parameter.KEYWORD_ONLY

HELP = ("Simule N combats de deux camps sur les vraies fiches : chances de victoire (intervalle à "
        "95 %), nuls, rounds, chute et mort de chacun. Exemple : jdr simuler nain.yaml elfe.yaml "
        "contre gobelin.yaml*4")


@contextmanager
def _progress(total: int, label: str, wanted: bool) -> Iterator[Callable[[int], None] | None]:
    """A rich progress bar on stderr, only on a terminal and for a long run."""
    if not wanted or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.update(task, completed=done)


def _int(text: str | None, where: str, lo: int, hi: int, default: int | None) -> int | None:
    from jdr.core.options import parse_int

    return default if text is None else parse_int(text, where, lo, hi)


def _print(text: str) -> None:
    from jdr.cli.output import print_plain

    print_plain(text)


def _one(words: list[str], ws: Any, n: int, seed: int | None, tactics: list[str] | None,
         as_json: bool, chart: str | None) -> None:
    from jdr.sim.pick import resolve, split_sides
    from jdr.sim.report import to_text
    from jdr.sim.run import simulate

    system, sides = resolve(ws, split_sides(words))
    with _progress(n, "Combats", n >= 5_000) as tick:
        result = simulate(system, sides, n, seed, tactics, progress=tick)
    if chart is not None:
        from jdr.sim.chart import write

        write(result, chart)
    import json

    _print(json.dumps(result.to_json(), ensure_ascii=False, indent=2) if as_json
           else to_text(result))


def _sweep(words: list[str], ws: Any, spec: str, n: int, seed: int | None,
           tactics: list[str] | None, as_json: bool, dask: str | None) -> None:
    from jdr.sim.pick import counted, resolve, split_sides
    from jdr.sim.run import tactics_of
    from jdr.sim.sweep import parse, plains_at, run_tasks, seeds, words_at

    sweep = parse(spec)
    chosen = tactics_of(tactics)
    tasks = []
    for value, point_seed in zip(sweep.values, seeds(seed, len(sweep.values)), strict=True):
        sides_words = words_at(split_sides(words), sweep, value)
        system, sides = resolve(ws, sides_words)
        refs = [[counted(w)[0] for w in side for _ in range(counted(w)[1])] for side in sides_words]
        tasks.append((system.id, plains_at(system, sides, refs, sweep, value), n, point_seed, chosen))
    with _progress(len(tasks), "Points du balayage", dask is None) as tick:
        results = run_tasks(tasks, None if dask == "local" else dask, dask is None, tick)
    points: list[dict[str, Any]] = [{"value": v, "simulation": r}
                                    for v, r in zip(sweep.values, results, strict=True)]
    if as_json:
        import json

        _print(json.dumps({"type": "balayage", "parameter": sweep.label, "points": points},
                          ensure_ascii=False, indent=2))
        return
    from jdr.sim.report import percent

    lines = [f"Balayage : {sweep.label}, {n} combats par point"]
    for point in points:
        sim = point["simulation"]
        lo, hi = sim["sides"][0]["ci95"]
        how = "exact" if sim["exact"] else f"{percent(lo)} à {percent(hi)}"
        lines.append(f"  {point['value']} : camp 1 gagne {percent(sim['sides'][0]['win'])} "
                     f"({how}), nul {percent(sim['draw'])}, "
                     f"{sim['rounds']['mean']:.2f} rounds en moyenne".replace(".", ","))
    _print("\n".join(lines))


def simulate_cmd(
    personnages: Annotated[list[str], typer.Argument(
        metavar="A [B…] contre C [D…]", help="Les deux camps, séparés par « contre » : fichiers de "
        "fiche ou noms de la campagne ; NOM×N ou NOM*N pour N copies (un groupe de PNJ par son "
        "nom).")],
    n: str | None = None,  # from the declaration (`signature`)
    graine: str | None = None,  # from the declaration (`signature`)
    as_json: Annotated[bool, typer.Option("--json", help="Sortie JSON.")] = False,
    graphique: Annotated[str | None, typer.Option(
        "--graphique", metavar="F.png|F.svg", help="Écrit le graphique (PNG ou SVG).")] = None,
    tactique: list[str] | None = None,  # its values from the declaration (`signature`)
    balayer: Annotated[str | None, typer.Option(
        "--balayer", metavar="NOM=A..B|NOM:chemin=A..B",
        help="Répète la simulation pour chaque valeur : nombre de copies, ou valeur de fiche.")] = None,
    dask: Annotated[str | None, typer.Option(
        "--dask", metavar="local|tcp://HOTE:PORT",
        help="Balayage sur Dask : grappe locale, ou l'adresse d'un ordonnanceur.")] = None,
    campagne: Annotated[str | None, typer.Option(
        "--campagne", help="Campagne : fichier .jdr ou adresse postgresql+psycopg://…[#NOM].")] = None,
) -> None:
    """Simule un combat : qui gagne, en combien de rounds, sur les vraies fiches."""
    from jdr.campaign.workspace import workspace
    from jdr.errors import JdrError
    from jdr.sim.params import bounds
    from jdr.sim.pick import refs_of, split_sides
    from jdr.sim.run import DEFAULT_N, MAX_N

    count = _int(n, "--n", bounds("n")[0], MAX_N, DEFAULT_N)
    assert count is not None
    number = _int(graine, "--seed", *bounds("graine"), None)
    if dask is not None and balayer is None:
        raise JdrError("--dask sert au balayage (--balayer)")
    with workspace(refs_of(split_sides(personnages)), campagne, write=False) as ws:
        if balayer is not None:
            _sweep(personnages, ws, balayer, count, number, tactique, as_json, dask)
        else:
            _one(personnages, ws, count, number, tactique, as_json, graphique)


def _words(values: list[str]) -> str:
    return ", ".join(values[:-1]) + " ou " + values[-1] if len(values) > 1 else "".join(values)


def signature() -> inspect.Signature:
    """The command's parameters: `--n` and `--seed` are the declaration's `n` and `graine` (their
    help and range; `--n` up to the engine's bound, `jdr.sim.run.MAX_N`, not the table's), the
    tactics its choices; the others are the command line's own."""
    from jdr.cli.derive import parameter
    from jdr.core.declare import ACTIONS
    from jdr.sim.run import MAX_N

    action = ACTIONS["simuler"]
    declared = {p.name: p for p in action.params}
    tactics = [value for value, _ in declared["tactique1"].choices]
    derived = {
        "n": parameter(declared["n"]._replace(hi=MAX_N)),
        "graine": parameter(declared["graine"]),
        "tactique": inspect.Parameter("tactique", KW, default=None, annotation=Annotated[
            list[str] | None, typer.Option("--tactique", metavar="TACTIQUE", help=(
                f"{_words(tactics)} ; une pour les deux camps, ou répétée : camp 1 puis camp 2."))]),
    }
    own = inspect.signature(simulate_cmd, eval_str=True).parameters.values()
    return inspect.Signature([derived.get(p.name, p.replace(kind=KW)) for p in own])


class Command:
    """`jdr simuler` as typer builds it: its signature read from the declaration the first time
    typer asks for it (`jdr lancer` builds only its own command, and reads none of this)."""

    def __init__(self) -> None:
        self.__annotations__: dict[str, Any] = {}  # what typing.get_type_hints reads
        self.__name__ = self.__qualname__ = "simuler"
        self._signature: inspect.Signature | None = None

    @property
    def __signature__(self) -> inspect.Signature:
        if self._signature is None:
            self._signature = signature()
        return self._signature

    def __call__(self, **values: Any) -> None:
        simulate_cmd(**values)


def register(app: Any) -> None:
    app.command("simuler", help=HELP)(Command())

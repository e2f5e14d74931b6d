"""`jdr` command line: parse, call the use-case layer (`jdr.core.usecase`), render. Never imports a
system: systems are found through the registry.

Every command renders first, then commits the sheets, then prints what it rendered: an output
that cannot be produced never leaves a changed sheet behind.
"""

import sys
from collections.abc import Callable
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Annotated, Any

import typer

from jdr.errors import JdrError

APP_SETTINGS: dict[str, Any] = {
    "name": "jdr",
    "help": "Moteur de règles et table de jeu pour jeux de rôle (cydonia, maitrise, dd35, cyd, felins).",
    "no_args_is_help": True,
    "add_completion": False,
    "pretty_exceptions_enable": False,
    "rich_markup_mode": None,
}
app = typer.Typer(**APP_SETTINGS)
sheet_app = typer.Typer(help="Fiches de personnage : modèle, vérification, affichage.",
                        no_args_is_help=True, rich_markup_mode=None)
session_app = typer.Typer(help="Sessions de jeu.", no_args_is_help=True, rich_markup_mode=None)
app.add_typer(sheet_app, name="sheet")
app.add_typer(session_app, name="session")

SEED_MAX = 999_999_999

JsonOpt = Annotated[bool, typer.Option("--json", help="Sortie JSON (pour les scripts).")]
SeedOpt = Annotated[str | None, typer.Option(
    "--seed", metavar="GRAINE", help=f"Graine (entier de 0 à {SEED_MAX}) : jets reproductibles.")]
DesOpt = Annotated[str | None, typer.Option(
    "--des", metavar="FACES",
    help="Faces lancées à la main, dans l'ordre des règles (ex. 8,6 ; 0 vaut 10 sur un d10 ; "
         "voir jdr aide).")]
OptOpt = Annotated[list[str] | None, typer.Option(
    "--opt", metavar="CLE=VALEUR",
    help="Option propre au système, cle=valeur (répétable ; voir jdr aide SYSTEME).")]
FormatOpt = Annotated[str, typer.Option("--format", metavar="FORMAT", help="texte, forum (BBCode) ou json.")]
DetailOpt = Annotated[bool, typer.Option("--detail", help="Montre les numéros de règle.")]
DryOpt = Annotated[bool, typer.Option("--dry-run", help="Ne modifie aucune fiche.")]
ContreOpt = Annotated[str | None, typer.Option(
    "--contre", metavar="FICHE[:COMPETENCE]",
    help="Jet opposé : FICHE ou FICHE:COMPETENCE (par défaut, ce que les règles opposent).")]
SeuilOpt = Annotated[str | None, typer.Option(
    "--seuil", metavar="SEUIL", help="Seuil : un nombre ou un nom de l'échelle (facile, difficile, ...).")]
CaracOpt = Annotated[str | None, typer.Option("--carac", metavar="CARAC", help="Caractéristique à utiliser.")]
BonusOpt = Annotated[str, typer.Option(
    "--bonus", metavar="N", help="Bonus (ou malus si négatif) du MJ, de -1000 à 1000.")]
ChoixOpt = Annotated[str | None, typer.Option(
    "--choix", metavar="N", help="Dé gardé au choix du joueur (1, 2, ...) pour un jet à plusieurs dés.")]
DeOpt = Annotated[str | None, typer.Option("--de", metavar="DE", help="Dé choisi (cyd : d10 ou d20).")]


def _arg(help_text: str, metavar: str) -> Any:
    return typer.Argument(help=help_text, metavar=metavar, show_default=False)


FicheArg = Annotated[Path, _arg("Fiche du personnage (YAML).", "FICHE")]


# ------------------------------------------------------------------ helpers


class Output:
    """What a command will print, decided before anything is committed."""

    def __init__(self, fmt: str, as_json: bool, detail: bool) -> None:
        if as_json:
            fmt = "json"
        if fmt == "text":
            fmt = "texte"
        if fmt not in ("texte", "forum", "json"):
            raise JdrError(f"--format « {fmt[:40]} » inconnu (autorisé : texte, forum, json)")
        self.fmt = fmt
        self.detail = detail

    def render(self, result: Any) -> Callable[[], None]:
        """Render now; return the printing step (called after the commit)."""
        if self.fmt == "texte" and sys.stdout.isatty():
            from jdr.render.text import styled

            lines = styled(result, self.detail)
            return lambda: _print_rich(lines)
        from jdr.render import render

        text = render(result, self.fmt, self.detail)
        return lambda: _print_plain(text)


def _print_plain(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _print_rich(lines: list[list[tuple[str, str]]]) -> None:
    from rich.console import Console
    from rich.text import Text

    console = Console(highlight=False, soft_wrap=True)
    for line in lines:
        text = Text()
        for part, style in line:
            text.append(part, style=style or None)
        console.print(text)


def _int(value: str | None, where: str, lo: int, hi: int) -> int | None:
    if value is None:
        return None
    from jdr.core.options import parse_int

    return parse_int(value, where, lo, hi)


def _source(seed: str | None, des: str | None) -> Any:
    from jdr.dice.source import make_source

    return make_source(_int(seed, "--seed", 0, SEED_MAX), des)


def _split_contre(value: str) -> tuple[Path, str | None]:
    """`FICHE` or `FICHE:COMPETENCE`; a path that exists as written wins over the split."""
    if Path(value).is_file() or ":" not in value:
        return Path(value), None
    path, skill = value.rsplit(":", 1)
    return Path(path), (skill or None)


def _run(system: Any, action: str, call: Callable[[Any], Any], out: Output, source: Any = None,
         dry_run: bool = False) -> None:
    from jdr.core.usecase import prepare

    pending = prepare(system, action, call, source, dry_run)
    show = out.render(pending.result)
    pending.commit()
    show()


# ------------------------------------------------------------------ commands


@app.command("systems")
def systems_cmd(as_json: JsonOpt = False) -> None:
    """Liste les systèmes de jeu installés et les actions que chacun joue."""
    from jdr.core.registry import available, get_system

    rows = []
    for sid in available():
        system = get_system(sid)
        rows.append({"id": sid, "title": system.title, "actions": sorted(system.actions)})
    if as_json:
        from jdr.render.json import dumps

        _print_plain(dumps(rows))
    else:
        _print_plain("\n".join(f"{r['id']:<10} {r['title']}\n{'':<10} actions : {', '.join(r['actions'])}"
                               for r in rows))


@app.command("roll")
def roll_cmd(
    expression: Annotated[str, _arg("Expression de dés, ex. 2d10kh1+6.", "EXPRESSION")],
    seed: SeedOpt = None,
    des: DesOpt = None,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
    detail: DetailOpt = False,
) -> None:
    """Lance une expression de dés libre (4d6kh3, 1d20+5>=15, 3d6rr1, 1d6!)."""
    from jdr.dice.notation import roll
    from jdr.dice.source import finish

    out = Output(fmt, as_json, detail)
    source = _source(seed, des)
    result = roll(expression, source)
    finish(source)
    out.render(result)()


def _check_request(fiche: Path, competence: str, carac: str | None, seuil: str | None,
                   contre: str | None, bonus: str, choix: str | None, de: str | None,
                   opt: list[str] | None, action: str) -> tuple[Any, Any]:
    from jdr.core.system import CheckRequest
    from jdr.core.usecase import open_sheets, options

    if contre is not None and seuil is not None:
        raise JdrError("--seuil et --contre s'excluent : un jet a un seuil OU un adversaire")
    paths = [fiche]
    opponent_skill = None
    if contre is not None:
        path, opponent_skill = _split_contre(contre)
        paths.append(path)
    system, loaded = open_sheets(paths)
    request = CheckRequest(
        actor=loaded[0], skill=competence, carac=carac, threshold=seuil,
        opponent=loaded[1] if contre is not None else None, opponent_skill=opponent_skill,
        bonus=_int(bonus, "--bonus", -1000, 1000) or 0, choice=_int(choix, "--choix", 1, 100),
        die=de, options=options(system, action, opt),
    )
    return system, request


@app.command("check")
def check_cmd(
    fiche: FicheArg,
    competence: Annotated[str, _arg("Compétence, caractéristique ou résistance.", "COMPETENCE")],
    carac: CaracOpt = None,
    seuil: SeuilOpt = None,
    contre: ContreOpt = None,
    bonus: BonusOpt = "0",
    choix: ChoixOpt = None,
    de: DeOpt = None,
    opt: OptOpt = None,
    des: DesOpt = None,
    seed: SeedOpt = None,
    dry_run: DryOpt = False,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
    detail: DetailOpt = False,
) -> None:
    """Fait un jet de compétence contre un seuil ou contre un autre personnage."""
    out = Output(fmt, as_json, detail)
    system, request = _check_request(fiche, competence, carac, seuil, contre, bonus, choix, de,
                                     opt, "check")
    _run(system, "check", lambda src: system.check(request, src), out, _source(seed, des), dry_run)


@app.command("odds")
def odds_cmd(
    fiche: FicheArg,
    competence: Annotated[str, _arg("Compétence, caractéristique ou arme.", "COMPETENCE")],
    carac: CaracOpt = None,
    seuil: SeuilOpt = None,
    contre: ContreOpt = None,
    bonus: BonusOpt = "0",
    choix: ChoixOpt = None,
    de: DeOpt = None,
    opt: OptOpt = None,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
    detail: DetailOpt = False,
) -> None:
    """Chances exactes d'un jet : réussite, critiques et distribution des totaux."""
    from jdr.core.system import Outcome

    out = Output(fmt, as_json, detail)
    system, request = _check_request(fiche, competence, carac, seuil, contre, bonus, choix, de,
                                     opt, "odds")
    _run(system, "odds", lambda _src: Outcome(system.odds(request)), out)


@app.command("attack")
def attack_cmd(
    attaquant: Annotated[Path, _arg("Fiche de l'attaquant.", "ATTAQUANT")],
    defenseur: Annotated[Path, _arg("Fiche du défenseur.", "DEFENSEUR")],
    arme: Annotated[str | None, typer.Option("--arme", metavar="ARME", help="Arme utilisée.")] = None,
    defense: Annotated[str | None, typer.Option(
        "--defense", metavar="DEFENSE",
        help="Défense (esquive, bouclier, cac, ... selon le système).")] = None,
    visee: Annotated[str | None, typer.Option("--visee", metavar="ZONE", help="Zone visée.")] = None,
    critique: Annotated[str | None, typer.Option(
        "--critique", metavar="CHOIX",
        help="Option de critique (maitrise : rapidite, degats, precision, mj).")] = None,
    complete: Annotated[bool, typer.Option("--complete", help="Attaque complète (dd35).")] = False,
    opt: OptOpt = None,
    des: DesOpt = None,
    seed: SeedOpt = None,
    dry_run: DryOpt = False,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
    detail: DetailOpt = False,
) -> None:
    """Résout une attaque entière : attaque, défense, localisation, dégâts, état."""
    from jdr.core.system import AttackRequest
    from jdr.core.usecase import open_sheets, options, same_character

    out = Output(fmt, as_json, detail)
    system, (a, d) = open_sheets([attaquant, defenseur])
    if same_character(a, d):
        raise JdrError("un personnage ne peut pas s'attaquer lui-même "
                       "(même fiche en attaquant et en défenseur)")
    request = AttackRequest(a, d, arme, defense, visee, critique, complete,
                            options(system, "attack", opt))
    _run(system, "attack", lambda src: system.attack(request, src), out, _source(seed, des), dry_run)


@app.command("xp")
def xp_cmd(
    fiche: FicheArg,
    competence: Annotated[str | None, typer.Option(
        "--competence", metavar="COMPETENCE", help="Compétence à monter.")] = None,
    carac: Annotated[str | None, typer.Option(
        "--carac", metavar="CARAC", help="Caractéristique à monter.")] = None,
    pv: Annotated[bool, typer.Option("--pv", help="Acheter des points de vie.")] = False,
    opt: OptOpt = None,
    dry_run: DryOpt = False,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
    detail: DetailOpt = False,
) -> None:
    """Dépense de l'expérience : coût, XP disponible, fiche mise à jour."""
    from jdr.core.system import XpRequest
    from jdr.core.usecase import open_sheets, options

    out = Output(fmt, as_json, detail)
    chosen = [x for x in (competence, carac) if x] + (["pv"] if pv else [])
    if len(chosen) != 1:
        raise JdrError("jdr xp : choisir exactement un achat parmi --competence, --carac, --pv")
    system, (loaded,) = open_sheets([fiche])
    request = XpRequest(loaded, competence, carac, pv, options(system, "xp", opt))
    _run(system, "xp", lambda _src: system.xp(request), out, None, dry_run)


def _group(action: str, fiches: list[Path], opt: list[str] | None) -> tuple[Any, Any]:
    from jdr.core.system import GroupRequest
    from jdr.core.usecase import open_sheets, options

    system, loaded = open_sheets(fiches)
    return system, GroupRequest(tuple(loaded), options(system, action, opt))


@app.command("initiative")
def initiative_cmd(
    fiches: Annotated[list[Path], _arg("Fiches des combattants.", "FICHES")],
    opt: OptOpt = None,
    des: DesOpt = None,
    seed: SeedOpt = None,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
    detail: DetailOpt = False,
) -> None:
    """Ordre de jeu, avec les départages qui l'ont décidé."""
    out = Output(fmt, as_json, detail)
    system, request = _group("initiative", fiches, opt)
    _run(system, "initiative", lambda src: system.initiative(request, src), out, _source(seed, des))


@app.command("duel")
def duel_cmd(
    a: Annotated[Path, _arg("Fiche du provocateur.", "A")],
    b: Annotated[Path, _arg("Fiche du provoqué.", "B")],
    opt: OptOpt = None,
    des: DesOpt = None,
    seed: SeedOpt = None,
    dry_run: DryOpt = False,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
    detail: DetailOpt = False,
) -> None:
    """Duel (felins : duel de provocation ; cyd : duel)."""
    out = Output(fmt, as_json, detail)
    system, request = _group("duel", [a, b], opt)
    _run(system, "duel", lambda src: system.duel(request, src), out, _source(seed, des), dry_run)


@session_app.command("new")
def session_new_cmd(
    fiches: Annotated[list[Path], _arg("Fiches des personnages.", "FICHES")],
    dry_run: DryOpt = False,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
    detail: DetailOpt = False,
) -> None:
    """Nouvelle session de jeu : remet à zéro ce qui se remet à zéro (prédilections, ...)."""
    out = Output(fmt, as_json, detail)
    system, request = _group("session", fiches, None)
    _run(system, "session", lambda _src: system.new_session(request), out, None, dry_run)


@sheet_app.command("new")
def sheet_new_cmd(
    systeme: Annotated[str, _arg("cydonia, maitrise, dd35, cyd ou felins.", "SYSTEME")],
    sortie: Annotated[Path | None, typer.Option(
        "--sortie", "-o", metavar="FICHIER", help="Fichier à écrire (sinon, affichage).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Écrit un modèle de fiche commenté."""
    from jdr.core.registry import get_system
    from jdr.core.sheet import write_atomic
    from jdr.render.json import dumps

    system = get_system(systeme)
    text = system.template()
    if sortie is None:
        _print_plain(dumps({"system": system.id, "template": text}) if as_json else text.rstrip("\n"))
        return
    from jdr.core.sheet import os_reason, shown_path

    try:
        if sortie.exists():
            raise JdrError(f"{shown_path(sortie)} existe déjà : je n'écrase pas une fiche")
        write_atomic(sortie, text)
    except (OSError, ValueError) as exc:
        raise JdrError(f"--sortie {shown_path(sortie)} : écriture impossible ({os_reason(exc)})") from None
    _print_plain(dumps({"system": system.id, "path": str(sortie)}) if as_json
                 else f"Fiche {system.id} écrite : {shown_path(sortie)}")


@sheet_app.command("check")
def sheet_check_cmd(
    fiche: Annotated[Path, _arg("Fiche à vérifier.", "FICHE")],
    creation: Annotated[bool, typer.Option(
        "--creation", help="Vérifie aussi les règles de création (budgets).")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Vérifie une fiche et liste tous ses problèmes d'un coup."""
    from jdr.core.registry import get_system
    from jdr.core.sheet import SheetDocument
    from jdr.core.usecase import load
    from jdr.errors import SheetError
    from jdr.render.json import dumps
    from jdr.render.safe import clean

    doc = SheetDocument.load(fiche)
    system = get_system(doc.system_id)
    try:
        loaded = load(system, doc)
        problems = system.creation_problems(loaded) if creation else []
    except SheetError as exc:
        problems = exc.problems or [exc.message]
    if as_json:
        _print_plain(dumps({"valid": not problems, "problems": problems}))
    elif problems:
        sys.stderr.write(f"{clean(str(fiche))} : {len(problems)} problème(s)\n")
        for p in problems:
            sys.stderr.write(f"  - {clean(p)}\n")
    else:
        _print_plain(f"{clean(str(fiche))} : fiche {system.id} valide")
    if problems:
        raise typer.Exit(2)


@sheet_app.command("show")
def sheet_show_cmd(
    fiche: Annotated[Path, _arg("Fiche à afficher.", "FICHE")],
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
    detail: DetailOpt = False,
) -> None:
    """Affiche une fiche et ses valeurs dérivées."""
    from jdr.core.usecase import open_sheets

    out = Output(fmt, as_json, detail)
    system, (loaded,) = open_sheets([fiche])
    out.render(system.show(loaded))()


@app.command("aide")
def aide_cmd(
    systeme: Annotated[str, _arg("cydonia, maitrise, dd35, cyd ou felins.", "SYSTEME")],
    as_json: JsonOpt = False,
) -> None:
    """Aide d'un système : caractéristiques, compétences, seuils, défenses, options, ordre des dés."""
    from jdr.cli.aide import describe

    _print_plain(describe(systeme, as_json))


@app.command("demo")
def demo_cmd(
    systeme: Annotated[str, _arg("Système (cydonia par défaut).", "SYSTEME")] = "cydonia",
    seed: SeedOpt = None,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
    detail: DetailOpt = False,
) -> None:
    """Démonstration : une courte scène du système choisi."""
    from jdr.core.registry import get_system

    out = Output(fmt, as_json, detail)
    system = get_system(systeme)
    out.render(system.demo(_source(seed, None)))()


def _version(value: bool) -> None:
    if value:
        from jdr import __version__

        _print_plain(f"jdr {__version__}")
        raise typer.Exit(0)


@app.callback()
def main_callback(
    version: Annotated[bool, typer.Option("--version", help="Affiche la version et quitte.",
                                          callback=_version, is_eager=True)] = False,
) -> None:
    """Moteur de règles et table de jeu pour jeux de rôle (cydonia, maitrise, dd35, cyd, felins)."""


def _only(name: str) -> typer.Typer | None:
    """A copy of `app` holding the one command (or group) `name`, or None if there is none."""
    chosen = [c for c in app.registered_commands if c.name == name]
    groups = [g for g in app.registered_groups if g.name == name]
    if not chosen and not groups:
        return None
    one = typer.Typer(**APP_SETTINGS)
    one.registered_commands = chosen
    one.registered_groups = groups
    one.registered_callback = app.registered_callback
    return one


@cache
def command(name: str | None = None) -> Any:
    """The click command tree, built once per process: French help, plain conversions.

    With `name` (the first argument), only that command is built: typer reads the signature of
    every command it builds, and a `jdr roll` has no use for the fourteen others. Help, typos
    and suggestions (`jdr rol`) get the whole tree."""
    from jdr.cli import french, params

    source = (_only(name) if name else None) or app
    return params.install(french.install(typer.main.get_command(source)))


def _wants_json(args: list[str]) -> bool:
    if "--json" in args or "--format=json" in args:
        return True
    return any(a == "--format" and b == "json" for a, b in pairwise(args))


def main(argv: list[str] | None = None) -> int:
    """Run the CLI in process; return the exit code. French errors on one line, exit code 2;
    under `--json` (or `--format json`), the error is `{"error": "..."}` on stdout."""
    from typer._click.exceptions import NoArgsIsHelpError

    args = list(sys.argv[1:] if argv is None else argv)
    wants_json = _wants_json(args)
    try:
        name = args[0] if args and not args[0].startswith("-") else None
        code = command(name).main(args=args, prog_name="jdr", standalone_mode=False)
        return code if isinstance(code, int) else 0
    except JdrError as exc:
        return _error(exc, wants_json, exc.exit_code)
    except typer.Exit as exc:
        return int(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        sys.stderr.write("Interrompu.\n")
        return 130
    except BrokenPipeError:
        return 141
    except NoArgsIsHelpError as exc:  # `jdr`, `jdr sheet`: the help, as asked
        _print_plain(exc.ctx.get_help())
        return 0
    except OSError as exc:
        from jdr.core.sheet import os_reason

        return _error(JdrError(f"erreur système : {os_reason(exc)}"), wants_json, 2)
    except Exception as exc:
        from jdr.cli.french import usage_message

        message = usage_message(exc)
        if message is None:
            raise
        return _error(JdrError(message), wants_json, 2)


def _error(exc: JdrError, wants_json: bool, code: int) -> int:
    """One line `Erreur : ...` on stderr (a sheet's problems follow, one per line), or JSON."""
    from jdr.errors import SheetError
    from jdr.render.safe import clean

    problems = exc.problems if isinstance(exc, SheetError) else []
    head = exc.message.split("\n", 1)[0] if problems else exc.message
    if wants_json:
        from jdr.render.json import error

        sys.stdout.write(error(clean(head)) + "\n")
    else:
        lines = [f"Erreur : {clean(head)}"] + [f"  - {clean(p)}" for p in problems]
        sys.stderr.write("\n".join(lines) + "\n")
    return code


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()

"""`jdr` command line: parse, call the use-case layer (`jdr.core.usecase`), render. Never imports a
system: systems are found through the registry.

Output first (`jdr.cli.output.output_first`): every command writes its whole output, then commits;
an output that cannot be written leaves no change, a commit failing after it says so in French.
"""

import sys
from functools import cache
from pathlib import Path
from typing import Annotated, Any

import typer

from jdr.cli.output import MjOpt, output_first, print_error, print_plain, setup_streams, wants_json_output
from jdr.cli.output import Output as Output  # re-exported: jdr.cli.campaign imports it from here
from jdr.errors import JdrError

APP_SETTINGS: dict[str, Any] = {
    "name": "jdr",
    "help": "Moteur de règles et table de jeu pour jeux de rôle (systèmes installés : jdr systems).",
    "no_args_is_help": True,
    "add_completion": False,
    "pretty_exceptions_enable": False,
    "rich_markup_mode": None,
}
app = typer.Typer(**APP_SETTINGS)
sheet_app = typer.Typer(help="Fiches de personnage : modèle, vérification, affichage.",
                        no_args_is_help=True, rich_markup_mode=None)
session_app = typer.Typer(help="Sessions de jeu.", no_args_is_help=True, rich_markup_mode=None)
app.add_typer(sheet_app, name="fiche")
app.add_typer(sheet_app, name="sheet", hidden=True)  # the English name, kept as an alias
app.add_typer(session_app, name="session")


def _campaign_commands() -> None:
    """The campaign's commands, and `jdr simuler` (issue 20): each module registers its own."""
    from jdr.cli import campaign, simulate

    campaign.register(app)
    simulate.register(app)


_campaign_commands()

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
FormatOpt = Annotated[str, typer.Option("--format", metavar="FORMAT", help="texte, forum, discord ou json.")]
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


def _int(value: str | None, where: str, lo: int, hi: int) -> int | None:
    if value is None:
        return None
    from jdr.core.options import parse_int

    return parse_int(value, where, lo, hi)


def _source(seed: str | None, des: str | None) -> Any:
    from jdr.dice.source import make_source

    return make_source(_int(seed, "--seed", 0, SEED_MAX), des)


CampOpt = Annotated[str | None, typer.Option(
    "--campagne", metavar="CAMPAGNE",
    help="Campagne (fichier .jdr ou adresse postgresql+psycopg://…) : les personnages sont "
         "alors des noms. Sinon JDR_CAMPAGNE, ou le seul fichier .jdr du dossier.")]
PersoArg = Annotated[str, _arg("Fiche YAML, ou nom du personnage dans une campagne.", "FICHE")]


def _chooser(out: Output) -> Any:
    """After the dice are shown, ask the player (on a terminal, text output); else the default."""
    from jdr.core.system import default_choice

    if out.fmt != "texte" or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return default_choice

    def ask(question: Any) -> str:
        if question.shown is not None:
            out.render(question.shown)()
        choices = "/".join(question.choices)
        answer = input(f"{question.prompt} [{choices}] (défaut : {question.default}) ? ").strip()
        return answer if answer in question.choices else question.default

    return ask


def _campaign_in_use(campagne: str | None) -> bool:
    from jdr.campaign.db import CampaignError, find_target

    try:
        find_target(campagne)
    except CampaignError:
        return False
    return True


def _roll(expression: str, out: Output, seed: str | None, des: str | None) -> None:
    """A free roll outside any campaign: the dice parser alone (fast start)."""
    from jdr.dice.notation import roll
    from jdr.dice.source import finish

    source = _source(seed, des)
    result = roll(expression, source)
    finish(source)
    out.render(result)()


def _act(kind: str, params: dict[str, Any], out: Output, seed: str | None = None, des: str | None = None,
         dry_run: bool = False, campagne: str | None = None, mj: bool = False) -> None:
    """One action, files or campaign: load, act, validate, render, print, then commit."""
    if kind == "roll" and not _campaign_in_use(campagne):
        _roll(params["expression"], out, seed, des)  # nothing to load, nothing to journal
        return
    from jdr.campaign.workspace import workspace
    from jdr.core.actions import commit, execute, journaled, refs_of
    from jdr.core.actions import rolls as declared_rolls

    params = {k: v for k, v in params.items() if v is not None and v != []}
    rolls = declared_rolls(kind, params)  # the declaration says whether the action rolls
    source = _source(seed, des) if rolls or des is not None else None
    write = journaled(kind) and not dry_run
    with output_first(write) as shown, workspace(refs_of(kind, params), campagne, write, mj) as ws:
        if source is not None and write and ws.journaled:
            from jdr.campaign.seance import reason_of, use_seance

            source = use_seance(ws.tx, source, reason_of(seed, des))  # type: ignore[attr-defined]
        done = execute(ws, kind, params, source, dry_run=dry_run, chooser=_chooser(out))
        shown(out.render(done.result, ws.override))  # and the MJ's override, as journaled
        commit(ws, done)


# ------------------------------------------------------------------ commands


@app.command("systemes")
def systems_cmd(as_json: JsonOpt = False) -> None:
    """Liste les systèmes de jeu installés et les actions que chacun joue."""
    from jdr.core.registry import available, get_system

    rows = []
    for sid in available():
        system = get_system(sid)
        rows.append({"id": sid, "title": system.title, "actions": sorted(system.actions)})
    if as_json:
        from jdr.render.json import dumps

        print_plain(dumps(rows))
    else:
        print_plain("\n".join(f"{r['id']:<10} {r['title']}\n{'':<10} actions : {', '.join(r['actions'])}"
                               for r in rows))


@app.command("lancer")
def roll_cmd(
    expression: Annotated[str, _arg("Expression de dés, ex. 2d10kh1+6.", "EXPRESSION")],
    seed: SeedOpt = None,
    des: DesOpt = None,
    campagne: CampOpt = None,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
    detail: DetailOpt = False,
    verifiable: Annotated[bool, typer.Option(
        "--verifiable", help="Jet de forum vérifiable, tiré de l'engagement (jdr engagement).")] = False,
    engagement: Annotated[Path | None, typer.Option(
        "--engagement", metavar="FICHIER",
        help="Fichier d'engagement (défaut .jdr-engagement.json).")] = None,
) -> None:
    """Lance une expression de dés libre (4d6kh3, 1d20+5>=15, 3d6rr1, 1d6!)."""
    if verifiable or engagement is not None:
        if seed is not None or des is not None:
            raise JdrError("--verifiable : les dés viennent de l'engagement, pas de --seed ni --des")
        from jdr.cli.verifiable import verifiable_roll

        verifiable_roll(expression, engagement, fmt, as_json)
        return
    _act("roll", {"expression": expression}, Output(fmt, as_json, detail), seed, des,
         campagne=campagne)


def _check_params(fiche: str, competence: str, carac: str | None, seuil: str | None,
                  contre: str | None, bonus: str, choix: str | None, de: str | None,
                  opt: list[str] | None) -> dict[str, Any]:
    return {"personnage": fiche, "competence": competence, "carac": carac, "seuil": seuil,
            "contre": contre, "bonus": None if bonus == "0" else bonus, "choix": choix, "de": de,
            "opt": opt}


@app.command("test")
def check_cmd(
    fiche: PersoArg,
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
    campagne: CampOpt = None,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
    detail: DetailOpt = False,
) -> None:
    """Fait un jet de compétence contre un seuil ou contre un autre personnage."""
    _act("check", _check_params(fiche, competence, carac, seuil, contre, bonus, choix, de, opt),
         Output(fmt, as_json, detail), seed, des, dry_run, campagne)


@app.command("chances")
def odds_cmd(
    fiche: Annotated[str, _arg("Expression de dés (10d10cs>=7), ou fiche.", "EXPRESSION|FICHE")],
    competence: Annotated[str | None, _arg("Compétence, caractéristique ou arme.", "COMPETENCE")] = None,
    carac: CaracOpt = None,
    seuil: SeuilOpt = None,
    contre: ContreOpt = None,
    bonus: BonusOpt = "0",
    choix: ChoixOpt = None,
    de: DeOpt = None,
    opt: OptOpt = None,
    campagne: CampOpt = None,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
    detail: DetailOpt = False,
) -> None:
    """Chances exactes d'un jet (fiche et compétence) ou d'une expression de dés (10d10cs>=7)."""
    out = Output(fmt, as_json, detail)
    if competence is None:
        from jdr.cli.dice import expression_odds

        expression_odds(fiche, out)
        return
    _act("odds", _check_params(fiche, competence, carac, seuil, contre, bonus, choix, de, opt),
         out, campagne=campagne)


@app.command("attaque")
def attack_cmd(
    attaquant: Annotated[str, _arg("Fiche ou nom de l'attaquant.", "ATTAQUANT")],
    defenseur: Annotated[str, _arg("Fiche ou nom du défenseur.", "DEFENSEUR")],
    arme: Annotated[str | None, typer.Option("--arme", metavar="ARME", help="Arme utilisée.")] = None,
    defense: Annotated[str | None, typer.Option(
        "--defense", metavar="DEFENSE",
        help="Défense (esquive, bouclier, cac, ... selon le système).")] = None,
    visee: Annotated[str | None, typer.Option("--visee", metavar="ZONE", help="Zone visée.")] = None,
    critique: Annotated[str | None, typer.Option(
        "--critique", metavar="CHOIX",
        help="Option de critique choisie d'avance, si le système en a (voir jdr aide SYSTEME).")] = None,
    complete: Annotated[bool, typer.Option(
        "--complete", help="Attaque complète, si le système en a (voir jdr aide SYSTEME).")] = False,
    opt: OptOpt = None,
    des: DesOpt = None,
    seed: SeedOpt = None,
    dry_run: DryOpt = False, mj: MjOpt = False,
    campagne: CampOpt = None,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
    detail: DetailOpt = False,
) -> None:
    """Résout une attaque entière : attaque, défense, localisation, dégâts, état."""
    params = {"attaquant": attaquant, "defenseur": defenseur, "arme": arme, "defense": defense,
              "visee": visee, "critique": critique, "complete": complete or None, "opt": opt}
    _act("attack", params, Output(fmt, as_json, detail), seed, des, dry_run, campagne, mj)


@app.command("xp")
def xp_cmd(
    fiche: PersoArg,
    competence: Annotated[str | None, typer.Option(
        "--competence", metavar="COMPETENCE", help="Compétence à monter.")] = None,
    carac: Annotated[str | None, typer.Option(
        "--carac", metavar="CARAC", help="Caractéristique à monter.")] = None,
    pv: Annotated[bool, typer.Option("--pv", help="Acheter des points de vie.")] = False,
    opt: OptOpt = None,
    dry_run: DryOpt = False,
    campagne: CampOpt = None,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
    detail: DetailOpt = False,
) -> None:
    """Dépense de l'expérience : coût, XP disponible, fiche mise à jour."""
    params = {"personnage": fiche, "competence": competence, "carac": carac, "pv": pv or None,
              "opt": opt}
    _act("xp", params, Output(fmt, as_json, detail), dry_run=dry_run, campagne=campagne)


@app.command("initiative")
def initiative_cmd(
    fiches: Annotated[list[str], _arg("Fiches ou noms des combattants.", "FICHES")],
    opt: OptOpt = None,
    des: DesOpt = None,
    seed: SeedOpt = None,
    campagne: CampOpt = None,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
    detail: DetailOpt = False,
) -> None:
    """Ordre de jeu, avec les départages qui l'ont décidé."""
    _act("initiative", {"personnages": fiches, "opt": opt}, Output(fmt, as_json, detail), seed,
         des, campagne=campagne)


@app.command("duel")
def duel_cmd(
    a: Annotated[str, _arg("Fiche ou nom du provocateur.", "A")],
    b: Annotated[str, _arg("Fiche ou nom du provoqué.", "B")],
    opt: OptOpt = None,
    des: DesOpt = None,
    seed: SeedOpt = None,
    dry_run: DryOpt = False,
    campagne: CampOpt = None,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
    detail: DetailOpt = False,
) -> None:
    """Duel : le provocateur contre le provoqué (si le système a des duels)."""
    _act("duel", {"personnages": [a, b], "opt": opt}, Output(fmt, as_json, detail), seed, des,
         dry_run, campagne)


@app.command("regle")
def regle_cmd(
    nom: Annotated[str, _arg("Règle du système (voir jdr aide SYSTEME).", "REGLE")],
    personnages: Annotated[list[str] | None, _arg(
        "Fiches ou noms, dans l'ordre que la règle nomme.", "PERSONNAGES")] = None,
    opt: OptOpt = None,
    chances: Annotated[bool, typer.Option("--chances", help="Chances exactes, sans rien lancer.")] = False,
    des: DesOpt = None,
    seed: SeedOpt = None,
    dry_run: DryOpt = False, mj: MjOpt = False,
    campagne: CampOpt = None,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
    detail: DetailOpt = False,
) -> None:
    """Joue une règle propre au système (torture, négociation, soigner, manœuvre, ...)."""
    params = {"nom": nom, "personnages": personnages, "opt": opt, "chances": chances or None}
    _act("regle", params, Output(fmt, as_json, detail), seed, des, dry_run, campagne, mj)


@app.command("sante")
def sante_cmd(
    fiche: PersoArg,
    valeur: Annotated[str, _arg("12 (fixe), +3 ou -5 (changement), dans l'unité du système (PV, blessures…).",
                                "VALEUR")],
    dry_run: DryOpt = False,
    campagne: CampOpt = None,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
    detail: DetailOpt = False,
) -> None:
    """Dégâts ou soins à la main (décision du MJ), journalisés dans une campagne."""
    _act("sante", {"personnage": fiche, "valeur": valeur}, Output(fmt, as_json, detail),
         dry_run=dry_run, campagne=campagne)


@session_app.command("nouvelle")
def session_new_cmd(
    fiches: Annotated[list[str], _arg("Fiches ou noms des personnages.", "FICHES")],
    dry_run: DryOpt = False,
    campagne: CampOpt = None,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
    detail: DetailOpt = False,
) -> None:
    """Nouvelle session de jeu : remet à zéro ce qui se remet à zéro (prédilections, ...)."""
    _act("session", {"personnages": fiches}, Output(fmt, as_json, detail), dry_run=dry_run,
         campagne=campagne)


@sheet_app.command("nouvelle")
def sheet_new_cmd(
    systeme: Annotated[str, _arg("Identifiant du système (jdr systems).", "SYSTEME")],
    sortie: Annotated[Path | None, typer.Option(
        "--sortie", "-o", metavar="FICHIER", help="Fichier à écrire (sinon, affichage).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Écrit un modèle de fiche commenté."""
    from jdr.core.registry import get_system
    from jdr.core.sheet import os_reason, shown_path, write_atomic
    from jdr.render.json import dumps

    system = get_system(systeme)
    text = system.template()
    if sortie is None:
        print_plain(dumps({"system": system.id, "template": text}) if as_json else text.rstrip("\n"))
        return
    where = shown_path(sortie)
    try:
        if sortie.exists():
            raise JdrError(f"{where} existe déjà : je n'écrase pas une fiche")
    except (OSError, ValueError) as exc:
        raise JdrError(f"--sortie {where} : écriture impossible ({os_reason(exc)})") from None
    with output_first() as shown:  # a failed write after the output: « rien n'a été enregistré »
        shown(lambda: print_plain(dumps({"system": system.id, "path": str(sortie)}) if as_json
                                  else f"Fiche {system.id} écrite : {where}"))
        write_atomic(sortie, text)


@sheet_app.command("verifier")
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
        print_plain(dumps({"valid": not problems, "problems": problems}))
    elif problems:
        sys.stderr.write(f"{clean(str(fiche))} : {len(problems)} problème(s)\n")
        for p in problems:
            sys.stderr.write(f"  - {clean(p)}\n")
    else:
        print_plain(f"{clean(str(fiche))} : fiche {system.id} valide")
    if problems:
        raise typer.Exit(2)


@sheet_app.command("voir")
def sheet_show_cmd(
    fiche: Annotated[str, _arg("Fiche à afficher, ou nom dans une campagne.", "FICHE")],
    campagne: CampOpt = None,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
    detail: DetailOpt = False,
) -> None:
    """Affiche une fiche et ses valeurs dérivées."""
    _act("show", {"personnage": fiche}, Output(fmt, as_json, detail), campagne=campagne)


@app.command("aide")
def aide_cmd(
    systeme: Annotated[str, _arg("Identifiant du système (jdr systems).", "SYSTEME")],
    as_json: JsonOpt = False,
) -> None:
    """Aide d'un système : caractéristiques, compétences, seuils, défenses, options, ordre des dés."""
    from jdr.cli.aide import describe

    print_plain(describe(systeme, as_json))


@app.command("demo")
def demo_cmd(
    systeme: Annotated[str | None, _arg("Système (par défaut le premier installé).", "SYSTEME")] = None,
    seed: SeedOpt = None,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
    detail: DetailOpt = False,
) -> None:
    """Démonstration : une courte scène du système choisi."""
    from jdr.core.registry import available, get_system
    system = get_system(systeme if systeme is not None else available()[0])
    Output(fmt, as_json, detail).render(system.demo(_source(seed, None)))()


from jdr.cli.aliases import register as _aliases  # noqa: E402 (after every command)

_aliases(app, sheet_app, session_app)


def _version(value: bool) -> None:
    if value:
        from jdr import __version__

        print_plain(f"jdr {__version__}")
        raise typer.Exit(0)


@app.callback()
def main_callback(
    version: Annotated[bool, typer.Option("--version", help="Affiche la version et quitte.",
                                          callback=_version, is_eager=True)] = False,
) -> None:
    """Moteur de règles et table de jeu pour jeux de rôle (systèmes installés : jdr systems)."""


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
    every command it builds, and a `jdr lancer` has no use for the fourteen others. Help, typos
    and suggestions (`jdr rol`) get the whole tree."""
    from jdr.cli import french, params

    source = (_only(name) if name else None) or app
    return params.install(french.install(typer.main.get_command(source)))


def main(argv: list[str] | None = None) -> int:
    """Run the CLI in process; return the exit code. French errors on one line, exit code 2;
    under `--json` (or `--format json`), the error is `{"error": "..."}` on stdout."""
    from typer._click.exceptions import NoArgsIsHelpError

    from jdr.cli.dice import dice_first

    args = dice_first(list(sys.argv[1:] if argv is None else argv))
    setup_streams()
    wants_json = wants_json_output(args)
    try:
        name = args[0] if args and not args[0].startswith("-") else None
        code = command(name).main(args=args, prog_name="jdr", standalone_mode=False)
        return code if isinstance(code, int) else 0
    except JdrError as exc:
        return print_error(exc, wants_json, exc.exit_code)
    except typer.Exit as exc:
        return int(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        sys.stderr.write("Interrompu.\n")
        return 130
    except BrokenPipeError:  # help or usage text into a closed pipe (stdout quieted at exit)
        return 141
    except NoArgsIsHelpError as exc:  # `jdr`, `jdr fiche`: the help, as asked
        print_plain(exc.ctx.get_help())
        return 0
    except OSError as exc:
        from jdr.core.sheet import os_reason

        return print_error(JdrError(f"erreur système : {os_reason(exc)}"), wants_json, 2)
    except Exception as exc:
        from jdr.cli.french import usage_message

        message = usage_message(exc)
        if message is None:
            raise
        return print_error(JdrError(message), wants_json, 2)


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()

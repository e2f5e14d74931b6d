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

from jdr.cli.output import Output as Output  # re-exported: jdr.cli.campaign imports it from here
from jdr.cli.output import output_first, print_error, print_plain, setup_streams, wants_json_output
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

JsonOpt = Annotated[bool, typer.Option("--json", help="Sortie JSON (pour les scripts).")]
SeedOpt = Annotated[str | None, typer.Option(
    "--seed", metavar="GRAINE", help="Graine (entier de 0 à 999 999 999) : jets reproductibles.")]
FormatOpt = Annotated[str, typer.Option("--format", metavar="FORMAT", help="texte, forum, discord ou json.")]
DetailOpt = Annotated[bool, typer.Option("--detail", help="Montre les numéros de règle.")]


def _arg(help_text: str, metavar: str) -> Any:
    return typer.Argument(help=help_text, metavar=metavar, show_default=False)


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


# ------------------------------------------------------------------ the action commands


def _verifiable() -> list[Any]:
    """`jdr lancer --verifiable`: a roll of the forum commitment (not an action of the engine)."""
    import inspect

    kw = inspect.Parameter.KEYWORD_ONLY
    return [
        inspect.Parameter("verifiable", kw, default=False, annotation=Annotated[bool, typer.Option(
            "--verifiable", help="Jet de forum vérifiable, tiré de l'engagement (jdr engagement).")]),
        inspect.Parameter("engagement", kw, default=None, annotation=Annotated[
            Path | None, typer.Option("--engagement", metavar="FICHIER",
                                      help="Fichier d'engagement (défaut .jdr-engagement.json).")]),
    ]


def _verifiable_roll(values: dict[str, Any], out: Output, common: dict[str, Any]) -> bool:
    verifiable, engagement = values.pop("verifiable"), values.pop("engagement")
    if not verifiable and engagement is None:
        return False
    if common["seed"] is not None or common["des"] is not None:
        raise JdrError("--verifiable : les dés viennent de l'engagement, pas de --seed ni --des")
    from jdr.cli.verifiable import verifiable_roll

    verifiable_roll(values["expression"], engagement, out.fmt, out.fmt == "json")
    return True


def _expression_odds(values: dict[str, Any], out: Output, common: dict[str, Any]) -> bool:
    """`jdr chances "10d10cs>=7"`: one argument that is no character is a dice expression."""
    if values.get("competence") is not None:
        return False
    from jdr.cli.dice import expression_odds

    expression_odds(values["personnage"], out)
    return True


def _shapes() -> tuple[Any, ...]:
    from jdr.cli.derive import Shape

    return (
        Shape("lancer", "roll", extra=_verifiable, before=_verifiable_roll,
              summary="Lance une expression de dés libre (4d6kh3, 1d20+5>=15, 3d6rr1, 1d6!)."),
        Shape("test", "check"),
        Shape("chances", "odds", before=_expression_odds,
              summary="Chances exactes d'un jet (fiche et compétence) ou d'une expression de dés "
                      "(10d10cs>=7).",
              changes={"personnage": {"cli": "EXPRESSION|FICHE",
                                      "label": "Expression de dés (10d10cs>=7), ou personnage"},
                       "competence": {"required": False}}),
        Shape("attaque", "attack", odds_flag=True),
        Shape("xp", "xp"),
        Shape("initiative", "initiative"),
        Shape("duel", "duel"),
        Shape("regle", "regle"),
        Shape("sante", "sante"),
        Shape("nouvelle", "session", group="session"),
        Shape("voir", "show", group="fiche"),
    )


def _action_commands() -> None:
    from jdr.cli.derive import register

    register({"": app, "fiche": sheet_app, "session": session_app}, _shapes())


_action_commands()

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

    def dumps(value: Any) -> str:  # the json module only for --json
        from jdr.render.json import dumps as json_text

        return json_text(value)

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
    from jdr.render.safe import clean

    doc = SheetDocument.load(fiche)
    system = get_system(doc.system_id)
    try:
        loaded = load(system, doc)
        problems = system.creation_problems(loaded) if creation else []
    except SheetError as exc:
        problems = exc.problems or [exc.message]
    if as_json:
        from jdr.render.json import dumps

        print_plain(dumps({"valid": not problems, "problems": problems}))
    elif problems:
        sys.stderr.write(f"{clean(str(fiche))} : {len(problems)} problème(s)\n")
        for p in problems:
            sys.stderr.write(f"  - {clean(p)}\n")
    else:
        print_plain(f"{clean(str(fiche))} : fiche {system.id} valide")
    if problems:
        raise typer.Exit(2)


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
    from jdr.cli.derive import source_of
    from jdr.core.registry import available, get_system

    system = get_system(systeme if systeme is not None else available()[0])
    Output(fmt, as_json, detail).render(system.demo(source_of(seed, None)))()


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

    source = _only(name) if name else None
    if name and source is None:  # a typo or a stray word: the whole tree, built once
        return command(None)
    return params.install(french.install(typer.main.get_command(source or app)))


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

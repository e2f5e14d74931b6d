"""`jdr` command line: thin. It parses, calls the core or the system, and renders.

Heavy libraries (icepool, pydantic, ruamel.yaml) are imported only by the commands that need
them, so `jdr roll` and `jdr check` start fast.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from jdr.errors import JdrError

app = typer.Typer(
    name="jdr",
    help="Moteur de règles et table de jeu pour jeux de rôle (Cydonia, maitrise, dd35, cyd, felins).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
sheet_app = typer.Typer(help="Fiches de personnage : modèle, vérification, affichage.",
                        no_args_is_help=True)
session_app = typer.Typer(help="Sessions de jeu.", no_args_is_help=True)
app.add_typer(sheet_app, name="sheet")
app.add_typer(session_app, name="session")

JsonOpt = Annotated[bool, typer.Option("--json", help="Sortie JSON (pour les scripts).")]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Graine : jets reproductibles.")]
DesOpt = Annotated[str | None, typer.Option(
    "--des", help="Faces lancées à la main, dans l'ordre des règles (ex. 8,6).")]
OptOpt = Annotated[list[str] | None, typer.Option(
    "--opt", help="Option propre au système, cle=valeur (répétable).")]
FormatOpt = Annotated[str, typer.Option("--format", help="texte ou forum (BBCode).")]
DryOpt = Annotated[bool, typer.Option("--dry-run", help="Ne modifie aucune fiche.")]


# ------------------------------------------------------------------ helpers


def _emit(result: Any, as_json: bool, fmt: str = "texte") -> None:
    if as_json:
        typer.echo(json.dumps(result.to_json(), ensure_ascii=False, indent=2, default=str))
    elif fmt == "forum":
        render_forum = getattr(result, "render_forum", None)
        if render_forum is None:
            raise JdrError("--format forum n'est pas disponible pour ce résultat")
        typer.echo(render_forum())
    elif fmt in ("texte", "text"):
        from jdr.cli.render import print_result

        print_result(result)
    else:
        raise JdrError(f"--format « {fmt} » inconnu (autorisé : texte, forum)")


def _options(raw: list[str] | None) -> dict[str, str]:
    from jdr.names import normalize

    out: dict[str, str] = {}
    for item in raw or []:
        if "=" not in item:
            raise JdrError(f"--opt « {item} » : il faut cle=valeur (ex. --opt surprise=oui)")
        key, value = item.split("=", 1)
        out[normalize(key)] = value.strip()
    return out


def _load(path: Path) -> tuple[Any, Any]:
    """A sheet document and its system, validated."""
    from jdr.core.registry import get_system
    from jdr.core.sheet import SheetDocument

    doc = SheetDocument.load(path)
    system = get_system(doc.system_id)
    system.load(doc)
    return doc, system


def _load_same(paths: list[Path]) -> tuple[list[Any], Any]:
    """Several sheets, validated, which must all belong to one system."""
    loaded = [_load(p) for p in paths]
    system = loaded[0][1]
    for _, other in loaded[1:]:
        if other is not system:
            raise JdrError(
                f"les fiches ne sont pas du même système ({system.id} / {other.id})"
            )
    return [doc for doc, _ in loaded], system


def _source(seed: int | None, des: str | None) -> Any:
    from jdr.dice.source import make_source

    return make_source(seed, des)


def _commit(changes: list[Any], dry_run: bool) -> None:
    """Apply the rules' changes and save each sheet atomically, after re-validating it."""
    if dry_run or not changes:
        return
    from jdr.core.registry import get_system

    docs: dict[int, Any] = {}
    for change in changes:
        docs[id(change.doc)] = change.doc
    # Validate every updated sheet before writing any: all or nothing.
    for change in changes:
        change.apply()
    for doc in docs.values():
        get_system(doc.system_id).load(doc)
    for doc in docs.values():
        doc.save()


def _finish(source: Any) -> None:
    from jdr.dice.source import finish

    finish(source)


# ------------------------------------------------------------------ commands


@app.command("systems")
def systems_cmd(as_json: JsonOpt = False) -> None:
    """Liste les systèmes de jeu installés."""
    from jdr.core.registry import available, get_system

    rows = []
    for sid in available():
        system = get_system(sid)
        rows.append({"id": sid, "title": system.title, "seed": system.seed})
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        for row in rows:
            typer.echo(f"{row['id']:<10} {row['title']}")


@app.command("roll")
def roll_cmd(
    expression: Annotated[str, typer.Argument(help="Expression de dés, ex. 2d10kh1+6.")],
    seed: SeedOpt = None,
    des: DesOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Lance une expression de dés libre (4d6kh3, 1d20+5>=15, 3d6rr1, 1d6!)."""
    from jdr.dice.notation import roll

    source = _source(seed, des)
    result = roll(expression, source)
    _finish(source)
    if as_json:
        typer.echo(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
    else:
        typer.echo(result.render())


def _check_request(
    fiche: Path, competence: str, carac: str | None, seuil: str | None,
    contre: tuple[str, str] | None, bonus: int, choix: int | None, de: str | None,
    opt: list[str] | None,
) -> tuple[Any, Any]:
    from jdr.core.system import CheckRequest

    opposed = bool(contre and contre[0] is not None)
    if opposed and seuil is not None:
        raise JdrError("--seuil et --contre s'excluent : un jet a un seuil OU un adversaire")
    paths = [fiche, Path(contre[0])] if contre and opposed else [fiche]
    docs, system = _load_same(paths)
    doc = docs[0]
    opponent = docs[1] if opposed else None
    opponent_skill = contre[1] if contre and opposed else None
    request = CheckRequest(
        sheet=doc, skill=competence, carac=carac, threshold=seuil, opponent=opponent,
        opponent_skill=opponent_skill, bonus=bonus, choice=choix, die=de, options=_options(opt),
    )
    return request, system


ContreOpt = Annotated[tuple[str, str] | None, typer.Option(
    "--contre", help="Jet opposé : FICHE2 COMPETENCE2.")]
SeuilOpt = Annotated[str | None, typer.Option(
    "--seuil", help="Seuil : un nombre ou un nom (facile, difficile, ...).")]
CaracOpt = Annotated[str | None, typer.Option("--carac", help="Caractéristique à utiliser.")]
BonusOpt = Annotated[int, typer.Option("--bonus", help="Bonus (ou malus si négatif) du MJ.")]
ChoixOpt = Annotated[int | None, typer.Option(
    "--choix", help="Dé gardé au choix du joueur (1, 2, ...) pour un jet à plusieurs dés.")]
DeOpt = Annotated[str | None, typer.Option("--de", help="Dé choisi (cyd : d10 ou d20).")]


@app.command("check")
def check_cmd(
    fiche: Annotated[Path, typer.Argument(help="Fiche du personnage (YAML).")],
    competence: Annotated[str, typer.Argument(help="Compétence, caractéristique ou résistance.")],
    carac: CaracOpt = None,
    seuil: SeuilOpt = None,
    contre: ContreOpt = None,
    bonus: BonusOpt = 0,
    choix: ChoixOpt = None,
    de: DeOpt = None,
    opt: OptOpt = None,
    des: DesOpt = None,
    seed: SeedOpt = None,
    dry_run: DryOpt = False,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
) -> None:
    """Fait un jet de compétence contre un seuil ou contre un autre personnage."""
    request, system = _check_request(fiche, competence, carac, seuil, contre, bonus, choix, de, opt)
    source = _source(seed, des)
    outcome = system.check(request, source)
    _finish(source)
    result, changes = outcome if isinstance(outcome, tuple) else (outcome, [])
    _commit(changes, dry_run)
    _emit(result, as_json, fmt)


@app.command("odds")
def odds_cmd(
    fiche: Annotated[Path, typer.Argument(help="Fiche du personnage (YAML).")],
    competence: Annotated[str, typer.Argument(help="Compétence, caractéristique ou arme.")],
    carac: CaracOpt = None,
    seuil: SeuilOpt = None,
    contre: ContreOpt = None,
    bonus: BonusOpt = 0,
    choix: ChoixOpt = None,
    de: DeOpt = None,
    opt: OptOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Chances exactes d'un jet : réussite, critiques et distribution des totaux."""
    request, system = _check_request(fiche, competence, carac, seuil, contre, bonus, choix, de, opt)
    _emit(system.odds(request), as_json)


@app.command("attack")
def attack_cmd(
    attaquant: Annotated[Path, typer.Argument(help="Fiche de l'attaquant.")],
    defenseur: Annotated[Path, typer.Argument(help="Fiche du défenseur.")],
    arme: Annotated[str | None, typer.Option("--arme", help="Arme utilisée.")] = None,
    defense: Annotated[str | None, typer.Option(
        "--defense", help="esquive, bouclier ou cac (selon le système).")] = None,
    visee: Annotated[str | None, typer.Option("--visee", help="Zone visée.")] = None,
    critique: Annotated[str | None, typer.Option(
        "--critique", help="Option de critique (maitrise : rapidite, degats, precision, mj).")] = None,
    complete: Annotated[bool, typer.Option("--complete", help="Attaque complète (dd35).")] = False,
    opt: OptOpt = None,
    des: DesOpt = None,
    seed: SeedOpt = None,
    dry_run: DryOpt = False,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
) -> None:
    """Résout une attaque entière : attaque, défense, localisation, dégâts, état."""
    from jdr.core.system import AttackRequest

    (a_doc, d_doc), system = _load_same([attaquant, defenseur])
    request = AttackRequest(a_doc, d_doc, arme, defense, visee, critique, complete, _options(opt))
    source = _source(seed, des)
    result, changes = system.attack(request, source)
    _finish(source)
    _commit(changes, dry_run)
    _emit(result, as_json, fmt)


@app.command("xp")
def xp_cmd(
    fiche: Annotated[Path, typer.Argument(help="Fiche du personnage.")],
    competence: Annotated[str | None, typer.Option("--competence", help="Compétence à monter.")] = None,
    carac: Annotated[str | None, typer.Option("--carac", help="Caractéristique à monter.")] = None,
    pv: Annotated[bool, typer.Option("--pv", help="Acheter des points de vie.")] = False,
    opt: OptOpt = None,
    dry_run: DryOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Dépense de l'expérience : coût, XP disponible, fiche mise à jour."""
    from jdr.core.system import XpRequest

    chosen = [x for x in (competence, carac) if x] + (["pv"] if pv else [])
    if len(chosen) != 1:
        raise JdrError("jdr xp : choisir exactement un achat parmi --competence, --carac, --pv")
    doc, system = _load(fiche)
    result, changes = system.xp(XpRequest(doc, competence, carac, pv, _options(opt)))
    _commit(changes, dry_run)
    _emit(result, as_json)


@app.command("initiative")
def initiative_cmd(
    fiches: Annotated[list[Path], typer.Argument(help="Fiches des combattants.")],
    des: DesOpt = None,
    seed: SeedOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Ordre de jeu, avec les départages qui l'ont décidé."""
    docs, system = _load_same(fiches)
    source = _source(seed, des)
    result = system.initiative(docs, source)
    _finish(source)
    _emit(result, as_json)


@app.command("duel")
def duel_cmd(
    a: Annotated[Path, typer.Argument(help="Fiche du provocateur.")],
    b: Annotated[Path, typer.Argument(help="Fiche du provoqué.")],
    opt: OptOpt = None,
    des: DesOpt = None,
    seed: SeedOpt = None,
    dry_run: DryOpt = False,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
) -> None:
    """Duel (felins : duel de provocation)."""
    (a_doc, b_doc), system = _load_same([a, b])
    source = _source(seed, des)
    result, changes = system.duel(a_doc, b_doc, source, _options(opt))
    _finish(source)
    _commit(changes, dry_run)
    _emit(result, as_json, fmt)


@session_app.command("new")
def session_new_cmd(
    fiches: Annotated[list[Path], typer.Argument(help="Fiches des personnages.")],
    dry_run: DryOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Nouvelle session de jeu : remet à zéro ce qui se remet à zéro (prédilections, ...)."""
    docs, system = _load_same(fiches)
    result, changes = system.new_session(docs)
    _commit(changes, dry_run)
    _emit(result, as_json)


@sheet_app.command("new")
def sheet_new_cmd(
    systeme: Annotated[str, typer.Argument(help="cydonia, maitrise, dd35, cyd ou felins.")],
    sortie: Annotated[Path | None, typer.Option(
        "--sortie", "-o", help="Fichier à écrire (sinon, affichage).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Écrit un modèle de fiche commenté."""
    from jdr.core.registry import get_system
    from jdr.core.sheet import write_atomic

    text = get_system(systeme).template()
    if sortie is None:
        if as_json:
            typer.echo(json.dumps({"system": systeme, "template": text}, ensure_ascii=False))
        else:
            typer.echo(text, nl=False)
        return
    if sortie.exists():
        raise JdrError(f"{sortie} existe déjà : je n'écrase pas une fiche")
    write_atomic(sortie, text)
    if as_json:
        typer.echo(json.dumps({"system": systeme, "path": str(sortie)}, ensure_ascii=False))
    else:
        typer.echo(f"Fiche {systeme} écrite : {sortie}")


@sheet_app.command("check")
def sheet_check_cmd(
    fiche: Annotated[Path, typer.Argument(help="Fiche à vérifier.")],
    creation: Annotated[bool, typer.Option(
        "--creation", help="Vérifie aussi les règles de création (budgets).")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Vérifie une fiche et liste tous ses problèmes d'un coup."""
    from jdr.core.registry import get_system
    from jdr.core.sheet import SheetDocument

    doc = SheetDocument.load(fiche)
    system = get_system(doc.system_id)
    problems = system.check_sheet(doc, creation)
    if as_json:
        typer.echo(json.dumps({"valid": not problems, "problems": problems}, ensure_ascii=False,
                              indent=2))
    elif problems:
        typer.echo(f"{fiche} : {len(problems)} problème(s)", err=True)
        for p in problems:
            typer.echo(f"  - {p}", err=True)
    else:
        typer.echo(f"{fiche} : fiche {system.id} valide")
    if problems:
        raise typer.Exit(2)


@sheet_app.command("show")
def sheet_show_cmd(
    fiche: Annotated[Path, typer.Argument(help="Fiche à afficher.")],
    as_json: JsonOpt = False,
) -> None:
    """Affiche une fiche et ses valeurs dérivées."""
    doc, system = _load(fiche)
    _emit(system.show(doc), as_json)


@app.command("demo")
def demo_cmd(
    seed: SeedOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Démonstration : le duel Nain A contre Elfe B (Cydonia), jusqu'à la mort ou l'agonie."""
    from jdr.systems.cydonia.demo import duel_demo

    source = _source(seed, None)
    result = duel_demo(source)
    _emit(result, as_json)


def run() -> None:
    """Entry point: French errors on one line, exit code 2."""
    try:
        code = app(standalone_mode=False)
        if isinstance(code, int) and code:
            sys.exit(code)
    except JdrError as exc:
        typer.echo(f"Erreur : {exc.message}", err=True)
        sys.exit(exc.exit_code)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        typer.echo("Interrompu.", err=True)
        sys.exit(130)
    except Exception as exc:  # usage errors of the (vendored) click
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
            typer.echo(f"Erreur : {_french_usage(exc)}", err=True)
            sys.exit(2)
        raise


def _french_usage(exc: Exception) -> str:
    kind = type(exc).__name__
    param = getattr(exc, "param", None)
    name = getattr(param, "human_readable_name", None) or getattr(exc, "param_hint", None) or "?"
    if kind == "NoSuchOption":
        return f"option inconnue {getattr(exc, 'option_name', '')}"
    if kind == "MissingParameter":
        return f"argument ou option manquant : {name}"
    if kind == "BadParameter":
        return f"valeur invalide pour {name} : {getattr(exc, 'message', '')}"
    if kind == "BadOptionUsage":
        return f"option mal utilisée : {getattr(exc, 'message', '')}"
    return f"utilisation incorrecte : {getattr(exc, 'message', exc)}"


if __name__ == "__main__":
    run()

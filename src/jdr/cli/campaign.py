"""`jdr campagne …`, `jdr combat …`, `jdr journal`, `jdr annuler`: the lasting state, from the
command line. Thin: parse, call `jdr.campaign`, render, print, then commit (output first:
`jdr.cli.output.output_first`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from jdr.errors import JdrError

campaign_app = typer.Typer(help="Campagne : base de la partie (personnages, rencontre, journal).",
                           no_args_is_help=True, rich_markup_mode=None)
combat_app = typer.Typer(help="Rencontre : ordre d'initiative, round, tour, états.",
                         invoke_without_command=True, rich_markup_mode=None)

CampOpt = Annotated[str | None, typer.Option(
    "--campagne", help="Campagne : fichier .jdr ou adresse postgresql+psycopg://…[#NOM].")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Sortie JSON (pour les scripts).")]
FormatOpt = Annotated[str, typer.Option("--format",
    help="texte, forum (BBCode), discord (Markdown) ou json.")]
DetailOpt = Annotated[bool, typer.Option("--detail", help="Montre les numéros de règle.")]
SeedOpt = Annotated[str | None, typer.Option("--seed", help="Graine (0 à 999\u202f999\u202f999).")]
DesOpt = Annotated[str | None, typer.Option("--des", help="Faces lancées à la main (ex. 8,6).")]


def _print(text: str) -> None:
    from jdr.cli.output import print_plain

    print_plain(text)


def _first(write: bool = True) -> Any:
    from jdr.cli.output import output_first

    return output_first(write)


def _output(fmt: str, as_json: bool, detail: bool) -> Any:
    from jdr.cli.output import Output

    return Output(fmt, as_json, detail)


def _source(seed: str | None, des: str | None) -> Any:
    from jdr.core.options import parse_int
    from jdr.core.usecase import Recording
    from jdr.dice.source import make_source

    number = parse_int(seed, "--seed", 0, 999_999_999) if seed is not None else None
    return Recording(make_source(number, des))


def _seance(tx: Any, source: Any, seed: str | None, des: str | None) -> None:
    """While a séance is open, the step's dice come from its seed (issue 21)."""
    from jdr.campaign.seance import reason_of, use_seance

    use_seance(tx, source, reason_of(seed, des))


def _open(campagne: str | None) -> Any:
    from jdr.campaign.db import find_target
    from jdr.campaign.store import Campaign

    return Campaign.open(find_target(campagne))


@campaign_app.command("nouvelle")
def new_cmd(
    nom: Annotated[str, typer.Argument(help="Nom de la campagne (fichier NOM.jdr).")],
    systeme: Annotated[str, typer.Option("--systeme", help="Identifiant du système (jdr systems).")],
    db: Annotated[str | None, typer.Option(
        "--db", help="Adresse PostgreSQL (postgresql+psycopg://…) au lieu d'un fichier.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Crée une campagne : NOM.jdr dans le dossier courant, ou dans la base donnée par --db."""
    from jdr.campaign.db import SUFFIX
    from jdr.campaign.store import Campaign, check_new
    from jdr.core.registry import get_system
    from jdr.render.json import dumps

    target = db if db is not None else str(Path(f"{nom}{SUFFIX}"))
    if db is None and Path(target).exists():
        raise JdrError(f"{target} existe déjà : je n'écrase pas une campagne")
    name, system_id = check_new(nom, get_system(systeme).id)
    from jdr.campaign.db import check_sqlite_file, database_for

    if db is None:  # the folder (or the base), before saying « créée »
        check_sqlite_file(Path(target), must_exist=False)
    else:
        database_for(db, must_exist=False).dispose()
    where = target if db is None else "la base donnée"
    with _first() as shown:
        shown(lambda: _print(dumps({"campaign": name, "system": system_id, "target": target})
                             if as_json else f"Campagne « {name} » ({system_id}) créée : {where}"))
        try:
            Campaign.create(target, nom, systeme).dispose()
        except BaseException:
            if db is None:  # nothing half-made left behind
                for leftover in (target, f"{target}-wal", f"{target}-shm", f"{target}-journal"):
                    Path(leftover).unlink(missing_ok=True)
            raise


@campaign_app.command("importer")
def import_cmd(
    fichiers: Annotated[list[Path], typer.Argument(help="Fiches YAML à importer.")],
    pnj: Annotated[bool, typer.Option("--pnj", help="Ce sont des PNJ.")] = False,
    joueur: Annotated[str | None, typer.Option("--joueur", help="Joueur à qui les confier.")] = None,
    nombre: Annotated[int | None, typer.Option(
        "--nombre", min=1, max=100, help="Groupe de PNJ tiré d'un modèle : « 3 » → NOM 1..3.")] = None,
    remplacer: Annotated[bool, typer.Option(
        "--remplacer", help="Met à jour un personnage existant.")] = False,
    campagne: CampOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Importe des fiches YAML dans la campagne (sans perte : commentaires et ordre gardés)."""
    from jdr.core.sheet import SheetDocument
    from jdr.render.json import dumps

    campaign = _open(campagne)
    names: list[str] = []
    try:
        with _first() as shown, campaign.transaction() as tx:
            for path in fichiers:
                doc = SheetDocument.load(path)
                if nombre is not None:
                    base = str(doc.data.get("nom", path.stem))
                    names += tx.add_group(doc, nombre, base)
                else:
                    names.append(tx.add(doc, "pnj" if pnj else "pj", None, joueur, remplacer))
            shown(lambda: _print(dumps({"imported": names}) if as_json
                                 else "Importé(s) : " + ", ".join(names)))
    finally:
        campaign.dispose()


@campaign_app.command("exporter")
def export_cmd(
    noms: Annotated[list[str] | None, typer.Argument(help="Personnages (tous si aucun).")] = None,
    dossier: Annotated[Path | None, typer.Option(
        "--dossier", help="Écrit un fichier YAML par personnage.")] = None,
    campagne: CampOpt = None,
) -> None:
    """Exporte des personnages en YAML (affichés, ou écrits dans --dossier)."""
    from jdr.core.files import write_atomic
    from jdr.names import normalize

    campaign = _open(campagne)
    try:
        with campaign.reading() as tx:
            wanted = noms or [c.name for c in tx.characters()]
            texts = [(tx._character(n).name, tx.export(n)) for n in wanted]
    finally:
        campaign.dispose()
    if dossier is None:
        _print("---\n".join(text for _, text in texts).rstrip("\n"))
        return
    targets = [(dossier / f"{normalize(name)}.yaml", text) for name, text in texts]
    with _first() as shown:
        shown(lambda: _print("\n".join(f"{name} → {target}"
                                        for (name, _), (target, _) in zip(texts, targets, strict=True))))
        for target, text in targets:
            write_atomic(target, text)


@campaign_app.command("sauvegarde")
def backup_cmd(
    sortie: Annotated[Path | None, typer.Option(
        "--sortie", metavar="FICHIER",
        help="Fichier de la copie (défaut : NOM-AAAAMMJJ-HHMMSS.sauvegarde à côté).")] = None,
    campagne: CampOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Copie cohérente de la campagne (SQLite), même pendant que jdr servir tourne."""
    from jdr.campaign.backup import backup
    from jdr.campaign.db import find_target
    from jdr.render.json import dumps

    with _first() as shown, backup(find_target(campagne), sortie) as (final, entries):
        shown(lambda: _print(dumps({"backup": str(final), "entries": entries}) if as_json
                             else f"Sauvegarde écrite : {final} ({entries} entrée(s) au journal)"))


@campaign_app.command("restaurer")
def restore_cmd(
    fichier: Annotated[Path, typer.Argument(help="Sauvegarde à remettre en place.", metavar="FICHIER")],
    campagne: Annotated[str | None, typer.Option(
        "--campagne", help="Campagne à remplacer ou à créer (défaut : celle du dossier).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Remet une sauvegarde en place (refusé si le serveur tourne sur cette campagne)."""
    from jdr.campaign.backup import restore
    from jdr.campaign.db import CampaignError, find_target
    from jdr.render.json import dumps

    try:
        target = find_target(campagne)
    except CampaignError as exc:
        if not exc.message.startswith("aucune campagne"):
            raise
        raise CampaignError("donnez --campagne FICHIER : la campagne à remplacer ou à créer") from None
    with _first() as shown, restore(fichier, target) as entries:
        shown(lambda: _print(dumps({"restored": str(fichier), "target": target, "entries": entries})
                             if as_json else f"Campagne {target} restaurée depuis {fichier} "
                             f"({entries} entrée(s) au journal)"))


@campaign_app.command("migrer")
def migrate_cmd(campagne: CampOpt = None, as_json: JsonOpt = False) -> None:
    """Met le schéma de la campagne à jour (après une mise à jour de jdr)."""
    from jdr.campaign.db import (
        database_for,
        find_target,
        head_revision,
        migrate,
        schema_revision,
        split_target,
        translated_errors,
    )
    from jdr.render.json import dumps

    url, _ = split_target(find_target(campagne))
    with translated_errors():
        base = database_for(url, must_exist=True, integrity=not url.startswith("postgresql"))
        try:
            before = base.revision or schema_revision(base)
            with _first() as shown:
                shown(lambda: _print(dumps({"from": before, "to": head_revision()}) if as_json
                                     else f"Schéma : {before} → {head_revision()}"
                                     + (" (déjà à jour)" if before == head_revision() else "")))
                migrate(base)
        finally:
            base.dispose()


@campaign_app.command("personnages")
def list_cmd(campagne: CampOpt = None, as_json: JsonOpt = False) -> None:
    """Liste les personnages et PNJ de la campagne."""
    from jdr.render.json import dumps

    campaign = _open(campagne)
    try:
        with campaign.reading() as tx:
            rows = tx.characters()
    finally:
        campaign.dispose()
    if as_json:
        _print(dumps([{"name": r.name, "kind": r.kind, "group": r.group, "player": r.player,
                       "version": r.version} for r in rows]))
        return
    _print(f"Campagne « {campaign.name} » ({campaign.system_id})")
    for r in rows:
        extra = f", joueur {r.player}" if r.player else ""
        _print(f"  {r.name} ({r.kind}{extra})")


@combat_app.callback()
def combat_show(ctx: typer.Context, campagne: CampOpt = None, as_json: JsonOpt = False,
                fmt: FormatOpt = "texte", detail: DetailOpt = False) -> None:
    """Sans sous-commande : le tableau de la rencontre (ordre, round, tour, PV, états)."""
    if ctx.invoked_subcommand is not None:
        ctx.obj = {"campagne": campagne}
        return
    from jdr.campaign.encounter import view

    out = _output(fmt, as_json, detail)
    campaign = _open(campagne)
    try:
        with campaign.reading() as tx:
            show = out.render(view(tx))
    finally:
        campaign.dispose()
    show()


def _combat_step(ctx: typer.Context, campagne: str | None, step: Any, out: Any) -> None:
    campaign = _open(campagne or (ctx.obj or {}).get("campagne"))
    try:
        with _first() as shown, campaign.transaction() as tx:
            result, _entry = step(tx)
            shown(out.render(result))
    finally:
        campaign.dispose()


@combat_app.command("debut")
def combat_start(ctx: typer.Context,
                 noms: Annotated[list[str], typer.Argument(help="Combattants.", metavar="NOMS")],
                 ordre_donne: Annotated[bool, typer.Option(
                     "--ordre-donne", help="L'ordre des noms est l'ordre de jeu (pas de jet).")] = False,
                 campagne: CampOpt = None, seed: SeedOpt = None, des: DesOpt = None,
                 as_json: JsonOpt = False, fmt: FormatOpt = "texte", detail: DetailOpt = False) -> None:
    """Commence une rencontre : initiative selon les règles du système, gardée."""
    from jdr.campaign.encounter import start

    source = _source(seed, des)

    def step(tx: Any) -> Any:
        _seance(tx, source, seed, des)
        done = start(tx, noms, source, given=ordre_donne)
        source.finish()
        return done

    _combat_step(ctx, campagne, step, _output(fmt, as_json, detail))


@combat_app.command("suivant")
def combat_next(ctx: typer.Context, campagne: CampOpt = None, seed: SeedOpt = None,
                des: DesOpt = None, as_json: JsonOpt = False, fmt: FormatOpt = "texte",
                detail: DetailOpt = False) -> None:
    """Tour suivant : applique ce que les règles font à ce moment (réveil, round, ...)."""
    from jdr.campaign.encounter import next_turn

    source = _source(seed, des)

    def step(tx: Any) -> Any:
        _seance(tx, source, seed, des)
        done = next_turn(tx, source)
        source.finish()
        return done

    _combat_step(ctx, campagne, step, _output(fmt, as_json, detail))


@combat_app.command("rejoindre")
def combat_join(ctx: typer.Context, noms: Annotated[list[str], typer.Argument(help="Arrivants.")],
                campagne: CampOpt = None, seed: SeedOpt = None, des: DesOpt = None,
                as_json: JsonOpt = False, fmt: FormatOpt = "texte", detail: DetailOpt = False) -> None:
    """Des combattants rejoignent la rencontre (initiative lancée, placés dans l'ordre)."""
    from jdr.campaign.encounter import join

    source = _source(seed, des)

    def step(tx: Any) -> Any:
        _seance(tx, source, seed, des)
        done = join(tx, noms, source)
        source.finish()
        return done

    _combat_step(ctx, campagne, step, _output(fmt, as_json, detail))


@combat_app.command("quitter")
def combat_leave(ctx: typer.Context, noms: Annotated[list[str], typer.Argument(help="Partants.")],
                 campagne: CampOpt = None, as_json: JsonOpt = False, fmt: FormatOpt = "texte",
                 detail: DetailOpt = False) -> None:
    """Des combattants quittent la rencontre."""
    from jdr.campaign.encounter import leave

    _combat_step(ctx, campagne, lambda tx: leave(tx, noms), _output(fmt, as_json, detail))


@combat_app.command("fin")
def combat_end(ctx: typer.Context, campagne: CampOpt = None, as_json: JsonOpt = False,
               fmt: FormatOpt = "texte", detail: DetailOpt = False) -> None:
    """Termine la rencontre."""
    from jdr.campaign.encounter import end

    _combat_step(ctx, campagne, lambda tx: end(tx), _output(fmt, as_json, detail))


def journal_cmd(
    depuis: Annotated[int, typer.Option("--depuis", min=0, help="Entrées après ce numéro.")] = 0,
    campagne: CampOpt = None,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "texte",
) -> None:
    """Le journal de la campagne : chaque action, ses dés, son résultat, ses changements."""
    from jdr.core.french import action_label
    from jdr.render.discord import forum_to_discord
    from jdr.render.json import dumps
    from jdr.render.safe import clean

    if fmt not in ("texte", "forum", "discord", "json"):
        raise JdrError(f"--format « {clean(fmt[:40])} » inconnu "
                       "(autorisé : texte, forum, discord, json)")
    campaign = _open(campagne)
    try:
        with campaign.reading() as tx:
            entries = tx.entries(since=depuis)
    finally:
        campaign.dispose()
    if as_json or fmt == "json":
        _print(dumps([e.to_json() for e in entries]))
        return
    for e in entries:
        undone = " (annulée)" if e.undone_by else ""
        head = (f"n° {e.seq} — {e.at:%Y-%m-%d %H:%M} — {clean(e.actor)} — "
                f"{clean(action_label(e.action))}{undone}")
        if fmt == "forum":
            _print(f"[b]{head}[/b]\n{e.forum}")
        elif fmt == "discord":
            _print(f"**{head}**\n{forum_to_discord(e.forum)}")
        else:
            _print(f"{head}\n{e.text}")


def undo_cmd(campagne: CampOpt = None, as_json: JsonOpt = False, fmt: FormatOpt = "texte") -> None:
    """Annule la dernière action (refusé si une action plus récente a changé les mêmes valeurs)."""
    from jdr.campaign.journal import undo
    from jdr.render.json import dumps

    campaign = _open(campagne)
    try:
        with _first() as shown, campaign.transaction() as tx:
            entry = undo(tx)
            shown(lambda: _print(dumps(entry.to_json()) if as_json or fmt == "json"
                                 else entry.forum if fmt == "forum" else entry.text))
    finally:
        campaign.dispose()


def serve_cmd(
    db: Annotated[str | None, typer.Option(
        "--db", metavar="URL",
        help="Base : fichier SQLite (défaut jdr-table.db) ou postgresql+psycopg://…")] = None,
    host: Annotated[str, typer.Option("--host", metavar="ADRESSE", help="Adresse d'écoute.")] = "127.0.0.1",
    port: Annotated[str, typer.Option("--port", metavar="PORT", help="Port (1 à 65535).")] = "8000",
    origine: Annotated[list[str] | None, typer.Option(
        "--origine", metavar="URL",
        help="Origine des pages derrière un mandataire, ex. https://table.exemple.org (répétable).")
    ] = None,
) -> None:
    """Sert la table en ligne (API, direct, pages) sur la base de campagnes."""
    from jdr.core.options import parse_int
    from jdr.web.serve import serve

    serve(db or "jdr-table.db", host, parse_int(port, "--port", 1, 65535), origine or [])


def mj_link_cmd(
    table: Annotated[str, typer.Option("--table", metavar="N", help="Numéro de la table.")],
    db: Annotated[str | None, typer.Option(
        "--db", metavar="URL",
        help="Base du serveur : fichier SQLite (défaut jdr-table.db) ou postgresql+psycopg://…")] = None,
    adresse: Annotated[str, typer.Option(
        "--adresse", metavar="URL", help="Adresse publique du serveur, pour le lien.")] = "http://127.0.0.1:8000",
) -> None:
    """Nouveau lien MJ d'une table (pour le propriétaire du serveur) : l'ancien est révoqué."""
    from jdr.core.options import parse_int
    from jdr.web.errors import ApiError
    from jdr.web.state import Server

    number = parse_int(table, "--table", 1, 999_999_999)
    server = Server(db or "jdr-table.db", None, True)
    try:
        token, member = server.renew_mj_link(number)
    except ApiError as exc:
        raise JdrError(exc.message) from None
    finally:
        server.dispose()
    _print(f"Nouveau lien MJ de la table n° {number} ({member['nom']}) — l'ancien n'ouvre plus la "
           f"table :\n{adresse.rstrip('/')}/table/{number}#jeton={token}")


def register(app: Any) -> None:
    """The campaign's commands in the `jdr` tree (`jdr.cli.main`), with the forum's séances."""
    app.add_typer(campaign_app, name="campagne")
    app.add_typer(combat_app, name="combat")
    app.command("journal")(journal_cmd)
    app.command("annuler")(undo_cmd)
    app.command("servir")(serve_cmd)
    app.command("serve", hidden=True)(serve_cmd)
    app.command("lien-mj")(mj_link_cmd)
    from jdr.cli.verifiable import commitment_cmd, seance_app, verify_cmd

    app.add_typer(seance_app, name="seance")
    app.command("verifier")(verify_cmd)
    app.command("engagement")(commitment_cmd)


from jdr.cli.aliases import register as _aliases  # noqa: E402 (after every command)

_aliases(None, campaign_app, combat_app)

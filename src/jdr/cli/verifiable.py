"""`jdr seance ouvrir|fermer|etat`, `jdr verifier`, `jdr engagement`, and `jdr lancer --verifiable`:
verifiable dice (issue 21), in a campaign or for forum play without a server."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from jdr.errors import JdrError

seance_app = typer.Typer(help="Séance de jeu : dés vérifiables (engagement, puis graine révélée).",
                         no_args_is_help=True, rich_markup_mode=None)

CampOpt = Annotated[str | None, typer.Option(
    "--campagne", help="Campagne : fichier .jdr ou adresse postgresql+psycopg://…[#NOM].")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Sortie JSON (pour les scripts).")]
FormatOpt = Annotated[str, typer.Option("--format", help="texte, forum (BBCode) ou json.")]
DEFAULT_COMMITMENT = ".jdr-engagement.json"
MAX_INPUT = 50_000_000


def _print(text: str) -> None:
    from jdr.cli.output import print_plain

    print_plain(text)


def _show(entries: list[Any], as_json: bool, fmt: str) -> None:
    from jdr.render.json import dumps

    if as_json or fmt == "json":
        _print(dumps([e.to_json() for e in entries]))
        return
    _print("\n".join(e.forum if fmt == "forum" else e.text for e in entries))


def _in_campaign(campagne: str | None, act: Any, as_json: bool, fmt: str) -> None:
    """Act in one transaction; the entries are shown before the commit (output first)."""
    from jdr.campaign.db import find_target
    from jdr.campaign.store import Campaign
    from jdr.cli.output import output_first

    campaign = Campaign.open(find_target(campagne))
    try:
        with output_first() as shown, campaign.transaction() as tx:
            entries: list[Any] = act(tx)
            shown(lambda: _show(entries, as_json, fmt))
    finally:
        campaign.dispose()


@seance_app.command("ouvrir")
def open_cmd(campagne: CampOpt = None, as_json: JsonOpt = False, fmt: FormatOpt = "texte") -> None:
    """Ouvre une séance : graine secrète tirée, son engagement (SHA-256) journalisé ; remet à
    zéro ce que les règles remettent à zéro à chaque séance (prédilections, ...)."""
    from jdr.campaign.seance import open_seance

    _in_campaign(campagne, lambda tx: open_seance(tx), as_json, fmt)


@seance_app.command("fermer")
def close_cmd(campagne: CampOpt = None, as_json: JsonOpt = False, fmt: FormatOpt = "texte") -> None:
    """Ferme la séance et révèle sa graine dans le journal : chacun peut alors tout vérifier."""
    from jdr.campaign.seance import close_seance

    _in_campaign(campagne, lambda tx: [close_seance(tx)], as_json, fmt)


@seance_app.command("etat")
def status_cmd(campagne: CampOpt = None, as_json: JsonOpt = False) -> None:
    """Les séances de la campagne : numéro, engagement, graine une fois révélée."""
    from jdr.campaign.db import find_target
    from jdr.campaign.seance import status
    from jdr.campaign.store import Campaign
    from jdr.render.json import dumps

    campaign = Campaign.open(find_target(campagne))
    try:
        with campaign.reading() as tx:
            data = status(tx)
    finally:
        campaign.dispose()
    if as_json:
        _print(dumps(data))
        return
    if not data["seances"]:
        _print("Aucune séance : jdr seance ouvrir")
    for s in data["seances"]:
        state = "ouverte" if s["ouverte"] else f"fermée, graine {s['graine']}"
        _print(f"Séance {s['seance']} ({state}) — engagement {s['engagement']}")


def _read(path: Path) -> str:
    try:
        if path.stat().st_size > MAX_INPUT:
            raise JdrError(f"{path} : fichier trop gros (50 Mo au plus)")
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise JdrError(f"{path} : fichier introuvable") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise JdrError(f"{path} : illisible ({type(exc).__name__})") from None


STATUS = {"ok": "ok", "echec": "ÉCHEC", "non_verifiable": "non vérifiable",
          "en_attente": "en attente"}


def verify_cmd(
    fichier: Annotated[Path, typer.Argument(
        help="Journal exporté (jdr journal --json, ou le journal de l'API), ou texte contenant des "
             "blocs « jdr-verif » copiés d'un forum.", metavar="FICHIER")],
    graine: Annotated[str | None, typer.Option(
        "--graine", help="Graine publiée (blocs de forum : celle de jdr engagement --reveler).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Vérifie chaque dé : code 0 si chaque entrée vérifiable est conforme, 1 sinon."""
    import json

    from jdr.dice.verifiable import load_entries, verify_blocks, verify_journal
    from jdr.render.json import dumps

    text = _read(fichier)
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    verdict = verify_journal(load_entries(data)) if data is not None else verify_blocks(text, graine)
    if as_json:
        _print(dumps(verdict.to_json()))
    else:
        for check in verdict.checks:
            where = f"n° {check.seq}" if check.seq else "journal"
            _print(f"{where} : {STATUS.get(check.status, check.status)} — {check.message}")
        counts = verdict.counts()
        summary = ", ".join(f"{n} {STATUS.get(k, k)}" for k, n in sorted(counts.items()))
        _print(("Tout est conforme" if verdict.ok else "Vérification échouée")
               + (f" ({summary})" if summary else " (aucune entrée vérifiable)"))
    if not verdict.ok or not verdict.checks:
        raise typer.Exit(1)


def commitment_cmd(
    fichier: Annotated[Path, typer.Option(
        "--fichier", help=f"Où garder la graine secrète (défaut {DEFAULT_COMMITMENT}).")] = Path(
            DEFAULT_COMMITMENT),
    reveler: Annotated[bool, typer.Option(
        "--reveler", help="Affiche la graine à publier (après les jets).")] = False,
    fmt: FormatOpt = "texte",
) -> None:
    """Jeu sur forum : un engagement à publier avant de lancer (jdr lancer … --verifiable), puis
    la graine à publier après."""
    from jdr.cli.engagement import read_commitment, write_commitment
    from jdr.dice.verifiable import commitment, new_seed

    if reveler:
        state = read_commitment(fichier)
        line = f"Graine de l'engagement {state['engagement']} : {state['graine']}"
        _print(f"[b]jdr : graine révélée[/b]\n{line}" if fmt == "forum" else line)
        return
    if fichier.exists():
        raise JdrError(f"{fichier} existe déjà : un engagement en cours (--reveler pour le clore, "
                       "ou --fichier AUTRE)")
    seed = new_seed()
    write_commitment(fichier, {"version": 1, "graine": seed.hex(), "engagement": commitment(seed),
                               "jets": 0})
    text = (f"Engagement jdr (SHA-256 de ma graine secrète) : {commitment(seed)}\n"
            "La graine sera publiée après les jets : chacun pourra les vérifier (jdr verifier).")
    _print(f"[quote]{text}[/quote]" if fmt == "forum" else text)


def verifiable_roll(expression: str, fichier: Path | None, fmt: str, as_json: bool) -> None:
    """`jdr lancer EXPR --verifiable`: the next roll of the forum commitment, as a block to post."""
    import json

    from jdr.cli.engagement import read_commitment, write_commitment
    from jdr.dice.notation import roll
    from jdr.dice.verifiable import EntrySource, entry_key, entry_tag
    from jdr.render.json import dumps
    from jdr.render.text import to_text

    path = fichier or Path(DEFAULT_COMMITMENT)
    state = read_commitment(path)
    number = int(state["jets"]) + 1
    seed = bytes.fromhex(state["graine"])
    key = entry_key(seed, "forum", number, [])
    from jdr.core.usecase import Recording

    source = Recording(EntrySource(key))
    result = roll(expression, source)
    params = {"expression": expression}
    dice = source.dice_json()
    block = {"v": 1, "engagement": state["engagement"], "seq": number, "action": "roll",
             "params": params, "dice": dice,
             "tag": entry_tag(key, "roll", params, dice)}
    text = to_text(result)
    line = "jdr-verif " + json.dumps(block, ensure_ascii=True, separators=(",", ":"))
    state["jets"] = number
    if as_json or fmt == "json":
        out = dumps({"type": "verifiable_roll", "result": json.loads(_json(result)), "block": block})
    elif fmt == "forum":
        out = (f"[quote][b]Jet vérifiable n° {number}[/b] (engagement {state['engagement'][:16]}…)\n"
               f"{text}\n[code]{line}[/code][/quote]")
    elif fmt == "discord":
        out = f"**Jet vérifiable n° {number}** (engagement `{state['engagement'][:16]}…`)\n{text}\n`{line}`"
    else:
        out = f"Jet vérifiable n° {number} (engagement {state['engagement']})\n{text}\n{line}"
    _print(out)
    write_commitment(path, state)  # written after the output: a failed print rolls nothing


def _json(result: Any) -> str:
    from jdr.render.json import dumps, to_json

    return dumps(to_json(result))

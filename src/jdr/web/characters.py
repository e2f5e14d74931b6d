"""Characters of a table: import a sheet (validated as the CLI does), list, read, update.

A joueur's new character is theirs; the MJ's are NPCs unless given to a joueur. A sheet is read
as JSON (the system's sheet view, through `core.actions`) or as its YAML; an update carries the
version it read, and a stale version gets 409 (never a silent overwrite).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Response
from fastapi import Path as PathParam

from jdr.web.auth import Caller
from jdr.web.deps import CallerDep, ServerDep
from jdr.web.errors import ApiError
from jdr.web.models import CharacterUpdate, NewCharacter

router = APIRouter(prefix="/api/tables/{id}/personnages", tags=["personnages"])
Name = Annotated[str, PathParam(min_length=1, max_length=200, description="Nom du personnage.",
                                examples=["Nain A"])]
Format = Annotated[Literal["json", "yaml"], Query(alias="format", description="json ou yaml.")]


def shown(text: str) -> str:
    from jdr.render.safe import clean

    return clean(text[:60])


def find(tx: Any, name: str) -> Any:
    """The character called `name` (spelling and accents aside), or 404."""
    from jdr.names import normalize

    key = normalize(name)
    for info in tx.characters():
        if normalize(info.name) == key:
            return info
    raise ApiError(404, f"personnage « {shown(name)} » introuvable")


def info_json(info: Any) -> dict[str, Any]:
    return {"nom": info.name, "type": info.kind, "groupe": info.group, "joueur": info.player,
            "version": info.version}


def readable(caller: Caller, info: Any) -> None:
    if not caller.may_read_character(info.player):
        raise ApiError(403, f"« {shown(info.name)} » n'est pas un de vos personnages")


def _sheet(text: str) -> Any:
    from jdr.core.sheet import SheetDocument

    return SheetDocument.from_text(text, Path("fiche.yaml"))


def _owner_for_new(caller: Caller, server: Any, wanted: str | None) -> str | None:
    from jdr.names import normalize

    caller.require_player()
    if caller.is_mj:
        return server.player_exists(caller.campaign.id, wanted) if wanted else None
    if wanted is not None and normalize(wanted) != normalize(caller.name):
        raise ApiError(403, "un joueur ne crée que ses propres personnages")
    return caller.name


@router.post("", status_code=201, summary="Importe une fiche YAML (validée comme en ligne de commande)")
def create_character(body: NewCharacter, caller: CallerDep, server: ServerDep) -> dict[str, Any]:
    from jdr.errors import RuleError

    player = _owner_for_new(caller, server, body.joueur)
    doc = _sheet(body.yaml)
    with caller.campaign.transaction() as tx:
        try:
            name = tx.add(doc, "pj" if player else "pnj", None, player)
        except RuleError as exc:
            if "existe déjà" in exc.message:
                raise ApiError(409, exc.message.split(" (")[0]) from None
            raise
        return info_json(find(tx, name))


@router.get("", summary="Les personnages que l'appelant peut lire")
def list_characters(caller: CallerDep) -> list[dict[str, Any]]:
    caller.require_player()
    with caller.campaign.reading() as tx:
        infos = tx.characters()
    return [info_json(i) for i in infos if caller.may_read_character(i.player)]


@router.get("/{nom}", summary="Une fiche : sa vue (JSON) et sa version, ou son YAML")
def get_character(nom: Name, caller: CallerDep, fmt: Format = "json") -> Any:
    from jdr.campaign.workspace import CampaignWorkspace
    from jdr.core.actions import execute

    caller.require_player()
    with caller.campaign.reading() as tx:
        info = find(tx, nom)
        readable(caller, info)
        if fmt == "yaml":
            return Response(tx.export(info.name), media_type="application/yaml; charset=utf-8",
                            headers={"ETag": f'"{info.version}"'})
        done = execute(CampaignWorkspace(tx), "show", {"personnage": info.name})
    return {**info_json(info), "fiche": done.rec.result, "texte": done.rec.text}


@router.put("/{nom}", summary="Remplace une fiche (avec la version lue : sinon 409)")
def update_character(nom: Name, body: CharacterUpdate, caller: CallerDep,
                     server: ServerDep) -> dict[str, Any]:
    from jdr.names import normalize

    caller.require_player()
    if body.joueur is not None and not caller.is_mj:
        raise ApiError(403, "seul le MJ confie un personnage à un joueur")
    player = server.player_exists(caller.campaign.id, body.joueur) if body.joueur else None
    doc = _sheet(body.yaml)
    with caller.campaign.transaction() as tx:
        info = find(tx, nom)
        readable(caller, info)
        if info.version != body.version:
            raise ApiError(409, f"version périmée : « {shown(info.name)} » est en version "
                                f"{info.version}, relisez la fiche avant de la modifier")
        name = tx.add(doc, replace=True)
        if normalize(name) != normalize(info.name):
            raise ApiError(422, f"la fiche s'appelle « {shown(name)} » : on ne renomme pas "
                                f"« {shown(info.name)} » ainsi")
        if player is not None:
            row = tx.row_of(tx.document(info.name))
            row.player, row.kind = player, "pj"
        return info_json(find(tx, info.name))

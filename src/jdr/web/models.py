"""The JSON bodies the API accepts (French field names, unknown fields refused)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, StrictInt, model_validator

from jdr.core.declare import ENGINE_KINDS, params_schema

MAX_ID = 2**31 - 1
MAX_YAML = 60_000
MAX_DEPTH = 20


def _clean_text(value: Any, depth: int = 0) -> None:
    """No NUL character and no lone UTF-16 surrogate anywhere (no database stores them)."""
    if depth > MAX_DEPTH:
        raise ValueError("structure trop imbriquée")
    if isinstance(value, str):
        if "\x00" in value or any("\ud800" <= c <= "\udfff" for c in value):
            raise ValueError("texte invalide (caractère nul ou demi-caractère UTF-16)")
    elif isinstance(value, dict):
        for key, item in value.items():
            _clean_text(key, depth + 1)
            _clean_text(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _clean_text(item, depth + 1)


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _no_bad_text(cls, data: Any) -> Any:
        _clean_text(data)
        return data


class NewTable(Body):
    nom: str = Field(min_length=1, max_length=200, description="Nom de la table (de la campagne).")
    systeme: str = Field(min_length=1, max_length=40,
                         description="Système de jeu : l'identifiant d'un système installé "
                                     "(liste : jdr systems).")


class Invitation(Body):
    role: Literal["joueur", "spectateur"] = Field(description="Rôle de la personne invitée.")
    nom: str = Field(min_length=1, max_length=200, description="Nom de la personne à la table.")


class NewCharacter(Body):
    yaml: str = Field(min_length=1, max_length=MAX_YAML, description="La fiche, en YAML.")
    joueur: str | None = Field(default=None, min_length=1, max_length=200,
                               description="Joueur à qui la confier (MJ seulement).")


class CharacterUpdate(Body):
    yaml: str = Field(min_length=1, max_length=MAX_YAML, description="La fiche entière, en YAML.")
    version: int = Field(ge=1, le=MAX_ID, description="La version lue (sinon 409).")
    joueur: str | None = Field(default=None, min_length=1, max_length=200,
                               description="La confier à ce joueur (MJ seulement).")


ACTION_TYPES = sorted(ENGINE_KINDS)
TYPE_ENUM: dict[str, JsonValue] = {"enum": [*ACTION_TYPES]}
# `params` documented per type, from the one declaration of each action (`jdr.core.declare`)
PARAMS_SCHEMA: dict[str, JsonValue] = {"anyOf": list(params_schema().values())}


class Action(Body):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"type": "roll", "params": {"expression": "4d6kh3"}},
        {"type": "check", "params": {"personnage": "Nain A", "competence": "hache", "seuil": "15"},
         "visibilite": "prive", "des": [8]},
        {"type": "attack", "params": {"attaquant": "Nain A", "defenseur": "Elfe B",
                                      "arme": "Hache de bûcheron"}},
    ]})

    type: str = Field(min_length=1, max_length=40, json_schema_extra=TYPE_ENUM,
                      description="L'action, comme la commande du même nom.")
    params: dict[str, Any] = Field(default_factory=dict, json_schema_extra=PARAMS_SCHEMA,
                                   description="Arguments de la commande par leurs noms français "
                                               "(un schéma par type d'action).")
    visibilite: Literal["public", "prive", "aveugle", "moi", "mj"] = Field(
        default="public", description="Mode du jet : public ; prive (moi et le MJ) ; aveugle (le "
        "MJ seul voit les dés et le résultat, l'auteur sait seulement qu'il a lancé) ; moi (pour "
        "moi seul, sans changer de fiche) ; mj (secret du MJ, MJ seulement).")
    derogation: bool = Field(default=False, description="MJ seulement : passer outre aux règles "
                             "du tour (hors de son tour, action de trop) ; écrit au journal.")
    des: list[StrictInt] | None = Field(default=None, min_length=1, max_length=1000,
                                        description="Faces lancées à la main, dans l'ordre des règles.")
    graine: int | None = Field(default=None, ge=0, le=999_999_999,
                               description="Graine (MJ seulement) : jets reproductibles.")
    choix: Literal["attendre", "defaut"] = Field(
        default="attendre", description="Quand les règles laissent un choix après les dés (le "
        "dé gardé d'une compétence experte, la prédilection, l'option d'un critique…) : attendre "
        "(la réponse 202 donne la question ; répondre par /attentes/{seq}/choix) ou defaut (le "
        "choix par défaut, aussitôt).")


class ChoiceBody(Body):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"choix": "2"}]})

    choix: str = Field(min_length=1, max_length=40,
                       description="La valeur d'un des choix proposés (`choix[].valeur`).")


class Message(Body):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"texte": "J'ouvre la porte [[1d20+5]]"}, {"texte": "/me dégaine sa hache"},
        {"texte": "/w Camille on la laisse passer ?"}, {"texte": "/w MJ je garde la clé"},
    ]})

    texte: str = Field(min_length=1, max_length=2000, description=(
        "Le message : du texte, `/me texte` (une action du personnage), `/w NOM texte` (chuchoté "
        "au MJ ou à un membre, `/w \"Nom composé\" texte`), `/r EXPRESSION` (un jet), et des jets "
        "dans le texte : `[[1d20+5]]` (10 au plus)."))
    des: list[StrictInt] | None = Field(default=None, min_length=1, max_length=1000,
                                        description="Faces à la main pour les jets du message.")


class RollRequest(Body):
    personnage: str = Field(min_length=1, max_length=200, description="Le personnage qui lance.")
    competence: str = Field(min_length=1, max_length=200, description="La compétence demandée.")
    seuil: str | None = Field(default=None, min_length=1, max_length=40,
                              description="Seuil (nombre ou nom de l'échelle).")
    bonus: int | None = Field(default=None, ge=-1000, le=1000, description="Bonus du MJ.")
    visibilite: Literal["public", "prive", "aveugle"] = Field(
        default="public", description="Mode du jet demandé (et de la demande elle-même).")


class Answer(Body):
    des: list[StrictInt] | None = Field(default=None, min_length=1, max_length=1000,
                                        description="Faces lancées à la main.")

"""The cat's sheet (SHEETS.md, `felins`): model, template, creation budgets and skill values.

Rules: R004.02–R004.11 (characteristics, ranks, clans, skills), A004.09 (budget = total),
A004.12 (skill costs), A004.13 (SAUT, REPÉRER/TROUVER halved), A004.25 (Langage humain +1).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict
from pydantic_core import PydanticCustomError

from jdr.core.french import Genre, accord, de, is_state
from jdr.core.frozen import frozen
from jdr.core.sheet import GenreField, InRange, Int, NormalizedKeys, SheetDocument, normalized_keys, validate
from jdr.errors import RuleError
from jdr.names import lookup, normalize
from jdr.systems.felins import tables
from jdr.systems.felins.config import DEFAULT, FelinsConfig

# ------------------------------------------------------------------ value types


def _name_in(table: dict[str, Any], what: str) -> BeforeValidator:
    """A name (rank, clan, state) matched per D-ALL.01; the error lists the allowed names."""

    def check(value: Any) -> str:
        if not isinstance(value, str):
            raise PydanticCustomError("texte", "« {value} » n'est pas un texte", {"value": value})
        key = normalize(value)
        if key not in table:
            raise PydanticCustomError(
                "nom_inconnu", "{what} « {value} » inconnu (autorisé : {allowed})",
                {"what": what, "value": value, "allowed": ", ".join(table)},
            )
        return key

    return BeforeValidator(check)


Rank = Annotated[str, _name_in(tables.RANKS, "rang")]
Clan = Annotated[str, _name_in(tables.CLANS, "clan")]
State = Annotated[str, _name_in(tables.STATES, "état")]
Care = Annotated[str, _name_in(tables.CARE, "soins")]
Characteristic = Annotated[Int, InRange(tables.CHARACTERISTIC_MIN, tables.CHARACTERISTIC_MAX)]
SkillRank = Annotated[Int, InRange(tables.SKILL_RANK_MIN, tables.SKILL_RANK_MAX)]
Reputation = Annotated[Int, InRange(tables.REPUTATION_MIN, tables.REPUTATION_MAX)]
Wounds = Annotated[Int, InRange(0)]


def _system_is_felins(value: Any) -> Any:
    if not isinstance(value, str) or normalize(value) != "felins":
        raise PydanticCustomError("systeme", "« {value} » : cette fiche n'est pas de felins",
                                  {"value": value})
    return "felins"


class Characteristics(BaseModel):
    """R004.02 the nine characteristics, each 1..5 (R004.03)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    force: Characteristic
    precision: Characteristic
    vigueur: Characteristic
    agilite: Characteristic
    intelligence: Characteristic
    volonte: Characteristic
    intuition: Characteristic
    sociabilite: Characteristic
    chance: Characteristic


def _skill_keys(value: Any) -> Any:
    """Skill names per D-ALL.01 plus the aliases of tables.SKILL_ALIASES (Chasser, Escalader…)."""
    value = normalized_keys(value, "competences")
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, item in value.items():
        canonical = tables.SKILL_ALIASES.get(str(key), str(key))
        if canonical in out:
            raise PydanticCustomError("doublon", "« {key} » est écrit deux fois dans competences",
                                      {"key": key})
        out[canonical] = item
    return out


def _known_skill(key: str) -> str:
    if key not in tables.SKILLS:
        from jdr.names import unknown_name_message

        raise PydanticCustomError("competence_inconnue", "{message}", {
            "message": unknown_name_message("compétence", key, tables.SKILLS)})
    return key


SkillName = Annotated[str, AfterValidator(_known_skill)]


class FelinsSheet(BaseModel):
    """SHEETS.md `felins`; unknown top-level keys are kept (a person's notes)."""

    model_config = ConfigDict(extra="allow", defer_build=True)
    systeme: Annotated[str, BeforeValidator(_system_is_felins)]
    nom: str
    genre: GenreField = None  # f, m ou absent (neutre) : accord des messages
    rang: Rank
    clan: Clan
    caracteristiques: Annotated[Characteristics, NormalizedKeys("caracteristiques")]
    competences: Annotated[dict[SkillName, SkillRank], BeforeValidator(_skill_keys)] = {}
    reputation: Reputation = 0  # R004.05 0..30 (base by rank: A004.10, 0 by default)
    blessures: Wounds = 0
    etat: State = "conscient"
    #: R004.32 / A004.30 minutes of unconsciousness left (3d10 × 5, rolled at the fall).
    inconscience: Annotated[Int, InRange(0, 1_000_000)] = 0
    #: R004.33 the last Soigner roll on this cat (`reussi`: not retried; `rate`: the next day).
    soins: Care = "aucun"


# ------------------------------------------------------------------ the cat


@frozen
class SkillScore:
    """R004.06 score = innate + acquired (+ Langage humain bonus, A004.25)."""

    skill: str
    innate: int
    acquired: int
    bonus: int = 0

    @property
    def total(self) -> int:
        return self.innate + self.acquired + self.bonus


def innate_value(values: tuple[int, ...]) -> int:
    """R004.09 one characteristic: itself; two: their average rounded UP (E004.02)."""
    return -(-sum(values) // len(values))


@frozen
class Cat:
    """A validated sheet, with the rules' computed values (R004.06–R004.11)."""

    name: str
    rank: str
    clan: str
    characteristics: dict[str, int]
    skills: dict[str, int]
    reputation: int
    wounds: int
    state: str
    unconscious_minutes: int = 0
    care: str = "aucun"
    genre: Genre = None

    @classmethod
    def from_sheet(cls, sheet: FelinsSheet) -> Cat:
        return cls(
            name=sheet.nom, rank=sheet.rang, clan=sheet.clan,
            characteristics=sheet.caracteristiques.model_dump(),
            skills=dict(sheet.competences), reputation=sheet.reputation,
            wounds=sheet.blessures, state=sheet.etat, unconscious_minutes=sheet.inconscience,
            care=sheet.soins, genre=sheet.genre,
        )

    @property
    def chance(self) -> int:
        return self.characteristics["chance"]

    @property
    def clan_skill(self) -> str:
        return tables.CLANS[self.clan][1]

    def characteristic(self, name: str) -> tuple[str, int]:
        """A characteristic by any spelling (D-ALL.01); French error with suggestions."""
        key, value = lookup(name, self.characteristics, "caractéristique")
        return key, value

    def skill_score(self, name: str, config: FelinsConfig = DEFAULT) -> SkillScore:
        """R004.06/R004.09 innate (average rounded up) + acquired; R004.10 Langage humain +1."""
        key, skill = lookup(name, tables.SKILLS, "compétence", tables.SKILL_ALIASES)
        values = tuple(self.characteristics[c] for c in skill.characteristics)
        unprinted = key in ("saut", "reperer_trouver")
        innate = sum(values) if unprinted and not config.halve_unprinted else innate_value(values)
        bonus = 0
        if (key == tables.LANGUAGE_BONUS_SKILL
                and self.skills.get(tables.LANGUAGE_BONUS_SOURCE, 0)
                >= tables.LANGUAGE_BONUS_MIN_RANK):
            bonus = 1
        return SkillScore(key, innate, self.skills.get(key, 0), bonus)

    def usable_skill(self, name: str, config: FelinsConfig = DEFAULT) -> SkillScore:
        """R004.08 an unowned skill counts as rank 0, but an (Ω) skill needs rank 1 (amateur)."""
        score = self.skill_score(name, config)
        skill = tables.SKILLS[score.skill]
        if skill.omega and score.acquired < 1:
            raise RuleError(
                f"{self.name} : la compétence « {skill.name} » (Ω) demande au moins le rang 1 "
                f"(amateur) pour être utilisée ; rang actuel {score.acquired} (néophyte)"
            )
        return score

    @property
    def awake(self) -> bool:
        """Conscious, fled or not (R004.32)."""
        return self.state in tables.AWAKE

    def require_able(self, what: str) -> None:
        """D-ALL.02 only a conscious cat still in the fight acts (R004.28, R004.32)."""
        if self.state != "conscient":
            rule = "R004.28" if self.state == tables.FLED else "R004.32"
            raise RuleError(f"{is_state(self.name, tables.RESULT_STATES[self.state], self.genre)} : "
                            + accord(self.genre, f"il ne peut pas {what}", f"elle ne peut pas {what}",
                                     f"impossible {de(what)}") + f" ({rule})")

    def require_awake(self, what: str) -> None:
        """A reaction (an opposed roll's other side) needs only an awake cat (R004.32)."""
        if not self.awake:
            raise RuleError(f"{is_state(self.name, tables.RESULT_STATES[self.state], self.genre)} : "
                            + accord(self.genre, f"il ne peut pas {what}", f"elle ne peut pas {what}",
                                     f"impossible {de(what)}") + " (R004.32)")


def load_cat(doc: SheetDocument) -> Cat:
    """Validate a sheet (every problem at once, French) and build the cat."""
    sheet = validate(FelinsSheet, doc)
    assert isinstance(sheet, FelinsSheet)
    return Cat.from_sheet(sheet)


# ------------------------------------------------------------------ creation (R004.04, R004.07)


def characteristic_budget(rank: str) -> int:
    """R004.04 points of a rank (E004.09), read as the total of the nine values (A004.09)."""
    return tables.RANKS[rank][1]


def skill_points(intelligence: int, volonte: int) -> int:
    """R004.07 skill points at creation = (Intelligence + Volonté) × 3 (E004.10)."""
    return (intelligence + volonte) * tables.SKILL_POINTS_FACTOR


def creation_problems(cat: Cat, config: FelinsConfig = DEFAULT) -> list[str]:
    """What holds only at creation: R004.04 budget, R004.03 Chance ≤ 3, R004.07 skill points."""
    from jdr.systems.felins.progression import skill_cost

    problems: list[str] = []
    rank_label, budget = tables.RANKS[cat.rank]
    values = cat.characteristics
    spent = sum(values.values()) if config.budget_is_total else sum(v - 1 for v in values.values())
    if spent > budget:
        problems.append(
            f"caracteristiques : {spent} points dépensés pour un budget de {budget} "
            f"(rang {rank_label}), {spent - budget} de trop"
        )
    elif spent < budget and config.budget_exact:
        problems.append(
            f"caracteristiques : {spent} points dépensés pour un budget de {budget} "
            f"(rang {rank_label}), {budget - spent} à répartir"
        )
    if values["chance"] > tables.CHANCE_CREATION_MAX:
        problems.append(
            f"caracteristiques.chance = {values['chance']} : la Chance ne peut pas dépasser "
            f"{tables.CHANCE_CREATION_MAX} à la création (autorisé : de 1 à "
            f"{tables.CHANCE_CREATION_MAX})"
        )
    allowed = skill_points(values["intelligence"], values["volonte"])
    used = sum(skill_cost(skill, rank, cat.clan, config) for skill, rank in cat.skills.items())
    if used > allowed:
        problems.append(
            f"competences : {used} points de compétence dépensés, autorisé : au plus {allowed} "
            f"((Intelligence {values['intelligence']} + Volonté {values['volonte']}) × 3)"
        )
    return problems


TEMPLATE = """\
# Fiche « felins » (règles du forum des clans de chats, RULES.md section 5)
systeme: felins
nom: Patte-de-Brume
rang: apprenti        # chaton, apprenti, apprenti_guerisseur, guerrier, lieutenant, guerisseur,
                      # ancien, chef, ancien_chef
clan: roches          # eaux (Nager), plaines (Chasse), roches (Discrétion), brumes (Escalade)
caracteristiques:     # 1 à 5 ; à la création la somme des neuf = budget du rang
                      # (chaton 9, apprentis 16, guerrier/lieutenant/guérisseur/ancien 28,
                      # chef/ancien chef 30) et chance <= 3
  force: 2
  precision: 2
  vigueur: 2          # blessures encaissées avant l'inconscience
  agilite: 2          # seuil pour être touché : 5 + 2 × agilité ; initiative
  intelligence: 2
  volonte: 2
  intuition: 2
  sociabilite: 1
  chance: 1           # nombre de d10 lancés ; bouge de 1 sur un critique (1 à 5)
# Rang acquis 0 à 5 (l'inné est calculé). Coût des rangs 1/2/4/8/16, compétence du clan
# 0/1/2/4/8 ; points à la création : (intelligence + volonte) × 3.
# Compétences (Ω = rang 1 minimum pour s'en servir) : chasse, combat_griffu,
# connaissance_de_la_rue (Ω), connaissance_de_la_foret, discretion, escalade, provoquer,
# langage_humain (Ω), leadership, nager (Ω), odorat, orientation, psychologie_humaine (Ω),
# saut, seduire, soigner (Ω), survie, reperer_trouver, utiliser_un_objet_humain
competences: {combat_griffu: 2, discretion: 1}
reputation: 0         # 0 à 30 ; +1 au duel par tranche de 5
blessures: 0          # niveaux de blessure encaissés (malus à tous les jets)
etat: conscient       # conscient, en_fuite (jusqu'à la fin du combat), inconscient, coma, mort
inconscience: 0       # minutes d'inconscience restantes (3d10 × 5, tirées à la chute)
soins: aucun          # dernier jet de Soigner reçu : aucun, reussi (pas de nouvel essai),
                      # rate (nouvel essai le lendemain)
"""

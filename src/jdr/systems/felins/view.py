"""What a player reads of the system: `jdr fiche voir` (the sheet with every computed value) and
`jdr aide felins` (characteristics, skills, what the dice do)."""

from __future__ import annotations

from jdr.core.french import state_label
from jdr.core.results import Row, Section, SheetView
from jdr.core.system import SystemHelp
from jdr.systems.felins import tables
from jdr.systems.felins.combat import to_hit_threshold
from jdr.systems.felins.config import DEFAULT, FelinsConfig
from jdr.systems.felins.duel import reputation_bonus
from jdr.systems.felins.sheet import Cat, skill_points


def _identity(cat: Cat) -> Section:
    clan, clan_skill = tables.CLANS[cat.clan]
    rep = cat.reputation
    return Section("Identité", (
        Row("rank", "Rang", cat.rank, tables.RANKS[cat.rank][0], "R004.04"),
        Row("clan", "Clan", cat.clan,
            f"{clan} (compétence de clan : {tables.SKILLS[clan_skill].name})", "R004.11"),
        Row("reputation", "Réputation", rep, f"{rep} (duel +{reputation_bonus(rep)})", "R004.27"),
        Row("wounds", "Blessures", cat.wounds,
            f"{cat.wounds} (malus −{cat.wounds} à chaque jet)" if cat.wounds else "0", "R004.22"),
        Row("state", "État", cat.state, state_label(cat.state, cat.genre),
            "R004.28" if cat.state == tables.FLED else "R004.32"),
        Row("unconscious_minutes", "Inconscience restante", cat.unconscious_minutes,
            f"{cat.unconscious_minutes} min" if cat.unconscious_minutes else "—", "R004.32"),
        Row("care", "Soins", cat.care, tables.CARE[cat.care], "R004.33"),
    ))


def _characteristics(cat: Cat) -> Section:
    return Section("Caractéristiques", tuple(
        Row(key, label, cat.characteristics[key], rule="R004.02")
        for key, label in tables.CHARACTERISTICS.items()))


def _skills(cat: Cat, config: FelinsConfig) -> Section:
    rows: list[Row] = []
    for key, skill in tables.SKILLS.items():
        score = cat.skill_score(key, config)
        text = f"inné {score.innate} + acquis {score.acquired}"
        if score.bonus:
            text += f" + {score.bonus}"
        text += f" = {score.total}"
        if skill.omega and score.acquired < 1:
            text += " — inutilisable (Ω : rang 1 au moins)"
        label = skill.name + (" (Ω)" if skill.omega else "")
        rows.append(Row(key, label, score.total, text, "R004.06"))
    return Section("Compétences (inné + acquis = score)", tuple(rows))


def _combat(cat: Cat) -> Section:
    agi, vig = cat.characteristics["agilite"], cat.characteristics["vigueur"]
    return Section("Jets et combat", (
        Row("dice", "Dés lancés", cat.chance, f"{cat.chance}d10, garder un dé (Chance)", "R004.12"),
        Row("defence", "Seuil pour être touché", to_hit_threshold(agi),
            f"5 + 2 × Agilité {agi} = {to_hit_threshold(agi)}", "R004.24"),
        Row("initiative", "Initiative", agi, f"Agilité {agi}, puis Chance {cat.chance}", "R004.29"),
        Row("knockout", "Blessures avant l'inconscience", vig, f"{vig} (Vigueur)", "R004.32"),
        Row("skill_points", "Points de compétence à la création",
            skill_points(cat.characteristics["intelligence"], cat.characteristics["volonte"]),
            rule="R004.07"),
    ))


def sheet_view(cat: Cat, config: FelinsConfig = DEFAULT) -> SheetView:
    """`jdr fiche voir`: the sheet with every computed skill score (R004.06, R004.09)."""
    return SheetView("felins", cat.name, (_identity(cat), _characteristics(cat),
                                          _skills(cat, config), _combat(cat)))


def _innate(characteristics: tuple[str, ...]) -> str:
    names = " + ".join(tables.CHARACTERISTICS[c] for c in characteristics)
    return names + (" / 2" if len(characteristics) > 1 else "")


def system_help() -> SystemHelp:
    """`jdr aide felins`."""
    skills = {key: f"{s.name}{' (Ω)' if s.omega else ''} — inné : {_innate(s.characteristics)}"
              for key, s in tables.SKILLS.items()}
    return SystemHelp(dict(tables.CHARACTERISTICS), skills, (), (
        "Jet : CHANCE d10 (autant de d10 que la Chance), garder le meilleur dé (ou --choix N), "
        "+ compétence (inné + acquis) ou + 2 × caractéristique, contre un seuil (--seuil).",
        "Marge en lignes de l'échelle : (total − seuil) / 2 arrondi vers le bas.",
        "Chaque 10 et chaque 1 est relancé une fois : deux 10 = réussite critique (Chance +1), "
        "deux 1 = échec critique (Chance −1) ; les deux ensemble s'annulent.",
        "Compétences (Ω) : rang 1 au moins pour s'en servir.",
        "Combat : seuil 5 + 2 × Agilité du défenseur (--opt protection=…, surprise=…), "
        "blessures = marge.",
        "Blessures au-delà de la Vigueur : inconscient 3d10 × 5 minutes (jdr regle reveil CHAT "
        "--opt minutes=N), blessé encore : coma (seuls les soins en sortent), puis mort.",
        "Un chat blessé qui rate son jet de Volonté est en fuite jusqu'à la fin du combat "
        "(jdr regle fin_combat CHATS…).",
        "Soins : jdr regle soigner SOIGNEUR PATIENT [--opt seuil=…] ; tanière : jdr regle "
        "tanniere PATIENT --opt jours=N.",
        "Dépense d'XP : les prix de la boutique ne sont pas dans les règles (pas de jdr xp).",
    ))

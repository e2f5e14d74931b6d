"""Every table of the d20 Mastery-Rank rules (RULES.md section 2), as data.

- `CHARACTERISTICS` : the six characteristics (R001.01), 1..20 (R001.02).
- `MODIFIERS` : the characteristic modifier table (R001.03, E001.01).
- `RANKS` : the six mastery ranks with their die face, gold cost and teacher (R001.05, E001.06,
  E001.07, A001.19), and their Charisme / Volonté bonuses (R001.06, E001.08).
- `ATTACK_CRITICALS` / `DEFENCE_CRITICALS` : the options a critical success may take (R001.18,
  R001.19).

- `STANDING` / `DOWN` / `DEAD` : the states of D-001.30 (death only by the MJ's decision).

Not modelled, by the rules' own silence: combat techniques (R001.30, A001.22: GM content), the
surprise contest's skills (A001.24: the MJ names them, `surprise.py`), the truncated sentences
(R001.31 / A001.13 on the modifier table, R001.20 / A001.08 on critical failure), the typos
(A001.28).
"""

from __future__ import annotations

from dataclasses import dataclass

# ------------------------------------------------------------------ characteristics (R001.01)

# A001.14: the source's "L'apparence" is read as the single characteristic Charisme.
CHARACTERISTICS: dict[str, str] = {
    "intelligence": "Intelligence",
    "adresse": "Adresse",
    "force": "Force",
    "charisme": "Charisme",
    "volonte": "Volonté",
    "constitution": "Constitution",
}

CHARACTERISTIC_MIN = 1  # A001.15: the modifier table starts at 1
CHARACTERISTIC_MAX = 20  # R001.02
SKILL_MIN = 0  # R001.04
SKILL_MAX = 100  # R001.04

# R001.03 / E001.01: "Modification de la caractéristique", reproduced exactly (L54-55, L159-160).
MODIFIERS: dict[int, int] = {
    1: -5, 2: -4, 3: -3, 4: -2, 5: -1,
    6: 0, 7: 0, 8: 0, 9: 0,
    10: 1, 11: 2, 12: 3, 13: 4, 14: 5, 15: 6, 16: 7, 17: 8, 18: 9, 19: 10, 20: 11,
}


def modifier(level: int) -> int:
    """R001.03: the modifier of a characteristic level.

    The table covers 1..20; a characteristic raised above 20 by the Maître / Grand maître bonuses
    (A001.20) continues the table's last line (`L - 9`), below 1 its first (`L - 6`).
    """
    if level in MODIFIERS:
        return MODIFIERS[level]
    return level - 9 if level > CHARACTERISTIC_MAX else level - 6


# ------------------------------------------------------------------ the d20 (R001.08)

DIE = 20
CRITICAL_SUCCESS_FACE = 20  # R001.08
CRITICAL_FAILURE_FACE = 1  # R001.08, R001.13: never an extra critical face
CHOOSABLE_FACES = range(2, 20)  # E001.04: 2..19 (20 is already critical, 1 never)
CHARACTERISTIC_MARGIN = 10  # R001.12: a characteristic roll needs a margin of 10
DAMAGE_DIE = 6  # R001.21
CRITICAL_DIE = 10  # R001.18 (Dégâts), R001.19 (Solidifier ses appuis, Résister au coup)
SPEED_MARGIN = 10  # R001.18 / R001.19 Rapidité, E001.09
FOOTING_BONUS = 5  # R001.19 Solidifier ses appuis: 1D10 + 5, E001.10
INCOMPETENT_DAMAGE = -2  # R001.05 / R001.23, E001.05


# ------------------------------------------------------------------ mastery ranks (R001.05)


@dataclass(frozen=True, slots=True)
class Rank:
    """One mastery rank (rang d'apprentissage) of R001.05."""

    key: str
    name: str
    low: int
    high: int
    success_face: int  # R001.09 / E001.06: natural d20 needed
    gold: int | None  # E001.07: gold pieces to the teacher; None = undetermined (Grand maître)
    teacher: str | None  # A001.19: the teacher's rank; None = no teacher (Incompétent, Grand maître)
    charisme: int  # R001.06 / E001.08: bonus gained on reaching this rank
    volonte: int

    def contains(self, level: int) -> bool:
        return self.low <= level <= self.high


RANKS: tuple[Rank, ...] = (
    Rank("incompetent", "Incompétent", 0, 0, 10, 0, None, 0, 0),
    Rank("novice", "Novice", 1, 19, 10, 1, "competent", 0, 0),
    Rank("competent", "Compétent", 20, 49, 8, 12, "experimente", 0, 0),
    Rank("experimente", "Expérimenté", 50, 79, 6, 24, "maitre", 0, 0),
    Rank("maitre", "Maître", 80, 99, 4, 60, "grand_maitre", 1, 1),
    Rank("grand_maitre", "Grand maître", 100, 100, 2, None, None, 2, 2),
)

RANK_BY_KEY: dict[str, Rank] = {r.key: r for r in RANKS}


def rank_of(level: int) -> Rank:
    """R001.05: the rank of a skill level (100 and 100+ are Grand maître)."""
    for rank in RANKS:
        if rank.contains(level):
            return rank
    if level > SKILL_MAX:
        return RANKS[-1]
    raise ValueError(f"niveau de compétence impossible : {level}")


def rank_bonus(level: int) -> tuple[int, int]:
    """R001.06: the (Charisme, Volonté) bonus one skill of this level gives (cumulative)."""
    cha = sum(r.charisme for r in RANKS if level >= r.low)
    vol = sum(r.volonte for r in RANKS if level >= r.low)
    return cha, vol


# ------------------------------------------------------------------ critical options

ATTACK_CRITICALS: dict[str, str] = {  # R001.18
    "rapidite": "Rapidité : +10 de marge, action bonus si l'attaque n'est pas parée",
    "degats": "Dégâts : +1D10 aux dégâts si l'attaque réussit",
    "precision": "Précision : l'attaquant choisit l'endroit de l'impact",
    "mj": "Laisser faire le MJ",
}

DEFENCE_CRITICALS: dict[str, str] = {  # R001.19
    "rapidite": "Rapidité : +10 de marge, contre-attaque si la défense réussit",
    "appuis": "Solidifier ses appuis : +1D10+5 de marge",
    "resister": "Résister au coup : −1D10 aux dégâts subis",
    "mj": "Laisser faire le MJ",
}

DEFENCES: dict[str, str] = {  # R001.15
    "parade": "Parade : la compétence de l'arme, la plus grande marge l'emporte",
    "esquive": "Esquive : jet d'Adresse, 10 de marge évitent le coup quelle que soit l'attaque",
    "aucune": "Aucune défense : l'attaque réussie touche",
}

DODGE = "esquive"  # R001.17: the name that rolls Adresse as a dodge

# ------------------------------------------------------------------ states (D-001.30, D-ALL.02)

STANDING, DOWN, DEAD = "debout", "hors_de_combat", "mort"
STATE_WORDS: dict[str, str] = {  # how a state reads in French
    STANDING: "debout",
    DOWN: "hors de combat (0 pv)",
    DEAD: "mort (décision du MJ)",
}

"""The configurable choices of the CYD System: one dataclass, defaults = RULES.md decisions.

Every value that RULES.md calls "configurable" or "[Proposed]" lives here once; the rules read
it from here and nowhere else. `CydConfig.with_options(options)` applies the `--opt cle=valeur`
keys of one command (see the package docstring for the list).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

from jdr.errors import RuleError
from jdr.names import normalize, unknown_name_message
from jdr.systems.cyd import tables

RetryMode = Literal["avertir", "bloquer", "ignorer"]


@dataclass(frozen=True)
class CydConfig:
    """Configuration of the CYD System (RULES.md section 4)."""

    # D-003.06 / A003.06: difficulty ladder (name -> threshold); "facile" 5 is the document's.
    ladder: tuple[tuple[str, int], ...] = tuple(tables.LADDER.items())
    # R003.05: the player must choose; None = refuse a test without a die. Default "d10" (the
    # cautious die), announced in the result, so a forgotten --de never rolls the risky one.
    default_die: str | None = "d10"
    # A003.16: retrying a failed action: "avertir" (warning, the default asked for), "bloquer"
    # (refused unless the MJ says circumstances changed), "ignorer" (rule off).
    retry: RetryMode = "avertir"
    # A003.09: cooperation bonus table, steps (minimum helper skill, bonus); empty = no bonus.
    cooperation_bonus: tuple[tuple[int, int], ...] = tables.COOPERATION_BONUS
    # A003.03: "passive" opposition = threshold is the opponent's Capacité (unaware opponent).
    passive_opposition: bool = False
    # A003.05 / R003.13: the die the opponent rolls in an opposed test when not told.
    opponent_die: str = "d10"
    # A003.10: the meaning of each outcome of a long action (placeholders).
    long_action_outcomes: tuple[tuple[str, str], ...] = tuple(tables.LONG_ACTION_OUTCOMES.items())
    long_action_heroic_factor: float = tables.LONG_ACTION_HEROIC_FACTOR
    # A003.11: duel scoring (placeholder): rounds to win, and a cap on rounds.
    duel_wins: int = tables.DUEL_WINS_NEEDED
    duel_max_rounds: int = tables.DUEL_MAX_ROUNDS

    @property
    def ladder_map(self) -> dict[str, int]:
        return dict(self.ladder)

    def cooperation_for(self, helper_skill: int) -> int:
        """R003.18 / A003.09: the bonus one helper brings, from the (configurable) table."""
        bonus = 0
        for minimum, value in sorted(self.cooperation_bonus):
            if helper_skill >= minimum:
                bonus = value
        return bonus

    def with_options(self, options: Mapping[str, str]) -> CydConfig:
        """Apply the configuration keys of `--opt` (the other keys are read by the rules)."""
        config = self
        for raw_key, value in options.items():
            key = normalize(raw_key)
            if key == "retente":
                mode = normalize(value)
                if mode not in ("avertir", "bloquer", "ignorer"):
                    raise RuleError(
                        f"--opt retente={value} : valeur inconnue (autorisé : avertir, bloquer, "
                        "ignorer)"
                    )
                config = replace(config, retry=mode)  # type: ignore[arg-type]
            elif key == "table_cooperation":
                config = replace(config, cooperation_bonus=parse_steps(value, raw_key))
            elif key == "de_adverse":
                config = replace(config, opponent_die=die_name(value, f"--opt {raw_key}"))
            elif key == "opposition":
                mode = normalize(value)
                if mode not in ("active", "passive"):
                    raise RuleError(
                        f"--opt opposition={value} : valeur inconnue (autorisé : active, passive)"
                    )
                config = replace(config, passive_opposition=mode == "passive")
            elif key == "de_par_defaut":
                config = replace(config, default_die=die_name(value, f"--opt {raw_key}"))
        return config


# every key `--opt` accepts, and what it does (French, for the error on an unknown key)
OPTION_KEYS: dict[str, str] = {
    "predilection": "utiliser la prédilection : oui, ou la face du premier jet déjà lancé",
    "opposition": "active (les deux lancent) ou passive (seuil = Capacité adverse)",
    "de_adverse": "dé de l'adversaire : d10 ou d20",
    "carac_adverse": "attribut de l'adversaire",
    "action": "nom de l'action (règle de la nouvelle tentative)",
    "circonstances": "changees : le MJ autorise une nouvelle tentative",
    "retente": "avertir, bloquer ou ignorer (règle de la nouvelle tentative)",
    "aides": "valeurs de compétence des aides, ex. 3,5",
    "table_cooperation": "table de coopération, ex. 1:1,5:2 (compétence min : bonus)",
    "duree": "durée moyenne d'une action longue, ex. 4h",
    "de_par_defaut": "dé lancé quand --de est absent",
    "competence": "duel : compétence des deux camps",
    "competence_a": "duel : compétence du premier",
    "competence_b": "duel : compétence du second",
    "attributs": "duel : attribut(s) du premier par manche, ex. adresse,adresse,puissance",
    "attributs_b": "duel : attribut(s) du second par manche",
    "de_a": "duel : dé du premier",
    "de_b": "duel : dé du second",
    "victoires": "duel : manches à gagner",
    "manches_max": "duel : nombre maximal de manches",
}


# the keys `jdr check` / `jdr odds` read (the others are for `jdr duel`)
DUEL_KEYS: tuple[str, ...] = ("competence", "competence_a", "competence_b", "attributs",
                              "attributs_b", "de_a", "de_b", "victoires", "manches_max")
CHECK_KEYS: tuple[str, ...] = tuple(k for k in OPTION_KEYS if k not in DUEL_KEYS)


def check_option_keys(options: Mapping[str, str], allowed: tuple[str, ...] | None = None) -> None:
    """A mistyped `--opt` key must not be silently ignored."""
    keys = allowed if allowed is not None else tuple(OPTION_KEYS)
    for raw_key in options:
        if normalize(raw_key) not in keys:
            raise RuleError(unknown_name_message("option --opt", raw_key, keys))


def die_name(value: str | None, where: str = "--de") -> str:
    """R003.05: only the d10 and the d20 exist in this system."""
    text = normalize(value or "")
    if text in ("10", "1d10"):
        text = "d10"
    if text in ("20", "1d20"):
        text = "d20"
    if text not in tables.DICE:
        raise RuleError(
            f"{where} : dé « {value} » impossible dans le système CYD ; choisissez d10 "
            "(prudent) ou d20 (risqué)"
        )
    return text


def parse_int(value: str, where: str, lo: int | None = None, hi: int | None = None) -> int:
    text = value.strip().replace("−", "-")
    try:
        number = int(text)
    except ValueError:
        raise RuleError(f"{where} : « {value} » n'est pas un nombre entier") from None
    if (lo is not None and number < lo) or (hi is not None and number > hi):
        bounds = f"de {lo} à {hi}" if hi is not None else f"au moins {lo}"
        raise RuleError(f"{where} : {number} hors limites (autorisé : {bounds})")
    return number


def parse_steps(text: str, key: str) -> tuple[tuple[int, int], ...]:
    """`1:1,5:2` -> ((1, 1), (5, 2)); empty text = empty table."""
    steps: list[tuple[int, int]] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if ":" not in part:
            raise RuleError(
                f"--opt {key} : « {part} » ne se lit pas « compétence:bonus » (ex. 1:1,5:2)"
            )
        left, right = part.split(":", 1)
        steps.append((parse_int(left, f"--opt {key}", tables.SKILL_MIN, tables.SKILL_MAX),
                      parse_int(right, f"--opt {key}")))
    return tuple(steps)


DEFAULT = CydConfig()

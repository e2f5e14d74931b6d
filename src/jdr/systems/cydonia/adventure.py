"""Cydonia, other rules (RULES.md 1.5): search and gold, negotiation, medicine, rest, carrying,
summons, movement, riding, taming."""

from __future__ import annotations

from jdr.core.check import CheckResult
from jdr.core.contest import ContestResult
from jdr.core.frozen import frozen
from jdr.errors import RuleError
from jdr.names import normalize
from jdr.systems.cydonia.config import CONFIG
from jdr.systems.cydonia.tables import REST_DICE, RIDING


def negotiation_discount(result: ContestResult) -> int:
    """R000.55, A000.19: 5 % per 2 points above the merchant, at most 50 %; a critical in the
    player's favour (their 10 or the merchant's 1) gives 50 %; criticals on both sides cancel."""
    player_fav = result.actor.critical == "success" or result.opponent.critical == "failure"
    merchant_fav = result.actor.critical == "failure" or result.opponent.critical == "success"
    if player_fav and not merchant_fav:
        return 50
    return discount_for_difference(result.actor.total - result.opponent.total)


def discount_for_difference(diff: int) -> int:
    """R000.55: min(50, 5 × floor(diff / 2)) when the player is higher, else 0."""
    if diff <= 0:
        return 0
    return min(50, 5 * (diff // 2))


@frozen
class SearchFind:
    found: str      # "rien", "objets simples", "tous les objets + un objet magique"
    gold: int
    silver: int


def search(result: CheckResult, corpse: bool = True) -> SearchFind:
    """R000.56, A000.31: criticals decide what is found; the total is silver pieces (10 Par = 1 Po)."""
    if result.critical == "failure":
        return SearchFind("rien", 0, 0)
    if result.critical == "success":
        found = "tous les objets + un objet magique"
    elif result.success is False:
        found = "rien"
    else:
        found = "objets simples"
    if not corpse:
        return SearchFind(found, 0, 0)
    gold, silver = money(result.total)
    return SearchFind(found, gold, silver)


def money(total: int) -> tuple[int, int]:
    """R000.56: 23 → 2 Po + 3 Par."""
    total = max(total, 0)
    return total // 10, total % 10


def medicine_malus_removed(total: int, current_malus: int | None = None) -> int:
    """R000.54, A000.15: 1–5 → 1, 6–10 → 2, 11–15 → 3, 16–20 → 4 (the source's "−4"), 21–25 → 4,
    26–30 → 5, then +1 per 5 (reading a); reading b is ceil(total / 5). Capped at the malus."""
    if total <= 0:
        removed = 0
    elif CONFIG.medicine_reading == "motif":
        removed = -(-total // 5)
    else:
        band = -(-total // 5)   # 1 for 1–5, 2 for 6–10, ...
        removed = band if band <= 4 else band - 1
    if current_malus is not None:
        removed = min(removed, max(current_malus, 0))
    return removed


def medicine_hit_points(medicine_skill: int) -> int:
    """R000.54: a successful Médecine roll restores HP equal to the healer's skill."""
    return medicine_skill


def rest_die(condition: str) -> int:
    """R000.52, A000.25: the die the MJ picks for a night's rest."""
    key = normalize(condition)
    if key not in REST_DICE:
        raise RuleError(f"repos « {condition} » inconnu (autorisé : {', '.join(REST_DICE)})")
    return REST_DICE[key]


def rest_recovery(physique: int, die_face: int) -> int:
    """R000.52: PHY + 1 die."""
    return physique + die_face


def carrying_left(physique: int, small: int, large: int) -> tuple[int, int]:
    """R000.51, A000.24: shared pool (small + 5 × large ≤ 5 × PHY) → (small left, large left);
    separate pools: 5 × PHY small and PHY large."""
    if CONFIG.carry_shared_pool:
        left = 5 * physique - small - 5 * large
        return left, left // 5
    return 5 * physique - small, physique - large


def creatures(skill: int) -> int:
    """R000.57, A000.20: ceil(skill / 5) creatures (0 at 0)."""
    return -(-max(skill, 0) // 5)


def taming_difficulty(training_difficulty: int) -> int:
    """R000.57: taming a wild beast = training difficulty + 10."""
    return training_difficulty + 10


def running_metres(total: int) -> int:
    """R000.58: Course total = metres."""
    return total


def swimming_metres(total: int) -> int:
    """R000.58, A000.35: Nager total ÷ 2, rounded down."""
    return total // 2


def riding_difficulty(pace: str) -> int:
    """R000.37: mount 10, walk 10, trot 15, gallop 20, triple gallop 25."""
    key = normalize(pace)
    if key not in RIDING:
        raise RuleError(f"allure « {pace} » inconnue (autorisé : {', '.join(RIDING)})")
    return RIDING[key]

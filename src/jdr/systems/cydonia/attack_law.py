"""The exact table of one attack (R000.22–R000.41) for the simulator, from the laws of its parts.

`combat.attack` rolls, in order: attack against defence (a d10 each, two for an expert), the
location d20, the weapon's damage dice and a critical location's extra dice, then a Résistance
Physique d10 (a head hit, the Bijoux de famille). Enumerated die by die, the demo's dwarf against
its goblin is about 327,000 face sequences. Here each roll is the law of its own definition (the
checks' outcomes, the ones their odds count; the damage formula's odds) and the steps between
them are the functions `attack` calls (`attack_contest`, `spent_updates`, `hit_first`, `zone_at`,
`weapon_damage_law`, `raw_damage`, `protection_for`, `suffered_damage`, `state_after`,
`head_roll`, `head_effects`, `hit_updates`): the same table, equal values merged at each step
(the margin, the zone, the damage suffered). tests/sim/test_compiled.py compares it with the
enumeration.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from typing import TypeVar

from jdr.core.compile import (
    Effect,
    Law,
    check_outcomes,
    effect_from,
    expression_law,
    law,
    then,
)
from jdr.core.contest import Contest
from jdr.core.sheet import SheetDocument
from jdr.core.system import Loaded
from jdr.systems.cydonia.checks import Character
from jdr.systems.cydonia.combat import (
    LOCATION_DIE,
    AttackOptions,
    Stroke,
    attack_contest,
    head_effects,
    head_roll,
    hit_first,
    hit_updates,
    raw_damage,
    require_fight,
    spent_updates,
    zone_at,
)
from jdr.systems.cydonia.rulekit import Update, sheet_changes
from jdr.systems.cydonia.sheet import CydoniaSheet
from jdr.systems.cydonia.tables import Zone
from jdr.systems.cydonia.wounds import (
    aimed_zone,
    protection_for,
    state_after,
    suffered_damage,
    weapon_damage_law,
)

V = TypeVar("V")
NOTHING = Fraction(1)
HOLD = "prise"  # a Kravkar hold that succeeds (R000.42): no location, no damage
Landing = tuple[Zone, int] | str | None  # (zone, damage suffered), HOLD, or None: a miss
_LANDINGS: dict[str, Law[Landing] | None] = {}
_TABLES: dict[str, Law[Effect] | None] = {}
_KEPT = 4096


def attack_outcomes(attacker: Loaded[CydoniaSheet], defender: Loaded[CydoniaSheet],
                    opts: AttackOptions) -> Law[Effect] | None:
    """Every effect of one attack on the two sheets (0: attacker, 1: defender), exact; None
    when a damage formula's law is not computed whole (explosions). The attacker's own hit
    points count for nothing (the table is computed at its full hit points): kept per
    attacker apart from its hit points and per defender."""
    a, d = _at_full(Character(attacker.model)), Character(defender.model)
    require_fight(a, d)
    key = f"{a.sheet.model_dump_json()}\n{d.sheet.model_dump_json()}\n{opts!r}"
    return _kept(_TABLES, key, lambda: _table(a, d, opts, (attacker.doc, defender.doc)))


def _kept(cache: dict[str, V], key: str, compute: Callable[[], V]) -> V:
    """The value kept under `key`, computed the first time (the cache emptied past _KEPT)."""
    if key in cache:
        return cache[key]
    if len(cache) >= _KEPT:
        cache.clear()
    found = cache[key] = compute()
    return found


def _table(a: Character, d: Character, opts: AttackOptions, docs: tuple[SheetDocument, ...]
           ) -> Law[Effect] | None:
    landings = landing_law(a, d, opts)
    if landings is None:
        return None
    mine = effect_from(sheet_changes(docs[0], spent_updates(a, opts)), docs)
    first = tuple(hit_first(a, d, opts))
    blows: list[tuple[tuple[Update, ...], Fraction]] = []
    for landing, p in landings.items():
        if landing is None:
            blows.append(((), p))
        elif isinstance(landing, str):
            blows.append((first, p))
        else:
            blows += [(first + u, p * q) for u, q in _wound(d, *landing, opts).items()]
    return {mine + effect_from(sheet_changes(docs[1], u), docs): p
            for u, p in law(blows).items()}


def landing_law(attacker: Character, defender: Character, opts: AttackOptions
                ) -> Law[Landing] | None:
    """Where the attack lands and the damage it does there, before the hit points count:
    computed with both characters at their full hit points, so that nothing of it can read
    them, and kept per pair of sheets apart from their hit points (a fight meets the same
    pair at every health). tests/sim/test_compiled.py compares the whole table with the
    enumeration on characters that are not at their full hit points."""
    a, d = _at_full(attacker), _at_full(defender)
    key = f"{a.sheet.model_dump_json()}\n{d.sheet.model_dump_json()}\n{opts!r}"
    return _kept(_LANDINGS, key, lambda: _landings(a, d, opts))


def _at_full(character: Character) -> Character:
    pv = character.sheet.pv
    return Character(character.sheet.model_copy(
        update={"pv": pv.model_copy(update={"actuels": pv.max})}))


def _landings(attacker: Character, defender: Character, opts: AttackOptions
              ) -> Law[Landing] | None:
    stroke, duel, _ = attack_contest(attacker, defender, opts)
    margins = contest_law(duel)
    hits = {m: p for m, p in margins.items() if m is not None}
    out: Law[Landing] = {None: margins.get(None, Fraction(0))}
    if hits and stroke.opts.hold:
        out[HOLD] = sum(hits.values(), Fraction(0))
    elif hits:
        landed = _landed(attacker, defender, stroke, then(hits, lambda m: zone_law(m, stroke)))
        if landed is None:
            return None
        out.update(landed)
    return {k: p for k, p in out.items() if p}


@lru_cache(maxsize=1024)
def contest_law(duel: Contest) -> Law[int | None]:
    """R000.22–R000.24: the margin of a hit (None: a miss), from both checks' outcomes and the
    contest's own rule (each expert keeping its better die); kept per contest (the same two
    characters at other hit points roll the same)."""
    theirs = check_outcomes(duel.opponent)
    return law((result.margin if result.success else None, p * q)
               for a, p in check_outcomes(duel.actor) for b, q in theirs
               for result in (duel.resolve(a, b),))


def zone_law(margin: int, stroke: Stroke) -> Law[Zone]:
    """R000.25–R000.30: where a blow of that margin lands (the zone an aimed blow names)."""
    if stroke.opts.aimed:
        return {aimed_zone(stroke.opts.aimed, stroke.cac)[1]: NOTHING}
    return law((zone_at(raw, margin, stroke)[1], Fraction(1, LOCATION_DIE))
               for raw in range(1, LOCATION_DIE + 1))


def damage_law(attacker: Character, extra_dice: str, stroke: Stroke) -> Law[int] | None:
    """R000.31–R000.33, R000.36, R000.39: the damage before protection of a blow on a zone
    with these extra dice (`raw_damage` on the laws of the weapon and of the extra dice)."""
    weapon = weapon_damage_law(attacker, stroke.formula)
    extra = expression_law(extra_dice) if extra_dice else {0: NOTHING}
    if weapon is None or extra is None:
        return None
    return law((raw_damage(w, e, attacker, stroke.opts), p * q)
               for w, p in weapon.items() for e, q in extra.items())


def _landed(attacker: Character, defender: Character, stroke: Stroke, zones: Law[Zone]
            ) -> Law[Landing] | None:
    """The blows that land: their zone and the damage they do there (after protection)."""
    out: list[tuple[Landing, Fraction]] = []
    seen: dict[tuple[str, int], Law[int] | None] = {}  # zones alike for the damage
    for zone, p in zones.items():
        protection = protection_for(defender, zone)
        if (zone.extra, protection) not in seen:
            raw = damage_law(attacker, zone.extra, stroke)
            seen[zone.extra, protection] = None if raw is None else law(
                (suffered_damage(value, protection), q) for value, q in raw.items())
        suffered = seen[zone.extra, protection]
        if suffered is None:
            return None
        out += [((zone, hurt), p * q) for hurt, q in suffered.items()]
    return law(out)


def _wound(defender: Character, zone: Zone, suffered: int, opts: AttackOptions
           ) -> Law[tuple[Update, ...]]:
    """R000.34, R000.41, R000.27: the state after `suffered` damage on that zone (at the
    defender's hit points), then the Résistance Physique roll it calls for."""
    sheet = defender.sheet
    after = state_after(sheet.pv.actuels, suffered, zone, sheet.etat.mourant)
    kind, check = head_roll(defender, zone, suffered, after.dead, opts)
    rolls = ((None, NOTHING),) if check is None else check_outcomes(check)
    return law((tuple(hit_updates(after, suffered, *head_effects(kind, suffered, result))), p)
               for result, p in rolls)

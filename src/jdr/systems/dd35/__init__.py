"""dd35: the d20 / 3.5-style combat rules of the "Catégorie:Combat" page (RULES.md section 3).

The package reads like the rulebook: `tables` (every table as data), `sheet` (the sheet model),
`config` (the configurable choices of 3.7), `character` (derived values: BAB, AC, DR, HP,
perception), `checks` (each check defined once, and the opposed-roll tie rule), `resolution`
(what `jdr test`/`odds` roll), `combat` (damage, criticals, attacks, manoeuvres), `initiative`,
`turn` (the actions of a turn), `rules` (the system's own rules, `jdr regle`: manoeuvre,
attendre, surprise, tour), `progression` (levels), `view` (sheet show, help), `options` (the
actions and their `--opt` keys), `demo`, and `system` (the `GameSystem`).

States (D-ALL.02): at 0 HP or less a character is `hors_de_combat` and cannot act (the document
has no other state). Encounter hooks: `turn_start` notes whose turn began and whether they could
act; `round_start` adds 5 to the initiative of whoever did not act (R002.13), re-sorts the order
(A002.05), ends the combat when nobody acted, and ends `etat.attend` / `etat.surpris`.

Options (`--opt cle=valeur`, parsed by the core against `options.ACTIONS`):
- check / odds: `contexte` (embuscade|piege|mensonge|passage) and `milieu` (nature,
  ingenierie, ...): Active Perception context and environment knowledge (R002.08, A002.03);
  `type` (reflexes|vigueur|volonte): the save of `sauvegarde`; `carac_manoeuvre`: the author's
  ability for the placeholder DC (A002.16, Force by default); `circonstance` (N): the actor's
  circumstance bonus to an attack or initiative; `iterative` (N, 1-based): which iterative
  attack a single attack roll uses; `depourvu` (oui/non): the defender is flat-footed;
  `naturel_1_rate` (oui/non): D-002.17;
- attack: `circonstance`, `depourvu` (also `--defense depourvu`), `naturel_1_rate`, `rd_sort` (N):
  the defender's spell DR (A002.10); `magique` (oui/non): treat the weapon as magic (A002.11,
  D-002.40); `force_projectiles` (oui/non): A002.19; `manoeuvre` (name) with `sauvegarde`
  (reflexes|vigueur|volonte), `nd` (N) or `carac_manoeuvre`: a combat manoeuvre (R002.15)
  instead of an attack roll; `tour` (e.g. `mouvement+simple`, `complexe+pas`): the turn's
  declared actions, checked (R002.14, A002.20) before the attack is played;
- xp (with `--pv`): `classe` (name) and `jet` (N): gain a level (R002.19, R002.02);
- regle manoeuvre AUTEUR CIBLE…: `manoeuvre`, `sauvegarde`, `nd`, `carac_manoeuvre`, `tour`;
  regle surprise EMBUSQUE CIBLE…: `jet` (attaque, an arme or a caractéristique), `circonstance`;
  regle tour PERSONNAGE: `actions`, `terrain_difficile`; regle attendre PERSONNAGE.
"""

from __future__ import annotations

from jdr.systems.dd35.system import Dd35System

SYSTEM = Dd35System()

__all__ = ["SYSTEM", "Dd35System"]

"""States and the encounter (D-ALL.02; R004.22, R004.28, R004.32, R004.33).

Who cannot act: a cat that fled (R004.28: it abandoned the fight, until the fight is over), an
unconscious one (3d10 × 5 minutes), one in a coma (only a healer's care ends it) and a dead one.
What the encounter table shows of a cat: its wound levels (and how many it carries before
falling unconscious), its wound malus, the minutes of unconsciousness left, its care.
"""

from __future__ import annotations

from jdr.core.french import accord, is_state, state_label
from jdr.core.results import Health, Line, Notes
from jdr.core.system import Outcome, SheetChange, TurnRequest
from jdr.dice.source import DiceSource
from jdr.systems.felins import tables
from jdr.systems.felins.care import wake
from jdr.systems.felins.config import FelinsConfig
from jdr.systems.felins.health import conscious_limit, duration_check
from jdr.systems.felins.sheet import Cat


def state(cat: Cat) -> str:
    """The shared state names: `debout`, `en_fuite`, `inconscient`, `coma`, `mort`."""
    return tables.RESULT_STATES[cat.state]


def incapacity(cat: Cat) -> Line | None:
    """D-ALL.02 why this cat cannot act now, with the rule that says so."""
    if cat.state == "conscient":
        return None
    if cat.state == tables.FLED:
        return Line("en fuite : " + accord(cat.genre, "il a", "elle a", "le chat a")
                    + " abandonné le combat jusqu'à sa fin (règle « fin combat »)", "R004.28")
    if cat.state == "inconscient":
        left = (f"encore {cat.unconscious_minutes} minute(s)" if cat.unconscious_minutes
                else "3d10 × 5 minutes")
        return Line(f"{state_label('inconscient', cat.genre)} ({left})", "R004.32")
    if cat.state == "coma":
        return Line("dans le coma : seuls les soins d'un guérisseur l'en sortent", "R004.32")
    return Line(f"{state_label('mort', cat.genre)} : c'est définitif", "R004.32")


def health(cat: Cat, config: FelinsConfig) -> Health:
    """R004.22 / R004.32 the wound levels carried; `max` = the most a cat carries and stays
    conscious (Vigueur, A004.18)."""
    limit = conscious_limit(cat.characteristics["vigueur"], config)
    return Health("blessures", cat.wounds, cat.wounds, limit)


def conditions(cat: Cat) -> tuple[str, ...]:
    """The wound malus (R004.22), the minutes of unconsciousness left (R004.32), the care
    (R004.33)."""
    found = []
    if cat.wounds:
        found.append(f"malus −{cat.wounds} à chaque jet")
    if cat.state == "inconscient" and cat.unconscious_minutes:
        found.append(f"réveil dans {cat.unconscious_minutes} min")
    if cat.care != "aucun":
        found.append(tables.CARE[cat.care])
    return tuple(found)


def turn_start(request: TurnRequest[Cat], source: DiceSource, config: FelinsConfig
               ) -> Outcome | None:
    """R004.32 at an unconscious cat's turn: its 3d10 × 5 minutes are rolled if the sheet does
    not hold them yet (A004.30); when the configuration gives a round a duration (the rules do
    not), that many minutes pass and the cat may wake and act."""
    sheet = request.sheet
    if sheet is None or sheet.model.state != "inconscient":
        return None
    cat = sheet.model
    if config.round_minutes:
        return wake(sheet, config.round_minutes, source)
    if cat.unconscious_minutes:
        return Outcome(Notes(is_state(cat.name, "inconscient", cat.genre), (Line(
            f"réveil dans {cat.unconscious_minutes} minute(s) : règle « reveil » quand le temps "
            "passe (un tour de combat n'a pas de durée dans les règles)", "R004.32"),), "R004.32"))
    duration = duration_check(cat.name).roll(source)
    change = SheetChange(sheet.doc, ("inconscience",), duration.total)
    return Outcome(duration, (change,))

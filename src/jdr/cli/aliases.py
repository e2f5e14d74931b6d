"""The English command names of the first versions, kept as hidden aliases of the French ones
(the same function twice, the alias hidden from the help): `jdr roll` is `jdr lancer`."""

from __future__ import annotations

from typing import Any

TOP = {"systems": "systemes", "roll": "lancer", "check": "test", "odds": "chances",
       "attack": "attaque"}
SUB = {"new": "nouvelle", "check": "verifier", "show": "voir", "import": "importer",
       "export": "exporter", "start": "debut"}


def register(app: Any, *groups: Any) -> None:
    """Add the hidden aliases to `app` (top-level commands) and to each group's subcommands."""
    for target, names in ((app, TOP), *((g, SUB) for g in groups)):
        if target is None:
            continue
        known = {c.name: c.callback for c in target.registered_commands if c.callback is not None}
        for english, french_name in names.items():
            if french_name in known and english not in known:
                target.command(english, hidden=True)(known[french_name])

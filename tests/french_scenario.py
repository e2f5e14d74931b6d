"""A short game of each system, played in process on a SQLite campaign, to read every French line
it produces about its characters: every core action, every rule the system declares (`regle`),
each state the system declares (`GameSystem.states`) and the encounter's steps (start, turns,
join, leave, end), including what the rules do when a turn begins in each state.

Three groups of two characters play side by side, one group per genre: `f`, `m` and none
(neutral wording); an action always names characters of one group, so each line read can be
judged by the genre of the names it holds. Every name opens with a vowel (elision: « d'Aude »,
never « de Aude »). What is read: each result as rendered (`jdr.render.text`), each journal
text, each refusal's message. Actions that only read are played without writing (`dry_run` in
a reading transaction: cheap); the encounter's steps and the scenes that set a state are
committed. Nothing is asserted here: `tests/core/test_french_genre.py` reads what this plays.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jdr.campaign import encounter
from jdr.campaign.rows import CharacterRow
from jdr.campaign.store import Campaign, now
from jdr.campaign.workspace import CampaignWorkspace
from jdr.core.actions import commit, execute
from jdr.core.declare import CORE_KINDS
from jdr.core.options import OptionSpec
from jdr.core.registry import get_system
from jdr.core.usecase import Recording
from jdr.dice.source import RandomSource
from jdr.errors import JdrError
from jdr.names import normalize
from jdr.render.text import to_text

# (lead, other) of each genre; None: no `genre` on the sheet (neutral wording)
GROUPS: dict[str | None, tuple[str, str]] = {
    "f": ("Aude", "Élise"),
    "m": ("Achille", "Émile"),
    None: ("Alix", "Eden"),
}
GENRE_OF = {name: genre for genre, names in GROUPS.items() for name in names}

# How each state a system declares is reached: sheet values set on the `other` character of
# each group, or health by hand (`sante`). Conditions (paralysis, a hold, a run-up…) are scenes
# too: what the rules say when that character's turn begins.
Scene = Mapping[tuple[str, ...], Any] | str
SCENES: dict[str, dict[str, Scene]] = {
    "cydonia": {
        "assomme": {("etat", "assomme"): 12},
        "mourant": {("etat", "mourant"): True, ("pv", "actuels"): -2},
        "mort": {("etat", "mort"): True},
        # conditions, two scenes of several each (what a turn says of each)
        "paralysie, concentration, élan, soins": {
            ("etat", "paralyse"): True, ("etat", "concentration"): 2, ("etat", "elan"): 2,
            ("etat", "soigne"): True, ("etat", "malus"): -2},
        "prise, transformation": {("etat", "immobilise"): "Aude", ("etat", "transformation"): 1,
                                  ("etat", "pv_transformation"): 5},
    },
    "maitrise": {"hors_de_combat": "0", "mort": {("etat", "mort"): True, ("pv", "actuels"): 0}},
    "dd35": {"hors_de_combat": "0", "surpris": {("etat", "surpris"): True},
             "attend": {("etat", "attend"): True}},
    "cyd": {"mort": "0"},
    "felins": {"en_fuite": {("etat",): "en_fuite"},
               "inconscient": {("etat",): "inconscient", ("inconscience",): 15},
               "inconscient sans durée": {("etat",): "inconscient"},
               "coma": {("etat",): "coma"}, "mort": {("etat",): "mort"}},
    "deuxdes": {"hors_de_combat": "0"},
}


@dataclass
class Played:
    """What one game produced: (where, text) pairs, the states the system gave its characters,
    the zones it lets an attack aim at."""

    system: str
    texts: list[tuple[str, str]] = field(default_factory=list)
    states: set[str] = field(default_factory=set)
    zones: set[tuple[str, str]] = field(default_factory=set)

    def lines(self) -> Iterator[tuple[str, str, str]]:
        """(where, the whole text, one of its lines)."""
        for where, text in self.texts:
            for line in text.splitlines():
                yield where, text, line


def sheet_text(template: str, name: str, genre: str | None) -> str:
    """The template without its comments (shorter to read: the game reads 9 sheets), named."""
    lines = [re.sub(r"\s+#.*$", "", line) for line in template.splitlines()
             if not line.lstrip().startswith("#")]
    text = re.sub(r"^nom: *.*$", f"nom: {name}", "\n".join(lines), count=1, flags=re.M)
    return text + (f"\ngenre: {genre}\n" if genre else "\n")


def _filled(options: tuple[OptionSpec, ...]) -> dict[str, str]:
    """A value for every option a rule reads: its first choice, its lowest number above 0."""
    out: dict[str, str] = {}
    for o in options:
        if o.kind == "choice" and o.choices:
            out[o.name] = o.choices[0]
        elif o.kind == "int":
            out[o.name] = str(max(o.lo if o.lo is not None else 1, 1))
    return out


class Game:
    def __init__(self, system_id: str, folder: Path, seed: int) -> None:
        self.system = get_system(system_id)
        self.played = Played(system_id)
        self.campaign = Campaign.create(str(folder / f"{system_id}.jdr"), "T", system_id)
        self.rng = RandomSource(seed)
        self.tx: Any = None  # the reading transaction dry actions share (`reading`)
        template = self.system.template()
        self.fresh: dict[str, str] = {}
        with self.campaign.transaction() as tx:  # the texts as rows: read (once) when played
            for name, genre in GENRE_OF.items():
                self.fresh[name] = sheet_text(template, name, genre)
                tx.session.add(CharacterRow(
                    campaign_id=self.campaign.id, name=name, key=normalize(name), kind="pj",
                    yaml=self.fresh[name], version=1, updated_at=now()))

    def note(self, where: str, text: str) -> None:
        self.played.texts.append((where, text))

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Dry actions in one reading transaction (each sheet read once for all of them)."""
        with self.campaign.reading() as tx:
            self.tx = tx
            try:
                yield
            finally:
                self.tx = None

    def dry(self, kind: str, params: dict[str, Any], where: str = "") -> bool:
        """Play an action without writing anything: its result's text, or its refusal."""
        where = where or kind
        assert self.tx is not None, "dry : dans game.reading()"
        try:
            done = execute(CampaignWorkspace(self.tx, force=True), kind, params,
                           Recording(self.rng), system=self.system, dry_run=True)
            self.note(where, to_text(done.result))
            return True
        except JdrError as exc:
            self.note(where + " (refus)", exc.message)
            return False

    def act(self, kind: str, params: dict[str, Any], where: str = "") -> None:
        """Play and commit an action (the MJ overriding the turn rules): its journal text."""
        try:
            with self.campaign.transaction() as tx:
                ws = CampaignWorkspace(tx, force=True)
                done = execute(ws, kind, params, Recording(self.rng), system=self.system)
                commit(ws, done)
                (entry,) = tx.entries(since=tx.row.journal_seq - 1, limit=1)
                self.note(where or kind, entry.text)
        except JdrError as exc:
            self.note((where or kind) + " (refus)", exc.message)

    def step(self, where: str, run: Callable[[Any], tuple[Any, Any]]) -> None:
        try:
            with self.campaign.transaction() as tx:
                _, entry = run(tx)
                self.note(where, entry.text)
        except JdrError as exc:
            self.note(where + " (refus)", exc.message)

    def next_turn(self) -> None:
        self.step("tour suivant", lambda tx: encounter.next_turn(tx, Recording(self.rng)))

    def observe(self, names: list[str]) -> None:
        with self.campaign.reading() as tx:
            _, loaded = tx.load(names)
            for sheet in loaded:
                for choice in self.system.aim_choices(sheet, None):
                    self.played.zones.add((choice.value, choice.shown))
                self.played.states.add(self.system.state(sheet))

    def set_sheet(self, name: str, scene: Mapping[tuple[str, ...], Any]) -> None:
        with self.campaign.transaction() as tx:
            doc = tx.document(name)
            for path, value in scene.items():
                doc.set(path, value)
            self.system.load(doc)
            tx.save([doc])

    def reset(self, names: list[str]) -> None:
        """The sheets as they began (their texts put back: nothing to parse again)."""
        with self.campaign.transaction() as tx:
            for name in names:
                tx.session.execute("UPDATE jdr_characters SET yaml = :yaml WHERE campaign_id = :c "
                                   "AND key = :k", {"yaml": self.fresh[name], "c": self.campaign.id,
                                                    "k": normalize(name)})

    def skill(self, name: str) -> str:
        _, (sheet,) = self.tx.load([name])
        skills = [ch.value for ch in self.system.check_choices(sheet)]
        return skills[0] if skills else "x"


def _actions(game: Game, actor: str, other: str, every: bool = True) -> None:
    """The core actions the system plays, `actor` first (dry: nothing written); the attacks
    both ways and a check only, unless `every`."""
    system, skill = game.system, game.skill(actor)
    plays: list[tuple[str, dict[str, Any]]] = [
        ("attack", {"attaquant": actor, "defenseur": other}),
        ("attack", {"attaquant": other, "defenseur": actor}),
        ("check", {"personnage": actor, "competence": skill, "contre": other}),
    ]
    if every:
        plays += [
            ("check", {"personnage": actor, "competence": skill}),
            ("odds", {"personnage": actor, "competence": skill, "contre": other}),
            ("attack_odds", {"attaquant": actor, "defenseur": other}),
            ("xp", {"personnage": actor, "competence": skill}),
            ("initiative", {"personnages": [actor, other]}),
            ("duel", {"personnages": [actor, other]}),
            ("session", {"personnages": [actor, other]}),
            ("show", {"personnage": actor}),
            ("sante", {"personnage": actor, "valeur": "+1"}),
        ]
    for kind, params in plays:
        base = "attack" if kind == "attack_odds" else kind
        if base in system.actions or kind in ("show", "sante"):
            game.dry(kind, params)


def _rules(game: Game, orders: list[tuple[str, ...]], where: str, retry: bool = True) -> None:
    """Every rule the system declares (dry), the characters of one of `orders` in turn: as
    given, then with the first value of each option when refused (`retry`), or with those
    values at once."""
    rules = [(n, s) for n, s in game.system.actions.items() if n not in CORE_KINDS]
    for i, (name, spec) in enumerate(rules):
        for order in orders if retry else [orders[i % len(orders)]]:
            params: dict[str, Any] = {"nom": name, "personnages": list(order)}
            if retry and game.dry("regle", params, f"{where}, règle {name}"):
                continue
            game.dry("regle", {**params, "opt": _filled(spec.options)},
                     f"{where}, règle {name}")


def _restart(game: Game, names: list[str], where: str) -> None:
    """A new encounter of `names`: each one's turn begins (or is passed), then a new round."""
    game.step("fin du combat", lambda tx: encounter.end(tx))
    game.step(f"{where}, début du combat",
              lambda tx: encounter.start(tx, names, Recording(game.rng)))
    game.next_turn()


def _scene(game: Game, label: str, scene: Scene) -> None:
    """The `other` of each group in a state (or a condition): its turns, its actions and the
    rules' (one group each, in turn), then back as it was."""
    others = [names[1] for names in GROUPS.values()]
    for name in others:
        if isinstance(scene, str):
            game.act("sante", {"personnage": name, "valeur": scene}, f"{label} : santé")
        else:
            game.set_sheet(name, scene)
    game.observe(others)
    _restart(game, others, label)
    if label in game.system.states:  # a condition only changes what a turn says
        with game.reading():
            for lead, other in GROUPS.values():
                _actions(game, other, lead, every=False)
            _rules(game, [(o, lead) for lead, o in GROUPS.values()], label, retry=False)
    game.reset(others)


def play(system_id: str, folder: Path, seed: int = 7) -> Played:
    game = Game(system_id, folder, seed)
    everyone = list(GENRE_OF)
    with game.reading():
        for lead, other in GROUPS.values():
            _actions(game, lead, other)
        _rules(game, list(GROUPS.values()), "hors combat")
    game.step("début du combat", lambda tx: encounter.start(tx, everyone, Recording(game.rng)))
    for lead, other in GROUPS.values():
        if "attack" in game.system.actions:  # out of turn for most: the MJ's override
            game.act("attack", {"attaquant": lead, "defenseur": other})
        game.next_turn()
    game.observe(everyone)
    for label, scene in SCENES.get(system_id, {}).items():
        _scene(game, label, scene)
    _restart(game, everyone, "tous")
    leads = [names[0] for names in GROUPS.values()]
    game.step("départ", lambda tx: encounter.leave(tx, leads))
    game.step("arrivée", lambda tx: encounter.join(tx, leads, Recording(game.rng)))
    game.step("fin du combat", lambda tx: encounter.end(tx))
    game.campaign.dispose()
    return game.played

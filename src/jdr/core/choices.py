"""A roll that waits for a player's choice (keep the other die, use a prédilection, a critical's
option…), played in several steps without ever rolling a die twice.

The rules ask through a `Chooser` (`jdr.core.system.Question`). On a terminal the CLI answers at
once; a front end that must wait (the web table) plays the action with `scripted(answers)`:
the answers known so far are given in order, and the first question without one stops the
action with `Waiting` — nothing is applied, nothing is written. The faces rolled until then are
kept (`Recording.rolls`). Once the player answers, the action is played again from the start
with `Replay`: the same faces first (so the same first roll, shown to the player), then the
dice that were not rolled yet; the answers given replay the same choices. A choice never
rerolls: the faces already seen are given back, checked one by one (a sheet changed meanwhile
so that the rules would roll other dice is refused, in French).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jdr.core.system import Chooser, Question
from jdr.dice.source import DiceSource, finish
from jdr.errors import JdrError, RuleError


class Waiting(Exception):  # not an error: the action waits for its player
    """The action stopped at a question nobody has answered yet."""

    def __init__(self, question: Question, answered: int) -> None:
        super().__init__(question.prompt)
        self.question = question
        self.answered = answered  # how many questions were answered before this one


def scripted(answers: Sequence[str], settle: bool = False) -> Chooser:
    """A chooser that gives `answers` in order; past them: the default (`settle`, the MJ or the
    delay ending the wait) or `Waiting`."""
    given = list(answers)
    asked = [0]

    def choose(question: Question) -> str:
        index = asked[0]
        asked[0] += 1
        if index < len(given):
            answer = given[index]
            if answer not in question.choices:
                raise RuleError(f"réponse « {answer[:40]} » : choisir parmi "
                                + ", ".join(question.label(c) for c in question.choices))
            return answer
        if settle:
            return question.default
        raise Waiting(question, index)

    return choose


class Replay:
    """The faces already rolled (`(sides, face)` in order), then `then` for the dice not rolled
    yet. A `then` that replays the same faces itself (hand-given faces, a seed, a séance's
    derivation) rolls the first ones too, and they must agree."""

    __slots__ = ("done", "faces", "replays", "then")

    def __init__(self, faces: Sequence[Sequence[int]], then: DiceSource, replays: bool) -> None:
        self.faces = [(int(s), int(f)) for s, f in faces]
        self.then = then
        self.replays = replays
        self.done = 0

    def roll(self, sides: int) -> int:
        if self.done >= len(self.faces):
            self.done += 1
            return self.then.roll(sides)
        kept_sides, face = self.faces[self.done]
        self.done += 1
        if kept_sides != sides:
            raise RuleError("les règles ne lancent plus les mêmes dés qu'au premier jet (une fiche "
                            "a changé depuis) : le MJ peut abandonner ce jet en attente")
        if self.replays and self.then.roll(sides) != face:
            raise JdrError("dés rejoués différents des dés montrés : rien n'est écrit")
        return face

    def finish(self) -> None:
        if self.done < len(self.faces):
            raise RuleError("les règles lancent moins de dés qu'au premier jet (une fiche a "
                            "changé depuis) : le MJ peut abandonner ce jet en attente")
        finish(self.then)


def question_json(question: Question, may_answer: str) -> dict[str, Any]:
    """A question as the API and the pages show it: its words, each choice with its label, the
    default, whose choice it is, and what was rolled so far (JSON and French text)."""
    from dataclasses import replace

    from jdr.core.results import AttackReport
    from jdr.render.json import to_json
    from jdr.render.text import to_text

    shown = question.shown
    if isinstance(shown, AttackReport):  # a blow so far (Kravkar): not the target's health, which
        shown = replace(shown, health=None)  # the table may hide from players (issue 16)
    return {
        "question": question.prompt,
        "choix": [{"valeur": c, "libelle": question.label(c), "defaut": c == question.default}
                  for c in question.choices],
        "defaut": question.default, "qui": question.who, "repond": may_answer,
        "resultat": to_json(shown) if shown is not None else None,
        "texte": to_text(shown) if shown is not None else "",
    }

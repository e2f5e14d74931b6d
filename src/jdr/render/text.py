"""French text for every result type: styled spans, printed with colours by rich on a terminal and
as plain unwrapped lines when piped. Rule ids appear only in detail mode (`--detail`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from jdr.core.french import de
from jdr.core.results import Line

if TYPE_CHECKING:
    from jdr.core.check import CheckResult, Odds
    from jdr.core.contest import ContestResult
    from jdr.core.initiative import Order
    from jdr.core.results import (
        AttackReport,
        EncounterView,
        Notes,
        Purchase,
        Report,
        SheetView,
    )
    from jdr.dice.notation import Die, RollResult
from jdr.render.safe import clean

Span = tuple[str, str]  # (text, rich style or "")
Styled = list[Span]

OK, BAD, CRIT, DIM, HEAD = "bold green", "bold red", "bold magenta", "dim", "bold"


def percent(p: Fraction | float | None) -> str:
    """One percent format everywhere: `40,0 %`."""
    if p is None:
        return "—"
    return f"{float(p) * 100:.1f} %".replace(".", ",")


def state_label(state: str, genre: str | None = None) -> str:
    """A state key (`hors_de_combat`, `assomme`) as a person reads it, agreed by genre
    (`jdr.core.french`)."""
    from jdr.core.french import parse_genre
    from jdr.core.french import state_label as label

    try:
        g = parse_genre(genre)
    except ValueError:
        g = None
    return clean(label(state, g))


def _signed(n: int) -> str:
    return f"{n:+d}"


def die_text(d: Die) -> str:
    text = str(d.face)
    if d.note == "explosé":
        text += "!"
    if d.kept:
        return text
    if d.note and d.note not in ("écarté", "explosé"):
        return f"({text} {d.note})"  # a die that was read but not kept as such (confirmation …)
    return f"~{text}~"


def dice_text(dice: Sequence[Die]) -> str:
    return ", ".join(die_text(d) for d in dice)


class TextRenderer:
    """Builds styled lines; `detail` adds rule ids."""

    def __init__(self, detail: bool = False, cleaner: Callable[[str], str] = clean) -> None:
        self.detail = detail
        self.c = cleaner
        self.lines: list[Styled] = []

    # -- helpers
    def rule(self, rule: str) -> str:
        return f" [{self.c(rule)}]" if self.detail and rule else ""

    def add(self, *spans: Span | str) -> None:
        self.lines.append([s if isinstance(s, tuple) else (s, "") for s in spans])

    def note_lines(self, notes: Sequence[Line | str], indent: str = "  · ") -> None:
        for n in notes:
            if isinstance(n, Line):
                self.add(indent + self.c(n.text) + self.rule(n.rule))
            else:
                self.add(indent + self.c(n))

    # -- dispatch
    def render(self, result: Any, indent: str = "") -> None:
        for cls in type(result).__mro__:
            method = _DISPATCH.get(cls.__name__)
            if method is not None:
                getattr(self, method)(result, indent)
                return
        raise TypeError(f"pas de rendu texte pour {type(result).__name__}")

    def roll(self, r: RollResult, indent: str) -> None:
        if r.repeats:  # `6x 4d6kh3`: one line per roll
            head = f"{indent}{self.c(r.expression)} : {len(r.repeats)} jets"
            self.add(head + (f" — {self.c(r.comment)}" if r.comment else ""))
            for n, one in enumerate(r.repeats, start=1):
                spans: list[Span | str] = [f"{indent}  {n}. {self.c(one.detail())} = ",
                                           (str(one.total), HEAD)]
                if one.success is not None:
                    spans += [" : ", ("réussite", OK) if one.success else ("échec", BAD)]
                self.add(*spans)
            notes = r.repeats[0].notes
            self.note_lines(list(dict.fromkeys(_meaning_only(n) for n in notes)), indent + "  · ")
            return
        spans = [f"{indent}{self.c(r.expression)} → {self.c(r.detail())} = ", (str(r.total), HEAD)]
        if r.success is not None:
            spans.append(" : ")
            spans.append(("réussite", OK) if r.success else ("échec", BAD))
        if r.comment:
            spans.append(f" — {self.c(r.comment)}")
        self.add(*spans)
        self.note_lines(r.notes, indent + "  · ")

    def dice_odds(self, o: Any, indent: str) -> None:
        """Exact odds of a free expression (`jdr chances "10d10cs>=7"`)."""
        head = f"{indent}Chances : {self.c(o.expression)}"
        if o.repeat > 1:
            head += f" (chacun des {o.repeat} jets)"
        self.add((head, HEAD))
        what = "succès" if o.counting else "total"
        rows: list[tuple[str, str]] = []
        if o.success is not None:
            rows.append((f"{what} {o.comparison}", percent(o.success)))
        rows.append(("moyenne", f"{float(o.mean):.2f}".replace(".", ",")))
        if o.distribution:
            rows.append(("minimum", str(o.minimum)))
            rows.append(("maximum", str(o.maximum) + (" (ou plus)" if o.truncated else "")))
        if o.truncated:
            rows.append(("non calculé", f"{float(o.truncated) * 100:.2g} %".replace(".", ",")))
        width = max(len(label) for label, _ in rows)
        for label, value in rows:
            self.add(f"{indent}  {label:<{width}}  ", (value, HEAD))
        self.note_lines(o.notes, indent + "  · ")
        if o.distribution:
            self.add(f"{indent}  {what} : probabilité d'obtenir exactement / au moins")
            shown = o.distribution if len(o.distribution) <= 60 else _around_mean(o)
            top = max(float(p) for _, p in shown) or 1.0
            pad = max(len(str(t)) for t, _ in shown)
            for total, p in shown:
                bar = "█" * round(float(p) / top * 30)
                self.add(f"{indent}  {total:>{pad}} {percent(p):>7} {percent(o.at_least(total)):>7} ",
                         (bar, "cyan"))

    def verdict(self, success: bool | None, critical: str | None) -> list[Span | str]:
        spans: list[Span | str] = []
        if success is not None:
            spans += [" → ", ("RÉUSSITE", OK) if success else ("ÉCHEC", BAD)]
        if critical == "success":
            spans.append((" (réussite critique)", CRIT))
        elif critical == "failure":
            spans.append((" (échec critique)", CRIT))
        return spans

    def check(self, r: CheckResult, indent: str, prefix: str = "") -> None:
        mods = " ".join(f"{_signed(m.value)} ({self.c(m.reason)}{self.rule(m.rule)})"
                        for m in r.modifiers)
        who = f"{self.c(r.who)} — " if r.who and r.who not in r.label else ""
        spans: list[Span | str] = [f"{indent}{prefix}{who}{self.c(r.label)}{self.rule(r.rule)} :"]
        if r.dice:
            spans += [" dés [", (dice_text(r.dice), HEAD), "]"]
        elif not r.rolled:
            spans.append(" sans dé")
        if mods:
            spans.append(" " + mods)
        spans += [" = ", (str(r.total), HEAD)]
        if r.threshold is not None:
            spans.append(f" contre {self.c(r.threshold_label)} {r.threshold}")
        spans += self.verdict(r.success, r.critical)
        if r.margin is not None:
            spans.append(f", marge {_signed(r.margin)}")
        self.add(*spans)
        self.note_lines(r.notes, indent + "  · ")

    def contest(self, r: ContestResult, indent: str) -> None:
        for n, (a, b) in enumerate(r.rounds, start=1):
            self.add(f"{indent}manche {n} (égalité, on relance) :")
            self.check(a, indent + "  ")
            self.check(b, indent + "  ", "contre ")
        self.check(r.actor, indent)
        self.check(r.opponent, indent, "contre ")
        names = {"actor": self.c(r.actor.who or r.actor.label),
                 "opponent": self.c(r.opponent.who or r.opponent.label)}
        if r.winner == "nobody":
            spans: list[Span | str] = [f"{indent}→ ", ("personne ne l'emporte", BAD)]
        else:
            spans = [f"{indent}→ ", ("RÉUSSITE" if r.success else "ÉCHEC", OK if r.success else BAD),
                     f" : {names[r.winner]} l'emporte"]
        if r.tie:
            spans.append(" (égalité)")
        if r.gap is not None:
            spans.append(f", écart {_signed(r.gap)}")
        spans.append(self.rule(r.rule))
        self.add(*spans)
        self.note_lines(r.notes, indent + "  · ")

    def odds(self, o: Odds, indent: str) -> None:
        head = f"{indent}Chances : {self.c(o.label)}"
        if o.threshold is not None:
            head += f" ({self.c(o.threshold_label)} {o.threshold})"
        self.add((head + self.rule(o.rule), HEAD))
        rows: list[tuple[str, Fraction | None]] = []
        if o.success is not None:
            rows.append(("réussite" if o.opponent_wins is None else "l'acteur l'emporte", o.success))
        if o.opponent_wins is not None:
            rows.append(("l'adversaire l'emporte", o.opponent_wins))
        if o.nobody:
            rows.append(("personne", o.nobody))
        if o.tie is not None:  # already inside the parts above (which add up to 100 %)
            rows.append(("dont égalité départagée" if not o.nobody else "dont égalité au jet", o.tie))
        rows.append(("réussite critique", o.critical_success))
        rows.append(("échec critique", o.critical_failure))
        rows.extend((self.c(label), p) for _, label, p in o.extra)
        width = max(len(label) for label, _ in rows)
        for label, p in rows:
            self.add(f"{indent}  {label:<{width}}  ", (percent(p), HEAD))
        self.add(f"{indent}  {'moyenne':<{width}}  {float(o.mean):.2f}".replace(".", ","))
        self.note_lines(o.notes, indent + "  · ")
        if o.distribution:
            self.add(f"{indent}  distribution des totaux :")
            top = max(float(p) for _, p in o.distribution) or 1.0
            pad = max(len(str(t)) for t, _ in o.distribution)
            for total, p in o.distribution:
                bar = "█" * round(float(p) / top * 30)
                self.add(f"{indent}  {total:>{pad}} {percent(p):>7} ", (bar, "cyan"))

    def order(self, o: Order, indent: str) -> None:
        self.add((f"{indent}Ordre d'{self.c(o.score_label)}{self.rule(o.rule)}", HEAD))
        for rank, e in enumerate(o.entries, start=1):
            extra = ""
            if e.check is not None:
                extra = f" (dés [{dice_text(e.check.dice)}])"
            if e.tiebreaks:
                extra += " ; " + ", ".join(f"{self.c(k)} {v}" for k, v in e.tiebreaks)
            if e.rolloffs:
                extra += " ; départage " + ", ".join(str(f) for f in e.rolloffs)
            self.add(f"{indent}  {rank}. ", (self.c(e.name), HEAD), f" : {e.score}{extra}")
        self.note_lines(o.notes, indent + "  · ")

    def attack(self, r: AttackReport, indent: str) -> None:
        weapon = f" ({self.c(r.weapon)})" if r.weapon else ""
        self.add((f"{indent}{self.c(r.attacker)} attaque {self.c(r.defender)}{weapon}"
                  f"{self.rule(r.rule)}", HEAD))
        for step in r.steps:
            self.render(step, indent + "  ")
        self.add(f"{indent}  → ", ("TOUCHÉ", OK) if r.hit else ("RATÉ", BAD),
                 *([(" (critique)", CRIT)] if r.critical == "success" else []))
        if r.location is not None:
            loc = r.location
            dice = f" (dés [{dice_text(loc.dice)}])" if loc.dice else ""
            total = "" if loc.total is None else f"{loc.total}{dice} → "
            self.add(f"{indent}  localisation : {total}{self.c(loc.zone)}")
            self.note_lines(loc.detail, indent + "    · ")
        for dmg in r.damage:
            dice = f" dés [{dice_text(dmg.dice)}]" if dmg.dice else ""
            self.add(f"{indent}  dégâts : {self.c(dmg.formula)}{dice} = {dmg.total}"
                     f", protection {dmg.protection}, subis ", (str(dmg.suffered), HEAD))
            self.note_lines(dmg.detail, indent + "    · ")
        if r.health is not None:
            h = r.health
            unit = "PV" if h.unit == "pv" else "blessures"
            top = f"/{h.max}" if h.max is not None else ""
            self.add(f"{indent}  {unit} {de(self.c(r.defender))} : {h.before}{top} → ",
                     (f"{h.after}{top}", HEAD))
        if r.state is not None:
            style = BAD if r.state.after != "debout" else ""
            self.add(f"{indent}  état : {state_label(r.state.before, r.state.genre)} → ",
                     (state_label(r.state.after, r.state.genre), style))
        self.note_lines(r.notes, indent + "  · ")

    def sheet(self, v: SheetView, indent: str) -> None:
        self.add((f"{indent}Fiche {self.c(v.system)} : {self.c(v.name)}", HEAD))
        width = max((len(self.c(r.label)) for s in v.sections for r in s.rows), default=0)
        for section in v.sections:
            self.add((f"{indent}{self.c(section.title)}", "underline"))
            for row in section.rows:
                text = row.text or ("—" if row.value is None else str(row.value))
                self.add(f"{indent}  {self.c(row.label):<{width}}  {self.c(text)}{self.rule(row.rule)}")
        self.note_lines(v.notes, indent + "  · ")

    def purchase(self, p: Purchase, indent: str) -> None:
        self.add((f"{indent}{self.c(p.name)} : {self.c(p.what)} {p.before} → {p.after}"
                  f"{self.rule(p.rule)}", HEAD))
        self.add(f"{indent}  coût {p.cost} XP ; XP {p.xp_before} → {p.xp_after}")
        self.note_lines(p.notes, indent + "  · ")

    def notes(self, n: Notes, indent: str) -> None:
        self.add((f"{indent}{self.c(n.title)}{self.rule(n.rule)}", HEAD))
        self.note_lines(n.lines, indent + "  · ")

    def encounter(self, e: EncounterView, indent: str) -> None:
        for event in e.events:
            self.render(event, indent)
        status = "terminée" if e.ended else f"tour {de(self.c(e.current or '—'))}"
        self.add((f"{indent}Rencontre — round {e.round}, {status}", HEAD))
        for c in e.order:
            mark = "▶ " if c.name == e.current and not e.ended else "  "
            health = ""
            if c.health is not None:
                unit = "PV" if c.health.unit == "pv" else "blessures"
                top = f"/{c.health.max}" if c.health.max is not None else ""
                health = f" {unit} {c.health.after}{top}"
            cond = (" ; " + ", ".join(self.c(x) for x in c.conditions)) if c.conditions else ""
            style = "" if c.state == "debout" else BAD
            self.add(f"{indent}{mark}{self.c(c.name)} ({c.score}){health} — ",
                     (state_label(c.state, c.genre), style), cond)
        self.note_lines(e.notes, indent + "  · ")

    def report(self, r: Report, indent: str) -> None:
        self.add((f"{indent}{self.c(r.title)}{self.rule(r.rule)}", HEAD))
        for part in r.parts:
            self.render(part, indent + "  ")
        self.note_lines(r.notes, indent + "  · ")


def _meaning_only(note: str) -> str:
    """A note without this roll's count (« → 4 »): what the modifiers mean, for every roll."""
    return " ; ".join(part.rsplit(" → ", 1)[0] for part in note.split(" ; ")
                      if not part.startswith("résultat "))


def _around_mean(o: Any) -> tuple[tuple[int, Fraction], ...]:
    """The 60 most likely totals of a wide distribution, in order."""
    best = sorted(o.distribution, key=lambda tp: tp[1], reverse=True)[:60]
    return tuple(sorted(best))


# By class name (found along the result's MRO): the result modules are imported only by the
# commands that make those results (`jdr lancer` never loads the check, contest or sheet types).
_DISPATCH: dict[str, str] = {
    "RollResult": "roll", "CheckResult": "check", "ContestResult": "contest", "Odds": "odds",
    "Order": "order", "AttackReport": "attack", "SheetView": "sheet", "Purchase": "purchase",
    "Notes": "notes", "Report": "report", "EncounterView": "encounter", "DiceOdds": "dice_odds",
}


def styled(result: Any, detail: bool = False) -> list[Styled]:
    r = TextRenderer(detail)
    r.render(result)
    return r.lines


def to_text(result: Any, detail: bool = False) -> str:
    """Plain French text, one result line per line, never wrapped."""
    return "\n".join("".join(t for t, _ in line) for line in styled(result, detail))

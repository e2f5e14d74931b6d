"""Options declared by each system, per action, and parsed once here (`--opt cle=valeur`).

A system declares what each of its actions accepts (`ActionSpec`): options with their type,
default, French label and help, rule id, and the order in which `--des` faces are consumed. The
label is what a person reads (« Défenseur monté »), the name what the command line types
(`defenseur_monte`); a closed list's values are the data, each with its own French label. Core parses
`--opt` once for every system: one yes/no vocabulary, integers within their range, a choice among
names, and an unknown key refused with the closest names.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal

from jdr.core.frozen import frozen
from jdr.core.messages import Message, Ref, Text, missing, opt, say
from jdr.errors import RuleError
from jdr.names import normalize, unknown_name_message

OptionKind = Literal["bool", "int", "choice", "text"]

YES = frozenset({"oui", "o", "vrai", "v", "1", "yes", "y", "true"})
NO = frozenset({"non", "n", "faux", "f", "0", "no", "false"})
MAX_INT_DIGITS = 9
MAX_TEXT = 200

OptionValue = bool | int | str


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One `--opt` key an action reads: `name` is typed (`--opt defenseur_monte=oui`), `label`
    is read (« Défenseur monté », in the pages' forms and `jdr aide`), `labels` are the French
    words of each of `choices`, in their order (the values stay the data)."""

    name: str
    kind: OptionKind
    help: str
    default: OptionValue | None = None
    rule: str = ""
    lo: int | None = None
    hi: int | None = None
    choices: tuple[str, ...] = ()
    label: str = ""
    labels: tuple[str, ...] = ()
    required: bool = False  # refused before the rule runs when not given, with its label

    def __post_init__(self) -> None:
        if self.labels and len(self.labels) != len(self.choices):
            raise ValueError(f"option {self.name} : {len(self.labels)} libellés pour "
                             f"{len(self.choices)} valeurs")

    def shown(self, value: str) -> str:
        """The French label of one of `choices` (the value itself when it has none)."""
        if value in self.choices and len(self.labels) == len(self.choices):
            return self.labels[self.choices.index(value)]
        return value

    @property
    def title(self) -> str:
        """The label a person reads (the name in words when a system gave none)."""
        return self.label or self.name.replace("_", " ").capitalize()

    def describe(self) -> str:
        """French one-liner for `jdr aide`: the name typed, the label, the values allowed."""
        from jdr.core.french import number

        if self.kind == "bool":
            kind = "oui/non"
        elif self.kind == "int":
            lo = "" if self.lo is None else number(self.lo)
            hi = "" if self.hi is None else number(self.hi)
            kind = f"entier {lo}…{hi}" if lo or hi else "entier"
        elif self.kind == "choice":
            kind = "|".join(c if normalize(self.shown(c)) == normalize(c) else f"{c} = {self.shown(c)}"
                            for c in self.choices)
        else:
            kind = "texte"
        default = ""
        if self.default is not None:
            shown = (("oui" if self.default else "non") if isinstance(self.default, bool)
                     else number(self.default) if isinstance(self.default, int) else self.default)
            default = f", défaut {shown}"
        needed = ", obligatoire" if self.required else ""
        return f"{self.name} — {self.title} ({kind}{default}{needed}) : {self.help}"

    def parse(self, raw: str) -> OptionValue:
        """The typed value of `raw`, or a French error naming the option and what is allowed."""
        value = raw.strip()
        where = opt(self)
        if self.kind == "bool":
            low = value.lower()
            if low in YES:
                return True
            if low in NO:
                return False
            raise RuleError(Ref(f"--opt {self.name}={_shown(value)} : valeur oui/non attendue "
                                "(oui, non, o, n, vrai, faux, 1, 0)",
                                f"{where.web} : « {_shown(value)} » n'est ni oui ni non"))
        if self.kind == "int":
            return parse_int(value, where, self.lo, self.hi)
        if self.kind == "choice":
            key = normalize(value)
            for choice in self.choices:
                if normalize(choice) == key:
                    return choice
            raise RuleError(say(where, " : ", Ref(
                unknown_name_message("valeur", _shown(value), self.choices),
                unknown_name_message("valeur", _shown(value),
                                     [self.shown(c) for c in self.choices]))))
        if not value or len(value) > MAX_TEXT:
            raise RuleError(say(where, f" : texte de 1 à {MAX_TEXT} caractères attendu"))
        return value


def _shown(text: str) -> str:
    from jdr.render.safe import clean

    return clean(text[:40] + ("…" if len(text) > 40 else ""))


def parse_int(text: str, where: Message, lo: int | None = None, hi: int | None = None) -> int:
    """An ASCII integer (optional sign) within [lo, hi]; anything else is one French line.
    `where` names what is read (`--bonus` / « Bonus »: a `jdr.core.messages` ref)."""
    value = text.strip()
    digits = value[1:] if value[:1] in "+-" else value
    if not digits or not digits.isascii() or not digits.isdigit():
        raise RuleError(say(where, f" : « {_shown(value)} » n'est pas un nombre entier "
                                   "(chiffres 0-9)"))
    if len(digits) > MAX_INT_DIGITS:
        raise RuleError(say(where, f" : nombre trop long (au plus {MAX_INT_DIGITS} chiffres)"))
    number = int(value)
    if (lo is not None and number < lo) or (hi is not None and number > hi):
        from jdr.core.french import number as shown

        if lo is not None and hi is not None:
            allowed = f"de {shown(lo)} à {shown(hi)}"
        else:
            allowed = f"au moins {shown(lo)}" if lo is not None else f"au plus {shown(hi or 0)}"
        raise RuleError(say(where, f" : {number} hors limites (autorisé : {allowed})"))
    return number


# The titles of the rules declared so far, by name (a rule's name is typed, its title read: the
# same name means the same words in every system that declares it)
TITLES: dict[str, str] = {}


def title_of(name: str) -> str:
    """How the pages write the rule `name` (« élan » for `elan`)."""
    return TITLES.get(name) or name.replace("_", " ")


@frozen
class ActionSpec:
    """What one action of a system accepts, and how it consumes `--des` faces."""

    name: str
    help: str
    options: tuple[OptionSpec, ...] = ()
    dice: str = ""  # French: the order in which `--des` faces are consumed
    rolls: bool = True  # whether the action takes a dice source
    acts: bool = True  # False: the first character is a target, not an actor (no D-ALL.02 refusal)
    title: str = ""  # how a person reads its name, accents and all (« Négociation » for `negociation`)

    def __post_init__(self) -> None:
        if self.title:
            TITLES[self.name] = self.title

    @property
    def shown(self) -> str:
        """Its name as the pages write it (`title_of`)."""
        return title_of(self.name)

    def option(self, name: str) -> OptionSpec | None:
        key = normalize(name)
        for spec in self.options:
            if normalize(spec.name) == key:
                return spec
        return None


@frozen
class Options(Mapping[str, OptionValue]):
    """Parsed options: every declared key present, with its default when not given."""

    parsed: Mapping[str, OptionValue | None] = field(default_factory=dict)
    given: frozenset[str] = frozenset()
    action: ActionSpec | None = None  # the declaration read: each key's label, for messages

    def __getitem__(self, key: str) -> OptionValue:
        value = self.parsed[normalize(key)]
        if value is None:
            raise KeyError(key)
        return value

    def __iter__(self) -> Iterator[str]:
        return (k for k, v in self.parsed.items() if v is not None)

    def __len__(self) -> int:
        return sum(1 for v in self.parsed.values() if v is not None)

    def flag(self, key: str) -> bool:
        value = self.parsed.get(normalize(key))
        return bool(value) if value is not None else False

    def int(self, key: str, default: int | None = None) -> int | None:
        value = self.parsed.get(normalize(key))
        if value is None:
            return default
        assert isinstance(value, int) and not isinstance(value, bool)
        return value

    def text(self, key: str, default: str | None = None) -> str | None:
        value = self.parsed.get(normalize(key))
        if value is None:
            return default
        return str(value)

    def was_given(self, key: str) -> bool:
        return normalize(key) in self.given

    def spec(self, key: str) -> OptionSpec:
        """The declaration of `key` (a bare one when the action declares no such key)."""
        found = self.action.option(key) if self.action is not None else None
        return found or OptionSpec(key, "text", "")

    def ref(self, key: str, value: str = "") -> Ref:
        """`key` named in a message: `--opt cle=valeur` typed, « Label » read."""
        return opt(self.spec(key), value)

    def missing(self, key: str, why: str, usage: Ref | None = None, value: str = "N") -> Text:
        """`key` not given: `--opt cle=N manquant : why — usage` typed, « il manque « Label » :
        why » read."""
        return missing(self.spec(key), why, usage, value)


NO_OPTIONS = Options()


def split_pairs(raw: Iterable[str]) -> list[tuple[str, str]]:
    """`["surprise=oui", "a=1"]` → pairs; a missing `=` is a French error."""
    pairs: list[tuple[str, str]] = []
    for item in raw:
        if "=" not in item:
            raise RuleError(f"--opt « {_shown(item)} » : il faut cle=valeur (ex. --opt surprise=oui)")
        key, value = item.split("=", 1)
        pairs.append((key.strip(), value))
    return pairs


def parse_options(spec: ActionSpec, raw: Iterable[str] | Mapping[str, str], system_id: str = "") -> Options:
    """Parse `--opt` for one action: unknown keys refused with suggestions, values typed."""
    pairs = list(raw.items()) if isinstance(raw, Mapping) else split_pairs(raw)
    values: dict[str, OptionValue | None] = {normalize(o.name): o.default for o in spec.options}
    given: set[str] = set()
    for key, value in pairs:
        option = spec.option(key)
        if option is None:
            raise RuleError(_unknown(spec, key, system_id))
        norm = normalize(option.name)
        if norm in given:
            raise RuleError(Ref(f"--opt {option.name} donnée deux fois",
                                f"option « {option.title} » donnée deux fois"))
        values[norm] = option.parse(value)
        given.add(norm)
    for option in spec.options:
        if option.required and values[normalize(option.name)] is None:
            raise RuleError(missing(option, option.help, value="N" if option.kind == "int" else "…"))
    return Options(values, frozenset(given), spec)


def _unknown(spec: ActionSpec, key: str, system_id: str) -> Ref:
    known = [o.name for o in spec.options]
    where = f"jdr {spec.name}" + (f" ({system_id})" if system_id else "")
    if not known:
        return Ref(f"--opt « {_shown(key)} » : {where} ne prend aucune option --opt",
                   f"option « {_shown(key)} » inconnue : cette action n'a pas d'option")
    return Ref(f"--opt : {where} : " + unknown_name_message("option", _shown(key), known),
               unknown_name_message("option", _shown(key), [o.title for o in spec.options]))

"""Dice expressions on the command line: `jdr odds "10d10cs>=7"` and `jdr roll "-1d6+3"`."""

from __future__ import annotations

from jdr.cli.output import Output
from jdr.errors import JdrError


def expression_odds(expression: str, out: Output) -> None:
    """`jdr odds "10d10cs>=7"`: a single argument that reads as dice gets its exact odds."""
    from jdr.dice.odds import odds
    from jdr.errors import DiceError

    try:
        result = odds(expression)
    except DiceError as exc:
        raise JdrError(f"« {expression[:40]} » n'est pas une expression de dés ({exc.message}) ; "
                       "pour les chances d'un personnage, donnez sa fiche et sa compétence"
                       ) from None
    out.render(result)()


EXPRESSION_COMMANDS = ("roll", "odds", "lancer", "chances")
_FLAGS = ("--json", "--detail", "--dry-run", "--help", "--verifiable")


def dice_first(args: list[str]) -> list[str]:
    """`jdr roll "-1d6+3"`: a dice expression starting with `-` is the argument, not an option
    (moved after `--`, the options before it)."""
    if not args or args[0] not in EXPRESSION_COMMANDS or "--" in args:
        return args
    for i in range(1, len(args)):
        arg, before = args[i], args[i - 1]
        takes_value = before.startswith("--") and "=" not in before and before not in _FLAGS
        if not takes_value and arg[:1] == "-" and arg[1:2] in tuple("0123456789dD({+"):
            return [*args[:i], *args[i + 1:], "--", arg]
    return args

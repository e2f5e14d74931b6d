"""A message that names an option, a parameter, a rule or a command reads right in each front
end: the command line keeps what one types (`--opt pv=N`, `--seuil`, `jdr regle soin …`), the
pages and the API name it by its French label (« PV rendus », « Seuil », la règle « soin »)."""

from __future__ import annotations

import re

import pytest

from jdr.core.declare import rule_roles, rules_of
from jdr.core.messages import arg, command, missing, opt, rule, say, usage
from jdr.core.options import ActionSpec, OptionSpec, parse_int, parse_options
from jdr.core.registry import available, get_system
from jdr.errors import JdrError, RuleError

CLI_SYNTAX = re.compile(r"--[a-z]|\bjdr [a-z]")
PV = OptionSpec("pv", "int", "PV rendus (donnée du MJ)", lo=1, hi=1000, label="PV rendus",
                required=True)
MOUNTED = OptionSpec("defenseur_monte", "bool", "le défenseur est à cheval", False,
                     label="Défenseur monté")
GAIT = OptionSpec("allure", "choice", "l'allure", choices=("pas", "triple_galop"),
                  label="Allure", labels=("Au pas", "Triple galop"))
CARE = ActionSpec("soin", "PERSONNAGE — potion ou sort de soin", (PV, MOUNTED, GAIT))


def test_a_rule_is_read_by_its_title_accents_and_all() -> None:
    """A rule's name is typed without accents (`jdr regle elan_essai`); the pages write its
    declared title."""
    spec = ActionSpec("elan_essai", "CAVALIER — prendre de l'élan", title="élan d'essai")
    assert spec.shown == "élan d'essai"
    assert rule("elan_essai") == ("jdr regle elan_essai", "la règle « élan d'essai »")
    assert usage("elan_essai CAVALIER").web == "la règle « élan d'essai » demande : cavalier"
    assert ActionSpec("sans_titre", "…").shown == "sans titre"


def refusal(call: object, *args: object) -> RuleError:
    with pytest.raises(RuleError) as caught:
        call(*args)  # type: ignore[operator]
    return caught.value


def test_a_ref_is_typed_on_the_command_line_and_read_by_its_label_in_the_pages() -> None:
    text = say(opt(PV, "N"), " manquant (", rule("action_simple"), ", ", arg("seuil"), ", ",
               command("attack", "attaque --opt monte=oui"), ")")
    assert text.cli == ("--opt pv=N manquant (jdr regle action_simple, --seuil, "
                        "jdr attaque --opt monte=oui)")
    assert text.web == ("« PV rendus » manquant (la règle « action simple », « Seuil », "
                        "l'action « Attaque »)")
    # a real value is shown with its French words, a placeholder is not
    assert opt(GAIT, "triple_galop").web == "« Allure » (Triple galop)"
    assert opt(MOUNTED, "oui").web == "« Défenseur monté »"
    assert opt(MOUNTED, "non").web == "« Défenseur monté » (non)"
    assert arg("contre", "FICHE").web == "« Contre un adversaire »"
    assert arg("competence", kind="xp") == ("--competence", "« Compétence à monter »")


def test_an_error_keeps_both_texts_and_a_plain_one_is_the_same_everywhere() -> None:
    exc = JdrError(missing(PV, "les PV rendus", usage("soin PERSONNAGE --opt pv=N")))
    assert exc.message == str(exc) == ("--opt pv=N manquant : les PV rendus — "
                                       "jdr regle soin PERSONNAGE --opt pv=N")
    assert exc.pages == "il manque « PV rendus » : les PV rendus"
    plain = JdrError("la fiche n'a pas de points de vie")
    assert plain.message == plain.pages == "la fiche n'a pas de points de vie"


def test_the_usage_of_a_rule_names_its_characters_in_the_pages() -> None:
    ref = usage("charge CAVALIER CIBLE [SECONDAIRES…] --opt course_monture=N")
    assert ref.cli == "jdr regle charge CAVALIER CIBLE [SECONDAIRES…] --opt course_monture=N"
    assert ref.web == ("la règle « charge » demande : cavalier, cible, secondaires "
                       "(facultatifs)")


def test_options_refused_by_the_core_name_the_option_each_way() -> None:
    bad_bool = refusal(MOUNTED.parse, "peut-être")
    assert bad_bool.message.startswith("--opt defenseur_monte=peut-être : valeur oui/non attendue")
    assert bad_bool.pages == "« Défenseur monté » : « peut-être » n'est ni oui ni non"
    too_big = refusal(PV.parse, "5000")
    assert too_big.message == "--opt pv : 5000 hors limites (autorisé : de 1 à 1\u202f000)"
    assert too_big.pages == "« PV rendus » : 5000 hors limites (autorisé : de 1 à 1\u202f000)"
    unknown = refusal(GAIT.parse, "galop_fou")
    assert "--opt allure" in unknown.message and "triple_galop" in unknown.message
    assert unknown.pages.startswith("« Allure » : valeur « galop_fou » introuvable")
    assert "Triple galop" in unknown.pages and "_" not in unknown.pages.replace("galop_fou", "")
    key = refusal(parse_options, CARE, {"pw": "3"})
    assert key.message.startswith("--opt : jdr soin : option « pw » introuvable")
    assert "--" not in key.pages and "PV rendus" in key.pages
    assert refusal(parse_int, "x", arg("bonus")).pages.startswith("« Bonus » : « x » n'est pas")


def test_a_required_option_is_refused_before_the_rule_runs_with_its_label() -> None:
    exc = refusal(parse_options, CARE, {"defenseur_monte": "oui"})
    assert exc.message == "--opt pv=N manquant : PV rendus (donnée du MJ)"
    assert exc.pages == "il manque « PV rendus » (donnée du MJ)"  # the help repeats the label
    assert parse_options(CARE, {"pv": "4"}).int("pv") == 4
    assert PV.describe() == "pv — PV rendus (entier 1…1\u202f000, obligatoire) : PV rendus (donnée du MJ)"


@pytest.mark.parametrize("system_id", available())
def test_what_the_pages_show_of_a_system_has_no_command_line_syntax(system_id: str) -> None:
    """Every option's label, help and values' labels, every rule's name in the list and its
    roles: the words the pages' forms are made of."""
    system = get_system(system_id)
    shown: list[str] = []
    for name, spec in system.actions.items():
        for o in spec.options:
            shown += [o.title, o.help, *(o.shown(c) for c in o.choices)]
        shown += [role for role, _, _ in rule_roles(system, name)]
    shown += [label for _, label in rules_of(system)]
    assert [text for text in shown if CLI_SYNTAX.search(text)] == []

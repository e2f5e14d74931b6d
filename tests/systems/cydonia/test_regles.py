"""Cydonia's own rules played through `jdr regle` (core `execute`): torture, négociation,
fouille, médecine, repos, la chance, déplacements, allures, dressage, portance, réputation,
achats d'XP and awards — with the seed's numbers, sheets written back, and every roll's exact odds
checked against brute-force enumeration of the rule's own production code."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from helpers import cli, ok
from jdr.core.contest import ContestResult
from jdr.core.results import Notes, Report
from jdr.dice.enumerate import enumerate_outcomes
from jdr.errors import RuleError
from jdr.systems.cydonia import SYSTEM
from jdr.systems.cydonia.adventure import negotiation_discount
from jdr.systems.cydonia.tables import INDIVIDUAL_AWARDS
from systems.cydonia.cydonia_support import Asked, regle, rule_request, sheet, write


def _text(result: Any) -> str:
    lines = result.notes if isinstance(result, Report) else result.lines
    return "\n".join(line.text for line in lines)


def _hurt(elfe: Path, hp: int, etat: str = "") -> Path:
    text = elfe.read_text(encoding="utf-8").replace("pv: 25", f"pv: {{max: 25, actuels: {hp}}}")
    return write(elfe.parent, "elfe_blesse.yaml", text + etat)


# ------------------------------------------------------------------ torture (R000.04, A000.34)


def test_R000_04_torture_the_victim_talks(ork: Path, sheets: tuple[Path, Path]) -> None:
    _, elfe = sheets
    # Torture experte : dés 3 et 9, le 9 gardé → 5 + 4 + 9 = 18 ; Résistance Mentale 4 + 4 + 5 = 13
    done = regle("torture", ork, elfe, dice=[3, 9, 5])
    contest = done.result.parts[0]
    assert isinstance(contest, ContestResult) and contest.actor.total == 18 and contest.success
    assert "parle" in _text(done.result) and done.pending.docs == ()


def test_R000_04_A000_34_torture_failure_deals_1d20_without_armour(ork: Path,
                                                                    sheets: tuple[Path, Path]) -> None:
    _, elfe = sheets
    hurt = _hurt(elfe, 5)
    # 2 (le 1 écarté) + 9 = 11 contre 4 + 4 + 9 = 17 : échec, 1d20 = 15, protection 3 ignorée
    done = regle("torture", ork, elfe, dice=[2, 1, 9, 15])
    assert not done.result.parts[0].success
    assert sheet(elfe).pv.actuels == 10 and not sheet(elfe).etat.mourant
    regle("torture", ork, hurt, dice=[2, 1, 9, 15])
    assert sheet(hurt).pv.actuels == -10 and sheet(hurt).etat.mourant and not sheet(hurt).etat.mort


def test_R000_04_torture_odds_enumerated(ork: Path, sheets: tuple[Path, Path]) -> None:
    _, elfe = sheets
    hurt = _hurt(elfe, 12)
    request = rule_request("torture", ork, hurt)
    odds = SYSTEM.rule_odds("torture", request)

    def outcome(src: Any) -> tuple[bool, bool]:
        result = SYSTEM.rule("torture", request, src)
        hp = [c.value for c in result.changes if c.path == ("pv",)]
        return bool(result.result.parts[0].success), bool(hp and hp[0] <= 0)

    dist = enumerate_outcomes(outcome)
    assert odds.success == sum(p for (talks, _), p in dist.items() if talks)
    extra = {key: p for key, _, p in odds.extra}
    assert extra["victime_a_terre"] == sum(p for (_, down), p in dist.items() if down)


# ------------------------------------------------------------------ négociation (R000.55)


def test_T000_01_negotiation_discount_and_price(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    # Nain expert : dés 9 et 4, le 9 gardé → 2 + 3 + 9 = 14 ; Elfe 4 + 0 + 5 = 9 ; écart 5 → 10 %
    done = regle("negociation", nain, elfe, opt=["prix=100"], dice=[9, 4, 5])
    text = _text(done.result)
    assert "ristourne de 10 %" in text and "prix : 100 → 90" in text


def test_E000_29_negotiation_critical_gives_fifty(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    done = regle("negociation", nain, elfe, opt=["prix=35"], dice=[10, 3, 5])
    assert "50 %" in _text(done.result) and "17,50" in _text(done.result)


def test_R000_17_negotiation_other_die_asked_after_the_dice(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    asked = Asked("2")
    done = regle("negociation", nain, elfe, dice=[9, 4, 5], chooser=asked)
    (question,) = asked.questions
    assert question.choices == ("1", "2") and question.default == "1"
    assert isinstance(question.shown, ContestResult) and question.shown.actor.total == 14
    contest = done.result.parts[0]
    assert contest.actor.total == 9 and not contest.success  # 9 contre 9 : le marchand garde
    given = Asked()
    done = regle("negociation", nain, elfe, opt=["choix=2"], dice=[9, 4, 5], chooser=given)
    assert given.questions == [] and done.result.parts[0].actor.total == 9


def test_R000_55_negotiation_odds_enumerated(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    request = rule_request("negociation", nain, elfe)
    odds = SYSTEM.rule_odds("negociation", request)

    def discount(src: Any) -> int:
        contest = SYSTEM.rule("negociation", request, src).result.parts[0]
        assert isinstance(contest, ContestResult)
        return negotiation_discount(contest)

    dist = enumerate_outcomes(discount)
    assert {int(key.rsplit("_", 1)[1]): p for key, _, p in odds.extra} == dist
    assert sum(dist.values()) == 1 and dist[50] > 0


# ------------------------------------------------------------------ fouille (R000.56, A000.31)


@pytest.mark.parametrize(("face", "found", "money"), [
    (9, "objets simples", "1 Po et 6 Par"),                         # E000.16 : 16 → 1 Po 6 Par
    (10, "tous les objets + un objet magique", "1 Po et 7 Par"),
    (1, "rien", None),
])
def test_R000_56_search(ork: Path, face: int, found: str, money: str | None) -> None:
    text = _text(regle("fouille", ork, dice=[face]).result)
    assert f"trouvé : {found}" in text
    assert (money in text) if money else ("Po" not in text)


def test_A000_31_search_odds_enumerated(ork: Path) -> None:
    request = rule_request("fouille", ork, opt=["seuil=12"])
    odds = SYSTEM.rule_odds("fouille", request)
    dist = enumerate_outcomes(lambda src: _text(SYSTEM.rule("fouille", request, src).result)
                              .split("\n")[0])
    extra = {key: p for key, _, p in odds.extra}
    assert extra["objet_magique"] == dist["trouvé : tous les objets + un objet magique"]
    assert extra["objets_simples"] == dist["trouvé : objets simples"]
    assert extra["rien"] == dist["trouvé : rien"] == Fraction(4, 10)


# ------------------------------------------------------------------ médecine (R000.54) and repos


def test_R000_54_medicine_heals_and_removes_malus_once_a_day(ork: Path,
                                                             sheets: tuple[Path, Path]) -> None:
    _, elfe = sheets
    patient = _hurt(elfe, 10, "etat: {malus: 4}\n")
    # Mental 2 + Médecine 3 + 8 = 13 ≥ 10 : +3 PV, total 13 → 3 points de malus (A000.15)
    regle("medecine", ork, patient, opt=["seuil=facile"], dice=[8])
    after = sheet(patient)
    assert (after.pv.actuels, after.etat.malus, after.etat.soigne) == (13, 1, True)
    with pytest.raises(RuleError, match="une fois par jour"):
        regle("medecine", ork, patient, opt=["seuil=10"], dice=[8])
    regle("medecine", ork, patient, opt=["seuil=10", "nouveau_jour=oui"], dice=[1])
    assert sheet(patient).pv.actuels == 13  # échec critique : rien


def test_A000_12_medicine_stabilises_the_dying_and_keeps_the_malus_sign(ork: Path,
                                                                       sheets: tuple[Path, Path]) -> None:
    _, elfe = sheets
    dying = _hurt(elfe, -2, "etat: {mourant: true, malus: -4}\n")
    regle("medecine", ork, dying, opt=["seuil=10"], dice=[8])
    after = sheet(dying)
    assert (after.pv.actuels, after.etat.mourant, after.etat.malus) == (1, False, -1)
    assert SYSTEM.state(rule_request("repos", dying, opt=["de=4"]).sheets[0]) == "debout"


def test_R000_54_medicine_needs_the_mj_difficulty_and_heals_oneself(ork: Path) -> None:
    with pytest.raises(RuleError, match="seuil"):
        regle("medecine", ork, dice=[8])
    write(ork.parent, "ork.yaml", ork.read_text(encoding="utf-8").replace("actuels: 30", "actuels: 20"))
    regle("medecine", ork, opt=["seuil=5"], dice=[8])
    assert sheet(ork).pv.actuels == 23


def test_A000_15_medicine_odds_enumerated(ork: Path, sheets: tuple[Path, Path]) -> None:
    _, elfe = sheets
    patient = _hurt(elfe, 10, "etat: {malus: 9}\n")
    request = rule_request("medecine", ork, patient, opt=["seuil=moyenne"])
    odds = SYSTEM.rule_odds("medecine", request)

    def removed(src: Any) -> int:
        changes = SYSTEM.rule("medecine", request, src).changes
        malus = [c.value for c in changes if c.path == ("etat", "malus")]
        return 9 - malus[0] if malus else -1

    dist = enumerate_outcomes(removed)
    extra = {int(key.rsplit("_", 1)[1]): p for key, _, p in odds.extra}
    assert extra == {k: p for k, p in dist.items() if k >= 0}
    assert odds.success == sum(extra.values())


def test_R000_52_rest_recovers_phy_plus_die_up_to_max(ork: Path, sheets: tuple[Path, Path]) -> None:
    _, elfe = sheets
    tired = _hurt(elfe, 10, "etat: {soigne: true}\n")
    regle("repos", tired, opt=["lieu=belle_etoile"], dice=[3])      # A000.25 : 1d4
    assert sheet(tired).pv.actuels == 18 and not sheet(tired).etat.soigne
    regle("repos", tired, opt=["de=20"], dice=[20])
    assert sheet(tired).pv.actuels == 25
    with pytest.raises(RuleError, match="lieu"):
        regle("repos", tired, opt=["de=20", "lieu=tente"], dice=[20])
    request = rule_request("repos", tired, opt=["de=6"])
    odds = SYSTEM.rule_odds("repos", request)
    dist = enumerate_outcomes(lambda src: SYSTEM.rule("repos", request, src).result.parts[0].total)
    assert dict(odds.distribution) == dist and odds.success is None


# ------------------------------------------------------------------ chance, déplacements, montures


def test_R000_19_luck_decides_with_rolloffs(ork: Path, sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    done = regle("chance", ork, elfe, nain, dice=[3, 7])
    assert _text(done.result).split("\n") == ["la plus grande chance : Elfe B",
                                              "la moins grande chance : Nain A"]
    odds = SYSTEM.rule_odds("chance", rule_request("chance", ork, elfe, nain))
    assert [p for _, _, p in odds.extra] == [Fraction(1, 2), Fraction(1, 2), 0]


def test_T000_07_swimming_metres_and_flight_for_lutins_only(ork: Path) -> None:
    done = regle("deplacement", ork, opt=["mode=nage"], dice=[5])     # 8 + 2 + 5 = 15
    assert _text(done.result).startswith("7 m ce tour")
    with pytest.raises(RuleError, match="Lutins"):
        regle("deplacement", ork, opt=["mode=vol"], dice=[5])


def test_R000_37_riding_pace_and_mount_speed(ork: Path) -> None:
    done = regle("allure", ork, opt=["allure=galop"], dice=[9])      # 4 + 3 + 9 = 16 < 20
    assert "n'atteint pas" in _text(done.result)
    done = regle("allure", ork, opt=["allure=trot", "course_monture=6", "physique_monture=9"],
                 dice=[8, 4])                                        # 15 ≥ 15 ; 9 + 6 + 4
    assert "vitesse : 19 m" in _text(done.result)
    odds = SYSTEM.rule_odds("allure", rule_request("allure", ork, opt=["allure=trot"]))
    assert odds.threshold == 15 and odds.success == Fraction(3, 10)


def test_E000_22_taming_is_training_difficulty_plus_ten(ork: Path) -> None:
    done = regle("dressage", ork, opt=["difficulte=5", "sauvage=oui"], dice=[7])   # 2 + 6 + 7 = 15
    assert done.result.parts[0].threshold == 15 and done.result.parts[0].success
    assert "2 créature(s)" in _text(done.result)                                  # E000.21


def test_A000_24_carrying_capacity(ork: Path) -> None:
    text = _text(regle("portance", ork, opt=["gros=2"]).result)
    assert "peut encore porter 30 petit(s) objet(s) ou 6 gros" in text
    assert "surchargé : 5 petit(s)" in _text(regle("portance", ork, opt=["petits=30", "gros=3"]).result)


# ------------------------------------------------------------------ réputation, XP, récompenses


def test_E000_19_E000_20_reputation_points_and_levels(ork: Path) -> None:
    regle("reputation", ork, opt=["points=1"])          # niveau 2 : 1 + 1 = 2 points, il en faut 3
    assert (sheet(ork).reputation.niveau, sheet(ork).reputation.points) == (2, 2)
    regle("reputation", ork, opt=["points=-1"])         # E000.20 : +2 − 1 = +1
    assert (sheet(ork).reputation.niveau, sheet(ork).reputation.points) == (2, 1)
    done = regle("reputation", ork, opt=["points=2"])   # 3 points : niveau +3, remis à 0
    assert (sheet(ork).reputation.niveau, sheet(ork).reputation.points) == (3, 0)
    assert "Bien vu dans son quartier" in _text(done.result)


def test_R000_48_bounty_of_a_bandit(ork: Path) -> None:
    bandit = write(ork.parent, "bandit.yaml", ork.read_text(encoding="utf-8").replace(
        "niveau: 2, points: 1", "niveau: -4, points: 0"))
    done = regle("reputation", bandit, opt=["points=-5"])
    assert sheet(bandit).reputation.niveau == -5 and "prime sur sa tête : 10 Po" in _text(done.result)


def test_E000_18_reputation_bonus_on_a_charisma_roll(ork: Path) -> None:
    for level in (6, -6):
        path = write(ork.parent, f"rep{level}.yaml", ork.read_text(encoding="utf-8").replace(
            "niveau: 2", f"niveau: {level}"))
        out = ok("check", path, "persuasion", "--opt", "reputation=oui", "--des", "5", "--json").json()
        assert out["total"] == 3 + 2 + 5 + 6
    run = cli("check", ork, "corps a corps", "--opt", "reputation=oui", "--des", "5")
    assert run.code == 2 and "R000.49" in run.err   # not a Charisma roll


def test_E000_26_buying_mana_and_companion_stats(ork: Path) -> None:
    done = regle("xp_mana", ork)
    after = sheet(ork)
    assert after.mana is not None and (after.mana.max, after.mana.actuels, after.xp) == (3, 3, 9)
    assert done.result.cost == 1
    regle("xp_compagnon", ork, opt=["compagnon=loup", "stat=physique"])
    after = sheet(ork)
    assert after.compagnons["loup"].stats["physique"] == 5 and after.xp == 7
    with pytest.raises(RuleError, match="loup"):
        regle("xp_compagnon", ork, opt=["compagnon=lou", "stat=physique"])


def test_R000_47_awards_include_the_biggest_jinx(ork: Path) -> None:
    assert INDIVIDUAL_AWARDS["plus_gros_poissard"] == (1, 0)
    regle("recompenses", ork, opt=["participation=oui", "reussite=oui", "shira=oui", "kei=oui",
                                   "shaman=oui", "individuelles=meilleure_idee:pa,plus_gros_poissard",
                                   "reputation=1"])
    after = sheet(ork)
    assert (after.xp, after.pa, after.xp_shira) == (10 + 4 + 1, 2 + 1 + 1, 2)
    assert (after.reputation.niveau, after.reputation.points) == (2, 2)
    with pytest.raises(RuleError, match="ne donne que de l'XP"):
        regle("recompenses", ork, opt=["individuelles=meilleure_punchline:pa"])


def test_rules_without_dice_have_no_odds(ork: Path) -> None:
    with pytest.raises(RuleError, match="pas de chances"):
        SYSTEM.rule_odds("concentration", rule_request("concentration", ork))
    assert isinstance(regle("concentration", ork).result, Notes)


@pytest.mark.parametrize(("name", "opt"), [
    ("dressage", ["difficulte=5", "sauvage=oui"]),     # R000.57, A000.44
    ("allure", ["allure=galop"]),                       # R000.37
    ("deplacement", ["mode=nage"]),                     # R000.58 (no threshold: the totals)
])
def test_single_roll_rules_odds_enumerated(ork: Path, name: str, opt: list[str]) -> None:
    request = rule_request(name, ork, opt=opt)
    odds = SYSTEM.rule_odds(name, request)

    def first(src: Any) -> tuple[int, bool | None]:
        roll = SYSTEM.rule(name, request, src).result.parts[0]
        return roll.total, roll.success

    dist = enumerate_outcomes(first)
    totals: dict[int, Fraction] = {}
    for (total, _), p in dist.items():
        totals[total] = totals.get(total, Fraction(0)) + p
    assert dict(odds.distribution) == totals
    if odds.success is not None:
        assert odds.success == sum(p for (_, won), p in dist.items() if won)


def test_R000_42_breaking_free_odds_enumerated(ork: Path, sheets: tuple[Path, Path]) -> None:
    _, elfe = sheets
    held = write(elfe.parent, "tenu.yaml", elfe.read_text(encoding="utf-8")
                 + "etat: {immobilise: Ork C}\n")
    request = rule_request("degagement", held, ork)
    odds = SYSTEM.rule_odds("degagement", request)
    dist = enumerate_outcomes(lambda src: SYSTEM.rule("degagement", request, src).result.parts[0].success)
    assert odds.success == dist.get(True, 0) == Fraction(6, 100)    # 10 + a > 16 + b: a − b ≥ 7


def test_R000_52_A000_12_care_heals_and_stabilises_the_dying(sheets: tuple[Path, Path]) -> None:
    _, elfe = sheets
    dying = _hurt(elfe, -3, "etat: {mourant: true}\n")
    regle("soin", dying, opt=["pv=5"])              # a dying character is healed, not refused
    after = sheet(dying)
    assert (after.pv.actuels, after.etat.mourant) == (2, False)
    regle("soin", dying, opt=["pv=50"])
    assert sheet(dying).pv.actuels == 25
    with pytest.raises(RuleError, match="pv=N"):
        regle("soin", dying)


def test_A000_16_R000_20_the_mj_sets_a_malus(sheets: tuple[Path, Path]) -> None:
    _, elfe = sheets
    regle("malus", elfe, opt=["points=2"])
    assert sheet(elfe).etat.malus == 2
    out = ok("check", elfe, "esquive", "--des", "6", "--json").json()
    assert out["total"] == 4 + 5 + 6 - 2
    regle("malus", elfe, opt=["points=-5"])
    assert sheet(elfe).etat.malus == 0

"""Verifiable dice (issue 21): the derivation, its uniformity, and a journal whose tampering —
a face, the order of dice or entries, an expression, the revealed seed — is always detected."""

from __future__ import annotations

import copy
import hashlib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from scipy.stats import chisquare

from helpers import pg_schema
from jdr.campaign.seance import close_seance, contribute, open_seance
from jdr.campaign.store import Campaign
from jdr.campaign.workspace import CampaignWorkspace
from jdr.core.actions import commit, execute
from jdr.core.sheet import SheetDocument
from jdr.dice.source import FixedSource, RandomSource
from jdr.dice.verifiable import (
    EntrySource,
    commitment,
    derive_face,
    entry_key,
    verify_blocks,
    verify_journal,
)
from sheets_data import NAIN_YAML

KEY = hashlib.sha256(b"cle d'essai").digest()


@pytest.mark.parametrize("sides", [3, 4, 6, 8, 10, 12, 20, 100])
def test_faces_of_a_seance_are_uniform(sides: int) -> None:
    """Chi-square over 100,000 dice per die size (the key is fixed: the test is deterministic)."""
    n = 100_000
    counts = Counter(derive_face(KEY, i, sides) for i in range(n))
    assert set(counts) == set(range(1, sides + 1))
    _stat, p = chisquare([counts[f] for f in range(1, sides + 1)])
    assert p > 0.001, (sides, p)


def test_derivation_is_the_documented_one() -> None:
    """The face is HMAC-SHA256(K, "i|a")'s first 8 bytes, big-endian, rejected above the last
    multiple of n, then mod n + 1 — recomputed here by hand from hashlib."""
    import hmac

    seed = bytes(range(32))
    key = hmac.new(seed, f"jdr-v1|1|7|{hashlib.sha256(b'').hexdigest()}".encode(),
                   hashlib.sha256).digest()
    assert entry_key(seed, "1", 7, []) == key
    block = hmac.new(key, b"0|0", hashlib.sha256).digest()
    x = int.from_bytes(block[:8], "big")
    assert x < 2**64 - (2**64 % 20)
    assert derive_face(key, 0, 20) == x % 20 + 1
    source = EntrySource(key)
    assert [source.roll(20), source.roll(6)] == [derive_face(key, 0, 20), derive_face(key, 1, 6)]


def test_a_contribution_changes_the_dice() -> None:
    seed = bytes(32)
    plain = entry_key(seed, "1", 3, [])
    mixed = entry_key(seed, "1", 3, ["ab" * 16])
    assert [derive_face(plain, i, 20) for i in range(8)] != [derive_face(mixed, i, 20) for i in range(8)]


# ------------------------------------------------------------------ a played séance


@pytest.fixture(params=["sqlite", "postgresql"])
def campaign(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    if request.param == "sqlite":
        target = str(tmp_path / "seance.jdr")
        camp = Campaign.create(target, "Séance", "cydonia")
        yield camp
        camp.dispose()
        return
    with pg_schema("jdr_v") as url:
        camp = Campaign.create(url, "Séance", "cydonia")
        yield camp
        camp.dispose()


def _act(camp: Campaign, kind: str, params: dict[str, Any], source: Any, reason: str | None = None
         ) -> None:
    from jdr.campaign.seance import use_seance

    with camp.transaction() as tx:
        ws = CampaignWorkspace(tx)
        done = execute(ws, kind, params, use_seance(tx, source, reason))
        commit(ws, done)


def played(camp: Campaign) -> tuple[list[dict[str, Any]], str]:
    """Open a séance, roll, contribute, check by the rules, dice by hand, close: the journal."""
    with camp.transaction() as tx:
        tx.add(SheetDocument.from_text(NAIN_YAML, Path("nain.yaml")))
        open_seance(tx)
    _act(camp, "roll", {"expression": "4d6kh3"}, RandomSource())
    with camp.transaction() as tx:
        contribute(tx, "0123456789abcdef" * 4, "Lise")
    _act(camp, "roll", {"expression": "1d20+5"}, RandomSource())
    _act(camp, "check", {"personnage": "Nain A", "competence": "hache", "seuil": "difficile"},
         RandomSource())
    _act(camp, "roll", {"expression": "1d20"}, FixedSource([7]), "dés lancés à la main")
    with camp.transaction() as tx:
        close_seance(tx)
        entries = [e.to_json() for e in tx.entries()]
        seed = next(e.params["graine"] for e in tx.entries() if e.action == "seance:revelation")
    return entries, seed


def test_a_seance_verifies_and_every_tampering_is_detected(campaign: Campaign) -> None:
    import json

    journal, seed = played(campaign)
    journal = json.loads(json.dumps(journal))  # as exported
    verdict = verify_journal(journal)
    statuses = {c.seq: c.status for c in verdict.checks}
    assert verdict.ok, verdict.to_json()
    assert sorted(statuses.values()) == ["non_verifiable", "ok", "ok", "ok"]
    opening = next(e for e in journal if e["action"] == "seance:ouverture")
    assert opening["params"]["engagement"] == commitment(bytes.fromhex(seed))

    rolled = [e for e in journal if e.get("verif", {}) and e["verif"].get("verifiable")]
    first = journal.index(rolled[0])

    def broken(change: Any) -> bool:
        copy_ = copy.deepcopy(journal)
        change(copy_)
        return not verify_journal(copy_).ok

    def face(j: list[dict[str, Any]]) -> None:
        die = j[first]["dice"][0]
        die["face"] = die["face"] % die["sides"] + 1

    def order_of_dice(j: list[dict[str, Any]]) -> None:
        dice = j[first]["dice"]
        k = next(i for i in range(1, len(dice)) if dice[i]["face"] != dice[0]["face"])
        dice[0], dice[k] = dice[k], dice[0]

    def order_of_entries(j: list[dict[str, Any]]) -> None:
        a, b = journal.index(rolled[0]), journal.index(rolled[1])
        j[a], j[b] = j[b], j[a]

    def renumbered(j: list[dict[str, Any]]) -> None:  # swapped, numbers included
        a, b = journal.index(rolled[0]), journal.index(rolled[1])
        j[a]["seq"], j[b]["seq"] = j[b]["seq"], j[a]["seq"]
        j[a], j[b] = j[b], j[a]

    def expression(j: list[dict[str, Any]]) -> None:
        j[first]["params"]["expression"] = "4d6kh2"

    def revealed_seed(j: list[dict[str, Any]]) -> None:
        reveal = next(e for e in j if e["action"] == "seance:revelation")
        reveal["params"]["graine"] = "00" + seed[2:]

    def contribution_removed(j: list[dict[str, Any]]) -> None:
        j[:] = [e for e in j if e["action"] != "seance:contribution"]

    for change in (face, order_of_dice, order_of_entries, renumbered, expression, revealed_seed,
                   contribution_removed):
        assert broken(change), change.__name__


def test_before_the_reveal_nothing_verifies_yet(tmp_path: Path) -> None:
    camp = Campaign.create(str(tmp_path / "a.jdr"), "A", "cydonia")
    try:
        with camp.transaction() as tx:
            open_seance(tx)
        _act(camp, "roll", {"expression": "2d6"}, RandomSource())
        with camp.reading() as tx:
            journal = [e.to_json() for e in tx.entries()]
        verdict = verify_journal(journal)
        assert [c.status for c in verdict.checks] == ["en_attente"]
        assert not verdict.ok
    finally:
        camp.dispose()


def test_forum_blocks_verify_against_the_published_seed(tmp_path: Path) -> None:
    from jdr.cli.engagement import read_commitment
    from jdr.cli.verifiable import commitment_cmd, verifiable_roll

    path = tmp_path / "eng.json"
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        commitment_cmd(fichier=path, reveler=False, fmt="texte")
        verifiable_roll("3d6", path, "forum", False)
        verifiable_roll("1d20+5", path, "discord", False)
    text = out.getvalue()
    seed = read_commitment(path)["graine"]
    assert verify_blocks(text, None).counts() == {"en_attente": 2}
    good = verify_blocks(text, seed)
    assert good.ok and good.counts() == {"ok": 2}
    assert not verify_blocks(text.replace('"expression":"3d6"', '"expression":"3d8"'), seed).ok
    assert not verify_blocks(text, "11" * 32).ok

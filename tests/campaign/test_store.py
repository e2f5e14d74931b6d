"""The campaign database on SQLite and PostgreSQL: schema, characters, journal, undo."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from jdr.campaign.db import CampaignError, engine_for, head_revision, known_revisions, migrate
from jdr.campaign.journal import commit, undo
from jdr.campaign.store import Campaign
from jdr.core.sheet import SheetDocument
from jdr.core.system import Outcome, SheetChange
from jdr.core.usecase import Pending, apply_changes, record
from jdr.errors import RuleError
from sheets_data import NAIN_YAML

GOBELIN = """\
systeme: cydonia
nom: Gobelin   # modèle
caracteristiques: {physique: 3, agilite: 5, dexterite: 4, sensoriel: 4, courage: 2, charisme: 1,
  mental: 2, chance: 3}
competences: {petite_lame: 3, esquive: 4}
pv: 12
"""


def _doc(text: str, name: str = "fiche.yaml") -> SheetDocument:
    return SheetDocument.from_text(text, Path(name))


def test_schema_matches_models_after_migrations(db_target: str) -> None:
    """Migrations from the first revision up give exactly the tables the code declares."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from jdr.campaign.schema import Base

    engine = engine_for(db_target, must_exist=False)
    migrate(engine)
    with engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"version_table": "jdr_alembic_version"})
        diffs = compare_metadata(ctx, Base.metadata)
        conn.rollback()
    assert diffs == []
    engine.dispose()


def test_create_open_and_lossless_import_export(db_target: str) -> None:
    campaign = Campaign.create(db_target, "La Marche", "cydonia")
    with campaign.transaction() as tx:
        name = tx.add(_doc(NAIN_YAML))
    assert name == "Nain A"
    again = Campaign.open(db_target)
    assert (again.name, again.system_id) == ("La Marche", "cydonia")
    with again.reading() as tx:
        assert tx.export("nain a") == NAIN_YAML  # comments, key order and spelling kept
        assert [c.name for c in tx.characters()] == ["Nain A"]
    again.dispose()
    campaign.dispose()


def test_duplicate_and_wrong_system_refused(db_target: str) -> None:
    campaign = Campaign.create(db_target, "C", "cydonia")
    with campaign.transaction() as tx:
        tx.add(_doc(NAIN_YAML))
    with pytest.raises(RuleError, match="existe déjà"), campaign.transaction() as tx:
        tx.add(_doc(NAIN_YAML))
    with pytest.raises(RuleError, match="fiche felins"), campaign.transaction() as tx:
        tx.add(_doc("systeme: felins\nnom: Chat\n"))
    campaign.dispose()


def test_npc_group_from_one_template(db_target: str) -> None:
    campaign = Campaign.create(db_target, "C", "cydonia")
    with campaign.transaction() as tx:
        names = tx.add_group(_doc(GOBELIN), 3, "Gobelin")
    assert names == ["Gobelin 1", "Gobelin 2", "Gobelin 3"]
    with campaign.transaction() as tx:
        system, loaded = tx.load(["gobelin 2"])
        change = SheetChange(loaded[0].doc, ("pv",), 5, pool=True)
        pending = Pending(Outcome(_notes()), *apply_changes(system, [change]))
        commit(tx, pending, record(pending, "MJ", "degats", {}, None))
    with campaign.reading() as tx:
        hp = {n: tx.load([n])[1][0].model.pv.actuels for n in names}
        assert "# modèle" in tx.export("Gobelin 1")
    assert hp == {"Gobelin 1": 12, "Gobelin 2": 5, "Gobelin 3": 12}
    campaign.dispose()


def _notes() -> object:
    from jdr.core.results import Notes

    return Notes("dégâts à la main")


def _hit(campaign: Campaign, name: str, hp: int, actor: str = "MJ") -> int:
    with campaign.transaction() as tx:
        system, (loaded,) = tx.load([name])
        change = SheetChange(loaded.doc, ("pv",), hp, pool=True)
        pending = Pending(Outcome(_notes()), *apply_changes(system, [change]))
        return commit(tx, pending, record(pending, actor, "degats", {"pv": hp}, None)).seq


def test_journal_keeps_changes_before_and_after_and_undo(db_target: str) -> None:
    campaign = Campaign.create(db_target, "C", "cydonia")
    with campaign.transaction() as tx:
        tx.add(_doc(NAIN_YAML))
    assert _hit(campaign, "Nain A", 20) == 1
    assert _hit(campaign, "Nain A", 14) == 2
    with campaign.reading() as tx:
        entries = tx.entries()
    assert [e.seq for e in entries] == [1, 2]
    assert entries[1].changes == [{"character": "Nain A", "path": ["pv"], "pool": True,
                                   "before": 20, "after": 14}]
    with campaign.transaction() as tx:
        entry = undo(tx)
    assert entry.undoes == 2 and entry.action == "annuler"
    with campaign.reading() as tx:
        assert tx.load(["Nain A"])[1][0].model.pv.actuels == 20
        assert "# le nain de l'exemple" in tx.export("Nain A")
    with campaign.transaction() as tx:  # undo again: the first action
        undo(tx)
    with campaign.reading() as tx:
        assert tx.load(["Nain A"])[1][0].model.pv.actuels == 30
    with pytest.raises(RuleError, match="rien à annuler"), campaign.transaction() as tx:
        undo(tx)
    campaign.dispose()


def test_undo_refused_when_value_changed_since(db_target: str) -> None:
    campaign = Campaign.create(db_target, "C", "cydonia")
    with campaign.transaction() as tx:
        tx.add(_doc(NAIN_YAML))
    _hit(campaign, "Nain A", 20)
    with campaign.transaction() as tx:  # an edit by hand, outside the journal
        doc = tx.document("Nain A")
        doc.set_pool("pv", 7)
        tx.save([doc])
    with pytest.raises(RuleError, match="changé depuis"), campaign.transaction() as tx:
        undo(tx)
    with campaign.reading() as tx:
        assert tx.load(["Nain A"])[1][0].model.pv.actuels == 7
    campaign.dispose()


def test_failed_action_changes_nothing(db_target: str) -> None:
    campaign = Campaign.create(db_target, "C", "cydonia")
    with campaign.transaction() as tx:
        tx.add(_doc(NAIN_YAML))
    with pytest.raises(RuntimeError), campaign.transaction() as tx:
        system, (loaded,) = tx.load(["Nain A"])
        change = SheetChange(loaded.doc, ("pv",), 1, pool=True)
        pending = Pending(Outcome(_notes()), *apply_changes(system, [change]))
        commit(tx, pending, record(pending, "MJ", "degats", {}, None))
        raise RuntimeError("panne au milieu")
    with campaign.reading() as tx:
        assert tx.load(["Nain A"])[1][0].model.pv.actuels == 30
        assert tx.entries() == []
    campaign.dispose()


def test_not_a_campaign_and_newer_schema(tmp_path: Path) -> None:
    text = tmp_path / "notes.jdr"
    text.write_text("pas une base\n", encoding="utf-8")
    with pytest.raises(CampaignError, match="n'est pas une campagne"):
        Campaign.open(str(text))
    other = tmp_path / "autre.jdr"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(CampaignError, match="n'est pas une campagne"):
        Campaign.open(str(other))
    newer = tmp_path / "neuve.jdr"
    Campaign.create(str(newer), "C", "cydonia").dispose()
    conn = sqlite3.connect(newer)
    conn.execute("UPDATE jdr_alembic_version SET version_num = '9999'")
    conn.commit()
    conn.close()
    with pytest.raises(CampaignError, match="plus récent"):
        Campaign.open(str(newer))
    assert head_revision() in known_revisions() and "0001" in known_revisions()


def test_what_the_lock_found_absent_is_looked_for_again_once_written(db_target: str) -> None:
    """The lock tells which of the waiting rolls, the open séance and the active encounter a
    campaign has none of; once the transaction writes, or in the next one, they are read again."""
    from jdr.campaign.seance import current, open_seance

    campaign = Campaign.create(db_target, "Sondes", "cydonia")
    with campaign.transaction() as tx:
        assert tx.absent("rencontre") and tx.absent("seance") and tx.absent("attentes")
        assert tx.encounter() is None
        tx.set_encounter({"ordre": []})
        assert not tx.absent("rencontre")
        assert tx.encounter() is not None
        open_seance(tx)
        assert current(tx) is not None
    with campaign.transaction() as tx:
        assert not tx.absent("rencontre") and not tx.absent("seance") and tx.absent("attentes")
        assert tx.encounter() is not None and current(tx) is not None
        tx.set_encounter(None)
    with campaign.transaction() as tx:
        assert tx.absent("rencontre") and tx.encounter() is None

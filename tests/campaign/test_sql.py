"""The run-time access to a campaign base (`jdr.campaign.sql`, the DB-API without SQLAlchemy):
the same tables as the schema SQLAlchemy declares, values stored exactly as SQLAlchemy stores
them (either side reads the other's rows), changes written before the next query and at the
commit, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from jdr.campaign import rows
from jdr.campaign.sql import Record, _pg_sql, in_list
from jdr.campaign.store import Campaign

RECORDS = [rows.CampaignRow, rows.CharacterRow, rows.EncounterRow, rows.JournalRow, rows.MemberRow,
           rows.SeanceRow, rows.PendingRow]


def test_every_table_of_the_schema_has_its_run_time_row() -> None:
    """Same tables, same columns, and the columns whose values are converted (JSON, moments,
    booleans) are exactly those SQLAlchemy types as such."""
    from sqlalchemy import JSON, Boolean, DateTime

    from jdr.campaign.schema import Base

    tables = {t.name: t for t in Base.metadata.sorted_tables}
    assert sorted(tables) == sorted(r.TABLE for r in RECORDS)
    for record in RECORDS:
        table = tables[record.TABLE]
        assert list(record.COLUMNS) == [c.name for c in table.columns], record.TABLE
        by_type = {kind: {c.name for c in table.columns if isinstance(c.type, kind)}
                   for kind in (JSON, DateTime, Boolean)}
        assert (set(record.JSON), set(record.MOMENTS), set(record.BOOLEANS)) == (
            by_type[JSON], by_type[DateTime], by_type[Boolean]), record.TABLE


def test_named_parameters_for_psycopg() -> None:
    sql = "SELECT :a, x::text, '50%' FROM t WHERE k IN (:k0, :k1) AND b = :b_2"
    assert _pg_sql(sql) == ("SELECT %(a)s, x::text, '50%%' FROM t WHERE k IN (%(k0)s, %(k1)s) "
                            "AND b = %(b_2)s")
    assert in_list("k", ["x", "y"]) == ("(:k0, :k1)", {"k0": "x", "k1": "y"})


PARAMS = {"personnage": "Nain A", "seuil": 15, "liste": [1, "é", None], "vide": {}}


def _sqlalchemy_session(target: str) -> Any:
    from sqlalchemy.orm import Session

    from jdr.campaign.db import engine_for

    return Session(engine_for(target, must_exist=True))


def test_rows_written_by_either_side_read_the_same(db_target: str) -> None:
    """An entry appended at run time reads back through SQLAlchemy with the same values, and one
    SQLAlchemy wrote reads back at run time with the same values (JSON, moments, booleans)."""
    from sqlalchemy import select

    from jdr.campaign import schema

    campaign = Campaign.create(db_target, "Essai", "cydonia")
    with campaign.transaction() as tx:
        mine = tx.append("Nain A", "test", PARAMS, [{"sides": 10, "face": 7}], {"ok": True}, "t",
                         "f", [], "prive", "Lise")
        tx.set_encounter({"round": 1, "order": ["Nain A"]})
    at = datetime(2026, 12, 2, 6, 30, 15, 123456, tzinfo=UTC)
    with _sqlalchemy_session(db_target) as session, session.begin():
        read = session.scalar(select(schema.JournalRow).where(schema.JournalRow.seq == mine.seq))
        assert read is not None
        assert (read.params, read.dice, read.result, read.changes, read.verif) == (
            PARAMS, [{"sides": 10, "face": 7}], {"ok": True}, [], None)
        assert read.at.replace(tzinfo=UTC) == mine.at.replace(tzinfo=UTC)
        encounter = session.scalar(select(schema.EncounterRow))
        assert encounter is not None and encounter.active is True
        assert encounter.state == {"round": 1, "order": ["Nain A"]}
        session.add(schema.JournalRow(
            campaign_id=campaign.id, seq=mine.seq + 1, at=at, actor="MJ", action="message",
            params=PARAMS, dice=[], result={}, text="", forum="", changes=[{"a": 1}],
            visibility="public", author=None, verif={"seance": 1, "verifiable": False}))
        session.add(schema.MemberRow(campaign_id=campaign.id, name="Lise", role="joueur",
                                     token_hash="0" * 64, created_at=at, revoked=True))
    session.get_bind().dispose()
    with campaign.reading() as tx:
        theirs = tx.entry_row(mine.seq + 1)
        assert theirs is not None
        assert (theirs.params, theirs.changes, theirs.verif) == (
            PARAMS, [{"a": 1}], {"seance": 1, "verifiable": False})
        assert theirs.at.replace(tzinfo=theirs.at.tzinfo or UTC) == at
        (member,) = tx.session.rows(rows.MemberRow)
        assert member.revoked is True and member.created_at.replace(
            tzinfo=member.created_at.tzinfo or UTC) == at
        encounter = tx.encounter()
        assert encounter is not None and encounter.active is True
    campaign.dispose()


def test_changes_are_written_before_the_next_query_and_only_when_committed(db_target: str) -> None:
    campaign = Campaign.create(db_target, "Essai", "cydonia")
    with campaign.transaction() as tx:
        row = tx.session.get(rows.CampaignRow, campaign.id)
        assert row is not None and row is tx.row  # one object per row in a transaction
        row.settings = {"sante": {"pnj": "cachee"}}
        seen = tx.session.scalar("SELECT settings FROM jdr_campaigns WHERE id = :id",
                                 {"id": campaign.id})
        assert tx.session.conn.json(seen) == {"sante": {"pnj": "cachee"}}
    with campaign.reading() as tx:
        row = tx.session.get(rows.CampaignRow, campaign.id)
        assert row is not None and row.settings == {"sante": {"pnj": "cachee"}}
        row.settings = {"perdu": True}  # a reading transaction is rolled back
    with pytest.raises(RuntimeError), campaign.transaction() as tx:
        tx.row.journal_seq = 99
        raise RuntimeError("interrompu")
    with campaign.reading() as tx:
        row = tx.session.get(rows.CampaignRow, campaign.id)
        assert row is not None and (row.settings, row.journal_seq) == ({"sante": {"pnj": "cachee"}}, 0)
    campaign.dispose()


def test_a_record_refuses_an_unknown_column() -> None:
    with pytest.raises(TypeError):
        rows.MemberRow(nom="Lise")
    assert issubclass(rows.MemberRow, Record)

"""The server's state: one database (SQLite file or PostgreSQL URL) holding many tables.

A table is a campaign of `jdr.campaign`; its people are rows of `jdr_members`. `Server` opens the
base once (migrating the schema; then the DB-API, `jdr.campaign.sql`), authenticates tokens,
creates tables and invitations, and after each journal commit sends `NOTIFY jdr_journal,
'<table>:<seq>'` (PostgreSQL) in the same transaction, so that every process's live channels
wake up once it is committed.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from jdr.web.auth import JOUEUR, MJ, SPECTATEUR, Caller, check_name, member_json, new_token, now, token_hash
from jdr.web.errors import ApiError

AUTH_SECONDS = 2.0  # how long an authenticated token is trusted without a database read
MAX_CALLERS = 20_000

if TYPE_CHECKING:
    from jdr.campaign.sql import Session
    from jdr.campaign.store import Campaign
    from jdr.web.live import Hubs



class Server:
    """Everything the routes share: the base, the tables met so far, the live hubs."""

    def __init__(self, db: str, admin_token: str | None, loopback: bool) -> None:
        from jdr.campaign.db import is_url, open_for_server, translated_errors

        self.target = db
        self.admin_token = admin_token
        self.loopback = loopback
        with translated_errors():
            self.db, self._lock = open_for_server(db)
        self.postgres = is_url(db) and db.startswith("postgresql")
        self._campaigns: dict[int, Campaign] = {}
        self._callers: dict[str, tuple[float, Caller]] = {}  # token hash -> (expiry, caller)
        from jdr.web.batch import Batches
        from jdr.web.live import Hubs

        self.hubs: Hubs = Hubs(self)
        self.batches = Batches()  # the actions waiting for each table, written together

    # -- database ------------------------------------------------------------------------

    @contextmanager
    def session(self) -> Iterator[Session]:
        """One short transaction outside any campaign lock (members, table list)."""
        from jdr.campaign.db import translated_errors
        from jdr.campaign.sql import Session

        with translated_errors(), self.db.begin() as conn:
            session = Session(conn)
            yield session
            session.flush()

    def campaign(self, table_id: int, session: Session | None = None) -> Campaign:
        """The campaign of a table (404 when there is none)."""
        found = self._campaigns.get(table_id)
        if found is not None:
            return found
        from jdr.campaign.rows import CampaignRow
        from jdr.campaign.store import Campaign

        if session is None:
            with self.session() as own:
                row = own.get(CampaignRow, table_id)
                data = (row.name, row.system) if row is not None else None
        else:
            row = session.get(CampaignRow, table_id)
            data = (row.name, row.system) if row is not None else None
        if data is None:
            raise ApiError(404, "table introuvable")
        campaign = Campaign(self.db, table_id, data[0], data[1], self.target)
        self._campaigns[table_id] = campaign
        return campaign

    def dispose(self) -> None:
        self.db.dispose()
        if self._lock is not None:  # the server's lock on its SQLite file
            import os

            os.close(self._lock)
            self._lock = None

    # -- people ------------------------------------------------------------------------------

    def known_caller(self, token: str | None, table_id: int) -> Caller | None:
        """`authenticate` without the database: the member behind a token seen lately, the
        refusal of a missing or overlong token, or None (the token must be looked up)."""
        if not token:
            raise ApiError(401, "jeton manquant : en-tête « Authorization: Bearer JETON »")
        if len(token) > 200:
            raise ApiError(401, "jeton inconnu ou révoqué")
        known = self._callers.get(token_hash(token))
        if known is not None and known[0] > time.monotonic():
            if known[1].campaign.id != table_id:
                raise ApiError(404, "table introuvable")
            return known[1]
        return None

    def authenticate(self, token: str | None, table_id: int) -> Caller:
        """The member behind a token, for this table; 401 or 404 otherwise."""
        from jdr.campaign.rows import MemberRow

        known = self.known_caller(token, table_id)
        if known is not None:
            return known
        assert token is not None  # known_caller refused a missing one
        digest = token_hash(token)
        with self.session() as session:
            row = session.first(MemberRow, "token_hash = :h", {"h": digest})
            if row is None or row.revoked:
                raise ApiError(401, "jeton inconnu ou révoqué")
            if row.campaign_id != table_id:
                raise ApiError(404, "table introuvable")
            campaign = self.campaign(table_id, session)
            caller = Caller(row.id, row.name, row.role, campaign)
        self._remember(digest, caller)
        return caller

    def _remember(self, digest: str, caller: Caller) -> None:
        """A caller found by its token is kept `AUTH_SECONDS`: the token is not looked up again on
        every request. A revocation made by this process forgets the member at once
        (`_forget`); one made by another process is seen within `AUTH_SECONDS`."""
        now_ = time.monotonic()
        if len(self._callers) >= MAX_CALLERS:
            self._callers = {k: v for k, v in self._callers.items() if v[0] > now_}
            if len(self._callers) >= MAX_CALLERS:
                self._callers.clear()
        self._callers[digest] = (now_ + AUTH_SECONDS, caller)

    def _forget(self, member_id: int) -> None:
        for digest, (_, caller) in list(self._callers.items()):
            if caller.member_id == member_id:
                self._callers.pop(digest, None)

    def create_table(self, name: str, system_id: str) -> dict[str, Any]:
        """A new campaign and its MJ; the MJ's token is in the answer, and nowhere else."""
        from jdr.campaign.store import Campaign
        from jdr.core.registry import get_system

        clean = check_name(name, "nom de table")
        created = Campaign.create_in(self.db, self.target, clean, get_system(system_id).id)
        token, member = self._add_member(created.id, MJ, MJ.upper())
        return {"id": created.id, "nom": created.name, "systeme": created.system_id, "jeton": token,
                "membre": member}

    def invite(self, caller: Caller, role: str, name: str) -> tuple[str, dict[str, Any]]:
        caller.require_mj()
        if role not in (JOUEUR, SPECTATEUR):
            raise ApiError(422, "rôle invalide (permis : joueur, spectateur)")
        return self._add_member(caller.campaign.id, role, check_name(name, "nom de membre"))

    def _add_member(self, campaign_id: int, role: str, name: str) -> tuple[str, dict[str, Any]]:
        from jdr.campaign.rows import MemberRow
        from jdr.names import normalize

        token, digest = new_token()
        with self.session() as session:
            others = session.rows(MemberRow, "campaign_id = :c AND revoked = :no",
                                  {"c": campaign_id, "no": False})
            if any(normalize(o.name) == normalize(name) for o in others):
                raise ApiError(409, f"un membre de cette table s'appelle déjà « {name} »")
            row = MemberRow(campaign_id=campaign_id, name=name, role=role, token_hash=digest,
                            created_at=now(), revoked=False)
            session.add(row)
            return token, member_json(row)

    def renew_mj_link(self, table_id: int, member_id: int | None = None) -> tuple[str, dict[str, Any]]:
        """A new token for the table's MJ (the member `member_id`, or the first MJ): the old one
        stops opening the table at once; the member, its name and its journal stay the same."""
        from jdr.campaign.rows import MemberRow

        token, digest = new_token()
        with self.session() as session:
            if member_id is None:
                row = session.first(MemberRow, "campaign_id = :c AND role = :role AND revoked = :no",
                                    {"c": table_id, "role": MJ, "no": False}, "ORDER BY id LIMIT 1")
            else:
                row = session.get(MemberRow, member_id)
            if row is None or row.campaign_id != table_id or row.role != MJ or row.revoked:
                raise ApiError(404, f"table n° {table_id} introuvable (ou sans MJ)")
            row.token_hash = digest
            out, renewed = member_json(row), row.id
        self._forget(renewed)  # after the commit: the old token is refused at once here too
        return token, out

    def members(self, caller: Caller) -> list[dict[str, Any]]:
        from jdr.campaign.rows import MemberRow

        caller.require_mj()
        with self.session() as session:
            rows = session.rows(MemberRow, "campaign_id = :c", {"c": caller.campaign.id},
                                "ORDER BY id")
            return [member_json(r) for r in rows]

    def player_exists(self, campaign_id: int, name: str) -> str:
        """The exact name of an active joueur of the table (422 when there is none)."""
        from jdr.campaign.rows import MemberRow
        from jdr.names import normalize

        with self.session() as session:
            rows = session.rows(MemberRow, "campaign_id = :c AND revoked = :no AND role = :role",
                                {"c": campaign_id, "no": False, "role": JOUEUR})
            for row in rows:
                if normalize(row.name) == normalize(name):
                    return row.name
        raise ApiError(422, f"aucun joueur « {name[:60]} » à cette table (invitez-le d'abord)")

    def revoke(self, caller: Caller, member_id: int) -> dict[str, Any]:
        from jdr.campaign.rows import MemberRow

        caller.require_mj()
        with self.session() as session:
            row = session.get(MemberRow, member_id)
            if row is None or row.campaign_id != caller.campaign.id:
                raise ApiError(404, "membre introuvable")
            if row.id == caller.member_id:
                raise ApiError(409, "le MJ ne peut pas révoquer son propre jeton")
            row.revoked = True
            out = member_json(row)
        self._forget(member_id)  # after the commit: a request in between cannot keep it
        return out

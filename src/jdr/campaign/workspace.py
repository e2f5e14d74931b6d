"""Choosing where an action's characters live: sheet files given by path, or a campaign (names).

`workspace(refs, campagne, write)`: when every reference is an existing file (or looks like a
YAML path), the action works on files; otherwise the references are character names in the
campaign found by `--campagne`, `JDR_CAMPAGNE` or the only `*.jdr` of the folder.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from jdr.core.place import is_file_ref as _is_file_ref
from jdr.core.system import Loaded
from jdr.core.usecase import AnySystem, Pending, Record, Workspace, file_workspace
from jdr.errors import JdrError


class CampaignWorkspace(Workspace):
    journaled = True

    def __init__(self, tx: Any, force: bool = False, resuming: int | None = None) -> None:
        self.tx = tx
        self.force = force
        self.turn: tuple[dict[str, Any], Any, str | None] | None = None
        self.refs: list[str] = []
        self.resuming = resuming  # the waiting roll this action completes (`campaign.choices`)

    def open(self, refs: Sequence[str]) -> tuple[AnySystem, list[Loaded[Any]]]:
        system: AnySystem
        system, loaded = self.tx.load(refs)
        self.refs = list(refs)
        return system, loaded

    def admit(self, system: AnySystem, act: Any) -> None:
        """Nothing on a character whose roll waits for a choice (`campaign.choices.guard`);
        in an encounter, the turn rules (`jdr.core.turns`): refused out of turn or past what
        the turn allows, unless the MJ forces it; counted on the combatant at the commit."""
        from jdr.campaign.choices import guard
        from jdr.core.encounter import EncounterState
        from jdr.core.turns import admit

        guard(self.tx, self.refs, self.resuming)
        row = self.tx.encounter()
        if row is None:
            return
        state = EncounterState.from_json(row.state)
        admission = admit(state, system.turn_limits(), act, system.turn_cost(act.action, act),
                          self.force)
        if admission is not None:
            self.turn = (row.state, state, admission.override)

    @property
    def override(self) -> str | None:
        return self.turn[2] if self.turn is not None else None

    def commit(self, pending: Pending, rec: Record | None) -> int | None:
        from jdr.campaign.choices import guard
        from jdr.campaign.journal import commit

        guard(self.tx, self.refs, self.resuming)  # health by hand too, which the turn skips
        if rec is None:
            raise JdrError("action de campagne sans journal")
        if self.turn is not None:
            rec = self._counted(rec)
        return commit(self.tx, pending, rec).seq

    def _counted(self, rec: Record) -> Record:
        """The encounter's count of the turn, in the same entry (undone with it); the MJ's
        override written in the entry."""
        from dataclasses import replace

        from jdr.campaign.journal import ENCOUNTER

        assert self.turn is not None
        before, state, override = self.turn
        after = state.to_json()
        self.tx.set_encounter(after)
        change = {"character": ENCOUNTER, "path": ["etat"], "pool": False, "before": before,
                  "after": after}
        rec = replace(rec, changes=[*rec.changes, change])
        if override is not None:
            rec = replace(rec, params={**rec.params, "derogation": override},
                          text=f"{rec.text}\n{override}", forum=f"{rec.forum}\n{override}")
        return rec


def campaign_here(campagne: str | None) -> str | None:
    """The campaign in use, if any (`--campagne`, `JDR_CAMPAGNE`, the only `*.jdr` here)."""
    from jdr.campaign.db import CampaignError, find_target

    try:
        return find_target(campagne)
    except CampaignError:
        if campagne is not None:
            raise
        return None


@contextmanager
def workspace(refs: Sequence[str], campagne: str | None, write: bool, force: bool = False
              ) -> Iterator[Workspace]:
    """An action without characters (a free roll) is journaled in the campaign in use, if there
    is one, and otherwise works without any."""
    files = [_is_file_ref(r) for r in refs]
    here = None
    if campagne is not None or not (refs and all(files)):
        here = campaign_here(campagne)
    if here is None:  # sheet files, or no campaign at all: reading says what is missing
        with file_workspace(refs, write) as ws:
            yield ws
        return
    if any(files) and not all(files):
        raise JdrError("mélange de fichiers et de noms de personnages : tout en fichiers YAML, "
                       "ou tout en noms d'une campagne")
    from jdr.campaign.store import Campaign

    campaign = Campaign.open(here)
    try:
        if write:
            with campaign.transaction() as tx:
                from jdr.campaign.choices import settle_expired

                settle_expired(tx)  # a roll whose wait is over takes its defaults first
                yield CampaignWorkspace(tx, force)
        else:
            with campaign.reading() as tx:
                yield CampaignWorkspace(tx, force)
    finally:
        campaign.dispose()

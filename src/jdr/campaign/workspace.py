"""Choosing where an action's characters live: sheet files given by path, or a campaign (names).

`workspace(refs, campagne, write)`: when every reference is an existing file (or looks like a
YAML path), the action works on files; otherwise the references are character names in the
campaign found by `--campagne`, `JDR_CAMPAGNE` or the only `*.jdr` of the folder.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from jdr.core.system import Loaded
from jdr.core.usecase import AnySystem, Pending, Record, Workspace, file_workspace
from jdr.errors import JdrError


def _is_file_ref(ref: str) -> bool:
    try:
        return ref.lower().endswith((".yaml", ".yml")) or "/" in ref or Path(ref).is_file()
    except (OSError, ValueError):
        return True  # not a usable name either: the file layer explains


class CampaignWorkspace(Workspace):
    journaled = True

    def __init__(self, tx: Any) -> None:
        self.tx = tx

    def open(self, refs: Sequence[str]) -> tuple[AnySystem, list[Loaded[Any]]]:
        system: AnySystem
        system, loaded = self.tx.load(refs)
        return system, loaded

    def commit(self, pending: Pending, rec: Record | None) -> int | None:
        from jdr.campaign.journal import commit

        if rec is None:
            raise JdrError("action de campagne sans journal")
        return commit(self.tx, pending, rec).seq


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
def workspace(refs: Sequence[str], campagne: str | None, write: bool) -> Iterator[Workspace]:
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
                yield CampaignWorkspace(tx)
        else:
            with campaign.reading() as tx:
                yield CampaignWorkspace(tx)
    finally:
        campaign.dispose()

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
    return ref.lower().endswith((".yaml", ".yml")) or Path(ref).is_file() or "/" in ref


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


@contextmanager
def workspace(refs: Sequence[str], campagne: str | None, write: bool) -> Iterator[Workspace]:
    files = [_is_file_ref(r) for r in refs]
    if refs and all(files) and campagne is None:
        with file_workspace(refs, write) as ws:
            yield ws
        return
    if any(files) and not all(files):
        raise JdrError("mélange de fichiers et de noms de personnages : tout en fichiers YAML, "
                       "ou tout en noms d'une campagne")
    from jdr.campaign.db import find_target
    from jdr.campaign.store import Campaign

    campaign = Campaign.open(find_target(campagne))
    try:
        if write:
            with campaign.transaction() as tx:
                yield CampaignWorkspace(tx)
        else:
            with campaign.reading() as tx:
                yield CampaignWorkspace(tx)
    finally:
        campaign.dispose()

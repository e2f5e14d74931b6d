"""Where an action's characters live, decided without importing the campaign layer: sheet files
given by path, or a campaign (`--campagne`, `JDR_CAMPAGNE`, the only `*.jdr` of the folder).

A command on sheet files never imports `jdr.campaign` (its database layer costs more than the
whole command): these checks use the file system alone. `jdr.campaign.workspace` and
`jdr.campaign.db` use the same ones, so both paths decide alike.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

SUFFIX = ".jdr"


def is_file_ref(ref: str) -> bool:
    """A reference to a sheet file (a YAML name, a path, an existing file), not a name."""
    try:
        return ref.lower().endswith((".yaml", ".yml")) or "/" in ref or Path(ref).is_file()
    except (OSError, ValueError):
        return True  # not a usable name either: the file layer explains


def campaign_files(folder: Path | None = None) -> list[Path]:
    """The `*.jdr` files of a folder (the current one by default), sorted."""
    here = folder or Path.cwd()
    return sorted(p for p in here.glob(f"*{SUFFIX}") if p.is_file())


def campaign_named(campagne: str | None) -> bool:
    """True when a campaign is designated: `--campagne`, `JDR_CAMPAGNE`, or exactly one `*.jdr`
    here (none, or several without `--campagne`, is no campaign)."""
    return bool(campagne) or bool(os.environ.get("JDR_CAMPAGNE")) or len(campaign_files()) == 1


def on_files(refs: Sequence[str], campagne: str | None) -> bool:
    """True when the action works on sheet files alone: characters all given as files and no
    `--campagne` (`jdr.campaign.workspace.workspace` decides the same way)."""
    return campagne is None and bool(refs) and all(is_file_ref(r) for r in refs)

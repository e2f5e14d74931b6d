"""Parallel processes on one campaign never lose an update (SQLite and PostgreSQL, for real)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from jdr.campaign.store import Campaign
from jdr.core.sheet import SheetDocument
from sheets_data import NAIN_YAML

PROCESSES = 4
ACTIONS = 10


WORKER = """
import sys
from jdr.campaign.journal import commit
from jdr.campaign.store import Campaign
from jdr.core.results import Notes
from jdr.core.system import Outcome, SheetChange
from jdr.core.usecase import Pending, apply_changes, record

campaign = Campaign.open(sys.argv[1])
for _ in range(int(sys.argv[2])):
    with campaign.transaction() as tx:
        system, (nain,) = tx.load(["Nain A"])
        change = SheetChange(nain.doc, ("xp",), nain.model.xp + 1)
        pending = Pending(Outcome(Notes("+1 XP")), *apply_changes(system, [change]))
        commit(tx, pending, record(pending, "MJ", "xp", {}, None))
campaign.dispose()
"""


def test_parallel_writers_lose_nothing(db_target: str, tmp_path: Path) -> None:
    campaign = Campaign.create(db_target, "C", "cydonia")
    with campaign.transaction() as tx:
        tx.add(SheetDocument.from_text(NAIN_YAML, Path("nain.yaml")))
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, db_target, str(ACTIONS)],
                                stderr=subprocess.PIPE, text=True) for _ in range(PROCESSES)]
    errors = [w.communicate(timeout=180)[1] for w in workers]
    assert [w.returncode for w in workers] == [0] * PROCESSES, errors
    with campaign.reading() as tx:
        xp = tx.load(["Nain A"])[1][0].model.xp
        entries = tx.entries()
    assert xp == 10 + PROCESSES * ACTIONS  # 0 updates lost
    assert [e.seq for e in entries] == list(range(1, PROCESSES * ACTIONS + 1))
    campaign.dispose()

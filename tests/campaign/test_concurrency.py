"""Parallel processes on one campaign never lose an update (SQLite and PostgreSQL, for real): this
process and another one, both ready before either starts, then twenty read-modify-write
transactions each, at the same time (without the campaign's write lock, PostgreSQL loses about
half of them here)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from jdr.campaign.store import Campaign
from jdr.core.sheet import SheetDocument
from sheets_data import NAIN_YAML

ACTIONS = 20

WRITE = """
from jdr.campaign.journal import commit
from jdr.core.results import Notes
from jdr.core.system import Outcome, SheetChange
from jdr.core.usecase import Pending, apply_changes, record

for _ in range(actions):
    with campaign.transaction() as tx:
        system, (nain,) = tx.load(["Nain A"])
        change = SheetChange(nain.doc, ("xp",), nain.model.xp + 1)
        pending = Pending(Outcome(Notes("+1 XP")), *apply_changes(system, [change]))
        commit(tx, pending, record(pending, "MJ", "xp", {}, None))
"""

WORKER = """
import sys
from jdr.campaign.store import Campaign

campaign = Campaign.open(sys.argv[1])
actions = int(sys.argv[2])
with campaign.reading() as tx:
    tx.load(["Nain A"])
print("prêt", flush=True)
sys.stdin.readline()  # both writers start at once: their transactions overlap
""" + WRITE + """
campaign.dispose()
"""


def test_parallel_writers_lose_nothing(db_target: str) -> None:
    campaign = Campaign.create(db_target, "C", "cydonia")
    with campaign.transaction() as tx:
        tx.add(SheetDocument.from_text(NAIN_YAML, Path("nain.yaml")))
    other = subprocess.Popen([sys.executable, "-c", WORKER, db_target, str(ACTIONS)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert other.stdin and other.stdout
    assert other.stdout.readline() == "prêt\n", other.communicate(timeout=180)
    other.stdin.write("go\n")
    other.stdin.flush()
    exec(WRITE, {"campaign": campaign, "actions": ACTIONS})  # the same writes, here, meanwhile
    _, error = other.communicate(timeout=180)
    assert other.returncode == 0, error
    with campaign.reading() as tx:
        xp = tx.load(["Nain A"])[1][0].model.xp
        entries = tx.entries()
    assert xp == 10 + 2 * ACTIONS  # 0 updates lost
    assert [e.seq for e in entries] == list(range(1, 2 * ACTIONS + 1))
    campaign.dispose()

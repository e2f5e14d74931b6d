"""Kill `jdr attack` with SIGKILL at random moments, N times, on a large YAML sheet: count how
often the sheet was left before the action, after it, broken, and temporary files left behind.
Then W attacks at once on one defender: count the hits lost (the suite keeps one kill while the
sheet is written, and two attacks around another writer's lock: tests/core/test_files_hostile.py).

    python benchmarks/stress_kill.py [--kills 200] [--writers 20]
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NAIN = """systeme: cydonia
nom: Nain A
caracteristiques: {physique: 7, agilite: 4, dexterite: 4, sensoriel: 3, courage: 5, charisme: 2,
  mental: 1, chance: 3}
competences: {hache: 6, esquive: 2}
pv: 30
armes:
  - {nom: Hache, competence: hache, degats: "PHY+3+1d10", equipee: principale}
"""
CIBLE = """systeme: cydonia
nom: Cible
caracteristiques: {physique: 5, agilite: 1, dexterite: 1, sensoriel: 1, courage: 1, charisme: 1,
  mental: 1, chance: 1}
competences: {}
pv: {max: 100000, actuels: 100000}
"""


def _after(text: str, before: str) -> bool:
    """A whole sheet, 16 PV lower than before (the scripted hit), every note kept."""
    from jdr.core.sheet import SheetDocument

    try:
        now = SheetDocument.from_text(text, Path("cible.yaml")).plain()
        then = SheetDocument.from_text(before, Path("cible.yaml")).plain()
    except Exception:
        return False
    notes = all(now.get(k) == v for k, v in then.items() if k.startswith("note_"))
    return notes and now["pv"]["actuels"] == then["pv"]["actuels"] - 16


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--writers", type=int, default=20)
    args = parser.parse_args()
    kills(args.kills)
    writers(args.writers)


def kills(count: int) -> None:
    rng = random.Random(7)
    folder = Path(tempfile.mkdtemp(prefix="jdr-kill-"))
    nain, cible = folder / "nain.yaml", folder / "cible.yaml"
    nain.write_text(NAIN, encoding="utf-8")
    filler = "".join(f"note_{i}: {'x' * 60}\n" for i in range(9000))
    cible.write_text(CIBLE + filler, encoding="utf-8")
    counts = {"avant": 0, "après": 0, "cassée": 0, "temporaires": 0}
    start = time.perf_counter()  # one whole run, to spread the kills over its duration
    subprocess.run([sys.executable, "-m", "jdr.cli.main", "attack", str(nain), str(cible), "--des",
                    "8,1,10,6"], check=True, stdout=subprocess.DEVNULL)
    duration = time.perf_counter() - start
    print(f"durée d'une attaque sur la grande fiche : {duration * 1000:.0f} ms")
    for _ in range(count):
        before = cible.read_text(encoding="utf-8")
        proc = subprocess.Popen([sys.executable, "-m", "jdr.cli.main", "attack", str(nain), str(cible),
                                 "--des", "8,1,10,6"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.3, 1.1) * duration)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        text = cible.read_text(encoding="utf-8")
        if text == before:
            counts["avant"] += 1
        elif _after(text, before):
            counts["après"] += 1
        else:
            counts["cassée"] += 1
        leftovers = [p for p in folder.iterdir() if p.name.startswith(".")]
        counts["temporaires"] += len(leftovers)
        for p in leftovers:
            p.unlink()
    print(f"{count} kill -9 : " + ", ".join(f"{k} {v}" for k, v in counts.items()))


def writers(count: int) -> None:
    """`count` attacks started together on one defender: every 16-point hit must be kept."""
    folder = Path(tempfile.mkdtemp(prefix="jdr-writers-"))
    cible = folder / "cible.yaml"
    cible.write_text(CIBLE, encoding="utf-8")
    procs = []
    for i in range(count):
        nain = folder / f"nain{i}.yaml"
        nain.write_text(NAIN.replace("Nain A", f"Nain {i}"), encoding="utf-8")
        procs.append(subprocess.Popen([sys.executable, "-m", "jdr.cli.main", "attack", str(nain), str(cible),
                                       "--des", "8,1,10,6", "--json"], stdout=subprocess.PIPE, text=True))
    hits = sum(json.loads(p.communicate()[0])["damage"]["suffered"] for p in procs)
    from jdr.core.sheet import SheetDocument

    left = SheetDocument.load(cible).plain()["pv"]["actuels"]
    lost = (100000 - hits - left) // 16
    print(f"{count} attaques en même temps sur une fiche : {hits // 16} coups, {lost} perdus")


if __name__ == "__main__":
    main()

"""Sheet files handled like a careful tool (issue 10, point 7): hostile files refused in French
by every command with exit 2 and nothing changed; parallel writers on one YAML file lose nothing;
a process killed mid-action leaves the sheet before or after, and no temporary file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from helpers import cli
from sheets_data import ELFE_YAML, NAIN_YAML


def _corpus(folder: Path) -> dict[str, Path]:
    bomb = ["systeme: cydonia", "nom: Bombe", "a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    bomb += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    files = {
        "bombe": "\n".join(bomb) + "\n",
        "profond": "systeme: cydonia\nnom: P\nx: " + "[" * 300 + "]" * 300 + "\n",
        "nombre": "systeme: cydonia\nnom: N\nxp: " + "9" * 5000 + "\n",
        "liste": "- 1\n- 2\n",
        "binaire": "\x00\x01\x02",
        "sans_systeme": "nom: X\n",
        "systeme_inconnu": "systeme: pathfinder\nnom: X\n",
        "yaml_casse": "systeme: cydonia\nnom: [\n",
    }
    out = {}
    for name, text in files.items():
        out[name] = folder / f"{name}.yaml"
        out[name].write_text(text, encoding="utf-8")
    big = folder / "gros.yaml"
    with big.open("wb") as handle:
        handle.write(b"systeme: cydonia\n")
        handle.truncate(50_000_000)
    out["gros"] = big
    fifo = folder / "tube.yaml"
    os.mkfifo(fifo)
    out["tube"] = fifo
    (folder / "dossier.yaml").mkdir()
    out["dossier"] = folder / "dossier.yaml"
    out["zero"] = Path("/dev/zero")
    latin = folder / "latin1.yaml"
    latin.write_bytes("systeme: cydonia\nnom: Élodie\n".encode("latin-1"))
    out["latin1"] = latin
    return out


COMMANDS = [
    ["check", "{bad}", "hache"], ["check", "{nain}", "hache", "--contre", "{bad}"],
    ["odds", "{bad}", "hache"], ["attack", "{nain}", "{bad}"], ["attack", "{bad}", "{nain}"],
    ["xp", "{bad}", "--competence", "hache"], ["initiative", "{nain}", "{bad}"],
    ["duel", "{nain}", "{bad}"], ["sheet", "check", "{bad}"], ["sheet", "show", "{bad}"],
    ["sante", "{bad}", "5"], ["regle", "torture", "{nain}", "{bad}"],
]


def test_hostile_files_every_command(tmp_path: Path) -> None:
    nain = tmp_path / "nain.yaml"
    nain.write_text(NAIN_YAML, encoding="utf-8")
    corpus = _corpus(tmp_path)
    checked = 0
    for name, bad in corpus.items():
        for command in COMMANDS:
            args = [a.format(bad=bad, nain=nain) for a in command]
            run = cli(*args)
            assert run.code == 2, (name, args, run)
            assert run.err.startswith("Erreur : ") and "Traceback" not in run.err, (name, args, run)
            assert nain.read_text(encoding="utf-8") == NAIN_YAML, (name, args)
            checked += 1
    assert checked == len(corpus) * len(COMMANDS)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_symlink_stays_a_link_and_read_only_is_not_rewritten(tmp_path: Path) -> None:
    target = tmp_path / "vraie.yaml"
    target.write_text(ELFE_YAML, encoding="utf-8")
    link = tmp_path / "lien.yaml"
    link.symlink_to(target.name)
    nain = tmp_path / "nain.yaml"
    nain.write_text(NAIN_YAML, encoding="utf-8")
    run = cli("attack", nain, link, "--des", "8,6,10,6")
    assert run.code == 0, run
    assert link.is_symlink() and "actuels: 12" in target.read_text(encoding="utf-8")
    target.chmod(0o444)
    before = target.read_text(encoding="utf-8")
    run = cli("attack", nain, link, "--des", "8,6,10,6")
    assert run.code == 2 and "lecture seule" in run.err, run
    assert target.read_text(encoding="utf-8") == before


def test_new_sheet_follows_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        out = tmp_path / "neuve.yaml"
        assert cli("sheet", "new", "cydonia", "--sortie", out).code == 0
        assert out.stat().st_mode & 0o777 == 0o644
    finally:
        os.umask(old)


def test_parallel_attacks_on_one_yaml_defender_lose_nothing(tmp_path: Path) -> None:
    """20 processes hit one defender at the same time: every hit is kept (lock, then read)."""
    defender = tmp_path / "cible.yaml"
    defender.write_text("systeme: cydonia\nnom: Cible\ncaracteristiques: {physique: 5, agilite: 1, "
                        "dexterite: 1, sensoriel: 1, courage: 1, charisme: 1, mental: 1, chance: 1}\n"
                        "competences: {}\npv: {max: 900, actuels: 900}\n", encoding="utf-8")
    attackers = []
    for i in range(20):
        path = tmp_path / f"a{i}.yaml"
        path.write_text(NAIN_YAML.replace("Nain A", f"Nain {i}"), encoding="utf-8")
        attackers.append(path)
    # hache 10 + d10 8 against Esquive 1 + 0 + d10 1: a hit to the arm (d20 10 + 5 = 15),
    # damage PHY 7 + 3 + d10 6 = 16, no protection: 16 each, with --des so every run is the same.
    procs = [subprocess.Popen([sys.executable, "-m", "jdr.cli.main", "attack", str(a), str(defender),
                               "--des", "8,1,10,6", "--json"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for a in attackers]
    suffered = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        import json

        suffered.append(json.loads(out)["damage"]["suffered"])
    from jdr.core.sheet import SheetDocument

    left = SheetDocument.load(defender).plain()["pv"]["actuels"]
    assert left == 900 - sum(suffered)  # 0 updates lost
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_kill_mid_action_leaves_before_or_after_and_no_temp(tmp_path: Path) -> None:
    """A large sheet (slow to write), a `kill -9` late in the action: the defender's file is
    whole (before or after) and no temporary file is left. The long loop (hundreds of kills at
    random moments, on a 700 KB sheet) is `benchmarks/stress_kill.py`, out of the suite."""
    fraction = 0.8
    filler = "".join(f"note_{i}: {'x' * 60}\n" for i in range(9000))  # ~700 KB
    defender = tmp_path / "cible.yaml"
    defender.write_text(ELFE_YAML + filler, encoding="utf-8")
    nain = tmp_path / "nain.yaml"
    nain.write_text(NAIN_YAML, encoding="utf-8")
    command = [sys.executable, "-m", "jdr.cli.main", "attack", str(nain), str(defender), "--seed", "4"]
    start = time.perf_counter()  # one whole run: the kills land at fractions of its duration
    subprocess.run([*command, "--dry-run"], check=True, stdout=subprocess.DEVNULL)
    delay = (time.perf_counter() - start) * fraction
    before = defender.read_text(encoding="utf-8")
    for _ in range(1):
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        text = defender.read_text(encoding="utf-8")
        from jdr.core.sheet import SheetDocument

        sheet = SheetDocument.load(defender).plain()  # still a whole, valid sheet
        assert text == before or all(sheet[f"note_{i}"] == "x" * 60 for i in range(9000))
        before = text
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []

"""Sheet files handled like a careful tool (issue 10, point 7): hostile files refused in French
by every command with exit 2 and nothing changed; parallel writers on one YAML file lose nothing;
a process killed while it writes leaves the sheet before or after, and no temporary file."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from helpers import cli
from jdr.core.sheet import SheetDocument
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


TARGET = ("systeme: cydonia\nnom: Cible\ncaracteristiques: {physique: 5, agilite: 1, dexterite: 1, "
          "sensoriel: 1, courage: 1, charisme: 1, mental: 1, chance: 1}\ncompetences: {}\n"
          "pv: {max: 900, actuels: 900}\n")
PATIENCE = 180  # seconds: a loaded machine starts a process slowly


def _attack(attacker: Path, defender: Path) -> subprocess.Popen[str]:
    # hache 10 + d10 8 against Esquive 1 + 0 + d10 1: a hit to the arm (d20 10 + 5 = 15),
    # damage PHY 7 + 3 + d10 6 = 16, no protection: 16 each, with --des so every run is the same.
    return subprocess.Popen([sys.executable, "-m", "jdr.cli.main", "attack", str(attacker), str(defender),
                             "--des", "8,1,10,6", "--json"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _waiting(proc: subprocess.Popen[str]) -> int | None:
    """The inode whose `flock` process `proc` waits for (a `->` line of /proc/locks), if any."""
    for line in Path("/proc/locks").read_text(encoding="ascii").splitlines():
        fields = line.split()
        if "->" in fields and int(fields[5]) == proc.pid:
            return int(fields[6].rsplit(":", 1)[1])
    return None


def _until_waiting_on(proc: subprocess.Popen[str], inode: int, defender: Path, text: str) -> None:
    """Until `proc` waits for the lock of file `inode`; meanwhile the defender stays `text`."""
    deadline = time.monotonic() + PATIENCE
    while _waiting(proc) != inode:
        assert proc.poll() is None, f"attaque finie sans attendre le verrou : {proc.communicate()}"
        assert defender.read_text(encoding="utf-8") == text, "fiche écrite pendant qu'un autre la tient"
        assert time.monotonic() < deadline, "l'attaque n'attend pas le verrou"
        time.sleep(0.02)


def _held(path: Path) -> int:
    fd = os.open(path, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def test_parallel_attacks_on_one_yaml_defender_lose_nothing(tmp_path: Path) -> None:
    """Two attacks while another jdr holds the defender: the first waits for its lock; the other
    jdr replaces the sheet (a new file renamed over it, 900 → 890 PV) and holds the new file too;
    the second attack waits for that one. When the old lock goes, the first attack must not write
    over the sheet the other jdr holds: it waits for the new file's lock. Then both hits land on
    the other jdr's version: nothing lost."""
    defender = tmp_path / "cible.yaml"
    defender.write_text(TARGET, encoding="utf-8")
    attackers = [tmp_path / "a1.yaml", tmp_path / "a2.yaml"]
    for i, path in enumerate(attackers):
        path.write_text(NAIN_YAML.replace("Nain A", f"Nain {i}"), encoding="utf-8")
    theirs = TARGET.replace("actuels: 900", "actuels: 890")
    old = _held(defender)
    first = _attack(attackers[0], defender)
    _until_waiting_on(first, os.fstat(old).st_ino, defender, TARGET)
    replacement = tmp_path / "autre-jdr.tmp"
    replacement.write_text(theirs, encoding="utf-8")
    new = _held(replacement)
    os.replace(replacement, defender)
    second = _attack(attackers[1], defender)
    _until_waiting_on(second, os.fstat(new).st_ino, defender, theirs)
    os.close(old)
    _until_waiting_on(first, os.fstat(new).st_ino, defender, theirs)
    os.close(new)
    suffered = []
    for proc in (first, second):
        out, err = proc.communicate(timeout=PATIENCE)
        assert proc.returncode == 0, err
        suffered.append(json.loads(out)["damage"]["suffered"])
    left = SheetDocument.load(defender).plain()["pv"]["actuels"]
    assert suffered == [16, 16] and left == 890 - 32  # 0 updates lost
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def _writing_in(pid: int, folder: Path) -> bool:
    """Whether process `pid` holds a file of `folder` open for writing (a new sheet under way:
    an anonymous file, a temporary one, or the sheet itself)."""
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
            if target.startswith(f"{folder}/"):
                flags = Path(f"/proc/{pid}/fdinfo/{fd}").read_text(encoding="ascii").split()[3]
                if int(flags, 8) & (os.O_WRONLY | os.O_RDWR):
                    return True
    except (OSError, IndexError):
        pass  # the process or the file descriptor just went away
    return False


def _killed_while_writing(command: list[str], folder: Path) -> bool:
    """Run `command`; `kill -9` it as soon as it writes in `folder`. Whether it was caught so."""
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while proc.poll() is None:
        if _writing_in(proc.pid, folder):
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            return True
        time.sleep(0.0005)
    return False


def test_kill_mid_write_leaves_before_or_after_and_no_temp(tmp_path: Path) -> None:
    """`kill -9` while the defender's new text is being written (the process holds a file of the
    sheet's folder open for writing): the defender's file is whole, before or after, and no
    temporary file is left. Hundreds of kills at random moments: `benchmarks/stress_kill.py`."""
    filler = "".join(f"note_{i}: {'x' * 60}\n" for i in range(500))
    defender = tmp_path / "cible.yaml"
    defender.write_text(ELFE_YAML + filler, encoding="utf-8")
    nain = tmp_path / "nain.yaml"
    nain.write_text(NAIN_YAML, encoding="utf-8")
    command = [sys.executable, "-m", "jdr.cli.main", "attack", str(nain), str(defender), "--seed", "4"]
    for _ in range(5):  # the write lasts milliseconds: if the watch misses it, try again
        before = defender.read_text(encoding="utf-8")
        after = _after(tmp_path / "témoin", before, nain)
        if _killed_while_writing(command, tmp_path):
            break
    else:
        raise AssertionError("jamais pris en train d'écrire la fiche en 5 attaques")
    assert defender.read_text(encoding="utf-8") in (before, after)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def _after(folder: Path, before: str, nain: Path) -> str:
    """The defender's text once the same attack is done (in process, on a copy)."""
    folder.mkdir(exist_ok=True)
    copy = folder / "cible.yaml"
    copy.write_text(before, encoding="utf-8")
    assert cli("attack", nain, copy, "--seed", "4").code == 0
    after = copy.read_text(encoding="utf-8")
    assert after != before
    return after

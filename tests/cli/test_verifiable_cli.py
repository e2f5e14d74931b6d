"""`jdr seance`, `jdr verifier`, `jdr engagement`, `jdr roll --verifiable` from the command line:
exit 0 only when every verifiable entry checks, 1 otherwise; French errors, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import cli
from sheets_data import NAIN_YAML


def test_a_seance_from_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "nain.yaml").write_text(NAIN_YAML, encoding="utf-8")
    assert cli("campagne", "new", "Marche", "--systeme", "cydonia").code == 0
    assert cli("campagne", "import", "nain.yaml").code == 0
    opened = cli("seance", "ouvrir", "--json")
    assert opened.code == 0, opened.err
    commit = opened.json()[0]["params"]["engagement"]
    assert cli("seance", "ouvrir").code == 2  # already open: French error
    assert cli("roll", "3d6").code == 0
    assert cli("check", "Nain A", "hache", "--seuil", "difficile").code == 0
    assert cli("roll", "1d20", "--des", "4").code == 0
    journal = tmp_path / "journal.json"
    journal.write_text(cli("journal", "--json").out, encoding="utf-8")
    waiting = cli("verifier", str(journal))
    assert waiting.code == 1 and "en attente" in waiting.out
    closed = cli("seance", "fermer", "--json")
    assert closed.code == 0
    seed = closed.json()[0]["params"]["graine"]
    import hashlib

    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commit
    journal.write_text(cli("journal", "--json").out, encoding="utf-8")
    ok = cli("verifier", str(journal), "--json")
    assert ok.code == 0, ok.out
    assert ok.json()["counts"] == {"ok": 2, "non_verifiable": 1}
    data = json.loads(journal.read_text(encoding="utf-8"))
    entry = next(e for e in data if e["action"] == "check")
    entry["dice"][0]["face"] = entry["dice"][0]["face"] % 10 + 1
    journal.write_text(json.dumps(data), encoding="utf-8")
    broken = cli("verifier", str(journal))
    assert broken.code == 1 and "ÉCHEC" in broken.out
    assert "graine" in cli("seance", "etat").out


def test_forum_play_without_a_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    posted = cli("engagement", "--format", "forum")
    assert posted.code == 0 and "Engagement jdr" in posted.out
    assert cli("engagement").code == 2  # one commitment at a time
    blocks = [cli("roll", "4d6kh3", "--verifiable", "--format", fmt)
              for fmt in ("forum", "discord", "texte")]
    assert all(b.code == 0 for b in blocks)
    assert "[code]jdr-verif {" in blocks[0].out and "`jdr-verif {" in blocks[1].out
    assert cli("roll", "1d6", "--verifiable", "--seed", "3").code == 2
    text = tmp_path / "forum.txt"
    text.write_text("\n".join(b.out for b in blocks), encoding="utf-8")
    assert cli("verifier", str(text)).code == 1  # seed not yet published
    revealed = cli("engagement", "--reveler")
    seed = revealed.out.split()[-1]
    good = cli("verifier", str(text), "--graine", seed)
    assert good.code == 0 and good.out.count(": ok") == 3, good.out
    text.write_text(text.read_text(encoding="utf-8").replace('"4d6kh3"', '"4d6kh2"', 1), encoding="utf-8")
    assert cli("verifier", str(text), "--graine", seed).code == 1
    assert cli("verifier", "absent.json").code == 2

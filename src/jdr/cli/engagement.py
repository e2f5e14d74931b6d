"""The forum commitment file of `jdr engagement` (issue 21): a small JSON file beside the player,
replaced atomically, readable only by its owner (it holds the secret seed until published)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from jdr.errors import JdrError

KEYS = {"version", "graine", "engagement", "jets"}


def read_commitment(path: Path) -> dict[str, Any]:
    from jdr.dice.verifiable import commitment, parse_seed

    try:
        data = json.loads(path.read_text(encoding="utf-8")) if path.stat().st_size < 10_000 else None
    except FileNotFoundError:
        raise JdrError(f"{path} : aucun engagement (commencez par jdr engagement)") from None
    except (OSError, ValueError, UnicodeDecodeError):
        data = None
    if not isinstance(data, dict) or set(data) != KEYS or not isinstance(data["jets"], int):
        raise JdrError(f"{path} : ce n'est pas un fichier d'engagement de jdr ; je n'y touche pas")
    if commitment(parse_seed(str(data["graine"]))) != data["engagement"]:
        raise JdrError(f"{path} : graine et engagement ne correspondent pas ; je n'y touche pas")
    return data


def write_commitment(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=2)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise

"""Verifiable dice: commit to a secret seed, derive every die from it, reveal it, let anyone check.

The algorithm (specified for re-implementation in `docs/verifiable.md`, version `jdr-v1`):

- A séance (or a forum commitment) draws a secret seed `S` of 32 bytes and publishes its
  commitment `C = SHA-256(S)` (hex) before any die is rolled.
- Members may add contributions (any text, in practice 32 random bytes in hex, drawn by their
  browser); they are public, in journal order.
- The dice of journal entry `seq` are derived from the key
  `K = HMAC-SHA256(S, "jdr-v1|" + seance + "|" + seq + "|" + D)` where `D` is the hex SHA-256 of
  the contributions journaled before the entry, joined by `\\n`.
- Die number `i` (0, 1, ...) with `n` faces: for `a = 0, 1, ...`, `B = HMAC-SHA256(K, i + "|" + a)`,
  `x` = the first 8 bytes of `B` as a big-endian integer; the first `x < 2^64 - (2^64 mod n)`
  gives the face `x mod n + 1` (rejection: no modulo bias).
- Each verifiable entry carries a tag `T = HMAC-SHA256(K, J)` (hex), `J` the canonical JSON
  (keys sorted, no spaces, ASCII with `\\uXXXX` escapes) of `{"action", "params", "dice"}`: a
  changed action, parameter (an expression, a skill) or die list no longer matches.
- A roll that waited for a player's choice was drawn for the number of its notice (an earlier
  entry `attente`): its record says so (`tirage`), and `K` is that number's key. A `tirage` is
  used by one entry only, before it, and names no other entry than a notice.

Nothing here knows a campaign or a page: the campaign layer stores the seed, the CLI and the web
call `derive_face`/`EntrySource`, and `verify_journal` checks an exported journal.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

VERSION = "jdr-v1"
SEED_BYTES = 32
_SPACE = 1 << 64
MAX_ATTEMPTS = 64  # a rejection happens with probability < n / 2^64 per attempt


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """`C = SHA-256(S)`, in lowercase hex."""
    return hashlib.sha256(seed).hexdigest()


def canonical(value: Any) -> str:
    """Canonical JSON: keys sorted, no spaces, ASCII only (`\\uXXXX`, surrogate pairs)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def contributions_digest(contributions: Sequence[str]) -> str:
    return hashlib.sha256("\n".join(contributions).encode("utf-8")).hexdigest()


def entry_key(seed: bytes, seance: str, seq: int, contributions: Sequence[str]) -> bytes:
    message = f"{VERSION}|{seance}|{seq}|{contributions_digest(contributions)}"
    return hmac.digest(seed, message.encode("utf-8"), "sha256")


def entry_tag(key: bytes, action: str, params: Any, dice: Any) -> str:
    """`T = HMAC-SHA256(K, canonical({"action", "params", "dice"}))`, hex."""
    body = canonical({"action": action, "params": params, "dice": dice})
    return hmac.new(key, body.encode("ascii"), hashlib.sha256).hexdigest()


def derive_face(key: bytes, index: int, sides: int) -> int:
    """The face of die `index` (0-based) with `sides` faces, from an entry key."""
    if sides < 1:
        raise ValueError("un dé a au moins une face")
    limit = _SPACE - (_SPACE % sides)
    for attempt in range(MAX_ATTEMPTS):
        block = hmac.digest(key, f"{index}|{attempt}".encode("ascii"), "sha256")
        x = int.from_bytes(block[:8], "big")
        if x < limit:
            return x % sides + 1
    raise ValueError("dérivation impossible")  # pragma: no cover - probability < 2^-64*64


class EntrySource:
    """A dice source for one journal entry: die `i` comes from `derive_face(key, i, sides)`."""

    __slots__ = ("index", "key")

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.index = 0

    def roll(self, sides: int) -> int:
        face = derive_face(self.key, self.index, sides)
        self.index += 1
        return face


def parse_seed(text: str) -> bytes:
    from jdr.errors import JdrError

    value = text.strip().lower()
    if len(value) != 2 * SEED_BYTES or any(c not in "0123456789abcdef" for c in value):
        raise JdrError(f"graine : {2 * SEED_BYTES} chiffres hexadécimaux attendus")
    return bytes.fromhex(value)


# ---------------------------------------------------------------- verification of a journal

OPEN = "seance:ouverture"
CONTRIBUTION = "seance:contribution"
REVEAL = "seance:revelation"


@dataclass
class Check:
    """The verdict on one journal entry."""

    seq: int
    status: str  # ok | echec | non_verifiable | en_attente | hors_seance
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "status": self.status, "message": self.message}


@dataclass
class _Seance:
    commitment: str
    contributions: list[tuple[int, str]] = field(default_factory=list)
    seed: bytes | None = None
    seed_problem: str | None = None


@dataclass
class Verdict:
    checks: list[Check]

    @property
    def ok(self) -> bool:
        return all(c.status in ("ok", "non_verifiable", "hors_seance") for c in self.checks)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for check in self.checks:
            out[check.status] = out.get(check.status, 0) + 1
        return out

    def to_json(self) -> dict[str, Any]:
        return {"type": "verification", "ok": self.ok, "counts": self.counts(),
                "entries": [c.to_json() for c in self.checks]}


def _seances(entries: Sequence[Mapping[str, Any]]) -> dict[str, _Seance]:
    seances: dict[str, _Seance] = {}
    for entry in entries:
        action, params = entry.get("action"), entry.get("params") or {}
        number = str(params.get("seance", ""))
        if action == OPEN:
            seances[number] = _Seance(str(params.get("engagement", "")))
        elif action == CONTRIBUTION and number in seances:
            seances[number].contributions.append((int(entry["seq"]), str(params.get("contribution", ""))))
        elif action == REVEAL and number in seances:
            seance = seances[number]
            try:
                seed = parse_seed(str(params.get("graine", "")))
            except Exception:
                seance.seed_problem = "graine révélée illisible"
                continue
            if commitment(seed) != seance.commitment:
                seance.seed_problem = ("la graine révélée ne correspond pas à l'engagement publié "
                                       "à l'ouverture")
            else:
                seance.seed = seed
    return seances


def check_entry(entry: Mapping[str, Any], seance: _Seance | None, number: str) -> Check:
    seq = int(entry["seq"])
    verif = entry.get("verif") or {}
    if seance is None:
        return Check(seq, "echec", f"séance {number} sans ouverture dans ce journal")
    if not verif.get("verifiable", False):
        why = verif.get("raison") or "dés hors de la dérivation"
        return Check(seq, "non_verifiable", str(why))
    if seance.seed_problem is not None:
        return Check(seq, "echec", seance.seed_problem)
    if seance.seed is None:
        return Check(seq, "en_attente", "graine pas encore révélée")
    drawn = int(verif.get("tirage", seq))
    before = [value for at, value in seance.contributions if at < drawn]
    key = entry_key(seance.seed, number, drawn, before)
    dice = entry.get("dice") or []
    for index, die in enumerate(dice):
        try:
            sides, face = int(die["sides"]), int(die["face"])
        except (KeyError, TypeError, ValueError):
            return Check(seq, "echec", f"dé n° {index + 1} illisible")
        expected = derive_face(key, index, sides)
        if face != expected:
            return Check(seq, "echec", f"dé n° {index + 1} (d{sides}) : {face} au journal, "
                                       f"{expected} selon la graine")
    tag = entry_tag(key, str(entry.get("action", "")), entry.get("params"), dice)
    if not hmac.compare_digest(tag, str(verif.get("tag", ""))):
        return Check(seq, "echec", "entrée modifiée : l'action, ses paramètres ou ses dés ne sont "
                                   "plus ceux qui ont été lancés")
    return Check(seq, "ok", f"{len(dice)} dé(s) conforme(s)")


NOTICE = "attente"  # the notice of a roll waiting for a choice (`jdr.campaign.choices`)


def _draws(entries: Sequence[Mapping[str, Any]]) -> list[Check]:
    """Each `tirage` (dice drawn for an earlier number) is used once, before its entry, and
    that number is no other entry's than a notice."""
    actions = {int(e.get("seq", 0)): str(e.get("action", "")) for e in entries}
    used: set[tuple[str, int]] = set()
    out: list[Check] = []
    for entry in entries:
        verif = entry.get("verif") or {}
        if verif.get("tirage") is None:
            continue
        seq, drawn = int(entry.get("seq", 0)), int(verif["tirage"])
        key = (str(verif.get("seance", "")), drawn)
        if drawn >= seq or key in used or actions.get(drawn, NOTICE) != NOTICE:
            out.append(Check(seq, "echec", f"dés tirés pour le n° {drawn} : ce numéro sert déjà "
                                           "ou ne précède pas l'entrée"))
        used.add(key)
    return out


def verify_journal(entries: Sequence[Mapping[str, Any]]) -> Verdict:
    """Check every entry of an exported journal (`jdr journal --json`, or the API's journal)."""
    checks: list[Check] = []
    last = 0
    for entry in entries:
        seq = int(entry.get("seq", 0))
        if seq <= last:
            checks.append(Check(seq, "echec", f"ordre du journal modifié : n° {seq} après n° {last}"))
        last = max(last, seq)
    seances = _seances(entries)
    checks += _draws(entries)
    for entry in entries:
        verif = entry.get("verif")
        if not verif:
            continue
        number = str(verif.get("seance", ""))
        checks.append(check_entry(entry, seances.get(number), number))
    for number, seance in seances.items():
        if seance.seed_problem is not None:
            checks.append(Check(0, "echec", f"séance {number} : {seance.seed_problem}"))
    checks.sort(key=lambda c: c.seq)
    return Verdict(checks)


def load_entries(data: Any) -> list[Mapping[str, Any]]:
    """An exported journal: a list of entries, or `{"entries": [...]}`."""
    from jdr.errors import JdrError

    if isinstance(data, Mapping) and isinstance(data.get("entries"), list):
        data = data["entries"]
    if not isinstance(data, list) or not all(isinstance(e, Mapping) and "seq" in e for e in data):
        raise JdrError("journal illisible : une liste d'entrées JSON (jdr journal --json) attendue")
    return list(data)


def iter_blocks(text: str) -> Iterable[dict[str, Any]]:
    """The forum blocks of a text (`jdr lancer … --verifiable`): each carries one JSON line
    `jdr-verif {…}`."""
    for line in text.splitlines():
        line = line.strip()
        start = line.find("jdr-verif {")
        if start < 0:
            continue
        try:
            data, _end = json.JSONDecoder().raw_decode(line, start + len("jdr-verif "))
        except ValueError:
            continue
        if isinstance(data, dict):
            yield data


def verify_blocks(text: str, seed_text: str | None) -> Verdict:
    """Check forum blocks (`jdr lancer … --verifiable`) against the published seed."""
    seed = parse_seed(seed_text) if seed_text is not None else None
    checks: list[Check] = []
    seen: set[tuple[str, int]] = set()
    for block in iter_blocks(text):
        try:
            seq = int(block["seq"])
            engaged = str(block["engagement"])
        except (KeyError, TypeError, ValueError):
            checks.append(Check(0, "echec", "bloc illisible"))
            continue
        if (engaged, seq) in seen:
            checks.append(Check(seq, "echec", f"jet n° {seq} présent deux fois"))
            continue
        seen.add((engaged, seq))
        if seed is None:
            checks.append(Check(seq, "en_attente", "graine pas encore publiée (--graine)"))
            continue
        if commitment(seed) != engaged:
            checks.append(Check(seq, "echec", "la graine ne correspond pas à l'engagement du bloc"))
            continue
        seance = _Seance(engaged, seed=seed)
        entry = {"seq": seq, "action": block.get("action", ""), "params": block.get("params"),
                 "dice": block.get("dice"), "verif": {"verifiable": True, "tag": block.get("tag")}}
        checks.append(check_entry(entry, seance, "forum"))
    return Verdict(checks)

"""Who is calling, and what they may do: tokens, members, roles, visibility of journal entries.

A token is `secrets.token_urlsafe(32)` (256 bits), shown once; the database keeps its SHA-256.
Every route and the live channel go through `Server.authenticate`: an unknown or revoked token is
401, a token of another table sees this one as absent (404). Roles:

- `mj`: everything;
- `joueur`: the public journal and its own private entries; reads, acts with and edits only the
  characters given to it (`CharacterRow.player` = its name);
- `spectateur`: the public journal, nothing else.

Who sees a journal entry (`Caller.sight`), by its visibility (the roll mode) and its author:

| visibilité | MJ | son auteur | un autre joueur, un spectateur |
|---|---|---|---|
| `public` | tout | tout | tout |
| `prive` (moi et le MJ) | tout | tout | rien |
| `aveugle` (le MJ seul) | tout | qu'il a lancé, sans dés ni résultat | rien |
| `moi` (pour moi seul) | rien | tout | rien |
| `mj` (secret du MJ) | tout | — | rien |
| `chuchote` (à un joueur) | rien | tout | son destinataire seul : tout |

A whisper to the MJ is a `prive` message. The MJ does not see whispers between players (as on
Roll20), nor a roll « pour moi seul ».
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from jdr.names import normalize
from jdr.web.errors import ApiError

if TYPE_CHECKING:
    from jdr.campaign.store import Campaign

MJ, JOUEUR, SPECTATEUR = "mj", "joueur", "spectateur"
VISIBILITIES = ("public", "prive", "aveugle", "moi", "mj", "chuchote")
FULL, MASKED = "tout", "masque"
MAX_NAME = 200


def new_token() -> tuple[str, str]:
    """A fresh token and the hash kept of it."""
    token = secrets.token_urlsafe(32)
    return token, token_hash(token)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def same_secret(given: str | None, expected: str | None) -> bool:
    if not given or not expected:
        return False
    return hmac.compare_digest(given.encode("utf-8", "replace"), expected.encode("utf-8", "replace"))


def now() -> datetime:
    return datetime.now(UTC)


def check_name(name: str, what: str = "nom") -> str:
    """A person's or a table's name: 1 to 200 printable characters on one line."""
    from jdr.render.safe import clean

    text = name.strip()
    if not text or len(text) > MAX_NAME or clean(text) != text:
        raise ApiError(422, f"{what} invalide : 1 à {MAX_NAME} caractères imprimables, sur une ligne")
    return text


@dataclass(frozen=True)
class Caller:
    """A member of one table, as authenticated for this request."""

    member_id: int
    name: str
    role: str
    campaign: Campaign

    @property
    def is_mj(self) -> bool:
        return self.role == MJ

    def owns(self, player: str | None) -> bool:
        """Whether a character given to `player` is this caller's."""
        return self.role == JOUEUR and player is not None and normalize(player) == normalize(self.name)

    def may_read_character(self, player: str | None) -> bool:
        return self.is_mj or self.owns(player)

    def is_named(self, name: str | None) -> bool:
        return name is not None and normalize(name) == normalize(self.name)

    def sight(self, visibility: str, owner: str | None, target: str | None = None) -> str | None:
        """What of a journal entry reaches this caller: `FULL`, `MASKED` (a blind roll's roller:
        that it rolled, not the dice nor the result) or None (nothing, not even that it exists)."""
        if visibility == "public":
            return FULL
        if visibility in ("moi", "chuchote"):
            mine = self.is_named(owner)  # member names are unique in a table
            to_me = visibility == "chuchote" and self.is_named(target)
            return FULL if mine or to_me else None
        if self.is_mj:
            return FULL
        if visibility == "prive":
            return FULL if self.owns(owner) else None
        if visibility == "aveugle":
            return MASKED if self.owns(owner) else None
        return None

    def may_see(self, visibility: str, owner: str | None, target: str | None = None) -> bool:
        """Whether a journal entry (its visibility, its author) reaches this caller at all."""
        return self.sight(visibility, owner, target) is not None

    def require_mj(self) -> None:
        if not self.is_mj:
            raise ApiError(403, "réservé au MJ de la table")

    def require_player(self) -> None:
        if self.role == SPECTATEUR:
            raise ApiError(403, "un spectateur regarde la table mais n'y agit pas")


def member_json(row: Any) -> dict[str, Any]:
    return {"id": row.id, "nom": row.name, "role": row.role,
            "cree": row.created_at.isoformat(), "revoque": bool(row.revoked)}

"""The people of a table (issue 11): who may connect, with which role, by which token.

A token is shown once, at its creation; only its SHA-256 (hex) is kept. A revoked member keeps
its row (its name still owns its characters and its private journal entries) but its token no
longer opens anything. The table is created by migration 0002; its row is
`jdr.campaign.rows.MemberRow`.
"""

from __future__ import annotations

ROLES = ("mj", "joueur", "spectateur")

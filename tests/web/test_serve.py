"""`serve`: table creation is open on loopback only; elsewhere an admin token is required, taken
from JDR_ADMIN_TOKEN or drawn at start and printed once."""

from __future__ import annotations

import pytest

from jdr.web.serve import admin_token, is_loopback


@pytest.mark.parametrize(("host", "loopback"), [
    ("127.0.0.1", True), ("127.5.0.1", True), ("localhost", True), ("::1", True), ("[::1]", True),
    ("0.0.0.0", False), ("192.168.1.20", False), ("::", False), ("table.example", False),
])
def test_loopback_addresses(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_admin_token_printed_only_when_needed(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("JDR_ADMIN_TOKEN", raising=False)
    assert admin_token("127.0.0.1") is None and capsys.readouterr().out == ""
    drawn = admin_token("0.0.0.0")
    assert drawn is not None and len(drawn) >= 43 and drawn in capsys.readouterr().out
    monkeypatch.setenv("JDR_ADMIN_TOKEN", "mon-jeton")
    assert admin_token("0.0.0.0") == "mon-jeton" and capsys.readouterr().out == ""

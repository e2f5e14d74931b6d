"""schemathesis against `/api/openapi.json`, in process: no generated request gets a 500, and every
error is `{"error": "…"}`. Bounded and deterministic: at most 200 examples in all, derandomized."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.core.result import Ok
from web_support import ELFE_YAML, NAIN_YAML, UNLIMITED, add_character, bearer, in_process, make_table

from jdr.web.app import create_app

TOTAL = 200


def _check(response: Any, where: str) -> None:
    assert response.status_code < 500, f"{where} → {response.status_code} {response.text[:300]}"
    if response.status_code >= 400:
        body = response.json()
        assert set(body) <= {"error", "problemes"} and body["error"], (where, body)


async def _prepare(db: str) -> tuple[int, str]:
    async with in_process(db) as client:
        table = await make_table(client, "Fuzz")
        for text in (NAIN_YAML, ELFE_YAML):
            await add_character(client, table, table.mj, text)
    return table.id, table.mj


def test_no_generated_request_gets_a_500(tmp_path: Path) -> None:
    db = str(tmp_path / "tables.jdr")
    table_id, mj = asyncio.run(_prepare(db))
    auth = bearer(mj)
    app = create_app(db, None, True, limits=UNLIMITED)
    schema = schemathesis.openapi.from_asgi("/api/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations() if isinstance(result, Ok)]
    per_mode = TOTAL // (2 * len(operations))
    assert len(operations) == 31 and per_mode * 2 * len(operations) <= TOTAL
    count = 0
    for operation in operations:
        fixed: dict[str, Any] = {"headers": auth}
        if "{id}" in operation.path:
            fixed["path_parameters"] = {"id": table_id}
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            strategy = operation.as_strategy(generation_mode=mode, **fixed)

            @settings(max_examples=per_mode, derandomize=True, database=None, deadline=None,
                      suppress_health_check=list(HealthCheck))
            @given(case=strategy)
            def run(case: Any) -> None:
                nonlocal count
                count += 1
                _check(case.call(), f"{case.method} {case.formatted_path}")

            try:
                run()
            except Unsatisfiable:  # nothing left to make invalid once the id and token are fixed
                assert mode is GenerationMode.NEGATIVE, operation.path
    assert 0 < count <= TOTAL
    app.state.server.dispose()

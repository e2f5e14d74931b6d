"""The peers' notation: every corpus expression read with the expected meaning, or refused."""

from __future__ import annotations

from collections import Counter

import pytest

from dice.peer_corpus import CORPUS, OTHER, PEER, REFUSED, Case
from jdr.dice import RandomSource, roll
from jdr.dice.odds import odds
from jdr.errors import DiceError


@pytest.mark.parametrize("case", CORPUS, ids=[f"{c.source[:6]}:{c.expression}" for c in CORPUS])
def test_corpus(case: Case) -> None:
    if case.status == REFUSED:
        with pytest.raises(DiceError) as info:
            odds(case.expression)
        assert "position" in info.value.message or "«" in info.value.message
        with pytest.raises(DiceError):
            roll(case.expression, RandomSource(1))
        return
    o = odds(case.expression)
    if case.low is not None:
        assert o.minimum == case.low
    if case.high is None:
        if case.low is not None:  # an explosion: unbounded, the part not computed is shown
            assert o.truncated > 0
    else:
        assert o.maximum == case.high
        assert o.truncated == 0
    if case.mean is not None:
        if o.truncated:
            assert abs(o.mean - case.mean) < 1e-4
        else:
            assert o.mean == case.mean
    support = {t for t, _ in o.distribution}
    for seed in range(20):
        r = roll(case.expression, RandomSource(seed))
        total = r.repeats[0].total if r.repeats else r.total
        assert total in support or (o.truncated and total > o.maximum)


def test_corpus_counts() -> None:
    """The numbers the closing note gives (docs/des.md names each difference)."""
    counts = Counter(c.status for c in CORPUS)
    assert counts == {PEER: 111, OTHER: 17, REFUSED: 28}, counts

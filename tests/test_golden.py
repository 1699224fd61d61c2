"""Stored fights keep folding to what they showed: each golden stream (recorded by
tests/golden/record.py with an earlier version's code) folds, with today's code, to
the same log lines and views for every viewer."""

import json

import pytest
from golden.record import FIGHTS, HERE, load, shown


@pytest.mark.parametrize("name", sorted(FIGHTS))
def test_golden_stream_folds_as_recorded(name):
    expected = json.loads((HERE / f"{name}.expected.json").read_text())
    now = json.loads(json.dumps(shown(load(name)), ensure_ascii=False))
    assert now.keys() == expected.keys()
    for viewer in expected:
        for seq, (was, lines) in enumerate(zip(expected[viewer]["log"], now[viewer]["log"], strict=True)):
            assert lines == was, f"{viewer}, event {seq}"
        assert now[viewer]["final"] == expected[viewer]["final"], viewer
        assert now[viewer]["views"] == expected[viewer]["views"], viewer

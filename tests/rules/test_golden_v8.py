"""Fights of rules version 8 keep folding to what they showed (issue 21): each stream of
tests/golden/v8 (recorded once by tests/golden/v8/record.py, exercising what version 8
changed: the torch at the oil, the natural 20 that is the criticals module's, 000's parry,
shield bash and shield sacrifice on 003's roll) folds, with today's code, to the same log
lines and views for every viewer, under its own version."""

import json

import pytest
from golden.record import shown
from golden.states import hashes
from golden.v8.record import FIGHTS, HERE, VERSION, load, states

from fray_table.rules.events import decode_event


@pytest.mark.parametrize("name", FIGHTS)
def test_golden_stream_of_version_8_folds_as_recorded(name):
    expected = json.loads((HERE / f"{name}.expected.json").read_text())
    now = json.loads(json.dumps(shown(load(name)), ensure_ascii=False))
    assert now.keys() == expected.keys()
    for viewer in expected:
        for seq, (was, lines) in enumerate(zip(expected[viewer]["log"], now[viewer]["log"], strict=True)):
            assert lines == was, f"{viewer}, event {seq}"
        assert now[viewer]["final"] == expected[viewer]["final"], viewer
        assert now[viewer]["views"] == expected[viewer]["views"], viewer


@pytest.mark.parametrize("name", FIGHTS)
def test_golden_stream_of_version_8_folds_to_its_frozen_state_bytes(name):
    assert hashes(load(name)) == states(name)


@pytest.mark.parametrize("name", FIGHTS)
def test_golden_stream_of_version_8_is_of_version_8(name):
    assert decode_event(load(name)[0]).command.rules_version == VERSION


def test_every_scenario_of_version_8_is_recorded():
    assert FIGHTS == ["natural-20-with-003s-criticals", "shield-under-003", "torch-at-the-oil"]
    assert all((HERE / f"{name}.{kind}").exists() for name in FIGHTS for kind in ("stream", "expected.json", "states"))

"""Fights of rules version 8 keep folding to what they showed (issue 21): each stream of
tests/golden/v8 (recorded once by tests/golden/v8/record.py, exercising what version 8
changed: the torch at the oil, the natural 20 that is the criticals module's, 000's parry,
shield bash and shield sacrifice on 003's roll) folds, with today's code, to the same log
lines and views for every viewer, under its own version."""

import pytest
from golden.states import hashes
from golden.v8.record import FIGHTS, HERE, VERSION, load, states
from test_golden import shows_as_recorded

from fray_table.rules.events import decode_event


@pytest.mark.parametrize("name", FIGHTS)
def test_golden_stream_of_version_8_folds_as_recorded(name):
    shows_as_recorded(load(name), HERE / f"{name}.expected.json")


@pytest.mark.parametrize("name", FIGHTS)
def test_golden_stream_of_version_8_folds_to_its_frozen_state_bytes(name):
    assert hashes(load(name)) == states(name)


@pytest.mark.parametrize("name", FIGHTS)
def test_golden_stream_of_version_8_is_of_version_8(name):
    assert decode_event(load(name)[0]).command.rules_version == VERSION


def test_every_scenario_of_version_8_is_recorded():
    assert FIGHTS == ["natural-20-with-003s-criticals", "shield-under-003", "torch-at-the-oil"]
    assert all((HERE / f"{name}.{kind}").exists() for name in FIGHTS for kind in ("stream", "expected.json", "states"))

"""Stored fights keep folding to what they showed: each golden stream (recorded by
tests/golden/record.py with an earlier version's code) folds, with today's code, to
the same log lines and views for every viewer."""

import json
import pathlib

import pytest
from golden.record import FIGHTS, HERE, load, shown


@pytest.mark.parametrize("name", sorted(FIGHTS))
def test_golden_stream_folds_as_recorded(name):
    shows_as_recorded(load(name), HERE / f"{name}.expected.json")


def shows_as_recorded(stream: list[bytes], recorded: pathlib.Path) -> None:
    """Each viewer is shown what `recorded` says, event by event: log lines, views, the last view."""
    expected = json.loads(recorded.read_text())
    now = json.loads(json.dumps(shown(stream), ensure_ascii=False))
    assert now.keys() == expected.keys()
    for viewer in expected:
        for seq, (was, lines) in enumerate(zip(expected[viewer]["log"], now[viewer]["log"], strict=True)):
            assert lines == was, f"{viewer}, event {seq}"
        assert now[viewer]["final"] == expected[viewer]["final"], viewer
        assert now[viewer]["views"] == expected[viewer]["views"], viewer


def sums(name: str) -> list[tuple[str, int, list[int], list[int]]]:
    """Each line of the fight with a number needed: its text, total, dice and the terms added to them."""
    from fray_table.rules.events import decode_event
    from fray_table.rules.reducer import apply

    state, out = None, []
    for payload in load(name):
        state = apply(state, decode_event(payload))
        out += [(e.text, e.total, [r.value for r in e.rolls], [m.value for m in e.mods]) for e in state.recent if e.need is not None and e.total is not None]
    return out


@pytest.mark.parametrize("name", sorted(FIGHTS))
def test_every_roll_against_a_number_adds_up(name):
    """Issue 13: 'the modifiers line always adds up to its total'. A line with a number needed
    carries the terms added to its die (the pages show them, the total and the number needed):
    its first die (or all its dice) plus those terms is its total, under every profile."""
    for text, total, dice, terms in sums(name):
        assert dice and total in (dice[0] + sum(terms), sum(dice) + sum(terms)), (text, total, terms, dice)


def test_the_sums_checked_are_every_profiles():
    lines = [line for name in FIGHTS for line in sums(name)]
    assert len(lines) >= 59  # as many as the golden fights held when this test was written
    assert any("THAC0" in text for text, *_ in lines) and any("combat bonus" in text for text, *_ in lines)  # 002's and 003's rolls

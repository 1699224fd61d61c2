"""Views follow the change (issue 24): folding every golden fight, in batches as the hub
folds what its tail delivers, each audience's patch turns the view it held into the
reference view (rules.view.view) at every change, and touches exactly the keys of the
view that the full diff of the two views touches: nothing redrawn that did not change,
nothing missed that did. With everything but the declarations as it was, the
declarations are followed, not rebuilt: the lines not changed are the same objects."""

import itertools

import msgspec
import pytest
from golden.record import HERE, load, viewers
from support import wire

from fray_table.rules.changes import EVERYTHING, changes
from fray_table.rules.commands import Declare
from fray_table.rules.events import Actor, Event, decode_event
from fray_table.rules.reducer import apply, folding
from fray_table.rules.view import Viewer, view
from fray_table.server.patch import apply as apply_patch
from fray_table.server.patch import diff
from fray_table.server.views import Views

STREAMS = sorted(p.stem for p in HERE.glob("*.stream")) + sorted(f"v8/{p.stem}" for p in (HERE / "v8").glob("*.stream"))


def batches(events: list, sizes=(1, 3, 1, 2, 5)) -> list[list]:
    """The events cut as a tail delivers them: mostly one, sometimes several."""
    out, i = [], 0
    for size in itertools.cycle(sizes):
        if i >= len(events):
            return out
        out.append(events[i : i + size])
        i += size
    return out


def test_every_golden_stream_is_checked():
    assert len(STREAMS) >= 17 and "v8/torch-at-the-oil" in STREAMS


@pytest.mark.parametrize("name", STREAMS)
def test_patches_follow_each_change_as_the_full_diff_of_the_views(name):
    events = [decode_event(p) for p in load(name)]
    audiences = [*viewers(events).values(), Viewer("player", ())]
    views, state = Views(), None
    held: dict[Viewer, dict] = {}
    reference: dict[Viewer, dict] = {}
    for batch in batches(events):
        *_, state = folding(batch, state)  # the state after the batch (each yielded is the fold's copy, changed in place)
        for viewer in audiences:
            now = wire(view(state, viewer))
            if viewer not in held:
                held[viewer] = wire(views.of(state, viewer))
            else:
                ops = wire(views.patch(state, viewer))
                full = diff(reference[viewer], now)
                assert {tuple(op[0][:1]) for op in ops} == {tuple(op[0][:1]) for op in full}, (name, state.seq, viewer)
                held[viewer] = apply_patch(held[viewer], ops)
            assert held[viewer] == now, (name, state.seq, viewer)
            reference[viewer] = now
        views.settle()


def test_a_declaration_changed_is_the_only_line_made_anew():
    """003's showcase, up to a round's declarations, then one changed: the other lines are
    the very objects the views held, and the patch is that one line and the position."""
    events = [decode_event(p) for p in load("holmes-showcase")]
    state, views = None, Views()
    for event in events:
        state = apply(state, event)
        if len(state.declarations) >= 3 and state.phase == "declaration":
            break
    gm = Viewer("gm")
    before = views.of(state, gm)["declarations"]
    first = state.declarations[0]
    actor = next(c for c in state.combatants if c.id == first.actor)
    other = next(c for c in state.combatants if c.side != actor.side and not c.down and c.id != getattr(first.action, "target", ""))
    changed = apply(state, Event("again", Actor("gm", "gm"), Declare(actor=first.actor, action=msgspec.structs.replace(first.action, target=other.id))))
    assert changes(state, changed).declarations == frozenset({0}) and changes(state, changed).combatants == frozenset()
    ops = views.patch(changed, gm)
    after = views.of(changed, gm)["declarations"]
    assert after[1:] == before[1:] and all(a is b for a, b in zip(after[1:], before[1:], strict=True))
    assert sorted(op[0][0] for op in ops) == ["declarations", "seq"]
    assert [op[0] for op in ops if op[0][0] == "declarations"] == [["declarations", 0, "text"]]
    assert other.name in after[0]["text"]


def test_a_state_changed_in_place_counts_as_everything_changed():
    events = [decode_event(p) for p in load("holmes-showcase")]
    state = apply(None, events[0])
    assert changes(state, state) is EVERYTHING and changes(None, state) is EVERYTHING

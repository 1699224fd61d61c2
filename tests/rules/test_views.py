"""The server's views and patches, built from shared parts, equal the reference
rules.view.view for every viewer at every step of the showcase fight (sealed
declarations, hidden figures, the free round, morale, the end), and of a fight whose
combatants become unseen and seen again (with nobody unseen, the table's parts that
equal the GM's are built and diffed once)."""

import msgspec
import pytest
from scenes import scenario
from support import wire

from fray_table.rules.commands import End
from fray_table.rules.events import Actor, Event
from fray_table.rules.reducer import apply
from fray_table.rules.scenario import play
from fray_table.rules.view import Viewer, view
from fray_table.server.patch import apply as apply_patch
from fray_table.server.views import Views


def unseen(sealed: bool) -> dict:
    """Shade starts unseen and is seen from round 2; then the goblin goes unseen."""
    declare = lambda actor, target: {"type": "declare", "actor": actor, "action": {"type": "attack", "target": target}}  # noqa: E731
    return {
        "options": {"sealed_declarations": sealed},
        "combatants": [
            {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 30, "hp_max": 30, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
            {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 20, "hp_max": 20, "dex": 9, "x": 15, "y": 10},
            {"id": "shade", "name": "Shade", "side": "goblins", "ac": 12, "hp": 6, "hp_max": 6, "x": 20, "y": 10, "unseen": True},
        ],
        "dice": [5, 6] + [10, 3] * 6,
        "commands": [
            {"type": "start"},
            declare("gob", "alda"),
            declare("shade", "alda"),
            declare("alda", "gob"),
            {"type": "advance"},
            {"type": "edit_combatant", "id": "shade", "unseen": False},
            declare("shade", "alda"),
            declare("alda", "shade"),
            {"type": "edit_combatant", "id": "gob", "unseen": True},
            declare("gob", "alda"),
            {"type": "advance"},
        ],
    }


def forced() -> dict:
    """A d20 forced, then declarations that change nothing of the GM's secrets, then the
    advance that uses it: the GM's `forced_by_die` goes away a change later than the
    secrets last changed (issue 27: the patch set the keys left, deleted none)."""
    declare = lambda actor, target: {"type": "declare", "actor": actor, "action": {"type": "attack", "target": target}}  # noqa: E731
    return {
        **unseen(False),
        "dice": [5, 6],
        "commands": [
            {"type": "start"},
            {"type": "force_rolls", "values": [12], "sides": 20},
            declare("gob", "alda"),
            declare("shade", "alda"),
            declare("alda", "gob"),
            {"type": "advance"},
        ],
    }


FIGHTS = ["showcase", "unseen", "unseen-sealed", "forced"]


def fight(name: str = "showcase") -> tuple[list[Event], list[Viewer]]:
    made = {"showcase": lambda: scenario("holmes-showcase"), "forced": forced}.get(name, lambda: unseen(name == "unseen-sealed"))
    played = play(made())
    events = played.events + [Event("end", Actor("gm", "gm"), End())]  # the end reveals the seed
    players = [Viewer("player", (c.id,)) for c in played.state.combatants]
    return events, [Viewer("gm"), Viewer("spectator"), *players]


@pytest.mark.parametrize("name", FIGHTS)
def test_views_equal_the_reference_for_every_viewer_at_every_step(name):
    events, viewers = fight(name)
    state = None
    for event in events:
        state = apply(state, event)
        views = Views()
        for viewer in viewers:
            assert wire(views.of(state, viewer)) == wire(view(state, viewer)), (state.seq, viewer)


@pytest.mark.parametrize("name", FIGHTS)
def test_patches_turn_each_held_view_into_the_next(name):
    events, viewers = fight(name)
    views = Views()
    state = apply(None, events[0])
    held = {v: wire(views.of(state, v)) for v in viewers}
    sizes = []
    for event in events[1:]:
        state = apply(state, event)
        for viewer in viewers:
            ops = views.patch(state, viewer)
            sizes.append(len(msgspec.json.encode(ops)))
            held[viewer] = apply_patch(held[viewer], wire(ops))
            assert held[viewer] == wire(view(state, viewer)), (state.seq, viewer)
        views.settle()  # as the hub does once every audience has its patch
    assert len(sizes) == (len(events) - 1) * len(viewers)


def test_an_encounters_modules_are_in_its_fixed_part_and_only_when_it_has_some():
    mixed = {"to_hit": "thac0-sheet", "dying": "ll-house"}
    for modules in (mixed, {}):
        played = play({"modules": modules, "combatants": [{"id": "alda", "name": "Alda", "side": "party", "hp": 5, "hp_max": 5}]})
        for viewer in (Viewer("gm"), Viewer("spectator"), Viewer("player", ("alda",))):
            served = wire(Views().of(played.state, viewer))
            assert served == wire(view(played.state, viewer))
            assert served.get("modules") == (mixed if modules else None), viewer

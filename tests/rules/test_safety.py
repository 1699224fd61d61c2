"""A fold never raises and never half-applies: apply() leaves its argument as it
was, and an exception inside a rule is the rejection `rules/bug`, for the GM only,
with the state exactly as before the event. A rule bug costs one command."""

import msgspec
import pytest
from golden.record import FIGHTS, load
from scenes import fighter

from fray_table.rules.commands import Command
from fray_table.rules.events import Actor, Event, decode_event
from fray_table.rules.model import Awaiting, Combatant, Encounter, copied
from fray_table.rules.reducer import BUG, apply, canonical
from fray_table.rules.scenario import play
from fray_table.rules.view import Viewer, log_for

GM = Actor("gm", "gm")


@pytest.mark.parametrize("name", sorted(FIGHTS))
def test_apply_leaves_its_argument_as_it_was(name):
    """Every golden fight, event by event: the state given to apply() has the same
    canonical bytes afterwards, and the state it returns is a new object."""
    state = None
    for payload in load(name):
        before = canonical(state) if state is not None else None
        new = apply(state, decode_event(payload))
        if state is not None:
            assert canonical(state) == before
            assert new is not state
        state = new


def test_copied_shares_no_container_with_its_original():
    """Each list, dict and mutable struct of a state and its combatants is copied, read off
    the types (a field added later and not copied fails here)."""
    state = play(
        {
            "combatants": [fighter("a", "x"), fighter("b", "y")],
            "dice": [5, 6],
            "commands": [{"type": "start"}, {"type": "declare", "actor": "a", "action": {"type": "attack", "target": "b"}}],
        }
    ).state
    state.awaiting = Awaiting(id="p", who="a", kind="k", prompt="?", options=["x"])
    new = copied(state)
    assert canonical(msgspec.structs.replace(new, recent=state.recent)) == canonical(state)
    pairs = [(state, new, Encounter), (state.awaiting, new.awaiting, Awaiting)]
    pairs += [(c, d, Combatant) for c, d in zip(state.combatants, new.combatants, strict=True)]
    for obj, twin, cls in pairs:
        for f in msgspec.structs.fields(cls):
            value = getattr(obj, f.name)
            if isinstance(value, (list, dict)) or (isinstance(value, msgspec.Struct) and not value.__struct_config__.frozen):
                if f.name != "recent":
                    assert getattr(twin, f.name) is not value, f"{cls.__name__}.{f.name} is shared"
                    assert getattr(twin, f.name) == value, f"{cls.__name__}.{f.name} differs"
    assert new.combatants[0] is not state.combatants[0]
    assert new.declarations[0] is not state.declarations[0]


# The fight: a player declares with weapon 1, the GM takes it away, advance.
EDITED_AWAY = {
    "dice": [5, 6, 15, 3],
    "combatants": [
        {
            "id": "alda",
            "name": "Alda",
            "side": "party",
            "hp": 10,
            "hp_max": 10,
            "attack_bonus": 0,
            "x": 10,
            "y": 10,
            "weapons": [{"name": "sword"}, {"name": "dagger", "damage": "1d4", "length": 1, "weight": 1}],
        },
        {"id": "gob", "name": "Gob", "side": "goblins", "hp": 10, "hp_max": 10, "attack_bonus": 0, "x": 15, "y": 10},
    ],
    "commands": [
        {"type": "start"},
        {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob", "weapon": 1}},
        {"type": "edit_combatant", "id": "alda", "weapons": [{"name": "sword"}]},
        {"type": "advance"},
    ],
}


def test_a_rule_that_raises_costs_one_command_seen_by_the_gm_alone(monkeypatch):
    """An exception inside a rule: the command is rejected `rules/bug` with the state as it
    was (only the position moves on), the line is the GM's, and the fight goes on."""
    from fray_table.rules import reducer
    from fray_table.rules.commands import Advance

    played = play({**EDITED_AWAY, "commands": EDITED_AWAY["commands"][:2]})
    before = played.state
    # The rule of `advance` (the reducer's table of rules) changes the state, then raises.
    monkeypatch.setitem(reducer._RULES, Advance, lambda ctx, cmd: (setattr(ctx.state, "phase", "attack"), [][1]))
    after = apply(before, Event("adv", GM, msgspec.convert({"type": "advance"}, Command)))
    [line] = after.recent
    assert line.code == BUG and line.audience == "gm"
    assert line.text.startswith("Rejected: a rule failed on this command (IndexError in test_safety.<lambda>: list index out of range)")
    assert after.phase == "declaration" and after.seq == before.seq + 1
    assert canonical(msgspec.structs.replace(after, seq=before.seq, recent=before.recent)) == canonical(before)
    assert log_for(after.recent, after, Viewer("player", ("alda",))) == []
    assert log_for(after.recent, after, Viewer("spectator")) == []
    monkeypatch.undo()
    again = apply(after, Event("adv2", GM, msgspec.convert({"type": "advance"}, Command)))
    assert again.phase == "declaration" and again.round == 2  # the round resolved this time


def test_a_rejection_is_read_by_its_sender_and_the_gm_only():
    """A player's refused declaration and a GM's refused edit: each line is read by its
    sender and the GM, by no other player and no spectator."""
    played = play(
        {
            "combatants": [fighter("alda", "party"), fighter("bran", "party"), fighter("gob", "goblins", hidden=True)],
            "dice": [5, 6],
            "commands": [
                {"type": "start"},
                {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "alda"}, "as": "player:alda"},
                {"type": "edit_combatant", "id": "gob", "hp": 60},
            ],
        }
    )
    rejected = [e for e in played.log if e.kind == "rejected"]
    assert [e.audience for e in rejected] == ["player:alda", "gm"]
    assert "HP 60/10" in rejected[1].text  # the hidden goblin's max HP: the GM's alone

    def read(viewer):
        return [e.text for e in log_for(played.log, played.state, viewer) if e.kind == "rejected"]

    assert read(Viewer("player", ("alda",))) == ["Rejected: Alda cannot attack itself."]
    assert read(Viewer("player", ("bran",))) == []
    assert read(Viewer("spectator")) == []
    assert len(read(Viewer("gm"))) == 2


def test_a_rule_bug_inside_a_long_fold_gives_what_one_event_at_a_time_gives(monkeypatch):
    """folding() changes its own copy in place: a rule that raises half-way through a
    batch is folded again from the last clean state, so the batch ends in the bytes that
    applying each event on its own gives, and the state it started from is untouched."""
    from fray_table.rules import reducer
    from fray_table.rules.commands import Advance
    from fray_table.rules.reducer import fold

    played = play(EDITED_AWAY)
    events = [*played.events, Event("more", GM, msgspec.convert({"type": "force_rolls", "values": [3]}, Command))]
    monkeypatch.setitem(reducer._RULES, Advance, lambda ctx, cmd: (ctx.state.combatants.clear(), [][1]))
    start = fold(events[:3])
    before = canonical(start)
    one_by_one = start
    for event in events[3:]:
        one_by_one = apply(one_by_one, event)
    batched = fold(events[3:], start)
    assert canonical(start) == before
    assert canonical(batched) == canonical(one_by_one)
    assert [c.id for c in batched.combatants] == ["alda", "gob"]
    assert [e.code for e in fold(events[3:-1], start).recent] == [BUG]
    assert batched.forced == [15, 3, 3] and batched.seq == len(events)  # the advance used none of its dice

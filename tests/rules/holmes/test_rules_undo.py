"""The GM's undo, pure: rules.history computes the restore, the reducer applies
it as carried. Positions: create 0, Alda 1, Goblin 2, forced dice 3, commands from 4."""

import typing

import msgspec
import pytest

from fray_table.rules.commands import ForceRolls, Restore, Undo
from fray_table.rules.dice import draw
from fray_table.rules.events import Actor, Event
from fray_table.rules.history import plan, refold
from fray_table.rules.model import Encounter
from fray_table.rules.reducer import apply, canonical, check, fold
from fray_table.rules.scenario import play
from fray_table.rules.undo import PINNED, RESTORED

FIGHT = {
    "seed": "undo",
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 9, "hp_max": 9, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 4, "hp_max": 4, "dex": 9, "x": 15, "y": 10},
    ],
}
# 003: surprise 5, 6 (nobody); Alda's d20 15 + 1 + AC 6 = 22 >= 19 hits; damage d6 3.
ROUND = [
    {"type": "start"},  # 4
    {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}},  # 5
    {"type": "advance"},  # 6
]
DICE = [5, 6, 15, 3]
GM = Actor("gm", "GM")


def played(*commands, dice=DICE):
    return play({**FIGHT, "dice": list(dice), "commands": list(commands)})


def hp(state: Encounter, cid: str) -> int:
    return next(c.hp for c in state.combatants if c.id == cid)


def game(state: Encounter) -> bytes:
    """The state without what an undo never restores (position, last log, undone set)."""
    return canonical(msgspec.structs.replace(state, seq=0, recent=[], undone=[]))


def test_undo_a_damaging_round_restores_hp_exactly():
    before = played(*ROUND[:2])
    after = played(*ROUND, {"type": "undo", "seq": 6})
    assert hp(played(*ROUND).state, "gob") == 1
    assert hp(after.state, "gob") == 4
    assert (after.state.round, after.state.phase) == (1, "declaration")
    assert after.state.forced == [15, 3]  # the forced results the round used are queued again
    assert game(after.state) == game(before.state)
    assert after.state.seq == 8 and after.state.undone == [6]  # the position keeps counting
    assert [(e.kind, e.text) for e in after.log[-2:]] == [
        ("gm", "GM undid “Round 1: declarations close.” (event #6)."),
        ("gm", "After the undo, Goblin: 4 HP (was 1)."),  # what the undo changed of each combatant (issue 27)
    ]


def test_restore_carries_only_changed_fields_and_nothing_pinned():
    restore = played(*ROUND, {"type": "undo", "seq": 6}).events[7].command
    assert isinstance(restore, Restore)
    carried = {f for f in Restore.__struct_fields__ if getattr(restore, f) is not msgspec.UNSET}
    assert carried == {"undoes", "at", "what", "undone", "rewind", "round", "combatants", "declarations", "forced"}
    assert set(RESTORED) | set(PINNED) == set(Encounter.__struct_fields__), "a new state field: restored or pinned?"
    assert not set(PINNED) & set(Restore.__struct_fields__) - {"undone"}


def test_undo_a_gm_hp_edit():
    out = played({"type": "edit_combatant", "id": "gob", "hp": 0}, {"type": "undo", "seq": 4})
    gob = next(c for c in out.state.combatants if c.id == "gob")
    assert (gob.hp, gob.down) == (4, False)
    assert [e.text for e in out.log[-2:]] == ["GM undid “GM edits Goblin: hp 0.” (event #4).", "After the undo, Goblin: 4 HP (was 0), up again."]


def test_an_undo_names_the_event_in_words():
    """By its first public line; one with none (a declaration sealed from the table) by its command in words."""
    from fray_table.rules.commands import IN_WORDS, Command, Restore
    from fray_table.rules.undo import undo_line

    tags = {cls.__struct_config__.tag for cls in typing.get_args(Command)}
    assert set(IN_WORDS) == tags  # every command has its words
    said = Restore(undoes=7, at=9, what="declare (its details are the GM's)", undone=[7])
    assert undo_line(said) == "GM undid a declaration (its details are the GM's) (event #7)."
    rewound = Restore(undoes=5, at=9, what="advance — Round 1: declarations close.", undone=[5, 6, 7, 8], rewind=True)
    assert undo_line(rewound) == "GM rewound the fight to before “Round 1: declarations close.” (event #5)."


def test_folding_the_stream_from_scratch_gives_the_live_state():
    out = played(*ROUND, {"type": "undo", "seq": 6}, {"type": "advance"}, {"type": "undo", "seq": 4, "rewind": True})
    assert canonical(fold(out.events)) == canonical(out.state)
    assert canonical(fold(out.events)) == canonical(fold(out.events))  # folding does not change the events


def test_a_restore_can_be_recomputed_from_the_events_before_it():
    out = played(*ROUND, {"type": "declare", "actor": "gob", "action": {"type": "hold"}}, {"type": "undo", "seq": 5})
    restore = out.events[8].command
    assert plan(out.events[:8], Undo(seq=5)) == restore


@pytest.mark.parametrize(
    "seq, code",
    [(0, "undo/create"), (99, "undo/unknown-event"), (-1, "undo/unknown-event"), (7, "undo/already-undone")],
)
def test_bad_undos_are_refused_with_undo_codes(seq, code):
    out = played(*ROUND, {"type": "undo", "seq": 6}, {"type": "undo", "seq": 6})  # the second: #6 is undone
    event = Event("u", GM, Undo(seq=6 if seq == 7 else seq))
    rejected = check(out.state, event)
    assert rejected is not None and rejected.code == code, rejected
    assert out.log[-1].code == "undo/already-undone"


def test_no_undo_once_the_fight_has_ended():
    out = played(*ROUND, {"type": "end"}, {"type": "undo", "seq": 6})
    assert out.log[-1].code == "undo/ended"
    assert hp(out.state, "gob") == 1


def test_a_player_may_not_undo_nor_restore():
    out = played(*ROUND)
    player = Actor("player", "P", ("alda",))
    restore = plan(out.events, Undo(seq=6))
    for command in (Undo(seq=6), restore):
        rejected = check(out.state, Event("p", player, command))
        assert rejected is not None and rejected.code == "auth/forbidden"


def test_rewind_goes_back_to_just_before_the_event():
    out = played(*ROUND, {"type": "declare", "actor": "alda", "action": {"type": "hold"}}, {"type": "undo", "seq": 5, "rewind": True})
    before = played(ROUND[0])  # the fight just before #5
    assert game(out.state) == game(before.state)
    assert out.state.undone == [5, 6, 7]
    assert out.log[-2].text.startswith("GM rewound the fight to before ") and out.log[-2].text.endswith(" (event #5).")
    assert out.log[-1].text == "After the undo, Goblin: 4 HP (was 1)."


def test_undoing_one_event_judges_the_later_ones_again():
    # Alda's declaration undone: the round that followed resolves without her attack.
    out = played(*ROUND, {"type": "undo", "seq": 5})
    assert hp(out.state, "gob") == 4 and out.state.round == 2 and out.state.declarations == []
    assert out.state.forced == [15, 3]  # nothing rolled them


def test_undoing_an_undo_is_a_redo():
    out = played(*ROUND, {"type": "undo", "seq": 6}, {"type": "undo", "seq": 7})
    assert hp(out.state, "gob") == 1 and out.state.round == 2 and out.state.forced == []
    assert out.state.undone == [7]
    again = played(*ROUND, {"type": "undo", "seq": 6}, {"type": "undo", "seq": 7}, {"type": "undo", "seq": 8})
    assert hp(again.state, "gob") == 4 and again.state.undone == [6, 8]


def test_dice_after_an_undo_are_those_of_the_new_position():
    # No forced attack dice: the round rolls the seed's dice at its position;
    # redone after the undo, at a new position, it rolls that position's.
    out = played(*ROUND, {"type": "undo", "seq": 6}, {"type": "advance"}, dice=[5, 6])
    seed = out.state.seed
    attacks = [e for e in out.log if e.kind == "attack"]
    assert [a.rolls[0].value for a in attacks] == [draw(seed, 6, 0, 20), draw(seed, 8, 0, 20)]


def test_combatant_ids_are_never_given_twice():
    orc = {"type": "add_combatant", "combatant": {"name": "Orc", "side": "goblins"}}
    out = played(orc, orc, {"type": "undo", "seq": 4}, orc)
    assert [c.id for c in out.state.combatants] == ["alda", "gob", "c2", "c3"]
    assert out.state.next_id == 4


def test_a_stale_restore_is_rejected_and_changes_nothing():
    out = played(*ROUND)
    restore = plan(out.events, Undo(seq=6))
    state = apply(out.state, Event("h", GM, ForceRolls(values=[2])))  # came first
    before = game(state)
    state = apply(state, Event("r", GM, restore))
    assert state.recent[0].code == "undo/stale" and game(state) == before


@pytest.mark.parametrize(
    "change",
    [{"status": "ended"}, {"phase": "lunch"}, {"undone": [5]}, {"undone": [6, 6]}, {"forced": [0]}, {"next_id": 0}, {"combatants": []}, {"what": "x" * 301}],
)
def test_a_restore_of_a_bad_shape_is_rejected(change):
    out = played(*ROUND)
    restore = msgspec.structs.replace(plan(out.events, Undo(seq=6)), **change)
    before = game(out.state)
    state = apply(out.state, Event("r", GM, restore))
    assert state.recent[0].code == "undo/bad-restore", state.recent
    assert game(state) == before


def test_refold_keeps_positions():
    out = played(*ROUND)
    assert refold(out.events, {5}).seq == len(out.events)


def test_a_scenario_may_undo_but_not_restore():
    with pytest.raises(ValueError, match="restore"):
        played({"type": "restore", "undoes": 4, "at": 5, "what": "x", "undone": [4]})

"""The reducer's core promises: rejections change nothing, folds are deterministic,
views hide what they must. Numbers from 003."""

import copy

import msgspec

from fray_table.rules.events import Actor
from fray_table.rules.model import Mod
from fray_table.rules.reducer import apply, canonical, fold
from fray_table.rules.scenario import play
from fray_table.rules.view import Viewer, view

FIGHT = {
    "seed": "core",
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 9, "hp_max": 9, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
        {
            "id": "gob",
            "name": "Goblin",
            "side": "goblins",
            "ac": 13,
            "hp": 4,
            "hp_max": 4,
            "dex": 9,
            "x": 15,
            "y": 10,
            "hidden": True,
            "notes": "carries a key",
        },
    ],
}


def with_commands(*commands, dice=()):
    return play({**FIGHT, "dice": list(dice), "commands": list(commands)})


def sans_log(state) -> bytes:
    state = msgspec.structs.replace(state, recent=[], seq=0)
    return canonical(state)


def test_surprise_one_side_gets_a_free_round_at_plus_two():
    # 003: 'surprised if 1 or 2 is rolled on a 6-sided die ... attacks at +2 to-hit'
    played = with_commands(
        {"type": "start"},
        {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}},
        {"type": "advance"},
        dice=[2, 4, 10, 3],
    )
    assert played.state.round == 2 and played.state.surprised == []
    attack = next(e for e in played.log if e.kind == "attack")
    # d20 10 + 0 combat bonus + 2 surprise + descending AC 4 = 16 < 19
    assert attack.total == 16 and attack.need == 19
    assert ("surprise", 2) in [(m.name, m.value) for m in attack.mods]


def test_surprised_side_cannot_declare_in_the_free_round():
    played = with_commands({"type": "start"}, {"type": "declare", "actor": "gob", "action": {"type": "hold"}}, dice=[6, 1])
    rejected = played.log[-1]
    assert rejected.kind == "rejected" and rejected.code == "declare/cannot-act"


def test_struck_surprised_gawper_drops_held_weapon_on_two_or_less():
    # 003: 'Any gawpers so struck will drop anything held in-hand on a 2 or less on a 6 sided die.'
    played = with_commands(
        {"type": "start"},
        {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}},
        {"type": "advance"},
        dice=[5, 1, 18, 1, 2],
    )
    gob = next(c for c in played.state.combatants if c.id == "gob")
    assert gob.hp == 3 and "disarmed" in gob.conditions


def test_hit_needs_nineteen_with_descending_ac():
    # 003: d20 + combat bonus + target's AC (descending) >= 19. Alda +1 vs AC 13 asc = 6 desc: 12 + 1 + 6 = 19 hits.
    played = with_commands(
        {"type": "start"},
        {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}},
        {"type": "advance"},
        dice=[5, 5, 12, 4],
    )
    attack = next(e for e in played.log if e.kind == "attack")
    assert attack.total == 19 and "hit" in attack.text
    gob = next(c for c in played.state.combatants if c.id == "gob")
    assert gob.hp == 0 and gob.down


def test_miss_by_one():
    played = with_commands(
        {"type": "start"},
        {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}},
        {"type": "advance"},
        dice=[5, 5, 11],
    )
    attack = next(e for e in played.log if e.kind == "attack")
    assert attack.total == 18 and attack.text.endswith("miss.")


def test_rejected_command_changes_nothing_but_the_log():
    played = with_commands({"type": "start"}, dice=[5, 5])
    state = played.state
    before = sans_log(state)
    for command in (
        {"type": "declare", "actor": "nobody", "action": {"type": "hold"}},
        {"type": "declare", "actor": "alda", "action": {"type": "move", "x": 500, "y": 10}},
        {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "alda"}},
        {"type": "start"},
    ):
        events = play({**FIGHT, "dice": [5, 5], "commands": [{"type": "start"}, command]}).events
        after = fold(events)
        assert after.recent[-1].kind == "rejected", command
        assert sans_log(after) == before


def test_fold_is_deterministic_and_matches_incremental_apply():
    played = with_commands(
        {"type": "start"},
        {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}},
        {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}},
        {"type": "advance"},
        {"type": "declare", "actor": "alda", "action": {"type": "move", "x": 20, "y": 10}},
        {"type": "advance"},
    )
    again = fold(copy.deepcopy(played.events))
    assert canonical(again) == canonical(played.state)
    half = fold(played.events[:5])
    for event in played.events[5:]:
        half = apply(half, event)
    assert canonical(half) == canonical(played.state)


def test_views_hide_the_seed_notes_and_hidden_figures_from_non_gm():
    state = with_commands().state
    gm = view(state, Viewer("gm"))
    player = view(state, Viewer("player", ("alda",)))
    spectator = view(state, Viewer("spectator"))
    assert gm.seed == state.seed.hex() and gm.combatants[1].notes == "carries a key" and gm.combatants[1].hp == 4
    for v in (player, spectator):
        assert v.seed is None and v.forced is None
        assert v.combatants[1].hp is None and v.combatants[1].ac is None and v.combatants[1].notes is None
        assert v.combatants[1].condition == "unhurt"
    assert player.combatants[0].ac_shown == 4  # 003 speaks descending AC: 19 - 15


def test_view_lists_legal_actions_for_controlled_combatants_only():
    state = with_commands({"type": "start"}, dice=[5, 5]).state
    player = view(state, Viewer("player", ("alda",)))
    assert list(player.actions) == ["alda"]
    attack = next(c for c in player.actions["alda"] if c.type == "attack")
    assert attack.targets[0] == "gob" and attack.options["called_shots"] == [0, 1, 2, 3]
    assert sorted(view(state, Viewer("gm")).actions) == ["alda", "gob"]
    assert view(state, Viewer("spectator")).actions == {}


def test_sealed_declarations_hide_the_other_side():
    state = with_commands({"type": "start"}, {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}}, dice=[5, 5]).state
    player = view(state, Viewer("player", ("alda",)))
    assert [(d.actor, d.text, d.type) for d in player.declarations] == [("gob", "has declared", None)]
    assert view(state, Viewer("gm")).declarations[0].type == "attack"


def test_end_reveals_the_seed():
    state = with_commands({"type": "end"}).state
    assert state.status == "ended"
    assert view(state, Viewer("spectator")).seed == state.seed.hex()


def test_a_log_line_is_made_with_every_field_where_its_name_says():
    """Context.log makes its Entry positionally (rules.context): each field must land in its own name."""
    from fray_table.rules.context import Context
    from fray_table.rules.model import Entry

    assert [f for f in Entry.__struct_fields__] == [
        "seq", "kind", "text", "public", "actor", "target", "rolls", "mods", "total", "need", "code", "command_id", "audience", "unseen",
    ]  # fmt: skip
    state = play({"combatants": [{"id": "a", "name": "A", "side": "x"}, {"id": "b", "name": "B", "side": "y", "hidden": True}]}).state
    state.seq, state.recent = 7, []
    ctx = Context(state, Actor("gm", "gm"), "cmd-1")
    ctx.log("attack", "A hits B: 12 + 2 = 14.", "A hits B.", actor="a", target="b", total=14, need=11, audience="side:x", mods=[("bonus", 2)])
    assert state.recent == [Entry(
        seq=7, kind="attack", text="A hits B: 12 + 2 = 14.", public="A hits B.", actor="a", target="b", mods=[Mod("bonus", 2)],
        total=14, need=11, command_id="cmd-1", audience="side:x",
    )]  # fmt: skip

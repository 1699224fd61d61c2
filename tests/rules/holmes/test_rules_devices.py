"""Devices and fleeing (003): 'Wands, rods, and other magic devices are "weapons" and
not "spells"; their effects are resolved in the earlier phases'; a `flee` is a move in
the movement phase that leaves the runner 'fled', out of the fight like morale's 'Flee'."""

import msgspec
from scenes import ADVANCE, declare, fighter, started, texts

from fray_table.rules.reducer import canonical
from fray_table.rules.view import Viewer, view

ALDA = fighter("alda", "party", dex=14, x=0, y=0)
BRAN = fighter("bran", "party", dex=16, x=0, y=5)
ORC = fighter("orc", "orcs", ac=10, dex=12, x=20, y=0, move=60)


def run(*commands, dice=(), combatants=(ALDA, ORC), options=None):
    return started(combatants, *commands, dice=dice, options=options)


WAND = declare("alda", {"type": "use_device", "device": "a wand of frost", "target": "orc"})


def codes(played) -> list[str]:
    return [e.code for e in played.log if e.kind == "rejected"]


def game(state) -> bytes:
    return canonical(msgspec.structs.replace(state, recent=[], seq=0))


def combatant(played, cid: str):
    return next(c for c in played.state.combatants if c.id == cid)


def test_device_resolves_in_the_attack_phase_in_dex_order():
    # Bran (DEX 16) attacks first, then Alda's wand (DEX 14), then the orc's rod (DEX 12):
    # all in the attack phase, before the movement phase; the GM adjudicates the effects.
    played = run(
        declare("bran", {"type": "attack", "target": "orc"}),
        WAND,
        declare("orc", {"type": "use_device", "device": "a rod of smiting", "target": "bran"}),
        ADVANCE,
        dice=[2],
        combatants=(ALDA, {**BRAN, "x": 15, "y": 0}, ORC),  # Bran beside the orc
    )
    lines = texts(played, "phase", "attack", "device")
    assert lines[0] == "Attack phase."
    assert lines[1].startswith("Bran attacks Orc: d20 2")
    assert lines[2:4] == ["Alda uses a wand of frost on Orc.", "Orc uses a rod of smiting on Bran."]
    assert "Movement phase." not in lines[:4]


def test_device_goes_before_spells_and_movement():
    # A device is a weapon (attack phase), not a spell (magic phase); the faster caster still waits.
    shaman = {**ORC, "caster": True, "dex": 18}
    bran = {**BRAN, "dex": 8}
    played = run(
        declare("orc", {"type": "cast", "spell": "sleep", "target": "alda"}),
        declare("bran", {"type": "move", "x": 5, "y": 5}),
        declare("alda", {"type": "use_device", "device": "a ring"}),
        ADVANCE,
        combatants=(ALDA, bran, shaman),
    )
    assert texts(played, "phase", "device", "move", "spell") == [
        "Attack phase.",
        "Alda uses a ring.",
        "Movement phase.",
        "Bran moves to (5, 5).",
        "Magic phase.",
        "Orc casts sleep at Alda; its effects are the GM's.",
        "End phase.",
    ]


def test_a_burning_user_still_uses_the_device():
    # Only spells are lost to the flames (003: 'Burning spellcasters will lose their spells').
    # Round 1: flask 8 + 2 + 9 = 19, torch 10 + 9 = 19, burn d6 4; round 2: burn d6 3 (damage).
    oil = declare("alda", {"type": "throw_oil", "target": "orc"})
    rod = declare("orc", {"type": "use_device", "device": "a rod", "target": "alda"})
    played = run(oil, ADVANCE, rod, ADVANCE, dice=[8, 10, 4, 3])
    assert "burning" in combatant(played, "orc").conditions
    assert texts(played, "device") == ["Orc uses a rod on Alda."]
    assert texts(played, "spell") == []
    assert "Orc takes 3 damage (burning oil), 3 HP left." in texts(played, "damage")


def test_flee_resolves_in_the_movement_phase_in_dex_order():
    # Bran (DEX 16) moves, the orc (DEX 12) flees, Alda (DEX 14) moves between them;
    # the orc's attack-phase rod is long done by then.
    played = run(
        declare("alda", {"type": "move", "x": 5, "y": 0}),
        declare("bran", {"type": "move", "x": 5, "y": 5}),
        declare("orc", {"type": "flee", "x": 80, "y": 0}),
        ADVANCE,
        combatants=(ALDA, BRAN, ORC),
    )
    assert texts(played, "phase", "move") == [
        "Movement phase.",
        "Bran moves to (5, 5).",
        "Alda moves to (5, 0).",
        "Orc flees to (80, 0) and is out of the fight.",
        "End phase.",
    ]
    orc = combatant(played, "orc")
    assert (orc.x, orc.y) == (80, 0)
    assert orc.conditions == ["fled"]


def test_flee_leaves_the_combatant_fled_and_unable_to_declare():
    played = run(declare("orc", {"type": "flee", "x": 60, "y": 0}), ADVANCE, declare("orc", {"type": "hold"}), combatants=(ALDA, BRAN, ORC))
    assert codes(played) == ["declare/cannot-act"]
    assert "fled" in combatant(played, "orc").conditions
    actions = view(played.state, Viewer("gm")).actions
    assert "orc" not in actions and "alda" in actions


def test_flee_uses_the_morale_condition():
    from fray_table.rules.conditions import CANNOT_ACT
    from fray_table.rules.holmes.devices import FLED
    from fray_table.rules.holmes.morale import OUT

    assert FLED == OUT["flee"] and FLED in CANNOT_ACT


def rejected(command, code, combatants=(ALDA, ORC)):
    before = run(combatants=combatants)
    after = run(command, combatants=combatants)
    assert codes(after) == [code]
    assert game(after.state) == game(before.state)


def test_bad_device_is_rejected_and_changes_nothing():
    rejected(declare("alda", {"type": "use_device", "device": "  "}), "use_device/bad-device")
    rejected(declare("alda", {"type": "use_device", "device": "w" * 61}), "use_device/bad-device")
    rejected(declare("alda", {"type": "use_device", "device": "a wand", "target": "troll"}), "use_device/unknown-target")


def test_bad_flee_is_rejected_as_a_bad_move_and_changes_nothing():
    rejected(declare("orc", {"type": "flee", "x": 23, "y": 0}), "declare/off-grid")
    rejected(declare("orc", {"type": "flee", "x": -5, "y": 0}), "declare/off-grid")
    rejected(declare("orc", {"type": "flee", "x": 100, "y": 0}), "declare/too-far")  # 80 ft; it moves 60


def test_device_and_flee_take_no_delay():
    # Like `cast`: no `delay` field, so none is offered (a device is used when weapons are).
    from fray_table.rules.holmes.actions import delay_options

    assert delay_options("use_device") == () and delay_options("flee") == ()


def test_view_offers_both_to_everyone_who_may_act():
    played = run(combatants=(ALDA, BRAN, ORC))
    actions = view(played.state, Viewer("gm")).actions
    for cid in ("alda", "bran", "orc"):
        listed = {ch.type: ch for ch in actions[cid]}
        assert listed["use_device"].options == {"device": []}
        assert listed["use_device"].targets[0] == ""
        assert set(listed["use_device"].targets[1:]) == {"alda", "bran", "orc"} - {cid}
        assert listed["flee"].options == {"max_feet": [combatant(played, cid).move]}
        assert listed["flee"].targets == []


def test_describe_in_declarations():
    played = run(WAND, declare("orc", {"type": "flee", "x": 60, "y": 0}))
    assert texts(played, "declare") == [
        "Alda declares: use a wand of frost on Orc.",
        "Orc declares: flee to (60, 0).",
    ]


def test_devices_fight_folds_to_the_same_bytes_twice():
    from fray_table.rules.reducer import fold

    played = run(WAND, declare("orc", {"type": "flee", "x": 60, "y": 0}), ADVANCE)
    assert canonical(fold(played.events)) == canonical(played.state)

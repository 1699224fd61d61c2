"""Every action is one record (rules.ruleset.ActionRules) held by one profile's module:
declarations, the step queue and the view reach 003's actions only through them."""

from typing import get_args

from fray_table.rules.actions import Action, Attack, House, Parry, TwoWeapons
from fray_table.rules.model import Encounter
from fray_table.rules.ruleset import compose, installed, owner_of_action
from fray_table.rules.setup import _weapons_named


def test_every_action_of_the_wire_vocabulary_has_one_record_in_one_profile():
    tags = [t.__struct_config__.tag for t in get_args(Action) if t is not House]
    owners = {tag: [p.name for p in installed().values() for m in p.modules if tag in m.actions] for tag in tags}
    assert all(len(found) == 1 for found in owners.values()), owners
    holmes = compose("holmes-phases").actions
    assert [tag for tag in tags if owner_of_action(tag) == "holmes-phases"] == [t for t in tags if t in holmes]
    # 003's: the view lists their choices in this order (the order the records are held in)
    assert list(holmes) == [
        "attack", "move", "hold", "charge", "approach", "set_spear", "parry", "kill", "stand", "recover",
        "shoot", "throw_oil", "throw_torch", "grapple", "stop_drop_roll", "cast", "use_device", "flee",
    ]  # fmt: skip


def test_each_record_names_the_phase_003_resolves_it_in():
    actions = compose("ll-house").actions
    # 003: 'Both approaches are made in the Movement Phase'; the set 'will occur in the Attack phase';
    # 'This is a Movement Phase action' (stop, drop and roll); spells in the magic phase; a parry is a stance.
    phases = {kind: actions[kind].phase for kind in ("attack", "move", "charge", "set_spear", "stop_drop_roll", "cast", "parry", "hold", "shield_bash")}
    assert phases == {
        "attack": "attack",
        "move": "movement",
        "charge": "movement",
        "set_spear": "attack",
        "stop_drop_roll": "movement",
        "cast": "magic",
        "parry": None,
        "hold": None,
        "shield_bash": "attack",
    }


def test_the_weapons_an_action_names_come_from_its_record():
    state = Encounter(id="e", profile="ll-house", options={}, seed=b"s", seed_hash="h", rules_version=5)
    assert _weapons_named(state, TwoWeapons(target="orc", weapon=0, off_hand=2)) == [0, 2]  # 000's off hand too
    assert _weapons_named(state, Attack(target="orc", weapon=1)) == [1]
    assert _weapons_named(state, Parry()) == []  # not given: the only weapon carried

"""A Foundry VTT OSE actor (tests/campaign/foundry_ose_actor.json, written from the `ose` system's
data models: actor `system` with details, scores, hp, ac/aac, thac0, movement; items of
type weapon, armor and item) becomes a campaign character; what does not map is listed."""

import json
import pathlib

import msgspec
import pytest
from campaign_support import begin, char, event

from fray_table.rules.campaign.foundry import from_actor
from fray_table.rules.campaign.reducer import apply

ACTOR = json.loads((pathlib.Path(__file__).parent / "foundry_ose_actor.json").read_text())


def test_an_ose_actor_maps_to_a_character_and_says_what_it_left_out():
    character, left = from_actor(ACTOR, owner="Hal")
    s = character.sheet
    assert (s.name, s.klass, s.level, s.hp, s.hp_max) == ("Hilda the Bold", "fighter", 3, 14, 19)
    assert (s.ac, s.attack_bonus, s.dex, s.int_, s.con, s.move) == (16, 2, 13, 9, 14, 90)  # aac 16; bba +2 (THAC0 17)
    assert (s.armor, s.shield) == ("chain mail", True)
    assert [(w.name, w.damage, w.range, w.missile) for w in s.weapons] == [("sword", "1d8", 0, ""), ("short bow", "1d6", 150, "bow")]
    assert character.abilities == {"str": 16, "wis": 11, "cha": 8}
    g = character.gear
    assert (g.oil, g.torches, g.arrows, g.armor_cost, g.shield_cost) == (3, 6, 20, 40, 10)
    assert left == ["system.encumbrance", "system.languages", "system.saves", 'item "Rope, 50\'"', "ability 'Combat Talent'"]
    state = apply(begin(), event({"type": "add_character", "character": msgspec.to_builtins(character)}))
    assert state.recent[0].kind != "rejected", state.recent[0].text
    assert char(state, "pc1").sheet.name == "Hilda the Bold"


def test_an_older_actor_with_descending_ac_and_an_unknown_class():
    old = {
        "name": "Brother Ansel",
        "data": {"details": {"class": "Friar", "level": 2}, "ac": {"value": 5}, "thac0": {"value": 19}, "hp": {"value": 6, "max": 6}},
    }
    character, left = from_actor(old)
    assert (character.sheet.ac, character.sheet.attack_bonus, character.sheet.klass) == (14, 0, "fighter")  # 19 - 5
    assert any("Friar" in x for x in left)
    with pytest.raises(ValueError, match="name"):
        from_actor({"system": {}})


def test_fray_schema_campaign_prints_the_character_file_schema():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "fray_table.server.cli", "schema", "--campaign"], capture_output=True, text=True, timeout=60, check=True)
    schema = json.loads(out.stdout)
    assert set(schema["properties"]) == {"command", "character", "finding"}
    character = schema["$defs"]["Character"]
    assert {"sheet", "gear", "lasting", "story", "abilities"} <= set(character["properties"]) and character["required"] == ["sheet"]
    assert {"oil", "torches", "arrows", "coin", "armor_cost", "shield_cost"} == set(schema["$defs"]["Gear"]["properties"])

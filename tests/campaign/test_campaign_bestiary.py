"""The bestiary a campaign starts with: the GM console's ready monsters (rules/ready.py,
served by GET /api/profiles, so no page keeps a copy) and the monsters of the docs'
scenarios, by kind, each with a morale score shown on the GM's view."""

import re
import tomllib

import httpx
from campaign_support import GM, begin
from support import ROOT, TIMEOUT, token_of

from fray_table.rules.campaign.bestiary import monsters
from fray_table.rules.campaign.events import CampaignEvent
from fray_table.rules.campaign.reducer import apply
from fray_table.rules.ready import READY, combatant
from fray_table.server.campaigns import seeded

KIND_OF_SIDE = {"goblins": "Goblin", "orcs": "Orc"}  # Gob, and Grul, Snag, Ukk and Mog of the orcs


def scenario_monsters() -> dict[str, dict]:
    """Each docs scenario's monsters by kind: 'Gnoll 1' is a Gnoll, Grul of the orcs an Orc."""
    out = {}
    for path in sorted((ROOT / "docs" / "scenarios").glob("*.toml")):
        for c in tomllib.loads(path.read_text())["combatants"]:
            if c["side"] == "party" or c.get("vessel") or c.get("klass") == "normal":
                continue  # a ship and a pirate (a normal man) are no monsters
            out.setdefault(KIND_OF_SIDE.get(c["side"], re.sub(r"[ 0-9]+$", "", c["name"])), c)
    return out


def test_the_seed_holds_the_consoles_monsters_and_the_scenarios_kinds():
    names = [m.monster.name for m in seeded()]
    assert names == [m.name for m in READY]
    assert set(scenario_monsters()) == {"Goblin", "Gnoll", "Orc", "Ogre", "Sea serpent"} <= set(names)
    ogre, serpent = (next(m for m in seeded() if m.monster.name == n) for n in ("Ogre", "Sea serpent"))
    # 002's scenario (docs/scenarios/thac0-sheet.toml): the ogre HD 4, AC 14, 20 HP, size L; the serpent's coils 4d6
    assert (ogre.monster.hd, ogre.monster.ac, ogre.monster.hp, ogre.monster.size, ogre.morale) == (4, 14, 20, "L", 10)
    assert (serpent.monster.hd, [(w.name, w.damage) for w in serpent.monster.weapons], serpent.morale) == (8, [("coils", "4d6")], 8)
    goblin = combatant(READY[0])
    assert (goblin.name, goblin.hd, goblin.ac, goblin.hp, goblin.armor, goblin.shield, goblin.attack_bonus) == ("Goblin", 1, 13, 4, "leather", True, None)


def test_the_console_reads_the_same_monsters_from_the_rules(fray_server):
    profiles = httpx.get(f"{fray_server.url}/api/profiles", timeout=TIMEOUT).json()
    ready = profiles["ll-house"]["ready"]
    assert ready == profiles["holmes-phases"]["ready"]
    assert [(b["key"], b["name"], b["hd"], b["morale"]) for b in ready["bestiary"]][:2] == [("goblin", "Goblin", 1, 7), ("kobold", "Kobold", 1, 6)]
    assert ready["armor"][5] == ["chain mail", 15] and ready["weapons"]["sword"]["damage"] == "1d8"
    data_js = (ROOT / "client_web" / "data.js").read_text()
    assert "Gnoll" not in data_js and "chain mail" not in data_js  # defined once, in rules/ready.py


def test_a_new_campaign_starts_with_the_seed_and_shows_each_morale(fray_server):
    made = httpx.post(f"{fray_server.url}/api/campaigns", json={"name": "Seeded"}, timeout=TIMEOUT).json()
    gm = made["links"]["gm"]
    seen = httpx.get(f"{fray_server.url}/api/campaigns/{made['id']}", params={"token": token_of(gm)}, timeout=TIMEOUT).json()
    rows = {m["name"]: (m["hd"], m["ac"], m["hp"], m["size"], m["morale"]) for m in seen["bestiary"]}
    assert len(rows) == len(READY) == 12
    assert (rows["Goblin"], rows["Gnoll"], rows["Ogre"], rows["Skeleton"]) == (
        (1, 13, 4, "S", 7),
        (2, 14, 10, "L", 8),
        (4, 14, 20, "L", 10),
        (1, 11, 4, "M", 12),
    )


def test_a_fight_takes_copies_without_the_morale_score():
    state = begin()
    for m in seeded():
        state = apply(state, CampaignEvent(m.monster.name, GM, m))
    drawn = monsters(state, {"Ogre": 2})
    assert [(m.name, m.hidden, m.morale) for m in drawn] == [("Ogre 1", True, ""), ("Ogre 2", True, "")]  # a fight's morale result: none yet

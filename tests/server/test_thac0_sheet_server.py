"""The thac0-sheet profile through a real `fray serve`: listed by GET /api/profiles
with its options, chosen per encounter by POST /api/encounters, bad options refused."""

import httpx
from support import TIMEOUT, token_of


def test_thac0_sheet_is_listed_with_its_options(fray_server):
    profiles = httpx.get(f"{fray_server.url}/api/profiles", timeout=TIMEOUT).json()
    sheet = profiles["thac0-sheet"]
    assert sheet["document"] == "002_b7d3390b1b702b95.txt" and sheet["ac_style"] == "descending"
    options = {o["name"]: o for o in sheet["options"]}
    assert options["wrestle_helpers"]["choices"] == ["defender", "half-hd"]
    assert options["pin_penalty"]["default"] == 3 and "weapon_damage" in options


def test_thac0_sheet_encounter_is_created_with_options_and_a_vessel(fray_server):
    made = fray_server.create(
        {
            "profile": "thac0-sheet",
            "options": {"h_floor": True, "rounds_per_turn": 6},
            "combatants": [
                {"id": "alda", "name": "Alda", "side": "party", "klass": "fighter", "level": 4, "str_adj": 1, "hp": 9, "hp_max": 9},
                {"id": "cog", "name": "Cog", "side": "pirates", "vessel": True, "hp": 30, "hp_max": 30, "crew": 6, "rowers": 20, "rowers_max": 20},
            ],
        }
    )
    view = httpx.get(f"{fray_server.url}/api/encounters/{made['id']}/replay", params={"token": token_of(made["links"]["gm"])}, timeout=TIMEOUT).json()["view"]
    assert view["profile"] == "thac0-sheet"
    assert view["options"]["h_floor"] is True and view["options"]["rounds_per_turn"] == 6 and view["options"]["mods_before_steps"] is False
    assert {c["id"] for c in view["combatants"]} == {"alda", "cog"}


def test_thac0_sheet_bad_option_is_refused_by_name(fray_server):
    response = httpx.post(f"{fray_server.url}/api/encounters", json={"profile": "thac0-sheet", "options": {"pin_penalty": 1}}, timeout=TIMEOUT)
    assert response.status_code == 400
    assert "pin_penalty" in response.text

"""Building campaign events for the tests: a campaign of the ll-house rules (000)."""

import itertools

import msgspec

from fray_table.rules import RULES_VERSION
from fray_table.rules.campaign import commands
from fray_table.rules.campaign.events import CampaignEvent
from fray_table.rules.campaign.reducer import apply
from fray_table.rules.campaign.state import Campaign
from fray_table.rules.events import Actor

GM = Actor("gm", "GM")
SYSTEM = Actor("system", "server")
_ids = itertools.count()

ALDA = {
    "id": "alda",
    "owner": "Ann",
    "sheet": {
        "name": "Alda",
        "side": "party",
        "klass": "fighter",
        "level": 3,
        "hp": 12,
        "hp_max": 12,
        "dex": 13,
        "int": 12,
        "armor": "chain mail",
        "shield": True,
        "weapons": [{"name": "sword", "damage": "1d8"}],
    },
    "abilities": {"cha": 11},
    "gear": {"oil": 3, "torches": 2, "arrows": 20, "coin": 100, "armor_cost": 70, "shield_cost": 10},
}
BORS = {"id": "bors", "owner": "Ben", "sheet": {"name": "Bors", "side": "party", "klass": "cleric", "level": 1, "hp": 7, "hp_max": 7}}


def player(*characters: str) -> Actor:
    return Actor("player", "P", tuple(characters))


def command(data: dict):
    return msgspec.convert(data, commands.Command)


def event(data: dict, by: Actor = GM) -> CampaignEvent:
    return CampaignEvent(f"c{next(_ids)}", by, command(data))


def begin(*characters: dict) -> Campaign:
    state = apply(None, CampaignEvent("create", SYSTEM, commands.CreateCampaign("campaign-t", "The Keep", "ll-house", RULES_VERSION)))
    for c in characters:
        state = apply(state, event({"type": "add_character", "character": c}))
        assert state.recent[0].kind != "rejected", state.recent[0].text
    return state


def run(state: Campaign, *commands_: dict, by: Actor = GM) -> Campaign:
    for data in commands_:
        state = apply(state, event(data, by))
    return state


def char(state: Campaign, id: str):
    return next(c for c in state.characters if c.id == id)


def finding(kind: str, character: str = "alda", fight: str = "f1", event: int = 5, **more) -> dict:
    return {"fight": fight, "event": event, "character": character, "kind": kind, **more}


def reported(state: Campaign, *found: dict, fight: str = "f1", characters=("alda",)) -> Campaign:
    """The fight started from the campaign and its findings reported (as the server writes them)."""
    state = run(state, {"type": "start_fight", "fight": fight, "characters": list(characters)}, by=SYSTEM)
    return run(state, {"type": "report_fight", "fight": fight, "findings": list(found)}, by=SYSTEM)


def accept_all(state: Campaign) -> Campaign:
    for f in list(state.findings):
        state = run(state, {"type": "review", "finding": f.id, "accept": True})
        assert state.recent[0].kind != "rejected", state.recent[0].text
    return state

"""The roster: creating the campaign, adding and editing characters, and the fights made from it."""

import msgspec
from msgspec import UNSET

from ..errors import Rejected
from ..events import Actor
from ..ruleset import installed
from .commands import AddCharacter, CreateCampaign, EditCharacter, EditOwn, StartFight
from .sheet import Character, check_character
from .state import Campaign, FightRecord

MAX_CHARACTERS = 200


def create(cmd: CreateCampaign) -> Campaign:
    if cmd.profile not in installed():
        raise RuntimeError(f"the campaign's profile {cmd.profile!r} is not installed")
    return Campaign(id=cmd.id, name=cmd.name, profile=cmd.profile, rules_version=cmd.rules_version)


def character(state: Campaign, id: str) -> Character:
    c = next((c for c in state.characters if c.id == id), None)
    if c is None:
        raise Rejected("campaign/no-such-character", f"there is no character {id!r}")
    return c


def own(state: Campaign, by: Actor, id: str, alive: bool = True) -> Character:
    """The character a command names, if its sender may act for it (a player: their own)."""
    c = character(state, id)
    if by.role == "player" and id not in by.combatants:
        raise Rejected("campaign/not-your-character", f"{c.sheet.name} is not one of your characters")
    if alive and c.dead:
        raise Rejected("campaign/dead", f"{c.sheet.name} is dead")
    return c


def checked(state: Campaign, c: Character) -> Character:
    check_character(c, state.profile, state.rules_version, "campaign/bad-character")
    return c


def add(state: Campaign, cmd: AddCharacter, say) -> None:
    if len(state.characters) >= MAX_CHARACTERS:
        raise Rejected("campaign/full", f"a campaign holds at most {MAX_CHARACTERS} characters")
    new = cmd.character
    if not new.id:
        new = msgspec.structs.replace(new, id=f"pc{state.next_id}")
        state.next_id += 1
    elif any(c.id == new.id for c in state.characters):
        raise Rejected("campaign/duplicate-id", f"there is already a character {new.id!r}")
    new = checked(state, msgspec.structs.replace(new, sheet=msgspec.structs.replace(new.sheet, id=new.id)))
    state.characters = [*state.characters, new]
    say(f"{new.sheet.name} joins the campaign{f' (played by {new.owner})' if new.owner else ''}.", new.id)


def replace(state: Campaign, new: Character) -> None:
    state.characters = [new if c.id == new.id else c for c in state.characters]


def edit(state: Campaign, cmd: EditCharacter, say) -> None:
    c = character(state, cmd.id)
    changes = {name: getattr(cmd, name) for name in ("sheet", "owner", "abilities", "gear") if getattr(cmd, name) is not UNSET}
    if not changes:
        raise Rejected("campaign/nothing-to-edit", "the edit changes nothing")
    if "sheet" in changes:
        changes["sheet"] = msgspec.structs.replace(changes["sheet"], id=c.id)
    replace(state, checked(state, msgspec.structs.replace(c, **changes)))
    say(f"The GM edits {c.sheet.name}: {', '.join(sorted(changes))}.", c.id)


def edit_own(state: Campaign, cmd: EditOwn, by: Actor, say) -> None:
    c = own(state, by, cmd.id, alive=False)
    if cmd.name is UNSET and cmd.notes is UNSET:
        raise Rejected("campaign/nothing-to-edit", "the edit changes nothing")
    new = c
    if cmd.name is not UNSET:
        new = msgspec.structs.replace(new, sheet=msgspec.structs.replace(new.sheet, name=cmd.name))
    if cmd.notes is not UNSET:
        new = msgspec.structs.replace(new, notes=cmd.notes)
    replace(state, checked(state, new))
    say(f"{new.sheet.name}'s {'name' if cmd.notes is UNSET else 'notes'} updated.", c.id)


def start_fight(state: Campaign, cmd: StartFight, say) -> None:
    if any(f.fight == cmd.fight for f in state.fights):
        raise Rejected("campaign/fight-known", f"fight {cmd.fight!r} is already the campaign's")
    if not cmd.characters or len(set(cmd.characters)) != len(cmd.characters):
        raise Rejected("campaign/bad-fight", "a fight takes one or more characters, each once")
    names = [character(state, id) for id in cmd.characters]
    dead = [c.sheet.name for c in names if c.dead]
    if dead:
        raise Rejected("campaign/dead", f"{', '.join(dead)} cannot fight: dead")
    down = [f"{c.sheet.name} ({c.sheet.hp} HP)" for c in names if c.sheet.hp <= 0]
    if down:
        raise Rejected("campaign/down", f"{', '.join(down)} cannot fight at 0 HP or less: heal first")
    state.fights = [*state.fights, FightRecord(cmd.fight, tuple(cmd.characters), state.day)]
    say(f"Fight {cmd.fight} begins on day {state.day} with {', '.join(c.sheet.name for c in names)}.")


def fight_sheets(state: Campaign, ids: list[str]) -> list:
    """Copies of the characters' sheets as a fight takes them at its start: each a player
    character, its lasting conditions on its card (000's concussion, 001's wounds: the fight's rules read them)."""
    out = []
    for id in ids:
        c = character(state, id)
        conditions = [*c.sheet.conditions, *(x.name for x in c.lasting if x.name not in c.sheet.conditions)]
        out.append(msgspec.structs.replace(c.sheet, id=c.id, pc=True, conditions=conditions))
    return out

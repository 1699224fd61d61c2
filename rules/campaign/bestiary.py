"""The campaign's bestiary: monsters as data (name, Hit Dice, AC, HP, weapons and their
damage, size, morale figures...), each a combatant template in the fight's own shape, so
its figures are declared once and checked as a fight checks them. A monster's attack
bonus left unset is read off 002's hit table by its Hit Dice, as in any fight. The GM
sets (adds or replaces by name) and removes them; a fight takes numbered copies."""

import msgspec

from ..errors import Rejected
from ..model import Combatant
from .commands import RemoveMonster, SetMonster
from .sheet import check_sheet
from .state import Campaign, Monster

MAX_MONSTERS = 200
MORALE = (2, 12)  # Labyrinth Lord's morale scores (0: not given)
SIDE = "monsters"  # the side a fight's monsters from the bestiary take


def set_monster(state: Campaign, cmd: SetMonster, say) -> None:
    m = msgspec.structs.replace(cmd.monster, id="", x=0, y=0, name=cmd.monster.name.strip())
    check_sheet(m, state.profile, state.rules_version, "campaign/bad-monster")
    if cmd.morale and not MORALE[0] <= cmd.morale <= MORALE[1]:
        raise Rejected("campaign/bad-monster", f"a morale score is {MORALE[0]} to {MORALE[1]}, not {cmd.morale}")
    known = any(x.sheet.name == m.name for x in state.bestiary)
    if not known and len(state.bestiary) >= MAX_MONSTERS:
        raise Rejected("campaign/full", f"a bestiary holds at most {MAX_MONSTERS} monsters")
    record = Monster(sheet=m, morale=cmd.morale)
    state.bestiary = [record if x.sheet.name == m.name else x for x in state.bestiary] if known else [*state.bestiary, record]
    said = f"HD {m.hd}{f'+{m.hd_plus}' if m.hd_plus else ''}, AC {m.ac}, {m.hp} HP{f', morale {cmd.morale}' if cmd.morale else ''}"
    say(f"The bestiary {'updates' if known else 'gains'} {m.name} ({said}).", audience="gm")


def remove_monster(state: Campaign, cmd: RemoveMonster, say) -> None:
    if not any(x.sheet.name == cmd.name for x in state.bestiary):
        raise Rejected("campaign/no-such-monster", f"the bestiary has no {cmd.name!r}")
    state.bestiary = [x for x in state.bestiary if x.sheet.name != cmd.name]
    say(f"{cmd.name} leaves the bestiary.", audience="gm")


def monsters(state: Campaign, wanted: dict[str, int]) -> list[Combatant]:
    """Numbered copies of bestiary monsters for a fight ('Goblin 1', 'Goblin 2'), hidden
    from the players; ValueError naming one the bestiary lacks."""
    out = []
    for name, count in wanted.items():
        m = next((x.sheet for x in state.bestiary if x.sheet.name == name), None)
        if m is None:
            raise ValueError(f"the bestiary has no {name!r}")
        if not 0 <= count <= 50:
            raise ValueError(f"{count} {name}: a fight takes 0 to 50 of each")
        out += [msgspec.structs.replace(m, name=f"{name} {i}" if count > 1 else name, side=SIDE, hidden=True) for i in range(1, count + 1)]
    return out

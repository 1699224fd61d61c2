"""Commands: what people ask for. They are what the stream holds (DESIGN: 'Why the
stream holds commands'); outcomes are derived by the reducer.

Each command names the roles that may send it (`roles`); the server checks it
before appending and the reducer checks it again when folding.
"""

from typing import ClassVar

import msgspec
from msgspec import UNSET, Struct, UnsetType

from fray_table.rules.actions import Action
from fray_table.rules.model import Awaiting, Combatant, Declaration, Step, Weapon

GM = frozenset({"gm"})
TABLE = frozenset({"gm", "player"})
SYSTEM = frozenset({"system"})


class CommandBase(Struct, tag_field="type", forbid_unknown_fields=True, frozen=True):
    roles: ClassVar[frozenset[str]] = GM


class CreateEncounter(CommandBase, tag="create"):
    """Always the first event: pins the profile, options, rules version and seed."""

    roles: ClassVar[frozenset[str]] = SYSTEM
    id: str
    profile: str
    seed: bytes
    rules_version: int
    options: dict[str, int | bool | str] = {}
    modules: dict[str, str] = {}  # module -> the profile it is taken from (rules.ruleset.compose)


class AddCombatant(CommandBase, tag="add_combatant"):
    combatant: Combatant  # an empty id gets a fresh one ('c1', 'c2', ...)


class EditCombatant(CommandBase, tag="edit_combatant"):
    id: str
    name: str | UnsetType = UNSET
    side: str | UnsetType = UNSET
    ac: int | UnsetType = UNSET
    hp: int | UnsetType = UNSET
    hp_max: int | UnsetType = UNSET
    attack_bonus: int | None | UnsetType = UNSET  # None: derive from klass/level/hd (002)
    klass: str | UnsetType = UNSET
    level: int | UnsetType = UNSET
    hd: int | UnsetType = UNSET
    hd_plus: int | UnsetType = UNSET
    rank: str | UnsetType = UNSET
    human: bool | UnsetType = UNSET
    helmet: bool | UnsetType = UNSET
    shield: bool | UnsetType = UNSET
    weapons: list[Weapon] | UnsetType = UNSET
    dex: int | UnsetType = UNSET
    int_: int | UnsetType = msgspec.field(default=UNSET, name="int")
    x: int | UnsetType = UNSET
    y: int | UnsetType = UNSET
    move: int | UnsetType = UNSET
    hidden: bool | UnsetType = UNSET
    notes: str | UnsetType = UNSET
    down: bool | UnsetType = UNSET
    conditions: list[str] | UnsetType = UNSET
    # 003: oil, subdual, grappling, morale
    size: str | UnsetType = UNSET
    pc: bool | UnsetType = UNSET
    mindless: bool | UnsetType = UNSET
    loyalty: int | UnsetType = UNSET
    leader: bool | UnsetType = UNSET
    caster: bool | UnsetType = UNSET
    subdual: int | UnsetType = UNSET
    morale: str | UnsetType = UNSET
    man_type: bool | UnsetType = UNSET  # 003: only man-types grapple (option grapple_man_types)
    # 000 (ll-house): armor damage, improved combat options, dying
    armor: str | UnsetType = UNSET
    armor_damage: int | UnsetType = UNSET
    improvements: dict[str, int] | UnsetType = UNSET
    expertise: dict[str, int] | UnsetType = UNSET
    con_bonus: int | UnsetType = UNSET
    until: dict[str, int] | UnsetType = UNSET
    # 002: thac0-sheet figures (rules.thac0sheet)
    str_adj: int | UnsetType = UNSET
    dex_adj: int | UnsetType = UNSET
    con: int | UnsetType = UNSET
    basic_ac: int | UnsetType = UNSET
    save_death: int | UnsetType = UNSET
    vessel: bool | UnsetType = UNSET
    rowers: int | UnsetType = UNSET
    rowers_max: int | UnsetType = UNSET
    crew: int | UnsetType = UNSET
    lashed_to: str | UnsetType = UNSET
    aboard: str | UnsetType = UNSET
    hold: str | UnsetType = UNSET  # the GM parts wrestlers: hold "" and held_by ""
    held_by: str | UnsetType = UNSET
    out_until: int | UnsetType = UNSET
    repaired: int | UnsetType = UNSET
    repair_work: int | UnsetType = UNSET


class RemoveCombatant(CommandBase, tag="remove_combatant"):
    id: str


class Start(CommandBase, tag="start"):
    """Roll surprise (003) and open the first round's declarations."""


class Declare(CommandBase, tag="declare"):
    roles: ClassVar[frozenset[str]] = TABLE
    actor: str
    action: Action


class Advance(CommandBase, tag="advance"):
    """Close declarations and resolve the round's phases in Dexterity order."""


class ForceRolls(CommandBase, tag="force_rolls"):
    """Queue die results; each is used by the next die rolled (if it fits that die)."""

    values: list[int]


class Answer(CommandBase, tag="answer"):
    roles: ClassVar[frozenset[str]] = TABLE
    awaiting: str
    choice: str


class CallMorale(CommandBase, tag="call_morale"):
    """003: roll morale now for one combatant or a whole side (2d6 + modifier + loyalty).

    Name `combatant` or `side`. During declarations the result governs the round
    being declared; at any other time, the next round.
    """

    combatant: str = ""
    side: str = ""
    modifier: int = 0


class End(CommandBase, tag="end"):
    """End the fight and reveal the seed."""


class Undo(CommandBase, tag="undo"):
    """Undo event `seq` (the `seq` of its log lines) as if it had never happened;
    with `rewind`, go back to just before it (it and every later event undone).
    Never stored: the server appends the `restore` it computes (rules/undo.py)."""

    seq: int
    rewind: bool = False


class Restore(CommandBase, tag="restore"):
    """The compensating event of a GM's `undo`, made by the server and stored under
    the GM's actor; no client may send it. It carries the value of every state
    field the undo changes, applied as is: a replay never recomputes an undo."""

    roles: ClassVar[frozenset[str]] = SYSTEM
    undoes: int  # the event the GM undid
    at: int  # the position it was computed for; folded at any other it is stale
    what: str  # the undone event in words, for the log
    undone: list[int]  # every undone position from now on (state.undone)
    rewind: bool = False
    status: str | UnsetType = UNSET
    round: int | UnsetType = UNSET
    phase: str | UnsetType = UNSET
    combatants: list[Combatant] | UnsetType = UNSET
    declarations: list[Declaration] | UnsetType = UNSET
    surprised: list[str] | UnsetType = UNSET
    steps: list[Step] | UnsetType = UNSET
    awaiting: Awaiting | None | UnsetType = UNSET
    forced: list[int] | UnsetType = UNSET
    entered: list[int] | UnsetType = UNSET  # dice entered for a step waiting on the table (physical_dice)
    morale_triggers: list[str] | UnsetType = UNSET
    next_id: int | UnsetType = UNSET


Command = (
    CreateEncounter
    | AddCombatant
    | EditCombatant
    | RemoveCombatant
    | Start
    | Declare
    | Advance
    | ForceRolls
    | Answer
    | CallMorale
    | End
    | Undo
    | Restore
)

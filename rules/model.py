"""Encounter state: plain msgspec Structs, nouns, encoded to canonical bytes.

Armor Class is held ascending inside Fray (000's convention); profiles that
speak descending AC convert at their edge: descending = 19 - ascending.
Positions are in feet on a 5-ft grid.

Every Struct of the state, the events and the commands is `gc=False`: each holds
data only, never a reference back to what holds it, so no reference cycle can pass
through one, and the garbage collector need not track the thousands a fold makes
(msgspec's Struct option `gc`; the lists and dicts inside them are still tracked).
"""

import msgspec
from msgspec import Struct, field

from .actions import ACT, Action  # noqa: F401  (ACT: a declared action's step, rules.actions)


def descending(ac: int) -> int:
    """An ascending AC (Combatant.ac) as the descending one 003's and 002's sheets show (AC 9 unarmoured)."""
    return 19 - ac


class Roll(Struct, gc=False, frozen=True, omit_defaults=True):
    sides: int
    value: int
    purpose: str
    forced: bool = False
    entered: bool = False  # rolled at the table and entered by a person
    draw: int | None = None  # a seeded die's index among its event's draws (docs/dice.md): a check needs no other line


class Mod(Struct, gc=False, frozen=True, omit_defaults=True):
    """One named term of a sum shown in the log: ('combat bonus', 1)."""

    name: str
    value: int


# Log kinds the end-of-fight summary reads (rules.summary): a line of damage (its total is the
# points, which its public text states too), a fall (its target is who fell), and a rise: a
# fallen combatant standing again after an undo (rules.undo.tell_changes).
DAMAGE = "damage"
DOWN = "down"
UP = "up"


class Entry(Struct, gc=False, omit_defaults=True):
    """One line of the derived combat log."""

    seq: int  # position of the event that produced it (0 = first event)
    kind: str  # 'attack', 'damage', 'surprise', 'rejected', 'phase', ...
    text: str
    # The text for viewers who may not see this line's figures: set where the line is
    # made, when it names a combatant hidden at that moment (rules.context.Context.log);
    # None when everyone who may read the line reads `text`. Never sent.
    public: str | None = None
    actor: str | None = None
    target: str | None = None
    rolls: list[Roll] = []
    mods: list[Mod] = []
    total: int | None = None
    need: int | None = None
    code: str | None = None  # namespaced rejection code, e.g. 'declare/not-your-combatant'
    command_id: str | None = None
    # Who may read it, fixed where it is made: 'all', 'gm', 'side:<name>', or
    # 'player:<ids>' (a command's sender: the player holding exactly those combatants).
    audience: str = "all"
    # The unseen combatants (actor, target) a line with a public text names: the table
    # reads it without their ids, the dice without their purposes (rules.unseen). Never sent.
    unseen: list[str] = []


class Weapon(Struct, gc=False, frozen=True):
    name: str = "sword"
    damage: str = "1d6"
    bonus: int = 0  # magical pluses, weapon-vs-armour adjustments
    length: int = 3  # feet; longer strikes first in mutual melee (003)
    weight: int = 3  # relative heft; heavier disarms a parrier, lighter counters (003)
    reach: int = 5  # feet
    range: int = 0  # feet; 0 = melee only
    material: str = "steel"  # keys the crushing-blow save (rules/charts/weapon_saves.py)
    polearm: bool = False  # a spear or polearm: may be set against a charge (003)
    broken: bool = False  # failed its save after a natural 20 (003)
    dropped: bool = False  # lost to a parry (003: 'the defender is disarmed')
    missile: str = ""  # ranged kind (003): 'bow' | 'dagger' (thrown) | 'thrown' | '' (crossbow, sling...)
    hands: int = 1  # 2: a two-handed weapon (000: two-weapon fighting takes one-handed weapons)


class Combatant(Struct, gc=False, kw_only=True):
    id: str = ""  # empty when added: the reducer gives one
    name: str
    side: str
    ac: int = 10  # ascending
    hp: int = 4
    hp_max: int = 4
    attack_bonus: int | None = None  # None: 19 - THAC0 from 002's hit table (klass, level, hd)
    klass: str = "monster"  # fighter|cleric|thief|magic-user|dwarf|elf|halfling|monster|normal
    level: int = 1  # class level (characters)
    hd: int = 1  # Hit Dice (monsters); 'up to 1' reads THAC0 19, combat bonus 0
    hd_plus: int = 0  # the +N of 'HD 4+1'
    rank: str = ""  # a demi-human's attack rank, 'A'..'M' (002's D-H column)
    human: bool = False  # 003: called shots at -3 against a human without a helmet
    helmet: bool = False
    shield: bool = False  # 1 point of `ac` is a shield (000: shield +1); ignored from behind (003)
    weapons: list[Weapon] = field(default_factory=lambda: [Weapon()])
    dex: int = 10
    int_: int = msgspec.field(default=10, name="int")
    x: int = 0
    y: int = 0
    move: int = 120  # feet per round
    hidden: bool = False  # GM hides HP/AC from non-GM viewers
    unseen: bool = False  # in nobody's view but the GM's until revealed, its figures hidden too (rules.unseen)
    notes: str = ""  # GM only
    down: bool = False
    conditions: list[str] = []
    subdual: int = 0
    # --- 003: oil, subdual, grappling, morale (rules.holmes.oil, subdual, grapple, morale)
    size: str = "M"  # 'L' | 'M' | 'S': the oil flask's to-hit modifier (003)
    pc: bool = False  # player characters never roll morale (003: 'monsters and NPCs')
    mindless: bool = False  # 003: 'not entirely mindless like undead, slimes and oozes': no morale
    loyalty: int = 0  # 003: retainers' morale 'is adjusted ... by their loyalty score'
    leader: bool = False  # its fall may trigger its side's morale (option morale_leader_down)
    caster: bool = False  # may declare 'cast'
    morale: str = ""  # the last morale result: surrender | flee | hold | press | redouble
    morale_round: int = 0  # the round that result governs
    burning: int = 0  # burn rolls made since the oil caught (condition 'burning')
    subdual_round: int = 0  # the last round in which subdual damage was sustained
    no_grapple_until: int = 0  # thrown back: may not grapple up to this round (003)
    man_type: bool = True  # 003: 'If a man-type wishes to grapple': false for wolves, oozes, dragons...
    # --- 000 (ll-house): armor damage, improved combat options, dying (rules.llhouse)
    armor: str = ""  # a name from 000's armor chart ('' = not tracked): what a critical hit can damage
    armor_damage: int = 0  # points of damage the armor has taken (000: 'ARMOR DAMAGE')
    improvements: dict[str, int] = {}  # improved combat option -> ranks, e.g. {'cleave': 1, 'extra_attack': 2}
    expertise: dict[str, int] = {}  # weapon name -> ranks of weapon expertise (000)
    con_bonus: int = 0  # 000's bleeding out lasts '1d6+Con Bonus' rounds
    until: dict[str, int] = {}  # condition -> the last round it lasts (knocked down, unconscious, bleeding out...)
    # --- 002: the thac0-sheet profile (rules.thac0sheet): striking, wrestling, naval combat
    str_adj: int = 0  # 002's δS, the Strength adjustment
    dex_adj: int = 0  # 002's δD, the Dexterity adjustment
    con: int = 10  # 002's C', Constitution, against a blow's stun (a monster's is 2 x HD)
    basic_ac: int = 10  # ascending; AC with no armour or shield (002 wrestling's 'basic AC')
    save_death: int = 14  # the d20 needed to save vs death ray (002's SvDR); no document gives a table
    out_until: int = 0  # 002: stunned or knocked out through this round
    hold: str = ""  # 002 wrestling: the hold on this combatant, '' | 'grab' | 'fall' | 'pin'
    held_by: str = ""  # who has that hold
    vessel: bool = False  # 002 naval combat: a ship; `hp` are its hull points, `move` its full speed
    rowers: int = 0  # a vessel's rowers now, and at full strength
    rowers_max: int = 0
    crew: int = 0  # crewmen aboard a vessel, for repairs (002: 'five crewmen required')
    repaired: int = 0  # hull points a vessel's crew has patched, and the rounds of work toward the next
    repair_work: int = 0
    lashed_to: str = ""  # a vessel: the vessel it is grappled to
    aboard: str = ""  # a fighter: the vessel it stands on


class Declaration(Struct, gc=False):
    actor: str
    action: Action
    seq: int  # when it was declared


# The engine's own step and prompt kinds. Every kind is a name in snake_case, defined once
# where its rules are (003's: rules.holmes.kinds; a profile's beside its handler); a kind a
# stored fight spelt otherwise is mapped by its module's `former` (rules.ruleset.Module).
END_OF_ROUND = "end_of_round"  # the round's last step
DIE = "die"  # prompt: a die rolled at the table (option physical_dice)


class Awaiting(Struct, gc=False, omit_defaults=True):
    """The step queue is parked: `who` must answer with one of `options`.

    `id` is unique and opaque: nothing reads it back. What the answer needs is in the
    prompt's fields (left out when unset, and out of the view: its `prompt` says it).
    A prompt stored before RULES_VERSION 5 has none, and its rules read its id."""

    id: str
    who: str  # combatant id, or 'gm'
    kind: str
    prompt: str
    options: list[str]
    attacker: str = ""  # the combatant whose blow the question is about (a spent attacker; a striker)
    target: str = ""  # the combatant that blow struck
    points: int = 0  # the damage it is about
    effect: str = ""  # a critical hit's effect still to land with that damage


class Step(Struct, gc=False, frozen=True, omit_defaults=True):
    """One entry of the step queue, made for every strike of every round; stored with its
    set fields only (omit_defaults), most being a strike's or a natural 20's alone."""

    phase: str
    actor: str
    kind: str = ACT
    target: str = ""  # kind 'strike': one attack roll queued by rules.holmes.combat / rules.holmes.melee
    weapon: int = 0
    mode: str = ""  # 'attack' | 'double' | 'charge' | 'counter' | 'set' | 'riposte'; a natural_20 step's: its blow's (a strike's, or 'shot')
    # Kind 'natural_20' (001, rules.challenges.natural): the blow that waits on the attacker's
    # choice. Before RULES_VERSION 7 these were packed into `mode` (natural.unpacked reads them).
    attack_result: int = 0  # 001: 'Attack Result = d20 Roll + your (modified) Attack Bonus - foe's Armor Class'
    called_shots: int = 0  # 003's called shots it was made with (each a d6 more on a hit)
    parry: int = 0  # 003's parry penalty the target's parry took off the Attack Result
    choice: str = ""  # the attacker's answer, once made: 'result' | 'extra' (natural.RESULT, EXTRA)


class MapImage(Struct, gc=False, frozen=True):
    """The battle map's background image (rules.battlemap)."""

    media: str  # image/png | image/jpeg | image/webp
    image: bytes
    width: int  # pixels
    height: int
    square: int  # pixels a 5-ft square spans
    seq: int  # the event that set it


class Origin(Struct, gc=False, frozen=True, omit_defaults=True):
    """Where a forked fight began: the encounter it was forked from, and the last of its events it kept."""

    encounter: str
    at: int
    # A fork made from a player's or a spectator's link: its GM reads the events up to
    # `veil` (its origin's) as that link did, never as the origin's GM (rules.view.log_for).
    veil: int = -1
    veil_role: str = ""  # "player" | "spectator" under a veil
    veil_combatants: tuple[str, ...] = ()


class Encounter(Struct, gc=False):
    id: str
    profile: str
    options: dict[str, int | bool | str]
    seed: bytes
    seed_hash: str
    rules_version: int
    seq: int = 0  # events applied so far; the dice position of the next one
    status: str = "setup"  # setup | running | ended
    round: int = 0
    phase: str = "setup"  # setup | declaration | attack | movement | magic | end
    combatants: list[Combatant] = []
    declarations: list[Declaration] = []
    surprised: list[str] = []  # sides that lose this round to surprise
    steps: list[Step] = []
    awaiting: Awaiting | None = None
    forced: list[int] = []  # the GM's forced-roll queue: each value for the next die it fits, of any kind
    # The GM's queue for one kind of die alone (force_rolls {sides}), keyed by its sides in
    # words ('20': die_key): a canonical encoding sorts a dict's keys, and only strings'.
    forced_by_die: dict[str, list[int]] = {}
    entered: list[int] = []  # real dice entered for the step waiting on them (option physical_dice)
    morale_triggers: list[str] = []  # 'first_death:<side>' ...: automatic checks already made (003)
    recent: list[Entry] = []  # log entries made by the last event
    next_id: int = 1
    undone: list[int] = []  # positions of the events the GM has undone, ascending (rules/undo.py)
    modules: dict[str, str] = {}  # module -> the profile it is taken from, over the profile's own (rules.ruleset)
    battle_map: MapImage | None = None  # the GM's background image under the grid (rules.battlemap)
    origin: Origin | None = None  # a fork's (rules/fork.py)


# --- Copying a state: apply() works on a copy and never changes its argument.
# Frozen structs (Weapon, Step, Roll, Mod, actions) are shared; every list, dict and
# mutable struct is copied. Written out by hand because this runs once per event
# (a generic walk costs three times as much); tests/rules/test_safety.py checks that every
# container field of these types is copied, so a field added later cannot be missed.


def die_key(sides: int) -> str:
    """A kind of die as Encounter.forced_by_die keys it: '20' for a d20."""
    return str(sides)


def by_sides(queues: dict[str, list[int]]) -> dict[str, list[int]]:
    """The queues by die, smallest die first ('6' before '20'), each its own list: as views show them."""
    return {sides: list(values) for sides, values in sorted(queues.items(), key=lambda kv: int(kv[0]))}


def copied_combatant(c: Combatant) -> Combatant:
    new = c.__copy__()  # type: ignore[attr-defined]  # msgspec's stubs leave out Struct.__copy__
    new.weapons = c.weapons[:]
    new.conditions = c.conditions[:]
    new.improvements = c.improvements.copy()
    new.expertise = c.expertise.copy()
    new.until = c.until.copy()
    return new


def copied(state: Encounter) -> Encounter:
    """A copy of `state` sharing nothing mutable with it, its `recent` emptied."""
    new = state.__copy__()  # type: ignore[attr-defined]  # msgspec's stubs leave out Struct.__copy__
    new.options = state.options.copy()
    new.combatants = [copied_combatant(c) for c in state.combatants]
    new.declarations = [d.__copy__() for d in state.declarations]  # type: ignore[attr-defined]  # as above
    new.surprised = state.surprised[:]
    new.steps = state.steps[:]
    if state.awaiting is not None:
        new.awaiting = msgspec.structs.replace(state.awaiting, options=state.awaiting.options[:])
    new.forced = state.forced[:]
    new.forced_by_die = {sides: values[:] for sides, values in state.forced_by_die.items()}
    new.entered = state.entered[:]
    new.morale_triggers = state.morale_triggers[:]
    new.recent = []
    new.undone = state.undone[:]
    new.modules = state.modules.copy()
    return new

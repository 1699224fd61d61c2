"""Rule profiles' options and figures, fixed in an encounter's first event, and
the installed profiles by name (their records: rules.ruleset).

A profile changes how steps resolve (to-hit, damage, criticals, death), never
the shape of the round, which is always that of 003.
"""

import functools
from collections.abc import Iterable, Mapping

import msgspec
from msgspec import Struct

from fray_table.rules import ruleset, words
from fray_table.rules.charts import thac0, weapon_saves
from fray_table.rules.charts.ll_house import ARMOR, IMPROVEMENTS
from fray_table.rules.charts.oil import FLASK_SIZE
from fray_table.rules.charts.thac0_sheet import HOLDS, PINNED_WR
from fray_table.rules.errors import Rejected
from fray_table.rules.model import Combatant, Encounter


class Option(Struct, frozen=True):
    name: str
    default: int | bool | str
    help: str
    choices: tuple[int | bool | str, ...] = ()


class Figure(Struct, frozen=True):
    """A combatant figure a profile's rules read beyond 003's: the GM console's form is built from these."""

    name: str  # the field of Combatant and EditCombatant
    label: str  # in the document's words
    kind: str  # 'int' | 'bool' | 'str' | 'combatant' (an id, or '') | 'dict' (a name -> a whole number)
    help: str
    default: int | bool | str | dict[str, int]  # the Combatant field's default
    choices: tuple[str, ...] = ()  # 'str': its values; 'dict': the names it takes (none: any name)
    low: int | None = None  # bounds of an 'int', and of each number of a 'dict', as the figure checks hold them
    high: int | None = None


_DEFAULTS = {
    f.name: f.default_factory() if f.default is msgspec.NODEFAULT else f.default
    for f in msgspec.structs.fields(Combatant)
    if f.default is not msgspec.NODEFAULT or f.default_factory is not msgspec.NODEFAULT
}


def check_declared(c: Combatant, figures: Iterable[Figure], code: str) -> None:
    """Each figure within the bounds and choices its declaration gives (the one place they
    are written); a profile's own checks add only what relates one figure to another."""
    for f in figures:
        value = getattr(c, f.name)
        if f.kind == "int" and not ((f.low is None or f.low <= value) and (f.high is None or value <= f.high)):
            raise Rejected(code, f"{f.name} {value}{_label(f)} is outside {_bounds(f)}")
        if f.kind == "str" and f.choices and value not in f.choices:
            raise Rejected(code, f"{f.name} {value!r}{_label(f)} must be one of {', '.join(repr(x) for x in f.choices)}")
        if f.kind == "dict":
            for key, n in value.items():
                if f.choices and key not in f.choices:
                    raise Rejected(code, f"{f.name}: {key!r} must be one of {', '.join(f.choices)}")
                if not (f.low is None or f.low <= n) or not (f.high is None or n <= f.high):
                    raise Rejected(code, f"{f.name}: {key} {n} is outside {_bounds(f)}")


def _label(f: Figure) -> str:
    return "" if f.label == f.name else f" ({f.label})"


def _bounds(f: Figure) -> str:
    return f"{'' if f.low is None else f.low}..{'' if f.high is None else f.high}"


def figure(name: str, label: str, kind: str, help: str, **more) -> Figure:
    return Figure(name, label, kind, help, _DEFAULTS[name], **more)


# 003's own figures, which every profile reads (rules.setup.check_figures holds the bounds: rules.fighters.check_class,
# rules.traits.check_traits). Name, side, AC, HP, DEX, move, position and weapons are set by the add and Edit forms.
COMMON_FIGURES = (
    figure(
        "pc",
        "player character",
        "bool",
        "003: morale is for 'monsters and NPCs', never PCs; 000's crits, death chart and "
        "maneuvers for 'PCs only', and dice rolled at the table (option physical_dice) read it too.",
    ),
    figure(
        "klass",
        "class",
        "str",
        "003: the 'combat bonus (as per their class and level)', read off 002's hit table (monster: by Hit Dice; normal: a normal man).",
        choices=thac0.CLASSES,
    ),
    # Bounded where the table read ends: 002's hit table stops at level 36 in every class column.
    figure("level", "level", "int", "003: 'as per their class and level'; 002's hit table by class column.", low=0, high=36),
    figure(
        "hd",
        "hit dice",
        "int",
        "002's hit table for monsters ('up to 1' ... HD); 003's brawl rolls 'dice equal to their hit dice (not level)'.",
        low=0,
        high=100,
    ),
    figure("hd_plus", "hit dice plus", "int", "002's hit table: the +N of 'HD 4+1'.", low=0, high=20),
    figure("rank", "D-H rank", "str", "002's D-H column: a demi-human's attack rank ('' = by fighter level).", choices=("", *thac0.RANKS)),
    figure("human", "human", "bool", "003: called shots at '-3 if the target is a human who is not wearing a helmet'."),
    figure("helmet", "helmet", "bool", "003: a human 'not wearing a helmet' is called-shot at -3."),
    figure("man_type", "man-type", "bool", "003: 'If a man-type wishes to grapple' (option grapple_man_types)."),
    figure("mindless", "mindless", "bool", "003: 'not entirely mindless like undead, slimes and oozes': no morale."),
    figure("loyalty", "loyalty score", "int", "003: retainers' morale 'is adjusted ... by their loyalty score'.", low=-10, high=10),
    figure("leader", "leader", "bool", "003 morale: its fall calls its side's morale (option morale_leader_down)."),
    figure("caster", "spell caster", "bool", "003: 'Magic spells cast by Magic-Users and magically inclined monsters': may declare cast."),
    figure("size", "size", "str", "003 burning oil: 'hitting larger creatures is easier than smaller ones' (L, M, S).", choices=tuple(FLASK_SIZE)),
)


# 000 reads the level off its ATTACK VALUE table, open-ended ('21+', '19+', '24+'): a sane cap, not the table's.
LL_HOUSE_LEVEL_CAP = 100
LL_HOUSE_COMMON_FIGURES = tuple(
    msgspec.structs.replace(f, high=LL_HOUSE_LEVEL_CAP, help="000, ATTACK VALUE: by class group and level, open-ended ('21+', '19+', '24+'), so up to 100.")
    if f.name == "level"
    else f
    for f in COMMON_FIGURES
)


# Options every profile shares: the table's procedure around the rules.
COMMON = (
    Option("weapon_damage", False, "Hits roll the weapon's damage dice instead of 1-6 (003: 'except when otherwise noted')."),
    Option("formal_declarations", False, "Declarations are taken in reversed INT order, lowest first (003)."),
    Option("sealed_declarations", True, "Nobody outside a side sees its declarations until all are in."),
    Option(
        "physical_dice",
        "off",
        "Dice rolled at the table: each one is asked of the acting combatant's player "
        "(`players`: combatants marked pc; `all`: every step, the GM for monsters) and entered.",
        ("off", "players", "all"),
    ),
    # 003: morale, burning oil (rules.morale, rules.oil)
    Option("morale_first_death", False, "A side's first death calls its morale at the end of that round (003)."),
    Option("morale_half_down", False, "Half a side out of the fight calls its morale at the end of that round (003)."),
    Option("morale_leader_down", False, "A side's `leader` going down calls its morale at the end of that round (003)."),
    Option("morale_per_creature", False, "Each creature rolls its own morale; off, one 2d6 serves the whole party (003)."),
    # 003: melee (rules.combat, rules.melee)
    Option("weapon_length", True, "In mutual melee the longer weapon strikes first, whatever the DEX (003)."),
    Option("parry_counter", "ask", "A parrier's +3 counter-attack is offered as a choice, or made at once (003).", ("ask", "auto")),
    Option("demihuman_thac0", "fighter", "002's D-H letters: attack ranks after fighter levels, or levels 1=A..13=M.", ("fighter", "letters")),
    Option("weapon_saves", "", "Crushing-blow saves by material, overriding the defaults: 'steel=8,bronze=12' (003)."),
    Option("grapple_man_types", True, "Only man-types (`man_type`) may grapple; off, anyone may and the GM judges (003)."),
    Option("oil_spell_loss", "damage", "A burning caster loses the spell when the fire does damage, or whenever still burning (003).", ("damage", "burning")),
)

# 000 (ll-house): Labyrinth Lord house rules (rules.llhouse, rules/charts/ll_house.py)
LL_HOUSE = tuple(
    msgspec.structs.replace(o, default=True, help="Hits roll the weapon's damage dice (000: 'Maximum Damage for attack used'); off, 1-6.")
    if o.name == "weapon_damage"
    else o
    for o in COMMON
) + (
    Option("natural_20_hits", True, "A natural roll in the crit range hits whatever the AC and rolls on the crit chart; off, it must reach the AC too (000)."),
    Option(
        "special_rolls", "all", "Who rolls on the crit chart and fumble table: everyone, or PCs only ('The list below pertains to PCs', 000).", ("all", "pcs")
    ),
    Option("death_chart", "pcs", "Who rolls on the death and dying chart at 0 HP: PCs, everyone, or nobody (they die) (000).", ("pcs", "all", "off")),
    Option(
        "maneuvers",
        "all",
        "Shield bash, shield sacrifice and two weapons: for everyone, or PCs only ('available to ALL Player Characters', 000).",
        ("all", "pcs"),
    ),
    Option(
        "two_weapon_fighting",
        "one-roll",
        "000's two readings: +2 and a die picks the weapon that struck, or both attack, main hand -2, off hand -4.",
        ("one-roll", "both"),
    ),
    Option(
        "crit_range_ranks",
        "one-per-rank",
        "Improved crit range: each rank widens it by 1, or as written (19-20 at rank 1, 18-20 at rank 3) (000).",
        ("one-per-rank", "as-written"),
    ),
    Option("hit_location", False, "Each hit rolls where it lands on the master body table (000: 'Perhaps if someone gets hit by a sniper'); logged only."),
)

# 002's options (rules.thac0sheet): where the sheet reads two ways (docs/rulings.md).
THAC0_SHEET = (
    Option("h_floor", False, "An H of 0 or 1 after 002's steps also needs 2 on the die; off, as written, only a negative H 'use[s] 2'."),
    Option(
        "mods_before_steps",
        False,
        "Roll modifiers (surprise, range, cover, haymaker, boarding...) come off H before 002's steps; off, they adjust the d20 against H.",
    ),
    Option(
        "wrestle_helpers",
        "defender",
        "002 'Multiple wrestlers: +1/+5 for each with less/more than 1/2 HD': half the defender's HD, or half a Hit Die.",
        ("defender", "half-hd"),
    ),
    Option("pin_penalty", PINNED_WR, "002: a pinned wrestler's 'WR -3 (or more)'.", (3, 4, 5, 6)),
    Option("rounds_per_turn", 10, "Rounds in a turn, for 002's repairs, '1 hp per turn'.", (1, 6, 10, 60)),
)

# 000's figures (rules.llhouse.figures.check_figures holds the bounds).
LL_HOUSE_FIGURES = (
    figure("armor", "armor", "str", "000, ARMOR CLASS: the armor worn, which a critical hit damages ('' = not tracked).", choices=("", *ARMOR)),
    figure(
        "armor_damage",
        "armor damage",
        "int",
        "000, ARMOR DAMAGE: points the armor has taken, each lowering AC by 1.",
        low=0,
        high=max(points for _, points in ARMOR.values()),
    ),
    figure(
        "improvements",
        "improved combat options",
        "dict",
        "000: ranks of each option (extra attack: 'Only available 3 times').",
        choices=tuple(IMPROVEMENTS),
        low=0,
        high=max(IMPROVEMENTS.values()),
    ),
    figure("expertise", "weapon expertise", "dict", "000, WEAPON EXPERTISE: ranks by weapon name, '+2 to Dam and to Parry' each.", low=0, high=10),
    figure("con_bonus", "Con bonus", "int", "000: bleeding out lasts '1d6+Con Bonus' rounds.", low=-3, high=3),
    figure(
        "until",
        "lasts through round",
        "dict",
        "000: the last round of a condition (knocked down, bleeding out...); the rules set it, the GM may correct it.",
        low=0,
        high=100_000,
    ),
)

# 002's figures (rules.thac0sheet.figures.check_figures holds the bounds).
THAC0_SHEET_FIGURES = (
    figure("str_adj", "δS", "int", "002: the Strength adjustment, to blows and wrestling.", low=-5, high=5),
    figure("dex_adj", "δD", "int", "002: the Dexterity adjustment, to wrestling.", low=-5, high=5),
    figure("con", "C'", "int", "002 striking: Constitution, against a blow's stun (a monster's is 2 x HD).", low=1, high=25),
    figure("basic_ac", "basic AC", "int", "002 wrestling's 'basic AC' (ascending): no armour or shield.", low=-20, high=40),
    figure("save_death", "SvDR", "int", "002: the d20 needed to save vs death ray.", low=1, high=30),
    figure("vessel", "vessel", "bool", "002 naval combat: a ship; its HP are hull points, its move its full speed."),
    figure("rowers", "rowers", "int", "002 naval combat: a vessel's rowers now.", low=0, high=10_000),
    figure("rowers_max", "rowers, full strength", "int", "002 naval combat: a vessel's rowers at full strength.", low=0, high=10_000),
    figure("crew", "crew", "int", "002 naval combat: crewmen aboard, for repairs ('five crewmen required').", low=0, high=10_000),
    figure("aboard", "aboard", "combatant", "002 naval combat: the vessel a fighter stands on."),
    figure("lashed_to", "lashed to", "combatant", "002 naval combat: the vessel this one is grappled to."),
    figure("hold", "hold", "str", "002 wrestling: the hold on this combatant; '' (and held by '') parts the wrestlers.", choices=("", *HOLDS)),
    figure("held_by", "held by", "combatant", "002 wrestling: who has that hold."),
    figure("out_until", "out through round", "int", "002: stunned or knocked out through this round.", low=0, high=10_000),
    figure("repaired", "hull repaired", "int", "002: hull points the crew has patched (at most max HP).", low=0),
    figure("repair_work", "repair work", "int", "002: rounds of work toward the next hull point ('1 hp per turn').", low=0, high=1_000),
)

# 001's own options (rules.challenges); hits roll the weapon's damage ('d8 (sword)').
CHALLENGES = tuple(
    Option(o.name, True, "Hits roll the weapon's damage dice (001: 'd8 (sword)'); off, 003's 1-6.") if o.name == "weapon_damage" else o for o in COMMON
) + (
    Option(
        "attack_bonus",
        "base",
        "A combatant with no attack_bonus attacks at +1 (001: 'It starts at +1 for all characters'), or by 002's hit table as in 003.",
        ("base", "hit-table"),
    ),
    Option("wound_penalties", "stack", "Every wound's penalty counts (001: 'one or more Wounds'), or only the worst.", ("stack", "worst")),
    Option(
        "double_damage",
        "dice",
        "A mighty Hit doubles the dice rolled (001: 'double rolled damage'), or the whole damage with its fixed modifier.",
        ("dice", "total"),
    ),
    Option("save_vs_paralyzation", 14, "The d20 (less wounds) that saves vs. Paralyzation on a -9 (001 gives no number).", tuple(range(2, 21))),
    Option(
        "wound_slows",
        0,
        "Feet of movement lost per point of wound penalty (001's referee: 'Serious wound ... moving 3 points slower'); 0 leaves movement to the GM.",
        (0, 5, 10),
    ),
    Option(
        "drop_forfeits",
        False,
        "A weapon dropped on a -9 also forfeits the next attack made (with another weapon or "
        "after picking it up); off, the next attack is lost to picking it up or drawing another weapon.",
    ),
)


class _Installed(Mapping):
    """The installed profiles' records by name (rules.ruleset.installed), read when first used."""

    def __getitem__(self, name: str) -> ruleset.Profile:
        return ruleset.installed()[name]

    def __iter__(self):
        return iter(ruleset.installed())

    def __len__(self) -> int:
        return len(ruleset.installed())


PROFILES: Mapping[str, ruleset.Profile] = _Installed()


@functools.cache
def naming_figures() -> frozenset[str]:
    """The figures that hold another combatant's id (`aboard`, `held_by`...): shown by that combatant's name."""
    return frozenset(f.name for p in PROFILES.values() for f in (*p.common_figures, *p.figures) if f.kind == "combatant")


def catalogue() -> dict[str, dict]:
    """Every installed profile as data (GET /api/profiles): its options and figures; each of
    its own modules with what it decides, which base module it replaces, the options it
    reads and what it needs; where each module of its rules comes from; and the words its
    pages show (rules.words)."""
    out = {}
    for name, p in PROFILES.items():
        inherited = ruleset.compose(p.base).modules if p.base else {}
        out[name] = {
            "name": p.name,
            "document": p.document,
            "title": p.title,
            "ac_style": p.ac_style,
            "base": p.base,
            "version": p.version,
            "options": msgspec.to_builtins(p.options),
            "figures": msgspec.to_builtins(p.figures),
            "common_figures": msgspec.to_builtins(p.common_figures),
            "modules": [
                {
                    "name": m.name,
                    "help": m.help,
                    "replaces": inherited[m.name][0] if m.name in inherited else None,
                    "options": list(m.options),
                    "needs": list(m.needs),
                    "decides": list(m.decides),
                    "why": m.why,
                    "actions": sorted(m.actions),
                }
                for m in p.modules
            ],
            "uses": {module: source for module, (source, _) in ruleset.compose(name).modules.items()},
            "words": words.WORDS,
        }
    return out


def validate_options(profile: str, options: dict, modules: dict[str, str] | None = None) -> dict:
    """The full option set with defaults filled in. Raises ValueError naming what is wrong."""
    rules = ruleset.compose(profile, tuple(sorted((modules or {}).items())))
    known = {o.name: o for o in rules.options}
    for name, value in options.items():
        if name not in known:
            raise ValueError(f"profile {profile!r} has no option {name!r}; known: {', '.join(sorted(known))}")
        default = known[name].default
        if type(value) is not type(default):
            raise ValueError(f"option {name!r} takes a {type(default).__name__}, not {value!r}")
        if name == "weapon_saves":
            weapon_saves.parse(value)  # raises ValueError naming the fault
        if known[name].choices and value not in known[name].choices:
            raise ValueError(f"option {name!r} must be one of {list(known[name].choices)}")
    return {o.name: options.get(o.name, o.default) for o in rules.options}


def option(state: Encounter, name: str):
    return state.options[name]

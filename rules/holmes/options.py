"""003's options and the figures of a combatant its rules read, declared once (name, label in
the document's words, kind, bounds, default): the command's fields, the checks, the GM's form
and the catalogue come from these. Every other profile reads them too, and builds on them."""

from ..charts import thac0, weapon_saves
from ..charts.oil import FLASK_SIZE
from ..profiles import PROCEDURE, Option, figure

# 003's own figures, which every profile reads (rules.setup.check_figures holds the bounds: rules.holmes.fighters.check_class,
# rules.holmes.traits.check_traits). Name, side, AC, HP, DEX, move, position and weapons are set by the add and Edit forms.
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


# 003's options, which every profile shares: its rules' and, after weapon_damage, the engine's own (PROCEDURE).
COMMON = (
    Option("weapon_damage", False, "Hits roll the weapon's damage dice instead of 1-6 (003: 'except when otherwise noted')."),
    *PROCEDURE,
    # 003: morale, burning oil (rules.holmes.morale, rules.holmes.oil)
    Option("morale_first_death", False, "A side's first death calls its morale at the end of that round (003)."),
    Option("morale_half_down", False, "Half a side out of the fight calls its morale at the end of that round (003)."),
    Option("morale_leader_down", False, "A side's `leader` going down calls its morale at the end of that round (003)."),
    Option("morale_per_creature", False, "Each creature rolls its own morale; off, one 2d6 serves the whole party (003)."),
    # 003: melee (rules.holmes.combat, rules.holmes.melee)
    Option("weapon_length", True, "In mutual melee the longer weapon strikes first, whatever the DEX (003)."),
    Option("parry_counter", "ask", "A parrier's +3 counter-attack is offered as a choice, or made at once (003).", ("ask", "auto")),
    Option("demihuman_thac0", "fighter", "002's D-H letters: attack ranks after fighter levels, or levels 1=A..13=M.", ("fighter", "letters")),
    Option("weapon_saves", "", "Crushing-blow saves by material, overriding the defaults: 'steel=8,bronze=12' (003).", parse=weapon_saves.parse),
    Option("grapple_man_types", True, "Only man-types (`man_type`) may grapple; off, anyone may and the GM judges (003)."),
    Option("oil_spell_loss", "damage", "A burning caster loses the spell when the fire does damage, or whenever still burning (003).", ("damage", "burning")),
)

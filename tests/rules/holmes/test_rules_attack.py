"""The attack roll of 003 (holmes-phases): combat bonus from 002's hit table, called
shots, attacks from behind, prone and helpless targets, natural 20s, multiple
attacks, weapon length and two weapons. Every die is forced; numbers are 003's."""

import msgspec
import pytest

from fray_table.rules.charts import thac0, weapon_saves
from fray_table.rules.reducer import canonical
from fray_table.rules.scenario import play

SWORD = {"name": "sword", "length": 3, "weight": 3}
DAGGER = {"name": "dagger", "length": 1, "weight": 1, "bonus": 1}
SPEAR = {"name": "spear", "length": 6, "weight": 4, "polearm": True, "reach": 10}
NOBODY_SURPRISED = [3, 4]  # 003: surprised on 1 or 2 on a d6, one die per side


def fight(*commands, dice=(), options=None, alda=None, gob=None, advance=True):
    alda = {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 9, "hp_max": 9, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10, **(alda or {})}
    gob = {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 8, "hp_max": 8, "dex": 9, "x": 15, "y": 10, **(gob or {})}
    tail = [{"type": "advance"}] if advance else []
    return play(
        {
            "seed": "melee",
            "options": options or {},
            "dice": [*NOBODY_SURPRISED, *dice],
            "combatants": [alda, gob],
            "commands": [{"type": "start"}, *commands, *tail],
        }
    )


def declare(actor, **action):
    return {"type": "declare", "actor": actor, "action": action}


def entries(played, kind):
    return [e for e in played.log if e.kind == kind]


def who(played, cid):
    return next(c for c in played.state.combatants if c.id == cid)


def sans_seq(state) -> bytes:
    return canonical(msgspec.structs.replace(state, recent=[], seq=0))


# --- combat bonus from 002's hit table ---------------------------------------


@pytest.mark.parametrize(
    ("klass", "level", "hd", "hd_plus", "bonus"),
    [
        ("fighter", 1, 0, 0, 0),  # F 1-3: THAC0 19
        ("fighter", 4, 0, 0, 2),  # F 4-6: THAC0 17
        ("cleric", 9, 0, 0, 4),  # C/T 9-12: THAC0 15
        ("magic-user", 36, 0, 0, 14),  # M-U 36: THAC0 5
        ("normal", 0, 0, 0, -1),  # Normal man: THAC0 20
        ("monster", 1, 1, 0, 0),  # HD up to 1: THAC0 19
        ("monster", 1, 1, 1, 1),  # HD 1+ to 2: THAC0 18
        ("monster", 1, 4, 1, 4),  # HD 4+ to 5: THAC0 15
        ("monster", 1, 9, 0, 8),  # HD 8+ to 9: THAC0 11
        ("monster", 1, 40, 0, 22),  # HD 35+ up: THAC0 -3
    ],
)
def test_thac0_chart_combat_bonus_is_19_minus_thac0(klass, level, hd, hd_plus, bonus):
    assert thac0.combat_bonus(klass, level, hd, hd_plus) == bonus


def test_thac0_demihuman_fights_as_fighter_until_ranked():
    # 002: D-H letters; ruling: a rank letter reads its row (C: THAC0 13), else the F column
    assert thac0.combat_bonus("elf", 5, 0) == 2  # as F 4-6: THAC0 17
    assert thac0.combat_bonus("elf", 10, 0, rank="C") == 6  # C: THAC0 13
    assert thac0.combat_bonus("dwarf", 2, 0, demihuman="letters") == 5  # level 2 = B: THAC0 14


def test_attack_bonus_derived_from_class_and_level():
    # fighter 4 (THAC0 17, bonus 2): d20 11 + 2 + AC 6 (ascending 13) = 19 >= 19
    played = fight(declare("alda", type="attack", target="gob"), dice=[11, 5], alda={"attack_bonus": None, "klass": "fighter", "level": 4})
    attack = entries(played, "attack")[0]
    assert attack.total == 19 and ("combat bonus", 2) in [(m.name, m.value) for m in attack.mods]
    assert who(played, "gob").hp == 3


def test_attack_bonus_set_explicitly_overrides_table():
    played = fight(declare("alda", type="attack", target="gob"), dice=[11], alda={"attack_bonus": -3, "klass": "fighter", "level": 20})
    assert entries(played, "attack")[0].total == 11 - 3 + 6


def test_natural_20_is_not_an_automatic_hit():
    # 003: 'a natural 20 is not an automatic hit!' d20 20 + 1 + AC -3 (ascending 22) = 18 < 19
    played = fight(declare("alda", type="attack", target="gob"), dice=[20], gob={"ac": 22})
    attack = entries(played, "attack")[0]
    assert attack.total == 18 and "miss" in attack.text
    assert who(played, "gob").hp == 8 and not entries(played, "damage")


# --- called shots -----------------------------------------------------------


def test_called_shot_costs_five_and_adds_a_d6():
    # 003: -5 to hit, +1-6 damage. d20 17 + 1 - 5 + AC 6 = 19; damage 4 + 3 = 7
    played = fight(declare("alda", type="attack", target="gob", called_shots=1), dice=[17, 4, 3])
    assert entries(played, "attack")[0].total == 19
    assert entries(played, "damage")[0].total == 7 and who(played, "gob").hp == 1


def test_called_shot_against_bareheaded_human_costs_three():
    # 003: '-3 if the target is a human who is not wearing a helmet'. d20 15 + 1 - 3 + 6 = 19
    played = fight(declare("alda", type="attack", target="gob", called_shots=1), dice=[15, 1, 1], gob={"human": True})
    attack = entries(played, "attack")[0]
    assert attack.total == 19 and ("called shot", -3) in [(m.name, m.value) for m in attack.mods]


def test_called_shot_against_helmeted_human_costs_five():
    played = fight(declare("alda", type="attack", target="gob", called_shots=1), dice=[15], gob={"human": True, "helmet": True})
    assert entries(played, "attack")[0].total == 17


def test_three_called_shots_add_three_d6():
    # 003: 'up to three times, for a total penalty of -15 and an additional 3-18 damage (4-24)'
    # bonus 10 + AC 6: need 3; three shots make it 18 (< 20). d20 18 + 10 - 15 + 6 = 19
    played = fight(declare("alda", type="attack", target="gob", called_shots=3), dice=[18, 6, 6, 6, 6], alda={"attack_bonus": 10}, gob={"hp": 30, "hp_max": 30})
    assert entries(played, "attack")[0].total == 19
    assert entries(played, "damage")[0].total == 24


def test_called_shot_refused_at_declaration_when_need_reaches_20():
    # 003: not 'when the penalty would increase the number required to hit to 20 or above'.
    # bonus 0 + AC 4 (ascending 15): need 15; one called shot makes it 20: refused.
    played = fight(declare("gob", type="attack", target="alda", called_shots=1), advance=False)
    rejected = played.log[-1]
    assert rejected.kind == "rejected" and rejected.code == "melee/called-shot-refused"
    assert "needs 15" in rejected.text


def test_called_shot_reduced_at_resolution_when_target_hidden():
    # Hidden figures are not judged at declaration; at resolution, need 12 (19 - 1 - 6):
    # two shots would make 22, one makes 17, so one stays. d20 17 + 1 - 5 + 6 = 19
    played = fight(declare("alda", type="attack", target="gob", called_shots=2), dice=[17, 2, 2], gob={"hidden": True})
    assert any("called shots drop from 2 to 1" in e.text for e in entries(played, "attack"))
    assert entries(played, "attack")[-1].total == 19 and entries(played, "damage")[0].total == 4


def test_called_shot_stacks_with_natural_20():
    # 003: 'This is in addition to the extra damage caused by a natural 20'.
    # d20 20 + 1 - 5 + 6 = 22; damage 2 + 3 (called) + 4 (natural 20) = 9; steel saves on 6
    played = fight(declare("alda", type="attack", target="gob", called_shots=1), dice=[20, 2, 3, 4, 6], gob={"hp": 12, "hp_max": 12})
    assert entries(played, "damage")[0].total == 9 and who(played, "gob").hp == 3
    assert "holds" in entries(played, "weapon")[0].text


# --- natural 20: extra die, weapon save -------------------------------------


def test_natural_20_adds_d6_damage():
    # 003: 'A natural 20 on a melee attack roll adds an additional 1-6 damage'
    played = fight(declare("alda", type="attack", target="gob"), dice=[20, 3, 5, 10], gob={"hp": 12, "hp_max": 12})
    assert entries(played, "damage")[0].total == 8 and who(played, "gob").hp == 4


def test_natural_20_weapon_breaks_on_failed_crushing_blow_save():
    # 003: 'Failure means the weapon has broken.' Steel saves on 6 (weapon_saves default); 5 fails
    played = fight(declare("alda", type="attack", target="gob"), dice=[20, 1, 1, 5], gob={"hp": 12, "hp_max": 12})
    assert who(played, "alda").weapons[0].broken
    assert entries(played, "weapon")[0].total == 5 and entries(played, "weapon")[0].need == weapon_saves.CRUSHING_BLOW["steel"]


def test_broken_weapon_cannot_be_declared():
    played = fight(
        declare("alda", type="attack", target="gob"),
        {"type": "advance"},
        declare("alda", type="attack", target="gob"),
        dice=[20, 1, 1, 5, 1],
        gob={"hp": 12, "hp_max": 12},
        advance=False,
    )
    assert played.log[-1].code == "melee/weapon-unusable"


def test_weapon_saves_option_overrides_material():
    # encounter option: steel saves on 15 here, so 14 fails
    played = fight(declare("alda", type="attack", target="gob"), dice=[20, 1, 1, 14], gob={"hp": 12, "hp_max": 12}, options={"weapon_saves": "steel=15"})
    assert who(played, "alda").weapons[0].broken and entries(played, "weapon")[0].need == 15


# --- from behind, prone, helpless -------------------------------------------


def test_attack_from_behind_adds_two_and_ignores_shield():
    # 003: '+2 to hit ... Shields obviously do not help the victim.' AC 14 with shield -> 13 (desc 6)
    # d20 10 + 1 + 2 + 6 = 19
    played = fight(declare("alda", type="attack", target="gob", from_behind=True), dice=[10, 2], gob={"ac": 14, "shield": True})
    attack = entries(played, "attack")[0]
    assert attack.total == 19 and "hit" in attack.text and "shield ignored" in attack.text


def test_shield_counts_when_attacked_from_the_front():
    played = fight(declare("alda", type="attack", target="gob"), dice=[10], gob={"ac": 14, "shield": True})
    assert entries(played, "attack")[0].total == 10 + 1 + 5


def test_prone_target_gives_plus_four():
    # 003: 'prone but awake and lively, the offender gets a +4'. d20 8 + 1 + 4 + 6 = 19
    played = fight(declare("alda", type="attack", target="gob"), dice=[8, 3], gob={"conditions": ["prone"]})
    assert entries(played, "attack")[0].total == 19 and who(played, "gob").hp == 5


def test_kill_helpless_target_needs_no_roll():
    # 003: 'Any character that is truly helpless ... can simply be killed'
    played = fight(declare("alda", type="kill", target="gob"), gob={"conditions": ["asleep"]})
    gob = who(played, "gob")
    assert gob.down and gob.hp == 0 and "dead" in gob.conditions
    assert not entries(played, "attack") and entries(played, "kill")[0].rolls == []


def test_kill_rejected_when_target_not_helpless():
    played = fight(declare("alda", type="kill", target="gob"), advance=False)
    assert played.log[-1].code == "melee/not-helpless"


# --- multiple attacks, weapon length, two weapons ---------------------------


def test_double_attack_uses_multiple_attack_bonus():
    # 003: 'Shorter, lighter weapons ... may attack the wielder of the longer weapon twice';
    # 'Fighters must attack as though they are first level' (bonus 0); weapon +1 still applies.
    # fighter 7 (bonus 4) with a +1 dagger against a spear: d20 12 + 0 + 1 + 6 = 19, twice
    played = fight(
        declare("alda", type="attack", target="gob", double=True),
        dice=[12, 2, 12, 3],
        alda={"attack_bonus": None, "klass": "fighter", "level": 7, "weapons": [DAGGER]},
        gob={"weapons": [SPEAR]},
    )
    attacks = entries(played, "attack")
    assert [a.total for a in attacks] == [19, 19]
    assert ("combat bonus (multiple attacks)", 0) in [(m.name, m.value) for m in attacks[0].mods]
    assert who(played, "gob").hp == 3


def test_double_attack_refused_when_weapon_not_shorter_and_lighter():
    played = fight(declare("alda", type="attack", target="gob", double=True), advance=False)
    assert played.log[-1].code == "melee/no-double-attack"


def test_weapon_length_longer_strikes_first_whatever_dex():
    # 003: 'Longer weapons always attack first, regardless of the Dexterity'
    played = fight(
        declare("alda", type="attack", target="gob"),
        declare("gob", type="attack", target="alda"),
        dice=[1, 1],
        gob={"weapons": [SPEAR]},
    )
    assert [a.actor for a in entries(played, "attack")] == ["gob", "alda"]


def test_weapon_length_option_off_keeps_dex_order():
    played = fight(
        declare("alda", type="attack", target="gob"),
        declare("gob", type="attack", target="alda"),
        dice=[1, 1],
        gob={"weapons": [SPEAR]},
        options={"weapon_length": False},
    )
    assert [a.actor for a in entries(played, "attack")] == ["alda", "gob"]


def test_two_weapons_attack_with_the_chosen_one():
    # 003: 'A character wielding two weapons may choose which he will attack with each round'
    # the +1 dagger: d20 11 + 1 + 1 + 6 = 19
    played = fight(declare("alda", type="attack", target="gob", weapon=1), dice=[11, 2], alda={"weapons": [SWORD, DAGGER]})
    attack = entries(played, "attack")[0]
    assert attack.total == 19 and ("dagger bonus", 1) in [(m.name, m.value) for m in attack.mods]


def test_illegal_declarations_are_rejected_and_change_nothing():
    base = fight(advance=False, gob={"weapons": [SWORD]})
    bad = [
        (declare("alda", type="attack", target="gob", called_shots=3), "melee/called-shot-refused"),
        (declare("alda", type="set_spear"), "melee/not-a-polearm"),
        (declare("alda", type="kill", target="gob"), "melee/not-helpless"),
        (declare("alda", type="attack", target="gob", double=True), "melee/no-double-attack"),
        (declare("alda", type="parry", weapon=4), "declare/no-such-weapon"),
        (declare("alda", type="charge", target="gob", called_shots=3), "melee/called-shot-refused"),
    ]
    for command, code in bad:
        played = fight(command, advance=False, gob={"weapons": [SWORD]})
        assert played.log[-1].code == code, (code, played.log[-1].text)
        assert sans_seq(played.state) == sans_seq(base.state), code


def test_monster_combat_bonus_from_hit_dice():
    # 002: HD '4+ to 5' reads THAC0 15, combat bonus 4. d20 11 + 4 + AC 4 (ascending 15) = 19
    played = fight(declare("gob", type="attack", target="alda"), dice=[11, 6], gob={"hd": 4, "hd_plus": 1})
    attack = entries(played, "attack")[0]
    assert attack.total == 19 and who(played, "alda").hp == 3


def test_demihuman_letters_option_reads_level_as_letter():
    # option demihuman_thac0 = letters: an elf of level 3 reads C, THAC0 13, bonus 6.
    # d20 7 + 6 + AC 6 = 19 (as a 3rd-level fighter it would be 7 + 0 + 6 = 13)
    alda = {"attack_bonus": None, "klass": "elf", "level": 3}
    letters = fight(declare("alda", type="attack", target="gob"), dice=[7, 1], alda=alda, options={"demihuman_thac0": "letters"})
    fighter = fight(declare("alda", type="attack", target="gob"), dice=[7, 1], alda=alda)
    assert entries(letters, "attack")[0].total == 19 and entries(fighter, "attack")[0].total == 13


def test_double_attack_second_blow_not_struck_once_target_falls():
    # 003: 'may attack ... twice'; a fallen target takes no second blow. 12 + 0 + 1 + 6 = 19, 6 damage
    played = fight(
        declare("alda", type="attack", target="gob", double=True),
        dice=[12, 6],
        alda={"weapons": [DAGGER]},
        gob={"hp": 5, "hp_max": 5, "weapons": [SPEAR]},
    )
    attacks = entries(played, "attack")
    assert who(played, "gob").down and len(attacks) == 2 and "already down" in attacks[1].text
    assert attacks[1].rolls == []


def test_kill_pinned_target():
    # 003 grappling: 'the defender is pinned and helpless'
    played = fight(declare("alda", type="kill", target="gob"), gob={"conditions": ["pinned"]})
    assert who(played, "gob").down and who(played, "gob").hp == 0


def test_weapon_saves_option_refuses_bad_text():
    # A scenario refused at creation (create/bad-options) names the fault (rules.scenario).
    with pytest.raises(ValueError, match="^scenario: weapon_saves: 'steel=hard' is not 'material=number'$"):
        fight(options={"weapon_saves": "steel=hard"})


def test_gm_edit_clears_attack_bonus_to_derive_from_table():
    # attack_bonus null: fighter 7 reads THAC0 15, bonus 4. d20 9 + 4 + AC 6 = 19
    edit = {"type": "edit_combatant", "id": "alda", "attack_bonus": None, "klass": "fighter", "level": 7}
    played = fight(edit, declare("alda", type="attack", target="gob"), dice=[9, 1])
    assert entries(played, "attack")[0].total == 19


def test_unknown_klass_is_rejected():
    played = fight({"type": "edit_combatant", "id": "alda", "klass": "wizard"}, advance=False)
    assert played.log[-1].code == "combatant/invalid" and who(played, "alda").klass == "monster"


# --- a monster's attack routine (claw, claw, bite) -------------------------------------

BEAR_WEAPONS = [{"name": "claw", "damage": "1d3"}, {"name": "claw", "damage": "1d3"}, {"name": "bite", "damage": "1d6"}]


def bear_fight(*commands, dice=(), bear=None, profile="holmes-phases", advance=True):
    from scenes import ADVANCE, started

    bear = {
        "id": "bear",
        "name": "Bear",
        "side": "beasts",
        "klass": "monster",
        "hd": 5,
        "hp": 30,
        "hp_max": 30,
        "dex": 12,
        "x": 5,
        "y": 0,
        "weapons": BEAR_WEAPONS,
        **(bear or {}),
    }
    alda = {"id": "alda", "name": "Alda", "side": "party", "hp": 20, "hp_max": 20, "attack_bonus": 0, "dex": 10, "x": 0, "y": 0}
    return started([alda, bear], *commands, *([ADVANCE] if advance else []), dice=dice, profile=profile)


ROUTINE = {"type": "declare", "actor": "bear", "action": {"type": "attack", "target": "alda", "routine": True}}


def test_routine_strikes_once_with_each_weapon_at_combat_bonus_zero_and_their_own_damage():
    # 003: 'A character attacking multiple times in one round is unable to utilise their full combat
    # bonus ... monsters and other character types must attack with a combat bonus of 0.' The bear (HD 5,
    # +4 alone) claws, claws and bites: d20 10 + 0 + AC 9 = 19 each; each rolls its own damage (the
    # routine notes it: 003's 1-6 is 'except when otherwise noted'): 1d3 2, 1d3 3, 1d6 5.
    played = bear_fight(ROUTINE, dice=[10, 2, 10, 3, 10, 5])
    from scenes import texts

    assert texts(played, "declare") == ["Bear declares: attack Alda, its attack routine (claw, claw, bite)."]
    assert texts(played, "attack") == ["Bear attacks (routine) Alda: d20 10 + 0 combat bonus (multiple attacks) + AC 9 = 19 ≥ 19: hit."] * 3
    assert texts(played, "damage") == [
        "Alda takes 2 damage (1d3), 18 HP left.",
        "Alda takes 3 damage (1d3), 15 HP left.",
        "Alda takes 5 damage (1d6), 10 HP left.",
    ]
    alone = bear_fight({**ROUTINE, "action": {"type": "attack", "target": "alda", "weapon": 2}}, dice=[10, 5])
    assert texts(alone, "attack") == ["Bear attacks Alda: d20 10 + 4 combat bonus + AC 9 = 23 ≥ 19: hit."]


def test_routine_under_the_other_profiles_takes_the_same_rule():
    from scenes import texts

    for profile, line in (
        ("thac0-sheet", "Bear attacks (routine) Alda: THAC0 19 - AC 9 = H 10; d20 10 ≥ 10: hit."),
        ("ll-house", "Bear attacks (routine) Alda: d20 10 + 0 combat bonus (multiple attacks) = 10 ≥ AC 10: hit."),
    ):
        played = bear_fight(ROUTINE, dice=[10, 2, 10, 3, 10, 5], profile=profile)
        assert texts(played, "attack") == [line] * 3, profile
        assert who(played, "alda").hp == 10, profile


def test_routine_refused_to_a_character_a_single_weapon_or_with_double():
    from scenes import rejected

    fighter = bear_fight(ROUTINE, bear={"klass": "fighter", "level": 3}, advance=False)
    assert rejected(fighter) == ["melee/no-routine"]
    assert fighter.log[-1].text == (
        "Rejected: Bear cannot make an attack routine: Bear is no monster: a character attacks with one weapon a round (003: 'Two weapons')."
    )
    one = bear_fight(ROUTINE, bear={"weapons": [BEAR_WEAPONS[2], {**BEAR_WEAPONS[0], "broken": True}]}, advance=False)
    assert one.log[-1].text == "Rejected: Bear cannot make an attack routine: Bear has fewer than two weapons to strike with."
    both = bear_fight({**ROUTINE, "action": {**ROUTINE["action"], "double": True}}, advance=False)
    assert rejected(both) == ["melee/no-routine"] and both.state.declarations == []


def test_routine_offered_in_the_view_to_a_monster_with_weapons_to_strike_with():
    from fray_table.rules.view import Viewer, view

    played = bear_fight(advance=False)
    actions = view(played.state, Viewer("gm")).actions
    bear = next(ch for ch in actions["bear"] if ch.type == "attack")
    alda = next(ch for ch in actions["alda"] if ch.type == "attack")
    assert bear.options["routine"] == [False, True] and "routine" not in alda.options

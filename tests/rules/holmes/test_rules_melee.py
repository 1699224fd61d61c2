"""Melee manoeuvres of 003 (holmes-phases): charging and its counter-attack, setting a
spear, cautious approach, parrying (penalty, disarm, counter-attack) and the
choices the view offers. Every die is forced; numbers are 003's."""

from test_rules_attack import SPEAR, SWORD, declare, entries, fight, who

from fray_table.rules.scenario import play
from fray_table.rules.view import Viewer, view

AXE = {"name": "axe", "length": 3, "weight": 5}
LIGHT_DAGGER = {"name": "dagger", "length": 1, "weight": 1}
FAR = {"x": 40, "y": 10}  # 30 ft from Alda at (10, 10)


def test_charge_moves_attacks_at_plus_two_and_takes_a_counter():
    # 003: 'may move up to his full movement and may attack at +2 to hit ... subject to an
    # immediate counterattack, at the base attack value of the defender'.
    # Alda: d20 10 + 1 + 2 charge + AC 6 = 19, 3 damage; Goblin: d20 15 + 0 + AC 4 = 19, 2 damage
    played = fight(declare("alda", type="charge", target="gob"), dice=[10, 3, 15, 2], gob=FAR)
    alda, gob = who(played, "alda"), who(played, "gob")
    assert (alda.x, alda.y) == (35, 10)
    charge, counter = entries(played, "attack")
    assert charge.actor == "alda" and charge.total == 19 and ("charge", 2) in [(m.name, m.value) for m in charge.mods]
    assert counter.actor == "gob" and counter.total == 19 and [m.name for m in counter.mods] == ["combat bonus", "target AC"]
    assert gob.hp == 5 and alda.hp == 7


def test_charge_counter_with_longer_weapon_strikes_first():
    # 003: 'during this exchange of blows the wielder of the longer weapon makes their attack first'
    played = fight(declare("alda", type="charge", target="gob"), dice=[1, 1], gob={**FAR, "weapons": [SPEAR]})
    assert [a.actor for a in entries(played, "attack")] == ["gob", "alda"]


def test_charge_out_of_reach_is_rejected():
    played = fight(declare("alda", type="charge", target="gob"), gob={"x": 200, "y": 10}, advance=False)
    assert played.log[-1].code == "melee/charge-too-far"


def test_set_spear_counter_adds_a_d6():
    # 003: 'If the charging character is hit by the counterattack, they will suffer an
    # additional 1-6 points of damage (2-12 total).' Goblin: d20 15 + 0 + AC 4 = 19; 3 + 4 = 7
    played = fight(
        declare("gob", type="set_spear"),
        declare("alda", type="charge", target="gob"),
        dice=[15, 3, 4, 1],
        gob={**FAR, "weapons": [SPEAR]},
    )
    assert entries(played, "set")[0].text == "Goblin sets the spear against a charge."
    counter = entries(played, "attack")[0]
    assert counter.actor == "gob" and "meets the charge" in counter.text
    assert entries(played, "damage")[0].total == 7 and who(played, "alda").hp == 2


def test_set_spear_rejected_without_a_polearm():
    played = fight(declare("gob", type="set_spear"), advance=False)
    assert played.log[-1].code == "melee/not-a-polearm"


def test_cautious_approach_has_no_attack_and_no_counter():
    # 003: 'may not attack until the next round, but is subject to no counterattack'
    played = fight(declare("alda", type="approach", target="gob"), gob=FAR)
    assert (who(played, "alda").x, who(played, "alda").y) == (35, 10)
    assert not entries(played, "attack")


def test_parry_gives_attacker_minus_four():
    # 003: 'their opponent thusly suffers a -4 penalty to hit'. d20 16 + 1 - 4 + AC 6 = 19
    played = fight(declare("gob", type="parry"), declare("alda", type="attack", target="gob"), dice=[16, 2])
    attack = entries(played, "attack")[0]
    assert attack.total == 19 and ("parry", -4) in [(m.name, m.value) for m in attack.mods]


def test_parry_never_makes_the_number_needed_exceed_20():
    # 003: 'may not increase the total required to hit beyond 20'. Need 17 (1 + AC 1): parry -3.
    # d20 20 + 1 - 3 + 1 = 19: still a hit
    played = fight(declare("gob", type="parry"), declare("alda", type="attack", target="gob"), dice=[20, 2, 6], gob={"ac": 18})
    attack = entries(played, "attack")[0]
    assert ("parry", -3) in [(m.name, m.value) for m in attack.mods] and attack.total == 19


def test_parry_disarms_when_heavier_weapon_would_have_hit():
    # 003: 'If the attacker would have struck the defender if not for the penalty, and their
    # weapon is heavier, the defender is disarmed.' d20 13 + 1 + 6 = 20 >= 19, less 4 = 16
    played = fight(declare("gob", type="parry"), declare("alda", type="attack", target="gob"), dice=[13], alda={"weapons": [AXE]})
    gob = who(played, "gob")
    assert entries(played, "attack")[0].total == 16
    assert "disarmed" in gob.conditions and gob.weapons[0].dropped and gob.hp == 8


def test_parry_counter_attack_is_offered_and_made_at_plus_three():
    # 003: 'If the attacker would have missed regardless ... and the defender's weapon is the
    # lighter of the two, the defender may counterattack once immediately, with ... +3'.
    # Alda: d20 5 + 1 + 6 = 12 (8 after parry). Goblin: d20 12 + 0 + 3 + AC 4 = 19, 4 damage
    commands = [declare("gob", type="parry"), declare("alda", type="attack", target="gob")]
    parked = fight(*commands, dice=[5, 12, 4], gob={"weapons": [LIGHT_DAGGER]})
    waiting = parked.state.awaiting
    assert waiting is not None and waiting.who == "gob" and waiting.kind == "riposte" and waiting.options == ["counter", "decline"]
    answered = fight(
        *commands,
        {"type": "advance"},
        {"as": "player:gob", "type": "answer", "awaiting": waiting.id, "choice": "counter"},
        dice=[5, 12, 4],
        gob={"weapons": [LIGHT_DAGGER]},
        advance=False,
    )
    riposte = entries(answered, "attack")[-1]
    assert riposte.actor == "gob" and riposte.total == 19 and ("counter after a parry", 3) in [(m.name, m.value) for m in riposte.mods]
    assert who(answered, "alda").hp == 5 and answered.state.round == 2


def test_parry_counter_declined_strikes_nothing():
    commands = [declare("gob", type="parry"), declare("alda", type="attack", target="gob")]
    waiting = fight(*commands, dice=[5], gob={"weapons": [LIGHT_DAGGER]}).state.awaiting
    answered = fight(
        *commands,
        {"type": "advance"},
        {"type": "answer", "awaiting": waiting.id, "choice": "decline"},
        dice=[5],
        gob={"weapons": [LIGHT_DAGGER]},
        advance=False,
    )
    assert len(entries(answered, "attack")) == 1 and who(answered, "alda").hp == 9


def test_parry_counter_option_auto_strikes_at_once():
    played = fight(
        declare("gob", type="parry"),
        declare("alda", type="attack", target="gob"),
        dice=[5, 12, 4],
        gob={"weapons": [LIGHT_DAGGER]},
        options={"parry_counter": "auto"},
    )
    assert played.state.awaiting is None and who(played, "alda").hp == 5


def test_two_weapons_parry_risks_only_the_declared_weapon():
    # 003: 'He must also declare which weapon is being used to parry'
    played = fight(
        declare("gob", type="parry", weapon=1),
        declare("alda", type="attack", target="gob"),
        {"type": "advance"},
        declare("gob", type="attack", target="alda", weapon=1),
        dice=[13],
        alda={"weapons": [AXE]},
        gob={"weapons": [SWORD, LIGHT_DAGGER]},
        advance=False,
    )
    gob = who(played, "gob")
    assert gob.weapons[1].dropped and not gob.weapons[0].dropped
    assert played.log[-1].code == "melee/weapon-unusable"


def test_two_weapons_parry_must_name_the_weapon():
    # 003: 'He must also declare which weapon is being used to parry': a parry of a combatant
    # carrying two weapons names one, or is refused and nothing changes.
    played = fight(declare("gob", type="parry"), gob={"weapons": [SWORD, LIGHT_DAGGER]}, advance=False)
    refused = played.log[-1]
    assert (refused.code, refused.text) == (
        "parry/which-weapon",
        "Rejected: Goblin carries 2 weapons: say which one parries (003: 'He must also declare which weapon is being used to parry').",
    )
    assert played.state.declarations == []


def test_parry_declaration_names_the_weapon_and_it_is_the_one_that_parries():
    # The dagger (weight 1) parries the axe (weight 5): 'the defender is disarmed' of the dagger only.
    # d20 13 + 1 combat bonus - 4 parry + AC 6 = 16: a miss, 20 without the parry.
    played = fight(
        declare("gob", type="parry", weapon=1),
        declare("alda", type="attack", target="gob"),
        dice=[13],
        alda={"weapons": [AXE]},
        gob={"weapons": [SWORD, LIGHT_DAGGER]},
    )
    assert [e.text for e in entries(played, "declare")] == ["Goblin declares: parry with the dagger.", "Alda declares: attack Goblin."]
    assert [e.text for e in entries(played, "parry")] == ["Goblin's parry holds, but the heavier axe knocks the dagger away: Goblin is disarmed."]
    # One weapon: it is implied, and named.
    single = fight(declare("gob", type="parry"), gob={"weapons": [LIGHT_DAGGER]}, advance=False)
    assert entries(single, "declare")[0].text == "Goblin declares: parry with the dagger."


def test_parry_stored_before_the_weapon_was_required_folds_as_before():
    # Every parry event stored so far carries its weapon (0 when none was sent): encoded from the
    # struct, it reads {"type": "parry", "weapon": 0} and still parries with the first weapon.
    import msgspec

    from fray_table.rules.actions import Action, Parry

    old = msgspec.json.decode(b'{"type": "parry", "weapon": 0}', type=Action)
    assert old == Parry(weapon=0)
    assert msgspec.json.decode(b'{"type": "parry"}', type=Action) == Parry(weapon=None)
    played = fight(
        {"type": "declare", "actor": "gob", "action": {"type": "parry", "weapon": 0}},
        declare("alda", type="attack", target="gob"),
        dice=[13],
        alda={"weapons": [AXE]},
        gob={"weapons": [LIGHT_DAGGER, SWORD]},
    )
    assert entries(played, "declare")[0].text == "Goblin declares: parry with the dagger."
    assert who(played, "gob").weapons[0].dropped and not who(played, "gob").weapons[1].dropped


def test_choices_offer_melee_actions_with_options():
    played = play(
        {
            "seed": "melee",
            "dice": [3, 4],
            "combatants": [
                {"id": "alda", "name": "Alda", "side": "party", "weapons": [SWORD, LIGHT_DAGGER], "x": 10, "y": 10},
                {"id": "gob", "name": "Goblin", "side": "goblins", "weapons": [SPEAR], "x": 40, "y": 10, "conditions": ["bound"]},
            ],
            "commands": [{"type": "start"}],
        }
    )
    actions = view(played.state, Viewer(role="gm")).actions
    alda = {c.type: c for c in actions["alda"]}
    assert alda["charge"].targets == ["gob"] and alda["charge"].options["called_shots"] == [0, 1, 2, 3]
    assert alda["parry"].options["weapon"] == [0, 1] and alda["kill"].targets == ["gob"]
    assert alda["attack"].options["double"] == [False, True] and "set_spear" not in alda
    assert {c.type: c for c in actions["gob"]}["set_spear"].options == {"weapon": [0]}


def test_charge_on_surprised_defender_draws_no_counter():
    # 003: surprise gives the active side its free round at +2; the surprised cannot act,
    # so they cannot counter. d20 8 + 1 + 2 charge + 2 surprise + AC 6 = 19
    played = play(
        {
            "seed": "melee",
            "dice": [3, 1, 8, 2],  # party not surprised, goblins surprised
            "combatants": [
                {"id": "alda", "name": "Alda", "side": "party", "attack_bonus": 1, "ac": 15, "hp": 9, "hp_max": 9, "x": 10, "y": 10},
                {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 8, "hp_max": 8, "x": 40, "y": 10},
            ],
            "commands": [{"type": "start"}, declare("alda", type="charge", target="gob"), {"type": "advance"}],
        }
    )
    attacks = entries(played, "attack")
    assert [a.actor for a in attacks] == ["alda"] and attacks[0].total == 19


def test_parry_counter_answered_by_someone_else_is_rejected():
    commands = [declare("gob", type="parry"), declare("alda", type="attack", target="gob")]
    waiting = fight(*commands, dice=[5], gob={"weapons": [LIGHT_DAGGER]}).state.awaiting
    played = fight(
        *commands,
        {"type": "advance"},
        {"as": "player:alda", "type": "answer", "awaiting": waiting.id, "choice": "counter"},
        dice=[5],
        gob={"weapons": [LIGHT_DAGGER]},
        advance=False,
    )
    assert played.log[-1].code == "answer/not-yours" and played.state.awaiting == waiting

"""Ranged attacks (003) with 002's range and cover adjustments, two shots for bows and
thrown daggers standing still, shooting and moving, and firing into melee."""

from scenes import ADVANCE, fighter, started, texts

from fray_table.rules.view import Viewer, view

BOW = {"name": "bow", "range": 150, "missile": "bow"}
CROSSBOW = {"name": "crossbow", "range": 160}


ARCHER = fighter("archer", "party", dex=14, x=0, y=0, weapons=[{"name": "dagger"}, BOW])
ORC = fighter("orc", "orcs", ac=10, x=60, y=0)  # AC 9 descending; 60 ft of a 150-ft bow: medium range


def run(*commands, dice=(), combatants=(ARCHER, ORC)):
    return started(combatants, *commands, dice=dice)


def shoot(**options) -> dict:
    return {"type": "declare", "actor": "archer", "action": {"type": "shoot", "target": "orc", "weapon": 1, **options}}


def codes(played) -> list[str]:
    return [e.code for e in played.log if e.kind == "rejected"]


def test_shoot_short_range_is_plus_one():
    # 002, Range adjustments: 'Short +1': d20 9 + 1 + AC 9 = 19
    played = run(shoot(range_band="short"), ADVANCE, dice=[9, 3])
    assert texts(played, "attack") == ["Archer shoots at Orc (bow): d20 9 + 0 combat bonus + 1 short range + AC 9 = 19 ≥ 19: hit."]
    assert texts(played, "damage") == ["Orc takes 3 damage (1d6), 7 HP left."]


def test_shoot_long_range_is_minus_one():
    # 002: 'Long -1': d20 10 - 1 + AC 9 = 18
    played = run(shoot(range_band="long"), ADVANCE, dice=[10])
    assert texts(played, "attack") == ["Archer shoots at Orc (bow): d20 10 + 0 combat bonus - 1 long range + AC 9 = 18 < 19: miss."]


def test_shoot_range_band_measured_in_thirds_of_the_weapon_range():
    # A ruling: 150 ft splits 50 / 100 / 150: 60 ft is medium, 40 ft short, 120 ft long.
    for x, band, total in ((40, "+ 1 short", 20), (60, "+ 0 medium", 19), (120, "- 1 long", 18)):
        played = run(shoot(), ADVANCE, dice=[10, 1], combatants=(ARCHER, {**ORC, "x": x}))
        assert texts(played, "attack")[0].endswith(f"{band} range + AC 9 = {total} {'≥' if total >= 19 else '<'} 19: {'hit' if total >= 19 else 'miss'}.")


def test_shoot_beyond_range_does_nothing():
    played = run(shoot(), ADVANCE, combatants=(ARCHER, {**ORC, "x": 155}))
    assert texts(played, "attack") == ["Archer cannot reach Orc (155 ft away, bow ranges 150 ft)."]


def test_shoot_cover_soft_and_hard():
    # 002, Cover adjustments: half cover is -2 soft, -4 hard.
    soft = run(shoot(cover="half"), ADVANCE, dice=[12])
    assert texts(soft, "attack")[0] == "Archer shoots at Orc (bow): d20 12 + 0 combat bonus + 0 medium range - 2 half soft cover + AC 9 = 19 ≥ 19: hit."
    hard = run(shoot(cover="half", cover_kind="hard"), ADVANCE, dice=[12])
    assert texts(hard, "attack")[0] == "Archer shoots at Orc (bow): d20 12 + 0 combat bonus + 0 medium range - 4 half hard cover + AC 9 = 17 < 19: miss."


def test_shoot_full_hard_cover_cannot_be_hit():
    # 002: full hard cover is '---'
    assert codes(run(shoot(cover="full", cover_kind="hard"))) == ["shoot/full-cover"]
    assert codes(run(shoot(cover="full"))) == []  # full soft cover: -4


def test_shoot_bow_twice_when_stationary():
    # 003: 'the first attack will take place during the first attack phase of the round,
    # the second during the movement phase'
    played = run(shoot(shots=2), ADVANCE, dice=[2, 3])
    assert texts(played, "phase", "attack") == [
        "Attack phase.",
        "Archer shoots at Orc (bow): d20 2 + 0 combat bonus (multiple attacks) + 0 medium range + AC 9 = 11 < 19: miss.",
        "Movement phase.",
        "Archer shoots at Orc (bow): d20 3 + 0 combat bonus (multiple attacks) + 0 medium range + AC 9 = 12 < 19: miss.",
        "End phase.",
    ]


def test_shoot_crossbow_shoots_once_and_stays_put():
    # 003: 'not capable of making multiple attacks except as a property of the weapon';
    # 'Other ranged weapons must remain stationary.'
    crossbowman = {**ARCHER, "weapons": [{"name": "dagger"}, CROSSBOW]}
    assert codes(run(shoot(shots=2), combatants=(crossbowman, ORC))) == ["shoot/shots"]
    assert codes(run(shoot(x=10, y=0), combatants=(crossbowman, ORC))) == ["shoot/stationary"]


def test_shoot_two_shots_need_the_shooter_to_stay_put():
    assert codes(run(shoot(shots=2, x=10, y=0))) == ["shoot/stationary"]


def test_shoot_then_move():
    # 003: 'they may elect to attack first (ie. during the attack phase), then move'
    played = run(shoot(x=0, y=30), ADVANCE, dice=[2])
    assert texts(played, "phase", "attack", "move") == [
        "Attack phase.",
        "Archer shoots at Orc (bow): d20 2 + 0 combat bonus + 0 medium range + AC 9 = 11 < 19: miss.",
        "Movement phase.",
        "Archer moves to (0, 30).",
        "End phase.",
    ]


def test_shoot_move_then_shoot_from_the_new_square():
    # '... or move and shoot': from (45, 0) the orc is 15 ft off, short range.
    played = run(shoot(x=45, y=0, move_first=True), ADVANCE, dice=[2])
    assert texts(played, "phase", "attack", "move") == [
        "Movement phase.",
        "Archer moves to (45, 0).",
        "Archer shoots at Orc (bow): d20 2 + 0 combat bonus + 1 short range + AC 9 = 12 < 19: miss.",
        "End phase.",
    ]


def test_shoot_thrown_dagger_twice():
    thrower = {**ARCHER, "weapons": [{"name": "sword"}, {"name": "dagger", "range": 30, "missile": "dagger"}], "x": 40}
    played = run(shoot(shots=2), ADVANCE, dice=[2, 2], combatants=(thrower, ORC))
    assert len(texts(played, "attack")) == 2


def test_shoot_into_melee_picks_the_target_by_a_die():
    # 003: 'must randomly determine which combatant will be hit': the orc and Bran beside
    # it; d2 2 picks Bran, who is then attacked as normal (AC 9: 10 + 0 + 9 = 19).
    bran = fighter("bran", "party", ac=10, x=65, y=0)
    played = run(shoot(), ADVANCE, dice=[2, 10, 4], combatants=(ARCHER, bran, ORC))
    assert texts(played, "attack") == [
        "Archer fires into the melee around Orc (1 Orc, 2 Bran): d2 2, at Bran.",
        "Archer shoots at Bran (bow): d20 10 + 0 combat bonus + 0 medium range + AC 9 = 19 ≥ 19: hit.",
    ]
    assert [c.hp for c in played.state.combatants if c.id == "bran"] == [6]


def test_shoot_no_melee_no_die():
    # Two orcs side by side are not a melee: nobody of another side stands within 5 ft.
    other = fighter("orc2", "orcs", x=65, y=0)
    played = run(shoot(), ADVANCE, dice=[10, 4], combatants=(ARCHER, other, ORC))
    assert texts(played, "attack")[0].startswith("Archer shoots at Orc (bow): d20 10")


def test_shoot_offered_with_ranged_weapons_only():
    played = run()
    choice = next(ch for ch in view(played.state, Viewer("gm")).actions["archer"] if ch.type == "shoot")
    assert choice.options["weapon"] == [1]
    assert choice.options["shots"] == [1, 2]
    assert choice.options["cover"] == ["none", "quarter", "half", "three-quarters", "full"]
    assert "shoot" not in [ch.type for ch in view(played.state, Viewer("gm")).actions["orc"]]


def test_shoot_with_a_dropped_bow_does_nothing():
    dropped = {**ARCHER, "weapons": [{"name": "dagger"}, {**BOW, "dropped": True}]}
    played = run(shoot(), ADVANCE, combatants=(dropped, ORC))
    assert texts(played, "attack") == ["Archer cannot shoot: the bow is dropped."]


def test_shoot_a_surprised_gawper_struck_by_a_missile_rolls_to_drop():
    # 003: 'the active side gains one free round ... Any gawpers so struck will drop anything held
    # in-hand on a 2 or less on a 6 sided die.' A missile strikes as a blow does: the orcs are
    # surprised (d6 1), the bow hits (d20 17 + 2 surprise), 3 damage, and the orc's d6 2 drops its sword.
    for profile, damage in (
        ("holmes-phases", "Orc takes 3 damage (1d6), 7 HP left."),
        ("challenges", "Orc takes 6 damage (1d6 rolled 3 doubled), 4 HP left."),
        ("thac0-sheet", "Orc takes 3 damage (1d6), 7 HP left."),
        ("ll-house", "Orc takes 3 damage, 7 HP left."),
    ):
        played = started((ARCHER, ORC), shoot(), ADVANCE, dice=[17, 3, 2], surprise=[5, 1], profile=profile)
        assert texts(played, "damage") == [damage], profile
        assert texts(played, "surprise")[-1] == "Orc is caught gawping and drops what was in hand (d6 2 ≤ 2).", profile
        orc = next(c for c in played.state.combatants if c.id == "orc")
        assert "disarmed" in orc.conditions and orc.weapons[0].dropped and played.state.forced == [], profile
    # d6 3 > 2: it keeps hold
    kept = started((ARCHER, ORC), shoot(), ADVANCE, dice=[17, 3, 3], surprise=[5, 1])
    assert texts(kept, "surprise")[-1] == "Orc keeps hold (d6 3 > 2)."


def test_shoot_twice_takes_the_multiple_attack_bonus_as_a_double_blow_does():
    # 003: 'A character attacking multiple times in one round is unable to utilise their full combat
    # bonus when doing so. Fighters must attack as though they are first level and monsters and other
    # character types must attack with a combat bonus of 0.' A fighter 7 (combat bonus +4) shooting a
    # bow twice: d20 12 + 0 + AC 9 = 21, both shots; one shot keeps the +4: d20 12 + 4 + AC 9 = 25.
    veteran = {**ARCHER, "attack_bonus": None, "klass": "fighter", "level": 7}
    played = run(shoot(shots=2), ADVANCE, dice=[12, 2, 12, 3], combatants=(veteran, ORC))
    assert (
        texts(played, "attack")
        == [
            "Archer shoots at Orc (bow): d20 12 + 0 combat bonus (multiple attacks) + 0 medium range + AC 9 = 21 ≥ 19: hit.",
        ]
        * 2
    )
    assert texts(played, "damage") == ["Orc takes 2 damage (1d6), 8 HP left.", "Orc takes 3 damage (1d6), 5 HP left."]
    once = run(shoot(), ADVANCE, dice=[12, 2], combatants=(veteran, ORC))
    assert texts(once, "attack") == ["Archer shoots at Orc (bow): d20 12 + 4 combat bonus + 0 medium range + AC 9 = 25 ≥ 19: hit."]
    # A monster's bonus (HD 5: +3) is 0 for two thrown daggers.
    thrower = {**veteran, "klass": "monster", "hd": 5, "weapons": [{"name": "sword"}, {"name": "dagger", "range": 30, "missile": "dagger"}], "x": 40}
    twice = run(shoot(shots=2), ADVANCE, dice=[2, 2], combatants=(thrower, ORC))
    assert [e.total for e in twice.log if e.kind == "attack"] == [2 + 0 + 0 + 9] * 2  # d20 2 + 0 + medium range + AC 9


def test_shoot_twice_multiple_attack_bonus_under_every_profile():
    # The same rule where the profile reckons the roll its own way: fighter 7 shooting twice.
    veteran = {**ARCHER, "attack_bonus": None, "klass": "fighter", "level": 7}
    cases = {
        "challenges": "Archer shoots at Orc (bow): d20 12 + 0 combat bonus (multiple attacks) + 0 medium range - AC 10 = Attack Result +2",
        "ll-house": "Archer shoots the bow at Orc: d20 12 + 0 combat bonus (multiple attacks) + 0 medium range = 12 ≥ AC 10: hit.",
        "thac0-sheet": "Archer shoots at Orc (bow): THAC0 19 - AC 9 = H 10; d20 12 + 0 medium range = 12 ≥ 10: hit.",
    }
    for profile, line in cases.items():
        played = started((veteran, ORC), shoot(shots=2), ADVANCE, dice=[12, 2, 12, 3], profile=profile)
        attacks = texts(played, "attack")
        assert len(attacks) == 2 and all(a.startswith(line) for a in attacks), (profile, attacks)


def test_shoot_called_shots_are_minus_five_and_a_d6_each():
    # 003: 'Any attacker may take a -5 penalty to their attack roll ... to add +1d6 to the damage
    # dealt ... This option can be taken up to three times'. Archer +2: d20 19 + 2 - 10 + AC 9 = 20, a hit
    # for 1d6 3 + 2d6 4, 5 = 12.
    sharp = {**ARCHER, "attack_bonus": 2}
    tough = {**ORC, "hp": 20, "hp_max": 20}
    played = run(shoot(called_shots=2), ADVANCE, dice=[19, 3, 4, 5], combatants=(sharp, tough))
    assert texts(played, "declare") == ["Archer declares: shoot at Orc, 2 called shot(s)."]
    assert texts(played, "attack") == ["Archer shoots at Orc (bow): d20 19 + 2 combat bonus + 0 medium range - 10 called shots + AC 9 = 20 ≥ 19: hit."]
    assert texts(played, "damage") == ["Orc takes 12 damage (1d6 + 2d6 called shots), 8 HP left."]
    assert played.state.forced == []


def test_shoot_called_shots_never_make_the_number_needed_20():
    # 003: 'may not be taken when the penalty would increase the number required to hit to 20 or above':
    # 8 is needed; three calls (23) drop to two (18). A bareheaded human is called at -3 (003).
    sharp = {**ARCHER, "attack_bonus": 2}
    played = run(shoot(called_shots=3), ADVANCE, dice=[19, 3, 4, 5], combatants=(sharp, {**ORC, "hp": 20, "hp_max": 20}))
    assert texts(played, "attack")[0] == (
        "Archer's called shots drop from 3 to 2: 8 is needed on the d20 already, and 003 refuses a penalty that makes it 20 or more."
    )
    bare = run(shoot(called_shots=3), ADVANCE, dice=[19, 3, 4, 5, 6], combatants=(sharp, {**ORC, "hp": 30, "hp_max": 30, "human": True}))
    assert "- 9 called shots + AC 9 = 21 ≥ 19: hit." in texts(bare, "attack")[0]
    assert texts(bare, "damage") == ["Orc takes 18 damage (1d6 + 3d6 called shots), 12 HP left."]


def test_shoot_called_shots_offered_and_bounded():
    played = run()
    choice = next(ch for ch in view(played.state, Viewer("gm")).actions["archer"] if ch.type == "shoot")
    assert choice.options["called_shots"] == [0, 1, 2, 3]
    assert codes(run(shoot(called_shots=4))) == ["declare/called-shots"]
    refused = next(e for e in run(shoot(called_shots=-1)).log if e.kind == "rejected")
    assert refused.text == "Rejected: called shots are 0 to 3."


def test_shoot_called_shots_under_the_other_profiles():
    # The penalty is a term of every profile's roll, the extra d6 part of its damage.
    sharp = {**ARCHER, "attack_bonus": 2}
    cases = {
        "ll-house": (
            "Archer shoots the bow at Orc: d20 19 + 2 attack value + 0 medium range - 10 called shots = 11 ≥ AC 10: hit.",
            "Orc takes 12 damage, 8 HP left.",
        ),
        "thac0-sheet": (
            "Archer shoots at Orc (bow): THAC0 17 - AC 9 = H 8; d20 19 + 0 medium range - 10 called shots = 9 ≥ 8: hit.",
            "Orc takes 12 damage (1d6 + 2d6 called shots), 8 HP left.",
        ),
    }
    for profile, (attack, damage) in cases.items():
        played = started((sharp, {**ORC, "hp": 20, "hp_max": 20}), shoot(called_shots=2), ADVANCE, dice=[19, 3, 4, 5], profile=profile)
        assert texts(played, "attack") == [attack], profile
        assert texts(played, "damage") == [damage], profile

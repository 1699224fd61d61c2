"""002 'Naval combat' (thac0-sheet): hull points from a giant's hit points (1 per 5,
rounded down), speed lost by tenths of damage and rowers, dead in the water at 75%,
sunk at 100%, grappling at 50 ft on 2 in 6 or by agreement, boarding at -2 on hit
rolls and AC, repairs by five crewmen, 1 point a turn up to half the damage."""

from scenes import ADVANCE, declare, fighter, rejected, started, texts, who

from fray_table.rules.model import Combatant
from fray_table.rules.scenario import play
from fray_table.rules.thac0sheet.naval import speed
from fray_table.rules.view import legal_actions

PROFILE = "thac0-sheet"


def ship(cid, side, **figures):
    return {
        "id": cid,
        "name": cid.capitalize(),
        "side": side,
        "vessel": True,
        "hp": 30,
        "hp_max": 30,
        "move": 120,
        "rowers": 40,
        "rowers_max": 40,
        "crew": 10,
        "ac": 12,
        "dex": 1,
        **figures,
    }


def sea(*commands, dice=(), options=None, people=(), galley=None, cog=None):
    galley = ship("galley", "party", **{"x": 0, "y": 0, **(galley or {})})
    cog = ship("cog", "pirates", **{"x": 40, "y": 0, **(cog or {})})
    return started([galley, cog, *people], *commands, dice=dice, options=options, profile=PROFILE)


def vessel(hp, rowers=40, move=120):
    return Combatant(name="V", side="v", vessel=True, hp=hp, hp_max=30, rowers=rowers, rowers_max=40, move=move)


def test_naval_speed_drops_ten_percent_per_tenth_of_damage_or_rowers():
    assert speed(vessel(30)) == 120
    assert speed(vessel(28)) == 120  # 2 of 30 is 6%: not yet a whole 10%
    assert speed(vessel(27)) == 108  # 10% damage: 10% slower
    assert speed(vessel(27, rowers=32)) == 84  # and 20% of the rowers lost: 30% slower
    assert speed(vessel(30, rowers=4)) == 12  # 90% of the rowers lost
    assert speed(vessel(8)) == 36  # 22 of 30 is 73%: 70% slower


def test_naval_dead_in_water_at_three_quarters_damage():
    assert speed(vessel(7)) == 0  # 23 of 30 is 76%: 'Dead in water at 75% damage'


def test_naval_giant_blow_counts_one_hull_point_per_five():
    # A giant (F 1, THAC0 19) against the cog's AC 7 (ascending 12): H 12, d20 15 hits; 3d6 6+6+5 = 17 hp -> 3 hull points.
    giant = fighter("giant", "party", attack_bonus=None, klass="fighter", level=1, size="L", dex=12, x=35, y=0, weapons=[{"name": "club", "damage": "3d6"}])
    played = sea(declare("giant", {"type": "attack", "target": "cog"}), ADVANCE, dice=[15, 6, 6, 5], people=[giant], options={"weapon_damage": True})
    assert "Giant attacks Cog: THAC0 19 - AC 7 = H 12; d20 15 ≥ 12: hit." in texts(played)
    assert "Cog takes 3 hull points (17 hit points (3d6) / 5, rounded down), 27 HP left." in texts(played)
    assert "Cog makes 108 of 120 ft (10% damage, 0% of the rowers lost)." in texts(played)


def test_naval_sinks_at_full_damage():
    giant = fighter("giant", "party", attack_bonus=None, klass="fighter", level=1, dex=12, x=35, y=0, weapons=[{"name": "club", "damage": "3d6"}])
    played = sea(
        declare("giant", {"type": "attack", "target": "cog"}), ADVANCE, dice=[15, 6, 6, 5], people=[giant], cog={"hp": 3}, options={"weapon_damage": True}
    )
    assert "Cog sinks (100% damage)." in texts(played)
    cog = who(played, "cog")
    assert cog.down and cog.conditions == ["sunk"]


def test_naval_dead_in_the_water_cannot_sail():
    played = sea(declare("cog", {"type": "move", "x": 60, "y": 0}), cog={"hp": 7})
    assert rejected(played) == ["naval/dead-in-water"]


def test_naval_a_damaged_vessel_sails_no_further_than_its_speed():
    # 10% damage and 20% rowers lost: 84 of 120 ft.
    slow = sea(declare("galley", {"type": "move", "x": 0, "y": 90}), galley={"hp": 27, "rowers": 32})
    assert rejected(slow) == ["naval/too-slow"]
    fine = sea(declare("galley", {"type": "move", "x": 0, "y": 80}), ADVANCE, galley={"hp": 27, "rowers": 32})
    assert rejected(fine) == [] and (who(fine, "galley").x, who(fine, "galley").y) == (0, 80)


def test_naval_grappling_succeeds_on_two_in_six():
    hooked = sea(declare("galley", {"type": "grapple_ship", "target": "cog"}), ADVANCE, dice=[2])
    assert "Galley grapples Cog: d6 2 ≤ 2." in texts(hooked)
    assert who(hooked, "galley").lashed_to == "cog" and who(hooked, "cog").conditions == ["grappled"]
    missed = sea(declare("galley", {"type": "grapple_ship", "target": "cog"}), ADVANCE, dice=[3])
    assert "Galley's grapnels miss Cog: d6 3 > 2." in texts(missed)
    assert who(missed, "galley").lashed_to == ""


def test_naval_grappling_by_mutual_agreement_needs_no_roll():
    played = sea(declare("galley", {"type": "grapple_ship", "target": "cog"}), declare("cog", {"type": "grapple_ship", "target": "galley"}), ADVANCE)
    assert "Galley and Cog grapple by mutual agreement (40 ft)." in texts(played)
    assert not [r for e in played.log for r in e.rolls if r.sides == 6 and "grapples" in r.purpose]


def test_naval_grappling_only_at_fifty_feet_or_less():
    played = sea(declare("galley", {"type": "grapple_ship", "target": "cog"}), ADVANCE, cog={"x": 55})
    assert "Galley cannot grapple Cog: 55 ft apart, more than 50." in texts(played)


def test_naval_grappled_vessels_cannot_sail_away():
    played = sea(declare("galley", {"type": "grapple_ship", "target": "cog"}), ADVANCE, declare("galley", {"type": "move", "x": 0, "y": 20}), dice=[1])
    assert rejected(played) == ["naval/grappled"]


def boarders():
    alda = fighter("alda", "party", attack_bonus=None, klass="fighter", level=1, dex=14, aboard="galley", x=5, y=0)
    pete = fighter("pete", "pirates", attack_bonus=None, klass="fighter", level=1, dex=9, aboard="cog", x=40, y=5)
    return [alda, pete]


def test_naval_boarding_is_minus_two_on_hit_rolls_and_ac():
    # Round 1 the vessels grapple; round 2 Alda (DEX 14) boards in the attack phase: THAC0 19 against
    # AC 9: H 10, d20 11 - 2 = 9 misses. Pete (DEX 9) strikes the boarder: d20 8 + 2 (her AC 2 worse) = 10 hits.
    grapple = declare("galley", {"type": "grapple_ship", "target": "cog"})
    board = declare("alda", {"type": "board", "target": "pete"})
    back = declare("pete", {"type": "attack", "target": "alda"})
    played = sea(grapple, ADVANCE, board, back, ADVANCE, dice=[1, 11, 8, 3], people=boarders())
    assert "Alda boards Cog beside Pete, at (35, 5)." in texts(played)
    assert "Pete attacks Alda: THAC0 19 - AC 9 = H 10; d20 8 + 2 target boarding (AC 2 worse) = 10 ≥ 10: hit." in texts(played)
    assert "Alda boards and attacks Pete: THAC0 19 - AC 9 = H 10; d20 11 - 2 boarding = 9 < 10: miss." in texts(played)
    alda = who(played, "alda")
    assert alda.aboard == "cog" and alda.conditions == []  # the boarding round is over


def test_naval_boarding_needs_grappled_vessels():
    played = sea(declare("alda", {"type": "board", "target": "pete"}), people=boarders())
    assert rejected(played) == ["board/not-grappled"]


def test_naval_boarding_is_offered_once_grappled():
    played = sea(declare("galley", {"type": "grapple_ship", "target": "cog"}), ADVANCE, dice=[1], people=boarders())
    listed = {c.type: c for c in legal_actions(played.state)["alda"]}
    assert listed["board"].targets == ["pete"] and listed["board"].options == {"weapon": [0]}
    galley = [c.type for c in legal_actions(played.state)["galley"]]
    assert galley == ["hold"]  # grappled: no sailing; unhurt: nothing to repair


def test_naval_repairs_one_point_a_turn_up_to_half_the_damage():
    # rounds_per_turn 1: a point a round. 6 of 10 hull points lost: half is 3.
    repair = declare("galley", {"type": "repair"})
    played = sea(
        repair, ADVANCE, repair, ADVANCE, repair, ADVANCE, repair, dice=[1, 2, 3, 4, 5], galley={"hp": 4, "hp_max": 10}, options={"rounds_per_turn": 1}
    )
    assert "Galley's crew patches 1 hull point, 5 HP left; the patch fails after 5d6 = 15 days." in texts(played)
    assert who(played, "galley").hp == 7 and who(played, "galley").repaired == 3
    assert rejected(played) == ["repair/nothing-to-repair"]


def test_naval_repairs_take_a_turn_of_rounds():
    repair = declare("galley", {"type": "repair"})
    played = sea(*[c for _ in range(10) for c in (repair, ADVANCE)], dice=[1] * 5, galley={"hp": 20})
    assert "Galley's crew works on the hull (9 of 10 rounds for a point)." in texts(played)
    assert who(played, "galley").hp == 21


def test_naval_repairs_need_five_crewmen():
    played = sea(declare("galley", {"type": "repair"}), galley={"hp": 20, "crew": 4})
    assert rejected(played) == ["repair/short-handed"]


def test_naval_a_vessel_only_sails_grapples_and_repairs():
    played = sea(declare("galley", {"type": "attack", "target": "cog"}))
    assert rejected(played) == ["naval/vessel-action"]
    listed = [c.type for c in legal_actions(sea().state)["galley"]]
    assert listed == ["move", "hold", "grapple_ship"]


def test_naval_missiles_and_fists_do_not_harm_a_hull():
    bran = fighter("bran", "party", dex=12, x=0, y=5, aboard="galley", weapons=[{"name": "bow", "range": 150, "missile": "bow"}])
    played = sea(declare("bran", {"type": "shoot", "target": "cog"}), declare("bran", {"type": "strike", "target": "cog"}), people=[bran])
    assert rejected(played) == ["naval/target-is-vessel", "strike/vessel"]
    assert played.state.declarations == []


def test_naval_only_vessels_grapple_vessels():
    bran = fighter("bran", "party", dex=12, x=0, y=5)
    played = sea(declare("bran", {"type": "grapple_ship", "target": "cog"}), declare("galley", {"type": "grapple_ship", "target": "bran"}), people=[bran])
    assert rejected(played) == ["grapple_ship/not-a-vessel", "grapple_ship/not-a-vessel"]


def test_naval_bad_figures_are_refused_and_change_nothing():
    bad = [
        {"type": "add_combatant", "combatant": fighter("raft", "party", rowers=5, rowers_max=4, vessel=True)},
        {"type": "add_combatant", "combatant": fighter("oars", "party", rowers_max=4)},
        {"type": "edit_combatant", "id": "galley", "aboard": "cog"},
        {"type": "edit_combatant", "id": "galley", "str_adj": 9},
    ]
    played = play({"profile": PROFILE, "combatants": [ship("galley", "party"), ship("cog", "pirates")], "commands": bad})
    assert rejected(played) == ["combatant/invalid"] * 4
    assert [e.text for e in played.log if e.kind == "rejected"][1] == "Rejected: Oars has rowers, crew or grapnels but is not a vessel (set vessel)."
    assert [c.id for c in played.state.combatants] == ["galley", "cog"] and who(played, "galley").aboard == ""


def test_naval_the_gm_log_names_the_vessel_a_fighter_is_put_aboard():
    bran = fighter("bran", "party", dex=12, x=0, y=5)
    played = play(
        {
            "profile": PROFILE,
            "combatants": [ship("galley", "party"), bran],
            "commands": [{"type": "edit_combatant", "id": "bran", "aboard": "galley"}, {"type": "edit_combatant", "id": "bran", "aboard": ""}],
        }
    )
    assert who(played, "bran").aboard == ""
    assert texts(played, "gm") == ["GM edits Bran: aboard Galley.", "GM edits Bran: aboard none."]


def test_naval_hidden_vessel_hull_figures_are_not_shown_to_players():
    from fray_table.rules.view import Viewer, log_for

    giant = fighter("giant", "party", attack_bonus=None, klass="fighter", level=1, dex=12, x=35, y=0, weapons=[{"name": "club", "damage": "3d6"}])
    played = sea(
        declare("giant", {"type": "attack", "target": "cog"}),
        ADVANCE,
        dice=[15, 6, 6, 5],
        people=[giant],
        cog={"hidden": True},
        options={"weapon_damage": True},
    )
    seen = [e.text for e in log_for(played.log, played.state, Viewer(role="player", combatants=("giant",))) if e.kind in ("damage", "naval")]
    assert seen == ["Cog takes 3 hull points (17 hit points (3d6) / 5, rounded down)."]
    assert "Cog makes 108 of 120 ft (10% damage, 0% of the rowers lost)." in texts(played)  # the GM's log

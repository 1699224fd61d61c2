"""The campaign's reducer against the documents' numbers (000's death and dying chart,
armor damage and improved combat options; 001's wounds): refusals change nothing."""

import msgspec
from campaign_support import ALDA, BORS, GM, accept_all, begin, char, event, finding, player, reported, run

from fray_table.rules.campaign.reducer import apply, canonical, fold
from fray_table.rules.campaign.state import Campaign


def unchanged(before: Campaign, after: Campaign) -> bool:
    """Nothing changed but the position and the event's own line."""
    return canonical(msgspec.structs.replace(after, seq=before.seq, recent=before.recent)) == canonical(before)


def refused(state: Campaign, data: dict, by=GM) -> tuple[str, str]:
    after = apply(state, event(data, by))
    assert unchanged(state, after)
    assert after.seq == state.seq + 1 and len(after.recent) == 1 and after.recent[0].kind == "rejected"
    return after.recent[0].code or "", after.recent[0].text


def test_character_holds_every_profile_figure_checked_by_its_declaration():
    state = begin(ALDA)
    alda = char(state, "alda")
    assert (alda.sheet.klass, alda.sheet.level, alda.sheet.armor, alda.sheet.int_) == ("fighter", 3, "chain mail", 12)
    bad = {**BORS, "id": "", "sheet": {**BORS["sheet"], "level": 101}}  # 000's levels are open-ended: ll-house bounds them at 100
    code, text = refused(state, {"type": "add_character", "character": bad})
    assert code == "campaign/bad-character" and "level 101" in text and "0..100" in text
    code, text = refused(state, {"type": "add_character", "character": {**BORS, "sheet": {**BORS["sheet"], "armor": "mithril"}}})
    assert code == "campaign/bad-character" and "mithril" in text


def test_a_player_edits_only_their_own_character_and_only_name_and_notes():
    state = begin(ALDA, BORS)
    state = run(state, {"type": "edit_own", "id": "alda", "notes": "owes the smith"}, by=player("alda"))
    assert char(state, "alda").notes == "owes the smith"
    assert refused(state, {"type": "edit_own", "id": "bors", "notes": "mine now"}, by=player("alda"))[0] == "campaign/not-your-character"
    assert refused(state, {"type": "edit_character", "id": "alda", "owner": "Ann"}, by=player("alda"))[0] == "auth/forbidden"
    assert refused(state, {"type": "level_up", "id": "alda"}, by=player("alda"))[0] == "auth/forbidden"


def test_concussion_lasts_until_a_week_of_rest():
    # 000, death and dying 16: 'Concussion. All attacks and ability checks at -1 penalty until you rest for 1 week.'
    state = accept_all(reported(begin(ALDA), finding("condition", name="concussion", days=7)))
    assert [(x.name, x.days, x.fight, x.event) for x in char(state, "alda").lasting] == [("concussion", 7, "f1", 5)]
    state = run(state, {"type": "pass_time", "days": 7, "rest": False})  # travelling is no rest
    assert [x.days for x in char(state, "alda").lasting] == [7]
    state = run(state, {"type": "pass_time", "days": 6})
    assert [x.days for x in char(state, "alda").lasting] == [1]
    state = run(state, {"type": "pass_time", "days": 1})
    assert char(state, "alda").lasting == [] and state.day == 14
    assert char(state, "alda").story[-1].text == "Healed: concussion."


def test_broken_collarbone_takes_its_rolled_weeks_or_magical_healing():
    # 000, 15: 'Broken collarbone or arm ... until medical attention/magical healing is received. Takes 1d4+6 weeks to heal.'
    state = accept_all(reported(begin(ALDA), finding("condition", name="broken collarbone", days=(3 + 6) * 7)))
    state = run(state, {"type": "pass_time", "days": 62, "rest": False})  # the weeks run whether resting or not
    assert [x.days for x in char(state, "alda").lasting] == [1]
    healed = run(state, {"type": "heal", "id": "alda", "condition": "broken collarbone"})
    assert char(healed, "alda").lasting == []
    assert char(run(state, {"type": "pass_time", "days": 1, "rest": False}), "alda").lasting == []


def test_head_wound_and_lost_eye_lower_int_and_dex_by_2_for_good():
    # 000, 14: 'INT permanently reduced by 2.'; 13: 'Lose an eye or limb. DEX permanently reduced by 2.'; 12: 'CHA permanently reduced by 2.'
    state = reported(
        begin(ALDA), finding("condition", name="head wound"), finding("condition", name="lost eye or limb", event=9), finding("condition", name="disfigured")
    )
    state = accept_all(state)
    alda = char(state, "alda")
    assert (alda.sheet.int_, alda.sheet.dex, alda.abilities["cha"]) == (12 - 2, 13 - 2, 11 - 2)
    assert [(s.fight, s.event) for s in alda.story] == [("f1", 5), ("f1", 9), ("f1", 5)]
    assert refused(state, {"type": "heal", "id": "alda", "condition": "head wound"})[0] == "campaign/permanent"
    assert char(run(state, {"type": "pass_time", "days": 365}), "alda").sheet.int_ == 10


def test_armor_repaired_for_half_its_cost_until_beyond_repair():
    # 000, ARMOR DAMAGE: 'repaired for 1/2 the original cost'; chain 'beyond repair and MUST be replaced' at 3 POINTS
    state = accept_all(reported(begin(ALDA), finding("armor_damage", value=2)))
    alda = char(state, "alda")
    assert alda.sheet.armor_damage == 2
    repaired = run(state, {"type": "repair_armor", "id": "alda"}, by=player("alda"))
    assert (char(repaired, "alda").sheet.armor_damage, char(repaired, "alda").gear.coin) == (0, 100 - 70 // 2)
    state = accept_all(reported(state, finding("armor_damage", value=3, fight="f2"), fight="f2"))
    code, text = refused(state, {"type": "repair_armor", "id": "alda"}, by=player("alda"))
    assert code == "campaign/beyond-repair" and "MUST be replaced" in text
    replaced = run(state, {"type": "replace_armor", "id": "alda"}, by=player("alda"))
    assert (char(replaced, "alda").sheet.armor_damage, char(replaced, "alda").gear.coin) == (0, 100 - 70)


def test_ac_shown_is_lowered_by_armor_damage_and_a_lost_shield():
    from fray_table.rules.campaign.view import view

    # 000: Chain Mail 15 (+5), Shield +1; each point of armor damage 'victim's AC lowers by 1'
    state = begin(ALDA)
    assert view(state, "gm")["characters"][0]["ac"] == 16
    state = accept_all(reported(state, finding("armor_damage", value=1), finding("shield_lost")))
    assert view(state, "gm")["characters"][0]["ac"] == 14
    assert refused(run(state, {"type": "edit_character", "id": "alda", "gear": {"shield_cost": 10}}), {"type": "replace_shield", "id": "alda"})[0] == (
        "campaign/not-enough-coin"
    )
    state = run(state, {"type": "replace_shield", "id": "alda"}, by=player("alda"))
    assert view(state, "gm")["characters"][0]["ac"] == 15 and char(state, "alda").gear.coin == 90


def test_a_shield_lost_and_replaced_moves_an_untracked_armors_ac_by_1():
    from fray_table.rules.campaign.view import view

    # 000: 'loses his shield (lowering his AC by 1)'; no armor on 000's chart here, so the sheet's own AC moves
    state = begin({**BORS, "sheet": {**BORS["sheet"], "ac": 13, "shield": True}, "gear": {"coin": 10, "shield_cost": 10}})
    state = accept_all(reported(state, finding("shield_lost", character="bors"), characters=("bors",)))
    assert (char(state, "bors").sheet.ac, view(state, "gm")["characters"][0]["ac"]) == (12, 12)
    state = run(state, {"type": "replace_shield", "id": "bors"})
    assert (char(state, "bors").sheet.ac, char(state, "bors").sheet.shield, char(state, "bors").gear.coin) == (13, True, 0)


def test_level_up_offers_improved_options_where_saves_improve():
    # 000: 'Every time you reach a level where your Saving Throws Improve you may choose 1 of these Improvements.'
    state = begin({**ALDA, "sheet": {**ALDA["sheet"], "level": 2}})
    state = run(state, {"type": "level_up", "id": "alda"})  # a fighter's saves improve at 4, not 3
    assert (char(state, "alda").sheet.level, char(state, "alda").offers) == (3, 0)
    assert refused(state, {"type": "choose_improvement", "id": "alda", "option": "cleave"}, by=player("alda"))[0] == "campaign/no-choice"
    state = run(state, {"type": "level_up", "id": "alda"})
    assert (char(state, "alda").sheet.level, char(state, "alda").offers) == (4, 1)
    state = run(state, {"type": "choose_improvement", "id": "alda", "option": "extra_attack"}, by=player("alda"))
    assert char(state, "alda").sheet.improvements == {"extra_attack": 1} and char(state, "alda").offers == 0


def test_extra_attack_only_available_3_times():
    # 000, EXTRA ATTACK: 'Only available 3 times, for a total of 4 attacks per round.'
    state = begin({**ALDA, "sheet": {**ALDA["sheet"], "improvements": {"extra_attack": 3}}})
    state = run(state, {"type": "level_up", "id": "alda", "offer": True})
    code, text = refused(state, {"type": "choose_improvement", "id": "alda", "option": "extra_attack"}, by=player("alda"))
    assert code == "campaign/most-ranks" and "only available 3 times" in text
    state = run(state, {"type": "choose_improvement", "id": "alda", "option": "weapon_expertise", "weapon": "sword"})
    assert char(state, "alda").sheet.expertise == {"sword": 1}


def test_001_wounds_last_until_healed():
    # 001: 'a Serious wound (-3 to attack rolls, etc.)'; 001 gives no time to heal it
    state = accept_all(reported(begin(ALDA), finding("condition", name="serious wound")))
    state = run(state, {"type": "pass_time", "days": 30})
    assert [x.name for x in char(state, "alda").lasting] == ["serious wound"]
    assert char(run(state, {"type": "heal", "id": "alda", "condition": "serious wound"}), "alda").lasting == []


def test_rejected_finding_changes_nothing_on_the_character_and_spent_gear_counts_down():
    state = reported(begin(ALDA), finding("spent", name="oil", value=2), finding("hp", value=3), finding("weapon_broken", name="sword"))
    before = char(state, "alda")
    state = run(state, {"type": "review", "finding": state.findings[1].id, "accept": False})
    assert char(state, "alda") == before and len(state.findings) == 2
    state = accept_all(state)
    alda = char(state, "alda")
    assert (alda.gear.oil, alda.sheet.hp, alda.sheet.weapons[0].broken) == (3 - 2, 12, True)
    assert refused(state, {"type": "review", "finding": "r1", "accept": True})[0] == "campaign/no-such-finding"


def test_the_dead_fight_no_more():
    state = accept_all(reported(begin(ALDA, BORS), finding("died")))
    assert char(state, "alda").dead
    assert refused(state, {"type": "start_fight", "fight": "f2", "characters": ["alda", "bors"]}, by=GM.__class__("system"))[0] == "campaign/dead"
    assert refused(state, {"type": "level_up", "id": "alda"})[0] == "campaign/dead"


def test_a_character_at_0_hp_fights_only_once_healed():
    system = GM.__class__("system")
    state = accept_all(reported(begin(ALDA), finding("hp", value=-3)))
    assert char(state, "alda").sheet.hp == 0  # never below 0 in the campaign
    code, text = refused(state, {"type": "start_fight", "fight": "f2", "characters": ["alda"]}, by=system)
    assert code == "campaign/down" and "Alda (0 HP)" in text
    state = run(state, {"type": "heal", "id": "alda", "hp": 5})
    assert run(state, {"type": "start_fight", "fight": "f2", "characters": ["alda"]}, by=system).fights[-1].fight == "f2"


def test_reports_are_checked_and_once_per_fight():
    state = begin(ALDA, BORS)
    system = GM.__class__("system")
    assert refused(state, {"type": "report_fight", "fight": "f9", "findings": []}, by=system)[0] == "campaign/unknown-fight"
    state = run(state, {"type": "start_fight", "fight": "f1", "characters": ["alda"]}, by=system)
    assert (
        refused(state, {"type": "report_fight", "fight": "f1", "findings": [finding("hp", character="bors", value=1)]}, by=system)[0] == "campaign/bad-finding"
    )
    assert refused(state, {"type": "report_fight", "fight": "f1", "findings": [finding("condition", name="sunburn")]}, by=system)[0] == "campaign/bad-finding"
    assert refused(state, {"type": "report_fight", "fight": "f1", "findings": []}, by=GM)[0] == "auth/forbidden"
    state = run(state, {"type": "report_fight", "fight": "f1", "findings": []}, by=system)
    assert refused(state, {"type": "report_fight", "fight": "f1", "findings": []}, by=system)[0] == "campaign/already-reported"


def test_fold_is_deterministic_and_apply_never_changes_its_argument():
    state = begin(ALDA)
    events = [event({"type": "pass_time", "days": 3}), event({"type": "level_up", "id": "alda"})]
    copy = canonical(state)
    one, two = fold(events, state), fold(events, state)
    assert canonical(state) == copy
    assert one is not None and two is not None and canonical(one) == canonical(two)
    assert one.day == 3 and char(one, "alda").sheet.level == 4


def test_bestiary_monsters_are_checked_replaced_by_name_and_numbered_in_a_fight():
    from fray_table.rules.campaign.bestiary import monsters

    gnoll = {"name": "Gnoll", "side": "monsters", "hd": 2, "ac": 14, "hp": 10, "hp_max": 10, "size": "L", "weapons": [{"name": "battle axe", "damage": "1d8"}]}
    state = run(begin(), {"type": "set_monster", "monster": gnoll, "morale": 8})
    assert [(m.sheet.name, m.sheet.hd, m.sheet.attack_bonus, m.morale) for m in state.bestiary] == [("Gnoll", 2, None, 8)]  # None: 002's table by HD
    assert state.recent[0].text == "The bestiary gains Gnoll (HD 2, AC 14, 10 HP, morale 8)."
    state = run(state, {"type": "set_monster", "monster": {**gnoll, "hp": 12, "hp_max": 12}})
    assert [(m.sheet.hp, m.morale) for m in state.bestiary] == [(12, 0)]  # replaced whole: no morale given
    code, text = refused(state, {"type": "set_monster", "monster": {**gnoll, "size": "XL"}})
    assert code == "campaign/bad-monster" and "'XL'" in text
    code, text = refused(state, {"type": "set_monster", "monster": gnoll, "morale": 13})
    assert (code, text) == ("campaign/bad-monster", "Rejected: a morale score is 2 to 12, not 13.")
    drawn = monsters(state, {"Gnoll": 2})
    assert [(m.name, m.side, m.hidden) for m in drawn] == [("Gnoll 1", "monsters", True), ("Gnoll 2", "monsters", True)]
    assert refused(state, {"type": "remove_monster", "name": "Orc"})[0] == "campaign/no-such-monster"
    assert run(state, {"type": "remove_monster", "name": "Gnoll"}).bestiary == []

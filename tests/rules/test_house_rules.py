"""Profiles are plug-ins: the engine imports none, finds them through the
`fray.profiles` entry points, and a table's own package (tests/house_rules,
installed beside fray-table) plays a fight with no edit to the engine or to any
other profile. Modules of other profiles are taken per encounter."""

import os

import pytest
from imports import imported
from scenes import ADVANCE, NO_SURPRISE, fighter, rejected, texts
from support import ROOT

from fray_table.rules.ruleset import RulesUnavailable, compose, installed
from fray_table.rules.scenario import play

RULES = ROOT / "rules"
PROFILE_PACKAGES = ("holmes", "challenges", "llhouse", "thac0sheet")


def test_the_engine_imports_no_profile():
    """No module of rules/ outside a profile package imports one (DESIGN, 'The rules core')."""
    engine = [p for p in RULES.rglob("*.py") if p.relative_to(RULES).parts[0] not in PROFILE_PACKAGES]
    assert len(engine) > 25
    offenders = {}
    for path in engine:
        hit = [n for n in imported(path) if any(n.startswith(f"fray_table.rules.{p}") for p in PROFILE_PACKAGES)]
        if hit:
            offenders[str(path.relative_to(RULES))] = hit
    assert offenders == {}


def test_the_built_in_profiles_are_found_like_any_other():
    assert {"holmes-phases", "challenges", "ll-house", "thac0-sheet"} <= set(installed())


@pytest.fixture
def house_rules():
    if "house-kicks" not in installed():
        if os.environ.get("CI") == "true":
            pytest.fail("tests/house_rules is not installed: README's second command installs it")
        pytest.skip("tests/house_rules is not installed (pip install ./tests/house_rules)")


def test_a_house_rule_package_plays_a_fight_with_its_chart_and_action(house_rules):
    """The kick: d20 16 + 0 combat bonus + AC 9 (descending of 10) = 25 >= 19 hits; the kick
    chart's d6 5 is '2 damage, knocked prone'."""
    played = play(
        {
            "profile": "house-kicks",
            "dice": [*NO_SURPRISE, 16, 5],
            "combatants": [fighter("alda", "party", x=10, y=10), fighter("gob", "goblins", x=15, y=10)],
            "commands": [{"type": "start"}, {"type": "declare", "actor": "alda", "action": {"type": "house", "name": "kick", "target": "gob"}}, ADVANCE],
        }
    )
    assert "Alda declares: kick Gob." in texts(played, "declare")
    assert texts(played, "kick") == ["Kick chart d6 5: 2 damage, knocked prone."]
    gob = next(c for c in played.state.combatants if c.id == "gob")
    assert gob.hp == 8 and "prone" in gob.conditions


def test_a_house_action_no_rule_of_the_encounter_adds_is_refused(house_rules):
    played = play(
        {
            "dice": NO_SURPRISE,
            "combatants": [fighter("alda", "party"), fighter("gob", "goblins")],
            "commands": [{"type": "start"}, {"type": "declare", "actor": "alda", "action": {"type": "house", "name": "kick", "target": "gob"}}],
        }
    )
    assert rejected(played) == ["declare/not-in-profile"]


MIXED = {"to_hit": "thac0-sheet", "dying": "ll-house", "striking": "thac0-sheet"}


def test_modules_from_three_documents_under_003s_round():
    """002's to-hit (THAC0 12 for a 1-HD monster... 'H = THAC0 - AC'), 000's death and dying
    chart at 0 HP, 002's striking, in 003's round: each decides its own part."""
    rules = compose("holmes-phases", tuple(sorted(MIXED.items())))
    assert {m: source for m, (source, _) in rules.modules.items()} == {
        "to_hit": "thac0-sheet",
        "routine": "holmes-phases",
        "criticals": "holmes-phases",
        "fumbles": "holmes-phases",
        "dying": "ll-house",
        "initiative": "holmes-phases",
        "round": "holmes-phases",
        "striking": "thac0-sheet",
    }
    assert "strike" in rules.actions and "staunch" in rules.actions
    assert {o.name for o in rules.options} >= {"h_floor", "death_chart"}


def test_a_combination_that_cannot_work_is_refused_with_why():
    with pytest.raises(
        RulesUnavailable, match="ll-house's 'routine' cannot be combined with challenges 'to_hit': its extra strikes are rolled on 000's own attack roll"
    ):
        compose("ll-house", (("to_hit", "challenges"),))
    with pytest.raises(RulesUnavailable, match="profile 'challenges' has no module 'dying'"):
        compose("holmes-phases", (("dying", "challenges"),))
    with pytest.raises(RulesUnavailable, match="unknown profile 'gygax'"):
        compose("holmes-phases", (("dying", "gygax"),))


def test_a_fight_under_002s_to_hit_and_000s_dying_in_003s_round():
    """002: 'H = THAC0 - AC' (a 1st-level fighter's THAC0 19, AC 9 descending: H 10; d20 15 >= 10
    hits); 003: 'All hits ... cause 1-6 points of damage' (d6 6); 000's death and dying chart at
    0 HP, d20 10: 'Bleeding out', lasting 1d6 + Con bonus rounds (d6 4)."""
    played = play(
        {
            "modules": {"to_hit": "thac0-sheet", "dying": "ll-house"},
            "options": {"death_chart": "all"},
            "dice": [*NO_SURPRISE, 15, 6, 10, 4],
            "combatants": [
                {"id": "alda", "name": "Alda", "side": "party", "hp": 10, "hp_max": 10, "klass": "fighter", "level": 1, "x": 10, "y": 10},
                {"id": "gob", "name": "Gob", "side": "goblins", "hp": 3, "hp_max": 3, "x": 15, "y": 10},
            ],
            "commands": [{"type": "start"}, {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}}, ADVANCE],
        }
    )
    assert texts(played, "attack") == ["Alda attacks Gob: THAC0 19 - AC 9 = H 10; d20 15 ≥ 10: hit."]
    assert texts(played, "down")[0].startswith("Gob falls: death and dying d20 10: Bleeding out. Lingers 4 round(s)")
    assert played.state.modules == {"to_hit": "thac0-sheet", "dying": "ll-house"}

"""Step and prompt kinds are names in one style (snake_case), each defined once; a prompt's
data are its fields, not its id, and a step's are its fields, not its mode; and a fight
stored before RULES_VERSION 5 (the kinds 'natural-20', 'extra-attack', 'll-strike', the
data packed into the prompt's id) or 7 (a natural_20 step's blow packed into its mode)
still resumes where it stood."""

import re

import msgspec
import pytest
from ll_house_scenes import AXE, act, alda, orc
from ll_house_scenes import fight as ll_fight
from scenes import ADVANCE, NO_SURPRISE, declare, fighter

from fray_table.rules.challenges.natural import unpacked
from fray_table.rules.commands import Answer
from fray_table.rules.events import Actor, Event
from fray_table.rules.model import Step
from fray_table.rules.reducer import apply
from fray_table.rules.ruleset import compose, installed
from fray_table.rules.scenario import play
from fray_table.rules.view import Viewer, view

SNAKE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")


def test_every_step_and_prompt_kind_is_snake_case_and_the_former_names_map_to_present_ones():
    for name in installed():
        rules = compose(name)
        former = {old: new for _, m in rules.modules.values() for old, new in m.former.items()}
        for kind in set(rules.steps) | set(rules.prompts):
            assert kind in former or SNAKE.match(kind), f"{name}: {kind!r}"
        for old, new in former.items():
            assert SNAKE.match(new) and (rules.steps.get(old) or rules.prompts.get(old)) in (rules.steps.get(new), rules.prompts.get(new))
    assert {"natural-20": "natural_20", "extra-attack": "extra_attack"}.items() <= {
        o: n for _, m in compose("challenges").modules.values() for o, n in m.former.items()
    }.items()


def answered(state, choice: str):
    return apply(state, Event(id="a", by=Actor("gm"), command=Answer(awaiting=state.awaiting.id, choice=choice)))


# 000: 'The orc hits the fighter, rolls 6 Damage. The fighter wants to sacrifice his shield and
# rolls a 3. The orc's damage of 6-3=3 damage.'
SACRIFICE = dict(dice=[16, 6, 3], combatants=[alda(klass="fighter", level=1, ac=16, shield=True, hp=10, hp_max=10), orc(weapons=[AXE])])


def test_a_prompts_data_are_its_fields_and_stay_out_of_the_view():
    played = ll_fight(act("orc", type="attack", target="alda"), **SACRIFICE)
    waiting = played.state.awaiting
    assert (waiting.kind, waiting.attacker, waiting.target, waiting.points, waiting.effect) == ("shield_sacrifice", "orc", "alda", 6, "")
    for viewer in (Viewer("gm"), Viewer("player", ("alda",))):
        shown = msgspec.to_builtins(view(played.state, viewer).awaiting)
        assert shown == {"id": waiting.id, "who": "alda", "kind": "shield_sacrifice", "prompt": waiting.prompt, "options": ["sacrifice", "keep"]}


def test_a_sacrifice_prompt_stored_before_version_5_resumes_from_its_id():
    played = ll_fight(act("orc", type="attack", target="alda"), **SACRIFICE)
    new = played.state.awaiting
    old = msgspec.structs.replace(played.state, awaiting=msgspec.structs.replace(new, attacker="", target="", points=0, effect=""))
    assert msgspec.json.encode(old.awaiting) == msgspec.json.encode(view(played.state, Viewer("gm")).awaiting)  # the old shape
    for state in (played.state, old):
        after = answered(state, "sacrifice")
        assert "Alda sacrifices the shield: 1d4 3; 6 - 3 = 3 damage." in [e.text for e in after.recent]
        assert next(c for c in after.combatants if c.id == "alda").hp == 7 and after.awaiting is None


def natural_20():
    # 001: a natural 20 asks 'take the Attack Result, or a normal Hit plus an immediate extra attack'.
    return play(
        {
            "profile": "challenges",
            "dice": [*NO_SURPRISE, 20, 4],
            "combatants": [
                fighter("alda", "party", dex=14, x=10, y=10, attack_bonus=-5),
                fighter("gob", "goblins", ac=15, hp=30, hp_max=30, dex=9, x=15, y=10),
            ],
            "commands": [{"type": "start"}, declare("alda", {"type": "attack", "target": "gob"}), ADVANCE],
        }
    )


def test_a_natural_20_stored_with_the_kinds_of_version_4_resumes():
    played = natural_20()
    state = played.state
    assert state.awaiting.kind == "natural_20" and state.steps[0].kind == "natural_20"
    old = msgspec.structs.replace(
        state,
        awaiting=msgspec.structs.replace(state.awaiting, kind="natural-20"),
        steps=[msgspec.structs.replace(state.steps[0], kind="natural-20"), *state.steps[1:]],
    )
    now, then = answered(state, "result"), answered(old, "result")
    assert [e.text for e in then.recent] == [e.text for e in now.recent]
    assert any(e.text.startswith("Gob takes") for e in now.recent)
    assert [c.hp for c in then.combatants] == [c.hp for c in now.combatants]


def natural_20_called_and_parried():
    # 001: 'Any roll of "20" on the die: Take the result above OR a normal Hit plus gain an
    # immediate extra attack'. With 003's called shot and parry (001 is silent on them):
    # d20 20 + 10 - 5 called shot - 4 parry - AC 15 = +6, 'A strong Hit for +4 points of damage
    # that also inflicts a Serious wound'. Then the sword's d6 3, the called shot's d6 2, and the
    # extra attack's d20 4.
    return play(
        {
            "profile": "challenges",
            "dice": [*NO_SURPRISE, 20, 3, 2, 4],
            "combatants": [
                fighter("alda", "party", dex=14, x=10, y=10, attack_bonus=10),
                fighter("gob", "goblins", ac=15, hp=30, hp_max=30, dex=9, x=15, y=10),
            ],
            "commands": [
                {"type": "start"},
                declare("alda", {"type": "attack", "target": "gob", "called_shots": 1}),
                declare("gob", {"type": "parry"}),
                ADVANCE,
            ],
        }
    ).state


TAKEN = {
    "result": [
        "Alda takes the Attack Result +6: A strong Hit for +4 points of damage that also inflicts a Serious wound.",
        "Gob takes 9 damage (1d6 rolled 3 + 1d6 called shots 2 = 5, +4 strong Hit), 21 HP left.",
        "Gob suffers a Serious wound (-3 to attack rolls and saves); now serious wound -3.",
    ],
    "extra": [
        "Alda takes a normal Hit and an extra attack: A normal Hit plus gain an immediate extra attack.",
        "Gob takes 5 damage (1d6 rolled 3 + 1d6 called shots 2 = 5), 25 HP left.",
        "Alda gains an immediate extra attack on Gob.",
        "Alda makes an extra attack on Gob: d20 4 + 10 attack bonus - 4 parry - AC 15 = Attack Result -5: Miss, no other effect.",
    ],
}


@pytest.mark.parametrize("choice", sorted(TAKEN))
def test_a_natural_20_step_holds_its_blow_and_the_choice_in_fields(choice):
    state = natural_20_called_and_parried()
    assert state.steps[0] == Step(
        phase="attack", actor="alda", kind="natural_20", target="gob", weapon=0, mode="attack", attack_result=6, called_shots=1, parry=4
    )
    assert "take the Attack Result +6 ('A strong Hit for +4 points of damage that also inflicts a Serious wound')" in state.awaiting.prompt
    after = answered(state, choice)
    assert [e.text for e in after.recent][: len(TAKEN[choice])] == TAKEN[choice]
    assert after.awaiting is None and all(s.kind != "natural_20" for s in after.steps)


# A natural_20 step as a state stored before RULES_VERSION 7 held it (an undo's restore
# carries one): no fields of its blow, all of it packed into its mode.
PACKED = msgspec.msgpack.encode({"phase": "attack", "actor": "alda", "kind": "natural_20", "target": "gob", "weapon": 0, "mode": "attack 6 1 4"})


@pytest.mark.parametrize("choice", sorted(TAKEN))
def test_a_natural_20_step_packed_into_its_mode_before_version_7_resolves_the_same(choice):
    state = natural_20_called_and_parried()
    packed = msgspec.msgpack.decode(PACKED, type=Step)
    assert (packed.attack_result, packed.called_shots, packed.parry, packed.choice) == (0, 0, 0, "")  # the new fields' defaults
    old = msgspec.structs.replace(state, steps=[packed, *state.steps[1:]])
    now, then = answered(state, choice), answered(old, choice)
    assert [e.text for e in then.recent] == [e.text for e in now.recent] and TAKEN[choice][0] in [e.text for e in then.recent]
    assert msgspec.json.encode(then.combatants) == msgspec.json.encode(now.combatants)
    assert then.steps == now.steps and then.awaiting is None


def test_a_packed_natural_20_step_reads_as_the_fields_and_a_new_one_is_left_as_it_is():
    chose = msgspec.structs.replace(msgspec.msgpack.decode(PACKED, type=Step), mode="attack 6 1 4 extra")  # answered, not yet resolved
    assert unpacked(chose) == Step(
        phase="attack", actor="alda", kind="natural_20", target="gob", weapon=0, mode="attack", attack_result=6, called_shots=1, parry=4, choice="extra"
    )
    shot = Step(phase="attack", actor="alda", kind="natural_20", target="gob", mode="shot", attack_result=-2)
    assert unpacked(shot) is shot

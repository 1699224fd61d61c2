"""Each crash kind the random fights of tests/rules/test_machine.py found (issue 11), as the
sequence that showed it: the command now resolves without a `rules/bug` and says what
happened instead."""

from scenes import ADVANCE, declare, fighter, started, texts, who
from test_safety import EDITED_AWAY

from fray_table.rules.reducer import BUG
from fray_table.rules.scenario import play
from fray_table.rules.view import legal_actions


def bugs(played) -> list[str]:
    return [e.text for e in played.log if e.code == BUG]


def test_the_issues_fight_withdraws_the_declaration_whose_weapon_the_gm_took_away():
    """Issue 11, point 1: Alda declares with weapon 1 (the dagger), the GM leaves her the
    sword alone, `advance`. The edit withdraws the declaration, saying why, and the round
    resolves (before: IndexError in combat.strike)."""
    played = play(EDITED_AWAY)
    assert bugs(played) == []
    assert "Alda's declaration (attack Gob) is withdrawn: Alda has no weapon number 1." in texts(played, "declare")
    assert played.state.round == 2 and played.state.phase == "declaration"
    assert who(played, "gob").hp == 10  # nobody struck with a weapon that is not there


def test_a_withdrawn_declaration_may_be_made_again_and_the_view_offers_what_is_left():
    """While declarations are open the player declares again; the view (legal_actions)
    reads the edited weapons (before: IndexError in melee.weapon_index on a charge with
    weapon 3 after an edit left one weapon)."""
    spear = {"name": "spear", "length": 8, "reach": 10, "polearm": True}
    played = started(
        [fighter("alda", "party", x=10, y=10, weapons=[{"name": "sword"}, {"name": "dagger"}, spear]), fighter("gob", "goblins", x=20, y=10)],
        declare("alda", {"type": "charge", "target": "gob", "weapon": 2}),
        {"type": "edit_combatant", "id": "alda", "weapons": [{"name": "sword"}]},
    )
    assert bugs(played) == []
    assert [d.actor for d in played.state.declarations] == []
    offered = {ch.type: ch.options.get("weapon") for ch in legal_actions(played.state)["alda"]}
    assert offered["charge"] == [0]
    again = started(
        [fighter("alda", "party", x=10, y=10, weapons=[{"name": "sword"}, spear]), fighter("gob", "goblins", x=20, y=10)],
        declare("alda", {"type": "set_spear", "weapon": 1}),
        {"type": "edit_combatant", "id": "alda", "weapons": [{"name": "sword"}]},
        declare("alda", {"type": "hold"}),
        ADVANCE,
    )
    assert bugs(again) == []
    assert "Alda's declaration (set a spear against a charge) is withdrawn: Alda has no weapon number 1." in texts(again, "declare")
    assert "Alda declares: hold." in texts(again, "declare") and again.state.round == 2


def test_removing_the_combatant_a_prompt_waits_on_drops_the_prompt_and_the_round_goes_on():
    """A parry's counter-attack offer (Gob's light dagger against Alda's missed sword) waits on Gob; the GM removes Gob, then an answer
    comes (before: KeyError in context.find). The prompt is dropped with a line, the
    round ends, and the late answer is refused as not awaited."""
    fight = {
        "dice": [5, 6, 3],
        "combatants": [
            fighter("alda", "party", x=10, y=10, dex=12),
            fighter("gob", "goblins", x=15, y=10, dex=8, weapons=[{"name": "dagger", "weight": 1, "length": 1}]),
        ],
        "commands": [{"type": "start"}, declare("alda", {"type": "attack", "target": "gob"}), declare("gob", {"type": "parry"}), ADVANCE],
    }
    waiting = play(fight).state.awaiting
    assert waiting is not None and waiting.who == "gob" and waiting.kind == "riposte"
    fight["commands"] += [{"type": "remove_combatant", "id": "gob"}, {"type": "answer", "awaiting": waiting.id, "choice": "counter"}]
    played = play(fight)
    assert bugs(played) == []
    assert f"No answer is awaited any more ({waiting.prompt}): Gob left the fight." in texts(played, "setup")
    assert played.state.awaiting is None and played.state.phase == "declaration" and played.state.round == 2
    assert [e.code for e in played.log if e.kind == "rejected"] == ["answer/not-awaited"]


def test_oil_and_a_torch_at_one_already_burning_feeds_the_fire():
    """Found by the ll-house machine: a flask with a torch thrown at a combatant already
    burning (before: ValueError in oil.torch, no oil to light: the flask does not splash
    one already burning). Main's rules/holmes/oil.py (branch docpoints) answers it its own way (the
    torch finds no unlit oil); either way no rule fails and the victim burns on, once."""
    played = started(
        [fighter("alda", "party", x=10, y=10), fighter("gob", "goblins", x=20, y=10, conditions=["burning"])],
        declare("alda", {"type": "throw_oil", "target": "gob"}),
        ADVANCE,
        dice=[20, 20, 6, 6],
    )
    assert bugs(played) == []
    assert any("Gob" in t for t in texts(played, "oil"))
    assert who(played, "gob").conditions.count("burning") == 1


def test_a_combatant_of_two_max_hp_wakes_with_at_most_two():
    """The random ll-house fight that ended 4 HP of 2: 000's 'wakes up ... with 1d4HP' rolled
    4 for a combatant whose maximum is 2. It wakes at its maximum."""
    knocked_out = {"type": "edit_combatant", "id": "alda", "hp": 0, "down": True, "conditions": ["unconscious"], "until": {"unconscious": 1}}
    played = started([fighter("alda", "party", hp_max=2, hp=2), fighter("gob", "goblins")], knocked_out, ADVANCE, dice=[4], profile="ll-house")
    assert bugs(played) == []
    assert "Alda wakes up with 2 HP." in texts(played, "wake")
    assert (who(played, "alda").hp, who(played, "alda").down) == (2, False)

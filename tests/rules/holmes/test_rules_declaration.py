"""Declarations (003): the formal procedure in reversed INT order, sealed declarations,
and delaying an action to a later phase."""

from scenes import ADVANCE, declare, fighter, rejected, started

from fray_table.rules.view import Viewer, view

ALDA = fighter("alda", "party", dex=14, int=14, x=0, y=0)
OGRE = fighter("ogre", "ogres", dex=8, int=6, ac=10, x=5, y=0)


def run(*commands, dice=(), combatants=(ALDA, OGRE), options=None):
    return started(combatants, *commands, dice=dice, options=options)


ALDA_HITS = declare("alda", {"type": "attack", "target": "ogre"}, "player:alda")


def test_formal_declarations_lowest_int_first():
    # 003: 'this occurs in reversed Intelligence order': the INT 6 ogre before INT 14 Alda.
    played = run(ALDA_HITS, options={"formal_declarations": True})
    assert rejected(played) == ["declare/not-your-turn"]
    assert [e.text for e in played.log if e.kind == "rejected"] == ["Rejected: Ogre declares first (reversed INT order)."]
    assert view(played.state, Viewer("gm")).awaited == ["ogre", "alda"]


def test_formal_declarations_take_the_next_in_turn():
    played = run(declare("ogre", {"type": "hold"}), ALDA_HITS, options={"formal_declarations": True})
    assert rejected(played) == []
    assert view(played.state, Viewer("gm")).awaited == []


def test_informal_declarations_any_order():
    assert rejected(run(ALDA_HITS)) == []


def test_sealed_declarations_hidden_from_the_other_side():
    played = run(declare("ogre", {"type": "attack", "target": "alda"}))  # sealed_declarations is on by default
    theirs = view(played.state, Viewer("player", ("alda",))).declarations
    assert [(d.actor, d.text, d.type) for d in theirs] == [("ogre", "has declared", None)]
    mine = view(played.state, Viewer("gm")).declarations
    assert [(d.text, d.type) for d in mine] == [("attack Alda", "attack")]
    entry = next(e for e in played.log if e.kind == "declare")
    assert entry.audience == "side:ogres"


def test_sealed_declarations_seen_by_their_own_side():
    goblin = fighter("gob", "ogres", x=10, y=0)
    played = run(declare("ogre", {"type": "attack", "target": "alda"}), combatants=(ALDA, OGRE, goblin))
    ally = view(played.state, Viewer("player", ("gob",))).declarations
    assert [(d.text, d.type) for d in ally] == [("attack Alda", "attack")]
    assert [d.text for d in view(played.state, Viewer("spectator")).declarations] == ["has declared"]


def test_unsealed_declarations_seen_by_all():
    played = run(declare("ogre", {"type": "attack", "target": "alda"}), options={"sealed_declarations": False})
    theirs = view(played.state, Viewer("player", ("alda",))).declarations
    assert [(d.text, d.type) for d in theirs] == [("attack Alda", "attack")]
    assert next(e for e in played.log if e.kind == "declare").audience == "all"


def test_delay_attack_to_the_movement_phase():
    # 003: 'It is possible, but usually pointless, to delay actions to another phase
    # (eg. attacking in the movement or magic phases)': Alda's attack waits for the movement
    # phase, where DEX 14 still goes before the DEX 8 ogre's move.
    played = run(
        declare("alda", {"type": "attack", "target": "ogre", "delay": "movement"}),
        declare("ogre", {"type": "move", "x": 5, "y": 5}),
        ADVANCE,
        dice=[2],
    )
    order = [e.text for e in played.log if e.kind in ("phase", "move", "attack", "declare")]
    assert order[0] == "Alda declares: attack Ogre (delayed to the movement phase)."
    assert order[2:5] == ["Movement phase.", "Alda attacks Ogre: d20 2 + 0 combat bonus + AC 9 = 11 < 19: miss.", "Ogre moves to (5, 5)."]


def test_delay_only_to_a_later_phase():
    played = run(
        declare("ogre", {"type": "move", "x": 5, "y": 5, "delay": "attack"}), declare("alda", {"type": "attack", "target": "ogre", "delay": "declaration"})
    )
    assert rejected(played) == ["declare/bad-delay", "declare/bad-delay"]


def test_delay_offered_in_choices():
    actions = {ch.type: ch for ch in view(run().state, Viewer("gm")).actions["alda"]}
    assert actions["attack"].options["delay"] == ["", "movement", "magic"]
    assert actions["move"].options["delay"] == ["", "magic"]
    assert "delay" not in actions["hold"].options

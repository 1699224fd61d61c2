"""A declaration's optional `tactic` (a bot's, fray_table.client.bot): shown in the log,
checked for plain words, and left out of the stored command when empty, so a stored
declaration reads and folds as it did before the field."""

import msgspec
from scenes import declare, fighter, rejected, started

from fray_table.rules.actions import Attack
from fray_table.rules.commands import Declare
from fray_table.rules.events import Actor, Event, encode_event

ALDA = fighter("alda", "party", dex=14, x=0, y=0)
GOB = fighter("gob", "goblins", dex=8, x=5, y=0)


def attack(tactic: str | None, who: str = "gm") -> dict:
    command = declare("gob", {"type": "attack", "target": "alda"}, who)
    return command if tactic is None else {**command, "tactic": tactic}


def test_tactic_declaration_is_marked_in_the_log():
    played = started((ALDA, GOB), attack("nearest, flee at 50%"))
    assert rejected(played) == []
    assert [e.text for e in played.log if e.kind == "declare"] == ["Gob (tactics: nearest, flee at 50%) declares: attack Alda."]


def test_declaration_without_tactic_reads_as_before():
    played = started((ALDA, GOB), attack(None))
    assert [e.text for e in played.log if e.kind == "declare"] == ["Gob declares: attack Alda."]


def test_tactic_name_must_be_plain_words():
    for bad in ("<b>x</b>", "x" * 41, "   "):
        played = started((ALDA, GOB), attack(bad))
        assert rejected(played) == ["declare/bad-tactic"], bad
        assert not [e for e in played.log if e.kind == "declare"]


def test_declaration_without_tactic_is_stored_byte_for_byte_as_before():
    plain = Event("1", Actor("gm"), Declare(actor="gob", action=Attack(target="alda")))
    stored = msgspec.msgpack.decode(encode_event(plain))
    assert "tactic" not in stored["command"]
    assert stored["command"] == {"type": "declare", "actor": "gob", "action": msgspec.msgpack.decode(msgspec.msgpack.encode(Attack(target="alda")))}
    marked = msgspec.msgpack.decode(encode_event(Event("1", Actor("gm"), Declare(actor="gob", action=Attack(target="alda"), tactic="nearest"))))
    assert marked["command"]["tactic"] == "nearest"

"""The pages take the game's words from the server (issue 11: 'the client takes its words from
the server'): 003's morale results and the conditions a GM sets by hand are defined once in
the rules and served with each profile by GET /api/profiles; client_web keeps no copy."""

import httpx
import pytest
from scenes import fighter, started, who
from support import ROOT

from fray_table.rules.charts.morale import MORALE, MORALE_TEXT
from fray_table.rules.profiles import catalogue
from fray_table.rules.view import Viewer, view
from fray_table.rules.words import SET_BY_HAND

CLIENT = ROOT / "client_web"


def test_every_profile_serves_003s_morale_words_and_the_conditions():
    for name, listed in catalogue().items():
        assert listed["words"]["morale"] == MORALE_TEXT, name
        assert listed["words"]["conditions"] == list(SET_BY_HAND), name
    assert set(MORALE_TEXT) == {result for _, result in MORALE}  # a word for each row of 003's chart


def test_the_gm_views_morale_result_reads_as_the_log_reads_it():
    """003's morale chart: '9-11 | Press for advantage'. A 2d6 of 5 + 4 = 9 presses; the GM's view
    holds the result, and the served words give the log's own words for it."""
    played = started([fighter("alda", "party"), fighter("gob", "goblins")], {"type": "call_morale", "side": "goblins"}, dice=[5, 4])
    line = next(e.text for e in played.log if e.kind == "morale")
    assert line == "Gob checks morale (called by the GM): 2d6 5+4 = 9: presses for advantage."
    shown = next(c for c in view(played.state, Viewer("gm")).combatants if c.id == "gob")
    assert (shown.morale, who(played, "gob").morale) == ("press", "press")
    assert line.endswith(f": {catalogue()['holmes-phases']['words']['morale'][shown.morale]}.")


def test_the_client_keeps_no_copy_of_the_words():
    """No page script spells a morale result or holds its own list of conditions."""
    scripts = {p.name: p.read_text() for p in CLIENT.glob("*.js")}
    for words in [*MORALE_TEXT.values(), "presses the attack", "fights with redoubled effort"]:
        assert [name for name, text in scripts.items() if f'"{words}"' in text] == [], words
    assert [name for name, text in scripts.items() if '"oiled"' in text or "CONDITIONS" in text] == []


@pytest.mark.redis
def test_get_api_profiles_serves_the_words(fray_server):
    served = httpx.get(f"{fray_server.url}/api/profiles", timeout=10).json()
    assert served["challenges"]["words"]["morale"]["press"] == "presses for advantage"
    assert served["thac0-sheet"]["words"]["conditions"] == list(SET_BY_HAND)


def test_every_prompt_of_every_module_has_its_answers_in_sentences():
    """Each prompt a module makes (its `prompts`) has its answers in sentences (its `answers`),
    served to every page: a fight may take modules of several profiles."""
    from fray_table.rules.ruleset import installed

    served = catalogue()["holmes-phases"]["words"]["answers"]
    assert all(listed["words"]["answers"] == served for listed in catalogue().values())
    for profile in installed().values():
        for module in profile.modules:
            for kind in module.prompts:
                assert module.answers.get(kind), f"{profile.name}'s {module.name}: prompt {kind!r} has no answers in words"
                assert served[kind] == dict(module.answers[kind])
    # 003's counter-attack, 000's shield sacrifice, 001's natural 20 and its extra attack
    assert served["riposte"]["counter"] == "Counter-attack once"
    assert served["shield_sacrifice"]["sacrifice"] == "Sacrifice the shield (it shatters)"
    assert served["natural_20"]["extra"] == "A normal hit, and an extra attack now"
    assert served["extra_attack"]["{combatant}"] == "Attack {name}"
    scripts = "".join(p.read_text() for p in CLIENT.glob("*.js"))
    for sentences in served.values():
        for sentence in sentences.values():
            assert sentence not in scripts, sentence  # no page keeps its own copy

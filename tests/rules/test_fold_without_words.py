"""A fold without the log's words (rules.reducer.folding(narrated=False), what the
simulator folds with): every state on the way is the narrated fold's, byte for byte,
but for the log lines, of which the refusals alone are left. No rule reads the log,
and a rule that leaves out working out a line's words (`if ctx.narrated:`) leaves
out nothing else: a roll skipped would move every die after it."""

import hashlib

import msgspec
import pytest
from golden.record import FIGHTS, load
from support import ROOT

from fray_table.rules.events import decode_event
from fray_table.rules.reducer import canonical, folding
from fray_table.rules.scenario import play
from fray_table.server.cli import scenario_data
from fray_table.server.demo import combatants
from fray_table.server.simulate import fight, plans_from, run_seed
from fray_table.server.tactics import standing_sides

SCENARIOS = sorted((ROOT / "docs" / "scenarios").glob("*.toml"))
PLANS = [  # the default tactic; the weakest foe, fleeing; focused fire with the rules' options
    {},
    {"party": {"tactic": "weakest", "flee_at": 0.5}, "goblins": {"tactic": "weakest", "flee_at": 0.5}},
    {side: {"tactic": "focus", "options": True} for side in ("party", "goblins", "monsters", "pirates", "crew", "orcs", "bandits")},
]


def same_but_words(events, start) -> tuple[int, int]:
    """Fold `events` from `start` with and without words, side by side; the events
    folded and the lines the narrated fold wrote."""
    events, lines = list(events), 0
    narrated, quiet = folding(events, start), folding(events, start, narrated=False)
    for n, (told, bare) in enumerate(zip(narrated, quiet, strict=True)):
        assert bare.recent == [e for e in told.recent if e.kind == "rejected"], n
        lines += len(told.recent)
        assert canonical(msgspec.structs.replace(bare, recent=[])) == canonical(msgspec.structs.replace(told, recent=[])), n
    return len(events), lines


@pytest.mark.parametrize("name", sorted(FIGHTS))
def test_every_golden_fight_folds_to_the_same_states_without_words(name):
    """The recorded fights of every profile and module: oil, grapples, morale, the unseen, undo."""
    events, lines = same_but_words((decode_event(p) for p in load(name)), None)
    assert events > 5 and lines > events  # a fight with words to leave out


@pytest.mark.parametrize("path", [None, *SCENARIOS], ids=lambda p: p.stem if p else "demo")
def test_the_simulators_fights_fold_to_the_same_states_without_words(path):
    start = play(scenario_data(path) if path else {"combatants": combatants()}).state
    seed = hashlib.sha256(b"words").digest()
    sides, folded = {c.side for c in start.combatants}, 0
    for which, spec in enumerate(PLANS):
        plans = plans_from({side: plan for side, plan in spec.items() if side in sides})
        for i in range(8):
            played: list = []
            end = fight(start, run_seed(seed, 10 * which + i), plans, 30, played)
            state = msgspec.structs.replace(start, seed=end.seed, forced=[], entered=[], recent=[])
            events, lines = same_but_words(played, state)
            assert events == end.seq - start.seq and lines >= events
            folded += events
    assert folded >= 8 * len(PLANS) or len(standing_sides(start)) <= 1  # (a scenario may stop where one side is left)

"""Random fights against the reducer, one state machine per profile (issue 11, Deliver 3).

Each machine plays a random command sequence through the reducer the way the server
does (an `undo` is stored as the `restore` rules.history computes for it): combatants
with varied figures and weapons, declarations picked from the view's legal actions and
some made up, edits of every figure between declarations and `advance`, removals
while a prompt is pending, answers good and bad, undos with and without rewind,
forced dice, morale calls, and commands after `end`. After every step:

- no rule failed (no `rules/bug` rejection: each one is a crash kind to fix);
- apply() left the state it was given as it was;
- folding the whole stream again from scratch gives the same canonical bytes;
- every combatant's HP is at most its maximum;
- every rejection carries a namespaced code;
- every viewer's view and log can be built.

Bounded and reproducible: derandomized, no example database. FRAY_MACHINE_EXAMPLES
plays more examples (a deeper local search); hypothesis prints the failing sequence.
"""

import os
import re

import msgspec
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from fray_table.rules import actions as actions_module
from fray_table.rules.charts import thac0
from fray_table.rules.commands import Command, Undo
from fray_table.rules.events import Event
from fray_table.rules.history import resolve
from fray_table.rules.model import Combatant
from fray_table.rules.profiles import PROFILES
from fray_table.rules.reducer import BUG, apply, canonical, check, fold
from fray_table.rules.scenario import Scenario, actor, events_of
from fray_table.rules.view import Viewer, legal_actions, log_for, view

EXAMPLES = int(os.environ.get("FRAY_MACHINE_EXAMPLES", "12"))
STEPS = 40
CODE = re.compile(r"^[a-z0-9_-]+/[a-z0-9_-]+$")

# The action structs by wire tag, to fill a legal choice's required fields.
ACTIONS = {
    cls.__struct_config__.tag: cls
    for cls in vars(actions_module).values()
    if isinstance(cls, type) and issubclass(cls, actions_module.ActionBase) and cls is not actions_module.ActionBase
}

STRIKING = {
    "attack",
    "charge",
    "shoot",
    "throw_oil",
    "grapple",
    "kill",
    "shield_bash",
    "two_weapons",
    "strike",
    "wrestle",
    "board",
    "staunch",
    "set_spear",
    "parry",
}
PROFILE_ONLY = {f.name for p in PROFILES.values() for f in p.figures}

# --- strategies: figures, weapons, edits -------------------------------------------

W = dict
WEAPONS = [
    W(name="sword", damage="1d8"),
    W(name="dagger", damage="1d4", length=1, weight=1),
    W(name="thrown dagger", damage="1d4", length=1, weight=1, range=30, missile="dagger"),
    W(name="spear", damage="1d6", length=8, weight=3, reach=10, polearm=True),
    W(name="halberd", damage="1d10", length=10, weight=6, reach=10, polearm=True, hands=2),
    W(name="bow", damage="1d6", range=150, missile="bow", hands=2),
    W(name="sling", damage="1d4", range=100, missile=""),
    W(name="club", damage="1d4", material="wood", length=2, weight=2),
    W(name="axe", damage="1d6+1", material="bronze", bonus=1),
    W(name="broken sword", broken=True),
    W(name="dropped mace", dropped=True),
]
weapons = st.lists(st.sampled_from(WEAPONS), min_size=1, max_size=4)
CONDITIONS = [
    "prone",
    "disarmed",
    "burning",
    "oiled",
    "helpless",
    "pinned",
    "stunned",
    "knocked out",
    "knocked down",
    "bleeding out",
    "unconscious",
    "asleep",
    "grappled",
    "fled",
    "surrendered",
    "dead",
    "whatever",
]
grid = st.integers(0, 3).map(lambda n: n * 5)  # close: most are within reach of most


def rarely(common, rare):
    """`common`, and once in ten draws `rare` (one_of would take each half the time)."""
    return st.integers(0, 9).flatmap(lambda k: rare if k == 0 else common)


def known(ids: list[str]):
    return rarely(st.sampled_from(ids), st.just("ghost")) if ids else st.just("ghost")


def figure_values(fig, ids: list[str], wild: bool):
    """Values for one profile figure: within its bounds, and if `wild` sometimes beyond."""
    if fig.kind == "bool":
        return st.booleans()
    if fig.kind == "str":
        return st.sampled_from(fig.choices or ("", "x"))
    if fig.kind == "combatant":
        return rarely(st.sampled_from(["", *ids]), st.just("nobody")) if wild else st.sampled_from(["", *ids])
    low = -5 if fig.low is None else fig.low
    high = (low + 30) if fig.high is None else fig.high
    number = st.integers(low, min(high, low + 40))
    if wild:
        number = rarely(number, st.sampled_from([low - 1, high + 1]))
    if fig.kind == "dict":
        names = fig.choices or ("sword", "dagger", "bow")
        return st.dictionaries(st.sampled_from(names), number, max_size=2)
    return number


def profile_figures(profile: str, ids: list[str], wild: bool = False):
    figs = (*PROFILES[profile].common_figures, *PROFILES[profile].figures)
    return st.fixed_dictionaries({}, optional={f.name: figure_values(f, ids, wild) for f in figs})


def combatants(profile: str, ids: list[str], side=None):
    hp_max = st.integers(1, 12)
    return st.tuples(
        hp_max,
        st.integers(1, 12),
        profile_figures(profile, ids),
        st.fixed_dictionaries(
            {
                "name": st.sampled_from(["Alda", "Bran", "Gob", "Ukk", "Snag"]),
                "side": st.sampled_from(["party", "goblins", "orcs"]) if side is None else st.just(side),
                "ac": st.integers(8, 18),
                "attack_bonus": st.one_of(st.none(), st.integers(-1, 4)),
                "dex": st.integers(3, 18),
                "x": grid,
                "y": grid,
                "move": st.sampled_from([0, 30, 60, 120]),
                "weapons": weapons,
            },
            optional={
                "hidden": st.booleans(),
                "shield": st.booleans(),
                "conditions": st.lists(st.sampled_from(CONDITIONS), max_size=2),
                "klass": st.sampled_from(thac0.CLASSES),
                "pc": st.booleans(),
            },
        ),
    ).map(lambda t: {"hp_max": t[0], "hp": min(t[0], t[1]), **t[2], **t[3]})


def edits(profile: str, ids: list[str]):
    """An edit of a few figures, any of them, sensible or not."""
    return st.fixed_dictionaries(
        {},
        optional={
            "hp": st.integers(-3, 14),
            "hp_max": rarely(st.integers(1, 14), st.just(0)),
            "ac": st.integers(5, 20),
            "weapons": weapons,
            "hidden": st.booleans(),
            "down": st.booleans(),
            "conditions": st.lists(st.sampled_from(CONDITIONS), max_size=3),
            "x": grid,
            "y": grid,
            "dex": st.integers(1, 20),
            "move": st.sampled_from([0, 60, 120]),
            "side": st.sampled_from(["party", "goblins"]),
            "shield": st.booleans(),
            "attack_bonus": st.one_of(st.none(), st.integers(-2, 5)),
        },
    ).flatmap(lambda common: profile_figures(profile, ids, wild=True).map(lambda own: {**own, **common}))


def option_values(profile: str):
    """Some of the profile's options drawn from their choices (strings without choices stay as they are)."""
    drawn = {}
    for o in PROFILES[profile].options:
        if isinstance(o.default, bool):
            drawn[o.name] = st.booleans()
        elif o.choices:
            drawn[o.name] = st.sampled_from(o.choices)
    return st.fixed_dictionaries({}, optional=drawn)


# --- the machine ---------------------------------------------------------------------


class Fight(RuleBasedStateMachine):
    profile = "holmes-phases"
    modules: dict[str, str] = {}

    def __init__(self) -> None:
        super().__init__()
        self.events: list[Event] = []
        self.state = None
        self.n = 0

    # The reducer's way in, as rules.scenario.play and the server do it.
    def send(self, raw: dict, who: str = "gm") -> None:
        self.n += 1
        command = msgspec.convert(raw, Command)
        event = Event(f"m{self.n}", actor(who), command)
        if isinstance(command, Undo) and check(self.state, event) is None:
            event = resolve(self.events, event)
        before = canonical(self.state)
        new = apply(self.state, event)
        assert canonical(self.state) == before, "apply() changed the state it was given"
        self.events.append(event)
        self.state = new
        for entry in new.recent:
            assert entry.code != BUG, f"{entry.text} (after {raw})"
            if entry.kind == "rejected":
                assert entry.code and CODE.match(entry.code), entry

    def ids(self) -> list[str]:
        return [c.id for c in self.state.combatants]

    @initialize(data=st.data(), seed=st.text(min_size=1, max_size=8))
    def create(self, data, seed) -> None:
        options = data.draw(option_values(self.profile))
        for event in events_of(Scenario(profile=self.profile, options=options, seed=seed, modules=self.modules)):
            self.state = apply(self.state, event)
            self.events.append(event)
        assert self.state.modules == self.modules
        for side in ("party", "goblins", None):  # two sides at least: a fight that can start
            drawn = data.draw(combatants(self.profile, self.ids(), side))
            self.send({"type": "add_combatant", "combatant": drawn})
            if self.state.recent[-1].kind == "rejected":  # figures that do not go together: a plain one
                plain = {k: v for k, v in drawn.items() if k in Combatant.__struct_fields__ and k not in PROFILE_ONLY}
                self.send({"type": "add_combatant", "combatant": plain})
        self.end_after = data.draw(st.integers(25, 70))
        if data.draw(st.integers(0, 3)):  # mostly into the fight at once; else from setup
            self.send({"type": "start"})

    @precondition(lambda self: len(self.state.combatants) < 7)
    @rule(data=st.data())
    def add(self, data) -> None:
        self.send({"type": "add_combatant", "combatant": data.draw(combatants(self.profile, self.ids()))})

    @rule(data=st.data())
    def edit(self, data) -> None:
        target = data.draw(known(self.ids()))
        self.send({"type": "edit_combatant", "id": target, **data.draw(edits(self.profile, self.ids()))})

    @rule(data=st.data())
    def remove(self, data) -> None:
        # Most often the one a pending prompt is about, or one with a declaration.
        about = [self.state.awaiting.who] if self.state.awaiting and self.state.awaiting.who != "gm" else []
        declared = [d.actor for d in self.state.declarations]
        self.send({"type": "remove_combatant", "id": data.draw(known([*about, *about, *declared, *self.ids()]))})

    @precondition(lambda self: self.state.status != "running")
    @rule()
    def start(self) -> None:
        self.send({"type": "start"})

    @rule(data=st.data(), as_player=st.booleans())
    def declare_legal(self, data, as_player) -> None:
        legal = legal_actions(self.state)
        if not legal:
            return self.declare_random(data, as_player)
        self.declare_one(data, legal, data.draw(st.sampled_from(sorted(legal))), as_player)

    def declare_one(self, data, legal, cid: str, as_player: bool) -> None:
        """One of the actions the view offers `cid`, an attack of some kind half the time."""
        striking = [ch for ch in legal[cid] if ch.type in STRIKING and ch.targets]
        choice = data.draw(
            rarely(st.sampled_from(legal[cid]), st.sampled_from(legal[cid]))
            if not striking
            else st.one_of(st.sampled_from(striking), st.sampled_from(legal[cid]))
        )
        fields = {f.encode_name: f for f in msgspec.structs.fields(ACTIONS[choice.type])}
        action = {"type": choice.type}
        if choice.targets and "target" in fields:
            action["target"] = data.draw(st.sampled_from(choice.targets))
        for name, values in choice.options.items():
            if name in fields and values:
                action[name] = data.draw(st.sampled_from(values))
        for name, f in fields.items():  # required fields the choice gives no list for
            if name not in action and f.required:
                action[name] = data.draw(grid) if name in ("x", "y") else data.draw(st.sampled_from(["web", "wand", ""]))
            elif name in ("x", "y") and name not in action and data.draw(st.booleans()):
                action[name] = data.draw(grid)
        self.send({"type": "declare", "actor": cid, "action": action}, f"player:{cid}" if as_player else "gm")

    @rule(data=st.data(), edit=st.booleans())
    def play_round(self, data, edit) -> None:
        """A whole round: everyone offered a declaration makes one, the GM perhaps edits
        someone, and the round is advanced."""
        legal = legal_actions(self.state)
        for cid in sorted(legal):
            if cid in legal_actions(self.state):
                self.declare_one(data, legal_actions(self.state), cid, data.draw(st.booleans()))
        if edit and self.ids():
            self.edit(data)
        self.send({"type": "advance"})

    @rule(data=st.data(), as_player=st.booleans())
    def declare_random(self, data, as_player) -> None:
        kind = data.draw(st.sampled_from(sorted(ACTIONS)))
        fields = msgspec.structs.fields(ACTIONS[kind])
        action = {"type": kind}
        for f in fields:
            if f.required or data.draw(st.booleans()):
                if f.name == "target":
                    action[f.encode_name] = data.draw(known(self.ids()))
                elif f.name in ("weapon", "off_hand", "shots", "called_shots"):
                    action[f.encode_name] = data.draw(st.integers(-1, 5))
                elif f.name in ("x", "y"):
                    action[f.encode_name] = data.draw(st.integers(-5, 40))
                elif f.type is bool:
                    action[f.encode_name] = data.draw(st.booleans())
                else:
                    action[f.encode_name] = data.draw(st.sampled_from(["", "attack", "movement", "magic", "short", "half", "hard", "web"]))
        cid = data.draw(known(self.ids()))
        try:
            cmd = {"type": "declare", "actor": cid, "action": action}
            msgspec.convert(cmd, Command)
        except msgspec.ValidationError:
            return  # the wire refuses it before the reducer (tests/server/test_fuzz.py covers that)
        self.send(cmd, f"player:{cid}" if as_player else "gm")

    # Declaring and advancing are most of a fight: more rules for them, drawn more often.
    @rule(data=st.data(), as_player=st.booleans())
    def declare_again(self, data, as_player) -> None:
        self.declare_legal(data, as_player)

    @rule(data=st.data(), as_player=st.booleans())
    def declare_more(self, data, as_player) -> None:
        self.declare_legal(data, as_player)

    @rule()
    def advance(self) -> None:
        self.send({"type": "advance"})

    @rule()
    def advance_again(self) -> None:
        self.send({"type": "advance"})

    @precondition(lambda self: self.state.awaiting is not None)
    @rule(data=st.data(), good=st.booleans())
    def answer(self, data, good) -> None:
        awaiting = self.state.awaiting
        choice = data.draw(st.sampled_from(awaiting.options)) if good and awaiting.options else data.draw(st.sampled_from(["", "nope", "7"]))
        prompt = awaiting.id if good or data.draw(st.booleans()) else "stale"
        who = "gm" if awaiting.who == "gm" or data.draw(st.booleans()) else f"player:{awaiting.who}"
        self.send({"type": "answer", "awaiting": prompt, "choice": choice}, who)

    @precondition(lambda self: self.state.seq > 1)
    @rule(data=st.data(), rewind=st.booleans())
    def undo(self, data, rewind) -> None:
        seq = data.draw(st.one_of(st.integers(self.state.seq - 6, self.state.seq - 1), st.integers(0, self.state.seq + 1)))
        self.send({"type": "undo", "seq": max(0, seq), "rewind": rewind})

    @rule(values=st.lists(st.sampled_from([1, 2, 3, 5, 6, 10, 11, 15, 19, 20]), min_size=1, max_size=6))
    def force_rolls(self, values) -> None:
        self.send({"type": "force_rolls", "values": values})

    @rule(data=st.data(), modifier=st.integers(-3, 3))
    def call_morale(self, data, modifier) -> None:
        if data.draw(st.booleans()):
            self.send({"type": "call_morale", "combatant": data.draw(known(self.ids())), "modifier": modifier})
        else:
            self.send({"type": "call_morale", "side": data.draw(st.sampled_from(["party", "goblins", "orcs", "none"])), "modifier": modifier})

    @precondition(lambda self: self.n >= self.end_after)
    @rule()
    def end(self) -> None:
        self.send({"type": "end"})

    @invariant()
    def holds(self) -> None:
        if self.state is None:
            return
        for c in self.state.combatants:
            assert c.hp <= c.hp_max, f"{c.id}: HP {c.hp} of {c.hp_max}"
        assert canonical(fold(self.events)) == canonical(self.state), "a second fold gave other bytes"
        legal_actions(self.state)
        viewers = [Viewer("gm"), Viewer("spectator")] + [Viewer("player", (cid,)) for cid in self.ids()]
        for viewer in viewers:
            view(self.state, viewer)
            log_for(self.state.recent, self.state, viewer)


def machine(profile: str, modules: dict[str, str] | None = None):
    name = profile.replace("-", "_") + "".join(f"_{m}_{p.replace('-', '_')}" for m, p in sorted((modules or {}).items()))
    cls = type(f"Fight_{name}", (Fight,), {"profile": profile, "modules": modules or {}})
    cls.TestCase.settings = settings(
        max_examples=EXAMPLES,
        stateful_step_count=STEPS,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    return cls.TestCase


TestHolmesPhases = machine("holmes-phases")
TestChallenges = machine("challenges")
TestThac0Sheet = machine("thac0-sheet")
TestLlHouse = machine("ll-house")
# Natural 20s and 1s taken from another profile: 000's chart and fumble table on 003's roll, and back.
TestHolmesWithLlHouseNaturals = machine("holmes-phases", {"criticals": "ll-house", "fumbles": "ll-house"})
TestLlHouseWithHolmesNaturals = machine("ll-house", {"criticals": "holmes-phases", "fumbles": "holmes-phases"})
# 001's chart in 003's round, with its wounds and without (its wound clause left off), and 002's striking and wrestling beside 003's roll.
TestHolmesWith001Chart = machine("holmes-phases", {"to_hit": "challenges", "initiative": "challenges"})
TestHolmesWith001ChartAndWounds = machine("holmes-phases", {"to_hit": "challenges", "wounds": "challenges"})
TestHolmesWith002Striking = machine("holmes-phases", {"striking": "thac0-sheet", "wrestling": "thac0-sheet"})

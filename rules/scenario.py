"""Scenarios: a fight as data (profile, options, seed or forced dice, combatants,
commands), played through the same reducer as the server, with no I/O.

See docs/scenarios.md for the format. `fray run FILE` reads a file and calls `play`.
"""

import hashlib

import msgspec
from msgspec import Struct

from . import RULES_VERSION
from .commands import AddCombatant, Command, CreateEncounter, ForceRolls, Restore, Undo
from .errors import Rejected
from .events import Actor, Event
from .history import resolve
from .model import Combatant, Encounter, Entry
from .reducer import apply, check
from .setup import check_create

MAX_COMMANDS = 10_000


class Scenario(Struct, forbid_unknown_fields=True):
    profile: str = "holmes-phases"
    options: dict[str, int | bool | str] = {}
    modules: dict[str, str] = {}  # module -> the profile it is taken from (rules.ruleset.compose)
    seed: str = "fray"
    dice: list[int] = []
    combatants: list[Combatant] = []
    commands: list[dict] = []
    title: str = ""
    # The rules version the fight is created with: today's, or an earlier kept one to play
    # a fight as its table did (rules.ruleset.kept; DESIGN, 'Versions of the rules').
    rules_version: int = RULES_VERSION


class Played(Struct):
    state: Encounter
    log: list[Entry]
    events: list[Event]


def actor(spec: str) -> Actor:
    """'gm' | 'spectator' | 'player:alda,bran'"""
    role, _, who = spec.partition(":")
    if role not in ("gm", "player", "spectator"):
        raise ValueError(f"'as' must be gm, spectator or player:<ids>, not {spec!r}")
    return Actor(role=role, name=spec, combatants=tuple(x for x in who.split(",") if x))


def events_of(scenario: Scenario) -> list[Event]:
    if len(scenario.commands) > MAX_COMMANDS:
        raise ValueError(f"a scenario holds at most {MAX_COMMANDS} commands")
    seed = hashlib.sha256(scenario.seed.encode()).digest()
    gm = Actor("gm", "gm")
    create = CreateEncounter(
        id="scenario", profile=scenario.profile, seed=seed, rules_version=scenario.rules_version, options=scenario.options, modules=scenario.modules
    )
    try:
        check_create(create)  # a refused creation is the scenario's fault, named as the others are
    except Rejected as r:
        raise ValueError(f"scenario: {r.message}") from None
    events = [Event("create", Actor("system"), create)]
    events += [Event(f"add-{i}", gm, AddCombatant(c)) for i, c in enumerate(scenario.combatants)]
    if scenario.dice:
        events.append(Event("dice", gm, ForceRolls(values=scenario.dice)))
    for i, raw in enumerate(scenario.commands):
        raw = dict(raw)
        by = actor(raw.pop("as", "gm"))
        try:
            command = msgspec.convert(raw, Command)
        except msgspec.ValidationError as e:
            raise ValueError(f"command {i + 1} ({raw.get('type', '?')}): {e}") from None
        if isinstance(command, Restore):  # as on the wire: only the server writes one
            raise ValueError(f"command {i + 1} (restore): send 'undo'; its restore is computed")
        events.append(Event(f"cmd-{i + 1}", by, command))
    return events


def load(data: dict) -> Scenario:
    try:
        return msgspec.convert(data, Scenario)
    except msgspec.ValidationError as e:
        raise ValueError(f"scenario: {e}") from None


def play(data: dict | Scenario) -> Played:
    scenario = data if isinstance(data, Scenario) else load(data)
    events = events_of(scenario)
    state = None
    log: list[Entry] = []
    for i, event in enumerate(events):
        if isinstance(event.command, Undo) and state is not None and check(state, event) is None:
            event = events[i] = resolve(events[:i], event)  # as the server does: a restore in its place
        state = apply(state, event)
        log.extend(state.recent)
    assert state is not None
    return Played(state=state, log=log, events=events)

"""An encounter's rules: its profile's record and the modules it takes from others.

DESIGN, 'The rules core': the engine knows no rule document. A profile hands it
one record (`Profile`) of what it decides, in named modules (`Module`): each
fills some of the round's seams (`HOOKS`, and the lists and tables below) and
brings its actions, prompts and end-of-round rules. A profile builds on a base
(`holmes-phases`, 003, whose round every profile keeps): the modules it does
not name are its base's. An encounter's rules are its profile's modules, any of
them replaced by the module of the same name from another profile, chosen at
creation and fixed in the first event (`CreateEncounter.modules`).
`rules_of(state)` gives the merged record that every seam of the round reads:
no seam names a profile.

Versions (DESIGN, 'Versions of the rules: history never changes'): a fight folds
forever under the rules version of its first event. A profile's record lists, per
version, the modules in force: its `modules` are those of the first kept version,
and each `Revision` replaces some of them from its version on. A changed rule is a
new module (most often the old one with one hook replaced: `revised`) beside the old
one, which stays for the fights made before it. `compose` takes the version as it
takes the modules, so no rule ever asks which version it runs under.

Profiles are found through the `fray.profiles` entry-point group (the built-in
ones are registered there like any table's own package: pyproject.toml), so a
house rule is a package of its own. Reading the installed packages' metadata is
the one thing here that looks outside its arguments: it is done once, and what
it finds only says which rules exist, never how a fight goes.
"""

import dataclasses
import functools
from collections.abc import Callable, Mapping
from importlib import metadata
from typing import TYPE_CHECKING, Any, NamedTuple

from . import FIRST_KEPT_VERSION, RULES_VERSION
from .model import Encounter

GROUP = "fray.profiles"


class ActionRules(NamedTuple):
    """One action, as its module holds it (DESIGN: 'An action is one record too'): its words
    in the log, its resolution, its check, its choice in the view and the phase it resolves
    in. Declarations, the step queue and the view reach every action through this record
    alone, 003's like any profile's; the command shape is its class in rules.actions."""

    describe: Callable[[Encounter, Any], str]  # (state, action) -> how its declaration reads
    resolve: Callable[..., None]  # (ctx, actor, action, step)
    check: Callable[..., None] | None = None  # (state, actor, action): raises Rejected, changes nothing
    # (state, combatant, targets) -> the view.Choice fields it offers now, or None; `targets`
    # are hook `targets`' ids. An action without one is offered by its module's `choices`, if at all.
    choices: Callable[..., dict | None] | None = None
    # The phase its one step resolves in; None: the steps its class lists (Shoot.steps), or
    # none at all (a stance: hold, parry).
    phase: str | None = None
    # (action) -> the weapon indices it names, read when the GM's edit takes weapons away;
    # None: its `weapon`, if it has one (000's two_weapons names its off hand too).
    weapons: Callable[[Any], list[int]] | None = None


Added = ActionRules  # the name a table's package may already use: Added(describe, resolve)


# The seams a module may fill with one function, and what each decides. Every one
# has holmes-phases' (003) function, so each is always there.
HOOKS = {
    "melee_roll": "an attack roll that can be made, to its damage (rules.holmes.combat.strike)",
    "shot": "a missile at its target, once picked out of a melee (rules.holmes.ranged.shoot)",
    "bare_roll": "a bare attack roll: oil, a torch, a missile under some profiles -> (hit, d20) (rules.holmes.tohit.roll_to_hit)",
    "combat_bonus": "the figure a combatant adds to its d20 (rules.holmes.fighters.combat_bonus)",
    "routine": "the strikes a declared attack makes (rules.holmes.combat.attack)",
    "fall": "what happens to a combatant at 0 HP or less (rules.holmes.damage.fall)",
    "order": "the order in which combatants act in each phase (rules.round.plan)",
    "declaration_order": "the order declarations are asked in under option formal_declarations: (combatants) -> combatants (rules.declare)",
    "surprise": "who is surprised as the fight starts: (ctx) (rules.resolve.start)",
    "armor_class": "the AC the armor a combatant wears gives it, or None to keep its own (rules.setup)",
    "arrange": "the round's queue once declarations close, reordered or added to in place: (state) (rules.resolve.advance)",
    "targets": "whom a combatant's choices may name, foes first: (state, combatant) -> ids (rules.view)",
    # Natural 20s and 1s: the to_hit decides when a roll is one (its crit range, whether it hits),
    # the criticals and fumbles modules what it does (rules.holmes.damage.critical).
    "critical": "what a critical hit does to its blow, before the damage: (ctx, attacker, target, weapon, kind) -> Critical",
    "critical_effect": "a critical's effect once its damage has landed: (ctx, attacker, target, effect)",
    "fumble": "what a fumble (a natural 1 that misses) does: (ctx, attacker, target, weapon, kind)",
    # The GM's undo (rules.undo): its own line, then what this hook says of the combatants it
    # changed, given them as they were before it: (ctx, before) (rules.undo.tell_changes).
    "undone": "what an undo says of the combatants it changed: (ctx, {id: combatant before}) (rules.undo)",
    # Rules version 8: whether a natural 20 hits whatever the AC is the criticals module's, which
    # says so (000's chart, by its option; 003's: never), asked by 003's roll and 000's (version 7's
    # 000's roll reads its own option, whatever the criticals module).
    "natural_20_hits": "whether a roll in the crit range hits whatever the AC: (state) -> bool (rules.holmes.criticals.never_by_itself)",
    # Asked by 003's roll, so that a module may bring its own parry and shield to it (000's
    # maneuvers from rules version 8; every module of version 7 leaves 003's).
    "parry": "a parry against a melee strike: its term put before the AC in `mods` -> (the parrying weapon, if a disarm or counter may follow, and the penalty): (state, target, mods, melee) (rules.holmes.terms.parry_term)",
    "land": "a hit's damage, rolled, coming off its target, then its critical's effect: (ctx, attacker, target, points, shown, effect, mode) (rules.holmes.tohit.lands)",
}

# The kinds of blow a critical or fumble comes on, as the hooks are told them.
MELEE, MISSILE, SUBDUE = "melee", "missile", "subdue"


class Critical(NamedTuple):
    """What a critical hit does to the blow it comes on (hook `critical`); each to_hit rolls
    its damage with it. The default is nothing more than a hit."""

    extra: tuple[tuple[str, int], ...] = ()  # extra d6s, each named: ('natural 20', 1)
    times: int | str = 1  # the damage multiplied, or 'max': every die at its highest
    effect: str = ""  # once the damage has landed, passed back to hook `critical_effect`
    settled: bool = False  # the critical settled the blow itself, with no damage roll (an automatic kill)


@dataclasses.dataclass(frozen=True)
class Module:
    """A part of a profile's rules, named for what the documents decide."""

    name: str  # 'to_hit', 'dying', 'maneuvers', 'striking', ...
    help: str  # what it decides, in the document's words
    hooks: Mapping[str, Callable] = dataclasses.field(default_factory=dict)  # HOOKS it fills
    actions: Mapping[str, ActionRules] = dataclasses.field(default_factory=dict)  # action tag -> its record
    prompts: Mapping[str, Callable] = dataclasses.field(default_factory=dict)  # awaiting kind -> what resumes it
    # awaiting kind -> each answer as a person reads it (the pages' buttons); '{combatant}': the
    # sentence for an answer that is a combatant's id, its name put for '{name}'
    answers: Mapping[str, Mapping[str, str]] = dataclasses.field(default_factory=dict)
    # a choice's option -> its words on the pages' forms, {'label': ..., 'help': ...}, where the
    # option's name alone would mislead (003's grapple: 'target_unwilling')
    labels: Mapping[str, Mapping[str, str]] = dataclasses.field(default_factory=dict)
    steps: Mapping[str, Callable] = dataclasses.field(default_factory=dict)  # step kind -> its handler
    # command tag -> (check(state, cmd), perform(ctx, cmd)): the commands of the wire vocabulary
    # (rules.commands) whose rule is a profile's (003's call_morale)
    commands: Mapping[str, tuple[Callable, Callable]] = dataclasses.field(default_factory=dict)
    # the kinds its steps and prompts had in fights stored before they were renamed: old -> new
    # (compose gives each old name the new one's handler, so a stored queue or prompt resumes)
    former: Mapping[str, str] = dataclasses.field(default_factory=dict)
    stops_acting: tuple[str, ...] = ()  # conditions that stop a combatant acting
    check_figures: tuple[Callable, ...] = ()  # (combatant, code): every card passes each
    check_declaration: tuple[Callable, ...] = ()  # (state, actor, action): every declaration passes each
    choices: tuple[Callable, ...] = ()  # (state, combatant, choices) -> choices: what it offers
    round_end: tuple[Callable, ...] = ()  # (ctx): its end-of-round rules, after the base's
    options: tuple[str, ...] = ()  # the names of its profile's options its rules read
    needs: tuple[str, ...] = ()  # its profile's other modules it cannot work without
    decides: tuple[str, ...] = ()  # modules whose part it decides itself: none may come from elsewhere
    # the profiles whose to_hit its actions are rolled on (their rolls ask the hooks it fills);
    # empty: any. Another profile's to_hit is refused with `why`.
    rolled_on: tuple[str, ...] = ()
    why: str = ""  # why, in a sentence, when `needs` or `decides` is not met


def revised(module: Module, **changes: Any) -> Module:
    """`module` with some of its parts replaced, hooks, actions, steps and prompts merged
    over its own: a rule changed for new fights is a new module beside the old one.
    `revised(m, hooks={"bare_roll": new_roll})` keeps every other hook of `m`."""
    merged: dict[str, Any] = {name: {**getattr(module, name), **value} if name in _MERGED else value for name, value in changes.items()}
    return dataclasses.replace(module, **merged)


_MERGED = ("hooks", "actions", "prompts", "answers", "labels", "steps", "commands", "former")


@dataclasses.dataclass(frozen=True)
class Revision:
    """What changed in a profile's rules at a rules version, for fights created with it or
    later (or moved to it by the GM's upgrade_rules): its modules replace the profile's
    modules of the same names. The fights made before keep the modules they had."""

    version: int
    modules: tuple[Module, ...]
    why: str  # what changed and where it is ruled (docs/rulings.md)


@dataclasses.dataclass(frozen=True)
class Profile:
    """One rule document's record, as the engine takes it."""

    name: str
    document: str
    title: str
    ac_style: str  # 'descending' or 'ascending': how the player is shown AC
    options: tuple  # rules.profiles.Option: every option an encounter of this profile has
    figures: tuple = ()  # rules.profiles.Figure: what its rules read of a combatant beyond the common ones
    common_figures: tuple = ()
    modules: tuple[Module, ...] = ()
    base: str = ""  # the profile whose modules fill what this one does not name
    version: int = 1  # raised when an outcome of its rules changes
    # From each revision's version on, its modules replace those of the same names
    # (`modules` are the first kept version's). In ascending order of version.
    revisions: tuple[Revision, ...] = ()


@dataclasses.dataclass(frozen=True)
class Rules:
    """An encounter's rules, merged: what every seam reads (`rules_of`)."""

    profile: Profile
    modules: Mapping[str, tuple[str, Module]]  # module name -> (the profile it comes from, the module)
    hooks: Mapping[str, Callable]
    actions: Mapping[str, ActionRules]
    offers: tuple[Callable, ...]  # the actions' own `choices`, in the order the view lists them
    prompts: Mapping[str, Callable]
    steps: Mapping[str, Callable]
    commands: Mapping[str, tuple[Callable, Callable]]
    stops_acting: tuple[str, ...]
    check_figures: tuple[Callable, ...]
    check_declaration: tuple[Callable, ...]
    choices: tuple[Callable, ...]
    round_end: tuple[Callable, ...]
    options: tuple  # the options an encounter with these rules has (Option)
    stopping: frozenset[str] = frozenset()  # stops_acting as a set (filled in by __post_init__)

    def __post_init__(self) -> None:
        # Each hook is an attribute of its own, rules.melee_roll(ctx, ...): read on the
        # reducer's every step, so a plain attribute, not a lookup through __getattr__.
        for name, hook in self.hooks.items():
            object.__setattr__(self, name, hook)
        object.__setattr__(self, "stopping", frozenset(self.stops_acting))  # stops_acting as a set, for rules.round.may_act

    if TYPE_CHECKING:  # each hook is set in __post_init__; for a type checker, any name is one
        # (Not at run time: a class with __getattr__ has every attribute read go the slow
        # way, and the rules' are read on every step: 1.6% of a simulated fight.)
        def __getattr__(self, name: str) -> Any: ...


class RulesUnavailable(ValueError):
    """A profile or module that is not installed, or a combination that cannot work."""


@functools.cache
def installed() -> Mapping[str, Profile]:
    """Every profile of the `fray.profiles` entry points, by name."""
    found: dict[str, Profile] = {}
    for point in sorted(metadata.entry_points(group=GROUP), key=lambda p: p.name):
        profile = point.load()
        if not isinstance(profile, Profile) or profile.name != point.name:
            raise RuntimeError(f"entry point {point.name!r} of {GROUP} ({point.value}) is not the Profile named {point.name!r}")
        found[point.name] = profile
    return found


def profile(name: str) -> Profile:
    profiles = installed()
    if name not in profiles:
        raise RulesUnavailable(f"unknown profile {name!r}; installed: {', '.join(sorted(profiles))}")
    return profiles[name]


def kept(version: int) -> int:
    """The rules version a fight of `version` folds under: its own, or for a fight made
    by a pre-release version before any was kept, the first kept one. Raises
    RulesUnavailable for a version this code does not know (a newer release's)."""
    if version > RULES_VERSION:
        raise RulesUnavailable(f"this fight's rules version is {version}; this Fray knows versions {FIRST_KEPT_VERSION} to {RULES_VERSION}")
    return max(version, FIRST_KEPT_VERSION)


def modules_at(p: Profile, version: int) -> tuple[Module, ...]:
    """The profile's own modules in force at `version`: its first ones, each replaced by
    the latest revision at or before `version` that names it."""
    if not p.revisions:
        return p.modules
    modules = {m.name: m for m in p.modules}
    for revision in p.revisions:
        if revision.version <= version:
            modules.update({m.name: m for m in revision.modules})
    return tuple(modules.values())


def _chain(p: Profile, version: int) -> dict[str, tuple[str, Module]]:
    """The profile's modules over its base's, its base's over theirs."""
    merged = _chain(profile(p.base), version) if p.base else {}
    return {**merged, **{m.name: (p.name, m) for m in modules_at(p, version)}}


@functools.lru_cache(maxsize=256)
def compose(name: str, chosen: tuple[tuple[str, str], ...] = (), version: int = RULES_VERSION) -> Rules:
    """The rules of profile `name` at rules version `version` (a kept one: `kept`) with the
    modules `chosen` ((module, profile) pairs) from other profiles, each replacing the
    module of that name or added beside the others. Raises RulesUnavailable with a
    sentence naming what is wrong."""
    base = profile(name)
    modules = _chain(base, version)
    for module, source in chosen:
        theirs = {m.name: m for m in modules_at(profile(source), version)}
        if module not in theirs:
            raise RulesUnavailable(f"profile {source!r} has no module {module!r}; its modules: {', '.join(theirs) or 'none'}")
        modules[module] = (source, theirs[module])
    for module, (source, m) in modules.items():
        for need in m.needs:
            if modules.get(need, ("",))[0] != source:
                raise RulesUnavailable(f"{_whose(source)} {module!r} cannot be combined with {modules[need][0] if need in modules else 'no'} {need!r}: {m.why}")
    for module, (source, m) in modules.items():
        if m.rolled_on and modules["to_hit"][0] not in m.rolled_on:
            raise RulesUnavailable(f"{_whose(source)} {module!r} cannot be combined with {_whose(modules['to_hit'][0])} 'to_hit': {m.why}")
    for module, (source, m) in modules.items():
        # A module that decides another's part itself (001's chart, its own natural 1 and 20)
        # takes that module as its own profile has it, where it is never called.
        native = _chain(profile(source), version)
        for part in m.decides:
            if modules.get(part) != native.get(part):
                raise RulesUnavailable(f"{_whose(source)} {module!r} cannot be combined with {_whose(modules[part][0])} {part!r}: {m.why}")
    parts = [m for _, m in modules.values()]
    own = {o.name for o in base.options}
    borrowed = {o.name: o for module, source in chosen for o in profile(source).options if o.name in modules[module][1].options and o.name not in own}
    return Rules(
        profile=base,
        modules=modules,
        hooks=_hooks(base, modules, version),
        actions=(actions := {k: v for m in parts for k, v in m.actions.items()}),
        offers=tuple(a.choices for a in actions.values() if a.choices is not None),
        prompts=_with_former({k: v for m in parts for k, v in m.prompts.items()}, parts),
        steps=_with_former({k: v for m in parts for k, v in m.steps.items()}, parts),
        commands={k: v for m in parts for k, v in m.commands.items()},
        stops_acting=tuple(dict.fromkeys(x for m in parts for x in m.stops_acting)),
        check_figures=tuple(f for m in parts for f in m.check_figures),
        check_declaration=tuple(f for m in parts for f in m.check_declaration),
        choices=tuple(f for m in parts for f in m.choices),
        round_end=tuple(dict.fromkeys(f for m in parts for f in m.round_end)),  # once, where first named
        options=(*base.options, *borrowed.values()),  # two modules may read one option
    )


def _with_former(handlers: dict[str, Callable], parts: list[Module]) -> dict[str, Callable]:
    """The handlers by kind, each also under the names its kind had before (Module.former)."""
    return {**handlers, **{old: handlers[new] for m in parts for old, new in m.former.items() if new in handlers}}


def _whose(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _root(p: Profile) -> Profile:
    return _root(profile(p.base)) if p.base else p


def _hooks(p: Profile, modules: Mapping[str, tuple[str, Module]], version: int) -> dict[str, Callable]:
    """Each module's hooks over those of the root profile's module of its name (003's):
    a module fills the hooks it changes and leaves the rest as the round has them."""
    root = {m.name: m.hooks for m in modules_at(_root(p), version)}
    hooks: dict[str, Callable] = {}
    for name, (_, m) in modules.items():
        hooks.update({**root.get(name, {}), **m.hooks})
    missing = set(HOOKS) - set(hooks)
    if missing:
        raise RuntimeError(f"the rules of {p.name!r} fill no {', '.join(sorted(missing))}: its root profile must fill every hook")
    return hooks


# A profile's own rules, by rules version and name: the common case, read without compose's cache key.
_PLAIN: dict[int, dict[str, Rules]] = {}
_NONE: dict[str, Rules] = {}


def rules_of(state: Encounter) -> Rules:
    """The encounter's rules, as fixed in its first event (and moved on only by the GM's
    upgrade_rules): its profile, its modules and its rules version."""
    if not state.modules:
        rules = _PLAIN.get(state.rules_version, _NONE).get(state.profile)
        if rules is None:
            rules = _PLAIN.setdefault(state.rules_version, {})[state.profile] = compose(state.profile, (), kept(state.rules_version))
        return rules
    return compose(state.profile, tuple(sorted(state.modules.items())), kept(state.rules_version))


@functools.cache
def owner_of_action(kind: str) -> str | None:
    """The installed profile whose module adds the action `kind`, if any."""
    return next((p.name for p in installed().values() for m in p.modules if kind in m.actions), None)

"""The machinery of options and figures: how a profile declares them (`Option`, `Figure`),
checks them (`check_declared`, `validate_options`) and lists them (`catalogue`); the
installed profiles by name (their records: rules.ruleset). Each profile declares its own
options and figures in its package (rules.holmes.options, rules.llhouse.options...), once;
the engine declares only the options it reads itself (`PROCEDURE`).

A profile changes how steps resolve (to-hit, damage, criticals, death), never
the shape of the round, which is always that of 003.
"""

import functools
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec
from msgspec import Struct

from . import ready, ruleset, words
from .errors import Rejected
from .model import Combatant


class Option(Struct, frozen=True):
    name: str
    default: int | bool | str
    help: str
    choices: tuple[int | bool | str, ...] = ()
    # (value) -> raises ValueError naming the fault: a check beyond `choices`, the declaring
    # profile's (003's weapon_saves). Not part of the catalogue.
    parse: Any = None


class Figure(Struct, frozen=True):
    """A combatant figure a profile's rules read beyond 003's: the GM console's form is built from these."""

    name: str  # the field of Combatant and EditCombatant
    label: str  # in the document's words
    kind: str  # 'int' | 'bool' | 'str' | 'combatant' (an id, or '') | 'dict' (a name -> a whole number)
    help: str
    default: int | bool | str | dict[str, int]  # the Combatant field's default
    choices: tuple[str, ...] = ()  # 'str': its values; 'dict': the names it takes (none: any name)
    low: int | None = None  # bounds of an 'int', and of each number of a 'dict', as the figure checks hold them
    high: int | None = None


_DEFAULTS = {
    f.name: f.default_factory() if f.default is msgspec.NODEFAULT else f.default
    for f in msgspec.structs.fields(Combatant)
    if f.default is not msgspec.NODEFAULT or f.default_factory is not msgspec.NODEFAULT
}


def check_declared(c: Combatant, figures: Iterable[Figure], code: str) -> None:
    """Each figure within the bounds and choices its declaration gives (the one place they
    are written); a profile's own checks add only what relates one figure to another."""
    for f in figures:
        value = getattr(c, f.name)
        if f.kind == "int" and not ((f.low is None or f.low <= value) and (f.high is None or value <= f.high)):
            raise Rejected(code, f"{f.name} {value}{_label(f)} is outside {_bounds(f)}")
        if f.kind == "str" and f.choices and value not in f.choices:
            raise Rejected(code, f"{f.name} {value!r}{_label(f)} must be one of {', '.join(repr(x) for x in f.choices)}")
        if f.kind == "dict":
            for key, n in value.items():
                if f.choices and key not in f.choices:
                    raise Rejected(code, f"{f.name}: {key!r} must be one of {', '.join(f.choices)}")
                if not (f.low is None or f.low <= n) or not (f.high is None or n <= f.high):
                    raise Rejected(code, f"{f.name}: {key} {n} is outside {_bounds(f)}")


def _label(f: Figure) -> str:
    return "" if f.label == f.name else f" ({f.label})"


def _bounds(f: Figure) -> str:
    return f"{'' if f.low is None else f.low}..{'' if f.high is None else f.high}"


def figure(name: str, label: str, kind: str, help: str, **more) -> Figure:
    return Figure(name, label, kind, help, _DEFAULTS[name], **more)


# The options the engine itself reads: the table's procedure around any profile's rules
# (the order declarations are asked in, who sees them, where dice are rolled). Every
# profile's option list takes them (rules.holmes.options.COMMON puts them after weapon_damage).
PROCEDURE = (
    Option("formal_declarations", False, "Declarations are taken in reversed INT order, lowest first (003)."),
    Option("sealed_declarations", True, "Nobody outside a side sees its declarations until all are in."),
    Option(
        "reveal_when_acting",
        True,
        "An unseen combatant is revealed when it acts against another side's (a strike, a shot, a grapple...); off, only the GM reveals it.",
    ),
    Option(
        "physical_dice",
        "off",
        "Dice rolled at the table: each one is asked of the acting combatant's player "
        "(`players`: combatants marked pc; `all`: every step, the GM for monsters) and entered.",
        ("off", "players", "all"),
    ),
)


class _Installed(Mapping):
    """The installed profiles' records by name (rules.ruleset.installed), read when first used."""

    def __getitem__(self, name: str) -> ruleset.Profile:
        return ruleset.installed()[name]

    def __iter__(self):
        return iter(ruleset.installed())

    def __len__(self) -> int:
        return len(ruleset.installed())


PROFILES: Mapping[str, ruleset.Profile] = _Installed()


@functools.cache
def naming_figures() -> frozenset[str]:
    """The figures that hold another combatant's id (`aboard`, `held_by`...): shown by that combatant's name."""
    return frozenset(f.name for p in PROFILES.values() for f in (*p.common_figures, *p.figures) if f.kind == "combatant")


def catalogue() -> dict[str, dict]:
    """Every installed profile as data (GET /api/profiles): its options and figures; each of
    its own modules with what it decides, which base module it replaces, the options it
    reads and what it needs; where each module of its rules comes from; and the words its
    pages show (rules.words)."""
    out = {}
    # The prompts' answers in sentences, of every installed module of every kept version: a fight
    # may take modules of several profiles, and be of an earlier version.
    every = [m for p in PROFILES.values() for m in (*p.modules, *(m for r in p.revisions for m in r.modules))]
    answers = {kind: dict(said) for m in every for kind, said in m.answers.items()}
    # The choices' options in words, likewise (a module's `labels`).
    fields = {option: dict(said) for m in every for option, said in m.labels.items()}
    for name, p in PROFILES.items():
        inherited = ruleset.compose(p.base).modules if p.base else {}
        out[name] = {
            "name": p.name,
            "document": p.document,
            "title": p.title,
            "ac_style": p.ac_style,
            "base": p.base,
            "version": p.version,
            "options": [{"name": o.name, "default": o.default, "help": o.help, "choices": list(o.choices)} for o in p.options],
            "figures": msgspec.to_builtins(p.figures),
            "common_figures": msgspec.to_builtins(p.common_figures),
            "modules": [
                {
                    "name": m.name,
                    "help": m.help,
                    "replaces": inherited[m.name][0] if m.name in inherited else None,
                    "options": list(m.options),
                    "needs": list(m.needs),
                    "decides": list(m.decides),
                    "why": m.why,
                    "actions": sorted(m.actions),
                }
                for m in ruleset.modules_at(p, ruleset.RULES_VERSION)  # as a new fight takes them
            ],
            "uses": {module: source for module, (source, _) in ruleset.compose(name).modules.items()},
            "words": {**words.WORDS, "answers": answers, "fields": fields},
            "ready": ready.catalogue(),  # the GM console's armor, weapons and monsters (rules.ready)
        }
    return out


def validate_options(profile: str, options: dict, modules: dict[str, str] | None = None, version: int = ruleset.RULES_VERSION) -> dict:
    """The full option set with defaults filled in, as the rules of `version` have them.
    Raises ValueError naming what is wrong."""
    rules = ruleset.compose(profile, tuple(sorted((modules or {}).items())), ruleset.kept(version))
    known = {o.name: o for o in rules.options}
    for name, value in options.items():
        if name not in known:
            raise ValueError(f"profile {profile!r} has no option {name!r}; known: {', '.join(sorted(known))}")
        default = known[name].default
        if type(value) is not type(default):
            raise ValueError(f"option {name!r} takes a {type(default).__name__}, not {value!r}")
        if known[name].parse is not None:
            known[name].parse(value)  # raises ValueError naming the fault
        if known[name].choices and value not in known[name].choices:
            raise ValueError(f"option {name!r} must be one of {list(known[name].choices)}")
    return {o.name: options.get(o.name, o.default) for o in rules.options}

"""Each profile lists, as data, the combatant figures its rules read beyond 003's, and
with them 003's own that every profile reads (rules/holmes/options.py): the GM console builds
its "Figures" form from them."""

import re

import msgspec
import pytest
from support import ROOT

from fray_table.rules.commands import EditCombatant
from fray_table.rules.errors import Rejected
from fray_table.rules.holmes.options import COMMON_FIGURES
from fray_table.rules.model import Combatant, Encounter
from fray_table.rules.profiles import PROFILES
from fray_table.rules.setup import check_figures
from fray_table.rules.view import Viewer, view

RULES = ROOT / "rules"
PACKAGES = {"ll-house": "llhouse", "thac0-sheet": "thac0sheet", "challenges": "challenges", "holmes-phases": None}
KINDS = {"int": int, "bool": bool, "str": str, "combatant": str, "dict": dict[str, int]}
COMBATANT = {f.name: f.type for f in msgspec.structs.fields(Combatant)}
EDIT = {f.name: f.type for f in msgspec.structs.fields(EditCombatant)}
FIGURES = [(p.name, f) for p in PROFILES.values() for f in (*p.figures, *p.common_figures)]


def read(paths) -> set[str]:
    """The Combatant fields a set of modules reads (`x.name`)."""
    return {name for p in paths for name in re.findall(r"\.(\w+)\b", p.read_text())} & set(COMBATANT)


def test_profile_figures_are_fields_of_combatant_and_edit_combatant() -> None:
    for profile, f in FIGURES:
        assert f.name in COMBATANT, f"{profile}: {f.name} is not a Combatant field"
        assert f.name in EDIT, f"{profile}: {f.name} is not an EditCombatant field: the GM could not set it"
        kind = KINDS[f.kind]
        assert COMBATANT[f.name] == kind, f"{profile}: {f.name} is {COMBATANT[f.name]}, listed as {f.kind}"
        assert EDIT[f.name] == kind | msgspec.UnsetType, f"{profile}: EditCombatant.{f.name} is {EDIT[f.name]}"
        assert f.default == getattr(Combatant(name="x", side="y"), f.name)
        assert f.label and f.help and re.search(r"\b00[0-3]\b", f.help), f"{profile}: {f.name} cites no document"


def test_profile_figures_are_those_its_modules_read() -> None:
    # 003's: the engine's modules, the charts and its package, rules/holmes. Not the modules
    # that only declare or fill figures: model, commands, and ready (the console's ready
    # monsters, whose own records have an `armor` too).
    core = (
        read(p for p in RULES.glob("*.py") if p.name not in ("model.py", "commands.py", "ready.py"))
        | read(RULES.glob("charts/*.py"))
        | read(RULES.glob("holmes/*.py"))
    )
    for profile, package in PACKAGES.items():
        own = read((RULES / package).glob("*.py")) - core if package else set()
        assert {f.name for f in PROFILES[profile].figures} == own, profile
    common = {f.name for f in COMMON_FIGURES}
    assert common <= core, f"not read by 003's modules: {common - core}"
    # Every profile reads 003's figures; only their bounds may be its own (000's open-ended level).
    assert all([f.name for f in p.common_figures] == [f.name for f in COMMON_FIGURES] for p in PROFILES.values())


def test_profile_figures_common_set_by_no_other_form() -> None:
    """The add and Edit forms set these; the Figures form sets the rest of what the rules read."""
    edit_form = {"name", "side", "ac", "hp", "hp_max", "attack_bonus", "dex", "move", "x", "y", "weapons", "hidden", "conditions"}
    common = [f.name for f in COMMON_FIGURES]
    assert len(set(common)) == len(common) and not set(common) & edit_form
    assert {"pc", "klass", "level"} <= set(common)
    assert not set(common) & {f.name for p in PROFILES.values() for f in p.figures}


BASE = Combatant(name="x", side="y", hp=8, hp_max=8, armor="plate mail")


def checked(profile: str, c: Combatant) -> None:
    """The figure checks of an encounter of `profile` (003's own figures: any profile)."""
    name = "holmes-phases" if profile == "common" else profile
    check_figures(Encounter(id="e", profile=name, options={}, seed=b"s", seed_hash="h", rules_version=1), c, "t")


@pytest.mark.parametrize(("profile", "f"), [(p, f) for p, f in FIGURES if f.kind == "int"], ids=lambda x: getattr(x, "name", x))
def test_profile_figures_bounds_are_the_checks(profile: str, f) -> None:
    name, base = f.name, BASE
    if f.low is not None:
        checked(profile, msgspec.structs.replace(base, **{name: f.low}))
        with pytest.raises(Rejected):
            checked(profile, msgspec.structs.replace(base, **{name: f.low - 1}))
    if f.high is not None:
        ok = msgspec.structs.replace(base, **{name: f.high})
        if name == "rowers":
            ok = msgspec.structs.replace(ok, rowers_max=f.high, vessel=True)
        if name in ("rowers_max", "crew"):
            ok = msgspec.structs.replace(ok, vessel=True)
        checked(profile, ok)
        with pytest.raises(Rejected):
            checked(profile, msgspec.structs.replace(ok, **{name: f.high + 1}))


@pytest.mark.parametrize(("profile", "f"), [(p, f) for p, f in FIGURES if f.kind == "str" and f.choices], ids=lambda x: getattr(x, "name", x))
def test_profile_figures_choices_are_the_checks(profile: str, f) -> None:
    for choice in f.choices:
        checked(profile, msgspec.structs.replace(BASE, **{f.name: choice}))
    with pytest.raises(Rejected):
        checked(profile, msgspec.structs.replace(BASE, **{f.name: "wizard"}))


def test_profile_figures_are_on_the_gm_card_only() -> None:
    hidden = Combatant(id="c1", name="Ukk", side="orcs", hidden=True, armor="chain mail", improvements={"cleave": 1}, hd=2)
    shown = Combatant(id="c2", name="Alda", side="party", con_bonus=2, pc=True, klass="fighter", level=3)
    state = Encounter(id="e", profile="ll-house", options={}, seed=b"s", seed_hash="h", rules_version=1, combatants=[hidden, shown])
    gm = {c.id: c for c in view(state, Viewer("gm")).combatants}
    assert gm["c1"].figures == {"armor": "chain mail", "improvements": {"cleave": 1}}  # those set, not the defaults
    assert gm["c2"].figures == {"con_bonus": 2}
    assert gm["c1"].common == {"hd": 2}
    assert gm["c2"].common == {"pc": True, "klass": "fighter", "level": 3}
    for viewer in (Viewer("player", ("c2",)), Viewer("spectator")):
        assert all(c.figures is None and c.common is None for c in view(state, viewer).combatants)


@pytest.mark.parametrize(("profile", "other"), [("holmes-phases", {"con_bonus": 1}), ("ll-house", {"str_adj": 1})])
def test_profile_figures_none_when_none_of_its_own_is_set(profile: str, other: dict) -> None:
    state = Encounter(
        id="e", profile=profile, options={}, seed=b"s", seed_hash="h", rules_version=1, combatants=[Combatant(id="c1", name="Ukk", side="orcs", **other)]
    )
    assert view(state, Viewer("gm")).combatants[0].figures is None  # another profile's figure is not shown


def test_an_edit_takes_every_figure_of_a_combatant_declared_once():
    """EditCombatant is made from Combatant's fields (rules.commands): every figure the
    rules read can be edited, each with its own type, none written twice."""
    assert EDIT.keys() == COMBATANT.keys()
    assert all(EDIT[name] == kind | msgspec.UnsetType for name, kind in COMBATANT.items() if name != "id")

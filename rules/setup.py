"""The GM's commands around the fight: create, combatants, forced dice, end."""

import functools
import hashlib

import msgspec

from . import ruleset
from .commands import AddCombatant, ClearForced, CreateEncounter, Declare, EditCombatant, End, ForceRolls, RemoveCombatant
from .context import Context, lookup
from .declare import check_action, declaration, describe, record_of
from .dice import parse
from .errors import Rejected
from .grid import GRID
from .model import ACT, Combatant, Encounter, Weapon, die_key
from .profiles import check_declared, naming_figures, validate_options
from .ruleset import rules_of

MAX_COMBATANTS = 200
MAX_FORCED = 100


def create(cmd: CreateEncounter) -> Encounter:
    options = validate_options(cmd.profile, cmd.options, cmd.modules, cmd.rules_version)
    return Encounter(
        id=cmd.id,
        profile=cmd.profile,
        options=options,
        seed=cmd.seed,
        seed_hash=hashlib.sha256(cmd.seed).hexdigest(),
        rules_version=cmd.rules_version,
        modules=dict(cmd.modules),
    )


def check_create(cmd: CreateEncounter) -> None:
    try:
        ruleset.kept(cmd.rules_version)
    except ruleset.RulesUnavailable as e:
        raise Rejected("create/unknown-rules-version", str(e)) from None
    try:
        validate_options(cmd.profile, cmd.options, cmd.modules, cmd.rules_version)
    except ValueError as e:
        raise Rejected("create/bad-options", str(e)) from None
    if len(cmd.seed) < 16:
        raise Rejected("create/weak-seed", "the seed must be at least 16 bytes")


def check_weapons(weapons: list[Weapon], code: str) -> None:
    if not 1 <= len(weapons) <= 8:
        raise Rejected(code, "a combatant carries 1 to 8 weapons")
    for w in weapons:
        try:
            parse(w.damage)
        except ValueError as e:
            raise Rejected(code, f"weapon {w.name!r}: {e}") from None
        if w.reach < 0 or w.range < 0 or w.length < 0 or w.weight < 0:
            raise Rejected(code, f"weapon {w.name!r}: reach, range, length and weight cannot be negative")


@functools.cache
def declared(name: str) -> dict:
    """A profile's figures (003's common ones and its own) by name."""
    profile = ruleset.profile(name)
    return {f.name: f for f in (*profile.common_figures, *profile.figures)}


# 003's own figures that check_figures bounds, each with its check's fields: an edit
# checks only the ones it changed (the rest were checked when they were set).
_CORE = frozenset({"name", "side", "ac", "hp", "hp_max", "attack_bonus", "dex", "int_", "x", "y", "move", "weapons"})


def check_figures(state: Encounter, c: Combatant, code: str, changed: set[str] | frozenset[str] | None = None) -> None:
    """Figures a combatant must have, whether added or edited: 003's, then each check
    of the encounter's rules (rules.ruleset.Module.check_figures). With `changed` (an
    edit's fields), 003's own are checked only where they changed: the rest were checked
    when they were set."""
    touched = _CORE if changed is None else _CORE & changed
    if "name" in touched and (not c.name.strip() or len(c.name) > 60):
        raise Rejected(code, "a combatant needs a name of 1 to 60 characters")
    if "side" in touched and (not c.side.strip() or len(c.side) > 40):
        raise Rejected(code, "a combatant needs a side of 1 to 40 characters")
    if "ac" in touched and not -20 <= c.ac <= 40:
        raise Rejected(code, f"AC {c.ac} is outside -20..40 (ascending)")
    if ("hp" in touched or "hp_max" in touched) and (not 1 <= c.hp_max <= 10_000 or not -10_000 <= c.hp <= c.hp_max):
        raise Rejected(code, f"HP {c.hp}/{c.hp_max}: need 1 <= max HP <= 10000 and HP <= max HP")
    if "attack_bonus" in touched and c.attack_bonus is not None and not -20 <= c.attack_bonus <= 40:
        raise Rejected(code, f"attack bonus {c.attack_bonus} is outside -20..40")
    rules = rules_of(state)
    figures = declared(rules.profile.name)
    check_declared(c, figures.values() if changed is None else [figures[n] for n in changed if n in figures], code)  # as declared
    if ("dex" in touched or "int_" in touched) and not (1 <= c.dex <= 25 and 1 <= c.int_ <= 25):
        raise Rejected(code, "DEX and INT are 1 to 25")
    if ("x" in touched or "y" in touched) and (c.x < 0 or c.y < 0 or c.x % GRID or c.y % GRID or c.x > 5000 or c.y > 5000):
        raise Rejected(code, f"position ({c.x}, {c.y}) must be on the 5-ft grid, 0 to 5000 ft")
    if "move" in touched and not 0 <= c.move <= 1000:
        raise Rejected(code, f"move {c.move} ft is outside 0..1000")
    if "weapons" in touched:
        check_weapons(c.weapons, code)
    for check in rules.check_figures:
        check(c, code)


UNARMORED_AC = 10  # Combatant.ac's default: an `ac` of 10 added with armor reads as not given


def armored(state: Encounter, c: Combatant, before: Combatant | None = None) -> Combatant:
    """`c` with the AC its rules derive from the armor it wears (hook `armor_class`), if they do."""
    ac = rules_of(state).armor_class(c, before)
    return c if ac is None or ac == c.ac else msgspec.structs.replace(c, ac=ac)


def added(state: Encounter, c: Combatant) -> Combatant:
    """A combatant as added: an `ac` given with its armor stands; none given, the armor's (docs/rulings.md)."""
    return armored(state, c) if c.ac == UNARMORED_AC else c


ARMORED = frozenset({"armor", "shield", "armor_damage"})  # the figures the armor chart reads


def edited(state: Encounter, c: Combatant, edits: dict) -> Combatant:
    """`c` with `edits` made; new armor, shield or armor damage with no `ac` edited move AC by the chart."""
    after = msgspec.structs.replace(c, **edits)
    if "ac" not in edits and not ARMORED.isdisjoint(edits):
        after = armored(state, after, c)
    return after


def check_add(state: Encounter, cmd: AddCombatant) -> None:
    if state.status == "ended":
        raise Rejected("combatant/ended", "the fight has ended")
    if len(state.combatants) >= MAX_COMBATANTS:
        raise Rejected("combatant/too-many", f"an encounter holds at most {MAX_COMBATANTS} combatants")
    c = cmd.combatant
    if c.id and lookup(state, c.id) is not None:
        raise Rejected("combatant/duplicate-id", f"there is already a combatant {c.id!r}")
    if c.id and (len(c.id) > 40 or not c.id.replace("-", "").replace("_", "").isalnum()):
        raise Rejected("combatant/bad-id", "a combatant id is 1-40 letters, digits, '-' or '_'")
    check_figures(state, added(state, c), "combatant/invalid")


def add(ctx: Context, cmd: AddCombatant) -> None:
    state = ctx.state
    c = msgspec.structs.replace(added(state, cmd.combatant))
    while not c.id or lookup(state, c.id) is not None:
        c.id = f"c{state.next_id}"
        state.next_id += 1
    c.weapons = list(c.weapons)
    c.conditions = list(c.conditions)
    state.combatants.append(c)
    ctx.log("setup", f"{c.name} joins the {c.side} side.", actor=c.id)


# Wire name -> field name of what an edit may set; to_builtins leaves unset fields out, in C.
_EDITABLE = {f.encode_name: f.name for f in msgspec.structs.fields(EditCombatant) if f.name != "id"}
_SHOWN = {name: name.replace("_", " ").strip() for name in _EDITABLE.values() if name not in ("weapons", "notes")}  # as an edit's line names them


def _edits(cmd: EditCombatant) -> dict:
    return {_EDITABLE[k]: getattr(cmd, _EDITABLE[k]) for k in msgspec.to_builtins(cmd) if k in _EDITABLE}


def prepared_edit(state: Encounter, cmd: EditCombatant) -> tuple[Combatant, dict, Combatant]:
    """An edit as its check and its rule both read it (worked out once an event: the check's
    return is the rule's `ctx.checked`): the combatant, the fields the edit sets (a max HP
    lowered below HP lowers HP too), and the combatant as edited."""
    c = lookup(state, cmd.id)
    if c is None:
        raise Rejected("combatant/unknown", f"there is no combatant {cmd.id!r}")
    edits = _edits(cmd)
    if not edits:
        raise Rejected("combatant/no-change", "an edit must change at least one field")
    if "hp_max" in edits and "hp" not in edits:
        edits["hp"] = min(c.hp, edits["hp_max"])
    return c, edits, edited(state, c, edits)


def check_edit(state: Encounter, cmd: EditCombatant) -> tuple[Combatant, dict, Combatant]:
    edit = prepared_edit(state, cmd)
    check_figures(state, edit[2], "combatant/invalid", changed={*edit[1], "ac"})  # the others were checked when set
    return edit


def edit(ctx: Context, cmd: EditCombatant) -> None:
    c, edits, after = ctx.checked or prepared_edit(ctx.state, cmd)
    was_unseen = c.unseen
    if "ac" not in edits and after.ac != c.ac:
        edits["ac"] = after.ac  # the armor chart's (hook `armor_class`), and the log says so
    for name, value in edits.items():
        setattr(c, name, list(value) if isinstance(value, list) else value)
    if "hp" in edits and "down" not in edits:
        c.down = c.hp <= 0
    shown = ", ".join([f"{_SHOWN[k]} {_named(ctx.state, k, v)}" for k, v in edits.items() if k in _SHOWN])
    ctx.log("gm", f"GM edits {c.name}: {shown or 'details'}.", actor=c.id, audience="gm" if c.hidden else "all")
    if edits.get("unseen") is False and was_unseen:
        ctx.log("reveal", f"The GM reveals {c.name}.", actor=c.id)  # rules.unseen: on the table's map from now on
    if "weapons" in edits:
        _unarm(ctx, c)
    _withdraw_unfit(ctx, c)


def _weapons_named(state: Encounter, action) -> list[int]:
    """The weapon indices a declared action names: its record's `weapons`, else its `weapon`."""
    own = record_of(rules_of(state), action)
    if own is not None and own.weapons is not None:
        return own.weapons(action)
    weapon = getattr(action, "weapon", None)
    return [weapon] if isinstance(weapon, int) else []


def _withdraw_unfit(ctx: Context, c: Combatant) -> None:
    """A declaration the edited figures no longer allow is withdrawn, saying why, rather
    than resolved against figures it does not fit (issue 11: a weapon the GM took away
    crashed the round). While declarations are open it is checked as a new one would
    be, so the player may declare again; once the round resolves, only a weapon that is
    gone withdraws it (other checks read positions the round has already moved)."""
    state = ctx.state
    mine = declaration(state, c.id)
    if mine is None:
        return
    why = None
    if state.phase == "declaration":
        try:
            check_action(state, c, Declare(actor=c.id, action=mine.action))
        except Rejected as r:
            why = r.message
    elif any(not 0 <= i < len(c.weapons) for i in _weapons_named(state, mine.action)):
        why = f"{c.name} has no weapon number {max(_weapons_named(state, mine.action))}"
    if why is None:
        return
    state.declarations = [d for d in state.declarations if d is not mine]
    sealed = state.options.get("sealed_declarations") and state.phase == "declaration"
    ctx.log(
        "declare", f"{c.name}'s declaration ({describe(state, mine.action)}) is withdrawn: {why}.", actor=c.id, audience=f"side:{c.side}" if sealed else "all"
    )


def _unarm(ctx: Context, c: Combatant) -> None:
    """Strikes already queued with a weapon the edit took away are dropped, saying so."""
    state = ctx.state
    gone = [s for s in state.steps if s.actor == c.id and s.kind != ACT and s.weapon >= len(c.weapons)]
    if gone:
        state.steps = [s for s in state.steps if s not in gone]
        ctx.log("attack", f"{c.name}'s queued {'strike is' if len(gone) == 1 else 'strikes are'} dropped: the weapon was taken away.", actor=c.id)


def _named(state: Encounter, name: str, value) -> str:
    """An edited value as the log shows it, in words: a combatant's id by its name ('aboard
    Sea Wolf'), yes or no, a list or a table item by item, nothing as 'none'."""
    if name in naming_figures():
        other = lookup(state, value) if value else None
        return other.name if other is not None else value or "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in value.items()) or "none"
    return "none" if value == "" else str(value)


def check_remove(state: Encounter, cmd: RemoveCombatant) -> None:
    if lookup(state, cmd.id) is None:
        raise Rejected("combatant/unknown", f"there is no combatant {cmd.id!r}")


def remove(ctx: Context, cmd: RemoveCombatant) -> None:
    state = ctx.state
    c = ctx.combatant(cmd.id)
    state.combatants = [x for x in state.combatants if x.id != cmd.id]
    state.declarations = [d for d in state.declarations if d.actor != cmd.id]
    state.steps = [s for s in state.steps if s.actor != cmd.id]  # it acts no more this round
    ctx.log("setup", f"{c.name} leaves the fight.", actor=c.id)
    waiting = state.awaiting
    # The combatants the question is about: its fields (a prompt stored before RULES_VERSION 5: its id).
    if waiting is not None and (waiting.who == cmd.id or cmd.id in ((waiting.attacker, waiting.target) if waiting.attacker else waiting.id.split(":"))):
        # A question to or about the leaver cannot be answered (issue 11: the answer
        # looked it up and failed): it is dropped, and the round goes on without it.
        from .resolve import run  # resolve imports the rules this module's checks use

        state.awaiting = None
        state.entered = []
        ctx.log("setup", f"No answer is awaited any more ({waiting.prompt}): {c.name} left the fight.", audience="gm" if c.hidden else "all")
        run(ctx)


def waiting_forced(state: Encounter) -> int:
    """How many forced results wait, in every queue."""
    return len(state.forced) + sum(map(len, state.forced_by_die.values()))


def check_force(state: Encounter, cmd: ForceRolls) -> None:
    if not cmd.values:
        raise Rejected("dice/empty", "give at least one value to force")
    if not 0 <= cmd.sides <= 1000 or cmd.sides == 1:
        raise Rejected("dice/bad-die", f"a die to force has 2 to 1000 sides, not {cmd.sides}")
    if any(not 1 <= v <= 1000 for v in cmd.values):
        raise Rejected("dice/out-of-range", "forced results are 1 to 1000")
    if cmd.sides and any(v > cmd.sides for v in cmd.values):
        raise Rejected("dice/too-high", f"a d{cmd.sides} shows 1 to {cmd.sides}, not {max(cmd.values)}")
    if waiting_forced(state) + len(cmd.values) > MAX_FORCED:
        raise Rejected("dice/queue-full", f"at most {MAX_FORCED} forced results may wait")


def force(ctx: Context, cmd: ForceRolls) -> None:
    values = ", ".join(map(str, cmd.values))
    if cmd.sides:
        ctx.state.forced_by_die.setdefault(die_key(cmd.sides), []).extend(cmd.values)
        ctx.log("gm", f"GM forces the next d{cmd.sides} rolls: {values}.", audience="gm")
        return
    ctx.state.forced.extend(cmd.values)
    ctx.log("gm", f"GM forces the next rolls: {values}.", audience="gm")


def check_clear_forced(state: Encounter, cmd: ClearForced) -> None:
    if cmd.sides is None:
        empty = not waiting_forced(state)
    else:
        empty = not (state.forced_by_die.get(die_key(cmd.sides)) if cmd.sides else state.forced)
    if empty:
        raise Rejected("dice/nothing-forced", "no forced result waits" + (f" for a d{cmd.sides}" if cmd.sides else " of any kind" if cmd.sides == 0 else ""))


def clear_forced(ctx: Context, cmd: ClearForced) -> None:
    state = ctx.state
    if cmd.sides is None:
        state.forced, state.forced_by_die = [], {}
        what = "every forced result"
    elif cmd.sides:
        del state.forced_by_die[die_key(cmd.sides)]
        what = f"the forced d{cmd.sides} results"
    else:
        state.forced = []
        what = "the forced results of any die"
    ctx.log("gm", f"GM clears {what}.", audience="gm")


def check_end(state: Encounter, cmd: End) -> None:
    if state.status == "ended":
        raise Rejected("end/already-ended", "the fight has already ended")


def end(ctx: Context, cmd: End) -> None:
    state = ctx.state
    state.status = "ended"
    state.phase = "ended"
    state.steps = []
    state.awaiting = None
    ctx.log("end", f"The fight ends. Seed revealed: {state.seed.hex()} (sha256 {state.seed_hash}).")

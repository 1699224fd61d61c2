"""view(state, viewer): what one viewer may see, and what they may do now.

The server never sends an unfiltered state to anyone but the GM. Non-GM viewers
never get the seed before the end, GM notes, hidden figures, the forced-roll
queue, or another side's sealed declarations. `actions` lists, for each
combatant the viewer controls, the declarations legal now with their options,
so the client builds its controls from data.
"""

from collections.abc import Sequence

import msgspec
from msgspec import Struct

from .actions import tag
from .battlemap import MapView, map_view
from .declare import awaited, describe
from .model import DAMAGE, Awaiting, Combatant, Declaration, Encounter, Entry, Origin, Weapon, by_sides, descending
from .round import may_act
from .ruleset import Rules, rules_of
from .unseen import unnamed, unseen_ids, unseen_of


class Viewer(Struct, frozen=True):
    role: str  # 'gm' | 'player' | 'spectator'
    combatants: tuple[str, ...] = ()


class Choice(Struct):
    type: str
    targets: list[str] = []
    options: dict[str, Sequence[int | bool | str]] = {}  # often shared lists: read only


class CombatantView(Struct):
    id: str
    name: str
    side: str
    x: int
    y: int
    move: int
    dex: int
    down: bool
    conditions: list[str]
    condition: str  # 'unhurt' | 'wounded' | 'badly wounded' | 'down'
    weapons: list[Weapon] | None = None
    hp: int | None = None
    hp_max: int | None = None
    ac: int | None = None  # ascending
    ac_shown: int | None = None  # in the profile's own convention
    attack_bonus: int | None = None
    hidden: bool = False  # figures hidden from the table: the GM's card alone says so
    unseen: bool | msgspec.UnsetType = msgspec.UNSET  # the GM's card alone, when true: nobody else has one (rules.unseen)
    shield: bool | msgspec.UnsetType = msgspec.UNSET  # the GM's card alone, when it carries one (the edit form offers to take it away)
    notes: str | None = None
    subdual: int | None = None
    morale: str | None = None  # 003: the morale result governing `morale_round` (GM only)
    morale_round: int | None = None
    burning: int = 0  # 003: burn rolls made by the oil on it (condition 'burning')
    # The profile's own figures (PROFILES[...].figures) that differ from their defaults: GM only.
    figures: dict[str, int | bool | str | dict[str, int]] | None = None
    # 003's figures every profile reads (COMMON_FIGURES: pc, klass, level...) that differ from their defaults: GM only.
    common: dict[str, int | bool | str] | None = None


class DeclarationView(Struct):
    actor: str
    text: str
    type: str | None = None  # None when sealed from this viewer


class View(Struct):
    id: str
    profile: str
    options: dict[str, int | bool | str]
    status: str
    round: int
    phase: str
    seq: int
    seed_hash: str
    combatants: list[CombatantView]
    declarations: list[DeclarationView]
    awaited: list[str]  # who may still declare, in the order they are asked
    surprised: list[str]
    you: Viewer
    actions: dict[str, list[Choice]]
    awaiting: Awaiting | None = None
    seed: str | None = None  # revealed at the end (the GM sees it throughout)
    forced: list[int] | None = None  # the GM's queue
    # The GM's queues by kind of die (sides -> values), when any wait: left out otherwise,
    # so a fight that never forces by die has the view bytes it had before.
    forced_by_die: dict[str, list[int]] | msgspec.UnsetType = msgspec.UNSET  # keyed '20', as JSON has it (patch paths)
    undone: list[int] = []  # events the GM has undone (rules/undo.py): not secret, the log says so
    # The modules taken from other profiles (module -> profile), fixed at creation. Left out
    # when there are none, so a fight without them has the same view bytes as before modules.
    modules: dict[str, str] | msgspec.UnsetType = msgspec.UNSET
    # The battle map's background (rules.battlemap), for everyone; left out when there is none.
    battle_map: MapView | msgspec.UnsetType = msgspec.UNSET
    origin: Origin | msgspec.UnsetType = msgspec.UNSET  # a fork's (rules/fork.py); left out for any other fight


def condition(c: Combatant) -> str:
    if c.down:
        return "down"
    if c.hp * 2 < c.hp_max:
        return "badly wounded"
    return "wounded" if c.hp < c.hp_max else "unhurt"


def sides_of(state: Encounter, viewer: Viewer) -> set[str]:
    return {c.side for c in state.combatants if c.id in viewer.combatants}


def sees(entry: Entry, viewer: Viewer, sides: set[str]) -> bool:
    """May this viewer read this line? By its audience alone, fixed where it was made."""
    audience = entry.audience
    if audience == "all" or viewer.role == "gm":
        return True
    if audience.startswith("side:"):
        return audience[5:] in sides
    if audience.startswith("to:"):  # a GM's whisper to the player of that combatant (rules.chat)
        return viewer.role == "player" and audience[3:] in viewer.combatants
    return viewer.role == "player" and audience == "player:" + ",".join(viewer.combatants)


def changed(c: Combatant, figures) -> dict | None:
    """The figures whose value differs from the default, or None."""
    return {f.name: getattr(c, f.name) for f in figures if getattr(c, f.name) != f.default} or None


def combatant_view(state: Encounter, c: Combatant, gm: bool) -> CombatantView:
    v = CombatantView(
        id=c.id,
        name=c.name,
        side=c.side,
        x=c.x,
        y=c.y,
        move=c.move,
        dex=c.dex,
        down=c.down,
        conditions=c.conditions,
        condition=condition(c),
        hidden=c.hidden if gm else False,  # a badge of the GM's page alone
    )
    if gm and c.unseen:
        v.unseen = True
    if gm or not (c.hidden or c.unseen):
        v.hp, v.hp_max, v.ac, v.attack_bonus, v.weapons = c.hp, c.hp_max, c.ac, rules_of(state).combat_bonus(state, c), c.weapons
        v.ac_shown = descending(c.ac) if rules_of(state).profile.ac_style == "descending" else c.ac
        v.subdual = c.subdual
    v.burning = c.burning
    if gm:
        v.notes = c.notes
        v.morale, v.morale_round = c.morale, c.morale_round
        v.figures = changed(c, rules_of(state).profile.figures)
        v.common = changed(c, rules_of(state).profile.common_figures)
        if c.shield:
            v.shield = True
    return v


def choices(state: Encounter, c: Combatant, rules: Rules) -> list[Choice]:
    """What `c` may declare now: each action's record's choice (its `choices`, in the
    order the rules list them), then each module's changes to the list (its own actions
    added, those it replaces gone)."""
    targets = rules.targets(state, c)
    listed = [Choice(**fields) for offer in rules.offers if (fields := offer(state, c, targets)) is not None]
    for change in rules.choices:
        listed = change(state, c, listed)
    return listed


def legal_actions(state: Encounter) -> dict[str, list[Choice]]:
    """What each combatant may declare now, for whoever controls it: the same for
    every viewer, so the server computes it once per change, not once per audience."""
    if state.status != "running" or state.phase != "declaration" or state.awaiting is not None:
        return {}
    rules = rules_of(state)
    return {c.id: choices(state, c, rules) for c in state.combatants if may_act(state, c)}


def declaration_audience(state: Encounter, viewer: Viewer) -> str | frozenset[str]:
    """Who sees declarations the way this viewer does: 'gm', 'open' (nothing is
    sealed now), or the set of sides whose declarations the viewer may read."""
    if viewer.role == "gm":
        return "gm"
    if not (state.options.get("sealed_declarations") and state.phase == "declaration"):
        return "open"
    return frozenset(sides_of(state, viewer))


def declaration_views(state: Encounter, audience: str | frozenset[str], described: dict[int, str] | None = None) -> list[DeclarationView]:
    """The declarations as `audience` sees them. `described`: each declaration's words by its
    id(), for a caller that shows one state to several audiences (the words are the same for
    all: server/views.py keeps one a change); None, worked out here."""
    by_id = {c.id: c for c in state.combatants}
    unseen = [] if audience == "gm" else [c.name for c in unseen_of(state)]  # not there for the table
    shown = []
    for d in state.declarations:
        actor = by_id.get(d.actor)
        if unseen and actor is not None and actor.unseen:
            continue
        shown.append(declaration_view(state, d, actor, audience, unseen, described))
    return shown


def declaration_view(
    state: Encounter, d: Declaration, actor: Combatant | None, audience: str | frozenset[str], unseen: list[str], described: dict[int, str] | None = None
) -> DeclarationView:
    """One declaration as `audience` sees it (declaration_views): its words, or 'has
    declared' when it is sealed from them; `unseen`: the names the table is not told."""
    if isinstance(audience, str) or (actor is not None and actor.side in audience):
        known = None if described is None else described.get(id(d))
        text = describe(state, d.action) if known is None else known
        if described is not None and known is None:
            described[id(d)] = text
        return DeclarationView(actor=d.actor, text=unnamed(text, unseen) if unseen else text, type=tag(d.action))
    return DeclarationView(actor=d.actor, text="has declared")


def shown_prompt(waiting: Awaiting | None) -> Awaiting | None:
    """The prompt as a viewer sees it: its id, who answers, its kind, words and options. Its
    data (attacker, target, points, effect) are the rules'; its words say what is asked."""
    if waiting is None or not (waiting.attacker or waiting.target or waiting.points or waiting.effect):
        return waiting
    return Awaiting(id=waiting.id, who=waiting.who, kind=waiting.kind, prompt=waiting.prompt, options=waiting.options)


def awaited_ids(state: Encounter, gm: bool = True) -> list[str]:
    """Who may still declare, in the order they are asked; [] outside declarations.
    The table is not told of the unseen (rules.unseen)."""
    if state.phase != "declaration":
        return []
    return [c.id for c in awaited(state) if gm or not c.unseen]


def awaiting_for(state: Encounter, gm: bool) -> Awaiting | None:
    """The parked step as this viewer reads it (shown_prompt): for the table, an unseen
    combatant's name is 'someone unseen' and its id is no answer offered."""
    waiting = shown_prompt(state.awaiting)
    if gm or waiting is None or not any(c.unseen for c in state.combatants):
        return waiting
    unseen = unseen_of(state)
    ids = {c.id for c in unseen}
    return Awaiting(
        id=waiting.id,
        who="gm" if waiting.who in ids else waiting.who,
        kind=waiting.kind,
        prompt=unnamed(waiting.prompt, [c.name for c in unseen]),
        options=[o for o in waiting.options if o not in ids],
    )


def seen_actions(state: Encounter, actions: dict[str, list[Choice]]) -> dict[str, list[Choice]]:
    """A player's choices without an unseen combatant among their targets; an unseen
    combatant of theirs has none (the GM declares for it until it is revealed)."""
    unseen = unseen_ids(state)
    if not unseen:
        return actions
    return {
        cid: [msgspec.structs.replace(ch, targets=[t for t in ch.targets if t not in unseen]) if unseen & set(ch.targets) else ch for ch in listed]
        for cid, listed in actions.items()
        if cid not in unseen
    }


def view(
    state: Encounter,
    viewer: Viewer,
    actions: dict[str, list[Choice]] | None = None,
    combatants: list[CombatantView] | None = None,
) -> View:
    """`actions` (legal_actions(state)) and `combatants` (the viewer's cards) may be
    given by a caller that already has them: the server shares them between viewers."""
    gm = viewer.role == "gm"
    if actions is None:
        actions = legal_actions(state)
    if not gm:
        actions = seen_actions(state, {cid: listed for cid, listed in actions.items() if cid in viewer.combatants})
    return View(
        id=state.id,
        profile=state.profile,
        options=state.options,
        status=state.status,
        round=state.round,
        phase=state.phase,
        seq=state.seq,
        seed_hash=state.seed_hash,
        combatants=[combatant_view(state, c, gm) for c in state.combatants if gm or not c.unseen] if combatants is None else combatants,
        declarations=declaration_views(state, declaration_audience(state, viewer)),
        awaited=awaited_ids(state, gm),
        surprised=state.surprised,
        you=viewer,
        actions=actions,
        awaiting=awaiting_for(state, gm),
        seed=state.seed.hex() if gm or state.status == "ended" else None,
        forced=list(state.forced) if gm else None,
        forced_by_die=by_sides(state.forced_by_die) if gm and state.forced_by_die else msgspec.UNSET,
        undone=list(state.undone),
        modules=dict(state.modules) if state.modules else msgspec.UNSET,
        battle_map=map_view(state) or msgspec.UNSET,
        origin=state.origin if state.origin is not None else msgspec.UNSET,
    )


def log_for(entries: list[Entry], state: Encounter, viewer: Viewer, points: bool = False, sides: set[str] | None = None) -> list[Entry]:
    """The lines this viewer sees, each as it was made to be read: a line that named a
    hidden combatant reads, for anyone but the GM, as its public text, without the
    sum's terms, total and number needed. Nothing is judged against today's state but
    the sides the viewer plays. `public` itself goes to nobody.
    `points=True` (for rules.summary): a damage line keeps its total, the points its
    public text states ('Goblin takes 3 damage (1d6).'): only the HP left is hidden.
    `sides`: sides_of(state, viewer), for a caller that has it (server/views.py keeps it while no combatant changes)."""
    origin = state.origin
    if viewer.role == "gm" and origin is not None and origin.veil >= 0 and entries and entries[0].seq <= origin.veil:
        # A fork's GM reads its origin's events as the link it was forked from did (rules/fork.py).
        veiled = Viewer(role=origin.veil_role, combatants=origin.veil_combatants)
        before = [e for e in entries if e.seq <= origin.veil]
        after = [e for e in entries if e.seq > origin.veil]
        return _lines(before, state, veiled, points) + _lines(after, state, viewer, points, sides)
    return _lines(entries, state, viewer, points, sides)


def _lines(entries: list[Entry], state: Encounter, viewer: Viewer, points: bool = False, sides: set[str] | None = None) -> list[Entry]:
    mine = sides_of(state, viewer) if sides is None else sides
    gm = viewer.role == "gm"
    return [line_for(e, gm, points) if e.public is not None else e for e in entries if sees(e, viewer, mine)]


def line_for(entry: Entry, gm: bool, points: bool = False) -> Entry:
    """A line with a public text as the GM (its text) or anyone else (its public text) reads it;
    for anyone else, without the ids of the unseen combatants it names, nor its dice's purposes
    (with `points`, a damage line keeps its total: log_for)."""
    if gm:
        return msgspec.structs.replace(entry, public=None, unseen=[])
    total = entry.total if points and entry.kind == DAMAGE else None
    shown = msgspec.structs.replace(entry, text=entry.public, public=None, mods=[], total=total, need=None, unseen=[])
    if entry.unseen:
        shown.actor = None if entry.actor in entry.unseen else entry.actor
        shown.target = None if entry.target in entry.unseen else entry.target
        shown.rolls = [msgspec.structs.replace(r, purpose="a roll") for r in entry.rolls]
    return shown

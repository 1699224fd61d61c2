"""Each audience's view and its patches, built from parts shared between audiences.

`rules.view.view(state, viewer)` is the reference. Building it whole for every
audience after every event, then diffing it whole, would redo per audience
what is the same for many. So a view is cut into parts, each with variants:

| part | keys of the view | one variant per |
| --- | --- | --- |
| fixed | id, profile, options, modules and origin (when any), seed_hash (never change) | encounter |
| common | status, round, phase, awaited, surprised, awaiting, undone | GM, or table (the unseen left out) |
| seq | seq (moves at every change, alone of them most of the time) | encounter |
| cards | combatants | GM, or table (the unseen left out) |
| declarations | declarations | way of seeing them (GM, open, sealed to some sides) |
| actions | actions | GM, or the combatants a player controls |
| secrets | seed, forced | GM, or table |
| you | you | viewer |
| battle map | battle_map (when set) | encounter |

Views follow the change: rules.changes says what a fold changed (the combatants,
the declarations, the encounter's other fields), and only the parts it touched are
built again, each variant once, and diffed once against its value before; an
audience's patch is the ops of its variants of those parts, concatenated, and a
part's variant another audience shares is the same object, its ops too. Within a
part the change is followed as well: a combatant's card is made anew only when
that combatant changed, a declaration's line only when that declaration did (the
others stay the objects held, which the diff passes by identity). Every audience
gets every change, so each holds the previous value of its variants; one whose
variant changed kind (declarations unsealing) is diffed on its own.
tests/rules/test_views.py checks views and patches against the reference, and
tests/rules/test_views_follow.py the patches against a full diff of the views at
every event of every golden fight.
"""

from collections.abc import Callable
from typing import Any

import msgspec

from ..rules.battlemap import map_view
from ..rules.changes import changes
from ..rules.model import Encounter, Entry, by_sides
from ..rules.view import (
    Choice,
    Viewer,
    awaited_ids,
    awaiting_for,
    combatant_view,
    declaration_audience,
    declaration_view,
    declaration_views,
    legal_actions,
    seen_actions,
    sides_of,
)
from .patch import diff
from .protocol import encoder


def senders(entries: list[Entry], link: str) -> list[Entry]:
    """A player's lines as the link `link` (a token id) reads them: a line for a command's
    sender alone (audience 'player:<ids>': a whisper to the GM, a rejection) goes to the
    link that sent it, not to every link holding the same combatants, nor to every link
    holding none (rules.view.sees knows combatants, not links). The ids of events sent
    over a websocket begin with the sender's token id and a dot (server/connection.py).
    `link` '': no link to tell (as rules.view)."""
    if not link:
        return entries
    return [e for e in entries if not e.audience.startswith("player:") or sent_by(e.command_id or "", link)]


def sent_by(command_id: str, link: str) -> bool:
    """Was this command sent through the link `link`? An id with no link in it (a setup's
    `add-0`) names none: its line goes to the combatants' links, as it always did."""
    sender, dot, _ = command_id.partition(".")
    return not dot or sender == link


def sender_lines(entries: list[Entry]) -> bool:
    return any(e.audience.startswith("player:") for e in entries)


_plain = msgspec.to_builtins


def packed(value: Any) -> msgspec.Raw:
    """A part of a view held as the JSON it is sent as (msgspec.Raw): a combatant's card, or
    the list of its choices, is a few hundred bytes so, several KB as dicts or structs. The
    protocol's encoder, which made it, sends it as it is; server.patch.diff reads it back
    where it changed."""
    return msgspec.Raw(encoder.encode(value))


def unpacked(actions: dict[str, msgspec.Raw]) -> dict[str, list[Choice]]:
    return {cid: msgspec.json.decode(listed, type=list[Choice]) for cid, listed in actions.items()}


# The encounter's fields a change may move with its declarations still reading as they
# did (Views._refresh): the position, the dice's queues and counters.
ROUTINE = frozenset({"seq", "next_id", "forced", "forced_by_die", "entered", "morale_triggers"})


PARTS = ("fixed", "common", "seq", "cards", "declarations", "actions", "secrets", "you", "map")  # a view's parts, in the order a patch lists them
_NONE: Any = object()  # no value held


class Views:
    """The parts' values, each with the change it was built at: a value built at or after
    the last change that touched its part is its value now. Every audience is patched at
    every change (Room.fan_out), so the value of a variant some audience holds is what
    that audience holds; `was` keeps, for the variants built anew this change, the value
    before, which their ops are diffed from."""

    def __init__(self) -> None:
        self.seq = -1
        self.state: Encounter | None = None
        self.values: dict[tuple, dict] = {}  # (part, variant) -> its value, as of the change in `at`
        self.at: dict[tuple, int] = {}  # (part, variant) -> the change (seq) it was built at
        self.touched: dict[str, int] = {}  # part -> the last change that touched it
        self.prior: dict[str, int] = {}  # ... before this change
        self.was: dict[tuple, Any] = {}  # (part, variant) -> its value before this change, for those built anew in it
        self.ops: dict[tuple, list] = {}  # (part, variant) -> this change's ops
        self.held: dict[Viewer, dict[str, tuple]] = {}  # what each audience holds
        self.cards: dict[bool, dict[str, msgspec.Raw | None]] = {True: {}, False: {}}  # by combatant id, packed; None: an unseen combatant's (no table card)
        self.actions_key: tuple | None = None
        self.actions: dict[str, msgspec.Raw] = {}  # each combatant's choices (rules.view.legal_actions), packed
        self.roster = 0  # counts the changes to any combatant: legal actions follow them
        self.follow = False  # this change's declarations are made from it alone (_refresh)
        self.declared: frozenset[int] = frozenset()  # the indexes of the declarations it changed
        self.changed: list[str] = []  # the parts this change touched, in PARTS' order
        self.varying = True  # an audience's way of seeing the declarations or the secrets may have changed
        self.unseen = False  # some combatant is unseen (rules.unseen): the table's common part and declarations differ from the GM's
        self.diffs: dict[tuple[int, int], list] = {}  # (id of before, id of now) -> ops, for variants that share both values
        self.described: dict[int, str] = {}  # each declaration's words this change, by id() (rules.view.declaration_views)
        self._sides: dict[Viewer, set[str]] = {}  # the sides each audience plays, while no combatant changes

    def sides(self, viewer: Viewer) -> set[str]:
        """The sides this audience plays (rules.view.sides_of), once, not once a change."""
        sides = self._sides.get(viewer)
        if sides is None:
            assert self.state is not None
            sides = self._sides[viewer] = sides_of(self.state, viewer)
        return sides

    def _refresh(self, state: Encounter) -> None:
        if state.seq == self.seq:
            return
        change = changes(self.state, state)  # the state before is the fold's: intact (rules.changes)
        previous, self.seq, self.state = self.state, state.seq, state
        self.was, self.ops, self.diffs, self.described = {}, {}, {}, {}
        changed = {"seq"}  # the position moves on every change; 'fixed' never
        if change.combatants is None or change.combatants:  # most changes (a declaration, a forced roll) leave every combatant as it was
            self.unseen = any(c.unseen for c in state.combatants)
            self._cards(state, change.combatants, previous)
            changed.add("cards")
        # A declaration's words name combatants and may read anything of theirs: with every
        # combatant as it was, and the round's other fields only moved on, the declarations
        # not changed read as they did, for every audience (one described, not all).
        self.follow = not self.unseen and change.combatants == frozenset() and change.declarations is not None and change.fields <= ROUTINE
        self.declared = change.declarations or frozenset()
        if not (self.follow and not self.declared):
            changed.add("declarations")
        # Who may still declare follows who has declared: a declaration changed, not added,
        # with everything else as it was, leaves the round's fields as they were.
        if not (self.follow and previous is not None and all(i < len(previous.declarations) for i in self.declared)):
            changed.add("common")
        key = (state.status, state.phase, state.round, state.awaiting is None, tuple(state.surprised), self.roster)
        if key != self.actions_key:
            self.actions_key = key
            self.actions = {cid: packed(listed) for cid, listed in legal_actions(state).items()}
            changed.add("actions")
        if change.touches("battle_map"):  # the image is diffed only when the GM sets another
            changed.add("map")
        if change.touches("status", "forced", "forced_by_die"):
            changed.add("secrets")
        # Who sees the declarations how (sealed or not, by side) and the secrets (the seed
        # once ended) follow the phase, the options, the status and the combatants' sides.
        self.varying = change.combatants != frozenset() or change.touches("phase", "options", "status")
        self.prior = dict(self.touched)
        for part in changed:
            self.touched[part] = state.seq
        self.changed = [part for part in PARTS if part in changed]

    def _cards(self, state: Encounter, changed: frozenset[str] | None, previous: Encounter | None) -> None:
        """Both card variants, each combatant's rebuilt only if it changed (`changed`: their
        ids; None: the list itself changed, each compared with its record before)."""
        gm_cards, table_cards = self.cards[True], self.cards[False]
        self.cards, self._sides = {True: {}, False: {}}, {}
        was = {c.id: c for c in previous.combatants} if changed is None and previous is not None else {}
        for c in state.combatants:
            same = c.id not in changed if changed is not None else was.get(c.id) == c
            gm = self.cards[True][c.id] = (gm_cards.get(c.id) if same else None) or packed(combatant_view(state, c, True))
            table = None if c.unseen or not same else table_cards.get(c.id)  # the unseen have no table card
            if table is None and not c.unseen:
                table = packed(combatant_view(state, c, False))
                table = gm if table == gm else table  # most cards read the same to all: held once
            self.cards[False][c.id] = table
        self.roster += 1

    def _build(self, part: str, variant: Any, before: dict | None) -> dict:
        """The part's value now; `before`: its value at the previous change, if it has one."""
        state = self.state
        assert state is not None
        match part:
            case "fixed":
                fixed = {"id": state.id, "profile": state.profile, "options": state.options, "seed_hash": state.seed_hash}
                if state.modules:  # as rules.view.View: left out when there are none
                    fixed["modules"] = dict(state.modules)
                if state.origin is not None:  # a fork's, likewise
                    fixed["origin"] = _plain(state.origin)
                return fixed
            case "common":
                return {
                    "status": state.status, "round": state.round, "phase": state.phase,
                    "awaited": awaited_ids(state, variant), "surprised": list(state.surprised),
                    "awaiting": _plain(awaiting_for(state, variant)), "undone": list(state.undone),
                }  # fmt: skip
            case "seq":
                return {"seq": state.seq}
            case "cards":
                return {"combatants": [card for card in self.cards[variant].values() if card is not None]}
            case "declarations":
                if before is None or not self.follow:
                    return {"declarations": _plain(declaration_views(state, variant, self.described))}
                # Following the change: the declarations not changed are the same objects as
                # before (diffed by identity, at no cost); the changed ones are made anew.
                shown = before["declarations"][: len(state.declarations)]
                by_id = {c.id: c for c in state.combatants}
                for i in sorted(self.declared):
                    d = state.declarations[i]
                    entry = _plain(declaration_view(state, d, by_id.get(d.actor), variant, [], self.described))
                    if i < len(shown):
                        shown[i] = entry
                    else:
                        shown.append(entry)
                return {"declarations": shown}
            case "actions":
                if variant == "gm":
                    return {"actions": self.actions}
                shown = {c: self.actions[c] for c in variant if c in self.actions}
                if self.unseen:  # rare: the choices read without the unseen among their targets
                    shown = {cid: packed(listed) for cid, listed in seen_actions(state, unpacked(shown)).items()}
                return {"actions": shown}
            case "secrets":
                gm, ended = variant
                secrets: dict[str, Any] = {"seed": state.seed.hex() if gm or ended else None, "forced": list(state.forced) if gm else None}
                if gm and state.forced_by_die:  # as rules.view.View: left out when none wait
                    secrets["forced_by_die"] = by_sides(state.forced_by_die)
                return secrets
            case "you":
                return {"you": _plain(variant)}
            case "map":
                background = map_view(state)  # as rules.view.View: left out when there is none
                return {} if background is None else {"battle_map": _plain(background)}
        raise RuntimeError(f"no view part {part!r}")

    def _same(self, part: str, variant: Any) -> Any:
        """The variant this one equals now, if another: with nobody unseen, the table's
        common part is the GM's (awaited_ids, awaiting_for) and so are open declarations
        (declaration_views); tests/rules/test_views.py holds them to the reference."""
        if self.unseen:
            return None
        if part == "common" and variant is False:
            return True
        if part == "declarations" and variant == "open":
            return "gm"
        return None

    def _part(self, key: tuple) -> dict:
        """The value of a variant now: as built, unless a change touched its part since."""
        value = self.values.get(key, _NONE)
        part = key[0]
        if value is not _NONE and self.at[key] >= self.touched.get(part, -1):
            return value
        same = self._same(*key)
        before = value if value is not _NONE and self.at[key] >= self.prior.get(part, -1) else None  # its value at the previous change
        self.was[key] = before
        now = self._part((part, same)) if same is not None else self._build(part, key[1], before)
        self.values[key], self.at[key] = now, self.seq
        return now

    def _variants(self, viewer: Viewer) -> dict[str, Any]:
        state = self.state
        assert state is not None
        gm = viewer.role == "gm"
        return {
            "fixed": None,
            "common": gm,
            "seq": None,
            "cards": gm,
            "declarations": declaration_audience(state, viewer),
            "actions": "gm" if gm else viewer.combatants,
            "secrets": (gm, state.status == "ended"),
            "you": viewer,
            "map": None,
        }

    def of(self, state: Encounter, viewer: Viewer) -> dict:
        """The viewer's whole view (equal to to_builtins(view(state, viewer))); from
        now on its patches are counted from this."""
        self._refresh(state)
        variants = self._variants(viewer)
        self.held[viewer] = {part: (part, v) for part, v in variants.items()}
        shown: dict = {}
        for part, variant in variants.items():
            shown.update(self._part((part, variant)))
        return shown

    def patch(self, state: Encounter, viewer: Viewer) -> list:
        """Ops from the view this audience holds to its view now: the ops of the parts this
        change touched, and of a part it now sees another way (declarations unsealing)."""
        self._refresh(state)
        held = self.held.get(viewer)
        if held is None:
            return [[[], self.of(state, viewer)]]
        ops: list = []
        switched: tuple[str, ...] = ()
        if self.varying:
            gm = viewer.role == "gm"
            for part, variant in (("declarations", declaration_audience(state, viewer)), ("secrets", (gm, state.status == "ended"))):
                key = (part, variant)
                if held[part] != key:
                    old = held[part]
                    before = self.was[old] if old in self.was else self.values.get(old)  # what this audience holds
                    ops += diff(before or {}, self._part(key))
                    held[part] = key
                    switched += (part,)
        for part in self.changed:
            if part not in switched:
                ops += self._ops(held[part])
        return ops

    def _ops(self, key: tuple) -> list:
        ops = self.ops.get(key)
        if ops is None:
            now = self._part(key)
            before = self.was.get(key)
            pair = (id(before), id(now))  # both alive until the next change: ids stay theirs
            ops = self.diffs.get(pair)
            if ops is None:
                ops = self.diffs[pair] = diff(before, now) if before is not None else [[[k], v] for k, v in now.items()]
            self.ops[key] = ops
        return ops

    def settle(self) -> None:
        """Every audience has this change's patch: let go of the values before it and of
        its ops (an idle encounter holds its views once, not twice)."""
        self.was, self.ops, self.diffs = {}, {}, {}

    def forget(self, keep: Callable[[Viewer], bool]) -> None:
        """Drop audiences that have no client left, and the values nobody holds now."""
        self.held = {v: h for v, h in self.held.items() if keep(v)}
        kept = {key for held in self.held.values() for key in held.values()}
        kept |= {(part, same) for part, variant in kept if (same := self._same(part, variant)) is not None}
        self.values = {k: v for k, v in self.values.items() if k in kept}
        self.at = {k: at for k, at in self.at.items() if k in kept}

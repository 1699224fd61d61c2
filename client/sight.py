"""What a link sees, as the state the simulator's tactics read (server/tactics.py).

A bot plays from its link's view and nothing else: a figure the view leaves out is
not read from anywhere. Where a tactic needs one the view does not give, it guesses
plainly: a foe's unknown hit points rank by its condition, after every foe whose
hit points are shown; an own combatant whose weapons are hidden from this link
carries as many plain melee weapons (5-ft reach) as its attack choice offers. The
rules judge every declaration anyway: what cannot be done is refused, and the
tactic's next choice is tried.
"""

from collections import Counter

from ..rules.model import Combatant, Encounter, Weapon
from ..rules.view import Choice, CombatantView, View

# An unknown HP, by condition: after every known one (no combatant has thousands).
GUESSED_HP = {"down": 0, "badly wounded": 1_000_000, "wounded": 2_000_000, "unhurt": 3_000_000}


def state_of(view: View) -> Encounter:
    """A stand-in state with what `view` shows; no seed, no steps, no declarations."""
    return Encounter(
        id=view.id,
        profile=view.profile,
        options=view.options,
        seed=b"",
        seed_hash=view.seed_hash,
        rules_version=0,
        seq=view.seq,
        status=view.status,
        round=view.round,
        phase=view.phase,
        combatants=[combatant_of(c, view.actions.get(c.id, [])) for c in view.combatants],
        surprised=list(view.surprised),
    )


def combatant_of(c: CombatantView, choices: list[Choice]) -> Combatant:
    hp = c.hp if c.hp is not None else GUESSED_HP.get(c.condition, GUESSED_HP["unhurt"])
    common, figures = c.common or {}, c.figures or {}  # the GM's cards alone carry them
    return Combatant(
        id=c.id,
        name=c.name,
        side=c.side,
        hp=hp,
        hp_max=c.hp_max if c.hp_max is not None else max(hp, 1),
        ac=c.ac if c.ac is not None else 10,
        x=c.x,
        y=c.y,
        move=c.move,
        dex=c.dex,
        down=c.down,
        conditions=list(c.conditions),
        weapons=list(c.weapons) if c.weapons is not None else guessed_weapons(choices),
        klass=str(common.get("klass", "monster")),
        vessel=bool(figures.get("vessel", False)),
    )


def guessed_weapons(choices: list[Choice]) -> list[Weapon]:
    """As many plain weapons as the attack choice offers (none offered: one)."""
    offered = next((ch.options.get("weapon", ()) for ch in choices if ch.type == "attack"), ())
    return [Weapon() for _ in range(max(1, len(offered)))]


def strength(state: Encounter) -> Counter:
    """side -> its fighters, down or not: what a plan's `flee_at` is a share of."""
    return Counter(c.side for c in state.combatants if not c.vessel)

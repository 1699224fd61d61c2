"""What a combatant may declare for the round (003: 'Everyone states what they're doing').

Each action is resolved in one phase of the round (see rules.round).
New options get defaults, tags never change: stored events live forever.
"""

from msgspec import Struct

# The step kinds the actions' own `steps` name (each defined here, once).
SHOOT, SHOOT_MOVE, MOVE_SHOOT = "shoot", "shoot_move", "move_shoot"  # 003's missiles, with a move after or before
HAYMAKER = "haymaker"  # 002: a haymaker's blow, at the attack phase's last turn
ACT = "act"  # rules.model.ACT: a declared action's one step


class ActionBase(Struct, gc=False, tag_field="type", forbid_unknown_fields=True, frozen=True):
    pass


class Attack(ActionBase, tag="attack", frozen=True):
    target: str
    weapon: int = 0  # index into the attacker's weapons
    called_shots: int = 0  # 003: -5 to hit, +1d6 damage each, up to three
    from_behind: bool = False
    subdue: bool = False  # 003: subdual 'must be declared prior to the attack'
    double: bool = False  # 003: a shorter, lighter weapon attacks the longer one's wielder twice
    routine: bool = False  # a monster's attack routine: one strike with each of its usable weapons (003: multiple attacks)
    delay: str = ""  # a later phase to act in (003: 'possible, but usually pointless')


class Move(ActionBase, tag="move", frozen=True):
    x: int
    y: int
    delay: str = ""


class Hold(ActionBase, tag="hold", frozen=True):
    """Do nothing this round (or wait, ready)."""


# --- 003: melee manoeuvres (resolved in rules.holmes.melee)


class Charge(ActionBase, tag="charge", frozen=True):
    """003: move up to full movement in the movement phase, attack at +2, take a counter-attack."""

    target: str
    weapon: int = 0
    called_shots: int = 0


class Approach(ActionBase, tag="approach", frozen=True):
    """003: close in cautiously in the movement phase: no attack this round, no counter-attack."""

    target: str


class SetSpear(ActionBase, tag="set_spear", frozen=True):
    """003: set a spear or polearm against a charge; it readies in the attack phase."""

    weapon: int = 0


class Parry(ActionBase, tag="parry", frozen=True):
    """003: parry/fight defensively for the round with this weapon; attackers take -4."""

    # 003: 'He must also declare which weapon is being used to parry': required when the parrier
    # carries more than one weapon (None: not given, a single weapon is implied; rules.holmes.fighters.parry_weapon).
    weapon: int | None = None


class Kill(ActionBase, tag="kill", frozen=True):
    """003: 'Any character that is truly helpless ... can simply be killed.'"""

    target: str


# --- 003: ranged, burning oil, grappling, spells (resolved in rules.holmes.ranged, oil, grapple, cast)


class Shoot(ActionBase, tag="shoot", frozen=True):
    """A missile attack with a weapon whose `range` > 0 (003, ranged attacks; 002, range and cover)."""

    target: str
    weapon: int = 0
    range_band: str = ""  # '' = from the distance; 'short' | 'medium' | 'long' (002)
    cover: str = "none"  # 'none' | 'quarter' | 'half' | 'three-quarters' | 'full' (002)
    cover_kind: str = "soft"  # 'soft' | 'hard' (002)
    shots: int = 1  # 2: thrown daggers and bows, shooter stationary (003)
    called_shots: int = 0  # 003: 'Any attacker may take a -5 penalty': -5 to hit, +1d6 damage each, up to three
    x: int | None = None  # move here too (bows and thrown weapons only)
    y: int | None = None
    move_first: bool = False  # move, then shoot in the movement phase
    delay: str = ""

    def steps(self) -> list[tuple[str, str]]:
        """003: 'the first attack will take place during the first attack phase of the
        round, the second during the movement phase'; or shoot then move, or move then shoot."""
        if self.x is None:
            return [("attack", SHOOT), ("movement", SHOOT)][: self.shots]
        if self.move_first:
            return [("movement", MOVE_SHOOT)]
        return [("attack", SHOOT), ("movement", SHOOT_MOVE)]


class ThrowOil(ActionBase, tag="throw_oil", frozen=True):
    """A flask of oil, then (with `torch`) a lit torch at the splashed oil (003)."""

    target: str
    range_band: str = ""
    cover: str = "none"
    cover_kind: str = "soft"
    torch: bool = True  # False: only the flask; someone may throw_torch later
    delay: str = ""


class ThrowTorch(ActionBase, tag="throw_torch", frozen=True):
    """A lit torch at oil already splashed on the target (AC 9, 003)."""

    target: str
    range_band: str = ""
    cover: str = "none"
    cover_kind: str = "soft"
    delay: str = ""


class Grapple(ActionBase, tag="grapple", frozen=True):
    target: str
    target_unwilling: bool = False  # 003: 'wholly unarmed or ... unwilling to use lethal force': no hit needed
    delay: str = ""


class StopDropRoll(ActionBase, tag="stop_drop_roll", frozen=True):
    """003: a burning victim may 'stop, drop and roll' after the first round (movement phase)."""


class Cast(ActionBase, tag="cast", frozen=True):
    """A spell, resolved in the magic phase; its effects are the GM's."""

    spell: str
    target: str = ""


# --- 003: devices and fleeing (resolved in rules.holmes.devices)


class UseDevice(ActionBase, tag="use_device", frozen=True):
    """003: 'Wands, rods, and other magic devices are "weapons" and not "spells"':
    resolved in the attack phase; its effects are the GM's."""

    device: str
    target: str = ""


class Flee(ActionBase, tag="flee", frozen=True):
    """Run: move up to the move rate in the movement phase, then out of the fight ('fled')."""

    x: int
    y: int


# --- footing: getting up and re-arming (resolved in rules.holmes.footing)


class Stand(ActionBase, tag="stand", frozen=True):
    """Get up from prone (003's stop-drop-roll leaves the victim prone); movement phase."""


class Recover(ActionBase, tag="recover", frozen=True):
    """Pick up a dropped weapon (a disarming parry, a surprised gawper's drop); movement phase."""

    weapon: int = 0


# --- 000 (ll-house): maneuvers open to everyone, staunching the dying (resolved in rules.llhouse)


class ShieldBash(ActionBase, tag="shield_bash", frozen=True):
    """000: 'Any character with a shield can try to do a Shield Bash instead of a normal attack.'"""

    target: str


class TwoWeapons(ActionBase, tag="two_weapons", frozen=True):
    """000: two-weapon fighting, a one-handed weapon in each hand; `off_hand` no bigger than `weapon`."""

    target: str
    weapon: int = 0  # the main hand
    off_hand: int = 1


class Staunch(ActionBase, tag="staunch", frozen=True):
    """000: 'Another character may attempt to stabilize you by staunching the wound (DC11)'."""

    target: str


# --- the actions of a table's own profile package (rules.ruleset: docs/profiles.md)


class House(ActionBase, tag="house", frozen=True):
    """An action a profile outside this package adds, named `name`: its module's
    actions hold it as 'house:<name>' (its check, words and resolution)."""

    name: str
    target: str = ""
    weapon: int = 0
    phase: str = "attack"  # the phase it resolves in: attack | movement | magic

    def steps(self) -> list[tuple[str, str]]:
        return [(self.phase, ACT)]


_WIRE: dict[type, str] = {}  # action class -> its tag (read on every declaration: looked up, not built)


def tag(action: ActionBase) -> str:
    """The action's wire tag: 'attack', 'move', ...; a house action's 'house:<name>'."""
    known = _WIRE.get(type(action))
    if known is not None:
        return known
    if isinstance(action, House):
        return f"house:{action.name}"
    wire = action.__struct_config__.tag
    assert isinstance(wire, str)  # every action class is given a str tag
    _WIRE[type(action)] = wire
    return wire


# --- 002: the thac0-sheet profile's own actions (resolved in rules.thac0sheet)


class Strike(ActionBase, tag="strike", frozen=True):
    """002 'Striking': an unarmed blow of 1 + δS (0 if pulled) that may stun or knock out."""

    target: str
    pulled: bool = False  # 002: 'or 0 if pulled'
    haymaker: bool = False  # 002: 'Lose initiative, -5 to hit: -4 on SvDR, and no size limit'

    def steps(self) -> list[tuple[str, str]]:
        return [("attack", HAYMAKER if self.haymaker else ACT)]  # a haymaker waits for the phase's last turn


class Wrestle(ActionBase, tag="wrestle", frozen=True):
    """002 'Wrestling': compare 1d20 + w, each win a hold further, grab -> fall -> pin."""

    target: str

    def steps(self) -> list[tuple[str, str]]:
        return [("attack", ACT)]


class GrappleShip(ActionBase, tag="grapple_ship", frozen=True):
    """002 'Naval combat': a vessel's grapnels at one within 50 ft, 2 in 6 or by mutual agreement."""

    target: str

    def steps(self) -> list[tuple[str, str]]:
        return [("movement", ACT)]


class Board(ActionBase, tag="board", frozen=True):
    """002 'Naval combat': cross to a grappled vessel and attack there, -2 on hit rolls and AC."""

    target: str
    weapon: int = 0

    def steps(self) -> list[tuple[str, str]]:
        return [("attack", ACT)]  # the leap and the blow are one act (a ruling)


class Repair(ActionBase, tag="repair", frozen=True):
    """002 'Naval combat': five crewmen patch a vessel, 1 hull point a turn, up to half the damage."""

    def steps(self) -> list[tuple[str, str]]:
        return [("movement", ACT)]


# Every action a declaration may carry: the stream's decoder is this one union.
Action = (
    Attack
    | Move
    | Hold
    | Shoot
    | ThrowOil
    | ThrowTorch
    | Grapple
    | StopDropRoll
    | Cast  # 003
    | Charge
    | Approach
    | SetSpear
    | Parry
    | Kill  # 003 melee (rules.holmes.melee)
    | Stand
    | Recover  # footing (rules.holmes.footing)
    | UseDevice
    | Flee  # 003 devices and fleeing (rules.holmes.devices)
    | ShieldBash
    | TwoWeapons
    | Staunch  # 000 (rules.llhouse)
    | Strike
    | Wrestle
    | GrappleShip
    | Board
    | Repair  # 002 (rules.thac0sheet)
    | House  # a table's own package's (rules.ruleset)
)

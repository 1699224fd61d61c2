"""A character sheet exported from Foundry VTT's Old-School Essentials system (the
`ose` system's actor JSON: "Export Data" on an actor), as a campaign character: what
maps, mapped; the rest listed by name, so the GM sees what was left out.

The actor's shape, from the system's data models: `name`; `system` (`data` before
Foundry 10) with `details` {class, level}, `hp` {value, max}, `ac` {value}
(descending) and `aac` {value} (ascending), `thac0` {value, bba}, `scores` {str, int,
wis, dex, con, cha: {value}}, `movement` {base}; and `items`, each {name, type,
system}: `weapon` {damage, bonus, melee, missile, range {short, medium, long},
equipped}, `armor` {type unarmored|light|heavy|shield, ac, aac, equipped, cost},
`item` {quantity {value}, cost}. Pure: a decoded document in, a character out."""

from msgspec import structs

from ..charts.ll_house import ARMOR
from ..charts.thac0 import CLASSES
from ..model import Combatant, Weapon, descending
from .sheet import Character, Gear

# The gear a campaign counts, by the words an item's name holds (lower case).
GEAR_WORDS = {"oil": ("oil",), "torches": ("torch",), "arrows": ("arrow",)}
MAPPED = {"details", "hp", "ac", "aac", "thac0", "scores", "movement", "currency"}  # the system fields read


def _value(node, default=0):
    """`{value: n}` -> n; a bare number -> itself."""
    if isinstance(node, dict):
        node = node.get("value", default)
    return node if isinstance(node, int) and not isinstance(node, bool) else default


def _armor_name(name: str) -> str:
    """000's armor chart's name for an armor item ('Chain mail' -> 'chain mail'), or ''."""
    said = name.lower().replace("armour", "armor").removesuffix(" armor").strip()
    return next((a for a in ARMOR if a == said or a.split()[0] == said), "")


def from_actor(actor: dict, owner: str = "") -> tuple[Character, list[str]]:
    """The character, and what of the actor was left out. ValueError if it is no actor."""
    if not isinstance(actor, dict) or not isinstance(actor.get("name"), str):
        raise ValueError("not a Foundry actor: it needs a 'name' and a 'system'")
    system = actor.get("system", actor.get("data"))
    if not isinstance(system, dict):
        raise ValueError("not a Foundry actor: it needs a 'system' (or, before Foundry 10, 'data')")
    left: list[str] = [f"system.{k}" for k in sorted(system) if k not in MAPPED]
    details, scores = system.get("details") or {}, system.get("scores") or {}
    klass = str(details.get("class", "")).strip().lower().replace(" ", "-")
    if klass not in CLASSES:
        left.append(f"class {details.get('class')!r} (not one of Fray's: {', '.join(CLASSES)})")
        klass = "fighter"
    hp_max = max(1, _value(system.get("hp", {}).get("max"), 1) if isinstance(system.get("hp"), dict) else 1)
    sheet = Combatant(
        name=actor["name"][:60] or "Nameless",
        side="party",
        klass=klass,
        level=max(0, _value(details.get("level"), 1)),
        hp=min(hp_max, _value(system.get("hp"), hp_max)),
        hp_max=hp_max,
        dex=_value(scores.get("dex"), 10) or 10,
        int_=_value(scores.get("int"), 10) or 10,
        con=_value(scores.get("con"), 10) or 10,
        move=_value((system.get("movement") or {}).get("base"), 120) or 120,
        pc=True,
    )
    if _value(system.get("aac")):
        sheet = structs.replace(sheet, ac=_value(system.get("aac")))  # ascending, as Fray holds AC
    elif isinstance(system.get("ac"), dict) and "value" in system["ac"]:
        sheet = structs.replace(sheet, ac=descending(_value(system["ac"], 9)))  # 19 - descending
    thac0 = system.get("thac0") or {}
    if isinstance(thac0.get("bba"), int) and thac0["bba"]:
        sheet = structs.replace(sheet, attack_bonus=thac0["bba"])
    elif isinstance(thac0.get("value"), int):
        sheet = structs.replace(sheet, attack_bonus=19 - thac0["value"])  # THAC0 19 is +0
    abilities = {k: _value(scores.get(k)) for k in ("str", "wis", "cha") if 1 <= _value(scores.get(k)) <= 25}
    gear = {"coin": max(0, _value((system.get("currency") or {}).get("gold")))}
    weapons: list[Weapon] = []
    for item in actor.get("items") or []:
        kind, name, data = item.get("type"), str(item.get("name", ""))[:60], item.get("system", item.get("data")) or {}
        if kind == "weapon":
            missile, melee = bool(data.get("missile")), bool(data.get("melee", True))
            reach = _value((data.get("range") or {}).get("long")) if missile else 0
            weapons.append(
                Weapon(
                    name=name.lower(),
                    damage=str(data.get("damage") or "1d6"),
                    bonus=_value(data.get("bonus")),
                    range=reach,
                    missile=("bow" if "bow" in name.lower() else "thrown") if missile and not melee else "",
                )
            )
        elif kind == "armor" and data.get("equipped", True):
            if data.get("type") == "shield":
                sheet = structs.replace(sheet, shield=True)
                gear["shield_cost"] = _value(data.get("cost"))
            elif _armor_name(name):
                sheet = structs.replace(sheet, armor=_armor_name(name))
                gear["armor_cost"] = _value(data.get("cost"))
            else:
                left.append(f"armor {name!r} (not on 000's armor chart)")
        elif kind == "item" and (count := next((g for g, words in GEAR_WORDS.items() if any(w in name.lower() for w in words)), None)):
            gear[count] = gear.get(count, 0) + _value(data.get("quantity"), 1)
        else:
            left.append(f"{kind} {name!r}")
    if weapons:
        sheet = structs.replace(sheet, weapons=weapons)
    return Character(owner=owner[:60], sheet=sheet, abilities=abilities, gear=Gear(**gear)), left

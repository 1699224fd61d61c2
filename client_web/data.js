// Ready data for the GM console: armor, weapons and a small bestiary. Armor Class
// is ascending, as Fray holds it (rules/model.py); a descending-AC profile shows
// 19 - AC to its players.

// 000 "Combat: Special Rules and Charts", ARMOR TYPE / ARMOR CLASS chart.
export const ARMOR = [
  ["unarmored", 10],
  ["padded", 11],
  ["leather", 12],
  ["studded leather", 13],
  ["scale", 14],
  ["chain mail", 15],
  ["horse barding", 15],
  ["banded mail", 16],
  ["splint mail", 16],
  ["plate mail", 17],
];
export const SHIELD_AC = 1; // 000: "Shield +1"

// Weapons as rules/model.py's Weapon. Damage: Labyrinth Lord's variable weapon damage
// (000 and 001 play by it; 003 hits for 1-6 unless the `weapon_damage` option is on).
// length (ft) and weight are this table's rulings for 003's weapon-length, parry and
// disarm rules ("the wielder of the longer weapon makes their attack first"; "their
// weapon is heavier"); range (ft) for thrown and missile weapons.
export const WEAPONS = {
  dagger: { name: "dagger", damage: "1d4", length: 1, weight: 1, range: 30, missile: "dagger" },
  "short sword": { name: "short sword", damage: "1d6", length: 2, weight: 2 },
  sword: { name: "sword", damage: "1d8", length: 3, weight: 3 },
  "two-handed sword": { name: "two-handed sword", damage: "1d10", length: 5, weight: 5 },
  axe: { name: "axe", damage: "1d6", length: 3, weight: 4 },
  "battle axe": { name: "battle axe", damage: "1d8", length: 4, weight: 5 },
  mace: { name: "mace", damage: "1d6", length: 2, weight: 3 },
  club: { name: "club", damage: "1d4", length: 3, weight: 4, material: "wood" },
  "war hammer": { name: "war hammer", damage: "1d6", length: 2, weight: 3 },
  spear: { name: "spear", damage: "1d6", length: 6, weight: 4, reach: 10, range: 30, polearm: true, missile: "thrown" },
  "pole arm": { name: "pole arm", damage: "1d10", length: 10, weight: 6, reach: 10, polearm: true },
  "short bow": { name: "short bow", damage: "1d6", length: 1, weight: 1, range: 150, missile: "bow" },
  "long bow": { name: "long bow", damage: "1d6", length: 1, weight: 1, range: 210, missile: "bow" },
  "light crossbow": { name: "light crossbow", damage: "1d6", length: 1, weight: 2, range: 180 },
  sling: { name: "sling", damage: "1d4", length: 1, weight: 1, range: 120 },
  "bite (wolf)": { name: "bite", damage: "1d6", length: 1, weight: 1, material: "bone" },
};

// A small bestiary after Labyrinth Lord's monster entries (its AC converted to
// ascending: 19 - descending), for the GM to drop into a fight. hp: a typical roll.
export const BESTIARY = [
  { key: "goblin", name: "Goblin", armor: "leather", shield: true, hd: 1, hp: 4, weapons: ["short sword"], dex: 10, move: 60, size: "S", human: false },
  { key: "kobold", name: "Kobold", armor: "leather", hd: 1, hp: 3, weapons: ["club"], dex: 10, move: 60, size: "S" },
  { key: "orc", name: "Orc", armor: "leather", shield: true, hd: 1, hp: 5, weapons: ["axe"], dex: 9, move: 120 },
  { key: "hobgoblin", name: "Hobgoblin", armor: "leather", shield: true, hd: 1, hd_plus: 1, hp: 6, weapons: ["sword"], dex: 10, move: 90 },
  { key: "gnoll", name: "Gnoll", armor: "scale", hd: 2, hp: 10, weapons: ["battle axe"], dex: 9, move: 90, size: "L" },
  { key: "skeleton", name: "Skeleton", armor: "padded", hd: 1, hp: 4, weapons: ["sword"], dex: 10, move: 60, mindless: true },
  { key: "zombie", name: "Zombie", armor: "leather", hd: 2, hp: 9, weapons: ["club"], dex: 6, move: 90, mindless: true },
  { key: "wolf", name: "Wolf", armor: "padded", hd: 2, hd_plus: 2, hp: 11, weapons: ["bite (wolf)"], dex: 14, move: 180, man_type: false },
  { key: "bandit", name: "Bandit", armor: "leather", shield: true, hd: 1, hp: 5, weapons: ["sword", "short bow"], dex: 11, move: 120, human: true },
  { key: "bugbear", name: "Bugbear", armor: "studded leather", hd: 3, hd_plus: 1, hp: 14, weapons: ["battle axe"], dex: 10, move: 90, size: "L" },
];

export function armorClass(armor, shield) {
  const found = ARMOR.find(([name]) => name === armor);
  return (found ? found[1] : 10) + (shield ? SHIELD_AC : 0);
}

/** A Combatant (rules/model.py) from a bestiary entry. */
export function fromBestiary(entry, { name, side, x, y, hidden, unseen }) {
  const c = {
    name,
    side,
    ac: armorClass(entry.armor, entry.shield),
    armor: entry.armor ?? "", // 000's armor damage (profile ll-house) counts against it
    shield: Boolean(entry.shield),
    hp: entry.hp,
    hp_max: entry.hp,
    hd: entry.hd,
    hd_plus: entry.hd_plus ?? 0,
    klass: "monster",
    weapons: entry.weapons.map((w) => ({ ...WEAPONS[w] })),
    dex: entry.dex,
    move: entry.move,
    size: entry.size ?? "M",
    human: Boolean(entry.human),
    mindless: Boolean(entry.mindless),
    man_type: entry.man_type ?? true,
    x,
    y,
    hidden: Boolean(hidden),
  };
  if (unseen) c.unseen = true; // off the table's map until the GM reveals it (rules/unseen.py)
  return c;
}

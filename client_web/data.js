// The GM console's ready data, read from the rules (rules/ready.py), served with every
// profile by GET /api/profiles (`ready`: 000's armor chart, the weapons, a small bestiary),
// so no page keeps a copy. Armor Class is ascending, as Fray holds it (rules/model.py); a
// descending-AC profile shows 19 - AC to its players.

/** The ready data of the profiles' answer (the same under every profile). */
export function readyOf(profiles) {
  return Object.values(profiles)[0]?.ready ?? { armor: [], shield: 1, weapons: {}, bestiary: [] };
}

export function armorClass(ready, armor, shield) {
  const found = ready.armor.find(([name]) => name === armor);
  return (found ? found[1] : 10) + (shield ? ready.shield : 0);
}

/** A Combatant (rules/model.py) from a bestiary entry (rules/ready.py's ReadyMonster). */
export function fromBestiary(ready, entry, { name, side, x, y, hidden, unseen }) {
  const c = {
    name,
    side,
    ac: entry.ac || armorClass(ready, entry.armor, entry.shield),
    armor: entry.armor === "unarmored" ? "" : entry.armor ?? "", // 000's armor damage (profile ll-house) counts against it
    shield: Boolean(entry.shield),
    hp: entry.hp,
    hp_max: entry.hp,
    hd: entry.hd,
    hd_plus: entry.hd_plus ?? 0,
    klass: entry.klass ?? "monster",
    weapons: entry.weapons.map((w) => ({ ...ready.weapons[w] })),
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

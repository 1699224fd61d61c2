// GM console, the table's contents: add combatants from the bestiary (or from
// scratch) with the documents' armor and weapons (data.js), set conditions and
// hidden figures, remove a combatant, call morale. Each form sends one command;
// the reducer judges it.

import { armorClass, fromBestiary, readyOf } from "./data.js";
import { h, replace } from "./dom.js";
import { loadProfiles } from "./gm_links.js";
import { nameOf } from "./render.js";

const NEW_SIDE = ""; // the side select's "a new side…": a side always has a name
const whole = (input) => (input.value.trim() === "" ? NaN : Number(input.value));

function field(id, label, input) {
  return h("div", { class: "field" }, h("label", { for: id }, label), input);
}

function number(id, value, more = {}) {
  return h("input", { type: "number", id, testid: id, value: String(value), inputmode: "numeric", ...more });
}

/** Fill a <select> of combatants, keeping the choice if it is still there. */
export function fillCombatants(select, view, extra = []) {
  const items = [...extra, ...view.combatants.map((c) => [c.id, `${c.name} (${c.side})`])];
  const labels = JSON.stringify(items);
  if (select.dataset.items === labels) return;
  const chosen = select.value;
  replace(select, items.map(([v, label]) => h("option", { value: v }, label)));
  select.dataset.items = labels;
  if (items.some(([v]) => v === chosen)) select.value = chosen;
}

export class AddCombatant {
  constructor(send, complain) {
    this.send = send;
    this.view = null;
    this.ready = readyOf({}); // the rules' armor, weapons and monsters, once GET /api/profiles has answered
    this.template = h("select", { id: "add-template", testid: "add-template" }, h("option", { value: "" }, "custom"));
    this.name = h("input", { id: "add-name", testid: "add-name", autocomplete: "off", required: true, maxlength: 60 });
    // The side they join: one of the fight's (the GM picks; the hidden ones' side first), or a new one named here.
    this.sidePick = h("select", { id: "add-side-pick", testid: "add-side-pick" }, h("option", { value: NEW_SIDE }, "a new side…"));
    this.side = h("input", { id: "add-side", testid: "add-side", autocomplete: "off", maxlength: 40, placeholder: "its name" });
    this.sides = h("span", { class: "new-side" }, h("label", { for: "add-side", class: "sr-only" }, "New side's name"), this.side);
    this.sidePick.addEventListener("change", () => this.showSide());
    this.count = number("add-count", 1, { min: 1, max: 20 });
    this.armor = h("select", { id: "add-armor", testid: "add-armor" });
    this.shield = h("input", { type: "checkbox", id: "add-shield", testid: "add-shield" });
    this.hp = number("add-hp", 4, { min: 1 });
    this.hd = number("add-hd", 1, { min: 0 });
    this.weapon = h("select", { id: "add-weapon", testid: "add-weapon" });
    this.x = number("add-x", 40, { min: 0, step: 5 });
    this.y = number("add-y", 20, { min: 0, step: 5 });
    this.hidden = h("input", { type: "checkbox", id: "add-hidden", testid: "add-hidden", checked: true });
    this.unseen = h("input", { type: "checkbox", id: "add-unseen", testid: "add-unseen" }); // an ambush: off the table's map until revealed
    this.ac = h("span", { testid: "add-ac" });
    for (const el of [this.armor, this.shield]) el.addEventListener("change", () => this.showAc());
    this.template.addEventListener("change", () => this.fill());

    this.form = h(
      "form",
      { class: "gm-form", testid: "add-form" },
      h("div", { class: "row" }, field("add-template", "Ready monster", this.template), field("add-name", "Name", this.name),
        h("div", { class: "field" }, h("label", { for: "add-side-pick" }, "Side"), h("span", { class: "row" }, this.sidePick, this.sides)),
        field("add-count", "How many", this.count)),
      h("div", { class: "row" }, field("add-armor", "Armor (000)", this.armor),
        h("div", { class: "field check" }, this.shield, h("label", { for: "add-shield" }, "shield +1")),
        h("p", { class: "hint" }, "AC ", this.ac), field("add-hp", "HP", this.hp), field("add-hd", "HD", this.hd)),
      h("div", { class: "row" }, field("add-weapon", "Weapon", this.weapon), field("add-x", "x (ft)", this.x), field("add-y", "y (ft)", this.y),
        h("div", { class: "field check" }, this.hidden, h("label", { for: "add-hidden" }, "hide figures from players")),
        h("div", { class: "field check" }, this.unseen, h("label", { for: "add-unseen" }, "unseen by the table until revealed"))),
      h("button", { type: "submit", testid: "add-submit" }, "Add to the fight"),
    );
    this.form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const made = this.combatants();
      if (typeof made === "string") {
        complain(made);
        return;
      }
      for (const c of made) send({ type: "add_combatant", combatant: c }, `add ${c.name}`);
    });
    loadProfiles().then(
      (p) => this.offer(readyOf(p)),
      () => complain("The ready monsters, armor and weapons did not load (GET /api/profiles): reload to try again."),
    );
  }

  /** The rules' ready data into the form's choices (rules/ready.py), the first monster chosen. */
  offer(ready) {
    this.ready = ready;
    replace(this.template, ready.bestiary.map((b) => h("option", { value: b.key }, `${b.name} (morale ${b.morale})`)), h("option", { value: "" }, "custom"));
    replace(this.armor, ready.armor.map(([n, ac]) => h("option", { value: n }, `${n} (AC ${ac})`)));
    replace(this.weapon, Object.entries(ready.weapons).map(([key, w]) => h("option", { value: key }, `${key} (${w.damage})`)));
    this.fill();
  }

  /** A ready monster's own AC (a natural one) while its armor and shield are as it has them. */
  entry() {
    const b = this.ready.bestiary.find((x) => x.key === this.template.value);
    const own = b && b.armor === this.armor.value && Boolean(b.shield) === this.shield.checked;
    return { b, ac: own ? b.ac : 0 };
  }

  fill() {
    const b = this.ready.bestiary.find((x) => x.key === this.template.value);
    if (!b) return;
    this.name.value = b.name;
    this.armor.value = b.armor;
    this.shield.checked = Boolean(b.shield);
    this.hp.value = String(b.hp);
    this.hd.value = String(b.hd);
    this.weapon.value = b.weapons[0];
    this.showAc();
  }

  showSide() {
    this.sides.hidden = this.sidePick.value !== NEW_SIDE;
  }

  showAc() {
    this.ac.textContent = String(this.entry().ac || armorClass(this.ready, this.armor.value, this.shield.checked));
  }

  /** The combatants to add, or a sentence saying what is wrong. */
  combatants() {
    const name = this.name.value.trim();
    const side = this.sidePick.value === NEW_SIDE ? this.side.value.trim() : this.sidePick.value;
    const [count, hp, hd, x, y] = [this.count, this.hp, this.hd, this.x, this.y].map(whole);
    if (!name || !side) return "A combatant needs a name and a side.";
    if (![count, hp, hd, x, y].every(Number.isInteger) || count < 1 || count > 20 || hp < 1) {
      return "Count (1-20), HP, HD and the position must be whole numbers.";
    }
    const b = this.entry().b ?? { armor: "unarmored", hd: 1, hp: 4, weapons: [this.weapon.value], dex: 10, move: 120 };
    const entry = { ...b, ac: this.entry().ac, armor: this.armor.value, shield: this.shield.checked, hp, hd, weapons: [this.weapon.value, ...b.weapons.slice(1)] };
    const taken = new Set(this.view?.combatants.map((c) => c.name) ?? []);
    const out = [];
    for (let i = 0, n = 1; out.length < count; n++) {
      const named = count === 1 && !taken.has(name) ? name : `${name} ${n}`;
      if (taken.has(named)) continue;
      taken.add(named);
      out.push(fromBestiary(this.ready, entry, { name: named, side, x: x + 5 * i, y, hidden: this.hidden.checked, unseen: this.unseen.checked }));
      i++;
    }
    return out;
  }

  update(view) {
    this.view = view;
    // The sides with hidden combatants first (the GM's monsters), then the rest in the order they appear.
    const all = [...new Set(view.combatants.map((c) => c.side))];
    const hidden = new Set(view.combatants.filter((c) => c.hidden).map((c) => c.side));
    const sides = [...all.filter((x) => hidden.has(x)), ...all.filter((x) => !hidden.has(x))];
    if (this.sidePick.dataset.items !== JSON.stringify(sides)) {
      const chosen = this.sidePick.dataset.items ? this.sidePick.value : null; // the first time, the default
      replace(this.sidePick, sides.map((x) => h("option", { value: x }, x)), h("option", { value: NEW_SIDE }, "a new side…"));
      this.sidePick.dataset.items = JSON.stringify(sides);
      this.sidePick.value = chosen !== null && (chosen === NEW_SIDE || sides.includes(chosen)) ? chosen : sides[0] ?? NEW_SIDE;
      this.showSide();
    }
  }
}

export class Conditions {
  constructor(send) {
    this.send = send;
    this.view = null;
    this.who = h("select", { id: "cond-who", testid: "cond-who" });
    this.boxes = h("div", { class: "row checks", testid: "cond-boxes" });
    this.hidden = h("input", { type: "checkbox", id: "cond-hidden", testid: "cond-hidden" });
    this.removeArmed = null;
    this.profiles = null; // GET /api/profiles: each profile's `words` name the conditions offered
    loadProfiles().then(
      (p) => {
        this.profiles = p;
        this.show();
      },
      () => {}, // the boxes then offer the card's own conditions; the Figures form says why
    );
    this.remove = h("button", { type: "button", class: "danger", testid: "remove-combatant", on: { click: () => this.confirmRemove() } }, "Remove from the fight");
    this.who.addEventListener("change", () => this.show());
    this.form = h(
      "form",
      { class: "gm-form", testid: "cond-form" },
      field("cond-who", "Combatant", this.who),
      this.boxes,
      h("div", { class: "field check" }, this.hidden, h("label", { for: "cond-hidden" }, "hide HP and AC from players")),
      h("div", { class: "buttons" }, h("button", { type: "submit", testid: "cond-submit" }, "Set conditions"), this.remove),
    );
    this.form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const conditions = [...this.boxes.querySelectorAll("input:checked")].map((b) => b.value);
      const id = this.who.value;
      send({ type: "edit_combatant", id, conditions, hidden: this.hidden.checked }, `conditions of ${nameOf(this.view, id)}`);
    });
  }

  confirmRemove() {
    const id = this.who.value;
    if (this.removeArmed === id) {
      this.removeArmed = null;
      this.remove.textContent = "Remove from the fight";
      this.send({ type: "remove_combatant", id }, `remove ${nameOf(this.view, id)}`);
      return;
    }
    this.removeArmed = id;
    this.remove.textContent = `Really remove ${nameOf(this.view, id)}? Click again`;
    setTimeout(() => {
      this.removeArmed = null;
      this.remove.textContent = "Remove from the fight";
    }, 4000);
  }

  show() {
    const c = this.view?.combatants.find((x) => x.id === this.who.value);
    if (!c) return;
    // The conditions the rules offer (GET /api/profiles: rules/words.py), and any on the card.
    const names = [...new Set([...(this.profiles?.[this.view.profile]?.words?.conditions ?? []), ...c.conditions])];
    const key = JSON.stringify([c.id, c.conditions, c.hidden, names]);
    if (this.boxes.dataset.key === key) return;
    this.boxes.dataset.key = key;
    replace(
      this.boxes,
      names.map((n) => {
        const id = `cond-${n.replace(/[^a-z0-9_-]/gi, "")}`;
        return h("div", { class: "field check" }, h("input", { type: "checkbox", id, testid: id, value: n, checked: c.conditions.includes(n) }), h("label", { for: id }, n));
      }),
    );
    this.hidden.checked = Boolean(c.hidden);
  }

  update(view) {
    this.view = view;
    fillCombatants(this.who, view);
    this.show();
  }
}

export class Morale {
  constructor(send, complain) {
    this.view = null;
    this.who = h("select", { id: "morale-who", testid: "morale-who" });
    this.modifier = number("morale-mod", 0, { min: -10, max: 10 });
    this.form = h(
      "form",
      { class: "inline", testid: "morale-form" },
      field("morale-who", "Call morale for", this.who),
      field("morale-mod", "modifier", this.modifier),
      h("button", { type: "submit", testid: "morale-submit" }, "Roll morale (003)"),
    );
    this.form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const modifier = whole(this.modifier);
      if (!Number.isInteger(modifier)) {
        complain("The morale modifier must be a whole number.");
        return;
      }
      const [kind, value] = this.who.value.split(/:(.*)/s);
      const command = { type: "call_morale", modifier, ...(kind === "side" ? { side: value } : { combatant: value }) };
      send(command, `morale of ${kind === "side" ? value : nameOf(this.view, value)}`);
    });
  }

  update(view) {
    this.view = view;
    const sides = [...new Set(view.combatants.map((c) => c.side))];
    const items = [...sides.map((s) => [`side:${s}`, `side ${s}`]), ...view.combatants.filter((c) => !c.down).map((c) => [`one:${c.id}`, `${c.name} (${c.side})`])];
    const labels = JSON.stringify(items);
    if (this.who.dataset.items === labels) return;
    const chosen = this.who.value;
    replace(this.who, items.map(([v, l]) => h("option", { value: v }, l)));
    this.who.dataset.items = labels;
    if (items.some(([v]) => v === chosen)) this.who.value = chosen;
  }
}

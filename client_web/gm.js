// The GM console, the override panel: start the fight, close declarations,
// force dice, edit a combatant's figures, end the fight. The server and the
// reducer judge every command; the disabled states only spare the GM a refusal.

import { readyOf } from "./data.js";
import { h, replace } from "./dom.js";
import { GmBar } from "./gm_bar.js";
import { Figures } from "./gm_figures.js";
import { Links, NewEncounter, loadProfiles } from "./gm_links.js";
import { AddCombatant, Conditions, Morale } from "./gm_setup.js";
import { byDieText, sendForced } from "./dice_queue.js";
import { Deadliness } from "./gm_simulate.js";
import { Tactics } from "./gm_tactics.js";
import { nameOf } from "./render.js";

// The figures every view shows the GM; AC is in the profile's own convention (ac_style),
// as the cards show it. Then the shield and armor, then every figure the profile
// declares (GET /api/profiles: 003's common figures, then its own), once loaded.
const EDITABLE = [
  ["hp", "HP"],
  ["hp_max", "max HP"],
  ["ac", "AC"],
  ["attack_bonus", "attack bonus"],
  ["dex", "DEX"],
  ["move", "move (ft)"],
  ["x", "x (ft)"],
  ["y", "y (ft)"],
];
const SHIELD = { name: "shield", label: "shield (000: +1 AC)", kind: "shield" };
// 000's armor chart, as the rules serve it (rules/ready.py, GET /api/profiles `ready`).
const armorFigure = (ready) => ({ name: "armor", label: "armor (000's chart)", kind: "str", choices: ["", ...ready.armor.map(([n]) => n)], default: "" });
const descendingAc = (view) => view?.combatants.some((c) => c.ac !== null && c.ac !== undefined && c.ac_shown !== c.ac);

/**
 * A click handler that acts on the second click within 4 s (ending the fight, moving it to
 * newer rules: neither is undone by a click): the first shows `warning` on the button.
 */
function twice(warning, act) {
  return (ev) => {
    const el = ev.currentTarget;
    if (el.dataset.armed) {
      clearTimeout(Number(el.dataset.armed));
      delete el.dataset.armed;
      el.textContent = el.dataset.label;
      act();
      return;
    }
    el.dataset.label = el.textContent;
    el.textContent = warning;
    el.dataset.armed = String(
      setTimeout(() => {
        delete el.dataset.armed;
        el.textContent = el.dataset.label;
      }, 4000),
    );
  };
}

export class GmConsole {
  /**
   * @param {HTMLElement} root
   * @param {(command: object, label: string) => void} send
   * @param {(message: string) => void} complain
   * @param {{encounter: string, token: string, notify: (message: string) => void}} link  for the HTTP parts
   */
  constructor(root, send, complain, link) {
    this.root = root;
    this.send = send;
    this.view = null;
    this.prefilled = "";

    const button = (testid, label, click) => h("button", { type: "button", testid, on: { click } }, label);
    this.bar = new GmBar(send, link.answer);
    document.querySelector(".top")?.after(this.bar.el);
    this.start = button("start", "Start the fight", () => send({ type: "start" }, "start"));
    this.advance = button("advance", "Close declarations and resolve", () => this.bar.advance(this.advance));
    this.advance.dataset.label = "Close declarations and resolve";
    this.end = button("end", "End the fight", twice("Really end? Click again", () => send({ type: "end" }, "end")));
    // A fight keeps the rules it was created with; the GM may play on under the server's newest (upgrade_rules).
    this.upgradeNote = h("span", { class: "hint", testid: "upgrade-note" });
    this.upgrade = button(
      "upgrade-rules",
      "Play on under today's rules",
      twice("Really? Click again: the log will say so", () => {
        send({ type: "upgrade_rules" }, "play on under today's rules");
        this.upgradeBox.hidden = true; // the welcome after a reconnect says where the fight is
      }),
    );
    this.upgradeBox = h("p", { class: "upgrade", testid: "upgrade-rules-box", hidden: true }, this.upgradeNote, " ", this.upgrade);

    this.forceInput = h("input", { id: "force-input", testid: "force-input", inputmode: "numeric", placeholder: "e.g. d20: 20, 17; d6: 3", autocomplete: "off" });
    this.forced = h("span", { testid: "forced-queue" }, "none");
    this.forcedByDie = h("span", { testid: "forced-by-die" }, "none");
    this.clearForced = h("button", { type: "button", class: "small", testid: "clear-forced", on: { click: () => send({ type: "clear_forced" }, "clear the forced dice") } }, "Clear");
    const forceForm = h(
      "form",
      { class: "inline", testid: "force-form" },
      h("label", { for: "force-input" }, "Force the next dice"),
      this.forceInput,
      h("button", { type: "submit", testid: "force-rolls" }, "Queue"),
    );
    forceForm.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const wrong = sendForced(this.forceInput.value, send); // "d20: 20, 17; d6: 3" by die, "20 6" for any die
      if (wrong) {
        complain(wrong);
        return;
      }
      this.forceInput.value = "";
    });

    this.editWho = h("select", { id: "edit-combatant", testid: "edit-combatant" });
    this.figureList = []; // the profile's declared figures, once GET /api/profiles has answered
    this.editField = h("select", { id: "edit-field", testid: "edit-field" });
    this.fillFields();
    this.editValue = h("input", { type: "number", id: "edit-value", testid: "edit-value", inputmode: "numeric", required: true });
    this.valueBox = h("span", { class: "edit-value" }, this.editValue);
    this.editHint = h("span", { class: "hint", testid: "edit-hint" });
    const editForm = h(
      "form",
      { class: "inline", testid: "edit-form" },
      h("label", { for: "edit-combatant" }, "Edit"),
      this.editWho,
      h("label", { for: "edit-field", class: "sr-only" }, "Field"),
      this.editField,
      h("label", { for: "edit-value", class: "sr-only" }, "New value"),
      this.valueBox,
      h("button", { type: "submit", testid: "edit-submit" }, "Set"),
      this.editHint,
    );
    for (const s of [this.editWho, this.editField]) s.addEventListener("change", () => this.prefill());
    editForm.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const id = this.editWho.value;
      let edit;
      try {
        edit = this.readEdit(id);
      } catch (err) {
        complain(err.message);
        return;
      }
      send({ type: "edit_combatant", id, ...edit }, `edit ${nameOf(this.view, id)}`);
    });
    loadProfiles().then(
      (p) => {
        this.profiles = p;
        this.fillFields();
        this.prefill();
      },
      () => {}, // the basic fields still work; the Figures form says why the rest did not load
    );

    this.adder = new AddCombatant(send, complain);
    this.conditions = new Conditions(send);
    this.morale = new Morale(send, complain);
    this.figures = new Figures(send, complain);
    this.links = new Links(link.encounter, link.token, link.notify, complain);
    this.fresh = new NewEncounter(complain);
    this.deadliness = new Deadliness(link.encounter, link.token, complain);
    this.tactics = new Tactics(link.encounter, link.token, complain);
    const section = (testid, title, ...body) => h("details", { class: "gm-section", testid }, h("summary", {}, title), body);
    replace(
      root,
      h("h2", {}, "GM console"),
      h("div", { class: "buttons" }, this.start, this.advance, this.end),
      this.upgradeBox,
      forceForm,
      h("p", { class: "hint" }, "Queued for any die (the next die rolled that it fits): ", this.forced, " · by die: ", this.forcedByDie, " ", this.clearForced),
      editForm,
      this.morale.form,
      section("conditions-section", "Conditions, hiding, removing", this.conditions.form),
      section("figures-section", "Figures (PC, class, level; armor, ranks, δS, ships...)", this.figures.form),
      section("add-section", "Add combatants (bestiary, armor, weapons)", this.adder.form),
      this.tactics.el,
      this.deadliness.el,
      this.links.el,
      this.fresh.el,
    );
    root.hidden = false;
  }

  /** The profile's AC convention: from its declaration, else from the cards (a descending AC differs from the ascending one). */
  descending() {
    const p = this.profiles?.[this.view?.profile];
    return p ? p.ac_style === "descending" : descendingAc(this.view);
  }

  /** Every editable field: the basics, the shield and armor, then each figure the profile declares. */
  fields() {
    const p = this.profiles?.[this.view?.profile];
    const declared = p ? [...(p.common_figures ?? []), ...p.figures] : [];
    const basic = EDITABLE.map(([name, label]) => ({ name, label: name === "ac" ? `AC (${this.descending() ? "descending" : "ascending"}, as on the cards)` : label, kind: "int" }));
    const extra = [SHIELD, ...(declared.some((f) => f.name === "armor") ? [] : [armorFigure(readyOf(this.profiles ?? {}))])];
    return [...basic, ...extra, ...declared.map((f) => ({ ...f, label: f.label === f.name ? f.label : `${f.label} (${f.name})` }))];
  }

  fillFields() {
    const list = this.fields();
    const key = JSON.stringify(list.map((f) => [f.name, f.label]));
    if (this.editField.dataset.key === key) return;
    const chosen = this.editField.value;
    this.editField.dataset.key = key;
    this.figureList = list;
    replace(this.editField, list.map((f) => h("option", { value: f.name }, f.label)));
    if (list.some((f) => f.name === chosen)) this.editField.value = chosen;
  }

  field() {
    return this.figureList.find((f) => f.name === this.editField.value) ?? this.figureList[0];
  }

  /** The value the view holds for a field of a combatant (figures: what differs from the default, else the default). */
  held(c, f) {
    if (!c) return undefined;
    if (f.name === "ac") return this.descending() ? c.ac_shown : c.ac;
    if (f.name in c) return c[f.name];
    const set = { ...(c.common ?? {}), ...(c.figures ?? {}) };
    return f.name in set ? set[f.name] : f.default;
  }

  prefill() {
    const c = this.view?.combatants.find((x) => x.id === this.editWho.value);
    const f = this.field();
    const v = this.held(c, f);
    const kind = f.kind === "int" ? "int" : f.kind;
    this.editHint.textContent = f.help ?? (f.kind === "shield" ? (c?.shield ? "It carries a shield now: AC moves by 1 with it." : "It carries no shield now: AC moves by 1 with it.") : "");
    let control;
    if (kind === "int") {
      control = this.editValue;
      this.editValue.value = v === null || v === undefined ? "" : String(v);
    } else if (kind === "shield") {
      control = c?.shield
        ? h("select", { id: "edit-value", testid: "edit-choice" }, h("option", { value: "off" }, "take the shield away (AC −1)"))
        : h("select", { id: "edit-value", testid: "edit-choice" }, h("option", { value: "on" }, "give a shield (AC +1)"));
    } else if (kind === "bool") {
      control = h("select", { id: "edit-value", testid: "edit-choice" }, h("option", { value: "true", selected: v === true }, "yes"), h("option", { value: "false", selected: v !== true }, "no"));
    } else if (kind === "combatant") {
      const others = (this.view?.combatants ?? []).filter((x) => x.id !== c?.id);
      control = h("select", { id: "edit-value", testid: "edit-choice" }, h("option", { value: "" }, "(none)"),
        others.map((x) => h("option", { value: x.id, selected: x.id === v }, `${x.name} (${x.side})`)));
    } else if (kind === "dict") {
      control = h("input", { id: "edit-value", testid: "edit-text", autocomplete: "off", placeholder: "name=number, ...",
        value: Object.entries(v ?? {}).map(([k, n]) => `${k}=${n}`).join(", ") });
    } else if (f.choices?.length) {
      control = h("select", { id: "edit-value", testid: "edit-choice" }, f.choices.map((x) => h("option", { value: x, selected: x === v }, x || "(none)")));
    } else {
      control = h("input", { id: "edit-value", testid: "edit-text", autocomplete: "off", maxlength: 60, value: v ?? "" });
    }
    if (this.valueBox.firstChild !== control) replace(this.valueBox, control);
    this.prefilled = kind === "int" ? this.editValue.value : null;
  }

  /** The edit the form asks for, or an Error naming what is wrong. */
  readEdit(id) {
    const f = this.field();
    const c = this.view?.combatants.find((x) => x.id === id);
    const control = this.valueBox.firstChild;
    const text = control.value.trim();
    switch (f.kind) {
      case "int": {
        if (!/^[-+]?\d+$/.test(text)) throw new Error(`${f.label} must be a whole number${text ? `, not "${text}"` : ": the field is empty"}.`);
        const n = Number(text);
        if ((f.low != null && n < f.low) || (f.high != null && n > f.high)) throw new Error(`${f.label} must be from ${f.low ?? "any"} to ${f.high ?? "any"}, not ${n}.`);
        return { [f.name]: f.name === "ac" && this.descending() ? 19 - n : n }; // 003: descending AC = 19 - ascending
      }
      case "shield": {
        const on = text === "on";
        return { shield: on, ...(c?.ac != null ? { ac: c.ac + (on ? 1 : -1) } : {}) };
      }
      case "bool":
        return { [f.name]: text === "true" };
      case "dict": {
        const out = {};
        for (const part of text.split(/[,;]/).map((x) => x.trim()).filter(Boolean)) {
          const m = part.match(/^(.+?)\s*[=:]\s*([-+]?\d+)$/);
          if (!m) throw new Error(`${f.label}: write name=number, separated by commas, not "${part}".`);
          out[m[1]] = Number(m[2]);
        }
        return { [f.name]: out };
      }
      default:
        return { [f.name]: text };
    }
  }

  update(view, rules = { version: 0, newest: 0 }) {
    const first = this.view === null;
    this.view = view;
    const older = rules.version && rules.newest > rules.version && view.status !== "ended";
    if (this.upgradeBox.hidden === Boolean(older) && !this.upgrade.dataset.armed) {
      this.upgradeBox.hidden = !older;
      this.upgradeNote.textContent = older ? `This fight is played under the rules of version ${rules.version}, as it was created; this server's are version ${rules.newest}.` : "";
    }
    this.deadliness.update(view);
    const running = view.status === "running";
    this.bar.update(view);
    this.fillFields();
    this.start.disabled = view.status !== "setup";
    this.advance.disabled = !(running && view.phase === "declaration" && !view.awaiting);
    this.end.disabled = view.status === "ended";
    this.forced.textContent = view.forced?.length ? view.forced.join(", ") : "none";
    this.forcedByDie.textContent = byDieText(view);
    this.clearForced.disabled = !view.forced?.length && !Object.keys(view.forced_by_die ?? {}).length;

    const chosen = this.editWho.value;
    const ids = view.combatants.map((c) => c.id);
    const labels = view.combatants.map((c) => `${c.name} (${c.side})`);
    const current = [...this.editWho.options].map((o) => o.textContent);
    if (JSON.stringify(current) !== JSON.stringify(labels)) {
      replace(this.editWho, view.combatants.map((c, i) => h("option", { value: c.id }, labels[i])));
      if (ids.includes(chosen)) this.editWho.value = chosen;
    }
    // Follow the figures only while the GM has not typed a value of their own.
    if (first || (this.valueBox.firstChild === this.editValue && this.editValue.value === this.prefilled)) this.prefill();
    for (const part of [this.adder, this.conditions, this.figures, this.morale, this.links, this.fresh, this.tactics]) part.update(view);
  }
}

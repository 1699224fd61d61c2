// The GM console, the override panel: start the fight, close declarations,
// force dice, edit a combatant's figures, end the fight. The server and the
// reducer judge every command; the disabled states only spare the GM a refusal.

import { h, replace } from "./dom.js";
import { Figures } from "./gm_figures.js";
import { Links, NewEncounter } from "./gm_links.js";
import { AddCombatant, Conditions, Morale } from "./gm_setup.js";
import { Deadliness } from "./gm_simulate.js";
import { nameOf } from "./render.js";

const EDITABLE = [
  ["hp", "HP"],
  ["hp_max", "max HP"],
  ["ac", "AC (ascending)"],
  ["attack_bonus", "attack bonus"],
  ["dex", "DEX"],
  ["move", "move (ft)"],
  ["x", "x (ft)"],
  ["y", "y (ft)"],
];

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
    this.endArmed = null;
    this.prefilled = "";

    const button = (testid, label, click) => h("button", { type: "button", testid, on: { click } }, label);
    this.start = button("start", "Start the fight", () => send({ type: "start" }, "start"));
    this.advance = button("advance", "Close declarations and resolve", () => send({ type: "advance" }, "advance"));
    this.end = button("end", "End the fight", () => this.confirmEnd());

    this.forceInput = h("input", { id: "force-input", testid: "force-input", inputmode: "numeric", placeholder: "e.g. 20, 6", autocomplete: "off" });
    this.forced = h("span", { testid: "forced-queue" }, "none");
    const forceForm = h(
      "form",
      { class: "inline", testid: "force-form" },
      h("label", { for: "force-input" }, "Force the next dice"),
      this.forceInput,
      h("button", { type: "submit", testid: "force-rolls" }, "Queue"),
    );
    forceForm.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const values = this.forceInput.value.split(/[\s,;]+/).filter(Boolean).map(Number);
      if (!values.length || values.some((v) => !Number.isInteger(v) || v < 1 || v > 1000)) {
        complain("Give whole numbers from 1 to 1000, separated by commas or spaces.");
        return;
      }
      send({ type: "force_rolls", values }, "force dice");
      this.forceInput.value = "";
    });

    this.editWho = h("select", { id: "edit-combatant", testid: "edit-combatant" });
    this.editField = h(
      "select",
      { id: "edit-field", testid: "edit-field" },
      EDITABLE.map(([k, label]) => h("option", { value: k }, label)),
    );
    this.editValue = h("input", { type: "number", id: "edit-value", testid: "edit-value", inputmode: "numeric", required: true });
    const editForm = h(
      "form",
      { class: "inline", testid: "edit-form" },
      h("label", { for: "edit-combatant" }, "Edit"),
      this.editWho,
      h("label", { for: "edit-field", class: "sr-only" }, "Field"),
      this.editField,
      h("label", { for: "edit-value", class: "sr-only" }, "New value"),
      this.editValue,
      h("button", { type: "submit", testid: "edit-submit" }, "Set"),
    );
    for (const s of [this.editWho, this.editField]) s.addEventListener("change", () => this.prefill());
    editForm.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const value = Number(this.editValue.value);
      if (this.editValue.value === "" || !Number.isInteger(value)) {
        complain("The new value must be a whole number.");
        return;
      }
      const id = this.editWho.value;
      send({ type: "edit_combatant", id, [this.editField.value]: value }, `edit ${nameOf(this.view, id)}`);
    });

    this.adder = new AddCombatant(send, complain);
    this.conditions = new Conditions(send);
    this.morale = new Morale(send, complain);
    this.figures = new Figures(send, complain);
    this.links = new Links(link.encounter, link.token, link.notify, complain);
    this.fresh = new NewEncounter(complain);
    this.deadliness = new Deadliness(link.encounter, link.token, complain);
    const section = (testid, title, ...body) => h("details", { class: "gm-section", testid }, h("summary", {}, title), body);
    replace(
      root,
      h("h2", {}, "GM console"),
      h("div", { class: "buttons" }, this.start, this.advance, this.end),
      forceForm,
      h("p", { class: "hint" }, "Queued dice: ", this.forced),
      editForm,
      this.morale.form,
      section("conditions-section", "Conditions, hiding, removing", this.conditions.form),
      section("figures-section", "Figures (PC, class, level; armor, ranks, δS, ships...)", this.figures.form),
      section("add-section", "Add combatants (bestiary, armor, weapons)", this.adder.form),
      this.deadliness.el,
      this.links.el,
      this.fresh.el,
    );
    root.hidden = false;
  }

  confirmEnd() {
    if (this.endArmed) {
      clearTimeout(this.endArmed);
      this.endArmed = null;
      this.end.textContent = "End the fight";
      this.send({ type: "end" }, "end");
      return;
    }
    this.end.textContent = "Really end? Click again";
    this.endArmed = setTimeout(() => {
      this.endArmed = null;
      this.end.textContent = "End the fight";
    }, 4000);
  }

  prefill() {
    const c = this.view?.combatants.find((x) => x.id === this.editWho.value);
    const v = c?.[this.editField.value];
    this.editValue.value = this.prefilled = v === null || v === undefined ? "" : String(v);
  }

  update(view) {
    const first = this.view === null;
    this.view = view;
    this.deadliness.update(view);
    const running = view.status === "running";
    this.start.disabled = view.status !== "setup";
    this.advance.disabled = !(running && view.phase === "declaration" && !view.awaiting);
    this.end.disabled = view.status === "ended";
    this.forced.textContent = view.forced?.length ? view.forced.join(", ") : "none";

    const chosen = this.editWho.value;
    const ids = view.combatants.map((c) => c.id);
    const labels = view.combatants.map((c) => `${c.name} (${c.side})`);
    const current = [...this.editWho.options].map((o) => o.textContent);
    if (JSON.stringify(current) !== JSON.stringify(labels)) {
      replace(this.editWho, view.combatants.map((c, i) => h("option", { value: c.id }, labels[i])));
      if (ids.includes(chosen)) this.editWho.value = chosen;
    }
    // Follow the figures only while the GM has not typed a value of their own.
    if (first || this.editValue.value === this.prefilled) this.prefill();
    for (const part of [this.adder, this.conditions, this.figures, this.morale, this.links, this.fresh]) part.update(view);
  }
}

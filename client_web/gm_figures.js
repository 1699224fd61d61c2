// GM console, the figures the rules read: first 003's, which every profile reads
// (PC, class, level, HD, man-type...: `common_figures`), then the profile's own
// (000's armor and improved combat options, 002's δS, basic AC, ships...: `figures`).
// The form is built from GET /api/profiles (rules/profiles.py), so a new profile or
// figure needs no client change. It sends one edit_combatant with what changed; the
// reducer judges it.

import { h, replace, words } from "./dom.js";
import { loadProfiles } from "./gm_links.js";
import { fillCombatants } from "./gm_setup.js";
import { nameOf } from "./render.js";

const named = (f) => (f.label === f.name ? f.label : `${f.label} (${f.name})`);

/** A dict's entries that count, sorted: a rank of 0 is no rank at all. */
function entries(f, value) {
  return Object.entries(value ?? {}).filter(([, n]) => !f.choices.length || n !== 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function same(f, a, b) {
  return f.kind === "dict" ? JSON.stringify(entries(f, a)) === JSON.stringify(entries(f, b)) : a === b;
}

/** A whole number within the figure's bounds, or an Error naming the field. */
function whole(f, text, what = named(f)) {
  const t = text.trim();
  if (!/^[-+]?\d+$/.test(t)) throw new Error(`${what} must be a whole number, not "${t}".`);
  const n = Number(t);
  if ((f.low !== null && n < f.low) || (f.high !== null && n > f.high)) {
    const range = f.high === null ? `at least ${f.low}` : f.low === null ? `at most ${f.high}` : `from ${f.low} to ${f.high}`;
    throw new Error(`${what} must be ${range}, not ${n}.`);
  }
  return n;
}

/** 'sword=2, dagger=1' -> {sword: 2, dagger: 1}, or an Error naming the field. */
function parseDict(f, text) {
  const out = {};
  for (const part of text.split(/[,;]/).map((p) => p.trim()).filter(Boolean)) {
    const [, name, n] = part.match(/^(.+?)\s*[=:]\s*(\S+)$/) ?? [];
    if (!name) throw new Error(`${named(f)}: write name=number, separated by commas (e.g. "sword=2, dagger=1"), not "${part}".`);
    out[name] = whole(f, n, `${named(f)}: ${name}`);
  }
  return out;
}

function select(id, items, value) {
  return h("select", { id, testid: id }, items.map(([v, label]) => h("option", { value: v, selected: v === value }, label)));
}

/** One figure's input: [its element, read() -> value (throws an Error naming the field)]. */
function input(f, value, view, self) {
  const id = `fig-${f.name}`;
  const text = (v, more = {}) => h("input", { id, testid: id, value: v, autocomplete: "off", ...more });
  const labelled = (el) => h("div", { class: "field", title: f.help }, h("label", { for: id }, named(f)), el, h("span", { class: "sr-only" }, f.help));
  switch (f.kind) {
    case "bool": {
      const box = h("input", { type: "checkbox", id, testid: id, checked: value });
      return [h("div", { class: "field check", title: f.help }, box, h("label", { for: id }, named(f))), () => box.checked];
    }
    case "int": {
      const el = text(String(value), { inputmode: "numeric", size: 6 });
      return [labelled(el), () => whole(f, el.value)];
    }
    case "combatant": {
      const others = view.combatants.filter((c) => c.id !== self).map((c) => [c.id, `${c.name} (${c.side})`]);
      if (value && !others.some(([id]) => id === value)) others.push([value, `${value} (not in the fight)`]); // kept unless changed
      const el = select(id, [["", "(none)"], ...others], value);
      return [labelled(el), () => el.value];
    }
    case "dict":
      if (f.choices.length) {
        const boxes = f.choices.map((k) => [k, text(String(value[k] ?? 0), { id: `${id}-${k}`, testid: `${id}-${k}`, inputmode: "numeric", size: 3 })]);
        const el = h("fieldset", { class: "row checks", title: f.help }, h("legend", {}, named(f)),
          boxes.map(([k, box]) => h("div", { class: "field" }, h("label", { for: box.id }, words(k)), box)));
        return [el, () => Object.fromEntries(boxes.map(([k, box]) => [k, whole(f, box.value, `${named(f)}: ${words(k)}`)]).filter(([, n]) => n !== 0))];
      } else {
        const el = text(Object.entries(value).map(([k, n]) => `${k}=${n}`).join(", "), { placeholder: "name=number, ..." });
        return [labelled(el), () => parseDict(f, el.value)];
      }
    default: // 'str': a choice list, or free text
      if (f.choices.length) {
        const el = select(id, f.choices.map((c) => [c, c || "(none)"]), value);
        return [labelled(el), () => el.value];
      } else {
        const el = text(value, { maxlength: 60 });
        return [labelled(el), () => el.value.trim()];
      }
  }
}

export class Figures {
  constructor(send, complain) {
    this.view = null;
    this.profiles = null;
    this.readers = [];
    this.who = h("select", { id: "fig-who", testid: "fig-who" });
    this.fields = h("div", { testid: "fig-fields" });
    this.submit = h("button", { type: "submit", testid: "fig-submit" }, "Set figures");
    this.who.addEventListener("change", () => this.show());
    this.form = h(
      "form",
      { class: "gm-form", testid: "fig-form" },
      h("div", { class: "field" }, h("label", { for: "fig-who" }, "Combatant"), this.who),
      this.fields,
      this.submit,
    );
    this.form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const id = this.who.value;
      const c = this.view?.combatants.find((x) => x.id === id);
      if (!c) return;
      const edit = {};
      for (const [f, read, el, held] of this.readers) {
        let value;
        try {
          value = read();
        } catch (err) {
          el.querySelector("input, select")?.focus();
          complain(err.message);
          return; // nothing is sent while any figure is wrong
        }
        if (!same(f, value, held?.[f.name] ?? f.default)) edit[f.name] = value;
      }
      if (!Object.keys(edit).length) {
        complain(`Nothing to set: ${c.name}'s figures are already these.`);
        return;
      }
      send({ type: "edit_combatant", id, ...edit }, `figures of ${nameOf(this.view, id)}`);
    });
  }

  async load() {
    if (this.profiles) return;
    try {
      this.profiles = await loadProfiles();
    } catch (err) {
      replace(this.fields, h("p", { class: "hint" }, `Cannot load the rule profiles: ${err.message}`));
      return;
    }
    this.show();
  }

  /** Rebuild the inputs when the combatant, its figures or the roster change (not while the GM types otherwise). */
  show() {
    const p = this.profiles?.[this.view?.profile];
    if (!p) return;
    const c = this.view.combatants.find((x) => x.id === this.who.value);
    const key = JSON.stringify([this.view.profile, c?.id, c?.common, c?.figures, this.who.dataset.items]);
    if (this.fields.dataset.key === key) return;
    this.fields.dataset.key = key;
    this.submit.disabled = !c;
    if (!c) return;
    const group = (figures, held, legend, testid) => {
      const readers = figures.map((f) => {
        const [el, read] = input(f, held?.[f.name] ?? f.default, this.view, c.id);
        return [f, read, el, held];
      });
      const body = readers.length ? readers.map(([, , el]) => el) : h("p", { class: "hint" }, `The ${p.name} profile reads no figures beyond 003's.`);
      return [readers, h("fieldset", { class: "row checks", testid }, h("legend", {}, legend), body)];
    };
    const [common, commonEl] = group(p.common_figures ?? [], c.common, "003's figures, read by every profile", "fig-common");
    const [own, ownEl] = group(p.figures, c.figures, `the ${p.name} profile's own`, "fig-own");
    this.readers = [...common, ...own];
    replace(this.fields, [commonEl, ownEl]);
  }

  update(view) {
    this.view = view;
    fillCombatants(this.who, view);
    if (this.profiles) this.show();
    else this.load();
  }
}

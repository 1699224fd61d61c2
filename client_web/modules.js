// The rule modules a new encounter may take from other profiles (docs/profiles.md,
// "Modules per encounter"), offered from GET /api/profiles alone: for each module name
// any installed profile offers, keep the chosen profile's own (its `uses`) or take
// another profile's, each choice with its help, the options it brings, what it needs
// and the actions it adds. The server judges the mix: a combination that cannot work
// comes back as its sentence, shown by the form that sent it.

import { h, replace, words } from "./dom.js";


/** Every module name any profile offers -> the profiles offering it, in catalogue order. */
function offered(profiles) {
  const out = new Map();
  for (const p of Object.values(profiles)) {
    for (const m of p.modules) {
      if (!out.has(m.name)) out.set(m.name, []);
      out.get(m.name).push({ profile: p, module: m });
    }
  }
  return out;
}

/** A module's options as its own profile declares them (name, default, choices, help). */
export function optionsOf(profile, module) {
  return module.options.map((name) => profile.options.find((o) => o.name === name)).filter(Boolean);
}

function details(profile, module) {
  const options = optionsOf(profile, module);
  return [
    h("span", { class: "help" }, module.help),
    options.length
      ? h("span", { class: "small muted" }, "Options it brings: ",
        options.map((o, i) => [i ? ", " : "", h("span", { title: o.help }, `${words(o.name)} (default ${String(o.default)})`)]))
      : null,
    module.actions.length ? h("span", { class: "small muted" }, `Adds the actions: ${module.actions.map(words).join(", ")}.`) : null,
    module.needs.length
      ? h("span", { class: "small muted" }, `Needs ${profile.name}'s own ${module.needs.map(words).join(", ")}: ${module.why}.`)
      : null,
  ];
}

export class ModulePicker {
  /** `prefix` names the test ids (`${prefix}-mod-${module}-${profile}`); `changed()` runs on each pick. */
  constructor(prefix, changed = () => {}) {
    this.prefix = prefix;
    this.changed = changed;
    this.rows = []; // [module name, own profile name or "", radios]
    // A button, not a <details>: the GM console's form already sits in one, found by its <summary>.
    this.summary = h("span", { testid: `${prefix}-modules-summary` }, "Rule modules");
    this.toggle = h("button", { type: "button", testid: `${prefix}-modules-toggle`, "aria-expanded": "false",
      on: { click: () => this.open(this.body.hidden) } }, "Show");
    this.body = h("div", { class: "modules-body", hidden: true },
      h("p", { class: "hint" }, "Each part of the rules comes from the chosen profile; any of them may be taken from another installed profile instead."));
    this.list = h("div", { class: "modules-list" });
    this.body.append(this.list);
    this.el = h("fieldset", { class: "modules", testid: `${prefix}-modules` }, h("legend", {}, this.summary, " ", this.toggle), this.body);
  }

  open(shown) {
    this.body.hidden = !shown;
    this.toggle.textContent = shown ? "Hide" : "Show";
    this.toggle.setAttribute("aria-expanded", String(shown));
  }

  /** Build the choices for profile `base`, with `picked` (module -> profile) checked. */
  show(profiles, base, picked = {}) {
    this.profiles = profiles;
    const uses = profiles[base]?.uses ?? {};
    this.rows = [];
    replace(
      this.list,
      [...offered(profiles)].map(([name, offers]) => {
        const own = uses[name] ?? "";
        const value = picked[name] ?? own;
        const group = `${this.prefix}-mod-${name}`;
        const radio = (choice, label, more) => {
          const id = `${group}-${choice || "none"}`;
          const input = h("input", { type: "radio", name: group, id, testid: id, value: choice, checked: choice === value });
          input.addEventListener("change", () => this.picked());
          return h("div", { class: "module-choice" }, input, h("label", { for: id }, h("strong", {}, label), more));
        };
        const choices = [];
        const mine = offers.find((o) => o.profile.name === own);
        if (own) choices.push(radio(own, `${profiles[own]?.title ?? own} (${own}): this profile's own`, mine ? details(mine.profile, mine.module) : null));
        else choices.push(radio("", "none: not part of this profile", null));
        for (const o of offers) {
          if (o.profile.name !== own) choices.push(radio(o.profile.name, `${o.profile.title} (${o.profile.name})`, details(o.profile, o.module)));
        }
        const radios = () => [...this.list.querySelectorAll(`input[name="${group}"]`)];
        this.rows.push([name, own, radios]);
        return h("fieldset", { class: "module", testid: group }, h("legend", {}, words(name)), choices);
      }),
    );
    this.count();
  }

  picked() {
    this.count();
    this.changed();
  }

  count() {
    const n = Object.keys(this.chosen()).length;
    this.summary.textContent = n ? `Rule modules: ${n} taken from other profiles` : "Rule modules: all the profile's own";
  }

  /** The request's `modules`: only the modules not left as the profile's own. */
  chosen() {
    const out = {};
    for (const [name, own, radios] of this.rows) {
      const value = radios().find((r) => r.checked)?.value ?? own;
      if (value !== own && value) out[name] = value;
    }
    return out;
  }

  /** The option declarations the taken modules bring, each from its own profile. */
  brought() {
    return Object.entries(this.chosen()).flatMap(([name, source]) => {
      const profile = this.profiles?.[source];
      const module = profile?.modules.find((m) => m.name === name);
      return module ? optionsOf(profile, module) : [];
    });
  }
}

/** An encounter's modules in words: "to hit from thac0-sheet, dying from ll-house". */
export function modulesInWords(modules) {
  return Object.entries(modules ?? {}).map(([name, source]) => `${words(name)} from ${source}`).join(", ");
}

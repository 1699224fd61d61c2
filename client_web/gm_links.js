// GM console, over HTTP: invite links (list, copy, issue, revoke: docs/protocol.md
// "HTTP") and a new encounter with a chosen profile, its rule modules (modules.js) and
// options, its form built from GET /api/profiles (rules/profiles.py) so a new option or
// module needs no client change.

import { h, replace, words } from "./dom.js";
import { ModulePicker } from "./modules.js";
import { nameOf, setProfiles } from "./render.js";

const FETCH_TIMEOUT_MS = 10000;
const TTLS = [["0", "never expires"], ["3600", "1 hour"], ["86400", "1 day"], ["604800", "1 week"]];

async function call(url, body) {
  const control = new AbortController();
  const timer = setTimeout(() => control.abort(), FETCH_TIMEOUT_MS);
  try {
    const init = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
    const response = await fetch(url, { ...init, signal: control.signal });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(data.message ?? `the server answered ${response.status}`);
    return data;
  } catch (err) {
    throw new Error(control.signal.aborted ? "the server did not answer in time" : err.message);
  } finally {
    clearTimeout(timer);
  }
}

let profiles = null; // one GET /api/profiles per page, shared by the forms built from it

/** The rule profiles, as data (rules/profiles.py); a failed load is tried again next time. */
export function loadProfiles() {
  profiles ??= call("/api/profiles").catch((err) => {
    profiles = null;
    throw err;
  });
  return profiles;
}

/** The GM's cards show a figure of kind 'combatant' (`aboard`...) by name: the kinds come
 * with the profiles. Once they have loaded, `redraw`; the promise says whether they did
 * (until then, or if they fail, the cards show ids and the Figures form says why). */
export function nameCombatantFigures(redraw) {
  return loadProfiles().then(
    (p) => {
      setProfiles(p);
      redraw();
      return true;
    },
    () => false,
  );
}

const CLIPBOARD_TIMEOUT_MS = 1500; // a clipboard waiting on a permission prompt must not hang the button

async function copy(text, input) {
  try {
    if (!navigator.clipboard) throw new Error("no clipboard");
    await Promise.race([
      navigator.clipboard.writeText(text),
      new Promise((_, fail) => setTimeout(() => fail(new Error("the clipboard did not answer")), CLIPBOARD_TIMEOUT_MS)),
    ]);
    return true;
  } catch {
    input?.select(); // no clipboard (a plain-http page): leave it selected for Ctrl+C
    return false;
  }
}

export class Links {
  constructor(encounter, token, notify, complain) {
    this.base = `/api/encounters/${encodeURIComponent(encounter)}/links`;
    this.token = token;
    this.notify = notify;
    this.complain = complain;
    this.view = null;
    this.list = h("ul", { class: "plain links", testid: "links" });
    this.role = h("select", { id: "link-role", testid: "link-role" }, h("option", { value: "player" }, "player"), h("option", { value: "spectator" }, "spectator"));
    this.name = h("input", { id: "link-name", testid: "link-name", maxlength: 60, autocomplete: "off" });
    this.ttl = h("select", { id: "link-ttl", testid: "link-ttl" }, TTLS.map(([v, l]) => h("option", { value: v }, l)));
    this.owned = h("fieldset", { class: "row checks", testid: "link-combatants" });
    this.role.addEventListener("change", () => (this.owned.disabled = this.role.value !== "player"));
    const form = h(
      "form",
      { class: "gm-form", testid: "link-form" },
      h("div", { class: "row" },
        h("div", { class: "field" }, h("label", { for: "link-role" }, "Role"), this.role),
        h("div", { class: "field" }, h("label", { for: "link-name" }, "Name"), this.name),
        h("div", { class: "field" }, h("label", { for: "link-ttl" }, "Expires"), this.ttl)),
      this.owned,
      h("button", { type: "submit", testid: "link-issue" }, "Issue a new link"),
    );
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.issue();
    });
    this.el = h(
      "details",
      { class: "gm-section", testid: "links-section" },
      h("summary", {}, "Invite links"),
      h("div", { class: "buttons" }, h("button", { type: "button", testid: "links-refresh", on: { click: () => this.load() } }, "Refresh the list")),
      this.list,
      form,
    );
    this.el.addEventListener("toggle", () => this.el.open && this.load());
  }

  url(path = "") {
    return `${this.base}${path}?${new URLSearchParams({ token: this.token })}`;
  }

  async load() {
    try {
      const { links } = await call(this.url());
      this.render(links);
    } catch (err) {
      this.complain(`Cannot list the links: ${err.message}`);
    }
  }

  render(links) {
    replace(
      this.list,
      links.map((l) => {
        const who = l.role === "player" ? ` controls ${l.combatants.map((c) => (this.view ? nameOf(this.view, c) : c)).join(", ")}` : "";
        const expires = l.expires ? `, expires ${new Date(l.expires * 1000).toLocaleString()}` : "";
        const input = h("input", { readonly: true, value: l.link, "aria-label": `Link of ${l.name || l.role}`, testid: `link-url-${l.token_id}` });
        return h(
          "li",
          { class: l.revoked ? "revoked" : "", testid: `link-${l.token_id}`, "data-role": l.role, "data-name": l.name, "data-revoked": String(l.revoked) },
          h("strong", {}, l.name || l.role), ` (${l.role})${who}${expires}`, l.revoked ? h("span", { class: "badge down" }, "revoked") : null,
          h("div", { class: "row" },
            input,
            h("button", { type: "button", testid: `copy-${l.token_id}`, on: { click: async () => this.notify((await copy(l.link, input)) ? "Link copied." : "Selected: press Ctrl+C to copy.") } }, "Copy"),
            l.role !== "gm" && !l.revoked
              ? h("button", { type: "button", class: "danger", testid: `revoke-${l.token_id}`, on: { click: () => this.revoke(l) } }, "Revoke")
              : null),
        );
      }),
    );
  }

  async revoke(link) {
    try {
      await call(this.url(`/${encodeURIComponent(link.token_id)}/revoke`), {});
      this.notify(`Revoked the link of ${link.name || link.role}: its pages are closed.`);
    } catch (err) {
      this.complain(`Cannot revoke: ${err.message}`);
    }
    await this.load();
  }

  async issue() {
    const role = this.role.value;
    const combatants = role === "player" ? [...this.owned.querySelectorAll("input:checked")].map((b) => b.value) : [];
    if (role === "player" && !combatants.length) {
      this.complain("A player link controls at least one combatant: tick one.");
      return;
    }
    try {
      const made = await call(this.url(), { role, name: this.name.value.trim(), combatants, ttl: Number(this.ttl.value) });
      this.notify(`New ${made.role} link issued.`);
      this.name.value = "";
    } catch (err) {
      this.complain(`Cannot issue the link: ${err.message}`);
    }
    await this.load();
  }

  update(view) {
    this.view = view;
    const key = JSON.stringify(view.combatants.map((c) => [c.id, c.name]));
    if (this.owned.dataset.key === key) return;
    this.owned.dataset.key = key;
    replace(
      this.owned,
      h("legend", {}, "Controls"),
      view.combatants.map((c) => {
        const id = `link-c-${c.id}`;
        return h("div", { class: "field check" }, h("input", { type: "checkbox", id, testid: id, value: c.id }), h("label", { for: id }, c.name));
      }),
    );
  }
}

/** The current fight's combatants as fresh ones (full HP, weapons in hand) for a new encounter. */
function restart(view) {
  return view.combatants.map((c) => ({
    id: c.id, name: c.name, side: c.side, x: c.x, y: c.y, move: c.move, dex: c.dex,
    ac: c.ac ?? 10, hp: c.hp_max ?? 4, hp_max: c.hp_max ?? 4, attack_bonus: c.attack_bonus ?? null,
    weapons: (c.weapons ?? []).map((w) => ({ ...w, dropped: false, broken: false })),
    hidden: c.hidden, notes: c.notes ?? "",
  }));
}

export class NewEncounter {
  constructor(complain) {
    this.complain = complain;
    this.view = null;
    this.profiles = null;
    this.profile = h("select", { id: "new-profile", testid: "new-profile" });
    this.options = h("div", { class: "row checks", testid: "new-options" });
    this.who = h(
      "select",
      { id: "new-combatants", testid: "new-combatants" },
      h("option", { value: "copy" }, "this fight's combatants, fresh"),
      h("option", { value: "demo" }, "the demo fight"),
      h("option", { value: "none" }, "nobody yet (add them in the console)"),
    );
    this.result = h("div", { testid: "new-result", "aria-live": "polite" });
    this.error = h("p", { class: "error", role: "alert", testid: "new-error", hidden: true });
    this.modules = new ModulePicker("new", () => this.showOptions(true));
    this.profile.addEventListener("change", () => this.showModules());
    const form = h(
      "form",
      { class: "gm-form", testid: "new-form" },
      h("div", { class: "row" },
        h("div", { class: "field" }, h("label", { for: "new-profile" }, "Profile"), this.profile),
        h("div", { class: "field" }, h("label", { for: "new-combatants" }, "Combatants"), this.who)),
      this.modules.el,
      this.options,
      h("button", { type: "submit", testid: "new-submit" }, "Create the encounter"),
      this.error,
      this.result,
    );
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.create();
    });
    this.el = h("details", { class: "gm-section", testid: "new-section" }, h("summary", {}, "New encounter"), form);
    this.el.addEventListener("toggle", () => this.el.open && this.load());
  }

  async load() {
    if (this.profiles) return;
    try {
      this.profiles = await loadProfiles();
    } catch (err) {
      this.complain(`Cannot load the rule profiles: ${err.message}`);
      return;
    }
    replace(this.profile, Object.values(this.profiles).map((p) => h("option", { value: p.name }, p.title)));
    const same = this.view && this.profiles[this.view.profile];
    if (same) this.profile.value = this.view.profile;
    this.showModules(same ? this.view.modules ?? {} : {});
  }

  /** The profile's modules, any taken from another profile kept where it still applies. */
  showModules(picked = this.modules.chosen()) {
    if (!this.profiles?.[this.profile.value]) return;
    this.modules.show(this.profiles, this.profile.value, picked);
    this.showOptions(false);
  }

  /** The profile's options and those its taken modules bring; `keep` what the GM set (a module changed). */
  showOptions(keep) {
    const p = this.profiles?.[this.profile.value];
    if (!p) return;
    const set = keep ? Object.fromEntries((this.readers ?? []).map(([k, read]) => [k, read()])) : {};
    const current = { ...(this.view?.profile === p.name ? this.view.options : {}), ...set };
    const listed = new Set(p.options.map((o) => o.name));
    const brought = [];
    for (const o of this.modules.brought()) {
      if (listed.has(o.name)) continue;
      listed.add(o.name);
      brought.push(o);
    }
    this.readers = [];
    replace(
      this.options,
      [...p.options, ...brought].map((o) => {
        const id = `new-opt-${o.name}`;
        const value = o.name in current ? current[o.name] : o.default;
        let input;
        let read;
        if (typeof o.default === "boolean") {
          input = h("input", { type: "checkbox", id, testid: id, checked: value });
          read = () => input.checked;
        } else if (o.choices.length) {
          input = h("select", { id, testid: id }, o.choices.map((c) => h("option", { value: String(c), selected: c === value }, String(c))));
          read = () => o.choices.find((c) => String(c) === input.value);
        } else if (typeof o.default === "number") {
          input = h("input", { type: "number", id, testid: id, value: String(value) });
          read = () => Number(input.value);
        } else {
          input = h("input", { id, testid: id, value: String(value), autocomplete: "off" });
          read = () => input.value.trim();
        }
        this.readers.push([o.name, read]);
        const box = typeof o.default === "boolean";
        // The option's name in words, with its help shown (the catalogue's sentence), tied to the input.
        const help = h("span", { class: "help", id: `${id}-help`, testid: `${id}-help` }, o.help);
        input.setAttribute("aria-describedby", help.id);
        const name = h("label", { for: id }, words(o.name));
        return h("div", { class: "field option" }, box ? h("div", { class: "check" }, input, name) : [name, input], help);
      }),
    );
  }

  async create() {
    const options = Object.fromEntries((this.readers ?? []).map(([k, read]) => [k, read()]));
    const body = { profile: this.profile.value, modules: this.modules.chosen(), options };
    if (this.who.value === "copy" && this.view) {
      body.combatants = restart(this.view);
      const first = body.combatants[0]?.side;
      body.players = Object.fromEntries(body.combatants.filter((c) => c.side === first).map((c) => [c.name, [c.id]]));
    } else if (this.who.value === "none") {
      body.combatants = [];
    }
    this.error.hidden = true;
    try {
      const made = await call("/api/encounters", body);
      replace(
        this.result,
        h("p", {}, "Created. Your GM link: ", h("a", { href: made.links.gm, testid: "new-gm-link" }, "open the new fight")),
        h("ul", { class: "plain" },
          h("li", {}, "Spectators: ", h("code", {}, made.links.spectator)),
          Object.entries(made.links.players).map(([name, link]) => h("li", {}, `${name}: `, h("code", {}, link)))),
      );
    } catch (err) {
      // Beside the form: a refused mix of modules is a sentence the GM acts on here.
      replace(this.error, `Cannot create the encounter: ${err.message}`);
      this.error.hidden = false;
      this.result.replaceChildren();
    }
  }

  update(view) {
    this.view = view;
  }
}

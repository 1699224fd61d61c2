// The campaign page (/c/<id>?token=...): reads the campaign as this link sees it
// (GET /api/campaigns/<id>), shows each character's sheet, gear, lasting conditions and
// story (each scar with the fight and event it came from), and sends commands
// (POST .../commands). It follows the campaign as others change it: one GET every
// POLL_MS (at most one in flight, slower after a failure, none while the tab is hidden),
// drawn only when the stream moved and nobody is typing in a field of the page. The GM's
// desk is campaign_gm.js. No build step.

import { $, h, replace, words } from "./dom.js";
import { gmDesk } from "./campaign_gm.js";

const id = location.pathname.split("/").pop();
const token = new URLSearchParams(location.search).get("token") || "";
const IMPROVEMENTS = ["cleave", "extra_attack", "improved_crit_range", "improved_parry", "improved_shield_bash", "weapon_expertise"];
let counter = 0;
const POLL_MS = 2000; // others' changes show within this
const POLL_MAX_MS = 30000; // the longest wait after failures
let shown = null; // the stream position the page shows

export const api = {
  url: (path = "") => `/api/campaigns/${id}${path}?token=${encodeURIComponent(token)}`,
  async call(path, body, method = "POST") {
    const response = await fetch(api.url(path), {
      method,
      headers: { "content-type": "application/json", accept: "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await response.json();
    if (!response.ok) throw new Error(data.message || `${response.status}`);
    return data;
  },
  async send(command) {
    const commandId = `${Date.now().toString(36)}-${(counter += 1)}`;
    return run(() => api.call("/commands", { id: commandId, command }));
  },
};

export async function run(step) {
  showError("");
  try {
    const data = await step();
    if (data && data.characters) render(data);
    else await load();
    return data;
  } catch (e) {
    showError(e.message);
    return null;
  }
}

function showError(text) {
  const box = $("[data-testid=error]");
  box.textContent = text;
  box.hidden = !text;
}

// Where a scar came from: the fight and its event, a link to that moment of its replay.
const from = (item) =>
  item.fight
    ? [" (", h("a", { href: api.url(`/fights/${item.fight}/replay`) + `&at=${item.event}`, target: "_blank", rel: "noopener" }, `fight ${item.fight}, event ${item.event}`), ")"]
    : "";

function sheetCard(c, role) {
  const s = c.sheet;
  const armor = s.armor ? `${s.armor}${s.armor_damage ? `, ${s.armor_damage} damage` : ""}` : "none";
  const weapons = (s.weapons || []).map((w) => `${w.name}${w.broken ? " (broken)" : ""}`).join(", ");
  const gear = c.gear || {};
  const dl = h("dl", {},
    h("dt", {}, "Class"), h("dd", {}, `${s.klass} ${s.level}`),
    h("dt", {}, "HP"), h("dd", { testid: `hp-${c.id}` }, `${s.hp}/${s.hp_max}`),
    h("dt", {}, "AC"), h("dd", { testid: `ac-${c.id}` }, String(c.ac)),
    h("dt", {}, "Armor"), h("dd", { testid: `armor-${c.id}` }, armor),
    h("dt", {}, "Shield"), h("dd", {}, s.shield ? "yes" : "no"),
    h("dt", {}, "Weapons"), h("dd", {}, weapons || "none"),
    h("dt", {}, "DEX / INT"), h("dd", {}, `${s.dex ?? 10} / ${s.int ?? 10}`),
    h("dt", {}, "Gear"), h("dd", { testid: `gear-${c.id}` }, `${gear.oil || 0} oil, ${gear.torches || 0} torches, ${gear.arrows || 0} arrows, ${gear.coin || 0} gp`),
  );
  const lasting = (c.lasting || []).map((x) =>
    h("li", { testid: `lasting-${c.id}-${x.name.replace(/ /g, "-")}` }, `${x.name}${x.days ? `: ${x.days} days left` : ""}`, from(x),
      role === "gm" && !c.dead ? h("button", { type: "button", on: { click: () => api.send({ type: "heal", id: c.id, condition: x.name }) } }, `Heal ${x.name}`) : null));
  const story = (c.story || []).map((x) => h("li", {}, `Day ${x.day}: ${x.text}`, from(x)));
  return h("article", { class: `sheet${c.dead ? " dead" : ""}`, testid: `character-${c.id}`, "aria-label": s.name },
    h("h3", {}, `${s.name}${c.dead ? " (dead)" : ""}${c.owner ? ` · ${c.owner}` : ""}`),
    dl,
    lasting.length ? [h("h4", {}, "Lasting conditions"), h("ul", {}, lasting)] : null,
    story.length ? [h("h4", {}, "Story"), h("ul", { testid: `story-${c.id}` }, story)] : null,
    c.dead ? null : actions(c, role),
  );
}

function actions(c, role) {
  const out = h("div", {});
  const button = (label, command, testid) => h("button", { type: "button", testid, on: { click: () => api.send(command) } }, label);
  out.append(h("div", { class: "row" },
    c.sheet.armor_damage ? [button("Repair armor", { type: "repair_armor", id: c.id }, `repair-${c.id}`), button("Replace armor", { type: "replace_armor", id: c.id }, `replace-${c.id}`)] : null,
    c.sheet.shield ? null : button("Buy a shield", { type: "replace_shield", id: c.id }, `shield-${c.id}`),
    role === "gm" ? button("Level up", { type: "level_up", id: c.id }, `level-${c.id}`) : null,
  ));
  if (c.offers) {
    const pick = h("select", { testid: `option-${c.id}` }, IMPROVEMENTS.map((o) => h("option", { value: o }, words(o))));
    const weapon = h("input", { testid: `weapon-${c.id}`, placeholder: "weapon (expertise)" });
    out.append(h("div", { class: "row" },
      h("label", {}, `Improved combat option (${c.offers} to choose)`, pick),
      h("label", {}, "Weapon", weapon),
      h("button", { type: "button", testid: `choose-${c.id}`, on: { click: () => api.send({ type: "choose_improvement", id: c.id, option: pick.value, weapon: weapon.value }) } }, "Choose"),
    ));
  }
  const notes = h("textarea", { testid: `notes-${c.id}`, rows: 2 });
  notes.value = c.notes || "";
  out.append(h("div", { class: "row" }, h("label", {}, "Notes", notes),
    h("button", { type: "button", testid: `save-notes-${c.id}`, on: { click: () => api.send({ type: "edit_own", id: c.id, notes: notes.value }) } }, "Save notes")));
  return out;
}

export function render(data) {
  shown = data.position ?? shown;
  $("[data-testid=campaign-name]").textContent = data.name;
  $("[data-testid=day]").textContent = String(data.day);
  $("[data-testid=role]").textContent = data.role === "gm" ? "GM" : "player";
  replace($("[data-testid=roster]"), data.characters.map((c) => sheetCard(c, data.role)));
  $("[data-testid=others]").textContent = data.others.length ? `Also in the party: ${data.others.map((o) => o.name + (o.dead ? " (dead)" : "")).join(", ")}.` : "";
  replace($("[data-testid=log]"), data.log.map((line) => h("li", { class: line.kind === "rejected" ? "error" : "" }, line.text)));
  $("[data-testid=gm-panel]").hidden = data.role !== "gm";
  if (data.role === "gm") gmDesk(data);
}

export async function load() {
  render(await api.call("", undefined, "GET"));
}

// A field being typed in (a note, a number, the GM's JSON): a redraw would sweep it away.
function typing() {
  const a = document.activeElement;
  return a !== null && (a.tagName === "TEXTAREA" || (a.tagName === "INPUT" && !["checkbox", "radio", "button", "file"].includes(a.type)));
}

async function follow(wait) {
  let next = POLL_MS;
  if (!document.hidden && !typing()) {
    try {
      const data = await api.call("", undefined, "GET");
      if (data.position !== shown && !typing()) render(data);
    } catch {
      next = Math.min(wait * 2, POLL_MAX_MS); // the server away: ask less often, say nothing until a command fails
    }
  }
  setTimeout(() => follow(next), next);
}

run(() => api.call("", undefined, "GET")).then(() => setTimeout(() => follow(POLL_MS), POLL_MS));

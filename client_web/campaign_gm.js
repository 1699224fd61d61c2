// The GM's desk on the campaign page: what the fights did, for review (accept or set
// aside each finding); time passing ('a week of rest'); a new character; a fight started
// from the campaign with copies of the characters chosen and monsters of its bestiary;
// the report of an ended fight; the bestiary (imported from a file); player links.

import { $, h, replace } from "./dom.js";
import { api, run } from "./campaign.js";
import { PlacingMap } from "./campaign_map.js";

const made = new Map(); // fight id -> its links, for the fights started from this page

function describe(f, names) {
  const who = names[f.character] || f.character;
  const what = {
    hp: `HP ${f.value ?? 0}`,
    condition: `${f.name}${f.days ? ` for ${f.days} days` : ""}`,
    armor_damage: `armor damage ${f.value ?? 0}`,
    shield_lost: "shield shattered",
    weapon_broken: `${f.name} broken`,
    spent: `${f.value} ${f.name} spent`,
    died: "dead",
  }[f.kind];
  return `${who}: ${what} (fight ${f.fight}, event ${f.event})`;
}

function findings(data, names) {
  const review = (f, accept) => api.send({ type: "review", finding: f.id, accept });
  const items = data.findings.map((f) =>
    h("li", { testid: `finding-${f.id}` }, describe(f, names), " ",
      h("button", { type: "button", testid: `accept-${f.id}`, on: { click: () => review(f, true) } }, "Accept"), " ",
      h("button", { type: "button", class: "danger", testid: `reject-${f.id}`, on: { click: () => review(f, false) } }, "Set aside")));
  return h("div", { class: "findings" }, h("h3", {}, "What the fights did (for your review)"),
    items.length ? h("ul", {}, items) : h("p", { class: "muted" }, "Nothing waiting."));
}

function passTime() {
  const days = h("input", { type: "number", min: 1, value: "7", testid: "days" });
  const rest = h("input", { type: "checkbox", checked: true, testid: "rest" });
  return h("div", { class: "row" }, h("label", {}, "Days", days), h("label", { class: "inline" }, rest, "of rest"),
    h("button", { type: "button", testid: "pass-time", on: { click: () => api.send({ type: "pass_time", days: Number(days.value), rest: rest.checked }) } }, "Pass time"));
}

// Any part of a character, as JSON (the shape `fray schema --campaign` gives): the GM's edit.
function editCharacter(data) {
  const pick = h("select", { testid: "edit-character" }, data.characters.map((c) => h("option", { value: c.id }, c.sheet.name)));
  const text = h("textarea", { rows: 6, testid: "edit-json", spellcheck: false });
  const show = () => {
    const c = data.characters.find((x) => x.id === pick.value);
    text.value = c ? JSON.stringify({ sheet: c.sheet, gear: c.gear || {}, abilities: c.abilities || {}, owner: c.owner || "" }, null, 1) : "";
  };
  pick.addEventListener("change", show);
  show();
  const save = () => run(async () => {
    let parts;
    try { parts = JSON.parse(text.value); } catch (e) { throw new Error(`the edit is not JSON: ${e.message}`); }
    return api.send({ type: "edit_character", id: pick.value, ...parts });
  });
  return h("div", {}, h("h3", {}, "Edit a character"), h("div", { class: "row" }, h("label", {}, "Character", pick)),
    h("label", {}, "Sheet, gear, abilities and player (JSON)", text),
    h("div", { class: "row" }, h("button", { type: "button", testid: "edit-save", on: { click: save } }, "Save the edit")));
}

function addCharacter() {
  const field = (label, props) => { const input = h("input", props); return [h("label", {}, label, input), input]; };
  const [nameL, name] = field("Name", { testid: "new-name" });
  const [ownerL, owner] = field("Player", { testid: "new-owner" });
  const [hpL, hp] = field("HP", { type: "number", min: 1, value: "8", testid: "new-hp" });
  const [armorL, armor] = field("Armor", { testid: "new-armor", placeholder: "chain mail" });
  const add = () => api.send({ type: "add_character", character: { owner: owner.value, sheet: { name: name.value, side: "party", klass: "fighter", hp: Number(hp.value), hp_max: Number(hp.value), armor: armor.value } } });
  return h("div", {}, h("h3", {}, "A new character"), h("div", { class: "row" }, nameL, ownerL, hpL, armorL,
    h("button", { type: "button", testid: "add-character", on: { click: add } }, "Add")));
}

// A character sheet exported from Foundry VTT's OSE system, added as it maps (rules/campaign/foundry.py).
function foundry() {
  const owner = h("input", { testid: "foundry-owner" });
  const file = h("input", { type: "file", accept: "application/json,.json", testid: "foundry-file" });
  const note = h("p", { class: "muted", testid: "foundry-note" });
  file.addEventListener("change", () => run(async () => {
    const response = await fetch(api.url("/import/foundry") + `&owner=${encodeURIComponent(owner.value)}`, { method: "POST", body: await file.files[0].text(), headers: { "content-type": "application/json" } });
    const data = await response.json();
    if (!response.ok) throw new Error(data.message);
    sessionStorage.setItem("fray-foundry-note", `Imported ${data.character}; left out: ${data.left_out.join(", ") || "nothing"}.`);
    return data;
  }));
  note.textContent = sessionStorage.getItem("fray-foundry-note") || "";
  return h("div", {}, h("h3", {}, "Import a Foundry VTT OSE actor"),
    h("div", { class: "row" }, h("label", {}, "Player", owner), h("label", {}, "Actor file (JSON)", file)), note);
}

const placing = new PlacingMap(); // kept between redraws: where the GM put each token

function startFight(data) {
  const living = data.characters.filter((c) => !c.dead);
  const boxes = living.map((c) => [c.id, h("input", { type: "checkbox", checked: true, testid: `fight-with-${c.id}` })]);
  const counts = data.bestiary.map((m) => [m.name, h("input", { type: "number", min: 0, max: 50, value: "0", testid: `count-${m.name}` })]);
  const chosen = () => boxes.filter(([, b]) => b.checked).map(([id]) => id);
  const drawn = () => counts.filter(([, input]) => Number(input.value) > 0).map(([name, input]) => [name, Number(input.value)]);
  const tokens = () => [
    ...chosen().map((id) => ({ key: id, label: living.find((c) => c.id === id).sheet.name, kind: "party" })),
    // the names the server gives the copies (rules/campaign/bestiary.py): 'Goblin' alone, else 'Goblin 1', 'Goblin 2'
    ...drawn().flatMap(([name, n]) => Array.from({ length: n }, (_, i) => ({ key: n > 1 ? `${name} ${i + 1}` : name, label: n > 1 ? `${name} ${i + 1}` : name, kind: "monster" }))),
  ];
  const redraw = () => placing.show(tokens());
  for (const [, input] of [...boxes, ...counts]) input.addEventListener("change", redraw);
  redraw();
  const start = () => run(async () => {
    const fight = await api.call("/fights", { characters: chosen(), bestiary: Object.fromEntries(drawn()), places: placing.chosenPlaces() });
    made.set(fight.fight, fight.links);
  });
  return h("div", {}, h("h3", {}, "Start a fight from the campaign"),
    h("div", { class: "row" }, boxes.map(([id, box]) => h("label", { class: "inline" }, box, living.find((c) => c.id === id).sheet.name))),
    h("div", { class: "row" }, counts.map(([name, input]) => h("label", {}, `${name} (how many)`, input))),
    placing.el,
    h("div", { class: "row" }, h("button", { type: "button", testid: "start-fight", on: { click: start } }, "Start the fight")));
}

function bestiary(data) {
  const rows = data.bestiary.map((m) =>
    h("li", { testid: `monster-${m.name}` },
      `${m.name}: HD ${m.hd ?? 1}${m.hd_plus ? `+${m.hd_plus}` : ""}, AC ${m.ac ?? 10}, ${m.hp ?? 4} HP, ${(m.weapons || []).map((w) => `${w.name} ${w.damage}`).join(", ") || "sword 1d6"}, size ${m.size ?? "M"}, morale ${m.morale || "not given"} `,
      h("button", { type: "button", class: "danger", on: { click: () => api.send({ type: "remove_monster", name: m.name }) } }, `Remove ${m.name}`)));
  // A file of monsters: one combatant or a list of them, in the fight's shape, with a morale score (docs/campaign.md).
  const file = h("input", { type: "file", accept: "application/json,.json", testid: "bestiary-file" });
  file.addEventListener("change", async () => {
    const text = await file.files[0].text();
    let parsed;
    try { parsed = JSON.parse(text); } catch (e) { return run(() => { throw new Error(`the file is not JSON: ${e.message}`); }); }
    for (const { morale, ...monster } of [parsed].flat()) await api.send({ type: "set_monster", monster: { side: "monsters", ...monster }, morale: morale ?? 0 });
  });
  return h("div", {}, h("h3", {}, "Bestiary"), h("ul", { class: "links" }, rows),
    h("div", { class: "row" }, h("label", {}, "Import monsters (a JSON file)", file)));
}

function fights(data) {
  const items = data.fights.map((f) => {
    const links = made.get(f.fight);
    return h("li", { testid: `fight-${f.fight}` }, `Fight ${f.fight} (day ${f.day}): ${f.characters.join(", ")}`, " ",
      links ? h("a", { href: links.gm, target: "_blank", rel: "noopener", testid: `open-${f.fight}` }, "open as GM") : null, " ",
      h("a", { href: api.url(`/fights/${f.fight}/replay`), target: "_blank", rel: "noopener", testid: `replay-${f.fight}` }, "replay"), " ",
      f.reported ? h("span", { class: "muted" }, "reported") : h("button", { type: "button", testid: `report-${f.fight}`, on: { click: () => run(() => api.call(`/fights/${f.fight}/report`)) } }, "Bring back what it did"));
  });
  return h("div", {}, h("h3", {}, "Fights"), items.length ? h("ul", { class: "links" }, items) : h("p", { class: "muted" }, "None yet."));
}

// The player links, each revocable: a first click arms the button, a second revokes the
// link (POST .../links/<token_id>/revoke): the list then shows it revoked.
const shownLinks = { open: false }; // the list stays open across the page's redraws

function playerLinks() {
  const list = h("ul", { class: "links", testid: "player-links" });
  const revoke = (l) => {
    let armed = false;
    const button = h("button", { type: "button", class: "danger", testid: `revoke-${l.name}` }, `Revoke ${l.name}'s link`);
    button.addEventListener("click", () => {
      if (!armed) {
        armed = true;
        button.textContent = `Really revoke ${l.name}'s link? Click again`;
        setTimeout(() => { armed = false; button.textContent = `Revoke ${l.name}'s link`; }, 4000);
        return;
      }
      run(async () => {
        await api.call(`/links/${encodeURIComponent(l.token_id)}/revoke`);
        await fill();
      });
    });
    return button;
  };
  const fill = async () => {
    const got = await api.call("/links", undefined, "GET");
    const players = got.links.filter((l) => l.role === "player");
    replace(list, players.length
      ? players.map((l) => h("li", { testid: `link-${l.name}` }, `${l.name}: `,
        l.revoked ? h("span", { class: "muted" }, "revoked") : [h("a", { href: l.link }, l.link), " ", revoke(l)]))
      : h("li", { class: "muted" }, "No player links."));
  };
  const show = () => run(async () => { shownLinks.open = true; await fill(); });
  if (shownLinks.open) fill().catch(() => {});
  return h("div", {}, h("h3", {}, "Player links"), h("button", { type: "button", testid: "show-links", on: { click: show } }, "Show"), list);
}

export function gmDesk(data) {
  const names = Object.fromEntries(data.characters.map((c) => [c.id, c.sheet.name]));
  replace($("[data-testid=findings]"), findings(data, names));
  replace($("[data-testid=gm-forms]"), passTime(), fights(data), startFight(data), bestiary(data), addCharacter(), editCharacter(data), foundry(), playerLinks());
}

// The home page: asks the server whether creating a fight needs the admin key,
// fills the rules choice and its modules (modules.js) from /api/profiles, and creates
// a demo fight.

import { ModulePicker } from "./modules.js";

const picker = new ModulePicker("home");
const $ = (sel) => document.querySelector(sel);

async function getJson(path) {
  const response = await fetch(path, { headers: { accept: "application/json" } });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

function linkItem(who, href) {
  const li = document.createElement("li");
  const label = document.createElement("span");
  label.className = "who";
  label.textContent = who;
  const a = document.createElement("a");
  a.href = href;
  a.textContent = href;
  a.target = "_blank";
  a.rel = "noopener";
  li.append(label, a);
  return li;
}

function showError(text) {
  const box = $("[data-testid=create-error]");
  box.textContent = text;
  box.hidden = !text;
}

async function start() {
  const [about, profiles] = await Promise.all([getJson("/api/about"), getJson("/api/profiles")]);
  const select = $("[data-testid=profile]");
  for (const profile of Object.values(profiles)) {
    const option = document.createElement("option");
    option.value = profile.name;
    option.textContent = profile.title;
    select.append(option);
  }
  select.closest("label").after(picker.el);
  const pick = () => picker.show(profiles, select.value, picker.chosen());
  select.addEventListener("change", pick);
  pick();
  const note = $("[data-testid=creation-note]");
  if (about.creation === "admin-key") {
    $("[data-testid=admin-key-field]").hidden = false;
    note.textContent = "This server asks for its admin key (FRAY_ADMIN_KEY) to create a fight.";
  } else if (about.creation === "closed") {
    $("[data-testid=create]").disabled = true;
    note.textContent = "Creating fights is closed here: the server listens beyond this machine without FRAY_ADMIN_KEY.";
  } else {
    note.textContent = `Fray ${about.version}: anyone who reaches this address may create a fight.`;
  }
  $("[data-testid=create-form]").addEventListener("submit", create);
}

async function create(ev) {
  ev.preventDefault();
  showError("");
  const form = ev.target;
  const headers = { "content-type": "application/json" };
  const key = form.elements.key.value.trim();
  if (key) headers.authorization = `Bearer ${key}`;
  const response = await fetch("/api/encounters", {
    method: "POST", headers, body: JSON.stringify({ profile: form.elements.profile.value, modules: picker.chosen() }),
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    showError(body.message || `the server answered ${response.status}`);
    return;
  }
  const list = $("[data-testid=links]");
  list.replaceChildren(linkItem("GM", body.links.gm), linkItem("Spectator", body.links.spectator),
    ...Object.entries(body.links.players).map(([name, href]) => linkItem(name, href)));
  $("[data-testid=created]").hidden = false;
}

start().catch((e) => showError(`could not load the page: ${e.message}`));

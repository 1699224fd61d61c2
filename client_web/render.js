// Drawing the view: header, combatant cards, the round's declarations, the
// awaiting prompt, the log, the banner and the toasts (the map is map.js).
// Everything is rebuilt from the current view except the log, which grows.

import { $, h, replace, words } from "./dom.js";
import { modulesInWords } from "./modules.js";

const TOAST_MS = 8000;

/** Sides get colours in the order they first appear, so both tables see the same. */
export function sideIndex(view) {
  const order = [];
  for (const c of view.combatants) if (!order.includes(c.side)) order.push(c.side);
  return (side) => order.indexOf(side) % 6;
}

export function nameOf(view, id) {
  return view.combatants.find((c) => c.id === id)?.name ?? id;
}

export function mine(view, id) {
  return (view.you.combatants ?? []).includes(id);
}

export function renderHeader(view) {
  $("[data-testid=round]").textContent = view.round ? String(view.round) : "–";
  $("[data-testid=phase]").textContent = view.phase;
  $("[data-testid=status]").textContent = view.status;
  const you = view.you;
  const who =
    you.role === "player" ? `player (${(you.combatants ?? []).map((id) => nameOf(view, id)).join(", ")})` : you.role === "gm" ? "GM" : "spectator";
  $("[data-testid=role]").textContent = who;
  document.body.dataset.role = you.role;
  document.body.dataset.status = view.status;
  document.title = `Fray · round ${view.round || 0} · ${view.phase}`;
  // The rules are fixed at creation: the profile, and any module taken from another one.
  const taken = modulesInWords(view.modules);
  // A what-if fork says where it came from (rules/fork.py).
  const forked = view.origin ? ` A fork of fight ${view.origin.encounter} after its event #${view.origin.at}.` : "";
  $("[data-testid=rules]").textContent = `Rules: ${view.profile}${taken ? `, with ${taken}` : ""}.${forked}`;
  const seed = $("[data-testid=seed]");
  if (view.seed && view.status === "ended") {
    replace(seed, "Seed revealed: ", h("code", {}, view.seed), " (sha256 ", h("code", {}, view.seed_hash), ")");
  } else {
    replace(seed, "Seed sha256: ", h("code", { title: view.seed_hash }, view.seed_hash.slice(0, 16) + "…"));
  }
}

/* ---------- combatant cards ---------- */

export function hpText(c) {
  return c.hp === null || c.hp === undefined ? c.condition : `${c.hp}/${c.hp_max}`;
}

/** A condition as a chip: burning counts the rounds the oil has burned (003). */
function conditionChip(c, name) {
  const text = name === "burning" && c.burning ? `burning (${c.burning} ${c.burning === 1 ? "round" : "rounds"} so far)` : name;
  return h("li", { class: `chip cond cond-${name.replace(/[^a-z]/g, "")}`, testid: `cond-${c.id}-${name}` }, text);
}

/** A weapon and what has become of it: dropped (a parry, a gawper's fumble) or broken (a failed save). */
function weaponItem(c, w, i) {
  const lost = w.broken ? "broken" : w.dropped ? "dropped" : "";
  return h(
    "li",
    { class: `weapon${lost ? ` lost ${lost}` : ""}`, testid: `weapon-${c.id}-${i}`, "data-state": lost || "in hand" },
    `${w.name} ${w.damage}${w.bonus ? ` +${w.bonus}` : ""}`,
    lost ? h("span", { class: `badge ${lost === "broken" ? "down" : "wait"}` }, lost) : null,
  );
}

let profiles = null; // the GM's: GET /api/profiles, for the kinds of the figures on the cards

/** The rule profiles (rules/profiles.py): a figure of kind 'combatant' is shown by that combatant's name. */
export function setProfiles(p) {
  profiles = p;
}

/** The game's words of the view's profile, defined once in the rules (rules/words.py):
 * `morale` (result -> the log's words) and `conditions`; null until the profiles have loaded. */
export function gameWords(view) {
  return profiles?.[view.profile]?.words ?? null;
}

/** The figures of the view's profile that hold a combatant's id (`aboard`, `held_by`...). */
function combatantFigures(view) {
  const p = profiles?.[view.profile];
  return new Set([...(p?.common_figures ?? []), ...(p?.figures ?? [])].filter((f) => f.kind === "combatant").map((f) => f.name));
}

/** The figures that are set, 003's then the profile's own (GM only: rules/view.py), on one line: "pc · level 3 · aboard Sea Wolf". */
function figuresLine(view, c, whose) {
  const shown = Object.entries({ ...(c.common ?? {}), ...(c.figures ?? {}) }).map(([k, v]) => {
    const name = words(k);
    if (v === true) return name;
    if (v && typeof v === "object") return `${name} ${Object.entries(v).map(([n, x]) => `${words(n)} ${x}`).join(", ")}`;
    return `${name} ${v === "" ? "none" : whose.has(k) ? nameOf(view, v) : v}`;
  });
  return shown.length ? h("p", { class: "figures", testid: `figures-${c.id}` }, shown.join(" · ")) : null;
}

export function renderCards(view) {
  const colour = sideIndex(view);
  const declared = new Set(view.declarations.map((d) => d.actor));
  const awaited = new Set(view.awaited);
  const surprised = new Set(view.surprised ?? []);
  const whose = combatantFigures(view);
  const cards = view.combatants.map((c) => {
    const badges = [];
    if (mine(view, c.id)) badges.push(h("span", { class: "badge you" }, "yours"));
    if (c.down) badges.push(h("span", { class: "badge down", testid: `down-${c.id}` }, "down"));
    else if (c.hp !== null && c.hp !== undefined && c.condition !== "unhurt") {
      // The figures are shown: say what they mean too (hidden figures show only this word, as HP).
      badges.push(h("span", { class: `badge wound ${c.condition === "badly wounded" ? "bad" : ""}`, testid: `wound-${c.id}` }, c.condition));
    }
    // Only the GM's cards say so: nobody else is sent an unseen combatant, or told whose figures are hidden.
    if (c.unseen) badges.push(h("span", { class: "badge wait", testid: `unseen-${c.id}` }, "unseen by the table"));
    if (c.hidden) badges.push(h("span", { class: "badge" }, "figures hidden"));
    if (c.unseen && reveal) {
      badges.push(h("button", { type: "button", class: "small", testid: `reveal-${c.id}`, on: { click: () => reveal(c.id) } }, "Reveal to the table"));
    }
    if (declared.has(c.id)) badges.push(h("span", { class: "badge ok" }, "declared"));
    else if (awaited.has(c.id)) badges.push(h("span", { class: "badge wait" }, "awaited"));
    const facts = [
      ["HP", hpText(c), `hp-${c.id}`],
      ["AC", c.ac_shown ?? "?", `ac-${c.id}`],
      ["DEX", c.dex, null],
      ["Move", `${c.move} ft`, null],
      ["At", `${c.x}, ${c.y}`, `pos-${c.id}`],
    ];
    if (c.subdual) facts.push(["Subdual", `${c.subdual} (of ${c.hp_max} HP)`, `subdual-${c.id}`]);
    if (c.morale) {
      const words = gameWords(view)?.morale?.[c.morale] ?? c.morale; // 003's result in the log's words (GM only)
      facts.push(["Morale", c.morale_round ? `${words} (round ${c.morale_round})` : words, `morale-${c.id}`]);
    }
    const conditions = [...c.conditions];
    if (surprised.has(c.side) && !conditions.includes("surprised")) conditions.push("surprised");
    return h(
      "li",
      {
        class: `card side-${colour(c.side)}${c.down ? " is-down" : ""}${mine(view, c.id) ? " is-mine" : ""}`,
        testid: `combatant-${c.id}`,
        "data-id": c.id,
        "data-side": c.side,
        "data-x": c.x,
        "data-y": c.y,
        "data-down": c.down ? "true" : "false",
        "data-mine": mine(view, c.id) ? "true" : "false",
        "data-hp": c.hp ?? "",
      },
      h(
        "div",
        { class: "card-head" },
        h("span", { class: `swatch side-${colour(c.side)}`, "aria-hidden": "true" }),
        h("strong", { class: "name" }, c.name),
        h("span", { class: "side" }, c.side),
        badges,
      ),
      h(
        "dl",
        { class: "facts" },
        facts.map(([k, v, id]) => h("div", {}, h("dt", {}, k), h("dd", id ? { testid: id } : {}, String(v)))),
      ),
      conditions.length
        ? h("ul", { class: "chips conditions", testid: `conditions-${c.id}`, "aria-label": "Conditions" }, conditions.map((n) => conditionChip(c, n)))
        : null,
      c.weapons?.length
        ? h("ul", { class: "chips weapons", testid: `weapons-${c.id}`, "aria-label": "Weapons" }, c.weapons.map((w, i) => weaponItem(c, w, i)))
        : null,
      figuresLine(view, c, whose),
      c.notes ? h("p", { class: "notes" }, "GM notes: ", c.notes) : null,
    );
  });
  replace($("[data-testid=combatants]"), cards);
}

/* ---------- declarations and the awaiting prompt ---------- */

export function renderRound(view) {
  const section = $("[data-testid=round-state]");
  const decl = view.declarations.map((d) =>
    h("li", { testid: `declared-${d.actor}` }, h("strong", {}, nameOf(view, d.actor)), ": ", d.text),
  );
  replace($("[data-testid=declarations]"), decl.length ? decl : h("li", { class: "muted" }, "No declarations yet."));
  replace(
    $("[data-testid=awaited]"),
    view.awaited.length
      ? view.awaited.map((id) => h("li", { testid: `awaited-${id}` }, nameOf(view, id)))
      : h("li", { class: "muted" }, view.phase === "declaration" ? "Everyone has declared." : "—"),
  );
  section.dataset.phase = view.phase;
  // 003: each phase goes in Dexterity order; the down and the fled are out of it.
  const declared = new Set(view.declarations.map((d) => d.actor));
  const awaited = new Set(view.awaited);
  const surprised = new Set(view.surprised ?? []);
  const order = view.combatants.filter((c) => !c.down).sort((a, b) => b.dex - a.dex);
  replace(
    $("[data-testid=dex-order]"),
    order.map((c) => {
      const state = surprised.has(c.side) ? "surprised" : declared.has(c.id) ? "declared" : awaited.has(c.id) ? "awaited" : "";
      return h(
        "li",
        { testid: `order-${c.id}`, "data-state": state },
        h("span", { class: "dex" }, `DEX ${c.dex}`),
        h("span", {}, c.name),
        state ? h("span", { class: `badge ${state === "declared" ? "ok" : state === "awaited" ? "wait" : ""}` }, state) : null,
      );
    }),
  );
  renderLogFilter(view);
}

/* ---------- log filter ---------- */

function renderLogFilter(view) {
  const select = $("[data-testid=log-filter]");
  const items = view.combatants.map((c) => [c.id, c.name]);
  const key = JSON.stringify(items);
  if (select.dataset.items === key) return;
  const chosen = select.value;
  replace(select, h("option", { value: "" }, "everyone"), items.map(([id, name]) => h("option", { value: id }, name)));
  select.dataset.items = key;
  select.value = items.some(([id]) => id === chosen) ? chosen : "";
  if (!select.dataset.wired) {
    select.dataset.wired = "1";
    select.addEventListener("change", filterLog);
  }
}

function filterLog() {
  const who = $("[data-testid=log-filter]").value;
  for (const li of $("[data-testid=log]").children) {
    li.hidden = Boolean(who) && li.dataset.actor !== who && li.dataset.target !== who;
  }
}

/** @param {((awaitingId: string, choice: string) => void) | null} onAnswer  null: read-only (a replay) */
export function renderAwaiting(view, onAnswer) {
  const box = $("[data-testid=awaiting]");
  const a = view.awaiting;
  if (!a) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const mayAnswer = Boolean(onAnswer) && (view.you.role === "gm" || (a.who !== "gm" && mine(view, a.who)));
  const key = `${a.id}|${mayAnswer}`;
  if (!box.hidden && box.dataset.key === key) return; // same prompt: keep what is being typed
  box.dataset.key = key;
  const who = a.who === "gm" ? "the GM" : nameOf(view, a.who);
  box.hidden = false;
  replace(
    box,
    h("h2", {}, mayAnswer ? (a.kind === "die" ? "Roll at the table" : "Your choice") : `Waiting for ${who}`),
    h("p", { class: "prompt" }, a.prompt, a.who !== "gm" && view.you.role === "gm" ? ` (for ${who})` : ""),
    mayAnswer ? (a.kind === "die" ? dieForm(a, onAnswer) : choiceButtons(view, a, onAnswer)) : null,
  );
}

/** An answer to a prompt as a person reads it: the rules' sentence for it (GET /api/profiles:
 * each module's `answers`), or the combatant it names (in the rules' sentence for one), or its words. */
export function answerLabel(view, a, opt) {
  const answers = gameWords(view)?.answers?.[a.kind] ?? {};
  if (answers[opt]) return answers[opt];
  const c = view.combatants.find((x) => x.id === opt);
  if (c) return answers["{combatant}"]?.replace("{name}", c.name) ?? c.name;
  return words(opt, true);
}

/** One button per answer, each a sentence (answerLabel). */
function choiceButtons(view, a, onAnswer) {
  return h(
    "div",
    { class: "buttons" },
    a.options.map((opt) => h("button", { type: "button", testid: `answer-${opt}`, on: { click: () => onAnswer(a.id, opt) } }, answerLabel(view, a, opt))),
  );
}

/** A real die's result: a number field from 1 to the die's size (option physical_dice); `prefix` tells two apart (the GM's bar). */
export function dieForm(a, onAnswer, prefix = "") {
  const input = h("input", {
    type: "number", min: "1", max: String(a.options.length), step: "1", required: "",
    inputmode: "numeric", testid: `${prefix}die-input`, "aria-label": `die result, 1 to ${a.options.length}`,
  });
  const submit = (event) => {
    event.preventDefault();
    if (a.options.includes(input.value)) {
      onAnswer(a.id, input.value);
    } else {
      input.setCustomValidity(`a d${a.options.length} shows 1 to ${a.options.length}`);
      input.reportValidity();
    }
  };
  input.addEventListener("input", () => input.setCustomValidity(""));
  return h("form", { class: "die-form", on: { submit } }, input, h("button", { type: "submit", testid: `${prefix}die-submit` }, "Enter"));
}

/* ---------- log ---------- */

export function rollChip(r) {
  return h(
    "span",
    { class: `roll${r.forced ? " forced" : ""}`, title: r.purpose, testid: "roll" },
    `d${r.sides} → ${r.value}`,
    r.forced ? h("span", { class: "forced-mark" }, " forced") : null,
    r.entered ? h("span", { class: "forced-mark" }, " rolled at the table") : null,
    h("span", { class: "sr-only" }, ` (${r.purpose})`),
  );
}

const signed = (v) => (v >= 0 ? `+${v}` : `−${-v}`);

/** The sum behind a roll, in plain words: each modifier, the total, what was needed. */
function sumLine(e) {
  if (!e.mods?.length && (e.need === undefined || e.need === null)) return null;
  const parts = (e.mods ?? []).map((m) => `${signed(m.value)} ${m.name}`);
  const verdict = e.need !== undefined && e.need !== null && e.total !== undefined && e.total !== null
    ? `total ${e.total}, ${e.need} needed: ${e.total >= e.need ? "succeeds" : "fails"}`
    : "";
  return h("span", { class: "sum", testid: "log-sum" }, [parts.length ? `modifiers ${parts.join(", ")}` : "", verdict].filter(Boolean).join("; "));
}

let reveal = null; // the GM's: (id) => void; a button on an unseen combatant's card

export function setReveal(fn) {
  reveal = fn;
}

let undo = null; // the GM's: (seq) => void; one button per event in the log
const undoButtons = new Set(); // events that already have their button
const ARM_MS = 5000; // how long an undo waits for its second press

/** The GM's log gets an "undo" button on each event (docs/protocol.md, "Undo"). */
export function setUndo(fn) {
  undo = fn;
}

/** Strike through the lines of undone events and drop their buttons. */
export function markUndone(undone) {
  const gone = new Set(undone ?? []);
  for (const li of $("[data-testid=log]").children) {
    const off = gone.has(Number(li.dataset.seq));
    li.classList.toggle("undone", off);
    const button = li.querySelector("button.undo");
    if (button) button.hidden = off;
  }
}

/** An undo named for what it undoes ("Undo “GM edits Goblin 2: hp 3.”"), which asks first:
 * the first press arms it for a few seconds, the second sends it. */
function undoButton(e) {
  if (!undo || e.seq <= 0 || e.kind === "rejected" || undoButtons.has(e.seq)) return null;
  undoButtons.add(e.seq);
  let armed = null;
  const named = `Undo “${e.text}”`;
  const disarm = () => {
    clearTimeout(armed);
    armed = null;
    button.textContent = "undo";
    button.setAttribute("aria-label", named);
    button.classList.remove("danger");
    delete button.dataset.armed;
  };
  const press = () => {
    if (armed) {
      disarm();
      undo(e.seq);
      return;
    }
    button.textContent = "Undo this? Press again";
    button.setAttribute("aria-label", `${named}? Press again to undo it`);
    button.classList.add("danger");
    button.dataset.armed = "true";
    armed = setTimeout(disarm, ARM_MS);
  };
  const button = h("button", { type: "button", class: "undo", testid: `undo-${e.seq}`, "aria-label": named, on: { click: press } }, "undo");
  return button;
}

function logItem(e) {
  return h(
    "li",
    {
      class: `entry kind-${e.kind.replace(/[^a-z0-9_-]/gi, "")}`, testid: "log-entry", "data-kind": e.kind, "data-seq": e.seq,
      tabindex: "-1", // the focus lands on the line when its undo button goes (app.js keepFocus)
      "data-actor": e.actor ?? "", "data-target": e.target ?? "",
    },
    h("span", { class: "text" }, e.text),
    e.rolls?.length ? h("span", { class: "rolls" }, e.rolls.map(rollChip)) : null,
    sumLine(e),
    e.audience && e.audience !== "all" ? h("span", { class: "audience" }, e.audience === "gm" ? "GM only" : e.audience.replace(/^side:/, "side ")) : null,
    e.code ? h("code", { class: "code" }, e.code) : null,
    undoButton(e),
  );
}

/** Newest first: entries arrive oldest first, so each goes on top. */
export function addLog(entries, reset = false) {
  const log = $("[data-testid=log]");
  if (reset) {
    log.replaceChildren();
    undoButtons.clear();
  }
  for (const e of entries) log.prepend(logItem(e));
  filterLog();
  const empty = $("[data-testid=log-empty]");
  empty.hidden = log.children.length > 0;
}

/* ---------- banner and toasts ---------- */

let countdown = null;

export function renderConnection(state, onRetry) {
  const banner = $("[data-testid=status-banner]");
  const dot = $("[data-testid=connection]");
  clearInterval(countdown);
  banner.dataset.kind = state.kind;
  dot.dataset.kind = state.kind;
  dot.textContent = { live: "live", connecting: "connecting", reconnecting: "offline", fatal: "refused" }[state.kind];
  if (state.kind === "live") {
    banner.hidden = true;
    return;
  }
  banner.hidden = false;
  if (state.kind === "fatal") {
    replace(banner, h("strong", {}, "Cannot join this fight: "), state.reason);
    return;
  }
  if (state.kind === "connecting" || !state.delay) {
    replace(banner, h("strong", {}, state.attempt ? "Reconnecting…" : "Connecting…"));
    return;
  }
  const due = Date.now() + state.delay;
  const when = h("span", {});
  const tick = () => (when.textContent = `Next try in ${Math.max(0, Math.ceil((due - Date.now()) / 1000))} s.`);
  tick();
  countdown = setInterval(tick, 1000);
  replace(
    banner,
    h("strong", {}, "Reconnecting…"),
    ` Connection lost${state.reason ? ` (${state.reason})` : ""}. `,
    when,
    " ",
    h("button", { type: "button", testid: "retry-now", on: { click: onRetry } }, "Retry now"),
  );
}

export function toast(message, code = "", kind = "error") {
  const box = $("[data-testid=toasts]");
  const item = h(
    "div",
    { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status", testid: "toast", "data-code": code },
    h("span", {}, message),
    code ? h("code", {}, code) : null,
  );
  const close = h("button", { type: "button", class: "close", "aria-label": "Dismiss", on: { click: () => item.remove() } }, "×");
  item.append(close);
  box.append(item);
  while (box.children.length > 4) box.firstElementChild.remove();
  setTimeout(() => item.remove(), TOAST_MS);
}

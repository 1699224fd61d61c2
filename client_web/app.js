// Fray's browser client: one page for every invite link (GM, player, spectator).
// The URL is /e/<encounter id>?token=<invite token>; the server's messages are
// described in server/protocol.py and docs/protocol.md.

import { Chat } from "./chat.js";
import { $ } from "./dom.js";
import { DeclarePanels } from "./controls.js";
import { GmConsole } from "./gm.js";
import { nameCombatantFigures } from "./gm_links.js";
import { renderGrid } from "./map.js";
import { applyPatch, Connection, comparePositions } from "./net.js";
import * as draw from "./render.js";
import { Replay } from "./replay.js";
import { MapForm } from "./mapimage.js";
import { Recent } from "./recent.js";
import { EndSummary } from "./summary.js";

const SENT_MEMORY = 200; // command ids remembered, to tie errors and rejections to their sender

const match = location.pathname.match(/^\/e\/([^/]+)\/?$/);
const encounter = match ? decodeURIComponent(match[1]) : null;
const params = new URLSearchParams(location.search);
const token = params.get("token");

const state = {
  view: null,
  position: null, // the stream position the view reflects: sent as `after` on reconnect
  maxSeq: -1, // the last event whose log entries are shown
  marker: null, // a move destination picked on the map
  sent: new Map(), // command id -> what it was, for messages about it
};

let conn = null;
let gm = null;
let chat = null; // the table talk panel (chat.js), for a live page
let summary = null; // the end of the fight in numbers (summary.js)
let mapForm = null; // the GM's battle map image (mapimage.js)
let recent = null; // the GM's "what just happened" after resolving (recent.js)
let standing = null; // this viewer's combatants that were standing at the last render: id -> true
const panels = new DeclarePanels(
  $("[data-testid=declare-panels]"),
  send,
  (marker) => {
    state.marker = marker;
    drawGrid();
  },
  (message, code) => draw.toast(message, code),
  `${encounter}.${token?.slice(0, 12)}`,
);

function send(command, label) {
  if (!conn) return;
  if (command.type === "advance" && recent && state.view?.phase === "declaration") recent.begin(state.view.round, state.maxSeq);
  try {
    const id = conn.command(command);
    state.sent.set(id, label);
    if (state.sent.size > SENT_MEMORY) state.sent.delete(state.sent.keys().next().value);
    if (!conn.live) draw.toast("Not connected: the command will be sent when the connection is back.", "", "info");
  } catch (err) {
    draw.toast(err.message);
  }
}

function answer(awaiting, choice) {
  send({ type: "answer", awaiting, choice }, `answer ${choice}`);
}

/* ---------- messages ---------- */

function addEntries(entries, reset) {
  const fresh = reset ? entries : entries.filter((e) => e.seq > state.maxSeq);
  for (const e of fresh) {
    state.maxSeq = Math.max(state.maxSeq, e.seq);
    // The stream prefixes our id with the token's ("<token id>.<our id>").
    const ours = e.command_id?.slice(e.command_id.lastIndexOf(".") + 1);
    if (e.kind === "rejected" && ours && state.sent.has(ours)) {
      draw.toast(`${state.sent.get(ours)}: ${e.text}`, e.code ?? "");
    }
    // The GM moved the fight on to newer rules (upgrade_rules, rules/upgrade.py): a fresh welcome says which.
    if (e.kind === "rules" && !reset && state.rules) state.rules = { ...state.rules, version: state.rules.newest };
  }
  draw.addLog(fresh, reset);
  chat?.add(fresh, reset);
  recent?.add(fresh);
}

function handle(msg) {
  switch (msg.type) {
    case "welcome": {
      // A resumed connection gets only what it missed; a first one gets everything.
      const resumed = state.position !== null;
      if (!resumed) state.maxSeq = -1;
      state.position = msg.position;
      state.view = msg.view;
      state.rules = { version: msg.rules_version ?? 0, newest: msg.rules_newest ?? 0 }; // the fight's rules version, the server's newest
      if (msg.view.you.role === "gm") {
        draw.setUndo((seq) => send({ type: "undo", seq }, `undo event ${seq}`));
        draw.setReveal((id) => send({ type: "edit_combatant", id, unseen: false }, `reveal ${draw.nameOf(state.view, id)}`));
      }
      // Every page reads the game's words and the figures' kinds from the rules (GET /api/profiles),
      // once; then draws again. The next welcome tries again if the load failed.
      nameCombatantFigures(() => render());
      addEntries(msg.log ?? [], !resumed);
      render();
      break;
    }
    case "update": {
      if (state.position !== null && comparePositions(msg.position, state.position) < 0) return;
      let next;
      try {
        // A patch turns the view this socket last had into the current one.
        next = msg.view ?? applyPatch(state.view, msg.patch ?? []);
      } catch (err) {
        console.warn("Fray: a view patch did not apply; joining afresh", err);
        conn.restart("the view went out of step");
        return;
      }
      state.position = msg.position;
      state.view = next;
      addEntries(msg.log ?? [], false);
      render();
      break;
    }
    case "error": {
      const what = msg.id && state.sent.get(msg.id);
      draw.toast(what ? `${what}: ${msg.message}` : msg.message, msg.code);
      break;
    }
    case "ack":
    case "pong":
      break;
    default:
      console.warn("Fray: unknown message type", msg.type);
  }
}

/* ---------- drawing ---------- */

function drawGrid() {
  if (!state.view) return;
  const pickable = panels.canPick;
  if (!pickable) state.marker = null;
  $("[data-testid=grid-hint]").hidden = !pickable;
  renderGrid(
    state.view,
    state.marker,
    pickable
      ? (x, y) => {
          state.marker = panels.pick(x, y);
          drawGrid();
        }
      : null,
    {
      limit: (id) => panels.moveLimit(id),
      drop: (id, x, y) => {
        state.marker = panels.declareMove(id, x, y);
        drawGrid();
      },
      refuse: (id, feet, limit) =>
        draw.toast(
          `${draw.nameOf(state.view, id)} moves at most ${limit} ft a round, and that square is ${feet} ft away: nothing was declared.`,
          "move/too-far",
        ),
      occupied: (id, there) =>
        draw.toast(`${there.name} stands on that square: ${draw.nameOf(state.view, id)} cannot end a move there. Nothing was declared.`, "move/occupied"),
    },
  );
}

/** A player's own combatants, as the view has them (none on the GM's or a spectator's page). */
function ownCombatants(view) {
  return view.you.role === "player" ? view.combatants.filter((c) => draw.mine(view, c.id)) : [];
}

const names = (list) => list.map((c) => c.name).join(", ");

function idleText(view) {
  if (view.you.role === "spectator") return "You are watching: spectators have no controls.";
  if (view.status === "ended") return "The fight has ended.";
  if (view.status === "setup") {
    return view.you.role === "gm" ? "Nothing to declare before the fight starts: start it from the bar at the top." : "Waiting for the GM to start the fight.";
  }
  if (view.awaiting) return "Waiting for an answer before the round goes on.";
  if (view.phase !== "declaration") return `Resolving the ${view.phase} phase…`;
  if (view.you.role === "gm") return "Nobody can declare right now.";
  // Say which of the player's combatants cannot act, and why, by name.
  const own = ownCombatants(view);
  const down = own.filter((c) => c.down);
  const surprised = own.filter((c) => !c.down && (view.surprised ?? []).includes(c.side));
  if (down.length === own.length && own.length) return `${names(down)} ${down.length === 1 ? "is" : "are"} down: there is nothing to declare for ${names(down)}.`;
  const why = [
    down.length ? `${names(down)} ${down.length === 1 ? "is" : "are"} down.` : "",
    surprised.length ? `${names(surprised)} ${surprised.length === 1 ? "is" : "are"} surprised and cannot act in round ${view.round}.` : "",
  ].filter(Boolean);
  return why.length ? why.join(" ") : "Your combatants cannot act this round.";
}

/** A player's combatant that falls is said at once (a toast) and stays said above the controls. */
function renderFallen(view) {
  const own = ownCombatants(view);
  const fallen = own.filter((c) => c.down);
  if (standing) {
    for (const c of fallen) if (standing[c.id]) draw.toast(`${c.name} has fallen.`, "", "info");
  }
  standing = Object.fromEntries(own.map((c) => [c.id, !c.down]));
  const notice = $("[data-testid=fallen]");
  notice.hidden = !fallen.length;
  notice.textContent = fallen.map((c) => `${c.name} has fallen${c.hp !== null && c.hp !== undefined ? ` (${c.hp} HP)` : ""}.`).join(" ");
}

/** "Your turn to declare": a player's combatants that may declare now and have not. */
function renderYourTurn(view) {
  const prompt = $("[data-testid=your-turn]");
  const declared = new Set(view.declarations.map((d) => d.actor));
  const due = view.you.role === "player" && view.status === "running" && view.phase === "declaration" && !view.awaiting
    ? Object.keys(view.actions ?? {}).filter((id) => !declared.has(id) && draw.mine(view, id)).map((id) => draw.nameOf(view, id))
    : [];
  prompt.hidden = !due.length;
  const text = due.length ? `Your turn to declare: ${due.join(", ")} (round ${view.round}).` : "";
  if (prompt.textContent !== text) prompt.textContent = text;
  if (due.length) document.title = `(!) Your turn to declare · Fray`;
}

// Drawn and focusable: not hidden, nor in a closed <details> (whose content keeps its boxes in Chromium).
const shown = (el) => Boolean(el?.isConnected && el.getClientRects().length && !el.closest("details:not([open]) > :not(summary)"));

/**
 * Draw, and keep the keyboard's place: if the focused control is gone or hidden by what was
 * drawn (a folded panel, the bar's next button, an undone line's button), the focus goes to
 * the same control drawn afresh, else to the nearest place that still shows (a panel's
 * summary, the log line), never back to the top of the page.
 */
function keepFocus(drawing) {
  const before = document.activeElement;
  const had = before && before !== document.body;
  const testid = had ? before.dataset?.testid : undefined;
  const around = [];
  for (let e = had ? before.parentElement : null; e && e !== document.body; e = e.parentElement) around.push(e);
  drawing();
  if (!had || shown(before) && document.activeElement === before) return;
  const again = testid && document.querySelector(`[data-testid="${CSS.escape(testid)}"]`);
  if (shown(again)) return again.focus();
  for (const old of around) {
    // A panel drawn afresh is found again by its test id.
    const e = old.isConnected ? old : old.dataset?.testid && document.querySelector(`[data-testid="${CSS.escape(old.dataset.testid)}"]`);
    if (!e) continue;
    const home = e.tagName === "DETAILS" ? e.querySelector(":scope > summary") : e.getAttribute("tabindex") !== null ? e : null;
    if (shown(home)) return home.focus();
  }
}

function render() {
  keepFocus(drawView);
}

function drawView() {
  const view = state.view;
  draw.renderHeader(view);
  draw.renderCards(view);
  draw.renderRound(view);
  draw.renderAwaiting(view, answer);
  draw.markUndone(view.undone);
  panels.update(view);
  chat?.update(view);
  summary?.update(view);
  if (view.you.role === "gm") {
    gm ??= new GmConsole($("[data-testid=gm-console]"), send, (m) => draw.toast(m), {
      encounter,
      token,
      notify: (m) => draw.toast(m, "", "info"),
      answer,
    });
    gm.update(view, state.rules);
    mapForm ??= new MapForm(send, (m) => draw.toast(m));
    mapForm.update(view);
    if (!recent) {
      recent = new Recent();
      $("[data-testid=gm-bar]")?.after(recent.el);
    }
  }
  // A prompt waiting on this page's viewer shows in the tab's title too (the GM may answer any).
  const a = view.awaiting;
  if (a && (view.you.role === "gm" || (a.who !== "gm" && draw.mine(view, a.who)))) {
    document.title = `(!) Answer needed: ${a.who === "gm" ? "the GM" : draw.nameOf(view, a.who)} · Fray`;
  }
  $("#controls-h").textContent = { gm: "Declare for anyone", player: "Your actions", spectator: "Watching" }[view.you.role] ?? "Controls";
  renderFallen(view);
  renderYourTurn(view);
  const idle = $("[data-testid=no-actions]");
  idle.hidden = Object.keys(view.actions ?? {}).length > 0;
  idle.textContent = idleText(view);
  drawGrid();
}

/* ---------- start ---------- */

function logLink() {
  // The whole log this link may read, as JSON: to keep, or to re-run against the revealed seed.
  const a = $("[data-testid=log-link]");
  a.href = `/api/encounters/${encodeURIComponent(encounter)}/log?${new URLSearchParams({ token })}`;
  a.hidden = false;
  const replay = $("[data-testid=replay-link]");
  replay.href = `/e/${encodeURIComponent(encounter)}?${new URLSearchParams({ token, replay: "1" })}`;
  replay.hidden = false;
}

if (!encounter || !token) {
  draw.renderConnection({
    kind: "fatal",
    reason: "this page needs an invite link of the form /e/<encounter>?token=<token>. Ask your GM for yours.",
  });
} else if (params.has("replay")) {
  const at = params.get("at");
  new Replay(encounter, token).load(at && /^\d+$/.test(at) ? Number(at) : null);
} else {
  chat = new Chat(send);
  summary = new EndSummary(encounter, token);
  conn = new Connection({
    encounter,
    token,
    position: () => state.position,
    onMessage: handle,
    onState: (s) => draw.renderConnection(s, () => conn.retryNow()),
  });
  conn.start();
  logLink();
}

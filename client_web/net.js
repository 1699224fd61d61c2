// The websocket to the server: connect, resume from the last stream position,
// reconnect with bounded exponential backoff, and resend unacknowledged
// commands (their ids make a resend harmless: the server applies each once);
// a command whose socket failed DROPS_LIMIT times before its answer is not sent
// again (issue 27: one that fails the connection must not loop).

const BACKOFF_FIRST_MS = 500;
const BACKOFF_MAX_MS = 15000;
const PING_EVERY_MS = 20000;
const SILENCE_LIMIT_MS = 45000; // no message at all for this long: the socket is dead
const CONNECT_TIMEOUT_MS = 10000;
const OUTBOX_LIMIT = 50;
const DROPS_LIMIT = 3;
// Close codes after which retrying cannot help (bad or revoked token, no such encounter).
// 4012 (a fight of rules this replica does not know) is not fatal: the next try, through the balancer, reaches another.
const FATAL_CLOSE = (code) => code === 1008 || (code >= 4400 && code < 4500);

export function newId() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  // randomUUID needs a secure context; a table on plain http over the LAN has none.
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Stream positions ("<ms>-<seq>") compare as number pairs, not strings. */
export function comparePositions(a, b) {
  const [am, as = "0"] = String(a).split("-");
  const [bm, bs = "0"] = String(b).split("-");
  const d = BigInt(am) - BigInt(bm) || BigInt(as) - BigInt(bs);
  return d > 0n ? 1 : d < 0n ? -1 : 0;
}

/**
 * Apply server/patch.py's ops: `[path, value]` sets, `[path]` deletes; a path is
 * object keys and array indexes, `[]` the root. Returns the new root.
 */
export function applyPatch(root, ops) {
  for (const [path, ...value] of ops) {
    if (!path.length) {
      root = value[0];
      continue;
    }
    let parent = root;
    for (const key of path.slice(0, -1)) parent = parent[key];
    if (parent === null || typeof parent !== "object") throw new Error(`no ${path.join(".")} to patch`);
    const last = path[path.length - 1];
    if (path.some((key) => key === "__proto__" || key === "constructor" || key === "prototype")) throw new Error("bad patch path");
    if (value.length) parent[last] = value[0];
    else if (Array.isArray(parent)) parent.splice(last, 1);
    else delete parent[last];
  }
  if (root === null || typeof root !== "object") throw new Error("a patch needs a view to patch");
  return root;
}

function notResent(drops) {
  return (
    `the connection was lost ${drops} times while this command waited for its answer, so it was not sent again. ` +
    "Check the log: if it is not there, send it again."
  );
}

export class Connection {
  /**
   * @param {object} o
   * @param {string} o.encounter
   * @param {string} o.token
   * @param {() => string|null} o.position  the last position the client has applied
   * @param {(msg: object) => void} o.onMessage
   * @param {(state: {kind: string, attempt?: number, delay?: number, reason?: string}) => void} o.onState
   */
  constructor({ encounter, token, position, onMessage, onState }) {
    this.encounter = encounter;
    this.token = token;
    this.position = position;
    this.onMessage = onMessage;
    this.onState = onState;
    this.ws = null;
    this.ready = false; // welcomed on the current socket
    this.attempt = 0;
    this.retryTimer = null;
    this.pingTimer = null;
    this.lastHeard = 0;
    this.outbox = new Map(); // id -> {message, sent: on the socket now, drops: sockets lost before its answer}, until ack or error
    this.stopped = false;
    addEventListener("online", () => this.retryNow());
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const q = new URLSearchParams({ token: this.token });
    const after = this.position();
    if (after) q.set("after", after);
    return `${scheme}://${location.host}/ws/encounters/${encodeURIComponent(this.encounter)}?${q}`;
  }

  start() {
    this.stopped = false;
    this.open();
  }

  open() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.onState({ kind: this.attempt ? "reconnecting" : "connecting", attempt: this.attempt });
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (err) {
      this.scheduleRetry(String(err));
      return;
    }
    this.ws = ws;
    this.ready = false;
    const stuck = setTimeout(() => ws.close(4000, "connecting took too long"), CONNECT_TIMEOUT_MS);
    ws.addEventListener("open", () => {
      clearTimeout(stuck);
      this.lastHeard = Date.now();
      this.startPings();
    });
    ws.addEventListener("message", (ev) => {
      if (ws === this.ws) this.receive(ev.data);
    });
    ws.addEventListener("close", (ev) => {
      clearTimeout(stuck);
      this.closed(ws, ev);
    });
  }

  receive(data) {
    this.lastHeard = Date.now();
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (msg.type === "welcome") {
      this.attempt = 0;
      this.ready = true;
      this.onState({ kind: "live" });
      this.onMessage(msg);
      // Whatever was not acknowledged before the drop goes again, same ids; but not
      // a command the connection failed on again and again: the page hears why.
      for (const [id, pending] of [...this.outbox]) {
        if (pending.drops >= DROPS_LIMIT) {
          this.outbox.delete(id);
          this.onMessage({ type: "error", id, code: "client/not-resent", message: notResent(pending.drops) });
          continue;
        }
        pending.sent = true;
        this.ws.send(JSON.stringify(pending.message));
      }
      return;
    }
    if ((msg.type === "ack" || msg.type === "error") && msg.id) this.outbox.delete(msg.id);
    this.onMessage(msg);
  }

  closed(ws, ev) {
    if (ws !== this.ws) return;
    this.ws = null;
    this.ready = false;
    this.stopPings();
    for (const pending of this.outbox.values()) {
      if (pending.sent) pending.drops += 1;
      pending.sent = false;
    }
    if (this.stopped) return;
    if (FATAL_CLOSE(ev.code)) {
      this.stopped = true;
      this.onState({ kind: "fatal", reason: ev.reason || `the server refused this link (code ${ev.code})` });
      return;
    }
    this.scheduleRetry(ev.reason);
  }

  scheduleRetry(reason) {
    this.attempt += 1;
    const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (this.attempt - 1));
    const delay = Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
    this.onState({ kind: "reconnecting", attempt: this.attempt, delay, reason });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  /** Drop this socket and join again (the welcome brings a whole view). */
  restart(reason) {
    this.ws?.close(4000, reason);
  }

  retryNow() {
    if (this.stopped || this.ws) return;
    this.open();
  }

  startPings() {
    this.stopPings();
    this.pingTimer = setInterval(() => {
      if (!this.ws) return;
      if (Date.now() - this.lastHeard > SILENCE_LIMIT_MS) {
        this.ws.close(4000, "no answer from the server");
        return;
      }
      if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: "ping", id: "" }));
    }, PING_EVERY_MS);
  }

  stopPings() {
    clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  get live() {
    return this.ready && this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /** Send a command; returns its id. Queued while offline, resent after reconnecting. */
  command(command) {
    const id = newId();
    const message = { type: "command", id, command };
    if (this.outbox.size >= OUTBOX_LIMIT) {
      throw new Error("too many commands are waiting for the server; wait for the connection");
    }
    const pending = { message, sent: this.live, drops: 0 };
    this.outbox.set(id, pending);
    if (pending.sent) this.ws.send(JSON.stringify(message));
    return id;
  }
}

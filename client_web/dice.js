// Checking a fight's dice in the browser, trusting no server (docs/dice.md): the draw
// (keyed BLAKE2b with an 8-byte digest, unbiased by rejection), SHA-256 for the seed's
// commitment, and the check of a log export, as server/verify.py makes it. No DOM here:
// tests/browser/test_dice_js.py runs it under node against the document's test vectors.

const MASK = (1n << 64n) - 1n;
const SPAN = 1n << 64n;

/* ---------- BLAKE2b (RFC 7693), 64-bit words as BigInt ---------- */

const IV = [
  0x6a09e667f3bcc908n, 0xbb67ae8584caa73bn, 0x3c6ef372fe94f82bn, 0xa54ff53a5f1d36f1n,
  0x510e527fade682d1n, 0x9b05688c2b3e6c1fn, 0x1f83d9abfb41bd6bn, 0x5be0cd19137e2179n,
];
const SIGMA = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
  [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
  [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
  [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
  [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
  [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
  [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
  [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
  [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
];

const rotr = (x, n) => ((x >> n) | (x << (64n - n))) & MASK;

function compress(h, block, t, last) {
  const m = [];
  for (let i = 0; i < 16; i++) {
    let w = 0n;
    for (let b = 7; b >= 0; b--) w = (w << 8n) | BigInt(block[i * 8 + b]);
    m.push(w);
  }
  const v = [...h, ...IV];
  v[12] ^= t & MASK;
  v[13] ^= t >> 64n;
  if (last) v[14] ^= MASK;
  const g = (a, b, c, d, x, y) => {
    v[a] = (v[a] + v[b] + x) & MASK;
    v[d] = rotr(v[d] ^ v[a], 32n);
    v[c] = (v[c] + v[d]) & MASK;
    v[b] = rotr(v[b] ^ v[c], 24n);
    v[a] = (v[a] + v[b] + y) & MASK;
    v[d] = rotr(v[d] ^ v[a], 16n);
    v[c] = (v[c] + v[d]) & MASK;
    v[b] = rotr(v[b] ^ v[c], 63n);
  };
  for (let r = 0; r < 12; r++) {
    const s = SIGMA[r % 10];
    g(0, 4, 8, 12, m[s[0]], m[s[1]]);
    g(1, 5, 9, 13, m[s[2]], m[s[3]]);
    g(2, 6, 10, 14, m[s[4]], m[s[5]]);
    g(3, 7, 11, 15, m[s[6]], m[s[7]]);
    g(0, 5, 10, 15, m[s[8]], m[s[9]]);
    g(1, 6, 11, 12, m[s[10]], m[s[11]]);
    g(2, 7, 8, 13, m[s[12]], m[s[13]]);
    g(3, 4, 9, 14, m[s[14]], m[s[15]]);
  }
  for (let i = 0; i < 8; i++) h[i] ^= v[i] ^ v[i + 8];
}

/** BLAKE2b of `message` (bytes) keyed with `key` (bytes, at most 64), `outlen` bytes long. */
export function blake2b(message, key, outlen) {
  const h = [...IV];
  h[0] ^= 0x01010000n ^ (BigInt(key.length) << 8n) ^ BigInt(outlen);
  const blocks = [];
  if (key.length) {
    const k = new Uint8Array(128);
    k.set(key);
    blocks.push([k, 128]);
  }
  for (let at = 0; at < message.length; at += 128) {
    const b = new Uint8Array(128);
    const part = message.slice(at, at + 128);
    b.set(part);
    blocks.push([b, part.length]);
  }
  if (!blocks.length) blocks.push([new Uint8Array(128), 0]); // the empty message, unkeyed
  let t = 0n;
  blocks.forEach(([block, used], i) => {
    t += BigInt(used);
    compress(h, block, t, i === blocks.length - 1);
  });
  const out = new Uint8Array(outlen);
  for (let i = 0; i < outlen; i++) out[i] = Number((h[i >> 3] >> (8n * BigInt(i & 7))) & 0xffn);
  return out;
}

/* ---------- SHA-256 (FIPS 180-4), for the seed's published hash ---------- */

const K256 = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/** SHA-256 of `bytes`, as lowercase hex. */
export function sha256hex(bytes) {
  const length = bytes.length;
  const padded = new Uint8Array(((length + 9 + 63) >> 6) << 6);
  padded.set(bytes);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 4, (length * 8) >>> 0);
  view.setUint32(padded.length - 8, Math.floor((length * 8) / 2 ** 32));
  const h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  const w = new Uint32Array(64);
  const rotr32 = (x, n) => (x >>> n) | (x << (32 - n));
  for (let at = 0; at < padded.length; at += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(at + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr32(w[i - 15], 7) ^ rotr32(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr32(w[i - 2], 17) ^ rotr32(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr32(e, 6) ^ rotr32(e, 11) ^ rotr32(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + w[i]) >>> 0;
      const t2 = ((rotr32(a, 2) ^ rotr32(a, 13) ^ rotr32(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      [hh, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    [a, b, c, d, e, f, g, hh].forEach((x, i) => (h[i] = (h[i] + x) >>> 0));
  }
  return h.map((x) => x.toString(16).padStart(8, "0")).join("");
}

/* ---------- the draw (docs/dice.md, 'The draw') ---------- */

export const fromHex = (hex) => Uint8Array.from(hex.match(/../g) ?? [], (x) => parseInt(x, 16));
const ascii = (text) => Uint8Array.from(text, (c) => c.charCodeAt(0));

/** Draw `index` of the event at `position` for a die of `sides` (a Number, or a BigInt for a
 * die beyond 2^53); the result in 1..sides, of the same type. */
export function draw(seed, position, index, sides) {
  const n = BigInt(sides);
  const limit = SPAN - (SPAN % n);
  for (let attempt = 0; ; attempt++) {
    const digest = blake2b(ascii(`${position}:${index}:${attempt}`), seed, 8);
    const value = digest.reduce((acc, byte) => (acc << 8n) | BigInt(byte), 0n);
    if (value < limit) return typeof sides === "bigint" ? (value % n) + 1n : Number(value % n) + 1;
  }
}

/* ---------- checking a log export (docs/dice.md, 'Checking a fight') ---------- */

const PUBLISHED = /^Encounter created \(.*\); seed sha256 ([0-9a-f]{64})\.$/;
const FORKED = /^A fork of encounter (.+) after its event #\d+(?: \(.*\))?; a new seed, sha256 ([0-9a-f]{64})\.$/;
const REVEALED = /^The fight ends\. Seed revealed: ([0-9a-f]+) \(sha256 ([0-9a-f]{64})\)\.$/;

/** The log's lines (as GET /api/encounters/{id}/export?format=json gives them) checked against
 * the seeds they publish and reveal: {ok, random, forced, entered, unchecked, notes}. */
export function checkLog(entries) {
  const report = { ok: true, random: 0, forced: 0, entered: 0, unchecked: 0, notes: [] };
  const fail = (text) => {
    report.ok = false;
    report.notes.push(text);
    return report;
  };
  const first = entries.length ? PUBLISHED.exec(entries[0].text) : null;
  if (!first) return fail("not a log export: its first line must be 'Encounter created (...); seed sha256 ...'");
  const seeds = [{ start: 0, published: first[1], seed: null, origin: "" }];
  for (const e of entries) {
    const forked = e.kind === "fork" ? FORKED.exec(e.text) : null;
    if (forked) {
      seeds[seeds.length - 1].origin = forked[1];
      seeds.push({ start: e.seq + 1, published: forked[2], seed: null, origin: "" });
    }
    const revealed = REVEALED.exec(e.text);
    if (revealed) seeds[seeds.length - 1].seed = revealed[1];
  }
  const own = seeds[seeds.length - 1];
  if (own.seed === null) return fail("the seed is not revealed (the fight has not ended): the rolls cannot be checked");
  seeds.forEach((s, i) => {
    if (s.seed === null) {
      report.notes.push(`the rolls before event ${seeds[i + 1].start} are encounter ${s.origin}'s, under its seed: check its own log`);
    }
  });
  for (const s of seeds.filter((x) => x.seed !== null)) {
    const actual = sha256hex(fromHex(s.seed));
    if (actual !== s.published) {
      return fail(`the seed does not match the published hash: sha256 of the seed is ${actual}, the hash published was ${s.published}`);
    }
    report.notes.push(`the seed's sha256 is the hash published ${s.start === 0 ? "at creation" : `at the fork (event ${s.start - 1})`} (${s.published})`);
    s.bytes = fromHex(s.seed);
  }
  const drawn = new Map();
  for (const e of entries) {
    const s = [...seeds].reverse().find((x) => x.start <= e.seq);
    for (const roll of e.rolls ?? []) {
      if (roll.entered) report.entered += 1;
      else if (roll.forced) report.forced += 1;
      else {
        const index = roll.draw ?? drawn.get(e.seq) ?? 0; // as the roll says, else counted (older logs)
        drawn.set(e.seq, index + 1);
        if (!s.bytes) {
          report.unchecked += 1;
          continue;
        }
        report.random += 1;
        const want = draw(s.bytes, e.seq, index, roll.sides);
        if (roll.value !== want) {
          return fail(`event ${e.seq}, draw ${index}: d${roll.sides} for '${roll.purpose}' shows ${roll.value}; the seed gives ${want} (the line: '${e.text}')`);
        }
      }
    }
  }
  return report;
}

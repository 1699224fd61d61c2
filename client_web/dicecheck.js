// "Check the dice" (issue 13): every die the seed rolled is re-derived in the page from
// the revealed seed, as rules/dice.py draws it, so nobody need trust the server: draw
// `index` of the event at `position` is BLAKE2b keyed by the seed over
// "position:index:attempt", its first 8 bytes a big-endian number, re-hashed with the
// next attempt while it would bias the die, then value % sides + 1.

const MASK = (1n << 64n) - 1n;
const IV = [
  0x6a09e667f3bcc908n, 0xbb67ae8584caa73bn, 0x3c6ef372fe94f82bn, 0xa54ff53a5f1d36f1n,
  0x510e527fade682d1n, 0x9b05688c2b3e6c1fn, 0x1f83d9abfb41bd6bn, 0x5be0cd19137e2179n,
];
// RFC 7693, 2.7: the message schedule of BLAKE2b's rounds
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
    for (let j = 7; j >= 0; j--) w = (w << 8n) | BigInt(block[i * 8 + j]);
    m.push(w);
  }
  const v = [...h, ...IV];
  v[12] ^= BigInt(t) & MASK;
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

/** BLAKE2b of `message` keyed by `key` (Uint8Arrays), `size` bytes (RFC 7693). */
export function blake2b(message, key, size) {
  const h = [...IV];
  h[0] ^= 0x01010000n ^ (BigInt(key.length) << 8n) ^ BigInt(size);
  const data = new Uint8Array((key.length ? 128 : 0) + message.length);
  data.set(key, 0);
  data.set(message, key.length ? 128 : 0);
  const blocks = Math.max(1, Math.ceil(data.length / 128));
  for (let i = 0; i < blocks; i++) {
    const block = new Uint8Array(128);
    block.set(data.subarray(i * 128, i * 128 + 128));
    const last = i === blocks - 1;
    compress(h, block, last ? data.length : (i + 1) * 128, last);
  }
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = Number((h[i >> 3] >> BigInt(8 * (i & 7))) & 0xffn);
  return out;
}

const SPAN = 1n << 64n;
const encoder = new TextEncoder();

/** rules/dice.py draw(): the result in 1..sides of draw `index` of the event at `position`. */
export function draw(seed, position, index, sides) {
  const limit = SPAN - (SPAN % BigInt(sides));
  for (let attempt = 0; attempt < 1000; attempt++) {
    const digest = blake2b(encoder.encode(`${position}:${index}:${attempt}`), seed, 8);
    let value = 0n;
    for (const byte of digest) value = (value << 8n) | BigInt(byte);
    if (value < limit) return Number(value % BigInt(sides)) + 1;
  }
  throw new Error("no unbiased draw in 1000 attempts");
}

function bytesOf(hex) {
  return new Uint8Array(hex.match(/../g).map((b) => parseInt(b, 16)));
}

/**
 * Check every die the seed rolled in `log` (entries with rolls carrying `draw`) against the
 * revealed `seedHex`; a fork's events up to `after` rolled its origin's seed and are not
 * checked. Returns {checked, matched, mismatch: null | the first {seq, sides, value, purpose,
 * expected}, marks: [[entry index, roll index, expected]]} (a mark for every die checked).
 */
export function checkDice(log, seedHex, after = -1) {
  const seed = bytesOf(seedHex);
  let checked = 0;
  let matched = 0;
  let mismatch = null;
  const marks = [];
  log.forEach((e, i) => {
    if (e.seq <= after) return;
    (e.rolls ?? []).forEach((r, j) => {
      if (r.draw === undefined || r.draw === null || r.draw < 0) return;
      const expected = draw(seed, e.seq, r.draw, r.sides);
      checked++;
      marks.push([i, j, expected]);
      if (expected === r.value) matched++;
      else mismatch ??= { seq: e.seq, sides: r.sides, value: r.value, purpose: r.purpose, expected };
    });
  });
  return { checked, matched, mismatch, marks };
}

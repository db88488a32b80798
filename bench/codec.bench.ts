/**
 * Codec throughput on the real blob vectors (spec/blob-format.md; test/vectors). Prints decodes/s,
 * µs of CPU time (best of 7 rounds of 5,000) per decode and per re-encode, and — for scale — the cost of one node:crypto SHA-256 over the
 * same number of bytes. Run: npx tsx bench/codec.bench.ts
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { decodeCreatedEventBlob, encodeCreatedEventBlob, parseBase64 } from '../src/core/codec/index.js';

interface Vec {
  name: string;
  createdEventBlobBase64: string;
}
const vectors = (
  JSON.parse(
    readFileSync(new URL('../test/vectors/contract-id-test-vectors.json', import.meta.url), 'utf8'),
  ) as {
    blobVectors: Vec[];
  }
).blobVectors;

/** µs of this process's CPU time (user + system) per call — less sensitive than wall time to other load. */
function timeIt(fn: () => void, rounds = 7, perRound = 5000): number {
  for (let i = 0; i < 2000; i++) fn();
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < rounds; r++) {
    const start = process.cpuUsage();
    for (let i = 0; i < perRound; i++) fn();
    const d = process.cpuUsage(start);
    best = Math.min(best, (d.user + d.system) / perRound);
  }
  return best; // best round: the least disturbed by other load
}

let sink = 0;
console.log(`node ${process.version}`);
console.log('blob                            bytes  decodes/s   µs/decode  µs/encode  µs/sha256(blob)');
for (const v of vectors) {
  const bytes = parseBase64(v.createdEventBlobBase64);
  const decoded = decodeCreatedEventBlob(bytes);
  const dec = timeIt(() => {
    sink += decodeCreatedEventBlob(bytes).createdAt > 0n ? 1 : 0;
  });
  const enc = timeIt(() => {
    sink += encodeCreatedEventBlob(decoded).length;
  });
  const sha = timeIt(() => {
    sink += createHash('sha256').update(bytes).digest()[0]!;
  });
  console.log(
    `${v.name.padEnd(30)} ${String(bytes.length).padStart(6)} ${Math.round(1e6 / dec)
      .toString()
      .padStart(
        10,
      )} ${dec.toFixed(2).padStart(11)} ${enc.toFixed(2).padStart(10)} ${sha.toFixed(2).padStart(16)}`,
  );
}
if (sink === -1) console.log(sink);

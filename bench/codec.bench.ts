/**
 * Codec throughput on the real blob vectors (spec/blob-format.md; test/vectors). Prints decodes/s,
 * µs per decode and per re-encode, and — for scale — the cost of one node:crypto SHA-256 over the
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
  JSON.parse(readFileSync(new URL('../test/vectors/contract-id-test-vectors.json', import.meta.url), 'utf8')) as {
    blobVectors: Vec[];
  }
).blobVectors;

function timeIt(fn: () => void, minMs = 300): number {
  for (let i = 0; i < 2000; i++) fn();
  let n = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < minMs) {
    for (let i = 0; i < 1000; i++) fn();
    n += 1000;
    elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  }
  return (elapsed * 1000) / n; // µs per op
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
      .padStart(10)} ${dec.toFixed(2).padStart(11)} ${enc.toFixed(2).padStart(10)} ${sha.toFixed(2).padStart(16)}`,
  );
}
if (sink === -1) console.log(sink);

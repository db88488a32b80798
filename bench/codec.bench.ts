/**
 * Codec throughput on the real blob vectors (docs/protocol/blob-format.md; test/vectors). Prints decodes/s,
 * µs of CPU time (best of 7 rounds of 5,000) per decode and per re-encode, protobufjs's reflection
 * decoder on the same descriptor, and — for scale — one node:crypto SHA-256 over the same bytes.
 * Run: npx tsx bench/codec.bench.ts
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import protobuf from 'protobufjs';
import { protoDescriptor } from '../src/core/codec/generated/proto-descriptor.js';
import { decodeCreatedEventBlob, encodeCreatedEventBlob, parseBase64 } from '../src/core/codec/index.js';

// protobufjs reflection decoding of the same descriptor, for comparison (envelope → FCI → Value)
const root = protobuf.Root.fromJSON(protoDescriptor);
const PbVersioned = root.lookupType('reserve_audit.blob.Versioned');
const PbFci = root.lookupType('reserve_audit.blob.current.FatContractInstance');
const PbValue = root.lookupType('reserve_audit.blob.current.Value');
function decodeWithProtobufjs(bytes: Uint8Array): unknown {
  const env = PbVersioned.decode(bytes) as unknown as { payload: Uint8Array };
  const fci = PbFci.decode(env.payload) as unknown as { create_arg: Uint8Array };
  return PbValue.decode(fci.create_arg);
}

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
console.log(
  'blob                            bytes  decodes/s   µs/decode  µs/decode(no copy)  µs/encode  µs/protobufjs-decode  µs/sha256(blob)',
);
for (const v of vectors) {
  const bytes = parseBase64(v.createdEventBlobBase64);
  const decoded = decodeCreatedEventBlob(bytes);
  const dec = timeIt(() => {
    sink += decodeCreatedEventBlob(bytes).createdAt > 0n ? 1 : 0;
  });
  const decNoCopy = timeIt(() => {
    sink += decodeCreatedEventBlob(bytes, { copyInput: false }).createdAt > 0n ? 1 : 0;
  });
  const enc = timeIt(() => {
    sink += encodeCreatedEventBlob(decoded).length;
  });
  const pbjs = timeIt(() => {
    sink += decodeWithProtobufjs(bytes) === null ? 1 : 0;
  });
  const sha = timeIt(() => {
    sink += createHash('sha256').update(bytes).digest()[0]!;
  });
  const cols = [
    String(bytes.length).padStart(6),
    String(Math.round(1e6 / dec)).padStart(10),
    dec.toFixed(2).padStart(11),
    decNoCopy.toFixed(2).padStart(19),
    enc.toFixed(2).padStart(10),
    pbjs.toFixed(2).padStart(21),
    sha.toFixed(2).padStart(16),
  ];
  console.log(`${v.name.padEnd(30)} ${cols.join(' ')}`);
}
if (sink === -1) console.log(sink);
console.log(
  `load average after the run: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (${cpus().length} CPUs)`,
);

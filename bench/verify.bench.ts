/**
 * Benchmark of contract-ID verification (docs/protocol/contract-id.md §1–§6) on the real blob vectors:
 * verifications/s of the reference walk — verifyDecodedContract (blob already decoded) and
 * verifyContractId (decode + verify) — and of the verdict seam (src/core/verdict): the WebAssembly
 * engine alone from the bytes, and isContractIdVerified (engine, then reference) from the base64 blob,
 * against the raw SHA-256 floor over exactly the same preimages (contract-hash preimage + unicum
 * preimage) with node:crypto and @noble/hashes.
 *
 * The floor is the fastest way this machine SHA-256es those two preimages: node:crypto's
 * `createHash` (a Hash object per call), its one-shot `hash()` with a binary-string digest (no
 * object, no buffer), and the `sha256Node` seam (one-shot + a copy into a Uint8Array) are all
 * measured, and every ratio is taken against the fastest of the three in the same run.
 *
 * Run: `npm run bench` (= `tsx bench/verify.bench.ts`). Optional: `BENCH_MS=2000` per vector (the functions
 * interleaved in 20 ms slices).
 */
import { createHash, hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeCreatedEventBlob } from '../src/core/codec/index.js';
import { computeContractHashPreimage } from '../src/core/hash/contract-hash.js';
import type { ContractIdVersion } from '../src/core/hash/contract-id-version.js';
import { HashContext } from '../src/core/hash/hash-context.js';
import { sha256Noble } from '../src/core/hash/sha256.js';
import { computeUnicumPreimage } from '../src/core/hash/unicum.js';
import { verifyContractId, verifyDecodedContract } from '../src/core/hash/verify-contract-id.js';
import { DEFAULT_RESERVE_PROFILE } from '../src/core/proof/profile.js';
import { createProofContext } from '../src/core/proof/proof-context.js';
import { verifyReserveProof } from '../src/core/proof/reserve-proof.js';
import { createTypeEnv } from '../src/core/types/type-env.js';
import { parseTypeFile } from '../src/core/types/type-file.js';
import { typeCreateArgument } from '../src/core/types/type-value.js';
import { isContractIdVerified } from '../src/core/verdict/cascade.js';
import { createWasmVerdictEngine } from '../src/core/verdict/wasm/engine.js';
import { decodeBase64Node, decodeBase64NodeScratch } from '../src/io/node-base64.js';
import { sha256Node, sha256NodeBinary } from '../src/io/node-sha256.js';
import { mintReserveContract, RESERVE_TYPE_ENV } from '../src/sim/mint.js';
import { createSeededRng } from '../src/sim/rng.js';
import { loadContractIdVectors } from '../test/helpers/vectors.js';

const MS = Number(process.env.BENCH_MS ?? 1000);
const engine = createWasmVerdictEngine(sha256NodeBinary);
if (engine === null) throw new Error('no WebAssembly verdict engine on this Node');
const root = join(import.meta.dirname, '..');
const env = createTypeEnv(
  parseTypeFile(readFileSync(join(root, 'fixtures', 'types', 'splice-amulet-0.1.17.types.json'), 'utf8'))
    .packages,
);

/** Process CPU time in ms (user + system): robust against other processes on a loaded machine. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * Measures several functions INTERLEAVED (round-robin slices of ~20 ms of CPU time) so that they
 * see the same conditions; returns operations per CPU-second for each, after a warm-up.
 */
/** The three node ways to SHA-256 the two preimages (the seam, createHash, one-shot `hash()`); the floor is the fastest. */
function shaFloors(chPre: Uint8Array, uPre: Uint8Array): (() => void)[] {
  return [
    () => {
      sha256Node(chPre);
      sha256Node(uPre);
    },
    () => {
      createHash('sha256').update(chPre).digest();
      createHash('sha256').update(uPre).digest();
    },
    () => {
      hash('sha256', chPre, 'binary');
      hash('sha256', uPre, 'binary');
    },
  ];
}

function measure(fns: readonly (() => void)[]): number[] {
  for (const f of fns) {
    const w = cpuMs();
    while (cpuMs() - w < 100) f();
  }
  const counts = fns.map(() => 0);
  const times = fns.map(() => 0);
  const slice = 20;
  const rounds = Math.max(1, Math.round(MS / slice));
  for (let r = 0; r < rounds; r++) {
    fns.forEach((f, i) => {
      let n = 0;
      const start = cpuMs();
      let now = start;
      while (now - start < slice) {
        for (let k = 0; k < 20; k++) f();
        n += 20;
        now = cpuMs();
      }
      counts[i] = (counts[i] as number) + n;
      times[i] = (times[i] as number) + (now - start);
    });
  }
  return counts.map((c, i) => (c * 1000) / (times[i] as number));
}

const fmt = (x: number) => Math.round(x).toLocaleString('en-US').padStart(9);

interface Row {
  name: string;
  version: ContractIdVersion;
  preimageBytes: number;
  verifyDecoded: number;
  verifyBlob: number;
  engine: number;
  verdict: number;
  shaNode: number;
  shaCreate: number;
  shaOneShot: number;
  shaNoble: number;
  /** the fastest of shaNode, shaCreate, shaOneShot */
  floor: number;
}

const rows: Row[] = [];
// the reference walk's builder, caches and scratch, held by the caller as a replay or batch holds it
const context = new HashContext();
for (const b of loadContractIdVectors().blobVectors) {
  const contract = decodeCreatedEventBlob(b.createdEventBlobBase64);
  const version = (['v10', 'v11', 'v12'] as const)[Number(b.contractId.slice(69, 70))] as ContractIdVersion;
  const check = verifyDecodedContract({ contractId: b.contractId, contract, types: env, sha256: sha256Node });
  if (!check.ok) throw new Error(`${b.name} does not verify: ${JSON.stringify(check.reasons)}`);
  const typed = version === 'v12' ? typeCreateArgument(contract, env).value : undefined;
  const chPre = computeContractHashPreimage(version, { ...contract, typedCreateArg: typed });
  const salt = contract.authenticationData.salt?.bytes as Uint8Array;
  const uPre = computeUnicumPreimage({
    salt,
    createdAt: contract.createdAt,
    signatories: contract.signatories,
    stakeholders: contract.stakeholders,
    key: contract.key,
    contractHash: sha256Node(chPre),
  });
  const bytes = decodeBase64Node(b.createdEventBlobBase64) as Uint8Array;
  const verdictOpts = {
    contractId: b.contractId,
    blob: b.createdEventBlobBase64,
    types: env,
    sha256: sha256Node,
    engine,
    base64: decodeBase64NodeScratch,
    context,
  };
  if (engine.verify(bytes, b.contractId, env) === null)
    throw new Error(`${b.name}: the engine does not answer`);
  if (!isContractIdVerified(verdictOpts)) throw new Error(`${b.name} does not verify on the verdict path`);
  const [verifyDecoded, verifyBlob, engineRate, verdict, shaNode, shaCreate, shaOneShot, shaNoble] = measure([
    () => {
      verifyDecodedContract({ contractId: b.contractId, contract, types: env, sha256: sha256Node, context });
    },
    () => {
      verifyContractId({
        contractId: b.contractId,
        blob: b.createdEventBlobBase64,
        types: env,
        sha256: sha256Node,
        context,
      });
    },
    () => {
      engine.verify(bytes, b.contractId, env);
    },
    () => {
      isContractIdVerified(verdictOpts);
    },
    ...shaFloors(chPre, uPre),
    () => {
      sha256Noble(chPre);
      sha256Noble(uPre);
    },
  ]) as [number, number, number, number, number, number, number, number];
  rows.push({
    name: b.name,
    version,
    preimageBytes: chPre.length + uPre.length,
    verifyDecoded,
    verifyBlob,
    engine: engineRate,
    verdict,
    shaNode,
    shaCreate,
    shaOneShot,
    shaNoble,
    floor: Math.max(shaNode, shaCreate, shaOneShot),
  });
}

console.log(
  `verify.bench — node ${process.version}, ${MS} ms per function per vector, interleaved 20 ms CPU-time slices; rates in operations per CPU-second`,
);
console.log(
  "verifyDecoded = verifyDecodedContract (the reference: typing + both hashes, node:crypto); verifyBlob = verifyContractId (base64 decode + the reference); engine = the WebAssembly engine's verify from the bytes; verdict = isContractIdVerified (the cascade: base64 into a reused buffer, the engine, the reference for anything else) from the base64 blob",
);
console.log(
  'SHA-256 of the same two preimages only: node = the sha256Node seam (one-shot + copy), create = createHash().update().digest(), oneshot = hash(…, "binary"), noble = @noble/hashes; FLOOR = the fastest node one; every ratio = rate / floor\n',
);
const head = [
  'verifyDecoded',
  'verifyBlob',
  'engine',
  'verdict',
  'sha node',
  'sha create',
  'sha oneshot',
  'sha noble',
];
const ratioHead = ['ratio', 'ratioBlob', 'ratioEngine', 'ratioVerdict'];
console.log(
  `${'vector'.padEnd(38)} ver  bytes ${head.map((h) => h.padStart(13)).join('')} ${ratioHead.map((h) => h.padStart(13)).join('')}`,
);
const line = (name: string, version: string, bytes: number, rates: number[], ratios: number[]) =>
  console.log(
    `${name.padEnd(38)} ${version} ${String(Math.round(bytes)).padStart(6)} ${rates.map((x) => fmt(x).padStart(13)).join('')} ${ratios.map((x) => x.toFixed(2).padStart(13)).join('')}`,
  );
const ratesOf = (r: Row) => [
  r.verifyDecoded,
  r.verifyBlob,
  r.engine,
  r.verdict,
  r.shaNode,
  r.shaCreate,
  r.shaOneShot,
  r.shaNoble,
];
const ratiosOf = (r: Row) => [r.verifyDecoded, r.verifyBlob, r.engine, r.verdict].map((x) => x / r.floor);
for (const r of rows) line(r.name, r.version, r.preimageBytes, ratesOf(r), ratiosOf(r));
for (const v of ['v10', 'v11', 'v12'] as const) {
  const rs = rows.filter((r) => r.version === v);
  const mean = (f: (r: Row) => number[]) =>
    f(rs[0] as Row).map((_, i) => rs.reduce((s, r) => s + (f(r)[i] as number), 0) / rs.length);
  line(
    `mean ${v} (${rs.length} blobs)`,
    v,
    rs.reduce((s, r) => s + r.preimageBytes, 0) / rs.length,
    mean(ratesOf),
    mean(ratiosOf),
  );
}

// The replay's proof step on the simulator's reserve contracts (issue 11 item 2): proven reserves
// from the blob's bytes through verifyReserveProof — the full step (decode the blob, type, hash,
// read the fields from the value tree) and the verdict detail (the engine's walk, the fields read
// from the bytes: replay's path) — against the same SHA-256 floor.
const rng = createSeededRng('verify-bench-reserves');
const tok = (id: string) => ({ admin: `${id.toLowerCase()}::1220${'ab'.repeat(32)}`, id });
console.log(
  "\nreserve proofs (simulator PoolReserve contracts, default profile): full = verifyReserveProof; verdict = the same with detail 'verdict' and the engine (replay's path); rates per CPU-second, ratios against the fastest SHA-256 floor of the same two preimages",
);
console.log(
  `${'contract'.padEnd(38)} ver  bytes ${['full', 'verdict', 'sha oneshot', 'floor'].map((h) => h.padStart(13)).join('')} ${['ratioFull', 'ratioVerdict'].map((h) => h.padStart(14)).join('')}`,
);
for (const version of ['v10', 'v11', 'v12'] as const) {
  let previous: Uint8Array | null = null;
  for (let k = 0; k < 2; k++) {
    const m = mintReserveContract({
      fields: {
        operator: `operator::1220${'cd'.repeat(32)}`,
        poolId: `pool-${k}`,
        tokenA: tok('CC'),
        tokenB: tok(`T${k}`),
        reserveA: `${1_000_000 + k}.1234567890`,
        reserveB: `${2_000_000 - k}.5000000000`,
        totalLpSupply: '1414213.5623730950',
        feeRate: '0.0030000000',
        sequence: BigInt(k),
        previous,
      },
      version,
      createdAtMicros: 1_790_000_000_000_000n + BigInt(k),
      rng,
      sha256: sha256Node,
    });
    previous = m.contractIdBytes;
    const contract = decodeCreatedEventBlob(m.blob);
    const typed = version === 'v12' ? typeCreateArgument(contract, RESERVE_TYPE_ENV).value : undefined;
    const chPre = computeContractHashPreimage(version, { ...contract, typedCreateArg: typed });
    const uPre = computeUnicumPreimage({
      salt: contract.authenticationData.salt?.bytes as Uint8Array,
      createdAt: contract.createdAt,
      signatories: contract.signatories,
      stakeholders: contract.stakeholders,
      key: contract.key,
      contractHash: sha256Node(chPre),
    });
    const base = {
      contractId: m.contractId,
      blob: m.blob,
      types: RESERVE_TYPE_ENV,
      profile: DEFAULT_RESERVE_PROFILE,
      sha256: sha256Node,
      context: createProofContext(null),
    };
    const one = { ...base, detail: 'verdict' as const, context: createProofContext(engine) };
    if (verifyReserveProof(base).status !== 'proven' || verifyReserveProof(one).evidence !== null)
      throw new Error(`minted ${version} contract not proven by the engine`);
    const [decoding, onePass, shaNode, shaCreate, shaOneShot] = measure([
      () => {
        verifyReserveProof(base);
      },
      () => {
        verifyReserveProof(one);
      },
      ...shaFloors(chPre, uPre),
    ]) as [number, number, number, number, number];
    const floor = Math.max(shaNode, shaCreate, shaOneShot);
    console.log(
      `${`PoolReserve ${k === 0 ? 'first' : 'linked'} (${version.toUpperCase()})`.padEnd(38)} ${version} ${String(chPre.length + uPre.length).padStart(6)} ${[decoding, onePass, shaOneShot, floor].map((x) => fmt(x).padStart(13)).join('')} ${[decoding / floor, onePass / floor].map((x) => x.toFixed(2).padStart(14)).join('')}`,
    );
  }
}

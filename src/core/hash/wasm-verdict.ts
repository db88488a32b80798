/**
 * The one-pass verdict (V10, V11 and V12) with its walk in WebAssembly (wasm/one-pass.ts, compiled into
 * generated/one-pass-wasm.ts by `npm run gen:wasm`): the blob is copied into the module's memory,
 * the module writes the contract-hash preimage, the caller's SHA-256 hashes it, the module writes
 * the unicum preimage around that hash, and the recomputed unicum is compared with the embedded
 * contract ID — the same steps, checks and answers as one-pass-verdict.ts, 1.4–2.6× faster
 * (docs/bench/verify.md, pass 7). For V12 the module asks back (its `resolveTemplate` import) for the
 * template's type, which wasm-types.ts lays out in the module's memory.
 *
 * It answers only what the TS walk answers, and with the same preimages (test/hash/wasm-verdict.test.ts);
 * when it does not answer (null), the caller runs the TS walk. Without a `WebAssembly` global, or
 * when the module cannot be instantiated (a browser's policy, say), it never answers. Pure: the
 * module is compiled from bytes in this package, once per thread, on first use.
 */
import { parseBase64 } from '../codec/bytes.js';
import type { TemplateLookup, TypeEnv } from '../types/type-env.js';
import { isCanonicalV1IdHex } from './contract-id.js';
import { HASH_VERSION_BYTE, LF_PURPOSE, UNICUM_PURPOSE } from './contract-id-version.js';
import { ONE_PASS_WASM_BASE64 } from './generated/one-pass-wasm.js';
import { hexEqualsRange } from './hex.js';
import type { Sha256Binary } from './sha256.js';
import { lookupTemplateOfBytes } from './template-of-bytes.js';
import { WasmTypeLayout } from './wasm-types.js';

/** the environment's answer for a template it resolved */
type Resolved = Extract<TemplateLookup, { ok: true }>;

/** What the module exports (wasm/one-pass.ts). */
interface OnePassExports {
  readonly memory: { readonly buffer: ArrayBuffer };
  layout(i: number): number;
  configure(
    legacyByte: number,
    upgradeFriendlyByte: number,
    typedByte: number,
    contractPurpose: number,
    unicumPurpose: number,
  ): void;
  /** mode: 1 V10, 0 V11, 2 V12 */
  walkContract(n: number, mode: number): number;
  writeUnicum(): number;
}

/** The slice of the WebAssembly API this file uses (present in Node and every browser). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: unknown };
}

interface Engine {
  readonly x: OnePassExports;
  readonly mem: Uint8Array;
  readonly memView: DataView;
  readonly types: WasmTypeLayout;
  readonly spans: Int32Array;
  readonly input: number;
  readonly maxInput: number;
  readonly contract: number;
  readonly unicum: number;
}

/** undefined: not tried yet; null: unavailable */
let engine: Engine | null | undefined;

function instantiate(): Engine | null {
  const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (api === undefined) return null;
  try {
    const module = new api.Module(parseBase64(ONE_PASS_WASM_BASE64, 'one-pass module'));
    const x = new api.Instance(module, {
      env: {
        abort: () => {
          throw new Error('one-pass module aborted');
        },
        resolveTemplate,
      },
    }).exports as OnePassExports;
    x.configure(
      HASH_VERSION_BYTE.legacy,
      HASH_VERSION_BYTE.upgradeFriendly,
      HASH_VERSION_BYTE.typedNormalForm,
      LF_PURPOSE.contractInstance,
      UNICUM_PURPOSE,
    );
    // configure() grew the memory to the layout (it never grows after): check, then view it
    if (x.memory.buffer.byteLength < x.layout(7)) return null;
    const mem = new Uint8Array(x.memory.buffer);
    return {
      x,
      mem,
      memView: new DataView(x.memory.buffer),
      types: new WasmTypeLayout(mem, x.layout(5), x.layout(6)),
      spans: new Int32Array(x.memory.buffer, x.layout(4), 16),
      input: x.layout(0),
      maxInput: x.layout(1),
      contract: x.layout(2),
      unicum: x.layout(3),
    };
  } catch {
    return null;
  }
}

/** Whether this thread can run the WebAssembly walk (instantiates it on first call). */
export function hasWasmVerdict(): boolean {
  if (engine === undefined) engine = instantiate();
  return engine !== null;
}

/**
 * Where the last walk that answered found the blob's fields (offsets into the blob, as
 * one-pass-verdict.ts's OnePassSpans): contract ID, package name [1, 2), template id [3, 4),
 * create argument [5, 6), created_at µs high/low halves 7, 8. Valid until the next call.
 */
export function readWasmSpan(i: number): number {
  return engine ? (engine.spans[i] as number) : 0;
}

/** the V12 walk's environment and the template it resolved (single-threaded scratch) */
let typedEnv: TypeEnv | null = null;
let typedResolution: Resolved | null = null;

/** The module's import: resolves the template of the blob in memory and lays out its type. */
function resolveTemplate(nameAt: number, nameStop: number, idAt: number, idStop: number): number {
  const e = engine;
  if (e === null || e === undefined || typedEnv === null) return 0;
  const i = e.input;
  const lookup = lookupTemplateOfBytes(
    typedEnv,
    e.mem,
    e.memView,
    i + nameAt,
    i + nameStop,
    i + idAt,
    i + idStop,
  );
  if (!lookup.ok) return 0;
  const root = e.types.rootOf(typedEnv, lookup);
  if (root !== 0) typedResolution = lookup;
  return root;
}

/**
 * The contract hash (binary string) of a V10/V11 blob whose recomputed contract ID is
 * `contractId` (lower-case hex, `ca10`/`ca11` given as `version`); null when it does not verify,
 * is not the canonical shape, is larger than the module's input area, or WebAssembly is not
 * available — then ask the TS walk.
 */
export function computeVerdictWasm(
  buf: Uint8Array,
  contractId: string,
  version: 'v10' | 'v11',
  sha256: Sha256Binary,
): string | null {
  return run(buf, contractId, version === 'v10' ? 1 : 0, sha256);
}

/**
 * computeVerdictWasm for a V12 (`ca12`) contract ID, typed with `types`: the contract hash and the
 * template resolution it was typed with, or null (then ask the TS walk).
 */
export function computeTypedVerdictWasm(
  buf: Uint8Array,
  contractId: string,
  types: TypeEnv,
  sha256: Sha256Binary,
): { readonly contractHash: string; readonly resolution: Resolved } | null {
  typedEnv = types;
  typedResolution = null;
  try {
    const contractHash = run(buf, contractId, 2, sha256);
    const resolution = typedResolution;
    return contractHash === null || resolution === null ? null : { contractHash, resolution };
  } finally {
    typedEnv = null;
  }
}

function run(buf: Uint8Array, contractId: string, mode: number, sha256: Sha256Binary): string | null {
  if (engine === undefined) engine = instantiate();
  const e = engine;
  if (e === null || buf.length > e.maxInput) return null;
  if (!isCanonicalV1IdHex(contractId)) return null;
  const mem = e.mem;
  mem.set(buf, e.input);
  let n: number;
  try {
    n = e.x.walkContract(buf.length, mode);
  } catch {
    // thrown by the V12 import (the TS walk will meet the same input and decide)
    return null;
  }
  if (n < 0) return null;
  const idAt = e.input + (e.spans[0] as number);
  // the embedded ID spells the published one (so it is a valid V1 ID of that version)
  if (!hexEqualsRange(contractId, mem, idAt)) return null;
  const contractHash = sha256(mem.subarray(e.contract, e.contract + n));
  if (contractHash.length !== 32) return null;
  const at = e.x.writeUnicum();
  for (let i = 0; i < 32; i++) mem[at + i] = contractHash.charCodeAt(i);
  const unicum = sha256(mem.subarray(e.unicum, at + 32));
  if (unicum.length !== 32) return null;
  let d = 0;
  for (let i = 0; i < 32; i++) d |= unicum.charCodeAt(i) ^ (mem[idAt + 37 + i] as number);
  return d === 0 ? contractHash : null;
}

/**
 * The WebAssembly verdict engine (V10, V11 and V12; ./assembly/one-pass.ts, compiled into
 * ./generated/one-pass-wasm.ts by `npm run gen:wasm`): the blob is copied into the module's memory,
 * the module walks it once and writes the contract-hash preimage, the caller's SHA-256 hashes it,
 * the module writes the unicum preimage around that hash, and the recomputed unicum is compared
 * with the embedded contract ID, which must spell the published one. For V12 the module asks back
 * (its `resolveTemplate` import) for the template's type, which ./type-layout.ts lays out in the
 * module's memory.
 *
 * It answers only the clean, canonical case (fields in ascending order, the current blob layout, no
 * contract key, the 42-byte authentication data Canton 3.x writes, blobs up to the module's input
 * area) and only "verified" (./../engine.ts): everything else is null and the reference walk
 * decides. Without a `WebAssembly` global, or when the module cannot be instantiated (a browser's
 * policy, say), there is no engine. Pure: the module is compiled from bytes in this package; every
 * piece of state lives in the engine object the caller holds.
 */
import { parseBase64 } from '../../codec/bytes.js';
import { isCanonicalV1IdHex, versionOfIdHex } from '../../hash/contract-id.js';
import { HASH_VERSION_BYTE, LF_PURPOSE, UNICUM_PURPOSE } from '../../hash/contract-id-version.js';
import { HexScratch, hexEqualsRange } from '../../hash/hex.js';
import type { Sha256Binary } from '../../hash/sha256.js';
import { TemplateOfBytesMemo } from '../../hash/template-of-bytes.js';
import type { TypeEnv } from '../../types/type-env.js';
import type { EngineVerdict, ResolvedTemplate, VerdictEngine } from '../engine.js';
import { ONE_PASS_WASM_BASE64 } from './generated/one-pass-wasm.js';
import { WasmTypeLayout } from './type-layout.js';

/** What the module exports (./assembly/one-pass.ts). */
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

const TWO_32 = 4294967296;

/**
 * A WebAssembly verdict engine hashing with `sha256` (binary-string digests, src/io/node-sha256.ts
 * `sha256NodeBinary` or `binarySha256(…)`), or null where WebAssembly is not available.
 */
export function createWasmVerdictEngine(sha256: Sha256Binary): VerdictEngine | null {
  const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (api === undefined) return null;
  // the V12 walk's environment and the template it resolved, while a walk runs
  let typedEnv: TypeEnv | null = null;
  let typedResolution: ResolvedTemplate | null = null;
  let mem = new Uint8Array(0);
  let memView = new DataView(mem.buffer);
  let types: WasmTypeLayout | null = null;
  let inputAt = 0;
  // this engine's own memo of template lookups and hex scratch (no module state)
  const templates = new TemplateOfBytesMemo();
  const hex = new HexScratch();
  /** the module's import: resolves the template of the blob in memory and lays out its type */
  const resolveTemplate = (nameAt: number, nameStop: number, idAt: number, idStop: number): number => {
    if (typedEnv === null || types === null) return 0;
    const i = inputAt;
    const lookup = templates.lookup(typedEnv, mem, memView, i + nameAt, i + nameStop, i + idAt, i + idStop);
    if (!lookup.ok) return 0;
    const root = types.rootOf(typedEnv, lookup);
    if (root !== 0) typedResolution = lookup;
    return root;
  };
  let x: OnePassExports;
  try {
    const module = new api.Module(parseBase64(ONE_PASS_WASM_BASE64, 'one-pass module'));
    x = new api.Instance(module, {
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
  } catch {
    return null;
  }
  mem = new Uint8Array(x.memory.buffer);
  memView = new DataView(x.memory.buffer);
  types = new WasmTypeLayout(mem, x.layout(5), x.layout(6));
  inputAt = x.layout(0);
  const maxInput = x.layout(1);
  const contractAt = x.layout(2);
  const unicumAt = x.layout(3);
  /** where the walk found the blob's fields: contract ID 0, package name [1, 2), template id [3, 4),
   * create argument [5, 6), created_at µs high/low halves 7, 8 */
  const spans = new Int32Array(x.memory.buffer, x.layout(4), 16);

  const run = (buf: Uint8Array, contractId: string, mode: number): string | null => {
    if (buf.length > maxInput || !isCanonicalV1IdHex(contractId)) return null;
    mem.set(buf, inputAt);
    let n: number;
    try {
      n = x.walkContract(buf.length, mode);
    } catch {
      // thrown by the V12 import: the reference meets the same input and decides
      return null;
    }
    if (n < 0) return null;
    const idAt = inputAt + (spans[0] as number);
    // the embedded ID spells the published one (so it is a valid V1 ID of that version)
    if (!hexEqualsRange(contractId, mem, idAt, hex)) return null;
    const contractHash = sha256(mem.subarray(contractAt, contractAt + n));
    if (contractHash.length !== 32) return null;
    const at = x.writeUnicum();
    for (let i = 0; i < 32; i++) mem[at + i] = contractHash.charCodeAt(i);
    const unicum = sha256(mem.subarray(unicumAt, at + 32));
    if (unicum.length !== 32) return null;
    let d = 0;
    for (let i = 0; i < 32; i++) d |= unicum.charCodeAt(i) ^ (mem[idAt + 37 + i] as number);
    return d === 0 ? contractHash : null;
  };

  const verdictOf = (contractHash: string, resolution: ResolvedTemplate | null): EngineVerdict => ({
    contractHash,
    resolution,
    spans: {
      nameAt: spans[1] as number,
      nameStop: spans[2] as number,
      idAt: spans[3] as number,
      idStop: spans[4] as number,
      argAt: spans[5] as number,
      argStop: spans[6] as number,
      createdAtMicros: (spans[7] as number) * TWO_32 + ((spans[8] as number) >>> 0),
    },
  });

  return {
    name: 'wasm',
    verify(buf, contractId, env) {
      const version = versionOfIdHex(contractId);
      if (version === 'v10' || version === 'v11') {
        const h = run(buf, contractId, version === 'v10' ? 1 : 0);
        return h === null ? null : verdictOf(h, null);
      }
      if (version !== 'v12' || env === undefined) return null;
      typedEnv = env;
      typedResolution = null;
      try {
        const h = run(buf, contractId, 2);
        const resolution = typedResolution;
        return h === null || resolution === null ? null : verdictOf(h, resolution);
      } finally {
        typedEnv = null;
      }
    },
  };
}

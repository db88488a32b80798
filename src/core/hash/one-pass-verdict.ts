/**
 * The verdict of a V10/V11 contract ID straight from the blob's bytes (issue 11 item 3): one walk
 * over the `Versioned` envelope and the current-layout `FatContractInstance` writes the contract-hash
 * preimage (docs/protocol/contract-id.md §6.1, §6.2) and the unicum preimage (§5) as it goes — names,
 * parties and texts are validated on their bytes and copied, never turned into JS strings — and
 * the recomputed unicum is compared with the embedded contract ID's bytes, which must spell the
 * published ID. No decoded contract, no intermediate objects.
 *
 * It answers only the clean, canonical case: fields in ascending order, each known one once (the
 * party lists repeated), the version "2.1", "2" or "dev", no contract key, no package version, the
 * 42-byte authentication data Canton 3.x writes, and a create argument stream-value-hash.ts handles.
 * For anything else — including every decode error and every mismatch — it returns null, and the
 * caller takes the full path, which has the final word (test/hash/verify-fast.test.ts compares them
 * on every real vector, fuzz case and truncation). Every check the full decoder makes on an input
 * this walk accepts is made here too, on the bytes. Pure; never throws; bounded by the input length
 * and the decoder's depth limit.
 */
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH } from '../codec/limits.js';
import { compareByteRanges, isPackageNameBytes, isPartyIdBytesMemo } from '../codec/validate-bytes.js';
import { WIRE_I64, WIRE_LEN, WireReader } from '../codec/wire-reader.js';
import type { TemplateLookup, TypeEnv } from '../types/type-env.js';
import { CONTRACT_ID_BYTES, isCanonicalV1IdHex } from './contract-id.js';
import {
  type ContractIdVersion,
  HASH_VERSION_BYTE,
  HASHING_METHOD_OF,
  LF_PURPOSE,
  UNICUM_PURPOSE,
} from './contract-id-version.js';
import { HashBuilder } from './hash-builder.js';
import { hexEqualsRange } from './hex.js';
import { writeIdentifierOfBytes } from './identifier-bytes.js';
import type { Sha256Binary } from './sha256.js';
import { streamValueInto } from './stream-value-hash.js';
import { lookupTemplateOfBytes } from './template-of-bytes.js';
import { streamTypedValueInto } from './typed-stream-hash.js';
import { computeTypedVerdictWasm, computeVerdictWasm, readWasmSpan } from './wasm-verdict.js';

/** the environment's answer for a template it resolved */
type Resolved = Extract<TemplateLookup, { ok: true }>;

const TAG_CONTRACT_ID = (1 << 3) | WIRE_LEN;
const TAG_PACKAGE_NAME = (2 << 3) | WIRE_LEN;
const TAG_TEMPLATE_ID = (3 << 3) | WIRE_LEN;
const TAG_CREATE_ARG = (4 << 3) | WIRE_LEN;
const TAG_SIGNATORY = (5 << 3) | WIRE_LEN;
const TAG_STAKEHOLDER = (6 << 3) | WIRE_LEN;
const TAG_CREATED_AT = (7 << 3) | WIRE_I64;
const TAG_AUTH = (8 << 3) | WIRE_LEN;

/** `0a 26 0a 24 08 01 12 20 <salt 32> 10 1e`: UntypedVersionedMessage v30 { Salt { HMAC-SHA256, salt } } */
const AUTH_HEAD = [0x0a, 0x26, 0x0a, 0x24, 0x08, 0x01, 0x12, 0x20] as const;
const AUTH_LENGTH = 42;
/** at most this many parties per list (more: the full path) */
const MAX_PARTIES = 64;
const TWO_32 = 4294967296;

const contractPre = new HashBuilder(8192);
const unicumPre = new HashBuilder(1024);
/** [start, end) of each signatory, then of each non-signatory stakeholder */
const sigs = new Int32Array(2 * MAX_PARTIES);
const others = new Int32Array(2 * MAX_PARTIES);

/** The version string `buf[start, end)` is "2.1", "2" or "dev" (the current layout's). */
function isCurrentVersion(buf: Uint8Array, start: number, end: number): boolean {
  const n = end - start;
  if (n === 1) return buf[start] === 0x32;
  if (n !== 3) return false;
  const a = buf[start];
  const b = buf[start + 1];
  const c = buf[start + 2];
  return (a === 0x32 && b === 0x2e && c === 0x31) || (a === 0x64 && b === 0x65 && c === 0x76);
}

/** seq(parties) as lp(i32(n) ‖ str(p)…) from the recorded ranges. */
function writeParties(b: HashBuilder, buf: Uint8Array, ranges: Int32Array, n: number): void {
  const lenAt = b.length;
  b.i32(0);
  const start = b.length;
  b.i32(n);
  for (let i = 0; i < n; i++) b.strRange(buf, ranges[2 * i] as number, ranges[2 * i + 1] as number);
  b.patchI32(lenAt, b.length - start);
}

/**
 * The contract hash (a binary string, see Sha256Binary) of a V10/V11 blob whose recomputed contract
 * ID is `contractId` (lower-case hex, 138 chars, `ca10`/`ca11` given as `version`); null when the
 * blob does not verify, or is not the canonical shape this walk answers — then ask the full path.
 */
export function computeVerdictOnePass(
  buf: Uint8Array,
  contractId: string,
  version: 'v10' | 'v11',
  sha256: Sha256Binary,
): string | null {
  // the same walk in WebAssembly first (wasm-verdict.ts: the same answers, faster); the TS walk
  // for what it does not answer
  const fast = computeVerdictWasm(buf, contractId, version, sha256);
  if (fast !== null) {
    readSpansOfWasm();
    return fast;
  }
  return verdict(buf, contractId, version, sha256, null);
}

/** lastOnePassSpans from the WebAssembly walk that answered */
function readSpansOfWasm(): void {
  const spans = lastOnePassSpans;
  spans.nameAt = readWasmSpan(1);
  spans.nameStop = readWasmSpan(2);
  spans.idAt = readWasmSpan(3);
  spans.idStop = readWasmSpan(4);
  spans.argAt = readWasmSpan(5);
  spans.argStop = readWasmSpan(6);
  spans.microsHi = readWasmSpan(7);
  spans.microsLo = readWasmSpan(8) >>> 0;
}

/** computeVerdictOnePass with the TS walk only (the WebAssembly walk's reference, and its benchmark's). */
export function computeVerdictOnePassTs(
  buf: Uint8Array,
  contractId: string,
  version: 'v10' | 'v11',
  sha256: Sha256Binary,
): string | null {
  return verdict(buf, contractId, version, sha256, null);
}

/** The V12 one-pass verdict: the contract hash and the template resolution it was typed with. */
export interface TypedVerdict {
  readonly contractHash: string;
  /** the environment's (remembered) answer for the template, as resolveTemplateCached gives it */
  readonly resolution: Resolved;
}

/**
 * Like computeVerdictOnePass for a V12 (`ca12`) contract ID: the create argument is typed with
 * `types` as it is streamed (typed-stream-hash.ts). Null when it does not verify or is not the
 * canonical shape — then ask the full path.
 */
export function computeTypedVerdictOnePass(
  buf: Uint8Array,
  contractId: string,
  types: TypeEnv,
  sha256: Sha256Binary,
): TypedVerdict | null {
  const fast = computeTypedVerdictWasm(buf, contractId, types, sha256);
  if (fast !== null) {
    readSpansOfWasm();
    return fast;
  }
  return computeTypedVerdictOnePassTs(buf, contractId, types, sha256);
}

/** computeTypedVerdictOnePass with the TS walk only (the WebAssembly walk's reference). */
export function computeTypedVerdictOnePassTs(
  buf: Uint8Array,
  contractId: string,
  types: TypeEnv,
  sha256: Sha256Binary,
): TypedVerdict | null {
  resolved = null;
  const contractHash = verdict(buf, contractId, 'v12', sha256, types);
  return contractHash === null || resolved === null ? null : { contractHash, resolution: resolved };
}

/**
 * Where the last walk that answered found the fields a caller may want to read after the verdict
 * (the reserve proof's one pass, src/core/proof/reserve-proof-one-pass.ts): byte offsets into its
 * input, valid until the next walk. Single-threaded scratch, like the preimage builders.
 */
export interface OnePassSpans {
  /** the `package_name` field's bytes */
  nameAt: number;
  nameStop: number;
  /** the `template_id` Identifier message */
  idAt: number;
  idStop: number;
  /** the `create_arg` Value message */
  argAt: number;
  argStop: number;
  /** `created_at` in µs as two's-complement halves (checked: |µs| < 2^53) */
  microsHi: number;
  microsLo: number;
}

/** the spans of the last walk that answered (see OnePassSpans) */
export const lastOnePassSpans: OnePassSpans = {
  nameAt: 0,
  nameStop: 0,
  idAt: 0,
  idStop: 0,
  argAt: 0,
  argStop: 0,
  microsHi: 0,
  microsLo: 0,
};

/** the V12 walk's template resolution (single-threaded scratch) */
let resolved: Resolved | null = null;

function verdict(
  buf: Uint8Array,
  contractId: string,
  version: ContractIdVersion,
  sha256: Sha256Binary,
  types: TypeEnv | null,
): string | null {
  if (buf.length > DEFAULT_MAX_BYTES || !isCanonicalV1IdHex(contractId)) return null;
  try {
    return walk(buf, contractId, version, sha256, types);
  } catch {
    // a CodecError of the wire reader: the full path reports it
    return null;
  }
}

function walk(
  buf: Uint8Array,
  contractId: string,
  version: ContractIdVersion,
  sha256: Sha256Binary,
  types: TypeEnv | null,
): string | null {
  const n = buf.length;
  const r = new WireReader(buf, null, n);
  const view = new DataView(buf.buffer, buf.byteOffset, n);
  // Versioned { version = 1; payload = 2 }, nothing else
  if (r.readTag(n) !== ((1 << 3) | WIRE_LEN)) return null;
  const vStop = r.readLength(n, 'Versioned.version');
  if (!isCurrentVersion(buf, r.pos, vStop)) return null;
  r.pos = vStop;
  if (r.readTag(n) !== ((2 << 3) | WIRE_LEN)) return null;
  const end = r.readLength(n, 'Versioned.payload');
  if (end !== n) return null;

  const ch = contractPre.reset();
  ch.byte(HASH_VERSION_BYTE[HASHING_METHOD_OF[version]]).byte(LF_PURPOSE.contractInstance);
  let nameAt = -1;
  let nameStop = -1;
  let lookup: TemplateLookup | null = null;
  let last = 0;
  let idAt = -1;
  let nameDone = false;
  let templateDone = false;
  let argDone = false;
  let nSigs = 0;
  let nOthers = 0;
  let microsHi = 0;
  let microsLo = 0;
  let saltAt = -1;
  let idStart = -1;
  let idStop = -1;
  let argAt = -1;
  let argStop = -1;
  while (r.pos < end) {
    const tag = r.readTag(end);
    const f = tag >>> 3;
    if (f < last || (f === last && tag !== TAG_SIGNATORY && tag !== TAG_STAKEHOLDER)) return null;
    last = f;
    if (tag === TAG_CREATED_AT) {
      const p = r.pos;
      if (p + 8 > end) return null;
      microsLo = (buf[p]! | (buf[p + 1]! << 8) | (buf[p + 2]! << 16) | (buf[p + 3]! << 24)) >>> 0;
      microsHi = buf[p + 4]! | (buf[p + 5]! << 8) | (buf[p + 6]! << 16) | (buf[p + 7]! << 24);
      r.pos = p + 8;
      continue;
    }
    const stop = r.readLength(end, 'FatContractInstance');
    const at = r.pos;
    switch (tag) {
      case TAG_CONTRACT_ID:
        // the embedded ID spells the published one (so it is a valid V1 ID of that version)
        if (stop - at !== CONTRACT_ID_BYTES || !hexEqualsRange(contractId, buf, at)) return null;
        idAt = at;
        break;
      case TAG_PACKAGE_NAME:
        if (!isPackageNameBytes(buf, at, stop)) return null;
        ch.strRange(buf, at, stop);
        nameDone = true;
        nameAt = at;
        nameStop = stop;
        break;
      case TAG_TEMPLATE_ID:
        // the package name comes first in the preimage (and in the field order)
        if (!nameDone || !writeIdentifierOfBytes(r, view, stop, ch, types === null)) return null;
        if (types !== null) {
          lookup = lookupTemplateOfBytes(types, buf, view, nameAt, nameStop, at, stop);
          if (!lookup.ok) return null;
        }
        templateDone = true;
        idStart = at;
        idStop = stop;
        break;
      case TAG_CREATE_ARG:
        if (!templateDone) return null;
        if (types !== null) {
          if (lookup === null || !lookup.ok) return null;
          if (!streamTypedValueInto(ch, buf, at, stop, types, lookup, DEFAULT_MAX_DEPTH, view)) return null;
        } else if (!streamValueInto(ch, buf, at, stop, 'current', DEFAULT_MAX_DEPTH, version === 'v10', view))
          return null;
        argDone = true;
        argAt = at;
        argStop = stop;
        break;
      case TAG_SIGNATORY:
      case TAG_STAKEHOLDER: {
        if (!isPartyIdBytesMemo(buf, view, at, stop)) return null;
        const own = tag === TAG_SIGNATORY;
        const list = own ? sigs : others;
        const k = own ? nSigs : nOthers;
        if (k === MAX_PARTIES) return null;
        // strictly ascending (ASCII: byte order is the decoder's string order)
        if (k > 0 && compareByteRanges(buf, list[2 * k - 2]!, list[2 * k - 1]!, at, stop) >= 0) return null;
        // a stakeholder must not be a signatory
        if (!own)
          for (let i = 0; i < nSigs; i++)
            if (compareByteRanges(buf, sigs[2 * i]!, sigs[2 * i + 1]!, at, stop) === 0) return null;
        list[2 * k] = at;
        list[2 * k + 1] = stop;
        if (own) nSigs++;
        else nOthers++;
        break;
      }
      case TAG_AUTH:
        if (stop - at !== AUTH_LENGTH) return null;
        for (let i = 0; i < AUTH_HEAD.length; i++) if (buf[at + i] !== AUTH_HEAD[i]) return null;
        if (buf[at + 40] !== 0x10 || buf[at + 41] !== 0x1e) return null;
        saltAt = at + 8;
        break;
      default:
        return null;
    }
    r.pos = stop;
  }
  if (idAt < 0 || !argDone || nSigs === 0 || saltAt < 0) return null;
  // created_at µs → (epochSecond, nano) with floor semantics, exact in doubles below 2^53
  if (microsHi < -0x200000 || microsHi >= 0x200000) return null;
  const micros = microsHi * TWO_32 + microsLo;
  const secs = Math.floor(micros / 1e6);
  const nanos = (micros - secs * 1e6) * 1000;
  const secsHi = Math.floor(secs / TWO_32);

  const contractHash = sha256(ch.bytes());
  if (contractHash.length !== 32) return null;
  const u = unicumPre.reset();
  u.i32(UNICUM_PURPOSE)
    .rawRange(buf, saltAt, saltAt + 32)
    .i64HiLo(secsHi, secs - secsHi * TWO_32)
    .i32(nanos);
  writeParties(u, buf, sigs, nSigs);
  writeParties(u, buf, others, nOthers);
  u.byte(0).i32(1).byte(0); // no key, no maintainers
  u.binary(contractHash);
  const unicum = sha256(u.bytes());
  if (unicum.length !== 32) return null;
  let d = 0;
  for (let i = 0; i < 32; i++) d |= unicum.charCodeAt(i) ^ (buf[idAt + 37 + i] as number);
  if (d !== 0) return null;
  if (lookup?.ok) resolved = lookup;
  const spans = lastOnePassSpans;
  spans.nameAt = nameAt;
  spans.nameStop = nameStop;
  spans.idAt = idStart;
  spans.idStop = idStop;
  spans.argAt = argAt;
  spans.argStop = argStop;
  spans.microsHi = microsHi;
  spans.microsLo = microsLo;
  return contractHash;
}

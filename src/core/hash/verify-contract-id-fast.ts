/**
 * Contract-ID verification from the blob (issue 11 item 3) for callers that need the verdict only.
 *
 * First the one-pass verdict (one-pass-verdict.ts): one walk over the blob's bytes writes both hash
 * preimages — V10/V11 through stream-value-hash.ts, V12 typed as it streams through
 * typed-stream-hash.ts — with no decoded contract, no value tree and no strings. At the edges the
 * bytes come from a reused base64 buffer and the digests as binary strings (the `base64Scratch`
 * and `sha256Binary` seams). For shapes the one pass does not answer, the older fast paths: V10/V11
 * decode the envelope and stream the create argument; V12 decodes and types through the memo.
 *
 * Only a `verified` outcome is produced by a fast path; anything else — a decode error, a shape no
 * fast path handles, a mismatch — is answered by the full `verifyContractId`, so the status,
 * suffixes, typing and reasons are always those of the full path (test/hash/verify-fast.test.ts
 * checks this on every real vector, fuzz case and truncation). A result from a fast path carries
 * no decoded contract (`contract: null`, except V12 through the decoding path); decode the blob
 * when you need the create argument.
 */
import {
  decodeCreatedEventBlob,
  decodeCreatedEventBlobLazy,
  type LazyDecodedContract,
} from '../codec/blob-decoder.js';
import { type Base64Decoder, type Base64ScratchDecoder, parseBase64 } from '../codec/bytes.js';
import type { DecodedContract } from '../codec/contract.js';
import { DEFAULT_MAX_BYTES } from '../codec/limits.js';
import type { TypeEnv } from '../types/type-env.js';
import { versionOfIdHex } from './contract-id.js';
import type { ContractIdVersion } from './contract-id-version.js';
import { binaryToHex } from './hex.js';
import { computeTypedVerdictOnePass, computeVerdictOnePass, type TypedVerdict } from './one-pass-verdict.js';
import type { Sha256, Sha256Binary } from './sha256.js';
import { binarySha256, sha256Noble } from './sha256.js';
import { computeContractHashStreamed } from './stream-value-hash.js';
import {
  type ContractIdVerification,
  type TypingInfo,
  type VerifyContractIdOptions,
  verifyContractId,
  verifyDecodedContract,
} from './verify-contract-id.js';

export interface VerifyContractIdFastOptions extends VerifyContractIdOptions {
  /**
   * base64 decoding for a text blob (default: the pure strict parser); an edge passes a native one
   * (src/io/node-base64.ts). Anything it does not accept goes through the full path.
   */
  readonly base64?: Base64Decoder | undefined;
  /**
   * base64 decoding into a reused buffer for the one-pass verdict (src/io/node-base64.ts); when it
   * gives null, or the verdict needs the full path, `base64` (or the pure parser) decodes again
   */
  readonly base64Scratch?: Base64ScratchDecoder | undefined;
  /** the same SHA-256 as `sha256` with a binary-string digest, for the one-pass verdict (src/io/node-sha256.ts) */
  readonly sha256Binary?: Sha256Binary | undefined;
}

/** Like verifyContractId (same status, suffixes and reasons), faster from the blob. Never throws. */
export function verifyContractIdFast(opts: VerifyContractIdFastOptions): ContractIdVerification {
  const version = versionOfIdHex(opts.contractId);
  if (version === null) return verifyContractId(opts);
  const sha256: Sha256 = opts.sha256 ?? sha256Noble;
  const shaBinary = opts.sha256Binary ?? binarySha256(sha256);
  const types = opts.types;
  if (version === 'v12' && types === undefined) return verifyContractId(opts);
  // 1. the one-pass verdict, from the edge's reused base64 buffer when there is one
  const blob0 = opts.blob;
  if (typeof blob0 === 'string' && opts.base64Scratch !== undefined) {
    if ((blob0.length / 4) * 3 <= DEFAULT_MAX_BYTES + 2) {
      const bytes = opts.base64Scratch(blob0);
      if (bytes !== null) {
        const r = onePass(bytes, opts.contractId, version, types, shaBinary);
        if (r !== null) return r;
      }
    }
  }
  // 2. the blob's bytes (fresh from a decoder: no private copy needed later)
  let blob: Uint8Array;
  let fresh: { copyInput: false } | undefined;
  if (typeof blob0 !== 'string') blob = blob0;
  else {
    // the size bound before anything is allocated, as parseBase64 does
    if ((blob0.length / 4) * 3 > DEFAULT_MAX_BYTES + 2) return verifyContractId(opts);
    let bytes: Uint8Array | null = null;
    if (opts.base64 !== undefined) bytes = opts.base64(blob0);
    if (bytes === null) {
      try {
        bytes = parseBase64(blob0, 'created_event_blob', DEFAULT_MAX_BYTES);
      } catch {
        return verifyContractId(opts);
      }
    }
    blob = bytes;
    fresh = { copyInput: false };
  }
  if (typeof blob0 !== 'string' || opts.base64Scratch === undefined) {
    const r = onePass(blob, opts.contractId, version, types, shaBinary);
    if (r !== null) return r;
  }
  // 3. the decoding paths, for shapes the one pass does not answer
  if (version === 'v12') {
    let contract: DecodedContract;
    try {
      contract = decodeCreatedEventBlob(blob, fresh);
    } catch {
      return verifyContractId(opts);
    }
    const r = verifyDecodedContract({ contractId: opts.contractId, contract, types, sha256 });
    return r.ok && r.version === 'v12' ? r : verifyContractId(opts);
  }
  let lazy: LazyDecodedContract;
  try {
    lazy = decodeCreatedEventBlobLazy(blob, fresh);
  } catch {
    return verifyContractId(opts);
  }
  const contractHash = computeContractHashStreamed(lazy, version, sha256);
  if (contractHash === null) return verifyContractId(opts);
  const r = verifyDecodedContract({
    contractId: opts.contractId,
    contract: lazy.contract,
    sha256,
    contractHash,
  });
  if (!r.ok || r.version !== version) return verifyContractId(opts);
  return { ...r, contract: null };
}

/**
 * `verifyContractIdFast(opts).ok`, for callers that need only the verdict (the bench, a filter):
 * a pass of the one-pass verdict answers with no result object and no hex strings; everything
 * else is verifyContractIdFast's (and so verifyContractId's) verdict. Never throws.
 */
export function isContractIdVerifiedFast(opts: VerifyContractIdFastOptions): boolean {
  const blob = opts.blob;
  const shaBinary = opts.sha256Binary;
  if (typeof blob === 'string' && opts.base64Scratch !== undefined && shaBinary !== undefined) {
    const version = versionOfIdHex(opts.contractId);
    if (version !== null && (blob.length / 4) * 3 <= DEFAULT_MAX_BYTES + 2) {
      const bytes = opts.base64Scratch(blob);
      if (bytes !== null) {
        if (version !== 'v12') {
          if (computeVerdictOnePass(bytes, opts.contractId, version, shaBinary) !== null) return true;
        } else if (
          opts.types !== undefined &&
          computeTypedVerdictOnePass(bytes, opts.contractId, opts.types, shaBinary) !== null
        )
          return true;
      }
    }
  }
  return verifyContractIdFast(opts).ok;
}

/** The one-pass verdict as verifyContractId's result for a pass; null when it did not answer. */
function onePass(
  bytes: Uint8Array,
  contractId: string,
  version: ContractIdVersion,
  types: TypeEnv | undefined,
  sha256: Sha256Binary,
): ContractIdVerification | null {
  if (version !== 'v12') {
    const hash = computeVerdictOnePass(bytes, contractId, version, sha256);
    return hash === null ? null : verified(contractId, version, hash, undefined);
  }
  if (types === undefined) return null;
  const v = computeTypedVerdictOnePass(bytes, contractId, types, sha256);
  if (v === null) return null;
  return verified(contractId, version, v.contractHash, typingOf(v.resolution));
}

/** The typing info of a resolution (remembered: resolutions are, per environment and template). */
const typings = new WeakMap<TypedVerdict['resolution'], TypingInfo>();
function typingOf(resolution: TypedVerdict['resolution']): TypingInfo {
  let t = typings.get(resolution);
  if (t === undefined) {
    const p = resolution.package;
    t = {
      packageId: p.packageId,
      packageName: p.name,
      packageVersion: p.version,
      upgraded: resolution.upgraded,
      note: resolution.note,
    };
    typings.set(resolution, t);
  }
  return t;
}

/** The result verifyContractId gives for a pass, from the published ID and the contract hash. */
function verified(
  contractId: string,
  version: ContractIdVersion,
  contractHash: string,
  typing: TypingInfo | undefined,
): ContractIdVerification {
  const suffix = contractId.slice(66);
  const r: { -readonly [K in keyof ContractIdVerification]: ContractIdVerification[K] } = {
    ok: true,
    status: 'verified',
    version,
    reasons: [],
    contractHash: binaryToHex(contractHash),
    unicum: suffix.slice(8),
    expectedSuffix: suffix,
    actualSuffix: suffix,
    embeddedContractIdMatches: true,
    embeddedContractId: contractId,
    contract: null,
  };
  // added to the object, not spread into a copy (which cost as much again)
  if (typing !== undefined) r.typing = typing;
  return r;
}

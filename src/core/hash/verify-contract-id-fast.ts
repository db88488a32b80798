/**
 * One-pass contract-ID verification from the blob (issue 11 item 3) for callers that need the
 * verdict only: the blob's envelope and contract fields are decoded and checked as usual, but the
 * V10/V11 create argument is streamed from its bytes straight into the contract-hash preimage
 * (stream-value-hash.ts) instead of being decoded into a value tree.
 *
 * V12 (typed normal form) needs the create argument's values typed, so it is decoded, but from
 * the edge's base64 bytes without a private copy, and typed through the type environment's
 * per-template memo (resolveTemplateCached, the typed encoder's constructor cache).
 *
 * Only a `verified` outcome is produced here; anything else — a decode error, a shape the stream
 * does not handle, a mismatch — is answered by the full `verifyContractId`, so the status,
 * suffixes and reasons are always those of the full path (test/hash/verify-fast.test.ts checks this
 * on every real vector and fuzz case). For V10/V11 the result carries no decoded contract
 * (`contract: null`) when the fast path answered; decode the blob when you need the create argument.
 */
import {
  decodeCreatedEventBlob,
  decodeCreatedEventBlobLazy,
  type LazyDecodedContract,
} from '../codec/blob-decoder.js';
import type { Base64Decoder } from '../codec/bytes.js';
import type { DecodedContract } from '../codec/contract.js';
import { DEFAULT_MAX_BYTES } from '../codec/limits.js';
import type { Sha256 } from './sha256.js';
import { sha256Noble } from './sha256.js';
import { computeContractHashStreamed } from './stream-value-hash.js';
import {
  type ContractIdVerification,
  type VerifyContractIdOptions,
  verifyContractId,
  verifyDecodedContract,
} from './verify-contract-id.js';

/** The version of a V1 contract ID from its hex (`00` ‖ 64 hex ‖ `ca1N…`), or null. */
function versionOfHex(id: string): 'v10' | 'v11' | 'v12' | null {
  if (id.length !== 138 || id.charCodeAt(66) !== 0x63 || id.charCodeAt(67) !== 0x61) return null;
  const v = id.slice(68, 70);
  return v === '10' ? 'v10' : v === '11' ? 'v11' : v === '12' ? 'v12' : null;
}

export interface VerifyContractIdFastOptions extends VerifyContractIdOptions {
  /**
   * base64 decoding for a text blob (default: the pure strict parser); an edge passes a native one
   * (src/io/node-base64.ts). Anything it does not accept goes through the full path.
   */
  readonly base64?: Base64Decoder | undefined;
}

/** Like verifyContractId (same status, suffixes and reasons), faster from the blob. Never throws. */
export function verifyContractIdFast(opts: VerifyContractIdFastOptions): ContractIdVerification {
  const version = versionOfHex(opts.contractId);
  if (version === null) return verifyContractId(opts);
  const sha256: Sha256 = opts.sha256 ?? sha256Noble;
  let blob = opts.blob;
  if (typeof blob === 'string' && opts.base64 !== undefined) {
    // the size bound before anything is allocated, as parseBase64 does
    if ((blob.length / 4) * 3 > DEFAULT_MAX_BYTES + 2) return verifyContractId(opts);
    const bytes = opts.base64(blob);
    if (bytes === null) return verifyContractId(opts);
    blob = bytes;
  }
  // fresh bytes from the base64 decoder: no private copy needed
  const fresh = blob === opts.blob ? undefined : { copyInput: false };
  if (version === 'v12') {
    if (opts.types === undefined) return verifyContractId(opts);
    let contract: DecodedContract;
    try {
      contract = decodeCreatedEventBlob(blob, fresh);
    } catch {
      return verifyContractId(opts);
    }
    const r = verifyDecodedContract({ contractId: opts.contractId, contract, types: opts.types, sha256 });
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

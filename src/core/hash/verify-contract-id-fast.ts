/**
 * One-pass contract-ID verification from the blob (issue 11 item 3) for callers that need the
 * verdict only: the blob's envelope and contract fields are decoded and checked as usual, but the
 * V10/V11 create argument is streamed from its bytes straight into the contract-hash preimage
 * (stream-value-hash.ts) instead of being decoded into a value tree.
 *
 * Only a `verified` outcome is produced here; anything else — V12, a decode error, a shape the
 * stream does not handle, a mismatch — is answered by the full `verifyContractId`, so the status,
 * suffixes and reasons are always those of the full path (test/hash/verify-fast.test.ts checks this
 * on every real vector and fuzz case). The result carries no decoded contract (`contract: null`)
 * when the fast path answered; decode the blob when you need the create argument.
 */
import { decodeCreatedEventBlobLazy, type LazyDecodedContract } from '../codec/blob-decoder.js';
import type { Base64Decoder } from '../codec/bytes.js';
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
function versionOfHex(id: string): 'v10' | 'v11' | null {
  if (id.length !== 138 || id.charCodeAt(66) !== 0x63 || id.charCodeAt(67) !== 0x61) return null;
  const v = id.slice(68, 70);
  return v === '10' ? 'v10' : v === '11' ? 'v11' : null;
}

export interface VerifyContractIdFastOptions extends VerifyContractIdOptions {
  /**
   * base64 decoding for a text blob (default: the pure strict parser); an edge passes a native one
   * (src/io/node-base64.ts). Anything it does not accept goes through the full path.
   */
  readonly base64?: Base64Decoder | undefined;
}

/** Like verifyContractId (same status, suffixes and reasons), faster for V10/V11 blobs. Never throws. */
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
  let lazy: LazyDecodedContract;
  try {
    // fresh bytes from the decoder: no private copy needed
    lazy = decodeCreatedEventBlobLazy(blob, blob === opts.blob ? undefined : { copyInput: false });
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

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
import { type Base64Decoder, type Base64ScratchDecoder, parseBase64 } from '../codec/bytes.js';
import type { DecodedContract } from '../codec/contract.js';
import { DEFAULT_MAX_BYTES } from '../codec/limits.js';
import { binaryToHex } from './hex.js';
import { computeVerdictOnePass } from './one-pass-verdict.js';
import type { Sha256, Sha256Binary } from './sha256.js';
import { binarySha256, sha256Noble } from './sha256.js';
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
  const version = versionOfHex(opts.contractId);
  if (version === null) return verifyContractId(opts);
  const sha256: Sha256 = opts.sha256 ?? sha256Noble;
  const blob0 = opts.blob;
  if (version !== 'v12' && typeof blob0 === 'string' && opts.base64Scratch !== undefined) {
    if ((blob0.length / 4) * 3 <= DEFAULT_MAX_BYTES + 2) {
      const bytes = opts.base64Scratch(blob0);
      if (bytes !== null) {
        const hash = computeVerdictOnePass(
          bytes,
          opts.contractId,
          version,
          opts.sha256Binary ?? binarySha256(sha256),
        );
        if (hash !== null) return verifiedWithoutContract(opts.contractId, version, hash);
      }
    }
  }
  let blob = opts.blob;
  if (typeof blob === 'string' && opts.base64 !== undefined) {
    // the size bound before anything is allocated, as parseBase64 does
    if ((blob.length / 4) * 3 > DEFAULT_MAX_BYTES + 2) return verifyContractId(opts);
    const bytes = opts.base64(blob);
    if (bytes === null) return verifyContractId(opts);
    blob = bytes;
  }
  // fresh bytes from the base64 decoder: no private copy needed
  let fresh = blob === opts.blob ? undefined : { copyInput: false };
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
  // the one-pass verdict (canonical blobs; anything else below)
  let bytes: Uint8Array | null = typeof blob === 'string' ? null : blob;
  if (bytes === null) {
    try {
      bytes = parseBase64(blob as string, 'created_event_blob', DEFAULT_MAX_BYTES);
    } catch {
      return verifyContractId(opts);
    }
    blob = bytes;
    fresh = { copyInput: false };
  }
  const onePass = computeVerdictOnePass(
    bytes,
    opts.contractId,
    version,
    opts.sha256Binary ?? binarySha256(sha256),
  );
  if (onePass !== null) return verifiedWithoutContract(opts.contractId, version, onePass);
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

/** The result verifyContractId gives for a pass, from the published ID and the contract hash. */
function verifiedWithoutContract(
  contractId: string,
  version: 'v10' | 'v11',
  contractHash: string,
): ContractIdVerification {
  const suffix = contractId.slice(66);
  return {
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
}

/**
 * The cascade of the seam (./engine.ts): the engine may only answer *verified*; anything else goes
 * to the reference walk (src/core/hash/verify-contract-id.ts), which decides. The verdict is
 * therefore always the reference's — the engine only makes the common case cheaper.
 */
import { type Base64ScratchDecoder, parseBase64 } from '../codec/bytes.js';
import { DEFAULT_MAX_BYTES } from '../codec/limits.js';
import type { HashContext } from '../hash/hash-context.js';
import type { Sha256 } from '../hash/sha256.js';
import { type ContractIdVerification, verifyContractId } from '../hash/verify-contract-id.js';
import type { TypeEnv } from '../types/type-env.js';
import type { VerdictEngine } from './engine.js';

export interface IsContractIdVerifiedOptions {
  /** the published contract ID, lower-case hex */
  readonly contractId: string;
  /** the created_event_blob: bytes or base64 */
  readonly blob: string | Uint8Array;
  /** Daml types (needed for V12 contract IDs) */
  readonly types?: TypeEnv | undefined;
  /** the reference's SHA-256 (default: the pure one) */
  readonly sha256?: Sha256 | undefined;
  /** the fast engine (src/core/verdict/wasm/engine.ts); none: the reference alone */
  readonly engine?: VerdictEngine | null | undefined;
  /**
   * base64 into a reused buffer (src/io/node-base64.ts `decodeBase64NodeScratch`); null from it, or
   * no decoder: the strict pure parser
   */
  readonly base64?: Base64ScratchDecoder | undefined;
  /** the reference's builder, caches and scratch (src/core/hash/hash-context.ts; fresh when absent) */
  readonly context?: HashContext | undefined;
}

/**
 * The cascade's verdict with its reasons: `null` when the engine answered *verified* (the clean
 * case, nothing more to say), otherwise the reference walk's full `ContractIdVerification` (which
 * may still be `verified`, for a shape the engine leaves to the reference). One walk per contract:
 * the reference runs only when the engine did not answer. Never throws.
 */
export function verifyContractIdCascade(o: IsContractIdVerifiedOptions): ContractIdVerification | null {
  const engine = o.engine;
  if (engine !== null && engine !== undefined) {
    let bytes: Uint8Array | null = null;
    const blob = o.blob;
    if (typeof blob !== 'string') bytes = blob;
    else if ((blob.length / 4) * 3 <= DEFAULT_MAX_BYTES + 2) {
      bytes = o.base64 === undefined ? null : o.base64(blob);
      if (bytes === null)
        try {
          bytes = parseBase64(blob, 'created_event_blob', DEFAULT_MAX_BYTES, o.context?.decode.pool ?? null);
        } catch {
          bytes = null;
        }
    }
    if (bytes !== null && engine.verify(bytes, o.contractId, o.types) !== null) return null;
  }
  return verifyContractId({
    contractId: o.contractId,
    blob: o.blob,
    types: o.types,
    sha256: o.sha256,
    context: o.context,
  });
}

/**
 * `verifyContractId(o).ok`: whether the published contract ID recomputes from the blob and is the
 * one the blob embeds. The engine answers the clean case; the reference answers everything else.
 * Never throws.
 */
export function isContractIdVerified(o: IsContractIdVerifiedOptions): boolean {
  const r = verifyContractIdCascade(o);
  return r === null || r.ok;
}
